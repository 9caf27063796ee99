//! Filling the wide solver's batches ([`super::WideSolver::build`]): the four lanes of a
//! batch from their scalar constraints at once (bodies, directions, materials, and per
//! point slot the lever arms, separations and warm impulses; into the cold part what only
//! the separation update of rounded shapes, the totals and the store read), then the
//! effective masses of every point slot, four lanes at a time. The passes read only what
//! is written here and the bodies.
//!
//! A batch is filled by 4×4 transposes: each lane's vector (a normal, a lever arm, an
//! inertia column) or four numbers of its point (neighbours in [`ConstraintPoint`]) go in
//! as one row and come out as four lanes, instead of one number stored into one lane at a
//! time (the fill is bound by its instruction count, not by memory).
//!
//! Limits: a lane copies its constraint's numbers as they are, except the effective
//! masses, which are computed here in lanes by the scalar formula (the scalar constraints
//! hold them only where scalar code reads them); a lane's masses agree with that formula to
//! rounding.

use super::{BatchCold, WideBatch, WideRow, V3};
use crate::physics::collide::FeatureId;
use crate::physics::solver::lanes::{per_lane, Sym3, LANES};
use crate::physics::solver::{ConstraintPoint, ContactConstraint, SolverBody};
use glam::{Mat4, Vec4};

