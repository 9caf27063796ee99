//! The whole window's egui frame: the control panel on the left and, in the rest, the 3D
//! view's mouse input, handled as an egui widget.
//!
//! Handling the view's mouse inside egui (rather than from raw window events) means egui
//! decides who owns each press: a click or drag that begins on the panel (a checkbox, a
//! slider) never reaches the 3D view, and a release counts as a pick only when its press
//! began in the view and egui saw no drag. The window and the UI tests run this same code.
//!
//! Mouse on the view: left-click selects bodies (two make a pair, empty space clears);
//! left-drag on a dynamic body drags it with a mouse joint (or moves it directly while paused);
//! left-drag elsewhere orbits; right or middle drag pans; the wheel zooms towards the cursor;
//! dragging inside an inset rotates the inset views. In a comparison each tile of the view
//! is a view of its own through the same camera: a click in any tile selects on every side.
//!
//! The frame also runs the keys ([`super::input::dispatch`]) and the floating windows.

use super::panels::{panel, PANEL_WIDTH};
use super::testbed::Testbed;
use crate::render::draw::Rect;
use crate::view::Figure;
use egui::{PointerButton, Pos2, Sense};
use glam::Vec3;

/// What a left-drag on the view is doing, decided where the press began.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Gesture {
    /// Rotating an inset view (each turns on its own).
    Inset(Figure),
    /// Dragging a body (the testbed holds the grab).
    Body,
    /// Orbiting the camera.
    Orbit,
}

/// Draws the panel and handles the view's input; returns the 3D view's rectangle in
/// physical pixels (for the renderer and the labels).
pub fn frame(ui: &mut egui::Ui, t: &mut Testbed) -> Rect {
    egui::Panel::left("controls").default_size(PANEL_WIDTH).resizable(true).show(ui, |ui| panel(ui, t));
    let central = ui.available_rect_before_wrap();
    let ppp = ui.ctx().pixels_per_point();
    let main = Rect {
        x: (central.min.x * ppp).max(0.0),
        y: (central.min.y * ppp).max(0.0),
        w: (central.width() * ppp).max(1.0),
        h: (central.height() * ppp).max(1.0),
    };
    t.view.rect = central;
    t.view.ppp = ppp;
    view_input(ui, t, central, main);
    super::input::dispatch(ui.ctx(), t);
    super::panels::help::show(ui.ctx(), t);
    super::panels::plots::show(ui.ctx(), t);
    #[cfg(not(target_arch = "wasm32"))]
    super::panels::scene::dialog(ui.ctx(), t);
    t.poll_hot_reload();
    main
}

/// The camera that draws `rect` (egui points), the 3D view of the last frame or one of its
/// tiles ([`crate::app::view_state::ViewState::side_view`]).
fn camera_of(t: &Testbed, rect: egui::Rect) -> crate::view::Camera {
    let (main, tile) = (in_rect(t.view.rect), in_rect(rect));
    let k = t.view.tiles(main, t.sides.len(), 1.0).iter().position(|r| *r == tile).unwrap_or(0);
    let pd = t.sides.get(k).and_then(|s| s.pair_debug_cached(t.selected_pair()));
    t.view.side_view(main, tile, t.sides.len(), pd, 1.0, t.view.header).camera
}

/// An egui rectangle as the tiles' [`Rect`] (same unit, egui points).
fn in_rect(r: egui::Rect) -> Rect {
    Rect { x: r.min.x, y: r.min.y, w: r.width(), h: r.height() }
}

/// World-space ray through point `p` (egui points) of the view `rect` (the 3D view or a
/// comparison's tile of it).
pub fn ray(t: &Testbed, rect: egui::Rect, p: Pos2) -> (Vec3, Vec3) {
    let ndc = (((p.x - rect.min.x) / rect.width()) * 2.0 - 1.0, 1.0 - ((p.y - rect.min.y) / rect.height()) * 2.0);
    camera_of(t, rect).ray(ndc, rect.width() / rect.height().max(1.0))
}

