//! The help overlay (F1, or the panel's "Keys and mouse" button): every key from the input
//! table ([`crate::app::input::KEYS`], the one the window dispatches from) and every mouse
//! gesture ([`crate::app::input::MOUSE`]), so the help and what the keys do cannot drift
//! apart.

use crate::app::input::{KEYS, MOUSE};
use crate::app::testbed::Testbed;

/// Every row of the help: (input, what it does), the keys first.
pub fn rows() -> impl Iterator<Item = (&'static str, &'static str)> {
    KEYS.iter().map(|b| (b.label, b.description)).chain(MOUSE.iter().copied())
}

/// Draws the overlay when it is open.
pub fn show(ctx: &egui::Context, t: &mut Testbed) {
    let mut open = t.view.show_help;
    egui::Window::new("Keys and mouse").open(&mut open).collapsible(false).resizable(false).show(ctx, |ui| {
        egui::Grid::new("help keys").striped(true).show(ui, |ui| {
            for (input, action) in rows() {
                ui.label(egui::RichText::new(input).strong());
                ui.label(action);
                ui.end_row();
            }
        });
    });
    t.view.show_help = open;
}
