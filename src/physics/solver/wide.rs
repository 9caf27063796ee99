//! The iterative solver four manifolds at a time: graph colouring plus SIMD lanes (the
//! layout of Box2D v3's "wide" contact solver and Rapier's SIMD solver, on SSE-sized
//! `glam::Vec4` lanes).
//!
//! Scalar sequential impulses spend most of their time on horizontal work: every dot
//! product of a 3-vector is a multiply and two shuffles, and each row waits for the last
//! one. Here four manifolds that share no *dynamic* body sit in the four lanes of one
//! batch; their k-th points are solved together, so a dot product is three
//! multiplies and two adds for four points at once.
//!
//! **Colouring.** Lanes of one batch must not share a dynamic body (each lane writes its
//! bodies back). The manifolds are coloured ([`super::colouring`], Box2D v3's constraint
//! graph) and each colour is cut into batches of four. Static bodies may be shared: they
//! are never written. Manifolds that find no colour (a body touching more than about
//! [`COLOURS`] others), and those with rolling resistance, whose rows the lanes do not have
//! ([`ContactConstraint::rolling`]), are solved by the scalar solver
//! ([`super::iterative::ScalarSolver`]) after the batches. Every other step the colours
//! that moving pairs may take are visited last to first (the world's colours and the
//! overflow still last), as the scalar path visits them ([`Pass::backward`]), so that no
//! support is always solved first.
//!
//! **Same maths as [`super::iterative`].** Per point the same soft normal row, clamped
//! friction disc and alternating point order; a lane whose manifold has fewer points holds
//! zero masses in the missing slots, so they apply nothing (and visiting slots 3, 2, 1, 0 is
//! the exact reverse order for every lane). Only the order in which manifolds are visited
//! differs (colour order instead of pair order), which Gauss–Seidel allows, and some sums
//! are grouped otherwise, so the two paths agree to rounding: the friction rows read the
//! spin's part of the point's velocity once for both tangents, and the separation update
//! turns the normal once per batch (docs/physics.md, §5).
//!
//! The scalar constraints stay the record: the impulses are copied back into them before
//! restitution and storing. The effective masses are computed at build time in lanes
//! (four manifolds per row product; `wide_fill.rs` fills the lanes); the scalar ones only
//! where scalar code reads them (the overflow, and the manifolds the restitution pass
//! bounces, which it computes when it lists them). The
//! per-batch stages (warm start, pass, separation update, totals) are in `wide_passes.rs`.
//!
//! **Body access.** The passes gather and scatter each batch's eight bodies by index
//! without a bounds check per read: the build read every index through the bodies slice,
//! and each round checks the bodies it is given are at least the build's count.
//!
//! **Hot and cold.** What every pass reads of a batch (bodies, directions, materials and
//! per point the arms, masses, separations and impulses) is a `WideBatch`; what only the
//! last relax pass of a substep (the step totals), the separation update of rounded shapes
//! and the store read is its `BatchCold`, in a list of its own beside the batches: on a
//! 64-bit target a batch the passes stream is 1,456 bytes instead of 1,920.
//!
//! **Isotropic batches.** A batch whose eight inverse inertias are all multiples of the
//! identity (cubes, spheres, static bodies: a pyramid or a box pile is nothing else) takes a
//! short form of every inverse-inertia product, `k·v` instead of a symmetric 3×3 product —
//! the same numbers (the dropped terms are exact zeros), for a fifth of the arithmetic.
//!
//! **Idle slots.** A speculative point still apart holds no impulse, and in a resting hull
//! pile about half the points are such. The colouring puts manifolds whose idle points lie
//! in the same places side by side ([`ContactConstraint::idle`]), so a slot is often idle
//! in all four lanes; its friction rows and its warm start are then skipped (a friction
//! disc of radius 0 with nothing to take back), and a normal row whose impulse changed in
//! no lane skips its inverse-inertia products. Both add ±0 to no velocity: the same
//! numbers, for finite friction and velocities (a friction coefficient of ∞, which scene
//! files refuse, or an impulse change whose square underflows, about 10⁻²³ N·s, would
//! differ).
//!
//! **Threads.** Each colour's batches are shared out between the world's worker threads
//! ([`crate::physics::parallel`]), colours one after another; batches of one colour share
//! no dynamic body, so the passes give the same numbers at any thread count. The overflow
//! runs on the calling thread after the batches.
//!
//! Limits: four lanes (SSE).

