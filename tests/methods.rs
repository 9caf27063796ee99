//! The resolution methods against closed-form answers: momentum and restitution in a
//! head-on collision, the flat drop (bounce without spin), the incline (static friction
//! holds at 20°, the box slides with g(sin θ − μ cos θ) at 40°), a standing stack; and every
//! method on the same running world (switching keeps the contacts; every shipped scene
//! stays finite in every method).

mod common;
use common::*;
use contactlab::physics::{BodyDesc, Settings, Shape, SolverMode, World};
use contactlab::scene;
use glam::{Quat, Vec3};
use std::collections::BTreeSet;

const DT: f32 = 1.0 / 60.0;

fn settings(mode: SolverMode) -> Settings {
    Settings { mode, sleeping: false, ..Default::default() }
}

/// Cyclone with a velocity pass that converges on resting contacts: 50 resolution steps per
/// point and ε = 10⁻⁴ (m, m/s). At Millington's defaults (4 steps per point, ε = 0.01) the
/// pass stops early: each contact of a stack is left approaching at up to ε and sinks to ε
/// deep (a 5-box column settles about 4 cm low), and when the step budget runs out first
/// the leftover spin, the same every step, walks the boxes sideways (module docs).
fn converged() -> Settings {
    Settings {
        cyclone_velocity_iterations: 50,
        cyclone_velocity_epsilon: 1e-4,
        cyclone_position_epsilon: 1e-4,
        ..settings(SolverMode::Cyclone)
    }
}

/// Two spheres of different masses meeting head-on without gravity: (relative momentum
/// error, measured restitution).
fn head_on(mode: SolverMode, e: f32, restitution_threshold: f32) -> (f32, f32) {
    let mut w = World::new(Vec3::ZERO, Settings { restitution_threshold, ..settings(mode) });
    let a = w
        .add_body(
            BodyDesc::new("a", Shape::Sphere { radius: 0.5 }, Vec3::new(-2.0, 0.0, 0.0))
                .with_velocity(Vec3::new(4.0, 0.0, 0.0))
                .with_material(0.5, e),
        )
        .unwrap()
        .index as usize;
    let b = w
        .add_body(
            BodyDesc::new("b", Shape::Sphere { radius: 0.3 }, Vec3::new(2.0, 0.0, 0.0))
                .with_velocity(Vec3::new(-3.0, 0.0, 0.0))
                .with_material(0.5, e),
        )
        .unwrap()
        .index as usize;
    let momentum = |w: &World| {
        let (ba, bb) = (&w.bodies()[a], &w.bodies()[b]);
        ba.velocity * ba.mass() + bb.velocity * bb.mass()
    };
    let scale = {
        let (ba, bb) = (&w.bodies()[a], &w.bodies()[b]);
        ba.velocity.length() * ba.mass() + bb.velocity.length() * bb.mass()
    };
    let p0 = momentum(&w);
    let approach = w.bodies()[a].velocity.x - w.bodies()[b].velocity.x;
    for _ in 0..90 {
        w.step(DT);
    }
    let separation = w.bodies()[b].velocity.x - w.bodies()[a].velocity.x;
    assert!(w.bodies()[a].pose.pos.x < w.bodies()[b].pose.pos.x, "{mode:?}: the spheres passed through each other");
    ((momentum(&w) - p0).length() / scale, separation / approach)
}

#[test]
fn head_on_spheres_conserve_momentum_and_honour_restitution() {
    for mode in [SolverMode::Cyclone, SolverMode::Averaged] {
        let (dp, e) = head_on(mode, 0.8, 1.0);
        println!("{mode:?}: momentum error {dp:.2e}, e = {e:.5}");
        assert!(dp < 1e-5, "{mode:?}: momentum error {dp:e}");
        assert!((e - 0.8).abs() < 0.008, "{mode:?}: e = {e}, want 0.8 within 1 %");
        // The measurement reads the method's bounce: under the restitution threshold the
        // same collision is plastic.
        let (_, plastic) = head_on(mode, 0.8, 50.0);
        assert!(plastic.abs() < 0.01, "{mode:?}: e = {plastic} under the threshold");
    }
}

