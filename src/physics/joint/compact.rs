//! The step's joints in one compact array: the fast path of the joint passes
//! (`Settings::simd`, with the contacts' SIMD batches).
//!
//! A [`Joint`] carries everything about itself — name, kind, the geometry of every kind in
//! its bodies' frames, the impulses of every row kind, its step start — about 560 bytes, of
//! which a ball joint's pass reads about 80 spread over five cache lines. A net of 20,000
//! ball joints is then 11 MB streamed through the cache twelve times a step (warm start,
//! solve, relax and the impulse sums, four substeps), and the joint passes wait on memory.
//! Here `prepare` copies what a ball joint's pass reads — its lever arms and centre
//! separation at the step's start, its point impulse, its two body indices — into one
//! 80-byte [`Hot`] record per joint. It writes each joint's record per slot as it prepares
//! the joint ([`Compact::by_slot`], while the joint is in cache), and once the order is
//! known the records are copied into the order the joints are solved; the passes run on
//! these (with the per-step impulse sums, 96 bytes a joint: 1.9 MB for the same net) and the
//! impulses go back to the joints once, after the step — after each cut of it in the
//! earliest-collision mode — in the pass that measures their errors
//! ([`Compact::write_back`]).
//!
//! The arithmetic is the ball joint's own, term for term ([`super::ball`],
//! [`super::row::solve_point`], the ball branches of [`Joint::warm_start`] and
//! [`Joint::reaction`]), in the same joint order, so the results are bit-identical to the
//! per-joint path (tested in `tests/joints.rs`). Other kinds keep their place in the order
//! and are solved from their [`Joint`] as before.
//!
//! **Threads.** When the step's joints are coloured ([`super::colours`]), the passes run
//! colour by colour and share each colour's records out between the world's worker threads
//! ([`Compact::warm_start_coloured`], [`Compact::solve_coloured`]): the records of one
//! colour share no moving body, so each computes what it computes on one thread. The
//! records are copied into the solving order ([`Compact::fill`], after the colouring) and
//! the substeps' impulses summed ([`Compact::accumulate`]) in blocks on the
//! threads too: each record is its own.
//!
//! **Lanes.** In the coloured solve and relax passes, a block's ball joints go four at a
//! time through [`super::wide`], which runs this arithmetic on SIMD lanes with the same
//! numbers. The warm start stays one joint at a time: loading the lanes is most of what it
//! would do with them.
//!
//! Limits: only the ball joint has a compact record (the commonest joint, and the one nets,
//! ragdolls and chains are made of); the other kinds, and joints solved in one sequence
//! (fewer than [`super::colours::COLOUR_FROM`]), have no lanes.

use super::colours::JointColours;
use super::row::{apply_point, solve_point, Feedback, Frame};
use super::wide;
use super::{moved_arms, Joint, JointKind, Pass, STATIC, WORLD};
use crate::physics::parallel::{Shared, Workers};
use crate::physics::solver::colouring::COLOURS;
use crate::physics::solver::lanes::LANES;
use crate::physics::solver::SolverBody;
use glam::Vec3A;

/// Fewest joint records a worker thread takes at once: smaller colours run on the calling
/// thread.
const MIN_JOINTS: usize = 64;

/// Fewest records a worker thread copies or sums at once (a few nanoseconds each): fewer
/// are done on the calling thread.
const MIN_COPIES: usize = 1024;

/// What a pass reads of one joint: for a ball joint its step-start geometry and point
/// impulse; for the other kinds only the joint's index.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hot {
    /// A's lever arm at the step's start (world axes).
    pub ra: Vec3A,
    /// B's lever arm at the step's start.
    pub rb: Vec3A,
    /// B's centre of mass minus A's at the step's start.
    pub dc: Vec3A,
    /// The accumulated point impulse (N·s, world), the joint's `impulses.point`.
    pub p: Vec3A,
    /// Body A (or [`super::WORLD`]).
    pub a: u32,
    /// Body B.
    pub b: u32,
    /// The joint's slot.
    pub joint: u32,
    /// A ball joint (solved from this record); otherwise from the joint.
    pub ball: bool,
}

