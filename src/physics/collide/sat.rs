//! Separating-axis test between convex hulls (D. Gregorius, "The Separating Axis Test
//! between Convex Polyhedra", GDC 2013).
//!
//! Everything runs in A's body frame: B's pose relative to A (`rel`) is computed once.
//!
//! - **Face queries**: for a face of A with plane (n, d), B's support point in −n gives the
//!   separation `n·s − d`. The same with B's faces against A. Only the support *distance*
//!   is needed to rank faces ([`Hull::support_distance`], a four-lane vertex scan), and the
//!   bounds read the plane separations of the other centroid, computed once per hull from
//!   its face planes in rows (the same numbers then feed the edge bound).
//! - **Edge queries**: the candidate axes are cross products of an edge of A and an edge of
//!   B, but only pairs whose arcs cross on the Gauss map build a face of the Minkowski
//!   difference A − B; any other pair is pruned. For edge eA with face normals (a, b) and
//!   eB with face normals (c', d'), take c = −c', d = −d' (the map of −B) and test
//!   `cba·dba < 0 && adc·bdc < 0 && cba·bdc > 0` with `cba = c·(b×a)`, `dba = d·(b×a)`,
//!   `adc = a·(d×c)`, `bdc = b·(d×c)` — the last condition keeps the arcs on the same
//!   hemisphere. The cross products are computed explicitly, so the test does not depend
//!   on edge winding.
//! - **Edge separation**: axis `eA × eB`, skipped when `|eA × eB| < 0.005·|eA|·|eB|`
//!   (near-parallel edges: a face query covers that direction), oriented away from A's
//!   centroid, separation `n·(pB − pA)`. Each edge's direction is the hull's own
//!   (`Hull::axes`): its ends' difference, or on a very short edge its faces' normals
//!   crossed; B's is turned into A's frame as a vector, never taken between its moved ends
//!   (far from A's origin those round to micrometres).
//!
//! Limits: the separation is exact for the axis it reports; for separated shapes it is a
//! lower bound of the true distance (the closest features may be a vertex pair).

use super::CollideConfig;
use crate::physics::hull::Hull;
use crate::physics::math::Iso;
use glam::{Mat3A, Vec3, Vec3A, Vec4};

/// Edges closer to parallel than this (|eA×eB| / (|eA||eB|) = sin angle) are skipped.
pub const PARALLEL_TOLERANCE: f32 = 0.005;
/// B's face is chosen over A's only if better by this relative factor (Gregorius).
pub const REL_FACE_TOLERANCE: f32 = 0.98;
/// The edge axis is chosen over the best face only if better by this relative factor.
pub const REL_EDGE_TOLERANCE: f32 = 0.90;

/// Whether a `challenger` separation clearly beats the `incumbent` one: by the relative
/// tolerance `rel` of the incumbent's magnitude plus the absolute tolerance `abs`, for
/// either sign of separation (Gregorius' preference of faces over edges, and of A over B).
///
/// Overlapping pairs (incumbent < 0) need `challenger > rel·incumbent + abs`, Gregorius'
/// form. Pairs still apart by less than the speculative margin (incumbent > 0) need
/// `challenger > (2 − rel)·incumbent + abs`: the same margin `(1 − rel)·|incumbent|` on the
/// other side. Multiplying a positive separation by `rel` would *lower* the bar, so an edge
/// pair with exactly the face's separation (two flat faces about to meet: every pair of
/// non-parallel edges in them spans the same axis) would win and the manifold would be a
/// single off-centre point.
#[inline]
pub fn beats(challenger: f32, incumbent: f32, rel: f32, abs: f32) -> bool {
    challenger > preference_bar(incumbent, rel, abs)
}

/// The separation a challenger must exceed to beat `incumbent` ([`beats`]); the debug
/// records print it.
#[inline]
pub fn preference_bar(incumbent: f32, rel: f32, abs: f32) -> f32 {
    let bar = if incumbent < 0.0 { rel * incumbent } else { (2.0 - rel) * incumbent };
    bar + abs
}

/// Best face axis of one hull.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FaceQuery {
    /// Face index on its hull.
    pub face: u32,
    /// Signed separation along the face normal (negative: overlap). The other hull's
    /// support vertex is not named: nothing downstream needs it ([`face_separation`] gives
    /// it for the debug views).
    pub separation: f32,
}

/// Best edge–edge axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeQuery {
    /// Half-edge of A (even index).
    pub edge_a: u32,
    /// Half-edge of B (even index).
    pub edge_b: u32,
    /// Signed separation along the oriented axis (−∞ if no pair qualified).
    pub separation: f32,
}

