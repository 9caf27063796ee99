//! Convex hull construction, validation and support mapping.

use contactlab::physics::hull::builders::{random_cloud, SplitMix64};
use contactlab::physics::{Hull, HullError};
use glam::Vec3;

fn cube_corners(h: f32) -> Vec<Vec3> {
    (0..8)
        .map(|i| {
            Vec3::new(if i & 1 == 0 { -h } else { h }, if i & 2 == 0 { -h } else { h }, if i & 4 == 0 { -h } else { h })
        })
        .collect()
}

fn counts(h: &Hull) -> (usize, usize, usize) {
    (h.vertices().len(), h.edge_count(), h.faces().len())
}

#[test]
fn cube_with_interior_duplicate_and_coplanar_points_has_six_faces() {
    let mut pts = cube_corners(1.0);
    pts.extend(cube_corners(1.0)); // duplicates
    let mut rng = SplitMix64(7);
    for _ in 0..200 {
        // interior points
        pts.push(Vec3::new(rng.next_f32() * 1.8 - 0.9, rng.next_f32() * 1.8 - 0.9, rng.next_f32() * 1.8 - 0.9));
    }
    for i in 0..5 {
        for j in 0..5 {
            // a coplanar grid on every face, and collinear points on edges
            let (u, v) = (i as f32 * 0.5 - 1.0, j as f32 * 0.5 - 1.0);
            pts.extend([
                Vec3::new(1.0, u, v),
                Vec3::new(-1.0, u, v),
                Vec3::new(u, 1.0, v),
                Vec3::new(u, -1.0, v),
                Vec3::new(u, v, 1.0),
                Vec3::new(u, v, -1.0),
            ]);
        }
    }
    let h = Hull::from_points(&pts).unwrap();
    assert_eq!(counts(&h), (8, 12, 6));
    h.validate(1e-5).unwrap();
    for f in h.faces() {
        assert!((f.offset - 1.0).abs() < 1e-6, "each face plane is at distance 1");
        assert!(f.normal.abs().max_element() > 1.0 - 1e-6, "axis-aligned normals");
    }
}

#[test]
fn triangulated_box_faces_are_merged() {
    let v = cube_corners(0.5);
    let quads = [[0, 4, 6, 2], [1, 3, 7, 5], [0, 1, 5, 4], [2, 6, 7, 3], [0, 2, 3, 1], [4, 5, 7, 6]];
    let tris: Vec<Vec<u32>> = quads.iter().flat_map(|q| [vec![q[0], q[1], q[2]], vec![q[0], q[2], q[3]]]).collect();
    let h = Hull::from_faces(&v, &tris).unwrap();
    assert_eq!(counts(&h), (8, 12, 6));
    h.validate(1e-6).unwrap();
}

#[test]
fn from_faces_rejects_open_and_inconsistent_meshes() {
    let v = cube_corners(0.5);
    let quads: Vec<Vec<u32>> =
        vec![vec![0, 4, 6, 2], vec![1, 3, 7, 5], vec![0, 1, 5, 4], vec![2, 6, 7, 3], vec![0, 2, 3, 1]];
    assert!(matches!(Hull::from_faces(&v, &quads), Err(HullError::BadTopology(_))));
    let mut flipped = quads.clone();
    flipped.push(vec![4, 6, 7, 5]); // wrong winding
    assert!(matches!(Hull::from_faces(&v, &flipped), Err(HullError::BadTopology(_))));
    let bad_index = vec![vec![0, 1, 99]];
    assert!(matches!(Hull::from_faces(&v, &bad_index), Err(HullError::IndexOutOfRange { vertex: 99, .. })));
}

