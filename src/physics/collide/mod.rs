//! Narrow phase: contact manifolds for every shape pair.
//!
//! # Conventions (stated once, used everywhere)
//! - The manifold normal is a world-space unit vector pointing **from shape A to shape B**.
//!   Pushing B along `+normal` and A along `−normal` separates them.
//! - `depth` is penetration along the normal: positive when the shapes overlap, negative
//!   for *speculative* points that are still apart by less than the margin.
//! - A contact point sits **halfway between the two surfaces** (Box3D's choice): it does not
//!   jump when the reference face switches from A to B, and both bodies see the same lever.
//!
//! # Pipeline for two hulls (Gregorius, GDC 2013 and 2015)
//! 1. Re-check the cached axis of last step ([`sat::SatCache`]); reuse it when still valid.
//! 2. Face queries of A, then of B ([`sat::query_faces_bounded`]): one support call per
//!    face, except faces whose inscribed-sphere bound cannot beat the best so far.
//! 3. Edge queries only among edges whose Gauss-map arc can beat the best face at all
//!    ([`sat::sat_culled`]), and of those pairs only the ones whose arcs cross
//!    ([`sat::is_minkowski_face`]); the rest cannot carry the minimum and are pruned. The
//!    on-demand debug records ([`crate::physics::debug`]) use the unculled [`sat::sat`], so
//!    every SAT query is shown; a watched pair's record keeps the result the step computed
//!    (culled). Two boxes take the 15-axis box SAT instead ([`sat_box`]), which names the
//!    same features.
//! 4. Prefer faces over edges with relative + absolute tolerances so the type does not
//!    flicker. Face contact: clip the incident face against the reference face's side planes
//!    ([`clip`]), keep points by depth, reduce to four. Edge contact: the normal is the
//!    edge pair's axis, and the two edges' faces that face each other along it are clipped
//!    the same way, along the axis (parry's polygonal features do the same), so a pair
//!    resting on nearly parallel faces keeps up to four points; one point between the
//!    edges' closest points where a face is steeper than 60° to the axis
//!    ([`hull_hull::edge_contact`]).
//!
//! Other pairs (spheres, capsules) live in [`round`], convex shapes against static triangle
//! meshes in [`mesh`], pairs with a compound body child pair by child pair in [`compound`]. Distances between any two shapes (GJK, [`distance`]) and times of
//! impact of moving bodies ([`toi`]) serve continuous collision detection.
//!
//! Limits: a face contact's points are the incident face's, clipped to the reference face.
//! A corner of another face that a fast spin brings down within the step has no speculative
//! point, and can sink for a step before the next manifold holds it: flat hulls of six
//! random points (0.2–0.4 m) dropped 0.4 m onto a box, tumbling at 20–35 rad/s, reached
//! 37 mm for one step. Continuous collision does not step in, since the centre never passes.
//!
//! Debug records of all intermediate results are gathered on demand, for one pair, by
//! [`crate::physics::debug`], outside the step. A watched pair
//! ([`crate::physics::World::set_watched`]) has its record ([`CollideRecord`], [`record`])
//! filled in the step by [`collide_recorded`], as the narrow phase decides it, at the cost
//! of that pair only: an unwatched pair pays one flag test.

pub mod clip;
pub mod compound;
pub mod distance;
pub mod hull_hull;
pub mod mesh;
pub mod record;
pub mod round;
pub mod sat;
pub mod sat_box;
pub mod toi;

use crate::physics::math::Iso;
use crate::physics::shape::Shape;
use arrayvec::ArrayVec;
use glam::Vec3;

pub use record::{CollideRecord, PairPath};
pub use sat::SatCache;

/// Which feature pair produced a manifold's normal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ContactKind {
    /// The normal is A's surface normal (a face of A, or A's curved surface).
    #[default]
    FaceA,
    /// The normal is B's surface normal.
    FaceB,
    /// The normal is the cross product of an edge of A and an edge of B.
    Edge,
}

impl ContactKind {
    /// Trace spelling: `face_a`, `face_b`, `edge`.
    pub fn as_str(self) -> &'static str {
        match self {
            ContactKind::FaceA => "face_a",
            ContactKind::FaceB => "face_b",
            ContactKind::Edge => "edge",
        }
    }
}