/// What a pair remembers between steps (temporal coherence, Gregorius 2013).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum SatCache {
    /// Nothing known: run the full test.
    #[default]
    Empty,
    /// Last axis was face `face` of A, with separation `separation` at the last full test
    /// (or at the last check, when that check found the pair still apart along it).
    FaceA {
        /// Face of A.
        face: u32,
        /// Separation at the last full test.
        separation: f32,
    },
    /// Last axis was a face of B.
    FaceB {
        /// Face of B.
        face: u32,
        /// Separation at the last full test.
        separation: f32,
    },
    /// Last axis was an edge pair.
    Edge {
        /// Half-edge of A.
        edge_a: u32,
        /// Half-edge of B.
        edge_b: u32,
        /// Separation at the last full test.
        separation: f32,
    },
}

impl SatCache {
    /// Face `face` of A, or of B where `flipped`, at separation `separation`.
    pub fn face(face: u32, separation: f32, flipped: bool) -> SatCache {
        if flipped {
            SatCache::FaceB { face, separation }
        } else {
            SatCache::FaceA { face, separation }
        }
    }
}

/// B's edge data moved into A's frame once per query.
#[derive(Clone, Copy, Debug, Default)]
pub struct EdgeData {
    /// The edge's origin.
    pub(crate) p: Vec3,
    /// The edge's axis direction (`Hull::axes`: origin to target, or on a very short edge
    /// its faces' normals crossed, of length sin of their angle), turned from B's frame.
    pub(crate) e: Vec3,
    pub(crate) c: Vec3,
    pub(crate) d: Vec3,
    pub(crate) dxc: Vec3,
}

/// B's pose in A's frame as a rotation matrix R (and Rᵀ) plus offset t, built once per
/// query: a face query then turns one normal into B's frame with a matrix product (cheaper
/// than a quaternion rotation) and never moves B's support vertex back, since for A's plane
/// (n, d) and B's vertex v, `n·(R v + t) − d = (Rᵀn)·v + n·t − d`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    r: Mat3A,
    rt: Mat3A,
    t: Vec3A,
}

impl Frame {
    pub(crate) fn new(rel: &Iso) -> Frame {
        let r = Mat3A::from_quat(rel.rot);
        Frame { r, rt: r.transpose(), t: rel.pos.into() }
    }

    /// A's pose in B's frame.
    fn inverse(&self) -> Frame {
        Frame { r: self.rt, rt: self.r, t: -(self.rt * self.t) }
    }

    #[inline]
    fn point(&self, p: Vec3) -> Vec3 {
        (self.r * Vec3A::from(p) + self.t).into()
    }

    #[inline]
    fn vector(&self, v: Vec3) -> Vec3A {
        self.r * Vec3A::from(v)
    }
}

/// Separation of B from face `face` of A (B given in A's frame by `rel`), and B's support
/// vertex.
#[inline]
pub fn face_separation(a: &Hull, face: u32, b: &Hull, rel: &Iso) -> (f32, u32) {
    let f = &a.faces[face as usize];
    let v = b.support(rel.inv_transform_vector(-f.normal));
    let p = rel.transform_point(b.vertices[v as usize]);
    (f.normal.dot(p) - f.offset, v)
}

/// Separation of B from face `face` of A, without naming the support vertex: the SAT
/// cache's check of a remembered face, with one quaternion rotation (no `Frame` for a
/// single face).
#[inline]
pub fn cached_face_separation(a: &Hull, face: u32, b: &Hull, rel: &Iso) -> f32 {
    let f = &a.faces[face as usize];
    let nb = rel.rot.conjugate() * f.normal;
    -b.support_distance(-nb) + f.normal.dot(rel.pos) - f.offset
}

/// [`cached_face_separation`] for face `face` of B (`rel` still B in A's frame): with
/// `x_B = Rᵀ(x_A − t)`, `n·x_B − d = (R n)·(x_A − t) − d`, so no inverse pose is needed.
#[inline]
pub fn cached_face_separation_b(a: &Hull, b: &Hull, face: u32, rel: &Iso) -> f32 {
    let f = &b.faces[face as usize];
    let na = rel.rot * f.normal;
    -a.support_distance(-na) - na.dot(rel.pos) - f.offset
}

/// [`face_separation`] through a [`Frame`], without naming B's support vertex: only the
/// support distance is needed to rank faces ([`Hull::support_distance`]), and
/// `min v·nb = −max v·(−nb)` exactly.
#[inline]
fn face_separation_in(a: &Hull, face: u32, b: &Hull, rel: &Frame) -> f32 {
    let f = &a.faces[face as usize];
    let n = Vec3A::from(f.normal);
    let nb = Vec3::from(rel.rt * n);
    -b.support_distance(-nb) + n.dot(rel.t) - f.offset
}

