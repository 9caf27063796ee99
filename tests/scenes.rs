//! Scene files: the documented example, every class of bad input, a fuzz test, and every
//! shipped scene running headless.

use contactlab::physics::{BodyKind, SolverMode};
use contactlab::scene::{self, SceneError};
use glam::{Quat, Vec3};
use proptest::prelude::*;

const INCLINE: &str = r#"
Scene(
    name: "Incline",
    gravity: (0.0, -9.81, 0.0),
    timestep: 0.016666668,
    solver: (mode: Iterative, iterations: 10),
    bodies: [
        (name: "ramp", shape: Box(half_extents: (5.0, 0.25, 2.0)), kind: Static,
         rotation: AxisAngleDeg(axis: (0.0, 0.0, 1.0), angle: 30.0)),
        (name: "crate", shape: Box(half_extents: (0.5, 0.5, 0.5)), position: (0.0, 1.0, 0.0),
         rotation: EulerDeg(0.0, 0.0, 30.0), friction: 0.6, restitution: 0.0),
        (name: "ball", shape: Sphere(radius: 0.3), position: (2.0, 3.0, 0.0), velocity: (0.0, 0.0, 0.0)),
    ],
)
"#;

#[test]
fn the_documented_example_loads_exactly_as_written() {
    let s = scene::load_str(INCLINE, "incline").unwrap();
    assert_eq!(s.desc.name, "Incline");
    assert_eq!(s.timestep(), 0.016666668);
    assert_eq!(s.world.settings.mode, SolverMode::Iterative);
    assert_eq!(s.world.settings.iterations, 10);
    assert_eq!(s.world.gravity, Vec3::new(0.0, -9.81, 0.0));
    let b = s.world.bodies();
    assert_eq!(b.len(), 3);
    assert_eq!(b[0].kind, BodyKind::Static);
    let q30 = Quat::from_rotation_z(30f32.to_radians());
    assert!(b[0].pose.rot.dot(q30).abs() > 1.0 - 1e-6);
    assert!(b[1].pose.rot.dot(q30).abs() > 1.0 - 1e-6, "EulerDeg(0, 0, 30) is 30° about z");
    assert_eq!(b[1].friction, 0.6);
    assert_eq!(b[2].friction, 0.5, "default friction");
    assert_eq!(b[2].restitution, 0.0, "default restitution");
    // Default density 1000: a 0.3 m ball weighs 4/3·π·0.027·1000.
    assert!((b[2].mass() - 4.0 / 3.0 * std::f32::consts::PI * 0.027 * 1000.0).abs() < 1e-2);
    assert_eq!(b[1].pose.pos, Vec3::new(0.0, 1.0, 0.0));
}

fn err(text: &str) -> String {
    match scene::load_str(text, "test.ron") {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(e) => e.to_string(),
    }
}

fn with_body(body: &str) -> String {
    format!("Scene(name: \"t\", bodies: [{body}])")
}

#[test]
fn missing_file_is_an_io_error() {
    let e = scene::load(std::path::Path::new("no/such/scene.ron")).unwrap_err();
    assert!(matches!(e, SceneError::Io { .. }));
    assert!(e.to_string().contains("no/such/scene.ron"), "{e}");
}

#[test]
fn syntax_error_gives_file_line_and_column() {
    let e = err("Scene(\n  name: \"t\",\n  bodies: [\n    (name: \"a\" shape: Sphere(radius: 1.0)),\n  ],\n)");
    assert!(e.starts_with("test.ron:4:"), "{e}");
    let e = err("Scene(name: \"t\", gravity: (0.0, -9.81, 0.0)");
    assert!(e.starts_with("test.ron:1:"), "{e}");
}

