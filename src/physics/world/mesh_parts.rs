//! A body–mesh pair's further manifolds, one per group of mesh normals beyond the first,
//! and a compound pair's, one per touching child pair beyond the first ([`MeshParts`]): how the narrow phase's threads hand them over ([`PartsAccess`],
//! [`PartOut`]) and how they are gathered, in pair order, into the contacts after the
//! pair-aligned ones ([`MeshParts::merge`]).
//!
//! Limits: a pair's groups are recycled or recomputed together, never one alone.

use crate::physics::contact::Contact;
use crate::physics::math::Iso;
use crate::physics::parallel::MAX_BLOCKS;

/// The further manifolds of body–mesh pairs. A body touching mesh faces whose normals
/// differ by more than 18° (a box in a V valley), or a mesh face and a face of its own
/// that holds a mesh corner or edge more than 1° apart, gets a manifold per normal group
/// (`collide/mesh.rs`), and a pair with a compound body one per touching child pair
/// (`collide/compound.rs`): the deepest (a compound's first) lives in the pair's own contact, the others in contacts
/// of the same pair that each narrow phase appends to `World::contacts` after the
/// pair-aligned ones — so the solvers, islands, drawing and traces read them as they read
/// any contact. Their boxes come from and go back to the contact pool.
///
/// A pair with several groups is recycled whole (every group's manifold within the
/// recycling window) or recomputed whole; the groups of a pair whose bodies sleep are kept
/// as they were.
#[derive(Clone, Debug, Default)]
#[allow(clippy::vec_box)]
pub(super) struct MeshParts {
    /// Last step's further manifolds, in pair order (taken off the end of `contacts`).
    pub(super) prev: Vec<Box<Contact>>,
    /// The pair of each of `prev`, for finding a pair's range without opening the boxes.
    pub(super) prev_keys: Vec<(u32, u32)>,
    /// What each thread made of its pairs' further manifolds, block by block in the order
    /// it took the blocks, each block's in pair order (one list per worker thread, and a
    /// last one for the calling thread's watched pairs, in pair order).
    pub(super) out: Vec<Vec<PartOut>>,
    /// Per worker thread, where each block it took starts: the block's first pair and the
    /// length of the thread's list then.
    pub(super) blocks: Vec<Vec<(u32, u32)>>,
    /// Every thread's blocks as (first pair, thread, list range), sorted by first pair for
    /// the merge (scratch).
    order: Vec<(u32, u32, u32, u32)>,
    /// This step's, in pair order (the lists merged).
    pub(super) next: Vec<Box<Contact>>,
    /// The most entries the lists have held in one step, all together.
    most: usize,
}

impl MeshParts {
    /// Readies the step: `prev` is filled; one list per thread, plus the calling thread's.
    pub(super) fn begin(&mut self, threads: usize) {
        self.prev_keys.clear();
        self.prev_keys.extend(self.prev.iter().map(|c| (c.a, c.b)));
        self.out.resize_with(threads + 1, Vec::new);
        // Any thread may take every pair that has further manifolds: each list keeps room
        // for the most a step has had, so a settled step allocates nothing whichever thread
        // takes which pair; and any thread may take every block.
        for list in &mut self.out {
            list.clear();
            list.reserve(self.most);
        }
        self.blocks.resize_with(threads, Vec::new);
        for list in &mut self.blocks {
            list.clear();
            list.reserve(MAX_BLOCKS);
        }
        self.order.clear();
        self.order.reserve(MAX_BLOCKS);
    }

    /// The range of `prev` holding pair (a, b)'s manifolds (`prev` is in pair order).
    pub(super) fn range_of(prev_keys: &[(u32, u32)], a: u32, b: u32) -> std::ops::Range<usize> {
        let start = prev_keys.partition_point(|&k| k < (a, b));
        start..start + prev_keys[start..].partition_point(|&k| k == (a, b))
    }

