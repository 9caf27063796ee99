//! What every resolution method reads and writes: the compact per-body state
//! ([`SolverBody`]), a manifold as a constraint ([`ContactConstraint`], its points
//! [`ConstraintPoint`]), one Jacobian row ([`Row`]), soft-constraint coefficients
//! ([`Softness`]) and a point's impulses at the end of a step ([`PointImpulses`]).
//!
//! Effective mass along a unit direction n at lever arms rA, rB (Catto):
//! `k = 1/mA + 1/mB + n·((IA⁻¹(rA×n))×rA) + n·((IB⁻¹(rB×n))×rB)`, `m_eff = 1/k`.

use crate::physics::collide::FeatureId;
use crate::physics::contact::{Contact, PointImpulse};
use glam::{Mat3A, Quat, Vec3, Vec3A};

/// Coefficients of a soft constraint (Box2D v3 `b2Softness`): a damped spring of a given
/// frequency and damping ratio, expressed as a velocity bias and scales on the effective
/// mass and the accumulated impulse, so that the feedback is stable for any step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Softness {
    /// Velocity bias per metre of penetration (1/s).
    pub bias_rate: f32,
    /// Scale on the effective mass.
    pub mass_scale: f32,
    /// Fraction of the accumulated impulse removed each pass.
    pub impulse_scale: f32,
}

