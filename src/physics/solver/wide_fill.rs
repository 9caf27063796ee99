//! Filling the wide solver's batches ([`super::WideSolver::build`]): each lane from its
//! scalar constraint (bodies, directions, materials, the points' lever arms, separations
//! and warm impulses; into the cold part what only the separation update, the totals and
//! the store read), then the effective masses of every point slot, four lanes at a time.
//! The passes read only what is written here and the bodies.
//!
//! Limits: a lane copies its constraint's numbers as they are, except the effective
//! masses, which are computed here in lanes by the scalar formula (the scalar constraints
//! hold them only where scalar code reads them); a lane's masses agree with that formula to
//! rounding.

use super::{BatchCold, WideBatch, WideRow, V3};
use crate::physics::solver::{ContactConstraint, SolverBody};
use glam::Vec4;

/// The effective masses of the used point slots of `w`, four lanes at a time: the formula of
/// [`crate::physics::solver::Row::effective_mass`], zero in slots a lane's manifold does not
/// have (past its lane's point count, `counts`) and wherever `k` is not positive.
pub(super) fn lane_masses(w: &mut WideBatch, counts: &[u32; 4]) {
    let m = w.bodies.inv_mass_a + w.bodies.inv_mass_b;
    let (bb, dirs) = (&w.bodies, [w.normal, w.t1, w.t2]);
    for (k, p) in w.points[..w.slots].iter_mut().enumerate() {
        let live = Vec4::new(counts[0] as f32, counts[1] as f32, counts[2] as f32, counts[3] as f32)
            .cmpgt(Vec4::splat(k as f32));
        let mass = |d: &V3| {
            let row = if bb.isotropic {
                WideRow::new::<true>(bb, &p.ra, &p.rb, d)
            } else {
                WideRow::new::<false>(bb, &p.ra, &p.rb, d)
            };
            let kk = m + row.ca.dot(&row.ia) + row.cb.dot(&row.ib);
            Vec4::select(live & kk.cmpgt(Vec4::ZERO), Vec4::ONE / kk, Vec4::ZERO)
        };
        let (n, t1, t2) = (mass(&dirs[0]), mass(&dirs[1]), mass(&dirs[2]));
        p.normal_mass = n;
        p.tangent_mass = [t1, t2];
    }
}

/// Transposes scalar constraint `c` (index `ci`) into lane `lane` of `w` and its cold part.
pub(super) fn fill_lane(
    w: &mut WideBatch,
    cold: &mut BatchCold,
    lane: usize,
    ci: u32,
    c: &ContactConstraint,
    bodies: &[SolverBody],
) {
    w.bodies.a[lane] = c.a;
    w.bodies.b[lane] = c.b;
    w.bodies.inv_mass_a[lane] = bodies[c.a as usize].inv_mass;
    w.bodies.inv_mass_b[lane] = bodies[c.b as usize].inv_mass;
    w.bodies.inv_i_a.set(lane, bodies[c.a as usize].inv_i);
    w.bodies.inv_i_b.set(lane, bodies[c.b as usize].inv_i);
    cold.source[lane] = ci;
    cold.contact[lane] = c.contact;
    cold.count[lane] = c.count;
    w.normal.set(lane, c.normal);
    w.t1.set(lane, c.t1);
    w.t2.set(lane, c.t2);
    w.friction[lane] = c.friction;
    w.bias_rate[lane] = c.softness.bias_rate;
    w.mass_scale[lane] = c.softness.mass_scale;
    w.impulse_scale[lane] = c.softness.impulse_scale;
    if c.rounding != [0.0; 2] {
        w.rounded = true;
        cold.rounding[0][lane] = c.rounding[0];
        cold.rounding[1][lane] = c.rounding[1];
        for (inside, p) in cold.inside.iter_mut().zip(&c.points[..c.count as usize]) {
            inside[lane] = 0.5 * p.depth.max(0.0);
        }
    }
    for (k, (wp, p)) in w.points.iter_mut().zip(&c.points[..c.count as usize]).enumerate() {
        cold.ids[k][lane] = p.id;
        cold.total_normal[k][lane] = p.total_normal_impulse;
        cold.total_tangent[k][0][lane] = p.total_tangent_impulse[0];
        cold.total_tangent[k][1][lane] = p.total_tangent_impulse[1];
        wp.ra.set(lane, p.ra);
        wp.rb.set(lane, p.rb);
        wp.adjusted[lane] = p.adjusted_separation;
        wp.separation[lane] = p.separation;
        wp.normal_impulse[lane] = p.normal_impulse;
        wp.tangent_impulse[0][lane] = p.tangent_impulse[0];
        wp.tangent_impulse[1][lane] = p.tangent_impulse[1];
        wp.max_normal[lane] = p.max_normal_impulse;
        w.idle_slots |= p.separation > 0.0 || p.normal_impulse == 0.0;
    }
}
