//! The `Continuous` stage in its fast form ([`ContinuousMode::Fast`], Box2D v3's
//! `b2SolveContinuous`): after the step's positions are final, a body that moved farther
//! than [`CCD_EXTENT_FRACTION`] of its minimum extent (its points' motion bounded by its
//! bounding radius, and by the turn's axis: a log rolling about its length is not swept)
//! is swept from its pose at the step's
//! start to its pose now and tested against the static bodies its swept bounds touch, and
//! the kinematic ones it also moved that far against (its pose in theirs at the step's
//! start against the end: a crate riding a fast platform is not swept against it; Box3D
//! sweeps only bullets against kinematic bodies), at their end-of-step poses (a *bullet*
//! also against the dynamic bodies, at their end-of-step poses, except other bullets;
//! bullets go after the other fast bodies, so they see those at their final poses). The
//! earliest time of impact found by conservative advancement
//! ([`crate::physics::collide::toi`]) moves the body back to its pose at that time; its
//! velocity is kept, as Box2D does, so the next step's speculative contact meets the
//! surface a few millimetres away and the solver resolves the collision there — less the
//! velocity gravity added over the time it was put back by (else a falling body moved back
//! up gains that height as energy; Box2D keeps it), and with its spin turned back with it
//! (so its kinetic energy stays).
//!
//! Only a body that *passed* is moved: its centre ended the step beyond the plane in which
//! it met the other body (the plane through the closest point on the other body, normal to
//! the closest-point direction at the impact). A body that ended on its own side of that
//! plane — a landing, a bounce, a slide — was met by the solver and stays where the step
//! left it, so ordinary contact is never disturbed.
//!
//! A body already within the target gap of a static body at the step's start (resting on
//! it, sliding along it) would get a time of impact of 0 and never move: then, as in
//! Box2D, a small ball about its centre of mass (radius `min(4·slop, ½·min extent)`) is
//! swept instead, which only meets the static body if the body really passes into it. If
//! instead the step carried its centre past their contact plane (a one-pass method stopped
//! only the corner that touched), it is held at its start pose for this step, its approach
//! along the contact normal removed (an inelastic stop; Box2D never holds a body). A body
//! already deeper than the slop in the other one at the step's start is left to the solver:
//! moving it back to a time it was as deep gains nothing (the fuzzer's tumbling needles,
//! put back every step with a tip in the ground, were spun up to 10⁶ rad/s).
//!
//! A compound is swept child by child, each child judged as a body of its own: its own
//! centre (the centre of its inner ball) and inner radius for the tests above, its own
//! start contact, and the probe about its own centre. The body's centre may lie metres from where a child
//! touches, and below a contact plane tilted there though nothing passed: a fallen tree
//! rolling over waves was held at its start pose step after step.
//!
//! A static triangle mesh is tested one triangle at a time (those under each child's swept
//! box, in the mesh's frame), each a flat convex proxy for the distance query. A triangle
//! has no inside: once a body's centre is past its plane, the contact normal turns and
//! pushes it on through. So a body whose centre's path over the step goes through a
//! triangle has passed it however it started — moved back to its time of impact with that
//! triangle, or held at its start pose when it was already touching. Two cheap tests pass
//! a triangle over without a query: the swept shape keeps more than the slop away from
//! its plane, on one side, all along the sweep (its extent along the normal at both ends,
//! widened by the turn's sagitta: the trunk of a toppling tree high above the terrain);
//! or its centre ends more than half its inner radius in front of the plane, having come
//! nearer by less than that, and the shape itself ends no more than that past it (Box3D's
//! rule, without its last clause: a body resting or sliding on a terrain, which the solver
//! holds). The tests of one swept shape against one candidate are `world/sweep_ctx.rs`'s.
//!
//! Candidates are looked up once per stage: the static bodies in a list, and when there
//! are bullets the dynamic non-bullets sorted by the x of their box's centre, so a bullet
//! reads only the run of bodies its swept box can reach.
//!
//! The one-pass methods act only on touching points, so for them a body is moved to the
//! time it is just in contact (a target gap deep,
//! [`crate::physics::collide::toi::contact_time`]) rather than a few millimetres short.
//!
//! Cost: one cheap test per awake body (its motion against its size), run in blocks of
//! bodies on the world's threads; scenes without fast bodies pay that alone, with no
//! allocation.
//!
//! **Threads.** The sweeps run on the world's threads too, in two rounds: the fast bodies,
//! then the bullets. A fast body meets only static bodies, and a bullet only static bodies
//! and dynamic non-bullets, so no sweep of a round reads a body another sweep of it moves.
//! Each thread logs its sweeps' queries in its own list; after each round the stepping thread
//! copies them into the step's [`super::ccd_record::ContinuousRecord`] and moves the bodies
//! back, both in body order. So the record and the bodies are the same at any thread count
//! (tested in `tests/threads.rs`). Which thread sweeps which body changes from step to step,
//! so every thread keeps room for what any of them has needed (one high-water mark, as the
//! narrow phase keeps): a settled world's sweeps never allocate (`tests/no_alloc.rs`).
//!
//! Limits: the body loses the rest of its step's motion (time is not given back); a fast
//! body that is not a bullet can pass through a thin *dynamic* body; the sweep interpolates
//! between the step's end poses (straight, at a constant turn), not the path the substeps
//! took; bodies in joints are swept like any other and a move back may stretch the joint
//! for a step.