impl Softness {
    /// A damped spring of frequency `hertz` and damping ratio `zeta`, for substep `h`.
    pub fn new(hertz: f32, zeta: f32, h: f32) -> Softness {
        if hertz == 0.0 {
            return Softness { bias_rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };
        }
        let omega = 2.0 * std::f32::consts::PI * hertz;
        let a1 = 2.0 * zeta + h * omega;
        let a2 = h * omega * a1;
        let a3 = 1.0 / (1.0 + a2);
        Softness { bias_rate: omega / a1, mass_scale: a2 * a3, impulse_scale: a3 }
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
    /// Part of at least one contact constraint this step. Read only for a body the solver
    /// moves: a static body's record may keep it from an earlier step (`world/movers.rs`).
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
    pub(crate) fn apply(&mut self, j: Vec3A, r: Vec3A) {
        self.v += j * self.inv_mass;
        self.w += self.inv_i * r.cross(j);
    }
}

/// One contact point as the solvers see it.
///
/// Laid out in declaration order (`repr(C)`): the SIMD solver's fill (`solver/wide_fill.rs`)
/// reads four neighbouring numbers of a point as one row of a 4×4 transpose — the adjusted
/// and current separations, the normal impulse and the largest one; the friction impulses
/// and their totals — and side by side they can load as one vector. Nothing relies on the
/// layout for soundness (the fill names each field).
#[derive(Clone, Copy, Debug, Default)]
#[repr(C)]
pub struct ConstraintPoint {
    /// Lever arm from A's centre of mass (world axes at the step's start).
    pub ra: Vec3A,
    /// Lever arm from B's centre of mass.
    pub rb: Vec3A,
    /// Separation at the step's start minus `n·(rB − rA)` (Box2D's adjusted separation).
    pub adjusted_separation: f32,
    /// Current separation (negative: penetration), updated after every position update
    /// ([`super::wide::WideSolver::update_separations`]).
    pub separation: f32,
    /// Accumulated normal impulse (per substep in iterative mode).
    pub normal_impulse: f32,
    /// Largest normal impulse seen this step (restitution applies only if > 0).
    pub max_normal_impulse: f32,
    /// Accumulated friction impulses along (t1, t2).
    pub tangent_impulse: [f32; 2],
    /// Friction impulse applied over the whole step.
    pub total_tangent_impulse: [f32; 2],
    /// Normal impulse applied over the whole step.
    pub total_normal_impulse: f32,
    /// Effective mass along the normal.
    pub normal_mass: f32,
    /// Effective masses along the tangents.
    pub tangent_mass: [f32; 2],
    /// Normal relative velocity before the solve (negative: approaching).
    pub relative_velocity: f32,
    /// The separating normal speed this point's bounce aims at (0: it does not bounce),
    /// from its speed at the moment of impact and the integrator's energy
    /// ([`super::bounce`]); set in prepare for the method's schedule.
    pub rebound: f32,
    /// The rate at which gravity closes the pair along the normal (m/s²; what it adds to an
    /// approach over a gap, [`super::bounce::Impact`]).
    pub closing: f32,
    /// The compression impulse: the step's normal impulse before the restitution pass plus
    /// the impulse that stops what approach is left then (restitution adds at most `e` times
    /// it, summed over the manifold, on top of that stopping impulse).
    pub compression_impulse: f32,
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
    /// Rolling resistance times the rolling arm (m; 0: none): the relative turning of the
    /// two bodies is resisted by an angular impulse of at most this times the manifold's
    /// normal impulse (Box2D v3's and Box3D's rolling resistance; `iterative::rolling_rows`).
    /// A manifold with rolling resistance is left uncoloured, so the scalar rows solve it
    /// in both paths ([`super::colouring`]).
    pub rolling: f32,
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
    /// Soft-contact coefficients (the iterative methods; [`Softness`]).
    pub softness: Softness,
    /// Accumulated rolling-resistance impulse (N·m·s, world axes; applied +to B, −to A),
    /// per substep as the points' impulses. (An array, not a vector: it fills the padding
    /// before the points, and the record keeps its size.)
    pub rolling_impulse: [f32; 3],
    /// Points.
    pub points: [ConstraintPoint; 4],
    /// Number of points used.
    pub count: u32,
    /// Bit k: point k starts the step apart and holding no impulse (a speculative point
    /// that stayed apart last step). The colouring puts manifolds whose points are idle in
    /// the same places side by side, so that a SIMD batch's slot is idle in every lane and
    /// its friction rows are skipped ([`super::wide`]); the numbers do not depend on it.
    pub idle: u32,
    /// The rounding of A's and of B's shape (a sphere's or a capsule's radius, else 0): the
    /// part of each lever arm along the normal that stays pointing at the other body while
    /// the body turns ([`ConstraintPoint::separation_now`]).
    pub rounding: [f32; 2],
}

// The rolling fields sit in what was padding: the record every pass streams keeps its size.
const _: () = assert!(std::mem::size_of::<ContactConstraint>() == 560);

impl ConstraintPoint {
    /// The point's separation along `n` now, from how far bodies `a` and `b` moved and turned
    /// since the step began: `s = n·(ΔpB − ΔpA + ΔqB·rB − ΔqA·rA) + s₀ − n·(rB − rA)`, with
    /// the rounded part of each arm kept along the normal
    /// ([`crate::physics::contact::round_turn`]). `rounding`: the constraint's
    /// [`ContactConstraint::rounding`].
    ///
    /// Turning an arm with its body and projecting it on the normal, `n·(Δq·r)`, is the same
    /// number as turning the normal back into the body's frame at the step's start and
    /// projecting the arm, `(Δq*·n)·r`. The second form is the one computed, here and in the
    /// SIMD lanes (which turn the normal once for all of a manifold's points), so that both
    /// paths compute the same formula in the same order (the turn itself is glam's here and
    /// the lanes' own there, so they agree to rounding). The rounded parts take the same
    /// turned normal: `round_turn`'s `r·(n·(Δq·n) − 1)` is `r·((Δq*·n)·n − 1)`.
    #[inline]
    pub fn separation_now(&self, n: Vec3A, a: &SolverBody, b: &SolverBody, rounding: [f32; 2]) -> f32 {
        let [ra, rb] = self.rounded_reach(rounding);
        let (na, nb) = (a.dq.inverse() * n, b.dq.inverse() * n);
        let turn = |r: f32, turned: Vec3A| if r == 0.0 { 0.0 } else { r * (turned.dot(n) - 1.0) };
        (n.dot(b.dp - a.dp) + (nb.dot(self.rb) - na.dot(self.ra)))
            + self.adjusted_separation
            + (turn(ra, na) + turn(rb, nb))
    }