/// A key naming the features that produced a contact point; equal across steps while the
/// same features touch, so the solver can carry impulses over (warm starting).
///
/// Layout (Box2D-lite / qu3e style): bits 0–23 incoming edge, 24–47 outgoing edge, bit 48
/// incoming edge is on the reference shape, bit 49 outgoing edge is on the reference shape,
/// bit 50 reference shape is B, bits 56–63 the kind of generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct FeatureId(pub u64);

impl FeatureId {
    /// Generator kinds stored in the top byte.
    pub const CLIP: u64 = 1;
    /// Edge–edge contact.
    pub const EDGE: u64 = 2;
    /// Curved shapes (sphere, capsule): the index is the point's slot.
    pub const ROUND: u64 = 3;

    /// A clip vertex key.
    pub fn clip(in_ref: bool, in_edge: u32, out_ref: bool, out_edge: u32, flipped: bool) -> Self {
        FeatureId(
            (in_edge as u64 & 0xFF_FFFF)
                | ((out_edge as u64 & 0xFF_FFFF) << 24)
                | ((in_ref as u64) << 48)
                | ((out_ref as u64) << 49)
                | ((flipped as u64) << 50)
                | (Self::CLIP << 56),
        )
    }

    /// An edge–edge key.
    pub fn edge(edge_a: u32, edge_b: u32) -> Self {
        FeatureId((edge_a as u64 & 0xFF_FFFF) | ((edge_b as u64 & 0xFF_FFFF) << 24) | (Self::EDGE << 56))
    }

    /// A key for curved-shape contacts (`slot` = 0 or 1, `feature` = face/edge/segment end).
    pub fn round(slot: u32, feature: u32) -> Self {
        FeatureId(slot as u64 | ((feature as u64 & 0xFF_FFFF) << 24) | (Self::ROUND << 56))
    }
}

/// One contact point.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct ContactPoint {
    /// World position, halfway between the surfaces.
    pub position: Vec3,
    /// Penetration along the normal (negative: speculative, still apart).
    pub depth: f32,
    /// Feature key for matching across steps.
    pub id: FeatureId,
}

/// Up to four contact points sharing one normal.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Manifold {
    /// World unit normal from A to B.
    pub normal: Vec3,
    /// Which feature pair produced the normal.
    pub kind: ContactKind,
    /// The points (at most 4).
    pub points: ArrayVec<ContactPoint, 4>,
    /// For a pair with a compound body, the child pair that gave the manifold
    /// (`child_a · count_b + child_b`, [`compound`]); 0 for any other pair.
    pub part: u16,
}

impl Manifold {
    /// Empties the manifold, keeping its storage.
    pub fn clear(&mut self) {
        self.points.clear();
    }

    /// Deepest penetration among the points (−∞ when empty).
    pub fn max_depth(&self) -> f32 {
        self.points.iter().map(|p| p.depth).fold(f32::NEG_INFINITY, f32::max)
    }

    /// Swap the roles of A and B (normal flips; kind FaceA ↔ FaceB).
    pub fn flip(&mut self) {
        self.normal = -self.normal;
        self.kind = match self.kind {
            ContactKind::FaceA => ContactKind::FaceB,
            ContactKind::FaceB => ContactKind::FaceA,
            k => k,
        };
    }
}

/// Tolerances of the narrow phase, and how the pair moves over the coming step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CollideConfig {
    /// Pairs closer than this produce speculative points (m). Box2D v3 uses 4·slop.
    pub margin: f32,
    /// Allowed penetration (m); also the absolute tolerance of the face/edge choice.
    pub slop: f32,
    /// How B moves against A over the coming step, where the caller knows it (the world's
    /// narrow phase does). A mesh pair reduces its candidates first among the points that
    /// touch now *or close within the step* ([`mesh`]); `None`: among those touching now.
    pub motion: Option<PairMotion>,
}

impl Default for CollideConfig {
    fn default() -> Self {
        Self { margin: 0.02, slop: 0.005, motion: None }
    }
}

/// B's motion against A over one step: B's material point at `p` (world frame) moves at
/// `linear + angular × p` relative to A's material point there, for `dt` seconds. Both
/// bodies' velocities are taken as they stand (no forces foreseen).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PairMotion {
    /// The relative velocity field's value at the frame's origin (m/s).
    pub linear: Vec3,
    /// B's angular velocity less A's (rad/s).
    pub angular: Vec3,
    /// The step (s).
    pub dt: f32,
}

