//! The world: bodies, the persistent contact set, and the fixed-step pipeline.
//!
//! `step(dt)` runs the stages of [`Stage`], timing each into [`Profile`]:
//!
//! - **Iterative** (Box2D v3's soft step): `BroadPhase` (AABBs swept along each body's
//!   step and grown by its spin reach; a hashed uniform grid over enlarged boxes whose
//!   pairs are kept, filtered by the actual boxes, until a body leaves its enlarged box;
//!   `world/collision.rs`) → `NarrowPhase` (a manifold per
//!   candidate pair with the speculative margin of the pair's *relative* motion; the pair's
//!   SAT cache and last impulses are carried over by feature ID; a pair that moved less than
//!   `Settings::recycle_distance` since its manifold was computed keeps it — normal, points
//!   and lever arms as captured, depths measured again (Box3D's contact recycling,
//!   [`Recycle`]); a pair found apart is skipped while its gap minus its relative motion
//!   stays above the margin, [`Apart`], read from a compact array beside the contacts) →
//!   `Prepare` (lever arms, effective masses, tangents, soft-contact coefficients;
//!   manifolds coloured and packed four to a SIMD batch) → for each substep:
//!   `IntegrateForces` (gravity) → `WarmStart` → `SolveVelocities` → `IntegratePositions`
//!   → `Relax` — then `Restitution` → `StoreImpulses` → `Sleep`.
//! - **Naive**: `IntegrateForces` → `BroadPhase` → `NarrowPhase` → `Prepare` →
//!   `SolveVelocities` (one impulse per point) → `IntegratePositions` →
//!   `PositionCorrection` (linear projection) → `StoreImpulses` → `Sleep`.
//!
//! Free bodies conserve |L| (see [`crate::physics::body`]).
//!
//! Each step ends with one finiteness check per body: a body whose state became NaN or
//! infinite is frozen (asleep, no contacts) and reported ([`World::non_finite`],
//! `world/containment.rs`).
//!
//! Contacts are stored sorted by body pair, so the whole step is deterministic: the same
//! scene and settings give bit-identical states on the same build. Once a scene has
//! settled, a step allocates nothing: every buffer is kept and reused.
//!
//! Limits: no continuous collision detection — speculative contacts reach at most
//! [`MAX_SPECULATIVE`] per step, so a faster body can tunnel through a thin one; a recycled
//! manifold gains no new points until its pair has moved the recycling distance; the step
//! is single-threaded (the iterative solver runs four manifolds per SIMD batch, see
//! [`crate::physics::solver::wide`], but on one thread).
//!
//! Materials: a pair's friction is the geometric mean `√(μa·μb)` and its restitution the
//! maximum `max(ea, eb)` (Box2D's rules), unless a [`PairMaterial`] override names the pair.

use crate::physics::body::{rotation, Body, BodyDesc, BodyHandle, BodyKind, MAX_CONTACT_TURN};
use crate::physics::broadphase::BroadPhase;
use crate::physics::collide::{CollideConfig, Scratch};
use crate::physics::contact::match_impulses;
pub use crate::physics::contact::{Apart, Contact, PointImpulse, Recycle};
use crate::physics::math::{prefetch, tangent_basis, Aabb, Iso};
use crate::physics::shape::Shape;
use crate::physics::solver::{
    iterative,
    iterative::Softness,
    naive, relative_velocity,
    wide::{self, WideSolver},
    ConstraintPoint, ContactConstraint, Settings, SolverBody, SolverMode,
};
use glam::{Mat3, Mat3A, Vec3, Vec3A};
use std::sync::Arc;
use std::time::Instant;

mod collision;
mod watch;

pub use watch::PairRecord;
mod containment;
pub use containment::{NonFinite, Origin};

/// Largest rotation per substep (rad) of a body in contact integrated as a plain rotation
/// by ω·h whatever its inertia: the midpoint rule's correction to the turn, of order
/// (ω·h)², is then under 6·10⁻⁸ rad, the f32 resolution of a unit quaternion.
pub const SMALL_TURN: f32 = 2.4e-4;

/// How far (m) the broad phase's enlarged boxes reach beyond each body's swept box
/// (Box2D's `aabbMargin`): larger means fewer grid runs and a longer list of kept pairs to
/// filter each step.
pub const FAT_MARGIN: f32 = 0.1;

