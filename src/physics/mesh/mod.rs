//! Static triangle meshes: a triangle soup with face normals and a bounding volume hierarchy
//! ([`bvh`]), validated when built, and the generators of the shipped levels ([`generate`]).
//!
//! A [`TriMesh`] is plain data in its own frame: vertices, triangles as index triples wound
//! counter-clockwise seen from the side the normal points to, one unit normal per triangle
//! and the hierarchy over the triangles' boxes. It is built once and only read afterwards.
//!
//! Validation ([`MeshError`]) refuses what a query could not honour: no triangles, a
//! non-finite vertex, an index past the vertex list, and a degenerate triangle — one whose
//! area is below [`DEGENERATE_RATIO`] of its longest edge squared (a sliver or a repeated
//! vertex has no usable normal).
//!
//! Known limits: triangles are one-sided for the character (Fauerby's sweep ignores faces
//! whose normal points away from the motion); the hierarchy is rebuilt from scratch, never
//! refitted (meshes are static).

pub mod bvh;
pub mod generate;

use crate::physics::math::Aabb;
use bvh::Bvh;
use glam::Vec3;

/// A triangle whose twice-area `|e₁ × e₂|` is below this fraction of its longest edge
/// squared is degenerate: its normal would be round-off (1e-6 is a needle 10⁻⁶ as wide as
/// it is long, far thinner than any modelled surface).
pub const DEGENERATE_RATIO: f32 = 1e-6;

/// Why a mesh could not be built.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MeshError {
    /// No triangles at all.
    #[error("the mesh has no triangles")]
    Empty,
    /// A vertex with a NaN or infinite coordinate.
    #[error("vertex {vertex} is not finite: {value:?}")]
    NonFinite {
        /// Vertex index.
        vertex: usize,
        /// Its coordinates.
        value: [f32; 3],
    },
    /// A triangle names a vertex that does not exist.
    #[error("triangle {triangle} uses vertex {index}, but there are only {count} vertices")]
    BadIndex {
        /// Triangle index.
        triangle: usize,
        /// The index it uses.
        index: u32,
        /// How many vertices there are.
        count: usize,
    },
    /// A triangle with (almost) no area.
    #[error("triangle {triangle} is degenerate (its area is almost zero: repeated or collinear vertices)")]
    Degenerate {
        /// Triangle index.
        triangle: usize,
    },
    /// The index list's length is not a multiple of three.
    #[error("the index list has {0} entries, not a multiple of 3")]
    Ragged(usize),
}

/// A static triangle mesh with its hierarchy (module docs).
#[derive(Clone, Debug)]
pub struct TriMesh {
    vertices: Vec<Vec3>,
    triangles: Vec<[u32; 3]>,
    normals: Vec<Vec3>,
    /// Per triangle, the triangle across each edge k (corner k to corner k + 1), or
    /// [`NO_NEIGHBOUR`]: edges are matched by their end *positions*, so meshes whose
    /// triangles repeat a shared vertex (an OBJ written without sharing) still connect.
    neighbours: Vec<[u32; 3]>,
    /// Per triangle, how it meets its neighbour across each edge ([`EdgeShape`]), computed
    /// once when the mesh is built (the narrow phase asks for it per candidate).
    edge_shapes: Vec<[EdgeShape; 3]>,
    /// Per triangle and edge, how far the neighbour reaches past the edge (the distance of
    /// its far corner from the edge's line; 0 at a boundary).
    neighbour_widths: Vec<[f32; 3]>,
    bvh: Bvh,
}

/// Most triangles [`TriMesh::corner_faces`] walks around one corner each way.
const MAX_FAN: usize = 64;

/// No triangle across this edge (a boundary, or an edge three or more triangles share).
pub const NO_NEIGHBOUR: u32 = u32::MAX;

/// How two triangles meet along an edge, seen from the first one's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeShape {
    /// No neighbour: the mesh ends here.
    Boundary,
    /// The neighbour bends away (a ridge, a step's lip): contact normals between the two
    /// faces' normals are real.
    Convex,
    /// The neighbour continues the plane (to 0.06°): only the face normal is real.
    Flat,
    /// The neighbour bends towards the first one's side (a valley): only face normals.
    Concave,
}