/// Tries face `face` of A as the axis, keeping it in `best` if it separates more; true once
/// the best separation exceeds `margin` (the caller can stop).
#[inline]
fn consider_face(a: &Hull, face: u32, b: &Hull, rel: &Frame, margin: f32, best: &mut FaceQuery) -> bool {
    let s = face_separation_in(a, face, b, rel);
    if s > best.separation {
        *best = FaceQuery { face, separation: s };
    }
    best.separation > margin
}

/// Best face axis of A against B. Stops early once a separation exceeds `margin`.
pub fn query_faces(a: &Hull, b: &Hull, rel: &Iso, margin: f32) -> FaceQuery {
    query_faces_in(a, b, &Frame::new(rel), margin)
}

fn query_faces_in(a: &Hull, b: &Hull, rel: &Frame, margin: f32) -> FaceQuery {
    let mut best = FaceQuery { face: 0, separation: f32::NEG_INFINITY };
    for face in 0..a.faces.len() as u32 {
        if consider_face(a, face, b, rel, margin, &mut best) {
            break;
        }
    }
    best
}

/// Slack of the culling bounds (m): they skip an axis only when it loses by more than this,
/// so rounding never culls the winner. Relative to the scale of the pair, plus both hulls'
/// own tolerances.
#[inline]
fn bound_slack(a: &Hull, b: &Hull, center_distance: f32) -> f32 {
    1e-3 * (center_distance + a.inner_radius + b.inner_radius) + a.tolerance + b.tolerance
}

/// [`query_faces`] with a bound that skips faces without a support call.
///
/// B contains the ball of radius rB about its centroid and A the ball of radius rA about
/// its own, so along A's face normal n the separation is at most `n·Δ − rA − rB` with Δ the
/// centroid offset (Box3D's inscribed-sphere bound). The face most aligned with Δ is tried
/// first, which usually makes every other bound lose.
pub fn query_faces_bounded(a: &Hull, b: &Hull, rel: &Iso, margin: f32) -> FaceQuery {
    let rel = Frame::new(rel);
    let mut seps = Vec::new();
    a.planes.separations(rel.point(b.centroid), &mut seps);
    query_faces_bounded_in(a, b, &rel, margin, &seps)
}

/// [`query_faces_bounded`] given `seps`, the plane separations of B's centroid from A's
/// faces (`PlaneRows::separations`). With `gap` the distance of each plane beyond A's
/// centroid, `n·Δ = sep + gap`.
fn query_faces_bounded_in(a: &Hull, b: &Hull, rel: &Frame, margin: f32, seps: &[f32]) -> FaceQuery {
    let delta = rel.point(b.centroid) - a.centroid;
    let radii = a.inner_radius + b.inner_radius - bound_slack(a, b, delta.length());
    let gap = &a.planes.gap[..seps.len()];
    let mut seed = (0u32, f32::NEG_INFINITY);
    for (i, (s, g)) in seps.iter().zip(gap).enumerate() {
        if s + g > seed.1 {
            seed = (i as u32, s + g);
        }
    }
    let mut best = FaceQuery { face: seed.0, separation: f32::NEG_INFINITY };
    if consider_face(a, seed.0, b, rel, margin, &mut best) {
        return best;
    }
    for (face, (s, g)) in seps.iter().zip(gap).enumerate() {
        let face = face as u32;
        if face == seed.0 || s + g - radii < best.separation {
            continue;
        }
        if consider_face(a, face, b, rel, margin, &mut best) {
            break;
        }
    }
    best
}

/// Can `n·v` reach `bound` for some unit n on the Gauss-map arc between face normals n1 and
/// n2 (cosine `c` between them), given `a1 = n1·v` and `a2 = n2·v`?
///
/// At the ends the values are a1 and a2. Inside the arc, n·v has a single critical point,
/// a maximum, which exists when `lo − c·hi ≥ 0` (lo, hi: the smaller and larger end value)
/// and equals the length of v projected on the plane of n1 and n2:
/// `(a1² + a2² − 2c·a1·a2)/(1 − c²) = hi² + (lo − c·hi)²/(1 − c²)`. Arcs of nearly
/// parallel normals (1 − c² < 1e-4) are kept whenever they might peak inside.
#[inline]
pub fn arc_reaches(a1: f32, a2: f32, c: f32, bound: f32) -> bool {
    let (hi, lo) = if a1 > a2 { (a1, a2) } else { (a2, a1) };
    if hi >= bound {
        return true;
    }
    let u = lo - c * hi;
    if u < 0.0 {
        return false;
    }
    let s = 1.0 - c * c;
    s < 1e-4 || u * u >= (bound - hi) * (bound + hi) * s
}