use super::ccd_record::{ToiEvent, ToiQuery};
use super::sweep_ctx::{record_toi, Best, SweepCtx, Target};
use super::{World, MIN_BODIES};
use crate::physics::body::Body;
use crate::physics::collide::distance::Proxy;
use crate::physics::collide::toi::{contact_time, triangle_mover, Mover, Sweep, ToiIteration, ToiState};
use crate::physics::collide::Scratch;
use crate::physics::compound::{child, child_count};
use crate::physics::math::{Aabb, Iso};
use crate::physics::parallel::Shared;
use crate::physics::per_body;
use crate::physics::solver::Schedule;
use glam::Vec3;
use std::ops::Range;

/// A body is swept when it moved (centre plus turn × bounding radius) farther than this
/// fraction of its minimum extent in the step (Box2D v3's `saftetyFactor`).
pub const CCD_EXTENT_FRACTION: f32 = 0.5;

/// Fewest sweeps a worker thread takes at once (each is one or more time-of-impact
/// queries, a microsecond or more): fewer run on the calling thread.
const MIN_SWEEPS: usize = 8;

/// Whether a body is swept in this step, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mark {
    /// Not swept (it moved too little, or it does not move).
    Still,
    /// Swept against the static bodies.
    Fast,
    /// A bullet: swept against the dynamic bodies too.
    Bullet,
}

/// Scratch of the continuous stage, kept between steps.
#[derive(Clone, Debug, Default)]
pub(super) struct ContinuousScratch {
    /// Per body (or per body the solver moved, where those are few: `world/movers.rs`):
    /// whether it is swept this step, and how.
    mark: Vec<Mark>,
    /// This step's fast bodies that are not bullets, then the bullets.
    fast: Vec<u32>,
    bullets: Vec<u32>,
    /// The bodies a sweep may meet.
    index: SweepIndex,
    /// Per worker thread: its scratch and the queries its sweeps made.
    threads: Vec<SweepThread>,
    /// Per body of the round (`fast` or `bullets`, in order): what its sweep found.
    found: Vec<Found>,
    /// The most queries and iterations a round has logged, all threads together: any thread
    /// may run every sweep of a round, so each log keeps room for that many, and a settled
    /// step allocates nothing whichever thread takes which sweep.
    most: (usize, usize),
}

/// The bodies a sweep may meet, indexed once per stage.
#[derive(Clone, Debug, Default)]
struct SweepIndex {
    /// The static bodies (every swept body is tested against them).
    statics: Vec<u32>,
    /// The dynamic bodies bullets are tested against, by the x of their box's centre (with
    /// the box), and the largest half width among them: a bullet looks only at the run of
    /// centres within its swept box's x range widened by that.
    targets: Vec<(f32, u32, Aabb)>,
    max_half: f32,
    /// Bodies the stage has moved back (their `targets` box is stale).
    moved: Vec<u32>,
}

