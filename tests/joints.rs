//! Joints against closed forms: a pendulum's period, a loaded hinge, a motor, limits, a long
//! chain with a heavy end, a pulley, Newton's cradle, breaking, islands; and bad joint
//! descriptions in scene files. Each test prints its measured value beside its bound.

mod common;
use common::*;
use contactlab::physics::joint::{Motor, Spring};
use contactlab::physics::{BodyDesc, JointDesc, JointKind, Settings, Shape, World, WORLD};
use contactlab::scene;
use glam::{Quat, Vec3};

const DT: f32 = 1.0 / 60.0;
const G: f32 = 9.81;

fn settings() -> Settings {
    Settings { sleeping: false, ..Default::default() }
}

fn sphere(w: &mut World, name: &str, r: f32, p: Vec3, mass: f32) -> u32 {
    let mut d = BodyDesc::new(name, Shape::Sphere { radius: r }, p);
    d.mass = Some(mass);
    w.add_body(d).unwrap().index
}

fn joint(w: &mut World, name: &str, kind: JointKind, a: u32, b: u32, anchor: Vec3) {
    w.add_joint(JointDesc::new(name, kind, a, b, anchor)).unwrap();
}

fn hinge_angle(w: &World, name: &str) -> f32 {
    w.joint_records().into_iter().find(|r| r.name == name).unwrap().position
}

#[test]
fn pendulum_period_matches_two_pi_root_l_over_g() {
    for (label, length) in [("ball", 1.0f32), ("ball", 2.0)] {
        let mut w = world(settings());
        let a = 5f32.to_radians();
        let p = Vec3::new(length * a.sin(), 3.0 - length * a.cos(), 0.0);
        let bob = sphere(&mut w, "bob", 0.02, p, 1.0);
        joint(&mut w, "pivot", JointKind::Ball, WORLD, bob, Vec3::new(0.0, 3.0, 0.0));
        let mut xs = Vec::new();
        for _ in 0..(10.0 / DT) as usize {
            w.step(DT);
            xs.push(w.bodies()[bob as usize].pose.pos.x);
        }
        let c = crossings(&xs, DT);
        let period = (c[c.len() - 1] - c[0]) / (c.len() - 1) as f32;
        let expected = 2.0 * std::f32::consts::PI * (length / G).sqrt();
        let err = (period / expected - 1.0).abs();
        println!("pendulum ({label}) L = {length} m: period {period:.4} s, 2π√(L/g) = {expected:.4} s, error {:.3} % (bound 1 %)", err * 100.0);
        assert!(err < 0.01);
    }
}

#[test]
fn loaded_hinge_keeps_its_anchors_within_a_millimetre() {
    let mut w = world(settings());
    let frame = w.add_body(BodyDesc::new("frame", cube(0.05), Vec3::new(0.0, 1.0, 0.0)).fixed()).unwrap().index;
    // A 1 m wide, 20 kg door hinged on its left edge about Y: gravity loads the hinge across
    // its axis (the swing rows and the point block carry it).
    let mut d = BodyDesc::new("door", Shape::cuboid(Vec3::new(0.5, 1.0, 0.05)).unwrap(), Vec3::new(0.55, 1.0, 0.0));
    d.mass = Some(20.0);
    let door = w.add_body(d).unwrap().index;
    let kind = JointKind::Hinge { axis: Vec3::Y, limits: None, motor: None };
    joint(&mut w, "hinge", kind, frame, door, Vec3::new(0.05, 1.0, 0.0));
    let mut worst = 0.0f32;
    for _ in 0..(10.0 / DT) as usize {
        w.step(DT);
        worst = worst.max(w.joint_records()[0].position_error);
    }
    let r = &w.joint_records()[0];
    let sep = (r.anchor_a - r.anchor_b).length();
    println!(
        "loaded hinge: anchor separation after 10 s {:.4} mm (worst {:.4} mm; bound 1 mm), swing error {:.5}°",
        sep * 1e3,
        worst * 1e3,
        r.angular_error.to_degrees()
    );
    assert!(sep < 1e-3);
}

#[test]
fn hinge_motor_reaches_its_target_speed() {
    let mut w = world(settings());
    let mut d = BodyDesc::new("wheel", Shape::cuboid(Vec3::new(0.5, 0.5, 0.1)).unwrap(), Vec3::new(0.0, 2.0, 0.0));
    d.mass = Some(5.0);
    let wheel = w.add_body(d).unwrap().index;
    let speed = 3.0;
    let kind = JointKind::Hinge { axis: Vec3::Z, limits: None, motor: Some(Motor { speed, max: 50.0 }) };
    joint(&mut w, "axle", kind, WORLD, wheel, Vec3::new(0.0, 2.0, 0.0));
    for _ in 0..120 {
        w.step(DT);
    }
    let got = w.bodies()[wheel as usize].angular_velocity.z;
    let err = (got / speed - 1.0).abs();
    println!("motor: ω = {got:.4} rad/s for a target of {speed} rad/s, error {:.3} % (bound 2 %)", err * 100.0);
    assert!(err < 0.02);
}

