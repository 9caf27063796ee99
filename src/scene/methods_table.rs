//! The methods table of docs/methods.md: every resolution method on the same scenes, built
//! here in code so the numbers can be produced again by anyone with
//! `cargo run --release --bin methods-table` (which prints the Markdown table).
//!
//! Scenes and what is measured (SI units, 60 Hz steps, default settings but the method):
//! - **head-on**: spheres of 1 kg and 3 kg (radius 0.5 m), no gravity, approaching at 2 and
//!   −1 m/s with e = 0.8. Momentum error = |p_after − p_before| / |p_before|; restitution
//!   error = |separation speed / approach speed − e| / e.
//! - **flat drop**: a 1 m cube falling flat onto the ground at 5 m/s, e = 0.5, μ = 0.5:
//!   apex error = |apex − e²·H| / (e²·H), H the height that gives 5 m/s at impact (what a
//!   class measures: Newton's law at the moment of impact), and the spin it leaves with
//!   (rad/s).
//! - **stack**: 10 unit cubes resting on each other, 10 s: drift = how far the top box ends
//!   from where it started (mm).
//! - **pyramid**: 20 layers (210 unit cubes), 10 s: drift of the top box (mm), deepest
//!   penetration over the run (mm), mean time per step (ms, this machine, one thread).
//! - **elastic pile**: 24 spheres and 16 cubes (e = 1, μ = 0) thrown about in a closed box
//!   (ground, four walls, a lid) under gravity, 10 s: the largest rise of the total energy
//!   over its start, in per cent (an exact method keeps it at 0; negative numbers are
//!   losses).
//!
//! Limits: one seedless scene each, so a number shows a method's character, not a
//! statistic; the timing column depends on the machine.

use crate::physics::{BodyDesc, Settings, Shape, SolverMode, World};
use glam::{Quat, Vec3};
use web_time::Instant;

/// Step length of every run (s).
pub const DT: f32 = 1.0 / 60.0;

/// One method's numbers (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MethodRow {
    /// The method.
    pub mode: SolverMode,
    /// Head-on: relative momentum error.
    pub momentum_error: f32,
    /// Head-on: relative restitution error.
    pub head_on_restitution_error: f32,
    /// Flat drop: relative error of the apex after the bounce against `e²·H`.
    pub drop_restitution_error: f32,
    /// Flat drop: spin after the bounce (rad/s).
    pub drop_spin: f32,
    /// 10-box stack: top-box drift after `seconds` (m).
    pub stack_drift: f32,
    /// Pyramid: top-box drift after `seconds` (m).
    pub pyramid_drift: f32,
    /// Pyramid: deepest penetration over the run (m).
    pub pyramid_penetration: f32,
    /// Pyramid: mean wall time per step (ms).
    pub pyramid_ms: f32,
    /// Elastic pile: largest relative rise of the total energy (fraction; negative: a loss).
    pub pile_energy_gain: f32,
}

fn world(mode: SolverMode, gravity: Vec3) -> World {
    World::new(gravity, Settings { mode, sleeping: false, ..Default::default() })
}

fn ground(w: &mut World) {
    let g = Shape::cuboid(Vec3::new(30.0, 0.5, 30.0)).expect("box");
    w.add_body(BodyDesc::new("ground", g, Vec3::new(0.0, -0.5, 0.0)).fixed()).expect("ground");
}

/// Head-on collision of two spheres: (momentum error, restitution error).
pub fn head_on(mode: SolverMode) -> (f32, f32) {
    let e = 0.8;
    let mut w = world(mode, Vec3::ZERO);
    let ball = Shape::Sphere { radius: 0.5 };
    let (va, vb) = (Vec3::new(2.0, 0.0, 0.0), Vec3::new(-1.0, 0.0, 0.0));
    let a = BodyDesc { mass: Some(1.0), ..BodyDesc::new("a", ball.clone(), Vec3::new(-1.0, 0.0, 0.0)) };
    let b = BodyDesc { mass: Some(3.0), ..BodyDesc::new("b", ball, Vec3::new(1.0, 0.0, 0.0)) };
    w.add_body(a.with_velocity(va).with_material(0.0, e)).expect("a");
    w.add_body(b.with_velocity(vb).with_material(0.0, e)).expect("b");
    let p0 = va * 1.0 + vb * 3.0;
    for _ in 0..60 {
        w.step(DT);
    }
    let (ba, bb) = (&w.bodies()[0], &w.bodies()[1]);
    let p1 = ba.velocity * ba.mass() + bb.velocity * bb.mass();
    let separation = (bb.velocity - ba.velocity).x;
    ((p1 - p0).length() / p0.length(), (separation / (va - vb).x - e).abs() / e)
}

