//! The running worlds: one [`Side`] per resolution method shown. One side is the ordinary
//! testbed; two to four are a comparison, every side a copy of the same scene stepped in
//! lockstep under its own method and drawn in its own tile of the view through the one camera
//! (1×2 for two sides, 2×2 for three or four, as Solver2D shows its 2D solvers). A tile
//! narrower than the view widens the camera's field to the view's width, and every tile draws
//! its picture below its text ([`SideView`]: the title, stats, the legends that differ from
//! side to side and the selected pair's path, as high as the labels measured the tallest
//! side's; the keys all sides share are written once under the tiles, [`above_key`]) and above
//! its Gauss-map and Minkowski insets, which leave it [`PICTURE_SHARE`] of the tile below the
//! text or are not drawn: each side shows all that one side alone would, smaller, clear of its
//! text and insets, and every side at the same size. Limits: text taller than 0.7 of a tile
//! ([`MAX_TOP`]) still runs over the picture; below that, the picture can be small.
//!
//! Each side owns what belongs to its world alone: the world, its deepest penetration since
//! the start, its cached debug records of the selected pair, the continuous-collision record
//! its ghosts are drawn from ([`ToiHold`]) and its joints as drawn. Every loop over the
//! worlds is one [`Sides::iter`] or [`Sides::iter_mut`].
//!
//! All sides share every setting but the method: before each step, side A's settings (the
//! panel edits side A's) are copied to the others with their own method, so what differs on
//! screen is what the methods do. The selection, and so the watched pair, is the same body
//! pair on every side.
//!
//! Limits: at most [`MAX_SIDES`] sides, the four methods.

use crate::physics::world::JointRecord;
use crate::physics::{ContinuousRecord, Settings, SolverMode, World};
use crate::render::draw::Rect;
use crate::view::PairDebug;

/// Most sides at once: one per method.
pub const MAX_SIDES: usize = 4;

/// The sides' letters, in order.
pub const SIDE_NAMES: [&str; MAX_SIDES] = ["A", "B", "C", "D"];

/// Steps a time of impact's ghosts stay drawn after the step that had it (fading out).
pub const HOLD_STEPS: u64 = 45;

/// The last continuous-collision record that had a time of impact.
///
/// A time of impact lasts one step: while playing at 60 steps a second its ghosts would
/// flash for one frame. The hold keeps the last step that had one, and the view draws it
/// for [`HOLD_STEPS`] more steps, fading; the panel names the step the ghosts belong to.
#[derive(Clone, Debug, Default)]
pub struct ToiHold {
    rec: ContinuousRecord,
}

impl ToiHold {
    /// Keeps the world's record if its step had a time of impact (reusing the buffers).
    pub fn after_step(&mut self, world: &World) {
        if !world.continuous().events.is_empty() {
            self.rec.clone_from(world.continuous());
        }
    }

    /// The record to draw and its opacity: the world's own when its last step had a time of
    /// impact, else the kept one while it is less than [`HOLD_STEPS`] old. Nothing after a
    /// reset or a step back to before it.
    pub fn shown<'a>(&'a self, world: &'a World) -> Option<(&'a ContinuousRecord, f32)> {
        let now = world.step_count;
        if !world.continuous().events.is_empty() && world.continuous().step == now {
            return Some((world.continuous(), 1.0));
        }
        let age = now.checked_sub(self.rec.step)?;
        (!self.rec.events.is_empty() && age < HOLD_STEPS).then(|| (&self.rec, 1.0 - age as f32 / HOLD_STEPS as f32))
    }
}

/// The debug records of one pair, gathered at one edit count.
#[derive(Clone, Debug)]
struct PairCache {
    edits: u64,
    pair: (usize, usize),
    records: PairDebug,
}

/// One running world and what belongs to it alone.
#[derive(Clone, Debug)]
pub struct Side {
    /// The world, under its own method (`world.settings.mode`).
    pub world: World,
    /// Deepest penetration of any contact point over all steps since the scene was loaded,
    /// reset or this side started (m); the stats' "this step" value is the world's own.
    pub max_penetration_run: f32,
    pair: Option<PairCache>,
    toi_hold: ToiHold,
    joints: Vec<JointRecord>,
}

impl Side {
    /// A side running `world`.
    pub fn new(world: World) -> Side {
        Side { world, max_penetration_run: 0.0, pair: None, toi_hold: ToiHold::default(), joints: Vec::new() }
    }

    /// The side's method.
    pub fn mode(&self) -> SolverMode {
        self.world.settings.mode
    }

