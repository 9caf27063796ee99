//! Sequential impulses with soft contacts and substeps (E. Catto, "Iterative Dynamics with
//! Temporal Coherence", GDC 2005, for the accumulated impulses; Box2D v3's *soft step*,
//! "Solver2D" 2024, for the position error).
//!
//! Per contact point there is a normal row and two friction rows. Each pass computes the
//! impulse that would zero a row's relative velocity and adds it to the *accumulated*
//! impulse with clamping: `λn ≥ 0`, and the friction vector (λt1, λt2) inside the disc of
//! radius `μ·λn`. Only the change of the accumulated value is applied.
//!
//! A step is split into `substeps`; each substep integrates gravity, re-applies the
//! accumulated impulses (warm starting), runs `iterations` biased passes, moves the bodies,
//! then runs `iterations` *relax* passes without bias. The current separation of every
//! point is recomputed after each position update from how far the two bodies moved and
//! turned since the step began (`s = n·(ΔpB − ΔpA + ΔqB·rB − ΔqA·rA) + s₀ − n·(rB − rA)`,
//! the rounded part of a sphere's or capsule's arm kept along the normal:
//! `contact::round_turn`), so the solver sees penetration change within the step.
//!
//! **Why soft contacts, not plain Baumgarte or split impulses.** Position error is fed back
//! as a velocity bias through a damped spring (stiffness `contact_hertz`, damping ratio
//! `damping_ratio`, capped at `max_push_out` m/s); the mass and impulse scales of the soft
//! constraint keep the feedback stable at any iteration count. The relax pass then removes
//! the bias velocity, so pushing boxes apart does not launch them. Plain Baumgarte turns
//! penetration into real velocity (stacks hop and gain energy); a slop dead band lets a
//! tall stack lean by up to slop/width per contact, which adds up to decimetres at the top
//! of a 10-box tower. The soft spring has no dead band and keeps the tower straight.
//!
//! Within each manifold the friction rows are solved before the normal rows, so each pass
//! ends on non-penetration (Box2D v2's order, "non-penetration is more important than
//! friction"). (Tall stacks at soft 30 Hz contacts buckle for a geometric reason, not a
//! solver one; recycled contacts hold them, see `crate::physics::contact::Recycle`.) The
//! points are visited forward and backward on alternate passes (and substeps): a fixed
//! Gauss–Seidel order leaves a small torque in every 4-point face contact that, at one
//! iteration per substep, tilts a tall pyramid sideways.
//!
//! The manifolds are visited in the order of the graph colouring ([`super::colouring`]):
//! the order the SIMD solver ([`super::wide`]) visits them, so the two paths agree up to
//! rounding (`tests/scalar_path.rs`); any order is a valid Gauss–Seidel sweep. Every other
//! step the passes visit the colours of moving pairs last to first ([`Pass::backward`]).
//! In a fixed order a box resting on two others always has the support of the lower colour
//! solved first, on every box of a pyramid alike, and the pyramid sways as it settles: at
//! one iteration per substep a 20-row pyramid's top box swung 21 mm to one side and came to
//! rest 9.5 mm over (its peers 1.6–5 mm); with the order alternating step by step it goes
//! at most 4.1 mm over and rests at 3.7 (docs/BENCHMARKS.md). Alternating it pass by pass
//! or substep by substep took the sway away as well, but let piles settle deeper.
//!
//! **Rolling resistance** (Box2D v3's and Box3D's): a manifold with
//! [`ContactConstraint::rolling`] > 0 also has three rows on the bodies' relative angular
//! velocity, an accumulated angular impulse clamped to `rolling · Σλn` (`rolling_rows`),
//! solved before friction and warm started with the rest. Only these scalar rows model it:
//! such manifolds take no colour, so the SIMD solver hands them here too.
//!
//! Each manifold works on copies of its two bodies (kept in registers) and writes back only
//! the dynamic ones, so manifolds on the same static body do not chain through memory.
//!
//! Speculative points (s > 0) let bodies approach at up to `s/h` — they land exactly.
//! Restitution is separate, after all substeps (Box2D v3): points whose speed at the moment
//! of impact exceeded the threshold leave at `e` times it, measured with the integrator's
//! energy ([`super::bounce`]), in passes repeated until they agree ([`apply_restitution`]);
//! one-point impacts that share a body (a ball struck into a wall, a ball hit by two) are
//! first redone one pair at a time, in the order they came ([`super::impacts`]).

