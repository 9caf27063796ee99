//! Angle joint: limits on the relative rotation only (no point constraint; pair it with a
//! ball joint for a shoulder or a hip): a cone and a twist range about an axis.
//!
//! - cone: with `a_A`, `a_B` the axis as fixed in A and in B, `C = a_A·a_B − cos(cone) ≥ 0`;
//!   `Ċ = (ωA×a_A)·a_B + a_A·(ωB×a_B) = (a_B × a_A)·(ωB − ωA)`: one angular row, one-sided;
//! - twist: the twist angle τ about `a_A` of `R = q_A⁻¹·q_B·ref⁻¹` (swing–twist
//!   decomposition), rows `τ − lower ≥ 0`, `upper − τ ≥ 0` along `a_A`.
//!
//! Limits: the cone row vanishes when the axes are aligned (there it is never active for a
//! cone > 0); the twist row is exact when the swing is zero (`τ̇ = a_A·(ωB − ωA)`).

use super::hinge::neg;
use super::row::{solve_limit, twist_angle, Frame, Jac};
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;

/// The cone row and `a_A·a_B`.
#[inline]
pub fn cone(j: &Joint, f: &Frame) -> (Jac, f32) {
    let (aa, ab) = (f.qa * j.local.axis_a, f.qb * j.local.axis_b);
    (Jac::angular(ab.cross(aa)), aa.dot(ab))
}

/// The twist row and the twist angle.
#[inline]
pub fn twist(j: &Joint, f: &Frame) -> (Jac, f32) {
    (Jac::angular(f.qa * j.local.axis_a), twist_angle(j.relative(f), j.local.axis_a))
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Angle { cone: max_cone, twist: range, .. } = j.kind else { return };
    if let Some((lo, hi)) = range {
        let (row, t) = twist(j, f);
        let imp = &mut j.impulses;
        solve_limit(&row, t - lo, pass, &mut imp.lower, a, b);
        solve_limit(&neg(&row), hi - t, pass, &mut imp.upper, a, b);
    }
    if let Some(c) = max_cone {
        let (row, cos) = cone(j, f);
        solve_limit(&row, cos - c.cos(), pass, &mut j.impulses.cone, a, b);
    }
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    let JointKind::Angle { cone: max_cone, twist: range, .. } = j.kind else { return };
    if let Some((lo, hi)) = range {
        let (row, t) = twist(j, f);
        out.push("twist lower", Role::AngularLimit, row, t - lo, j.impulses.lower);
        out.push("twist upper", Role::AngularLimit, neg(&row), hi - t, j.impulses.upper);
    }
    if let Some(c) = max_cone {
        let (row, cos) = cone(j, f);
        out.push("cone", Role::AngularLimit, row, cos - c.cos(), j.impulses.cone);
    }
}
