//! Compound shapes: one rigid body made of several convex shapes, each at its own pose in
//! the body's frame (a table of a top and four legs, a dumbbell, Box3D's washer drum of
//! 40 hulls). Every engine the testbed is compared with has them (Box3D's several shapes
//! on one body, rapier3d's compound collider, Jolt's compound shapes).
//!
//! # Mass
//! The children share the body's density. The compound's mass is the sum of theirs, its
//! centre of mass their mass-weighted mean, and its inertia the sum of each child's,
//! turned into the body's axes (`R·I·Rᵀ`) and moved to the common centre by the parallel
//! axis theorem (`I + m·(|d|²·1 − d·dᵀ)`, Baraff 1997). The world moves the children so
//! that the centre of mass is the body's origin, as it does a hull's vertices.
//!
//! # Contacts
//! A pair with a compound body collides child by child: every child pair whose boxes come
//! within the margin is sent through the ordinary narrow phase
//! ([`crate::physics::collide::compound`]), and each child pair that touches gives its own
//! manifold, tagged with the child pair ([`crate::physics::collide::Manifold::part`]) so
//! that the next step carries each one's impulses over to the same child pair. The world
//! keeps them as it keeps a mesh pair's normal groups: the deepest in the pair's contact,
//! the others beside it.
//!
//! Limits: children may be spheres, capsules, boxes and hulls — not meshes, and not other
//! compounds — and at most [`MAX_CHILDREN`]. Where children overlap, their common volume
//! counts twice in the mass (Box3D and rapier3d do the same). A child pair that touches
//! keeps its SAT cache to the next step; one found apart does not, so its next computation
//! is a full one; a pair whose children are all far apart is skipped by a lower bound on
//! its gap, as any pair still apart is. Where two children meet flat, a face that lies
//! wholly within the other child's is inside the body ([`Child::covered`]), and contacts on
//! it are dropped; a face only partly covered (a short slab against a long one, along the
//! long one's face) keeps them, so a body crossing that seam can still be braked by it.

use crate::physics::hull::Hull;
use crate::physics::math::{Aabb, Iso};
use crate::physics::shape::{MassProperties, Shape};
use glam::{Mat3, Vec3};
use std::fmt;

/// Most children of one compound: a pair of two compounds tags its child pairs with one
/// 16-bit number (`child_a · count_b + child_b`).
pub const MAX_CHILDREN: usize = 255;

/// One convex shape of a compound, at its pose in the body's frame.
#[derive(Clone, Debug)]
pub struct Child {
    /// Pose of the child's own frame in the body's frame.
    pub pose: Iso,
    /// The shape, in its own frame.
    pub shape: Shape,
    /// Its bounds in the body's frame.
    aabb: Aabb,
    /// The outward normals, in the body's frame, of its faces that lie flat against a face
    /// of another child and wholly within it: faces inside the body ([`covered_faces`]).
    covered: Vec<Vec3>,
}

impl Child {
    /// The child's bounds in the body's frame.
    pub fn local_aabb(&self) -> Aabb {
        self.aabb
    }

    /// Whether `normal` (a unit vector in the body's frame) is the outward normal of one of
    /// the child's faces inside the body, within 10⁻³ rad (found when the compound is made).
    pub fn covered(&self, normal: Vec3) -> bool {
        self.covered.iter().any(|n| n.dot(normal) > COVERED_COS)
    }

    /// Whether the child has a face inside the body.
    pub fn has_covered(&self) -> bool {
        !self.covered.is_empty()
    }
}

/// Cosine of the largest angle between a contact normal and a covered face's normal for the
/// contact to be on that face (10⁻³ rad).
const COVERED_COS: f32 = 0.999_999_5;

/// Several convex shapes moving as one body ([module docs](self)).
#[derive(Clone, Debug)]
pub struct Compound {
    children: Vec<Child>,
    /// The union of the children's bounds (body frame).
    aabb: Aabb,
    /// Largest distance of a child's point from the body's origin.
    radius: f32,
    /// The smallest child's inner size ([`Shape::min_extent`]).
    min_extent: f32,
    /// Whether a child is a sphere or a capsule (its contacts carry a rounding).
    rounded: bool,
}

