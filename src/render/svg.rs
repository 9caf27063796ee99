//! Vector pictures: a frame's draw lists ([`super::draw::ViewDraw`]) written as SVG, for
//! figures that stay crisp in LaTeX, Beamer or a slide. The same lists the GPU draws, read
//! by a second back end rather than a second drawing of the scene:
//!
//! - **Solids** become filled polygons, one per hull face (the renderer's triangle fans
//!   merged back), lit by the same formula as `shaders/scene.wgsl` at the face's centre.
//!   Faces turned away from the eye on a closed shape are dropped. The rest are ordered by
//!   the painter's algorithm with exact pairwise tests: two faces whose pictures overlap are
//!   compared by their depths at a point of the overlap (both are planar, so that decides
//!   for convex faces that do not cut through each other), and the order is the
//!   topological one, farthest first where nothing decides.
//! - **Depth-tested lines** (outlines, the grid) are cut where an opaque face lies in front
//!   of them (exact: a line's and a plane's depths are both affine along the line's
//!   picture), with the GPU's line depth bias, so hidden edges stay hidden.
//! - **Markers** (contact dots) are whole discs, or nothing where an opaque face is nearer
//!   than the marker's test point at its spot, as the GPU's marker pass decides.
//! - **Fills and overlays** are drawn on top in list order, as on the GPU.
//!
//! Units are the view's pixels (logical: the width a line has at scale 1). Colours are
//! written in sRGB, as the GPU's sRGB target stores them.
//!
//! Faces that cut through each other (a body sunk into the ground) are cut along the line
//! where their depths are equal, both of them, before ordering. The ordering, the cuts and
//! the hiding of lines are in `order.rs`; this file writes the document.
//!
//! Known limits: a face is cut at most 16 times (more crossings are ordered whole); smooth shapes
//! (spheres, capsules) become many flat facets, each lit at its centre; blending of
//! translucent colours happens in sRGB space (the GPU blends in linear light), a visible
//! difference only for the grid's 80 % lines. Text is added by the caller
//! ([`Svg::text`]); the renderer has none.

use super::draw::{Rect, Segment, ViewDraw};
use super::mesh::MeshCache;
use glam::{Mat4, Vec3, Vec4};
use std::fmt::Write as _;

mod order;
use order::{covers, hidden_at, occluders, paint_order, split_crossings, visible_parts, Face, P3};

/// The depth bias of depth-tested lines (NDC depth), as the GPU's line pipeline uses.
const LINE_DEPTH_BIAS: f64 = 5e-6;
/// The dark rim of round points (linear), as `shaders/lines.wgsl` draws it.
const POINT_RIM: [f32; 3] = [0.05, 0.05, 0.08];
/// Line pieces shorter than this (px) are dropped.
const MIN_PIECE: f64 = 0.05;

/// An SVG document being written (see module docs).
pub struct Svg {
    out: String,
    size: (f32, f32),
    clips: usize,
    depth: usize,
}

/// A linear colour as sRGB bytes (the GPU's sRGB target does the same conversion).
pub fn srgb(c: [f32; 3]) -> [u8; 3] {
    c.map(|x| {
        let s = if x <= 0.003_130_8 { 12.92 * x } else { 1.055 * x.max(0.0).powf(1.0 / 2.4) - 0.055 };
        (s.clamp(0.0, 1.0) * 255.0).round() as u8
    })
}

/// An sRGB byte as a linear value (the inverse of [`srgb`]).
pub fn linear(v: u8) -> f32 {
    let v = v as f32 / 255.0;
    if v <= 0.04045 {
        v / 12.92
    } else {
        ((v + 0.055) / 1.055).powf(2.4)
    }
}

fn hex(c: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
}

/// `s` with the five XML special characters escaped.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c if (c as u32) < 0x20 && c != '\t' => {}
            c => out.push(c),
        }
    }
    out
}

fn opacity(alpha: f32) -> String {
    if alpha >= 0.999 {
        String::new()
    } else {
        format!(" opacity=\"{:.3}\"", alpha.max(0.0))
    }
}

