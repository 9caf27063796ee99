//! The window's history: step back, step forward, and a scrubber over every step since the
//! scene was loaded, within a memory budget.
//!
//! The engine is bit-deterministic (same world, same inputs → same next world), so the
//! history stores *some* steps and re-simulates the rest:
//!
//! - **Snapshots** ([`World::snapshot`]) of the world (of every side of a comparison)
//!   are taken every [`History::interval`] steps while the simulation runs, plus the
//!   scene's start, the latest step when one scrubs back from it, and the state after
//!   every edit.
//! - **Inputs**: the mouse drag of each step (the only thing besides the world that a step
//!   reads), so re-simulation replays a drag exactly.
//! - **Budget**: when the snapshots' bytes pass [`History::budget`], the snapshot whose
//!   removal leaves the smallest gap *relative to its distance from the current step* goes
//!   (never the scene's start, nor the latest step): spacing grows with age, so the whole
//!   run since the start stays reachable and stepping near the cursor stays cheap. Going to
//!   step N restores the last snapshot at or before N and re-simulates from there, replaying
//!   the logged drags; the snapshots passed on the way are added (and thinned again).
//! - **Branching**: an edit at a past step (dragging, moving a body by hand, the body panel,
//!   a solver setting or the method) discards the steps after it; the panel says so.
//!
//! Limits: re-simulating to a far step costs one world step per step between it and the
//! snapshot before it; on a big scene with a long history the gaps far from the cursor grow
//! to many steps (measured in docs/BENCHMARKS.md, "History"). Changing the sides of a
//! comparison starts the history afresh (a snapshot holds one world per side). Camera,
//! selection and overlays are not part of the history.

use super::drag::Drag;
use crate::physics::{Settings, World};
use glam::Vec3;

/// One stored state.
#[derive(Clone, Debug)]
struct Snap {
    /// The world's step count.
    step: u64,
    /// One world per side, side A first.
    worlds: Vec<World>,
    /// Heap bytes of all of them.
    bytes: usize,
    /// Taken after an edit: the state at this step is not what re-simulating the step
    /// before gives, so it is never thinned and re-simulation passing it restores it.
    edit: bool,
}

/// What the panel may change in side A's world between steps: a change is an edit. (The
/// other sides' settings follow side A's; changing the set of sides restarts the history,
/// and changing another side's method in place is an edit the testbed marks itself.)
#[derive(Clone, Copy, Debug, PartialEq)]
struct Inputs {
    settings: Settings,
    gravity: Vec3,
}

/// Snapshots and logged drags of the running scene (module docs).
#[derive(Clone, Debug)]
pub struct History {
    snaps: Vec<Snap>,
    /// Drag applied before the step from `s` to `s + 1`, by `s` (sorted).
    drags: Vec<(u64, Drag)>,
    /// Latest step simulated.
    head: u64,
    /// Most bytes the snapshots may hold.
    pub budget: usize,
    /// Steps between regular snapshots.
    pub interval: u64,
    bytes: usize,
    /// The state at the current step was edited since its snapshot (if any) was taken.
    dirty: bool,
    last_inputs: Option<Inputs>,
    /// What the history last did that the user should know (a branch, a restart).
    pub note: String,
    /// Milliseconds spent on history work (snapshots, logging) in the last recorded step,
    /// and the world's own step time then, for the stats.
    pub cost_ms: (f32, f32),
}

/// Default memory budget (bytes).
pub const DEFAULT_BUDGET: usize = 256 << 20;

/// Default steps between regular snapshots: a snapshot costs a fraction of a step, so taking
/// one every 16th step keeps the history's share of the step time small (measured in
/// docs/BENCHMARKS.md, "History").
pub const DEFAULT_INTERVAL: u64 = 16;

impl Default for History {
    fn default() -> Self {
        History {
            snaps: Vec::new(),
            drags: Vec::new(),
            head: 0,
            budget: DEFAULT_BUDGET,
            interval: DEFAULT_INTERVAL,
            bytes: 0,
            dirty: false,
            last_inputs: None,
            note: String::new(),
            cost_ms: (0.0, 0.0),
        }
    }
}

impl History {
    /// Forgets everything (a new scene or a reset); keeps the budget and interval.
    pub fn clear(&mut self) {
        *self = History { budget: self.budget, interval: self.interval, ..History::default() };
    }

    /// Latest step simulated.
    pub fn head(&self) -> u64 {
        self.head
    }

    /// Earliest step one can go back to.
    pub fn first(&self) -> u64 {
        self.snaps.first().map_or(self.head, |s| s.step)
    }

    /// Bytes the snapshots hold.
    pub fn bytes(&self) -> usize {
        self.bytes + std::mem::size_of_val(self.drags.as_slice())
    }

    /// Number of snapshots.
    pub fn snapshots(&self) -> usize {
        self.snaps.len()
    }

