//! Weld joint: ball plus no relative rotation (6 rows), each part rigid or a spring.
//!
//! The point block is the ball joint's ([`super::ball`]). The angular error is the rotation
//! vector of B's rotation away from its reference, in world axes:
//! `C = θ(q_B·ref⁻¹·q_A⁻¹)` (the relative rotation `R = q_A⁻¹·q_B·ref⁻¹` seen from the world),
//! and to first order `Ċ = ωB − ωA`: three angular rows along the world axes with
//! `K = IA⁻¹ + IB⁻¹`, solved as one block.
//!
//! `linear_hertz` / `angular_hertz` > 0 make that part a damped spring (Box2D v3's soft
//! weld); it then stays soft in the relax passes too.
//!
//! Limits: `Ċ = ωB − ωA` is exact at zero error; a large angular error (> ~90°) is pulled
//! back along the short way round.

use super::row::{rotation_vector, solve_point, solve_rotation, Feedback, Frame};
use super::{Joint, JointKind, Pass, Rows};
use crate::physics::solver::SolverBody;
use glam::Vec3A;

/// The angular error vector (rad, world axes).
#[inline]
pub fn angular_error(j: &Joint, f: &Frame) -> Vec3A {
    rotation_vector(f.qb * j.local.reference.conjugate() * f.qa.conjugate())
}

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Weld { linear_hertz, angular_hertz, .. } = j.kind else { return };
    let angular =
        if angular_hertz > 0.0 { Feedback::soft(&j.start.spring2) } else { Feedback::rigid(&pass.soft, pass.use_bias) };
    solve_rotation(angular_error(j, f), angular, &mut j.impulses.angular, a, b);
    let linear =
        if linear_hertz > 0.0 { Feedback::soft(&j.start.spring) } else { Feedback::rigid(&pass.soft, pass.use_bias) };
    solve_point(f, f.d, linear, &mut j.impulses.point, a, b);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    out.push_rotation(angular_error(j, f), j.impulses.angular);
    out.push_point(f, j.impulses.point);
}
