//! Conservation laws and closed forms across the five methods (issue 31): struck sleepers,
//! bounces at the speed of impact, simultaneous elastic impacts, and bodies on joints
//! (gyroscopes, a torque-free disc, a bob going round its pivot, a hinged rod). Every test
//! prints its measured numbers beside the closed form and the bound, and collects the
//! failures of all methods before it asserts, so one run shows every number
//! (`cargo test --test conservation -- --nocapture`; the figures are in docs/methods.md). The
//! impacts are here; the spinning bodies on joints are in `joints.rs`.

#[path = "../common/mod.rs"]
mod common;
mod joints;
use common::*;
use contactlab::physics::{BodyDesc, Hull, JointDesc, JointKind, Settings, Shape, SolverMode, World, WORLD};
use contactlab::scene;
use glam::{Mat3, Quat, Vec3};
use std::f32::consts::{FRAC_PI_2, PI, TAU};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

/// The five methods: naive, iterative on its SIMD batches, iterative on the scalar textbook
/// path, Cyclone and averaged, each on top of `base`.
fn methods(base: Settings) -> [(&'static str, Settings); 5] {
    [
        ("naive", Settings { mode: SolverMode::Naive, ..base }),
        ("iterative (SIMD)", Settings { mode: SolverMode::Iterative, simd: true, ..base }),
        ("iterative (scalar)", Settings { mode: SolverMode::Iterative, simd: false, ..base }),
        ("cyclone", Settings { mode: SolverMode::Cyclone, ..base }),
        ("averaged", Settings { mode: SolverMode::Averaged, ..base }),
    ]
}

fn no_sleep() -> Settings {
    Settings { sleeping: false, ..Default::default() }
}

/// Panics with every failure, one per line.
fn check(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} failure(s):\n{}", failures.len(), failures.join("\n"));
}

/// A frictionless static slab whose top face is at y = 0.
fn slab(w: &mut World, restitution: f32) -> usize {
    rough_slab(w, 0.0, restitution)
}

/// [`slab`] with friction coefficient `friction`.
fn rough_slab(w: &mut World, friction: f32, restitution: f32) -> usize {
    let d = BodyDesc::new("slab", Shape::cuboid(Vec3::new(20.0, 0.5, 20.0)).unwrap(), Vec3::new(0.0, -0.5, 0.0))
        .fixed()
        .with_material(friction, restitution);
    w.add_body(d).unwrap().index as usize
}

/// A frictionless 1 kg ball of radius `r` at `p`, moving at `v`.
fn ball(w: &mut World, name: &str, r: f32, p: Vec3, v: Vec3, restitution: f32) -> usize {
    rough_ball(w, name, r, p, v, 0.0, restitution)
}

/// [`ball`] with friction coefficient `friction`.
fn rough_ball(w: &mut World, name: &str, r: f32, p: Vec3, v: Vec3, friction: f32, restitution: f32) -> usize {
    let mut d =
        BodyDesc::new(name, Shape::Sphere { radius: r }, p).with_velocity(v).with_material(friction, restitution);
    d.mass = Some(1.0);
    w.add_body(d).unwrap().index as usize
}

fn kinetic(w: &World) -> f32 {
    w.bodies().iter().filter(|b| b.is_dynamic()).map(|b| b.kinetic_energy()).sum()
}

// ---------------------------------------------------------------------------------------
// 1. Struck sleepers
// ---------------------------------------------------------------------------------------

