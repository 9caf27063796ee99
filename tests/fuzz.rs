//! Physics fuzzer: random scenes within the documented valid ranges (docs/scenes.md), run
//! for 600 steps in every resolution method (`SolverMode::ALL`). Each scene must stay finite (no body frozen by
//! the containment check, every pose and velocity finite), must not panic, must hold only
//! valid hulls (`Hull::validate`), and its total energy must never rise above the start
//! plus 1 % of the energy scale (the kinetic energy at the start plus the work gravity can
//! do down to the ground, at least m·g·r per body; the potential energy is part of the
//! total, so gravity's work itself does not count as a gain).
//!
//! Scenes are built as scene descriptions and go through the loader's validation, so
//! "within the valid ranges" means exactly what the loader accepts; a generated scene the
//! loader rejects (a mass ratio over the limit after the densities are clamped, say) is
//! drawn again from the next seed and counted.
//!
//! Scene kinds (by seed): piles of mixed shapes dropped or thrown (speeds up to 50 m/s,
//! spins up to 50 rad/s), stacks of boxes and hulls whose masses differ up to the limit,
//! and zoos of near-degenerate hulls — slivers 1 mm thick, needles, clouds of nearly
//! duplicate points, and 5,000-point clouds.
//!
//! `cargo test --test fuzz` runs the regression seeds and [`QUICK`] scenes (a few seconds
//! in the test profile); the long run is
//! `cargo test --test fuzz long_fuzz_run -- --ignored --nocapture` ([`LONG`] scenes from
//! seed 1,000,000; `FUZZ_FROM` and `FUZZ_COUNT` choose other seeds).

use contactlab::physics::{limits, SolverMode, World};
use contactlab::scene::format::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Scenes in the ordinary test run.
const QUICK: u64 = 48;
/// Scenes in the ignored long run.
const LONG: u64 = 2000;
/// Steps per scene and method.
const STEPS: u32 = 600;
/// Seeds that once failed and were fixed (kept as regression cases; see docs/physics.md):
/// 15 (a 1 mm needle spinning at 24 rad/s reached 4·10⁵ rad/s in one free step: the
/// midpoint rule; fixed by the implicit gyroscopic update for needle-like bodies), 11, 20,
/// 45 (the same on needles in piles and zoos, energy up to 10²¹ J), 14 (naive, a slower
/// gain through the same spin); 8, 9, 30, 39, 43 (iterative: small fast bodies in piles
/// gaining energy — impulses in the inertia of the step's start while the body turned with
/// another, midpoint lever arms across wide speculative gaps, turns of more than a quarter
/// of π per substep), 48, 66 (the same, up to 10⁵ J), 91 (naive: resting bouncy boxes
/// bouncing off gravity's speed), 1263 (naive: a NaN edge normal from an edge of length 0),
/// 93, 320 (non-finite in an earlier build; not reproduced on 87a6395); 1000829, 1001843
/// (an edge contact 24.8 m deep against the ground from the rounding-made axis of a hull of
/// nearly duplicate points, lifted by the naive projection: up to 8,683 J in one step), 42,
/// 1000091 (naive: rebounds of the speed after the step's gravity, not slowed by it),
/// 1000688 (the same in naive; iterative: Newton restitution after friction stopped a
/// landing capsule's spin, +158 J in one bounce; Cyclone and Averaged: the same, and their
/// rebounds not paying the step's gravity). Cyclone (the fourth round): 17 (dynamic
/// friction against the slip doing +13 J of work at a spinning corner), 39 (the
/// projection's turn of a sliver under a spin held in world axes), 42 (the unpaid
/// gravity of a rebound), 573, 791, 1172, 1881, 1973, 1000350, 1001182, 1001406, 1001854,
/// 1001911, 2000091, 2000495, 2000880, 2000891, 2001636 (projection turns of radians on
/// needles and slivers, up to +425 J in one projection), 708 (Newton's rule on simultaneous
/// contacts in one worst-first pass: a box bouncing off a box the ground had stopped left
/// faster than it came, +255 J; fixed by the two-phase velocity pass); 1000781, 2000781
/// (iterative with continuous collision: a tumbling 1 mm needle with a tip already in the
/// ground put back by the probe every step and spun about its long axis to 10⁵–10⁶ rad/s,
/// +115 J and +13,000 J; the continuous step now leaves a body that starts deeper than the
/// slop to the solver); 1000266 (naive: the upper of two boxes tipping off the lower one,
/// held about 7 cm into it by the one pass and lifted back by the projection every step
/// while it kept falling, 1.05 % of the scale above the start at step 113; the naive
/// projection now pays for the lift from the body's kinetic energy); 1000066, 1000111
/// (iterative, since the bounce at the speed of impact: the braking the last relax pass gave
/// a bouncy pair still apart was given back, +9.5 % and +2.6 % of the scale at steps 8 and
/// 5; a point that took impulse in an earlier substep has landed and keeps it); 1000815,
/// 1001313 (iterative: that braking was taken back without the friction it had allowed, a
/// grip with no push behind it, +3 % of the scale at steps 30 and 5); 2000429, 2000496,
/// 2001476 (iterative, over the bound before the same day's changes); 1000634 (iterative: a
/// 1 mm sliver on the ground left each step spinning as the last relax pass left it, over
/// the contact turn limit, and the next step's passes started from there: 190 → 10⁵ rad/s
/// about its long axis in three steps, +400 J; found by the long run after the broad phase's
/// path test changed its trajectory); 2001921 (Cyclone: a 5 g box between a 3 kg box and
/// the ground had its two one-point contacts redone pair by pair while the ground's stayed
/// and went into the ground at 9 m/s; clusters now leave out bodies another contact pushed).
const REGRESSIONS: &[u64] = &[
    8, 9, 11, 14, 15, 17, 20, 30, 39, 42, 43, 45, 48, 66, 91, 93, 320, 573, 791, 1172, 1263, 1881, 1973, 1000091,
    1000350, 1000688, 1000829, 1001182, 1001406, 1001843, 1001854, 1001911, 2000091, 2000495, 2000880, 2000891,
    2001636, 708, 1000781, 2000781, 1000266, 1000066, 1000111, 1000815, 1001313, 1000634, 2001921, 2000429, 2000496,
    2001476,
];

