//! The control panel driven as a user would (egui_kittest): buttons, radio buttons, the path
//! field. No GPU needed.

use contactlab::app::ui::panel;
use contactlab::app::Testbed;
use contactlab::physics::SolverMode;
use contactlab::scene;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
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
    assert!(!h.state().playing, "stepping does not start playback");
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
    t.path_input = bad.display().to_string();
    let mut h = harness(t);
    h.run();
    h.get_by_label("Step").click();
    h.run();
    h.get_by_label("Open").click();
    h.run();
    h.get_by_label_contains("Could not load");
    h.get_by_label_contains("field 'radius'");
    assert_eq!(h.state().scene.desc.name, "Stack of 10", "the old scene is kept");
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
