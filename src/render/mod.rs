//! The wgpu renderer. Everything is drawn into an offscreen scene texture (4× MSAA resolved
//! into it): the window blits that texture to the surface and draws egui on top, screenshots
//! copy it to a buffer — never read back from the swapchain, which may not allow copies.
//!
//! A frame is a list of views ([`draw::ViewDraw`]): the main 3D view and the Gauss-map and
//! Minkowski insets. Each view has its own viewport and camera slot in a dynamic uniform
//! buffer, and two render passes: the first draws solids (lit, `shaders/scene.wgsl`) and
//! depth-tested lines (outlines, grid); the second, without a depth attachment, draws the
//! markers (contact dots, each shown or hidden whole by the first pass's depth at its
//! centre, read in the vertex shader), translucent fills and on-top overlay lines and
//! points (`shaders/lines.wgsl`). Limits: on WebGL2 a shader cannot read the multisampled
//! depth, so there the markers are plain depth-tested points in the first pass, and a dot
//! partly covered by a nearer face shows the part in front.

pub mod characters;
pub mod draw;
pub mod graph;
pub mod insets;
pub mod joints;
pub mod key;
pub mod mesh;
pub mod mesh_debug;
pub mod screenshot;
pub mod svg;
pub mod toi;
pub mod views;

use crate::physics::World;
use crate::view::colors;
use bytemuck::{Pod, Zeroable};
use draw::*;
use mesh::{MeshCache, MeshData, Vertex};
use wgpu::util::DeviceExt;

/// MSAA sample count of the scene.
pub const SAMPLES: u32 = 4;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
const SLOT: u64 = 256;
/// How much nearer depth-tested lines are drawn (NDC depth): about 0.05 % of the eye's
/// distance, since the near plane is at 1 % of it (4.5 mm from 9 m). At 5e-5 the hidden
/// edges of a slab showed through a 4 cm slab lying on it.
const LINE_DEPTH_BIAS: f32 = 5e-6;

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct CameraUniform {
    view_proj: [[f32; 4]; 4],
    eye: [f32; 4],
    viewport: [f32; 4],
    /// The view's rectangle in the target, physical pixels (x, y, width, height).
    rect: [f32; 4],
}

struct GpuMesh {
    vertices: wgpu::Buffer,
    indices: wgpu::Buffer,
    count: u32,
}

impl GpuMesh {
    fn new(device: &wgpu::Device, m: &MeshData, label: &str) -> GpuMesh {
        GpuMesh {
            vertices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&m.vertices),
                usage: wgpu::BufferUsages::VERTEX,
            }),
            indices: device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(&m.indices),
                usage: wgpu::BufferUsages::INDEX,
            }),
            count: m.indices.len() as u32,
        }
    }
}

/// A growable GPU buffer written every frame.
struct DynBuffer {
    buffer: wgpu::Buffer,
    capacity: u64,
    usage: wgpu::BufferUsages,
    label: &'static str,
}

impl DynBuffer {
    fn new(device: &wgpu::Device, label: &'static str, usage: wgpu::BufferUsages) -> Self {
        let usage = usage | wgpu::BufferUsages::COPY_DST;
        let capacity = 4096;
        DynBuffer {
            buffer: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: capacity,
                usage,
                mapped_at_creation: false,
            }),
            capacity,
            usage,
            label,
        }
    }

    fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, data: &[u8]) {
        let need = (data.len() as u64).max(4).next_multiple_of(4);
        if need > self.capacity {
            self.capacity = need.next_power_of_two();
            self.buffer = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: self.capacity,
                usage: self.usage,
                mapped_at_creation: false,
            });
        }
        if !data.is_empty() {
            queue.write_buffer(&self.buffer, 0, data);
        }
    }
}

struct Targets {
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
    /// The depth as the markers' pipeline reads it (None where it cannot: WebGL2).
    depth_group: Option<wgpu::BindGroup>,
    scene: wgpu::Texture,
    scene_view: wgpu::TextureView,
    scene_view_unorm: wgpu::TextureView,
}

