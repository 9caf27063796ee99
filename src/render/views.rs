//! Builds the draw lists of a frame from the world and the view state: the main 3D view
//! with its overlays, and the Gauss-map and Minkowski-difference insets of the selected pair.
//! Each inset keeps bands for its title and its legend ([`super::key::inset_legend`]) clear
//! of its figure, the legend below the figure or, in a low comparison tile, beside it
//! ([`inset_layout`]); a comparison's tile keeps part of its height for its picture above
//! the insets ([`FrameInput::keep`]) and draws its lines and dots smaller
//! ([`FrameInput::marks`]).
//!
//! The ground grid lies on the floor and is cut to it ([`grid_floor`]); body axes are drawn
//! on moving bodies and on a selected static one; what the overlays' colours mean is
//! listed by [`super::key`], which follows the same tests. Limits: the grid is flat, so it
//! is left out over mesh terrain, and a floor is found by its box (a tilted static slab
//! with the largest footprint would carry it at its box's top).

use super::draw::*;
use super::insets::{inset_alone, inset_layout, Inset};
use super::mesh::{mesh_key, push_face, MeshData, MeshKey};
use crate::physics::debug::{EdgePairStatus, MinkowskiFaceKind};
use crate::physics::{ContactKind, Shape, World};
use crate::scene::format::Overlay;
use crate::view::{colors, depth_color, Camera, Insets, Overlays, PairDebug};
use glam::{Mat4, Quat, Vec3};

/// Everything a frame is drawn from.
pub struct FrameInput<'a> {
    /// The world (read only).
    pub world: &'a World,
    /// Body colours.
    pub colors: &'a [[f32; 3]],
    /// The camera of this view: the shared camera, in a comparison's tile widened to the
    /// whole view's horizontal field ([`crate::app::sides::tile_camera`]).
    pub camera: Camera,
    /// Overlays.
    pub overlays: Overlays,
    /// Selected bodies (0, 1 or 2).
    pub selected: &'a [usize],
    /// Records of the selected pair.
    pub pair: Option<&'a PairDebug>,
    /// Clip stage to show: 0 = incident face, k = after k side planes, then kept, then reduced.
    pub clip_stage: Option<usize>,
    /// Mouse drag: (anchor on the body, cursor target).
    pub drag: Option<(Vec3, Vec3)>,
    /// Orientation of the inset views (rotatable).
    pub insets: Insets,
    /// Target size in pixels.
    pub size: (u32, u32),
    /// Where the main view is (the part not covered by the panel).
    pub main_rect: Rect,
    /// Outline segments of each body in body space (from the mesh cache).
    pub outlines: &'a [Vec<(Vec3, Vec3)>],
    /// The world's joints as plain records (drawn always).
    pub joints: &'a [crate::physics::world::JointRecord],
    /// Index into `joints` of the selected joint.
    pub selected_joint: Option<usize>,
    /// The step length (s), for joint forces.
    pub dt: f32,
    /// Theme and background.
    pub look: crate::view::Look,
    /// Continuous collision to draw (the last step's record, or a recent step's kept by
    /// the window) and its opacity, 0–1 (fading after the step it describes).
    pub toi: Option<(&'a crate::physics::ContinuousRecord, f32)>,
    /// The character whose last move's recursion is drawn.
    pub selected_character: Option<usize>,
    /// Widths of the main view's lines and dots as a fraction of their own: 1 in a view of
    /// its own, less in a comparison's tile, whose picture is smaller
    /// ([`crate::app::sides::mark_scale`]). The insets keep theirs.
    pub marks: f32,
    /// Pixels per point (the window's scale, a screenshot's `--scale`): the insets keep
    /// their titles' and legends' height in points clear of their figures.
    pub ppp: f32,
    /// Pixels at the top of the view its text takes (title, keys): the insets stay below it.
    pub above: f32,
    /// Pixels of picture a comparison's tile keeps between its text and its insets (0 in a
    /// view of its own, whose insets lie over the picture's corners).
    pub keep: f32,
}

const OUTLINE: [f32; 3] = [0.08, 0.08, 0.1];

fn arrow(out: &mut Vec<Segment>, from: Vec3, to: Vec3, color: [f32; 3], width: f32) {
    out.push(Segment::line(from, to, color, width));
    let d = to - from;
    let len = d.length();
    if len < 1e-4 {
        return;
    }
    let dir = d / len;
    let side = dir.any_orthonormal_vector();
    let head = (len * 0.25).min(0.12);
    for s in [side, -side, dir.cross(side), -dir.cross(side)] {
        out.push(Segment::line(to, to - dir * head + s * head * 0.45, color, width));
    }
}

