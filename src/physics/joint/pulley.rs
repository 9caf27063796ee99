//! Pulley joint: a rope from A's anchor over a fixed pulley at `ground_a`, then over
//! `ground_b` down to B's anchor: `C = |pA − gA| + ratio·|pB − gB| − L = 0` (DESIGN.md §8),
//! L fixed at creation.
//!
//! With `uA = (pA − gA)/|pA − gA|` and `uB` likewise,
//! `Ċ = uA·(vA + ωA×rA) + ratio·uB·(vB + ωB×rB)`: the row `[uA, rA×uA, ratio·uB,
//! ratio·rB×uB]` — unlike the other joints, A's and B's linear parts are not opposite.
//!
//! Limits: the rope is rigid both ways (it also pushes, Box2D's pulley); undefined when an
//! anchor reaches its pulley (the row is then skipped).

use super::row::{solve_row, Feedback, Frame, Jac};
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;
use glam::Vec3A;

/// The row and C.
#[inline]
pub fn row(j: &Joint, f: &Frame) -> Option<(Jac, f32)> {
    let JointKind::Pulley { ground_a, ground_b, ratio, .. } = j.kind else { return None };
    let (ua, ub) = (f.pa - Vec3A::from(ground_a), f.pb - Vec3A::from(ground_b));
    let (la, lb) = (ua.length(), ub.length());
    if la < super::distance::MIN_LENGTH || lb < super::distance::MIN_LENGTH {
        return None;
    }
    let (ua, ub) = (ua / la, ub / lb);
    let jac = Jac { la: ua, aa: f.ra.cross(ua), lb: ratio * ub, ab: ratio * f.rb.cross(ub) };
    Some((jac, la + ratio * lb - j.local.length))
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    if let Some((r, c)) = row(j, f) {
        solve_row(&r, c, Feedback::rigid(&pass.soft, pass.use_bias), &mut j.impulses.axial, a, b);
    }
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    if let Some((r, c)) = row(j, f) {
        out.push("rope", Role::Linear, r, c, j.impulses.axial);
    }
}
