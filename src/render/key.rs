//! The overlays' key: what the colours of the contact, impulse, box and axis overlays mean,
//! row by row, listing only what the picture shows (the labels paint the rows under the
//! title, beside the joints' key and the solver graph's legend, or a comparison's once under
//! its tiles, so a picture needs no caption added by hand).
//!
//! The rows follow the drawing's own tests in [`super::views`] (a contact dot for every
//! point when the contacts overlay is on and the graph's is not, an impulse arrow only when
//! it is drawn at all, axes only on moving or selected bodies); `tests/svg.rs` checks them
//! against pictures. The insets' legends are here too ([`inset_legend`]): the renderer
//! keeps their lines clear under each figure. Limits: the depth scale names its two ends,
//! not every shade between.

use super::views::{clip_stage_shown, impulse_arrows, impulse_unit, reduced_colour, IMPULSE_ARROW};
use crate::physics::World;
use crate::scene::format::Overlay;
use crate::view::{colors, Overlays, PairDebug};

/// One row of the key: its head ("contacts:") and each colour drawn with what it means.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyRow {
    /// What the row is about, with its colon.
    pub head: &'static str,
    /// Each colour and its meaning, in the order they are written.
    pub items: Vec<([f32; 3], String)>,
}

/// The key's rows for `w` drawn with `overlays`, `selected` the selected bodies and `clip`
/// the selected pair's records with the clip stage shown (None: the last).
pub fn rows(
    w: &World,
    overlays: &Overlays,
    selected: &[usize],
    clip: Option<(&PairDebug, Option<usize>)>,
) -> Vec<KeyRow> {
    let mut rows = Vec::new();
    let points = || w.contacts().iter().flat_map(|c| c.manifold.points.iter());
    // Contact dots (the graph overlay colours them by graph colour instead, in its legend).
    let mut contacts = Vec::new();
    if overlays.has(Overlay::Contacts) && !overlays.has(Overlay::Graph) {
        if points().any(|p| p.depth >= 0.0) {
            contacts.push((colors::CONTACT_SHALLOW, "touching".to_string()));
            contacts.push((colors::CONTACT_DEEP, "2 cm deep or more".to_string()));
        }
        if points().any(|p| p.depth < 0.0) {
            contacts.push((colors::CONTACT_SPECULATIVE, "apart, within the margin (speculative)".to_string()));
        }
    }
    if overlays.has(Overlay::Normals) && points().next().is_some() {
        contacts.push((colors::NORMAL, "normal".to_string()));
    }
    if !contacts.is_empty() {
        rows.push(KeyRow { head: "contacts:", items: contacts });
    }
    if overlays.has(Overlay::Impulses) {
        let (mut normal, mut friction) = (false, false);
        for c in w.contacts() {
            let Some(unit) = impulse_unit(w, c) else { continue };
            for k in 0..c.manifold.points.len() {
                let (n, f) = impulse_arrows(c, k, unit);
                normal |= n.is_some();
                friction |= f.is_some();
            }
        }
        let mut items = Vec::new();
        if normal {
            items.push((colors::IMPULSE_NORMAL, "normal".to_string()));
        }
        if friction {
            items.push((colors::IMPULSE_FRICTION, "friction".to_string()));
        }
        if !items.is_empty() {
            let last = items.len() - 1;
            items[last].1 += &format!("   (an arrow {IMPULSE_ARROW} m long: the lighter body's weight × 1/60 s)");
            rows.push(KeyRow { head: "impulses:", items });
        }
    }
    let mut boxes = Vec::new();
    if overlays.has(Overlay::Aabbs) && !w.bodies().is_empty() {
        boxes.push((colors::AABB, "bounding box".to_string()));
    }
    if overlays.has(Overlay::EnlargedAabbs) && !w.enlarged_aabbs().is_empty() {
        boxes.push((colors::ENLARGED_AABB, "enlarged box (the broad phase keeps its pairs)".to_string()));
        if w.bodies().iter().zip(w.enlarged_spheres()).any(|(b, _)| b.is_dynamic()) {
            boxes.push((
                colors::ENLARGED_AABB,
                "enlarged sphere, as 3 rings (kept pairs overlap in these too)".to_string(),
            ));
        }
    }
    if !boxes.is_empty() {
        rows.push(KeyRow { head: "boxes:", items: boxes });
    }
    if let (true, Some((pair, stage))) = (overlays.has(Overlay::Clip), clip) {
        rows.extend(clip_row(pair, stage));
    }
    let axes = w.bodies().iter().enumerate().any(|(i, b)| b.is_dynamic() || selected.contains(&i));
    if overlays.has(Overlay::Axes) && axes {
        let items = [(colors::BODY_X, "x"), (colors::BODY_Y, "y"), (colors::BODY_Z, "z")];
        rows.push(KeyRow { head: "body axes:", items: items.map(|(c, t)| (c, t.to_string())).to_vec() });
    }
    rows
}