/// `p` moved towards `eye` by `fraction` of its distance: a disc or line drawn there wins
/// the depth test against the surface it lies on (even a steep one) but still hides
/// behind anything solid in front.
fn toward(eye: Vec3, p: Vec3, fraction: f32) -> Vec3 {
    p + (eye - p) * fraction
}

/// How much nearer the eye (as a fraction of the eye's distance) a contact dot's centre is
/// tested against the bodies' depth, besides the point's own penetration: about 1.6 pixels
/// at the default field of view in a 675-pixel-high view, and 1.8 cm from 9 m, under a
/// 4 cm slab. (A contact point lies inside both bodies by up to its penetration; the marker
/// pass also takes the farthest depth of the 3 × 3 pixels about the centre, for a face seen
/// nearly edge-on.)
const DOT_TEST: f32 = 0.002;

/// The point whose visibility decides whether the dot of a contact point at `p`, `depth`
/// deep, is shown: `DOT_TEST` of the eye distance plus the depth nearer the eye (a hidden
/// point's label says "behind" by the same test).
pub fn dot_test_point(eye: Vec3, p: Vec3, depth: f32) -> Vec3 {
    let to_eye = eye - p;
    p + to_eye.normalize_or_zero() * (to_eye.length() * DOT_TEST + depth.max(0.0))
}

/// A contact dot at `p`, `depth` deep: a dark ring under a coloured disc, shown whole when
/// its centre is in front of the bodies and hidden otherwise ([`ViewDraw::markers`]). The
/// drawn position is moved 2 % of the way to the eye (the same spot on screen), for a device
/// that can only test a disc pixel by pixel.
fn contact_dot(out: &mut Vec<Segment>, eye: Vec3, p: Vec3, depth: f32, color: [f32; 3], diameter: f32) {
    let test = dot_test_point(eye, p, depth);
    out.push(Segment::marker(toward(eye, p, 0.02), test, OUTLINE, diameter + 4.0));
    out.push(Segment::marker(toward(eye, p, 0.021), test, color, diameter));
}

fn body_model(world: &World, i: usize) -> Mat4 {
    model_at(world, i, &world.bodies()[i].pose)
}

/// Model matrix of body `i`'s mesh at centre-of-mass pose `pose` (the mesh cache holds
/// shapes about their centre of mass, as `Body::pose` is).
pub(super) fn model_at(world: &World, i: usize, pose: &crate::physics::Iso) -> Mat4 {
    let m = Mat4::from_rotation_translation(pose.rot, pose.pos);
    match mesh_key(&world.bodies()[i].shape) {
        MeshKey::UnitCube(h) => m * Mat4::from_scale(h),
        MeshKey::UnitSphere(r) => m * Mat4::from_scale(Vec3::splat(r)),
        MeshKey::Own => m,
    }
}

pub(super) fn mesh_ref(shape: &Shape, i: usize) -> MeshRef {
    match mesh_key(shape) {
        MeshKey::UnitCube(_) => MeshRef::UnitCube,
        MeshKey::UnitSphere(_) => MeshRef::UnitSphere,
        MeshKey::Own => MeshRef::Body(i),
    }
}

/// All views of a frame, main view first (none when an inset is shown alone).
pub fn build_views(f: &FrameInput) -> Vec<ViewDraw> {
    let alone = inset_alone(f.pair, f.insets.solo);
    let mut views = if alone { Vec::new() } else { vec![main_view(f)] };
    if let Some(pair) = f.pair {
        let [gr, mr] = inset_layout(f.main_rect, &f.overlays, f.insets.solo, Some(pair), f.ppp, (f.above, f.keep));
        if gr.shown {
            if let Some(mut v) = gauss_view(pair, &gr, f.insets.gauss) {
                v.background = Some(f.look.inset());
                views.push(v);
            }
        }
        if mr.shown {
            if let Some(mut v) = minkowski_view(pair, &mr, f.insets.minkowski, f.overlays.minkowski_see_through) {
                v.background = Some(f.look.inset());
                views.push(v);
            }
        }
    }
    // The main view's marks shrink with a tile's picture; the insets keep their size.
    if let (false, Some(v)) = (alone || f.marks == 1.0, views.first_mut()) {
        for s in v.lines.iter_mut().chain(&mut v.markers).chain(&mut v.overlay) {
            s.a[3] *= f.marks;
        }
    }
    views
}