#[test]
fn hinge_limits_hold_within_half_a_degree() {
    // A bar thrown against its limits without gravity, then resting on one with gravity.
    for (gravity, spin) in [(Vec3::ZERO, 6.0f32), (Vec3::new(0.0, -G, 0.0), -3.0)] {
        let mut w = World::new(gravity, settings());
        let mut d = BodyDesc::new("bar", Shape::cuboid(Vec3::new(0.5, 0.05, 0.05)).unwrap(), Vec3::new(0.5, 2.0, 0.0));
        d.angular_velocity = Vec3::new(0.0, 0.0, spin);
        d.velocity = Vec3::new(0.0, spin * 0.5, 0.0);
        let bar = w.add_body(d).unwrap().index;
        let (lo, hi) = (-20f32.to_radians(), 30f32.to_radians());
        let kind = JointKind::Hinge { axis: Vec3::Z, limits: Some((lo, hi)), motor: None };
        joint(&mut w, "hinge", kind, WORLD, bar, Vec3::new(0.0, 2.0, 0.0));
        let mut worst = 0.0f32;
        for _ in 0..300 {
            w.step(DT);
            let a = hinge_angle(&w, "hinge");
            worst = worst.max(a - hi).max(lo - a);
        }
        println!("limits (gravity {:?}): exceeded by at most {:.4}° (bound 0.5°)", gravity.y, worst.to_degrees());
        assert!(worst.to_degrees() < 0.5);
    }
}

/// A chain of `n` capsule links of length `len` hanging from the world, a sphere 10× a
/// link's mass at its end. Returns the world and the heavy body's index.
fn chain(n: usize, len: f32) -> (World, u32) {
    // Eight substeps allow a joint hertz of 240 (at most half the substep rate): the chain
    // scene's settings (scenes/chain_50.ron).
    let mut w = world(Settings { substeps: 8, joint_hertz: 240.0, ..settings() });
    let top = Vec3::new(0.0, 12.0, 0.0);
    let mut prev = WORLD;
    let link_mass = 0.5;
    for i in 0..n {
        let c = top - Vec3::new(0.0, (i as f32 + 0.5) * len, 0.0);
        let mut d =
            BodyDesc::new(format!("link{i}"), Shape::Capsule { radius: 0.04, half_height: len * 0.5 - 0.04 }, c);
        d.mass = Some(link_mass);
        let b = w.add_body(d).unwrap().index;
        joint(&mut w, &format!("j{i}"), JointKind::Ball, prev, b, c + Vec3::new(0.0, len * 0.5, 0.0));
        prev = b;
    }
    let end = top - Vec3::new(0.0, n as f32 * len, 0.0);
    let heavy = sphere(&mut w, "weight", 0.15, end - Vec3::new(0.0, 0.15, 0.0), 10.0 * link_mass);
    joint(&mut w, "end", JointKind::Ball, prev, heavy, end);
    (w, heavy)
}

#[test]
fn fifty_link_chain_with_a_heavy_end_stretches_less_than_one_percent() {
    let (n, len) = (50, 0.2);
    let (mut w, heavy) = chain(n, len);
    // Swing it: a sideways kick to the weight.
    w.body_mut(w.handle(heavy as usize)).unwrap().velocity = Vec3::new(2.0, 0.0, 0.0);
    let total = n as f32 * len;
    let mut worst = 0.0f32;
    for _ in 0..(10.0 / DT) as usize {
        w.step(DT);
        let stretch: f32 = w.joints().iter().map(|j| j.position_error).sum();
        worst = worst.max(stretch);
    }
    println!(
        "50-link chain, end 10× a link: total stretch (sum of joint gaps) at most {:.3} mm = {:.4} % of {total} m (bound 1 %)",
        worst * 1e3,
        worst / total * 100.0
    );
    assert!(worst / total < 0.01);
}

