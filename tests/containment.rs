//! Containment of non-finite states: a NaN injected through the API is found before it can
//! reach another body, the body is frozen (asleep, no contacts) and reported with its step
//! and stage; a NaN produced during a step is found at its end; the trace and the headless
//! runner report it.

mod common;
use common::*;
use contactlab::physics::world::Origin;
use contactlab::physics::{BodyDesc, Settings, Shape, SolverMode, Stage, World};
use glam::Vec3;

fn finite(w: &World) -> bool {
    w.bodies().iter().all(|b| {
        b.pose.pos.is_finite() && b.pose.rot.is_finite() && b.velocity.is_finite() && b.angular_velocity.is_finite()
    })
}

/// Ground, a lower ball resting on it and an upper ball resting on the lower one.
fn two_balls(mode: SolverMode) -> (World, usize, usize) {
    let mut w = world(Settings { mode, ..Default::default() });
    ground(&mut w);
    let lower = w.add_body(BodyDesc::new("lower", Shape::Sphere { radius: 0.5 }, Vec3::new(0.0, 0.5, 0.0))).unwrap();
    let upper = w.add_body(BodyDesc::new("upper", Shape::Sphere { radius: 0.5 }, Vec3::new(0.0, 1.5, 0.0))).unwrap();
    (w, lower.index as usize, upper.index as usize)
}

#[test]
fn nan_velocity_set_through_the_api_is_frozen_before_it_touches_anyone() {
    for mode in [SolverMode::Iterative, SolverMode::Naive] {
        let (mut w, lower, upper) = two_balls(mode);
        for _ in 0..30 {
            w.step(1.0 / 60.0);
        }
        assert!(w.non_finite().is_empty());
        let resting = w.bodies()[lower].pose;
        let h = w.handle(lower);
        w.body_mut(h).unwrap().velocity = Vec3::new(f32::NAN, 0.0, 0.0);
        w.step(1.0 / 60.0);
        // Found before the step ran: step 31, an edit, the velocity.
        let e = &w.non_finite()[0];
        assert_eq!(w.non_finite().len(), 1, "only the poisoned body: {:?}", w.non_finite());
        assert_eq!((e.body as usize, e.step, e.origin), (lower, 31, Origin::Edit));
        assert_eq!(e.name, "lower");
        assert_eq!(e.fields, "velocity");
        assert!(w.is_frozen(lower) && !w.is_frozen(upper));
        // Frozen: where it was, asleep, still — and no contacts, so the upper ball falls
        // through it to the ground (its centre ends one radius above y = 0).
        for _ in 0..240 {
            w.step(1.0 / 60.0);
            assert!(finite(&w), "{mode:?}: a NaN escaped");
            assert!(w.contacts().iter().all(|c| c.a as usize != lower && c.b as usize != lower));
        }
        let b = &w.bodies()[lower];
        assert_eq!(b.pose, resting, "{mode:?}: the frozen body does not move");
        assert!(b.asleep && b.velocity == Vec3::ZERO && b.angular_velocity == Vec3::ZERO);
        let y = w.bodies()[upper].pose.pos.y;
        assert!((y - 0.5).abs() < 0.02, "{mode:?}: the upper ball rests on the ground, y = {y}");
        assert_eq!(w.non_finite().len(), 1, "reported once");
        assert!(w.total_energy().is_finite());
    }
}

#[test]
fn frozen_body_stays_frozen_when_woken_or_with_sleeping_off() {
    let (mut w, lower, _) = two_balls(SolverMode::Iterative);
    let h = w.handle(lower);
    w.body_mut(h).unwrap().angular_velocity = Vec3::new(0.0, f32::INFINITY, 0.0);
    w.step(1.0 / 60.0);
    assert_eq!(w.non_finite()[0].fields, "angular velocity");
    let at = w.bodies()[lower].pose;
    w.settings.sleeping = false;
    w.wake(lower);
    for _ in 0..60 {
        w.step(1.0 / 60.0);
    }
    assert_eq!(w.bodies()[lower].pose, at, "no gravity, no integration while frozen");
    assert!(w.bodies()[lower].asleep);
}

