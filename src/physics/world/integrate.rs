//! The integration stages: gravity into velocities (`IntegrateForces`) and velocities into
//! poses (`IntegratePositions`), on the compact solver state, with the poses written once
//! per step; plus applying the position moves of a method's position correction. The
//! bodies move independently, shared out between the world's worker threads; bodies hung
//! from a fixed point turn about it after the others (`world/pivots.rs`). Where the solver
//! moves fewer than half the bodies (a level of static pieces, a pile mostly asleep), the
//! soft step's loops visit only those it moves (`world/movers.rs`). Kinematic bodies move
//! at their own velocity and spin after them, on the stepping thread (a world has few).

use super::{World, MIN_BODIES};
use crate::physics::body::{Body, MAX_CONTACT_TURN};
use crate::physics::free_rotation::rotation;
use crate::physics::math::Iso;
use crate::physics::parallel::Shared;
use crate::physics::solver::{PositionMoves, Schedule, SolverBody};
use glam::{Vec3, Vec3A};

/// Largest rotation per substep (rad) of a body in contact integrated as a plain rotation
/// by ω·h whatever its inertia: the gyroscopic correction to the turn, of order (ω·h)², is
/// then under 6·10⁻⁸ rad, the f32 resolution of a unit quaternion.
pub const SMALL_TURN: f32 = 2.4e-4;

impl World {
    /// Gravity into the velocities of the awake dynamic bodies (the one-pass methods, before
    /// detection).
    pub(super) fn integrate_forces(&mut self, dt: f32) {
        let g = self.gravity * dt;
        for b in &mut self.bodies {
            if b.is_dynamic() && !b.asleep {
                b.velocity += g;
            }
        }
    }

