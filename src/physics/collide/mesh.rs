//! Convex shapes (sphere, capsule, box, hull) against a static triangle mesh: one manifold
//! per body pair, built from per-triangle contacts.
//!
//! Everything runs in the mesh's frame. The convex body's box (grown by the speculative
//! margin) selects the candidate triangles from the mesh's hierarchy; each candidate gives
//! contact candidates by closed forms:
//! - **sphere**: the closest point of the triangle to the centre;
//! - **capsule**: the closest points of the triangle to each end of the core segment, and
//!   the closest points between the segment and each triangle edge;
//! - **box / hull**: (1) each body vertex lying over the triangle (its projection inside the
//!   triangle) less than the margin above its plane, with the triangle's normal; (2) each
//!   triangle corner inside the body (or within the margin), with the normal of the body's
//!   face it is least deep behind; (3) each triangle edge crossing the body (Cyrus–Beck
//!   clipping against the body's face planes grown by the margin): where it cuts into the
//!   body, at its deepest point (a walk down the convex, piecewise-linear depth along the
//!   edge) and at the two ends of its part inside the body, read against the same face (a
//!   box lying across a ridge rests on the ridge's length, not on a pivot); otherwise at
//!   the middle of its part in the grown body; with the normal of the face it is least deep
//!   behind at the deepest point. Where the deepest point is equally deep behind two faces
//!   that meet in an edge of the body (the triangle's edge passes under that edge), it is
//!   an edge pair, read as the separating-axis test reads one (`edge_pair`): along the
//!   normal of both edges, at their closest points, where that normal lies in both edges'
//!   arcs on the Gauss map. Read against either face, the contact let the body's edge roll
//!   down onto the ridge: a cube tumbling over the terrain sank 20 mm into ridges, held
//!   along a face whose material was leaving the ridge while the other face came down.
//!   Corners and edges outside a ball that holds the grown body are passed over before (2)
//!   and (3) read the body's face planes (`GrownBall`).
//!
//! **Internal edges** (ghost collisions: a body sliding over a flat triangulated floor must
//! not catch on the edges between the triangles). The mesh knows each edge's neighbour and
//! whether the two faces meet flat, convex or concave ([`EdgeShape`]). A contact whose
//! closest feature is an edge or a corner that is *not* convex — the edge is flat or
//! concave, or every edge of the triangle at that corner is — gets the triangle's face
//! normal instead of the edge's direction (the idea of Bullet's and Box2D's "smooth"
//! contacts, and of Gregorius's and Erleben's notes on internal edges: a normal outside the
//! Voronoi region the neighbour allows cannot be real), and its depth is read against the
//! face's plane — while a round body is within the margin of the triangle itself: past
//! that, the plane runs on where the mesh does not (a ball on a ridge, half a metre from
//! a slope triangle whose flat edge is the slope's other diagonal). Triangle corners and
//! edges inside the body (2, 3) count only where the mesh is convex there: inside a flat
//! floor the body's own vertices (1) carry the contact. In a concave crease a body vertex
//! under both faces projects outside both triangles; (1) then looks just past the concave
//! edges ([`CREASE_REACH`]), so the vertex is held by both faces' normals instead of
//! slipping through the crease. A convex corner keeps a contact only along a normal in its
//! own normal cone: where the mesh runs on past the corner towards the body (a corner in
//! the middle of a straight ridge, seen along the ridge), the stretch beyond is nearer and
//! its triangles give the contact ([`CORNER_CONE`]); so does an edge whose part in the
//! body reaches such a corner. A box or a ball sliding along a ridge caught on each
//! corner ahead, flush with the box's bottom or beside the ball.
//!
//! **Normal groups.** A body can touch faces of the mesh that meet at an angle (a box in a
//! V valley rests on both slopes), and one manifold holds one normal. So the candidates are
//! grouped by normal, deepest first: the deepest candidate opens the first group and every
//! candidate within 18° of its normal ([`SAME_NORMAL`]) joins it; the deepest of the rest
//! opens the next, up to [`MAX_GROUPS`] (shallower candidates of a fifth direction are
//! dropped). The two kinds of normal join each other only within 1° ([`SAME_PLANE`]): a
//! mesh face's (a body vertex over it) and a body face's (a mesh corner or edge inside the
//! body). A shared normal lets the solver slide the body along one plane while the other
//! kind's points sink through theirs: a cube leaning on a terrain corner slid along its
//! face into the terrain face beside it, 14° steeper. A corner or an edge shared by
//! several triangles is a candidate of each, the same point to rounding: a group keeps it
//! once ([`SAME_POINT`]), or a ball on a ridge would rest on two springs where a ball on a
//! face rests on one. Each group becomes one manifold of at most four points by
//! [`super::clip::reduce_preferring`] (the deepest, then the largest area, choosing among
//! the points that touch, within the slop, before those still apart: a cube across a ridge
//! keeps both ends of the ridge before its corners over the slopes). Where the caller
//! gives the pair's motion ([`super::CollideConfig::motion`]; the world does), a point
//! also touches if it will be within the slop at the step's end at the bodies' present
//! velocities: a hull rolling over the mesh keeps the vertex it rolls onto before a
//! farther one that spans more area. The first (deepest) group goes
//! in `out`, the others in [`Scratch::mesh_groups`], which the world keeps as further
//! contacts of the same pair. Feature ids carry the triangle index and the feature, so warm
//! starting matches points across steps whichever group they land in.
//!
//! Limits: triangles are two-sided, their normal taken on the side of the body's centre, so
//! a body whose centre has passed a face is pushed on through it (continuous collision
//! keeps fast bodies from getting there), and near a ridge a face of the other slope can
//! see a body from behind (its speculative points then point down that slope's normal); a
//! fifth normal direction under one body is dropped; edge shapes (convex, concave) are
//! those seen from the front. The points of an edge crossing a body share the normal of the
//! face the deepest one is least deep behind (the deepest one, at a body edge, the edge
//! pair's; the ends keep the face's), and one normal group shares the normal of its
//! deepest candidate: faces of the mesh within 18° of each other push along one normal.
//! The normal of an edge point is a face normal of the body, never the direction from
//! the edge to the body, which matters for an edge still apart by much (the margin grows
//! with the pair's speed). A body face and a mesh face within 1° still share one normal.
//! The motion that picks the points is the bodies' velocities as the step begins: the
//! step's gravity and other contacts are not foreseen.

