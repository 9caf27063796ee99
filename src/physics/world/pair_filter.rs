//! The broad phase's pair filter: of the grid's kept pairs (on enlarged boxes, and spheres
//! where it keeps them), those whose boxes overlap now and whose bodies' paths come close
//! enough over the step to touch ([`Motion::paths_meet`]) become the step's candidate
//! pairs, in the kept pairs' order (sorted).
//!
//! On one thread the kept pairs are written straight into the pair list; on several each
//! thread writes the pairs of its share that pass into its own stretch of a scratch list,
//! and the stretches are copied into the pair list in order. With sleeping bodies keeping
//! their records (`world/movers.rs`), a pair of two bodies whose records were kept since
//! the last step (static, or asleep then and now) passes exactly if it was among the last
//! step's pairs, which are walked along beside the kept ones (both lists are sorted): a
//! sleeping pile's pairs are not tested.
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
            // no branch on the outcome to mispredict (a pile's pairs pass and fail at
            // random).
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
            // about the same for every pair). Each share writes its kept pairs, in order, at
            // the start of its own stretch of a scratch list, as the one-thread loop above
            // writes them (no branch on the outcome), and counts them; then each share's kept
            // pairs are copied to their place, in order, on the threads too. Fewer pairs than
            // two blocks: one share, on this thread. (With sleeping bodies keeping their
            // records, on one thread too: the walk along the last step's pairs is written
            // here only.)
            let n = kept.len();
            let shares = if n >= 2 * MIN_PAIRS || self.workers.is_fine() { self.workers.threads() } else { 1 };
            let share = |t: usize| t * n / shares..(t + 1) * n / shares;
            self.kept.resize(n, (0, 0));
            let (mut counts, mut tests) = ([0usize; MAX_THREADS], [0usize; MAX_THREADS]);
            {
                let (out, counts) = (Shared::new(&mut self.kept), Shared::new(&mut counts[..shares]));
                let tests = Shared::new(&mut tests[..shares]);
                self.workers.for_blocks(shares, 1, |_, r| {
                    for t in r {
                        // SAFETY: each share owns its stretch of the scratch list and its
                        // counts.
                        let (out, count, tested) =
                            unsafe { (out.range_mut(share(t)), counts.get_mut(t), tests.get_mut(t)) };
                        let pairs = &kept[share(t)];
                        // Each pair is written at slot `c` (never past its own), which moves
                        // on only if it is kept.
                        let mut c = 0;
                        if reuse {
                            // Both lists are sorted: the last step's pairs are walked along.
                            let mut j = pairs.first().map_or(0, |s| last.partition_point(|q| q < s));
                            for p in pairs {
                                let pass = if still[p.0 as usize] && still[p.1 as usize] {
                                    while j < last.len() && last[j] < *p {
                                        j += 1;
                                    }
                                    last.get(j) == Some(p)
                                } else {
                                    *tested += 1;
                                    meets(p)
                                };
                                out[c] = *p;
                                c += usize::from(pass);
                            }
                        } else {
                            *tested = pairs.len();
                            for p in pairs {
                                out[c] = *p;
                                c += usize::from(meets(p));
                            }
                        }
                        *count = c;
                    }
                });
            }
            self.profile.pairs_tested += tests[..shares].iter().sum::<usize>();
            let passed = &self.kept;
            // SAFETY: share t is given as many slots as it kept pairs, and writes them all.
            unsafe {
                self.workers.concat(&mut self.pairs, &counts[..shares], |t, slots| {
                    let from = &passed[share(t)][..slots.len()];
                    for (slot, p) in slots.iter_mut().zip(from) {
                        slot.write(*p);
                    }
                });
            }
        }
    }
}
