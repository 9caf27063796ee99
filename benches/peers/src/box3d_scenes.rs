//! Box3D's own benchmark scenes (`shared/benchmarks.c` in erincatto/box3d), built as
//! contactlab worlds so every engine of the comparison steps them through the same mirror:
//!
//! - [`many_pyramids`]: `CreateManyPyramids`, 14 × 14 pyramids of 55 unit cubes (a base of
//!   10), 10,780 cubes of density 100 on a ground slab of half extents 77 × 1 × 77. Box3D's
//!   runner steps it 100 times.
//! - [`convex_pile`]: `CreateConvexPile` (ported there from PEEL), 8 × 8 columns of 80 hulls,
//!   5,120 copies of one hull of 32 random points on a sphere of radius 2 (PEEL's random
//!   generator and seed, so the hull is Box3D's), density 1, dropped into a pile on a ground
//!   slab of half extents 250 × 1 × 250. Box3D's runner steps it 500 times.
//!
//! - [`large_world`]: `CreateLargeWorld` and `StepLargeWorld`, a floor of `side × side`
//!   static slabs (10 m square, half a metre thick; Box3D's runner has 1,000 × 1,000) and 100
//!   balls of radius 0.5 m, density 1,000, on a 10 × 10 grid over the inner 80 % of the
//!   floor, 1.5 m up. Box3D drops them one every 5 steps; the mirror has no bodies created
//!   while it runs, so here they are all there from the start. What the scene measures is
//!   the same: a step with a handful of moving bodies in a world of very many static ones.
//!   Box3D's runner steps it 500 times.
//!
//! - [`junkyard`]: `CreateJunkyard` and `StepJunkyard`, 21 × 21 × 24 = 10,584 rocks (Box3D's
//!   `b3CreateRock(1.5)`: the hull of 10 points on a Fibonacci lattice of a sphere of radius
//!   1.5 m) dropped from 25 to 117 m into a walled yard (a floor of half extents 120 × 1 ×
//!   120 m, walls 16 m high round a square of 100 m), and a *kinematic* cylinder (radius 4 m,
//!   24 m high, 16 sides) pushed round a circle of radius 35 m at 6° a second
//!   ([`JunkyardDrive`]). Box3D's ground is one body of five boxes; here (one shape a body)
//!   it is five static bodies of the same boxes. Box3D's runner steps it 500 times.
//!
//! - [`washer`]: `CreateWasher`, a *kinematic* drum — one body of 40 hulls (Box3D's 40
//!   shapes on one body; here one compound): 36 rim segments between radii 16 and 18 m,
//!   20 m long (z from −10 to 10 m, both ends open), and 4 vanes between radii 14 and 16 m —
//!   turning about z at 25° a second with its centre 21 m up, and 20 × 20 × 20 = 8,000
//!   cubes of half extent 0.2 m tumbling inside it, on a ground slab of half extents 60 × 1
//!   × 60 m. The drum's constant velocity and spin are its own (no per-step drive). Box3D's
//!   runner steps it 1,000 times.
//!
//! - [`trees`]: `CreateTrees`, 50 trees, each one body of 22 stacked six-sided cylinders
//!   (one compound here), set toppling to either side onto a static wave mesh
//!   ([`wave_mesh`]; 150 × 200 cells of 1 m for Box3D's `trees100`) and rolling over it,
//!   with friction 0.9 and rolling resistance 0.05 (rapier3d has no rolling resistance:
//!   there the trees roll freely). Box3D's runner steps it 500 times.
//!
//! Box3D steps at 60 Hz with 4 substeps; its gravity is −10 m/s². Friction stays the
//! comparison's common 0.5 (Box3D's default is 0.6), except in the trees, which keep
//! Box3D's own (0.9 on the trees, its default 0.6 on the mesh).