// Five 16-byte lanes: four vectors and the indices.
const _: () = assert!(std::mem::size_of::<Hot>() == 80);

impl Hot {
    /// The record of joint `k` (`j`), just prepared for this step.
    #[inline]
    pub fn of(k: u32, j: &Joint) -> Hot {
        match j.kind {
            JointKind::Ball => Hot {
                ra: j.start.ra,
                rb: j.start.rb,
                dc: j.start.dc,
                p: j.impulses.point,
                a: j.a,
                b: j.b,
                joint: k,
                ball: true,
            },
            _ => Hot { a: j.a, b: j.b, joint: k, ..Hot::default() },
        }
    }
}

/// The compact records of the joints solved this step, and the ball joints' impulse sums
/// over the substeps (the per-step linear impulse on B).
///
/// Scratch of one step: `prepare` fills it, the passes use it, the impulses are back in the
/// joints when the step ends. So a copy (a history snapshot, taken between steps) starts
/// empty and costs nothing.
#[derive(Debug, Default)]
pub(crate) struct Compact {
    /// One record per joint solved, in solving order.
    pub hot: Vec<Hot>,
    /// Per record: Σ of the point impulse over the substeps (ball joints).
    pub sums: Vec<Vec3A>,
    /// Per joint slot: the record `prepare` wrote (only the solved joints' are current).
    by_slot: Vec<Hot>,
}

impl Clone for Compact {
    fn clone(&self) -> Self {
        Compact::default()
    }
}

impl Compact {
    /// Empties the records for a new step (buffers are reused).
    pub fn clear(&mut self) {
        self.hot.clear();
        self.sums.clear();
    }

    /// Room for one record per joint slot, for `prepare` to write each joint's record as
    /// it prepares it (while the joint is in cache; [`Compact::fill`] then reads these
    /// 80-byte records instead of the joints). The buffer keeps its room between steps.
    pub fn by_slot(&mut self, slots: usize) -> &mut [Hot] {
        self.by_slot.resize(slots, Hot::default());
        &mut self.by_slot
    }

    /// The records of the joints `order` (slots, in solving order), copied from those
    /// `prepare` wrote per slot ([`Compact::by_slot`]), with their impulse sums at zero:
    /// written in blocks on the threads (the buffers keep their room, so a settled step
    /// writes no defaults first).
    pub fn fill(&mut self, order: &[u32], workers: &Workers) {
        let n = order.len();
        self.hot.resize(n, Hot::default());
        self.sums.resize(n, Vec3A::ZERO);
        let (hot, sums, by_slot) = (Shared::new(&mut self.hot), Shared::new(&mut self.sums), &self.by_slot);
        workers.for_blocks(n, MIN_COPIES, |_, r| {
            // SAFETY: each block owns its records.
            let (hot, sums) = unsafe { (hot.range_mut(r.clone()), sums.range_mut(r.clone())) };
            for ((h, sum), &k) in hot.iter_mut().zip(sums).zip(&order[r]) {
                *h = by_slot[k as usize];
                *sum = Vec3A::ZERO;
            }
        });
    }

    /// Re-applies the accumulated impulses ([`Joint::warm_start`]).
    pub fn warm_start(&self, joints: &[Joint], bodies: &mut [SolverBody]) {
        for h in &self.hot {
            if !h.ball {
                joints[h.joint as usize].warm_start_in(bodies);
                continue;
            }
            super::with_bodies(bodies, h.a, h.b, |a, b| {
                let (ra, rb, _) = moved_arms(h.ra, h.rb, h.dc, a, b);
                apply_point(ra, rb, h.p, a, b);
            });
        }
    }

