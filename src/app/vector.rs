//! Vector screenshots (`--screenshot OUT.svg`): the frame's draw lists written by
//! [`crate::render::svg`], and the text over the view from the same egui painting the
//! window and the PNG screenshots use ([`super::labels::paint`]) — its shapes (plates,
//! lines, discs, text rows) written as SVG elements instead of being tessellated. No GPU
//! is needed.
//!
//! Known limits: text is written as text, in the reader's font (egui's Ubuntu where
//! installed, else a sans-serif), each row stretched to the width egui's layout gave it;
//! egui meshes and curves (not used by the labels) are skipped.

use super::testbed::Testbed;
use crate::render::draw::Rect;
use crate::render::mesh::MeshCache;
use crate::render::svg::{draw_views, Svg};
use egui::epaint::{Shape, TextShape};
use egui::Color32;

/// The testbed's current view as an SVG document of `size` pixels.
pub fn svg(testbed: &mut Testbed, size: (u32, u32)) -> String {
    let mut meshes = MeshCache::default();
    meshes.sync(testbed.world());
    let rect = Rect { x: 0.0, y: 0.0, w: size.0 as f32, h: size.1 as f32 };
    // One pixel a point, as the labels are laid out below.
    testbed.view.ppp = 1.0;
    // The labels first: a comparison's tiles draw below their text's measured height.
    let labels = label_shapes(testbed, rect);
    let views = testbed.views(size, rect, &meshes.outlines);
    let mut doc = Svg::new((rect.w, rect.h));
    draw_views(&mut doc, &views, &meshes, testbed.view.look.clear());
    doc.begin("labels", None);
    for shape in labels {
        write_shape(&mut doc, &shape);
    }
    doc.end();
    doc.finish()
}

/// Writes the testbed's current view to `path` as SVG.
pub fn save_svg(testbed: &mut Testbed, size: (u32, u32), path: &std::path::Path) -> Result<(), String> {
    super::output::save(path, svg(testbed, size).as_bytes()).map(|_| ())
}

/// Every clip stage of the selected pair as an SVG document (`--clip-stage all` into an
/// `.svg` path), as [`super::headless::clip_stages`] renders them.
pub fn clip_stages(testbed: &mut Testbed, size: (u32, u32)) -> Result<Vec<String>, String> {
    testbed.each_clip_stage(|t| Ok(svg(t, size)))
}

/// Whether `path` names an SVG file.
pub fn is_svg(path: &std::path::Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg"))
}

/// The shapes egui paints for the labels over a view of `rect` (one point per pixel).
fn label_shapes(testbed: &mut Testbed, rect: Rect) -> Vec<Shape> {
    let ctx = egui::Context::default();
    ctx.set_visuals(egui::Visuals::light());
    let mut raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(rect.w, rect.h))),
        ..Default::default()
    };
    raw.viewports.entry(egui::ViewportId::ROOT).or_default().native_pixels_per_point = Some(1.0);
    let mut full = ctx.run_ui(raw, |ui| {
        super::labels::paint(ui, testbed, rect);
    });
    // The font atlas is not uploaded anywhere: the text is written as text.
    full.textures_delta.clear();
    full.shapes.into_iter().map(|c| c.shape).collect()
}

/// An egui colour (premultiplied sRGBA) as sRGB bytes and opacity; None when transparent.
fn colour(c: Color32) -> Option<([u8; 3], f32)> {
    let [r, g, b, a] = c.to_srgba_unmultiplied();
    (a > 0).then_some(([r, g, b], a as f32 / 255.0))
}

fn pos(p: egui::Pos2) -> (f64, f64) {
    (p.x as f64, p.y as f64)
}

fn write_shape(doc: &mut Svg, shape: &Shape) {
    match shape {
        Shape::Vec(shapes) => shapes.iter().for_each(|s| write_shape(doc, s)),
        Shape::Circle(c) => {
            let stroke =
                (c.stroke.width > 0.0).then(|| colour(c.stroke.color)).flatten().map(|(k, _)| (k, c.stroke.width));
            let fill = colour(c.fill);
            if fill.is_some() || stroke.is_some() {
                doc.circle(pos(c.center), c.radius, fill.map(|f| f.0), stroke, fill.map_or(1.0, |f| f.1));
            }
        }
        Shape::LineSegment { points, stroke } => {
            if let Some((c, a)) = colour(stroke.color) {
                doc.line(pos(points[0]), pos(points[1]), c, a, stroke.width);
            }
        }
        Shape::Rect(r) => {
            if let Some((c, a)) = colour(r.fill) {
                let rect = Rect { x: r.rect.min.x, y: r.rect.min.y, w: r.rect.width(), h: r.rect.height() };
                doc.rect(rect, r.corner_radius.nw as f32, c, a);
            }
        }
        Shape::Path(p) => {
            let pts: Vec<(f64, f64)> = p.points.iter().map(|&q| pos(q)).collect();
            if let (true, Some((c, a))) = (p.closed, colour(p.fill)) {
                doc.polygon(&pts, c, a, 0.0);
            }
            if let (egui::epaint::ColorMode::Solid(sc), true) = (&p.stroke.color, p.stroke.width > 0.0) {
                if let Some((c, a)) = colour(*sc) {
                    let mut seg: Vec<(f64, f64)> = pts.clone();
                    if p.closed && !pts.is_empty() {
                        seg.push(pts[0]);
                    }
                    for w in seg.windows(2) {
                        doc.line(w[0], w[1], c, a, p.stroke.width);
                    }
                }
            }
        }
        Shape::Text(t) => text(doc, t),
        _ => {}
    }
}

/// One `<text>` per row of the galley, on its baseline, as wide as egui laid it out.
fn text(doc: &mut Svg, t: &TextShape) {
    let format = t.galley.job.sections.first().map(|s| s.format.clone()).unwrap_or_default();
    let mut c = t.override_text_color.unwrap_or(format.color);
    if c == Color32::PLACEHOLDER {
        c = t.fallback_color;
    }
    let Some((rgb, alpha)) = colour(c) else { return };
    let mono = format.font_id.family == egui::FontFamily::Monospace;
    for row in &t.galley.rows {
        let (Some(first), Some(last)) = (row.row.glyphs.first(), row.row.glyphs.last()) else { continue };
        let line: String = row.row.glyphs.iter().map(|g| g.chr).collect();
        if line.trim().is_empty() {
            continue;
        }
        let x = t.pos.x + row.pos.x + first.pos.x;
        let y = t.pos.y + row.pos.y + first.pos.y;
        let width = last.pos.x + last.advance_width - first.pos.x;
        doc.text((x as f64, y as f64), format.font_id.size, mono, rgb, alpha * t.opacity_factor, Some(width), &line);
    }
}
