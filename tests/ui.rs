//! The control panel driven as a user would (egui_kittest): buttons, radio buttons, the path
//! field. No GPU needed.

use contactlab::app::panels::panel;
use contactlab::app::Testbed;
use contactlab::physics::SolverMode;
use contactlab::scene;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn testbed(name: &str) -> Testbed {
    testbed_at(&scene::scenes_dir().join(name))
}

fn testbed_at(path: &std::path::Path) -> Testbed {
    Testbed::new(scene::load(path).unwrap(), Some(path.to_path_buf()))
}

fn harness(t: Testbed) -> Harness<'static, Testbed> {
    Harness::builder().with_size(egui::Vec2::new(420.0, 2400.0)).build_ui_state(|ui, t: &mut Testbed| panel(ui, t), t)
}

#[test]
fn step_advances_exactly_one_step() {
    let mut h = harness(testbed("stack_10.ron"));
    h.run();
    assert_eq!(h.state().world().step_count, 0);
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().world().step_count, 1, "one click, one step");
    assert!(!h.state().session.playing, "stepping does not start playback");
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().world().step_count, 2);
    // The panel shows the count.
    h.get_by_label_contains("step 2");
}

#[test]
fn switching_to_naive_changes_the_running_worlds_method() {
    let mut h = harness(testbed("stack_10.ron"));
    h.run();
    assert_eq!(h.state().world().settings.mode, SolverMode::Iterative);
    for _ in 0..3 {
        h.get_by_label("Step").click();
        h.run();
    }
    h.get_by_label("Naive").click();
    h.run();
    assert_eq!(h.state().world().settings.mode, SolverMode::Naive);
    assert_eq!(h.state().world().step_count, 3, "the scene was not reloaded");
    h.get_by_label("Iterative").click();
    h.run();
    assert_eq!(h.state().world().settings.mode, SolverMode::Iterative);
}

