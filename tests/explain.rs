//! Worked examples (`contactlab explain`): the Markdown is read back and its numbers
//! compared with the world's own record of the same step, with closed forms (a resting
//! box's Σλn = m·g·dt) and with a brute-force separating-axis test on random hulls.

use contactlab::app::explain::{self, doc::Document};
use contactlab::physics::world::PassKind;
use contactlab::physics::{BodyDesc, Settings, Shape, SolverMode, World};
use contactlab::scene::{self, LoadedScene};
use glam::{Quat, Vec3};

fn load(name: &str) -> LoadedScene {
    scene::load(&scene::scenes_dir().join(name)).unwrap()
}

fn doc(scene: LoadedScene, step: u64, a: &str, b: &str) -> Document {
    let (ia, ib) = (scene.body_index(a).unwrap(), scene.body_index(b).unwrap());
    explain::explain(scene, "test", step, (ia, ib), None).unwrap()
}

/// The rows of the first Markdown table whose header starts with the columns `head`
/// ("point | λn (N·s)").
fn table(md: &str, head: &str) -> Vec<Vec<String>> {
    let lines: Vec<&str> = md.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.starts_with(&format!("| {head}")))
        .unwrap_or_else(|| panic!("no table headed '{head}'"));
    lines[start + 2..]
        .iter()
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split(" | ").map(|c| c.trim().to_string()).collect())
        .collect()
}

fn f(cell: &str) -> f32 {
    cell.trim_start_matches('+').parse().unwrap_or_else(|_| panic!("not a number: '{cell}'"))
}

fn vec3(cell: &str) -> Vec3 {
    let v: Vec<f32> = cell.trim_matches(|c| c == '(' || c == ')').split(", ").map(f).collect();
    Vec3::new(v[0], v[1], v[2])
}

/// The world of `scene` after `steps` steps with the pair watched from the last one.
fn stepped(scene: &LoadedScene, steps: u64, a: usize, b: usize) -> World {
    let mut w = scene.world.snapshot();
    for k in 0..steps {
        if k + 1 == steps {
            w.set_watched(&[(a as u32, b as u32)]);
        }
        w.step(scene.timestep());
    }
    w
}

#[test]
fn a_resting_box_carries_its_weight_and_every_number_is_the_worlds_record() {
    let scene = load("box_on_box.ron");
    let (a, b) = (scene.body_index("base").unwrap(), scene.body_index("box").unwrap());
    let world = stepped(&scene, 30, a, b);
    let md = doc(load("box_on_box.ron"), 30, "base", "box").markdown();
    let rec = world.pair_record(a as u32, b as u32).unwrap();
    // The manifold table (section 2) and the impulse totals (section 5).
    let points = table(&md, "point | position (m) | depth");
    assert_eq!(points.len(), rec.manifold.points.len());
    for (row, p) in points.iter().zip(&rec.manifold.points) {
        assert!(vec3(&row[1]).distance(p.position) < 1e-4, "{row:?} vs {p:?}");
        assert!((f(&row[2]) - p.depth).abs() < 1e-5, "{row:?} vs {p:?}");
    }
    let totals = table(&md, "point | λn (N·s)");
    let mut sum = 0.0;
    for (k, row) in totals.iter().enumerate() {
        let imp = rec.impulses[k];
        assert!((f(&row[1]) - imp.normal).abs() < 1e-5 + imp.normal.abs() * 1e-6, "{row:?} vs {imp:?}");
        assert!((f(&row[2]) - imp.tangent[0]).abs() < 1e-5, "{row:?} vs {imp:?}");
        sum += f(&row[1]);
    }
    // Closed form: Σλn = m·g·dt for a box at rest on a static one.
    let box_ = &world.bodies()[b];
    let weight = box_.mass() * 9.81 * scene.timestep();
    assert!((sum - weight).abs() < 0.01 * weight, "Σλn {sum} vs m·g·dt {weight}");
    assert!(md.contains("ratio 1.00"), "the check states the ratio");
}

