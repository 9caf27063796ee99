//! The parallel layer of the step: a small fixed pool of worker threads, and the one way
//! the stages use it — [`Workers::for_blocks`], which cuts a range of independent items
//! (the batches of one graph colour, the candidate pairs, the bodies) into blocks that the
//! workers claim one by one, each its own run of them first and then what the others have
//! left (as Box2D v3's and Box3D's stage blocks start each worker at its own block):
//! the same blocks go to the same core round after round, and their data stays in its
//! cache. [`Workers::concat`]
//! builds on it: a list made of one piece per thread, each written into its place.
//!
//! **Why the result does not depend on the thread count.** A stage hands the pool only work
//! whose items are independent: each item reads shared inputs and writes its own outputs
//! (its contact, its batch, its body), and the solver's items are the batches of *one*
//! colour, which share no dynamic body; the colours still run one after another. So every
//! item computes exactly what it computes on one thread, whichever worker claims it and in
//! whatever order; nothing is summed across items in a thread-dependent order (the few
//! totals a stage needs are gathered afterwards, in item order, on the calling thread).
//! With one thread, or a range too small to be worth splitting, the same closure runs
//! inline over the whole range: the textbook stage functions are the same on every path.
//!
//! **The pool** is ours, not rayon's: a step dispatches a few hundred short rounds (each
//! colour of each pass of each substep), so the workers spin briefly between rounds and
//! park on a condition variable only when idle longer (between steps). The dispatcher
//! works on the round too and, once done, closes it and waits only for the workers that
//! joined it: a worker still waking finds the round closed and waits for the next, so its
//! wake-up time never holds a round up. A round costs no
//! heap allocation (rayon's injector allocates as its queue advances), which keeps the
//! settled step allocation-free at any thread count.
//!
//! Limits: one dispatching thread at a time per pool (a second, e.g. a cloned world stepped
//! on another thread, runs its rounds inline); on the web (wasm32) there are no threads
//! and every round runs inline.

use std::cell::UnsafeCell;
use std::marker::PhantomData;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use web_time::Instant;

/// Most worker threads a world uses (the pool's own threads plus the caller).
pub const MAX_THREADS: usize = 64;

/// Blocks per thread a range is cut into: more than one, so that a worker that finishes
/// early takes another block (Box3D uses four).
pub(crate) const BLOCKS_PER_THREAD: usize = 4;

/// Most blocks a range is cut into (every thread's `BLOCKS_PER_THREAD`).
pub const MAX_BLOCKS: usize = MAX_THREADS * BLOCKS_PER_THREAD;

/// The blocks `thread` (of `threads`) tries to claim, in order: its own run of blocks,
/// `thread·blocks/threads` onwards to the last block, then back from the block before its
/// run down to block 0 (Box2D v3's and Box3D's workers search backwards the same way once
/// their forward run is done). When every thread takes part, each does its own run, and
/// the same blocks go to the same thread pass after pass: a colour's batches, say, stay in
/// the cache of the core that solved them the pass before, instead of moving between cores
/// as whichever thread came first took the next block. A thread that finishes early takes
/// what the others have left, the tail of the run before its own first (its owner works
/// forward, so that is the part it reaches last): where the work is uneven along the range
/// (a heightfield's pairs, all with the mesh, come first in pair order), a thread whose run
/// was light helps with the heavy one. The calling thread (0) runs forward over every
/// block, so a worker that never joins the round leaves nothing undone. A thread's blocks
/// are not in ascending order: a stage that merges the threads' lists of what they found
/// (the narrow phase's further mesh manifolds) records where each block starts in them.
fn claim_order(thread: usize, threads: usize, blocks: usize) -> impl Iterator<Item = usize> {
    let start = thread * blocks / threads;
    (start..blocks).chain((0..start).rev())
}

/// A round's work: called once on every thread with that thread's index (0 = the caller).
type Task<'a> = dyn Fn(usize) + Sync + 'a;

/// The thread count `requested` means on this machine: 0 is every core. The machine is
/// asked once (on Linux the answer reads the cgroup files; the panel asks every frame).
pub fn resolve_threads(requested: u32) -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    let all = *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let n = if requested == 0 { all } else { requested as usize };
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        n.clamp(1, MAX_THREADS)
    }
}