use super::colouring::Colouring;
use super::{
    store_constraint, store_constraints, ContactConstraint, Resolver, Row, Schedule, Settings, SolverBody, StepInfo,
};
use crate::physics::contact::Contact;
use glam::Vec3A;

/// Re-applies the accumulated impulses (start of every substep).
pub fn warm_start(constraints: &[ContactConstraint], bodies: &mut [SolverBody]) {
    for c in constraints {
        let (mut sa, mut sb) = super::load_pair(bodies, c.a, c.b);
        let (a, b) = (&mut sa, &mut sb);
        for p in &c.points[..c.count as usize] {
            Row::new(a, b, p.ra, p.rb, c.normal).apply(a, b, c.normal, p.normal_impulse);
            Row::new(a, b, p.ra, p.rb, c.t1).apply(a, b, c.t1, p.tangent_impulse[0]);
            Row::new(a, b, p.ra, p.rb, c.t2).apply(a, b, c.t2, p.tangent_impulse[1]);
        }
        if c.rolling > 0.0 {
            apply_rolling(a, b, Vec3A::from(c.rolling_impulse));
        }
        super::store_pair(bodies, c.a, c.b, &sa, &sb);
    }
}

/// Which solver pass a method runs ([`solve`], [`super::wide::WideSolver::pass`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Soft position bias on (solve) or off (relax).
    pub use_bias: bool,
    /// Visit each manifold's points last to first.
    pub reverse: bool,
    /// Visit the manifolds of the colours moving pairs may take last to first; the colours
    /// kept for the world and the uncoloured manifolds still follow them in order
    /// ([`super::colouring::backward_colour`], [`StepInfo::backward`]).
    pub backward: bool,
    /// Recompute the separations first (after a position update; the SIMD solver's
    /// batches).
    pub update: bool,
    /// Add the impulses to the step totals afterwards (last pass of a substep).
    pub accumulate: bool,
}

/// One pass over all constraints, in the order of the list or, with `pass.backward`, last
/// to first (a colouring's head of moving pairs: `ScalarSolver::pass`). `pass.use_bias`:
/// soft position feedback (solve) or not (relax); `pass.reverse`: visit each manifold's
/// points last to first.
pub fn solve(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    settings: &Settings,
    inv_h: f32,
    pass: Pass,
) {
    if pass.backward {
        constraints.iter_mut().rev().for_each(|c| solve_one(c, bodies, settings, inv_h, pass));
    } else {
        constraints.iter_mut().for_each(|c| solve_one(c, bodies, settings, inv_h, pass));
    }
}

/// One manifold's rows in one pass of [`solve`].
#[inline(always)]
fn solve_one(c: &mut ContactConstraint, bodies: &mut [SolverBody], settings: &Settings, inv_h: f32, pass: Pass) {
    let (mut sa, mut sb) = super::load_pair(bodies, c.a, c.b);
    let (a, b) = (&mut sa, &mut sb);
    let n = c.normal;
    let count = c.count as usize;
    let (rev, use_bias) = (pass.reverse, pass.use_bias);
    // Rolling resistance and friction first, non-penetration last: the velocities each
    // pass leaves behind then honour the more important constraint (Catto; Box2D v2's
    // order).
    if c.rolling > 0.0 {
        rolling_rows(a, b, c);
    }
    for k in 0..count {
        let p = &mut c.points[if rev { count - 1 - k } else { k }];
        friction_rows(a, b, (c.t1, c.t2), c.friction, p);
    }
    for k in 0..count {
        let p = &mut c.points[if rev { count - 1 - k } else { k }];
        let s = p.separation;
        let (bias, mass_scale, impulse_scale) = if s > 0.0 {
            (s * inv_h, 1.0, 0.0)
        } else if use_bias {
            ((c.softness.bias_rate * s).max(-settings.max_push_out), c.softness.mass_scale, c.softness.impulse_scale)
        } else {
            (0.0, 1.0, 0.0)
        };
        let r0 = Row::new(a, b, p.ra, p.rb, n);
        let vn = r0.velocity(a, b, n);
        let old = p.normal_impulse;
        let new = (old - p.normal_mass * mass_scale * (vn + bias) - impulse_scale * old).max(0.0);
        p.normal_impulse = new;
        p.max_normal_impulse = p.max_normal_impulse.max(new);
        r0.apply(a, b, n, new - old);
    }
    super::store_pair(bodies, c.a, c.b, &sa, &sb);
}