/// The textbook path's passes: the world's own totals are the sums of each substep's
/// accumulated impulse after its relax passes, and the trace changes nothing.
#[test]
fn the_traced_passes_add_up_to_the_steps_totals_and_change_nothing() {
    let mut scene = load("box_on_box.ron");
    scene.world.settings.simd = false;
    let (a, b) = (scene.body_index("base").unwrap() as u32, scene.body_index("box").unwrap() as u32);
    let mut plain = scene.world.snapshot();
    let mut traced = scene.world.snapshot();
    traced.trace_pair_solve(Some((a, b)));
    traced.set_watched(&[(a, b)]);
    for _ in 0..20 {
        plain.step(scene.timestep());
        traced.step(scene.timestep());
    }
    for (p, q) in plain.bodies().iter().zip(traced.bodies()) {
        assert_eq!(p.pose.pos.to_array().map(f32::to_bits), q.pose.pos.to_array().map(f32::to_bits));
        assert_eq!(p.velocity.to_array().map(f32::to_bits), q.velocity.to_array().map(f32::to_bits));
    }
    let trace = traced.pair_solve().unwrap();
    let set = &traced.settings;
    assert_eq!(
        trace.passes.iter().filter(|p| p.kind == PassKind::Solve).count(),
        (set.substeps * set.iterations) as usize,
        "one row per solve pass"
    );
    let rec = traced.pair_record(a, b).unwrap();
    for k in 0..rec.manifold.points.len() {
        let sum: f32 = trace.passes.iter().filter(|p| p.kind == PassKind::Relax).map(|p| p.normal[k]).sum();
        let total = rec.impulses[k].normal;
        assert!((sum - total).abs() <= 1e-4 * total.abs(), "point {k}: Σ relax λn {sum} vs total {total}");
    }
}