/// Why a compound was refused.
#[derive(Clone, Debug, PartialEq)]
pub enum CompoundError {
    /// No children.
    Empty,
    /// More than [`MAX_CHILDREN`].
    TooMany(usize),
    /// A child is a mesh or another compound (its index).
    NotConvex(usize),
    /// A child's pose has a non-finite number or a rotation that is not a unit quaternion
    /// (its index).
    BadPose(usize),
}

impl fmt::Display for CompoundError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompoundError::Empty => write!(f, "a compound needs at least one child shape"),
            CompoundError::TooMany(n) => {
                write!(f, "a compound has at most {MAX_CHILDREN} children, this one has {n}")
            }
            CompoundError::NotConvex(i) => write!(
                f,
                "child {i} of the compound is a mesh or a compound; children must be spheres, capsules, boxes or hulls"
            ),
            CompoundError::BadPose(i) => write!(
                f,
                "child {i} of the compound has a pose with a non-finite number or a rotation that is not a unit quaternion"
            ),
        }
    }
}

impl std::error::Error for CompoundError {}

impl Compound {
    /// A compound of `children`, each a convex shape at its pose in the body's frame.
    pub fn new(children: Vec<(Iso, Shape)>) -> Result<Compound, CompoundError> {
        if children.is_empty() {
            return Err(CompoundError::Empty);
        }
        if children.len() > MAX_CHILDREN {
            return Err(CompoundError::TooMany(children.len()));
        }
        for (i, (pose, shape)) in children.iter().enumerate() {
            if matches!(shape, Shape::Mesh(_) | Shape::Compound(_)) {
                return Err(CompoundError::NotConvex(i));
            }
            let unit = (pose.rot.length() - 1.0).abs() < 1e-4;
            if !pose.pos.is_finite() || !pose.rot.is_finite() || !unit {
                return Err(CompoundError::BadPose(i));
            }
        }
        let mut children = children
            .into_iter()
            .map(|(pose, shape)| Child {
                aabb: shape.aabb(&pose),
                pose: Iso::new(pose.pos, pose.rot.normalize()),
                shape,
                covered: Vec::new(),
            })
            .collect::<Vec<_>>();
        for i in 0..children.len() {
            children[i].covered = covered_faces(&children, i);
        }
        let aabb = children.iter().skip(1).fold(children[0].aabb, |b, c| b.union(&c.aabb));
        let radius = children.iter().map(|c| c.pose.pos.length() + c.shape.bounding_radius()).fold(0.0, f32::max);
        let min_extent = children.iter().map(|c| c.shape.min_extent()).fold(f32::INFINITY, f32::min);
        let rounded = children.iter().any(|c| c.shape.rounding() > 0.0);
        Ok(Compound { children, aabb, radius, min_extent, rounded })
    }

    /// The children, in the order given.
    pub fn children(&self) -> &[Child] {
        &self.children
    }

    /// Bounds in the body's frame.
    pub fn local_aabb(&self) -> Aabb {
        self.aabb
    }

    /// Largest distance of a point of the compound from the body's origin.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The smallest child's inner size.
    pub fn min_extent(&self) -> f32 {
        self.min_extent
    }

    /// Whether a child is a sphere or a capsule.
    pub fn rounded(&self) -> bool {
        self.rounded
    }

    /// World bounds at pose `x`: the union of the children's.
    pub fn aabb(&self, x: &Iso) -> Aabb {
        let first = self.children[0].shape.aabb(&x.mul(&self.children[0].pose));
        self.children.iter().skip(1).fold(first, |b, c| b.union(&c.shape.aabb(&x.mul(&c.pose))))
    }

