//! The testbed's state, independent of any window, as five named parts:
//!
//! - [`Session`]: the scene as loaded, the clock, the step, the history and a replay;
//! - [`Sides`]: the running worlds, one per method shown, each with its own run statistics
//!   and cached records;
//! - [`Selection`]: the bodies, joint, clip stage, inspector side and character picked;
//! - [`ViewState`]: camera, overlays, look and the view's rectangle;
//! - [`Tools`]: scene files and hot reload, screenshots and GIFs, the plots' samples, the
//!   status line.
//!
//! The operations that touch several parts are methods of [`Testbed`]: the core ones here (a
//! step: the session steps the sides, the plots sample them; reset, load, changing the sides
//! of a comparison, what the renderer draws), and by tool in `testbed/` (the mouse drag, scene
//! files and hot reload, GIF recording, replaying a trace). The window, the panel, the
//! headless screenshot and the tests all drive this one struct. The parts never import the
//! testbed, so the app's modules import no circle (`tests/app_structure.rs`).

mod drag;
mod explain;
mod files;
mod gif;
mod replay;

use super::session::Session;
use super::sides::{Sides, SIDE_NAMES};
use super::view_state::{initial_camera, near_part, size};
use super::{picking, selection::Selection, tools::Tools, view_state::ViewState};
use crate::physics::{SolverMode, World};
use crate::render::draw::Rect;
use crate::render::views::{clip_stage_count, FrameInput};
use crate::scene::LoadedScene;
use crate::view::{Overlays, PairDebug};
use glam::Vec3;
use std::path::PathBuf;

/// Why a selected pair has no clip stages to show (the window, `--clip-stage`, `--clip-strip`).
pub const NO_CLIP_STAGES: &str =
    "the selected pair has no clip stages (it needs two hulls in contact: a face contact, or an edge contact whose faces were clipped)";

/// The testbed state (module docs).
pub struct Testbed {
    /// The scene, clock, step and history.
    pub session: Session,
    /// The running worlds (side A first).
    pub sides: Sides,
    /// What the user picked.
    pub selection: Selection,
    /// How the scene is looked at.
    pub view: ViewState,
    /// Files, capture, plots, status.
    pub tools: Tools,
}

impl Testbed {
    /// A testbed on `scene`, loaded from `path` if given.
    pub fn new(scene: LoadedScene, path: Option<PathBuf>) -> Testbed {
        let sides = Sides::new(scene.world.clone());
        let mut t = Testbed {
            session: Session::new(scene, path.clone()),
            sides,
            selection: Selection::default(),
            view: ViewState::default(),
            tools: Tools::default(),
        };
        t.tools.files.scene_list = super::files::scene_list();
        if let Some(p) = path {
            // Loaded by the caller: its bytes now are taken as the ones loaded.
            let loaded = super::files::Loaded::new(&p, super::files::fingerprint(&p), &t.session.scene.desc);
            t.tools.files.path_input = p.display().to_string();
            if let Some(msg) = t.tools.files.loaded(loaded) {
                t.tools.status = msg;
            }
        }
        t.apply_scene_view();
        t
    }

    /// The scene's own view: its camera, overlays and selected pair; nothing held.
    fn apply_scene_view(&mut self) {
        let scene = &self.session.scene;
        self.view.initial_camera = initial_camera(scene);
        self.view.camera = self.view.initial_camera;
        self.view.overlays = Overlays::default();
        for o in &scene.desc.view.overlays {
            self.view.overlays.enable(*o);
        }
        self.selection = Default::default();
        self.view.insets.solo = None;
        // Another scene's text and key are laid out afresh (their kept heights go).
        self.view.key_layout = None;
        if let Some((i, j)) = scene.selected_pair() {
            self.selection.select_pair(i, j);
        }
        self.session.restart_clock();
    }

    /// The world of side A (the one the panel's settings edit).
    pub fn world(&self) -> &World {
        &self.sides.main().world
    }