/// The threads a world steps with; cloning shares the pool.
#[derive(Clone, Default)]
pub struct Workers {
    pool: Option<Arc<Pool>>,
    /// The setting the pool was made for ([`Workers::configure`]).
    requested: Option<u32>,
    /// Split every range into blocks of one item ([`Workers::set_fine`]).
    fine: bool,
}

impl std::fmt::Debug for Workers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Workers({})", self.threads())
    }
}

impl Workers {
    /// Threads in use, the caller included (1: no pool).
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.threads)
    }

    /// Follows the setting `requested` (0: every core; see [`resolve_threads`]), looking
    /// the machine up only when the setting changes.
    pub fn configure(&mut self, requested: u32) {
        if self.requested != Some(requested) {
            self.requested = Some(requested);
            self.set_threads(resolve_threads(requested));
        }
    }

    /// Makes the pool `threads` strong (the caller included), starting or stopping threads
    /// only when the count changes.
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads != self.threads() {
            self.pool = (threads > 1).then(|| Arc::new(Pool::new(threads)));
        }
    }

    /// With `fine`, every range of two items or more is shared out in as many blocks as a
    /// range may have (four per thread, or one per item if fewer), however little work it
    /// holds, and every round waits until every thread has joined it: slower, but a small
    /// scene then takes every parallel path with every thread (the determinism tests use
    /// it; the results are the same either way).
    pub fn set_fine(&mut self, fine: bool) {
        self.fine = fine;
    }

    /// Whether every range is split as finely as it can be ([`Workers::set_fine`]): a stage
    /// that shares a range out in its own way does so then too, however short the range.
    pub fn is_fine(&self) -> bool {
        self.fine
    }

    /// Runs `f(thread, block)` over blocks of `0..n` covering it exactly once. A range of at
    /// least two `min_block`s (any range with [`Workers::set_fine`]) is cut into a whole
    /// number of even blocks per thread, up to four each (so a block may fall to half of
    /// `min_block`, or a short range to one block per thread); a shorter range, or a single
    /// thread, runs as one block on the calling thread. `f` must write only what its own items own
    /// (module docs): then the result is the same for any thread count and any claiming
    /// order.
    pub fn for_blocks(&self, n: usize, min_block: usize, f: impl Fn(usize, Range<usize>) + Sync) {
        let threads = self.threads();
        let min_block = if self.fine { 1 } else { min_block.max(1) };
        // A range worth sharing is cut into a whole number of blocks per thread (at least
        // one each), so that no thread is left with the one block too many of an uneven
        // split (a colour of 59 batches in three blocks kept one of two threads busy for
        // two thirds of the round).
        let worth = n / min_block;
        let blocks =
            if worth >= 2 { worth.min(threads * BLOCKS_PER_THREAD).next_multiple_of(threads).min(n) } else { worth };
        let pool = match &self.pool {
            Some(p) if blocks >= 2 => p,
            _ => {
                if n > 0 {
                    f(0, 0..n);
                }
                return;
            }
        };
        // Block b is items b·n/blocks up to (b + 1)·n/blocks: sizes differ by one at most.
        // Each thread claims its own run of blocks first, then what the others have left
        // ([`claim_order`]).
        let claimed: [AtomicBool; MAX_BLOCKS] = [const { AtomicBool::new(false) }; MAX_BLOCKS];
        let claimed = &claimed[..blocks];
        pool.run(
            &|thread| {
                let start = Instant::now();
                for b in claim_order(thread, pool.threads, blocks) {
                    if !claimed[b].load(Ordering::Relaxed) && !claimed[b].swap(true, Ordering::AcqRel) {
                        f(thread, b * n / blocks..(b + 1) * n / blocks);
                    }
                }
                pool.busy_ns[thread].fetch_add(start.elapsed().as_nanos() as u64, Ordering::Relaxed);
            },
            self.fine,
        );
    }

    /// Fills `out` (emptied first) with `lens.len()` pieces one after another, piece `t`
    /// being `lens[t]` items that `fill(t, slots)` writes into the list's room, one piece per
    /// block on the threads: the list is the same whichever thread wrote which piece. At most
    /// [`MAX_THREADS`] pieces.
    ///
    /// # Safety
    /// `fill` must write every one of the slots it is given.
    pub unsafe fn concat<T: Send + Sync>(
        &self,
        out: &mut Vec<T>,
        lens: &[usize],
        fill: impl Fn(usize, &mut [std::mem::MaybeUninit<T>]) + Sync,
    ) {
        assert!(lens.len() <= MAX_THREADS, "at most one piece per thread");
        let mut at = [0usize; MAX_THREADS + 1];
        for (t, &len) in lens.iter().enumerate() {
            at[t + 1] = at[t] + len;
        }
        let n = at[lens.len()];
        out.clear();
        out.reserve(n);
        let room = Shared::new(&mut out.spare_capacity_mut()[..n]);
        self.for_blocks(lens.len(), 1, |_, r| {
            for t in r {
                // SAFETY: piece t's slots are its own.
                fill(t, unsafe { room.range_mut(at[t]..at[t + 1]) });
            }
        });
        // SAFETY: the pieces cover 0..n, and `fill` wrote every slot of each (the caller's
        // promise).
        unsafe { out.set_len(n) };
    }

    /// Adds each thread's time spent on shared-out blocks since the last call (ms) to
    /// `out[thread]`, and starts counting afresh (the stage profile's per-thread shares).
    pub fn take_busy(&self, out: &mut [f32]) {
        if let Some(pool) = &self.pool {
            for (o, b) in out.iter_mut().zip(pool.busy_ns.iter()) {
                *o += b.swap(0, Ordering::Relaxed) as f32 * 1e-6;
            }
        }
    }
}

