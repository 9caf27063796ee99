//! Reference/incident face clipping (Sutherland–Hodgman) and reduction to four points.
//!
//! The incident polygon (the face of the other hull most anti-parallel to the reference
//! normal among those around its deepest vertex, [`super::hull_hull::incident_face_at_support`])
//! is clipped against one side plane per reference-face edge. A side plane passes
//! through the edge with normal `edge × n_ref`, which points out of a face wound
//! counter-clockwise. Points with `s·(x − o) ≤ 0` are kept; an edge that crosses the plane
//! adds its intersection.
//!
//! Feature IDs (Box2D-lite style): a vertex of the incident polygon is named by its
//! incoming and outgoing incident edges; a vertex created on side plane `r` replaces the
//! edge on the outside with reference edge `r`. The pair stays the same from step to step
//! while the same features touch.
//!
//! Reduction (Gregorius 2015, Box3D): keep the deepest point; the point farthest from it;
//! the point that maximises the triangle's area; the point furthest outside that triangle.
//! This keeps the support polygon as large as possible, which is what keeps stacks stable.
//! Against a triangle mesh the candidates mix points that touch with points still apart
//! within the speculative margin (a body's corners over a slope that falls away), and the
//! largest area alone can drop the points that carry the body for corners that do not:
//! [`reduce_preferring`] makes each choice among the touching points first, a point
//! counting as touching where the caller foresees it will by the step's end.

use arrayvec::ArrayVec;
use glam::Vec3;

/// A polygon vertex during clipping, with its feature key parts.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClipVertex {
    /// Position in the reference frame.
    pub p: Vec3,
    /// Penetration below the reference plane (filled after clipping).
    pub depth: f32,
    /// Incoming edge is a reference edge (else incident).
    pub in_ref: bool,
    /// Incoming edge index.
    pub in_edge: u32,
    /// Outgoing edge is a reference edge (else incident).
    pub out_ref: bool,
    /// Outgoing edge index.
    pub out_edge: u32,
}

/// Every intermediate polygon of one clip (a face contact's, or an edge contact's along its
/// axis), in world space (for drawing).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClipRecord {
    /// True when the reference face is on B (the normal was flipped).
    pub reference_on_b: bool,
    /// Reference face index on its hull.
    pub reference_face: u32,
    /// Incident face index on its hull.
    pub incident_face: u32,
    /// Reference face polygon.
    pub reference_polygon: Vec<Vec3>,
    /// Incident face polygon before clipping.
    pub incident_polygon: Vec<Vec3>,
    /// The polygon after each side plane, in reference-edge order.
    pub stages: Vec<Vec<Vec3>>,
    /// Points kept by depth, with their depths, before reduction.
    pub kept: Vec<(Vec3, f32)>,
    /// The final (≤ 4) points.
    pub reduced: Vec<Vec3>,
    /// The clip of an edge contact: the edge axis (world, from A to B), along which the
    /// faces were projected onto each other and the depths measured. `None` for a face
    /// contact, whose side planes stand perpendicular to the reference face.
    pub edge_axis: Option<Vec3>,
    /// Stage buffers kept from an earlier clip, so a record refilled every step (a watched
    /// pair, `crate::physics::world::PairRecord`) allocates nothing once warm.
    pub(crate) spare: Vec<Vec<Vec3>>,
}

impl ClipRecord {
    /// Starts a new clip: keeps every buffer's storage, empties its contents.
    pub(crate) fn begin(&mut self, reference_on_b: bool, reference_face: u32, incident_face: u32) {
        self.reference_on_b = reference_on_b;
        self.reference_face = reference_face;
        self.incident_face = incident_face;
        self.edge_axis = None;
        self.reference_polygon.clear();
        self.incident_polygon.clear();
        self.kept.clear();
        self.reduced.clear();
        while let Some(mut s) = self.stages.pop() {
            s.clear();
            self.spare.push(s);
        }
    }

    /// Appends the polygon after one more side plane.
    pub(crate) fn push_stage(&mut self, points: impl Iterator<Item = Vec3>) {
        let mut s = self.spare.pop().unwrap_or_default();
        s.extend(points);
        self.stages.push(s);
    }
}

/// Clips `input` against the plane through `o` with outward normal `s`, writing to `out`.
/// `ref_edge` names the reference edge that owns the plane.
pub fn clip_polygon(input: &[ClipVertex], s: Vec3, o: Vec3, ref_edge: u32, out: &mut Vec<ClipVertex>) {
    out.clear();
    let n = input.len();
    for i in 0..n {
        let a = &input[i];
        let b = &input[(i + 1) % n];
        let da = s.dot(a.p - o);
        let db = s.dot(b.p - o);
        if da <= 0.0 {
            out.push(*a);
        }
        if (da <= 0.0) != (db <= 0.0) {
            let t = da / (da - db);
            let p = a.p + (b.p - a.p) * t;
            let v = if da <= 0.0 {
                ClipVertex { p, depth: 0.0, in_ref: a.out_ref, in_edge: a.out_edge, out_ref: true, out_edge: ref_edge }
            } else {
                ClipVertex { p, depth: 0.0, in_ref: true, in_edge: ref_edge, out_ref: b.in_ref, out_edge: b.in_edge }
            };
            out.push(v);
        }
    }
}

/// Indices of at most four points of `pts` that keep the deepest point and the largest
/// area (see module docs). `n` is the reference normal; `slop` ends the selection early
/// when the remaining extent is negligible.
pub fn reduce_to_four(pts: &[ClipVertex], n: Vec3, slop: f32) -> ArrayVec<usize, 4> {
    reduce::<false>(pts, n, slop, f32::NEG_INFINITY, |v| v.depth)
}

