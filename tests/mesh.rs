//! Bodies against static triangle meshes: single-triangle contacts against closed forms,
//! no ghost bumps on a triangulated floor (a sliding box, a rolling ball), bodies resting
//! on a heightfield, a fast ball not passing through a mesh floor, a point shared by
//! several triangles held once (a ball on a ridge sinks as deep as on a face), a rolling
//! faceted wheel held on the points it rolls onto, and a cube leaning on a peak held on the
//! floor along the floor's normal.

use contactlab::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use contactlab::physics::hull::{builders::SplitMix64, Hull};
use contactlab::physics::mesh::{generate, TriMesh};
use contactlab::physics::{BodyDesc, Iso, Settings, Shape, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

fn one_triangle() -> Shape {
    // Counter-clockwise seen from above: normal +y.
    let m = TriMesh::new(
        vec![Vec3::new(-1.0, 0.0, -1.0), Vec3::new(-1.0, 0.0, 1.0), Vec3::new(1.0, 0.0, 0.0)],
        vec![[0, 1, 2]],
    );
    Shape::Mesh(Arc::new(m.unwrap()))
}

fn contact(mesh: &Shape, other: &Shape, at: Iso) -> Manifold {
    let mut m = Manifold::default();
    let cfg = CollideConfig { margin: 0.02, slop: 0.005, motion: None };
    collide(mesh, &Iso::IDENTITY, other, &at, &cfg, &mut SatCache::default(), &mut Scratch::default(), &mut m);
    m
}

#[test]
fn single_triangle_contacts_match_closed_forms() {
    let tri = one_triangle();
    // A ball of radius 0.5 whose centre is 0.45 above the face: one point 5 cm deep, normal up.
    let ball = Shape::Sphere { radius: 0.5 };
    let m = contact(&tri, &ball, Iso::from_translation(Vec3::new(-0.2, 0.45, 0.1)));
    assert_eq!(m.points.len(), 1);
    assert!((m.normal - Vec3::Y).length() < 1e-6, "normal {:?}", m.normal);
    assert!((m.points[0].depth - 0.05).abs() < 1e-6, "depth {}", m.points[0].depth);
    assert!((m.points[0].position - Vec3::new(-0.2, -0.025, 0.1)).length() < 1e-6);
    // Beyond the boundary edge x = −1 (no neighbour: the edge is real): the normal runs
    // from the edge to the centre.
    let c = Vec3::new(-1.3, 0.3, 0.0);
    let m = contact(&tri, &ball, Iso::from_translation(c));
    let q = Vec3::new(-1.0, 0.0, 0.0);
    let want = (c - q).normalize();
    assert!((m.normal - want).length() < 1e-5, "edge normal {:?}, want {want:?}", m.normal);
    assert!((m.points[0].depth - (0.5 - (c - q).length())).abs() < 1e-5);
    // A cube of half-size 0.2 resting 1 cm into the face: four points 1 cm deep.
    let cube = Shape::cuboid(Vec3::splat(0.2)).unwrap();
    let m = contact(&tri, &cube, Iso::from_translation(Vec3::new(-0.5, 0.19, 0.0)));
    assert_eq!(m.points.len(), 4);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    for p in &m.points {
        assert!((p.depth - 0.01).abs() < 1e-5, "depth {}", p.depth);
    }
    // A capsule lying flat, 2 cm into the face: two points (its ends), normal up.
    let pill = Shape::Capsule { radius: 0.1, half_height: 0.3 };
    let lying = Iso::new(Vec3::new(-0.4, 0.08, 0.0), Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
    let m = contact(&tri, &pill, lying);
    assert_eq!(m.points.len(), 2);
    assert!((m.normal - Vec3::Y).length() < 1e-6);
    assert!(m.points.iter().all(|p| (p.depth - 0.02).abs() < 1e-5));
    // Apart by more than the margin: nothing.
    assert!(contact(&tri, &ball, Iso::from_translation(Vec3::new(0.0, 0.6, 0.0))).points.is_empty());
}

/// A flat floor of 10 × 10 cells of 1 m, 200 triangles, as a static mesh body.
fn floor_world(settings: Settings) -> World {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), settings);
    let floor = generate::heightfield(10, 10, 1.0, |_, _| 0.0).unwrap();
    w.add_body(BodyDesc::new("floor", Shape::Mesh(Arc::new(floor)), Vec3::ZERO).fixed()).unwrap();
    w
}

#[test]
fn a_box_slides_across_a_triangulated_floor_without_ghost_bumps() {
    let mut w = floor_world(Settings { sleeping: false, ..Default::default() });
    let cube = Shape::cuboid(Vec3::splat(0.25)).unwrap();
    let b = w
        .add_body(
            BodyDesc::new("box", cube, Vec3::new(-4.0, 0.25, 0.3))
                .with_material(0.0, 0.0)
                .with_velocity(Vec3::new(3.0, 0.0, 0.0)),
        )
        .unwrap();
    let mut worst = 0.0f32;
    for _ in 0..200 {
        w.step(1.0 / 60.0);
        let body = &w.bodies()[b.index as usize];
        worst = worst.max(body.velocity.y.abs());
        if body.pose.pos.x > 4.0 {
            break;
        }
    }
    let body = &w.bodies()[b.index as usize];
    assert!(body.pose.pos.x > 4.0, "it slid across the shared edges: x = {}", body.pose.pos.x);
    assert!(worst < 0.01, "largest |v_y| {worst} m/s");
    assert!((body.pose.pos.y - 0.25).abs() < 0.01, "rests on the floor: y = {}", body.pose.pos.y);
}

