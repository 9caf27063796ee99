//! The joint inspector: what the solver sees of the selected joint — its Jacobian rows, the
//! effective-mass matrix K = J·M⁻¹·Jᵀ, each row's position error C and accumulated impulse,
//! the limit state and the force over the last step (and the part of it that the turn of a
//! body pinned at the joint's point took, which no row carries: `world/pivots.rs`).

use crate::app::testbed::Testbed;
use crate::physics::world::JointRecord;
use crate::physics::World;
use crate::physics::WORLD;
use egui::RichText;

fn body_name(w: &World, i: u32) -> String {
    if i == WORLD {
        "world".into()
    } else {
        w.bodies().get(i as usize).map_or_else(|| format!("#{i}"), |b| b.name.clone())
    }
}

/// The inspector of joint `r` on side `k`.
pub fn joint(ui: &mut egui::Ui, t: &mut Testbed, k: usize, r: &JointRecord) {
    ui.label(RichText::new(format!("joint '{}' ({})", r.name, r.kind)).strong());
    if let Some(side) = t.sides.get(k) {
        ui.label(format!("A = {},  B = {}", body_name(&side.world, r.a), body_name(&side.world, r.b)));
    }
    if r.broken {
        ui.colored_label(egui::Color32::from_rgb(200, 30, 30), "broken: it no longer acts");
    }
    let dt = t.timestep();
    let f = crate::render::joints::force(r, dt).1;
    let torque = r.angular_impulse / dt.max(1e-6);
    egui::Grid::new("joint state").striped(true).show(ui, |ui| {
        let mut row = |k: &str, v: String| {
            ui.label(k);
            ui.label(v);
            ui.end_row();
        };
        row("force on B", format!("{:.2} N  ({:.2}, {:.2}, {:.2})", f.length(), f.x, f.y, f.z));
        if r.pivot_impulse != glam::Vec3::ZERO {
            // The body turns about this point (`world/pivots.rs`): the rows below carry the
            // rest of the force.
            let p = r.pivot_impulse / dt.max(1e-6);
            row(
                "of which the turn about the pivot",
                format!("{:.2} N  (centripetal: the body is pinned here)", p.length()),
            );
        }
        row("torque on B", format!("{:.2} N·m", torque.length()));
        row("position error", format!("{:.3} mm", r.position_error * 1000.0));
        row("angle error", format!("{:.3}°", r.angular_error.to_degrees()));
        let pos = match r.kind {
            "hinge" | "angle" => format!("{:.2}°", r.position.to_degrees()),
            _ => format!("{:.4} m", r.position),
        };
        row("angle / translation / length", pos);
        if let Some((lo, hi)) = r.limits {
            let (lo, hi) = if matches!(r.kind, "hinge" | "angle") {
                (format!("{:.1}°", lo.to_degrees()), format!("{:.1}°", hi.to_degrees()))
            } else {
                (format!("{lo:.3} m"), format!("{hi:.3} m"))
            };
            let state = match r.limit_state {
                -1 => "at the lower limit",
                1 => "at the upper limit",
                _ => "free",
            };
            row("limits", format!("{lo} … {hi}: {state}"));
        }
    });
    ui.separator();
    ui.label(RichText::new("Jacobian rows (A linear | A angular | B linear | B angular), C, impulse").strong());
    egui::ScrollArea::horizontal().id_salt("joint rows").show(ui, |ui| {
        egui::Grid::new("joint rows").striped(true).show(ui, |ui| {
            for h in ["row", "J", "C", "λ (N·s)"] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for row in &r.rows {
                ui.label(RichText::new(row.name).small());
                let j = &row.jac;
                let v = |x: glam::Vec3| format!("{:+.2} {:+.2} {:+.2}", x.x, x.y, x.z);
                let text = format!("{} | {} | {} | {}", v(j.la.into()), v(j.aa.into()), v(j.lb.into()), v(j.ab.into()));
                ui.label(RichText::new(text).small().monospace());
                ui.label(RichText::new(format!("{:+.4}", row.c)).small().monospace());
                ui.label(RichText::new(format!("{:+.4}", row.impulse)).small().monospace());
                ui.end_row();
            }
        });
    });
    let n = r.rows.len();
    if n > 0 && r.k.len() == n * n {
        ui.label(RichText::new("effective mass matrix K = J·inv(M)·J^T (row × row)").strong());
        egui::Grid::new("joint k").show(ui, |ui| {
            for i in 0..n {
                for c in 0..n {
                    ui.label(RichText::new(format!("{:.3}", r.k[i * n + c])).small().monospace());
                }
                ui.end_row();
            }
        });
    }
    if ui.button("Deselect joint").clicked() {
        t.selection.joint = None;
    }
}
