//! The testbed's sides and keys (issue 32): up to four methods side by side in lockstep, the
//! plots overlaying every side, the inspector reading the side it is asked for, and one key
//! table that both the help lists and the window dispatches from.

use contactlab::app::input::{Action, KEYS};
use contactlab::app::Testbed;
use contactlab::physics::{SolverMode, World};
use contactlab::scene;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
}

/// The whole window's egui frame (panel, view, keys, help and plots windows).
fn window(t: Testbed) -> Harness<'static, Testbed> {
    Harness::builder().with_size(egui::Vec2::new(1600.0, 2400.0)).build_ui_state(
        |ui, t: &mut Testbed| {
            contactlab::app::viewport::frame(ui, t);
        },
        t,
    )
}

fn same_poses(a: &World, b: &World) -> bool {
    a.bodies().iter().zip(b.bodies()).all(|(x, y)| x.pose.pos == y.pose.pos && x.pose.rot == y.pose.rot)
}

#[test]
fn four_methods_step_in_lockstep_and_the_plots_show_four_series() {
    let mut h = window(testbed("naive_stack.ron"));
    h.run();
    h.get_by_label("compare methods side by side").click();
    h.run();
    for m in [SolverMode::Cyclone, SolverMode::Averaged] {
        h.get_by_label(&format!("compare: {}", m.name())).click();
        h.run();
    }
    let modes = h.state().sides.modes();
    assert_eq!(modes, [SolverMode::Naive, SolverMode::Iterative, SolverMode::Cyclone, SolverMode::Averaged]);
    h.key_press(egui::Key::P);
    h.run();
    assert!(h.state().tools.plots.open, "P opens the plots");
    const STEPS: u64 = 40;
    for _ in 0..STEPS {
        h.key_press(egui::Key::Period);
        h.run();
    }
    // Each side is the scene run alone under its method, and all took every step.
    let start = scene::load(&scene::scenes_dir().join("naive_stack.ron")).unwrap();
    let t = h.state();
    let mut apart = 0;
    for (side, &m) in t.sides.iter().zip(&modes) {
        let mut alone = start.world.clone();
        alone.settings.mode = m;
        for _ in 0..STEPS {
            alone.step(start.timestep());
        }
        assert_eq!(side.world.step_count, STEPS, "{m:?}");
        assert!(same_poses(&side.world, &alone), "{m:?} side differs from the scene run alone under it");
        apart += !same_poses(&side.world, &t.sides.main().world) as usize;
    }
    assert_eq!(apart, 3, "the four methods give four different states");
    // Four series, one sample per step each, sampled from their own sides.
    let series = &t.tools.plots.series;
    assert_eq!(series.len(), 4);
    for (s, side) in series.iter().zip(t.sides.iter()) {
        assert_eq!(s.samples().len() as u64, STEPS);
        let last = s.samples().last().unwrap();
        assert_eq!(last.step, STEPS);
        let e = side.world.total_energy();
        assert!((last.total() - e).abs() <= 1e-3 * e.abs().max(1.0), "sample {} J vs side {e} J", last.total());
    }
    // The plots window names every side in its legends (besides the stats and selector).
    let count = |h: &Harness<'_, Testbed>, label: &str| h.query_all_by_label(label).count();
    let shown: Vec<usize> = (0..4).map(|k| count(&h, &t.side_title(k))).collect();
    h.key_press(egui::Key::P);
    h.run();
    assert!(!h.state().tools.plots.open);
    for (k, n) in shown.iter().enumerate() {
        let without = count(&h, &h.state().side_title(k));
        assert!(*n > without, "side {k}: {n} labels with the plots open, {without} without");
    }
}