#[test]
fn a_ball_rolls_across_a_triangulated_floor_in_a_straight_line() {
    let mut w = floor_world(Settings { sleeping: false, ..Default::default() });
    let ball = Shape::Sphere { radius: 0.3 };
    let b = w
        .add_body(
            BodyDesc::new("ball", ball, Vec3::new(-4.0, 0.3, 0.37))
                .with_velocity(Vec3::new(2.0, 0.0, 0.0))
                .with_material(0.5, 0.0),
        )
        .unwrap();
    for _ in 0..180 {
        w.step(1.0 / 60.0);
    }
    let body = &w.bodies()[b.index as usize];
    assert!(body.pose.pos.x > 0.0, "rolled on: x = {}", body.pose.pos.x);
    assert!((body.pose.pos.z - 0.37).abs() < 1e-3, "lateral drift {} m", body.pose.pos.z - 0.37);
    assert!((body.pose.pos.y - 0.3).abs() < 0.01, "on the floor: y = {}", body.pose.pos.y);
}

#[test]
fn boxes_and_hulls_come_to_rest_on_a_heightfield() {
    let s = Settings::default();
    let mut w = contactlab::scene::stock::heightfield_pile(64, s);
    for _ in 0..360 {
        w.step(1.0 / 60.0);
    }
    let below: Vec<String> = w
        .bodies()
        .iter()
        .filter(|b| b.is_dynamic())
        .filter(|b| b.pose.pos.y < contactlab::scene::stock::terrain_height(b.pose.pos.x, b.pose.pos.z))
        .map(|b| b.name.clone())
        .collect();
    assert!(below.is_empty(), "below the terrain: {below:?}");
    let moving = w.bodies().iter().filter(|b| b.is_dynamic() && b.velocity.length() > 0.5).count();
    assert!(moving <= 3, "{moving} bodies still moving faster than 0.5 m/s after 6 s");
    assert!(w.stats().max_penetration < 0.03, "max penetration {}", w.stats().max_penetration);
}

#[test]
fn a_fast_ball_does_not_pass_through_a_mesh_floor() {
    let mut w = floor_world(Settings { sleeping: false, ..Default::default() });
    let ball = Shape::Sphere { radius: 0.05 };
    let b = w
        .add_body(BodyDesc::new("ball", ball, Vec3::new(0.2, 3.0, 0.3)).with_velocity(Vec3::new(0.0, -100.0, 0.0)))
        .unwrap();
    for _ in 0..30 {
        w.step(1.0 / 60.0);
        assert!(w.bodies()[b.index as usize].pose.pos.y > 0.0, "below the floor");
    }
}

/// A V valley: two 30° slopes, each 2 m wide and 4 m long (two triangles each), meeting
/// along the z axis at the origin.
fn valley() -> Shape {
    let (l, w) = (2.0f32, 2.0f32);
    let h = l * 30f32.to_radians().tan();
    let v = vec![
        Vec3::new(-l, h, -w),
        Vec3::new(-l, h, w),
        Vec3::new(0.0, 0.0, w),
        Vec3::new(0.0, 0.0, -w),
        Vec3::new(l, h, w),
        Vec3::new(l, h, -w),
    ];
    Shape::Mesh(Arc::new(TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3], [3, 2, 4], [3, 4, 5]]).unwrap()))
}

/// Up normals of the valley's left (x < 0) and right slopes.
fn slope_normals() -> (Vec3, Vec3) {
    let (s, c) = 30f32.to_radians().sin_cos();
    (Vec3::new(s, c, 0.0), Vec3::new(-s, c, 0.0))
}

