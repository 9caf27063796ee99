//! The fixed text at the top of a view or a comparison's tile: the title, a side's stats, the
//! keys of the time-of-impact ghosts, the joints and the solver graph, the selected pair's
//! path, its normal groups on a mesh (how their points' labels are named) and clip stage, the
//! overlays' key (in a view of its own; a comparison writes it once, `key_strip.rs`), and a
//! line saying when the view has no room for the insets. Its height is what a comparison's
//! tile keeps clear above its picture ([`crate::app::view_state::ViewState::side_view`]); the
//! tallest height is kept while the layout stays (`labels::paint`), so a line that comes and
//! goes does not move the picture. Whether the insets have room is judged under that kept
//! height: insets that a line once crowded out stay out (with the line saying so) until the
//! layout changes.

use super::graph_legend::graph_legend;
use super::key_strip::{joints_row, overlay_rows};
use super::{c32, clip_caption, inset_alone, Scribe};
use crate::app::sides::Side;
use crate::app::testbed::Testbed;
use crate::render::draw::Rect;
use crate::scene::format::Overlay;
use crate::view::{colors, Figure, PairDebug};
use egui::{Align2, FontId};

/// The fixed text at the top of one view (the tile `main`): side `side`'s title, with its
/// selected pair's records `pd`; `name` names the side in a comparison, whose stats then
/// show too; the keys, the selected pair's path and clip stage. Returns its height in
/// points (from the tile's top to below its last line), before [`no_room`]'s line.
pub(super) fn header(
    s: &mut Scribe,
    t: &Testbed,
    side: &Side,
    pd: Option<&PairDebug>,
    name: Option<&str>,
    main: Rect,
) -> f32 {
    let w = &side.world;
    let ppp = s.ppp;
    // Offsets are in points (physical pixels × ppp), so the layout scales with the text.
    let u = ppp;
    let dark = s.text;
    let method = w.settings.mode.name();
    let figure = match (t.view.insets.solo, pd) {
        (Some(Figure::Gauss), Some(p)) if inset_alone(t) => {
            Some(format!("Gauss maps of {} and −{}", w.bodies()[p.a].name, w.bodies()[p.b].name))
        }
        (Some(Figure::Minkowski), Some(p)) if inset_alone(t) => {
            Some(format!("Minkowski difference {} − {}", w.bodies()[p.a].name, w.bodies()[p.b].name))
        }
        _ => None,
    };
    let step = match t.view.start_of {
        Some(n) => format!("start of step {n}"),
        None => format!("step {}", w.step_count),
    };
    let scene = &t.session.scene.desc.name;
    let title = match (name, figure) {
        (_, Some(f)) => format!("{f}   ·   {scene}   ·   {step}"),
        (Some(n), None) => format!("{n}: {method}   ·   {scene}   ·   {step}"),
        (None, None) => format!("{scene}   ·   {step}   ·   {method}"),
    };
    let at = s.p(main.x + 14.0 * u, main.y + 10.0 * u);
    s.fixed(at, Align2::LEFT_TOP, title, FontId::proportional(17.0), dark);
    let mut line_y = main.y + 34.0 * u;
    if name.is_some() {
        let st = w.stats();
        let items = [
            format!("{} point{}", st.points, if st.points == 1 { "" } else { "s" }),
            format!(
                "penetration {:.1} mm (max {:.1} mm)",
                st.max_penetration * 1000.0,
                side.max_penetration_run * 1000.0
            ),
            format!("energy {:.2} J", w.total_energy()),
            format!("{:.2} ms/step", w.profile.total_ms),
        ];
        // A narrow tile wraps the stats (they ran on into the next tile).
        let at = s.p(main.x + 14.0 * u, line_y);
        let lines = s.wrapped(at, &items, FontId::proportional(14.0), (main.w - 28.0 * u) / u);
        line_y += 22.0 * u * lines as f32;
    }
    // Continuous collision: what the ghosts are (the side's kept record).
    let toi = side.toi_shown().map(|(r, _)| r);
    if let (Some(rec), true) = (toi, t.view.overlays.has(Overlay::Toi)) {
        use crate::render::toi::{GHOST_END, GHOST_IMPACT, GHOST_START};
        let first = rec.events.first().map_or(0.0, |e| e.fraction);
        let items = [
            (GHOST_START, "start".to_string()),
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
        let at = s.p(main.x + 14.0 * u, line_y);
        let lines = s.swatches(at, format!("time of impact, step {}:", rec.step), items, 14.0);
        line_y += 22.0 * u * lines as f32;
    }
    // The joints' drawing: what its colours mean (a comparison writes it once, `key_strip`).
    if let Some(row) = joints_row(t, side).filter(|_| !inset_alone(t) && name.is_none()) {
        let lines = s.swatches(s.p(main.x + 14.0 * u, line_y), row.head.into(), row.items, 14.0);
        line_y += 22.0 * u * lines as f32;
    }
    if t.view.overlays.has(Overlay::Graph) {
        line_y = graph_legend(s, w, main.x + 14.0 * u, line_y);
    }
    // The contact, impulse, box and axis overlays' key: below the selected pair's path and
    // clip caption (a clip stage's picture names its stage right under the title).
    let overlay_key = |s: &mut Scribe, mut y: f32| {
        // A comparison writes it once, under its tiles (`key_strip`).
        if !inset_alone(t) && name.is_none() {
            for row in overlay_rows(t, w, pd) {
                let lines = s.swatches(s.p(main.x + 14.0 * u, y), row.head.into(), row.items, 14.0);
                y += 22.0 * u * lines as f32;
            }
        }
        y
    };
    let Some(pd) = pd.filter(|_| t.selected_pair().is_some()) else {
        return (overlay_key(s, line_y) - main.y) / u;
    };
    // The selected pair's contact as the last step made it: the path under the title and
    // the clip stage shown.
    if let Some(r) = &pd.record {
        // A pair the contact pipeline never saw in a step whose continuous stage put one
        // of them back at its impact with the other: say so, or the caption reads as if
        // nothing met.
        let (a, b) = (pd.a as u32, pd.b as u32);
        let swept = toi
            .filter(|rec| rec.step == r.step)
            .is_some_and(|rec| rec.events.iter().any(|e| (e.body, e.other) == (a, b) || (e.body, e.other) == (b, a)));
        let note = match (r.path, swept) {
            (crate::physics::collide::PairPath::NotCandidate, true) => {
                " (their impact was found by the continuous stage)"
            }
            _ => "",
        };
        let line = format!(
            "{} – {}:  {} in step {}{note}",
            w.bodies()[pd.a].name,
            w.bodies()[pd.b].name,
            crate::app::panels::path_name(r.path),
            r.step
        );
        let at = s.p(main.x + 14.0 * u, line_y);
        s.fixed(at, Align2::LEFT_TOP, line, FontId::proportional(14.0), dark);
        line_y += 22.0 * u;
    }
    // A body on a mesh along several normals, or a compound on several children: how its
    // points' labels are named.
    let further = w.contact_groups(pd.a as u32, pd.b as u32).count();
    if further > 0 && !inset_alone(t) {
        let compound = [pd.a, pd.b].iter().any(|&i| w.bodies()[i].shape.compound().is_some());
        let groups = if compound { "touching child pairs" } else { "normal groups" };
        let mut items = vec![format!("{} {groups}, one manifold each: points 0, 1, … of group 1", further + 1)];
        items.extend((2..further + 2).map(|g| format!("g{g}·0, g{g}·1, … of group {g}")));
        let at = s.p(main.x + 14.0 * u, line_y);
        let lines = s.wrapped(at, &items, FontId::proportional(14.0), (main.w - 28.0 * u) / u);
        line_y += 22.0 * u * lines as f32;
    }
    let stage = clip_caption(t, pd);
    if let Some(caption) = &stage {
        let at = s.p(main.x + 14.0 * u, line_y);
        let r = s.fixed(at + egui::vec2(16.0, 0.0), Align2::LEFT_TOP, caption, FontId::proportional(15.0), dark);
        s.painter.rect_filled(
            egui::Rect::from_min_size(at + egui::vec2(0.0, 3.0), egui::vec2(10.0, r.height() - 6.0)),
            2.0,
            c32(colors::REFERENCE),
        );
        line_y += 22.0 * u;
    }
    (overlay_key(s, line_y) - main.y) / u
}

/// The header's last line, under a header `own` points high, when the Gauss-map or
/// Minkowski overlay is on for the selected pair `pd` and the view `main` has no room for the
/// insets between the text and the picture's share of the tile
/// ([`crate::render::insets::Inset::fits`]), judged under the tallest side's header `tallest`
/// (points), as every tile is drawn: it says so, where the insets would be drawn over their
/// own titles. Returns the header's height in points.
pub(super) fn no_room(s: &mut Scribe, t: &Testbed, pd: Option<&PairDebug>, main: Rect, own: f32, tallest: f32) -> f32 {
    let u = s.ppp;
    let mut y = main.y + own * u;
    let asked = [Overlay::Gauss, Overlay::Minkowski].iter().any(|o| t.view.overlays.has(*o));
    if let (Some(pd), true, None) = (pd, asked, t.view.insets.solo) {
        let [g, _] = t.view.insets_under(main, t.sides.len(), Some(pd), u, tallest);
        if !g.fits {
            let text = ["Gauss map and Minkowski difference: no room here".to_string()];
            let at = s.p(main.x + 14.0 * u, y);
            let lines = s.wrapped(at, &text, FontId::proportional(14.0), (main.w - 28.0 * u) / u);
            y += 22.0 * u * lines as f32;
        }
    }
    (y - main.y) / u
}
