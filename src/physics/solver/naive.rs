//! Naive resolution (seed design §4.1; Millington ch. 7 before iteration is introduced).
//!
//! For every contact point, in detection order, once: if the bodies approach there
//! (`vn < 0`) and the point actually penetrates, apply the one impulse along the normal
//! that leaves the point separating at `v⁺ = max(0, −e·vn₀ − |g·n|·dt)`:
//! `j = (v⁺ − vn)·m_eff`. `vn₀` is the approach speed before this step's gravity, and `e`
//! is 0 unless `vn₀` is faster than the restitution threshold; e = 0 gives the textbook
//! `j = −vn·m_eff`. Later points see the velocities already changed by earlier ones, and
//! nothing is revisited — that is what makes it naive. No friction. Then, after the bodies
//! moved, each manifold's deepest penetration beyond slop is projected away linearly, split
//! by inverse mass — the penetration still left after the step's motion, never more than
//! detection measured.
//!
//! Why the rebound and the projection are measured that way (docs/physics.md, the fuzzer):
//! the step adds gravity before the impulse and moves the bodies after it, so a rebound of
//! the speed *after* gravity, carried up for a whole step that gravity no longer slows,
//! gave a bouncing body about `2·m·g·|v|·dt` per bounce; and a projection of the depth
//! detection measured lifted bodies that the rebound had already carried out of the
//! ground, a second time, as potential energy nothing paid for. Both made energy in the
//! fuzzer's piles and stacks (20 of the 21 naive runs over the bound in its long run once
//! a narrow-phase fault was fixed).
//!
//! The projection is paid for: a body it lifts against gravity by `h` while the body still
//! sinks on into the contact loses `m·|g|·h` of that sinking motion (to none at most;
//! `World::apply_moves`). Unpaid, a body falling into a contact the one pass does not stop
//! was lifted back each step while it kept its speed, the height given back as energy
//! nothing paid for (fuzz seed 1000266: the upper of two boxes tipping off the lower one,
//! held about 7 cm into it, +1.05 % of the energy scale over 113 steps). A body at rest or
//! already leaving (a rebound) pays nothing and is lifted as before.
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
        solve_velocities(constraints, bodies, step.settings.restitution_threshold, step.gravity * step.h);
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

/// Applies one normal impulse per approaching, penetrating point (module docs).
/// `gravity_dv` is the velocity this step's gravity added to every moving body (`g·dt`),
/// before the impulses.
///
/// Restitution reflects the approach speed the pair had before that gravity, and only
/// where it is faster than `threshold` (as in the iterative method): otherwise a resting
/// bouncy box would bounce off the speed gravity gave it this step, and each step would
/// lift it (fuzz seed 91). The rebound then pays this step's gravity, `|g·n|·dt`, as a
/// body thrown up pays it in free flight: the step moves the bodies after the impulse, and
/// a rebound not slowed by this step's gravity rose a whole step for free (fuzz seeds
/// 42, 1000091, 1000688: +2·m·g·|v|·dt per bounce at e = 1).
pub fn solve_velocities(
    constraints: &mut [ContactConstraint],
    bodies: &mut [SolverBody],
    threshold: f32,
    gravity_dv: glam::Vec3A,
) {
    for c in constraints.iter_mut() {
        let (a, b) = pair_mut(bodies, c.a, c.b);
        // Gravity's part of the relative normal velocity (bodies of inverse mass 0 — static
        // or asleep — got none), and of the rebound.
        let felt = |inv_mass: f32| if inv_mass > 0.0 { gravity_dv } else { glam::Vec3A::ZERO };
        let gravity_vn = (felt(b.inv_mass) - felt(a.inv_mass)).dot(c.normal);
        let gravity_pull = gravity_dv.dot(c.normal).abs();
        for p in c.points[..c.count as usize].iter_mut() {
            if p.depth < 0.0 {
                continue;
            }
            let vn = relative_velocity(a, b, p.ra, p.rb).dot(c.normal);
            if vn >= 0.0 {
                continue;
            }
            let approach = vn - gravity_vn;
            let target = if approach < -threshold { (-c.restitution * approach - gravity_pull).max(0.0) } else { 0.0 };
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
                let now = -(c.normal.dot((b.dp - a.dp) + (b.dq * p.rb - a.dq * p.ra)) + p.adjusted_separation);
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
