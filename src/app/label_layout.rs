//! One placement pass for the text over the 3D view and its insets: every label anchored to a
//! point of the picture (a contact point's impulse, a clip plane, a face, a Gauss-map point,
//! a joint's force) is put where it overlaps no other label, no fixed text (titles, stats,
//! legends), no contact marker and no inset over the view (an obstacle that holds a label's
//! whole area, the inset a Gauss-map point's label is kept in, does not keep that label out).
//!
//! Labels are placed in priority order. Each tries positions around its anchor, nearest
//! first: the four corners beside it, then above, below and to the sides, then the same
//! farther out (an arrow's label tries the side beyond its head first; a face's label, which
//! names an area, also farther still). A position much
//! nearer another label's anchor than its own is refused, since it would be read as naming
//! that one. A label set away from its first position gets a thin leader line to its
//! anchor. A label with no room left is dropped: the lower priorities give way. Every label
//! sits on a plate of the background's colour, so it keeps its contrast over bodies and
//! ground in both themes.
//!
//! Limits: positions are tried on a fixed pattern (no global optimisation), so a crowd may
//! drop a label a cleverer layout would keep; the leader line may cross another label.

use egui::{Color32, FontId, Pos2, Rect, Vec2};

/// How much a label matters (higher is placed first).
pub type Priority = u8;

/// A label to place.
#[derive(Clone, Debug)]
pub struct Label {
    /// The point it names (egui points).
    pub anchor: Pos2,
    /// Its text.
    pub text: String,
    /// Its font.
    pub font: FontId,
    /// Text colour.
    pub colour: Color32,
    /// Plate colour (the background's, or a feature's colour for a named face).
    pub plate: Color32,
    /// Placed before labels of lower priority.
    pub priority: Priority,
    /// Where the label may go (its tile or inset).
    pub within: Rect,
    /// For a label at an arrow's tip: the arrow's direction on screen, so the label is
    /// tried beyond the arrowhead first and is not read as naming a neighbouring arrow.
    pub beyond: Option<Vec2>,
    /// It names an area (a face), whose leader line reaches into it: when no nearer place is
    /// free it may also go `FAR_RINGS` away, clear of the points and edges marked inside.
    pub area: bool,
}

/// A placed label.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The label.
    pub label: Label,
    /// Its plate (egui points).
    pub rect: Rect,
    /// A leader line from the anchor to the plate, when it was set away.
    pub leader: Option<[Pos2; 2]>,
}

/// The result of a placement.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Placed labels, highest priority first.
    pub placed: Vec<Placed>,
    /// Labels that found no room.
    pub dropped: Vec<Label>,
    /// What the labels kept clear of: fixed text, contact markers and the insets (whose own
    /// labels lie within them).
    pub obstacles: Vec<Rect>,
}

/// Padding between text and plate edge (points).
const PAD: Vec2 = Vec2::new(3.0, 1.0);
/// A plate whose distance to another anchor is under this fraction of its distance to its
/// own is taken as naming the other.
const AMBIGUOUS: f32 = 0.6;
/// Distances from the anchor tried, nearest first (points).
const RINGS: [f32; 4] = [7.0, 16.0, 28.0, 44.0];
/// Farther distances an area's label also tries (points): a face seen large holds its
/// contact points, clip planes and their labels, which keep every nearer place.
const FAR_RINGS: [f32; 2] = [64.0, 90.0];