#[test]
fn a_broken_scene_shows_its_error_and_the_old_scene_keeps_running() {
    let dir = std::env::temp_dir().join(format!("contactlab-ui-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("broken.ron");
    std::fs::write(&bad, "Scene(name: \"broken\", bodies: [(name: \"a\", shape: Sphere(radius: -2.0))])").unwrap();
    let mut t = testbed("stack_10.ron");
    t.tools.files.path_input = bad.display().to_string();
    let mut h = harness(t);
    h.run();
    h.get_by_label("Step").click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    h.get_by_label_contains("Could not load");
    h.get_by_label_contains("field 'radius'");
    assert_eq!(h.state().session.scene.desc.name, "Stack of 10", "the old scene is kept");
    assert_eq!(h.state().world().step_count, 1, "and its state too");
    h.get_by_label("Step").click();
    h.run();
    assert_eq!(h.state().world().step_count, 2, "it keeps running");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn inspector_reports_the_sat_queries_of_the_selected_pair() {
    let mut h = harness(testbed("twisted_boxes.ron"));
    h.run();
    // The scene selects lower/upper: a face contact, clipped to 8 and reduced to 4 points.
    h.get_by_label_contains("contact: face of A");
    h.get_by_label_contains("best face of A");
    h.get_by_label_contains("pruned by the Gauss map");
    assert_eq!(h.state_mut().pair_debug().unwrap().manifold.points.len(), 4);
}

/// The whole window's egui frame (panel and 3D view input), as the window runs it.
fn window_harness(t: Testbed) -> Harness<'static, Testbed> {
    Harness::builder().with_size(egui::Vec2::new(1600.0, 2400.0)).build_ui_state(
        |ui, t: &mut Testbed| {
            contactlab::app::viewport::frame(ui, t);
        },
        t,
    )
}

fn click_at(h: &mut Harness<'_, Testbed>, p: egui::Pos2) {
    h.hover_at(p);
    h.run();
    h.drag_at(p);
    h.run();
    h.drop_at(p);
    h.run();
}

/// Clicks body `name` in the 3D view, where its centre projects.
fn click_body(h: &mut Harness<'_, Testbed>, name: &str) {
    let i = h.state().session.scene.body_index(name).unwrap();
    let c = h.state().world().bodies()[i].pose.pos;
    let rect = central_rect(h);
    let p = contactlab::app::viewport::project(h.state(), rect, c);
    click_at(h, p);
}

/// The view rectangle the last frame used (the part of the window the panel leaves).
/// Drags the slider labelled `label` by `dx` points to the right, as a mouse does.
fn drag_slider(h: &mut Harness<'_, Testbed>, label: &str, dx: f32) {
    let r = h.get_by_role_and_label(egui::accesskit::Role::Slider, label).rect();
    h.hover_at(r.center());
    h.run();
    h.drag_at(r.center());
    h.run();
    h.hover_at(r.center() + egui::vec2(dx, 0.0));
    h.run();
    h.drop_at(r.center() + egui::vec2(dx, 0.0));
    h.run();
}

fn central_rect(h: &Harness<'_, Testbed>) -> egui::Rect {
    h.state().view.rect
}

#[test]
fn clicks_on_the_panel_never_change_the_selected_pair() {
    let mut h = window_harness(testbed("welcome.ron"));
    h.run();
    let (pedestal, twisted) = (
        h.state().session.scene.body_index("pedestal").unwrap(),
        h.state().session.scene.body_index("twisted").unwrap(),
    );
    // Clear the scene's own selection by clicking empty sky, then pick the pair by hand.
    let sky = central_rect(&h).center_top() + egui::vec2(0.0, 20.0);
    click_at(&mut h, sky);
    assert!(h.state().selection.bodies.is_empty(), "a click on empty space clears the selection");
    click_body(&mut h, "twisted");
    click_body(&mut h, "pedestal");
    assert_eq!(h.state().selection.bodies, vec![twisted, pedestal]);
    let pair = h.state().selected_pair();
    assert_eq!(pair, Some((pedestal.min(twisted), pedestal.max(twisted))));
    h.get_by_label("Overlays").click();
    h.run();
    // Toggle every overlay on (and the clip, Gauss and Minkowski views appear), then off.
    for (_, name) in contactlab::view::Overlays::ALL {
        for _ in 0..2 {
            h.get_by_label(name).click();
            h.run();
            assert_eq!(h.state().selected_pair(), pair, "after clicking '{name}'");
        }
    }
    for (_, name) in contactlab::view::Overlays::ALL {
        if !name.contains("wireframe") {
            h.get_by_label(name).click();
            h.run();
        }
    }
    // Drag every slider by 30 points and release it over the panel.
    let sliders: Vec<egui::Rect> =
        h.get_all_by_role(egui::accesskit::Role::Slider).map(|n| n.rect()).collect::<Vec<_>>();
    assert!(sliders.len() >= 10, "{} sliders", sliders.len());
    for r in sliders {
        let from = r.center();
        let to = from + egui::vec2(30.0, 0.0);
        h.hover_at(from);
        h.run();
        h.drag_at(from);
        h.run();
        h.hover_at(to);
        h.run();
        h.drop_at(to);
        h.run();
        assert_eq!(h.state().selected_pair(), pair, "after dragging the slider at {from:?}");
    }
    h.get_by_label_contains("A = pedestal,  B = twisted");
}

fn settle(t: &mut Testbed) {
    for _ in 0..600 {
        t.step_once();
    }
    assert_eq!(t.world().stats().awake, 0, "the stack sleeps");
}

#[test]
fn changing_the_method_or_a_solver_setting_wakes_every_body() {
    let mut t = testbed("stack_10.ron");
    settle(&mut t);
    let mut h = harness(t);
    h.run();
    h.get_by_label("Naive").click();
    h.run();
    assert_eq!(h.state().world().stats().awake, 10, "switching the method wakes the stack");
    h.get_by_label("Iterative").click();
    h.run();
    settle(h.state_mut());
    h.get_by_label("warm starting").click();
    h.run();
    assert_eq!(h.state().world().stats().awake, 10, "a solver checkbox wakes the stack");
    h.get_by_label("warm starting").click();
    h.run();
    settle(h.state_mut());
    drag_slider(&mut h, "substeps", 25.0);
    assert_ne!(h.state().world().settings.substeps, 4);
    assert_eq!(h.state().world().stats().awake, 10, "a solver slider wakes the stack");
}

#[test]
fn stats_show_this_steps_and_the_runs_max_penetration() {
    let mut t = testbed("naive_stack.ron");
    for _ in 0..60 {
        t.step_once();
    }
    let run = t.sides.main().max_penetration_run;
    let now = t.world().stats().max_penetration;
    assert!(run > 0.0 && run >= now, "run {run}, now {now}");
    let mut h = harness(t);
    h.run();
    h.get_by_label("Stats").click();
    h.run();
    h.get_by_label("max penetration, this step");
    h.get_by_label("max penetration since reset");
    h.get_by_label(&format!("{run:.4} m"));
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(h.state().sides.main().max_penetration_run, 0.0, "reset starts a new run");
}

#[test]
fn enter_in_the_path_field_opens_the_scene() {
    let mut h = harness(testbed("stack_10.ron"));
    h.run();
    let path = scene::scenes_dir().join("box_on_box.ron").display().to_string();
    h.state_mut().tools.files.path_input.clear();
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput).type_text(&path);
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    assert_eq!(h.state().session.scene_path.as_deref(), Some(std::path::Path::new(&path)));
    assert_ne!(h.state().session.scene.desc.name, "Stack of 10");
}

#[test]
fn hovering_a_scene_in_the_picker_shows_its_description() {
    let mut h = harness(testbed("stack_10.ron"));
    h.run();
    h.get_by_label("shipped").click();
    h.run();
    // The first scene of the list: the picker's popup scrolls, and later entries may lie
    // below its visible part.
    let desc = scene::load(&scene::scenes_dir().join("arch.ron")).unwrap().desc.description;
    h.get_by_label("Arch").hover();
    h.run();
    h.get_by_label(&desc);
}

#[test]
fn the_interface_scale_buttons_zoom_the_whole_interface() {
    let mut h = harness(testbed("stack_10.ron"));
    h.run();
    h.get_by_label("+").click();
    h.run();
    assert!((h.ctx.zoom_factor() - 1.1).abs() < 1e-6, "{}", h.ctx.zoom_factor());
    h.get_by_label_contains("110 %");
    h.get_by_label("default").click();
    h.run();
    assert_eq!(h.ctx.zoom_factor(), 1.0);
}

#[test]
fn one_selected_body_is_shown_and_its_material_edits_wake_it() {
    let mut t = testbed("single_box_drop.ron");
    for _ in 0..600 {
        t.step_once();
    }
    let i = t.session.scene.body_index("box").unwrap();
    assert!(t.world().bodies()[i].asleep, "the box has settled");
    let mass = t.world().bodies()[i].mass();
    t.click_body(None);
    t.click_body(Some(i));
    let mut h = harness(t);
    h.run();
    h.get_by_label("body: box");
    h.get_by_label(&format!("{mass:.3} kg"));
    h.get_by_label("inertia (principal)");
    h.get_by_label("asleep");
    drag_slider(&mut h, "restitution", 20.0);
    let b = &h.state().world().bodies()[i];
    assert!(!b.asleep, "editing restitution wakes the body");
    assert!(b.restitution > 0.0, "restitution {}", b.restitution);
    // Density: mass follows, the shape stays.
    drag_slider(&mut h, "density (kg/m³)", 40.0);
    let m2 = h.state().world().bodies()[i].mass();
    assert!(m2 > mass * 1.5, "denser: {mass} → {m2}");
}

/// A harness on `scene` with its body `body` selected and shown in the inspector, and the
/// body's index.
fn inspecting(scene: &str, body: &str) -> (Harness<'static, Testbed>, usize) {
    let mut t = testbed(scene);
    let i = t.session.scene.body_index(body).unwrap();
    t.click_body(Some(i));
    let mut h = harness(t);
    h.run();
    (h, i)
}

#[test]
fn a_kinematic_bodys_spin_is_set_from_the_inspector() {
    let (mut h, i) = inspecting("turntable.ron", "turntable");
    h.get_by_label("body: turntable");
    h.get_by_label("kinematic (infinite): moves at its set velocity");
    let before = h.state().world().bodies()[i].angular_velocity;
    assert_eq!(before, glam::Vec3::new(0.0, 2.0, 0.0));
    drag_slider(&mut h, "spin y (rad/s)", 40.0);
    let b = &h.state().world().bodies()[i];
    assert!(b.angular_velocity.y > 2.0 && b.angular_velocity.x == 0.0, "spin {:?}", b.angular_velocity);
    // The table keeps the new spin through a step: nothing else changes it.
    let spin = b.angular_velocity;
    h.state_mut().step_once();
    assert_eq!(h.state().world().bodies()[i].angular_velocity, spin);
}

#[test]
fn a_kinematic_body_on_a_path_shows_its_path_instead_of_velocity_sliders() {
    let (h, _) = inspecting("shuttle.ron", "platform");
    h.get_by_label("path: 2 points at 1.50 m/s, there and back");
    assert!(h.query_by_label("velocity x (m/s)").is_none(), "the path sets the velocity");
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "spin y (rad/s)");
}

