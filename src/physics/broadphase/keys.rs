//! The broad phase's pair keys (`a << 32 | b`, a < b): sorted, then merged into the sorted
//! pair list with each pair once, whichever thread found which pair and however often it
//! was found (hash collisions find some pairs twice).
//!
//! - **Sorting** ([`radix_sort`]): least-significant-digit radix sort of each pair read as
//!   one number of twice the bits of a body index, in digits of up to 11 bits, skipping the
//!   digits every key shares. Each thread sorts its own list on its own thread.
//! - **Merging on one thread** ([`merge_lists`]): the sorted lists two at a time, as a tree
//!   (k lists take ⌈log₂ k⌉ passes), the last pass writing the pairs and dropping repeats.
//! - **Merging on several threads** ([`merge_on`]): the key range is cut at T − 1 keys of
//!   the longest list, read at even steps through it. Thread t merges every list's part of
//!   range t into its own pairs ([`merge_lists`] again), and each part is then copied to its
//!   place in the pair list by its own thread. A range starts before the first copy of its
//!   first key in every list, so all copies of a key fall in one range and become one pair:
//!   the list is the one a single thread makes.
//!
//! Limits: the ranges are as even as the longest list is a fair sample of all keys (the
//! grid's threads take blocks of hashed slots, so each thread's keys spread over the whole
//! range); T lists cost T² binary searches per build.

use crate::physics::parallel::{Shared, Workers, MAX_THREADS};

/// Most lists merged at once: one per thread.
const MAX_LISTS: usize = MAX_THREADS;

/// [`radix_sort`]'s scratch: its second key buffer and its digit counters.
#[derive(Clone, Debug, Default)]
pub(super) struct SortScratch {
    tmp: Vec<u64>,
    counts: Vec<u32>,
}

impl SortScratch {
    /// Heap bytes of a copy.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        sz(self.tmp.as_slice()) + sz(self.counts.as_slice())
    }

    /// Empties the buffers, keeping their room.
    pub fn clear(&mut self) {
        self.tmp.clear();
        self.counts.clear();
    }
}

/// One thread's scratch for the keys: its sort's, the two buffers of its merge passes, and
/// the pairs of its key range. Emptied after each build (their room is kept), so a copy of
/// the broad phase carries none of it.
#[derive(Clone, Debug, Default)]
pub(super) struct Lane {
    pub sort: SortScratch,
    run: Vec<u64>,
    pairs: Vec<(u32, u32)>,
}

impl Lane {
    /// Heap bytes of a copy.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        self.sort.heap_bytes() + sz(self.run.as_slice()) + sz(self.pairs.as_slice())
    }

    /// Empties the buffers, keeping their room.
    pub fn clear(&mut self) {
        self.sort.clear();
        self.run.clear();
        self.pairs.clear();
    }
}

/// The pairs of the sorted keys `keys`, each once, appended to `out`.
pub(super) fn unique_pairs(keys: &mut Vec<u64>, out: &mut Vec<(u32, u32)>) {
    keys.dedup();
    out.extend(keys.iter().map(|&k| ((k >> 32) as u32, k as u32)));
}