/// Where world point `w` appears in the view `rect` (egui points; the 3D view or a
/// comparison's tile of it).
pub fn project(t: &Testbed, rect: egui::Rect, w: Vec3) -> Pos2 {
    let ndc = camera_of(t, rect).view_proj(rect.width() / rect.height().max(1.0)).project_point3(w);
    Pos2::new(rect.min.x + (ndc.x + 1.0) * 0.5 * rect.width(), rect.min.y + (1.0 - ndc.y) * 0.5 * rect.height())
}

/// The tile (egui points) of the view `rect` under `p`: the whole view, or the tile of the
/// side it lies in (every tile shows the same bodies through the same camera); outside every
/// tile (a comparison's key, the empty corner of three sides), the nearest, whose picture
/// a drag carried out of it goes on through.
fn side_rect(t: &Testbed, rect: egui::Rect, p: Pos2) -> egui::Rect {
    t.view
        .tiles(in_rect(rect), t.sides.len(), 1.0)
        .into_iter()
        .map(|r| egui::Rect::from_min_size(Pos2::new(r.x, r.y), egui::vec2(r.w, r.h)))
        .min_by(|a, b| a.distance_sq_to_pos(p).total_cmp(&b.distance_sq_to_pos(p)))
        .unwrap_or(rect)
}

/// The inset under `p` (egui points), if the selected pair's insets are drawn there.
fn inset_at(t: &Testbed, main: Rect, p: Pos2, ppp: f32) -> Option<Figure> {
    t.selected_pair()?;
    let q = (p.x * ppp, p.y * ppp);
    let sides = t.view.tiles(main, t.sides.len(), ppp);
    let k = sides.iter().position(|r| r.contains(q))?;
    let pd = t.sides.get(k)?.pair_debug_cached(t.selected_pair());
    let [g, m] = t.view.insets(sides[k], sides.len(), pd, ppp);
    if g.shown && g.rect.contains(q) {
        Some(Figure::Gauss)
    } else if m.shown && m.rect.contains(q) {
        Some(Figure::Minkowski)
    } else {
        None
    }
}

/// Whether `p` (egui points) lies in a side's tile (three sides leave a corner empty).
fn in_a_tile(t: &Testbed, rect: egui::Rect, p: Pos2) -> bool {
    t.view.tiles(in_rect(rect), t.sides.len(), 1.0).iter().any(|r| r.contains((p.x, p.y)))
}

fn over_inset(t: &Testbed, main: Rect, p: Pos2, ppp: f32) -> bool {
    inset_at(t, main, p, ppp).is_some()
}