/// The clip overlay's row ([`super::views`]' `clip_overlay`): the faces, the clipped
/// polygon, and the points the stage shown has (kept by depth, then the manifold's).
fn clip_row(pair: &PairDebug, stage: Option<usize>) -> Option<KeyRow> {
    let Some(rec) = pair.clip.as_ref() else {
        // An edge or curved contact: its points, drawn large.
        let points = !pair.manifold.points.is_empty();
        let items = vec![(
            colors::CLIPPED,
            "the manifold's points (no faces clipped: an edge or a curved contact)".to_string(),
        )];
        return points.then_some(KeyRow { head: "clip:", items });
    };
    let (stage, last) = clip_stage_shown(rec, stage);
    let mut items = vec![
        (colors::REFERENCE, "reference face".to_string()),
        (colors::INCIDENT, "incident face".to_string()),
        (colors::CLIPPED, "clipped polygon".to_string()),
    ];
    if stage > rec.stages.len() && !rec.kept.is_empty() {
        items.push((colors::CONTACT_SHALLOW, "kept by depth (coloured as the contacts)".to_string()));
    }
    if stage == last && !rec.reduced.is_empty() {
        items.push((reduced_colour(), "the manifold's points".to_string()));
    }
    Some(KeyRow { head: "clip:", items })
}

/// The legend of an inset, one colour and meaning a line: the Gauss map's, or the Minkowski
/// difference's of `pair` (each kind of face it has, the segment from the origin when it is
/// long enough to see — a resting pair's nearest face passes through the origin — and the
/// nearest face).
pub fn inset_legend(figure: crate::view::Figure, pair: Option<&PairDebug>) -> Vec<([f32; 3], &'static str)> {
    use crate::physics::debug::MinkowskiFaceKind as Kind;
    match figure {
        crate::view::Figure::Gauss => vec![
            (colors::MAP_A, "A"),
            (colors::MAP_B, "−B"),
            (colors::MINKOWSKI_EDGE, "arcs cross"),
            (colors::AXIS, "axis"),
            (colors::WINNER, "the SAT's winner"),
        ],
        crate::view::Figure::Minkowski => {
            let Some(rec) = pair.and_then(|p| p.minkowski.as_ref()) else { return Vec::new() };
            let has = |k: Kind| rec.kinds.contains(&k);
            let size = rec.hull.vertices().iter().map(|v| v.length()).fold(0.0f32, f32::max);
            let mut legend = Vec::new();
            for (kind, colour, name) in [
                (Kind::FaceOfA, colors::MAP_A, "face of A"),
                (Kind::FaceOfB, colors::MAP_B, "face of −B"),
                (Kind::EdgeEdge, colors::MINKOWSKI_EDGE, "edge × edge"),
            ] {
                if has(kind) {
                    legend.push((colour, name));
                }
            }
            // The arrow is drawn to scale: under a hundredth of the figure it is a dot.
            if rec.origin_separation.abs() > 0.01 * size {
                legend.push((colors::AXIS, "origin to nearest face"));
            }
            legend.push((colors::WINNER, "nearest face (the winner)"));
            legend
        }
        crate::view::Figure::Clip => Vec::new(),
    }
}
