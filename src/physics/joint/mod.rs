//! Joints: constraints between two bodies, or between a body and the fixed world, solved
//! by sequential impulses with the soft step the contacts use (Box2D v3's joint solver,
//! written for 3D; derivations in 2D: dyn4j's joint posts, Catto's "Modeling and Solving
//! Constraints", GDC 2009).
//!
//! Each joint is a few Jacobian rows ([`row`]): the time derivatives of its position
//! constraints. The kinds, one file each:
//!
//! | kind | rows | file |
//! |---|---|---|
//! | [`JointKind::Ball`] | 3 linear (one 3×3 block) | [`ball`] |
//! | [`JointKind::Distance`] | 1 along the anchors' line: rigid, spring, min/max limits | [`distance`] |
//! | [`JointKind::Hinge`] | ball + 2 angular ⟂ axis + limit/motor about it | [`hinge`] |
//! | [`JointKind::Slider`] | 2 linear ⟂ axis + 3 angular + limit/motor along it | [`slider`] |
//! | [`JointKind::Weld`] | ball + 3 angular, each optionally soft | [`weld`] |
//! | [`JointKind::Angle`] | angular only: cone and twist limits | [`angle`] |
//! | [`JointKind::Wheel`] | 2 linear ⟂ suspension, spring along it, 2 angular ⟂ spin axis, motor | [`wheel`] |
//! | [`JointKind::Pulley`] | 1: `|pA − gA| + ratio·|pB − gB| = L` | [`pulley`] |
//! | [`JointKind::Mouse`] | soft point-to-target block with a force limit (the window's drag) | [`mouse`] |
//!
//! **Frames.** At creation the anchor (world) and the axes (world) are stored in each body's
//! own frame, relative to its centre of mass, and the bodies' relative orientation is kept
//! as the reference (angle 0 of a hinge, the weld's rest). The fixed world is the body index
//! [`WORLD`]: its frame is the world's.
//!
//! **Solving** (`world/joints.rs` calls these): `prepare` records, per step, the lever arms
//! and orientations at the step's start; every pass rebuilds the rows from how far the
//! bodies have moved and turned since (the solver bodies' `dp`, `dq`), as the contacts do,
//! so a joint sees its error change within the step. Rigid rows use the joint softness
//! (`Settings::joint_hertz`, `joint_damping_ratio`) in the biased passes and none in the
//! relax passes: the error is fed back without adding velocity. Springs keep their own
//! softness in every pass. Warm starting re-applies the last substep's impulses, per joint.
//! Within a joint: motor, limits, then the angular rows, the point rows last (the most
//! important, Box2D's order). With `Settings::simd` (the default) the passes read the joints
//! from compact per-step records (`compact`), bit-identical to solving each [`Joint`].
//!
//! **Order with contacts.** Joints are not coloured: they are solved in one scalar pass over
//! all joints before the contacts' passes of every stage (warm start, solve, relax) — an
//! "overflow" pass in Box2D v3's terms. The contacts then have the last word, so a jointed
//! body still does not sink into the ground.
//!
//! **Results** per step: the impulses the joint applied to B (linear and angular, summed over
//! the substeps), its position error after the step, and whether it broke: a breakable
//! joint whose force `|linear impulse|/dt` or torque exceeds its threshold is broken at the
//! end of the step and no longer solved.
//!
//! Limits: no graph colouring or SIMD for joints; the mouse joint's angular damping is a
//! soft row without position error; angle rows (twist, weld) use the first-order relation
//! "rotation-vector rate = ωB − ωA", exact at zero error; a hinge or twist angle is measured
//! in (−180°, 180°], so limits beyond that range are not supported; the cone row vanishes
//! when the axes are aligned, so a zero cone is not supported (use a weld or a hinge).

pub mod angle;
pub mod ball;
pub mod colours;
pub(crate) mod compact;
pub mod distance;
pub mod hinge;
pub mod mouse;
pub mod pulley;
pub mod row;
pub mod slider;
pub mod weld;
pub mod wheel;
mod wide;

#[cfg(test)]
mod tests;

