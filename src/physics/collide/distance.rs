//! Distance between two convex shapes: the Gilbert–Johnson–Keerthi algorithm (GJK; Gilbert,
//! Johnson and Keerthi 1988, in the form of van den Bergen, "Collision Detection in
//! Interactive 3D Environments", 2003, and Box2D's `b2ShapeDistance`).
//!
//! # Shapes as a core plus a radius
//! Every shape of the engine is a convex *core* swept by a sphere (Box2D's
//! `b2DistanceProxy`): a sphere is a point with its radius, a capsule its segment with its
//! radius, a box or hull its vertices with radius 0. GJK measures the distance between the
//! cores; the radii are subtracted at the end. This keeps curved shapes exact (a sphere is
//! not approximated by a polytope) and the iteration count small.
//!
//! # The algorithm
//! The distance between A and B is the distance from the origin to the *Minkowski
//! difference* `B − A = {b − a}`, a convex set whose support point along `d` is
//! `support_B(d) − support_A(−d)`. GJK keeps a *simplex* of up to four points of `B − A`
//! and repeats:
//! 1. find the point `v` of the simplex closest to the origin, and drop the simplex
//!    vertices not needed to express it ([`Simplex::solve`]: the point, segment, triangle
//!    and tetrahedron cases, each by its Voronoi regions — Ericson, "Real-Time Collision
//!    Detection", §5.1.2, §5.1.5, §5.1.6);
//! 2. if the simplex is a tetrahedron holding the origin, or `v` is the origin, the cores
//!    overlap;
//! 3. otherwise take the support point `w` of `B − A` along `−v`. `v·w / |v|` is a lower
//!    bound of the distance and `|v|` an upper bound; stop when they agree to a relative
//!    [`REL_TOLERANCE`] (van den Bergen), when `w` is already in the simplex (Box2D's
//!    duplicate test: no progress is possible), or when `|v|` did not shrink in the last
//!    step (it never grows in exact arithmetic: rounding has taken over); else add `w` and
//!    repeat.
//!
//! Each simplex vertex remembers the two shape points it came from, so the closest points
//! on A and B are the same barycentric combination of those (the *witness points*).
//!
//! # Warm start
//! [`distance_cached`] starts from the shape points of an earlier query's final simplex
//! ([`SimplexCache`], Box2D's `b2SimplexCache`), rebuilt at the new poses: a time-of-impact
//! search queries the same pair at poses a little apart, and from there GJK needs a
//! support point or two instead of four or five. [`distance`] is the textbook one-point
//! start.
//!
//! Conventions: the normal points from A to B (as contact normals do); everything is
//! computed in A's frame (B moved into it once) and returned in world space.
//!
//! # A ball against a box
//! [`ball_box`] answers that pair in closed form (the ball's centre clamped to the box, in
//! the box's frame), the fast path the time-of-impact searches take beside GJK
//! (`Settings::closed_form_distance`).
//!
//! Limits: the distance is accurate to about [`REL_TOLERANCE`] of itself plus the f32
//! rounding of the shapes' coordinates; when the *cores* overlap GJK gives no depth (the
//! SAT of the narrow phase does that): [`Distance::overlap`] is set and the distance is
//! reported as `−(rA + rB)`, an upper bound of the signed distance. Hulls of 32 vertices
//! or more take their support points by hill climbing from vertex 0 (no warm start).

use crate::physics::hull::Hull;
use crate::physics::math::Iso;
use crate::physics::shape::Shape;
use arrayvec::ArrayVec;
use glam::Vec3;

/// GJK stops when the lower and upper bounds of the distance agree to this fraction.
pub const REL_TOLERANCE: f32 = 1e-5;

/// Most GJK iterations (each adds one support point). Polytopes converge in far fewer; the
/// cap guards against cycling on rounding.
pub const MAX_ITERATIONS: u32 = 48;

/// The core of a shape: a few points (sphere, capsule, a point proxy) or a hull's vertices.
#[derive(Clone, Copy, Debug)]
enum Core<'a> {
    /// Up to two points in the body frame.
    Points([Vec3; 2], u32),
    /// A hull's vertices.
    Hull(&'a Hull),
    /// A box: its hull's vertices (for GJK) and its half extents (for [`ball_box`]).
    Box(&'a Hull, Vec3),
    /// A triangle's corners (a mesh's triangle, queried one at a time).
    Triangle([Vec3; 3]),
}

/// A shape as GJK sees it: a convex core and a radius around it (Box2D's distance proxy).
#[derive(Clone, Copy, Debug)]
pub struct Proxy<'a> {
    core: Core<'a>,
    /// Radius swept around the core (m).
    pub radius: f32,
}

