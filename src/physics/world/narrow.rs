//! The narrow phase: keep, recycle or recompute each candidate pair's manifold
//! ([`crate::physics::contact`]). It reads a compact [`PairKey`] per pair first: the pairs
//! still apart are ruled out from it without touching their boxed contacts, and so, with
//! sleeping on, are the pairs of two resting bodies (asleep, or asleep and static), whose
//! manifolds stay as they are and whose keys say whether they touch ([`resting`]); the
//! rest are prefetched ahead. The touching list it leaves, read through the keys
//! ([`World::touching_pairs`]), is what the prepare stage and the islands walk. In a world
//! asleep, where the broad phase kept the last step's pairs as they were
//! (`Movers::pairs_kept`), the stage keeps the last step's touching list and returns.
//!
//! **Threads.** Lining last step's contacts up with this step's pairs
//! ([`World::match_pairs`]) is shared out in blocks of pairs (both lists are sorted, so a
//! block finds its share of the old ones by binary search); only the boxes of the ended and
//! new pairs pass through the pool on the calling thread. The pairs are independent: each
//! reads the two bodies and writes its own contact and key. Every pair but the watched ones
//! (whose records are shared) is shared out between the world's worker threads in blocks
//! (of a few pairs where the world has compound or mesh pairs, which cost tens of
//! microseconds each), each thread with its own collision scratch; the watched
//! pairs follow on the calling
//! thread. A mesh or compound pair's further manifolds ([`MeshParts`]) go into its thread's own list,
//! tagged with the pair's place, block by block, and the blocks are gathered in pair order
//! afterwards, when the manifolds get their pooled boxes; the touching list is gathered in
//! pair order too. So the step is the same at any thread count — and, with one thread, the
//! same work in the same order as a single loop.
//!
//! **Recycling** ([`crate::physics::contact::Recycle`]): a touching pair that has barely
//! moved keeps its manifold; a mesh pair only within the slop, since moving on it can meet
//! mesh features its manifold does not hold. Once both its moving bodies have rested a
//! while, a recycled pair's warm friction is settled to the least that holds it, once per
//! run of recycled manifolds ([`crate::physics::rest_friction`]).
//!
//! Limits: the watched pairs run on one thread (usually none, or the selected pair).

use super::collision::Motion;
use super::mesh_parts::{MeshParts, PartOut, PartsAccess};
use super::watch::{self, PairRecord};
use super::*;
use crate::physics::collide::mesh::SAME_NORMAL;
use crate::physics::collide::{collide_recorded, ContactPoint, PairMotion, PairPath};
use crate::physics::contact::match_impulses;
use crate::physics::math::prefetch_all;
use crate::physics::parallel::{Shared, BLOCKS_PER_THREAD};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