#[test]
fn unknown_fields_and_variants_list_the_valid_ones() {
    let e = err("Scene(name: \"t\", gravty: (0.0, 0.0, 0.0))");
    assert!(e.contains("gravty") && e.contains("gravity"), "{e}");
    let e = err(&with_body("(name: \"a\", shape: Cube(half_extents: (1.0, 1.0, 1.0)))"));
    assert!(e.contains("Cube") && e.contains("Box") && e.contains("Sphere"), "{e}");
    let e = err(&with_body("(name: \"a\", shape: Sphere(radius: 1.0), frcition: 0.2)"));
    assert!(e.contains("frcition") && e.contains("friction"), "{e}");
    let e = err("Scene(name: \"t\", solver: (mode: Fancy))");
    assert!(e.contains("Fancy") && e.contains("Naive") && e.contains("Iterative"), "{e}");
}

#[test]
fn semantic_errors_name_the_body_and_the_field() {
    let cases = [
        ("(name: \"crate\", shape: Box(half_extents: (1.0, 0.0, 1.0)))", "crate", "half_extents.y"),
        ("(name: \"ball\", shape: Sphere(radius: -1.0))", "ball", "radius"),
        ("(name: \"pill\", shape: Capsule(radius: 0.2, half_height: 0.0))", "pill", "half_height"),
        ("(name: \"heavy\", shape: Sphere(radius: 1.0), mass: Some(0.0))", "heavy", "mass"),
        ("(name: \"light\", shape: Sphere(radius: 1.0), density: -5.0)", "light", "density"),
        ("(name: \"flat\", shape: Hull(points: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0, 1.0)]))", "flat", "shape"),
        ("(name: \"few\", shape: Hull(points: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 1.0, 0.0)]))", "few", "shape"),
        ("(name: \"nan\", shape: Sphere(radius: 1.0), position: (NaN, 0.0, 0.0))", "nan", "position"),
        ("(name: \"inf\", shape: Sphere(radius: 1.0), velocity: (0.0, inf, 0.0))", "inf", "velocity"),
        ("(name: \"nanr\", shape: Sphere(radius: NaN))", "nanr", "radius"),
        ("(name: \"sticky\", shape: Sphere(radius: 1.0), friction: -0.1)", "sticky", "friction"),
        ("(name: \"bouncy\", shape: Sphere(radius: 1.0), restitution: 1.5)", "bouncy", "restitution"),
        ("(name: \"neg\", shape: Sphere(radius: 1.0), restitution: -0.1)", "neg", "restitution"),
        ("(name: \"back\", shape: Sphere(radius: 1.0), rolling_resistance: -0.1)", "back", "rolling_resistance"),
        ("(name: \"nanroll\", shape: Sphere(radius: 1.0), rolling_resistance: NaN)", "nanroll", "rolling_resistance"),
        ("(name: \"can\", shape: Cylinder(radius: 1.0, half_height: 1.0, segments: 2))", "can", "segments"),
        ("(name: \"q\", shape: Sphere(radius: 1.0), rotation: Quat(0.0, 0.0, 0.0, 0.0))", "q", "rotation"),
        ("(name: \"none\", shape: Compound(children: []))", "none", "children"),
        ("(name: \"c\", shape: Compound(children: [(shape: Sphere(radius: -1.0))]))", "c", "radius"),
        ("(name: \"t\", shape: Compound(children: [(shape: Sphere(radius: 1.0), rotation: Quat(0.0, 0.0, 0.0, 0.0))]))", "t", "rotation"),
        ("(name: \"m\", shape: Compound(children: [(shape: Ramp(angle_deg: 10.0, length: 1.0, width: 1.0))]))", "m", "shape"),
        ("(name: \"n\", shape: Compound(children: [(shape: Compound(children: [(shape: Sphere(radius: 1.0))]))]))", "n", "shape"),
        ("(name: \"far\", shape: Compound(children: [(shape: Sphere(radius: 1.0), position: (1e9, 0.0, 0.0))]))", "far", "position"),
    ];
    for (body, name, field) in cases {
        let e = err(&with_body(body));
        assert!(e.contains(&format!("body '{name}'")) && e.contains(&format!("field '{field}'")), "{body}\n→ {e}");
    }
    let e = err(&with_body("(name: \"a\", shape: Sphere(radius: 1.0)), (name: \"a\", shape: Sphere(radius: 1.0))"));
    assert!(e.contains("body 'a'") && e.contains("unique"), "{e}");
    let e = err("Scene(name: \"t\", timestep: 0.0)");
    assert!(e.contains("timestep") && e.contains("> 0"), "{e}");
    let e = err("Scene(name: \"t\", timestep: -0.01)");
    assert!(e.contains("timestep"), "{e}");
    let e = err("Scene(name: \"t\", solver: (iterations: 0))");
    assert!(e.contains("iterations") && e.contains("at least 1"), "{e}");
    let e = err("Scene(name: \"t\", gravity: (0.0, NaN, 0.0))");
    assert!(e.contains("gravity") && e.contains("finite"), "{e}");
    let e = err("Scene(name: \"t\", generators: [Stack(name: \"s\", base: (0.0, 0.0, 0.0), count: 0, half_extents: (0.5, 0.5, 0.5))])");
    assert!(e.contains("generator 's'") && e.contains("count"), "{e}");
    let e = err("Scene(name: \"t\", view: (selected: Some((\"x\", \"y\"))))");
    assert!(e.contains("no body is named 'x'"), "{e}");
}