/// The two friction rows of point `p` (tangents `t`): the impulse that would stop the
/// sliding, added to the accumulated one and clamped to the disc of radius `μ·λn`; applies
/// the change and returns it.
#[inline(always)]
pub(super) fn friction_rows(
    a: &mut SolverBody,
    b: &mut SolverBody,
    t: (glam::Vec3A, glam::Vec3A),
    friction: f32,
    p: &mut super::ConstraintPoint,
) -> [f32; 2] {
    let rows = (Row::new(a, b, p.ra, p.rb, t.0), Row::new(a, b, p.ra, p.rb, t.1));
    friction_rows_on(a, b, t, rows, friction, p)
}

/// [`friction_rows`] on rows built before (the same numbers: a row depends only on the
/// lever arms, the direction and the bodies' inverse inertia, which the passes do not
/// change).
#[inline(always)]
fn friction_rows_on(
    a: &mut SolverBody,
    b: &mut SolverBody,
    t: (glam::Vec3A, glam::Vec3A),
    (r1, r2): (Row, Row),
    friction: f32,
    p: &mut super::ConstraintPoint,
) -> [f32; 2] {
    let old = p.tangent_impulse;
    let (v1, v2) = (r1.velocity(a, b, t.0), r2.velocity(a, b, t.1));
    let mut new = [old[0] - p.tangent_mass[0] * v1, old[1] - p.tangent_mass[1] * v2];
    let max = friction * p.normal_impulse;
    let len = (new[0] * new[0] + new[1] * new[1]).sqrt();
    if len > max {
        let k = if len > 0.0 { max / len } else { 0.0 };
        new = [new[0] * k, new[1] * k];
    }
    p.tangent_impulse = new;
    let d = [new[0] - old[0], new[1] - old[1]];
    r1.apply(a, b, t.0, d[0]);
    r2.apply(a, b, t.1, d[1]);
    d
}

/// The rolling-resistance rows of manifold `c` (Box2D v3's and Box3D's): the angular
/// impulse that would stop the two bodies turning relative to each other,
/// `ΔJ = −(IA⁻¹ + IB⁻¹)⁻¹·(ωB − ωA)`, added to the accumulated one and clamped to the ball
/// of radius `c.rolling · Σλn` (the coefficient times the rolling arm times the manifold's
/// normal impulse: at most that torque); applies the change (+ to B, − to A). All three
/// axes, as Box3D's: the turn about the normal (spinning in place) is resisted the same way.
#[inline]
fn rolling_rows(a: &mut SolverBody, b: &mut SolverBody, c: &mut ContactConstraint) {
    let k = a.inv_i + b.inv_i;
    // Two bodies of which neither turns (a kinematic one against the world) have nothing
    // to resist; a NaN fails the test too.
    if k.determinant().partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return;
    }
    let old = Vec3A::from(c.rolling_impulse);
    let mut new = old - k.inverse() * (b.w - a.w);
    let max = rolling_limit(c);
    let len2 = new.length_squared();
    if len2 > max * max {
        new *= if len2 > 0.0 { max / len2.sqrt() } else { 0.0 };
    }
    c.rolling_impulse = new.into();
    apply_rolling(a, b, new - old);
}

/// The largest rolling-resistance impulse manifold `c` may hold now: its `rolling` (the
/// coefficient times the arm) times its points' normal impulses.
#[inline]
fn rolling_limit(c: &ContactConstraint) -> f32 {
    c.rolling * c.points[..c.count as usize].iter().map(|p| p.normal_impulse).sum::<f32>()
}

/// Applies angular impulse `j` to B and `−j` to A.
#[inline]
fn apply_rolling(a: &mut SolverBody, b: &mut SolverBody, j: Vec3A) {
    a.w -= a.inv_i * j;
    b.w += b.inv_i * j;
}