/// Seeds whose total energy still rises above the bound in one method (open, listed in
/// docs/physics.md): they are run and must stay finite, panic-free and valid; their energy
/// is reported, not asserted. None at present.
const OPEN_ENERGY: &[(u64, SolverMode)] = &[];

/// SplitMix64 (the generator the hull builders use), with helpers.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in [0, 1).
    fn f(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.f()
    }
    /// Log-uniform in [lo, hi].
    fn log(&mut self, lo: f32, hi: f32) -> f32 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.f()).exp()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A uniformly random direction times a length in [0, max].
    fn vector(&mut self, max: f32) -> V3 {
        loop {
            let v = (self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = (v.0 * v.0 + v.1 * v.1 + v.2 * v.2).sqrt();
            if l > 0.1 && l <= 1.0 {
                let s = max * self.f() / l;
                return (v.0 * s, v.1 * s, v.2 * s);
            }
        }
    }
    fn quat(&mut self) -> RotationDesc {
        let a = self.vector(1.0);
        RotationDesc::AxisAngleDeg { axis: (a.0 + 1e-3, a.1, a.2), angle: self.range(0.0, 360.0) }
    }
}

/// A random shape and the radius of a ball about its origin holding it.
fn shape(rng: &mut Rng, kind: u64, size: f32) -> (ShapeDesc, f32) {
    let half = |r: &mut Rng| r.range(0.3, 1.0) * size;
    match kind {
        0 => {
            let h = (half(rng), half(rng), half(rng));
            (ShapeDesc::Box { half_extents: h }, (h.0 * h.0 + h.1 * h.1 + h.2 * h.2).sqrt())
        }
        1 => {
            let r = half(rng);
            (ShapeDesc::Sphere { radius: r }, r)
        }
        2 => {
            let (r, hh) = (half(rng), half(rng));
            (ShapeDesc::Capsule { radius: r, half_height: hh }, r + hh)
        }
        3 => {
            let n = 4 + rng.below(60) as usize;
            cloud_hull(rng, n, size)
        }
        _ => degenerate_hull(rng, kind - 4, size),
    }
}

fn hull_of(points: Vec<V3>) -> (ShapeDesc, f32) {
    let r = points.iter().map(|p| (p.0 * p.0 + p.1 * p.1 + p.2 * p.2).sqrt()).fold(0.0, f32::max);
    (ShapeDesc::Hull { points }, r)
}