fn main_view(f: &FrameInput) -> ViewDraw {
    let w = f.world;
    let aspect = f.main_rect.w / f.main_rect.h.max(1.0);
    let mut v = ViewDraw {
        rect: f.main_rect,
        view_proj: f.camera.view_proj(aspect),
        eye: f.camera.eye(),
        background: None,
        meshes: Vec::with_capacity(w.bodies().len()),
        dynamic_meshes: Vec::new(),
        lines: Vec::new(),
        markers: Vec::new(),
        fills: Vec::new(),
        overlay: Vec::new(),
    };
    if let Some(((minor, major), (y, lo, hi))) = f.look.grid().and_then(|g| Some((g, grid_floor(w)?))) {
        let mut line = |i: i32, a: Vec3, b: Vec3| {
            let (c, wd) = if i % 5 == 0 { (major, 1.6) } else { (minor, 1.0) };
            v.lines.push(Segment::line(a, b, c, wd).with_alpha(0.8));
        };
        for i in lo.x.ceil() as i32..=hi.x.floor() as i32 {
            line(i, Vec3::new(i as f32, y, lo.y), Vec3::new(i as f32, y, hi.y));
        }
        for i in lo.y.ceil() as i32..=hi.y.floor() as i32 {
            line(i, Vec3::new(lo.x, y, i as f32), Vec3::new(hi.x, y, i as f32));
        }
    }
    // The solver's graph (`Overlay::Graph`): islands tint the bodies, graph colours the dots.
    let graph = f.overlays.has(Overlay::Graph);
    let (islands, graph_colours) = if graph { (w.islands(), w.graph_colours()) } else { Default::default() };
    for (i, b) in w.bodies().iter().enumerate() {
        let mut color = f.colors.get(i).copied().unwrap_or([0.7, 0.7, 0.7]);
        if let Some(Some(island)) = islands.get(i) {
            color = super::graph::island_colour(*island);
        }
        // The dark theme darkens the static bodies (the ground, walls, terrain) too, so light
        // labels keep their contrast over them.
        if f.look.theme == crate::view::Theme::Dark && !b.is_dynamic() {
            color = color.map(|c| c * 0.22);
        }
        if let Some((rec, fade)) = f.toi.filter(|_| f.overlays.has(Overlay::Toi)) {
            if super::toi::hit_bodies(rec).any(|k| k == i) {
                color = super::toi::tint(color, fade);
            }
        }
        if b.asleep {
            // Sleeping bodies are dimmed: 35 % of the way towards a mid grey.
            color = [0.65 * color[0] + 0.16, 0.65 * color[1] + 0.16, 0.65 * color[2] + 0.17];
        }
        let alpha = if f.overlays.has(Overlay::Wireframe) { 0.0 } else { 1.0 };
        if alpha > 0.0 {
            v.meshes.push(MeshDraw::new(mesh_ref(&b.shape, i), body_model(w, i), color, alpha));
        }
        let selected = f.selected.contains(&i);
        let (oc, ow) = if selected {
            (colors::SELECTED, 3.5)
        } else if f.overlays.has(Overlay::Wireframe) {
            (color, 1.8)
        } else {
            (OUTLINE, 1.4)
        };
        let pose = b.pose;
        if let Some(edges) = f.outlines.get(i) {
            for (a, c) in edges {
                let (p, q) = (pose.transform_point(*a), pose.transform_point(*c));
                v.lines.push(Segment::line(p, q, oc, ow));
                if selected {
                    // A faint ghost of the hidden edges, so the pair's shape reads through.
                    v.overlay.push(Segment::line(p, q, oc, 1.5).with_alpha(0.3));
                }
            }
        }
        if matches!(b.shape, Shape::Sphere { .. }) && selected {
            v.overlay.push(Segment::point(pose.pos, colors::SELECTED, 12.0));
        }
        // Body axes on the moving bodies (a static ground's would cross the whole view),
        // and on a static body when it is selected.
        if f.overlays.has(Overlay::Axes) && (b.is_dynamic() || selected) {
            let r = b.shape.bounding_radius() * 0.9;
            for (axis, c) in [(Vec3::X, colors::BODY_X), (Vec3::Y, colors::BODY_Y), (Vec3::Z, colors::BODY_Z)] {
                v.overlay.push(Segment::line(pose.pos, pose.pos + pose.rot * axis * r, c, 2.5));
            }
        }
        if f.overlays.has(Overlay::Aabbs) {
            box_outline(&mut v.overlay, &b.shape.aabb(&pose), colors::AABB, 1.5);
        }
        if f.overlays.has(Overlay::EnlargedAabbs) {
            if let Some(bb) = w.enlarged_aabbs().get(i) {
                box_outline(&mut v.overlay, bb, colors::ENLARGED_AABB, 1.0);
            }
            // A moving body's enlarged sphere, where the broad phase keeps pairs on them
            // too (a static ground's would fill the view).
            if let (Some(s), true) = (w.enlarged_spheres().get(i), b.is_dynamic()) {
                let (c, r) = (s.truncate(), Vec3::splat(s.w));
                super::characters::rings(&mut v.overlay, c, r, colors::ENLARGED_AABB, 1.0, 0.6);
            }
        }
    }
    // Contacts of the last step.
    for (ci, c) in w.contacts().iter().enumerate() {
        let m = &c.manifold;
        if m.points.is_empty() {
            continue;
        }
        let unit = impulse_unit(w, c);
        for (k, p) in m.points.iter().enumerate() {
            // Dots are depth-tested (a contact behind a wall stays hidden); arrows stay on
            // top, since a normal usually points into a body, and start a few pixels out
            // along the normal so the dot under them still shows.
            let base = p.position + m.normal * (0.012 * (v.eye - p.position).length());
            if f.overlays.has(Overlay::Normals) {
                arrow(&mut v.overlay, base, base + m.normal * 0.35, colors::NORMAL, 2.5);
            }
            if let (true, Some(unit)) = (f.overlays.has(Overlay::Impulses), unit) {
                let (normal, friction) = impulse_arrows(c, k, unit);
                if let Some(ln) = normal {
                    arrow(&mut v.overlay, base, base + m.normal * ln, colors::IMPULSE_NORMAL, 3.0);
                }
                if let Some(fr) = friction {
                    arrow(&mut v.overlay, base, base + fr, colors::IMPULSE_FRICTION, 3.0);
                }
            }
            if graph {
                if let Some(Some(colour)) = graph_colours.get(ci) {
                    contact_dot(&mut v.markers, v.eye, p.position, p.depth, super::graph::colour_of(*colour), 13.0);
                }
            } else if f.overlays.has(Overlay::Contacts) {
                contact_dot(&mut v.markers, v.eye, p.position, p.depth, depth_color(p.depth), 11.0);
            }
        }
    }
    if let Some((rec, fade)) = f.toi.filter(|_| f.overlays.has(Overlay::Toi) || f.overlays.has(Overlay::SweptBounds)) {
        if f.overlays.has(Overlay::Toi) {
            super::toi::draw(&mut v, w, rec, f.outlines, fade);
        }
        if f.overlays.has(Overlay::SweptBounds) {
            for e in &rec.events {
                box_outline(&mut v.overlay, &e.swept, super::toi::SWEPT, 1.6);
            }
        }
    }
    if f.overlays.has(Overlay::Wireframe) {
        super::mesh_debug::wireframe(&mut v, w);
    }
    if f.overlays.has(Overlay::Bvh) {
        super::mesh_debug::bvh_level(&mut v, w, f.overlays.bvh_level);
    }
    if !w.characters().is_empty() {
        super::characters::draw(&mut v, w.characters(), f.selected_character, arrow);
    }
    if !f.joints.is_empty() {
        super::joints::draw(&mut v.overlay, w, f.joints, f.selected_joint, f.dt, arrow);
        if graph {
            // Each coloured joint's graph colour on its anchor (joints are coloured from
            // `joint::colours::COLOUR_FROM` on; fewer are solved in one sequence).
            let colours = w.joint_graph_colours();
            for r in f.joints {
                if let Some(Some(c)) = colours.get(r.handle.index as usize) {
                    v.overlay.push(Segment::point(r.anchor_a, super::graph::colour_of(*c), 10.0));
                }
            }
        }
    }
    if let (Some(pair), true) = (f.pair, f.overlays.has(Overlay::Clip)) {
        clip_overlay(&mut v, pair, f.clip_stage);
    }
    if let Some((a, t)) = f.drag {
        v.overlay.push(Segment::line(a, t, [0.1, 0.1, 0.1], 2.0));
        v.overlay.push(Segment::point(t, [1.0, 1.0, 1.0], 9.0));
        v.overlay.push(Segment::point(a, [0.1, 0.1, 0.1], 7.0));
    }
    v
}

