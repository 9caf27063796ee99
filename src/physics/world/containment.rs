//! Containment of non-finite states: a body whose pose or velocity becomes NaN or infinite
//! is found at once and frozen, so it cannot poison the bodies it touches.
//!
//! Each step ends with one finiteness check per body ([`World::contain_after_step`]; per
//! dynamic body where the static bodies' records held through a soft step): the
//! thirteen numbers of its pose and velocities are reduced to `Σ (x − x)`, which is 0 when
//! all are finite and NaN otherwise — a few vector subtractions and adds per body, no
//! branch, no allocation. Only when that sum is not 0 does the slow path run: it finds the
//! bodies, works out the stage that produced the value from what the step left behind
//! ([`World::diagnose`]), freezes them and records a [`NonFinite`]. A step after an edit
//! (`World::body_mut`, a new body: anything that sets the broad phase dirty) also checks
//! before it starts, so a NaN set through the API is frozen before it can reach another body.
//!
//! A frozen body is asleep with zero velocities, keeps its last finite pose (the pose the
//! step began with, if the pose itself went bad) and takes no part in the broad phase, so it
//! has no contacts; the bodies it touched wake (they lost a support). It stays frozen until
//! the scene is reset or reloaded. The physics module
//! does not log: the testbed and the headless runner report each new [`NonFinite`] (log
//! warning, panel line, trace field, exit code).
//!
//! Limits: the stage is inferred, not observed (the first of the step's intermediate results
//! — boxes, manifolds, prepared constraints, impulses, position moves — that is non-finite
//! for the body; a value that arises inside the solver from finite inputs is blamed on
//! the integration). A body poisoned by another within the same step is frozen too, and
//! reported with its own stage.

use super::*;
use crate::physics::per_body;
use glam::Vec3A;

/// Where a non-finite state came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Set between steps: through [`World::body_mut`], [`World::add_body`] or the panel.
    Edit,
    /// Produced during a step by this stage.
    Stage(Stage),
}

impl Origin {
    /// Display name: the stage's, or "an edit between steps".
    pub fn name(self) -> &'static str {
        match self {
            Origin::Edit => "an edit between steps",
            Origin::Stage(s) => s.name(),
        }
    }
}

/// A body whose state became non-finite and was frozen.
#[derive(Clone, Debug, PartialEq)]
pub struct NonFinite {
    /// Body index.
    pub body: u32,
    /// Body name.
    pub name: String,
    /// The step during which it was found (1 = the first step; for an edit, the step about
    /// to run), as in the trace's `step`.
    pub step: u64,
    /// The stage that produced it.
    pub origin: Origin,
    /// Which parts of the state were non-finite ("position", "rotation", "velocity",
    /// "angular velocity", comma separated).
    pub fields: String,
}

impl std::fmt::Display for NonFinite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "body '{}': non-finite {} in step {} (stage: {}); frozen (asleep, no contacts)",
            self.name,
            self.fields,
            self.step,
            self.origin.name()
        )
    }
}

/// The world's record of frozen bodies.
#[derive(Clone, Debug, Default)]
pub(super) struct Containment {
    /// Per body: frozen (sized on the first check after bodies are added).
    pub(super) frozen: Vec<bool>,
    /// Indices of the frozen bodies.
    list: Vec<u32>,
    /// Every freeze so far, in the order found.
    events: Vec<NonFinite>,
}

impl Containment {
    /// Heap bytes of a copy (for the history's budget).
    pub(super) fn heap_bytes(&self) -> usize {
        let text: usize = self.events.iter().map(|e| e.name.len() + e.fields.len()).sum();
        std::mem::size_of_val(self.frozen.as_slice())
            + std::mem::size_of_val(self.list.as_slice())
            + std::mem::size_of_val(self.events.as_slice())
            + text
    }

    /// Whether any body is frozen.
    #[inline]
    pub(super) fn any(&self) -> bool {
        !self.list.is_empty()
    }

    /// Whether body `i` is frozen.
    #[inline]
    pub(super) fn is_frozen(&self, i: u32) -> bool {
        self.frozen.get(i as usize).copied().unwrap_or(false)
    }
}