impl World {
    pub(super) fn narrow_phase(&mut self, dt: f32) {
        // A world asleep (`Movers::pairs_kept`): the pairs are the last step's and each
        // rests or is still apart, so its key holds its outcome and the touching list is
        // the last step's. (Not with a watched pair, whose record is written each step, nor
        // with a mesh pair's further manifolds, which are carried over here.)
        if self.movers.pairs_kept && self.watch.is_empty() && self.contacts.len() == self.keys.len() {
            return;
        }
        let base = self.collide_config();
        // Last step's further mesh manifolds come off the end of the contacts ([`MeshParts`]).
        let aligned = self.keys.len();
        if self.contacts.len() > aligned {
            self.parts.prev.extend(self.contacts.drain(aligned..));
        }
        self.parts.begin(self.workers.threads());
        let unchanged =
            self.keys.len() == self.pairs.len() && self.keys.iter().zip(&self.pairs).all(|(k, &p)| (k.a, k.b) == p);
        if !unchanged {
            self.match_pairs();
        }
        self.touching.clear();
        let mut keys = std::mem::take(&mut self.keys);
        let mut contacts = std::mem::take(&mut self.contacts);
        let mut outcome = std::mem::take(&mut self.narrow_outcome);
        outcome.clear();
        outcome.resize(keys.len(), Outcome::Later);
        self.narrow_scratch.resize_with(self.workers.threads(), Default::default);
        self.open.resize_with(self.workers.threads(), Vec::new);
        // Room for the whole round in every thread's list, made here: which blocks a thread
        // claims, and so how long its list gets, changes from step to step (a thread that had
        // joined no round at a step with this many pairs would grow its list in a later one).
        for open in &mut self.open {
            open.clear();
            open.reserve(keys.len());
        }
        let round_parts = AtomicBool::new(false);
        let input = NarrowInput {
            bodies: &self.bodies,
            motions: &self.motions,
            turns: &self.turns,
            recycle_distance: self.settings.recycle_distance,
            settle_after: 0.75 * self.settings.sleep_time,
            step: self.step_count + 1,
            sleeping: self.settings.sleeping,
            dt,
            base,
            round_parts: &round_parts,
        };
        // A world whose pairs include a compound's or a mesh's (tens of child or triangle
        // tests each) is shared out in smaller blocks: Box3D's fifty trees on a terrain make
        // 63 pairs, each a fallen tree's 22 trunk segments against the mesh. (Past as many
        // pairs as fill every thread's blocks at the ordinary size the block count is the
        // same either way, and the pairs are not looked at.)
        let heavy = |k: &PairKey| [k.a, k.b].iter().any(|&i| self.bodies[i as usize].shape.is_composite());
        let full = self.workers.threads() * BLOCKS_PER_THREAD * MIN_PAIRS;
        let few = self.workers.threads() > 1 && keys.len() < full && keys.iter().any(heavy);
        let min_pairs = if few { MIN_HEAVY_PAIRS } else { MIN_PAIRS };
        // The pairs whose contacts are opened (`Profile::pairs_opened`).
        let opened_pairs = AtomicUsize::new(0);
        {
            // Every pair but the watched ones, shared out between the threads.
            let (keys, contacts) = (Shared::new(&mut keys), Shared::new(&mut contacts));
            let (out, scratch) = (Shared::new(&mut outcome), Shared::new(&mut self.narrow_scratch));
            let MeshParts { prev, prev_keys, out: sinks, blocks, .. } = &mut self.parts;
            let (prev, sinks, prev_keys) = (Shared::new(prev), Shared::new(sinks), &*prev_keys);
            let blocks = Shared::new(blocks);
            let opened = Shared::new(&mut self.open);
            self.workers.for_blocks(keys.len(), min_pairs, |thread, r| {
                // SAFETY: one scratch, one list of opened pairs and one list of further
                // manifolds per thread; each block owns its pairs' keys, contacts, outcomes
                // and last step's further manifolds (a pair's manifolds are its own range of
                // `prev`).
                let scratch = unsafe { scratch.get_mut(thread) };
                let sink = unsafe { sinks.get_mut(thread) };
                let open = unsafe { opened.get_mut(thread) };
                // Where this block's further manifolds start in the thread's list (the merge
                // takes the blocks in pair order, whichever thread took which).
                unsafe { blocks.get_mut(thread) }.push((r.start as u32, sink.len() as u32));
                // First the pairs still apart are ruled out from the keys alone (three in
                // four of a moving pile's pairs); then the rest open their contacts.
                open.clear();
                // A pair whose bodies both rest (asleep, or asleep and static) keeps its
                // manifolds, and its key says whether they have points: such a pair is not
                // opened either (a sleeping pile's pairs).
                for i in r {
                    let k = unsafe { keys.get(i) };
                    if still_apart(&input, k) {
                        unsafe { *out.get_mut(i) = Outcome::Apart };
                    } else if let Some(touching) = resting(&input, k) {
                        unsafe { *out.get_mut(i) = Outcome::from(touching) };
                    } else {
                        open.push(i as u32);
                    }
                }
                opened_pairs.fetch_add(open.len(), Ordering::Relaxed);
                for j in 0..open.len() {
                    // The contacts' boxes lie scattered in memory: ask for the one a few
                    // pairs ahead now, so it has arrived when its turn comes (the hull
                    // pile's narrow phase spent much of its time waiting on these loads).
                    if j + PREFETCH_AHEAD < open.len() {
                        let c = unsafe { contacts.get(open[j + PREFETCH_AHEAD] as usize) };
                        prefetch_all(&c.recycle);
                        prefetch_all(&c.manifold);
                    }
                    let i = open[j] as usize;
                    let k = unsafe { keys.get_mut(i) };
                    let (ma, mb) = (&input.motions[k.a as usize], &input.motions[k.b as usize]);
                    if k.watched {
                        continue;
                    }
                    let parts = (ma.parts | mb.parts).then(|| {
                        let range = MeshParts::range_of(prev_keys, k.a, k.b);
                        PartsAccess { start: range.start, prev: unsafe { prev.range_mut(range) }, out: sink, pair: i }
                    });
                    let touching = update_pair(&input, k, unsafe { contacts.get_mut(i) }, scratch, parts, None);
                    k.touching = touching;
                    unsafe { *out.get_mut(i) = Outcome::from(touching) };
                }
            });
        }
        self.profile.pairs_opened += opened_pairs.into_inner();
        // One high-water mark for every thread's scratch (`Scratch::reserve_like`).
        crate::physics::parallel::even_out(&mut self.narrow_scratch, Scratch::reserve_like);
        // The watched pairs, in pair order, on this thread.
        let mut records = std::mem::take(&mut self.watch);
        for i in 0..keys.len() {
            if outcome[i] != Outcome::Later {
                continue;
            }
            let (a, b) = (keys[i].a, keys[i].b);
            // A watched pair (module `watch`): the same decisions, recorded.
            let rec = records.iter_mut().find(|r| (r.a, r.b) == (a, b));
            let MeshParts { prev, prev_keys, out: sinks, .. } = &mut self.parts;
            let range = MeshParts::range_of(prev_keys, a, b);
            let sink = sinks.last_mut().expect("a list for the calling thread");
            let parts = Some(PartsAccess { start: range.start, prev: &mut prev[range], out: sink, pair: i });
            let touching = update_pair(&input, &mut keys[i], &mut contacts[i], &mut self.scratch, parts, rec);
            keys[i].touching = touching;
            outcome[i] = Outcome::from(touching);
        }
        self.watch = records;
        self.round_parts = round_parts.load(Ordering::Relaxed);
        self.touching.extend((0..).zip(&outcome).filter(|(_, &o)| o == Outcome::Touching).map(|(i, _)| i));
        // This step's further mesh manifolds go after the pair-aligned contacts, in pair
        // order, in boxes from the pool; last step's boxes go back to the pool.
        self.parts.merge(&mut self.contact_pool);
        self.contact_pool.append(&mut self.parts.prev);
        for part in self.parts.next.drain(..) {
            if !part.manifold.points.is_empty() {
                self.touching.push(contacts.len() as u32);
            }
            contacts.push(part);
        }
        self.narrow_outcome = outcome;
        self.keys = keys;
        self.contacts = contacts;
    }

