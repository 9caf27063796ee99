//! Once its buffers have grown, a world steps without touching the heap: every buffer is
//! kept and reused — on one, two and three threads (the worker threads' allocations count
//! too, and every stage is split between the threads). The world holds every kind of work a
//! step can have: box, sphere, capsule, hull and mesh contacts at rest, a joint chain, a
//! joint net large enough for the joints' graph colours and lanes, and a pendulum on a
//! pivot, all swinging, and a bullet that bounces between two walls for ever, so the
//! continuous stage sweeps in the counted steps too. This binary installs a counting global
//! allocator, so it holds only these two checks, and it runs without the test harness
//! (`harness = false` in Cargo.toml): the harness's own thread allocates when a test has run
//! for over a minute (its list of slow tests), which a loaded machine reached at three
//! threads and counted as the world's.
//!
//! A second check adds balls one at a time to a world of 50,000 still slabs, as Box3D's
//! large world does: the steps after each add grow no array that held one byte per body or
//! more, so no per-body array is copied (`physics/per_body.rs`).

mod common;
use common::*;
use contactlab::physics::{BodyDesc, Iso, JointDesc, JointKind, Settings, Shape, SolverMode, WORLD};
use glam::Vec3;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
/// Reallocations of a block of at least [`LARGE`] bytes: copies of a large array.
static LARGE_COPIES: AtomicUsize = AtomicUsize::new(0);
static LARGE: AtomicUsize = AtomicUsize::new(usize::MAX);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        if layout.size() >= LARGE.load(Ordering::SeqCst) {
            LARGE_COPIES.fetch_add(1, Ordering::SeqCst);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    settled_world_steps_without_allocating();
    println!("settled_world_steps_without_allocating: ok");
    bodies_added_to_a_large_world_copy_no_per_body_array();
    println!("bodies_added_to_a_large_world_copy_no_per_body_array: ok");
}

fn bodies_added_to_a_large_world_copy_no_per_body_array() {
    for threads in [1u32, 2] {
        // Sleeping on (the testbed's default) and off: the sleep stage's arrays too.
        for sleeping in [true, false] {
            let mut w = world(Settings { threads, sleeping, ..Default::default() });
            // 50,000 slabs in a 250 × 200 floor (not a power of two, so the arrays have
            // room past it), as Box3D's large world lays its own. (Far more slabs than balls:
            // the arrays of the balls' contacts stay below a byte per body.)
            let slab = Shape::cuboid(Vec3::new(0.5, 0.1, 0.5)).unwrap();
            for i in 0..50_000 {
                let at = Vec3::new((i % 250) as f32, -0.1, (i / 250) as f32);
                w.add_body(BodyDesc::new(format!("slab{i}"), slab.clone(), at).fixed()).unwrap();
            }
            let n = w.bodies().len();
            w.step(1.0 / 60.0);
            LARGE.store(n, Ordering::SeqCst);
            let (mut added, mut large) = (0, 0);
            // A ball every fifth step for 200 steps, then a second for the last to land.
            for k in 1..=260 {
                if k % 5 == 0 && k <= 200 {
                    let at = Vec3::new((7 * k % 250) as f32 + 0.25, 1.0, (3 * k % 200) as f32 + 0.25);
                    w.add_body(BodyDesc::new(format!("ball{k}"), Shape::Sphere { radius: 0.25 }, at)).unwrap();
                    added += 1;
                }
                let before = LARGE_COPIES.load(Ordering::SeqCst);
                w.step(1.0 / 60.0);
                large += LARGE_COPIES.load(Ordering::SeqCst) - before;
            }
            LARGE.store(usize::MAX, Ordering::SeqCst);
            assert_eq!(
                large, 0,
                "{threads} threads, sleeping {sleeping}: {large} arrays of {n} bytes or more copied in the steps after {added} balls were added"
            );
            // The balls fell onto the slabs and rest there.
            let resting = w.bodies()[n..].iter().filter(|b| (b.pose.pos.y - 0.25).abs() < 0.01).count();
            assert_eq!(resting, added, "every ball rests on the floor");
        }
    }
}