    /// One pass over the joints ([`Joint::solve`]).
    pub fn solve(&mut self, joints: &mut [Joint], bodies: &mut [SolverBody], pass: &Pass) {
        for h in &mut self.hot {
            if !h.ball {
                joints[h.joint as usize].solve_in(bodies, pass);
                continue;
            }
            let Hot { ra, rb, dc, ref mut p, a, b, .. } = *h;
            super::with_bodies(bodies, a, b, |a, b| {
                // The ball joint reads only the lever arms and the gap of its frame.
                let (ra, rb, d) = moved_arms(ra, rb, dc, a, b);
                let f = Frame { ra, rb, d, ..Frame::default() };
                solve_point(&f, d, Feedback::rigid(&pass.soft, pass.use_bias), p, a, b);
            });
        }
    }

    /// [`Compact::warm_start`] colour by colour, each colour's records shared out between
    /// the threads (the joints are coloured, [`JointColours::coloured`]).
    pub fn warm_start_coloured(
        &mut self,
        colours: &JointColours,
        joints: &mut [Joint],
        bodies: &mut [SolverBody],
        workers: &Workers,
    ) {
        let one: &RecordPass = &|h, joints, bodies| {
            if h.ball {
                with_shared(bodies, h.a, h.b, |a, b| {
                    let (ra, rb, _) = moved_arms(h.ra, h.rb, h.dc, a, b);
                    apply_point(ra, rb, h.p, a, b);
                });
            } else {
                // SAFETY: every joint has one record (module `colours`: one round's records).
                let j = unsafe { joints.get_mut(h.joint as usize) };
                with_shared(bodies, j.a, j.b, |a, b| j.warm_start(a, b));
            }
        };
        // One at a time: four in lanes cost more than they save here, as loading a joint's
        // lanes is most of what its warm start does.
        each_coloured(&mut self.hot, colours, joints, bodies, workers, one, None);
    }

    /// [`Compact::solve`] colour by colour, each colour's records shared out between the
    /// threads (the joints are coloured, [`JointColours::coloured`]); ball joints four at a
    /// time ([`super::wide`]).
    pub fn solve_coloured(
        &mut self,
        colours: &JointColours,
        joints: &mut [Joint],
        bodies: &mut [SolverBody],
        pass: &Pass,
        workers: &Workers,
    ) {
        let fb = Feedback::rigid(&pass.soft, pass.use_bias);
        let one: &RecordPass = &|h, joints, bodies| {
            if !h.ball {
                // SAFETY: every joint has one record.
                let j = unsafe { joints.get_mut(h.joint as usize) };
                let (a, b) = (j.a, j.b);
                with_shared(bodies, a, b, |a, b| j.solve(a, b, pass));
                return;
            }
            let Hot { ra, rb, dc, ref mut p, a, b, .. } = *h;
            with_shared(bodies, a, b, |a, b| {
                let (ra, rb, d) = moved_arms(ra, rb, dc, a, b);
                let f = Frame { ra, rb, d, ..Frame::default() };
                solve_point(&f, d, fb, p, a, b);
            });
        };
        let four: &BallPass = &|hot, at, bodies| wide::solve(hot, at, bodies, fb);
        each_coloured(&mut self.hot, colours, joints, bodies, workers, one, Some(four));
    }

    /// Adds the substep's impulses to the per-step sums (the ball joint's reaction is its
    /// point impulse, [`Joint::reaction`]); other kinds sum into their joint.
    pub fn accumulate(&mut self, joints: &mut [Joint], bodies: &[SolverBody], workers: &Workers) {
        let (hot, sums, joints) = (&self.hot, Shared::new(&mut self.sums), Shared::new(joints));
        workers.for_blocks(hot.len(), MIN_COPIES, |_, r| {
            // SAFETY: each block owns its records' sums, and their joints (a joint has one
            // record).
            let sums = unsafe { sums.range_mut(r.clone()) };
            for (h, sum) in hot[r].iter().zip(sums) {
                if h.ball {
                    *sum += h.p;
                } else {
                    unsafe { joints.get_mut(h.joint as usize) }.accumulate_in(bodies);
                }
            }
        });
    }