/// Unique edges of `h` (half-edge indices) whose arc can reach `bound`, given the plane
/// separations `seps` of a point (in `h`'s frame) from every face of `h`.
///
/// Four arcs at a time: [`arc_reaches`]'s operations in lanes, the same results bit for bit.
fn edge_candidates(h: &Hull, seps: &[f32], bound: f32, out: &mut Vec<u32>) {
    out.clear();
    let (b, zero) = (Vec4::splat(bound), Vec4::ZERO);
    let mut chunks = h.arcs.chunks_exact(4);
    for (g, arcs) in chunks.by_ref().enumerate() {
        let lane = |f: &dyn Fn(&crate::physics::hull::EdgeArc) -> f32| {
            Vec4::new(f(&arcs[0]), f(&arcs[1]), f(&arcs[2]), f(&arcs[3]))
        };
        let s1 = lane(&|a| seps[a.faces[0] as usize]);
        let s2 = lane(&|a| seps[a.faces[1] as usize]);
        let c = lane(&|a| a.cos);
        // max/min as in `arc_reaches` (equal values give equal results either way).
        let (hi, lo) = (s1.max(s2), s1.min(s2));
        let u = lo - c * hi;
        let sin2 = Vec4::ONE - c * c;
        let inner = u.cmpge(zero) & (sin2.cmplt(Vec4::splat(1e-4)) | (u * u).cmpge((b - hi) * (b + hi) * sin2));
        let mut bits = (hi.cmpge(b) | inner).bitmask();
        while bits != 0 {
            out.push(2 * (4 * g as u32 + bits.trailing_zeros()));
            bits &= bits - 1;
        }
    }
    let done = h.arcs.len() - chunks.remainder().len();
    for (k, arc) in chunks.remainder().iter().enumerate() {
        if arc_reaches(seps[arc.faces[0] as usize], seps[arc.faces[1] as usize], arc.cos, bound) {
            out.push(2 * (done + k) as u32);
        }
    }
}

/// Gauss-map test: do arcs (a, b) and (c, d) cross? `bxa = b × a`, `dxc = d × c`.
#[inline]
pub fn is_minkowski_face(a: Vec3, b: Vec3, bxa: Vec3, c: Vec3, d: Vec3, dxc: Vec3) -> bool {
    let cba = c.dot(bxa);
    let dba = d.dot(bxa);
    let adc = a.dot(dxc);
    let bdc = b.dot(dxc);
    cba * dba < 0.0 && adc * bdc < 0.0 && cba * bdc > 0.0
}

/// Separation along `eA × eB` oriented away from A's centroid `ca`; `None` if the edges
/// are nearly parallel.
#[inline]
pub fn edge_separation(pa: Vec3, ea: Vec3, pb: Vec3, eb: Vec3, ca: Vec3) -> Option<(f32, Vec3)> {
    let axis = ea.cross(eb);
    let len = axis.length();
    // `<=`, not `<`: an edge whose ends coincide in f32 once moved into A's frame (a 1 mm
    // needle's edge, 40 m from the origin) has length 0, and 0 < 0 would let 0/0 through
    // as the normal (the fuzzer found NaN manifolds against the ground this way).
    if len <= PARALLEL_TOLERANCE * (ea.length_squared() * eb.length_squared()).sqrt() {
        return None;
    }
    let mut n = axis / len;
    if n.dot(pa - ca) < 0.0 {
        n = -n;
    }
    Some((n.dot(pb - pa), n))
}

/// B's unique edge `e` (even half-edge index) in A's frame: origin, direction
/// (`Hull::axes`), the negated face normals (its arc on the Gauss map of −B) and
/// their cross product.
///
/// The direction is turned from B's frame, not taken between the two ends once moved: far
/// from A's origin the moved ends round to the spacing of f32 there (about 4 µm at 50 m),
/// which is most of a short edge.
#[inline]
pub(crate) fn edge_in_frame(b: &Hull, rel: &Frame, e: usize) -> EdgeData {
    let he = &b.edges[e];
    let tw = &b.edges[e + 1];
    let c = -rel.vector(b.faces[he.face as usize].normal);
    let d = -rel.vector(b.faces[tw.face as usize].normal);
    EdgeData {
        p: rel.point(b.vertices[he.origin as usize]),
        e: rel.vector(b.axes[e / 2]).into(),
        c: c.into(),
        d: d.into(),
        dxc: d.cross(c).into(),
    }
}

