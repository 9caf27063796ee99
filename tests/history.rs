//! The window's history (`app/history.rs`): stepping back and scrubbing re-simulate from
//! snapshots, and must land on exactly the world of the straight run — every pose, velocity
//! and stored impulse bit for bit — in every resolution method, through replayed drags and
//! edits, with the snapshots thinned by a small budget.

mod common;
use common::fingerprint;
use contactlab::app::drag::Drag;
use contactlab::app::Testbed;
use contactlab::physics::SolverMode;
use contactlab::scene;
use glam::Vec3;

fn testbed(name: &str) -> Testbed {
    let path = scene::scenes_dir().join(name);
    Testbed::new(scene::load(&path).unwrap(), Some(path))
}

/// The methods, and the iterative one's textbook (scalar) path too.
fn methods() -> Vec<(SolverMode, bool)> {
    let mut m: Vec<_> = SolverMode::ALL.iter().map(|&m| (m, true)).collect();
    m.push((SolverMode::Iterative, false));
    m
}

fn with_method(name: &str, (mode, simd): (SolverMode, bool)) -> Testbed {
    let mut t = testbed(name);
    t.world_mut().settings.mode = mode;
    t.world_mut().settings.simd = simd;
    t
}

/// Fingerprints of the straight run, steps 0..=n.
fn straight(name: &str, method: (SolverMode, bool), n: u64) -> Vec<u64> {
    let mut t = with_method(name, method);
    let mut out = vec![fingerprint(t.world())];
    for _ in 0..n {
        t.step_once();
        out.push(fingerprint(t.world()));
    }
    out
}

#[test]
fn scrubbing_back_and_forth_lands_on_the_straight_runs_world_in_every_method() {
    for scene in ["stack_10.ron", "dominoes.ron", "restitution_row.ron", "double_pendulum.ron"] {
        for method in methods() {
            let want = straight(scene, method, 305);
            let mut t = with_method(scene, method);
            // A budget of a few snapshots, so thinning runs and most steps are re-simulated.
            t.session.history.budget = 4 * t.world().snapshot_bytes().max(64 << 10);
            for _ in 0..300 {
                t.step_once();
            }
            let at = |t: &Testbed| (t.world().step_count, fingerprint(t.world()));
            assert_eq!(at(&t), (300, want[300]));
            assert!(t.session.history.bytes() <= t.session.history.budget || t.session.history.snapshots() <= 2);
            for target in [200, 199, 37, 0, 150, 151, 300, 250] {
                t.seek(target);
                assert_eq!(at(&t), (target, want[target as usize]), "{scene} {method:?} at step {target}");
            }
            for k in 1..=5 {
                t.step_back();
                assert_eq!(at(&t), (250 - k, want[250 - k as usize]), "{scene} {method:?} back");
            }
            // Playing on from the past re-runs the recorded steps, then runs new ones.
            t.session.playing = true;
            for _ in 0..60 {
                t.step_once();
            }
            assert_eq!(t.world().step_count, 305);
            assert_eq!(t.session.history.head(), 305);
            assert_eq!(fingerprint(t.world()), want[305]);
        }
    }
}

#[test]
fn a_recorded_drag_is_replayed_when_re_simulating() {
    let name = "pyramid_20.ron";
    let top = |t: &Testbed| t.world().bodies().iter().rposition(|b| b.is_dynamic()).unwrap();
    let run = |t: &mut Testbed, n: u64| {
        let mut prints = vec![];
        for s in 0..n {
            // Pull the top box sideways from step 40 to step 90.
            if s == 40 {
                let i = top(t);
                let p = t.world().bodies()[i].pose.pos;
                t.session.drag = Some(Drag {
                    body: i,
                    local: Vec3::ZERO,
                    target: p + Vec3::new(2.0, 1.0, 0.0),
                    depth: 10.0,
                    turn: Vec3::ZERO,
                });
            }
            if s == 90 {
                t.end_drag();
            }
            t.step_once();
            prints.push(fingerprint(t.world()));
        }
        prints
    };
    let mut t = testbed(name);
    let want = run(&mut t, 150);
    let moved = t.world().bodies()[top(&t)].pose.pos;
    assert!(moved.x > 1.0, "the drag pulled the top box sideways (x = {})", moved.x);
    for target in [60u64, 30, 120, 150, 89, 91] {
        t.seek(target);
        assert_eq!(fingerprint(t.world()), want[target as usize - 1], "step {target}");
    }
}

