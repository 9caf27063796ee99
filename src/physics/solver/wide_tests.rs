//! Tests of the SIMD solver against the scalar one and of its batches.

use super::*;
use crate::physics::hull::builders::SplitMix64;
use crate::physics::math::tangent_basis;
use crate::physics::solver::lanes::sqrt4;
use crate::physics::solver::{ConstraintPoint, Row};
use glam::{Vec3, Vec3A};

fn body(inv_mass: f32, v: Vec3A, w: Vec3A) -> SolverBody {
    SolverBody {
        v,
        w,
        inv_mass,
        inv_i: glam::Mat3A::from_diagonal(Vec3::new(1.0, 2.0, 1.5) * inv_mass),
        ..Default::default()
    }
}

fn rand3(rng: &mut SplitMix64) -> Vec3A {
    Vec3A::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0
}

/// A static body, then `count` moving ones that moved by up to `moved` per axis and turned
/// by up to `turned` rad per axis since the step began.
fn moved_bodies(rng: &mut SplitMix64, count: usize, moved: f32, turned: f32) -> Vec<SolverBody> {
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    for _ in 0..count {
        let mut b = body(0.5 + rng.next_f32(), rand3(rng), rand3(rng));
        b.dp = rand3(rng) * moved;
        b.dq = glam::Quat::from_scaled_axis(glam::Vec3::from(rand3(rng)) * turned);
        bodies.push(b);
    }
    bodies
}

/// A manifold between `a` and `b` with `count` random points, warm impulses and
/// separations (some speculative).
fn manifold(rng: &mut SplitMix64, bodies: &[SolverBody], a: u32, b: u32, count: usize) -> ContactConstraint {
    let n = rand3(rng).normalize();
    let (t1, t2) = tangent_basis(n.into());
    let (t1, t2) = (Vec3A::from(t1), Vec3A::from(t2));
    let (sa, sb) = (&bodies[a as usize], &bodies[b as usize]);
    let mut c = ContactConstraint {
        a,
        b,
        normal: n,
        t1,
        t2,
        friction: 0.6,
        softness: crate::physics::solver::Softness::new(30.0, 10.0, 1.0 / 240.0),
        count: count as u32,
        ..Default::default()
    };
    for p in &mut c.points[..count] {
        let (ra, rb) = (rand3(rng) * 0.5, rand3(rng) * 0.5);
        let rows = [Row::new(sa, sb, ra, rb, n), Row::new(sa, sb, ra, rb, t1), Row::new(sa, sb, ra, rb, t2)];
        *p = ConstraintPoint {
            ra,
            rb,
            normal_mass: rows[0].effective_mass(sa, sb),
            tangent_mass: [rows[1].effective_mass(sa, sb), rows[2].effective_mass(sa, sb)],
            separation: rng.next_f32() * 0.02 - 0.015,
            normal_impulse: rng.next_f32() * 0.5,
            tangent_impulse: [rng.next_f32() * 0.1, -rng.next_f32() * 0.1],
            ..Default::default()
        };
    }
    c
}

#[test]
fn separations_and_totals_updated_in_the_solve_pass_equal_separate_passes() {
    // Bodies that moved and turned (dp, dq) since the step began; a relax pass that
    // updates the separations and the totals itself must match a separate update, the
    // pass and a separate accumulation, bit for bit, and the separations must have
    // changed.
    let mut rng = SplitMix64(31);
    let mut bodies = moved_bodies(&mut rng, 12, 0.01, 0.02);
    let cs: Vec<_> = (1..=12u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 1 + i as usize % 4)).collect();
    // The static lane filler, last.
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    let settings = Settings::default();
    let (mut a, mut b) = (wide.clone(), wide.clone());
    let (mut ba, mut bb) = (bodies.clone(), bodies.clone());
    a.update_separations(&ba);
    a.pass(&mut ba, &settings, 240.0, Pass::default());
    a.accumulate_totals();
    b.overflow.update_separations(&bb);
    b.pass(&mut bb, &settings, 240.0, Pass { update: true, accumulate: true, ..Default::default() });
    for (x, y) in ba.iter().zip(&bb) {
        assert_eq!((x.v, x.w), (y.v, y.w));
    }
    let mut changed = 0;
    for (i, ((wa, wb), w0)) in a.batches.iter().zip(&b.batches).zip(&wide.batches).enumerate() {
        let (ca, cb) = (&a.cold[i], &b.cold[i]);
        for (k, ((pa, pb), p0)) in wa.points.iter().zip(&wb.points).zip(&w0.points).enumerate() {
            assert_eq!(pa.separation, pb.separation);
            assert_eq!((ca.total_normal[k], ca.total_tangent[k]), (cb.total_normal[k], cb.total_tangent[k]));
            assert!(ca.total_normal[k].cmpeq(pa.normal_impulse).all(), "totals were zero");
            changed += (pa.separation - p0.separation).abs().cmpgt(Vec4::splat(1e-6)).bitmask().count_ones();
        }
    }
    assert!(changed > 10, "{changed} separations changed");
}