/// The pool's shared state.
struct PoolState {
    /// The current round's task, written by the dispatcher before it advances `round` and
    /// read by the workers after they see the new round.
    task: UnsafeCell<Option<*const Task<'static>>>,
    round: AtomicU32,
    /// Who joined the current round: its number (high 32 bits), [`CLOSED`] once the
    /// dispatcher has done its share, and the count of workers that joined before that.
    entry: AtomicU64,
    /// Workers that joined the current round and are done with it.
    finished: AtomicUsize,
    /// Workers parked on `wake` (or about to): the dispatcher notifies only when some are.
    parked: AtomicUsize,
    panicked: AtomicBool,
    quit: AtomicBool,
    lock: Mutex<()>,
    wake: Condvar,
}

/// The entry word's bit saying the round takes no more workers.
const CLOSED: u64 = 1 << 31;

// SAFETY: `task` is written only by the dispatcher between rounds, while no worker reads it
// (every worker that joined the last round has finished it; the others never read it), and
// read only by a worker that joined the current round, while
// the dispatcher keeps the closure it points to alive (`Pool::run` returns only after every
// worker has finished).
unsafe impl Sync for PoolState {}
unsafe impl Send for PoolState {}

/// `threads − 1` worker threads; the dispatching thread is worker 0.
struct Pool {
    threads: usize,
    shared: Arc<PoolState>,
    handles: Vec<std::thread::JoinHandle<()>>,
    /// Set while a round runs: one dispatcher at a time.
    busy: AtomicBool,
    /// Per thread, nanoseconds spent on blocks since [`Workers::take_busy`].
    busy_ns: Vec<std::sync::atomic::AtomicU64>,
}

/// Spins before a waiting thread starts yielding, and yields before it parks.
const SPINS: u32 = 2_000;
const YIELDS: u32 = 400;

impl Pool {
    fn new(threads: usize) -> Pool {
        let shared = Arc::new(PoolState {
            task: UnsafeCell::new(None),
            round: AtomicU32::new(0),
            entry: AtomicU64::new(0),
            finished: AtomicUsize::new(0),
            parked: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            quit: AtomicBool::new(false),
            lock: Mutex::new(()),
            wake: Condvar::new(),
        });
        // A thread the system refuses is done without: the pool is the threads it got.
        let handles: Vec<_> = (1..threads)
            .map_while(|index| {
                let shared = shared.clone();
                std::thread::Builder::new().name(format!("physics-{index}")).spawn(move || work(&shared, index)).ok()
            })
            .collect();
        let threads = handles.len() + 1;
        let busy_ns = (0..threads).map(|_| Default::default()).collect();
        Pool { threads, shared, handles, busy: AtomicBool::new(false), busy_ns }
    }

