//! The collide-and-slide characters in the window: the panel's *Characters* section (pick a
//! character, see its last move's recursion as a table — pass, depth, time of impact, the
//! feature touched, the body it belongs to, the displacement left — and drive it), and the
//! driving itself: W A S D walk relative to the camera's heading, Space jumps, and the
//! camera's target follows the character so dragging the view looks around it.
//!
//! Driving replaces the character's scripted path (Reset restores it). The keys are read
//! from egui's input each frame, only while no text field has the keyboard.

use super::testbed::Testbed;
use crate::physics::character::{Pass, NO_BODY};
use crate::render::characters::ARROW_SCALE;
use egui::RichText;
use glam::Vec3;

/// Walking speed when driven (m/s).
pub const DRIVE_SPEED: f32 = 3.0;
/// Take-off speed of a jump (m/s): about 0.46 m high under 9.81 m/s².
pub const JUMP_SPEED: f32 = 3.0;

/// Which character is shown and whether it is driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CharacterView {
    /// The character whose recursion is drawn and listed.
    pub selected: Option<usize>,
    /// The selected character follows the keys (and the camera follows it).
    pub driving: bool,
}

/// Keys held this frame, for [`drive`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DriveKeys {
    /// W, S, A, D.
    pub forward: bool,
    /// S.
    pub back: bool,
    /// A.
    pub left: bool,
    /// D.
    pub right: bool,
    /// Space pressed this frame.
    pub jump: bool,
}

impl DriveKeys {
    /// The keys from egui's input (nothing while a text field has the keyboard).
    pub fn read(ctx: &egui::Context) -> DriveKeys {
        if ctx.egui_wants_keyboard_input() {
            return DriveKeys::default();
        }
        ctx.input(|i| DriveKeys {
            forward: i.key_down(egui::Key::W),
            back: i.key_down(egui::Key::S),
            left: i.key_down(egui::Key::A),
            right: i.key_down(egui::Key::D),
            jump: i.key_pressed(egui::Key::Space),
        })
    }
}

/// Applies the keys to the driven character (walk velocity relative to the camera's
/// heading; a jump when on the ground) and points the camera at it.
pub fn drive(t: &mut Testbed, keys: DriveKeys) {
    let (Some(i), true) = (t.characters.selected, t.characters.driving) else { return };
    let yaw_forward = {
        let d = t.camera.target - t.camera.eye();
        Vec3::new(d.x, 0.0, d.z).normalize_or(Vec3::NEG_Z)
    };
    let right = yaw_forward.cross(Vec3::Y);
    let axis = |a: bool, b: bool| (a as i32 - b as i32) as f32;
    let dir = yaw_forward * axis(keys.forward, keys.back) + right * axis(keys.right, keys.left);
    let Some(c) = t.scene.world.character_mut(i) else { return };
    c.path.clear();
    c.walk = dir.normalize_or_zero() * DRIVE_SPEED;
    if keys.jump && c.body.on_ground {
        c.fall = Vec3::Y * JUMP_SPEED;
    }
    t.camera.target = c.body.position;
}

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
        if ui.selectable_label(t.characters.selected == Some(i), text).clicked() {
            t.characters.selected = if t.characters.selected == Some(i) { None } else { Some(i) };
        }
    }
    let Some(i) = t.characters.selected.filter(|&i| i < names.len()) else {
        t.characters.driving = false;
        ui.label("Pick a character to see its recursion and drive it.");
        return;
    };
    ui.checkbox(&mut t.characters.driving, "drive it: W A S D walk, Space jumps, drag to look")
        .on_hover_text("replaces its scripted path (Reset restores it); the camera follows it");
    let w = t.world();
    let c = &w.characters()[i];
    ui.label(RichText::new(format!("last move of {}: {} recursion steps", c.name, c.body.steps.len())).strong());
    ui.label(format!(
        "drawn: rings at each sweep's start and end, green = walking pass, purple = gravity pass; \
         red dot = touch point, orange = sliding plane; arrows ×{ARROW_SCALE:.0}"
    ));
    egui::Grid::new("recursion").striped(true).show(ui, |ui| {
        for h in ["pass", "depth", "motion (mm)", "time of impact", "feature", "of", "left (mm)"] {
            ui.label(RichText::new(h).small().strong());
        }
        ui.end_row();
        for s in &c.body.steps {
            ui.label(match s.pass {
                Pass::Velocity => "walk",
                Pass::Gravity => "gravity",
            });
            ui.label(s.depth.to_string());
            ui.label(format!("{:.2}", s.motion.length() * 1000.0));
            match &s.hit {
                Some(h) => {
                    ui.label(format!("{:.4}", h.t));
                    ui.label(h.feature.label());
                    ui.label(if h.owner == NO_BODY {
                        "mesh".to_string()
                    } else {
                        w.bodies().get(h.owner as usize).map_or("?".to_string(), |b| b.name.clone())
                    });
                }
                None => {
                    ui.label("no touch");
                    ui.label("");
                    ui.label("");
                }
            }
            ui.label(format!("{:.2}", s.new_motion.length() * 1000.0));
            ui.end_row();
        }
    });
    if !c.pushes.is_empty() {
        ui.label(format!("pushing {} bodies this step", c.pushes.len()));
    }
}