#[test]
fn bad_point_clouds_are_typed_errors() {
    assert_eq!(Hull::from_points(&[]).unwrap_err(), HullError::Empty);
    let mut pts = cube_corners(1.0);
    pts[3].y = f32::NAN;
    assert_eq!(Hull::from_points(&pts).unwrap_err(), HullError::NonFinite { index: 3 });
    pts[3].y = f32::INFINITY;
    assert!(matches!(Hull::from_points(&pts), Err(HullError::NonFinite { .. })));
    assert!(matches!(Hull::from_points(&[Vec3::ZERO, Vec3::X, Vec3::Y]), Err(HullError::Degenerate(_))));
    let same = vec![Vec3::ONE; 10];
    assert!(matches!(Hull::from_points(&same), Err(HullError::Degenerate(_))));
    let line: Vec<Vec3> = (0..10).map(|i| Vec3::new(i as f32, 2.0 * i as f32, 0.5)).collect();
    assert!(matches!(Hull::from_points(&line), Err(HullError::Degenerate(_))));
    let plane: Vec<Vec3> = (0..30).map(|i| Vec3::new((i % 6) as f32, 1.0, (i / 6) as f32)).collect();
    assert!(matches!(Hull::from_points(&plane), Err(HullError::Degenerate(_))));
    // Nearly flat: thinner than the tolerance.
    let mut flat = plane.clone();
    flat.push(Vec3::new(2.0, 1.0 + 1e-7, 2.0));
    assert!(matches!(Hull::from_points(&flat), Err(HullError::Degenerate(_))));
}

#[test]
fn builders_have_the_right_counts() {
    let b = Hull::cuboid(Vec3::new(1.0, 2.0, 3.0)).unwrap();
    assert_eq!(counts(&b), (8, 12, 6));
    let t = Hull::tetrahedron(1.0).unwrap();
    assert_eq!(counts(&t), (4, 6, 4));
    let p = Hull::prism(1.0, 0.5, 8).unwrap();
    assert_eq!(counts(&p), (16, 24, 10));
    let g = Hull::geodesic_sphere(1.0, 1).unwrap();
    assert_eq!(counts(&g), (42, 120, 80));
    for h in [&b, &t, &p, &g] {
        h.validate(1e-5).unwrap();
    }
    for v in g.vertices() {
        assert!((v.length() - 1.0).abs() < 1e-5);
    }
}

#[test]
fn random_hulls_are_valid_and_contain_their_points() {
    for seed in 0..400u64 {
        let n = 4 + (seed as usize * 7) % 120;
        let r = 0.1 + (seed % 13) as f32;
        let pts = random_cloud(n, r, seed);
        let h = Hull::from_points(&pts).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let tol = 20.0 * h.tolerance();
        h.validate(tol).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        for p in &pts {
            for (fi, f) in h.faces().iter().enumerate() {
                let d = f.normal.dot(*p) - f.offset;
                assert!(d <= tol, "seed {seed}: point {p} is {d} outside face {fi}");
            }
        }
        // Every hull vertex is an input point.
        for v in h.vertices() {
            assert!(pts.contains(v));
        }
    }
}

#[test]
fn hull_of_points_on_a_sphere_keeps_every_point() {
    // All points are extreme: nothing may be dropped.
    let g = Hull::geodesic_sphere(2.0, 2).unwrap();
    assert_eq!(g.vertices().len(), 162);
    assert_eq!(g.faces().len(), 320);
    g.validate(1e-4).unwrap();
}

#[test]
fn hill_climbing_matches_brute_force_support() {
    let mut rng = SplitMix64(99);
    let mut hulls = vec![Hull::geodesic_sphere(1.0, 2).unwrap(), Hull::prism(1.0, 2.0, 32).unwrap()];
    for seed in 0..40 {
        hulls.push(Hull::random(8 + seed * 5, 1.0, seed as u64).unwrap());
    }
    for h in &hulls {
        for _ in 0..500 {
            let d = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5);
            let start = (rng.next_u64() % h.vertices().len() as u64) as u32;
            let hc = h.support_hill_climb(d, start);
            let bf = h.support_brute_force(d);
            let (a, b) = (d.dot(h.vertices()[hc as usize]), d.dot(h.vertices()[bf as usize]));
            assert!((a - b).abs() <= 1e-6 * (1.0 + b.abs()), "hill climb {a} vs brute force {b}");
        }
        // Axis directions produce ties on the prism's flat faces: still a maximum.
        for d in [Vec3::Y, -Vec3::Y, Vec3::X, Vec3::Z] {
            let a = d.dot(h.vertices()[h.support_hill_climb(d, 0) as usize]);
            let b = d.dot(h.vertices()[h.support_brute_force(d) as usize]);
            assert!((a - b).abs() < 1e-6);
        }
    }
}

