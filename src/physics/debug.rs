//! Debug records: plain data describing how a contact was found, computed on request for
//! one pair and never in the stepping hot path. The renderer and the panel only read these.
//!
//! - [`SatRecord`]: every face query of A and of B, every edge pair with its Gauss-map
//!   verdict (Minkowski face, pruned, or skipped as near-parallel) and separation, the
//!   three winners, the chosen axis and why, and the manifold the narrow phase builds from
//!   it by the narrow phase's own rule (`hull_hull::contact_from_sat`): where a face's
//!   clipped points miss the hulls' overlap, the edge pair's, and where the chosen edge pair
//!   does not realise its axis, the best face's, each with the reason.
//! - [`GaussMap`]: a hull's face normals (points on the unit sphere) and edges (great-circle
//!   arcs between the normals of the edge's two faces), in world axes; [`GaussMap::negated`]
//!   gives the map of −B, so overlaying A's map with −B's shows the Minkowski faces of
//!   A − B where arcs cross.
//! - [`MinkowskiRecord`]: the polytope A − B = {a − b} with each face tagged as coming
//!   from a face of A, a face of −B, or an edge–edge pair, and the origin's signed distance.
//! - [`crate::physics::collide::clip::ClipRecord`]: reference face, incident face, the
//!   polygon after every clip plane, kept and reduced points.

use crate::physics::collide::clip::ClipRecord;
use crate::physics::collide::hull_hull::{contact_from_sat, face_contact_on, realises};
use crate::physics::collide::record::CollideRecord;
use crate::physics::collide::sat::{
    edge_of, edge_separation, edges_in_frame, face_separation, is_minkowski_face, preference_bar, sat, Axis, SatResult,
    REL_EDGE_TOLERANCE, REL_FACE_TOLERANCE,
};
use crate::physics::collide::{CollideConfig, ContactKind, Manifold, Scratch};
use crate::physics::hull::Hull;
use crate::physics::math::Iso;
use glam::Vec3;

/// One face query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceQueryRecord {
    /// Face index.
    pub face: u32,
    /// Separation of the other hull from this face's plane.
    pub separation: f32,
    /// The other hull's support vertex.
    pub support_vertex: u32,
}

/// Gauss-map verdict for an edge pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgePairStatus {
    /// The arcs cross: the pair builds a Minkowski face and was tested.
    MinkowskiFace,
    /// The arcs do not cross: pruned without computing a separation.
    Pruned,
    /// The arcs cross but the edges are nearly parallel: covered by the face queries.
    Parallel,
}

/// One edge pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgePairRecord {
    /// Half-edge of A (even).
    pub edge_a: u32,
    /// Half-edge of B (even).
    pub edge_b: u32,
    /// Gauss-map verdict.
    pub status: EdgePairStatus,
    /// Separation along the oriented axis (only for Minkowski faces).
    pub separation: Option<f32>,
    /// Unit axis in world space (only for Minkowski faces).
    pub axis: Option<Vec3>,
    /// The arc test's triple products (A's arc from face normal a to b, −B's from c to d):
    /// c·(b×a), d·(b×a), a·(d×c), b·(d×c). The arcs cross, and the pair builds a Minkowski
    /// face, when the first two differ in sign, the last two differ in sign, and the first
    /// and last agree (`sat::is_minkowski_face`).
    pub triple: [f32; 4],
}

/// Every SAT query for a pair, and the decision.
#[derive(Clone, Debug, PartialEq)]
pub struct SatRecord {
    /// All faces of A against B.
    pub faces_a: Vec<FaceQueryRecord>,
    /// All faces of B against A.
    pub faces_b: Vec<FaceQueryRecord>,
    /// All unique edge pairs.
    pub edge_pairs: Vec<EdgePairRecord>,
    /// The full test's result (best queries; early exits disabled).
    pub result: SatResult,
    /// Contact type that won (None if separated).
    pub winner: Option<ContactKind>,
    /// World-space axis of the winner, pointing from A to B.
    pub axis: Vec3,
    /// Why the winner won, in words for the inspector.
    pub reason: String,
    /// The manifold built from the winner.
    pub manifold: Manifold,
    /// Clip stages when the winner is a face, or an edge pair whose faces were clipped.
    pub clip: Option<ClipRecord>,
}

