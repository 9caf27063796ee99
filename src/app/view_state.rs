//! How the scene is looked at: the camera (and the scene's own, which a reset restores), the
//! insets' rotation, the overlays drawn, the look (theme, background, teaching labels), the
//! 3D view's rectangle and scale, the height of the text over it (which a comparison's tiles
//! and the insets keep clear), the help overlay and the frame time. Nothing here changes a
//! world.

use super::sides::TILE_HEADER;
use crate::physics::{Aabb, SolverMode, World};
use crate::render::draw::Rect;
use crate::scene::LoadedScene;
use crate::view::{Camera, Figure, Insets, Look, Overlays};
use glam::Vec3;

/// What a comparison's key band and the text over its tiles were laid out for
/// ([`ViewState::key_layout`]); another of any of these is another picture, laid out afresh.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KeyLayout {
    /// Each side's method (up to four sides; a method that colours its graph has a legend).
    pub methods: [Option<SolverMode>; 4],
    /// The overlays drawn.
    pub overlays: Overlays,
    /// The selected pair.
    pub pair: Option<(usize, usize)>,
    /// The view's size in pixels, and pixels per point.
    pub size: [f32; 3],
    /// The figure shown alone, and the clip stage shown.
    pub figure: (Option<Figure>, Option<usize>),
}

/// The view (module docs).
#[derive(Clone, Debug)]
pub struct ViewState {
    /// Main camera (every side's tile looks through it).
    pub camera: Camera,
    /// The scene's initial camera (its own, or the automatic framing), restored by reset.
    pub initial_camera: Camera,
    /// The insets' rotations and the figure enlarged to the whole view.
    pub insets: Insets,
    /// The overlays drawn.
    pub overlays: Overlays,
    /// Theme and background of the view and screenshots.
    pub look: Look,
    /// The 3D view's rectangle in the last frame (egui points), for input and tests.
    pub rect: egui::Rect,
    /// The help overlay (F1) is open.
    pub show_help: bool,
    /// Last frame time (ms).
    pub frame_ms: f32,
    /// Physical pixels per egui point of the last frame (the window's scale, a screenshot's
    /// `--scale`): a comparison's tiles keep their text's height clear in points.
    pub ppp: f32,
    /// Height (egui points) of the tallest side's text at the top of its tile in the last
    /// labels pass ([`crate::app::labels::paint`]): every tile of a comparison draws its
    /// picture below it ([`ViewState::side_view`]). Like the key's band, it keeps the
    /// largest height it has had while [`ViewState::key_layout`] stays.
    pub header: f32,
    /// Height (egui points) of a comparison's key, drawn once under its tiles for every side
    /// in the last labels pass ([`crate::app::labels::paint`]); 0 for a view of its own. The
    /// tiles share what is above it ([`ViewState::tiles`]).
    pub footer: f32,
    /// What the key's band was last laid out for (the sides' methods, overlays, selected
    /// pair, the view's size, the figure alone and the clip stage; none after another scene is
    /// loaded): while it stays, the band and the text over the tiles
    /// ([`ViewState::header`]) keep the largest heights they have had.
    pub key_layout: Option<KeyLayout>,
    /// The step whose start the picture shows, where that is not the world's count of steps
    /// taken (a worked example draws the bodies before the step it explains): the titles
    /// say "start of step N" ([`crate::app::labels`]).
    pub start_of: Option<u64>,
}

impl Default for ViewState {
    fn default() -> Self {
        let camera = Camera::look_at(Vec3::ZERO, Vec3::ZERO, 45.0);
        ViewState {
            camera,
            initial_camera: camera,
            insets: Insets::default(),
            overlays: Overlays::default(),
            look: Look::default(),
            rect: egui::Rect::NOTHING,
            show_help: false,
            frame_ms: 0.0,
            ppp: 1.0,
            header: TILE_HEADER,
            footer: 0.0,
            key_layout: None,
            start_of: None,
        }
    }
}