#[test]
fn values_outside_the_documented_ranges_are_refused_with_value_and_range() {
    // (body, name, field, the range as the message states it). The first four are the
    // scenes that used to go NaN (issue 22).
    let cases = [
        ("(name: \"dust\", shape: Sphere(radius: 1e-9))", "dust", "radius", "between 0.0005 and 1000 m"),
        ("(name: \"fluff\", shape: Sphere(radius: 0.3), density: 1e-12)", "fluff", "density", "between 1 and 100000 kg/m³"),
        (
            "(name: \"plain\", shape: Box(half_extents: (1e30, 0.5, 1e30)), kind: Static)",
            "plain",
            "half_extents.x",
            "between 0.0005 and 1000 m",
        ),
        ("(name: \"far\", shape: Sphere(radius: 1.0), position: (0.0, 2e4, 0.0))", "far", "position", "between -10000 and 10000 m"),
        ("(name: \"fast\", shape: Sphere(radius: 1.0), velocity: (3000.0, 0.0, 0.0))", "fast", "velocity", "between 0 and 1000 m/s"),
        ("(name: \"spun\", shape: Sphere(radius: 1.0), angular_velocity: (0.0, 0.0, 500.0))", "spun", "angular_velocity", "between 0 and 100 rad/s"),
        ("(name: \"grip\", shape: Sphere(radius: 1.0), friction: 50.0)", "grip", "friction", "between 0 and 10"),
        ("(name: \"tar\", shape: Sphere(radius: 1.0), rolling_resistance: 2.0)", "tar", "rolling_resistance", "between 0 and 1"),
        ("(name: \"lead\", shape: Sphere(radius: 0.01), mass: Some(1e6))", "lead", "mass", "between 1 and 100000 kg/m³"),
        ("(name: \"tiny\", shape: Box(half_extents: (0.001, 0.001, 0.001)), density: 1.0)", "tiny", "mass", "between 0.000001 and 1000000000 kg"),
        (
            "(name: \"foil\", shape: Hull(points: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0), (1.0, 0.0001, 1.0)]))",
            "foil",
            "shape",
            "thickness must be between 0.001",
        ),
        ("(name: \"huge\", shape: Hull(points: [(0.0, 0.0, 0.0), (3000.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]), kind: Static)", "huge", "shape", "radius about its centre must be between"),
    ];
    for (body, name, field, range) in cases {
        let e = err(&with_body(body));
        assert!(
            e.contains(&format!("body '{name}'")) && e.contains(&format!("field '{field}'")) && e.contains(range),
            "{body}\n→ {e}"
        );
        assert!(e.contains("got "), "the message states the value: {e}");
    }
    // The mass ratio names both bodies.
    let e = err(&with_body(
        "(name: \"anvil\", shape: Sphere(radius: 1.0), density: 10000.0), (name: \"feather\", shape: Sphere(radius: 0.1), density: 1.0)",
    ));
    assert!(e.contains("body 'anvil'") && e.contains("body 'feather'") && e.contains("1000×"), "{e}");
    // Exactly at the limit is fine: 1000 times the mass (10× the radius, same density).
    let ok = with_body(
        "(name: \"big\", shape: Sphere(radius: 1.0)), (name: \"small\", shape: Sphere(radius: 0.1000001), position: (5.0, 0.0, 0.0))",
    );
    scene::load_str(&ok, "test.ron").unwrap();
    for (text, field, range) in [
        ("Scene(name: \"t\", timestep: 1.0)", "timestep", "between 0.0001 and 0.1 s"),
        ("Scene(name: \"t\", gravity: (0.0, -1000.0, 0.0))", "gravity", "between -100 and 100 m/s²"),
        ("Scene(name: \"t\", solver: (slop: 5.0))", "slop", "between 0 and 0.1 m"),
        ("Scene(name: \"t\", solver: (contact_hertz: 1e9))", "contact_hertz", "between 0 and 1000 Hz"),
        ("Scene(name: \"t\", solver: (margin: 3.0))", "margin", "between 0 and 1 m"),
        ("Scene(name: \"t\", solver: (threads: 100))", "threads", "at most 64 (0: every core)"),
        (
            "Scene(name: \"t\", generators: [Stack(name: \"s\", base: (0.0, 0.0, 0.0), count: 2, half_extents: (0.5, 1e-5, 0.5))])",
            "half_extents",
            "between 0.0005 and 1000 m",
        ),
    ] {
        let e = err(text);
        assert!(e.contains(&format!("field '{field}'")) && e.contains(range), "{text}\n→ {e}");
    }
}