/// `n` points in a ball of radius `size`.
fn cloud_hull(rng: &mut Rng, n: usize, size: f32) -> (ShapeDesc, f32) {
    hull_of((0..n).map(|_| rng.vector(size)).collect())
}

/// Near-degenerate hulls: 0 a sliver 1 mm thick (points on two planes), 1 a needle 1 mm
/// across, 2 a cloud of nearly duplicate points (copies moved by 10⁻⁶ of the size),
/// 3 a 5,000-point cloud.
fn degenerate_hull(rng: &mut Rng, which: u64, size: f32) -> (ShapeDesc, f32) {
    const MM: f32 = 1e-3;
    match which {
        0 => {
            let n = 4 + rng.below(40) as usize;
            hull_of(
                (0..n)
                    .map(|i| {
                        let y = if i % 2 == 0 { 0.5 * MM } else { -0.5 * MM };
                        (rng.range(-size, size), y, rng.range(-size, size))
                    })
                    .collect(),
            )
        }
        1 => {
            let n = 6 + rng.below(30) as usize;
            hull_of(
                (0..n)
                    .map(|i| {
                        // Corners of a 1 mm square cross-section, spread along x.
                        let (y, z) = [(0.5, 0.5), (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5)][i % 4];
                        (rng.range(-size, size).max(-size), y * MM, z * MM)
                    })
                    .chain([(-size, 0.5 * MM, 0.5 * MM), (size, -0.5 * MM, -0.5 * MM)])
                    .collect(),
            )
        }
        2 => {
            let base: Vec<V3> = (0..4 + rng.below(20)).map(|_| rng.vector(size)).collect();
            let eps = 1e-6 * size;
            let mut pts = base.clone();
            for p in &base {
                for _ in 0..3 {
                    let d = rng.vector(eps);
                    pts.push((p.0 + d.0, p.1 + d.1, p.2 + d.2));
                }
            }
            hull_of(pts)
        }
        _ => cloud_hull(rng, 5000, size),
    }
}

fn body(name: String, shape: ShapeDesc, position: V3, density: f32, rng: &mut Rng) -> BodyDescFile {
    BodyDescFile {
        name,
        shape,
        kind: KindDesc::Dynamic,
        position,
        rotation: rng.quat(),
        velocity: (0.0, 0.0, 0.0),
        angular_velocity: (0.0, 0.0, 0.0),
        density,
        mass: None,
        friction: rng.range(0.0, 1.0),
        restitution: if rng.below(3) == 0 { rng.range(0.0, 1.0) } else { 0.0 },
        rolling_resistance: 0.0,
        color: None,
        bullet: false,
        path: None,
    }
}

/// Density that gives mass `m` to a shape of volume `v`, inside the density range.
fn density_for(m: f32, v: f32) -> f32 {
    limits::DENSITY.clamp(m / v)
}

fn volume(s: &ShapeDesc) -> f32 {
    let d = SceneDesc {
        name: "v".into(),
        description: String::new(),
        gravity: (0.0, 0.0, 0.0),
        timestep: 1.0 / 60.0,
        solver: Default::default(),
        camera: Default::default(),
        view: Default::default(),
        bodies: vec![BodyDescFile {
            name: "v".into(),
            shape: s.clone(),
            kind: KindDesc::Static,
            position: (0.0, 0.0, 0.0),
            rotation: RotationDesc::default(),
            velocity: (0.0, 0.0, 0.0),
            angular_velocity: (0.0, 0.0, 0.0),
            density: 1.0,
            mass: None,
            friction: 0.5,
            restitution: 0.0,
            rolling_resistance: 0.0,
            color: None,
            bullet: false,
            path: None,
        }],
        generators: vec![],
        joints: Vec::new(),
        characters: Vec::new(),
        materials: vec![],
    };
    match contactlab::scene::build(&d, "fuzz") {
        Ok(s) => s.world.bodies()[0].shape.volume(),
        Err(_) => f32::NAN,
    }
}

