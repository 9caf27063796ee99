//! Support mapping: the hull vertex furthest along a direction.
//!
//! Two implementations that must agree (tests check it on thousands of directions):
//! - brute force over all vertices: branch-free and cache friendly, fastest for small
//!   hulls (Box3D uses it everywhere);
//! - hill climbing over the half-edge graph (Gregorius): from a start vertex, move to the
//!   neighbour with the largest strictly greater dot product until none improves.
//!
//! Termination: the dot product of a vertex is computed by the same expression every
//! time, so a walk that only moves on a *strict* increase can never revisit a vertex — the
//! floating-point cycles PhysX warns about come from tolerant comparisons, which we avoid.
//! A step cap of `vertex count` guards the loop anyway.
//!
//! The SAT's face queries need only the support *distance* `max v·dir`, not the vertex:
//! [`Hull::support_distance`] takes it over the vertices in four-lane groups (no argmax to
//! carry), and hill-climbs on hulls of [`LANE_SCAN_MAX_VERTICES`] or more.

use super::Hull;
use glam::{Vec3, Vec4};

/// Hulls with fewer vertices take [`Hull::support_distance`] by a four-lane scan; larger
/// ones hill-climb. The scan beats a hill climb started at vertex 0 on every hull measured,
/// up to 642 vertices (docs/BENCHMARKS.md, "Support mapping"); it grows linearly and the
/// climb roughly with √n, so the climb wins only on hulls well beyond that size.
pub const LANE_SCAN_MAX_VERTICES: usize = 1024;

/// A hull's vertices in groups of four as x, y and z rows; the last group is padded with
/// copies of vertex 0, which leaves every maximum unchanged.
pub(crate) fn vertex_lanes(vertices: &[Vec3]) -> Vec<[Vec4; 3]> {
    vertices
        .chunks(4)
        .map(|c| {
            let v = |i: usize| c.get(i).copied().unwrap_or(vertices[0]);
            let (a, b, cc, d) = (v(0), v(1), v(2), v(3));
            [Vec4::new(a.x, b.x, cc.x, d.x), Vec4::new(a.y, b.y, cc.y, d.y), Vec4::new(a.z, b.z, cc.z, d.z)]
        })
        .collect()
}

/// Hulls with at least this many vertices use hill climbing in [`Hull::support`]; below
/// it brute force wins (see docs/BENCHMARKS.md, "support").
pub const HILL_CLIMB_MIN_VERTICES: usize = 32;

impl Hull {
    /// Index of the vertex furthest along `dir` (any of them on ties).
    #[inline]
    pub fn support(&self, dir: Vec3) -> u32 {
        if self.vertices.len() >= HILL_CLIMB_MIN_VERTICES {
            self.support_hill_climb(dir, 0)
        } else {
            self.support_brute_force(dir)
        }
    }

    /// Support by scanning every vertex.
    #[inline]
    pub fn support_brute_force(&self, dir: Vec3) -> u32 {
        let mut best = 0;
        let mut best_d = f32::MIN;
        for (i, v) in self.vertices.iter().enumerate() {
            let d = dir.dot(*v);
            if d > best_d {
                best_d = d;
                best = i;
            }
        }
        best as u32
    }

    /// `max v·dir` over the vertices: the same value as `dir.dot(vertices[support(dir)])`,
    /// bit for bit (each product is summed x, y, z in the order [`Vec3::dot`] uses).
    #[inline]
    pub fn support_distance(&self, dir: Vec3) -> f32 {
        if self.vertices.len() >= LANE_SCAN_MAX_VERTICES {
            dir.dot(self.vertices[self.support_hill_climb(dir, 0) as usize])
        } else {
            self.support_distance_scan(dir)
        }
    }

    /// [`Hull::support_distance`] by scanning every vertex, four lanes at a time.
    #[inline]
    pub fn support_distance_scan(&self, dir: Vec3) -> f32 {
        let (x, y, z) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let mut m = Vec4::splat(f32::NEG_INFINITY);
        for [gx, gy, gz] in &self.lanes {
            m = m.max(*gx * x + *gy * y + *gz * z);
        }
        m.max_element()
    }

    /// Support by steepest-ascent hill climbing from vertex `start`.
    pub fn support_hill_climb(&self, dir: Vec3, start: u32) -> u32 {
        let mut best = start;
        let mut best_d = dir.dot(self.vertices[best as usize]);
        for _ in 0..self.vertices.len() {
            let first = self.vertex_edge[best as usize];
            let mut e = first;
            let mut cand = best;
            let mut cand_d = best_d;
            loop {
                let t = self.target(e);
                let d = dir.dot(self.vertices[t as usize]);
                if d > cand_d {
                    cand = t;
                    cand_d = d;
                }
                // Next outgoing half-edge around `best`: the twin comes back, its next leaves.
                e = self.edges[(e ^ 1) as usize].next;
                if e == first {
                    break;
                }
            }
            if cand == best {
                break;
            }
            best = cand;
            best_d = cand_d;
        }
        best
    }
}