use super::clip::{reduce_preferring, ClipVertex};
use super::{CollideConfig, ContactKind, ContactPoint, FeatureId, Manifold, Scratch};
use crate::physics::hull::Hull;
use crate::physics::math::{closest_point_segment, closest_points_segments, Iso};
use crate::physics::mesh::{closest_point_on_triangle, EdgeShape, TriMesh};
use crate::physics::shape::Shape;
use arrayvec::ArrayVec;
use glam::Vec3;
use std::f32::consts::FRAC_1_SQRT_2;

/// Generator kind of mesh contact ids (top byte of a [`FeatureId`]).
pub const MESH_ID: u64 = 4;

/// Candidates whose normal is within this cosine of a group's normal join that group's
/// manifold (cos 18°).
pub const SAME_NORMAL: f32 = 0.95;

/// A candidate whose normal is a face normal of the body joins a group opened by one whose
/// normal is the mesh's (and the other way round) only within this cosine (cos 1°): the
/// two lie in one plane. Farther apart, a shared normal slides one kind along a plane that
/// cuts into the other: a cube whose bottom face holds a terrain corner slides along that
/// face into the terrain face beside it, 14° steeper, and sinks `v·sin 14°` a second
/// where no row of the solver sees it.
pub const SAME_PLANE: f32 = 0.99985;

/// How far past a concave edge, per metre of depth under the face, a body vertex still
/// counts against the face: a vertex under a crease between slopes of angle α projects
/// `tan α` × its depth past it (2 covers slopes up to 63°).
pub const CREASE_REACH: f32 = 2.0;

/// Candidates of one normal group closer than this fraction of the body's bounding radius
/// are one point (a shared corner or edge seen from each of its triangles; rounding moves
/// it by far less).
pub const SAME_POINT: f32 = 1e-4;

/// A contact at a triangle corner stands only where the mesh around the corner keeps
/// behind the plane through it square to the normal, to this part of each edge's length
/// ([`TriMesh::corner_faces`]): a normal along a straight ridge, into the ridge's next
/// stretch, is not the corner's (a box and a ball sliding along a ridge without friction
/// caught on every corner ahead).
pub const CORNER_CONE: f32 = 1e-3;

/// At most this many manifolds (normal groups) per body–mesh pair.
pub const MAX_GROUPS: usize = 4;

/// One contact candidate, in the mesh's frame.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Candidate {
    /// Halfway between the surfaces.
    point: Vec3,
    /// Unit normal from the mesh to the body.
    normal: Vec3,
    /// Penetration (negative: apart).
    depth: f32,
    /// Feature id.
    id: u64,
    /// Normal group (index into the pair's manifolds).
    group: u8,
}

/// Whether a candidate's normal is a face normal of the body (a triangle corner or edge
/// inside it), not of the mesh.
fn body_normal(id: u64) -> bool {
    matches!((id >> 32) & 0xff, 1 | 2 | 6 | 7)
}

/// The feature id of a candidate: triangle, what touched (0 body vertex, 1 triangle corner,
/// 2 triangle edge, 3 sphere, 4 capsule end, 5 capsule–edge, 6 and 7 the two ends of a
/// triangle edge's part inside the body) and its index.
fn id(tri: u32, what: u64, index: u64) -> u64 {
    tri as u64 | (what << 32) | (index << 40) | (MESH_ID << 56)
}

