//! The plots window (key P or the panel's "Plots" button; egui_plot): energy, momentum,
//! penetration and contact count, stage timings stacked, the last step's solver convergence
//! (MuJoCo's plot: Σ|Δλₙ| per solve pass, log scale) and the selected body's height, speed and
//! spin, each against the step, with the history's current step as a vertical line. In a
//! comparison every plot overlays the sides, one colour per method ([`method_colour`]); the
//! stacked stage timings are side A's. The numbers come from [`crate::trace::series`], one
//! series per side ([`crate::app::tools::Plots`]); "Export CSV" writes them.
//!
//! While the window is open the world records its convergence (`World::record_convergence`,
//! bit-identical results, a few reads per pass). Plots follow the history: stepping back
//! moves the line, a branch drops the later samples.

use crate::app::testbed::Testbed;
use crate::app::tools::timestamped_csv;
use crate::physics::{SolverMode, Stage};
use crate::trace::series::Sample;
use egui::{Color32, RichText};
use egui_plot::{AxisHints, FilledArea, Legend, Line, Plot, PlotPoints, VLine};

/// The colour of a method's lines when the sides are overlaid.
pub fn method_colour(m: SolverMode) -> Color32 {
    match m {
        SolverMode::Naive => Color32::from_rgb(220, 80, 60),
        SolverMode::Iterative => Color32::from_rgb(60, 120, 220),
        SolverMode::Cyclone => Color32::from_rgb(60, 170, 90),
        SolverMode::Averaged => Color32::from_rgb(200, 140, 20),
    }
}

const HEIGHT: f32 = 150.0;

/// A plot with axes whose tick labels show at every grid level a label fits in (egui_plot's
/// default hides labels closer than 20 points on y and 60 on x, which left a short plot of a
/// 6,000 J energy with a lone "0").
fn styled(id: &str, height: f32) -> Plot<'static> {
    Plot::new(id)
        .height(height)
        .allow_scroll(false)
        .custom_x_axes(vec![AxisHints::new_x().label_spacing(34.0..=48.0)])
        .custom_y_axes(vec![AxisHints::new_y().label_spacing(14.0..=22.0)])
        .y_axis_min_width(44.0)
}

fn points(samples: &[Sample], f: impl Fn(&Sample) -> Option<f32>) -> PlotPoints<'static> {
    samples.iter().filter_map(|s| f(s).map(|y| [s.step as f64, y as f64])).collect()
}

