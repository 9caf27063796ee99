//! The convergence record (MuJoCo's solver plot): with [`World::record_convergence`] on,
//! each solve pass of an iterative method is run on its own and the sum over all contact
//! points of |Δλₙ| (the change of the accumulated normal impulse, N·s) is recorded per pass.
//!
//! Running the passes one call at a time gives bit-identical results to one call for all of
//! them (each call counts its passes the same way, `solver::iterative::PassCounter`), so the
//! record only costs reading the impulses around each pass. Relax passes are not recorded
//! (their last pass ends the substep). One-pass methods record nothing.

use super::World;
use crate::physics::solver::StepInfo;

impl World {
    /// Per solve pass of the last step (all substeps in order): Σ|Δλₙ| over the contact
    /// points (N·s). Empty unless [`World::record_convergence`] was on, or for one-pass
    /// methods.
    pub fn convergence(&self) -> &[f32] {
        &self.convergence
    }

    /// The moves of the last position-correction stage (per body: translation and rotation
    /// vector; zero for bodies it did not move, and for methods without such a stage).
    pub fn position_moves(&self) -> &crate::physics::solver::PositionMoves {
        &self.moves
    }

    /// The solve stage of substep `substep` (from 1), one call per pass: records each
    /// pass's impulse change (with [`World::record_convergence`]) and the traced pair's
    /// impulses (`world/solve_trace.rs`).
    pub(super) fn solve_recording(&mut self, h: f32, substep: u32) {
        let one = crate::physics::Settings { iterations: 1, ..self.settings };
        let step = StepInfo { settings: &one, h, gravity: self.gravity.into(), backward: self.backward_step() };
        for k in 0..self.settings.iterations.max(1) {
            let method = self.methods.get(&self.settings);
            let (before, after) = &mut self.convergence_scratch;
            before.clear();
            method.normal_impulses(before);
            method.solve(&mut self.constraints, &mut self.solver_bodies, &step);
            after.clear();
            method.normal_impulses(after);
            if self.record_convergence {
                self.convergence.push(before.iter().zip(after.iter()).map(|(a, b)| (b - a).abs()).sum());
            }
            self.trace_pass(substep, super::solve_trace::PassKind::Solve, k + 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::physics::{BodyDesc, Settings, Shape, SolverMode, World};
    use glam::Vec3;

    /// A column of `n` unit cubes standing on a ground.
    fn column(settings: Settings, n: usize) -> World {
        let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), settings);
        let ground = Shape::cuboid(Vec3::new(5.0, 0.5, 5.0)).unwrap();
        w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -0.5, 0.0)).fixed()).unwrap();
        for i in 0..n {
            let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
            w.add_body(BodyDesc::new(format!("box{i}"), cube, Vec3::new(0.0, 0.5 + i as f32, 0.0))).unwrap();
        }
        w
    }

    fn bits(w: &World) -> Vec<u32> {
        w.bodies()
            .iter()
            .flat_map(|b| [b.pose.pos.to_array(), b.velocity.to_array(), b.angular_velocity.to_array()])
            .flatten()
            .map(f32::to_bits)
            .collect()
    }

    #[test]
    fn recording_changes_nothing_and_the_first_substep_carries_the_columns_weight() {
        for simd in [true, false] {
            let n = 5;
            let settings = Settings {
                mode: SolverMode::Iterative,
                simd,
                iterations: 20,
                warm_starting: false,
                ..Default::default()
            };
            let (mut plain, mut recorded) = (column(settings, n), column(settings, n));
            recorded.record_convergence = true;
            for _ in 0..3 {
                plain.step(1.0 / 60.0);
                recorded.step(1.0 / 60.0);
                assert_eq!(bits(&plain), bits(&recorded), "simd {simd}");
                assert!(plain.convergence().is_empty());
            }
            let passes = recorded.convergence();
            let it = settings.iterations as usize;
            assert_eq!(passes.len(), it * settings.substeps as usize);
            // Without warm starting each substep starts from zero impulses; the contact under
            // box k carries the n − k boxes above it: Σλ = Σₖ (n − k)·m·g·h, and the passes'
            // changes add up to at least that.
            let h = 1.0 / 60.0 / settings.substeps as f32;
            let m = recorded.bodies()[1].mass();
            let weight: f32 = (0..n).map(|k| (n - k) as f32 * m * 9.81 * h).sum();
            let first: f32 = passes[..it].iter().sum();
            assert!(first >= 0.95 * weight, "Σ|Δλ| {first} vs weight·h {weight}");
            // Gauss–Seidel converges, slowly on a column (each pass passes the weight one
            // box further). The floor's contact is solved last in each pass (its colour is
            // the highest, `solver::colouring`), so the first pass stops the lowest box alone
            // and the second, passing weight both ways, can change more; from the second
            // pass on every pass changes less than the one before, the 20th a tenth of the
            // largest.
            let (firsts, rest) = (passes[0].max(passes[1]), &passes[1..it]);
            assert!(rest.windows(2).all(|p| p[1] < p[0]), "{:?}", &passes[..it]);
            assert!(passes[it - 1] < 0.1 * firsts, "{:?}", &passes[..it]);
        }
    }
}
