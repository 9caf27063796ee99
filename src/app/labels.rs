//! Text drawn over the 3D view by egui, in the window and in headless screenshots alike:
//! the scene title and step, the stats of a comparison's sides, the selected pair's path,
//! the clip stage's caption, the keys of the time-of-impact ghosts, the joints' drawing and
//! the solver-graph overlay, the titles and legends of the inset views (fixed text), and
//! the labels anchored to the picture — contact points' impulses, faces, clip planes,
//! Gauss-map points, joints' forces — which one placement pass
//! ([`super::label_layout`]) keeps clear of each other, of the fixed text, of the contact
//! markers and of the insets (but for their own labels). A contact point hidden behind a
//! body (its dot not drawn, by the same test, as a ray cast) is labelled "· behind".
//!
//! A comparison writes the joints' and the overlays' keys once, under its tiles, for every side
//! (`key_strip.rs`); the tiles share what it leaves
//! ([`crate::app::view_state::ViewState::tiles`]). Then the text at the top of each view is
//! laid out (`header.rs`): its height, the tallest side's, is what a comparison's tiles and the
//! insets keep clear (and what decides whether the insets have room, for every side alike), so
//! the labels run before the renderer draws (the window's frame, headless pictures and SVG
//! alike) and refresh the records they read themselves. Limits: text taller than 0.7 of a tile
//! still runs over its picture.

mod graph_legend;
mod header;
mod insets;
mod key_strip;

use super::label_layout::{self, Label, Layout, Priority};
use super::sides::{above_key, SideView, SIDE_NAMES};
use super::testbed::Testbed;
use super::view_state::KeyLayout;
use crate::physics::World;
use crate::render::draw::Rect;
use crate::render::insets::{inset_layout, Inset};
use crate::scene::format::Overlay;
use crate::view::colors;
use crate::view::LabelLayer;
use crate::view::PairDebug;
use egui::{Align2, Color32, FontId, Pos2};
use header::{header, no_room};
pub use insets::empty_inset_reason;
use insets::inset_titles;

/// Text colour for a plate of colour `plate`: near-black or white, whichever contrasts more
/// (WCAG relative luminance; the plates of named faces are bright orange or cyan).
fn ink_for(plate: Color32) -> Color32 {
    let lin = crate::render::svg::linear;
    let l = 0.2126 * lin(plate.r()) + 0.7152 * lin(plate.g()) + 0.0722 * lin(plate.b());
    // Contrast with white (1.05 / (l + 0.05)) against with near-black (≈ (l + 0.05) / 0.06).
    if 1.05 / (l + 0.05) >= (l + 0.05) / 0.062 {
        Color32::WHITE
    } else {
        Color32::from_rgb(20, 22, 30)
    }
}

fn c32(c: [f32; 3]) -> Color32 {
    let [r, g, b] = crate::render::svg::srgb(c);
    Color32::from_rgb(r, g, b)
}