/// One plot of `lines` against the step, with the current step marked.
fn plot(ui: &mut egui::Ui, id: &str, unit: &str, now: u64, lines: Vec<(String, Color32, PlotPoints<'static>)>) {
    ui.label(RichText::new(format!("{id} ({unit})")).strong());
    styled(id, HEIGHT).legend(Legend::default()).show(ui, |p| {
        for (name, colour, pts) in lines {
            p.line(Line::new(name, pts).color(colour));
        }
        p.vline(VLine::new("", now as f64).color(Color32::from_gray(140)));
    });
}

const RED: Color32 = Color32::from_rgb(220, 80, 60);
const BLUE: Color32 = Color32::from_rgb(60, 120, 220);
const GREEN: Color32 = Color32::from_rgb(60, 170, 90);

/// Draws the window when it is open.
pub fn show(ctx: &egui::Context, t: &mut Testbed) {
    let mut open = t.tools.plots.open;
    // On the right of the 3D view, clear of the panel.
    let right = ctx.content_rect().right();
    egui::Window::new("Plots")
        .open(&mut open)
        .default_pos([right - 540.0, 40.0])
        .default_size([520.0, 640.0])
        .vscroll(true)
        .show(ctx, |ui| body(ui, t));
    t.tools.plots.open = open;
}

/// One line per side of `f` of the samples, named by side and coloured by method.
fn per_side(t: &Testbed, f: impl Fn(&Sample) -> Option<f32> + Copy) -> Vec<(String, Color32, PlotPoints<'static>)> {
    t.tools
        .plots
        .series
        .iter()
        .zip(t.sides.iter())
        .enumerate()
        .map(|(k, (s, side))| (t.side_title(k), method_colour(side.mode()), points(s.samples(), f)))
        .collect()
}

fn body(ui: &mut egui::Ui, t: &mut Testbed) {
    let now = t.world().step_count;
    ui.horizontal(|ui| {
        if ui.button("Export CSV").on_hover_text("every plotted series, one row per step").clicked() {
            let path = timestamped_csv();
            t.tools.status = match t.export_plots(&path) {
                Ok(said) => format!("plots {said}"),
                Err(e) => format!("could not write the plots: {e}"),
            };
        }
        ui.label(RichText::new(format!("{} steps sampled", t.tools.plots.main().len())).small());
    });
    let t: &Testbed = t;
    let s = t.tools.plots.main();
    if t.sides.comparing() {
        plot(ui, "Energy", "J", now, per_side(t, |s| Some(s.total())));
    } else {
        plot(
            ui,
            "Energy",
            "J",
            now,
            vec![
                ("kinetic".into(), RED, points(s, |s| Some(s.kinetic))),
                ("potential".into(), BLUE, points(s, |s| Some(s.potential))),
                ("total".into(), GREEN, points(s, |s| Some(s.total()))),
            ],
        );
    }
    plot(ui, "Linear momentum |Σ m v|", "kg·m/s", now, per_side(t, |s| Some(s.momentum)));
    plot(ui, "Angular momentum about the origin |L|", "kg·m²/s", now, per_side(t, |s| Some(s.angular_momentum)));
    plot(ui, "Max penetration", "mm", now, per_side(t, |s| Some(s.max_penetration * 1000.0)));
    plot(ui, "Contact points", "count", now, per_side(t, |s| Some(s.contact_points as f32)));
    stages(ui, s, now);
    convergence(ui, t);
    match t.followed_body() {
        Some(i) => {
            let name = t.world().bodies().get(i).map_or("", |b| b.name.as_str()).to_owned();
            let of = |f: fn(&crate::trace::series::BodySample) -> f32| {
                move |x: &Sample| x.body.filter(|b| b.index as usize == i).map(|b| f(&b))
            };
            if t.sides.comparing() {
                plot(ui, &format!("Selected body: {name}, height"), "m", now, per_side(t, of(|b| b.height)));
                plot(ui, &format!("Selected body: {name}, speed"), "m/s", now, per_side(t, of(|b| b.speed)));
            } else {
                plot(
                    ui,
                    &format!("Selected body: {name}"),
                    "m, m/s, rad/s",
                    now,
                    vec![
                        ("height".into(), GREEN, points(s, of(|b| b.height))),
                        ("speed".into(), RED, points(s, of(|b| b.speed))),
                        ("spin".into(), BLUE, points(s, of(|b| b.spin))),
                    ],
                );
            }
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
    let colour = |k: usize| -> Color32 {
        let hue = k as f32 / Stage::ALL.len() as f32;
        Color32::from(egui::ecolor::Hsva::new(hue, 0.55, 0.8, 1.0)).gamma_multiply(0.6)
    };
    let shown: Vec<usize> = (0..Stage::ALL.len()).filter(|&k| s.iter().any(|x| x.stage_ms[k] != 0.0)).collect();
    styled("stages", HEIGHT * 1.2).show(ui, |p| {
        for &k in &shown {
            let above: Vec<f64> = below.iter().zip(s).map(|(b, x)| b + x.stage_ms[k] as f64).collect();
            p.add(FilledArea::new(Stage::ALL[k].name(), &xs, &below, &above).fill_color(colour(k)));
            below = above;
        }
        p.vline(VLine::new("", now as f64).color(Color32::from_gray(140)));
    });
    // The key below the plot, bottom band first (a legend inside would cover the bands and
    // spill over the next plot).
    ui.horizontal_wrapped(|ui| {
        for &k in &shown {
            let (rect, _) = ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, colour(k));
            ui.label(RichText::new(Stage::ALL[k].name()).small());
        }
    });
}

/// The last step's Σ|Δλₙ| per solve pass on a log scale, one line per side that iterates.
fn convergence(ui: &mut egui::Ui, t: &Testbed) {
    ui.label(RichText::new("Solver convergence, this step: Σ|Δλn| per solve pass (N·s, log scale)").strong());
    let lines: Vec<(String, Color32, PlotPoints<'static>)> = t
        .sides
        .iter()
        .enumerate()
        .filter(|(_, side)| !side.world.convergence().is_empty())
        .map(|(k, side)| {
            let pts: PlotPoints = side
                .world
                .convergence()
                .iter()
                .enumerate()
                .map(|(n, &r)| [n as f64 + 1.0, (r.max(1e-12) as f64).log10()])
                .collect();
            (t.side_title(k), method_colour(side.mode()), pts)
        })
        .collect();
    if lines.is_empty() {
        let why = if t.sides.iter().any(|s| s.mode() == SolverMode::Iterative) {
            "step once with this window open to record it"
        } else {
            "this method resolves in one pass (no iterations to plot)"
        };
        ui.label(RichText::new(why).small());
        return;
    }
    styled("convergence", HEIGHT)
        .legend(Legend::default())
        .y_axis_formatter(|m, _| format!("1e{:.0}", m.value))
        .x_axis_label("pass (all substeps in order)")
        .show(ui, |p| {
            for (name, colour, pts) in lines {
                p.line(Line::new(name, pts).color(colour));
            }
        });
}
