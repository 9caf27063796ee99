//! Pinned bodies: a body hung from a fixed point turns about that point.
//!
//! A dynamic body whose joints all hold one and the same of its points to bodies that never
//! move — a ball, hinge or rigid weld to the world or to a static body — has that point for
//! a pivot: while the joints hold, the motion is a
//! rotation about it, with the body's inertia about the pivot (the parallel-axis theorem),
//! and the pivot's reaction has no moment about it, so with no other torque the angular
//! momentum about the pivot is constant (a top, a gyroscope, a pendulum on a ball joint).
//!
//! The general path cannot keep that: it turns each body about its centre of mass with the
//! centre-of-mass inertia and moves the centre along a straight line, and the joint then
//! pulls the anchor back. For a body spinning fast about an axle through the pivot (99 rad/s)
//! and wobbling (5 rad/s across), the free turn about the centre precesses the wobble at the
//! free disc's rate, not the pinned one's, and the anchor leaves the pivot by ~1 mm per step;
//! the joint's velocity rows and soft position feedback, which see only the tangent of that
//! motion, took the whole wobble out within ~40 steps (|L| about the pivot −0.34 % in every
//! method, the test `a_torque_free_disc_on_a_ball_joint_…`).
//!
//! So after the velocity solve, [`Pivots::integrate`] moves a pinned body (one not also in
//! contact: contacts keep the general path, whose rows were built for it) as its joints
//! want it moved: the free rotation update ([`crate::physics::free_rotation`]) with the
//! inertia about the pivot, the centre carried round the pivot by that turn, and the
//! anchor moved only by what velocity the joints left it (the soft step's gap closing). For
//! a disc on an axle through the pivot the turn is exact at any step, so the joint's
//! impulses are only what gravity or another force asks of it.
//!
//! Stages: [`Pivots::find`] at the end of the joints' preparation (each step; the joints are
//! scanned again only after a joint was added, removed or broken or a body edited, so a
//! joint grid pays nothing per step); [`Pivots::save`] and [`Pivots::integrate`] around
//! every position update; [`Pivots::report`] before the joints are measured and broken.
//!
//! Limits: springy joints (a weld with a linear spring), a distance joint, the mouse joint,
//! or any joint to a dynamic body (a chain's links) make a body not pinned; a pinned body
//! that is asleep or touching something moves the general way that step; two pivot joints count as one pivot
//! when their anchors on the body lie within [`SAME_POINT`] of each other. A pinned body's
//! pose moves by its rotation about the pivot, so its centre's path is a chord of the
//! sphere, not the straight line `v·h`.

use crate::physics::body::Body;
use crate::physics::free_rotation::Inertia;
use crate::physics::joint::{Joint, JointKind, WORLD};
use crate::physics::math::Iso;
use crate::physics::per_body;
use crate::physics::solver::SolverBody;
use glam::{Mat3A, Vec3, Vec3A};

/// Two joints hold a body at one pivot when their anchors on it are within this fraction
/// of the farther anchor's distance from the centre of mass (at least 1 cm of it): round-off
/// of anchors authored at one point, not two points a body could turn about.
pub const SAME_POINT: f32 = 1e-4;

/// The pinned bodies, found again only when the joints or the bodies were edited.
#[derive(Clone, Debug, Default)]
pub struct Pivots {
    /// The pinned bodies, in joint slot order.
    list: Vec<Pivot>,
    /// Per body, its entry in `list` or [`NONE`]: scratch of the rescan, reset after it.
    slot: Vec<u32>,
    /// The world's count of edits to joints and bodies when `list` was found (`None`: never).
    found_at: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Pivot {
    body: u32,
    /// The first joint found holding it there, and whether the body is that joint's B.
    joint: u32,
    on_b: bool,
    /// The momentum the turns gave the body this step (`m·Δv`): the pivot's centripetal
    /// reaction, which the joint's rows no longer apply.
    impulse: Vec3,
    /// The pivot on the body: its anchor, from the centre of mass, body axes.
    arm: Vec3,
    /// The body's inertia about the pivot (body axes); `None` if it could not be inverted
    /// (the body then moves the general way).
    inertia: Option<Inertia>,
    /// Its pivot joints, all its joints, and whether the pivot joints hold one point.
    pivots: u32,
    joints: u32,
    same_point: bool,
    /// Its solver state before the position update ([`Pivots::save`]).
    saved: SolverBody,
}

/// `slot` of a body without an entry.
const NONE: u32 = u32::MAX;

/// Whether a joint of `kind` holds a point of one body at a point of the other: a ball, a
/// hinge or a rigid weld.
fn holds_a_point(kind: &JointKind) -> bool {
    match kind {
        JointKind::Ball | JointKind::Hinge { .. } => true,
        JointKind::Weld { linear_hertz, .. } => *linear_hertz == 0.0,
        _ => false,
    }
}

impl Pivots {
    /// Heap bytes of a copy (for the history's budget).
    pub fn heap_bytes(&self) -> usize {
        std::mem::size_of_val(self.list.as_slice()) + std::mem::size_of_val(self.slot.as_slice())
    }

