//! The earliest-collision step ([`ContinuousMode::EarliestCollision`]): the seed's method
//! (Homer's simulator, docs/physics.md "Continuous collision"), on top of whichever
//! resolution method the settings choose.
//!
//! A step of `dt` is cut at collision times:
//! 1. **Sweep** ([`World::earliest_collision`]): every pair of bodies (one of them awake and
//!    dynamic) is moved in free flight over the rest of the step — velocity, spin and
//!    gravity, nothing else — and its bounding spheres are swept: pairs whose spheres are
//!    receding or never come within the contact margin are done (Homer's closing-velocity
//!    test and sphere sweep). Pairs already within the contact margin are the solver's
//!    business (resting and touching contacts) and are skipped too. A body and a static
//!    triangle mesh are a pair for each triangle under the body's flight (the earliest
//!    triangle's time is the pair's).
//! 2. **Search**: for each remaining pair, the time its real shapes come within the target
//!    gap, by bisection at test times on the real geometry, integrating only those two
//!    bodies to each test time ([`crate::physics::collide::toi::time_of_impact_bisection`]).
//! 3. **Wind**: the whole world runs the method's ordinary step (broad and narrow phase,
//!    solve, integrate) up to the earliest time found — the last time the pair was clear.
//! 4. **Resolve**: every pair found colliding at that time (its bracket begins before the
//!    earliest one's ends) is now a few millimetres apart and approaching, inside the
//!    narrow phase's margin; the next cut's solve resolves all of them together, as the
//!    method resolves simultaneous contacts (a pool break's rack at once). The pairs go
//!    into the step's [`super::ContinuousRecord`] as one [`super::SubEvent`].
//! 5. **Continue** with the rest of the step, from 1.
//!
//! Pairs already in contact at a cut's start are the method's to resolve; a method that
//! resolves only part of such a contact (a one-pass method stopping the one corner that
//! touched) could let a fast body on through. So after each cut the fast continuous sweep
//! (`world/continuous.rs`) runs over the cut as a safety net: any body that moved far for
//! its size during the cut is swept against the static bodies and moved back.
//!
//! At most `Settings::max_sub_events` cuts are made per step; when a collision is still
//! ahead after that many, the rest of the step runs uncut and the record's `cap_hit` is set
//! (and the trace's `sub_event_cap_hit`). A cut is never shorter than [`MIN_CUT`] of the
//! step, so a step always ends.
//!
//! Limits: slow by nature — every cut sweeps all pairs (n²/2 sphere tests) and the method's
//! whole step runs once per cut; the free-flight prediction ignores the contact impulses
//! bodies in contact receive during the cut, so a collision may come a little early or late
//! (the solver then sees a small gap or penetration); contacts are found and resolved by
//! the method with its speculative margin as usual, so in a scene without fast bodies the
//! cuts change the path only through the shorter solver steps.

use super::ccd_record::{ContinuousRecord, SubEvent, ToiEvent, ToiMethod, ToiQuery};
use super::{Stage, World};
use crate::physics::collide::distance::distance;
use crate::physics::collide::toi::{
    contact_time, sphere_window, time_of_impact_bisection, triangle_mover, Mover, Sweep, ToiConfig, ToiState,
};
use crate::physics::compound::child_count;
use crate::physics::math::{Aabb, Iso};
use crate::physics::solver::{Schedule, Settings};
use glam::Vec3;

/// Shortest cut, as a fraction of the step.
pub const MIN_CUT: f32 = 1e-4;

/// Scratch of the earliest-collision step, kept between steps.
#[derive(Clone, Debug, Default)]
pub(super) struct EarliestScratch {
    /// Each body's free flight over the rest of the step.
    sweeps: Vec<Sweep>,
    /// Poses at the step's start.
    start: Vec<Iso>,
    /// This search's hits: (last clear time, first touching time, a, b, query).
    hits: Vec<(f32, f32, u32, u32, u32)>,
    /// A mesh's triangles under a body's flight.
    tris: Vec<u32>,
}

