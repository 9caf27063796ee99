//! The watch behind hot reload: the files a running scene came from with the fingerprints
//! of their bytes, and (native only) the `notify` watch on their folders
//! ([`super::files`] has the rules).

use crate::scene::SceneDesc;
#[cfg(not(target_arch = "wasm32"))]
use notify::{RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
#[cfg(not(target_arch = "wasm32"))]
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

/// A hash of the file's bytes, or `None` if it cannot be read (mid-rename, removed).
pub fn fingerprint(path: &Path) -> Option<u64> {
    use std::hash::{Hash, Hasher};
    // Natively the bytes (a save that is not UTF-8 still changes them); in the browser the
    // text the page holds.
    #[cfg(not(target_arch = "wasm32"))]
    let bytes = std::fs::read(path).ok()?;
    #[cfg(target_arch = "wasm32")]
    let bytes = crate::scene::read_text(path).ok()?;
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    Some(h.finish())
}

/// A watch on the open scene file and the files it reads.
#[cfg(not(target_arch = "wasm32"))]
pub struct SceneWatch {
    /// What is watched, and the bytes last loaded (or tried): a write that leaves them as
    /// they were — a save without edits, or the late events of a save already reloaded —
    /// reloads nothing, so the running scene is not reset twice.
    pub(super) loaded: Loaded,
    _watcher: notify::RecommendedWatcher,
    events: Receiver<notify::Result<notify::Event>>,
}

#[cfg(not(target_arch = "wasm32"))]
impl std::fmt::Debug for SceneWatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SceneWatch").field("files", &self.loaded.files).finish_non_exhaustive()
    }
}

/// Whether an event of this kind may have changed a file's bytes: a write, a create, a
/// rename onto it or the close after a write. Opens and reads (our own reload reads the
/// file) are not.
#[cfg(not(target_arch = "wasm32"))]
fn may_change(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    matches!(
        kind,
        EventKind::Create(_) | EventKind::Modify(_) | EventKind::Access(AccessKind::Close(AccessMode::Write))
    )
}

#[cfg(not(target_arch = "wasm32"))]
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
