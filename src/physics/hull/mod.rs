//! Convex hulls as half-edge meshes.
//!
//! A [`Hull`] stores vertices, half-edges and faces (Gregorius, "Implementing Quickhull",
//! GDC 2014). Twin half-edges sit at indices `2i` and `2i + 1`, so the *unique* edges are
//! the even indices. Faces are wound counter-clockwise seen from outside; every face
//! carries its plane `n·x = offset` with `n` the outward unit normal.
//!
//! Building:
//! - [`Hull::from_points`] runs quickhull ([`quickhull`]) on a point cloud, points closer
//!   than 10⁻⁴ of its size welded first;
//! - [`Hull::from_faces`] takes vertices plus face index lists (any polygon size);
//! - both merge coplanar faces ([`merge`]) with a tolerance scaled to the hull's size.
//!
//! Queries: support mapping by brute force or by hill climbing over the edge graph, and
//! the support distance by a four-lane scan ([`support`]); the face planes are also kept as
//! rows, the vertices as four-lane groups and each edge's axis direction (`edge_axis`: on an
//! edge too short for its ends to give one, its faces') for the SAT, rebuilt whenever a
//! hull is moved ([`Hull::translated`]); a validator ([`Hull::validate`]) checks Euler's
//! formula, topology, planarity and convexity.
//!
//! Known limits: at most 65,535 vertices; inputs are taken in f32 and hulled in f64, so a
//! cloud whose features are smaller than the tolerance (or, through [`Hull::from_points`],
//! than 10⁻⁴ of its size) collapses to a simpler hull.

pub mod builders;
pub mod merge;
pub mod quickhull;
pub mod support;

use glam::{DVec3, Vec3};
use std::collections::HashMap;

/// Why a hull could not be built. Messages name what to change in the input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum HullError {
    /// No points at all.
    #[error("a hull needs at least 4 points, got none")]
    Empty,
    /// A coordinate is NaN or infinite.
    #[error("point {index} has a non-finite coordinate (NaN or infinity)")]
    NonFinite {
        /// Index of the offending point.
        index: usize,
    },
    /// Fewer than 4 distinct points, or all on a line or plane.
    #[error("the points are degenerate ({0}); a hull needs at least 4 points that are not all on one plane")]
    Degenerate(&'static str),
    /// Face lists that do not make a closed two-manifold.
    #[error("the faces do not form a closed convex polyhedron: {0}")]
    BadTopology(String),
    /// A face index list names a vertex that does not exist.
    #[error("face {face} names vertex {vertex}, but there are only {count} vertices")]
    IndexOutOfRange {
        /// Face with the bad index.
        face: usize,
        /// The bad index.
        vertex: u32,
        /// Number of vertices.
        count: usize,
    },
}

/// One directed half-edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfEdge {
    /// Vertex the half-edge starts at.
    pub origin: u32,
    /// The opposite half-edge (`index ^ 1`).
    pub twin: u32,
    /// Next half-edge counter-clockwise around `face`.
    pub next: u32,
    /// Face on the left of this half-edge.
    pub face: u32,
}

/// A convex polygonal face with its plane.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face {
    /// One half-edge of the face's loop.
    pub edge: u32,
    /// Outward unit normal.
    pub normal: Vec3,
    /// Plane offset: points on the face satisfy `normal · x = offset`.
    pub offset: f32,
}

/// A unique edge's place on the Gauss map: the faces on either side (the half-edge's and
/// its twin's) and the cosine between their normals.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EdgeArc {
    pub faces: [u32; 2],
    pub cos: f32,
}

/// Face planes `n·x = d` as structure-of-arrays, one entry per face. The SAT evaluates every
/// plane of a hull against one point (the other hull's centroid) before its face and edge
/// bounds; over these rows that pass vectorises.
#[derive(Clone, Debug, Default)]
pub(crate) struct PlaneRows {
    pub nx: Vec<f32>,
    pub ny: Vec<f32>,
    pub nz: Vec<f32>,
    pub d: Vec<f32>,
    /// `d − n·centroid`: how far the face lies beyond the centroid (≥ the inner radius).
    pub gap: Vec<f32>,
}

