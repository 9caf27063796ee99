//! The world's joints ([`crate::physics::joint`]): adding and removing them, the mouse
//! joint the window's drag uses, the joint stages of the step, breaking, and plain debug
//! records ([`JointRecord`]).
//!
//! In the step: `prepare_joints` after the contacts' constraints (lever arms and
//! orientations at the step's start, warm impulses kept or cleared); then in each substep
//! one pass over the joints before the contacts' passes in each of warm start (or, with
//! `Settings::joint_warm_starting` or `warm_starting` off, setting the impulses to zero:
//! each substep then solves from nothing), solve (`iterations` biased passes) and relax
//! (`iterations` passes without bias); after the
//! substeps the impulses are summed per step, and `finish_joints` measures each joint's
//! error on the new poses and breaks the joints whose force or torque exceeded their
//! threshold. A world without joints skips all of it at the cost of one test per stage.
//! With `Settings::simd` the passes run on compact records built in `prepare_joints`
//! (`joint/compact.rs`), and `finish_joints` writes their impulses back.
//!
//! The one-pass methods (naive, Cyclone, averaged) get the same sequential impulses for
//! their joints: one warm start and `iterations` biased passes over the step (the joint
//! softness tuned for the whole step) before the method's own velocity pass.

use super::pivots::Pivots;
use super::World;
use crate::physics::joint::colours::JointColours;
use crate::physics::joint::compact::{Compact, Hot};
use crate::physics::joint::{self, Joint, JointDesc, JointHandle, JointKind, Pass, Spring, WORLD};
use crate::physics::math::Iso;
use crate::physics::parallel::Shared;
use crate::physics::solver::Softness;
use glam::{Vec3, Vec3A};

/// The joints of a world and the pairs they keep from colliding.
#[derive(Clone, Debug, Default)]
pub struct JointSet {
    /// Slots (removed joints stay as dead slots until reused).
    pub(super) joints: Vec<Joint>,
    generations: Vec<u32>,
    free: Vec<u32>,
    /// Body pairs (lower index first, sorted) joined by an unbroken joint that does not let
    /// them collide.
    pub(super) no_collide: Vec<(u32, u32)>,
    /// Slots solved this step (alive, unbroken, some body awake).
    active: Vec<u32>,
    /// Softness of rigid joint rows for this step's (sub)step.
    soft: Softness,
    h: f32,
    /// This step's passes run on [`Compact`] records (`Settings::simd`), not on the joints.
    fast: bool,
    /// The compact records of this step: scratch, rebuilt by every `prepare` and written
    /// back by every `finish_joints`, so a clone (a history snapshot) gets it empty.
    compact: Compact,
    /// The order `active` is solved in: colour by colour from [`joint::colours::COLOUR_FROM`]
    /// joints on (`joint/colours.rs`).
    colours: JointColours,
    /// Per slot, whether this step solves the joint (scratch of `prepare_joints`).
    solved: Vec<bool>,
    /// The bodies this step's joints pin to a fixed point (`world/pivots.rs`).
    pub(super) pivots: Pivots,
    /// Counts the edits to the joints, and to bodies (one may have become static): what is
    /// derived from the joint graph and kept between steps (the colouring, the pinned
    /// bodies) is redone when it moves.
    edits: u64,
}

/// Fewest joints a worker thread prepares or measures at once: fewer run on the calling
/// thread.
const MIN_JOINTS: usize = 256;

impl JointSet {
    /// Heap bytes of a copy (for the history's budget).
    pub(super) fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        sz(self.joints.as_slice())
            + sz(self.generations.as_slice())
            + sz(self.free.as_slice())
            + sz(self.no_collide.as_slice())
            + sz(self.active.as_slice())
            + self.pivots.heap_bytes()
            + self.colours.heap_bytes()
    }

    /// Whether there are no joints at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.joints.is_empty()
    }

    fn rebuild_no_collide(&mut self) {
        self.no_collide.clear();
        for j in &self.joints {
            if j.is_alive() && !j.broken && !j.collide && j.a != WORLD && j.b != WORLD {
                self.no_collide.push((j.a.min(j.b), j.a.max(j.b)));
            }
        }
        self.no_collide.sort_unstable();
        self.no_collide.dedup();
    }

    /// Notes an edit to the joints, or to a body (its kind or mass may have changed).
    pub(super) fn edited(&mut self) {
        self.edits += 1;
    }

    /// Sets the accumulated impulses of the joints solved this step to zero (a substep that
    /// is not warm-started): in their compact records and in the joints themselves.
    fn cold_start(&mut self) {
        for h in &mut self.compact.hot {
            h.p = glam::Vec3A::ZERO;
        }
        for &k in &self.active {
            self.joints[k as usize].impulses = Default::default();
        }
    }

    /// Whether the pair `(a, b)` (a < b) is kept from colliding by a joint.
    #[inline]
    pub fn excludes(&self, a: u32, b: u32) -> bool {
        self.no_collide.binary_search(&(a, b)).is_ok()
    }
}