#[test]
fn reset_restores_the_scenes_camera() {
    let mut t = testbed("box_on_box.ron");
    let start = t.view.camera;
    t.view.camera.orbit(120.0, 40.0);
    t.view.camera.zoom_towards(glam::Vec3::ZERO, 0.5);
    assert_ne!(t.view.camera, start);
    t.reset();
    assert_eq!(t.view.camera, start);
}

/// The comparison from the panel: side B takes another method, steps with side A, and side A
/// runs exactly as it would alone.
#[test]
fn the_ab_comparison_steps_both_sides_and_leaves_side_a_as_it_was() {
    let mut h = harness(testbed("naive_stack.ron"));
    h.run();
    let mut alone = testbed("naive_stack.ron");
    let a_mode = h.state().world().settings.mode;
    h.get_by_label("compare methods side by side").click();
    h.run();
    let b_mode = h.state().sides.get(1).expect("comparison started").mode();
    assert_ne!(b_mode, a_mode);
    for _ in 0..30 {
        h.get_by_label("Step").click();
        h.run();
        alone.step_once();
    }
    let t = h.state();
    let b = &t.sides.get(1).unwrap().world;
    assert_eq!((t.world().step_count, b.step_count), (30, 30));
    for (x, y) in t.world().bodies().iter().zip(alone.world().bodies()) {
        assert_eq!((x.pose.pos, x.pose.rot), (y.pose.pos, y.pose.rot), "side A differs from the run alone");
    }
    let moved = t.world().bodies().iter().zip(b.bodies()).any(|(x, y)| x.pose.pos.distance(y.pose.pos) > 1e-3);
    assert!(moved, "the two methods gave the same poses");
    // The stats grid has a column per side.
    h.get_by_label("Stats").click();
    h.run();
    let column = format!("B: {}", b_mode.name());
    assert_eq!(
        h.query_all_by_label(&column).count(),
        3,
        "the stats and the stage times have side B's column, the inspector's side selector its button"
    );
    // Reset restarts both sides; side B keeps its method.
    h.get_by_label("Reset").click();
    h.run();
    let c = h.state().sides.get(1).unwrap();
    assert_eq!((h.state().world().step_count, c.world.step_count, c.mode()), (0, 0, b_mode));
    h.get_by_label("compare methods side by side").click();
    h.run();
    assert!(!h.state().sides.comparing());
}

