//! The testbed's state, independent of any window: the running scene, play/pause and the
//! fixed-step accumulator, the selection, overlays and camera, mouse dragging, scene
//! loading (a broken file keeps the current scene), and screenshot requests. The window,
//! the panel and the headless screenshot all drive this one struct.

use super::compare::{split, Comparison};
use super::history::History;
use super::picking;
use crate::physics::{JointKind, SolverMode, World};
use crate::render::draw::Rect;
use crate::render::views::{clip_stage_count, FrameInput};
use crate::scene::{self, LoadedScene};
use crate::view::{Camera, Overlays, PairDebug};
use glam::{Quat, Vec3};
use std::path::PathBuf;
use std::time::Instant;

/// A shipped scene in the picker.
#[derive(Clone, Debug)]
pub struct SceneEntry {
    /// File.
    pub path: PathBuf,
    /// Scene name.
    pub name: String,
    /// Its description.
    pub description: String,
}

/// A body held by the mouse.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    /// Body index.
    pub body: usize,
    /// Grab point in body space.
    pub local: Vec3,
    /// Where the cursor wants the grab point (world).
    pub target: Vec3,
    /// Distance of the drag plane from the camera.
    pub depth: f32,
    /// Rate the held body is turned at (rad/s, world axes) while Ctrl is held, before each
    /// step (zero: free to turn).
    pub turn: Vec3,
}

/// What to capture for a screenshot.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotRequest {
    /// Destination file.
    pub path: PathBuf,
    /// Include the control panel.
    pub with_panel: bool,
}

/// The testbed state.
pub struct Testbed {
    /// The running scene (its world is the simulation).
    pub scene: LoadedScene,
    /// File it came from (for reload).
    pub scene_path: Option<PathBuf>,
    /// The scene as loaded (reset returns to it).
    pub(super) initial: LoadedScene,
    /// Simulation running.
    pub playing: bool,
    /// Simulated seconds per real second.
    pub speed: f32,
    accumulator: f32,
    /// Selected bodies (at most two).
    pub selected: Vec<usize>,
    /// Overlays.
    pub overlays: Overlays,
    /// Clip stage shown (None = final).
    pub clip_stage: Option<usize>,
    /// Main camera.
    pub camera: Camera,
    /// Rotation of the inset views.
    pub inset_rotation: Quat,
    /// Mouse drag in progress.
    pub drag: Option<Drag>,
    /// Last load error, shown in the panel.
    pub load_error: Option<String>,
    /// Path field of the panel.
    pub path_input: String,
    /// Shipped scenes.
    pub scene_list: Vec<SceneEntry>,
    /// Last frame time (ms).
    pub frame_ms: f32,
    /// Pending screenshot.
    pub screenshot: Option<ScreenshotRequest>,
    /// Screenshots include the panel.
    pub screenshot_with_panel: bool,
    /// Pixel scale of view screenshots (1×, 2× or 3× for slides; the panel is captured at 1×).
    pub screenshot_scale: u32,
    /// Status line (e.g. where a screenshot went).
    pub status: String,
    /// Deepest penetration of any contact point over all steps since the scene was loaded
    /// or reset (m); the stats' "this step" value is the world's current one.
    pub max_penetration_run: f32,
    /// The 3D view's rectangle in the last frame (egui points), for input and tests.
    pub view_rect: egui::Rect,
    /// The scene's initial camera (its own, or the automatic framing), restored by reset.
    pub initial_camera: Camera,
    pair_cache: Option<(u64, usize, usize, PairDebug)>,
    edits: u64,
    /// Side B of an A/B comparison, when one runs ([`super::compare`]).
    pub compare: Option<Comparison>,
    /// The help overlay (F1) is open.
    pub show_help: bool,
    /// Snapshots and logged drags for stepping back ([`super::history`]).
    pub history: History,
    /// The plots window and its samples ([`super::plots`]).
    pub plots: super::plots::Plots,
    /// Reload the scene file when it changes on disk ([`super::files`]).
    pub hot_reload: bool,
    pub(super) scene_watch: Option<super::files::SceneWatch>,
    /// The files the running scene was loaded from, with their bytes' fingerprints.
    pub(super) loaded: super::files::Loaded,
    /// The trace being replayed (`--replay`), if any: then no physics runs.
    pub replay: Option<super::replay::Replay>,
    /// The selected joint (clicked near its anchor), shown in the joint inspector.
    pub selected_joint: Option<crate::physics::JointHandle>,
    /// The joints of each side as drawn this frame (refreshed by `frame_inputs`).
    pub(super) joint_cache: [Vec<crate::physics::world::JointRecord>; 2],
    /// Theme and background of the view and screenshots.
    pub look: crate::view::Look,
    /// "Record GIF" in the window ([`super::record`]).
    pub recorder: super::record::Recorder,
    /// The "Open…" dialog, while open.
    pub file_dialog: Option<egui_file::FileDialog>,
    /// The step whose edited state was last restored from the history (re-simulation
    /// passing an edited step restores it once).
    pub(super) restored_at: Option<u64>,
    /// The last step with a time of impact, whose ghosts are drawn for a moment after it.
    pub(super) toi_hold: super::ccd_panel::ToiHold,
    /// The character shown (its recursion) and driven ([`super::character_panel`]).
    pub characters: super::character_panel::CharacterView,
}