#[test]
fn pulley_keeps_its_rope_length_within_a_millimetre() {
    let mut w = world(settings());
    let (ga, gb, ratio) = (Vec3::new(-1.0, 9.0, 0.0), Vec3::new(1.0, 9.0, 0.0), 2.0);
    // Balanced (mA = ratio·mB… here mA/mB = 1/ratio), set moving and swinging.
    let mut d = BodyDesc::new("a", cube(0.2), Vec3::new(-1.0, 4.8, 0.0));
    d.mass = Some(1.0);
    d.velocity = Vec3::new(0.3, -0.3, 0.0);
    let a = w.add_body(d).unwrap().index;
    let mut d = BodyDesc::new("b", cube(0.2), Vec3::new(1.0, 4.8, 0.0));
    d.mass = Some(2.0);
    let b = w.add_body(d).unwrap().index;
    let kind = JointKind::Pulley { ground_a: ga, ground_b: gb, anchor_b: Vec3::new(1.0, 5.0, 0.0), ratio };
    joint(&mut w, "rope", kind, a, b, Vec3::new(-1.0, 5.0, 0.0));
    let length = |w: &World| {
        let r = &w.joint_records()[0];
        (r.anchor_a - ga).length() + ratio * (r.anchor_b - gb).length()
    };
    let l0 = length(&w);
    let (mut worst, start_a) = (0.0f32, w.bodies()[a as usize].pose.pos);
    for _ in 0..(10.0 / DT) as usize {
        w.step(DT);
        worst = worst.max((length(&w) - l0).abs());
    }
    let moved = (w.bodies()[a as usize].pose.pos - start_a).length();
    println!("pulley: L₁ + ratio·L₂ drifted at most {:.4} mm (bound 1 mm); A moved {moved:.2} m", worst * 1e3);
    assert!(worst < 1e-3 && moved > 1.0);
}

#[test]
fn newtons_cradle_sends_one_ball_out_for_one_ball_in() {
    let mut w = world(Settings { restitution_threshold: 0.1, ..settings() });
    let (r, gap, n, v) = (0.1f32, 0.02f32, 5usize, 1.0f32);
    let mut balls = Vec::new();
    for i in 0..n {
        let x = i as f32 * (2.0 * r + gap);
        let mut d = BodyDesc::new(format!("ball{i}"), Shape::Sphere { radius: r }, Vec3::new(x, 1.0, 0.0));
        d.mass = Some(1.0);
        d.friction = 0.0;
        d.restitution = 1.0;
        if i == 0 {
            d.velocity = Vec3::new(v, 0.0, 0.0);
        }
        let b = w.add_body(d).unwrap().index;
        let kind = JointKind::Hinge { axis: Vec3::Z, limits: None, motor: None };
        joint(&mut w, &format!("string{i}"), kind, WORLD, b, Vec3::new(x, 2.0, 0.0));
        balls.push(b);
    }
    // Each collision is one step (the gaps are wider than a ball moves in a step, so the
    // speculative contacts never chain three balls); the last ball leaves after n − 1.
    let mut vx = Vec::new();
    for step in 0..30 {
        w.step(DT);
        vx = balls.iter().map(|&b| w.bodies()[b as usize].velocity.length()).collect();
        if vx[n - 1] > 0.5 * v {
            println!("the last ball left in step {step}");
            break;
        }
    }
    let others = vx[..n - 1].iter().cloned().fold(0.0f32, f32::max);
    println!(
        "Newton's cradle: speeds as the last ball leaves {vx:?} for {v} m/s in: last ball {:.2} % of it (bound ≥ 95 %), others at most {:.2} % (bound 5 %)",
        vx[n - 1] / v * 100.0,
        others / v * 100.0
    );
    assert!(vx[n - 1] >= 0.95 * v);
    assert!(vx[..n - 1].iter().all(|&s| s <= 0.05 * v));
}

#[test]
fn breakable_joint_breaks_at_its_threshold() {
    // A 1 kg ball hanging at rest pulls with m·g = 9.81 N.
    for (threshold, breaks) in [(9.3f32, true), (10.3, false)] {
        let mut w = world(settings());
        let bob = sphere(&mut w, "bob", 0.1, Vec3::new(0.0, 1.0, 0.0), 1.0);
        let mut d = JointDesc::new("rope", JointKind::Ball, WORLD, bob, Vec3::new(0.0, 2.0, 0.0));
        d.kind =
            JointKind::Distance { anchor_b: Vec3::new(0.0, 1.0, 0.0), length: 1.0, min: None, max: None, spring: None };
        d.break_force = Some(threshold);
        w.add_joint(d).unwrap();
        let mut broke_at = None;
        for step in 0..120 {
            w.step(DT);
            if broke_at.is_none() && w.joints()[0].broken {
                broke_at = Some(step);
            }
        }
        let force = w.joints()[0].linear_impulse.length() / DT;
        println!(
            "breakable: threshold {threshold} N (weight {G} N): broke at step {broke_at:?}, last force {force:.3} N"
        );
        assert_eq!(broke_at.is_some(), breaks);
        if breaks {
            assert!(w.bodies()[bob as usize].pose.pos.y < 0.0, "the ball falls once the joint broke");
        }
    }
}

