//! The window: winit (`ApplicationHandler`) + wgpu surface + egui (egui-winit, egui-wgpu).
//!
//! Each frame: advance the simulation by real time (fixed steps), run the egui panel, draw
//! the scene into the renderer's offscreen texture, blit it to the surface and draw egui on
//! top. Screenshots copy the offscreen texture (optionally after drawing egui into it too).
//! Lost or outdated surfaces are reconfigured; a minimised window (zero size) skips frames.
//!
//! The mouse on the 3D view and the keys are handled inside egui ([`super::viewport`],
//! [`super::input`]), so a press that begins on the panel never picks, and a key typed into
//! a text field never steps.

use super::egui_pass::EguiFrame;
use super::testbed::Testbed;
use super::tools::ScreenshotRequest;
use crate::render::draw::Rect;
use crate::render::screenshot::{read_texture, save_png};
use crate::render::views::build_views;
use crate::render::Renderer;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::{Window, WindowId};

/// Options for automated runs.
#[derive(Clone, Debug, Default)]
pub struct WindowOptions {
    /// Quit after this many frames (smoke tests).
    pub quit_after: Option<u32>,
    /// Screenshot written after `quit_after` frames (or the 10th frame).
    pub screenshot: Option<PathBuf>,
    /// Start playing.
    pub play: bool,
    /// Open the plots window, and write its series here as CSV when the window closes.
    pub plots: Option<PathBuf>,
}

struct Blit {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    group: Option<wgpu::BindGroup>,
}

struct Gfx {
    window: Arc<Window>,
    surface: wgpu::Surface<'static>,
    device: wgpu::Device,
    queue: wgpu::Queue,
    config: wgpu::SurfaceConfiguration,
    renderer: Renderer,
    blit: Blit,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
}

struct App {
    testbed: Testbed,
    opts: WindowOptions,
    gfx: Option<Gfx>,
    frames: u32,
    last: Instant,
    main_rect: Rect,
    error: Option<String>,
}