    /// Side A's world, to edit it; call [`Testbed::edited`] after an edit.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.sides.main_mut().world
    }

    /// Fixed timestep of the scene.
    pub fn timestep(&self) -> f32 {
        self.session.timestep()
    }

    /// Marks the worlds as edited from outside (the panel changed a body): cached debug
    /// records are gathered again, and at a past step the history branches.
    pub fn edited(&mut self) {
        self.session.history.edited(self.world().step_count);
        self.session.touch();
    }

    /// Exactly one step of every side (also while paused). At a past step this re-runs the
    /// recorded step (its drag replayed) unless the mouse drags now, which branches the
    /// history.
    pub fn step_once(&mut self) {
        if self.session.replay.is_some() {
            return self.step_replay(1);
        }
        self.sides.watch(self.selection.pair());
        self.session.step(&mut self.sides, self.tools.plots.open);
        let follow = self.followed_body();
        self.tools.plots.sample(&self.sides, self.session.history.head(), follow);
    }

    /// The body the plots follow: the first selected body that moves (of a pair with the
    /// ground, the body on it), else the first selected.
    pub fn followed_body(&self) -> Option<usize> {
        let bodies = self.world().bodies();
        let sel = &self.selection.bodies;
        sel.iter().copied().find(|&i| bodies.get(i).is_some_and(|b| b.is_dynamic())).or(sel.first().copied())
    }

    /// Advances by real time `real_dt` when playing: the session's due fixed steps (while a
    /// GIF records, no more than reach its next frame: [`Testbed::gif_steps_left`]).
    pub fn advance(&mut self, real_dt: f32) -> u32 {
        let n = self.session.due_steps(real_dt);
        let n = self.gif_steps_left().map_or(n, |left| n.min(left as u32));
        for _ in 0..n {
            self.step_once();
        }
        n
    }

    /// Restarts the scene from its initial state and its initial camera, keeping the solver
    /// settings chosen live and the sides of a comparison.
    pub fn reset(&mut self) {
        self.session.history.clear();
        self.tools.plots.clear();
        self.sides.restart(&self.session.scene.world);
        self.view.camera = self.view.initial_camera;
        self.session.restart_clock();
        self.session.touch();
        if self.session.replay.is_some() {
            self.show_replay_frame(0);
        }
    }

    /// Loads a scene file. On error the current scene keeps running and the error is kept
    /// for the panel.
    pub fn load(&mut self, path: PathBuf) -> Result<(), String> {
        let before = super::files::fingerprint(&path);
        match self.session.load(path.clone()) {
            Ok(world) => {
                // A comparison goes on with the new scene: side A takes the scene's method,
                // the others keep theirs.
                let old = self.sides.modes();
                let mut modes = vec![world.settings.mode];
                modes.extend(old[1..].iter().copied().filter(|m| *m != world.settings.mode));
                if modes.len() < old.len() && !modes.contains(&old[0]) {
                    modes.push(old[0]);
                }
                self.sides = Sides::new(world);
                self.sides.set_modes(&modes);
                self.tools.plots.clear();
                let files = &mut self.tools.files;
                files.path_input = path.display().to_string();
                files.load_error = None;
                let loaded = super::files::Loaded::new(&path, before, &self.session.scene.desc);
                if let Some(msg) = files.loaded(loaded) {
                    self.tools.status = msg;
                }
                self.apply_scene_view();
                Ok(())
            }
            Err(msg) => {
                self.tools.files.load_error = Some(msg.clone());
                Err(msg)
            }
        }
    }

    /// Reloads the current file.
    pub fn reload(&mut self) -> Result<(), String> {
        match self.session.scene_path.clone() {
            Some(p) => self.load(p),
            None => {
                self.reset();
                Ok(())
            }
        }
    }

    /// Switches the resolution method of side A, waking every body so the change shows at
    /// once.
    pub fn set_mode(&mut self, mode: SolverMode) {
        self.set_side_mode(0, mode);
    }

    /// Switches side `k`'s method on its running world (waking its bodies); a method another
    /// side already runs trades places with it.
    pub fn set_side_mode(&mut self, k: usize, mode: SolverMode) {
        let mut modes = self.sides.modes();
        if k >= modes.len() || modes[k] == mode {
            return;
        }
        if let Some(j) = modes.iter().position(|&m| m == mode) {
            modes.swap(j, k);
            self.set_sides(&modes);
            return;
        }
        if let Some(side) = self.sides.get_mut(k) {
            side.world.settings.mode = mode;
        }
        self.wake_all();
    }

    /// Runs the methods `modes` side by side (one to four, side A first; one ends a
    /// comparison). New sides start from side A's current state; the history starts afresh
    /// when the sides change.
    pub fn set_sides(&mut self, modes: &[SolverMode]) {
        if !self.sides.set_modes(modes) {
            return;
        }
        let step = self.world().step_count;
        let why = if self.sides.comparing() {
            format!("now comparing {}", self.sides.modes().iter().map(|m| m.name()).collect::<Vec<_>>().join(", "))
        } else {
            "the comparison ended".to_string()
        };
        self.session.history.restart(step, &why);
        self.tools.plots.clear();
        self.selection.side = self.selection.side.min(self.sides.len() - 1);
        self.session.touch();
    }

    /// Starts an A/B comparison: side B copies side A's current state and runs under `mode`.
    pub fn start_compare(&mut self, mode: SolverMode) {
        self.set_sides(&[self.sides.main().mode(), mode]);
    }

    /// Ends the comparison (side A keeps running).
    pub fn stop_compare(&mut self) {
        self.set_sides(&[self.sides.main().mode()]);
    }

    /// Wakes every dynamic body on every side. Called whenever the method or a solver
    /// setting changes: a settled (sleeping) scene would otherwise ignore the change until
    /// reset.
    pub fn wake_all(&mut self) {
        self.sides.wake_all();
        self.edited();
    }

    /// Selects a body (see [`Selection::click_body`]).
    pub fn click_body(&mut self, i: Option<usize>) {
        self.selection.click_body(i);
    }

    /// Selects a pair directly.
    pub fn select_pair(&mut self, a: usize, b: usize) {
        self.selection.select_pair(a, b);
    }

    /// The selected pair, if two bodies are selected.
    pub fn selected_pair(&self) -> Option<(usize, usize)> {
        self.selection.pair()
    }

    /// Debug records of the selected pair on the inspector's side at the current poses
    /// (cached until the worlds change).
    pub fn pair_debug(&mut self) -> Option<&PairDebug> {
        let k = self.selection.side.min(self.sides.len() - 1);
        self.pair_debug_of(k)
    }

    /// Debug records of the selected pair on side `k`.
    pub fn pair_debug_of(&mut self, k: usize) -> Option<&PairDebug> {
        let pair = self.selection.pair()?;
        self.sides.watch(Some(pair));
        let edits = self.session.edits();
        Some(self.sides.get_mut(k)?.pair_debug(edits, pair))
    }

    /// Number of clip stages of the selected pair.
    pub fn clip_stages(&mut self) -> Option<usize> {
        self.pair_debug().and_then(clip_stage_count)
    }

    /// `draw` for every clip stage of the selected pair in turn, the stage shown set to it;
    /// the stage shown before is restored. Errs when the pair has no clip stages.
    pub fn each_clip_stage<T>(
        &mut self,
        mut draw: impl FnMut(&mut Testbed) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let n = self.clip_stages().ok_or(NO_CLIP_STAGES)?;
        let shown = self.selection.clip_stage;
        let mut out = Vec::with_capacity(n);
        for k in 0..n {
            self.selection.clip_stage = Some(k);
            match draw(self) {
                Ok(x) => out.push(x),
                Err(e) => {
                    self.selection.clip_stage = shown;
                    return Err(e);
                }
            }
        }
        self.selection.clip_stage = shown;
        Ok(out)
    }

    /// Frames the camera on the selected pair's clip (its reference and incident faces), or
    /// on the pair when it has none (`--view clip`); the framing becomes the initial camera.
    /// A reference face more than four times the incident face's size (a ground's top under
    /// a box) gives only its part near the incident face, as [`ViewState::frame_pair`] does
    /// for a ground: the clip is what is framed, not the ground.
    pub fn frame_clip(&mut self, aspect: f32) {
        let bounds = |ps: &[Vec3]| {
            let first = *ps.first()?;
            let (lo, hi) = ps.iter().fold((first, first), |(lo, hi), p| (lo.min(*p), hi.max(*p)));
            Some(crate::physics::Aabb::new(lo, hi))
        };
        let faces = self
            .pair_debug()
            .and_then(|p| p.clip.as_ref())
            .map(|c| (bounds(&c.reference_polygon), bounds(&c.incident_polygon)));
        let framed = match faces {
            Some((Some(r), Some(i))) if size(&r) > 4.0 * size(&i) => Some(near_part(&r, &i)),
            Some((Some(r), Some(i))) => Some(r.union(&i)),
            Some((r, i)) => r.or(i),
            None => None,
        };
        match framed {
            Some(b) => self.view.camera.frame_in(&b, aspect),
            None => self.frame_scene(),
        }
        self.view.initial_camera = self.view.camera;
    }

    /// Picks a body under the ray.
    pub fn pick(&self, o: Vec3, d: Vec3) -> Option<(usize, f32)> {
        picking::pick(self.world(), o, d)
    }

    /// Fits the camera (key F): to the selected pair when one is selected, else to all
    /// bodies.
    pub fn frame_scene(&mut self) {
        let world = &self.sides.main().world;
        // The aspect of one side's tile (16:9 before the first frame is laid out).
        let r = self.view.rect;
        let aspect = if r.is_positive() && r.is_finite() {
            let tile = self.view.tiles(Rect { x: 0.0, y: 0.0, w: r.width(), h: r.height() }, self.sides.len(), 1.0)[0];
            tile.w / tile.h
        } else {
            16.0 / 9.0
        };
        match self.selection.pair() {
            Some(pair) => self.view.frame_pair(world, pair, aspect),
            None => self.view.frame_world(world, aspect),
        }
    }

    /// Goes to step `target` (clamped to what the history holds): restores the last
    /// snapshot at or before it, unless going forward from the current step is shorter, and
    /// re-simulates the steps between. Ends any mouse drag.
    pub fn seek(&mut self, target: u64) {
        if self.session.replay.is_some() {
            return self.seek_replay(target);
        }
        let history = &self.session.history;
        let target = target.clamp(history.first(), history.head());
        let current = self.world().step_count;
        if target == current {
            return;
        }
        self.session.drag = None;
        if current == self.session.history.head() || target < current {
            self.session.history.keep_current(self.sides.worlds());
        }
        if let Some((from, worlds)) = self.session.history.restore_point(target) {
            if target < current || from > current {
                self.session.restore(&mut self.sides, worlds);
            }
        }
        while self.world().step_count < target {
            self.step_once();
        }
        self.session.touch();
    }

    /// One step back (key comma or Left arrow).
    pub fn step_back(&mut self) {
        self.session.playing = false;
        if self.session.replay.is_some() {
            return self.step_replay(-1);
        }
        let current = self.world().step_count;
        if current > self.session.history.first() {
            self.seek(current - 1);
        }
    }

    /// One step forward: the recorded step at a past step, a new one at the latest.
    pub fn step_forward(&mut self) {
        self.step_once();
    }

    /// Whether the shown step is earlier than the latest one simulated.
    pub fn in_past(&self) -> bool {
        self.session.in_past(self.world().step_count)
    }

    /// The first and the last step one can go to.
    pub fn timeline(&self) -> (u64, u64) {
        self.session.timeline()
    }

    /// Writes the plotted series to `path` as CSV (in a comparison: `FILE.a.csv`, `FILE.b.csv`, …);
    /// returns what the status line says.
    pub fn export_plots(&self, path: &std::path::Path) -> Result<String, String> {
        self.tools.plots.export(path)
    }

    /// The frame's draw lists ([`crate::render::views::build_views`] of every
    /// [`Testbed::frame_inputs`]): what the GPU renderer and the SVG writer draw.
    pub fn views(
        &mut self,
        size: (u32, u32),
        main_rect: Rect,
        outlines: &[Vec<Vec3Pair>],
    ) -> Vec<crate::render::draw::ViewDraw> {
        self.frame_inputs(size, main_rect, outlines).iter().flat_map(crate::render::views::build_views).collect()
    }

    /// Brings each side's cached records of what a frame draws up to date: the selected
    /// pair's (watched from now on) and the joints'. The labels and the renderer call it
    /// before they read them.
    pub fn refresh_records(&mut self) {
        let pair = self.selection.pair();
        if pair.is_some() {
            self.sides.watch(pair);
        }
        self.sides.refresh_pair(self.session.edits(), pair);
        self.sides.refresh_joints();
    }

    /// Frame inputs for the renderer: one per side, each in its tile of `main_rect`
    /// ([`super::view_state::ViewState::tiles`]).
    pub fn frame_inputs<'a>(
        &'a mut self,
        size: (u32, u32),
        main_rect: Rect,
        outlines: &'a [Vec<Vec3Pair>],
    ) -> Vec<FrameInput<'a>> {
        self.refresh_records();
        let pair = self.selection.pair();
        let this: &'a Testbed = self;
        let rects = this.view.tiles(main_rect, this.sides.len(), this.view.ppp);
        let dt = this.timestep();
        let drag = this.session.drag;
        this.sides
            .iter()
            .zip(rects)
            .map(|(side, rect)| {
                let world = &side.world;
                let joints = side.joints();
                let selected_joint = this.selection.joint.and_then(|h| joints.iter().position(|r| r.handle == h));
                let drag = drag.map(|d| (world.bodies()[d.body].pose.transform_point(d.local), d.target));
                let (n, ppp, header) = (this.sides.len(), this.view.ppp, this.view.header);
                let view = this.view.side_view(main_rect, rect, n, side.pair_debug_cached(pair), ppp, header);
                FrameInput {
                    world,
                    colors: &this.session.scene.colors,
                    camera: view.camera,
                    marks: view.marks,
                    ppp,
                    above: view.above,
                    keep: view.keep,
                    overlays: this.view.overlays,
                    selected: &this.selection.bodies,
                    pair: side.pair_debug_cached(pair),
                    clip_stage: this.selection.clip_stage,
                    drag,
                    insets: this.view.insets,
                    size,
                    main_rect: rect,
                    outlines,
                    joints,
                    selected_joint,
                    dt,
                    look: this.view.look,
                    selected_character: this.selection.characters.selected,
                    toi: side.toi_shown(),
                }
            })
            .collect()
    }

    /// The name of side `k` in a comparison ("A: naive"), or the method alone.
    pub fn side_title(&self, k: usize) -> String {
        let m = self.sides.get(k).map_or("", |s| s.mode().name());
        if self.sides.comparing() {
            format!("{}: {m}", SIDE_NAMES[k.min(SIDE_NAMES.len() - 1)])
        } else {
            m.to_string()
        }
    }
}

