//! Hand-made contact cases with exact expected results.

use contactlab::physics::collide::{collide, CollideConfig, ContactKind, FeatureId, Manifold, SatCache, Scratch};
use contactlab::physics::{Iso, Shape};
use glam::{Quat, Vec3};
use std::f32::consts::{FRAC_PI_2, FRAC_PI_4, SQRT_2};

fn contact(a: &Shape, xa: Iso, b: &Shape, xb: Iso) -> Manifold {
    let mut m = Manifold::default();
    collide(a, &xa, b, &xb, &CollideConfig::default(), &mut SatCache::Empty, &mut Scratch::default(), &mut m);
    m
}

fn cube(h: f32) -> Shape {
    Shape::cuboid(Vec3::splat(h)).unwrap()
}

fn near(a: Vec3, b: Vec3, tol: f32) -> bool {
    (a - b).length() <= tol
}

#[test]
fn box_resting_flat_on_bigger_box_has_four_corner_points() {
    let ground = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let m = contact(&ground, Iso::IDENTITY, &cube(0.5), Iso::from_translation(Vec3::new(0.3, 0.99, -0.2)));
    assert_eq!(m.points.len(), 4);
    assert_eq!(m.kind, ContactKind::FaceA);
    assert!(near(m.normal, Vec3::Y, 1e-6));
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5, "depth {}", p.depth);
        // Halfway between the surfaces: y = 0.5 − 0.005.
        assert!((p.position.y - 0.495).abs() < 1e-5);
        assert!(((p.position.x - 0.3).abs() - 0.5).abs() < 1e-5);
        assert!(((p.position.z + 0.2).abs() - 0.5).abs() < 1e-5);
    }
}

#[test]
fn box_twisted_45_degrees_gives_octagon_reduced_to_inscribed_square() {
    let q = Quat::from_rotation_y(FRAC_PI_4);
    let mut record = contactlab::physics::collide::CollideRecord::default();
    let (a, b) = (cube(0.5), cube(0.5));
    let xb = Iso::new(Vec3::new(0.0, 0.99, 0.0), q);
    let mut m = Manifold::default();
    contactlab::physics::collide::hull_hull::collide_hulls(
        a.hull().unwrap(),
        &Iso::IDENTITY,
        b.hull().unwrap(),
        &xb,
        &CollideConfig::default(),
        &mut SatCache::Empty,
        &mut Scratch::default(),
        &mut m,
        Some(&mut record),
    );
    assert_eq!(record.path, contactlab::physics::collide::PairPath::FullSat, "empty cache: full SAT");
    assert!(record.clipped && record.sat.is_some());
    let rec = &record.clip;
    // The clip produces the regular octagon square ∩ diamond: vertices (±0.5, ±t), (±t, ±0.5)
    // with t = 0.5·(√2 − 1).
    let t = 0.5 * (SQRT_2 - 1.0);
    let octagon: Vec<(f32, f32)> =
        vec![(0.5, t), (t, 0.5), (-t, 0.5), (-0.5, t), (-0.5, -t), (-t, -0.5), (t, -0.5), (0.5, -t)];
    assert_eq!(rec.kept.len(), 8, "clip keeps all 8 octagon vertices");
    for (p, d) in &rec.kept {
        assert!((d - 0.01).abs() < 1e-5);
        assert!(octagon.iter().any(|&(x, z)| (p.x - x).abs() < 1e-5 && (p.z - z).abs() < 1e-5), "{p}");
    }
    assert_eq!(rec.stages.len(), 4, "one stage per side plane of the reference face");
    assert_eq!(m.points.len(), 4);
    let pts: Vec<Vec3> = m.points.iter().map(|p| p.position).collect();
    // Largest quadrilateral on the octagon's vertices: alternate vertices, area 2R².
    let r2 = 0.25 + t * t;
    let mut area = 0.0;
    let c = pts.iter().copied().sum::<Vec3>() / 4.0;
    let mut sorted = pts.clone();
    sorted.sort_by(|p, q| (p.z - c.z).atan2(p.x - c.x).total_cmp(&(q.z - c.z).atan2(q.x - c.x)));
    for i in 0..4 {
        let (p, q) = (sorted[i] - c, sorted[(i + 1) % 4] - c);
        area += 0.5 * (p.x * q.z - q.x * p.z).abs();
    }
    assert!((area - 2.0 * r2).abs() < 1e-4, "area {area} vs {}", 2.0 * r2);
}