impl PairMotion {
    /// The motion of B (`vb`, `wb`, centre `cb`) against A (`va`, `wa`, centre `ca`), each
    /// body's point `p` moving at `v + w × (p − c)`.
    pub fn between(a: (Vec3, Vec3, Vec3), b: (Vec3, Vec3, Vec3), dt: f32) -> PairMotion {
        let ((va, wa, ca), (vb, wb, cb)) = (a, b);
        PairMotion { linear: (vb - wb.cross(cb)) - (va - wa.cross(ca)), angular: wb - wa, dt }
    }

    /// A against B.
    pub fn reversed(self) -> PairMotion {
        PairMotion { linear: -self.linear, angular: -self.angular, dt: self.dt }
    }

    /// The same motion in frame `x` (points and velocities given in `x`'s coordinates).
    pub fn in_frame(self, x: &Iso) -> PairMotion {
        let inv = x.rot.conjugate();
        let angular = inv * self.angular;
        PairMotion { linear: inv * (self.linear + self.angular.cross(x.pos)), angular, dt: self.dt }
    }

    /// B's velocity against A at `p`.
    pub fn velocity_at(&self, p: Vec3) -> Vec3 {
        self.linear + self.angular.cross(p)
    }

    /// The depth a point at `p`, `depth` deep along `n` (from A to B), reaches at the end of
    /// the step if it moves as the bodies do now.
    pub fn depth_after(&self, p: Vec3, n: Vec3, depth: f32) -> f32 {
        depth - self.dt * self.velocity_at(p).dot(n)
    }
}

/// Reusable buffers for the narrow phase, so a settled world allocates nothing per step.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pub(crate) edges_b: sat::EdgeSoa,
    pub(crate) poly: Vec<clip::ClipVertex>,
    pub(crate) poly_tmp: Vec<clip::ClipVertex>,
    /// Mesh pairs: the candidate triangles, the convex body's vertices in the mesh's
    /// frame, and the contact candidates ([`mesh`]).
    pub(crate) mesh_tris: Vec<u32>,
    pub(crate) mesh_verts: Vec<Vec3>,
    pub(crate) mesh_candidates: Vec<mesh::Candidate>,
    /// The manifolds of a mesh pair's further normal groups (the deepest is `out`), set by
    /// every mesh pair's call and empty after any other pair's; same orientation as `out`.
    pub mesh_groups: Vec<Manifold>,
    /// A compound pair's manifolds as its child pairs give them ([`compound`]).
    pub(crate) compound_parts: Vec<Manifold>,
    /// A compound pair's children's boxes, A's then B's ([`compound`]).
    pub(crate) compound_boxes: Vec<crate::physics::math::Aabb>,
    /// A lower bound on the gap of the last compound pair found apart, 0 when it touches
    /// ([`compound`]).
    pub compound_gap: f32,
    /// A compound pair's SAT caches from its last computation, by child pair (`part`),
    /// for its next one: set by the caller before the pair's call, emptied by it
    /// ([`compound`]). Empty: every child pair starts without one.
    pub compound_caches: Vec<(u16, SatCache)>,
    /// The SAT cache of each manifold the last compound pair gave, in order: `out`'s, then
    /// each of `mesh_groups`' ([`compound`]).
    pub compound_caches_out: Vec<SatCache>,
}

impl Scratch {
    /// Grows every buffer to at least the capacity `other`'s has (nothing when it has it
    /// already): the narrow phase's per-thread scratches keep one high-water mark, so a
    /// pair that a later step hands to another thread finds room there (no allocation once
    /// settled, whichever thread takes which pair).
    pub fn reserve_like(&mut self, other: &Scratch) {
        self.edges_b.reserve_like(&other.edges_b);
        grow(&mut self.poly, other.poly.capacity());
        grow(&mut self.poly_tmp, other.poly_tmp.capacity());
        grow(&mut self.mesh_tris, other.mesh_tris.capacity());
        grow(&mut self.mesh_verts, other.mesh_verts.capacity());
        grow(&mut self.mesh_candidates, other.mesh_candidates.capacity());
        grow(&mut self.mesh_groups, other.mesh_groups.capacity());
        grow(&mut self.compound_parts, other.compound_parts.capacity());
        grow(&mut self.compound_boxes, other.compound_boxes.capacity());
        grow(&mut self.compound_caches, other.compound_caches.capacity());
        grow(&mut self.compound_caches_out, other.compound_caches_out.capacity());
    }
}

/// Grows `v` to hold at least `cap` elements.
pub(crate) fn grow<T>(v: &mut Vec<T>, cap: usize) {
    if v.capacity() < cap {
        v.reserve_exact(cap - v.len());
    }
}