/// In the A/B view each half is a view of its own: a click on a body in the right half
/// (side B) selects it, seen through that half's aspect ratio.
#[test]
fn a_click_in_side_bs_half_selects_the_body_there() {
    let mut t = testbed("box_on_box.ron");
    t.selection.bodies.clear();
    t.start_compare(SolverMode::Naive);
    let mut h = window_harness(t);
    h.run();
    let i = h.state().session.scene.body_index("box").unwrap();
    let c = h.state().world().bodies()[i].pose.pos;
    let rect = central_rect(&h);
    let right = rect.with_min_x(rect.center().x);
    let p = contactlab::app::viewport::project(h.state(), right, c);
    assert!(p.x > rect.center().x, "the box projects into the right half");
    click_at(&mut h, p);
    assert_eq!(h.state().selection.bodies, vec![i]);
}

/// F1 opens the help overlay with every key and mouse action, and closes it again; the
/// panel's button does the same.
#[test]
fn f1_shows_every_key_and_mouse_action() {
    let mut h = window_harness(testbed("welcome.ron"));
    h.run();
    assert!(h.query_by_label("Keys and mouse").is_none());
    h.key_press(egui::Key::F1);
    h.run();
    assert!(h.state().view.show_help);
    for (input, action) in contactlab::app::panels::help::rows() {
        h.get_by_label(input);
        assert!(h.query_all_by_label(action).count() >= 1, "'{action}' missing");
    }
    h.key_press(egui::Key::F1);
    h.run();
    assert!(!h.state().view.show_help);
    assert!(h.query_by_label("pan").is_none(), "the overlay closed");
    h.get_by_label("Keys and mouse (F1)").click();
    h.run();
    assert!(h.state().view.show_help, "the panel's button opens it too");
}