#[test]
fn a_jointed_chain_sleeps_and_wakes_as_one() {
    let mut w = world(Settings::default());
    ground(&mut w);
    let mut prev = None;
    let mut ids = Vec::new();
    for i in 0..6 {
        let b =
            w.add_body(BodyDesc::new(format!("l{i}"), cube(0.1), Vec3::new(i as f32 * 0.25, 0.1, 0.0))).unwrap().index;
        if let Some(p) = prev {
            joint(&mut w, &format!("j{i}"), JointKind::Ball, p, b, Vec3::new(i as f32 * 0.25 - 0.125, 0.1, 0.0));
        }
        prev = Some(b);
        ids.push(b);
    }
    for _ in 0..240 {
        w.step(DT);
    }
    assert!(ids.iter().all(|&i| w.bodies()[i as usize].asleep), "the chain fell asleep");
    w.wake(ids[5] as usize);
    w.step(DT);
    let awake = ids.iter().filter(|&&i| !w.bodies()[i as usize].asleep).count();
    assert_eq!(awake, ids.len(), "waking one link wakes the chain");
}

#[test]
fn jointed_runs_are_bit_identical() {
    let run = || {
        let (mut w, heavy) = chain(10, 0.2);
        w.body_mut(w.handle(heavy as usize)).unwrap().velocity = Vec3::new(1.0, 0.0, 0.5);
        for _ in 0..200 {
            w.step(DT);
        }
        w.bodies().iter().map(|b| (b.pose.pos.to_array(), b.pose.rot.to_array())).collect::<Vec<_>>()
    };
    assert_eq!(run(), run());
}