    /// Gathers the threads' lists into `next` in pair order: a kept manifold moves over in
    /// its box (a pooled one takes its place in `prev`, which goes back to the pool whole),
    /// a new one is copied into a pooled box. The blocks cut the pairs into ranges in pair
    /// order, and each block's entries lie together in the list of the thread that took it,
    /// in pair order: the blocks' entries are taken block after block, by their first pair,
    /// and the watched pairs' list (in pair order; no pair is in two lists) is merged in
    /// beside them.
    #[allow(clippy::vec_box)]
    pub(super) fn merge(&mut self, pool: &mut Vec<Box<Contact>>) {
        self.most = self.most.max(self.out.iter().map(Vec::len).sum());
        let MeshParts { prev, out, blocks, order, next, .. } = self;
        order.clear();
        for (t, starts) in blocks.iter().enumerate() {
            for (k, &(first, from)) in starts.iter().enumerate() {
                let to = starts.get(k + 1).map_or(out[t].len() as u32, |s| s.1);
                if from < to {
                    order.push((first, t as u32, from, to));
                }
            }
        }
        // The blocks' first pairs differ: the order is the same whatever the sort.
        order.sort_unstable();
        let mut take = |e: &PartOut| match e {
            PartOut::New { part, .. } => {
                let mut b = pool.pop().unwrap_or_default();
                (*b).clone_from(part);
                next.push(b);
            }
            &PartOut::Carry { start, end, .. } => {
                for kept in &mut prev[start as usize..end as usize] {
                    let spare = pool.pop().unwrap_or_default();
                    next.push(std::mem::replace(kept, spare));
                }
            }
        };
        let (watched, lists) = out.split_last().expect("a list for the calling thread");
        let mut w = watched.iter().peekable();
        for &(_, t, from, to) in order.iter() {
            for e in &lists[t as usize][from as usize..to as usize] {
                while let Some(x) = w.next_if(|x| x.pair() < e.pair()) {
                    take(x);
                }
                take(e);
            }
        }
        w.for_each(take);
    }
}

/// A mesh pair's further manifolds ([`MeshParts`]): last step's, and the list of the
/// thread that computes the pair, where this step's go.
pub(super) struct PartsAccess<'a> {
    /// Last step's further manifolds of the pair (its own range of `MeshParts::prev`).
    #[allow(clippy::vec_box)]
    pub(super) prev: &'a mut [Box<Contact>],
    /// Where `prev` starts in `MeshParts::prev`.
    pub(super) start: usize,
    /// The thread's list.
    pub(super) out: &'a mut Vec<PartOut>,
    /// The pair's place in this step's pairs (the merge's order).
    pub(super) pair: usize,
}

impl PartsAccess<'_> {
    /// Recycles each of last step's manifolds in place ([`Recycle::reuse_rounded`]);
    /// whether all of them could be.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn reuse(
        &mut self,
        xa: &Iso,
        xb: &Iso,
        turns: (&glam::Mat3A, &glam::Mat3A),
        radii: (f32, f32),
        rounding: (f32, f32),
        distance: f32,
        margin: f32,
    ) -> bool {
        self.prev.iter_mut().all(|p| {
            let Contact { recycle, manifold, .. } = &mut **p;
            recycle.reuse_rounded(manifold, xa, xb, turns, radii, rounding, distance, margin)
        })
    }

    /// Keeps last step's manifolds as they are (a sleeping or recycled pair).
    pub(super) fn carry(self) {
        if !self.prev.is_empty() {
            let end = self.start + self.prev.len();
            self.out.push(PartOut::Carry { pair: self.pair as u32, start: self.start as u32, end: end as u32 });
        }
    }
}

/// One entry of a thread's list of further manifolds, tagged with the pair's place in this
/// step's pairs.
#[derive(Clone, Debug)]
// A new manifold is the common entry: boxing it would cost an allocation per entry.
#[allow(clippy::large_enum_variant)]
pub(super) enum PartOut {
    /// Last step's manifolds `MeshParts::prev[start..end]`, kept.
    Carry { pair: u32, start: u32, end: u32 },
    /// A new manifold.
    New { pair: u32, part: Contact },
}

impl PartOut {
    pub(super) fn pair(&self) -> u32 {
        match self {
            PartOut::Carry { pair, .. } | PartOut::New { pair, .. } => *pair,
        }
    }
}
