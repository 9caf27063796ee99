//! The contact inspector, in parts: the selected [`joint`], one selected [`body`], or the
//! selected [`pair`] (with its time-of-impact queries from [`ccd`]); the characters'
//! recursion table ([`character`]) is shown in the *Characters* section. In a comparison a
//! side selector picks the side whose records the inspector reads.

pub mod body;
pub mod ccd;
pub mod character;
pub mod joint;
pub mod pair;

use crate::app::testbed::Testbed;

/// The inspector: the side selector (in a comparison), then the joint, body or pair part.
pub fn inspector(ui: &mut egui::Ui, t: &mut Testbed) {
    side_selector(ui, t);
    let k = t.selection.side.min(t.sides.len() - 1);
    if let Some(h) = t.selection.joint {
        let record = t.sides.get(k).and_then(|s| s.world.joint_records().into_iter().find(|r| r.handle == h));
        match record {
            Some(r) => return joint::joint(ui, t, k, &r),
            None => t.selection.joint = None,
        }
    }
    if t.selection.bodies.len() < 2 {
        ui.label("Click a body, then another, to inspect their contact (or pick a touching pair).");
        if let Some(&i) = t.selection.bodies.first() {
            ui.separator();
            body::body(ui, t, k, i);
        }
        return;
    }
    pair::pair(ui, t, k);
}

/// In a comparison: which side's records the inspector shows.
fn side_selector(ui: &mut egui::Ui, t: &mut Testbed) {
    if !t.sides.comparing() {
        t.selection.side = 0;
        return;
    }
    let mut k = t.selection.side.min(t.sides.len() - 1);
    ui.horizontal_wrapped(|ui| {
        ui.label("inspect side");
        for j in 0..t.sides.len() {
            ui.radio_value(&mut k, j, t.side_title(j));
        }
    });
    t.selection.side = k;
}
