//! Wheel (line) joint: B's anchor (the wheel's centre) moves along A's suspension axis on a
//! spring, and B spins freely about its axle, which stays parallel to A's copy of it.
//!
//! Rows:
//! - line: two linear rows ⟂ the suspension axis n (fixed in A), as the slider's
//!   ([`super::slider::line`]), one 2×2 block;
//! - suspension: the row along n with `C = n·d` (0 at creation), a soft row with the
//!   spring's frequency and damping ratio, in every pass; optional travel limits;
//! - axle: with `s_A`, `s_B` the axle as fixed in A and in B and `bᵢ ⟂ s_A`,
//!   `Cᵢ = bᵢ·s_B = 0` (the hinge's swing rows, [`super::hinge::swing`]);
//! - motor: drives `s_A·(ωB − ωA)` to its speed with at most `max_torque·h`.
//!
//! Limits: no steering (the axle is fixed in A); the spring has no preload (rest at the
//! authored position).

use super::hinge::neg;
use super::row::{solve_block, solve_limit, solve_motor, solve_row, Feedback, Frame, Jac};
use super::slider::line;
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;

/// The suspension row and the travel.
#[inline]
pub fn suspension(j: &Joint, f: &Frame) -> (Jac, f32) {
    super::slider::axial(j, f)
}

/// The axle rows and their errors.
#[inline]
pub fn axle(j: &Joint, f: &Frame) -> ([Jac; 2], [f32; 2]) {
    let sb = f.qb * j.local.spin_b;
    let (b1, b2) = (f.qa * j.local.spin_perp_a[0], f.qa * j.local.spin_perp_a[1]);
    ([Jac::angular(sb.cross(b1)), Jac::angular(sb.cross(b2))], [b1.dot(sb), b2.dot(sb)])
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Wheel { spring, limits, motor, .. } = j.kind else { return };
    if let Some(m) = motor {
        let row = Jac::angular(f.qa * j.local.spin_a);
        solve_motor(&row, m.speed, m.max * pass.h, &mut j.impulses.motor, a, b);
    }
    let (row, s) = suspension(j, f);
    if spring.hertz > 0.0 {
        solve_row(&row, s, Feedback::soft(&j.start.spring), &mut j.impulses.axial, a, b);
    }
    if let Some((lo, hi)) = limits {
        let imp = &mut j.impulses;
        solve_limit(&row, s - lo, pass, &mut imp.lower, a, b);
        solve_limit(&neg(&row), hi - s, pass, &mut imp.upper, a, b);
    }
    let fb = Feedback::rigid(&pass.soft, pass.use_bias);
    let (rows, c) = axle(j, f);
    solve_block(&rows, c, fb, &mut j.impulses.pair2, a, b);
    let (rows, c) = line(j, f);
    solve_block(&rows, c, fb, &mut j.impulses.pair, a, b);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    let JointKind::Wheel { limits, motor, .. } = j.kind else { return };
    if motor.is_some() {
        out.push("motor", Role::Motor, Jac::angular(f.qa * j.local.spin_a), 0.0, j.impulses.motor);
    }
    let (row, s) = suspension(j, f);
    out.push("suspension", Role::Spring, row, s, j.impulses.axial);
    if let Some((lo, hi)) = limits {
        out.push("lower limit", Role::LinearLimit, row, s - lo, j.impulses.lower);
        out.push("upper limit", Role::LinearLimit, neg(&row), hi - s, j.impulses.upper);
    }
    let (rows, c) = axle(j, f);
    out.push("axle 1", Role::Angular, rows[0], c[0], j.impulses.pair2[0]);
    out.push("axle 2", Role::Angular, rows[1], c[1], j.impulses.pair2[1]);
    let (rows, c) = line(j, f);
    out.push("line 1", Role::Linear, rows[0], c[0], j.impulses.pair[0]);
    out.push("line 2", Role::Linear, rows[1], c[1], j.impulses.pair[1]);
}
