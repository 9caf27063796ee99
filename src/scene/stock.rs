//! Stock scenes built in code, for the benchmarks (`benches/world.rs`) and the side-by-side
//! comparison with other engines (`benches/peers`): the same bodies in every run.
//!
//! - [`pyramid`]: `layers` rows of unit cubes, 5 cm apart, on a static ground box.
//! - [`box_pile`]: `n` cubes (0.8 m) in a grid of about ten layers, falling into a walled pit.
//! - [`hull_pile`]: `n` random 32-point hulls (radius 0.45 m) falling into a walled pit.
//! - [`barrage`]: `n` fast shots (spheres and cubes, bullets) fired from a ring into a pile
//!   of 100 boxes inside a closed room of 10 cm walls: continuous collision's benchmark,
//!   judged by how many bodies end outside the room ([`BARRAGE_INNER`]).
//! - [`heightfield_pile`]: `n` boxes and hulls dropped onto a 100 × 100 heightfield (a static
//!   triangle mesh), judged by how many end below the terrain ([`terrain_height`]).
//! - [`joint_grid`]: an `n × n` net of spheres joined to their neighbours by ball joints,
//!   hanging from its fixed top row (Box3D's joint-grid benchmark, with gravity).
//!
//! - [`hull20`] and [`place_at_separation`]: the shapes and poses of the narrow-phase
//!   benchmarks (20-vertex hulls; B placed where the SAT separation has a given value).
//!
//! Every body is a box, a hull or a sphere and every joint a ball joint, so any engine with
//! those can mirror these worlds exactly.

use crate::physics::{BodyDesc, Hull, Iso, JointDesc, JointKind, Settings, Shape, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

/// Gravity used by every stock scene (m/s²).
pub const GRAVITY: Vec3 = Vec3::new(0.0, -9.81, 0.0);

fn base(settings: Settings, half: f32) -> World {
    let mut w = World::new(GRAVITY, settings);
    let ground = Shape::cuboid(Vec3::new(half.max(60.0), 0.5, half.max(60.0))).expect("box");
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -0.5, 0.0)).fixed()).expect("ground");
    w
}

/// Four static walls around a square pit of half-width `half`, 10 m tall.
fn walls(w: &mut World, half: f32) {
    let sides = [
        (Vec3::new(half + 0.5, 5.0, 0.0), Vec3::new(0.5, 5.0, half + 1.0)),
        (Vec3::new(-half - 0.5, 5.0, 0.0), Vec3::new(0.5, 5.0, half + 1.0)),
        (Vec3::new(0.0, 5.0, half + 0.5), Vec3::new(half, 5.0, 0.5)),
        (Vec3::new(0.0, 5.0, -half - 0.5), Vec3::new(half, 5.0, 0.5)),
    ];
    for (i, (p, h)) in sides.into_iter().enumerate() {
        w.add_body(BodyDesc::new(format!("wall{i}"), Shape::cuboid(h).expect("box"), p).fixed()).expect("wall");
    }
}

/// A pyramid of `layers` rows of unit cubes (`layers·(layers+1)/2` boxes) on the ground,
/// 5 cm gaps within a row. The last body added is the top box.
pub fn pyramid(layers: usize, settings: Settings) -> World {
    let mut w = base(settings, layers as f32);
    let cube = Shape::cuboid(Vec3::splat(0.5)).expect("box");
    for row in 0..layers {
        let n = layers - row;
        for j in 0..n {
            let x = (j as f32 - (n - 1) as f32 * 0.5) * 1.05;
            w.add_body(BodyDesc::new(format!("p{row}_{j}"), cube.clone(), Vec3::new(x, 0.5 + row as f32, 0.0)))
                .expect("cube");
        }
    }
    w
}

/// Side of the square grid for `n` bodies in about ten layers.
fn grid_side(n: usize) -> usize {
    ((n as f32 / 10.0).sqrt().ceil() as usize).max(1)
}