/// Where on the triangle `[a, b, c]` the point `q` (on it) lies: `None` inside, `Some(k)`
/// for edge k (corner k to k + 1), `Some(3 + k)` for corner k.
fn feature_of(q: Vec3, [a, b, c]: [Vec3; 3], tol: f32) -> Option<usize> {
    let corners = [a, b, c];
    for (k, p) in corners.iter().enumerate() {
        if (q - *p).length_squared() <= tol * tol {
            return Some(3 + k);
        }
    }
    for k in 0..3 {
        let (p, r) = (corners[k], corners[(k + 1) % 3]);
        let e = r - p;
        let t = ((q - p).dot(e) / e.length_squared()).clamp(0.0, 1.0);
        if (p + e * t - q).length_squared() <= tol * tol {
            return Some(k);
        }
    }
    None
}

/// Whether a contact at feature `f` of triangle `t` may keep a normal other than the face's:
/// only at a convex (or boundary) edge, or a corner one of whose edges in `t` is.
fn may_tilt(mesh: &TriMesh, t: u32, f: Option<usize>) -> bool {
    let tilts = |k: usize| matches!(mesh.edge_shape(t, k), EdgeShape::Convex | EdgeShape::Boundary);
    match f {
        None => false,
        Some(k) if k < 3 => tilts(k),
        Some(c) => {
            let c = c - 3;
            tilts(c) || tilts((c + 2) % 3)
        }
    }
}

/// A round contact: centre `p` of a ball of radius `r` against triangle `t` whose closest
/// point to it is `q`. The normal is `p − q` where the mesh allows it, else the face's. A
/// ball farther than `margin` from the triangle itself gets a candidate as far apart as it
/// is, whatever the face's plane says (the caller drops it).
#[allow(clippy::too_many_arguments)]
fn round_candidate(
    mesh: &TriMesh,
    t: u32,
    tri: [Vec3; 3],
    p: Vec3,
    q: Vec3,
    r: f32,
    margin: f32,
    idv: u64,
) -> Candidate {
    let face = mesh.normal(t);
    let d = p - q;
    let len = d.length();
    let tol = 1e-5 * (tri[1] - tri[0]).length().max((tri[2] - tri[0]).length());
    let feature = feature_of(q, tri, tol);
    let tilt = may_tilt(mesh, t, feature);
    let (normal, gap) = if (tilt || len - r > margin) && len > 1e-6 * r.max(1e-3) {
        // From the closest point where the mesh allows that normal, and also where the
        // triangle is out of reach: then the candidate is as far apart as the ball is, and
        // dropped. The face's plane runs on past a flat edge, but not past the far side of
        // the flat neighbour: a ball on a ridge read 7 mm deeper than it was against the
        // plane of a triangle whose flat edge (its slope's other diagonal) lay half a metre
        // away.
        (d / len, len)
    } else {
        // The face normal; the sign follows the side the centre is on.
        let s = face.dot(p - tri[0]);
        let n = if s >= 0.0 { face } else { -face };
        (n, s.abs())
    };
    // A corner the mesh runs on past towards the ball is not its nearest point: the
    // triangles beyond give that (the candidate is dropped).
    let depth = match feature {
        Some(c) if c >= 3 && tilt && !mesh.corner_faces(t, c - 3, normal, CORNER_CONE) => f32::NEG_INFINITY,
        _ => r - gap,
    };
    Candidate { point: p - normal * (gap + (r - gap) * 0.5), normal, depth, id: idv, group: 0 }
}

/// Edge `k` of triangle `t` (ends `p`, `q`, mesh frame) against the body's edge between
/// faces `f` and `g` (the two faces it is equally deep behind where it is deepest inside
/// the body), as the separating-axis test reads an edge pair: along the normal of both
/// edges, out of the mesh, at their closest points. Only where that normal lies in both
/// edges' arcs on the Gauss map (the mesh edge's between its two faces, convex; the body
/// edge's between its faces) and the closest points lie inside both edges: otherwise the
/// face reading stands. The depth is the pair's overlap along the normal, at least the
/// face-plane depth of the edge's deepest point.
#[allow(clippy::too_many_arguments)]
fn edge_pair(
    mesh: &TriMesh,
    t: u32,
    k: usize,
    (p, q): (Vec3, Vec3),
    h: &Hull,
    x: &Iso,
    (f, g): (usize, usize),
) -> Option<Candidate> {
    let nb = mesh.neighbour(t, k)?;
    if mesh.edge_shape(t, k) != EdgeShape::Convex {
        return None;
    }
    let (edges, faces) = (h.edges(), h.faces());
    let shared = h.face_edges(f).find(|&e| edges[edges[e as usize].twin as usize].face == g as u32)?;
    let he = edges[shared as usize];
    let (b0, b1) = (
        x.transform_point(h.vertices()[he.origin as usize]),
        x.transform_point(h.vertices()[edges[he.next as usize].origin as usize]),
    );
    // Gauss-map arcs: the mesh edge's faces, up on the body's side; the body edge's faces,
    // negated (the Minkowski difference's side).
    let up = |n: Vec3| if n.dot(x.pos - p) >= 0.0 { n } else { -n };
    let (a, b) = (up(mesh.normal(t)), up(mesh.normal(nb)));
    let (c, dn) = (-x.transform_vector(faces[f].normal), -x.transform_vector(faces[g].normal));
    if !super::sat::is_minkowski_face(a, b, b.cross(a), c, dn, dn.cross(c)) {
        return None;
    }
    let axis = (q - p).cross(b1 - b0);
    let len = axis.length();
    if len <= 1e-6 * (q - p).length() * (b1 - b0).length() {
        return None;
    }
    let n = if axis.dot(a + b) >= 0.0 { axis / len } else { -axis / len };
    let (on_mesh, on_body, s, u) = closest_points_segments(p, q, b0, b1);
    if !(s > 0.0 && s < 1.0 && u > 0.0 && u < 1.0) {
        return None;
    }
    let depth = n.dot(on_mesh - on_body);
    Some(Candidate { point: 0.5 * (on_mesh + on_body), normal: n, depth, id: id(t, 2, k as u64), group: 0 })
}

