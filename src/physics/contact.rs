//! Persistent contacts between steps: the per-pair record ([`Contact`]) with its impulses,
//! matching impulses to new points by feature ID, and the two ways a pair skips the narrow
//! phase — *recycling* a manifold while the pair barely moved, and *still apart* while a
//! separated pair's gap exceeds its motion ([`Recycle`]).
//!
//! Limits: recycling keeps the old points, so a recycled manifold gains no new point until
//! its pair has moved [`RECYCLE_DISTANCE`]; the still-apart bound uses face axes only (edge
//! separations are recomputed).

use crate::physics::collide::{FeatureId, Manifold, SatCache};
use crate::physics::math::Iso;
use glam::Vec3;

/// Impulses at one contact point: what the last step applied (for drawing and traces) and
/// what the solver accumulated (for warm starting the next step).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PointImpulse {
    /// Feature key of the point.
    pub id: FeatureId,
    /// Normal impulse applied during the last step (N·s).
    pub normal: f32,
    /// Friction impulse applied during the last step along (t1, t2) of the contact (N·s).
    pub tangent: [f32; 2],
    /// Accumulated normal impulse of the solver (per substep), for warm starting.
    pub warm_normal: f32,
    /// Accumulated friction impulse as a world vector, projected onto the next basis.
    pub warm_friction: Vec3,
}

/// A persistent pair: kept while the AABBs overlap.
#[derive(Clone, Debug, Default)]
pub struct Contact {
    /// Body A index (A < B).
    pub a: u32,
    /// Body B index.
    pub b: u32,
    /// SAT cache for hull pairs.
    pub cache: SatCache,
    /// Current manifold (may be empty).
    pub manifold: Manifold,
    /// Impulses per manifold point (same order).
    pub impulses: [PointImpulse; 4],
    /// Tangent basis used for the friction impulses.
    pub tangents: [Vec3; 2],
    /// What contact recycling needs from the last full narrow-phase call.
    pub recycle: Recycle,
}

/// Largest relative motion (m) of a touching pair, since its manifold was last computed,
/// for which the manifold is *recycled* instead of recomputed: the points stay on the
/// same features and only their depths follow the bodies (Box3D and rapier recycle
/// contacts the same way). Translation and rotation (angle × the pair's radii) both count.
/// One fifth of the default slop, so the depth error is far below what the solver allows.
pub const RECYCLE_DISTANCE: f32 = 0.001;

/// A manifold's anchors in body frames, from its last full computation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Recycle {
    /// Whether the fields below are valid.
    pub valid: bool,
    /// Pose of B in A's frame at that time.
    pub rel: Iso,
    /// The normal in A's frame.
    pub normal_a: Vec3,
    /// Each point's surface point on A (A's frame) and on B (B's frame).
    pub anchors: [(Vec3, Vec3); 4],
    /// For a pair found apart: a lower bound on the distance between the shapes at `rel`
    /// (the gap along the separating face normal), else 0.
    pub gap: f32,
}

impl Recycle {
    /// Anchors of `m`, computed at poses `xa`, `xb` with the pair's SAT `cache` as the
    /// narrow phase left it: an empty manifold whose cache holds a separating face records
    /// that face's separation as the gap for [`Recycle::still_apart`].
    pub fn capture(m: &Manifold, xa: &Iso, xb: &Iso, cache: &SatCache) -> Recycle {
        let gap = match (m.points.is_empty(), *cache) {
            (true, SatCache::FaceA { separation, .. } | SatCache::FaceB { separation, .. }) => separation,
            _ => 0.0,
        };
        let mut r = Recycle {
            valid: !m.points.is_empty(),
            rel: Iso::relative(xa, xb),
            normal_a: xa.inv_transform_vector(m.normal),
            anchors: [(Vec3::ZERO, Vec3::ZERO); 4],
            gap,
        };
        for (k, p) in m.points.iter().enumerate() {
            let half = m.normal * (0.5 * p.depth);
            r.anchors[k] = (xa.inv_transform_point(p.position + half), xb.inv_transform_point(p.position - half));
        }
        r
    }

    /// Whether a pair found apart by at least `gap` is still apart by more than `margin`:
    /// the shapes' distance shrinks by at most the relative motion since then, `|Δt| +
    /// angle·radii` (in A's frame), so `gap − motion > margin` proves the manifold empty
    /// without running the narrow phase.
    pub fn still_apart(&self, xa: &Iso, xb: &Iso, radii: f32, margin: f32) -> bool {
        if self.gap <= margin {
            return false;
        }
        let rel = Iso::relative(xa, xb);
        let dq = rel.rot * self.rel.rot.conjugate();
        let angle = 2.0 * dq.xyz().length();
        self.gap - (rel.pos.distance(self.rel.pos) + angle * radii) > margin
    }

    /// Rebuilds `m` (same points, same IDs) at poses `xa`, `xb` if the pair has moved less
    /// than [`RECYCLE_DISTANCE`] relative to each other since the capture.
    pub fn reuse(&self, m: &mut Manifold, xa: &Iso, xb: &Iso, radii: f32) -> bool {
        if !self.valid {
            return false;
        }
        let rel = Iso::relative(xa, xb);
        let dq = rel.rot * self.rel.rot.conjugate();
        let angle = 2.0 * dq.xyz().length();
        if rel.pos.distance(self.rel.pos) + angle * radii > RECYCLE_DISTANCE {
            return false;
        }
        let n = xa.transform_vector(self.normal_a);
        m.normal = n;
        for (p, (la, lb)) in m.points.iter_mut().zip(&self.anchors) {
            let (pa, pb) = (xa.transform_point(*la), xb.transform_point(*lb));
            p.depth = n.dot(pa - pb);
            p.position = 0.5 * (pa + pb);
        }
        true
    }
}

/// Carries impulses from `prev` to the points of `c`: by feature ID first; a point whose
/// ID is new takes the nearest unclaimed old point within `radius`. Faces of equal size
/// (a stack of identical boxes) clip to near-coincident vertices whose IDs flicker with
/// round-off; matching those by position keeps warm starting alive.
pub(crate) fn match_impulses(prev: &Contact, c: &mut Contact, radius: f32) {
    let mut claimed = [false; 4];
    let mut found = [usize::MAX; 4];
    for (k, pt) in c.manifold.points.iter().enumerate() {
        if let Some(j) = prev.manifold.points.iter().position(|q| q.id == pt.id) {
            if !claimed[j] {
                claimed[j] = true;
                found[k] = j;
            }
        }
    }
    for (k, pt) in c.manifold.points.iter().enumerate() {
        if found[k] != usize::MAX {
            continue;
        }
        let mut best = (usize::MAX, radius * radius);
        for (j, q) in prev.manifold.points.iter().enumerate() {
            let d = q.position.distance_squared(pt.position);
            if !claimed[j] && d <= best.1 {
                best = (j, d);
            }
        }
        if best.0 != usize::MAX {
            claimed[best.0] = true;
            found[k] = best.0;
        }
    }
    for (k, pt) in c.manifold.points.iter().enumerate() {
        c.impulses[k] = match found[k] {
            usize::MAX => PointImpulse { id: pt.id, ..Default::default() },
            j => PointImpulse { id: pt.id, ..prev.impulses[j] },
        };
    }
}