impl<'a> Proxy<'a> {
    /// The proxy of a shape in its body frame.
    pub fn of(shape: &'a Shape) -> Proxy<'a> {
        match shape {
            Shape::Sphere { radius } => Proxy::point(Vec3::ZERO, *radius),
            Shape::Capsule { radius, half_height } => Proxy {
                core: Core::Points([Vec3::new(0.0, -half_height, 0.0), Vec3::new(0.0, *half_height, 0.0)], 2),
                radius: *radius,
            },
            Shape::Box { hull, half_extents } => Proxy { core: Core::Box(hull, *half_extents), radius: 0.0 },
            Shape::Hull(hull) => Proxy { core: Core::Hull(hull), radius: 0.0 },
            // A mesh is not convex: its triangles are queried one by one. As a whole it
            // stands for a point at its origin (callers query its triangles instead,
            // [`Proxy::triangle`]).
            Shape::Mesh(_) => Proxy::point(Vec3::ZERO, 0.0),
            // Nor is a compound: callers query its children
            // ([`crate::physics::compound::child`]).
            Shape::Compound(_) => Proxy::point(Vec3::ZERO, 0.0),
        }
    }

    /// A triangle with corners in the body frame (a mesh body's triangle: the fast CCD
    /// sweeps against a mesh one triangle at a time).
    pub fn triangle(corners: [Vec3; 3]) -> Proxy<'static> {
        Proxy { core: Core::Triangle(corners), radius: 0.0 }
    }

    /// A ball of `radius` about the body point `center` (the fast CCD's fallback probe).
    pub fn point(center: Vec3, radius: f32) -> Proxy<'static> {
        Proxy { core: Core::Points([center, center], 1), radius }
    }

    /// Index and position (body frame) of the core point farthest along `d`.
    #[inline]
    fn support(&self, d: Vec3) -> (u32, Vec3) {
        match self.core {
            Core::Points(p, n) => {
                if n == 2 && p[1].dot(d) > p[0].dot(d) {
                    (1, p[1])
                } else {
                    (0, p[0])
                }
            }
            Core::Hull(h) | Core::Box(h, _) => {
                let i = h.support(d);
                (i, h.vertices()[i as usize])
            }
            Core::Triangle(p) => {
                let (d0, d1, d2) = (p[0].dot(d), p[1].dot(d), p[2].dot(d));
                let i = if d0 >= d1 && d0 >= d2 {
                    0
                } else if d1 >= d2 {
                    1
                } else {
                    2
                };
                (i as u32, p[i])
            }
        }
    }

    /// How far the proxy reaches along the unit direction `d` (in the proxy's own frame: a
    /// compound child's, for a child) from that frame's origin: its core's farthest point
    /// that way, plus its radius.
    #[inline]
    pub fn reach(&self, d: Vec3) -> f32 {
        self.support(d).1.dot(d) + self.radius
    }

    /// How fast the proxy's points move about its body's centre when the body turns at `w`
    /// (per unit time, in the body's axes), the proxy in the body's frame at `frame`: the
    /// largest `|w × p|` over the core's points (the largest over the convex core: `|w × p|`
    /// is convex in `p`), plus `|w|` times its radius.
    pub fn spin_speed(&self, w: Vec3, frame: &Iso) -> f32 {
        let points: &[Vec3] = match &self.core {
            Core::Points(p, n) => &p[..*n as usize],
            Core::Hull(h) | Core::Box(h, _) => h.vertices(),
            Core::Triangle(p) => p,
        };
        let core = points.iter().map(|p| w.cross(frame.transform_point(*p)).length_squared()).fold(0.0, f32::max);
        core.sqrt() + w.length() * self.radius
    }

    /// Core point `i` (an index [`Proxy::support`] returned), body frame.
    #[inline]
    fn core_point(&self, i: u32) -> Vec3 {
        match self.core {
            Core::Points(p, _) => p[i as usize],
            Core::Hull(h) | Core::Box(h, _) => h.vertices()[i as usize],
            Core::Triangle(p) => p[i as usize],
        }
    }

    /// A core point to start from.
    fn first(&self) -> Vec3 {
        match self.core {
            Core::Points(p, _) => p[0],
            Core::Hull(h) | Core::Box(h, _) => h.vertices()[0],
            Core::Triangle(p) => p[0],
        }
    }
}