/// Fills `out` with B's unique edges in A's frame.
pub(crate) fn edges_in_frame(b: &Hull, rel: &Iso, out: &mut Vec<EdgeData>) {
    let rel = Frame::new(rel);
    out.clear();
    out.extend((0..b.edges.len()).step_by(2).map(|e| edge_in_frame(b, &rel, e)));
}

/// A's unique edge `e` (even): origin, axis direction (`Hull::axes`), normals (a, b) and
/// `b × a`.
#[inline]
pub(crate) fn edge_of(a: &Hull, e: usize) -> (Vec3, Vec3, Vec3, Vec3, Vec3) {
    let he = &a.edges[e];
    let tw = &a.edges[e + 1];
    let na = a.faces[he.face as usize].normal;
    let nb = a.faces[tw.face as usize].normal;
    (a.vertices[he.origin as usize], a.axes[e / 2], na, nb, nb.cross(na))
}

/// B's unique edges in A's frame, for the Gauss-map test four at a time: each group holds
/// the x, y, z rows of c, d and d × c (see `edge_in_frame`) for four edges. Unused lanes
/// of the last group are zero, which never passes the test (`c·(b × a) = 0`).
#[derive(Clone, Debug, Default)]
pub struct EdgeSoa {
    groups: Vec<[Vec4; 9]>,
    /// Per edge: a point on it, its axis direction (`EdgeData::e`) and that direction's
    /// squared length.
    p: Vec<Vec3>,
    e: Vec<Vec3>,
    len2: Vec<f32>,
    /// Half-edge index (even) of each entry.
    index: Vec<u32>,
    /// Unique edges of A (half-edge indices) kept by the bound test.
    cand_a: Vec<u32>,
    /// Unique edges of B kept by the bound test.
    cand_b: Vec<u32>,
    /// Plane separations of B's centroid from A's faces, and of A's from B's (scratch of
    /// the bound tests).
    seps_a: Vec<f32>,
    seps_b: Vec<f32>,
}

impl EdgeSoa {
    /// Grows every buffer to at least the capacity `other`'s has ([`super::Scratch::reserve_like`]).
    pub(crate) fn reserve_like(&mut self, other: &EdgeSoa) {
        use super::grow;
        grow(&mut self.groups, other.groups.capacity());
        grow(&mut self.p, other.p.capacity());
        grow(&mut self.e, other.e.capacity());
        grow(&mut self.len2, other.len2.capacity());
        grow(&mut self.index, other.index.capacity());
        grow(&mut self.cand_a, other.cand_a.capacity());
        grow(&mut self.cand_b, other.cand_b.capacity());
        grow(&mut self.seps_a, other.seps_a.capacity());
        grow(&mut self.seps_b, other.seps_b.capacity());
    }

    /// Loads B's edges listed in `cand_b` (or all of them if `all`).
    fn fill(&mut self, b: &Hull, rel: &Frame, all: bool) {
        if all {
            self.cand_b.clear();
            self.cand_b.extend((0..b.edges.len() as u32).step_by(2));
        }
        let n = self.cand_b.len();
        self.groups.clear();
        self.groups.resize(n.div_ceil(4), [Vec4::ZERO; 9]);
        self.p.clear();
        self.e.clear();
        self.len2.clear();
        self.index.clear();
        self.index.extend_from_slice(&self.cand_b);
        for (k, &e) in self.cand_b.iter().enumerate() {
            let ed = edge_in_frame(b, rel, e as usize);
            let (g, lane) = (&mut self.groups[k / 4], k % 4);
            for (row, v) in [ed.c, ed.d, ed.dxc].into_iter().enumerate() {
                g[3 * row][lane] = v.x;
                g[3 * row + 1][lane] = v.y;
                g[3 * row + 2][lane] = v.z;
            }
            self.p.push(ed.p);
            self.e.push(ed.e);
            self.len2.push(ed.e.length_squared());
        }
    }
}

/// Best edge–edge axis over the pairs that build Minkowski faces. Stops early once a
/// separation exceeds `margin`.
///
/// For each edge of A, the Gauss-map test ([`is_minkowski_face`], the same products in the
/// same order) runs on four of B's edges at a time into a lane mask; only the few pairs that
/// pass compute a cross product and a separation.
pub fn query_edges(a: &Hull, b: &Hull, rel: &Iso, margin: f32, soa: &mut EdgeSoa) -> EdgeQuery {
    query_edges_in(a, b, &Frame::new(rel), margin, soa)
}

