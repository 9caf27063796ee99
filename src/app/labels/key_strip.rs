//! A comparison's key, written once under its tiles: the rows of the joints' key
//! ([`crate::render::joints::key`]) and the overlays' ([`crate::render::key::rows`]) of every
//! side, merged (a colour one side shows and another does not is listed once), across the whole
//! view. Each tile then keeps only its own text: its title, stats, the selected pair's path,
//! and the legends that count what differs from side to side (the solver graph's colours and
//! islands, the time-of-impact ghosts' step). Four tiles each repeating the same two- or
//! three-line key left a 2 × 2 picture a third of its tile.
//!
//! The band keeps the largest height it has had while the comparison, its overlays, the
//! selected pair, the view's size, the figure shown alone and the clip stage stay
//! ([`crate::app::view_state::ViewState::key_layout`]), so the tiles do not move as rows come
//! and go with the contacts; the text over the tiles keeps its height the same way. Limits: a
//! frame sequence (`--frames`) whose key or tile text grows partway still moves its pictures
//! once, at that frame.

use super::{inset_alone, Scribe};
use crate::app::sides::Side;
use crate::app::testbed::Testbed;
use crate::physics::World;
use crate::render::draw::Rect;
use crate::render::key::KeyRow;
use crate::view::PairDebug;
use egui::{Color32, FontId};

/// The key rows of every side of `t`, merged: each head once, in the order the sides first
/// write it, with every item any side writes under it, once, in the order first written.
pub(super) fn merged_rows(t: &Testbed) -> Vec<KeyRow> {
    let pair = t.selected_pair();
    let mut merged: Vec<KeyRow> = Vec::new();
    for side in t.sides.iter().filter(|_| !inset_alone(t)) {
        let pd = side.pair_debug_cached(pair).filter(|_| pair.is_some());
        // The joints' drawing first, as a view of its own writes it.
        for row in joints_row(t, side).into_iter().chain(overlay_rows(t, &side.world, pd)) {
            match merged.iter_mut().find(|m| m.head == row.head) {
                Some(m) => {
                    for item in row.items {
                        if !m.items.iter().any(|i| i.1 == item.1) {
                            m.items.push(item);
                        }
                    }
                }
                None => merged.push(row),
            }
        }
    }
    merged
}

/// The joints' key of side `side` ([`crate::render::joints::key`]): None when no joint is
/// drawn.
pub(super) fn joints_row(t: &Testbed, side: &Side) -> Option<KeyRow> {
    let joints = side.joints();
    let selected = t.selection.joint.and_then(|h| joints.iter().position(|r| r.handle == h));
    let key = crate::render::joints::key(&side.world, joints, selected, t.timestep());
    (!key.is_empty())
        .then(|| KeyRow { head: "joints:", items: key.into_iter().map(|(c, text)| (c, text.to_string())).collect() })
}

/// The overlays' key of world `w` with the selected pair's records `pd`
/// ([`crate::render::key::rows`], the clip stage the selection shows).
pub(super) fn overlay_rows(t: &Testbed, w: &World, pd: Option<&PairDebug>) -> Vec<KeyRow> {
    crate::render::key::rows(w, &t.view.overlays, &t.selection.bodies, pd.map(|p| (p, t.selection.clip_stage)))
}

/// The height in points of the band `rows` need across the view `main` (pixels): 0 for none.
pub(super) fn height(ui: &egui::Ui, t: &Testbed, main: Rect, rows: &[KeyRow]) -> f32 {
    if rows.is_empty() {
        return 0.0;
    }
    let s = Scribe::new(ui, t, main);
    let font = FontId::proportional(14.0);
    let at = s.p(main.x + 14.0 * s.ppp, main.y);
    let lines: usize = rows.iter().map(|r| s.swatch_places(at, r.head, &r.items, &font).1).sum();
    // 8 points above the first line, 22 a line, 4 below the last.
    12.0 + 22.0 * lines as f32
}

/// Writes `rows` at the top of a band `height` points high (at least [`height`]'s) at the
/// foot of the view `main` (pixels), under a line across it.
pub(super) fn paint(ui: &egui::Ui, t: &Testbed, main: Rect, rows: &[KeyRow], height: f32) {
    if height <= 0.0 {
        return;
    }
    let mut s = Scribe::new(ui, t, main);
    let u = s.ppp;
    let x = main.x + 14.0 * u;
    let top = main.y + main.h - (height * u).ceil();
    let stroke = egui::Stroke::new(2.0, Color32::from_rgb(90, 95, 110));
    s.painter.line_segment([s.p(main.x, top), s.p(main.x + main.w, top)], stroke);
    let mut y = top + 8.0 * u;
    for row in rows {
        let lines = s.swatches(s.p(x, y), row.head.into(), row.items.iter().cloned(), 14.0);
        y += 22.0 * u * lines as f32;
    }
}