/// Paints the labels for a main view occupying `main` (physical pixels): one set per side of a
/// comparison, in its tile ([`crate::app::view_state::ViewState::tiles`]), each with its own
/// method, stats and pair labels, and a line between the tiles. Each side's text at the top of
/// its tile is laid out first; the tallest side's height is kept in
/// [`crate::app::view_state::ViewState::header`], and every tile of a comparison draws its
/// picture below it, so that all show the scene at one size (the camera the anchored labels,
/// the renderer and the window's clicks all use:
/// [`crate::app::view_state::ViewState::side_view`]). Returns each side's layout of the
/// anchored labels (for tests).
pub fn paint(ui: &mut egui::Ui, t: &mut Testbed, main: Rect) -> Vec<Layout> {
    t.refresh_records();
    // A comparison's key goes once under its tiles, which share what it leaves. Its band
    // keeps the largest height it has had while the comparison, its overlays, the selected
    // pair and the view's size stay the same ([`KeyLayout`]): a row that comes and goes with
    // the contacts does not move every tile's picture.
    let rows = if t.sides.len() > 1 { key_strip::merged_rows(t) } else { Vec::new() };
    let needed = key_strip::height(ui, t, main, &rows);
    // The text over the tiles keeps its height the same way: a line that comes and goes
    // (the selected pair's path, the ghosts' key) does not move the pictures under it.
    let mut methods = [None; 4];
    for (m, side) in methods.iter_mut().zip(t.sides.iter()) {
        *m = Some(side.world.settings.mode);
    }
    let layout = KeyLayout {
        methods,
        overlays: t.view.overlays,
        pair: t.selected_pair(),
        size: [main.w, main.h, ui.ctx().pixels_per_point()],
        figure: (t.view.insets.solo, t.selection.clip_stage),
    };
    let same = t.view.key_layout == Some(layout);
    let band = if same { needed.max(t.view.footer) } else { needed };
    key_strip::paint(ui, t, main, &rows, band);
    (t.view.footer, t.view.key_layout) = (band, Some(layout));
    let (layouts, header) = paint_sides(ui, t, main, if same { t.view.header } else { 0.0 });
    t.view.header = header;
    layouts
}

/// Paints every side's labels in its tile; the tiles' pictures lie below the tallest side's
/// text, and at least `kept` points down (the height kept from earlier frames). Returns the
/// layouts and that height.
fn paint_sides(ui: &mut egui::Ui, t: &Testbed, main: Rect, kept: f32) -> (Vec<Layout>, f32) {
    let rects = t.view.tiles(main, t.sides.len(), ui.ctx().pixels_per_point());
    let grid = above_key(main, t.sides.len(), t.view.footer * ui.ctx().pixels_per_point());
    let comparing = rects.len() > 1;
    let pair = t.selected_pair();
    let mut scribes = Vec::new();
    for (k, (side, rect)) in t.sides.iter().zip(&rects).enumerate() {
        let mut scribe = Scribe::new(ui, t, *rect);
        let name = comparing.then_some(SIDE_NAMES[k]);
        let own = self::header(&mut scribe, t, side, side.pair_debug_cached(pair), name, *rect);
        scribes.push((scribe, own));
    }
    // Whether the insets have room is judged under the tallest text (or the height kept), as
    // every tile is drawn.
    let tallest = scribes.iter().map(|(_, own)| *own).fold(kept, f32::max);
    let mut header = kept;
    for ((side, rect), (scribe, own)) in t.sides.iter().zip(&rects).zip(&mut scribes) {
        let pd = side.pair_debug_cached(pair).filter(|_| pair.is_some());
        header = header.max(no_room(scribe, t, pd, *rect, *own, tallest));
    }
    let scribes = scribes.into_iter().map(|(s, _)| s);
    let mut layouts = Vec::new();
    for ((side, rect), mut scribe) in t.sides.iter().zip(&rects).zip(scribes) {
        let pd = side.pair_debug_cached(pair);
        scribe.view = t.view.side_view(main, *rect, rects.len(), pd, scribe.ppp, header);
        if let Some(pd) = pd.filter(|_| pair.is_some()) {
            pair_labels(&mut scribe, t, &side.world, pd, *rect);
        }
        joint_labels(&mut scribe, t, &side.world, side.joints(), *rect);
        markers(&mut scribe, t, &side.world, *rect);
        layouts.push(scribe.finish());
    }
    if comparing {
        let ppp = ui.ctx().pixels_per_point();
        let stroke = egui::Stroke::new(2.0, Color32::from_rgb(90, 95, 110));
        let x = (grid.x + (grid.w * 0.5).floor()) / ppp;
        ui.painter().line_segment([Pos2::new(x, grid.y / ppp), Pos2::new(x, (grid.y + grid.h) / ppp)], stroke);
        if rects.len() > 2 {
            let y = (grid.y + (grid.h * 0.5).floor()) / ppp;
            ui.painter().line_segment([Pos2::new(grid.x / ppp, y), Pos2::new((grid.x + grid.w) / ppp, y)], stroke);
        }
    }
    (layouts, header)
}