use contactlab::physics::mesh::TriMesh;
use contactlab::physics::{BodyDesc, Compound, Hull, Iso, Settings, Shape, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

/// `CreateManyPyramids`: `rows` × `columns` pyramids of `base` cubes at the bottom
/// (`base·(base+1)/2` each), cube half extent 0.5 m, density 100.
pub fn many_pyramids(rows: usize, columns: usize, base: usize, settings: Settings) -> World {
    let extent = 0.5f32;
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let ground_extent = extent * columns as f32 * (base as f32 + 1.0);
    let ground = Shape::cuboid(Vec3::new(ground_extent, 1.0, ground_extent)).expect("ground");
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -1.0, 0.0)).fixed()).expect("ground");
    let cube = Shape::cuboid(Vec3::splat(extent)).expect("cube");
    let base_width = 2.0 * extent * base as f32;
    let mut base_z = -ground_extent + 2.0 * extent;
    let delta_z = 2.0 * (ground_extent - 2.0 * extent) / (rows as f32 - 1.0).max(1.0);
    for _ in 0..rows {
        for j in 0..columns {
            let centre_x = -ground_extent + j as f32 * (base_width + 2.0 * extent) + 2.0 * extent;
            for i in 0..base {
                let y = (2.0 * i as f32 + 1.0) * extent;
                for k in i..base {
                    let x = (i as f32 + 1.0) * extent + 2.0 * (k - i) as f32 * extent + centre_x - 0.5;
                    let mut desc =
                        BodyDesc::new(format!("c{}", w.bodies().len()), cube.clone(), Vec3::new(x, y, base_z));
                    desc.density = 100.0;
                    w.add_body(desc).expect("cube");
                }
            }
        }
        base_z += delta_z;
    }
    w
}

/// PEEL's `BasicRandom` as Box3D's convex pile keeps it: a float in [−0.5, 0.5].
struct PeelRandom(u32);

impl PeelRandom {
    fn float(&mut self) -> f32 {
        self.0 = self.0.wrapping_mul(2_147_001_325).wrapping_add(715_136_305);
        (self.0 & 0xffff) as f32 / 65535.0 - 0.5
    }

    /// A uniform direction: rejection-sampled in the ball of radius 0.5, then normalised.
    fn direction(&mut self) -> Vec3 {
        loop {
            let p = Vec3::new(self.float(), self.float(), self.float());
            if p.length_squared() <= 0.25 {
                return p.normalize();
            }
        }
    }
}

/// `CreateConvexPile`: `count_x` × `count_z` columns of `layers` copies of the hull of 32
/// random points (seed 42) on a sphere of radius 2, 4 m apart, density 1.
pub fn convex_pile(count_x: usize, count_z: usize, layers: usize, settings: Settings) -> World {
    let amplitude = 2.0f32;
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let ground = Shape::cuboid(Vec3::new(250.0, 1.0, 250.0)).expect("ground");
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -1.0, 0.0)).fixed()).expect("ground");
    let mut rng = PeelRandom(42);
    let points: Vec<Vec3> = (0..32).map(|_| amplitude * rng.direction()).collect();
    let hull = Shape::Hull(Arc::new(Hull::from_points(&points).expect("the pile's hull")));
    let scatter = 2.0 * amplitude;
    for layer in 0..layers {
        for z in 0..count_z {
            for x in 0..count_x {
                let at = Vec3::new(
                    (x as f32 - 0.5 * count_x as f32) * scatter,
                    amplitude + 2.0 * amplitude * layer as f32,
                    (z as f32 - 0.5 * count_z as f32) * scatter,
                );
                let mut desc = BodyDesc::new(format!("h{}", w.bodies().len()), hull.clone(), at);
                desc.density = 1.0;
                w.add_body(desc).expect("hull");
            }
        }
    }
    w
}

