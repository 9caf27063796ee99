//! The parallel step (`physics/parallel.rs`): the same scene and settings give bit-identical
//! worlds at 1, 2, 3 and 4 threads — every pose, velocity, sleep state, contact point and
//! stored impulse, compared through a hash of their bits after every step. The worlds split
//! every stage into blocks of one item (`World::set_fine_split`), so even these small scenes
//! take every parallel path with the most interleaving; one larger pile, and a few
//! compounds on a terrain, also run with the ordinary block sizes. History scrubbing and the comparison's sides stay bit-exact with
//! threads on.

mod common;
use common::*;
use contactlab::app::Testbed;
use contactlab::physics::{BodyDesc, Settings, SolverMode, World};
use contactlab::scene;
use glam::{Quat, Vec3};

/// Fingerprints after each of `steps` steps of `make()` run on `threads` threads.
/// With several threads, the other threads must have taken blocks of work (their time on
/// shared-out blocks, from the stage profile), or the run would prove nothing.
fn run(make: &dyn Fn() -> World, threads: u32, fine: bool, steps: usize) -> Vec<u64> {
    let mut w = make();
    w.settings.threads = threads;
    w.set_fine_split(fine);
    let mut others_ms = 0.0f32;
    let out = (0..steps)
        .map(|_| {
            w.step(1.0 / 60.0);
            assert_eq!(w.threads(), threads as usize);
            others_ms +=
                w.profile.thread_ms.iter().map(|row| row[1..threads as usize].iter().sum::<f32>()).sum::<f32>();
            fingerprint(&w)
        })
        .collect();
    assert!(threads == 1 || others_ms > 0.0, "{threads} threads: the other threads took no block");
    out
}

/// Runs `make()` at 1–4 threads and names the first step where a count differs.
fn same_at_every_thread_count(name: &str, make: &dyn Fn() -> World, fine: bool, steps: usize) {
    let one = run(make, 1, fine, steps);
    for threads in 2..=4 {
        let other = run(make, threads, fine, steps);
        if let Some(k) = one.iter().zip(&other).position(|(a, b)| a != b) {
            panic!("{name}: {threads} threads differ from one thread from step {}", k + 1);
        }
    }
}

/// Time-of-impact queries the continuous stage makes over `steps` steps of `w`.
fn toi_queries(mut w: World, steps: usize) -> usize {
    (0..steps)
        .map(|_| {
            w.step(1.0 / 60.0);
            w.continuous().queries.len()
        })
        .sum()
}

fn scene_world(file: &str) -> World {
    scene::load(&scene::scenes_dir().join(file)).unwrap().world
}

/// A pile of `n` boxes of three sizes dropped turned onto the ground, in a grid.
fn box_pile(n: usize, settings: Settings) -> World {
    let mut w = world(settings);
    ground(&mut w);
    let side = (n as f32).sqrt().ceil() as usize;
    for i in 0..n {
        let (x, z, y) = ((i % side) as f32, ((i / side) % side) as f32, (i / (side * side)) as f32);
        let h = [0.25, 0.3, 0.35][i % 3];
        let rot = Quat::from_euler(glam::EulerRot::XYZ, 0.3 * i as f32, 0.7 * i as f32, 0.0);
        let at =
            Vec3::new(0.8 * x - 0.4 * side as f32, 0.5 + 0.8 * y + 0.1 * (i % 7) as f32, 0.8 * z - 0.4 * side as f32);
        w.add_body(BodyDesc::new(format!("b{i}"), cube(h), at).with_rotation(rot)).unwrap();
    }
    w
}

/// A grid of spheres on ball joints, its corners held (the peers' joint grid, smaller).
fn joint_grid(n: usize) -> World {
    use contactlab::physics::{JointDesc, JointKind, WORLD};
    let mut w = world(Settings::default());
    let net = ball_net(&mut w, (n, n), Vec3::new(0.0, 10.0, 0.0), [Vec3::X * 0.5, Vec3::Z * 0.5], 0.2);
    for (k, i) in [0, n - 1].into_iter().enumerate() {
        let b = net[i * n];
        let at = w.bodies()[b as usize].pose.pos;
        w.add_joint(JointDesc::new(format!("hold{k}"), JointKind::Ball, WORLD, b, at)).unwrap();
    }
    w
}

#[test]
fn the_pyramid_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("pyramid_20", &|| scene_world("pyramid_20.ron"), true, 300);
}

#[test]
fn a_box_pile_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("box pile", &|| box_pile(120, Settings::default()), true, 300);
}

#[test]
fn a_hull_pile_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("hull_pile", &|| scene_world("hull_pile.ron"), true, 300);
}

#[test]
fn the_joint_grid_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("joint grid", &|| joint_grid(10), true, 300);
}