    /// Each touching contact (`World::touching`) with its two bodies, `(contact, a, b)`, in
    /// the list's order: a pair-aligned contact's bodies read from its compact key, only a
    /// mesh pair's further manifolds from their boxes.
    pub(super) fn touching_pairs(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.touching.iter().map(|&ci| match self.keys.get(ci as usize) {
            Some(k) => (ci, k.a, k.b),
            None => (ci, self.contacts[ci as usize].a, self.contacts[ci as usize].b),
        })
    }

    /// Lines the contacts up with this step's pairs: a persisting pair keeps its contact
    /// (SAT cache, tangents, manifold, impulses, recycling anchors), a new one takes a pooled
    /// box (made fresh by its own narrow phase), and the contacts of pairs that ended go back
    /// to the pool. Pairs are matched on the keys; the boxes move along unopened.
    ///
    /// Both lists are sorted, so a block of this step's pairs finds where its share of last
    /// step's keys starts by binary search and merges from there: the blocks run on the
    /// threads, each writing its own pairs' keys and boxes and marking the old contacts it
    /// took ([`PairMatch`]). The ended contacts go to the pool first, the boxes it still
    /// lacks for the new pairs are made on the threads, and the new pairs then take boxes
    /// from it, in pair order, on the calling thread (a short pass over two flag lists), so
    /// the pool lends whatever the ended pairs freed and a settled scene allocates nothing.
    fn match_pairs(&mut self) {
        let mut old = std::mem::take(&mut self.contacts);
        let old_keys = std::mem::take(&mut self.keys);
        let mut next = std::mem::take(&mut self.contacts_next);
        let mut next_keys = std::mem::take(&mut self.keys_next);
        let (n, m) = (self.pairs.len(), old_keys.len());
        debug_assert_eq!(old.len(), m, "the further mesh manifolds were taken off first");
        next.clear();
        next.reserve(n);
        next_keys.clear();
        next_keys.reserve(n);
        let PairMatch { fresh, taken } = &mut self.pair_match;
        fresh.clear();
        fresh.resize(n, false);
        taken.clear();
        taken.resize(m, false);
        {
            let (pairs, records) = (&self.pairs, &self.watch);
            let (fresh, taken) = (Shared::new(fresh), Shared::new(taken));
            let (slots, key_slots) = (
                Shared::new(&mut next.spare_capacity_mut()[..n]),
                Shared::new(&mut next_keys.spare_capacity_mut()[..n]),
            );
            let old = Shared::new(&mut old);
            self.workers.for_blocks(n, MIN_MATCH, |_, r| {
                let mut j = old_keys.partition_point(|k| (k.a, k.b) < pairs[r.start]);
                for i in r {
                    let (a, b) = pairs[i];
                    while j < m && (old_keys[j].a, old_keys[j].b) < (a, b) {
                        j += 1;
                    }
                    // SAFETY: the block owns its pairs' slots; old contact j matches only
                    // pair i (both lists sorted, without repeats), so it is marked and moved
                    // by this block alone, once.
                    unsafe {
                        if j < m && (old_keys[j].a, old_keys[j].b) == (a, b) {
                            *taken.get_mut(j) = true;
                            key_slots.get_mut(i).write(old_keys[j]);
                            slots.get_mut(i).write(std::ptr::read(old.get(j)));
                            j += 1;
                        } else {
                            *fresh.get_mut(i) = true;
                            let watched = watch::is_watched(records, a, b);
                            key_slots.get_mut(i).write(PairKey {
                                a,
                                b,
                                persisted: false,
                                touching: false,
                                watched,
                                apart: Apart::default(),
                            });
                        }
                    }
                }
            });
        }
        // SAFETY: every taken box was moved into `next` above; the ended ones move to the
        // pool here, so `old` owns none of its boxes any more and is emptied without
        // dropping them. Every key slot and every slot of a matched pair was written; the
        // new pairs' slots are written next, before `next` is given its length.
        unsafe {
            for (j, _) in taken.iter().enumerate().filter(|(_, &t)| !t) {
                self.contact_pool.push(std::ptr::read(old.as_ptr().add(j)));
            }
            old.set_len(0);
        }
        // While a pile falls, more pairs start than end: the boxes the pool lacks are made on
        // the threads. (A new pair's contact is filled afresh whatever its box held: a
        // restored snapshot starts with an empty pool and steps the same.)
        let short = fresh.iter().filter(|&&f| f).count().saturating_sub(self.contact_pool.len());
        if short > 0 {
            let pool = &mut self.contact_pool;
            let had = pool.len();
            pool.reserve(short);
            {
                let room = Shared::new(&mut pool.spare_capacity_mut()[..short]);
                self.workers.for_blocks(short, MIN_NEW_BOXES, |_, r| {
                    for i in r {
                        // SAFETY: each block owns its slots.
                        unsafe { room.get_mut(i).write(Box::default()) };
                    }
                });
            }
            // SAFETY: the round wrote every slot had..had + short.
            unsafe { pool.set_len(had + short) };
        }
        unsafe {
            next_keys.set_len(n);
            let slots = next.spare_capacity_mut();
            for (i, _) in fresh.iter().enumerate().filter(|(_, &f)| f) {
                slots[i].write(self.contact_pool.pop().unwrap_or_default());
            }
            next.set_len(n);
        }
        self.contacts = next;
        self.keys = next_keys;
        self.contacts_next = old;
        self.keys_next = old_keys;
    }
}

