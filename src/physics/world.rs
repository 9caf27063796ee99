//! The world: bodies, the persistent contact set, and the fixed-step pipeline.
//!
//! `step(dt)` runs the stages of [`Stage`], timing each into [`Profile`]. Which stages run,
//! and in what order, is the resolution method's [`Schedule`]; the method itself is a
//! [`crate::physics::solver::Resolver`] whose stage verbs the world calls (the world knows
//! no method's internals):
//!
//! Before either, each kinematic body on a path is given its velocity towards the path's
//! next point (`world/paths.rs`); kinematic bodies move with the integration, after the
//! bodies the solver moves (`world/integrate.rs`).
//!
//! Both schedules wake, right after `NarrowPhase`, every sleeping island a moving body now
//! touches or pulls through a joint (`world/islands.rs`), so a struck sleeper takes part in
//! the same step's solve.
//!
//! - **Soft step** (iterative, scalar or SIMD): `BroadPhase` (AABBs swept along each body's
//!   step and grown by its spin reach; a hashed uniform grid over enlarged boxes whose
//!   pairs are kept, filtered by the actual boxes, until a body leaves its enlarged box;
//!   `world/collision.rs`) → `NarrowPhase` (a manifold per
//!   candidate pair with the speculative margin of the pair's *relative* motion; the pair's
//!   SAT cache and last impulses are carried over by feature ID; a pair that moved less than
//!   `Settings::recycle_distance` since its manifold was computed keeps it — normal, points
//!   and lever arms as captured, depths measured again (Box3D's contact recycling,
//!   [`Recycle`]); a pair found apart is skipped while its gap minus its relative motion
//!   stays above the margin, [`Apart`], read from a compact array beside the contacts;
//!   `world/narrow.rs`) →
//!   `Prepare` (lever arms, tangents, materials, soft-contact coefficients,
//!   `world/prepare.rs`; then the method's own: effective masses, colouring, SIMD batches)
//!   → for each substep: `IntegrateForces` (gravity) → `WarmStart` → `SolveVelocities` →
//!   `IntegratePositions` (`world/integrate.rs`) → `Relax` — then `Restitution` →
//!   `Continuous` → `StoreImpulses` → `Sleep` (islands, `world/islands.rs`).
//! - **One pass** (naive, Cyclone, averaged): `IntegrateForces` → `BroadPhase` →
//!   `NarrowPhase` → `Prepare` → `SolveVelocities` → `IntegratePositions` →
//!   `PositionCorrection` → `Continuous` → `StoreImpulses` → `Sleep`; Cyclone, which
//!   projects penetrations first, runs `PositionCorrection` right after `Prepare` instead.
//!
//! In every method the joints are prepared in `Prepare`, solved before the contacts in the
//! velocity stages, and measured and broken in `StoreImpulses` (`world/joints.rs`); the
//! characters move in `Characters`, after `Sleep` (`world/characters.rs`).
//!
//! Free bodies conserve |L| (see [`crate::physics::free_rotation`]); bodies hung from a fixed
//! point by their joints turn about it, so they conserve |L| about it (`world/pivots.rs`,
//! found in `Prepare`, moved in `IntegratePositions`, their pivots' pull reported in
//! `StoreImpulses`).
//!
//! Each step ends with one finiteness check per body: a body whose state became NaN or
//! infinite is frozen (asleep, no contacts) and reported ([`World::non_finite`],
//! `world/containment.rs`).
//!
//! Contacts are stored sorted by body pair, so the whole step is deterministic: the same
//! scene and settings give bit-identical states on the same build. Once a scene has
//! settled, a step allocates nothing: every buffer is kept and reused.
//!
//! Continuous collision (`Settings::ccd`): in the fast mode (default) a `Continuous` stage
//! after the method's schedule moves bodies that moved far for their size back to their
//! time of impact against static bodies (bullets: any body; `world/continuous.rs`); in the
//! earliest-collision mode the step is cut at each earliest collision and the schedule runs
//! once per cut (`world/earliest.rs`). What it did is [`World::continuous`].
//!
//! Limits: speculative contacts reach at most [`MAX_SPECULATIVE`] per step, so with
//! continuous collision off a faster body can tunnel through a thin one; a recycled
//! manifold gains no new points until its pair has moved the recycling distance (a pair
//! with a mesh body: the slop).
//!
//! Threads (`Settings::threads`, [`crate::physics::parallel`]): the broad phase (filing the
//! bodies in its grid, the pair search, the sort and merge of the pairs), the narrow phase
//! (`world/narrow.rs`), `Prepare`, the SIMD solver's passes (each graph colour's batches,
//! colours in sequence), the joints (prepared and measured one by one; solved colour by
//! colour from 64 on, `joint/colours.rs`), storing the impulses, the integration and the
//! continuous stage's sweeps share their independent items out between the world's worker
//! threads, giving bit-identical results at any count. The broad phase's bucket counts and
//! enlarged-box checks, the contacts' greedy colouring (after its gather), restitution, the continuous stage's moves
//! back, the islands, the pinned bodies and the one-pass methods' contact solves run on the
//! stepping thread.
//!
//! Materials: see `world/prepare.rs` and [`PairMaterial`].

