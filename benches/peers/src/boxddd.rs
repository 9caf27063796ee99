//! The upstream Box3D — Erin Catto's C library, vendored and built by the `boxddd` crate
//! (`boxddd-sys` compiles it with the C compiler) — mirrored from a contactlab world like
//! the other peers: same shapes (a compound as several shapes on one body), poses,
//! densities, materials, gravity and time step, sleeping off, 4 substeps, contact stiffness
//! 30 Hz (Box3D's default), ball joints as spherical joints. `workers` > 1 lets Box3D start its own worker threads and run its
//! built-in scheduler (`b3WorldDef::workerCount` without task callbacks, as Box3D's own
//! benchmark does).
//!
//! SIMD: Box3D's solver is 4 lanes wide; on x86-64 it is built with SSE2 (the boxddd
//! build passes no `-m` flags and Box3D has no AVX2 path), so the rows compare it with
//! contactlab built for the same baseline target (`x86-64`, SSE2).

use crate::{ball_joints, Engine, DT, SUBSTEPS};
use boxddd::prelude::*;
use contactlab::physics::{Body, BodyDesc, BodyKind, Iso, Shape, World as ClWorld};

fn v(p: glam::Vec3) -> boxddd::Vec3 {
    boxddd::Vec3 { x: p.x, y: p.y, z: p.z }
}

fn q(r: glam::Quat) -> boxddd::Quat {
    boxddd::Quat { v: v(glam::Vec3::new(r.x, r.y, r.z)), s: r.w }
}

/// Upstream Box3D's world, mirrored from a contactlab world.
pub struct Box3dUpstream {
    world: boxddd::World,
    ids: Vec<boxddd::BodyId>,
    name: &'static str,
}

impl Box3dUpstream {
    /// Mirror `src` body by body, stepping on `workers` threads (1: the caller's only).
    /// Triangle-mesh bodies are mirrored as Box3D meshes.
    pub fn mirror(src: &ClWorld, workers: u32) -> boxddd::Result<Self> {
        let foundation = match Foundation::get() {
            Ok(f) => f,
            Err(_) => Foundation::initialize_default()?,
        };
        let mut world = foundation.create_world(
            foundation.world_def_builder().gravity(v(src.gravity)).enable_sleep(false).worker_count(workers).build()?,
        )?;
        let mut ids = Vec::new();
        for b in src.bodies() {
            ids.push(Self::add_to(foundation, &mut world, b)?);
        }
        for (a, b, la, lb) in ball_joints(src) {
            let frame = |p: glam::Vec3| boxddd::Transform { p: v(p), q: boxddd::Quat::IDENTITY };
            let def = boxddd::SphericalJointDef::new(ids[a], ids[b])
                .local_frame_a(frame(la))
                .local_frame_b(frame(lb))
                .collide_connected(false);
            world.create_spherical_joint(def)?;
        }
        let name = if workers > 1 { "box3d (C) mt" } else { "box3d (C)" };
        Ok(Self { world, ids, name })
    }

    /// One body of a contactlab world, created in `world`.
    fn add_to(foundation: &Foundation, world: &mut boxddd::World, b: &Body) -> boxddd::Result<boxddd::BodyId> {
        let def = foundation
            .body_def_builder()
            .body_type(match b.kind {
                BodyKind::Dynamic => BodyType::Dynamic,
                BodyKind::Static => BodyType::Static,
                BodyKind::Kinematic => BodyType::Kinematic,
            })
            .position([b.pose.pos.x, b.pose.pos.y, b.pose.pos.z])
            .rotation(q(b.pose.rot))
            .linear_velocity(v(b.velocity))
            .angular_velocity(v(b.angular_velocity))
            .enable_sleep(false)
            .bullet(b.bullet)
            .build()?;
        let id = world.create_body(def)?;
        let density = if b.is_dynamic() { b.mass() / b.shape.volume() } else { 1000.0 };
        let material = boxddd::SurfaceMaterial {
            friction: b.friction,
            restitution: b.restitution,
            rolling_resistance: b.rolling_resistance,
            ..Default::default()
        };
        let sd = foundation.shape_def_builder().density(density).surface_material(material).build()?;
        // A compound's children are shapes of the one body, each moved into the body's frame.
        for (shape, x) in crate::parts(&b.shape) {
            let moved = x != Iso::IDENTITY;
            match shape {
                Shape::Sphere { radius } => {
                    world.create_sphere_shape(id, &sd, &boxddd::Sphere::new(v(x.pos), *radius))?;
                }
                Shape::Capsule { radius, half_height } => {
                    let c1 = v(x.transform_point(glam::Vec3::Y * -*half_height));
                    let c2 = v(x.transform_point(glam::Vec3::Y * *half_height));
                    world.create_capsule_shape(id, &sd, &boxddd::Capsule::new(c1, c2, *radius))?;
                }
                Shape::Box { half_extents: e, .. } if moved => {
                    let t = boxddd::Transform { p: v(x.pos), q: q(x.rot) };
                    world.create_hull_shape(id, &sd, &boxddd::BoxHull::transformed(e.x, e.y, e.z, t)?)?;
                }
                Shape::Box { half_extents: e, .. } => {
                    world.create_hull_shape(id, &sd, &boxddd::BoxHull::new(e.x, e.y, e.z)?)?;
                }
                Shape::Hull(h) => {
                    let at = |p: glam::Vec3| if moved { x.transform_point(p) } else { p };
                    let pts: Vec<boxddd::Vec3> = h.vertices().iter().map(|p| v(at(*p))).collect();
                    let hull = boxddd::Hull::from_points(&pts, pts.len().max(4) as i32)?;
                    world.create_created_hull_shape(id, &sd, &hull)?;
                }
                Shape::Mesh(m) => {
                    let verts: Vec<boxddd::Vec3> = m.vertices().iter().map(|p| v(*p)).collect();
                    let idx: Vec<i32> = m.triangles().iter().flat_map(|t| t.map(|i| i as i32)).collect();
                    let mesh = boxddd::MeshDataBuilder::new(verts, idx).identify_edges(true).build()?;
                    world.create_mesh_shape(id, &sd, mesh, [1.0, 1.0, 1.0])?;
                }
                Shape::Compound(_) => unreachable!("a compound's children are not compounds"),
            }
        }
        Ok(id)
    }
}

