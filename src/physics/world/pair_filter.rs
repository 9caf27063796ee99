//! The broad phase's pair filter: of the grid's kept pairs (on enlarged boxes, and spheres
//! where it keeps them), those whose boxes overlap now and whose bodies' paths come close
//! enough over the step to touch ([`Motion::paths_meet`]) become the step's candidate
//! pairs, in the kept pairs' order (sorted).
//!
//! On one thread the kept pairs are written straight into the pair list; on several each
//! pair's tests set a flag, on the threads, and each thread's share of the kept pairs is
//! gathered in order. With sleeping bodies keeping their records (`world/movers.rs`), a
//! pair of two bodies whose records were kept since the last step (static, or asleep then
//! and now) passes exactly if it was among the last step's pairs, which are walked along
//! beside the kept ones (both lists are sorted): a sleeping pile's pairs are not tested.
//! Where no body's records were made again and the grid is unchanged (a world asleep),
//! the last step's pairs stand as they are, without a walk.
//! `Profile::pairs_tested` counts the pairs tested.
//!
//! Limits: a grid built afresh (a rebuild, an edit) tests every kept pair, since it may
//! hold pairs the last step's grid did not.

use super::collision::Motion;
use super::World;
use crate::physics::parallel::{Shared, MAX_THREADS};
use crate::physics::per_body;

/// Fewest kept pairs a worker thread tests at once (a few nanoseconds each).
const MIN_PAIRS: usize = 1024;

