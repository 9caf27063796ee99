//! The shapes of a scene file, checked and built: sizes within the documented ranges, hulls
//! by quickhull or from faces with their thickness and radius checked, triangle meshes
//! (`mesh.rs`), and compounds of the convex ones, each child checked as its own shape.
//!
//! Limits: a hull's thickness is measured across its faces only (an upper bound of its true
//! minimum width).

use super::build::{rotation, v3, Check};
use super::format::*;
use super::SceneError;
use crate::physics::limits;
use crate::physics::{Hull, Iso, Shape};
use glam::Vec3;
use std::sync::Arc;

pub(super) fn shape(c: &Check, ctx: &str, s: &ShapeDesc) -> Result<Shape, SceneError> {
    let hull_err = |e: crate::physics::HullError| c.err(ctx, "shape", e.to_string());
    let size = |field: &str, v: f32| {
        c.positive(ctx, field, v)?;
        c.limit(ctx, field, v, limits::HALF_SIZE)
    };
    let cloud = |field: &str, points: &[V3]| {
        if points.len() > limits::HULL_POINTS {
            return Err(c.err(ctx, field, format!("at most {} points, got {}", limits::HULL_POINTS, points.len())));
        }
        for p in points {
            c.limit3(ctx, field, *p, limits::POSITION)?;
        }
        Ok(points.iter().map(|p| v3(*p)).collect::<Vec<Vec3>>())
    };
    Ok(match s {
        ShapeDesc::Box { half_extents: h } => {
            for (f, v) in [("half_extents.x", h.0), ("half_extents.y", h.1), ("half_extents.z", h.2)] {
                size(f, v)?;
            }
            Shape::cuboid(v3(*h)).map_err(hull_err)?
        }
        ShapeDesc::Sphere { radius } => {
            size("radius", *radius)?;
            Shape::Sphere { radius: *radius }
        }
        ShapeDesc::Capsule { radius, half_height } => {
            size("radius", *radius)?;
            size("half_height", *half_height)?;
            Shape::Capsule { radius: *radius, half_height: *half_height }
        }
        ShapeDesc::Hull { points } => {
            let pts = cloud("points", points)?;
            hull_extent(c, ctx, Hull::from_points(&pts).map_err(hull_err)?)?
        }
        ShapeDesc::HullFaces { vertices, faces } => {
            let pts = cloud("vertices", vertices)?;
            hull_extent(c, ctx, Hull::from_faces(&pts, faces).map_err(hull_err)?)?
        }
        ShapeDesc::Mesh { .. }
        | ShapeDesc::Obj { .. }
        | ShapeDesc::Heightfield { .. }
        | ShapeDesc::Stairs { .. }
        | ShapeDesc::Ramp { .. } => super::mesh::mesh_shape(c, ctx, s)?,
        ShapeDesc::Compound { children } => {
            // (Their count is checked by `Compound::new`, its error named under `children`.)
            let mut parts = Vec::with_capacity(children.len());
            for (i, ch) in children.iter().enumerate() {
                let here = format!("{ctx}, child {i}");
                if matches!(ch.shape, ShapeDesc::Compound { .. }) || super::mesh::is_mesh(&ch.shape) {
                    let what = "must be a box, sphere, capsule, hull or cylinder (not a mesh or a compound)";
                    return Err(c.err(&here, "shape", what.to_string()));
                }
                c.limit3(&here, "position", ch.position, limits::POSITION)?;
                let pose = Iso::new(v3(ch.position), rotation(c, &here, &ch.rotation)?);
                parts.push((pose, shape(c, &here, &ch.shape)?));
            }
            let compound = crate::physics::Compound::new(parts).map_err(|e| c.err(ctx, "children", e.to_string()))?;
            Shape::Compound(Arc::new(compound))
        }
        ShapeDesc::Cylinder { radius, half_height, segments } => {
            size("radius", *radius)?;
            size("half_height", *half_height)?;
            if *segments < 3 || *segments > 256 {
                return Err(c.err(ctx, "segments", format!("must be between 3 and 256, got {segments}")));
            }
            Shape::Hull(Arc::new(Hull::prism(*radius, *half_height, *segments as usize).map_err(hull_err)?))
        }
    })
}

/// Checks a hull's extent: its radius about its centroid and its thinnest width across a
/// face ([`hull_thickness`]) within the documented ranges.
fn hull_extent(c: &Check, ctx: &str, h: Hull) -> Result<Shape, SceneError> {
    let centre = h.centroid();
    let radius = h.vertices().iter().map(|v| v.distance(centre)).fold(0.0f32, f32::max);
    if !limits::HULL_RADIUS.contains(radius) {
        let lim = limits::HULL_RADIUS.describe();
        return Err(c.err(ctx, "shape", format!("the hull's radius about its centre must be {lim}, got {radius:?}")));
    }
    let thickness = hull_thickness(&h);
    // Relative slack for the round-off of the face planes (a cloud on two planes 1 mm apart).
    if thickness < limits::HULL_THICKNESS.min * (1.0 - 1e-3) {
        let lim = limits::HULL_THICKNESS.describe();
        return Err(c.err(ctx, "shape", format!("the hull's thickness must be {lim}, got {thickness:?}")));
    }
    Ok(Shape::Hull(Arc::new(h)))
}

/// The hull's smallest width measured across its faces: for each face, how far the farthest
/// vertex lies behind its plane. (An upper bound of the true minimum width, which may lie
/// across an edge pair; for slivers and needles the faces give it.)
pub fn hull_thickness(h: &Hull) -> f32 {
    h.faces()
        .iter()
        .map(|f| h.vertices().iter().map(|v| f.offset - f.normal.dot(*v)).fold(0.0f32, f32::max))
        .fold(f32::INFINITY, f32::min)
}