impl Testbed {
    /// A testbed on `scene`, loaded from `path` if given.
    pub fn new(scene: LoadedScene, path: Option<PathBuf>) -> Testbed {
        let scene_list = scene::shipped_scenes()
            .into_iter()
            .filter_map(|p| {
                let d = scene::load_file(&p).ok()?;
                Some(SceneEntry { path: p, name: d.name, description: d.description })
            })
            .collect();
        let mut t = Testbed {
            initial: scene.clone(),
            camera: Camera::look_at(Vec3::ZERO, Vec3::ZERO, 45.0),
            scene,
            scene_path: path.clone(),
            playing: false,
            speed: 1.0,
            accumulator: 0.0,
            selected: Vec::new(),
            overlays: Overlays::default(),
            clip_stage: None,
            inset_rotation: Quat::IDENTITY,
            drag: None,
            load_error: None,
            path_input: path.map(|p| p.display().to_string()).unwrap_or_default(),
            scene_list,
            frame_ms: 0.0,
            screenshot: None,
            screenshot_with_panel: false,
            screenshot_scale: 1,
            status: String::new(),
            pair_cache: None,
            edits: 0,
            max_penetration_run: 0.0,
            view_rect: egui::Rect::NOTHING,
            initial_camera: Camera::look_at(Vec3::ZERO, Vec3::ZERO, 45.0),
            compare: None,
            show_help: false,
            history: History::default(),
            plots: Default::default(),
            hot_reload: false,
            scene_watch: None,
            loaded: Default::default(),
            file_dialog: None,
            recorder: Default::default(),
            look: Default::default(),
            selected_joint: None,
            joint_cache: Default::default(),
            replay: None,
            restored_at: None,
            toi_hold: Default::default(),
            characters: Default::default(),
        };
        if let Some(p) = t.scene_path.clone() {
            // Loaded by the caller: its bytes now are taken as the ones loaded.
            t.loaded = super::files::Loaded::new(&p, super::files::fingerprint(&p), &t.scene.desc);
        }
        t.apply_scene_view();
        t
    }

    fn apply_scene_view(&mut self) {
        self.initial_camera = initial_camera(&self.scene);
        self.camera = self.initial_camera;
        self.characters = Default::default();
        let d = &self.scene.desc;
        self.max_penetration_run = 0.0;
        self.overlays = Overlays::default();
        for o in &d.view.overlays {
            self.overlays.enable(*o);
        }
        self.selected.clear();
        if let Some((a, b)) = &d.view.selected {
            if let (Some(i), Some(j)) = (self.scene.body_index(a), self.scene.body_index(b)) {
                self.selected = vec![i, j];
            }
        }
        self.clip_stage = None;
        self.drag = None;
        self.pair_cache = None;
        self.accumulator = 0.0;
    }

    /// The world being simulated.
    pub fn world(&self) -> &World {
        &self.scene.world
    }

    /// Fixed timestep of the scene.
    pub fn timestep(&self) -> f32 {
        self.scene.timestep()
    }

