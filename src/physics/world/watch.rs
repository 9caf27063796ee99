//! Watched pairs: the world records, for a few pairs the UI asks about (the selected pair),
//! what the step really did — which narrow-phase path decided the pair
//! ([`PairPath`]), the SAT result and clip stages it computed, the manifold the solver got
//! and the impulses the solver applied. The inspector reads these records instead of
//! recomputing the contact, so a recycled manifold or a cached axis shows as what it was.
//!
//! Cost: unwatched pairs pay one test of a flag already in the compact pair key; a watched
//! pair's record keeps its buffers, so watching allocates nothing per step once warm.
//!
//! Limits: a pair is recorded from the first step after it is watched; the clip stages
//! are those of the last step that clipped (`clip_step`), which is older than `step` while
//! the manifold is recycled or a cached axis keeps the pair apart.

use super::*;
use crate::physics::collide::{CollideRecord, Manifold, PairPath};

/// What one step did for a watched pair (module docs).
#[derive(Clone, Debug, Default)]
pub struct PairRecord {
    /// Body A (the lower index).
    pub a: u32,
    /// Body B.
    pub b: u32,
    /// The step this record describes (`World::step_count` after it); 0: not stepped since
    /// the pair was watched.
    pub step: u64,
    /// How the narrow phase decided the pair.
    pub path: PairPath,
    /// Speculative margin the pair was tested with: the base margin plus how far the pair
    /// could close in the step (m).
    pub margin: f32,
    /// The collision call's own record (path inside the call, SAT result, chosen axis,
    /// clip stages); valid when `path` is one of the collision call's paths.
    pub collide: CollideRecord,
    /// The step whose face clip `collide.clip` holds (0: none yet).
    pub clip_step: u64,
    /// The manifold the solver used (points with feature IDs and depths).
    pub manifold: Manifold,
    /// Each point's impulses in the step (same order as `manifold.points`), after the solve.
    pub impulses: [PointImpulse; 4],
    /// The rolling-resistance impulse of the step's last substep (N·m·s, world axes, on B;
    /// zero without rolling resistance: [`crate::physics::contact::Contact::rolling_impulse`]).
    pub rolling_impulse: glam::Vec3,
}

impl PairRecord {
    fn new(a: u32, b: u32) -> PairRecord {
        PairRecord { a: a.min(b), b: a.max(b), ..Default::default() }
    }
}

impl World {
    /// Watches exactly these pairs (either order) from the next step on; records of pairs
    /// watched before are kept. An empty list stops watching.
    pub fn set_watched(&mut self, pairs: &[(u32, u32)]) {
        let mut next: Vec<PairRecord> = Vec::with_capacity(pairs.len());
        for &(a, b) in pairs {
            let key = (a.min(b), a.max(b));
            if a == b || next.iter().any(|r| (r.a, r.b) == key) {
                continue;
            }
            let old = self.watch.iter().position(|r| (r.a, r.b) == key);
            next.push(old.map(|i| self.watch.swap_remove(i)).unwrap_or_else(|| PairRecord::new(a, b)));
        }
        self.watch = next;
        for k in &mut self.keys {
            k.watched = is_watched(&self.watch, k.a, k.b);
        }
    }

    /// Records of the watched pairs.
    pub fn watched(&self) -> &[PairRecord] {
        &self.watch
    }

    /// The record of pair (a, b), either order, if it is watched.
    pub fn pair_record(&self, a: u32, b: u32) -> Option<&PairRecord> {
        let key = (a.min(b), a.max(b));
        self.watch.iter().find(|r| (r.a, r.b) == key)
    }

    /// After the impulses are stored: every watched record gets the manifold and impulses
    /// of its pair's contact; a pair the narrow phase did not open this step was still
    /// apart (its contact exists) or no candidate at all.
    pub(super) fn finish_watch(&mut self) {
        let step = self.step_count + 1;
        let mut watch = std::mem::take(&mut self.watch);
        for r in &mut watch {
            let at = self.pair_contact_index(r.a, r.b);
            if r.step != step {
                r.step = step;
                r.path = if at.is_some() { PairPath::StillApart } else { PairPath::NotCandidate };
                r.collide.clipped = false;
            }
            match at.map(|i| &self.contacts[i]) {
                Some(c) => {
                    r.manifold.clone_from(&c.manifold);
                    r.impulses = c.impulses;
                    r.rolling_impulse = c.rolling_impulse;
                }
                None => {
                    r.manifold.clear();
                    r.impulses = Default::default();
                    r.rolling_impulse = glam::Vec3::ZERO;
                }
            }
        }
        self.watch = watch;
    }
}

/// Whether pair (a, b) (a < b) is among the watched `records` (for a new pair's key).
#[inline]
pub(super) fn is_watched(records: &[PairRecord], a: u32, b: u32) -> bool {
    !records.is_empty() && records.iter().any(|r| (r.a, r.b) == (a, b))
}

/// Marks `rec` (when watched) as opened this step with `margin`, before the narrow phase
/// decides the pair.
pub(super) fn begin(rec: &mut Option<&mut PairRecord>, step: u64, margin: f32) {
    if let Some(r) = rec.as_deref_mut() {
        r.step = step;
        r.margin = margin;
        r.collide.clipped = false;
    }
}

/// Sets the path of `rec` (when watched).
pub(super) fn took(rec: &mut Option<&mut PairRecord>, path: PairPath) {
    if let Some(r) = rec.as_deref_mut() {
        r.path = path;
    }
}