use super::colouring::Colouring;
use super::iterative::{self, PassCounter, ScalarSolver};
use super::lanes::{gather_v3, Bodies, Sym3, V3};
use super::{
    store_constraint, store_impulse, zeroed_in, ContactConstraint, PointImpulses, Resolver, Schedule, Settings,
    SolverBody, StepInfo,
};
use crate::physics::collide::FeatureId;
use crate::physics::contact::Contact;
use crate::physics::math::{prefetch, prefetch_all};
use crate::physics::parallel::{Shared, Workers};
use glam::Vec4;

/// Fewest batches a worker thread takes at once (about 3 µs of a pass): smaller colours run
/// on the calling thread.
const MIN_BATCHES: usize = 16;

/// Fewest constraints a worker thread stores at once (after a restitution pass).
const MIN_STORES: usize = 64;

pub use super::iterative::Pass;

pub use super::colouring::COLOURS;
pub use super::lanes::LANES;

/// One constraint row for four lanes (see [`super::Row`]), computed when it is used from
/// the lever arms and the inverse inertias: storing it would double the memory every pass
/// streams through, and on large scenes the passes wait on memory, not on arithmetic.
struct WideRow {
    ca: V3,
    cb: V3,
    ia: V3,
    ib: V3,
}

impl WideRow {
    /// The row along `d` for lever arms `ra`, `rb` (`ISO`: see [`inertia_mul`]).
    #[inline(always)]
    fn new<const ISO: bool>(w: &BatchBodies, ra: &V3, rb: &V3, d: &V3) -> WideRow {
        let (ca, cb) = (ra.cross(d), rb.cross(d));
        WideRow { ia: inertia_mul::<ISO>(&w.inv_i_a, &ca), ib: inertia_mul::<ISO>(&w.inv_i_b, &cb), ca, cb }
    }
}

/// `m·v`; with `ISO`, for a batch whose inverse inertias are all multiples of the identity
/// ([`BatchBodies::isotropic`]: cubes, spheres, static bodies), just `m.xx·v` — the same
/// numbers (the other products are exact zeros) for a fifth of the arithmetic.
#[inline(always)]
fn inertia_mul<const ISO: bool>(m: &Sym3, v: &V3) -> V3 {
    if ISO {
        v.scale(m.xx)
    } else {
        m.mul(v)
    }
}

/// The two bodies of each lane: indices, inverse masses and inverse inertias (fixed for the
/// step, so the passes read them here instead of from eight bodies each time).
#[derive(Clone, Copy, Debug, Default)]
struct BatchBodies {
    a: [u32; LANES],
    b: [u32; LANES],
    inv_mass_a: Vec4,
    inv_mass_b: Vec4,
    inv_i_a: Sym3,
    inv_i_b: Sym3,
    /// All eight inverse inertias are multiples of the identity: the passes then take
    /// [`inertia_mul`]'s short form (a box pile or pyramid of cubes is all such batches).
    isotropic: bool,
}

/// The velocities of the four lanes' bodies A and B, and their inverse masses.
struct Velocities {
    va: V3,
    wa: V3,
    vb: V3,
    wb: V3,
    ima: Vec4,
    imb: Vec4,
}

impl Velocities {
    #[inline(always)]
    fn gather<B: Bodies + ?Sized>(bodies: &B, bb: &BatchBodies) -> Velocities {
        let (a, b) = (&bb.a, &bb.b);
        Velocities {
            va: gather_v3(bodies, a, |s| s.v),
            wa: gather_v3(bodies, a, |s| s.w),
            vb: gather_v3(bodies, b, |s| s.v),
            wb: gather_v3(bodies, b, |s| s.w),
            ima: bb.inv_mass_a,
            imb: bb.inv_mass_b,
        }
    }