impl TriMesh {
    /// Builds and validates a mesh from vertices and triangles.
    pub fn new(vertices: Vec<Vec3>, triangles: Vec<[u32; 3]>) -> Result<TriMesh, MeshError> {
        if triangles.is_empty() {
            return Err(MeshError::Empty);
        }
        if let Some((vertex, v)) = vertices.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(MeshError::NonFinite { vertex, value: v.to_array() });
        }
        let mut normals = Vec::with_capacity(triangles.len());
        for (t, tri) in triangles.iter().enumerate() {
            if let Some(&index) = tri.iter().find(|&&i| i as usize >= vertices.len()) {
                return Err(MeshError::BadIndex { triangle: t, index, count: vertices.len() });
            }
            let [a, b, c] = tri.map(|i| vertices[i as usize]);
            let n = (b - a).cross(c - a);
            let longest = (b - a).length_squared().max((c - b).length_squared()).max((a - c).length_squared());
            if longest == 0.0 || n.length() <= DEGENERATE_RATIO * longest {
                return Err(MeshError::Degenerate { triangle: t });
            }
            normals.push(n.normalize());
        }
        let boxes: Vec<Aabb> = triangles.iter().map(|t| tri_aabb(t.map(|i| vertices[i as usize]))).collect();
        let bvh = Bvh::build(&boxes);
        let neighbours = neighbours(&vertices, &triangles);
        let mut mesh = TriMesh {
            vertices,
            triangles,
            normals,
            neighbours,
            edge_shapes: Vec::new(),
            neighbour_widths: Vec::new(),
            bvh,
        };
        let edges: Vec<[(EdgeShape, f32); 3]> =
            (0..mesh.triangles.len() as u32).map(|t| [0, 1, 2].map(|k| mesh.classify_edge(t, k))).collect();
        mesh.edge_shapes = edges.iter().map(|e| e.map(|(shape, _)| shape)).collect();
        mesh.neighbour_widths = edges.iter().map(|e| e.map(|(_, width)| width)).collect();
        Ok(mesh)
    }

    /// The triangle across edge `k` (corner k to corner k + 1) of triangle `t`, if any.
    #[inline]
    pub fn neighbour(&self, t: u32, k: usize) -> Option<u32> {
        Some(self.neighbours[t as usize][k]).filter(|&u| u != NO_NEIGHBOUR)
    }

    /// How triangle `t` meets its neighbour across edge `k` ([`EdgeShape`]): the
    /// neighbour's far corner below `t`'s plane is a convex edge, above it a concave one,
    /// within 10⁻³ of its distance from the edge a flat one.
    #[inline]
    pub fn edge_shape(&self, t: u32, k: usize) -> EdgeShape {
        self.edge_shapes[t as usize][k]
    }

    /// How far the neighbour of triangle `t` across edge `k` reaches past that edge: the
    /// distance of its far corner from the edge's line (0 without a neighbour).
    #[inline]
    pub fn neighbour_width(&self, t: u32, k: usize) -> f32 {
        self.neighbour_widths[t as usize][k]
    }

    /// Whether the mesh around corner `k` of triangle `t` keeps behind the plane through
    /// that corner with normal `n`: every corner of every triangle around it lies no farther
    /// along `n` than `tol` times its distance from the corner (the triangles walked across
    /// their shared edges). Then the corner is the mesh's farthest point along `n` there
    /// and `n` is in its normal cone: a contact at the corner along `n` is real. Where the
    /// mesh goes on towards `n` (a corner in the middle of a straight ridge, seen along the
    /// ridge), a point beyond the corner is nearer and the triangles there give the contact.
    pub fn corner_faces(&self, t: u32, k: usize, n: Vec3, tol: f32) -> bool {
        let w = self.vertices[self.triangles[t as usize][k] as usize];
        let behind = |u: u32| {
            self.triangle(u).iter().all(|c| {
                let e = *c - w;
                n.dot(e) <= tol * e.length()
            })
        };
        if !behind(t) {
            return false;
        }
        // Around the corner one way (across edge k, from the corner to the next), then, if
        // the mesh ends before the walk comes back round, the other way.
        for first in [k, (k + 2) % 3] {
            let (mut cur, mut edge) = (t, first);
            for _ in 0..MAX_FAN {
                let Some(u) = self.neighbour(cur, edge) else { break };
                if u == t {
                    return true;
                }
                if !behind(u) {
                    return false;
                }
                let tri = self.triangles[u as usize];
                let Some(j) = (0..3).find(|&j| self.vertices[tri[j] as usize] == w) else { break };
                // The edge at the corner other than the one just crossed.
                edge = if self.neighbours[u as usize][j] == cur { (j + 2) % 3 } else { j };
                cur = u;
            }
        }
        true
    }

    /// [`TriMesh::edge_shape`] and [`TriMesh::neighbour_width`] computed from the geometry
    /// (once per edge, at build).
    fn classify_edge(&self, t: u32, k: usize) -> (EdgeShape, f32) {
        let Some(u) = self.neighbour(t, k) else { return (EdgeShape::Boundary, 0.0) };
        let tri = self.triangles[t as usize];
        let (a, b) = (self.vertices[tri[k] as usize], self.vertices[tri[(k + 1) % 3] as usize]);
        // The neighbour's corner that is on neither end of the edge.
        let far = self.triangles[u as usize]
            .map(|i| self.vertices[i as usize])
            .into_iter()
            .max_by(|p, q| (*p - a).cross(b - a).length_squared().total_cmp(&(*q - a).cross(b - a).length_squared()))
            .unwrap_or(a);
        let d = self.normals[t as usize].dot(far - a);
        let reach = (far - a).length();
        let width = (far - a).cross(b - a).length() / (b - a).length();
        let shape = if d.abs() <= 1e-3 * reach {
            EdgeShape::Flat
        } else if d < 0.0 {
            EdgeShape::Convex
        } else {
            EdgeShape::Concave
        };
        (shape, width)
    }

    /// From a flat index list (three per triangle).
    pub fn from_indices(vertices: Vec<Vec3>, indices: &[u32]) -> Result<TriMesh, MeshError> {
        if indices.len() % 3 != 0 {
            return Err(MeshError::Ragged(indices.len()));
        }
        TriMesh::new(vertices, indices.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect())
    }

    /// The vertices.
    pub fn vertices(&self) -> &[Vec3] {
        &self.vertices
    }

    /// The triangles (vertex indices, counter-clockwise about the normal).
    pub fn triangles(&self) -> &[[u32; 3]] {
        &self.triangles
    }

    /// How many triangles.
    pub fn len(&self) -> usize {
        self.triangles.len()
    }

    /// Never true for a built mesh (kept for clippy's `len` rule).
    pub fn is_empty(&self) -> bool {
        self.triangles.is_empty()
    }

    /// Triangle `i`'s corners.
    #[inline]
    pub fn triangle(&self, i: u32) -> [Vec3; 3] {
        self.triangles[i as usize].map(|k| self.vertices[k as usize])
    }

    /// Triangle `i`'s unit normal.
    #[inline]
    pub fn normal(&self, i: u32) -> Vec3 {
        self.normals[i as usize]
    }

    /// The hierarchy.
    pub fn bvh(&self) -> &Bvh {
        &self.bvh
    }

    /// The box around every vertex.
    pub fn aabb(&self) -> Aabb {
        self.bvh.root_aabb()
    }

    /// Appends to `out` the triangles whose boxes overlap `b` (in no particular order).
    pub fn query_aabb(&self, b: &Aabb, out: &mut Vec<u32>) {
        self.bvh.query(b, out);
    }
}

