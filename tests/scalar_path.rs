//! The textbook path of the iterative method: with `Settings::simd` off, the scalar
//! sequential-impulse solver (`solver/iterative.rs`) runs every manifold, in the order the
//! SIMD batches of `solver/wide.rs` visit them. Same maths, same order: the two paths differ
//! by rounding only, and must agree on a 20-layer pyramid and on rolling balls.

mod common;
use common::*;
use contactlab::physics::{Settings, World};

const DT: f32 = 1.0 / 60.0;

fn pyramid_world(simd: bool) -> World {
    let mut w = world(Settings { simd, sleeping: false, ..Default::default() });
    ground(&mut w);
    pyramid(&mut w, 20);
    w
}

#[test]
fn scalar_and_simd_paths_agree_on_a_twenty_layer_pyramid() {
    let (mut fast, mut scalar) = (pyramid_world(true), pyramid_world(false));
    assert_eq!(fast.bodies().len(), 211);
    // One box's weight over a step, m·g·dt: the scale of the pyramid's contact impulses.
    let weight = fast.bodies()[1].mass() * 9.81 * DT;
    let (mut max_dx, mut max_dl) = (0.0f32, 0.0f32);
    let mut compared = 0;
    for step in 0..300 {
        // The impulses of one step, both paths from the same state: each point's normal and
        // friction impulses within 1e-3 of their size (plus 1e-4 of a box's weight for the
        // lightly loaded points, where rounding decides which corner clamps first); 3e-3 in
        // the landing's first five steps, while the impulses build up from zero: with the
        // ground's contacts solved last in each pass (`solver/colouring.rs`) a step's sweep
        // is further from converged there and carries rounding further (2.5e-3 at one
        // corner at step 4), while the free runs' poses agree closer than before (4 µm).
        let relative = if step < 5 { 3e-3 } else { 1e-3 };
        let mut same_state = fast.clone();
        same_state.settings.simd = false;
        same_state.step(DT);
        fast.step(DT);
        for (ca, cb) in fast.contacts().iter().zip(same_state.contacts()) {
            assert_eq!((ca.a, ca.b), (cb.a, cb.b), "step {step}");
            for pa in &ca.impulses[..ca.manifold.points.len()] {
                let pb = cb.impulses[..cb.manifold.points.len()].iter().find(|p| p.id == pa.id);
                let pb = pb.unwrap_or_else(|| panic!("step {step}: point {:?} missing in the scalar path", pa.id));
                for (x, y) in [(pa.normal, pb.normal), (pa.tangent[0], pb.tangent[0]), (pa.tangent[1], pb.tangent[1])] {
                    let excess = (x - y).abs() / (relative * x.abs().max(y.abs()) + 1e-4 * weight);
                    max_dl = max_dl.max(excess);
                }
                compared += 1;
            }
        }
        // The poses of two free runs, one on each path.
        scalar.step(DT);
        for (a, b) in fast.bodies().iter().zip(scalar.bodies()) {
            max_dx = max_dx.max(a.pose.pos.distance(b.pose.pos));
        }
    }
    assert!(compared > 100_000, "{compared} points compared");
    assert!(max_dx < 1e-4, "poses differ by {max_dx} m");
    assert!(max_dl <= 1.0, "impulses differ by {max_dl} × the tolerance");
}

/// The switch really changes the path: the scalar run is not the SIMD run (some float
/// differs), so the test above compares two computations, not one.
#[test]
fn scalar_path_is_a_different_computation() {
    let (mut fast, mut scalar) = (pyramid_world(true), pyramid_world(false));
    for _ in 0..60 {
        fast.step(DT);
        scalar.step(DT);
    }
    let differs = fast.bodies().iter().zip(scalar.bodies()).any(|(a, b)| a.pose.pos != b.pose.pos);
    assert!(differs, "bit-identical: the scalar switch did nothing");
}

/// Round bodies: the separation update keeps the rounded part of each lever arm along the
/// normal, in the same form on both paths (`ConstraintPoint::separation_now`,
/// `wide::batch_separations`). The billiards break, sixteen balls rolling and colliding for
/// two seconds, ends with every ball within 0.5 mm of the other path's. When the scalar path
/// turned the normal a second way for the rounded part, the two runs ended 11 mm apart.
#[test]
fn scalar_and_simd_paths_agree_on_rolling_balls() {
    let run = |simd: bool| {
        let mut w = contactlab::scene::load(&contactlab::scene::scenes_dir().join("billiards.ron")).unwrap().world;
        w.settings.simd = simd;
        for _ in 0..120 {
            w.step(DT);
        }
        w
    };
    let (fast, scalar) = (run(true), run(false));
    let rolled = fast.bodies().iter().filter(|b| b.is_dynamic() && b.velocity.length() > 0.1).count();
    assert!(rolled >= 4, "only {rolled} balls still rolling: the break shows little");
    let worst =
        fast.bodies().iter().zip(scalar.bodies()).map(|(a, b)| a.pose.pos.distance(b.pose.pos)).fold(0.0, f32::max);
    assert!(worst < 5e-4, "the paths ended {worst} m apart");
}