/// Largest speculative reach (m): beyond this a very fast body may still tunnel (no CCD yet).
pub const MAX_SPECULATIVE: f32 = 2.0;

/// How many contacts ahead the narrow phase and `prepare` prefetch the boxed contacts.
const PREFETCH_AHEAD: usize = 4;

/// The named stages of a step, in execution order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Gravity into velocities.
    IntegrateForces,
    /// AABBs and candidate pairs.
    BroadPhase,
    /// Contact manifolds.
    NarrowPhase,
    /// Solver constraints from manifolds.
    Prepare,
    /// Last step's impulses.
    WarmStart,
    /// Velocity iterations.
    SolveVelocities,
    /// Poses advance.
    IntegratePositions,
    /// Iterative: passes without position bias, removing the push-out velocity.
    Relax,
    /// Naive: linear projection of penetration.
    PositionCorrection,
    /// Bounce pass.
    Restitution,
    /// Impulses back to contacts.
    StoreImpulses,
    /// Islands, sleeping and waking.
    Sleep,
}

impl Stage {
    /// All stages in order.
    pub const ALL: [Stage; 12] = [
        Stage::IntegrateForces,
        Stage::BroadPhase,
        Stage::NarrowPhase,
        Stage::Prepare,
        Stage::WarmStart,
        Stage::SolveVelocities,
        Stage::IntegratePositions,
        Stage::Relax,
        Stage::PositionCorrection,
        Stage::Restitution,
        Stage::StoreImpulses,
        Stage::Sleep,
    ];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::IntegrateForces => "integrate forces",
            Stage::BroadPhase => "broad phase",
            Stage::NarrowPhase => "narrow phase",
            Stage::Prepare => "prepare contacts",
            Stage::WarmStart => "warm start",
            Stage::SolveVelocities => "solve velocities",
            Stage::IntegratePositions => "integrate positions",
            Stage::Relax => "relax",
            Stage::PositionCorrection => "position correction",
            Stage::Restitution => "restitution",
            Stage::StoreImpulses => "store impulses",
            Stage::Sleep => "sleep",
        }
    }
}

/// Milliseconds spent in each stage during the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Profile {
    /// Per stage (summed over substeps), indexed like [`Stage::ALL`].
    pub stage_ms: [f32; 12],
    /// Whole step.
    pub total_ms: f32,
}