    /// Record `idx`'s impulse and per-step sum back to its joint `j` (after the step, in
    /// the pass that measures the joints' errors); whether it is a ball joint's record.
    #[inline]
    pub fn write_back(&self, idx: usize, j: &mut Joint) -> bool {
        let h = &self.hot[idx];
        if h.ball {
            j.impulses.point = h.p;
            j.linear_impulse += glam::Vec3::from(self.sums[idx]);
        }
        h.ball
    }
}

/// What a coloured pass does to one record, given the joints and bodies one round shares.
type RecordPass<'a> = dyn Fn(&mut Hot, &Shared<Joint>, &Shared<SolverBody>) + Sync + 'a;

/// What a coloured pass does to four ball joints of one round: records `at` of a block.
type BallPass<'a> = dyn Fn(&mut [Hot], [usize; LANES], &Shared<SolverBody>) + Sync + 'a;

/// Runs the pass on every record, colour after colour; each colour's records are shared
/// out between the threads, the records without a colour run last on the calling thread,
/// in order, through `one`. Within a colour's block the ball joints go four at a time
/// through `four` (when given) and the rest (other kinds, the last one to three balls)
/// through `one`: the records of a colour share no moving body, so the order within it
/// changes nothing.
fn each_coloured(
    hot: &mut [Hot],
    colours: &JointColours,
    joints: &mut [Joint],
    bodies: &mut [SolverBody],
    workers: &Workers,
    one: &RecordPass,
    four: Option<&BallPass>,
) {
    let (hot, joints, bodies) = (Shared::new(hot), Shared::new(joints), Shared::new(bodies));
    for (colour, r) in colours.ranges().enumerate() {
        if colour == COLOURS {
            // SAFETY: this runs alone, on the calling thread.
            for h in unsafe { hot.range_mut(r) } {
                one(h, &joints, &bodies);
            }
            continue;
        }
        workers.for_blocks(r.len(), MIN_JOINTS, |_, b| {
            // SAFETY: each block owns its records; a colour's records share no moving body.
            let block = unsafe { hot.range_mut(r.start + b.start..r.start + b.end) };
            let Some(four) = four else {
                return block.iter_mut().for_each(|h| one(h, &joints, &bodies));
            };
            let (mut at, mut n) = ([0; LANES], 0);
            for i in 0..block.len() {
                if !block[i].ball {
                    one(&mut block[i], &joints, &bodies);
                    continue;
                }
                at[n] = i;
                n += 1;
                if n == LANES {
                    four(block, at, &bodies);
                    n = 0;
                }
            }
            for &i in &at[..n] {
                one(&mut block[i], &joints, &bodies);
            }
        });
    }
}

/// Runs `f` on a joint's two solver bodies as [`super::with_bodies`] does (in place when
/// both move; copies of the world, static and sleeping ones, whose velocities are not
/// written back), reaching them through one round's shared view: within a colour no other
/// record touches a moving body of this one.
#[inline]
fn with_shared(bodies: &Shared<SolverBody>, a: u32, b: u32, f: impl FnOnce(&mut SolverBody, &mut SolverBody)) {
    // SAFETY: a moving body of this record is this record's alone; a body that does not
    // move is never written.
    let moving = |i: u32| i != WORLD && (i as usize) < bodies.len() && unsafe { bodies.get(i as usize) }.inv_mass > 0.0;
    if a != b && moving(a) && moving(b) {
        // SAFETY: two distinct moving bodies, which no other record of the round touches.
        let (x, y) = unsafe { (bodies.get_mut(a as usize), bodies.get_mut(b as usize)) };
        return f(x, y);
    }
    // SAFETY: as above; a body that does not move is only read.
    let load = |i: u32| if i == WORLD { STATIC } else { unsafe { *bodies.get(i as usize) } };
    let (mut x, mut y) = (load(a), load(b));
    f(&mut x, &mut y);
    for (i, s) in [(a, &x), (b, &y)] {
        if i != WORLD && s.inv_mass > 0.0 {
            let t = unsafe { bodies.get_mut(i as usize) };
            t.v = s.v;
            t.w = s.w;
        }
    }
}