/// 0 when every number of the body's pose and velocities is finite, NaN otherwise
/// (`x − x` is NaN for NaN and ±∞).
// `x − x` on purpose: it is the test (0 for finite x, NaN otherwise), not a mistake.
#[allow(clippy::eq_op)]
#[inline]
fn nonfinite_sum(b: &Body) -> f32 {
    let (p, v, w) = (Vec3A::from(b.pose.pos), Vec3A::from(b.velocity), Vec3A::from(b.angular_velocity));
    let q = glam::Vec4::from(b.pose.rot);
    ((p - p) + (v - v) + (w - w)).element_sum() + (q - q).element_sum()
}

fn finite3(v: Vec3A) -> bool {
    v.is_finite()
}

impl World {
    /// Bodies frozen because their state became non-finite, in the order found.
    pub fn non_finite(&self) -> &[NonFinite] {
        &self.containment.events
    }

    /// Whether body `index` is frozen (see [`World::non_finite`]).
    pub fn is_frozen(&self, index: usize) -> bool {
        self.containment.is_frozen(index as u32)
    }

    /// Start of a step: after an edit, checks every body (a NaN set through the API is
    /// frozen before anything reads it); keeps the frozen bodies asleep and still (an edit,
    /// [`World::wake`] or sleeping switched off may have woken them).
    pub(super) fn contain_before_step(&mut self) {
        if self.containment.frozen.len() != self.bodies.len() {
            per_body::fit(&mut self.containment.frozen, self.bodies.len(), false);
        }
        if self.broad_dirty {
            self.contain(Some(Origin::Edit), self.step_count + 1, false);
        }
        for &i in &self.containment.list {
            let b = &mut self.bodies[i as usize];
            b.asleep = true;
            b.velocity = Vec3::ZERO;
            b.angular_velocity = Vec3::ZERO;
        }
    }

    /// End of a step (after `step_count` has advanced): one check per body. Where the
    /// static bodies' records held through a soft step (`world/movers.rs`: nothing edited
    /// them, and no stage of that step writes a static body; the one-pass methods' position
    /// moves and the earliest-collision mode's cuts reach every body), only the bodies the
    /// step visited and those it woke are checked: a static body, or one asleep all step, is
    /// as finite as when the check after its last edit or its last move found it.
    pub(super) fn contain_after_step(&mut self) {
        let only_dynamic = self.moves_only_solved() && self.movers.steady;
        self.contain(None, self.step_count, only_dynamic);
    }

