//! A bounding volume hierarchy over boxes (a mesh's triangles), built once top-down.
//!
//! **Build.** The boxes' centres are split at the median along the longest axis of their
//! bounds (`select_nth_unstable`, so O(n log n) in all), until a node holds at most
//! [`LEAF_SIZE`] boxes. Median splits give a balanced tree of depth ⌈log₂(n/4)⌉ + 1 whatever
//! the triangle sizes; a surface-area heuristic would give tighter boxes on uneven meshes at
//! a higher build cost.
//!
//! **Layout.** Nodes in one array, depth-first: a node's left child follows it, its right
//! child is at `right`; a leaf names a run of `order` (the permuted box indices).
//!
//! **Queries** walk the tree with a fixed stack (no allocation): [`Bvh::query`] appends every
//! box overlapping an AABB (a swept sphere's or ellipsoid's box, a body's box); [`Bvh::ray`]
//! finds the nearest hit along a ray (a click, a label's line of sight), visiting only the
//! boxes the ray reaches before the nearest hit so far.
//!
//! Known limits: the tree is static (no refit or insertion); the stack holds 64 entries,
//! enough for 2⁶⁴ leaves.

use crate::physics::math::Aabb;
use glam::Vec3;

/// Most boxes in a leaf.
pub const LEAF_SIZE: usize = 4;

/// One node (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Node {
    /// The box around everything below.
    pub aabb: Aabb,
    /// Leaf: first entry of `order`; inner node: index of the right child.
    pub start_or_right: u32,
    /// Leaf: number of boxes (≥ 1); inner node: 0.
    pub count: u32,
}

impl Node {
    /// Whether the node is a leaf.
    #[inline]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }
}

/// The hierarchy (module docs).
#[derive(Clone, Debug, Default)]
pub struct Bvh {
    nodes: Vec<Node>,
    order: Vec<u32>,
    /// The boxes in `order`'s order, so a leaf tests each of its boxes.
    leaf_boxes: Vec<Aabb>,
}

impl Bvh {
    /// Builds the tree over `boxes` (indices into `boxes` are what queries return).
    pub fn build(boxes: &[Aabb]) -> Bvh {
        let mut bvh = Bvh {
            nodes: Vec::with_capacity(2 * boxes.len() / LEAF_SIZE + 1),
            order: (0..boxes.len() as u32).collect(),
            leaf_boxes: Vec::new(),
        };
        if !boxes.is_empty() {
            let centres: Vec<Vec3> = boxes.iter().map(|b| b.center()).collect();
            bvh.split(boxes, &centres, 0, boxes.len());
        }
        bvh.leaf_boxes = bvh.order.iter().map(|&i| boxes[i as usize]).collect();
        bvh
    }