/// Why a joint could not be added.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum JointError {
    /// A body index that does not exist.
    #[error("joint '{0}': no body with index {1}")]
    NoBody(String, u32),
    /// Both ends the same body, or both the world.
    #[error("joint '{0}': a joint needs two different bodies (or a body and the world)")]
    SameBody(String),
    /// A zero or non-finite axis.
    #[error("joint '{0}': its axis must be a non-zero finite vector")]
    BadAxis(String),
}

/// A joint as plain data for drawing and inspection (no references into the world).
#[derive(Clone, Debug, PartialEq)]
pub struct JointRecord {
    /// Handle.
    pub handle: JointHandle,
    /// Name.
    pub name: String,
    /// Kind name (`ball`, `hinge`, …).
    pub kind: &'static str,
    /// The kind and its parameters.
    pub params: JointKind,
    /// Body A (or [`WORLD`]).
    pub a: u32,
    /// Body B (or [`WORLD`]).
    pub b: u32,
    /// A's anchor (world).
    pub anchor_a: Vec3,
    /// B's anchor (world).
    pub anchor_b: Vec3,
    /// The joint axis as fixed in A (world; zero for kinds without one).
    pub axis: Vec3,
    /// Limits (rad or m) where the kind has them.
    pub limits: Option<(f32, f32)>,
    /// Hinge angle / twist (rad), slider or wheel translation (m), distance length (m).
    pub position: f32,
    /// Each row: name, Jacobian (A linear, A angular, B linear, B angular), C, impulse.
    pub rows: Vec<joint::RowRecord>,
    /// Effective-mass matrix of all rows, `J·M⁻¹·Jᵀ` (row-major, rows × rows).
    pub k: Vec<f32>,
    /// Which limit is active: −1 lower, +1 upper, 0 none.
    pub limit_state: i8,
    /// Linear impulse on B over the last step (N·s).
    pub linear_impulse: Vec3,
    /// Of `linear_impulse`, the pull of a pinned body's turn about this joint's point (N·s;
    /// zero unless a body is pinned here, `world/pivots.rs`).
    pub pivot_impulse: Vec3,
    /// Angular impulse on B over the last step (N·m·s).
    pub angular_impulse: Vec3,
    /// Linear position error (m).
    pub position_error: f32,
    /// Angular position error (rad).
    pub angular_error: f32,
    /// Broken.
    pub broken: bool,
}

/// The stiffest rigid-joint feedback the solver is given, as a fraction of the substep rate:
/// with warm-started joints, half with two or more passes, a quarter with one (Box3D's cap,
/// always); without warm starting, no cap (infinite). One Gauss–Seidel pass per substep
/// cannot hold a stiffer *warm-started* joint in a long loaded structure: a 100 × 100 grid
/// of ball joints hanging from its top row (`stock::joint_grid`, 4 substeps) oscillates and
/// tears with one pass at 0.4 of the substep rate and above, and holds at 0.25 (17 mm
/// largest gap after 5 s), while with three passes 0.5 holds (3.5 mm). The overshoot comes
/// from the impulse each substep carries in: started from zero instead, rigid joints
/// (10⁶ Hz) hold the same grid with one pass, with rapier3d's errors (13.0 mm largest gap
/// after 5 s against its 13.3; docs/BENCHMARKS.md), and 1000 Hz holds a 20 × 20 net
/// (`tests/joints.rs`).
pub fn joint_hertz_cap(iterations: u32, warm: bool) -> f32 {
    if !warm {
        f32::INFINITY
    } else if iterations <= 1 {
        0.25
    } else {
        0.5
    }
}

impl World {
    fn pose_of(&self, i: u32) -> Iso {
        if i == WORLD {
            Iso::IDENTITY
        } else {
            self.bodies[i as usize].pose
        }
    }