/// Equal masses, e = 1, head on: the striker stops and the target leaves at the striker's
/// speed (momentum and energy conservation have no other solution). A target that was
/// asleep must do that in the step of impact, as an awake one would.
#[test]
fn a_struck_sleeping_ball_takes_the_strikers_speed_in_the_step_of_impact() {
    let (r, v) = (0.2f32, 2.0f32);
    let mut failures = Vec::new();
    for (label, settings) in methods(Settings::default()) {
        assert!(settings.sleeping);
        let mut w = world(settings);
        slab(&mut w, 0.0);
        // 0.3 m between the balls: 9 steps of travel at 2 m/s.
        let striker = ball(&mut w, "striker", r, Vec3::new(-2.0 * r - 0.3, r, 0.0), Vec3::ZERO, 1.0);
        let target = ball(&mut w, "target", r, Vec3::new(0.0, r, 0.0), Vec3::ZERO, 1.0);
        for _ in 0..60 {
            w.step(DT);
        }
        let asleep = w.bodies()[target].asleep;
        if !asleep {
            failures.push(format!(
                "{label}: the target is not asleep after 1 s on the floor (|v| = {:.2e} m/s, rest time {:.2} s; sleep after {} s under {} m/s)",
                w.bodies()[target].velocity.length(),
                w.bodies()[target].sleep_time,
                settings.sleep_time,
                settings.sleep_linear
            ));
            continue;
        }
        let h = w.handle(striker);
        w.body_mut(h).unwrap().velocity = Vec3::new(v, 0.0, 0.0);
        let mut impact = None;
        for step in 1..=60 {
            w.step(DT);
            let t = w.bodies()[target].velocity;
            let s = w.bodies()[striker].velocity;
            let target_speed = Vec3::new(t.x, 0.0, t.z).length();
            if target_speed > 1e-3 || (s.x - v).abs() > 0.01 * v {
                impact = Some((step, target_speed, s.x));
                break;
            }
        }
        let Some((step, target_speed, striker_vx)) = impact else {
            failures.push(format!("{label}: no impact within 1 s of striking"));
            continue;
        };
        println!(
            "struck sleeper, {label}: step {step} of impact: target {target_speed:.4} m/s (want {v} ± 1 %), striker {striker_vx:+.4} m/s (want 0 ± {:.2})",
            0.01 * v
        );
        if (target_speed - v).abs() > 0.01 * v || striker_vx.abs() > 0.01 * v {
            failures.push(format!(
                "{label}: in the step of impact (step {step}) the target left at {target_speed:.4} m/s (bound {v} ± {:.3}) and the striker moves at {striker_vx:+.4} m/s (bound |v| ≤ {:.3})",
                0.01 * v,
                0.01 * v
            ));
        }
    }
    check(failures);
}

