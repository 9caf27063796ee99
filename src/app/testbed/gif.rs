//! "Record GIF" as the testbed does it: start, the frames the window captures when due,
//! and stop, which writes the GIF on a worker thread (in the browser, which has no threads,
//! at once, as a download) and reports in the status line. The
//! recorder's state is [`crate::app::record::Recorder`].

use super::Testbed;
use crate::app::record::{gif_bytes, gif_delay_ms, GifRecording, MAX_FRAMES};
use image::RgbaImage;
use std::sync::mpsc::channel;

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

    /// While recording: how many steps may run before the next frame is due (0 while a
    /// frame is due and not yet taken). The clock runs at most that many steps a frame, so a
    /// slow frame rate slows the scene instead of skipping frames: the GIF samples every
    /// `every` steps, not every rendered frame.
    pub fn gif_steps_left(&self) -> Option<u64> {
        let r = self.tools.capture.recorder.active.as_ref()?;
        let now = self.world().step_count;
        Some(r.last_step.map_or(0, |s| (s + r.every as u64).saturating_sub(now)))
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

    /// Stops recording and writes the GIF on a worker thread (in the browser at once).
    pub fn stop_gif(&mut self) {
        let Some(r) = self.tools.capture.recorder.active.take() else { return };
        if r.frames.is_empty() {
            self.tools.status = "GIF not written: no frame was captured".into();
            return;
        }
        let shot = crate::render::screenshot::timestamped_path().with_extension("gif");
        let path = self.tools.capture.recorder.dir.join(shot.file_name().unwrap_or_default());
        let delay = gif_delay_ms(self.session.timestep(), r.every);
        let n = r.frames.len();
        let (tx, rx) = channel();
        let write = move || {
            let result = gif_bytes(r.frames, delay).and_then(|bytes| crate::app::output::save(&path, &bytes));
            let _ = tx.send(result);
        };
        // No threads in the browser: there it encodes at once.
        #[cfg(target_arch = "wasm32")]
        write();
        #[cfg(not(target_arch = "wasm32"))]
        std::thread::spawn(write);
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
                Ok(said) => said,
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
