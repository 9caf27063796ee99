//! Regression tests for issue 15 part 1: *speculative face contacts came out as one edge
//! point*. The step before two flat faces meet they are still apart by less than the
//! speculative margin; the SAT's face-over-edge preference multiplied that *positive*
//! separation by 0.90, which lowered the bar, so an edge pair with the face's separation won
//! and the landing got a single off-centre point: a cube dropped flat left the ground
//! spinning and bounced 5 % off its restitution.
//!
//! Closed forms checked here: a body meeting a flat face squarely bounces straight back
//! with `v_out = e·v_in` and no spin; in a head-on collision momentum is conserved and the
//! separating speed is `e` times the approach speed.

mod common;
use common::*;
use contactlab::physics::{BodyDesc, Hull, Settings, Shape, SolverMode, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

/// What one collision episode looked like: points per manifold while touching, speeds of
/// approach and separation along the normal, and the largest spin seen.
struct Bounce {
    points: Vec<usize>,
    v_in: f32,
    v_out: f32,
    max_spin: f32,
}

/// Steps `w` until the pair (i, j) has touched and come apart again (or `steps` ran out),
/// then `after` steps more. Records the pair's manifold sizes while it has points and the
/// relative normal velocity of the bodies before the first impulse and after the last one.
fn bounce(w: &mut World, i: usize, j: usize, normal: Vec3, steps: usize, after: usize) -> Bounce {
    let rel = |w: &World| (w.bodies()[j].velocity - w.bodies()[i].velocity).dot(normal);
    let spin = |w: &World| w.bodies()[i].angular_velocity.length().max(w.bodies()[j].angular_velocity.length());
    let mut out = Bounce { points: Vec::new(), v_in: 0.0, v_out: 0.0, max_spin: 0.0 };
    let (mut touched, mut done) = (false, 0);
    for _ in 0..steps {
        let before = rel(w);
        w.step(DT);
        out.max_spin = out.max_spin.max(spin(w));
        let c = w.contact(i as u32, j as u32);
        let pushed = c.is_some_and(|c| c.impulses[..c.manifold.points.len()].iter().any(|p| p.normal > 0.0));
        if let Some(c) = c.filter(|c| !c.manifold.points.is_empty()) {
            if done == 0 {
                out.points.push(c.manifold.points.len());
            }
        }
        if pushed && !touched {
            touched = true;
            out.v_in = -before;
        }
        if pushed && done == 0 {
            out.v_out = rel(w);
        }
        // The episode ends with the first step without an impulse; later landings (a
        // bounce that comes back down) count for the spin only.
        if touched && (done > 0 || !pushed) {
            done += 1;
            if done > after {
                break;
            }
        }
    }
    assert!(touched, "the bodies never touched");
    out
}

#[test]
fn speculative_face_contact_cube_dropped_flat_lands_on_four_points_and_bounces_straight() {
    for speed in [1.0f32, 5.0, 20.0] {
        let mut w = world(Settings { sleeping: false, ..Default::default() });
        let g = ground(&mut w);
        // 5 cm above the ground at `speed` downwards: the first contact is speculative.
        let cube = BodyDesc::new("cube", cube(0.5), Vec3::new(0.0, 0.55, 0.0))
            .with_velocity(Vec3::new(0.0, -speed, 0.0))
            .with_material(0.6, 0.5);
        let c = w.add_body(cube).unwrap().index as usize;
        let b = bounce(&mut w, g, c, Vec3::Y, 120, 30);
        assert!(b.points.iter().all(|&n| n == 4), "{speed} m/s: points per manifold {:?}", b.points);
        // Newton at the moment of impact: e times the speed after the 5 cm fall,
        // √(v² + 2·g·0.05), to 2 % plus one substep's gravity (the integrator's term,
        // solver/bounce.rs).
        let want = 0.5 * (speed * speed + 2.0 * 9.81 * 0.05).sqrt();
        let tolerance = 0.02 * want + 9.81 / 240.0;
        assert!((b.v_out - want).abs() < tolerance, "{speed} m/s: rebound {} m/s, want {want} ± {tolerance}", b.v_out);
        assert!(b.max_spin < 0.01, "{speed} m/s: spin {} rad/s", b.max_spin);
    }
}

/// Two bodies meeting head-on along x in zero gravity, masses 1 : 3, e = 0.5.
fn head_on(shape_a: Shape, rot_a: Quat, shape_b: Shape, rot_b: Quat, gap: f32, reach: f32) {
    let mut w = World::new(Vec3::ZERO, Settings { sleeping: false, ..Default::default() });
    let a = BodyDesc { density: 1.0, ..BodyDesc::new("a", shape_a, Vec3::new(-reach - 0.5 * gap, 0.0, 0.0)) }
        .with_rotation(rot_a)
        .with_velocity(Vec3::new(3.0, 0.0, 0.0))
        .with_material(0.6, 0.5);
    let b = BodyDesc { density: 3.0, ..BodyDesc::new("b", shape_b, Vec3::new(reach + 0.5 * gap, 0.0, 0.0)) }
        .with_rotation(rot_b)
        .with_velocity(Vec3::new(-0.5, 0.0, 0.0))
        .with_material(0.6, 0.5);
    let (i, j) = (w.add_body(a).unwrap().index as usize, w.add_body(b).unwrap().index as usize);
    let (ma, mb) = (w.bodies()[i].mass(), w.bodies()[j].mass());
    assert!((mb / ma - 3.0).abs() < 1e-4, "mass ratio {}", mb / ma);
    let momentum = |w: &World| w.bodies()[i].velocity * ma + w.bodies()[j].velocity * mb;
    let p0 = momentum(&w);
    let r = bounce(&mut w, i, j, Vec3::X, 120, 10);
    let p1 = momentum(&w);
    assert!((p1 - p0).length() <= 1e-5 * p0.length(), "momentum {p0} -> {p1}");
    // Approach 3.5 m/s: the pair separates at e·3.5 = 1.75 m/s.
    assert!((r.v_in - 3.5).abs() < 1e-4, "approach {}", r.v_in);
    assert!((r.v_out - 0.5 * r.v_in).abs() < 0.02 * 0.5 * r.v_in, "separating {} for approach {}", r.v_out, r.v_in);
    assert!(r.max_spin < 0.01, "spin {} rad/s", r.max_spin);
    assert!(r.points.iter().all(|&n| n >= 3), "points per manifold {:?}", r.points);
}

#[test]
fn speculative_face_contact_head_on_cubes_keep_momentum_and_do_not_spin() {
    // Gap 4 cm (inside the speculative reach of 3.5 m/s · 1/60 s): speculative first contact.
    head_on(cube(0.5), Quat::IDENTITY, cube(0.5), Quat::IDENTITY, 0.04, 0.5);
}

#[test]
fn speculative_face_contact_head_on_twenty_vertex_hulls_meet_flat() {
    // Decagonal prisms (20 vertices) with their caps facing each other along x; B is also
    // turned 18° about x, so the caps' polygons are offset and the clipped contact polygon
    // has 20 corners, reduced to four.
    let prism = Hull::prism(0.5, 0.4, 10).unwrap();
    assert_eq!(prism.vertices().len(), 20);
    let shape = Shape::Hull(Arc::new(prism));
    let to_x = Quat::from_rotation_z(-std::f32::consts::FRAC_PI_2);
    let twist = Quat::from_rotation_x(18f32.to_radians());
    head_on(shape.clone(), to_x, shape, twist * to_x, 0.04, 0.4);
}

#[test]
fn speculative_face_contact_capsule_lying_flat_lands_on_two_points_without_rolling() {
    for mode in [SolverMode::Iterative] {
        let mut w = world(Settings { mode, sleeping: false, ..Default::default() });
        let g = ground(&mut w);
        // Lying along x, 5 cm above the ground, falling at 3 m/s.
        let cap = BodyDesc::new("capsule", Shape::Capsule { radius: 0.25, half_height: 0.5 }, Vec3::new(0.0, 0.3, 0.0))
            .with_rotation(Quat::from_rotation_z(std::f32::consts::FRAC_PI_2))
            .with_velocity(Vec3::new(0.0, -3.0, 0.0))
            .with_material(0.6, 0.0);
        let c = w.add_body(cap).unwrap().index as usize;
        let mut points = Vec::new();
        let mut max_spin = 0.0f32;
        for _ in 0..90 {
            w.step(DT);
            if let Some(m) = w.contact(g as u32, c as u32).map(|c| &c.manifold).filter(|m| !m.points.is_empty()) {
                points.push(m.points.len());
            }
            max_spin = max_spin.max(w.bodies()[c].angular_velocity.length());
        }
        assert!(!points.is_empty() && points.iter().all(|&n| n == 2), "{mode:?}: points per manifold {points:?}");
        assert!(max_spin < 0.01, "{mode:?}: spin {max_spin} rad/s");
        // It lies still where it landed: no roll about its long axis moved it sideways.
        let p = w.bodies()[c].pose.pos;
        assert!(p.z.abs() < 1e-3 && (p.y - 0.25).abs() < 0.01, "capsule at {p}");
    }
}
