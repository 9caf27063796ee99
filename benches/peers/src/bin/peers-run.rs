//! Runs one stock world in one engine for a number of steps, for profiling:
//!
//! ```text
//! cargo build --release -p contactlab-peers --bin peers-run
//! valgrind --tool=callgrind target/release/peers-run box-pile-1k contactlab 120
//! ```
//!
//! After the three arguments, `jitter=SEED` moves every dynamic body by a seeded offset of up
//! to 1 mm along each axis before the run (the same for every engine: a pile settles into
//! another rest), `hertz=HZ` sets contactlab's contact stiffness (the peer rows: 30 Hz), and
//! `recycle=M` its contact recycling window (`Settings::recycle_distance`, metres).
//!
//! `peers-run narrow PAIR/REGIME ENGINE N` computes N cold manifolds instead (for example
//! `peers-run narrow hull20-hull20/shallow contactlab 100000`).
//!
//! Scenes: the row names of `contactlab_peers::stock_world` (pyramid-5050, box-pile-Nk,
//! convex-pile-5120, junkyard-10584, washer-8000, …). Thread scaling across engines is `peers-scaling`'s.
//! Engines: contactlab (`contactlab@N`: on N threads, 0 every core), rapier3d, box3d-rust,
//! box3d-c (Erin Catto's Box3D itself through `boxddd`, on one thread: under callgrind its
//! step is `b3World_Step`; `box3d-c@N` on N threads of the task system the bench gives it).