#[test]
fn a_box_in_a_v_valley_gets_one_manifold_per_slope() {
    // A cube of half-size 0.25 whose bottom edges rest on both slopes sits with its centre
    // 0.25·tan 30° + 0.25 above the crease; 1 cm lower, each bottom corner is 1 cm·cos 30°
    // deep along its slope's normal.
    let half = 0.25f32;
    let rest = half * 30f32.to_radians().tan() + half;
    let cube = Shape::cuboid(Vec3::splat(half)).unwrap();
    let mut scratch = Scratch::default();
    let mut m = Manifold::default();
    let cfg = CollideConfig { margin: 0.02, slop: 0.005, motion: None };
    let at = Iso::from_translation(Vec3::new(0.0, rest - 0.01, 0.0));
    collide(&valley(), &Iso::IDENTITY, &cube, &at, &cfg, &mut SatCache::default(), &mut scratch, &mut m);
    assert_eq!(scratch.mesh_groups.len(), 1, "two normal groups: the manifold and one more");
    let (left, right) = slope_normals();
    let want = 0.01 * 30f32.to_radians().cos();
    let mut seen = Vec::new();
    for g in std::iter::once(&m).chain(&scratch.mesh_groups) {
        assert_eq!(g.points.len(), 2, "two bottom corners on each slope");
        for p in &g.points {
            assert!((p.depth - want).abs() < 1e-5, "depth {} want {want}", p.depth);
        }
        let side = if (g.normal - left).length() < 1e-5 { -1.0 } else { 1.0 };
        assert!((g.normal - if side < 0.0 { left } else { right }).length() < 1e-5, "normal {:?}", g.normal);
        assert!(g.points.iter().all(|p| (p.position.x - side * half).abs() < 0.01), "{:?}", g.points);
        seen.push(side);
    }
    seen.sort_by(f32::total_cmp);
    assert_eq!(seen, vec![-1.0, 1.0], "one manifold per slope");
    // The mesh as body B: the same groups, normals flipped (A to B).
    collide(&cube, &at, &valley(), &Iso::IDENTITY, &cfg, &mut SatCache::default(), &mut scratch, &mut m);
    assert_eq!(scratch.mesh_groups.len(), 1);
    assert!(m.normal.y < -0.8 && scratch.mesh_groups[0].normal.y < -0.8);
    // Any other pair leaves no groups behind.
    let ball = Shape::Sphere { radius: 0.5 };
    collide(
        &cube,
        &at,
        &ball,
        &Iso::from_translation(Vec3::new(0.0, 0.9, 0.0)),
        &cfg,
        &mut SatCache::default(),
        &mut scratch,
        &mut m,
    );
    assert!(scratch.mesh_groups.is_empty());
}

fn valley_world() -> (World, u32) {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings { sleeping: false, ..Default::default() });
    let v = w.add_body(BodyDesc::new("valley", valley(), Vec3::ZERO).fixed()).unwrap();
    (w, v.index)
}

#[test]
fn a_frictionless_box_dropped_into_a_v_valley_comes_to_rest_on_both_slopes() {
    // A frictionless cube of half-size h in a valley of 30° slopes (120° between them) has
    // its lowest rest with one face flat on a slope and the corner below it in the crease:
    // turned 30°, its centre at h·(cos 30° − sin 30°, sin 30° + cos 30°) from the crease on
    // that side (the level pose, centre h·tan 30° + h up, is higher and unstable). Both
    // slopes carry it: the face on one, the corner on the other.
    let (mut w, valley) = valley_world();
    let half = 0.25f32;
    let (s, c) = 30f32.to_radians().sin_cos();
    let cube = Shape::cuboid(Vec3::splat(half)).unwrap();
    let b = w.add_body(BodyDesc::new("box", cube, Vec3::new(0.05, 0.8, 0.0)).with_material(0.0, 0.0)).unwrap().index;
    let mut late_speed = 0.0f32;
    let mut deepest = 0.0f32;
    for step in 0..300 {
        w.step(1.0 / 60.0);
        let body = &w.bodies()[b as usize];
        deepest = deepest.max(w.stats().max_penetration);
        if step >= 180 {
            late_speed = late_speed.max(body.velocity.length()).max(body.angular_velocity.length() * half);
        }
    }
    let body = &w.bodies()[b as usize];
    let (axis, angle) = body.pose.rot.to_axis_angle();
    let turn = angle * axis.z.signum();
    let side = turn.signum();
    let want = Vec3::new(side * half * (c - s), half * (s + c), 0.0);
    assert!(late_speed < 0.01, "still moving at {late_speed} m/s in the last 2 s");
    assert!((turn.abs() - 30f32.to_radians()).abs() < 0.01, "turned {} rad, want ±π/6", turn);
    assert!((body.pose.pos - want).length() < 0.01, "centre {:?} want {want:?}", body.pose.pos);
    // Never through the crease: the deepest point over the whole run stays near the slop.
    assert!(deepest < 0.03, "deepest penetration over the run {deepest} m");
    assert_eq!(w.contact_groups(valley, b).count(), 1, "a second manifold for the second slope");
    let normals: Vec<Vec3> =
        w.contact(valley, b).into_iter().chain(w.contact_groups(valley, b)).map(|c| c.manifold.normal).collect();
    let (left, right) = slope_normals();
    assert!(
        normals.iter().any(|n| (*n - left).length() < 1e-3) && normals.iter().any(|n| (*n - right).length() < 1e-3),
        "{normals:?}"
    );
    // Statics: frictionless, each slope pushes along its normal; the horizontal parts cancel
    // (N₁ = N₂) and the vertical ones carry the weight: N = m·g / (2 cos 30°) = m·g / √3.
    let want = body.mass() * 9.81 / 3f32.sqrt() / 60.0;
    for c in w.contact(valley, b).into_iter().chain(w.contact_groups(valley, b)) {
        let sum: f32 = c.impulses[..c.manifold.points.len()].iter().map(|i| i.normal).sum();
        assert!((sum - want).abs() < 0.02 * want, "slope {:?}: {sum} N·s a step, want {want}", c.manifold.normal);
    }
}