/// One random scene description from `seed` (kind: pile, stack or hull zoo).
fn scene(seed: u64) -> SceneDesc {
    let mut rng = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0x5EED);
    let ground = BodyDescFile {
        name: "ground".into(),
        shape: ShapeDesc::Box { half_extents: (100.0, 0.5, 100.0) },
        kind: KindDesc::Static,
        position: (0.0, -0.5, 0.0),
        rotation: RotationDesc::default(),
        velocity: (0.0, 0.0, 0.0),
        angular_velocity: (0.0, 0.0, 0.0),
        density: 1000.0,
        mass: None,
        friction: 0.6,
        restitution: 0.0,
        rolling_resistance: 0.0,
        color: None,
        bullet: false,
        path: None,
    };
    let mut bodies = vec![ground];
    // Target masses within a factor of 1000 (the limit) of a reference mass.
    let m_ref = rng.log(1e-3, 100.0);
    let target = |r: &mut Rng| m_ref * r.log(1.0, limits::MAX_MASS_RATIO * 0.999);
    let kind = seed % 3;
    match kind {
        // Pile: mixed shapes in a loose cluster, dropped or thrown.
        0 => {
            let n = 2 + rng.below(10);
            let size = rng.log(0.005, 1.0);
            let (speed, spin) = if rng.below(2) == 0 { (50.0, 50.0) } else { (0.0, 0.0) };
            let mut placed: Vec<(V3, f32)> = Vec::new();
            for i in 0..n {
                let k = rng.below(7);
                let (s, r) = shape(&mut rng, k, size);
                let pos = place(&mut rng, &mut placed, r, 4.0 * size);
                let d = density_for(target(&mut rng), volume(&s));
                let mut b = body(format!("b{i}"), s, pos, d, &mut rng);
                b.velocity = rng.vector(speed);
                b.angular_velocity = rng.vector(spin);
                bodies.push(b);
            }
        }
        // Stack: boxes or hulls resting on each other, the heaviest up to the mass limit.
        1 => {
            let n = 2 + rng.below(7);
            let size = rng.log(0.01, 1.0);
            let mut y = 0.0;
            for i in 0..n {
                let h = (rng.range(0.5, 1.0) * size, rng.range(0.3, 1.0) * size, rng.range(0.5, 1.0) * size);
                let s = if rng.below(3) == 0 {
                    let (a, b, c) = h;
                    let pts = vec![
                        (-a, -b, -c),
                        (a, -b, -c),
                        (a, -b, c),
                        (-a, -b, c),
                        (-a * 0.7, b, -c * 0.7),
                        (a * 0.7, b, -c * 0.7),
                        (a * 0.7, b, c * 0.7),
                        (-a * 0.7, b, c * 0.7),
                    ];
                    ShapeDesc::Hull { points: pts }
                } else {
                    ShapeDesc::Box { half_extents: h }
                };
                // Alternate light and heavy (up to the limit) to load the solver.
                let m = if i % 2 == 0 { m_ref } else { m_ref * rng.range(1.0, limits::MAX_MASS_RATIO * 0.999) };
                let d = density_for(m, volume(&s));
                let mut b = body(format!("s{i}"), s, (0.0, y + h.1, 0.0), d, &mut rng);
                b.rotation = RotationDesc::default();
                bodies.push(b);
                y += 2.0 * h.1;
            }
        }
        // Zoo: near-degenerate hulls among ordinary shapes.
        _ => {
            let n = 2 + rng.below(6);
            let size = rng.log(0.02, 1.0);
            let mut placed: Vec<(V3, f32)> = Vec::new();
            for i in 0..n {
                // Mostly degenerate kinds; a 5,000-point cloud in about one zoo in four.
                let k = match rng.below(16) {
                    0 => 7,
                    x => [0, 1, 2, 3, 4, 5, 6][(x % 7) as usize],
                };
                let (s, r) = shape(&mut rng, k, size);
                let pos = place(&mut rng, &mut placed, r, 3.0 * size);
                let d = density_for(target(&mut rng), volume(&s));
                let mut b = body(format!("z{i}"), s, pos, d, &mut rng);
                b.velocity = rng.vector(5.0);
                b.angular_velocity = rng.vector(10.0);
                bodies.push(b);
            }
        }
    }
    SceneDesc {
        name: format!("fuzz {seed}"),
        description: String::new(),
        gravity: (0.0, -9.81, 0.0),
        timestep: 1.0 / 60.0,
        solver: Default::default(),
        camera: Default::default(),
        view: Default::default(),
        bodies,
        generators: vec![],
        joints: Vec::new(),
        characters: Vec::new(),
        materials: vec![],
    }
}

