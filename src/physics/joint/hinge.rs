//! Hinge (revolute) joint: ball plus B turning about one axis only, with optional angle
//! limits and a motor.
//!
//! Rows (3D form of dyn4j's revolute derivation):
//! - point: the ball block ([`super::ball`]);
//! - swing: with `a_A`, `a_B` the hinge axis as fixed in A and in B and `b₁, b₂ ⟂ a_A`
//!   (fixed in A), `Cᵢ = bᵢ·a_B = 0`. Differentiating, `Ċᵢ = (ωA×bᵢ)·a_B + bᵢ·(ωB×a_B) =
//!   gᵢ·(ωB − ωA)` with `gᵢ = a_B × bᵢ`: two angular rows, solved as a 2×2 block;
//! - angle θ: the twist about `a_A` of B's rotation from its reference (swing–twist
//!   decomposition of `R = q_A⁻¹·q_B·ref⁻¹`), `θ̇ = a_A·(ωB − ωA)` when the axes are aligned;
//!   the motor drives `θ̇` to its speed with at most `max_torque·h` per substep, and the
//!   limits are one-sided rows `θ − lower ≥ 0`, `upper − θ ≥ 0` (speculative until reached).
//!
//! Limits: θ in (−180°, 180°] (limits outside that range never hold); a motor and limits
//! together: the limit wins (solved after the motor).

use super::row::{solve_block, solve_limit, solve_motor, solve_point, twist_angle, Feedback, Frame, Jac};
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;

/// The swing rows and their errors.
#[inline]
pub fn swing(j: &Joint, f: &Frame) -> ([Jac; 2], [f32; 2]) {
    let ab = f.qb * j.local.axis_b;
    let (b1, b2) = (f.qa * j.local.perp_a[0], f.qa * j.local.perp_a[1]);
    ([Jac::angular(ab.cross(b1)), Jac::angular(ab.cross(b2))], [b1.dot(ab), b2.dot(ab)])
}

/// The angle row (`a_A·(ωB − ωA)`) and the angle θ.
#[inline]
pub fn angle(j: &Joint, f: &Frame) -> (Jac, f32) {
    (Jac::angular(f.qa * j.local.axis_a), twist_angle(j.relative(f), j.local.axis_a))
}

/// Negated row (for upper limits).
#[inline]
pub fn neg(r: &Jac) -> Jac {
    Jac { la: -r.la, aa: -r.aa, lb: -r.lb, ab: -r.ab }
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Hinge { limits, motor, .. } = j.kind else { return };
    if motor.is_some() || limits.is_some() {
        let (row, theta) = angle(j, f);
        if let Some(m) = motor {
            solve_motor(&row, m.speed, m.max * pass.h, &mut j.impulses.motor, a, b);
        }
        if let Some((lo, hi)) = limits {
            let imp = &mut j.impulses;
            solve_limit(&row, theta - lo, pass, &mut imp.lower, a, b);
            solve_limit(&neg(&row), hi - theta, pass, &mut imp.upper, a, b);
        }
    }
    let fb = Feedback::rigid(&pass.soft, pass.use_bias);
    let (rows, c) = swing(j, f);
    solve_block(&rows, c, fb, &mut j.impulses.pair, a, b);
    solve_point(f, f.d, fb, &mut j.impulses.point, a, b);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    let JointKind::Hinge { limits, motor, .. } = j.kind else { return };
    let (row, theta) = angle(j, f);
    if motor.is_some() {
        out.push("motor", Role::Motor, row, theta, j.impulses.motor);
    }
    if let Some((lo, hi)) = limits {
        out.push("lower limit", Role::AngularLimit, row, theta - lo, j.impulses.lower);
        out.push("upper limit", Role::AngularLimit, neg(&row), hi - theta, j.impulses.upper);
    }
    let (rows, c) = swing(j, f);
    out.push("swing 1", Role::Angular, rows[0], c[0], j.impulses.pair[0]);
    out.push("swing 2", Role::Angular, rows[1], c[1], j.impulses.pair[1]);
    out.push_point(f, j.impulses.point);
}
