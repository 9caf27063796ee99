//! The mirrors' own checks: a compound body gets contactlab's mass, centre of mass and
//! inertia in every peer (`parts`), and the washer's drum is built as Box3D builds it.

use super::*;
use contactlab::physics::{Compound, Hull};
use glam::Mat3;
use std::sync::Arc;

/// A world of one dynamic compound body off the origin and turned (a turned box, a hull
/// off its own origin, a sphere and a turned capsule, its centre of mass away from the
/// given origin), on a static slab.
pub(crate) fn compound_world() -> World {
    let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), contactlab_settings());
    let ground = Shape::cuboid(Vec3::new(10.0, 1.0, 10.0)).unwrap();
    w.add_body(BodyDesc::new("ground", ground, Vec3::new(0.0, -1.0, 0.0)).fixed()).unwrap();
    let tilt = Quat::from_axis_angle(Vec3::new(1.0, 2.0, 0.5).normalize(), 0.7);
    let wedge = [
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(1.0, 0.0, 0.0),
        Vec3::new(0.0, 0.6, 0.0),
        Vec3::new(0.0, 0.0, 0.8),
        Vec3::new(0.7, 0.5, 0.6),
    ]
    .map(|p| p + Vec3::new(0.4, 0.1, -0.2));
    let children = vec![
        (Iso::new(Vec3::new(0.5, 0.2, 0.0), tilt), Shape::cuboid(Vec3::new(0.6, 0.3, 0.2)).unwrap()),
        (
            Iso::new(Vec3::new(-0.8, 0.4, 0.3), Quat::IDENTITY),
            Shape::Hull(Arc::new(Hull::from_points(&wedge).unwrap())),
        ),
        (Iso::new(Vec3::new(0.1, -0.6, 0.7), Quat::IDENTITY), Shape::Sphere { radius: 0.35 }),
        (Iso::new(Vec3::new(0.9, 0.5, -0.6), tilt.inverse()), Shape::Capsule { radius: 0.2, half_height: 0.5 }),
    ];
    let shape = Shape::Compound(Arc::new(Compound::new(children).unwrap()));
    let mut desc = BodyDesc::new("compound", shape, Vec3::new(1.0, 3.0, -2.0))
        .with_rotation(Quat::from_rotation_y(0.4))
        .with_material(0.3, 0.1);
    desc.density = 700.0;
    w.add_body(desc).unwrap();
    w
}

/// contactlab's mass and inertia (about the centre of mass, body axes) of body `b`.
pub(crate) fn expected(b: &Body) -> (f32, Mat3) {
    let density = b.mass() / b.shape.volume();
    let mp = b.shape.mass_properties(density);
    assert!(mp.center.length() < 1e-5, "the world put the body's origin at its centre of mass");
    (mp.mass, mp.inertia)
}

/// `a` and `b` agree to `rel` of `b`'s largest entry.
pub(crate) fn assert_inertia(a: Mat3, b: Mat3, rel: f32, engine: &str) {
    let scale = b.to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
    let gap = (a - b).to_cols_array().iter().fold(0.0f32, |m, x| m.max(x.abs()));
    assert!(gap <= rel * scale, "{engine}: inertia {a:?}, contactlab's {b:?}");
}

#[test]
fn rapier_mirrors_a_compound_with_its_mass() {
    let w = compound_world();
    let b = &w.bodies()[1];
    let (mass, inertia) = expected(b);
    let r = Rapier::mirror(&w);
    let rb = &r.world.bodies[r.handles[1]];
    assert_eq!(r.world.colliders.len(), 1 + 4, "one collider a child");
    assert!((rb.mass() - mass).abs() <= 1e-4 * mass, "rapier3d mass {} vs {mass}", rb.mass());
    let c = rb.center_of_mass();
    assert!((Vec3::new(c.x, c.y, c.z) - b.pose.pos).length() < 1e-4, "rapier3d centre {c:?} vs {:?}", b.pose.pos);
    let m = rb.mass_properties().local_mprops.reconstruct_inertia_matrix().to_cols_array();
    assert_inertia(Mat3::from_cols_array(&m), inertia, 1e-3, "rapier3d");
}

#[test]
fn box3d_rust_mirrors_a_compound_with_its_mass() {
    use box3d_rust::body::{body_get_local_center, body_get_local_rotational_inertia, body_get_mass};
    let w = compound_world();
    let (mass, inertia) = expected(&w.bodies()[1]);
    let e = Box3d::mirror(&w);
    let got = body_get_mass(&e.world, e.ids[1]);
    assert!((got - mass).abs() <= 1e-4 * mass, "box3d-rust mass {got} vs {mass}");
    let c = body_get_local_center(&e.world, e.ids[1]);
    assert!(Vec3::new(c.x, c.y, c.z).length() < 1e-4, "box3d-rust local centre {c:?}");
    let i = body_get_local_rotational_inertia(&e.world, e.ids[1]);
    let col = |v: box3d_rust::math_functions::Vec3| Vec3::new(v.x, v.y, v.z);
    assert_inertia(Mat3::from_cols(col(i.cx), col(i.cy), col(i.cz)), inertia, 1e-3, "box3d-rust");
}

/// The washer's drum: 40 hulls in one body, in every engine, at the same place.
#[test]
fn washer_drum_is_one_body_of_forty_hulls() {
    let drum = box3d_scenes::washer_drum();
    assert_eq!(drum.children().len(), 40);
    let w = box3d_scenes::washer(contactlab_settings());
    assert_eq!(w.bodies().len(), 2 + 8000);
    let b = &w.bodies()[1];
    assert!(b.is_kinematic());
    assert!((b.pose.pos - box3d_scenes::WASHER_CENTRE).length() < 1e-3, "the drum's centre {:?}", b.pose.pos);
    // Every cube starts inside the drum.
    let poses: Vec<Iso> = w.bodies().iter().map(|b| b.pose).collect();
    assert_eq!(out_of_washer(&w, &poses), 0);
    let r = Rapier::mirror(&w);
    assert_eq!(r.world.colliders.len(), 1 + 40 + 8000);
}
