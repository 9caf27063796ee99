//! The valid ranges of every physical input: what f32 and the solver can honour.
//!
//! Scene loading checks each value against these ([`crate::scene::build()`]) and names the
//! body, the field, the value and the range when one is outside; the panel's sliders are
//! clamped to them ([`Settings::clamped`]). docs/scenes.md lists them in its tables.
//!
//! Why these numbers (SI units; Box2D and Box3D document similar ones: moving objects of
//! 0.1–10 m, static ones up to about 50 m, in a world of a few kilometres):
//! - **Sizes** from 0.5 mm (half extents, radii: a body at least 1 mm thick; hulls at least
//!   1 mm thick across every face) to 1 km. A sphere of radius 10⁻⁹ m has an inertia of
//!   about 10⁻⁴² kg·m², below the smallest normal f32, whose inverse is infinite.
//! - **Positions** within 10 km of the origin: the f32 spacing there is 0.98 mm, a fifth
//!   of the default slop; farther out contact depths are rounded to centimetres.
//! - **Density** 1–100,000 kg/m³ and **mass** 10⁻⁶–10⁹ kg, and the heaviest dynamic body
//!   at most [`MAX_MASS_RATIO`] times the lightest: the solver passes impulses between
//!   touching bodies and converges ever more slowly as their mass ratio grows.
//! - **Speeds** up to 1,000 m/s and **spins** up to 100 rad/s: the speculative contacts
//!   reach [`crate::physics::world::MAX_SPECULATIVE`] per step (120 m/s at 60 Hz); faster
//!   bodies are kept from tunnelling by continuous collision detection
//!   ([`crate::physics::ContinuousMode`], on by default), and tunnel with it off.
//! - **Timestep** 0.1 ms – 0.1 s; **gravity** up to 100 m/s² per component.
//!
//! Limits: the mass ratio is checked over all dynamic bodies of a scene (any two may touch),
//! which is stricter than "touching bodies"; bodies added through the API
//! ([`crate::physics::World::add_body`]) are only checked for finite, positive mass data.

use crate::physics::solver::Settings;

/// A closed interval of valid values, with its unit for messages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// Smallest valid value.
    pub min: f32,
    /// Largest valid value.
    pub max: f32,
    /// Unit for messages ("m", "kg/m³", …; empty for pure numbers).
    pub unit: &'static str,
}

impl Limit {
    const fn new(min: f32, max: f32, unit: &'static str) -> Limit {
        Limit { min, max, unit }
    }

    /// Whether `v` is finite and within the interval.
    pub fn contains(&self, v: f32) -> bool {
        v.is_finite() && v >= self.min && v <= self.max
    }

    /// `v` moved into the interval (NaN becomes `min`).
    pub fn clamp(&self, v: f32) -> f32 {
        if v.is_nan() {
            self.min
        } else {
            v.clamp(self.min, self.max)
        }
    }

    /// The interval as an inclusive range (for sliders).
    pub fn range(&self) -> std::ops::RangeInclusive<f32> {
        self.min..=self.max
    }

    /// The part of `wanted` (a slider's comfortable range) inside the interval.
    pub fn within(&self, wanted: std::ops::RangeInclusive<f32>) -> std::ops::RangeInclusive<f32> {
        self.clamp(*wanted.start())..=self.clamp(*wanted.end())
    }

    /// "between 0.0005 and 1000 m", for messages and docs.
    pub fn describe(&self) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        format!("between {} and {}{unit}", self.min, self.max)
    }
}