use crate::physics::body::{Body, BodyDesc, BodyHandle, BodyKind};
use crate::physics::broadphase::BroadPhase;
use crate::physics::collide::{CollideConfig, Scratch};
pub use crate::physics::contact::{Apart, Contact, PointImpulse, Recycle};
use crate::physics::math::{Aabb, Iso};
use crate::physics::parallel::Workers;
use crate::physics::shape::Shape;
use crate::physics::solver::{
    ContactConstraint, ContinuousMode, Methods, PositionMoves, Schedule, Settings, SolverBody, StepInfo,
};
use glam::{Mat3, Vec3, Vec3A, Vec4};
use std::sync::Arc;
use web_time::Instant;

mod ccd_record;
mod characters;
mod collision;
mod containment;
mod continuous;
mod convergence;
mod earliest;
mod integrate;
mod islands;
mod joints;
mod mesh_parts;
mod movers;
mod narrow;
mod pair_filter;
mod paths;
mod pivots;
mod prepare;
mod recorded;
mod snapshot;
mod solve_trace;
mod stage;
mod sweep_ctx;
mod watch;

pub use ccd_record::{ContinuousRecord, SubEvent, ToiEvent, ToiMethod, ToiQuery};
pub use characters::{CharacterDesc, CharacterError, Push, WorldCharacter};
pub use containment::{NonFinite, Origin};
pub use continuous::CCD_EXTENT_FRACTION;
pub use earliest::MIN_CUT;
pub use integrate::SMALL_TURN;
pub use joints::{joint_hertz_cap, JointError, JointRecord, JointSet};
pub use paths::{KinematicPath, PathError, ARRIVED};
pub use solve_trace::{PairSolve, PassKind, PassRecord};
pub use stage::{Profile, Stage, PROFILED_THREADS};
pub use watch::PairRecord;

/// How far (m) the broad phase's enlarged boxes reach beyond each body's swept box
/// (Box2D's `aabbMargin`): larger means fewer grid runs and a longer list of kept pairs to
/// filter each step.
pub const FAT_MARGIN: f32 = 0.1;

/// Largest speculative reach (m): beyond this a very fast body is caught by continuous
/// collision ([`ContinuousMode`]), or tunnels with it off.
pub const MAX_SPECULATIVE: f32 = 2.0;

/// How many contacts ahead the narrow phase and `prepare` prefetch the boxed contacts.
pub(crate) const PREFETCH_AHEAD: usize = 4;

/// Fewest bodies a worker thread takes at once in a stage's pass over the bodies (boxing,
/// integrating, preparing, the sleep timers, the continuous and containment checks):
/// smaller scenes run these passes on the calling thread.
pub(crate) const MIN_BODIES: usize = 256;

/// A friction/restitution override for one named pair of bodies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairMaterial {
    /// First body index.
    pub a: u32,
    /// Second body index.
    pub b: u32,
    /// Friction to use.
    pub friction: f32,
    /// Restitution to use.
    pub restitution: f32,
}

/// Numbers the UI and CLI show.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Bodies in the world.
    pub bodies: usize,
    /// Dynamic bodies not asleep.
    pub awake: usize,
    /// Candidate pairs from the broad phase.
    pub pairs: usize,
    /// Pairs with at least one point.
    pub touching: usize,
    /// Contact points.
    pub points: usize,
    /// Largest penetration depth (m).
    pub max_penetration: f32,
}