    /// Readies this step's pinned bodies: finds them again, with their inertia about their
    /// pivot, when `edits` (the world's count of edits to joints and bodies: a joint added,
    /// removed or broken, a body edited) moved since they were found — one pass over the
    /// joints, and a second, counting each candidate's joints, only when some joint is a
    /// pivot. A joint grid costs nothing per step.
    pub fn find(&mut self, joints: &[Joint], bodies: &[Body], edits: u64) {
        if self.found_at != Some(edits) {
            self.rescan(joints, bodies);
            self.found_at = Some(edits);
        }
        for p in &mut self.list {
            p.impulse = Vec3::ZERO;
        }
    }

    fn rescan(&mut self, joints: &[Joint], bodies: &[Body]) {
        self.list.clear();
        if self.slot.len() < bodies.len() {
            per_body::fit(&mut self.slot, bodies.len(), NONE);
        }
        let fixed = |i: u32| i == WORLD || bodies[i as usize].kind == crate::physics::BodyKind::Static;
        let alive = || joints.iter().enumerate().filter(|(_, j)| j.is_alive() && !j.broken);
        for (k, j) in alive() {
            if !holds_a_point(&j.kind) || fixed(j.a) == fixed(j.b) {
                continue;
            }
            let on_b = fixed(j.a);
            let (body, arm) = if on_b { (j.b, j.local.anchor_b) } else { (j.a, j.local.anchor_a) };
            let arm = Vec3::from(arm);
            let slot = &mut self.slot[body as usize];
            if *slot == NONE {
                *slot = self.list.len() as u32;
                let joint = k as u32;
                self.list.push(Pivot { body, joint, on_b, arm, pivots: 1, same_point: true, ..Default::default() });
            } else {
                let p = &mut self.list[*slot as usize];
                let tol = SAME_POINT * p.arm.length().max(arm.length()).max(0.01);
                p.same_point &= (p.arm - arm).length() <= tol;
                p.pivots += 1;
            }
        }
        if self.list.is_empty() {
            return;
        }
        // Every joint on a candidate must be one of its pivot joints.
        for (_, j) in alive() {
            for end in [j.a, j.b] {
                if end != WORLD && self.slot[end as usize] != NONE {
                    self.list[self.slot[end as usize] as usize].joints += 1;
                }
            }
        }
        for p in &self.list {
            self.slot[p.body as usize] = NONE;
        }
        self.list.retain(|p| p.same_point && p.joints == p.pivots);
        for p in &mut self.list {
            let b = &bodies[p.body as usize];
            p.inertia = b.inertia().about(b.mass(), p.arm);
        }
    }

    /// Adds to each pivot's joint the reaction the turns applied this step (its impulse on
    /// B), so that the joint's reported force and its breaking see the centripetal pull.
    pub fn report(&self, joints: &mut [Joint]) {
        for p in &self.list {
            let j = &mut joints[p.joint as usize];
            j.pivot_impulse = if p.on_b { p.impulse } else { -p.impulse };
            j.linear_impulse += j.pivot_impulse;
        }
    }

    /// Keeps the pinned bodies' solver state before a position update, which moves every
    /// body the general way ([`Pivots::integrate`] then moves these again, from here): one
    /// copy per pinned body instead of a test per body in the update's loop.
    pub fn save(&mut self, solver: &[SolverBody]) {
        for p in &mut self.list {
            p.saved = solver[p.body as usize];
        }
    }