    /// Adds a joint between bodies `desc.a` and `desc.b` (either may be [`WORLD`]), at their
    /// current poses. Wakes both bodies.
    pub fn add_joint(&mut self, desc: JointDesc) -> Result<JointHandle, JointError> {
        for i in [desc.a, desc.b] {
            if i != WORLD && i as usize >= self.bodies.len() {
                return Err(JointError::NoBody(desc.name.clone(), i));
            }
        }
        if desc.a == desc.b {
            return Err(JointError::SameBody(desc.name.clone()));
        }
        let axes: &[Vec3] = match &desc.kind {
            JointKind::Hinge { axis, .. } | JointKind::Slider { axis, .. } | JointKind::Angle { axis, .. } => {
                &[*axis][..]
            }
            JointKind::Wheel { axis, spin_axis, .. } => &[*axis, *spin_axis][..],
            _ => &[],
        };
        if axes.iter().any(|a| !a.is_finite() || a.length() < 1e-6) {
            return Err(JointError::BadAxis(desc.name.clone()));
        }
        let j = Joint::new(&desc, &self.pose_of(desc.a), &self.pose_of(desc.b));
        for i in [desc.a, desc.b] {
            if i != WORLD {
                self.wake(i as usize);
            }
        }
        let set = &mut self.joints;
        set.edited();
        let handle = if let Some(slot) = set.free.pop() {
            set.joints[slot as usize] = j;
            JointHandle { index: slot, generation: set.generations[slot as usize] }
        } else {
            set.joints.push(j);
            set.generations.push(0);
            JointHandle { index: set.joints.len() as u32 - 1, generation: 0 }
        };
        // Keep the sorted pair list by inserting this joint's pair (rebuilding it for every
        // joint made loading a scene of n joints O(n² log n): seconds for a 100×100 grid).
        if !desc.collide && desc.a != WORLD && desc.b != WORLD {
            let pair = (desc.a.min(desc.b), desc.a.max(desc.b));
            if let Err(at) = set.no_collide.binary_search(&pair) {
                set.no_collide.insert(at, pair);
            }
        }
        self.broad_dirty = true;
        Ok(handle)
    }

    /// Removes a joint (a stale handle does nothing); wakes its bodies.
    pub fn remove_joint(&mut self, h: JointHandle) {
        let Some(j) = self.joint(h) else { return };
        let (a, b) = (j.a, j.b);
        let set = &mut self.joints;
        set.joints[h.index as usize].alive = false;
        set.generations[h.index as usize] += 1;
        set.free.push(h.index);
        set.rebuild_no_collide();
        set.edited();
        for i in [a, b] {
            if i != WORLD {
                self.wake(i as usize);
            }
        }
        self.broad_dirty = true;
    }

    /// A joint by handle (None if stale or removed).
    pub fn joint(&self, h: JointHandle) -> Option<&Joint> {
        let set = &self.joints;
        (set.generations.get(h.index as usize) == Some(&h.generation) && set.joints[h.index as usize].is_alive())
            .then(|| &set.joints[h.index as usize])
    }

    /// Every joint slot (dead ones included: check [`Joint::is_alive`]), by handle index.
    pub fn joints(&self) -> &[Joint] {
        &self.joints.joints
    }

    /// The joints in use, with their handles.
    pub fn joint_handles(&self) -> impl Iterator<Item = (JointHandle, &Joint)> {
        let set = &self.joints;
        set.joints
            .iter()
            .enumerate()
            .filter(|(_, j)| j.is_alive())
            .map(|(i, j)| (JointHandle { index: i as u32, generation: set.generations[i] }, j))
    }

    /// Grabs body `body` at its local point `local` (relative to the body's centre of mass,
    /// body axes) with a mouse joint pulling it towards `target`: a soft spring of 5 Hz,
    /// damping ratio 0.7, whose force is at most `force_per_kg` × the body's mass (Box2D's
    /// samples use 1000 × mass). Returns the joint; move it with [`World::move_mouse`],
    /// release it with [`World::remove_joint`].
    pub fn grab(&mut self, body: usize, local: Vec3, target: Vec3, force_per_kg: f32) -> Option<JointHandle> {
        let b = self.bodies.get(body)?;
        if !b.is_dynamic() {
            return None;
        }
        let anchor = b.pose.transform_point(local);
        let kind = JointKind::Mouse {
            target,
            spring: Spring { hertz: 5.0, damping_ratio: 0.7 },
            max_force: force_per_kg * b.mass(),
        };
        let mut desc = JointDesc::new("mouse", kind, WORLD, body as u32, anchor);
        desc.collide = true;
        self.add_joint(desc).ok()
    }