impl Svg {
    /// An empty picture of `size` pixels.
    pub fn new(size: (f32, f32)) -> Svg {
        let mut out = String::with_capacity(1 << 16);
        let _ = writeln!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
            w = size.0,
            h = size.1
        );
        Svg { out, size, clips: 0, depth: 0 }
    }

    /// The picture's size (px).
    pub fn size(&self) -> (f32, f32) {
        self.size
    }

    /// Opens a group of class `class`, clipped to `clip` if given; close it with [`Self::end`].
    pub fn begin(&mut self, class: &str, clip: Option<Rect>) {
        match clip {
            Some(r) => {
                self.clips += 1;
                let id = self.clips;
                let _ = writeln!(
                    self.out,
                    "<clipPath id=\"clip{id}\"><rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"/></clipPath>",
                    r.x, r.y, r.w, r.h
                );
                let _ = writeln!(self.out, "<g class=\"{}\" clip-path=\"url(#clip{id})\">", escape(class));
            }
            None => {
                let _ = writeln!(self.out, "<g class=\"{}\">", escape(class));
            }
        }
        self.depth += 1;
    }

    /// Opens a group drawn only where none of the polygons `holes` lies (within `cover`);
    /// close it with [`Self::end`].
    pub fn begin_masked(&mut self, cover: Rect, holes: &[Vec<(f64, f64)>]) {
        self.clips += 1;
        let id = self.clips;
        let _ = write!(
            self.out,
            "<mask id=\"mask{id}\" maskUnits=\"userSpaceOnUse\" x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\"><rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" fill=\"white\"/>",
            cover.x, cover.y, cover.w, cover.h, cover.x, cover.y, cover.w, cover.h
        );
        for h in holes {
            self.out.push_str("<polygon points=\"");
            for (k, (x, y)) in h.iter().enumerate() {
                let _ = write!(self.out, "{}{x:.2},{y:.2}", if k > 0 { " " } else { "" });
            }
            self.out.push_str("\" fill=\"black\"/>");
        }
        let _ = writeln!(self.out, "</mask>\n<g mask=\"url(#mask{id})\">");
        self.depth += 1;
    }

    /// Closes the group [`Self::begin`] opened last.
    pub fn end(&mut self) {
        if self.depth > 0 {
            self.depth -= 1;
            self.out.push_str("</g>\n");
        }
    }

    /// A filled rectangle with rounded corners (`radius` px), sRGB colour.
    pub fn rect(&mut self, r: Rect, radius: f32, fill: [u8; 3], alpha: f32) {
        let _ = writeln!(
            self.out,
            "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{:.2}\" height=\"{:.2}\" rx=\"{radius:.1}\" fill=\"{}\"{}/>",
            r.x,
            r.y,
            r.w,
            r.h,
            hex(fill),
            opacity(alpha)
        );
    }

    /// A filled polygon (sRGB), outlined in its own colour by `seam` px when not zero (so
    /// facets of one surface meet without hairline gaps).
    pub fn polygon(&mut self, pts: &[(f64, f64)], fill: [u8; 3], alpha: f32, seam: f32) {
        self.out.push_str("<polygon points=\"");
        for (k, (x, y)) in pts.iter().enumerate() {
            let _ = write!(self.out, "{}{x:.2},{y:.2}", if k > 0 { " " } else { "" });
        }
        let c = hex(fill);
        let _ = write!(self.out, "\" fill=\"{c}\"");
        if seam > 0.0 {
            let _ = write!(self.out, " stroke=\"{c}\" stroke-width=\"{seam}\" stroke-linejoin=\"round\"");
        }
        let _ = writeln!(self.out, "{}/>", opacity(alpha));
    }

    /// A line `width` px wide with square ends (as the GPU's line quads), sRGB colour.
    pub fn line(&mut self, a: (f64, f64), b: (f64, f64), color: [u8; 3], alpha: f32, width: f32) {
        let _ = writeln!(
            self.out,
            "<line x1=\"{:.2}\" y1=\"{:.2}\" x2=\"{:.2}\" y2=\"{:.2}\" stroke=\"{}\" stroke-width=\"{width:.2}\" stroke-linecap=\"square\"{}/>",
            a.0,
            a.1,
            b.0,
            b.1,
            hex(color),
            opacity(alpha)
        );
    }

    /// A filled disc of radius `r` px, outlined by `stroke` (colour, width) if given.
    pub fn circle(&mut self, c: (f64, f64), r: f32, fill: Option<[u8; 3]>, stroke: Option<([u8; 3], f32)>, alpha: f32) {
        let fill = fill.map_or("none".to_string(), hex);
        let stroke = stroke.map_or(String::new(), |(c, w)| format!(" stroke=\"{}\" stroke-width=\"{w:.2}\"", hex(c)));
        let _ = writeln!(
            self.out,
            "<circle cx=\"{:.2}\" cy=\"{:.2}\" r=\"{r:.2}\" fill=\"{fill}\"{stroke}{}/>",
            c.0,
            c.1,
            opacity(alpha)
        );
    }

    /// One line of text with its baseline's left end at `at`, `size` px high, stretched or
    /// squeezed to `length` px when given (the width the layout gave it, so it fits the
    /// plate drawn for it whatever font the reader has).
    #[allow(clippy::too_many_arguments)]
    pub fn text(
        &mut self,
        at: (f64, f64),
        size: f32,
        monospace: bool,
        color: [u8; 3],
        alpha: f32,
        length: Option<f32>,
        text: &str,
    ) {
        let family = if monospace {
            "'DejaVu Sans Mono', Menlo, Consolas, monospace"
        } else {
            "Ubuntu, 'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif"
        };
        let fit = length.map_or(String::new(), |l| format!(" textLength=\"{l:.2}\" lengthAdjust=\"spacingAndGlyphs\""));
        let _ = writeln!(
            self.out,
            "<text x=\"{:.2}\" y=\"{:.2}\" font-family=\"{family}\" font-size=\"{size:.2}\" fill=\"{}\"{fit}{} xml:space=\"preserve\">{}</text>",
            at.0,
            at.1,
            hex(color),
            opacity(alpha),
            escape(text)
        );
    }

    /// The finished document.
    pub fn finish(mut self) -> String {
        while self.depth > 0 {
            self.end();
        }
        self.out.push_str("</svg>\n");
        self.out
    }
}