#[test]
fn generators_expand_with_the_documented_names_and_counts() {
    let s = scene::load_str(
        "Scene(name: \"g\", generators: [
            Stack(name: \"s\", base: (0.0, 0.0, 0.0), count: 3, half_extents: (0.5, 0.5, 0.5)),
            Pyramid(name: \"p\", base: (10.0, 0.0, 0.0), layers: 4, half_extents: (0.5, 0.5, 0.5)),
            Wall(name: \"w\", base: (0.0, 0.0, 10.0), columns: 5, rows: 2, half_extents: (0.5, 0.25, 0.25), bricks: true),
            RandomHulls(name: \"r\", count: 7, points: 10, seed: 1, region: ((-1.0, 5.0, -1.0), (1.0, 9.0, 1.0))),
        ])",
        "g",
    )
    .unwrap();
    let names: Vec<&str> = s.world.bodies().iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names.len(), 3 + 10 + 10 + 7);
    assert!(names.contains(&"s2") && names.contains(&"p3_0") && names.contains(&"w1_4") && names.contains(&"r6"));
    // Stack boxes rest exactly on each other: centres at 0.5, 1.5, 2.5.
    let y: Vec<f32> = (0..3).map(|i| s.world.bodies()[i].pose.pos.y).collect();
    assert_eq!(y, vec![0.5, 1.5, 2.5]);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,200}") {
        let _ = scene::load_str(&text, "fuzz");
    }

    #[test]
    fn mutated_scenes_never_panic(pos in 0usize..400, len in 0usize..8, insert in "[-0-9a-zA-Z(),.:\\[\\]\" ]{0,8}") {
        let base = INCLINE;
        let mut bytes = base.as_bytes().to_vec();
        let p = pos.min(bytes.len());
        let end = (p + len).min(bytes.len());
        bytes.splice(p..end, insert.bytes());
        if let Ok(text) = String::from_utf8(bytes) {
            let _ = scene::load_str(&text, "fuzz");
        }
    }
}