    /// Mass properties for a uniform density ([module docs](self)), about the compound's
    /// centre of mass, in the body's axes.
    pub fn mass_properties(&self, density: f32) -> MassProperties {
        let parts: Vec<(MassProperties, Iso)> =
            self.children.iter().map(|c| (c.shape.mass_properties(density), c.pose)).collect();
        let mass: f32 = parts.iter().map(|(m, _)| m.mass).sum();
        let center = parts.iter().map(|(m, x)| x.transform_point(m.center) * m.mass).sum::<Vec3>() / mass;
        let mut inertia = Mat3::ZERO;
        for (m, x) in &parts {
            let r = Mat3::from_quat(x.rot);
            let d = x.transform_point(m.center) - center;
            let shift = Mat3::from_diagonal(Vec3::splat(d.length_squared())) - outer(d, d);
            inertia += r * m.inertia * r.transpose() + shift * m.mass;
        }
        MassProperties { mass, center, inertia }
    }

    /// The compound with every child moved by `offset` (the world moves its children so that
    /// the centre of mass is the body's origin).
    pub fn translated(&self, offset: Vec3) -> Compound {
        let children = self.children.iter().map(|c| (Iso::new(c.pose.pos + offset, c.pose.rot), c.shape.clone()));
        Compound::new(children.collect()).expect("moving a valid compound keeps it valid")
    }
}

/// The outward normals (body frame) of child `i`'s faces that lie flat against a face of
/// another child, facing it, and wholly within it: two slabs of one floor side by side, or
/// a table's leg under its top. Such a face is inside the body, and nothing outside can
/// touch it; a body sliding across the seam can still meet it edge-on, in a speculative
/// contact or one the depth of the slop, whose normal is the face's, and the narrow phase
/// drops those (`collide/compound.rs`). Face planes count as one within 10⁻⁵ of the two
/// children's size (a body built from rounded numbers), and every corner of the face must
/// lie within the other child by as much. Boxes and hulls only: a ball's or a capsule's
/// surface is curved.
fn covered_faces(children: &[Child], i: usize) -> Vec<Vec3> {
    let Some(hi) = children[i].shape.hull() else { return Vec::new() };
    let xi = children[i].pose;
    let mut out = Vec::new();
    for (f, (n, offset)) in planes(hi, xi).enumerate() {
        let covered = children.iter().enumerate().any(|(j, other)| {
            let Some(hj) = other.shape.hull().filter(|_| j != i) else { return false };
            let tol = 1e-5 * (children[i].shape.bounding_radius() + other.shape.bounding_radius()).max(1.0);
            let facing = planes(hj, other.pose).any(|(m, o)| m.dot(n) < -COVERED_COS && (o + offset).abs() < tol);
            facing
                && hi.face_vertices(f).all(|v| {
                    let p = xi.transform_point(hi.vertices()[v as usize]);
                    planes(hj, other.pose).all(|(m, o)| m.dot(p) - o <= tol)
                })
        });
        if covered {
            out.push(n);
        }
    }
    out
}

/// A hull's face planes `m·x = o` in the frame where its own frame is at `x`.
fn planes(hull: &Hull, x: Iso) -> impl Iterator<Item = (Vec3, f32)> + '_ {
    hull.faces().iter().map(move |g| {
        let m = x.rot * g.normal;
        (m, g.offset + m.dot(x.pos))
    })
}

/// `a·bᵀ`.
fn outer(a: Vec3, b: Vec3) -> Mat3 {
    Mat3::from_cols(a * b.x, a * b.y, a * b.z)
}

/// The child count of `shape` for tagging child pairs: a compound's children, 1 otherwise.
pub fn child_count(shape: &Shape) -> usize {
    match shape {
        Shape::Compound(c) => c.children.len(),
        _ => 1,
    }
}

/// Child `i` of `shape` and its pose in the body's frame; a shape that is not a compound
/// is its own only child, at the identity.
pub fn child(shape: &Shape, i: usize) -> (&Shape, Iso) {
    match shape {
        Shape::Compound(c) => (&c.children[i].shape, c.children[i].pose),
        s => (s, Iso::IDENTITY),
    }
}

