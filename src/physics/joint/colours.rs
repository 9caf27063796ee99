//! Graph colouring of the step's joints (Box2D v3 colours its joints with its contacts):
//! the order in which the joint passes visit them, and what lets the fast path share each
//! colour out between the world's worker threads.
//!
//! A world that solves at least [`COLOUR_FROM`] joints in a step gives each the first of
//! [`COLOURS`] colours in which neither of its *moving* bodies is used yet (the world, static
//! and sleeping bodies are shared: the passes never write them), and solves them colour by
//! colour, joints of one colour in their slot order, the joints left without a colour last.
//! Joints of one colour share no moving body, so solving them one after another (the
//! per-joint path) or at the same time on several threads (the compact path,
//! `Compact::solve_coloured`) gives the same numbers. A world with fewer
//! joints (a chain, a ragdoll, a cradle) solves them in slot order, one sequence, as a
//! textbook sweep does.
//!
//! Why a threshold: the order is part of the method (Gauss–Seidel converges differently
//! along a chain visited end to end than visited in alternate links), and it must not
//! depend on the thread count; small jointed scenes keep the order they are taught with,
//! and large nets, where threads pay, take the colour order.
//!
//! The colouring depends only on the joints solved, their bodies and which of those move,
//! so it is kept and redone only when the solved joints or the world's edits count (a joint
//! added, removed or broken, a body edited) differ from the last step's: a settled joint net
//! pays one comparison of its solved list per step instead of the greedy search (it was the
//! largest part of the joint grid's step that ran on one thread).
//!
//! Limits: greedy, in slot order (not the fewest colours).

use super::WORLD;
use crate::physics::solver::colouring::{body_bit, first_free, COLOURS};
use crate::physics::solver::SolverBody;
use std::ops::Range;

/// Joints solved in a step from which the joints are coloured (below it: slot order).
pub const COLOUR_FROM: usize = 64;

/// The step's joint colouring; buffers reused between steps.
#[derive(Clone, Debug, Default)]
pub struct JointColours {
    /// Where each colour's joints start in the solving order, then where the joints
    /// without a colour start, then the end (`COLOURS + 2` entries); empty when the joints
    /// are solved in one sequence (fewer than [`COLOUR_FROM`]).
    starts: Vec<u32>,
    /// Per colour, a bitset over bodies that colour already uses.
    used: Vec<u64>,
    colour: Vec<u8>,
    /// Scratch of the reordering: the old position of each joint of the new order, and
    /// the slots in the new order.
    perm: Vec<u32>,
    order: Vec<u32>,
    /// What the kept colouring was made for: the solved joints in slot order, and the
    /// world's edits count then (`None`: nothing kept).
    made_for: Vec<u32>,
    made_at: Option<u64>,
}

impl JointColours {
    /// Colours the joints `active` (slots, in slot order; `ends(k)` their bodies) and
    /// reorders `active` colour by colour (stable). Fewer than [`COLOUR_FROM`] joints: left
    /// as they are. `edits` is the world's count of edits to joints and bodies: with it and
    /// `active` as last time, the kept colouring is reused (module docs).
    pub(crate) fn colour(
        &mut self,
        active: &mut [u32],
        ends: impl Fn(u32) -> (u32, u32),
        bodies: &[SolverBody],
        edits: u64,
    ) {
        if active.len() < COLOUR_FROM {
            self.starts.clear();
            self.made_at = None;
            return;
        }
        if self.made_at != Some(edits) || self.made_for != active {
            self.assign(active, ends, bodies);
            self.made_for.clear();
            self.made_for.extend_from_slice(active);
            self.made_at = Some(edits);
        }
        // The order, colour by colour.
        active.copy_from_slice(&self.order);
    }

    /// The greedy colouring of `active` (slot order): `starts`, and the permutation to the
    /// solving order (`perm`, and the slots in it, `order`).
    fn assign(&mut self, active: &[u32], ends: impl Fn(u32) -> (u32, u32), bodies: &[SolverBody]) {
        self.starts.clear();
        let words = bodies.len().div_ceil(64);
        self.used.clear();
        self.used.resize(words * COLOURS, 0);
        self.colour.clear();
        let mut counts = [0u32; COLOURS + 1];
        let bit = |i: u32| body_bit(i, i != WORLD && bodies.get(i as usize).is_some_and(|s| s.inv_mass > 0.0));
        for &k in active.iter() {
            let (a, b) = ends(k);
            let chosen = first_free(&mut self.used, words, bit(a), bit(b), 0..COLOURS);
            self.colour.push(chosen as u8);
            counts[chosen] += 1;
        }
        // Counting sort by colour (stable).
        self.starts.push(0);
        for n in counts {
            let last = *self.starts.last().expect("one start");
            self.starts.push(last + n);
        }
        self.perm.clear();
        self.perm.resize(active.len(), 0);
        let mut at = [0u32; COLOURS + 1];
        at.copy_from_slice(&self.starts[..COLOURS + 1]);
        for (i, &c) in self.colour.iter().enumerate() {
            // `perm[j]`: the old position of the j-th joint of the new order.
            self.perm[at[c as usize] as usize] = i as u32;
            at[c as usize] += 1;
        }
        self.order.clear();
        self.order.extend(self.perm.iter().map(|&i| active[i as usize]));
    }