fn query_edges_in(a: &Hull, b: &Hull, rel: &Frame, margin: f32, soa: &mut EdgeSoa) -> EdgeQuery {
    soa.cand_a.clear();
    soa.cand_a.extend((0..a.edges.len() as u32).step_by(2));
    query_edge_candidates(a, b, rel, margin, soa, true)
}

/// [`query_edges`] over the candidate edges in `soa.cand_a` (and `soa.cand_b` unless `all_b`).
fn query_edge_candidates(a: &Hull, b: &Hull, rel: &Frame, margin: f32, soa: &mut EdgeSoa, all_b: bool) -> EdgeQuery {
    soa.fill(b, rel, all_b);
    let mut best = EdgeQuery { edge_a: 0, edge_b: 0, separation: f32::NEG_INFINITY };
    let ca = a.centroid;
    for &ea in &soa.cand_a {
        let ea = ea as usize;
        let (pa, eav, na, nb, bxa) = edge_of(a, ea);
        let (bx, by, bz) = (Vec4::splat(bxa.x), Vec4::splat(bxa.y), Vec4::splat(bxa.z));
        let (ax, ay, az) = (Vec4::splat(na.x), Vec4::splat(na.y), Vec4::splat(na.z));
        let (nbx, nby, nbz) = (Vec4::splat(nb.x), Vec4::splat(nb.y), Vec4::splat(nb.z));
        let la2 = eav.length_squared();
        for (g, [cx, cy, cz, dx, dy, dz, nx, ny, nz]) in soa.groups.iter().enumerate() {
            let cba = *cx * bx + *cy * by + *cz * bz;
            let dba = *dx * bx + *dy * by + *dz * bz;
            let adc = ax * *nx + ay * *ny + az * *nz;
            let bdc = nbx * *nx + nby * *ny + nbz * *nz;
            let pass = (cba * dba).cmplt(Vec4::ZERO) & (adc * bdc).cmplt(Vec4::ZERO) & (cba * bdc).cmpgt(Vec4::ZERO);
            let mut bits = pass.bitmask();
            while bits != 0 {
                let k = 4 * g + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let axis = eav.cross(soa.e[k]);
                let len = axis.length();
                if len <= PARALLEL_TOLERANCE * (la2 * soa.len2[k]).sqrt() {
                    continue;
                }
                let mut nrm = axis / len;
                if nrm.dot(pa - ca) < 0.0 {
                    nrm = -nrm;
                }
                let s = nrm.dot(soa.p[k] - pa);
                if s > best.separation {
                    best = EdgeQuery { edge_a: ea as u32, edge_b: soa.index[k], separation: s };
                    if s > margin {
                        return best;
                    }
                }
            }
        }
    }
    best
}

/// Separation of a single cached edge pair, if it still builds a Minkowski face.
pub fn cached_edge_separation(a: &Hull, ea: u32, b: &Hull, eb: u32, rel: &Iso) -> Option<f32> {
    let (pa, dir_a, na, nb, bxa) = edge_of(a, ea as usize);
    let he = &b.edges[eb as usize];
    let tw = &b.edges[eb as usize + 1];
    let c = -rel.transform_vector(b.faces[he.face as usize].normal);
    let d = -rel.transform_vector(b.faces[tw.face as usize].normal);
    if !is_minkowski_face(na, nb, bxa, c, d, d.cross(c)) {
        return None;
    }
    // The directions as the query takes them (`edge_in_frame`).
    let (pb, eb) = (rel.transform_point(b.vertices[he.origin as usize]), rel.transform_vector(b.axes[eb as usize / 2]));
    edge_separation(pa, dir_a, pb, eb, a.centroid).map(|(s, _)| s)
}

/// The axis the contact is built on, after the face/edge preference.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Axis {
    /// Reference face on A.
    FaceA(FaceQuery),
    /// Reference face on B.
    FaceB(FaceQuery),
    /// Edge pair.
    Edge(EdgeQuery),
}

/// Full SAT result: all three best queries, and whether a separating axis was found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SatResult {
    /// Best face of A.
    pub face_a: FaceQuery,
    /// Best face of B.
    pub face_b: FaceQuery,
    /// Best edge pair (separation −∞ if none qualified or not computed).
    pub edge: EdgeQuery,
    /// True if some axis separates by more than the margin (later queries then skipped).
    pub separated: bool,
}

impl SatResult {
    /// Largest separation found (the SAT's answer).
    pub fn separation(&self) -> f32 {
        self.face_a.separation.max(self.face_b.separation).max(self.edge.separation)
    }