/// Fewest new contact boxes a worker thread makes at once ([`World::match_pairs`]).
const MIN_NEW_BOXES: usize = 256;

/// Fewest pairs a worker thread matches at once ([`World::match_pairs`]; a few nanoseconds
/// each): smaller lists are matched on the calling thread.
const MIN_MATCH: usize = 4096;

/// Scratch of [`World::match_pairs`].
#[derive(Clone, Debug, Default)]
pub(super) struct PairMatch {
    /// Per pair of this step, whether it had no contact last step (it takes a pooled box).
    fresh: Vec<bool>,
    /// Per contact of last step, whether a pair of this step took it.
    taken: Vec<bool>,
}

/// Fewest candidate pairs a worker thread takes at once (a recycled pair costs about
/// 0.1 µs, a SAT a few): smaller narrow phases run on the calling thread.
const MIN_PAIRS: usize = 64;

/// Fewest candidate pairs a worker thread takes at once where the world has a compound's
/// or a mesh's pairs among its pairs (one such pair, a body's children or the triangles
/// under it each through the narrow phase, costs 10 to 50 µs).
const MIN_HEAVY_PAIRS: usize = 4;

/// What the narrow phase made of one pair of the step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Left to the calling thread (a watched pair).
    #[default]
    Later,
    /// No points.
    Apart,
    /// At least one point.
    Touching,
}

