//! Distance joint: one row along the line between A's and B's anchors.
//!
//! `C = |d| − L` with `d = pB − pA`, `n = d/|d|`: `Ċ = n·(vB + ωB×rB − vA − ωA×rA)`, the row
//! `[−n, −rA×n, n, rB×n]`. Three uses of it:
//! - rigid (no spring, no limit): an equality row at the rest length;
//! - spring (`spring: Some`): a soft row towards the rest length with the spring's own
//!   frequency and damping ratio, in every pass (Box2D v3's distance spring); hertz 0 is a
//!   free length;
//! - limits: `|d| − min ≥ 0` and `max − |d| ≥ 0` as one-sided rows. A rope is `max` alone.
//!
//! Limits: undefined when the anchors coincide (|d| < 0.1 mm: the rows are skipped).

use super::hinge::neg;
use super::row::{solve_limit, solve_row, Feedback, Frame, Jac};
use super::{Joint, JointKind, Pass, Role, Rows};
use crate::physics::solver::SolverBody;

/// Anchors closer than this have no direction (m).
pub const MIN_LENGTH: f32 = 1e-4;

/// The row along the anchors' line and the current length.
#[inline]
pub fn line(f: &Frame) -> Option<(Jac, f32)> {
    let len = f.d.length();
    (len > MIN_LENGTH).then(|| (Jac::linear(f.ra, f.rb, f.d / len), len))
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Distance { min, max, spring, .. } = j.kind else { return };
    let Some((row, len)) = line(f) else { return };
    let rest = j.local.length;
    match spring {
        Some(s) if s.hertz > 0.0 => {
            solve_row(&row, len - rest, Feedback::soft(&j.start.spring), &mut j.impulses.axial, a, b)
        }
        Some(_) => {}
        None if min.is_none() && max.is_none() => {
            solve_row(&row, len - rest, Feedback::rigid(&pass.soft, pass.use_bias), &mut j.impulses.axial, a, b)
        }
        None => {}
    }
    if let Some(lo) = min {
        solve_limit(&row, len - lo, pass, &mut j.impulses.lower, a, b);
    }
    if let Some(hi) = max {
        solve_limit(&neg(&row), hi - len, pass, &mut j.impulses.upper, a, b);
    }
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    let JointKind::Distance { min, max, spring, .. } = j.kind else { return };
    let Some((row, len)) = line(f) else { return };
    let rest = j.local.length;
    match spring {
        Some(_) => out.push("spring", Role::Spring, row, len - rest, j.impulses.axial),
        None if min.is_none() && max.is_none() => out.push("length", Role::Linear, row, len - rest, j.impulses.axial),
        None => {}
    }
    if let Some(lo) = min {
        out.push("min length", Role::LinearLimit, row, len - lo, j.impulses.lower);
    }
    if let Some(hi) = max {
        out.push("max length", Role::LinearLimit, neg(&row), hi - len, j.impulses.upper);
    }
}
