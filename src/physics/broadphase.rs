//! Broad phase: a hashed uniform grid (Ericson, *Real-Time Collision Detection* §7.1–7.2)
//! over world AABBs.
//!
//! Each step the cell size is chosen as the largest extent among the *ordinary* bodies
//! (those at most [`LARGE_FACTOR`] × the median extent). Every ordinary body is filed under
//! the one cell holding its min corner; since no ordinary box is wider than a cell, two
//! overlapping ordinary boxes sit in the same or in adjacent cells. A body therefore meets
//! only the bodies of its own cell and of its 13 "forward" neighbour cells (the half of the
//! 26 neighbours that come after it in z, y, x order), so every pair of cells is visited
//! once. Cells are hashed into a table of about 2n buckets, filled by a counting sort, so the
//! grid costs O(n) and allocates nothing once the buffers have grown. The few *large* bodies
//! (ground, walls) are tested against every body directly.
//!
//! Pairs come out sorted by (a, b) (radix sort), so the result does not depend on hashing
//! order: the step stays deterministic.
//!
//! Limits: a scene of many large bodies degrades toward O(n·large); bodies that are very
//! far apart only cost hash collisions (extra box tests), never missed pairs.

use crate::physics::math::Aabb;
use glam::Vec3A;

/// Bodies wider than this multiple of the median AABB extent are handled as large bodies,
/// outside the grid (so one ground plane does not set the cell size for a pile of cubes).
pub const LARGE_FACTOR: f32 = 4.0;

/// The 13 neighbour cell offsets after (0, 0, 0) in lexicographic (z, y, x) order.
const FORWARD: [[i32; 3]; 13] = {
    let mut out = [[0; 3]; 13];
    let mut k = 0;
    let mut z = 0;
    while z <= 2 {
        let mut y = 0;
        while y <= 2 {
            let mut x = 0;
            while x <= 2 {
                let d = [x - 1, y - 1, z - 1];
                // (dz, dy, dx) > (0, 0, 0) lexicographically.
                if d[2] > 0 || (d[2] == 0 && (d[1] > 0 || (d[1] == 0 && d[0] > 0))) {
                    out[k] = d;
                    k += 1;
                }
                x += 1;
            }
            y += 1;
        }
        z += 1;
    }
    out
};

/// Reusable grid state; every buffer is kept between steps.
#[derive(Clone, Debug, Default)]
pub struct BroadPhase {
    /// Largest extent of each body's AABB, then scratch for the median.
    extent: Vec<f32>,
    scratch: Vec<f32>,
    /// Integer cell of each grid body (unused for large bodies).
    cell: Vec<[i32; 3]>,
    /// Bodies too large for the grid.
    large: Vec<u32>,
    /// Bucket start offsets into the slots (len buckets + 1); per slot (grid bodies in
    /// bucket order) the body, its box and its cell.
    start: Vec<u32>,
    sorted: Vec<u32>,
    slot_box: Vec<[Vec3A; 2]>,
    slot_cell: Vec<[i32; 3]>,
    /// Pair keys `a << 32 | b` and the radix sort's second buffer.
    keys: Vec<u64>,
    keys_tmp: Vec<u64>,
    /// Candidate pairs `(a, b)` with `a < b`, sorted.
    pub pairs: Vec<(u32, u32)>,
}

/// Bucket of a cell: the three coordinates packed into 63 bits (21 each, wrapping) and
/// Fibonacci-hashed (Knuth's multiplicative hashing), keeping the top `bits` bits. Unlike
/// XOR-of-primes hashing it spreads the small neighbouring coordinates of a pile evenly.
#[inline]
fn bucket(c: [i32; 3], bits: u32) -> usize {
    const M: u64 = (1 << 21) - 1;
    let key = (c[0] as u64 & M) | ((c[1] as u64 & M) << 21) | ((c[2] as u64 & M) << 42);
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits)) as usize
}