/// Side B's impulses in the inspector: the selector picks the side, and the points table
/// shows that side's λn, read from its own world.
#[test]
fn the_inspectors_side_selector_shows_side_bs_impulses() {
    let mut t = testbed("box_on_box.ron");
    t.set_sides(&[SolverMode::Naive, SolverMode::Iterative]);
    let (a, b) = t.selected_pair().expect("the scene selects base and box");
    for _ in 0..20 {
        t.step_once();
    }
    let impulses = |w: &World| -> Vec<f32> {
        let c =
            w.contacts().iter().find(|c| (c.a as usize, c.b as usize) == (a, b)).expect("the box rests on the base");
        c.impulses[..c.manifold.points.len()].iter().map(|i| i.normal).collect()
    };
    let (on_a, on_b) = (impulses(&t.sides.main().world), impulses(&t.sides.get(1).unwrap().world));
    let text = |v: &[f32]| v.iter().map(|x| format!("{x:.2}")).collect::<Vec<_>>();
    assert_ne!(text(&on_a), text(&on_b), "the methods' impulses differ at the shown precision");
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 3000.0))
        .build_ui_state(|ui, t: &mut Testbed| contactlab::app::panels::panel(ui, t), t);
    h.run();
    let shown = |h: &Harness<'_, Testbed>, v: &[String]| v.iter().all(|s| h.query_all_by_label(s).next().is_some());
    assert!(shown(&h, &text(&on_a)), "side A's λn {:?} in the table", text(&on_a));
    h.get_by_label(&format!("B: {}", SolverMode::Iterative.name())).click();
    h.run();
    assert_eq!(h.state().selection.side, 1);
    assert!(shown(&h, &text(&on_b)), "side B's λn {:?} in the table", text(&on_b));
    let gone = text(&on_a).iter().any(|s| h.query_all_by_label(s).next().is_none());
    assert!(gone, "side A's λn no longer all shown");
}

/// Every key of the table does its action in the window, and the help lists exactly the
/// table's keys (then the mouse's gestures).
#[test]
fn every_key_of_the_table_does_its_action_and_the_help_lists_the_table() {
    let rows: Vec<_> = contactlab::app::panels::help::rows().collect();
    assert_eq!(rows.len(), KEYS.len() + contactlab::app::input::MOUSE.len());
    for (b, (label, what)) in KEYS.iter().zip(&rows) {
        assert_eq!((b.label, b.description), (*label, *what));
    }
    for b in KEYS {
        for chord in b.keys {
            let name = format!("{:?} ({}{:?})", b.action, if chord.ctrl { "Ctrl+" } else { "" }, chord.key);
            let scene = if b.action == Action::Walk { "corridor.ron" } else { "box_on_box.ron" };
            let mut h = window(testbed(scene));
            h.run();
            // A state where the action shows: a few steps taken, one back, a body selected,
            // the camera moved, the character driven.
            for _ in 0..3 {
                h.state_mut().step_once();
            }
            h.state_mut().step_back();
            h.state_mut().click_body(Some(1));
            h.state_mut().view.camera.orbit(120.0, 40.0);
            if b.action == Action::Walk {
                h.state_mut().selection.characters =
                    contactlab::app::selection::CharacterView { selected: Some(0), driving: true };
            }
            h.run();
            let before = snapshot(&h);
            let modifiers = if chord.ctrl { egui::Modifiers::COMMAND } else { egui::Modifiers::NONE };
            let after = if b.action == Action::Walk {
                // Held: the walk is set while the key is down.
                h.key_down(chord.key);
                h.run();
                let held = snapshot(&h);
                h.key_up(chord.key);
                h.run();
                held
            } else {
                h.key_press_modifiers(modifiers, chord.key);
                h.run();
                snapshot(&h)
            };
            assert!(did(b.action, &before, &after), "{name}: {before:?} → {after:?}");
        }
    }
}

/// What the actions change.
#[derive(Clone, Debug, PartialEq)]
struct Seen {
    playing: bool,
    step: u64,
    head: u64,
    selected: usize,
    eye: glam::Vec3,
    screenshot: bool,
    help: bool,
    plots: bool,
    zoom: f32,
    walk: glam::Vec3,
}

fn snapshot(h: &Harness<'_, Testbed>) -> Seen {
    let t = h.state();
    Seen {
        playing: t.session.playing,
        step: t.world().step_count,
        head: t.session.history.head(),
        selected: t.selection.bodies.len(),
        eye: t.view.camera.eye(),
        screenshot: t.tools.capture.screenshot.is_some(),
        help: t.view.show_help,
        plots: t.tools.plots.open,
        zoom: h.ctx.zoom_factor(),
        walk: t.world().characters().first().map_or(glam::Vec3::ZERO, |c| c.walk),
    }
}

