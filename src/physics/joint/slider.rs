//! Slider (prismatic) joint: B moves along an axis fixed in A and does not turn relative to
//! A; optional translation limits and a motor.
//!
//! Rows (dyn4j's prismatic = line + angle joint, in 3D): with `d = pB − pA` and `pᵢ ⟂ n`
//! turning with A, `Cᵢ = pᵢ·d = 0`, whose derivative is
//! `Ċᵢ = pᵢ·(vB − vA) + (rB×pᵢ)·ωB − ((rA + d)×pᵢ)·ωA` ([`super::row::Jac::linear_on_a`]);
//! two rows solved as a 2×2 block. The rotation is held by the weld's angular block
//! ([`super::weld::angular_error`]). The translation `s = n·d` has the same kind of row
//! along n; the motor drives `ṡ` to its speed with at most `max_force·h`, the limits are
//! one-sided rows.
//!
//! Limits: the linear and angular blocks are solved one after the other (not one 5×5 block).

use super::hinge::neg;
use super::row::{solve_block, solve_limit, solve_motor, solve_rotation, Feedback, Frame, Jac};
use super::weld::angular_error;
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;

/// The two rows ⟂ the axis and their errors.
#[inline]
pub fn line(j: &Joint, f: &Frame) -> ([Jac; 2], [f32; 2]) {
    let (p1, p2) = (f.qa * j.local.perp_a[0], f.qa * j.local.perp_a[1]);
    ([Jac::linear_on_a(f.ra, f.rb, f.d, p1), Jac::linear_on_a(f.ra, f.rb, f.d, p2)], [p1.dot(f.d), p2.dot(f.d)])
}

/// The row along the axis and the translation.
#[inline]
pub fn axial(j: &Joint, f: &Frame) -> (Jac, f32) {
    let n = f.qa * j.local.axis_a;
    (Jac::linear_on_a(f.ra, f.rb, f.d, n), n.dot(f.d))
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Slider { limits, motor, .. } = j.kind else { return };
    if motor.is_some() || limits.is_some() {
        let (row, s) = axial(j, f);
        if let Some(m) = motor {
            solve_motor(&row, m.speed, m.max * pass.h, &mut j.impulses.motor, a, b);
        }
        if let Some((lo, hi)) = limits {
            let imp = &mut j.impulses;
            solve_limit(&row, s - lo, pass, &mut imp.lower, a, b);
            solve_limit(&neg(&row), hi - s, pass, &mut imp.upper, a, b);
        }
    }
    let fb = Feedback::rigid(&pass.soft, pass.use_bias);
    solve_rotation(angular_error(j, f), fb, &mut j.impulses.angular, a, b);
    let (rows, c) = line(j, f);
    solve_block(&rows, c, fb, &mut j.impulses.pair, a, b);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    let JointKind::Slider { limits, motor, .. } = j.kind else { return };
    let (row, s) = axial(j, f);
    if motor.is_some() {
        out.push("motor", Role::Motor, row, s, j.impulses.motor);
    }
    if let Some((lo, hi)) = limits {
        out.push("lower limit", Role::LinearLimit, row, s - lo, j.impulses.lower);
        out.push("upper limit", Role::LinearLimit, neg(&row), hi - s, j.impulses.upper);
    }
    out.push_rotation(angular_error(j, f), j.impulses.angular);
    let (rows, c) = line(j, f);
    out.push("line 1", Role::Linear, rows[0], c[0], j.impulses.pair[0]);
    out.push("line 2", Role::Linear, rows[1], c[1], j.impulses.pair[1]);
}
