//! Rigid bodies.
//!
//! State: position of the centre of mass, unit orientation quaternion, linear velocity v and
//! angular velocity ω (world frame). Mass data: inverse mass and inverse inertia in body
//! axes; the world inverse inertia is `R · I⁻¹ · Rᵀ`.
//!
//! Integration (see [`Body::integrate_rotation`]): a free body's angular momentum L is held
//! fixed in the world while its orientation advances, and ω is recomputed from L at the new
//! orientation, which produces the gyroscopic motion a plain `q += ½ω q dt` update misses (a
//! T-handle spun about its intermediate axis flips: the Dzhanibekov effect). The turn is the
//! symmetric-top splitting over the principal axes (found once per body,
//! [`crate::physics::principal`]): exact for bodies with two equal moments (discs, wheels,
//! tops), symplectic for the rest, so |L| holds to round-off and the energy error stays
//! bounded at any step. The update itself is [`crate::physics::free_rotation`], which reads
//! only the body's [`Body::inertia`] (the world also runs it with the inertia about a pivot).
//! Limits: needles and slivers (one moment tiny beside another,
//! [`crate::physics::free_rotation::NEEDLE_RATIO`]) take an implicit update instead, which
//! never gains energy but damps their slow flips; bodies in contact turn by ω·h with the
//! solver's inertia ([`Body::carry_spin`]).
//!
//! Kinds ([`BodyKind`]): dynamic bodies move under gravity and contacts; static bodies never
//! move; kinematic bodies move at the velocity and spin they are given (by a scene or by
//! code, each step if it likes) and nothing pushes them back: they have infinite mass, feel
//! no gravity, and push the dynamic bodies they meet (a moving platform, a turntable, a
//! paddle). A kinematic body's velocity stays as set; its pose advances by it each substep
//! (a rotation by ω·h, exact for a constant spin).

use crate::physics::free_rotation::{isotropic, Inertia};
use crate::physics::math::Iso;
use crate::physics::shape::Shape;
use glam::{Mat3, Quat, Vec3};

/// Handle to a body: index plus generation, so a stale handle is detected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BodyHandle {
    /// Slot in the world's body array.
    pub index: u32,
    /// Generation of the slot when the handle was made.
    pub generation: u32,
}

/// Static bodies never move (infinite mass); dynamic bodies respond to forces and contacts;
/// kinematic bodies move at their own velocity and spin (infinite mass, no gravity).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BodyKind {
    /// Moved by gravity and contacts.
    #[default]
    Dynamic,
    /// Fixed in place.
    Static,
    /// Moved by its velocity and spin alone, which only the user changes; pushes dynamic
    /// bodies and is not pushed back.
    Kinematic,
}

/// Everything needed to create a body.
#[derive(Clone, Debug)]
pub struct BodyDesc {
    /// Unique name (for traces and the UI).
    pub name: String,
    /// Collision shape in the body's authored frame.
    pub shape: Shape,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Position of the authored frame's origin.
    pub position: Vec3,
    /// Orientation.
    pub rotation: Quat,
    /// Linear velocity (m/s).
    pub velocity: Vec3,
    /// Angular velocity (rad/s, world frame).
    pub angular_velocity: Vec3,
    /// Density (kg/m³), used unless `mass` is set.
    pub density: f32,
    /// Total mass (kg), overrides density.
    pub mass: Option<f32>,
    /// Coulomb friction coefficient.
    pub friction: f32,
    /// Coefficient of restitution in [0, 1].
    pub restitution: f32,
    /// Rolling resistance (dimensionless, Box2D v3's and Box3D's): a contact resists the
    /// two bodies' relative turning with a torque of at most this times its normal force
    /// times the rolling arm ([`Shape::rolling_arm`]); 0 (the default) rolls freely.
    pub rolling_resistance: f32,
    /// A bullet: continuous collision against dynamic bodies too, not only static ones
    /// (Box2D's `isBullet`; [`crate::physics::ContinuousMode::Fast`]).
    pub bullet: bool,
}

