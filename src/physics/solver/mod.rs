//! Contact resolution methods, switchable at runtime on the same world.
//!
//! - [`naive`]: one impulse per contact point, once, in detection order (the textbook
//!   first attempt); plus a linear projection of penetration. Right for a single contact,
//!   visibly wrong for stacks (jitter, sinking) — that is the point of showing it.
//! - [`iterative`]: sequential impulses (Catto, GDC 2005; Box2D): accumulated, clamped
//!   normal and friction impulses, warm starting by feature ID, restitution as a separate
//!   pass with a velocity threshold, and position error handled by soft contacts over
//!   substeps with a relax pass (Box2D v3's soft step).
//!
//! Both read the same [`ContactConstraint`]s prepared from the world's manifolds, so
//! switching methods mid-run carries all state over. A later worst-first (Cyclone) resolver
//! or joints slot in as another module filling the same [`SolverBody`] velocities.
//!
//! Effective mass along a unit direction n at lever arms rA, rB (Catto):
//! `k = 1/mA + 1/mB + n·((IA⁻¹(rA×n))×rA) + n·((IB⁻¹(rB×n))×rB)`, `m_eff = 1/k`.

pub mod iterative;
pub mod naive;
pub mod wide;

use crate::physics::collide::FeatureId;
use glam::{Mat3A, Quat, Vec3A};

/// Which resolution method the world uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SolverMode {
    /// One impulse per contact point, once.
    Naive,
    /// Sequential impulses with friction, warm starting and position correction.
    #[default]
    Iterative,
}

/// Every solver parameter, in one place: scene files and the UI both set this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// Resolution method.
    pub mode: SolverMode,
    /// Iterative: velocity passes per substep (and as many relax passes).
    pub iterations: u32,
    /// Iterative: substeps per step.
    pub substeps: u32,
    /// Iterative: apply last step's impulses at the start of each substep.
    pub warm_starting: bool,
    /// Iterative: stiffness of the position feedback ("bias"), as a spring frequency (Hz).
    /// Capped at a quarter of the substep rate (Box2D v3).
    pub contact_hertz: f32,
    /// Iterative: damping ratio of that spring (Box2D v3 uses 10: heavily over-damped).
    pub damping_ratio: f32,
    /// Iterative: largest speed at which penetration is pushed out (m/s).
    pub max_push_out: f32,
    /// Penetration allowed without correction (m): the naive projection's dead band, and the
    /// absolute tolerance of the narrow phase's face/edge choice.
    pub slop: f32,
    /// Restitution applies only when the approach speed exceeds this (m/s).
    pub restitution_threshold: f32,
    /// Naive mode: fraction of the penetration beyond slop projected away per step.
    pub naive_correction: f32,
    /// Let resting bodies sleep.
    pub sleeping: bool,
    /// Sleep when |v| stays under this (m/s)…
    pub sleep_linear: f32,
    /// …and |ω| under this (rad/s)…
    pub sleep_angular: f32,
    /// …for this long (s).
    pub sleep_time: f32,
    /// Speculative contact margin (m): pairs closer than this get contact points.
    pub margin: f32,
    /// Contact recycling window (m): a touching pair whose points have moved less than this
    /// relative to each other (and whose lever arms have turned by less than this) since
    /// its manifold was computed keeps that manifold's normal, points and lever arms; only
    /// the depths are measured again ([`crate::physics::world::Recycle`]). Default 0.02 m,
    /// the speculative margin (Box3D uses 0.05 m); a 20-cube column stands with 5 mm and
    /// more. 0: every manifold is recomputed every step (exact geometry; tall stacks of
    /// soft contacts then buckle, see docs/physics.md).
    pub recycle_distance: f32,
    /// Iterative: solve four manifolds at a time in SIMD lanes after graph colouring
    /// ([`wide`]); off runs the scalar sequential-impulse solver ([`iterative`]) on every
    /// manifold, one after another in the batches' order — the textbook path to read and
    /// single-step, with the same maths (tested equal on a pyramid).
    pub simd: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            mode: SolverMode::Iterative,
            iterations: 3,
            substeps: 4,
            warm_starting: true,
            contact_hertz: 60.0,
            damping_ratio: 10.0,
            max_push_out: 3.0,
            slop: 0.005,
            restitution_threshold: 1.0,
            naive_correction: 0.4,
            sleeping: true,
            sleep_linear: 0.05,
            sleep_angular: 0.05,
            sleep_time: 0.5,
            margin: 0.02,
            recycle_distance: 0.02,
            simd: true,
        }
    }
}

