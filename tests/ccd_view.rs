//! Continuous collision in the window and on the command line: the panel's mode switch and
//! its list of impacts, the inspector's time-of-impact iterations for the selected pair,
//! the ghosts drawn (render, on lavapipe in CI) and `--ccd`.

use contactlab::app::headless::Offscreen;
use contactlab::app::panels::panel;
use contactlab::app::Testbed;
use contactlab::physics::ContinuousMode;
use contactlab::render::toi::{GHOST_IMPACT, GHOST_START};
use contactlab::scene;
use contactlab::scene::format::Overlay;
use contactlab::view::Overlays;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use std::process::Command;

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
}

/// Steps until the last step had a time of impact for `body` (at most 60 steps).
fn step_to_impact(t: &mut Testbed, body: &str) -> u64 {
    let i = t.session.scene.body_index(body).unwrap() as u32;
    for _ in 0..60 {
        t.step_once();
        if t.world().continuous().event_of(i).is_some() {
            return t.world().step_count;
        }
    }
    panic!("{body} had no time of impact in 60 steps");
}

#[test]
fn the_panel_lists_the_impacts_and_the_inspector_the_pairs_iterations() {
    let mut t = testbed("bullet_wall.ron");
    let step = step_to_impact(&mut t, "ball");
    let (ball, wall) = (t.session.scene.body_index("ball").unwrap(), t.session.scene.body_index("wall").unwrap());
    let (lo, hi) = t.selected_pair().expect("the scene selects a pair");
    assert_eq!((lo.min(hi), lo.max(hi)), (ball.min(wall), ball.max(wall)), "the scene selects (ball, wall)");
    // What the inspector must show: the query of (ball, wall) and its iterations.
    let rec = t.world().continuous().clone();
    let q = rec.queries_of(ball as u32, wall as u32).find(|q| q.result.iterations > 0).expect("a query").clone();
    let its = rec.iterations_of(&q).to_vec();
    assert!(its.len() >= 2, "advancement takes steps: {its:?}");
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 4000.0))
        .build_ui_state(|ui, t: &mut Testbed| panel(ui, t), t);
    h.run();
    h.get_by_label_contains(&format!("impacts of step {step}"));
    h.get_by_label_contains("swept by conservative advancement");
    // The iteration table: the first and last gap as printed.
    h.get_by_label(&format!("{:+.6}", its[0].distance));
    h.get_by_label(&format!("{:.6}", its.last().unwrap().t));
    // The mode switch changes the running world's setting, nothing else.
    h.get_by_label("Earliest collision").click();
    h.run();
    assert_eq!(h.state().world().settings.ccd, ContinuousMode::EarliestCollision);
    assert_eq!(h.state().world().step_count, step, "the scene was not reloaded");
}

#[test]
fn the_ghosts_are_drawn_only_with_the_overlay_and_fade_after_the_step() {
    let mut off = Offscreen::new((640, 360)).expect("a Vulkan adapter (install mesa-vulkan-drivers)");
    let mut t = testbed("bullet_wall.ron");
    t.selection.bodies.clear();
    step_to_impact(&mut t, "ball");
    let srgb = |c: [f32; 3]| {
        c.map(|x| {
            let s = if x <= 0.003_130_8 { 12.92 * x } else { 1.055 * x.powf(1.0 / 2.4) - 0.055 };
            (s * 255.0).round() as i32
        })
    };
    let count = |img: &image::RgbaImage, c: [f32; 3]| {
        let c = srgb(c);
        img.pixels().filter(|p| (0..3).map(|k| (p.0[k] as i32 - c[k]).abs()).sum::<i32>() <= 30).count()
    };
    t.view.overlays = Overlays::default();
    let none = off.render(&mut t, (640, 360)).unwrap();
    t.view.overlays.set(Overlay::Toi, true);
    let on = off.render(&mut t, (640, 360)).unwrap();
    let (impact_off, impact_on) = (count(&none, GHOST_IMPACT), count(&on, GHOST_IMPACT));
    let (start_off, start_on) = (count(&none, GHOST_START), count(&on, GHOST_START));
    assert!(impact_off == 0 && impact_on > 30, "impact ghost pixels: {impact_off} off, {impact_on} on");
    assert!(start_on > start_off + 10, "start ghost pixels: {start_off} off, {start_on} on");
    // Held (fading) for a while after the step, gone after the hold.
    t.session.playing = false;
    for _ in 0..contactlab::app::sides::HOLD_STEPS {
        t.step_once();
        if !t.world().continuous().events.is_empty() {
            return; // another impact: the hold restarted (the cube); nothing more to check
        }
    }
    let gone = off.render(&mut t, (640, 360)).unwrap();
    assert_eq!(count(&gone, GHOST_IMPACT), 0, "ghosts gone after the hold");
}