/// The fast path runs the joint passes on compact records (`joint/compact.rs`); it must give
/// the per-joint path's numbers bit for bit: bodies, point impulses, per-step sums, errors,
/// and the step a breakable joint breaks. Every kind is here (the others keep their place
/// in the order), ball joints between two moving bodies, to the world and to a static body;
/// with sleeping on, warm starting off, and in the earliest-collision mode, whose cuts
/// (a free ball landing) prepare and finish the joints several times a step. The contacts'
/// SIMD batches differ from the scalar solver by rounding (tested apart), which would move
/// the cuts, so the iterative method runs that variant without the ball. With a net of 112
/// more ball joints the joints are solved colour by colour (`joint/colours.rs`), on two
/// threads on the fast path, each colour shared out in the smallest blocks (the net's
/// spheres touch as it swings: not in the iterative method, for the same reason).
#[test]
fn the_compact_joint_path_gives_the_per_joint_numbers_bit_for_bit() {
    use contactlab::physics::{ContinuousMode, SolverMode};
    type Variant = fn(Settings) -> Settings;
    let variants: [(&str, Variant); 4] = [
        ("default", |s| s),
        ("sleeping", |s| Settings { sleeping: true, ..s }),
        ("no warm starting", |s| Settings { warm_starting: false, ..s }),
        ("earliest collision", |s| Settings { ccd: ContinuousMode::EarliestCollision, ..s }),
    ];
    let run = |mode: SolverMode, simd: bool, variant: Variant, ball: bool, net: bool| {
        let mut w = world(variant(Settings { mode, simd, threads: 2, ..settings() }));
        w.set_fine_split(true);
        if net {
            // 8 × 8 bodies joined to their neighbours, two corners on the world: spheres,
            // and every third a capsule (its inertia not the same about every axis), so the
            // ball joints' four lanes ([`joint/wide.rs`]) mix both forms of K.
            let mut ids = Vec::new();
            for i in 0..8 {
                for k in 0..8 {
                    let at = Vec3::new(6.0 + 0.3 * i as f32, 4.0, 0.3 * k as f32);
                    ids.push(if (i + k) % 3 == 0 {
                        let shape = Shape::Capsule { half_height: 0.06, radius: 0.05 };
                        w.add_body(BodyDesc::new(format!("n{i}_{k}"), shape, at)).unwrap().index
                    } else {
                        sphere(&mut w, &format!("n{i}_{k}"), 0.1, at, 1.0)
                    });
                    let me = ids.len() - 1;
                    if i > 0 {
                        joint(
                            &mut w,
                            &format!("nx{i}_{k}"),
                            JointKind::Ball,
                            ids[me - 8],
                            ids[me],
                            at - Vec3::X * 0.15,
                        );
                    }
                    if k > 0 {
                        joint(
                            &mut w,
                            &format!("nz{i}_{k}"),
                            JointKind::Ball,
                            ids[me - 1],
                            ids[me],
                            at - Vec3::Z * 0.15,
                        );
                    }
                    if k == 0 && (i == 0 || i == 7) {
                        joint(&mut w, &format!("nw{i}"), JointKind::Ball, WORLD, ids[me], at);
                    }
                }
            }
        }
        if ball {
            ground(&mut w);
            sphere(&mut w, "free", 0.1, Vec3::new(6.0, 0.5, 0.0), 1.0);
        }
        let post = w.add_body(BodyDesc::new("post", cube(0.2), Vec3::new(-3.0, 3.0, 0.0)).fixed()).unwrap().index;
        let axis = Vec3::new(0.0, 0.0, 1.0);
        let kinds = [
            JointKind::Ball,
            JointKind::Hinge { axis, limits: Some((-0.5, 0.5)), motor: Some(Motor { speed: 1.0, max: 5.0 }) },
            JointKind::Ball,
            JointKind::Distance { anchor_b: Vec3::ZERO, length: 0.0, min: None, max: None, spring: None },
            JointKind::Slider { axis: Vec3::X, limits: Some((-0.3, 0.3)), motor: None },
            JointKind::Weld { linear_hertz: 0.0, angular_hertz: 5.0, damping_ratio: 0.7 },
        ];
        let mut prev = post;
        for (k, kind) in kinds.into_iter().enumerate() {
            let x = k as f32 * 0.6 - 2.7;
            let b = sphere(&mut w, &format!("b{k}"), 0.2, Vec3::new(x, 3.0 + 0.1 * k as f32, 0.0), 1.0 + k as f32);
            let anchor = Vec3::new(x - 0.3, 3.0, 0.0);
            let kind = match kind {
                JointKind::Distance { .. } => JointKind::Distance {
                    anchor_b: Vec3::new(x, 3.0, 0.0),
                    length: 0.3,
                    min: None,
                    max: None,
                    spring: Some(Spring { hertz: 3.0, damping_ratio: 0.2 }),
                },
                k => k,
            };
            w.add_joint(JointDesc::new(format!("j{k}"), kind, prev, b, anchor)).unwrap();
            prev = b;
        }
        // A pendulum on the world, and one whose ball joint breaks under a kick.
        let bob = sphere(&mut w, "bob", 0.1, Vec3::new(2.0, 2.0, 0.3), 2.0);
        joint(&mut w, "pivot", JointKind::Ball, WORLD, bob, Vec3::new(2.0, 3.0, 0.0));
        let weak = sphere(&mut w, "weak", 0.1, Vec3::new(3.0, 2.0, 0.0), 1.0);
        let mut d = JointDesc::new("weak", JointKind::Ball, WORLD, weak, Vec3::new(3.0, 3.0, 0.0));
        d.break_force = Some(60.0);
        w.add_joint(d).unwrap();
        let (mut out, mut cuts) = (Vec::new(), 0);
        for step in 0..240 {
            if step == 100 {
                w.body_mut(w.handle(weak as usize)).unwrap().velocity = Vec3::new(9.0, 0.0, 0.0);
            }
            w.step(DT);
            cuts += w.continuous().sub_events.len();
            for b in w.bodies() {
                out.extend(b.pose.pos.to_array().into_iter().chain(b.pose.rot.to_array()).chain(b.velocity.to_array()));
                out.extend(b.angular_velocity.to_array());
            }
            for j in w.joints() {
                out.extend(j.impulses.point.to_array().into_iter().chain(j.linear_impulse.to_array()));
                out.extend(j.angular_impulse.to_array().into_iter().chain([j.position_error, j.angular_error]));
                out.push(if j.broken { step as f32 } else { -1.0 });
            }
        }
        let broke = w.joints().iter().any(|j| j.name == "weak" && j.broken);
        assert!(!ball || cuts > 0, "the landing ball cuts a step");
        assert_eq!(w.joint_colour_counts().is_some(), net, "the joints are coloured with the net only");
        (out.into_iter().map(f32::to_bits).collect::<Vec<_>>(), broke)
    };
    for (name, variant) in variants {
        for mode in SolverMode::ALL {
            for net in [false, true].into_iter().filter(|&n| !n || mode != SolverMode::Iterative) {
                let ball = name == "earliest collision" && mode != SolverMode::Iterative;
                let (fast, broke) = run(mode, true, variant, ball, net);
                let (per_joint, _) = run(mode, false, variant, ball, net);
                assert!(broke, "{name}, {mode:?}: the weak joint breaks");
                let first = fast.iter().zip(&per_joint).position(|(a, b)| a != b);
                assert_eq!(first, None, "{name}, {mode:?}, net {net}: the compact path differs at value {first:?}");
            }
        }
    }
}