/// Half extents of boxes, radii and half heights of spheres, capsules and cylinders.
pub const HALF_SIZE: Limit = Limit::new(5e-4, 1000.0, "m");
/// Smallest width of a hull across any of its faces (m) — a hull's "1 mm" floor.
pub const HULL_THICKNESS: Limit = Limit::new(1e-3, 2000.0, "m");
/// Distance of a hull's farthest vertex from its centre of mass.
pub const HULL_RADIUS: Limit = Limit::new(5e-4, 1000.0, "m");
/// Most points in a hull's cloud.
pub const HULL_POINTS: usize = 100_000;
/// Most triangles in one mesh (a scene's meshes are built when it loads: 10⁶ triangles
/// take about a second in a release build).
pub const MESH_TRIANGLES: usize = 1_000_000;
/// Density of a body.
pub const DENSITY: Limit = Limit::new(1.0, 1e5, "kg/m³");
/// Mass of a dynamic body, given or computed from its density.
pub const MASS: Limit = Limit::new(1e-6, 1e9, "kg");
/// Largest ratio of the heaviest to the lightest dynamic body of a scene.
pub const MAX_MASS_RATIO: f32 = 1000.0;
/// Each coordinate of a position (a body's, a generator's base, a hull point's offset).
pub const POSITION: Limit = Limit::new(-1e4, 1e4, "m");
/// Length of a body's velocity.
pub const SPEED: Limit = Limit::new(0.0, 1000.0, "m/s");
/// Length of a body's angular velocity.
pub const SPIN: Limit = Limit::new(0.0, 100.0, "rad/s");
/// Each component of gravity.
pub const GRAVITY: Limit = Limit::new(-100.0, 100.0, "m/s²");
/// The fixed timestep.
pub const TIMESTEP: Limit = Limit::new(1e-4, 0.1, "s");
/// Friction coefficient of a body or a pair.
pub const FRICTION: Limit = Limit::new(0.0, 10.0, "");
/// Restitution of a body or a pair.
pub const RESTITUTION: Limit = Limit::new(0.0, 1.0, "");
/// Rolling resistance of a body (Box3D's trees roll at 0.05; at 1 a ball's resisting torque
/// could reach its radius times the whole normal force).
pub const ROLLING_RESISTANCE: Limit = Limit::new(0.0, 1.0, "");

/// Velocity passes per substep, and substeps per step (the `--iterations` flag's range).
pub const ITERATIONS: (u32, u32) = (1, 1000);
/// Substeps per step.
pub const SUBSTEPS: (u32, u32) = (1, 1000);
/// Contact stiffness (0: no position feedback).
pub const CONTACT_HERTZ: Limit = Limit::new(0.0, 1000.0, "Hz");
/// Damping ratio of the contact spring.
pub const DAMPING_RATIO: Limit = Limit::new(0.0, 100.0, "");
/// Largest push-out speed.
pub const MAX_PUSH_OUT: Limit = Limit::new(0.01, 100.0, "m/s");
/// Allowed penetration.
pub const SLOP: Limit = Limit::new(0.0, 0.1, "m");
/// Restitution velocity threshold.
pub const RESTITUTION_THRESHOLD: Limit = Limit::new(0.0, 100.0, "m/s");
/// Naive projection fraction.
pub const NAIVE_CORRECTION: Limit = Limit::new(0.0, 1.0, "");
/// Sleep speed threshold.
pub const SLEEP_LINEAR: Limit = Limit::new(0.0, 10.0, "m/s");
/// Sleep angular speed threshold.
pub const SLEEP_ANGULAR: Limit = Limit::new(0.0, 10.0, "rad/s");
/// Rest time before sleeping.
pub const SLEEP_TIME: Limit = Limit::new(0.0, 1000.0, "s");
/// Speculative margin.
pub const MARGIN: Limit = Limit::new(0.0, 1.0, "m");
/// Contact recycling window.
pub const RECYCLE_DISTANCE: Limit = Limit::new(0.0, 1.0, "m");
/// Cyclone: resolution steps per contact point (penetrations, velocities). The worst-first
/// search scans every point per step, so the cost grows with points² times this.
pub const CYCLONE_ITERATIONS: (u32, u32) = (1, 100);
/// Cyclone: penetration left alone.
pub const CYCLONE_POSITION_EPSILON: Limit = Limit::new(0.0, 0.1, "m");
/// Cyclone: velocity change left alone.
pub const CYCLONE_VELOCITY_EPSILON: Limit = Limit::new(0.0, 1.0, "m/s");
/// Joints: stiffness of rigid rows' position feedback.
pub const JOINT_HERTZ: Limit = Limit::new(0.0, 1000.0, "Hz");
/// Earliest-collision mode: sub-events per step.
pub const MAX_SUB_EVENTS: (u32, u32) = (1, 10_000);
/// Cyclone: angular share of a move, as a fraction of the lever arm.
pub const CYCLONE_ANGULAR_LIMIT: Limit = Limit::new(0.0, 1.0, "");

