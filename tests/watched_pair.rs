//! The inspector shows what the step did (issue 15 part 2): the world records, for watched
//! pairs, the narrow-phase path, the SAT it ran, the manifold the solver used and the
//! impulses it applied; `PairDebug` reads that record instead of recomputing.

mod common;
use common::*;
use contactlab::physics::collide::sat::{sat, EdgeSoa};
use contactlab::physics::collide::PairPath;
use contactlab::physics::{BodyDesc, Iso, Settings, World};
use contactlab::view::PairDebug;
use glam::{Quat, Vec3};

const DT: f32 = 1.0 / 60.0;

/// A unit cube 1 cm above the ground, at rest: the pair is new on step 1.
fn cube_above_ground(settings: Settings) -> World {
    let mut w = world(settings);
    ground(&mut w);
    w.add_body(BodyDesc::new("cube", cube(0.5), Vec3::new(0.0, 0.51, 0.0))).unwrap();
    w.set_watched(&[(1, 0)]);
    w
}

#[test]
fn recycled_pair_shows_the_world_contact_and_its_impulses() {
    let mut w = cube_above_ground(Settings { sleeping: false, ..Default::default() });
    let mut recycled = 0;
    for _ in 0..120 {
        w.step(DT);
        let r = w.pair_record(0, 1).expect("watched");
        assert_eq!(r.step, w.step_count);
        if r.path != PairPath::Recycled {
            continue;
        }
        recycled += 1;
        let c = w.contact(0, 1).unwrap();
        let p = PairDebug::gather(&w, 1, 0);
        assert_eq!(p.manifold.points.len(), c.manifold.points.len());
        assert_eq!(p.impulses.len(), c.manifold.points.len());
        // Matched by feature ID: same point, same depth, same impulses as the world's.
        for (pt, imp) in c.manifold.points.iter().zip(&c.impulses) {
            let k = p.manifold.points.iter().position(|q| q.id == pt.id).expect("same feature IDs");
            assert_eq!(p.manifold.points[k].position, pt.position);
            assert_eq!(p.manifold.points[k].depth, pt.depth);
            assert_eq!(p.impulses[k], (imp.normal, imp.tangent));
        }
        // Once the cube rests (it lands within the first 10 steps): the normal impulses of
        // a step carry its weight, m·g·dt.
        if w.step_count > 30 {
            let weight = w.bodies()[1].mass() * 9.81 * DT;
            let total: f32 = p.impulses.iter().map(|i| i.0).sum();
            assert!((total - weight).abs() < 0.01 * weight, "step {}: Σλn = {total}, m·g·dt = {weight}", w.step_count);
        }
        // The step's clip is the one that built the recycled manifold, from an earlier step.
        assert!(p.clip_step > 0 && p.clip_step < r.step, "clip of step {} in step {}", p.clip_step, r.step);
    }
    assert!(recycled > 60, "{recycled} recycled steps");
}

#[test]
fn new_pair_takes_the_full_sat_then_recycles_and_without_recycling_reuses_the_face() {
    let mut w = cube_above_ground(Settings { sleeping: false, ..Default::default() });
    w.step(DT);
    let r = w.pair_record(0, 1).unwrap();
    assert_eq!(r.path, PairPath::FullSat);
    let s = r.collide.sat.expect("the full SAT's result is recorded");
    // Ground top at y = 0, cube bottom at y = 0.01: the face separation of a face of A (the
    // ground is body 0) is 1 cm.
    assert!((s.face_a.separation - 0.01).abs() < 1e-5, "{}", s.face_a.separation);
    assert!(r.collide.clipped && r.clip_step == 1);
    assert_eq!(r.manifold.points.len(), 4);
    for _ in 0..30 {
        w.step(DT);
    }
    assert_eq!(w.pair_record(0, 1).unwrap().path, PairPath::Recycled);

    // Recycling off: a resting pair re-clips its cached face every step without a SAT.
    let mut w = cube_above_ground(Settings { sleeping: false, recycle_distance: 0.0, ..Default::default() });
    for _ in 0..60 {
        w.step(DT);
    }
    let r = w.pair_record(0, 1).unwrap();
    assert_eq!(r.path, PairPath::CachedFeature);
    assert_eq!(r.clip_step, w.step_count);
    assert_eq!(r.collide.sat, None, "no SAT ran");
}