impl PlaneRows {
    fn of(faces: &[Face], centroid: Vec3) -> PlaneRows {
        PlaneRows {
            nx: faces.iter().map(|f| f.normal.x).collect(),
            ny: faces.iter().map(|f| f.normal.y).collect(),
            nz: faces.iter().map(|f| f.normal.z).collect(),
            d: faces.iter().map(|f| f.offset).collect(),
            gap: faces.iter().map(|f| f.offset - f.normal.dot(centroid)).collect(),
        }
    }

    /// `out[f] = n_f·p − d_f` for every face: the signed distance of `p` from each plane.
    pub fn separations(&self, p: Vec3, out: &mut Vec<f32>) {
        out.clear();
        out.extend(
            self.nx
                .iter()
                .zip(&self.ny)
                .zip(&self.nz)
                .zip(&self.d)
                .map(|(((x, y), z), d)| x * p.x + y * p.y + z * p.z - d),
        );
    }
}

/// A convex polyhedron stored as a half-edge mesh. Immutable once built.
#[derive(Clone, Debug)]
pub struct Hull {
    pub(crate) vertices: Vec<Vec3>,
    pub(crate) edges: Vec<HalfEdge>,
    pub(crate) faces: Vec<Face>,
    /// One outgoing half-edge per vertex (for walking the vertex's edge ring).
    pub(crate) vertex_edge: Vec<u32>,
    pub(crate) centroid: Vec3,
    pub(crate) tolerance: f32,
    /// Radius of the largest ball about `centroid` inside the hull (distance from the
    /// centroid to the nearest face plane): the SAT's bounds use it to skip axes.
    pub(crate) inner_radius: f32,
    /// Per unique edge (half-edge index / 2): its two faces and the cosine between their
    /// normals, packed so the SAT's edge bound reads one small record per edge.
    pub(crate) arcs: Vec<EdgeArc>,
    /// Per unique edge (half-edge index / 2): the direction the SAT's edge-pair axes take
    /// from it ([`edge_axis`]), rebuilt whenever the vertices move.
    pub(crate) axes: Vec<Vec3>,
    /// Face planes as rows, rebuilt whenever the faces move.
    pub(crate) planes: PlaneRows,
    /// Vertices as four-lane rows for [`Hull::support_distance`], rebuilt when they move.
    pub(crate) lanes: Vec<[glam::Vec4; 3]>,
    /// Largest vertex distance from the origin and the local AABB, kept because the broad
    /// and narrow phases ask for them every step.
    radius: f32,
    local_aabb: crate::physics::math::Aabb,
    /// Set for boxes built by [`Hull::cuboid`] (and kept only while the box stays centred):
    /// the narrow phase then runs the box-specific SAT.
    pub(crate) cuboid: Option<builders::Cuboid>,
}

/// An edge shorter than this fraction of its ends' largest coordinate takes its axis
/// direction from its faces (`edge_axis`).
pub const SHORT_EDGE: f32 = 1e-3;

/// The direction unique edge `e` (an even half-edge index) gives the SAT's edge-pair axes
/// (the cross products of an edge of each hull): its origin-to-target vector, or, on an
/// edge shorter than [`SHORT_EDGE`] of its ends' largest coordinate, the cross product of
/// its two faces' normals (parallel to the edge; the sign does not matter, the SAT orients
/// each axis itself).
///
/// The ends are f32 points, each rounded by up to about 6·10⁻⁸ of its largest coordinate,
/// so the vector between them turns by that over the edge's length. On an edge of 10⁻⁷ m
/// (a hull of nearly duplicate points keeps edges just above its tolerance) that is
/// degrees, and an axis a few degrees off moves an edge pair's separation by that angle
/// times the distance between the two edges: against the rim of a 200 m ground box, a hull
/// resting 2 mm into its top read as 0.03–7 m apart and got no contact. The faces' normals
/// do not depend on the edge's length; below [`SHORT_EDGE`] (a direction error above about
/// 10⁻⁴ rad) they give the direction. Longer edges keep their ends, exact to rounding
/// whatever the angle between their faces.
fn edge_axis(h: &Hull, e: usize) -> Vec3 {
    let (he, tw) = (&h.edges[e], &h.edges[e + 1]);
    let (p, q) = (h.vertices[he.origin as usize], h.vertices[tw.origin as usize]);
    let scale = SHORT_EDGE * p.abs().max(q.abs()).max_element();
    if (q - p).length_squared() < scale * scale {
        h.faces[tw.face as usize].normal.cross(h.faces[he.face as usize].normal)
    } else {
        q - p
    }
}