/// A unit cube dropped flat onto the ground at 5 m/s with e = 0.5: (rebound ratio, |ω|
/// largest over the 10 steps after the bounce).
fn flat_drop(mode: SolverMode, dt: f32) -> (f32, f32, f32) {
    let mut w = world(settings(mode));
    ground(&mut w);
    let i = w
        .add_body(
            BodyDesc::new("cube", cube(0.5), Vec3::new(0.0, 0.9, 0.0))
                .with_velocity(Vec3::new(0.0, -5.0, 0.0))
                .with_material(0.5, 0.5),
        )
        .unwrap()
        .index as usize;
    let mut before = w.bodies()[i].velocity.y;
    for _ in 0..(0.5 / dt) as usize {
        w.step(dt);
        let v = w.bodies()[i].velocity.y;
        if v > 0.0 {
            let mut spin = w.bodies()[i].angular_velocity.length();
            for _ in 0..10 {
                w.step(dt);
                spin = spin.max(w.bodies()[i].angular_velocity.length());
            }
            return (v, -before, spin);
        }
        before = v;
    }
    panic!("{mode:?}: the cube never bounced");
}

#[test]
fn cube_dropped_flat_bounces_with_e_and_without_spin() {
    // At 240 Hz. Cyclone and Averaged bounce at the moment of impact, measured with the
    // integrator's energy (solver/bounce.rs), and the cube leaves flat, without spin. A
    // one-pass method bounces before the step moves the cube, from the gap the step began
    // with (s ≤ (v + g·h)·h): at √(e²·v² − 2·g·s·(1 − e²)), between that at the largest gap
    // and e·v, each to one step's gravity.
    let (e, h, g) = (0.5f32, 1.0 / 240.0, 9.81f32);
    for mode in [SolverMode::Cyclone, SolverMode::Averaged] {
        let (up, down, spin) = flat_drop(mode, h);
        let gap = (down + g * h) * h;
        let least = (e * e * down * down - 2.0 * g * gap * (1.0 - e * e)).max(0.0).sqrt() - g * h;
        let most = e * (down * down + 2.0 * g * gap).sqrt() + g * h;
        println!(
            "{mode:?}: rebound {up:.4} m/s from {down:.4} m/s (between {least:.4} and {most:.4}), |ω| {spin:.2e} rad/s"
        );
        assert!(up >= least && up <= most, "{mode:?}: rebound {up} m/s, want between {least} and {most}");
        assert!(spin < 0.01, "{mode:?}: |ω| = {spin} rad/s after a flat drop");
    }
    // The test can fail: the naive method resolves the corners one after another and the
    // cube leaves spinning.
    let (_, _, spin) = flat_drop(SolverMode::Naive, h);
    println!("Naive: |ω| {spin:.3} rad/s");
    assert!(spin > 0.01, "naive spins after a flat drop ({spin} rad/s)");
}

/// A unit cube on a static ramp tilted by `deg` about z, μ = 0.5 on both: its downhill
/// velocity at 0.5 s and 1.5 s, and its displacement after 2 s.
fn incline(settings: Settings, deg: f32) -> (f32, f32, f32) {
    let mut w = world(settings);
    let q = Quat::from_rotation_z(deg.to_radians());
    w.add_body(
        BodyDesc::new("ramp", Shape::cuboid(Vec3::new(20.0, 0.25, 3.0)).unwrap(), Vec3::ZERO)
            .with_rotation(q)
            .with_material(0.5, 0.0)
            .fixed(),
    )
    .unwrap();
    let start = q * Vec3::new(0.0, 0.75, 0.0);
    let i = w.add_body(BodyDesc::new("box", cube(0.5), start).with_rotation(q).with_material(0.5, 0.0)).unwrap().index
        as usize;
    let downhill = q * Vec3::new(-1.0, 0.0, 0.0);
    let mut v = [0.0; 2];
    for k in 1..=120 {
        w.step(DT);
        if k == 30 {
            v[0] = w.bodies()[i].velocity.dot(downhill);
        }
        if k == 90 {
            v[1] = w.bodies()[i].velocity.dot(downhill);
        }
    }
    (v[0], v[1], (w.bodies()[i].pose.pos - start).length())
}