    pub(super) fn touch(&mut self) {
        self.edits += 1;
    }

    /// How many times the worlds or the view changed (the debug records' cache key).
    pub(super) fn edit_count(&self) -> u64 {
        self.edits
    }

    /// Keeps the world watching the selected pair, so each step records what it did for
    /// that pair (the inspector reads the record).
    fn sync_watch(&mut self) {
        let want = self.selected_pair().map(|(a, b)| (a as u32, b as u32));
        let have = self.scene.world.watched().first().map(|r| (r.a, r.b));
        if want != have || self.scene.world.watched().len() > 1 {
            self.scene.world.set_watched(want.as_slice());
        }
    }

    /// Marks the world as edited from outside (the panel changed a body): cached debug
    /// records are gathered again, and at a past step the history branches.
    pub fn edited(&mut self) {
        self.history.edited(self.scene.world.step_count);
        self.touch();
    }

    /// Exactly one world step (also while paused). At a past step this re-runs the recorded
    /// step (its drag replayed) unless the mouse drags now, which branches the history.
    pub fn step_once(&mut self) {
        if self.replay.is_some() {
            return self.step_replay(1);
        }
        let t0 = Instant::now();
        let step = self.scene.world.step_count;
        if step < self.history.head() && self.restored_at != Some(step) {
            if let Some((a, b)) = self.history.edit_at(step) {
                self.restore(a, b);
            }
        }
        self.restored_at = None;
        self.sync_watch();
        self.history.before_step(&self.scene.world, self.compare.as_ref().map(|c| &c.world), self.drag);
        let drag = self.drag.or_else(|| self.history.drag_at(step));
        let history_ms = t0.elapsed().as_secs_f32() * 1000.0;
        let dt = self.timestep();
        apply_drag(&mut self.scene.world, drag, dt);
        let reported = self.scene.world.non_finite().len();
        self.scene.world.record_convergence = self.plots.open;
        self.scene.world.step(dt);
        self.toi_hold.after_step(&self.scene.world);
        for e in &self.scene.world.non_finite()[reported..] {
            log::warn!("{e}");
        }
        self.max_penetration_run = self.max_penetration_run.max(self.scene.world.stats().max_penetration);
        self.step_b(drag);
        self.history.after_step(self.scene.world.step_count);
        self.sample_step();
        self.history.cost_ms = (history_ms, self.scene.world.profile.total_ms);
        self.touch();
    }

    /// Makes `a` (and side B's `b`) the running worlds (a state from the history).
    pub(super) fn restore(&mut self, a: World, b: Option<World>) {
        self.restored_at = Some(a.step_count);
        self.scene.world = a;
        if let (Some(c), Some(b)) = (&mut self.compare, b) {
            c.mode = b.settings.mode;
            c.world = b;
        }
        self.history.sync_inputs(&self.scene.world);
        self.pair_cache = None;
    }

    /// Advances by real time `real_dt` when playing: fixed steps from an accumulator, so
    /// the simulation speed does not depend on the frame rate (at most 8 steps a frame).
    pub fn advance(&mut self, real_dt: f32) -> u32 {
        if !self.playing {
            return 0;
        }
        let dt = self.timestep();
        self.accumulator = (self.accumulator + real_dt.clamp(0.0, 0.25) * self.speed).min(8.0 * dt);
        let mut n = 0;
        while self.accumulator >= dt {
            self.step_once();
            self.accumulator -= dt;
            n += 1;
        }
        n
    }

    /// Restarts the scene from its initial state and its initial camera, keeping the solver
    /// settings chosen live.
    pub fn reset(&mut self) {
        let settings = self.scene.world.settings;
        self.history.clear();
        self.plots.series.clear();
        self.scene = self.initial.clone();
        self.scene.world.settings = settings;
        self.restart_b();
        self.camera = self.initial_camera;
        self.max_penetration_run = 0.0;
        self.drag = None;
        self.accumulator = 0.0;
        self.pair_cache = None;
        self.touch();
        if self.replay.is_some() {
            self.show_replay_frame(0);
        }
    }

