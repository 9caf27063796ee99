//! The testbed's tools around the simulation: scene files ([`Files`]: the picker, the path
//! field, the "Open…" dialog, hot reload, the last load error), capture (screenshots and the
//! GIF recorder), the plots' samples, and the status line that says what a tool just did.

use super::files::Files;
use super::record::Recorder;
use super::sides::Sides;
use crate::trace::series::Series;
use std::path::{Path, PathBuf};

/// What to capture for a screenshot.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenshotRequest {
    /// Destination file.
    pub path: PathBuf,
    /// Include the control panel.
    pub with_panel: bool,
}

/// Screenshots and GIFs.
#[derive(Debug)]
pub struct Capture {
    /// Pending screenshot (taken by the window at the end of the frame).
    pub screenshot: Option<ScreenshotRequest>,
    /// Screenshots include the panel.
    pub with_panel: bool,
    /// Pixel scale of view screenshots (1×, 2× or 3× for slides; the panel is captured at 1×).
    pub scale: u32,
    /// "Record GIF" ([`super::record`]).
    pub recorder: Recorder,
    /// Where "Explain this step" writes its documents (one folder each).
    pub explain_dir: PathBuf,
}

impl Default for Capture {
    fn default() -> Self {
        Capture {
            screenshot: None,
            with_panel: false,
            scale: 1,
            recorder: Recorder::default(),
            explain_dir: PathBuf::from("explain"),
        }
    }
}

impl Capture {
    /// Asks for a screenshot to `screenshots/` named after the time.
    pub fn request_screenshot(&mut self) {
        self.screenshot = Some(ScreenshotRequest {
            path: crate::render::screenshot::timestamped_path(),
            with_panel: self.with_panel,
        });
    }
}

/// The plots window's state: one series of samples per side.
#[derive(Clone, Debug, Default)]
pub struct Plots {
    /// The window is open.
    pub open: bool,
    /// One sample per step, per side (A first).
    pub series: Vec<Series>,
}

impl Plots {
    /// Samples the step just taken on every side, dropping samples past `head` (a branch),
    /// with body `follow`'s height, speed and spin.
    pub fn sample(&mut self, sides: &Sides, head: u64, follow: Option<usize>) {
        self.series.resize_with(sides.len(), Series::default);
        for (s, side) in self.series.iter_mut().zip(sides.iter()) {
            s.truncate(head);
            s.record(&side.world, follow);
        }
    }

    /// Forgets every sample (a new scene, a reset, other sides).
    pub fn clear(&mut self) {
        self.series.clear();
    }

    /// Side A's samples.
    pub fn main(&self) -> &[crate::trace::series::Sample] {
        self.series.first().map_or(&[], |s| s.samples())
    }

    /// Writes the series to `path` as CSV; in a comparison each side's beside it as
    /// `FILE.a.csv`, `FILE.b.csv`, … (as a headless `--compare` run names them). Returns
    /// what the status line says ([`super::output::save`]).
    pub fn export(&self, path: &Path) -> Result<String, String> {
        // Nothing sampled yet: the header alone.
        let empty = [Series::default()];
        let series = if self.series.is_empty() { &empty[..] } else { &self.series[..] };
        let mut said = Vec::new();
        for (k, s) in series.iter().enumerate().take(super::sides::MAX_SIDES) {
            let file = if series.len() > 1 {
                super::sides::side_path(path, &super::sides::side_letter(k))
            } else {
                path.to_path_buf()
            };
            let mut out = Vec::new();
            s.write_csv(&mut out).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
            said.push(super::output::save(&file, &out)?);
        }
        Ok(said.join(", "))
    }
}

/// A `plots/contactlab-…csv` path named after the time, like screenshots.
pub fn timestamped_csv() -> PathBuf {
    let png = crate::render::screenshot::timestamped_path();
    let name = png.file_name().map(|n| n.to_string_lossy().replace(".png", ".csv")).unwrap_or_default();
    Path::new("plots").join(name)
}

/// The tools (module docs).
#[derive(Debug, Default)]
pub struct Tools {
    /// Scene files and hot reload.
    pub files: Files,
    /// Screenshots and GIFs.
    pub capture: Capture,
    /// The plots' state.
    pub plots: Plots,
    /// Status line (e.g. where a screenshot went).
    pub status: String,
}
