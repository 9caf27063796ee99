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

use super::Hull;
use glam::Vec3;

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