/// Places `labels` clear of `obstacles` (fixed text, markers, insets; an obstacle holding a
/// label's whole `within` area does not keep that label out) and of each other; `measure`
/// gives a text's size in a font.
pub fn place(mut labels: Vec<Label>, obstacles: Vec<Rect>, measure: impl Fn(&str, &FontId) -> Vec2) -> Layout {
    labels.sort_by_key(|l| std::cmp::Reverse(l.priority));
    let anchors: Vec<(Pos2, Rect)> = labels.iter().map(|l| (l.anchor, l.within)).collect();
    let mut out = Layout { obstacles, ..Default::default() };
    for label in labels {
        let size = measure(&label.text, &label.font) + 2.0 * PAD;
        // A reader takes a label for the nearest point it could name: a plate much nearer
        // another label's anchor than its own would name the wrong one.
        let own = |r: &Rect| {
            let d = r.distance_to_pos(label.anchor);
            !anchors.iter().any(|(a, w)| *w == label.within && r.distance_to_pos(*a) < AMBIGUOUS * d)
        };
        // An obstacle that holds the label's whole area (an inset, for the labels drawn in
        // it) does not keep it out.
        let free = |r: &Rect| {
            label.within.contains_rect(*r)
                && !out.obstacles.iter().any(|o| o.intersects(*r) && !o.contains_rect(label.within))
                && !out.placed.iter().any(|p| p.rect.intersects(*r))
                && own(r)
        };
        let mut directions = DIRECTIONS;
        if let Some(b) = label.beyond {
            // Stable: among directions as far along the arrow, the usual order holds.
            directions.sort_by(|p, q| along(*q, b).total_cmp(&along(*p, b)));
        }
        let mut chosen = None;
        let far = if label.area { &FAR_RINGS[..] } else { &[] };
        'rings: for (ring, d) in RINGS.iter().chain(far).enumerate() {
            for dir in directions {
                let r = rect_at(label.anchor, dir, *d, size);
                if free(&r) {
                    chosen = Some((r, ring));
                    break 'rings;
                }
            }
        }
        match chosen {
            Some((rect, ring)) => {
                let leader = (ring > 0).then(|| [label.anchor, nearest_point(rect, label.anchor)]);
                out.placed.push(Placed { label, rect, leader });
            }
            None => out.dropped.push(label),
        }
    }
    out
}

/// Directions tried around an anchor: the four corners, then above, below, right, left.
const DIRECTIONS: [(f32, f32); 8] =
    [(1.0, -1.0), (-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0), (0.0, -1.0), (0.0, 1.0), (1.0, 0.0), (-1.0, 0.0)];

/// How far direction `(dx, dy)` points along `b` (cosine).
fn along((dx, dy): (f32, f32), b: Vec2) -> f32 {
    Vec2::new(dx, dy).normalized().dot(b.normalized())
}

/// The plate of `size` set `d` away from `anchor` in direction `dir`: its nearest edge or
/// corner at that distance.
fn rect_at(anchor: Pos2, (dx, dy): (f32, f32), d: f32, size: Vec2) -> Rect {
    let x = match dx {
        v if v > 0.0 => anchor.x + d,
        v if v < 0.0 => anchor.x - d - size.x,
        _ => anchor.x - size.x * 0.5,
    };
    let y = match dy {
        v if v > 0.0 => anchor.y + d,
        v if v < 0.0 => anchor.y - d - size.y,
        _ => anchor.y - size.y * 0.5,
    };
    Rect::from_min_size(Pos2::new(x, y), size)
}

fn nearest_point(r: Rect, p: Pos2) -> Pos2 {
    Pos2::new(p.x.clamp(r.min.x, r.max.x), p.y.clamp(r.min.y, r.max.y))
}

