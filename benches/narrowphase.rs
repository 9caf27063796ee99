//! Narrow-phase benchmarks: box–box and 20-vertex hull–hull manifolds, separated / shallow /
//! deep, cold (fresh SAT cache) and warm (cache from the previous call, small pose change).

use contactlab::physics::collide::sat::sat;
use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use contactlab::physics::hull::builders::SplitMix64;
use contactlab::physics::{Hull, Iso, Shape};
use criterion::{black_box, criterion_group, criterion_main, Criterion};
use glam::{Quat, Vec3};
use std::sync::Arc;

fn hull20(seed: u64) -> Shape {
    // Exactly 20 vertices: points on a sphere are all extreme.
    let mut rng = SplitMix64(seed);
    let pts: Vec<Vec3> = (0..20)
        .map(|_| Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5).normalize() * 0.5)
        .collect();
    let h = Hull::from_points(&pts).unwrap();
    assert_eq!(h.vertices().len(), 20);
    Shape::Hull(Arc::new(h))
}

fn separation(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> f32 {
    let (ha, hb) = (a.hull().unwrap(), b.hull().unwrap());
    sat(ha, hb, &Iso::relative(xa, xb), f32::INFINITY, &mut contactlab::physics::collide::sat::EdgeSoa::default())
        .separation()
}

fn place(a: &Shape, xa: &Iso, b: &Shape, qb: Quat, dir: Vec3, target: f32) -> Iso {
    let (mut lo, mut hi) = (0.0f32, 4.0f32);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        if separation(a, xa, b, &Iso::new(dir * mid, qb)) > target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Iso::new(dir * 0.5 * (lo + hi), qb)
}

fn bench_pair(c: &mut Criterion, label: &str, a: &Shape, b: &Shape) {
    let cfg = CollideConfig::default();
    let qa = Quat::from_rotation_y(0.3) * Quat::from_rotation_x(0.2);
    let qb = Quat::from_rotation_z(0.7) * Quat::from_rotation_y(-0.4);
    let xa = Iso::new(Vec3::ZERO, qa);
    // B is placed along a fixed direction at the distance where the SAT separation is
    // +0.2 m (separated), −0.01 m (shallow) or −0.15 m (deep); found by bisection.
    let dir = Vec3::new(0.1, 1.0, 0.05).normalize();
    for (regime, target) in [("separated", 0.2f32), ("shallow", -0.01), ("deep", -0.15)] {
        let xb = place(a, &xa, b, qb, dir, target);
        let mut scratch = Scratch::default();
        let mut m = Manifold::default();
        c.bench_function(&format!("{label}/{regime}/cold"), |bench| {
            bench.iter(|| {
                let mut cache = SatCache::Empty;
                collide(a, &xa, b, black_box(&xb), &cfg, &mut cache, &mut scratch, &mut m);
                black_box(m.points.len())
            })
        });
        let mut cache = SatCache::Empty;
        let mut k = 0u32;
        c.bench_function(&format!("{label}/{regime}/warm"), |bench| {
            bench.iter(|| {
                // A small pose change every call, so no same-pose shortcut applies.
                k = k.wrapping_add(1);
                let wob = (k % 16) as f32 * 1e-4;
                let x = Iso::new(xb.pos + Vec3::new(wob, 0.0, -wob), Quat::from_rotation_y(wob) * xb.rot);
                collide(a, &xa, b, black_box(&x), &cfg, &mut cache, &mut scratch, &mut m);
                black_box(m.points.len())
            })
        });
        let mut fresh = SatCache::Empty;
        collide(a, &xa, b, &xb, &cfg, &mut fresh, &mut scratch, &mut m);
        eprintln!("{label}/{regime}: separation {:.3} m, {} points", separation(a, &xa, b, &xb), m.points.len());
    }
}

fn narrowphase(c: &mut Criterion) {
    let boxes = Shape::cuboid(Vec3::splat(0.5)).unwrap();
    bench_pair(c, "box-box", &boxes, &boxes);
    bench_pair(c, "hull20-hull20", &hull20(1), &hull20(2));
}

fn support(c: &mut Criterion) {
    for (level, n) in [(0u32, 12usize), (1, 42), (2, 162), (3, 642)] {
        let h = Hull::geodesic_sphere(1.0, level).unwrap();
        assert_eq!(h.vertices().len(), n);
        let dirs: Vec<Vec3> = (0..64)
            .map(|i| Quat::from_rotation_y(i as f32 * 0.37) * Quat::from_rotation_x(i as f32 * 0.21) * Vec3::Z)
            .collect();
        c.bench_function(&format!("support/brute/{n}"), |b| {
            b.iter(|| dirs.iter().map(|d| h.support_brute_force(black_box(*d))).sum::<u32>())
        });
        c.bench_function(&format!("support/scan/{n}"), |b| {
            b.iter(|| dirs.iter().map(|d| h.support_scan(black_box(*d))).sum::<u32>())
        });
        c.bench_function(&format!("support/distance-scan/{n}"), |b| {
            b.iter(|| dirs.iter().map(|d| h.support_distance_scan(black_box(*d))).sum::<f32>())
        });
        c.bench_function(&format!("support/distance-climb/{n}"), |b| {
            b.iter(|| {
                dirs.iter().map(|d| d.dot(h.vertices()[h.support_hill_climb(black_box(*d), 0) as usize])).sum::<f32>()
            })
        });
        c.bench_function(&format!("support/hill-climb/{n}"), |b| {
            b.iter(|| {
                let mut start = 0;
                let mut s = 0;
                for d in &dirs {
                    start = h.support_hill_climb(black_box(*d), start);
                    s += start;
                }
                s
            })
        });
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30).warm_up_time(std::time::Duration::from_millis(300)).measurement_time(std::time::Duration::from_secs(1));
    targets = narrowphase, support
}
criterion_main!(benches);
