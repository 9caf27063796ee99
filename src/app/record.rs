//! "Record GIF" in the window: while recording, the 3D view (with its labels) is captured
//! every [`GifRecording::every`] steps; "Stop" writes the frames as one animated GIF to
//! `screenshots/contactlab-<date>-<time>.gif` on a worker thread (encoding takes seconds),
//! and the panel's status line says where it went. The headless counterpart is
//! `--frames N --every K --screenshot OUT.gif`.
//!
//! Limits: at most [`MAX_FRAMES`] frames (recording stops by itself there); frames are
//! taken at the window's size; windows floating over the view (help, plots) are captured
//! too.

use super::testbed::Testbed;
use image::RgbaImage;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};

/// Most frames one recording keeps (memory: about 4 MB each at 1600×900).
pub const MAX_FRAMES: usize = 300;

/// A recording in progress.
#[derive(Debug)]
pub struct GifRecording {
    /// Frames so far.
    pub frames: Vec<RgbaImage>,
    /// Steps between frames.
    pub every: u32,
    /// Step of the last frame taken.
    last_step: Option<u64>,
}

/// Recording state of the testbed.
#[derive(Debug)]
pub struct Recorder {
    /// Steps between frames for the next recording.
    pub every: u32,
    /// The recording in progress.
    pub active: Option<GifRecording>,
    /// A GIF being written: the result arrives here.
    pub writing: Option<Receiver<Result<PathBuf, String>>>,
    /// Folder the GIFs go to.
    pub dir: PathBuf,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder { every: 2, active: None, writing: None, dir: PathBuf::from("screenshots") }
    }
}

impl Testbed {
    /// Starts recording (frames are taken by the window, [`Testbed::gif_frame_due`]).
    pub fn start_gif(&mut self) {
        self.tools.capture.recorder.active =
            Some(GifRecording { frames: Vec::new(), every: self.tools.capture.recorder.every.max(1), last_step: None });
        self.tools.status = "recording a GIF: play or step the scene, then press Stop".into();
    }

    /// Whether the window should capture a frame now: the first one, then one each time the
    /// world has taken `every` steps since the last.
    pub fn gif_frame_due(&self) -> bool {
        self.tools.capture.recorder.active.as_ref().is_some_and(|r| {
            r.last_step.is_none_or(|s| self.world().step_count >= s + r.every as u64) && r.frames.len() < MAX_FRAMES
        })
    }

    /// Adds a captured frame; stops the recording when it is full.
    pub fn push_gif_frame(&mut self, img: RgbaImage) {
        let step = self.world().step_count;
        let Some(r) = self.tools.capture.recorder.active.as_mut() else { return };
        r.frames.push(img);
        r.last_step = Some(step);
        if r.frames.len() >= MAX_FRAMES {
            self.stop_gif();
        }
    }

    /// Stops recording and writes the GIF on a worker thread.
    pub fn stop_gif(&mut self) {
        let Some(r) = self.tools.capture.recorder.active.take() else { return };
        if r.frames.is_empty() {
            self.tools.status = "GIF not written: no frame was captured".into();
            return;
        }
        let shot = crate::render::screenshot::timestamped_path().with_extension("gif");
        let path = self.tools.capture.recorder.dir.join(shot.file_name().unwrap_or_default());
        let delay = super::headless::gif_delay_ms(self.session.timestep(), r.every);
        let n = r.frames.len();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let result = path
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))
                .and_then(|()| super::headless::write_gif(r.frames, delay, &path))
                .map(|()| path);
            let _ = tx.send(result);
        });
        self.tools.capture.recorder.writing = Some(rx);
        self.tools.status = format!("writing a GIF of {n} frames…");
    }

    /// Picks up the result of a GIF being written (called every frame; `wait`: block until
    /// it is written, for tests).
    pub fn poll_gif_within(&mut self, wait: bool) {
        let Some(rx) = &self.tools.capture.recorder.writing else { return };
        let result = if wait { rx.recv().ok() } else { rx.try_recv().ok() };
        if let Some(result) = result {
            self.tools.status = match result {
                Ok(p) => format!("saved {}", p.display()),
                Err(e) => format!("GIF failed: {e}"),
            };
            self.tools.capture.recorder.writing = None;
        }
    }

    /// [`Testbed::poll_gif_within`] without waiting.
    pub fn poll_gif(&mut self) {
        self.poll_gif_within(false);
    }
}