impl BodyDesc {
    /// A dynamic body with default material at `position`.
    pub fn new(name: impl Into<String>, shape: Shape, position: Vec3) -> Self {
        Self {
            name: name.into(),
            shape,
            kind: BodyKind::Dynamic,
            position,
            rotation: Quat::IDENTITY,
            velocity: Vec3::ZERO,
            angular_velocity: Vec3::ZERO,
            density: 1000.0,
            mass: None,
            friction: 0.5,
            restitution: 0.0,
            rolling_resistance: 0.0,
            bullet: false,
        }
    }

    /// Builder: make a bullet (continuous collision against dynamic bodies too).
    pub fn as_bullet(mut self) -> Self {
        self.bullet = true;
        self
    }

    /// Builder: make static.
    pub fn fixed(mut self) -> Self {
        self.kind = BodyKind::Static;
        self
    }

    /// Builder: make kinematic, moving at `velocity` and turning at `spin` (rad/s, world
    /// axes).
    pub fn kinematic(mut self, velocity: Vec3, spin: Vec3) -> Self {
        self.kind = BodyKind::Kinematic;
        self.velocity = velocity;
        self.angular_velocity = spin;
        self
    }

    /// Builder: set rotation.
    pub fn with_rotation(mut self, q: Quat) -> Self {
        self.rotation = q;
        self
    }

    /// Builder: set velocity.
    pub fn with_velocity(mut self, v: Vec3) -> Self {
        self.velocity = v;
        self
    }

    /// Builder: set angular velocity (rad/s, world axes).
    pub fn with_angular_velocity(mut self, w: Vec3) -> Self {
        self.angular_velocity = w;
        self
    }

    /// Builder: set friction and restitution.
    pub fn with_material(mut self, friction: f32, restitution: f32) -> Self {
        self.friction = friction;
        self.restitution = restitution;
        self
    }

    /// Builder: set the rolling resistance ([`BodyDesc::rolling_resistance`]).
    pub fn with_rolling_resistance(mut self, rolling_resistance: f32) -> Self {
        self.rolling_resistance = rolling_resistance;
        self
    }
}

/// A rigid body owned by the world.
#[derive(Clone, Debug)]
pub struct Body {
    /// Unique name.
    pub name: String,
    /// Collision shape, re-centred so the centre of mass is the body origin.
    pub shape: Shape,
    /// Dynamic, static or kinematic.
    pub kind: BodyKind,
    /// Centre of mass and orientation.
    pub pose: Iso,
    /// Linear velocity.
    pub velocity: Vec3,
    /// Angular velocity (world).
    pub angular_velocity: Vec3,
    /// 1/mass (0 for static and kinematic bodies).
    pub inv_mass: f32,
    /// Inertia about the centre of mass, body axes.
    pub inertia_local: Mat3,
    /// Inverse inertia, body axes (zero for static and kinematic bodies).
    pub inv_inertia_local: Mat3,
    /// The principal axes of `inertia_local` in body axes, as the rotation whose columns
    /// they are ([`crate::physics::principal`]).
    pub principal_axes: Quat,
    /// The principal moments, ascending: `inertia_local = R·diag(principal_inertia)·Rᵀ`
    /// with R the rotation of `principal_axes` (kept in step with `inertia_local` by
    /// whoever scales it).
    pub principal_inertia: Vec3,
    /// Friction coefficient.
    pub friction: f32,
    /// Restitution coefficient.
    pub restitution: f32,
    /// Rolling resistance ([`BodyDesc::rolling_resistance`]).
    pub rolling_resistance: f32,
    /// Offset from the authored origin to the centre of mass, in body axes.
    pub com_offset: Vec3,
    /// Seconds spent below the sleep thresholds.
    pub sleep_time: f32,
    /// Not integrated while asleep.
    pub asleep: bool,
    /// A bullet: swept against dynamic bodies too by the fast continuous step.
    pub bullet: bool,
}

impl Body {
    /// Inverse inertia in world axes.
    #[inline]
    pub fn inv_inertia_world(&self) -> Mat3 {
        let r = Mat3::from_quat(self.pose.rot);
        r * self.inv_inertia_local * r.transpose()
    }