/// Adds each point's impulse of this substep to its per-step total (for drawing and traces).
pub fn accumulate_totals(constraints: &mut [ContactConstraint]) {
    for c in constraints.iter_mut() {
        for p in c.points[..c.count as usize].iter_mut() {
            p.total_normal_impulse += p.normal_impulse;
            p.total_tangent_impulse[0] += p.tangent_impulse[0];
            p.total_tangent_impulse[1] += p.tangent_impulse[1];
        }
    }
}

/// A speculative point counts as landed at the step's end when its separation is at most
/// this fraction of `Settings::slop` (0.5 mm at the default slop): the substep that closes a
/// gap ends on the surface to rounding, and the last relax pass's braking leaves a point
/// apart by the whole approach of a substep ([`apply_restitution`]).
pub const LANDED: f32 = 0.1;

/// How far apart a speculative point may end the step and still count as landed
/// ([`LANDED`] × slop); unbounded in the earliest-collision mode, whose cuts end where
/// pairs meet (a point apart at a cut's end is met by the next cut).
pub fn landed_within(settings: &Settings) -> f32 {
    if settings.ccd == super::ContinuousMode::EarliestCollision {
        f32::INFINITY
    } else {
        LANDED * settings.slop
    }
}

/// Most restitution passes per step ([`apply_restitution`]).
pub const MAX_RESTITUTION_PASSES: u32 = 24;

/// A restitution pass stops the loop once no point's impulse changed by more than this
/// fraction of the largest accumulated normal impulse.
pub const RESTITUTION_TOLERANCE: f32 = 1e-4;