    /// Writes back the dynamic bodies (static and padding bodies are never written).
    #[inline(always)]
    fn scatter(&self, bodies: &Shared<SolverBody>, bb: &BatchBodies) {
        let (a, b) = (&bb.a, &bb.b);
        let (va, wa, vb, wb) = (self.va.to_lanes(), self.wa.to_lanes(), self.vb.to_lanes(), self.wb.to_lanes());
        // SAFETY: `a` and `b` are a batch's body indices, below the view's length (see
        // `Bodies`); the batches of one round share no dynamic body, and only dynamic
        // bodies are written.
        for l in 0..LANES {
            if self.ima[l] > 0.0 {
                let t = unsafe { bodies.get_unchecked_mut(a[l] as usize) };
                t.v = va[l];
                t.w = wa[l];
            }
            if self.imb[l] > 0.0 {
                let t = unsafe { bodies.get_unchecked_mut(b[l] as usize) };
                t.v = vb[l];
                t.w = wb[l];
            }
        }
    }
}

/// Point slot k of four manifolds.
#[derive(Clone, Copy, Debug, Default)]
struct WidePoint {
    /// Lever arms (world axes at the step's start) and adjusted separation
    /// ([`super::ConstraintPoint::adjusted_separation`]).
    ra: V3,
    rb: V3,
    adjusted: Vec4,
    normal_mass: Vec4,
    tangent_mass: [Vec4; 2],
    separation: Vec4,
    normal_impulse: Vec4,
    tangent_impulse: [Vec4; 2],
    max_normal: Vec4,
}

/// Four manifolds that share no dynamic body: what every pass reads (the rest of the batch,
/// read by one pass in three or fewer, is its [`BatchCold`]).
#[derive(Clone, Copy, Debug, Default)]
struct WideBatch {
    bodies: BatchBodies,
    normal: V3,
    t1: V3,
    t2: V3,
    friction: Vec4,
    bias_rate: Vec4,
    mass_scale: Vec4,
    impulse_scale: Vec4,
    points: [WidePoint; 4],
    /// Some point was apart or held no impulse when the batch was built: its friction rows
    /// may find a slot with nothing to do in every lane, worth testing for.
    idle_slots: bool,
    /// Some lane's shapes are rounded: the separation update reads [`BatchCold::rounding`].
    rounded: bool,
    /// Point slots in use: the most points of any lane's manifold (the passes skip the rest).
    slots: usize,
}

/// The part of a batch that most passes do not read, kept in a list of its own beside the
/// batches so that those passes stream less memory (on a large pile they wait on memory,
/// not on arithmetic): the rounding the separation update of rounded shapes needs, the
/// step totals and what storing the impulses needs.
#[derive(Clone, Copy, Debug, Default)]
struct BatchCold {
    /// Each lane's [`ContactConstraint::rounding`] of A and of B (read where
    /// [`WideBatch::rounded`]: a batch of hulls and boxes skips the rounding's term); per
    /// point slot, what a touching point takes off them
    /// ([`super::ConstraintPoint::rounded_reach`]).
    rounding: [Vec4; 2],
    inside: [Vec4; 4],
    /// Per point slot, the impulses summed over the step's substeps.
    total_normal: [Vec4; 4],
    total_tangent: [[Vec4; 2]; 4],
    /// Index of each lane's scalar constraint (`u32::MAX`: empty lane).
    source: [u32; LANES],
    /// What storing the impulses needs of each lane's constraint, so the store reads no
    /// constraint: its contact, point count and the points' feature ids.
    contact: [u32; LANES],
    count: [u32; LANES],
    ids: [[FeatureId; LANES]; 4],
}

impl WideBatch {
    /// Writes a default batch into `slot` and returns it: in place, as zero bytes (the
    /// default of every field is zero; tested).
    #[inline]
    fn default_in(slot: &mut std::mem::MaybeUninit<WideBatch>) -> &mut WideBatch {
        // SAFETY: every field is a float, an integer, a bool or an array or struct of them,
        // for which zero bytes are a valid value (and the default).
        unsafe { zeroed_in(slot) }
    }
}

impl BatchCold {
    /// As [`WideBatch::default_in`] (tested likewise).
    #[inline]
    fn default_in(slot: &mut std::mem::MaybeUninit<BatchCold>) -> &mut BatchCold {
        // SAFETY: every field is a float, an integer, a feature id or an array of them,
        // for which zero bytes are a valid value (and the default).
        unsafe { zeroed_in(slot) }
    }
}

