//! Tests of the GJK distance: closed forms (spheres, capsules, boxes), brute force over random
//! hull pairs and the simplex cache; the closed-form ball–box distance against GJK, and GJK's
//! overlap against the narrow phase.

use super::*;
use crate::physics::math::closest_points_segments;
use glam::Quat;

/// A small deterministic generator (xorshift), so the tests need no crate.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * self.next()
    }
    fn unit(&mut self) -> Vec3 {
        loop {
            let v = Vec3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
    fn quat(&mut self) -> Quat {
        Quat::from_axis_angle(self.unit(), self.range(0.0, std::f32::consts::TAU))
    }
}

fn random_hull(rng: &mut Rng) -> Shape {
    let n = 4 + (rng.next() * 12.0) as usize;
    let scale = Vec3::new(rng.range(0.1, 0.6), rng.range(0.1, 0.6), rng.range(0.1, 0.6));
    let pts: Vec<Vec3> = (0..n).map(|_| rng.unit() * scale * rng.range(0.5, 1.0)).collect();
    Shape::Hull(std::sync::Arc::new(Hull::from_points(&pts).unwrap()))
}

/// Closest point of triangle `a b c` to `p`, the textbook way (Ericson §5.1.5), used by
/// the brute force only.
fn closest_on_triangle(p: Vec3, a: Vec3, b: Vec3, c: Vec3) -> Vec3 {
    let mut s = Simplex::default();
    for w in [a - p, b - p, c - p] {
        s.v.push(SimplexVertex { w, ..Default::default() });
    }
    s.solve_triangle() + p
}

/// Brute-force distance between two separated convex polytopes: the minimum over every
/// vertex–face, face–vertex and edge–edge pair.
fn brute_force(ha: &Hull, xa: &Iso, hb: &Hull, xb: &Iso) -> f32 {
    let va: Vec<Vec3> = ha.vertices().iter().map(|v| xa.transform_point(*v)).collect();
    let vb: Vec<Vec3> = hb.vertices().iter().map(|v| xb.transform_point(*v)).collect();
    let tris = |h: &Hull, v: &[Vec3]| {
        let mut t = Vec::new();
        for f in 0..h.faces().len() {
            let ids: Vec<u32> = h.face_vertices(f).collect();
            for i in 1..ids.len() - 1 {
                t.push([v[ids[0] as usize], v[ids[i] as usize], v[ids[i + 1] as usize]]);
            }
        }
        t
    };
    let edges = |h: &Hull, v: &[Vec3]| {
        (0..h.edges().len())
            .step_by(2)
            .map(|e| (v[h.edges()[e].origin as usize], v[h.target(e as u32) as usize]))
            .collect::<Vec<_>>()
    };
    let mut best = f32::MAX;
    for t in tris(hb, &vb) {
        for p in &va {
            best = best.min(closest_on_triangle(*p, t[0], t[1], t[2]).distance(*p));
        }
    }
    for t in tris(ha, &va) {
        for p in &vb {
            best = best.min(closest_on_triangle(*p, t[0], t[1], t[2]).distance(*p));
        }
    }
    for (p1, q1) in edges(ha, &va) {
        for (p2, q2) in edges(hb, &vb) {
            let (c1, c2, _, _) = closest_points_segments(p1, q1, p2, q2);
            best = best.min(c1.distance(c2));
        }
    }
    best
}

#[test]
fn sphere_sphere_is_the_centre_distance_minus_the_radii() {
    let s = |r| Shape::Sphere { radius: r };
    let xa = Iso::from_translation(Vec3::new(1.0, 2.0, 3.0));
    let xb = Iso::new(Vec3::new(4.0, 6.0, 3.0), Quat::from_rotation_x(0.7));
    let d = shape_distance(&s(0.5), &xa, &s(1.5), &xb);
    assert!((d.distance - 3.0).abs() < 1e-6, "{}", d.distance);
    assert!((d.normal - Vec3::new(0.6, 0.8, 0.0)).length() < 1e-6);
    assert!((d.point_a - Vec3::new(1.3, 2.4, 3.0)).length() < 1e-6);
    assert!((d.point_b - Vec3::new(3.1, 4.8, 3.0)).length() < 1e-5);
    // Overlapping spheres: minus the depth.
    let d = shape_distance(&s(1.0), &Iso::IDENTITY, &s(1.0), &Iso::from_translation(Vec3::X * 1.5));
    assert!((d.distance + 0.5).abs() < 1e-6 && !d.overlap);
}

#[test]
fn boxes_along_the_axes_and_across_a_corner() {
    let a = Shape::cuboid(Vec3::new(0.5, 1.0, 1.5)).unwrap();
    let b = Shape::cuboid(Vec3::splat(0.25)).unwrap();
    // Face to face along x: gap 2 − 0.5 − 0.25.
    let d = shape_distance(&a, &Iso::IDENTITY, &b, &Iso::from_translation(Vec3::new(2.0, 0.3, -0.2)));
    assert!((d.distance - 1.25).abs() < 1e-5, "{}", d.distance);
    assert!((d.normal - Vec3::X).length() < 1e-5);
    // Corner to corner: the gap vector is (1, 2, 3) beyond both corners.
    let c = Vec3::new(0.5 + 1.0 + 0.25, 1.0 + 2.0 + 0.25, 1.5 + 3.0 + 0.25);
    let d = shape_distance(&a, &Iso::IDENTITY, &b, &Iso::from_translation(c));
    assert!((d.distance - 14f32.sqrt()).abs() < 1e-5, "{}", d.distance);
    // Edge to edge: b turned 45° about z above a's top edge at x = 0.5.
    let xb = Iso::new(
        Vec3::new(0.5, 1.0 + 0.5 + 0.25 * 2f32.sqrt(), 0.0),
        Quat::from_rotation_z(std::f32::consts::FRAC_PI_4),
    );
    let d = shape_distance(&a, &Iso::IDENTITY, &b, &xb);
    assert!((d.distance - 0.5).abs() < 1e-5, "{}", d.distance);
    // Overlapping boxes: the cores overlap.
    let d = shape_distance(&a, &Iso::IDENTITY, &b, &Iso::from_translation(Vec3::new(0.6, 0.0, 0.0)));
    assert!(d.overlap && d.distance == 0.0);
}

#[test]
fn capsules_and_spheres_match_closed_forms() {
    let cap = Shape::Capsule { radius: 0.2, half_height: 0.5 };
    // Two parallel vertical capsules 1 m apart: gap 0.6.
    let d = shape_distance(&cap, &Iso::IDENTITY, &cap, &Iso::from_translation(Vec3::new(1.0, 0.3, 0.0)));
    assert!((d.distance - 0.6).abs() < 1e-6, "{}", d.distance);
    // A sphere beyond the capsule's top: along the axis.
    let s = Shape::Sphere { radius: 0.1 };
    let d = shape_distance(&cap, &Iso::IDENTITY, &s, &Iso::from_translation(Vec3::new(0.0, 2.0, 0.0)));
    assert!((d.distance - (2.0 - 0.5 - 0.2 - 0.1)).abs() < 1e-6);
    // Crossed capsules (segment–segment closed form).
    let xb = Iso::new(Vec3::new(0.3, 0.1, 0.8), Quat::from_rotation_x(1.2));
    let d = shape_distance(&cap, &Iso::IDENTITY, &cap, &xb);
    let (p, q) = (Vec3::new(0.0, -0.5, 0.0), Vec3::new(0.0, 0.5, 0.0));
    let (c1, c2, _, _) = closest_points_segments(p, q, xb.transform_point(p), xb.transform_point(q));
    assert!((d.distance - (c1.distance(c2) - 0.4)).abs() < 1e-5, "{} vs {}", d.distance, c1.distance(c2) - 0.4);
    // A sphere against a box face and a box edge.
    let b = Shape::cuboid(Vec3::splat(0.5)).unwrap();
    let d = shape_distance(&b, &Iso::IDENTITY, &s, &Iso::from_translation(Vec3::new(0.2, 1.0, -0.1)));
    assert!((d.distance - 0.4).abs() < 1e-6);
    let d = shape_distance(&b, &Iso::IDENTITY, &s, &Iso::from_translation(Vec3::new(1.5, 1.5, 0.0)));
    assert!((d.distance - (2f32.sqrt() - 0.1)).abs() < 1e-6);
}

/// GJK against the brute-force vertex/face/edge distance on random separated hull pairs,
/// at random poses; and the witness points lie on the hulls at that distance apart.
#[test]
fn random_hull_pairs_match_brute_force() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut worst = 0.0f32;
    let mut tested = 0;
    for _ in 0..500 {
        let (a, b) = (random_hull(&mut rng), random_hull(&mut rng));
        let xa = Iso::new(Vec3::new(rng.range(-3.0, 3.0), rng.range(-3.0, 3.0), rng.range(-3.0, 3.0)), rng.quat());
        let dir = rng.unit();
        let xb = Iso::new(xa.pos + dir * rng.range(0.3, 2.5), rng.quat());
        let d = shape_distance(&a, &xa, &b, &xb);
        let (ha, hb) = (a.hull().unwrap(), b.hull().unwrap());
        if d.overlap {
            continue;
        }
        let exact = brute_force(ha, &xa, hb, &xb);
        let err = (d.distance - exact).abs();
        worst = worst.max(err);
        assert!(err <= 2e-5 + 1e-4 * exact, "GJK {} brute force {exact}", d.distance);
        assert!((d.point_b - d.point_a).length() - d.distance <= 1e-4);
        tested += 1;
    }
    assert!(tested > 300, "{tested} separated pairs");
    eprintln!("GJK vs brute force: worst error {worst:e} m over {tested} pairs");
}

