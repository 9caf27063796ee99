//! Thread scaling: one stock world stepped by contactlab, the upstream Box3D (C, its own
//! scheduler) and rapier3d (its `parallel` pipeline in a rayon pool) at each of a list of
//! thread counts, one engine at a time, and a markdown table of the times per step:
//!
//! ```text
//! cargo build --release -p contactlab-peers --features rapier-parallel --bin peers-scaling
//! target/release/peers-scaling pyramid-5050 200 1,2,4,8,16
//! ```
//!
//! Each engine runs alone (built, stepped, dropped, its threads joined) so that no other
//! engine's idle workers compete for the cores; the engines and thread counts go in a fixed
//! order. For contactlab it also prints the stage profile at every thread count and checks
//! that the poses and velocities after the last step are bit-identical at every thread count
//! (the determinism `tests/threads.rs` asserts up to 4 threads, here on as many as asked).
//!
//! Without the `rapier-parallel` feature, rapier3d runs at one thread only.
//!
//! Limits: one run per cell, no interleaving: on a shared machine whose speed drifts, use
//! `peers-run` or the peer table instead; this is for a dedicated many-core machine.

use contactlab::physics::{Stage, World};
use contactlab_peers::boxddd::Box3dUpstream;
use contactlab_peers::{contactlab_settings, max_penetration, Contactlab, Engine, Rapier, RowScript, DT};
use std::hash::{Hash, Hasher};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peers-scaling SCENE STEPS THREADS  (SCENE as for peers-run's world rows; THREADS: a comma-separated list, e.g. 1,2,4,8,16)";
    let [scene, steps, threads] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let Ok(steps) = steps.parse::<usize>() else {
        eprintln!("STEPS must be a whole number, got '{steps}'\n{usage}");
        return ExitCode::FAILURE;
    };
    let Ok(counts) = threads.split(',').map(|t| t.trim().parse::<u32>()).collect::<Result<Vec<u32>, _>>() else {
        eprintln!("THREADS must be whole numbers separated by commas, got '{threads}'\n{usage}");
        return ExitCode::FAILURE;
    };
    if counts.is_empty() || counts.contains(&0) {
        eprintln!("THREADS must name at least one count, each at least 1\n{usage}");
        return ExitCode::FAILURE;
    }
    let Some(world) = contactlab_peers::stock_world(scene, contactlab_settings()) else {
        eprintln!("unknown scene '{scene}'\n{usage}");
        return ExitCode::FAILURE;
    };
    // What the scene does while it runs (Box3D's large world drops bodies, its junkyard
    // drives a pusher), inside the timing; the poses at the end are judged against the
    // world with the bodies dropped.
    let script = contactlab_peers::stock_script(scene, &world);
    let judge = script.judge(&world, steps);

    let mut rows = Vec::new();
    let mut reference: Option<u64> = None;
    let mut identical = true;
    for &t in &counts {
        // contactlab, with its stage profile.
        let mut w = world.clone();
        w.settings.threads = t;
        let mut stages = vec![0.0f64; Stage::ALL.len()];
        let start = Instant::now();
        for k in 0..steps {
            script.before_world_step(&mut w, k);
            w.step(DT);
            for (s, ms) in stages.iter_mut().zip(w.profile.stage_ms) {
                *s += f64::from(ms);
            }
        }
        let cl = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
        let hash = state_hash(&w);
        identical &= *reference.get_or_insert(hash) == hash;
        // The world's own pool, joined when it drops here (before the peers run).
        let used = w.threads();
        let pen = max_penetration(&judge, &Contactlab(w).poses());
        let profile: Vec<String> = Stage::ALL
            .iter()
            .zip(&stages)
            .filter(|(_, &ms)| ms / steps as f64 >= 0.02 * cl)
            .map(|(s, ms)| format!("{} {:.2}", s.name(), ms / steps as f64))
            .collect();
        println!(
            "{scene} contactlab on {} thread(s): {cl:.3} ms/step, max penetration {:.1} mm, state hash {hash:016x}; stages (ms/step, ≥ 2 %): {}",
            used,
            pen * 1e3,
            profile.join(", ")
        );

        let b3 = match Box3dUpstream::mirror(&world, t) {
            Ok(e) => Some(time(scene, t, Box::new(e), steps, (&script, &judge))),
            Err(e) => {
                eprintln!("{scene}: the upstream Box3D could not mirror this world: {e}");
                None
            }
        };
        let ra = rapier(&world, t).map(|e| time(scene, t, e, steps, (&script, &judge)));
        rows.push((t, cl, b3, ra));
    }

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "\n{scene}, {steps} steps, ms per step on a machine of {cores} threads (speed-up against each engine's first count; ratio = contactlab ÷ the faster peer at the same count):\n"
    );
    println!("| threads | contactlab | speed-up | box3d (C) | speed-up | rapier3d | speed-up | ratio |");
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    let (cl1, b31, ra1) = (rows[0].1, rows[0].2, rows[0].3);
    let ms = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{x:.3}"));
    let up = |one: Option<f64>, x: Option<f64>| one.zip(x).map_or("–".to_string(), |(a, b)| format!("{:.2}×", a / b));
    for &(t, cl, b3, ra) in &rows {
        let fastest = [b3, ra].into_iter().flatten().reduce(f64::min);
        println!(
            "| {t} | {cl:.3} | {} | {} | {} | {} | {} | {} |",
            up(Some(cl1), Some(cl)),
            ms(b3),
            up(b31, b3),
            ms(ra),
            up(ra1, ra),
            fastest.map_or("–".to_string(), |f| format!("{:.2}", cl / f))
        );
    }
    println!(
        "\ncontactlab's state after {steps} steps at {} thread counts: {}",
        counts.len(),
        if identical { "bit-identical" } else { "DIFFERENT" }
    );
    if identical {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `e` stepped `steps` times (with the scene's script): ms per step; prints one line with its
/// penetration, judged against `world` (the scene with the bodies dropped).
fn time(scene: &str, threads: u32, mut e: Box<dyn Engine>, steps: usize, (script, world): (&RowScript, &World)) -> f64 {
    let start = Instant::now();
    for k in 0..steps {
        script.before_step(e.as_mut(), k);
        e.step();
    }
    let ms = start.elapsed().as_secs_f64() * 1e3 / steps as f64;
    let pen = max_penetration(world, &e.poses());
    println!("{scene} {} on {threads} thread(s): {ms:.3} ms/step, max penetration {:.1} mm", e.name(), pen * 1e3);
    ms
}

/// rapier3d on `threads` threads: its parallel pipeline in a pool of that size with the
/// `rapier-parallel` feature; without it, one thread only.
fn rapier(world: &World, threads: u32) -> Option<Box<dyn Engine>> {
    #[cfg(feature = "rapier-parallel")]
    return Some(Box::new(Rapier::mirror_threads(world, threads as usize)));
    #[cfg(not(feature = "rapier-parallel"))]
    return (threads == 1).then(|| Box::new(Rapier::mirror(world)) as Box<dyn Engine>);
}

/// A hash of every body's pose and velocities, bit for bit.
fn state_hash(w: &World) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for b in w.bodies() {
        let p = b.pose;
        for x in [p.pos.to_array(), b.velocity.to_array(), b.angular_velocity.to_array()].concat() {
            x.to_bits().hash(&mut h);
        }
        for x in p.rot.to_array() {
            x.to_bits().hash(&mut h);
        }
    }
    h.finish()
}