    /// Moves awake bodies by their solver velocities over `h` and records their motion
    /// since the step began (for the soft step's separation update), on the compact solver
    /// state; the poses are written once, in [`World::finish_positions`].
    ///
    /// A rotation by ω·h is exact for isotropic bodies (cubes, spheres: ω is constant
    /// between impulses). Free bodies, and bodies held only by joints, take the free
    /// rotation update ([`crate::physics::free_rotation`]; a body hung from a fixed point,
    /// about that point: `world/pivots.rs`), which holds the angular momentum fixed between
    /// impulses — the gyroscopic term (module docs of [`crate::physics::body`]) — and their
    /// world inverse inertia in the solver state follows the turn, so the next substep's
    /// joint rows use the inertia the body has. Bodies in contact turn by ω·h too: their
    /// impulses use the world inertia of the step's start, and a gyroscopic update with the
    /// turning inertia between impulses computed with the old one let slivers gain energy
    /// without bound (docs/physics.md, the fuzzer); their spin is carried to the new
    /// orientation once per step ([`crate::physics::Body::carry_spin`], skipped below
    /// [`SMALL_TURN`] per substep: a resting pile keeps ω as it is). A body in contact turns
    /// at most [`MAX_CONTACT_TURN`] per substep ([`crate::physics::Body::limit_contact_spin`]).
    pub(super) fn integrate_positions(&mut self, h: f32) {
        self.joints.pivots.save(&self.solver_bodies);
        let (bodies, solver) = (Shared::new(&mut self.bodies), Shared::new(&mut self.solver_bodies));
        let starts = &self.start_poses;
        if self.movers.few_active {
            integrate_listed(&self.workers, &self.movers.active, (&bodies, &solver), starts, h);
        } else {
            self.workers.for_blocks(starts.len(), MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies.
                let (bodies, solver) = unsafe { (bodies.range_mut(r.clone()), solver.range_mut(r.clone())) };
                for ((b, s), start) in bodies.iter_mut().zip(solver).zip(&starts[r]) {
                    integrate_body(b, s, start, h);
                }
            });
        }
        // Bodies hung from a fixed point turn about it (`world/pivots.rs`).
        self.joints.pivots.integrate(&self.bodies, &mut self.solver_bodies, &self.start_poses, h);
        // The kinematic bodies at their own velocity and spin (none in most worlds).
        for &i in &self.movers.kinematic {
            let s = &mut self.solver_bodies[i as usize];
            s.dp += s.v * h;
            turn_plainly(s, h);
        }
    }

    /// Writes the poses and velocities of the bodies moved in [`World::integrate_positions`]
    /// (substeps of `h`). A body in contact leaves the step within [`MAX_CONTACT_TURN`] per
    /// substep too: the relax and restitution passes after the last position update could
    /// leave it spinning faster than any substep let it turn, and a 1 mm sliver lying on the
    /// ground took its spin about its long axis from 190 to 10⁵ rad/s over three steps that
    /// way, each step's passes starting from the last one's spin (fuzz seed 1000634, +400 J).
    pub(super) fn finish_positions(&mut self, h: f32) {
        // Turns below SMALL_TURN per substep (a resting pile) keep ω as it is.
        let small_turn = SMALL_TURN * self.integration_substeps() as f32;
        let (bodies, solver) = (Shared::new(&mut self.bodies), &self.solver_bodies);
        let (starts, active) = (&self.start_poses, &self.movers.active);
        if self.movers.few_active {
            self.workers.for_blocks(active.len(), MIN_BODIES, |_, r| {
                for &i in &active[r] {
                    let i = i as usize;
                    // SAFETY: each body is in one block only (the list has no repeats).
                    finish_body(unsafe { bodies.get_mut(i) }, &solver[i], &starts[i], h, small_turn);
                }
            });
        } else {
            self.workers.for_blocks(starts.len(), MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies.
                let bodies = unsafe { bodies.range_mut(r.clone()) };
                for ((b, s), start) in bodies.iter_mut().zip(&solver[r.clone()]).zip(&starts[r]) {
                    finish_body(b, s, start, h, small_turn);
                }
            });
        }
        // The kinematic bodies' poses; their velocities are theirs.
        for &i in &self.movers.kinematic {
            let i = i as usize;
            self.bodies[i].pose = moved_pose(&self.solver_bodies[i], &self.start_poses[i]);
        }
    }

    /// How many position updates the method in force makes per step: the soft step's
    /// substeps, or 1 (the one-pass methods).
    pub(super) fn integration_substeps(&mut self) -> u32 {
        match self.methods.get(&self.settings).schedule() {
            Schedule::SoftStep => self.settings.substeps.max(1),
            Schedule::Once { .. } => 1,
        }
    }

    /// Gravity into the solver velocities over one substep (the soft step), body by body,
    /// shared out between the threads.
    pub(super) fn integrate_forces_substep(&mut self, h: f32) {
        let g = Vec3A::from(self.gravity * h);
        let (bodies, active) = (Shared::new(&mut self.solver_bodies), &self.movers.active);
        if self.movers.few_active {
            self.workers.for_blocks(active.len(), MIN_BODIES, |_, r| {
                for &i in &active[r] {
                    // SAFETY: each body is in one block only (the list has no repeats).
                    unsafe { bodies.get_mut(i as usize).v += g };
                }
            });
        } else {
            self.workers.for_blocks(bodies.len(), MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies.
                for s in unsafe { bodies.range_mut(r) } {
                    if s.inv_mass > 0.0 {
                        s.v += g;
                    }
                }
            });
        }
    }

    /// Applies a method's position moves ([`PositionMoves`]) to the poses; with
    /// `step_start`, also to the poses the step's integration starts from (a method that
    /// projects before its velocity solve).
    ///
    /// A turn by a move takes the body's spin with it (ω rotated with the body, in the
    /// solver state too, whose inverse inertia turns as well): the kinetic energy stays what
    /// it was. Keeping ω fixed in world axes while the body turns under it changes
    /// `½·ω·I·ω`, for a needle or sliver by orders of magnitude (Cyclone's projection on a
    /// fuzzer scene: a 2 g sliver from 0.03 J to 1.0 J in one projection).
    ///
    /// With [`PositionMoves::pay_lift`] (the naive projection), a move that lifts a body
    /// against gravity by `h` while the body still moves against the move (sinks on into the
    /// contact) takes `m·|g|·h` from that motion, to none at most: along the move's
    /// direction d, `(v·d)² → max(0, (v·d)² − 2·|g|·h)`, the rest of v kept. A body already
    /// leaving (a rebound) or at rest pays nothing.
    pub(super) fn apply_moves(&mut self, step_start: bool) {
        let PositionMoves { linear, angular, pay_lift } = &self.moves;
        let gravity = self.gravity;
        for (i, b) in self.bodies.iter_mut().enumerate() {
            b.pose.pos += linear[i];
            let lift = -gravity.dot(linear[i]);
            if *pay_lift && lift > 0.0 {
                let d = linear[i].normalize();
                let into = b.velocity.dot(d);
                if into < 0.0 {
                    let kept = -(into * into - 2.0 * lift).max(0.0).sqrt();
                    b.velocity += d * (kept - into);
                }
            }
            if angular[i] != Vec3::ZERO {
                let turn = rotation(angular[i]);
                b.pose.rot = (turn * b.pose.rot).normalize();
                b.angular_velocity = turn * b.angular_velocity;
                if let Some(s) = self.solver_bodies.get_mut(i).filter(|s| s.inv_mass > 0.0) {
                    s.w = turn * s.w;
                    if !s.isotropic {
                        let r = glam::Mat3A::from_quat(turn);
                        s.inv_i = r * s.inv_i * r.transpose();
                    }
                }
            }
            if step_start {
                if let Some(p) = self.start_poses.get_mut(i) {
                    *p = b.pose;
                }
            }
        }
    }
}