/// Length (m) of an impulse arrow for one [`impulse_unit`].
pub const IMPULSE_ARROW: f32 = 1.0;

/// The impulse that draws an arrow [`IMPULSE_ARROW`] long for contact `c`: the lighter
/// body's weight over a step at 60 Hz (N·s); None when both bodies are static.
pub fn impulse_unit(w: &World, c: &crate::physics::Contact) -> Option<f32> {
    let (ba, bb) = (&w.bodies()[c.a as usize], &w.bodies()[c.b as usize]);
    let unit = ba.mass().min(bb.mass()) * 9.81 / 60.0;
    (unit.is_finite() && unit > 0.0).then_some(unit)
}

/// Point `k` of contact `c`'s impulse arrows for `unit` ([`impulse_unit`]): the normal
/// impulse's length along the normal, and the friction impulse as a vector, each at most 3 m
/// and left out (None) under a millimetre.
pub fn impulse_arrows(c: &crate::physics::Contact, k: usize, unit: f32) -> (Option<f32>, Option<Vec3>) {
    let imp = c.impulses[k];
    let ln = (imp.normal / unit * IMPULSE_ARROW).min(3.0);
    let fr = c.tangents[0] * imp.tangent[0] + c.tangents[1] * imp.tangent[1];
    let lf = (fr.length() / unit * IMPULSE_ARROW).min(3.0);
    ((ln > 1e-3).then_some(ln), (lf > 1e-3).then(|| fr.normalize() * lf))
}