    /// Mass (∞ for static and kinematic bodies).
    pub fn mass(&self) -> f32 {
        if self.inv_mass > 0.0 {
            1.0 / self.inv_mass
        } else {
            f32::INFINITY
        }
    }

    /// Whether gravity and contacts move the body.
    pub fn is_dynamic(&self) -> bool {
        self.kind == BodyKind::Dynamic
    }

    /// Whether the body moves at its own velocity alone ([`BodyKind::Kinematic`]).
    pub fn is_kinematic(&self) -> bool {
        self.kind == BodyKind::Kinematic
    }

    /// A kinematic body with a velocity or a spin: it moves this step, and wakes and keeps
    /// awake the bodies it touches.
    pub fn is_moving_kinematic(&self) -> bool {
        self.is_kinematic() && (self.velocity != Vec3::ZERO || self.angular_velocity != Vec3::ZERO)
    }

    /// Pose of the authored frame (what a scene file or a renderer names the body's pose).
    pub fn authored_pose(&self) -> Iso {
        Iso::new(self.pose.pos - self.pose.rot * self.com_offset, self.pose.rot)
    }

    /// Velocity of the body point at world position `p`.
    #[inline]
    pub fn point_velocity(&self, p: Vec3) -> Vec3 {
        self.velocity + self.angular_velocity.cross(p - self.pose.pos)
    }

    /// Angular momentum about the centre of mass, world frame.
    pub fn angular_momentum(&self) -> Vec3 {
        let r = Mat3::from_quat(self.pose.rot);
        // Three matrix–vector products instead of two matrix products and one.
        r * (self.inertia_local * (r.transpose() * self.angular_velocity))
    }

    /// Kinetic energy ½mv² + ½ωᵀIω.
    pub fn kinetic_energy(&self) -> f32 {
        if self.inv_mass == 0.0 {
            return 0.0;
        }
        0.5 * self.velocity.length_squared() / self.inv_mass + 0.5 * self.angular_velocity.dot(self.angular_momentum())
    }

    /// Applies an impulse `j` at world point `p`.
    #[inline]
    pub fn apply_impulse(&mut self, j: Vec3, p: Vec3) {
        self.velocity += j * self.inv_mass;
        self.angular_velocity += self.inv_inertia_world() * (p - self.pose.pos).cross(j);
    }

    /// Whether the inertia is the same about every axis (to 1e-5 relative), so the world
    /// inertia never changes with the rotation.
    #[inline]
    pub fn isotropic(&self) -> bool {
        isotropic(&self.inv_inertia_local)
    }

    /// The inertia about the centre of mass, as the rotation update reads it.
    pub fn inertia(&self) -> Inertia {
        Inertia {
            local: self.inertia_local,
            inv_local: self.inv_inertia_local,
            axes: self.principal_axes,
            moments: self.principal_inertia,
        }
    }

    /// Advances the rotation by `dt`, holding the angular momentum fixed (module docs).
    pub fn integrate_rotation(&mut self, dt: f32) {
        (self.pose.rot, self.angular_velocity) = self.inertia().turn(self.pose.rot, self.angular_velocity, dt);
    }
}

impl Body {
    /// Carries the angular velocity of a body that turned from orientation `from` to its
    /// current one while its inertia was held at `from`'s (a body in contact: the solver's
    /// impulses use the world inertia of the step's start, so within the step the body
    /// turns by ω·h with ω constant, which conserves the energy the solver sees).
    ///
    /// At the new orientation the same ω can carry far more energy: for a sliver or needle
    /// turned by a large angle, ω about what was its weak axis may now lie along a strong
    /// one (the fuzzer saw a 1.6 g hull go from 2 J to 5·10⁵ J in one step when the
    /// orientation was advanced with the true inertia while the impulses used the start's).
    /// So the angular momentum `L = I(from)·ω` is kept and `ω' = I(now)⁻¹·L`, scaled back
    /// where its energy would exceed the energy the solver saw (`ω·I(from)·ω`).
    pub fn carry_spin(&mut self, from: Quat) {
        let w = self.angular_velocity;
        let (r0, r1) = (Mat3::from_quat(from), Mat3::from_quat(self.pose.rot));
        let l = r0 * (self.inertia_local * (r0.transpose() * w));
        let mut w1 = r1 * (self.inv_inertia_local * (r1.transpose() * l));
        let (e0, e1) = (w.dot(l), w1.dot(l));
        if !w1.is_finite() {
            return;
        }
        if e1 > e0 && e0 >= 0.0 {
            w1 *= (e0 / e1).sqrt();
        }
        self.angular_velocity = w1;
    }
}