#[test]
fn an_edit_at_a_past_step_branches_and_a_setting_changed_at_the_head_is_kept() {
    let mut t = testbed("pyramid_20.ron");
    for _ in 0..100 {
        t.step_once();
    }
    // A setting changed at step 100 (as the panel does): re-simulating across step 100 must
    // use the old setting before it and the new one after.
    t.world_mut().settings.iterations = 2;
    for _ in 0..50 {
        t.step_once();
    }
    let want = fingerprint(t.world());
    t.seek(90);
    assert_eq!(t.world().settings.iterations, contactlab::physics::Settings::default().iterations);
    t.seek(150);
    assert_eq!(t.world().settings.iterations, 2);
    assert_eq!(fingerprint(t.world()), want);

    // An edit at step 120: everything after it is gone.
    t.seek(120);
    t.edited();
    assert_eq!(t.session.history.head(), 120);
    assert!(t.session.history.note.contains("branched at step 120"), "{}", t.session.history.note);
    assert!(!t.in_past());
}

#[test]
fn the_budget_thins_old_snapshots_first_and_keeps_the_start() {
    let mut t = testbed("pyramid_20.ron");
    for _ in 0..50 {
        t.step_once();
    }
    // Room for about a dozen snapshots of the settled pyramid.
    t.session.history.budget = 12 * t.world().snapshot_bytes();
    for _ in 0..1500 {
        t.step_once();
        assert!(t.session.history.bytes() <= t.session.history.budget, "over budget at step {}", t.world().step_count);
    }
    let steps: Vec<u64> = t.session.history.snapshot_steps().collect();
    assert_eq!(steps[0], 0, "the scene's start stays reachable");
    assert_eq!(t.session.history.first(), 0);
    // Spacing grows with age: the gaps near the head are shorter than those near the start.
    let gaps: Vec<u64> = steps.windows(2).map(|w| w[1] - w[0]).collect();
    let n = gaps.len();
    assert!(n >= 6, "{steps:?}");
    assert!(gaps[n - 1] < gaps[0] && gaps[n - 2] < gaps[1], "{steps:?}");
}