/// Linear tolerance for a point set: `3·(max|x| + max|y| + max|z|)·FLT_EPSILON` (Bounce,
/// Gregorius 2014). Scales with the size and placement of the hull.
pub fn tolerance_for(points: impl Iterator<Item = Vec3>) -> f32 {
    let m = points.fold(Vec3::ZERO, |m, p| m.max(p.abs()));
    3.0 * (m.x + m.y + m.z) * f32::EPSILON
}

impl Hull {
    /// The part `[t0, t1]` of the line `o + t·d` (`t` in `range`) inside the hull grown by
    /// `grow` (m), by Cyrus–Beck clipping against every face plane; `None` if it misses.
    /// Picking casts rays with it, the mesh contact clips triangle edges.
    pub fn clip_line(&self, o: Vec3, d: Vec3, grow: f32, range: (f32, f32)) -> Option<(f32, f32)> {
        let (mut t0, mut t1) = range;
        for f in self.faces() {
            let denom = f.normal.dot(d);
            let dist = f.offset + grow - f.normal.dot(o);
            if denom.abs() < 1e-12 {
                if dist < 0.0 {
                    return None;
                }
            } else {
                let t = dist / denom;
                if denom < 0.0 {
                    t0 = t0.max(t);
                } else {
                    t1 = t1.min(t);
                }
                if t0 > t1 {
                    return None;
                }
            }
        }
        Some((t0, t1))
    }

    /// Convex hull of a point cloud by quickhull, with points closer than
    /// [`quickhull::WELD`] of the cloud's size welded ([`quickhull::weld`]) and coplanar
    /// faces merged.
    pub fn from_points(points: &[Vec3]) -> Result<Hull, HullError> {
        check_points(points)?;
        quickhull::hull_polygons(&quickhull::weld(points))
            .and_then(|(verts, polys)| Hull::from_polygons(&verts, &polys))
    }

    /// Hull from vertices and faces (index lists wound counter-clockwise seen from outside).
    /// Faces may be any convex polygon; coplanar neighbours are merged into one face.
    pub fn from_faces(vertices: &[Vec3], faces: &[Vec<u32>]) -> Result<Hull, HullError> {
        check_points(vertices)?;
        let mut tris = Vec::new();
        for (fi, f) in faces.iter().enumerate() {
            if f.len() < 3 {
                return Err(HullError::BadTopology(format!("face {fi} has {} vertices, needs 3 or more", f.len())));
            }
            if let Some(&v) = f.iter().find(|&&v| v as usize >= vertices.len()) {
                return Err(HullError::IndexOutOfRange { face: fi, vertex: v, count: vertices.len() });
            }
            for i in 1..f.len() - 1 {
                tris.push([f[0], f[i], f[i + 1]]);
            }
        }
        let pts: Vec<DVec3> = vertices.iter().map(|v| v.as_dvec3()).collect();
        let tol = tolerance_for(vertices.iter().copied()) as f64;
        let polys = merge::merge_coplanar(&pts, &tris, tol)?;
        let hull = Hull::from_polygons(vertices, &polys)?;
        // The input must be convex: every vertex behind every face plane.
        // Allowed non-convexity: relative to the hull's size, well above rounding.
        let slack = 1e-4 * hull.radius().max(1e-3) + 16.0 * hull.tolerance;
        for (fi, f) in hull.faces.iter().enumerate() {
            for v in vertices {
                if f.normal.dot(*v) - f.offset > slack {
                    return Err(HullError::BadTopology(format!(
                        "the shape is not convex: a vertex lies {:.4} in front of face {fi}",
                        f.normal.dot(*v) - f.offset
                    )));
                }
            }
        }
        Ok(hull)
    }