#[test]
fn a_ball_in_a_v_valley_settles_at_the_closed_form_height() {
    // Touching both 30° slopes, the centre of a ball of radius r is r / cos 30° above the
    // crease.
    let (mut w, _) = valley_world();
    let r = 0.3f32;
    let b = w
        .add_body(BodyDesc::new("ball", Shape::Sphere { radius: r }, Vec3::new(0.4, 1.0, 0.0)).with_material(0.5, 0.0))
        .unwrap()
        .index;
    for _ in 0..360 {
        w.step(1.0 / 60.0);
    }
    let body = &w.bodies()[b as usize];
    let want = r / 30f32.to_radians().cos();
    assert!(body.velocity.length() < 0.01, "speed {}", body.velocity.length());
    assert!(body.pose.pos.x.abs() < 0.005, "centred: x = {}", body.pose.pos.x);
    assert!((body.pose.pos.y - want).abs() < 0.008, "y = {} want {want}", body.pose.pos.y);
}

/// A recycled manifold keeps the features it was computed with, and a body moving over a
/// mesh meets new ones (a ridge under a box's corner); so a mesh pair is recycled only while
/// it has moved less than the slop (`world/narrow.rs`), and a pair of convex bodies within
/// the whole window. A box resting on the floor and on a box ground is moved 1 cm sideways:
/// between the slop (5 mm) and the window (2 cm).
#[test]
fn a_mesh_pair_is_recomputed_past_the_slop_where_a_convex_pair_is_still_recycled() {
    use contactlab::physics::collide::PairPath;
    let settings = Settings { sleeping: false, ..Default::default() };
    assert!(settings.slop < 0.01 && 0.01 < settings.recycle_distance);
    for mesh in [true, false] {
        let mut w = if mesh { floor_world(settings) } else { World::new(Vec3::new(0.0, -9.81, 0.0), settings) };
        if !mesh {
            let ground =
                BodyDesc::new("ground", Shape::cuboid(Vec3::new(5.0, 0.5, 5.0)).unwrap(), Vec3::new(0.0, -0.5, 0.0));
            w.add_body(ground.fixed()).unwrap();
        }
        let b = w
            .add_body(BodyDesc::new("box", Shape::cuboid(Vec3::splat(0.3)).unwrap(), Vec3::new(0.2, 0.3, 0.3)))
            .unwrap();
        w.set_watched(&[(b.index, 0)]);
        for _ in 0..60 {
            w.step(1.0 / 60.0);
        }
        assert_eq!(w.pair_record(0, b.index).unwrap().path, PairPath::Recycled, "mesh {mesh}: resting, recycled");
        w.body_mut(b).unwrap().pose.pos.x += 0.01;
        w.step(1.0 / 60.0);
        let path = w.pair_record(0, b.index).unwrap().path;
        if mesh {
            assert_ne!(path, PairPath::Recycled, "a mesh pair moved 1 cm is computed again");
        } else {
            assert_eq!(path, PairPath::Recycled, "a box pair moved 1 cm is still recycled");
        }
    }
}

/// Cubes come to rest on rolling hills (`stock::heightfield_pile`'s terrain: 1 m cells,
/// whose neighbouring triangles differ by up to 13°), with one iteration per substep at
/// 30 Hz as the peer benchmark runs them. Each cube is dropped alone at one of 144 places;
/// at the 36 where the hill is less steep than 20° (friction 0.5 holds to 26.6°) it must
/// stop: none moves more than 1 cm over the last 200 of 600 steps. A cube lying across a
/// ridge was held at the ridge's deepest point only and pivoted on it, rocking down the
/// slope for good (5 of the 36 still moved, one on an 8° slope; 4 with three
/// iterations).
#[test]
fn cubes_come_to_rest_across_the_creases_of_a_heightfield() {
    use contactlab::scene::stock::terrain_height;
    let settings = Settings { iterations: 1, contact_hertz: 30.0, sleeping: false, ..Default::default() };
    let terrain = Shape::Mesh(Arc::new(generate::heightfield(40, 40, 1.0, terrain_height).unwrap()));
    // The terrain's slope in closed form: h = 1.5·sin(kx)·cos(kz).
    let k = std::f32::consts::TAU / 16.0;
    let slope = |x: f32, z: f32| {
        let (dx, dz) = (1.5 * k * (k * x).cos() * (k * z).cos(), -1.5 * k * (k * x).sin() * (k * z).sin());
        (dx * dx + dz * dz).sqrt().atan().to_degrees()
    };
    let (mut gentle, mut moving) = (0, Vec::new());
    for gx in 0..12 {
        for gz in 0..12 {
            let (x, z) = (-7.3 + gx as f32 * 1.31, -7.1 + gz as f32 * 1.27);
            if slope(x, z) >= 20.0 {
                continue;
            }
            gentle += 1;
            let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), settings);
            w.add_body(BodyDesc::new("hills", terrain.clone(), Vec3::ZERO).fixed()).unwrap();
            let cube = Shape::cuboid(Vec3::splat(0.4)).unwrap();
            let at = Vec3::new(x, terrain_height(x, z) + 0.6, z);
            w.add_body(BodyDesc::new("cube", cube, at).with_rotation(Quat::from_rotation_y(2.2))).unwrap();
            let mut before = at;
            for step in 1..=600 {
                w.step(1.0 / 60.0);
                if step == 400 {
                    before = w.bodies()[1].pose.pos;
                }
            }
            let moved = w.bodies()[1].pose.pos.distance(before);
            if moved > 0.01 {
                moving.push((x, z, slope(x, z), moved));
            }
        }
    }
    assert_eq!(gentle, 36, "places under 20°");
    assert!(moving.is_empty(), "{} of {gentle} cubes still moving (x, z, slope°, m): {moving:?}", moving.len());
}