/// [`reduce_to_four`], but each choice after the deepest is made first among the points
/// at least `touching` deep (the mesh passes minus the slop), and among all only where
/// those give none that counts (none farther than the slop; no triangle of area; none
/// outside the triangle). A cube lying across a ridge of a terrain touches it along the
/// ridge, and its corners hang a centimetre over the slopes: the largest area alone keeps
/// the ridge's deep end and the corners, and the cube pivots on that one end; this keeps
/// both ends and then the corners. With `touching` = −∞ it is [`reduce_to_four`].
///
/// A point counts as touching when `reach(point)`, the deepest it gets by the end of the
/// step, is at least `touching`: its depth now, or deeper where the caller foresees the
/// bodies' motion. A hull rolling down a slope touches at its trailing points, and the
/// vertex it rolls onto is still apart: by depth alone a point farther off (over the slope,
/// spanning more area) takes the last place, and the vertex sinks a step's travel deep
/// before the pair is computed again (docs/physics.md, the mesh's contacts).
pub fn reduce_preferring(
    pts: &[ClipVertex],
    n: Vec3,
    slop: f32,
    touching: f32,
    reach: impl Fn(&ClipVertex) -> f32,
) -> ArrayVec<usize, 4> {
    reduce::<true>(pts, n, slop, touching, reach)
}

/// The reduction; `PREFER` compiles the preference for touching points in (the hull
/// pairs' clipping, many per step, runs without it).
fn reduce<const PREFER: bool>(
    pts: &[ClipVertex],
    n: Vec3,
    slop: f32,
    touching: f32,
    reach: impl Fn(&ClipVertex) -> f32,
) -> ArrayVec<usize, 4> {
    let mut out = ArrayVec::new();
    if pts.len() <= 4 {
        out.extend(0..pts.len());
        return out;
    }
    let argmax_in = |only: bool, f: &dyn Fn(&ClipVertex) -> f32| {
        let mut best = (0, f32::NEG_INFINITY);
        for (i, v) in pts.iter().enumerate() {
            if PREFER && only && reach(v) < touching {
                continue;
            }
            let x = f(v);
            if x > best.1 {
                best = (i, x);
            }
        }
        best
    };
    // The touching points' best if it reaches `floor`, else every point's.
    let argmax = |floor: f32, f: &dyn Fn(&ClipVertex) -> f32| {
        if PREFER {
            let b = argmax_in(true, f);
            if b.1 >= floor {
                return b;
            }
        }
        argmax_in(false, f)
    };
    let (i1, _) = argmax_in(false, &|v| v.depth);
    let p1 = pts[i1].p;
    out.push(i1);
    let (i2, d2) = argmax(slop * slop, &|v| (v.p - p1).length_squared());
    if d2.sqrt() < slop {
        return out;
    }
    let p2 = pts[i2].p;
    out.push(i2);
    let area = |a: Vec3, b: Vec3, c: Vec3| (b - a).cross(c - a).dot(n);
    let floor = slop * (p2 - p1).length();
    let (i3, a3) = argmax(floor, &|v| area(p1, p2, v.p).abs());
    if a3 < floor {
        return out;
    }
    let p3 = pts[i3].p;
    out.push(i3);
    let sign = area(p1, p2, p3).signum();
    let (i4, outside) = argmax(f32::MIN_POSITIVE, &|v| {
        -(sign * area(p1, p2, v.p)).min(sign * area(p2, p3, v.p)).min(sign * area(p3, p1, v.p))
    });
    if outside > 0.0 {
        out.push(i4);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(h: f32) -> Vec<ClipVertex> {
        [(-h, -h), (h, -h), (h, h), (-h, h)]
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| ClipVertex {
                p: Vec3::new(x, y, 0.0),
                in_edge: ((i + 3) % 4) as u32,
                out_edge: i as u32,
                ..Default::default()
            })
            .collect()
    }

    #[test]
    fn clipping_a_square_by_a_half_plane_gives_exact_corners() {
        let mut out = Vec::new();
        clip_polygon(&square(1.0), Vec3::X, Vec3::new(0.5, 0.0, 0.0), 7, &mut out);
        let xs: Vec<(f32, f32)> = out.iter().map(|v| (v.p.x, v.p.y)).collect();
        assert_eq!(xs, vec![(-1.0, -1.0), (0.5, -1.0), (0.5, 1.0), (-1.0, 1.0)]);
        // The new points name the crossed incident edge and reference edge 7.
        assert!(!out[1].in_ref && out[1].in_edge == 0 && out[1].out_ref && out[1].out_edge == 7);
        assert!(out[2].in_ref && out[2].in_edge == 7 && !out[2].out_ref && out[2].out_edge == 2);
    }

    #[test]
    fn reduction_of_regular_octagon_keeps_an_inscribed_square() {
        let pts: Vec<ClipVertex> = (0..8)
            .map(|i| {
                let a = i as f32 * std::f32::consts::TAU / 8.0;
                ClipVertex { p: Vec3::new(a.cos(), a.sin(), 0.0), depth: 0.1, ..Default::default() }
            })
            .collect();
        let idx = reduce_to_four(&pts, Vec3::Z, 0.005);
        assert_eq!(idx.len(), 4);
        let mut sorted: Vec<usize> = idx.to_vec();
        sorted.sort();
        // Alternate vertices: the largest quadrilateral (area 2 for circumradius 1).
        assert!(sorted == vec![0, 2, 4, 6] || sorted == vec![1, 3, 5, 7], "{sorted:?}");
    }
}