/// The SAT section's numbers against a brute-force test: each face's separation is the
/// smallest signed distance of the other hull's vertices from the face's plane, and the
/// best query of the three kinds is the largest separation over every candidate axis.
#[test]
fn the_sat_section_agrees_with_a_brute_force_sat_on_random_hulls() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f32 / (1u64 << 53) as f32
    };
    for case in 0..12 {
        let mut w = World::new(Vec3::ZERO, Settings::default());
        let hull = |rnd: &mut dyn FnMut() -> f32| {
            let pts: Vec<Vec3> =
                (0..10).map(|_| Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * Vec3::new(1.2, 0.8, 1.0)).collect();
            Shape::Hull(std::sync::Arc::new(contactlab::physics::Hull::from_points(&pts).unwrap()))
        };
        let ha = hull(&mut rnd);
        let hb = hull(&mut rnd);
        let rot = Quat::from_euler(glam::EulerRot::XYZ, rnd() * 6.0, rnd() * 6.0, rnd() * 6.0);
        let offset = Vec3::new(rnd() - 0.5, rnd() - 0.5, rnd() - 0.5) * 0.9;
        w.add_body(BodyDesc::new("a", ha, Vec3::ZERO).fixed()).unwrap();
        w.add_body(BodyDesc::new("b", hb, offset).with_rotation(rot)).unwrap();
        let scene = LoadedScene {
            desc: scene::parse("Scene(name: \"hulls\", bodies: [])", "test").unwrap(),
            world: w.snapshot(),
            colors: vec![[0.5; 3]; 2],
        };
        let md = explain::explain(scene, "test", 1, (0, 1), None).unwrap().markdown();
        let (ba, bb) = (&w.bodies()[0], &w.bodies()[1]);
        let (pa, pb) = (ba.shape.hull().unwrap(), bb.shape.hull().unwrap());
        let world_verts = |h: &contactlab::physics::Hull, x: &contactlab::physics::Iso| {
            h.vertices().iter().map(|v| x.transform_point(*v)).collect::<Vec<_>>()
        };
        let (va, vb) = (world_verts(pa, &ba.pose), world_verts(pb, &bb.pose));
        let face_sep = |h: &contactlab::physics::Hull, x: &contactlab::physics::Iso, f: usize, other: &[Vec3]| {
            let n = x.transform_vector(h.faces()[f].normal);
            let p = x.transform_point(h.vertices()[h.face_vertices(f).next().unwrap() as usize]);
            other.iter().map(|v| n.dot(*v - p)).fold(f32::MAX, f32::min)
        };
        for (col, h, x, other) in [("face of A", pa, &ba.pose, &vb), ("face of B", pb, &bb.pose, &va)] {
            let rows = table(&md, col);
            assert_eq!(rows.len(), h.faces().len(), "case {case}: every face listed");
            for row in rows {
                let face: usize = row[0].split(' ').next().unwrap().parse().unwrap();
                let brute = face_sep(h, x, face, other);
                assert!((f(&row[3]) - brute).abs() < 2e-5, "case {case} {col} {face}: {} vs {brute}", row[3]);
            }
        }
        // Brute force over every axis: faces of both and every edge pair's cross product.
        let edges = |h: &contactlab::physics::Hull, x: &contactlab::physics::Iso| {
            (0..h.edges().len())
                .step_by(2)
                .map(|e| {
                    let p = x.transform_point(h.vertices()[h.edges()[e].origin as usize]);
                    let q = x.transform_point(h.vertices()[h.target(e as u32) as usize]);
                    q - p
                })
                .collect::<Vec<_>>()
        };
        let gap = |n: Vec3| {
            let (amin, amax) =
                va.iter().fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(n.dot(*v)), hi.max(n.dot(*v))));
            let (bmin, bmax) =
                vb.iter().fold((f32::MAX, f32::MIN), |(lo, hi), v| (lo.min(n.dot(*v)), hi.max(n.dot(*v))));
            (bmin - amax).max(amin - bmax)
        };
        let mut brute = f32::MIN;
        for f in 0..pa.faces().len() {
            brute = brute.max(face_sep(pa, &ba.pose, f, &vb));
        }
        for f in 0..pb.faces().len() {
            brute = brute.max(face_sep(pb, &bb.pose, f, &va));
        }
        for ea in edges(pa, &ba.pose) {
            for eb in edges(pb, &bb.pose) {
                let n = ea.cross(eb);
                if n.length() > 1e-3 * ea.length() * eb.length() {
                    brute = brute.max(gap(n.normalize()));
                }
            }
        }
        let best = table(&md, "best of each kind");
        let sat = best.iter().filter(|r| r[2] != "—").map(|r| f(&r[2])).fold(f32::MIN, f32::max);
        assert!((sat - brute).abs() < 1e-4, "case {case}: SAT {sat} vs brute force {brute}");
    }
}

#[test]
fn crossed_edges_choose_an_edge_pair_and_twisted_boxes_clip_an_octagon_to_four_points() {
    let md = doc(load("crossed_edges.ron"), 1, "ridge", "roof").markdown();
    assert!(md.contains("edge pair") && md.contains("wins"), "the edge pair's win is stated");
    // The edge pair's two faces are clipped along its axis. Two ridges crossed at right
    // angles: the faces drop away from the crossing at 45°, so only the crossing itself is
    // within the margin, at the depth the SAT measured for the edge pair.
    assert!(md.contains("## 4. The clip") && md.contains("The winning axis is an edge pair"), "the edge clip");
    let best = table(&md, "best of each kind");
    let edge = best.iter().find(|r| r[0] == "edge pair").expect("the edge pair's row");
    let kept = table(&md, "kept | point (m)");
    assert_eq!(kept.len(), 1, "one corner kept: {kept:?}");
    assert!(
        (f(&kept[0][2]) + f(&edge[2])).abs() < 2e-5,
        "kept depth {} against the edge pair's {}",
        kept[0][2],
        edge[2]
    );
    let md = doc(load("twisted_boxes.ron"), 1, "lower", "upper").markdown();
    let polys = table(&md, "polygon");
    let corners: Vec<usize> = polys
        .iter()
        .filter_map(|r| r[0].split(" (").nth(1).and_then(|c| c.split(' ').next()).and_then(|n| n.parse().ok()))
        .collect();
    assert_eq!(corners.iter().max(), Some(&8), "a square twisted 45° on a square clips to an octagon: {corners:?}");
    assert_eq!(polys.len(), corners.iter().sum::<usize>(), "one row per corner");
    assert_eq!(table(&md, "point | position (m) | features").len(), 4, "reduced to four");
}