/// One worker thread's part of the sweeps: its buffers, and the queries its sweeps made in
/// the current round, with their iterations back to back (each query's iteration range is
/// into this thread's list until the stage copies it into the step's record).
#[derive(Clone, Debug, Default)]
struct SweepThread {
    /// One sweep's bodies to test, in index order (the order of the plain scan over all
    /// bodies, so ties between equal times resolve as before).
    candidates: Vec<u32>,
    /// A mesh candidate's triangles under the swept box.
    tris: Vec<u32>,
    /// The collision scratch of the start-pose contacts.
    narrow: Scratch,
    log: Log,
}

impl SweepThread {
    /// Grows every buffer to at least the capacity `other`'s has (for
    /// [`crate::physics::parallel::even_out`]).
    fn reserve_like(&mut self, other: &SweepThread) {
        use crate::physics::collide::grow;
        self.narrow.reserve_like(&other.narrow);
        grow(&mut self.candidates, other.candidates.capacity());
        grow(&mut self.tris, other.tris.capacity());
    }
}

/// Time-of-impact queries and their iterations, as [`ContinuousRecord`] keeps them.
#[derive(Clone, Debug, Default)]
pub(super) struct Log {
    pub(super) queries: Vec<ToiQuery>,
    pub(super) iterations: Vec<ToiIteration>,
}

/// What one body's sweep found: the thread that ran it, its queries in that thread's
/// [`Log`], and the earliest impact (its query index into those queries).
#[derive(Clone, Debug, Default)]
struct Found {
    thread: u32,
    queries: Range<u32>,
    best: Option<Best>,
}