/// The sorted lists `lists` (one per thread, at most [`MAX_THREADS`]) merged into `out`
/// (cleared) as sorted pairs, each pair once, by as many key ranges as `lanes` (one per
/// thread), each merged on its own thread (module docs). Fewer than `min_keys` keys per
/// range: merged on the calling thread.
pub(super) fn merge_on(
    lists: &[Vec<u64>],
    lanes: &mut [Lane],
    out: &mut Vec<(u32, u32)>,
    workers: &Workers,
    min_keys: usize,
) {
    out.clear();
    let parts = lanes.len();
    assert!(lists.len() <= MAX_LISTS && (1..=MAX_THREADS).contains(&parts), "too many lists or ranges");
    let mut heads = [&[][..]; MAX_LISTS];
    for (h, l) in heads.iter_mut().zip(lists) {
        *h = l.as_slice();
    }
    let heads = &heads[..lists.len()];
    let total: usize = heads.iter().map(|l| l.len()).sum();
    if parts == 1 || total == 0 || total < min_keys * parts {
        let Lane { sort, run, .. } = &mut lanes[0];
        merge_lists(heads, &mut sort.tmp, run, out);
        return;
    }
    // Range t holds the keys k with cut[t] <= k < cut[t + 1]. No key is all ones (a < b),
    // so the last range ends past every key.
    let longest = heads.iter().max_by_key(|l| l.len()).copied().unwrap_or_default();
    let mut cut = [u64::MAX; MAX_THREADS + 1];
    cut[0] = 0;
    for (t, c) in cut.iter_mut().enumerate().take(parts).skip(1) {
        *c = longest[t * longest.len() / parts];
    }
    {
        let (lanes, cut) = (Shared::new(lanes), &cut);
        workers.for_blocks(parts, 1, |_, r| {
            for t in r {
                let mut mine = [&[][..]; MAX_LISTS];
                for (m, l) in mine.iter_mut().zip(heads) {
                    let (lo, hi) = (l.partition_point(|&k| k < cut[t]), l.partition_point(|&k| k < cut[t + 1]));
                    *m = &l[lo..hi];
                }
                // SAFETY: one lane per range.
                let Lane { sort, run, pairs } = unsafe { lanes.get_mut(t) };
                pairs.clear();
                merge_lists(&mine[..heads.len()], &mut sort.tmp, run, pairs);
            }
        });
    }
    // Each range's pairs copied to its place, on its own thread.
    let mut lens = [0usize; MAX_THREADS];
    for (len, lane) in lens.iter_mut().zip(lanes.iter()) {
        *len = lane.pairs.len();
    }
    // SAFETY: range t is given exactly as many slots as it has pairs, and writes them all.
    unsafe {
        workers.concat(out, &lens[..parts], |t, slots| {
            for (s, &p) in slots.iter_mut().zip(&lanes[t].pairs) {
                s.write(p);
            }
        });
    }
}

/// The sorted lists `lists` (at most [`MAX_THREADS`]) merged, appended to `out` as sorted
/// pairs, each pair once: two at a time into `a`, then the runs there two at a time into
/// `b` and back (the buffers' room is kept), until two runs are left, which the last pass
/// merges into the pairs. The result does not depend on how the keys were shared between
/// the lists, so not on which thread found which pair.
pub(super) fn merge_lists(lists: &[&[u64]], a: &mut Vec<u64>, b: &mut Vec<u64>, out: &mut Vec<(u32, u32)>) {
    let mut heads = [&[][..]; MAX_LISTS];
    let mut k = 0;
    for &list in lists.iter().filter(|l| !l.is_empty()) {
        heads[k] = list;
        k += 1;
    }
    match &heads[..k] {
        [] => {}
        [one] => merge_unique(one, &[], out),
        [x, y] => merge_unique(x, y, out),
        more => {
            // Where each run of the last pass's output ends.
            let mut ends = [0usize; MAX_LISTS];
            let mut runs = 0;
            a.clear();
            for two in more.chunks(2) {
                merge_append(two[0], two.get(1).copied().unwrap_or_default(), a);
                ends[runs] = a.len();
                runs += 1;
            }
            let (mut from, mut to) = (a, b);
            while runs > 2 {
                to.clear();
                let (mut start, mut next) = (0, 0);
                for i in (0..runs).step_by(2) {
                    let mid = ends[i];
                    let end = if i + 1 < runs { ends[i + 1] } else { mid };
                    merge_append(&from[start..mid], &from[mid..end], to);
                    start = end;
                    // `next <= i`: the ends still to be read lie after it.
                    ends[next] = to.len();
                    next += 1;
                }
                runs = next;
                std::mem::swap(&mut from, &mut to);
            }
            merge_unique(&from[..ends[0]], &from[ends[0]..ends[1]], out);
        }
    }
}

