//! Narrow-phase adapters: one manifold between two shapes through contactlab
//! (`collide`), parry3d (`DefaultQueryDispatcher::contact_manifold_convex_convex`) and
//! box3d-rust (`collide_hulls`), with a cold and a warm mode.
//!
//! *Cold*: every call starts from nothing (fresh SAT cache / empty manifold).
//! *Warm*: the engine keeps what it cached from the previous call, and B moves between
//! calls by [`wobble`]: 2 mm and 0.02 rad (1.15°) per call, which is above parry's
//! same-pose thresholds (1 mm, 1°), so every engine recomputes the manifold.

use crate::{box3d_hull, bq, bv};
use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use contactlab::physics::{Iso, Shape};
use contactlab::scene::stock::{hull20, place_at_separation};
use glam::{Quat, Vec3};
use parry3d::query::{ContactManifold, DefaultQueryDispatcher, PersistentQueryDispatcher};

/// Speculative distance given to every engine (m): contactlab's default margin.
pub const PREDICTION: f32 = 0.02;

/// One benchmark pair: shapes and poses.
pub struct Pair {
    /// "box-box/shallow" etc.
    pub label: String,
    /// Shape A.
    pub a: Shape,
    /// Shape B.
    pub b: Shape,
    /// Pose of A.
    pub xa: Iso,
    /// Pose of B.
    pub xb: Iso,
}

/// Box–box and hull20–hull20 pairs, each separated (+0.2 m), shallow (−0.01 m) and deep
/// (−0.15 m) by the SAT separation; the same poses as `benches/narrowphase.rs`.
pub fn pairs() -> Vec<Pair> {
    let qa = Quat::from_rotation_y(0.3) * Quat::from_rotation_x(0.2);
    let qb = Quat::from_rotation_z(0.7) * Quat::from_rotation_y(-0.4);
    let xa = Iso::new(Vec3::ZERO, qa);
    let dir = Vec3::new(0.1, 1.0, 0.05).normalize();
    let cube = Shape::cuboid(Vec3::splat(0.5)).expect("box");
    let mut out = Vec::new();
    for (name, a, b) in [("box-box", cube.clone(), cube), ("hull20-hull20", hull20(1), hull20(2))] {
        for (regime, target) in [("separated", 0.2f32), ("shallow", -0.01), ("deep", -0.15)] {
            let xb = place_at_separation(&a, &xa, &b, qb, dir, target);
            out.push(Pair { label: format!("{name}/{regime}"), a: a.clone(), b: b.clone(), xa, xb });
        }
    }
    out
}

/// B's pose for call `k` in warm mode: a triangle wave of 0…3 steps of 2 mm along (1, 0, −1)/√2
/// and 0.02 rad about Y, so consecutive calls always differ by one step.
pub fn wobble(xb: &Iso, k: u32) -> Iso {
    let t = [0.0, 1.0, 2.0, 3.0, 2.0, 1.0][(k % 6) as usize];
    let d = Vec3::new(1.0, 0.0, -1.0).normalize() * (0.002 * t);
    Iso::new(xb.pos + d, Quat::from_rotation_y(0.02 * t) * xb.rot)
}

/// A narrow-phase engine under test.
pub trait Narrow {
    /// Engine name.
    fn name(&self) -> &'static str;
    /// One manifold for B at `xb`; returns the number of points.
    fn run(&mut self, xb: &Iso, cold: bool) -> usize;
}

/// contactlab's `collide`.
pub struct ContactlabNarrow {
    a: Shape,
    b: Shape,
    xa: Iso,
    cfg: CollideConfig,
    cache: SatCache,
    scratch: Scratch,
    m: Manifold,
}

impl ContactlabNarrow {
    /// For `pair`.
    pub fn new(pair: &Pair) -> Self {
        Self {
            a: pair.a.clone(),
            b: pair.b.clone(),
            xa: pair.xa,
            cfg: CollideConfig { margin: PREDICTION, ..Default::default() },
            cache: SatCache::Empty,
            scratch: Scratch::default(),
            m: Manifold::default(),
        }
    }
}

