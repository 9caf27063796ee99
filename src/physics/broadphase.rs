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
//! (ground, walls) stay out of the grid: each grid body is tested against them in its turn
//! of the pair search, and they are tested against each other directly. *Passive* bodies
//! (static ones, which never pair with each other) do not search at all: the other bodies
//! search the 13 cells behind them too, for passive bodies only, so a level of many static
//! pieces costs its filing, not a search among them.
//!
//! Pairs come out sorted by (a, b) (radix sort), so the result does not depend on hashing
//! order: the step stays deterministic. The same sort lets the pair search run on several
//! threads ([`BroadPhase::update_on`]: blocks of grid slots, each thread's keys in its own
//! buffer, sorted there, then merged into the pairs by key ranges, a range per thread, each
//! pair once: `keys.rs`). Filing the bodies in the grid runs on the threads too, body by body
//! (extent, cell, bucket, then the copy into its slot), all but the median, the bucket counts
//! and each body's rank in its bucket, which the calling thread keeps.
//!
//! **Moving some bodies** ([`BroadPhase::update_moved`]): between full builds, bodies whose
//! box changed are marked *stale* (their grid slots are out of date). Their pairs are found
//! again against the large bodies, the other stale bodies (directly) and the fresh grid
//! bodies whose cells a box no wider than a cell can overlap them from (the cells from one
//! before a moved box's min corner to its max corner's: 8 or 27 for a box that fits a cell,
//! up to 64 for one that has grown to two), and merged into the kept pairs of everyone else
//! — the same sorted pair list a full build would give. New bodies (past the last build's
//! count) join the same way, as stale bodies outside the grid's slots. When that would cost
//! more than a full build ([`update_pays`]: the moved bodies times the stale ones, against
//! the body count), or a moved or new box is larger than the cells or spans more than
//! [`MOST_CELLS`] cells along an axis, the caller builds afresh.
//!
//! Limits: a scene of many large bodies degrades toward O(n·large); bodies that are very
//! far apart only cost hash collisions (extra box tests), never missed pairs.

mod keys;

use crate::physics::math::Aabb;
use crate::physics::parallel::{Shared, Workers};
use crate::physics::per_body;
use glam::Vec3A;
use keys::{merge_on, radix_sort, unique_pairs, Lane, SortScratch};

/// Fewest grid bodies a worker thread pairs at once: smaller grids pair on the calling
/// thread.
const MIN_SLOTS: usize = 128;

/// Fewest bodies a worker thread measures, files or copies into the grid at once: fewer
/// are done on the calling thread.
const MIN_BODIES: usize = 1024;

/// Fewest keys per thread for the threads to merge their sorted lists by key ranges
/// (`keys.rs`): fewer are merged on the calling thread.
const MIN_MERGE: usize = 2048;

/// Most cells along an axis a moved body's search spans in [`BroadPhase::update_moved`]
/// (from one before its box's min corner to its max corner's): a box that grew past two
/// cells wide asks for a full build instead, which sizes the cells afresh.
pub const MOST_CELLS: i32 = 4;

