//! The pruned SAT against a brute-force SAT over every face normal and every edge-pair
//! cross product, on 10,000 seeded random hull pairs and poses.
//!
//! Brute force: for every candidate axis u (both signs), the separation along u is
//! `min_B u·x − max_A u·x` by projecting all vertices. For overlapping shapes the maximum
//! over a superset of the Minkowski difference's face normals equals the penetration depth,
//! so it must match the pruned SAT (Gauss-map pruning only drops edge pairs that are *not*
//! Minkowski faces). For separated shapes both must report a separating axis.
//! "Relative" error is measured against max(|depth|, 1% of the larger hull's radius): f32
//! coordinates of unit size carry ~1e-7 absolute error, which a millimetre-deep overlap
//! would otherwise turn into a large relative one.

use contactlab::physics::collide::sat::{sat, sat_culled, Axis, EdgeSoa};
use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use contactlab::physics::hull::builders::SplitMix64;
use contactlab::physics::{Hull, Iso, Shape};
use glam::{Quat, Vec3};
use std::sync::Arc;

fn brute_force_separation(a: &Hull, xa: &Iso, b: &Hull, xb: &Iso) -> f32 {
    let va: Vec<Vec3> = a.vertices().iter().map(|v| xa.transform_point(*v)).collect();
    let vb: Vec<Vec3> = b.vertices().iter().map(|v| xb.transform_point(*v)).collect();
    let mut axes: Vec<Vec3> = a.faces().iter().map(|f| xa.transform_vector(f.normal)).collect();
    axes.extend(b.faces().iter().map(|f| xb.transform_vector(f.normal)));
    for ea in (0..a.edges().len()).step_by(2) {
        let da = va[a.target(ea as u32) as usize] - va[a.edges()[ea].origin as usize];
        for eb in (0..b.edges().len()).step_by(2) {
            let db = vb[b.target(eb as u32) as usize] - vb[b.edges()[eb].origin as usize];
            let c = da.cross(db);
            if c.length() > 1e-6 * da.length() * db.length() {
                axes.push(c.normalize());
            }
        }
    }
    let mut best = f32::NEG_INFINITY;
    for u in axes {
        for u in [u, -u] {
            let max_a = va.iter().map(|v| u.dot(*v)).fold(f32::NEG_INFINITY, f32::max);
            let min_b = vb.iter().map(|v| u.dot(*v)).fold(f32::INFINITY, f32::min);
            best = best.max(min_b - max_a);
        }
    }
    best
}

fn random_quat(rng: &mut SplitMix64) -> Quat {
    let v = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5);
    Quat::from_axis_angle(v.normalize_or(Vec3::Y), rng.next_f32() * std::f32::consts::TAU)
}

fn hull_pool() -> Vec<Hull> {
    let mut pool = vec![Hull::cuboid(Vec3::new(0.5, 0.3, 0.8)).unwrap(), Hull::prism(0.6, 0.4, 7).unwrap()];
    for seed in 0..150u64 {
        let n = 4 + (seed as usize % 28);
        pool.push(Hull::random(n, 0.4 + (seed % 5) as f32 * 0.2, 1000 + seed).unwrap());
    }
    pool
}