/// Compact per-body solver state (hot data; Box2D's `b2BodyState` idea).
#[derive(Clone, Copy, Debug, Default)]
pub struct SolverBody {
    /// Linear velocity.
    pub v: Vec3A,
    /// Angular velocity.
    pub w: Vec3A,
    /// Displacement of the centre of mass since the step began.
    pub dp: Vec3A,
    /// Rotation since the step began.
    pub dq: Quat,
    /// Inverse mass (0 = static or asleep).
    pub inv_mass: f32,
    /// World inverse inertia (fixed for the step).
    pub inv_i: Mat3A,
    /// Inertia the same about every axis: ω is constant between impulses, so the world
    /// integrates this body on these compact fields alone and writes its pose once per step.
    pub isotropic: bool,
    /// Part of at least one contact constraint this step.
    pub touching: bool,
    /// The body's friction and restitution, so that building constraints reads only these
    /// compact records (they fit the padding: the record stays 128 bytes).
    pub friction: f32,
    /// See `friction`.
    pub restitution: f32,
}

// Two cache lines: the per-pass gathers read the first (v, w, dp, dq).
const _: () = assert!(std::mem::size_of::<SolverBody>() == 128);

impl SolverBody {
    #[inline]
    fn apply(&mut self, j: Vec3A, r: Vec3A) {
        self.v += j * self.inv_mass;
        self.w += self.inv_i * r.cross(j);
    }
}

/// One contact point as the solvers see it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConstraintPoint {
    /// Lever arm from A's centre of mass (world axes at the step's start).
    pub ra: Vec3A,
    /// Lever arm from B's centre of mass.
    pub rb: Vec3A,
    /// Separation at the step's start minus `n·(rB − rA)` (Box2D's adjusted separation).
    pub adjusted_separation: f32,
    /// Current separation (negative: penetration), updated after every position update
    /// ([`wide::WideSolver::update_separations`]).
    pub separation: f32,
    /// Effective mass along the normal.
    pub normal_mass: f32,
    /// Effective masses along the tangents.
    pub tangent_mass: [f32; 2],
    /// Accumulated normal impulse (per substep in iterative mode).
    pub normal_impulse: f32,
    /// Accumulated friction impulses along (t1, t2).
    pub tangent_impulse: [f32; 2],
    /// Normal impulse applied over the whole step.
    pub total_normal_impulse: f32,
    /// Friction impulse applied over the whole step.
    pub total_tangent_impulse: [f32; 2],
    /// Largest normal impulse seen this step (restitution applies only if > 0).
    pub max_normal_impulse: f32,
    /// Normal relative velocity before the solve (negative: approaching).
    pub relative_velocity: f32,
    /// Penetration at the step's start (negative: speculative gap).
    pub depth: f32,
    /// Feature key (to store impulses back).
    pub id: FeatureId,
}

/// A manifold as the solvers see it.
#[derive(Clone, Copy, Debug, Default)]
pub struct ContactConstraint {
    /// Body A index.
    pub a: u32,
    /// Body B index.
    pub b: u32,
    /// Index of the contact in the world's contact list.
    pub contact: u32,
    /// Unit normal from A to B.
    pub normal: Vec3A,
    /// First tangent.
    pub t1: Vec3A,
    /// Second tangent.
    pub t2: Vec3A,
    /// Combined friction.
    pub friction: f32,
    /// Combined restitution.
    pub restitution: f32,
    /// Soft-contact coefficients (iterative mode).
    pub softness: iterative::Softness,
    /// Points.
    pub points: [ConstraintPoint; 4],
    /// Number of points used.
    pub count: u32,
}

impl ContactConstraint {
    /// Fills every point's normal and tangent effective masses from its lever arms and the
    /// bodies' inverse masses and inertias ([`Row::effective_mass`]).
    pub fn compute_masses(&mut self, bodies: &[SolverBody]) {
        let (sa, sb) = (&bodies[self.a as usize], &bodies[self.b as usize]);
        let (n, t1, t2) = (self.normal, self.t1, self.t2);
        for p in &mut self.points[..self.count as usize] {
            let mass = |d: Vec3A| Row::new(sa, sb, p.ra, p.rb, d).effective_mass(sa, sb);
            p.normal_mass = mass(n);
            p.tangent_mass = [mass(t1), mass(t2)];
        }
    }
}

