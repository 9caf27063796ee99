//! The control panel (egui): simulation controls, the resolution method and every solver
//! setting edited live (a change wakes every body), the interface scale, the scene picker,
//! overlays, stats with stage timings, the list of touching pairs, and the inspector: one
//! selected body ([`super::body_panel`]) or the contact of the selected pair.

use super::testbed::{ScreenshotRequest, Testbed};
use crate::physics::collide::{ContactKind, PairPath};
use crate::physics::{limits, SolverMode, Stage};
use egui::{Color32, RichText};

/// Width of the side panel in points.
pub const PANEL_WIDTH: f32 = 360.0;

fn kind_name(k: ContactKind) -> &'static str {
    match k {
        ContactKind::FaceA => "face of A",
        ContactKind::FaceB => "face of B",
        ContactKind::Edge => "edge–edge",
    }
}

/// Short name of a narrow-phase path (its one-line explanation is `PairPath::explain`).
pub fn path_name(p: PairPath) -> &'static str {
    match p {
        PairPath::NotCandidate => "no candidate pair",
        PairPath::PathsMiss => "paths miss (dropped)",
        PairPath::Asleep => "asleep, kept",
        PairPath::StillApart => "still apart (skipped)",
        PairPath::SphereSkip => "bounding spheres apart",
        PairPath::Recycled => "recycled manifold",
        PairPath::CachedAxisSeparates => "cached axis separates",
        PairPath::CachedFeature => "cached face/edge reused",
        PairPath::FullSat => "full SAT",
        PairPath::Closed => "closed form (curved shape)",
    }
}

/// The whole panel.
pub fn panel(ui: &mut egui::Ui, t: &mut Testbed) {
    egui::ScrollArea::vertical().auto_shrink([false, false]).show(ui, |ui| {
        ui.heading(RichText::new(&t.scene.desc.name).strong());
        if !t.scene.desc.description.is_empty() {
            ui.label(RichText::new(&t.scene.desc.description));
        }
        ui.separator();
        simulation(ui, t);
        ui.separator();
        egui::CollapsingHeader::new("Scene").default_open(true).show(ui, |ui| scene_picker(ui, t));
        egui::CollapsingHeader::new("Resolution method").default_open(true).show(ui, |ui| method(ui, t));
        // Open on scenes made to show it (the ghosts on, bullets, or the earliest-collision
        // mode).
        let w = t.world();
        let ccd_scene = t.overlays.toi
            || w.settings.ccd == crate::physics::ContinuousMode::EarliestCollision
            || w.bodies().iter().any(|b| b.bullet);
        egui::CollapsingHeader::new("Continuous collision")
            .default_open(ccd_scene)
            .show(ui, |ui| super::ccd_panel::section(ui, t));
        if !t.world().characters().is_empty() {
            egui::CollapsingHeader::new("Characters")
                .default_open(true)
                .show(ui, |ui| super::character_panel::section(ui, t));
        }
        egui::CollapsingHeader::new("Overlays").default_open(false).show(ui, |ui| overlays(ui, t));
        egui::CollapsingHeader::new("Stats").default_open(false).show(ui, |ui| stats(ui, t));
        egui::CollapsingHeader::new("Touching pairs").default_open(false).show(ui, |ui| pairs(ui, t));
        egui::CollapsingHeader::new("Contact inspector").default_open(true).show(ui, |ui| inspector(ui, t));
        ui.separator();
        ui.horizontal(|ui| {
            if ui.button("Screenshot (F12)").clicked() {
                t.screenshot = Some(ScreenshotRequest {
                    path: crate::render::screenshot::timestamped_path(),
                    with_panel: t.screenshot_with_panel,
                });
            }
            ui.checkbox(&mut t.screenshot_with_panel, "with panel");
            ui.add_enabled_ui(!t.screenshot_with_panel, |ui| {
                for s in [1, 2, 3] {
                    ui.radio_value(&mut t.screenshot_scale, s, format!("{s}×"));
                }
            });
        });
        ui.horizontal(|ui| {
            ui.label("theme");
            ui.radio_value(&mut t.look.theme, crate::view::Theme::Light, "light");
            ui.radio_value(&mut t.look.theme, crate::view::Theme::Dark, "dark");
        });
        ui.horizontal(|ui| {
            ui.checkbox(&mut t.look.labels, "teaching labels")
                .on_hover_text("name the reference and incident faces, the clip planes and the Gauss-map points");
            ui.checkbox(&mut t.look.transparent, "transparent background")
                .on_hover_text("screenshots and GIF frames get alpha 0 where nothing is drawn (no ground grid)");
        });
        ui.horizontal(|ui| match &t.recorder.active {
            None => {
                let tip = "capture the view every few steps while the scene runs; Stop writes the GIF";
                if ui.button("Record GIF").on_hover_text(tip).clicked() {
                    t.start_gif();
                }
                ui.add(egui::DragValue::new(&mut t.recorder.every).range(1..=60).prefix("every ").suffix(" steps"));
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
                t.show_help = !t.show_help;
            }
            if ui.button("Plots (P)").clicked() {
                t.plots.open = !t.plots.open;
            }
        });
        if !t.status.is_empty() {
            ui.label(RichText::new(&t.status).small());
        }
    });
}