impl From<bool> for Outcome {
    fn from(touching: bool) -> Outcome {
        if touching {
            Outcome::Touching
        } else {
            Outcome::Apart
        }
    }
}

/// What the narrow phase of a pair reads: the same for every pair and thread.
struct NarrowInput<'a> {
    bodies: &'a [Body],
    motions: &'a [Motion],
    /// Each body's rotation as a matrix (`World::turns`).
    turns: &'a [glam::Mat3A],
    recycle_distance: f32,
    /// How long a body rests before its pairs' friction is settled
    /// ([`crate::physics::rest_friction`]): three quarters of the time it takes to fall asleep.
    settle_after: f32,
    /// The step being taken (for the watched pairs' records).
    step: u64,
    /// Sleeping is on (`Settings::sleeping`): resting pairs are left unopened ([`resting`]).
    sleeping: bool,
    dt: f32,
    base: CollideConfig,
    /// Set by a touching pair with a compound that has round children, whose constraints
    /// take their child's rounding (`World::round_parts`).
    round_parts: &'a AtomicBool,
}

/// Whether the pair of `k`, found apart on an earlier step, is still apart by more than
/// its speculative margin ([`Apart::still_apart`]): its manifold stays empty.
#[inline]
fn still_apart(input: &NarrowInput, k: &PairKey) -> bool {
    if !k.persisted || k.apart.gap <= input.base.margin {
        return false;
    }
    let (ma, mb) = (&input.motions[k.a as usize], &input.motions[k.b as usize]);
    if !ma.awake && !mb.awake {
        return false;
    }
    let margin = input.base.margin + Motion::pair_reach(ma, mb, input.dt);
    let (xa, xb) = (&input.bodies[k.a as usize].pose, &input.bodies[k.b as usize].pose);
    k.apart.still_apart(xa, xb, mb.radius, margin)
}

/// Whether the pair of `k` touches, where sleeping is on, its bodies both rest (neither is
/// awake) and its key already says so: a pair carried over from an earlier step, neither
/// watched nor with a mesh body (whose further manifolds are carried in
/// [`PartsAccess::carry`]). `None`: the pair's contact is opened ([`update_pair`]).
#[inline]
fn resting(input: &NarrowInput, k: &PairKey) -> Option<bool> {
    if !input.sleeping {
        return None;
    }
    let (ma, mb) = (&input.motions[k.a as usize], &input.motions[k.b as usize]);
    let rests = k.persisted && !k.watched && !ma.awake && !mb.awake && !ma.parts && !mb.parts;
    rests.then_some(k.touching)
}