#[test]
fn separated_pair_is_tested_once_then_skipped_as_still_apart() {
    // Cube A axis-aligned at the origin; cube B turned 45° about z at (1, 1, 0): their
    // boxes overlap but B's face towards A is √2/2 − 1/2 m from A's edge.
    let mut w = World::new(Vec3::ZERO, Settings { sleeping: false, ..Default::default() });
    w.add_body(BodyDesc::new("a", cube(0.5), Vec3::ZERO)).unwrap();
    let q = Quat::from_rotation_z(std::f32::consts::FRAC_PI_4);
    w.add_body(BodyDesc::new("b", cube(0.5), Vec3::new(1.0, 1.0, 0.0)).with_rotation(q)).unwrap();
    w.set_watched(&[(0, 1)]);
    let gap = std::f32::consts::FRAC_1_SQRT_2 - 0.5;
    w.step(DT);
    let r = w.pair_record(0, 1).unwrap();
    assert_eq!(r.path, PairPath::FullSat);
    let s = r.collide.sat.unwrap();
    assert!(s.separated && (s.separation() - gap).abs() < 1e-5, "{s:?}");
    // The same numbers as an unculled SAT at the step's poses (nothing moved).
    let (ha, hb) = (w.bodies()[0].shape.hull().unwrap(), w.bodies()[1].shape.hull().unwrap());
    let rel = Iso::relative(&w.bodies()[0].pose, &w.bodies()[1].pose);
    let full = sat(ha, hb, &rel, f32::INFINITY, &mut EdgeSoa::default());
    assert!((full.separation() - s.separation()).abs() < 1e-6);
    assert!(r.manifold.points.is_empty());
    w.step(DT);
    assert_eq!(w.pair_record(0, 1).unwrap().path, PairPath::StillApart);
}

/// Watching a pair that names a body the world does not have records nothing and steps as
/// usual (the broad phase's path-test record looks the bodies up).
#[test]
fn watching_a_body_the_world_lacks_changes_nothing() {
    let mut w = cube_above_ground(Settings { sleeping: false, ..Default::default() });
    w.set_watched(&[(0, 99), (1, 0)]);
    for _ in 0..3 {
        w.step(DT);
    }
    assert!(w.pair_record(0, 99).is_none_or(|r| r.path == PairPath::NotCandidate));
    assert!(w.pair_record(0, 1).is_some());
}

#[test]
fn pair_apart_along_an_edge_pair_is_skipped_as_still_apart() {
    // Cube A turned 45° about z has an edge along z at x = √2/2; cube B turned 45° about y
    // has an edge along y at x = −√2/2 from its centre: placed at x = √2 + 5 cm, the two
    // edges cross 5 cm apart along x. No face separates them as far: the SAT's best axis is
    // the edge pair's.
    let mut w = World::new(Vec3::ZERO, Settings { sleeping: false, ..Default::default() });
    let (r, gap) = (std::f32::consts::FRAC_1_SQRT_2, 0.05);
    let quarter = std::f32::consts::FRAC_PI_4;
    // The whole pair turned off the axes, so that the bodies' boxes overlap.
    let turn = Quat::from_axis_angle(Vec3::ONE.normalize(), 0.5);
    let a = Quat::from_rotation_z(quarter);
    w.add_body(BodyDesc::new("a", cube(0.5), Vec3::ZERO).with_rotation(turn * a)).unwrap();
    let at = turn * Vec3::new(2.0 * r + gap, 0.0, 0.0);
    w.add_body(BodyDesc::new("b", cube(0.5), at).with_rotation(turn * Quat::from_rotation_y(quarter))).unwrap();
    w.set_watched(&[(0, 1)]);
    w.step(DT);
    let rec = w.pair_record(0, 1).unwrap();
    assert_eq!(rec.path, PairPath::FullSat);
    let s = rec.collide.sat.unwrap();
    assert!(s.separated && (s.edge.separation - gap).abs() < 1e-5, "{s:?}");
    assert!(s.face_a.separation < s.edge.separation && s.face_b.separation < s.edge.separation, "{s:?}");
    assert!(rec.manifold.points.is_empty());
    // The edge pair's separation bounds the distance as a face's does: the next step skips
    // the pair without opening it (it used to re-test the cached edge pair every step).
    for _ in 0..3 {
        w.step(DT);
        assert_eq!(w.pair_record(0, 1).unwrap().path, PairPath::StillApart);
    }
}

