//! Friction at rest: only what holds the bodies.
//!
//! The friction rows of a manifold's points can carry a pattern that pushes and pulls the
//! points against each other and adds up to no force and no twist. Four points in a plane
//! have eight friction unknowns and three equations: the force in the plane and the twist
//! about the normal. Nothing in the iterations removes such a pattern once warm starting
//! carries it: a box that landed turning came to rest with a third or more of its normal
//! impulse as friction at each corner, summing to zero, for ever (docs/BENCHMARKS.md, the
//! twelfth session, has the figures).
//!
//! So when a pair comes to rest, its warm friction is replaced by the least one with the
//! same force and twist ([`settle`]), once. "At rest" means its manifold is recycled and each
//! of its moving bodies has stayed under the sleep speeds for three quarters of the time it
//! takes to fall asleep (`Settings::sleep_time`): by then a landing's rocking is over and
//! the normal impulses have evened out (settled earlier, a pattern grows back with their
//! last evening out). Until the replacement is taken, it is tried again each step
//! ([`crate::physics::contact::Recycle::settled`]); a new manifold starts over. The bodies
//! feel the same push; only its split between the points changes: the force shared in
//! proportion to the points' normal impulses, the twist as a rigid turn. At rest the
//! iterations then leave it so. A box at rest on flat ground shows no friction. One at rest
//! on a slope shows friction at each point in proportion to its load, tan θ of its normal
//! impulse.
//!
//! Limits: the split is taken only where no point's share of friction, as a fraction of its
//! normal impulse, exceeds the largest fraction any point had before (so it stays inside
//! every friction cone the solver had kept). A pair resting at the edge of sliding may
//! therefore keep its pattern, and is tried again each step it rests. A pair that rests
//! while its manifold is computed afresh each step (not recycled) is not settled. A mesh
//! pair's manifolds (one per normal group) are settled each on its own: friction that
//! balances between two groups (a ball wedged in a V) is not a pattern of either, and stays.

use crate::physics::contact::Contact;
use crate::physics::math::tangent_basis;
use glam::{Vec3A, Vec4};

/// Replaces contact `c`'s warm friction impulses with the least ones (smallest Σ|fₖ|²/Nₖ,
/// `Nₖ` each point's warm normal impulse) that have the same sum and the same twist about
/// the normal (module docs); whether it did (it does not where the split would raise some
/// point's friction past the largest fraction of its normal impulse any point had).
///
/// With the points' offsets `dₖ` in the plane from their centre weighted by `Nₖ`, the least
/// split is `fₖ = Nₖ·(F/ΣN + ω·(n × dₖ))`: the sum `F` shared in proportion to the normal
/// impulses, and the twist `T = Σ n·(dₖ × fₖ)` as a rigid turn, `ω = T / Σ Nₖ|dₖ|²`. The
/// offsets come from the lever arms the solver uses, so the bodies feel the same force and
/// twist (exactly when the points lie in one plane across `n`; to the spread of their
/// depths otherwise).
pub fn settle(c: &mut Contact) -> bool {
    let m = c.manifold.points.len();
    if m < 2 {
        return true;
    }
    let n = Vec3A::from(c.manifold.normal);
    let (t1, t2) = tangent_basis(n.into());
    let (t1, t2) = (Vec3A::from(t1), Vec3A::from(t2));
    // One lane per point, along (t1, t2); missing points are zero in every lane and add
    // nothing to any sum.
    let (mut normal, mut u, mut v, mut fx, mut fy) = ([0.0; 4], [0.0; 4], [0.0; 4], [0.0; 4], [0.0; 4]);
    for k in 0..m {
        let (ra, f) = (Vec3A::from(c.recycle.levers[k].0), Vec3A::from(c.impulses[k].warm_friction));
        (normal[k], u[k], v[k]) = (c.impulses[k].warm_normal, ra.dot(t1), ra.dot(t2));
        (fx[k], fy[k]) = (f.dot(t1), f.dot(t2));
    }
    let (normal, u, v) = (Vec4::from_array(normal), Vec4::from_array(u), Vec4::from_array(v));
    let (fx, fy) = (Vec4::from_array(fx), Vec4::from_array(fy));
    let load = normal.element_sum();
    if load <= 0.0 {
        return true;
    }
    // Offsets from the centre weighted by the normal impulses.
    let (du, dv) = (u - (normal * u).element_sum() / load, v - (normal * v).element_sum() / load);
    // The twist n·Σ(dₖ × fₖ), with (t1, t2, n) right-handed, and Σ Nₖ|dₖ|².
    let twist = (du * fy - dv * fx).element_sum();
    let spread = (normal * (du * du + dv * dv)).element_sum();
    let turn = if spread > 0.0 { twist / spread } else { 0.0 };
    // Nₖ·(F/ΣN + ω·(n × dₖ)), with n × d = (−d₂, d₁) along (t1, t2).
    let lx = normal * (fx.element_sum() / load - turn * dv);
    let ly = normal * (fy.element_sum() / load + turn * du);
    // The largest friction-to-normal fraction the solver had left at a point (squared).
    let mut most: f32 = 0.0;
    for k in 0..m {
        let nk = normal[k];
        if nk > 0.0 {
            most = most.max((fx[k] * fx[k] + fy[k] * fy[k]) / (nk * nk));
        }
    }
    if (lx * lx + ly * ly).cmpgt(normal * normal * (most * (1.0 + 1e-5))).any() {
        return false;
    }
    for k in 0..m {
        c.impulses[k].warm_friction = (t1 * lx[k] + t2 * ly[k]).into();
    }
    true
}
