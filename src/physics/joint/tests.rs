//! Every joint's Jacobian rows against central finite differences of its position
//! constraints: move the bodies by ε·V and −ε·V and compare `(C(+) − C(−)) / 2ε` with `J·V`.
//!
//! The rows whose derivative is first order only (rotation vectors, twist) are checked where
//! they are exact: at zero angular error for the weld's rotation block, at zero swing for
//! twist angles.

use super::*;
use crate::physics::free_rotation::rotation;
use crate::physics::solver::SolverBody;
use glam::{Mat3A, Quat, Vec3};

fn body(m: f32, i: Vec3) -> SolverBody {
    SolverBody { inv_mass: 1.0 / m, inv_i: Mat3A::from_diagonal(Vec3::ONE / i), isotropic: false, ..STATIC }
}

/// Poses moved by `eps` times the velocities.
fn moved(p: &Iso, v: Vec3, w: Vec3, eps: f32) -> Iso {
    Iso::new(p.pos + v * eps, (rotation(w * eps) * p.rot).normalize())
}

/// Checks the rows of `kind` at poses `pa`, `pb` (after creating the joint at `ca`, `cb`).
fn check(name: &str, kind: JointKind, anchor: Vec3, created: (Iso, Iso), now: (Iso, Iso)) {
    check_rows(name, kind, anchor, created, now, &[]);
}

/// As [`check`], leaving out the rows named in `skip` (first-order rows away from where
/// they are exact).
fn check_rows(name: &str, kind: JointKind, anchor: Vec3, created: (Iso, Iso), now: (Iso, Iso), skip: &[&str]) {
    let desc = JointDesc::new(name, kind, 0, 1, anchor);
    let j = Joint::new(&desc, &created.0, &created.1);
    let vels = [
        (Vec3::new(0.3, -0.2, 0.5), Vec3::new(0.4, 0.1, -0.3), Vec3::new(-0.2, 0.6, 0.1), Vec3::new(-0.5, 0.2, 0.7)),
        (Vec3::ZERO, Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO, Vec3::new(0.0, 0.0, 1.0)),
        (Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO, Vec3::new(0.0, 1.0, 1.0), Vec3::ZERO),
    ];
    let eps = 1e-3;
    for (va, wa, vb, wb) in vels {
        let f = j.frame_at(&now.0, &now.1);
        let rows = j.rows(&f);
        assert!(rows.len > 0, "{name}: no rows");
        let plus = j.rows(&j.frame_at(&moved(&now.0, va, wa, eps), &moved(&now.1, vb, wb, eps)));
        let minus = j.rows(&j.frame_at(&moved(&now.0, va, wa, -eps), &moved(&now.1, vb, wb, -eps)));
        let mut a = body(2.0, Vec3::new(0.3, 0.5, 0.4));
        let mut b = body(1.0, Vec3::new(0.2, 0.2, 0.3));
        (a.v, a.w, b.v, b.w) = (va.into(), wa.into(), vb.into(), wb.into());
        for ((r, p), m) in rows.as_slice().iter().zip(plus.as_slice()).zip(minus.as_slice()) {
            if r.role == Role::Motor || skip.contains(&r.name) {
                continue;
            }
            let fd = (p.c - m.c) / (2.0 * eps);
            let jv = r.jac.velocity(&a, &b);
            assert!(
                (fd - jv).abs() <= 2e-3 * (1.0 + jv.abs()),
                "{name} row '{}': J·V = {jv}, finite difference {fd}",
                r.name
            );
        }
    }
}

fn poses() -> (Iso, Iso) {
    (
        Iso::new(Vec3::new(0.0, 1.0, 0.0), Quat::from_rotation_z(0.3) * Quat::from_rotation_x(-0.2)),
        Iso::new(Vec3::new(1.0, 0.5, 0.2), Quat::from_rotation_y(0.7)),
    )
}

/// The creation poses, B displaced and turned a little (errors ≠ 0).
fn disturbed() -> (Iso, Iso) {
    let (a, b) = poses();
    (a, Iso::new(b.pos + Vec3::new(0.05, -0.03, 0.02), Quat::from_rotation_x(0.1) * b.rot))
}

/// The creation poses, both moved together and B turned about `axis` (world) only.
fn twisted(axis: Vec3, angle: f32) -> (Iso, Iso) {
    let (a, b) = poses();
    let t = Quat::from_rotation_y(0.4);
    let anchor = Vec3::new(0.5, 0.8, 0.1);
    let spin = Quat::from_axis_angle(axis.normalize(), angle);
    let pb = anchor + spin * (b.pos - anchor);
    (Iso::new(t * a.pos, t * a.rot), Iso::new(t * pb, t * spin * b.rot))
}

