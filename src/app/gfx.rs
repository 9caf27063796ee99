//! The window's GPU state: the winit window, its wgpu surface and device, the scene
//! renderer, the blit that puts the scene on the surface, and egui's state and renderer.
//!
//! Making it waits on the GPU (adapter, device): natively the window blocks on that
//! (`pollster`); in the browser nothing may block, so `Gfx::new` is `async` and the window
//! goes on without it until it is ready ([`super::window`]). The browser's instance prefers
//! WebGPU and falls back to WebGL2 (`web_instance`) and asks for WebGL2's limits, raised
//! to what the adapter has.

use crate::render::Renderer;
use std::sync::Arc;
use winit::window::Window;

/// The blit of the scene texture onto the surface.
pub(super) struct Blit {
    pub(super) pipeline: wgpu::RenderPipeline,
    pub(super) layout: wgpu::BindGroupLayout,
    pub(super) sampler: wgpu::Sampler,
    pub(super) group: Option<wgpu::BindGroup>,
}

/// Everything the window draws with.
pub(super) struct Gfx {
    pub(super) window: Arc<Window>,
    pub(super) surface: wgpu::Surface<'static>,
    pub(super) device: wgpu::Device,
    pub(super) queue: wgpu::Queue,
    pub(super) config: wgpu::SurfaceConfiguration,
    pub(super) renderer: Renderer,
    pub(super) blit: Blit,
    pub(super) egui_state: egui_winit::State,
    pub(super) egui_renderer: egui_wgpu::Renderer,
}

/// The window's attributes: 1600×900 natively; in the browser a canvas added to the page,
/// sized by the page's style, that takes the keyboard.
pub(super) fn window_attributes(title: &str) -> winit::window::WindowAttributes {
    let attrs = Window::default_attributes().with_title(title);
    #[cfg(target_arch = "wasm32")]
    {
        use winit::platform::web::WindowAttributesExtWebSys;
        attrs.with_append(true).with_focusable(true).with_prevent_default(true)
    }
    #[cfg(not(target_arch = "wasm32"))]
    attrs.with_inner_size(winit::dpi::LogicalSize::new(1600.0, 900.0))
}

/// The browser's wgpu instance: WebGPU where the browser has a working adapter, else WebGL2.
#[cfg(target_arch = "wasm32")]
pub(super) async fn web_instance() -> wgpu::Instance {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    desc.backends = wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL;
    wgpu::util::new_instance_with_webgpu_detection(desc).await
}

/// What to do when there is no graphics adapter.
#[cfg(not(target_arch = "wasm32"))]
const ADAPTER_HINT: &str = "install a Vulkan or GL driver (e.g. mesa-vulkan-drivers)";
#[cfg(target_arch = "wasm32")]
const ADAPTER_HINT: &str = "this browser offers neither WebGPU nor WebGL2 (is hardware acceleration off?)";

/// The limits asked for before raising them to the adapter's resolution: the downlevel
/// ones natively, WebGL2's in the browser.
fn base_limits() -> wgpu::Limits {
    #[cfg(target_arch = "wasm32")]
    return wgpu::Limits::downlevel_webgl2_defaults();
    #[cfg(not(target_arch = "wasm32"))]
    wgpu::Limits::downlevel_defaults()
}

impl Gfx {
    /// Opens the surface, adapter and device for `window` and builds the renderers.
    pub(super) async fn new(window: Arc<Window>, instance: wgpu::Instance) -> Result<Gfx, String> {
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot create a drawing surface: {e}"))?;
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                compatible_surface: Some(&surface),
                force_fallback_adapter: false,
                apply_limit_buckets: false,
            })
            .await
            .map_err(|e| format!("no graphics adapter for this window ({e}); {ADAPTER_HINT}"))?;
        let info = adapter.get_info();
        log::info!("adapter: {info:?}");
        #[cfg(target_arch = "wasm32")]
        super::web::set_backend(&info.backend.to_string());
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("contactlab"),
                required_limits: base_limits().using_resolution(adapter.limits()),
                ..Default::default()
            })
            .await
            .map_err(|e| format!("could not open the graphics device: {e}"))?;
        let caps = surface.get_capabilities(&adapter);
        // egui draws in gamma space, so the surface should be a non-sRGB format; the scene is
        // rendered into an sRGB texture and the blit encodes it (fs_encode).
        let format =
            caps.formats.iter().copied().find(|f| !f.is_srgb() && f.add_srgb_suffix() != *f).unwrap_or(caps.formats[0]);
        let scene_format = format.add_srgb_suffix();
        let size = window.inner_size();
        let config = wgpu::SurfaceConfiguration {
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            format,
            width: size.width.max(1),
            height: size.height.max(1),
            present_mode: wgpu::PresentMode::AutoVsync,
            desired_maximum_frame_latency: 2,
            alpha_mode: caps.alpha_modes[0],
            color_space: wgpu::SurfaceColorSpace::Auto,
            view_formats: vec![],
        };
        surface.configure(&device, &config);
        let views = adapter.get_downlevel_capabilities().flags.contains(wgpu::DownlevelFlags::VIEW_FORMATS);
        let renderer = Renderer::with_format_views(&device, &queue, scene_format, (config.width, config.height), views);
        let blit = make_blit(&device, format);
        let ctx = egui::Context::default();
        ctx.set_visuals(egui::Visuals::light());
        let egui_state = egui_winit::State::new(
            ctx,
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            None,
        );
        let egui_renderer = egui_wgpu::Renderer::new(&device, format, egui_wgpu::RendererOptions::default());
        Ok(Gfx { window, surface, device, queue, config, renderer, blit, egui_state, egui_renderer })
    }
}

/// The blit's pipeline: the scene texture onto the surface, sRGB-encoded when the surface
/// format is not sRGB (egui draws in gamma space).
fn make_blit(device: &wgpu::Device, format: wgpu::TextureFormat) -> Blit {
    let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("blit.wgsl"),
        source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/blit.wgsl").into()),
    });
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("blit layout"),
        entries: &[
            wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: true },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            },
            wgpu::BindGroupLayoutEntry {
                binding: 1,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                count: None,
            },
        ],
    });
    let pl = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some("blit pipeline layout"),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some("blit"),
        layout: Some(&pl),
        vertex: wgpu::VertexState {
            module: &shader,
            entry_point: Some("vs_main"),
            buffers: &[],
            compilation_options: Default::default(),
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module: &shader,
            entry_point: Some(if format.is_srgb() { "fs_main" } else { "fs_encode" }),
            targets: &[Some(format.into())],
            compilation_options: Default::default(),
        }),
        multiview_mask: None,
        cache: None,
    });
    let sampler = device.create_sampler(&wgpu::SamplerDescriptor { label: Some("blit sampler"), ..Default::default() });
    Blit { pipeline, layout, sampler, group: None }
}
