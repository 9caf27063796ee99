//! Compound bodies (`Shape::Compound`): several convex shapes moving as one body. Checked
//! against closed forms and conservation laws: a table carries its weight on four legs,
//! a quarter each; a body made of parts stands while its centre of mass is over its
//! support and tips when it is not; a tumbling compound in free flight keeps its angular
//! momentum and energy; a thrown hammer's centre of mass flies the parabola; a fast
//! compound does not pass through a thin wall; a kinematic compound drum carries what lies
//! on its vanes; and each child pair carries its impulses over to the next step.

mod common;
use common::*;
use contactlab::physics::{BodyDesc, Compound, ContinuousMode, Iso, Settings, Shape, World};
use glam::{Quat, Vec3};
use std::sync::Arc;

const DT: f32 = 1.0 / 60.0;

fn boxed(h: Vec3) -> Shape {
    Shape::cuboid(h).unwrap()
}

fn at(x: f32, y: f32, z: f32) -> Iso {
    Iso::new(Vec3::new(x, y, z), Quat::IDENTITY)
}

fn compound(children: Vec<(Iso, Shape)>) -> Shape {
    Shape::Compound(Arc::new(Compound::new(children).unwrap()))
}

/// A table: a 1.2 × 0.1 × 0.8 m top on four 0.1 m square legs 0.7 m long, its frame at
/// the floor under its middle.
fn table() -> Shape {
    let leg = boxed(Vec3::new(0.05, 0.35, 0.05));
    let mut parts = vec![(at(0.0, 0.75, 0.0), boxed(Vec3::new(0.6, 0.05, 0.4)))];
    for (x, z) in [(-0.5, -0.3), (0.5, -0.3), (-0.5, 0.3), (0.5, 0.3)] {
        parts.push((at(x, 0.35, z), leg.clone()));
    }
    compound(parts)
}

/// The normal impulse each of body `i`'s touching manifolds with `other` applied in the
/// last step, by the child pair that gave it.
fn impulses_by_part(w: &World, i: usize, other: usize) -> Vec<(u16, f32)> {
    let (lo, hi) = (i.min(other) as u32, i.max(other) as u32);
    let mut out: Vec<(u16, f32)> = w
        .contacts()
        .iter()
        .filter(|c| (c.a, c.b) == (lo, hi) && !c.manifold.points.is_empty())
        .map(|c| (c.manifold.part, c.impulses[..c.manifold.points.len()].iter().map(|p| p.normal).sum()))
        .collect();
    out.sort_by_key(|p| p.0);
    out
}

#[test]
fn a_table_stands_on_four_legs_each_carrying_a_quarter_of_its_weight() {
    for simd in [true, false] {
        let solver = if simd { "SIMD" } else { "scalar" };
        let mut w = world(Settings { simd, sleeping: false, ..Default::default() });
        let floor = ground(&mut w);
        let t = w.add_body(BodyDesc::new("table", table(), Vec3::new(0.0, 0.0, 0.0))).unwrap().index as usize;
        let mass = 1.0 / w.bodies()[t].inv_mass;
        let start = w.bodies()[t].pose;
        for _ in 0..120 {
            w.step(DT);
        }
        let legs = impulses_by_part(&w, t, floor);
        // Four manifolds, one per leg (children 1–4 of the table against the floor's only
        // child: the table is body B, so its child is the tag's second index... the floor
        // has one child, so the tag is the table's child).
        assert_eq!(legs.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3, 4], "{solver:?}: {legs:?}");
        let weight = mass * 9.81 * DT;
        let total: f32 = legs.iter().map(|l| l.1).sum();
        assert!((total - weight).abs() < 0.01 * weight, "{solver:?}: {total} N·s against m·g·Δt = {weight}");
        for (part, j) in &legs {
            assert!((j - weight / 4.0).abs() < 0.03 * weight, "{solver:?}: leg {part} carries {j} of {weight}");
        }
        // It stands where it was put: no sinking past the slop, no slide, no turn.
        let b = &w.bodies()[t];
        assert!((b.pose.pos - start.pos).length() < 0.005, "{solver:?}: moved {:?}", b.pose.pos - start.pos);
        assert!(b.pose.rot.dot(start.rot).abs() > 1.0 - 1e-6);
    }
}

