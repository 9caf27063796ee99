//! Triangle meshes in scene files (inline, OBJ, generators) and the characters in the
//! window: what loads, what is refused with which message, and driving a character.

use contactlab::app::input::{drive, DriveKeys, DRIVE_SPEED};
use contactlab::app::panels::panel;
use contactlab::app::Testbed;
use contactlab::physics::Shape;
use contactlab::scene;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn mesh_of(s: &scene::LoadedScene, name: &str) -> (usize, usize) {
    let b = &s.world.bodies()[s.body_index(name).unwrap()];
    let Shape::Mesh(m) = &b.shape else { panic!("{name} is not a mesh") };
    (m.vertices().len(), m.len())
}

fn error(text: &str) -> String {
    scene::load_str(text, "test.ron").expect_err("refused").to_string()
}

fn one_body(shape: &str, kind: &str) -> String {
    format!("Scene(name: \"t\", bodies: [(name: \"m\", shape: {shape}, kind: {kind})])")
}

#[test]
fn the_shipped_obj_level_loads_with_every_quad_triangulated() {
    let s = scene::load(&scene::scenes_dir().join("obj_level.ron")).unwrap();
    // scenes/level.obj: 165 vertices, 64 floor quads + 51 box and ramp quads = 115 quads.
    assert_eq!(mesh_of(&s, "level"), (165, 230));
    let hf = scene::load(&scene::scenes_dir().join("heightfield.ron")).unwrap();
    assert_eq!(mesh_of(&hf, "terrain"), (41 * 41, 40 * 40 * 2));
    let st = scene::load(&scene::scenes_dir().join("stairs_and_ramps.ron")).unwrap();
    assert_eq!(mesh_of(&st, "stairs").1, 8 * 4, "8 steps of a riser and a tread, two triangles each");
    assert_eq!(mesh_of(&st, "ramp40").1, 2);
}

#[test]
fn inline_meshes_and_generators_are_checked_with_the_body_named() {
    let tri = "Mesh(vertices: [(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)], indices: [0, 2, 1])";
    let ok = scene::load_str(&one_body(tri, "Static"), "t").unwrap();
    assert_eq!(mesh_of(&ok, "m"), (3, 1));
    let e = error(&one_body(tri, "Dynamic"));
    assert!(e.contains("body 'm', field 'kind'") && e.contains("only be static"), "{e}");
    let e = error(&one_body(&tri.replace("[0, 2, 1]", "[0, 2, 9]"), "Static"));
    assert!(e.contains("body 'm'") && e.contains("uses vertex 9, but there are only 3 vertices"), "{e}");
    let e = error(&one_body(&tri.replace("(0.0, 0.0, 1.0)", "(2.0, 0.0, 0.0)"), "Static"));
    assert!(e.contains("triangle 0 is degenerate"), "{e}");
    let e = error(&one_body(&tri.replace("[0, 2, 1]", "[]"), "Static"));
    assert!(e.contains("no triangles"), "{e}");
    let e = error(&one_body(&tri.replace("(1.0, 0.0, 0.0)", "(NaN, 0.0, 0.0)"), "Static"));
    assert!(e.contains("field 'vertices'") && e.contains("vertex 1 is not finite"), "{e}");
    let hf = "Heightfield(cells: (2, 2), cell: 1.0, heights: Values([0.0, 0.1, 0.2]))";
    let e = error(&one_body(hf, "Static"));
    assert!(e.contains("field 'heights'") && e.contains("need 9 heights") && e.contains("got 3"), "{e}");
    let e = error(&one_body("Ramp(angle_deg: 90.0, length: 2.0, width: 1.0)", "Static"));
    assert!(e.contains("field 'angle_deg'"), "{e}");
    let e = error(&one_body("Stairs(steps: 0, rise: 0.2, run: 0.3, width: 1.0)", "Static"));
    assert!(e.contains("field 'steps'"), "{e}");
    // Explicit heights land on their grid points: point (i, k) is entry i·(cells.1 + 1) + k.
    let hf = "Heightfield(cells: (2, 1), cell: 1.0, heights: Values([0.0, 0.5, 1.0, 1.5, 2.0, 2.5]))";
    let s = scene::load_str(&one_body(hf, "Static"), "t").unwrap();
    let Shape::Mesh(m) = &s.world.bodies()[0].shape else { unreachable!() };
    let at = |x: f32, z: f32| m.vertices().iter().find(|v| (v.x - x).abs() < 1e-6 && (v.z - z).abs() < 1e-6).unwrap().y;
    assert_eq!((at(-1.0, -0.5), at(-1.0, 0.5), at(0.0, 0.5), at(1.0, 0.5)), (0.0, 0.5, 1.5, 2.5));
}