/// A simulation world. See the module docs for the step.
#[derive(Clone, Debug)]
pub struct World {
    bodies: Vec<Body>,
    generations: Vec<u32>,
    /// Gravity (m/s²).
    pub gravity: Vec3,
    /// Solver and sleeping parameters; may change between steps.
    pub settings: Settings,
    /// Per-pair material overrides.
    pub pair_materials: Vec<PairMaterial>,
    /// Timings of the last step.
    pub profile: Profile,
    /// When the last timed stage ended ([`World::timed`]).
    lap: Instant,
    /// Steps taken.
    pub step_count: u64,
    /// Simulated time (s).
    pub time: f64,
    broad: BroadPhase,
    aabbs: Vec<Aabb>,
    /// Each body's rotation as a matrix, at the step's start (made beside its motion record
    /// in the broad phase; the narrow phase's recycling moves the anchors with them, one
    /// per body instead of two per pair).
    turns: Vec<glam::Mat3A>,
    /// The same boxes in SIMD lanes, for the kept pairs' box test (scratch of the broad
    /// phase, rewritten every step).
    boxes: Vec<[Vec3A; 2]>,
    /// Enlarged ("fat") boxes the broad phase ran on; the candidate pairs stay valid while
    /// every body's box stays inside its fat one.
    fat: Vec<Aabb>,
    /// Enlarged bounding spheres (centre, radius) the broad phase ran on (empty with the path
    /// test off, or where the last full build of the grid did not take them): the grid's
    /// pairs are also kept only while these overlap, and stay valid while every body's swept
    /// sphere stays inside its own (`world/collision.rs`).
    fat_spheres: Vec<Vec4>,
    /// Bodies whose box left its enlarged box, or swept sphere its enlarged sphere, this step
    /// (scratch of the broad phase).
    escaped: Vec<u32>,
    /// The broad phase's kept pairs that passed this step's box and path tests, each
    /// thread's share at the start of its own stretch (filled on the threads, gathered in
    /// order; `world/pair_filter.rs`).
    kept: Vec<(u32, u32)>,
    /// Set when bodies were edited: the next broad phase starts afresh. (New bodies are
    /// picked up from the count: `world/movers.rs`.)
    broad_dirty: bool,
    /// Per body, what the narrow phase reads (filled by the broad phase).
    motions: Vec<collision::Motion>,
    /// A compound with round children touched this step: `prepare` gives its contacts
    /// their child's rounding (`World::part_rounding`).
    round_parts: bool,
    /// The bodies the per-body stages visit (`world/movers.rs`).
    movers: movers::Movers,
    /// The candidate pairs of this step: the grid's pairs (on the enlarged boxes) whose
    /// actual boxes overlap, sorted.
    pairs: Vec<(u32, u32)>,
    /// Boxed, so that when the pair list changes (most steps of a moving pile) the contacts
    /// (about 600 bytes each) are regrouped by moving pointers, not copied, which made the
    /// narrow phase of a moving pile faster (docs/BENCHMARKS.md).
    #[allow(clippy::vec_box)]
    contacts: Vec<Box<Contact>>,
    #[allow(clippy::vec_box)]
    contacts_next: Vec<Box<Contact>>,
    /// Per contact (same order): its pair and [`Apart`] record in one compact array, so the
    /// narrow phase matches pairs and skips the pairs still apart without opening the
    /// contacts' boxes (faster on piles with many pairs still apart, docs/BENCHMARKS.md).
    keys: Vec<narrow::PairKey>,
    keys_next: Vec<narrow::PairKey>,
    /// Scratch of the pair matching (`World::match_pairs`).
    pair_match: narrow::PairMatch,
    /// Per worker thread, the indices of its block's contacts that are not still apart
    /// (the narrow phase opens only these).
    open: Vec<Vec<u32>>,
    /// Boxes of contacts whose pair ended, reused for new pairs (no allocation once the
    /// number of pairs stops growing).
    #[allow(clippy::vec_box)]
    contact_pool: Vec<Box<Contact>>,
    /// The further manifolds of body–mesh pairs (one per normal group after the first),
    /// kept in `contacts` after the pair-aligned ones ([`mesh_parts::MeshParts`]).
    parts: mesh_parts::MeshParts,
    /// Indices of the contacts with at least one point (prepare visits only these).
    touching: Vec<u32>,
    /// With sleeping on, the touching contacts with a body that moves (`world/prepare.rs`).
    moving_contacts: Vec<u32>,
    /// Per pair of this step, what the narrow phase made of it.
    narrow_outcome: Vec<narrow::Outcome>,
    /// The narrow phase's collision scratch, one per worker thread.
    narrow_scratch: Vec<Scratch>,
    /// Whether any prepared constraint has restitution (else the restitution pass is skipped).
    bouncy: bool,
    scratch: Scratch,
    solver_bodies: Vec<SolverBody>,
    constraints: Vec<ContactConstraint>,
    /// Scratch of `prepare`: per constraint slot, its two bodies.
    constraint_ends: Vec<[u32; 2]>,
    /// One of each resolution method ([`Methods`]); the settings pick which runs.
    methods: Methods,
    /// The position moves of the last position-correction stage.
    moves: PositionMoves,
    start_poses: Vec<Iso>,
    island_parent: Vec<u32>,
    island_moving: Vec<bool>,
    /// Records of the watched pairs ([`PairRecord`]), usually none or the selected pair.
    watch: Vec<PairRecord>,
    /// Bodies frozen after their state became non-finite (`world/containment.rs`).
    containment: containment::Containment,
    /// Record the change of the normal impulses per solve pass (`world/convergence.rs`).
    pub record_convergence: bool,
    convergence: Vec<f32>,
    convergence_scratch: (Vec<f32>, Vec<f32>),
    /// The traced solve of one pair (`world/solve_trace.rs`).
    solve_trace: Option<Box<solve_trace::PairSolve>>,
    /// Joints (`world/joints.rs`).
    joints: JointSet,
    /// Collide-and-slide characters (`world/characters.rs`).
    characters: Vec<WorldCharacter>,
    /// The kinematic bodies on a path (`world/paths.rs`).
    paths: Vec<paths::PathRun>,
    /// Static triangle meshes (the characters collide with them).
    meshes: Vec<std::sync::Arc<crate::physics::mesh::TriMesh>>,
    /// What continuous collision did in the last step ([`World::continuous`]).
    continuous: ContinuousRecord,
    continuous_scratch: continuous::ContinuousScratch,
    earliest_scratch: earliest::EarliestScratch,
    /// The threads the step shares its stages between (`Settings::threads`).
    workers: Workers,
}