fn settled_world_steps_without_allocating() {
    // Each method; the scalar (textbook) path of the iterative one; and watched pairs
    // (the inspector's records) with recycling off, so they are clipped again every step.
    let configs = [
        (SolverMode::Iterative, true, 0.02, false),
        (SolverMode::Naive, true, 0.02, false),
        (SolverMode::Cyclone, true, 0.02, false),
        (SolverMode::Averaged, true, 0.02, false),
        (SolverMode::Iterative, false, 0.02, false),
        (SolverMode::Iterative, true, 0.0, true),
    ];
    let runs = configs.into_iter().flat_map(|c| [(c, 1u32), (c, 2), (c, 3)]);
    for ((mode, simd, recycle_distance, watch), threads) in runs {
        // Sleeping off so every stage runs on every body, every step.
        // Cyclone with passes that converge on resting contacts (at the seed's limits the
        // column sinks and walks, and the contacts it gains cost allocations; module docs
        // of solver/cyclone.rs); the other methods ignore these fields.
        let mut w = world(Settings {
            mode,
            simd,
            recycle_distance,
            sleeping: false,
            cyclone_velocity_iterations: 50,
            cyclone_velocity_epsilon: 1e-4,
            cyclone_position_epsilon: 1e-4,
            threads,
            ..Default::default()
        });
        // Every stage shared out between the threads, however small.
        w.set_fine_split(true);
        ground(&mut w);
        stack(&mut w, 10);
        w.add_body(BodyDesc::new("ball", Shape::Sphere { radius: 0.3 }, Vec3::new(3.0, 0.3, 0.0))).unwrap();
        w.add_body(BodyDesc::new("pill", Shape::Capsule { radius: 0.2, half_height: 0.4 }, Vec3::new(-3.0, 0.6, 0.0)))
            .unwrap();
        let hull = contactlab::physics::Hull::random(24, 0.5, 3).unwrap();
        w.add_body(BodyDesc::new("rock", Shape::Hull(std::sync::Arc::new(hull)), Vec3::new(0.0, 0.6, 3.0))).unwrap();
        // A swinging chain of four balls on joints (ball, hinge, distance, weld) from the world.
        let kinds = [
            JointKind::Ball,
            JointKind::Hinge { axis: Vec3::Z, limits: Some((-1.0, 1.0)), motor: None },
            JointKind::Distance { anchor_b: Vec3::new(6.6, 3.0, 0.0), length: 0.3, min: None, max: None, spring: None },
            JointKind::Weld { linear_hertz: 0.0, angular_hertz: 4.0, damping_ratio: 0.5 },
        ];
        let mut prev = WORLD;
        for (k, kind) in kinds.into_iter().enumerate() {
            let x = 6.0 + 0.3 * k as f32;
            let d = BodyDesc::new(format!("link{k}"), Shape::Sphere { radius: 0.1 }, Vec3::new(x + 0.3, 3.0, 0.0));
            let b = w.add_body(d).unwrap().index;
            w.add_joint(JointDesc::new(format!("j{k}"), kind, prev, b, Vec3::new(x, 3.0, 0.0))).unwrap();
            prev = b;
        }
        // A V valley of two 30° slopes (a static triangle mesh) with a box resting on both:
        // the mesh pair has a further manifold, which the threads hand back in pair order.
        let h = 1.7321;
        let v = vec![
            Vec3::new(-3.0, h, -1.0),
            Vec3::new(-3.0, h, 1.0),
            Vec3::new(0.0, 0.0, 1.0),
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(3.0, h, 1.0),
            Vec3::new(3.0, h, -1.0),
        ];
        let tris = vec![[0, 1, 2], [0, 2, 3], [3, 2, 4], [3, 4, 5]];
        let valley = Shape::Mesh(std::sync::Arc::new(contactlab::physics::mesh::TriMesh::new(v, tris).unwrap()));
        let at = Vec3::new(0.0, 1.0, -10.0);
        let valley = w.add_body(BodyDesc::new("valley", valley, at).fixed()).unwrap().index;
        let wedged = BodyDesc::new("wedged", Shape::cuboid(Vec3::splat(0.25)).unwrap(), at + Vec3::new(0.0, 0.6, 0.0));
        let wedged = w.add_body(wedged).unwrap().index;
        // A compound table on four legs (four manifolds with the ground, handed back in pair
        // order like the valley's) and a dumbbell of two balls on a rod (its contacts take
        // their child's rounding, and it is never recycled).
        let leg = Shape::cuboid(Vec3::new(0.05, 0.35, 0.05)).unwrap();
        let mut parts =
            vec![(Iso::from_translation(Vec3::new(0.0, 0.75, 0.0)), Shape::cuboid(Vec3::new(0.6, 0.05, 0.4)).unwrap())];
        for (x, z) in [(-0.5, -0.3), (0.5, -0.3), (-0.5, 0.3), (0.5, 0.3)] {
            parts.push((Iso::from_translation(Vec3::new(x, 0.35, z)), leg.clone()));
        }
        let table = Shape::Compound(std::sync::Arc::new(contactlab::physics::Compound::new(parts).unwrap()));
        w.add_body(BodyDesc::new("table", table, Vec3::new(-3.0, 0.0, -4.0))).unwrap();
        let dumbbell = contactlab::physics::Compound::new(vec![
            (Iso::from_translation(Vec3::new(-0.4, 0.0, 0.0)), Shape::Sphere { radius: 0.2 }),
            (Iso::from_translation(Vec3::new(0.4, 0.0, 0.0)), Shape::Sphere { radius: 0.2 }),
        ])
        .unwrap();
        w.add_body(BodyDesc::new(
            "dumbbell",
            Shape::Compound(std::sync::Arc::new(dumbbell)),
            Vec3::new(3.0, 0.2, -4.0),
        ))
        .unwrap();
        // A pendulum hung from the world alone: it turns about its pivot (`world/pivots.rs`).
        let bob = w.add_body(BodyDesc::new("bob", Shape::Sphere { radius: 0.1 }, Vec3::new(-6.0, 2.0, 0.5))).unwrap();
        w.add_joint(JointDesc::new("pivot", JointKind::Ball, WORLD, bob.index, Vec3::new(-6.0, 3.0, 0.0))).unwrap();
        // A net of 8 × 8 balls on ball joints, hung from the world by its top row: 120
        // joints, past `joint::colours::COLOUR_FROM`, so the joints are solved by colour in
        // lanes.
        let (side, gap) = (8usize, 0.3f32);
        let origin = Vec3::new(-15.0, 4.0, -12.0);
        let net = ball_net(&mut w, (side, side), origin, [Vec3::NEG_Y * gap, Vec3::X * gap], 0.1);
        for (col, &b) in net[..side].iter().enumerate() {
            let at = origin + Vec3::new(gap * col as f32, 0.5 * gap, 0.0);
            w.add_joint(JointDesc::new(format!("hang{col}"), JointKind::Ball, WORLD, b, at)).unwrap();
        }
        assert_eq!(w.joints().len(), 5 + 120);
        // A bullet ball sliding without friction between two walls 4 m apart at 40 m/s and
        // bouncing off them with restitution 1: it never settles, and it crosses two thirds
        // of a metre a step, so the continuous stage sweeps it.
        for x in [12.0, 16.2] {
            let wall = BodyDesc::new(
                format!("wall{x}"),
                Shape::cuboid(Vec3::new(0.1, 0.5, 1.0)).unwrap(),
                Vec3::new(x, 0.5, 12.0),
            );
            w.add_body(wall.fixed().with_material(0.0, 1.0)).unwrap();
        }
        let mut shot = BodyDesc::new("shot", Shape::Sphere { radius: 0.1 }, Vec3::new(14.0, 0.1, 12.0))
            .with_velocity(Vec3::new(40.0, 0.0, 0.0))
            .with_material(0.0, 1.0);
        shot.bullet = true;
        let shot = w.add_body(shot).unwrap().index as usize;
        if watch {
            // ground–bottom box, two boxes of the stack, ground–rock.
            w.set_watched(&[(0, 1), (1, 2), (0, 13)]);
        }
        for _ in 0..240 {
            w.step(1.0 / 60.0);
        }
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        let mut sweeps = 0;
        for _ in 0..120 {
            w.step(1.0 / 60.0);
            sweeps += w.continuous().queries.len();
        }
        let after = ALLOCATIONS.load(Ordering::SeqCst);
        assert_eq!(
            after - before,
            0,
            "{mode:?} simd {simd} watch {watch}, {threads} threads: {} allocations in 120 settled steps",
            after - before
        );
        assert!(w.stats().points >= 40, "the world has contacts to work on");
        let touching = w
            .contacts()
            .iter()
            .filter(|c| (c.a, c.b) == (valley.min(wedged), valley.max(wedged)) && !c.manifold.points.is_empty());
        let normals: Vec<Vec3> = touching.map(|c| c.manifold.normal).collect();
        assert_eq!(normals.len(), 2, "the box in the valley rests on both slopes, a manifold each: {normals:?}");
        assert_eq!(w.threads(), threads as usize);
        let coloured = w.joint_graph_colours().iter().filter(|c| c.is_some()).count();
        assert_eq!(coloured, w.joints().len(), "every joint was solved in a graph colour");
        let speed = w.bodies()[shot].velocity.x.abs();
        // Every configuration measured 40 m/s here (restitution 1 keeps the speed) and
        // 276–300 queries in the 120 steps.
        assert!(speed > 30.0 && sweeps >= 60, "the shot still flies ({speed} m/s) and is swept ({sweeps} queries)");
        if watch {
            let clipped = w.watched().iter().filter(|r| r.clip_step == w.step_count).count();
            assert_eq!(clipped, 3, "every watched pair was clipped in the last step");
        }
    }
}