#[test]
fn every_shipped_scene_loads_and_runs_300_steps_without_nan() {
    let scenes = scene::shipped_scenes();
    assert!(scenes.len() >= 15, "{} scenes", scenes.len());
    assert!(scenes.iter().any(|p| p.file_name().unwrap() == scene::DEFAULT_SCENE));
    for path in scenes {
        let mut s = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(!s.desc.description.is_empty(), "{} has no description", path.display());
        let dt = s.timestep();
        for _ in 0..300 {
            s.world.step(dt);
        }
        for b in s.world.bodies() {
            assert!(
                b.pose.pos.is_finite()
                    && b.pose.rot.is_finite()
                    && b.velocity.is_finite()
                    && b.angular_velocity.is_finite(),
                "{}: body {} is not finite",
                path.display(),
                b.name
            );
        }
    }
}

#[test]
fn pyramid_scene_top_box_stays_within_a_centimetre() {
    let mut s = scene::load(&scene::scenes_dir().join("pyramid_20.ron")).unwrap();
    let top = s.world.bodies().len() - 1;
    assert_eq!(s.world.bodies()[top].name, "box19_0");
    let start = s.world.bodies()[top].authored_pose().pos;
    for _ in 0..600 {
        s.world.step(s.desc.timestep);
    }
    let d = (s.world.bodies()[top].authored_pose().pos - start).length();
    assert!(d < 0.01, "top box moved {d} m");
}

/// `naive_flat_drop.ron` promises: the naive method sends the flat-dropped box off spinning
/// (its per-corner impulses in sequence), the iterative method bounces it straight up at
/// e = 0.5 without turning.
#[test]
fn naive_flat_drop_scene_spins_in_naive_and_bounces_straight_in_iterative() {
    let path = scene::scenes_dir().join("naive_flat_drop.ron");
    for mode in [SolverMode::Naive, SolverMode::Iterative] {
        let mut s = scene::load(&path).unwrap();
        s.world.settings.mode = mode;
        let i = s.body_index("box").unwrap();
        let dt = s.timestep();
        let (mut spin, mut v_in, mut v_out) = (0.0f32, 0.0f32, 0.0f32);
        for _ in 0..40 {
            let before = s.world.bodies()[i].velocity.y;
            s.world.step(dt);
            let after = s.world.bodies()[i].velocity.y;
            if before < -1.0 && after > 0.0 && v_out == 0.0 {
                (v_in, v_out) = (-before, after);
            }
            spin = spin.max(s.world.bodies()[i].angular_velocity.length());
        }
        assert!(v_out > 0.0, "{mode:?}: the box never bounced");
        match mode {
            SolverMode::Naive => assert!(spin > 0.5, "naive: spin {spin} rad/s"),
            SolverMode::Iterative => {
                assert!(spin < 0.01, "iterative: spin {spin} rad/s");
                assert!((v_out / v_in - 0.5).abs() < 0.01, "iterative: rebound {v_out} / {v_in}");
            }
            SolverMode::Cyclone | SolverMode::Averaged => unreachable!("tests/methods.rs drops boxes in these"),
        }
    }
}

// ---- Each shipped scene keeps the promise its description makes. ----

fn shipped(name: &str) -> scene::LoadedScene {
    scene::load(&scene::scenes_dir().join(name)).unwrap()
}

fn body(s: &scene::LoadedScene, name: &str) -> usize {
    s.body_index(name).unwrap_or_else(|| panic!("no body {name}"))
}

fn points(s: &scene::LoadedScene, a: usize, b: usize) -> usize {
    s.world.contact(a as u32, b as u32).map_or(0, |c| c.manifold.points.len())
}