#[test]
fn isotropic_batches_take_the_short_form_with_the_same_results() {
    // Cubes (inverse inertia k·I) in a chain; one batch gets a body with a full inverse
    // inertia and must not be flagged. The short form must give the same velocities
    // and impulses as the full 3×3 products, pass after pass.
    let mut rng = SplitMix64(41);
    let cube = |m: f32, rng: &mut SplitMix64| SolverBody {
        inv_i: glam::Mat3A::from_diagonal(Vec3::splat(6.0 * m)),
        ..body(m, rand3(rng), rand3(rng))
    };
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    for _ in 0..16 {
        let m = 0.5 + rng.next_f32();
        bodies.push(cube(m, &mut rng));
    }
    bodies.push(body(0.7, rand3(&mut rng), rand3(&mut rng)));
    let cs: Vec<_> = (1..=17u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 1 + i as usize % 4)).collect();
    // The static lane filler, last.
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut short = WideSolver::default();
    short.build(&cs, &bodies);
    let flagged = short.batches.iter().filter(|w| w.bodies.isotropic).count();
    let with_full = |c: &BatchCold| c.source.iter().any(|&ci| ci != u32::MAX && cs[ci as usize].b == 17);
    assert_eq!(flagged, short.cold.iter().filter(|c| !with_full(c)).count());
    assert!(flagged >= 3 && flagged < short.batches.len(), "{flagged} of {} batches", short.batches.len());
    // Their lane masses (built with the short form) equal the scalar ones.
    for (w, cold) in short.batches.iter().zip(&short.cold).filter(|(w, _)| w.bodies.isotropic) {
        for (lane, &ci) in cold.source.iter().enumerate().filter(|(_, &ci)| ci != u32::MAX) {
            for (wp, p) in w.points.iter().zip(&cs[ci as usize].points[..cs[ci as usize].count as usize]) {
                let got = [wp.normal_mass[lane], wp.tangent_mass[0][lane], wp.tangent_mass[1][lane]];
                let want = [p.normal_mass, p.tangent_mass[0], p.tangent_mass[1]];
                for (g, w) in got.iter().zip(want) {
                    assert!((g - w).abs() <= 1e-6 * w, "lane mass {g} vs scalar {w}");
                }
            }
        }
    }
    let mut full = short.clone();
    for w in &mut full.batches {
        w.bodies.isotropic = false;
    }
    let settings = Settings::default();
    let (mut bs, mut bf) = (bodies.clone(), bodies.clone());
    for k in 0..6 {
        let pass = Pass { use_bias: k % 2 == 0, reverse: k % 3 == 1, ..Default::default() };
        short.pass(&mut bs, &settings, 240.0, pass);
        full.pass(&mut bf, &settings, 240.0, pass);
    }
    for (x, y) in bs.iter().zip(&bf) {
        assert_eq!((x.v, x.w), (y.v, y.w));
    }
    let moved = bs.iter().zip(&bodies).filter(|(x, y)| (x.w - y.w).length() > 1e-3).count();
    assert!(moved > 10, "{moved} bodies changed their spin");
    for (ws, wf) in short.batches.iter().zip(&full.batches) {
        for (ps, pf) in ws.points.iter().zip(&wf.points) {
            assert_eq!((ps.normal_impulse, ps.tangent_impulse), (pf.normal_impulse, pf.tangent_impulse));
        }
    }
}