impl Default for World {
    fn default() -> Self {
        Self::new(Vec3::new(0.0, -9.81, 0.0), Settings::default())
    }
}

/// Why a body could not be added.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BodyError {
    /// Density or mass not positive and finite.
    #[error("body '{0}': mass and density must be positive and finite")]
    BadMass(String),
    /// Mass or inertia not representable in f32 (a shape too small or too light).
    #[error("body '{0}': its mass or inertia is not a positive finite f32 (the shape is too small or too light)")]
    BadInertia(String),
    /// A triangle mesh on a body that is not static (dynamic or kinematic).
    #[error("body '{0}': a triangle mesh has no volume, so it can only be static (kind: Static)")]
    DynamicMesh(String),
}

impl World {
    /// An empty world.
    pub fn new(gravity: Vec3, settings: Settings) -> Self {
        Self {
            bodies: Vec::new(),
            generations: Vec::new(),
            gravity,
            settings,
            pair_materials: Vec::new(),
            profile: Profile::default(),
            lap: Instant::now(),
            step_count: 0,
            time: 0.0,
            broad: BroadPhase::default(),
            aabbs: Vec::new(),
            turns: Vec::new(),
            fat: Vec::new(),
            fat_spheres: Vec::new(),
            escaped: Vec::new(),
            kept: Vec::new(),
            boxes: Vec::new(),
            broad_dirty: true,
            pairs: Vec::new(),
            motions: Vec::new(),
            round_parts: false,
            movers: Default::default(),
            contacts: Vec::new(),
            contacts_next: Vec::new(),
            keys: Vec::new(),
            keys_next: Vec::new(),
            pair_match: Default::default(),
            open: Vec::new(),
            contact_pool: Vec::new(),
            parts: Default::default(),
            touching: Vec::new(),
            moving_contacts: Vec::new(),
            narrow_outcome: Vec::new(),
            narrow_scratch: Vec::new(),
            bouncy: false,
            scratch: Scratch::default(),
            solver_bodies: Vec::new(),
            constraints: Vec::new(),
            constraint_ends: Vec::new(),
            methods: Methods::default(),
            moves: PositionMoves::default(),
            start_poses: Vec::new(),
            island_parent: Vec::new(),
            island_moving: Vec::new(),
            watch: Vec::new(),
            containment: Default::default(),
            record_convergence: false,
            convergence: Vec::new(),
            convergence_scratch: Default::default(),
            solve_trace: None,
            joints: JointSet::default(),
            characters: Vec::new(),
            paths: Vec::new(),
            meshes: Vec::new(),
            continuous: ContinuousRecord::default(),
            continuous_scratch: Default::default(),
            earliest_scratch: Default::default(),
            workers: Workers::default(),
        }
    }