    /// Heap bytes of a copy (for the history's budget).
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        sz(self.starts.as_slice())
            + sz(self.used.as_slice())
            + sz(self.colour.as_slice())
            + sz(self.perm.as_slice())
            + sz(self.order.as_slice())
            + sz(self.made_for.as_slice())
    }

    /// Whether the joints are solved colour by colour this step.
    pub fn coloured(&self) -> bool {
        !self.starts.is_empty()
    }

    /// The solving order's ranges: one per colour, then the joints without a colour
    /// (empty ranges included; none when not coloured).
    pub fn ranges(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        self.starts.windows(2).map(|w| w[0] as usize..w[1] as usize)
    }

    /// Joints per colour this step (the last: without a colour); `None` when not coloured.
    pub fn counts(&self) -> Option<[u32; COLOURS + 1]> {
        self.coloured().then(|| std::array::from_fn(|c| self.starts[c + 1] - self.starts[c]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moving(n: usize) -> Vec<SolverBody> {
        (0..n).map(|_| SolverBody { inv_mass: 1.0, ..Default::default() }).collect()
    }

    /// A chain of joints 0–1, 1–2, …: two colours alternate, no two joints of a colour
    /// share a moving body, and the order is stable within a colour.
    #[test]
    fn a_chain_takes_two_alternating_colours() {
        let n = 100;
        let bodies = moving(n + 1);
        let ends = |k: u32| (k, k + 1);
        let mut active: Vec<u32> = (0..n as u32).collect();
        let mut c = JointColours::default();
        c.colour(&mut active, ends, &bodies, 0);
        let counts = c.counts().expect("coloured");
        assert_eq!((counts[0], counts[1], counts[COLOURS]), (50, 50, 0));
        let ranges: Vec<_> = c.ranges().collect();
        assert!(active[ranges[0].clone()].iter().all(|k| k % 2 == 0));
        assert!(active[ranges[1].clone()].windows(2).all(|w| w[0] < w[1]));
        for r in ranges {
            let mut seen = std::collections::HashSet::new();
            for &k in &active[r] {
                let (a, b) = ends(k);
                assert!(seen.insert(a) && seen.insert(b), "joint {k} shares a body within its colour");
            }
        }
    }

    /// The colouring is kept for the same joints and edits count, and redone when either
    /// changes: a body made static (an edit) frees its joints' colours.
    #[test]
    fn a_kept_colouring_is_redone_after_an_edit_or_for_other_joints() {
        let mut bodies = moving(101);
        let ends = |k: u32| (k, k + 1);
        let colour = |c: &mut JointColours, bodies: &[SolverBody], n: u32, edits: u64| {
            let mut active: Vec<u32> = (0..n).collect();
            c.colour(&mut active, ends, bodies, edits);
            (c.counts().expect("coloured"), active)
        };
        let mut c = JointColours::default();
        let (first, order) = colour(&mut c, &bodies, 100, 0);
        assert_eq!((first[0], first[1]), (50, 50));
        // Body 1 made static: with the same edits count the kept colouring is used as it is.
        bodies[1].inv_mass = 0.0;
        assert_eq!(colour(&mut c, &bodies, 100, 0), (first, order.clone()));
        // Counted as an edit: joints 0 and 1 share only the static body now, and the greedy
        // pass gives both colour 0.
        let (edited, _) = colour(&mut c, &bodies, 100, 1);
        let fresh = {
            let mut d = JointColours::default();
            colour(&mut d, &bodies, 100, 7).0
        };
        assert_eq!(edited, fresh);
        assert_ne!(edited, first);
        // Other joints (one fewer): redone too.
        assert_eq!(colour(&mut c, &bodies, 99, 1).1.len(), 99);
        assert_eq!(colour(&mut c, &bodies, 99, 1).0.iter().sum::<u32>(), 99);
    }

    /// The world and static bodies are shared freely; a short list is not coloured.
    #[test]
    fn static_ends_are_shared_and_short_lists_stay_in_order() {
        let mut bodies = moving(200);
        bodies[0].inv_mass = 0.0;
        // Every joint hangs from static body 0 or the world: all take colour 0.
        let ends = |k: u32| if k % 2 == 0 { (0, k + 1) } else { (WORLD, k + 1) };
        let mut active: Vec<u32> = (0..100).collect();
        let mut c = JointColours::default();
        c.colour(&mut active, ends, &bodies, 0);
        assert_eq!(c.counts().expect("coloured")[0], 100);
        let mut short: Vec<u32> = (0..COLOUR_FROM as u32 - 1).rev().collect();
        let before = short.clone();
        c.colour(&mut short, |k| (k, k + 1), &bodies, 0);
        assert!(!c.coloured());
        assert_eq!(short, before);
    }
}
