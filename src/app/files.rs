//! Scene files in the window: hot reload of the open scene file (the `notify` crate) and the
//! "Open…" file dialog (`egui_file`, drawn by egui, so it works anywhere egui does).
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

use crate::scene::SceneDesc;
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The files a running scene came from — the scene file first, then the files it reads —
/// and a fingerprint of each one's bytes as loaded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loaded {
    /// The scene file, then the files it reads.
    pub files: Vec<PathBuf>,
    /// Per file: a hash of its bytes, `None` if it could not be read.
    pub seen: Vec<Option<u64>>,
}

impl Loaded {
    /// The scene file `path`, whose bytes hashed to `scene` *before* it was read (so a save
    /// landing during the load is seen as a change and reloaded, never lost), and the files
    /// its description `desc` reads, hashed now.
    pub fn new(path: &Path, scene: Option<u64>, desc: &SceneDesc) -> Loaded {
        let mut files = vec![path.to_path_buf()];
        files.extend(crate::scene::mesh::files_read(desc, path));
        let seen = std::iter::once(scene).chain(files[1..].iter().map(|f| fingerprint(f))).collect();
        Loaded { files, seen }
    }
}

/// A watch on the open scene file and the files it reads.
pub struct SceneWatch {
    /// What is watched, and the bytes last loaded (or tried): a write that leaves them as
    /// they were — a save without edits, or the late events of a save already reloaded —
    /// reloads nothing, so the running scene is not reset twice.
    loaded: Loaded,
    _watcher: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

impl std::fmt::Debug for SceneWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneWatch").field("files", &self.loaded.files).finish_non_exhaustive()
    }
}

/// A hash of the file's bytes, or `None` if it cannot be read (mid-rename, removed).
pub fn fingerprint(path: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    let bytes = std::fs::read(path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    Some(h.finish())
}

/// Whether an event of this kind may have changed a file's bytes: a write, a create, a
/// rename onto it or the close after a write. Opens and reads (our own reload reads the
/// file) are not.
fn may_change(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    matches!(
        kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

impl SceneWatch {
    /// Watches the folders of `loaded`'s files.
    pub fn new(loaded: Loaded) -> notify::Result<SceneWatch> {
        let (tx, events) = channel();
        let mut watcher = notify::recommended_watcher(tx)?;
        let mut dirs: Vec<&Path> = loaded
            .files
            .iter()
            .map(|f| f.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")))
            .collect();
        dirs.sort();
        dirs.dedup();
        for dir in dirs {
            watcher.watch(dir, RecursiveMode::NonRecursive)?;
        }
        Ok(SceneWatch { loaded, _watcher: watcher, events })
    }

    /// Whether the files' bytes changed since they were loaded or last compared, draining
    /// the events. Waits up to `wait` for an event that may have changed one of them (other
    /// events — opens, reads, other files of the folders — are passed over, not taken as
    /// the answer), then compares the bytes with those last seen.
    pub fn changed(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now().checked_add(wait);
        loop {
            let left = deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
            let event = if left.is_zero() {
                match self.events.try_recv() {
                    Ok(e) => e,
                    Err(_) => return false,
                }
            } else {
                match self.events.recv_timeout(left) {
                    Ok(e) => e,
                    Err(RecvTimeoutError::Timeout) => continue,
                    Err(RecvTimeoutError::Disconnected) => return false,
                }
            };
            let Ok(event) = event else { continue };
            let ours = || event.paths.iter().any(|p| self.loaded.files.iter().any(|f| f.file_name() == p.file_name()));
            // A rescan request: the watcher lost events, so any file may have changed.
            if !(event.need_rescan() || (may_change(&event.kind) && ours())) {
                continue;
            }
            // A burst of events from one save reloads once: drain what has come, then read
            // (so nothing drained is newer than the bytes compared).
            while self.events.try_recv().is_ok() {}
            let now: Vec<Option<u64>> = self.loaded.files.iter().map(|f| fingerprint(f)).collect();
            // The scene file unreadable: mid-rename or removed; its next event will tell.
            if now[0].is_none() || now == self.loaded.seen {
                return false;
            }
            self.loaded.seen = now;
            return true;
        }
    }
}

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
    watch: Option<SceneWatch>,
    /// The files the running scene was loaded from, with their bytes' fingerprints.
    loaded: Loaded,
    /// The "Open…" dialog, while open.
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
        self.watch.as_mut().is_some_and(|w| w.changed(wait))
    }

    /// Opens the "Open…" dialog in folder `start`.
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
