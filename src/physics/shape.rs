//! Collision shapes and their mass properties.
//!
//! A shape is described in its body's frame. Hull-based shapes (boxes, cylinders, general
//! hulls) share one collision path; spheres and capsules have their own closed forms.
//! Capsules are aligned with the local Y axis. Triangle meshes (`Shape::Mesh`) belong to
//! static bodies only: they have no volume and no mass. A compound (`Shape::Compound`) is
//! several of the convex shapes at their poses in the body's frame ([`Compound`]).
//!
//! Mass properties (Baraff 1997 for the definitions):
//! - hull: exact, by splitting the hull into tetrahedra from an interior point and summing
//!   each tetrahedron's volume, centroid and second moment `∫ x xᵀ dV`
//!   (`det/120 · (aaᵀ + bbᵀ + ccᵀ + (a+b+c)(a+b+c)ᵀ)` for a tetrahedron with one vertex at
//!   the origin), in f64; inertia = tr(C)·I − C about the centre of mass;
//! - box `m/12·(h²+d²)` etc., sphere `2/5·m·r²`, capsule = cylinder + two hemispheres
//!   (with the parallel-axis shift of each hemisphere's centroid, 3r/8 from its flat face).

use crate::physics::compound::Compound;
use crate::physics::hull::Hull;
use crate::physics::math::{Aabb, Iso};
use crate::physics::mesh::TriMesh;
use glam::{DMat3, DVec3, Mat3, Vec3};
use std::f32::consts::PI;
use std::sync::Arc;

/// A collision shape in body space.
#[derive(Clone, Debug)]
pub enum Shape {
    /// Sphere centred at the body origin.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// Capsule along local Y: a segment of half-length `half_height` swept by `radius`.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half the length of the core segment (m).
        half_height: f32,
    },
    /// Box centred at the origin; collides as its hull.
    Box {
        /// Half extents (m).
        half_extents: Vec3,
        /// The box as a hull.
        hull: Arc<Hull>,
    },
    /// General convex hull.
    Hull(Arc<Hull>),
    /// A static triangle mesh (a triangle soup with its bounding volume hierarchy), in the
    /// body's frame. Static bodies only: it has no volume, so no mass.
    Mesh(Arc<TriMesh>),
    /// Several convex shapes at their poses in the body's frame, moving as one body
    /// ([`Compound`]).
    Compound(Arc<Compound>),
}

/// Mass, centre of mass and inertia about the centre of mass (body axes).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MassProperties {
    /// Mass (kg).
    pub mass: f32,
    /// Centre of mass in the shape's frame.
    pub center: Vec3,
    /// Inertia tensor about the centre of mass.
    pub inertia: Mat3,
}

impl Shape {
    /// A box shape.
    pub fn cuboid(half_extents: Vec3) -> Result<Shape, crate::physics::hull::HullError> {
        Ok(Shape::Box { half_extents, hull: Arc::new(Hull::cuboid(half_extents)?) })
    }

    /// The hull behind a box or hull shape.
    pub fn hull(&self) -> Option<&Hull> {
        match self {
            Shape::Box { hull, .. } | Shape::Hull(hull) => Some(hull),
            _ => None,
        }
    }

    /// Volume (m³).
    pub fn volume(&self) -> f32 {
        self.mass_properties(1.0).mass
    }

    /// Mass properties for a uniform density (kg/m³).
    pub fn mass_properties(&self, density: f32) -> MassProperties {
        match self {
            Shape::Sphere { radius: r } => {
                let m = density * 4.0 / 3.0 * PI * r * r * r;
                MassProperties {
                    mass: m,
                    center: Vec3::ZERO,
                    inertia: Mat3::from_diagonal(Vec3::splat(0.4 * m * r * r)),
                }
            }
            Shape::Capsule { radius: r, half_height: hh } => capsule_mass(*r, *hh, density),
            Shape::Box { half_extents: h, .. } => {
                let m = density * 8.0 * h.x * h.y * h.z;
                let s = *h * 2.0;
                let d = Vec3::new(s.y * s.y + s.z * s.z, s.x * s.x + s.z * s.z, s.x * s.x + s.y * s.y) * (m / 12.0);
                MassProperties { mass: m, center: Vec3::ZERO, inertia: Mat3::from_diagonal(d) }
            }
            Shape::Hull(h) => hull_mass(h, density),
            // No volume: a mesh body is static (the loader and `World::add_body` refuse a
            // dynamic one).
            Shape::Mesh(_) => MassProperties { mass: 0.0, center: Vec3::ZERO, inertia: Mat3::ZERO },
            Shape::Compound(c) => c.mass_properties(density),
        }
    }