impl World {
    /// One step of `dt` cut at its earliest collisions (module docs).
    pub(super) fn step_earliest(&mut self, dt: f32) {
        self.untimed(|w| {
            let mut scratch = std::mem::take(&mut w.earliest_scratch);
            scratch.start.clear();
            scratch.start.extend(w.bodies.iter().map(|b| b.pose));
            w.earliest_scratch = scratch;
        });
        let min_cut = MIN_CUT * dt;
        let mut done = 0.0f32;
        let mut round = 0u32;
        loop {
            let rest = dt - done;
            let mut found = None;
            self.timed(Stage::Continuous, |w| found = w.earliest_collision(rest, round));
            let cut = match found {
                Some(s) if round < self.settings.max_sub_events => Some(s),
                Some(_) => {
                    // The cap: this search only told whether a collision is still ahead.
                    self.continuous.cap_hit = true;
                    None
                }
                None => None,
            };
            let mut h = cut.map_or(rest, |s| s.max(min_cut).min(rest));
            if rest - h < min_cut {
                h = rest;
            }
            self.advance(h);
            // Bodies already in contact were the method's; the fast sweep catches any the
            // method let through during the cut.
            self.timed(Stage::Continuous, |w| w.solve_continuous(h, done / dt, h / dt));
            self.store_step_impulses(h);
            done += h;
            if cut.is_some() {
                self.untimed(|w| w.record_sub_event(done, dt));
                round += 1;
            }
            if cut.is_none() || h >= rest {
                break;
            }
        }
        self.untimed(|w| {
            for e in &mut w.continuous.events {
                e.end = w.bodies[e.body as usize].pose;
            }
        });
    }

    /// The earliest time (s from now, within `rest`) at which a pair not yet in contact
    /// comes within the target gap, by the seed's sphere sweep and bisection (module docs);
    /// the pairs found are kept for [`World::record_sub_event`].
    fn earliest_collision(&mut self, rest: f32, round: u32) -> Option<f32> {
        let mut scratch = std::mem::take(&mut self.earliest_scratch);
        scratch.hits.clear();
        scratch.sweeps.clear();
        let g = self.gravity;
        scratch.sweeps.extend(self.bodies.iter().map(|b| {
            if b.is_dynamic() && !b.asleep {
                Sweep::ballistic(&b.pose, b.velocity, b.angular_velocity, g, rest)
            } else if b.is_moving_kinematic() {
                Sweep::ballistic(&b.pose, b.velocity, b.angular_velocity, Vec3::ZERO, rest)
            } else {
                Sweep::fixed(&b.pose)
            }
        }));
        let settings = self.settings;
        let (slop, margin) = (settings.slop, settings.margin);
        let any_frozen = self.containment.any();
        let n = self.bodies.len();
        for a in 0..n {
            let ba = &self.bodies[a];
            let moving_a = ba.is_dynamic() && !ba.asleep;
            if any_frozen && self.containment.is_frozen(a as u32) {
                continue;
            }
            for b in a + 1..n {
                let bb = &self.bodies[b];
                if !moving_a && (!bb.is_dynamic() || bb.asleep) {
                    continue;
                }
                if (any_frozen && self.containment.is_frozen(b as u32)) || self.joints.excludes(a as u32, b as u32) {
                    continue;
                }
                let (ea, eb) = (ba.shape.min_extent(), bb.shape.min_extent());
                let rec = &mut self.continuous;
                let mesh = ba.shape.mesh().map(|m| (m, a, b)).or(bb.shape.mesh().map(|m| (m, b, a)));
                let found = if let Some((mesh, m, o)) = mesh {
                    // A body and a mesh: the body against each triangle under its flight's
                    // bounds, the earliest kept (the mesh is static).
                    let (bm, bo) = (&self.bodies[m], &self.bodies[o]);
                    let s = scratch.sweeps[o];
                    let end = s.c0 + s.dc + s.ddc;
                    let pad = bo.shape.bounding_radius() + margin + 0.25 * s.ddc.length();
                    let flight = Aabb::new(s.c0.min(end), s.c0.max(end)).expanded(pad);
                    scratch.tris.clear();
                    mesh.query_aabb(&flight.to_local(&bm.pose), &mut scratch.tris);
                    scratch.tris.sort_unstable();
                    let mut first: Option<(f32, f32, u32)> = None;
                    for k in 0..child_count(&bo.shape) {
                        let mo = Mover::child_of(&bo.shape, k, s);
                        for &t in &scratch.tris {
                            let tri = triangle_mover(mesh, t, &bm.pose);
                            // Movers in the pair's order (a < b), as the record names them.
                            let (ma, mb) = if m == a { (&tri, &mo) } else { (&mo, &tri) };
                            if let Some(hit) = pair_time(rec, (a as u32, b as u32), ma, mb, (ea, eb), &settings, round)
                            {
                                if first.is_none_or(|f| hit.0 < f.0) {
                                    first = Some(hit);
                                }
                            }
                        }
                    }
                    first
                } else {
                    // A compound, child by child; the earliest kept.
                    let mut first: Option<(f32, f32, u32)> = None;
                    for ka in 0..child_count(&ba.shape) {
                        let ma = Mover::child_of(&ba.shape, ka, scratch.sweeps[a]);
                        for kb in 0..child_count(&bb.shape) {
                            let mb = Mover::child_of(&bb.shape, kb, scratch.sweeps[b]);
                            if let Some(hit) =
                                pair_time(rec, (a as u32, b as u32), &ma, &mb, (ea, eb), &settings, round)
                            {
                                if first.is_none_or(|f| hit.0 < f.0) {
                                    first = Some(hit);
                                }
                            }
                        }
                    }
                    first
                };
                if let Some((t, upper, query)) = found {
                    scratch.hits.push((t, upper, a as u32, b as u32, query));
                }
            }
        }
        let earliest = scratch.hits.iter().copied().min_by(|x, y| x.0.total_cmp(&y.0));
        let cut = earliest.map(|(t, upper, a, b, query)| {
            // The one-pass methods act on touching points only: they are wound to the time
            // the pair is just in contact; the soft step to the last clear time (the seed's).
            let t = match self.methods.get(&self.settings).schedule() {
                Schedule::SoftStep => t,
                Schedule::Once { .. } => {
                    let q = &self.continuous.queries[query as usize];
                    let (ea, eb) =
                        (self.bodies[a as usize].shape.min_extent(), self.bodies[b as usize].shape.min_extent());
                    contact_time(&q.result, self.continuous.iterations_of(q), ToiConfig::new(slop, ea, eb).target)
                }
            };
            (t, upper.max(t))
        });
        // Keep only the pairs colliding at the earliest time: their brackets begin before
        // the earliest one's ends (or the cut, when it is later).
        if let Some((_, limit)) = cut {
            scratch.hits.retain(|h| h.0 <= limit);
        }
        self.earliest_scratch = scratch;
        cut.map(|(t, _)| t * rest)
    }