    /// Moves a mouse joint's target (wakes its body).
    pub fn move_mouse(&mut self, h: JointHandle, target: Vec3) {
        if self.joint(h).is_none() {
            return;
        }
        let j = &mut self.joints.joints[h.index as usize];
        if let JointKind::Mouse { target: t, .. } = &mut j.kind {
            *t = target;
            j.local.anchor_a = target.into();
            let b = j.b;
            self.wake(b as usize);
        }
    }

    /// Plain records of every joint in use (allocates; for drawing and the inspector).
    pub fn joint_records(&self) -> Vec<JointRecord> {
        self.joint_handles().map(|(h, j)| self.joint_record(h, j)).collect()
    }

    fn joint_record(&self, handle: JointHandle, j: &Joint) -> JointRecord {
        let f = j.frame_at(&self.pose_of(j.a), &self.pose_of(j.b));
        let rows = j.rows(&f);
        let (sa, sb) = (self.record_body(j.a), self.record_body(j.b));
        let n = rows.len;
        let mut k = vec![0.0; n * n];
        for (i, ri) in rows.as_slice().iter().enumerate() {
            for (c, rc) in rows.as_slice().iter().enumerate() {
                k[i * n + c] = ri.jac.k(&rc.jac, &sa, &sb);
            }
        }
        let (axis, limits, position) = match j.kind {
            JointKind::Hinge { limits, .. } => {
                let (_, theta) = joint::hinge::angle(j, &f);
                (j.local.axis_a, limits, theta)
            }
            JointKind::Slider { limits, .. } | JointKind::Wheel { limits, .. } => {
                let (_, s) = joint::slider::axial(j, &f);
                (j.local.axis_a, limits, s)
            }
            JointKind::Angle { twist, .. } => (j.local.axis_a, twist, joint::angle::twist(j, &f).1),
            JointKind::Distance { min, max, .. } => {
                (Vec3A::ZERO, min.zip(max).or(min.map(|m| (m, f32::INFINITY))).or(max.map(|m| (0.0, m))), f.d.length())
            }
            _ => (Vec3A::ZERO, None, 0.0),
        };
        let limit_state = rows
            .as_slice()
            .iter()
            .filter(|r| matches!(r.role, joint::Role::LinearLimit | joint::Role::AngularLimit) && r.c <= 0.0)
            .map(|r| if r.name.contains("lower") || r.name.contains("min") { -1 } else { 1 })
            .next()
            .unwrap_or(0);
        JointRecord {
            handle,
            name: j.name.clone(),
            kind: j.kind.name(),
            params: j.kind,
            a: j.a,
            b: j.b,
            anchor_a: f.pa.into(),
            anchor_b: f.pb.into(),
            axis: (f.qa * axis).into(),
            limits,
            position,
            rows: rows.as_slice().to_vec(),
            k,
            limit_state,
            linear_impulse: j.linear_impulse,
            pivot_impulse: j.pivot_impulse,
            angular_impulse: j.angular_impulse,
            position_error: j.position_error,
            angular_error: j.angular_error,
            broken: j.broken,
        }
    }

    /// A solver body with the body's mass data now (records, tests).
    fn record_body(&self, i: u32) -> crate::physics::solver::SolverBody {
        if i == WORLD {
            return joint::STATIC;
        }
        let b = &self.bodies[i as usize];
        crate::physics::solver::SolverBody {
            v: b.velocity.into(),
            w: b.angular_velocity.into(),
            inv_mass: b.inv_mass,
            inv_i: b.inv_inertia_world().into(),
            // The general inertia (`STATIC` says isotropic): K by the full products.
            isotropic: false,
            ..joint::STATIC
        }
    }