    /// World AABB at pose `x`.
    pub fn aabb(&self, x: &Iso) -> Aabb {
        match self {
            Shape::Sphere { radius } => Aabb::new(x.pos - Vec3::splat(*radius), x.pos + Vec3::splat(*radius)),
            Shape::Capsule { radius, half_height } => {
                let a = x.transform_vector(Vec3::new(0.0, *half_height, 0.0)).abs() + Vec3::splat(*radius);
                Aabb::new(x.pos - a, x.pos + a)
            }
            Shape::Box { hull, .. } | Shape::Hull(hull) => turned_box(hull.local_aabb(), x),
            Shape::Mesh(mesh) => turned_box(mesh.aabb(), x),
            Shape::Compound(c) => c.aabb(x),
        }
    }

    /// The shape's minimum extent (Box2D's `minExtent`): the radius of a ball inside it —
    /// a sphere's or capsule's radius, a box's smallest half extent, a hull's inscribed
    /// radius about its vertex centroid. Continuous collision sweeps a body that moves
    /// farther than half of this in a step.
    pub fn min_extent(&self) -> f32 {
        match self {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => *radius,
            Shape::Box { half_extents, .. } => half_extents.min_element(),
            Shape::Hull(hull) => hull.inner_radius(),
            // Static: never swept.
            Shape::Mesh(_) => f32::INFINITY,
            Shape::Compound(c) => c.min_extent(),
        }
    }

    /// Bounds in the shape's own frame.
    pub fn local_aabb(&self) -> Aabb {
        match self {
            Shape::Box { hull, .. } | Shape::Hull(hull) => hull.local_aabb(),
            Shape::Mesh(mesh) => mesh.aabb(),
            Shape::Compound(c) => c.local_aabb(),
            _ => self.aabb(&Iso::IDENTITY),
        }
    }

    /// The triangle mesh of a mesh shape.
    pub fn mesh(&self) -> Option<&TriMesh> {
        match self {
            Shape::Mesh(m) => Some(m),
            _ => None,
        }
    }

    /// The compound of a compound shape.
    pub fn compound(&self) -> Option<&Compound> {
        match self {
            Shape::Compound(c) => Some(c),
            _ => None,
        }
    }

    /// The radius swept around the shape's core: a sphere's or a capsule's, zero for a box,
    /// a hull, a mesh or a compound (whose contacts take their child's). A contact point's lever arm ends this far out along the normal from
    /// the core, and that part of it does not turn with the body.
    pub fn rounding(&self) -> f32 {
        match self {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => *radius,
            // A compound's contacts take the rounding of the child they touch
            // (`World::part_rounding`).
            Shape::Box { .. } | Shape::Hull(_) | Shape::Mesh(_) | Shape::Compound(_) => 0.0,
        }
    }

    /// The lever of rolling resistance ([`crate::physics::body::BodyDesc::rolling_resistance`]):
    /// the resisting torque is at most the coefficient times the normal force times the
    /// larger of the two shapes' arms. A ball's or a capsule's radius (the height of its
    /// centre over the contact, the textbook rolling-resistance arm); a box's or a hull's
    /// quarter of its inner radius (Box3D's rule between convex shapes: a polyhedron rolls
    /// over its edges, and these arms keep a round-ish hull from being held as firmly as a
    /// ball); a mesh's 0, and against a mesh see [`Shape::rolling_arm_on_mesh`]. NaN for a
    /// compound: its contacts take their child's (`World::prepare_rolling`).
    pub fn rolling_arm(&self) -> f32 {
        match self {
            Shape::Sphere { radius } | Shape::Capsule { radius, .. } => *radius,
            Shape::Box { hull, .. } | Shape::Hull(hull) => 0.25 * hull.inner_radius(),
            Shape::Mesh(_) => 0.0,
            Shape::Compound(_) => f32::NAN,
        }
    }