#[test]
fn crossed_edges_give_one_edge_point() {
    let a = Iso::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4)); // ridge along z at y = √2/2
    let top = SQRT_2 * 0.5;
    let b = Iso::new(Vec3::new(0.0, 2.0 * top - 0.01, 0.0), Quat::from_rotation_x(FRAC_PI_4)); // ridge along x
    let m = contact(&cube(0.5), a, &cube(0.5), b);
    assert_eq!(m.kind, ContactKind::Edge);
    assert_eq!(m.points.len(), 1);
    assert!(near(m.normal, Vec3::Y, 1e-5), "normal {}", m.normal);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5);
    assert!(near(m.points[0].position, Vec3::new(0.0, top - 0.005, 0.0), 1e-5));
}

#[test]
fn box_standing_on_one_vertex() {
    let ground = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let q = Quat::from_rotation_arc(Vec3::splat(-1.0).normalize(), -Vec3::Y);
    let half_diag = 0.5 * 3f32.sqrt();
    let m = contact(&ground, Iso::IDENTITY, &cube(0.5), Iso::new(Vec3::new(0.0, 0.5 + half_diag - 0.01, 0.0), q));
    assert_eq!(m.points.len(), 1);
    assert!(near(m.normal, Vec3::Y, 1e-6));
    assert!((m.points[0].depth - 0.01).abs() < 1e-4);
    assert!(near(m.points[0].position, Vec3::new(0.0, 0.495, 0.0), 1e-4));
}

#[test]
fn sphere_on_face_edge_and_vertex_of_a_box() {
    let s = Shape::Sphere { radius: 0.5 };
    // Face.
    let m = contact(&cube(0.5), Iso::IDENTITY, &s, Iso::from_translation(Vec3::new(0.1, 0.99, 0.2)));
    assert_eq!(m.points.len(), 1);
    assert!(near(m.normal, Vec3::Y, 1e-6) && (m.points[0].depth - 0.01).abs() < 1e-5);
    assert!(near(m.points[0].position, Vec3::new(0.1, 0.495, 0.2), 1e-5));
    // Edge of a box turned 45° about z: the ridge is at y = √2/2.
    let top = SQRT_2 * 0.5;
    let m = contact(
        &cube(0.5),
        Iso::new(Vec3::ZERO, Quat::from_rotation_z(FRAC_PI_4)),
        &s,
        Iso::from_translation(Vec3::new(0.0, top + 0.49, 0.3)),
    );
    assert!(near(m.normal, Vec3::Y, 1e-5) && (m.points[0].depth - 0.01).abs() < 1e-5);
    assert!(near(m.points[0].position, Vec3::new(0.0, top - 0.005, 0.3), 1e-5));
    // Oblique, nearest to the edge (0.5, 0.5, z): exact distance √(0.3² + 0.3²).
    let m = contact(&cube(0.5), Iso::IDENTITY, &s, Iso::from_translation(Vec3::new(0.8, 0.8, 0.0)));
    let d = (0.18f32).sqrt();
    assert!(near(m.normal, Vec3::new(1.0, 1.0, 0.0).normalize(), 1e-5));
    assert!((m.points[0].depth - (0.5 - d)).abs() < 1e-5);
    // Vertex: sphere straight above the corner of a box standing on a vertex.
    let q = Quat::from_rotation_arc(Vec3::ONE.normalize(), Vec3::Y);
    let half_diag = 0.5 * 3f32.sqrt();
    let m =
        contact(&cube(0.5), Iso::new(Vec3::ZERO, q), &s, Iso::from_translation(Vec3::new(0.0, half_diag + 0.49, 0.0)));
    assert!(near(m.normal, Vec3::Y, 1e-4) && (m.points[0].depth - 0.01).abs() < 1e-4);
    // Order swapped: sphere is A, the normal flips to point from the sphere to the box.
    let m = contact(&s, Iso::from_translation(Vec3::new(0.1, 0.99, 0.2)), &cube(0.5), Iso::IDENTITY);
    assert!(near(m.normal, -Vec3::Y, 1e-6) && (m.points[0].depth - 0.01).abs() < 1e-5);
}