#[test]
fn every_kind_runs_in_every_method_without_blowing_up() {
    use contactlab::physics::SolverMode;
    for mode in SolverMode::ALL {
        let mut w = world(Settings { mode, ..settings() });
        ground(&mut w);
        let axis = Vec3::new(0.0, 0.0, 1.0);
        let kinds = [
            JointKind::Ball,
            JointKind::Hinge { axis, limits: Some((-0.5, 0.5)), motor: Some(Motor { speed: 1.0, max: 5.0 }) },
            JointKind::Slider { axis: Vec3::X, limits: Some((-0.3, 0.3)), motor: None },
            JointKind::Weld { linear_hertz: 0.0, angular_hertz: 5.0, damping_ratio: 0.7 },
            // Angular only: paired with a ball joint below.
            JointKind::Angle { axis: Vec3::Y, cone: Some(0.5), twist: Some((-0.3, 0.3)) },
            JointKind::Wheel {
                axis: Vec3::Y,
                spin_axis: Vec3::Z,
                spring: Spring { hertz: 4.0, damping_ratio: 0.7 },
                limits: None,
                motor: None,
            },
        ];
        for (k, kind) in kinds.into_iter().enumerate() {
            let x = k as f32 * 2.0;
            let b = w.add_body(BodyDesc::new(format!("b{k}"), cube(0.2), Vec3::new(x, 3.0, 0.0))).unwrap().index;
            w.add_joint(JointDesc::new(format!("j{k}"), kind, WORLD, b, Vec3::new(x, 3.3, 0.0))).unwrap();
            if let JointKind::Angle { .. } = kind {
                w.add_joint(JointDesc::new("angle ball", JointKind::Ball, WORLD, b, Vec3::new(x, 3.3, 0.0))).unwrap();
            }
        }
        for _ in 0..240 {
            w.step(DT);
        }
        for (b, j) in w.bodies().iter().skip(1).zip(w.joints().iter().filter(|j| j.name != "angle ball")) {
            assert!(b.pose.pos.is_finite() && b.pose.pos.y > 1.5, "{mode:?}: {} fell to {:?}", j.name, b.pose.pos);
            assert!(j.position_error < 0.05, "{mode:?}: {} error {}", j.name, j.position_error);
        }
    }
}

#[test]
fn mouse_joint_pulls_a_body_to_the_cursor() {
    let mut w = world(settings());
    ground(&mut w);
    let b = w.add_body(BodyDesc::new("box", cube(0.25), Vec3::new(0.0, 0.25, 0.0))).unwrap().index as usize;
    let target = Vec3::new(0.0, 2.0, 0.0);
    let h = w.grab(b, Vec3::new(0.0, 0.25, 0.0), target, 1000.0).unwrap();
    for _ in 0..180 {
        w.step(DT);
    }
    let p = w.bodies()[b].pose.transform_point(Vec3::new(0.0, 0.25, 0.0));
    assert!((p - target).length() < 0.05, "grab point at {p}");
    w.move_mouse(h, Vec3::new(1.0, 2.0, 0.0));
    for _ in 0..180 {
        w.step(DT);
    }
    let p = w.bodies()[b].pose.transform_point(Vec3::new(0.0, 0.25, 0.0));
    assert!((p - Vec3::new(1.0, 2.0, 0.0)).length() < 0.05, "grab point at {p}");
    w.remove_joint(h);
    assert!(w.joint(h).is_none());
    for _ in 0..120 {
        w.step(DT);
    }
    assert!(w.bodies()[b].pose.pos.y < 0.5, "released, the box falls");
}

fn err(text: &str) -> String {
    match scene::load_str(text, "<text>") {
        Ok(_) => panic!("should fail:\n{text}"),
        Err(e) => e.to_string(),
    }
}

const BODIES: &str = r#"bodies: [
        (name: "frame", shape: Box(half_extents: (0.1, 1.0, 0.1)), kind: Static),
        (name: "door", shape: Box(half_extents: (0.5, 1.0, 0.05)), position: (0.6, 0.0, 0.0)),
    ],"#;

fn with_joint(j: &str) -> String {
    format!("Scene(name: \"j\", {BODIES} joints: [{j}])")
}

