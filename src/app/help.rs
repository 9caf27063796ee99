//! The help overlay (F1, or the panel's "Keys and mouse" button): every key and mouse action
//! of the window, from one table, so the overlay and the README cannot drift apart.

use super::testbed::Testbed;

/// Every key and mouse action of the window: (input, what it does).
pub const ACTIONS: &[(&str, &str)] = &[
    ("Space", "play / pause (jump, while driving a character)"),
    ("W A S D", "walk the character picked and driven in the Characters section (the camera follows it)"),
    (". or Right arrow", "exactly one step (also while paused); at a past step, the recorded one"),
    (", or Left arrow", "one step back (the history keeps every step since the start)"),
    ("Home / End", "the earliest / the latest step of the history"),
    ("R", "reset the scene (bodies and camera; both sides of an A/B comparison)"),
    ("F", "frame the scene"),
    ("F12", "screenshot to screenshots/ (\"with panel\" in the panel includes it)"),
    ("Esc", "clear the selection"),
    ("F1", "this help"),
    ("P", "the plots: energy, momentum, penetration, contacts, stage timings, solver convergence"),
    ("Ctrl + / Ctrl − / Ctrl 0", "interface scale up / down / back to 100 %"),
    ("left click on a body", "select it; a second body makes a pair for the contact inspector"),
    ("left click on empty space", "clear the selection"),
    ("left drag on a body", "pull it with a mouse joint, its force shown in newtons (while paused: move it directly)"),
    ("Ctrl + left drag on a body", "turn it about the view's up and right axes"),
    ("left drag on empty space", "orbit the camera"),
    ("right or middle drag", "pan"),
    ("mouse wheel", "zoom towards the cursor"),
    ("left drag inside an inset", "turn the Gauss-map and Minkowski views"),
];

/// Toggles the overlay on F1 and draws it when it is open.
pub fn show(ctx: &egui::Context, t: &mut Testbed) {
    if ctx.input(|i| i.key_pressed(egui::Key::F1)) {
        t.show_help = !t.show_help;
    }
    let mut open = t.show_help;
    egui::Window::new("Keys and mouse").open(&mut open).collapsible(false).resizable(false).show(ctx, |ui| {
        egui::Grid::new("help keys").striped(true).show(ui, |ui| {
            for (input, action) in ACTIONS {
                ui.label(egui::RichText::new(*input).strong());
                ui.label(*action);
                ui.end_row();
            }
        });
    });
    t.show_help = open;
}
