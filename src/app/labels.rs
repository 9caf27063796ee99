//! Text drawn over the 3D view by egui, in the window and in headless screenshots alike:
//! the scene title and step, and the titles and legends of the inset views.

use super::sides::{tiles, Side, SIDE_NAMES};
use super::testbed::Testbed;
use crate::physics::World;
use crate::render::draw::Rect;
use crate::render::views::inset_rects;
use crate::scene::format::Overlay;
use crate::view::colors;
use crate::view::PairDebug;
use egui::{Align2, Color32, FontId, Pos2};

fn c32(c: [f32; 3]) -> Color32 {
    let e = |x: f32| {
        let s = if x <= 0.003_130_8 { 12.92 * x } else { 1.055 * x.powf(1.0 / 2.4) - 0.055 };
        (s.clamp(0.0, 1.0) * 255.0).round() as u8
    };
    Color32::from_rgb(e(c[0]), e(c[1]), e(c[2]))
}

/// Paints the labels for a main view occupying `main` (physical pixels): one set per side
/// of a comparison, in its tile ([`super::sides::tiles`]), each with its own method, stats
/// and pair labels, and a line between the tiles.
pub fn paint(ui: &mut egui::Ui, t: &Testbed, main: Rect) {
    let rects = tiles(main, t.sides.len());
    let comparing = rects.len() > 1;
    let pair = t.selected_pair();
    for (k, (side, rect)) in t.sides.iter().zip(&rects).enumerate() {
        let name = comparing.then_some(SIDE_NAMES[k]);
        paint_side(ui, t, side, side.pair_debug_cached(pair), name, *rect);
        paint_joints(ui, t, &side.world, side.joints(), *rect);
    }
    if comparing {
        let ppp = ui.ctx().pixels_per_point();
        let stroke = egui::Stroke::new(2.0, Color32::from_rgb(90, 95, 110));
        let x = (main.x + (main.w * 0.5).floor()) / ppp;
        ui.painter().line_segment([Pos2::new(x, main.y / ppp), Pos2::new(x, (main.y + main.h) / ppp)], stroke);
        if rects.len() > 2 {
            let y = (main.y + (main.h * 0.5).floor()) / ppp;
            ui.painter().line_segment([Pos2::new(main.x / ppp, y), Pos2::new((main.x + main.w) / ppp, y)], stroke);
        }
    }
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

/// Each joint's force in newtons at its arrow's tip, and the selected joint's name and state
/// at its anchor.
fn paint_joints(ui: &mut egui::Ui, t: &Testbed, w: &World, joints: &[crate::physics::world::JointRecord], main: Rect) {
    if joints.is_empty() {
        return;
    }
    let ppp = ui.ctx().pixels_per_point();
    let vp = t.view.camera.view_proj(main.w / main.h.max(1.0));
    let at = |q: glam::Vec3| screen(vp, main, ppp, q).map(|p| p + egui::vec2(6.0, -6.0));
    let dt = t.timestep();
    let force = c32(crate::render::joints::FORCE);
    let [r, g, b] = t.view.look.text();
    let dark = Color32::from_rgb(r, g, b);
    // Many joints (a chain, a grid): label only the selected one's force and the drag's.
    let all = joints.len() <= 12;
    for r in joints {
        let selected = t.selection.joint == Some(r.handle);
        // The mouse joint's force (a drag) is always labelled.
        let label = all || selected || r.kind == "mouse";
        if let (true, Some(tip)) = (label, crate::render::joints::force_tip(w, r, dt)) {
            let newtons = crate::render::joints::force(r, dt).1.length();
            if let Some(p) = at(tip) {
                ui.painter().text(p, Align2::LEFT_BOTTOM, format!("{newtons:.1} N"), FontId::proportional(13.0), force);
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
                ui.painter().text(p, Align2::LEFT_TOP, text, FontId::proportional(14.0), dark);
            }
        }
    }
}

/// Teaching labels (`Look::labels`): the reference and incident faces and the clip planes
/// (one per reference edge, numbered in clipping order) in the main view, and each Gauss-map
/// point's face number (A0, A1, …, B0, …) on the front of the sphere in the inset.
fn teaching_labels(ui: &egui::Ui, t: &Testbed, pd: &PairDebug, main: Rect, text: Color32) {
    let ppp = ui.ctx().pixels_per_point();
    let project = |vp: glam::Mat4, r: Rect, q: glam::Vec3| screen(vp, r, ppp, q);
    let painter = ui.painter();
    let font = FontId::proportional(13.0);
    let vp = t.view.camera.view_proj(main.w / main.h.max(1.0));
    if let Some(clip) = &pd.clip {
        let centroid = |poly: &[glam::Vec3]| poly.iter().copied().sum::<glam::Vec3>() / poly.len().max(1) as f32;
        let owner = if clip.reference_on_b { "B" } else { "A" };
        // In a face contact the two faces overlap: the reference face's name goes above its
        // centre, the incident face's below, each on a plate in the face's colour.
        let faces = [
            (&clip.reference_polygon, format!("reference face (on {owner})"), colors::REFERENCE, -1.0),
            (&clip.incident_polygon, "incident face".to_string(), colors::INCIDENT, 1.0),
        ];
        for (poly, name, c, side) in faces {
            if let Some(p) = project(vp, main, centroid(poly)) {
                let galley = painter.layout_no_wrap(name, font.clone(), Color32::WHITE);
                let size = galley.size() + egui::vec2(10.0, 4.0);
                let min = Pos2::new(p.x - size.x * 0.5, if side < 0.0 { p.y - size.y - 3.0 } else { p.y + 3.0 });
                let plate = egui::Rect::from_min_size(min, size);
                painter.rect_filled(plate, 4.0, c32(c).gamma_multiply(0.9));
                painter.galley(min + egui::vec2(5.0, 2.0), galley, Color32::WHITE);
            }
        }
        let n = clip.reference_polygon.len();
        for k in 0..n {
            let mid = (clip.reference_polygon[k] + clip.reference_polygon[(k + 1) % n]) * 0.5;
            if let Some(p) = project(vp, main, mid) {
                painter.text(p, Align2::CENTER_BOTTOM, format!("plane {}", k + 1), FontId::proportional(12.0), text);
            }
        }
    }
    if let (true, Some(ga), Some(gb)) = (t.view.overlays.has(Overlay::Gauss), &pd.gauss_a, &pd.gauss_b) {
        let (g, _) = inset_rects(main);
        let cam = crate::render::views::gauss_camera(g, t.view.inset_rotation);
        let vp = cam.view_proj(g.w / g.h.max(1.0));
        let eye = cam.eye().normalize_or_zero();
        for (map, side) in [(ga, "A"), (gb, "B")] {
            for (i, n) in map.normals.iter().enumerate() {
                if n.dot(eye) < 0.1 {
                    continue;
                }
                if let Some(p) = project(vp, g, *n * 1.08) {
                    painter.text(p, Align2::CENTER_CENTER, format!("{side}{i}"), FontId::proportional(11.0), text);
                }
            }
        }
    }
}

/// The labels of one view: side `s` with its selected pair's records `pd`; `name` names the
/// side in a comparison, whose stats then show too.
fn paint_side(ui: &mut egui::Ui, t: &Testbed, s: &Side, pd: Option<&PairDebug>, name: Option<&str>, main: Rect) {
    let w = &s.world;
    let side = name.map(|n| (n, s.max_penetration_run));
    let ppp = ui.ctx().pixels_per_point();
    // Offsets are in points (physical pixels × ppp), so the layout scales with the text.
    let u = ppp;
    let p = |x: f32, y: f32| Pos2::new(x / ppp, y / ppp);
    let painter = ui.painter();
    let [r, g, b] = t.view.look.text();
    let dark = Color32::from_rgb(r, g, b);
    let method = w.settings.mode.name();
    let title = match side {
        Some((s, _)) => format!("{s}: {method}   ·   {}   ·   step {}", t.session.scene.desc.name, w.step_count),
        None => format!("{}   ·   step {}   ·   {method}", t.session.scene.desc.name, w.step_count),
    };
    painter.text(p(main.x + 14.0 * u, main.y + 10.0 * u), Align2::LEFT_TOP, title, FontId::proportional(17.0), dark);
    let mut line_y = main.y + 34.0 * u;
    if let Some((_, max_pen)) = side {
        let s = w.stats();
        let text = format!(
            "{} points   ·   penetration {:.1} mm (max {:.1} mm)   ·   energy {:.2} J   ·   {:.2} ms/step",
            s.points,
            s.max_penetration * 1000.0,
            max_pen * 1000.0,
            w.total_energy(),
            w.profile.total_ms
        );
        painter.text(p(main.x + 14.0 * u, line_y), Align2::LEFT_TOP, text, FontId::proportional(14.0), dark);
        line_y += 22.0 * u;
    }
    // Continuous collision: what the ghosts are (the side's kept record).
    let toi = s.toi_shown().map(|(r, _)| r);
    if let (Some(rec), true) = (toi, t.view.overlays.has(Overlay::Toi)) {
        use crate::render::toi::{GHOST_END, GHOST_IMPACT, GHOST_START};
        let first = rec.events.first().map_or(0.0, |e| e.fraction);
        let items = [
            (GHOST_START, format!("time of impact, step {}:   start", rec.step)),
            (GHOST_IMPACT, format!("impact ({:.0} % into the step)", first * 100.0)),
            (
                GHOST_END,
                if rec.mode == crate::physics::ContinuousMode::EarliestCollision {
                    "end of the step".to_string()
                } else {
                    "end without continuous collision".to_string()
                },
            ),
        ];
        let mut x = main.x + 14.0 * u;
        for (c, text) in items {
            let galley = painter.layout_no_wrap(text, FontId::proportional(14.0), dark);
            let wdt = galley.size().x * u;
            painter.galley(p(x, line_y), galley, dark);
            painter.circle_filled(p(x + wdt + 10.0 * u, line_y + 9.0 * u), 5.0, c32(c));
            x += wdt + 26.0 * u;
        }
        line_y += 22.0 * u;
    }
    if t.selected_pair().is_none() {
        return;
    }
    // The selected pair's contact as the last step made it: the path under the title, and
    // each point's index and normal impulse beside it.
    if let Some(pd) = pd {
        if let Some(r) = &pd.record {
            let line = format!(
                "{} – {}:  {} in step {}",
                w.bodies()[pd.a].name,
                w.bodies()[pd.b].name,
                super::panels::path_name(r.path),
                r.step
            );
            painter.text(p(main.x + 14.0 * u, line_y), Align2::LEFT_TOP, line, FontId::proportional(14.0), dark);
        }
        let vp = t.view.camera.view_proj(main.w / main.h.max(1.0));
        for (k, pt) in pd.manifold.points.iter().enumerate() {
            // 9 points right of and above the point (u = ppp: 9·u pixels are 9 points).
            let Some(at) = screen(vp, main, ppp, pt.position).map(|s| s + egui::vec2(9.0, -9.0)) else { continue };
            let text = match pd.impulses.get(k) {
                Some((ln, _)) if pd.record.is_some() => format!("{k}: {ln:.2} N·s"),
                _ => format!("{k}"),
            };
            painter.text(at, Align2::LEFT_BOTTOM, text, FontId::proportional(13.0), dark);
        }
        // A body on a mesh along several normals: the further groups' points, named by group
        // and set below right of the point (a corner in a crease is a point of both groups).
        for (g, c) in w.contact_groups(pd.a as u32, pd.b as u32).enumerate() {
            for (k, pt) in c.manifold.points.iter().enumerate() {
                let Some(at) = screen(vp, main, ppp, pt.position).map(|s| s + egui::vec2(9.0, 9.0)) else { continue };
                let text = format!("g{}·{k}: {:.2} N·s", g + 2, c.impulses[k].normal);
                painter.text(at, Align2::LEFT_TOP, text, FontId::proportional(13.0), dark);
            }
        }
    }
    if let (Some(pd), true) = (pd, t.view.look.labels) {
        teaching_labels(ui, t, pd, main, dark);
    }
    let (g, m) = inset_rects(main);
    let font = FontId::proportional(14.0);
    let small = FontId::proportional(12.0);
    let pair_shown = pd.filter(|_| t.selected_pair().is_some());
    // An inset is drawn only when the pair has what it shows; else one line says why.
    let gauss = pair_shown.is_some_and(|p| p.gauss_a.is_some() && p.gauss_b.is_some() && p.sat.is_some());
    let minkowski = pair_shown.is_some_and(|p| p.minkowski.is_some());
    let why = pair_shown.map(|p| empty_inset_reason(w, p));
    let note = |rect: Rect| {
        if let Some(text) = &why {
            // Wider than a small inset, so the line stays a line or two.
            let galley = painter.layout(text.clone(), small.clone(), dark, (main.w * 0.45).max(rect.w) / ppp - 16.0);
            let at = p(rect.x + 8.0 * u, rect.y + rect.h - 8.0 * u) - egui::vec2(0.0, galley.size().y);
            let plate = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
            painter.rect_filled(plate, 4.0, {
                let [r, g, b, _] = t.view.look.inset();
                c32([r, g, b]).gamma_multiply(0.92)
            });
            painter.galley(at, galley, dark);
        }
    };
    // One note for both (the Gauss inset's corner when it is asked for).
    let gauss_note = t.view.overlays.has(Overlay::Gauss) && !gauss;
    if gauss_note {
        note(g);
    } else if t.view.overlays.has(Overlay::Minkowski) && !minkowski {
        note(m);
    }
    if gauss && t.view.overlays.has(Overlay::Gauss) {
        painter.text(p(g.x + 8.0 * u, g.y + 6.0 * u), Align2::LEFT_TOP, "Gauss maps", font.clone(), dark);
        let legend = [
            (colors::MAP_A, "A"),
            (colors::MAP_B, "−B"),
            (colors::MINKOWSKI_EDGE, "arcs cross"),
            (colors::AXIS, "axis"),
        ];
        for (k, (c, name)) in legend.iter().enumerate() {
            let y = g.y + g.h - (8.0 + 16.0 * (legend.len() - k) as f32) * u;
            painter.circle_filled(p(g.x + 14.0 * u, y + 7.0 * u), 5.0, c32(*c));
            painter.text(p(g.x + 24.0 * u, y), Align2::LEFT_TOP, *name, small.clone(), dark);
        }
    }
    if minkowski && t.view.overlays.has(Overlay::Minkowski) {
        painter.text(p(m.x + 8.0 * u, m.y + 6.0 * u), Align2::LEFT_TOP, "Minkowski difference A − B", font, dark);
        let legend = [
            (colors::MAP_A, "face of A"),
            (colors::MAP_B, "face of −B"),
            (colors::MINKOWSKI_EDGE, "edge × edge"),
            (colors::AXIS, "origin to nearest face"),
        ];
        for (k, (c, name)) in legend.iter().enumerate() {
            let y = m.y + m.h - (8.0 + 16.0 * (legend.len() - k) as f32) * u;
            painter.circle_filled(p(m.x + 14.0 * u, y + 7.0 * u), 5.0, c32(*c));
            painter.text(p(m.x + 24.0 * u, y), Align2::LEFT_TOP, *name, small.clone(), dark);
        }
    }
}

/// Why the Gauss-map and Minkowski insets have nothing to show for pair `p` of `w`: a
/// curved shape or a mesh in the pair (no SAT), in one line.
pub fn empty_inset_reason(w: &World, p: &PairDebug) -> String {
    use crate::physics::Shape;
    let kind = |i: usize| match &w.bodies()[i].shape {
        Shape::Sphere { .. } => "sphere",
        Shape::Capsule { .. } => "capsule",
        Shape::Box { .. } => "box",
        s if s.mesh().is_some() => "mesh",
        _ => "hull",
    };
    let (a, b) = (kind(p.a), kind(p.b));
    if a == "mesh" || b == "mesh" {
        format!(
            "{a}–{b}: the contact comes from the triangles under the body, one manifold per normal \
             group; there is no Gauss map or Minkowski difference of the pair"
        )
    } else if ["sphere", "capsule"].contains(&a) || ["sphere", "capsule"].contains(&b) {
        format!(
            "{a}–{b}: a curved shape has no Gauss-map arcs or Minkowski faces; the contact is the \
             closest point, in closed form"
        )
    } else {
        format!("{a}–{b}: no SAT query at the current poses (the pair is not a candidate)")
    }
}