fn simulation(ui: &mut egui::Ui, t: &mut Testbed) {
    ui.horizontal(|ui| {
        let label = if t.playing { "Pause" } else { "Play" };
        if ui.button(label).on_hover_text("Space").clicked() {
            t.playing = !t.playing;
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
    ui.add(egui::Slider::new(&mut t.speed, 0.05..=4.0).logarithmic(true).text("speed"));
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
    if let Some(r) = &t.replay {
        let text = format!(
            "Replaying {} ({} recorded steps of '{}'): no physics runs.",
            r.path.display(),
            r.steps.len(),
            r.header.scene
        );
        ui.label(RichText::new(text).small().color(egui::Color32::from_rgb(60, 120, 220)));
        if ui.button("Stop replay").on_hover_text("run the scene again from its start").clicked() {
            t.stop_replay();
        }
        return;
    }
    let h = &t.history;
    let mb = |b: usize| b as f32 / (1 << 20) as f32;
    let text = format!("latest {head} · {} snapshots · {:.1} of {:.0} MB", h.snapshots(), mb(h.bytes()), mb(h.budget));
    let line = ui.label(RichText::new(text).small());
    line.on_hover_text(
        "Snapshots every few steps (spaced wider the older they are) plus re-simulation: the \
         engine is deterministic, so any step since the start can be recomputed.",
    );
    let mut budget_mb = (h.budget >> 20) as u32;
    if ui.add(egui::Slider::new(&mut budget_mb, 16..=4096).logarithmic(true).text("history budget (MB)")).changed() {
        t.history.budget = (budget_mb as usize) << 20;
    }
    if t.in_past() {
        ui.label(
            RichText::new("Viewing a past step: an edit or a drag here discards the later steps.")
                .small()
                .color(egui::Color32::from_rgb(230, 170, 60)),
        );
    }
    if !t.history.note.is_empty() {
        ui.label(RichText::new(&t.history.note).small());
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

/// Smallest and largest interface scale, and the step of the buttons (and of Ctrl +/−).
const UI_SCALE: (f32, f32, f32) = (0.5, 3.0, 0.1);

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

fn scene_picker(ui: &mut egui::Ui, t: &mut Testbed) {
    let current = t.scene.desc.name.clone();
    let mut choice = None;
    egui::ComboBox::from_label("shipped").selected_text(current).width(220.0).show_ui(ui, |ui| {
        for s in &t.scene_list {
            if ui.selectable_label(false, &s.name).on_hover_text(&s.description).clicked() {
                choice = Some(s.path.clone());
            }
        }
    });
    if let Some(p) = choice {
        let _ = t.load(p);
    }
    ui.horizontal(|ui| {
        let field =
            ui.add(egui::TextEdit::singleline(&mut t.path_input).hint_text("path/to/scene.ron").desired_width(200.0));
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Open").on_hover_text("or Enter in the path field").clicked() || enter {
            let p = std::path::PathBuf::from(t.path_input.trim());
            let _ = t.load(p);
        }
        if ui.button("Reload").clicked() {
            let _ = t.reload();
        }
    });
    ui.horizontal(|ui| {
        if ui.button("Open…").on_hover_text("choose a .ron scene file").clicked() {
            t.open_dialog();
        }
        let mut hot = t.hot_reload;
        let tip = "reload the scene when its file, or an OBJ mesh it reads, is saved, keeping the camera";
        if ui.checkbox(&mut hot, "reload on save").on_hover_text(tip).changed() {
            t.set_hot_reload(hot);
        }
    });
    if let Some(e) = &t.load_error {
        ui.colored_label(Color32::from_rgb(200, 30, 30), format!("Could not load: {e}"));
        ui.label(RichText::new("The current scene keeps running.").small());
    }
}

fn method(ui: &mut egui::Ui, t: &mut Testbed) {
    let before = t.scene.world.settings;
    method_controls(ui, t);
    if t.scene.world.settings != before {
        // A settled scene sleeps: without waking, a new setting would show nothing.
        t.wake_all();
    }
}

fn method_controls(ui: &mut egui::Ui, t: &mut Testbed) {
    let mut mode = t.scene.world.settings.mode;
    let comparing = t.compare.is_some();
    ui.horizontal_wrapped(|ui| {
        if comparing {
            ui.label("A:");
        }
        for m in SolverMode::ALL {
            ui.radio_value(&mut mode, m, m.name()).on_hover_text(m.summary());
        }
    });
    if mode != t.scene.world.settings.mode {
        t.set_mode(mode);
    }
    compare_controls(ui, t);
    // A setting is live when the method of either side of a comparison reads it (side B
    // runs with side A's settings, only its method differs).
    let mode_b = t.compare.as_ref().map(|c| c.mode);
    let s = &mut t.scene.world.settings;
    let uses = |m: &[SolverMode]| m.contains(&s.mode) || mode_b.is_some_and(|b| m.contains(&b));
    let (iterative, one_pass_projection, cyclone) = (
        uses(&[SolverMode::Iterative]),
        uses(&[SolverMode::Naive, SolverMode::Averaged]),
        uses(&[SolverMode::Cyclone]),
    );
    // Each slider's range lies inside the documented valid range (`physics::limits`); the
    // values typed into their edit fields are clamped to the slider, and the whole settings
    // to the valid ranges below, so the panel can never leave them.
    ui.add_enabled_ui(iterative, |ui| {
        ui.add(egui::Slider::new(&mut s.iterations, 1..=50).text("iterations / substep"));
        ui.add(egui::Slider::new(&mut s.substeps, 1..=16).text("substeps"));
        ui.checkbox(&mut s.warm_starting, "warm starting");
        ui.checkbox(&mut s.simd, "SIMD batches").on_hover_text(
            "on: four manifolds per batch in SIMD lanes (solver/wide.rs) and the joints from compact \
             records (joint/compact.rs); off: the scalar sequential-impulse solver on every \
             manifold and every joint from its own data, the textbook path (solver/iterative.rs)",
        );
        ui.add(
            egui::Slider::new(&mut s.contact_hertz, limits::CONTACT_HERTZ.within(1.0..=240.0))
                .logarithmic(true)
                .text("bias stiffness (Hz)"),
        );
        ui.add(
            egui::Slider::new(&mut s.damping_ratio, limits::DAMPING_RATIO.within(0.0..=20.0))
                .text("bias damping ratio"),
        );
        ui.add(
            egui::Slider::new(&mut s.max_push_out, limits::MAX_PUSH_OUT.within(0.1..=10.0)).text("max push-out (m/s)"),
        );
    });
    // The naive projection: naive and averaged.
    ui.add_enabled_ui(one_pass_projection, |ui| {
        ui.add(egui::Slider::new(&mut s.naive_correction, limits::NAIVE_CORRECTION.range()).text("naive correction"));
    });
    ui.add_enabled_ui(cyclone, |ui| {
        let (lo, hi) = limits::CYCLONE_ITERATIONS;
        ui.add(egui::Slider::new(&mut s.cyclone_position_iterations, lo..=hi.min(20)).text("position steps / point"))
            .on_hover_text("Cyclone: penetration-resolution steps per step, per contact point");
        ui.add(egui::Slider::new(&mut s.cyclone_velocity_iterations, lo..=hi.min(20)).text("velocity steps / point"))
            .on_hover_text("Cyclone: velocity-resolution steps per step, per contact point");
        ui.add(
            egui::Slider::new(&mut s.cyclone_position_epsilon, limits::CYCLONE_POSITION_EPSILON.within(0.0..=0.05))
                .text("position epsilon (m)"),
        )
        .on_hover_text("Cyclone: penetrations up to this are left alone");
        ui.add(
            egui::Slider::new(&mut s.cyclone_velocity_epsilon, limits::CYCLONE_VELOCITY_EPSILON.within(0.0..=0.1))
                .text("velocity epsilon (m/s)"),
        )
        .on_hover_text("Cyclone: desired closing-velocity changes up to this are left alone");
        ui.add(
            egui::Slider::new(&mut s.cyclone_angular_limit, limits::CYCLONE_ANGULAR_LIMIT.range())
                .text("angular move limit"),
        )
        .on_hover_text("Cyclone: the rotation share of a penetration move, at most this × the lever arm");
    });
    ui.add(egui::Slider::new(&mut s.slop, limits::SLOP.within(0.0..=0.05)).text("slop (m)"));
    ui.add(
        egui::Slider::new(&mut s.restitution_threshold, limits::RESTITUTION_THRESHOLD.within(0.0..=5.0))
            .text("restitution threshold (m/s)"),
    );
    ui.add(egui::Slider::new(&mut s.margin, limits::MARGIN.within(0.0..=0.1)).text("speculative margin (m)"));
    ui.checkbox(&mut s.path_test, "path test").on_hover_text(
        "on: the broad phase drops pairs whose bounding spheres miss each other on their straight paths over \
         the step; off: every pair whose swept boxes overlap gets speculative contacts, which can brake fast \
         bodies that would pass each other (ghost collisions)",
    );
    ui.add(egui::Slider::new(&mut s.recycle_distance, limits::RECYCLE_DISTANCE.within(0.0..=0.1)).text("contact recycling (m)"))
        .on_hover_text(
        "pairs that moved less than this keep their manifold's normal and lever arms (Box3D); 0: exact geometry every step",
    );
    ui.checkbox(&mut s.sleeping, "sleeping");
    *s = s.clamped();
}

/// The A/B comparison: a second copy of the scene under another method, side by side.
fn compare_controls(ui: &mut egui::Ui, t: &mut Testbed) {
    let mut on = t.compare.is_some();
    let hint = "run a second copy of the scene in lockstep under another method, side by side with the same \
                camera (side B starts from side A's current state; Reset restarts both)";
    if ui.checkbox(&mut on, "A/B: compare with a second method").on_hover_text(hint).changed() {
        if on {
            let a = t.scene.world.settings.mode;
            let other = SolverMode::ALL.into_iter().find(|&m| m != a).unwrap_or(a);
            t.start_compare(other);
        } else {
            t.stop_compare();
        }
    }
    if let Some(c) = &t.compare {
        let mut mode_b = c.mode;
        ui.horizontal_wrapped(|ui| {
            ui.label("B:");
            for m in SolverMode::ALL {
                ui.radio_value(&mut mode_b, m, m.name()).on_hover_text(m.summary());
            }
        });
        if mode_b != c.mode {
            t.set_mode_b(mode_b);
        }
    }
}

fn overlays(ui: &mut egui::Ui, t: &mut Testbed) {
    for (o, name) in crate::view::Overlays::ALL {
        ui.checkbox(t.overlays.flag(o), name);
    }
    if t.overlays.bvh {
        let deepest = crate::render::mesh_debug::max_level(t.world());
        t.overlays.bvh_level = t.overlays.bvh_level.min(deepest);
        ui.add(egui::Slider::new(&mut t.overlays.bvh_level, 0..=deepest).text("hierarchy level (0 = root)"));
    }
    ui.add_enabled(
        t.overlays.minkowski,
        egui::Checkbox::new(&mut t.overlays.minkowski_see_through, "Minkowski: see-through"),
    )
    .on_hover_text("show the polytope's hidden edges through its faces (off: opaque)");
}

fn stats(ui: &mut egui::Ui, t: &mut Testbed) {
    // One column per side: side A, and side B of an A/B comparison.
    let sides: Vec<(&crate::physics::World, f32)> = std::iter::once((t.world(), t.max_penetration_run))
        .chain(t.compare.as_ref().map(|c| (&c.world, c.max_penetration_run)))
        .collect();
    let header = |ui: &mut egui::Ui| {
        if sides.len() > 1 {
            ui.label("");
            for (name, (w, _)) in ["A", "B"].iter().zip(&sides) {
                ui.label(RichText::new(format!("{name}: {}", w.settings.mode.name())).strong());
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
        let fps = if t.frame_ms > 0.0 { 1000.0 / t.frame_ms } else { 0.0 };
        ui.label(format!("{:.2} ms ({fps:.0} fps)", t.frame_ms));
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

fn pairs(ui: &mut egui::Ui, t: &mut Testbed) {
    let mut pick = None;
    let w = t.world();
    for c in w.contacts().iter().filter(|c| !c.manifold.points.is_empty()).take(200) {
        let label = format!(
            "{} – {}  ({} pts, {})",
            w.bodies()[c.a as usize].name,
            w.bodies()[c.b as usize].name,
            c.manifold.points.len(),
            kind_name(c.manifold.kind)
        );
        let sel = t.selected_pair() == Some((c.a as usize, c.b as usize));
        if ui.selectable_label(sel, label).clicked() {
            pick = Some((c.a as usize, c.b as usize));
        }
    }
    if let Some((a, b)) = pick {
        t.select_pair(a, b);
    }
}

fn inspector(ui: &mut egui::Ui, t: &mut Testbed) {
    if let Some(h) = t.selected_joint {
        match t.world().joint_records().into_iter().find(|r| r.handle == h) {
            Some(r) => return super::joint_panel::joint_inspector(ui, t, &r),
            None => t.selected_joint = None,
        }
    }
    if t.selected.len() < 2 {
        ui.label("Click a body, then another, to inspect their contact (or pick a touching pair).");
        if let Some(&i) = t.selected.first() {
            ui.separator();
            super::body_panel::body_inspector(ui, t, i);
        }
        return;
    }
    let stages = t.clip_stages();
    let Some(p) = t.pair_debug().cloned() else { return };
    let (na, nb) = (t.world().bodies()[p.a].name.clone(), t.world().bodies()[p.b].name.clone());
    ui.label(RichText::new(format!("A = {na},  B = {nb}")).strong());
    // What the step did (the world's record of the watched pair).
    match &p.record {
        Some(r) => {
            ui.label(RichText::new(format!("step {}: {}", r.step, path_name(r.path))).strong());
            ui.label(r.path.explain());
            ui.label(format!("speculative margin {:.4} m (base margin + how far the pair could close)", r.margin));
        }
        None => {
            ui.label("not stepped since the pair was selected: step once to see what the step does");
        }
    }
    if let Some(sat) = &p.sat {
        let step_sat = p.record.as_ref().and_then(|r| r.collide.sat.filter(|_| r.path == PairPath::FullSat));
        let chosen = sat.winner;
        // The row of least penetration (the largest separation) and the chosen row differ
        // when the face preference picked a face over a slightly better edge or B's face.
        let seps = [sat.result.face_a.separation, sat.result.face_b.separation, sat.result.edge.separation];
        let least = (0..3).max_by(|&i, &j| seps[i].total_cmp(&seps[j])).unwrap_or(0);
        let chosen_row = match chosen {
            Some(ContactKind::FaceA) => Some(0),
            Some(ContactKind::FaceB) => Some(1),
            Some(ContactKind::Edge) => Some(2),
            None => None,
        };
        ui.label("SAT at the current poses (every query)");
        egui::Grid::new("sat").striped(true).show(ui, |ui| {
            ui.label("query");
            ui.label("feature");
            ui.label("separation");
            if step_sat.is_some() {
                ui.label("in the step");
            }
            ui.label("");
            ui.end_row();
            let rows = [
                ("best face of A", format!("face {}", sat.result.face_a.face), step_sat.map(|s| s.face_a.separation)),
                ("best face of B", format!("face {}", sat.result.face_b.face), step_sat.map(|s| s.face_b.separation)),
                (
                    "best edge pair",
                    if sat.result.edge.separation.is_finite() {
                        format!("{} × {}", sat.result.edge.edge_a, sat.result.edge.edge_b)
                    } else {
                        "none".into()
                    },
                    step_sat.map(|s| s.edge.separation),
                ),
            ];
            for (k, (name, feature, in_step)) in rows.into_iter().enumerate() {
                ui.label(name);
                ui.label(feature);
                ui.label(if seps[k].is_finite() { format!("{:+.4} m", seps[k]) } else { "—".into() });
                if step_sat.is_some() {
                    ui.label(match in_step {
                        Some(s) if s.is_finite() => format!("{s:+.4} m"),
                        _ => "culled".into(),
                    });
                }
                let mut marks = Vec::new();
                if chosen_row == Some(k) {
                    marks.push("chosen");
                }
                // Marked only when clearly deeper than the chosen row (not a tie).
                let clearly = chosen_row.is_some_and(|c| seps[k] > seps[c] + 1e-5);
                if least == k && chosen_row != Some(k) && clearly {
                    marks.push("least penetration");
                }
                ui.label(RichText::new(marks.join(", ")).strong());
                ui.end_row();
            }
        });
        let tested =
            sat.edge_pairs.iter().filter(|e| e.status == crate::physics::debug::EdgePairStatus::MinkowskiFace).count();
        ui.label(format!(
            "{} faces of A, {} of B; {} of {} edge pairs build Minkowski faces ({} pruned by the Gauss map)",
            sat.faces_a.len(),
            sat.faces_b.len(),
            tested,
            sat.edge_pairs.len(),
            sat.edge_pairs.len() - tested
        ));
        let verdict = match sat.winner {
            Some(k) => format!("contact: {}", kind_name(k)),
            None => "separated".to_string(),
        };
        ui.label(RichText::new(verdict).strong());
        ui.label(RichText::new(&sat.reason));
    } else {
        // No SAT: a sphere or capsule pair takes a closed form; a mesh pair, the triangles
        // under the body (`collide/mesh.rs`).
        let w = t.world();
        let mesh = w.bodies()[p.a].shape.mesh().is_some() || w.bodies()[p.b].shape.mesh().is_some();
        ui.label(format!(
            "{}: {}",
            if mesh {
                "triangle-mesh contact (one manifold per normal group of the triangles under the body; the deepest here)"
            } else {
                "curved-shape contact"
            },
            if p.manifold.points.is_empty() { "apart".into() } else { kind_name(p.manifold.kind).to_string() }
        ));
        // The pair's further normal groups (a body on two faces of the mesh at an angle).
        for (k, c) in w.contact_groups(p.a as u32, p.b as u32).enumerate() {
            let (n, m) = (c.manifold.normal, &c.manifold);
            let sum: f32 = c.impulses[..m.points.len()].iter().map(|i| i.normal).sum();
            ui.label(format!(
                "normal group {}: normal ({:.3}, {:.3}, {:.3}), {} points, deepest {:+.4} m, λn sum {sum:.2}",
                k + 2,
                n.x,
                n.y,
                n.z,
                m.points.len(),
                m.max_depth()
            ));
        }
    }
    if let Some(n) = stages {
        let mut s = t.clip_stage.unwrap_or(n - 1).min(n - 1);
        let label = match s {
            0 => "incident face".to_string(),
            k if k < n - 2 => format!("after side plane {k}"),
            k if k == n - 2 => "kept by depth".to_string(),
            _ => "reduced to ≤ 4".to_string(),
        };
        ui.add(egui::Slider::new(&mut s, 0..=n - 1).text(format!("clip stage: {label}")));
        t.clip_stage = if s == n - 1 { None } else { Some(s) };
        ui.label(if p.clip_step > 0 {
            format!("clip of step {} (the one that built this manifold)", p.clip_step)
        } else {
            "clip recomputed at the current poses".to_string()
        });
    }
    let m = &p.manifold;
    if let Some(r) = &p.record {
        ui.label(
            RichText::new(format!("manifold the solver used in step {} ({})", r.step, path_name(r.path))).strong(),
        );
    }
    ui.label(format!("normal (A->B) = ({:.3}, {:.3}, {:.3})", m.normal.x, m.normal.y, m.normal.z));
    egui::Grid::new("points").striped(true).show(ui, |ui| {
        for h in ["#", "depth (m)", "features", "λn", "λt"] {
            ui.label(RichText::new(h).small().strong());
        }
        ui.end_row();
        for (k, pt) in m.points.iter().enumerate() {
            ui.label(k.to_string());
            ui.label(format!("{:+.4}", pt.depth));
            ui.label(crate::view::feature::label(pt.id));
            let (ln, lt) = p.impulses.get(k).copied().unwrap_or((0.0, [0.0; 2]));
            ui.label(format!("{ln:.2}"));
            ui.label(format!("{:.2}, {:.2}", lt[0], lt[1]));
            ui.end_row();
        }
    });
    super::ccd_panel::pair_toi(ui, t, p.a, p.b);
    // A recomputation at the current poses that differs from what the step used: both are
    // shown, with the reason.
    if p.record.is_some() && p.fresh_differs(0.2 * t.world().settings.slop) {
        ui.separator();
        let why = match p.record.as_ref().map(|r| r.path) {
            Some(PairPath::Recycled) => "the step recycled an older manifold; a fresh SAT builds a new one",
            Some(PairPath::CachedFeature) => "the step reused the cached feature; a fresh SAT may choose another",
            Some(PairPath::StillApart | PairPath::SphereSkip | PairPath::CachedAxisSeparates) => {
                "the step skipped the pair; a fresh SAT at the current poses finds contact"
            }
            _ => "the bodies moved during the step; the next step starts from these poses",
        };
        ui.label(RichText::new("fresh SAT at the current poses differs").strong());
        ui.label(why);
        let f = &p.fresh;
        ui.label(format!(
            "{} points, {}, normal ({:.3}, {:.3}, {:.3})",
            f.points.len(),
            if f.points.is_empty() { "apart" } else { kind_name(f.kind) },
            f.normal.x,
            f.normal.y,
            f.normal.z
        ));
        egui::Grid::new("fresh points").striped(true).show(ui, |ui| {
            for h in ["#", "depth (m)", "feature id"] {
                ui.label(RichText::new(h).small().strong());
            }
            ui.end_row();
            for (k, pt) in f.points.iter().enumerate() {
                ui.label(k.to_string());
                ui.label(format!("{:+.4}", pt.depth));
                ui.label(format!("{:012x}", pt.id.0 & 0xFFFF_FFFF_FFFF));
                ui.end_row();
            }
        });
    }
}