use contactlab_peers::boxddd::Box3dUpstream;
use contactlab_peers::{
    contactlab_settings, depth_summary, joint_error, joint_error_over_run, max_penetration, pair_depths, Box3d,
    Contactlab, Engine, Rapier,
};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peers-run SCENE ENGINE STEPS [jitter=SEED] [hertz=HZ] [recycle=M]  (SCENE: pyramid-210 | pyramid-5050 | pyramid-layers-L | hull-pile-640 | box-pile-Nk | stack-N | joint-grid-N (N×N) | barrage-N (N shots) | heightfield-N (N bodies) | convex-pile-N (Box3D's convex pile, N/64 layers of 8×8 hulls) | many-pyramids-10780 (Box3D's) | junkyard-10584 (Box3D's) | washer-8000 (Box3D's) | trees-100, trees-50, trees-25 (Box3D's trees100, trees50, trees25) | large-world-N (Box3D's floor of N×N static slabs, a ball dropped every 5 steps, 100 in all) | character-level (STEPS = moves); ENGINE: contactlab | contactlab@N (N threads, 0: every core) | rapier3d | box3d-rust | box3d-c (the upstream C library, one thread) | box3d-c@N (on N threads of its task system))";
    if let [mode, label, engine, n] = args.as_slice() {
        if mode == "narrow" {
            return narrow(label, engine, n);
        }
    }
    if let [scene, engine, moves] = args.as_slice() {
        if scene == "character-level" {
            return character(engine, moves);
        }
    }
    let [scene, engine, steps, options @ ..] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let mut settings = contactlab_settings();
    let mut seed = None;
    for o in options {
        let value = |key: &str| o.strip_prefix(key).and_then(|v| v.strip_prefix('='));
        if let Some(Ok(s)) = value("jitter").map(str::parse::<u64>) {
            seed = Some(s);
        } else if let Some(Ok(hz)) = value("hertz").map(str::parse::<f32>) {
            settings.contact_hertz = hz;
        } else if let Some(Ok(m)) = value("recycle").map(str::parse::<f32>) {
            settings.recycle_distance = m;
        } else {
            eprintln!("'{o}' is not jitter=SEED (a whole number), hertz=HZ or recycle=M (numbers)\n{usage}");
            return ExitCode::FAILURE;
        }
    }
    let Ok(steps) = steps.parse::<usize>() else {
        eprintln!("STEPS must be a whole number, got '{steps}'\n{usage}");
        return ExitCode::FAILURE;
    };
    let Some(mut world) = contactlab_peers::stock_world(scene, settings) else {
        eprintln!("unknown scene '{scene}'\n{usage}");
        return ExitCode::FAILURE;
    };
    if let Some(seed) = seed {
        contactlab_peers::jitter(&mut world, seed, 1e-3);
    }
    // What the scene does while it runs (Box3D's large world drops bodies, its junkyard
    // drives a pusher), and the world with the bodies dropped in these steps, which the
    // poses at the end are judged against.
    let script = contactlab_peers::stock_script(scene, &world);
    let judge = script.judge(&world, steps);
    // `contactlab@N`: contactlab on N threads (0: every core).
    let threads = engine.strip_prefix("contactlab@").map(|n| n.parse::<u32>());
    if let Some(Err(_)) = threads {
        eprintln!("'{engine}': the thread count after 'contactlab@' is not a number\n{usage}");
        return ExitCode::FAILURE;
    }
    if engine == "contactlab" || threads.is_some() {
        // Also print where the time goes, stage by stage (the world's own profile).
        let mut w = world.clone();
        if let Some(Ok(n)) = threads {
            w.settings.threads = n;
        }
        let mut stages = vec![0.0f64; contactlab::physics::Stage::ALL.len()];
        // Each thread's time on the shared-out blocks, per stage (several threads).
        let mut shares = vec![[0.0f64; contactlab::physics::world::PROFILED_THREADS]; stages.len()];
        let mut stepping = std::time::Duration::ZERO;
        let mut samples = JointSamples::default();
        let mut watch = WasherWatch::new(scene, &world);
        // Continuous collision's work: swept bodies, time-of-impact queries, distance calls.
        let (mut swept, mut queries, mut calls) = (0usize, 0usize, 0usize);
        for k in 1..=steps {
            let t = Instant::now();
            script.before_world_step(&mut w, k - 1);
            w.step(contactlab_peers::DT);
            stepping += t.elapsed();
            samples.take(k, &world, || w.bodies().iter().map(|b| b.pose).collect());
            if let Some(watch) = &mut watch {
                watch.take(k, &world, &w.bodies().iter().map(|b| b.pose).collect::<Vec<_>>());
            }
            for (s, ms) in stages.iter_mut().zip(w.profile.stage_ms) {
                *s += f64::from(ms);
            }
            for (s, row) in shares.iter_mut().zip(&w.profile.thread_ms) {
                for (x, ms) in s.iter_mut().zip(row) {
                    *x += f64::from(*ms);
                }
            }
            let c = w.continuous();
            (swept, queries, calls) =
                (swept + c.candidates as usize, queries + c.queries.len(), calls + c.iterations.len());
        }
        let ms = stepping.as_secs_f64() * 1e3 / steps.max(1) as f64;
        let st = w.stats();
        println!(
            "{scene} contactlab on {} thread(s): {ms:.3} ms/step over {steps} steps ({} pairs, {} touching, {} points at the end)",
            w.threads(),
            st.pairs,
            st.touching,
            st.points
        );
        let threads = w.threads().min(contactlab::physics::world::PROFILED_THREADS);
        for ((stage, total), share) in contactlab::physics::Stage::ALL.iter().zip(stages).zip(&shares) {
            let per = |x: f64| x / steps.max(1) as f64;
            let mut line = format!("  {:<22} {:8.3} ms/step", stage.name(), per(total));
            if threads > 1 && share.iter().any(|&x| x > 0.0) {
                let each: Vec<String> = share[..threads].iter().map(|&x| format!("{:.3}", per(x))).collect();
                line += &format!("   (on shared-out blocks, by thread: {})", each.join(" / "));
            }
            println!("{line}");
        }
        let per = |n: usize| n as f64 / steps.max(1) as f64;
        println!(
            "  continuous collision: {:.1} bodies swept, {:.1} time-of-impact queries, {:.1} distance calls per step",
            per(swept),
            per(queries),
            per(calls)
        );
        let world = judge;
        let last = world.bodies().len() - 1;
        let delta = w.bodies()[last].pose.pos - world.bodies()[last].pose.pos;
        let drift = delta.length();
        eprintln!("  last body displacement {delta:?}");
        let cl = Contactlab(w);
        if let Some(t) = cl.touching_points() {
            println!("  {t}");
        }
        let poses = cl.poses();
        println!("  max penetration {:.4} m, last body moved {drift:.4} m", max_penetration(&world, &poses));
        println!("  {}", depth_summary(pair_depths(&world, &poses)));
        if let Some((max, mean)) = joint_error(&world, &poses) {
            println!("  joint error max {max:.5} m, mean {mean:.5} m");
            samples.print();
        }
        if scene.starts_with("barrage-") {
            println!("  {} bodies outside the room", contactlab_peers::escaped(&world, &poses));
        }
        if scene.starts_with("heightfield-") {
            println!(
                "  {} bodies below the terrain; deepest vertex {:.4} m under it (straight down)",
                contactlab_peers::below_terrain(&world, &poses),
                contactlab_peers::deepest_vertex_below_terrain(&world, &poses)
            );
        }
        if scene.starts_with("washer-") {
            washer(&world, &poses);
        }
        if let Some(watch) = &watch {
            watch.print();
        }
        return ExitCode::SUCCESS;
    }
    let mut e: Box<dyn Engine> = match engine.as_str() {
        "contactlab" => Box::new(Contactlab(world.clone())),
        "rapier3d" => Box::new(Rapier::mirror(&world)),
        "box3d-rust" => Box::new(Box3d::mirror(&world)),
        name if name == "box3d-c" || name.starts_with("box3d-c@") => {
            let threads = match name.strip_prefix("box3d-c@").map_or(Ok(1), str::parse::<u32>) {
                Ok(n) if n >= 1 => n,
                _ => {
                    eprintln!("'{name}': the thread count after '@' must be a whole number, at least 1\n{usage}");
                    return ExitCode::FAILURE;
                }
            };
            match Box3dUpstream::mirror(&world, threads) {
                Ok(b) => Box::new(b),
                Err(err) => {
                    eprintln!("the upstream Box3D could not mirror '{scene}': {err:?}");
                    return ExitCode::FAILURE;
                }
            }
        }
        other => {
            eprintln!("unknown engine '{other}'\n{usage}");
            return ExitCode::FAILURE;
        }
    };
    let last = judge.bodies().len() - 1;
    let start = judge.bodies()[last].pose.pos;
    let mut stepping = std::time::Duration::ZERO;
    let mut samples = JointSamples::default();
    let mut watch = WasherWatch::new(scene, &world);
    let mut stages: Vec<(&'static str, f64)> = Vec::new();
    for k in 1..=steps {
        let t = Instant::now();
        script.before_step(e.as_mut(), k - 1);
        e.step();
        stepping += t.elapsed();
        for (i, (name, ms)) in e.stage_ms().unwrap_or_default().into_iter().enumerate() {
            if i == stages.len() {
                stages.push((name, 0.0));
            }
            stages[i].1 += ms as f64;
        }
        samples.take(k, &world, || e.poses());
        if let Some(watch) = &mut watch {
            watch.take(k, &world, &e.poses());
        }
    }
    let ms = stepping.as_secs_f64() * 1e3 / steps.max(1) as f64;
    // The engine's own stage profile, where it keeps one (the upstream Box3D's).
    for (name, total) in &stages {
        println!("  {name:<24} {:.3} ms/step", total / steps.max(1) as f64);
    }
    let poses = e.poses();
    eprintln!("  last body displacement {:?}", poses[last].pos - start);
    println!(
        "{scene} {engine}: {ms:.3} ms/step over {steps} steps, max penetration {:.4} m, last body moved {:.4} m",
        max_penetration(&judge, &poses),
        (poses[last].pos - start).length()
    );
    println!("  {}", depth_summary(pair_depths(&judge, &poses)));
    if let Some(t) = e.touching_points() {
        println!("  {t}");
    }
    if let Some((max, mean)) = joint_error(&judge, &poses) {
        println!("  joint error max {max:.5} m, mean {mean:.5} m");
        samples.print();
    }
    if scene.starts_with("barrage-") {
        println!("  {} bodies outside the room", contactlab_peers::escaped(&judge, &poses));
    }
    if scene.starts_with("heightfield-") {
        println!(
            "  {} bodies below the terrain; deepest vertex {:.4} m under it (straight down)",
            contactlab_peers::below_terrain(&judge, &poses),
            contactlab_peers::deepest_vertex_below_terrain(&judge, &poses)
        );
    }
    if scene.starts_with("washer-") {
        washer(&judge, &poses);
    }
    if let Some(watch) = &watch {
        watch.print();
    }
    ExitCode::SUCCESS
}