    /// The steps of the snapshots (for the scrubber's ticks and the tests).
    pub fn snapshot_steps(&self) -> impl Iterator<Item = u64> + '_ {
        self.snaps.iter().map(|s| s.step)
    }

    /// The drag logged for the step from `step`.
    pub fn drag_at(&self, step: u64) -> Option<Drag> {
        self.drags.binary_search_by_key(&step, |d| d.0).ok().map(|i| self.drags[i].1)
    }

    /// Called before the step from side A's `step_count` (`worlds`: every side, A first):
    /// notes edits the panel made to the settings (a branch point, like any edit), takes a
    /// snapshot when one is due, and logs `drag`.
    pub fn before_step<'a>(&mut self, worlds: impl Iterator<Item = &'a World> + Clone, drag: Option<Drag>) {
        let Some(a) = worlds.clone().next() else { return };
        let step = a.step_count;
        let inputs = Inputs { settings: a.settings, gravity: a.gravity };
        if self.last_inputs.is_some_and(|l| l != inputs) {
            self.edited(step);
        }
        self.last_inputs = Some(inputs);
        if let Some(d) = drag {
            if step < self.head && self.drag_at(step).is_none_or(|l| !same_drag(&l, &d)) {
                // A new drag at a past step changes the future.
                self.branch(step, "a drag");
            }
            match self.drags.binary_search_by_key(&step, |x| x.0) {
                Ok(i) => self.drags[i].1 = d,
                Err(i) => self.drags.insert(i, (step, d)),
            }
        }
        let due = self.snaps.is_empty() || self.dirty || step % self.interval.max(1) == 0;
        if due && (self.dirty || self.find(step).is_err()) {
            self.store(worlds, step);
        }
    }

    /// Called after a step reached `step`.
    pub fn after_step(&mut self, step: u64) {
        self.head = self.head.max(step);
    }

    /// The state at `step` was edited (by hand, or a setting changed): steps after it are
    /// discarded, and the next step or seek snapshots the edited state.
    pub fn edited(&mut self, step: u64) {
        if step < self.head {
            self.branch(step, "an edit");
        }
        self.dirty = true;
    }

    /// Restarts the history at `step` (the sides of a comparison changed).
    pub fn restart(&mut self, step: u64, why: &str) {
        self.clear();
        self.head = step;
        self.dirty = true;
        self.note = format!("history restarts at step {step} ({why})");
    }

    /// Discards the steps after `step`.
    fn branch(&mut self, step: u64, why: &str) {
        let lost = self.head - step;
        self.snaps.retain(|s| s.step <= step);
        self.drags.retain(|d| d.0 < step);
        self.bytes = self.snaps.iter().map(|s| s.bytes).sum();
        self.head = step;
        self.note = format!("branched at step {step} by {why}: {lost} later steps discarded");
    }

    /// Makes sure the state at the current step can be returned to (called before leaving
    /// it for an earlier step): snapshots it unless one is stored and it was not edited.
    pub fn keep_current<'a>(&mut self, worlds: impl Iterator<Item = &'a World> + Clone) {
        let Some(step) = worlds.clone().next().map(|a| a.step_count) else { return };
        if self.dirty || self.find(step).is_err() {
            self.store(worlds, step);
        }
    }

    /// The snapshot at `step` (the snapshots are sorted by step), or where it would go.
    fn find(&self, step: u64) -> Result<usize, usize> {
        self.snaps.binary_search_by_key(&step, |s| s.step)
    }

    fn store<'a>(&mut self, worlds: impl Iterator<Item = &'a World>, step: u64) {
        let edit = std::mem::take(&mut self.dirty);
        let worlds: Vec<World> = worlds.map(World::snapshot).collect();
        let bytes = worlds.iter().map(World::snapshot_bytes).sum();
        let snap = Snap { step, worlds, bytes, edit };
        match self.find(step) {
            Ok(i) => {
                self.bytes -= self.snaps[i].bytes;
                self.snaps[i] = snap;
            }
            Err(i) => self.snaps.insert(i, snap),
        }
        self.bytes += bytes;
        self.head = self.head.max(step);
        self.thin(step);
    }

    /// Drops snapshots until the budget holds (module docs), keeping the first and the
    /// latest and the edited states, judged from `cursor` (the current step).
    fn thin(&mut self, cursor: u64) {
        while self.bytes() > self.budget && self.snaps.len() > 2 {
            let n = self.snaps.len();
            let keep_last = self.snaps[n - 1].step == self.head;
            let end = if keep_last { n - 1 } else { n };
            let mut best = (f64::INFINITY, 0);
            for i in 1..end {
                if self.snaps[i].edit {
                    continue;
                }
                let next = self.snaps.get(i + 1).map_or(self.head, |s| s.step);
                let gap = (next - self.snaps[i - 1].step) as f64;
                let dist = self.snaps[i].step.abs_diff(cursor) as f64 + self.interval as f64;
                let cost = gap / dist;
                if cost < best.0 {
                    best = (cost, i);
                }
            }
            if best.1 == 0 {
                break;
            }
            let s = self.snaps.remove(best.1);
            self.bytes -= s.bytes;
        }
    }

    /// The snapshot to start from to reach `target` (the last at or before it).
    pub fn restore_point(&self, target: u64) -> Option<(u64, Vec<World>)> {
        let i = self.snaps.partition_point(|s| s.step <= target).checked_sub(1)?;
        let s = &self.snaps[i];
        Some((s.step, s.worlds.iter().map(World::snapshot).collect()))
    }

    /// The edited state at `step`, if the state there was edited (re-simulation passing
    /// `step` continues from it).
    pub fn edit_at(&self, step: u64) -> Option<Vec<World>> {
        let i = self.find(step).ok()?;
        let s = &self.snaps[i];
        s.edit.then(|| s.worlds.iter().map(World::snapshot).collect())
    }

    /// Takes the settings of a restored state as the ones in force (they are not an edit).
    pub fn sync_inputs(&mut self, a: &World) {
        self.last_inputs = Some(Inputs { settings: a.settings, gravity: a.gravity });
    }

    /// Whether the snapshots are over budget even at their fewest (the scene's start and the
    /// latest step): then only those two are kept.
    pub fn over_budget(&self) -> bool {
        self.bytes() > self.budget
    }
}

/// Two logged drags are the same input.
fn same_drag(a: &Drag, b: &Drag) -> bool {
    a.body == b.body && a.local == b.local && a.target == b.target && a.turn == b.turn
}
