//! Whole-world step benchmarks (single thread, sleeping off): the 20-layer pyramid (210
//! boxes), 1,000 boxes falling into a pile, and a pile of 640 random 32-point hulls. Each is
//! measured on a snapshot taken after the scene has been running for a while, so the
//! numbers are for the busy part, not the free fall.

use contactlab::physics::{Settings, World};
use contactlab::scene::stock::{box_pile, hull_pile, pyramid};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

const DT: f32 = 1.0 / 60.0;

fn settings() -> Settings {
    Settings { sleeping: false, ..Default::default() }
}

fn settle(mut w: World, steps: usize) -> World {
    for _ in 0..steps {
        w.step(DT);
    }
    w
}

fn world(c: &mut Criterion) {
    let scenes = [
        ("pyramid-210", settle(pyramid(20, settings()), 60)),
        ("box-pile-1000", settle(box_pile(1000, settings()), 150)),
        ("hull-pile-640", settle(hull_pile(640, settings()), 150)),
    ];
    for (name, w) in scenes {
        let s = w.stats();
        eprintln!(
            "{name}: {} bodies, {} pairs, {} contact points, max penetration {:.4} m",
            s.bodies, s.pairs, s.points, s.max_penetration
        );
        c.bench_function(&format!("world-step/{name}"), |b| {
            b.iter_batched_ref(|| w.clone(), |w| w.step(DT), BatchSize::LargeInput)
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).warm_up_time(std::time::Duration::from_millis(500)).measurement_time(std::time::Duration::from_secs(4));
    targets = world
}
criterion_main!(benches);