/// A position for a body of bounding radius `r` above the ground (y = 0) whose bounding
/// ball overlaps none of the `placed` ones, within `spread` sideways and twice that up.
fn place(rng: &mut Rng, placed: &mut Vec<(V3, f32)>, r: f32, spread: f32) -> V3 {
    let mut grow = 1.0;
    loop {
        let s = spread * grow;
        let p = (rng.range(-s, s), r + rng.range(0.0, 2.0 * s), rng.range(-s, s));
        let clear = placed.iter().all(|(q, rq)| {
            let d = ((p.0 - q.0).powi(2) + (p.1 - q.1).powi(2) + (p.2 - q.2).powi(2)).sqrt();
            d > r + rq + 1e-3
        });
        if clear {
            placed.push((p, r));
            return p;
        }
        grow *= 1.05;
    }
}

/// The energy scale of a world: kinetic energy plus the work gravity can do down to the
/// ground (y = 0), at least m·g·r per body.
fn energy_scale(w: &World) -> f32 {
    let g = w.gravity.length();
    w.bodies()
        .iter()
        .filter(|b| b.is_dynamic())
        .map(|b| b.kinetic_energy() + b.mass() * g * b.pose.pos.y.max(b.shape.bounding_radius()))
        .sum()
}

/// The word of an energy failure.
const ENERGY: &str = "energy";

/// Runs `world` for [`STEPS`] steps; the first broken promise, if any.
fn run(mut w: World) -> Result<(), String> {
    for b in w.bodies() {
        if let Some(h) = b.shape.hull() {
            h.validate(20.0 * h.tolerance()).map_err(|e| format!("body '{}': invalid hull: {e}", b.name))?;
        }
    }
    let dt = 1.0 / 60.0;
    // The integrator's own energy (`World::integrator_energy`): the plain energy of a body
    // bouncing elastically jumps by m·|g|·h·|v| at the floor though its apex keeps.
    let e0 = w.integrator_energy(dt);
    let allowed = e0 + 0.01 * energy_scale(&w);
    for n in 1..=STEPS {
        w.step(dt);
        if let Some(e) = w.non_finite().first() {
            return Err(format!("step {n}: {e}"));
        }
        if let Some(b) = w.bodies().iter().find(|b| {
            !(b.pose.pos.is_finite()
                && b.pose.rot.is_finite()
                && b.velocity.is_finite()
                && b.angular_velocity.is_finite())
        }) {
            return Err(format!("step {n}: body '{}' is not finite", b.name));
        }
        let e = w.integrator_energy(dt);
        if std::env::var_os("FUZZ_VERBOSE").is_some() {
            eprintln!("step {n} E {e} ({:?})", w.settings.mode);
            for b in w.bodies().iter().filter(|b| b.is_dynamic()) {
                let pe = -b.mass() * w.gravity.dot(b.pose.pos);
                eprintln!(
                    "  {} m {} KE {} PE {} v {} w {} asleep {}",
                    b.name,
                    b.mass(),
                    b.kinetic_energy(),
                    pe,
                    b.velocity,
                    b.angular_velocity,
                    b.asleep
                );
            }
            for c in w.contacts().iter().filter(|c| !c.manifold.points.is_empty()) {
                let d: Vec<(f32, f32)> =
                    c.manifold.points.iter().zip(&c.impulses).map(|(p, i)| (p.depth, i.normal)).collect();
                eprintln!("  contact {}-{} n {} {:?}", c.a, c.b, c.manifold.normal, d);
            }
        }
        if e > allowed {
            return Err(format!("step {n}: {ENERGY} {e} J above the start {e0} J + 1 % of the scale ({allowed} J)"));
        }
    }
    Ok(())
}

/// Outcome of fuzzing some seeds.
#[derive(Default)]
struct Report {
    scenes: u64,
    rejected: u64,
    steps: u64,
    bodies: u64,
    failures: Vec<(u64, String)>,
    /// Known energy failures ([`OPEN_ENERGY`]).
    open: Vec<(u64, String)>,
}

