//! Rendering without a window: a wgpu device with no surface draws the same views into the
//! renderer's offscreen texture, which is read back as an image (for `--screenshot` and the
//! render tests).

use super::egui_pass::EguiFrame;
use super::record::{gif_bytes, gif_delay_ms};
use super::testbed::Testbed;
use crate::render::draw::Rect;
use crate::render::screenshot::read_texture;
use crate::render::Renderer;
use image::RgbaImage;

/// A GPU device and a renderer without a window.
pub struct Offscreen {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: Renderer,
    egui_ctx: egui::Context,
    egui_renderer: egui_wgpu::Renderer,
    /// Name of the adapter in use (e.g. "llvmpipe" for Mesa's software Vulkan).
    pub adapter_name: String,
}

impl Offscreen {
    /// Opens any adapter (software ones included) and a renderer of `size`.
    pub fn new(size: (u32, u32)) -> Result<Offscreen, String> {
        // Vulkan first (lavapipe on machines without a GPU); any backend as a fallback.
        let request = |backends: wgpu::Backends| {
            let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
            desc.backends = backends;
            let instance = wgpu::Instance::new(desc);
            pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::default(),
                compatible_surface: None,
                force_fallback_adapter: false,
                apply_limit_buckets: false,
            }))
        };
        let adapter = request(wgpu::Backends::VULKAN)
            .or_else(|_| request(wgpu::Backends::all()))
        .map_err(|e| {
            format!(
                "no graphics adapter found ({e}); install a Vulkan driver, e.g. `apt-get install mesa-vulkan-drivers` for the software one"
            )
        })?;
        let adapter_name = adapter.get_info().name;
        // egui draws over the scene through a non-sRGB view of its sRGB texture; an adapter
        // without views in another format (OpenGL ES through the fallback) would fail there.
        if !adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS) {
            return Err(format!(
                "the graphics adapter \"{adapter_name}\" ({:?}) cannot view a texture in another format, which pictures need; install a Vulkan driver, e.g. `apt-get install mesa-vulkan-drivers` for the software one",
                adapter.get_info().backend
            ));
        }
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("contactlab offscreen"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| format!("could not open the graphics device: {e}"))?;
        let renderer = Renderer::new(&device, &queue, wgpu::TextureFormat::Rgba8UnormSrgb, size);
        let egui_ctx = egui::Context::default();
        egui_ctx.set_visuals(egui::Visuals::light());
        let egui_renderer =
            egui_wgpu::Renderer::new(&device, wgpu::TextureFormat::Rgba8Unorm, egui_wgpu::RendererOptions::default());
        Ok(Offscreen { device, queue, renderer, egui_ctx, egui_renderer, adapter_name })
    }

    /// Renders the testbed's current view and reads it back.
    pub fn render(&mut self, testbed: &mut Testbed, size: (u32, u32)) -> Result<RgbaImage, String> {
        self.render_scaled(testbed, size, 1)
    }

    /// [`Self::render`] at `scale` times the pixel size, the same picture: lines, points
    /// and labels are `scale` times as wide (screenshots for slides).
    pub fn render_scaled(&mut self, testbed: &mut Testbed, size: (u32, u32), scale: u32) -> Result<RgbaImage, String> {
        let size = (size.0 * scale, size.1 * scale);
        self.renderer.pixel_scale = scale as f32;
        testbed.view.ppp = scale as f32;
        self.renderer.resize(size);
        self.renderer.sync_meshes(testbed.world());
        let rect = Rect { x: 0.0, y: 0.0, w: size.0 as f32, h: size.1 as f32 };
        // Labels (scene, step, inset titles and legends), laid out first: a comparison's tiles
        // draw their pictures below the text's measured height. egui draws them into the
        // same texture after the views.
        let points = egui::vec2(size.0 as f32, size.1 as f32) / scale as f32;
        let mut raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, points)),
            ..Default::default()
        };
        raw.viewports.entry(egui::ViewportId::ROOT).or_default().native_pixels_per_point = Some(scale as f32);
        let full = self.egui_ctx.run_ui(raw, |ui| {
            super::labels::paint(ui, testbed, rect);
        });
        let views = testbed.views(size, rect, &self.renderer.meshes.outlines);
        let mut encoder =
            self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen frame") });
        self.renderer.clear = testbed.view.look.clear();
        self.renderer.render(&mut encoder, &views);
        let (frame, extra) = EguiFrame::prepare(
            &self.device,
            &self.queue,
            &mut self.egui_renderer,
            &mut encoder,
            &self.egui_ctx,
            full,
            size,
        );
        frame.draw_into(&mut encoder, &self.egui_renderer, self.renderer.scene_view_unorm());
        self.queue.submit(extra.into_iter().chain(Some(encoder.finish())));
        frame.finish(&mut self.egui_renderer);
        read_texture(&self.device, &self.queue, self.renderer.scene_texture(), (0, 0, size.0, size.1))
            .map_err(|e| e.to_string())
    }
}

