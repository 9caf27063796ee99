//! Faces on screen for the vector pictures ([`super`]): the painter's order with exact
//! pairwise tests (two faces whose pictures overlap compared by their depths at a point of
//! the overlap), faces that cut through each other split along the line where their depths
//! are equal, and the parts of a depth-tested line or point that opaque faces hide.
//!
//! Known limits: a face is cut at most [`MAX_CUTS`] times (more crossings are ordered whole);
//! faces smaller than [`MIN_AREA`] decide no order.

use super::LINE_DEPTH_BIAS;

/// Depth difference (NDC) above which two faces are taken to cross.
const CROSS_EPS: f64 = 1e-7;
/// Most cuts of one face (a guard against pathological scenes; the rest are ordered whole).
const MAX_CUTS: usize = 16;
/// Faces smaller than this on screen (px²) are not drawn and decide no order.
const MIN_AREA: f64 = 1e-3;

/// A point on screen (px) with its NDC depth (0 near, 1 far).
#[derive(Clone, Copy, Debug)]
pub(super) struct P3 {
    pub(super) x: f64,
    pub(super) y: f64,
    pub(super) z: f64,
}

/// A face on screen: counter-clockwise (in the picture) with its depth plane.
pub(super) struct Face {
    pub(super) pts: Vec<P3>,
    /// Depth as a function of the picture: z = a·x + b·y + c.
    plane: [f64; 3],
    min: (f64, f64),
    max: (f64, f64),
    /// Mean depth (the fallback order).
    depth: f64,
    pub(super) fill: [u8; 3],
    pub(super) alpha: f32,
    /// The draw it belongs to, when that draw is one convex solid (its visible faces never
    /// overlap each other).
    convex: Option<usize>,
    /// Facet of a smooth surface (drawn with a seam stroke).
    pub(super) smooth: bool,
}

fn signed_area(p: &[P3]) -> f64 {
    let mut a = 0.0;
    for i in 0..p.len() {
        let (u, v) = (p[i], p[(i + 1) % p.len()]);
        a += u.x * v.y - v.x * u.y;
    }
    a * 0.5
}

impl Face {
    pub(super) fn new(
        mut pts: Vec<P3>,
        fill: [u8; 3],
        alpha: f32,
        convex: Option<usize>,
        smooth: bool,
    ) -> Option<Face> {
        if pts.len() < 3 {
            return None;
        }
        let area = signed_area(&pts);
        if area.abs() < MIN_AREA {
            return None;
        }
        if area < 0.0 {
            pts.reverse();
        }
        // Newell's normal of the screen-space polygon (x, y, z), then z as a function of x, y.
        let (mut n, mut c) = ([0.0f64; 3], [0.0f64; 3]);
        for i in 0..pts.len() {
            let (u, v) = (pts[i], pts[(i + 1) % pts.len()]);
            n[0] += (u.y - v.y) * (u.z + v.z);
            n[1] += (u.z - v.z) * (u.x + v.x);
            n[2] += (u.x - v.x) * (u.y + v.y);
            c[0] += u.x;
            c[1] += u.y;
            c[2] += u.z;
        }
        let k = pts.len() as f64;
        let c = [c[0] / k, c[1] / k, c[2] / k];
        if n[2].abs() < 1e-12 {
            return None;
        }
        let plane = [-n[0] / n[2], -n[1] / n[2], c[2] + (n[0] * c[0] + n[1] * c[1]) / n[2]];
        let min = pts.iter().fold((f64::MAX, f64::MAX), |m, p| (m.0.min(p.x), m.1.min(p.y)));
        let max = pts.iter().fold((f64::MIN, f64::MIN), |m, p| (m.0.max(p.x), m.1.max(p.y)));
        Some(Face { pts, plane, min, max, depth: c[2], fill, alpha, convex, smooth })
    }

    fn z_at(&self, x: f64, y: f64) -> f64 {
        self.plane[0] * x + self.plane[1] * y + self.plane[2]
    }

    fn overlaps(&self, min: (f64, f64), max: (f64, f64)) -> bool {
        self.min.0 < max.0 && min.0 < self.max.0 && self.min.1 < max.1 && min.1 < self.max.1
    }
}