/// The shipped cradle with sleeping on: balls 1–4 fall asleep while ball 0 is held at its
/// release angle, then ball 0 is let go. One ball in, one ball out, as with awake balls, and
/// the swing's energy (kinetic plus potential above the hanging rest height) stays.
#[test]
fn newtons_cradle_scene_with_sleeping_balls_sends_one_ball_out_and_keeps_its_energy() {
    let mut s = scene::load(&scene::scenes_dir().join("newtons_cradle.ron")).unwrap();
    s.world.settings.sleeping = true;
    s.world.settings.mode = SolverMode::Iterative;
    let dt = s.timestep();
    let balls: Vec<usize> = (0..5).map(|i| s.body_index(&format!("ball{i}")).unwrap()).collect();
    let g = s.world.gravity.length();
    // Each ball's rest height: its hinge's anchor less the string's length.
    let records = s.world.joint_records();
    let rest: Vec<f32> = balls
        .iter()
        .map(|&b| {
            let j = records.iter().find(|j| j.a == b as u32 || j.b == b as u32).unwrap();
            let p = s.world.bodies()[b].pose.pos;
            let anchor = if j.a == WORLD { j.anchor_a } else { j.anchor_b };
            anchor.y - (p - anchor).length()
        })
        .collect();
    let swing = |w: &World| -> f32 {
        balls
            .iter()
            .zip(&rest)
            .map(|(&b, &y0)| {
                let body = &w.bodies()[b];
                body.kinetic_energy() + body.mass() * g * (body.pose.pos.y - y0)
            })
            .sum()
    };
    // Hold ball 0 at its release pose for 1 s.
    let held = s.world.bodies()[balls[0]].clone();
    for _ in 0..60 {
        s.world.step(dt);
        let h = s.world.handle(balls[0]);
        let b = s.world.body_mut(h).unwrap();
        b.pose = held.pose;
        b.velocity = held.velocity;
        b.angular_velocity = held.angular_velocity;
    }
    let asleep: Vec<bool> = balls[1..].iter().map(|&b| s.world.bodies()[b].asleep).collect();
    println!("cradle: balls 1–4 asleep at release: {asleep:?}");
    let e0 = swing(&s.world);
    let height = s.world.bodies()[balls[0]].pose.pos.y - rest[0];
    let closed = (2.0 * g * height).sqrt();
    let mut rows: Vec<Vec<f32>> = Vec::new(); // every ball's speed, per step
    for _ in 0..(3.0 / dt).round() as usize {
        s.world.step(dt);
        rows.push(balls.iter().map(|&b| s.world.bodies()[b].velocity.length()).collect());
    }
    // The impact speed: ball 0's fastest before any other ball reaches 0.1 m/s.
    let hit = rows.iter().position(|r| r[1..].iter().any(|&x| x > 0.1)).unwrap_or(rows.len());
    let v_in = rows[..hit].iter().map(|r| r[0]).fold(0.0f32, f32::max);
    let out = (hit..rows.len()).find(|&k| rows[k][4] > 0.5 * v_in).map(|k| (k + 1, rows[k].clone()));
    let e3 = swing(&s.world);
    let mut failures = Vec::new();
    if asleep.iter().any(|a| !a) {
        failures.push(format!("balls 1–4 were not all asleep after 1 s at rest: {asleep:?}"));
    }
    match out {
        None => failures.push(format!(
            "the last ball never left at half the impact speed {v_in:.4} m/s (√(2gh) = {closed:.4}); speeds from the step before the first impact (step {hit}): {:?}",
            &rows[hit.saturating_sub(1)..(hit + 8).min(rows.len())]
        )),
        Some((step, speeds)) => {
            let others = speeds[..4].iter().cloned().fold(0.0f32, f32::max);
            println!(
                "cradle (sleeping): impact speed {v_in:.4} m/s (√(2gh) = {closed:.4}); the last ball left in step {step}: speeds {speeds:?}: last {:.2} % (bound ≥ 95 %), others at most {:.2} % (bound 5 %)",
                speeds[4] / v_in * 100.0,
                others / v_in * 100.0
            );
            if speeds[4] < 0.95 * v_in || others > 0.05 * v_in {
                failures.push(format!(
                    "as the last ball leaves (step {step}): last {:.4} m/s = {:.2} % of {v_in:.4} (bound ≥ 95 %), others at most {:.4} m/s = {:.2} % (bound 5 %); speeds {speeds:?}",
                    speeds[4],
                    speeds[4] / v_in * 100.0,
                    others,
                    others / v_in * 100.0
                ));
            }
        }
    }
    println!(
        "cradle (sleeping): swing energy {e0:.4} J at release, {e3:.4} J after 3 s = {:.2} % (bound ≥ 95 %)",
        e3 / e0 * 100.0
    );
    if e3 < 0.95 * e0 {
        failures
            .push(format!("swing energy after 3 s {e3:.4} J = {:.2} % of {e0:.4} J (bound ≥ 95 %)", e3 / e0 * 100.0));
    }
    check(failures);
}

// ---------------------------------------------------------------------------------------
// 2. Bounces at the speed of impact
// ---------------------------------------------------------------------------------------

/// Bottom heights above the slab (y = 0) at the first `n` apexes after bounces, for a body
/// dropped from rest with its bottom `h0` above the slab. An apex is a step where the
/// vertical velocity turns from + to −; its height is the larger of the two sampled ones.
fn apexes(settings: Settings, shape: Shape, e: f32, h0: f32, n: usize) -> Vec<f32> {
    let mut w = world(settings);
    slab(&mut w, e);
    let bottom_offset = -shape.local_aabb().min.y;
    let d = BodyDesc::new("dropped", shape, Vec3::new(0.0, h0 + bottom_offset, 0.0)).with_material(0.0, e);
    let i = w.add_body(d).unwrap().index as usize;
    let bottom = |w: &World| {
        let b = &w.bodies()[i];
        b.shape.aabb(&b.pose).min.y
    };
    let (mut out, mut prev_vy, mut prev_y) = (Vec::new(), 0.0f32, bottom(&w));
    for _ in 0..(5.0 / DT) as usize {
        w.step(DT);
        let (vy, y) = (w.bodies()[i].velocity.y, bottom(&w));
        if prev_vy > 0.0 && vy <= 0.0 {
            out.push(prev_y.max(y));
            if out.len() == n {
                break;
            }
        }
        (prev_vy, prev_y) = (vy, y);
    }
    out
}