/// Whether [`BroadPhase::update_moved`] of `moved` bodies, `stale` of them stale after it
/// (the moved ones included), is worth it rather than a full build of `n` bodies: each moved
/// body is tested against every stale one and searches its cells (about as much as 32 of
/// those tests), where a full build costs about as much as 90 of them a body. The bound
/// stops well short of that, since every incremental update leaves the next one more stale
/// bodies to test, and a full build none (the factor, 32, did best of 0 to 128 on the
/// barrage: docs/BENCHMARKS.md). Up to `64 + n/32` stale bodies always pay.
pub fn update_pays(moved: usize, stale: usize, n: usize) -> bool {
    stale <= 64 + n / 32 || moved * (32 + stale) <= 32 * n
}

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
    /// Integer cell of each grid body (unused for large bodies), its bucket (`u32::MAX`
    /// for a large body) and its rank among its bucket's bodies.
    cell: Vec<[i32; 3]>,
    bucket_of: Vec<u32>,
    rank: Vec<u32>,
    /// Bodies too large for the grid, and their boxes.
    large: Vec<u32>,
    large_box: Vec<[Vec3A; 2]>,
    /// Bucket start offsets into the slots (len buckets + 1); per slot (grid bodies in
    /// bucket order) the body, its box and its cell.
    start: Vec<u32>,
    sorted: Vec<u32>,
    slot_box: Vec<[Vec3A; 2]>,
    slot_cell: Vec<[i32; 3]>,
    /// Per slot, whether its body is passive (see [`BroadPhase::update_on`]).
    slot_passive: Vec<bool>,
    /// Pair keys `a << 32 | b` and the radix sort's scratch.
    keys: Vec<u64>,
    keys_sort: SortScratch,
    /// Each thread's pair keys from the grid (grid bodies with each other and with the large
    /// bodies), and its scratch for sorting and merging them (`keys.rs`: the sort makes the
    /// order they were found in irrelevant); the keys of the large bodies with each other.
    thread_keys: Vec<Vec<u64>>,
    lanes: Vec<Lane>,
    large_keys: Vec<u64>,
    /// How many keys the last full build found, all threads and the large bodies together:
    /// each thread's buffer is made ready for that many, whichever share it claims.
    last_keys: usize,
    /// Candidate pairs `(a, b)` with `a < b`, sorted.
    pub pairs: Vec<(u32, u32)>,
    pairs_tmp: Vec<(u32, u32)>,
    /// The last full build: body count, cell size, hash bits and the large-body limit.
    built: Option<(usize, f32, u32, f32)>,
    /// Bodies moved since the last full build (their grid slots are stale), as flags and as
    /// a list; and the bodies of the current [`BroadPhase::update_moved`] call.
    stale: Vec<bool>,
    stale_list: Vec<u32>,
    moving: Vec<bool>,
    /// The large and stale bodies' boxes in lanes, for the current `update_moved` call.
    direct_box: Vec<[Vec3A; 2]>,
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
    /// Heap bytes of a copy (vector lengths times element sizes; for the history's budget).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        sz(self.extent.as_slice())
            + sz(self.scratch.as_slice())
            + sz(self.cell.as_slice())
            + sz(self.bucket_of.as_slice())
            + sz(self.rank.as_slice())
            + sz(self.large.as_slice())
            + sz(self.large_box.as_slice())
            + sz(self.start.as_slice())
            + sz(self.sorted.as_slice())
            + sz(self.slot_box.as_slice())
            + sz(self.slot_cell.as_slice())
            + sz(self.slot_passive.as_slice())
            + sz(self.keys.as_slice())
            + self.keys_sort.heap_bytes()
            + self.thread_keys.iter().map(|k| sz(k.as_slice())).sum::<usize>()
            + self.lanes.iter().map(Lane::heap_bytes).sum::<usize>()
            + sz(self.large_keys.as_slice())
            + sz(self.pairs.as_slice())
            + sz(self.pairs_tmp.as_slice())
            + sz(self.direct_box.as_slice())
            + sz(self.stale.as_slice())
            + sz(self.stale_list.as_slice())
            + sz(self.moving.as_slice())
    }

    /// Finds all overlapping pairs among `aabbs`; `skip(a, b)` filters pairs that can never
    /// need contacts (static–static, asleep–asleep).
    pub fn update(&mut self, aabbs: &[Aabb], skip: impl Fn(u32, u32) -> bool + Sync) {
        self.update_on(aabbs, &[], skip, &Workers::default());
    }

    /// [`BroadPhase::update`] with the grid's pair search shared out between `workers`'
    /// threads (blocks of grid slots, each thread's keys in its own buffer); the keys are
    /// then sorted, so the pairs are the same at any thread count.
    ///
    /// `passive` (per body, or empty for none) marks bodies that never pair with one another
    /// (`skip` holds for every two of them: static bodies). A passive grid body does not
    /// search the cells after it; every other grid body also searches the cells before it
    /// (and the slots before its own in its bucket) for passive bodies, so each pair with a
    /// body that is not passive is still found, and a world of many static bodies does not
    /// search among them.
    pub fn update_on(
        &mut self,
        aabbs: &[Aabb],
        passive: &[bool],
        skip: impl Fn(u32, u32) -> bool + Sync,
        workers: &Workers,
    ) {
        self.pairs.clear();
        self.keys.clear();
        self.large.clear();
        self.built = None;
        let n = aabbs.len();
        if n < 2 {
            return;
        }
        // Cell size: the largest extent among bodies up to LARGE_FACTOR × the median. Each
        // body's extent, then its cell and bucket, in blocks of bodies on the threads.
        per_body::fit(&mut self.extent, n, 0.0);
        {
            let extents = Shared::new(&mut self.extent);
            workers.for_blocks(n, MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies' extents.
                let out = unsafe { extents.range_mut(r.clone()) };
                for (e, b) in out.iter_mut().zip(&aabbs[r]) {
                    *e = extent(b);
                }
            });
        }
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
        self.built = Some((n, cell_size, bits, limit));
        self.stale.clear();
        per_body::fit(&mut self.stale, n, false);
        self.stale_list.clear();
        self.moving.clear();
        per_body::fit(&mut self.moving, n, false);
        // Each body's cell, and its bucket (`u32::MAX`: a large body, outside the grid).
        self.cell.resize(n, [0; 3]);
        self.bucket_of.resize(n, 0);
        {
            let (cell, bucket_of, extents) =
                (Shared::new(&mut self.cell), Shared::new(&mut self.bucket_of), &self.extent);
            workers.for_blocks(n, MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies' cells and buckets.
                let (cell, bucket_of) = unsafe { (cell.range_mut(r.clone()), bucket_of.range_mut(r.clone())) };
                for (((c, k), b), &e) in cell.iter_mut().zip(bucket_of).zip(&aabbs[r.clone()]).zip(&extents[r]) {
                    let f = (b.min * inv).floor();
                    *c = [f.x as i32, f.y as i32, f.z as i32];
                    *k = if e <= limit { bucket(*c, bits) as u32 } else { u32::MAX };
                }
            });
        }
        // Counting sort of the grid bodies by bucket: each body's rank in its bucket (in
        // body order, so each bucket lists its bodies in ascending index) and the buckets'
        // starts, on this thread; then each body is copied to its slot, with its box and cell
        // next to it so the pair loops read memory in order, on the threads.
        self.start.clear();
        self.start.resize(buckets + 1, 0);
        self.rank.resize(n, 0);
        // Whether any grid body is passive (else the search below is the plain one).
        let mut any_passive = false;
        for (i, (rank, &k)) in self.rank.iter_mut().zip(&self.bucket_of).enumerate() {
            if k != u32::MAX {
                let count = &mut self.start[k as usize + 1];
                *rank = *count;
                *count += 1;
                any_passive |= passive.get(i).copied().unwrap_or(false);
            }
        }
        for k in 0..buckets {
            self.start[k + 1] += self.start[k];
        }
        let m = self.start[buckets] as usize;
        self.sorted.clear();
        self.sorted.reserve(m);
        self.slot_box.clear();
        self.slot_box.reserve(m);
        self.slot_cell.clear();
        self.slot_cell.reserve(m);
        self.slot_passive.clear();
        if any_passive {
            self.slot_passive.resize(m, false);
        }
        {
            let (sorted, slot_box, slot_cell, slot_passive) = (
                Shared::new(&mut self.sorted.spare_capacity_mut()[..m]),
                Shared::new(&mut self.slot_box.spare_capacity_mut()[..m]),
                Shared::new(&mut self.slot_cell.spare_capacity_mut()[..m]),
                Shared::new(&mut self.slot_passive),
            );
            let (start, rank, bucket_of, cell) = (&self.start, &self.rank, &self.bucket_of, &self.cell);
            workers.for_blocks(n, MIN_BODIES, |_, r| {
                for i in r {
                    let k = bucket_of[i];
                    if k == u32::MAX {
                        continue;
                    }
                    let at = (start[k as usize] + rank[i]) as usize;
                    // SAFETY: each grid body has a slot of its own.
                    unsafe {
                        sorted.get_mut(at).write(i as u32);
                        slot_box.get_mut(at).write([aabbs[i].min.into(), aabbs[i].max.into()]);
                        slot_cell.get_mut(at).write(cell[i]);
                        if any_passive {
                            *slot_passive.get_mut(at) = passive.get(i).copied().unwrap_or(false);
                        }
                    }
                }
            });
        }
        // SAFETY: the m grid bodies wrote the m slots, one each.
        unsafe {
            self.sorted.set_len(m);
            self.slot_box.set_len(m);
            self.slot_cell.set_len(m);
        }
        // A forward cell that hashes to the body's own bucket holds the body itself.
        let threads = workers.threads();
        self.thread_keys.resize_with(threads, Vec::new);
        // Every buffer can take the whole last build's keys: the threads claim blocks as they
        // come free, so any one of them may find all the keys of a build, and a thread whose
        // share grows then does not allocate in a settled scene.
        let high = self.thread_keys.iter().map(Vec::capacity).max().unwrap_or(0).max(self.last_keys);
        for k in &mut self.thread_keys {
            k.clear();
            // Exactly: the sorts trade these buffers with their second ones, and `reserve`'s
            // doubling then grew the largest capacity every build (64 GB on a fuzz scene).
            k.reserve_exact(high);
        }
        // The large bodies' boxes, which every grid body is tested against in its slot's turn.
        self.large_box.clear();
        self.large_box.extend(self.large.iter().map(|&l| [aabbs[l as usize].min.into(), aabbs[l as usize].max.into()]));
        {
            let (start, sorted, slot_box, slot_cell) = (&self.start, &self.sorted, &self.slot_box, &self.slot_cell);
            let (large, large_box, slot_passive) = (&self.large, &self.large_box, &self.slot_passive);
            let out = Shared::new(&mut self.thread_keys);
            let skip = &skip;
            workers.for_blocks(m, MIN_SLOTS, |thread, r| {
                // SAFETY: one key buffer per thread. Taken out while the block runs: the
                // buffers' lengths share a cache line, which the threads' pushes would
                // otherwise pass back and forth.
                let slot = unsafe { out.get_mut(thread) };
                let mut keys = std::mem::take(slot);
                for p in r {
                    let (i, bp, ci) = (sorted[p], slot_box[p], slot_cell[p]);
                    let own = bucket(ci, bits);
                    if !(any_passive && slot_passive[p]) {
                        // Own bucket: the slots after this one. Hash collisions can put the
                        // same pair in reach twice (own and forward bucket alike); the sorted
                        // keys are deduplicated.
                        let end = start[own + 1] as usize;
                        for (bq, &j) in slot_box[p + 1..end].iter().zip(&sorted[p + 1..end]) {
                            if overlap(&bp, bq) {
                                emit_pair(&mut keys, i, j, skip);
                            }
                        }
                        for d in FORWARD {
                            let c = [ci[0].wrapping_add(d[0]), ci[1].wrapping_add(d[1]), ci[2].wrapping_add(d[2])];
                            let k = bucket(c, bits);
                            let (s, e) = (start[k] as usize, start[k + 1] as usize);
                            for (bq, &j) in slot_box[s..e].iter().zip(&sorted[s..e]) {
                                if overlap(&bp, bq) {
                                    emit_pair(&mut keys, i, j, skip);
                                }
                            }
                        }
                        if any_passive {
                            let grid = (&start[..], &sorted[..], &slot_box[..], &slot_passive[..]);
                            keys = passive_behind(keys, grid, (i, bp, ci), p, own, bits, skip);
                        }
                    }
                    for (bq, &l) in large_box.iter().zip(large) {
                        if overlap(&bp, bq) {
                            emit_pair(&mut keys, i, l, skip);
                        }
                    }
                }
                *slot = keys;
            });
        }
        // The large bodies against each other (each pair once), into their own list.
        self.large_keys.clear();
        for (k, &l) in self.large.iter().enumerate() {
            for &j in &self.large[k + 1..] {
                if aabbs[l as usize].overlaps(&aabbs[j as usize]) {
                    emit_pair(&mut self.large_keys, l, j, &skip);
                }
            }
        }
        self.last_keys = self.thread_keys.iter().map(Vec::len).sum::<usize>() + self.large_keys.len();
        if let [one] = self.thread_keys.as_mut_slice() {
            // One thread: its buffer becomes the key list (both keep their capacity).
            std::mem::swap(&mut self.keys, one);
            self.keys.extend_from_slice(&self.large_keys);
            radix_sort(&mut self.keys, &mut self.keys_sort);
            unique_pairs(&mut self.keys, &mut self.pairs);
        } else {
            // Each thread's keys sorted on its own thread, then merged into the pairs by key
            // ranges, each range on its own thread: the sorted list is the same whichever
            // thread found which pair. The keys of the large bodies with each other join the
            // shortest list first (no list of their own to merge); `exact`, as above, so that a buffer's capacity
            // cannot creep up build after build.
            if let Some(shortest) = self.thread_keys.iter_mut().min_by_key(|k| k.len()) {
                shortest.reserve_exact(self.large_keys.len());
                shortest.extend_from_slice(&self.large_keys);
            }
            self.lanes.resize_with(threads, Lane::default);
            {
                let (keys, lanes) = (Shared::new(&mut self.thread_keys), Shared::new(&mut self.lanes));
                workers.for_blocks(threads, 1, |_, r| {
                    for t in r {
                        // SAFETY: one key list and lane per block index.
                        unsafe { radix_sort(keys.get_mut(t), &mut lanes.get_mut(t).sort) };
                    }
                });
            }
            merge_on(&self.thread_keys, &mut self.lanes, &mut self.pairs, workers, MIN_MERGE);
            for lane in &mut self.lanes {
                lane.clear();
            }
        }
        self.large_keys.clear();
    }

    /// Updates the pairs after the boxes of the bodies in `moved` changed (and no other box
    /// did), without rebuilding the grid; see the module docs. Bodies past those of the last
    /// build (`aabbs` may have grown) are new: they must all be in `moved`, and they join
    /// the stale bodies, outside the grid slots. `skip` must be the filter of the last full
    /// [`BroadPhase::update`]. Returns false, changing nothing, when it cannot or it would
    /// not pay (no full build yet, fewer bodies, a moved or new body that was large or would
    /// be, or whose box spans more than [`MOST_CELLS`] cells, or [`update_pays`] says no):
    /// the caller then runs `update`.
    pub fn update_moved(&mut self, aabbs: &[Aabb], moved: &[u32], skip: impl Fn(u32, u32) -> bool) -> bool {
        let Some((built, cell_size, bits, limit)) = self.built else {
            return false;
        };
        let n = aabbs.len();
        if n < built {
            return false;
        }
        let inv = 1.0 / cell_size;
        // A filed body's extent as the last build found it; a new one's as a build would.
        let extent_of = |m: usize| if m < built { self.extent[m] } else { extent(&aabbs[m]) };
        let (mut newly, mut added) = (0, 0);
        for &m in moved {
            let b = &aabbs[m as usize];
            added += usize::from(m as usize >= built);
            newly += usize::from(m as usize >= built || !self.stale[m as usize]);
            // Also refuses NaN boxes (a full build files them as large).
            let spans = ((b.max * inv).floor() - (b.min * inv).floor()).max_element();
            if !(extent_of(m as usize) <= limit && spans < (MOST_CELLS - 1) as f32) {
                return false;
            }
        }
        // (A new body left out of `moved` would be in neither the grid nor the stale list.)
        if added != n - built || !update_pays(moved.len(), self.stale_list.len() + newly, n) {
            return false;
        }
        if n > built {
            // The new bodies' extents, as a full build would have filed them (each is in
            // `moved`, so marked stale below).
            per_body::room(&mut self.extent, n);
            self.extent.extend(aabbs[built..].iter().map(extent));
            per_body::fit(&mut self.stale, n, false);
            per_body::fit(&mut self.moving, n, false);
            self.built = Some((n, cell_size, bits, limit));
        }
        for &m in moved {
            self.moving[m as usize] = true;
            if !self.stale[m as usize] {
                self.stale[m as usize] = true;
                self.stale_list.push(m);
            }
        }
        self.keys.clear();
        // The boxes every moved body is tested against directly (the large and the stale
        // bodies), gathered once in SIMD lanes: the moved-by-stale tests are most of the
        // work when many bodies moved.
        self.direct_box.clear();
        self.direct_box.extend(self.large.iter().chain(&self.stale_list).map(|&j| {
            let b = &aabbs[j as usize];
            [Vec3A::from(b.min), Vec3A::from(b.max)]
        }));
        let emit = |keys: &mut Vec<u64>, i: u32, j: u32| emit_pair(keys, i, j, &skip);
        let large = self.large.len();
        for &m in moved {
            let bm = &aabbs[m as usize];
            let pm = [Vec3A::from(bm.min), Vec3A::from(bm.max)];
            for (k, q) in self.direct_box.iter().enumerate() {
                if overlap(&pm, q) {
                    let j = if k < large { self.large[k] } else { self.stale_list[k - large] };
                    emit(&mut self.keys, m, j);
                }
            }
            // Fresh grid bodies: a box no wider than a cell that overlaps m's has its min
            // corner at most a cell before m's min corner and at most at m's max corner, so
            // in a cell from the one before m's min corner's to m's max corner's, per axis.
            // (Counted from the floors in f32 and stepped by wrapping, so that coordinates
            // past i32's range, saturated, still search the cells around them.)
            let (lo, hi) = ((bm.min * inv).floor(), (bm.max * inv).floor());
            let count = (hi - lo).as_ivec3() + 2;
            let base = [lo.x as i32, lo.y as i32, lo.z as i32];
            for z in 0..count.z {
                for y in 0..count.y {
                    for x in 0..count.x {
                        let cd =
                            [base[0].wrapping_add(x - 1), base[1].wrapping_add(y - 1), base[2].wrapping_add(z - 1)];
                        let k = bucket(cd, bits);
                        let slots = self.start[k] as usize..self.start[k + 1] as usize;
                        let (ids, boxes, cells) =
                            (&self.sorted[slots.clone()], &self.slot_box[slots.clone()], &self.slot_cell[slots]);
                        for ((&j, q), c) in ids.iter().zip(boxes).zip(cells) {
                            if *c == cd && overlap(&pm, q) && !self.stale[j as usize] {
                                emit(&mut self.keys, m, j);
                            }
                        }
                    }
                }
            }
        }
        self.keys.sort_unstable();
        self.keys.dedup();
        // Merge the kept pairs (neither body moved now) with the new ones.
        let moving = &self.moving;
        let kept = self.pairs.iter().copied().filter(|&(a, b)| !moving[a as usize] && !moving[b as usize]);
        let mut fresh = self.keys.iter().map(|&k| ((k >> 32) as u32, k as u32)).peekable();
        self.pairs_tmp.clear();
        for p in kept {
            while let Some(q) = fresh.next_if(|&q| q < p) {
                self.pairs_tmp.push(q);
            }
            self.pairs_tmp.push(p);
        }
        self.pairs_tmp.extend(fresh);
        std::mem::swap(&mut self.pairs, &mut self.pairs_tmp);
        for &m in moved {
            self.moving[m as usize] = false;
        }
        true
    }
}