/// Whether `action` happened between `a` and `b` (set up at step 2 of a history whose head
/// is 3, one body selected, the camera moved, zoom 100 %).
fn did(action: Action, a: &Seen, b: &Seen) -> bool {
    match action {
        Action::PlayPause => b.playing != a.playing,
        Action::StepForward => b.step == a.step + 1,
        Action::StepBack => b.step + 1 == a.step,
        Action::First => b.step == 0 && a.step > 0,
        Action::Last => b.step == a.head && a.step < a.head,
        Action::Reset => b.step == 0 && b.head == 0 && a.head > 0,
        Action::Frame => b.eye != a.eye,
        Action::Screenshot => b.screenshot && !a.screenshot,
        Action::ClearSelection => b.selected == 0 && a.selected > 0,
        Action::Help => b.help != a.help,
        Action::Plots => b.plots != a.plots,
        Action::ZoomIn => b.zoom > a.zoom,
        Action::ZoomOut => b.zoom < a.zoom,
        Action::ZoomReset => b.zoom == 1.0,
        Action::Walk => b.walk != glam::Vec3::ZERO,
    }
}

/// Every text egui painted in the last frame.
fn painted_texts(h: &Harness<'_, Testbed>) -> Vec<String> {
    fn walk(s: &egui::Shape, out: &mut Vec<String>) {
        match s {
            egui::Shape::Text(t) => out.push(t.galley.text().to_string()),
            egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for c in &h.output().shapes {
        walk(&c.shape, &mut out);
    }
    out
}

/// A 6,000 J energy (a box resting on a box) gets y-axis tick labels other than 0 (egui_plot's
/// default spacing left a lone "0" on a plot this short), and the selected pair's plots
/// follow the box, not the static base it rests on.
#[test]
fn the_energy_plot_labels_its_y_axis_and_follows_the_moving_body() {
    let mut t = testbed("box_on_box.ron");
    let e = t.world().total_energy();
    assert!((5000.0..7000.0).contains(&e), "{e} J");
    t.tools.plots.open = true;
    for _ in 0..30 {
        t.step_once();
    }
    let box_index = t.session.scene.body_index("box").unwrap();
    assert_eq!(t.selected_pair().map(|p| p.0), t.session.scene.body_index("base"), "the scene selects base, box");
    assert_eq!(t.followed_body(), Some(box_index));
    let sample = t.tools.plots.main().last().unwrap().body.expect("a followed body");
    assert_eq!(sample.index as usize, box_index);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 1400.0))
        .build_ui_state(|ui, t: &mut Testbed| contactlab::app::panels::plots::show(ui.ctx(), t), t);
    h.run();
    h.run();
    let ticks: Vec<f64> = painted_texts(&h)
        .iter()
        .filter_map(|s| s.replace([' ', '\u{202f}', '\u{2009}'], "").parse::<f64>().ok())
        .filter(|&v| (1000.0..=e as f64 * 1.2).contains(&v))
        .collect();
    assert!(!ticks.is_empty(), "no y tick label between 1,000 J and the energy: {:?}", painted_texts(&h));
}

/// F frames the selected pair: after zooming far out, both bodies fill a good part of the
/// view again, centred; with nothing selected it frames the scene.
#[test]
fn f_frames_the_selected_pair() {
    let mut h = window(testbed("box_on_box.ron"));
    h.run();
    let (a, b) = h.state().selected_pair().expect("the scene selects base and box");
    h.state_mut().view.camera.distance *= 6.0;
    h.state_mut().view.camera.orbit(200.0, 0.0);
    h.run();
    h.key_press(egui::Key::F);
    h.run();
    let t = h.state();
    let rect = t.view.rect;
    let vp = t.view.camera.view_proj(rect.width() / rect.height());
    let (mut lo, mut hi) = (glam::Vec2::splat(f32::MAX), glam::Vec2::splat(f32::MIN));
    for i in [a, b] {
        let body = &t.world().bodies()[i];
        let bb = body.shape.aabb(&body.pose);
        for k in 0..8 {
            let c = glam::Vec3::new(
                if k & 1 == 0 { bb.min.x } else { bb.max.x },
                if k & 2 == 0 { bb.min.y } else { bb.max.y },
                if k & 4 == 0 { bb.min.z } else { bb.max.z },
            );
            let p = vp.project_point3(c);
            lo = lo.min(p.truncate());
            hi = hi.max(p.truncate());
        }
    }
    assert!(lo.x > -1.0 && lo.y > -1.0 && hi.x < 1.0 && hi.y < 1.0, "the pair is in view: {lo} … {hi}");
    let extent = (hi - lo).max_element() / 2.0;
    assert!(extent > 0.35, "the pair fills {:.0} % of the view", extent * 100.0);
}