#[test]
fn ccd_flag_overrides_the_scenes_mode() {
    let dir = std::env::temp_dir().join(format!("contactlab-ccd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scene = format!("{}/scenes/bullet_wall.ron", env!("CARGO_MANIFEST_DIR"));
    let mut end_x = Vec::new();
    for mode in ["off", "fast", "earliest"] {
        let trace = dir.join(format!("{mode}.jsonl"));
        let out = Command::new(env!("CARGO_BIN_EXE_contactlab"))
            .args([&scene, "--headless", "--steps", "30", "--ccd", mode, "--trace"])
            .arg(&trace)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let (header, steps) = contactlab::trace::read::read_trace(&trace).unwrap();
        assert_eq!(header.ccd, mode);
        let last = steps.last().unwrap();
        let ball = last.bodies.iter().find(|b| b.name == "ball").unwrap();
        end_x.push(ball.position[0]);
    }
    // The wall's near face is at x = 7.9: off, the ball passes through it; on, it stays short.
    assert!(end_x[0] > 8.1, "--ccd off: the ball tunnels (x = {})", end_x[0]);
    assert!(end_x[1] < 7.9 && end_x[2] < 7.9, "--ccd fast / earliest: stopped at the wall (x = {:?})", end_x);
    let bad = Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args([&scene, "--headless", "--steps", "1", "--ccd", "sometimes"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("possible values"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_panel_switches_the_path_test_the_simplex_cache_and_the_closed_form() {
    // All on by default; each checkbox turns its setting off in the running world. With the
    // closed-form ball–box distance and the simplex cache off the ball's impact is the
    // textbook GJK's; it is found in the same step and place as with the defaults, and as
    // with GJK from the cache.
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(520.0, 4000.0))
        .build_ui_state(|ui, t: &mut Testbed| panel(ui, t), testbed("bullet_wall.ron"));
    h.run();
    let s = &h.state().world().settings;
    assert!(s.path_test && s.simplex_cache && s.closed_form_distance);
    h.get_by_label("path test").click();
    h.run();
    assert!(!h.state().world().settings.path_test);
    h.get_by_label("GJK simplex cache").click();
    h.run();
    assert!(!h.state().world().settings.simplex_cache);
    h.get_by_label("closed-form ball–box distance").click();
    h.run();
    assert!(!h.state().world().settings.closed_form_distance);
    let step = step_to_impact(h.state_mut(), "ball");
    let mut closed = testbed("bullet_wall.ron");
    let mut cached = testbed("bullet_wall.ron");
    let mut s = cached.world().settings;
    s.closed_form_distance = false;
    cached.world_mut().settings = s;
    for other in [&mut closed, &mut cached] {
        assert_eq!(step_to_impact(other, "ball"), step, "the impact comes in the same step");
        let ball = other.session.scene.body_index("ball").unwrap() as u32;
        let (e0, e1) = (h.state().world().continuous().event_of(ball), other.world().continuous().event_of(ball));
        let (e0, e1) = (e0.unwrap(), e1.unwrap());
        // The ball moves 6.7 m in the step: the search's 1.25 mm tolerance is 2·10⁻⁴ of it.
        assert!(
            (e0.fraction - e1.fraction).abs() < 5e-4,
            "impact at {} by the textbook GJK, {} by a fast path",
            e0.fraction,
            e1.fraction
        );
        assert!((e0.impact.pos - e1.impact.pos).length() < 3e-3, "{} vs {}", e0.impact.pos, e1.impact.pos);
    }
}
