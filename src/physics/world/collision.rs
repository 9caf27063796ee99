//! The world's broad phase: Box2D's enlarged boxes over the hashed grid of
//! [`crate::physics::broadphase`]; the bodies that leave their enlarged box update the
//! grid's pairs in place, and only many of them rebuild it. An enlarged box reaches a few
//! steps ahead along the body's motion (Box2D v2's predicted enlargement), so a falling body
//! leaves it every few steps rather than every step. A pair whose bounding spheres miss
//! each other on their straight paths over the step is dropped, the *path test* of
//! [`Motion::paths_meet`], so fast bodies passing each other get no speculative ghost
//! contacts. With the path test on, a full build of the grid may also keep its pairs on
//! enlarged swept spheres ([`Motion::swept_sphere`]), where most bodies' spheres are tighter
//! than their boxes ([`spheres_pay`]): that drops the pairs of boxes meeting corner to
//! corner before the per-step filter tests them. The per-body [`Motion`] records it gathers
//! are what the narrow phase (`world/narrow.rs`) reads, and the prepare stage each body's
//! rounding; beside them each body's rotation as a matrix, with which the narrow phase's
//! recycling moves a pair's anchors (once per body, not twice per pair). The records and
//! swept boxes (with a SIMD copy of each box for the pair filter)
//! are computed body by body, and the grid's pair search slot by slot
//! ([`crate::physics::broadphase::BroadPhase::update_on`]), and the pair filter's box and
//! path tests pair by pair (`world/pair_filter.rs`), shared out between the world's
//! worker threads; the enlarged-box and sphere checks, the grid's median, bucket counts and
//! ranks, and the update of a few moved bodies stay on the stepping thread. A static body's
//! records are kept from step to step while nothing edits it and the margin, the step and
//! the gravity stay the same: the per-body loop and the enlarged-box check then visit only
//! the dynamic bodies, where those are fewer than half (`world/movers.rs`); with sleeping
//! on, the dynamic bodies but those that slept since their records were made (and the
//! pair filter passes a pair of two such kept bodies as it did, untested). Bodies added
//! since the last step (and no edit) get their records and enlarged boxes there, and join
//! the grid's pairs as moved bodies do, without a rebuild where that pays.
//!
//! Limits: the path test assumes straight paths at the step's starting velocities (as the
//! speculative contacts do): a body deflected during the step towards a body its path
//! missed has no speculative point against it in that step. A body edited through
//! `World::body_mut` restarts the broad phase from scratch; the enlarged boxes
//! and spheres are a fixed [`FAT_MARGIN`] wide whatever the body size (plus at most
//! [`AHEAD_MAX`] ahead). The spheres' overlap test allows 1 mm for rounding, enough for
//! coordinates up to a few kilometres from the origin. A watched pair the path test drops is
//! recorded as such whether or not its enlarged spheres kept it among the grid's pairs.

use super::movers::{Movers, StaticInputs};
use super::watch;
use super::*;
use crate::physics::collide::PairPath;
use crate::physics::parallel::Shared;
use crate::physics::per_body;

/// How many steps of its motion a body's enlarged box reaches ahead of it (Box2D v2's
/// predicted enlargement, its `b2_aabbMultiplier`): a falling body leaves its box every few
/// steps instead of every step, and each leaving costs an update of the grid's pairs.
const STEPS_AHEAD: f32 = 4.0;

/// The most an enlarged box reaches ahead (m): a fast body, which leaves any box it gets
/// every step whatever its reach, does not drag a long box through the kept pairs.
const AHEAD_MAX: f32 = 2.0 * FAT_MARGIN;

/// What the narrow phase needs of a body, gathered once per step by the broad phase (so a
/// pair reads two small records instead of two bodies and their shapes).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Motion {
    /// Velocity of the centre (zero when static or asleep). This and `centre` are SIMD
    /// vectors: the kept pairs' path test reads them for thousands of pairs a step.
    v: Vec3A,
    /// Speed bound of the surface from spinning, `|ω|·r` (a compound's also bounded with
    /// its box: [`spin_reach`]; zero when static or asleep).
    spin: f32,
    /// Bounding radius about the centre.
    pub(super) radius: f32,
    /// Dynamic and awake, or kinematic and moving.
    pub(super) awake: bool,
    /// Dynamic and asleep (a body an awake one may wake before the solve, `world/islands.rs`).
    pub(super) sleeping: bool,
    /// The centre of mass (the body origin, about which `radius` is measured).
    centre: Vec3A,
    /// A triangle mesh: its pairs may have several manifolds (`world/narrow.rs`).
    pub(super) mesh: bool,
    /// A compound: its pairs may have several manifolds, one per touching child pair.
    pub(super) compound: bool,
    /// A mesh or a compound (`mesh || compound`): its pairs may have several manifolds.
    pub(super) parts: bool,
    /// The shape's rounding ([`Shape::rounding`]), for its contacts' constraints; NaN for a
    /// compound with a ball or a capsule among its children, whose contacts take their
    /// child's (`World::part_rounding`) and are never recycled.
    pub(super) rounding: f32,
    /// The body's rolling resistance ([`Body::rolling_resistance`]), for its contacts'
    /// constraints (in the record's padding: it stays 64 bytes).
    pub(super) rolling: f32,
}