/// Batches, the colouring and the scalar overflow; all reused between steps.
#[derive(Clone, Debug, Default)]
pub struct WideSolver {
    colouring: Colouring,
    batches: Vec<WideBatch>,
    /// The rest of each batch (`cold[i]` belongs to `batches[i]`).
    cold: Vec<BatchCold>,
    /// Where each colour's batches start in `batches` (and where they end, last).
    colour_starts: [u32; COLOURS + 1],
    /// The threads the passes share each colour's batches between ([`Self::set_workers`]).
    workers: Workers,
    /// Manifolds left without a colour, solved by the scalar code after the batches.
    overflow: ScalarSolver,
    counter: PassCounter,
    /// The impulses were copied back for the restitution pass (they are stored from there).
    restituted: bool,
    /// Scratch of [`iterative::apply_restitution`].
    restitution: iterative::RestitutionScratch,
    /// The body count of the last build: every body index in `batches` is below it
    /// (`fill_batch` reads each through the bodies slice, bounds-checked).
    body_count: usize,
}

impl WideSolver {
    /// Colours `constraints` and packs each colour into batches of four; the uncoloured go
    /// to the scalar overflow. The last of `bodies` is a static body (inverse mass and
    /// inverse inertia zero) that fills empty lanes.
    pub fn build(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody]) {
        let pad = bodies.len() as u32 - 1;
        debug_assert_eq!(bodies[pad as usize].inv_mass, 0.0);
        debug_assert_eq!(bodies[pad as usize].inv_i, glam::Mat3A::ZERO);
        self.colouring.colour(constraints, bodies, &self.workers);
        // Each colour's constraints cut into batches of four: where each colour's batches
        // and constraints start.
        let (mut batches, mut first) = (0u32, [0u32; COLOURS + 1]);
        for (colour, group) in self.colouring.groups().enumerate() {
            self.colour_starts[colour] = batches;
            first[colour + 1] = first[colour] + group.len() as u32;
            batches += group.len().div_ceil(LANES) as u32;
        }
        self.colour_starts[COLOURS] = batches;
        // Filled in place (a batch and its cold part are 1,456 and 464 bytes on x86-64, too
        // big to build on the stack and move), each from its own four constraints: shared out between the threads, each batch
        // written once, in the lists' room (no default fill on the calling thread when they
        // grow).
        let n = batches as usize;
        self.batches.clear();
        self.batches.reserve(n);
        self.cold.clear();
        self.cold.reserve(n);
        let (order, starts) = (self.colouring.order(), self.colour_starts);
        let out = Shared::new(&mut self.batches.spare_capacity_mut()[..n]);
        let out_cold = Shared::new(&mut self.cold.spare_capacity_mut()[..n]);
        let chunk_of = |bi: usize| {
            let colour = starts.partition_point(|&s| s as usize <= bi) - 1;
            let at = first[colour] as usize + (bi - starts[colour] as usize) * LANES;
            &order[at..(at + LANES).min(first[colour + 1] as usize)]
        };
        // Colour by colour, in the passes' blocks ([`colour_blocks`]): a batch is filled by
        // the thread that then solves it, not moved to another core's cache at the step's
        // first pass.
        let fill_blocks = |r: std::ops::Range<usize>| {
            let end = r.end;
            // What the lanes past a colour's last manifold hold: no points, and the static
            // body that fills empty lanes on both sides.
            let empty = ContactConstraint { a: pad, b: pad, ..Default::default() };
            let mut next = chunk_of(r.start);
            for bi in r {
                let chunk = next;
                // The next batch's constraints lie scattered (a colour takes every few):
                // ask for them now, so they have arrived when the batch is filled.
                if bi + 1 < end {
                    next = chunk_of(bi + 1);
                    next.iter().for_each(|&ci| prefetch_all(&constraints[ci as usize]));
                }
                // SAFETY: each block owns its batches.
                let (w, cold) =
                    unsafe { (WideBatch::default_in(out.get_mut(bi)), BatchCold::default_in(out_cold.get_mut(bi))) };
                fill_batch(w, cold, chunk, constraints, bodies, &empty);
                w.bodies.isotropic = w.bodies.inv_i_a.is_scalar() && w.bodies.inv_i_b.is_scalar();
                lane_masses(w, &cold.count);
            }
        };
        colour_blocks(&self.workers, &starts, false, fill_blocks);
        // SAFETY: the rounds wrote every batch and its cold part, 0..batches.
        unsafe {
            self.batches.set_len(n);
            self.cold.set_len(n);
        }
        self.body_count = bodies.len();
        self.overflow.load(constraints, self.colouring.uncoloured(), bodies);
    }

    /// The threads each colour's batches are shared between in the passes (one: the calling
    /// thread alone). The results are the same for any count (`crate::physics::parallel`).
    pub fn set_workers(&mut self, workers: &Workers) {
        // A handle (a reference count), not the threads: no allocation.
        self.workers.clone_from(workers);
    }

    /// Runs `f(batch, its cold part, bodies)` on every batch, colour after colour, each
    /// colour's batches shared out between the worker threads: the parallel layer over the
    /// per-batch stage functions (`warm_start_batch`, `solve_batch`). Batches of one colour
    /// share no dynamic body, so each computes what it computes on one thread.
    fn each_batch_by_colour(
        &mut self,
        bodies: &mut [SolverBody],
        backward: bool,
        f: impl Fn(&mut WideBatch, &mut BatchCold, &Shared<SolverBody>) + Sync,
    ) {
        // The passes read the bodies by the batches' indices without a bounds check each
        // (`Bodies`): those are below the count of the build, which must not exceed these.
        assert!(
            bodies.len() >= self.body_count,
            "{} solver bodies for batches built over {}",
            bodies.len(),
            self.body_count
        );
        let bodies = Shared::new(bodies);
        let starts = self.colour_starts;
        let (batches, cold) = (Shared::new(&mut self.batches), Shared::new(&mut self.cold));
        colour_blocks(&self.workers, &starts, backward, |r| {
            // SAFETY: each block owns its batches.
            let (ws, cs) = unsafe { (batches.range_mut(r.clone()), cold.range_mut(r)) };
            for (w, c) in ws.iter_mut().zip(cs) {
                f(w, c, &bodies);
            }
        });
    }

    /// The colouring of the last build (manifolds per colour, for statistics and tests).
    pub fn colouring(&self) -> &Colouring {
        &self.colouring
    }

    /// Re-applies the accumulated impulses (start of every substep).
    pub fn warm_start(&mut self, bodies: &mut [SolverBody]) {
        self.each_batch_by_colour(bodies, false, |w, _, bodies| {
            if w.bodies.isotropic {
                warm_start_batch::<true>(w, bodies);
            } else {
                warm_start_batch::<false>(w, bodies);
            }
        });
        self.overflow.warm_start(bodies);
    }

    /// One pass (see [`iterative::solve`], whose maths this repeats lane by lane); `pass`
    /// says which. Work that would otherwise stream every batch through memory once more
    /// rides along while the batch is in cache: with `pass.update`, each batch first
    /// recomputes its separations ([`Self::update_separations`], batches only), and with
    /// `pass.accumulate` it adds its impulses to the step totals afterwards
    /// ([`Self::accumulate_totals`], overflow included).
    pub fn pass(&mut self, bodies: &mut [SolverBody], settings: &Settings, inv_h: f32, pass: Pass) {
        let k = PassConstants { pass, inv_h: Vec4::splat(inv_h), max_push: Vec4::splat(-settings.max_push_out) };
        self.each_batch_by_colour(bodies, pass.backward, |w, cold, bodies| {
            if w.bodies.isotropic {
                solve_batch::<true>(w, cold, bodies, &k);
            } else {
                solve_batch::<false>(w, cold, bodies, &k);
            }
        });
        // The uncoloured manifolds come last, in their own order, either way.
        self.overflow.pass(bodies, settings, inv_h, Pass { backward: false, ..pass });
    }

    /// Recomputes the current separation of every point from how far its bodies moved and
    /// turned since the step began, `s = n·(ΔpB − ΔpA + ΔqB·rB − ΔqA·rA) + s₀ − n·(rB − rA)`
    /// with the rounded parts of the arms kept along the normal
    /// ([`super::ConstraintPoint::separation_now`]), straight into the lanes (and into the
    /// overflow constraints). The bodies only move in
    /// position integration, so this runs once after each one, not in every pass.
    pub fn update_separations(&mut self, bodies: &[SolverBody]) {
        debug_assert_eq!(self.batches.len(), self.cold.len());
        for (w, cold) in self.batches.iter_mut().zip(&self.cold) {
            batch_separations(w, cold, bodies);
        }
        self.overflow.update_separations(bodies);
    }

    /// Adds this substep's impulses to the per-step totals.
    pub fn accumulate_totals(&mut self) {
        debug_assert_eq!(self.batches.len(), self.cold.len());
        for (w, cold) in self.batches.iter().zip(&mut self.cold) {
            batch_totals(w, cold);
        }
        iterative::accumulate_totals(&mut self.overflow.constraints);
    }

    /// Copies the impulses back into the scalar constraints (before restitution and
    /// storing them in the contacts), in blocks of batches on the threads: each lane writes
    /// its own constraint.
    pub fn store(&self, constraints: &mut [ContactConstraint]) {
        {
            let out = Shared::new(constraints);
            self.workers.for_blocks(self.batches.len(), MIN_BATCHES, |_, r| {
                for (w, cold) in self.batches[r.clone()].iter().zip(&self.cold[r]) {
                    for (lane, &ci) in cold.source.iter().enumerate() {
                        if ci as usize >= out.len() {
                            continue; // an empty lane
                        }
                        // SAFETY: a constraint sits in one lane of one batch.
                        let c = unsafe { out.get_mut(ci as usize) };
                        let count = c.count as usize;
                        for (k, (wp, p)) in w.points.iter().zip(&mut c.points[..count]).enumerate() {
                            let tt = &cold.total_tangent[k];
                            p.normal_impulse = wp.normal_impulse[lane];
                            p.tangent_impulse = [wp.tangent_impulse[0][lane], wp.tangent_impulse[1][lane]];
                            p.total_normal_impulse = cold.total_normal[k][lane];
                            p.total_tangent_impulse = [tt[0][lane], tt[1][lane]];
                            p.max_normal_impulse = wp.max_normal[lane];
                        }
                    }
                }
            });
        }
        self.overflow.store(constraints);
    }

    /// Stores every point's impulses in its contact straight from the lanes and the
    /// overflow, when nothing else needs the scalar constraints updated (no restitution
    /// pass): one pass instead of [`Self::store`] and a second copy.
    fn store_lanes(&self, contacts: &mut [Box<Contact>]) {
        {
            let out = Shared::new(contacts);
            self.workers.for_blocks(self.batches.len(), MIN_BATCHES, |_, r| {
                let (batches, colds) = (&self.batches[r.clone()], &self.cold[r]);
                for (j, (w, cold)) in batches.iter().zip(colds).enumerate() {
                    // The next batch's contacts, asked for ahead (scattered boxes).
                    if let Some(next) = colds.get(j + 1) {
                        for (&ci, &contact) in next.source.iter().zip(&next.contact) {
                            if ci != u32::MAX {
                                // SAFETY: read only to take an address; its lane writes it later.
                                let c = unsafe { out.get(contact as usize) };
                                prefetch(&c.tangents);
                                prefetch_all(&c.impulses);
                            }
                        }
                    }
                    for (lane, &ci) in cold.source.iter().enumerate() {
                        if ci == u32::MAX {
                            continue;
                        }
                        // SAFETY: every constraint has its own contact.
                        let contact = unsafe { out.get_mut(cold.contact[lane] as usize) };
                        let tangents = [w.t1.lane(lane), w.t2.lane(lane)];
                        for (k, wp) in w.points[..cold.count[lane] as usize].iter().enumerate() {
                            let tt = &cold.total_tangent[k];
                            let imp = PointImpulses {
                                normal: wp.normal_impulse[lane],
                                tangent: [wp.tangent_impulse[0][lane], wp.tangent_impulse[1][lane]],
                                total_normal: cold.total_normal[k][lane],
                                total_tangent: [tt[0][lane], tt[1][lane]],
                            };
                            store_impulse(contact, tangents, k, cold.ids[k][lane], &imp);
                        }
                    }
                }
            });
        }
        self.overflow.store_copies(contacts);
    }
}