/// One vertex of the simplex: a point `w = b − a` of the Minkowski difference, the shape
/// points it came from (A's frame) and their indices, and its barycentric weight in the
/// closest point.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SimplexVertex {
    /// Point of A (A's frame).
    pub a: Vec3,
    /// Point of B (A's frame).
    pub b: Vec3,
    /// `b − a`.
    pub w: Vec3,
    /// Core point index on A.
    pub index_a: u32,
    /// Core point index on B.
    pub index_b: u32,
    /// Barycentric weight of this vertex in the closest point.
    pub weight: f32,
}

/// Up to four vertices of `B − A`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Simplex {
    /// The vertices (1 to 4).
    pub v: ArrayVec<SimplexVertex, 4>,
}

impl Simplex {
    /// The point of the simplex closest to the origin; the simplex is reduced to the vertices
    /// that express it (with their weights). Returns `None` when a tetrahedron holds the
    /// origin (the cores overlap).
    pub fn solve(&mut self) -> Option<Vec3> {
        match self.v.len() {
            1 => {
                self.v[0].weight = 1.0;
                Some(self.v[0].w)
            }
            2 => Some(self.solve_segment()),
            3 => Some(self.solve_triangle()),
            _ => self.solve_tetrahedron(),
        }
    }

    /// Keeps the vertices `keep` (ascending indices into the current list) with weights
    /// `weights`, compacted in place (each kept vertex moves down, never over one still to
    /// be read).
    fn reduce(&mut self, keep: &[usize], weights: &[f32]) {
        debug_assert!(keep.windows(2).all(|p| p[0] < p[1]));
        for (j, (&k, &wt)) in keep.iter().zip(weights).enumerate() {
            self.v[j] = SimplexVertex { weight: wt, ..self.v[k] };
        }
        self.v.truncate(keep.len());
    }

    /// Segment `w0 w1`: the origin's projection `t` along it decides the region — before
    /// `w0` (keep `w0`), past `w1` (keep `w1`) or between (keep both, weights `1 − t`, `t`).
    fn solve_segment(&mut self) -> Vec3 {
        let (w0, w1) = (self.v[0].w, self.v[1].w);
        let e = w1 - w0;
        let before = -w0.dot(e); // t·|e|²
        let after = w1.dot(e); // (1 − t)·|e|²
        if before <= 0.0 {
            self.reduce(&[0], &[1.0]);
            return w0;
        }
        if after <= 0.0 {
            self.reduce(&[1], &[1.0]);
            return w1;
        }
        let inv = 1.0 / (before + after);
        let (s, t) = (after * inv, before * inv);
        self.reduce(&[0, 1], &[s, t]);
        w0 * s + w1 * t
    }

