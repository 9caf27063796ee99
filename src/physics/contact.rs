//! Persistent contacts between steps: the per-pair record ([`Contact`]) with its impulses,
//! matching impulses to new points by feature ID, and the two ways a pair skips the narrow
//! phase — *recycling* a manifold while the pair barely moved ([`Recycle`]), and *still
//! apart* while a separated pair's gap exceeds its motion ([`Apart`]).
//!
//! Limits: recycling keeps the old points, so a recycled manifold gains no new point until
//! its pair has moved the recycling distance; its normal and lever arms are those of the
//! capture (an error bounded by that distance, [`Recycle`]); the still-apart bound uses face
//! axes only (edge separations are recomputed).

use crate::physics::collide::{ContactPoint, FeatureId, Manifold, SatCache};
use crate::physics::math::Iso;
use glam::{Mat3A, Quat, Vec3, Vec3A};

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
    /// The last substep's rolling-resistance impulse (N·m·s, world axes, applied to B and
    /// opposite to A), for warm starting; zero without rolling resistance
    /// ([`crate::physics::solver::ContactConstraint::rolling`]).
    pub rolling_impulse: Vec3,
    /// What contact recycling needs from the last full narrow-phase call.
    pub recycle: Recycle,
}

/// A manifold's geometry from its last full computation, for *recycling* (Box3D's contact
/// recycling): while a touching pair has barely moved, the narrow phase is skipped and the
/// manifold keeps its world normal, its points' feature IDs and, for the solver, the lever
/// arms from each body's centre of mass in world axes — all as they were captured. Only
/// the depths follow the bodies, exactly: each point's surface points are stored in the
/// bodies' frames and measured along the kept normal.
///
/// **Why freeze the normal and lever arms.** Recomputed every step, the contact geometry
/// follows each small tilt of a box, so the weight above a tilted joint acts a little
/// off-centre (the P-Δ effect of structural buckling). With soft contacts at 30 Hz that
/// makes a column of 16 or more unit cubes statically unstable: the measured collapse
/// threshold, 16 cubes, is what a chain of rigid boxes on the solver's contact springs
/// predicts (docs/physics.md). Frozen geometry removes the P-Δ term for motions inside the
/// recycling window, and such columns sway and stand — as they do in Box3D and rapier3d.
/// box3d-rust with recycling turned off collapses the same way. The price is an error in
/// normal and lever arms bounded by the window ([`Settings::recycle_distance`]); 0 turns
/// recycling off and the geometry is exact every step.
///
/// [`Settings::recycle_distance`]: crate::physics::Settings::recycle_distance
#[derive(Clone, Copy, Debug, Default)]
pub struct Recycle {
    /// Whether the fields below are valid (the manifold had points).
    pub valid: bool,
    /// Whether the current manifold is a recycled one (set by [`Recycle::reuse`] or
    /// [`Recycle::reuse_rounded`], cleared by [`Recycle::capture`]).
    pub reused: bool,
    /// Whether the warm friction of this run of recycled manifolds has been settled to the
    /// least that holds the pair ([`crate::physics::rest_friction::settle`]).
    pub settled: bool,
    /// Pose of B in A's frame at that time.
    pub rel: Iso,
    /// Rotations of A and B at that time.
    pub rot: (Quat, Quat),
    /// Each point's surface point on A (A's frame) and on B (B's frame).
    pub anchors: [(Vec3, Vec3); 4],
    /// Each point's lever arms from A's and from B's centre of mass, world axes.
    pub levers: [(Vec3, Vec3); 4],
}

impl Recycle {
    /// Geometry of `m`, computed at poses `xa`, `xb` (`rel`: B's pose in A's frame).
    pub fn capture(m: &Manifold, xa: &Iso, xb: &Iso, rel: Iso) -> Recycle {
        let mut r =
            Recycle { valid: !m.points.is_empty(), reused: false, rel, rot: (xa.rot, xb.rot), ..Default::default() };
        for (k, p) in m.points.iter().enumerate() {
            let half = m.normal * (0.5 * p.depth);
            let (on_a, on_b) = (p.position + half, p.position - half);
            r.anchors[k] = (xa.inv_transform_point(on_a), xb.inv_transform_point(on_b));
            // A speculative point (a gap) lies on neither body: halfway across a gap of up
            // to `MAX_SPECULATIVE`, it would give a 1 cm body a lever arm of decimetres,
            // whose turn then moves the point's separation by decimetres per substep (fake
            // penetration, pushed out at full speed) and whose friction rows spin the body
            // up. Each body's lever arm reaches its own surface point instead. (The normal
            // rows are the same either way: the two differ along n only.) Touching points
            // keep the common point, inside both bodies.
            r.levers[k] =
                if p.depth < 0.0 { (on_a - xa.pos, on_b - xb.pos) } else { (p.position - xa.pos, p.position - xb.pos) };
        }
        r
    }

