//! Continuous collision in the window: the panel's section (the mode, the sub-event cap, and
//! what the last step's continuous collision did), the inspector's time-of-impact table for
//! a selected pair (the gap at every time the search tested), and the kept record the
//! ghosts are drawn from.
//!
//! A time of impact lasts one step: while playing at 60 steps a second its ghosts would
//! flash for one frame. [`ToiHold`] keeps the last step that had one and the view draws it
//! for [`HOLD_STEPS`] more steps, fading; the panel names the step the ghosts belong to.

use super::testbed::Testbed;
use crate::physics::collide::toi::ToiState;
use crate::physics::world::ToiMethod;
use crate::physics::{limits, ContinuousMode, ContinuousRecord, World};
use egui::RichText;

/// Body `i`'s name, or "?" for an index the world no longer has.
fn name(w: &World, i: u32) -> &str {
    w.bodies().get(i as usize).map_or("?", |b| b.name.as_str())
}

/// Steps a time of impact's ghosts stay drawn after the step that had it (fading out).
pub const HOLD_STEPS: u64 = 45;

/// The last continuous-collision record that had a time of impact.
#[derive(Clone, Debug, Default)]
pub struct ToiHold {
    rec: ContinuousRecord,
}

impl ToiHold {
    /// Keeps the world's record if its step had a time of impact (reusing the buffers).
    pub fn after_step(&mut self, world: &World) {
        if !world.continuous().events.is_empty() {
            self.rec.clone_from(world.continuous());
        }
    }

    /// The record to draw and its opacity: the world's own when its last step had a time of
    /// impact, else the kept one while it is less than [`HOLD_STEPS`] old. Nothing after a
    /// reset or a step back to before it.
    pub fn shown<'a>(&'a self, world: &'a World) -> Option<(&'a ContinuousRecord, f32)> {
        let now = world.step_count;
        if !world.continuous().events.is_empty() && world.continuous().step == now {
            return Some((world.continuous(), 1.0));
        }
        let age = now.checked_sub(self.rec.step)?;
        (!self.rec.events.is_empty() && age < HOLD_STEPS).then(|| (&self.rec, 1.0 - age as f32 / HOLD_STEPS as f32))
    }
}

fn state_name(s: ToiState) -> &'static str {
    match s {
        ToiState::Hit => "hit",
        ToiState::Initial => "touching at the start",
        ToiState::Separated => "no impact",
        ToiState::MaxIterations => "iteration cap",
    }
}

/// The panel section: mode, cap and the last step's continuous collision.
pub fn section(ui: &mut egui::Ui, t: &mut Testbed) {
    let before = t.scene.world.settings;
    let s = &mut t.scene.world.settings;
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
    *s = s.clamped();
    if t.scene.world.settings != before {
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
    if let Some((shown, _)) = t.toi_hold.shown(w) {
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

/// The inspector's time-of-impact table for bodies `a`, `b`: every query the last step
/// (or the step whose ghosts are drawn) made for the pair, with the gap at each time tested.
pub fn pair_toi(ui: &mut egui::Ui, t: &Testbed, a: usize, b: usize) {
    let w = t.world();
    let rec = t.toi_hold.shown(w).map_or(w.continuous(), |(r, _)| r);
    let queries: Vec<_> = rec.queries_of(a as u32, b as u32).collect();
    if queries.is_empty() {
        return;
    }
    ui.separator();
    ui.label(RichText::new(format!("time of impact, step {}", rec.step)).strong());
    for (k, q) in queries.iter().enumerate() {
        let mover = name(w, q.body);
        let how = match q.method {
            ToiMethod::Advancement => "conservative advancement",
            ToiMethod::Bisection => "bisection",
        };
        let probe = if q.probe { ", probe ball (touching at the start)" } else { "" };
        let round = if q.method == ToiMethod::Bisection { format!(", sub-event {}", q.round) } else { String::new() };
        ui.label(format!(
            "{mover} swept by {how}{probe}{round}: {} at t = {:.5}, gap {:.5} m, {} distance queries",
            state_name(q.result.state),
            q.result.t,
            q.result.distance,
            q.result.iterations
        ));
        egui::CollapsingHeader::new(format!("iterations of query {}", k + 1)).default_open(queries.len() == 1).show(
            ui,
            |ui| {
                egui::Grid::new(("toi iterations", k)).striped(true).show(ui, |ui| {
                    for h in ["#", "t (of the interval)", "gap (m)"] {
                        ui.label(RichText::new(h).small().strong());
                    }
                    ui.end_row();
                    for (n, it) in rec.iterations_of(q).iter().enumerate().take(100) {
                        ui.label(n.to_string());
                        ui.label(format!("{:.6}", it.t));
                        ui.label(if it.distance.is_finite() { format!("{:+.6}", it.distance) } else { "—".into() });
                        ui.end_row();
                    }
                });
            },
        );
    }
}