/// The effective masses of the used point slots of `w`, four lanes at a time: the formula of
/// [`crate::physics::solver::Row::effective_mass`], zero in slots a lane's manifold does not
/// have (past its lane's point count, `counts`) and wherever `k` is not positive.
pub(super) fn lane_masses(w: &mut WideBatch, counts: &[u32; 4]) {
    let m = w.bodies.inv_mass_a + w.bodies.inv_mass_b;
    let (bb, dirs) = (&w.bodies, [w.normal, w.t1, w.t2]);
    for (k, p) in w.points[..w.slots].iter_mut().enumerate() {
        let live = live_lanes(counts, k);
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

/// The lanes whose manifold has a point `k` (`counts`: each lane's point count).
#[inline(always)]
fn live_lanes(counts: &[u32; 4], k: usize) -> glam::BVec4A {
    let c = Vec4::new(counts[0] as f32, counts[1] as f32, counts[2] as f32, counts[3] as f32);
    c.cmpgt(Vec4::splat(k as f32))
}

/// The lanes' numbers, for [`per_lane`] over lanes.
const LANE_NUMBERS: [usize; LANES] = [0, 1, 2, 3];

/// Rows `r[0..4]` transposed: component i of every row, as lane i.
#[inline(always)]
fn transpose(r: [Vec4; LANES]) -> Mat4 {
    Mat4::from_cols(r[0], r[1], r[2], r[3]).transpose()
}

/// Fills `w` and `cold`, both zero, from the constraints `chunk` names (indices into
/// `constraints`, at most [`LANES`]); the lanes past them take `empty`, a constraint with no
/// points whose bodies are the static body that fills empty lanes.
pub(super) fn fill_batch(
    w: &mut WideBatch,
    cold: &mut BatchCold,
    chunk: &[u32],
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    empty: &ContactConstraint,
) {
    debug_assert!(chunk.len() <= LANES);
    let source = per_lane(&LANE_NUMBERS, |l| chunk.get(l).copied().unwrap_or(u32::MAX));
    let cs = per_lane(&source, |ci| if ci == u32::MAX { empty } else { &constraints[ci as usize] });
    cold.source = source;
    cold.contact = per_lane(&cs, |c| c.contact);
    cold.count = per_lane(&cs, |c| c.count);
    w.bodies.a = per_lane(&cs, |c| c.a);
    w.bodies.b = per_lane(&cs, |c| c.b);
    let (ba, bb) = (per_lane(&w.bodies.a, |i| &bodies[i as usize]), per_lane(&w.bodies.b, |i| &bodies[i as usize]));
    w.bodies.inv_mass_a = Vec4::from_array(per_lane(&ba, |b| b.inv_mass));
    w.bodies.inv_mass_b = Vec4::from_array(per_lane(&bb, |b| b.inv_mass));
    w.bodies.inv_i_a = Sym3::from_lanes(per_lane(&ba, |b| &b.inv_i));
    w.bodies.inv_i_b = Sym3::from_lanes(per_lane(&bb, |b| &b.inv_i));
    w.normal = V3::from_lanes(per_lane(&cs, |c| c.normal));
    w.t1 = V3::from_lanes(per_lane(&cs, |c| c.t1));
    w.t2 = V3::from_lanes(per_lane(&cs, |c| c.t2));
    let materials = transpose(per_lane(&cs, |c| {
        Vec4::new(c.friction, c.softness.bias_rate, c.softness.mass_scale, c.softness.impulse_scale)
    }));
    (w.friction, w.bias_rate, w.mass_scale, w.impulse_scale) =
        (materials.x_axis, materials.y_axis, materials.z_axis, materials.w_axis);
    let rounded = per_lane(&cs, |c| c.rounding != [0.0; 2]);
    if rounded.contains(&true) {
        w.rounded = true;
        // Only the rounded lanes' (the others keep +0, whatever the sign of their zeros).
        let r =
            |i: usize| Vec4::from_array(per_lane(&LANE_NUMBERS, |l| if rounded[l] { cs[l].rounding[i] } else { 0.0 }));
        cold.rounding = [r(0), r(1)];
        for (lane, c) in cs.iter().enumerate().filter(|&(lane, _)| rounded[lane]) {
            for (inside, p) in cold.inside.iter_mut().zip(&c.points[..c.count as usize]) {
                inside[lane] = 0.5 * p.depth.max(0.0);
            }
        }
    }
    w.slots = cold.count.into_iter().max().unwrap_or(0) as usize;
    let mut idle = false;
    for k in 0..w.slots {
        let ps: [&ConstraintPoint; LANES] = per_lane(&cs, |c| &c.points[k]);
        let live = live_lanes(&cold.count, k);
        // A lane whose manifold has no point k keeps zeros in slot k.
        let all = live.all();
        let keep = |v: Vec4| if all { v } else { Vec4::select(live, v, Vec4::ZERO) };
        let keep3 = |v: V3| V3 { x: keep(v.x), y: keep(v.y), z: keep(v.z) };
        let wp = &mut w.points[k];
        wp.ra = keep3(V3::from_lanes(per_lane(&ps, |p| p.ra)));
        wp.rb = keep3(V3::from_lanes(per_lane(&ps, |p| p.rb)));
        let s = transpose(per_lane(&ps, |p| {
            Vec4::new(p.adjusted_separation, p.separation, p.normal_impulse, p.max_normal_impulse)
        }));
        (wp.adjusted, wp.separation, wp.normal_impulse, wp.max_normal) =
            (keep(s.x_axis), keep(s.y_axis), keep(s.z_axis), keep(s.w_axis));
        let f = transpose(per_lane(&ps, |p| {
            Vec4::new(
                p.tangent_impulse[0],
                p.tangent_impulse[1],
                p.total_tangent_impulse[0],
                p.total_tangent_impulse[1],
            )
        }));
        wp.tangent_impulse = [keep(f.x_axis), keep(f.y_axis)];
        cold.total_tangent[k] = [keep(f.z_axis), keep(f.w_axis)];
        cold.total_normal[k] = keep(Vec4::from_array(per_lane(&ps, |p| p.total_normal_impulse)));
        // Some point apart or holding no impulse: its slot may be idle in every lane.
        idle |= (live & (wp.separation.cmpgt(Vec4::ZERO) | wp.normal_impulse.cmpeq(Vec4::ZERO))).any();
        let mask = live.bitmask();
        cold.ids[k] = per_lane(&LANE_NUMBERS, |l| if mask & (1 << l) != 0 { ps[l].id } else { FeatureId::default() });
    }
    w.idle_slots = idle;
}