/// `CreateLargeWorld`'s floor: `side × side` static slabs of half extents 5 × 0.25 × 5 m
/// centred on the origin (Box3D's cell of 10 m).
pub fn large_world_floor(side: usize, settings: Settings) -> World {
    let cell = 10.0f32;
    let half_span = 0.5 * cell * side as f32;
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let slab = Shape::cuboid(Vec3::new(0.5 * cell, 0.25, 0.5 * cell)).expect("slab");
    for i in 0..side {
        let x = -half_span + (i as f32 + 0.5) * cell;
        for j in 0..side {
            let z = -half_span + (j as f32 + 0.5) * cell;
            w.add_body(BodyDesc::new(format!("slab{i}_{j}"), slab.clone(), Vec3::new(x, 0.0, z)).fixed())
                .expect("slab");
        }
    }
    w
}

/// `StepLargeWorld`'s balls for a floor of `side × side` slabs, in the order it drops them:
/// `balls` balls of radius 0.5 m (density 1,000) 1.5 m up, on Box3D's grid (the smallest
/// square that holds them) over the inner 80 % of the floor.
pub fn large_world_balls(side: usize, balls: usize) -> Vec<BodyDesc> {
    let half_span = 5.0 * side as f32;
    let grid = (1..).find(|g| g * g >= balls).unwrap_or(1);
    let inset = 0.1 * 2.0 * half_span;
    let usable = 2.0 * half_span - 2.0 * inset;
    (0..balls)
        .map(|k| {
            let (gi, gj) = (k % grid, k / grid);
            let x = -half_span + inset + (gi as f32 + 0.5) * (usable / grid as f32);
            let z = -half_span + inset + (gj as f32 + 0.5) * (usable / grid as f32);
            let mut desc = BodyDesc::new(format!("ball{k}"), Shape::Sphere { radius: 0.5 }, Vec3::new(x, 1.5, z));
            desc.density = 1000.0;
            desc
        })
        .collect()
}

/// `CreateLargeWorld` with `StepLargeWorld`'s balls all there from the start (the rows drop
/// them as Box3D does: `crate::Drops`).
pub fn large_world(side: usize, balls: usize, settings: Settings) -> World {
    let mut w = large_world_floor(side, settings);
    for desc in large_world_balls(side, balls) {
        w.add_body(desc).expect("ball");
    }
    w
}

/// Box3D's `b3CreateRock(radius)`: the hull of 10 points on a Fibonacci lattice of the
/// sphere of `radius` (z from 0.9 down to −0.9 in steps of 0.2, each point turned by the
/// golden angle 2π/φ from the last).
pub fn rock(radius: f32) -> Hull {
    let phi = 0.5 * (1.0 + 5f32.sqrt());
    let theta = 2.0 * std::f32::consts::PI / phi;
    let points: Vec<Vec3> = (0..10)
        .map(|i| {
            let z = 1.0 - (2.0 * i as f32 + 1.0) / 10.0;
            let rxy = (1.0 - z * z).sqrt();
            let a = theta * i as f32;
            radius * Vec3::new(rxy * a.cos(), rxy * a.sin(), z)
        })
        .collect();
    Hull::from_points(&points).expect("the rock's hull")
}

/// Where `CreateJunkyard` puts the pusher's centre: 35 m out along x, half its 24 m up.
const PUSHER_START: Vec3 = Vec3::new(35.0, 12.0, 0.0);