/// The size (points) of `text` in `font` on one line.
fn measure(ctx: &egui::Context, text: &str, font: &FontId) -> egui::Vec2 {
    ctx.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font.clone(), Color32::WHITE).size())
}

/// A rectangle in physical pixels as egui points.
fn in_points(r: Rect, ppp: f32) -> egui::Rect {
    egui::Rect::from_min_size(Pos2::new(r.x / ppp, r.y / ppp), egui::vec2(r.w, r.h) / ppp)
}

/// The insets of the tile `main` (pixels) for the selected pair's records `pd`, below the
/// text at the top of the view ([`inset_layout`]).
fn insets(s: &Scribe, t: &Testbed, pd: Option<&PairDebug>, main: Rect) -> [Inset; 2] {
    inset_layout(main, &t.view.overlays, t.view.insets.solo, pd, s.ppp, (s.view.above, s.view.keep))
}

/// Where world point `q` appears in the view `r` (physical pixels) under `view_proj`, in egui
/// points; None behind the camera.
fn screen(view_proj: glam::Mat4, r: Rect, ppp: f32, q: glam::Vec3) -> Option<Pos2> {
    let c = view_proj * q.extend(1.0);
    (c.w > 0.0).then(|| {
        let (x, y) = (c.x / c.w, c.y / c.w);
        Pos2::new((r.x + (x * 0.5 + 0.5) * r.w) / ppp, (r.y + (0.5 - y * 0.5) * r.h) / ppp)
    })
}

/// Collects a side's text: fixed text is painted at once and kept as an obstacle; anchored
/// labels wait for the placement pass ([`Scribe::finish`]).
struct Scribe<'a> {
    painter: egui::Painter,
    ppp: f32,
    /// Text and plate colours of the theme.
    text: Color32,
    plate: Color32,
    /// The side's tile (egui points).
    tile: egui::Rect,
    labels: Vec<Label>,
    obstacles: Vec<egui::Rect>,
    ctx: &'a egui::Context,
    /// How the side's tile is drawn ([`crate::app::view_state::ViewState::side_view`]): the
    /// shared camera until the text at the top of the tile is laid out, the tile's after.
    view: SideView,
}

/// Priorities of the anchored labels (higher is placed first).
mod priority {
    use super::Priority;
    pub const FACE: Priority = 9;
    pub const JOINT: Priority = 8;
    pub const POINT: Priority = 7;
    pub const GROUP: Priority = 6;
    pub const PLANE: Priority = 5;
    pub const GAUSS: Priority = 4;
    pub const FORCE: Priority = 3;
}