/// `subject` cut to the inside of the counter-clockwise convex polygon `clip` (2D).
fn clip_convex(subject: &[(f64, f64)], clip: &[P3]) -> Vec<(f64, f64)> {
    let mut poly = subject.to_vec();
    for i in 0..clip.len() {
        if poly.is_empty() {
            break;
        }
        let (e0, e1) = (clip[i], clip[(i + 1) % clip.len()]);
        let side = |p: (f64, f64)| (e1.x - e0.x) * (p.1 - e0.y) - (e1.y - e0.y) * (p.0 - e0.x);
        let input = std::mem::take(&mut poly);
        for k in 0..input.len() {
            let (a, b) = (input[k], input[(k + 1) % input.len()]);
            let (sa, sb) = (side(a), side(b));
            if sa >= 0.0 {
                poly.push(a);
            }
            if (sa >= 0.0) != (sb >= 0.0) {
                let t = sa / (sa - sb);
                poly.push((a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t));
            }
        }
    }
    poly
}

/// The part of the picture that `a` and `b` both cover (a convex polygon), or None where
/// their pictures meet in less than a triangle.
fn common_picture(a: &Face, b: &Face) -> Option<Vec<(f64, f64)>> {
    if !a.overlaps(b.min, b.max) {
        return None;
    }
    let sub: Vec<(f64, f64)> = a.pts.iter().map(|p| (p.x, p.y)).collect();
    let common = clip_convex(&sub, &b.pts);
    (common.len() >= 3).then_some(common)
}

/// Which of `a` and `b` lies nearer where their pictures overlap (judged at the centroid
/// of the overlap): `Some(true)` when `a` is behind `b`, `Some(false)` when in front, None
/// when their pictures do not overlap (or by less than ten times [`MIN_AREA`]).
fn behind(a: &Face, b: &Face) -> Option<bool> {
    let common = common_picture(a, b)?;
    let (mut area, mut cx, mut cy) = (0.0, 0.0, 0.0);
    for i in 0..common.len() {
        let (u, v) = (common[i], common[(i + 1) % common.len()]);
        let cross = u.0 * v.1 - v.0 * u.1;
        area += cross;
        cx += (u.0 + v.0) * cross;
        cy += (u.1 + v.1) * cross;
    }
    if area.abs() * 0.5 < MIN_AREA * 10.0 {
        return None;
    }
    let (cx, cy) = (cx / (3.0 * area), cy / (3.0 * area));
    Some(a.z_at(cx, cy) > b.z_at(cx, cy))
}

/// Where the pictures of `a` and `b` overlap and their depths cross there (faces cutting
/// through each other, e.g. a body sunk into the ground): the line of the picture along
/// which their depths are equal, `l·(x, y, 1) = 0`.
fn crossing(a: &Face, b: &Face) -> Option<[f64; 3]> {
    let common = common_picture(a, b)?;
    let l = [a.plane[0] - b.plane[0], a.plane[1] - b.plane[1], a.plane[2] - b.plane[2]];
    let d = |p: &(f64, f64)| l[0] * p.0 + l[1] * p.1 + l[2];
    let hi = common.iter().map(d).fold(f64::MIN, f64::max);
    let lo = common.iter().map(d).fold(f64::MAX, f64::min);
    (hi > CROSS_EPS && lo < -CROSS_EPS).then_some(l)
}

/// `f` cut along the line `l` into its two sides (either may be None when too small).
fn split(f: &Face, l: [f64; 3]) -> [Option<Face>; 2] {
    let side = |p: &P3| l[0] * p.x + l[1] * p.y + l[2];
    let half = |sign: f64| {
        let mut out = Vec::with_capacity(f.pts.len() + 2);
        for i in 0..f.pts.len() {
            let (a, b) = (f.pts[i], f.pts[(i + 1) % f.pts.len()]);
            let (sa, sb) = (side(&a) * sign, side(&b) * sign);
            if sa >= 0.0 {
                out.push(a);
            }
            if (sa >= 0.0) != (sb >= 0.0) {
                let t = sa / (sa - sb);
                out.push(P3 { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t, z: a.z + (b.z - a.z) * t });
            }
        }
        Face::new(out, f.fill, f.alpha, f.convex, f.smooth)
    };
    [half(1.0), half(-1.0)]
}

