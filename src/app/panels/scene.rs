//! The panel's *Scene* section: the shipped scenes, a path field, Open and Reload, the
//! "Open…" dialog, hot reload, and the last load error (the running scene stays). In the
//! browser "Open…" is the browser's file picker and "Share link" replaces hot reload.

use crate::app::testbed::Testbed;
use egui::{Color32, RichText};
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;

/// The section.
pub fn scene_picker(ui: &mut egui::Ui, t: &mut Testbed) {
    let current = t.session.scene.desc.name.clone();
    let mut choice = None;
    egui::ComboBox::from_label("shipped").selected_text(current).width(220.0).show_ui(ui, |ui| {
        for s in &t.tools.files.scene_list {
            if ui.selectable_label(false, &s.name).on_hover_text(&s.description).clicked() {
                choice = Some(s.path.clone());
            }
        }
    });
    if let Some(p) = choice {
        let _ = t.load(p);
    }
    ui.horizontal(|ui| {
        let field = ui.add(
            egui::TextEdit::singleline(&mut t.tools.files.path_input)
                .hint_text("path/to/scene.ron")
                .desired_width(200.0),
        );
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Open").on_hover_text("or Enter in the path field").clicked() || enter {
            let p = std::path::PathBuf::from(t.tools.files.path_input.trim());
            let _ = t.load(p);
        }
        if ui.button("Reload").clicked() {
            let _ = t.reload();
        }
    });
    #[cfg(not(target_arch = "wasm32"))]
    ui.horizontal(|ui| {
        if ui.button("Open…").on_hover_text("choose a .ron scene file").clicked() {
            t.open_dialog();
        }
        let mut hot = t.tools.files.hot_reload;
        let tip = "reload the scene when its file, or an OBJ mesh it reads, is saved, keeping the camera";
        if ui.checkbox(&mut hot, "reload on save").on_hover_text(tip).changed() {
            t.set_hot_reload(hot);
        }
    });
    #[cfg(target_arch = "wasm32")]
    ui.horizontal(|ui| {
        let tip = "choose a .ron scene file, with the .obj files it reads";
        if ui.button("Open…").on_hover_text(tip).clicked() {
            crate::app::web::open_files();
        }
        let tip = "a link to this page that opens this scene, with the panel's settings and the camera";
        if ui.button("Share link").on_hover_text(tip).clicked() {
            crate::app::web::share(t);
        }
    });
    if let Some(e) = &t.tools.files.load_error {
        ui.colored_label(Color32::from_rgb(200, 30, 30), format!("Could not load: {e}"));
        ui.label(RichText::new("The current scene keeps running.").small());
    }
}

/// Draws the dialog while it is open and loads the file chosen.
#[cfg(not(target_arch = "wasm32"))]
pub fn dialog(ctx: &egui::Context, t: &mut Testbed) {
    let Some(d) = t.tools.files.dialog.as_mut() else { return };
    if d.show(ctx).selected() {
        let path = d.path().map(Path::to_path_buf);
        t.tools.files.dialog = None;
        if let Some(p) = path {
            // An error shows in the panel; the running scene stays.
            let _ = t.load(p);
        }
    } else if !d.visible() {
        t.tools.files.dialog = None;
    }
}
