//! Kinematic bodies (`BodyKind::Kinematic`): they move at the velocity and spin they are
//! given, exactly, whatever strikes them; they carry and push dynamic bodies by contact;
//! they wake and keep awake what they touch; and the scene format and every method take
//! them. The turntable (`scenes/turntable.ron`) is checked against its closed forms:
//! friction holds a crate on its circle where ω²r ≤ μg, and a first-order step carries a
//! riding crate outwards at the rate ω²·Δt/2 (the creep halves with the step), until it
//! slips off where its radius passes μg/ω². Bodies on a path (`world/paths.rs`) run it at
//! its speed, and the shuttle's crate (`scenes/shuttle.ron`) slips v²/2μg as the deck
//! starts and (2v)²/2μg as it turns.

mod common;
use common::*;
use contactlab::physics::{BodyDesc, BodyKind, Settings, Shape, SolverMode, World};
use contactlab::scene;
use glam::{Quat, Vec3};

const DT: f32 = 1.0 / 60.0;

fn turntable() -> World {
    scene::load(&scene::scenes_dir().join("turntable.ron")).unwrap().world
}

fn radius(w: &World, i: usize) -> f32 {
    let p = w.bodies()[i].pose.pos;
    p.x.hypot(p.z)
}

#[test]
fn a_kinematic_body_turns_exactly_at_its_spin_and_is_not_slowed_by_its_load() {
    let mut w = turntable();
    let table = 1;
    assert_eq!(w.bodies()[table].kind, BodyKind::Kinematic);
    let (start, spin) = (w.bodies()[table].pose, w.bodies()[table].angular_velocity);
    let steps = 240;
    for _ in 0..steps {
        w.step(DT);
    }
    let b = &w.bodies()[table];
    // Velocity and spin as given, bit for bit: nothing pushes a kinematic body.
    assert_eq!(b.velocity, Vec3::ZERO);
    assert_eq!(b.angular_velocity, spin);
    assert_eq!(b.pose.pos, start.pos);
    // The turn is ω·t about y (8 rad after 4 s), to f32 round-off over 960 substeps.
    let expect = Quat::from_rotation_y(spin.y * steps as f32 * DT);
    assert!(b.pose.rot.dot(expect).abs() > 1.0 - 1e-6, "{:?} against {expect:?}", b.pose.rot);
}

#[test]
fn the_turntable_carries_the_crates_inside_mu_g_over_omega_squared_and_throws_the_others() {
    let mut w = turntable();
    let (mu, g, omega) = (0.5f32, 9.81f32, 2.0f32);
    let r_star = mu * g / (omega * omega);
    // The scene's four crates: two inside r* ≈ 1.23 m, two outside.
    let crates = [(2, 0.4f32), (3, 0.8), (4, 1.6), (5, 2.4)];
    for &(i, r0) in &crates {
        assert!((radius(&w, i) - r0).abs() < 1e-6);
    }
    for _ in 0..240 {
        w.step(DT);
    }
    for &(i, r0) in &crates {
        let (r, b) = (radius(&w, i), &w.bodies()[i]);
        if r0 < r_star {
            // Carried round: speed ω·r along the circle, spin ω, on the table inside r*.
            let speed = b.velocity.x.hypot(b.velocity.z);
            assert!((speed - omega * r).abs() < 0.02 * omega * r, "crate at {r0} m: speed {speed} at r = {r}");
            assert!((b.angular_velocity.y - omega).abs() < 0.02, "crate at {r0} m: spin {}", b.angular_velocity.y);
            assert!(b.pose.pos.y > 0.5 && r < r_star, "crate at {r0} m: at r = {r}, y = {}", b.pose.pos.y);
        } else {
            // Thrown: off the 2.8 m table and down on the ground (top at y = 0).
            assert!(r > 2.8 && b.pose.pos.y < 0.2, "crate at {r0} m: at r = {r}, y = {}", b.pose.pos.y);
        }
    }
}

/// The 0.4 m crate's radius at 1 s and at 5 s, stepping by `dt`.
fn creep(dt: f32) -> (f32, f32) {
    let mut w = turntable();
    let per_second = (1.0 / dt).round() as usize;
    let mut at = Vec::new();
    for k in 1..=5 * per_second {
        w.step(dt);
        if k == per_second || k == 5 * per_second {
            at.push(radius(&w, 2));
        }
    }
    (at[0], at[1])
}