    /// Build from polygons that already form a closed convex polyhedron (no merging).
    /// Unused vertices are dropped; twins are paired at `2i`, `2i + 1`.
    pub fn from_polygons(vertices: &[Vec3], polygons: &[Vec<u32>]) -> Result<Hull, HullError> {
        // Compact the vertex list to the used vertices, in first-use order.
        let mut remap = vec![u32::MAX; vertices.len()];
        let mut verts = Vec::new();
        for p in polygons {
            for &v in p {
                let slot = remap.get_mut(v as usize).ok_or(HullError::IndexOutOfRange {
                    face: 0,
                    vertex: v,
                    count: vertices.len(),
                })?;
                if *slot == u32::MAX {
                    *slot = verts.len() as u32;
                    verts.push(vertices[v as usize]);
                }
            }
        }
        if verts.len() < 4 || polygons.len() < 4 {
            return Err(HullError::Degenerate("fewer than 4 faces or vertices"));
        }
        let mut edges: Vec<HalfEdge> = Vec::new();
        let mut pair_of: HashMap<(u32, u32), (u32, u32)> = HashMap::new(); // key -> (pair, first origin)
        let mut filled: Vec<bool> = Vec::new();
        let mut faces = Vec::with_capacity(polygons.len());
        for (fi, poly) in polygons.iter().enumerate() {
            let n = poly.len();
            if n < 3 {
                return Err(HullError::BadTopology(format!("face {fi} has fewer than 3 vertices")));
            }
            let mut loop_edges = Vec::with_capacity(n);
            for i in 0..n {
                let a = remap[poly[i] as usize];
                let b = remap[poly[(i + 1) % n] as usize];
                if a == b {
                    return Err(HullError::BadTopology(format!("face {fi} repeats a vertex")));
                }
                let key = (a.min(b), a.max(b));
                let idx = match pair_of.get(&key) {
                    None => {
                        let k = (edges.len() / 2) as u32;
                        pair_of.insert(key, (k, a));
                        let blank = HalfEdge { origin: u32::MAX, twin: 0, next: 0, face: 0 };
                        edges.push(HalfEdge { twin: 2 * k + 1, ..blank });
                        edges.push(HalfEdge { twin: 2 * k, ..blank });
                        filled.push(false);
                        filled.push(false);
                        2 * k
                    }
                    Some(&(k, first)) => {
                        if first == a {
                            return Err(HullError::BadTopology(format!(
                                "edge {a}-{b} is used twice in the same direction (faces wound inconsistently?)"
                            )));
                        }
                        2 * k + 1
                    }
                };
                if filled[idx as usize] {
                    return Err(HullError::BadTopology(format!("edge {a}-{b} has more than two faces")));
                }
                filled[idx as usize] = true;
                edges[idx as usize].origin = a;
                edges[idx as usize].face = fi as u32;
                loop_edges.push(idx);
            }
            for i in 0..n {
                edges[loop_edges[i] as usize].next = loop_edges[(i + 1) % n];
            }
            faces.push(Face { edge: loop_edges[0], normal: Vec3::ZERO, offset: 0.0 });
        }
        if let Some(open) = filled.iter().position(|f| !f) {
            let e = &edges[open ^ 1];
            return Err(HullError::BadTopology(format!(
                "the surface is open: edge from vertex {} has only one face",
                e.origin
            )));
        }
        let mut vertex_edge = vec![u32::MAX; verts.len()];
        for (i, e) in edges.iter().enumerate() {
            if vertex_edge[e.origin as usize] == u32::MAX {
                vertex_edge[e.origin as usize] = i as u32;
            }
        }
        let centroid = verts.iter().copied().sum::<Vec3>() / verts.len() as f32;
        let tolerance = tolerance_for(verts.iter().copied());
        let mut hull = Hull {
            vertices: verts,
            edges,
            faces,
            vertex_edge,
            centroid,
            tolerance,
            inner_radius: 0.0,
            arcs: Vec::new(),
            axes: Vec::new(),
            planes: PlaneRows::default(),
            lanes: Vec::new(),
            radius: 0.0,
            local_aabb: crate::physics::math::Aabb::new(Vec3::ZERO, Vec3::ZERO),
            cuboid: None,
        };
        hull.update_bounds();
        for f in 0..hull.faces.len() {
            let (n, d) = hull.newell_plane(f);
            if !n.is_finite() || n.length_squared() < 0.5 {
                return Err(HullError::Degenerate("a face has zero area"));
            }
            hull.faces[f].normal = n;
            hull.faces[f].offset = d;
        }
        hull.update_rows();
        // The nearest face plane beyond the centroid (translations leave it unchanged).
        hull.inner_radius = hull.planes.gap.iter().copied().fold(f32::MAX, f32::min).max(0.0);
        hull.arcs = (0..hull.edges.len())
            .step_by(2)
            .map(|e| {
                let faces = [hull.edges[e].face, hull.edges[e + 1].face];
                let cos = hull.faces[faces[0] as usize].normal.dot(hull.faces[faces[1] as usize].normal);
                EdgeArc { faces, cos }
            })
            .collect();
        Ok(hull)
    }