const _: () = assert!(std::mem::size_of::<Motion>() == 64);

/// How fast any point of body `b` (bounding radius `radius`) moves from its spin, `|ω × p|`
/// at most: `|ω|` times the radius, and for a compound also bounded with its box in its own
/// frame ([`Shape::turn_reach`], Box3D's `velocityArc`). A 54 m tree rolling about its
/// length moves its surface at its thickness times ω, and its pairs' speculative margin
/// and its swept box follow that, not its height times ω.
#[inline(always)]
fn spin_reach(b: &Body, radius: f32) -> f32 {
    let reach = b.angular_velocity.length() * radius;
    match &b.shape {
        Shape::Compound(_) => reach.min(b.shape.turn_reach(b.pose.rot.conjugate() * b.angular_velocity)),
        _ => reach,
    }
}

impl Motion {
    #[inline(always)]
    fn of(b: &Body) -> Motion {
        let (radius, centre) = (b.shape.bounding_radius(), Vec3A::from(b.pose.pos));
        let (compound, rounding) = match &b.shape {
            Shape::Compound(c) => (true, if c.rounded() { f32::NAN } else { 0.0 }),
            s => (false, s.rounding()),
        };
        if !b.is_dynamic() || b.asleep {
            let mesh = b.shape.mesh().is_some();
            let parts = mesh || compound;
            return Motion {
                radius,
                centre,
                sleeping: b.is_dynamic(),
                mesh,
                compound,
                parts,
                rounding,
                rolling: b.rolling_resistance,
                ..Default::default()
            };
        }
        Motion {
            v: b.velocity.into(),
            spin: spin_reach(b, radius),
            radius,
            awake: true,
            sleeping: false,
            centre,
            mesh: false,
            compound,
            parts: compound,
            rounding,
            rolling: b.rolling_resistance,
        }
    }

    /// The record of a kinematic body: [`Motion::of`]'s for a static one, or while it
    /// moves, a moving body's (awake, never asleep).
    fn kinematic(b: &Body) -> Motion {
        let mut m = Motion::of(b);
        if b.is_moving_kinematic() {
            (m.v, m.spin, m.awake) = (b.velocity.into(), spin_reach(b, m.radius), true);
        }
        m
    }

    /// Whether the bounding spheres of `a` and `b` come within `slack` of each other while
    /// their centres move on straight lines by `v·dt` (the speculative contacts' own
    /// assumption). A sphere about the centre of mass does not move when the body turns,
    /// so spin plays no part. Pairs whose boxes overlap but whose paths miss by more than
    /// that cannot touch during the step: a speculative point between them would only be a
    /// *ghost* (a normal velocity that would close the gap, from bodies that in fact pass
    /// each other), which brakes both for nothing. Closest approach of `p + t·d`, t ∈ [0, 1]:
    /// `t = −p·d / d·d`, clamped; taken without a division, and spheres already within
    /// reach at the start (every resting pair) answer from the first test.
    #[inline]
    pub(super) fn paths_meet(a: &Motion, b: &Motion, dt: f32, slack: f32) -> bool {
        let p = b.centre - a.centre;
        let r = a.radius + b.radius + slack;
        let (pp, rr) = (p.length_squared(), r * r);
        if pp <= rr {
            return true;
        }
        let d = (b.v - a.v) * dt;
        let pd = p.dot(d);
        if pd >= 0.0 {
            // Not approaching: the start is the closest, and it is out of reach.
            return false;
        }
        let dd = d.length_squared();
        if -pd >= dd {
            // Still approaching at the end of the step (t = 1).
            return (p + d).length_squared() <= rr;
        }
        // |p + t·d|² at t = −p·d/d·d is pp − (p·d)²/dd.
        pp * dd - pd * pd <= rr * dd
    }

    /// The body's bounding sphere swept over the step, grown by half of `slack`: centred
    /// halfway along the step, `c + v·dt/2`, of radius `r + |v|·dt/2 + slack/2`, it holds
    /// the sphere at every moment of the step. So two bodies whose paths meet
    /// ([`Motion::paths_meet`]: their centres come within `rA + rB + slack` at some moment)
    /// have overlapping swept spheres.
    #[inline]
    fn swept_sphere(&self, dt: f32, slack: f32) -> (Vec3A, f32) {
        let half = self.v * (0.5 * dt);
        (self.centre + half, self.radius + half.length() + 0.5 * slack)
    }