/// Every clip stage of the selected pair, captioned, one image each (`size` × `scale`).
pub fn clip_stages(testbed: &mut Testbed, size: (u32, u32), scale: u32) -> Result<Vec<RgbaImage>, String> {
    // The device is opened at the first stage (none when the pair has no clip stages).
    let mut off: Option<Offscreen> = None;
    testbed.each_clip_stage(|t| {
        let o = match &mut off {
            Some(o) => o,
            None => off.insert(Offscreen::new(size)?),
        };
        o.render_scaled(t, size, scale)
    })
}

/// `images` side by side, left to right, in one image (a strip for a slide).
pub fn strip(images: &[RgbaImage]) -> RgbaImage {
    let w: u32 = images.iter().map(|i| i.width()).sum();
    let h = images.iter().map(|i| i.height()).max().unwrap_or(0);
    let mut out = RgbaImage::new(w, h);
    let mut x = 0;
    for img in images {
        image::imageops::replace(&mut out, img, x as i64, 0);
        x += img.width();
    }
    out
}

/// Renders one frame of `testbed` to an image file, `scale` times `size` in pixels; a path
/// ending in `.svg` gets the vector picture of `size` instead ([`super::vector`], no GPU).
pub fn screenshot(testbed: &mut Testbed, size: (u32, u32), scale: u32, path: &std::path::Path) -> Result<(), String> {
    if super::vector::is_svg(path) {
        return super::vector::save_svg(testbed, size, path);
    }
    let mut off = Offscreen::new(size)?;
    let img = off.render_scaled(testbed, size, scale)?;
    super::output::save_image(&img, path).map(|_| ())
}

/// What [`sequence`] did.
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    /// The files written.
    pub files: Vec<std::path::PathBuf>,
    /// Steps run between the frames.
    pub steps: u64,
    /// The world's own time for them (ms).
    pub step_ms: f64,
}

/// Captures `frames` frames of `testbed`, `every` steps apart (the first at the current
/// state), into `path`: an animated GIF when it ends in `.gif` (each frame shown for the
/// simulated time between frames, to the centisecond, at least 20 ms), else PNG files named with the frame
/// number before the extension (`out.png` → `out_0000.png`, `out_0001.png`, …; `.svg`:
/// vector pictures, [`super::vector`]). Returns
/// the files written and the steps taken between the frames.
pub fn sequence(
    testbed: &mut Testbed,
    size: (u32, u32),
    scale: u32,
    frames: u32,
    every: u32,
    path: &std::path::Path,
) -> Result<Sequence, String> {
    let svg = super::vector::is_svg(path);
    let mut off = if svg { None } else { Some(Offscreen::new(size)?) };
    let gif = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("gif"));
    let delay_ms = gif_delay_ms(testbed.timestep(), every);
    let mut images = Vec::new();
    let mut written = Vec::new();
    let (mut steps, mut step_ms) = (0, 0.0);
    for k in 0..frames {
        if k > 0 {
            for _ in 0..every {
                testbed.step_once();
                steps += 1;
                step_ms += testbed.world().profile.total_ms as f64;
            }
        }
        let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let ext = path.extension().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "png".into());
        let file = path.with_file_name(format!("{stem}_{k:04}.{ext}"));
        let Some(off) = off.as_mut() else {
            super::vector::save_svg(testbed, size, &file)?;
            written.push(file);
            continue;
        };
        let img = off.render_scaled(testbed, size, scale)?;
        if gif {
            images.push(img);
        } else {
            super::output::save_image(&img, &file)?;
            written.push(file);
        }
    }
    if gif {
        super::output::save(path, &gif_bytes(images, delay_ms)?)?;
        written.push(path.to_path_buf());
    }
    Ok(Sequence { files: written, steps, step_ms })
}
