//! # The contactlab physics module
//!
//! A small 3D rigid-body engine written to be *read*: every stage of finding and resolving
//! a contact is a named function, and everything the testbed draws comes out of it as plain
//! data ([`debug`]). It depends on `glam` and `std` only (and `web-time`, std's clock that
//! also works in a browser, for its stage timings) — never on the renderer or UI.
//!
//! ## How a step works (for students)
//! **Bodies** ([`body`]) carry a pose, velocities and mass data computed exactly from their
//! [`shape`] (hulls by tetrahedral decomposition; a [`compound`] of several shapes by the
//! parallel-axis theorem); a static body may instead be a triangle [`mesh`]. [`World::step`] then runs, in this order (the one-pass methods' order; the
//! world's module docs, [`world`], give each method's schedule and the [`Stage`] each part
//! is timed under):
//! 1. **Gravity** into the velocities (`IntegrateForces`; the soft step adds it in each
//!    substep instead, stage 5).
//! 2. **Broad phase** ([`broadphase`]): each body's AABB, swept over the step, is filed in a
//!    cell (hashed uniform grid); only overlapping boxes become candidate pairs, less those
//!    whose bounding spheres' straight paths miss each other (`Settings::path_test`).
//! 3. **Narrow phase** ([`collide`]): for each candidate pair a manifold of at most 4
//!    points, speculative ones included (still apart, but within the pair's margin). Two
//!    hulls take the separating-axis test (Gregorius): the axis of least penetration among
//!    A's faces, B's faces and the edge pairs whose Gauss-map arcs cross (the Minkowski
//!    faces of A − B). A face axis gives a *reference face*; the other body's face most
//!    anti-parallel to it among those around its deepest vertex (the *incident face*) is
//!    clipped against the reference face's side planes (Sutherland–Hodgman) and reduced to
//!    at most 4 points; an edge axis clips the two edges' faces along that axis the same
//!    way (one point where they are too steep). Spheres and capsules take closed forms.
//!    **Mesh contacts**: a convex body on a static triangle mesh gets per-triangle
//!    contacts, grouped by normal into one manifold per group. **Compound bodies**
//!    ([`compound`], several convex shapes as one body) collide child pair by child pair,
//!    a manifold per touching child pair. Each point carries a
//!    feature ID so it can be recognised next step; a pair that barely moved keeps its
//!    manifold (depths measured again), and a pair still apart is skipped. Then every
//!    sleeping island that a moving body now touches or pulls through a joint wakes.
//! 4. **Prepare**: one constraint per touching manifold (lever arms, tangents, materials,
//!    bounce targets), the **joints'** rows ([`joint`]), and the method's own preparation.
//! 5. **Resolution** ([`solver`]): in every method the joints are solved first, by
//!    sequential impulses; the contacts by one of five methods ([`SolverMode`]):
//!    - *naive*: one impulse per contact point, once, then a linear projection of
//!      penetration after the integration;
//!    - *iterative, scalar*: sequential impulses with friction and warm starting (Catto),
//!      position error handled by soft contacts over substeps — per substep gravity, warm
//!      start, solve, integrate, relax — then a restitution pass (Box2D v3's soft step);
//!    - *iterative, SIMD*: the same, four manifolds at a time after graph colouring;
//!    - *Cyclone* (Millington): penetrations by nonlinear projection, deepest first,
//!      *before* the velocities; then contact-space impulses, fastest closing point first;
//!    - *averaged* (Homer): each pair's points resolved from the same velocities and the
//!      average of their effects applied, rescaled to the pair's restitution; then the
//!      naive projection.
//! 6. **Integration** moves the bodies, conserving angular momentum in free flight
//!    ([`free_rotation`]); a body hung from a fixed point by its joints turns about it.
//! 7. **Continuous collision** ([`ContinuousMode`]): in the fast mode (the default), a body
//!    that moved far for its size is swept and moved back to its time of impact against
//!    static bodies (bullets: against any body); in the earliest-collision mode the step is
//!    instead cut at each earliest collision and stages 1–6 run once per cut, each cut
//!    followed by the fast sweep and stage 8.
//! 8. **Store impulses**: the impulses go back into the contacts (warm starting, drawing,
//!    the watched pairs' records); each joint's error is measured and joints loaded past
//!    their threshold break.
//! 9. **Sleep**: islands of touching or jointed bodies that have all rested long enough go
//!    to sleep; the others wake.
//! 10. **Characters** ([`character`]): collide-and-slide ellipsoids walk and fall through
//!     the box and hull bodies and the static meshes, pushing the dynamic bodies they walk
//!     into.
//! 11. **Finiteness check**: a body whose state became NaN or infinite is frozen and
//!     reported ([`World::non_finite`]).
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
//!   step; a fast non-bullet body can still pass through a thin *dynamic* body. The
//!   earliest-collision mode runs the whole step once per cut.
//! - Moving shapes are convex (sphere, capsule, box, hull); triangle meshes are static
//!   only, and a concave moving object needs several bodies (no compounds yet).
//! - The naive and averaged methods let stacks sink and jitter; Cyclone has no warm
//!   starting, and its worst-first scan grows in the worst case with the square of the
//!   number of contact points (the method docs in [`solver`]).
//! - Characters are kinematic: bodies block them but never push them back, and they
//!   collide with triangles only (spheres and capsules are passed through).
//! - The step's stages are shared out between threads ([`parallel`]: the narrow phase,
//!   prepare, each graph colour of the SIMD solver and of the joints, integration; the
//!   results are bit-identical at any thread count), but the broad phase's grid fill and
//!   pair sort, the overflow manifolds, restitution, continuous collision, islands and the
//!   one-pass methods' contact solves run on the stepping thread.

pub mod body;
pub mod broadphase;
pub mod character;
pub mod collide;
pub mod compound;
pub mod contact;
pub mod debug;
pub mod free_rotation;
pub mod hull;
pub mod joint;
pub mod limits;
pub mod math;
pub mod mesh;
pub mod parallel;
pub(crate) mod per_body;
pub mod principal;
pub mod rest_friction;
pub mod shape;
pub mod solver;
pub mod world;

pub use body::{Body, BodyDesc, BodyHandle, BodyKind};
pub use collide::{CollideConfig, ContactKind, ContactPoint, FeatureId, Manifold};
pub use compound::{Compound, CompoundError};
pub use hull::{Hull, HullError};
pub use joint::{JointDesc, JointHandle, JointKind, WORLD};
pub use math::{Aabb, Iso};
pub use shape::{MassProperties, Shape};
pub use solver::{ContinuousMode, Settings, SolverMode};
pub use world::{
    Contact, ContinuousRecord, KinematicPath, NonFinite, Profile, Stage, Stats, SubEvent, ToiEvent, ToiQuery, World,
};