/// The simplex cache changes the work, not the answer: along random approaches of
/// random hulls (and a sphere against a box) queried at 8 nearby poses each, the cached
/// distances equal the one-point-start ones to GJK's tolerance, and the brute force; the
/// cached queries add fewer support points in all.
#[test]
fn the_simplex_cache_gives_the_same_distances_with_fewer_support_points() {
    let mut rng = Rng(0xC0FFEE);
    let (mut cold_iterations, mut warm_iterations, mut compared) = (0, 0, 0);
    for case in 0..200 {
        let (a, b) = if case % 10 == 0 {
            (Shape::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap(), Shape::Sphere { radius: 0.1 })
        } else {
            (random_hull(&mut rng), random_hull(&mut rng))
        };
        let xa = Iso::new(Vec3::ZERO, rng.quat());
        let (dir, qb, axis) = (rng.unit(), rng.quat(), rng.unit());
        let mut cache = SimplexCache::default();
        for k in 0..8 {
            let xb = Iso::new(dir * (3.0 - 0.25 * k as f32), Quat::from_axis_angle(axis, 0.05 * k as f32) * qb);
            let (cold, warm) = (shape_distance(&a, &xa, &b, &xb), {
                distance_cached(&Proxy::of(&a), &xa, &Proxy::of(&b), &xb, &mut cache)
            });
            assert_eq!(cold.overlap, warm.overlap, "case {case} pose {k}");
            if cold.overlap {
                break;
            }
            let tol = 2e-5 + 1e-4 * cold.distance;
            assert!((cold.distance - warm.distance).abs() <= tol, "{} vs {}", cold.distance, warm.distance);
            if let (Some(ha), Some(hb)) = (a.hull(), b.hull()) {
                let exact = brute_force(ha, &xa, hb, &xb);
                assert!((warm.distance - exact).abs() <= tol, "cached {} brute force {exact}", warm.distance);
            }
            assert!(!cache.is_empty() && cache.len() <= 4);
            cold_iterations += cold.iterations;
            warm_iterations += warm.iterations;
            compared += 1;
        }
    }
    assert!(compared > 800, "{compared} queries compared");
    eprintln!("support points over {compared} queries: {warm_iterations} cached, {cold_iterations} from one point");
    assert!(
        warm_iterations * 3 < cold_iterations * 2,
        "support points: {warm_iterations} cached, {cold_iterations} from one point"
    );
}