impl SweepIndex {
    /// Indexes the bodies a sweep may hit: the static ones, and if there are `bullets` the
    /// dynamic non-bullets by the x of their centre (one box per body per stage, instead of
    /// one per bullet and body).
    fn build(&mut self, w: &World, bullets: bool) {
        let any_frozen = w.containment.any();
        self.statics.clear();
        self.targets.clear();
        self.moved.clear();
        self.max_half = 0.0;
        for (j, b) in w.bodies.iter().enumerate() {
            if any_frozen && w.containment.is_frozen(j as u32) {
                continue;
            }
            if !b.is_dynamic() {
                self.statics.push(j as u32);
            } else if bullets && !b.bullet {
                let bb = b.shape.aabb(&b.pose);
                self.max_half = self.max_half.max(0.5 * (bb.max.x - bb.min.x));
                self.targets.push((0.5 * (bb.min.x + bb.max.x), j as u32, bb));
            }
        }
        self.targets.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// Fills `candidates` with the bodies whose box overlaps `swept` (statics always; the
    /// dynamic non-bullets for a bullet), in index order.
    fn gather(&self, w: &World, i: usize, swept: &Aabb, bullet: bool, candidates: &mut Vec<u32>) {
        candidates.clear();
        for &j in &self.statics {
            // Static bodies do not move: the broad phase's box of this step holds.
            let o = &w.bodies[j as usize];
            let bounds = w.aabbs.get(j as usize).copied().unwrap_or_else(|| o.shape.aabb(&o.pose));
            if swept.overlaps(&bounds) {
                candidates.push(j);
            }
        }
        if bullet {
            let (lo, hi) = (swept.min.x - self.max_half, swept.max.x + self.max_half);
            let start = self.targets.partition_point(|t| t.0 < lo);
            for &(cx, j, bb) in &self.targets[start..] {
                if cx > hi {
                    break;
                }
                if swept.overlaps(&bb) && !self.moved.contains(&j) {
                    candidates.push(j);
                }
            }
            for &j in &self.moved {
                let o = &w.bodies[j as usize];
                if o.is_dynamic() && !o.bullet && swept.overlaps(&o.shape.aabb(&o.pose)) {
                    candidates.push(j);
                }
            }
        }
        candidates.retain(|&j| j as usize != i);
        candidates.sort_unstable();
        candidates.dedup();
    }
}

/// How far a body moved over the step: its centre plus its turn times its bounding radius
/// (an upper bound of any point's displacement). `exact` false bounds the turn θ by
/// `π·|q1 − ±q0| ≥ θ` from one dot product (`|q1 − q0|² = 2 − 2·q1·q0 = 4·sin²(θ/4)`).
#[inline]
fn motion(p0: &Iso, p1: &Iso, radius: f32, exact: bool) -> f32 {
    let angle = if exact {
        turn_angle(p1.rot * p0.rot.conjugate())
    } else {
        std::f32::consts::PI * (2.0 - 2.0 * p1.rot.dot(p0.rot).abs()).max(0.0).sqrt()
    };
    p1.pos.distance(p0.pos) + angle * radius
}

/// How far any point of body `b` moved over the step from `p0`, bounded with the turn's
/// axis: a point p (body frame) turned by θ about the axis u moves by at most θ·|u × p|,
/// bounded over the body's box ([`crate::physics::Shape::turn_reach`], Box3D's
/// `velocityArc`). A long body turning about its length (a log or a tree rolling) moves its
/// far ends by its thickness times θ, not its length times θ; never more than the bounding
/// radius's [`motion`].
fn axis_motion(b: &Body, p0: &Iso, radius: f32) -> f32 {
    let dq = p0.rot.conjugate() * b.pose.rot;
    let reach = b.shape.turn_reach(dq.xyz().normalize_or_zero());
    b.pose.pos.distance(p0.pos) + turn_angle(dq) * reach.min(radius)
}

/// The angle of the turn `dq` (0 to π, whichever sign the quaternion has).
#[inline]
fn turn_angle(dq: glam::Quat) -> f32 {
    2.0 * dq.xyz().length().min(1.0).atan2(dq.w.abs())
}

impl World {
    /// The fast continuous stage (module docs) over a step, or over a cut of it that began
    /// at `offset` and lasted `scale` (both fractions of the step: the events' times).
    pub(super) fn solve_continuous(&mut self, dt: f32, offset: f32, scale: f32) {
        let mut scratch = std::mem::take(&mut self.continuous_scratch);
        scratch.fast.clear();
        scratch.bullets.clear();
        // Which bodies moved far enough to sweep: each body on its own, in blocks on the
        // threads (a mark each), then listed in body order.
        let (any_frozen, containment) = (self.containment.any(), &self.containment);
        let n = self.bodies.len().min(self.start_poses.len());
        let (bodies, starts) = (&self.bodies, &self.start_poses);
        let mark = |i: usize| sweep_mark(&bodies[i], &starts[i], any_frozen && containment.is_frozen(i as u32));
        // Only a body the solver moved can be swept: where those are few, the marks are
        // theirs (`world/movers.rs`), else every body's; the lists come out in body order.
        if self.movers.few_active {
            let active = &self.movers.active;
            scratch.mark.resize(active.len(), Mark::Still);
            let marks = Shared::new(&mut scratch.mark[..active.len()]);
            self.workers.for_blocks(active.len(), MIN_BODIES, |_, r| {
                // SAFETY: each block owns its marks.
                let marks = unsafe { marks.range_mut(r.clone()) };
                for (m, &i) in marks.iter_mut().zip(&active[r]) {
                    *m = mark(i as usize);
                }
            });
            let ContinuousScratch { mark, fast, bullets, .. } = &mut scratch;
            list_marked(mark[..active.len()].iter().zip(active.iter().copied()), fast, bullets);
        } else {
            per_body::fit(&mut scratch.mark, n, Mark::Still);
            let marks = Shared::new(&mut scratch.mark[..n]);
            self.workers.for_blocks(n, MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies' marks.
                let marks = unsafe { marks.range_mut(r.clone()) };
                for ((m, b), (p0, i)) in marks.iter_mut().zip(&bodies[r.clone()]).zip(starts[r.clone()].iter().zip(r)) {
                    *m = sweep_mark(b, p0, any_frozen && containment.is_frozen(i as u32));
                }
            });
            let ContinuousScratch { mark, fast, bullets, .. } = &mut scratch;
            list_marked(mark[..n].iter().zip(0..n as u32), fast, bullets);
        }
        self.continuous.candidates += (scratch.fast.len() + scratch.bullets.len()) as u32;
        if !scratch.fast.is_empty() || !scratch.bullets.is_empty() {
            scratch.index.build(self, !scratch.bullets.is_empty());
        }
        // The fast bodies, then the bullets (which meet the fast bodies where they were put
        // back).
        let (fast, bullets) = (std::mem::take(&mut scratch.fast), std::mem::take(&mut scratch.bullets));
        self.sweep_round(&fast, false, dt, offset, scale, &mut scratch);
        self.sweep_round(&bullets, true, dt, offset, scale, &mut scratch);
        (scratch.fast, scratch.bullets) = (fast, bullets);
        self.continuous_scratch = scratch;
    }