#[test]
fn capsule_lying_on_a_box_has_two_points() {
    let cap = Shape::Capsule { radius: 0.25, half_height: 0.5 };
    let ground = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let x = Iso::new(Vec3::new(0.0, 0.74, 0.0), Quat::from_rotation_z(FRAC_PI_2));
    let m = contact(&ground, Iso::IDENTITY, &cap, x);
    assert_eq!(m.points.len(), 2);
    assert!(near(m.normal, Vec3::Y, 1e-6));
    let mut xs: Vec<f32> = m.points.iter().map(|p| p.position.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!((xs[0] + 0.5).abs() < 1e-5 && (xs[1] - 0.5).abs() < 1e-5);
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5 && (p.position.y - 0.495).abs() < 1e-5);
    }
    // Upright capsule on the box: one point under its lower end.
    let m = contact(&ground, Iso::IDENTITY, &cap, Iso::from_translation(Vec3::new(0.0, 1.24, 0.0)));
    assert_eq!(m.points.len(), 1);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5);
}

#[test]
fn capsule_pairs_parallel_and_crossed() {
    let cap = Shape::Capsule { radius: 0.25, half_height: 0.5 };
    let lay = Quat::from_rotation_z(FRAC_PI_2);
    let m = contact(&cap, Iso::new(Vec3::ZERO, lay), &cap, Iso::new(Vec3::new(0.5, 0.49, 0.0), lay));
    assert_eq!(m.points.len(), 2, "parallel capsules touch along a segment");
    assert!(near(m.normal, Vec3::Y, 1e-6));
    let mut xs: Vec<f32> = m.points.iter().map(|p| p.position.x).collect();
    xs.sort_by(f32::total_cmp);
    assert!((xs[0] - 0.0).abs() < 1e-5 && (xs[1] - 0.5).abs() < 1e-5, "{xs:?}");
    let crossed = Quat::from_rotation_x(FRAC_PI_2);
    let m = contact(&cap, Iso::new(Vec3::ZERO, lay), &cap, Iso::new(Vec3::new(0.0, 0.49, 0.0), crossed));
    assert_eq!(m.points.len(), 1);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5);
    // Sphere against the side of a capsule.
    let s = Shape::Sphere { radius: 0.3 };
    let m = contact(&s, Iso::from_translation(Vec3::new(0.2, 0.54, 0.0)), &cap, Iso::new(Vec3::ZERO, lay));
    assert!(near(m.normal, -Vec3::Y, 1e-6) && (m.points[0].depth - 0.01).abs() < 1e-5);
}

#[test]
fn separated_pairs_give_no_contact() {
    let s = Shape::Sphere { radius: 0.5 };
    let cap = Shape::Capsule { radius: 0.25, half_height: 0.5 };
    let far = Iso::from_translation(Vec3::new(0.3, 2.0, 0.1));
    let shapes = [
        cube(0.5),
        s,
        cap,
        Shape::Hull(std::sync::Arc::new(contactlab::physics::Hull::geodesic_sphere(0.5, 1).unwrap())),
    ];
    for a in &shapes {
        for b in &shapes {
            let m = contact(a, Iso::IDENTITY, b, far);
            assert!(m.points.is_empty(), "{a:?} vs {b:?}");
        }
    }
    // Within the margin: speculative points with negative depth.
    let m = contact(&cube(0.5), Iso::IDENTITY, &cube(0.5), Iso::from_translation(Vec3::new(0.0, 1.01, 0.0)));
    assert_eq!(m.points.len(), 4);
    assert!(m.points.iter().all(|p| (p.depth + 0.01).abs() < 1e-5));
}

#[test]
fn feature_ids_are_stable_under_small_motion_and_cache_reuses_the_axis() {
    let ground = Shape::cuboid(Vec3::new(2.0, 0.5, 2.0)).unwrap();
    let b = cube(0.5);
    let cfg = CollideConfig::default();
    let mut cache = SatCache::Empty;
    let mut scratch = Scratch::default();
    let mut m0 = Manifold::default();
    collide(
        &ground,
        &Iso::IDENTITY,
        &b,
        &Iso::from_translation(Vec3::new(0.0, 0.99, 0.0)),
        &cfg,
        &mut cache,
        &mut scratch,
        &mut m0,
    );
    assert!(matches!(cache, SatCache::FaceA { .. }));
    let mut m1 = Manifold::default();
    let x1 = Iso::new(Vec3::new(0.01, 0.991, 0.0), Quat::from_rotation_y(0.02));
    collide(&ground, &Iso::IDENTITY, &b, &x1, &cfg, &mut cache, &mut scratch, &mut m1);
    let mut ids0: Vec<_> = m0.points.iter().map(|p| p.id).collect();
    let mut ids1: Vec<_> = m1.points.iter().map(|p| p.id).collect();
    ids0.sort();
    ids1.sort();
    assert_eq!(ids0, ids1);
    // The cached path gives the same manifold as a fresh SAT.
    let mut fresh = Manifold::default();
    collide(&ground, &Iso::IDENTITY, &b, &x1, &cfg, &mut SatCache::Empty, &mut scratch, &mut fresh);
    assert_eq!(m1, fresh);
}