#[test]
fn every_jacobian_matches_finite_differences_of_its_constraint() {
    let anchor = Vec3::new(0.5, 0.8, 0.1);
    let axis = Vec3::new(0.2, 1.0, -0.3);
    let motor = Some(Motor { speed: 1.0, max: 10.0 });
    check("ball", JointKind::Ball, anchor, poses(), disturbed());
    let dist =
        |spring, min, max| JointKind::Distance { anchor_b: Vec3::new(1.2, 0.3, 0.4), length: 0.8, min, max, spring };
    check("distance", dist(None, None, None), anchor, poses(), disturbed());
    let spring = Some(Spring { hertz: 2.0, damping_ratio: 0.5 });
    check("spring", dist(spring, Some(0.2), Some(2.0)), anchor, poses(), disturbed());
    let hinge = JointKind::Hinge { axis, limits: Some((-1.0, 1.0)), motor };
    check_rows("hinge swing", hinge, anchor, poses(), disturbed(), &["lower limit", "upper limit"]);
    check("hinge angle", hinge, anchor, poses(), twisted(axis, 0.4));
    let slider = JointKind::Slider { axis, limits: Some((-1.0, 1.0)), motor };
    check("slider", slider, anchor, poses(), {
        let (a, b) = poses();
        (a, Iso::new(b.pos + Vec3::new(0.05, -0.03, 0.02), b.rot))
    });
    let weld = JointKind::Weld { linear_hertz: 0.0, angular_hertz: 0.0, damping_ratio: 1.0 };
    check("weld", weld, anchor, poses(), {
        let (a, b) = poses();
        (a, Iso::new(b.pos + Vec3::new(0.05, -0.03, 0.02), b.rot))
    });
    let angle = JointKind::Angle { axis, cone: Some(0.5), twist: Some((-0.5, 0.5)) };
    check("angle cone", JointKind::Angle { axis, cone: Some(0.5), twist: None }, anchor, poses(), disturbed());
    check("angle twist", angle, anchor, poses(), twisted(axis, 0.3));
    let wheel = JointKind::Wheel {
        axis: Vec3::Y,
        spin_axis: Vec3::new(0.0, 0.1, 1.0),
        spring: Spring { hertz: 4.0, damping_ratio: 0.7 },
        limits: Some((-0.2, 0.2)),
        motor,
    };
    check("wheel", wheel, anchor, poses(), disturbed());
    let pulley = JointKind::Pulley {
        ground_a: Vec3::new(0.0, 3.0, 0.0),
        ground_b: Vec3::new(2.0, 3.0, 0.0),
        anchor_b: Vec3::new(1.5, 0.6, 0.1),
        ratio: 1.5,
    };
    check("pulley", pulley, anchor, poses(), disturbed());
    let mouse = JointKind::Mouse {
        target: Vec3::new(0.0, 2.0, 0.0),
        spring: Spring { hertz: 5.0, damping_ratio: 0.7 },
        max_force: 100.0,
    };
    check("mouse", mouse, anchor, poses(), disturbed());
}

#[test]
fn ball_k_is_the_block_of_its_three_rows() {
    let (pa, pb) = disturbed();
    let j = Joint::new(&JointDesc::new("b", JointKind::Ball, 0, 1, Vec3::new(0.5, 0.8, 0.1)), &pa, &pb);
    let f = j.frame_at(&pa, &pb);
    let (a, b) = (body(2.0, Vec3::new(0.3, 0.5, 0.4)), body(1.0, Vec3::new(0.2, 0.2, 0.3)));
    let k = row::point_k(&f, &a, &b);
    let rows = j.rows(&f);
    for i in 0..3 {
        for c in 0..3 {
            let g = rows.rows[i].jac.k(&rows.rows[c].jac, &a, &b);
            assert!((k.col(c)[i] - g).abs() < 1e-5, "K[{i}][{c}] = {} vs {g}", k.col(c)[i]);
        }
    }
}

/// The ball joint's direct reaction and error (no rows built) equal the sums over its rows.
#[test]
fn ball_fast_paths_equal_rows() {
    let created =
        (Iso::new(Vec3::new(0.0, 2.0, 0.0), Quat::IDENTITY), Iso::new(Vec3::new(0.6, 1.2, 0.1), Quat::IDENTITY));
    let desc = JointDesc::new("ball", JointKind::Ball, 0, 1, Vec3::new(0.3, 1.6, 0.05));
    let mut j = Joint::new(&desc, &created.0, &created.1);
    j.impulses.point = Vec3A::new(0.7, -2.5, 0.4);
    let now = (
        Iso::new(Vec3::new(0.05, 2.02, -0.01), Quat::from_rotation_z(0.3)),
        Iso::new(Vec3::new(0.7, 1.1, 0.2), Quat::from_rotation_x(-0.4) * Quat::from_rotation_y(0.2)),
    );
    let f = j.frame_at(&now.0, &now.1);
    let ((lin, ang), (lin_rows, ang_rows)) = (j.reaction(|| f), j.reaction_from_rows(&f));
    assert!(
        (lin - lin_rows).length() < 1e-6 && (ang - ang_rows).length() < 1e-5,
        "{lin} {ang} vs {lin_rows} {ang_rows}"
    );
    let ((e, ea), (e_rows, ea_rows)) = (j.errors(&f), j.errors_from_rows(&f));
    assert!(e > 0.1, "the poses separate the anchors: {e}");
    assert!((e - e_rows).abs() < 1e-6 && ea == 0.0 && ea_rows == 0.0, "{e} {ea} vs {e_rows} {ea_rows}");
}
