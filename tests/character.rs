//! Fauerby's character in a world: walking a scripted path on a box floor, falling onto it,
//! sliding along a box wall, and pushing a dynamic box (`world/characters.rs`).

use contactlab::physics::world::CharacterDesc;
use contactlab::physics::{BodyDesc, Settings, Shape, World};
use glam::Vec3;

const DT: f32 = 1.0 / 60.0;

fn ground(w: &mut World) {
    let slab = Shape::cuboid(Vec3::new(20.0, 0.5, 20.0)).unwrap();
    w.add_body(BodyDesc::new("ground", slab, Vec3::new(0.0, -0.5, 0.0)).fixed()).unwrap();
}

/// Dropped from 1 m above the floor, the character falls freely (y = y₀ − g·t²/2, step by
/// step: the fall velocity grows by g·dt, as symplectic Euler), lands and stays on it, then
/// walks its path at its speed to the last waypoint and stops there.
#[test]
fn it_falls_lands_and_walks_its_path() {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings::default());
    ground(&mut w);
    let radii = Vec3::new(0.3, 0.9, 0.3);
    let mut d = CharacterDesc::new("walker", radii, Vec3::new(0.0, 1.9, 0.0));
    d.path = vec![Vec3::new(4.0, 0.0, 0.0), Vec3::new(4.0, 0.0, 3.0)];
    d.speed = 2.0;
    w.add_character(d).unwrap();
    // Free fall for 0.2 s (the floor is 1 m below the ellipsoid's bottom: reached at 0.45 s).
    let mut want_y = 1.9f32;
    let mut v = 0.0f32;
    for _ in 0..12 {
        w.step(DT);
        v += 9.81 * DT;
        want_y -= v * DT;
    }
    let c = &w.characters()[0];
    assert!((c.body.position.y - want_y).abs() < 1e-4, "fall: {} vs {want_y}", c.body.position.y);
    for _ in 0..600 {
        w.step(DT);
    }
    let c = &w.characters()[0];
    println!("after 10 s: {} (on ground {})", c.body.position, c.body.on_ground);
    assert!(c.body.on_ground);
    // Standing on the floor: the bottom of the ellipsoid within the very-close distance.
    let gap = c.body.position.y - radii.y;
    assert!((0.0..=0.0051).contains(&gap), "gap to the floor {gap}");
    // At the last waypoint (reached within one step's walk), no longer walking.
    let end = Vec3::new(4.0, c.body.position.y, 3.0);
    assert!((c.body.position - end).length() < 2.0 * DT + 1e-3, "{}", c.body.position);
    assert_eq!(c.walk, Vec3::ZERO);
}

/// Walking at 3 m/s into a static box wall at 45°, it slides along it at 3·cos 45°.
#[test]
fn it_slides_along_a_box_wall() {
    let mut w = World::new(Vec3::ZERO, Settings::default());
    let wall = Shape::cuboid(Vec3::new(0.5, 5.0, 20.0)).unwrap();
    w.add_body(BodyDesc::new("wall", wall, Vec3::new(-0.5, 0.0, 0.0)).fixed()).unwrap();
    let i = w.add_character(CharacterDesc::new("c", Vec3::splat(0.5), Vec3::new(1.0, 0.0, 0.0))).unwrap();
    let v = Vec3::new(-1.0, 0.0, 1.0).normalize() * 3.0;
    w.character_mut(i).unwrap().walk = v;
    for _ in 0..60 {
        w.step(DT);
    }
    let z0 = w.characters()[i].body.position.z;
    for _ in 0..60 {
        w.step(DT);
    }
    let along = (w.characters()[i].body.position.z - z0) / (60.0 * DT);
    let want = 3.0 * std::f32::consts::FRAC_1_SQRT_2;
    println!("slide speed {along} m/s against {want}");
    assert!((along - want).abs() < 0.01 * want);
    assert!(w.characters()[i].body.position.x >= 0.5, "never into the wall");
}

