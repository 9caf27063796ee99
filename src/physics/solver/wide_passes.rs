//! The per-batch stage functions of the SIMD solver ([`super::WideSolver`]): the warm
//! start, one pass of friction and non-penetration rows, the separation update and the
//! step totals, each for the four lanes of one batch. The solver runs them over every
//! batch, colour after colour, shared out between the worker threads; each reads and
//! writes only its own batch and that batch's bodies.
//!
//! Limits: the maths is `super::super::iterative`'s, lane by lane (see the module above
//! for what is grouped otherwise and skipped with the same numbers).

use super::{inertia_mul, BatchCold, Pass, Velocities, WideBatch, WidePoint};
use crate::physics::parallel::Shared;
use crate::physics::solver::lanes::{gather_v3, sqrt4, Bodies, Q4, V3};
use crate::physics::solver::SolverBody;
use glam::Vec4;

/// Re-applies one batch's accumulated impulses (see [`super::WideSolver::warm_start`]); `ISO`:
/// the batch is [`super::BatchBodies::isotropic`].
#[inline(always)]
pub(super) fn warm_start_batch<const ISO: bool>(w: &WideBatch, bodies: &Shared<SolverBody>) {
    // Box3D's form: sum each body's impulse and moment over the points, then one
    // inverse-inertia product per body (the rows need not be built here). Idle slots hold
    // nothing to apply ([`idle`]), and a batch of nothing but idle slots is left alone.
    let (mut lin, mut ang_a, mut ang_b) = (V3::default(), V3::default(), V3::default());
    let mut applied = false;
    for p in &w.points[..w.slots] {
        if w.idle_slots && idle(p) {
            continue;
        }
        applied = true;
        let mut j = w.normal.scale(p.normal_impulse);
        j.add_scaled(&w.t1, p.tangent_impulse[0]);
        j.add_scaled(&w.t2, p.tangent_impulse[1]);
        lin = lin.add(&j);
        ang_a = ang_a.add(&p.ra.cross(&j));
        ang_b = ang_b.add(&p.rb.cross(&j));
    }
    if !applied {
        return;
    }
    let mut v = Velocities::gather(bodies, &w.bodies);
    v.va.add_scaled(&lin, -v.ima);
    v.vb.add_scaled(&lin, v.imb);
    v.wa = v.wa.sub(&inertia_mul::<ISO>(&w.bodies.inv_i_a, &ang_a));
    v.wb = v.wb.add(&inertia_mul::<ISO>(&w.bodies.inv_i_b, &ang_b));
    v.scatter(bodies, &w.bodies);
}

/// Separations of `w`'s points from how far its bodies moved and turned since the step
/// began (see [`super::WideSolver::update_separations`]), in the form of
/// [`crate::physics::solver::ConstraintPoint::separation_now`]: `n·(qB·rB − qA·rA)` as `(qB*·n)·rB −
/// (qA*·n)·rA`, the normal turned back once per batch, then two dot products per point (a
/// turn of every arm would cost about six).
#[inline]
pub(super) fn batch_separations<B: Bodies + ?Sized>(w: &mut WideBatch, cold: &BatchCold, bodies: &B) {
    let dp = gather_v3(bodies, &w.bodies.b, |b| b.dp).sub(&gather_v3(bodies, &w.bodies.a, |b| b.dp));
    let (qa, qb) = (Q4::gather(bodies, &w.bodies.a), Q4::gather(bodies, &w.bodies.b));
    let n = &w.normal;
    let (na, nb) = (qa.rotate_back(n), qb.rotate_back(n));
    let moved = n.dot(&dp);
    let turned = |p: &WidePoint| moved + (nb.dot(&p.rb) - na.dot(&p.ra)) + p.adjusted;
    if w.rounded {
        // The rounded parts of the arms stay along the normal (`contact::round_turn`):
        // n·(q·n) = (q*·n)·n.
        let [ra, rb] = cold.rounding;
        let (ta, tb) = (na.dot(n) - Vec4::ONE, nb.dot(n) - Vec4::ONE);
        for (p, &inside) in w.points[..w.slots].iter_mut().zip(&cold.inside) {
            let reach = |r: Vec4| (r - inside).max(Vec4::ZERO);
            p.separation = turned(p) + (reach(ra) * ta + reach(rb) * tb);
        }
    } else {
        for p in &mut w.points[..w.slots] {
            p.separation = turned(p);
        }
    }
}