/// [`World::integrate_positions`] over the bodies `active` only (`world/movers.rs`): the
/// others are skipped by [`integrate_body`] anyway. Kept out of line, so that the loop over
/// every body compiles as it would alone.
#[inline(never)]
fn integrate_listed(
    workers: &crate::physics::parallel::Workers,
    active: &[u32],
    (bodies, solver): (&Shared<Body>, &Shared<SolverBody>),
    starts: &[Iso],
    h: f32,
) {
    workers.for_blocks(active.len(), MIN_BODIES, |_, r| {
        for &i in &active[r] {
            let i = i as usize;
            // SAFETY: each body is in one block only (the list has no repeats).
            unsafe { integrate_body(bodies.get_mut(i), solver.get_mut(i), &starts[i], h) };
        }
    });
}

/// Moves one awake body over `h` (see [`World::integrate_positions`]).
#[inline(always)]
fn integrate_body(b: &mut Body, s: &mut SolverBody, start: &Iso, h: f32) {
    if s.inv_mass == 0.0 {
        return;
    }
    s.dp += s.v * h;
    if s.touching && (s.w * h).length_squared() > MAX_CONTACT_TURN * MAX_CONTACT_TURN {
        s.w = b.limit_contact_spin(s.w.into(), start.rot, h).into();
    }
    // A body in contact turns by ω·h: the contact rows use its world inertia of the
    // step's start, and only this keeps the energy they see (its spin is carried to
    // the new orientation once, in `finish_positions`).
    if s.isotropic || s.touching {
        turn_plainly(s, h);
    } else {
        b.pose.rot = (s.dq * start.rot).normalize();
        b.angular_velocity = s.w.into();
        b.integrate_rotation(h);
        s.w = b.angular_velocity.into();
        s.dq = b.pose.rot * start.rot.conjugate();
        // The joint rows of the next substep see the inertia at the new orientation
        // (a spinning top on a ball joint: its impulses must not use the start's).
        s.inv_i = glam::Mat3A::from(b.inv_inertia_world());
    }
}

/// Turns `s` by its spin over `h` as a plain rotation by ω·h (a body in contact or with
/// equal moments, and a kinematic body).
#[inline(always)]
fn turn_plainly(s: &mut SolverBody, h: f32) {
    let turn = s.w * h;
    if turn != Vec3A::ZERO {
        s.dq = (rotation(turn.into()) * s.dq).normalize();
    }
}

/// The pose the solver state `s` has moved the step's start pose `start` to.
#[inline(always)]
fn moved_pose(s: &SolverBody, start: &Iso) -> Iso {
    Iso::new(start.pos + Vec3::from(s.dp), (s.dq * start.rot).normalize())
}

/// Writes one body's pose and velocities from its solver state (see
/// [`World::finish_positions`]; `small_turn`: the turn below which its spin is kept).
#[inline(always)]
fn finish_body(b: &mut Body, s: &SolverBody, start: &Iso, h: f32, small_turn: f32) {
    if s.inv_mass > 0.0 {
        b.pose = moved_pose(s, start);
        b.velocity = s.v.into();
        b.angular_velocity = s.w.into();
        if s.touching && (s.w * h).length_squared() > MAX_CONTACT_TURN * MAX_CONTACT_TURN {
            b.angular_velocity = b.limit_contact_spin(b.angular_velocity, start.rot, h);
        }
        if s.touching && !s.isotropic && s.dq.xyz().length() > 0.5 * small_turn {
            b.carry_spin(start.rot);
        }
    }
}
