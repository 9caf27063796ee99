//! Scene files in the window: hot reload of the open scene file (the `notify` crate) and the
//! "Open…" file dialog (`egui_file`, drawn by egui, so it works anywhere egui does).
//!
//! Hot reload watches the scene file's folder (editors often save by writing a new file and
//! renaming it over the old one, which a watch on the file itself would lose) and, when an
//! event names the open file, loads it again at the next frame, keeping the camera. A file
//! that fails to parse or validate leaves the running scene as it is and shows its error —
//! with line and column for syntax errors — in the panel, until a save fixes it.
//!
//! Limits: a scene that reads other files (none do yet) is not reloaded when those change.
//! A burst of events reloads once, and only when the file's bytes differ from those last
//! loaded; an editor that truncates and then writes may show a parse error for a frame
//! before the write's own event reloads the whole file.

use super::testbed::Testbed;
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A watch on the open scene file.
pub struct SceneWatch {
    /// The file watched.
    pub path: PathBuf,
    _watcher: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
    /// A fingerprint of the file's bytes when last loaded (or tried): a write that leaves
    /// them as they were — a save without edits, or the late events of a save already
    /// reloaded — reloads nothing, so the running scene is not reset twice.
    seen: Option<u64>,
}

impl std::fmt::Debug for SceneWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneWatch").field("path", &self.path).finish_non_exhaustive()
    }
}

/// A hash of the file's bytes, or `None` if it cannot be read (mid-rename, removed).
fn fingerprint(path: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let bytes = std::fs::read(path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    Some(h.finish())
}

/// Whether `kind` may have changed a file's bytes: a write, a create, a rename onto it or
/// the close after a write. Opens and reads (our own reload reads the file) are not.
fn may_change(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    matches!(
        kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

impl SceneWatch {
    /// Watches `path` (through its folder); its bytes now are the ones loaded.
    pub fn new(path: &Path) -> notify::Result<SceneWatch> {
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx)?;
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        watcher.watch(dir, RecursiveMode::NonRecursive)?;
        Ok(SceneWatch { path: path.to_path_buf(), _watcher: watcher, events, seen: fingerprint(path) })
    }

    /// Takes the file's bytes now as the ones loaded (after a load from any path).
    pub fn mark_loaded(&mut self) {
        self.seen = fingerprint(&self.path);
    }

    /// Whether the file's bytes changed since the last call, draining the events. Waits up
    /// to `wait` for an event that may have changed the file (other events — opens, reads,
    /// other files of the folder — are passed over, not taken as the answer), then compares
    /// the bytes with those last seen.
    pub fn changed(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        let name = self.path.file_name();
        loop {
            let now = Instant::now();
            let event = if now >= deadline {
                match self.events.try_recv() {
                    Ok(e) => e,
                    Err(_) => return false,
                }
            } else {
                match self.events.recv_timeout(deadline - now) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return false,
                }
            };
            let Ok(event) = event else { continue };
            if !(may_change(&event.kind) && event.paths.iter().any(|p| p.file_name() == name)) {
                continue;
            }
            // A burst of events from one save reloads once: drain what has come.
            while self.events.try_recv().is_ok() {}
            let now_seen = fingerprint(&self.path);
            if now_seen.is_none() || now_seen == self.seen {
                return false;
            }
            self.seen = now_seen;
            return true;
        }
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
            if let Some(w) = self.scene_watch.as_mut() {
                w.mark_loaded();
            }
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
        if !self.scene_watch.as_mut().is_some_and(|w| w.changed(wait)) {
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
