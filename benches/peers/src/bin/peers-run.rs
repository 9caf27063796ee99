//! Runs one stock world in one engine for a number of steps, for profiling:
//!
//! ```text
//! cargo build --release -p contactlab-peers --bin peers-run
//! valgrind --tool=callgrind target/release/peers-run box-pile-1k contactlab 120
//! ```
//!
//! Scenes: pyramid-210, pyramid-5050, hull-pile-640, box-pile-Nk (N thousand boxes).
//! Engines: contactlab, rapier3d, box3d-rust.

use contactlab::scene::stock::{box_pile, hull_pile, pyramid};
use contactlab_peers::{contactlab_settings, max_penetration, Box3d, Contactlab, Engine, Rapier};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: peers-run SCENE ENGINE STEPS  (SCENE: pyramid-210 | pyramid-5050 | hull-pile-640 | box-pile-Nk; ENGINE: contactlab | rapier3d | box3d-rust)";
    let [scene, engine, steps] = args.as_slice() else {
        eprintln!("{usage}");
        return ExitCode::FAILURE;
    };
    let Ok(steps) = steps.parse::<usize>() else {
        eprintln!("STEPS must be a whole number, got '{steps}'\n{usage}");
        return ExitCode::FAILURE;
    };
    let s = contactlab_settings();
    let world = match scene.as_str() {
        "pyramid-210" => pyramid(20, s),
        "pyramid-5050" => pyramid(100, s),
        "hull-pile-640" => hull_pile(640, s),
        other => match other
            .strip_prefix("box-pile-")
            .and_then(|k| k.strip_suffix('k'))
            .and_then(|k| k.parse::<usize>().ok())
        {
            Some(k) if k > 0 => box_pile(k * 1000, s),
            _ => {
                eprintln!("unknown scene '{other}'\n{usage}");
                return ExitCode::FAILURE;
            }
        },
    };
    if engine == "contactlab" {
        // Also print where the time goes, stage by stage (the world's own profile).
        let mut w = world.clone();
        let mut stages = [0.0f64; 12];
        let t = Instant::now();
        for _ in 0..steps {
            w.step(contactlab_peers::DT);
            for (s, ms) in stages.iter_mut().zip(w.profile.stage_ms) {
                *s += f64::from(ms);
            }
        }
        let ms = t.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64;
        println!("{scene} contactlab: {ms:.3} ms/step over {steps} steps");
        for (stage, total) in contactlab::physics::Stage::ALL.iter().zip(stages) {
            println!("  {:<22} {:8.3} ms/step", stage.name(), total / steps.max(1) as f64);
        }
        println!("  max penetration {:.4} m", max_penetration(&world, &Contactlab(w).poses()));
        return ExitCode::SUCCESS;
    }
    let mut e: Box<dyn Engine> = match engine.as_str() {
        "contactlab" => Box::new(Contactlab(world.clone())),
        "rapier3d" => Box::new(Rapier::mirror(&world)),
        "box3d-rust" => Box::new(Box3d::mirror(&world)),
        other => {
            eprintln!("unknown engine '{other}'\n{usage}");
            return ExitCode::FAILURE;
        }
    };
    let t = Instant::now();
    for _ in 0..steps {
        e.step();
    }
    let ms = t.elapsed().as_secs_f64() * 1e3 / steps.max(1) as f64;
    println!(
        "{scene} {engine}: {ms:.3} ms/step over {steps} steps, max penetration {:.4} m",
        max_penetration(&world, &e.poses())
    );
    ExitCode::SUCCESS
}