#[test]
fn mesh_scenes_are_the_same_at_every_thread_count() {
    for file in ["heightfield.ron", "v_valley.ron"] {
        same_at_every_thread_count(file, &|| scene_world(file), true, 300);
    }
}

#[test]
fn a_kinematic_turntable_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("turntable", &|| scene_world("turntable.ron"), true, 300);
}

#[test]
fn compound_bodies_are_the_same_at_every_thread_count() {
    same_at_every_thread_count("compounds", &|| scene_world("compounds.ron"), true, 300);
}

#[test]
fn the_barrage_and_the_bullets_are_the_same_at_every_thread_count() {
    for file in ["bullet_wall.ron", "bullet_stack.ron", "spheres_and_capsules.ron"] {
        same_at_every_thread_count(file, &|| scene_world(file), true, 300);
    }
}

/// The peers' barrage world itself (`scene::stock::barrage`, here with 60 shots): spheres
/// and spinning cubes at 80–200 m/s fired into a pile in a closed room, so continuous sweeps,
/// bounces off the walls and impacts that share a body all run on the threads.
#[test]
fn the_stock_barrage_is_the_same_at_every_thread_count() {
    let make = || contactlab::scene::stock::barrage(60, Settings::default());
    // The run must have shots that need the continuous stage, or it would show little.
    let queries = toi_queries(make(), 60);
    assert!(queries > 60, "barrage: only {queries} time-of-impact queries in 60 steps");
    same_at_every_thread_count("barrage 60", &make, true, 300);
}

/// The sweeps of the continuous stage run on the threads and their queries are gathered in
/// body order: the step's record (every query, its iterations, every event) is the same at
/// every thread count, not only the bodies.
#[test]
fn the_continuous_records_are_the_same_at_every_thread_count() {
    for file in ["bullet_wall.ron", "bullet_stack.ron"] {
        let records = |threads: u32| {
            let mut w = scene_world(file);
            w.settings.threads = threads;
            w.set_fine_split(true);
            (0..240)
                .map(|_| {
                    w.step(1.0 / 60.0);
                    format!("{:?}", w.continuous())
                })
                .collect::<Vec<_>>()
        };
        let one = records(1);
        let queries = toi_queries(scene_world(file), 240);
        assert!(queries > 20, "{file}: only {queries} time-of-impact queries, too few to show anything");
        for threads in 2..=4 {
            if let Some(k) = one.iter().zip(&records(threads)).position(|(a, b)| a != b) {
                panic!("{file}: the continuous record at {threads} threads differs from step {}", k + 1);
            }
        }
    }
}

/// Every method, and the textbook scalar path, on a pile: the stages they share (narrow
/// phase, prepare, integration) are parallel in each.
#[test]
fn every_method_is_the_same_at_every_thread_count() {
    for (mode, simd) in [
        (SolverMode::Iterative, false),
        (SolverMode::Naive, true),
        (SolverMode::Cyclone, true),
        (SolverMode::Averaged, true),
    ] {
        let settings = Settings { mode, simd, ..Default::default() };
        same_at_every_thread_count(&format!("{mode:?} simd {simd}"), &|| box_pile(60, settings), true, 150);
    }
}

/// With the ordinary block sizes a pile of 600 boxes splits its stages too (and the
/// thresholds that keep small work on the calling thread change nothing).
#[test]
fn a_large_pile_with_ordinary_blocks_is_the_same_at_every_thread_count() {
    same_at_every_thread_count("box pile 600", &|| box_pile(600, Settings::default()), false, 120);
}

/// The window's history re-simulates from snapshots: with threads on, scrubbing lands on
/// the one-thread straight run's world bit for bit (the shuttle: a kinematic body on its
/// path, whose place on it the snapshots keep).
#[test]
fn history_scrubbing_with_threads_lands_on_the_one_thread_run() {
    for file in ["dominoes.ron", "shuttle.ron"] {
        let path = scene::scenes_dir().join(file);
        let make = |threads: u32| {
            let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path.clone()));
            t.world_mut().settings.threads = threads;
            t.world_mut().set_fine_split(true);
            t
        };
        let mut one = make(1);
        let mut want = vec![fingerprint(one.world())];
        for _ in 0..300 {
            one.step_once();
            want.push(fingerprint(one.world()));
        }
        let mut t = make(3);
        t.session.history.budget = 4 * t.world().snapshot_bytes().max(64 << 10);
        for _ in 0..300 {
            t.step_once();
        }
        assert_eq!(fingerprint(t.world()), want[300], "{file}");
        for target in [150, 37, 0, 299, 250, 120] {
            t.seek(target);
            assert_eq!(t.world().step_count, target);
            assert_eq!(fingerprint(t.world()), want[target as usize], "{file} at step {target}");
        }
    }
}