/// Restitution: every bouncing point leaves at its rebound (`ConstraintPoint::rebound`:
/// `e` times its speed at the moment of impact inside the step, measured with the
/// integrator's energy, [`super::bounce`]), as accumulated, clamped impulses on top of the
/// solve's. A point bounces when prepare gave it a rebound (its impact was faster than the
/// threshold) and it took a normal impulse in the substeps.
///
/// One pass (Box2D v3) leaves the points of a face contact unequal: the first corner's
/// impulse also turns the body, and the corners after it see other speeds, so a box dropped
/// flat would leave spinning with the wrong rebound. The passes are repeated, alternating
/// the point order, until no impulse changes by more than [`RESTITUTION_TOLERANCE`] of the
/// largest (at most [`MAX_RESTITUTION_PASSES`]): every bouncing point then leaves at its
/// rebound and a flat drop bounces straight. The friction rows of a bouncing manifold are
/// solved in the same passes (clamped to μ times the new normal impulse): the extra normal
/// impulse of an off-centre corner also slides the others sideways, and friction left as the
/// solve found it would turn that into spin. Constraints without a bouncing point cost one
/// test per step: the bouncing ones are listed once, before the passes.
///
/// **Impacts that share a body** are taken out of these passes and done first, one pair at
/// a time ([`super::impacts::resolve_clusters`]): one-point manifolds that bounce, or that a
/// body something bounces off was struck into, and share a moving body with another such
/// manifold. Newton's targets met all at once keep momentum but not energy there, and a
/// struck manifold has no rebound at all: a gas of 20 elastic spheres lost 11–13.5 % of its
/// kinetic energy over 20 s this way; redone pair by pair it keeps it to round-off.
///
/// Poisson's bound: a manifold's restitution impulses add up to at most `e` times its
/// compression impulse, on top of that compression. Newton's rule alone can return more
/// energy than the impact took when friction changed the bodies' spin in between (Kane's
/// paradox): a 264 kg capsule spinning at 7 rad/s landed, friction stopped the spin, and the
/// rebound aimed at e times the approach speed of its contact point *with* that spin — +158 J
/// of kinetic energy in one bounce (a fuzz regression case, tests/fuzz.rs). The compression
/// impulse is the normal impulse the manifold took in the substeps plus, at every visit, the
/// impulse that stops whatever approach the visit finds: at the first visit what the
/// substeps left, later what other bounces pushed back in. That second part is what lets
/// bounces of a face keep their energy when another bounce pushes its body back in: the
/// bound grows with the approach this makes, so the face still separates at its full
/// rebound (a bound fixed when the pass began held a ball bounced off a wall and struck in
/// the same step to 3.88 m/s after a 4.79 m/s approach, before such pairs went to
/// [`super::impacts`]). The restitution part of the bound grows by the ratio of the rebound
/// to Newton's `e·u` of the step-start approach (the speed gravity adds over the gap). An ordinary bounce needs just
/// that, so the bound binds it at most by rounding; it is per manifold, not per point, so
/// the uneven split of a flat face's impulses among its corners stays free (per point, a
/// flat-dropped cube left spinning at 0.01 rad/s).
///
/// **Active set** (`active_set`, the SIMD solver's fast path): after the first pass, a
/// manifold whose last visit changed no impulse by more than the tolerance, and none of whose
/// bodies has since been changed by more than that by another manifold, is skipped — its
/// next visit would again change nothing that counts. Each body remembers the visit that last
/// changed it and each manifold the visit at which it settled. The answers agree with the
/// full passes to the tolerance (`restitution_active_set_agrees_with_the_full_passes`); in a
/// bouncing pile most manifolds settle in a few passes while a few faces and the face
/// contacts coupled through a body take the rest. Off (the scalar solver): every listed
/// manifold in every pass.
///
/// Each listed manifold's effective masses are computed when it is listed (the method's own
/// passes may keep theirs elsewhere), and its rows (each point's normal and two tangents)
/// are built once, before the passes, and read at every visit: the passes change only the
/// bodies' velocities, which no row depends on, so the numbers are those of rows built at
/// each visit. So is the factor of its Poisson bound (which points bounce, their rebounds
/// and approaches do not change in the passes).
///
/// Returns the manifold visits made (for statistics and tests).
pub fn apply_restitution(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    landed: f32,
    threshold: f32,
    active_set: bool,
    scratch: &mut RestitutionScratch,
) -> usize {
    let bounces = |p: &super::ConstraintPoint| p.rebound > 0.0 && p.max_normal_impulse > 0.0;
    let RestitutionScratch { bouncing, rows, bounds, changed_at, settled_at, impacts } = scratch;
    // A speculative point still apart at the step's end has not landed: whatever impulse it
    // holds is the last relax pass braking it so that it lands at the start of the next
    // substep. For a bouncy pair that braking is kinetic energy lost for good (its speed at
    // impact, next step, would be the braked one): it is taken back, and the point does
    // not bounce — it lands, and bounces, next step, at its full speed. A point that took
    // impulse in an earlier substep has landed (a speculative point braked in a substep lands
    // at its end) and bounces even if something moved it apart since: a ball stopped by the
    // floor and then nudged off it by a ball it struck in the same step.
    for c in constraints.iter_mut().filter(|c| c.restitution > 0.0) {
        let (a, b) = super::pair_mut(bodies, c.a, c.b);
        let (n, rounding) = (c.normal, c.rounding);
        let mut taken = false;
        for p in c.points[..c.count as usize].iter_mut() {
            let earlier = p.total_normal_impulse > p.normal_impulse;
            if p.normal_impulse > 0.0 && !earlier && p.separation_now(n, a, b, rounding) > landed {
                taken = true;
                Row::new(a, b, p.ra, p.rb, n).apply(a, b, n, -p.normal_impulse);
                p.total_normal_impulse -= p.normal_impulse;
                p.normal_impulse = 0.0;
                p.max_normal_impulse = 0.0;
                // The friction that braking allowed goes with it: left alone it was a grip
                // with no push behind it (a 3 mm capsule about to land took 40 rad/s of
                // spin from it, fuzz seed 1001313).
                for (t, j) in [(c.t1, p.total_tangent_impulse[0]), (c.t2, p.total_tangent_impulse[1])] {
                    Row::new(a, b, p.ra, p.rb, t).apply(a, b, t, -j);
                }
                p.total_tangent_impulse = [0.0; 2];
                p.tangent_impulse = [0.0; 2];
            }
        }
        if taken && c.rolling > 0.0 {
            // So does the rolling resistance it allowed: clamped again to what normal
            // impulse is left (a point taken back held none before this substep, so the
            // accumulated rolling impulse is all the step applied under it).
            let max = rolling_limit(c);
            let old = Vec3A::from(c.rolling_impulse);
            let len = old.length();
            if len > max {
                let new = if len > 0.0 { old * (max / len) } else { Vec3A::ZERO };
                apply_rolling(a, b, new - old);
                c.rolling_impulse = new.into();
            }
        }
    }
    // Impacts that share a body are redone one pair at a time (`impacts.rs`).
    let cluster_visits = super::impacts::resolve_clusters(constraints, bodies, threshold, bounces, impacts);
    bouncing.clear();
    bouncing.extend(
        constraints
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                c.restitution > 0.0
                    && c.points[..c.count as usize].iter().any(bounces)
                    && !super::impacts::in_cluster(impacts, *i)
            })
            .map(|(i, _)| i as u32),
    );
    // The compression impulse only bounds a bouncing manifold: the step's normal impulse so
    // far; each visit adds the impulse that stops any approach it finds (below). Each
    // point's rows (normal, then the two tangents) are built once for all the passes, and
    // its effective masses computed here: a method whose passes keep their own (the SIMD
    // lanes) leaves them out of the scalar constraints, and they are the same numbers
    // whenever they are computed (the lever arms, directions and inverse masses and
    // inertias of a contact's bodies are fixed for the step).
    rows.clear();
    bounds.clear();
    for &i in bouncing.iter() {
        let c = &mut constraints[i as usize];
        c.compute_masses(bodies);
        let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
        let mut point_rows = [[Row::default(); 3]; 4];
        for (p, r) in c.points[..c.count as usize].iter_mut().zip(&mut point_rows) {
            p.compression_impulse = p.total_normal_impulse;
            *r = [c.normal, c.t1, c.t2].map(|d| Row::new(a, b, p.ra, p.rb, d));
        }
        rows.push(point_rows);
        // What the rebound asks beyond Newton's e·u of the step-start approach (the speed
        // gravity adds over the gap; `bounce.rs`) is not the friction's doing: Poisson's
        // bound grows in the same ratio. Which points bounce, their rebounds and approaches
        // are fixed for the passes, so the factor is too.
        let e = c.restitution;
        let gain = c.points[..c.count as usize]
            .iter()
            .filter(|p| bounces(p) && e * p.relative_velocity < 0.0)
            .map(|p| p.rebound / (-e * p.relative_velocity))
            .fold(1.0f32, f32::max);
        bounds.push(1.0 + e * gain);
    }
    if active_set {
        changed_at.clear();
        changed_at.resize(bodies.len(), 0);
        settled_at.clear();
        settled_at.resize(bouncing.len(), 0);
    }
    // Visits are numbered from 1; `largest_seen` is the largest impulse of any pass so far.
    let (mut visit, mut largest_seen) = (0u32, 0.0f32);
    for pass in 0..MAX_RESTITUTION_PASSES {
        if bouncing.is_empty() {
            break;
        }
        let reverse = pass % 2 == 1;
        let (mut change, mut largest) = (0.0f32, 0.0f32);
        for (slot, &i) in bouncing.iter().enumerate() {
            let c = &mut constraints[i as usize];
            if active_set && pass > 0 {
                let at = settled_at[slot];
                if at != 0 && changed_at[c.a as usize] < at && changed_at[c.b as usize] < at {
                    continue;
                }
            }
            visit += 1;
            let count = c.count as usize;
            let (a, b) = super::pair_mut(bodies, c.a, c.b);
            let rows = &rows[slot];
            let mut own = 0.0f32;
            for k in 0..count {
                let k = if reverse { count - 1 - k } else { k };
                let (p, [_, r1, r2]) = (&mut c.points[k], rows[k]);
                let d = friction_rows_on(a, b, (c.t1, c.t2), (r1, r2), c.friction, p);
                p.total_tangent_impulse[0] += d[0];
                p.total_tangent_impulse[1] += d[1];
                own = own.max(d[0].abs()).max(d[1].abs());
            }
            // Approach found now (this visit's friction, or another manifold's bounce pushing
            // the pair together again: a ball struck while it hits a wall) is compression
            // too, and its stopping impulse joins the bound.
            for (p, r) in c.points[..count].iter_mut().zip(rows).filter(|(p, _)| bounces(p)) {
                let vn = r[0].velocity(a, b, c.normal);
                p.compression_impulse += p.normal_mass * (-vn).max(0.0);
            }
            // Poisson's bound on the manifold: the listing's factor times the compression.
            let limit = bounds[slot] * c.points[..count].iter().map(|p| p.compression_impulse).sum::<f32>();
            let mut total: f32 = c.points[..count].iter().map(|p| p.total_normal_impulse).sum();
            for k in 0..count {
                let k = if reverse { count - 1 - k } else { k };
                let (p, [r0, _, _]) = (&mut c.points[k], rows[k]);
                if !bounces(p) {
                    continue;
                }
                let vn = r0.velocity(a, b, c.normal);
                let old = p.normal_impulse;
                // Poisson's bound on the manifold (see above).
                let room = (limit - total).max(0.0);
                let new = (old - p.normal_mass * (vn - p.rebound)).max(0.0).min(old + room);
                total += new - old;
                p.normal_impulse = new;
                p.total_normal_impulse += new - old;
                r0.apply(a, b, c.normal, new - old);
                own = own.max((new - old).abs());
                largest = largest.max(new);
            }
            change = change.max(own);
            if active_set {
                if own > RESTITUTION_TOLERANCE * largest.max(largest_seen) {
                    settled_at[slot] = 0;
                    for (body, moves) in [(c.a, a.inv_mass > 0.0), (c.b, b.inv_mass > 0.0)] {
                        if moves {
                            changed_at[body as usize] = visit;
                        }
                    }
                } else {
                    settled_at[slot] = visit;
                }
            }
        }
        largest_seen = largest_seen.max(largest);
        // The skipped manifolds hold impulses as large as when they settled.
        let scale = if active_set { largest_seen } else { largest };
        if change <= RESTITUTION_TOLERANCE * scale {
            break;
        }
    }
    visit as usize + cluster_visits
}