#[test]
fn box_on_vertex_starts_on_one_point_then_topples_onto_a_face() {
    let run = || {
        let mut s = shipped("box_on_vertex.ron");
        let (ground, cube) = (body(&s, "ground"), body(&s, "cube"));
        let dt = s.timestep();
        let mut first = 0;
        let mut counts = Vec::new();
        for _ in 0..360 {
            s.world.step(dt);
            let n = points(&s, ground, cube);
            if first == 0 && n > 0 {
                first = n;
            }
            if counts.last() != Some(&n) {
                counts.push(n); // the sequence of distinct point counts
            }
        }
        let b = &s.world.bodies()[cube];
        (first, counts, b.pose.pos, b.pose.rot)
    };
    let (first, counts, pos, rot) = run();
    assert_eq!(first, 1, "the first contact is a single point (the corner)");
    assert!(counts.contains(&2), "the contact grows to an edge: {counts:?}");
    assert_eq!(*counts.last().unwrap(), 4, "it ends on a face: {counts:?}");
    assert!((pos.y - 0.5).abs() < 0.01, "resting on a face, centre at {} m", pos.y);
    // The toppling is deterministic: a second run ends bit-identical.
    let (_, _, pos2, rot2) = run();
    assert_eq!((pos, rot), (pos2, rot2));
}

#[test]
fn billiards_balls_stay_on_the_table() {
    let mut s = shipped("billiards.ron");
    let dt = s.timestep();
    for _ in 0..600 {
        s.world.step(dt);
    }
    for b in s.world.bodies().iter().filter(|b| b.is_dynamic()) {
        let p = b.pose.pos;
        assert!(p.x.abs() < 4.0 && p.z.abs() < 2.0 && p.y > 0.1, "{} left the table: {p}", b.name);
    }
    // The break did spread the rack: some ball moved more than a metre.
    let moved = s.world.bodies().iter().filter(|b| b.name.starts_with("ball")).any(|b| {
        let start = shipped("billiards.ron");
        (b.pose.pos - start.world.bodies()[start.body_index(&b.name).unwrap()].pose.pos).length() > 1.0
    });
    assert!(moved);
}

/// Peaks (centre heights, m) of body `name` over `steps` steps.
fn peaks(name: &str, steps: usize) -> Vec<f32> {
    let mut s = shipped("restitution_row.ron");
    let i = body(&s, name);
    let dt = s.timestep();
    let mut out = Vec::new();
    let mut prev_vy = 0.0f32;
    for _ in 0..steps {
        s.world.step(dt);
        let b = &s.world.bodies()[i];
        if prev_vy > 0.0 && b.velocity.y <= 0.0 {
            out.push(b.pose.pos.y);
        }
        prev_vy = b.velocity.y;
    }
    out
}

#[test]
fn restitution_row_bounces_as_its_description_states() {
    let desc = shipped("restitution_row.ron").desc.description;
    // Newton's law at the moment of impact: the e = 1 ball comes back to 3.00 m each time
    // and the e = 0.75 ball's first peak is 0.3 + 2.7·0.75² = 1.82 m, to a centimetre, as
    // the description states.
    let e1 = peaks("e=1", 600);
    assert!(e1.len() >= 3, "{e1:?}");
    for (k, &peak) in e1.iter().take(3).enumerate() {
        assert!((peak - 3.0).abs() < 0.01, "e=1 peak {k}: {peak} vs 3.00 ({e1:?})");
    }
    let e75 = peaks("e=0.75", 200);
    assert!((e75[0] - 1.82).abs() < 0.01, "e=0.75 first peak {e75:?}");
    assert!(desc.contains("3.00") && desc.contains("1.82") && desc.contains("within a centimetre"));
    // e = 0 does not bounce at all.
    assert!(peaks("e=0", 600).iter().all(|&y| y < 0.32), "e=0 bounced");
}

/// Runs `steps` steps in naive mode and checks every dynamic body stays inside the box
/// |x|, |z| < `half` above the ground.
fn stays_in(name: &str, half: f32, steps: usize) {
    let mut s = shipped(name);
    s.world.settings.mode = SolverMode::Naive;
    let dt = s.timestep();
    for _ in 0..steps {
        s.world.step(dt);
    }
    for b in s.world.bodies().iter().filter(|b| b.is_dynamic()) {
        let p = b.pose.pos;
        assert!(p.x.abs() < half && p.z.abs() < half && p.y > 0.0, "{name}: {} left: {p}", b.name);
    }
}