    /// Recycles `m` (same normal, points and IDs; depths and positions measured at poses
    /// `xa`, `xb`) if, since the capture, B's points have moved less than `distance`
    /// relative to A (`|Δt| + angle·radius_b` in A's frame) and neither body has turned
    /// far enough to move its lever arms by more than `distance` (`angle·radius`), and
    /// while every point stays within the speculative `margin` (a fresh manifold would drop
    /// a point farther apart, and the solver would carry it for nothing).
    /// `radius_a`, `radius_b`: the bodies' bounding radii about their centres.
    pub fn reuse(
        &mut self,
        m: &mut Manifold,
        xa: &Iso,
        xb: &Iso,
        radii: (f32, f32),
        distance: f32,
        margin: f32,
    ) -> bool {
        let (ta, tb) = (Mat3A::from_quat(xa.rot), Mat3A::from_quat(xb.rot));
        self.reuse_with(m, xa, xb, (&ta, &tb), radii, None, distance, margin)
    }

    /// [`Recycle::reuse`] for bodies whose shapes have a rounding ([`Shape::rounding`]: a
    /// sphere's or a capsule's radius, zero for a hull). A surface anchor on a rounded body
    /// lies that far out along the normal from its core, and turned with the body it swings
    /// away from the normal: read through it, a ball rolling in place would move off the
    /// surface by `r·(1 − cos θ)`. That part of each anchor is kept along the normal, as
    /// the solver's separation update does (the same turn, [`round_turn`]). `turns`: the
    /// rotations of `xa` and `xb` as matrices (`Mat3A::from_quat`), made once per body and
    /// step (the world's broad phase makes them for its narrow phase) rather than twice per
    /// pair.
    ///
    /// [`Shape::rounding`]: crate::physics::Shape::rounding
    #[allow(clippy::too_many_arguments)]
    pub fn reuse_rounded(
        &mut self,
        m: &mut Manifold,
        xa: &Iso,
        xb: &Iso,
        turns: (&Mat3A, &Mat3A),
        radii: (f32, f32),
        rounding: (f32, f32),
        distance: f32,
        margin: f32,
    ) -> bool {
        if rounding == (0.0, 0.0) {
            // Two hulls: the plain recycling, without the rounding's work.
            self.reuse_with(m, xa, xb, turns, radii, None, distance, margin)
        } else {
            self.reuse_with(m, xa, xb, turns, radii, Some(rounding), distance, margin)
        }
    }

    /// [`Recycle::reuse`] (`rounding` none) and [`Recycle::reuse_rounded`] in one body,
    /// inlined into each call so that the plain one carries none of the rounding's work.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn reuse_with(
        &mut self,
        m: &mut Manifold,
        xa: &Iso,
        xb: &Iso,
        (&ma, &mb): (&Mat3A, &Mat3A),
        radii: (f32, f32),
        rounding: Option<(f32, f32)>,
        distance: f32,
        margin: f32,
    ) -> bool {
        let (radius_a, radius_b) = radii;
        if !self.valid || distance <= 0.0 {
            return false;
        }
        let rel = Iso::relative(xa, xb);
        if rel.pos.distance(self.rel.pos) + angle(rel.rot, self.rel.rot) * radius_b > distance
            || angle(xa.rot, self.rot.0) * radius_a > distance
            || angle(xb.rot, self.rot.1) * radius_b > distance
        {
            return false;
        }
        // The anchors move with one rotation matrix per body, three SIMD products per
        // anchor (a quaternion rotation per anchor made the narrow phase measurably slower;
        // docs/BENCHMARKS.md).
        let n = Vec3A::from(m.normal);
        let (oa, ob) = (Vec3A::from(xa.pos), Vec3A::from(xb.pos));
        // A rounded anchor's radial part, turned with its body since the capture, reads this
        // much too little depth ([`round_turn`] over the turn since then); nothing for a hull.
        let lost = match rounding {
            Some((ra, rb)) => {
                -(round_turn(n, xa.rot * self.rot.0.conjugate(), ra)
                    + round_turn(n, xb.rot * self.rot.1.conjugate(), rb))
            }
            None => 0.0,
        };
        let (mut at, floor) = ([(Vec3A::ZERO, Vec3A::ZERO); 4], -margin - lost);
        for (w, (la, lb)) in at.iter_mut().zip(&self.anchors[..m.points.len()]) {
            *w = (ma * Vec3A::from(*la) + oa, mb * Vec3A::from(*lb) + ob);
            if n.dot(w.0 - w.1) < floor {
                return false;
            }
        }
        for (p, (pa, pb)) in m.points.iter_mut().zip(at) {
            p.depth = n.dot(pa - pb);
            p.position = (0.5 * (pa + pb)).into();
        }
        if lost != 0.0 {
            for p in &mut m.points {
                p.depth += lost;
            }
        }
        self.reused = true;
        true
    }
}