/// A hull's Gauss map in world axes.
#[derive(Clone, Debug, PartialEq)]
pub struct GaussMap {
    /// Face normals (unit vectors).
    pub normals: Vec<Vec3>,
    /// Arcs as (face, face) index pairs, one per unique edge, in even half-edge order.
    pub arcs: Vec<(u32, u32)>,
}

impl GaussMap {
    /// The Gauss map of `h` posed at `x`.
    pub fn of(h: &Hull, x: &Iso) -> GaussMap {
        GaussMap {
            normals: h.faces().iter().map(|f| x.transform_vector(f.normal)).collect(),
            arcs: (0..h.edges().len()).step_by(2).map(|e| (h.edges()[e].face, h.edges()[e + 1].face)).collect(),
        }
    }

    /// The map of the point-reflected hull (−B): every normal negated.
    pub fn negated(&self) -> GaussMap {
        GaussMap { normals: self.normals.iter().map(|n| -*n).collect(), arcs: self.arcs.clone() }
    }

    /// Points along arc `i`, `segments + 1` of them, by slerp on the unit sphere.
    pub fn arc_points(&self, i: usize, segments: usize) -> Vec<Vec3> {
        let (fa, fb) = self.arcs[i];
        slerp_points(self.normals[fa as usize], self.normals[fb as usize], segments)
    }
}

/// `segments + 1` points on the great-circle arc from unit `a` to unit `b`.
pub fn slerp_points(a: Vec3, b: Vec3, segments: usize) -> Vec<Vec3> {
    let angle = a.dot(b).clamp(-1.0, 1.0).acos();
    (0..=segments)
        .map(|i| {
            let t = i as f32 / segments.max(1) as f32;
            if angle < 1e-5 {
                a
            } else {
                ((a * ((1.0 - t) * angle).sin() + b * (t * angle).sin()) / angle.sin()).normalize()
            }
        })
        .collect()
}

/// Where a face of the Minkowski difference comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MinkowskiFaceKind {
    /// Parallel to a face of A.
    FaceOfA,
    /// Parallel to a face of −B.
    FaceOfB,
    /// Spanned by an edge of A and an edge of B.
    EdgeEdge,
}

/// The Minkowski difference A − B as a convex polytope (world axes, origin = coincidence).
#[derive(Clone, Debug)]
pub struct MinkowskiRecord {
    /// The polytope.
    pub hull: Hull,
    /// Kind of each face of `hull`.
    pub kinds: Vec<MinkowskiFaceKind>,
    /// Signed distance of the origin to the polytope's boundary along the best face
    /// (positive: origin outside ⇒ shapes apart; negative: penetration depth).
    pub origin_separation: f32,
    /// The face of `hull` that realises `origin_separation`.
    pub closest_face: u32,
}