    /// Runs `task(i)` on the calling thread (`i` = 0) and on every worker `i` that joins the
    /// round before the caller has done its share, and returns when all of those are done —
    /// also when a share panics: the panic is passed on only after every thread that joined
    /// has finished, since the task borrows the caller's frame. `all`: the caller starts its
    /// share only once every worker has joined (every thread then takes part in every round;
    /// [`Workers::set_fine`]).
    fn run(&self, task: &Task<'_>, all: bool) {
        if self.busy.compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed).is_err() {
            // Another thread is dispatching on this pool: do every thread's share here.
            (0..self.threads).for_each(task);
            return;
        }
        let s = &*self.shared;
        // SAFETY: see `PoolState`; the lifetime is erased only for the duration of this call.
        unsafe {
            *s.task.get() = Some(std::mem::transmute::<*const Task<'_>, *const Task<'static>>(task));
        }
        s.finished.store(0, Ordering::Relaxed);
        let round = s.round.load(Ordering::Relaxed).wrapping_add(1);
        s.entry.store(u64::from(round) << 32, Ordering::Release);
        s.round.store(round, Ordering::SeqCst);
        if s.parked.load(Ordering::SeqCst) > 0 {
            let _g = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        if all {
            let mut tries = 0u32;
            while ((s.entry.load(Ordering::Acquire) & (CLOSED - 1)) as usize) < self.threads - 1 {
                backoff(&mut tries);
            }
        }
        let mine = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| task(0)));
        // Done here: close the round and wait only for the workers that joined it. A worker
        // still waking (parked, or descheduled) would find the work all taken anyway, and
        // waiting for it would cost its wake-up time every round after a serial stretch.
        let joined = (s.entry.fetch_or(CLOSED, Ordering::AcqRel) & (CLOSED - 1)) as usize;
        let mut tries = 0u32;
        while s.finished.load(Ordering::Acquire) < joined {
            backoff(&mut tries);
        }
        // SAFETY: every worker has finished with the task.
        unsafe {
            *s.task.get() = None;
        }
        let theirs = s.panicked.swap(false, Ordering::Relaxed);
        self.busy.store(false, Ordering::Release);
        if let Err(p) = mine {
            std::panic::resume_unwind(p);
        }
        if theirs {
            panic!("a physics worker thread panicked (see its message above)");
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        let s = &*self.shared;
        s.quit.store(true, Ordering::SeqCst);
        s.round.fetch_add(1, Ordering::SeqCst);
        {
            let _g = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// A short spin, then yields (the other threads may share this core).
fn backoff(tries: &mut u32) {
    if *tries < SPINS {
        std::hint::spin_loop();
    } else {
        std::thread::yield_now();
    }
    *tries = tries.saturating_add(1);
}

/// A worker's life: wait for a round, run its share, report, until the pool is dropped.
fn work(s: &PoolState, index: usize) {
    let mut seen = 0u32;
    loop {
        seen = wait_round(s, seen);
        if s.quit.load(Ordering::SeqCst) {
            return;
        }
        if !join(s, seen) {
            // The round was over before this worker got to it.
            continue;
        }
        // SAFETY: see `PoolState`: the dispatcher wrote the task before opening the round,
        // and waits for this worker, which joined it, before clearing it.
        let task = unsafe { (*s.task.get()).expect("a round has a task") };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| unsafe { (*task)(index) }));
        if run.is_err() {
            s.panicked.store(true, Ordering::Relaxed);
        }
        s.finished.fetch_add(1, Ordering::Release);
    }
}

/// Joins round `round` if it is still open (counted in the entry word before the
/// dispatcher closes it); false if it is closed or already past.
fn join(s: &PoolState, round: u32) -> bool {
    let mut e = s.entry.load(Ordering::Acquire);
    loop {
        if (e >> 32) as u32 != round || e & CLOSED != 0 {
            return false;
        }
        match s.entry.compare_exchange_weak(e, e + 1, Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return true,
            Err(now) => e = now,
        }
    }
}

/// Waits until the round moves past `seen`: spinning, then yielding, then parked.
fn wait_round(s: &PoolState, seen: u32) -> u32 {
    let mut tries = 0u32;
    while tries < SPINS + YIELDS {
        let r = s.round.load(Ordering::Acquire);
        if r != seen {
            return r;
        }
        backoff(&mut tries);
    }
    // Counted as parked before the last look at the round: a dispatcher that advances the
    // round after this look sees the count and notifies under the lock.
    s.parked.fetch_add(1, Ordering::SeqCst);
    let mut guard = s.lock.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let r = s.round.load(Ordering::SeqCst);
        if r != seen {
            s.parked.fetch_sub(1, Ordering::SeqCst);
            return r;
        }
        guard = s.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
    }
}