/// Scratch of [`apply_restitution`], kept between steps (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub struct RestitutionScratch {
    /// The manifolds with a bouncing point: which they are does not change during the
    /// passes, so they are listed once instead of every manifold being looked at in every
    /// pass.
    bouncing: Vec<u32>,
    /// Per listed manifold, each point's rows along the normal and the two tangents.
    rows: Vec<[[Row; 3]; 4]>,
    /// Per listed manifold, the factor of Poisson's bound, `1 + e·gain`: its total normal
    /// impulse stays within it times the compression impulse.
    bounds: Vec<f32>,
    /// Active set: per body, the visit that last changed its velocity by more than the
    /// tolerance…
    changed_at: Vec<u32>,
    /// …and per listed manifold, the visit at which it settled (0: not settled).
    settled_at: Vec<u32>,
    /// Scratch of the clusters of impacts that share a body.
    impacts: super::impacts::ImpactScratch,
}

/// Where the passes of a step stand, for the alternating point order: pass k of a substep
/// visits each manifold's points last to first when `first + k` is odd, `first` counting
/// the passes before it plus the substep index (solve F, relax R, then solve R, relax F, …),
/// so the small torque that Gauss–Seidel order puts into a 4-point face contact cancels
/// instead of tilting tall stacks one way.
#[derive(Clone, Copy, Debug, Default)]
pub struct PassCounter {
    passes: u32,
    substep: u32,
}