    /// The rolling arm of this convex shape on a triangle mesh: as [`Shape::rolling_arm`],
    /// but a box or a hull takes its whole inner radius (Box3D's mesh contacts do).
    pub fn rolling_arm_on_mesh(&self) -> f32 {
        match self {
            Shape::Box { hull, .. } | Shape::Hull(hull) => hull.inner_radius(),
            s => s.rolling_arm(),
        }
    }

    /// How fast any point of the shape moves when it turns at `w` (an angular velocity, or
    /// a turn vector, in the shape's own axes), at most: `|w × p|` bounded over the box of
    /// half extents e about its origin, `|(w × p)ₓ| ≤ |w_y|·e_z + |w_z|·e_y` and so on
    /// (Box3D's `velocityArc`). A log turning about its length moves its surface at its
    /// thickness times |w|, where the bounding radius would say its length.
    pub fn turn_reach(&self, w: Vec3) -> f32 {
        let bb = match self {
            Shape::Compound(c) => c.local_aabb(),
            s => s.aabb(&Iso::IDENTITY),
        };
        let (e, u) = (bb.min.abs().max(bb.max.abs()), w.abs());
        Vec3::new(u.y * e.z + u.z * e.y, u.z * e.x + u.x * e.z, u.x * e.y + u.y * e.x).length()
    }

    /// Whether the shape is made of parts the narrow phase tests one by one: a compound's
    /// children, a mesh's triangles.
    pub fn is_composite(&self) -> bool {
        matches!(self, Shape::Compound(_) | Shape::Mesh(_))
    }

    /// A radius bounding the shape about its origin.
    pub fn bounding_radius(&self) -> f32 {
        match self {
            Shape::Sphere { radius } => *radius,
            Shape::Capsule { radius, half_height } => radius + half_height,
            Shape::Box { hull, .. } | Shape::Hull(hull) => hull.radius(),
            Shape::Mesh(mesh) => {
                let b = mesh.aabb();
                b.min.abs().max(b.max.abs()).length()
            }
            Shape::Compound(c) => c.radius(),
        }
    }
}

/// The world box of a box `local` in a shape's frame, the shape at pose `x`: one rotation
/// matrix for the centre and the extent, in SIMD lanes (a box's centre is the origin: its box
/// is centred on the body's position). |R|·half by columns: component i is
/// (|Ri0|·hx + |Ri1|·hy) + |Ri2|·hz, row i's dot product in the same order.
#[inline(always)]
fn turned_box(local: Aabb, x: &Iso) -> Aabb {
    let half = 0.5 * (local.max - local.min);
    let m = glam::Mat3A::from_quat(x.rot);
    let c = Vec3::from(m * glam::Vec3A::from(local.center())) + x.pos;
    let e = Vec3::from(m.x_axis.abs() * half.x + m.y_axis.abs() * half.y + m.z_axis.abs() * half.z);
    Aabb::new(c - e, c + e)
}

fn capsule_mass(r: f32, hh: f32, density: f32) -> MassProperties {
    let h = 2.0 * hh;
    let mc = density * PI * r * r * h;
    let ms = density * 4.0 / 3.0 * PI * r * r * r; // both hemispheres together
    let iy = mc * r * r / 2.0 + ms * 0.4 * r * r;
    // Each hemisphere (mass ms/2): about its own centroid 83/320·m·r² across the axis, its
    // centroid 3r/8 beyond the cylinder's end, i.e. hh + 3r/8 from the centre.
    let hemi = ms / 2.0;
    let d = hh + 3.0 * r / 8.0;
    let ix = mc * (h * h / 12.0 + r * r / 4.0) + 2.0 * (hemi * 83.0 / 320.0 * r * r + hemi * d * d);
    MassProperties { mass: mc + ms, center: Vec3::ZERO, inertia: Mat3::from_diagonal(Vec3::new(ix, iy, ix)) }
}