/// The largest signed distance of `p` (body frame) to the hull's face planes, and that face.
fn hull_depth(h: &Hull, p: Vec3) -> (f32, usize) {
    let mut best = (f32::NEG_INFINITY, 0);
    for (i, f) in h.faces().iter().enumerate() {
        let d = f.normal.dot(p) - f.offset;
        if d > best.0 {
            best = (d, i);
        }
    }
    best
}

/// The point of the segment `o + t·d`, `t` in `range`, deepest inside the hull by the
/// face-plane measure `g(t) = max_f (n_f·(o + t·d) − offset_f)` ([`hull_depth`] along the
/// segment: convex and piecewise linear in t), as `(t, g(t), face)`. The walk starts at
/// `start`, given with its g and active face as [`hull_depth`] returns them: the active
/// face's slope along `d` says which way g falls, the next face to take over that way is the
/// nearest crossing, and it stops where that face is level or rising (the minimum; of two
/// faces meeting there, the one more nearly parallel to the segment names the normal, and
/// the other is returned too), where the active face is level, or at the range's end.
fn deepest_on_segment(
    h: &Hull,
    o: Vec3,
    d: Vec3,
    (t0, t1): (f32, f32),
    (start, (sep_start, face_start)): (f32, (f32, usize)),
) -> (f32, f32, usize, Option<usize>) {
    let faces = h.faces();
    let level = 1e-6 * d.length();
    let (mut t, mut sep, mut f) = (start, sep_start, face_start);
    for _ in 0..faces.len() {
        let slope = faces[f].normal.dot(d);
        if slope.abs() <= level {
            break;
        }
        // Moving towards larger t when g falls that way.
        let up = slope < 0.0;
        let p = o + d * t;
        let mut next = ((if up { t1 - t } else { t - t0 }).max(0.0), usize::MAX);
        for (k, other) in faces.iter().enumerate() {
            let s = other.normal.dot(d);
            // How fast face k's plane distance gains on f's per unit of |Δt|.
            let closing = if up { s - slope } else { slope - s };
            if k != f && closing > 0.0 {
                let dt = (sep - (other.normal.dot(p) - other.offset)).max(0.0) / closing;
                if dt < next.0 {
                    next = (dt, k);
                }
            }
        }
        t = if up { t + next.0 } else { t - next.0 };
        sep += slope * if up { next.0 } else { -next.0 };
        let Some(k) = (next.1 != usize::MAX).then_some(next.1) else { break };
        let s = faces[k].normal.dot(d);
        if (up && s < -level) || (!up && s > level) {
            f = k;
            continue;
        }
        // The minimum: f falls into it, k is level or rises out of it.
        return if s.abs() < slope.abs() { (t, sep, k, Some(f)) } else { (t, sep, f, Some(k)) };
    }
    (t, sep, f, None)
}

/// A ball (mesh frame) holding the hull grown by the margin, the region whose face planes
/// the corner and edge tests (2, 3) grow: a triangle corner or edge outside it gives no
/// candidate, so it is passed over before the tests that read every face plane. Those are
/// most of them (a triangle under a body's box mostly lies beside the body).
///
/// The bound: with `c` the hull's centroid, `r` the distance from `c` to its nearest face
/// plane and `m` the margin, a point `p` with `n·p − d ≤ m` for every face has
/// `n·(p − c) ≤ (d − n·c)(1 + m/r)`, so `c + (p − c)/(1 + m/r)` lies in the hull: the grown
/// hull lies within `(1 + m/r)` times the hull's farthest vertex from `c`.
#[derive(Clone, Copy, Debug)]
struct GrownBall {
    centre: Vec3,
    radius_sq: f32,
}

impl GrownBall {
    fn of(h: &Hull, x: &Iso, margin: f32) -> GrownBall {
        let c = h.centroid();
        let r = h.inner_radius();
        let radius = if r > 0.0 {
            let far = h.vertices().iter().map(|v| (*v - c).length_squared()).fold(0.0, f32::max).sqrt();
            // A part in ten thousand over the bound, for rounding in the tests it stands for.
            far * (1.0 + margin.max(0.0) / r) * (1.0 + 1e-4) + 1e-6
        } else {
            f32::INFINITY
        };
        GrownBall { centre: x.transform_point(c), radius_sq: radius * radius }
    }