#[test]
fn saving_the_scene_file_reloads_it_keeping_the_camera_and_a_broken_save_keeps_the_scene() {
    let dir = std::env::temp_dir().join(format!("contactlab-hot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hot.ron");
    let scene_text = |y: f32| {
        format!(
            r#"Scene(name: "hot", bodies: [
                (name: "ground", shape: Box(half_extents: (5.0, 0.5, 5.0)), kind: Static, position: (0.0, -0.5, 0.0)),
                (name: "ball", shape: Sphere(radius: 0.5), position: (0.0, {y}, 0.0)),
            ])"#
        )
    };
    std::fs::write(&path, scene_text(2.0)).unwrap();
    let mut t = testbed_at(&path);
    t.set_hot_reload(true);
    t.view.camera.target = glam::Vec3::new(1.0, 2.0, 3.0);
    let wait = std::time::Duration::from_secs(10);

    // A good save: the ball moves to the new height, the camera stays.
    std::fs::write(&path, scene_text(4.0)).unwrap();
    assert!(t.poll_hot_reload_within(wait), "the save was noticed");
    let ball = t.session.scene.body_index("ball").unwrap();
    assert_eq!(t.world().bodies()[ball].pose.pos.y, 4.0);
    assert_eq!(t.view.camera.target, glam::Vec3::new(1.0, 2.0, 3.0));
    assert!(t.tools.files.load_error.is_none());

    // A save that leaves the bytes as they were (and the late events of the save just
    // reloaded) reloads nothing: the running scene is not reset.
    t.step_once();
    std::fs::write(&path, scene_text(4.0)).unwrap();
    assert!(!t.poll_hot_reload_within(wait), "the same bytes are not reloaded");
    assert_eq!(t.world().step_count, 1);

    // A broken save: the error names line and column, the running scene stays.
    std::fs::write(&path, "Scene(name: \"hot\",\n  bodies: [ (name: \"ball\", shape: Sphere(radius: ) ],\n)").unwrap();
    assert!(t.poll_hot_reload_within(wait));
    let e = t.tools.files.load_error.clone().expect("the error is kept for the panel");
    assert!(e.contains("hot.ron:2:"), "line and column in {e}");
    assert_eq!(t.world().step_count, 1, "the running scene keeps its state");
    let mut h = harness(t);
    h.run();
    h.get_by_label_contains("Could not load");
    std::fs::remove_dir_all(&dir).ok();
}