#[test]
fn a_sphere_gets_closest_points_and_a_mesh_its_normal_groups() {
    let md = doc(load("spheres_and_capsules.ron"), 40, "block", "ball on face").markdown();
    assert!(
        md.contains("## 3. Closest points") && !md.contains("separating-axis test"),
        "curved: no SAT, no Gauss map"
    );
    // The construction's separation: |c − q| − r, against the box's top at y = 1.
    let ball = load("spheres_and_capsules.ron");
    let i = ball.body_index("ball on face").unwrap();
    let world = stepped(&ball, 39, 0, i);
    let c = world.bodies()[i].pose.pos;
    let expected = (c.y - 1.0) - 0.35;
    let line = md.lines().find(|l| l.starts_with("Construction")).expect("the construction");
    let sep: f32 = line
        .split("the separation is ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .trim_start_matches('+')
        .parse()
        .unwrap();
    assert!((sep - expected).abs() < 2e-5, "{sep} vs {expected}");
    let md = doc(load("obj_level.ron"), 10, "level", "crate1").markdown();
    let groups = table(&md, "group");
    assert!(!groups.is_empty() && groups.iter().all(|r| r[5].starts_with("triangle")), "{groups:?}");
}

/// Each method on one collision: a ball dropped on the ground, explained at its impact
/// step. The impulses printed are the world's, and the momentum change they cause is the
/// ball's: Σλn = m·(v⁺ − v⁻)·n − m·g·n·dt.
#[test]
fn each_method_explains_the_impact_of_a_dropped_ball() {
    for mode in [SolverMode::Naive, SolverMode::Iterative, SolverMode::Cyclone, SolverMode::Averaged] {
        let mut scene = scene::load_str(
            "Scene(name: \"drop\", bodies: [(name: \"ground\", shape: Box(half_extents: (3.0, 0.5, 3.0)), kind: Static, position: (0.0, -0.5, 0.0)), (name: \"ball\", shape: Sphere(radius: 0.25), position: (0.0, 1.0, 0.0), restitution: 0.5)])",
            "test",
        )
        .unwrap();
        scene.world.settings.mode = mode;
        // The impact step: the first with a normal impulse.
        let mut w = scene.world.snapshot();
        w.set_watched(&[(0, 1)]);
        let mut step = 0;
        while step < 200 {
            let v0 = w.bodies()[1].velocity;
            w.step(scene.timestep());
            step += 1;
            let rec = w.pair_record(0, 1).unwrap();
            let sum: f32 = rec.impulses.iter().take(rec.manifold.points.len()).map(|p| p.normal).sum();
            if sum > 0.0 {
                let m = w.bodies()[1].mass();
                let dv = w.bodies()[1].velocity.y - v0.y;
                assert!(
                    (sum - m * (dv + 9.81 * scene.timestep())).abs() < 1e-3 * sum.max(1.0),
                    "{mode:?}: impulse and momentum"
                );
                break;
            }
        }
        let md = explain::explain(scene, "test", step, (0, 1), None).unwrap().markdown();
        assert!(md.contains(mode.name()), "{mode:?}");
        let rows = table(&md, "point | λn (N·s)");
        let rec = w.pair_record(0, 1).unwrap();
        assert!((f(&rows[0][1]) - rec.impulses[0].normal).abs() < 1e-5, "{mode:?}: {rows:?}");
        if mode != SolverMode::Iterative {
            assert!(md.contains("m_eff"), "{mode:?}: the one-pass table");
        }
    }
}

/// "Explain this step" in the window: at a step reached by going back in the history, the
/// document is the one the command writes for that step.
#[test]
fn the_inspectors_button_explains_the_step_shown_even_back_in_the_history() {
    let path = scene::scenes_dir().join("box_on_box.ron");
    let mut t = contactlab::app::Testbed::new(scene::load(&path).unwrap(), Some(path.clone()));
    let dir = std::env::temp_dir().join(format!("contactlab-explain-{}", std::process::id()));
    t.tools.capture.explain_dir = dir.clone();
    for _ in 0..12 {
        t.step_once();
    }
    t.seek(8);
    let url = t.explain_step().expect("the page's address, to open");
    assert!(t.tools.status.starts_with("wrote "), "{}", t.tools.status);
    assert_eq!(t.world().step_count, 8, "back where the user was");
    let folder = dir.join("box_on_box_step8_base_box");
    assert!(url.starts_with("file://") && url.ends_with("box_on_box_step8_base_box/index.html"), "{url}");
    let md = std::fs::read_to_string(folder.join("explain.md")).unwrap();
    let html = std::fs::read_to_string(folder.join("index.html")).unwrap();
    assert!(html.contains("<svg") && html.contains("</html>"));
    // Inline figures share one page: every id (clip paths, masks) must be unique in it.
    let ids: Vec<&str> = html.split(" id=\"").skip(1).map(|s| s.split('"').next().unwrap()).collect();
    let mut unique = ids.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "ids repeat across the page's figures");
    let expected = doc(load("box_on_box.ron"), 8, "base", "box").markdown();
    // The same sections and numbers (the command line differs only in the file's name).
    let body = |s: &str| -> Vec<String> {
        let text = s.split("## 1.").nth(1).unwrap().replace(&path.display().to_string(), "test");
        text.lines()
            .filter(|l| !l.is_empty() && !l.starts_with("![") && !l.starts_with('*'))
            .map(String::from)
            .collect()
    };
    let (got, want) = (body(&md), body(&expected));
    let first = got.iter().zip(&want).position(|(g, w)| g != w);
    assert!(first.is_none() && got.len() == want.len(), "first difference: {:?}", first.map(|k| (&got[k], &want[k])));
    std::fs::remove_dir_all(&dir).ok();
}