/// A view's projection to its pixel rectangle.
struct Proj {
    m: Mat4,
    rect: Rect,
}

impl Proj {
    fn clip(&self, p: Vec3) -> Vec4 {
        self.m * p.extend(1.0)
    }

    fn screen(&self, c: Vec4) -> P3 {
        let (x, y, z, w) = (c.x as f64, c.y as f64, c.z as f64, c.w as f64);
        P3 {
            x: self.rect.x as f64 + (x / w * 0.5 + 0.5) * self.rect.w as f64,
            y: self.rect.y as f64 + (0.5 - y / w * 0.5) * self.rect.h as f64,
            z: z / w,
        }
    }

    /// A polygon in clip space cut to the near plane (z ≥ 0), on screen.
    fn polygon(&self, pts: &[Vec4]) -> Vec<P3> {
        let mut out = Vec::with_capacity(pts.len() + 1);
        for i in 0..pts.len() {
            let (a, b) = (pts[i], pts[(i + 1) % pts.len()]);
            if a.z >= 0.0 {
                out.push(self.screen(a));
            }
            if (a.z >= 0.0) != (b.z >= 0.0) {
                let t = a.z / (a.z - b.z);
                out.push(self.screen(a + (b - a) * t));
            }
        }
        out
    }

    /// A segment in clip space cut to the near plane, on screen.
    fn segment(&self, a: Vec4, b: Vec4) -> Option<(P3, P3)> {
        match (a.z >= 0.0, b.z >= 0.0) {
            (true, true) => Some((self.screen(a), self.screen(b))),
            (false, false) => None,
            (true, false) => Some((self.screen(a), self.screen(a + (b - a) * (a.z / (a.z - b.z))))),
            (false, true) => Some((self.screen(b + (a - b) * (b.z / (b.z - a.z))), self.screen(b))),
        }
    }
}

/// The lighting of `shaders/scene.wgsl` for a surface of linear colour `color` with normal
/// `n` at `p`, seen from `eye` (linear RGB).
pub fn shade(color: [f32; 3], n: Vec3, p: Vec3, eye: Vec3) -> [f32; 3] {
    let mut n = n.normalize_or(Vec3::Y);
    let to_eye = (eye - p).normalize_or(Vec3::Z);
    if n.dot(to_eye) < 0.0 {
        n = -n;
    }
    let key = Vec3::new(0.45, 0.85, 0.35).normalize();
    let fill = Vec3::new(-0.6, 0.3, -0.5).normalize();
    let diffuse = n.dot(key).max(0.0) * 0.62 + n.dot(fill).max(0.0) * 0.18;
    let ambient = 0.22 + (0.34 - 0.22) * (n.y * 0.5 + 0.5);
    let h = (key + to_eye).normalize();
    let spec = n.dot(h).max(0.0).powf(48.0) * 0.18;
    let rim = (1.0 - n.dot(to_eye).max(0.0)).powi(3) * 0.10;
    color.map(|c| c * (ambient + diffuse) + spec + rim)
}

