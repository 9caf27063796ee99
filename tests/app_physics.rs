//! The application drives the physics without changing it: stepping the pyramid through the
//! testbed (its history, plots sampling, pair watching and comparison machinery) gives the
//! same poses, bit for bit, as stepping the scene's world directly, and the same as the
//! engine gave when this test was written (the hash below; a change to the physics changes
//! it on purpose, a change to the app must not).

use contactlab::app::Testbed;
use contactlab::physics::World;
use contactlab::scene;

/// FNV-1a over the bits of every body's position and orientation.
fn hash_poses(world: &World, mut h: u64) -> u64 {
    for b in world.bodies() {
        let p = b.pose.pos;
        let q = b.pose.rot;
        for x in [p.x, p.y, p.z, q.x, q.y, q.z, q.w] {
            for byte in x.to_bits().to_le_bytes() {
                h = (h ^ byte as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
    }
    h
}

const STEPS: usize = 240;

/// The hash of every step's poses of `pyramid_20.ron` over [`STEPS`] steps, recorded before
/// the app was split into named parts, and again when the SIMD path's separation update and
/// friction rows were rearranged (issue 35: the same maths, other roundings), and when the
/// friction of pairs at rest was first settled to the least that holds them
/// (`physics::rest_friction`: the same push on each box, other roundings), and when the
/// contacts with the ground moved to the highest graph colours, solved last in each pass
/// (`physics::solver::colouring`: another Gauss–Seidel order), and when every other step
/// began to visit the moving pairs' colours last to first (`solver::iterative::Pass`:
/// another order again).
const PYRAMID_HASH: u64 = 0x53e5_583b_4f88_6aed;

#[test]
fn the_testbed_steps_the_pyramid_exactly_as_the_world_does() {
    let path = scene::scenes_dir().join("pyramid_20.ron");
    let loaded = scene::load(&path).unwrap();
    let mut direct = loaded.world.clone();
    let dt = loaded.timestep();
    let mut t = Testbed::new(loaded, Some(path));
    let (mut h_app, mut h_world) = (0xcbf2_9ce4_8422_2325u64, 0xcbf2_9ce4_8422_2325u64);
    for _ in 0..STEPS {
        t.step_once();
        direct.step(dt);
        h_app = hash_poses(t.world(), h_app);
        h_world = hash_poses(&direct, h_world);
    }
    assert_eq!(h_app, h_world, "the testbed's steps differ from the world's own");
    assert_eq!(h_app, PYRAMID_HASH, "the pyramid's poses differ from the recorded ones: {h_app:#x}");
}
