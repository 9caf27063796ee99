//! Broad phase: sweep and prune (Baraff 1992; Ericson §7.5) over world AABBs.
//!
//! Each step the AABB intervals are sorted along the axis where the box centres vary most
//! (so a long row of dominoes or a tall tower both sweep well), then swept: a box is
//! tested against the active boxes whose interval has not ended yet. The sort reuses last
//! step's order, which is nearly sorted, so it costs close to O(n). Pairs come out sorted
//! by (a, b) for determinism.
//!
//! Limits: a single axis; a scene that is dense along all three axes degrades toward
//! O(n²) pair tests, as sweep and prune always does.

use crate::physics::math::Aabb;

/// Reusable sweep-and-prune state.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    order: Vec<u32>,
    active: Vec<u32>,
    /// Candidate pairs `(a, b)` with `a < b`, sorted.
    pub pairs: Vec<(u32, u32)>,
}

impl BroadPhase {
    /// Finds all overlapping pairs among `aabbs`; `skip(a, b)` filters pairs that can never
    /// need contacts (static–static, asleep–asleep).
    pub fn update(&mut self, aabbs: &[Aabb], skip: impl Fn(u32, u32) -> bool) {
        self.pairs.clear();
        let n = aabbs.len();
        if self.order.len() != n {
            self.order.clear();
            self.order.extend(0..n as u32);
        }
        if n < 2 {
            return;
        }
        // Axis of largest variance of the centres.
        let mut mean = glam::Vec3::ZERO;
        let mut sq = glam::Vec3::ZERO;
        for b in aabbs {
            let c = b.center();
            mean += c;
            sq += c * c;
        }
        let var = sq / n as f32 - (mean / n as f32) * (mean / n as f32);
        let axis = if var.x >= var.y && var.x >= var.z {
            0
        } else if var.y >= var.z {
            1
        } else {
            2
        };
        // Insertion sort: last step's order is almost right. Ties broken by index.
        let key = |i: u32| (aabbs[i as usize].min[axis], i);
        for i in 1..n {
            let x = self.order[i];
            let kx = key(x);
            let mut j = i;
            while j > 0 && key(self.order[j - 1]).partial_cmp(&kx) == Some(std::cmp::Ordering::Greater) {
                self.order[j] = self.order[j - 1];
                j -= 1;
            }
            self.order[j] = x;
        }
        self.active.clear();
        for &i in &self.order {
            let bi = &aabbs[i as usize];
            self.active.retain(|&j| aabbs[j as usize].max[axis] >= bi.min[axis]);
            for &j in &self.active {
                if bi.overlaps(&aabbs[j as usize]) {
                    let (a, b) = if i < j { (i, j) } else { (j, i) };
                    if !skip(a, b) {
                        self.pairs.push((a, b));
                    }
                }
            }
            self.active.push(i);
        }
        self.pairs.sort_unstable();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::builders::SplitMix64;
    use glam::Vec3;

    #[test]
    fn sweep_and_prune_matches_all_pairs() {
        let mut rng = SplitMix64(5);
        let boxes: Vec<Aabb> = (0..300)
            .map(|_| {
                let c = Vec3::new(rng.next_f32() * 10.0, rng.next_f32() * 3.0, rng.next_f32() * 10.0);
                let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.6 + 0.05;
                Aabb::new(c - h, c + h)
            })
            .collect();
        let mut bp = BroadPhase::default();
        bp.update(&boxes, |_, _| false);
        let mut brute = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if boxes[i].overlaps(&boxes[j]) {
                    brute.push((i as u32, j as u32));
                }
            }
        }
        assert!(brute.len() > 100);
        assert_eq!(bp.pairs, brute);
    }
}