/// Checks apex k (1-based) against e^(2k)·h0 within 1 %, 1.5 %, 2 % of h0 for k = 1, 2, 3.
/// `except`: (method, e) cases whose method cannot meet the law by its own definition
/// (docs/methods.md gives each with its measured figure); they are printed, not checked.
fn bounce_law(what: &str, shape: impl Fn() -> Shape, restitutions: &[f32], except: &[(&str, f32)]) {
    let h0 = 1.0f32;
    // Restitution must apply to every one of the three bounces. The smallest approach speed
    // is bounce 3 at e = 0.2: it falls from e⁴·h0 = 1.6 mm, √(2·g·0.0016) = 0.177 m/s (and
    // it leaves at 0.035 m/s for an apex of e⁶·h0 = 64 µm). A threshold of 0.01 m/s lets all
    // three bounce, so k = 1, 2, 3 are tested for every e.
    let base = Settings { restitution_threshold: 0.01, ..no_sleep() };
    let mut failures = Vec::new();
    for (label, settings) in methods(base) {
        for &e in restitutions {
            let got = apexes(settings, shape(), e, h0, 3);
            let want: Vec<f32> = (1..=3).map(|k| e.powi(2 * k) * h0).collect();
            println!("{what}, {label}, e = {e}: apexes {got:?} m, e^(2k)·h0 = {want:?}");
            if except.contains(&(label, e)) {
                println!("  (the method's own limit: docs/methods.md)");
                continue;
            }
            for (k, bound) in [(1usize, 0.01f32), (2, 0.015), (3, 0.02)] {
                match got.get(k - 1) {
                    None => failures.push(format!("{what}, {label}, e = {e}: only {} apexes ({got:?}); apex {k} missing", got.len())),
                    Some(&a) if (a - want[k - 1]).abs() > bound * h0 => failures.push(format!(
                        "{what}, {label}, e = {e}: apex {k} at {a:.5} m, e^{}·h0 = {:.5} m, off by {:.5} m (bound {:.3} m)",
                        2 * k,
                        want[k - 1],
                        (a - want[k - 1]).abs(),
                        bound * h0
                    )),
                    _ => {}
                }
            }
        }
    }
    check(failures);
}

/// Every method meets the law for e ≥ 0.5; at e = 0.2 the one-pass methods bounce once per
/// step from where the step began, a gap of up to a step's fall (7 cm at 4.4 m/s), which
/// e²·h0 = 4 cm does not clear: their first apex is 1.6 cm (docs/methods.md).
#[test]
fn a_dropped_ball_rebounds_to_e_to_the_2k_times_its_drop_height_in_every_method() {
    let one_pass_at_small_e = [("naive", 0.2), ("cyclone", 0.2), ("averaged", 0.2)];
    bounce_law("ball r = 0.1", || Shape::Sphere { radius: 0.1 }, &[0.2, 0.5, 0.8, 1.0], &one_pass_at_small_e);
}

#[test]
/// The naive method resolves the four corners one after another (the box leaves spinning)
/// and the averaged method caps its rescale at the number of points (a flat box's corner
/// masses are a small part of its mass): their flat boxes under-bounce by their own
/// definitions (docs/methods.md).
fn a_flat_box_landing_on_four_points_rebounds_to_e_to_the_2k_times_its_drop_height_in_every_method() {
    let by_definition = [("naive", 0.5), ("naive", 1.0), ("averaged", 0.5), ("averaged", 1.0)];
    bounce_law(
        "flat box 0.4 × 0.2 × 0.4",
        || Shape::cuboid(Vec3::new(0.2, 0.1, 0.2)).unwrap(),
        &[0.5, 1.0],
        &by_definition,
    );
}