/// A roof 4 m square: two slopes falling at `slope_deg` from a ridge along the z axis at
/// y = 0, each slope two triangles split by a flat diagonal.
fn roof(slope_deg: f32) -> Shape {
    let (l, w) = (2.0f32, 2.0f32);
    let drop = l * slope_deg.to_radians().tan();
    let v = vec![
        Vec3::new(-l, -drop, -w),
        Vec3::new(-l, -drop, w),
        Vec3::new(0.0, 0.0, w),
        Vec3::new(0.0, 0.0, -w),
        Vec3::new(l, -drop, w),
        Vec3::new(l, -drop, -w),
    ];
    Shape::Mesh(Arc::new(TriMesh::new(v, vec![[0, 1, 2], [0, 2, 3], [3, 2, 4], [3, 4, 5]]).unwrap()))
}

/// A cube lying across a shallow ridge (two 2° slopes) holds the ridge at both ends. The
/// ridge cuts 3 mm into the cube's bottom face at one end and 1 mm at the other; the
/// cube's corners hang 11–13 mm over the slopes, inside the speculative margin. Reduced
/// for the largest area alone, the manifold kept the deep end and the four corners, and
/// the cube pivoted on that one end: heightfield-1000's deepest pairs were such cubes,
/// rocking 4–10 mm into the terrain. Points that touch are chosen before points apart.
#[test]
fn a_cube_across_a_ridge_rests_on_both_ends_of_it() {
    let roof = roof(2.0);
    // Bottom face 1 mm under the ridge at z = −0.4 and 3 mm at z = +0.4: turned about x.
    let tilt = (0.002f32 / 0.8).asin();
    let at = Iso::new(Vec3::new(0.0, 0.4 * tilt.cos() - 0.002, 0.0), Quat::from_rotation_x(tilt));
    let m = contact(&roof, &Shape::cuboid(Vec3::splat(0.4)).unwrap(), at);
    let end = |z: f32| m.points.iter().find(|p| p.position.x.abs() < 1e-3 && (p.position.z - z).abs() < 0.01);
    let (near, far) = (end(0.4), end(-0.4));
    assert!(near.is_some() && far.is_some(), "both ends of the ridge: {:?}", m.points);
    assert!((near.unwrap().depth - 0.003).abs() < 1e-4, "3 mm at z = 0.4: {:?}", near);
    assert!((far.unwrap().depth - 0.001).abs() < 1e-4, "1 mm at z = −0.4: {:?}", far);
    assert!(m.normal.y > 0.999, "the cube's bottom face: {}", m.normal);
}

/// A peak: 2 × 2 cells of 1 m, the middle grid point 0.3 m above the rest. Six triangles
/// share that point and every edge there is convex.
fn peak() -> Shape {
    let m = generate::heightfield(2, 2, 1.0, |x, z| if x == 0.0 && z == 0.0 { 0.3 } else { 0.0 });
    Shape::Mesh(Arc::new(m.unwrap()))
}

/// A corner or edge of a mesh shared by several triangles is a contact candidate of each;
/// the manifold holds it once. A ball on the peak's top corner (six triangles) has one point,
/// 1 cm deep, straight up; a ball on one of its edges (two triangles) one point; and over a
/// bumpy heightfield no manifold of a ball, a cube or a hull holds two points within a
/// micrometre of each other (1,200 poses, 899 touching; before, 94 of those manifolds did:
/// 62 of the ball's 391, 23 of the cube's 345, 9 of the hull's 163).
#[test]
fn a_point_shared_by_several_triangles_is_one_contact_point() {
    let ball = Shape::Sphere { radius: 0.5 };
    let m = contact(&peak(), &ball, Iso::from_translation(Vec3::new(0.0, 0.79, 0.0)));
    assert_eq!(m.points.len(), 1, "one point on the peak: {:?}", m.points);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5 && m.normal.y > 0.99999, "{m:?}");
    // The peak's edge from its top corner to (1, 0, 0), between two triangles of different
    // slopes: a ball over its middle, along the mean of the two faces' normals.
    let up = |a: Vec3, b: Vec3, c: Vec3| {
        let n = (b - a).cross(c - a).normalize();
        if n.y < 0.0 {
            -n
        } else {
            n
        }
    };
    let (top, end) = (Vec3::new(0.0, 0.3, 0.0), Vec3::X);
    let n = (up(Vec3::new(1.0, 0.0, -1.0), top, end) + up(top, Vec3::Z, end)).normalize();
    let m = contact(&peak(), &ball, Iso::from_translation(0.5 * (top + end) + n * 0.49));
    assert_eq!(m.points.len(), 1, "one point on the edge: {:?}", m.points);
    assert!((m.points[0].depth - 0.01).abs() < 1e-5 && m.normal.dot(n) > 0.99999, "{m:?}");

    let bumps = generate::heightfield(6, 6, 1.0, |x, z| 0.4 * (1.3 * x).sin() * (0.9 * z).cos()).unwrap();
    let bumps = Shape::Mesh(Arc::new(bumps));
    let hull = Shape::Hull(Arc::new(Hull::random(24, 0.4, 7).unwrap()));
    let shapes = [ball, Shape::cuboid(Vec3::splat(0.3)).unwrap(), hull];
    let mut rng = SplitMix64(35);
    let mut next = move || rng.next_f32();
    let (mut manifolds, mut twice) = (0, Vec::new());
    for (k, shape) in shapes.iter().enumerate() {
        let before = (manifolds, twice.len());
        for _ in 0..400 {
            let (x, z) = (next() * 4.0 - 2.0, next() * 4.0 - 2.0);
            let ground = 0.4 * (1.3 * x).sin() * (0.9 * z).cos();
            let rot = Quat::from_euler(glam::EulerRot::XYZ, next() * 6.3, next() * 6.3, next() * 6.3);
            let at = Iso::new(Vec3::new(x, ground + 0.2 + 0.3 * next(), z), rot);
            let m = contact(&bumps, shape, at);
            manifolds += usize::from(!m.points.is_empty());
            let p = &m.points;
            if (0..p.len()).any(|i| (0..i).any(|j| p[i].position.distance(p[j].position) < 1e-6)) {
                twice.push(m);
            }
        }
        println!(
            "{}: {} of {} manifolds hold a point twice",
            ["ball", "cube", "hull"][k],
            twice.len() - before.1,
            manifolds - before.0
        );
    }
    assert!(manifolds > 600, "most poses touch: {manifolds}");
    assert!(twice.is_empty(), "{} of {manifolds} manifolds hold a point twice, e.g. {:?}", twice.len(), twice[0]);
}