    /// Debug records of `pair` at the current poses, gathered again when the edit count
    /// `edits` moved on or the pair changed.
    pub fn pair_debug(&mut self, edits: u64, pair: (usize, usize)) -> &PairDebug {
        let fresh = self.pair.as_ref().is_some_and(|c| c.edits == edits && c.pair == pair);
        if !fresh {
            self.pair = Some(PairCache { edits, pair, records: PairDebug::gather(&self.world, pair.0, pair.1) });
        }
        &self.pair.as_ref().expect("just gathered").records
    }

    /// The records of `pair` as last gathered, if any (for drawing and labels).
    pub fn pair_debug_cached(&self, pair: Option<(usize, usize)>) -> Option<&PairDebug> {
        let pair = pair?;
        self.pair.as_ref().filter(|c| c.pair == pair).map(|c| &c.records)
    }

    /// The continuous-collision record whose ghosts are drawn, and their opacity.
    pub fn toi_shown(&self) -> Option<(&ContinuousRecord, f32)> {
        self.toi_hold.shown(&self.world)
    }

    /// The joints as last drawn ([`Sides::refresh_joints`]).
    pub fn joints(&self) -> &[JointRecord] {
        &self.joints
    }

    /// Forgets everything derived from the world (a new state was put in).
    fn forget(&mut self) {
        self.pair = None;
        self.toi_hold = ToiHold::default();
    }
}

/// The running worlds, side A first (never empty).
#[derive(Clone, Debug)]
pub struct Sides {
    list: Vec<Side>,
}

impl Sides {
    /// One side running `world`.
    pub fn new(world: World) -> Sides {
        Sides { list: vec![Side::new(world)] }
    }

    /// Side A: the one the panel's settings edit.
    pub fn main(&self) -> &Side {
        &self.list[0]
    }

    /// Side A, mutable.
    pub fn main_mut(&mut self) -> &mut Side {
        &mut self.list[0]
    }

    /// Side `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<&Side> {
        self.list.get(k)
    }

    /// Side `k`, mutable.
    pub fn get_mut(&mut self, k: usize) -> Option<&mut Side> {
        self.list.get_mut(k)
    }

    /// Every side, A first.
    pub fn iter(&self) -> std::slice::Iter<'_, Side> {
        self.list.iter()
    }

    /// Every side, mutable.
    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, Side> {
        self.list.iter_mut()
    }

    /// Every side's world.
    pub fn worlds(&self) -> impl Iterator<Item = &World> + Clone {
        self.list.iter().map(|s| &s.world)
    }

    /// How many sides run.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Never: there is always side A (for clippy's `len` without `is_empty`).
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether two or more methods run side by side.
    pub fn comparing(&self) -> bool {
        self.list.len() > 1
    }

    /// Each side's method, A first.
    pub fn modes(&self) -> Vec<SolverMode> {
        self.list.iter().map(Side::mode).collect()
    }

    /// Runs the methods `modes` (one to [`MAX_SIDES`], side A first): a side whose method
    /// stays keeps running; a new one starts as a copy of side A's current state. Returns
    /// whether the list of sides changed.
    pub fn set_modes(&mut self, modes: &[SolverMode]) -> bool {
        let modes = &modes[..modes.len().min(MAX_SIDES)];
        if modes.is_empty() || self.modes() == modes {
            return false;
        }
        let template = self.list[0].world.clone();
        let mut old: Vec<Option<Side>> = std::mem::take(&mut self.list).into_iter().map(Some).collect();
        for &m in modes {
            let kept = old.iter_mut().find(|s| s.as_ref().is_some_and(|s| s.mode() == m)).and_then(Option::take);
            let side = kept.unwrap_or_else(|| {
                let mut w = template.clone();
                w.settings.mode = m;
                Side::new(w)
            });
            self.list.push(side);
        }
        true
    }

    /// Puts every side back to `start` under its own method, keeping side A's live settings.
    pub fn restart(&mut self, start: &World) {
        let settings = self.list[0].world.settings;
        for side in &mut self.list {
            let mode = side.mode();
            *side = Side::new(start.clone());
            side.world.settings = Settings { mode, ..settings };
        }
    }

    /// Replaces the worlds (states from the history, one per side, in order).
    pub fn put_worlds(&mut self, worlds: Vec<World>) {
        for (side, w) in self.list.iter_mut().zip(worlds) {
            side.world = w;
            side.pair = None;
        }
    }

    /// Forgets every side's cached records and held ghosts (a replay frame was put in).
    pub fn forget(&mut self) {
        self.list.iter_mut().for_each(Side::forget);
    }

    /// Watches `pair` on every side, so each step records what it did for that pair (set
    /// again only when it changes).
    pub fn watch(&mut self, pair: Option<(usize, usize)>) {
        let want = pair.map(|(a, b)| (a as u32, b as u32));
        for side in &mut self.list {
            let w = &mut side.world;
            let have = w.watched().first().map(|r| (r.a, r.b));
            if want != have || w.watched().len() > 1 {
                w.set_watched(want.as_slice());
            }
        }
    }

    /// One step of every side in lockstep: side A's settings with each side's own method,
    /// `input` applied to each world first (the mouse drag), non-finite states logged.
    pub fn step(&mut self, dt: f32, record_convergence: bool, mut input: impl FnMut(&mut World)) {
        let settings = self.list[0].world.settings;
        let named = self.comparing();
        for (k, side) in self.list.iter_mut().enumerate() {
            let w = &mut side.world;
            w.settings = Settings { mode: w.settings.mode, ..settings };
            input(w);
            w.record_convergence = record_convergence;
            let label = if named { SIDE_NAMES[k] } else { "" };
            crate::trace::step_logging_non_finite(w, dt, label);
            side.toi_hold.after_step(w);
            side.max_penetration_run = side.max_penetration_run.max(w.stats().max_penetration);
        }
    }

    /// Wakes every dynamic body on every side.
    pub fn wake_all(&mut self) {
        for side in &mut self.list {
            wake_all(&mut side.world);
        }
    }

    /// Gathers each side's joints for drawing and labels.
    pub fn refresh_joints(&mut self) {
        for side in &mut self.list {
            side.joints = side.world.joint_records();
        }
    }

    /// Gathers each side's records of `pair` (cached until `edits` moves on).
    pub fn refresh_pair(&mut self, edits: u64, pair: Option<(usize, usize)>) {
        if let Some(p) = pair {
            for side in &mut self.list {
                side.pair_debug(edits, p);
            }
        }
    }
}