impl PassCounter {
    /// The `first` of this substep's solve passes; counts them.
    pub fn solve(&mut self, iterations: u32) -> u32 {
        let first = self.passes + self.substep;
        self.passes += iterations;
        first
    }

    /// The `first` of this substep's relax passes; counts them and ends the substep.
    pub fn relax(&mut self, iterations: u32) -> u32 {
        let first = self.passes + self.substep;
        self.passes += iterations;
        self.substep += 1;
        first
    }
}

/// The scalar sequential-impulse solver as a method ([`Resolver`]): its own copies of the
/// step's constraints, with effective masses, in colouring order. The SIMD solver uses one
/// for the manifolds no colour takes.
#[derive(Clone, Debug, Default)]
pub struct ScalarSolver {
    colouring: Colouring,
    /// The constraints solved, in order…
    pub(super) constraints: Vec<ContactConstraint>,
    /// …and the index of each in the world's list.
    pub(super) source: Vec<u32>,
    counter: PassCounter,
    /// The impulses were copied back for the restitution pass (they are stored from there).
    restituted: bool,
    /// Scratch of [`apply_restitution`].
    restitution: RestitutionScratch,
}

impl ScalarSolver {
    /// Copies the constraints `order` names (indices into `constraints`) and fills their
    /// effective masses.
    pub(super) fn load(&mut self, constraints: &[ContactConstraint], order: &[u32], bodies: &[SolverBody]) {
        self.constraints.clear();
        self.source.clear();
        for &ci in order {
            let mut c = constraints[ci as usize];
            c.compute_masses(bodies);
            self.constraints.push(c);
            self.source.push(ci);
        }
    }