/// A cube dropped flat at 5 m/s with e = 0.5: (apex error, spin after the bounce). The
/// apex error is `|apex − e²·H| / (e²·H)`, with `H` the height (above touching) the cube's
/// start state reaches 5 m/s from and `apex` the highest its bottom rises after the bounce
/// — what a class measures; Newton's law at the moment of impact gives `e²·H`.
pub fn flat_drop(mode: SolverMode) -> (f32, f32) {
    let (e, g) = (0.5, 9.81);
    let mut w = world(mode, Vec3::new(0.0, -g, 0.0));
    ground(&mut w);
    let cube = Shape::cuboid(Vec3::splat(0.5)).expect("box");
    // Starts 0.5 m above touching at the speed that reaches 5 m/s there: H = 5²/2g.
    let v0 = (25.0f32 - 2.0 * g * 0.5).sqrt();
    let drop = 25.0 / (2.0 * g);
    let body = BodyDesc::new("cube", cube, Vec3::new(0.0, 1.0, 0.0)).with_velocity(Vec3::new(0.0, -v0, 0.0));
    w.add_body(body.with_material(0.5, e)).expect("cube");
    let (mut bounced, mut apex, mut spin, mut top) = (false, None, 0.0f32, f32::NEG_INFINITY);
    for _ in 0..180 {
        let before = w.bodies()[1].velocity.y;
        w.step(DT);
        let b = &w.bodies()[1];
        if before < 0.0 && b.velocity.y > 0.0 && !bounced {
            bounced = true;
            spin = b.angular_velocity.length();
        }
        if bounced && apex.is_none() {
            top = top.max(b.pose.pos.y - 0.5);
            if b.velocity.y <= 0.0 {
                apex = Some(top);
            }
        }
    }
    let want = e * e * drop;
    match apex {
        Some(top) => ((top - want).abs() / want, spin),
        None => (1.0, w.bodies()[1].angular_velocity.length()),
    }
}

/// A column of `n` unit cubes resting on the ground: top-box drift after `seconds` (m).
pub fn stack(mode: SolverMode, n: usize, seconds: f32) -> f32 {
    let mut w = world(mode, Vec3::new(0.0, -9.81, 0.0));
    ground(&mut w);
    let cube = Shape::cuboid(Vec3::splat(0.5)).expect("box");
    for i in 0..n {
        w.add_body(BodyDesc::new(format!("box{i}"), cube.clone(), Vec3::new(0.0, 0.5 + i as f32, 0.0))).expect("cube");
    }
    let top = w.bodies().len() - 1;
    let start = w.bodies()[top].pose.pos;
    for _ in 0..(seconds / DT).round() as usize {
        w.step(DT);
    }
    w.bodies()[top].pose.pos.distance(start)
}

/// The `layers`-row pyramid of the peer table: (top-box drift, deepest penetration, mean
/// ms per step) after `seconds`.
pub fn pyramid(mode: SolverMode, layers: usize, seconds: f32) -> (f32, f32, f32) {
    let settings = Settings { mode, sleeping: false, ..Default::default() };
    let mut w = super::stock::pyramid(layers, settings);
    let top = w.bodies().len() - 1;
    let start = w.bodies()[top].pose.pos;
    let steps = (seconds / DT).round() as usize;
    let mut pen = 0.0f32;
    let t = Instant::now();
    for _ in 0..steps {
        w.step(DT);
        pen = pen.max(w.stats().max_penetration);
    }
    let ms = t.elapsed().as_secs_f32() * 1000.0 / steps.max(1) as f32;
    (w.bodies()[top].pose.pos.distance(start), pen, ms)
}