/// `FILE.jsonl` → `FILE.<side>.jsonl` (the extension kept, `jsonl` if there is none).
pub fn side_path(path: &std::path::Path, side: &str) -> std::path::PathBuf {
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = path.extension().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "jsonl".into());
    path.with_file_name(format!("{stem}.{side}.{ext}"))
}

/// The side letter of side `k` of a comparison in file names: `a`, `b`, `c`, `d`.
pub fn side_letter(k: usize) -> String {
    SIDE_NAMES[k.min(MAX_SIDES - 1)].to_lowercase()
}

/// Wakes every dynamic body of `w`.
fn wake_all(w: &mut World) {
    for i in 0..w.bodies().len() {
        if w.bodies()[i].is_dynamic() {
            w.wake(i);
        }
    }
}

/// Height (egui points) a comparison's tile keeps clear at its top before its labels have
/// measured their text (title, stats and a line): [`crate::app::view_state::ViewState::header`]
/// until the first labels pass.
pub const TILE_HEADER: f32 = 80.0;

/// The largest fraction of a comparison's tile its text keeps clear at the top: a tile with
/// more text draws its picture under the last lines rather than smaller still. Five lines
/// of text (a selected pair's path, wrapped stats and the insets' "no room" line) take 0.59
/// of a 2 × 2 tile of an 800 × 450 view, above the key.
pub const MAX_TOP: f32 = 0.7;

/// The camera a comparison's tile of aspect `tile` (width ÷ height) draws with, in a view of
/// aspect `main`: the shared camera with its vertical field widened when the tile is the
/// narrower, so that each tile shows the whole view's horizontal field, and the picture
/// kept between the fractions `(top, bottom)` of the tile (its text, at most [`MAX_TOP`];
/// its insets, which leave it [`PICTURE_SHARE`] of the rest). Two sides side by side then each show
/// all that one side alone shows, smaller, not its middle half (a row of bodies across the
/// view stays whole in both), and a small tile of a 2 × 2 grid keeps its bodies out from
/// under its text. `bands` is None for a view of its own (but a clip stage's picture), which
/// keeps the camera.
pub fn tile_camera(
    camera: &crate::view::Camera,
    main: f32,
    tile: f32,
    bands: Option<(f32, f32)>,
) -> crate::view::Camera {
    let mut c = *camera;
    let Some((top, bottom)) = bands else { return c };
    if tile > 0.0 && tile < main {
        c.fov_y = 2.0 * ((camera.fov_y * 0.5).tan() * main / tile).atan();
    }
    c.top = top.clamp(0.0, MAX_TOP);
    // The insets leave the picture its share of what the text leaves.
    c.bottom = bottom.clamp(0.0, (1.0 - c.top) * (1.0 - PICTURE_SHARE));
    c
}