impl<'a> Scribe<'a> {
    fn new(ui: &'a egui::Ui, t: &Testbed, tile: Rect) -> Scribe<'a> {
        let ppp = ui.ctx().pixels_per_point();
        let [r, g, b] = t.view.look.text();
        let [pr, pg, pb, _] = t.view.look.inset();
        Scribe {
            painter: ui.painter().clone(),
            ppp,
            text: Color32::from_rgb(r, g, b),
            plate: c32([pr, pg, pb]).gamma_multiply(0.85),
            tile: in_points(tile, ppp),
            labels: Vec::new(),
            obstacles: Vec::new(),
            ctx: ui.ctx(),
            view: SideView { camera: t.view.camera, marks: 1.0, above: 0.0, keep: 0.0 },
        }
    }

    /// A point of the tile in physical pixels as egui points.
    fn p(&self, x: f32, y: f32) -> Pos2 {
        Pos2::new(x / self.ppp, y / self.ppp)
    }

    /// Fixed text at `at`, painted now and kept clear of.
    fn fixed(&mut self, at: Pos2, align: Align2, text: impl ToString, font: FontId, colour: Color32) -> egui::Rect {
        let r = self.painter.text(at, align, text.to_string(), font, colour);
        self.obstacles.push(r.expand(2.0));
        r
    }

    /// Fixed text of `items` joined by " · " at `at`, a new row (22 points down, the header's
    /// line spacing) before an item that would pass `width` points; painted now and kept clear
    /// of. Returns the number of rows.
    fn wrapped(&mut self, at: Pos2, items: &[String], font: FontId, width: f32) -> usize {
        self.wrapped_with(at, items, "   ·   ", font, width)
    }

    /// [`Scribe::wrapped`] with the items joined by `sep`.
    fn wrapped_with(&mut self, at: Pos2, items: &[String], sep: &str, font: FontId, width: f32) -> usize {
        let mut rows: Vec<String> = vec![String::new()];
        for item in items {
            let row = rows.last_mut().expect("a row");
            let joined = if row.is_empty() { item.clone() } else { format!("{row}{sep}{item}") };
            if row.is_empty() || measure(self.ctx, &joined, &font).x <= width {
                *row = joined;
            } else {
                rows.push(item.clone());
            }
        }
        for (k, row) in rows.iter().enumerate() {
            self.fixed(at + egui::vec2(0.0, 22.0 * k as f32), Align2::LEFT_TOP, row, font.clone(), self.text);
        }
        rows.len()
    }

    /// A key's row at `at`: `head`, then each item's text after a dot of its colour, all
    /// in `size`-point text. An item that would pass the tile's right edge starts a new line
    /// (22 points down, under the first item). Returns the number of lines used.
    fn swatches(
        &mut self,
        at: Pos2,
        head: String,
        items: impl IntoIterator<Item = ([f32; 3], String)>,
        size: f32,
    ) -> usize {
        let (dark, font) = (self.text, FontId::proportional(size));
        let items: Vec<([f32; 3], String)> = items.into_iter().collect();
        let (places, lines) = self.swatch_places(at, &head, &items, &font);
        self.fixed(at, Align2::LEFT_TOP, head, font.clone(), dark);
        for ((colour, text), p) in items.into_iter().zip(places) {
            let r = self.fixed(p, Align2::LEFT_TOP, text, font.clone(), dark);
            self.painter.circle_filled(Pos2::new(r.min.x - 8.0, r.center().y), 5.0, c32(colour));
        }
        lines
    }

    /// Where [`Scribe::swatches`] writes each item's text for a row at `at` headed `head`, and
    /// the number of lines it takes (nothing painted).
    fn swatch_places(&self, at: Pos2, head: &str, items: &[([f32; 3], String)], font: &FontId) -> (Vec<Pos2>, usize) {
        let (first, right) = (at.x + measure(self.ctx, head, font).x + 6.0, self.tile.max.x - 8.0);
        let (mut x, mut y, mut lines) = (first, at.y, 1);
        let mut places = Vec::with_capacity(items.len());
        for (_, text) in items {
            let width = measure(self.ctx, text, font).x;
            if x > first && x + 14.0 + width > right {
                (x, y, lines) = (first, y + 22.0, lines + 1);
            }
            places.push(Pos2::new(x + 14.0, y));
            x += 14.0 + width + 12.0;
        }
        (places, lines)
    }

    /// An anchored label, placed by [`Scribe::finish`] within `within` (the tile if None).
    fn anchored(&mut self, anchor: Pos2, text: String, size: f32, priority: Priority, within: Option<egui::Rect>) {
        let (colour, plate) = (self.text, self.plate);
        self.labels.push(Label {
            anchor,
            text,
            font: FontId::proportional(size),
            colour,
            plate,
            priority,
            within: within.unwrap_or(self.tile),
            beyond: None,
            area: false,
        });
    }

    /// A contact point's label. A point `hidden` behind a body has no dot to point at: its
    /// label says so ("· behind") and is placed after the visible points' labels.
    fn point_label(&mut self, anchor: Pos2, text: String, priority: Priority, hidden: bool) {
        match hidden {
            true => self.anchored(anchor, format!("{text} · behind"), 13.0, priority - 2, None),
            false => self.anchored(anchor, text, 13.0, priority, None),
        }
    }

    /// Places and paints the anchored labels.
    fn finish(self) -> Layout {
        let ctx = self.ctx;
        let layout = label_layout::place(self.labels, self.obstacles, |text, font| measure(ctx, text, font));
        label_layout::paint(&self.painter, &layout);
        layout
    }
}

/// The contact markers of `w` (drawn when the contacts overlay is on): obstacles no label
/// may cover.
fn markers(s: &mut Scribe, t: &Testbed, w: &World, main: Rect) {
    if !t.view.overlays.has(Overlay::Contacts) || inset_alone(t) {
        return;
    }
    let vp = s.view.camera.view_proj(main.w / main.h.max(1.0));
    // The renderer's dots are 11 pixels across at 1× (`render::views`; times the tile's
    // mark scale), and headless pictures at N× pixels are N× the points: 13 points keeps a
    // margin in both.
    let size = 13.0 * s.view.marks;
    for c in w.contacts() {
        for pt in &c.manifold.points {
            if let Some(at) = screen(vp, main, s.ppp, pt.position) {
                s.obstacles.push(egui::Rect::from_center_size(at, egui::vec2(size, size)));
            }
        }
    }
}

/// Whether the contact point at `p`, `depth` deep, is hidden behind a body from the camera:
/// the test the renderer's dots make ([`crate::render::views::dot_test_point`]), by a ray
/// cast. Nothing hides in the wireframe view, where no body is drawn solid.
fn hidden(t: &Testbed, w: &World, p: glam::Vec3, depth: f32) -> bool {
    if t.view.overlays.has(Overlay::Wireframe) {
        return false;
    }
    let eye = t.view.camera.eye();
    let to = crate::render::views::dot_test_point(eye, p, depth) - eye;
    let d = to.normalize_or_zero();
    super::picking::pick(w, eye, d).is_some_and(|(_, hit)| hit < to.length())
}

/// Whether an inset is drawn alone over the whole view (no main view under it).
/// ([`crate::render::insets::inset_alone`], on side A's records.)
fn inset_alone(t: &Testbed) -> bool {
    crate::render::insets::inset_alone(t.sides.main().pair_debug_cached(t.selected_pair()), t.view.insets.solo)
}

/// Each joint's force in newtons at its arrow's tip, and the selected joint's name and state
/// at its anchor.
fn joint_labels(s: &mut Scribe, t: &Testbed, w: &World, joints: &[crate::physics::world::JointRecord], main: Rect) {
    if joints.is_empty() || inset_alone(t) {
        return;
    }
    let vp = s.view.camera.view_proj(main.w / main.h.max(1.0));
    let ppp = s.ppp;
    let at = |q: glam::Vec3| screen(vp, main, ppp, q);
    let dt = t.timestep();
    // Many joints (a ragdoll, a chain): label only the selected one's force and the drag's,
    // the ones whose arrows are drawn.
    let all = joints.len() <= crate::render::joints::DETAILED_JOINTS;
    for r in joints {
        let selected = t.selection.joint == Some(r.handle);
        // The mouse joint's force (a drag) is always labelled.
        let label = all || selected || r.kind == "mouse";
        if let (true, Some(tip)) = (label, crate::render::joints::force_tip(w, r, dt)) {
            let newtons = crate::render::joints::force(r, dt).1.length();
            if let Some(p) = at(tip) {
                let prio = if selected || r.kind == "mouse" { priority::JOINT } else { priority::FORCE };
                s.anchored(p, format!("{newtons:.1} N"), 13.0, prio, None);
                let base = at(crate::render::joints::force(r, dt).0);
                if let (Some(l), Some(base)) = (s.labels.last_mut(), base) {
                    l.beyond = Some(p - base).filter(|d| d.length() > 1.0);
                }
            }
        }
        if selected {
            let state = match r.limit_state {
                -1 => "  · at lower limit",
                1 => "  · at upper limit",
                _ => "",
            };
            let text =
                if r.broken { format!("{} (broken)", r.name) } else { format!("{} ({}){state}", r.name, r.kind) };
            if let Some(p) = at(r.anchor_a) {
                s.anchored(p, text, 14.0, priority::JOINT, None);
            }
        }
    }
}

/// Teaching labels (`Look::labels`, by layer: [`Look::shows`]): the reference and incident
/// faces and the clip planes (one per reference edge, numbered in clipping order) in the
/// main view, and each Gauss-map point's face number (A0, A1, …, B0, …) on the front of the
/// sphere in the inset.
fn teaching_labels(s: &mut Scribe, t: &Testbed, pd: &PairDebug, main: Rect) {
    let ppp = s.ppp;
    let vp = s.view.camera.view_proj(main.w / main.h.max(1.0));
    if let (Some(clip), false) = (&pd.clip, inset_alone(t)) {
        let centroid = |poly: &[glam::Vec3]| poly.iter().copied().sum::<glam::Vec3>() / poly.len().max(1) as f32;
        // The body by name: in a comparison "A" would read as the tile "A: Naive".
        let owner = reference_owner(t, pd);
        // The faces' names on plates in the faces' colours.
        let faces = [
            (&clip.reference_polygon, format!("reference face (on {owner})"), colors::REFERENCE),
            (&clip.incident_polygon, "incident face".to_string(), colors::INCIDENT),
        ];
        for (poly, name, c) in faces.into_iter().filter(|_| t.view.look.shows(LabelLayer::Faces)) {
            if let Some(p) = screen(vp, main, ppp, centroid(poly)) {
                s.anchored(p, name, 13.0, priority::FACE, None);
                if let Some(l) = s.labels.last_mut() {
                    l.plate = c32(c);
                    l.colour = ink_for(l.plate);
                    l.area = true;
                }
            }
        }
        let n = clip.reference_polygon.len();
        for k in (0..n).filter(|_| t.view.look.shows(LabelLayer::Planes)) {
            let mid = (clip.reference_polygon[k] + clip.reference_polygon[(k + 1) % n]) * 0.5;
            if let Some(p) = screen(vp, main, ppp, mid) {
                s.anchored(p, format!("plane {}", k + 1), 12.0, priority::PLANE, None);
            }
        }
    }
    let [gi, _] = insets(s, t, Some(pd), main);
    let (g, gauss) = (gi.rect, gi.shown && t.view.look.shows(LabelLayer::Gauss));
    if let (true, Some(ga), Some(gb)) = (gauss, &pd.gauss_a, &pd.gauss_b) {
        let inset = in_points(g, ppp);
        let cam = crate::render::views::gauss_camera(&gi, t.view.insets.gauss);
        let vp = cam.view_proj(g.w / g.h.max(1.0));
        let eye = cam.eye().normalize_or_zero();
        for (map, side) in [(ga, "A"), (gb, "B")] {
            for (i, n) in map.normals.iter().enumerate() {
                if n.dot(eye) < 0.1 {
                    continue;
                }
                if let Some(p) = screen(vp, g, ppp, *n) {
                    s.anchored(p, format!("{side}{i}"), 11.0, priority::GAUSS, Some(inset));
                }
            }
        }
    }
}

/// The selected pair `pd`'s labels in side world `w`, through the side's camera: each point's
/// index and normal impulse beside it, a further normal group's points, the teaching
/// labels and the insets' titles.
fn pair_labels(s: &mut Scribe, t: &Testbed, w: &World, pd: &PairDebug, main: Rect) {
    let ppp = s.ppp;
    let vp = s.view.camera.view_proj(main.w / main.h.max(1.0));
    // An earlier clip stage: its points are not the manifold's yet, so none is labelled.
    let stages = crate::render::views::clip_stage_count(pd);
    let final_stage = !inset_alone(t)
        && match (t.selection.clip_stage, stages) {
            (Some(k), Some(n)) => k + 1 >= n,
            _ => true,
        };
    let look = &t.view.look;
    let (index, impulse) = (look.shows(LabelLayer::Points), look.shows(LabelLayer::Impulses));
    // The clip overlay draws the manifold's points over the bodies: none is hidden.
    let xray = t.view.overlays.has(Overlay::Clip);
    for (k, pt) in pd.manifold.points.iter().enumerate().filter(|_| final_stage) {
        let Some(at) = screen(vp, main, ppp, pt.position) else { continue };
        let ln = pd.impulses.get(k).map(|i| i.0).filter(|_| pd.record.is_some());
        let text = match (index, impulse, ln) {
            (true, true, Some(ln)) => format!("{k}: {ln:.2} N·s"),
            (false, true, Some(ln)) => format!("{ln:.2} N·s"),
            (true, _, _) => format!("{k}"),
            _ => String::new(),
        };
        let text = match look.shows(LabelLayer::Features) {
            true if text.is_empty() => crate::view::feature::label(pt.id),
            true => format!("{text} · {}", crate::view::feature::label(pt.id)),
            false => text,
        };
        if !text.is_empty() {
            s.point_label(at, text, priority::POINT, !xray && hidden(t, w, pt.position, pt.depth));
        }
    }
    // An earlier clip stage: the points that exist at it, numbered (no impulses yet).
    if let (false, false, Some(k)) = (final_stage, inset_alone(t), t.selection.clip_stage) {
        for (i, p) in crate::render::views::clip_stage_points(pd, k).into_iter().enumerate() {
            if let Some(at) = screen(vp, main, ppp, p) {
                s.anchored(at, format!("{i}"), 12.0, priority::POINT, None);
            }
        }
    }
    // A body on a mesh along several normals: the further groups' points, named by group
    // (a corner in a crease is a point of both groups).
    for (g, c) in w.contact_groups(pd.a as u32, pd.b as u32).enumerate().filter(|_| !inset_alone(t)) {
        for (k, pt) in c.manifold.points.iter().enumerate() {
            let Some(at) = screen(vp, main, ppp, pt.position) else { continue };
            let text = format!("g{}·{k}: {:.2} N·s", g + 2, c.impulses[k].normal);
            s.point_label(at, text, priority::GROUP, hidden(t, w, pt.position, pt.depth));
        }
    }
    teaching_labels(s, t, pd, main);
    inset_titles(s, t, w, Some(pd), main);
}

/// The clip stage's caption when a stage is chosen (the panel's slider, `--clip-stage N`;
/// stages numbered as `--clip-stage` numbers them, 0 the incident face): "clip stage 2 of
/// 6: clipped by side plane 2 of the reference face (on box)". None when no stage is chosen.
pub fn clip_caption(t: &Testbed, pd: &PairDebug) -> Option<String> {
    let n = crate::render::views::clip_stage_count(pd)?;
    let k = t.selection.clip_stage?.min(n - 1);
    let clip = pd.clip.as_ref()?;
    let owner = reference_owner(t, pd);
    let what = match k {
        0 => "the incident face, before clipping".to_string(),
        k if k < n - 2 => format!("clipped by side plane {k} of the reference face (on {owner})"),
        k if k == n - 2 && clip.edge_axis.is_some() => {
            "the points within the margin of the reference face along the edge axis, kept by depth".to_string()
        }
        k if k == n - 2 => "the points below the reference face, kept by depth".to_string(),
        _ => "reduced to at most four points".to_string(),
    };
    Some(format!("clip stage {k} of {}: {what}", n - 1))
}

/// The name of the body that holds the reference face of the pair's clip `pd` (its first
/// body when there is no clip).
fn reference_owner<'a>(t: &'a Testbed, pd: &PairDebug) -> &'a str {
    let on_b = pd.clip.as_ref().is_some_and(|c| c.reference_on_b);
    t.world().bodies().get(if on_b { pd.b } else { pd.a }).map_or("", |b| b.name.as_str())
}
