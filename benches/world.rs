//! Whole-world step benchmarks (single thread, sleeping off): the 20-layer pyramid (210
//! boxes), 1,000 boxes falling into a pile, and a pile of 640 random 32-point hulls. Each is
//! measured on a snapshot taken after the scene has been running for a while, so the
//! numbers are for the busy part, not the free fall.

use contactlab::physics::{BodyDesc, Hull, Settings, Shape, World};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use glam::{Quat, Vec3};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

fn base() -> World {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings { sleeping: false, ..Default::default() });
    w.add_body(
        BodyDesc::new("ground", Shape::cuboid(Vec3::new(60.0, 0.5, 60.0)).unwrap(), Vec3::new(0.0, -0.5, 0.0)).fixed(),
    )
    .unwrap();
    w
}

fn container(w: &mut World, half: f32) {
    for (i, (p, h)) in [
        (Vec3::new(half + 0.5, 5.0, 0.0), Vec3::new(0.5, 5.0, half + 1.0)),
        (Vec3::new(-half - 0.5, 5.0, 0.0), Vec3::new(0.5, 5.0, half + 1.0)),
        (Vec3::new(0.0, 5.0, half + 0.5), Vec3::new(half, 5.0, 0.5)),
        (Vec3::new(0.0, 5.0, -half - 0.5), Vec3::new(half, 5.0, 0.5)),
    ]
    .into_iter()
    .enumerate()
    {
        w.add_body(BodyDesc::new(format!("wall{i}"), Shape::cuboid(h).unwrap(), p).fixed()).unwrap();
    }
}

pub fn pyramid(layers: usize) -> World {
    let mut w = base();
    let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
    for row in 0..layers {
        let n = layers - row;
        for j in 0..n {
            let x = (j as f32 - (n - 1) as f32 * 0.5) * 1.05;
            w.add_body(BodyDesc::new(format!("p{row}_{j}"), cube.clone(), Vec3::new(x, 0.5 + row as f32, 0.0)))
                .unwrap();
        }
    }
    w
}

fn box_pile(n: usize) -> World {
    let mut w = base();
    container(&mut w, 6.0);
    let cube = Shape::cuboid(Vec3::splat(0.4)).unwrap();
    let side = 10;
    for i in 0..n {
        let (x, z, y) = (i % side, (i / side) % side, i / (side * side));
        let p = Vec3::new(x as f32 * 1.1 - 5.0, 1.0 + y as f32 * 1.1, z as f32 * 1.1 - 5.0);
        w.add_body(
            BodyDesc::new(format!("b{i}"), cube.clone(), p).with_rotation(Quat::from_rotation_y(i as f32 * 0.3)),
        )
        .unwrap();
    }
    w
}

fn hull_pile(n: usize) -> World {
    let mut w = base();
    container(&mut w, 7.0);
    let side = 12;
    for i in 0..n {
        let h = Arc::new(Hull::random(32, 0.45, 100 + i as u64).unwrap());
        let (x, z, y) = (i % side, (i / side) % side, i / (side * side));
        let p = Vec3::new(x as f32 * 1.1 - 6.0, 1.0 + y as f32 * 1.1, z as f32 * 1.1 - 6.0);
        w.add_body(BodyDesc::new(format!("h{i}"), Shape::Hull(h), p).with_rotation(Quat::from_rotation_x(i as f32)))
            .unwrap();
    }
    w
}

fn settle(mut w: World, steps: usize) -> World {
    for _ in 0..steps {
        w.step(DT);
    }
    w
}

fn world(c: &mut Criterion) {
    let scenes = [
        ("pyramid-210", settle(pyramid(20), 60)),
        ("box-pile-1000", settle(box_pile(1000), 150)),
        ("hull-pile-640", settle(hull_pile(640), 150)),
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