    /// Whether the point lies outside the ball.
    fn misses_point(&self, p: Vec3) -> bool {
        (p - self.centre).length_squared() > self.radius_sq
    }

    /// Whether the segment `p → q` lies outside the ball.
    fn misses_segment(&self, p: Vec3, q: Vec3) -> bool {
        self.misses_point(closest_point_segment(p, q, self.centre).0)
    }
}

/// Contact candidates of a hull (body frame `x`: the body's pose in the mesh frame) against
/// triangle `t`.
#[allow(clippy::too_many_arguments)]
fn hull_triangle(
    mesh: &TriMesh,
    t: u32,
    h: &Hull,
    x: &Iso,
    world_verts: &[Vec3],
    ball: &GrownBall,
    margin: f32,
    reach: f32,
    out: &mut Vec<Candidate>,
) {
    let tri = mesh.triangle(t);
    let face = mesh.normal(t);
    let [a, b, c] = tri;
    // Two-sided: the face normal on the side of the body's centre (as round shapes take
    // it), so a body reaching a wall of no thickness from behind is pushed back, not on
    // through it, and a body inside a thin closed mesh is pushed out of the face it has
    // not yet passed the plane of.
    let front = face.dot(x.pos - a) >= 0.0;
    let n = if front { face } else { -face };
    // (1) Body vertices over the triangle, less than the margin above its plane.
    for (k, v) in world_verts.iter().enumerate() {
        let s = n.dot(*v - a);
        if s > margin || s < -reach {
            continue;
        }
        let p = *v - n * s;
        // Inside the triangle: on the inner side of all three edges — or just past a concave
        // edge, where the neighbour face rises: a vertex under this plane there is under the
        // neighbour too, inside the mesh's solid side (a box corner pushed into a valley's
        // crease projects outside both faces), and one within the margin above it may reach
        // this face's plane within the step (a corner resting in the crease). "Just past":
        // by at most CREASE_REACH × its depth (and the neighbour's width), the reach of a
        // corner under a crease of slopes up to 63°; farther out the mesh beyond may bend
        // down again, and the neighbour's own test covers what lies over it.
        let inside = [(a, b), (b, c), (c, a)].iter().enumerate().all(|(k, (e0, e1))| {
            let e = *e1 - *e0;
            let into = e.cross(p - *e0).dot(face);
            into >= 0.0
                || (front && mesh.edge_shape(t, k) == EdgeShape::Concave && {
                    let past = -into / e.length();
                    past <= if s < 0.0 { mesh.neighbour_width(t, k).min(CREASE_REACH * -s) } else { margin }
                })
        });
        if inside {
            out.push(Candidate { point: *v - n * (0.5 * s), normal: n, depth: -s, id: id(t, 0, k as u64), group: 0 });
        }
    }
    // (2) Triangle corners inside the body, where the mesh is convex there.
    for (k, w) in tri.iter().enumerate() {
        if !may_tilt(mesh, t, Some(3 + k)) || ball.misses_point(*w) {
            continue;
        }
        let wb = x.inv_transform_point(*w);
        // Most corners lie well outside: one face plane with the corner farther than the
        // margin beyond it settles that, before the search for the least deep face.
        if h.faces().iter().any(|f| f.normal.dot(wb) - f.offset > margin) {
            continue;
        }
        let (sep, f) = hull_depth(h, wb);
        let fnorm = x.transform_vector(h.faces()[f].normal);
        let normal = -fnorm;
        // Where the mesh runs on past the corner towards the body, the corner is not where
        // the body meets it: the edges and corners beyond are (a box sliding along a ridge
        // meets each corner ahead flush with its bottom, in front of its leading face).
        if !mesh.corner_faces(t, k, normal, CORNER_CONE) {
            continue;
        }
        out.push(Candidate { point: *w - fnorm * (0.5 * sep), normal, depth: -sep, id: id(t, 1, k as u64), group: 0 });
    }
    // (3) Triangle edges crossing the body, where the edge is convex.
    for k in 0..3 {
        if !matches!(mesh.edge_shape(t, k), EdgeShape::Convex | EdgeShape::Boundary) {
            continue;
        }
        let (p, q) = (tri[k], tri[(k + 1) % 3]);
        if ball.misses_segment(p, q) {
            continue;
        }
        let pb = x.inv_transform_point(p);
        let d = x.inv_transform_point(q) - pb;
        let Some((t0, t1)) = h.clip_line(pb, d, margin, (0.0, 1.0)) else { continue };
        // Where the edge cuts into the body, its deepest point; an edge still apart (within
        // the margin, which grows with the pair's speed) is read at the middle of its part in
        // the grown body, as a speculative point.
        let middle = 0.5 * (t0 + t1);
        let at_middle = hull_depth(h, pb + (d) * middle);
        let (at, sep, f, kink) = match deepest_on_segment(h, pb, d, (t0, t1), (middle, at_middle)) {
            (at, sep, f, kink) if sep < 0.0 => (at, sep, f, kink),
            _ => (middle, at_middle.0, at_middle.1, None),
        };
        let mid = pb + (d) * at;
        let fnorm = x.transform_vector(h.faces()[f].normal);
        // Where the edge's part in the (grown) body reaches an end of the edge, the edge
        // heads away from the body from there (more along the normal than across it: an
        // edge lying along a face carries it all along), and the mesh runs on past that
        // corner towards the body, the edge is nearest the body at a corner that is not
        // where the body meets the mesh: the mesh beyond is (as for the corners, above).
        let past = |end: bool, c: usize, along: Vec3| {
            end && fnorm.dot(along) > FRAC_1_SQRT_2 * along.length() && !mesh.corner_faces(t, c, -fnorm, CORNER_CONE)
        };
        if past(t0 <= 0.0, k, q - p) || past(t1 >= 1.0, (k + 1) % 3, p - q) {
            continue;
        }
        let w = x.transform_point(mid);
        // Where the edge is deepest under two faces at once, it passes the body's edge between
        // them: an edge pair, held along their common normal (below), not along either face.
        let crossing = kink.and_then(|g| edge_pair(mesh, t, k, (p, q), h, x, (f, g)));
        out.push(crossing.unwrap_or(Candidate {
            point: w - fnorm * (0.5 * sep),
            normal: -fnorm,
            depth: -sep,
            id: id(t, 2, k as u64),
            group: 0,
        }));
        // An edge that cuts into the body holds it along its part inside, not at one point
        // (a box lying across a ridge would pivot on it): the ends of that part, read
        // against the same face.
        if sep < 0.0 {
            if let Some((u0, u1)) = h.clip_line(pb, d, 0.0, (t0, t1)) {
                let face = h.faces()[f];
                for (end, u) in [(6u64, u0), (7, u1)] {
                    let e = pb + (d) * u;
                    let s = face.normal.dot(e) - face.offset;
                    if (u - at).abs() * (d).length() > margin && s <= margin {
                        out.push(Candidate {
                            point: x.transform_point(e) - fnorm * (0.5 * s),
                            normal: -fnorm,
                            depth: -s,
                            id: id(t, end, k as u64),
                            group: 0,
                        });
                    }
                }
            }
        }
    }
}

