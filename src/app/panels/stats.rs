//! The panel's *Stats* section: counts, penetration, energy and step time, then the time
//! of each stage of the last step; one column per side of a comparison.

use crate::app::testbed::Testbed;
use crate::physics::Stage;
use egui::RichText;

/// The section.
pub fn stats(ui: &mut egui::Ui, t: &Testbed) {
    // One column per side.
    let sides: Vec<(&crate::physics::World, f32)> = t.sides.iter().map(|s| (&s.world, s.max_penetration_run)).collect();
    let header = |ui: &mut egui::Ui| {
        if sides.len() > 1 {
            ui.label("");
            for k in 0..sides.len() {
                ui.label(RichText::new(t.side_title(k)).strong());
            }
            ui.end_row();
        }
    };
    egui::Grid::new("stats").striped(true).show(ui, |ui| {
        header(ui);
        type Row = fn(&crate::physics::World, f32) -> String;
        let rows: [(&str, Row); 9] = [
            ("bodies", |w, _| w.stats().bodies.to_string()),
            ("awake", |w, _| w.stats().awake.to_string()),
            ("pairs", |w, _| w.stats().pairs.to_string()),
            ("touching pairs", |w, _| w.stats().touching.to_string()),
            ("contact points", |w, _| w.stats().points.to_string()),
            ("max penetration, this step", |w, _| format!("{:.4} m", w.stats().max_penetration)),
            ("max penetration since reset", |_, run| format!("{run:.4} m")),
            ("energy", |w, _| format!("{:.2} J", w.total_energy())),
            ("step", |w, _| format!("{:.3} ms", w.profile.total_ms)),
        ];
        for (k, f) in rows {
            ui.label(k);
            for (w, run) in &sides {
                ui.label(f(w, *run));
            }
            ui.end_row();
        }
        ui.label("frame");
        let fps = if t.view.frame_ms > 0.0 { 1000.0 / t.view.frame_ms } else { 0.0 };
        ui.label(format!("{:.2} ms ({fps:.0} fps)", t.view.frame_ms));
        ui.end_row();
    });
    ui.label(RichText::new("time per stage (ms, last step)").small());
    egui::Grid::new("stages").striped(true).show(ui, |ui| {
        header(ui);
        for st in Stage::ALL {
            ui.label(st.name());
            for (w, _) in &sides {
                ui.label(format!("{:.3}", w.profile.get(st)));
            }
            ui.end_row();
        }
    });
}