impl Resolver for WideSolver {
    fn schedule(&self) -> Schedule {
        Schedule::SoftStep
    }

    fn set_workers(&mut self, workers: &Workers) {
        WideSolver::set_workers(self, workers);
    }

    fn colouring(&self) -> Option<&Colouring> {
        Some(&self.colouring)
    }

    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, _settings: &Settings) {
        // A static body after the real ones fills the empty lanes of the batches.
        bodies.push(SolverBody { inv_i: glam::Mat3A::ZERO, ..Default::default() });
        self.build(constraints, bodies);
        self.counter = PassCounter::default();
        self.restituted = false;
    }

    fn warm_start(&mut self, bodies: &mut [SolverBody]) {
        WideSolver::warm_start(self, bodies);
    }

    fn solve(&mut self, _constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], step: &StepInfo) {
        let iterations = step.settings.iterations.max(1);
        let first = self.counter.solve(iterations);
        for k in 0..iterations {
            let reverse = (first + k) % 2 == 1;
            let pass = Pass { use_bias: true, reverse, backward: step.backward, ..Default::default() };
            self.pass(bodies, step.settings, 1.0 / step.h, pass);
        }
    }

    fn normal_impulses(&self, out: &mut Vec<f32>) {
        for b in &self.batches {
            for p in &b.points {
                out.extend(p.normal_impulse.to_array());
            }
        }
        self.overflow.normal_impulses(out);
    }

    /// The overflow's separations now; the batches' in the first relax pass, while each
    /// batch is in cache anyway ([`Pass::update`]).
    fn positions_moved(&mut self, bodies: &[SolverBody]) {
        self.overflow.update_separations(bodies);
    }

    /// The first relax pass also brings the batches' separations up to date after the
    /// position update, and the last one adds the substep's impulses to the step totals.
    fn relax(&mut self, bodies: &mut [SolverBody], step: &StepInfo) {
        let iterations = step.settings.iterations.max(1);
        let first = self.counter.relax(iterations);
        for k in 0..iterations {
            let reverse = (first + k) % 2 == 1;
            let (update, accumulate) = (k == 0, k + 1 == iterations);
            let pass = Pass { reverse, backward: step.backward, update, accumulate, ..Default::default() };
            self.pass(bodies, step.settings, 1.0 / step.h, pass);
        }
    }

    fn restitution(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], settings: &Settings) {
        self.store(constraints);
        // The active set: the fast path beside the scalar solver's full passes.
        iterative::apply_restitution(
            constraints,
            bodies,
            iterative::landed_within(settings),
            settings.restitution_threshold,
            true,
            &mut self.restitution,
        );
        self.restituted = true;
    }

    fn store_impulses(&self, constraints: &[ContactConstraint], contacts: &mut [Box<Contact>]) {
        if self.restituted {
            // Each constraint writes its own contact: in blocks on the threads.
            let out = Shared::new(contacts);
            self.workers.for_blocks(constraints.len(), MIN_STORES, |_, r| {
                for cc in &constraints[r] {
                    // SAFETY: a contact has one constraint.
                    store_constraint(cc, unsafe { out.get_mut(cc.contact as usize) });
                }
            });
        } else {
            self.store_lanes(contacts);
        }
    }
}