/// A foot (a 1 m square slab 0.2 m thick, centred on the body's frame), a post 1.2 m tall
/// at x = 0.4 and a block on top of the post reaching out to `reach`: it stands iff the
/// centre of mass is over the foot (|x| < 0.5).
fn signpost(reach: f32) -> (Shape, f32) {
    let (arm_x, arm_half) = (0.5 * (0.3 + reach), 0.5 * (reach - 0.3));
    let parts = [
        (Vec3::new(0.0, 0.1, 0.0), Vec3::new(0.5, 0.1, 0.5)),
        (Vec3::new(0.4, 0.8, 0.0), Vec3::new(0.1, 0.6, 0.1)),
        (Vec3::new(arm_x, 1.6, 0.0), Vec3::new(arm_half, 0.2, 0.3)),
    ];
    // The centre of mass in closed form: the volume-weighted mean of the parts' centres.
    let volume = |h: Vec3| 8.0 * h.x * h.y * h.z;
    let com_x =
        parts.iter().map(|(c, h)| c.x * volume(*h)).sum::<f32>() / parts.iter().map(|(_, h)| volume(*h)).sum::<f32>();
    (compound(parts.iter().map(|(c, h)| (at(c.x, c.y, c.z), boxed(*h))).collect()), com_x)
}

#[test]
fn a_compound_stands_while_its_centre_of_mass_is_over_its_foot_and_tips_when_not() {
    // Reaching to 1.0 m the centre of mass is at x = 0.37 m, over the foot; to 1.6 m, at
    // 0.57 m, past its edge.
    for (reach, stands) in [(1.0f32, true), (1.6, false)] {
        let mut w = world(Settings { sleeping: false, ..Default::default() });
        ground(&mut w);
        let (shape, com_x) = signpost(reach);
        assert_eq!(com_x < 0.5, stands, "reach {reach}: centre of mass at x = {com_x}");
        let i = w.add_body(BodyDesc::new("signpost", shape, Vec3::ZERO)).unwrap().index as usize;
        // The body's origin is its centre of mass.
        assert!((w.bodies()[i].pose.pos.x - com_x).abs() < 1e-5, "{:?} against x = {com_x}", w.bodies()[i].pose.pos);
        for _ in 0..240 {
            w.step(DT);
        }
        let tilt = w.bodies()[i].pose.rot.angle_between(Quat::IDENTITY);
        if stands {
            assert!(tilt < 1e-3, "reach {reach}: tilted {tilt} rad");
        } else {
            // Over on its side: the block meets the floor once turned well past 45°.
            assert!(tilt > 0.8, "reach {reach}: tilted only {tilt} rad");
        }
    }
}

#[test]
fn a_tumbling_compound_keeps_its_angular_momentum_and_energy_in_free_flight() {
    // A hammer: a 1 m handle and a heavy head off its end, spun about an axis between its
    // principal axes (no gravity, nothing to touch).
    let hammer = compound(vec![
        (at(0.0, 0.0, 0.0), boxed(Vec3::new(0.03, 0.5, 0.03))),
        (at(0.0, 0.55, 0.0), boxed(Vec3::new(0.15, 0.05, 0.05))),
    ]);
    let mut w = World::new(Vec3::ZERO, Settings::default());
    let i = w
        .add_body(BodyDesc::new("hammer", hammer, Vec3::ZERO).with_angular_velocity(Vec3::new(3.0, 0.4, 1.0)))
        .unwrap()
        .index as usize;
    let momentum = |w: &World| {
        let b = &w.bodies()[i];
        let r = glam::Mat3::from_quat(b.pose.rot);
        let inertia = r * b.inertia_local * r.transpose();
        (inertia * b.angular_velocity, 0.5 * b.angular_velocity.dot(inertia * b.angular_velocity))
    };
    let (l0, e0) = momentum(&w);
    for _ in 0..600 {
        w.step(DT);
    }
    let (l1, e1) = momentum(&w);
    assert!((l1 - l0).length() < 1e-3 * l0.length(), "L {l0:?} → {l1:?}");
    assert!((e1 - e0).abs() < 1e-3 * e0, "E {e0} → {e1}");
}