use crate::physics::math::{tangent_basis, Iso};
use crate::physics::solver::{Softness, SolverBody};
use glam::{Quat, Vec3, Vec3A};
pub use row::{Frame, Jac};

/// The body index that stands for the fixed world.
pub const WORLD: u32 = u32::MAX;

/// A motor: drive the joint's speed (rad/s or m/s) with at most `max` torque (N·m) or
/// force (N).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motor {
    /// Target speed.
    pub speed: f32,
    /// Largest torque or force.
    pub max: f32,
}

/// A spring: frequency (Hz) and damping ratio (1 = critical).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spring {
    /// Frequency (Hz); 0 = no spring (free).
    pub hertz: f32,
    /// Damping ratio.
    pub damping_ratio: f32,
}

/// What a joint constrains; vectors in world space at creation, angles in radians.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    /// The anchor points of A and B coincide.
    Ball,
    /// A's anchor (the joint's anchor) and B's anchor `anchor_b` keep a distance: rigid at
    /// `length` when there is no spring and no limit; a spring towards `length` when
    /// `spring` is set; `min`/`max` limits (a rope: `max` alone).
    Distance {
        /// B's anchor (world).
        anchor_b: Vec3,
        /// Rest length (m).
        length: f32,
        /// Shortest length (m).
        min: Option<f32>,
        /// Longest length (m).
        max: Option<f32>,
        /// Spring towards `length`.
        spring: Option<Spring>,
    },
    /// Ball plus B turning about `axis` only; angle 0 at creation, counter-clockwise about
    /// the axis positive.
    Hinge {
        /// Axis (unit, world).
        axis: Vec3,
        /// Lowest and highest angle (rad).
        limits: Option<(f32, f32)>,
        /// Motor (speed rad/s, max torque N·m).
        motor: Option<Motor>,
    },
    /// B slides along `axis` (fixed in A) without turning relative to A; translation 0 at
    /// creation.
    Slider {
        /// Axis (unit, world).
        axis: Vec3,
        /// Lowest and highest translation (m).
        limits: Option<(f32, f32)>,
        /// Motor (speed m/s, max force N).
        motor: Option<Motor>,
    },
    /// Ball plus no relative rotation; each part rigid (hertz 0) or a spring.
    Weld {
        /// Linear spring frequency (Hz); 0 = rigid.
        linear_hertz: f32,
        /// Angular spring frequency (Hz); 0 = rigid.
        angular_hertz: f32,
        /// Damping ratio of both springs.
        damping_ratio: f32,
    },
    /// Relative rotation limited (no point constraint): the angle between A's and B's copy
    /// of `axis` at most `cone`, and the twist about it within `twist`.
    Angle {
        /// Axis (unit, world).
        axis: Vec3,
        /// Largest swing (rad), in (0, π].
        cone: Option<f32>,
        /// Twist range (rad).
        twist: Option<(f32, f32)>,
    },
    /// A wheel: B's anchor moves along `axis` (A's suspension, a spring) and B spins freely
    /// about `spin_axis` (B's axle, kept parallel to A's copy).
    Wheel {
        /// Suspension axis (unit, world).
        axis: Vec3,
        /// Axle (unit, world).
        spin_axis: Vec3,
        /// Suspension spring.
        spring: Spring,
        /// Suspension travel limits (m).
        limits: Option<(f32, f32)>,
        /// Motor about the axle (rad/s, N·m).
        motor: Option<Motor>,
    },
    /// A rope over two fixed pulleys: `|pA − ground_a| + ratio·|pB − ground_b|` constant.
    Pulley {
        /// A's pulley (world).
        ground_a: Vec3,
        /// B's pulley (world).
        ground_b: Vec3,
        /// B's anchor (world).
        anchor_b: Vec3,
        /// Ratio.
        ratio: f32,
    },
    /// The mouse: B's anchor pulled softly to `target` with at most `max_force`; A is the
    /// world.
    Mouse {
        /// Target (world).
        target: Vec3,
        /// Spring.
        spring: Spring,
        /// Largest force (N).
        max_force: f32,
    },
}

