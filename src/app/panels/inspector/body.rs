//! The inspector's single-body section: what one selected body is (mass, principal moments of
//! inertia, velocity, spin, kinetic energy, sleeping, contacts) and its editable material:
//! friction, restitution and density. Any edit wakes the body so the change shows at once.

use crate::app::testbed::Testbed;
use egui::RichText;
use glam::Vec3;

fn v3(v: Vec3) -> String {
    format!("({:+.3}, {:+.3}, {:+.3})", v.x, v.y, v.z)
}

/// Principal moments of a symmetric inertia tensor (kg·m²), ascending: the eigenvalues of
/// the 3×3 matrix by the closed-form trigonometric solution.
pub fn principal_moments(m: glam::Mat3) -> [f32; 3] {
    let (a, b, c) = (m.x_axis, m.y_axis, m.z_axis);
    let p1 = a.y * a.y + a.z * a.z + b.z * b.z;
    let (d0, d1, d2) = (a.x, b.y, c.z);
    if p1 <= 1e-12 * (d0 * d0 + d1 * d1 + d2 * d2).max(1e-30) {
        let mut e = [d0, d1, d2];
        e.sort_by(f32::total_cmp);
        return e;
    }
    let q = (d0 + d1 + d2) / 3.0;
    let p2 = (d0 - q).powi(2) + (d1 - q).powi(2) + (d2 - q).powi(2) + 2.0 * p1;
    let p = (p2 / 6.0).sqrt();
    let bm = (m - glam::Mat3::from_diagonal(Vec3::splat(q))) * (1.0 / p);
    let r = (bm.determinant() / 2.0).clamp(-1.0, 1.0);
    let phi = r.acos() / 3.0;
    let e1 = q + 2.0 * p * phi.cos();
    let e3 = q + 2.0 * p * (phi + 2.0 * std::f32::consts::PI / 3.0).cos();
    let e2 = 3.0 * q - e1 - e3;
    let mut e = [e1, e2, e3];
    e.sort_by(f32::total_cmp);
    e
}

/// Shows body `i` as side `k` has it and lets its material be edited (on every side: they
/// run the same scene).
pub fn body(ui: &mut egui::Ui, t: &mut Testbed, k: usize, i: usize) {
    let Some(side) = t.sides.get(k) else { return };
    let world = &side.world;
    if i >= world.bodies().len() {
        return;
    }
    let (name, dynamic, mass, moments, vel, spin, ke, asleep, mut friction, mut restitution, volume) = {
        let b = &world.bodies()[i];
        (
            b.name.clone(),
            b.is_dynamic(),
            b.mass(),
            principal_moments(b.inertia_local),
            b.velocity,
            b.angular_velocity,
            b.kinetic_energy(),
            b.asleep,
            b.friction,
            b.restitution,
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
        if dynamic {
            row("mass", format!("{mass:.3} kg"));
            row("inertia (principal)", format!("{:.4}, {:.4}, {:.4} kg·m²", moments[0], moments[1], moments[2]));
        } else {
            row("mass", "static (infinite)".into());
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
    changed |= ui.add(egui::Slider::new(&mut friction, 0.0..=2.0).text("friction")).changed();
    changed |= ui.add(egui::Slider::new(&mut restitution, 0.0..=1.0).text("restitution")).changed();
    if dynamic && volume > 0.0 {
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
            }
            side.world.wake(i);
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
    b.inv_inertia_local *= 1.0 / k;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn principal_moments_of_a_rotated_diagonal_tensor_are_its_diagonal() {
        let d = glam::Mat3::from_diagonal(Vec3::new(1.0, 2.0, 5.0));
        let r = glam::Mat3::from_quat(glam::Quat::from_euler(glam::EulerRot::XYZ, 0.3, -0.7, 1.1));
        let e = principal_moments(r * d * r.transpose());
        for (got, want) in e.iter().zip([1.0, 2.0, 5.0]) {
            assert!((got - want).abs() < 1e-4, "{e:?}");
        }
        assert_eq!(principal_moments(d), [1.0, 2.0, 5.0]);
    }
}