#[test]
fn wide_passes_equal_scalar_passes_on_independent_manifolds() {
    // Ground 0 (static), bodies 1..=20; manifolds share only the ground, so the pairs of
    // moving bodies all take colour 0 and those on the ground the last colour: no two
    // manifolds share a moving body, so the wide order (colour by colour) gives what the
    // scalar order (pair order) gives.
    let mut rng = SplitMix64(21);
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    bodies.extend((1..=20).map(|_| body(0.5 + rng.next_f32(), rand3(&mut rng), rand3(&mut rng))));
    let mut cs = Vec::new();
    for i in 1..=8u32 {
        cs.push(manifold(&mut rng, &bodies, 0, i, 1 + (i as usize % 4)));
    }
    for i in (9..=20u32).step_by(2) {
        cs.push(manifold(&mut rng, &bodies, i, i + 1, 1 + (i as usize % 4)));
    }
    // The static lane filler, last.
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    let counts = wide.colouring().counts;
    assert_eq!((counts[0], counts[COLOURS - 1]), (6, 8), "{counts:?}");
    assert_eq!(counts.iter().sum::<u32>() as usize, cs.len());
    assert_eq!(wide.batches.len(), 6usize.div_ceil(LANES) + 8usize.div_ceil(LANES));
    // The lane masses equal the scalar ones; slots a manifold lacks hold zero.
    for (w, cold) in wide.batches.iter().zip(&wide.cold) {
        for (lane, &ci) in cold.source.iter().enumerate() {
            let count = cs.get(ci as usize).map_or(0, |c| c.count as usize);
            for (k, wp) in w.points.iter().enumerate() {
                let got = [wp.normal_mass[lane], wp.tangent_mass[0][lane], wp.tangent_mass[1][lane]];
                if k < count {
                    let p = &cs[ci as usize].points[k];
                    let want = [p.normal_mass, p.tangent_mass[0], p.tangent_mass[1]];
                    for (g, w) in got.iter().zip(want) {
                        assert!((g - w).abs() <= 1e-6 * w, "lane mass {g} vs scalar {w}");
                    }
                } else {
                    assert_eq!(got, [0.0; 3], "slot {k} of a {count}-point manifold");
                }
            }
        }
    }
    let (mut wb, mut sb, mut sc) = (bodies.clone(), bodies.clone(), cs.clone());
    let settings = Settings::default();
    wide.warm_start(&mut wb);
    iterative::warm_start(&sc, &mut sb);
    for pass in 0..4 {
        let (bias, reverse) = (pass < 2, pass % 2 == 1);
        wide.pass(&mut wb, &settings, 240.0, Pass { use_bias: bias, reverse, ..Default::default() });
        iterative::solve(&mut sc, &mut sb, &settings, 240.0, Pass { use_bias: bias, reverse, ..Default::default() });
    }
    wide.accumulate_totals();
    iterative::accumulate_totals(&mut sc);
    let mut wc = cs.clone();
    wide.store(&mut wc);
    for (x, y) in wb.iter().zip(&sb) {
        assert!((x.v - y.v).abs().max_element() < 1e-5 && (x.w - y.w).abs().max_element() < 1e-5);
    }
    let mut moved = 0.0f32;
    for (x, y) in wb.iter().zip(&bodies) {
        moved = moved.max((x.v - y.v).length());
    }
    assert!(moved > 0.1, "the passes changed velocities ({moved})");
    for (cw, cs) in wc.iter().zip(&sc) {
        for (p, q) in cw.points.iter().zip(&cs.points).take(cw.count as usize) {
            assert!((p.normal_impulse - q.normal_impulse).abs() < 1e-5);
            assert!((p.total_normal_impulse - q.total_normal_impulse).abs() < 1e-5);
            assert!((p.tangent_impulse[0] - q.tangent_impulse[0]).abs() < 1e-5);
            assert!((p.tangent_impulse[1] - q.tangent_impulse[1]).abs() < 1e-5);
            assert_eq!(p.max_normal_impulse > 0.0, q.max_normal_impulse > 0.0);
        }
    }
}