/// Paints the layout: leader lines, plates, text.
pub fn paint(painter: &egui::Painter, layout: &Layout) {
    // Every leader first: one that crosses another label's plate passes under it instead of
    // striking its text through.
    for p in &layout.placed {
        if let Some([a, b]) = p.leader {
            painter.line_segment([a, b], egui::Stroke::new(1.0, p.label.colour.gamma_multiply(0.7)));
        }
    }
    for p in &layout.placed {
        painter.rect_filled(p.rect, 3.0, p.label.plate);
        painter.text(p.rect.min + PAD, egui::Align2::LEFT_TOP, &p.label.text, p.label.font.clone(), p.label.colour);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(x: f32, y: f32, text: &str, priority: Priority) -> Label {
        Label {
            anchor: Pos2::new(x, y),
            text: text.into(),
            font: FontId::proportional(13.0),
            colour: Color32::BLACK,
            plate: Color32::WHITE,
            priority,
            within: Rect::from_min_size(Pos2::ZERO, Vec2::new(400.0, 300.0)),
            beyond: None,
            area: false,
        }
    }

    /// Text 7 points a character, 14 high.
    fn measure(s: &str, _: &FontId) -> Vec2 {
        Vec2::new(7.0 * s.chars().count() as f32, 14.0)
    }

    #[test]
    fn crowded_labels_never_overlap_and_keep_clear_of_markers() {
        // Twelve labels on nearly the same point, with a marker on each anchor.
        let labels: Vec<Label> =
            (0..12).map(|k| label(200.0 + k as f32, 150.0, &format!("{k}: 12.34 N·s"), 1)).collect();
        let markers: Vec<Rect> = labels.iter().map(|l| Rect::from_center_size(l.anchor, Vec2::splat(10.0))).collect();
        let out = place(labels, markers.clone(), measure);
        assert!(out.placed.len() >= 8, "{} placed", out.placed.len());
        for (i, a) in out.placed.iter().enumerate() {
            assert!(!markers.iter().any(|m| m.intersects(a.rect)), "label {i} covers a marker");
            for b in &out.placed[i + 1..] {
                assert!(!a.rect.intersects(b.rect), "{:?} overlaps {:?}", a.rect, b.rect);
            }
        }
        assert!(out.placed.iter().any(|p| p.leader.is_some()), "set-away labels get leaders");
        assert_eq!(out.placed.len() + out.dropped.len(), 12);
    }

    #[test]
    fn an_arrows_label_goes_beyond_its_head() {
        // Two tips close together: one arrow points up, the other up and to the left. Each
        // label sits on its own arrow's side, past the head.
        let mut up = label(200.0, 100.0, "9.8 N", 1);
        up.beyond = Some(Vec2::new(0.0, -1.0));
        let mut left = label(206.0, 112.0, "9.0 N", 1);
        left.beyond = Some(Vec2::new(-0.6, -0.8));
        let out = place(vec![up, left], Vec::new(), measure);
        let (a, b) = (&out.placed[0], &out.placed[1]);
        assert!(a.rect.max.y < 100.0 && a.rect.min.x < 200.0 && a.rect.max.x > 200.0, "{:?}", a.rect);
        assert!(b.rect.max.x < 206.0, "{:?}", b.rect);
        assert!(!a.rect.intersects(b.rect));
    }

    #[test]
    fn a_label_is_never_nearer_another_anchor_than_its_own() {
        // B's tip sits up and right of A's, under the plate A would take first. Neither
        // plate may be much nearer the other's tip.
        let (a, b) = (label(100.0, 100.0, "A: 1.00 N·s", 2), label(108.0, 86.0, "B: 2.00 N·s", 1));
        let (pa, pb) = (a.anchor, b.anchor);
        let out = place(vec![a, b], Vec::new(), measure);
        assert_eq!(out.placed.len(), 2);
        for p in &out.placed {
            let (own, other) = if p.label.text.starts_with('A') { (pa, pb) } else { (pb, pa) };
            let (d_own, d_other) = (p.rect.distance_to_pos(own), p.rect.distance_to_pos(other));
            assert!(
                d_other >= AMBIGUOUS * d_own,
                "{}: {d_own} from its anchor, {d_other} from the other",
                p.label.text
            );
        }
    }

    #[test]
    fn lower_priorities_give_way() {
        // Room for one label only.
        let mut labels = vec![label(20.0, 20.0, "low!", 0), label(20.0, 20.0, "high", 9)];
        for l in &mut labels {
            l.within = Rect::from_min_size(Pos2::new(0.0, 0.0), Vec2::new(80.0, 40.0));
        }
        let out = place(labels, Vec::new(), measure);
        assert_eq!(out.placed.len(), 1);
        assert_eq!(out.placed[0].label.text, "high");
        assert_eq!(out.dropped[0].text, "low!");
    }

    /// An inset is an obstacle to the view's labels, not to its own: a view's label anchored
    /// in the inset is set outside it, and the inset's label, placed within it, stays in it.
    #[test]
    fn an_inset_keeps_out_the_views_labels_but_not_its_own() {
        let inset = Rect::from_min_size(Pos2::new(10.0, 150.0), Vec2::new(160.0, 140.0));
        let view = label(90.0, 160.0, "3: 1.00 N·s", 2);
        let mut own = label(90.0, 220.0, "face 3 of A", 1);
        own.within = inset;
        let out = place(vec![view, own], vec![inset], measure);
        assert_eq!(out.placed.len(), 2, "{:?}", out.dropped);
        for p in &out.placed {
            match p.label.text.as_str() {
                "face 3 of A" => assert!(inset.contains_rect(p.rect), "{:?}", p.rect),
                _ => assert!(!inset.intersects(p.rect), "{:?} over the inset", p.rect),
            }
        }
    }

    #[test]
    fn every_leader_is_painted_before_any_plate() {
        // Crowded labels: some are set away with leaders, which may cross another's plate.
        let labels: Vec<Label> =
            (0..12).map(|k| label(200.0 + k as f32, 150.0, &format!("{k}: 12.34 N·s"), 1)).collect();
        let layout = place(labels, Vec::new(), measure);
        let leaders = layout.placed.iter().filter(|p| p.leader.is_some()).count();
        assert!(leaders >= 2, "{leaders} leaders");
        let ctx = egui::Context::default();
        let mut out = ctx.run_pass(egui::RawInput::default(), |ctx| {
            paint(&ctx.layer_painter(egui::LayerId::background()), &layout);
        });
        // The font atlas is not uploaded anywhere (a debug build checks it is handled).
        out.textures_delta.clear();
        let kinds: Vec<bool> = out
            .shapes
            .iter()
            .filter_map(|c| match c.shape {
                egui::Shape::LineSegment { .. } => Some(true),
                egui::Shape::Rect(_) => Some(false),
                _ => None,
            })
            .collect();
        assert_eq!(kinds.iter().filter(|k| **k).count(), leaders);
        assert_eq!(kinds.iter().filter(|k| !**k).count(), layout.placed.len());
        assert!(kinds.windows(2).all(|w| w[0] || !w[1]), "a leader painted after a plate: {kinds:?}");
    }

    /// A face seen large: its name is wide, and the face holds four contact points at its
    /// corners (markers, with their impulse labels) and four clip planes' labels at its
    /// edges' midpoints, so every place within the usual rings overlaps a marker or lies
    /// nearer another anchor. A point's label there is dropped; the face's, which names an
    /// area, is set farther out with a leader into the face, clear of everything else.
    #[test]
    fn a_large_faces_name_goes_farther_out_rather_than_away() {
        let (cx, cy, hx, hy) = (200.0, 150.0, 60.0, 25.0);
        let corners = [(cx - hx, cy - hy), (cx + hx, cy - hy), (cx + hx, cy + hy), (cx - hx, cy + hy)];
        let edges = [(cx, cy - hy), (cx + hx, cy), (cx, cy + hy), (cx - hx, cy)];
        let markers: Vec<Rect> =
            corners.iter().map(|&(x, y)| Rect::from_center_size(Pos2::new(x, y), Vec2::splat(12.0))).collect();
        let run = |area: bool| {
            let mut face = label(cx, cy, "reference face (on pedestal)", 9);
            face.area = area;
            let mut labels = vec![face];
            labels.extend(corners.iter().enumerate().map(|(k, &(x, y))| label(x, y, &format!("{k}: 35.3 N·s"), 3)));
            labels.extend(edges.iter().enumerate().map(|(k, &(x, y))| label(x, y, &format!("plane {}", k + 1), 5)));
            place(labels, markers.clone(), measure)
        };
        let point = run(false);
        assert!(point.dropped.iter().any(|l| l.priority == 9), "without the far rings it finds room");
        let area = run(true);
        let face = area.placed.iter().find(|p| p.label.priority == 9).expect("the face's name is placed");
        let [a, b] = face.leader.expect("a leader into the face");
        assert_eq!(a, Pos2::new(cx, cy));
        assert!(b.distance(a) > 44.0, "set beyond the usual rings: {}", b.distance(a));
        assert!(!markers.iter().any(|m| m.intersects(face.rect)));
        assert!(!area.placed.iter().any(|p| p.label.priority != 9 && p.rect.intersects(face.rect)));
        assert_eq!(area.placed.len(), point.placed.len() + 1, "no other label gave way");
    }
}