impl JointKind {
    /// Lower-case name (traces, records).
    pub fn name(&self) -> &'static str {
        match self {
            JointKind::Ball => "ball",
            JointKind::Distance { .. } => "distance",
            JointKind::Hinge { .. } => "hinge",
            JointKind::Slider { .. } => "slider",
            JointKind::Weld { .. } => "weld",
            JointKind::Angle { .. } => "angle",
            JointKind::Wheel { .. } => "wheel",
            JointKind::Pulley { .. } => "pulley",
            JointKind::Mouse { .. } => "mouse",
        }
    }
}

/// Everything needed to create a joint.
#[derive(Clone, Debug, PartialEq)]
pub struct JointDesc {
    /// Name (traces, UI).
    pub name: String,
    /// What it constrains.
    pub kind: JointKind,
    /// Body A's index, or [`WORLD`].
    pub a: u32,
    /// Body B's index, or [`WORLD`].
    pub b: u32,
    /// Anchor (world, at creation): on A, and on B unless the kind names B's own.
    pub anchor: Vec3,
    /// Breaks when the force it applies exceeds this (N).
    pub break_force: Option<f32>,
    /// Breaks when the torque it applies exceeds this (N·m).
    pub break_torque: Option<f32>,
    /// Let the two bodies collide with each other (default off).
    pub collide: bool,
}

impl JointDesc {
    /// A joint of `kind` between `a` and `b` at `anchor`, unbreakable, no collision between
    /// the two.
    pub fn new(name: impl Into<String>, kind: JointKind, a: u32, b: u32, anchor: Vec3) -> JointDesc {
        JointDesc { name: name.into(), kind, a, b, anchor, break_force: None, break_torque: None, collide: false }
    }
}

/// Handle to a joint: slot plus generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JointHandle {
    /// Slot.
    pub index: u32,
    /// Generation of the slot.
    pub generation: u32,
}

/// Accumulated impulses (warm starting), per row group.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Impulses {
    /// Point block (ball part), world axes (N·s).
    pub point: Vec3A,
    /// Angular block (weld, slider), world axes (N·m·s).
    pub angular: Vec3A,
    /// Two rows ⟂ an axis: hinge/wheel swing, slider/wheel linear.
    pub pair: [f32; 2],
    /// Second pair (wheel: swing rows).
    pub pair2: [f32; 2],
    /// Along the axis: distance row, suspension spring.
    pub axial: f32,
    /// Motor.
    pub motor: f32,
    /// Lower limit (or cone).
    pub lower: f32,
    /// Upper limit.
    pub upper: f32,
    /// Cone limit.
    pub cone: f32,
}

/// The geometry of a joint in its bodies' frames (fixed at creation).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Local {
    /// A's anchor relative to its centre of mass, A's axes.
    pub anchor_a: Vec3A,
    /// B's anchor relative to its centre of mass, B's axes.
    pub anchor_b: Vec3A,
    /// The joint axis in A's axes.
    pub axis_a: Vec3A,
    /// The joint axis in B's axes.
    pub axis_b: Vec3A,
    /// Two unit vectors ⟂ `axis_a` (A's axes), with `perp[0] × perp[1] = axis_a`.
    pub perp_a: [Vec3A; 2],
    /// Wheel axle in A's axes.
    pub spin_a: Vec3A,
    /// Wheel axle in B's axes.
    pub spin_b: Vec3A,
    /// Two unit vectors ⟂ `spin_a`.
    pub spin_perp_a: [Vec3A; 2],
    /// B's orientation relative to A's at creation, `q_A⁻¹·q_B`.
    pub reference: Quat,
    /// Distance rest length; pulley total length (m).
    pub length: f32,
}

