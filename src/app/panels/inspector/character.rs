//! The inspector's character part: the collide-and-slide recursion of a character's last
//! move as a table — pass, depth, motion, time of impact, the feature touched, the body it
//! belongs to, the displacement left — and the bodies it pushed.

use crate::physics::character::{Pass, NO_BODY};
use crate::physics::World;
use crate::render::characters::ARROW_SCALE;
use egui::RichText;

/// The recursion of character `i` of `w`.
pub fn recursion(ui: &mut egui::Ui, w: &World, i: usize) {
    let c = &w.characters()[i];
    ui.label(RichText::new(format!("last move of {}: {} recursion steps", c.name, c.body.steps.len())).strong());
    ui.label(format!(
        "drawn: rings at each sweep's start and end, green = walking pass, purple = gravity pass; \
         red dot = touch point, orange = sliding plane; arrows ×{ARROW_SCALE:.0}"
    ));
    egui::Grid::new("recursion").striped(true).show(ui, |ui| {
        for h in ["pass", "depth", "motion (mm)", "time of impact", "feature", "of", "left (mm)"] {
            ui.label(RichText::new(h).small().strong());
        }
        ui.end_row();
        for s in &c.body.steps {
            ui.label(match s.pass {
                Pass::Velocity => "walk",
                Pass::Gravity => "gravity",
            });
            ui.label(s.depth.to_string());
            ui.label(format!("{:.2}", s.motion.length() * 1000.0));
            match &s.hit {
                Some(h) => {
                    ui.label(format!("{:.4}", h.t));
                    ui.label(h.feature.label());
                    ui.label(if h.owner == NO_BODY {
                        "mesh".to_string()
                    } else {
                        w.bodies().get(h.owner as usize).map_or("?".to_string(), |b| b.name.clone())
                    });
                }
                None => {
                    ui.label("no touch");
                    ui.label("");
                    ui.label("");
                }
            }
            ui.label(format!("{:.2}", s.new_motion.length() * 1000.0));
            ui.end_row();
        }
    });
    if !c.pushes.is_empty() {
        ui.label(format!("pushing {} bodies this step", c.pushes.len()));
    }
}
