//! "Record GIF" in the window: while recording, the 3D view (with its labels) is captured
//! every [`GifRecording::every`] steps; "Stop" writes the frames as one animated GIF to
//! `screenshots/contactlab-<date>-<time>.gif` on a worker thread (encoding takes seconds;
//! in the browser, which has no threads, at once, as a download), and the panel's status
//! line says where it went. The headless counterpart is
//! `--frames N --every K --screenshot OUT.gif`.
//!
//! Limits: at most [`MAX_FRAMES`] frames (recording stops by itself there); frames are
//! taken at the window's size; windows floating over the view (help, plots) are captured
//! too.

use image::RgbaImage;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;

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
    pub last_step: Option<u64>,
}

/// Recording state of the testbed.
#[derive(Debug)]
pub struct Recorder {
    /// Steps between frames for the next recording.
    pub every: u32,
    /// The recording in progress.
    pub active: Option<GifRecording>,
    /// A GIF being written: the result arrives here.
    pub writing: Option<Receiver<Result<String, String>>>,
    /// Folder the GIFs go to.
    pub dir: PathBuf,
}

impl Default for Recorder {
    fn default() -> Self {
        Recorder { every: 2, active: None, writing: None, dir: PathBuf::from("screenshots") }
    }
}

/// GIF frame delay (ms) for frames `every` steps of `timestep` apart: whole centiseconds, at
/// least 2 (browsers play anything shorter slower).
pub fn gif_delay_ms(timestep: f32, every: u32) -> u32 {
    ((timestep * every as f32 * 100.0).round() as u32).max(2) * 10
}

/// `images` as an endlessly looping animated GIF (the image crate's encoder).
pub fn gif_bytes(images: Vec<RgbaImage>, delay_ms: u32) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut enc = image::codecs::gif::GifEncoder::new_with_speed(&mut out, 10);
        enc.set_repeat(image::codecs::gif::Repeat::Infinite).map_err(|e| e.to_string())?;
        let delay = image::Delay::from_numer_denom_ms(delay_ms, 1);
        enc.encode_frames(images.into_iter().map(|img| image::Frame::from_parts(img, 0, 0, delay)))
            .map_err(|e| format!("cannot encode the GIF: {e}"))?;
    }
    Ok(out)
}
