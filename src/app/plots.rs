//! The plots window (key P or the panel's "Plots" button; egui_plot): energy, momentum,
//! penetration and contact count, stage timings stacked, the last step's solver convergence
//! (MuJoCo's plot: Σ|Δλₙ| per solve pass, log scale) and the selected body's height, speed and
//! spin, each against the step, with the history's current step as a vertical line. The
//! numbers come from [`crate::trace::series`]; "Export CSV" writes them.
//!
//! While the window is open the world records its convergence (`World::record_convergence`,
//! bit-identical results, a few reads per pass). Plots follow the history: stepping back
//! moves the line, a branch drops the later samples.

use super::testbed::Testbed;
use crate::physics::Stage;
use crate::trace::series::{Sample, Series};
use egui::{Color32, RichText};
use egui_plot::{FilledArea, Legend, Line, Plot, PlotPoints, VLine};

/// The plots' state.
#[derive(Clone, Debug, Default)]
pub struct Plots {
    /// The window is open.
    pub open: bool,
    /// One sample per step.
    pub series: Series,
}

impl Testbed {
    /// Samples the step just taken (called by [`Testbed::step_once`]).
    pub(super) fn sample_step(&mut self) {
        self.plots.series.truncate(self.history.head());
        let follow = self.selected.first().copied();
        self.plots.series.record(&self.scene.world, follow);
    }

    /// Writes the plotted series to `path` as CSV.
    pub fn export_plots(&self, path: &std::path::Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)?;
        }
        let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
        self.plots.series.write_csv(&mut out)?;
        std::io::Write::flush(&mut out)
    }
}

/// A `plots/contactlab-…csv` path named after the time, like screenshots.
pub fn timestamped_csv() -> std::path::PathBuf {
    let png = crate::render::screenshot::timestamped_path();
    let name = png.file_name().map(|n| n.to_string_lossy().replace(".png", ".csv")).unwrap_or_default();
    std::path::Path::new("plots").join(name)
}

const HEIGHT: f32 = 120.0;

fn points(samples: &[Sample], f: impl Fn(&Sample) -> Option<f32>) -> PlotPoints<'static> {
    samples.iter().filter_map(|s| f(s).map(|y| [s.step as f64, y as f64])).collect()
}