#[test]
fn a_riding_crate_creeps_outwards_at_the_first_order_steps_rate() {
    // The solver holds a crate to the table's velocity at the step's start; a step along
    // that tangent ends (ωr·Δt)²/2r further out, so r grows as exp(ω²·Δt·t/2): 3.4 % a
    // second at ω = 2 rad/s and Δt = 1/60 s, half that at Δt/2. Measured from 1 s on,
    // after the crate has been brought up to the table's speed.
    let omega2 = 4.0f32;
    for dt in [DT, DT / 2.0] {
        let (r1, r5) = creep(dt);
        let rate = (r5 / r1).ln() / 4.0;
        let expect = omega2 * dt / 2.0;
        assert!((rate - expect).abs() < 0.1 * expect, "Δt = {dt}: r grows {rate} a second, expected {expect}");
    }
}

#[test]
fn a_crate_slips_off_the_turntable_where_its_radius_passes_mu_g_over_omega_squared() {
    // The 0.8 m crate creeps outwards (above) until friction can no longer hold it on its
    // circle, ω²r = μg: from there it slides out faster and faster. The creep alone moves it
    // out at under 0.09 m/s near r*; where it first moves out at 0.1 m/s, its radius is r*
    // to within a few per cent.
    let (mu, g, omega) = (0.5f32, 9.81f32, 2.0f32);
    let r_star = mu * g / (omega * omega);
    let mut w = turntable();
    for step in 1..=900 {
        w.step(DT);
        let (p, v) = (w.bodies()[3].pose.pos, w.bodies()[3].velocity);
        let r = p.x.hypot(p.z);
        let outwards = (v.x * p.x + v.z * p.z) / r;
        if step > 60 && outwards > 0.1 {
            assert!((r - r_star).abs() < 0.05 * r_star, "slipped at r = {r}, r* = {r_star}");
            return;
        }
    }
    panic!("the 0.8 m crate never slipped in 15 s");
}

/// A kinematic platform 4 × 0.2 × 2 m moving at `v`, a crate dropped on it, ground below.
fn platform(mode: SolverMode, v: Vec3) -> (World, usize, usize) {
    let mut w = world(Settings { mode, ..Default::default() });
    ground(&mut w);
    let deck = Shape::cuboid(Vec3::new(2.0, 0.1, 1.0)).unwrap();
    let p = w.add_body(BodyDesc::new("platform", deck, Vec3::new(0.0, 1.0, 0.0)).kinematic(v, Vec3::ZERO)).unwrap();
    let c = w.add_body(BodyDesc::new("crate", cube(0.2), Vec3::new(-1.0, 1.32, 0.0)).with_material(0.8, 0.0)).unwrap();
    (w, p.index as usize, c.index as usize)
}

#[test]
fn a_moving_platform_carries_a_crate_at_its_own_speed_in_every_method_with_friction() {
    let v = Vec3::new(0.5, 0.0, 0.0);
    // (The naive method has no friction: the deck slides out under its crate.)
    for mode in SolverMode::ALL.into_iter().filter(|&m| m != SolverMode::Naive) {
        let (mut w, p, c) = platform(mode, v);
        let p0 = w.bodies()[p].pose.pos;
        let steps = 120;
        for _ in 0..steps {
            w.step(DT);
        }
        let (bp, bc) = (&w.bodies()[p], &w.bodies()[c]);
        // The platform where its velocity takes it (f32 sums of v·h), not pushed.
        let expect = p0 + v * (steps as f32 * DT);
        assert!((bp.pose.pos - expect).length() < 1e-4, "{mode:?}: platform at {:?}, expected {expect:?}", bp.pose.pos);
        assert_eq!(bp.velocity, v);
        // The crate rides: the platform's velocity, on the deck.
        assert!((bc.velocity - v).length() < 0.02, "{mode:?}: crate moves at {:?}", bc.velocity);
        assert!((bc.pose.pos.y - 1.3).abs() < 0.02, "{mode:?}: crate at height {}", bc.pose.pos.y);
    }
}