/// The closed-form ball–box distance against GJK (another algorithm): balls of radius
/// 0.01–0.3 m and bare points, about centres up to 1.5 half extents past each face of
/// boxes of half extents 0.05–1 m posed up to 50 m from the origin, in both orders.
/// Outside: the same distance to GJK's tolerance, the same normal and closest points, and
/// the points `distance` apart along the normal. Inside: an overlap for both.
#[test]
fn ball_box_agrees_with_gjk() {
    let mut rng = Rng(0xBA11_B0C5);
    let (mut outside, mut inside) = (0, 0);
    for case in 0..4000 {
        let h = Vec3::new(rng.range(0.05, 1.0), rng.range(0.05, 1.0), rng.range(0.05, 1.0));
        let cuboid = Shape::cuboid(h).unwrap();
        let r = if case % 5 == 0 { 0.0 } else { rng.range(0.01, 0.3) };
        let far = Vec3::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let xbox = Iso::new(far, rng.quat());
        let local = Vec3::new(rng.range(-2.5, 2.5) * h.x, rng.range(-2.5, 2.5) * h.y, rng.range(-2.5, 2.5) * h.z);
        let centre = xbox.transform_point(local);
        let xball = Iso::new(centre + rng.unit() * 0.2, rng.quat());
        let ball = Proxy::point(xball.inv_transform_point(centre), r);
        let boxed = Proxy::of(&cuboid);
        let core = (local - local.clamp(-h, h)).length();
        let inner = (h - local.abs()).min_element();
        for ball_first in [false, true] {
            let (closed, gjk) = if ball_first {
                (ball_box(&ball, &xball, &boxed, &xbox).unwrap(), distance(&ball, &xball, &boxed, &xbox))
            } else {
                (ball_box(&boxed, &xbox, &ball, &xball).unwrap(), distance(&boxed, &xbox, &ball, &xball))
            };
            if inner > 1e-3 {
                assert!(closed.overlap && gjk.overlap, "case {case}: centre inside");
                assert_eq!(closed.distance, -r);
                inside += 1;
            } else if core > 1e-3 {
                assert!(!closed.overlap && !gjk.overlap, "case {case}: centre {core} m outside");
                let tol = 2e-5 + 1e-4 * closed.distance.abs();
                assert!(
                    (closed.distance - gjk.distance).abs() <= tol,
                    "case {case}: {} vs GJK {}",
                    closed.distance,
                    gjk.distance
                );
                assert!(
                    closed.normal.dot(gjk.normal) > 1.0 - 1e-4,
                    "case {case}: normals {} {}",
                    closed.normal,
                    gjk.normal
                );
                for (p, q) in [(closed.point_a, gjk.point_a), (closed.point_b, gjk.point_b)] {
                    assert!((p - q).length() <= 1e-3, "case {case}: points {p} vs GJK {q}");
                }
                let gap = closed.point_b - closed.point_a;
                assert!(
                    (gap - closed.normal * closed.distance).length() <= 1e-4,
                    "case {case}: {gap} against the normal"
                );
                outside += 1;
            }
        }
    }
    assert!(outside > 4000 && inside > 200, "{outside} outside, {inside} inside");
    // Any other pair is left to GJK.
    let ball = Proxy::point(Vec3::ZERO, 0.1);
    let hull = Shape::Hull(std::sync::Arc::new(Hull::cuboid(Vec3::ONE).unwrap()));
    assert!(ball_box(&ball, &Iso::IDENTITY, &Proxy::of(&hull), &Iso::IDENTITY).is_none());
    let capsule = Shape::Capsule { radius: 0.1, half_height: 0.5 };
    let cuboid = Shape::cuboid(Vec3::ONE).unwrap();
    assert!(ball_box(&Proxy::of(&capsule), &Iso::IDENTITY, &Proxy::of(&cuboid), &Iso::IDENTITY).is_none());
}

/// Overlapping hulls are reported as overlapping (checked against the SAT: some face or
/// edge axis of the narrow phase separates exactly when GJK finds a gap).
#[test]
fn overlap_agrees_with_the_narrow_phase() {
    use crate::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
    let mut rng = Rng(12345);
    let cfg = CollideConfig { margin: 0.0, slop: 0.005, motion: None };
    let mut disagree = 0;
    for _ in 0..500 {
        let (a, b) = (random_hull(&mut rng), random_hull(&mut rng));
        let xa = Iso::new(Vec3::ZERO, rng.quat());
        let xb = Iso::new(rng.unit() * rng.range(0.0, 1.0), rng.quat());
        let d = shape_distance(&a, &xa, &b, &xb);
        let mut m = Manifold::default();
        collide(&a, &xa, &b, &xb, &cfg, &mut SatCache::default(), &mut Scratch::default(), &mut m);
        let sat_overlap = m.max_depth() > 1e-4;
        let gjk_apart = d.distance > 1e-4;
        if sat_overlap && gjk_apart {
            disagree += 1;
        }
    }
    assert_eq!(disagree, 0);
}
