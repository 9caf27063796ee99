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
//! carry), and hill-climbs on hulls of [`LANE_SCAN_MAX_VERTICES`] or more. The support
//! *vertex* ([`Hull::support`]) takes the same four-lane scan carrying each lane's best
//! group, below [`VERTEX_SCAN_MAX_VERTICES`]: it names the brute force's vertex, and a
//! climb from vertex 0 (no earlier answer to start from) costs more up to that size.

use super::Hull;
use glam::{Vec3, Vec4};

/// Hulls with fewer vertices take [`Hull::support_distance`] by a four-lane scan; larger
/// ones hill-climb. The scan beats a hill climb started at vertex 0 on every hull measured,
/// up to 642 vertices (docs/BENCHMARKS.md, "Support mapping"); it grows linearly and the
/// climb roughly with √n, so the climb wins only on hulls well beyond that size.
pub const LANE_SCAN_MAX_VERTICES: usize = 1024;

/// Hulls with fewer vertices take [`Hull::support`] by a four-lane scan that carries the
/// index ([`Hull::support_scan`]); larger ones hill-climb from vertex 0. The two cost the
/// same near 640 vertices (docs/BENCHMARKS.md, "Support mapping").
pub const VERTEX_SCAN_MAX_VERTICES: usize = 640;

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

impl Hull {
    /// Index of the vertex furthest along `dir`: on hulls of fewer than
    /// [`VERTEX_SCAN_MAX_VERTICES`] the same vertex as [`Hull::support_brute_force`] (the
    /// lowest index on ties), by [`Hull::support_scan`]; larger ones hill-climb from
    /// vertex 0 (any of the tied vertices).
    #[inline]
    pub fn support(&self, dir: Vec3) -> u32 {
        if self.vertices.len() >= VERTEX_SCAN_MAX_VERTICES {
            self.support_hill_climb(dir, 0)
        } else {
            self.support_scan(dir)
        }
    }

    /// [`Hull::support_brute_force`] four lanes at a time: each lane keeps its largest dot
    /// product and the group it came from (a later group only when strictly larger), then
    /// the lanes holding the largest give the lowest vertex index. The products are those
    /// of [`Vec3::dot`], so the vertex is the brute force's, bit for bit (tested).
    #[inline]
    pub fn support_scan(&self, dir: Vec3) -> u32 {
        let (x, y, z) = (Vec4::splat(dir.x), Vec4::splat(dir.y), Vec4::splat(dir.z));
        let mut best = Vec4::splat(f32::NEG_INFINITY);
        let mut group = Vec4::ZERO;
        let mut g = Vec4::ZERO;
        for [gx, gy, gz] in &self.lanes {
            let d = *gx * x + *gy * y + *gz * z;
            let more = d.cmpgt(best);
            best = Vec4::select(more, d, best);
            group = Vec4::select(more, g, group);
            g += Vec4::ONE;
        }
        let top = best.max_element();
        let (best, group) = (best.to_array(), group.to_array());
        // The padding lanes repeat vertex 0, whose index is lower: they never win.
        (0..4).filter(|&l| best[l] == top).map(|l| group[l] as u32 * 4 + l as u32).min().unwrap_or(0)
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
