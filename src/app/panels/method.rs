//! The panel's *Resolution method* section: side A's method and every solver setting,
//! edited live (a change wakes every body); and the comparison: any two to four of the
//! methods side by side, each side's method, in lockstep with one camera
//! ([`crate::app::sides`]).

use crate::app::sides::{MAX_SIDES, SIDE_NAMES};
use crate::app::testbed::Testbed;
use crate::physics::{limits, SolverMode};

/// The section.
pub fn method(ui: &mut egui::Ui, t: &mut Testbed) {
    let before = t.world_mut().settings;
    method_controls(ui, t);
    if t.world_mut().settings != before {
        // A settled scene sleeps: without waking, a new setting would show nothing.
        t.wake_all();
    }
}

fn method_controls(ui: &mut egui::Ui, t: &mut Testbed) {
    let mut mode = t.world().settings.mode;
    let comparing = t.sides.comparing();
    ui.horizontal_wrapped(|ui| {
        if comparing {
            ui.label("A:");
        }
        for m in SolverMode::ALL {
            ui.radio_value(&mut mode, m, m.name()).on_hover_text(m.summary());
        }
    });
    if mode != t.world().settings.mode {
        t.set_mode(mode);
    }
    compare_controls(ui, t);
    // A setting is live when the method of any side of a comparison reads it (the other
    // sides run with side A's settings, only their methods differ).
    let modes = t.sides.modes();
    let s = &mut t.world_mut().settings;
    let uses = |m: &[SolverMode]| modes.iter().any(|x| m.contains(x));
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
    // Joints: sequential impulses in every method.
    ui.add(
        egui::Slider::new(&mut s.joint_hertz, limits::JOINT_HERTZ.within(1.0..=1000.0))
            .logarithmic(true)
            .text("joint stiffness (Hz)"),
    )
    .on_hover_text(
        "position feedback of the joints, capped at half the substep rate (a quarter with one iteration) \
         while they are warm-started",
    );
    ui.checkbox(&mut s.joint_warm_starting, "warm start joints").on_hover_text(
        "on: each substep starts from the joint impulses the last one ended with; off: from zero (rapier3d's \
         joints), and the stiffness is not capped: rigid joints hold a loaded net with one iteration",
    );
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

/// The comparison: any two to four of the methods side by side, in lockstep, through one
/// camera.
fn compare_controls(ui: &mut egui::Ui, t: &mut Testbed) {
    let mut on = t.sides.comparing();
    let hint = "run copies of the scene in lockstep under other methods, side by side with the same camera \
                (a new side starts from side A's current state; Reset restarts them all)";
    if ui.checkbox(&mut on, "compare methods side by side").on_hover_text(hint).changed() {
        let a = t.world().settings.mode;
        if on {
            let other = SolverMode::ALL.into_iter().find(|&m| m != a).unwrap_or(a);
            t.set_sides(&[a, other]);
        } else {
            t.set_sides(&[a]);
        }
    }
    if !t.sides.comparing() {
        return;
    }
    let modes = t.sides.modes();
    let mut want = modes.clone();
    ui.horizontal_wrapped(|ui| {
        for m in SolverMode::ALL {
            let mut shown = modes.contains(&m);
            let full = modes.len() >= MAX_SIDES && !shown;
            let r = ui.add_enabled(!full, egui::Checkbox::new(&mut shown, format!("compare: {}", m.name())));
            if r.on_hover_text(m.summary()).changed() {
                if shown {
                    want.push(m);
                } else {
                    want.retain(|&x| x != m);
                }
            }
        }
    });
    if want != modes && !want.is_empty() {
        t.set_sides(&want);
    }
    let tiles: Vec<String> = t.sides.iter().zip(SIDE_NAMES).map(|(s, n)| format!("{n}: {}", s.mode().name())).collect();
    ui.label(egui::RichText::new(format!("tiles: {}", tiles.join(" · "))).small());
}