#[test]
fn a_replayed_trace_shows_the_recorded_bodies_and_contacts_at_every_step() {
    use contactlab::trace::{TraceStep, TraceWriter};
    let dir = std::env::temp_dir().join(format!("contactlab-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("drop.jsonl");
    // Record 90 steps of the box drop, every third step.
    let mut run = testbed("single_box_drop.ron");
    let mut w =
        TraceWriter::new(std::fs::File::create(&path).unwrap(), "Single box drop", 1.0 / 60.0, run.world()).unwrap();
    w.write_step(&TraceStep::capture(run.world(), 0, false)).unwrap();
    let mut recorded = vec![];
    for n in 1..=90u64 {
        run.step_once();
        if n % 3 == 0 {
            let s = TraceStep::capture(run.world(), n, true);
            w.write_step(&s).unwrap();
            recorded.push(s);
        }
    }
    w.finish().unwrap();

    let mut t = testbed("single_box_drop.ron");
    t.open_replay(&path).unwrap();
    assert_eq!(t.timeline(), (0, 90));
    let box_i = t.session.scene.body_index("box").unwrap();
    for s in recorded.iter().filter(|s| s.step % 15 == 0) {
        t.seek(s.step);
        assert_eq!(t.world().step_count, s.step);
        let pose = t.world().bodies()[box_i].authored_pose();
        let want = &s.bodies[box_i];
        assert!((pose.pos - Vec3::from_array(want.position)).length() < 1e-6, "step {}", s.step);
        let points: usize = t.world().contacts().iter().map(|c| c.manifold.points.len()).sum();
        assert_eq!(points, s.contacts.iter().map(|c| c.points.len()).sum::<usize>(), "step {}", s.step);
    }
    // The landing has contacts with impulses; stepping moves one recorded frame, no physics.
    t.seek(90);
    assert!(t.world().contacts().iter().any(|c| c.impulses.iter().any(|i| i.normal > 0.0)));
    t.step_back();
    assert_eq!(t.world().step_count, 87);
    t.step_once();
    t.step_once();
    assert_eq!(t.world().step_count, 90, "the last frame holds");
    t.reset();
    assert_eq!(t.world().step_count, 0);

    // A trace of another scene is refused and the testbed is unchanged.
    let mut other = testbed("stack_10.ron");
    let e = other.open_replay(&path).unwrap_err();
    assert!(e.contains("open the scene it was recorded from"), "{e}");
    assert!(other.session.replay.is_none());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn record_gif_takes_a_frame_every_k_steps_and_writes_them_all() {
    let dir = std::env::temp_dir().join(format!("contactlab-gif-{}", std::process::id()));
    let mut t = testbed("single_box_drop.ron");
    t.tools.capture.recorder.dir = dir.clone();
    t.tools.capture.recorder.every = 3;
    t.start_gif();
    let frame = |k: u8| image::RgbaImage::from_pixel(40, 30, image::Rgba([k, 100, 200, 255]));
    let mut taken = 0;
    for s in 0..12 {
        if t.gif_frame_due() {
            t.push_gif_frame(frame(s));
            taken += 1;
        }
        t.step_once();
    }
    assert_eq!(taken, 4, "steps 0, 3, 6 and 9");
    t.stop_gif();
    t.poll_gif_within(true);
    let saved = t.tools.status.strip_prefix("saved ").unwrap_or_else(|| panic!("{}", t.tools.status)).to_owned();
    assert!(saved.ends_with(".gif"));
    use image::AnimationDecoder;
    let file = std::io::BufReader::new(std::fs::File::open(&saved).unwrap());
    let frames = image::codecs::gif::GifDecoder::new(file).unwrap().into_frames().collect_frames().unwrap();
    assert_eq!(frames.len(), 4);
    assert!(frames.iter().all(|f| f.buffer().dimensions() == (40, 30)));
    std::fs::remove_dir_all(&dir).ok();
}

/// At a slow frame rate (5 fps: 12 steps due a frame at 60 Hz) the recording still samples
/// every `every` steps: the clock runs no further than the next frame due, so the frames are
/// `every` steps apart, not as many steps as a frame lasted.
#[test]
fn record_gif_samples_steps_not_rendered_frames() {
    let mut t = testbed("single_box_drop.ron");
    t.tools.capture.recorder.every = 2;
    t.start_gif();
    t.session.playing = true;
    let frame = image::RgbaImage::from_pixel(8, 8, image::Rgba([0, 0, 0, 255]));
    let mut at = Vec::new();
    for _ in 0..6 {
        t.advance(0.2);
        if t.gif_frame_due() {
            at.push(t.world().step_count);
            t.push_gif_frame(frame.clone());
        }
    }
    assert_eq!(at, [0, 2, 4, 6, 8, 10], "frames at every second step");
    t.tools.capture.recorder.active = None;
    let most = contactlab::app::session::MAX_STEPS_PER_FRAME as u32;
    assert_eq!(t.advance(0.2), most, "without a recording a 0.2 s frame runs the most steps a frame may");
}

#[test]
fn ctrl_drag_turns_the_held_body_and_replays_exactly() {
    let mut t = testbed("single_box_drop.ron");
    let i = t.session.scene.body_index("box").unwrap();
    let p = t.world().bodies()[i].pose.pos;
    // Paused: the body turns at once, 0.01 rad per pixel, about the view's up axis.
    t.begin_drag(i, p);
    let before = t.world().bodies()[i].pose.rot;
    t.turn_drag(100.0, 0.0);
    let after = t.world().bodies()[i].pose.rot;
    let angle = (after * before.inverse()).to_axis_angle().1;
    assert!((angle - 1.0).abs() < 1e-4, "turned {angle} rad");
    t.end_drag();

    // Running: the drag holds the body's spin; re-simulating replays it bit for bit.
    t.session.playing = true;
    t.begin_drag(i, t.world().bodies()[i].pose.pos);
    t.turn_drag(40.0, 0.0);
    let want_spin = t.session.drag.unwrap().turn;
    assert!((want_spin.length() - 10.0).abs() < 1e-3, "{want_spin}");
    let mut prints = vec![];
    let start = t.world().bodies()[i].pose.rot;
    for _ in 0..30 {
        t.step_once();
        prints.push(fingerprint(t.world()));
    }
    t.end_drag();
    // 10 rad/s for 30 steps of 1/60 s: 5 rad about the view's up axis (a quaternion's angle
    // wraps at 2π: 5 rad reads as 2π − 5 about the opposite axis).
    let (axis, angle) = (t.world().bodies()[i].pose.rot * start.inverse()).to_axis_angle();
    let turned = if axis.dot(want_spin) >= 0.0 { angle } else { std::f32::consts::TAU - angle };
    assert!((turned - 5.0).abs() < 0.05, "turned {turned} rad about {axis}");
    let end = t.world().step_count;
    t.seek(end - 20);
    t.seek(end);
    assert_eq!(fingerprint(t.world()), prints[29]);
}