    /// Loads a scene file. On error the current scene keeps running and the error is kept
    /// for the panel.
    pub fn load(&mut self, path: PathBuf) -> Result<(), String> {
        let before = super::files::fingerprint(&path);
        match scene::load(&path) {
            Ok(s) => {
                self.loaded = super::files::Loaded::new(&path, before, &s.desc);
                self.initial = s.clone();
                self.scene = s;
                self.history.clear();
                self.plots.series.clear();
                self.replay = None;
                self.restart_b();
                self.path_input = path.display().to_string();
                self.scene_path = Some(path);
                self.load_error = None;
                self.sync_scene_watch();
                self.apply_scene_view();
                self.touch();
                Ok(())
            }
            Err(e) => {
                let msg = e.to_string();
                self.load_error = Some(msg.clone());
                Err(msg)
            }
        }
    }

    /// Reloads the current file.
    pub fn reload(&mut self) -> Result<(), String> {
        match self.scene_path.clone() {
            Some(p) => self.load(p),
            None => {
                self.reset();
                Ok(())
            }
        }
    }

    /// Switches the resolution method on the running world, waking every body so the
    /// change shows at once.
    pub fn set_mode(&mut self, mode: SolverMode) {
        self.scene.world.settings.mode = mode;
        self.wake_all();
    }

    /// Wakes every dynamic body. Called whenever the method or a solver setting changes:
    /// a settled (sleeping) scene would otherwise ignore the change until reset.
    pub fn wake_all(&mut self) {
        for w in std::iter::once(&mut self.scene.world).chain(self.compare.as_mut().map(|c| &mut c.world)) {
            for i in 0..w.bodies().len() {
                if w.bodies()[i].is_dynamic() {
                    w.wake(i);
                }
            }
        }
        self.edited();
    }

    /// Selects a body: the first click selects one, the second makes a pair, a third starts
    /// over. Clicking a selected body deselects it.
    pub fn click_body(&mut self, i: Option<usize>) {
        match i {
            None => self.selected.clear(),
            Some(i) if self.selected.contains(&i) => self.selected.retain(|&s| s != i),
            Some(i) => {
                if self.selected.len() >= 2 {
                    self.selected.clear();
                }
                self.selected.push(i);
            }
        }
        self.clip_stage = None;
    }

    /// Selects a pair directly.
    pub fn select_pair(&mut self, a: usize, b: usize) {
        self.selected = vec![a, b];
        self.clip_stage = None;
    }

    /// The selected pair, if two bodies are selected.
    pub fn selected_pair(&self) -> Option<(usize, usize)> {
        match self.selected.as_slice() {
            [a, b] => Some((*a.min(b), *a.max(b))),
            _ => None,
        }
    }

    /// Debug records of the selected pair at the current poses (cached until the world
    /// changes).
    pub fn pair_debug(&mut self) -> Option<&PairDebug> {
        self.sync_watch();
        let (a, b) = self.selected_pair()?;
        let stale = !matches!(&self.pair_cache, Some((e, i, j, _)) if *e == self.edits && *i == a && *j == b);
        if stale {
            self.pair_cache = Some((self.edits, a, b, PairDebug::gather(&self.scene.world, a, b)));
        }
        self.pair_cache.as_ref().map(|c| &c.3)
    }

    /// The selected pair's debug records as last gathered (for drawing labels), if any.
    pub fn pair_debug_cached(&self) -> Option<&PairDebug> {
        let (a, b) = self.selected_pair()?;
        self.pair_cache.as_ref().filter(|c| (c.1, c.2) == (a, b)).map(|c| &c.3)
    }

    /// Number of clip stages of the selected pair.
    pub fn clip_stages(&mut self) -> Option<usize> {
        self.pair_debug().and_then(clip_stage_count)
    }

    /// Starts dragging body `i`, grabbed at world point `p` seen from the camera.
    pub fn begin_drag(&mut self, i: usize, p: Vec3) {
        if !self.scene.world.bodies()[i].is_dynamic() {
            return;
        }
        if self.scene.world.bodies()[i].asleep {
            // Waking is an edit of the state (re-simulation would not wake it).
            self.history.edited(self.scene.world.step_count);
        }
        let pose = self.scene.world.bodies()[i].pose;
        let depth = (p - self.camera.eye()).dot((self.camera.target - self.camera.eye()).normalize());
        self.drag = Some(Drag { body: i, local: pose.inv_transform_point(p), target: p, depth, turn: Vec3::ZERO });
        self.scene.world.wake(i);
    }