/// What `prepare` records per step.
#[derive(Clone, Copy, Debug, Default)]
pub struct StepStart {
    /// A's lever arm at the step's start (world axes).
    pub ra: Vec3A,
    /// B's lever arm.
    pub rb: Vec3A,
    /// A's centre of mass.
    pub ca: Vec3A,
    /// B's centre of mass minus A's.
    pub dc: Vec3A,
    /// A's orientation.
    pub qa: Quat,
    /// B's orientation.
    pub qb: Quat,
    /// Spring softness (distance spring, wheel suspension, weld linear, mouse).
    pub spring: Softness,
    /// Second spring softness (weld angular, mouse angular damping).
    pub spring2: Softness,
}

/// A joint in the world.
///
/// Laid out in the order written (`repr(C)`): what the step's last stage reads and writes of
/// every joint (`World::finish_joints`: bodies, break limits, errors, impulses, then the
/// anchors in `local`) comes first, so that it touches three of a joint's nine cache lines
/// where Rust's own order, which put the small fields after the large parts, made it touch
/// five.
#[derive(Clone, Debug)]
#[repr(C)]
pub struct Joint {
    /// Body A (or [`WORLD`]).
    pub a: u32,
    /// Body B (or [`WORLD`]).
    pub b: u32,
    /// Break threshold (N).
    pub break_force: Option<f32>,
    /// Break threshold (N·m).
    pub break_torque: Option<f32>,
    /// Linear position error after the last step (m): the point/line rows' error, plus how
    /// far a linear limit is exceeded.
    pub position_error: f32,
    /// Angular position error after the last step (rad).
    pub angular_error: f32,
    /// Linear impulse applied to B over the last step (N·s, world).
    pub linear_impulse: Vec3,
    /// Angular impulse applied to B over the last step, without the moment of the linear one
    /// about B's anchor (N·m·s, world).
    pub angular_impulse: Vec3,
    /// Of `linear_impulse`, what the pinned body's turn about this joint's point took over
    /// the last step (its centripetal pull, `world/pivots.rs`; zero unless a body is pinned
    /// here): the rows' impulses do not carry it.
    pub pivot_impulse: Vec3,
    /// The two bodies collide with each other.
    pub collide: bool,
    /// Broken (no longer solved).
    pub broken: bool,
    pub(crate) alive: bool,
    /// Accumulated impulses of the last substep.
    pub impulses: Impulses,
    /// Geometry in the bodies' frames.
    pub local: Local,
    pub(crate) start: StepStart,
    /// Kind and parameters (as created; the mouse target changes).
    pub kind: JointKind,
    /// Name.
    pub name: String,
}

/// How a row of [`Joint::rows`] takes part (records, error measures).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// A linear equality (m).
    Linear,
    /// An angular equality (rad, or a sine).
    Angular,
    /// A linear one-sided limit `C ≥ 0` (m).
    LinearLimit,
    /// An angular one-sided limit `C ≥ 0` (rad, or a cosine difference).
    AngularLimit,
    /// A motor (no position error).
    Motor,
    /// A spring (C is the spring's stretch, not an error).
    Spring,
}

/// One row of a joint as plain data.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowRecord {
    /// What it is ("point x", "swing 1", "twist lower", …).
    pub name: &'static str,
    /// Its part.
    pub role: Role,
    /// The Jacobian row.
    pub jac: Jac,
    /// The position constraint's value now.
    pub c: f32,
    /// Its accumulated impulse.
    pub impulse: f32,
}

/// Up to 12 rows, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct Rows {
    /// Rows (the first `len`).
    pub rows: [RowRecord; 12],
    /// Count.
    pub len: usize,
}

impl Default for Rows {
    fn default() -> Self {
        let r = RowRecord { name: "", role: Role::Motor, jac: Jac::default(), c: 0.0, impulse: 0.0 };
        Rows { rows: [r; 12], len: 0 }
    }
}

impl Rows {
    /// Adds a row.
    pub fn push(&mut self, name: &'static str, role: Role, jac: Jac, c: f32, impulse: f32) {
        self.rows[self.len] = RowRecord { name, role, jac, c, impulse };
        self.len += 1;
    }