/// Contact manifold between two posed shapes. `cache` is the pair's persistent SAT cache;
/// `out` is cleared and filled (empty when the shapes are apart by more than the margin).
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn collide(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    cfg: &CollideConfig,
    cache: &mut SatCache,
    scratch: &mut Scratch,
    out: &mut Manifold,
) {
    collide_recorded(a, xa, b, xb, cfg, cache, scratch, out, None)
}

/// [`collide`], filling `record` (when given) with the path taken, the SAT result and the
/// clip stages as they happen: the narrow phase calls this for watched pairs.
#[allow(clippy::too_many_arguments)]
pub fn collide_recorded(
    a: &Shape,
    xa: &Iso,
    b: &Shape,
    xb: &Iso,
    cfg: &CollideConfig,
    cache: &mut SatCache,
    scratch: &mut Scratch,
    out: &mut Manifold,
    mut record: Option<&mut CollideRecord>,
) {
    out.clear();
    if !scratch.mesh_groups.is_empty() {
        scratch.mesh_groups.clear();
    }
    if let Some(r) = record.as_deref_mut() {
        // Hull pairs fill their record in `collide_hulls`; curved pairs take closed forms.
        if a.hull().is_none() || b.hull().is_none() {
            r.begin(*cache);
            r.path = PairPath::Closed;
        }
    }
    match (a, b) {
        // Several convex children: child pair by child pair (`compound.rs`).
        (Shape::Compound(_), _) | (_, Shape::Compound(_)) => {
            compound::collide_compound(a, xa, b, xb, cfg, scratch, out, record)
        }
        // A mesh is not convex: per-triangle contacts merged into a manifold per normal group
        // (`mesh.rs`).
        (Shape::Mesh(m), _) => mesh::collide_mesh(m, xa, b, xb, cfg, scratch, out),
        (_, Shape::Mesh(m)) => {
            let cfg = &CollideConfig { motion: cfg.motion.map(PairMotion::reversed), ..*cfg };
            mesh::collide_mesh(m, xb, a, xa, cfg, scratch, out);
            out.flip();
            scratch.mesh_groups.iter_mut().for_each(Manifold::flip);
        }
        (Shape::Sphere { radius: ra }, Shape::Sphere { radius: rb }) => {
            round::sphere_sphere(xa.pos, *ra, xb.pos, *rb, cfg, out)
        }
        (Shape::Sphere { radius }, _) if b.hull().is_some() => {
            round::sphere_hull(xa.pos, *radius, b.hull().unwrap(), xb, cfg, out);
            out.flip();
        }
        (_, Shape::Sphere { radius }) if a.hull().is_some() => {
            round::sphere_hull(xb.pos, *radius, a.hull().unwrap(), xa, cfg, out)
        }
        (Shape::Sphere { radius: ra }, Shape::Capsule { radius: rb, half_height }) => {
            let (p, q) = round::capsule_segment(xb, *half_height);
            round::sphere_capsule(xa.pos, *ra, p, q, *rb, cfg, out);
        }
        (Shape::Capsule { radius: ra, half_height }, Shape::Sphere { radius: rb }) => {
            let (p, q) = round::capsule_segment(xa, *half_height);
            round::sphere_capsule(xb.pos, *rb, p, q, *ra, cfg, out);
            out.flip();
        }
        (Shape::Capsule { radius: ra, half_height: ha }, Shape::Capsule { radius: rb, half_height: hb }) => {
            let (pa, qa) = round::capsule_segment(xa, *ha);
            let (pb, qb) = round::capsule_segment(xb, *hb);
            round::capsule_capsule(pa, qa, *ra, pb, qb, *rb, cfg, out);
        }
        (Shape::Capsule { radius, half_height }, _) => {
            let (p, q) = round::capsule_segment(xa, *half_height);
            round::capsule_hull(p, q, *radius, b.hull().unwrap(), xb, cfg, out);
            out.flip();
        }
        (_, Shape::Capsule { radius, half_height }) => {
            let (p, q) = round::capsule_segment(xb, *half_height);
            round::capsule_hull(p, q, *radius, a.hull().unwrap(), xa, cfg, out);
        }
        _ => {
            let (ha, hb) = (a.hull().unwrap(), b.hull().unwrap());
            hull_hull::collide_hulls(ha, xa, hb, xb, cfg, cache, scratch, out, record);
        }
    }
}