    /// Triangle `a b c` (Ericson §5.1.5): test the origin against the three vertex regions,
    /// then the three edge regions, else it projects inside the face. The `d…` are dot
    /// products of the edges with the vectors from the vertices to the origin; the `v…` are
    /// the (unnormalised) barycentric coordinates of the projection.
    fn solve_triangle(&mut self) -> Vec3 {
        let (a, b, c) = (self.v[0].w, self.v[1].w, self.v[2].w);
        let (ab, ac) = (b - a, c - a);
        let (d1, d2) = (ab.dot(-a), ac.dot(-a));
        if d1 <= 0.0 && d2 <= 0.0 {
            self.reduce(&[0], &[1.0]);
            return a;
        }
        let (d3, d4) = (ab.dot(-b), ac.dot(-b));
        if d3 >= 0.0 && d4 <= d3 {
            self.reduce(&[1], &[1.0]);
            return b;
        }
        let vc = d1 * d4 - d3 * d2;
        if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
            let t = d1 / (d1 - d3);
            self.reduce(&[0, 1], &[1.0 - t, t]);
            return a + ab * t;
        }
        let (d5, d6) = (ab.dot(-c), ac.dot(-c));
        if d6 >= 0.0 && d5 <= d6 {
            self.reduce(&[2], &[1.0]);
            return c;
        }
        let vb = d5 * d2 - d1 * d6;
        if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
            let t = d2 / (d2 - d6);
            self.reduce(&[0, 2], &[1.0 - t, t]);
            return a + ac * t;
        }
        let va = d3 * d6 - d5 * d4;
        if va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0 {
            let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
            self.reduce(&[1, 2], &[1.0 - t, t]);
            return b + (c - b) * t;
        }
        let sum = va + vb + vc;
        if sum.abs() <= f32::MIN_POSITIVE || !sum.is_finite() {
            // A degenerate (flat) triangle that no region test caught: its best edge.
            return self.best_edge(&[(0, 1), (0, 2), (1, 2)]);
        }
        let (v, w) = (vb / sum, vc / sum);
        self.reduce(&[0, 1, 2], &[1.0 - v - w, v, w]);
        a + ab * v + ac * w
    }

    /// The closest of the given edges (a fallback for degenerate triangles).
    fn best_edge(&mut self, edges: &[(usize, usize)]) -> Vec3 {
        let old = self.v.clone();
        let mut best: Option<(Simplex, Vec3)> = None;
        for &(i, j) in edges {
            let mut s = Simplex::default();
            s.v.push(old[i]);
            s.v.push(old[j]);
            let p = s.solve_segment();
            if best.as_ref().is_none_or(|(_, q)| p.length_squared() < q.length_squared()) {
                best = Some((s, p));
            }
        }
        let (s, p) = best.unwrap_or_default();
        *self = s;
        p
    }

    /// Tetrahedron `a b c d` (Ericson §5.1.6): the origin is inside unless it lies outside
    /// one of the four face planes (on the side away from the fourth vertex); for each such
    /// face the closest point on that triangle is a candidate, and the nearest one wins.
    fn solve_tetrahedron(&mut self) -> Option<Vec3> {
        let old = self.v.clone();
        // Each face with the vertex opposite it.
        let faces = [([0, 1, 2], 3), ([0, 2, 3], 1), ([0, 3, 1], 2), ([1, 3, 2], 0)];
        let mut best: Option<(Simplex, Vec3)> = None;
        for (f, opposite) in faces {
            let (a, b, c) = (old[f[0]].w, old[f[1]].w, old[f[2]].w);
            let n = (b - a).cross(c - a);
            let origin_side = n.dot(-a);
            let vertex_side = n.dot(old[opposite].w - a);
            // Outside: the origin and the opposite vertex on different sides; a flat
            // tetrahedron (vertex_side ≈ 0) has every face as a candidate.
            let flat = vertex_side * vertex_side <= 1e-12 * n.length_squared() * (old[opposite].w - a).length_squared();
            if !(flat || origin_side * vertex_side < 0.0) {
                continue;
            }
            let mut s = Simplex::default();
            for &k in &f {
                s.v.push(old[k]);
            }
            let p = s.solve_triangle();
            if best.as_ref().is_none_or(|(_, q)| p.length_squared() < q.length_squared()) {
                best = Some((s, p));
            }
        }
        let (s, p) = best?;
        *self = s;
        Some(p)
    }

    /// The witness points (A's frame): the simplex weights applied to each shape's points.
    fn witnesses(&self) -> (Vec3, Vec3) {
        self.v.iter().fold((Vec3::ZERO, Vec3::ZERO), |(a, b), s| (a + s.a * s.weight, b + s.b * s.weight))
    }
}

/// The shape-point indices of a finished simplex (Box2D's `b2SimplexCache`): a later query
/// of the same two shapes at nearby poses — the next iterate of a time-of-impact search —
/// starts from these points instead of from one, and typically needs one or two support
/// points instead of four or five. The distance found is the same (GJK converges from any
/// start to the same closest points, within [`REL_TOLERANCE`]); only the work differs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SimplexCache {
    /// Vertices cached (0: start from one point, the textbook GJK).
    count: u8,
    index_a: [u32; 4],
    index_b: [u32; 4],
}

impl SimplexCache {
    /// The vertices cached (0 to 4).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// Nothing cached yet.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    fn store(&mut self, simplex: &Simplex) {
        self.count = simplex.v.len() as u8;
        for (k, v) in simplex.v.iter().enumerate() {
            (self.index_a[k], self.index_b[k]) = (v.index_a, v.index_b);
        }
    }
}

