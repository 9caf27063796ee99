//! Generators: short descriptions that expand into many bodies (stacks, pyramids, walls and
//! grids, random hull piles). Generated names are `{name}{i}` or `{name}{row}_{col}` and
//! must not clash with listed bodies.

use super::format::{BodyDescFile, GenMaterial, Generator, KindDesc, RotationDesc, ShapeDesc, V3};
use crate::physics::hull::builders::{random_cloud, SplitMix64};

fn body(name: String, shape: ShapeDesc, position: V3, m: &GenMaterial) -> BodyDescFile {
    BodyDescFile {
        name,
        shape,
        kind: KindDesc::Dynamic,
        position,
        rotation: RotationDesc::default(),
        velocity: (0.0, 0.0, 0.0),
        angular_velocity: (0.0, 0.0, 0.0),
        density: m.density,
        mass: None,
        friction: m.friction,
        restitution: m.restitution,
        rolling_resistance: m.rolling_resistance,
        color: m.color,
        bullet: false,
        path: None,
    }
}

/// Expands one generator into body descriptions.
pub fn expand(g: &Generator) -> Vec<BodyDescFile> {
    let mut out = Vec::new();
    match g {
        Generator::Stack { name, base, count, half_extents: h, gap, material } => {
            for i in 0..*count {
                let y = base.1 + h.1 + i as f32 * (2.0 * h.1 + gap);
                out.push(body(
                    format!("{name}{i}"),
                    ShapeDesc::Box { half_extents: *h },
                    (base.0, y, base.2),
                    material,
                ));
            }
        }
        Generator::Pyramid { name, base, layers, half_extents: h, gap, material } => {
            for row in 0..*layers {
                let n = layers - row;
                for j in 0..n {
                    let x = base.0 + (j as f32 - (n - 1) as f32 * 0.5) * (2.0 * h.0 + gap);
                    let y = base.1 + h.1 + row as f32 * 2.0 * h.1;
                    out.push(body(
                        format!("{name}{row}_{j}"),
                        ShapeDesc::Box { half_extents: *h },
                        (x, y, base.2),
                        material,
                    ));
                }
            }
        }
        Generator::Wall { name, base, columns, rows, depth, half_extents: h, gap, bricks, material } => {
            for k in 0..*depth {
                for row in 0..*rows {
                    let shift = if *bricks && row % 2 == 1 { h.0 + 0.5 * gap } else { 0.0 };
                    for col in 0..*columns {
                        let x = base.0 + (col as f32 - (columns - 1) as f32 * 0.5) * (2.0 * h.0 + gap) + shift;
                        let y = base.1 + h.1 + row as f32 * (2.0 * h.1 + gap);
                        let z = base.2 + (k as f32 - (depth - 1) as f32 * 0.5) * (2.0 * h.2 + gap);
                        let n =
                            if *depth > 1 { format!("{name}{k}_{row}_{col}") } else { format!("{name}{row}_{col}") };
                        out.push(body(n, ShapeDesc::Box { half_extents: *h }, (x, y, z), material));
                    }
                }
            }
        }
        Generator::RandomHulls { name, count, points, seed, region: (lo, hi), radius, material } => {
            let mut rng = SplitMix64(*seed);
            let mut placed: Vec<V3> = Vec::with_capacity(*count as usize);
            let lerp = |a: f32, b: f32, t: f32| a + (b - a) * t;
            for i in 0..*count {
                let pts = random_cloud(*points as usize, *radius, seed.wrapping_add(i as u64 + 1));
                // Rejection sampling on bounding spheres so hulls do not start interpenetrating;
                // after 200 misses the region is too full and the last draw is kept.
                let mut p = (0.0, 0.0, 0.0);
                for _ in 0..200 {
                    p = (
                        lerp(lo.0, hi.0, rng.next_f32()),
                        lerp(lo.1, hi.1, rng.next_f32()),
                        lerp(lo.2, hi.2, rng.next_f32()),
                    );
                    let clear = placed.iter().all(|q| {
                        let d = (p.0 - q.0, p.1 - q.1, p.2 - q.2);
                        d.0 * d.0 + d.1 * d.1 + d.2 * d.2 > 4.0 * radius * radius
                    });
                    if clear {
                        break;
                    }
                }
                placed.push(p);
                let shape = ShapeDesc::Hull { points: pts.iter().map(|v| (v.x, v.y, v.z)).collect() };
                let mut b = body(format!("{name}{i}"), shape, p, material);
                let axis = (rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() + 0.1);
                b.rotation = RotationDesc::AxisAngleDeg { axis, angle: rng.next_f32() * 360.0 };
                out.push(b);
            }
        }
    }
    out
}