    /// Moves the drag target along the camera ray (o, d).
    pub fn update_drag(&mut self, o: Vec3, d: Vec3) {
        let fwd = (self.camera.target - self.camera.eye()).normalize();
        if let Some(drag) = &mut self.drag {
            let denom = d.dot(fwd);
            if denom.abs() > 1e-6 {
                drag.target = o + d * ((drag.depth - (o - self.camera.eye()).dot(fwd)) / denom);
            }
        }
        if !self.playing {
            // Paused: move the body so the grab point follows the cursor, to set contacts
            // up by hand; the debug views update at once.
            if let Some(drag) = self.drag {
                // Both sides of a comparison: the body moves the same in each.
                for w in std::iter::once(&mut self.scene.world).chain(self.compare.as_mut().map(|c| &mut c.world)) {
                    let h = w.handle(drag.body);
                    if let Some(b) = w.body_mut(h) {
                        let anchor = b.pose.transform_point(drag.local);
                        b.pose.pos += drag.target - anchor;
                        b.velocity = Vec3::ZERO;
                        b.angular_velocity = Vec3::ZERO;
                    }
                }
                self.edited();
            }
        }
    }

    /// Ctrl-drag: turns the held body as the mouse moves `dx`, `dy` pixels — about the
    /// camera's up axis for horizontal motion, about its right axis for vertical. While
    /// paused the body turns at once (an edit); while running the motion sets the spin the
    /// body is held at (0.25 rad/s per pixel per frame), logged with the drag.
    pub fn turn_drag(&mut self, dx: f32, dy: f32) {
        let Some(drag) = self.drag.as_mut() else { return };
        let fwd = (self.camera.target - self.camera.eye()).normalize_or_zero();
        let right = fwd.cross(Vec3::Y).normalize_or_zero();
        let up = right.cross(fwd);
        let rate = up * dx + right * dy;
        if self.playing {
            drag.turn = rate * 0.25;
            return;
        }
        let turn = Quat::from_scaled_axis(rate * 0.01);
        let body = drag.body;
        for w in std::iter::once(&mut self.scene.world).chain(self.compare.as_mut().map(|c| &mut c.world)) {
            let h = w.handle(body);
            if let Some(b) = w.body_mut(h) {
                b.pose.rot = (turn * b.pose.rot).normalize();
                b.angular_velocity = Vec3::ZERO;
            }
        }
        self.edited();
    }

    /// Releases the mouse.
    pub fn end_drag(&mut self) {
        self.drag = None;
        for w in std::iter::once(&mut self.scene.world).chain(self.compare.as_mut().map(|c| &mut c.world)) {
            release_mouse(w);
        }
    }

    /// Picks a body under the ray.
    pub fn pick(&self, o: Vec3, d: Vec3) -> Option<(usize, f32)> {
        picking::pick(&self.scene.world, o, d)
    }

    /// Fits the camera to all bodies (key F).
    pub fn frame_scene(&mut self) {
        let mut b: Option<crate::physics::Aabb> = None;
        for body in self.scene.world.bodies() {
            // Big static grounds would dominate; frame the dynamic bodies when there are any.
            if body.is_dynamic() || self.scene.world.bodies().iter().all(|x| !x.is_dynamic()) {
                let a = body.shape.aabb(&body.pose);
                b = Some(b.map_or(a, |x| x.union(&a)));
            }
        }
        if let Some(b) = b {
            self.camera.frame(&b);
        }
    }

