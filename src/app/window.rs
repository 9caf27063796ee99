//! The window: winit (`ApplicationHandler`) + wgpu surface + egui (egui-winit, egui-wgpu).
//!
//! Each frame: advance the simulation by real time (fixed steps), run the egui panel, draw
//! the scene into the renderer's offscreen texture, blit it to the surface and draw egui on
//! top. Screenshots copy the offscreen texture (optionally after drawing egui into it too).
//! Lost or outdated surfaces are reconfigured; a minimised window (zero size) skips frames.
//!
//! In the browser the same window is a canvas on the page (`start_web`): the GPU state
//! arrives asynchronously ([`super::gfx`]), pictures come back from the GPU a frame or two
//! later instead of being waited for, and each frame first takes what the page asked for
//! (`super::web`).
//!
//! The mouse on the 3D view and the keys are handled inside egui ([`super::viewport`],
//! [`super::input`]), so a press that begins on the panel never picks, and a key typed into
//! a text field never steps.

use super::egui_pass::EguiFrame;
use super::gfx::Gfx;
use super::testbed::Testbed;
use super::tools::ScreenshotRequest;
use crate::render::draw::Rect;
use crate::render::screenshot::Readback;
use std::path::PathBuf;
use web_time::Instant;
use winit::application::ApplicationHandler;
use winit::event::WindowEvent;
use winit::event_loop::{ActiveEventLoop, ControlFlow, EventLoop};
use winit::window::WindowId;

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

/// What a picture read back from the GPU is for.
enum Purpose {
    /// A screenshot to this file.
    Shot(PathBuf),
    /// A frame of the GIF being recorded.
    GifFrame,
}

struct App {
    testbed: Testbed,
    opts: WindowOptions,
    gfx: Option<Gfx>,
    /// The GPU state on its way (the browser makes it asynchronously).
    #[cfg(target_arch = "wasm32")]
    arriving: std::rc::Rc<std::cell::RefCell<Option<Result<Gfx, String>>>>,
    /// Pictures on their way back from the GPU.
    reads: Vec<(Readback, Purpose)>,
    frames: u32,
    last: Instant,
    main_rect: Rect,
    error: Option<String>,
}

impl App {
    fn new(testbed: Testbed, opts: WindowOptions) -> App {
        let mut app = App {
            testbed,
            opts,
            gfx: None,
            #[cfg(target_arch = "wasm32")]
            arriving: Default::default(),
            reads: Vec::new(),
            frames: 0,
            last: Instant::now(),
            main_rect: Rect { x: 0.0, y: 0.0, w: 1.0, h: 1.0 },
            error: None,
        };
        app.testbed.session.playing = app.opts.play;
        app.testbed.tools.plots.open |= app.opts.plots.is_some();
        app.testbed.set_hot_reload(true);
        app
    }
}

