//! Replaying a trace in the window (`--replay FILE.jsonl`): the recorded bodies, contacts and
//! impulses, step by step, with the same step keys and scrubber as the history; no physics
//! runs. The scene gives the shapes and colours; the trace's body names must be the
//! scene's, in order.
//!
//! Limits: the contact inspector has nothing to show (a trace does not hold the SAT queries
//! or clip stages; `--select` when recording keeps the watched pair's points in the trace,
//! listed in the panel's replay line); friction arrows need the contact tangents, which
//! traces hold since they gained the `tangents` field (older traces draw normals only).

use crate::trace::read::read_trace;
use crate::trace::{TraceHeader, TraceStep};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A trace being replayed.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The trace file.
    pub path: PathBuf,
    /// Its header.
    pub header: TraceHeader,
    /// Its steps.
    pub steps: Vec<TraceStep>,
    /// The step shown.
    pub index: usize,
    /// Each recorded body name's index in the scene.
    pub body_index: HashMap<String, u32>,
}

impl Replay {
    /// Steps of the first and the last recorded frame.
    pub fn span(&self) -> (u64, u64) {
        (self.steps[0].step, self.steps[self.steps.len() - 1].step)
    }
}

/// The shipped scene whose name the trace's header gives (for `--replay` without a scene).
pub fn shipped_scene_of(trace: &Path) -> Result<PathBuf, String> {
    let (header, _) = read_trace(trace).map_err(|e| e.to_string())?;
    crate::scene::shipped_scenes()
        .into_iter()
        .find(|p| crate::scene::load_file(p).is_ok_and(|d| d.name == header.scene))
        .ok_or_else(|| {
            format!(
                "{}: recorded from scene '{}', which is not a shipped scene: give its file too \
                 (contactlab SCENE.ron --replay {})",
                trace.display(),
                header.scene,
                trace.display()
            )
        })
}