#[test]
fn obj_files_are_read_relative_to_the_scene_and_bad_ones_refused() {
    let dir = std::env::temp_dir().join(format!("contactlab-obj-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("meshes")).unwrap();
    let write = |name: &str, text: &str| std::fs::write(dir.join("meshes").join(name), text).unwrap();
    write("quad.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nv 0 0 1\nf 1 4 3 2\n");
    write("line.obj", "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2\n");
    write("garbage.obj", "v 0 0 zero\nf 1 2 3\n");
    write("nan.obj", "v 0 0 0\nv nan 0 0\nv 1 0 1\nf 1 3 2\n");
    let scene_at = |obj: &str| {
        let path = dir.join("s.ron");
        std::fs::write(&path, one_body(&format!("Obj(path: \"meshes/{obj}\", scale: 2.0)"), "Static")).unwrap();
        scene::load(&path)
    };
    let s = scene_at("quad.obj").unwrap();
    let Shape::Mesh(m) = &s.world.bodies()[0].shape else { unreachable!() };
    assert_eq!(m.len(), 2, "the quad is split in two");
    assert!(m.vertices().iter().any(|v| (v.x - 2.0).abs() < 1e-6), "scaled by 2");
    assert!((m.normal(0).y - 1.0).abs() < 1e-6, "wound to face up");
    let e = scene_at("missing.obj").unwrap_err().to_string();
    assert!(e.contains("body 'm', field 'path'") && e.contains("no OBJ file 'meshes/missing.obj'"), "{e}");
    // A two-corner face is no polygon: the file has no triangles, and the message says so.
    let e = scene_at("line.obj").unwrap_err().to_string();
    assert!(e.contains("body 'm'") && e.contains("no triangles") && e.contains("line.obj"), "{e}");
    let e = scene_at("garbage.obj").unwrap_err().to_string();
    assert!(e.contains("body 'm'") && e.contains("cannot read OBJ file"), "{e}");
    let e = scene_at("nan.obj").unwrap_err().to_string();
    assert!(e.contains("body 'm'") && e.contains("not finite"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_driven_character_walks_where_the_camera_looks_and_jumps() {
    let path = scene::scenes_dir().join("stairs_and_ramps.ron");
    let t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 3000.0))
        .build_ui_state(|ui, t: &mut Testbed| panel(ui, t), t);
    h.run();
    h.get_by_label_contains("on 20°  (").click();
    h.run();
    h.get_by_label_contains("drive it").click();
    h.run();
    let t = h.state_mut();
    assert_eq!((t.selection.characters.selected, t.selection.characters.driving), (Some(1), true));
    // Turn the camera to look along −z (and walk away from the ramps, on flat ground).
    t.view.camera.yaw = 0.0;
    let eye = t.view.camera.eye();
    let forward = {
        let d = t.view.camera.target - eye;
        glam::Vec3::new(d.x, 0.0, d.z).normalize()
    };
    // Settle on the ground first.
    for _ in 0..30 {
        drive(t, DriveKeys::default());
        t.step_once();
    }
    let p0 = t.world().characters()[1].body.position;
    for _ in 0..30 {
        drive(t, DriveKeys { forward: true, ..Default::default() });
        t.step_once();
    }
    let p1 = t.world().characters()[1].body.position;
    let d = p1 - p0;
    let along = d.dot(forward);
    // 29 steps of walking at 3 m/s (the first step's walk is set before it).
    let want = DRIVE_SPEED * 30.0 / 60.0;
    assert!((along - want).abs() < 0.03 * want, "walked {along} m along the view, want {want}");
    assert!((d - forward * along).length() < 0.01, "straight: {d:?}");
    assert!((t.view.camera.target - p1).length() < 0.06, "the camera follows");
    // Space: a jump from the ground.
    drive(t, DriveKeys { jump: true, ..Default::default() });
    t.step_once();
    let y0 = p1.y;
    let mut top = y0;
    for _ in 0..40 {
        drive(t, DriveKeys::default());
        t.step_once();
        top = top.max(t.world().characters()[1].body.position.y);
    }
    // v²/2g = 9/19.62 = 0.459 m (less the first step's discretisation).
    assert!((top - y0 - 0.459).abs() < 0.05, "jumped {} m", top - y0);
}

#[test]
fn the_inspector_names_a_mesh_pairs_contact() {
    let path = scene::scenes_dir().join("obj_level.ron");
    let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    let (level, crate1) = (t.session.scene.body_index("level").unwrap(), t.session.scene.body_index("crate1").unwrap());
    t.select_pair(level, crate1);
    for _ in 0..30 {
        t.step_once();
    }
    let touching = t.world().contacts().iter().any(|c| {
        (c.a as usize, c.b as usize) == (level.min(crate1), level.max(crate1)) && c.manifold.points.len() == 4
    });
    assert!(touching, "the crate rests on the level's floor on four points");
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 3000.0))
        .build_ui_state(|ui, t: &mut Testbed| panel(ui, t), t);
    h.run();
    h.get_by_label_contains("triangle-mesh contact");
}

/// The V valley scene: its frictionless box rests on both slopes, so the valley–box pair has
/// a second manifold; the inspector lists it as "normal group 2" with the other slope's
/// normal (±sin 30°, cos 30°, 0).
#[test]
fn the_inspector_lists_a_mesh_pairs_further_normal_groups() {
    let path = scene::scenes_dir().join("v_valley.ron");
    let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path));
    let (valley, cube) =
        (t.session.scene.body_index("valley").unwrap(), t.session.scene.body_index("frictionless box").unwrap());
    t.select_pair(valley, cube);
    for _ in 0..240 {
        t.step_once();
    }
    let groups: Vec<_> = t.world().contact_groups(valley as u32, cube as u32).collect();
    assert_eq!(groups.len(), 1, "one further normal group");
    let n = groups[0].manifold.normal;
    assert!((n.x.abs() - 0.5).abs() < 1e-3 && (n.y - 0.866).abs() < 1e-3, "slope normal {n:?}");
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 3000.0))
        .build_ui_state(|ui, t: &mut Testbed| panel(ui, t), t);
    h.run();
    h.get_by_label_contains("one manifold per normal group");
    h.get_by_label_contains("normal group 2: normal (");
}