/// Contact between a static mesh (`xm`) and a convex shape (`xo`): normal from the mesh to
/// the shape (module docs). `out` is cleared and filled with the deepest normal group; the
/// other groups go to `scratch.mesh_groups` (cleared first).
pub fn collide_mesh(
    mesh: &TriMesh,
    xm: &Iso,
    other: &Shape,
    xo: &Iso,
    cfg: &CollideConfig,
    scratch: &mut Scratch,
    out: &mut Manifold,
) {
    out.clear();
    scratch.mesh_groups.clear();
    let x = Iso::relative(xm, xo);
    let margin = cfg.margin;
    // The shape's motion against the mesh, in the mesh's frame (where the candidates are).
    let motion = cfg.motion.map(|m| m.in_frame(xm));
    let bb = other.aabb(&x);
    let query = bb.expanded(margin);
    scratch.mesh_tris.clear();
    mesh.query_aabb(&query, &mut scratch.mesh_tris);
    scratch.mesh_tris.sort_unstable();
    let cands = &mut scratch.mesh_candidates;
    cands.clear();
    match other {
        Shape::Sphere { radius } => {
            for &t in &scratch.mesh_tris {
                let tri = mesh.triangle(t);
                let q = closest_point_on_triangle(x.pos, tri);
                let c = round_candidate(mesh, t, tri, x.pos, q, *radius, margin, id(t, 3, 0));
                if c.depth > -margin {
                    cands.push(c);
                }
            }
        }
        Shape::Capsule { radius, half_height } => {
            let (p0, p1) = (x.transform_point(Vec3::Y * -*half_height), x.transform_point(Vec3::Y * *half_height));
            for &t in &scratch.mesh_tris {
                let tri = mesh.triangle(t);
                for (k, end) in [p0, p1].into_iter().enumerate() {
                    let q = closest_point_on_triangle(end, tri);
                    let c = round_candidate(mesh, t, tri, end, q, *radius, margin, id(t, 4, k as u64));
                    if c.depth > -margin {
                        cands.push(c);
                    }
                }
                for k in 0..3 {
                    let (s, q, _, _) = closest_points_segments(p0, p1, tri[k], tri[(k + 1) % 3]);
                    // Only where the segment's own closest point is inside it (the ends are
                    // covered above) and the edge can carry a tilted normal.
                    let interior = (s - p0).length_squared() > 1e-10 && (s - p1).length_squared() > 1e-10;
                    if interior && may_tilt(mesh, t, Some(k)) {
                        let c = round_candidate(mesh, t, tri, s, q, *radius, margin, id(t, 5, k as u64));
                        if c.depth > -margin {
                            cands.push(c);
                        }
                    }
                }
            }
        }
        Shape::Box { hull, .. } | Shape::Hull(hull) => {
            scratch.mesh_verts.clear();
            scratch.mesh_verts.extend(hull.vertices().iter().map(|v| x.transform_point(*v)));
            let reach = 2.0 * other.bounding_radius();
            let ball = GrownBall::of(hull, &x, margin);
            for &t in &scratch.mesh_tris {
                hull_triangle(mesh, t, hull, &x, &scratch.mesh_verts, &ball, margin, reach, cands);
            }
        }
        // (A compound meets a mesh child by child, `compound.rs`.)
        Shape::Mesh(_) | Shape::Compound(_) => return,
    }
    if cands.is_empty() {
        return;
    }
    // Normal groups: the deepest candidate not yet grouped opens the next group (ties by
    // id, so the order is deterministic), and every ungrouped candidate within 18° of its
    // normal joins it (within 1° if one normal is the mesh's and the other the body's).
    // One pass per group, no sort: most pairs have one group.
    let mut normals: ArrayVec<Vec3, MAX_GROUPS> = ArrayVec::new();
    cands.iter_mut().for_each(|c| c.group = u8::MAX);
    while !normals.is_full() {
        let open = cands
            .iter()
            .filter(|c| c.group == u8::MAX)
            .max_by(|a, b| a.depth.total_cmp(&b.depth).then(b.id.cmp(&a.id)))
            .map(|c| (c.normal, body_normal(c.id)));
        let Some((n, side)) = open else { break };
        let g = normals.len() as u8;
        normals.push(n);
        let joins = |c: &Candidate| {
            c.group == u8::MAX && c.normal.dot(n) >= if body_normal(c.id) == side { SAME_NORMAL } else { SAME_PLANE }
        };
        for c in cands.iter_mut().filter(|c| joins(c)) {
            c.group = g;
        }
    }
    // One point once per group. A mesh corner or edge shared by several triangles is a
    // candidate of each (a ball on a ridge, a hull across an edge between two triangles):
    // the same point to rounding, under different ids. Given twice, it would be a soft
    // contact twice as stiff as its neighbours and take two of the four places.
    cands.sort_unstable_by_key(|c| (c.group, c.id));
    let same_sq = (SAME_POINT * other.bounding_radius()).powi(2);
    let mut kept = 0;
    for i in 0..cands.len() {
        let c = cands[i];
        let seen = cands[..kept].iter().rev().take_while(|k| k.group == c.group);
        if !seen.into_iter().any(|k| (k.point - c.point).length_squared() <= same_sq) {
            cands[kept] = c;
            kept += 1;
        }
    }
    cands.truncate(kept);
    let mut start = 0;
    for (g, &n) in normals.iter().enumerate() {
        let len = cands[start..].iter().take_while(|c| c.group as usize == g).count();
        let group = &cands[start..start + len];
        start += len;
        scratch.poly.clear();
        scratch.poly.extend(group.iter().map(|c| ClipVertex { p: c.point, depth: c.depth, ..Default::default() }));
        // A point touches if it is within the slop now or, where the pair's motion is
        // known, will be by the step's end (`reduce_preferring`).
        let reach = |v: &ClipVertex| motion.map_or(v.depth, |m| m.depth_after(v.p, n, v.depth));
        let keep = reduce_preferring(&scratch.poly, n, cfg.slop, -cfg.slop, reach);
        let m = if g == 0 {
            &mut *out
        } else {
            scratch.mesh_groups.push(Manifold::default());
            scratch.mesh_groups.last_mut().expect("just pushed")
        };
        m.normal = xm.transform_vector(n);
        m.kind = ContactKind::FaceA;
        for i in keep {
            let c = group[i];
            m.points.push(ContactPoint { position: xm.transform_point(c.point), depth: c.depth, id: FeatureId(c.id) });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{deepest_on_segment, hull_depth, GrownBall};
    use crate::physics::collide::PairMotion;
    use crate::physics::hull::{builders::SplitMix64, Hull};
    use crate::physics::math::Iso;
    use glam::{Quat, Vec3};

    /// The pair's motion, read in the mesh's frame, gives each point the velocity of B's
    /// material point there less A's, each `v + ω × (p − c)` in the world, turned into the
    /// frame; reversed, A's against B's.
    #[test]
    fn a_pair_motion_in_the_mesh_frame_is_the_bodies_point_velocities() {
        let mut rng = SplitMix64(77);
        let mut r3 = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 4.0 - 2.0;
        for _ in 0..200 {
            let (a, b) = ((r3(), r3(), r3()), (r3(), r3(), r3()));
            let x = Iso::new(r3(), Quat::from_scaled_axis(r3()));
            let m = PairMotion::between(a, b, 1.0 / 60.0);
            let local = m.in_frame(&x);
            let p = r3();
            let world = x.transform_point(p);
            let at = |(v, w, c): (Vec3, Vec3, Vec3)| v + w.cross(world - c);
            let want = x.rot.conjugate() * (at(b) - at(a));
            assert!(
                (local.velocity_at(p) - want).length() < 1e-4 * (1.0 + want.length()),
                "{:?} {want:?}",
                local.velocity_at(p)
            );
            assert!((m.reversed().in_frame(&x).velocity_at(p) + want).length() < 1e-4 * (1.0 + want.length()));
            // A point 1 cm apart, moving straight into the surface at |v|, ends |v|/60 − 1 cm deep.
            let n = want.normalize();
            let (d, expect) = (-0.01, -0.01 + want.length() / 60.0);
            assert!((local.depth_after(p, -n, d) - expect).abs() < 1e-4, "{} {expect}", local.depth_after(p, -n, d));
        }
    }

    fn unit_cube_point(rng: &mut SplitMix64) -> Vec3 {
        Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0
    }

    /// The walk ends at the least face-plane depth along the segment: the depth it reports
    /// is the depth at the point it reports, and no point of 4,001 evenly spaced along the
    /// clipped part is deeper (random segments through a box and two random hulls).
    #[test]
    fn the_walk_finds_the_deepest_point_of_a_segment() {
        let hulls = [
            Hull::cuboid(Vec3::new(0.4, 0.3, 0.2)).unwrap(),
            Hull::random(32, 0.5, 3).unwrap(),
            Hull::random(20, 0.5, 9).unwrap(),
        ];
        let mut rng = SplitMix64(5);
        let (mut cases, mut walked) = (0, 0);
        for h in &hulls {
            for _ in 0..400 {
                let d = unit_cube_point(&mut rng) * 1.5;
                let o = unit_cube_point(&mut rng) * 0.5 - d * 0.5;
                let Some((t0, t1)) = h.clip_line(o, d, 0.05, (0.0, 1.0)) else { continue };
                let middle = 0.5 * (t0 + t1);
                let start = hull_depth(h, o + d * middle);
                let (t, g, f, _) = deepest_on_segment(h, o, d, (t0, t1), (middle, start));
                assert!((t0 - 1e-6..=t1 + 1e-6).contains(&t), "t {t} outside [{t0}, {t1}]");
                let p = o + d * t;
                let at = hull_depth(h, p).0;
                let face = &h.faces()[f];
                assert!((g - at).abs() < 1e-5, "reported depth {g}, depth there {at}");
                assert!((face.normal.dot(p) - face.offset - at).abs() < 1e-5, "face {f} is not the active one");
                let least = (0..=4000)
                    .map(|k| hull_depth(h, o + d * (t0 + (t1 - t0) * k as f32 / 4000.0)).0)
                    .fold(f32::MAX, f32::min);
                assert!(g <= least + 1e-5, "walk {g}, a sample {least}");
                cases += 1;
                walked += usize::from(g < start.0 - 1e-4);
            }
        }
        println!("{cases} segments, {walked} of them deeper than at their middle");
        assert!(cases > 300 && walked > 50, "{cases} segments, {walked} walked");
    }

    /// The ball holds the hull grown by the margin: no point within the margin of every face
    /// plane, and no segment the grown hull clips, lies outside it (a box, a long box and two
    /// random hulls, placed and turned at random, margins up to a fifth of their size).
    #[test]
    fn the_grown_ball_holds_every_point_the_corner_and_edge_tests_keep() {
        let hulls = [
            Hull::cuboid(Vec3::new(0.4, 0.3, 0.2)).unwrap(),
            Hull::cuboid(Vec3::new(1.0, 0.05, 0.1)).unwrap(),
            Hull::random(32, 0.45, 500).unwrap(),
            Hull::random(12, 0.5, 9).unwrap(),
        ];
        let mut rng = SplitMix64(11);
        let (mut inside, mut clipped, mut missed) = (0, 0, 0);
        for h in &hulls {
            for _ in 0..3000 {
                let axis = unit_cube_point(&mut rng).normalize_or(Vec3::Y);
                let x = Iso::new(unit_cube_point(&mut rng) * 3.0, Quat::from_axis_angle(axis, rng.next_f32() * 6.3));
                let margin = rng.next_f32() * 0.2;
                let ball = GrownBall::of(h, &x, margin);
                // Points near the hull, in its own frame, then in the mesh's.
                let p = unit_cube_point(&mut rng) * 1.3;
                let q = unit_cube_point(&mut rng) * 1.3;
                if h.faces().iter().all(|f| f.normal.dot(p) - f.offset <= margin) {
                    inside += 1;
                    assert!(!ball.misses_point(x.transform_point(p)), "a kept point outside the ball");
                }
                if h.clip_line(p, q - p, margin, (0.0, 1.0)).is_some() {
                    clipped += 1;
                    assert!(!ball.misses_segment(x.transform_point(p), x.transform_point(q)), "a kept edge outside");
                } else {
                    missed += usize::from(ball.misses_segment(x.transform_point(p), x.transform_point(q)));
                }
            }
        }
        // The cases are not empty, and the ball does pass over segments (what it is for).
        assert!(
            inside > 200 && clipped > 2000 && missed > 1000,
            "{inside} inside, {clipped} clipped, {missed} passed over"
        );
    }
}