/// The washer's cubes at `poses`: how many are out of the drum
/// ([`contactlab_peers::out_of_washer`]), and of those past an open end or beyond the rim
/// within its length (in the drum's frame), how many lie on the ground (centre below the
/// drum's lowest point), how many are below the ground's top (y < 0), and the drum's pose.
fn washer(world: &contactlab::physics::World, poses: &[contactlab::physics::Iso]) {
    use contactlab_peers::box3d_scenes::WASHER_OUTER;
    let Some(drum) = world.bodies().iter().position(|b| b.is_kinematic()) else { return };
    let (radius, half_length) = WASHER_OUTER;
    let cubes = || world.bodies().iter().zip(poses).filter(|(b, _)| b.is_dynamic()).map(|(_, x)| x.pos);
    let local = |p: glam::Vec3| poses[drum].inverse().transform_point(p);
    let past_end = cubes().filter(|p| local(*p).z.abs() > half_length).count();
    let beyond_rim =
        cubes().filter(|p| local(*p).z.abs() <= half_length && local(*p).truncate().length() > radius).count();
    let low = poses[drum].pos.y - radius;
    let on_ground = cubes().filter(|p| p.y < low).count();
    let below = cubes().filter(|p| p.y < 0.0).count();
    let nan = cubes().filter(|p| !p.is_finite()).count();
    println!(
        "  washer: {} cubes out of the drum ({past_end} past an open end, {beyond_rim} beyond the rim within its length), {on_ground} below the drum's lowest point (y < {low:.2}), {below} below y = 0, {nan} not finite; drum at {:?}",
        contactlab_peers::out_of_washer(world, poses),
        poses[drum].pos
    );
}

