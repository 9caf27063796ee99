//! Rolling resistance against its closed forms (`BodyDesc::rolling_resistance`; the
//! iterative methods' rows, `solver/iterative.rs`).
//!
//! A contact resists the two bodies' relative turning with a torque of at most
//! `c · arm · N` (coefficient, rolling arm, normal force); a ball's arm is its radius.
//! - A solid ball rolling without slipping on level ground (friction holds the contact
//!   point): with friction force f at the contact and the resisting torque `c·r·m·g`,
//!   `m·a = −f` and `I·α = f·r − c·r·m·g` with `α = a/r`, so it slows at
//!   `a = c·g / (1 + I/(m·r²)) = c·g/1.4`, and stops at `v₀²/(2a)`.
//! - A ball spinning in place about the vertical (the resistance acts about every axis,
//!   as Box3D's does): `I·ω̇ = −c·r·m·g`, so `ω̇ = c·g/(0.4·r)`.
//! - Without rolling resistance the rolling ball keeps its speed.
//!
//! Each runs on the textbook scalar solver and on the SIMD solver (which leaves manifolds
//! with rolling resistance uncoloured, so the scalar rows solve them), and with two threads.

use contactlab::physics::{BodyDesc, Settings, Shape, World};
use glam::Vec3;

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;
const R: f32 = 0.5;

/// The three solver set-ups every case runs on.
fn setups() -> Vec<(&'static str, Settings)> {
    let base = Settings { sleeping: false, ..Default::default() };
    vec![
        ("scalar", Settings { simd: false, ..base }),
        ("simd", Settings { simd: true, ..base }),
        ("simd, 2 threads", Settings { simd: true, threads: 2, ..base }),
    ]
}

/// A ball of radius [`R`] resting on level ground (rolling resistance `c` on the ball, the
/// ground's 0: a pair takes the larger), with velocity `v` and spin `w`, settled for a
/// few steps first so it starts in contact; returns the world and the ball's index.
fn ball_on_ground(settings: Settings, c: f32, v: Vec3, w: Vec3) -> (World, usize) {
    let mut world = World::new(Vec3::new(0.0, -G, 0.0), settings);
    let ground = Shape::cuboid(Vec3::new(50.0, 0.5, 50.0)).unwrap();
    world.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -0.5, 0.0)).fixed().with_material(1.0, 0.0)).unwrap();
    let ball = BodyDesc::new("ball", Shape::Sphere { radius: R }, Vec3::new(-20.0, R, 0.0))
        .with_material(1.0, 0.0)
        .with_rolling_resistance(c)
        .with_velocity(v)
        .with_angular_velocity(w);
    let i = world.add_body(ball).unwrap().index as usize;
    (world, i)
}

/// Steps `n` times.
fn run(world: &mut World, n: usize) {
    for _ in 0..n {
        world.step(DT);
    }
}

#[test]
fn a_rolling_ball_slows_at_the_closed_form_rate() {
    let (c, v0) = (0.1f32, 3.0f32);
    let a = c * G / 1.4;
    for (name, settings) in setups() {
        // Rolling without slipping from the start: ω = v/r about −z for +x travel.
        let (mut world, i) = ball_on_ground(settings, c, Vec3::new(v0, 0.0, 0.0), Vec3::new(0.0, 0.0, -v0 / R));
        run(&mut world, 6);
        let v_start = world.bodies()[i].velocity.x;
        // Two seconds later: a·2 s = 1.40 m/s slower.
        run(&mut world, 120);
        let b = &world.bodies()[i];
        let lost = v_start - b.velocity.x;
        assert!((lost - 2.0 * a).abs() < 0.005 * 2.0 * a, "{name}: lost {lost} m/s in 2 s, closed form {}", 2.0 * a);
        // Still rolling without slipping (the friction holds): v = ω·r.
        let slip = b.velocity.x + b.angular_velocity.z * R;
        assert!(slip.abs() < 1e-2, "{name}: slips at {slip} m/s");
        // It stops where the closed form says, and stays stopped (no creep, no reversal).
        run(&mut world, 240);
        let b = &world.bodies()[i];
        let travelled = b.pose.pos.x + 20.0;
        let stop = v0 * v0 / (2.0 * a);
        assert!((travelled - stop).abs() < 0.01 * stop, "{name}: rolled {travelled} m, closed form {stop} m");
        assert!(b.velocity.length() < 1e-3 && b.angular_velocity.length() < 1e-2, "{name}: still moving: {b:?}");
    }
}