#[test]
fn the_issue_example_loads_as_written() {
    let text = with_joint(
        r#"(name: "door_hinge", kind: Hinge(axis: (0.0, 1.0, 0.0), limits: Some((-90.0, 0.0)), motor: None), a: "frame", b: "door", anchor: (0.1, 0.0, 0.0))"#,
    );
    let s = scene::load_str(&text, "<text>").unwrap();
    assert_eq!(s.world.joints().len(), 1);
    let world = with_joint(r#"(name: "hook", kind: Ball, a: "door", anchor: (0.6, 1.0, 0.0))"#);
    let s = scene::load_str(&world, "<text>").unwrap();
    assert_eq!(s.world.joints()[0].b, WORLD, "b left out: the world");
}

#[test]
fn bad_joint_descriptions_name_the_joint_and_the_field() {
    let cases = [
        (
            r#"(name: "h", kind: Ball, a: "frame", b: "nobody", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'b': no body is named 'nobody'",
        ),
        (
            r#"(name: "h", kind: Hinge(axis: (0.0, 0.0, 0.0)), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'axis': must not be zero",
        ),
        (
            r#"(name: "h", kind: Hinge(axis: (0.0, 1.0, 0.0), limits: Some((10.0, -10.0))), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'limits': limits out of order",
        ),
        (
            r#"(name: "h", kind: Ball, a: "door", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'b': a joint of a body to itself",
        ),
        (
            r#"(name: "h", kind: Ball, a: "frame", b: "world", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'b': joins two bodies that never move",
        ),
        (
            r#"(name: "h", kind: Slider(axis: (1.0, 0.0, 0.0), limits: Some((1.0, 0.0))), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'limits'",
        ),
        (
            r#"(name: "h", kind: Distance(anchor_b: (1.0, 0.0, 0.0), min: Some(2.0), max: Some(1.0)), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'min'",
        ),
        (
            r#"(name: "h", kind: Ball, a: "frame", b: "door", anchor: (0.0, 0.0, 0.0), break_force: Some(-1.0))"#,
            "joint 'h', field 'break_force'",
        ),
        (
            r#"(name: "h", kind: Hinge(axis: (0.0, 1.0, 0.0), limits: Some((-200.0, 0.0))), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
            "joint 'h', field 'limits'",
        ),
    ];
    for (j, needle) in cases {
        let e = err(&with_joint(j));
        assert!(e.contains(needle), "{e}\n  lacks: {needle}");
    }
    let two = with_joint(
        r#"(name: "h", kind: Ball, a: "frame", b: "door", anchor: (0.0, 0.0, 0.0)), (name: "h", kind: Ball, a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#,
    );
    assert!(err(&two).contains("joint 'h', field 'name'"));
    let unknown = with_joint(r#"(name: "h", kind: Spring, a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#);
    assert!(err(&unknown).contains("Hinge"), "unknown kinds list the valid ones: {}", err(&unknown));
}

#[test]
fn bad_joint_in_a_scene_file_exits_non_zero_on_the_command_line() {
    let dir = std::env::temp_dir().join(format!("contactlab-joint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad_joint.ron");
    std::fs::write(
        &bad,
        with_joint(r#"(name: "door_hinge", kind: Hinge(axis: (0.0, 0.0, 0.0)), a: "frame", b: "door", anchor: (0.0, 0.0, 0.0))"#),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_contactlab"))
        .args([bad.to_str().unwrap(), "--headless", "--steps", "1"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("joint 'door_hinge', field 'axis'"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rotated_bodies_keep_hinge_angle_zero_at_the_start() {
    let mut w = world(settings());
    let mut d = BodyDesc::new("b", cube(0.2), Vec3::new(0.5, 2.0, 0.0));
    d.rotation = Quat::from_rotation_y(0.7);
    let b = w.add_body(d).unwrap().index;
    let kind = JointKind::Hinge { axis: Vec3::new(1.0, 1.0, 0.0), limits: None, motor: None };
    joint(&mut w, "h", kind, WORLD, b, Vec3::new(0.0, 2.0, 0.0));
    assert!(hinge_angle(&w, "h").abs() < 1e-5);
}

/// A 20 × 20 net of ball joints hanging from its fixed top row, solved with a single
/// iteration per substep at the default joint stiffness (120 Hz, above the one-pass cap of a
/// quarter of the 240 Hz substep rate). The top joints carry 19 spheres: held by a soft joint
/// of ω = 2π·60 /s their steady sag is 19·g/ω² = 1.3 mm; the net starts unstretched, and a
/// suddenly loaded spring overshoots to twice its sag (the column's waves add a little more),
/// so the bound is four times it (measured 3.9 mm). Without the cap (0.5 of the substep rate)
/// the same net oscillates and tears: a 3.2 m gap within three seconds.
#[test]
fn a_joint_grid_holds_with_one_iteration() {
    let s = Settings { sleeping: false, iterations: 1, ..Default::default() };
    let mut w = contactlab::scene::stock::joint_grid(20, s);
    let mut worst = 0.0f32;
    for _ in 0..180 {
        w.step(DT);
        worst = w.joints().iter().map(|j| j.position_error).fold(worst, f32::max);
    }
    let sag = 19.0 * G / (2.0 * std::f32::consts::PI * 60.0).powi(2);
    println!("largest anchor gap over 3 s: {:.2} mm (steady sag {:.2} mm)", worst * 1e3, sag * 1e3);
    assert!(worst < 4.0 * sag, "gap {worst} m, bound {}", 4.0 * sag);
    assert!(worst > 0.3 * sag, "the net must carry its weight: gap {worst} m");
}

/// A chain of two spheres hanging at rest, 2 kg above 1 kg: the step's impulse on each joint
/// is the weight it carries times the step, 3·g·dt on the upper joint and 1·g·dt on the lower
/// — with the joints warm-started, and also when each substep's joint impulses start from
/// zero (warm starting off, for everything or for the joints only). Cold-started, the
/// per-step sums once added each substep's running total instead of what the substep
/// applied: 2.5 times the load with 4 substeps.
#[test]
fn hanging_joints_report_the_weight_they_carry_warm_or_cold() {
    let cases = [
        ("warm-started", settings()),
        ("warm starting off", Settings { warm_starting: false, ..settings() }),
        ("joint warm starting off", Settings { joint_warm_starting: false, ..settings() }),
    ];
    for (label, s) in cases {
        let mut w = world(s);
        let top = sphere(&mut w, "top", 0.1, Vec3::new(0.0, 2.0, 0.0), 2.0);
        let low = sphere(&mut w, "low", 0.1, Vec3::new(0.0, 1.0, 0.0), 1.0);
        joint(&mut w, "upper", JointKind::Ball, WORLD, top, Vec3::new(0.0, 3.0, 0.0));
        joint(&mut w, "lower", JointKind::Ball, top, low, Vec3::new(0.0, 1.5, 0.0));
        for _ in 0..120 {
            w.step(DT);
        }
        let (upper, lower) = (w.joints()[0].linear_impulse, w.joints()[1].linear_impulse);
        let (want_upper, want_lower) = (3.0 * G * DT, G * DT);
        println!(
            "{label}: upper {:.5} N·s (3·g·dt = {want_upper:.5}), lower {:.5} N·s (g·dt = {want_lower:.5})",
            upper.y, lower.y
        );
        assert!((upper.y / want_upper - 1.0).abs() < 0.01, "{label}: upper joint {upper}");
        assert!((lower.y / want_lower - 1.0).abs() < 0.01, "{label}: lower joint {lower}");
        assert!(upper.x.abs() + upper.z.abs() + lower.x.abs() + lower.z.abs() < 1e-4 * want_lower);
    }
}

/// Without warm starting the joints' feedback is not capped: all but rigid ball joints
/// (1000 Hz, the most the scene format takes, against a 240 Hz substep rate) hold the
/// 20 × 20 hanging net with a single iteration per substep, as rapier3d's joints (rigid, not
/// warm-started) do. Warm-started, that stiffness is capped to a quarter of the substep rate
/// with one iteration (without the cap the net tears: `a_joint_grid_holds_with_one_iteration`).
/// The net starts unstretched; rigid joints do not sag, and what is left is how far one
/// pass per substep converges along the 20-sphere columns (measured 11.2 mm; the soft
/// warm-started joints of that test: 3.9 mm).
#[test]
fn rigid_joints_hold_a_net_with_one_iteration_when_not_warm_started() {
    let s = Settings {
        sleeping: false,
        iterations: 1,
        joint_hertz: 1000.0,
        joint_warm_starting: false,
        ..Default::default()
    };
    let mut w = contactlab::scene::stock::joint_grid(20, s);
    let mut worst = 0.0f32;
    for _ in 0..180 {
        w.step(DT);
        worst = w.joints().iter().map(|j| j.position_error).fold(worst, f32::max);
    }
    println!("rigid joints, not warm-started: largest anchor gap over 3 s {:.2} mm", worst * 1e3);
    assert!(worst < 0.02, "gap {worst} m");
    assert_eq!(contactlab::physics::world::joint_hertz_cap(1, false), f32::INFINITY);
    assert_eq!(contactlab::physics::world::joint_hertz_cap(1, true), 0.25);
}

/// The shipped pulley does what its description says: the heavy box falls 1.75 m at g/2
/// (lands after √(2·1.75/4.905) = 0.845 s) while the light box rises, and the light box
/// never reaches its pulley.
#[test]
fn the_shipped_pulley_lands_the_heavy_box_with_the_light_one_clear_of_its_pulley() {
    let s = contactlab::scene::load(&contactlab::scene::scenes_dir().join("pulley.ron")).unwrap();
    let (heavy, light, pulley_b) =
        (s.body_index("heavy").unwrap(), s.body_index("light").unwrap(), s.body_index("pulley_b").unwrap() as u32);
    let mut w = s.world.clone();
    let dt = s.timestep();
    let mut landed = None;
    for k in 1..=180 {
        w.step(dt);
        let y = w.bodies()[heavy].pose.pos.y;
        if landed.is_none() && y < 0.25 + 0.01 {
            landed = Some(k as f32 * dt);
        }
        assert!(
            !w.contacts().iter().any(|c| (c.a == pulley_b || c.b == pulley_b) && !c.manifold.points.is_empty()),
            "the light box touched its pulley at step {k}"
        );
    }
    let t = landed.expect("the heavy box lands");
    assert!((t - 0.845).abs() < 0.05, "landed after {t:.3} s");
    let top = w.bodies()[light].pose.pos.y + 0.2;
    assert!((top - 4.0).abs() < 0.05 && top < 4.8, "the light box's top at {top:.3} m");
}