#[test]
fn a_kinematic_paddle_pushes_a_crate_ahead_at_its_speed_and_keeps_its_own() {
    // Frictionless ground: the paddle, 2 m/s along x, reaches the crate after 0.5 s and
    // drives it ahead at its own speed (no restitution) without slowing.
    for mode in SolverMode::ALL {
        let mut w = world(Settings { mode, ..Default::default() });
        let g = ground(&mut w);
        w.body_mut(w.handle(g)).unwrap().friction = 0.0;
        let v = Vec3::new(2.0, 0.0, 0.0);
        let paddle = Shape::cuboid(Vec3::new(0.1, 0.5, 1.0)).unwrap();
        let p =
            w.add_body(BodyDesc::new("paddle", paddle, Vec3::new(-1.1, 0.6, 0.0)).kinematic(v, Vec3::ZERO)).unwrap();
        let c =
            w.add_body(BodyDesc::new("crate", cube(0.25), Vec3::new(0.25, 0.25, 0.0)).with_material(0.0, 0.0)).unwrap();
        for _ in 0..60 {
            w.step(DT);
        }
        let (bp, bc) = (&w.bodies()[p.index as usize], &w.bodies()[c.index as usize]);
        assert_eq!(bp.velocity, v, "{mode:?}");
        assert!((bp.pose.pos.x - (-1.1 + 2.0)).abs() < 1e-4, "{mode:?}: paddle at {}", bp.pose.pos.x);
        // (The naive method's one pass of point impulses, in order, overshoots: the crate
        // leaves a little faster than the paddle, and the paddle catches it up again.)
        let tolerance = if mode == SolverMode::Naive { 0.2 } else { 0.05 };
        assert!((bc.velocity.x - 2.0).abs() < tolerance, "{mode:?}: crate at {:?}", bc.velocity);
        // Ahead of the paddle's face (x + 0.1) by the crate's half width, within a few mm.
        let gap = bc.pose.pos.x - 0.25 - (bp.pose.pos.x + 0.1);
        assert!(gap > -0.02 && gap < if mode == SolverMode::Naive { 0.1 } else { 0.02 }, "{mode:?}: gap {gap}");
    }
}

#[test]
fn a_moving_kinematic_body_wakes_a_sleeping_crate_and_keeps_a_rider_awake() {
    let mut w = world(Settings { sleeping: true, ..Default::default() });
    ground(&mut w);
    let c = w.add_body(BodyDesc::new("crate", cube(0.25), Vec3::new(0.0, 0.25, 0.0))).unwrap().index as usize;
    let paddle = Shape::cuboid(Vec3::new(0.1, 0.4, 0.5)).unwrap();
    let v = Vec3::new(0.5, 0.0, 0.0);
    let p = w.add_body(BodyDesc::new("paddle", paddle, Vec3::new(-2.0, 0.45, 0.0)).kinematic(v, Vec3::ZERO)).unwrap();
    // A slow platform 0.02 m/s (under the sleep speed) with a rider, far away.
    let deck = Shape::cuboid(Vec3::new(1.0, 0.1, 1.0)).unwrap();
    let slow = Vec3::new(0.0, 0.0, 0.02);
    w.add_body(BodyDesc::new("deck", deck, Vec3::new(6.0, 0.5, 0.0)).kinematic(slow, Vec3::ZERO)).unwrap();
    let rider = w.add_body(BodyDesc::new("rider", cube(0.2), Vec3::new(6.0, 0.8, 0.0))).unwrap().index as usize;
    let mut slept = false;
    for step in 0..300 {
        w.step(DT);
        let paddle_x = w.bodies()[p.index as usize].pose.pos.x;
        if paddle_x < -0.6 {
            // Still 0.25 m or more away: the crate rests, and falls asleep.
            slept |= w.bodies()[c].asleep;
        }
        assert!(!w.bodies()[rider].asleep, "step {step}: the rider on a moving deck slept");
    }
    assert!(slept, "the crate never fell asleep before the paddle came");
    let b = &w.bodies()[c];
    assert!(!b.asleep && b.velocity.x > 0.4, "the paddle left the crate at {:?}, asleep {}", b.velocity, b.asleep);
    // The rider went with its deck: 0.02 m/s × 5 s.
    assert!((w.bodies()[rider].pose.pos.z - 0.1).abs() < 0.01, "rider at {}", w.bodies()[rider].pose.pos.z);
}