/// A slice the blocks of one round write element by element: each element is written by
/// at most one block (its owner) while the round runs, which the stage using it guarantees
/// (module docs). Reads of elements nobody writes in the round (static bodies) are fine.
pub struct Shared<'a, T> {
    ptr: *mut T,
    len: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: the elements are handed out one at a time under the ownership rule above.
unsafe impl<T: Send + Sync> Sync for Shared<'_, T> {}
unsafe impl<T: Send + Sync> Send for Shared<'_, T> {}

impl<'a, T> Shared<'a, T> {
    /// Borrows `slice` for the round(s).
    pub fn new(slice: &'a mut [T]) -> Self {
        Shared { ptr: slice.as_mut_ptr(), len: slice.len(), _borrow: PhantomData }
    }

    /// Elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Element `i`, to read.
    ///
    /// # Safety
    /// No other block writes element `i` while the reference lives.
    #[inline(always)]
    pub unsafe fn get(&self, i: usize) -> &T {
        assert!(i < self.len, "index {i} out of {}", self.len);
        self.get_unchecked(i)
    }

    /// Element `i`, to write.
    ///
    /// # Safety
    /// Only the caller's block touches element `i` while the reference lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get_mut(&self, i: usize) -> &mut T {
        assert!(i < self.len, "index {i} out of {}", self.len);
        self.get_unchecked_mut(i)
    }

    /// Element `i`, to read, without the bounds check: for the innermost loops, whose
    /// indices were checked once when their data was built.
    ///
    /// # Safety
    /// `i < self.len()`, and no other block writes element `i` while the reference lives.
    #[inline(always)]
    pub unsafe fn get_unchecked(&self, i: usize) -> &T {
        debug_assert!(i < self.len, "index {i} out of {}", self.len);
        &*self.ptr.add(i)
    }

    /// Element `i`, to write, without the bounds check (as [`Shared::get_unchecked`]).
    ///
    /// # Safety
    /// `i < self.len()`, and only the caller's block touches element `i` while the
    /// reference lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn get_unchecked_mut(&self, i: usize) -> &mut T {
        debug_assert!(i < self.len, "index {i} out of {}", self.len);
        &mut *self.ptr.add(i)
    }

    /// Elements `r`, to write.
    ///
    /// # Safety
    /// Only the caller's block touches these elements while the slice lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn range_mut(&self, r: Range<usize>) -> &mut [T] {
        assert!(r.start <= r.end && r.end <= self.len, "range {r:?} out of {}", self.len);
        std::slice::from_raw_parts_mut(self.ptr.add(r.start), r.len())
    }
}