    /// Frame inputs for the renderer: the main view, or side A and side B of a comparison
    /// in the two halves of `main_rect` ([`super::compare::split`]).
    pub fn frame_inputs<'a>(
        &'a mut self,
        size: (u32, u32),
        main_rect: Rect,
        outlines: &'a [Vec<Vec3Pair>],
    ) -> Vec<FrameInput<'a>> {
        self.pair_debug();
        self.pair_debug_b();
        self.joint_cache[0] = self.scene.world.joint_records();
        self.joint_cache[1] = self.compare.as_ref().map(|c| c.world.joint_records()).unwrap_or_default();
        let this: &'a Testbed = self;
        let rects = split(main_rect, this.compare.is_some());
        let pair_a = this.pair_cache.as_ref().filter(|c| Some((c.1, c.2)) == this.selected_pair()).map(|c| &c.3);
        let sides = std::iter::once((&this.scene.world, pair_a))
            .chain(this.compare.as_ref().map(|c| (&c.world, this.pair_debug_b_cached())));
        let dt = this.timestep();
        sides
            .zip(rects)
            .zip(&this.joint_cache)
            .enumerate()
            .map(|(side, (((world, pair), rect), joints))| {
                let selected_joint = this.selected_joint.and_then(|h| joints.iter().position(|r| r.handle == h));
                let drag = this.drag.map(|d| (world.bodies()[d.body].pose.transform_point(d.local), d.target));
                FrameInput {
                    world,
                    colors: &this.scene.colors,
                    camera: &this.camera,
                    overlays: this.overlays,
                    selected: &this.selected,
                    pair,
                    clip_stage: this.clip_stage,
                    drag,
                    inset_rotation: this.inset_rotation,
                    size,
                    main_rect: rect,
                    outlines,
                    joints,
                    selected_joint,
                    dt,
                    look: this.look,
                    selected_character: this.characters.selected,
                    // Side B draws its own last step only.
                    toi: if side == 0 {
                        this.toi_hold.shown(world)
                    } else {
                        Some((world.continuous(), 1.0)).filter(|(r, _)| r.step == world.step_count)
                    },
                }
            })
            .collect()
    }
}

/// Largest force of the drag's mouse joint per kilogram of the held body (N/kg): about
/// 100 g, so the cursor lifts anything the scene holds (Box2D's samples use 1000 × mass).
pub const DRAG_FORCE_PER_KG: f32 = 1000.0;

/// A step's drag input, logged or live, on `world` (both sides of a comparison): the mouse
/// joint follows the drag and Ctrl turns the body; without a drag the mouse joint is gone,
/// so re-simulation releases it at the same step as the live run did.
pub(super) fn apply_drag(world: &mut World, drag: Option<Drag>, dt: f32) {
    match drag {
        Some(d) => {
            drag_mouse(world, d);
            hold_turn(world, d, dt);
        }
        None => release_mouse(world),
    }
}

/// The drag as a mouse joint (`physics::joint::mouse`: a soft 5 Hz spring from the grab
/// point to the cursor's target, its force limited to [`DRAG_FORCE_PER_KG`] × the body's
/// mass): moves the target of the held body's mouse joint, creating the joint on the first
/// step of a drag.
fn drag_mouse(world: &mut World, drag: Drag) {
    let held = world
        .joint_handles()
        .find(|(_, j)| matches!(j.kind, JointKind::Mouse { .. }) && j.b == drag.body as u32)
        .map(|(h, _)| h);
    match held {
        Some(h) => world.move_mouse(h, drag.target),
        None => {
            world.grab(drag.body, drag.local, drag.target, DRAG_FORCE_PER_KG);
        }
    }
}

/// Ctrl-drag while running: turns the dragged body by the drag's `turn` over the step `dt`
/// (a kinematic turn, so contacts and the mouse joint cannot slow it) and holds its spin at
/// zero, so it stops when the mouse does.
fn hold_turn(world: &mut World, drag: Drag, dt: f32) {
    if drag.turn != Vec3::ZERO {
        let h = world.handle(drag.body);
        if let Some(b) = world.body_mut(h) {
            b.pose.rot = (Quat::from_scaled_axis(drag.turn * dt) * b.pose.rot).normalize();
            b.angular_velocity = Vec3::ZERO;
        }
    }
}

/// Removes the drag's mouse joints (the mouse was released).
pub(super) fn release_mouse(world: &mut World) {
    let held: Vec<_> =
        world.joint_handles().filter(|(_, j)| matches!(j.kind, JointKind::Mouse { .. })).map(|(h, _)| h).collect();
    for h in held {
        world.remove_joint(h);
    }
}