#[test]
fn batches_never_share_a_dynamic_body_and_keep_every_manifold() {
    // A chain 1-2-…-40 on a static ground 0 and a hub 41 touching 30 of them: more than
    // COLOURS, so at least 6 of the hub's manifolds go to the scalar overflow.
    let mut rng = SplitMix64(4);
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    bodies.extend((1..=41).map(|_| body(1.0, Vec3A::ZERO, Vec3A::ZERO)));
    let mut cs = Vec::new();
    for i in 1..=40u32 {
        cs.push(manifold(&mut rng, &bodies, 0, i, 4));
        if i < 40 {
            cs.push(manifold(&mut rng, &bodies, i, i + 1, 2));
        }
    }
    for i in 1..=30u32 {
        cs.push(manifold(&mut rng, &bodies, i, 41, 1));
    }
    // The static lane filler, last.
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    let mut seen: Vec<u32> = wide.cold.iter().flat_map(|c| c.source).filter(|&s| s != u32::MAX).collect();
    seen.extend(&wide.overflow.source);
    seen.sort_unstable();
    assert_eq!(seen, (0..cs.len() as u32).collect::<Vec<_>>(), "every manifold exactly once");
    assert!(wide.overflow.constraints.len() >= 30 - COLOURS, "{:?}", wide.colouring().counts);
    for w in &wide.batches {
        let mut dynamic: Vec<u32> =
            w.bodies.a.iter().chain(&w.bodies.b).copied().filter(|&i| bodies[i as usize].inv_mass > 0.0).collect();
        let n = dynamic.len();
        dynamic.sort_unstable();
        dynamic.dedup();
        assert_eq!(dynamic.len(), n, "a dynamic body twice in one batch");
    }
}

/// The restitution pass's active set (the SIMD solver's) against the full passes (the
/// scalar solver's): 12 separate bouncing pairs of 2 to 4 points, whose points are coupled
/// through their two bodies (a box face), and 12 of one point each (a ball on a box).
/// Bouncing manifolds that share a body are redone pair by pair (`impacts.rs`), so the
/// passes see separate pairs only. The velocities and impulses agree to the passes'
/// tolerance, and the one-point pairs, settled after a pass or two, are not visited again
/// while the faces converge.
#[test]
fn restitution_active_set_agrees_with_the_full_passes() {
    let mut rng = SplitMix64(77);
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    for _ in 0..48 {
        bodies.push(body(0.5 + rng.next_f32(), rand3(&mut rng) * 2.0, rand3(&mut rng)));
    }
    let mut cs: Vec<_> =
        (0..12u32).map(|k| manifold(&mut rng, &bodies, 1 + 2 * k, 2 + 2 * k, 2 + k as usize % 3)).collect();
    cs.extend((0..12u32).map(|k| manifold(&mut rng, &bodies, 25 + 2 * k, 26 + 2 * k, 1)));
    for c in &mut cs {
        c.restitution = 0.5;
        for p in &mut c.points[..c.count as usize] {
            p.relative_velocity = -2.0 - 4.0 * rng.next_f32();
            p.rebound = -0.5 * p.relative_velocity;
            p.total_normal_impulse = p.normal_impulse;
            p.max_normal_impulse = p.normal_impulse.max(0.1);
        }
    }
    let run = |active: bool| {
        let (mut c, mut b) = (cs.clone(), bodies.clone());
        let visits = iterative::apply_restitution(&mut c, &mut b, f32::INFINITY, 1.0, active, &mut Default::default());
        (c, b, visits)
    };
    let ((cf, bf, full), (ca, ba, active)) = (run(false), run(true));
    let speed = bf.iter().map(|b| b.v.length().max(b.w.length())).fold(0.0f32, f32::max);
    let mut worst = 0.0f32;
    for (x, y) in bf.iter().zip(&ba) {
        worst = worst.max((x.v - y.v).length()).max((x.w - y.w).length());
    }
    assert!(worst <= 1e-3 * speed, "velocities differ by {worst} (speeds up to {speed})");
    let largest =
        cf.iter().flat_map(|c| c.points[..c.count as usize].iter().map(|p| p.normal_impulse)).fold(0.0, f32::max);
    for (x, y) in cf.iter().zip(&ca) {
        for (p, q) in x.points[..x.count as usize].iter().zip(&y.points) {
            assert!(
                (p.normal_impulse - q.normal_impulse).abs() <= 1e-3 * largest,
                "{} vs {}",
                p.normal_impulse,
                q.normal_impulse
            );
        }
    }
    assert!(active * 3 < full * 2, "{active} visits with the active set, {full} without");
    eprintln!("restitution: {active} manifold visits with the active set, {full} without; velocities within {worst:e}");
}