/// Recycling (Box3D's): the manifold keeps its normal, points and lever arms; depths are
/// measured again from body-fixed surface points along the kept normal.
#[test]
fn recycled_manifold_keeps_its_geometry_and_measures_depths_again() {
    use contactlab::physics::world::Recycle;
    const D: f32 = 0.05;
    // A unit cube resting 2 mm deep on a wide slab: four points, depth 0.002.
    let (slab, box_) = (Shape::cuboid(Vec3::new(3.0, 0.5, 3.0)).unwrap(), cube(0.5));
    let xa = Iso::new(Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY);
    let xb = Iso::new(Vec3::new(0.1, 0.498, 0.0), Quat::from_rotation_y(0.3));
    let m0 = contact(&slab, xa, &box_, xb);
    assert_eq!(m0.points.len(), 4);
    let captured = Recycle::capture(&m0, &xa, &xb, Iso::relative(&xa, &xb));
    assert!(!captured.reused);
    for (p, (la, lb)) in m0.points.iter().zip(captured.levers) {
        assert!((la - (p.position - xa.pos)).length() < 1e-6 && (lb - (p.position - xb.pos)).length() < 1e-6);
    }
    let (ra, rb) = (slab.bounding_radius(), box_.bounding_radius());

    // Lift the box by 0.3 mm: recycled depths are 1.7 mm, positions those of a fresh manifold.
    let lifted = Iso::new(xb.pos + Vec3::new(0.0, 0.0003, 0.0), xb.rot);
    let (mut rec, mut m) = (captured, m0.clone());
    assert!(rec.reuse(&mut m, &xa, &lifted, (ra, rb), D, 0.02));
    assert!(rec.reused);
    let fresh = contact(&slab, xa, &box_, lifted);
    for p in &m.points {
        assert!((p.depth - 0.0017).abs() < 2e-6, "{}", p.depth);
        let q = fresh.points.iter().find(|q| q.id == p.id).expect("same features");
        assert!((q.depth - p.depth).abs() < 2e-6 && (q.position - p.position).length() < 1e-5);
    }

    // Tilt it by 0.02 rad about z through its centre: each corner's depth along the *kept*
    // normal (+y) is −(c.y + d.x·sin α + d.y·cos α) for its offset d from the centre.
    let alpha = 0.02f32;
    let tilted = Iso::new(xb.pos, Quat::from_rotation_z(alpha) * xb.rot);
    let (mut rec, mut m) = (captured, m0.clone());
    assert!(rec.reuse(&mut m, &xa, &tilted, (ra, rb), D, 0.02));
    assert_eq!(m.normal, m0.normal, "the normal is kept");
    assert_eq!(rec.levers, captured.levers, "the lever arms are kept");
    for (p, p0) in m.points.iter().zip(&m0.points) {
        let corner = p0.position - m0.normal * (0.5 * p0.depth); // on the box
        let d = corner - xb.pos;
        let expected = -(xb.pos.y + d.x * alpha.sin() + d.y * alpha.cos());
        assert!((p.depth - expected).abs() < 2e-6, "depth {} vs {expected}", p.depth);
    }

    // Slide the box sideways by more than the distance: refused.
    let slid = Iso::new(xb.pos + Vec3::new(2.0 * D, 0.0, 0.0), xb.rot);
    assert!(!captured.clone().reuse(&mut m0.clone(), &xa, &slid, (ra, rb), D, 0.02));
    // Turn it by an angle whose arc over its radius exceeds the distance: refused.
    let turned = Iso::new(xb.pos, Quat::from_rotation_y(1.1 * D / rb) * xb.rot);
    assert!(!captured.clone().reuse(&mut m0.clone(), &xa, &turned, (ra, rb), D, 0.02));
    // Turn *both* bodies together about the origin: the relative pose is unchanged, but the
    // world normal and lever arms would be stale — refused.
    let q = Quat::from_rotation_x(1.1 * D / rb);
    let (xa2, xb2) = (Iso::new(q * xa.pos, q * xa.rot), Iso::new(q * xb.pos, q * xb.rot));
    assert!(!captured.clone().reuse(&mut m0.clone(), &xa2, &xb2, (ra, rb), D, 0.02));
    // Lift it 3 cm, within the distance but beyond the margin: a fresh manifold would be
    // empty, so it is not recycled.
    let high = Iso::new(xb.pos + Vec3::new(0.0, 0.03, 0.0), xb.rot);
    assert!(!captured.clone().reuse(&mut m0.clone(), &xa, &high, (ra, rb), D, 0.02));
    // Distance 0 turns recycling off.
    assert!(!captured.clone().reuse(&mut m0.clone(), &xa, &lifted, (ra, rb), 0.0, 0.02));
}