    /// Sweeps the bodies `list` (the fast bodies, or with `bullets` the bullets), shared out
    /// between the threads, then takes what each found in body order: its queries into the
    /// step's record, and its move back. A fast body meets only static bodies and a bullet
    /// no other bullet, so the sweeps of one round read nothing another sweep of it moves.
    fn sweep_round(
        &mut self,
        list: &[u32],
        bullets: bool,
        dt: f32,
        offset: f32,
        scale: f32,
        scratch: &mut ContinuousScratch,
    ) {
        let n = list.len();
        if n == 0 {
            return;
        }
        scratch.threads.resize_with(self.workers.threads(), Default::default);
        let (queries, iterations) = scratch.most;
        for t in &mut scratch.threads {
            t.log.queries.clear();
            t.log.queries.reserve(queries);
            t.log.iterations.clear();
            t.log.iterations.reserve(iterations);
        }
        scratch.found.clear();
        per_body::fit(&mut scratch.found, n, Found::default());
        {
            let (found, threads) = (Shared::new(&mut scratch.found), Shared::new(&mut scratch.threads));
            let (index, world) = (&scratch.index, &*self);
            self.workers.for_blocks(n, MIN_SWEEPS, |thread, r| {
                // SAFETY: one thread's scratch is used by that thread alone; each sweep
                // writes its own entry of `found`.
                let t = unsafe { threads.get_mut(thread) };
                for k in r {
                    let start = t.log.queries.len() as u32;
                    let best = world.sweep_body(list[k] as usize, bullets, index, t);
                    let queries = start..t.log.queries.len() as u32;
                    *unsafe { found.get_mut(k) } = Found { thread: thread as u32, queries, best };
                }
            });
        }
        // Which thread sweeps which body changes from step to step (the blocks go to the
        // threads as they come free): every thread keeps room for what any of them needed,
        // so a sweep handed to a thread that never made it finds room there.
        crate::physics::parallel::even_out(&mut scratch.threads, SweepThread::reserve_like);
        let logged = |f: fn(&Log) -> usize| scratch.threads.iter().map(|t| f(&t.log)).sum::<usize>();
        let (queries, iterations) = (logged(|l| l.queries.len()), logged(|l| l.iterations.len()));
        scratch.most = (scratch.most.0.max(queries), scratch.most.1.max(iterations));
        for (k, &i) in list.iter().enumerate() {
            let f = &scratch.found[k];
            let log = &scratch.threads[f.thread as usize].log;
            let base = self.continuous.queries.len() as u32;
            for q in &log.queries[f.queries.start as usize..f.queries.end as usize] {
                let its = &log.iterations[q.iterations.start as usize..q.iterations.end as usize];
                let at = self.continuous.iterations.len() as u32;
                self.continuous.iterations.extend_from_slice(its);
                self.continuous.queries.push(ToiQuery { iterations: at..at + its.len() as u32, ..q.clone() });
            }
            let Some((t, other, query, target, normal)) = f.best else { continue };
            let best = (t, other, base + (query - f.queries.start), target, normal);
            self.move_back(i as usize, bullets, best, dt, offset, scale);
            if !bullets {
                scratch.index.moved.push(i);
            }
        }
    }

    /// Body `i`'s motion over the step: its pose at the start and now, the sweep between
    /// them and the box it sweeps (padded by half the slop).
    fn swept(&self, i: usize) -> (Iso, Iso, Sweep, Aabb) {
        let (p0, p1) = (self.start_poses[i], self.bodies[i].pose);
        let pad = Vec3::splat(self.bodies[i].shape.bounding_radius() + 0.5 * self.settings.slop);
        (p0, p1, Sweep::between(&p0, &p1), Aabb::new(p0.pos.min(p1.pos) - pad, p0.pos.max(p1.pos) + pad))
    }

