//! Averaged micro-collisions, as in Homer's simulator (seed: Homer's thread on the ObjAsm32
//! forum, 2008). One pass per step ([`Schedule::Once`]), velocities first.
//!
//! For each touching pair, in detection order, every point that approaches (`vn < 0`, n
//! from A to B) and touches this step — it penetrates (depth ≥ 0), or it bounces and the
//! approach closes its speculative gap within the step — is resolved on its own, from the same pre-collision
//! velocities: `j_i = −(1 + e)·vn_i·m_eff,i` along n (the naive impulse). The velocity
//! changes each impulse would cause (`±j_i·n/m`, `±I⁻¹(r_i × j_i·n)` per body) are summed
//! per body and their average is applied — "the average of the effect of the impulses",
//! which is the effect of the mean impulse applied at the points. A box dropped flat hits
//! with four corners; their rotations cancel in the average, so it bounces straight up
//! without spin by construction.
//!
//! The average alone under-bounces (each corner's m_eff counts the rotation it would cause,
//! which the average then cancels). The seed's final form rescales: one factor s on the
//! averaged normal effects so that the pair's mean normal closing velocity at those points
//! comes out as `−e` times the incoming one, `s = (−(1 + e)·v̄_in − Δv̄_friction)/Δv̄_normal`
//! (here: `s = (v̄⁺ − v̄_in − Δv̄_friction)/Δv̄_normal` with the rebound v̄⁺ of the
//! departures below).
//! Restitution follows the other methods' threshold: e = 0 unless a point's speed at the
//! moment of impact is over `Settings::restitution_threshold`.
//!
//! Two departures from the seed, both found by the fuzzer (docs/physics.md §8), both only
//! lowering the rebound:
//! - The rebound is the mean of the points' rebounds (prepare's, [`super::bounce`]): `e`
//!   times each point's speed at the moment of impact inside the step, measured with the
//!   integrator's energy so that the apex after a bounce is `e²` times the one before. The
//!   seed winds time back to the moment of impact; here the step adds gravity, then
//!   resolves, then moves the bodies, and a rebound of the speed after gravity, carried up a
//!   whole step unslowed, gained about `2·m·g·|v|·dt` per bounce (a fuzz regression case: a
//!   264 kg capsule, +80 J in its bounce step). A touching point that was not approaching
//!   when the step began but is when its pair's turn comes was struck into by an earlier
//!   pair (a ball driven into a wall): it bounces too, from that approach, when it is over
//!   the threshold (before, it stopped, and a gas of elastic spheres lost 0.25 % in 20 s).
//!   A point that does not bounce stops.
//! - Poisson's bound: the restitution part of the normal effect is at most e times the
//!   compression part (the effect that, with the friction, stops the mean approach): when
//!   friction adds `Δv̄_f > 0` to the closing velocity the rebound is lowered by `e·Δv̄_f`.
//!   Newton's rule alone bounces the approach a spin gives the points while friction takes
//!   the spin away (Kane's paradox).
//!
//! Friction: the seed had only a damping scalar ("at the moment, friction is implemented as
//! simply a dampening scalar"). Chosen here, in the method's spirit: each point's Coulomb
//! impulse, computed from the same pre-collision velocities, stops its slip
//! (`|vt|·m_eff(u)` against the slip direction u), capped at `μ·j_i`, and is averaged with the
//! normal effects; it is not rescaled.
//!
//! Positions: the seed has no penetration correction (it winds time back to the moment of
//! impact instead), so the naive linear projection is used
//! ([`super::naive::project_positions`], after the positions are integrated), paid for as
//! in the naive method (a body it lifts while it still sinks gives up that height's energy
//! from its sinking motion).
//!
//! Cost: one effective mass per point and direction, one pass; no iteration.
//!
//! # Where it fails
//! - Stacks: pairs are resolved one after another, each from the velocities the previous
//!   pairs left, with no iteration; a box resting on another is pushed into it by the box
//!   above, and the naive projection lifts only each pair's deepest point by a fraction:
//!   columns sink into themselves. Measured over 10 s without sleeping: the top box of
//!   scenes/stack_10.ron ends 4.8 m low, that of scenes/naive_stack.ron 2.1 m (the
//!   iterative method: 6 mm and 2 mm).
//! - Friction: averaging divides each point's friction by the number of points, so a box
//!   on four corners gets a quarter of the grip that stops the slip at every corner; boxes
//!   on slopes creep, and a spinning contact is braked as if by one point.
//! - Uneven contacts: the rescale targets the mean closing velocity; when one point
//!   approaches fast and another not at all (an edge landing), the mean bounce is right
//!   but the spin after it is only the average's. The seed notes too much energy when the
//!   angular velocity is a large share of the closing velocity (Poisson's bound above
//!   removes the part of it friction causes).
//! - No rolling resistance (`BodyDesc::rolling_resistance`): the seed has none, and a ball
//!   rolls on (the iterative methods model it).

