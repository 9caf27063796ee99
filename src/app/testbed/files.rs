//! Scene files as the testbed uses them: hot reload (reloading keeps the camera; a broken
//! file keeps the running scene and shows its error) and the "Open…" dialog. The watch and
//! the dialog's state are [`crate::app::files::Files`].

use super::Testbed;
#[cfg(not(target_arch = "wasm32"))]
use std::path::Path;
use std::time::Duration;

impl Testbed {
    /// Turns hot reload on or off for the open scene file.
    pub fn set_hot_reload(&mut self, on: bool) {
        self.tools.files.hot_reload = on;
        if let Some(msg) = self.tools.files.sync_watch() {
            self.tools.status = msg;
        }
    }

    /// Reloads the scene file if it (or a file it reads) changed on disk, keeping the
    /// camera; returns whether it tried. A broken file keeps the running scene and shows its
    /// error.
    pub fn poll_hot_reload(&mut self) -> bool {
        self.poll_hot_reload_within(Duration::ZERO)
    }

    /// [`Testbed::poll_hot_reload`], waiting up to `wait` for the file system's event (tests).
    pub fn poll_hot_reload_within(&mut self, wait: Duration) -> bool {
        if !self.tools.files.changed(wait) {
            return false;
        }
        let camera = self.view.camera;
        if self.reload().is_ok() {
            self.view.camera = camera;
            self.tools.status = "reloaded the scene file (it changed on disk)".into();
        }
        true
    }

    /// Opens the "Open…" dialog at the scene's folder (else the shipped scenes').
    #[cfg(not(target_arch = "wasm32"))]
    pub fn open_dialog(&mut self) {
        let start = self
            .session
            .scene_path
            .as_deref()
            .and_then(Path::parent)
            .filter(|d| d.is_dir())
            .map_or_else(crate::scene::scenes_dir, Path::to_path_buf);
        self.tools.files.open_dialog(start);
    }
}