/// The result of a distance query (world space).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Distance {
    /// Gap between the surfaces (m): the cores' distance minus both radii. Negative when
    /// rounded shapes overlap with separate cores (then it is minus their depth); when the
    /// cores overlap it is `−(rA + rB)` and [`Distance::overlap`] is set.
    pub distance: f32,
    /// Closest point on A's surface (on its core when the cores overlap).
    pub point_a: Vec3,
    /// Closest point on B's surface.
    pub point_b: Vec3,
    /// Unit normal from A to B along the closest points (zero when the cores overlap).
    pub normal: Vec3,
    /// GJK iterations: support points added (a query started from a cached simplex may
    /// add none).
    pub iterations: u32,
    /// The cores overlap (no depth is known).
    pub overlap: bool,
    /// The final simplex (A's frame), for the debug views.
    pub simplex: Simplex,
}

/// Distance between proxy `a` at pose `xa` and proxy `b` at pose `xb` (module docs), from
/// a one-point start.
pub fn distance(a: &Proxy, xa: &Iso, b: &Proxy, xb: &Iso) -> Distance {
    distance_cached(a, xa, b, xb, &mut SimplexCache::default())
}

/// [`distance`] starting from the simplex `cache` holds (empty: from one point, as
/// [`distance`] does), which is then replaced by this query's final simplex.
pub fn distance_cached(a: &Proxy, xa: &Iso, b: &Proxy, xb: &Iso, cache: &mut SimplexCache) -> Distance {
    // Everything in A's frame: B's points move once, through `rel`.
    let rel = Iso::relative(xa, xb);
    let vertex = |ia: u32, pa: Vec3, ib: u32, pb_local: Vec3| {
        let pb = rel.transform_point(pb_local);
        SimplexVertex { a: pa, b: pb, w: pb - pa, index_a: ia, index_b: ib, weight: 0.0 }
    };
    let support = |d: Vec3| {
        let (ia, pa) = a.support(-d);
        let (ib, pb_local) = b.support(rel.inv_transform_vector(d));
        vertex(ia, pa, ib, pb_local)
    };
    let mut simplex = Simplex::default();
    // Support points added (the cached vertices are not new ones).
    let mut iterations = u32::from(cache.is_empty());
    if cache.is_empty() {
        // Start from the points B's core and A's core were given with (any pair works).
        let start = rel.transform_point(b.first()) - a.first();
        let first = support(if start.length_squared() > 0.0 { -start } else { Vec3::X });
        simplex.v.push(first);
    } else {
        // The cached shape points, at the new poses.
        for k in 0..cache.len() {
            let (ia, ib) = (cache.index_a[k], cache.index_b[k]);
            simplex.v.push(vertex(ia, a.core_point(ia), ib, b.core_point(ib)));
        }
    }
    let mut overlap = false;
    // Van den Bergen's relative stop applies to |v|²: its square root is REL_TOLERANCE.
    let rel_tol = 2.0 * REL_TOLERANCE;
    let mut last_vv = f32::INFINITY;
    while iterations < MAX_ITERATIONS {
        let Some(v) = simplex.solve() else {
            overlap = true;
            break;
        };
        let vv = v.length_squared();
        // |v| never grows in exact arithmetic: when it stops shrinking, rounding has taken
        // over (near-touching faces cycled to the iteration cap in one call in eight of the
        // barrage's queries) and the simplex of the last step is as close as f32 gets.
        if vv >= last_vv {
            break;
        }
        last_vv = vv;
        // The origin on the simplex (to the f32 resolution of its points): touching cores.
        let scale = simplex.v.iter().map(|s| s.w.length_squared()).fold(0.0f32, f32::max);
        if vv <= 1e-12 * scale.max(1e-12) {
            overlap = true;
            break;
        }
        let w = support(-v);
        // No progress possible: the support point is already a vertex.
        if simplex.v.iter().any(|s| s.index_a == w.index_a && s.index_b == w.index_b) {
            break;
        }
        // Lower bound v·w/|v| close to the upper bound |v|: converged.
        if vv - v.dot(w.w) <= rel_tol * vv {
            break;
        }
        simplex.v.push(w);
        iterations += 1;
    }
    let (pa, pb) = simplex.witnesses();
    let (ra, rb) = (a.radius, b.radius);
    let mut out = Distance { iterations, overlap, ..Default::default() };
    let d = pb - pa;
    let core = d.length();
    if overlap || core <= 0.0 {
        out.overlap = true;
        out.distance = -(ra + rb);
        out.point_a = xa.transform_point(pa);
        out.point_b = xa.transform_point(pb);
    } else {
        let n = d / core;
        out.distance = core - ra - rb;
        out.normal = xa.transform_vector(n);
        out.point_a = xa.transform_point(pa + n * ra);
        out.point_b = xa.transform_point(pb - n * rb);
    }
    cache.store(&simplex);
    out.simplex = simplex;
    out
}