    /// The `Prepare` stage's joint part: which joints are solved this step, their lever
    /// arms and orientations at the step's start, their warm impulses. A jointed body is
    /// integrated as a free one (the gyroscopic rotation update, no turn limit): only contacts
    /// mark a body `touching`, and the joint rows read the world inverse inertia the
    /// integration keeps current (`world/integrate.rs`).
    pub(super) fn prepare_joints(&mut self, h: f32) {
        if self.joints.is_empty() {
            return;
        }
        let s = &self.settings;
        let warm = s.warm_starting && s.joint_warm_starting;
        let hertz = s.joint_hertz.min(joint_hertz_cap(s.iterations, warm) / h);
        self.joints.soft = Softness::new(hertz, s.joint_damping_ratio, h);
        self.joints.h = h;
        self.joints.active.clear();
        let fast = s.simd;
        self.joints.fast = fast;
        // Each joint is prepared on its own (shared out between the threads); the solving
        // order is then gathered in slot order.
        let mut solved = std::mem::take(&mut self.joints.solved);
        solved.clear();
        solved.resize(self.joints.joints.len(), false);
        {
            let (bodies, solver) = (&self.bodies, &self.solver_bodies);
            let pose_of = |i: u32| if i == WORLD { Iso::IDENTITY } else { bodies[i as usize].pose };
            let moves = |i: u32| i != WORLD && solver[i as usize].inv_mass > 0.0;
            let slots = self.joints.joints.len();
            // The fast path's records, written per slot while each joint is at hand.
            let by_slot = Shared::new(if fast { self.joints.compact.by_slot(slots) } else { &mut [] });
            let (joints, out) = (Shared::new(&mut self.joints.joints), Shared::new(&mut solved));
            self.workers.for_blocks(joints.len(), MIN_JOINTS, |_, r| {
                // SAFETY: each block owns its joint slots, their flags and their records.
                let (joints, out) = unsafe { (joints.range_mut(r.clone()), out.range_mut(r.clone())) };
                for ((k, j), solved) in r.zip(joints.iter_mut()).zip(out) {
                    if !j.is_alive() || j.broken {
                        continue;
                    }
                    j.linear_impulse = Vec3::ZERO;
                    j.pivot_impulse = Vec3::ZERO;
                    j.angular_impulse = Vec3::ZERO;
                    if !moves(j.a) && !moves(j.b) {
                        continue;
                    }
                    if !warm {
                        j.impulses = Default::default();
                    }
                    let (pa, pb) = (pose_of(j.a), pose_of(j.b));
                    j.prepare(&pa, &pb, h);
                    *solved = true;
                    if fast {
                        // SAFETY: as above.
                        *unsafe { by_slot.get_mut(k) } = Hot::of(k as u32, j);
                    }
                }
            });
        }
        let active = solved.iter().enumerate().filter(|(_, &s)| s).map(|(k, _)| k as u32);
        self.joints.active.extend(active);
        self.joints.solved = solved;
        // Many joints: solved colour by colour, in the same order on both paths.
        let set = &mut self.joints;
        let joints = &set.joints;
        let ends = |k: u32| (joints[k as usize].a, joints[k as usize].b);
        set.colours.colour(&mut set.active, ends, &self.solver_bodies, set.edits);
        if fast {
            // The fast path: the passes run on compact copies (`joint/compact.rs`), made
            // in the solving order.
            set.compact.fill(&set.active, &self.workers);
        } else {
            set.compact.clear();
        }
        set.pivots.find(&set.joints, &self.bodies, set.edits);
    }

    /// Per joint slot, the graph colour it was solved in during the last step
    /// ([`crate::physics::solver::colouring::COLOURS`]: none, solved after the colours);
    /// `None` for a joint not solved or when the joints were solved in one sequence
    /// (`joint/colours.rs`). For drawing (it allocates).
    pub fn joint_graph_colours(&self) -> Vec<Option<u8>> {
        let set = &self.joints;
        let mut out = vec![None; set.joints.len()];
        for (c, r) in set.colours.ranges().enumerate() {
            for &k in set.active.get(r).unwrap_or_default() {
                out[k as usize] = Some(c as u8);
            }
        }
        out
    }

    /// How many joints the last step solved: alive, unbroken, with a moving body awake (a
    /// joint removed since still counts until the next step).
    pub fn solved_joint_count(&self) -> usize {
        self.joints.active.len()
    }

    /// Joints per colour in the last step (the last entry: without a colour), when the
    /// joints were coloured (`joint/colours.rs`).
    pub fn joint_colour_counts(&self) -> Option<[u32; crate::physics::solver::colouring::COLOURS + 1]> {
        self.joints.colours.counts()
    }