/// A ridge: two triangles 2 m long meeting along the z axis at 20° slopes, nothing else.
fn tent() -> Shape {
    let d = 20f32.to_radians().tan();
    let v =
        vec![Vec3::new(0.0, 0.0, -1.0), Vec3::new(0.0, 0.0, 1.0), Vec3::new(-1.0, -d, 0.0), Vec3::new(1.0, -d, 0.0)];
    Shape::Mesh(Arc::new(TriMesh::new(v, vec![[0, 2, 1], [0, 1, 3]]).unwrap()))
}

/// A ball at rest on a mesh's ridge or on its corner sinks as deep as one on a flat face:
/// a soft contact holds the ball's weight at a depth of g/ω², ω = 2π × 120 Hz (contactlab's
/// defaults: static contacts at twice the 60 Hz contact stiffness), 17.3 µm. Counted once per
/// triangle, the ridge was two points, twice as stiff: 8.6 µm.
#[test]
fn a_ball_on_a_mesh_ridge_or_corner_sinks_as_deep_as_on_a_face() {
    let depth_at = |mesh: Shape, top: f32| {
        let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings { sleeping: false, ..Default::default() });
        w.add_body(BodyDesc::new("ground", mesh, Vec3::ZERO).fixed()).unwrap();
        let b =
            w.add_body(BodyDesc::new("ball", Shape::Sphere { radius: 0.5 }, Vec3::new(0.0, top + 0.5, 0.0))).unwrap();
        // Half a second: the contact settles in a few hundredths (over-damped), well before
        // the ball, balanced on a ridge or a corner, could start to roll off.
        for _ in 0..30 {
            w.step(1.0 / 60.0);
        }
        let p = w.bodies()[b.index as usize].pose.pos;
        assert!(p.x.abs() < 1e-5 && p.z.abs() < 1e-5, "the ball stays on top: {p}");
        top + 0.5 - p.y
    };
    let sag = 9.81 / (2.0 * std::f32::consts::PI * 120.0).powi(2);
    let flat = depth_at(Shape::Mesh(Arc::new(generate::heightfield(2, 2, 1.0, |_, _| 0.0).unwrap())), 0.0);
    let ridge = depth_at(tent(), 0.0);
    let corner = depth_at(peak(), 0.3);
    println!(
        "sag on a face {:.2} µm, the ridge {:.2}, the corner {:.2}; g/ω² {:.2} µm",
        flat * 1e6,
        ridge * 1e6,
        corner * 1e6,
        sag * 1e6
    );
    for (on, depth) in [("a face", flat), ("the ridge", ridge), ("the corner", corner)] {
        assert!((depth - sag).abs() < 0.05 * sag, "on {on}: {depth} m, g/ω² = {sag} m");
    }
}

