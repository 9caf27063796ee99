//! Which bodies the per-body stages visit. A world may hold far more bodies that do not
//! move than bodies that do: a level of static pieces (Box3D's `large_world` benchmark: a
//! million static slabs and a hundred balls), or a pile that has fallen asleep. Box2D v3
//! and Box3D keep such bodies out of their per-step loops altogether (their solver sets);
//! here every body keeps its slot in the per-body arrays, and two index lists let the
//! stages skip the ones with nothing to do:
//!
//! - [`Movers::dynamic`], the dynamic bodies (awake or asleep). A static body's broad-phase
//!   records (its motion record, box, SIMD box and rotation matrix) and its solver record
//!   depend only on the body and on [`StaticInputs`]; once computed they stay as they are
//!   until a body is edited (`World::broad_dirty`) or those inputs change. While they hold
//!   ([`Movers::steady`]), the broad phase's per-body loop and its enlarged-box check, the
//!   prepare stage's solver records, the step's wake-up of every body with sleeping off and
//!   the finiteness check after a soft step visit only this list. Bodies added since the
//!   last step (and nothing else changed: [`Movers::grown_from`]) extend the lists; in the
//!   step that takes them in, the stages visit the dynamic bodies and every new one
//!   ([`Movers::visited`]), and the broad phase adds them to its grid's pairs in place.
//!   With sleeping on (and the soft step, without the earliest-collision mode:
//!   [`StaticInputs::quiet`]) a sleeping body keeps its records the same way: while it is
//!   asleep nothing moves it, and its records read only its pose, so a body asleep now and
//!   when its records were last computed ([`Movers::seen_asleep`]) is left out of the
//!   visited list; one woken after the broad phase ([`Movers::woken`]) gets its solver
//!   record and its finiteness check beside it.
//!
//!   Their pairs are left alone the same way. The broad phase's pair filter passes a pair
//!   of two bodies whose records were kept ([`Movers::still`]) exactly if it was among the
//!   last step's pairs ([`Movers::last_pairs`]); the narrow phase leaves a pair of two
//!   resting bodies unopened, its key saying whether it touches; the prepare stage makes no
//!   constraint for a contact neither of whose bodies the solver moves; and the islands are
//!   joined from the touching list and the pairs' keys, not the boxed contacts. Where no
//!   body was visited and the grid is unchanged, the pair filter keeps the last step's
//!   pairs without a walk, and the narrow phase its touching list ([`Movers::pairs_kept`]).
//! - [`Movers::active`], the bodies the solver moves this step (dynamic and awake: a
//!   positive inverse mass in the solver state), filled by the prepare stage. The
//!   integration loops, the continuous stage's test of who moved far and the sleep timers
//!   skip every other body anyway; they visit only this list.
//!
//! Both lists are in index order, so whatever a loop gathers (the bodies that left their
//! enlarged boxes, the fast bodies) comes out in the same order as from a loop over every
//! body, and the step gives the same numbers bit for bit (`tests/movers.rs` steps a world
//! beside one that recomputes every body each step). Where a list holds at least half the
//! bodies (a pile, a pyramid), the stages keep their loop over every body: reading by index
//! then buys nothing.
//!
//! Kinematic bodies ([`Movers::kinematic`]) move every step without the solver: while
//! there are any, the visited list holds them too, merged in index order, so their records
//! are made again every step while the static bodies' are kept.
//!
//! Limits: an edit makes the next step visit every body and rebuild the broad phase's grid
//! (a world of many static bodies edited every few steps pays that each time), and so does
//! a new body the grid cannot take in place (one larger than its cells, or more new and
//! moved bodies than an update pays for). In a world wholly asleep the pairs and the
//! touching list are kept as they are ([`Movers::pairs_kept`]); but while any body is
//! awake, the sleeping bodies' pairs are still walked over, each a few instructions, by the
//! pair filter, the narrow phase, the prepare stage and the islands (Box2D v3 and Box3D
//! move a sleeping island's contacts out of the step altogether), and a grid built afresh
//! tests all of them again (docs/BENCHMARKS.md has the costs). A static or sleeping body's
//! solver record is kept as prepared, and
//! no stage writes it except by adding impulses times its zero inverse mass (a non-finite
//! impulse would leave it non-finite until the next edit: the dynamic body it touches is
//! frozen then, which counts as one).

use super::World;
use crate::physics::solver::{ContinuousMode, Schedule};

impl World {
    /// Whether this step moves no body but those the solver moves: the soft step without
    /// the earliest-collision mode (the one-pass methods' position moves and the earliest
    /// mode's cuts reach every body). Only then may a sleeping body keep its records
    /// ([`StaticInputs::quiet`]), and the check after the step skip the static ones.
    pub(super) fn moves_only_solved(&self) -> bool {
        self.settings.ccd != ContinuousMode::EarliestCollision
            && self.methods.get_ref(&self.settings).schedule() == Schedule::SoftStep
    }
}

/// The inputs a static body's broad-phase records are computed from, besides the body
/// itself (as bits, so that the comparison is exact).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct StaticInputs {
    /// Bodies in the world.
    pub(super) count: usize,
    /// `Settings::margin`, the step `dt` and the gravity.
    pub(super) margin: u32,
    pub(super) dt: u32,
    pub(super) gravity: [u32; 3],
    /// `Settings::path_test` (whether the enlarged spheres are kept).
    pub(super) path_test: bool,
    /// Sleeping bodies keep their records too ([`Movers::seen_asleep`]): sleeping on, with
    /// the soft step and without the earliest-collision mode (whose cuts move every body).
    pub(super) quiet: bool,
}

