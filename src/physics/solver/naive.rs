//! Naive resolution (seed design §4.1; Millington ch. 7 before iteration is introduced).
//!
//! For every contact point, in detection order, once: if the bodies approach there
//! (`vn < 0`) and the point actually penetrates, apply `j = −(1 + e)·vn·m_eff` along the
//! normal (e = 0 below the restitution threshold). Later points see the velocities already
//! changed by earlier ones, and nothing is revisited — that is what makes it naive. No friction. Then each manifold's deepest
//! penetration beyond slop is projected away linearly, split by inverse mass.
//!
//! What to expect: exact for one isolated contact (momentum conserved, restitution
//! honoured); in stacks, points resolved early are undone by later ones, so boxes jitter
//! and sink. The testbed shows this side by side with the iterative method.

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
        solve_velocities(constraints, bodies, step.settings.restitution_threshold);
    }

    fn correct_positions(
        &mut self,
        constraints: &mut [ContactConstraint],
        bodies: &[SolverBody],
        settings: &Settings,
        moves: &mut PositionMoves,
    ) {
        project_positions(constraints, bodies, settings, &mut moves.linear);
    }
}

/// Applies one normal impulse per approaching, penetrating point. Restitution applies only
/// where the approach is faster than `threshold` (as in the iterative method): otherwise a
/// resting bouncy box would bounce off the speed gravity gave it this step, and each step
/// would lift it (the fuzzer measured energy rising in resting stacks).
pub fn solve_velocities(constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], threshold: f32) {
    for c in constraints.iter_mut() {
        let (a, b) = pair_mut(bodies, c.a, c.b);
        for p in c.points[..c.count as usize].iter_mut() {
            if p.depth < 0.0 {
                continue;
            }
            let vn = relative_velocity(a, b, p.ra, p.rb).dot(c.normal);
            if vn >= 0.0 {
                continue;
            }
            let m = effective_mass(a, b, p.ra, p.rb, c.normal);
            let e = if vn < -threshold { c.restitution } else { 0.0 };
            let j = -(1.0 + e) * vn * m;
            a.apply(-c.normal * j, p.ra);
            b.apply(c.normal * j, p.rb);
            p.normal_impulse = j;
            p.total_normal_impulse = j;
            p.max_normal_impulse = j;
        }
    }
}

/// Linear projection of each manifold's deepest penetration, split by inverse mass.
/// Returns position moves per body through `moves` (indexed like `bodies`).
pub fn project_positions(
    constraints: &[ContactConstraint],
    bodies: &[SolverBody],
    settings: &Settings,
    moves: &mut [glam::Vec3],
) {
    for c in constraints {
        let depth = c.points[..c.count as usize].iter().map(|p| p.depth).fold(f32::NEG_INFINITY, f32::max);
        let (ia, ib) = (bodies[c.a as usize].inv_mass, bodies[c.b as usize].inv_mass);
        if depth <= settings.slop || ia + ib == 0.0 {
            continue;
        }
        let corr = glam::Vec3::from(c.normal) * ((depth - settings.slop) * settings.naive_correction / (ia + ib));
        moves[c.a as usize] -= corr * ia;
        moves[c.b as usize] += corr * ib;
    }
}