    /// The three world-axis rows of a point block.
    pub fn push_point(&mut self, f: &Frame, impulse: Vec3A) {
        for (k, (name, e)) in [("point x", Vec3A::X), ("point y", Vec3A::Y), ("point z", Vec3A::Z)].iter().enumerate() {
            self.push(name, Role::Linear, Jac::linear(f.ra, f.rb, *e), f.d[k], impulse[k]);
        }
    }

    /// The three world-axis rows of an angular block with error vector `c`.
    pub fn push_rotation(&mut self, c: Vec3A, impulse: Vec3A) {
        for (k, (name, e)) in [("angle x", Vec3A::X), ("angle y", Vec3A::Y), ("angle z", Vec3A::Z)].iter().enumerate() {
            self.push(name, Role::Angular, Jac::angular(*e), c[k], impulse[k]);
        }
    }

    /// The rows.
    pub fn as_slice(&self) -> &[RowRecord] {
        &self.rows[..self.len]
    }
}

/// What every pass of the joint solver is told.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// Substep length (s).
    pub h: f32,
    /// 1/h.
    pub inv_h: f32,
    /// Biased pass (solve) or relax.
    pub use_bias: bool,
    /// Softness of rigid rows.
    pub soft: Softness,
}

/// A solver body for the world side of a joint: no mass, never moves.
pub const STATIC: SolverBody = SolverBody {
    v: Vec3A::ZERO,
    w: Vec3A::ZERO,
    dp: Vec3A::ZERO,
    dq: Quat::IDENTITY,
    inv_mass: 0.0,
    inv_i: glam::Mat3A::ZERO,
    isotropic: true,
    touching: false,
    friction: 0.0,
    restitution: 0.0,
};

/// Two unit vectors ⟂ unit `n` with `t1 × t2 = n`.
pub fn perpendiculars(n: Vec3A) -> [Vec3A; 2] {
    let (t1, t2) = tangent_basis(n.into());
    [t1.into(), t2.into()]
}

impl Joint {
    /// Creates the joint from `desc`, with the bodies' poses (`Iso::IDENTITY` for the world)
    /// at creation. Axes are normalised; the caller has checked they are not zero.
    pub fn new(desc: &JointDesc, pa: &Iso, pb: &Iso) -> Joint {
        let to_a = |p: Vec3| Vec3A::from(pa.rot.conjugate() * (p - pa.pos));
        let to_b = |p: Vec3| Vec3A::from(pb.rot.conjugate() * (p - pb.pos));
        let dir_a = |v: Vec3| Vec3A::from(pa.rot.conjugate() * v.normalize());
        let dir_b = |v: Vec3| Vec3A::from(pb.rot.conjugate() * v.normalize());
        let mut local = Local {
            anchor_a: to_a(desc.anchor),
            anchor_b: to_b(desc.anchor),
            reference: (pa.rot.conjugate() * pb.rot).normalize(),
            ..Default::default()
        };
        let set_axis = |axis: Vec3, local: &mut Local| {
            local.axis_a = dir_a(axis);
            local.axis_b = dir_b(axis);
            local.perp_a = perpendiculars(local.axis_a);
        };
        match desc.kind {
            JointKind::Distance { anchor_b, length, .. } => {
                local.anchor_b = to_b(anchor_b);
                local.length = length;
            }
            JointKind::Hinge { axis, .. } | JointKind::Slider { axis, .. } | JointKind::Angle { axis, .. } => {
                set_axis(axis, &mut local)
            }
            JointKind::Wheel { axis, spin_axis, .. } => {
                set_axis(axis, &mut local);
                local.spin_a = dir_a(spin_axis);
                local.spin_b = dir_b(spin_axis);
                local.spin_perp_a = perpendiculars(local.spin_a);
            }
            JointKind::Pulley { ground_a, ground_b, anchor_b, ratio } => {
                local.anchor_b = to_b(anchor_b);
                local.length = (desc.anchor - ground_a).length() + ratio * (anchor_b - ground_b).length();
            }
            JointKind::Mouse { target, .. } => {
                // A is the world: its anchor is the target.
                local.anchor_a = Vec3A::from(target);
            }
            JointKind::Ball | JointKind::Weld { .. } => {}
        }
        Joint {
            name: desc.name.clone(),
            kind: desc.kind,
            a: desc.a,
            b: desc.b,
            break_force: desc.break_force,
            break_torque: desc.break_torque,
            collide: desc.collide,
            broken: false,
            local,
            impulses: Impulses::default(),
            linear_impulse: Vec3::ZERO,
            pivot_impulse: Vec3::ZERO,
            angular_impulse: Vec3::ZERO,
            position_error: 0.0,
            angular_error: 0.0,
            alive: true,
            start: StepStart::default(),
        }
    }

