//! The A/B comparison: a second copy of the scene run in lockstep under another resolution
//! method, drawn beside the first with the same camera.
//!
//! Side A is the testbed's own world; side B ([`Comparison`]) starts as a copy of A's current
//! state (or of the scene's start, on reset and load) and takes every step A takes — play,
//! single step and the mouse drag alike. Both sides share every setting but the method, so
//! what differs on screen is what the methods do. Each side draws its own contacts,
//! overlays and stats; the selection (and so the inspector's pair) is the same body pair
//! on both.
//!
//! Limits: two sides; the contact inspector in the panel reads side A (side B's pair is
//! drawn and labelled in its own half).

use super::testbed::Testbed;
use crate::physics::{SolverMode, World};
use crate::render::draw::Rect;
use crate::view::PairDebug;

/// Side B of an A/B comparison.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// Side B's world: the same scene under [`Comparison::mode`].
    pub world: World,
    /// Side B's method.
    pub mode: SolverMode,
    /// Deepest penetration on side B since the comparison started or the scene was reset (m).
    pub max_penetration_run: f32,
    /// Side B's records of the selected pair: (edit counter, a, b, records).
    pub(super) pair_cache: Option<(u64, usize, usize, PairDebug)>,
}

impl Comparison {
    /// Side B from `world` (a copy of side A or of the scene's start) under `mode`.
    pub fn new(world: &World, mode: SolverMode) -> Comparison {
        let mut world = world.clone();
        world.settings.mode = mode;
        Comparison { world, mode, max_penetration_run: 0.0, pair_cache: None }
    }
}

/// The two halves of `main` (side A left, side B right), or `main` alone.
pub fn split(main: Rect, compare: bool) -> Vec<Rect> {
    if !compare {
        return vec![main];
    }
    let half = (main.w * 0.5).floor();
    vec![Rect { w: half, ..main }, Rect { x: main.x + half, w: main.w - half, ..main }]
}

impl Testbed {
    /// Starts an A/B comparison: side B copies side A's current state and runs under `mode`.
    pub fn start_compare(&mut self, mode: SolverMode) {
        self.compare = Some(Comparison::new(&self.scene.world, mode));
        self.history.restart(self.scene.world.step_count, "an A/B comparison started");
        self.touch();
    }

    /// Ends the comparison (side A keeps running).
    pub fn stop_compare(&mut self) {
        self.compare = None;
        self.history.restart(self.scene.world.step_count, "the A/B comparison ended");
        self.touch();
    }

    /// Changes side B's method on its running world.
    pub fn set_mode_b(&mut self, mode: SolverMode) {
        if let Some(c) = &mut self.compare {
            c.mode = mode;
            c.world.settings.mode = mode;
            for i in 0..c.world.bodies().len() {
                c.world.wake(i);
            }
        }
        self.edited();
    }

    /// Steps side B once, with side A's settings but its own method (called by
    /// [`Testbed::step_once`] after side A's step).
    pub(super) fn step_b(&mut self, drag: Option<super::testbed::Drag>) {
        let dt = self.timestep();
        let (a, Some(c)) = (&self.scene.world, &mut self.compare) else { return };
        c.world.settings = crate::physics::Settings { mode: c.mode, ..a.settings };
        // Side B watches side A's pairs (set again only when they change).
        if !c.world.watched().iter().map(|r| (r.a, r.b)).eq(a.watched().iter().map(|r| (r.a, r.b))) {
            let pairs: Vec<(u32, u32)> = a.watched().iter().map(|r| (r.a, r.b)).collect();
            c.world.set_watched(&pairs);
        }
        super::testbed::apply_drag(&mut c.world, drag, dt);
        let reported = c.world.non_finite().len();
        c.world.step(dt);
        for e in &c.world.non_finite()[reported..] {
            log::warn!("side B: {e}");
        }
        c.max_penetration_run = c.max_penetration_run.max(c.world.stats().max_penetration);
    }

    /// Restarts side B, if a comparison runs, from the scene's initial world, keeping its
    /// method.
    pub(super) fn restart_b(&mut self) {
        if let Some(c) = &mut self.compare {
            *c = Comparison::new(&self.initial.world, c.mode);
            c.world.settings = crate::physics::Settings { mode: c.mode, ..self.scene.world.settings };
        }
    }

    /// Side B's records of the selected pair (cached until the worlds change).
    pub fn pair_debug_b(&mut self) -> Option<&PairDebug> {
        let (a, b) = self.selected_pair()?;
        let edits = self.edit_count();
        let c = self.compare.as_mut()?;
        let stale = !matches!(&c.pair_cache, Some((e, i, j, _)) if *e == edits && *i == a && *j == b);
        if stale {
            c.pair_cache = Some((edits, a, b, PairDebug::gather(&c.world, a, b)));
        }
        c.pair_cache.as_ref().map(|p| &p.3)
    }

    /// Side B's pair records as last gathered (for the labels), if any.
    pub fn pair_debug_b_cached(&self) -> Option<&PairDebug> {
        let (a, b) = self.selected_pair()?;
        self.compare.as_ref()?.pair_cache.as_ref().filter(|p| (p.1, p.2) == (a, b)).map(|p| &p.3)
    }
}