/// A recycled ball that turns in place stays as deep: its anchor's radial part is kept along
/// the normal (`Recycle::reuse_rounded`). Read through the turned anchor (no rounding given),
/// it would rise by `r·(1 − cos θ)`.
#[test]
fn a_recycled_ball_turning_in_place_keeps_its_depth() {
    use contactlab::physics::world::Recycle;
    let (slab, r) = (Shape::cuboid(Vec3::new(3.0, 0.5, 3.0)).unwrap(), 0.1f32);
    let ball = Shape::Sphere { radius: r };
    let xa = Iso::new(Vec3::new(0.0, -0.5, 0.0), Quat::IDENTITY);
    for (depth, theta, axis) in [(0.002f32, 0.15f32, Vec3::X), (0.0005, 0.4, Vec3::new(1.0, 0.3, -1.0).normalize())] {
        let xb = Iso::new(Vec3::new(0.2, r - depth, -0.1), Quat::from_rotation_y(0.7));
        let m0 = contact(&slab, xa, &ball, xb);
        assert_eq!(m0.points.len(), 1);
        assert!((m0.points[0].depth - depth).abs() < 1e-6);
        let captured = Recycle::capture(&m0, &xa, &xb, Iso::relative(&xa, &xb));
        let turned = Iso::new(xb.pos, Quat::from_axis_angle(axis, theta) * xb.rot);
        let radii = (slab.bounding_radius(), ball.bounding_radius());
        let (mut rec, mut m) = (captured, m0.clone());
        let turns = (glam::Mat3A::from_quat(xa.rot), glam::Mat3A::from_quat(turned.rot));
        assert!(rec.reuse_rounded(&mut m, &xa, &turned, (&turns.0, &turns.1), radii, (0.0, r), 0.05, 0.02));
        assert!((m.points[0].depth - depth).abs() < 1e-6, "{} vs {depth}", m.points[0].depth);
        let (mut rec, mut m) = (captured, m0.clone());
        assert!(rec.reuse(&mut m, &xa, &turned, radii, 0.05, 0.02));
        let tilt = 1.0 - Vec3::Y.dot(Quat::from_axis_angle(axis, theta) * Vec3::Y);
        let unrounded = depth - r * tilt;
        assert!((m.points[0].depth - unrounded).abs() < 1e-6, "{} vs {unrounded}", m.points[0].depth);
    }
}