    /// The enlarged box of swept box `b`: stretched on along the motion by
    /// [`STEPS_AHEAD`] more steps (at most [`AHEAD_MAX`]), then grown by [`FAT_MARGIN`].
    #[inline]
    fn fat_box(&self, b: &Aabb, dt: f32) -> Aabb {
        let d = Vec3::from(self.v * (dt * STEPS_AHEAD)).clamp_length_max(AHEAD_MAX);
        b.swept(d).expanded(FAT_MARGIN)
    }

    /// The swept sphere grown by [`FAT_MARGIN`] (centre in xyz, radius in w): what the
    /// grid's pairs are kept on while the swept sphere stays inside it.
    fn fat_sphere(&self, dt: f32, slack: f32) -> Vec4 {
        let (c, r) = self.swept_sphere(dt, slack);
        c.extend(r + FAT_MARGIN)
    }

    /// Whether the swept sphere lies inside enlarged sphere `fat`: its centre within the
    /// difference of the radii (squared, no root).
    #[inline]
    fn inside(&self, fat: Vec4, dt: f32, slack: f32) -> bool {
        let (c, r) = self.swept_sphere(dt, slack);
        let room = fat.w - r;
        room >= 0.0 && c.distance_squared(Vec3A::from_vec4(fat)) <= room * room
    }

    /// How far the surfaces of `a` and `b` can close in one step:
    /// `(|vB − vA| + spinA + spinB)·dt`, each spin the surface's speed bound `|ω|·r` (or a
    /// compound's own, [`spin_reach`]) (speculative reach). Relative, so bodies falling
    /// side by side get no speculative contacts.
    pub(super) fn pair_reach(a: &Motion, b: &Motion, dt: f32) -> f32 {
        (((b.v - a.v).length() + a.spin + b.spin) * dt).min(MAX_SPECULATIVE)
    }
}

/// Body `b`'s records for the step `dt` with contact margin `margin`: its motion record,
/// swept box (and the same in SIMD lanes) and rotation matrix.
#[inline(always)]
fn record(
    (m, out, lanes, turn): (&mut Motion, &mut Aabb, &mut [Vec3A; 2], &mut glam::Mat3A),
    b: &Body,
    dt: f32,
    margin: f32,
) {
    record_motion((m, out, lanes, turn), Motion::of(b), b, dt, margin);
}

/// [`record`] with the body's motion record `motion` given.
#[inline(always)]
fn record_motion(
    (m, out, lanes, turn): (&mut Motion, &mut Aabb, &mut [Vec3A; 2], &mut glam::Mat3A),
    motion: Motion,
    b: &Body,
    dt: f32,
    margin: f32,
) {
    *m = motion;
    *turn = glam::Mat3A::from_quat(b.pose.rot);
    let bb = b.shape.aabb(&b.pose);
    let d = Vec3::from(m.v * dt).clamp_length_max(MAX_SPECULATIVE);
    *out = bb.swept(d).expanded(0.5 * margin + (m.spin * dt).min(MAX_SPECULATIVE));
    *lanes = [out.min.into(), out.max.into()];
}

impl World {
    /// The kinematic bodies' records ([`World::broad_phase`]; none in most worlds, and kept
    /// out of its code): a moving one's are a moving body's, since it moves without the
    /// solver.
    #[inline(never)]
    fn record_kinematic(&mut self, dt: f32, margin: f32) {
        for &i in &self.movers.kinematic {
            let (i, b) = (i as usize, &self.bodies[i as usize]);
            let slots = (&mut self.motions[i], &mut self.aabbs[i], &mut self.boxes[i], &mut self.turns[i]);
            record_motion(slots, Motion::kinematic(b), b, dt, margin);
        }
    }