/// A ball (or a capsule lying along it) on a ridge touches the ridge and nothing else. Each 10° slope of the roof is two
/// triangles split by a flat diagonal; the triangle across the diagonal from the ridge is
/// half a metre from the ball, but the plane it lies in passes 7 mm inside the ball. Read
/// against that plane (the face normal a flat edge calls for), it gave a point 17.4 mm deep
/// along the slope's normal, deeper than the ridge's 10 mm, so the whole manifold pushed
/// along the slope.
#[test]
fn a_ball_or_a_capsule_on_a_ridge_touches_the_ridge_only() {
    let roof = roof(10.0);
    let ball = Shape::Sphere { radius: 0.5 };
    for z in [-1.2, -0.7, 0.0, 0.7, 1.2] {
        let m = contact(&roof, &ball, Iso::from_translation(Vec3::new(0.0, 0.49, z)));
        assert_eq!(m.points.len(), 1, "one point at z = {z}: {:?}", m.points);
        let p = m.points[0];
        assert!((p.depth - 0.01).abs() < 1e-5 && m.normal.y > 0.99999, "the ridge at z = {z}: {m:?}");
        assert!((p.position - Vec3::new(0.0, -0.005, z)).length() < 1e-5, "on the ridge: {:?}", p.position);
    }
    // A capsule lying along the ridge, 1 cm into it: its two ends on the ridge, straight up.
    let pill = Shape::Capsule { radius: 0.2, half_height: 0.5 };
    for z in [-0.9, 0.0, 0.9] {
        let along = Iso::new(Vec3::new(0.0, 0.19, z), Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
        let m = contact(&roof, &pill, along);
        assert_eq!(m.points.len(), 2, "the capsule's two ends at z = {z}: {:?}", m.points);
        assert!(m.normal.y > 0.99999, "straight up at z = {z}: {m:?}");
        for p in &m.points {
            assert!((p.depth - 0.01).abs() < 1e-5 && p.position.x.abs() < 1e-5, "on the ridge at z = {z}: {p:?}");
        }
    }
}

/// A faceted wheel (a 16-sided prism) rolling over a flat triangulated floor: the vertices
/// it rolls onto are still apart when its pair is computed, and a step later they carry it.
/// Among the candidates within the speculative margin (which grows with the speed), the
/// largest area alone keeps the far ones, ahead and behind, and the face it rolls onto
/// lands unheld, a step's travel deep; the pair's motion makes it keep the points that
/// land within the step. Depth here is exact: the lowest vertex below the plane y = 0.
#[test]
fn a_rolling_faceted_wheel_keeps_the_points_it_rolls_onto() {
    let floor = generate::heightfield(40, 8, 1.0, |_, _| 0.0).unwrap();
    let wheel = Hull::prism(0.5, 0.3, 16).unwrap();
    let apothem = 0.5 * (std::f32::consts::PI / 16.0).cos();
    let mut deepest = Vec::new();
    // The floor first (the mesh is the pair's A) and last (its B).
    for (speed, floor_first) in [(2.0f32, true), (4.0, true), (6.0, true), (6.0, false)] {
        let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings::default());
        let add_floor = |w: &mut World| {
            w.add_body(BodyDesc::new("floor", Shape::Mesh(Arc::new(floor.clone())), Vec3::ZERO).fixed()).unwrap()
        };
        if floor_first {
            add_floor(&mut w);
        }
        let mut d = BodyDesc::new("wheel", Shape::Hull(Arc::new(wheel.clone())), Vec3::new(-15.0, apothem, 0.0));
        // Axis along z, a face down (the prism's vertices sit at angles k·22.5°).
        d.rotation =
            Quat::from_rotation_x(std::f32::consts::FRAC_PI_2) * Quat::from_rotation_y(std::f32::consts::PI / 16.0);
        d = d.with_velocity(Vec3::new(speed, 0.0, 0.0));
        d.angular_velocity = Vec3::new(0.0, 0.0, -speed / apothem);
        let at = w.add_body(d).unwrap().index as usize;
        if !floor_first {
            add_floor(&mut w);
        }
        let mut worst = 0.0f32;
        for _ in 0..90 {
            w.step(1.0 / 60.0);
            let b = &w.bodies()[at];
            let low = wheel.vertices().iter().map(|v| b.pose.transform_point(*v).y).fold(f32::INFINITY, f32::min);
            worst = worst.max(-low);
        }
        // It rolled on: 1.5 s at its speed, less what each facet's landing takes (at 2 m/s
        // it goes 2 m of the 3).
        let x = w.bodies()[at].pose.pos.x + 15.0;
        assert!(x > 0.5 * speed && x < 1.05 * speed * 1.5, "at {speed} m/s it went {x} m");
        deepest.push(worst);
    }
    // Chosen by area alone (no motion), the wheel sank 10.2 and 14.2 mm at 4 and 6 m/s.
    assert!(deepest.iter().all(|&d| d < 1e-3), "deepest vertex below the floor at 2, 4, 6, 6 m/s: {deepest:?} m");
}