    /// The frame from the bodies' poses (`Iso::IDENTITY` for the world).
    pub fn frame_at(&self, pa: &Iso, pb: &Iso) -> Frame {
        let ra = Vec3A::from(pa.rot * Vec3::from(self.local.anchor_a));
        let rb = Vec3A::from(pb.rot * Vec3::from(self.local.anchor_b));
        let (ca, cb) = (Vec3A::from(pa.pos), Vec3A::from(pb.pos));
        Frame { ra, rb, d: (cb - ca) + (rb - ra), pa: ca + ra, pb: cb + rb, qa: pa.rot, qb: pb.rot }
    }

    /// The frame during the step, from the step's start and the solver bodies' motion since.
    #[inline]
    pub fn frame(&self, a: &SolverBody, b: &SolverBody) -> Frame {
        let s = &self.start;
        let (ra, rb, d) = moved_arms(s.ra, s.rb, s.dc, a, b);
        let pa = s.ca + a.dp + ra;
        Frame { ra, rb, d, pa, pb: pa + d, qa: a.dq * s.qa, qb: b.dq * s.qb }
    }

    /// Records the step's start (lever arms, orientations, spring softness) for substep `h`.
    pub fn prepare(&mut self, pa: &Iso, pb: &Iso, h: f32) {
        let f = self.frame_at(pa, pb);
        let soft = |s: Spring| Softness::new(s.hertz, s.damping_ratio, h);
        let (spring, spring2) = match self.kind {
            JointKind::Distance { spring: Some(s), .. } => (soft(s), Softness::default()),
            JointKind::Wheel { spring, .. } => (soft(spring), Softness::default()),
            JointKind::Weld { linear_hertz, angular_hertz, damping_ratio } => {
                (Softness::new(linear_hertz, damping_ratio, h), Softness::new(angular_hertz, damping_ratio, h))
            }
            JointKind::Mouse { spring, .. } => {
                (soft(spring), Softness::new(2.0 * spring.hertz, spring.damping_ratio.max(1.0), h))
            }
            _ => Default::default(),
        };
        self.start = StepStart {
            ra: f.ra,
            rb: f.rb,
            ca: Vec3A::from(pa.pos),
            dc: Vec3A::from(pb.pos - pa.pos),
            qa: pa.rot,
            qb: pb.rot,
            spring,
            spring2,
        };
    }

    /// The joint's rows at frame `f`, with their accumulated impulses.
    pub fn rows(&self, f: &Frame) -> Rows {
        let mut out = Rows::default();
        match self.kind {
            JointKind::Ball => ball::rows(self, f, &mut out),
            JointKind::Distance { .. } => distance::rows(self, f, &mut out),
            JointKind::Hinge { .. } => hinge::rows(self, f, &mut out),
            JointKind::Slider { .. } => slider::rows(self, f, &mut out),
            JointKind::Weld { .. } => weld::rows(self, f, &mut out),
            JointKind::Angle { .. } => angle::rows(self, f, &mut out),
            JointKind::Wheel { .. } => wheel::rows(self, f, &mut out),
            JointKind::Pulley { .. } => pulley::rows(self, f, &mut out),
            JointKind::Mouse { .. } => mouse::rows(self, f, &mut out),
        }
        out
    }