/// The washer's cubes watched after every step, outside the timed steps: a cube seen in the
/// drum (within its outer radius and length) one step and the next farther than the outer
/// radius plus its own half diagonal from the axis while still within the drum's length went
/// through the rim; and how many cubes are out of the drum every [`WasherWatch::EVERY`]
/// steps.
struct WasherWatch {
    /// The drum's body index.
    drum: usize,
    /// Whether each body was in the drum after the last step.
    inside: Vec<bool>,
    /// Cubes through the rim: (step, body, distance from the axis, along the axis).
    crossed: Vec<(usize, usize, f32, f32)>,
    /// (step, cubes out of the drum).
    out: Vec<(usize, usize)>,
}

impl WasherWatch {
    const EVERY: usize = 100;

    /// A watch for a washer row (`None` for another scene).
    fn new(scene: &str, world: &contactlab::physics::World) -> Option<Self> {
        if !scene.starts_with("washer-") {
            return None;
        }
        let drum = world.bodies().iter().position(|b| b.is_kinematic())?;
        let poses: Vec<_> = world.bodies().iter().map(|b| b.pose).collect();
        let mut w = Self { drum, inside: Vec::new(), crossed: Vec::new(), out: Vec::new() };
        w.inside = (0..poses.len()).map(|i| w.place(&poses, i).0).collect();
        Some(w)
    }

    /// Body `i` at `poses`: (in the drum, distance from its axis, coordinate along it).
    fn place(&self, poses: &[contactlab::physics::Iso], i: usize) -> (bool, f32, f32) {
        let (radius, half_length) = contactlab_peers::box3d_scenes::WASHER_OUTER;
        let p = poses[self.drum].inverse().transform_point(poses[i].pos);
        let r = p.truncate().length();
        (r <= radius && p.z.abs() <= half_length, r, p.z)
    }

    /// After step `k` (from 1), the bodies of `world` at `poses`.
    fn take(&mut self, k: usize, world: &contactlab::physics::World, poses: &[contactlab::physics::Iso]) {
        let (radius, half_length) = contactlab_peers::box3d_scenes::WASHER_OUTER;
        for (i, b) in world.bodies().iter().enumerate().filter(|(_, b)| b.is_dynamic()) {
            let (inside, r, z) = self.place(poses, i);
            let half_diagonal = b.shape.bounding_radius();
            if self.inside[i] && r > radius + half_diagonal && z.abs() <= half_length {
                self.crossed.push((k, i, r, z));
            }
            self.inside[i] = inside;
        }
        if k.is_multiple_of(Self::EVERY) {
            self.out.push((k, contactlab_peers::out_of_washer(world, poses)));
        }
    }