/// The four-lane support vertex is the brute force's, index for index: random hulls of
/// every vertex count mod 4 (lane padding), and boxes, a prism and a geodesic sphere along
/// axes and diagonals, where several vertices tie (the lowest index wins in both).
#[test]
fn the_four_lane_support_vertex_is_the_brute_force_vertex() {
    let mut rng = SplitMix64(17);
    let mut hulls: Vec<Hull> = [4usize, 5, 6, 7, 9, 14, 20, 27, 32, 33, 41, 58, 70, 90, 140]
        .into_iter()
        .enumerate()
        .map(|(seed, n)| Hull::random(n, 1.0, seed as u64 + 31).unwrap())
        .collect();
    hulls.push(Hull::cuboid(Vec3::new(0.5, 0.3, 0.2)).unwrap());
    hulls.push(Hull::prism(1.0, 2.0, 32).unwrap());
    hulls.push(Hull::geodesic_sphere(1.0, 2).unwrap());
    let mut ties = 0;
    for h in hulls {
        let h = h.translated(Vec3::new(-3.0, 1.5, 0.5));
        let mut dirs: Vec<Vec3> =
            (0..400).map(|_| Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5)).collect();
        dirs.extend([Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z, Vec3::ONE, -Vec3::ONE]);
        dirs.push(Vec3::NAN);
        for d in dirs {
            let (got, want) = (h.support_scan(d), h.support_brute_force(d));
            assert_eq!(got, want, "{} vertices, direction {d}", h.vertices().len());
            let top = d.dot(h.vertices()[want as usize]);
            ties += usize::from(h.vertices().iter().filter(|v| d.dot(**v) == top).count() > 1);
        }
    }
    assert!(ties > 10, "directions with tied vertices: {ties}");
}

#[test]
fn support_distance_is_the_support_vertex_distance() {
    // Vertex counts with every remainder mod 4 (lane padding) and a 2,562-vertex sphere
    // (hill climbing), moved off the origin so that in many directions every vertex is
    // behind it.
    let mut rng = SplitMix64(5);
    let mut seen = std::collections::BTreeSet::new();
    let mut hulls: Vec<Hull> = [4usize, 5, 6, 7, 9, 14, 20, 27, 33, 41, 58, 70, 90, 140]
        .into_iter()
        .enumerate()
        .map(|(seed, n)| Hull::random(n, 1.0, seed as u64 + 11).unwrap())
        .collect();
    hulls.push(Hull::geodesic_sphere(1.0, 4).unwrap());
    for h in hulls {
        let h = h.translated(Vec3::new(4.0, -6.0, 2.5));
        seen.insert(h.vertices().len() % 4);
        let mut negative = 0;
        for _ in 0..400 {
            let d = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5);
            let want = d.dot(h.vertices()[h.support_brute_force(d) as usize]);
            let got = h.support_distance(d);
            negative += usize::from(want < 0.0);
            if h.vertices().len() < contactlab::physics::hull::support::LANE_SCAN_MAX_VERTICES {
                assert_eq!(got.to_bits(), want.to_bits(), "{} vertices, {d}", h.vertices().len());
            } else {
                assert!((got - want).abs() <= 1e-6 * (1.0 + want.abs()), "{got} vs {want}");
            }
        }
        assert!(negative > 100, "directions with every vertex behind: {negative}");
    }
    assert_eq!(seen.len(), 4, "vertex counts mod 4 seen: {seen:?}");
}