#[test]
fn pruned_sat_agrees_with_brute_force_on_10000_pairs() {
    let pool = hull_pool();
    let mut rng = SplitMix64(2024);
    let mut edges = EdgeSoa::default();
    let (mut overlapping, mut separated) = (0, 0);
    let mut culled_separated = 0;
    let mut worst = 0.0f32;
    for i in 0..10_000 {
        let a = &pool[(rng.next_u64() % pool.len() as u64) as usize];
        let b = &pool[(rng.next_u64() % pool.len() as u64) as usize];
        let xa = Iso::new(Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5, random_quat(&mut rng));
        let dir = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5).normalize_or(Vec3::X);
        let dist = (a.radius() + b.radius()) * (0.2 + 1.0 * rng.next_f32());
        let xb = Iso::new(xa.pos + dir * dist, random_quat(&mut rng));
        let brute = brute_force_separation(a, &xa, b, &xb);
        let rel = Iso::relative(&xa, &xb);
        let r = sat(a, b, &rel, f32::INFINITY, &mut edges);
        let pruned = r.separation();
        // The narrow phase's culled SAT: the same answer and the same contact axis.
        let cfg = CollideConfig::default();
        for margin in [f32::INFINITY, cfg.margin] {
            let c = sat_culled(a, b, &rel, margin, &mut edges);
            let full = if margin.is_finite() { sat(a, b, &rel, margin, &mut edges) } else { r };
            assert_eq!(c.separated, full.separated, "pair {i}: culled verdict");
            if !full.separated {
                assert_eq!(c.separation(), full.separation(), "pair {i}: culled separation");
                if full.separation() > cfg.margin {
                    continue; // no contact is built for such a pair
                }
                let (ca, fa) = (c.choose(&cfg), full.choose(&cfg));
                let kind = |x: &Axis| match x {
                    Axis::FaceA(f) => (0, f.separation),
                    Axis::FaceB(f) => (1, f.separation),
                    Axis::Edge(e) => (2, e.separation),
                };
                assert_eq!(kind(&ca), kind(&fa), "pair {i}: culled axis {ca:?} vs {fa:?}");
                if let (Axis::Edge(x), Axis::Edge(y)) = (ca, fa) {
                    assert_eq!((x.edge_a, x.edge_b), (y.edge_a, y.edge_b), "pair {i}: edge pair");
                }
            } else {
                culled_separated += 1;
            }
        }
        let scale = a.radius().max(b.radius());
        if brute.abs() < 1e-5 * scale {
            continue; // touching: the verdict is a coin toss in f32
        }
        assert_eq!(brute > 0.0, pruned > 0.0, "pair {i}: verdict brute {brute} vs pruned {pruned}");
        if brute < 0.0 {
            overlapping += 1;
            let rel_err = (pruned - brute).abs() / brute.abs().max(1e-2 * scale);
            worst = worst.max(rel_err);
            assert!(rel_err <= 1e-4, "pair {i}: penetration brute {brute} vs pruned {pruned} (rel {rel_err})");
        } else {
            separated += 1;
            // The pruned SAT's separating axis is a real one: it never overstates the gap.
            assert!(pruned <= brute + 1e-5 * scale, "pair {i}: pruned {pruned} > brute {brute}");
        }
    }
    assert!(overlapping > 2000 && separated > 2000, "{overlapping} overlapping, {separated} separated");
    assert!(culled_separated > 2000, "{culled_separated}");
    eprintln!("overlapping {overlapping}, separated {separated}, worst relative error {worst:e}");
}

/// Signed distance of `p` to hull `h` at pose `x`, by planes (exact inside, a lower bound
/// of the true distance outside).
fn plane_distance(h: &Hull, x: &Iso, p: Vec3) -> f32 {
    let l = x.inv_transform_point(p);
    h.faces().iter().map(|f| f.normal.dot(l) - f.offset).fold(f32::NEG_INFINITY, f32::max)
}

/// Places B along `dir` from A so that the brute-force separation is `target` (bisection).
fn place_at_separation(a: &Hull, xa: &Iso, b: &Hull, rot_b: Quat, dir: Vec3, target: f32) -> Iso {
    let (mut lo, mut hi) = (0.0f32, a.radius() + b.radius() + 0.1);
    for _ in 0..40 {
        let mid = 0.5 * (lo + hi);
        let x = Iso::new(xa.pos + dir * mid, rot_b);
        if brute_force_separation(a, xa, b, &x) > target {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Iso::new(xa.pos + dir * 0.5 * (lo + hi), rot_b)
}

fn random_pair<'a>(pool: &'a [Hull], rng: &mut SplitMix64) -> (&'a Hull, &'a Hull, Iso, Quat, Vec3) {
    let a = &pool[(rng.next_u64() % pool.len() as u64) as usize];
    let b = &pool[(rng.next_u64() % pool.len() as u64) as usize];
    let xa = Iso::new(Vec3::ZERO, random_quat(rng));
    let dir = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5).normalize_or(Vec3::X);
    (a, b, xa, random_quat(rng), dir)
}