/// A scene reads its OBJ meshes: saving the OBJ reloads the scene as saving the scene file
/// does, and a save of the OBJ that changes nothing reloads nothing.
#[test]
fn saving_an_obj_the_scene_reads_reloads_the_scene() {
    let dir = std::env::temp_dir().join(format!("contactlab-hot-obj-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (path, obj) = (dir.join("level.ron"), dir.join("floor.obj"));
    let quads = |n: usize| {
        let mut text = String::new();
        for k in 0..n {
            let x = k as f32 * 2.0;
            text += &format!("v {x} 0 0\nv {} 0 0\nv {} 0 2\nv {x} 0 2\n", x + 2.0, x + 2.0);
            let b = 4 * k + 1;
            text += &format!("f {} {} {}\nf {} {} {}\n", b, b + 2, b + 1, b, b + 3, b + 2);
        }
        text
    };
    let triangles = |t: &Testbed| match &t.world().bodies()[0].shape {
        contactlab::physics::Shape::Mesh(m) => m.len(),
        s => panic!("the floor is a mesh, not {s:?}"),
    };
    std::fs::write(&obj, quads(1)).unwrap();
    std::fs::write(
        &path,
        r#"Scene(name: "obj", bodies: [
            (name: "floor", shape: Obj(path: "floor.obj"), kind: Static),
            (name: "ball", shape: Sphere(radius: 0.5), position: (1.0, 2.0, 1.0)),
        ])"#,
    )
    .unwrap();
    let mut t = testbed_at(&path);
    t.set_hot_reload(true);
    assert_eq!(triangles(&t), 2);
    let wait = std::time::Duration::from_secs(10);

    std::fs::write(&obj, quads(3)).unwrap();
    assert!(t.poll_hot_reload_within(wait), "the OBJ's save was noticed");
    assert_eq!(triangles(&t), 6, "the scene was built from the new OBJ");
    assert!(t.tools.files.load_error.is_none());

    t.step_once();
    std::fs::write(&obj, quads(3)).unwrap();
    assert!(!t.poll_hot_reload_within(wait), "the same bytes are not reloaded");
    assert_eq!(t.world().step_count, 1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_open_dialog_lists_scene_files_and_loads_the_one_chosen() {
    let mut t = testbed("stack_10.ron");
    t.open_dialog();
    // egui_file's path fields carry no accessible names (the crate's, not ours).
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(900.0, 700.0))
        .with_accessibility_check(false)
        .build_ui_state(|ui, t: &mut Testbed| contactlab::app::panels::scene::dialog(ui.ctx(), t), t);
    h.run();
    h.get_by_label_contains("Open a scene");
    // The scenes folder's files are listed; pick one and open it.
    h.get_by_label_contains("box_on_box.ron").click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    assert_eq!(
        h.state().session.scene.desc.name,
        scene::load(&scene::scenes_dir().join("box_on_box.ron")).unwrap().desc.name
    );
    assert!(h.state().tools.files.dialog.is_none(), "the dialog closes");
}

/// The gyroscope's disc is pinned at its ball joint (`world/pivots.rs`): the joint inspector
/// names the part of the force its turn about the pivot took, which no row carries.
#[test]
fn the_joint_inspector_shows_the_pull_of_a_body_turning_about_its_pivot() {
    let mut h = window_harness(testbed("gyroscope.ron"));
    for _ in 0..3 {
        h.state_mut().step_once();
    }
    let r = h.state().world().joint_records()[0].clone();
    assert!(r.pivot_impulse.length() > 0.0, "the disc is pinned at the post");
    h.state_mut().selection.joint = Some(r.handle);
    h.run();
    h.get_by_label_contains("joint 'pivot' (ball)");
    h.get_by_label("of which the turn about the pivot");
}

#[test]
fn clicking_a_joint_anchor_selects_it_and_the_inspector_shows_its_rows_and_k() {
    let mut h = window_harness(testbed("door.ron"));
    h.run();
    let anchor = h.state().world().joint_records()[0].anchor_a;
    let p = contactlab::app::viewport::project(h.state(), central_rect(&h), anchor);
    click_at(&mut h, p + egui::vec2(3.0, 2.0));
    let h_sel = h.state().selection.joint.expect("the click near the anchor selects the joint");
    assert_eq!(h_sel, h.state().world().joint_records()[0].handle);
    h.run();
    h.get_by_label_contains("joint 'door_hinge' (hinge)");
    h.get_by_label_contains("Jacobian rows");
    h.get_by_label_contains("effective mass matrix K");
    // The hinge's rows: three point rows and two swing rows at least.
    let rows = h.state().world().joint_records()[0].rows.len();
    assert!(rows >= 5, "{rows} rows");
    h.get_by_label("Deselect joint").click();
    h.run();
    assert!(h.state().selection.joint.is_none());
}

/// The Stats section's thread slider sets side A's thread count; the next step runs on that
/// many threads, the panel says so and shows each thread's time per stage (a column per
/// thread), and the world is the one a single thread steps to, bit for bit.
#[test]
fn the_threads_slider_sets_the_steps_threads_and_the_panel_shows_each_threads_share() {
    let mut t = testbed("pyramid_20.ron");
    // The slider runs from 0 (every core) to the larger of the cores and the setting, so a
    // setting of 4 makes 2 reachable on any machine.
    t.world_mut().settings.threads = 4;
    let mut alone = testbed("pyramid_20.ron");
    alone.world_mut().settings.threads = 1;
    let mut h = harness(t);
    h.run();
    h.get_by_label("Stats").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Slider, "threads").set_value_accesskit(2.0);
    h.run();
    assert_eq!(h.state().world().settings.threads, 2);
    for _ in 0..3 {
        h.get_by_label("Step").click();
        h.run();
        alone.step_once();
    }
    h.run();
    assert_eq!(h.state().world().threads(), 2);
    h.get_by_label("last step ran on 2 threads");
    h.get_by_label("each thread's time on shared-out blocks (ms, last step)");
    h.get_by_label("#0");
    h.get_by_label("#1");
    let (w, a) = (h.state().world(), alone.world());
    assert_eq!(w.step_count, 3);
    for (p, q) in w.bodies().iter().zip(a.bodies()) {
        assert_eq!((p.pose.pos, p.velocity), (q.pose.pos, q.velocity), "{} differs on two threads", p.name);
    }
}