    /// Re-applies the accumulated impulses.
    pub(super) fn warm_start(&self, bodies: &mut [SolverBody]) {
        warm_start(&self.constraints, bodies);
    }

    /// One pass ([`solve`]); with `pass.accumulate`, the impulses then join the step
    /// totals.
    ///
    /// Backward, the manifolds of the colours moving pairs may take go last to first and the
    /// rest follow in order, as the SIMD solver visits them.
    pub(super) fn pass(&mut self, bodies: &mut [SolverBody], settings: &Settings, inv_h: f32, pass: Pass) {
        let head = if pass.backward { self.colouring.dynamic_count().min(self.constraints.len()) } else { 0 };
        let (head, rest) = self.constraints.split_at_mut(head);
        solve(head, bodies, settings, inv_h, pass);
        solve(rest, bodies, settings, inv_h, Pass { backward: false, ..pass });
        if pass.accumulate {
            accumulate_totals(&mut self.constraints);
        }
    }

    /// Recomputes the current separation of every point from how far its bodies moved and
    /// turned since the step began ([`super::ConstraintPoint::separation_now`]).
    pub(super) fn update_separations(&mut self, bodies: &[SolverBody]) {
        for c in &mut self.constraints {
            let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
            for p in &mut c.points[..c.count as usize] {
                p.separation = p.separation_now(c.normal, a, b, c.rounding);
            }
        }
    }

    /// Copies the solved points back into the world's constraints.
    pub(super) fn store(&self, constraints: &mut [ContactConstraint]) {
        for (o, &ci) in self.constraints.iter().zip(&self.source) {
            let count = o.count as usize;
            constraints[ci as usize].points[..count].copy_from_slice(&o.points[..count]);
            constraints[ci as usize].rolling_impulse = o.rolling_impulse;
        }
    }

    /// Writes the impulses of the copies into the contacts.
    pub(super) fn store_copies(&self, contacts: &mut [Box<Contact>]) {
        for o in &self.constraints {
            store_constraint(o, &mut contacts[o.contact as usize]);
        }
    }
}

impl Resolver for ScalarSolver {
    fn schedule(&self) -> Schedule {
        Schedule::SoftStep
    }

    fn colouring(&self) -> Option<&Colouring> {
        Some(&self.colouring)
    }

    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, _settings: &Settings) {
        // One thread: the textbook path runs in sequence.
        self.colouring.colour(constraints, bodies, &crate::physics::parallel::Workers::default());
        let order = std::mem::take(&mut self.colouring);
        self.load(constraints, order.order(), bodies);
        self.colouring = order;
        self.counter = PassCounter::default();
        self.restituted = false;
    }

    fn warm_start(&mut self, bodies: &mut [SolverBody]) {
        ScalarSolver::warm_start(self, bodies);
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

    fn positions_moved(&mut self, bodies: &[SolverBody]) {
        self.update_separations(bodies);
    }

    fn normal_impulses(&self, out: &mut Vec<f32>) {
        for c in &self.constraints {
            out.extend(c.points[..c.count as usize].iter().map(|p| p.normal_impulse));
        }
    }

    fn scalar_constraint(&self, contact: u32) -> Option<ContactConstraint> {
        self.constraints.iter().find(|c| c.contact == contact).copied()
    }

    fn relax(&mut self, bodies: &mut [SolverBody], step: &StepInfo) {
        let iterations = step.settings.iterations.max(1);
        let first = self.counter.relax(iterations);
        for k in 0..iterations {
            let (reverse, accumulate) = ((first + k) % 2 == 1, k + 1 == iterations);
            let pass = Pass { reverse, backward: step.backward, accumulate, ..Default::default() };
            self.pass(bodies, step.settings, 1.0 / step.h, pass);
        }
    }

    fn restitution(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], settings: &Settings) {
        self.store(constraints);
        apply_restitution(
            constraints,
            bodies,
            landed_within(settings),
            settings.restitution_threshold,
            false,
            &mut self.restitution,
        );
        self.restituted = true;
    }

    fn store_impulses(&self, constraints: &[ContactConstraint], contacts: &mut [Box<Contact>]) {
        if self.restituted {
            store_constraints(constraints, contacts);
        } else {
            self.store_copies(contacts);
        }
    }
}