    /// Sweeps body `i` from its pose at the step's start to its pose now against the bodies
    /// it may hit (`index`: [`SweepIndex::gather`]); returns the earliest time of
    /// impact found, its query an index into `t`'s log. Reads the world only.
    fn sweep_body(&self, i: usize, bullet: bool, index: &SweepIndex, t: &mut SweepThread) -> Option<Best> {
        let (p0, p1, sweep, swept) = self.swept(i);
        let body = &self.bodies[i];
        let radius = body.shape.bounding_radius();
        let extent = body.shape.min_extent();
        let slop = self.settings.slop;
        let mover = Mover::child_of(&body.shape, 0, sweep);
        let probe_radius = (4.0 * slop).min(0.5 * extent);
        let probe = Mover { proxy: Proxy::point(Vec3::ZERO, probe_radius), sweep, radius: probe_radius, local: None };
        let compound = body.shape.compound().is_some();
        // (time, other, query index, target gap, normal from the other body)
        let mut best: Option<Best> = None;
        index.gather(self, i, &swept, bullet, &mut t.candidates);
        let mut ctx = SweepCtx {
            i: i as u32,
            shape: &body.shape,
            at0: p0,
            at1: p1,
            sag: 0.0,
            stays: 0.5 * extent,
            c0: p0.pos,
            c1: p1.pos,
            mover,
            probe,
            probe_radius,
            slop,
            margin: self.settings.margin,
            extent,
            simplex_cache: self.settings.simplex_cache,
            closed_form: self.settings.closed_form_distance,
        };
        let SweepThread { candidates, tris, narrow, log } = t;
        // Twice the sagitta of the turn's arc per metre of reach (as `child_swept` bounds it).
        let arc = 2.0 * (1.0 - (p0.rot.conjugate() * p1.rot).w.abs().min(1.0));
        // A compound is swept child by child: each child's proxy at its pose on the body's
        // sweep (its reach from the centre of mass bounds its motion).
        'children: for ic in 0..child_count(&body.shape) {
            ctx.mover = Mover::child_of(&body.shape, ic, sweep);
            if compound {
                // A child is tested as a body of its own: its start contact, its centre
                // (the centre of its inner ball), its inner radius (the query's target, the
                // passed test) and Box2D's probe about that centre. A
                // long body's own centre may lie metres from where a child touches, below
                // a tilted contact plane there though nothing passed (a fallen tree on
                // waves was held at its start pose step after step).
                let (s, x) = child(&body.shape, ic);
                let centre = x.transform_point(s.hull().map_or(Vec3::ZERO, |h| h.centroid()));
                ctx.shape = s;
                (ctx.at0, ctx.at1) = (p0.mul(&x), p1.mul(&x));
                (ctx.c0, ctx.c1) = (p0.transform_point(centre), p1.transform_point(centre));
                ctx.extent = s.min_extent();
                ctx.probe_radius = (4.0 * slop).min(0.5 * ctx.extent);
                ctx.probe.proxy = Proxy::point(centre, ctx.probe_radius);
                ctx.probe.radius = centre.length() + ctx.probe_radius;
                ctx.stays = 0.5 * ctx.extent;
            }
            ctx.sag = arc * ctx.mover.radius;
            // The triangles a child may meet lie under its own sweep's box: a toppling
            // tree's trunk segments each sweep a few square metres of a terrain, where the
            // whole tree's bounding ball spans its height in every direction.
            let child_box = child_swept(&body.shape, ic, &p0, &p1, ctx.sag + 0.5 * slop);
            for &j in candidates.iter() {
                let (j, o) = (j as usize, &self.bodies[j as usize]);
                if self.joints.excludes(i.min(j) as u32, i.max(j) as u32) {
                    continue;
                }
                if o.is_moving_kinematic() && !self.moved_against(i, j, radius, extent) {
                    // Slow against a moving kinematic body (riding it, carried by it): it
                    // cannot have passed through it.
                    continue;
                }
                let mut start_contact = None;
                let target = Target { j: j as u32, shape: &o.shape, pose: &o.pose };
                if let Some(mesh) = o.shape.mesh() {
                    // A mesh, one triangle at a time: those under the child's swept box (in
                    // the mesh's frame), in index order.
                    tris.clear();
                    mesh.query_aabb(&child_box.to_local(&o.pose), tris);
                    tris.sort_unstable();
                    for &t in tris.iter() {
                        let other = triangle_mover(mesh, t, &o.pose);
                        let tri = mesh.triangle(t).map(|c| o.pose.transform_point(c));
                        let face = o.pose.transform_vector(mesh.normal(t));
                        if ctx.centre_crosses(&tri) {
                            // Its centre went through the triangle: passed, however it started
                            // (a triangle has no inside: past its plane the contact normal
                            // turns and pushes the body on through). Back to its time of
                            // impact, or held where it started, the face's normal towards it.
                            let cfg = ctx.toi_config(ctx.extent, &target, 1.0);
                            let (toi, q) = record_toi(log, i as u32, j as u32, &other, &ctx.mover, &cfg, false);
                            let n = if face.dot(ctx.c0 - tri[0]) >= 0.0 { face } else { -face };
                            let t = if toi.state == ToiState::Hit && toi.t < 1.0 { toi.t } else { 0.0 };
                            if best.is_none_or(|b| t < b.0) {
                                best = Some((t, j as u32, q, cfg.target, n));
                            }
                            if t == 0.0 {
                                break 'children;
                            }
                            continue;
                        }
                        if ctx.clear_of_plane(face, tri[0]) || ctx.stays_in_front(face, tri[0]) {
                            continue;
                        }
                        if ctx.test(&target, &other, log, narrow, &mut start_contact, &mut best) {
                            break 'children;
                        }
                    }
                } else {
                    // A compound target, child by child: those whose box meets the swept
                    // box (a drum's own box holds all that tumbles inside it): in the
                    // compound's frame, against each child's box kept there (the swept box
                    // turned into that frame holds it), and in the world. Each test holds
                    // every child that meets the swept box, and each drops some the other
                    // keeps (a slab turned 45° fills its world box loosely).
                    let local =
                        o.shape.compound().filter(|c| c.children().len() > 1).map(|c| (c, swept.to_local(&o.pose)));
                    for k in 0..child_count(&o.shape) {
                        if let Some((c, local)) = &local {
                            if !c.children()[k].local_aabb().overlaps(local) {
                                continue;
                            }
                        }
                        let (shape, pose) = child(&o.shape, k);
                        let at = o.pose.mul(&pose);
                        if local.is_some() && !shape.aabb(&at).overlaps(&swept) {
                            continue;
                        }
                        let other = Mover {
                            proxy: Proxy::of(shape),
                            sweep: Sweep::fixed(&at),
                            radius: shape.bounding_radius(),
                            local: None,
                        };
                        if ctx.test(&target, &other, log, narrow, &mut start_contact, &mut best) {
                            break 'children;
                        }
                    }
                }
            }
        }
        best
    }

    /// Whether body `i` (bounding radius `radius`, inner radius `extent`) moved farther
    /// against body `j` over the step than [`CCD_EXTENT_FRACTION`] of its inner radius: its
    /// pose in `j`'s frame at the step's start against the end, as [`sweep_mark`] measures
    /// its motion against the world.
    fn moved_against(&self, i: usize, j: usize, radius: f32, extent: f32) -> bool {
        let (a0, a1) = (self.start_poses[i], self.bodies[i].pose);
        let (o0, o1) = (self.start_poses[j], self.bodies[j].pose);
        let (r0, r1) = (Iso::relative(&o0, &a0), Iso::relative(&o1, &a1));
        motion(&r0, &r1, radius, true) > CCD_EXTENT_FRACTION * extent
    }

    /// Moves body `i` back to the earliest impact its sweep found (`best`, its query an
    /// index into the step's record) and records the event.
    fn move_back(&mut self, i: usize, bullet: bool, best: Best, dt: f32, offset: f32, scale: f32) {
        let (p0, p1, sweep, swept) = self.swept(i);
        let (t, other, query, target, normal) = best;
        if t == 0.0 {
            // Held at its start pose: without its approach along the normal (an inelastic
            // stop), or the next step would drive it in again with gravity's velocity added.
            let b = &mut self.bodies[i];
            let vn = b.velocity.dot(normal);
            if vn < 0.0 {
                b.velocity -= normal * vn;
            }
        }
        // The one-pass methods act on touching points only: they get the body just in
        // contact (a target's depth in); the soft step's speculative contacts take it a few
        // millimetres apart, as Box2D leaves it.
        let t = match self.methods.get(&self.settings).schedule() {
            _ if t == 0.0 => 0.0,
            Schedule::SoftStep => t,
            Schedule::Once { .. } => {
                let q = &self.continuous.queries[query as usize];
                contact_time(&q.result, self.continuous.iterations_of(q), target)
            }
        };
        {
            let impact = if t == 0.0 { p0 } else { sweep.at(t) };
            // The spin turns back with the body (world ω rotated by the same turn), so its
            // kinetic energy stays: a needle's ω held fixed in world axes while the body
            // turns under it can carry orders of magnitude more (docs/physics.md, fuzzing).
            let b = &mut self.bodies[i];
            let back = impact.rot * b.pose.rot.conjugate();
            b.angular_velocity = back * b.angular_velocity;
            b.pose = impact;
            // Put back in time by (1 − t)·dt, it gives back the velocity gravity added over
            // that time: else a falling body moved back up would keep its speed and gain
            // the height as energy (m·g·Δh).
            b.velocity -= self.gravity * ((1.0 - t) * dt);
            self.continuous.events.push(ToiEvent {
                body: i as u32,
                other,
                fraction: offset + t * scale,
                start: p0,
                impact,
                end: p1,
                swept,
                bullet,
                query,
            });
        }
    }
}