#[test]
fn manifolds_of_random_shallow_overlaps_lie_on_both_surfaces() {
    let pool = hull_pool();
    let mut rng = SplitMix64(77);
    let cfg = CollideConfig::default();
    let mut scratch = Scratch::default();
    let mut placed = 0;
    for i in 0..1500 {
        let (a, b, xa, qb, dir) = random_pair(&pool, &mut rng);
        // Penetrations a simulation produces: up to 5 cm on shapes of 0.3–1.2 m.
        let target = -0.05 * rng.next_f32() - 1e-3;
        let xb = place_at_separation(a, &xa, b, qb, dir, target);
        let brute = brute_force_separation(a, &xa, b, &xb);
        if (brute - target).abs() > 1e-3 {
            // Small random hulls need not contain their origin, so the ray from A's origin
            // can miss the target depth; such pairs are skipped (and counted below).
            continue;
        }
        placed += 1;
        let (sa, sb) = (Shape::Hull(Arc::new(a.clone())), Shape::Hull(Arc::new(b.clone())));
        let mut m = Manifold::default();
        collide(&sa, &xa, &sb, &xb, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
        if m.points.is_empty() {
            let r = sat(a, b, &Iso::relative(&xa, &xb), f32::INFINITY, &mut EdgeSoa::default());
            panic!("pair {i}: no points; brute {brute}; {r:?}; choose {:?}", r.choose(&cfg));
        }
        assert!(m.points.len() <= 4, "pair {i}: {} points", m.points.len());
        assert!((m.normal.length() - 1.0).abs() < 1e-4);
        assert!(m.max_depth() > 0.0, "pair {i}: penetrating pair without a penetrating point");
        let bound = -brute / 0.90 + 0.5 * cfg.slop + 1e-4;
        for p in &m.points {
            assert!(p.depth >= -cfg.margin && p.depth <= bound, "pair {i}: depth {} (bound {bound})", p.depth);
            // Halfway between the surfaces: at most depth/2 (+ round-off) from each.
            let half = 0.5 * p.depth.abs() + 2e-4;
            let da = plane_distance(a, &xa, p.position);
            let db = plane_distance(b, &xb, p.position);
            assert!(
                da.abs() <= half && db.abs() <= half,
                "pair {i}: point off the surfaces: {da}, {db} (depth {})",
                p.depth
            );
        }
    }
    assert!(placed > 1000, "only {placed} pairs placed at their target depth");
}

#[test]
fn manifolds_of_deep_overlaps_stay_bounded() {
    let pool = hull_pool();
    let mut rng = SplitMix64(78);
    let cfg = CollideConfig::default();
    let mut scratch = Scratch::default();
    for i in 0..3000 {
        let (a, b, xa, qb, dir) = random_pair(&pool, &mut rng);
        let xb = Iso::new(dir * (a.radius() + b.radius()) * (0.3 + 0.5 * rng.next_f32()), qb);
        let brute = brute_force_separation(a, &xa, b, &xb);
        if brute > -1e-3 {
            continue;
        }
        let (sa, sb) = (Shape::Hull(Arc::new(a.clone())), Shape::Hull(Arc::new(b.clone())));
        let mut m = Manifold::default();
        collide(&sa, &xa, &sb, &xb, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
        assert!(!m.points.is_empty() && m.points.len() <= 4, "pair {i}");
        let bound = -brute / 0.90 + 0.5 * cfg.slop + 1e-3;
        assert!(m.max_depth() > 0.0 && m.max_depth() <= bound, "pair {i}: depth {} vs {bound}", m.max_depth());
        assert!(m.points.iter().all(|p| p.position.is_finite()));
    }
}

#[test]
fn arc_bound_matches_sampling_the_arc() {
    use contactlab::physics::collide::sat::arc_reaches;
    let mut rng = SplitMix64(5);
    let mut checked = 0;
    for _ in 0..3000 {
        let n1 = random_quat(&mut rng) * Vec3::Z;
        // Arcs of 1°–175°, as between the faces of a convex hull's edge.
        let angle = (1.0 + 174.0 * rng.next_f32()).to_radians();
        let axis = n1.any_orthonormal_vector();
        let n2 = Quat::from_axis_angle(axis, angle) * n1;
        let v = (Vec3::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) - 0.5) * 4.0;
        let max = (0..=4000)
            .map(|k| (Quat::from_axis_angle(axis, angle * k as f32 / 4000.0) * n1).dot(v))
            .fold(f32::NEG_INFINITY, f32::max);
        let bound = max + (rng.next_f32() - 0.5) * 0.5;
        if (bound - max).abs() < 1e-3 {
            continue;
        }
        assert_eq!(arc_reaches(n1.dot(v), n2.dot(v), n1.dot(n2), bound), max >= bound, "max {max}, bound {bound}");
        checked += 1;
    }
    assert!(checked > 2900);
}

#[test]
fn cached_face_checks_equal_the_support_vertex_separation() {
    // The SAT cache's one-face checks (support distance through one quaternion, and B's
    // face without an inverse pose) against `face_separation`, which names the vertex.
    use contactlab::physics::collide::sat::{cached_face_separation, cached_face_separation_b, face_separation};
    let pool = hull_pool();
    let mut rng = SplitMix64(77);
    let mut checked = 0;
    for _ in 0..500 {
        let a = &pool[(rng.next_u64() % pool.len() as u64) as usize];
        let b = &pool[(rng.next_u64() % pool.len() as u64) as usize];
        let off = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * 3.0;
        let rel = Iso { pos: off, rot: random_quat(&mut rng) };
        let tol = 1e-5 * (1.0 + off.length() + a.radius() + b.radius());
        for f in 0..a.faces().len() as u32 {
            let want = face_separation(a, f, b, &rel).0;
            let got = cached_face_separation(a, f, b, &rel);
            assert!((got - want).abs() < tol, "face {f} of A: {got} vs {want}");
            checked += 1;
        }
        for f in 0..b.faces().len() as u32 {
            let want = face_separation(b, f, a, &rel.inverse()).0;
            let got = cached_face_separation_b(a, b, f, &rel);
            assert!((got - want).abs() < tol, "face {f} of B: {got} vs {want}");
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Boxes and random hulls at random turns, overlapping by up to 15 mm by the plain SAT:
/// `f(A, B, A's pose, B's pose, overlap)` for each such pose among `per_shape` tries at each
/// of 40 pairs of shapes (a cube or a random hull against a random hull).
fn for_overlapping_pairs(seed: u64, per_shape: usize, mut f: impl FnMut(&Hull, &Hull, Iso, Iso, f32)) {
    let mut rng = SplitMix64(seed);
    let mut edges = EdgeSoa::default();
    let cube = Hull::cuboid(Vec3::splat(0.4)).unwrap();
    for shapes in 0..40u64 {
        let b = Hull::random(32, 0.45, 1100 + shapes).unwrap();
        let a = if shapes % 2 == 0 { cube.clone() } else { Hull::random(32, 0.45, 2100 + shapes).unwrap() };
        for _ in 0..per_shape {
            let xa = Iso::new(Vec3::ZERO, random_quat(&mut rng));
            let dir = Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5).normalize_or(Vec3::X);
            let xb = Iso::new(dir * (0.55 + 0.35 * rng.next_f32()), random_quat(&mut rng));
            let overlap = -sat(&a, &b, &Iso::relative(&xa, &xb), f32::INFINITY, &mut edges).separation();
            if (0.0..=0.015).contains(&overlap) {
                f(&a, &b, xa, xb, overlap);
            }
        }
    }
}

/// A manifold is never shallower than the shapes' overlap (the least overlap over every
/// face normal and edge pair, by the plain SAT) by more than the half slop the axis choice
/// may trade. Where the incident hull's deepest vertex lies past the reference face's edge,
/// the face's clipped points can be still apart while the hulls overlap edge across edge:
/// heightfield-1000 had a hull into a cube whose manifold read 13.4 mm apart, and the two
/// rested so.
#[test]
fn a_manifold_is_as_deep_as_the_overlap() {
    let cfg = CollideConfig::default();
    let (mut scratch, mut m) = (Scratch::default(), Manifold::default());
    let (mut cases, mut edge_cases, mut worst) = (0, 0, f32::MIN);
    for_overlapping_pairs(23, 1000, |a, b, xa, xb, overlap| {
        let (sa, sb) = (Shape::Hull(Arc::new(a.clone())), Shape::Hull(Arc::new(b.clone())));
        let mut cache = SatCache::Empty;
        collide(&sa, &xa, &sb, &xb, &cfg, &mut cache, &mut scratch, &mut m);
        let short = overlap - m.max_depth();
        worst = worst.max(short);
        assert!(
            short <= 0.5 * cfg.slop + 1e-5,
            "case {cases}: the hulls overlap by {overlap} m, the manifold's deepest point is {} m ({:?})",
            m.max_depth(),
            m.kind
        );
        cases += 1;
        edge_cases += matches!(cache, SatCache::Edge { .. }) as usize;
    });
    println!(
        "{cases} overlaps ({edge_cases} edge contacts), deepest point short of the overlap by at most {worst:e} m"
    );
    assert!(cases > 500 && edge_cases > 50, "too few overlaps: {cases}, {edge_cases} on edges");
}

/// The SAT record the inspector shows builds the manifold the narrow phase builds, also
/// where a face's clipped points miss the hulls' overlap and the narrow phase takes the
/// edge pair instead (the record then names the edge pair and says why).
#[test]
fn the_sat_record_builds_the_narrow_phases_manifold() {
    use contactlab::physics::debug::sat_record;
    use contactlab::physics::ContactKind;
    let cfg = CollideConfig::default();
    let mut scratch = Scratch::default();
    let (mut cases, mut edges_instead) = (0, 0);
    for_overlapping_pairs(31, 1500, |a, b, xa, xb, _| {
        let rec = sat_record(a, &xa, b, &xb, &cfg);
        let (sa, sb) = (Shape::Hull(Arc::new(a.clone())), Shape::Hull(Arc::new(b.clone())));
        let mut m = Manifold::default();
        collide(&sa, &xa, &sb, &xb, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
        assert_eq!(rec.winner, Some(m.kind), "case {cases}: {}", rec.reason);
        assert_eq!(rec.manifold, m, "case {cases}: {}", rec.reason);
        let chose_face = !matches!(rec.result.choose(&cfg), Axis::Edge(_));
        if chose_face && rec.winner == Some(ContactKind::Edge) {
            edges_instead += 1;
            assert!(rec.reason.contains("is the contact"), "the record says why: {}", rec.reason);
        }
        cases += 1;
    });
    println!("{cases} overlapping pairs, {edges_instead} built on the edge pair instead of the chosen face");
    assert!(cases > 1000 && edges_instead > 0, "{cases} pairs, {edges_instead} edge pairs instead of faces");
}

/// Hulls of nearly duplicate points resting 0–4 mm into a 200 m ground box, up to 80 m from
/// its centre along x and z: every pose gets a contact as deep as the lowest vertex (brute force),
/// within half the slop, with the ground as either hull of the pair. Six points, each with
/// three copies moved by up to `copy` / 2 along each axis, 400 hulls, 50 poses each:
/// - `copy` 4·10⁻⁷ m, hulled as given (`quickhull::hull_polygons`, no welding): edges of
///   about 10⁻⁷ m, whose direction from two f32 ends is off by degrees. Crossed with the
///   box's rim, up to 100 m away, such an axis read the pair as apart. With the direction
///   from the ends (`SHORT_EDGE` 0) pose 3 gets no contact; with B's ends moved into A's
///   frame before the direction is taken (where the f32 spacing is micrometres), pose 1,361.
/// - `copy` 1.5·10⁻⁴ m, through `Hull::from_points` (copies that far apart are mostly not
///   welded: the weld distance is at most 10 µm):
///   edges of 0.1 mm, exact enough in the hull's frame; with the moved ends, pose 5,270
///   gets no contact.
#[test]
fn a_hull_of_nearly_duplicate_points_far_out_on_a_ground_box_gets_its_contact() {
    use contactlab::physics::hull::quickhull::hull_polygons;
    let cfg = CollideConfig::default();
    let v =
        |rng: &mut SplitMix64, s: f32| Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * s;
    let ground = Shape::Hull(Arc::new(Hull::cuboid(Vec3::new(100.0, 0.5, 100.0)).unwrap()));
    let (mut scratch, mut m) = (Scratch::default(), Manifold::default());
    for (copy, welded, seed) in [(4e-7, false, 77), (1.5e-4, true, 77)] {
        let mut rng = SplitMix64(seed);
        let (mut cases, mut worst, mut short_hulls) = (0, 0.0f32, 0);
        for _ in 0..400 {
            let base: Vec<Vec3> = (0..6).map(|_| v(&mut rng, 0.4)).collect();
            let mut points = base.clone();
            points.extend(
                base.iter().flat_map(|&p| [p + v(&mut rng, copy), p + v(&mut rng, copy), p + v(&mut rng, copy)]),
            );
            let h = if welded {
                Hull::from_points(&points).unwrap()
            } else {
                hull_polygons(&points).and_then(|(verts, polys)| Hull::from_polygons(&verts, &polys)).unwrap()
            };
            let shortest = h
                .edges()
                .chunks(2)
                .map(|e| (h.vertices()[e[0].origin as usize] - h.vertices()[e[1].origin as usize]).length())
                .fold(f32::MAX, f32::min);
            short_hulls += usize::from(shortest < 2.0 * copy);
            let body = Shape::Hull(Arc::new(h.clone()));
            for _ in 0..50 {
                let q = Quat::from_xyzw(
                    rng.next_f32() - 0.5,
                    rng.next_f32() - 0.5,
                    rng.next_f32() - 0.5,
                    rng.next_f32() - 0.5,
                )
                .normalize();
                let at = Vec3::new((rng.next_f32() - 0.5) * 160.0, 0.0, (rng.next_f32() - 0.5) * 160.0);
                let mut xb = Iso::new(at, q);
                let lowest = h.vertices().iter().map(|&p| xb.transform_point(p).y).fold(f32::MAX, f32::min);
                xb.pos.y += 0.5 - lowest - 0.004 * rng.next_f32();
                let overlap = 0.5 - h.vertices().iter().map(|&p| xb.transform_point(p).y).fold(f32::MAX, f32::min);
                // The ground as A (the hull's edges turned into its frame) and as B.
                for ground_first in [true, false] {
                    if ground_first {
                        collide(&ground, &Iso::IDENTITY, &body, &xb, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
                    } else {
                        collide(&body, &xb, &ground, &Iso::IDENTITY, &cfg, &mut SatCache::Empty, &mut scratch, &mut m);
                    }
                    assert!(
                        !m.points.is_empty(),
                        "copies {copy} m, pose {cases}: a hull {overlap} m into the ground at {at} got no contact"
                    );
                    let short = overlap - m.max_depth();
                    worst = worst.max(short.abs());
                    assert!(
                        short.abs() <= 0.5 * cfg.slop,
                        "copies {copy} m, pose {cases} (ground first: {ground_first}): {overlap} m into the ground, the contact reads {} m",
                        m.max_depth()
                    );
                }
                cases += 1;
            }
        }
        println!(
            "copies {copy} m: {cases} poses, contact depth within {worst} m of the lowest vertex's; {short_hulls} of 400 hulls keep an edge under {} m",
            2.0 * copy
        );
        assert!(short_hulls > 100, "only {short_hulls} of the hulls keep an edge under {} m", 2.0 * copy);
    }
}