/// `CreateJunkyard`: the ground and walls (five static boxes), 21 × 21 × 24 rocks 4 m apart
/// from (−40, 25, −40) m, density 1,000, and last the kinematic pusher, moving at the
/// drive's first velocity ([`JunkyardDrive::velocity`]).
pub fn junkyard(settings: Settings) -> World {
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    // Box3D's ground body sits at y = −1 with its boxes offset in its frame.
    let boxes = [
        ("floor", Vec3::new(120.0, 1.0, 120.0), Vec3::new(0.0, -1.0, 0.0)),
        ("wall +x", Vec3::new(1.0, 8.0, 50.0), Vec3::new(50.0, 7.0, 0.0)),
        ("wall -x", Vec3::new(1.0, 8.0, 50.0), Vec3::new(-50.0, 7.0, 0.0)),
        ("wall +z", Vec3::new(50.0, 8.0, 1.0), Vec3::new(0.0, 7.0, 50.0)),
        ("wall -z", Vec3::new(50.0, 8.0, 1.0), Vec3::new(0.0, 7.0, -50.0)),
    ];
    for (name, half, at) in boxes {
        w.add_body(BodyDesc::new(name, Shape::cuboid(half).expect("a wall"), at).fixed()).expect("a wall");
    }
    let rock = Shape::Hull(Arc::new(rock(1.5)));
    for y in 0..24 {
        for x in 0..=20 {
            for z in 0..=20 {
                let at = Vec3::new(-40.0 + 4.0 * x as f32, 4.0 * y as f32 + 25.0, -40.0 + 4.0 * z as f32);
                w.add_body(BodyDesc::new(format!("rock{}", w.bodies().len()), rock.clone(), at)).expect("a rock");
            }
        }
    }
    let pusher = Shape::Hull(Arc::new(Hull::prism(4.0, 12.0, 16).expect("the pusher")));
    let v = JunkyardDrive::new(w.bodies().len()).velocity(0);
    w.add_body(BodyDesc::new("pusher", pusher, PUSHER_START).kinematic(v, Vec3::ZERO)).expect("the pusher");
    w
}

/// `StepJunkyard`: before each step the pusher is given the velocity that takes it to the
/// next point of its circle (radius 35 m about the yard's centre, −0.1° a step), as
/// Box3D's `b3Body_SetTargetTransform` does. Every engine gets the same velocities.
#[derive(Clone, Copy, Debug)]
pub struct JunkyardDrive {
    /// The pusher's body index.
    pub body: usize,
}

impl JunkyardDrive {
    /// The drive of the pusher at index `body`.
    pub fn new(body: usize) -> Self {
        Self { body }
    }

    /// Where the circle puts the pusher's centre before step `step` (the first is 0).
    pub fn target(step: usize) -> Vec3 {
        let (radius, degrees) = (PUSHER_START.x, -0.1 * step as f32);
        let a = degrees.to_radians();
        Vec3::new(radius * a.cos(), PUSHER_START.y, radius * a.sin())
    }

    /// The pusher's velocity through step `step`: from this step's point to the next one's.
    pub fn velocity(&self, step: usize) -> Vec3 {
        (Self::target(step + 1) - Self::target(step)) / crate::DT
    }
}

/// Where `CreateWasher` puts the drum's centre (its axis is z).
pub const WASHER_CENTRE: Vec3 = Vec3::new(0.0, 21.0, 0.0);

/// The washer drum's outer radius and half length (m): a cube whose centre is farther from
/// the drum's axis, or farther along it, is out of the drum ([`crate::out_of_washer`]).
pub const WASHER_OUTER: (f32, f32) = (18.0, 10.0);