/// The friction clamp skips its square root and division when every lane is below
/// `INSIDE_DISC · max²`; that is only the same numbers if no such lane would have been
/// scaled. Tangent impulses just inside the margin, at every magnitude from 10⁻¹⁸ to 10⁶
/// N·s, and at the rim itself, against the exact test.
#[test]
fn the_friction_clamps_shortcut_never_skips_a_lane_the_exact_test_scales() {
    let mut rng = SplitMix64(11);
    let (mut skipped, mut near) = (0u32, 0u32);
    for _ in 0..400_000 {
        let max = 10f32.powf(rng.next_f32() * 24.0 - 18.0);
        // |impulse| from 0.999·max to 1.0001·max, mostly within a few ulps of the margin.
        let r = if rng.next_u64() % 2 == 0 {
            INSIDE_DISC.sqrt() + (rng.next_f32() - 0.5) * 4e-7
        } else {
            0.999 + rng.next_f32() * 0.0011
        };
        let a = rng.next_f32() * std::f32::consts::TAU;
        let (n1, n2) = (Vec4::splat(max * r * a.cos()), Vec4::splat(max * r * a.sin()));
        let m = Vec4::splat(max);
        let len2 = n1 * n1 + n2 * n2;
        let exact_scales = sqrt4(len2).cmpgt(m).any();
        let skips = !(len2.cmpge(m * m * INSIDE_DISC) & len2.cmpgt(Vec4::ZERO)).any();
        assert!(!(skips && exact_scales), "max {max}, |j|² {}", len2.x);
        skipped += skips as u32;
        near += (skips && sqrt4(len2).x > max * 0.999_99) as u32;
    }
    // Zero impulses, with max zero (empty slots) or not, are skipped and never scaled.
    for max in [0.0, 1e-30, 1.0] {
        let (z, m) = (Vec4::ZERO, Vec4::splat(max));
        assert!(!sqrt4(z * z + z * z).cmpgt(m).any());
        assert!(!((z * z + z * z).cmpge(m * m * INSIDE_DISC) & (z * z + z * z).cmpgt(Vec4::ZERO)).any());
    }
    println!("{skipped} skipped, {near} of them within 10⁻⁵ of the rim");
    assert!(near > 10_000, "the samples must reach the margin: {near}");
}

/// [`WideBatch::default_in`] and [`BatchCold::default_in`] write zero bytes: that must be
/// the default.
#[test]
fn a_batch_of_zero_bytes_is_the_default() {
    let mut slot = std::mem::MaybeUninit::uninit();
    let zeroed = *WideBatch::default_in(&mut slot);
    assert_eq!(format!("{zeroed:?}"), format!("{:?}", WideBatch::default()));
    let mut slot = std::mem::MaybeUninit::uninit();
    let zeroed = *BatchCold::default_in(&mut slot);
    assert_eq!(format!("{zeroed:?}"), format!("{:?}", BatchCold::default()));
}