impl ViewState {
    /// The tiles of the view `main` (pixels, `ppp` to a point) for `sides` sides
    /// ([`super::sides::tiles`]), above a comparison's key ([`ViewState::footer`]).
    pub fn tiles(&self, main: Rect, sides: usize, ppp: f32) -> Vec<Rect> {
        super::sides::tiles(super::sides::above_key(main, sides, self.footer * ppp), sides)
    }

    /// The insets of tile `tile` (pixels, `ppp` to a point; the whole view for one side) of
    /// a view showing `sides` sides, for the selected pair's records `pair` there: below the
    /// tile's text ([`crate::render::insets::inset_layout`]).
    pub fn insets(
        &self,
        tile: Rect,
        sides: usize,
        pair: Option<&crate::view::PairDebug>,
        ppp: f32,
    ) -> [crate::render::insets::Inset; 2] {
        self.insets_under(tile, sides, pair, ppp, self.header)
    }

    /// [`ViewState::insets`] under a text `header` points high.
    pub fn insets_under(
        &self,
        tile: Rect,
        sides: usize,
        pair: Option<&crate::view::PairDebug>,
        ppp: f32,
        header: f32,
    ) -> [crate::render::insets::Inset; 2] {
        self.insets_in(tile, pair, ppp, super::sides::text_room(tile, sides, ppp, header))
    }

    /// The insets of tile `tile` under `room`: its text's height and its picture's share
    /// ([`super::sides::text_room`]).
    fn insets_in(
        &self,
        tile: Rect,
        pair: Option<&crate::view::PairDebug>,
        ppp: f32,
        room: (f32, f32),
    ) -> [crate::render::insets::Inset; 2] {
        crate::render::insets::inset_layout(tile, &self.overlays, self.insets.solo, pair, ppp, room)
    }

    /// How tile `tile` of the view `main` is drawn when `sides` sides are shown (pixels,
    /// `ppp` to a point), for the selected pair's records `pair` there, under a text `header`
    /// points high. A comparison's tile keeps its picture below its text and above the
    /// insets drawn at its foot, which leave it [`super::sides::PICTURE_SHARE`] of the tile
    /// below the text (side by side, the two insets cover most of a tile's width); a view of
    /// its own keeps the camera, its insets over the picture's corners, but for a clip
    /// stage's picture, which keeps its text clear as a tile does.
    pub fn side_view(
        &self,
        main: Rect,
        tile: Rect,
        sides: usize,
        pair: Option<&crate::view::PairDebug>,
        ppp: f32,
        header: f32,
    ) -> super::sides::SideView {
        use super::sides::{mark_scale, text_room, tile_camera, SideView};
        use crate::render::insets::has_figure;
        use crate::view::Figure;
        let room @ (above, keep) = text_room(tile, sides, ppp, header);
        let below = match (sides > 1, pair) {
            (true, Some(p)) => self
                .insets_in(tile, pair, ppp, room)
                .iter()
                .zip([Figure::Gauss, Figure::Minkowski])
                .filter(|(i, f)| i.shown && i.rect.h < tile.h && has_figure(p, *f))
                .map(|(i, _)| tile.y + tile.h - i.rect.y)
                .fold(0.0, f32::max),
            _ => 0.0,
        };
        let (aspect, h) = (|r: &Rect| r.w / r.h.max(1.0), tile.h.max(1.0));
        // A clip stage's picture is framed on the two faces (`Testbed::frame_clip`), so the
        // faces it is about would lie under its caption and keys: it keeps them clear too.
        let clip_alone = self.insets.solo == Some(Figure::Clip) && pair.is_some();
        let bands = (sides > 1 || clip_alone).then(|| (header * ppp / h, below / h));
        let camera = tile_camera(&self.camera, aspect(&main), aspect(&tile), bands);
        // A view of its own keeps its lines and dots whole (a clip stage's picture too).
        let marks = if sides > 1 { mark_scale(main, tile, &camera) } else { 1.0 };
        SideView { camera, marks, above, keep }
    }