/// The distance between a box and a ball (a one-point proxy: a sphere, or the time of
/// impact's probe), either way round, in closed form; `None` for any other pair.
///
/// In the box's frame the ball's centre `p` has the closest box point `q`, `p` clamped to
/// the half extents (Ericson, *Real-Time Collision Detection* §5.1.3), and the gap is
/// `|p − q| − r`. A centre in or on the box is an overlap of the cores, reported as GJK
/// reports one: distance `−r`, no normal, both points at the centre. GJK reaches the same
/// answer (to [`REL_TOLERANCE`]) in one to four support points; this is the fast path
/// beside it (`Settings::closed_form_distance`).
pub fn ball_box(a: &Proxy, xa: &Iso, b: &Proxy, xb: &Iso) -> Option<Distance> {
    let ball = |p: &Proxy| match p.core {
        Core::Points(c, 1) => Some(c[0]),
        _ => None,
    };
    let cuboid = |p: &Proxy| match p.core {
        Core::Box(_, h) => Some(h),
        _ => None,
    };
    if let (Some(h), Some(c)) = (cuboid(a), ball(b)) {
        Some(ball_box_from(h, xa, a.radius, xb.transform_point(c), b.radius, false))
    } else if let (Some(c), Some(h)) = (ball(a), cuboid(b)) {
        Some(ball_box_from(h, xb, b.radius, xa.transform_point(c), a.radius, true))
    } else {
        None
    }
}

/// [`ball_box`] for the box of half extents `h` (and radius `rb`, zero for a plain box) at
/// `pose`, and a ball of radius `r` about the world point `centre`; `ball_first`: the ball is A.
fn ball_box_from(h: Vec3, pose: &Iso, rb: f32, centre: Vec3, r: f32, ball_first: bool) -> Distance {
    let p = pose.inv_transform_point(centre);
    let q = p.clamp(-h, h);
    let d = p - q;
    let core = d.length();
    if core <= 0.0 {
        return Distance { distance: -(rb + r), point_a: centre, point_b: centre, overlap: true, ..Default::default() };
    }
    // n: from the box to the ball.
    let n = d / core;
    let on_box = pose.transform_point(q + n * rb);
    let on_ball = pose.transform_point(p - n * r);
    let n = pose.transform_vector(n);
    let distance = core - rb - r;
    if ball_first {
        Distance { distance, point_a: on_ball, point_b: on_box, normal: -n, ..Default::default() }
    } else {
        Distance { distance, point_a: on_box, point_b: on_ball, normal: n, ..Default::default() }
    }
}

/// Distance between two posed shapes (see [`distance`]); with a compound, the least over
/// its children.
pub fn shape_distance(a: &Shape, xa: &Iso, b: &Shape, xb: &Iso) -> Distance {
    use crate::physics::compound::{child, child_count};
    if !matches!(a, Shape::Compound(_)) && !matches!(b, Shape::Compound(_)) {
        return distance(&Proxy::of(a), xa, &Proxy::of(b), xb);
    }
    let mut best: Option<Distance> = None;
    for ia in 0..child_count(a) {
        let (sa, pa) = child(a, ia);
        for ib in 0..child_count(b) {
            let (sb, pb) = child(b, ib);
            let d = distance(&Proxy::of(sa), &xa.mul(&pa), &Proxy::of(sb), &xb.mul(&pb));
            if best.as_ref().is_none_or(|b| d.distance < b.distance) {
                best = Some(d);
            }
        }
    }
    best.expect("a compound has a child")
}

#[cfg(test)]
#[path = "distance_tests.rs"]
mod tests;