/// A pair found apart is skipped while `gap − motion > margin` (B's motion in A's frame);
/// whenever the skip says "still apart", running the narrow phase from scratch must give no points. Checked on
/// 2,000 random hull pairs (every fourth a pair of boxes, which take the box SAT) and random
/// relative motions, with a bound that must also fire often enough to matter — for gaps
/// measured along a face normal and along an edge pair's axis alike.
#[test]
fn still_apart_never_skips_a_pair_that_touches() {
    use contactlab::physics::hull::builders::SplitMix64;
    use contactlab::physics::world::Apart;
    use contactlab::physics::Hull;
    use std::sync::Arc;
    let mut rng = SplitMix64(77);
    let cfg = CollideConfig::default();
    // [face, edge] axes: (checked, skipped).
    let (mut skipped, mut checked) = ([0; 2], [0; 2]);
    for i in 0..2000u64 {
        let (a, b) = if i % 4 == 3 {
            let mut size = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 0.4 + Vec3::splat(0.1);
            (Shape::cuboid(size()).unwrap(), Shape::cuboid(size()).unwrap())
        } else {
            (
                Shape::Hull(Arc::new(Hull::random(24, 0.5, 1000 + i).unwrap())),
                Shape::Hull(Arc::new(Hull::random(24, 0.5, 5000 + i).unwrap())),
            )
        };
        let mut r3 = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0;
        // B placed where the SAT separation is 2–6 cm, so small motions matter.
        let xa = Iso::new(Vec3::ZERO, Quat::from_scaled_axis(r3() * 3.0));
        let target = 0.02 + 0.04 * rng.next_f32();
        let mut r3 = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0;
        let xb = contactlab::scene::stock::place_at_separation(
            &a,
            &xa,
            &b,
            Quat::from_scaled_axis(r3() * 3.0),
            r3().normalize(),
            target,
        );
        let mut cache = SatCache::Empty;
        let mut m = Manifold::default();
        collide(&a, &xa, &b, &xb, &cfg, &mut cache, &mut Scratch::default(), &mut m);
        let (separation, kind) = match cache {
            SatCache::FaceA { separation, .. } | SatCache::FaceB { separation, .. } => (separation, 0),
            SatCache::Edge { separation, .. } => (separation, 1),
            SatCache::Empty => continue,
        };
        if !m.points.is_empty() {
            continue;
        }
        let rec = Apart::capture(&m, Iso::relative(&xa, &xb), &cache);
        assert_eq!(rec.gap, separation);
        // Move B by up to 0–4 cm and turn it by up to 0–0.04 rad (scales drawn per case,
        // so some motions stay within the gap and some do not); every other case A moves
        // and turns as well, by up to 2 cm and 0.02 rad (the bound is B's motion in A's
        // frame, whichever body moved).
        let (reach, turn) = (0.04 * rng.next_f32(), 0.04 * rng.next_f32());
        let mut r3 = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0;
        let moved = Iso::new(xb.pos + r3() * reach, Quat::from_scaled_axis(r3() * turn) * xb.rot);
        let xa = if i % 2 == 1 {
            let (reach, turn) = (0.02 * rng.next_f32(), 0.02 * rng.next_f32());
            let mut r3 = || Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0;
            Iso::new(xa.pos + r3() * reach, Quat::from_scaled_axis(r3() * turn) * xa.rot)
        } else {
            xa
        };
        checked[kind] += 1;
        if rec.still_apart(&xa, &moved, b.bounding_radius(), cfg.margin) {
            skipped[kind] += 1;
            let fresh = contact(&a, xa, &b, moved);
            assert!(fresh.points.is_empty(), "pair {i}: skipped but touching ({cache:?})");
        }
    }
    eprintln!(
        "face axes: checked {}, skipped {}; edge axes: checked {}, skipped {}",
        checked[0], skipped[0], checked[1], skipped[1]
    );
    assert!(checked[0] > 800 && checked[1] > 150, "checked {checked:?}");
    for k in 0..2 {
        assert!(skipped[k] > checked[k] / 10, "checked {checked:?}, skipped {skipped:?}");
    }
}

/// Boxes take the 15-axis box SAT, the same boxes given as point-cloud hulls take the general
/// hull SAT: on random pairs the manifolds agree (same kind, normal, points and depths),
/// except where two axes tie within the choice tolerance.
#[test]
fn box_sat_and_hull_sat_build_the_same_manifolds() {
    use contactlab::physics::Hull;
    let mut state = 99u64;
    let mut f = move || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 40) as f32 / (1u64 << 24) as f32
    };
    let (mut same, mut touching, mut total) = (0, 0, 0);
    for _ in 0..4000 {
        let ha = Vec3::new(0.1 + f(), 0.1 + f(), 0.1 + f());
        let hb = Vec3::new(0.1 + f(), 0.1 + f(), 0.1 + f());
        let corners = |h: Vec3| -> Vec<Vec3> {
            (0..8)
                .map(|i| {
                    Vec3::new(h.x, h.y, h.z)
                        * Vec3::new(
                            if i & 1 == 0 { -1.0 } else { 1.0 },
                            if i & 2 == 0 { -1.0 } else { 1.0 },
                            if i & 4 == 0 { -1.0 } else { 1.0 },
                        )
                })
                .collect()
        };
        let (box_a, box_b) = (Shape::cuboid(ha).unwrap(), Shape::cuboid(hb).unwrap());
        let hull_a = Shape::Hull(std::sync::Arc::new(Hull::from_points(&corners(ha)).unwrap()));
        let hull_b = Shape::Hull(std::sync::Arc::new(Hull::from_points(&corners(hb)).unwrap()));
        let axis = Vec3::new(f() - 0.5, f() - 0.5, f() - 0.5).normalize_or(Vec3::Y);
        let xa = Iso::new(Vec3::new(f(), f(), f()), Quat::from_axis_angle(axis, 6.3 * f()));
        let axis = Vec3::new(f() - 0.5, f() - 0.5, f() - 0.5).normalize_or(Vec3::X);
        let dir = Vec3::new(f() - 0.5, f() - 0.5, f() - 0.5).normalize_or(Vec3::Z);
        let xb = Iso::new(
            xa.pos + dir * (ha.length() + hb.length()) * (0.2 + 0.8 * f()),
            Quat::from_axis_angle(axis, 6.3 * f()),
        );
        let m1 = contact(&box_a, xa, &box_b, xb);
        let m2 = contact(&hull_a, xa, &hull_b, xb);
        total += 1;
        if m1.points.is_empty() && m2.points.is_empty() {
            same += 1;
            continue;
        }
        touching += 1;
        let matched = m1.kind == m2.kind
            && m1.points.len() == m2.points.len()
            && near(m1.normal, m2.normal, 1e-4)
            && m1.points.iter().all(|p| {
                m2.points.iter().any(|q| near(p.position, q.position, 1e-4) && (p.depth - q.depth).abs() < 1e-4)
            });
        if matched {
            same += 1;
        } else {
            // A near tie between axes: the deepest point still agrees.
            assert!((m1.max_depth() - m2.max_depth()).abs() < 0.02, "{m1:?} vs {m2:?}");
        }
    }
    assert!(touching > 1500, "{touching}");
    assert!(same as f32 >= 0.995 * total as f32, "{same} of {total}");
}