/// The faces of one view's solids, on screen.
fn faces(v: &ViewDraw, proj: &Proj, meshes: &MeshCache) -> Vec<Face> {
    let mut out = Vec::new();
    for (d, draw) in v.meshes.iter().enumerate() {
        let color = draw.instance.color;
        if color[3] <= 0.0 {
            continue;
        }
        let Some((mesh, closed)) = meshes.get(draw.mesh, &v.dynamic_meshes) else { continue };
        let model = Mat4::from_cols_array_2d(&draw.instance.model);
        let normal_m = glam::Mat3::from_mat4(model).inverse().transpose();
        let smooth = matches!(draw.mesh, super::draw::MeshRef::UnitSphere)
            || mesh.indices.chunks(3).next().is_some_and(|t| {
                let v = &mesh.vertices;
                v[t[0] as usize].normal != v[t[1] as usize].normal
            });
        // Triangle fans with one normal (a hull face) merged back into their polygon.
        let mut polys: Vec<Vec<u32>> = Vec::new();
        for t in mesh.indices.chunks_exact(3) {
            let same_normal = |a: u32, b: u32| mesh.vertices[a as usize].normal == mesh.vertices[b as usize].normal;
            match polys.last_mut() {
                Some(p) if !smooth && p[0] == t[0] && *p.last().unwrap() == t[1] && same_normal(p[0], t[2]) => {
                    p.push(t[2])
                }
                _ => polys.push(t.to_vec()),
            }
        }
        for p in polys {
            let world: Vec<Vec3> =
                p.iter().map(|&i| model.transform_point3(Vec3::from(mesh.vertices[i as usize].position))).collect();
            let centre = world.iter().copied().sum::<Vec3>() / world.len() as f32;
            let n = p.iter().map(|&i| normal_m * Vec3::from(mesh.vertices[i as usize].normal)).sum::<Vec3>();
            if closed && n.dot(v.eye - centre) < 0.0 {
                continue;
            }
            let rgb = [color[0], color[1], color[2]];
            let lit = if smooth {
                // The mean of the corners' lighting (as the GPU's interpolated normals give
                // across the facet) rather than the lighting of the mean normal.
                let k = p.len() as f32;
                p.iter().zip(&world).fold([0.0; 3], |acc, (&i, &w)| {
                    let c = shade(rgb, normal_m * Vec3::from(mesh.vertices[i as usize].normal), w, v.eye);
                    [acc[0] + c[0] / k, acc[1] + c[1] / k, acc[2] + c[2] / k]
                })
            } else {
                shade(rgb, n, centre, v.eye)
            };
            let clip: Vec<Vec4> = world.iter().map(|&w| proj.clip(w)).collect();
            if let Some(f) = Face::new(proj.polygon(&clip), srgb(lit), color[3], closed.then_some(d), smooth) {
                out.push(f);
            }
        }
    }
    out
}

/// A round point as the line shader draws it: a dark rim, the outer quarter of the radius
/// (smoothstep 0.72–0.8), around the colour.
fn disc(svg: &mut Svg, c: (f64, f64), r: f64, color: [u8; 3], alpha: f32) {
    svg.circle(c, r as f32, Some(srgb(POINT_RIM)), None, alpha);
    svg.circle(c, r as f32 * 0.76, Some(color), None, alpha);
}

/// A marker ([`Segment::marker`]): the whole disc at `a`, or nothing when a face is nearer
/// than its test point `b` at `b`'s spot, as the GPU's marker pass decides.
fn marker(svg: &mut Svg, s: &Segment, proj: &Proj, faces: &[Face]) {
    let (a, test) = (proj.clip(Vec3::new(s.a[0], s.a[1], s.a[2])), proj.clip(Vec3::new(s.b[0], s.b[1], s.b[2])));
    if a.z < 0.0 || a.w <= 0.0 || test.w <= 0.0 || hidden_at(proj.screen(test), faces) {
        return;
    }
    let p = proj.screen(a);
    disc(svg, (p.x, p.y), s.a[3] as f64 * 0.5, srgb([s.color[0], s.color[1], s.color[2]]), s.color[3]);
}