/// `n` cubes of half-extent 0.4 m in a grid (about ten layers, 1.1 m pitch, each turned
/// about Y), dropped into a walled pit.
pub fn box_pile(n: usize, settings: Settings) -> World {
    let side = grid_side(n);
    let half = side as f32 * 0.55 + 0.5;
    let mut w = base(settings, half);
    walls(&mut w, half);
    let cube = Shape::cuboid(Vec3::splat(0.4)).expect("box");
    for i in 0..n {
        let p = grid_point(i, side);
        w.add_body(
            BodyDesc::new(format!("b{i}"), cube.clone(), p).with_rotation(Quat::from_rotation_y(i as f32 * 0.3)),
        )
        .expect("cube");
    }
    w
}

/// `n` hulls of 32 random points in a ball of radius 0.45 m (seeds 100, 101, …), in a grid,
/// dropped into a walled pit.
pub fn hull_pile(n: usize, settings: Settings) -> World {
    let side = grid_side(n);
    let half = side as f32 * 0.55 + 0.5;
    let mut w = base(settings, half);
    walls(&mut w, half);
    for i in 0..n {
        let h = Arc::new(Hull::random(32, 0.45, 100 + i as u64).expect("random hull"));
        let p = grid_point(i, side);
        w.add_body(BodyDesc::new(format!("h{i}"), Shape::Hull(h), p).with_rotation(Quat::from_rotation_x(i as f32)))
            .expect("hull");
    }
    w
}

/// Inner half extents of [`barrage`]'s room (m): x and z from −6 to 6, y from 0 to 6 (the
/// room's centre is at y = 3). A body whose centre ends outside it went into or through a
/// wall.
pub const BARRAGE_INNER: Vec3 = Vec3::new(6.0, 3.0, 6.0);
/// Wall thickness of [`barrage`]'s room (m).
pub const BARRAGE_WALL: f32 = 0.1;

/// Whether a point is inside [`barrage`]'s room.
pub fn inside_barrage_room(p: Vec3) -> bool {
    let d = (p - Vec3::new(0.0, BARRAGE_INNER.y, 0.0)).abs();
    d.x <= BARRAGE_INNER.x && d.y <= BARRAGE_INNER.y && d.z <= BARRAGE_INNER.z
}

/// Continuous collision's benchmark: a closed room of 10 cm static walls (floor, ceiling and
/// four sides; [`BARRAGE_INNER`]), a pile of 100 cubes (0.5 m; 5 × 5 × 4, 2 cm apart) at its
/// centre, and `n` shots — spheres of radius 10 cm and cubes of 20 cm, alternating, all
/// bullets, restitution 0.3 — on a ring of radius 4.5 m at heights 0.4–3.4 m, each fired at
/// a point of the pile at 80–200 m/s (1.3–3.3 m per 60 Hz step, beyond the speculative
/// reach of every engine) and the cubes spun at up to 30 rad/s. Deterministic (seeded).
/// The shots are added last (`shot0` …).
pub fn barrage(n: usize, settings: Settings) -> World {
    let mut w = World::new(GRAVITY, settings);
    let (h, t) = (BARRAGE_INNER, BARRAGE_WALL * 0.5);
    let centre = Vec3::new(0.0, h.y, 0.0);
    let slabs = [
        ("floor", Vec3::new(0.0, -h.y - t, 0.0), Vec3::new(h.x + 2.0 * t, t, h.z + 2.0 * t)),
        ("ceiling", Vec3::new(0.0, h.y + t, 0.0), Vec3::new(h.x + 2.0 * t, t, h.z + 2.0 * t)),
        ("east", Vec3::new(h.x + t, 0.0, 0.0), Vec3::new(t, h.y, h.z)),
        ("west", Vec3::new(-h.x - t, 0.0, 0.0), Vec3::new(t, h.y, h.z)),
        ("north", Vec3::new(0.0, 0.0, h.z + t), Vec3::new(h.x + 2.0 * t, h.y, t)),
        ("south", Vec3::new(0.0, 0.0, -h.z - t), Vec3::new(h.x + 2.0 * t, h.y, t)),
    ];
    for (name, p, e) in slabs {
        w.add_body(BodyDesc::new(name, Shape::cuboid(e).expect("slab"), centre + p).fixed()).expect("wall");
    }
    let cube = Shape::cuboid(Vec3::splat(0.25)).expect("box");
    for i in 0..100 {
        let (x, z, y) = (i % 5, (i / 5) % 5, i / 25);
        let p = Vec3::new((x as f32 - 2.0) * 0.52, 0.25 + y as f32 * 0.5, (z as f32 - 2.0) * 0.52);
        w.add_body(BodyDesc::new(format!("pile{i}"), cube.clone(), p)).expect("cube");
    }
    let mut rng = crate::physics::hull::builders::SplitMix64(0xBA77_A6E5);
    let ball = Shape::Sphere { radius: 0.1 };
    let small = Shape::cuboid(Vec3::splat(0.1)).expect("box");
    for i in 0..n {
        let angle = i as f32 / n.max(1) as f32 * std::f32::consts::TAU;
        // Heights step by 7/12 of the range from one shot to the next round the ring, so
        // neighbours (14 cm apart along it at n = 200) never overlap.
        let from = Vec3::new(4.5 * angle.cos(), 0.4 + 3.0 * ((i * 7) % 13) as f32 / 12.0, 4.5 * angle.sin());
        let aim = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() * 0.9, rng.next_f32() - 0.5) * 2.4;
        let speed = 80.0 + 120.0 * rng.next_f32();
        let v = (aim - from).normalize() * speed;
        let (shape, spin) = if i % 2 == 0 {
            (ball.clone(), Vec3::ZERO)
        } else {
            let s = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * 60.0;
            (small.clone(), s)
        };
        let mut d = BodyDesc::new(format!("shot{i}"), shape, from).with_velocity(v).with_material(0.6, 0.3);
        d.angular_velocity = spin;
        d.bullet = true;
        w.add_body(d).expect("shot");
    }
    w
}