    /// Each body's AABB swept along its step `v·dt` and grown by its spin reach and half
    /// the margin: two boxes overlap whenever their bodies may touch during the step.
    pub(super) fn broad_phase(&mut self, dt: f32) {
        let margin = self.settings.margin;
        // Each body's motion record and swept box on its own, shared out between the threads:
        // every body's, or, while the static bodies' records still hold (`world/movers.rs`),
        // the dynamic bodies' only.
        let n = self.bodies.len();
        // Sleeping bodies keep their records too (`world/movers.rs`) where no stage of the
        // step moves them.
        let quiet = self.settings.sleeping && self.moves_only_solved();
        let inputs = StaticInputs::new(n, margin, dt, self.gravity, self.settings.path_test, quiet);
        // Bodies added since the last step (and nothing edited): `old` is where they start.
        let grown = self.movers.grown_from(inputs, self.broad_dirty);
        let old = grown.unwrap_or(n);
        // Which bodies are dynamic changes only with an edit or a new body; new bodies only
        // extend the lists.
        let movers = &mut self.movers;
        movers.woken.clear();
        let grew = grown.filter(|&old| movers.statics_mask.len() == old).is_some();
        if grew {
            let new = old as u32..n as u32;
            movers.dynamic.extend(new.clone().filter(|&i| self.bodies[i as usize].is_dynamic()));
            movers.kinematic.extend(new.clone().filter(|&i| self.bodies[i as usize].is_kinematic()));
            per_body::room(&mut movers.statics_mask, n);
            movers.statics_mask.extend(self.bodies[old..].iter().map(|b| !b.is_dynamic()));
        } else if self.broad_dirty || movers.statics.is_none_or(|s| s.count != n) {
            movers.dynamic.clear();
            movers.dynamic.extend((0..n as u32).filter(|&i| self.bodies[i as usize].is_dynamic()));
            movers.kinematic.clear();
            movers.kinematic.extend((0..n as u32).filter(|&i| self.bodies[i as usize].is_kinematic()));
            movers.statics_mask.clear();
            per_body::room(&mut movers.statics_mask, n);
            movers.statics_mask.extend(self.bodies.iter().map(|b| !b.is_dynamic()));
        }
        let holds = grew || movers.statics_hold(inputs, self.broad_dirty);
        // The bodies to visit, where bodies were added, sleeping ones keep their records or
        // kinematic ones move: the dynamic ones but those asleep now and when their records
        // were last computed, the kinematic ones, and the new ones.
        movers.listed = holds && (grew || quiet || !movers.kinematic.is_empty());
        if movers.listed {
            let (bodies, seen) = (&self.bodies, &movers.seen_asleep);
            let still = |i: u32| quiet && bodies[i as usize].asleep && seen.get(i as usize) == Some(&true);
            movers.visit.clear();
            let before = movers.dynamic.iter().copied().take_while(|&i| i < old as u32).filter(|&i| !still(i));
            // The kinematic bodies merged in, in index order.
            let mut kinematic = movers.kinematic.iter().copied().take_while(|&i| i < old as u32).peekable();
            for i in before {
                while let Some(k) = kinematic.next_if(|&k| k < i) {
                    movers.visit.push(k);
                }
                movers.visit.push(i);
            }
            movers.visit.extend(kinematic);
            movers.visit.extend(old as u32..n as u32);
        }
        if quiet {
            per_body::fit(&mut movers.seen_asleep, n, false);
        }
        let statics_hold =
            holds && Movers::few(movers.visited(), n) && self.boxes.len() == old && self.turns.len() == old;
        per_body::fit(&mut self.motions, n, Motion::default());
        per_body::fit(&mut self.aabbs, n, Aabb::new(Vec3::ZERO, Vec3::ZERO));
        per_body::fit(&mut self.boxes, n, [Vec3A::ZERO; 2]);
        per_body::fit(&mut self.turns, n, glam::Mat3A::IDENTITY);
        {
            let (motions, aabbs, boxes, turns, bodies) = (
                Shared::new(&mut self.motions),
                Shared::new(&mut self.aabbs),
                Shared::new(&mut self.boxes),
                Shared::new(&mut self.turns),
                &self.bodies,
            );
            // Each visited body's sleep at its records (`Movers::seen_asleep`), kept where
            // sleeping bodies keep their records (taken out while the lists are read).
            let mut seen_asleep = std::mem::take(&mut self.movers.seen_asleep);
            let seen = Shared::new(&mut seen_asleep);
            if statics_hold {
                let visit = self.movers.visited();
                self.workers.for_blocks(visit.len(), MIN_BODIES, |_, r| {
                    for &i in &visit[r] {
                        let i = i as usize;
                        // SAFETY: each body is in one block only (the list has no repeats).
                        let (m, out, lanes, turn) =
                            unsafe { (motions.get_mut(i), aabbs.get_mut(i), boxes.get_mut(i), turns.get_mut(i)) };
                        record((m, out, lanes, turn), &bodies[i], dt, margin);
                        if quiet {
                            // SAFETY: as above.
                            unsafe { *seen.get_mut(i) = bodies[i].asleep };
                        }
                    }
                });
            } else {
                self.workers.for_blocks(n, MIN_BODIES, |_, r| {
                    // SAFETY: each block owns its bodies' records.
                    let (motions, aabbs, boxes, turns) = unsafe {
                        (
                            motions.range_mut(r.clone()),
                            aabbs.range_mut(r.clone()),
                            boxes.range_mut(r.clone()),
                            turns.range_mut(r.clone()),
                        )
                    };
                    let records = motions.iter_mut().zip(aabbs).zip(boxes).zip(turns);
                    for ((((m, out), lanes), turn), b) in records.zip(&bodies[r.clone()]) {
                        record((m, out, lanes, turn), b, dt, margin);
                    }
                    if quiet {
                        // SAFETY: each block owns its bodies' flags.
                        for (s, b) in unsafe { seen.range_mut(r.clone()) }.iter_mut().zip(&bodies[r]) {
                            *s = b.asleep;
                        }
                    }
                });
            }
            self.movers.seen_asleep = seen_asleep;
        }
        if !self.movers.kinematic.is_empty() {
            self.record_kinematic(dt, margin);
        }
        self.movers.statics = Some(inputs);
        self.movers.steady = statics_hold;
        self.profile.visited = if statics_hold { self.movers.visited().len() } else { n };
        // Box2D's enlarged AABBs: the grid runs on boxes grown by FAT_MARGIN (and stretched
        // ahead along the motion, `Motion::fat_box`) and its pairs
        // are kept while every body's box stays inside its enlarged one — a superset of the
        // overlapping pairs, so none is missed; a body that leaves gets a new enlarged box
        // and the grid runs again. Each step the kept pairs are filtered by the actual
        // boxes, so the narrow phase sees exactly the overlapping pairs.
        // A few escaped bodies update the grid's pairs in place (`BroadPhase::update_moved`,
        // the same pairs a full build gives); many, or a new body list, rebuild it.
        // With the path test on, the same for each body's bounding sphere swept over the
        // step ([`Motion::swept_sphere`]): the grid keeps a pair only while the two enlarged
        // spheres overlap too, and a body whose swept sphere leaves its enlarged one is
        // moved like one whose box did. In a pile of round-ish bodies most pairs of
        // overlapping boxes are corner to corner, their spheres far apart: the pairs the
        // filter below tests every step drop by two thirds in the hull pile. Where the
        // spheres are looser than the boxes (a pyramid of upright cubes) they would drop
        // none and only cost their checks: each full build of the grid takes them only if
        // most moving bodies' swept spheres are smaller than their swept boxes
        // ([`spheres_pay`]), and a few moved bodies keep the choice of the last one.
        // `slack`: the contact margin plus how far gravity bends a path in one step, |g|·dt².
        let slack = margin + self.gravity.length() * dt * dt;
        let path_test = self.settings.path_test;
        self.escaped.clear();
        // Spheres are kept only with the path test on: a test switched off while they were
        // starts the grid afresh (one switched on takes them at the next full build).
        let stale_spheres = !path_test && !self.fat_spheres.is_empty();
        let full = if self.broad_dirty || self.fat.len() != old || stale_spheres {
            self.fat.clear();
            per_body::room(&mut self.fat, n);
            self.fat.extend(self.aabbs.iter().zip(&self.motions).map(|(b, m)| m.fat_box(b, dt)));
            self.broad_dirty = false;
            true
        } else {
            let spheres = !self.fat_spheres.is_empty();
            if statics_hold {
                // A static (or still sleeping) body whose records still hold stays inside the
                // enlarged box and sphere made from them (with these inputs) since they were
                // last checked.
                let visit = self.movers.visited();
                for &i in &visit[..visit.partition_point(|&i| (i as usize) < old)] {
                    let i = i as usize;
                    let (f, t, m) = (&mut self.fat[i], &self.aabbs[i], &self.motions[i]);
                    if !f.contains(t) || (spheres && !m.inside(self.fat_spheres[i], dt, slack)) {
                        *f = m.fat_box(t, dt);
                        if spheres {
                            self.fat_spheres[i] = m.fat_sphere(dt, slack);
                        }
                        self.escaped.push(i as u32);
                    }
                }
            } else {
                for (i, (f, t)) in self.fat.iter_mut().zip(&self.aabbs).enumerate() {
                    // (Static and sleeping bodies too: the slack changes with the step and the
                    // margin.)
                    let sphere_left = || spheres && !self.motions[i].inside(self.fat_spheres[i], dt, slack);
                    if !f.contains(t) || sphere_left() {
                        *f = self.motions[i].fat_box(t, dt);
                        if spheres {
                            self.fat_spheres[i] = self.motions[i].fat_sphere(dt, slack);
                        }
                        self.escaped.push(i as u32);
                    }
                }
            }
            // New bodies get their enlarged boxes (and spheres) and join the grid's pairs as
            // moved ones, without a rebuild where that pays (`BroadPhase::update_moved`).
            per_body::room(&mut self.fat, n);
            if spheres {
                per_body::room(&mut self.fat_spheres, n);
            }
            for i in old..n {
                let (b, m) = (&self.aabbs[i], &self.motions[i]);
                self.fat.push(m.fat_box(b, dt));
                if spheres {
                    self.fat_spheres.push(m.fat_sphere(dt, slack));
                }
                self.escaped.push(i as u32);
            }
            false
        };
        let bodies = &self.bodies;
        // Frozen bodies (non-finite states, `containment.rs`) take no part.
        let (frozen, any_frozen) = (&self.containment, self.containment.any());
        let excluded = |a: u32, b: u32| {
            (!bodies[a as usize].is_dynamic() && !bodies[b as usize].is_dynamic())
                || (any_frozen && (frozen.is_frozen(a) || frozen.is_frozen(b)))
        };
        // The grid's search with each filter compiled on its own: without the spheres it
        // pays nothing for them. A few moved bodies first, with the filter the grid's pairs
        // were found with; failing that, the whole grid, with the spheres chosen afresh.
        let (broad, fat, escaped, workers) = (&mut self.broad, &self.fat, &self.escaped, &self.workers);
        let updated = !full
            && (escaped.is_empty()
                || match self.fat_spheres.as_slice() {
                    [] => broad.update_moved(fat, escaped, excluded),
                    spheres => broad.update_moved(fat, escaped, by_spheres(spheres, excluded)),
                });
        self.profile.grid_built |= !updated;
        if !updated {
            self.fat_spheres.clear();
            if path_test && take_spheres(&self.motions, &self.aabbs, dt, slack) {
                per_body::room(&mut self.fat_spheres, n);
                self.fat_spheres.extend(self.motions.iter().map(|m| m.fat_sphere(dt, slack)));
            }
            // The static bodies are passive: they never pair with one another.
            let passive = &self.movers.statics_mask;
            match self.fat_spheres.as_slice() {
                [] => broad.update_on(fat, passive, excluded, workers),
                spheres => broad.update_on(fat, passive, by_spheres(spheres, excluded), workers),
            }
        }
        let (aabbs, motions) = (&self.aabbs, &self.motions);
        if path_test && !self.watch.is_empty() {
            // A watched pair dropped here says so (not "no candidate").
            // (Not looked up in the grid's pairs: a pair whose enlarged spheres miss is not
            // among them, though its paths miss all the same.)
            let (joints, step) = (&self.joints, self.step_count + 1);
            let n = bodies.len();
            for r in &mut self.watch {
                let (a, b) = (r.a as usize, r.b as usize);
                // (A watched pair may name a body the world does not have.)
                let dropped = a < n
                    && b < n
                    && !excluded(r.a, r.b)
                    && aabbs[a].overlaps(&aabbs[b])
                    && !joints.excludes(r.a, r.b)
                    && !Motion::paths_meet(&motions[a], &motions[b], dt, slack);
                if dropped {
                    let mut rec = Some(r);
                    watch::begin(&mut rec, step, margin);
                    watch::took(&mut rec, PairPath::PathsMiss);
                }
            }
        }
        // The kept pairs whose boxes overlap now and whose bodies' paths come close enough
        // to touch ([`Motion::paths_meet`]), into the step's pairs (`world/pair_filter.rs`).
        let reuse = statics_hold && !full && updated;
        self.filter_pairs(dt, slack, quiet, reuse, self.escaped.is_empty());
        // Jointed pairs that may not collide (a joint's default) are dropped here.
        if !self.joints.no_collide.is_empty() {
            let joints = &self.joints;
            self.pairs.retain(|&(a, b)| !joints.excludes(a, b));
        }
    }
}