/// Opens the window and runs until it is closed.
pub fn run(testbed: Testbed, opts: WindowOptions) -> Result<(), String> {
    let event_loop =
        EventLoop::new().map_err(|e| format!("cannot open a window: {e} (is a display available? try xvfb-run)"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App {
        testbed,
        opts,
        gfx: None,
        frames: 0,
        last: Instant::now(),
        main_rect: Rect { x: 0.0, y: 0.0, w: 1.0, h: 1.0 },
        error: None,
    };
    app.testbed.session.playing = app.opts.play;
    app.testbed.tools.plots.open |= app.opts.plots.is_some();
    app.testbed.set_hot_reload(true);
    event_loop.run_app(&mut app).map_err(|e| e.to_string())?;
    if let Some(path) = &app.opts.plots {
        app.testbed.export_plots(path).map_err(|e| format!("cannot write plots {}: {e}", path.display()))?;
    }
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl App {
    fn init(&mut self, el: &ActiveEventLoop) -> Result<Gfx, String> {
        let attrs = Window::default_attributes()
            .with_title(format!("contactlab — {}", self.testbed.session.scene.desc.name))
            .with_inner_size(winit::dpi::LogicalSize::new(1600.0, 900.0));
        let window = Arc::new(el.create_window(attrs).map_err(|e| format!("cannot create the window: {e}"))?);
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
            el.owned_display_handle(),
        )));
        let surface =
            instance.create_surface(window.clone()).map_err(|e| format!("cannot create a drawing surface: {e}"))?;
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            compatible_surface: Some(&surface),
            force_fallback_adapter: false,
            apply_limit_buckets: false,
        }))
        .map_err(|e| {
            format!(
                "no graphics adapter for this window ({e}); install a Vulkan or GL driver (e.g. mesa-vulkan-drivers)"
            )
        })?;
        log::info!("adapter: {:?}", adapter.get_info());
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("contactlab"),
            required_limits: wgpu::Limits::downlevel_defaults().using_resolution(adapter.limits()),
            ..Default::default()
        }))
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
        let renderer = Renderer::new(&device, &queue, scene_format, (config.width, config.height));
        let blit = Self::make_blit(&device, format);
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
        let sampler =
            device.create_sampler(&wgpu::SamplerDescriptor { label: Some("blit sampler"), ..Default::default() });
        Blit { pipeline, layout, sampler, group: None }
    }

    fn resize(&mut self, w: u32, h: u32) {
        let Some(g) = self.gfx.as_mut() else { return };
        if w == 0 || h == 0 {
            return; // minimised: keep the old configuration, skip frames
        }
        g.config.width = w;
        g.config.height = h;
        g.surface.configure(&g.device, &g.config);
        g.renderer.resize((w, h));
        g.blit.group = None;
    }

    fn frame(&mut self, el: &ActiveEventLoop) {
        let now = Instant::now();
        let dt = (now - self.last).as_secs_f32();
        self.last = now;
        self.testbed.view.frame_ms = dt * 1000.0;
        self.testbed.advance(dt);
        // `--screenshot` in the window: the whole window, or the view alone at `--scale N`.
        let capture = &mut self.testbed.tools.capture;
        let with_panel = capture.scale <= 1;
        if let (Some(n), Some(path)) = (self.opts.quit_after, self.opts.screenshot.clone()) {
            if self.frames + 1 == n {
                capture.screenshot = Some(ScreenshotRequest { path, with_panel });
            }
        } else if let (None, Some(path)) = (self.opts.quit_after, self.opts.screenshot.take()) {
            capture.screenshot = Some(ScreenshotRequest { path, with_panel });
        }
        let Some(g) = self.gfx.as_mut() else { return };
        if g.config.width == 0 || g.config.height == 0 {
            return;
        }
        // egui: the panel on the left; the rest of the window is the 3D view.
        let raw = g.egui_state.take_egui_input(&g.window);
        let ctx = g.egui_state.egui_ctx().clone();
        let dark = self.testbed.view.look.theme == crate::view::Theme::Dark;
        if ctx.global_style().visuals.dark_mode != dark {
            ctx.set_visuals(if dark { egui::Visuals::dark() } else { egui::Visuals::light() });
        }
        let testbed = &mut self.testbed;
        let mut main = self.main_rect;
        let mut full = ctx.run_ui(raw, |ui| {
            main = super::viewport::frame(ui, testbed);
            super::labels::paint(ui, testbed, main);
        });
        g.egui_state.handle_platform_output(&g.window, std::mem::take(&mut full.platform_output));
        self.main_rect = main;
        // egui's textures are uploaded now, even when the surface skips this frame.
        let size = (g.config.width, g.config.height);
        let mut encoder = g.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        let (egui_frame, user_buffers) =
            EguiFrame::prepare(&g.device, &g.queue, &mut g.egui_renderer, &mut encoder, &ctx, full, size);
        let surface_tex = match g.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Timeout | wgpu::CurrentSurfaceTexture::Occluded => return,
            wgpu::CurrentSurfaceTexture::Outdated | wgpu::CurrentSurfaceTexture::Lost => {
                g.surface.configure(&g.device, &g.config);
                return;
            }
            wgpu::CurrentSurfaceTexture::Validation => {
                self.error = Some("the graphics driver rejected the surface".into());
                el.exit();
                return;
            }
        };
        g.renderer.sync_meshes(self.testbed.world());
        let views = {
            let inputs = self.testbed.frame_inputs(size, self.main_rect, &g.renderer.outlines);
            inputs.iter().flat_map(build_views).collect::<Vec<_>>()
        };
        g.renderer.clear = self.testbed.view.look.clear();
        g.renderer.render(&mut encoder, &views);
        let shot = self.testbed.tools.capture.screenshot.take();
        let gif_frame = self.testbed.gif_frame_due();
        // Screenshots and GIF frames carry the labels (and the panel when asked): egui is drawn
        // into the scene texture too.
        if shot.is_some() || gif_frame {
            egui_frame.draw_into(&mut encoder, &g.egui_renderer, g.renderer.scene_view_unorm());
        }
        let target = surface_tex.texture.create_view(&Default::default());
        if g.blit.group.is_none() {
            g.blit.group = Some(g.device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("blit group"),
                layout: &g.blit.layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(g.renderer.scene_view()),
                    },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&g.blit.sampler) },
                ],
            }));
        }
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("blit and egui"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &target,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color::BLACK),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                ..Default::default()
            });
            pass.set_pipeline(&g.blit.pipeline);
            pass.set_bind_group(0, g.blit.group.as_ref(), &[]);
            pass.draw(0..3, 0..1);
            g.egui_renderer.render(&mut pass.forget_lifetime(), &egui_frame.jobs, &egui_frame.screen);
        }
        g.queue.submit(user_buffers.into_iter().chain(Some(encoder.finish())));
        if gif_frame {
            // The 3D view with its labels (egui was drawn into the scene texture above).
            let r = self.main_rect;
            match read_texture(
                &g.device,
                &g.queue,
                g.renderer.scene_texture(),
                (r.x as u32, r.y as u32, r.w as u32, r.h as u32),
            ) {
                Ok(img) => self.testbed.push_gif_frame(img),
                Err(e) => {
                    self.testbed.tools.capture.recorder.active = None;
                    self.testbed.tools.status = format!("GIF recording stopped: {e}");
                }
            }
        }
        self.testbed.poll_gif();
        if let Some(req) = shot {
            let r = self.main_rect;
            let scale = self.testbed.tools.capture.scale.clamp(1, 4);
            let rect =
                if req.with_panel { (0, 0, size.0, size.1) } else { (r.x as u32, r.y as u32, r.w as u32, r.h as u32) };
            let result = if scale > 1 && !req.with_panel {
                // The view alone at N× its pixels, rendered offscreen (lines and labels N× as wide).
                super::headless::screenshot(&mut self.testbed, (rect.2, rect.3), scale, &req.path)
            } else {
                read_texture(&g.device, &g.queue, g.renderer.scene_texture(), rect)
                    .and_then(|img| save_png(&img, &req.path))
                    .map_err(|e| e.to_string())
            };
            self.testbed.tools.status = match result {
                Ok(()) => format!("saved {}", req.path.display()),
                Err(e) => {
                    log::error!("screenshot failed: {e}");
                    format!("screenshot failed: {e}")
                }
            };
        }
        g.window.pre_present_notify();
        g.queue.present(surface_tex);
        egui_frame.finish(&mut g.egui_renderer);
        self.frames += 1;
        if self.opts.quit_after.is_some_and(|n| self.frames >= n) {
            if self.testbed.tools.status.starts_with("screenshot failed") {
                self.error = Some(self.testbed.tools.status.clone());
            }
            el.exit();
        }
    }
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        match self.init(el) {
            Ok(g) => {
                g.window.request_redraw();
                self.gfx = Some(g);
            }
            Err(e) => {
                self.error = Some(e);
                el.exit();
            }
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        match self.gfx.as_mut() {
            // egui takes every event; the keys are dispatched from its input ([`super::input`]).
            Some(g) => {
                let _ = g.egui_state.on_window_event(&g.window, &event);
            }
            None => return,
        }
        match event {
            WindowEvent::CloseRequested => el.exit(),
            WindowEvent::Resized(s) => self.resize(s.width, s.height),
            WindowEvent::RedrawRequested => self.frame(el),
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _el: &ActiveEventLoop) {
        if let Some(g) = &self.gfx {
            g.window.request_redraw();
        }
    }
}