/// Every pair (i, j) of `faces` whose pictures' boxes overlap along x (sweep and prune)
/// and that are not two faces of one convex solid (those never overlap in the picture).
fn candidate_pairs(faces: &[Face], mut visit: impl FnMut(usize, usize)) {
    let mut by_x: Vec<usize> = (0..faces.len()).collect();
    by_x.sort_by(|&i, &j| faces[i].min.0.total_cmp(&faces[j].min.0));
    for (k, &i) in by_x.iter().enumerate() {
        for &j in &by_x[k + 1..] {
            if faces[j].min.0 >= faces[i].max.0 {
                break;
            }
            if faces[i].convex.is_none() || faces[i].convex != faces[j].convex {
                visit(i, j);
            }
        }
    }
}

/// `faces` with every pair that cuts through each other cut along their crossing (both
/// faces, the same line), so that the pieces can be ordered.
pub(super) fn split_crossings(faces: Vec<Face>) -> Vec<Face> {
    let n = faces.len();
    let mut cuts: Vec<Vec<[f64; 3]>> = vec![Vec::new(); n];
    candidate_pairs(&faces, |i, j| {
        if let Some(l) = crossing(&faces[i], &faces[j]) {
            cuts[i].push(l);
            cuts[j].push(l);
        }
    });
    let mut out = Vec::with_capacity(n);
    for (f, lines) in faces.into_iter().zip(cuts) {
        let mut pieces = vec![f];
        for l in lines.iter().take(MAX_CUTS) {
            pieces = pieces.iter().flat_map(|p| split(p, *l)).flatten().collect();
        }
        out.extend(pieces);
    }
    out
}

/// The order to paint `faces` in: farthest first, every overlapping pair by its depths
/// where the two overlap (module docs).
pub(super) fn paint_order(faces: &[Face]) -> Vec<usize> {
    let n = faces.len();
    let mut after: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut pending = vec![0u32; n];
    candidate_pairs(faces, |i, j| {
        if let Some(i_behind) = behind(&faces[i], &faces[j]) {
            let (first, then) = if i_behind { (i, j) } else { (j, i) };
            after[first].push(then as u32);
            pending[then] += 1;
        }
    });
    // Kahn's order, farthest of the ready faces first; a cycle (faces that cut through each
    // other) is broken at its farthest face.
    #[derive(PartialEq)]
    struct Key(f64, usize);
    impl Eq for Key {}
    impl PartialOrd for Key {
        fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
            Some(self.cmp(o))
        }
    }
    impl Ord for Key {
        fn cmp(&self, o: &Self) -> std::cmp::Ordering {
            self.0.total_cmp(&o.0).then(o.1.cmp(&self.1))
        }
    }
    let mut ready: std::collections::BinaryHeap<Key> =
        (0..n).filter(|&i| pending[i] == 0).map(|i| Key(faces[i].depth, i)).collect();
    let mut done = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut by_depth: Vec<usize> = (0..n).collect();
    by_depth.sort_by(|&i, &j| faces[j].depth.total_cmp(&faces[i].depth).then(i.cmp(&j)));
    let mut next_forced = 0;
    while order.len() < n {
        let i = match ready.pop() {
            Some(Key(_, i)) if !done[i] => i,
            Some(_) => continue,
            None => {
                while done[by_depth[next_forced]] {
                    next_forced += 1;
                }
                by_depth[next_forced]
            }
        };
        done[i] = true;
        order.push(i);
        for &j in &after[i] {
            let j = j as usize;
            pending[j] = pending[j].saturating_sub(1);
            if pending[j] == 0 && !done[j] {
                ready.push(Key(faces[j].depth, j));
            }
        }
    }
    order
}