/// Whether enlarged spheres `a` and `b` (centre in xyz, radius in w) overlap, within
/// [`SPHERE_TOLERANCE`]. Two bodies inside them whose swept spheres overlap have them
/// overlapping (each swept sphere is inside its enlarged one), so a pair this drops cannot
/// pass the path test while both stay inside.
#[inline]
fn spheres_overlap(a: Vec4, b: Vec4) -> bool {
    let reach = a.w + b.w + SPHERE_TOLERANCE;
    Vec3A::from_vec4(a).distance_squared(Vec3A::from_vec4(b)) <= reach * reach
}

/// The grid's filter with enlarged spheres: a pair `excluded` names, or whose spheres miss.
fn by_spheres<'a>(
    spheres: &'a [Vec4],
    excluded: impl Fn(u32, u32) -> bool + Sync + Copy + 'a,
) -> impl Fn(u32, u32) -> bool + Sync + Copy + 'a {
    move |a: u32, b: u32| !spheres_overlap(spheres[a as usize], spheres[b as usize]) || excluded(a, b)
}

#[cfg(test)]
thread_local! {
    /// Tests: the grid takes the enlarged spheres whatever [`spheres_pay`] says (on the
    /// stepping thread).
    static FORCE_SPHERES: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a full build of the grid takes the enlarged spheres ([`spheres_pay`]).
fn take_spheres(motions: &[Motion], boxes: &[Aabb], dt: f32, slack: f32) -> bool {
    #[cfg(test)]
    if FORCE_SPHERES.with(|f| f.get()) {
        return true;
    }
    spheres_pay(motions, boxes, dt, slack)
}

/// Whether the grid should keep its pairs on enlarged spheres too: more than half of the
/// awake bodies have a swept sphere of less volume than their swept box. A ball's or a
/// random hull's sphere is the tighter bound, and pairs of boxes overlapping corner to corner
/// are then mostly pairs of spheres apart; an upright cube's sphere (2.7 times its box) or a
/// long capsule's is the looser, and then its pairs are its boxes' pairs.
fn spheres_pay(motions: &[Motion], boxes: &[Aabb], dt: f32, slack: f32) -> bool {
    let (mut tighter, mut awake) = (0usize, 0usize);
    for (m, b) in motions.iter().zip(boxes) {
        if m.awake {
            let (_, r) = m.swept_sphere(dt, slack);
            let e = b.max - b.min;
            awake += 1;
            tighter += usize::from(4.0 / 3.0 * std::f32::consts::PI * r * r * r < e.x * e.y * e.z);
        }
    }
    2 * tighter > awake
}

/// Slack on the enlarged spheres' overlap test (1 mm): the roundings of the distances that
/// prove a dropped pair's paths miss must not drop a pair whose paths meet. A few f32 steps
/// of a coordinate: enough up to a few kilometres from the origin (at 10 km one step is
/// already about 1 mm).
const SPHERE_TOLERANCE: f32 = 0.01 * FAT_MARGIN;

#[cfg(test)]
mod tests {
    use crate::physics::{Settings, World};

    use super::Motion;
    use glam::Vec3A;

    /// Brute force: every pair of bodies, not both static, whose step boxes overlap (and,
    /// with `Settings::path_test`, whose paths meet).
    fn overlapping(w: &World, dt: f32) -> Vec<(u32, u32)> {
        let n = w.bodies.len() as u32;
        let slack = w.settings.margin + w.gravity.length() * dt * dt;
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let both_static = !w.bodies[a as usize].is_dynamic() && !w.bodies[b as usize].is_dynamic();
                let (ma, mb) = (&w.motions[a as usize], &w.motions[b as usize]);
                let meet = !w.settings.path_test || Motion::paths_meet(ma, mb, dt, slack);
                if !both_static && w.aabbs[a as usize].overlaps(&w.aabbs[b as usize]) && meet {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The kept pairs of the enlarged boxes (and, with the path test, enlarged spheres),
    /// filtered by the actual boxes, are exactly the overlapping pairs, every step of a pile
    /// of boxes and one of random hulls falling, landing and settling, and of a barrage of
    /// bullets fired into a pit, its spheres taken whether or not they pay (the grid is rerun
    /// only when a body leaves its enlarged box or sphere); with and without the path test,
    /// on one thread and on two and three (the filter's tests and the gathering of the kept
    /// pairs then run in one share of the pairs per thread, every range split into blocks
    /// of one item).
    #[test]
    fn kept_pairs_are_exactly_the_overlapping_pairs() {
        for (path_test, threads) in [(true, 1), (false, 1), (true, 3), (false, 2)] {
            let settings = Settings { sleeping: false, path_test, threads, ..Default::default() };
            // Upright boxes: their spheres are looser than their boxes and not taken.
            kept_pairs_match(crate::scene::stock::box_pile(120, settings), None, true, Some(false));
            kept_pairs_match(crate::scene::stock::hull_pile(80, settings), None, true, Some(path_test));
            // Bullets: paths that meet only during the step (the spheres' reach along the
            // velocity), and no end to the grid runs.
            super::FORCE_SPHERES.with(|f| f.set(true));
            kept_pairs_match(crate::scene::stock::barrage(60, settings), None, false, Some(path_test));
            super::FORCE_SPHERES.with(|f| f.set(false));
        }
    }

    /// Switching the path test on or off mid-run gives the overlapping pairs of the new
    /// setting from the next step: switched off, the spheres are dropped at once; switched
    /// on, a settled pile takes them at the grid's next full build.
    #[test]
    fn switching_the_path_test_keeps_the_pairs_exact() {
        for path_test in [true, false] {
            let settings = Settings { sleeping: false, path_test, ..Default::default() };
            let w = kept_pairs_match(crate::scene::stock::hull_pile(80, settings), Some(100), true, None);
            assert!(w.fat_spheres.is_empty());
        }
    }

    /// `switch`: the step at which the path test is turned over; `settles`: the scene comes
    /// to rest, so the grid must stop being rerun; `spheres`: whether the enlarged spheres
    /// must have dropped some pair of enlarged boxes (or none).
    fn kept_pairs_match(mut w: World, switch: Option<usize>, settles: bool, spheres: Option<bool>) -> World {
        w.set_fine_split(true);
        let (mut reruns, mut dropped) = (0, 0);
        for step in 0..240 {
            if switch == Some(step) {
                w.settings.path_test = !w.settings.path_test;
            }
            let before = w.fat.clone();
            w.step(1.0 / 60.0);
            if w.fat != before {
                reruns += 1;
            }
            assert_eq!(w.pairs, overlapping(&w, 1.0 / 60.0), "step {step}");
            // Where the spheres are taken they must drop pairs whose enlarged boxes overlap,
            // or the test would not exercise them.
            if spheres.is_some() {
                let fat = |p: &&(u32, u32)| w.fat[p.0 as usize].overlaps(&w.fat[p.1 as usize]);
                let both_static =
                    |&&(a, b): &&(u32, u32)| !w.bodies[a as usize].is_dynamic() && !w.bodies[b as usize].is_dynamic();
                let n = w.bodies.len() as u32;
                let all = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))).collect::<Vec<_>>();
                let boxes = all.iter().filter(fat).filter(|p| !both_static(p)).count();
                dropped += boxes - w.broad.pairs.len();
            }
        }
        // The falling phase reruns the grid; the settled pile must not, or the test would
        // not exercise the kept pairs.
        assert!(reruns > 5 && (!settles || reruns < 200), "{reruns} grid runs in 240 steps");
        if let Some(spheres) = spheres {
            assert_eq!(dropped > 0, spheres, "{dropped} pairs of enlarged boxes dropped by their spheres");
        }
        w
    }

    /// `paths_meet` against a brute-force closest approach: the centres' distance sampled at
    /// 10,001 times over the step, on random motions. Cases within 1e-3 m of the line are
    /// not judged (the sampling's own error).
    #[test]
    fn paths_meet_matches_sampled_closest_approach() {
        let mut rng = crate::physics::hull::builders::SplitMix64(0x9A7E);
        let mut v = |s: f32| Vec3A::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * s;
        let (mut met, mut missed) = (0, 0);
        for _ in 0..2000 {
            let a = Motion {
                v: v(200.0),
                radius: 0.3,
                centre: v(4.0),
                awake: true,
                sleeping: false,
                spin: 0.0,
                mesh: false,
                compound: false,
                parts: false,
                rounding: 0.0,
                rolling: 0.0,
            };
            let b = Motion {
                v: v(200.0),
                radius: 0.5,
                centre: v(4.0),
                awake: true,
                sleeping: false,
                spin: 0.0,
                mesh: false,
                compound: false,
                parts: false,
                rounding: 0.0,
                rolling: 0.0,
            };
            let (dt, slack) = (1.0 / 60.0, 0.02);
            let closest = (0..=10_000)
                .map(|k| {
                    let t = k as f32 / 10_000.0 * dt;
                    ((b.centre + b.v * t) - (a.centre + a.v * t)).length()
                })
                .fold(f32::INFINITY, f32::min);
            let r = a.radius + b.radius + slack;
            if (closest - r).abs() < 1e-3 {
                continue;
            }
            assert_eq!(Motion::paths_meet(&a, &b, dt, slack), closest < r, "closest {closest}, reach {r}");
            if closest < r {
                met += 1;
            } else {
                missed += 1;
            }
        }
        assert!(met > 100 && missed > 100, "{met} meeting and {missed} missing pairs");
    }

    /// The sphere early-out of `update_contact` is sound only if every point of a body lies
    /// within its motion radius of its pose's position: checked on every vertex of a hull
    /// pile (hulls re-centred on their centre of mass) while it falls and tumbles, and the
    /// early-out must actually fire.
    #[test]
    fn bounding_spheres_hold_every_vertex() {
        // Without the path test, which would rule most of these pairs out before.
        let settings = Settings { sleeping: false, path_test: false, ..Default::default() };
        let mut w = crate::scene::stock::hull_pile(60, settings);
        let mut apart = 0;
        for _ in 0..90 {
            w.step(1.0 / 60.0);
            for (b, m) in w.bodies.iter().zip(&w.motions) {
                if let Some(h) = b.shape.hull() {
                    for v in h.vertices() {
                        let d = b.pose.transform_point(*v).distance(b.pose.pos);
                        assert!(d <= m.radius * (1.0 + 1e-5), "vertex {d} m out, radius {}", m.radius);
                    }
                }
            }
            apart += w
                .keys
                .iter()
                .zip(&w.contacts)
                .filter(|(k, c)| !c.recycle.valid && k.apart.gap > 0.0 && c.cache == Default::default())
                .count();
        }
        assert!(apart > 50, "{apart} pair-steps skipped by the spheres before any SAT");
    }
}