    /// Fits the camera to the selected pair `(a, b)` of `world` (key F with a pair
    /// selected) in a view of width / height `aspect`: both bodies, except that a static body more than four times the other's
    /// size (the ground under a box) gives only the part near the other body.
    pub fn frame_pair(&mut self, world: &World, (a, b): (usize, usize), aspect: f32) {
        let bounds = |i: usize| world.bodies().get(i).map(|x| (x.shape.aabb(&x.pose), x.is_dynamic()));
        let (Some((ba, da)), Some((bb, db))) = (bounds(a), bounds(b)) else { return };
        let framed = if !da && size(&ba) > 4.0 * size(&bb) {
            near_part(&ba, &bb)
        } else if !db && size(&bb) > 4.0 * size(&ba) {
            near_part(&bb, &ba)
        } else {
            ba.union(&bb)
        };
        self.camera.frame_in(&framed, aspect);
    }

    /// Fits the camera to the bodies of `world` (key F) in a view of width / height
    /// `aspect`: the dynamic ones, or all of them when none is dynamic (a big static ground
    /// would dominate).
    pub fn frame_world(&mut self, world: &World, aspect: f32) {
        let mut b: Option<crate::physics::Aabb> = None;
        let any_dynamic = world.bodies().iter().any(|x| x.is_dynamic());
        for body in world.bodies() {
            if body.is_dynamic() || !any_dynamic {
                let a = body.shape.aabb(&body.pose);
                b = Some(b.map_or(a, |x| x.union(&a)));
            }
        }
        if let Some(b) = b {
            self.camera.frame_in(&b, aspect);
        }
    }
}

/// The diagonal of box `b`.
pub(crate) fn size(b: &Aabb) -> f32 {
    (b.max - b.min).length()
}

/// `small` with the part of `big` near it: `big` cut to `small` grown by half its size (the
/// ground under a box, framed near the box).
pub(crate) fn near_part(big: &Aabb, small: &Aabb) -> Aabb {
    let grow = Vec3::splat(0.5 * size(small));
    let lo = (small.min - grow).max(big.min);
    let hi = (small.max + grow).min(big.max);
    small.union(&Aabb::new(lo.min(hi), hi.max(lo)))
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

/// A camera that frames the dynamic bodies' bounds and the joints' anchors over the first
/// [`AUTO_FRAME_SECONDS`] (with room above for the picture's title)
/// (simulated on a copy of the world; at most about 100 000 body-steps, so a huge scene
/// frames a shorter stretch), seen from the default direction (above, front right). A
/// scene without dynamic bodies frames all of them. The copy runs the scene's own method,
/// whatever `--solver` or `--compare` chose: every method is seen in the frame the scene
/// was written for (a naive stack that scatters its boxes off the ground would otherwise
/// frame their fall, the stack a speck at the top of each tile of a comparison).
pub fn auto_camera(scene: &LoadedScene) -> Camera {
    let d = crate::scene::format::CameraDesc::default();
    let dir = Vec3::new(d.eye.0 - d.target.0, d.eye.1 - d.target.1, d.eye.2 - d.target.2);
    let mut cam = Camera::look_at(dir, Vec3::ZERO, d.fov_deg);
    let mut world = scene.world.clone();
    world.settings.mode = scene.desc.solver.mode;
    let any_dynamic = world.bodies().iter().any(|b| b.is_dynamic());
    let bounds = |w: &World| {
        let mut acc: Option<crate::physics::Aabb> = None;
        for b in w.bodies().iter().filter(|b| b.is_dynamic() || !any_dynamic) {
            let a = b.shape.aabb(&b.pose);
            acc = Some(acc.map_or(a, |x| x.union(&a)));
        }
        // The joints' anchors: a pendulum's pivot, a cradle's frame, a pulley's wheels.
        for j in w.joint_records().iter().filter(|j| j.kind != "mouse") {
            for p in [j.anchor_a, j.anchor_b] {
                let a = crate::physics::Aabb::new(p - Vec3::splat(0.05), p + Vec3::splat(0.05));
                acc = Some(acc.map_or(a, |x| x.union(&a)));
            }
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
    if let Some(mut b) = acc {
        // Room above for the title lines: the bounds reach a sixth higher.
        b.max.y += (b.max.y - b.min.y).max(0.2) / 6.0;
        cam.frame(&b);
    }
    cam
}