    /// Choose the contact axis: faces over edges, A over B, with tolerances so the choice
    /// does not flicker between frames (Gregorius: 0.98 relative between faces, 0.90 for
    /// edges vs faces, plus 0.5·slop absolute). A challenger must beat the incumbent by the
    /// tolerance whether the separation is negative (overlap) or positive (speculative),
    /// see [`beats`].
    pub fn choose(&self, cfg: &CollideConfig) -> Axis {
        let abs = 0.5 * cfg.slop;
        let face_best = self.face_a.separation.max(self.face_b.separation);
        if beats(self.edge.separation, face_best, REL_EDGE_TOLERANCE, abs) {
            return Axis::Edge(self.edge);
        }
        self.choose_face(cfg)
    }

    /// The better face axis (B's only if it beats A's by the face tolerance): [`Self::choose`]
    /// without the edge pair.
    pub fn choose_face(&self, cfg: &CollideConfig) -> Axis {
        match self.best_face(cfg) {
            (f, true) => Axis::FaceB(f),
            (f, false) => Axis::FaceA(f),
        }
    }

    /// [`Self::choose_face`] as the face and whether it is B's (`flipped`).
    pub fn best_face(&self, cfg: &CollideConfig) -> (FaceQuery, bool) {
        let abs = 0.5 * cfg.slop;
        if beats(self.face_b.separation, self.face_a.separation, REL_FACE_TOLERANCE, abs) {
            (self.face_b, true)
        } else {
            (self.face_a, false)
        }
    }
}

/// The SAT the narrow phase runs: the same answer as [`sat`] wherever it matters, with
/// bounds that skip work.
///
/// - Face queries use [`query_faces_bounded`].
/// - Edge pairs: an edge-pair axis n lies on A's arc of edge eA, and there the separation
///   is at most `n·(cB − pA) − rB` (B holds the ball of radius rB about its centroid cB;
///   pA is on eA). Over the arc, `n·(cB − pA)` runs between the plane separations of cB
///   from eA's two faces, so [`arc_reaches`] tells whether eA can beat the best face
///   separation at all; likewise B's edges with A's centroid and radius. Only pairs of
///   surviving edges get the Gauss-map test (Box3D culls edge candidates the same way).
///
/// Differences from [`sat`]: an edge pair that cannot beat the best face is not reported
/// (`edge.separation` may then be −∞), and among faces of equal separation another one
/// may be named. The separation, the separated flag and the contact axis chosen by
/// [`SatResult::choose`] (which picks an edge only if it beats the faces) are the same.
pub fn sat_culled(a: &Hull, b: &Hull, rel: &Iso, margin: f32, soa: &mut EdgeSoa) -> SatResult {
    let none_e = EdgeQuery { edge_a: 0, edge_b: 0, separation: f32::NEG_INFINITY };
    let none_f = FaceQuery { face: 0, separation: f32::NEG_INFINITY };
    let rel = &Frame::new(rel);
    let cb = rel.point(b.centroid);
    a.planes.separations(cb, &mut soa.seps_a);
    let face_a = query_faces_bounded_in(a, b, rel, margin, &soa.seps_a);
    if face_a.separation > margin {
        return SatResult { face_a, face_b: none_f, edge: none_e, separated: true };
    }
    let inv = rel.inverse();
    b.planes.separations(inv.point(a.centroid), &mut soa.seps_b);
    let face_b = query_faces_bounded_in(b, a, &inv, margin, &soa.seps_b);
    if face_b.separation > margin {
        return SatResult { face_a, face_b, edge: none_e, separated: true };
    }
    let best_face = face_a.separation.max(face_b.separation);
    let slack = bound_slack(a, b, (cb - a.centroid).length());
    edge_candidates(a, &soa.seps_a, best_face + b.inner_radius - slack, &mut soa.cand_a);
    edge_candidates(b, &soa.seps_b, best_face + a.inner_radius - slack, &mut soa.cand_b);
    if soa.cand_a.is_empty() || soa.cand_b.is_empty() {
        return SatResult { face_a, face_b, edge: none_e, separated: false };
    }
    let edge = query_edge_candidates(a, b, rel, margin, soa, false);
    SatResult { face_a, face_b, edge, separated: edge.separation > margin }
}