    /// Moves the pinned bodies not in contact over `h` (module docs) from their state kept
    /// by [`Pivots::save`], on the compact solver state, as `integrate_body` does the
    /// others: `dp`, `dq`, `v`, `ω` and the world inverse inertia the next substep's rows use.
    pub fn integrate(&mut self, bodies: &[Body], solver: &mut [SolverBody], starts: &[Iso], h: f32) {
        for p in &mut self.list {
            let i = p.body as usize;
            let s = &mut solver[i];
            let Some(inertia) = p.inertia else { continue };
            // Asleep, or in contact: the general way.
            if p.saved.inv_mass == 0.0 || p.saved.touching {
                continue;
            }
            *s = p.saved;
            let start = &starts[i];
            let rot = (s.dq * start.rot).normalize();
            let r = Vec3A::from(rot * p.arm);
            // What the joints left the anchor: the soft step's gap closing, or nothing.
            let anchor_v = s.v + s.w.cross(r);
            let (rot2, w2) = inertia.turn(rot, s.w.into(), h);
            let (r2, w2) = (Vec3A::from(rot2 * p.arm), Vec3A::from(w2));
            // The centre goes round the anchor with the turn; the anchor moves on at anchor_v.
            s.dp += (r - r2) + anchor_v * h;
            let v = anchor_v - w2.cross(r2);
            p.impulse += Vec3::from(v - s.v) / s.inv_mass;
            s.v = v;
            s.w = w2;
            s.dq = rot2 * start.rot.conjugate();
            if !s.isotropic {
                let m = Mat3A::from_quat(rot2);
                s.inv_i = m * Mat3A::from(bodies[i].inv_inertia_local) * m.transpose();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::physics::joint::{JointDesc, JointKind, Spring, WORLD};
    use crate::physics::{BodyDesc, Settings, Shape, World};
    use glam::Vec3;

    fn ball(w: &mut World, name: &str, at: Vec3) -> u32 {
        w.add_body(BodyDesc::new(name, Shape::Sphere { radius: 0.1 }, at)).unwrap().index
    }

    /// The bodies `w`'s next step pins, by index.
    fn pinned(w: &mut World) -> Vec<u32> {
        w.step(1.0 / 60.0);
        w.joints.pivots.list.iter().map(|p| p.body).collect()
    }

    #[test]
    fn a_body_is_pinned_only_when_every_joint_holds_one_of_its_points_to_something_fixed() {
        let mut w = World::new(Vec3::ZERO, Settings { sleeping: false, ..Default::default() });
        let post = w.add_body(BodyDesc::new("post", Shape::Sphere { radius: 0.1 }, Vec3::ZERO).fixed()).unwrap().index;
        let join = |w: &mut World, kind: JointKind, a: u32, b: u32, at: Vec3| {
            w.add_joint(JointDesc::new(format!("j{}", w.joints().len()), kind, a, b, at)).unwrap()
        };
        let hinge = JointKind::Hinge { axis: Vec3::Z, limits: None, motor: None };
        let rigid_weld = JointKind::Weld { linear_hertz: 0.0, angular_hertz: 5.0, damping_ratio: 1.0 };
        let springy_weld = JointKind::Weld { linear_hertz: 5.0, angular_hertz: 0.0, damping_ratio: 1.0 };
        let x = |k: f32| Vec3::new(k, 0.0, 0.0);
        // Pinned: a ball joint to the world; a hinge to a static body; a ball and a hinge at
        // one point; a weld whose point is rigid.
        let a = ball(&mut w, "a", x(1.0) - Vec3::Y);
        join(&mut w, JointKind::Ball, WORLD, a, x(1.0));
        let b = ball(&mut w, "b", x(2.0) - Vec3::Y);
        join(&mut w, hinge, post, b, x(2.0));
        let c = ball(&mut w, "c", x(3.0) - Vec3::Y);
        join(&mut w, JointKind::Ball, c, WORLD, x(3.0));
        join(&mut w, hinge, WORLD, c, x(3.0));
        let d = ball(&mut w, "d", x(4.0) - Vec3::Y);
        join(&mut w, rigid_weld, WORLD, d, x(4.0));
        // Not pinned: two points; a joint to a moving body (both ends); a springy point; a
        // distance joint; a ball joint plus the mouse's drag.
        let e = ball(&mut w, "e", x(5.0) - Vec3::Y);
        join(&mut w, JointKind::Ball, WORLD, e, x(5.0));
        join(&mut w, JointKind::Ball, WORLD, e, x(5.1));
        let (f, g) = (ball(&mut w, "f", x(6.0) - Vec3::Y), ball(&mut w, "g", x(6.0) - 2.0 * Vec3::Y));
        join(&mut w, JointKind::Ball, WORLD, f, x(6.0));
        join(&mut w, JointKind::Ball, f, g, x(6.0) - 1.5 * Vec3::Y);
        let h = ball(&mut w, "h", x(7.0) - Vec3::Y);
        join(&mut w, springy_weld, WORLD, h, x(7.0));
        let i = ball(&mut w, "i", x(8.0) - Vec3::Y);
        let distance =
            JointKind::Distance { anchor_b: x(8.0) - Vec3::Y, length: 1.0, min: None, max: None, spring: None };
        join(&mut w, distance, WORLD, i, x(8.0));
        let k = ball(&mut w, "k", x(9.0) - Vec3::Y);
        join(&mut w, JointKind::Ball, WORLD, k, x(9.0));
        let drag = join(
            &mut w,
            JointKind::Mouse { target: x(9.5), spring: Spring { hertz: 5.0, damping_ratio: 0.7 }, max_force: 100.0 },
            WORLD,
            k,
            x(9.0) - Vec3::Y,
        );
        assert_eq!(pinned(&mut w), vec![a, b, c, d]);
        // The list follows edits: the drag let go, the post made dynamic.
        w.remove_joint(drag);
        assert_eq!(pinned(&mut w), vec![a, b, c, d, k]);
        w.body_mut(w.handle(post as usize)).unwrap().kind = crate::physics::BodyKind::Dynamic;
        assert_eq!(pinned(&mut w), vec![a, c, d, k]);
    }
}
