//! The panel's *Continuous collision* section: the mode, the sub-event cap, the simplex
//! cache, and what side A's last step did (the impacts whose ghosts are drawn, held for a
//! while after their step: [`crate::app::sides::ToiHold`], and the earliest-collision
//! sub-events). The pair's time-of-impact queries are in [`super::inspector::ccd`].

use crate::app::testbed::Testbed;
use crate::physics::{limits, ContinuousMode, World};
use egui::RichText;

/// Body `i`'s name, or "?" for an index the world no longer has.
pub fn name(w: &World, i: u32) -> &str {
    w.bodies().get(i as usize).map_or("?", |b| b.name.as_str())
}

/// The panel section: mode, cap and the last step's continuous collision.
pub fn section(ui: &mut egui::Ui, t: &mut Testbed) {
    let before = t.world().settings;
    let s = &mut t.world_mut().settings;
    ui.horizontal_wrapped(|ui| {
        for m in ContinuousMode::ALL {
            let hint = match m {
                ContinuousMode::Off => "speculative contacts only: a body faster than their reach can tunnel",
                ContinuousMode::Fast => {
                    "Box2D v3: after the step, a body that moved farther than half its size is swept against \
                     the static bodies (bullets: every body) and put back at its first time of impact"
                }
                ContinuousMode::EarliestCollision => {
                    "Homer's simulator: the step is cut at every earliest collision (bounding spheres swept, \
                     bisection on the shapes), the world wound to it and the colliding pairs resolved together"
                }
            };
            ui.radio_value(&mut s.ccd, m, m.name()).on_hover_text(hint);
        }
    });
    let (lo, hi) = limits::MAX_SUB_EVENTS;
    ui.add_enabled(
        s.ccd == ContinuousMode::EarliestCollision,
        egui::Slider::new(&mut s.max_sub_events, lo..=hi.min(1000)).logarithmic(true).text("max sub-events / step"),
    );
    ui.add_enabled(s.ccd != ContinuousMode::Off, egui::Checkbox::new(&mut s.simplex_cache, "GJK simplex cache"))
        .on_hover_text(
            "on: each distance query of a time-of-impact search starts from the last one's simplex \
             (Box2D's cache); off: each starts from one point, the textbook GJK (collide/distance.rs)",
        );
    ui.add_enabled(
        s.ccd != ContinuousMode::Off,
        egui::Checkbox::new(&mut s.closed_form_distance, "closed-form ball–box distance"),
    )
    .on_hover_text(
        "on: a ball (or the probe of a body touching at the start) against a box is measured by \
         clamping its centre to the box; off: by GJK, as every other pair (collide/distance.rs)",
    );
    *s = s.clamped();
    if t.world().settings != before {
        t.wake_all();
    }
    let w = t.world();
    let rec = w.continuous();
    if rec.mode == ContinuousMode::Off || rec.step != w.step_count {
        ui.label("no continuous collision in the last step");
    } else {
        ui.label(format!(
            "step {}: {} candidates, {} time-of-impact queries, {} impacts",
            rec.step,
            rec.candidates,
            rec.queries.len(),
            rec.events.len()
        ));
    }
    if rec.cap_hit && rec.step == w.step_count {
        ui.colored_label(
            egui::Color32::from_rgb(200, 30, 30),
            format!("sub-event cap ({}) hit: the rest of the step ran uncut", w.settings.max_sub_events),
        );
    }
    if let Some((shown, _)) = t.sides.main().toi_shown() {
        ui.label(RichText::new(format!("impacts of step {} (the ghosts drawn)", shown.step)).strong());
        egui::Grid::new("toi events").striped(true).show(ui, |ui| {
            for h in ["body", "hit", "at (of the step)", ""] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for e in shown.events.iter().take(50) {
                ui.label(name(w, e.body));
                ui.label(name(w, e.other));
                ui.label(format!("{:.4}", e.fraction));
                ui.label(if e.bullet { "bullet" } else { "" });
                ui.end_row();
            }
        });
        if !shown.sub_events.is_empty() {
            ui.label(RichText::new("sub-events (earliest collision)").strong());
            for e in shown.sub_events.iter().take(30) {
                let pairs: Vec<String> =
                    shown.pairs_of(e).iter().map(|&(a, b)| format!("{}–{}", name(w, a), name(w, b))).collect();
                ui.label(format!("t = {:.5} s: {}", e.time, pairs.join(", ")));
            }
        }
    }
}
