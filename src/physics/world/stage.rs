//! The named stages of a step ([`Stage`]) and the time each took ([`Profile`]).

/// The named stages of a step, listed in step order. Which of them run, and when, is the
/// method's schedule (module docs of [`crate::physics::world`]): the soft step adds gravity
/// in each substep after `Prepare`, Cyclone corrects positions before `SolveVelocities`,
/// and the wake right after `NarrowPhase` is timed as `Sleep`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Gravity into velocities.
    IntegrateForces,
    /// AABBs and candidate pairs.
    BroadPhase,
    /// Contact manifolds.
    NarrowPhase,
    /// Solver constraints from manifolds.
    Prepare,
    /// Last step's impulses.
    WarmStart,
    /// Velocity iterations.
    SolveVelocities,
    /// Poses advance.
    IntegratePositions,
    /// Iterative: passes without position bias, removing the push-out velocity.
    Relax,
    /// One-pass methods (naive, Cyclone, averaged): the method's position correction,
    /// applied to the poses — the naive linear projection of penetration after
    /// `IntegratePositions` (naive, averaged), or Cyclone's nonlinear projection, deepest
    /// first, right after `Prepare`. The soft step has none (its soft contacts and `Relax`
    /// handle penetration).
    PositionCorrection,
    /// Bounce pass.
    Restitution,
    /// Continuous collision: fast bodies moved back to their time of impact, or (the seed's
    /// mode) the search for each earliest collision that cuts the step.
    Continuous,
    /// Impulses back to contacts.
    StoreImpulses,
    /// Islands, sleeping and waking.
    Sleep,
    /// Collide-and-slide characters walk and fall (`world/characters.rs`).
    Characters,
}

impl Stage {
    /// All stages in order.
    pub const ALL: [Stage; 14] = [
        Stage::IntegrateForces,
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Prepare,
        Stage::WarmStart,
        Stage::SolveVelocities,
        Stage::IntegratePositions,
        Stage::Relax,
        Stage::PositionCorrection,
        Stage::Restitution,
        Stage::Continuous,
        Stage::StoreImpulses,
        Stage::Sleep,
        Stage::Characters,
    ];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::IntegrateForces => "integrate forces",
            Stage::BroadPhase => "broad phase",
            Stage::NarrowPhase => "narrow phase",
            Stage::Prepare => "prepare contacts",
            Stage::WarmStart => "warm start",
            Stage::SolveVelocities => "solve velocities",
            Stage::IntegratePositions => "integrate positions",
            Stage::Relax => "relax",
            Stage::PositionCorrection => "position correction",
            Stage::Restitution => "restitution",
            Stage::Continuous => "continuous",
            Stage::StoreImpulses => "store impulses",
            Stage::Sleep => "sleep",
            Stage::Characters => "characters",
        }
    }
}

/// Threads whose share of each stage the profile keeps.
pub const PROFILED_THREADS: usize = 16;

/// Milliseconds spent in each stage during the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// Per stage (summed over substeps), indexed like [`Stage::ALL`].
    pub stage_ms: [f32; Stage::ALL.len()],
    /// Whole step.
    pub total_ms: f32,
    /// Per stage, each thread's time on the blocks the stage shared out (thread 0 is the
    /// stepping thread; the stage's serial parts are in `stage_ms` only). All zero when
    /// the step ran on one thread.
    pub thread_ms: [[f32; PROFILED_THREADS]; Stage::ALL.len()],
    /// Threads the step ran on.
    pub threads: usize,
    /// Bodies the broad phase's per-body loop visited: every body, or only the dynamic ones
    /// (but those still asleep) and the new ones while the static bodies' records held
    /// (`world/movers.rs`).
    pub visited: usize,
    /// The broad phase built its grid afresh this step (a first step, an edit, or more moved
    /// or new bodies than an update in place pays for), rather than keeping or updating it.
    pub grid_built: bool,
    /// Kept pairs of the broad phase whose boxes and paths the pair filter tested this step;
    /// with sleeping on, a pair of two bodies whose records were kept (static, or asleep
    /// since) passes as it did without a test (`world/pair_filter.rs`).
    pub pairs_tested: usize,
    /// Candidate pairs whose contacts the narrow phase opened this step: not the pairs still
    /// apart by their keys, nor, with sleeping on, those of two resting bodies, whose
    /// manifolds stay as they are (`world/narrow.rs`).
    pub pairs_opened: usize,
}

impl Profile {
    /// Time of one stage.
    pub fn get(&self, s: Stage) -> f32 {
        self.stage_ms[s as usize]
    }
}