/// Neighbours across every edge, matched by the bit patterns of the edges' end positions.
fn neighbours(vertices: &[Vec3], triangles: &[[u32; 3]]) -> Vec<[u32; 3]> {
    let key = |i: u32| vertices[i as usize].to_array().map(f32::to_bits);
    // Edge → the first two triangles on it (triangle, edge slot) and how many there are.
    type Slot = (u32, usize);
    type Edge = ([u32; 3], [u32; 3]);
    let mut edges: std::collections::HashMap<Edge, (Slot, Slot, u32)> = Default::default();
    let mut out = vec![[NO_NEIGHBOUR; 3]; triangles.len()];
    for (t, tri) in triangles.iter().enumerate() {
        for k in 0..3 {
            let (p, q) = (key(tri[k]), key(tri[(k + 1) % 3]));
            let e = if p < q { (p, q) } else { (q, p) };
            let here = (t as u32, k);
            match edges.get_mut(&e) {
                None => {
                    edges.insert(e, (here, here, 1));
                }
                Some((first, second, count)) => {
                    *count += 1;
                    if *count == 2 {
                        *second = here;
                        out[first.0 as usize][first.1] = t as u32;
                        out[t][k] = first.0;
                    } else {
                        // Three or more triangles on one edge: no single neighbour.
                        out[first.0 as usize][first.1] = NO_NEIGHBOUR;
                        out[second.0 as usize][second.1] = NO_NEIGHBOUR;
                    }
                }
            }
        }
    }
    out
}

