//! Sleeping by islands: bodies connected through touching contacts (union–find over the
//! contact pairs, static bodies excluded) sleep together once every awake member has rested
//! under the thresholds for `Settings::sleep_time`, and wake together when one moves.
//!
//! Jointed dynamic bodies join one island too (`world/joints.rs`), so a chain sleeps and
//! wakes as one; a joint to the world or to a static body joins nothing.
//!
//! Waking happens twice a step. Before the solve ([`World::wake_touched`], right after the
//! narrow phase) every sleeping island that a moving body now touches — a new contact,
//! speculative points included — or pulls through a joint wakes, so the struck bodies take
//! part in the same step's solve exactly as if they had never slept: a ball rolled into a
//! sleeping ball hands over its momentum instead of bouncing off it as off a wall. After
//! the step ([`World::update_sleep`]) islands whose members all rested long enough go to
//! sleep, and the others wake.
//!
//! Each body's rest timer is updated in blocks of bodies on the world's threads; the
//! union–find and the waking and sleeping run on the stepping thread, over the step's list
//! of dynamic bodies (`world/movers.rs`), so a level of static bodies is not read, and over
//! the narrow phase's touching list with each pair's bodies read from its compact key
//! ([`World::touching_pairs`]), so the boxed contacts are not opened. With no body awake
//! (a world asleep) neither wake-up nor the sleep pass has anything to change, and both
//! return before building the islands.
//!
//! A kinematic body joins no island, but while it moves it keeps every island it touches
//! (or holds by a joint) awake, and wakes a sleeping one it runs into.
//!
//! Limits: islands are rebuilt every step from the contacts (no persistent island graph),
//! and the forest is reset over every body; a body touching only static bodies is an island
//! of its own.

use super::{World, MIN_BODIES};
use crate::physics::body::Body;
use crate::physics::joint::WORLD;
use crate::physics::parallel::Shared;
use crate::physics::per_body;
use glam::Vec3;

impl World {
    /// Per body, its island as of the last step (bodies joined by touching contacts and
    /// joints, static bodies excluded): the lowest body index in it; `None` for bodies that
    /// are not dynamic. For drawing (it allocates).
    pub fn islands(&self) -> Vec<Option<u32>> {
        let mut parent = Vec::new();
        self.union_islands(&mut parent);
        (0..self.bodies.len() as u32)
            .map(|i| self.bodies[i as usize].is_dynamic().then(|| Self::find(&mut parent, i)))
            .collect()
    }

    /// Per contact (indexed like [`World::contacts`]), the graph colour its manifold was
    /// solved in during the last step (`solver::colouring`; [`crate::physics::solver::colouring::COLOURS`]:
    /// none, solved after the colours); `None` for a contact not solved (no points, nothing
    /// moving) or a method that does not colour. For drawing (it allocates).
    pub fn graph_colours(&self) -> Vec<Option<u8>> {
        let mut out = vec![None; self.contacts.len()];
        if let Some(colouring) = self.methods.get_ref(&self.settings).colouring() {
            for (i, c) in self.constraints.iter().enumerate() {
                if let Some(slot) = out.get_mut(c.contact as usize) {
                    *slot = Some(colouring.colour_of(i));
                }
            }
        }
        out
    }

    /// Manifolds per graph colour in the last step (the last entry: left without a colour),
    /// for a method that colours (`None` for the others).
    pub fn colour_counts(&self) -> Option<[u32; crate::physics::solver::colouring::COLOURS + 1]> {
        self.methods.get_ref(&self.settings).colouring().map(|c| c.counts)
    }

