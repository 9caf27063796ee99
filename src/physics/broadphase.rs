//! Broad phase: sweep and prune (Baraff 1992; Ericson §7.5) over world AABBs.
//!
//! Each step the AABB intervals are sorted along the axis where the box centres vary most
//! (so a long row of dominoes or a tall tower both sweep well), then swept: each box is
//! tested against the boxes that start after it and before its interval ends. The sort starts from last
//! step's order, which is nearly sorted. Pairs come out sorted
//! by (a, b) for determinism.
//!
//! Limits: a single axis; a scene that is dense along all three axes degrades toward
//! O(n²) pair tests, as sweep and prune always does.

use crate::physics::math::Aabb;

/// Reusable sweep-and-prune state.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    order: Vec<u32>,
    /// Pair keys `a << 32 | b` and the radix sort's second buffer.
    keys: Vec<u64>,
    keys_tmp: Vec<u64>,
    /// Candidate pairs `(a, b)` with `a < b`, sorted.
    pub pairs: Vec<(u32, u32)>,
}

impl BroadPhase {
    /// Finds all overlapping pairs among `aabbs`; `skip(a, b)` filters pairs that can never
    /// need contacts (static–static, asleep–asleep).
    pub fn update(&mut self, aabbs: &[Aabb], skip: impl Fn(u32, u32) -> bool) {
        self.pairs.clear();
        self.keys.clear();
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
        // Pattern-defeating quicksort: near O(n) on last step's almost-sorted order, and
        // O(n log n) when the sweep axis changes. Ties broken by index (deterministic).
        self.order.sort_unstable_by(|&i, &j| {
            aabbs[i as usize].min[axis].total_cmp(&aabbs[j as usize].min[axis]).then(i.cmp(&j))
        });
        // Sweep: each box meets the boxes that start after it and before it ends.
        for (k, &i) in self.order.iter().enumerate() {
            let bi = &aabbs[i as usize];
            for &j in &self.order[k + 1..] {
                let bj = &aabbs[j as usize];
                if bj.min[axis] > bi.max[axis] {
                    break;
                }
                if bi.overlaps(bj) {
                    let (a, b) = if i < j { (i, j) } else { (j, i) };
                    if !skip(a, b) {
                        self.keys.push((u64::from(a) << 32) | u64::from(b));
                    }
                }
            }
        }
        radix_sort(&mut self.keys, &mut self.keys_tmp);
        self.pairs.extend(self.keys.iter().map(|&k| ((k >> 32) as u32, k as u32)));
    }
}

/// Sorts `keys` ascending by least-significant-digit radix sort, one byte per pass, skipping
/// bytes that are the same in every key (so pairs of at most 65,536 bodies take four
/// passes). O(n), no allocation once `tmp` has grown.
fn radix_sort(keys: &mut Vec<u64>, tmp: &mut Vec<u64>) {
    tmp.clear();
    tmp.resize(keys.len(), 0);
    for shift in (0..64).step_by(8) {
        let mut count = [0usize; 256];
        for &k in keys.iter() {
            count[((k >> shift) & 0xff) as usize] += 1;
        }
        if count.contains(&keys.len()) {
            continue; // this byte is the same everywhere
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &k in keys.iter() {
            let d = ((k >> shift) & 0xff) as usize;
            tmp[count[d]] = k;
            count[d] += 1;
        }
        std::mem::swap(keys, tmp);
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
        assert!(bp.pairs.windows(2).all(|w| w[0] < w[1]), "pairs sorted and unique");
        assert_eq!(bp.pairs, brute);
    }
}