/// `a` and `b` (each sorted) merged, appended to `out` (duplicates kept).
fn merge_append(a: &[u64], b: &[u64], out: &mut Vec<u64>) {
    out.reserve(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    // Which list the next key comes from is a coin toss on keys found by different
    // threads: taken without a branch to mispredict.
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        out.push(x.min(y));
        i += usize::from(x <= y);
        j += usize::from(y < x);
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
}

/// `a` and `b` (each sorted) merged, appended to `out` as pairs, each pair once.
fn merge_unique(a: &[u64], b: &[u64], out: &mut Vec<(u32, u32)>) {
    let start = out.len();
    out.reserve(a.len() + b.len());
    let slots = &mut out.spare_capacity_mut()[..a.len() + b.len()];
    // Each key is written at the end, which moves on unless it repeats the last: no branch
    // to mispredict, in the choice of list (a coin toss on keys found by different threads)
    // nor in the repeats. No pair key is all ones (a < b), so `last` starts as none.
    let (mut i, mut j, mut n, mut last) = (0, 0, 0, u64::MAX);
    let mut put = |k: u64, n: &mut usize| {
        let at = (*n).min(slots.len() - 1);
        slots[at].write(((k >> 32) as u32, k as u32));
        *n += usize::from(k != last);
        last = k;
    };
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        put(x.min(y), &mut n);
        i += usize::from(x <= y);
        j += usize::from(y < x);
    }
    for &k in a[i..].iter().chain(&b[j..]) {
        put(k, &mut n);
    }
    // SAFETY: the first n slots hold the distinct keys in order (a repeat was written over
    // by the next key, or lies past n).
    unsafe { out.set_len(start + n) };
}

/// Widest digit of [`radix_sort`] (bits): at most 2,048 counters, 8 KB, per pass.
const DIGIT_BITS: u32 = 11;

/// The most histogram entries [`radix_sort`] uses: 64-bit keys in passes of up to
/// [`DIGIT_BITS`] bits.
const MOST_COUNTS: usize = 64usize.div_ceil(DIGIT_BITS as usize) << DIGIT_BITS;

