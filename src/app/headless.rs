//! Rendering without a window: a wgpu device with no surface draws the same views into the
//! renderer's offscreen texture, which is read back as an image (for `--screenshot` and the
//! render tests).

use super::testbed::Testbed;
use crate::render::draw::Rect;
use crate::render::screenshot::{read_texture, save_png};
use crate::render::views::build_views;
use crate::render::Renderer;
use image::RgbaImage;

/// A GPU device and a renderer without a window.
pub struct Offscreen {
    device: wgpu::Device,
    queue: wgpu::Queue,
    renderer: Renderer,
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
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("contactlab offscreen"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
        .map_err(|e| format!("could not open the graphics device: {e}"))?;
        let renderer = Renderer::new(&device, &queue, wgpu::TextureFormat::Rgba8UnormSrgb, size);
        Ok(Offscreen { device, queue, renderer, adapter_name })
    }

    /// Renders the testbed's current view and reads it back.
    pub fn render(&mut self, testbed: &mut Testbed, size: (u32, u32)) -> Result<RgbaImage, String> {
        self.renderer.resize(size);
        self.renderer.sync_meshes(testbed.world());
        let rect = Rect { x: 0.0, y: 0.0, w: size.0 as f32, h: size.1 as f32 };
        let views = {
            let input = testbed.frame_input(size, rect, &self.renderer.outlines);
            build_views(&input)
        };
        let mut encoder =
            self.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("offscreen frame") });
        self.renderer.render(&mut encoder, &views);
        self.queue.submit(Some(encoder.finish()));
        read_texture(&self.device, &self.queue, self.renderer.scene_texture(), (0, 0, size.0, size.1))
            .map_err(|e| e.to_string())
    }
}

/// Renders one frame of `testbed` to a PNG file.
pub fn screenshot(testbed: &mut Testbed, size: (u32, u32), path: &std::path::Path) -> Result<(), String> {
    let mut off = Offscreen::new(size)?;
    let img = off.render(testbed, size)?;
    save_png(&img, path).map_err(|e| e.to_string())
}
