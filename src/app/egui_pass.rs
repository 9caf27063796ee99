//! egui's shapes drawn with wgpu, for the window and for headless pictures alike: the
//! frame's textures and buffers uploaded ([`EguiFrame::prepare`]), then drawn over what a
//! texture already holds ([`EguiFrame::draw_into`]; the labels over the 3D view, and the
//! panel too in a screenshot "with panel"), then the textures egui let go of freed
//! ([`EguiFrame::finish`]).

/// One frame of egui output, ready to draw.
pub struct EguiFrame {
    /// The tessellated shapes.
    pub jobs: Vec<egui::ClippedPrimitive>,
    /// Target size and scale.
    pub screen: egui_wgpu::ScreenDescriptor,
    to_free: Vec<egui::TextureId>,
}

impl EguiFrame {
    /// Tessellates `full` (run on `ctx`) for a target of `size` pixels, uploads its
    /// textures and buffers, and returns the command buffers to submit before `encoder`'s.
    pub fn prepare(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        renderer: &mut egui_wgpu::Renderer,
        encoder: &mut wgpu::CommandEncoder,
        ctx: &egui::Context,
        full: egui::FullOutput,
        size: (u32, u32),
    ) -> (EguiFrame, Vec<wgpu::CommandBuffer>) {
        let ppp = full.pixels_per_point;
        let jobs = ctx.tessellate(full.shapes, ppp);
        let mut textures = full.textures_delta;
        for (id, deltas) in textures.set.drain() {
            for delta in &deltas {
                renderer.update_texture(device, queue, id, delta);
            }
        }
        let to_free: Vec<egui::TextureId> = textures.free.drain().collect();
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: [size.0, size.1], pixels_per_point: ppp };
        let extra = renderer.update_buffers(device, queue, encoder, &jobs, &screen);
        (EguiFrame { jobs, screen, to_free }, extra)
    }

    /// Draws the frame over what `view` holds (loaded, not cleared).
    pub fn draw_into(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        renderer: &egui_wgpu::Renderer,
        view: &wgpu::TextureView,
    ) {
        let pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("egui into texture"),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: wgpu::Operations { load: wgpu::LoadOp::Load, store: wgpu::StoreOp::Store },
            })],
            ..Default::default()
        });
        renderer.render(&mut pass.forget_lifetime(), &self.jobs, &self.screen);
    }

    /// Frees the textures egui no longer needs (after the frame was submitted).
    pub fn finish(self, renderer: &mut egui_wgpu::Renderer) {
        for id in &self.to_free {
            renderer.free_texture(id);
        }
    }
}
