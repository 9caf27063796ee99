//! The character against closed forms: sliding along a wall, slopes it can and cannot stand
//! on, and never ending a move inside a triangle.

use super::*;
use crate::physics::mesh::{closest_point_on_triangle, generate};

/// A wall in the plane x = 0 facing +x, 40 m square.
fn wall() -> TriMesh {
    let v = vec![
        Vec3::new(0.0, -20.0, -20.0),
        Vec3::new(0.0, -20.0, 20.0),
        Vec3::new(0.0, 20.0, 20.0),
        Vec3::new(0.0, 20.0, -20.0),
    ];
    TriMesh::new(v, vec![[0, 2, 1], [0, 3, 2]]).unwrap()
}

/// Walking into the wall at 45° at speed |v|, the character slides along it at
/// |v|·cos 45° (the normal half of the motion is stopped, the tangential half kept).
#[test]
fn pushed_into_a_wall_at_45_degrees_it_slides_at_v_cos_45() {
    let w = wall();
    let mut c = Character::new(Vec3::new(0.8, 0.0, 0.0), Vec3::splat(0.5));
    let (speed, dt) = (3.0f32, 1.0 / 60.0);
    let v = Vec3::new(-1.0, 0.0, 1.0).normalize() * speed;
    for _ in 0..60 {
        c.move_and_slide(&w, v * dt, Vec3::ZERO);
    }
    // It stops very_close (5 mm) short along its motion: 5·cos 45° = 3.5 mm off the wall,
    // at most 5 mm.
    let gap = c.position.x - 0.5;
    assert!((0.005 * std::f32::consts::FRAC_1_SQRT_2 - 1e-4..=0.005 + 1e-4).contains(&gap), "gap {gap}");
    let z0 = c.position.z;
    for _ in 0..60 {
        c.move_and_slide(&w, v * dt, Vec3::ZERO);
        let hit = c.steps[0].hit.expect("touches the wall every move");
        assert_eq!(hit.feature, Feature::Face);
        assert!((hit.plane_normal - Vec3::X).length() < 1e-5);
    }
    let along = (c.position.z - z0) / (60.0 * dt);
    let want = speed * std::f32::consts::FRAC_1_SQRT_2;
    println!("slide speed {along} m/s, |v|·cos 45° = {want} m/s");
    assert!((along - want).abs() < 0.01 * want, "{along} vs {want}");
}

/// Resting on a ramp under gravity's pass: a 30° ramp (walkable, limit 45°) holds the
/// character still; a 60° ramp lets it slide down the slope.
#[test]
fn it_stands_on_walkable_slopes_and_slides_down_steep_ones() {
    for (deg, slides) in [(30.0f32, false), (60.0, true)] {
        let a = deg.to_radians();
        let ramp = generate::ramp(a, 20.0, 6.0).unwrap();
        let normal = Vec3::new(-a.sin(), a.cos(), 0.0);
        // Centred 10 m up the slope, a sphere's radius plus 1 cm off it.
        let start = Vec3::new(a.cos(), a.sin(), 0.0) * 10.0 + normal * 0.51;
        let mut c = Character::new(start, Vec3::splat(0.5));
        let fall = Vec3::new(0.0, -0.05, 0.0);
        for _ in 0..10 {
            c.move_and_slide(&ramp, Vec3::ZERO, fall);
        }
        let settled = c.position;
        for _ in 0..60 {
            c.move_and_slide(&ramp, Vec3::ZERO, fall);
        }
        let moved = c.position - settled;
        println!("{deg}°: moved {moved} over 60 moves, on ground {}", c.on_ground);
        if slides {
            assert!(!c.on_ground);
            // Down the slope: along −(cos a, sin a, 0), at most the fall projected on it.
            let down = -Vec3::new(a.cos(), a.sin(), 0.0);
            let along = moved.dot(down);
            // Each move's 5 cm fall projected on the slope: 60 · 0.05 · sin a.
            let want = 60.0 * 0.05 * a.sin();
            assert!((along - want).abs() < 0.01 * want, "slid {along} m, projected fall {want} m");
            assert!(moved.cross(down).length() < 1e-3, "slides straight down the slope: {moved}");
        } else {
            assert!(c.on_ground);
            assert!(moved.length() < 1e-4, "stands still: moved {moved}");
        }
        // Never into the ramp.
        let d = (closest_point_on_triangle(c.position, ramp.triangle(0)) - c.position).length();
        assert!(d >= 0.5 - 1e-4, "{deg}°: centre {d} m from the ramp");
    }
}

/// 10,000 random moves (up to 3 m each, with a gravity pass) in a closed room of inward
/// faces: the ellipsoid never ends a move overlapping a wall, by the exact distance in
/// ellipsoid space (≥ 1 − 10⁻⁴ m / the longest semi-axis: at most 0.1 mm of overlap).
#[test]
fn ten_thousand_random_moves_never_end_inside_the_room_walls() {
    let half = Vec3::new(5.0, 3.0, 4.0);
    let room = generate::room(half).unwrap();
    let radii = Vec3::new(0.4, 0.9, 0.3);
    let mut c = Character::new(Vec3::ZERO, radii);
    let mut s = 3u64;
    let mut rnd = || {
        s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (s >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    };
    let tris: Vec<[Vec3; 3]> = (0..room.len() as u32).map(|i| room.triangle(i).map(|p| p / radii)).collect();
    let bound = 1.0 - 1e-4 / radii.max_element();
    let mut worst = f32::MAX;
    let mut touches = 0;
    for k in 0..10_000 {
        let v = Vec3::new(rnd(), rnd(), rnd()) * 3.0;
        let g = Vec3::new(0.0, -0.3 * rnd().abs(), 0.0);
        c.move_and_slide(&room, v, g);
        touches += c.steps.iter().filter(|s| s.hit.is_some()).count();
        let e = c.position / radii;
        for t in &tris {
            let d = (closest_point_on_triangle(e, *t) - e).length();
            worst = worst.min(d);
            assert!(d >= bound, "move {k}: ellipsoid-space distance {d} to a wall at {}", c.position);
        }
        assert!(c.position.abs().cmple(half).all(), "move {k}: left the room at {}", c.position);
    }
    println!("closest approach {worst} (bound {bound}), {touches} touches");
    assert!(touches > 10_000, "the moves must press into the walls: {touches} touches");
}

/// The recursion record: a move into a corner touches one wall, slides, touches the other and
/// stops; each step starts where the previous ended.
#[test]
fn the_record_chains_the_recursion() {
    let room = generate::room(Vec3::splat(2.0)).unwrap();
    let mut c = Character::new(Vec3::ZERO, Vec3::splat(0.5));
    c.move_and_slide(&room, Vec3::new(3.0, 0.0, 2.5), Vec3::ZERO);
    let steps: Vec<_> = c.steps.iter().collect();
    assert!(steps.len() >= 2, "{steps:?}");
    for w in steps.windows(2) {
        assert!((w[1].start - w[0].end).length() < 1e-5);
        assert!((w[1].motion - w[0].new_motion).length() < 1e-5);
    }
    let first = steps[0].hit.unwrap();
    assert!((first.plane_normal - -Vec3::X).length() < 1e-5, "hits the +x wall first: {:?}", first.plane_normal);
    // It ends in the corner, very close to both walls.
    assert!((c.position.x - 1.495).abs() < 2e-3 && (c.position.z - 1.495).abs() < 2e-3, "{}", c.position);
}