/// An edge contact clips the two edges' faces along its axis. Against brute force on random
/// hull pairs that the SAT puts in edge contact: every point's depth is the overlap of the
/// two hulls along the axis through that point (the line through it clipped by each hull's
/// face planes); where they overlap, the deepest point is the overlap of the two hulls'
/// extents along the axis (their vertices projected on it), which is the edge pair's depth;
/// and nearly parallel faces give the pair more than one point.
#[test]
fn an_edge_contact_clips_the_edges_faces_along_its_axis() {
    use contactlab::physics::hull::{builders::SplitMix64, Hull};
    let cfg = CollideConfig::default();
    let (mut scratch, mut m) = (Scratch::default(), Manifold::default());
    let mut rng = SplitMix64(5);
    let unit = |rng: &mut SplitMix64| {
        (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0).normalize_or(Vec3::Y)
    };
    let (mut edges, mut clipped, mut several, mut worst) = (0, 0, 0, 0.0f32);
    for seed in 0..40u64 {
        let (ha, hb) = (Hull::random(24, 0.5, 2 * seed).unwrap(), Hull::random(24, 0.4, 2 * seed + 1).unwrap());
        let (sa, sb) = (Shape::Hull(ha.clone().into()), Shape::Hull(hb.clone().into()));
        for _ in 0..150 {
            let xa = Iso::new(Vec3::ZERO, Quat::from_axis_angle(unit(&mut rng), rng.next_f32() * 6.3));
            let rot = Quat::from_axis_angle(unit(&mut rng), rng.next_f32() * 6.3);
            // B along a random direction d, its extent along d overlapping A's by −1 to 3 cm.
            let d = unit(&mut rng);
            let top_a = ha.vertices().iter().map(|&v| d.dot(xa.transform_point(v))).fold(f32::MIN, f32::max);
            let low_b = hb.vertices().iter().map(|&v| d.dot(rot * v)).fold(f32::MAX, f32::min);
            let xb = Iso::new(d * (top_a - low_b - (0.04 * rng.next_f32() - 0.01)), rot);
            collide(&sa, &xa, &sb, &xb, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
            if m.kind != ContactKind::Edge || m.points.is_empty() {
                continue;
            }
            edges += 1;
            let n = m.normal;
            let extent = |h: &Hull, x: &Iso, s: f32| {
                h.vertices().iter().map(|&v| s * n.dot(x.transform_point(v))).fold(f32::MIN, f32::max)
            };
            let overlap = extent(&ha, &xa, 1.0) + extent(&hb, &xb, -1.0);
            // Overlapping, the edges cross seen along the axis and realise the overlap; apart
            // by less than the margin, they may pass each other, and the gap between them
            // along any line is then at least the gap between the extents.
            let deepest = m.max_depth();
            assert!(deepest <= overlap + 1e-5, "deepest {deepest} beyond the overlap {overlap}");
            assert!(overlap < 0.0 || deepest > overlap - 1e-4, "deepest {deepest} against the overlap {overlap}");
            // A pair whose faces are too steep to the axis, or whose clip keeps nothing
            // within the margin (edges apart that do not cross seen along the axis), keeps
            // the edge pair's single point, placed between the edges' closest points.
            if m.points.iter().any(|p| p.id.0 >> 56 != FeatureId::CLIP) {
                assert_eq!(m.points.len(), 1);
                continue;
            }
            clipped += 1;
            for p in &m.points {
                // The line p + t·n through each hull, in its own frame.
                let along = |h: &Hull, x: &Iso| {
                    let (o, dir) = (x.inv_transform_point(p.position), x.inv_transform_vector(n));
                    h.clip_line(o, dir, 1e-5, (-10.0, 10.0)).expect("the point projects onto both faces")
                };
                let ((_, a_top), (b_low, _)) = (along(&ha, &xa), along(&hb, &xb));
                let depth = a_top - b_low;
                worst = worst.max((p.depth - depth).abs());
                assert!((p.depth - depth).abs() < 1e-4, "point depth {} against {depth} through it", p.depth);
                assert!(p.depth <= overlap + 1e-5 && p.depth >= -cfg.margin - 1e-5);
            }
            several += usize::from(m.points.len() > 1);
        }
    }
    println!(
        "{edges} edge contacts, {clipped} clipped, {several} with more than one point; largest depth error {worst:e} m"
    );
    assert!(clipped > 300 && clipped * 10 > edges * 9, "{clipped} of {edges} edge contacts clipped");
    assert!(several * 2 > edges, "{several} of {edges} edge contacts have more than one point");
}

/// Two resting hulls of `heightfield-1000`'s run at the default solver settings (a 0.4 m
/// cube and a 23-vertex hull, step 287), read at margin 0 as the peer table's yardstick
/// reads: their best face separates by 10⁻⁷ m either way from step to step, and the one
/// vertex on it, read again through the clip, fell just outside the zero margin. The
/// fallback for a face contact that clips away then took the best edge pair, separated
/// by 43 mm, and reported a 47.9 mm point. Touching to rounding is no overlap: no point
/// deeper than a micrometre, at margin 0 and at 1 mm.
#[test]
fn resting_hulls_read_at_margin_zero_touch_and_do_not_overlap() {
    let hull: Vec<Vec3> = [
        [0.3482246, 0.22962828, 0.12797038],
        [0.008886446, 0.1943597, -0.41138107],
        [-0.080506966, 0.3934467, -0.04408211],
        [-0.3977169, 0.0012926902, -0.18869491],
        [0.34526938, -0.006224093, -0.13597722],
        [0.064767644, -0.31778717, -0.21163252],
        [-0.1754879, 0.2998519, 0.061675727],
        [-0.19293186, -0.034751154, 0.3111521],
        [0.15708342, 0.315461, 0.27732962],
        [-0.00447015, -0.39861983, -0.12606758],
        [0.26481763, -0.18825671, 0.1890807],
        [-0.19461119, -0.3050122, 0.15717357],
        [-0.16253841, -0.20374973, -0.24779052],
        [0.08208372, 0.039115485, 0.39143062],
        [0.055279754, -0.030449964, 0.38743585],
        [-0.19361407, -0.26848373, 0.19441561],
        [-0.22993663, 0.20806026, 0.029746283],
        [-0.24723229, -0.23799157, 0.19890697],
        [-0.27271202, -0.30339837, 0.019214213],
        [0.2630664, -0.2821341, -0.0070753503],
        [0.09917904, 0.116585776, 0.3729077],
        [-0.2754549, -0.30360124, 0.08050183],
        [0.1456334, 0.15246226, 0.32860276],
    ]
    .into_iter()
    .map(Vec3::from_array)
    .collect();
    let hull = Shape::Hull(std::sync::Arc::new(contactlab::physics::hull::Hull::from_points(&hull).unwrap()));
    let xa = Iso::new(
        Vec3::from_array([-19.438883, -0.9170528, 15.244997]),
        Quat::from_array([0.101163186, -0.8197972, -0.03805194, 0.5623617]),
    );
    let xb = Iso::new(
        Vec3::from_array([-18.879923, -1.0084385, 15.843317]),
        Quat::from_array([0.6283733, 0.36590084, 0.6182697, 0.29833913]),
    );
    for margin in [0.0, 0.001] {
        let cfg = CollideConfig { margin, ..Default::default() };
        let mut m = Manifold::default();
        collide(&cube(0.4), &xa, &hull, &xb, &cfg, &mut SatCache::Empty, &mut Scratch::default(), &mut m);
        assert!(m.points.iter().all(|p| p.depth < 1e-6), "margin {margin}: {m:?}");
    }
}