impl World {
    /// Fills `World::pairs` from the grid's kept pairs (module docs), the last step's pairs
    /// moving to `Movers::last_pairs`. `slack`: the contact margin plus how far gravity
    /// bends a path in one step; `quiet`: sleeping bodies keep their records this step;
    /// `reuse`: the last step's broad phase ran with the same inputs (`StaticInputs`,
    /// `quiet` among them), the grid's pairs were kept or updated in place (not built
    /// afresh) and only the visited bodies' records were made again, so with `quiet` a pair
    /// of two other bodies may pass as it did; `same_grid`: and no body moved in the grid,
    /// so its pairs are the last step's.
    pub(super) fn filter_pairs(&mut self, dt: f32, slack: f32, quiet: bool, reuse: bool, same_grid: bool) {
        let reuse = quiet && reuse;
        self.movers.pairs_kept = reuse && same_grid && self.movers.visited().is_empty();
        if self.movers.pairs_kept {
            // Every body's records were kept and the grid holds the same pairs: each pair
            // passes as it did, and the pairs are the last step's, as they are (a world
            // asleep).
            return;
        }
        let (boxes, motions, path_test, n) = (&self.boxes, &self.motions, self.settings.path_test, self.bodies.len());
        std::mem::swap(&mut self.pairs, &mut self.movers.last_pairs);
        self.pairs.clear();
        let meets = |&(a, b): &(u32, u32)| {
            let (a, b) = (a as usize, b as usize);
            crate::physics::broadphase::overlap(&boxes[a], &boxes[b])
                && (!path_test || Motion::paths_meet(&motions[a], &motions[b], dt, slack))
        };
        let kept = &self.broad.pairs;
        // With sleeping bodies keeping their records, a pair of two bodies whose records were
        // kept (static, or asleep since) passes as it did at the last step, without its
        // tests: it passes if it is among the last step's pairs (a sleeping pile's pairs).
        // Where the grid was updated in place, only the moved bodies' pairs changed, and a
        // moved body is not one of those; a grid built afresh may bring back pairs the last
        // step's grid did not have, so all are tested then.
        if reuse {
            let mut still = std::mem::take(&mut self.movers.still);
            still.clear();
            per_body::fit(&mut still, n, true);
            for &i in self.movers.visited() {
                still[i as usize] = false;
            }
            self.movers.still = still;
        }
        let (still, last) = (&self.movers.still, &self.movers.last_pairs);
        if self.workers.threads() == 1 && !quiet {
            // Each pair is written at the next free slot, which moves on only if it is kept:
            // no branch on the outcome to mispredict (as `gather_flagged` below).
            self.pairs.reserve(kept.len());
            let slots = &mut self.pairs.spare_capacity_mut()[..kept.len()];
            let mut count = 0;
            for p in kept {
                slots[count].write(*p);
                count += usize::from(meets(p));
            }
            // SAFETY: the first `count` slots hold the kept pairs, in order.
            unsafe { self.pairs.set_len(count) };
            self.profile.pairs_tested += kept.len();
        } else {
            // Each pair's tests (two bodies' boxes and motions, read from anywhere in
            // memory) on the threads: one even share of the pairs per thread (the tests cost
            // about the same for every pair), a flag per pair and a count of the kept ones
            // per share; then each share's kept pairs are copied to their place, in order,
            // on the threads too. Fewer pairs than two blocks: one share, on this thread.
            // (With sleeping bodies keeping their records, on one thread too: the walk
            // along the last step's pairs is written here only.)
            let n = kept.len();
            let shares = if n >= 2 * MIN_PAIRS || self.workers.is_fine() { self.workers.threads() } else { 1 };
            let share = |t: usize| t * n / shares..(t + 1) * n / shares;
            self.kept.resize(n, false);
            let (mut counts, mut tests) = ([0usize; MAX_THREADS], [0usize; MAX_THREADS]);
            {
                let (flags, counts) = (Shared::new(&mut self.kept), Shared::new(&mut counts[..shares]));
                let tests = Shared::new(&mut tests[..shares]);
                self.workers.for_blocks(shares, 1, |_, r| {
                    for t in r {
                        // SAFETY: each share owns its pairs' flags and its counts.
                        let (flags, count, tested) =
                            unsafe { (flags.range_mut(share(t)), counts.get_mut(t), tests.get_mut(t)) };
                        let pairs = flags.iter_mut().zip(&kept[share(t)]);
                        if reuse {
                            // Both lists are sorted: the last step's pairs are walked along.
                            let mut j = kept.get(share(t).start).map_or(0, |s| last.partition_point(|q| q < s));
                            for (f, p) in pairs {
                                if still[p.0 as usize] && still[p.1 as usize] {
                                    while j < last.len() && last[j] < *p {
                                        j += 1;
                                    }
                                    *f = last.get(j) == Some(p);
                                } else {
                                    *f = meets(p);
                                    *tested += 1;
                                }
                                *count += usize::from(*f);
                            }
                        } else {
                            *tested = pairs.len();
                            for (f, p) in pairs {
                                *f = meets(p);
                                *count += usize::from(*f);
                            }
                        }
                    }
                });
            }
            self.profile.pairs_tested += tests[..shares].iter().sum::<usize>();
            let flags = &self.kept;
            // SAFETY: share t is given as many slots as it counted kept pairs, and
            // `gather_flagged` writes one per kept pair.
            unsafe {
                self.workers.concat(&mut self.pairs, &counts[..shares], |t, slots| {
                    gather_flagged(&kept[share(t)], &flags[share(t)], slots);
                });
            }
        }
    }
}

/// Writes the pairs of `pairs` whose flag is set into `out`, in order; `out` holds exactly as
/// many slots as there are flags set. Each pair is written at the next free slot, which
/// moves on by its flag: a streaming loop without a branch on the flags to mispredict (a
/// pile's flags mix kept and dropped pairs at random); a dropped pair's write is
/// overwritten by the next pair's, and once the slots are full nothing more is written.
fn gather_flagged(pairs: &[(u32, u32)], flags: &[bool], out: &mut [std::mem::MaybeUninit<(u32, u32)>]) {
    let mut n = 0;
    for (p, &f) in pairs.iter().zip(flags) {
        if let Some(slot) = out.get_mut(n) {
            slot.write(*p);
        }
        n += usize::from(f);
    }
    debug_assert_eq!(n, out.len(), "as many slots as kept pairs");
}