/// Height of [`heightfield_pile`]'s terrain at (x, z) (m): rolling hills 1.5 m high, 16 m
/// between peaks. The mesh interpolates it linearly over 1 m cells.
pub fn terrain_height(x: f32, z: f32) -> f32 {
    let k = std::f32::consts::TAU / 16.0;
    1.5 * (k * x).sin() * (k * z).cos()
}

/// Triangle meshes' benchmark: a 100 × 100 heightfield of 1 m cells (20,000 triangles,
/// [`terrain_height`]) as one static mesh body (the first body), and `n` bodies — cubes of
/// 0.8 m and 32-point random hulls of radius 0.45 m, alternating — in a grid 1.2 m apart,
/// 3 m above the hills, dropped onto it (Box3D's and rapier's heightfield benchmarks).
pub fn heightfield_pile(n: usize, settings: Settings) -> World {
    let mut w = World::new(GRAVITY, settings);
    let mesh = crate::physics::mesh::generate::heightfield(100, 100, 1.0, terrain_height).expect("terrain");
    w.add_body(BodyDesc::new("terrain", Shape::Mesh(Arc::new(mesh)), Vec3::ZERO).fixed()).expect("terrain");
    let cube = Shape::cuboid(Vec3::splat(0.4)).expect("box");
    let side = ((n as f32).sqrt().ceil() as usize).max(1);
    for i in 0..n {
        let (gx, gz) = ((i % side) as f32, ((i / side) % side) as f32);
        let layer = (i / (side * side)) as f32;
        let (x, z) = ((gx - (side - 1) as f32 * 0.5) * 1.2, (gz - (side - 1) as f32 * 0.5) * 1.2);
        let p = Vec3::new(x, terrain_height(x, z) + 3.0 + layer * 1.2, z);
        let shape = if i % 2 == 0 {
            cube.clone()
        } else {
            Shape::Hull(Arc::new(Hull::random(32, 0.45, 500 + i as u64).expect("random hull")))
        };
        w.add_body(BodyDesc::new(format!("d{i}"), shape, p).with_rotation(Quat::from_rotation_y(i as f32 * 0.7)))
            .expect("body");
    }
    w
}