/// scenes/restitution_row.ron: balls of radius 0.3 dropped with their centres at 3 m onto a
/// ground whose top is y = 0. The first apex of the centre is e²·(3.0 − 0.3) + 0.3; every
/// ball lands at √(2·g·2.7) = 7.3 m/s, above the scene's threshold (the default, 1 m/s).
#[test]
fn restitution_row_balls_rise_to_e_squared_times_their_drop_height() {
    let mut s = scene::load(&scene::scenes_dir().join("restitution_row.ron")).unwrap();
    let dt = s.timestep();
    let (r, y0) = (0.3f32, 3.0f32);
    let drop = y0 - r;
    let impact = (2.0 * s.world.gravity.length() * drop).sqrt();
    assert!(impact > s.world.settings.restitution_threshold);
    let names = ["e=0", "e=0.25", "e=0.5", "e=0.75", "e=1"];
    let idx: Vec<usize> = names.iter().map(|n| s.body_index(n).unwrap()).collect();
    for &i in &idx {
        let b = &s.world.bodies()[i];
        assert!(
            (b.pose.pos.y - y0).abs() < 1e-6 && b.shape.bounding_radius() == r,
            "{} moved in the scene file",
            b.name
        );
    }
    // Per ball: impacted yet, previous vy, highest centre since the impact, done.
    let mut state = vec![(false, 0.0f32, 0.0f32, false); idx.len()];
    for _ in 0..(4.0 / dt) as usize {
        s.world.step(dt);
        for (k, &i) in idx.iter().enumerate() {
            let b = &s.world.bodies()[i];
            let (vy, y) = (b.velocity.y, b.pose.pos.y);
            let st = &mut state[k];
            if st.3 {
                continue;
            }
            if !st.0 && vy > st.1 {
                st.0 = true; // gravity alone only lowers vy: contact
                st.2 = y;
            } else if st.0 {
                st.2 = st.2.max(y);
                if st.1 > 0.0 && vy <= 0.0 {
                    st.3 = true;
                }
            }
            st.1 = vy;
        }
    }
    let mut failures = Vec::new();
    for (k, &i) in idx.iter().enumerate() {
        let e = s.world.bodies()[i].restitution;
        let want = e * e * drop + r;
        let got = state[k].2;
        println!(
            "restitution row, {}: first apex {got:.4} m, e²·(3.0 − 0.3) + 0.3 = {want:.4} m, off by {:.4} m (bound {:.4} m = 1 % of {drop} m)",
            names[k],
            (got - want).abs(),
            0.01 * drop
        );
        if !state[k].0 {
            failures.push(format!("{}: never landed", names[k]));
        } else if (got - want).abs() > 0.01 * drop {
            failures.push(format!(
                "{}: first apex {got:.4} m vs e²·(3.0 − 0.3) + 0.3 = {want:.4} m: off by {:.4} m (bound {:.4} m)",
                names[k],
                (got - want).abs(),
                0.01 * drop
            ));
        }
    }
    check(failures);
}

// ---------------------------------------------------------------------------------------
// 3. Simultaneous elastic impacts
// ---------------------------------------------------------------------------------------

/// xorshift64* (Vigna): a small deterministic generator for the gas.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in [lo, hi).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            if v.length_squared() > 0.01 && v.length_squared() <= 1.0 {
                return v.normalize();
            }
        }
    }
}