use super::bounce::Impact;
use super::{
    effective_mass, naive::Naive, pair_mut, relative_velocity, ContactConstraint, PositionMoves, Resolver, Schedule,
    Settings, SolverBody, StepInfo,
};
use glam::Vec3A;

/// The averaged method as a [`Resolver`]: [`solve_pair`] for every constraint, then the
/// naive projection after the positions are integrated.
#[derive(Clone, Copy, Debug, Default)]
pub struct Averaged;

impl Resolver for Averaged {
    fn schedule(&self) -> Schedule {
        Schedule::Once { positions_first: false }
    }

    /// The naive method's preparation: every point's effective masses.
    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, settings: &Settings) {
        Naive.prepare(constraints, bodies, settings);
    }

    fn solve(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], step: &StepInfo) {
        for c in constraints.iter_mut() {
            solve_pair(c, bodies, step.h, step.settings.restitution_threshold);
        }
    }

    /// The naive method's projection (the seed has no position correction).
    fn correct_positions(
        &mut self,
        constraints: &mut [ContactConstraint],
        bodies: &[SolverBody],
        settings: &Settings,
        moves: &mut PositionMoves,
    ) {
        Naive.correct_positions(constraints, bodies, settings, moves);
    }
}

/// Velocity changes of the two bodies of a pair (linear and angular, A then B).
#[derive(Clone, Copy, Default)]
struct Effect {
    va: Vec3A,
    wa: Vec3A,
    vb: Vec3A,
    wb: Vec3A,
}

impl Effect {
    /// Adds the effect of impulse `j` applied +j to B at `rb`, −j to A at `ra`.
    fn add(&mut self, a: &SolverBody, b: &SolverBody, ra: Vec3A, rb: Vec3A, j: Vec3A) {
        self.va -= j * a.inv_mass;
        self.wa -= a.inv_i * ra.cross(j);
        self.vb += j * b.inv_mass;
        self.wb += b.inv_i * rb.cross(j);
    }

    fn scaled(&self, s: f32) -> Effect {
        Effect { va: self.va * s, wa: self.wa * s, vb: self.vb * s, wb: self.wb * s }
    }

    /// Change of the normal closing velocity at lever arms ra, rb.
    fn closing(&self, ra: Vec3A, rb: Vec3A, n: Vec3A) -> f32 {
        ((self.vb + self.wb.cross(rb)) - (self.va + self.wa.cross(ra))).dot(n)
    }
}

