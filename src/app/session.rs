//! The session: the scene as loaded, the clock (play, pause, speed and the fixed-step
//! accumulator), the step of every side with its history, the mouse drag as the steps'
//! input, and a trace being replayed. No egui: the window, the headless screenshots and the
//! tests drive the same session.
//!
//! A step ([`Session::step`]) first gives the history its turn (an edited state at a past
//! step is restored once, a snapshot taken when due, the drag logged), then steps every
//! side in lockstep with the step's drag, live or logged ([`super::drag::apply_drag`]).

use super::drag::{apply_drag, Drag};
use super::history::History;
use super::replay::Replay;
use super::sides::Sides;
use crate::physics::World;
use crate::scene::{self, LoadedScene};
use std::path::PathBuf;
use web_time::Instant;

/// Most steps one frame takes when it fell behind (then the simulation runs slower than
/// real time rather than ever catching up).
pub const MAX_STEPS_PER_FRAME: f32 = 8.0;

/// The running session (module docs).
pub struct Session {
    /// The scene as loaded: its description, colours and body names, and its world at the
    /// start, which a reset returns to. The running worlds are the sides'.
    pub scene: LoadedScene,
    /// File it came from (for reload).
    pub scene_path: Option<PathBuf>,
    /// Simulation running.
    pub playing: bool,
    /// Simulated seconds per real second.
    pub speed: f32,
    accumulator: f32,
    /// Snapshots and logged drags for stepping back ([`super::history`]).
    pub history: History,
    /// The trace being replayed (`--replay`), if any: then no physics runs.
    pub replay: Option<Replay>,
    /// The mouse drag in progress: the input of every step while it lasts.
    pub drag: Option<Drag>,
    /// The step whose edited state was last restored from the history (re-simulation
    /// passing an edited step restores it once).
    restored_at: Option<u64>,
    /// How many times the worlds or the view changed (the debug records' cache key).
    edits: u64,
}

impl Session {
    /// A session on `scene`, loaded from `path` if given.
    pub fn new(scene: LoadedScene, path: Option<PathBuf>) -> Session {
        Session {
            scene,
            scene_path: path,
            playing: false,
            speed: 1.0,
            accumulator: 0.0,
            history: History::default(),
            replay: None,
            drag: None,
            restored_at: None,
            edits: 0,
        }
    }

    /// Fixed timestep of the scene.
    pub fn timestep(&self) -> f32 {
        self.scene.timestep()
    }

    /// Counts a change of the worlds or the view (cached debug records are gathered again).
    pub fn touch(&mut self) {
        self.edits += 1;
    }

    /// How many changes so far (the cache key of the debug records).
    pub fn edits(&self) -> u64 {
        self.edits
    }

    /// How many steps real time `real_dt` is worth while playing: fixed steps from an
    /// accumulator, so the simulation speed does not depend on the frame rate (at most
    /// [`MAX_STEPS_PER_FRAME`]).
    pub fn due_steps(&mut self, real_dt: f32) -> u32 {
        if !self.playing {
            return 0;
        }
        let dt = self.timestep();
        self.accumulator = (self.accumulator + real_dt.clamp(0.0, 0.25) * self.speed).min(MAX_STEPS_PER_FRAME * dt);
        let mut n = 0;
        while self.accumulator >= dt {
            self.accumulator -= dt;
            n += 1;
        }
        n
    }

    /// Drops the time accumulated towards the next step (a reset or a new scene).
    pub fn restart_clock(&mut self) {
        self.accumulator = 0.0;
        self.drag = None;
    }

    /// Exactly one step of every side. At a past step this re-runs the recorded step (its
    /// drag replayed) unless the mouse drags now, which branches the history. Returns the
    /// milliseconds the history's own work took.
    pub fn step(&mut self, sides: &mut Sides, record_convergence: bool) -> f32 {
        let t0 = Instant::now();
        let step = sides.main().world.step_count;
        if step < self.history.head() && self.restored_at != Some(step) {
            if let Some(worlds) = self.history.edit_at(step) {
                self.restore(sides, worlds);
            }
        }
        self.restored_at = None;
        self.history.before_step(sides.worlds(), self.drag);
        let drag = self.drag.or_else(|| self.history.drag_at(step));
        let history_ms = t0.elapsed().as_secs_f32() * 1000.0;
        let dt = self.timestep();
        sides.step(dt, record_convergence, |w| apply_drag(w, drag, dt));
        self.history.after_step(sides.main().world.step_count);
        self.history.cost_ms = (history_ms, sides.main().world.profile.total_ms);
        self.touch();
        history_ms
    }

    /// Makes `worlds` (a state from the history, one per side) the running worlds.
    pub fn restore(&mut self, sides: &mut Sides, worlds: Vec<World>) {
        if let Some(a) = worlds.first() {
            self.restored_at = Some(a.step_count);
            self.history.sync_inputs(a);
        }
        sides.put_worlds(worlds);
    }

    /// The first and the last step one can go to: the history's, or the replayed trace's.
    pub fn timeline(&self) -> (u64, u64) {
        match &self.replay {
            Some(r) => r.span(),
            None => (self.history.first(), self.history.head()),
        }
    }

    /// Whether step `now` is earlier than the latest one simulated.
    pub fn in_past(&self, now: u64) -> bool {
        self.replay.is_none() && now < self.history.head()
    }

    /// Reads the scene at `path`. On success it becomes the session's scene (history, clock
    /// and replay start afresh) and its running world is returned for the sides; on error
    /// nothing changes.
    pub fn load(&mut self, path: PathBuf) -> Result<World, String> {
        let s = scene::load(&path).map_err(|e| e.to_string())?;
        let world = s.world.clone();
        self.scene = s;
        self.scene_path = Some(path);
        self.history.clear();
        self.replay = None;
        self.restart_clock();
        self.touch();
        Ok(world)
    }
}