#[test]
fn nan_position_is_replaced_by_the_last_finite_pose() {
    let (mut w, lower, _) = two_balls(SolverMode::Iterative);
    w.step(1.0 / 60.0);
    let before = w.bodies()[lower].pose;
    let h = w.handle(lower);
    w.body_mut(h).unwrap().pose.pos.y = f32::NAN;
    w.step(1.0 / 60.0);
    let e = &w.non_finite()[0];
    assert_eq!((e.fields.as_str(), e.step), ("position", 2));
    // The pose the previous step began with: finite, near where the body was.
    let p = w.bodies()[lower].pose.pos;
    assert!(p.is_finite() && p.distance(before.pos) < 0.01, "{p} vs {}", before.pos);
}

#[test]
fn nan_made_during_a_step_is_found_at_its_end_with_its_stage() {
    // Gravity is not a body edit: the NaN it brings appears inside the step, in the first
    // stage, and every awake body is frozen at the end of that step.
    for (mode, stage) in [(SolverMode::Iterative, Stage::IntegrateForces), (SolverMode::Naive, Stage::IntegrateForces)]
    {
        let (mut w, lower, upper) = two_balls(mode);
        for _ in 0..3 {
            w.step(1.0 / 60.0);
        }
        w.gravity = Vec3::new(0.0, f32::NAN, 0.0);
        w.step(1.0 / 60.0);
        let found: Vec<(usize, u64, Origin)> =
            w.non_finite().iter().map(|e| (e.body as usize, e.step, e.origin)).collect();
        assert_eq!(found, vec![(lower, 4, Origin::Stage(stage)), (upper, 4, Origin::Stage(stage))], "{mode:?}");
        assert!(finite(&w));
    }
}

#[test]
fn the_trace_step_lists_the_frozen_bodies() {
    let (mut w, lower, _) = two_balls(SolverMode::Iterative);
    let healthy = serde_json::to_value(contactlab::trace::TraceStep::capture(&w, 0, false)).unwrap();
    assert_eq!(healthy["non_finite"], serde_json::json!([]));
    let h = w.handle(lower);
    w.body_mut(h).unwrap().velocity.x = f32::NAN;
    w.step(1.0 / 60.0);
    let v = serde_json::to_value(contactlab::trace::TraceStep::capture(&w, 1, true)).unwrap();
    assert_eq!(
        v["non_finite"],
        serde_json::json!([{"body": "lower", "step": 1, "stage": "an edit between steps", "fields": "velocity"}])
    );
    // Older traces without the field still read.
    let mut old = v.clone();
    old.as_object_mut().unwrap().remove("non_finite");
    let back: contactlab::trace::TraceStep = serde_json::from_value(old).unwrap();
    assert!(back.non_finite.is_empty());
}

#[test]
fn headless_run_with_a_frozen_body_fails_with_its_own_exit_code() {
    use clap::Parser;
    use contactlab::cli;
    let path = format!("{}/scenes/stack_10.ron", env!("CARGO_MANIFEST_DIR"));
    let args = cli::Cli::parse_from(["contactlab", &path, "--headless", "--steps", "20"]);
    let mut scene = cli::load_scene(&args).unwrap();
    assert!(cli::check_finite(&scene.world).is_ok());
    let i = scene.body_index("box3").unwrap();
    let h = scene.world.handle(i);
    scene.world.body_mut(h).unwrap().velocity.y = f32::NAN;
    let summary = cli::run_headless(&args, &mut scene).unwrap();
    assert_eq!(summary.non_finite, 1);
    assert!(summary.energy.is_finite(), "the frozen body cannot poison the energy");
    assert!(summary.to_string().contains("non-finite       1 (frozen)"));
    let err = cli::check_finite(&scene.world).unwrap_err();
    assert_eq!(err.exit_code(), cli::EXIT_NON_FINITE);
    assert_ne!(cli::EXIT_NON_FINITE, 2, "distinct from bad input");
    let msg = err.to_string();
    assert!(msg.contains("'box3' in step 1 (an edit between steps: velocity)"), "{msg}");
}

#[test]
fn bodies_whose_inertia_f32_cannot_hold_are_refused_by_the_api() {
    let mut w = world(Settings::default());
    let tiny = BodyDesc::new("dust", Shape::Sphere { radius: 1e-9 }, Vec3::ZERO);
    let e = w.add_body(tiny).unwrap_err();
    assert!(e.to_string().contains("body 'dust'"), "{e}");
}
