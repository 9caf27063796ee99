//! # The contactlab physics module
//!
//! A small 3D rigid-body engine written to be *read*: every stage of finding and resolving
//! a contact is a named function, and everything the testbed draws comes out of it as plain
//! data ([`debug`]). It depends on `glam` and `std` only — never on the renderer or UI.
//!
//! ## How a step works (for students)
//! 1. **Bodies** ([`body`]) carry a pose, velocities and mass data computed exactly from
//!    their [`shape`] (hulls by tetrahedral decomposition).
//! 2. **Broad phase** ([`broadphase`]): each body's AABB is filed in a cell
//!    (hashed uniform grid); only overlapping boxes become candidate pairs.
//! 3. **Narrow phase** ([`collide`]): for each candidate pair, the separating-axis test
//!    (Gregorius) finds the axis of least penetration among A's faces, B's faces and the
//!    edge pairs whose Gauss-map arcs cross (the Minkowski faces of A − B). A face axis
//!    gives a *reference face*; the most anti-parallel face of the other body (the
//!    *incident face*) is clipped against the reference face's side planes
//!    (Sutherland–Hodgman) and reduced to at most 4 points. An edge axis gives one point.
//!    Each point carries a feature ID so it can be recognised next step.
//! 4. **Resolution** ([`solver`]): contact impulses make the bodies stop approaching —
//!    once per point (naive) or by sequential impulses with friction, warm starting and
//!    position correction (iterative, Catto).
//! 5. **Integration** moves the bodies, conserving angular momentum in free flight.
//!
//! ## Conventions
//! - SI units (m, kg, s). Y is up.
//! - Contact normals point from body A to body B; depth > 0 means overlap.
//! - Hull faces are wound counter-clockwise seen from outside; twin half-edges are `2i`,
//!   `2i + 1`.
//! - Poses are `Iso` (rotation then translation); narrow-phase code works in one shape's
//!   frame with the other's pose relative to it.
//!
//! ## Known limits
//! - Continuous collision detection ([`ContinuousMode`]) keeps fast bodies from tunnelling
//!   through static ones (and bullets through anything) but costs them the rest of their
//!   step; a fast non-bullet body can still pass through a thin *dynamic* body.
//! - Hulls are convex; concave objects need several bodies (no compounds yet).

pub mod body;
pub mod broadphase;
pub mod character;
pub mod collide;
pub mod contact;
pub mod debug;
pub mod hull;
pub mod joint;
pub mod limits;
pub mod math;
pub mod mesh;
pub mod shape;
pub mod solver;
pub mod world;

pub use body::{Body, BodyDesc, BodyHandle, BodyKind};
pub use collide::{CollideConfig, ContactKind, ContactPoint, FeatureId, Manifold};
pub use hull::{Hull, HullError};
pub use joint::{JointDesc, JointHandle, JointKind, WORLD};
pub use math::{Aabb, Iso};
pub use shape::{MassProperties, Shape};
pub use solver::{ContinuousMode, Settings, SolverMode};
pub use world::{Contact, ContinuousRecord, NonFinite, Profile, Stage, Stats, SubEvent, ToiEvent, ToiQuery, World};