/// Exact mass properties of a hull by tetrahedral decomposition (see module docs).
pub fn hull_mass(h: &Hull, density: f32) -> MassProperties {
    let origin = h.centroid().as_dvec3();
    let mut vol = 0.0f64;
    let mut first = DVec3::ZERO;
    let mut second = DMat3::ZERO;
    for f in 0..h.faces().len() {
        let vs: Vec<DVec3> = h.face_vertices(f).map(|v| h.vertices()[v as usize].as_dvec3() - origin).collect();
        for i in 1..vs.len() - 1 {
            let (a, b, c) = (vs[0], vs[i], vs[i + 1]);
            let det = a.dot(b.cross(c));
            vol += det / 6.0;
            first += det / 24.0 * (a + b + c);
            let s = a + b + c;
            let outer = |u: DVec3| DMat3::from_cols(u * u.x, u * u.y, u * u.z);
            second += (outer(a) + outer(b) + outer(c) + outer(s)) * (det / 120.0);
        }
    }
    let rho = density as f64;
    let mass = rho * vol;
    let com = first / vol;
    // Second moment about the centre of mass (parallel axis on the covariance).
    let c = second * rho - DMat3::from_cols(com * com.x, com * com.y, com * com.z) * mass;
    let tr = c.x_axis.x + c.y_axis.y + c.z_axis.z;
    let inertia = DMat3::from_diagonal(DVec3::splat(tr)) - c;
    MassProperties { mass: mass as f32, center: (com + origin).as_vec3(), inertia: inertia.as_mat3() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: Mat3, b: Mat3, tol: f32) -> bool {
        (0..3).all(|i| (a.col(i) - b.col(i)).abs().max_element() <= tol)
    }

    #[test]
    fn hull_box_matches_closed_form() {
        let h = Vec3::new(0.5, 1.0, 1.5);
        let closed = Shape::cuboid(h).unwrap().mass_properties(700.0);
        let hull = Hull::cuboid(h).unwrap().translated(Vec3::new(3.0, -2.0, 1.0));
        let exact = hull_mass(&hull, 700.0);
        assert!((exact.mass - 700.0 * 8.0 * 0.5 * 1.0 * 1.5).abs() < 1e-2);
        assert!((exact.mass - closed.mass).abs() < 1e-3 * closed.mass);
        assert!((exact.center - Vec3::new(3.0, -2.0, 1.0)).length() < 1e-5);
        assert!(close(exact.inertia, closed.inertia, 1e-3 * closed.inertia.col(0).x));
    }

    #[test]
    fn tetrahedron_volume_is_exact() {
        // Corner tetrahedron of the unit cube: volume 1/6, centroid (1/4, 1/4, 1/4).
        let h = Hull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y, Vec3::Z]).unwrap();
        let m = hull_mass(&h, 1.0);
        assert!((m.mass - 1.0 / 6.0).abs() < 1e-6);
        assert!((m.center - Vec3::splat(0.25)).length() < 1e-6);
        // About the centroid: ∫x² = m·3/80, ∫xy = −m/80 (from ∫x² = 1/60, ∫xy = 1/120).
        assert!((m.inertia.x_axis.x - m.inertia.y_axis.y).abs() < 1e-7);
        // Products of inertia: Ixy = +m/80 about the centroid (−∫xy + m·x̄ȳ).
        assert!((m.inertia.y_axis.x - m.mass / 80.0).abs() < 1e-6, "{}", m.inertia.y_axis.x);
        // Ixx = m·(y²+z²) about centroid = m·2·(1/10 − 1/16) = m·3/40.
        assert!((m.inertia.x_axis.x - m.mass * 3.0 / 40.0).abs() < 1e-6);
    }

    #[test]
    fn capsule_mass_limits() {
        // Zero-length capsule is a sphere.
        let c = capsule_mass(0.5, 0.0, 1000.0);
        let s = Shape::Sphere { radius: 0.5 }.mass_properties(1000.0);
        assert!((c.mass - s.mass).abs() < 1e-3);
        assert!(close(c.inertia, s.inertia, 1e-4));
        let c = capsule_mass(0.2, 1.0, 1000.0);
        let expected = 1000.0 * (PI * 0.04 * 2.0 + 4.0 / 3.0 * PI * 0.008);
        assert!((c.mass - expected).abs() < 1e-3);
    }

    #[test]
    fn geodesic_hull_approaches_sphere() {
        let h = Hull::geodesic_sphere(1.0, 3).unwrap();
        let m = hull_mass(&h, 1.0);
        let v = 4.0 / 3.0 * PI;
        assert!((m.mass - v).abs() / v < 0.02);
        assert!((m.inertia.x_axis.x - 0.4 * m.mass).abs() / (0.4 * m.mass) < 0.03);
    }
}