/// Spheres (radius 0.4 m, 1 m apart) on an `n × n` grid in the vertical x–y plane, each
/// joined by a ball joint to its right and lower neighbour at the midpoint between them
/// (`(2n−1)·(n−1)` joints: none between two static bodies); the top row is static, so the net hangs under gravity and every
/// column carries the weight below it. No ground: the only constraints are the joints.
/// Bodies are added row by row from the top (`grid{row}_{col}`).
pub fn joint_grid(n: usize, settings: Settings) -> World {
    let mut w = World::new(GRAVITY, settings);
    let ball = Shape::Sphere { radius: 0.4 };
    let at = |row: usize, col: usize| Vec3::new(col as f32 - (n - 1) as f32 * 0.5, 1.0 + (n - 1 - row) as f32, 0.0);
    for row in 0..n {
        for col in 0..n {
            let d = BodyDesc::new(format!("grid{row}_{col}"), ball.clone(), at(row, col));
            w.add_body(if row == 0 { d.fixed() } else { d }).expect("sphere");
        }
    }
    let index = |row: usize, col: usize| (row * n + col) as u32;
    for row in 0..n {
        for col in 0..n {
            let mut join = |r: usize, c: usize| {
                let anchor = (at(row, col) + at(r, c)) * 0.5;
                let name = format!("j{row}_{col}-{r}_{c}");
                w.add_joint(JointDesc::new(name, JointKind::Ball, index(row, col), index(r, c), anchor))
                    .expect("joint");
            };
            if col + 1 < n && row > 0 {
                join(row, col + 1);
            }
            if row + 1 < n {
                join(row + 1, col);
            }
        }
    }
    w
}

fn grid_point(i: usize, side: usize) -> Vec3 {
    let (x, z, y) = (i % side, (i / side) % side, i / (side * side));
    let c = (side - 1) as f32 * 0.55;
    Vec3::new(x as f32 * 1.1 - c, 1.0 + y as f32 * 1.1, z as f32 * 1.1 - c)
}

/// The hull of 20 random points on a sphere of radius 0.5 m (all 20 are vertices).
pub fn hull20(seed: u64) -> Shape {
    let mut rng = crate::physics::hull::builders::SplitMix64(seed);
    let pts: Vec<Vec3> = (0..20)
        .map(|_| Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5).normalize() * 0.5)
        .collect();
    Shape::Hull(Arc::new(Hull::from_points(&pts).expect("20 points on a sphere")))
}

/// Pose of B (rotation `qb`, on the ray from the origin along unit `dir`) at which the SAT
/// separation from A at `xa` equals `target` (m), found by bisection over [0, 4] m.
pub fn place_at_separation(a: &Shape, xa: &Iso, b: &Shape, qb: Quat, dir: Vec3, target: f32) -> Iso {
    use crate::physics::collide::sat::{sat, EdgeSoa};
    let (ha, hb) = (a.hull().expect("hull shape"), b.hull().expect("hull shape"));
    let mut soa = EdgeSoa::default();
    let (mut lo, mut hi) = (0.0f32, 4.0f32);
    for _ in 0..50 {
        let mid = 0.5 * (lo + hi);
        let rel = Iso::relative(xa, &Iso::new(dir * mid, qb));
        if sat(ha, hb, &rel, f32::INFINITY, &mut soa).separation() > target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Iso::new(dir * 0.5 * (lo + hi), qb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_layout() {
        let s = Settings::default();
        assert_eq!(pyramid(20, s).bodies().len(), 1 + 210);
        let w = box_pile(1000, s);
        assert_eq!(w.bodies().len(), 1 + 4 + 1000);
        // Ten layers of 10×10: the highest box starts at y = 1 + 9·1.1.
        let top = w.bodies().iter().map(|b| b.pose.pos.y).fold(f32::MIN, f32::max);
        assert!((top - (1.0 + 9.0 * 1.1)).abs() < 1e-4, "{top}");
        assert_eq!(hull_pile(64, s).bodies().len(), 1 + 4 + 64);
        assert_eq!(hull20(1).hull().unwrap().vertices().len(), 20);
    }

    #[test]
    fn placement_hits_the_requested_separation() {
        // Two axis-aligned unit cubes along +Y: separation = distance − 1 exactly.
        let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        let x = place_at_separation(&cube, &Iso::IDENTITY, &cube, Quat::IDENTITY, Vec3::Y, -0.15);
        assert!((x.pos.y - 0.85).abs() < 1e-5, "{:?}", x.pos);
    }
}