/// The wheel over a comparison's key (the band under its tiles, which shows no picture)
/// zooms towards the camera's target, as over nothing: the point "under" it is in no tile.
/// Over a tile it zooms towards what lies under the cursor, and the target moves.
#[test]
fn the_wheel_over_a_comparisons_key_zooms_towards_the_target() {
    let wheel = |over_key: bool| {
        let mut t = testbed("box_on_box.ron");
        t.start_compare(SolverMode::Naive);
        let mut h = window_harness(t);
        h.run();
        // The key's band as the labels would lay it out (this harness draws no labels).
        h.state_mut().view.footer = 60.0;
        h.run();
        let rect = central_rect(&h);
        let p = match over_key {
            true => egui::pos2(rect.min.x + 0.2 * rect.width(), rect.max.y - 20.0),
            false => egui::pos2(rect.min.x + 0.2 * rect.width(), rect.max.y - 100.0),
        };
        let (target, distance) = (h.state().view.camera.target, h.state().view.camera.distance);
        h.hover_at(p);
        h.run();
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 40.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Unknown,
            modifiers: egui::Modifiers::NONE,
        });
        for _ in 0..20 {
            h.run();
        }
        let c = h.state().view.camera;
        assert!(c.distance < 0.95 * distance, "the wheel zoomed in: {} → {}", distance, c.distance);
        c.target.distance(target)
    };
    assert!(wheel(true) < 1e-4, "over the key the target stays");
    assert!(wheel(false) > 1e-3, "over a tile the target moves towards the cursor");
}
