//! The solve of one pair, pass by pass (for the worked examples, `contactlab explain`):
//! with [`World::trace_pair_solve`] set to a pair, a soft step runs its solve passes one
//! call at a time, as the convergence record does (bit-identical to one call for all of
//! them, `solver::iterative::PassCounter`), and after each pass copies the pair's
//! constraint as the method holds it: the accumulated normal and friction impulses of each
//! point. The constraint after `prepare` (lever arms, effective masses, the approach speed
//! and the bounce it aims at) and after the restitution pass are kept too.
//!
//! Only methods that keep the step's constraints as plain scalar rows can be read this
//! way: the scalar iterative solver (the textbook path, `Settings::simd` off). The SIMD
//! solver holds them in lanes, and the one-pass methods solve in one call; for those the
//! trace stays empty and the stored impulses tell what the step did. The constraint
//! followed is the pair's main contact (a body on a triangle mesh has one per normal
//! group). In the earliest-collision mode the step runs once per cut: the passes of every
//! cut follow each other (substeps numbered per cut), `prepared` is the first cut's.

use super::World;
use crate::physics::solver::ContactConstraint;

/// Which pass of a soft step a [`PassRecord`] follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassKind {
    /// A biased solve pass (`iteration` 1 to `iterations`) of a substep.
    Solve,
    /// The substep's relax passes, all of them.
    Relax,
    /// The restitution pass after the last substep.
    Restitution,
}

/// The pair's accumulated impulses after one pass.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PassRecord {
    /// Substep, from 1 (the restitution pass: the last substep).
    pub substep: u32,
    /// Which pass.
    pub kind: PassKind,
    /// Solve pass number within the substep, from 1 (0 for relax and restitution).
    pub iteration: u32,
    /// Each point's accumulated normal impulse (N·s, this substep's).
    pub normal: [f32; 4],
    /// Each point's accumulated friction impulses along the constraint's two tangents.
    pub tangent: [[f32; 2]; 4],
}

/// The traced solve of one pair in the last step ([`World::pair_solve`]).
#[derive(Clone, Debug, Default)]
pub struct PairSolve {
    /// Body A (lower index) and B.
    pub pair: (u32, u32),
    /// The pair's main contact (index in the world's contacts) this step.
    contact: Option<u32>,
    /// The constraint after `prepare`: normal, tangents, friction, restitution, softness and
    /// per point the lever arms, effective masses, depth, approach speed and bounce target.
    pub prepared: Option<ContactConstraint>,
    /// Every pass in order.
    pub passes: Vec<PassRecord>,
    /// The constraint after the step (totals over the step, restitution included).
    pub finished: Option<ContactConstraint>,
}

impl PairSolve {
    fn capture(&mut self, c: &ContactConstraint, substep: u32, kind: PassKind, iteration: u32) {
        let mut rec = PassRecord { substep, kind, iteration, normal: [0.0; 4], tangent: [[0.0; 2]; 4] };
        for (k, p) in c.points[..c.count as usize].iter().enumerate() {
            rec.normal[k] = p.normal_impulse;
            rec.tangent[k] = p.tangent_impulse;
        }
        self.passes.push(rec);
    }
}

impl World {
    /// Traces the solve of pair (a, b), either order, from the next step on (None: stop).
    /// See the module docs for the methods it reads.
    pub fn trace_pair_solve(&mut self, pair: Option<(u32, u32)>) {
        self.solve_trace = pair.map(|(a, b)| Box::new(PairSolve { pair: (a.min(b), a.max(b)), ..Default::default() }));
    }

    /// The traced solve of the last step, when [`World::trace_pair_solve`] is set.
    pub fn pair_solve(&self) -> Option<&PairSolve> {
        self.solve_trace.as_deref()
    }

    /// The method's copy of the traced pair's constraint, if it keeps scalar rows.
    fn traced_constraint(&self) -> Option<ContactConstraint> {
        let contact = self.solve_trace.as_ref()?.contact?;
        self.methods.get_ref(&self.settings).scalar_constraint(contact)
    }

    /// Empties the trace at the start of a step (a step of a one-pass method leaves it so).
    pub(super) fn trace_begin_step(&mut self) {
        if let Some(t) = &mut self.solve_trace {
            t.passes.clear();
            t.prepared = None;
            t.finished = None;
            t.contact = None;
        }
    }

    /// Starts the trace of a soft step (or of one cut of it), after `prepare`.
    pub(super) fn trace_prepared(&mut self) {
        let Some((a, b)) = self.solve_trace.as_ref().map(|t| t.pair) else { return };
        let contact = self.pair_contact_index(a, b).map(|i| i as u32);
        if let Some(t) = &mut self.solve_trace {
            t.contact = contact;
        }
        let c = self.traced_constraint();
        if let Some(t) = &mut self.solve_trace {
            if t.prepared.is_none() {
                t.prepared = c;
            }
        }
    }

    /// Records the traced pair after a pass.
    pub(super) fn trace_pass(&mut self, substep: u32, kind: PassKind, iteration: u32) {
        let Some(c) = self.traced_constraint() else { return };
        if let Some(t) = &mut self.solve_trace {
            t.capture(&c, substep, kind, iteration);
        }
    }

    /// Records the traced pair after the restitution pass and the step's end. When the
    /// world ran a restitution pass, the scalar method left its rows in the world's
    /// constraints; else its own copy holds them.
    pub(super) fn trace_finished(&mut self, substep: u32) {
        // Only a method with scalar rows is traced.
        let Some(own) = self.traced_constraint() else { return };
        let stored = self.constraints.iter().find(|c| c.contact == own.contact).copied();
        let c = if self.bouncy { stored.unwrap_or(own) } else { own };
        let Some(t) = &mut self.solve_trace else { return };
        if self.bouncy && c.restitution > 0.0 {
            t.capture(&c, substep, PassKind::Restitution, 0);
        }
        t.finished = Some(c);
    }
}