    fn print(&self) {
        let out: Vec<String> = self.out.iter().map(|(k, n)| format!("{k}: {n}")).collect();
        println!("  washer: cubes out of the drum after step {}", out.join(", "));
        println!(
            "  washer: {} cubes went through the rim (in the drum one step, past its rim the next)",
            self.crossed.len()
        );
        for (k, i, r, z) in self.crossed.iter().take(10) {
            println!("    step {k}: body {i} at {r:.2} m from the axis, {z:.2} m along it");
        }
    }
}

fn narrow(label: &str, engine: &str, n: &str) -> ExitCode {
    use contactlab_peers::narrow::{engines, pairs};
    let Ok(n) = n.parse::<u32>() else {
        eprintln!("N must be a whole number, got '{n}'");
        return ExitCode::FAILURE;
    };
    let Some(pair) = pairs().into_iter().find(|p| p.label == label) else {
        eprintln!("unknown pair '{label}' (box-box/separated, …, hull20-hull20/deep)");
        return ExitCode::FAILURE;
    };
    let Some(mut e) = engines(&pair).into_iter().find(|e| e.name() == engine) else {
        eprintln!("unknown engine '{engine}' (contactlab, parry3d, box3d-rust)");
        return ExitCode::FAILURE;
    };
    let t = Instant::now();
    let mut points = 0;
    for _ in 0..n {
        points += e.run(std::hint::black_box(&pair.xb), true);
    }
    let ns = t.elapsed().as_secs_f64() * 1e9 / f64::from(n.max(1));
    println!("{label} {engine}: {ns:.0} ns per cold manifold, {} points", points / n.max(1) as usize);
    ExitCode::SUCCESS
}

/// `peers-run character-level ENGINE MOVES`: the character row for one engine.
fn character(engine: &str, moves: &str) -> ExitCode {
    use contactlab_peers::character::{level, movers, run};
    let Ok(moves) = moves.parse::<usize>() else {
        eprintln!("MOVES must be a whole number, got '{moves}'");
        return ExitCode::FAILURE;
    };
    let mesh = level();
    let Some(mut m) = movers(&mesh).into_iter().find(|m| m.name() == engine) else {
        eprintln!("unknown engine '{engine}' (contactlab, rapier3d, box3d-rust)");
        return ExitCode::FAILURE;
    };
    let r = run(m.as_mut(), &mesh, moves);
    println!(
        "character-level {}: {:.2} us/move over {moves} moves, path {:.1} m, highest centre {:.2} m, deepest penetration {:.1} mm, end ({:.2}, {:.2}, {:.2})",
        r.engine,
        r.us_per_move,
        r.path,
        r.top,
        r.penetration * 1e3,
        r.end.x,
        r.end.y,
        r.end.z
    );
    ExitCode::SUCCESS
}

/// The joint error ([`joint_error`]) every [`JointSamples::EVERY`] steps, outside the timed
/// steps: one snapshot at the end is a single sample of a net that still swings (rapier3d's
/// largest gap on joint-grid-100 is 58, 13, 50 and 19 mm after 150, 300, 450 and 600 steps).
#[derive(Default)]
struct JointSamples {
    /// (largest, mean) of each sample.
    taken: Vec<(f32, f32)>,
}

impl JointSamples {
    const EVERY: usize = 30;

    /// After step `k` (from 1), samples `poses()` when `k` is a multiple of [`Self::EVERY`]
    /// and the world has joints.
    fn take(
        &mut self,
        k: usize,
        world: &contactlab::physics::World,
        poses: impl FnOnce() -> Vec<contactlab::physics::Iso>,
    ) {
        if k.is_multiple_of(Self::EVERY) && !world.joints().is_empty() {
            if let Some(e) = joint_error(world, &poses()) {
                self.taken.push(e);
            }
        }
    }

    /// One line: over the samples, the largest gap, and the means of the largest and of the
    /// mean gaps (mm).
    fn print(&self) {
        let Some((top, mean_max, mean_mean)) = joint_error_over_run(&self.taken) else { return };
        println!(
            "  joint error over the run ({} samples, every {} steps): largest {:.2} mm; mean of the largest {:.2} mm, of the mean {:.3} mm",
            self.taken.len(),
            Self::EVERY,
            top * 1e3,
            mean_max * 1e3,
            mean_mean * 1e3
        );
    }
}
