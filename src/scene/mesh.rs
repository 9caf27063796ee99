//! Triangle-mesh shapes in scene files: inline (`Mesh`), from a Wavefront OBJ file (`Obj`,
//! read with `tobj`, the path relative to the scene file's folder) and from the generators
//! (`Heightfield`, `Stairs`, `Ramp`, [`crate::physics::mesh::generate`]).
//!
//! Every failure names the body and the field and says what to change: a missing or
//! unreadable file (with the path it was looked for at), a face `tobj` cannot triangulate
//! (fewer than three corners), a non-finite coordinate, an index past the vertex list, a
//! degenerate triangle (by number), an empty mesh, too many triangles
//! ([`limits::MESH_TRIANGLES`]). Mesh bodies must be static (checked by the caller).
//!
//! Limits: OBJ polygons are triangulated as fans, which is exact for convex polygons only;
//! materials, normals and texture coordinates in the file are ignored.

use super::build::Check;
use super::format::{HeightsDesc, SceneDesc, ShapeDesc, V3};
use super::SceneError;
use crate::physics::limits;
use crate::physics::mesh::{generate, MeshError, TriMesh};
use crate::physics::Shape;
use glam::Vec3;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Whether a shape description is a triangle mesh (static bodies only).
pub fn is_mesh(s: &ShapeDesc) -> bool {
    matches!(
        s,
        ShapeDesc::Mesh { .. }
            | ShapeDesc::Obj { .. }
            | ShapeDesc::Heightfield { .. }
            | ShapeDesc::Stairs { .. }
            | ShapeDesc::Ramp { .. }
    )
}

/// The mesh shape of a mesh description ([`is_mesh`]). OBJ paths are relative to the folder
/// of the scene file (`c.path`; for a scene built from text, the working directory).
pub(super) fn mesh_shape(c: &Check, ctx: &str, s: &ShapeDesc) -> Result<Shape, SceneError> {
    let origin = c.path;
    let mesh = match s {
        ShapeDesc::Mesh { vertices, indices } => inline(c, ctx, vertices, indices),
        ShapeDesc::Obj { path, scale } => obj(c, ctx, origin, path, *scale),
        ShapeDesc::Heightfield { cells, cell, heights } => heightfield(c, ctx, *cells, *cell, heights),
        ShapeDesc::Stairs { steps, rise, run, width } => {
            if !(1..=500).contains(steps) {
                return Err(c.err(ctx, "steps", format!("must be between 1 and 500, got {steps}")));
            }
            sizes(c, ctx, &[("rise", *rise), ("run", *run), ("width", *width)])
                .and_then(|_| built(c, ctx, generate::stairs(*steps as usize, *rise, *run, *width)))
        }
        ShapeDesc::Ramp { angle_deg, length, width } => {
            if !(angle_deg.is_finite() && *angle_deg > 0.0 && *angle_deg < 90.0) {
                return Err(c.err(ctx, "angle_deg", format!("must be between 0 and 90 degrees, got {angle_deg}")));
            }
            sizes(c, ctx, &[("length", *length), ("width", *width)])
                .and_then(|_| built(c, ctx, generate::ramp(angle_deg.to_radians(), *length, *width)))
        }
        _ => return Err(c.err(ctx, "shape", "not a triangle mesh")),
    };
    mesh.map(|m| Shape::Mesh(Arc::new(m)))
}

/// Sizes of a generator within the documented half-size range (×2: these are full sizes).
fn sizes(c: &Check, ctx: &str, fields: &[(&str, f32)]) -> Result<(), SceneError> {
    for &(f, v) in fields {
        c.positive(ctx, f, v)?;
        if v > 2.0 * limits::HALF_SIZE.max {
            return Err(c.err(ctx, f, format!("must be at most {} m, got {v}", 2.0 * limits::HALF_SIZE.max)));
        }
    }
    Ok(())
}

/// A mesh error as the body's `shape` error.
fn built(c: &Check, ctx: &str, m: Result<TriMesh, MeshError>) -> Result<TriMesh, SceneError> {
    let m = m.map_err(|e| c.err(ctx, "shape", e.to_string()))?;
    if m.len() > limits::MESH_TRIANGLES {
        return Err(c.err(ctx, "shape", format!("at most {} triangles, got {}", limits::MESH_TRIANGLES, m.len())));
    }
    Ok(m)
}

fn check_vertices(c: &Check, ctx: &str, field: &str, vertices: &[Vec3]) -> Result<(), SceneError> {
    for (i, v) in vertices.iter().enumerate() {
        if !v.is_finite() {
            return Err(c.err(ctx, field, format!("vertex {i} is not finite: {v:?}")));
        }
        if v.abs().max_element() > limits::POSITION.max {
            let lim = limits::POSITION.describe();
            return Err(c.err(ctx, field, format!("vertex {i}: every coordinate must be {lim}, got {v:?}")));
        }
    }
    Ok(())
}