    /// Adds a body; hull and compound shapes are re-centred so the centre of mass is the
    /// body origin.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, BodyError> {
        if desc.shape.mesh().is_some() && desc.kind != BodyKind::Static {
            return Err(BodyError::DynamicMesh(desc.name));
        }
        let density = match desc.mass {
            Some(m) if m > 0.0 && m.is_finite() => m / desc.shape.volume(),
            Some(_) => return Err(BodyError::BadMass(desc.name)),
            None => desc.density,
        };
        if !(density > 0.0 && density.is_finite()) {
            return Err(BodyError::BadMass(desc.name));
        }
        let mp = desc.shape.mass_properties(density);
        let (shape, com) = match &desc.shape {
            Shape::Hull(h) if mp.center.length() > 1e-6 * h.radius().max(1e-3) => {
                (Shape::Hull(Arc::new(h.translated(-mp.center))), mp.center)
            }
            Shape::Compound(c) if mp.center.length() > 1e-6 * c.radius().max(1e-3) => {
                (Shape::Compound(Arc::new(c.translated(-mp.center))), mp.center)
            }
            s => (s.clone(), Vec3::ZERO),
        };
        let dynamic = desc.kind == BodyKind::Dynamic;
        // A static body is at rest; a kinematic one keeps the velocity it is given.
        let moves = desc.kind != BodyKind::Static;
        let inv_inertia = if dynamic { mp.inertia.inverse() } else { Mat3::ZERO };
        if dynamic && !containment::mass_data_ok(mp.mass, &inv_inertia) {
            return Err(BodyError::BadInertia(desc.name));
        }
        let (principal_axes, principal_inertia) = crate::physics::principal::principal_axes(mp.inertia);
        let body = Body {
            name: desc.name,
            shape,
            kind: desc.kind,
            pose: Iso::new(desc.position + desc.rotation * com, desc.rotation.normalize()),
            velocity: if moves { desc.velocity } else { Vec3::ZERO },
            angular_velocity: if moves { desc.angular_velocity } else { Vec3::ZERO },
            inv_mass: if dynamic { 1.0 / mp.mass } else { 0.0 },
            inertia_local: mp.inertia,
            inv_inertia_local: inv_inertia,
            principal_axes,
            principal_inertia,
            friction: desc.friction,
            restitution: desc.restitution,
            rolling_resistance: desc.rolling_resistance,
            com_offset: com,
            sleep_time: 0.0,
            asleep: false,
            bullet: desc.bullet,
        };
        // (Not `broad_dirty`: the broad phase picks new bodies up from the count, and adds
        // them without starting afresh where it can: `world/movers.rs`.)
        self.bodies.push(body);
        self.generations.push(0);
        Ok(BodyHandle { index: self.bodies.len() as u32 - 1, generation: 0 })
    }

    /// Makes room for `additional` more bodies, so that adding them does not move the body
    /// storage. A clone of a world has no spare room (`Vec`'s clone keeps only the length):
    /// the first body added to a clone of a large world copies every body unless room was
    /// made first (what that cost the large world's bench row: docs/BENCHMARKS.md).
    pub fn reserve_bodies(&mut self, additional: usize) {
        self.bodies.reserve(additional);
        self.generations.reserve(additional);
    }

    /// All bodies, indexed by handle index.
    pub fn bodies(&self) -> &[Body] {
        &self.bodies
    }

    /// A body by handle (None if stale).
    pub fn body(&self, h: BodyHandle) -> Option<&Body> {
        (self.generations.get(h.index as usize) == Some(&h.generation)).then(|| &self.bodies[h.index as usize])
    }

    /// Mutable access for edits (dragging, the inspector); wakes the body.
    pub fn body_mut(&mut self, h: BodyHandle) -> Option<&mut Body> {
        if self.generations.get(h.index as usize) != Some(&h.generation) {
            return None;
        }
        self.broad_dirty = true;
        // It may become static, or change its mass: what is derived from the joint graph is
        // redone (the colouring, the pinned bodies).
        self.joints.edited();
        let b = &mut self.bodies[h.index as usize];
        b.asleep = false;
        b.sleep_time = 0.0;
        Some(b)
    }

    /// Sets a kinematic body's velocity and spin (rad/s, world axes) for the steps that
    /// follow, as a script driving a platform or a pusher does before each step: unlike an
    /// edit through [`World::body_mut`], this keeps what the world has cached (a kinematic
    /// body's records are made again every step anyway). Returns false, changing nothing,
    /// for a stale handle, a body that is not kinematic, or a velocity or spin that is not
    /// finite.
    pub fn set_kinematic_velocity(&mut self, h: BodyHandle, velocity: Vec3, spin: Vec3) -> bool {
        let live = self.generations.get(h.index as usize) == Some(&h.generation);
        if !(live && self.bodies[h.index as usize].is_kinematic() && velocity.is_finite() && spin.is_finite()) {
            return false;
        }
        let b = &mut self.bodies[h.index as usize];
        (b.velocity, b.angular_velocity) = (velocity, spin);
        true
    }

    /// Handle of the body at `index`.
    pub fn handle(&self, index: usize) -> BodyHandle {
        BodyHandle { index: index as u32, generation: self.generations[index] }
    }

    /// Wakes a body (and, through its island, whatever it touches on the next step).
    pub fn wake(&mut self, index: usize) {
        if let Some(b) = self.bodies.get_mut(index) {
            b.asleep = false;
            b.sleep_time = 0.0;
        }
    }

    /// The broad phase's enlarged boxes (Box2D's fat AABBs), per body, as of the last step:
    /// the grid's pairs are kept while each body's swept box stays inside its own (empty
    /// before the first step).
    pub fn enlarged_aabbs(&self) -> &[Aabb] {
        &self.fat
    }

    /// The broad phase's enlarged swept spheres (centre in xyz, radius in w), per body, as of
    /// the last step: with the path test on, the grid's pairs are also kept only while two
    /// bodies' spheres overlap. Empty where the last full build of the grid did not take
    /// them (path test off, or spheres looser than the boxes; `world/collision.rs`).
    pub fn enlarged_spheres(&self) -> &[Vec4] {
        &self.fat_spheres
    }

    /// The persistent contacts (including pairs whose manifold is currently empty): one per
    /// candidate pair, sorted by pair, then the further manifolds of body–mesh pairs that
    /// touch the mesh along more than one normal (same pair, one contact per normal group).
    pub fn contacts(&self) -> &[Box<Contact>] {
        &self.contacts
    }

    /// The contact of pair (a, b), either order (for a body–mesh pair, its deepest normal
    /// group; [`World::contact_groups`] gives the others).
    pub fn contact(&self, a: u32, b: u32) -> Option<&Contact> {
        self.pair_contact_index(a, b).map(|i| &*self.contacts[i])
    }

    /// How many of `contacts` are the pair-aligned ones (one per candidate pair, sorted); the
    /// further normal groups of mesh pairs follow them.
    fn pair_aligned(&self) -> usize {
        self.keys.len().min(self.contacts.len())
    }

    /// Index of pair (a, b)'s own contact (either order) among the pair-aligned ones.
    pub(crate) fn pair_contact_index(&self, a: u32, b: u32) -> Option<usize> {
        let key = (a.min(b), a.max(b));
        self.contacts[..self.pair_aligned()].binary_search_by(|c| (c.a, c.b).cmp(&key)).ok()
    }

    /// The further manifolds of pair (a, b), either order: a body touching a mesh along
    /// several normals has one contact per further normal group (empty for other pairs).
    pub fn contact_groups(&self, a: u32, b: u32) -> impl Iterator<Item = &Contact> {
        let key = (a.min(b), a.max(b));
        self.contacts[self.pair_aligned()..].iter().filter(move |c| (c.a, c.b) == key).map(|c| &**c)
    }

    /// Counts for display.
    pub fn stats(&self) -> Stats {
        let mut s = Stats { bodies: self.bodies.len(), pairs: self.keys.len(), ..Default::default() };
        s.awake = self.bodies.iter().filter(|b| b.is_dynamic() && !b.asleep).count();
        for c in &self.contacts {
            if !c.manifold.points.is_empty() {
                s.touching += 1;
                s.points += c.manifold.points.len();
                s.max_penetration = s.max_penetration.max(c.manifold.max_depth());
            }
        }
        s
    }

    /// Kinetic plus gravitational potential energy of the dynamic bodies (J).
    pub fn total_energy(&self) -> f32 {
        self.bodies
            .iter()
            .filter(|b| b.is_dynamic())
            .map(|b| b.kinetic_energy() - b.mass() * self.gravity.dot(b.pose.pos))
            .sum()
    }

    /// The energy the step's integrator conserves in free flight (J): [`World::total_energy`]
    /// plus `½·h·m·(g·v)` per dynamic body, `h` the integration step of the method in force
    /// (the substep of the soft step; `dt` for the one-pass methods). Semi-implicit Euler
    /// keeps `½v² + a·y − ½·a·h·v` fixed under a constant acceleration `a`, not `½v² + a·y`:
    /// the plain energy of a falling body dips by `½·m·|g|·h·|v|` and that of a rising one
    /// bulges by as much, so a bounce that keeps the apex shows a plain-energy jump of
    /// `m·|g|·h·|v|` at the floor that this one does not.
    pub fn integrator_energy(&mut self, dt: f32) -> f32 {
        let h = dt / self.integration_substeps() as f32;
        let g = self.gravity;
        self.total_energy()
            + self.bodies.iter().filter(|b| b.is_dynamic()).map(|b| 0.5 * h * b.mass() * g.dot(b.velocity)).sum::<f32>()
    }

    fn collide_config(&self) -> CollideConfig {
        CollideConfig { margin: self.settings.margin, slop: self.settings.slop, motion: None }
    }

    /// Runs a stage and adds its time to the profile. The stages are timed back to back, from
    /// the end of the one before ([`World::lap`]): one clock read per stage, not two (a soft
    /// step times over thirty stages; what the reads cost is in docs/BENCHMARKS.md). Work
    /// between stages that belongs to none goes through [`World::untimed`].
    fn timed(&mut self, stage: Stage, f: impl FnOnce(&mut Self)) {
        f(self);
        let now = Instant::now();
        self.profile.stage_ms[stage as usize] += (now - self.lap).as_secs_f32() * 1000.0;
        self.lap = now;
        self.workers.take_busy(&mut self.profile.thread_ms[stage as usize]);
    }

    /// Work between two stages that is none of them (the solve trace, bookkeeping): the
    /// next stage's time starts after it.
    fn untimed(&mut self, f: impl FnOnce(&mut Self)) {
        f(self);
        self.lap = Instant::now();
    }

    /// Advances the world by `dt` seconds through the named stages (module docs).
    pub fn step(&mut self, dt: f32) {
        let start = Instant::now();
        self.profile = Profile::default();
        self.convergence.clear();
        self.workers.configure(self.settings.threads);
        self.profile.threads = self.workers.threads();
        if !self.paths.is_empty() {
            self.steer_paths(dt);
        }
        if !self.settings.sleeping {
            // Only the dynamic bodies can have fallen asleep, while the last step's list of
            // them holds (`world/movers.rs`).
            if self.movers.statics.is_some() && !self.broad_dirty {
                self.movers.dynamic.iter().for_each(|&i| self.bodies[i as usize].asleep = false);
            } else {
                self.bodies.iter_mut().for_each(|b| b.asleep = false);
            }
        }
        self.untimed(|w| {
            w.contain_before_step();
            if w.solve_trace.is_some() {
                w.trace_begin_step();
            }
            w.continuous.begin(w.step_count + 1, w.settings.ccd);
        });
        if self.settings.ccd == ContinuousMode::EarliestCollision {
            self.step_earliest(dt);
        } else {
            self.advance(dt);
            if self.settings.ccd == ContinuousMode::Fast {
                self.timed(Stage::Continuous, |w| w.solve_continuous(dt, 0.0, 1.0));
            }
            self.store_step_impulses(dt);
        }
        self.timed(Stage::Sleep, |w| w.update_sleep(dt));
        self.timed(Stage::Characters, |w| w.move_characters(dt));
        // The last stage's end.
        self.profile.total_ms = (self.lap - start).as_secs_f32() * 1000.0;
        self.step_count += 1;
        self.time += dt as f64;
        self.contain_after_step();
    }

    /// Threads the last step ran on, the calling one included (`Settings::threads`
    /// resolved on this machine).
    pub fn threads(&self) -> usize {
        self.workers.threads()
    }

    /// Shares out every parallel stage in blocks of one item, however small the scene
    /// ([`Workers::set_fine`]): slower, for tests and for watching the parallel layer work on
    /// a small scene. The results are the same either way.
    pub fn set_fine_split(&mut self, fine: bool) {
        self.workers.set_fine(fine);
    }

    /// What continuous collision did in the last step: bodies moved back to their time of
    /// impact, every time-of-impact query with its iterations, and (earliest-collision mode)
    /// the cuts of the step with their pairs ([`ContinuousRecord`]).
    pub fn continuous(&self) -> &ContinuousRecord {
        &self.continuous
    }

    /// The method's schedule over `dt`: detection, solve and integration.
    fn advance(&mut self, dt: f32) {
        match self.methods.get(&self.settings).schedule() {
            Schedule::Once { positions_first } => self.step_once(dt, positions_first),
            Schedule::SoftStep => self.step_soft(dt),
        }
    }

    /// Impulses back to the contacts (and the watched pairs' records), joints' errors and
    /// breaking, after a step (or a cut of one) of `dt`.
    fn store_step_impulses(&mut self, dt: f32) {
        self.timed(Stage::StoreImpulses, |w| {
            w.methods.get(&w.settings).store_impulses(&w.constraints, &mut w.contacts);
            if !w.watch.is_empty() {
                w.finish_watch();
            }
        });
        self.timed(Stage::StoreImpulses, |w| w.finish_joints(dt));
    }

    /// A one-pass method's step ([`Schedule::Once`]).
    fn step_once(&mut self, dt: f32, positions_first: bool) {
        self.timed(Stage::IntegrateForces, |w| w.integrate_forces(dt));
        self.timed(Stage::BroadPhase, |w| w.broad_phase(dt));
        self.timed(Stage::NarrowPhase, |w| w.narrow_phase(dt));
        // This step's gravity is already in the awake bodies' velocities: a body woken now
        // takes it too, as if it had never slept.
        let gravity_dv = self.gravity * dt;
        self.timed(Stage::Sleep, |w| w.wake_touched(gravity_dv));
        self.timed(Stage::Prepare, |w| w.prepare(dt));
        if positions_first {
            self.timed(Stage::PositionCorrection, |w| w.correct_positions(true));
        }
        self.timed(Stage::SolveVelocities, |w| {
            // Joints: sequential impulses in every method (`world/joints.rs`).
            w.warm_start_joints();
            w.solve_joints(true);
            let step =
                StepInfo { settings: &w.settings, h: dt, gravity: w.gravity.into(), backward: w.backward_step() };
            w.methods.get(&w.settings).solve(&mut w.constraints, &mut w.solver_bodies, &step);
        });
        self.timed(Stage::IntegratePositions, |w| {
            w.integrate_positions(dt);
            w.finish_positions(dt);
        });
        self.untimed(|w| w.accumulate_joint_impulses());
        if !positions_first {
            self.timed(Stage::PositionCorrection, |w| w.correct_positions(false));
        }
    }

    /// Whether this step's solver passes visit the manifolds last to first: every other
    /// step, counted by [`World::step_count`] (`solver::iterative::Pass::backward`), so a
    /// world restored to a step solves it as it did.
    fn backward_step(&self) -> bool {
        self.step_count % 2 == 1
    }

    /// The soft step ([`Schedule::SoftStep`]): substeps of gravity, warm start, solve,
    /// integrate and relax, then restitution.
    fn step_soft(&mut self, dt: f32) {
        let substeps = self.settings.substeps.max(1);
        let h = dt / substeps as f32;
        self.timed(Stage::BroadPhase, |w| w.broad_phase(dt));
        self.timed(Stage::NarrowPhase, |w| w.narrow_phase(dt));
        self.timed(Stage::Sleep, |w| w.wake_touched(Vec3::ZERO));
        self.timed(Stage::Prepare, |w| w.prepare(h));
        if self.solve_trace.is_some() {
            self.untimed(|w| w.trace_prepared());
        }
        for substep in 1..=substeps {
            self.timed(Stage::IntegrateForces, |w| w.integrate_forces_substep(h));
            self.timed(Stage::WarmStart, |w| {
                // The joints are warm-started, or set to zero without warm starting.
                w.warm_start_joints();
                if w.settings.warm_starting {
                    w.methods.get(&w.settings).warm_start(&mut w.solver_bodies)
                }
            });
            self.timed(Stage::SolveVelocities, |w| {
                w.solve_joints(true);
                if w.record_convergence || w.solve_trace.is_some() {
                    return w.solve_recording(h, substep);
                }
                let step =
                    StepInfo { settings: &w.settings, h, gravity: w.gravity.into(), backward: w.backward_step() };
                w.methods.get(&w.settings).solve(&mut w.constraints, &mut w.solver_bodies, &step);
            });
            self.timed(Stage::IntegratePositions, |w| {
                w.integrate_positions(h);
                w.methods.get(&w.settings).positions_moved(&w.solver_bodies);
            });
            self.timed(Stage::Relax, |w| {
                w.solve_joints(false);
                let step =
                    StepInfo { settings: &w.settings, h, gravity: w.gravity.into(), backward: w.backward_step() };
                w.methods.get(&w.settings).relax(&mut w.solver_bodies, &step);
                w.accumulate_joint_impulses();
            });
            if self.solve_trace.is_some() {
                self.untimed(|w| w.trace_pass(substep, solve_trace::PassKind::Relax, 0));
            }
        }
        self.timed(Stage::Restitution, |w| {
            if w.bouncy {
                w.methods.get(&w.settings).restitution(&mut w.constraints, &mut w.solver_bodies, &w.settings);
            }
        });
        if self.solve_trace.is_some() {
            self.untimed(|w| w.trace_finished(substeps));
        }
        // Poses and the final velocities (after restitution) go to the bodies once.
        self.timed(Stage::IntegratePositions, |w| w.finish_positions(h));
    }

    /// The position-correction stage: the method's moves, applied to the poses (`step_start`:
    /// before the integration, so to the poses it starts from too).
    fn correct_positions(&mut self, step_start: bool) {
        self.moves.reset(self.bodies.len());
        let method = self.methods.get(&self.settings);
        method.correct_positions(&mut self.constraints, &self.solver_bodies, &self.settings, &mut self.moves);
        self.apply_moves(step_start);
    }
}