    /// One pass over the joint's rows.
    #[inline]
    pub fn solve(&mut self, a: &mut SolverBody, b: &mut SolverBody, pass: &Pass) {
        if let JointKind::Ball = self.kind {
            // Its own frame, so that the orientations it never reads are not computed (the
            // frame is inlined): the commonest joint, solved every pass.
            let f = self.frame(a, b);
            return ball::solve(self, &f, a, b, pass);
        }
        let f = self.frame(a, b);
        match self.kind {
            JointKind::Ball => ball::solve(self, &f, a, b, pass),
            JointKind::Distance { .. } => distance::solve(self, &f, a, b, pass),
            JointKind::Hinge { .. } => hinge::solve(self, &f, a, b, pass),
            JointKind::Slider { .. } => slider::solve(self, &f, a, b, pass),
            JointKind::Weld { .. } => weld::solve(self, &f, a, b, pass),
            JointKind::Angle { .. } => angle::solve(self, &f, a, b, pass),
            JointKind::Wheel { .. } => wheel::solve(self, &f, a, b, pass),
            JointKind::Pulley { .. } => pulley::solve(self, &f, a, b, pass),
            JointKind::Mouse { .. } => mouse::solve(self, &f, a, b, pass),
        }
    }

    /// Re-applies the accumulated impulses (`V += M⁻¹·Σ Jᵢᵀλᵢ` over the rows).
    #[inline]
    pub fn warm_start(&self, a: &mut SolverBody, b: &mut SolverBody) {
        if let JointKind::Ball = self.kind {
            let f = self.frame(a, b);
            return row::apply_point(f.ra, f.rb, self.impulses.point, a, b);
        }
        let f = self.frame(a, b);
        for r in self.rows(&f).as_slice() {
            if r.impulse != 0.0 {
                r.jac.apply(a, b, r.impulse);
            }
        }
    }

    /// [`Joint::warm_start`] on the joint's bodies in `bodies`.
    #[inline]
    pub fn warm_start_in(&self, bodies: &mut [SolverBody]) {
        with_bodies(bodies, self.a, self.b, |a, b| self.warm_start(a, b));
    }

    /// [`Joint::solve`] on the joint's bodies in `bodies`.
    #[inline]
    pub fn solve_in(&mut self, bodies: &mut [SolverBody], pass: &Pass) {
        let (a, b) = (self.a, self.b);
        with_bodies(bodies, a, b, |a, b| self.solve(a, b, pass));
    }

    /// Adds this substep's reaction ([`Joint::reaction`]) to the per-step impulses.
    #[inline]
    pub fn accumulate_in(&mut self, bodies: &[SolverBody]) {
        let (lin, ang) = self.reaction(|| self.frame(&load(bodies, self.a), &load(bodies, self.b)));
        self.linear_impulse += Vec3::from(lin);
        self.angular_impulse += Vec3::from(ang);
    }

    /// The impulse the accumulated row impulses apply to B: linear, and angular without the
    /// moment of the linear one about B's anchor.
    ///
    /// The ball joint's rows are the world axes with B's angular part `rB×eᵢ`, so its
    /// reaction is the point impulse itself with no angular part: read directly, without
    /// building the rows (a joint grid calls this for every joint every substep; the test
    /// `ball_fast_paths_equal_rows` checks it against the rows).
    /// `frame` is called only for the kinds that need it.
    pub fn reaction(&self, frame: impl FnOnce() -> Frame) -> (Vec3A, Vec3A) {
        if let JointKind::Ball = self.kind {
            return (self.impulses.point, Vec3A::ZERO);
        }
        self.reaction_from_rows(&frame())
    }

    /// [`Joint::reaction`] summed over the rows, for every kind.
    pub fn reaction_from_rows(&self, f: &Frame) -> (Vec3A, Vec3A) {
        let (mut lin, mut ang) = (Vec3A::ZERO, Vec3A::ZERO);
        for r in self.rows(f).as_slice() {
            lin += r.jac.lb * r.impulse;
            ang += r.jac.ab * r.impulse;
        }
        (lin, ang - f.rb.cross(lin))
    }

