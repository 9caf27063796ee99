//! The panel's *Touching pairs* section: the world's touching pairs (the first 200); a click
//! selects the pair for the contact inspector.

use super::kind_name;
use crate::app::testbed::Testbed;

/// The section.
pub fn pairs(ui: &mut egui::Ui, t: &mut Testbed) {
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