/// SAT record of two hulls with all queries (no early exit) and the manifold it builds.
pub fn sat_record(a: &Hull, xa: &Iso, b: &Hull, xb: &Iso, cfg: &CollideConfig) -> SatRecord {
    let rel = Iso::relative(xa, xb);
    let inv = rel.inverse();
    let faces_a: Vec<FaceQueryRecord> = (0..a.faces().len() as u32)
        .map(|f| {
            let (s, v) = face_separation(a, f, b, &rel);
            FaceQueryRecord { face: f, separation: s, support_vertex: v }
        })
        .collect();
    let faces_b: Vec<FaceQueryRecord> = (0..b.faces().len() as u32)
        .map(|f| {
            let (s, v) = face_separation(b, f, a, &inv);
            FaceQueryRecord { face: f, separation: s, support_vertex: v }
        })
        .collect();
    let mut eb = Vec::new();
    edges_in_frame(b, &rel, &mut eb);
    let mut edge_pairs = Vec::new();
    for ea in (0..a.edges().len()).step_by(2) {
        let (pa, dir_a, na, nb, bxa) = edge_of(a, ea);
        for (k, e) in eb.iter().enumerate() {
            let mut rec = EdgePairRecord {
                edge_a: ea as u32,
                edge_b: 2 * k as u32,
                status: EdgePairStatus::Pruned,
                separation: None,
                axis: None,
                triple: [e.c.dot(bxa), e.d.dot(bxa), na.dot(e.dxc), nb.dot(e.dxc)],
            };
            if is_minkowski_face(na, nb, bxa, e.c, e.d, e.dxc) {
                match edge_separation(pa, dir_a, e.p, e.e, a.centroid()) {
                    Some((s, n)) => {
                        rec.status = EdgePairStatus::MinkowskiFace;
                        rec.separation = Some(s);
                        rec.axis = Some(xa.transform_vector(n));
                    }
                    None => rec.status = EdgePairStatus::Parallel,
                }
            }
            edge_pairs.push(rec);
        }
    }
    // The winners as the hot path computes them (no early exit: margin = +∞), and the
    // contact the narrow phase's own rule builds from them (`contact_from_sat`).
    let mut scratch = Scratch::default();
    let result = sat(a, b, &rel, f32::INFINITY, &mut scratch.edges_b);
    let mut manifold = Manifold::default();
    if result.separation() > cfg.margin {
        let reason =
            format!("separated: best separation {:.4} m exceeds the margin {:.4} m", result.separation(), cfg.margin);
        return SatRecord {
            faces_a,
            faces_b,
            edge_pairs,
            result,
            winner: None,
            axis: Vec3::ZERO,
            reason,
            manifold,
            clip: None,
        };
    }
    let mut built = CollideRecord::default();
    contact_from_sat(a, xa, b, xb, &result, cfg, &mut scratch, &mut manifold, Some(&mut built));
    let (fa, fb) = (result.face_a.separation, result.face_b.separation);
    // The bars of the face preference (`sat::beats`): a challenger must exceed the
    // incumbent by the relative tolerance of its magnitude plus half the slop.
    let bar = |incumbent: f32, rel: f32| preference_bar(incumbent, rel, 0.5 * cfg.slop);
    let edge_bar = bar(fa.max(fb), REL_EDGE_TOLERANCE);
    let edge_rule = if result.edge.separation.is_finite() {
        format!(
            "the best edge pair ({:+.4} m) would need > {:+.4} m (best face {:+.4} m + 10 % of its size + half the slop)",
            result.edge.separation,
            edge_bar,
            fa.max(fb)
        )
    } else {
        "no edge pair builds a Minkowski face".to_string()
    };
    let chosen = result.choose(cfg);
    let mut reason = match chosen {
        Axis::Edge(e) => format!(
            "edge pair {}/{} wins: {:+.4} m > {:+.4} m (best face {:+.4} m + 10 % of its size + half the slop)",
            e.edge_a,
            e.edge_b,
            e.separation,
            edge_bar,
            fa.max(fb)
        ),
        Axis::FaceA(f) => format!(
            "face {} of A wins (faces are preferred): B's best face ({:+.4} m) would need > {:+.4} m (A's + 2 % of its size + half the slop); {}",
            f.face,
            fb,
            bar(fa, REL_FACE_TOLERANCE),
            edge_rule
        ),
        Axis::FaceB(f) => format!(
            "face {} of B wins: {:+.4} m > {:+.4} m (A's best face {:+.4} m + 2 % of its size + half the slop); {}",
            f.face,
            fb,
            bar(fa, REL_FACE_TOLERANCE),
            fa,
            edge_rule
        ),
    };
    // Where the contact was built on another axis than the preference's, or on the chosen
    // face although it misses the overlap, why.
    let overlap = -result.separation();
    match (chosen, built.axis) {
        (Axis::FaceA(f) | Axis::FaceB(f), Some(Axis::Edge(e))) => {
            let (mut face, flipped) = (Manifold::default(), matches!(chosen, Axis::FaceB(_)));
            face_contact_on(a, xa, b, xb, f.face, flipped, cfg, &mut scratch, &mut face, None);
            reason = format!(
                "{reason}. But the face's clipped points reach only {:+.4} m where the hulls overlap by {overlap:.4} m (its deepest vertex lies past the face's edge), so edge pair {}/{} is the contact",
                face.max_depth(),
                e.edge_a,
                e.edge_b
            );
        }
        (Axis::FaceA(_) | Axis::FaceB(_), Some(Axis::FaceA(_) | Axis::FaceB(_)))
            if !realises(&manifold, overlap, cfg) =>
        {
            let edge = if result.edge.separation.is_finite() {
                "the best edge pair does not realise its axis either"
            } else {
                "no edge pair builds a Minkowski face"
            };
            reason = format!(
                "{reason}. Its clipped points reach only {:+.4} m where the hulls overlap by {overlap:.4} m, but {edge}, so the face's points are the contact",
                manifold.max_depth()
            );
        }
        (Axis::Edge(e), Some(Axis::FaceA(f) | Axis::FaceB(f))) => {
            let hull = if matches!(built.axis, Some(Axis::FaceB(_))) { "B" } else { "A" };
            reason = format!(
                "{reason}. But edge pair {}/{} does not realise that separation here (within half the slop, with its two edges the hulls' supports along its axis), so face {} of {hull}, the best face, is the contact",
                e.edge_a, e.edge_b, f.face
            );
        }
        _ => {}
    }
    let (winner, axis) = match built.axis {
        Some(Axis::Edge(_)) => (Some(ContactKind::Edge), manifold.normal),
        Some(Axis::FaceA(f)) => (Some(ContactKind::FaceA), xa.transform_vector(a.faces()[f.face as usize].normal)),
        Some(Axis::FaceB(f)) => (Some(ContactKind::FaceB), -xb.transform_vector(b.faces()[f.face as usize].normal)),
        None => (None, Vec3::ZERO),
    };
    let clip = built.clipped.then_some(built.clip);
    SatRecord { faces_a, faces_b, edge_pairs, result, winner, axis, reason, manifold, clip }
}

