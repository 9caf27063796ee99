//! Contact resolution methods, switchable at runtime on the same world.
//!
//! The world builds one [`ContactConstraint`] per touching manifold (lever arms, tangents,
//! materials, softness) and one [`SolverBody`] per body, then calls the stage verbs of the
//! [`Resolver`] trait in the order its [`Schedule`] names. Each method implements them:
//!
//! - [`naive`]: one impulse per contact point, once, in detection order (the textbook
//!   first attempt); plus a linear projection of penetration. Right for a single contact,
//!   visibly wrong for stacks (jitter, sinking) — that is the point of showing it.
//! - [`iterative`]: sequential impulses (Catto, GDC 2005; Box2D), one manifold after
//!   another: accumulated, clamped normal and friction impulses, warm starting by feature
//!   ID, restitution as a separate pass with a velocity threshold, and position error
//!   handled by soft contacts over substeps with a relax pass (Box2D v3's soft step). The
//!   textbook path to read and single-step (`Settings::simd` off).
//! - [`wide`]: the same sequential impulses four manifolds at a time in SIMD lanes, after
//!   graph colouring ([`colouring`]); the manifolds no colour takes go to the scalar
//!   solver. Tested equal to [`iterative`] up to rounding.
//! - [`cyclone`]: Millington's worst-first resolver (the Cyclone engine): penetrations by
//!   nonlinear projection, deepest first; then velocities by the 3×3 contact-space impulse
//!   with static and dynamic friction, fastest closing contact first; the velocity gained
//!   from this step's gravity is not bounced (the resting-contact trick).
//! - [`averaged`]: averaged micro-collisions (Homer's simulator): each pair's points are
//!   resolved from the same pre-collision velocities and the average of their effects is
//!   applied, rescaled so that the pair bounces with its restitution.
//!
//! Every method reads the same constraints, so switching methods mid-run carries all state
//! over. A new method is a type implementing [`Resolver`] plus a [`SolverMode`] variant.
//!
//! The stage verbs, in the order of the soft step ([`Schedule::SoftStep`]):
//! prepare → per substep (warm start → solve → the world integrates → positions moved →
//! relax) → restitution → store impulses. A one-pass method ([`Schedule::Once`]) is called:
//! prepare → (correct positions, if it projects first) → solve → the world integrates →
//! (correct positions, otherwise) → store impulses.

pub mod averaged;
pub mod bounce;
pub mod colouring;
mod constraint;
pub mod cyclone;
pub mod impacts;
pub mod iterative;
pub(crate) mod lanes;
pub mod naive;
mod settings;
pub mod wide;

pub use constraint::*;
pub use settings::{ContinuousMode, Settings, SolverMode};

use crate::physics::contact::Contact;
use crate::physics::per_body;
use glam::{Vec3, Vec3A};

/// When a method's stages run within a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// Box2D v3's soft step: prepare once for the substep length; for each substep,
    /// gravity, warm start, solve (with position bias), integrate positions, relax (without
    /// bias); after the substeps, restitution.
    SoftStep,
    /// One resolution per step, after gravity and detection: solve velocities, integrate
    /// positions, and a position-correction stage — before the velocities when
    /// `positions_first` (Millington's order: penetrations then velocities), after the
    /// integration otherwise.
    Once {
        /// Run the position-correction stage before the velocity solve.
        positions_first: bool,
    },
}

/// What a method is told about the (sub)step it solves.
#[derive(Clone, Copy, Debug)]
pub struct StepInfo<'a> {
    /// The settings in force.
    pub settings: &'a Settings,
    /// Length of the (sub)step (s).
    pub h: f32,
    /// Gravity (m/s²): the velocity it adds over `h` is what a resting contact gains per step.
    pub gravity: Vec3A,
    /// This step's passes visit the manifolds last to first (every other step; see
    /// [`iterative::Pass::backward`]). The iterative methods read it; the others solve in
    /// one order.
    pub backward: bool,
}

/// Position changes a method asks for in its position-correction stage, per body (indexed
/// like the bodies; zeroed by the world before the stage): a translation (m) and a rotation
/// vector (rad, axis × angle), applied to the body's pose by the world.
#[derive(Clone, Debug, Default)]
pub struct PositionMoves {
    /// Translation per body.
    pub linear: Vec<Vec3>,
    /// Rotation vector per body.
    pub angular: Vec<Vec3>,
    /// The lift a move gives a body against gravity is paid from its linear kinetic energy
    /// (the naive method's projection, [`naive::project_positions`]): set by the method.
    pub pay_lift: bool,
}