impl BroadPhase {
    /// Finds all overlapping pairs among `aabbs`; `skip(a, b)` filters pairs that can never
    /// need contacts (static–static, asleep–asleep).
    pub fn update(&mut self, aabbs: &[Aabb], skip: impl Fn(u32, u32) -> bool) {
        self.pairs.clear();
        self.keys.clear();
        self.large.clear();
        let n = aabbs.len();
        if n < 2 {
            return;
        }
        // Cell size: the largest extent among bodies up to LARGE_FACTOR × the median.
        self.extent.clear();
        self.extent.extend(aabbs.iter().map(|b| (b.max - b.min).max_element()));
        self.scratch.clone_from(&self.extent);
        let mid = n / 2;
        let (_, &mut median, _) = self.scratch.select_nth_unstable_by(mid, |a, b| a.total_cmp(b));
        let limit = LARGE_FACTOR * median.max(1e-6);
        let mut cell_size = 0.0f32;
        for (i, &e) in self.extent.iter().enumerate() {
            if e <= limit {
                cell_size = cell_size.max(e);
            } else {
                self.large.push(i as u32);
            }
        }
        // A NaN extent (a body that blew up) lands among the large bodies and overlaps nothing.
        let cell_size = cell_size.max(1e-4);
        let inv = 1.0 / cell_size;
        let buckets = (2 * n).next_power_of_two();
        let bits = buckets.trailing_zeros();
        // Counting sort of the grid bodies by bucket.
        self.cell.clear();
        self.start.clear();
        self.start.resize(buckets + 1, 0);
        for (i, b) in aabbs.iter().enumerate() {
            let c = (b.min * inv).floor();
            let c = [c.x as i32, c.y as i32, c.z as i32];
            self.cell.push(c);
            if self.extent[i] <= limit {
                self.start[bucket(c, bits) + 1] += 1;
            }
        }
        for k in 0..buckets {
            self.start[k + 1] += self.start[k];
        }
        let m = self.start[buckets] as usize;
        self.sorted.clear();
        self.sorted.resize(m, 0);
        self.slot_box.clear();
        self.slot_box.resize(m, [Vec3A::ZERO; 2]);
        self.slot_cell.clear();
        self.slot_cell.resize(m, [0; 3]);
        // Fill in body order, so each bucket lists its bodies in ascending index; the boxes
        // and cells are copied next to each other so the pair loops read memory in order.
        for (i, &e) in self.extent.iter().enumerate() {
            if e <= limit {
                let k = bucket(self.cell[i], bits);
                let at = self.start[k] as usize;
                self.start[k] += 1;
                self.sorted[at] = i as u32;
                self.slot_box[at] = [aabbs[i].min.into(), aabbs[i].max.into()];
                self.slot_cell[at] = self.cell[i];
            }
        }
        // `start[k]` now holds the end of bucket k; shift back to starts.
        for k in (1..=buckets).rev() {
            self.start[k] = self.start[k - 1];
        }
        self.start[0] = 0;
        // A forward cell that hashes to the body's own bucket holds the body itself.
        let emit = |keys: &mut Vec<u64>, i: u32, j: u32| {
            let (a, b) = if i < j { (i, j) } else { (j, i) };
            if a != b && !skip(a, b) {
                keys.push((u64::from(a) << 32) | u64::from(b));
            }
        };
        // Branch-free box test on the SIMD lanes (the fourth lane is ignored by `all`).
        let overlap = |p: &[Vec3A; 2], q: &[Vec3A; 2]| (p[0].cmple(q[1]) & q[0].cmple(p[1])).all();
        for p in 0..m {
            let (i, bp, ci) = (self.sorted[p], self.slot_box[p], self.slot_cell[p]);
            // Own bucket: the slots after this one. Hash collisions can put the same pair in
            // reach twice (own and forward bucket alike); the sorted keys are deduplicated.
            let end = self.start[bucket(ci, bits) + 1] as usize;
            for (bq, &j) in self.slot_box[p + 1..end].iter().zip(&self.sorted[p + 1..end]) {
                if overlap(&bp, bq) {
                    emit(&mut self.keys, i, j);
                }
            }
            for d in FORWARD {
                let c = [ci[0].wrapping_add(d[0]), ci[1].wrapping_add(d[1]), ci[2].wrapping_add(d[2])];
                let k = bucket(c, bits);
                let (s, e) = (self.start[k] as usize, self.start[k + 1] as usize);
                for (bq, &j) in self.slot_box[s..e].iter().zip(&self.sorted[s..e]) {
                    if overlap(&bp, bq) {
                        emit(&mut self.keys, i, j);
                    }
                }
            }
        }
        // Large bodies against everything (each large–large pair once).
        for &l in &self.large {
            let bl = &aabbs[l as usize];
            for (j, bj) in aabbs.iter().enumerate() {
                let in_grid = self.extent[j] <= limit;
                let j = j as u32;
                if j == l || (!in_grid && j < l) {
                    continue;
                }
                if bl.overlaps(bj) {
                    emit(&mut self.keys, l, j);
                }
            }
        }
        radix_sort(&mut self.keys, &mut self.keys_tmp);
        self.keys.dedup();
        self.pairs.extend(self.keys.iter().map(|&k| ((k >> 32) as u32, k as u32)));
    }
}