    /// Checks every body (with `only_dynamic`, the dynamic ones); freezes and records the
    /// non-finite ones. `origin`: known (an edit), or `None` to infer the stage.
    fn contain(&mut self, origin: Option<Origin>, step: u64, only_dynamic: bool) {
        // Each block of bodies summed on the threads: whether any sum is not zero does not
        // depend on how the bodies were cut.
        let bad = std::sync::atomic::AtomicBool::new(false);
        let bodies = &self.bodies;
        if only_dynamic {
            for visit in self.movers.visited_and_woken() {
                self.workers.for_blocks(visit.len(), MIN_BODIES, |_, r| {
                    if visit[r].iter().map(|&i| nonfinite_sum(&bodies[i as usize])).sum::<f32>() != 0.0 {
                        bad.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                });
            }
        } else {
            self.workers.for_blocks(bodies.len(), MIN_BODIES, |_, r| {
                if bodies[r].iter().map(nonfinite_sum).sum::<f32>() != 0.0 {
                    bad.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            });
        }
        if !bad.into_inner() {
            return;
        }
        for i in 0..self.bodies.len() {
            if nonfinite_sum(&self.bodies[i]) == 0.0 {
                continue;
            }
            let origin = origin.unwrap_or_else(|| Origin::Stage(self.diagnose(i)));
            self.freeze(i, origin, step);
        }
    }

    /// Freezes body `i` (module docs) and records why.
    fn freeze(&mut self, i: usize, origin: Origin, step: u64) {
        let start = self.start_poses.get(i).copied().filter(|p| p.pos.is_finite() && p.rot.is_finite());
        let b = &mut self.bodies[i];
        let mut fields = Vec::new();
        for (name, ok) in [
            ("position", b.pose.pos.is_finite()),
            ("rotation", b.pose.rot.is_finite()),
            ("velocity", b.velocity.is_finite()),
            ("angular velocity", b.angular_velocity.is_finite()),
        ] {
            if !ok {
                fields.push(name);
            }
        }
        if !b.pose.pos.is_finite() {
            b.pose.pos = start.map_or(Vec3::ZERO, |s| s.pos);
        }
        if !b.pose.rot.is_finite() {
            b.pose.rot = start.map_or(glam::Quat::IDENTITY, |s| s.rot);
        }
        b.velocity = Vec3::ZERO;
        b.angular_velocity = Vec3::ZERO;
        b.asleep = true;
        b.sleep_time = 0.0;
        let event = NonFinite { body: i as u32, name: b.name.clone(), step, origin, fields: fields.join(", ") };
        let c = &mut self.containment;
        if c.frozen.len() <= i {
            c.frozen.resize(self.bodies.len(), false);
        }
        if !c.frozen[i] {
            c.frozen[i] = true;
            c.list.push(i as u32);
        }
        c.events.push(event);
        // The next broad phase starts afresh without the frozen body's pairs; the bodies it
        // touched lose their support, so they wake.
        self.broad_dirty = true;
        for k in 0..self.contacts.len() {
            let (a, b, touching) = {
                let c = &self.contacts[k];
                (c.a as usize, c.b as usize, !c.manifold.points.is_empty())
            };
            if touching && (a == i || b == i) {
                let other = if a == i { b } else { a };
                if !self.containment.is_frozen(other as u32) {
                    self.wake(other);
                }
            }
        }
    }

    /// The first stage of this step whose result for body `i` is non-finite (module docs).
    fn diagnose(&self, i: usize) -> Stage {
        let iu = i as u32;
        if !self.gravity.is_finite() {
            return Stage::IntegrateForces;
        }
        if self.aabbs.get(i).is_some_and(|b| !(b.min.is_finite() && b.max.is_finite())) {
            return Stage::BroadPhase;
        }
        let mine = |a: u32, b: u32| a == iu || b == iu;
        let contacts = || self.contacts.iter().filter(|c| mine(c.a, c.b));
        let bad_manifold = contacts().any(|c| {
            !c.manifold.normal.is_finite()
                || c.manifold.points.iter().any(|p| !(p.position.is_finite() && p.depth.is_finite()))
        });
        if bad_manifold {
            return Stage::NarrowPhase;
        }
        let bad_constraint = self.constraints.iter().filter(|c| mine(c.a, c.b)).any(|c| {
            !(finite3(c.normal) && finite3(c.t1) && finite3(c.t2))
                || c.points[..c.count as usize].iter().any(|p| {
                    !(finite3(p.ra)
                        && finite3(p.rb)
                        && p.adjusted_separation.is_finite()
                        && p.relative_velocity.is_finite())
                })
        });
        if bad_constraint {
            return Stage::Prepare;
        }
        let bad_impulse = contacts().any(|c| {
            c.impulses[..c.manifold.points.len()].iter().any(|p| !(p.normal.is_finite() && p.tangent[0].is_finite()))
                || !c.rolling_impulse.is_finite()
        });
        if bad_impulse {
            return Stage::SolveVelocities;
        }
        if self.moves.linear.get(i).is_some_and(|m| !m.is_finite())
            || self.moves.angular.get(i).is_some_and(|m| !m.is_finite())
        {
            return Stage::PositionCorrection;
        }
        Stage::IntegratePositions
    }
}

/// Whether mass data can be simulated: positive finite mass, finite inverse inertia.
pub(super) fn mass_data_ok(mass: f32, inv_inertia: &Mat3) -> bool {
    mass.is_finite() && mass > 0.0 && (1.0 / mass).is_finite() && inv_inertia.is_finite()
}