#[test]
fn a_thrown_hammer_turns_about_its_centre_of_mass_which_flies_the_parabola() {
    let hammer = compound(vec![
        (at(0.0, 0.0, 0.0), boxed(Vec3::new(0.03, 0.5, 0.03))),
        (at(0.0, 0.55, 0.0), boxed(Vec3::new(0.15, 0.05, 0.05))),
    ]);
    let mut w = world(Settings::default());
    let (v0, p0) = (Vec3::new(2.0, 6.0, 0.0), Vec3::new(0.0, 10.0, 0.0));
    let i = w
        .add_body(BodyDesc::new("hammer", hammer, p0).with_velocity(v0).with_angular_velocity(Vec3::new(0.0, 0.0, 8.0)))
        .unwrap()
        .index as usize;
    // The body's position is its centre of mass: the head pulls it up the handle (head
    // 0.003 m³ at 0.55 m, handle 0.0036 m³ at 0: 0.55·0.003/0.0066 = 0.25 m).
    let com0 = w.bodies()[i].pose.pos;
    assert!((com0 - (p0 + Vec3::new(0.0, 0.25, 0.0))).length() < 1e-5, "{com0:?}");
    let steps = 60;
    for _ in 0..steps {
        w.step(DT);
    }
    let t = steps as f32 * DT;
    let expect = com0 + v0 * t + 0.5 * Vec3::new(0.0, -9.81, 0.0) * t * t;
    let com = w.bodies()[i].pose.pos;
    // The step's gravity is first order: the error is g·t·Δt/2 (8 cm after 1 s).
    assert!((com - expect).length() < 9.81 * t * DT * 0.5 + 1e-3, "{com:?} against {expect:?}");
}

#[test]
fn each_child_pair_keeps_its_own_warm_impulses() {
    // A table at rest: every leg's manifold matches last step's manifold of the same leg,
    // so its impulse starts warm (the solver's first iteration then finds it already
    // right). Four legs share one normal: matched by normal alone, three of them would
    // start cold each step.
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    let floor = ground(&mut w);
    let t = w.add_body(BodyDesc::new("table", table(), Vec3::ZERO)).unwrap().index as usize;
    for _ in 0..60 {
        w.step(DT);
    }
    let (lo, hi) = (floor.min(t) as u32, floor.max(t) as u32);
    let warm: Vec<f32> = w
        .contacts()
        .iter()
        .filter(|c| (c.a, c.b) == (lo, hi))
        .map(|c| c.impulses[..c.manifold.points.len()].iter().map(|p| p.warm_normal).sum::<f32>())
        .collect();
    assert_eq!(warm.len(), 4);
    let mass = 1.0 / w.bodies()[t].inv_mass;
    // The accumulated impulse is per substep (4 substeps): m·g·Δt/16 per leg.
    let quarter = mass * 9.81 * DT / 4.0 / 4.0;
    for j in warm {
        assert!((j - quarter).abs() < 0.05 * quarter, "warm {j} against {quarter}");
    }
}

#[test]
fn a_dumbbell_rolls_down_an_incline_at_g_sin_theta_over_one_plus_i_over_m_r_squared() {
    // Two balls (r = 0.3 m) on a rod (a capsule of radius 0.05 m, half height 0.5 m, lying
    // along x), rolling down a 20° incline along z on its balls.
    let (r, d, rc, hc) = (0.3f32, 0.5f32, 0.05f32, 0.5f32);
    let rod = Iso::new(Vec3::ZERO, Quat::from_rotation_z(std::f32::consts::FRAC_PI_2));
    let dumbbell = compound(vec![
        (at(-d, 0.0, 0.0), Shape::Sphere { radius: r }),
        (at(d, 0.0, 0.0), Shape::Sphere { radius: r }),
        (rod, Shape::Capsule { radius: rc, half_height: hc }),
    ]);
    // The moment about the rod, in closed form: each ball 2/5·m·r², the rod's cylinder
    // ½·m·rc² and its two end caps (one ball of rc) 2/5·m·rc².
    let rho = 1000.0f32;
    let pi = std::f32::consts::PI;
    let ball = rho * 4.0 / 3.0 * pi * r * r * r;
    let (cyl, caps) = (rho * pi * rc * rc * 2.0 * hc, rho * 4.0 / 3.0 * pi * rc * rc * rc);
    let mass = 2.0 * ball + cyl + caps;
    let inertia = 2.0 * 0.4 * ball * r * r + 0.5 * cyl * rc * rc + 0.4 * caps * rc * rc;
    let theta = 20f32.to_radians();
    let a = 9.81 * theta.sin() / (1.0 + inertia / (mass * r * r));
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    let slope = Quat::from_rotation_x(theta);
    let n = slope * Vec3::Y;
    w.add_body(
        BodyDesc::new("incline", Shape::cuboid(Vec3::new(2.0, 0.1, 12.0)).unwrap(), -n * 0.1)
            .fixed()
            .with_rotation(slope)
            .with_material(1.0, 0.0),
    )
    .unwrap();
    let i = w.add_body(BodyDesc::new("dumbbell", dumbbell, n * r).with_material(1.0, 0.0)).unwrap().index as usize;
    assert!((1.0 / w.bodies()[i].inv_mass - mass).abs() < 1e-3 * mass);
    let down = slope * Vec3::Z;
    let start = w.bodies()[i].pose.pos;
    let steps = 90;
    for _ in 0..steps {
        w.step(DT);
    }
    let t = steps as f32 * DT;
    let b = &w.bodies()[i];
    let s = (b.pose.pos - start).dot(down);
    let expect = 0.5 * a * t * t;
    assert!((s - expect).abs() < 0.02 * expect, "rolled {s} m in {t} s, ½·a·t² = {expect}");
    // Rolling without slipping: the spin about the rod is v/r.
    let v = b.velocity.dot(down);
    assert!((b.angular_velocity.x - v / r).abs() < 0.02 * v / r, "ω {:?} against v/r = {}", b.angular_velocity, v / r);
}