impl Settings {
    /// Every field moved into its valid range (what the panel applies after each edit).
    pub fn clamped(self) -> Settings {
        let u = |v: u32, (lo, hi): (u32, u32)| v.clamp(lo, hi);
        Settings {
            iterations: u(self.iterations, ITERATIONS),
            substeps: u(self.substeps, SUBSTEPS),
            contact_hertz: CONTACT_HERTZ.clamp(self.contact_hertz),
            damping_ratio: DAMPING_RATIO.clamp(self.damping_ratio),
            max_push_out: MAX_PUSH_OUT.clamp(self.max_push_out),
            slop: SLOP.clamp(self.slop),
            restitution_threshold: RESTITUTION_THRESHOLD.clamp(self.restitution_threshold),
            naive_correction: NAIVE_CORRECTION.clamp(self.naive_correction),
            sleep_linear: SLEEP_LINEAR.clamp(self.sleep_linear),
            sleep_angular: SLEEP_ANGULAR.clamp(self.sleep_angular),
            sleep_time: SLEEP_TIME.clamp(self.sleep_time),
            margin: MARGIN.clamp(self.margin),
            recycle_distance: RECYCLE_DISTANCE.clamp(self.recycle_distance),
            cyclone_position_iterations: u(self.cyclone_position_iterations, CYCLONE_ITERATIONS),
            cyclone_velocity_iterations: u(self.cyclone_velocity_iterations, CYCLONE_ITERATIONS),
            cyclone_position_epsilon: CYCLONE_POSITION_EPSILON.clamp(self.cyclone_position_epsilon),
            cyclone_velocity_epsilon: CYCLONE_VELOCITY_EPSILON.clamp(self.cyclone_velocity_epsilon),
            cyclone_angular_limit: CYCLONE_ANGULAR_LIMIT.clamp(self.cyclone_angular_limit),
            joint_hertz: JOINT_HERTZ.clamp(self.joint_hertz),
            joint_damping_ratio: DAMPING_RATIO.clamp(self.joint_damping_ratio),
            max_sub_events: u(self.max_sub_events, MAX_SUB_EVENTS),
            ..self
        }
    }
}

/// Each float setting with its name and range, for checks and docs.
pub fn settings_fields(s: &Settings) -> [(&'static str, f32, Limit); 16] {
    [
        ("contact_hertz", s.contact_hertz, CONTACT_HERTZ),
        ("damping_ratio", s.damping_ratio, DAMPING_RATIO),
        ("max_push_out", s.max_push_out, MAX_PUSH_OUT),
        ("slop", s.slop, SLOP),
        ("restitution_threshold", s.restitution_threshold, RESTITUTION_THRESHOLD),
        ("naive_correction", s.naive_correction, NAIVE_CORRECTION),
        ("sleep_linear", s.sleep_linear, SLEEP_LINEAR),
        ("sleep_angular", s.sleep_angular, SLEEP_ANGULAR),
        ("sleep_time", s.sleep_time, SLEEP_TIME),
        ("margin", s.margin, MARGIN),
        ("recycle_distance", s.recycle_distance, RECYCLE_DISTANCE),
        ("cyclone_position_epsilon", s.cyclone_position_epsilon, CYCLONE_POSITION_EPSILON),
        ("cyclone_velocity_epsilon", s.cyclone_velocity_epsilon, CYCLONE_VELOCITY_EPSILON),
        ("cyclone_angular_limit", s.cyclone_angular_limit, CYCLONE_ANGULAR_LIMIT),
        ("joint_hertz", s.joint_hertz, JOINT_HERTZ),
        ("joint_damping_ratio", s.joint_damping_ratio, DAMPING_RATIO),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_settings_are_inside_every_range_and_clamping_keeps_them() {
        let s = Settings::default();
        for (name, v, lim) in settings_fields(&s) {
            assert!(lim.contains(v), "{name} = {v} outside {}", lim.describe());
        }
        assert_eq!(s.clamped(), s);
    }

    #[test]
    fn clamping_moves_every_field_to_the_nearest_end() {
        let wild = Settings {
            iterations: 0,
            substeps: 5000,
            contact_hertz: -3.0,
            damping_ratio: f32::NAN,
            max_push_out: 1e9,
            slop: 1.0,
            margin: -1.0,
            ..Default::default()
        };
        let c = wild.clamped();
        assert_eq!((c.iterations, c.substeps), (1, 1000));
        assert_eq!((c.contact_hertz, c.damping_ratio, c.max_push_out), (0.0, 0.0, 100.0));
        assert_eq!((c.slop, c.margin), (0.1, 0.0));
        for (name, v, lim) in settings_fields(&c) {
            assert!(lim.contains(v), "{name} = {v} outside {}", lim.describe());
        }
    }
}