impl PositionMoves {
    /// Zeroed moves for `n` bodies (keeps the buffers).
    pub fn reset(&mut self, n: usize) {
        self.linear.clear();
        per_body::fit(&mut self.linear, n, Vec3::ZERO);
        self.angular.clear();
        per_body::fit(&mut self.angular, n, Vec3::ZERO);
        self.pay_lift = false;
    }
}

/// The stage verbs of a resolution method (module docs). `constraints` are the world's
/// records of this step; `bodies` the compact body states, indexed like the world's bodies
/// (a method may append bodies of its own after them in `prepare`; the world ignores them).
/// Verbs a method has no use for keep the default (nothing).
pub trait Resolver {
    /// When the world calls the verbs.
    fn schedule(&self) -> Schedule;

    /// Takes this step's constraints: effective masses, batches, orders — whatever the
    /// method needs before its first pass. Called once per step.
    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, settings: &Settings);

    /// The world's worker threads, handed over before `prepare` (a method that shares
    /// its work between threads keeps them; the results must not depend on the count).
    fn set_workers(&mut self, _workers: &crate::physics::parallel::Workers) {}

    /// The graph colouring of this step's constraints, for a method that visits them by
    /// colour (the iterative method, both paths); `None` for the others.
    fn colouring(&self) -> Option<&colouring::Colouring> {
        None
    }

    /// Re-applies the accumulated impulses (start of each substep).
    fn warm_start(&mut self, _bodies: &mut [SolverBody]) {}

    /// Solves the velocities, with position feedback where the method has any.
    fn solve(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], step: &StepInfo);

    /// The bodies moved (after each position integration): bring the separations the
    /// method keeps up to date.
    fn positions_moved(&mut self, _bodies: &[SolverBody]) {}

    /// Solves the velocities again without position feedback (soft step only).
    fn relax(&mut self, _bodies: &mut [SolverBody], _step: &StepInfo) {}

    /// Bounce pass after the substeps; only called when some constraint has restitution.
    fn restitution(
        &mut self,
        _constraints: &mut [ContactConstraint],
        _bodies: &mut [SolverBody],
        _settings: &Settings,
    ) {
    }

    /// Position correction: fills `moves` (zeroed) with what each body should move.
    fn correct_positions(
        &mut self,
        _constraints: &mut [ContactConstraint],
        _bodies: &[SolverBody],
        _settings: &Settings,
        _moves: &mut PositionMoves,
    ) {
    }

    /// The accumulated normal impulse of every point the method holds, in a fixed order
    /// (for the convergence plot: the change per pass). Iterative methods only; the default
    /// (one-pass methods) gives none.
    fn normal_impulses(&self, _out: &mut Vec<f32>) {}

    /// The method's own copy of the constraint of contact `contact` (index in the world's
    /// contacts), for methods that keep the step's constraints as scalar rows (the solve
    /// trace, `world/solve_trace.rs`).
    fn scalar_constraint(&self, _contact: u32) -> Option<ContactConstraint> {
        None
    }

    /// Writes the step's impulses into the contacts (for drawing, traces and warm
    /// starting); by default from the scalar constraints.
    fn store_impulses(&self, constraints: &[ContactConstraint], contacts: &mut [Box<Contact>]) {
        store_constraints(constraints, contacts);
    }
}

/// One of each method, kept between steps (their buffers are reused), so switching methods
/// mid-run costs nothing.
#[derive(Clone, Debug, Default)]
pub struct Methods {
    /// Naive impulses.
    pub naive: naive::Naive,
    /// Scalar sequential impulses (the iterative method without SIMD).
    pub scalar: iterative::ScalarSolver,
    /// Sequential impulses in SIMD lanes.
    pub wide: wide::WideSolver,
    /// Millington's worst-first resolver.
    pub cyclone: cyclone::Cyclone,
    /// Averaged micro-collisions.
    pub averaged: averaged::Averaged,
}

impl Methods {
    /// The resolver the settings select (read only).
    pub fn get_ref(&self, settings: &Settings) -> &dyn Resolver {
        match settings.mode {
            SolverMode::Naive => &self.naive,
            SolverMode::Iterative if settings.simd => &self.wide,
            SolverMode::Iterative => &self.scalar,
            SolverMode::Cyclone => &self.cyclone,
            SolverMode::Averaged => &self.averaged,
        }
    }

    /// The method the settings pick.
    pub fn get(&mut self, settings: &Settings) -> &mut dyn Resolver {
        match settings.mode {
            SolverMode::Naive => &mut self.naive,
            SolverMode::Iterative if settings.simd => &mut self.wide,
            SolverMode::Iterative => &mut self.scalar,
            SolverMode::Cyclone => &mut self.cyclone,
            SolverMode::Averaged => &mut self.averaged,
        }
    }
}