/// The camera a scene starts with: its own if it sets one, else [`auto_camera`].
pub fn initial_camera(scene: &LoadedScene) -> Camera {
    match &scene.desc.camera {
        Some(c) => {
            let (e, g) = (c.eye, c.target);
            Camera::look_at(Vec3::new(e.0, e.1, e.2), Vec3::new(g.0, g.1, g.2), c.fov_deg)
        }
        None => auto_camera(scene),
    }
}

/// Seconds of simulation whose body bounds the automatic camera frames.
pub const AUTO_FRAME_SECONDS: f32 = 2.0;

/// A camera that frames the dynamic bodies' bounds over the first [`AUTO_FRAME_SECONDS`]
/// (simulated on a copy of the world; at most about 100 000 body-steps, so a huge scene
/// frames a shorter stretch), seen from the default direction (above, front right). A
/// scene without dynamic bodies frames all of them.
pub fn auto_camera(scene: &LoadedScene) -> Camera {
    let d = crate::scene::format::CameraDesc::default();
    let dir = Vec3::new(d.eye.0 - d.target.0, d.eye.1 - d.target.1, d.eye.2 - d.target.2);
    let mut cam = Camera::look_at(dir, Vec3::ZERO, d.fov_deg);
    let mut world = scene.world.clone();
    let any_dynamic = world.bodies().iter().any(|b| b.is_dynamic());
    let bounds = |w: &World| {
        let mut acc: Option<crate::physics::Aabb> = None;
        for b in w.bodies().iter().filter(|b| b.is_dynamic() || !any_dynamic) {
            let a = b.shape.aabb(&b.pose);
            acc = Some(acc.map_or(a, |x| x.union(&a)));
        }
        acc
    };
    let mut acc = bounds(&world);
    let dt = scene.timestep();
    let n = world.bodies().len().max(1);
    let steps = ((AUTO_FRAME_SECONDS / dt) as usize).min(100_000 / n);
    if any_dynamic {
        for k in 1..=steps {
            world.step(dt);
            if k % 5 == 0 || k == steps {
                if let (Some(a), Some(b)) = (acc, bounds(&world)) {
                    acc = Some(a.union(&b));
                }
            }
        }
    }
    if let Some(b) = acc {
        cam.frame(&b);
    }
    cam
}

/// A segment in body space.
pub type Vec3Pair = (Vec3, Vec3);

#[cfg(test)]
mod tests {
    use super::*;

    fn testbed() -> Testbed {
        let path = scene::scenes_dir().join("single_box_drop.ron");
        Testbed::new(scene::load(&path).unwrap(), Some(path))
    }

    #[test]
    fn dragging_pulls_the_grab_point_to_the_cursor_while_running() {
        let mut t = testbed();
        let i = t.scene.body_index("box").unwrap();
        let p0 = t.world().bodies()[i].pose.pos;
        t.begin_drag(i, p0);
        t.playing = true;
        let goal = p0 + Vec3::new(1.0, 0.5, 0.0);
        t.drag.as_mut().unwrap().target = goal;
        for _ in 0..120 {
            t.step_once();
        }
        let p = t.world().bodies()[i].pose.transform_point(t.drag.unwrap().local);
        assert!((p - goal).length() < 0.05, "grab point {p} vs cursor {goal}");
        t.end_drag();
        assert!(t.drag.is_none());
    }

    #[test]
    fn dragging_while_paused_moves_the_body_directly() {
        let mut t = testbed();
        let i = t.scene.body_index("box").unwrap();
        let p0 = t.world().bodies()[i].pose.pos;
        t.begin_drag(i, p0);
        let cam = t.camera;
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
        t.playing = true;
        let mut steps = 0;
        for _ in 0..300 {
            steps += t.advance(1.0 / 144.0); // a 144 Hz display
        }
        // 300 frames at 144 Hz = 2.083 s = 125 steps of 1/60 s (± one for the remainder).
        assert!((124..=126).contains(&steps), "{steps} steps");
        assert_eq!(t.world().step_count, steps as u64);
    }
}
