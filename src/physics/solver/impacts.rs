//! Chains and simultaneous impacts: impacts that share a body are bounced one pair at a
//! time, in the order they happened, not all at once — in the soft step before its
//! restitution passes ([`super::iterative::apply_restitution`]), in Cyclone after its two
//! phases ([`super::cyclone`]).
//!
//! **Why.** The soft step's substeps stop every impact inelastically, and its restitution
//! passes then drive each bouncing point to its rebound ([`super::iterative`]); Cyclone's
//! restitution phase drives them to targets fixed before it. For impacts on different
//! bodies that is Newton's law, exactly. For impacts that share a body it is not:
//! - a *chain*: a ball struck into a wall that it was not approaching when the step began
//!   has no rebound — the wall's stopping impulse took the ball's energy and nothing gave
//!   it back (a gas of 20 elastic spheres lost 6 % of its energy in one such step);
//! - *simultaneous* bounces: a ball hit by two balls in one step, all three driven at once
//!   to Newton's targets. Simultaneous Newton targets keep momentum but not energy (they
//!   lost 2 % of the gas's energy in one step).
//!
//! **How.** A *cluster* is the set of one-point manifolds with restitution that bounce (or
//! are struck into: a manifold that took impulse this step on a body something bounces off)
//! and share a moving body with another such manifold, on bodies that no other contact
//! pushed this step (a face, or a contact without restitution: the visits would not see it
//! hold them). Their step impulses are taken back, so their
//! bodies move as they would have without those contacts, and the impacts are then done
//! again as a sequence of pairwise ones (the event-driven picture a class draws): in rounds,
//! each manifold in the order its impact came within the step (gap over approach at the
//! step's start; struck manifolds last) takes, if any of its points approach, the impulse
//! that sends them apart at `e` times the approach it finds now. A visit of one sphere pair
//! is an isolated collision, which Newton's law makes exact: with `e = 1` every visit keeps
//! the kinetic energy and the momentum, and so does the whole cluster. Rounds repeat until
//! no point of the cluster approaches (at most [`MAX_ROUNDS`]).
//!
//! A bouncing point's first visit aims at its rebound (`e` times its speed at the moment of
//! impact, with the integrator's energy, [`super::bounce`]) plus `e` times whatever approach
//! the visits before it added; later visits, and struck points, at `e` times the approach
//! found, when that is over the restitution threshold (else they stop: `vn = 0`). A visit
//! solves its point's friction rows in the same passes as the normal one; with friction,
//! Poisson's bound holds the visit's restitution to `e` times its compression, as in
//! [`super::iterative::apply_restitution`].
//!
//! Limits: one-point manifolds only (spheres, capsule ends, a ball on a box). A face's
//! corners are driven to their targets together, and with friction such a visit is not
//! energy-safe pair by pair: with faces in the clusters, a fuzzed stack of bouncy boxes
//! alternating light and heavy (mass ratio up to 1000) gained 11 % of its energy in 12
//! steps (tests/fuzz.rs, seed 1000066); faces keep the simultaneous passes. Bodies that
//! any other contact pushed this step keep theirs too, so a ball struck into a box resting
//! on the floor, the fourth ball of a touching row (its contact is struck into by a struck
//! one) or a ball resting on a floor without restitution loses what the solve's inelastic
//! impulses took, as before. Joints are not seen by the visits: a jointed body's impacts
//! are redone as if it were free (the shipped Newton's cradle meets at the bottom of its
//! swing, its strings across the impacts).
//! The impulses taken back were the ones positions moved with this step; only velocities are
//! redone, so a struck body ends the step where the solve left it, moving as the impacts
//! say. Cluster points start the next step without warm starting (they are bouncing apart).

use super::iterative::RESTITUTION_TOLERANCE;
use super::{pair_mut, ConstraintPoint, ContactConstraint, Row, SolverBody};

/// Most rounds of visits per step.
pub const MAX_ROUNDS: u32 = 64;

/// A body's mark when another contact than a one-point bounce or strike pushed it this step
/// (`resolve_clusters`).
const TAINTED: u8 = u8::MAX;

/// A manifold's part in [`resolve_clusters`]: none, it bounces, it was struck into, it is
/// in a cluster.
const NONE: u8 = 0;
const BOUNCES: u8 = 1;
const STRUCK: u8 = 2;
const LISTED: u8 = 3;

/// Most passes of one visit over its point's normal and friction rows.
const VISIT_PASSES: u32 = 16;