fn view_input(ui: &mut egui::Ui, t: &mut Testbed, rect: egui::Rect, main: Rect) {
    if rect.width() < 1.0 || rect.height() < 1.0 {
        return;
    }
    let id = egui::Id::unique("contactlab 3d view");
    let r = ui.interact(rect, id, Sense::click_and_drag());
    let ppp = ui.ctx().pixels_per_point();
    let gesture_id = id.with("gesture");
    if r.clicked_by(PointerButton::Primary) {
        if let Some(p) = r.interact_pointer_pos().filter(|p| in_a_tile(t, rect, *p)) {
            if !over_inset(t, main, p, ppp) {
                let side = side_rect(t, rect, p);
                // A click within 10 points of a joint's anchor selects the joint.
                let near_joint = t
                    .world()
                    .joint_records()
                    .iter()
                    .map(|j| (j.handle, project(t, side, j.anchor_a).distance(p)))
                    .filter(|(_, d)| *d < 10.0)
                    .min_by(|a, b| a.1.total_cmp(&b.1));
                if let Some((h, _)) = near_joint {
                    t.selection.joint = Some(h);
                } else {
                    let (o, d) = ray(t, side, p);
                    let hit = t.pick(o, d).map(|(i, _)| i);
                    t.click_body(hit);
                    t.selection.joint = None;
                }
            }
        }
    }
    // A double-click on an inset enlarges it to the whole view; another puts it back.
    if r.double_clicked_by(PointerButton::Primary) {
        if let Some(p) = r.interact_pointer_pos() {
            match (t.view.insets.solo, inset_at(t, main, p, ppp)) {
                (Some(Figure::Gauss | Figure::Minkowski), _) => t.view.insets.solo = None,
                (_, Some(f)) => t.view.insets.solo = Some(f),
                _ => {}
            }
        }
    }
    if r.drag_started_by(PointerButton::Primary) {
        let origin = ui.input(|i| i.pointer.press_origin()).or(r.interact_pointer_pos());
        let gesture = match origin {
            Some(p) if over_inset(t, main, p, ppp) => {
                Gesture::Inset(inset_at(t, main, p, ppp).unwrap_or(Figure::Gauss))
            }
            // Outside every tile (a comparison's key) nothing is under the cursor to drag.
            Some(p) if !in_a_tile(t, rect, p) => Gesture::Orbit,
            Some(p) => {
                let (o, d) = ray(t, side_rect(t, rect, p), p);
                match t.pick(o, d) {
                    Some((i, dist)) if t.world().bodies()[i].is_dynamic() => {
                        t.begin_drag(i, o + d * dist);
                        Gesture::Body
                    }
                    _ => Gesture::Orbit,
                }
            }
            None => Gesture::Orbit,
        };
        ui.data_mut(|d| d.insert_temp(gesture_id, gesture));
    }
    if r.dragged_by(PointerButton::Primary) {
        let delta = r.drag_delta() * ppp;
        match ui.data(|d| d.get_temp::<Gesture>(gesture_id)) {
            Some(Gesture::Inset(which)) => {
                let q = glam::Quat::from_rotation_y(-delta.x * 0.01)
                    * glam::Quat::from_axis_angle(Vec3::X, -delta.y * 0.01);
                let insets = &mut t.view.insets;
                let r = if which == Figure::Minkowski { &mut insets.minkowski } else { &mut insets.gauss };
                *r = (q * *r).normalize();
            }
            Some(Gesture::Body) if ui.input(|i| i.modifiers.ctrl) => t.turn_drag(delta.x, delta.y),
            Some(Gesture::Body) => {
                if let Some(p) = r.interact_pointer_pos() {
                    let (o, d) = ray(t, side_rect(t, rect, p), p);
                    t.update_drag(o, d);
                }
            }
            Some(Gesture::Orbit) => t.view.camera.orbit(delta.x, delta.y),
            None => {}
        }
    }
    if r.drag_stopped_by(PointerButton::Primary) {
        t.end_drag();
        ui.data_mut(|d| d.remove::<Gesture>(gesture_id));
    }
    if r.dragged_by(PointerButton::Secondary) || r.dragged_by(PointerButton::Middle) {
        let delta = r.drag_delta();
        t.view.camera.pan(delta.x, delta.y, rect.height());
    }
    if r.hovered() {
        // Wheel: egui turns a notch into 40 points (spread over a few frames).
        let lines = ui.input(|i| i.smooth_scroll_delta.y) / 40.0;
        if lines != 0.0 {
            if let Some(p) = r.hover_pos() {
                // Zoom towards what is under the cursor, or the point at the target's depth;
                // over a comparison's key, towards the target.
                let focus = match in_a_tile(t, rect, p) {
                    true => {
                        let (o, d) = ray(t, side_rect(t, rect, p), p);
                        match t.pick(o, d) {
                            Some((_, dist)) => o + d * dist,
                            None => o + d * (t.view.camera.target - o).length(),
                        }
                    }
                    false => t.view.camera.target,
                };
                t.view.camera.zoom_towards(focus, 0.88f32.powf(lines));
            }
        }
    }
}