/// The angular half of one constraint row along a unit direction d (Catto's Jacobian
/// J = [−d, −rA×d, d, rB×d] with M⁻¹Jᵀ), built where it is used: stored per point it would
/// triple the memory every pass streams through.
#[derive(Clone, Copy, Debug, Default)]
pub struct Row {
    /// rA × d.
    pub ca: Vec3A,
    /// rB × d.
    pub cb: Vec3A,
    /// IA⁻¹ (rA × d): A's change of ω per unit impulse (negated when applied to A).
    pub ia: Vec3A,
    /// IB⁻¹ (rB × d).
    pub ib: Vec3A,
}

impl Row {
    /// The row for direction `d` at lever arms `ra`, `rb`.
    #[inline]
    pub fn new(a: &SolverBody, b: &SolverBody, ra: Vec3A, rb: Vec3A, d: Vec3A) -> Row {
        let (ca, cb) = (ra.cross(d), rb.cross(d));
        Row { ca, cb, ia: a.inv_i * ca, ib: b.inv_i * cb }
    }

    /// `1 / k` with `k = 1/mA + 1/mB + (rA×d)·IA⁻¹(rA×d) + (rB×d)·IB⁻¹(rB×d)`.
    #[inline]
    pub fn effective_mass(&self, a: &SolverBody, b: &SolverBody) -> f32 {
        let k = a.inv_mass + b.inv_mass + self.ca.dot(self.ia) + self.cb.dot(self.ib);
        if k > 0.0 {
            1.0 / k
        } else {
            0.0
        }
    }

    /// Relative velocity of the two points along d.
    #[inline]
    pub fn velocity(&self, a: &SolverBody, b: &SolverBody, d: Vec3A) -> f32 {
        d.dot(b.v - a.v) + self.cb.dot(b.w) - self.ca.dot(a.w)
    }

    /// Applies impulse `lambda` along d: −λ to A, +λ to B.
    #[inline]
    pub fn apply(&self, a: &mut SolverBody, b: &mut SolverBody, d: Vec3A, lambda: f32) {
        a.v -= d * (lambda * a.inv_mass);
        a.w -= self.ia * lambda;
        b.v += d * (lambda * b.inv_mass);
        b.w += self.ib * lambda;
    }
}

/// `1 / k` for direction `n` at lever arms `ra`, `rb` (see module docs).
#[inline]
pub fn effective_mass(a: &SolverBody, b: &SolverBody, ra: Vec3A, rb: Vec3A, n: Vec3A) -> f32 {
    let rna = ra.cross(n);
    let rnb = rb.cross(n);
    let k = a.inv_mass + b.inv_mass + rna.dot(a.inv_i * rna) + rnb.dot(b.inv_i * rnb);
    if k > 0.0 {
        1.0 / k
    } else {
        0.0
    }
}

/// Relative velocity of B's point with respect to A's point.
#[inline]
pub fn relative_velocity(a: &SolverBody, b: &SolverBody, ra: Vec3A, rb: Vec3A) -> Vec3A {
    (b.v + b.w.cross(rb)) - (a.v + a.w.cross(ra))
}

/// Copies of two bodies' states for one manifold: the solver works on these locals (kept in
/// registers) and [`store_pair`] writes back only dynamic bodies, so manifolds that touch
/// the same static body (the ground) do not form a chain through memory.
#[inline]
pub(crate) fn load_pair(bodies: &[SolverBody], a: u32, b: u32) -> (SolverBody, SolverBody) {
    (bodies[a as usize], bodies[b as usize])
}

/// Writes back the velocities of the bodies of [`load_pair`] that can move.
#[inline]
pub(crate) fn store_pair(bodies: &mut [SolverBody], a: u32, b: u32, sa: &SolverBody, sb: &SolverBody) {
    if sa.inv_mass > 0.0 {
        let t = &mut bodies[a as usize];
        t.v = sa.v;
        t.w = sa.w;
    }
    if sb.inv_mass > 0.0 {
        let t = &mut bodies[b as usize];
        t.v = sb.v;
        t.w = sb.w;
    }
}

/// Mutable references to two distinct bodies.
#[inline]
pub(crate) fn pair_mut(bodies: &mut [SolverBody], a: u32, b: u32) -> (&mut SolverBody, &mut SolverBody) {
    debug_assert_ne!(a, b);
    let (a, b) = (a as usize, b as usize);
    if a < b {
        let (lo, hi) = bodies.split_at_mut(b);
        (&mut lo[a], &mut hi[0])
    } else {
        let (lo, hi) = bodies.split_at_mut(a);
        (&mut hi[0], &mut lo[b])
    }
}