/// A box in a V valley touches both slopes: two manifolds of one body pair. The traced rows
/// are those of the manifold the record (and the document) shows, the pair's main one.
#[test]
fn the_trace_follows_the_pairs_main_manifold_on_a_mesh() {
    let mut scene = load("v_valley.ron");
    scene.world.settings.simd = false;
    let (a, b) = (scene.body_index("valley").unwrap() as u32, scene.body_index("frictionless box").unwrap() as u32);
    let mut w = scene.world.snapshot();
    w.set_watched(&[(a, b)]);
    w.trace_pair_solve(Some((a, b)));
    let mut checked = 0;
    for _ in 0..120 {
        w.step(scene.timestep());
        let rec = w.pair_record(a, b).unwrap();
        let groups = w.contact_groups(a, b).filter(|c| !c.manifold.points.is_empty()).count();
        let Some(c) = w.pair_solve().and_then(|t| t.prepared) else { continue };
        if groups == 0 || rec.manifold.points.is_empty() {
            continue;
        }
        assert_eq!(c.count as usize, rec.manifold.points.len());
        let n: Vec3 = c.normal.into();
        assert!(n.dot(rec.manifold.normal) > 0.9999, "the traced normal {n} is the record's {}", rec.manifold.normal);
        checked += 1;
    }
    assert!(checked > 10, "the box rested on both slopes for {checked} steps");
}