impl Engine for Box3dUpstream {
    fn name(&self) -> &'static str {
        self.name
    }
    fn step(&mut self) {
        self.world.step(DT, SUBSTEPS as i32).expect("box3d step");
    }
    fn add(&mut self, _: &BodyDesc, body: &Body) {
        let foundation = Foundation::get().expect("the foundation the world was made with");
        let id = Self::add_to(foundation, &mut self.world, body).expect("box3d body");
        self.ids.push(id);
    }
    fn drive(&mut self, body: usize, velocity: glam::Vec3) {
        self.world.set_body_linear_velocity(self.ids[body], v(velocity)).expect("a kinematic body's velocity");
    }
    /// Box3D's `b3Profile` of the last step: its solver's stages (which run inside `solve`)
    /// and the stages around them, in the order the step runs them.
    fn stage_ms(&self) -> Option<Vec<(&'static str, f32)>> {
        let p = self.world.profile().ok()?;
        Some(vec![
            ("step (all)", p.step),
            ("update pairs", p.pairs),
            ("collide", p.collide),
            ("solve (all below)", p.solve),
            ("  solver setup", p.solver_setup),
            ("  prepare constraints", p.prepare_constraints),
            ("  integrate velocities", p.integrate_velocities),
            ("  warm start", p.warm_start),
            ("  solve impulses", p.solve_impulses),
            ("  integrate positions", p.integrate_positions),
            ("  relax impulses", p.relax_impulses),
            ("  restitution", p.apply_restitution),
            ("  store impulses", p.store_impulses),
            ("  split islands", p.split_islands),
            ("  transforms", p.transforms),
            ("  refit", p.refit),
            ("  bullets", p.bullets),
            ("  sleep islands", p.sleep_islands),
        ])
    }
    fn poses(&self) -> Vec<Iso> {
        self.ids
            .iter()
            .map(|id| {
                let t = self.world.body_transform(*id).expect("box3d body");
                Iso::new(glam::Vec3::new(t.p.x, t.p.y, t.p.z), glam::Quat::from_xyzw(t.q.v.x, t.q.v.y, t.q.v.z, t.q.s))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::{assert_inertia, compound_world, expected};

    #[test]
    fn upstream_box3d_mirrors_a_compound_with_its_mass() {
        let w = compound_world();
        let (mass, inertia) = expected(&w.bodies()[1]);
        let e = Box3dUpstream::mirror(&w, 1).expect("the upstream Box3D");
        let id = e.ids[1];
        let got = e.world.body_mass(id).unwrap();
        assert!((got - mass).abs() <= 1e-4 * mass, "box3d (C) mass {got} vs {mass}");
        let c = e.world.body_local_center_of_mass(id).unwrap();
        assert!(glam::Vec3::new(c.x, c.y, c.z).length() < 1e-4, "box3d (C) local centre {c:?}");
        let i = e.world.body_local_rotational_inertia(id).unwrap();
        let col = |v: boxddd::Vec3| glam::Vec3::new(v.x, v.y, v.z);
        assert_inertia(glam::Mat3::from_cols(col(i.cx), col(i.cy), col(i.cz)), inertia, 1e-3, "box3d (C)");
    }
}