#[test]
fn pair_whose_bounding_spheres_are_apart_skips_the_sat() {
    // A sphere off the cube's corner edge: the boxes overlap, the bounding spheres do not
    // (√2 − √3/2 − 1/2 = 0.048 m > the 0.02 m margin). Nothing moves, so with the path test
    // on the broad phase already drops the pair (and says so); without it the narrow phase's
    // sphere test skips it.
    let settings = Settings { sleeping: false, path_test: false, ..Default::default() };
    let mut on = World::new(Vec3::ZERO, Settings { path_test: true, ..settings });
    let mut w = World::new(Vec3::ZERO, settings);
    let ball = contactlab::physics::Shape::Sphere { radius: 0.5 };
    for w in [&mut on, &mut w] {
        w.add_body(BodyDesc::new("a", cube(0.5), Vec3::ZERO)).unwrap();
        w.add_body(BodyDesc::new("ball", ball.clone(), Vec3::new(1.0, 1.0, 0.0))).unwrap();
        w.set_watched(&[(0, 1)]);
        w.step(DT);
    }
    assert_eq!(on.pair_record(0, 1).unwrap().path, PairPath::PathsMiss);
    assert_eq!(w.pair_record(0, 1).unwrap().path, PairPath::SphereSkip);
    // Watching changes nothing: the same world unwatched ends bit-identical.
    let mut u = World::new(Vec3::ZERO, settings);
    u.add_body(BodyDesc::new("a", cube(0.5), Vec3::ZERO)).unwrap();
    u.add_body(BodyDesc::new("ball", contactlab::physics::Shape::Sphere { radius: 0.5 }, Vec3::new(1.0, 1.0, 0.0)))
        .unwrap();
    u.step(DT);
    assert_eq!(u.bodies()[1].pose, w.bodies()[1].pose);
}

#[test]
fn watching_a_pyramid_pair_leaves_the_run_bit_identical() {
    let settings = Settings { sleeping: false, ..Default::default() };
    let (mut plain, mut watched) = (world(settings), world(settings));
    for w in [&mut plain, &mut watched] {
        ground(w);
        pyramid(w, 10);
    }
    // Ground–box, a box on the two below it (row 1 starts at body 11), and two bottom boxes
    // 5 cm apart (never a candidate pair).
    watched.set_watched(&[(0, 1), (1, 11), (1, 2)]);
    for _ in 0..120 {
        plain.step(DT);
        watched.step(DT);
    }
    for (a, b) in plain.bodies().iter().zip(watched.bodies()) {
        assert_eq!((a.pose, a.velocity, a.angular_velocity), (b.pose, b.velocity, b.angular_velocity));
    }
    let r = watched.pair_record(1, 11).unwrap();
    assert_eq!(r.step, 120);
    assert!(matches!(r.path, PairPath::Recycled | PairPath::CachedFeature), "{:?}", r.path);
    assert_eq!(r.manifold.points.len(), 4);
    assert_eq!(watched.pair_record(1, 2).unwrap().path, PairPath::NotCandidate);
}

/// A pair with a compound: the SAT, the Gauss maps and the Minkowski difference are those
/// of the child pair behind the pair's manifold, each child where it is in the world. The
/// table of `compounds.ron` on the ground: the step's manifold comes from its first leg
/// (child 1), and the SAT of the ground's box against that leg's box finds the ground's top
/// face, the leg's foot 0 to 5 mm into it, and clips the foot's four corners.
#[test]
fn a_compound_pair_shows_the_sat_of_the_child_pair_behind_its_manifold() {
    let mut scene = contactlab::scene::load(&contactlab::scene::scenes_dir().join("compounds.ron")).unwrap();
    let (g, t) = (scene.body_index("ground").unwrap(), scene.body_index("table").unwrap());
    scene.world.set_watched(&[(g as u32, t as u32)]);
    for _ in 0..20 {
        scene.world.step(1.0 / 60.0);
    }
    let pd = PairDebug::gather(&scene.world, g, t);
    let record = pd.record.as_ref().expect("the step's record");
    assert_eq!(record.manifold.part, 1, "the first leg gives the pair's manifold");
    let sat = pd.sat.as_ref().expect("the child pair's SAT");
    assert!(pd.gauss_a.is_some() && pd.gauss_b.is_some() && pd.minkowski.is_some());
    // The ground's top face: its normal up, the leg's depth within the slop.
    assert!(sat.axis.dot(Vec3::Y) > 0.999, "axis {:?}", sat.axis);
    let depth = sat.manifold.max_depth();
    assert!((0.0..0.005).contains(&depth), "the leg is {depth} m in");
    // The four corners of the leg's foot, 0.1 m square, under the table's first leg.
    let body = &scene.world.bodies()[t];
    let (_, leg) = contactlab::physics::compound::child(&body.shape, 1);
    let foot = body.pose.transform_point(leg.pos - Vec3::new(0.0, 0.35, 0.0));
    assert_eq!(sat.manifold.points.len(), 4);
    for p in &sat.manifold.points {
        let d = p.position - foot;
        assert!(d.x.abs() <= 0.0501 && d.z.abs() <= 0.0501 && d.y.abs() < 0.005, "a point {d:?} off the foot");
    }
}