/// Where the ground grid (1 m squares, every fifth line darker) is drawn: its height and
/// its extent in x and z (`lo`, `hi` as (x, z)). It lies on the floor, the static body
/// with the largest footprint (its box's x·z area), lifted a hair above the box's top and
/// cut to it, so no line floats past the floor's edge over the faces below (a raised
/// ground) or crosses a table set on a larger floor. Without a static body it lies on
/// y = 0 when there is gravity, and is left out without (no floor: the plane would cut
/// through bodies floating about y = 0). Never when the floor is a mesh (terrain dips below
/// its box's top and the grid would show through it in dashes); meshes standing on a box
/// floor (stairs, a corridor's walls) keep it. At most 20 m from the origin.
pub fn grid_floor(w: &World) -> Option<(f32, glam::Vec2, glam::Vec2)> {
    const LIFT: f32 = 0.002;
    const REACH: f32 = 20.0;
    let footprint = |bb: &crate::physics::Aabb| (bb.max.x - bb.min.x) * (bb.max.z - bb.min.z);
    // The first of equal footprints: a later static body must be larger to take over.
    let floor = w
        .bodies()
        .iter()
        .filter(|b| !b.is_dynamic())
        .map(|b| (b.shape.aabb(&b.pose), b.shape.mesh().is_some()))
        .reduce(|best, x| if footprint(&x.0) > footprint(&best.0) { x } else { best });
    let reach = glam::Vec2::splat(REACH);
    match floor {
        // Terrain: the grid would show through its dips in dashes.
        Some((_, true)) => None,
        Some((bb, false)) => {
            let (lo, hi) =
                (glam::Vec2::new(bb.min.x, bb.min.z).max(-reach), glam::Vec2::new(bb.max.x, bb.max.z).min(reach));
            (lo.cmple(hi).all()).then_some((bb.max.y + LIFT, lo, hi))
        }
        None if w.gravity != Vec3::ZERO => Some((LIFT, -reach, reach)),
        None => None,
    }
}

/// The twelve edges of an axis-aligned box.
pub(super) fn box_outline(out: &mut Vec<Segment>, bb: &crate::physics::Aabb, color: [f32; 3], width: f32) {
    let (lo, hi) = (bb.min, bb.max);
    let corner = |k: usize| {
        Vec3::new(
            if k & 1 == 0 { lo.x } else { hi.x },
            if k & 2 == 0 { lo.y } else { hi.y },
            if k & 4 == 0 { lo.z } else { hi.z },
        )
    };
    for (p, q) in [(0, 1), (2, 3), (4, 5), (6, 7), (0, 2), (1, 3), (4, 6), (5, 7), (0, 4), (1, 5), (2, 6), (3, 7)] {
        out.push(Segment::line(corner(p), corner(q), color, width));
    }
}

fn polygon_outline(out: &mut Vec<Segment>, poly: &[Vec3], color: [f32; 3], width: f32) {
    for i in 0..poly.len() {
        out.push(Segment::line(poly[i], poly[(i + 1) % poly.len()], color, width));
    }
}