/// Scratch of [`resolve_clusters`], kept between steps (no allocation once grown).
#[derive(Clone, Debug, Default)]
pub struct ImpactScratch {
    /// Per body: how many one-point bouncing or struck manifolds touch it (moving bodies
    /// only), or [`TAINTED`] when another contact pushed it.
    count: Vec<u8>,
    /// Per manifold: [`NONE`], [`BOUNCES`], [`STRUCK`] or [`LISTED`].
    kind: Vec<u8>,
    /// The cluster's manifolds with the time of their impact, in visiting order.
    order: Vec<(f32, u32)>,
    /// Per listed manifold (its one point, by order slot): the approach right after the
    /// take-back, and whether the point has been visited.
    approach0: Vec<f32>,
    visited: Vec<bool>,
}

/// Whether a listed manifold is in a cluster (done by [`resolve_clusters`]).
pub fn in_cluster(scratch: &ImpactScratch, i: usize) -> bool {
    scratch.kind.get(i) == Some(&LISTED)
}

/// Finds the clusters, takes their impulses back and redoes their impacts one pair at a
/// time (module docs). `bounces` says whether a point bounces this step; `threshold` is
/// the restitution threshold. Returns the visits made.
pub fn resolve_clusters(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    threshold: f32,
    bounces: impl Fn(&ConstraintPoint) -> bool,
    scratch: &mut ImpactScratch,
) -> usize {
    let ImpactScratch { count, kind, order, approach0, visited } = scratch;
    kind.clear();
    order.clear();
    let bounce = |c: &ContactConstraint| c.restitution > 0.0 && c.points[..c.count as usize].iter().any(&bounces);
    // Nothing bounces (most steps of most scenes): nothing to do.
    if !constraints.iter().any(bounce) {
        return 0;
    }
    count.clear();
    count.resize(bodies.len(), 0);
    kind.resize(constraints.len(), 0);
    let moving = |bodies: &[SolverBody], i: u32| bodies[i as usize].inv_mass > 0.0;
    // Per moving body: the one-point manifolds counted, or TAINTED when a face (more than
    // one point) bounces on it or is struck into, or another contact pushes it (below):
    // its impacts stay in the passes.
    let bump = |count: &mut Vec<u8>, bodies: &[SolverBody], c: &ContactConstraint| {
        for i in [c.a, c.b] {
            if moving(bodies, i) {
                let n = &mut count[i as usize];
                // A face, or a manifold with rolling resistance (whose angular impulse the
                // one-pair rounds do not redo), keeps its bodies out of clusters.
                *n = if c.count == 1 && c.rolling == 0.0 { n.saturating_add(1) } else { TAINTED };
            }
        }
    };
    for (i, c) in constraints.iter().enumerate() {
        if bounce(c) {
            kind[i] = BOUNCES;
            bump(count, bodies, c);
        }
    }
    // Struck into: took impulse, bounces nothing, on a body something bounces off.
    let struck_body = |count: &[u8], bodies: &[SolverBody], i: u32| moving(bodies, i) && count[i as usize] > 0;
    for (i, c) in constraints.iter().enumerate() {
        if kind[i] == NONE
            && c.restitution > 0.0
            && c.points[..c.count as usize].iter().any(|p| p.total_normal_impulse > 0.0)
            && (struck_body(count, bodies, c.a) || struck_body(count, bodies, c.b))
        {
            kind[i] = STRUCK;
        }
    }
    for (i, c) in constraints.iter().enumerate() {
        if kind[i] == STRUCK {
            bump(count, bodies, c);
        }
    }
    // No body with two (most bouncy steps: bounces on separate bodies): no cluster.
    if !count.iter().any(|&n| n > 1 && n != TAINTED) {
        kind.clear();
        return 0;
    }
    // A one-point manifold joins a cluster when one of its moving bodies has another, and no
    // other manifold pushed either body this step: one that does not bounce, a face, or one
    // left out itself — it would hold the bodies where the visits do not see it, so their
    // impacts stay in the passes (a 5 g box between a 3 kg one and the ground, its two
    // one-point contacts redone while the ground's stayed, was sent into the ground at
    // 9 m/s: fuzz seed 2001921, Cyclone). Repeated until no body is newly marked.
    let shared = |count: &[u8], bodies: &[SolverBody], i: u32| moving(bodies, i) && count[i as usize] > 1;
    let clean = |count: &[u8], bodies: &[SolverBody], i: u32| !moving(bodies, i) || count[i as usize] != TAINTED;
    let joins = |count: &[u8], kind: u8, c: &ContactConstraint| {
        kind != NONE
            && c.count == 1
            && (shared(count, bodies, c.a) || shared(count, bodies, c.b))
            && clean(count, bodies, c.a)
            && clean(count, bodies, c.b)
    };
    loop {
        let mut marked = false;
        for (i, c) in constraints.iter().enumerate() {
            let pushed = kind[i] != NONE || c.points[..c.count as usize].iter().any(|p| p.total_normal_impulse > 0.0);
            if pushed && !joins(count, kind[i], c) {
                for b in [c.a, c.b] {
                    if moving(bodies, b) && count[b as usize] != TAINTED {
                        count[b as usize] = TAINTED;
                        marked = true;
                    }
                }
            }
        }
        if !marked {
            break;
        }
    }
    for (i, c) in constraints.iter().enumerate() {
        if joins(count, kind[i], c) {
            // The time of the manifold's impact within the step (struck ones: after all).
            let when = c.points[..c.count as usize]
                .iter()
                .filter(|p| bounces(p) && p.relative_velocity < 0.0)
                .map(|p| (-p.depth).max(0.0) / -p.relative_velocity)
                .fold(f32::INFINITY, f32::min);
            kind[i] = LISTED;
            order.push((when, i as u32));
        }
    }
    if order.is_empty() {
        return 0;
    }
    order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));

    // Take the step's impulses back.
    for &(_, i) in order.iter() {
        let c = &mut constraints[i as usize];
        // The effective masses (a one-pass method may not have needed them).
        c.compute_masses(bodies);
        let (a, b) = pair_mut(bodies, c.a, c.b);
        for p in c.points[..c.count as usize].iter_mut() {
            Row::new(a, b, p.ra, p.rb, c.normal).apply(a, b, c.normal, -p.total_normal_impulse);
            Row::new(a, b, p.ra, p.rb, c.t1).apply(a, b, c.t1, -p.total_tangent_impulse[0]);
            Row::new(a, b, p.ra, p.rb, c.t2).apply(a, b, c.t2, -p.total_tangent_impulse[1]);
            // During the rounds the accumulated impulses are the step's.
            p.normal_impulse = 0.0;
            p.tangent_impulse = [0.0; 2];
            p.compression_impulse = 0.0;
        }
    }
    // Each listed manifold has one point (the rule above).
    approach0.clear();
    visited.clear();
    let mut fastest = 0.0f32;
    for &(_, i) in order.iter() {
        let c = &constraints[i as usize];
        let (a, b, p) = (&bodies[c.a as usize], &bodies[c.b as usize], &c.points[0]);
        let u = -Row::new(a, b, p.ra, p.rb, c.normal).velocity(a, b, c.normal);
        fastest = fastest.max(u);
        approach0.push(u);
        visited.push(false);
    }
    let tolerance = RESTITUTION_TOLERANCE * fastest;

    let mut visits = 0usize;
    for _ in 0..MAX_ROUNDS {
        let mut visited_any = false;
        for (slot, &(_, i)) in order.iter().enumerate() {
            let c = &mut constraints[i as usize];
            let (a, b) = pair_mut(bodies, c.a, c.b);
            let (n, e, friction, t) = (c.normal, c.restitution, c.friction, (c.t1, c.t2));
            let p = &mut c.points[0];
            // Does the point approach now, and where is it sent?
            let u = -Row::new(a, b, p.ra, p.rb, n).velocity(a, b, n);
            if u <= tolerance {
                continue;
            }
            let target = if bounces(p) && !visited[slot] {
                (p.rebound + e * (u - approach0[slot])).max(0.0)
            } else if u > threshold {
                e * u
            } else {
                0.0
            };
            visited[slot] = true;
            p.compression_impulse += p.normal_mass * u;
            visited_any = true;
            visits += 1;
            // Poisson's bound with friction (Kane's paradox): the restitution no more than
            // `e` times the compression (times the rebound's own gain over Newton's e·u).
            let limit = if friction > 0.0 {
                let gain = if bounces(p) && e * p.relative_velocity < 0.0 {
                    (p.rebound / (-e * p.relative_velocity)).max(1.0)
                } else {
                    1.0
                };
                (1.0 + e * gain) * p.compression_impulse
            } else {
                f32::INFINITY
            };
            // The normal row to its target, with the friction rows in the same passes.
            let r = Row::new(a, b, p.ra, p.rb, n);
            for _ in 0..VISIT_PASSES {
                let mut change = 0.0f32;
                if friction > 0.0 {
                    let d = super::iterative::friction_rows(a, b, t, friction, p);
                    change = d[0].abs().max(d[1].abs());
                }
                let old = p.normal_impulse;
                let room = (limit - old).max(0.0);
                let new = (old - p.normal_mass * (r.velocity(a, b, n) - target)).max(0.0).min(old + room);
                p.normal_impulse = new;
                r.apply(a, b, n, new - old);
                change = change.max((new - old).abs());
                if change <= RESTITUTION_TOLERANCE * new {
                    break;
                }
            }
        }
        if !visited_any {
            break;
        }
    }
    // The step's totals; no warm start for points bouncing apart.
    for &(_, i) in order.iter() {
        let c = &mut constraints[i as usize];
        for p in c.points[..c.count as usize].iter_mut() {
            p.total_normal_impulse = p.normal_impulse;
            p.total_tangent_impulse = p.tangent_impulse;
            p.normal_impulse = 0.0;
            p.tangent_impulse = [0.0; 2];
        }
    }
    visits
}