    /// Face plane by Newell's method in f64: robust for slightly non-planar polygons.
    /// The offset is the largest `n·v` over the face's vertices, so no vertex of the face
    /// pokes out of its own plane.
    fn newell_plane(&self, f: usize) -> (Vec3, f32) {
        let mut n = DVec3::ZERO;
        let verts: Vec<DVec3> = self.face_vertices(f).map(|v| self.vertices[v as usize].as_dvec3()).collect();
        for i in 0..verts.len() {
            let a = verts[i];
            let b = verts[(i + 1) % verts.len()];
            n += DVec3::new((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y));
        }
        let n = n.normalize_or_zero();
        let d = verts.iter().map(|v| n.dot(*v)).fold(f64::MIN, f64::max);
        (n.as_vec3(), d as f32)
    }

    /// Vertex positions (body frame).
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// All half-edges; unique edges are the even indices.
    pub fn edges(&self) -> &[HalfEdge] {
        &self.edges
    }

    /// Faces with planes.
    pub fn faces(&self) -> &[Face] {
        &self.faces
    }

    /// Average of the vertices: a point strictly inside the hull, used to orient edge axes.
    pub fn centroid(&self) -> Vec3 {
        self.centroid
    }

    /// Radius of the largest ball about the centroid that fits inside the hull.
    pub fn inner_radius(&self) -> f32 {
        self.inner_radius
    }

    /// Linear tolerance of this hull (see [`tolerance_for`]).
    pub fn tolerance(&self) -> f32 {
        self.tolerance
    }

    /// Number of unique (undirected) edges.
    pub fn edge_count(&self) -> usize {
        self.edges.len() / 2
    }

    /// Vertex at the end of half-edge `e`.
    #[inline]
    pub fn target(&self, e: u32) -> u32 {
        self.edges[(e ^ 1) as usize].origin
    }

