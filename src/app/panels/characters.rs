//! The panel's *Characters* section: pick a character (its position, on the ground or in
//! the air), see its last move's recursion ([`super::inspector::character`]), and drive it
//! with the keys ([`crate::app::input::drive`]: W A S D walk relative to the camera's
//! heading, Space jumps, the camera follows). Driving replaces the character's scripted
//! path (Reset restores it).

use crate::app::testbed::Testbed;
use glam::Vec3;

/// The panel section.
pub fn section(ui: &mut egui::Ui, t: &mut Testbed) {
    let names: Vec<(String, Vec3, bool)> =
        t.world().characters().iter().map(|c| (c.name.clone(), c.body.position, c.body.on_ground)).collect();
    for (i, (name, p, ground)) in names.iter().enumerate() {
        let text = format!(
            "{name}  ({:.2}, {:.2}, {:.2}){}",
            p.x,
            p.y,
            p.z,
            if *ground { ", on the ground" } else { ", in the air" }
        );
        if ui.selectable_label(t.selection.characters.selected == Some(i), text).clicked() {
            t.selection.characters.selected = if t.selection.characters.selected == Some(i) { None } else { Some(i) };
        }
    }
    let Some(i) = t.selection.characters.selected.filter(|&i| i < names.len()) else {
        t.selection.characters.driving = false;
        ui.label("Pick a character to see its recursion and drive it.");
        return;
    };
    ui.checkbox(&mut t.selection.characters.driving, "drive it: W A S D walk, Space jumps, drag to look")
        .on_hover_text("replaces its scripted path (Reset restores it); the camera follows it");
    super::inspector::character::recursion(ui, t.world(), i);
}