#[test]
fn the_scene_format_takes_kinematic_bodies_and_refuses_what_cannot_be() {
    let base = |bodies: &str| format!("Scene(name: \"k\", bodies: [{bodies}])");
    let s = scene::load_str(
        &base("(name: \"table\", shape: Box(half_extents: (1.0, 0.1, 1.0)), kind: Kinematic, angular_velocity: (0.0, 1.5, 0.0), velocity: (0.1, 0.0, 0.0))"),
        "k.ron",
    )
    .unwrap();
    let b = &s.world.bodies()[0];
    assert_eq!(b.kind, BodyKind::Kinematic);
    assert_eq!((b.velocity, b.angular_velocity), (Vec3::new(0.1, 0.0, 0.0), Vec3::new(0.0, 1.5, 0.0)));
    assert_eq!(b.inv_mass, 0.0);
    let e = scene::load_str(
        &base("(name: \"floor\", shape: Heightfield(cells: (2, 2), cell: 1.0, heights: Waves(amplitude: 0.1, wavelength: 2.0)), kind: Kinematic)"),
        "k.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("body 'floor'") && e.contains("can only be static"), "{e}");
}

#[test]
fn a_script_drives_a_kinematic_body_round_a_circle_step_by_step() {
    // Before each step the pusher is given the velocity from this step's point of a circle
    // (radius 5 m, 1° a step) to the next one's, as Box3D's junkyard drives its pusher: it
    // stays on the circle to f32 round-off, and carries on through the boxes in its way.
    let mut w = world(Settings::default());
    ground(&mut w);
    let post = Shape::cuboid(Vec3::new(0.3, 1.0, 0.3)).unwrap();
    let at = |k: usize| {
        let a = (k as f32).to_radians();
        Vec3::new(5.0 * a.cos(), 1.0, 5.0 * a.sin())
    };
    let p = w.add_body(BodyDesc::new("pusher", post, at(0)).kinematic(Vec3::ZERO, Vec3::ZERO)).unwrap();
    for k in 0..8 {
        let a = (20.0 + 10.0 * k as f32).to_radians();
        w.add_body(BodyDesc::new(format!("box{k}"), cube(0.2), Vec3::new(5.6 * a.cos(), 0.2, 5.6 * a.sin()))).unwrap();
    }
    for k in 0..180 {
        assert!(w.set_kinematic_velocity(p, (at(k + 1) - at(k)) / DT, Vec3::ZERO));
        w.step(DT);
        let x = w.body(p).unwrap().pose.pos;
        assert!((x - at(k + 1)).length() < 2e-4, "step {k}: at {x:?}, the circle's point {:?}", at(k + 1));
    }
    // Only a live kinematic body, and only finite numbers.
    let dynamic = w.handle(2);
    assert!(!w.set_kinematic_velocity(dynamic, Vec3::X, Vec3::ZERO));
    assert!(!w.set_kinematic_velocity(p, Vec3::new(f32::NAN, 0.0, 0.0), Vec3::ZERO));
    assert_eq!(w.body(p).unwrap().velocity, (at(180) - at(179)) / DT);
}

/// The swing of a 1 m pendulum of 10° amplitude hung by a ball joint from a body that is
/// `kind` and moves at `v`, the bob starting beside it at rest relative to it: the times
/// its offset along x from the pivot crosses zero upwards, over 6 s.
fn pendulum_crossings(kinematic: bool, v: Vec3) -> Vec<f32> {
    use contactlab::physics::{JointDesc, JointKind};
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    let (l, theta) = (1.0f32, 10f32.to_radians());
    let pivot = Vec3::new(0.0, 3.0, 0.0);
    let cart = BodyDesc::new("cart", cube(0.1), pivot);
    let cart = if kinematic { cart.kinematic(v, Vec3::ZERO) } else { cart.fixed() };
    let c = w.add_body(cart).unwrap().index;
    let at = pivot + l * Vec3::new(theta.sin(), -theta.cos(), 0.0);
    let mut bob =
        BodyDesc::new("bob", Shape::Sphere { radius: 0.05 }, at).with_velocity(if kinematic { v } else { Vec3::ZERO });
    bob.mass = Some(1.0);
    let b = w.add_body(bob).unwrap().index;
    w.add_joint(JointDesc::new("string", JointKind::Ball, c, b, pivot)).unwrap();
    let xs: Vec<f32> = (0..360)
        .map(|_| {
            w.step(DT);
            w.bodies()[b as usize].pose.pos.x - w.bodies()[c as usize].pose.pos.x
        })
        .collect();
    crossings(&xs, DT)
}

#[test]
fn a_pendulum_hung_from_a_moving_kinematic_cart_swings_as_from_a_fixed_pivot() {
    // In the cart's frame, moving at a constant 2 m/s, the pendulum swings as on the ground
    // (Galilean invariance): period 2π·√(L/g)·(1 + θ₀²/16) for amplitude θ₀.
    let theta: f32 = 10f32.to_radians();
    let period = 2.0 * std::f32::consts::PI * (1.0f32 / 9.81).sqrt() * (1.0 + theta * theta / 16.0);
    let periods = |c: &[f32]| c.windows(2).map(|p| p[1] - p[0]).collect::<Vec<f32>>();
    let (moving, fixed) = (pendulum_crossings(true, Vec3::new(2.0, 0.0, 0.0)), pendulum_crossings(false, Vec3::ZERO));
    assert!(moving.len() >= 2 && moving.len() == fixed.len(), "{moving:?} against {fixed:?}");
    println!(
        "periods on the cart {:?}, on a fixed pivot {:?}, closed form {period}",
        periods(&moving),
        periods(&fixed)
    );
    for (m, f) in periods(&moving).into_iter().zip(periods(&fixed)) {
        assert!((m - period).abs() < 0.01 * period, "period {m} s on the cart, closed form {period} s");
        assert!((m - f).abs() < 0.002 * period, "period {m} s on the cart, {f} s on a fixed pivot");
    }
}

/// `scenes/shuttle.ron`: the platform (body 1) and the crate's place along its deck (m),
/// after each step, for `steps` steps.
fn shuttle(steps: usize) -> Vec<(f32, f32)> {
    let mut w = scene::load(&scene::scenes_dir().join("shuttle.ron")).unwrap().world;
    (0..steps)
        .map(|_| {
            w.step(DT);
            let (p, c) = (w.bodies()[1].pose.pos.x, w.bodies()[2].pose.pos.x);
            (p, c - p)
        })
        .collect()
}

#[test]
fn a_shuttle_platform_runs_its_path_and_its_crate_slips_as_friction_allows() {
    let (v, mu, g) = (1.5f32, 0.6f32, 9.81f32);
    let run = shuttle(500);
    // From x = −3 m to +3 m at 1.5 m/s (4 s, 240 steps), back by step 480.
    let at = |k: usize| run[k - 1].0;
    assert!((at(120) - 0.0).abs() < 1e-3 && (at(240) - 3.0).abs() < 1e-3, "{} {}", at(120), at(240));
    assert!((at(360) - 0.0).abs() < 1e-3 && (at(480) + 3.0).abs() < 1e-3, "{} {}", at(360), at(480));
    // Starting at full speed, the deck slides v²/2μg under the crate before friction has
    // brought the crate up to its speed; turning at once (+v to −v), (2v)²/2μg.
    let start = -run[200].1;
    let turn = run[400].1 - run[200].1;
    let (want_start, want_turn) = (v * v / (2.0 * mu * g), (2.0 * v).powi(2) / (2.0 * mu * g));
    assert!((start - want_start).abs() < 0.03 * want_start, "slid {start} m at the start, v²/2μg = {want_start}");
    assert!((turn - want_turn).abs() < 0.03 * want_turn, "slid {turn} m at the turn, (2v)²/2μg = {want_turn}");
}

#[test]
fn a_looping_path_goes_round_its_points_and_bad_paths_are_refused() {
    use contactlab::physics::KinematicPath;
    let mut w = world(Settings::default());
    let p = w.add_body(BodyDesc::new("cart", cube(0.2), Vec3::ZERO).kinematic(Vec3::ZERO, Vec3::ZERO)).unwrap();
    // A 3-4-5 triangle at 2 m/s: round in 6 s (360 steps), through (3, 0, 0) at 1.5 s and
    // (3, 0, 4) at 3.5 s.
    let points = vec![Vec3::ZERO, Vec3::new(3.0, 0.0, 0.0), Vec3::new(3.0, 0.0, 4.0)];
    w.set_kinematic_path(p, KinematicPath { points, speed: 2.0, looping: true }).unwrap();
    let mut xs = Vec::new();
    for _ in 0..360 {
        w.step(DT);
        xs.push(w.body(p).unwrap().pose.pos);
    }
    for (k, want) in [(90, Vec3::new(3.0, 0.0, 0.0)), (210, Vec3::new(3.0, 0.0, 4.0)), (360, Vec3::ZERO)] {
        assert!((xs[k - 1] - want).length() < 2e-3, "step {k}: at {}, expected {want}", xs[k - 1]);
    }
    // Only a kinematic body, with points and a positive speed.
    let d = w.add_body(BodyDesc::new("box", cube(0.2), Vec3::Y * 3.0)).unwrap();
    let ok = KinematicPath { points: vec![Vec3::X], speed: 1.0, looping: false };
    assert!(w.set_kinematic_path(d, ok.clone()).is_err());
    assert!(w.set_kinematic_path(p, KinematicPath { points: vec![], ..ok.clone() }).is_err());
    assert!(w.set_kinematic_path(p, KinematicPath { speed: 0.0, ..ok.clone() }).is_err());
    let e = scene::load_str(
        "Scene(name: \"k\", bodies: [(name: \"box\", shape: Box(half_extents: (0.2, 0.2, 0.2)), path: Some((points: [(1.0, 0.0, 0.0)], speed: 1.0)))])",
        "k.ron",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("body 'box'") && e.contains("path") && e.contains("kinematic"), "{e}");
}

#[test]
fn continuous_collision_sweeps_against_a_kinematic_body_only_what_moved_fast_against_it() {
    // A crate riding a platform that moves at 30 m/s (half a metre a step, more than half
    // the crate's 0.2 m inner radius): fast against the world, still against the platform,
    // so no time of impact is asked of the pair. A ball shot at 150 m/s at a thin kinematic
    // wall drifting at 1 m/s is fast against it: swept, and stopped short of it.
    let mut w = World::new(Vec3::ZERO, Settings::default());
    let v = Vec3::new(30.0, 0.0, 0.0);
    let deck = w
        .add_body(
            BodyDesc::new("deck", Shape::cuboid(Vec3::new(2.0, 0.1, 2.0)).unwrap(), Vec3::ZERO)
                .kinematic(v, Vec3::ZERO),
        )
        .unwrap()
        .index;
    let rider = BodyDesc::new("rider", Shape::cuboid(Vec3::splat(0.2)).unwrap(), Vec3::new(0.0, 0.3, 0.0));
    let rider = w.add_body(rider.with_velocity(v)).unwrap().index;
    let wall = BodyDesc::new("wall", Shape::cuboid(Vec3::new(0.01, 1.0, 1.0)).unwrap(), Vec3::new(5.0, 0.0, 10.0));
    let wall = w.add_body(wall.kinematic(Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO)).unwrap().index;
    let ball = BodyDesc::new("ball", Shape::Sphere { radius: 0.05 }, Vec3::new(0.0, 0.0, 10.0));
    let ball = w.add_body(ball.with_velocity(Vec3::new(150.0, 0.0, 0.0))).unwrap().index;
    let mut swept_ball = false;
    for _ in 0..3 {
        w.step(DT);
        let queries = &w.continuous().queries;
        assert!(!queries.iter().any(|q| q.body == rider && q.other == deck), "the rider was swept against its deck");
        swept_ball |= queries.iter().any(|q| q.body == ball && q.other == wall);
        let (b, k) = (w.bodies()[ball as usize].pose.pos.x, w.bodies()[wall as usize].pose.pos.x);
        assert!(b < k, "the ball at x = {b} passed the wall at {k}");
    }
    assert!(swept_ball, "the ball was never swept against the wall");
}