/// The narrow phase of one candidate pair not [still apart](still_apart): keep,
/// recycle or recompute the manifold of `c` (which holds last step's contact of the same
/// pair if `k.persisted`). Returns whether the pair touches (its manifold has points).
/// `parts`: a mesh or compound pair's further manifolds (`None` for a pair without a mesh
/// or compound body, which has none); `rec`: the pair's record when it is watched (what each decision was).
#[inline]
fn update_pair(
    input: &NarrowInput,
    k: &mut PairKey,
    c: &mut Contact,
    scratch: &mut Scratch,
    mut parts: Option<PartsAccess>,
    mut rec: Option<&mut PairRecord>,
) -> bool {
    let (dt, base) = (input.dt, &input.base);
    let persisted = std::mem::replace(&mut k.persisted, true);
    if !persisted {
        // A new pair: its box may be a pooled one that held another pair.
        *c = Contact { a: k.a, b: k.b, ..Default::default() };
    }
    let (ma, mb) = (&input.motions[k.a as usize], &input.motions[k.b as usize]);
    let step = input.step;
    if !ma.awake && !mb.awake {
        // Both asleep (or asleep + static): keep the manifolds as they were.
        watch::begin(&mut rec, step, base.margin);
        watch::took(&mut rec, PairPath::Asleep);
        if let Some(p) = parts {
            p.carry();
        }
        return !c.manifold.points.is_empty();
    }
    // Speculative contacts (Catto): points up to the distance the pair can close in one
    // step, so fast bodies land on the surface instead of deep inside it.
    let reach = Motion::pair_reach(ma, mb, dt);
    let cfg = CollideConfig { margin: base.margin + reach, ..*base };
    watch::begin(&mut rec, step, cfg.margin);
    let (ra, rb) = (ma.radius, mb.radius);
    let (ba, bb) = (&input.bodies[k.a as usize], &input.bodies[k.b as usize]);
    if persisted {
        // A mesh pair's manifold holds the features it touched when it was computed; moving
        // on, the body can meet others (a ridge under a box settling onto its corner) that
        // a recycled manifold does not hold. So a mesh pair is recycled only within the
        // slop: such a feature gets no deeper than the solver lets any contact sink before
        // the pair is computed again (heightfield-1000's deepest box: 15.1 mm with the full
        // window, 11.5 mm with the slop; docs/BENCHMARKS.md).
        let distance = if ma.mesh || mb.mesh { input.recycle_distance.min(base.slop) } else { input.recycle_distance };

        // A pair with several normal groups is recycled whole or not at all.
        let rounding = (ma.rounding, mb.rounding);
        let turns = (&input.turns[k.a as usize], &input.turns[k.b as usize]);
        let (xa, xb, margin) = (&ba.pose, &bb.pose, cfg.margin);
        if c.recycle.reuse_rounded(&mut c.manifold, xa, xb, turns, (ra, rb), rounding, distance, margin)
            && parts.as_mut().is_none_or(|p| p.reuse(xa, xb, turns, (ra, rb), rounding, distance, margin))
        {
            // (A kinematic body rests while it does not move.)
            let rests = |b: &Body| (!b.is_dynamic() || b.sleep_time >= input.settle_after) && !b.is_moving_kinematic();
            let unsettled =
                !c.recycle.settled || parts.as_ref().is_some_and(|p| p.prev.iter().any(|b| !b.recycle.settled));
            if unsettled && rests(ba) && rests(bb) {
                // The pair's own manifold and a mesh pair's further ones, each once.
                let further = parts.as_mut().map_or(&mut [][..], |p| &mut p.prev[..]);
                for c in std::iter::once(&mut *c).chain(further.iter_mut().map(|b| &mut **b)) {
                    if !c.recycle.settled {
                        c.recycle.settled = crate::physics::rest_friction::settle(c);
                    }
                }
            }
            if let Some(p) = parts {
                p.carry();
            }
            watch::took(&mut rec, PairPath::Recycled);
            return true;
        }
    }
    // Bounding spheres (radii about the centres) apart by more than the margin: no
    // manifold, and their gap, a lower bound on the distance, lets `still_apart` skip
    // the pair on later steps while it stays apart — most new pairs of a moving pile are
    // such near misses, which would otherwise each cost a SAT.
    let sphere_gap = ba.pose.pos.distance(bb.pose.pos) - (ra + rb);
    if sphere_gap > cfg.margin {
        c.manifold.clear();
        c.recycle = Recycle::default();
        c.impulses = Default::default();
        c.rolling_impulse = Vec3::ZERO;
        k.apart = Apart::new(&ba.pose, &bb.pose, sphere_gap);
        watch::took(&mut rec, PairPath::SphereSkip);
        return false;
    }
    let compound = ma.compound || mb.compound;
    if compound {
        // Each touching child pair's SAT cache from last step, by its tag: the pair's own
        // manifold's, then its further ones' (`collide/compound.rs`).
        scratch.compound_caches.clear();
        if persisted && !c.manifold.points.is_empty() {
            scratch.compound_caches.push((c.manifold.part, c.cache));
        }
        if let Some(p) = &parts {
            scratch.compound_caches.extend(p.prev.iter().map(|q| (q.manifold.part, q.cache)));
        }
    }
    let (prev_points, prev_impulses, prev_normal, prev_part, prev_rolling) =
        (c.manifold.points.clone(), c.impulses, c.manifold.normal, c.manifold.part, c.rolling_impulse);
    // A mesh pair chooses its points among those that touch by the step's end
    // (`collide/mesh.rs`), so it is told how the pair moves.
    let motion = (ma.mesh || mb.mesh).then(|| {
        let v = |b: &Body| (b.velocity, b.angular_velocity, b.pose.pos);
        PairMotion::between(v(ba), v(bb), dt)
    });
    let cfg = CollideConfig { motion, ..cfg };
    let record = rec.as_deref_mut().map(|r| &mut r.collide);
    collide_recorded(&ba.shape, &ba.pose, &bb.shape, &bb.pose, &cfg, &mut c.cache, scratch, &mut c.manifold, record);
    if let Some(r) = rec {
        r.path = r.collide.path;
        if r.collide.clipped {
            r.clip_step = r.step;
        }
    }
    let rel = Iso::relative(&ba.pose, &bb.pose);
    c.recycle = Recycle::capture(&c.manifold, &ba.pose, &bb.pose, rel);
    k.apart = if compound {
        c.cache = scratch.compound_caches_out.first().copied().unwrap_or_default();
        if (ma.rounding + mb.rounding).is_nan() {
            // A compound with round children: its contacts take their child's rounding,
            // which the recycling's per-body rounding does not know, so it is never
            // recycled: its capture is marked invalid (the further ones go only with it).
            c.recycle.valid = false;
            if !c.manifold.points.is_empty() {
                input.round_parts.store(true, Ordering::Relaxed);
            }
        }
        // The least of its child pairs' gaps (`collide/compound.rs`).
        Apart { rel, gap: scratch.compound_gap }
    } else {
        Apart::capture(&c.manifold, rel, &c.cache)
    };
    c.impulses = Default::default();
    if c.manifold.points.is_empty() {
        // (A manifold that keeps points keeps its rolling impulse to warm start with.)
        c.rolling_impulse = Vec3::ZERO;
    }
    let groups = &scratch.mesh_groups;
    match parts {
        Some(p) if !(groups.is_empty() && p.prev.is_empty()) => {
            // A mesh pair with several normal groups now or last step: each group's
            // manifold takes its warm impulses from last step's group of the nearest normal
            // (a compound pair's, among those of the same child pair).
            let prev = Group {
                normal: prev_normal,
                part: prev_part,
                points: &prev_points,
                impulses: &prev_impulses,
                rolling: prev_rolling,
            };
            let radius = 4.0 * base.slop;
            let parts_prev = &*p.prev;
            let warm = |target: &mut Contact| {
                let (n, part) = (target.manifold.normal, target.manifold.part);
                let best = std::iter::once(prev)
                    .filter(|_| persisted)
                    .chain(parts_prev.iter().map(|p| Group::of(p)))
                    .filter(|g| g.part == part)
                    .map(|g| (g.normal.dot(n), g))
                    .filter(|(d, _)| *d >= SAME_NORMAL)
                    .max_by(|x, y| x.0.total_cmp(&y.0));
                // The rolling impulse goes with the manifold it is matched to (Box3D's too).
                match best {
                    Some((_, g)) => {
                        match_impulses(g.points, g.impulses, target, radius);
                        target.rolling_impulse = g.rolling;
                    }
                    None => {
                        fresh_impulses(target);
                        target.rolling_impulse = Vec3::ZERO;
                    }
                }
            };
            warm(c);
            for (i, g) in groups.iter().enumerate() {
                // Made in place in the thread's list (a contact is large).
                p.out.push(PartOut::New { pair: p.pair as u32, part: Contact::default() });
                let Some(PartOut::New { part, .. }) = p.out.last_mut() else { unreachable!("just pushed") };
                (part.a, part.b) = (k.a, k.b);
                part.manifold.clone_from(g);
                if compound {
                    part.cache = scratch.compound_caches_out.get(i + 1).copied().unwrap_or_default();
                }
                part.recycle = Recycle::capture(g, &ba.pose, &bb.pose, rel);
                warm(part);
            }
        }
        _ => {
            debug_assert!(groups.is_empty(), "only a pair with a mesh or a compound body has further manifolds");
            if persisted {
                match_impulses(&prev_points, &prev_impulses, c, 4.0 * base.slop);
            } else {
                fresh_impulses(c);
            }
        }
    }
    !c.manifold.points.is_empty()
}

