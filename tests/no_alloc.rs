//! A settled world steps without touching the heap: every buffer is kept and reused — on
//! one thread and on two (the worker thread's allocations count too, and every stage is
//! split between the threads). This binary installs a counting global allocator, so it
//! holds only this test.

mod common;
use common::*;
use contactlab::physics::{BodyDesc, JointDesc, JointKind, Settings, Shape, SolverMode, WORLD};
use glam::Vec3;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

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
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
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
    let runs = configs.into_iter().flat_map(|c| [(c, 1u32), (c, 2)]);
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
        // A pendulum hung from the world alone: it turns about its pivot (`world/pivots.rs`).
        let bob = w.add_body(BodyDesc::new("bob", Shape::Sphere { radius: 0.1 }, Vec3::new(-6.0, 2.0, 0.5))).unwrap();
        w.add_joint(JointDesc::new("pivot", JointKind::Ball, WORLD, bob.index, Vec3::new(-6.0, 3.0, 0.0))).unwrap();
        if watch {
            // ground–bottom box, two boxes of the stack, ground–rock.
            w.set_watched(&[(0, 1), (1, 2), (0, 13)]);
        }
        for _ in 0..240 {
            w.step(1.0 / 60.0);
        }
        let before = ALLOCATIONS.load(Ordering::SeqCst);
        for _ in 0..120 {
            w.step(1.0 / 60.0);
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
        if watch {
            let clipped = w.watched().iter().filter(|r| r.clip_step == w.step_count).count();
            assert_eq!(clipped, 3, "every watched pair was clipped in the last step");
        }
    }
}