    /// The root of `i` in the union–find forest, halving paths on the way.
    pub(super) fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let p = parent[i as usize];
            parent[i as usize] = parent[p as usize];
            i = p;
        }
        i
    }

    /// Joins the sets of `a` and `b`; the lower root becomes the root, so the forest does
    /// not depend on the order pairs come in beyond their own order (determinism).
    pub(super) fn union(parent: &mut [u32], a: u32, b: u32) {
        let (ra, rb) = (Self::find(parent, a), Self::find(parent, b));
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }

    /// Before the solve: wakes every sleeping island that a moving body (awake, and not yet
    /// rested for `Settings::sleep_time`, the rule [`World::update_sleep`] wakes islands by)
    /// touches through a contact with points or pulls through a joint. The island is found
    /// as at the end of the step ([`World::find_moving_islands`]), so its whole stack wakes,
    /// not only the body struck.
    /// `gravity_dv`: the velocity this step's gravity already gave the awake bodies (the
    /// one-pass methods add it before detection), given to each woken body too.
    ///
    /// Costs one scan of the dynamic bodies' compact motions when nothing sleeps, one more
    /// of the touching contacts and the joints when something does, and the islands only
    /// when a moving body touches a sleeping one; allocates nothing once the island buffers
    /// have grown.
    pub(super) fn wake_touched(&mut self, gravity_dv: Vec3) {
        // (Only a dynamic body sleeps: the step's list of them, `world/movers.rs`.) Only a
        // moving body wakes a sleeping one: nothing to do unless both kinds are here.
        let motions = &self.motions;
        let kind = |awake: bool| self.movers.dynamic.iter().any(|&i| motions[i as usize].awake == awake);
        let pushed = self.movers.kinematic.iter().any(|&i| motions[i as usize].awake);
        if !self.settings.sleeping || !kind(false) || !(kind(true) || pushed) {
            return;
        }
        let mixed = |a: u32, b: u32| {
            let (ma, mb) = (&motions[a as usize], &motions[b as usize]);
            (ma.awake && mb.sleeping) || (ma.sleeping && mb.awake)
        };
        let struck = self.touching_pairs().any(|(_, a, b)| mixed(a, b))
            || self
                .joints
                .joints
                .iter()
                .any(|j| j.is_alive() && !j.broken && j.a != WORLD && j.b != WORLD && mixed(j.a, j.b));
        if !struck {
            return;
        }
        self.find_moving_islands();
        for k in 0..self.movers.dynamic.len() {
            let i = self.movers.dynamic[k] as usize;
            if !self.motions[i].sleeping {
                continue;
            }
            let r = Self::find(&mut self.island_parent, i as u32);
            if self.island_moving[r as usize] {
                let b = &mut self.bodies[i];
                b.asleep = false;
                b.sleep_time = 0.0;
                b.velocity += gravity_dv;
                // Its records were kept asleep: the prepare stage makes its solver record.
                self.movers.woken.push(i as u32);
            }
        }
    }

    /// The islands' union–find forest, into `parent` (its buffer reused): the contacts with
    /// points between dynamic bodies (the touching list, in contact order, with the bodies
    /// read from the pairs' keys, [`World::touching_pairs`]), and the joints
    /// ([`World::union_joints`]).
    fn union_islands(&self, parent: &mut Vec<u32>) {
        parent.clear();
        per_body::room(parent, self.bodies.len());
        parent.extend(0..self.bodies.len() as u32);
        let bodies = &self.bodies;
        for (_, a, b) in self.touching_pairs() {
            if bodies[a as usize].is_dynamic() && bodies[b as usize].is_dynamic() {
                Self::union(parent, a, b);
            }
        }
        self.union_joints(parent);
    }

    /// Builds the islands ([`World::union_islands`]) into `island_parent`, and marks in `island_moving` the roots of those
    /// with an awake member that has not rested for `Settings::sleep_time`: an island stays
    /// or comes awake while it has one.
    fn find_moving_islands(&mut self) {
        let n = self.bodies.len();
        let mut parent = std::mem::take(&mut self.island_parent);
        self.union_islands(&mut parent);
        self.island_parent = parent;
        self.island_moving.clear();
        per_body::fit(&mut self.island_moving, n, false);
        let rest = self.settings.sleep_time;
        // The step's dynamic bodies, in index order (`world/movers.rs`): a level of static
        // bodies is not read.
        for &i in &self.movers.dynamic {
            let b = &self.bodies[i as usize];
            if !b.asleep && b.sleep_time < rest {
                let r = Self::find(&mut self.island_parent, i);
                self.island_moving[r as usize] = true;
            }
        }
        // A moving kinematic body moves every island it touches or holds by a joint (it
        // joins none: Box3D links it into them, to the same effect).
        let bodies = &self.bodies;
        let pushing = |i: u32| i != WORLD && bodies[i as usize].is_moving_kinematic();
        if self.movers.kinematic.iter().any(|&i| pushing(i)) {
            let (mut parent, mut moving) =
                (std::mem::take(&mut self.island_parent), std::mem::take(&mut self.island_moving));
            let joined = self.joints.joints.iter().filter(|j| j.is_alive() && !j.broken).map(|j| (j.a, j.b));
            for (a, b) in self.touching_pairs().map(|(_, a, b)| (a, b)).chain(joined) {
                for (k, d) in [(a, b), (b, a)] {
                    if pushing(k) && d != WORLD && bodies[d as usize].is_dynamic() {
                        moving[Self::find(&mut parent, d) as usize] = true;
                    }
                }
            }
            (self.island_parent, self.island_moving) = (parent, moving);
        }
    }

    /// Accumulates rest time per body and puts islands to sleep or wakes them.
    pub(super) fn update_sleep(&mut self, dt: f32) {
        let s = self.settings;
        // Each body's timer on its own, in blocks on the threads: the awake dynamic bodies
        // are those the solver moved this step, where those are few (`world/movers.rs`).
        let bodies = Shared::new(&mut self.bodies);
        let timer = |b: &mut Body| {
            if !b.is_dynamic() || b.asleep {
                return;
            }
            if b.velocity.length() < s.sleep_linear && b.angular_velocity.length() < s.sleep_angular {
                b.sleep_time += dt;
            } else {
                b.sleep_time = 0.0;
            }
        };
        let active = &self.movers.active;
        if self.movers.few_active {
            self.workers.for_blocks(active.len(), MIN_BODIES, |_, r| {
                for &i in &active[r] {
                    // SAFETY: each body is in one block only (the list has no repeats).
                    timer(unsafe { bodies.get_mut(i as usize) });
                }
            });
        } else {
            self.workers.for_blocks(bodies.len(), MIN_BODIES, |_, r| {
                // SAFETY: each block owns its bodies.
                unsafe { bodies.range_mut(r) }.iter_mut().for_each(timer);
            });
        }
        // With every dynamic body asleep no island moves, and none changes.
        let bodies = &self.bodies;
        if !s.sleeping || self.movers.dynamic.iter().all(|&i| bodies[i as usize].asleep) {
            return;
        }
        self.find_moving_islands();
        for k in 0..self.movers.dynamic.len() {
            let i = self.movers.dynamic[k] as usize;
            let r = Self::find(&mut self.island_parent, i as u32);
            let b = &mut self.bodies[i];
            if self.island_moving[r as usize] {
                if b.asleep {
                    b.asleep = false;
                    b.sleep_time = 0.0;
                }
            } else if !b.asleep {
                b.asleep = true;
                b.velocity = Vec3::ZERO;
                b.angular_velocity = Vec3::ZERO;
            }
        }
    }
}
