//! Naive resolution (seed design §4.1; Millington ch. 7 before iteration is introduced).
//!
//! For every contact point, in detection order, once: if the bodies approach there
//! (`vn < 0`) and the point touches during this step — it penetrates, or it is a bouncing
//! speculative point whose gap `s` the approach closes within the step (`−vn·dt ≥ s`) —
//! apply the one impulse along the normal that leaves it at its target:
//! `j = (v⁺ − vn)·m_eff`. A bouncing point's target is its rebound: `e` times its speed at
//! the moment of impact, measured with the integrator's energy so that the apex after the
//! bounce is `e²` times the drop height ([`super::bounce`]; prepare sets it, and only when
//! that speed is over the restitution threshold). A touching point that did not approach
//! when the step began but does when its turn comes was struck into (a ball an earlier
//! point drove into a wall): it bounces too, from the approach it has then, when that is
//! over the threshold — the naive method is Newton's law one pair at a time, and each
//! such impulse keeps the energy at `e = 1` (before, the struck point stopped, and a gas of
//! elastic spheres lost 1 % in 20 s). Otherwise the point stops: `v⁺ = 0` (the
//! textbook `j = −vn·m_eff`); speculative points that do not bounce get nothing (no impulse
//! at a distance). Later points see the velocities already
//! changed by earlier ones, and nothing is revisited — that is what makes it naive. No
//! friction. Then, after the bodies moved, each manifold's deepest penetration beyond slop
//! is projected away linearly, split by inverse mass — the penetration still left after
//! the step's motion, never more than detection measured.
//!
//! Why the projection is measured that way (docs/physics.md, the fuzzer): a projection of
//! the depth detection measured lifted bodies that the rebound had already carried out of
//! the ground, a second time, as potential energy nothing paid for (20 of the 21 naive runs
//! over the bound in the fuzzer's long run once a narrow-phase fault was fixed).
//!
//! The projection is paid for: a body it lifts against gravity by `h` while the body still
//! sinks on into the contact loses `m·|g|·h` of that sinking motion (to none at most;
//! `World::apply_moves`). Unpaid, a body falling into a contact the one pass does not stop
//! was lifted back each step while it kept its speed, the height given back as energy
//! nothing paid for (a fuzz regression case: the upper of two boxes tipping off the lower
//! one). A body at rest or already leaving (a rebound) pays nothing and is lifted as before.
//!
//! What to expect: exact for one isolated contact (momentum conserved, restitution
//! honoured); in stacks, points resolved early are undone by later ones, so boxes jitter
//! and sink. The testbed shows this side by side with the iterative method.
//! No friction, so no rolling resistance either (`BodyDesc::rolling_resistance`).

use super::bounce::Impact;
use super::{
    effective_mass, pair_mut, relative_velocity, ContactConstraint, PositionMoves, Resolver, Schedule, Settings,
    SolverBody, StepInfo,
};

/// The naive method as a [`Resolver`]: [`solve_velocities`], then, after the positions are
/// integrated, [`project_positions`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Naive;

impl Resolver for Naive {
    fn schedule(&self) -> Schedule {
        Schedule::Once { positions_first: false }
    }

    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, _settings: &Settings) {
        for c in constraints {
            c.compute_masses(bodies);
        }
    }

    fn solve(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], step: &StepInfo) {
        solve_velocities(constraints, bodies, step.h, step.settings.restitution_threshold);
    }

    fn correct_positions(
        &mut self,
        constraints: &mut [ContactConstraint],
        bodies: &[SolverBody],
        settings: &Settings,
        moves: &mut PositionMoves,
    ) {
        project_positions(constraints, bodies, settings, &mut moves.linear);
        moves.pay_lift = true;
    }
}

/// Applies one normal impulse per approaching point that touches this step (module docs):
/// a penetrating point, or a bouncing speculative one whose gap the approach closes
/// within `h`.
///
/// A bouncing point (prepare gave it a rebound: its speed at the moment of impact was over
/// the restitution threshold) leaves at its rebound — `e` times that speed, measured with
/// the integrator's energy ([`super::bounce`]) — taken from the approach it has when its
/// turn comes, so a body that an earlier point sent back into another still bounces off
/// it elastically; a touching point struck into by an earlier one (approaching now, not
/// when the step began) bounces from its approach now, over `threshold`. A point that does
/// not bounce stops (`vn = 0`).
pub fn solve_velocities(constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], h: f32, threshold: f32) {
    for c in constraints.iter_mut() {
        let (a, b) = pair_mut(bodies, c.a, c.b);
        for p in c.points[..c.count as usize].iter_mut() {
            let vn = relative_velocity(a, b, p.ra, p.rb).dot(c.normal);
            let gap = -p.depth;
            // A speculative point counts only if it bounces and this step's approach closes
            // its gap: it bounces at the moment of impact, not a step later from inside.
            if vn >= 0.0 || (gap > 0.0 && (p.rebound <= 0.0 || -vn * h < gap)) {
                continue;
            }
            // A bouncing point's rebound from the approach it has now: an earlier point of
            // this pass (a wall the body just bounced off) may have made it faster. A
            // touching point that was not approaching when the step began, but is now,
            // was struck into: it bounces too, when that approach is over the threshold.
            let impact = Impact::after_gravity(vn, gap, p.closing, h);
            let struck = c.restitution > 0.0 && gap <= 0.0 && impact.over(threshold);
            let target = if p.rebound > 0.0 || struck { impact.before_move(c.restitution) } else { 0.0 };
            let m = effective_mass(a, b, p.ra, p.rb, c.normal);
            let j = (target - vn) * m;
            a.apply(-c.normal * j, p.ra);
            b.apply(c.normal * j, p.rb);
            p.normal_impulse = j;
            p.total_normal_impulse = j;
            p.max_normal_impulse = j;
        }
    }
}

/// Linear projection of each manifold's deepest penetration beyond slop, split by inverse
/// mass. Returns position moves per body through `moves` (indexed like `bodies`).
///
/// A point's penetration is what is left of it after the step's motion (`bodies`' `dp`,
/// `dq`: the separation update of the iterative method), and never more than detection
/// measured: a pair the impulse already sends apart is not pushed apart again (a bouncing
/// body lifted by the depth it had already left gained that height as energy), and
/// penetration the motion made is left to the next step's detection and impulse.
pub fn project_positions(
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    settings: &Settings,
    moves: &mut [glam::Vec3],
) {
    for c in constraints {
        let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
        let (ia, ib) = (a.inv_mass, b.inv_mass);
        if ia + ib == 0.0 {
            continue;
        }
        let depth = c.points[..c.count as usize]
            .iter()
            .map(|p| {
                let now = -p.separation_now(c.normal, a, b, c.rounding);
                p.depth.min(now)
            })
            .fold(f32::NEG_INFINITY, f32::max);
        if depth <= settings.slop {
            continue;
        }
        let corr = glam::Vec3::from(c.normal) * ((depth - settings.slop) * settings.naive_correction / (ia + ib));
        moves[c.a as usize] -= corr * ia;
        moves[c.b as usize] += corr * ib;
    }
}