#[test]
fn a_fast_compound_does_not_pass_through_a_thin_wall_and_nothing_passes_through_a_compound_one() {
    // A dumbbell of two 0.1 m cubes thrown at 150 m/s (2.5 m a step) at a 2 cm wall.
    let cube = boxed(Vec3::splat(0.1));
    let thrown = compound(vec![(at(0.0, 0.3, 0.0), cube.clone()), (at(0.0, -0.3, 0.0), cube)]);
    let mut w = World::new(Vec3::ZERO, Settings::default());
    w.add_body(BodyDesc::new("wall", boxed(Vec3::new(0.01, 2.0, 2.0)), Vec3::new(5.0, 0.0, 0.0)).fixed()).unwrap();
    let i = w.add_body(BodyDesc::new("thrown", thrown, Vec3::ZERO).with_velocity(Vec3::new(150.0, 0.0, 0.0))).unwrap();
    // And a ball at a static compound wall of two thin slabs with a gap between them (the
    // ball is aimed at the lower slab).
    let slab = boxed(Vec3::new(0.01, 0.5, 2.0));
    let wall = compound(vec![(at(0.0, 0.6, 0.0), slab.clone()), (at(0.0, -0.6, 0.0), slab)]);
    w.add_body(BodyDesc::new("compound wall", wall, Vec3::new(5.0, 0.0, 8.0)).fixed()).unwrap();
    let ball = w
        .add_body(
            BodyDesc::new("ball", Shape::Sphere { radius: 0.05 }, Vec3::new(0.0, -0.6, 8.0))
                .with_velocity(Vec3::new(150.0, 0.0, 0.0)),
        )
        .unwrap();
    for _ in 0..10 {
        w.step(DT);
        for h in [i, ball] {
            let x = w.bodies()[h.index as usize].pose.pos.x;
            assert!(x < 5.0, "{} passed the wall: x = {x}", w.bodies()[h.index as usize].name);
        }
    }
}