#[test]
fn cyclone_box_holds_on_a_20_degree_incline_and_slides_on_a_40_degree_one() {
    let (_, _, at_defaults) = incline(settings(SolverMode::Cyclone), 20.0);
    let (_, _, drift) = incline(converged(), 20.0);
    println!("Cyclone 20°: drift {:.3} mm over 2 s ({:.3} mm at the seed's defaults)", drift * 1e3, at_defaults * 1e3);
    assert!(drift < 1e-3, "static friction: drift {drift} m over 2 s");

    let (v1, v2, _) = incline(converged(), 40.0);
    let t = 40f32.to_radians();
    let want = 9.81 * (t.sin() - 0.5 * t.cos());
    let a = (v2 - v1) / 1.0;
    println!("Cyclone 40°: a = {a:.4} m/s², closed form {want:.4}");
    assert!((a / want - 1.0).abs() < 0.03, "sliding: a = {a}, want {want} within 3 %");
}

#[test]
fn cyclone_five_box_stack_stands_ten_seconds() {
    // Not at Millington's defaults (see `converged`).
    let mut w = world(converged());
    ground(&mut w);
    let boxes = stack(&mut w, 5);
    let top = *boxes.last().unwrap();
    let start = w.bodies()[top].pose.pos;
    let mut drift: f32 = 0.0;
    for _ in 0..600 {
        w.step(DT);
        drift = drift.max((w.bodies()[top].pose.pos - start).length());
    }
    println!("Cyclone 5-box stack: largest drift of the top box {:.3} mm", drift * 1e3);
    assert!(drift < 0.01, "top box drifted {drift} m");
    assert!(w.non_finite().is_empty());
}

/// Pairs with contact points.
fn touching(w: &World) -> BTreeSet<(u32, u32)> {
    w.contacts().iter().filter(|c| !c.manifold.points.is_empty()).map(|c| (c.a.min(c.b), c.a.max(c.b))).collect()
}

#[test]
fn switching_methods_on_a_running_world_keeps_the_contacts() {
    let mut w = world(settings(SolverMode::Iterative));
    ground(&mut w);
    // A short column: taller ones sink or walk in the one-pass methods (module docs), which
    // would change the contacts whatever the switch does.
    stack(&mut w, 2);
    w.add_body(BodyDesc::new("ball", Shape::Sphere { radius: 0.4 }, Vec3::new(2.5, 0.4, 0.0))).unwrap();
    w.add_body(BodyDesc::new("side", cube(0.5), Vec3::new(-2.5, 0.5, 0.0))).unwrap();
    for _ in 0..60 {
        w.step(DT);
    }
    for k in 0..16 {
        let mode = SolverMode::ALL[k % SolverMode::ALL.len()];
        let before = touching(&w);
        w.settings.mode = mode;
        w.step(DT);
        assert_eq!(touching(&w), before, "switch to {mode:?}: the touching pairs changed");
        for _ in 0..19 {
            w.step(DT);
        }
        assert!(w.non_finite().is_empty(), "{mode:?}: {:?}", w.non_finite());
        assert!(w.bodies().iter().all(|b| b.pose.pos.is_finite() && b.velocity.is_finite()));
    }
}

#[test]
fn every_shipped_scene_runs_300_steps_in_every_method() {
    for path in scene::shipped_scenes() {
        for mode in SolverMode::ALL {
            let mut s = scene::load(&path).unwrap_or_else(|e| panic!("{e}"));
            s.world.settings.mode = mode;
            let dt = s.timestep();
            for _ in 0..300 {
                s.world.step(dt);
            }
            assert!(s.world.non_finite().is_empty(), "{} in {mode:?}: {:?}", path.display(), s.world.non_finite());
            assert!(
                s.world.bodies().iter().all(|b| b.pose.pos.is_finite()
                    && b.pose.rot.is_finite()
                    && b.velocity.is_finite()
                    && b.angular_velocity.is_finite()),
                "{} in {mode:?}: a body is not finite",
                path.display()
            );
        }
    }
}
