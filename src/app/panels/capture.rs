//! The panel's foot: screenshot (with or without the panel, at 1×, 2× or 3×), the look
//! (theme, teaching labels, transparent background), GIF recording, the help and plots
//! buttons, and the status line.

use crate::app::testbed::Testbed;
use egui::RichText;

/// The section.
pub fn section(ui: &mut egui::Ui, t: &mut Testbed) {
    let capture = &mut t.tools.capture;
    ui.horizontal(|ui| {
        if ui.button("Screenshot (F12)").clicked() {
            capture.request_screenshot();
        }
        ui.checkbox(&mut capture.with_panel, "with panel");
        ui.add_enabled_ui(!capture.with_panel, |ui| {
            for s in [1, 2, 3] {
                ui.radio_value(&mut capture.scale, s, format!("{s}×"));
            }
        });
    });
    let look = &mut t.view.look;
    ui.horizontal(|ui| {
        ui.label("theme");
        ui.radio_value(&mut look.theme, crate::view::Theme::Light, "light");
        ui.radio_value(&mut look.theme, crate::view::Theme::Dark, "dark");
    });
    ui.horizontal(|ui| {
        ui.checkbox(&mut look.labels, "teaching labels")
            .on_hover_text("name the reference and incident faces, the clip planes and the Gauss-map points");
        ui.checkbox(&mut look.transparent, "transparent background")
            .on_hover_text("screenshots and GIF frames get alpha 0 where nothing is drawn (no ground grid)");
    });
    ui.horizontal_wrapped(|ui| {
        ui.label("label layers");
        for x in crate::view::LabelLayer::ALL {
            let mut on = look.layers.has(x);
            let tip =
                if x.teaching() { "shown with the teaching labels on" } else { "shown on the selected pair's points" };
            if ui.checkbox(&mut on, x.name()).on_hover_text(tip).changed() {
                look.layers.set(x, on);
            }
        }
    });
    ui.horizontal(|ui| match &t.tools.capture.recorder.active {
        None => {
            let tip = "capture the view every few steps while the scene runs; Stop writes the GIF";
            if ui.button("Record GIF").on_hover_text(tip).clicked() {
                t.start_gif();
            }
            let every = &mut t.tools.capture.recorder.every;
            ui.add(egui::DragValue::new(every).range(1..=60).prefix("every ").suffix(" steps"));
        }
        Some(r) => {
            let n = r.frames.len();
            if ui.button(format!("Stop and save GIF ({n} frames)")).clicked() {
                t.stop_gif();
            }
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Keys and mouse (F1)").clicked() {
            t.view.show_help = !t.view.show_help;
        }
        if ui.button("Plots (P)").clicked() {
            t.tools.plots.open = !t.tools.plots.open;
        }
    });
    if !t.tools.status.is_empty() {
        ui.label(RichText::new(&t.tools.status).weak());
    }
}