/// The child pair a manifold's `part` tag names, for a pair of shapes A and `b`:
/// `(child of A, child of b)`.
pub fn part_children(b: &Shape, part: u16) -> (usize, usize) {
    let nb = child_count(b);
    (part as usize / nb, part as usize % nb)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Quat;

    fn close(a: Mat3, b: Mat3, tol: f32) -> bool {
        (0..3).all(|i| (a.col(i) - b.col(i)).abs().max_element() <= tol)
    }

    /// Two unit cubes side by side are a 2×1×1 box: the same mass, centre and inertia in
    /// closed form (`m/12·(b² + c²)` about each axis).
    #[test]
    fn two_cubes_are_one_box() {
        let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        let c = Compound::new(vec![
            (Iso::new(Vec3::new(1.5, 2.0, 0.0), Quat::IDENTITY), cube.clone()),
            (Iso::new(Vec3::new(2.5, 2.0, 0.0), Quat::from_rotation_y(std::f32::consts::FRAC_PI_2)), cube),
        ])
        .unwrap();
        let m = c.mass_properties(1000.0);
        let bar = Shape::cuboid(Vec3::new(1.0, 0.5, 0.5)).unwrap().mass_properties(1000.0);
        assert!((m.mass - 2000.0).abs() < 1e-2);
        assert!((m.center - Vec3::new(2.0, 2.0, 0.0)).length() < 1e-5);
        assert!(close(m.inertia, bar.inertia, 1e-3 * bar.inertia.col(0).x), "{:?} vs {:?}", m.inertia, bar.inertia);
        assert!((c.radius() - (2.5f32.hypot(2.0) + 0.75f32.sqrt())).abs() < 1e-5);
        assert_eq!(c.local_aabb(), Aabb::new(Vec3::new(1.0, 1.5, -0.5), Vec3::new(3.0, 2.5, 0.5)));
    }

    /// A dumbbell (two balls on a rod) off its axes: the inertia about the rod is the balls'
    /// own, across it the parallel-axis terms add `2·m·d²`.
    #[test]
    fn dumbbell_inertia_by_parallel_axes() {
        let (r, d) = (0.3f32, 1.0f32);
        let ball = Shape::Sphere { radius: r };
        let c = Compound::new(vec![
            (Iso::new(Vec3::new(-d, 0.0, 0.0), Quat::IDENTITY), ball.clone()),
            (Iso::new(Vec3::new(d, 0.0, 0.0), Quat::IDENTITY), ball),
        ])
        .unwrap();
        let m = c.mass_properties(500.0);
        let mb = 500.0 * 4.0 / 3.0 * std::f32::consts::PI * r * r * r;
        let own = 0.4 * mb * r * r;
        assert!((m.inertia.x_axis.x - 2.0 * own).abs() < 1e-4 * own);
        assert!((m.inertia.y_axis.y - (2.0 * own + 2.0 * mb * d * d)).abs() < 1e-4 * m.inertia.y_axis.y);
        assert!(c.rounded());
        assert_eq!(c.min_extent(), r);
    }

    #[test]
    fn refuses_what_it_cannot_hold() {
        let cube = Shape::cuboid(Vec3::splat(0.5)).unwrap();
        assert_eq!(Compound::new(vec![]).unwrap_err(), CompoundError::Empty);
        let inner = Shape::Compound(std::sync::Arc::new(Compound::new(vec![(Iso::IDENTITY, cube.clone())]).unwrap()));
        assert_eq!(
            Compound::new(vec![(Iso::IDENTITY, cube.clone()), (Iso::IDENTITY, inner)]).unwrap_err(),
            CompoundError::NotConvex(1)
        );
        let bad = Iso::new(Vec3::new(f32::NAN, 0.0, 0.0), Quat::IDENTITY);
        assert_eq!(Compound::new(vec![(bad, cube.clone())]).unwrap_err(), CompoundError::BadPose(0));
        let many = vec![(Iso::IDENTITY, cube); MAX_CHILDREN + 1];
        assert_eq!(Compound::new(many).unwrap_err(), CompoundError::TooMany(MAX_CHILDREN + 1));
    }
}