/// New impulses (none accumulated) for every point of `c`'s manifold.
fn fresh_impulses(c: &mut Contact) {
    for (k, pt) in c.manifold.points.iter().enumerate() {
        c.impulses[k] = PointImpulse { id: pt.id, ..Default::default() };
    }
}

/// One of last step's manifolds of a pair, as warm starting reads it.
#[derive(Clone, Copy)]
struct Group<'a> {
    normal: Vec3,
    part: u16,
    points: &'a [ContactPoint],
    impulses: &'a [PointImpulse; 4],
    rolling: Vec3,
}

impl<'a> Group<'a> {
    fn of(c: &'a Contact) -> Group<'a> {
        Group {
            normal: c.manifold.normal,
            part: c.manifold.part,
            points: &c.manifold.points,
            impulses: &c.impulses,
            rolling: c.rolling_impulse,
        }
    }
}

/// A candidate pair as the narrow phase first reads it: the bodies and, for a pair last
/// found apart, the [`Apart`] record that may skip it. Kept in `World::keys`, in the
/// contacts' order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PairKey {
    pub(super) a: u32,
    pub(super) b: u32,
    /// The contact was carried over from an earlier step (false for a new pair).
    persisted: bool,
    /// Its manifold had points when the narrow phase last opened it (so a resting pair
    /// is not opened again, [`resting`]).
    touching: bool,
    /// The pair is watched: the narrow phase records what it does ([`PairRecord`]).
    pub(super) watched: bool,
    pub(super) apart: Apart,
}