/// Full SAT between A and B (`rel` = B in A's frame).
pub fn sat(a: &Hull, b: &Hull, rel: &Iso, margin: f32, edges_b: &mut EdgeSoa) -> SatResult {
    let none_e = EdgeQuery { edge_a: 0, edge_b: 0, separation: f32::NEG_INFINITY };
    let none_f = FaceQuery { face: 0, separation: f32::NEG_INFINITY };
    let rel = &Frame::new(rel);
    let face_a = query_faces_in(a, b, rel, margin);
    if face_a.separation > margin {
        return SatResult { face_a, face_b: none_f, edge: none_e, separated: true };
    }
    let face_b = query_faces_in(b, a, &rel.inverse(), margin);
    if face_b.separation > margin {
        return SatResult { face_a, face_b, edge: none_e, separated: true };
    }
    let edge = query_edges_in(a, b, rel, margin, edges_b);
    SatResult { face_a, face_b, edge, separated: edge.separation > margin }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::builders::SplitMix64;

    /// An edge of length 0 (its two ends rounded to one f32 point in A's frame) gives no
    /// axis, not a NaN one; a real crossing still gives a unit normal and the gap.
    #[test]
    fn a_zero_length_edge_gives_no_axis() {
        let (pa, ea) = (Vec3::new(-100.0, 0.5, 100.0), Vec3::new(200.0, 0.0, 0.0));
        let pb = Vec3::new(-0.9277319, 0.4994143, -0.22831538);
        assert_eq!(edge_separation(pa, ea, pb, Vec3::ZERO, Vec3::ZERO), None);
        let (s, n) = edge_separation(pa, ea, pb, Vec3::new(0.0, 0.0, 0.001), Vec3::ZERO).expect("crossing edges");
        assert!((n.length() - 1.0).abs() < 1e-6 && s.is_finite(), "{s} {n}");
    }

    /// Regression (issue 15): with equal separations the face wins over the edge and A over
    /// B whether the pair overlaps or is still apart by less than the speculative margin; a
    /// challenger wins only past the bar `incumbent ± (1 − rel)·|incumbent| + 0.5·slop`.
    #[test]
    fn speculative_face_contact_choice_prefers_faces_for_either_sign() {
        let cfg = CollideConfig { margin: 0.5, slop: 0.005, motion: None };
        let result = |fa: f32, fb: f32, e: f32| SatResult {
            face_a: FaceQuery { face: 1, separation: fa },
            face_b: FaceQuery { face: 2, separation: fb },
            edge: EdgeQuery { edge_a: 4, edge_b: 6, separation: e },
            separated: false,
        };
        let kind = |r: SatResult| match r.choose(&cfg) {
            Axis::FaceA(_) => 'A',
            Axis::FaceB(_) => 'B',
            Axis::Edge(_) => 'E',
        };
        for s in [-0.3f32, -0.05, -0.001, 0.0, 0.001, 0.05, 0.3] {
            assert_eq!(kind(result(s, s, s)), 'A', "all equal at {s}");
            assert_eq!(kind(result(s - 0.01, s, s)), 'B', "B's face better by 1 cm at {s}");
        }
        // Positive: the edge must exceed 1.1·s + 0.0025, B's face 1.02·s + 0.0025.
        let s = 0.05;
        assert_eq!(kind(result(s, s, 0.0574)), 'A');
        assert_eq!(kind(result(s, s, 0.0576)), 'E');
        assert_eq!(kind(result(s, 0.0534, -1.0)), 'A');
        assert_eq!(kind(result(s, 0.0536, -1.0)), 'B');
        // Negative (Gregorius' form, unchanged): the edge must exceed 0.9·s + 0.0025.
        let s = -0.05;
        assert_eq!(kind(result(s, s, -0.0426)), 'A');
        assert_eq!(kind(result(s, s, -0.0424)), 'E');
    }

    #[test]
    fn lane_edge_candidates_equal_the_scalar_arc_test() {
        // Hulls with every arc count mod 4; separations and bounds around the arcs' peaks,
        // so both outcomes of every branch of `arc_reaches` occur.
        let mut rng = SplitMix64(9);
        let (mut kept, mut dropped) = (0, 0);
        for seed in 0..40u64 {
            let h = Hull::random(5 + seed as usize % 23, 1.0, seed).unwrap();
            let mut out = Vec::new();
            for _ in 0..50 {
                let p = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * 4.0;
                let mut seps = Vec::new();
                h.planes.separations(p, &mut seps);
                let bound = seps.iter().copied().fold(f32::MIN, f32::max) * (0.6 + rng.next_f32() * 0.8);
                edge_candidates(&h, &seps, bound, &mut out);
                let want: Vec<u32> = (0..h.arcs.len())
                    .filter(|&k| {
                        let a = &h.arcs[k];
                        arc_reaches(seps[a.faces[0] as usize], seps[a.faces[1] as usize], a.cos, bound)
                    })
                    .map(|k| 2 * k as u32)
                    .collect();
                assert_eq!(out, want);
                kept += want.len();
                dropped += h.arcs.len() - want.len();
            }
        }
        assert!(kept > 1000 && dropped > 1000, "kept {kept}, dropped {dropped}");
    }
}