/// The scene renderer (see module docs).
pub struct Renderer {
    device: wgpu::Device,
    queue: wgpu::Queue,
    format: wgpu::TextureFormat,
    size: (u32, u32),
    /// The scene texture also has a non-sRGB view ([`Renderer::scene_view_unorm`]); WebGL2
    /// has no views in another format ([`Renderer::set_format_views`]).
    format_views: bool,
    targets: Targets,
    mesh_pipeline: wgpu::RenderPipeline,
    line_pipeline: wgpu::RenderPipeline,
    /// Markers read the first pass's depth (None on WebGL2: they are drawn as points).
    marker_pipeline: Option<wgpu::RenderPipeline>,
    overlay_pipeline: wgpu::RenderPipeline,
    /// The background of an inset, in the first pass (with its depth attachment).
    background_pipeline: wgpu::RenderPipeline,
    fill_pipeline: wgpu::RenderPipeline,
    camera_layout: wgpu::BindGroupLayout,
    depth_layout: wgpu::BindGroupLayout,
    camera_buffer: wgpu::Buffer,
    camera_group: wgpu::BindGroup,
    camera_slots: u64,
    unit_cube: GpuMesh,
    unit_sphere: GpuMesh,
    body_meshes: Vec<Option<GpuMesh>>,
    /// The meshes on the CPU (with each body's outline), from which `body_meshes` are made.
    pub meshes: MeshCache,
    /// Physical pixels per logical pixel of line widths and point sizes (1; 2 or 3 for
    /// screenshots made for slides, so lines keep their look at the higher resolution).
    pub pixel_scale: f32,
    /// Clear colour of the main view (linear RGBA; `view::Look::clear`).
    pub clear: [f32; 4],
    instances: DynBuffer,
    segments: DynBuffer,
    fills: DynBuffer,
    dyn_vertices: DynBuffer,
    dyn_indices: DynBuffer,
}

fn vertex_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 2] = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Vertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}

fn instance_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 5] =
        wgpu::vertex_attr_array![2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Instance>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &ATTRS,
    }
}

fn segment_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 3] = wgpu::vertex_attr_array![0 => Float32x4, 1 => Float32x4, 2 => Float32x4];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<Segment>() as u64,
        step_mode: wgpu::VertexStepMode::Instance,
        attributes: &ATTRS,
    }
}

fn fill_layout() -> wgpu::VertexBufferLayout<'static> {
    const ATTRS: [wgpu::VertexAttribute; 2] = wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x4];
    wgpu::VertexBufferLayout {
        array_stride: std::mem::size_of::<FillVertex>() as u64,
        step_mode: wgpu::VertexStepMode::Vertex,
        attributes: &ATTRS,
    }
}

