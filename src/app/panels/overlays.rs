//! The panel's *Overlays* section: each overlay on or off, the mesh hierarchy's level, and
//! the Minkowski inset's see-through option.

use crate::physics::World;
use crate::scene::format::Overlay;
use crate::view::Overlays;

/// The section: a checkbox per overlay, and the settings of the hierarchy and Minkowski
/// overlays (`world` gives the meshes' deepest level).
pub fn overlays(ui: &mut egui::Ui, o: &mut Overlays, world: &World) {
    for (kind, name) in Overlays::ALL {
        let mut on = o.has(kind);
        if ui.checkbox(&mut on, name).changed() {
            o.set(kind, on);
        }
    }
    if o.has(Overlay::Bvh) {
        let deepest = crate::render::mesh_debug::max_level(world);
        o.bvh_level = o.bvh_level.min(deepest);
        ui.add(egui::Slider::new(&mut o.bvh_level, 0..=deepest).text("hierarchy level (0 = root)"));
    }
    ui.add_enabled(
        o.has(Overlay::Minkowski),
        egui::Checkbox::new(&mut o.minkowski_see_through, "Minkowski: see-through"),
    )
    .on_hover_text("show the polytope's hidden edges through its faces (off: opaque)");
}