    /// Linear (m) and angular (rad) position error at frame `f`: the root sum of squares of
    /// the equality rows, plus how far each limit is exceeded.
    ///
    /// The ball joint's three rows are the components of `d = pB − pA`: its error is |d|
    /// (read directly; `ball_fast_paths_equal_rows` checks it against the rows).
    pub fn errors(&self, f: &Frame) -> (f32, f32) {
        if let JointKind::Ball = self.kind {
            return Self::ball_errors(f);
        }
        self.errors_from_rows(f)
    }

    /// [`Joint::errors`] of a ball joint: the anchors' distance, no angular error.
    #[inline]
    pub fn ball_errors(f: &Frame) -> (f32, f32) {
        (f.d.length(), 0.0)
    }

    /// [`Joint::errors`] from the rows, for every kind.
    pub fn errors_from_rows(&self, f: &Frame) -> (f32, f32) {
        let (mut lin, mut ang) = (0.0f32, 0.0f32);
        for r in self.rows(f).as_slice() {
            match r.role {
                Role::Linear => lin += r.c * r.c,
                Role::Angular => ang += r.c * r.c,
                Role::LinearLimit if r.c < 0.0 => lin += r.c * r.c,
                Role::AngularLimit if r.c < 0.0 => ang += r.c * r.c,
                _ => {}
            }
        }
        (lin.sqrt(), ang.sqrt())
    }

    /// The relative rotation of B from its reference, in A's axes: `q_A⁻¹·q_B·reference⁻¹`.
    #[inline]
    pub fn relative(&self, f: &Frame) -> Quat {
        f.qa.conjugate() * f.qb * self.local.reference.conjugate()
    }

    /// Whether the joint is in use (not removed).
    pub fn is_alive(&self) -> bool {
        self.alive
    }
}

/// Loads a joint body's solver state (the world: [`STATIC`]).
#[inline]
pub fn load(bodies: &[SolverBody], i: u32) -> SolverBody {
    if i == WORLD {
        STATIC
    } else {
        bodies[i as usize]
    }
}

/// Both solver bodies of a joint, borrowed in place, when both can move (then
/// [`load`]/[`store`] would copy them out and back unchanged in meaning; this skips the two
/// 128-byte copies per joint and pass). `None` for the world, a static or sleeping body.
#[inline]
pub fn both_moving(bodies: &mut [SolverBody], a: u32, b: u32) -> Option<[&mut SolverBody; 2]> {
    if a == WORLD || b == WORLD {
        return None;
    }
    let [x, y] = bodies.get_disjoint_mut([a as usize, b as usize]).ok()?;
    (x.inv_mass > 0.0 && y.inv_mass > 0.0).then_some([x, y])
}

/// The lever arms `ra`, `rb` and anchor gap `d = pB − pA` now, from their values at the step's
/// start (`ra`, `rb`, centre separation `dc`) and how far the solver bodies have moved and
/// turned since (`dp`, `dq`).
#[inline]
pub fn moved_arms(ra: Vec3A, rb: Vec3A, dc: Vec3A, a: &SolverBody, b: &SolverBody) -> (Vec3A, Vec3A, Vec3A) {
    let ra = a.dq * ra;
    let rb = b.dq * rb;
    (ra, rb, dc + (b.dp - a.dp) + (rb - ra))
}

/// Runs `f` on the joint's two solver bodies: in place when both move ([`both_moving`]),
/// else on copies ([`load`]/[`store`]: the world, static and sleeping bodies).
#[inline]
pub fn with_bodies(bodies: &mut [SolverBody], a: u32, b: u32, f: impl FnOnce(&mut SolverBody, &mut SolverBody)) {
    if let Some([x, y]) = both_moving(bodies, a, b) {
        return f(x, y);
    }
    let (mut x, mut y) = (load(bodies, a), load(bodies, b));
    f(&mut x, &mut y);
    store(bodies, a, &x);
    store(bodies, b, &y);
}

/// Writes back a joint body's velocities if it can move.
#[inline]
pub fn store(bodies: &mut [SolverBody], i: u32, s: &SolverBody) {
    if i != WORLD && s.inv_mass > 0.0 {
        let t = &mut bodies[i as usize];
        t.v = s.v;
        t.w = s.w;
    }
}