/// A click in two frames (1/60 s each: two clicks make a double-click).
fn click(h: &mut Harness<'_, Testbed>, p: egui::Pos2) {
    h.hover_at(p);
    h.drag_at(p);
    h.step();
    h.drop_at(p);
    h.step();
}

/// A double-click on an inset enlarges it to the whole view (the main view is not drawn
/// under it) and another puts it back; each inset turns on its own.
#[test]
fn an_enlarged_inset_fills_the_view_and_turns_on_its_own() {
    use contactlab::view::Figure;
    let mut t = testbed("crossed_edges.ron");
    t.view.overlays.enable(contactlab::scene::format::Overlay::Minkowski);
    t.step_once();
    let mut h = Harness::builder().with_size(egui::Vec2::new(1600.0, 1000.0)).with_step_dt(1.0 / 60.0).build_ui_state(
        |ui, t: &mut Testbed| {
            contactlab::app::viewport::frame(ui, t);
        },
        t,
    );
    h.run();
    let rect = h.state().view.rect;
    let ppp = h.ctx.pixels_per_point();
    let main = contactlab::render::draw::Rect {
        x: rect.min.x * ppp,
        y: rect.min.y * ppp,
        w: rect.width() * ppp,
        h: rect.height() * ppp,
    };
    let pd = h.state().sides.main().pair_debug_cached(h.state().selected_pair());
    let [gi, _] = h.state().view.insets(main, 1, pd, ppp);
    let (g, shown) = (gi.rect, gi.shown);
    assert!(shown);
    let centre = egui::Pos2::new((g.x + g.w * 0.5) / ppp, (g.y + g.h * 0.5) / ppp);
    click(&mut h, centre);
    click(&mut h, centre);
    assert_eq!(h.state().view.insets.solo, Some(Figure::Gauss), "a double-click enlarges the Gauss map");
    let state = h.state();
    let pd = state.sides.main().pair_debug_cached(state.selected_pair());
    let [whole, minkowski] = state.view.insets(main, 1, pd, ppp);
    let (whole, minkowski) = (whole.rect, minkowski.shown);
    assert_eq!((whole.w, whole.h), (main.w, main.h), "it fills the view");
    assert!(!minkowski, "the other inset is not drawn");
    // Dragging turns the Gauss map only.
    let before = h.state().view.insets;
    h.drag_at(centre);
    h.run();
    h.hover_at(centre + egui::vec2(80.0, 20.0));
    h.run();
    h.drop_at(centre + egui::vec2(80.0, 20.0));
    h.run();
    let after = h.state().view.insets;
    assert_ne!(after.gauss, before.gauss, "the enlarged Gauss map turned");
    assert_eq!(after.minkowski, before.minkowski, "the Minkowski view did not");
    // Half a second apart from the last clicks (else the next would count as a triple-click).
    for _ in 0..30 {
        h.step();
    }
    click(&mut h, centre);
    click(&mut h, centre);
    assert_eq!(h.state().view.insets.solo, None, "a second double-click puts it back");
}

/// At 1280×720 the inspector's points table fits the panel: every point's λn and λt label
/// lies inside the panel, left of the 3D view.
#[test]
fn the_inspectors_impulse_columns_fit_the_panel_at_1280_by_720() {
    let mut t = testbed("box_on_box.ron");
    for _ in 0..20 {
        t.step_once();
    }
    let p = t.pair_debug().cloned().expect("base and box selected");
    let mut h = Harness::builder().with_size(egui::Vec2::new(1280.0, 720.0)).build_ui_state(
        |ui, t: &mut Testbed| {
            contactlab::app::viewport::frame(ui, t);
        },
        t,
    );
    h.run();
    let view_left = h.state().view.rect.min.x;
    let mut checked = 0;
    for (ln, lt) in p.impulses.iter().take(p.manifold.points.len()) {
        for text in [format!("{ln:.2}"), format!("{:.2}, {:.2}", lt[0], lt[1])] {
            // The table may sit below the panel's fold; any shown copy must fit.
            for node in h.query_all_by_label(&text) {
                let r = node.rect();
                assert!(r.right() <= view_left + 0.5, "'{text}' ends at {} past the panel ({view_left})", r.right());
                checked += 1;
            }
        }
    }
    assert!(checked >= 8, "{checked} impulse labels found");
}

