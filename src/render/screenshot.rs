//! Reading the scene texture back and writing PNGs (DESIGN §9): copy to a buffer with rows
//! padded to `COPY_BYTES_PER_ROW_ALIGNMENT`, map it, strip the padding, swap BGRA to RGBA.

use image::RgbaImage;

/// Why a screenshot failed.
#[derive(Debug, thiserror::Error)]
pub enum ScreenshotError {
    /// The GPU did not map the buffer.
    #[error("could not read the rendered image back from the GPU: {0}")]
    Map(String),
    /// The format is not 8-bit RGBA/BGRA.
    #[error("cannot save a {0:?} texture as PNG")]
    Format(wgpu::TextureFormat),
    /// Writing the file failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// File.
        path: String,
        /// Reason.
        message: String,
    },
}

/// Reads the `rect` (x, y, w, h) of `texture` into an image, waiting for the GPU (native
/// only: a browser cannot wait, [`Readback`]).
#[cfg(not(target_arch = "wasm32"))]
pub fn read_texture(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
    rect: (u32, u32, u32, u32),
) -> Result<RgbaImage, ScreenshotError> {
    let read = Readback::start(device, queue, texture, rect)?;
    device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| ScreenshotError::Map(format!("{e:?}")))?;
    read.try_image(device).unwrap_or_else(|| Err(ScreenshotError::Map("the copy was not mapped after waiting".into())))
}

/// A copy of part of a texture on its way back from the GPU. In a browser nothing may wait
/// for the GPU: the window starts one, draws on, and picks the image up in a later frame
/// ([`Readback::try_image`]).
#[derive(Debug)]
pub struct Readback {
    buffer: wgpu::Buffer,
    rx: std::sync::mpsc::Receiver<Result<(), wgpu::BufferAsyncError>>,
    size: (u32, u32),
    padded: u32,
    bgra: bool,
}

impl Readback {
    /// Copies `rect` of `texture` into a buffer and asks for it to be mapped.
    pub fn start(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        texture: &wgpu::Texture,
        rect: (u32, u32, u32, u32),
    ) -> Result<Readback, ScreenshotError> {
        let format = texture.format();
        let bgra = match format {
            wgpu::TextureFormat::Bgra8Unorm | wgpu::TextureFormat::Bgra8UnormSrgb => true,
            wgpu::TextureFormat::Rgba8Unorm | wgpu::TextureFormat::Rgba8UnormSrgb => false,
            f => return Err(ScreenshotError::Format(f)),
        };
        let (x, y, w, h) = rect;
        let (w, h) = (w.max(1), h.max(1));
        let padded = (4 * w).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("screenshot readback"),
            size: (padded * h) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder =
            device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("screenshot copy") });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture,
                mip_level: 0,
                origin: wgpu::Origin3d { x, y, z: 0 },
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(padded), rows_per_image: Some(h) },
            },
            wgpu::Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        );
        queue.submit(Some(encoder.finish()));
        let (tx, rx) = std::sync::mpsc::channel();
        buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        Ok(Readback { buffer, rx, size: (w, h), padded, bgra })
    }

    /// The image once the GPU has mapped the copy; `None` while it has not.
    pub fn try_image(&self, device: &wgpu::Device) -> Option<Result<RgbaImage, ScreenshotError>> {
        let _ = device.poll(wgpu::PollType::Poll);
        match self.rx.try_recv() {
            Ok(Ok(())) => Some(self.image()),
            Ok(Err(e)) => Some(Err(ScreenshotError::Map(e.to_string()))),
            Err(std::sync::mpsc::TryRecvError::Empty) => None,
            Err(e) => Some(Err(ScreenshotError::Map(e.to_string()))),
        }
    }

    /// The mapped copy as an image: padding stripped, BGRA swapped to RGBA.
    fn image(&self) -> Result<RgbaImage, ScreenshotError> {
        let (w, h) = self.size;
        let unpadded = 4 * w;
        let slice = self.buffer.slice(..);
        let data = slice.get_mapped_range().map_err(|e| ScreenshotError::Map(format!("{e:?}")))?;
        let mut pixels = Vec::with_capacity((unpadded * h) as usize);
        for row in 0..h as usize {
            let start = row * self.padded as usize;
            pixels.extend_from_slice(&data[start..start + unpadded as usize]);
        }
        drop(data);
        self.buffer.unmap();
        if self.bgra {
            for px in pixels.chunks_exact_mut(4) {
                px.swap(0, 2);
            }
        }
        RgbaImage::from_raw(w, h, pixels).ok_or_else(|| ScreenshotError::Map("image size mismatch".into()))
    }
}

/// `img` encoded in the format `path`'s extension names, as `RgbaImage::save` would write
/// it (an extension it does not know is an error).
pub fn image_bytes(img: &RgbaImage, path: &std::path::Path) -> Result<Vec<u8>, ScreenshotError> {
    let write = |message: String| ScreenshotError::Write { path: path.display().to_string(), message };
    let format = image::ImageFormat::from_path(path).map_err(|e| write(e.to_string()))?;
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, format).map_err(|e| write(e.to_string()))?;
    Ok(out.into_inner())
}

/// `screenshots/contactlab-YYYYMMDD-HHMMSS.png` (UTC).
pub fn timestamped_path() -> std::path::PathBuf {
    let secs = web_time::SystemTime::now().duration_since(web_time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    std::path::PathBuf::from(format!(
        "screenshots/contactlab-{y:04}{m:02}{d:02}-{:02}{:02}{:02}.png",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    ))
}