/// Largest turn (rad) per substep of a body in contact (Box2D's `B2_MAX_ROTATION`, a
/// quarter of π): its contact points, normals and lever arms are fixed for the step, and a
/// body that turns further than this between two position updates has left them behind —
/// speculative gaps, push-out and restitution then act at points the body no longer has
/// (the fuzzer saw a 5 g needle spun to 10⁴ rad/s gain 6 J in two steps). At 4 substeps of
/// 1/60 s that is 188 rad/s; the naive method's one update per step allows 47 rad/s.
pub const MAX_CONTACT_TURN: f32 = 0.25 * std::f32::consts::PI;

impl Body {
    /// The angular velocity `w` of this body in contact, limited to [`MAX_CONTACT_TURN`]
    /// per substep `h` where turning changes what touches: a sphere keeps any spin and a
    /// capsule any spin about its axis (its axis at orientation `rot`, the step's start,
    /// so the limit only removes energy in the inertia the solver uses).
    pub fn limit_contact_spin(&self, w: Vec3, rot: Quat, h: f32) -> Vec3 {
        let max = MAX_CONTACT_TURN / h;
        let limit = |v: Vec3| if v.length_squared() > max * max { v * (max / v.length()) } else { v };
        match self.shape {
            Shape::Sphere { .. } => w,
            Shape::Capsule { .. } => {
                let axis = rot * Vec3::Y;
                let along = axis * axis.dot(w);
                along + limit(w - along)
            }
            _ => limit(w),
        }
    }
}

impl Body {
    /// Whether one principal inertia is tiny beside another
    /// ([`crate::physics::free_rotation::NEEDLE_RATIO`]): needles and rods, which take the
    /// implicit update (module docs).
    pub fn needle_like(&self) -> bool {
        self.inertia().needle_like()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::{BodyDesc, Settings, World};

    /// A 4:2:1 box (no two moments equal, so the splitting's rest is at work), turned
    /// off-axis, spinning near its major axis at 0.5 rad per step for 20,000 steps: L in the
    /// world is the invariant of the exact motion and the energy `½ω·L` the other; a
    /// symplectic update keeps the energy error bounded (the explicit midpoint rule this
    /// replaced let the wobble grow, and its energy cap then drained |L|).
    #[test]
    fn a_free_box_keeps_its_angular_momentum_and_energy_over_many_large_steps() {
        let mut w = World::new(Vec3::ZERO, Settings::default());
        let shape = Shape::cuboid(Vec3::new(0.4, 0.2, 0.1)).unwrap();
        let mut d = BodyDesc::new("box", shape, Vec3::ZERO).with_rotation(Quat::from_euler(
            glam::EulerRot::XYZ,
            0.3,
            -0.5,
            0.9,
        ));
        d.angular_velocity = d.rotation * Vec3::new(0.4, -0.3, 30.0);
        w.add_body(d).unwrap();
        let mut b = w.bodies()[0].clone();
        assert!(!b.isotropic() && !b.needle_like());
        let (l0, e0) = (b.angular_momentum(), b.kinetic_energy());
        let dt = 0.5 / 30.0;
        let (mut dl, mut de) = (0.0f32, 0.0f32);
        for _ in 0..20_000 {
            b.integrate_rotation(dt);
            dl = dl.max((b.angular_momentum() - l0).length() / l0.length());
            de = de.max((b.kinetic_energy() / e0 - 1.0).abs());
        }
        assert!(dl < 1e-4, "L moved {dl:e} of |L|");
        assert!(de < 2e-3, "energy off by {de:e}");
    }
}