/// Starts the testbed on the page's canvas and returns; the browser runs the event loop.
#[cfg(target_arch = "wasm32")]
pub fn start_web(testbed: Testbed) -> Result<(), String> {
    use winit::platform::web::EventLoopExtWebSys;
    let event_loop = EventLoop::new().map_err(|e| format!("cannot start: {e}"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    event_loop.spawn_app(App::new(testbed, WindowOptions::default()));
    Ok(())
}

/// Opens the window and runs until it is closed.
#[cfg(not(target_arch = "wasm32"))]
pub fn run(testbed: Testbed, opts: WindowOptions) -> Result<(), String> {
    let event_loop =
        EventLoop::new().map_err(|e| format!("cannot open a window: {e} (is a display available? try xvfb-run)"))?;
    event_loop.set_control_flow(ControlFlow::Poll);
    let mut app = App::new(testbed, opts);
    event_loop.run_app(&mut app).map_err(|e| e.to_string())?;
    if let Some(path) = &app.opts.plots {
        app.testbed.export_plots(path).map_err(|e| format!("cannot write the plots: {e}"))?;
    }
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

impl App {
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
        #[cfg(target_arch = "wasm32")]
        super::web::take_requests(&mut self.testbed);
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
        let views = self.testbed.views(size, self.main_rect, &g.renderer.meshes.outlines);
        g.renderer.clear = self.testbed.view.look.clear();
        g.renderer.render(&mut encoder, &views);
        let shot = self.testbed.tools.capture.screenshot.take();
        let gif_frame = self.testbed.gif_frame_due();
        // Screenshots and GIF frames carry the labels (and the panel when asked): egui is drawn
        // into the scene texture too.
        // (Not where the scene texture has no view in egui's format, WebGL2: the capture is
        // then the 3D view without them.)
        if (shot.is_some() || gif_frame) && g.renderer.format_views() {
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
        let view = {
            let r = self.main_rect;
            (r.x as u32, r.y as u32, r.w as u32, r.h as u32)
        };
        // The 3D view with its labels (egui was drawn into the scene texture above); one GIF
        // frame on its way at a time (the clock waits for it, `Testbed::gif_steps_left`).
        if gif_frame && !self.reads.iter().any(|(_, p)| matches!(p, Purpose::GifFrame)) {
            match Readback::start(&g.device, &g.queue, g.renderer.scene_texture(), view) {
                Ok(read) => self.reads.push((read, Purpose::GifFrame)),
                Err(e) => gif_failed(&mut self.testbed, e),
            }
        }
        if let Some(req) = shot {
            let rect = if req.with_panel { (0, 0, size.0, size.1) } else { view };
            let started = match () {
                // The view alone at N× its pixels, rendered offscreen (lines and labels N× as
                // wide): that waits for the GPU, so natively only (the browser takes it at 1×).
                #[cfg(not(target_arch = "wasm32"))]
                () if self.testbed.tools.capture.scale > 1 && !req.with_panel => {
                    let scale = self.testbed.tools.capture.scale.min(4);
                    super::headless::screenshot(&mut self.testbed, (rect.2, rect.3), scale, &req.path)
                        .map(|()| self.testbed.tools.status = format!("saved {}", req.path.display()))
                }
                () => Readback::start(&g.device, &g.queue, g.renderer.scene_texture(), rect)
                    .map(|read| self.reads.push((read, Purpose::Shot(req.path))))
                    .map_err(|e| e.to_string()),
            };
            if let Err(e) = started {
                log::error!("screenshot failed: {e}");
                self.testbed.tools.status = format!("screenshot failed: {e}");
            }
        }
        // Natively the pictures are waited for; the browser picks them up when they come.
        self.take_reads(cfg!(not(target_arch = "wasm32")));
        self.testbed.poll_gif();
        let Some(g) = self.gfx.as_mut() else { return };
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

impl App {
    /// Takes the pictures back from the GPU that have come (`wait`: all of them, waiting).
    fn take_reads(&mut self, wait: bool) {
        let Some(g) = self.gfx.as_ref() else { return };
        if wait && !self.reads.is_empty() {
            let _ = g.device.poll(wgpu::PollType::wait_indefinitely());
        }
        let mut k = 0;
        while k < self.reads.len() {
            let Some(result) = self.reads[k].0.try_image(&g.device) else {
                k += 1;
                continue;
            };
            let (_, purpose) = self.reads.remove(k);
            match (purpose, result) {
                (Purpose::GifFrame, Ok(img)) => self.testbed.push_gif_frame(img),
                (Purpose::GifFrame, Err(e)) => gif_failed(&mut self.testbed, e),
                (Purpose::Shot(path), result) => {
                    let saved =
                        result.map_err(|e| e.to_string()).and_then(|img| super::output::save_image(&img, &path));
                    self.testbed.tools.status = saved.unwrap_or_else(|e| {
                        log::error!("screenshot failed: {e}");
                        format!("screenshot failed: {e}")
                    });
                }
            }
        }
    }
}

/// A GIF frame could not be captured: the recording stops and says why.
fn gif_failed(t: &mut Testbed, e: impl std::fmt::Display) {
    t.tools.capture.recorder.active = None;
    t.tools.status = format!("GIF recording stopped: {e}");
}

impl ApplicationHandler for App {
    fn resumed(&mut self, el: &ActiveEventLoop) {
        if self.gfx.is_some() {
            return;
        }
        let title = format!("contactlab — {}", self.testbed.session.scene.desc.name);
        let window = match el.create_window(super::gfx::window_attributes(&title)) {
            Ok(w) => std::sync::Arc::new(w),
            Err(e) => {
                self.error = Some(format!("cannot create the window: {e}"));
                el.exit();
                return;
            }
        };
        #[cfg(not(target_arch = "wasm32"))]
        {
            let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(Box::new(
                el.owned_display_handle(),
            )));
            match pollster::block_on(Gfx::new(window, instance)) {
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
        #[cfg(target_arch = "wasm32")]
        {
            let arriving = self.arriving.clone();
            super::page::show_canvas(&window);
            wasm_bindgen_futures::spawn_local(async move {
                let instance = super::gfx::web_instance().await;
                let gfx = Gfx::new(window.clone(), instance).await;
                *arriving.borrow_mut() = Some(gfx);
                window.request_redraw();
            });
        }
    }

    fn window_event(&mut self, el: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        #[cfg(target_arch = "wasm32")]
        if self.gfx.is_none() {
            let arrived = self.arriving.borrow_mut().take();
            match arrived {
                Some(Ok(g)) => {
                    let size = g.window.inner_size();
                    self.gfx = Some(g);
                    self.resize(size.width, size.height);
                }
                Some(Err(e)) => super::page::fail(&e),
                None => {}
            }
        }
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