/// How a side's tile is drawn ([`crate::app::view_state::ViewState::side_view`]): one value
/// for the renderer, the labels and the window's clicks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SideView {
    /// The tile's camera ([`tile_camera`]; the shared camera for a view of its own).
    pub camera: crate::view::Camera,
    /// Its lines' and dots' widths as a fraction of their own ([`mark_scale`]).
    pub marks: f32,
    /// Pixels at the top of the tile its text takes ([`text_height`]).
    pub above: f32,
    /// Pixels of picture the tile keeps between its text and its insets ([`text_room`]).
    pub keep: f32,
}

/// The least share of a comparison's tile below its text that its picture keeps: the insets
/// take at most the rest, with smaller figures, or are not drawn (and the tile says so). A
/// 2 × 2 tile at 1200 × 675 then has no room for them; at 1600 × 900 it has.
pub const PICTURE_SHARE: f32 = 0.45;

/// Pixels at the top of tile `tile` its text takes ([`text_height`], the text `header` points
/// high at `ppp` pixels a point), and pixels of picture it keeps between that text and its
/// insets when `sides` sides are shown: [`PICTURE_SHARE`] of what the text leaves in a
/// comparison; none in a view of its own, whose insets lie over the picture's lower corners.
pub fn text_room(tile: Rect, sides: usize, ppp: f32, header: f32) -> (f32, f32) {
    let above = text_height(tile, ppp, header);
    (above, if sides > 1 { PICTURE_SHARE * (tile.h - above).max(0.0) } else { 0.0 })
}

/// Pixels at the top of tile `tile` (the whole view for one side) that its text takes, the
/// text `header` points high at `ppp` pixels a point: the insets stay below it
/// ([`crate::render::insets::inset_layout`]). At most [`MAX_TOP`] of the tile, as its camera
/// keeps.
pub fn text_height(tile: Rect, ppp: f32, header: f32) -> f32 {
    (header * ppp).min(MAX_TOP * tile.h)
}

/// How much thinner than in a view of its own the lines and smaller the dots of tile `tile`
/// of the view `main` are drawn, through `camera` ([`tile_camera`]; 1 for a view of its
/// own): the square root of the scale its picture has, the tile's share of the view's
/// width less the text kept clear above it and the insets below. Marks shrink less than the
/// bodies they mark, so they stay legible, but a stack in a 2 × 2 tile is not buried under
/// its contact dots.
pub fn mark_scale(main: Rect, tile: Rect, camera: &crate::view::Camera) -> f32 {
    (tile.w / main.w.max(1.0) * (1.0 - camera.top - camera.bottom)).clamp(0.0, 1.0).sqrt()
}

/// What the tiles of a comparison of `sides` sides share of the view `main`: all of it but a
/// band `key` high (pixels) at its foot, where the comparison's key is written once for every
/// side, rounded up to whole pixels; all of it for a view of its own.
pub fn above_key(main: Rect, sides: usize, key: f32) -> Rect {
    let key = if sides > 1 { key.max(0.0).ceil().min(main.h) } else { 0.0 };
    Rect { h: main.h - key, ..main }
}