/// The grid's bucket starts and, per slot, its body, box and passive mark.
type GridSlots<'a> = (&'a [u32], &'a [u32], &'a [[Vec3A; 2]], &'a [bool]);

/// The grid search's second half for a body that is not passive (slot `p` of bucket `own`,
/// body `i`, box `bp`, cell `ci`), in a grid with passive bodies: the passive bodies before it,
/// which do not search (the slots before it in its bucket, and the cells behind it). Out of
/// line, so that the search of a grid without passive bodies compiles as it would alone
/// (the keys are moved in and out, so that their list's address does not escape the loop).
#[inline(never)]
fn passive_behind(
    mut keys: Vec<u64>,
    (start, sorted, slot_box, slot_passive): GridSlots,
    (i, bp, ci): (u32, [Vec3A; 2], [i32; 3]),
    p: usize,
    own: usize,
    bits: u32,
    skip: &impl Fn(u32, u32) -> bool,
) -> Vec<u64> {
    let mut behind = |s: usize, e: usize| {
        let slots = slot_box[s..e].iter().zip(&sorted[s..e]).zip(&slot_passive[s..e]);
        for ((bq, &j), &pj) in slots {
            if pj && overlap(&bp, bq) {
                emit_pair(&mut keys, i, j, skip);
            }
        }
    };
    behind(start[own] as usize, p);
    for d in FORWARD {
        let c = [ci[0].wrapping_sub(d[0]), ci[1].wrapping_sub(d[1]), ci[2].wrapping_sub(d[2])];
        let k = bucket(c, bits);
        behind(start[k] as usize, start[k + 1] as usize);
    }
    keys
}

/// The largest side of box `b`: what a body is filed by (in the grid, or among the large
/// bodies).
#[inline]
fn extent(b: &Aabb) -> f32 {
    (b.max - b.min).max_element()
}

/// Pushes the key `a << 32 | b` of the pair {i, j} (a < b) unless it is a body with itself
/// or `skip(a, b)`.
#[inline]
fn emit_pair(keys: &mut Vec<u64>, i: u32, j: u32, skip: &impl Fn(u32, u32) -> bool) {
    let (a, b) = if i < j { (i, j) } else { (j, i) };
    if a != b && !skip(a, b) {
        keys.push((u64::from(a) << 32) | u64::from(b));
    }
}

/// Branch-free box test on the SIMD lanes (touching counts; the fourth lane is ignored by
/// `all`): [`Aabb::overlaps`] without a branch per axis. The world's pair filter uses it too.
#[inline]
pub(crate) fn overlap(p: &[Vec3A; 2], q: &[Vec3A; 2]) -> bool {
    (p[0].cmple(q[1]) & q[0].cmple(p[1])).all()
}

#[cfg(test)]
mod tests;
