//! The inspector's time-of-impact part: every query the last step (or the step whose ghosts
//! are drawn) made for the selected pair, with the gap at every time the search tested.

use crate::app::panels::ccd::name;
use crate::app::sides::Side;
use crate::physics::collide::toi::ToiState;
use crate::physics::world::ToiMethod;
use egui::RichText;

fn state_name(s: ToiState) -> &'static str {
    match s {
        ToiState::Hit => "hit",
        ToiState::Initial => "touching at the start",
        ToiState::Separated => "no impact",
        ToiState::MaxIterations => "iteration cap",
    }
}

/// The inspector's time-of-impact table for bodies `a`, `b`: every query the last step
/// (or the step whose ghosts are drawn) made for the pair, with the gap at each time tested.
pub fn pair_toi(ui: &mut egui::Ui, side: &Side, a: usize, b: usize) {
    let w = &side.world;
    let rec = side.toi_shown().map_or(w.continuous(), |(r, _)| r);
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
