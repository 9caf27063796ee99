//! Scene files in the window: hot reload of the open scene file (the `notify` crate) and the
//! "Open…" file dialog (`egui_file`, drawn by egui, so it works anywhere egui does).
//!
//! Hot reload watches the scene file's folder (editors often save by writing a new file and
//! renaming it over the old one, which a watch on the file itself would lose) and, when an
//! event names the open file, loads it again at the next frame, keeping the camera. A file
//! that fails to parse or validate leaves the running scene as it is and shows its error —
//! with line and column for syntax errors — in the panel, until a save fixes it.
//!
//! Limits: a scene that reads other files (none do yet) is not reloaded when those change;
//! a burst of events within one frame reloads once.

use super::testbed::Testbed;
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// A watch on the open scene file.
pub struct SceneWatch {
    /// The file watched.
    pub path: PathBuf,
    _watcher: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl std::fmt::Debug for SceneWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneWatch").field("path", &self.path).finish_non_exhaustive()
    }
}

impl SceneWatch {
    /// Watches `path` (through its folder).
    pub fn new(path: &Path) -> notify::Result<SceneWatch> {
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        watcher.watch(dir, RecursiveMode::NonRecursive)?;
        Ok(SceneWatch { path: path.to_path_buf(), _watcher: watcher, events })
    }

    /// Whether the file changed since the last call (drains the events), waiting up to
    /// `wait` for the first event.
    pub fn changed(&self, wait: Duration) -> bool {
        let name = self.path.file_name();
        let mut changed = false;
        let first = if wait.is_zero() { self.events.try_recv().ok() } else { self.events.recv_timeout(wait).ok() };
        for event in first.into_iter().chain(std::iter::from_fn(|| self.events.try_recv().ok())) {
            let Ok(event) = event else { continue };
            let writes = event.kind.is_modify() || event.kind.is_create();
            changed |= writes && event.paths.iter().any(|p| p.file_name() == name);
        }
        changed
    }
}

impl Testbed {
    /// Turns hot reload on or off for the open scene file.
    pub fn set_hot_reload(&mut self, on: bool) {
        self.hot_reload = on;
        self.sync_scene_watch();
    }

    /// Keeps the watch on the open file (called after loading another file).
    pub(super) fn sync_scene_watch(&mut self) {
        let want = self.scene_path.clone().filter(|_| self.hot_reload);
        if self.scene_watch.as_ref().map(|w| &w.path) == want.as_ref() {
            return;
        }
        self.scene_watch = None;
        if let Some(path) = want {
            match SceneWatch::new(&path) {
                Ok(w) => self.scene_watch = Some(w),
                Err(e) => self.status = format!("cannot watch {} for changes: {e}", path.display()),
            }
        }
    }

    /// Reloads the scene file if it changed on disk, keeping the camera; returns whether it
    /// tried. A broken file keeps the running scene and shows its error.
    pub fn poll_hot_reload(&mut self) -> bool {
        self.poll_hot_reload_within(Duration::ZERO)
    }

    /// [`Testbed::poll_hot_reload`], waiting up to `wait` for the file system's event (tests).
    pub fn poll_hot_reload_within(&mut self, wait: Duration) -> bool {
        if !self.scene_watch.as_ref().is_some_and(|w| w.changed(wait)) {
            return false;
        }
        let camera = self.camera;
        if self.reload().is_ok() {
            self.camera = camera;
            self.status = "reloaded the scene file (it changed on disk)".into();
        }
        true
    }

    /// Opens the "Open…" dialog at the scene's folder.
    pub fn open_dialog(&mut self) {
        // The dialog starts in a folder: the open scene's, else the shipped scenes'.
        let start = self
            .scene_path
            .as_deref()
            .and_then(Path::parent)
            .filter(|d| d.is_dir())
            .map_or_else(crate::scene::scenes_dir, Path::to_path_buf);
        let filter: egui_file::Filter<PathBuf> = Box::new(|p: &Path| p.extension().is_some_and(|e| e == "ron"));
        let mut d =
            egui_file::FileDialog::open_file().initial_path(start).title("Open a scene").show_files_filter(filter);
        d.open();
        self.file_dialog = Some(d);
    }
}

/// Draws the dialog while it is open and loads the file chosen.
pub fn show_dialog(ctx: &egui::Context, t: &mut Testbed) {
    let Some(d) = t.file_dialog.as_mut() else { return };
    if d.show(ctx).selected() {
        let path = d.path().map(Path::to_path_buf);
        t.file_dialog = None;
        if let Some(p) = path {
            // An error shows in the panel; the running scene stays.
            let _ = t.load(p);
        }
    } else if !d.visible() {
        t.file_dialog = None;
    }
}