/// What a body's turn `dq` does to a separation through the rounded part of its lever arm,
/// `r·(n·(dq·n) − 1)` for the arm's rounded reach `r` (the solver's
/// `ConstraintPoint::rounded_reach`; a recycled anchor's whole rounding), to be added to the
/// turned-arm formula.
///
/// A contact point on a sphere (or a capsule's rounded side) lies out along the normal from
/// its core. Turned with the body, that radial part swings away from the normal and the
/// separation read through it grows by `r·(1 − cos θ)`, although a ball turning in place
/// stays exactly as close: a 0.1 m ball spinning at 216 rad/s turns 0.9 rad in a substep
/// and opened a phantom gap of 4 cm a substep, so the speculative contact let it 77 mm into
/// a wall (the barrage). Keeping the radial part along the normal leaves only the core's
/// turn: exact for a sphere (up to the turn of the normal a recycled manifold keeps). Zero
/// for a shape without rounding.
#[inline]
pub fn round_turn(n: Vec3A, dq: Quat, r: f32) -> f32 {
    if r == 0.0 {
        0.0
    } else {
        r * (n.dot(dq * n) - 1.0)
    }
}

/// A pair last found apart, as the narrow phase checks it before opening the pair's
/// [`Contact`]: the world keeps these in one compact array beside the boxed contacts, so
/// the many near-miss pairs of a pile (three in four of the hull pile's 8,700) are skipped
/// without a cache miss on a 600-byte record.
#[derive(Clone, Copy, Debug, Default)]
pub struct Apart {
    /// Pose of B in A's frame when the pair was found apart.
    pub rel: Iso,
    /// A lower bound on the distance between the shapes at `rel` (the gap along the
    /// separating axis, a face normal or an edge pair's, or between the bounding spheres);
    /// 0 when the pair touched.
    pub gap: f32,
}

impl Apart {
    /// A pair at least `gap` apart at poses `xa`, `xb`.
    pub fn new(xa: &Iso, xb: &Iso, gap: f32) -> Apart {
        Apart { rel: Iso::relative(xa, xb), gap }
    }

    /// What the narrow phase left at relative pose `rel`: an empty manifold whose SAT
    /// `cache` holds a separating axis records that axis's separation as the gap. A face's
    /// or an edge pair's alike: the SAT measures both along a unit axis between planes that
    /// support the two hulls (an edge pair is tested only where it builds a Minkowski
    /// face), so the shapes are at least that far apart.
    pub fn capture(m: &Manifold, rel: Iso, cache: &SatCache) -> Apart {
        let gap = match (m.points.is_empty(), *cache) {
            (
                true,
                SatCache::FaceA { separation, .. }
                | SatCache::FaceB { separation, .. }
                | SatCache::Edge { separation, .. },
            ) => separation,
            _ => 0.0,
        };
        Apart { rel, gap }
    }

    /// Whether the pair is still apart by more than `margin`: in A's frame, A stands still
    /// and each point of B moves by at most `|Δt| + angle·radius_b` since then (`t` and the
    /// angle those of B's pose in A's, `radius_b` B's bounding radius about its origin), so
    /// the shapes' distance shrinks by at most that, and `gap − motion > margin` proves the
    /// manifold empty without running the narrow phase. (A's own size does not enter: a
    /// drum turning about a cube moves the cube's pose in the drum's frame, no more.)
    #[inline]
    pub fn still_apart(&self, xa: &Iso, xb: &Iso, radius_b: f32, margin: f32) -> bool {
        if self.gap <= margin {
            return false;
        }
        let rel = Iso::relative(xa, xb);
        self.gap - (rel.pos.distance(self.rel.pos) + angle(rel.rot, self.rel.rot) * radius_b) > margin
    }
}

/// An upper bound on the angle (rad) of the rotation from `from` to `to`: `2·tan(θ/2)`
/// from the half-angle's sine, which is ≥ θ (so the motion bounds stay conservative) and
/// equal to it to first order (no `asin` in the narrow phase's hot loop).
#[inline]
fn angle(to: Quat, from: Quat) -> f32 {
    let s2 = (to * from.conjugate()).xyz().length_squared();
    if s2 >= 0.99 {
        return f32::INFINITY;
    }
    2.0 * (s2 / (1.0 - s2)).sqrt()
}

/// Carries impulses from `prev` to the points of `c`: by feature ID first; a point whose
/// ID is new takes the nearest unclaimed old point within `radius`. Faces of equal size
/// (a stack of identical boxes) clip to near-coincident vertices whose IDs flicker with
/// round-off; matching those by position keeps warm starting alive.
pub(crate) fn match_impulses(
    prev_points: &[ContactPoint],
    prev_impulses: &[PointImpulse; 4],
    c: &mut Contact,
    radius: f32,
) {
    let mut claimed = [false; 4];
    let mut found = [usize::MAX; 4];
    for (k, pt) in c.manifold.points.iter().enumerate() {
        if let Some(j) = prev_points.iter().position(|q| q.id == pt.id) {
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
        for (j, q) in prev_points.iter().enumerate() {
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
            j => PointImpulse { id: pt.id, ..prev_impulses[j] },
        };
    }
}
