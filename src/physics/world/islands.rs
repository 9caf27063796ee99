//! Sleeping by islands: bodies connected through touching contacts (union–find over the
//! contact pairs, static bodies excluded) sleep together once every awake member has rested
//! under the thresholds for `Settings::sleep_time`, and wake together when one moves.
//!
//! Jointed dynamic bodies join one island too (`world/joints.rs`), so a chain sleeps and
//! wakes as one; a joint to the world or to a static body joins nothing.
//!
//! Limits: islands are rebuilt every step from the contacts (no persistent island graph);
//! a body touching only static bodies is an island of its own.

use super::World;
use glam::Vec3;

impl World {
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

    /// Accumulates rest time per body and puts islands to sleep or wakes them.
    pub(super) fn update_sleep(&mut self, dt: f32) {
        let s = self.settings;
        for b in &mut self.bodies {
            if !b.is_dynamic() || b.asleep {
                continue;
            }
            if b.velocity.length() < s.sleep_linear && b.angular_velocity.length() < s.sleep_angular {
                b.sleep_time += dt;
            } else {
                b.sleep_time = 0.0;
            }
        }
        if !s.sleeping {
            return;
        }
        let n = self.bodies.len();
        self.island_parent.clear();
        self.island_parent.extend(0..n as u32);
        for c in &self.contacts {
            if c.manifold.points.is_empty() {
                continue;
            }
            if self.bodies[c.a as usize].is_dynamic() && self.bodies[c.b as usize].is_dynamic() {
                Self::union(&mut self.island_parent, c.a, c.b);
            }
        }
        self.union_joints();
        // An island stays awake while any awake member has not rested long enough.
        self.island_moving.clear();
        self.island_moving.resize(n, false);
        for i in 0..n {
            let b = &self.bodies[i];
            if b.is_dynamic() && !b.asleep && b.sleep_time < s.sleep_time {
                let r = Self::find(&mut self.island_parent, i as u32);
                self.island_moving[r as usize] = true;
            }
        }
        for i in 0..n {
            if !self.bodies[i].is_dynamic() {
                continue;
            }
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