/// The bodies of `marks` (each mark with its body) that are swept, in the order given: the
/// fast ones into `fast`, the bullets into `bullets`.
fn list_marked<'a>(marks: impl Iterator<Item = (&'a Mark, u32)>, fast: &mut Vec<u32>, bullets: &mut Vec<u32>) {
    for (m, i) in marks {
        match m {
            Mark::Still => {}
            Mark::Fast => fast.push(i),
            Mark::Bullet => bullets.push(i),
        }
    }
}

/// A box holding child `ic` of `shape` (the body itself when it is not a compound) all
/// along the sweep from `p0` to `p1` (straight, at a constant turn), given how far a point
/// of it may stray from the straight line between its two ends (`stray`, with any padding).
/// A point of the child at `p` from the centre of mass follows the centre's straight path
/// plus the arc `q(t)·p`; the arc keeps within its sagitta `|p|·(1 − cos(θ/2))` of the
/// point at the same fraction of its chord (θ ≤ π the turn, `cos(θ/2) = |w|` of the
/// relative quaternion; `sweep_body` takes the bound twice over, as margin, for the child's
/// reach from the centre of mass), so the point stays within that of the segment between
/// where it starts and where it ends: in the box of the child's boxes at both ends, grown
/// by `stray`.
fn child_swept(shape: &crate::physics::Shape, ic: usize, p0: &Iso, p1: &Iso, stray: f32) -> Aabb {
    let (s, x) = child(shape, ic);
    let (b0, b1) = (s.aabb(&p0.mul(&x)), s.aabb(&p1.mul(&x)));
    let grow = Vec3::splat(stray);
    Aabb::new(b0.min.min(b1.min) - grow, b0.max.max(b1.max) + grow)
}

/// Whether body `b`, which began the step at `p0`, is swept (`frozen`: it is frozen): a
/// dynamic awake body that moved farther than [`CCD_EXTENT_FRACTION`] of its minimum extent.
#[inline(always)]
fn sweep_mark(b: &Body, p0: &Iso, frozen: bool) -> Mark {
    if !b.is_dynamic() || b.asleep || frozen {
        return Mark::Still;
    }
    let (radius, threshold) = (b.shape.bounding_radius(), CCD_EXTENT_FRACTION * b.shape.min_extent());
    // The cheap bound first; the exact angle only for bodies near the threshold; then the
    // turn's own axis.
    if motion(p0, &b.pose, radius, false) <= threshold
        || motion(p0, &b.pose, radius, true) <= threshold
        || axis_motion(b, p0, radius) <= threshold
    {
        return Mark::Still;
    }
    if b.bullet {
        Mark::Bullet
    } else {
        Mark::Fast
    }
}