/// 20 frictionless e = 1 spheres in a closed 2 m box of six static walls, no gravity.
fn gas(settings: Settings, seed: u64) -> World {
    let mut w = World::new(Vec3::ZERO, settings);
    let (half, t) = (1.0f32, 0.25f32);
    for axis in 0..3 {
        for side in [-1.0f32, 1.0] {
            let mut he = Vec3::splat(half + 2.0 * t);
            he[axis] = t;
            let mut p = Vec3::ZERO;
            p[axis] = side * (half + t);
            let d = BodyDesc::new(format!("wall{axis}{side}"), Shape::cuboid(he).unwrap(), p)
                .fixed()
                .with_material(0.0, 1.0);
            w.add_body(d).unwrap();
        }
    }
    let mut rng = Rng::new(seed);
    let mut placed: Vec<(Vec3, f32)> = Vec::new();
    while placed.len() < 20 {
        let r = rng.range(0.1, 0.15);
        let lim = half - r - 0.02;
        let p = Vec3::new(rng.range(-lim, lim), rng.range(-lim, lim), rng.range(-lim, lim));
        if placed.iter().any(|&(q, rq)| (p - q).length() < r + rq + 0.03) {
            continue;
        }
        let v = rng.unit() * rng.range(2.0, 5.0);
        let d = BodyDesc::new(format!("gas{}", placed.len()), Shape::Sphere { radius: r }, p)
            .with_velocity(v)
            .with_material(0.0, 1.0);
        w.add_body(d).unwrap();
        placed.push((p, r));
    }
    w
}

/// Before impacts that share a body were redone pair by pair (and struck points bounced in
/// the one-pass methods), the worst seeds lost 11–13.5 % (iterative), 1 % (naive), 2 %
/// (Cyclone) and 0.25 % (averaged) over the 20 s.
#[test]
fn an_elastic_gas_in_a_closed_box_keeps_its_kinetic_energy_at_every_step_in_every_method() {
    // Threshold 0: every impact bounces, however slow.
    let base = Settings { restitution_threshold: 0.0, ..no_sleep() };
    let start = std::time::Instant::now();
    let mut failures = Vec::new();
    for (label, settings) in methods(base) {
        let mut worst = (0.0f32, 0u64, 0usize);
        for seed in 1..=10u64 {
            let mut w = gas(settings, seed);
            let k0 = kinetic(&w);
            for step in 1..=(20.0 / DT).round() as usize {
                w.step(DT);
                let dev = kinetic(&w) / k0 - 1.0;
                if dev.abs() > worst.0.abs() {
                    worst = (dev, seed, step);
                }
            }
        }
        println!(
            "elastic gas, {label}: worst kinetic energy {:+.3} % of the start (seed {}, step {}; bound ±0.5 %)",
            worst.0 * 100.0,
            worst.1,
            worst.2
        );
        if worst.0.abs() > 0.005 {
            failures.push(format!(
                "{label}: kinetic energy {:+.3} % of the start at step {} of seed {} (bound ±0.5 % at every step)",
                worst.0 * 100.0,
                worst.2,
                worst.1
            ));
        }
    }
    println!("elastic gas: 10 seeds × 5 methods × 1200 steps in {:.1} s", start.elapsed().as_secs_f32());
    check(failures);
}

/// A ball (r = 0.1 m, 1 kg, a solid sphere: I = ⅖·m·r²) strikes a rough floor (μ = 0.3,
/// e = 0.5) at u = 3 m/s down and 8 m/s along, without gravity. It slides throughout (its
/// contact point still slips forward at the end), so Coulomb's law fixes the friction
/// impulse at μ times the normal one, m·(1 + e)·u: it leaves at e·u up, 8 − μ(1 + e)·u
/// along, and spinning at −μ(1 + e)·u·m·r / I about z, in every method with friction (the
/// iterative one solves it in its restitution passes too, the rows of both tangents). The
/// naive method has no friction by its definition: it leaves at e·u up and 8 m/s along,
/// without spin.
#[test]
fn an_oblique_bounce_sliding_throughout_takes_mu_times_the_normal_impulse_along_the_floor_in_every_method() {
    let (r, mu, e, u, along) = (0.1f32, 0.3f32, 0.5f32, 3.0f32, 8.0f32);
    let jn = (1.0 + e) * u;
    let mut failures = Vec::new();
    for (label, settings) in methods(no_sleep()) {
        let mu_here = if label == "naive" { 0.0 } else { mu };
        let want = Vec3::new(along - mu_here * jn, e * u, 0.0);
        let want_spin = Vec3::Z * (-mu_here * jn * r / (0.4 * r * r));
        let mut w = World::new(Vec3::ZERO, settings);
        rough_slab(&mut w, mu, e);
        let i = rough_ball(&mut w, "ball", r, Vec3::new(0.0, r + 0.01, 0.0), Vec3::new(along, -u, 0.0), mu, e);
        for _ in 0..20 {
            w.step(DT);
        }
        let b = &w.bodies()[i];
        let (v, spin) = (b.velocity, b.angular_velocity);
        let slip = v.x + spin.z * r;
        println!("oblique bounce, {label}: v {v:?}, ω {spin:?}, slip {slip:.3} m/s (want v {want:?}, ω {want_spin:?})");
        let (off, spin_off, spin_bound) =
            ((v - want).length(), (spin - want_spin).length(), 0.02 * want_spin.length().max(1.0));
        if off > 0.02 * u || spin_off > spin_bound || slip <= 0.0 {
            failures.push(format!(
                "{label}: v {v:?} (want {want:?} within {:.3} m/s, off {off:.4}), ω {spin:?} (want {want_spin:?} within {spin_bound:.3} rad/s, off {spin_off:.4}), slip {slip:.3}",
                0.02 * u
            ));
        }
    }
    check(failures);
}