/// `CreateWasher`'s drum, as one compound: for each of 36 steps of 10° round z (`u1` to
/// `u2`, turned step by step as Box3D turns them), the rim hull of 8 points between radii 16
/// and 18 m, its ends turned out by a tenth of the step each side (Box3D's `qo`: −1° before
/// `u1`, +1° after `u2`, so neighbouring segments overlap by 2°), and on every ninth step a
/// vane hull between radii 14 and 16 m from `u1` to `u2`; z from −10 to 10 m. Each hull is
/// centred on the mean of its points, at that point in the drum's frame.
pub fn washer_drum() -> Compound {
    let (r0, r1, r2) = (14.0f32, 16.0f32, 18.0f32);
    let (nd, pd) = (Vec3::new(0.0, 0.0, -10.0), Vec3::new(0.0, 0.0, 10.0));
    let angle = std::f32::consts::PI / 18.0;
    let q = Quat::from_axis_angle(Vec3::Z, angle);
    let qo = Quat::from_axis_angle(Vec3::Z, 0.1 * angle);
    // One hull of the 8 corners `r_in·a`, `r_out·a`, `r_in·b`, `r_out·b` at both ends.
    let slab = |r_in: f32, r_out: f32, a: Vec3, b: Vec3| {
        let points = [
            nd + r_in * a,
            nd + r_out * a,
            nd + r_in * b,
            nd + r_out * b,
            pd + r_in * a,
            pd + r_out * a,
            pd + r_in * b,
            pd + r_out * b,
        ];
        let centre = points.iter().sum::<Vec3>() / points.len() as f32;
        let local: Vec<Vec3> = points.iter().map(|p| *p - centre).collect();
        let hull = Hull::from_points(&local).expect("a washer hull");
        (Iso::new(centre, Quat::IDENTITY), Shape::Hull(Arc::new(hull)))
    };
    let mut children = Vec::new();
    let mut u1 = Vec3::X;
    for i in 0..36 {
        let u2 = if i == 35 { Vec3::X } else { q * u1 };
        children.push(slab(r1, r2, qo.inverse() * u1, qo * u2));
        if i % 9 == 0 {
            children.push(slab(r0, r1, u1, u2));
        }
        u1 = u2;
    }
    Compound::new(children).expect("the washer drum")
}

/// `CreateWasher`: the ground (a static slab of half extents 60 × 1 × 60 m at y = −1 m),
/// the kinematic drum ([`washer_drum`]) at [`WASHER_CENTRE`] turning at 25° a second about
/// z and drifting at (0.001, −0.002, 0) m/s as Box3D's does, then 20 × 20 × 20 cubes of
/// half extent 0.2 m, 0.8 m apart from (−8, 13, −8) m (x outermost, z innermost, Box3D's
/// order), of the comparison's default density.
pub fn washer(settings: Settings) -> World {
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let ground = Shape::cuboid(Vec3::new(60.0, 1.0, 60.0)).expect("ground");
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -1.0, 0.0)).fixed()).expect("ground");
    let spin = Vec3::new(0.0, 0.0, std::f32::consts::PI / 180.0 * 25.0);
    let drum = Shape::Compound(Arc::new(washer_drum()));
    let desc = BodyDesc::new("drum", drum, WASHER_CENTRE).kinematic(Vec3::new(0.001, -0.002, 0.0), spin);
    w.add_body(desc).expect("the drum");
    let (count, a) = (20, 0.2f32);
    let cube = Shape::cuboid(Vec3::splat(a)).expect("cube");
    // Box3D's sums, step by step (its floats exactly).
    let mut x = -2.0 * a * count as f32;
    for _ in 0..count {
        let mut y = -2.0 * a * count as f32 + WASHER_CENTRE.y;
        for _ in 0..count {
            let mut z = -2.0 * a * count as f32;
            for _ in 0..count {
                let at = Vec3::new(x, y, z);
                w.add_body(BodyDesc::new(format!("c{}", w.bodies().len()), cube.clone(), at)).expect("cube");
                z += 4.0 * a;
            }
            y += 4.0 * a;
        }
        x += 4.0 * a;
    }
    w
}