    /// Records the cut that ended at `done` seconds into the step: its pairs, and an event
    /// for each of their dynamic bodies (the first of the step for that body).
    fn record_sub_event(&mut self, done: f32, dt: f32) {
        let rec = &mut self.continuous;
        let start = rec.pairs.len() as u32;
        for &(_, _, a, b, query) in &self.earliest_scratch.hits {
            rec.pairs.push((a, b));
            for (body, other) in [(a, b), (b, a)] {
                let bd = &self.bodies[body as usize];
                if !bd.is_dynamic() || rec.events.iter().any(|e| e.body == body) {
                    continue;
                }
                let p0 = self.earliest_scratch.start[body as usize];
                let r = Vec3::splat(bd.shape.bounding_radius());
                rec.events.push(ToiEvent {
                    body,
                    other,
                    fraction: done / dt,
                    start: p0,
                    impact: bd.pose,
                    end: bd.pose,
                    swept: Aabb::new(p0.pos.min(bd.pose.pos) - r, p0.pos.max(bd.pose.pos) + r),
                    bullet: bd.bullet,
                    query,
                });
            }
        }
        rec.sub_events.push(SubEvent { time: done, pairs: start..rec.pairs.len() as u32 });
    }
}

/// The seed's search for one pair (movers `ma`, `mb` of bodies `pair`, minimum extents
/// `extents`): Homer's sphere sweep, then bisection on the real shapes; the time, the end
/// of its bracket and the query's index when they come within the target gap in the rest
/// of the step. Every query is recorded in `rec`.
fn pair_time(
    rec: &mut ContinuousRecord,
    pair: (u32, u32),
    ma: &Mover,
    mb: &Mover,
    extents: (f32, f32),
    settings: &Settings,
    round: u32,
) -> Option<(f32, f32, u32)> {
    let (slop, margin) = (settings.slop, settings.margin);
    // Homer's sphere sweep: receding spheres, or spheres that never come within the
    // margin, cannot collide in this step.
    let (enter, _) = sphere_window(ma, mb, margin, 1.0)?;
    rec.candidates += 1;
    // Already within the margin: a contact of the solver's, not an event.
    if enter == 0.0 && distance(&ma.proxy, &ma.at(0.0), &mb.proxy, &mb.at(0.0)).distance <= margin {
        return None;
    }
    let cfg = ToiConfig::new(slop, extents.0, extents.1)
        .with_simplex_cache(settings.simplex_cache)
        .with_closed_form(settings.closed_form_distance);
    let start = rec.iterations.len() as u32;
    let toi = time_of_impact_bisection(ma, mb, &cfg, Some(&mut rec.iterations));
    rec.queries.push(ToiQuery {
        body: pair.0,
        other: pair.1,
        method: ToiMethod::Bisection,
        probe: false,
        round,
        result: toi,
        iterations: start..rec.iterations.len() as u32,
    });
    let hit = matches!(toi.state, ToiState::Hit | ToiState::MaxIterations) && toi.t < 1.0;
    hit.then(|| (toi.t, toi.t_upper, rec.queries.len() as u32 - 1))
}