/// Three equal balls in a row on a frictionless floor, 5 cm apart (more than a ball moves in
/// a step at 2 m/s, 3.3 cm, so each collision is its own step): the first slides in at 2 m/s,
/// the last leaves at 2 m/s and the first two stop.
#[test]
fn a_ball_sliding_into_a_row_of_two_passes_all_its_momentum_to_the_last_in_every_method() {
    let (r, gap, v) = (0.1f32, 0.05f32, 2.0f32);
    let mut failures = Vec::new();
    for (label, settings) in methods(no_sleep()) {
        let mut w = world(settings);
        slab(&mut w, 0.0);
        let ids: Vec<usize> = (0..3)
            .map(|i| {
                let p = Vec3::new(i as f32 * (2.0 * r + gap), r, 0.0);
                ball(&mut w, &format!("b{i}"), r, p, if i == 0 { Vec3::new(v, 0.0, 0.0) } else { Vec3::ZERO }, 1.0)
            })
            .collect();
        for _ in 0..60 {
            w.step(DT);
        }
        let vx: Vec<f32> = ids.iter().map(|&i| w.bodies()[i].velocity.x).collect();
        println!("three-ball line, {label}: vx after 1 s {vx:?} (want [0, 0, {v}] within {:.2} m/s)", 0.01 * v);
        if (vx[2] - v).abs() > 0.01 * v || vx[0].abs() > 0.01 * v || vx[1].abs() > 0.01 * v {
            failures.push(format!(
                "{label}: vx after 1 s {vx:?}: last {:.4} m/s (bound {v} ± {:.2}), first two {:+.4}, {:+.4} m/s (bound |v| ≤ {:.2})",
                vx[2],
                0.01 * v,
                vx[0],
                vx[1],
                0.01 * v
            ));
        }
    }
    check(failures);
}

/// A world without gravity and a static frictionless wall (e = 1) whose face is the plane
/// x = 0, the wall on the +x side.
fn walled(settings: Settings) -> World {
    let mut w = World::new(Vec3::ZERO, settings);
    let wall = BodyDesc::new("wall", Shape::cuboid(Vec3::new(0.5, 2.0, 2.0)).unwrap(), Vec3::new(0.5, 0.0, 0.0))
        .fixed()
        .with_material(0.0, 1.0);
    w.add_body(wall).unwrap();
    w
}