/// One plot of `lines` against the step, with the current step marked.
fn plot(ui: &mut egui::Ui, id: &str, unit: &str, now: u64, lines: Vec<(&str, Color32, PlotPoints<'static>)>) {
    ui.label(RichText::new(format!("{id} ({unit})")).strong());
    Plot::new(id).height(HEIGHT).legend(Legend::default()).allow_scroll(false).show(ui, |p| {
        for (name, colour, pts) in lines {
            p.line(Line::new(name, pts).color(colour));
        }
        p.vline(VLine::new("", now as f64).color(Color32::from_gray(140)));
    });
}

const RED: Color32 = Color32::from_rgb(220, 80, 60);
const BLUE: Color32 = Color32::from_rgb(60, 120, 220);
const GREEN: Color32 = Color32::from_rgb(60, 170, 90);

/// Draws the window when it is open (and toggles it on P).
pub fn show(ctx: &egui::Context, t: &mut Testbed) {
    if ctx.input(|i| i.key_pressed(egui::Key::P)) && !ctx.egui_wants_keyboard_input() {
        t.plots.open = !t.plots.open;
    }
    let mut open = t.plots.open;
    // On the right of the 3D view, clear of the panel.
    let right = ctx.content_rect().right();
    egui::Window::new("Plots")
        .open(&mut open)
        .default_pos([right - 540.0, 40.0])
        .default_size([520.0, 640.0])
        .vscroll(true)
        .show(ctx, |ui| body(ui, t));
    t.plots.open = open;
}

fn body(ui: &mut egui::Ui, t: &mut Testbed) {
    let now = t.world().step_count;
    ui.horizontal(|ui| {
        if ui.button("Export CSV").on_hover_text("every plotted series, one row per step").clicked() {
            let path = timestamped_csv();
            t.status = match t.export_plots(&path) {
                Ok(()) => format!("plots saved to {}", path.display()),
                Err(e) => format!("could not write {}: {e}", path.display()),
            };
        }
        ui.label(RichText::new(format!("{} steps sampled", t.plots.series.samples().len())).small());
    });
    let s = t.plots.series.samples();
    plot(
        ui,
        "Energy",
        "J",
        now,
        vec![
            ("kinetic", RED, points(s, |s| Some(s.kinetic))),
            ("potential", BLUE, points(s, |s| Some(s.potential))),
            ("total", GREEN, points(s, |s| Some(s.total()))),
        ],
    );
    plot(ui, "Linear momentum", "kg·m/s", now, vec![("|Σ m v|", BLUE, points(s, |s| Some(s.momentum)))]);
    plot(
        ui,
        "Angular momentum about the origin",
        "kg·m²/s",
        now,
        vec![("|L|", BLUE, points(s, |s| Some(s.angular_momentum)))],
    );
    plot(ui, "Max penetration", "mm", now, vec![("depth", RED, points(s, |s| Some(s.max_penetration * 1000.0)))]);
    plot(ui, "Contact points", "count", now, vec![("points", BLUE, points(s, |s| Some(s.contact_points as f32)))]);
    stages(ui, s, now);
    convergence(ui, t);
    let follow = t.selected.first().copied();
    match follow {
        Some(i) => {
            let name = t.world().bodies().get(i).map_or("", |b| b.name.as_str()).to_owned();
            let of = |f: fn(&crate::trace::series::BodySample) -> f32| {
                points(s, move |x| x.body.filter(|b| b.index as usize == i).map(|b| f(&b)))
            };
            plot(
                ui,
                &format!("Selected body: {name}"),
                "m, m/s, rad/s",
                now,
                vec![
                    ("height", GREEN, of(|b| b.height)),
                    ("speed", RED, of(|b| b.speed)),
                    ("spin", BLUE, of(|b| b.spin)),
                ],
            );
        }
        None => {
            ui.label(RichText::new("Select a body to plot its height, speed and spin.").small());
        }
    }
}

/// Stage timings, stacked: each stage a band on top of the ones before it.
fn stages(ui: &mut egui::Ui, s: &[Sample], now: u64) {
    ui.label(RichText::new("Stage timings, stacked (ms)").strong());
    let xs: Vec<f64> = s.iter().map(|x| x.step as f64).collect();
    let mut below = vec![0.0f64; s.len()];
    Plot::new("stages").height(HEIGHT * 1.4).legend(Legend::default()).allow_scroll(false).show(ui, |p| {
        for (k, stage) in Stage::ALL.iter().enumerate() {
            if s.iter().all(|x| x.stage_ms[k] == 0.0) {
                continue;
            }
            let above: Vec<f64> = below.iter().zip(s).map(|(b, x)| b + x.stage_ms[k] as f64).collect();
            let hue = k as f32 / Stage::ALL.len() as f32;
            let colour: Color32 = egui::ecolor::Hsva::new(hue, 0.55, 0.8, 1.0).into();
            p.add(FilledArea::new(stage.name(), &xs, &below, &above).fill_color(colour.gamma_multiply(0.6)));
            below = above;
        }
        p.vline(VLine::new("", now as f64).color(Color32::from_gray(140)));
    });
}

/// The last step's Σ|Δλₙ| per solve pass, on a log scale.
fn convergence(ui: &mut egui::Ui, t: &Testbed) {
    ui.label(RichText::new("Solver convergence, this step: Σ|Δλn| per solve pass (N·s, log scale)").strong());
    let passes = t.world().convergence();
    if passes.is_empty() {
        let why = match t.world().settings.mode {
            crate::physics::SolverMode::Iterative => "step once with this window open to record it",
            _ => "this method resolves in one pass (no iterations to plot)",
        };
        ui.label(RichText::new(why).small());
        return;
    }
    let pts: PlotPoints =
        passes.iter().enumerate().map(|(k, &r)| [k as f64 + 1.0, (r.max(1e-12) as f64).log10()]).collect();
    Plot::new("convergence")
        .height(HEIGHT)
        .allow_scroll(false)
        .y_axis_formatter(|m, _| format!("1e{:.0}", m.value))
        .x_axis_label("pass (all substeps in order)")
        .show(ui, |p| p.line(Line::new("Σ|Δλn|", pts).color(RED)));
}