impl Narrow for ContactlabNarrow {
    fn name(&self) -> &'static str {
        "contactlab"
    }
    fn run(&mut self, xb: &Iso, cold: bool) -> usize {
        if cold {
            self.cache = SatCache::Empty;
        }
        collide(&self.a, &self.xa, &self.b, xb, &self.cfg, &mut self.cache, &mut self.scratch, &mut self.m);
        self.m.points.len()
    }
}

fn parry_shape(s: &Shape) -> Box<dyn parry3d::shape::Shape> {
    match s {
        Shape::Box { half_extents: e, .. } => {
            Box::new(parry3d::shape::Cuboid::new(parry3d::math::Vector::new(e.x, e.y, e.z)))
        }
        Shape::Hull(h) => {
            let pts: Vec<_> = h.vertices().iter().map(|v| parry3d::math::Vector::new(v.x, v.y, v.z)).collect();
            Box::new(parry3d::shape::ConvexPolyhedron::from_convex_hull(&pts).expect("parry hull"))
        }
        _ => panic!("boxes and hulls only"),
    }
}

fn parry_pose(x: &Iso) -> parry3d::math::Pose {
    let q = x.rot;
    parry3d::math::Pose::from_parts(
        parry3d::math::Vector::new(x.pos.x, x.pos.y, x.pos.z),
        parry3d::math::Rotation::from_xyzw(q.x, q.y, q.z, q.w),
    )
}

/// parry3d's default dispatcher (cuboid–cuboid SAT; GJK/EPA + polygonal features for hulls).
pub struct ParryNarrow {
    a: Box<dyn parry3d::shape::Shape>,
    b: Box<dyn parry3d::shape::Shape>,
    xa: Iso,
    m: ContactManifold<(), ()>,
}

impl ParryNarrow {
    /// For `pair`.
    pub fn new(pair: &Pair) -> Self {
        Self { a: parry_shape(&pair.a), b: parry_shape(&pair.b), xa: pair.xa, m: ContactManifold::new() }
    }
}

impl Narrow for ParryNarrow {
    fn name(&self) -> &'static str {
        "parry3d"
    }
    fn run(&mut self, xb: &Iso, cold: bool) -> usize {
        if cold {
            self.m = ContactManifold::new();
        }
        let pos12 = parry_pose(&Iso::relative(&self.xa, xb));
        DefaultQueryDispatcher
            .contact_manifold_convex_convex(&pos12, &*self.a, &*self.b, None, None, PREDICTION, &mut self.m)
            .expect("supported pair");
        // Count only points within the shared speculative distance, as the others do.
        self.m.points.iter().filter(|p| p.dist <= PREDICTION).count()
    }
}

/// box3d-rust's `collide_hulls` (Box3D's SAT with its `SatCache`).
pub struct Box3dNarrow {
    a: box3d_rust::hull::HullData,
    b: box3d_rust::hull::HullData,
    xa: Iso,
    cache: box3d_rust::manifold::SatCache,
    m: Box<box3d_rust::manifold::LocalManifold>,
}

impl Box3dNarrow {
    /// For `pair`.
    pub fn new(pair: &Pair) -> Self {
        Self {
            a: box3d_hull(&pair.a),
            b: box3d_hull(&pair.b),
            xa: pair.xa,
            cache: Default::default(),
            m: Box::default(),
        }
    }
}

impl Narrow for Box3dNarrow {
    fn name(&self) -> &'static str {
        "box3d-rust"
    }
    fn run(&mut self, xb: &Iso, cold: bool) -> usize {
        if cold {
            self.cache = Default::default();
        }
        let rel = Iso::relative(&self.xa, xb);
        let t = box3d_rust::math_functions::Transform { p: bv(rel.pos), q: bq(rel.rot) };
        self.m.point_count = 0;
        box3d_rust::manifold::collide_hulls(
            &mut self.m,
            box3d_rust::constants::MAX_MANIFOLD_POINTS as i32,
            &self.a,
            &self.b,
            t,
            &mut self.cache,
        );
        self.m.point_count as usize
    }
}

/// The three engines for `pair`.
pub fn engines(pair: &Pair) -> Vec<Box<dyn Narrow>> {
    vec![Box::new(ContactlabNarrow::new(pair)), Box::new(ParryNarrow::new(pair)), Box::new(Box3dNarrow::new(pair))]
}