/// Adds the impulses of `w`'s points to the step totals (see
/// [`super::WideSolver::accumulate_totals`]).
#[inline]
pub(super) fn batch_totals(w: &WideBatch, cold: &mut BatchCold) {
    let totals = cold.total_normal.iter_mut().zip(&mut cold.total_tangent);
    for (p, (normal, tangent)) in w.points[..w.slots].iter().zip(totals) {
        *normal += p.normal_impulse;
        tangent[0] += p.tangent_impulse[0];
        tangent[1] += p.tangent_impulse[1];
    }
}

/// Below `INSIDE_DISC · max²`, |impulse|² is surely inside the friction disc as the exact
/// test computes it (`√|impulse|² > max`, rounded): max² and this product are within
/// 2·2⁻²⁴ of exact and the rounded square root within 2⁻²⁴, far less than the margin
/// (2·10⁻⁶ on |impulse|², 10⁻⁶ on |impulse|).
pub(super) const INSIDE_DISC: f32 = 1.0 - 2e-6;

/// What one pass of [`super::WideSolver::pass`] gives every batch.
pub(super) struct PassConstants {
    pub(super) pass: Pass,
    pub(super) inv_h: Vec4,
    pub(super) max_push: Vec4,
}

/// One pass over one batch (see [`super::WideSolver::pass`]); `ISO`: the batch is
/// [`super::BatchBodies::isotropic`].
#[inline(always)]
pub(super) fn solve_batch<const ISO: bool>(
    w: &mut WideBatch,
    cold: &mut BatchCold,
    bodies: &Shared<SolverBody>,
    k: &PassConstants,
) {
    let Pass { use_bias, reverse, update, accumulate, .. } = k.pass;
    let (zero, one, inv_h, max_push) = (Vec4::ZERO, Vec4::ONE, k.inv_h, k.max_push);
    if update {
        batch_separations(w, cold, bodies);
    }
    let n = w.slots;
    let mut v = Velocities::gather(bodies, &w.bodies);
    let (bias_rate, mass_scale, impulse_scale) =
        if use_bias { (w.bias_rate, w.mass_scale, w.impulse_scale) } else { (zero, one, zero) };
    // The linear relative velocity along n, t1 and t2, kept as three numbers: an
    // impulse along one of these orthonormal directions changes only its own
    // component, so the linear velocities are updated once, after the manifold, from
    // the summed impulses (Box3D does this for the normal).
    let im = v.ima + v.imb;
    let dv = v.vb.sub(&v.va);
    let (mut un, mut u1, mut u2) = (w.normal.dot(&dv), w.t1.dot(&dv), w.t2.dot(&dv));
    let (mut jn, mut j1, mut j2) = (zero, zero, zero);
    // Friction first, non-penetration last (see `iterative::solve`).
    let bb = &w.bodies;
    let idle_slots = w.idle_slots;
    each_slot(&mut w.points[..n], reverse, |p| {
        // A slot where no lane holds a normal or a friction impulse (speculative points
        // still apart, empty lanes) has a friction disc of radius 0 and no friction to
        // take back: its rows would add ±0 to every velocity. Skipped, with the same numbers.
        if idle_slots && idle(p) {
            return;
        }
        // The spin's part of the point's relative velocity, ωB × rB − ωA × rA, taken once
        // for both rows: (r × t)·ω = t·(ω × r).
        let spin = v.wb.cross(&p.rb).sub(&v.wa.cross(&p.ra));
        let old = p.tangent_impulse;
        let v1 = u1 + w.t1.dot(&spin);
        let v2 = u2 + w.t2.dot(&spin);
        let n1 = old[0] - p.tangent_mass[0] * v1;
        let n2 = old[1] - p.tangent_mass[1] * v2;
        let max = w.friction * p.normal_impulse;
        let len2 = n1 * n1 + n2 * n2;
        // Inside the friction disc keep the impulse, else scale it onto the rim. Resting
        // points are mostly well inside: when every lane's |impulse|² is below max² by more
        // than the roundings of max², the square root and the division can reach
        // (`INSIDE_DISC`), every scale is exactly 1 and both are skipped — the same numbers.
        // A zero impulse (empty slots and lanes: max = 0 too) is never scaled (√0 > max
        // is false for every max ≥ 0), so it does not force the exact path.
        let (n1, n2) = if (len2.cmpge(max * max * INSIDE_DISC) & len2.cmpgt(zero)).any() {
            let len = sqrt4(len2);
            let scale = Vec4::select(len.cmpgt(max), max / len, one);
            (n1 * scale, n2 * scale)
        } else {
            (n1, n2)
        };
        p.tangent_impulse = [n1, n2];
        let (d1, d2) = (n1 - old[0], n2 - old[1]);
        u1 += d1 * im;
        u2 += d2 * im;
        j1 += d1;
        j2 += d2;
        // The combined friction impulse and its moments about each body (one
        // inverse-inertia product per body).
        let mut dj = w.t1.scale(d1);
        dj.add_scaled(&w.t2, d2);
        v.wa = v.wa.sub(&inertia_mul::<ISO>(&bb.inv_i_a, &p.ra.cross(&dj)));
        v.wb = v.wb.add(&inertia_mul::<ISO>(&bb.inv_i_b, &p.rb.cross(&dj)));
    });
    each_slot(&mut w.points[..n], reverse, |p| {
        let s = p.separation;
        // Speculative (s > 0): close the gap exactly; else the soft push-out.
        let spec = s.cmpgt(zero);
        let bias = Vec4::select(spec, s * inv_h, (bias_rate * s).max(max_push));
        let ms = Vec4::select(spec, one, mass_scale);
        let is = Vec4::select(spec, zero, impulse_scale);
        let (ca, cb) = (p.ra.cross(&w.normal), p.rb.cross(&w.normal));
        let vn = un + cb.dot(&v.wb) - ca.dot(&v.wa);
        let old = p.normal_impulse;
        let new = (old - p.normal_mass * ms * (vn + bias) - is * old).max(zero);
        p.normal_impulse = new;
        p.max_normal = p.max_normal.max(new);
        let d = new - old;
        un += d * im;
        jn += d;
        // The spin's change, I⁻¹(r × n)·d: two symmetric 3×3 products in a batch that is
        // not isotropic, left out where no lane's impulse changed (a speculative point
        // still apart stays at zero), which adds ±0 to no velocity.
        if ISO || d.cmpne(zero).any() {
            v.wa.add_scaled(&inertia_mul::<ISO>(&bb.inv_i_a, &ca), -d);
            v.wb.add_scaled(&inertia_mul::<ISO>(&bb.inv_i_b, &cb), d);
        }
    });
    if accumulate {
        batch_totals(w, cold);
    }
    let mut j = w.normal.scale(jn);
    j.add_scaled(&w.t1, j1);
    j.add_scaled(&w.t2, j2);
    v.va.add_scaled(&j, -v.ima);
    v.vb.add_scaled(&j, v.imb);
    v.scatter(bodies, &w.bodies);
}

/// No lane of slot `p` holds a normal or a friction impulse (a speculative point still
/// apart, or an empty lane): its friction rows have a disc of radius 0 and nothing to take
/// back, and its warm start applies nothing.
#[inline(always)]
pub(super) fn idle(p: &WidePoint) -> bool {
    let zero = Vec4::ZERO;
    !(p.normal_impulse.cmpne(zero) | p.tangent_impulse[0].cmpne(zero) | p.tangent_impulse[1].cmpne(zero)).any()
}

/// Runs `f` on each of `points`, first to last, or last to first with `reverse` (the
/// passes alternate the order, as `iterative::solve` does): two plain loops, with no index
/// arithmetic or bounds test per point.
#[inline(always)]
fn each_slot(points: &mut [WidePoint], reverse: bool, mut f: impl FnMut(&mut WidePoint)) {
    if reverse {
        points.iter_mut().rev().for_each(&mut f);
    } else {
        points.iter_mut().for_each(f);
    }
}