/// The Minkowski difference A − B of two posed hulls (world axes), faces tagged.
pub fn minkowski_difference(a: &Hull, xa: &Iso, b: &Hull, xb: &Iso) -> Option<MinkowskiRecord> {
    let va: Vec<Vec3> = a.vertices().iter().map(|v| xa.transform_point(*v)).collect();
    let vb: Vec<Vec3> = b.vertices().iter().map(|v| xb.transform_point(*v)).collect();
    let pts: Vec<Vec3> = va.iter().flat_map(|p| vb.iter().map(move |q| *p - *q)).collect();
    // Every vertex of A − B as it is, unwelded: the polytope drawn is the exact one.
    let hull =
        crate::physics::hull::quickhull::hull_polygons(&pts).and_then(|(v, p)| Hull::from_polygons(&v, &p)).ok()?;
    let na: Vec<Vec3> = a.faces().iter().map(|f| xa.transform_vector(f.normal)).collect();
    let nb: Vec<Vec3> = b.faces().iter().map(|f| -xb.transform_vector(f.normal)).collect();
    let kinds = hull
        .faces()
        .iter()
        .map(|f| {
            if na.iter().any(|n| n.dot(f.normal) > 1.0 - 1e-4) {
                MinkowskiFaceKind::FaceOfA
            } else if nb.iter().any(|n| n.dot(f.normal) > 1.0 - 1e-4) {
                MinkowskiFaceKind::FaceOfB
            } else {
                MinkowskiFaceKind::EdgeEdge
            }
        })
        .collect();
    // Signed distance of the origin: max over faces of (n·0 − d) = −min offset... the origin
    // is inside iff every plane has offset ≥ 0; its separation is max(−offset).
    let (closest_face, origin_separation) = hull
        .faces()
        .iter()
        .enumerate()
        .map(|(i, f)| (i as u32, -f.offset))
        .fold((0, f32::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b });
    Some(MinkowskiRecord { hull, kinds, origin_separation, closest_face })
}
