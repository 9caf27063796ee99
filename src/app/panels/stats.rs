//! The panel's *Stats* section: counts (with the bodies the per-body stages visited, and
//! the pairs the pair filter tested and the narrow phase opened),
//! penetration, energy and step time, then the thread
//! count (a slider: the step's stages shared out between that many threads, with the same
//! results at any count) and the time of each stage of the last step; one column per side
//! of a comparison.

use crate::app::testbed::Testbed;
use crate::physics::Stage;
use egui::RichText;

/// The section.
pub fn stats(ui: &mut egui::Ui, t: &mut Testbed) {
    threads(ui, t);
    let t = &*t;
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
        let rows: [(&str, Row); 12] = [
            ("bodies", |w, _| w.stats().bodies.to_string()),
            // The broad phase's per-body loop: every body, or the dynamic ones while the
            // static bodies' records hold (physics/world/movers.rs).
            ("bodies visited per step", |w, _| w.profile.visited.to_string()),
            ("awake", |w, _| w.stats().awake.to_string()),
            ("pairs", |w, _| w.stats().pairs.to_string()),
            // What the last step did with them: with sleeping on, the pairs of two bodies at
            // rest pass the filter as before and keep their manifolds unopened.
            ("pairs tested per step", |w, _| w.profile.pairs_tested.to_string()),
            ("pairs opened per step", |w, _| w.profile.pairs_opened.to_string()),
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
    graph(ui, t.world());
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

/// The thread-count slider (side A's setting; every side steps with A's settings).
fn threads(ui: &mut egui::Ui, t: &mut Testbed) {
    let cores = crate::physics::parallel::resolve_threads(0) as u32;
    let running = t.world().threads();
    let s = &mut t.world_mut().settings;
    let most = cores.max(s.threads);
    ui.add(egui::Slider::new(&mut s.threads, 0..=most).text("threads").custom_formatter(move |n, _| {
        if n == 0.0 {
            format!("all ({cores})")
        } else {
            format!("{n}")
        }
    }))
    .on_hover_text(
        "The step's stages (narrow phase, prepare, each graph colour of the solver, integration) \
         shared out between this many threads, the calling one included; 0: every core. The \
         results are bit-identical at any count: the pairs, bodies and same-colour batches a \
         stage hands out are independent (physics/parallel.rs).",
    );
    ui.label(
        RichText::new(format!("last step ran on {running} thread{}", if running == 1 { "" } else { "s" })).small(),
    );
}

/// The last step's graph colours (side A): manifolds per colour, the batches each colour's
/// round shares out; and, on several threads, each thread's time per stage.
fn graph(ui: &mut egui::Ui, w: &crate::physics::World) {
    if let Some(counts) = w.colour_counts() {
        let (last, used) = (counts.len() - 1, counts[..counts.len() - 1].iter().filter(|&&n| n > 0).count());
        let list: Vec<String> =
            counts[..last].iter().enumerate().filter(|(_, &n)| n > 0).map(|(k, n)| format!("{k}: {n}")).collect();
        ui.label(RichText::new(format!("graph colours (manifolds per colour, {used} used)")).small());
        ui.label(format!("{}  · none: {}", list.join(" · "), counts[last]));
    }
    let p = &w.profile;
    let threads = p.threads.min(crate::physics::world::PROFILED_THREADS);
    if threads < 2 {
        return;
    }
    ui.label(RichText::new("each thread's time on shared-out blocks (ms, last step)").small());
    let shared = |st: Stage| p.thread_ms[st as usize][..threads].iter().any(|&x| x != 0.0);
    if !Stage::ALL.into_iter().any(shared) {
        // (A world asleep: no stage had enough to share out.)
        ui.label(RichText::new("none: no stage shared out blocks this step").small());
        return;
    }
    egui::Grid::new("thread shares").striped(true).show(ui, |ui| {
        ui.label("");
        for k in 0..threads {
            ui.label(RichText::new(format!("#{k}")).strong());
        }
        ui.end_row();
        for st in Stage::ALL.into_iter().filter(|&st| shared(st)) {
            ui.label(st.name());
            for x in &p.thread_ms[st as usize][..threads] {
                ui.label(format!("{x:.3}"));
            }
            ui.end_row();
        }
    });
}
