//! Draw lists: what one view (the main 3D view or an inset) draws, as plain data the GPU
//! side uploads. Built by [`super::views`].

use super::mesh::MeshData;
use bytemuck::{Pod, Zeroable};
use glam::{Mat4, Vec3};

/// A line segment or round point for the line pipeline.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct Segment {
    /// Start (xyz) and width in pixels (w).
    pub a: [f32; 4],
    /// End (xyz) and round flag (w = 1: a disc of diameter `width` at `a`).
    pub b: [f32; 4],
    /// Linear RGBA.
    pub color: [f32; 4],
}

impl Segment {
    /// A line from `a` to `b`.
    pub fn line(a: Vec3, b: Vec3, color: [f32; 3], width: f32) -> Segment {
        Segment { a: [a.x, a.y, a.z, width], b: [b.x, b.y, b.z, 0.0], color: [color[0], color[1], color[2], 1.0] }
    }

    /// A disc of `diameter` pixels at `p`.
    pub fn point(p: Vec3, color: [f32; 3], diameter: f32) -> Segment {
        Segment { a: [p.x, p.y, p.z, diameter], b: [p.x, p.y, p.z, 1.0], color: [color[0], color[1], color[2], 1.0] }
    }

    /// A marker: a disc of `diameter` pixels at `p`, shown whole when `test` (a point on the
    /// ray from the eye to `p`, a little nearer than the marked spot) is in front of the
    /// bodies, and hidden whole otherwise ([`ViewDraw::markers`]).
    pub fn marker(p: Vec3, test: Vec3, color: [f32; 3], diameter: f32) -> Segment {
        Segment {
            a: [p.x, p.y, p.z, diameter],
            b: [test.x, test.y, test.z, 1.0],
            color: [color[0], color[1], color[2], 1.0],
        }
    }

    /// A marker drawn as a plain depth-tested point at `a` (where the device cannot read
    /// its depth buffer back in a shader: WebGL2).
    pub fn marker_as_point(self) -> Segment {
        Segment { b: [self.a[0], self.a[1], self.a[2], 1.0], ..self }
    }

    /// The same with alpha.
    pub fn with_alpha(mut self, alpha: f32) -> Segment {
        self.color[3] = alpha;
        self
    }
}

/// A vertex of a translucent filled triangle.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct FillVertex {
    /// Position.
    pub position: [f32; 3],
    /// Linear RGBA.
    pub color: [f32; 4],
}

/// Per-instance data of a mesh draw.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable, PartialEq)]
pub struct Instance {
    /// Model matrix, column major.
    pub model: [[f32; 4]; 4],
    /// Linear RGBA (alpha < 1: drawn as a translucent ghost).
    pub color: [f32; 4],
}

/// Which mesh a draw uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshRef {
    /// Shared unit cube (±1).
    UnitCube,
    /// Shared unit sphere.
    UnitSphere,
    /// The cached mesh of body `i`.
    Body(usize),
    /// Mesh `i` of this view's `dynamic_meshes`.
    Dynamic(usize),
}

/// One mesh instance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeshDraw {
    /// Mesh.
    pub mesh: MeshRef,
    /// Instance data.
    pub instance: Instance,
}

impl MeshDraw {
    /// A draw of `mesh` with `model` and colour.
    pub fn new(mesh: MeshRef, model: Mat4, color: [f32; 3], alpha: f32) -> MeshDraw {
        MeshDraw {
            mesh,
            instance: Instance { model: model.to_cols_array_2d(), color: [color[0], color[1], color[2], alpha] },
        }
    }
}

/// Pixel rectangle of a view inside the target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left (px).
    pub x: f32,
    /// Top (px).
    pub y: f32,
    /// Width (px).
    pub w: f32,
    /// Height (px).
    pub h: f32,
}

impl Rect {
    /// Whether a pixel position lies inside.
    pub fn contains(&self, p: (f32, f32)) -> bool {
        p.0 >= self.x && p.0 < self.x + self.w && p.1 >= self.y && p.1 < self.y + self.h
    }
}

/// Everything one view draws.
#[derive(Clone, Debug)]
pub struct ViewDraw {
    /// Where in the target.
    pub rect: Rect,
    /// Camera view-projection for this view's aspect.
    pub view_proj: Mat4,
    /// Eye position (lighting).
    pub eye: Vec3,
    /// Background fill of the rect (insets) or None (main view: cleared).
    pub background: Option<[f32; 4]>,
    /// Solid meshes.
    pub meshes: Vec<MeshDraw>,
    /// Meshes generated this frame (e.g. the Minkowski polytope).
    pub dynamic_meshes: Vec<MeshData>,
    /// Depth-tested lines and points (outlines, grid, axes).
    pub lines: Vec<Segment>,
    /// Discs shown or hidden whole by the depth at their centre ([`Segment::marker`]): the
    /// contact dots. A depth test pixel by pixel cut a flat disc into a crescent wherever a
    /// nearer face covered part of it (a point under a thin slab poked half through it).
    /// Drawn after the lines, before the fills.
    pub markers: Vec<Segment>,
    /// Translucent fills drawn on top.
    pub fills: Vec<FillVertex>,
    /// Lines and points drawn on top of everything (debug overlays).
    pub overlay: Vec<Segment>,
}
