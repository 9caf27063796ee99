//! Round bodies turning fast in contact: a ball spinning at up to 300 rad/s, or a capsule
//! rolling about its axis, thrown at a wall from a few millimetres keeps out of it as a
//! non-spinning one does. The rounded part of a contact's lever arm stays pointing at the
//! wall (`contact::round_turn`); turned with the body, it opened a phantom gap of up to
//! the ball's diameter, and the speculative contact let the ball 77 mm into a wall (found
//! in the barrage).

use contactlab::physics::{BodyDesc, ContinuousMode, Settings, Shape, SolverMode, World};
use glam::{Quat, Vec3};

const DT: f32 = 1.0 / 60.0;

/// A body `gap` metres short of a static wall whose face is the plane x = 0, moving at
/// `speed` towards it and spinning at `spin`, in zero gravity; after `steps` steps, the
/// deepest it went into the wall (m, the body's lowest x on its surface below 0).
fn deepest(settings: Settings, shape: &Shape, rot: Quat, gap: f32, speed: f32, spin: Vec3, steps: usize) -> f32 {
    let mut w = World::new(Vec3::ZERO, settings);
    let wall = Shape::cuboid(Vec3::new(0.5, 3.0, 3.0)).unwrap();
    w.add_body(BodyDesc::new("wall", wall, Vec3::new(-0.5, 0.0, 0.0)).fixed()).unwrap();
    let reach = match shape {
        Shape::Sphere { radius } | Shape::Capsule { radius, .. } => *radius,
        _ => unreachable!(),
    };
    let mut d = BodyDesc::new("ball", shape.clone(), Vec3::new(reach + gap, 0.0, 0.0))
        .with_velocity(Vec3::new(-speed, 0.0, 0.3 * speed))
        .with_material(0.6, 0.0);
    d.rotation = rot;
    d.angular_velocity = spin;
    w.add_body(d).unwrap();
    let mut deepest = 0.0f32;
    for _ in 0..steps {
        w.step(DT);
        let x = w.bodies()[1].pose.pos.x - reach;
        deepest = deepest.max(-x);
    }
    deepest
}

#[test]
fn a_spinning_ball_keeps_out_of_a_wall() {
    let ball = Shape::Sphere { radius: 0.1 };
    for (simd, iterations) in [(true, 1), (true, 3), (false, 1)] {
        let settings = Settings { simd, iterations, sleeping: false, contact_hertz: 30.0, ..Default::default() };
        for speed in [5.0, 17.0, 30.0] {
            let still = deepest(settings, &ball, Quat::IDENTITY, 0.003, speed, Vec3::ZERO, 3);
            for spin in [60.0, 150.0, 216.0, 300.0] {
                for axis in [Vec3::Y, Vec3::Z, Vec3::new(-0.5, -0.7, 0.3).normalize()] {
                    let d = deepest(settings, &ball, Quat::IDENTITY, 0.003, speed, axis * spin, 3);
                    // A ball turning in place is the same ball: it may go no deeper than a
                    // still one, to within a millimetre (friction turns some spin into a push).
                    assert!(
                        d <= still + 1e-3,
                        "simd {simd}, {iterations} iterations, {speed} m/s, {spin} rad/s about {axis}: \
                         {:.1} mm deep, {:.1} mm without spin",
                        d * 1e3,
                        still * 1e3
                    );
                }
            }
        }
    }
}

#[test]
fn a_capsule_rolling_about_its_axis_keeps_out_of_a_wall() {
    let capsule = Shape::Capsule { radius: 0.1, half_height: 0.3 };
    // Axis along z (parallel to the wall), rolling about it.
    let rot = Quat::from_rotation_x(std::f32::consts::FRAC_PI_2);
    for mode in [SolverMode::Iterative] {
        for ccd in [ContinuousMode::Fast, ContinuousMode::Off] {
            let settings = Settings { mode, ccd, iterations: 1, sleeping: false, ..Default::default() };
            for speed in [5.0, 17.0] {
                let still = deepest(settings, &capsule, rot, 0.003, speed, Vec3::ZERO, 3);
                for spin in [100.0, 250.0] {
                    let d = deepest(settings, &capsule, rot, 0.003, speed, Vec3::Z * spin, 3);
                    assert!(
                        d <= still + 1e-3,
                        "{ccd:?}, {speed} m/s, {spin} rad/s: {:.1} mm deep, {:.1} mm without spin",
                        d * 1e3,
                        still * 1e3
                    );
                }
            }
        }
    }
}