    /// Re-applies the joints' accumulated impulses (start of every substep); without warm
    /// starting, sets them to zero instead, so that each substep's impulses are what that
    /// substep solved (its limits clamp them, its sums count them once).
    pub(super) fn warm_start_joints(&mut self) {
        if self.joints.active.is_empty() {
            return;
        }
        if !self.settings.warm_starting || !self.settings.joint_warm_starting {
            self.joints.cold_start();
            return;
        }
        let set = &mut self.joints;
        if set.fast && set.colours.coloured() {
            set.compact.warm_start_coloured(&set.colours, &mut set.joints, &mut self.solver_bodies, &self.workers);
            return;
        }
        if set.fast {
            set.compact.warm_start(&set.joints, &mut self.solver_bodies);
            return;
        }
        for &k in &set.active {
            set.joints[k as usize].warm_start_in(&mut self.solver_bodies);
        }
    }

    /// `iterations` passes over the joints, biased (`use_bias`) or relaxing.
    pub(super) fn solve_joints(&mut self, use_bias: bool) {
        if self.joints.active.is_empty() {
            return;
        }
        let set = &mut self.joints;
        let pass = Pass { h: set.h, inv_h: 1.0 / set.h, use_bias, soft: set.soft };
        for _ in 0..self.settings.iterations.max(1) {
            if set.fast && set.colours.coloured() {
                set.compact.solve_coloured(
                    &set.colours,
                    &mut set.joints,
                    &mut self.solver_bodies,
                    &pass,
                    &self.workers,
                );
                continue;
            }
            if set.fast {
                set.compact.solve(&mut set.joints, &mut self.solver_bodies, &pass);
                continue;
            }
            for &k in &set.active {
                set.joints[k as usize].solve_in(&mut self.solver_bodies, &pass);
            }
        }
    }

    /// Adds the substep's impulses to the joints' per-step totals.
    pub(super) fn accumulate_joint_impulses(&mut self) {
        if self.joints.active.is_empty() {
            return;
        }
        let set = &mut self.joints;
        if set.fast {
            set.compact.accumulate(&mut set.joints, &self.solver_bodies, &self.workers);
            return;
        }
        for &k in &set.active {
            set.joints[k as usize].accumulate_in(&self.solver_bodies);
        }
    }

    /// After the step: each solved joint's error on the new poses; joints whose force or
    /// torque over the step exceeded their threshold break (and their bodies collide again).
    pub(super) fn finish_joints(&mut self, dt: f32) {
        if self.joints.active.is_empty() {
            return;
        }
        // The pinned bodies' turns pulled at their pivots (`world/pivots.rs`).
        self.joints.pivots.report(&mut self.joints.joints);
        // Each joint on its own, shared out between the threads.
        let broke = std::sync::atomic::AtomicBool::new(false);
        {
            let set = &mut self.joints;
            let (active, compact, fast, bodies) = (&set.active, &set.compact, set.fast, &self.bodies);
            let pose_of = |i: u32| if i == WORLD { Iso::IDENTITY } else { bodies[i as usize].pose };
            let joints = Shared::new(&mut set.joints);
            self.workers.for_blocks(active.len(), MIN_JOINTS, |_, r| {
                for idx in r {
                    // SAFETY: a joint is in `active` once.
                    let j = unsafe { joints.get_mut(active[idx] as usize) };
                    // (A ball joint's record says so: its kind, far down the joint, is
                    // not read.)
                    let ball = fast && compact.write_back(idx, j);
                    let (pa, pb) = (pose_of(j.a), pose_of(j.b));
                    let f = j.frame_at(&pa, &pb);
                    let (lin, ang) = if ball { Joint::ball_errors(&f) } else { j.errors(&f) };
                    j.position_error = lin;
                    j.angular_error = ang;
                    let over = |limit: Option<f32>, impulse: Vec3| limit.is_some_and(|l| impulse.length() > l * dt);
                    if over(j.break_force, j.linear_impulse) || over(j.break_torque, j.angular_impulse) {
                        j.broken = true;
                        j.impulses = Default::default();
                        broke.store(true, std::sync::atomic::Ordering::Relaxed);
                    }
                }
            });
        }
        let broke = broke.into_inner();
        if broke {
            self.joints.edited();
            self.joints.rebuild_no_collide();
            self.broad_dirty = true;
        }
    }

    /// Joins the islands of jointed dynamic bodies in the forest `parent` (`world/islands.rs`).
    pub(super) fn union_joints(&self, parent: &mut [u32]) {
        for j in &self.joints.joints {
            if !j.is_alive() || j.broken || j.a == WORLD || j.b == WORLD {
                continue;
            }
            if self.bodies[j.a as usize].is_dynamic() && self.bodies[j.b as usize].is_dynamic() {
                Self::union(parent, j.a, j.b);
            }
        }
    }
}