    /// How much of each lever arm is rounding along the normal: all of a body's `rounding`
    /// at a speculative point (each arm reaches its own surface, `contact::Recycle`), less
    /// half the depth at a touching one (both arms end at the common point, halfway
    /// between the surfaces), never below zero.
    #[inline]
    pub fn rounded_reach(&self, rounding: [f32; 2]) -> [f32; 2] {
        let inside = 0.5 * self.depth.max(0.0);
        [(rounding[0] - inside).max(0.0), (rounding[1] - inside).max(0.0)]
    }
}

/// Fills `slot` with zero bytes in place and returns it as a value: a record of hundreds of
/// bytes or more is never built on the stack and copied (`MaybeUninit::zeroed` would be).
///
/// # Safety
/// Zero bytes must be a valid `T`.
#[inline]
pub(crate) unsafe fn zeroed_in<T>(slot: &mut std::mem::MaybeUninit<T>) -> &mut T {
    std::ptr::write_bytes(slot.as_mut_ptr(), 0, 1);
    slot.assume_init_mut()
}

impl ContactConstraint {
    /// Writes a default constraint into `slot` and returns it: in place, as zero bytes (the
    /// default of every field is zero; tested), so a constraint of over half a kilobyte is
    /// never built on the stack and copied.
    #[inline]
    pub fn default_in(slot: &mut std::mem::MaybeUninit<ContactConstraint>) -> &mut ContactConstraint {
        // SAFETY: every field is a float, an integer or an array or struct of them, for which
        // zero bytes are a valid value (and the default).
        unsafe { zeroed_in(slot) }
    }

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
/// triple the memory every pass streams through. (The restitution passes, over the few
/// manifolds that bounce, build theirs once for all their passes:
/// [`super::iterative::apply_restitution`].)
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

/// One point's impulses at the end of a step, as a method hands them to
/// [`store_point`].
#[derive(Clone, Copy, Debug)]
pub struct PointImpulses {
    /// Accumulated normal impulse of the last substep (warm starting).
    pub normal: f32,
    /// Accumulated friction impulses along t1, t2 of the last substep.
    pub tangent: [f32; 2],
    /// Normal impulse summed over the step's substeps.
    pub total_normal: f32,
    /// Friction impulses summed over the step's substeps.
    pub total_tangent: [f32; 2],
}

impl PointImpulses {
    /// The impulses of a scalar constraint point.
    pub fn of(p: &ConstraintPoint) -> PointImpulses {
        PointImpulses {
            normal: p.normal_impulse,
            tangent: p.tangent_impulse,
            total_normal: p.total_normal_impulse,
            total_tangent: p.total_tangent_impulse,
        }
    }
}

/// Writes point `k` of constraint `cc` (impulses `imp`) into its contact, with the tangent
/// basis (on the first point): the step's totals, and the last substep's impulses for warm
/// starting, friction as a world vector so the next basis can project it.
#[inline]
pub fn store_point(c: &mut Contact, cc: &ContactConstraint, k: usize, imp: &PointImpulses) {
    store_impulse(c, [cc.t1, cc.t2], k, cc.points[k].id, imp);
}

/// [`store_point`] from the parts of the constraint it reads: its tangent basis and point
/// `k`'s feature id (the SIMD solver keeps them in its lanes).
#[inline]
pub fn store_impulse(c: &mut Contact, [t1, t2]: [Vec3A; 2], k: usize, id: FeatureId, imp: &PointImpulses) {
    if k == 0 {
        c.tangents = [t1.into(), t2.into()];
        // None unless the scalar rows store one after the points (`store_constraint`).
        c.rolling_impulse = Vec3::ZERO;
    }
    c.impulses[k] = PointImpulse {
        id,
        normal: imp.total_normal,
        tangent: imp.total_tangent,
        warm_normal: imp.normal,
        warm_friction: (t1 * imp.tangent[0] + t2 * imp.tangent[1]).into(),
    };
}

/// Stores every point of `cc` in its contact `c` from the scalar record.
#[inline]
pub fn store_constraint(cc: &ContactConstraint, c: &mut Contact) {
    for (k, p) in cc.points[..cc.count as usize].iter().enumerate() {
        store_point(c, cc, k, &PointImpulses::of(p));
    }
    c.rolling_impulse = cc.rolling_impulse.into();
}

/// Stores every point of `constraints` in its contact from the scalar records.
pub fn store_constraints(constraints: &[ContactConstraint], contacts: &mut [Box<Contact>]) {
    for cc in constraints {
        store_constraint(cc, &mut contacts[cc.contact as usize]);
    }
}

#[cfg(test)]
mod tests {
    use super::ContactConstraint;

    /// [`ContactConstraint::default_in`] writes zero bytes: that must be the default.
    #[test]
    fn a_constraint_of_zero_bytes_is_the_default() {
        let mut slot = std::mem::MaybeUninit::uninit();
        let zeroed = *ContactConstraint::default_in(&mut slot);
        assert_eq!(format!("{zeroed:?}"), format!("{:?}", ContactConstraint::default()));
    }
}