/// Walking at 1.5 m/s into a 40 kg crate 2 m tall (pushed just below its centre, so it
/// slides rather than tips), the character pushes it along: the crate moves in +x, never
/// faster than the walk (an inelastic push), and each recorded impulse points along +x and is
/// at most the impact impulse of an 80 kg body closing at 1.5 m/s, m·s = 120 N·s, and at most
/// 2 kN · dt.
#[test]
fn it_pushes_a_dynamic_box() {
    let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings::default());
    ground(&mut w);
    let tall = Shape::cuboid(Vec3::new(0.5, 1.0, 0.5)).unwrap();
    let mut bd = BodyDesc::new("crate", tall, Vec3::new(2.0, 1.0, 0.0));
    bd.mass = Some(40.0);
    let crate_ = w.add_body(bd).unwrap().index as usize;
    let mut d = CharacterDesc::new("pusher", Vec3::new(0.3, 0.9, 0.3), Vec3::new(0.0, 0.905, 0.0));
    d.path = vec![Vec3::new(10.0, 0.0, 0.0)];
    d.speed = 1.5;
    w.add_character(d).unwrap();
    let x0 = w.bodies()[crate_].pose.pos.x;
    let mut pushes = 0;
    for _ in 0..180 {
        w.step(DT);
        for p in &w.characters()[0].pushes {
            pushes += 1;
            assert_eq!(p.body as usize, crate_);
            // Along the walk, within 45°: the normal of the face touched tilts when the crate
            // tips (the push is above its centre) and turns as it slides.
            assert!(p.impulse.x >= 0.7 * p.impulse.length(), "{:?}", p.impulse);
            // An 80 kg push closing at most at the walking speed, 2 kN at most.
            assert!(p.impulse.length() <= (80.0 * 1.5f32).min(2000.0 * DT) + 1e-3, "{:?}", p.impulse);
        }
    }
    let b = &w.bodies()[crate_];
    println!("crate moved {} m, speed {}, {pushes} pushes", b.pose.pos.x - x0, b.velocity);
    assert!(pushes > 10);
    assert!(b.pose.pos.x - x0 > 1.0, "the crate is pushed along: {}", b.pose.pos.x - x0);
    assert!(b.velocity.x <= 1.5 + 1e-3, "never faster than the walk: {}", b.velocity.x);
    // The character stays behind the crate (never inside it).
    let c = &w.characters()[0];
    assert!(c.body.position.x + 0.3 <= b.pose.pos.x - 0.5 + 0.02, "{} vs crate {}", c.body.position.x, b.pose.pos.x);
}

#[test]
fn bad_characters_are_refused() {
    let mut w = World::default();
    let e = w.add_character(CharacterDesc::new("tiny", Vec3::new(0.001, 1.0, 1.0), Vec3::ZERO)).unwrap_err();
    assert!(e.to_string().contains("tiny") && e.to_string().contains("radii"), "{e}");
    let mut d = CharacterDesc::new("fast", Vec3::ONE, Vec3::ZERO);
    d.speed = 500.0;
    assert!(w.add_character(d).unwrap_err().to_string().contains("speed"));
    let e = w.add_character(CharacterDesc::new("nan", Vec3::ONE, Vec3::NAN)).unwrap_err();
    assert!(e.to_string().contains("finite"), "{e}");
    assert!(w.characters().is_empty());
}

/// A scene file's characters: loaded with their paths; bad values name the character and
/// the field.
#[test]
fn scene_files_carry_characters() {
    let ok = r#"Scene(name: "c", bodies: [(name: "g", shape: Box(half_extents: (10.0, 0.5, 10.0)), kind: Static, position: (0.0, -0.5, 0.0))],
        characters: [(name: "walker", position: (0.0, 1.0, 0.0), path: [(3.0, 0.0, 0.0)], speed: 2.0)])"#;
    let mut s = contactlab::scene::load_str(ok, "<ok>").unwrap();
    assert_eq!(s.world.characters().len(), 1);
    assert_eq!(s.world.characters()[0].body.radii, Vec3::new(0.3, 0.9, 0.3));
    for _ in 0..120 {
        s.world.step(DT);
    }
    let p = s.world.characters()[0].body.position;
    assert!((p.x - 3.0).abs() < 2.0 * 2.0 * DT && p.y > 0.9 - 1e-3, "{p}");
    let bad =
        r#"Scene(name: "c", characters: [(name: "walker", radii: (0.001, 0.9, 0.3), position: (0.0, 1.0, 0.0))])"#;
    let e = contactlab::scene::load_str(bad, "<bad>").unwrap_err().to_string();
    assert!(e.contains("character 'walker'") && e.contains("'radii'"), "{e}");
    let dup = r#"Scene(name: "c", characters: [(name: "a", position: (0.0, 1.0, 0.0)), (name: "a", position: (2.0, 1.0, 0.0))])"#;
    let e = contactlab::scene::load_str(dup, "<dup>").unwrap_err().to_string();
    assert!(e.contains("unique"), "{e}");
}