#[test]
fn a_turning_sphere_keeps_its_separation_and_the_lanes_agree_with_the_scalar_update() {
    // A ball (body B, radius r) against a static body: whatever it turns by, a point's
    // separation moves only with its centre, `s₀ + n·Δp` — both at a speculative point
    // (B's arm reaches its own surface, `−r·n`) and at a touching one (the arms end at the
    // common point, `−(r − d/2)·n`). Without the rounding the turned arm reads a gap.
    let (r, n) = (0.1f32, Vec3A::new(0.3, -0.8, 0.52).normalize());
    let ball = |dq: glam::Quat, dp: Vec3A| SolverBody { dq, dp, inv_mass: 1.0, ..Default::default() };
    let ground = SolverBody::default();
    for (depth, turn) in [(-0.004f32, 0.9f32), (0.003, 0.9), (0.0, 2.5), (-0.03, 3.1), (0.006, 0.3)] {
        let ra = Vec3A::new(0.2, 0.1, -0.4);
        let rb = -n * if depth < 0.0 { r } else { r - 0.5 * depth };
        let p = ConstraintPoint { ra, rb, adjusted_separation: -depth - n.dot(rb - ra), depth, ..Default::default() };
        let axis = n.cross(Vec3A::X).normalize();
        let dp = Vec3A::new(0.01, -0.02, 0.005);
        let b = ball(glam::Quat::from_axis_angle(axis.into(), turn), dp);
        let s = p.separation_now(n, &ground, &b, [0.0, r]);
        assert!((s - (-depth + n.dot(dp))).abs() < 1e-6, "depth {depth}, turn {turn}: {s}");
        let unrounded = p.separation_now(n, &ground, &b, [0.0, 0.0]);
        assert!(unrounded > s + 0.5 * (r - 0.5 * depth.max(0.0)) * (1.0 - turn.cos()), "{unrounded} vs {s}");
    }
    // The lanes' update against the scalar one, with random roundings, depths and turns of
    // up to a radian: to rounding.
    let mut rng = SplitMix64(77);
    let mut bodies = moved_bodies(&mut rng, 16, 0.05, 0.6);
    let mut cs: Vec<_> = (1..=16u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 1 + i as usize % 4)).collect();
    for c in &mut cs {
        c.rounding = [if rng.next_f32() < 0.5 { 0.0 } else { 0.2 * rng.next_f32() }, 0.2 * rng.next_f32()];
        for p in &mut c.points[..c.count as usize] {
            p.depth = rng.next_f32() * 0.04 - 0.02;
            p.adjusted_separation = -p.depth - c.normal.dot(p.rb - p.ra);
        }
    }
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    wide.update_separations(&bodies);
    let mut compared = 0;
    for (w, cold) in wide.batches.iter().zip(&wide.cold) {
        assert!(w.rounded);
        for (lane, &ci) in cold.source.iter().enumerate().filter(|(_, &ci)| ci != u32::MAX) {
            let c = &cs[ci as usize];
            let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
            for (k, p) in c.points[..c.count as usize].iter().enumerate() {
                let scalar = p.separation_now(c.normal, a, b, c.rounding);
                assert!(
                    (w.points[k].separation[lane] - scalar).abs() < 2e-6,
                    "{} vs {scalar}",
                    w.points[k].separation[lane]
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 30, "{compared} points compared");
}

/// The passes read the bodies by the batches' indices without a bounds check each; a pass
/// given fewer bodies than the batches were built over must stop before reading any.
#[test]
#[should_panic(expected = "6 solver bodies for batches built over 14")]
fn a_pass_over_fewer_bodies_than_the_build_stops() {
    let mut rng = SplitMix64(7);
    let mut bodies = moved_bodies(&mut rng, 12, 0.0, 0.0);
    let cs: Vec<_> = (1..=12u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 2)).collect();
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    bodies.truncate(6);
    wide.pass(&mut bodies, &Settings::default(), 240.0, Pass::default());
}

/// Slots idle in every lane (points apart holding no impulse) skip their friction rows and
/// their warm start, and a normal row whose impulse changed in no lane skips its
/// inverse-inertia products: the same numbers as the full rows. 32 manifolds of one to
/// four points on a static ground (all in one colour, the last): half of them with every
/// point idle, a quarter with all but the first.
/// A third of the bodies approach the ground fast, so some idle points close their gap
/// within the passes, and four touching one-point manifolds hold no normal impulse, one of
/// them with friction left over (its slot is not idle). The colouring groups the idle points into the same slots, the passes
/// take the short way there, and bodies and impulses equal those of the same batches with
/// the test switched off.
#[test]
fn idle_slots_are_skipped_with_the_same_numbers() {
    let mut rng = SplitMix64(57);
    let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
    bodies.extend((1..=32).map(|_| body(0.5 + rng.next_f32(), rand3(&mut rng), rand3(&mut rng))));
    let mut cs = Vec::new();
    for i in 1..=32u32 {
        let count = 1 + (i as usize - 1) / 8;
        let mut c = manifold(&mut rng, &bodies, 0, i, count);
        let from = match i % 4 {
            0 | 2 => 0,
            1 => 1,
            _ => count,
        };
        for (k, p) in c.points[..count].iter_mut().enumerate().skip(from) {
            p.separation = 0.002 + 0.01 * rng.next_f32();
            (p.normal_impulse, p.tangent_impulse) = (0.0, [0.0; 2]);
            c.idle |= 1 << k;
        }
        // The one-point manifolds that are not idle (1, 3, 5, 7) touch, approach and hold no
        // normal impulse yet, one of them with friction left over along t2: a slot whose
        // friction must still be taken back before its normal row reads the velocities.
        if count == 1 && from == count {
            c.points[0].normal_impulse = 0.0;
            c.points[0].tangent_impulse = [0.0, if i == 5 { 0.05 } else { 0.0 }];
            c.points[0].separation = -0.005;
            bodies[i as usize].v = -c.normal;
        }
        if i % 3 == 0 {
            bodies[i as usize].v = -3.0 * c.normal;
        }
        cs.push(c);
    }
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let mut wide = WideSolver::default();
    wide.build(&cs, &bodies);
    let idle_slots: usize = wide.batches.iter().map(|w| w.points[..w.slots].iter().filter(|p| idle(p)).count()).sum();
    assert!(idle_slots >= 10, "{idle_slots} slots idle in every lane: the colouring did not group them");
    let mut full = wide.clone();
    full.batches.iter_mut().for_each(|w| w.idle_slots = false);
    let settings = Settings::default();
    let run = |solver: &mut WideSolver| {
        let mut b = bodies.clone();
        solver.warm_start(&mut b);
        for pass in 0..6 {
            let pass = Pass { use_bias: pass < 4, reverse: pass % 2 == 1, accumulate: pass == 5, ..Default::default() };
            solver.pass(&mut b, &settings, 240.0, pass);
        }
        b
    };
    let (skipped, whole) = (run(&mut wide), run(&mut full));
    for (x, y) in skipped.iter().zip(&whole) {
        assert_eq!((x.v, x.w), (y.v, y.w));
    }
    let mut woke = 0;
    for ((w, f), (wc, fc)) in wide.batches.iter().zip(&full.batches).zip(wide.cold.iter().zip(&full.cold)) {
        for (p, q) in w.points.iter().zip(&f.points) {
            assert_eq!((p.normal_impulse, p.tangent_impulse), (q.normal_impulse, q.tangent_impulse));
        }
        assert_eq!((wc.total_normal, wc.total_tangent), (fc.total_normal, fc.total_tangent));
        woke += w.points[..w.slots].iter().filter(|p| !idle(p)).count();
    }
    let before: usize = full.batches.iter().map(|w| w.slots).sum::<usize>() - idle_slots;
    assert!(woke > before, "no idle slot took an impulse ({woke} busy slots, {before} before the passes)");
}

/// The fill as it was written before the transposes, one number into one lane at a time:
/// the reference [`fill::fill_batch`] must equal bit for bit.
fn reference_fill(
    w: &mut WideBatch,
    cold: &mut BatchCold,
    chunk: &[u32],
    cs: &[ContactConstraint],
    bodies: &[SolverBody],
) {
    let pad = bodies.len() as u32 - 1;
    w.bodies.a = [pad; LANES];
    w.bodies.b = [pad; LANES];
    cold.source = [u32::MAX; LANES];
    let set3 = |v: &mut V3, lane: usize, x: Vec3A| (v.x[lane], v.y[lane], v.z[lane]) = (x.x, x.y, x.z);
    for (lane, &ci) in chunk.iter().enumerate() {
        let c = &cs[ci as usize];
        let (ba, bb) = (&bodies[c.a as usize], &bodies[c.b as usize]);
        (w.bodies.a[lane], w.bodies.b[lane]) = (c.a, c.b);
        (w.bodies.inv_mass_a[lane], w.bodies.inv_mass_b[lane]) = (ba.inv_mass, bb.inv_mass);
        for (m, s) in [(&ba.inv_i, &mut w.bodies.inv_i_a), (&bb.inv_i, &mut w.bodies.inv_i_b)] {
            (s.xx[lane], s.yy[lane], s.zz[lane]) = (m.x_axis.x, m.y_axis.y, m.z_axis.z);
            (s.xy[lane], s.xz[lane], s.yz[lane]) = (m.y_axis.x, m.z_axis.x, m.z_axis.y);
        }
        (cold.source[lane], cold.contact[lane], cold.count[lane]) = (ci, c.contact, c.count);
        set3(&mut w.normal, lane, c.normal);
        set3(&mut w.t1, lane, c.t1);
        set3(&mut w.t2, lane, c.t2);
        w.friction[lane] = c.friction;
        w.bias_rate[lane] = c.softness.bias_rate;
        w.mass_scale[lane] = c.softness.mass_scale;
        w.impulse_scale[lane] = c.softness.impulse_scale;
        if c.rounding != [0.0; 2] {
            w.rounded = true;
            (cold.rounding[0][lane], cold.rounding[1][lane]) = (c.rounding[0], c.rounding[1]);
            for (inside, p) in cold.inside.iter_mut().zip(&c.points[..c.count as usize]) {
                inside[lane] = 0.5 * p.depth.max(0.0);
            }
        }
        for (k, p) in c.points[..c.count as usize].iter().enumerate() {
            let wp = &mut w.points[k];
            cold.ids[k][lane] = p.id;
            cold.total_normal[k][lane] = p.total_normal_impulse;
            cold.total_tangent[k][0][lane] = p.total_tangent_impulse[0];
            cold.total_tangent[k][1][lane] = p.total_tangent_impulse[1];
            set3(&mut wp.ra, lane, p.ra);
            set3(&mut wp.rb, lane, p.rb);
            wp.adjusted[lane] = p.adjusted_separation;
            wp.separation[lane] = p.separation;
            wp.normal_impulse[lane] = p.normal_impulse;
            wp.tangent_impulse[0][lane] = p.tangent_impulse[0];
            wp.tangent_impulse[1][lane] = p.tangent_impulse[1];
            wp.max_normal[lane] = p.max_normal_impulse;
            w.idle_slots |= p.separation > 0.0 || p.normal_impulse == 0.0;
        }
    }
    w.slots = cold.count.into_iter().max().unwrap_or(0) as usize;
}

#[test]
fn the_transposed_fill_writes_every_lane_as_the_lane_by_lane_fill_does() {
    // Bodies with full, unsymmetric inverse inertias (the fill must take the same entries),
    // constraints of 1 to 4 points with junk in the points past their count, rounded and
    // square shapes mixed, separations and impulses of both signs and zeros; batches of 1
    // to 4 constraints. Every field of the batch and of its cold part must be the same bits.
    let mut rng = SplitMix64(97);
    let mut bodies: Vec<SolverBody> = (0..12)
        .map(|i| SolverBody {
            inv_i: glam::Mat3A::from_cols(rand3(&mut rng), rand3(&mut rng), rand3(&mut rng)),
            ..body(if i == 0 { 0.0 } else { 0.3 + rng.next_f32() }, rand3(&mut rng), rand3(&mut rng))
        })
        .collect();
    bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
    let maybe_zero = |rng: &mut SplitMix64| if rng.next_f32() < 0.3 { 0.0 } else { rng.next_f32() * 2.0 - 1.0 };
    let cs: Vec<ContactConstraint> = (0..40u32)
        .map(|i| {
            let mut c = ContactConstraint {
                a: i % 12,
                b: (i * 5 + 3) % 12,
                contact: 1000 + i,
                normal: rand3(&mut rng),
                t1: rand3(&mut rng),
                t2: rand3(&mut rng),
                friction: rng.next_f32(),
                count: 1 + i % 4,
                rounding: if i % 3 == 0 { [0.0, 0.0] } else { [0.1 * rng.next_f32(), maybe_zero(&mut rng).abs()] },
                ..Default::default()
            };
            c.softness.bias_rate = rng.next_f32();
            c.softness.mass_scale = rng.next_f32();
            c.softness.impulse_scale = rng.next_f32();
            // All four points hold numbers, also those past the count.
            for p in &mut c.points {
                *p = ConstraintPoint {
                    ra: rand3(&mut rng),
                    rb: rand3(&mut rng),
                    adjusted_separation: maybe_zero(&mut rng),
                    separation: maybe_zero(&mut rng),
                    normal_impulse: maybe_zero(&mut rng).abs(),
                    max_normal_impulse: rng.next_f32(),
                    tangent_impulse: [maybe_zero(&mut rng), maybe_zero(&mut rng)],
                    total_tangent_impulse: [rng.next_f32(), rng.next_f32()],
                    total_normal_impulse: rng.next_f32(),
                    depth: maybe_zero(&mut rng),
                    id: crate::physics::collide::FeatureId(rng.0),
                    ..Default::default()
                };
            }
            c
        })
        .collect();
    let mut idle_batches = 0;
    for (n, start) in (0..40u32).map(|j| (1 + j as usize % 4, (j * 7) % 37)) {
        let chunk: Vec<u32> = (0..n as u32).map(|l| (start + 3 * l) % 40).collect();
        let (mut w, mut cold) = (WideBatch::default(), BatchCold::default());
        fill::fill_batch(
            &mut w,
            &mut cold,
            &chunk,
            &cs,
            &bodies,
            &ContactConstraint { a: 12, b: 12, ..Default::default() },
        );
        let (mut rw, mut rcold) = (WideBatch::default(), BatchCold::default());
        reference_fill(&mut rw, &mut rcold, &chunk, &cs, &bodies);
        assert_eq!(format!("{w:?}"), format!("{rw:?}"), "batch of {chunk:?}");
        assert_eq!(format!("{cold:?}"), format!("{rcold:?}"), "cold part of {chunk:?}");
        idle_batches += w.idle_slots as usize;
    }
    assert!(idle_batches > 0 && idle_batches < 40, "{idle_batches} batches with idle slots");
}
