//! The control panel (egui), one file per section: [`simulation`] (play, step, history,
//! interface scale), [`scene`] (picker, files, hot reload), [`method`] (the method, every
//! solver setting, the comparison of up to four methods), [`ccd`] (continuous collision),
//! [`characters`], [`overlays`], [`stats`], [`pairs`] (touching pairs), the [`inspector`]
//! (pair, body, joint, time of impact, character), and [`capture`] (screenshot, GIF, look);
//! and the floating windows: [`help`] (F1) and [`plots`] (P).
//!
//! Panels read and edit the testbed's parts; they define no state of their own (the state
//! types live with the parts that own them), so nothing outside this folder imports from it
//! but the window's frame ([`crate::app::viewport`]).

pub mod capture;
pub mod ccd;
pub mod characters;
pub mod help;
pub mod inspector;
pub mod method;
pub mod overlays;
pub mod pairs;
pub mod plots;
pub mod scene;
pub mod simulation;
pub mod stats;

use crate::app::testbed::Testbed;
use crate::physics::collide::{ContactKind, PairPath};
use egui::RichText;

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
        ui.heading(RichText::new(&t.session.scene.desc.name).strong());
        if !t.session.scene.desc.description.is_empty() {
            ui.label(RichText::new(&t.session.scene.desc.description));
        }
        ui.separator();
        simulation::simulation(ui, t);
        ui.separator();
        egui::CollapsingHeader::new("Scene").default_open(true).show(ui, |ui| scene::scene_picker(ui, t));
        egui::CollapsingHeader::new("Resolution method").default_open(true).show(ui, |ui| method::method(ui, t));
        // Open on scenes made to show it (the ghosts on, bullets, or the earliest-collision
        // mode).
        let w = t.world();
        let ccd_scene = t.view.overlays.has(crate::scene::format::Overlay::Toi)
            || w.settings.ccd == crate::physics::ContinuousMode::EarliestCollision
            || w.bodies().iter().any(|b| b.bullet);
        egui::CollapsingHeader::new("Continuous collision").default_open(ccd_scene).show(ui, |ui| ccd::section(ui, t));
        if !t.world().characters().is_empty() {
            egui::CollapsingHeader::new("Characters").default_open(true).show(ui, |ui| characters::section(ui, t));
        }
        egui::CollapsingHeader::new("Overlays").default_open(false).show(ui, |ui| {
            let world = &t.sides.main().world;
            overlays::overlays(ui, &mut t.view.overlays, world)
        });
        egui::CollapsingHeader::new("Stats").default_open(false).show(ui, |ui| stats::stats(ui, t));
        egui::CollapsingHeader::new("Touching pairs").default_open(false).show(ui, |ui| pairs::pairs(ui, t));
        egui::CollapsingHeader::new("Contact inspector").default_open(true).show(ui, |ui| inspector::inspector(ui, t));
        ui.separator();
        capture::section(ui, t);
    });
}
