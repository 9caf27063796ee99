//! Mouse (grab) joint: the window's drag. B's grabbed point is pulled towards a target that
//! the cursor moves, by a damped spring (frequency and damping ratio) whose accumulated
//! impulse is limited to `max_force·h` (Box2D v3's `b2MouseJoint`). A is the world; its
//! anchor is the target.
//!
//! Rows: the ball block with `C = p − target`, always soft (the spring), its impulse vector
//! clamped to the force limit; plus angular damping: a soft row block on `ωB` without
//! position error, so a held body does not swing forever, with at most the torque of the
//! force limit at 0.25 m.
//!
//! Limits: the force limit is applied to the accumulated vector (the direction kept).

use super::row::{inverse_or_zero, point_k, Feedback, Frame};
use super::{Joint, JointKind, Pass, Rows};
use crate::physics::solver::SolverBody;
use glam::Vec3A;

/// Lever (m) that turns the force limit into the angular damping's torque limit.
pub const DAMPING_LEVER: f32 = 0.25;

/// One pass.
#[inline]
pub fn solve(j: &mut Joint, f: &Frame, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
    let JointKind::Mouse { max_force, .. } = j.kind else { return };
    let max = max_force * pass.h;
    // Angular damping.
    let s = &j.start.spring2;
    let k = inverse_or_zero(&b.inv_i);
    let old = j.impulses.angular;
    let mut new = old - s.mass_scale * (k * b.w) - s.impulse_scale * old;
    let lim = max * DAMPING_LEVER;
    if new.length() > lim {
        new = new * (lim / new.length());
    }
    j.impulses.angular = new;
    b.w += b.inv_i * (new - old);
    // The spring.
    let fb = Feedback::soft(&j.start.spring);
    let k = inverse_or_zero(&point_k(f, a, b));
    let dv = (b.v + b.w.cross(f.rb)) - (a.v + a.w.cross(f.ra));
    let old = j.impulses.point;
    let mut new = old - fb.mass_scale * (k * (dv + f.d * fb.rate)) - fb.impulse_scale * old;
    if new.length() > max {
        new = new * (max / new.length());
    }
    j.impulses.point = new;
    let d = new - old;
    b.v += d * b.inv_mass;
    b.w += b.inv_i * f.rb.cross(d);
}

/// The rows.
pub fn rows(j: &Joint, f: &Frame, out: &mut Rows) {
    out.push_point(f, j.impulses.point);
    for r in &mut out.rows[..out.len] {
        r.role = super::Role::Spring;
    }
    let w = j.impulses.angular;
    for (k, (name, e)) in [("damping x", Vec3A::X), ("damping y", Vec3A::Y), ("damping z", Vec3A::Z)].iter().enumerate()
    {
        out.push(name, super::Role::Motor, super::Jac::angular(*e), 0.0, w[k]);
    }
}