/// No gravity: ball A (1 m/s) is 1 cm from a static wall and ball B (3 m/s) 1 cm behind it,
/// so both contacts are speculative in the same step. Exactly: B hits A, A hits the wall,
/// A hits B, A hits the wall again — A leaves at 1 m/s, B at 3 m/s, ½(1 + 9) = 5 J kept.
/// (Cyclone lost 27.5 % here while it held each point to the target fixed before its pass;
/// impacts that share a body are now redone pair by pair, `solver/impacts.rs`.)
#[test]
fn a_ball_hitting_a_wall_and_its_chaser_in_one_step_keeps_the_kinetic_energy_in_every_method() {
    let r = 0.1f32;
    let mut failures = Vec::new();
    for (label, settings) in methods(Settings { restitution_threshold: 0.0, ..no_sleep() }) {
        let mut w = walled(settings);
        let xa = -r - 0.01;
        let a = ball(&mut w, "a", r, Vec3::new(xa, 0.0, 0.0), Vec3::new(1.0, 0.0, 0.0), 1.0);
        let b = ball(&mut w, "b", r, Vec3::new(xa - 2.0 * r - 0.01, 0.0, 0.0), Vec3::new(3.0, 0.0, 0.0), 1.0);
        let k0 = kinetic(&w);
        w.step(DT);
        let k1 = kinetic(&w);
        let mut worst = k1 / k0 - 1.0;
        for _ in 0..30 {
            w.step(DT);
            let dev = kinetic(&w) / k0 - 1.0;
            if dev.abs() > worst.abs() {
                worst = dev;
            }
        }
        let (va, vb) = (w.bodies()[a].velocity.x, w.bodies()[b].velocity.x);
        println!(
            "wall and chaser, {label}: kinetic energy {k0:.4} J → {k1:.4} J in the step ({:+.3} %), worst over 0.5 s {:+.3} % (bound ±0.5 %); then vA = {va:+.3}, vB = {vb:+.3} m/s (exact −1, −3)",
            (k1 / k0 - 1.0) * 100.0,
            worst * 100.0
        );
        if worst.abs() > 0.005 {
            failures.push(format!(
                "{label}: kinetic energy {k0:.4} J → {k1:.4} J in the step of the impacts, worst {:+.3} % over 0.5 s (bound ±0.5 %); vA = {va:+.3}, vB = {vb:+.3} m/s",
                worst * 100.0
            ));
        }
        if va >= 0.0 || vb >= 0.0 {
            failures.push(format!("{label}: both balls should leave the wall: vA = {va:+.3}, vB = {vb:+.3} m/s"));
        }
    }
    check(failures);
}

/// No gravity: ball B rests against a static wall, ball A (equal mass, e = 1) comes at it at
/// 3 m/s from 1 cm away, so within one step A strikes B into the wall, a contact B was not
/// approaching when the step began. Exactly (one impact after another): A stops, B takes
/// 3 m/s into the wall and comes back at 3 m/s, B stops, A leaves at −3 m/s. Momentum is
/// not kept (the wall pushes), the kinetic energy is. Before impacts that share a body were
/// redone pair by pair, the wall's stopping impulse was never bounced: in the iterative
/// method both balls left together at −1.5 m/s (half the energy lost), Cyclone sent A back
/// at −2.63 m/s (−23 %).
#[test]
fn a_ball_struck_into_a_ball_resting_on_a_wall_comes_back_at_its_own_speed_in_every_method() {
    let (r, v) = (0.1f32, 3.0f32);
    let mut failures = Vec::new();
    for (label, settings) in methods(Settings { restitution_threshold: 0.0, ..no_sleep() }) {
        let mut w = walled(settings);
        let b = ball(&mut w, "b", r, Vec3::new(-r, 0.0, 0.0), Vec3::ZERO, 1.0);
        let a = ball(&mut w, "a", r, Vec3::new(-3.0 * r - 0.01, 0.0, 0.0), Vec3::new(v, 0.0, 0.0), 1.0);
        let k0 = kinetic(&w);
        for _ in 0..10 {
            w.step(DT);
        }
        let (va, vb) = (w.bodies()[a].velocity, w.bodies()[b].velocity);
        let k = kinetic(&w);
        println!(
            "struck into a wall, {label}: after 10 steps vA = {:+.4}, vB = {:+.4} m/s (exact −{v}, 0); kinetic energy {:+.3} %",
            va.x,
            vb.x,
            (k / k0 - 1.0) * 100.0
        );
        if (va.x + v).abs() > 0.01 * v || vb.length() > 0.01 * v || va.y.abs() + va.z.abs() > 1e-4 {
            failures.push(format!("{label}: vA = {:+.4}, vB = {:+.4} m/s (exact −{v} and 0, within 1 %)", va.x, vb.x));
        }
    }
    check(failures);
}
