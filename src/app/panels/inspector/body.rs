//! The inspector's single-body section: what one selected body is (mass, principal moments of
//! inertia, velocity, spin, kinetic energy, sleeping, contacts) and its editable material:
//! friction, restitution and density. Any edit wakes the body so the change shows at once.

use crate::app::testbed::Testbed;
use crate::physics::{limits, BodyKind};
use egui::RichText;
use glam::Vec3;

fn v3(v: Vec3) -> String {
    format!("({:+.3}, {:+.3}, {:+.3})", v.x, v.y, v.z)
}

/// Shows body `i` as side `k` has it and lets its material be edited (on every side: they
/// run the same scene).
pub fn body(ui: &mut egui::Ui, t: &mut Testbed, k: usize, i: usize) {
    let Some(side) = t.sides.get(k) else { return };
    let world = &side.world;
    if i >= world.bodies().len() {
        return;
    }
    let (name, kind, mass, moments, vel, spin, ke, asleep, mut friction, mut restitution, mut rolling, volume) = {
        let b = &world.bodies()[i];
        (
            b.name.clone(),
            b.kind,
            b.mass(),
            b.principal_inertia.to_array(),
            b.velocity,
            b.angular_velocity,
            b.kinetic_energy(),
            b.asleep,
            b.friction,
            b.restitution,
            b.rolling_resistance,
            b.shape.volume(),
        )
    };
    let contacts: Vec<(String, usize)> = world
        .contacts()
        .iter()
        .filter(|c| !c.manifold.points.is_empty() && (c.a as usize == i || c.b as usize == i))
        .map(|c| {
            let other = if c.a as usize == i { c.b } else { c.a } as usize;
            (world.bodies()[other].name.clone(), c.manifold.points.len())
        })
        .collect();
    ui.label(RichText::new(format!("body: {name}")).strong());
    egui::Grid::new("body").striped(true).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        };
        match kind {
            BodyKind::Dynamic => {
                row("mass", format!("{mass:.3} kg"));
                row("inertia (principal)", format!("{:.4}, {:.4}, {:.4} kg·m²", moments[0], moments[1], moments[2]));
            }
            BodyKind::Static => row("mass", "static (infinite)".into()),
            BodyKind::Kinematic => row("mass", "kinematic (infinite): moves at its set velocity".into()),
        }
        row("velocity", format!("{} m/s", v3(vel)));
        row("spin", format!("{} rad/s", v3(spin)));
        row("kinetic energy", format!("{ke:.4} J"));
        row("asleep", if asleep { "yes".into() } else { "no".into() });
        row("touching", contacts.len().to_string());
    });
    for (other, n) in &contacts {
        ui.label(format!("  – {other}: {n} point{}", if *n == 1 { "" } else { "s" }));
    }
    ui.label(RichText::new("material (edits wake the body)").strong());
    let mut changed = false;
    // Clamped only when dragged: a scene's larger value shows at the slider's end and stays.
    changed |= ui
        .add(egui::Slider::new(&mut friction, 0.0..=2.0).clamping(egui::SliderClamping::Edits).text("friction"))
        .changed();
    changed |= ui.add(egui::Slider::new(&mut restitution, 0.0..=1.0).text("restitution")).changed();
    changed |= ui
        .add(
            egui::Slider::new(&mut rolling, 0.0..=0.5).clamping(egui::SliderClamping::Edits).text("rolling resistance"),
        )
        .on_hover_text("resisting torque ≤ this × normal force × rolling arm (a ball's radius)")
        .changed();
    if kind == BodyKind::Dynamic && volume > 0.0 {
        let mut density = mass / volume;
        if ui.add(egui::Slider::new(&mut density, 10.0..=20_000.0).logarithmic(true).text("density (kg/m³)")).changed()
        {
            for side in t.sides.iter_mut() {
                set_density(&mut side.world, i, density);
            }
            changed = true;
        }
    }
    if changed {
        for side in t.sides.iter_mut() {
            let h = side.world.handle(i);
            if let Some(b) = side.world.body_mut(h) {
                b.friction = friction;
                b.restitution = restitution;
                b.rolling_resistance = rolling;
            }
            side.world.wake(i);
        }
        t.edited();
    }
    if kind == BodyKind::Kinematic {
        kinematic_motion(ui, t, i, vel, spin);
    }
}

/// Slider range of each component of a kinematic body's velocity (m/s) and spin (rad/s);
/// a scene's larger values show at the end of the slider and stay until it is moved.
const MOTION_RANGE: f32 = 20.0;

/// A kinematic body's velocity and spin, each component on a slider: it keeps them until
/// they are changed, on every side. A body on a path has its velocity set by the path each
/// step: the path is named instead, and only the spin is on sliders.
fn kinematic_motion(ui: &mut egui::Ui, t: &mut Testbed, i: usize, mut vel: Vec3, mut spin: Vec3) {
    ui.label(RichText::new("motion (kinematic: kept until changed)").strong());
    let path = t.world().kinematic_path(i).map(|p| {
        let (n, how) = (p.points.len(), if p.looping { "round" } else { "there and back" });
        format!("path: {n} point{} at {:.2} m/s, {how}", if n == 1 { "" } else { "s" }, p.speed)
    });
    if let Some(text) = &path {
        ui.label(text);
    }
    let mut moved = false;
    let (velocity, spins) = ((&mut vel, "m/s", "velocity"), (&mut spin, "rad/s", "spin"));
    let rows = if path.is_some() { vec![spins] } else { vec![velocity, spins] };
    for (v, unit, name) in rows {
        for (c, axis) in v.as_mut().iter_mut().zip(["x", "y", "z"]) {
            let slider = egui::Slider::new(c, -MOTION_RANGE..=MOTION_RANGE)
                .clamping(egui::SliderClamping::Edits)
                .text(format!("{name} {axis} ({unit})"));
            moved |= ui.add(slider).changed();
        }
    }
    if moved {
        let (vel, spin) = (vel.clamp_length_max(limits::SPEED.max), spin.clamp_length_max(limits::SPIN.max));
        for side in t.sides.iter_mut() {
            let h = side.world.handle(i);
            side.world.set_kinematic_velocity(h, vel, spin);
        }
        t.edited();
    }
}

/// Scales body `i`'s mass and inertia to a new density (shape unchanged).
fn set_density(world: &mut crate::physics::World, i: usize, density: f32) {
    let h = world.handle(i);
    let Some(b) = world.body_mut(h) else { return };
    let old = b.mass() / b.shape.volume();
    if !(density.is_finite() && density > 0.0 && old > 0.0) {
        return;
    }
    let k = density / old;
    b.inv_mass /= k;
    b.inertia_local *= k;
    b.principal_inertia *= k;
    b.inv_inertia_local *= 1.0 / k;
}