    /// The vertex indices of face `f`, counter-clockwise from outside.
    pub fn face_vertices(&self, f: usize) -> impl Iterator<Item = u32> + '_ {
        self.face_edges(f).map(move |e| self.edges[e as usize].origin)
    }

    /// The faces that meet at vertex `v`, once each, going round it (the face on the left of
    /// each half-edge leaving `v`).
    pub fn vertex_faces(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        let first = self.vertex_edge[v as usize];
        let mut e = first;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let face = self.edges[e as usize].face;
            // The twin of a half-edge leaving `v` comes back to it; its next leaves again.
            e = self.edges[(e ^ 1) as usize].next;
            done = e == first;
            Some(face)
        })
    }

    /// The half-edges of face `f`, in loop order.
    pub fn face_edges(&self, f: usize) -> impl Iterator<Item = u32> + '_ {
        let first = self.faces[f].edge;
        let mut e = first;
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let cur = e;
            e = self.edges[e as usize].next;
            done = e == first;
            Some(cur)
        })
    }

    /// Largest distance of a vertex from the body origin (bounding-sphere radius).
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// Local AABB.
    pub fn local_aabb(&self) -> crate::physics::math::Aabb {
        self.local_aabb
    }

    /// Rebuilds the SAT's face-plane rows and vertex lanes from the faces and vertices.
    fn update_rows(&mut self) {
        self.planes = PlaneRows::of(&self.faces, self.centroid);
        self.lanes = support::vertex_lanes(&self.vertices);
        self.axes = (0..self.edges.len()).step_by(2).map(|e| edge_axis(self, e)).collect();
    }

    /// Recomputes the cached radius and local AABB from the vertices.
    fn update_bounds(&mut self) {
        self.radius = self.vertices.iter().map(|v| v.length()).fold(0.0, f32::max);
        let mut min = Vec3::splat(f32::MAX);
        let mut max = Vec3::splat(f32::MIN);
        for v in &self.vertices {
            min = min.min(*v);
            max = max.max(*v);
        }
        self.local_aabb = crate::physics::math::Aabb::new(min, max);
    }

    /// A copy moved by `offset` (used to put the centre of mass at the body origin).
    pub fn translated(&self, offset: Vec3) -> Hull {
        let mut h = self.clone();
        h.cuboid = None;
        for v in &mut h.vertices {
            *v += offset;
        }
        for f in &mut h.faces {
            f.offset += f.normal.dot(offset);
        }
        h.centroid += offset;
        h.update_rows();
        h.tolerance = tolerance_for(h.vertices.iter().copied());
        h.update_bounds();
        h
    }

    /// Checks the invariants of a convex half-edge mesh: V − E + F = 2, twin/next/face
    /// consistency, every face planar and convex, every vertex on or behind every face
    /// plane. `tol` is a distance (use a multiple of [`Hull::tolerance`]).
    pub fn validate(&self, tol: f32) -> Result<(), String> {
        let v = self.vertices.len() as i64;
        let e = self.edge_count() as i64;
        let f = self.faces.len() as i64;
        if v - e + f != 2 {
            return Err(format!("Euler: V - E + F = {v} - {e} + {f} != 2"));
        }
        for (i, he) in self.edges.iter().enumerate() {
            let i = i as u32;
            if he.twin != i ^ 1 || self.edges[he.twin as usize].twin != i {
                return Err(format!("half-edge {i}: twin mismatch"));
            }
            if self.edges[he.next as usize].origin != self.target(i) {
                return Err(format!("half-edge {i}: next does not start where it ends"));
            }
            if self.edges[he.next as usize].face != he.face {
                return Err(format!("half-edge {i}: next is on another face"));
            }
            if self.edges[he.twin as usize].face == he.face {
                return Err(format!("half-edge {i}: both sides on face {}", he.face));
            }
        }
        for (vi, &ve) in self.vertex_edge.iter().enumerate() {
            if self.edges[ve as usize].origin != vi as u32 {
                return Err(format!("vertex {vi}: its half-edge does not start there"));
            }
        }
        let mut seen = vec![false; self.edges.len()];
        for (fi, face) in self.faces.iter().enumerate() {
            if (face.normal.length() - 1.0).abs() > 1e-4 {
                return Err(format!("face {fi}: normal not unit"));
            }
            let loop_e: Vec<u32> = self.face_edges(fi).collect();
            if loop_e.len() < 3 || loop_e.len() > self.edges.len() {
                return Err(format!("face {fi}: loop of {} edges", loop_e.len()));
            }
            for w in 0..loop_e.len() {
                let e0 = loop_e[w];
                let e1 = loop_e[(w + 1) % loop_e.len()];
                if self.edges[e0 as usize].face != fi as u32 {
                    return Err(format!("face {fi}: edge {e0} belongs elsewhere"));
                }
                seen[e0 as usize] = true;
                let p = self.vertices[self.edges[e0 as usize].origin as usize];
                let q = self.vertices[self.target(e0) as usize];
                let r = self.vertices[self.target(e1) as usize];
                let d = face.normal.dot(p) - face.offset;
                if d.abs() > tol {
                    return Err(format!("face {fi}: vertex off its plane by {d}"));
                }
                // Convex corner: the turn at q is to the left about the normal.
                let turn = (q - p).cross(r - q).dot(face.normal);
                if turn < -tol * ((q - p).length() + (r - q).length()) {
                    return Err(format!("face {fi}: reflex corner ({turn})"));
                }
            }
            for (vi, vtx) in self.vertices.iter().enumerate() {
                let d = face.normal.dot(*vtx) - face.offset;
                if d > tol {
                    return Err(format!("vertex {vi} is {d} in front of face {fi}"));
                }
            }
        }
        if let Some(e) = seen.iter().position(|s| !s) {
            return Err(format!("half-edge {e} is on no face loop"));
        }
        Ok(())
    }
}

/// Rejects empty and non-finite inputs.
pub(crate) fn check_points(points: &[Vec3]) -> Result<(), HullError> {
    if points.is_empty() {
        return Err(HullError::Empty);
    }
    if let Some(index) = points.iter().position(|p| !p.is_finite()) {
        return Err(HullError::NonFinite { index });
    }
    if points.len() < 4 {
        return Err(HullError::Degenerate("fewer than 4 points"));
    }
    Ok(())
}
