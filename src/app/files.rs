//! Scene files in the window: hot reload of the open scene file ([`super::watch`], the
//! `notify` crate) and the "Open…" file dialog (`egui_file`, drawn by egui). In the browser
//! there is neither: "Open…" is the browser's file picker (`super::web`) and nothing is
//! watched.
//!
//! Hot reload watches the scene file's folder (editors often save by writing a new file and
//! renaming it over the old one, which a watch on the file itself would lose), and the
//! folders of the files the scene reads (its OBJ meshes). When an event may have changed
//! one of them, their bytes are compared with those the running scene was loaded from; if
//! any differ, the scene is loaded again at the next frame, keeping the camera. A file that
//! fails to parse or validate leaves the running scene as it is and shows its error — with
//! line and column for syntax errors — in the panel, until a save fixes it.
//!
//! Limits: a burst of events reloads once; an editor that truncates and then writes may
//! show a parse error for a frame before the write's own event reloads the whole file.

#[cfg(not(target_arch = "wasm32"))]
use super::watch::SceneWatch;
pub use super::watch::{fingerprint, Loaded};
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

/// A shipped scene in the picker.
#[derive(Clone, Debug)]
pub struct SceneEntry {
    /// File.
    pub path: PathBuf,
    /// Scene name.
    pub name: String,
    /// Its description.
    pub description: String,
}

/// The shipped scenes, for the picker, sorted by the titles it shows (those that fail to
/// parse are left out).
pub fn scene_list() -> Vec<SceneEntry> {
    let mut list: Vec<SceneEntry> = crate::scene::shipped_scenes()
        .into_iter()
        .filter_map(|p| {
            let d = crate::scene::load_file(&p).ok()?;
            Some(SceneEntry { path: p, name: d.name, description: d.description })
        })
        .collect();
    list.sort_by_key(|e| e.name.to_lowercase());
    list
}

/// Scene files in the window (module docs).
#[derive(Debug, Default)]
pub struct Files {
    /// Shipped scenes.
    pub scene_list: Vec<SceneEntry>,
    /// Path field of the panel.
    pub path_input: String,
    /// Last load error, shown in the panel.
    pub load_error: Option<String>,
    /// Reload the scene file when it changes on disk.
    pub hot_reload: bool,
    #[cfg(not(target_arch = "wasm32"))]
    watch: Option<SceneWatch>,
    /// The files the running scene was loaded from, with their bytes' fingerprints.
    loaded: Loaded,
    /// The "Open…" dialog, while open.
    #[cfg(not(target_arch = "wasm32"))]
    pub dialog: Option<egui_file::FileDialog>,
}

impl Files {
    /// Takes `loaded` as the files the running scene came from (after a load) and keeps the
    /// watch on them; returns a message when they cannot be watched.
    pub fn loaded(&mut self, loaded: Loaded) -> Option<String> {
        self.loaded = loaded;
        self.sync_watch()
    }

    /// Keeps the watch on the open file and the files it reads, with the bytes they were
    /// loaded from; returns a message when they cannot be watched.
    #[cfg(target_arch = "wasm32")]
    pub fn sync_watch(&mut self) -> Option<String> {
        None
    }

    /// Keeps the watch on the open file and the files it reads, with the bytes they were
    /// loaded from; returns a message when they cannot be watched.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn sync_watch(&mut self) -> Option<String> {
        if !self.hot_reload || self.loaded.files.is_empty() {
            self.watch = None;
            return None;
        }
        if let Some(w) = self.watch.as_mut().filter(|w| w.loaded.files == self.loaded.files) {
            w.loaded.seen.clone_from(&self.loaded.seen);
            return None;
        }
        self.watch = None;
        match SceneWatch::new(self.loaded.clone()) {
            Ok(w) => {
                self.watch = Some(w);
                None
            }
            Err(e) => Some(format!("cannot watch {} for changes: {e}", self.loaded.files[0].display())),
        }
    }

    /// Whether the watched files changed on disk (waiting up to `wait` for the event).
    pub fn changed(&mut self, wait: Duration) -> bool {
        #[cfg(target_arch = "wasm32")]
        return {
            let _ = wait;
            false
        };
        #[cfg(not(target_arch = "wasm32"))]
        self.watch.as_mut().is_some_and(|w| w.changed(wait))
    }

    /// Opens the "Open…" dialog in folder `start`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_dialog(&mut self, start: PathBuf) {
        let filter: egui_file::Filter<PathBuf> = Box::new(|p: &Path| p.extension().is_some_and(|e| e == "ron"));
        let mut d =
            egui_file::FileDialog::open_file().initial_path(start).title("Open a scene").show_files_filter(filter);
        d.open();
        self.dialog = Some(d);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_scene_list_is_sorted_by_the_titles_it_shows() {
        let list = super::scene_list();
        assert!(list.len() > 30, "{} scenes", list.len());
        let names: Vec<String> = list.iter().map(|e| e.name.to_lowercase()).collect();
        assert!(names.windows(2).all(|w| w[0] <= w[1]), "{names:?}");
    }
}