/// The parts of the segment `a`–`b` that no opaque face hides (parameters along it).
pub(super) fn visible_parts(a: P3, b: P3, faces: &[Face]) -> Vec<(f64, f64)> {
    let min = (a.x.min(b.x), a.y.min(b.y));
    let max = (a.x.max(b.x) + 1e-9, a.y.max(b.y) + 1e-9);
    let mut hidden: Vec<(f64, f64)> = Vec::new();
    for f in faces.iter().filter(|f| f.alpha >= 0.999 && f.overlaps(min, max)) {
        // Cyrus–Beck: the span of the segment inside the face's picture.
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        for i in 0..f.pts.len() {
            let (e0, e1) = (f.pts[i], f.pts[(i + 1) % f.pts.len()]);
            let (ex, ey) = (e1.x - e0.x, e1.y - e0.y);
            let s0 = ex * (a.y - e0.y) - ey * (a.x - e0.x);
            let ds = ex * dy - ey * dx;
            if ds.abs() < 1e-12 {
                if s0 < 0.0 {
                    t1 = -1.0;
                    break;
                }
            } else {
                let t = -s0 / ds;
                if ds > 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
            }
            if t0 >= t1 {
                break;
            }
        }
        if t0 >= t1 {
            continue;
        }
        // Hidden where the line is farther than the face: d(t) > 0, affine in t.
        let d0 = a.z - LINE_DEPTH_BIAS - f.z_at(a.x, a.y);
        let d1 = b.z - LINE_DEPTH_BIAS - f.z_at(b.x, b.y);
        let d = |t: f64| d0 + (d1 - d0) * t;
        let (da, db) = (d(t0), d(t1));
        let span = match (da > 0.0, db > 0.0) {
            (true, true) => (t0, t1),
            (false, false) => continue,
            (true, false) => (t0, t0 + (t1 - t0) * da / (da - db)),
            (false, true) => (t0 + (t1 - t0) * da / (da - db), t1),
        };
        hidden.push(span);
    }
    hidden.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut parts = Vec::new();
    let mut at = 0.0;
    for (h0, h1) in hidden {
        if h0 > at {
            parts.push((at, h0));
        }
        at = f64::max(at, h1);
    }
    if at < 1.0 {
        parts.push((at, 1.0));
    }
    parts
}

/// The parts of opaque faces that lie nearer than the flat disc of radius `r` at `p` and
/// overlap it (each face cut by the line where its depth equals the disc's).
pub(super) fn occluders(p: P3, r: f64, faces: &[Face]) -> Vec<Vec<(f64, f64)>> {
    let (min, max) = ((p.x - r, p.y - r), (p.x + r, p.y + r));
    let mut out = Vec::new();
    for f in faces.iter().filter(|f| f.alpha >= 0.999 && f.overlaps(min, max)) {
        // Nearer where z_face(x, y) < p.z: the half-plane l·(x, y, 1) > 0 with l as below.
        let l = [-f.plane[0], -f.plane[1], p.z - f.plane[2]];
        let [Some(near), _] = split(f, l) else { continue };
        let poly: Vec<(f64, f64)> = near.pts.iter().map(|q| (q.x, q.y)).collect();
        let centre_dist = poly_distance(&near.pts, (p.x, p.y));
        if centre_dist < r {
            out.push(poly);
        }
    }
    out
}

/// Whether an opaque face lies nearer than `p` at `p`'s own spot on the picture (a marker's
/// test: [`crate::render::draw::ViewDraw::markers`]).
pub(super) fn hidden_at(p: P3, faces: &[Face]) -> bool {
    faces.iter().any(|f| {
        f.alpha >= 0.999
            && f.overlaps((p.x, p.y), (p.x, p.y))
            && f.z_at(p.x, p.y) < p.z
            && poly_distance(&f.pts, (p.x, p.y)) <= 0.0
    })
}

/// Signed distance from `q` to the counter-clockwise convex polygon `pts` (negative inside).
fn poly_distance(pts: &[P3], q: (f64, f64)) -> f64 {
    let mut inside = f64::MIN;
    let mut outside = f64::MAX;
    for i in 0..pts.len() {
        let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
        let (ex, ey) = (b.x - a.x, b.y - a.y);
        let len = (ex * ex + ey * ey).sqrt().max(1e-12);
        // Outward distance to the edge's line (positive outside: clockwise side).
        inside = inside.max(-(ex * (q.1 - a.y) - ey * (q.0 - a.x)) / len);
        let t = (((q.0 - a.x) * ex + (q.1 - a.y) * ey) / (len * len)).clamp(0.0, 1.0);
        outside = outside.min(((q.0 - a.x - ex * t).powi(2) + (q.1 - a.y - ey * t).powi(2)).sqrt());
    }
    if inside <= 0.0 {
        inside
    } else {
        outside
    }
}

/// Whether the polygon `hole` covers the whole disc of radius `r` at `c`.
pub(super) fn covers(hole: &[(f64, f64)], c: (f64, f64), r: f64) -> bool {
    let pts: Vec<P3> = hole.iter().map(|&(x, y)| P3 { x, y, z: 0.0 }).collect();
    poly_distance(&pts, c) <= -r
}