/// The shipped stairs-and-ramps scene: the walkers collide with static *mesh bodies*
/// (stairs and ramps as triangle meshes), climb the 20 cm steps and the 20° and 40° ramps
/// (to the heights the geometry gives), and cannot walk up the 55° ramp (steeper than the
/// 45° limit): its face acts as a wall.
#[test]
fn walkers_climb_stairs_and_walkable_ramps_but_not_a_steep_one() {
    let path = contactlab::scene::scenes_dir().join("stairs_and_ramps.ron");
    let mut s = contactlab::scene::load(&path).unwrap();
    let mut top = [f32::MIN; 4];
    for step in 0..240 {
        s.world.step(1.0 / 60.0);
        // After they have landed (they start 5 cm up).
        for (k, c) in s.world.characters().iter().enumerate().filter(|_| step >= 30) {
            top[k] = top[k].max(c.body.position.y);
        }
    }
    let ground = 0.9; // the centre standing on the ground (radius 0.9 plus the very-close gap)
                      // Stairs: 8 steps of 0.2 m; at 1.5 m/s for 4 s it reaches the top tread (1.6 m up).
    assert!(top[0] > ground + 1.35, "stairs: rose {} m", top[0] - ground);
    // Ramps of 20° (6 m long) and 40° (5 m long): the ellipsoid rides up them.
    assert!(top[1] > ground + 1.0, "20° ramp: rose {} m", top[1] - ground);
    assert!(top[2] > ground + 2.0, "40° ramp: rose {} m", top[2] - ground);
    // 55°: never more than the very-close distance above the ground.
    assert!(top[3] < ground + 0.02, "55° ramp: rose {} m", top[3] - ground);
    let steep = &s.world.characters()[3];
    assert!(steep.body.position.x < 0.0, "stopped at the foot of the 55° ramp (x = {})", steep.body.position.x);
}

/// Standing on a kinematic platform, the character rides it: a deck that starts sliding at
/// (1, 0, 0.5) m/s takes it along at its speed, and a lift that starts sinking at 0.5 m/s
/// takes it down standing, from the first step on (`World::platform_carry`).
#[test]
fn it_rides_a_moving_kinematic_platform() {
    for (name, v) in [("deck", Vec3::new(1.0, 0.0, 0.5)), ("lift", Vec3::new(0.0, -0.5, 0.0))] {
        let mut w = World::new(Vec3::new(0.0, -9.81, 0.0), Settings::default());
        let slab = Shape::cuboid(Vec3::new(3.0, 0.25, 3.0)).unwrap();
        let p =
            w.add_body(BodyDesc::new(name, slab, Vec3::new(0.0, 4.0, 0.0)).kinematic(Vec3::ZERO, Vec3::ZERO)).unwrap();
        let radii = Vec3::new(0.3, 0.9, 0.3);
        let i = w.add_character(CharacterDesc::new("rider", radii, Vec3::new(0.0, 4.25 + 0.9 + 0.002, 0.0))).unwrap();
        // Standing on it at rest, then it starts.
        for _ in 0..30 {
            w.step(DT);
        }
        assert!(w.characters()[i].body.on_ground);
        assert!(w.set_kinematic_velocity(p, v, Vec3::ZERO));
        let x0 = w.characters()[i].body.position.x;
        let start = w.characters()[i].body.position - w.body(p).unwrap().pose.pos;
        for step in 0..120 {
            w.step(DT);
            let c = &w.characters()[i];
            assert!(c.body.on_ground, "{name}, step {step}: off the platform at {}", c.body.position);
            // Where it stood on the platform, to a few millimetres (the very-close distance
            // and one step's settling).
            let moved = c.body.position - w.body(p).unwrap().pose.pos - start;
            assert!(moved.length() < 0.006, "{name}, step {step}: {moved} off where it stood");
        }
        // It went 2 s at the platform's speed.
        let travelled = w.characters()[i].body.position.x - x0;
        assert!((travelled - 2.0 * v.x).abs() < 0.01, "{name}: rode {travelled} m along x");
    }
}