#[test]
fn a_ball_spinning_in_place_slows_at_the_closed_form_rate() {
    let (c, w0) = (0.05f32, 20.0f32);
    // I·ω̇ = c·r·m·g with I = 0.4·m·r².
    let alpha = c * G / (0.4 * R);
    for (name, settings) in setups() {
        let (mut world, i) = ball_on_ground(settings, c, Vec3::ZERO, Vec3::new(0.0, w0, 0.0));
        run(&mut world, 6);
        let w_start = world.bodies()[i].angular_velocity.y;
        run(&mut world, 60);
        let lost = w_start - world.bodies()[i].angular_velocity.y;
        assert!((lost - alpha).abs() < 0.005 * alpha, "{name}: lost {lost} rad/s in 1 s, closed form {alpha}");
        let b = &world.bodies()[i];
        assert!(b.velocity.length() < 1e-3, "{name}: the spinning ball wandered off at {} m/s", b.velocity.length());
    }
}

#[test]
fn without_rolling_resistance_a_ball_rolls_on() {
    let v0 = 3.0f32;
    for (name, settings) in setups() {
        let (mut world, i) = ball_on_ground(settings, 0.0, Vec3::new(v0, 0.0, 0.0), Vec3::new(0.0, 0.0, -v0 / R));
        run(&mut world, 126);
        let v = world.bodies()[i].velocity.x;
        assert!((v - v0).abs() < 0.01 * v0, "{name}: a freely rolling ball went from {v0} to {v} m/s");
    }
}

#[test]
fn rolling_resistance_runs_the_same_on_every_thread_count() {
    // The SIMD solver with rolling manifolds among coloured ones: a row of balls on a
    // ridge of boxes, some with rolling resistance.
    let build = |threads: u32| {
        let settings = Settings { sleeping: false, threads, ..Default::default() };
        let mut world = World::new(Vec3::new(0.0, -G, 0.0), settings);
        let ground = Shape::cuboid(Vec3::new(50.0, 0.5, 50.0)).unwrap();
        world.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -0.5, 0.0)).fixed()).unwrap();
        for k in 0..40 {
            let x = (k % 10) as f32 * 1.2 - 6.0;
            let z = (k / 10) as f32 * 1.2 - 2.0;
            let shape = if k % 3 == 0 { Shape::cuboid(Vec3::splat(0.4)).unwrap() } else { Shape::Sphere { radius: R } };
            let d = BodyDesc::new(format!("b{k}"), shape, Vec3::new(x, 0.6 + 0.05 * k as f32, z))
                .with_velocity(Vec3::new(1.0 + 0.1 * k as f32, 0.0, 0.3))
                .with_rolling_resistance(if k % 2 == 0 { 0.08 } else { 0.0 });
            world.add_body(d).unwrap();
        }
        run(&mut world, 200);
        world.bodies().iter().map(|b| (b.pose.pos, b.pose.rot, b.velocity, b.angular_velocity)).collect::<Vec<_>>()
    };
    let one = build(1);
    for threads in [2, 3] {
        assert!(build(threads) == one, "{threads} threads differ from one");
    }
}

#[test]
fn the_rolling_resistance_scene_keeps_its_description() {
    use contactlab::scene;
    let mut s = scene::load(&scene::scenes_dir().join("rolling_resistance.ron")).unwrap();
    let desc = s.desc.description.clone();
    let dt = s.timestep();
    let index = |s: &scene::LoadedScene, name: &str| s.body_index(name).unwrap();
    let balls = [("c=0.05", 5.71f32), ("c=0.1", 2.85), ("c=0.2", 1.43)];
    let start: Vec<f32> = balls.iter().map(|(n, _)| s.world.bodies()[index(&s, n)].pose.pos.x).collect();
    let free = index(&s, "c=0");
    // Six seconds: every resisted ball has stopped; the free one is still on the ground.
    for _ in 0..360 {
        s.world.step(dt);
    }
    for ((name, stop), x0) in balls.iter().zip(&start) {
        let b = &s.world.bodies()[index(&s, name)];
        let rolled = b.pose.pos.x - x0;
        assert!((rolled - stop).abs() < 0.01 * stop, "{name} rolled {rolled} m, the description says {stop}");
        assert!(b.velocity.length() < 1e-3, "{name} still moving at {}", b.velocity.length());
        assert!(desc.contains(&format!("{stop:.2}")), "the description names {stop:.2} m");
    }
    let v = s.world.bodies()[free].velocity.x;
    assert!((v - 2.0).abs() < 0.02, "the free ball rolls on at 2 m/s, not {v}");
}