fn polygon_fill(out: &mut Vec<FillVertex>, poly: &[Vec3], color: [f32; 3], alpha: f32) {
    let c = [color[0], color[1], color[2], alpha];
    for i in 1..poly.len().saturating_sub(1) {
        for p in [poly[0], poly[i], poly[i + 1]] {
            out.push(FillVertex { position: p.to_array(), color: c });
        }
    }
}

/// Number of clip stages of the selected pair (for the slider), if it is a face contact.
pub fn clip_stage_count(pair: &PairDebug) -> Option<usize> {
    pair.clip.as_ref().map(|c| c.stages.len() + 3)
}

/// The polygon shown at clip stage `stage` (0 the incident face, then after each side
/// plane; the last clipped polygon for the stages after).
fn clip_polygon(rec: &crate::physics::collide::clip::ClipRecord, stage: usize) -> &[Vec3] {
    match stage {
        0 => &rec.incident_polygon,
        k if k <= rec.stages.len() => &rec.stages[k - 1],
        _ => rec.stages.last().map(|s| s.as_slice()).unwrap_or(&[]),
    }
}

/// The points that exist at clip stage `stage` of `pair`: the polygon's vertices up to the
/// last side plane, then the points kept by depth, then the reduced manifold's.
pub fn clip_stage_points(pair: &PairDebug, stage: usize) -> Vec<Vec3> {
    let Some(rec) = pair.clip.as_ref() else { return Vec::new() };
    let n = rec.stages.len();
    match stage {
        k if k <= n => clip_polygon(rec, k).to_vec(),
        k if k == n + 1 => rec.kept.iter().map(|(p, _)| *p).collect(),
        _ => rec.reduced.clone(),
    }
}

/// The clip the step ran (or the fresh one before any step; [`PairDebug::clip`]).
/// The clip stage drawn for `stage` (None: the last) and the last stage of `rec`: 0 the
/// incident face, then one per side plane, then the points kept by depth, then the reduced
/// manifold.
pub fn clip_stage_shown(rec: &crate::physics::collide::clip::ClipRecord, stage: Option<usize>) -> (usize, usize) {
    let last = rec.stages.len() + 2;
    (stage.unwrap_or(last).min(last), last)
}

/// The colour of the clip's reduced points, the manifold's (on a white ring).
pub fn reduced_colour() -> [f32; 3] {
    depth_color(0.01)
}

fn clip_overlay(v: &mut ViewDraw, pair: &PairDebug, stage: Option<usize>) {
    let Some(rec) = pair.clip.as_ref() else {
        // Edge or curved contact: show the manifold points large.
        for p in &pair.manifold.points {
            v.overlay.push(Segment::point(p.position, colors::CLIPPED, 14.0));
        }
        return;
    };
    polygon_outline(&mut v.overlay, &rec.reference_polygon, colors::REFERENCE, 3.5);
    polygon_outline(&mut v.overlay, &rec.incident_polygon, colors::INCIDENT, 2.5);
    let (stage, last) = clip_stage_shown(rec, stage);
    let poly = clip_polygon(rec, stage);
    // The side plane that just cut (stage k: plane k, through reference edge k − 1) drawn
    // strongly, as a band standing on its edge; the planes before it faintly.
    let r = &rec.reference_polygon;
    if (1..=rec.stages.len()).contains(&stage) && r.len() >= 3 {
        // A side plane contains the direction the faces are projected along: the reference
        // face's normal, or an edge contact's axis.
        let normal = rec.edge_axis.unwrap_or_else(|| (r[1] - r[0]).cross(r[2] - r[0]).normalize_or_zero());
        for k in 0..stage {
            let (a, b) = (r[k % r.len()], r[(k + 1) % r.len()]);
            let cutting = k + 1 == stage;
            let h = normal * (a.distance(b) * if cutting { 0.35 } else { 0.2 });
            let quad = [a - h, b - h, b + h, a + h];
            polygon_fill(&mut v.fills, &quad, colors::REFERENCE, if cutting { 0.35 } else { 0.1 });
            if cutting {
                polygon_outline(&mut v.overlay, &quad, colors::REFERENCE, 2.0);
                v.overlay.push(Segment::line(a, b, colors::REFERENCE, 6.0));
            }
        }
    }
    polygon_fill(&mut v.fills, poly, colors::CLIPPED, 0.38);
    polygon_outline(&mut v.overlay, poly, colors::CLIPPED, 2.0);
    for p in poly {
        v.overlay.push(Segment::point(*p, colors::CLIPPED, 8.0));
    }
    if stage > rec.stages.len() {
        for (p, d) in &rec.kept {
            v.overlay.push(Segment::point(*p, depth_color(*d), 10.0));
        }
    }
    if stage == last {
        for p in &rec.reduced {
            v.overlay.push(Segment::point(*p, [1.0, 1.0, 1.0], 16.0));
            v.overlay.push(Segment::point(*p, reduced_colour(), 10.0));
        }
    }
}