/// Gives every thread's buffers the room any of them has: `reserve_like(a, b)` grows `a` to
/// `b`'s capacities. Which thread takes which item changes from round to round (blocks go to
/// the threads as they come free), so a per-thread buffer sized only by its own thread's past
/// would allocate when an item it never had reaches it; evened out after each round, a
/// settled world allocates on no thread.
pub fn even_out<T>(per_thread: &mut [T], reserve_like: impl Fn(&mut T, &T)) {
    if let Some((first, rest)) = per_thread.split_first_mut() {
        rest.iter().for_each(|t| reserve_like(first, t));
        rest.iter_mut().for_each(|t| reserve_like(t, first));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every item of a range is visited exactly once, at any thread count and block size.
    #[test]
    fn blocks_cover_the_range_once() {
        for threads in 1..=4 {
            let mut w = Workers::default();
            w.set_threads(threads);
            for (n, min) in [(0, 1), (1, 1), (7, 1), (100, 3), (1000, 16), (33, 40)] {
                let mut hits = vec![0u32; n];
                let shared = Shared::new(&mut hits);
                for _ in 0..3 {
                    w.for_blocks(n, min, |_, r| {
                        for i in r {
                            // SAFETY: blocks are disjoint.
                            unsafe { *shared.get_mut(i) += 1 };
                        }
                    });
                }
                assert!(hits.iter().all(|&h| h == 3), "threads {threads}, n {n}: {hits:?}");
            }
        }
    }

    /// A range worth sharing is cut into a whole number of even blocks per thread (none
    /// left over for one thread alone; rounding up to that number may halve the smallest
    /// block, or cut a short range in one block per thread); a range under two smallest
    /// blocks runs as one block on the calling thread.
    #[test]
    fn a_shared_range_is_cut_evenly_between_the_threads() {
        for threads in 2..=4 {
            let mut w = Workers::default();
            w.set_threads(threads);
            for (n, min) in [(59, 16), (93, 16), (143, 16), (663, 16), (40, 16), (31, 16), (5000, 256), (20, 1)] {
                let blocks = std::sync::Mutex::new(Vec::new());
                w.for_blocks(n, min, |_, r| blocks.lock().unwrap().push(r.len()));
                let sizes = blocks.into_inner().unwrap();
                assert_eq!(sizes.iter().sum::<usize>(), n);
                let (small, large) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                if n < 2 * min {
                    assert_eq!(sizes, [n], "{threads} threads, {n} items");
                } else {
                    assert_eq!(sizes.len() % threads, 0, "{threads} threads, {n} items: {sizes:?}");
                    assert!(sizes.len() <= threads * BLOCKS_PER_THREAD, "{threads} threads, {n} items: {sizes:?}");
                    assert!(large - small <= 1, "{threads} threads, {n} items: {sizes:?}");
                    assert!(*small >= (min / 2).min(n / threads), "{threads} threads, {n} items: {sizes:?}");
                }
            }
        }
    }

    /// Each thread tries its own run of blocks first (the runs of all threads tile the
    /// range in thread order), then the blocks after it, ascending, then those before it,
    /// descending: every thread can take every block, once.
    #[test]
    fn each_thread_claims_its_own_run_first() {
        for threads in 1..=8 {
            for blocks in 1..=4 * threads {
                let mut runs = Vec::new();
                for t in 0..threads {
                    let (start, end) = (t * blocks / threads, (t + 1) * blocks / threads);
                    let order: Vec<usize> = claim_order(t, threads, blocks).collect();
                    let expected: Vec<usize> = (start..blocks).chain((0..start).rev()).collect();
                    assert_eq!(order, expected, "thread {t} of {threads}, {blocks} blocks");
                    let mut every = order.clone();
                    every.sort_unstable();
                    assert_eq!(every, (0..blocks).collect::<Vec<_>>(), "thread {t} of {threads}, {blocks} blocks");
                    runs.extend(start..end);
                }
                assert_eq!(runs, (0..blocks).collect::<Vec<_>>(), "{threads} threads, {blocks} blocks");
            }
        }
    }

    /// Work is shared out: with two threads and slow items, both threads take blocks.
    #[test]
    fn both_threads_take_blocks() {
        let mut w = Workers::default();
        w.set_threads(2);
        let seen = [AtomicUsize::new(0), AtomicUsize::new(0)];
        w.for_blocks(64, 1, |t, _| {
            seen[t].fetch_add(1, Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_millis(2));
        });
        assert_eq!(seen.iter().map(|s| s.load(Ordering::Relaxed)).sum::<usize>(), 8);
        assert!(seen[1].load(Ordering::Relaxed) > 0, "the worker thread took no block");
    }

    /// A panic on a worker reaches the caller, and the pool still works afterwards.
    #[test]
    fn a_worker_panic_reaches_the_caller() {
        let mut w = Workers::default();
        w.set_threads(2);
        let pool = w.pool.clone().expect("two threads have a pool");
        // Every thread joins the round before the caller's share starts.
        let joined = AtomicBool::new(false);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.run(
                &|t| {
                    if t == 1 {
                        joined.store(true, Ordering::SeqCst);
                        panic!("test panic");
                    }
                },
                true,
            )
        }));
        assert!(joined.load(Ordering::SeqCst), "the worker joined the round");
        assert!(r.is_err());
        // A panic on the calling thread's share too.
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.run(
                &|t| {
                    if t == 0 {
                        panic!("test panic");
                    }
                },
                false,
            )
        }));
        assert!(r.is_err());
        // The pool still shares its work out.
        let seen = [AtomicUsize::new(0), AtomicUsize::new(0)];
        w.for_blocks(64, 1, |t, r| {
            seen[t].fetch_add(r.len(), Ordering::Relaxed);
            std::thread::sleep(std::time::Duration::from_millis(2));
        });
        assert_eq!(seen.iter().map(|s| s.load(Ordering::Relaxed)).sum::<usize>(), 64);
        assert!(seen[1].load(Ordering::Relaxed) > 0, "the worker thread took no block after the panics");
    }
}