fn inline(c: &Check, ctx: &str, vertices: &[V3], indices: &[u32]) -> Result<TriMesh, SceneError> {
    let vs: Vec<Vec3> = vertices.iter().map(|v| Vec3::new(v.0, v.1, v.2)).collect();
    check_vertices(c, ctx, "vertices", &vs)?;
    if indices.len() / 3 > limits::MESH_TRIANGLES {
        return Err(c.err(ctx, "indices", format!("at most {} triangles", limits::MESH_TRIANGLES)));
    }
    built(c, ctx, TriMesh::from_indices(vs, indices))
}

/// Where the OBJ file `path` of the scene file `origin` is: relative to its folder.
fn obj_file(origin: &Path, path: &str) -> PathBuf {
    origin.parent().unwrap_or(Path::new("")).join(path)
}

/// The other files the scene file `origin` reads (its OBJ meshes), for hot reload: an edit
/// to one of them reloads the scene as an edit to the scene file does.
pub fn files_read(desc: &SceneDesc, origin: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = desc
        .bodies
        .iter()
        .filter_map(|b| match &b.shape {
            ShapeDesc::Obj { path, .. } => Some(obj_file(origin, path)),
            _ => None,
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The OBJ file `path` (relative to the scene file's folder), every object merged.
fn obj(c: &Check, ctx: &str, origin: &str, path: &str, scale: f32) -> Result<TriMesh, SceneError> {
    c.positive(ctx, "scale", scale)?;
    let file = obj_file(Path::new(origin), path);
    let text = super::read_text(&file).map_err(|e| {
        let what = if e.kind() == std::io::ErrorKind::NotFound { "no OBJ file" } else { "cannot read OBJ file" };
        c.err(ctx, "path", format!("{what} '{path}' (looked for {}: {e})", file.display()))
    })?;
    let opts = tobj::LoadOptions { triangulate: true, ignore_points: true, ignore_lines: true, ..Default::default() };
    // Materials are not read: a missing .mtl is no error.
    let (models, _materials) =
        tobj::load_obj_buf(&mut std::io::Cursor::new(text), &opts, |_| Err(tobj::LoadError::OpenFileFailed))
            .map_err(|e| c.err(ctx, "path", format!("cannot read OBJ file {}: {e}", file.display())))?;
    let (mut vertices, mut indices) = (Vec::new(), Vec::new());
    for m in &models {
        let base = vertices.len() as u32;
        vertices.extend(m.mesh.positions.chunks_exact(3).map(|p| Vec3::new(p[0], p[1], p[2]) * scale));
        indices.extend(m.mesh.indices.iter().map(|i| base + i));
    }
    check_vertices(c, ctx, "path", &vertices)?;
    built(c, ctx, TriMesh::from_indices(vertices, &indices)).map_err(|e| match e {
        SceneError::Invalid { path: p, context, field, message } => {
            SceneError::Invalid { path: p, context, field, message: format!("{message} (in {})", file.display()) }
        }
        e => e,
    })
}

fn heightfield(
    c: &Check,
    ctx: &str,
    (nx, nz): (u32, u32),
    cell: f32,
    heights: &HeightsDesc,
) -> Result<TriMesh, SceneError> {
    for (f, n) in [("cells.0", nx), ("cells.1", nz)] {
        if !(1..=1000).contains(&n) {
            return Err(c.err(ctx, f, format!("must be between 1 and 1000, got {n}")));
        }
    }
    sizes(c, ctx, &[("cell", cell)])?;
    let (nx, nz) = (nx as usize, nz as usize);
    let (ox, oz) = (nx as f32 * cell * 0.5, nz as f32 * cell * 0.5);
    let height: Box<dyn Fn(f32, f32) -> f32> = match heights {
        HeightsDesc::Waves { amplitude, wavelength } => {
            c.finite(ctx, "heights", &[*amplitude])?;
            if amplitude.abs() > limits::POSITION.max {
                return Err(c.err(ctx, "heights", format!("amplitude must be {}", limits::POSITION.describe())));
            }
            c.positive(ctx, "heights", *wavelength)?;
            let (a, k) = (*amplitude, std::f32::consts::TAU / wavelength);
            Box::new(move |x, z| a * (k * x).sin() * (k * z).cos())
        }
        HeightsDesc::Values(v) => {
            let want = (nx + 1) * (nz + 1);
            if v.len() != want {
                let msg = format!("{} × {} cells need {want} heights (one per grid point), got {}", nx, nz, v.len());
                return Err(c.err(ctx, "heights", msg));
            }
            if let Some((i, h)) = v.iter().enumerate().find(|(_, h)| !limits::POSITION.contains(**h)) {
                return Err(c.err(
                    ctx,
                    "heights",
                    format!("height {i} must be {}, got {h}", limits::POSITION.describe()),
                ));
            }
            let v = v.clone();
            Box::new(move |x, z| {
                let i = ((x + ox) / cell).round() as usize;
                let k = ((z + oz) / cell).round() as usize;
                v[i.min(nx) * (nz + 1) + k.min(nz)]
            })
        }
    };
    built(c, ctx, generate::heightfield(nx, nz, cell, height))
}