impl Renderer {
    /// A renderer drawing into an offscreen texture of `format` and `size`.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue, format: wgpu::TextureFormat, size: (u32, u32)) -> Renderer {
        Self::with_format_views(device, queue, format, size, true)
    }

    /// [`Renderer::new`], saying whether the device can view a texture in another format
    /// ([`Renderer::set_format_views`]).
    pub fn with_format_views(
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        format: wgpu::TextureFormat,
        size: (u32, u32),
        format_views: bool,
    ) -> Renderer {
        let scene_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("scene.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/scene.wgsl").into()),
        });
        let line_shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("lines.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/lines.wgsl").into()),
        });
        let camera_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("camera layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: true,
                    min_binding_size: wgpu::BufferSize::new(std::mem::size_of::<CameraUniform>() as u64),
                },
                count: None,
            }],
        });
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("scene pipeline layout"),
            bind_group_layouts: &[Some(&camera_layout)],
            immediate_size: 0,
        });
        let depth_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("scene depth layout"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Depth,
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: true,
                },
                count: None,
            }],
        });
        let marker_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("marker pipeline layout"),
            bind_group_layouts: &[Some(&camera_layout), Some(&depth_layout)],
            immediate_size: 0,
        });
        // WebGL2 has no multisampled textures to read in a shader.
        let marker_depth = device.adapter_info().backend != wgpu::Backend::Gl;
        let blend = Some(wgpu::BlendState::ALPHA_BLENDING);
        let target = [Some(wgpu::ColorTargetState { format, blend, write_mask: wgpu::ColorWrites::ALL })];
        let ms = wgpu::MultisampleState { count: SAMPLES, mask: !0, alpha_to_coverage_enabled: false };
        let depth = |write: bool, compare: wgpu::CompareFunction| {
            Some(wgpu::DepthStencilState {
                format: DEPTH,
                depth_write_enabled: Some(write),
                depth_compare: Some(compare),
                stencil: Default::default(),
                // Solids are pushed back by their depth's slope over half a pixel, so an
                // outline on a face seen nearly edge-on is not cut by it.
                bias: if write {
                    wgpu::DepthBiasState { constant: 0, slope_scale: 0.5, clamp: 0.0 }
                } else {
                    Default::default()
                },
            })
        };
        let pipeline = |label: &str,
                        layout: &wgpu::PipelineLayout,
                        module: &wgpu::ShaderModule,
                        vs: &str,
                        fs: &str,
                        buffers: &[Option<wgpu::VertexBufferLayout>],
                        depth_stencil: Option<wgpu::DepthStencilState>| {
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(label),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module,
                    entry_point: Some(vs),
                    buffers,
                    compilation_options: Default::default(),
                },
                primitive: wgpu::PrimitiveState {
                    topology: wgpu::PrimitiveTopology::TriangleList,
                    cull_mode: None,
                    ..Default::default()
                },
                depth_stencil,
                multisample: ms,
                fragment: Some(wgpu::FragmentState {
                    module,
                    entry_point: Some(fs),
                    targets: &target,
                    compilation_options: Default::default(),
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let mesh_pipeline = pipeline(
            "mesh",
            &layout,
            &scene_shader,
            "vs_main",
            "fs_main",
            &[Some(vertex_layout()), Some(instance_layout())],
            depth(true, wgpu::CompareFunction::Less),
        );
        let line_pipeline = pipeline(
            "lines",
            &layout,
            &line_shader,
            "vs_main",
            "fs_main",
            &[Some(segment_layout())],
            depth(false, wgpu::CompareFunction::LessEqual),
        );
        let marker_pipeline = marker_depth.then(|| {
            pipeline("markers", &marker_layout, &line_shader, "vs_marker", "fs_main", &[Some(segment_layout())], None)
        });
        let overlay_pipeline =
            pipeline("overlay", &layout, &line_shader, "vs_main", "fs_main", &[Some(segment_layout())], None);
        let background_pipeline = pipeline(
            "background",
            &layout,
            &line_shader,
            "vs_fill",
            "fs_fill",
            &[Some(fill_layout())],
            depth(false, wgpu::CompareFunction::Always),
        );
        let fill_pipeline =
            pipeline("fills", &layout, &line_shader, "vs_fill", "fs_fill", &[Some(fill_layout())], None);
        let camera_slots = 16;
        let camera_buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("camera uniforms"),
            size: camera_slots * SLOT,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let camera_group = Self::camera_group(device, &camera_layout, &camera_buffer);
        let meshes = MeshCache::default();
        Renderer {
            device: device.clone(),
            queue: queue.clone(),
            format,
            size,
            pixel_scale: 1.0,
            clear: [colors::BACKGROUND[0], colors::BACKGROUND[1], colors::BACKGROUND[2], 1.0],
            targets: Self::targets(device, format, size, format_views, marker_depth.then_some(&depth_layout)),
            format_views,
            mesh_pipeline,
            line_pipeline,
            marker_pipeline,
            overlay_pipeline,
            background_pipeline,
            fill_pipeline,
            camera_layout,
            depth_layout,
            camera_buffer,
            camera_group,
            camera_slots,
            unit_cube: GpuMesh::new(device, &meshes.unit_cube, "unit cube"),
            unit_sphere: GpuMesh::new(device, &meshes.unit_sphere, "unit sphere"),
            body_meshes: Vec::new(),
            meshes,
            instances: DynBuffer::new(device, "instances", wgpu::BufferUsages::VERTEX),
            segments: DynBuffer::new(device, "segments", wgpu::BufferUsages::VERTEX),
            fills: DynBuffer::new(device, "fills", wgpu::BufferUsages::VERTEX),
            dyn_vertices: DynBuffer::new(device, "dynamic vertices", wgpu::BufferUsages::VERTEX),
            dyn_indices: DynBuffer::new(device, "dynamic indices", wgpu::BufferUsages::INDEX),
        }
    }

    fn camera_group(device: &wgpu::Device, layout: &wgpu::BindGroupLayout, buffer: &wgpu::Buffer) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("camera group"),
            layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer,
                    offset: 0,
                    size: wgpu::BufferSize::new(std::mem::size_of::<CameraUniform>() as u64),
                }),
            }],
        })
    }

    /// The render targets; `depth_layout`: the markers read the depth through it.
    fn targets(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        size: (u32, u32),
        format_views: bool,
        depth_layout: Option<&wgpu::BindGroupLayout>,
    ) -> Targets {
        let extent = wgpu::Extent3d { width: size.0.max(1), height: size.1.max(1), depth_or_array_layers: 1 };
        let unorm = format.remove_srgb_suffix();
        let tex = |label: &str,
                   samples: u32,
                   format: wgpu::TextureFormat,
                   usage: wgpu::TextureUsages,
                   views: &[wgpu::TextureFormat]| {
            device.create_texture(&wgpu::TextureDescriptor {
                label: Some(label),
                size: extent,
                mip_level_count: 1,
                sample_count: samples,
                dimension: wgpu::TextureDimension::D2,
                format,
                usage,
                view_formats: views,
            })
        };
        let unorm_views = [unorm];
        let views: &[wgpu::TextureFormat] = if format_views && unorm != format { &unorm_views } else { &[] };
        let msaa = tex("scene msaa", SAMPLES, format, wgpu::TextureUsages::RENDER_ATTACHMENT, &[]);
        let read =
            if depth_layout.is_some() { wgpu::TextureUsages::TEXTURE_BINDING } else { wgpu::TextureUsages::empty() };
        let depth = tex("scene depth", SAMPLES, DEPTH, wgpu::TextureUsages::RENDER_ATTACHMENT | read, &[]);
        let depth_view = depth.create_view(&Default::default());
        let depth_group = depth_layout.map(|layout| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("scene depth"),
                layout,
                entries: &[wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(&depth_view),
                }],
            })
        });
        let scene = tex(
            "scene",
            1,
            format,
            wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_SRC
                | wgpu::TextureUsages::TEXTURE_BINDING,
            views,
        );
        Targets {
            msaa: msaa.create_view(&Default::default()),
            depth: depth_view,
            depth_group,
            scene_view: scene.create_view(&Default::default()),
            scene_view_unorm: scene.create_view(&wgpu::TextureViewDescriptor {
                format: Some(if views.is_empty() { format } else { unorm }),
                ..Default::default()
            }),
            scene,
        }
    }

    fn new_targets(&self, size: (u32, u32), format_views: bool) -> Targets {
        let layout = self.marker_pipeline.as_ref().map(|_| &self.depth_layout);
        Self::targets(&self.device, self.format, size, format_views, layout)
    }

    /// Colour format of the scene texture.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.format
    }

    /// Size of the scene texture.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }

    /// The resolved scene texture (for blitting and screenshots).
    pub fn scene_texture(&self) -> &wgpu::Texture {
        &self.targets.scene
    }

    /// A view of the scene texture.
    pub fn scene_view(&self) -> &wgpu::TextureView {
        &self.targets.scene_view
    }

    /// A non-sRGB view of the scene texture, for drawing egui (which works in gamma space)
    /// into a screenshot (the sRGB view where the device has no such views).
    pub fn scene_view_unorm(&self) -> &wgpu::TextureView {
        &self.targets.scene_view_unorm
    }

    /// Resizes the targets (no-op for the same size; zero sizes are clamped to 1).
    pub fn resize(&mut self, size: (u32, u32)) {
        let size = (size.0.max(1), size.1.max(1));
        if size != self.size {
            self.size = size;
            self.targets = self.new_targets(size, self.format_views);
        }
    }

    /// Whether the scene texture has a view in its non-sRGB format, the one egui draws into
    /// for a capture (WebGL2 has no views in another format).
    pub fn format_views(&self) -> bool {
        self.format_views
    }

    /// Sets whether the device can view the scene texture in its non-sRGB format (without,
    /// [`Renderer::scene_view_unorm`] is the sRGB view, which egui's pipelines for the
    /// window's format cannot draw into: the window then captures without egui).
    pub fn set_format_views(&mut self, on: bool) {
        if on != self.format_views {
            self.format_views = on;
            self.targets = self.new_targets(self.size, on);
        }
    }

    /// Rebuilds the per-body meshes when the world's bodies changed (a new scene).
    pub fn sync_meshes(&mut self, world: &World) {
        if !self.meshes.sync(world) {
            return;
        }
        self.body_meshes.clear();
        for (i, m) in self.meshes.own.iter().enumerate() {
            self.body_meshes.push(m.as_ref().map(|m| GpuMesh::new(&self.device, m, &format!("body {i}"))));
        }
    }

    /// Draws `views` into the scene texture.
    pub fn render(&mut self, encoder: &mut wgpu::CommandEncoder, views: &[ViewDraw]) {
        // Upload everything first: camera slots, instances, segments, fills, dynamic meshes.
        let needed_slots = views.len() as u64 * 2;
        if needed_slots > self.camera_slots {
            self.camera_slots = needed_slots.next_power_of_two();
            self.camera_buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("camera uniforms"),
                size: self.camera_slots * SLOT,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            self.camera_group = Self::camera_group(&self.device, &self.camera_layout, &self.camera_buffer);
        }
        let mut cam_bytes = vec![0u8; (needed_slots * SLOT) as usize];
        let mut instances: Vec<Instance> = Vec::new();
        let mut segments: Vec<Segment> = Vec::new();
        let mut fills: Vec<FillVertex> = Vec::new();
        let mut dyn_vertices: Vec<Vertex> = Vec::new();
        let mut dyn_indices: Vec<u32> = Vec::new();
        struct Ranges {
            instances: u32,
            /// The viewport (x, y, width, height) inside the target.
            rect: [f32; 4],
            lines: std::ops::Range<u32>,
            markers: std::ops::Range<u32>,
            overlay: std::ops::Range<u32>,
            fills: std::ops::Range<u32>,
            background: std::ops::Range<u32>,
            dynamic: Vec<(u32, u32, i32)>, // (first index, count, base vertex)
        }
        let mut ranges = Vec::with_capacity(views.len());
        let (w, h) = (self.size.0 as f32, self.size.1 as f32);
        // The view's viewport, inside the target.
        let viewport = |r: &Rect| {
            let (x0, y0) = (r.x.clamp(0.0, w - 1.0), r.y.clamp(0.0, h - 1.0));
            [x0, y0, r.w.min(w - x0).max(1.0), r.h.min(h - y0).max(1.0)]
        };
        for (vi, v) in views.iter().enumerate() {
            let rect = viewport(&v.rect);
            let main = CameraUniform {
                view_proj: v.view_proj.to_cols_array_2d(),
                eye: [v.eye.x, v.eye.y, v.eye.z, 1.0],
                // Widths are in logical pixels: the shaders see the viewport in those.
                viewport: [v.rect.w / self.pixel_scale, v.rect.h / self.pixel_scale, 0.0, LINE_DEPTH_BIAS],
                rect,
            };
            let identity = CameraUniform {
                view_proj: glam::Mat4::IDENTITY.to_cols_array_2d(),
                eye: [0.0, 0.0, 1.0, 1.0],
                viewport: [v.rect.w / self.pixel_scale, v.rect.h / self.pixel_scale, 0.0, 0.0],
                rect,
            };
            let off = vi * 2 * SLOT as usize;
            cam_bytes[off..off + std::mem::size_of::<CameraUniform>()].copy_from_slice(bytemuck::bytes_of(&main));
            let off2 = off + SLOT as usize;
            cam_bytes[off2..off2 + std::mem::size_of::<CameraUniform>()].copy_from_slice(bytemuck::bytes_of(&identity));
            let first_instance = instances.len() as u32;
            instances.extend(v.meshes.iter().map(|m| m.instance));
            let l0 = segments.len() as u32;
            segments.extend_from_slice(&v.lines);
            // Markers in their own range, or as plain points among the lines (WebGL2).
            let m0 = if self.marker_pipeline.is_some() {
                let m0 = segments.len() as u32;
                segments.extend_from_slice(&v.markers);
                m0
            } else {
                segments.extend(v.markers.iter().map(|m| m.marker_as_point()));
                segments.len() as u32
            };
            let o0 = segments.len() as u32;
            segments.extend_from_slice(&v.overlay);
            let f0 = fills.len() as u32;
            fills.extend_from_slice(&v.fills);
            let b0 = fills.len() as u32;
            if let Some(bg) = v.background {
                for (x, y) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
                    fills.push(FillVertex { position: [x, y, 0.5], color: bg });
                }
            }
            let mut dynamic = Vec::new();
            for m in &v.dynamic_meshes {
                dynamic.push((dyn_indices.len() as u32, m.indices.len() as u32, dyn_vertices.len() as i32));
                dyn_vertices.extend_from_slice(&m.vertices);
                dyn_indices.extend_from_slice(&m.indices);
            }
            ranges.push(Ranges {
                instances: first_instance,
                rect,
                lines: l0..m0,
                markers: m0..o0,
                overlay: o0..segments.len() as u32,
                fills: f0..b0,
                background: b0..fills.len() as u32,
                dynamic,
            });
        }
        self.queue.write_buffer(&self.camera_buffer, 0, &cam_bytes);
        self.instances.write(&self.device, &self.queue, bytemuck::cast_slice(&instances));
        self.segments.write(&self.device, &self.queue, bytemuck::cast_slice(&segments));
        self.fills.write(&self.device, &self.queue, bytemuck::cast_slice(&fills));
        self.dyn_vertices.write(&self.device, &self.queue, bytemuck::cast_slice(&dyn_vertices));
        self.dyn_indices.write(&self.device, &self.queue, bytemuck::cast_slice(&dyn_indices));

        let bg = self.clear;
        for (vi, (v, r)) in views.iter().zip(&ranges).enumerate() {
            let first = vi == 0;
            let load = if first {
                wgpu::LoadOp::Clear(wgpu::Color { r: bg[0] as f64, g: bg[1] as f64, b: bg[2] as f64, a: bg[3] as f64 })
            } else {
                wgpu::LoadOp::Load
            };
            let colour = |load| {
                [Some(wgpu::RenderPassColorAttachment {
                    view: &self.targets.msaa,
                    depth_slice: None,
                    resolve_target: Some(&self.targets.scene_view),
                    ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
                })]
            };
            let [x0, y0, rw, rh] = r.rect;
            let place = |pass: &mut wgpu::RenderPass| {
                pass.set_viewport(x0, y0, rw, rh, 0.0, 1.0);
                pass.set_scissor_rect(x0 as u32, y0 as u32, rw as u32, rh as u32);
            };
            let main_off = (vi as u64 * 2 * SLOT) as u32;
            let id_off = main_off + SLOT as u32;
            // The markers read the depth after this pass.
            let markers = self.marker_pipeline.as_ref().zip(self.targets.depth_group.as_ref());
            let keep_depth = markers.is_some() && !r.markers.is_empty();
            let attachments = colour(load);
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(if first { "main view" } else { "inset view" }),
                color_attachments: &attachments,
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.targets.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(1.0),
                        store: if keep_depth { wgpu::StoreOp::Store } else { wgpu::StoreOp::Discard },
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            place(&mut pass);
            if !r.background.is_empty() {
                pass.set_pipeline(&self.background_pipeline);
                pass.set_bind_group(0, &self.camera_group, &[id_off]);
                pass.set_vertex_buffer(0, self.fills.buffer.slice(..));
                pass.draw(r.background.clone(), 0..1);
            }
            pass.set_bind_group(0, &self.camera_group, &[main_off]);
            if !v.meshes.is_empty() {
                pass.set_pipeline(&self.mesh_pipeline);
                pass.set_vertex_buffer(1, self.instances.buffer.slice(..));
                for (k, m) in v.meshes.iter().enumerate() {
                    let inst = r.instances + k as u32;
                    let (vb, ib, first_index, count, base) = match m.mesh {
                        MeshRef::UnitCube => {
                            (&self.unit_cube.vertices, &self.unit_cube.indices, 0, self.unit_cube.count, 0)
                        }
                        MeshRef::UnitSphere => {
                            (&self.unit_sphere.vertices, &self.unit_sphere.indices, 0, self.unit_sphere.count, 0)
                        }
                        MeshRef::Body(i) => match self.body_meshes.get(i).and_then(|m| m.as_ref()) {
                            Some(g) => (&g.vertices, &g.indices, 0, g.count, 0),
                            None => continue,
                        },
                        MeshRef::Dynamic(d) => {
                            let (fi, c, bv) = r.dynamic[d];
                            (&self.dyn_vertices.buffer, &self.dyn_indices.buffer, fi, c, bv)
                        }
                    };
                    pass.set_vertex_buffer(0, vb.slice(..));
                    pass.set_index_buffer(ib.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(first_index..first_index + count, base, inst..inst + 1);
                }
            }
            if !r.lines.is_empty() {
                pass.set_pipeline(&self.line_pipeline);
                pass.set_vertex_buffer(0, self.segments.buffer.slice(..));
                pass.draw(0..6, r.lines.clone());
            }
            drop(pass);
            if !keep_depth && r.fills.is_empty() && r.overlay.is_empty() {
                continue;
            }
            // The second pass: no depth attachment, so the markers can read the depth.
            let attachments = colour(wgpu::LoadOp::Load);
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some(if first { "main view, on top" } else { "inset view, on top" }),
                color_attachments: &attachments,
                depth_stencil_attachment: None,
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            place(&mut pass);
            pass.set_bind_group(0, &self.camera_group, &[main_off]);
            if let (true, Some((pipeline, depth))) = (keep_depth, markers) {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(1, depth, &[]);
                pass.set_vertex_buffer(0, self.segments.buffer.slice(..));
                pass.draw(0..6, r.markers.clone());
            }
            if !r.fills.is_empty() {
                pass.set_pipeline(&self.fill_pipeline);
                pass.set_vertex_buffer(0, self.fills.buffer.slice(..));
                pass.draw(r.fills.clone(), 0..1);
            }
            if !r.overlay.is_empty() {
                pass.set_pipeline(&self.overlay_pipeline);
                pass.set_vertex_buffer(0, self.segments.buffer.slice(..));
                pass.draw(0..6, r.overlay.clone());
            }
        }
    }
}