impl Profile {
    /// Time of one stage.
    pub fn get(&self, s: Stage) -> f32 {
        self.stage_ms[s as usize]
    }
}

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
    /// Steps taken.
    pub step_count: u64,
    /// Simulated time (s).
    pub time: f64,
    broad: BroadPhase,
    aabbs: Vec<Aabb>,
    /// Enlarged ("fat") boxes the broad phase ran on; the candidate pairs stay valid while
    /// every body's box stays inside its fat one.
    fat: Vec<Aabb>,
    /// Bodies whose box left its enlarged box this step (scratch of the broad phase).
    escaped: Vec<u32>,
    /// Set when bodies were added or edited: the next broad phase starts afresh.
    broad_dirty: bool,
    /// Per body, what the narrow phase reads (filled by the broad phase).
    motions: Vec<collision::Motion>,
    /// The candidate pairs of this step: the grid's pairs (on the enlarged boxes) whose
    /// actual boxes overlap, sorted.
    pairs: Vec<(u32, u32)>,
    /// Boxed, so that when the pair list changes (most steps of a moving pile) the contacts
    /// (about 600 bytes each) are regrouped by moving pointers, not copied: the 1k box pile's
    /// narrow phase went from 0.96 to 0.78 ms/step (docs/BENCHMARKS.md).
    #[allow(clippy::vec_box)]
    contacts: Vec<Box<Contact>>,
    #[allow(clippy::vec_box)]
    contacts_next: Vec<Box<Contact>>,
    /// Per contact (same order): its pair and [`Apart`] record in one compact array, so the
    /// narrow phase matches pairs and skips the pairs still apart without opening the
    /// contacts' boxes (hull pile: narrow phase 2.4 → 1.7 ms/step, docs/BENCHMARKS.md).
    keys: Vec<collision::PairKey>,
    keys_next: Vec<collision::PairKey>,
    /// Indices of this step's contacts that are not still apart (the narrow phase opens
    /// only these).
    open: Vec<u32>,
    /// Boxes of contacts whose pair ended, reused for new pairs (no allocation once the
    /// number of pairs stops growing).
    #[allow(clippy::vec_box)]
    contact_pool: Vec<Box<Contact>>,
    /// Indices of the contacts with at least one point (prepare visits only these).
    touching: Vec<u32>,
    /// Whether any prepared constraint has restitution (else the restitution pass is skipped).
    bouncy: bool,
    scratch: Scratch,
    solver_bodies: Vec<SolverBody>,
    constraints: Vec<ContactConstraint>,
    wide: WideSolver,
    moves: Vec<Vec3>,
    start_poses: Vec<Iso>,
    island_parent: Vec<u32>,
    island_moving: Vec<bool>,
    /// Records of the watched pairs ([`PairRecord`]), usually none or the selected pair.
    watch: Vec<PairRecord>,
    /// Bodies frozen after their state became non-finite (`world/containment.rs`).
    containment: containment::Containment,
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
            step_count: 0,
            time: 0.0,
            broad: BroadPhase::default(),
            aabbs: Vec::new(),
            fat: Vec::new(),
            escaped: Vec::new(),
            broad_dirty: true,
            pairs: Vec::new(),
            motions: Vec::new(),
            contacts: Vec::new(),
            contacts_next: Vec::new(),
            keys: Vec::new(),
            keys_next: Vec::new(),
            open: Vec::new(),
            contact_pool: Vec::new(),
            touching: Vec::new(),
            bouncy: false,
            scratch: Scratch::default(),
            solver_bodies: Vec::new(),
            constraints: Vec::new(),
            wide: WideSolver::default(),
            moves: Vec::new(),
            start_poses: Vec::new(),
            island_parent: Vec::new(),
            island_moving: Vec::new(),
            watch: Vec::new(),
            containment: Default::default(),
        }
    }

    /// Adds a body; hull shapes are re-centred so the centre of mass is the body origin.
    pub fn add_body(&mut self, desc: BodyDesc) -> Result<BodyHandle, BodyError> {
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
            s => (s.clone(), Vec3::ZERO),
        };
        let dynamic = desc.kind == BodyKind::Dynamic;
        let inv_inertia = if dynamic { mp.inertia.inverse() } else { Mat3::ZERO };
        if dynamic && !containment::mass_data_ok(mp.mass, &inv_inertia) {
            return Err(BodyError::BadInertia(desc.name));
        }
        let body = Body {
            name: desc.name,
            shape,
            kind: desc.kind,
            pose: Iso::new(desc.position + desc.rotation * com, desc.rotation.normalize()),
            velocity: if dynamic { desc.velocity } else { Vec3::ZERO },
            angular_velocity: if dynamic { desc.angular_velocity } else { Vec3::ZERO },
            inv_mass: if dynamic { 1.0 / mp.mass } else { 0.0 },
            inertia_local: mp.inertia,
            inv_inertia_local: inv_inertia,
            friction: desc.friction,
            restitution: desc.restitution,
            com_offset: com,
            sleep_time: 0.0,
            asleep: false,
        };
        self.bodies.push(body);
        self.generations.push(0);
        self.broad_dirty = true;
        Ok(BodyHandle { index: self.bodies.len() as u32 - 1, generation: 0 })
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
        let b = &mut self.bodies[h.index as usize];
        b.asleep = false;
        b.sleep_time = 0.0;
        Some(b)
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

    /// The persistent contacts (including pairs whose manifold is currently empty).
    pub fn contacts(&self) -> &[Box<Contact>] {
        &self.contacts
    }

    /// The contact of pair (a, b), either order.
    pub fn contact(&self, a: u32, b: u32) -> Option<&Contact> {
        let key = (a.min(b), a.max(b));
        self.contacts.binary_search_by(|c| (c.a, c.b).cmp(&key)).ok().map(|i| &*self.contacts[i])
    }

    /// Counts for display.
    pub fn stats(&self) -> Stats {
        let mut s = Stats { bodies: self.bodies.len(), pairs: self.contacts.len(), ..Default::default() };
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

    fn collide_config(&self) -> CollideConfig {
        CollideConfig { margin: self.settings.margin, slop: self.settings.slop }
    }

    fn timed(&mut self, stage: Stage, f: impl FnOnce(&mut Self)) {
        let t = Instant::now();
        f(self);
        self.profile.stage_ms[stage as usize] += t.elapsed().as_secs_f32() * 1000.0;
    }

    /// Advances the world by `dt` seconds through the named stages (module docs).
    pub fn step(&mut self, dt: f32) {
        let start = Instant::now();
        self.profile = Profile::default();
        if !self.settings.sleeping {
            for b in &mut self.bodies {
                b.asleep = false;
            }
        }
        self.contain_before_step();
        match self.settings.mode {
            SolverMode::Naive => {
                self.timed(Stage::IntegrateForces, |w| w.integrate_forces(dt));
                self.timed(Stage::BroadPhase, |w| w.broad_phase(dt));
                self.timed(Stage::NarrowPhase, |w| w.narrow_phase(dt));
                self.timed(Stage::Prepare, |w| w.prepare(dt));
                self.timed(Stage::SolveVelocities, |w| {
                    naive::solve_velocities(&mut w.constraints, &mut w.solver_bodies, w.settings.restitution_threshold)
                });
                self.timed(Stage::IntegratePositions, |w| {
                    w.integrate_positions(dt);
                    w.finish_positions();
                });
                self.timed(Stage::PositionCorrection, |w| {
                    w.moves.clear();
                    w.moves.resize(w.bodies.len(), Vec3::ZERO);
                    naive::project_positions(&w.constraints, &w.solver_bodies, &w.settings, &mut w.moves);
                    for (b, m) in w.bodies.iter_mut().zip(&w.moves) {
                        b.pose.pos += *m;
                    }
                });
            }
            SolverMode::Iterative => {
                let substeps = self.settings.substeps.max(1);
                let h = dt / substeps as f32;
                self.timed(Stage::BroadPhase, |w| w.broad_phase(dt));
                self.timed(Stage::NarrowPhase, |w| w.narrow_phase(dt));
                self.timed(Stage::Prepare, |w| w.prepare(h));
                // The order of the points within each manifold alternates from pass to pass
                // and from substep to substep (solve F, relax R, then solve R, relax F, …), so
                // the small torque that Gauss–Seidel order puts into a 4-point face contact
                // cancels instead of tilting tall stacks one way.
                let mut pass = 0u32;
                for sub in 0..substeps {
                    self.timed(Stage::IntegrateForces, |w| {
                        let g = w.gravity * h;
                        for s in &mut w.solver_bodies {
                            if s.inv_mass > 0.0 {
                                s.v += Vec3A::from(g);
                            }
                        }
                    });
                    if self.settings.warm_starting {
                        self.timed(Stage::WarmStart, |w| w.wide.warm_start(&mut w.solver_bodies));
                    }
                    let iterations = self.settings.iterations.max(1);
                    let first = pass + sub;
                    self.timed(Stage::SolveVelocities, |w| w.solve_passes(1.0 / h, true, first));
                    pass += iterations;
                    self.timed(Stage::IntegratePositions, |w| {
                        w.integrate_positions(h);
                        // The batches update their separations in the first relax pass.
                        w.wide.update_overflow_separations(&w.solver_bodies);
                    });
                    let first = pass + sub;
                    self.timed(Stage::Relax, |w| {
                        w.solve_passes(1.0 / h, false, first);
                    });
                    pass += iterations;
                }
                self.timed(Stage::Restitution, |w| {
                    // Without restitution the impulses go from the lanes to the contacts
                    // directly (`store_impulses`).
                    if w.bouncy {
                        w.wide.store(&mut w.constraints);
                        iterative::apply_restitution(
                            &mut w.constraints,
                            &mut w.solver_bodies,
                            w.settings.restitution_threshold,
                        );
                    }
                });
                // Poses and the final velocities (after restitution) go to the bodies once.
                self.timed(Stage::IntegratePositions, |w| w.finish_positions());
            }
        }
        self.timed(Stage::StoreImpulses, |w| {
            w.store_impulses();
            if !w.watch.is_empty() {
                w.finish_watch();
            }
        });
        self.timed(Stage::Sleep, |w| w.update_sleep(dt));
        self.profile.total_ms = start.elapsed().as_secs_f32() * 1000.0;
        self.step_count += 1;
        self.time += dt as f64;
        self.contain_after_step();
    }

    fn integrate_forces(&mut self, dt: f32) {
        let g = self.gravity * dt;
        for b in &mut self.bodies {
            if b.is_dynamic() && !b.asleep {
                b.velocity += g;
            }
        }
    }

    fn material(&self, a: u32, b: u32) -> (f32, f32) {
        if let Some(m) = self.pair_materials.iter().find(|m| (m.a, m.b) == (a, b) || (m.b, m.a) == (a, b)) {
            return (m.friction, m.restitution);
        }
        // From the compact solver records (filled first in `prepare`), not the large bodies.
        let (ba, bb) = (&self.solver_bodies[a as usize], &self.solver_bodies[b as usize]);
        ((ba.friction * bb.friction).sqrt(), ba.restitution.max(bb.restitution))
    }

    /// Builds solver bodies and constraints; `h` is the (sub)step the soft contacts are
    /// tuned for.
    fn prepare(&mut self, h: f32) {
        self.solver_bodies.clear();
        self.start_poses.clear();
        for b in &self.bodies {
            let active = b.is_dynamic() && !b.asleep;
            let isotropic = b.isotropic();
            // An isotropic body's world inverse inertia is its local one, k·I, whatever the
            // rotation: taken exactly (R·k·I·Rᵀ would leave round-off off the diagonal), so
            // the wide solver can multiply by k alone (`BatchBodies::isotropic`).
            let inv_i = match (active, isotropic) {
                (false, _) => Mat3A::ZERO,
                (true, true) => Mat3A::from_diagonal(Vec3::splat(b.inv_inertia_local.x_axis.x)),
                (true, false) => Mat3A::from(b.inv_inertia_world()),
            };
            self.start_poses.push(b.pose);
            self.solver_bodies.push(SolverBody {
                v: b.velocity.into(),
                w: b.angular_velocity.into(),
                dp: Vec3A::ZERO,
                dq: glam::Quat::IDENTITY,
                inv_mass: if active { b.inv_mass } else { 0.0 },
                inv_i,
                isotropic,
                touching: false,
                friction: b.friction,
                restitution: b.restitution,
            });
        }
        self.constraints.clear();
        self.bouncy = false;
        let warm = self.settings.warm_starting && self.settings.mode == SolverMode::Iterative;
        let lanes = self.settings.mode == SolverMode::Iterative;
        let hertz = self.settings.contact_hertz.min(0.25 / h);
        let soft = Softness::new(hertz, self.settings.damping_ratio, h);
        let static_soft = Softness::new(2.0 * hertz, self.settings.damping_ratio, h);
        for (j, &ci) in self.touching.iter().enumerate() {
            // The boxed contacts lie scattered in memory: start loading the lines this loop
            // reads of the contact a few ahead.
            if let Some(&ahead) = self.touching.get(j + PREFETCH_AHEAD) {
                let c = &self.contacts[ahead as usize];
                prefetch(&c.manifold);
                prefetch(&c.recycle.levers);
                prefetch(&c.impulses);
            }
            let c = &self.contacts[ci as usize];
            let (sa, sb) = (&self.solver_bodies[c.a as usize], &self.solver_bodies[c.b as usize]);
            // Inverse mass 0 in the solver: static, kinematic or asleep (read from the
            // compact solver bodies, not the large `Body` records).
            if sa.inv_mass == 0.0 && sb.inv_mass == 0.0 {
                continue;
            }
            let (friction, restitution) = self.material(c.a, c.b);
            let n = Vec3A::from(c.manifold.normal);
            let (pa, pb) =
                (Vec3A::from(self.start_poses[c.a as usize].pos), Vec3A::from(self.start_poses[c.b as usize].pos));
            // First tangent along the sliding direction at the manifold's centre: friction
            // then acts straight against the slip even though the two tangent rows have
            // different effective masses (a fixed basis skews the clamped impulse sideways
            // and makes sliding boxes yaw and drift).
            let centre = Vec3A::from(
                c.manifold.points.iter().map(|p| p.position).sum::<Vec3>() / c.manifold.points.len() as f32,
            );
            let dv = relative_velocity(sa, sb, centre - pa, centre - pb);
            let vt = dv - n * dv.dot(n);
            let (t1, t2) = if vt.length_squared() > 1e-6 {
                let t1 = vt.normalize();
                (t1, n.cross(t1))
            } else {
                let (t1, t2) = tangent_basis(n.into());
                (t1.into(), t2.into())
            };
            // Written in place: a constraint is over a kilobyte, too big to build and move.
            self.constraints.push(ContactConstraint::default());
            let cc = self.constraints.last_mut().expect("just pushed");
            (cc.a, cc.b, cc.contact) = (c.a, c.b, ci);
            (cc.normal, cc.t1, cc.t2) = (n, t1, t2);
            (cc.friction, cc.restitution) = (friction, restitution);
            self.bouncy |= restitution > 0.0;
            cc.softness = if sa.inv_mass == 0.0 || sb.inv_mass == 0.0 { static_soft } else { soft };
            cc.count = c.manifold.points.len() as u32;
            for (k, p) in c.manifold.points.iter().enumerate() {
                // The lever arms captured with the manifold (equal to `position − centre` on
                // a fresh one, frozen while it is recycled; see `Recycle`).
                let (ra, rb) = c.recycle.levers[k];
                let (ra, rb) = (Vec3A::from(ra), Vec3A::from(rb));
                let imp = &c.impulses[k];
                let (normal_impulse, tangent_impulse) = if warm {
                    (imp.warm_normal, [Vec3A::from(imp.warm_friction).dot(t1), Vec3A::from(imp.warm_friction).dot(t2)])
                } else {
                    (0.0, [0.0; 2])
                };
                cc.points[k] = ConstraintPoint {
                    ra,
                    rb,
                    adjusted_separation: -p.depth - n.dot(rb - ra),
                    separation: -p.depth,
                    normal_impulse,
                    tangent_impulse,
                    total_normal_impulse: 0.0,
                    total_tangent_impulse: [0.0; 2],
                    max_normal_impulse: 0.0,
                    // Only the restitution pass reads it.
                    relative_velocity: if restitution > 0.0 { relative_velocity(sa, sb, ra, rb).dot(n) } else { 0.0 },
                    depth: p.depth,
                    id: p.id,
                    ..Default::default()
                };
            }
            // The wide solver computes the effective masses of its batches in lanes; the
            // scalar solvers and the restitution pass read them here.
            if !lanes || restitution > 0.0 {
                cc.compute_masses(&self.solver_bodies);
            }
        }
        for c in &self.constraints {
            self.solver_bodies[c.a as usize].touching = true;
            self.solver_bodies[c.b as usize].touching = true;
        }
        if self.settings.mode == SolverMode::Iterative {
            // A static body after the real ones fills the empty lanes of the wide batches.
            let pad = self.solver_bodies.len() as u32;
            self.solver_bodies.push(SolverBody { inv_i: Mat3A::ZERO, ..Default::default() });
            self.wide.build(&self.constraints, &self.solver_bodies, pad, self.settings.simd);
        }
    }

    /// `iterations` passes of the iterative solver (`use_bias`: solve, else relax); pass k
    /// visits each manifold's points last to first when `first + k` is odd.
    /// The first relax pass (`!use_bias`) also brings the batches' separations up to date
    /// after the position update, and the last one adds the substep's impulses to the
    /// step totals ([`wide::Pass`]).
    fn solve_passes(&mut self, inv_h: f32, use_bias: bool, first: u32) {
        let iterations = self.settings.iterations.max(1);
        for k in 0..iterations {
            let reverse = (first + k) % 2 == 1;
            let (update, accumulate) = (!use_bias && k == 0, !use_bias && k + 1 == iterations);
            let pass = wide::Pass { use_bias, reverse, update, accumulate };
            self.wide.solve(&mut self.solver_bodies, &self.settings, inv_h, pass);
        }
    }

    /// Moves awake bodies by their solver velocities over `h` and records their motion
    /// since the step began (for the soft step's separation update), on the compact solver
    /// state; the poses are written once, in [`World::finish_positions`].
    ///
    /// A rotation by ω·h is exact for isotropic bodies (cubes, spheres: ω is constant
    /// between impulses). Free bodies take the body's midpoint rule, which holds the
    /// angular momentum fixed (module docs of [`crate::physics::body`]). Bodies in contact
    /// turn by ω·h too: their impulses use the world inertia of the step's start, and a
    /// gyroscopic update with the turning inertia between impulses computed with the old
    /// one let slivers gain energy without bound (docs/physics.md, the fuzzer); their spin
    /// is carried to the new orientation once per step ([`Body::carry_spin`], skipped below
    /// [`SMALL_TURN`] per substep: a resting pile keeps ω as it is). A body in contact turns
    /// at most [`MAX_CONTACT_TURN`] per substep ([`Body::limit_contact_spin`]).
    fn integrate_positions(&mut self, h: f32) {
        for ((b, s), start) in self.bodies.iter_mut().zip(self.solver_bodies.iter_mut()).zip(&self.start_poses) {
            if s.inv_mass == 0.0 {
                continue;
            }
            s.dp += s.v * h;
            if s.touching && (s.w * h).length_squared() > MAX_CONTACT_TURN * MAX_CONTACT_TURN {
                s.w = b.limit_contact_spin(s.w.into(), start.rot, h).into();
            }
            let turn = s.w * h;
            // A body in contact turns by ω·h: the contact rows use its world inertia of the
            // step's start, and only this keeps the energy they see (its spin is carried to
            // the new orientation once, in `finish_positions`).
            if s.isotropic || s.touching {
                if turn != Vec3A::ZERO {
                    s.dq = (rotation(turn.into()) * s.dq).normalize();
                }
            } else {
                b.pose.rot = (s.dq * start.rot).normalize();
                b.angular_velocity = s.w.into();
                b.integrate_rotation(h);
                s.w = b.angular_velocity.into();
                s.dq = b.pose.rot * start.rot.conjugate();
            }
        }
    }

    /// Writes the poses and velocities of the bodies moved in [`World::integrate_positions`].
    fn finish_positions(&mut self) {
        // Turns below SMALL_TURN per substep (a resting pile) keep ω as it is.
        let substeps = if self.settings.mode == SolverMode::Iterative { self.settings.substeps.max(1) } else { 1 };
        let small_turn = SMALL_TURN * substeps as f32;
        for ((b, s), start) in self.bodies.iter_mut().zip(&self.solver_bodies).zip(&self.start_poses) {
            if s.inv_mass > 0.0 {
                b.pose.pos = start.pos + Vec3::from(s.dp);
                b.pose.rot = (s.dq * start.rot).normalize();
                b.velocity = s.v.into();
                b.angular_velocity = s.w.into();
                if s.touching && !s.isotropic && s.dq.xyz().length() > 0.5 * small_turn {
                    b.carry_spin(start.rot);
                }
            }
        }
    }

    fn store_impulses(&mut self) {
        let (constraints, contacts) = (&self.constraints, &mut self.contacts);
        if self.settings.mode == SolverMode::Iterative && !self.bouncy {
            self.wide.visit_impulses(|ci, k, imp| {
                let cc = &constraints[ci as usize];
                if k < cc.count as usize {
                    store_point(&mut contacts[cc.contact as usize], cc, k, imp);
                }
            });
            return;
        }
        for cc in constraints {
            for (k, p) in cc.points[..cc.count as usize].iter().enumerate() {
                store_point(&mut contacts[cc.contact as usize], cc, k, &wide::PointImpulses::of(p));
            }
        }
    }

    fn find(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let p = parent[i as usize];
            parent[i as usize] = parent[p as usize];
            i = p;
        }
        i
    }

    fn update_sleep(&mut self, dt: f32) {
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
                let ra = Self::find(&mut self.island_parent, c.a);
                let rb = Self::find(&mut self.island_parent, c.b);
                if ra != rb {
                    let (lo, hi) = (ra.min(rb), ra.max(rb));
                    self.island_parent[hi as usize] = lo;
                }
            }
        }
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

/// Writes point `k` of constraint `cc` (impulses `imp`) into its contact, with the tangent
/// basis (on the first point): the step's totals, and the last substep's impulses for warm
/// starting, friction as a world vector so the next basis can project it.
fn store_point(c: &mut Contact, cc: &ContactConstraint, k: usize, imp: &wide::PointImpulses) {
    if k == 0 {
        c.tangents = [cc.t1.into(), cc.t2.into()];
    }
    c.impulses[k] = PointImpulse {
        id: cc.points[k].id,
        normal: imp.total_normal,
        tangent: imp.total_tangent,
        warm_normal: imp.normal,
        warm_friction: (cc.t1 * imp.tangent[0] + cc.t2 * imp.tangent[1]).into(),
    };
}