/// A scene without a camera of its own is framed by a short run of its own method, whatever
/// method the run or the comparison chose (`--solver`, `--compare`): the naive method
/// scatters the 10-box stack over its ground, and the frame stays the stack's. The frame
/// holds the standing stack: its top box within the picture, its height a good share of it.
#[test]
fn the_automatic_camera_frames_the_scene_as_its_own_method_runs_it() {
    use contactlab::app::view_state::initial_camera;
    let path = scene::scenes_dir().join("stack_10.ron");
    let own = scene::load(&path).unwrap();
    assert!(own.desc.camera.is_none() && own.desc.solver.mode == SolverMode::Iterative);
    let mut naive = scene::load(&path).unwrap();
    naive.world.settings.mode = SolverMode::Naive;
    let (a, b) = (initial_camera(&own), initial_camera(&naive));
    assert_eq!((a.target, a.distance, a.yaw, a.pitch), (b.target, b.distance, b.yaw, b.pitch));
    // The stack's lowest and highest points on the picture (16:9), in normalised height.
    let vp = a.view_proj(16.0 / 9.0);
    let ys: Vec<f32> = own
        .world
        .bodies()
        .iter()
        .filter(|x| x.is_dynamic())
        .flat_map(|x| {
            [x.pose.pos.y - 0.5, x.pose.pos.y + 0.5]
                .map(|y| vp.project_point3(glam::Vec3::new(x.pose.pos.x, y, x.pose.pos.z)).y)
        })
        .collect();
    let (lo, hi) = ys.iter().fold((f32::MAX, f32::MIN), |(l, h), &y| (l.min(y), h.max(y)));
    assert!(lo > -1.0 && hi < 1.0, "the stack in the picture: {lo} .. {hi}");
    assert!(hi - lo > 1.0, "the stack spans half the picture's height or more: {}", hi - lo);
}

/// A comparison's tiles draw smaller pictures, and their lines and dots shrink with them by
/// the square root of the picture's scale, so that a stack in a 2 × 2 tile is not buried
/// under its contact dots: at 1280 × 720, a tile 640 × 360 keeping 80 points of text clear
/// draws its picture at 0.5 × (1 − 80 / 360) of the view's size, and a contact dot (11
/// pixels, ringed to 15) at √ of that.
#[test]
fn a_comparisons_lines_and_dots_shrink_with_its_tiles() {
    use contactlab::render::draw::Rect;
    let mut t = testbed("naive_stack.ron");
    t.view.overlays.enable(contactlab::scene::format::Overlay::Contacts);
    for _ in 0..10 {
        t.step_once();
    }
    let widest_dot = |t: &mut Testbed| {
        let outlines = vec![Vec::new(); t.world().bodies().len()];
        let main = Rect { x: 0.0, y: 0.0, w: 1280.0, h: 720.0 };
        let inputs = t.frame_inputs((1280, 720), main, &outlines);
        let views = contactlab::render::views::build_views(&inputs[0]);
        views[0].markers.iter().map(|s| s.a[3]).fold(0.0f32, f32::max)
    };
    assert_eq!(widest_dot(&mut t), 15.0, "a view of its own: 11-pixel dots ringed to 15");
    t.set_sides(&[SolverMode::Naive, SolverMode::Iterative, SolverMode::Cyclone, SolverMode::Averaged]);
    for _ in 0..10 {
        t.step_once();
    }
    t.view.header = 80.0;
    let scale = (0.5f32 * (1.0 - 80.0 / 360.0)).sqrt();
    let w = widest_dot(&mut t);
    assert!((w - 15.0 * scale).abs() < 1e-3, "a 2 × 2 tile's dots are {w} pixels, not {}", 15.0 * scale);
}