/// Spheres and cubes (e = 1, μ = 0) thrown about in a closed 4 m box: the largest rise of
/// the total energy over `seconds`, relative to the start.
pub fn elastic_pile(mode: SolverMode, seconds: f32) -> f32 {
    let mut w = world(mode, Vec3::new(0.0, -9.81, 0.0));
    let wall = |w: &mut World, name: &str, half: Vec3, at: Vec3| {
        let shape = Shape::cuboid(half).expect("box");
        w.add_body(BodyDesc::new(name, shape, at).fixed().with_material(0.0, 1.0)).expect("wall");
    };
    wall(&mut w, "ground", Vec3::new(2.5, 0.5, 2.5), Vec3::new(0.0, -0.5, 0.0));
    wall(&mut w, "lid", Vec3::new(2.5, 0.5, 2.5), Vec3::new(0.0, 4.5, 0.0));
    for (k, (x, z)) in [(2.5, 0.0), (-2.5, 0.0), (0.0, 2.5), (0.0, -2.5)].into_iter().enumerate() {
        let half = if x != 0.0 { Vec3::new(0.5, 2.5, 2.5) } else { Vec3::new(2.5, 2.5, 0.5) };
        wall(&mut w, &format!("wall{k}"), half, Vec3::new(x, 2.0, z));
    }
    let ball = Shape::Sphere { radius: 0.25 };
    let cube = Shape::cuboid(Vec3::splat(0.2)).expect("box");
    // A fixed pattern (no random numbers): a 5 × 4 × 2 grid, velocities turning with the index.
    for i in 0..40usize {
        let (x, z, y) = (i % 5, (i / 5) % 4, i / 20);
        let p = Vec3::new(x as f32 * 0.75 - 1.5, 0.6 + y as f32 * 1.5, z as f32 * 0.9 - 1.35);
        let a = i as f32 * 2.4;
        let v = Vec3::new(a.cos() * 3.0, 1.0 + (a * 0.7).sin(), a.sin() * 3.0);
        let shape = if i % 5 < 3 { ball.clone() } else { cube.clone() };
        let body = BodyDesc::new(format!("b{i}"), shape, p).with_rotation(Quat::from_rotation_y(a)).with_velocity(v);
        w.add_body(body.with_material(0.0, 1.0)).expect("body");
    }
    let e0 = w.total_energy();
    let mut rise = f32::NEG_INFINITY;
    for _ in 0..(seconds / DT).round() as usize {
        w.step(DT);
        rise = rise.max(w.total_energy() - e0);
    }
    rise / e0.abs()
}

/// Every measurement of one method (`seconds` for the stack, pyramid and pile runs; the
/// table uses 10).
pub fn measure(mode: SolverMode, seconds: f32) -> MethodRow {
    let (momentum_error, head_on_restitution_error) = head_on(mode);
    let (drop_restitution_error, drop_spin) = flat_drop(mode);
    let (pyramid_drift, pyramid_penetration, pyramid_ms) = pyramid(mode, 20, seconds);
    MethodRow {
        mode,
        momentum_error,
        head_on_restitution_error,
        drop_restitution_error,
        drop_spin,
        stack_drift: stack(mode, 10, seconds),
        pyramid_drift,
        pyramid_penetration,
        pyramid_ms,
        pile_energy_gain: elastic_pile(mode, seconds),
    }
}

/// The rows as a Markdown table.
pub fn markdown(rows: &[MethodRow]) -> String {
    let mut s = String::from(
        "| method | head-on: momentum error | head-on: e error | flat drop: apex error | flat drop: spin (rad/s) \
         | 10-box stack drift (mm) | pyramid-20 drift (mm) | pyramid-20 max penetration (mm) \
         | elastic pile: energy rise | pyramid-20 ms/step |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {:.1e} | {:.2} % | {:.2} % | {:.3} | {:.1} | {:.1} | {:.1} | {:+.2} % | {:.2} |\n",
            r.mode.name(),
            r.momentum_error,
            r.head_on_restitution_error * 100.0,
            r.drop_restitution_error * 100.0,
            r.drop_spin,
            r.stack_drift * 1000.0,
            r.pyramid_drift * 1000.0,
            r.pyramid_penetration * 1000.0,
            r.pile_energy_gain * 100.0,
            r.pyramid_ms,
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Short runs of every method: every number finite, one table row per method, and the
    /// columns tell the methods apart the way docs/methods.md reads them.
    #[test]
    fn every_method_gets_a_row_of_finite_numbers() {
        let rows: Vec<_> = SolverMode::ALL.into_iter().map(|m| measure(m, 1.0)).collect();
        for r in &rows {
            let numbers = [
                r.momentum_error,
                r.head_on_restitution_error,
                r.drop_restitution_error,
                r.drop_spin,
                r.stack_drift,
                r.pyramid_drift,
                r.pyramid_penetration,
                r.pile_energy_gain,
            ];
            assert!(numbers.iter().all(|x| x.is_finite()), "{r:?}");
        }
        let table = markdown(&rows);
        assert_eq!(table.lines().count(), 2 + SolverMode::ALL.len());
        let row = |m: SolverMode| rows.iter().find(|r| r.mode == m).unwrap();
        let (naive, iterative) = (row(SolverMode::Naive), row(SolverMode::Iterative));
        assert!(naive.momentum_error < 1e-5 && naive.head_on_restitution_error < 0.01, "{naive:?}");
        assert!(naive.drop_spin > 0.5, "naive's flat drop spins: {naive:?}");
        assert!(iterative.drop_spin < 0.01 && iterative.drop_restitution_error < 0.01, "{iterative:?}");
        assert!(iterative.stack_drift < 0.01 && iterative.pyramid_drift < 0.01, "{iterative:?}");
    }
}