impl PairKey {
    /// The key of a contact put in from outside (a recorded one): carried over, not apart.
    pub(super) fn recorded(c: &Contact) -> PairKey {
        PairKey { a: c.a, b: c.b, persisted: true, touching: !c.manifold.points.is_empty(), ..Default::default() }
    }
}

#[cfg(test)]
mod tests {
    use crate::physics::Settings;
    use std::collections::{HashMap, HashSet};

    /// Lining the contacts up with each step's pairs ([`super::World::match_pairs`]), on one
    /// thread and on three (every range split into single pairs), every step of a pile
    /// falling and settling: each pair's key and contact name the pair, no box is shared,
    /// and a pair that was a candidate last step keeps its own boxed contact (the same box),
    /// checked against a map of last step's pairs to their boxes.
    #[test]
    fn pairs_keep_their_own_contacts_at_any_thread_count() {
        for threads in [1, 3] {
            let mut w = crate::scene::stock::box_pile(120, Settings { sleeping: false, threads, ..Default::default() });
            w.set_fine_split(true);
            let (mut fresh, mut kept, mut ended) = (0, 0, 0);
            let address = |c: &super::Contact| c as *const super::Contact as usize;
            for step in 0..240 {
                let before: HashMap<(u32, u32), usize> =
                    w.keys.iter().zip(&w.contacts).map(|(k, c)| ((k.a, k.b), address(c))).collect();
                w.step(1.0 / 60.0);
                assert_eq!(w.keys.len(), w.pairs.len(), "step {step}");
                assert_eq!(w.contacts.len(), w.pairs.len(), "step {step}: a box pile has no mesh manifolds");
                let mut boxes = HashSet::new();
                for ((k, c), &p) in w.keys.iter().zip(&w.contacts).zip(&w.pairs) {
                    assert_eq!(((k.a, k.b), (c.a, c.b)), (p, p), "step {step}");
                    assert!(boxes.insert(address(c)), "step {step}: pair {p:?} shares a box");
                    match before.get(&p) {
                        Some(&old) => {
                            assert_eq!(address(c), old, "step {step}: pair {p:?} lost its contact");
                            kept += 1;
                        }
                        None => fresh += 1,
                    }
                }
                ended += before.keys().filter(|p| w.pairs.binary_search(p).is_err()).count();
            }
            assert!(fresh > 200 && kept > 10_000 && ended > 20, "{fresh} new, {kept} kept and {ended} ended pairs");
        }
    }
}