/// A segment in body space.
pub type Vec3Pair = (Vec3, Vec3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene;

    fn testbed() -> Testbed {
        let path = scene::scenes_dir().join("single_box_drop.ron");
        Testbed::new(scene::load(&path).unwrap(), Some(path))
    }

    #[test]
    fn dragging_pulls_the_grab_point_to_the_cursor_while_running() {
        let mut t = testbed();
        let i = t.session.scene.body_index("box").unwrap();
        let p0 = t.world().bodies()[i].pose.pos;
        t.begin_drag(i, p0);
        t.session.playing = true;
        let goal = p0 + Vec3::new(1.0, 0.5, 0.0);
        t.session.drag.as_mut().unwrap().target = goal;
        for _ in 0..120 {
            t.step_once();
        }
        let p = t.world().bodies()[i].pose.transform_point(t.session.drag.unwrap().local);
        assert!((p - goal).length() < 0.05, "grab point {p} vs cursor {goal}");
        t.end_drag();
        assert!(t.session.drag.is_none());
    }

    #[test]
    fn dragging_while_paused_moves_the_body_directly() {
        let mut t = testbed();
        let i = t.session.scene.body_index("box").unwrap();
        let p0 = t.world().bodies()[i].pose.pos;
        t.begin_drag(i, p0);
        let cam = t.view.camera;
        let target = p0 + Vec3::new(0.3, 0.0, 0.0);
        let dir = (target - cam.eye()).normalize();
        t.update_drag(cam.eye(), dir);
        let moved = t.world().bodies()[i].pose.pos - p0;
        assert!(moved.length() > 0.1, "moved {moved}");
        assert_eq!(t.world().step_count, 0, "no step taken");
    }

    #[test]
    fn accumulator_steps_at_the_scene_rate_whatever_the_frame_rate() {
        let mut t = testbed();
        t.session.playing = true;
        let mut steps = 0;
        for _ in 0..300 {
            steps += t.advance(1.0 / 144.0); // a 144 Hz display
        }
        // 300 frames at 144 Hz = 2.083 s = 125 steps of 1/60 s (± one for the remainder).
        assert!((124..=126).contains(&steps), "{steps} steps");
        assert_eq!(t.world().step_count, steps as u64);
    }
}