    /// Builds the subtree over `order[start..end]`; returns its node index.
    fn split(&mut self, boxes: &[Aabb], centres: &[Vec3], start: usize, end: usize) -> u32 {
        let items = &mut self.order[start..end];
        let aabb = items.iter().map(|&i| boxes[i as usize]).reduce(|a, b| a.union(&b)).expect("non-empty");
        let me = self.nodes.len() as u32;
        if end - start <= LEAF_SIZE {
            self.nodes.push(Node { aabb, start_or_right: start as u32, count: (end - start) as u32 });
            return me;
        }
        let (lo, hi) = items.iter().fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), &i| {
            (lo.min(centres[i as usize]), hi.max(centres[i as usize]))
        });
        let extent = hi - lo;
        let axis = if extent.x >= extent.y && extent.x >= extent.z {
            0
        } else if extent.y >= extent.z {
            1
        } else {
            2
        };
        let mid = (end - start) / 2;
        items.select_nth_unstable_by(mid, |&a, &b| centres[a as usize][axis].total_cmp(&centres[b as usize][axis]));
        self.nodes.push(Node { aabb, start_or_right: 0, count: 0 });
        self.split(boxes, centres, start, start + mid);
        let right = self.split(boxes, centres, start + mid, end);
        self.nodes[me as usize].start_or_right = right;
        me
    }

    /// The nodes, depth-first (for drawing the tree level by level).
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The boxes' indices in leaf order.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// The root's box (an empty box at the origin for an empty tree).
    pub fn root_aabb(&self) -> Aabb {
        self.nodes.first().map(|n| n.aabb).unwrap_or(Aabb::new(Vec3::ZERO, Vec3::ZERO))
    }

    /// Depth of every node (root 0), in node order: for drawing one level at a time.
    pub fn depths(&self) -> Vec<u32> {
        let mut depth = vec![0u32; self.nodes.len()];
        for (i, n) in self.nodes.iter().enumerate() {
            if !n.is_leaf() {
                depth[i + 1] = depth[i] + 1;
                depth[n.start_or_right as usize] = depth[i] + 1;
            }
        }
        depth
    }

    /// Appends to `out` every box index whose box overlaps `b`.
    pub fn query(&self, b: &Aabb, out: &mut Vec<u32>) {
        self.walk(|x| x.overlaps(b), |i| out.push(i));
    }

    /// The nearest hit of the ray `o + t·d`, t in [0, `max_t`]: `hit(i)` gives box `i`'s
    /// item's hit distance, asked only for boxes the ray reaches before the nearest hit so
    /// far (the slab test; a zero component of `d` gives an infinite slab, as it should).
    pub fn ray(&self, o: Vec3, d: Vec3, max_t: f32, mut hit: impl FnMut(u32) -> Option<f32>) -> Option<f32> {
        let inv = d.recip();
        let best = std::cell::Cell::new(max_t);
        let mut found = false;
        let reaches = |b: &Aabb| {
            let (t0, t1) = ((b.min - o) * inv, (b.max - o) * inv);
            // min/max skip a NaN (0 · ∞: the origin on a slab's face along an axis the ray
            // does not move in), which then constrains nothing.
            let near = t0.min(t1).max_element().max(0.0);
            let far = t0.max(t1).min_element().min(best.get());
            near <= far
        };
        self.walk(reaches, |k| {
            if let Some(t) = hit(k).filter(|t| *t <= best.get()) {
                best.set(t);
                found = true;
            }
        });
        found.then(|| best.get())
    }

    /// Walks the tree with a fixed stack: descends into each node whose box `enter`
    /// accepts, and hands `leaf` each box index of a reached leaf whose own box it accepts.
    fn walk(&self, enter: impl Fn(&Aabb) -> bool, mut leaf: impl FnMut(u32)) {
        if self.nodes.is_empty() {
            return;
        }
        let mut stack = [0u32; 64];
        let mut top = 1;
        while top > 0 {
            top -= 1;
            let i = stack[top];
            let n = &self.nodes[i as usize];
            if !enter(&n.aabb) {
                continue;
            }
            if n.is_leaf() {
                let run = n.start_or_right as usize..(n.start_or_right + n.count) as usize;
                for (&k, bx) in self.order[run.clone()].iter().zip(&self.leaf_boxes[run]) {
                    if enter(bx) {
                        leaf(k);
                    }
                }
            } else {
                // The left child follows its parent; push the right first so the left is next.
                stack[top] = n.start_or_right;
                stack[top + 1] = i + 1;
                top += 2;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boxes(n: usize, seed: u64) -> Vec<Aabb> {
        let mut s = seed;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (s >> 40) as f32 / (1u64 << 24) as f32
        };
        (0..n)
            .map(|_| {
                let c = Vec3::new(rnd(), rnd(), rnd()) * 20.0 - 10.0;
                let h = Vec3::new(rnd(), rnd(), rnd()) * 0.5 + 0.01;
                Aabb::new(c - h, c + h)
            })
            .collect()
    }

    /// Every query returns exactly the brute-force set, each box once.
    #[test]
    fn queries_match_brute_force() {
        for (n, seed) in [(1, 1), (3, 2), (5, 3), (100, 4), (2000, 5)] {
            let bs = boxes(n, seed);
            let bvh = Bvh::build(&bs);
            let probes = boxes(200, seed + 100);
            for p in probes.iter().map(|p| p.expanded(1.5)) {
                let mut got = Vec::new();
                bvh.query(&p, &mut got);
                got.sort_unstable();
                let want: Vec<u32> = (0..n as u32).filter(|&i| bs[i as usize].overlaps(&p)).collect();
                assert_eq!(got, want, "n = {n}");
            }
        }
    }

    /// The ray's nearest hit is the brute-force nearest over every box the ray enters (each
    /// box's "item" here is its entry distance), and no box the ray misses is asked.
    #[test]
    fn rays_find_the_nearest_box_as_brute_force_does() {
        let entry = |b: &Aabb, o: Vec3, d: Vec3| {
            let inv = d.recip();
            let (t0, t1) = ((b.min - o) * inv, (b.max - o) * inv);
            let (near, far) = (t0.min(t1).max_element().max(0.0), t0.max(t1).min_element());
            (near <= far).then_some(near)
        };
        for (n, seed) in [(1, 11), (7, 12), (500, 13), (3000, 14)] {
            let bs = boxes(n, seed);
            let bvh = Bvh::build(&bs);
            let starts = boxes(100, seed + 50);
            let ends = boxes(100, seed + 60);
            for (s, e) in starts.iter().zip(&ends) {
                let (o, mut d) = (s.center() * 1.5, (e.center() - s.center() * 1.5).normalize());
                if seed == 12 {
                    d.y = 0.0; // an axis the ray does not move along
                    d = d.normalize();
                }
                let mut asked = 0;
                let got = bvh.ray(o, d, f32::MAX, |i| {
                    asked += 1;
                    entry(&bs[i as usize], o, d)
                });
                let want = bs.iter().filter_map(|b| entry(b, o, d)).min_by(f32::total_cmp);
                assert_eq!(got, want, "n = {n}");
                let reached = bs.iter().filter(|b| entry(b, o, d).is_some()).count();
                assert!(asked <= reached, "{asked} asked, {reached} on the ray");
            }
        }
    }

    /// Every box is in exactly one leaf, inside every box of its ancestors; leaves are small;
    /// the tree is balanced.
    #[test]
    fn the_tree_is_well_formed_and_balanced() {
        let bs = boxes(1000, 9);
        let bvh = Bvh::build(&bs);
        let mut seen = vec![0; bs.len()];
        for n in bvh.nodes().iter().filter(|n| n.is_leaf()) {
            assert!(n.count as usize <= LEAF_SIZE);
            for &i in &bvh.order()[n.start_or_right as usize..(n.start_or_right + n.count) as usize] {
                seen[i as usize] += 1;
                assert!(n.aabb.contains(&bs[i as usize]));
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        for (i, n) in bvh.nodes().iter().enumerate().filter(|(_, n)| !n.is_leaf()) {
            assert!(n.aabb.contains(&bvh.nodes()[i + 1].aabb));
            assert!(n.aabb.contains(&bvh.nodes()[n.start_or_right as usize].aabb));
        }
        let deepest = *bvh.depths().iter().max().unwrap();
        // 1000 boxes in leaves of ≤ 4: 250 leaves, depth ⌈log₂ 250⌉ = 8.
        assert!(deepest <= 8, "depth {deepest}");
    }
}