/// The box around three points.
#[inline]
pub fn tri_aabb([a, b, c]: [Vec3; 3]) -> Aabb {
    Aabb::new(a.min(b).min(c), a.max(b).max(c))
}

/// The point of triangle `[a, b, c]` closest to `p` (Ericson, *Real-Time Collision
/// Detection* §5.1.5: Voronoi regions of the vertices, then the edges, then the face).
pub fn closest_point_on_triangle(p: Vec3, [a, b, c]: [Vec3; 3]) -> Vec3 {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(ap), ac.dot(ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(bp), ac.dot(bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(cp), ac.dot(cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quad() -> (Vec<Vec3>, Vec<[u32; 3]>) {
        let v = vec![Vec3::ZERO, Vec3::X, Vec3::new(1.0, 0.0, -1.0), Vec3::new(0.0, 0.0, -1.0)];
        (v, vec![[0, 1, 2], [0, 2, 3]])
    }

    #[test]
    fn a_quad_builds_with_upward_normals() {
        let (v, t) = quad();
        let m = TriMesh::new(v, t).unwrap();
        assert_eq!(m.len(), 2);
        for i in 0..2 {
            assert!((m.normal(i) - Vec3::Y).length() < 1e-6, "{}", m.normal(i));
        }
        assert_eq!(m.aabb(), Aabb::new(Vec3::new(0.0, 0.0, -1.0), Vec3::new(1.0, 0.0, 0.0)));
    }

    #[test]
    fn bad_meshes_are_refused_with_the_culprit() {
        let (v, _) = quad();
        assert_eq!(TriMesh::new(v.clone(), vec![]).unwrap_err(), MeshError::Empty);
        assert_eq!(
            TriMesh::new(v.clone(), vec![[0, 1, 7]]).unwrap_err(),
            MeshError::BadIndex { triangle: 0, index: 7, count: 4 }
        );
        assert_eq!(
            TriMesh::new(v.clone(), vec![[0, 1, 2], [0, 0, 3]]).unwrap_err(),
            MeshError::Degenerate { triangle: 1 }
        );
        let line = vec![Vec3::ZERO, Vec3::X, Vec3::X * 2.0];
        assert_eq!(TriMesh::new(line, vec![[0, 1, 2]]).unwrap_err(), MeshError::Degenerate { triangle: 0 });
        let mut nan = v.clone();
        nan[2].y = f32::NAN;
        assert!(matches!(TriMesh::new(nan, vec![[0, 1, 2]]).unwrap_err(), MeshError::NonFinite { vertex: 2, .. }));
        assert_eq!(TriMesh::from_indices(v, &[0, 1, 2, 3]).unwrap_err(), MeshError::Ragged(4));
        let e = MeshError::BadIndex { triangle: 3, index: 9, count: 4 }.to_string();
        assert!(e.contains("triangle 3") && e.contains("vertex 9"), "{e}");
    }

    /// The closest point against a dense sampling of the triangle.
    #[test]
    fn closest_point_on_triangle_matches_sampling() {
        let tri = [Vec3::new(0.0, 0.0, 0.0), Vec3::new(2.0, 0.5, 0.0), Vec3::new(0.3, 1.5, 0.8)];
        let mut seed = 7u64;
        let mut rnd = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 40) as f32 / (1u64 << 24) as f32) * 6.0 - 3.0
        };
        for _ in 0..200 {
            let p = Vec3::new(rnd(), rnd(), rnd());
            let q = closest_point_on_triangle(p, tri);
            let mut best = f32::MAX;
            let n = 200;
            for i in 0..=n {
                for j in 0..=(n - i) {
                    let (u, v) = (i as f32 / n as f32, j as f32 / n as f32);
                    let s = tri[0] + (tri[1] - tri[0]) * u + (tri[2] - tri[0]) * v;
                    best = best.min((s - p).length());
                }
            }
            let d = (q - p).length();
            assert!(d <= best + 1e-5 && d >= best - 0.02, "closest {d}, sampled {best}");
        }
    }
}