/// The tiles of `main` for `n` sides, A first: `main` itself for one side, its halves for
/// two (A left), a 2×2 grid for three or four (A top left, B top right, C bottom left; a
/// third side leaves the bottom right tile empty). Tile edges are whole pixels.
pub fn tiles(main: Rect, n: usize) -> Vec<Rect> {
    let (cols, rows) = match n {
        0 | 1 => return vec![main],
        2 => (2, 1),
        _ => (2, 2),
    };
    let xs = [main.x, main.x + (main.w * 0.5).floor(), main.x + main.w];
    let ys: Vec<f32> = if rows == 1 {
        vec![main.y, main.y + main.h]
    } else {
        vec![main.y, main.y + (main.h * 0.5).floor(), main.y + main.h]
    };
    (0..n.min(cols * rows))
        .map(|k| {
            let (c, r) = (k % cols, k / cols);
            Rect { x: xs[c], y: ys[r], w: xs[c + 1] - xs[c], h: ys[r + 1] - ys[r] }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side-by-side tile shows the whole view's horizontal field: every point lands at the
    /// same horizontal place (as a fraction of the width) as in the whole view, and its
    /// height from the centre shrinks by the ratio of the aspects. A 2 × 2 tile, as wide for
    /// its height as the view, keeps the camera.
    #[test]
    fn a_narrow_tile_keeps_the_whole_views_horizontal_field() {
        let cam = crate::view::Camera::look_at(glam::Vec3::new(6.0, 4.0, 9.0), glam::Vec3::new(0.0, 1.0, 0.0), 45.0);
        let main = Rect { x: 0.0, y: 0.0, w: 1200.0, h: 675.0 };
        let aspect = |r: &Rect| r.w / r.h;
        let [a, _] = tiles(main, 2)[..] else { panic!("two tiles") };
        let mut tile = tile_camera(&cam, aspect(&main), aspect(&a), Some((TILE_HEADER / a.h, 0.0)));
        tile.top = 0.0;
        let (full, narrow) = (cam.view_proj(aspect(&main)), tile.view_proj(aspect(&a)));
        for k in 0..50 {
            let f = k as f32;
            let p = glam::Vec3::new((f * 1.7).sin() * 6.0, (f * 0.9).cos() * 3.0 + 1.0, (f * 2.3).sin() * 5.0);
            let (q, r) = (full.project_point3(p), narrow.project_point3(p));
            assert!((q.x - r.x).abs() < 1e-4, "{p}: x {} in the view, {} in the tile", q.x, r.x);
            assert!((q.y * aspect(&a) / aspect(&main) - r.y).abs() < 1e-4, "{p}: y {} and {}", q.y, r.y);
        }
        let [c, ..] = tiles(main, 4)[..] else { panic!("four tiles") };
        assert!((tile_camera(&cam, aspect(&main), aspect(&c), Some((0.2, 0.0))).fov_y - cam.fov_y).abs() < 1e-3);
        assert_eq!(tile_camera(&cam, aspect(&main), aspect(&main), None), cam, "a view of its own");
    }

    /// A tile's picture keeps clear of its header: the same picture, shrunk by 1 − top and
    /// moved down, its top edge at the header's foot and its bottom edge where it was.
    #[test]
    fn a_tile_draws_below_its_header() {
        let cam = crate::view::Camera::look_at(glam::Vec3::new(6.0, 4.0, 9.0), glam::Vec3::new(0.0, 1.0, 0.0), 45.0);
        let top = TILE_HEADER / 320.0;
        let tile = tile_camera(&cam, 1.78, 1.78, Some((top, 0.0)));
        assert!((tile.top - top).abs() < 1e-6);
        let (a, b) = (cam.view_proj(1.78), tile.view_proj(1.78));
        for k in 0..40 {
            let f = k as f32;
            let p = glam::Vec3::new((f * 1.3).sin() * 4.0, (f * 0.7).cos() * 2.0 + 1.0, (f * 2.1).sin() * 3.0);
            let (q, r) = (a.project_point3(p), b.project_point3(p));
            assert!((r.x - q.x * (1.0 - top)).abs() < 1e-4 && (r.y - (q.y * (1.0 - top) - top)).abs() < 1e-4);
            assert!((r.z - q.z).abs() < 1e-6, "depth unchanged");
        }
        // The ray through a pixel meets the point drawn there.
        let p = glam::Vec3::new(0.5, 1.5, -0.5);
        let q = b.project_point3(p);
        let (o, d) = tile.ray((q.x, q.y), 1.78);
        assert!((p - o).cross(d).length() < 1e-3);
    }

    #[test]
    fn tiles_cover_the_view_without_overlap() {
        let main = Rect { x: 10.0, y: 20.0, w: 801.0, h: 601.0 };
        for n in 1..=4 {
            let t = tiles(main, n);
            assert_eq!(t.len(), n);
            let area: f32 = t.iter().map(|r| r.w * r.h).sum();
            let full = if n == 3 { main.w * main.h - t[1].w * t[2].h } else { main.w * main.h };
            assert!((area - full).abs() < 1e-3, "{n} sides: tiles cover {area} of {full}");
            for (i, a) in t.iter().enumerate() {
                for b in &t[i + 1..] {
                    let ox = (a.x + a.w).min(b.x + b.w) - a.x.max(b.x);
                    let oy = (a.y + a.h).min(b.y + b.h) - a.y.max(b.y);
                    assert!(ox <= 0.0 || oy <= 0.0, "{n} sides: {a:?} overlaps {b:?}");
                }
            }
        }
    }
}