/// Resolves one pair (module docs) and records each point's share of the impulse; `h` is
/// the step, `threshold` the restitution threshold (a touching point struck into by an
/// earlier pair bounces when its approach is over it).
pub fn solve_pair(c: &mut ContactConstraint, bodies: &mut [SolverBody], h: f32, threshold: f32) {
    let (sa, sb) = (bodies[c.a as usize], bodies[c.b as usize]);
    let n = c.normal;
    let count = c.count as usize;
    // The points that take part — penetrating, or bouncing and speculative with a gap this
    // step's approach closes — their approach velocities, all from the same state, and the
    // normal velocity each should leave with: its rebound if it bounces, else at rest.
    let mut hit = [false; 4];
    let mut vin = [0.0f32; 4];
    let mut hits = 0usize;
    let (mut mean_in, mut mean_target, mut bounces) = (0.0, 0.0, false);
    for (k, p) in c.points[..count].iter_mut().enumerate() {
        p.normal_impulse = 0.0;
        p.tangent_impulse = [0.0; 2];
        let vn = relative_velocity(&sa, &sb, p.ra, p.rb).dot(n);
        let gap = -p.depth;
        if vn < 0.0 && (gap <= 0.0 || (p.rebound > 0.0 && -vn * h >= gap)) {
            hit[k] = true;
            vin[k] = vn;
            hits += 1;
            mean_in += vn;
            // The rebound from the approach the pair has now (an earlier pair of this pass may
            // have changed it since prepare). A touching point that was not approaching when
            // the step began but is now was struck into: it bounces too (as in the naive
            // method), when that approach is over the threshold.
            let impact = Impact::after_gravity(vn, gap, p.closing, h);
            let struck = c.restitution > 0.0 && gap <= 0.0 && impact.over(threshold);
            let bounce = p.rebound > 0.0 || struck;
            bounces |= bounce;
            mean_target += if bounce { impact.before_move(c.restitution) } else { 0.0 };
        }
    }
    if hits > 0 {
        let inv = 1.0 / hits as f32;
        mean_in *= inv;
        mean_target *= inv;
        let e = if bounces { c.restitution } else { 0.0 };
        let (mut normal, mut friction) = (Effect::default(), Effect::default());
        let mut impulses = [(0.0f32, Vec3A::ZERO); 4];
        for k in (0..count).filter(|&k| hit[k]) {
            let p = &c.points[k];
            let j = -(1.0 + e) * vin[k] * p.normal_mass;
            normal.add(&sa, &sb, p.ra, p.rb, n * j);
            let v = relative_velocity(&sa, &sb, p.ra, p.rb);
            let vt = v - n * v.dot(n);
            let slip = vt.length();
            let mut f = Vec3A::ZERO;
            if slip > 1e-9 && c.friction > 0.0 {
                let u = vt / slip;
                let jt = (slip * effective_mass(&sa, &sb, p.ra, p.rb, u)).min(c.friction * j);
                f = -u * jt;
                friction.add(&sa, &sb, p.ra, p.rb, f);
            }
            impulses[k] = (j, f);
        }
        let (normal, friction) = (normal.scaled(inv), friction.scaled(inv));
        // The rescale: mean closing velocity after = the rebound (module docs).
        let (mut dn, mut df) = (0.0, 0.0);
        for k in (0..count).filter(|&k| hit[k]) {
            let p = &c.points[k];
            dn += normal.closing(p.ra, p.rb, n);
            df += friction.closing(p.ra, p.rb, n);
        }
        let (dn, df) = (dn * inv, df * inv);
        // The points' mean rebound (e times the speed at the moment of impact, measured with
        // the integrator's energy, `bounce.rs`), less e times what friction adds to the
        // closing velocity (Poisson's bound: the restitution part of the normal effect at
        // most e times the compression part, which with friction stops the approach).
        let rebound = if bounces { (mean_target - e * df.max(0.0)).max(0.0) } else { mean_target };
        // At most the number of points: the impulses then add up to the sum of the point
        // impulses, each as if alone. (When the averaged rotations nearly cancel the
        // closing-velocity change, the factor would grow without bound.)
        let s = if dn > 0.0 { ((rebound - mean_in - df) / dn).clamp(0.0, hits as f32) } else { 1.0 };
        let (a, b) = pair_mut(bodies, c.a, c.b);
        if sa.inv_mass > 0.0 {
            a.v += normal.va * s + friction.va;
            a.w += normal.wa * s + friction.wa;
        }
        if sb.inv_mass > 0.0 {
            b.v += normal.vb * s + friction.vb;
            b.w += normal.wb * s + friction.wb;
        }
        for (k, p) in c.points[..count].iter_mut().enumerate() {
            let (j, f) = impulses[k];
            p.normal_impulse = j * s * inv;
            p.tangent_impulse = [f.dot(c.t1) * inv, f.dot(c.t2) * inv];
        }
    }
    for p in &mut c.points[..count] {
        p.total_normal_impulse = p.normal_impulse;
        p.total_tangent_impulse = p.tangent_impulse;
        p.max_normal_impulse = p.normal_impulse;
    }
}