/// Box3D's `b3CreateWaveMesh`: a grid of `x_count × z_count` square cells of side `cell`,
/// centred on the origin, each cut into two triangles, the height of vertex (i, k)
/// `amplitude · sin(2π·column_hz·cell·i) · sin(2π·row_hz·cell·k)` (i along x, k along z;
/// Box3D's vertex and triangle order).
pub fn wave_mesh(x_count: usize, z_count: usize, cell: f32, amplitude: f32, row_hz: f32, column_hz: f32) -> TriMesh {
    let tau = 2.0 * std::f32::consts::PI;
    let (omega_z, omega_x) = (tau * row_hz * cell, tau * column_hz * cell);
    let mut vertices = Vec::with_capacity((x_count + 1) * (z_count + 1));
    // Box3D's running sums, step by step (its floats exactly).
    let mut x = -0.5 * (cell * x_count as f32);
    for i in 0..=x_count {
        let row = (omega_x * i as f32).sin();
        let mut z = -0.5 * (cell * z_count as f32);
        for k in 0..=z_count {
            vertices.push(Vec3::new(x, amplitude * row * (omega_z * k as f32).sin(), z));
            z += cell;
        }
        x += cell;
    }
    let mut triangles = Vec::with_capacity(2 * x_count * z_count);
    let column = z_count as u32 + 1;
    for i in 0..x_count as u32 {
        for k in 0..z_count as u32 {
            let a = k + column * i;
            let (b, c) = (a + 1, a + 1 + column);
            triangles.push([a, b, c]);
            triangles.push([c, c - 1, a]);
        }
    }
    TriMesh::new(vertices, triangles).expect("the wave mesh")
}

/// Box3D's tree: one body of 22 stacked six-sided cylinders (`b3CreateCylinder(l + 2r, r,
/// y − r, 6)`), the first of radius 0.75 m from y = 0.25 m, each 1.5 m plus its diameter
/// tall and 0.95 times as wide as the one below (a trunk up to 54 m), in the body's frame.
pub fn tree() -> Compound {
    let (mut y, mut r, l) = (1.0f32, 0.75f32, 1.5f32);
    let mut children = Vec::new();
    for _ in 0..22 {
        let height = l + 2.0 * r;
        let hull = Hull::prism(r, 0.5 * height, 6).expect("a trunk segment");
        children
            .push((Iso::new(Vec3::new(0.0, y - r + 0.5 * height, 0.0), Quat::IDENTITY), Shape::Hull(Arc::new(hull))));
        y += height;
        r *= 0.95;
    }
    Compound::new(children).expect("a tree")
}

/// `CreateTrees(scale)` (Box3D's `trees100` at scale 1, `trees50` at 2, `trees25` at 4): a
/// static wave mesh of `150·scale × 200·scale` cells of `1/scale` m (amplitude 0.4 m, 0.05
/// and 0.1 waves a metre along z and x), and 50 trees ([`tree`]) standing 3 m apart along z
/// from z = −70 m, density 1, friction 0.9 and rolling resistance 0.05 (the mesh keeps
/// Box3D's default friction, 0.6), each set turning about z at ±0.5 rad/s (alternating, and
/// scaled from 0.5 to 0.99 along the row) with its centre of mass moving with the turn, so
/// they topple to either side and roll over the waves.
pub fn trees(scale: usize, settings: Settings) -> World {
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), settings);
    let cell = 1.0 / scale as f32;
    let ground = Shape::Mesh(Arc::new(wave_mesh(150 * scale, 200 * scale, cell, 0.4, 0.05, 0.1)));
    w.add_body(BodyDesc::new("ground", ground, Vec3::ZERO).fixed().with_material(0.6, 0.0)).expect("the ground");
    let tree = Shape::Compound(Arc::new(tree()));
    let (count, mut spin, mut z) = (50, -0.5f32, -70.0f32);
    for k in 0..count {
        let at = Vec3::new(0.0, 1.0, z);
        let d = BodyDesc { density: 1.0, ..BodyDesc::new(format!("tree{k}"), tree.clone(), at) }
            .with_material(0.9, 0.0)
            .with_rolling_resistance(0.05);
        let h = w.add_body(d).expect("a tree");
        let omega = Vec3::new(0.0, 0.0, (0.5 + 0.5 * k as f32 / count as f32) * spin);
        let b = w.body_mut(h).expect("the tree just added");
        b.angular_velocity = omega;
        b.velocity = omega.cross(b.pose.pos - at);
        z += 3.0;
        spin = -spin;
    }
    w
}
