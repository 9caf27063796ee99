//! Snapshots of a world for the window's history (step back, scrubbing): a copy of the state
//! a later step reads, without the per-step scratch, and its size.
//!
//! What a snapshot keeps: bodies, poses and velocities, sleep timers, the persistent contacts
//! (SAT caches, manifolds, accumulated impulses for warm starting, recycling anchors) and
//! the list of those with points, the
//! broad phase's grid and kept pairs, the joints (with their warm-start impulses), the enlarged boxes
//! and spheres, the watched-pair records, the
//! containment record and the settings. What it drops: buffers every step refills before
//! reading them (the solver's constraints and bodies, the methods' batches, the narrow
//! phase's scratch, the pool of ended contacts (the worker threads are shared, not copied), the continuous-collision record and scratch). So stepping a restored snapshot gives
//! bit-identical results to stepping the world it was taken from (`tests/history.rs` checks
//! it in every resolution method); it only allocates those buffers again on its first steps.
//!
//! Limits: [`World::snapshot_bytes`] counts what the snapshot allocates (vector lengths times
//! element sizes, the boxed contacts, body names); hull shapes are shared between the world
//! and its snapshots (`Arc`) and not counted.

use super::World;
use crate::physics::collide::Scratch;
use crate::physics::solver::{Methods, PositionMoves};
use std::mem::size_of_val;

impl World {
    /// A copy of the world's state for the history (module docs): stepping it gives the
    /// same results as stepping `self`.
    pub fn snapshot(&self) -> World {
        World {
            bodies: self.bodies.clone(),
            generations: self.generations.clone(),
            gravity: self.gravity,
            settings: self.settings,
            pair_materials: self.pair_materials.clone(),
            profile: self.profile,
            lap: self.lap,
            step_count: self.step_count,
            time: self.time,
            broad: self.broad.clone(),
            aabbs: self.aabbs.clone(),
            fat: self.fat.clone(),
            fat_spheres: self.fat_spheres.clone(),
            escaped: Vec::new(),
            kept: Vec::new(),
            boxes: Vec::new(),
            turns: Vec::new(),
            broad_dirty: self.broad_dirty,
            motions: self.motions.clone(),
            round_parts: self.round_parts,
            // Without the boxes and rotation matrices above: the first step computes every
            // body's again.
            movers: Default::default(),
            pairs: self.pairs.clone(),
            contacts: self.contacts.clone(),
            contacts_next: Vec::new(),
            keys: self.keys.clone(),
            keys_next: Vec::new(),
            pair_match: Default::default(),
            open: Vec::new(),
            contact_pool: Vec::new(),
            parts: Default::default(),
            // (The islands drawn from a restored snapshot read it.)
            touching: self.touching.clone(),
            moving_contacts: Vec::new(),
            narrow_outcome: Vec::new(),
            narrow_scratch: Vec::new(),
            bouncy: self.bouncy,
            scratch: Scratch::default(),
            solver_bodies: Vec::new(),
            constraints: Vec::new(),
            constraint_ends: Vec::new(),
            methods: Methods::default(),
            moves: PositionMoves::default(),
            start_poses: self.start_poses.clone(),
            island_parent: Vec::new(),
            island_moving: Vec::new(),
            watch: self.watch.clone(),
            containment: self.containment.clone(),
            record_convergence: self.record_convergence,
            convergence: self.convergence.clone(),
            convergence_scratch: Default::default(),
            solve_trace: self.solve_trace.clone(),
            joints: self.joints.clone(),
            characters: self.characters.clone(),
            paths: self.paths.clone(),
            meshes: self.meshes.clone(),
            continuous: Default::default(),
            continuous_scratch: Default::default(),
            earliest_scratch: Default::default(),
            // The thread pool is shared, not copied.
            workers: self.workers.clone(),
        }
    }

    /// Heap bytes [`World::snapshot`] allocates for this world (module docs: shared shapes
    /// are not counted).
    pub fn snapshot_bytes(&self) -> usize {
        let names: usize = self.bodies.iter().map(|b| b.name.len()).sum();
        let contacts = self.contacts.len() * (size_of::<usize>() + size_of::<crate::physics::contact::Contact>());
        size_of_val(self.bodies.as_slice())
            + names
            + size_of_val(self.generations.as_slice())
            + size_of_val(self.pair_materials.as_slice())
            + self.broad.heap_bytes()
            + size_of_val(self.aabbs.as_slice())
            + size_of_val(self.fat.as_slice())
            + size_of_val(self.fat_spheres.as_slice())
            + size_of_val(self.motions.as_slice())
            + size_of_val(self.pairs.as_slice())
            + contacts
            + size_of_val(self.keys.as_slice())
            + size_of_val(self.touching.as_slice())
            + size_of_val(self.start_poses.as_slice())
            + size_of_val(self.watch.as_slice())
            + self.containment.heap_bytes()
            + size_of_val(self.convergence.as_slice())
            + self.joints.heap_bytes()
            + self.characters.iter().map(|c| c.heap_bytes()).sum::<usize>()
            + self.paths.iter().map(|r| size_of_val(r) + r.heap_bytes()).sum::<usize>()
            + size_of_val(self.meshes.as_slice())
    }
}
