//! Ball (point-to-point) joint: the anchors of A and B coincide, `C = pB − pA = 0` (3 rows).
//!
//! `Ċ = vB + ωB×rB − vA − ωA×rA`, so the rows are the world axes eᵢ with Jacobian
//! `[−eᵢ, −rA×eᵢ, eᵢ, rB×eᵢ]` and the block's effective mass is
//! `K = (1/mA + 1/mB)·I − [rA]ₓ·IA⁻¹·[rA]ₓ − [rB]ₓ·IB⁻¹·[rB]ₓ` (DESIGN.md §8), solved as one
//! 3×3 block ([`super::row::solve_point`]): three scalar rows would couple through the
//! lever arms and converge slowly on long chains.
//!
//! Limits: the block is rigid (joint softness in biased passes, none in relax); K is
//! recomputed every pass from the current lever arms (cost: two 3×3 products).

use super::row::{solve_point, Feedback, Frame};
use super::{Joint, Pass, Rows};
use crate::physics::solver::SolverBody;

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    solve_point(f, f.d, Feedback::rigid(&pass.soft, pass.use_bias), &mut j.impulses.point, a, b);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    out.push_point(f, j.impulses.point);
}