/// Builds the scene of `seed` (redrawing rejected ones from derived seeds) and runs it in
/// every method.
fn fuzz_seed(seed: u64, report: &mut Report) {
    let mut desc = None;
    for attempt in 0..50u64 {
        let d = scene(seed.wrapping_add(attempt << 32));
        match contactlab::scene::build(&d, "fuzz") {
            Ok(s) => {
                desc = Some(s);
                break;
            }
            Err(_) => report.rejected += 1,
        }
    }
    let Some(loaded) = desc else {
        report.failures.push((seed, "no valid scene in 50 draws".into()));
        return;
    };
    report.scenes += 1;
    report.bodies += loaded.world.bodies().len() as u64 - 1;
    for mode in SolverMode::ALL {
        let mut w = loaded.world.clone();
        w.settings.mode = mode;
        let result = catch_unwind(AssertUnwindSafe(|| run(w))).unwrap_or_else(|p| {
            let msg = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(format!("panic: {}", msg.unwrap_or_default()))
        });
        report.steps += STEPS as u64;
        match result {
            Err(e) if e.contains(ENERGY) && OPEN_ENERGY.contains(&(seed, mode)) => {
                report.open.push((seed, format!("{mode:?}: {e}")))
            }
            Err(e) => report.failures.push((seed, format!("{mode:?}: {e}"))),
            Ok(()) => {}
        }
    }
}

fn fuzz(seeds: impl Iterator<Item = u64>) -> Report {
    let mut report = Report::default();
    for seed in seeds {
        fuzz_seed(seed, &mut report);
    }
    eprintln!(
        "fuzzed {} scenes ({} bodies, {} redrawn after the loader rejected them), {} steps in all; {} failures, {} open",
        report.scenes,
        report.bodies,
        report.rejected,
        report.steps,
        report.failures.len(),
        report.open.len()
    );
    for (seed, e) in &report.failures {
        eprintln!("  seed {seed}: {e}");
    }
    for (seed, e) in &report.open {
        eprintln!("  open: seed {seed}: {e}");
    }
    report
}

#[test]
fn regression_seeds_stay_finite_valid_and_bounded() {
    // The open seeds too: they must stay finite, panic-free and valid (energy reported).
    let r = fuzz(REGRESSIONS.iter().copied().chain(OPEN_ENERGY.iter().map(|&(s, _)| s)));
    assert!(r.failures.is_empty(), "{:?}", r.failures);
}

#[test]
fn random_scenes_stay_finite_valid_and_bounded() {
    // FUZZ_SCENES=n runs seeds 0..n instead (to look for new failures).
    let n = std::env::var("FUZZ_SCENES").ok().and_then(|v| v.parse().ok()).unwrap_or(QUICK);
    let r = fuzz(0..n);
    assert_eq!(r.scenes, n);
    assert!(r.failures.is_empty(), "{} failing seeds: {:?}", r.failures.len(), r.failures);
}

/// Writes the scene of `FUZZ_SEED` to /tmp/fuzz_SEED.ron (to replay it with the binary:
/// `contactlab /tmp/fuzz_SEED.ron --headless --trace t.jsonl`) and runs it.
#[test]
#[ignore = "replay one seed: FUZZ_SEED=n cargo test --test fuzz replay -- --ignored --nocapture"]
fn replay() {
    let seed: u64 = std::env::var("FUZZ_SEED").expect("set FUZZ_SEED").parse().unwrap();
    for attempt in 0..50u64 {
        let d = scene(seed.wrapping_add(attempt << 32));
        match contactlab::scene::build(&d, "fuzz") {
            Ok(_) => {
                let path = format!("/tmp/fuzz_{seed}.ron");
                std::fs::write(&path, ron::ser::to_string_pretty(&d, Default::default()).unwrap()).unwrap();
                eprintln!("wrote {path}");
                break;
            }
            Err(e) => eprintln!("attempt {attempt}: {e}"),
        }
    }
    let r = fuzz(seed..seed + 1);
    assert!(r.failures.is_empty());
}

#[test]
#[ignore = "long run: cargo test --test fuzz long_fuzz_run -- --ignored --nocapture"]
fn long_fuzz_run() {
    // FUZZ_FROM=s and FUZZ_COUNT=n run seeds s..s+n instead (default 1,000,000 and LONG).
    let var = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let from = var("FUZZ_FROM").unwrap_or(1_000_000);
    let r = fuzz(from..from + var("FUZZ_COUNT").unwrap_or(LONG));
    assert!(r.failures.is_empty(), "{} failing seeds: {:?}", r.failures.len(), r.failures);
}