fn segment(svg: &mut Svg, s: &Segment, proj: &Proj, hide: Option<&[Face]>) {
    let (a, b) = (Vec3::new(s.a[0], s.a[1], s.a[2]), Vec3::new(s.b[0], s.b[1], s.b[2]));
    let color = srgb([s.color[0], s.color[1], s.color[2]]);
    let (alpha, width) = (s.color[3], s.a[3]);
    if s.b[3] > 0.5 {
        let c = proj.clip(a);
        if c.z < 0.0 || c.w <= 0.0 {
            return;
        }
        let p = proj.screen(c);
        let r = width as f64 * 0.5;
        // A disc is flat at its centre's depth: the parts of nearer faces over it hide it
        // pixel by pixel, as the GPU's depth test does (a mask with those parts cut out).
        let holes = hide.map_or(Vec::new(), |faces| occluders(P3 { z: p.z - LINE_DEPTH_BIAS, ..p }, r, faces));
        if holes.iter().any(|h| covers(h, (p.x, p.y), r)) {
            return;
        }
        let masked = !holes.is_empty();
        if masked {
            let cover = Rect {
                x: (p.x - r - 1.0) as f32,
                y: (p.y - r - 1.0) as f32,
                w: (2.0 * r + 2.0) as f32,
                h: (2.0 * r + 2.0) as f32,
            };
            svg.begin_masked(cover, &holes);
        }
        disc(svg, (p.x, p.y), r, color, alpha);
        if masked {
            svg.end();
        }
        return;
    }
    let Some((pa, pb)) = proj.segment(proj.clip(a), proj.clip(b)) else { return };
    let parts = match hide {
        Some(faces) => visible_parts(pa, pb, faces),
        None => vec![(0.0, 1.0)],
    };
    let len = ((pb.x - pa.x).powi(2) + (pb.y - pa.y).powi(2)).sqrt();
    for (t0, t1) in parts {
        if (t1 - t0) * len < MIN_PIECE && len > MIN_PIECE {
            continue;
        }
        let at = |t: f64| (pa.x + (pb.x - pa.x) * t, pa.y + (pb.y - pa.y) * t);
        svg.line(at(t0), at(t1), color, alpha, width);
    }
}

/// Writes `views` (the first is the main view, cleared to `clear`, linear RGBA) into `svg`.
pub fn draw_views(svg: &mut Svg, views: &[ViewDraw], meshes: &MeshCache, clear: [f32; 4]) {
    let (w, h) = svg.size();
    if clear[3] > 0.0 {
        let c = srgb([clear[0], clear[1], clear[2]]);
        svg.rect(Rect { x: 0.0, y: 0.0, w, h }, 0.0, c, clear[3]);
    }
    for (k, v) in views.iter().enumerate() {
        svg.begin(if k == 0 { "view main" } else { "view inset" }, Some(v.rect));
        if let Some(bg) = v.background {
            svg.rect(v.rect, 0.0, srgb([bg[0], bg[1], bg[2]]), bg[3]);
        }
        let proj = Proj { m: v.view_proj, rect: v.rect };
        let faces = split_crossings(faces(v, &proj, meshes));
        svg.begin("solids", None);
        for i in paint_order(&faces) {
            let f = &faces[i];
            let pts: Vec<(f64, f64)> = f.pts.iter().map(|p| (p.x, p.y)).collect();
            svg.polygon(&pts, f.fill, f.alpha, if f.smooth { 0.6 } else { 0.35 });
        }
        svg.end();
        svg.begin("lines", None);
        for s in &v.lines {
            segment(svg, s, &proj, Some(&faces));
        }
        svg.end();
        svg.begin("markers", None);
        for s in &v.markers {
            marker(svg, s, &proj, &faces);
        }
        svg.end();
        svg.begin("fills", None);
        for tri in fans(&v.fills) {
            let clip: Vec<Vec4> = tri.0.iter().map(|&p| proj.clip(p)).collect();
            let pts: Vec<(f64, f64)> = proj.polygon(&clip).iter().map(|p| (p.x, p.y)).collect();
            if pts.len() >= 3 {
                svg.polygon(&pts, srgb([tri.1[0], tri.1[1], tri.1[2]]), tri.1[3], 0.0);
            }
        }
        svg.end();
        svg.begin("overlay", None);
        for s in &v.overlay {
            segment(svg, s, &proj, None);
        }
        svg.end();
        svg.end();
    }
}

/// Translucent triangles merged back into the polygons they were fanned from (same colour,
/// same first corner, each starting where the last ended).
fn fans(fills: &[super::draw::FillVertex]) -> Vec<(Vec<Vec3>, [f32; 4])> {
    let mut out: Vec<(Vec<Vec3>, [f32; 4])> = Vec::new();
    for t in fills.chunks_exact(3) {
        let p = [t[0], t[1], t[2]].map(|v| Vec3::from(v.position));
        let c = t[0].color;
        match out.last_mut() {
            Some((poly, pc)) if *pc == c && poly[0] == p[0] && *poly.last().unwrap() == p[1] => poly.push(p[2]),
            _ => out.push((p.to_vec(), c)),
        }
    }
    out
}