/// A comparison of the four methods with threads on: every side, stepped in lockstep under
/// side A's settings (three threads, so all four run on three), is bit for bit the same
/// side of the same comparison on one thread, after every step and after scrubbing the
/// history back and forth.
#[test]
fn comparison_sides_with_threads_match_the_one_thread_comparison() {
    let file = "dominoes.ron";
    let path = scene::scenes_dir().join(file);
    let modes = [SolverMode::Iterative, SolverMode::Naive, SolverMode::Cyclone, SolverMode::Averaged];
    let make = |threads: u32| {
        let mut t = Testbed::new(scene::load(&path).unwrap(), Some(path.clone()));
        t.world_mut().settings.threads = threads;
        t.world_mut().set_fine_split(true);
        t.set_sides(&modes);
        assert_eq!(t.sides.modes(), modes);
        t
    };
    let sides = |t: &Testbed| t.sides.iter().map(|s| fingerprint(&s.world)).collect::<Vec<_>>();
    let mut one = make(1);
    let mut want = vec![sides(&one)];
    for _ in 0..150 {
        one.step_once();
        want.push(sides(&one));
    }
    // The methods must give four different worlds, or the sides could be mixed up unseen.
    let last = &want[150];
    for i in 0..last.len() {
        for j in i + 1..last.len() {
            assert_ne!(last[i], last[j], "sides {i} and {j} ended the same");
        }
    }
    let mut t = make(3);
    let mut others_ms = 0.0f32;
    for (step, want) in want.iter().enumerate().skip(1) {
        t.step_once();
        assert!(t.sides.iter().all(|s| s.world.threads() == 3));
        assert_eq!(&sides(&t), want, "at step {step}");
        others_ms += t
            .sides
            .iter()
            .map(|s| s.world.profile.thread_ms.iter().map(|row| row[1] + row[2]).sum::<f32>())
            .sum::<f32>();
    }
    assert!(others_ms > 0.0, "the other two threads took no block of any side's step");
    for target in [90, 12, 149, 0, 150] {
        t.seek(target);
        assert_eq!(t.world().step_count, target);
        assert_eq!(sides(&t), want[target as usize], "scrubbed to step {target}");
    }
}

/// Six logs of five boxes each (compounds) rolling down a wavy terrain (a mesh): a dozen
/// pairs, each a log's children or the triangles under them through the narrow phase. With
/// the ordinary block sizes (a world with such pairs takes blocks of four pairs, where
/// others take 64) every step is the same at 1–4 threads as on one.
#[test]
fn a_few_compounds_on_a_mesh_are_the_same_at_every_thread_count_with_ordinary_blocks() {
    use contactlab::physics::{Compound, Iso, Shape};
    let make = || {
        let wave = |x: f32, z: f32| 0.3 * (0.8 * x).sin() * (0.6 * z).cos() - 0.05 * x;
        let mesh = contactlab::physics::mesh::generate::heightfield(30, 30, 1.0, wave).unwrap();
        let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), Settings { sleeping: false, ..Default::default() });
        w.add_body(BodyDesc::new("terrain", Shape::Mesh(std::sync::Arc::new(mesh)), Vec3::ZERO).fixed()).unwrap();
        let part = Shape::cuboid(Vec3::new(0.4, 0.2, 0.2)).unwrap();
        let children =
            (0..5).map(|k| (Iso::new(Vec3::new(0.8 * k as f32 - 1.6, 0.0, 0.0), Quat::IDENTITY), part.clone()));
        let log = Shape::Compound(std::sync::Arc::new(Compound::new(children.collect()).unwrap()));
        for k in 0..6 {
            let at = Vec3::new(-4.0 + 1.5 * k as f32, 1.5, -6.0 + 2.0 * k as f32);
            w.add_body(BodyDesc::new(format!("log{k}"), log.clone(), at).with_angular_velocity(Vec3::Y)).unwrap();
        }
        w
    };
    // Compared directly: `run` also asks that the other threads joined a round, which so
    // small a world cannot promise on a loaded machine at three and four threads.
    let prints = |threads: u32| {
        let mut w = make();
        w.settings.threads = threads;
        (0..200)
            .map(|_| {
                w.step(1.0 / 60.0);
                fingerprint(&w)
            })
            .collect::<Vec<u64>>()
    };
    let one = prints(1);
    for threads in 2..=4 {
        let other = prints(threads);
        if let Some(k) = one.iter().zip(&other).position(|(a, b)| a != b) {
            panic!("logs on a terrain: {threads} threads differ from one thread from step {}", k + 1);
        }
    }
}
