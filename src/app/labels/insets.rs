//! The insets' text: their titles and legends, the SAT's winner named in them, and the one
//! line that says why an inset has nothing to show.

use super::{c32, in_points, ink_for, inset_alone, insets, priority, screen, Scribe};
use crate::app::testbed::Testbed;
use crate::physics::World;
use crate::render::draw::Rect;
use crate::render::insets::{has_figure, Inset, LEGEND_LINE};
use crate::render::key::inset_legend;
use crate::view::{colors, Figure, PairDebug};
use egui::{Align2, FontId};

/// The insets' titles and legends (fixed text) when the insets are drawn, or one line on why
/// they are empty.
pub(super) fn inset_titles(s: &mut Scribe, t: &Testbed, w: &World, pd: Option<&PairDebug>, main: Rect) {
    let (ppp, u, dark) = (s.ppp, s.ppp, s.text);
    let [gi, mi] = insets(s, t, pd, main);
    let [(g, gauss_on), (m, minkowski_on)] = [gi, mi].map(|i| (i.rect, i.shown));
    let font = FontId::proportional(14.0);
    let small = FontId::proportional(12.0);
    let pair_shown = pd.filter(|_| t.selected_pair().is_some());
    // An inset is drawn only when the pair has what it shows; else one line says why.
    let gauss = pair_shown.is_some_and(|p| has_figure(p, Figure::Gauss));
    let minkowski = pair_shown.is_some_and(|p| has_figure(p, Figure::Minkowski));
    let note = |s: &mut Scribe, rect: Rect, text: String| {
        // Wider than a small inset, so the line stays a line or two.
        let galley = s.painter.layout(text, small.clone(), dark, (main.w * 0.45).max(rect.w) / ppp - 16.0);
        let at = s.p(rect.x + 8.0 * u, rect.y + rect.h - 8.0 * u) - egui::vec2(0.0, galley.size().y);
        let plate = egui::Rect::from_min_size(at, galley.size()).expand(4.0);
        s.painter.rect_filled(plate, 4.0, s.plate);
        s.painter.galley(at, galley, dark);
        s.obstacles.push(plate);
    };
    // One note for both (the Gauss inset's corner when it is asked for). A view too small for
    // the insets says so in its header ([`super::header`]).
    if let (Some(p), true) = (pair_shown, gi.fits) {
        if gauss_on && !gauss {
            note(s, g, empty_inset_reason(w, p));
        } else if minkowski_on && !minkowski {
            note(s, m, empty_inset_reason(w, p));
        }
    }
    let insets = [
        (gauss && gauss_on, gi, "Gauss maps", inset_legend(Figure::Gauss, pair_shown)),
        (minkowski && minkowski_on, mi, "Minkowski difference A − B", inset_legend(Figure::Minkowski, pair_shown)),
    ];
    if let Some(pd) = pair_shown {
        winner_labels(s, t, pd, [gi, mi], (gauss && gauss_on, minkowski && minkowski_on));
    }
    for (shown, inset, title, legend) in insets {
        if !shown {
            continue;
        }
        let r = inset.rect;
        // Alone, the figure's name is the picture's title. Over the main view, the inset is
        // kept clear of the main view's labels.
        if !inset_alone(t) {
            s.obstacles.push(in_points(r, ppp));
            let at = s.p(r.x + 8.0 * u, r.y + 6.0 * u);
            s.fixed(at, Align2::LEFT_TOP, title, font.clone(), dark);
        }
        // Under the figure, or beside it in a low inset.
        let (x, top) = inset.legend_at(legend.len(), u);
        for (k, (c, name)) in legend.iter().enumerate() {
            let y = top + LEGEND_LINE * k as f32 * u;
            let dot = s.p(x + 6.0 * u, y + 7.0 * u);
            s.painter.circle_filled(dot, 5.0, c32(*c));
            s.obstacles.push(egui::Rect::from_center_size(dot, egui::vec2(12.0, 12.0)));
            let at = s.p(x + 16.0 * u, y);
            s.fixed(at, Align2::LEFT_TOP, *name, small.clone(), dark);
        }
    }
}

/// The SAT's winner named in the insets, in the inspector's words: "edge 10 × edge 16" or
/// "face 3 of A" at the axis in the Gauss map, and the separation along the segment from the
/// origin to the nearest face of the Minkowski difference.
fn winner_labels(s: &mut Scribe, t: &Testbed, pd: &PairDebug, [gi, mi]: [Inset; 2], (gauss, minkowski): (bool, bool)) {
    let (g, m) = (gi.rect, mi.rect);
    let ppp = s.ppp;
    if let (true, Some(sat)) = (gauss, &pd.sat) {
        let name = match sat.winner {
            Some(crate::physics::ContactKind::Edge) => {
                Some(format!("edge {} × edge {}", sat.result.edge.edge_a, sat.result.edge.edge_b))
            }
            Some(crate::physics::ContactKind::FaceA) => Some(format!("face {} of A", sat.result.face_a.face)),
            Some(crate::physics::ContactKind::FaceB) => Some(format!("face {} of B", sat.result.face_b.face)),
            None => None,
        };
        let cam = crate::render::views::gauss_camera(&gi, t.view.insets.gauss);
        let vp = cam.view_proj(g.w / g.h.max(1.0));
        if let (Some(name), Some(at)) = (name, screen(vp, g, ppp, sat.axis.normalize_or_zero())) {
            s.anchored(at, name, 13.0, priority::FACE, Some(in_points(g, ppp)));
            if let Some(l) = s.labels.last_mut() {
                l.plate = c32(colors::WINNER);
                l.colour = ink_for(l.plate);
            }
        }
    }
    if let (true, Some(rec)) = (minkowski, &pd.minkowski) {
        let Some(cam) = crate::render::views::minkowski_camera(pd, &mi, t.view.insets.minkowski) else { return };
        let vp = cam.view_proj(m.w / m.h.max(1.0));
        let f = rec.hull.faces()[rec.closest_face as usize];
        let mid = f.normal * f.offset * 0.5;
        if let Some(at) = screen(vp, m, ppp, mid) {
            // To the digits shown; a separation that rounds to zero has no sign ("-0.0000"
            // read as a penetration).
            let d = (rec.origin_separation * 1e4).round() / 1e4;
            let text = if d == 0.0 { "separation 0.0000 m".to_string() } else { format!("separation {d:+.4} m") };
            s.anchored(at, text, 13.0, priority::FACE, Some(in_points(m, ppp)));
            if let Some(l) = s.labels.last_mut() {
                l.plate = c32(colors::WINNER);
                l.colour = ink_for(l.plate);
            }
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
        Shape::Compound(_) => "compound",
        _ => "hull",
    };
    let (a, b) = (kind(p.a), kind(p.b));
    if a == "mesh" || b == "mesh" {
        format!(
            "{a}–{b}: the contact comes from the triangles under the body, one manifold per normal \
             group; there is no Gauss map or Minkowski difference of the pair"
        )
    } else if a == "compound" || b == "compound" {
        format!(
            "{a}–{b}: a compound collides child pair by child pair, a manifold for each that \
             touches; the insets show the hull children behind the pair's first manifold, and \
             none touches now (or one of them is curved)"
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