/// Sorts `keys` ascending by least-significant-digit radix sort, one byte per pass, skipping
/// bytes that are the same in every key (so pairs of at most 65,536 bodies take four
/// passes). The histograms of all eight bytes are counted in one read of the keys. O(n), no
/// allocation once `tmp` has grown.
fn radix_sort(keys: &mut Vec<u64>, tmp: &mut Vec<u64>) {
    tmp.clear();
    tmp.resize(keys.len(), 0);
    let mut count = [[0u32; 256]; 8];
    for &k in keys.iter() {
        for (byte, c) in count.iter_mut().enumerate() {
            c[((k >> (8 * byte)) & 0xff) as usize] += 1;
        }
    }
    for (byte, count) in count.iter_mut().enumerate() {
        if count.contains(&(keys.len() as u32)) {
            continue; // this byte is the same everywhere
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        let shift = 8 * byte;
        for &k in keys.iter() {
            let d = ((k >> shift) & 0xff) as usize;
            tmp[count[d] as usize] = k;
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

    fn brute_force(boxes: &[Aabb]) -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if boxes[i].overlaps(&boxes[j]) {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out
    }

    #[test]
    fn grid_matches_all_pairs_with_large_bodies_far_clusters_and_nan() {
        let mut rng = SplitMix64(11);
        let mut boxes = vec![
            // Ground, a wall and a NaN box (a body that blew up) among ordinary boxes.
            Aabb::new(Vec3::new(-50.0, -1.0, -50.0), Vec3::new(50.0, 0.0, 50.0)),
            Aabb::new(Vec3::new(4.0, 0.0, -50.0), Vec3::new(5.0, 10.0, 50.0)),
            Aabb::new(Vec3::splat(f32::NAN), Vec3::splat(f32::NAN)),
        ];
        for k in 0..600 {
            // Two dense clusters 10 km apart, sizes from 0.05 to 1.2 m, negative coordinates.
            let off = if k % 2 == 0 { Vec3::new(-3.0, 0.0, -2.0) } else { Vec3::new(1.0e4, 5.0, -1.0e4) };
            let c = off + Vec3::new(rng.next_f32() * 8.0, rng.next_f32() * 4.0 - 0.5, rng.next_f32() * 4.0);
            let h = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.6 + 0.025;
            boxes.push(Aabb::new(c - h, c + h));
        }
        let mut bp = BroadPhase::default();
        bp.update(&boxes, |a, b| a == 0 && b == 1);
        let brute: Vec<_> = brute_force(&boxes).into_iter().filter(|&(a, b)| !(a == 0 && b == 1)).collect();
        assert!(brute.len() > 1000, "{}", brute.len());
        assert!(brute.iter().any(|&(a, _)| a == 0) && brute.iter().any(|&(a, _)| a == 1));
        assert_eq!(bp.pairs, brute);
        // The same boxes again, reusing the buffers: the same pairs.
        bp.update(&boxes, |a, b| a == 0 && b == 1);
        assert_eq!(bp.pairs, brute);
    }

    #[test]
    fn tiny_worlds_never_pair_a_body_with_itself() {
        // Two to five boxes: 4–16 buckets, so forward cells often hash to the own bucket.
        let mut rng = SplitMix64(3);
        let mut bp = BroadPhase::default();
        for _ in 0..2000 {
            let n = 2 + (rng.next_f32() * 4.0) as usize;
            let boxes: Vec<Aabb> = (0..n)
                .map(|_| {
                    let c = Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 3.0;
                    Aabb::new(c - 0.5, c + 0.5)
                })
                .collect();
            bp.update(&boxes, |_, _| false);
            assert_eq!(bp.pairs, brute_force(&boxes));
        }
    }

    #[test]
    fn grid_matches_all_pairs() {
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
        let brute = brute_force(&boxes);
        assert!(brute.len() > 100);
        assert!(bp.pairs.windows(2).all(|w| w[0] < w[1]), "pairs sorted and unique");
        assert_eq!(bp.pairs, brute);
    }
}
