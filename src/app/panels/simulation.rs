//! The panel's top: play, step, reset and frame; the speed; the history (step buttons, the
//! scrubber, memory against the budget) or the replay line; the interface scale; the step
//! and time; and a red line per body frozen because its state became non-finite.

use crate::app::input::UI_SCALE;
use crate::app::testbed::Testbed;
use egui::{Color32, RichText};

/// The section.
pub fn simulation(ui: &mut egui::Ui, t: &mut Testbed) {
    ui.horizontal(|ui| {
        let label = if t.session.playing { "Pause" } else { "Play" };
        if ui.button(label).on_hover_text("Space").clicked() {
            t.session.playing = !t.session.playing;
        }
        if ui.button("Step").on_hover_text("period or ->: exactly one step").clicked() {
            t.step_once();
        }
        if ui.button("Reset").on_hover_text("R").clicked() {
            t.reset();
        }
        if ui.button("Frame").on_hover_text("F: fit the camera").clicked() {
            t.frame_scene();
        }
    });
    ui.add(egui::Slider::new(&mut t.session.speed, 0.05..=4.0).logarithmic(true).text("speed"));
    history(ui, t);
    ui_scale(ui);
    let w = t.world();
    ui.label(format!("step {}   t = {:.3} s   dt = {:.4} s", w.step_count, w.time, t.timestep()));
    non_finite(ui, w);
}

/// The history: |< < > >|, the scrubber, jump to a step, memory against the budget.
fn history(ui: &mut egui::Ui, t: &mut Testbed) {
    let (first, head) = t.timeline();
    let now = t.world().step_count;
    ui.horizontal(|ui| {
        ui.label("history");
        if ui.button("|<").on_hover_text("Home: the earliest step kept").clicked() {
            t.seek(first);
        }
        if ui.button("<").on_hover_text("comma or <-: one step back").clicked() {
            t.step_back();
        }
        if ui.button(">").on_hover_text("period or ->: one step forward").clicked() {
            t.step_forward();
        }
        if ui.button(">|").on_hover_text("End: the latest step").clicked() {
            t.seek(head);
        }
        let mut jump = now;
        let field = ui.add(egui::DragValue::new(&mut jump).range(first..=head).prefix("#"));
        if field.changed() && jump != now {
            t.seek(jump);
        }
    });
    let mut at = now;
    let scrub = ui.scope(|ui| {
        // Leave room for the label: a wider slider would widen the panel frame after frame.
        ui.spacing_mut().slider_width = (ui.available_width() - 64.0).max(80.0);
        ui.add(egui::Slider::new(&mut at, first..=head.max(first + 1)).show_value(false).text("scrub"))
    });
    if scrub.inner.changed() && at != now {
        t.seek(at);
    }
    if let Some(r) = &t.session.replay {
        let text = format!(
            "Replaying {} ({} recorded steps of '{}'): no physics runs.",
            r.path.display(),
            r.steps.len(),
            r.header.scene
        );
        ui.label(RichText::new(text).color(egui::Color32::from_rgb(60, 120, 220)));
        if ui.button("Stop replay").on_hover_text("run the scene again from its start").clicked() {
            t.stop_replay();
        }
        return;
    }
    let h = &t.session.history;
    let mb = |b: usize| b as f32 / (1 << 20) as f32;
    let text = format!("latest {head} · {} snapshots · {:.1} of {:.0} MB", h.snapshots(), mb(h.bytes()), mb(h.budget));
    let line = ui.label(RichText::new(text).weak());
    line.on_hover_text(
        "Snapshots every few steps (spaced wider the older they are) plus re-simulation: the \
         engine is deterministic, so any step since the start can be recomputed.",
    );
    let mut budget_mb = (h.budget >> 20) as u32;
    if ui.add(egui::Slider::new(&mut budget_mb, 16..=4096).logarithmic(true).text("history budget (MB)")).changed() {
        t.session.history.budget = (budget_mb as usize) << 20;
    }
    if t.in_past() {
        ui.label(
            RichText::new("Viewing a past step: an edit or a drag here discards the later steps.")
                .color(egui::Color32::from_rgb(200, 130, 20)),
        );
    }
    if !t.session.history.note.is_empty() {
        ui.label(RichText::new(&t.session.history.note).weak());
    }
}

/// One red line per body frozen because its state became non-finite (the first few).
fn non_finite(ui: &mut egui::Ui, w: &crate::physics::World) {
    const SHOWN: usize = 5;
    let events = w.non_finite();
    for e in events.iter().take(SHOWN) {
        ui.colored_label(
            Color32::from_rgb(200, 30, 30),
            format!("'{}' went non-finite ({}) in step {}, {}: frozen", e.name, e.fields, e.step, e.origin.name()),
        );
    }
    if events.len() > SHOWN {
        ui.colored_label(Color32::from_rgb(200, 30, 30), format!("… and {} more frozen", events.len() - SHOWN));
    }
}

/// The interface scale (egui's zoom factor, which Ctrl +, Ctrl − and Ctrl 0 also change):
/// larger text for a projector.
fn ui_scale(ui: &mut egui::Ui) {
    let zoom = ui.ctx().zoom_factor();
    ui.horizontal(|ui| {
        ui.label("interface scale");
        let (lo, hi, step) = UI_SCALE;
        let mut z = zoom;
        if ui.add_enabled(zoom > lo + 1e-3, egui::Button::new("−")).on_hover_text("Ctrl −").clicked() {
            z = (zoom - step).max(lo);
        }
        ui.label(format!("{:.0} %", zoom * 100.0));
        if ui.add_enabled(zoom < hi - 1e-3, egui::Button::new("+")).on_hover_text("Ctrl +").clicked() {
            z = (zoom + step).min(hi);
        }
        if ui.button("default").on_hover_text("back to 100 % (Ctrl 0)").clicked() {
            z = 1.0;
        }
        if z != zoom {
            ui.ctx().set_zoom_factor((z * 10.0).round() / 10.0);
        }
    });
}