impl StaticInputs {
    pub(super) fn new(count: usize, margin: f32, dt: f32, gravity: glam::Vec3, path_test: bool, quiet: bool) -> Self {
        Self {
            count,
            margin: margin.to_bits(),
            dt: dt.to_bits(),
            gravity: gravity.to_array().map(f32::to_bits),
            path_test,
            quiet,
        }
    }
}

/// The bodies the per-body stages visit (module docs).
#[derive(Clone, Debug, Default)]
pub(super) struct Movers {
    /// The dynamic bodies, asleep or awake, in index order.
    pub(super) dynamic: Vec<u32>,
    /// The kinematic bodies, in index order (gathered with `dynamic`; most worlds have
    /// none). Their records change every step: they are visited beside the dynamic ones
    /// ([`Movers::visited`]), and the integration moves them after the bodies the solver
    /// moves.
    pub(super) kinematic: Vec<u32>,
    /// Per body, whether it is not dynamic: the broad phase's passive bodies, which never
    /// pair with one another (`BroadPhase::update_on`). Gathered with `dynamic`.
    pub(super) statics_mask: Vec<bool>,
    /// The bodies the solver moves this step, in index order (the prepare stage's), where
    /// [`Movers::few_active`].
    pub(super) active: Vec<u32>,
    /// `active` holds the bodies the solver moves this step, and they are fewer than half
    /// the bodies; otherwise the loops visit every body (with sleeping off and most bodies
    /// dynamic, the list is not even gathered).
    pub(super) few_active: bool,
    /// What the static bodies' broad-phase records were last computed with; `None` when
    /// they must be computed again (and `dynamic` gathered again).
    pub(super) statics: Option<StaticInputs>,
    /// This step's broad phase found the static bodies' records holding and visited only
    /// [`Movers::visited`] (the dynamic bodies and the new ones): the prepare stage then
    /// leaves the other static bodies' solver records as they are too (no stage writes them
    /// but for `SolverBody::touching`, which nothing reads for a body the solver does not
    /// move).
    pub(super) steady: bool,
    /// This step visits `visit`: the dynamic bodies that were there before but for the
    /// sleeping ones whose records hold, and every new one, in index order (where bodies
    /// were added, or sleeping bodies keep their records: [`StaticInputs::quiet`]).
    pub(super) listed: bool,
    pub(super) visit: Vec<u32>,
    /// Per body, whether it was asleep when its records were last computed (kept while
    /// [`StaticInputs::quiet`]). A body asleep then and now has not moved since (no stage
    /// of the soft step moves a sleeping body, and waking or editing one shows), so its
    /// records, which read only its pose while it sleeps, still hold.
    pub(super) seen_asleep: Vec<bool>,
    /// The sleeping bodies this step woke after its broad phase (`World::wake_touched`), in
    /// index order: the prepare stage and the finiteness check visit them beside `visit`.
    pub(super) woken: Vec<u32>,
    /// This step's pair filter kept the last step's pairs as they were: no body's records
    /// were made again (every dynamic body asleep since the last step, none added) and the
    /// grid is unchanged, so every pair rests or is still apart (a world asleep). The narrow
    /// phase then leaves its touching list as it is, and the prepare stage has no contact
    /// to solve.
    pub(super) pairs_kept: bool,
    /// The last step's candidate pairs, sorted (the broad phase swaps them with this
    /// step's).
    pub(super) last_pairs: Vec<(u32, u32)>,
    /// Per body, whether its records were kept this step (not [`Movers::visited`]): the
    /// pair filter's reading of `last_pairs` (scratch).
    pub(super) still: Vec<bool>,
}

impl Movers {
    /// Whether the static bodies' broad-phase records, computed with `inputs`, still hold
    /// (no body added or edited since: `dirty` false), so that only [`Movers::dynamic`]
    /// needs visiting.
    pub(super) fn statics_hold(&self, inputs: StaticInputs, dirty: bool) -> bool {
        !dirty && self.statics == Some(inputs)
    }

    /// Where bodies were only added since the static bodies' records were computed (no edit:
    /// `dirty` false, and `inputs` the same but for the count), the count they were computed
    /// for: the bodies from there on are new.
    pub(super) fn grown_from(&self, inputs: StaticInputs, dirty: bool) -> Option<usize> {
        let last = self.statics.filter(|_| !dirty)?;
        (last.count < inputs.count && StaticInputs { count: inputs.count, ..last } == inputs).then_some(last.count)
    }

    /// The bodies whose records a steady step computes: the dynamic ones (but for the
    /// sleeping ones whose records hold), the kinematic ones, and where bodies were added,
    /// every new one.
    pub(super) fn visited(&self) -> &[u32] {
        if self.listed {
            &self.visit
        } else {
            &self.dynamic
        }
    }

    /// The bodies a steady step's solver records and finiteness check visit: those the
    /// broad phase visited, then the sleeping ones woken since.
    pub(super) fn visited_and_woken(&self) -> [&[u32]; 2] {
        [self.visited(), &self.woken]
    }

    /// Whether a loop over `list` instead of over all `n` bodies pays: it holds fewer than
    /// half of them.
    pub(super) fn few(list: &[u32], n: usize) -> bool {
        2 * list.len() < n
    }
}