/// A cube leaning on a peak: one bottom edge on a flat floor, the bottom face 14° from the
/// floor and resting on the peak's top corner, frictionless, at rest or sliding at 1 or
/// 2 m/s away from the peak or 1 m/s towards it. The peak's corner is a candidate along
/// the cube's bottom face normal, the edge's corners over the floor along the floor's.
/// Within 18° of each other, the two once made one normal group: the solver held the
/// corners along the face's normal while the cube slid along the face, into the floor.
/// Kept apart, no corner goes 0.3 mm under the floor.
#[test]
fn a_cube_leaning_on_a_peak_keeps_its_corners_on_the_floor() {
    let (h, cell, half) = (0.2f32, 0.4f32, 0.5f32);
    let floor = generate::heightfield(20, 8, cell, |x, z| if x == 0.0 && z == 0.0 { h } else { 0.0 }).unwrap();
    let tilt = 14f32.to_radians();
    let mut worst = Vec::new();
    for speed in [0.0f32, 1.0, 2.0, -1.0] {
        let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings::default());
        w.add_body(BodyDesc::new("floor", Shape::Mesh(Arc::new(floor.clone())), Vec3::ZERO).fixed()).unwrap();
        // The bottom face rises at 14° from its low edge on the floor at x = h / tan 14° to
        // the peak at x = 0; turned about z.
        let edge_x = h / tilt.tan();
        let rot = Quat::from_rotation_z(-tilt);
        let low_edge = rot * Vec3::new(half, -half, 0.0);
        let centre = Vec3::new(edge_x, 0.0, 0.0) - low_edge;
        let cube = Shape::cuboid(Vec3::splat(half)).unwrap();
        let corners = cube.hull().expect("a box has a hull").vertices().to_vec();
        let mut d = BodyDesc::new("cube", cube, centre);
        d.rotation = rot;
        d.friction = 0.0;
        d = d.with_velocity(Vec3::new(speed, 0.0, 0.0));
        let at = w.add_body(d).unwrap().index as usize;
        let mut deepest = 0.0f32;
        for _ in 0..60 {
            w.step(1.0 / 60.0);
            let b = &w.bodies()[at];
            let low = corners.iter().map(|v| b.pose.transform_point(*v).y).fold(f32::INFINITY, f32::min);
            deepest = deepest.max(-low);
        }
        worst.push(deepest);
    }
    // With one normal shared the corners sank 1.37, 1.99, 1.70 and 0.67 mm.
    assert!(worst.iter().all(|&d| d < 3e-4), "deepest corner under the floor at 0, 1, 2, −1 m/s: {worst:?} m");
}

/// A cube turned 45° about x stands on one edge, across a ridge (two 30° slopes) and
/// δ = 5 mm under it: the ridge passes through the cube just inside that edge, equally
/// deep behind the edge's two faces (δ/√2). The contact is the edge pair's, as the
/// separating-axis test has it: along ridge × edge, straight up (whatever the angle the
/// edge crosses the ridge at), δ deep, at the midpoint of the two edges' closest points.
/// Read against either face, as before, the normal leant 45° off it, and a cube tumbling
/// over a heightfield's ridge sank into it while sliding along that face.
#[test]
fn a_cube_edge_across_a_ridge_is_held_along_both_edges_normal() {
    let roof = roof(30.0);
    let delta = 0.005f32;
    for turn in [0.0f32, 30.0, -55.0] {
        let rot = Quat::from_rotation_y(turn.to_radians()) * Quat::from_rotation_x(std::f32::consts::FRAC_PI_4);
        let at = Iso::new(Vec3::new(0.0, 0.4 * std::f32::consts::SQRT_2 - delta, 0.0), rot);
        let m = contact(&roof, &Shape::cuboid(Vec3::splat(0.4)).unwrap(), at);
        assert_eq!(m.points.len(), 1, "turned {turn}°: {m:?}");
        let p = m.points[0];
        assert!(m.normal.y > 0.99999, "turned {turn}°: normal {}", m.normal);
        assert!((p.depth - delta).abs() < 2e-5, "turned {turn}°: depth {} against {delta}", p.depth);
        assert!((p.position - Vec3::new(0.0, -0.5 * delta, 0.0)).length() < 1e-4, "turned {turn}°: at {}", p.position);
    }
}

/// A box and a ball slide without friction at 9 m/s along a straight ridge of a terrain that
/// waves across the slide only (0.3 m high, 8 m long waves, 1 m cells: the ridge at x = 2
/// runs along z through a corner every metre). Every face's normal is square to the slide,
/// and so is every normal a ridge corner really has: nothing may slow either body, and each
/// travels 9 m in a second. A corner ahead, flush with the box's bottom or beside the ball,
/// read along the ridge (from the box's leading face, or from the corner to the ball's
/// centre), caught each body every metre: the box ended at 1.5 m/s after 3.8 m, the ball
/// at 7.8 m/s after 8.6 m.
#[test]
fn bodies_sliding_along_a_straight_ridge_do_not_catch_on_its_corners() {
    let wave = |x: f32, _: f32| 0.3 * (std::f32::consts::TAU * x / 8.0).sin();
    let mesh = Arc::new(generate::heightfield(40, 40, 1.0, wave).unwrap());
    let bodies = [
        (Shape::cuboid(Vec3::new(1.0, 0.25, 0.25)).unwrap(), Vec3::new(2.0, 0.55, -9.0)),
        (Shape::Sphere { radius: 0.5 }, Vec3::new(2.2, 0.8, -9.0)),
    ];
    for (shape, start) in bodies {
        let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), Settings { sleeping: false, ..Default::default() });
        w.add_body(BodyDesc::new("terrain", Shape::Mesh(mesh.clone()), Vec3::ZERO).fixed().with_material(0.0, 0.0))
            .unwrap();
        let d = BodyDesc::new("slider", shape, start).with_material(0.0, 0.0).with_velocity(Vec3::new(0.0, 0.0, 9.0));
        let i = w.add_body(d).unwrap().index as usize;
        for _ in 0..60 {
            w.step(1.0 / 60.0);
        }
        let b = &w.bodies()[i];
        let travel = b.pose.pos.z - start.z;
        assert!((travel - 9.0).abs() < 0.01, "{}: slid {travel} m of 9 m", b.name);
        assert!((b.velocity.z - 9.0).abs() < 1e-3, "{}: {} m/s along the ridge at the end", b.name, b.velocity.z);
    }
}