fn inset_base(inset: &Inset, centre: Vec3, radius: f32, rotation: Quat) -> (ViewDraw, Camera) {
    // Fit a sphere of `radius` about `centre` with a margin: distance = r / sin(fov/2) · 1.2,
    // between the title and the legend.
    let fov = 35.0f32;
    let distance = radius / (fov.to_radians() * 0.5).sin() * 1.2;
    let dir = rotation * Vec3::new(0.6, 0.5, 1.0).normalize();
    let mut cam = Camera::look_at(centre + dir * distance, centre, fov);
    (cam.top, cam.bottom, cam.right) = (inset.top, inset.bottom, inset.right);
    let rect = inset.rect;
    let v = ViewDraw {
        rect,
        view_proj: cam.view_proj(rect.w / rect.h),
        eye: cam.eye(),
        background: Some([0.97, 0.975, 0.985, 1.0]),
        meshes: Vec::new(),
        dynamic_meshes: Vec::new(),
        lines: Vec::new(),
        markers: Vec::new(),
        fills: Vec::new(),
        overlay: Vec::new(),
    };
    (v, cam)
}

/// The camera of the Gauss-map inset `inset` (for labels drawn over it).
pub fn gauss_camera(inset: &Inset, rotation: Quat) -> Camera {
    inset_base(inset, Vec3::ZERO, 1.0, rotation).1
}

fn gauss_view(pair: &PairDebug, inset: &Inset, rotation: Quat) -> Option<ViewDraw> {
    let (ga, gb) = (pair.gauss_a.as_ref()?, pair.gauss_b.as_ref()?);
    let sat = pair.sat.as_ref()?;
    let (mut v, cam) = inset_base(inset, Vec3::ZERO, 1.0, rotation);
    let eye = cam.eye();
    // Arcs and points lie on the unit sphere, drawn depth-tested and nudged towards the eye:
    // the far side's arcs hide behind the sphere and none sticks out past its outline.
    let on = |p: Vec3| toward(eye, p, 0.006);
    v.meshes.push(MeshDraw::new(MeshRef::UnitSphere, Mat4::IDENTITY, [0.9, 0.91, 0.93], 1.0));
    // Which arcs take part in a Minkowski face (crossing) — the rest were pruned.
    let mut a_cross = vec![false; ga.arcs.len()];
    let mut b_cross = vec![false; gb.arcs.len()];
    for e in &sat.edge_pairs {
        if e.status == EdgePairStatus::MinkowskiFace {
            a_cross[e.edge_a as usize / 2] = true;
            b_cross[e.edge_b as usize / 2] = true;
        }
    }
    for (map, cross, color) in [(ga, &a_cross, colors::MAP_A), (gb, &b_cross, colors::MAP_B)] {
        for (i, &crossing) in cross.iter().enumerate() {
            let pts = map.arc_points(i, 12);
            let (c, w) = if crossing {
                (color, 3.5)
            } else {
                ([0.5 + color[0] * 0.4, 0.5 + color[1] * 0.4, 0.5 + color[2] * 0.4], 1.6)
            };
            for s in pts.windows(2) {
                v.lines.push(Segment::line(on(s[0]), on(s[1]), c, w));
            }
        }
        for n in &map.normals {
            v.lines.push(Segment::point(on(*n), color, 11.0));
        }
    }
    for e in &sat.edge_pairs {
        if let (EdgePairStatus::MinkowskiFace, Some(axis)) = (e.status, e.axis) {
            v.lines.push(Segment::point(on(axis), colors::MINKOWSKI_EDGE, 9.0));
        }
    }
    if let Some(kind) = sat.winner {
        let axis = sat.axis.normalize_or_zero();
        arrow(&mut v.overlay, Vec3::ZERO, axis * 1.15, colors::AXIS, 3.5);
        // The winner: the two arcs that cross at the axis drawn thick in the winner's colour
        // (an edge pair), or the winning face's point enlarged; then a ring round the axis,
        // open in the middle so the crossing or the point itself shows.
        match kind {
            ContactKind::Edge => {
                let e = &sat.result.edge;
                for (map, arc) in [(ga, e.edge_a as usize / 2), (gb, e.edge_b as usize / 2)] {
                    if arc < map.arcs.len() {
                        for s in map.arc_points(arc, 24).windows(2) {
                            v.overlay.push(Segment::line(on(s[0]), on(s[1]), colors::WINNER, 5.5));
                        }
                    }
                }
            }
            ContactKind::FaceA | ContactKind::FaceB => {
                v.overlay.push(Segment::point(axis, colors::WINNER, 16.0));
            }
        }
        let (u, w) = axis.any_orthonormal_pair();
        let ring: Vec<Vec3> = (0..=32)
            .map(|k| (axis + 0.11 * (u * (k as f32 * 0.196_35).cos() + w * (k as f32 * 0.196_35).sin())).normalize())
            .collect();
        for s in ring.windows(2) {
            v.overlay.push(Segment::line(s[0], s[1], colors::WINNER, 3.0));
        }
    }
    Some(v)
}