/// Sorts the pair keys `a << 32 | b` (a < b) ascending by least-significant-digit radix
/// sort. The pair is read as the number `a << w | b`, where `w` is the bit length of the
/// largest body index among the keys: it orders the pairs as the keys do and is only `2w`
/// bits wide, so 2,048 bodies take two passes of up to 11 bits and 2 million take four (a
/// byte per pass over the key's two words took three from 257 bodies, four from 258). The
/// histograms of all digits are counted first, and a digit every key shares is skipped.
/// O(n), no allocation once the scratch has grown.
pub(super) fn radix_sort(keys: &mut Vec<u64>, scratch: &mut SortScratch) {
    if keys.len() < 2 {
        return;
    }
    let largest = keys.iter().fold(0u64, |m, &k| m | (k >> 32) | (k & 0xffff_ffff));
    let w = 64 - largest.leading_zeros();
    let low = (1u64 << w) - 1;
    let packed = |k: u64| ((k >> 32) << w) | (k & low);
    let width = (2 * w).max(1);
    let passes = width.div_ceil(DIGIT_BITS) as usize;
    let digit = width.div_ceil(passes as u32);
    let (size, mask) = (1usize << digit, (1u64 << digit) - 1);
    let SortScratch { tmp, counts } = scratch;
    tmp.clear();
    // As large as the keys' buffer, exactly (the passes trade the two buffers): a list that
    // grows within the room its buffer was given then needs no new scratch.
    tmp.reserve_exact(keys.capacity());
    tmp.resize(keys.len(), 0);
    counts.clear();
    // Room for the widest keys (64 bits in passes of at most DIGIT_BITS): the digits depend
    // on the largest body in this list, which, for one thread's share of a build, changes
    // with the blocks the thread happened to claim.
    counts.reserve_exact(MOST_COUNTS);
    counts.resize(passes * size, 0);
    for (pass, count) in counts.chunks_exact_mut(size).enumerate() {
        let shift = pass as u32 * digit;
        for &k in keys.iter() {
            count[((packed(k) >> shift) & mask) as usize] += 1;
        }
    }
    for (pass, count) in counts.chunks_exact_mut(size).enumerate() {
        if count.contains(&(keys.len() as u32)) {
            continue; // this digit is the same everywhere
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        let shift = pass as u32 * digit;
        for &k in keys.iter() {
            let d = ((packed(k) >> shift) & mask) as usize;
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
    use std::collections::BTreeSet;

    /// `count` sorted lists of up to `len` random keys over `bodies` bodies (a pair's second
    /// body at most six past its first), with repeats within and across lists.
    fn random_lists(rng: &mut SplitMix64, count: usize, len: usize, bodies: f32) -> Vec<Vec<u64>> {
        (0..count)
            .map(|_| {
                let n = (rng.next_f32() * len as f32) as usize;
                let mut l: Vec<u64> = (0..n)
                    .map(|_| {
                        let a = (rng.next_f32() * bodies) as u64;
                        (a << 32) | (a + 1 + (rng.next_f32() * 6.0) as u64)
                    })
                    .collect();
                l.sort_unstable();
                l
            })
            .collect()
    }

    /// The radix sort against the standard library's sort: lists of 0 to 3,000 keys over
    /// worlds of 2 to 2³² bodies (so one to six passes), repeats included.
    #[test]
    fn radix_sort_sorts_as_the_standard_sort_does() {
        let mut rng = SplitMix64(0x4AD1);
        let mut tmp = SortScratch::default();
        for case in 0..400 {
            let bodies = 2u64 << (case % 32);
            let n = (rng.next_f32() * 3000.0) as usize * usize::from(case % 7 != 0);
            let mut keys: Vec<u64> = (0..n)
                .map(|_| {
                    let b = 1 + ((rng.next_f32() as f64 * (bodies - 1) as f64) as u64).min(bodies - 2);
                    let a = (rng.next_f32() as f64 * b as f64) as u64;
                    (a.min(b - 1) << 32) | b
                })
                .collect();
            if n > 10 {
                keys[n / 2] = keys[n / 3]; // a repeat
            }
            let mut want = keys.clone();
            want.sort_unstable();
            radix_sort(&mut keys, &mut tmp);
            assert_eq!(keys, want, "case {case}: {n} keys over {bodies} bodies");
        }
    }

    /// The brute-force union: every key once, in order, as pairs.
    fn union(lists: &[Vec<u64>]) -> Vec<(u32, u32)> {
        let all: BTreeSet<u64> = lists.iter().flatten().copied().collect();
        all.into_iter().map(|k| ((k >> 32) as u32, k as u32)).collect()
    }

    /// The merge of the threads' sorted key lists against a brute-force union: zero to
    /// nine lists (some empty; odd counts leave a run without a partner in a pass), keys
    /// repeated within and across lists (hash collisions find a pair twice), every pair
    /// once and in order.
    #[test]
    fn merged_key_lists_give_each_pair_once_in_order() {
        let mut rng = SplitMix64(0x4D45);
        let (mut a, mut b, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
        for round in 0..300 {
            let count = round % 10;
            let lists = random_lists(&mut rng, count, 40, 12.0);
            let heads: Vec<&[u64]> = lists.iter().map(Vec::as_slice).collect();
            pairs.clear();
            merge_lists(&heads, &mut a, &mut b, &mut pairs);
            assert_eq!(pairs, union(&lists), "{count} lists");
        }
    }

    /// The merge by key ranges on 2–5 threads gives the union too: lists of one to seven
    /// threads, few bodies (so the cuts fall on keys repeated within and across lists),
    /// and the calling thread's merge below the size limit.
    #[test]
    fn key_ranges_merged_on_threads_give_the_same_pairs() {
        let mut rng = SplitMix64(0x5241);
        let mut out = Vec::new();
        for threads in 2..=5 {
            let mut workers = Workers::default();
            workers.set_threads(threads);
            let mut lanes = vec![Lane::default(); threads];
            for round in 0..60 {
                let lists = random_lists(&mut rng, 1 + round % 7, 400, 3.0 + (round % 5) as f32 * 40.0);
                for min_keys in [0, 1 << 20] {
                    merge_on(&lists, &mut lanes, &mut out, &workers, min_keys);
                    assert_eq!(out, union(&lists), "{threads} threads, round {round}, min {min_keys}");
                }
            }
            // The ranges were merged on their own lanes.
            assert!(lanes.iter().filter(|l| !l.pairs.is_empty()).count() > 1);
        }
    }
}