/// Two balls of Newton's cradle, each on its string: the check's momentum balance holds with
/// gravity and the strings' impulses (the contact's impulses cancel in the pair).
#[test]
fn the_momentum_check_of_two_jointed_balls_balances() {
    for mode in [SolverMode::Iterative, SolverMode::Cyclone] {
        // The first step in which the two touch.
        let md = (55..=90)
            .map(|step| {
                let mut scene = load("newtons_cradle.ron");
                scene.world.settings.mode = mode;
                doc(scene, step, "ball0", "ball1").markdown()
            })
            .find(|md| md.contains("Momentum:"))
            .expect("ball0 reaches ball1");
        let line = md.lines().find(|l| l.starts_with("Momentum:")).unwrap();
        assert!(line.contains("2 joint(s)"), "{line}");
        let diff = vec3(line.split("the difference is ").nth(1).unwrap().split(", against").next().unwrap());
        let expected = vec3(line.split("against ").nth(1).unwrap().split(" expected").next().unwrap());
        assert!((diff - expected).length() < 3e-4, "{mode:?}: {diff} vs {expected}");
    }
}

/// A worked example's figures show the bodies at the start of the step it explains, the step
/// the document's title names: their titles say "start of step N", not the world's count of
/// steps taken (N − 1). The clip figures name the body that holds the reference face, as
/// "A" would read as a comparison's side.
#[test]
fn the_figures_name_the_step_they_start_and_the_reference_faces_body() {
    let scene = load("crossed_edges.ron");
    let (a, b) = (scene.body_index("ridge").unwrap(), scene.body_index("roof").unwrap());
    let d = explain::explain(scene, "test", 90, (a, b), Some((960, 600))).unwrap();
    assert!(d.title.contains("step 90"), "{}", d.title);
    let figures: Vec<(&str, &str)> = d.figures().collect();
    assert!(figures.len() >= 5, "{} figures", figures.len());
    for (file, svg) in &figures {
        assert!(svg.contains("start of step 90") && !svg.contains("step 89"), "{file}: its title");
    }
    let clips: Vec<&str> = figures.iter().filter(|(f, _)| f.starts_with("clip_")).map(|(_, s)| *s).collect();
    assert!(clips.iter().any(|s| s.contains("reference face (on ridge)") || s.contains("reference face (on roof)")));
    assert!(clips.iter().all(|s| !s.contains("(on A)") && !s.contains("(on B)")));
}

/// A compound pair's section lists each child pair's manifold: the table in
/// `compounds.ron` stands on the ground on four legs, one manifold each, every point at
/// the foot of a leg (the legs' bottoms at y = 0, their centres ±0.5 m, ±0.3 m from the
/// table's middle), and the check by hand adds up the four to Σλn = m·g·dt.
#[test]
fn a_compound_pair_is_explained_child_pair_by_child_pair() {
    let scene = load("compounds.ron");
    let table_at = scene.world.bodies()[scene.body_index("table").unwrap()].pose.pos;
    let md = doc(scene, 20, "ground", "table").markdown();
    assert!(md.contains("## 3. Contact with a compound") && !md.contains("## 3. The separating-axis test"), "{md}");
    let rows = table(&md, "child of A");
    let legs: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[1].as_str()).collect();
    assert_eq!(legs.len(), 4, "{legs:?}");
    assert!(legs.iter().all(|l| l.contains("box, half extents (0.050000, 0.35000, 0.050000)")), "{legs:?}");
    for r in &rows {
        let p = vec3(&r[4]);
        assert!(p.y.abs() < 0.005, "a point off the floor: {p:?}");
        let (dx, dz) = ((p.x - table_at.x).abs(), (p.z - table_at.z).abs());
        assert!((dx - 0.5).abs() <= 0.05 + 1e-3 && (dz - 0.3).abs() <= 0.05 + 1e-3, "a point off a leg's foot: {p:?}");
    }
    // The check by hand sums the four legs' manifolds: the table's weight over the step.
    let line = md.lines().find(|l| l.contains("over the pair's 4 manifolds")).expect("the check over four manifolds");
    let ratio = f(line.split("ratio ").nth(1).unwrap().split(". ").next().unwrap().trim_end_matches('.'));
    assert!((ratio - 1.0).abs() < 0.01, "{line}");
}