/// The polytope and the origin framed together: (centre, radius).
fn minkowski_frame(h: &crate::physics::Hull) -> (Vec3, f32) {
    let bb = h.local_aabb().union(&crate::physics::Aabb::new(Vec3::ZERO, Vec3::ZERO));
    let centre = bb.center();
    let radius = h.vertices().iter().map(|p| (*p - centre).length()).fold(centre.length(), f32::max).max(0.2);
    (centre, radius)
}

/// The camera of the Minkowski inset `inset` for `pair` (for labels drawn over it).
pub fn minkowski_camera(pair: &PairDebug, inset: &Inset, rotation: Quat) -> Option<Camera> {
    let (centre, radius) = minkowski_frame(&pair.minkowski.as_ref()?.hull);
    Some(inset_base(inset, centre, radius, rotation).1)
}

fn minkowski_view(pair: &PairDebug, inset: &Inset, rotation: Quat, see_through: bool) -> Option<ViewDraw> {
    let rec = pair.minkowski.as_ref()?;
    let h = &rec.hull;
    // Frame the polytope and the origin together.
    let (centre, radius) = minkowski_frame(h);
    let (mut v, cam) = inset_base(inset, centre, radius, rotation);
    let eye = cam.eye();
    let mut meshes = [MeshData::default(), MeshData::default(), MeshData::default()];
    for f in 0..h.faces().len() {
        let k = match rec.kinds[f] {
            MinkowskiFaceKind::FaceOfA => 0,
            MinkowskiFaceKind::FaceOfB => 1,
            MinkowskiFaceKind::EdgeEdge => 2,
        };
        push_face(&mut meshes[k], h, f);
    }
    for (m, c) in meshes.into_iter().zip([colors::MAP_A, colors::MAP_B, colors::MINKOWSKI_EDGE]) {
        if !m.indices.is_empty() {
            v.dynamic_meshes.push(m);
            v.meshes.push(MeshDraw::new(MeshRef::Dynamic(v.dynamic_meshes.len() - 1), Mat4::IDENTITY, c, 1.0));
        }
    }
    for e in (0..h.edges().len()).step_by(2) {
        let a = h.vertices()[h.edges()[e].origin as usize];
        let b = h.vertices()[h.target(e as u32) as usize];
        if see_through {
            v.overlay.push(Segment::line(a, b, OUTLINE, 1.2).with_alpha(0.55));
        } else {
            // Opaque: only the edges in front show.
            v.lines.push(Segment::line(toward(eye, a, 0.004), toward(eye, b, 0.004), OUTLINE, 1.4));
        }
    }
    // The nearest face (the winner of the SAT) outlined in the winner's colour, then the
    // origin and the segment to that face (penetration or separation direction).
    let f = h.faces()[rec.closest_face as usize];
    let loop_: Vec<Vec3> = h.face_vertices(rec.closest_face as usize).map(|i| h.vertices()[i as usize]).collect();
    polygon_outline(&mut v.overlay, &loop_, colors::WINNER, 4.0);
    let foot = f.normal * f.offset;
    arrow(&mut v.overlay, Vec3::ZERO, foot, colors::AXIS, 3.5);
    v.overlay.push(Segment::point(Vec3::ZERO, [0.0, 0.0, 0.0], 13.0));
    v.overlay.push(Segment::point(Vec3::ZERO, [1.0, 1.0, 1.0], 6.0));
    Some(v)
}