/// `Hull::from_points` welds points closer than 10⁻⁴ of the cloud's size, at most 10 µm
/// (`quickhull::weld`): a random cloud 1 m across with three copies of each point moved by
/// up to 5·10⁻⁷ m along each axis (the rounding an exporter or a transform leaves) gives the
/// hull of the cloud itself, vertex for vertex to within that spread; copies moved by up to
/// 3·10⁻⁴ m are all kept. Hulled as
/// given, the close copies make clusters of vertices joined by sliver faces, and a face
/// contact against the ground held one corner three times over.
#[test]
fn close_copies_of_points_are_welded() {
    use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
    use contactlab::physics::hull::quickhull::{hull_polygons, weld};
    use contactlab::physics::{Iso, Shape};
    use glam::Quat;
    use std::sync::Arc;
    let mut rng = SplitMix64(31);
    let ground = Shape::cuboid(Vec3::new(10.0, 0.5, 10.0)).unwrap();
    let (cfg, mut scratch, mut m) = (CollideConfig::default(), Scratch::default(), Manifold::default());
    let (mut tripled, mut welded_held) = (0, 0);
    for seed in 0..50u64 {
        let base = random_cloud(12, 0.5, 700 + seed);
        let clean = Hull::from_points(&base).unwrap();
        let copies = |rng: &mut SplitMix64, s: f32| -> Vec<Vec3> {
            let mut pts = base.clone();
            for &p in &base {
                for _ in 0..3 {
                    pts.push(p + Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * s);
                }
            }
            pts
        };
        let close = copies(&mut rng, 1e-6);
        assert_eq!(weld(&close).len(), base.len(), "seed {seed}");
        let h = Hull::from_points(&close).unwrap();
        // Each cluster keeps one of its points (the first in x), so the hull is the clean one
        // to within the copies' spread.
        assert_eq!(h.vertices().len(), clean.vertices().len(), "seed {seed}");
        for v in h.vertices() {
            let near = clean.vertices().iter().map(|c| c.distance(*v)).fold(f32::MAX, f32::min);
            assert!(near < 1e-6, "seed {seed}: vertex {v} is {near} m from the clean hull's");
        }
        assert_eq!(h.faces().len(), clean.faces().len(), "seed {seed}");
        let far = copies(&mut rng, 6e-4);
        assert_eq!(weld(&far).len(), far.len(), "seed {seed}: copies 3·10⁻⁴ m apart are kept");
        // Resting on the ground in a few poses: the welded hull's manifold holds no point
        // twice; the hull of the unwelded cloud's did.
        let raw = hull_polygons(&close).and_then(|(v, p)| Hull::from_polygons(&v, &p)).unwrap();
        for (hull, welded) in [(h, true), (raw, false)] {
            let shape = Shape::Hull(Arc::new(hull.clone()));
            for k in 0..8 {
                let q = Quat::from_euler(glam::EulerRot::XYZ, k as f32, 0.7 * k as f32, 0.3);
                let mut x = Iso::new(Vec3::ZERO, q);
                let low = hull.vertices().iter().map(|&p| x.transform_point(p).y).fold(f32::MAX, f32::min);
                x.pos.y = 0.5 - low - 0.001;
                collide(&ground, &Iso::IDENTITY, &shape, &x, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
                let pts = &m.points;
                let twice = (0..pts.len()).any(|i| (0..i).any(|j| pts[i].position.distance(pts[j].position) < 1e-5));
                if welded {
                    assert!(!twice, "seed {seed}, pose {k}: {pts:?}");
                    welded_held += 1;
                } else {
                    tripled += usize::from(twice);
                }
            }
        }
    }
    println!("{welded_held} welded poses with distinct points; unwelded, {tripled} of 400 held a point twice");
    assert!(tripled > 0, "the unwelded hulls never held a point twice: the test shows nothing");
}

/// Welding never folds a thin hull: its distance is at most a hundredth of the thinnest hull
/// a scene may hold (checked where `WELD_MAX` is defined, at compile time). A 20 m slab and a 20 m needle, both 1 mm thick (`HULL_THICKNESS`'s
/// floor), turned off the axes, keep their 8 corners; so does a 100 × 100 grid of points
/// in a plane (all sharing one x) with an apex, whose hull is a pyramid of 5.
#[test]
fn welding_keeps_thin_hulls_whole() {
    use contactlab::physics::hull::quickhull::{weld, weld_distance, WELD_MAX};
    use glam::Quat;
    let q = Quat::from_rotation_x(0.7) * Quat::from_rotation_y(0.4);
    for (name, half) in [("slab", Vec3::new(10.0, 0.0005, 10.0)), ("needle", Vec3::new(10.0, 0.0005, 0.0005))] {
        let corners: Vec<Vec3> = (0..8)
            .map(|i| {
                q * Vec3::new(
                    if i & 1 == 0 { -half.x } else { half.x },
                    if i & 2 == 0 { -half.y } else { half.y },
                    if i & 4 == 0 { -half.z } else { half.z },
                )
            })
            .collect();
        assert!(weld_distance(&corners) <= WELD_MAX);
        assert_eq!(weld(&corners).len(), 8, "{name}");
        let h = Hull::from_points(&corners).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(h.vertices().len(), 8, "{name}");
    }
    let mut plate: Vec<Vec3> =
        (0..100 * 100).map(|i| Vec3::new(0.0, (i / 100) as f32 * 0.01, (i % 100) as f32 * 0.01)).collect();
    plate.push(Vec3::new(0.5, 0.5, 0.5));
    assert_eq!(weld(&plate).len(), plate.len());
    assert_eq!(Hull::from_points(&plate).unwrap().vertices().len(), 5);
}