/// Balls at 400 m/s (6.7 m a step) aimed at each slab of a turned compound wall, at its
/// middle and near its corners, where a slab turned in the body's frame and the body turned
/// in the world fill their boxes loosely: none passes its slab, whether the wall is static
/// or a kinematic one turning (the continuous stage culls a compound's children by their
/// boxes in the compound's frame and in the world; a cull that dropped a child in reach
/// would let a ball through). With continuous collision off they pass.
#[test]
fn balls_do_not_pass_any_slab_of_a_turned_compound_wall() {
    let h = Vec3::new(0.01, 0.6, 0.6);
    let slabs = [
        Iso::new(Vec3::ZERO, Quat::IDENTITY),
        Iso::new(Vec3::new(0.0, 1.5, 0.0), Quat::from_rotation_z(0.5)),
        Iso::new(Vec3::new(0.0, -1.5, 0.3), Quat::from_rotation_y(-0.7)),
    ];
    let wall = compound(slabs.iter().map(|&p| (p, boxed(h))).collect());
    let turn = Quat::from_axis_angle(Vec3::new(1.0, 1.0, 0.0).normalize(), 0.6);
    let (mut checked, mut passed_without) = (0, 0);
    for (kinematic, ccd) in [(false, true), (true, true), (false, false)] {
        for k in 0..slabs.len() {
            for (u, v) in [(0.0, 0.0), (0.8, 0.8), (-0.8, 0.8), (0.8, -0.8), (-0.8, -0.8)] {
                let mode = if ccd { ContinuousMode::Fast } else { ContinuousMode::Off };
                let mut w = World::new(Vec3::ZERO, Settings { ccd: mode, ..Default::default() });
                let desc = BodyDesc::new("wall", wall.clone(), Vec3::new(0.0, 5.0, 0.0)).with_rotation(turn);
                let desc = if kinematic { desc.kinematic(Vec3::ZERO, Vec3::new(0.0, 0.0, 0.4)) } else { desc.fixed() };
                let wi = w.add_body(desc).unwrap().index as usize;
                // The slab's pose in the world (the world keeps the wall's frame at its
                // centre of mass, so the slab's own pose is read back from the shape).
                let slab_world = |w: &World| {
                    let body = &w.bodies()[wi];
                    let c = body.shape.compound().unwrap();
                    body.pose.mul(&c.children()[k].pose)
                };
                let s0 = slab_world(&w);
                let normal = s0.rot * Vec3::X;
                let aim = s0.transform_point(Vec3::new(0.0, u * h.y, v * h.z));
                let ball = w
                    .add_body(
                        BodyDesc::new("ball", Shape::Sphere { radius: 0.05 }, aim + 4.0 * normal)
                            .with_velocity(-400.0 * normal),
                    )
                    .unwrap()
                    .index as usize;
                for step in 0..6 {
                    w.step(DT);
                    let s = slab_world(&w);
                    let d = (s.rot * Vec3::X).dot(w.bodies()[ball].pose.pos - s.pos);
                    if !ccd {
                        passed_without += usize::from(d < 0.0);
                        break;
                    }
                    assert!(
                        d > 0.0,
                        "ball at ({u}, {v}) of slab {k} passed it at step {step} (kinematic: {kinematic}): {d} m"
                    );
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 45);
    assert_eq!(passed_without, 15, "without continuous collision every ball passes");
}

/// A frictionless cube sliding at 3 m/s (5 cm a step, past the recycling window) on a
/// floor of two long slabs side by side, straddling the gap between them: each step both
/// child pairs are computed again, and from the second on each takes its own last face
/// (the SAT cache each child pair keeps) instead of a full SAT. Every point of every step's
/// manifolds lies at the depth the poses give in closed form, the slabs' top less the
/// cube's bottom.
#[test]
fn a_cube_sliding_over_a_compound_floor_keeps_each_child_pairs_sat_feature() {
    use contactlab::physics::collide::PairPath;
    let slab = boxed(Vec3::new(6.0, 0.1, 0.25));
    let floor = compound(vec![(at(0.0, 0.0, -0.26), slab.clone()), (at(0.0, 0.0, 0.26), slab)]);
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    let f = w.add_body(BodyDesc::new("floor", floor, Vec3::ZERO).fixed()).unwrap().index;
    let cube = BodyDesc::new("cube", boxed(Vec3::splat(0.2)), Vec3::new(-5.0, 0.3, 0.0))
        .with_velocity(Vec3::new(3.0, 0.0, 0.0))
        .with_material(0.0, 0.0);
    let c = w.add_body(cube).unwrap().index;
    w.set_watched(&[(f, c)]);
    let (mut cached, mut full, mut checked) = (0, 0, 0);
    let mut parts = std::collections::BTreeSet::new();
    for _ in 0..180 {
        let bottom = w.bodies()[c as usize].pose.pos.y - 0.2;
        w.step(DT);
        match w.pair_record(f, c).expect("watched").path {
            PairPath::CachedFeature => cached += 1,
            PairPath::FullSat => full += 1,
            _ => {}
        }
        for m in w.contacts().iter().filter(|k| (k.a, k.b) == (f.min(c), f.max(c))).map(|k| &k.manifold) {
            assert!(m.normal.y.abs() > 0.9999, "normal {}", m.normal);
            for p in &m.points {
                assert!((p.depth - (0.1 - bottom)).abs() < 1e-4, "depth {} against {}", p.depth, 0.1 - bottom);
                checked += 1;
            }
            parts.insert(m.part);
        }
    }
    let x = w.bodies()[c as usize].pose.pos.x;
    assert!((x - 4.0).abs() < 0.01, "the cube slid 9 m: x = {x}");
    assert_eq!(parts.len(), 2, "both slabs carry it");
    assert!(checked > 1000, "{checked} points checked");
    assert!(cached > 150 && full < 10, "cached feature {cached} times, full SAT {full} times");
}

/// Faces inside a compound: where two children meet flat, face to face, the face that lies
/// wholly within the other's is inside the body (two flush slabs: both inner faces; a thin
/// slab against a tall one: the thin one's only; a table's legs: their tops under the top),
/// and none is where the children are a millimetre apart.
#[test]
fn faces_where_two_children_meet_flat_are_inside_the_body() {
    let axes = [Vec3::X, -Vec3::X, Vec3::Y, -Vec3::Y, Vec3::Z, -Vec3::Z];
    let inner =
        |c: &Compound, i: usize| axes.iter().copied().filter(|&n| c.children()[i].covered(n)).collect::<Vec<_>>();
    let slab = boxed(Vec3::new(3.0, 0.1, 1.0));
    let flush = Compound::new(vec![(at(-3.0, 0.0, 0.0), slab.clone()), (at(3.0, 0.0, 0.0), slab.clone())]).unwrap();
    assert_eq!((inner(&flush, 0), inner(&flush, 1)), (vec![Vec3::X], vec![-Vec3::X]));
    let apart =
        Compound::new(vec![(at(-3.0005, 0.0, 0.0), slab.clone()), (at(3.0005, 0.0, 0.0), slab.clone())]).unwrap();
    assert_eq!((inner(&apart, 0), inner(&apart, 1)), (vec![], vec![]));
    let tall = boxed(Vec3::new(3.0, 0.5, 1.0));
    let step = Compound::new(vec![(at(-3.0, 0.0, 0.0), slab), (at(3.0, 0.0, 0.0), tall)]).unwrap();
    assert_eq!((inner(&step, 0), inner(&step, 1)), (vec![Vec3::X], vec![]));
    let Shape::Compound(t) = table() else { unreachable!() };
    assert_eq!(inner(&t, 0), vec![], "the top's underside is mostly open");
    for leg in 1..5 {
        assert_eq!(inner(&t, leg), vec![Vec3::Y], "leg {leg}");
    }
}

/// A frictionless cube sliding at 3 m/s across the seam of two flush slabs of one floor
/// keeps its speed: the second slab's inner face, which the cube meets edge-on at the seam,
/// gives it no contact (without that rule it was slowed to 1.15 m/s and thrown up at 1.09
/// m/s there), and
/// every manifold is on a top face. The same with the floor turned.
#[test]
fn a_cube_slides_across_the_seam_of_two_flush_slabs_without_a_bump() {
    let slab = boxed(Vec3::new(3.0, 0.1, 1.0));
    let floor = compound(vec![(at(-3.0, 0.0, 0.0), slab.clone()), (at(3.0, 0.0, 0.0), slab)]);
    for turn in [Quat::IDENTITY, Quat::from_rotation_y(0.4)] {
        let mut w = world(Settings { sleeping: false, ..Default::default() });
        let f =
            w.add_body(BodyDesc::new("floor", floor.clone(), Vec3::ZERO).with_rotation(turn).fixed()).unwrap().index;
        let along = turn * Vec3::X;
        let cube = BodyDesc::new("cube", boxed(Vec3::splat(0.2)), turn * Vec3::new(-5.0, 0.3, 0.0))
            .with_rotation(turn)
            .with_velocity(3.0 * along)
            .with_material(0.0, 0.0);
        let c = w.add_body(cube).unwrap().index;
        for step in 0..180 {
            w.step(DT);
            let v = w.bodies()[c as usize].velocity;
            assert!((v.dot(along) - 3.0).abs() < 1e-3, "step {step}: {v} along {along}");
            for m in w.contacts().iter().filter(|k| (k.a, k.b) == (f.min(c), f.max(c))).map(|k| &k.manifold) {
                assert!(m.normal.y.abs() > 0.9999, "step {step}: normal {}", m.normal);
            }
        }
        let x = w.bodies()[c as usize].pose.pos.dot(along);
        assert!((x - 4.0).abs() < 0.01, "the cube slid 9 m: {x}");
    }
}

#[test]
fn a_kinematic_compound_conveyor_carries_a_crate_at_its_own_speed() {
    // A belt of two slabs side by side, kinematic at 1 m/s along x.
    let slab = boxed(Vec3::new(3.0, 0.05, 0.25));
    let belt = compound(vec![(at(0.0, 0.0, -0.26), slab.clone()), (at(0.0, 0.0, 0.26), slab)]);
    let mut w = world(Settings::default());
    let v = Vec3::new(1.0, 0.0, 0.0);
    w.add_body(BodyDesc::new("belt", belt, Vec3::new(0.0, 0.5, 0.0)).kinematic(v, Vec3::ZERO)).unwrap();
    // A crate straddling the gap, on both slabs.
    let c = w
        .add_body(BodyDesc::new("crate", boxed(Vec3::splat(0.2)), Vec3::new(-2.0, 0.75, 0.0)).with_material(0.8, 0.0))
        .unwrap()
        .index as usize;
    for _ in 0..120 {
        w.step(DT);
    }
    let b = &w.bodies()[c];
    assert!((b.velocity - v).length() < 0.01, "crate at {:?}", b.velocity);
    // Resting on both slabs: two manifolds, one per slab.
    let parts: Vec<u16> = w
        .contacts()
        .iter()
        .filter(|k| k.b as usize == c && !k.manifold.points.is_empty())
        .map(|k| k.manifold.part)
        .collect();
    assert_eq!(parts.len(), 2, "{parts:?}");
}

#[test]
fn a_compound_rests_on_a_mesh_one_manifold_per_leg() {
    // The table on a flat heightfield-like mesh: two triangles.
    use contactlab::physics::mesh::TriMesh;
    let s = 5.0;
    let verts = vec![Vec3::new(-s, 0.0, -s), Vec3::new(s, 0.0, -s), Vec3::new(s, 0.0, s), Vec3::new(-s, 0.0, s)];
    let mesh = TriMesh::new(verts, vec![[0, 2, 1], [0, 3, 2]]).unwrap();
    let mut w = world(Settings { sleeping: false, ..Default::default() });
    let floor =
        w.add_body(BodyDesc::new("floor", Shape::Mesh(Arc::new(mesh)), Vec3::ZERO).fixed()).unwrap().index as usize;
    let t = w.add_body(BodyDesc::new("table", table(), Vec3::new(0.0, 0.01, 0.0))).unwrap().index as usize;
    let mass = 1.0 / w.bodies()[t].inv_mass;
    // Its legs' feet 1 cm above the mesh: it comes to rest 1 cm lower, within the slop.
    let rest = w.bodies()[t].pose.pos.y - 0.01;
    for _ in 0..120 {
        w.step(DT);
    }
    let legs = impulses_by_part(&w, t, floor);
    assert_eq!(legs.len(), 4, "{legs:?}");
    let weight = mass * 9.81 * DT;
    for (part, j) in &legs {
        assert!((j - weight / 4.0).abs() < 0.03 * weight, "leg {part} carries {j} of {weight}");
    }
    let y = w.bodies()[t].pose.pos.y;
    assert!((y - rest).abs() < 0.005, "rests at {y}, {} m from {rest}", y - rest);
}

/// A dumbbell of two 0.2 m cubes 4 m apart, spinning at 30 rad/s about the vertical, falls
/// at 300 m/s (5 m a step) from 3 m onto a floor of 3,200 small triangles (0.5 m cells):
/// the continuous stage looks up each child's triangles under that child's own sweep (its
/// arc's sagitta included), not under the whole body's, and still stops it at the floor:
/// no cube ends a step below it. With continuous collision off the dumbbell passes.
#[test]
fn a_fast_spinning_compound_stops_at_a_finely_cut_mesh_floor() {
    let mesh = Arc::new(contactlab::physics::mesh::generate::heightfield(40, 40, 0.5, |_, _| 0.0).unwrap());
    let run = |ccd: ContinuousMode| {
        let mut w = World::new(Vec3::ZERO, Settings { ccd, sleeping: false, ..Default::default() });
        w.add_body(BodyDesc::new("floor", Shape::Mesh(mesh.clone()), Vec3::ZERO).fixed()).unwrap();
        let cube = boxed(Vec3::splat(0.1));
        let bell = compound(vec![(at(2.0, 0.0, 0.3), cube.clone()), (at(-2.0, 0.0, -0.3), cube)]);
        let d = BodyDesc::new("bell", bell, Vec3::new(0.3, 3.0, 0.2))
            .with_velocity(Vec3::new(0.0, -300.0, 0.0))
            .with_angular_velocity(Vec3::new(0.0, 30.0, 0.0));
        let i = w.add_body(d).unwrap().index as usize;
        let mut lowest = f32::INFINITY;
        for _ in 0..10 {
            w.step(DT);
            let b = &w.bodies()[i];
            for end in [Vec3::new(2.0, 0.0, 0.3), Vec3::new(-2.0, 0.0, -0.3)] {
                lowest = lowest.min(b.pose.transform_point(end).y);
            }
        }
        lowest
    };
    let caught = run(ContinuousMode::Fast);
    assert!(caught > 0.0, "a cube's centre ended {caught} m below the floor");
    let passed = run(ContinuousMode::Off);
    assert!(passed < -1.0, "without continuous collision the dumbbell should pass the floor (lowest {passed} m)");
}

/// A log of three 0.4 m cubes in a row (2 m end to end) spinning at 5 rad/s about its
/// length just over the ground: its surface moves at ω times its thickness, not its
/// length, and its pair's speculative margin says so (Box3D's `velocityArc`): the base
/// margin plus `|(ω × p)|` bounded over its box of half extents (1, 0.2, 0.2) m,
/// `ω·√(0.2² + 0.2²)`, times the step: 0.02 + 1.414/60 m, where its bounding radius would
/// have given 0.02 + 5·1.15/60.
#[test]
fn a_log_spinning_about_its_length_gets_the_margin_of_its_thickness() {
    let mut w = World::new(Vec3::ZERO, Settings { sleeping: false, ..Default::default() });
    let g = w.add_body(BodyDesc::new("ground", boxed(Vec3::new(5.0, 0.5, 5.0)), Vec3::new(0.0, -0.5, 0.0)).fixed());
    let cube = boxed(Vec3::splat(0.2));
    let log = compound(vec![
        (at(-0.8, 0.0, 0.0), cube.clone()),
        (at(0.0, 0.0, 0.0), cube.clone()),
        (at(0.8, 0.0, 0.0), cube),
    ]);
    let d = BodyDesc::new("log", log, Vec3::new(0.0, 0.201, 0.0)).with_angular_velocity(Vec3::new(5.0, 0.0, 0.0));
    let l = w.add_body(d).unwrap().index;
    let g = g.unwrap().index;
    w.set_watched(&[(g, l)]);
    w.step(DT);
    let margin = w.pair_record(g, l).expect("watched").margin;
    let expected = w.settings.margin + 5.0 * (0.2f32 * 0.2 + 0.2 * 0.2).sqrt() * DT;
    assert!((margin - expected).abs() < 1e-5, "margin {margin} m, closed form {expected} m");
}

/// A chain of ten balls 2 m apart (20 m end to end) slides sideways without friction
/// over a terrain that waves along its length only (0.3 m high, waves 6, 8 and 10 m long,
/// 1 m cells), at 40 times its balls' radius a second (0.5 and 0.3 m), from four places
/// along the waves: every contact normal is square to the slide, so nothing slows it and
/// it travels that far in a second. Fast enough to be swept every step, it touches the
/// terrain at the start of each, where the contact normals tilt along the chain: the
/// continuous stage judges each child by its own centre, not the body's, which may lie
/// below a plane tilted through a contact metres away (the chain was held at its start
/// pose step after step, and travelled as little as 1.6 of 12 m).
#[test]
fn a_long_compound_sliding_over_a_wavy_mesh_is_not_held_back() {
    for length in [6.0f32, 8.0, 10.0] {
        let wave = move |x: f32, _: f32| 0.3 * (std::f32::consts::TAU * x / length).sin();
        let mesh = Arc::new(contactlab::physics::mesh::generate::heightfield(60, 40, 1.0, wave).unwrap());
        for (x, r) in [0.0f32, 0.5, 1.0, 1.5].into_iter().flat_map(|x| [(x, 0.5f32), (x, 0.3)]) {
            let mut w = World::new(Vec3::new(0.0, -10.0, 0.0), Settings { sleeping: false, ..Default::default() });
            let terrain = BodyDesc::new("terrain", Shape::Mesh(mesh.clone()), Vec3::ZERO).fixed();
            w.add_body(terrain.with_material(0.0, 0.0)).unwrap();
            let ball = Shape::Sphere { radius: r };
            let chain = compound((0..10).map(|k| (at(2.0 * k as f32 - 9.0, 0.0, 0.0), ball.clone())).collect());
            let speed = 40.0 * r;
            let d = BodyDesc::new("chain", chain, Vec3::new(x, 0.35 + r, -9.0))
                .with_material(0.0, 0.0)
                .with_velocity(Vec3::new(0.0, 0.0, speed));
            let i = w.add_body(d).unwrap().index as usize;
            let z0 = w.bodies()[i].pose.pos.z;
            let (steps, mut swept) = (60, 0);
            for _ in 0..steps {
                w.step(DT);
                swept += w.continuous().candidates as usize;
            }
            assert!(swept >= steps / 2, "waves {length} m, x {x} m, r {r} m: swept in {swept} steps of {steps}");
            let travel = w.bodies()[i].pose.pos.z - z0;
            let expected = speed * steps as f32 * DT;
            assert!(
                (travel - expected).abs() < 0.01,
                "waves {length} m, x {x} m, r {r} m: the chain slid {travel} m, closed form {expected} m"
            );
        }
    }
}