#[test]
fn naive_scenes_keep_their_bodies_in_view() {
    stays_in("naive_stack.ron", 3.0, 900);
    stays_in("welcome.ron", 5.0, 900);
}

#[test]
fn every_shipped_scene_starts_with_its_moving_bodies_in_the_picture() {
    // The window's 3D view with the panel open is about 1240 × 900 pixels; check the first
    // 4 s, sampled every 10 steps.
    let aspect = 1240.0 / 900.0;
    let mut outside = Vec::new();
    for path in scene::shipped_scenes() {
        let mut s = scene::load(&path).unwrap();
        let cam = contactlab::app::view_state::initial_camera(&s);
        let vp = cam.view_proj(aspect);
        let dt = s.timestep();
        for k in 0..=240 {
            if k % 10 == 0 {
                for b in s.world.bodies().iter().filter(|b| b.is_dynamic()) {
                    let a = b.shape.aabb(&b.pose);
                    let c = a.center();
                    let h = (a.max - a.min) * 0.5 * 0.7; // the box's corners overstate the body
                    for corner in 0..8 {
                        let sgn = |bit: i32| if corner & bit == 0 { -1.0 } else { 1.0 };
                        let p = vp.project_point3(c + h * Vec3::new(sgn(1), sgn(2), sgn(4)));
                        if p.x.abs() > 1.0 || p.y.abs() > 1.0 {
                            outside.push(format!("{}: {} at step {k} (ndc {p})", path.display(), b.name));
                        }
                    }
                }
            }
            s.world.step(dt);
        }
    }
    outside.dedup_by(|a, b| a.split(':').next() == b.split(':').next());
    assert!(outside.is_empty(), "outside the picture:\n{}", outside.join("\n"));
}

#[test]
fn a_scene_without_a_camera_is_framed_from_outside_its_bodies() {
    // 3 000 bricks in a wall, no camera: the default camera would sit inside the wall.
    let s = scene::load_str(
        "Scene(name: \"big wall\", bodies: [(name: \"ground\", shape: Box(half_extents: (80.0, 0.5, 80.0)), kind: Static, position: (0.0, -0.5, 0.0))],
         generators: [Wall(name: \"w\", base: (0.0, 0.0, 0.0), columns: 100, rows: 30, half_extents: (0.5, 0.25, 0.25), bricks: true)])",
        "big wall",
    )
    .unwrap();
    assert!(s.desc.camera.is_none());
    let cam = contactlab::app::view_state::initial_camera(&s);
    let vp = cam.view_proj(1240.0 / 900.0);
    let mut bounds: Option<contactlab::physics::Aabb> = None;
    for b in s.world.bodies().iter().filter(|b| b.is_dynamic()) {
        let a = b.shape.aabb(&b.pose);
        bounds = Some(bounds.map_or(a, |x| x.union(&a)));
        let p = vp.project_point3(b.pose.pos);
        assert!(p.x.abs() <= 1.0 && p.y.abs() <= 1.0 && p.z < 1.0, "{} at ndc {p}", b.name);
    }
    let bounds = bounds.unwrap();
    let e = cam.eye();
    let inside = (0..3).all(|k| e[k] >= bounds.min[k] && e[k] <= bounds.max[k]);
    assert!(!inside, "the eye {e} is inside the wall's bounds {bounds:?}");
    // A scene that sets its camera keeps it.
    let own =
        scene::load_str("Scene(name: \"c\", camera: (eye: (1.0, 2.0, 3.0), target: (0.0, 0.0, 0.0)))", "c").unwrap();
    let c = contactlab::app::view_state::initial_camera(&own);
    assert!((c.eye() - Vec3::new(1.0, 2.0, 3.0)).length() < 1e-4);
}