/// Runs `f` over the batches of every colour in turn, each colour cut in blocks between the
/// threads: the passes' cut (they must go a colour at a time), which the build shares, so
/// that with `crate::physics::parallel`'s claiming each batch is filled by the thread that
/// then solves it, pass after pass. (Storing the impulses, once a step, cuts the whole list
/// at once: fewer rounds, and it measured the same.)
fn colour_blocks(
    workers: &Workers,
    starts: &[u32; COLOURS + 1],
    backward: bool,
    f: impl Fn(std::ops::Range<usize>) + Sync,
) {
    for k in 0..COLOURS {
        let colour = if backward { super::colouring::backward_colour(k) } else { k };
        let (start, end) = (starts[colour] as usize, starts[colour + 1] as usize);
        workers.for_blocks(end - start, MIN_BATCHES, |_, r| f(start + r.start..start + r.end));
    }
}

#[path = "wide_passes.rs"]
mod passes;
use passes::{batch_separations, batch_totals, solve_batch, warm_start_batch, PassConstants};
#[cfg(test)]
use passes::{idle, INSIDE_DISC};

#[path = "wide_fill.rs"]
mod fill;
use fill::{fill_batch, lane_masses};

#[cfg(test)]
#[path = "wide_tests.rs"]
mod tests;
