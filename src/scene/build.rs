//! Validation and world building. Every check names the body and the field it concerns and
//! says what is allowed, so a user can fix the file without reading code.

use super::format::*;
use super::{generators, SceneError};
use crate::physics::{BodyDesc, BodyKind, Hull, Shape, World};
use glam::{Quat, Vec3};
use std::collections::HashSet;
use std::sync::Arc;

/// A scene ready to run: its description, the world built from it, and display data.
#[derive(Clone, Debug)]
pub struct LoadedScene {
    /// The description (with generators still folded).
    pub desc: SceneDesc,
    /// The world, indexed like `colors`.
    pub world: World,
    /// Display colour per body (linear RGB).
    pub colors: Vec<[f32; 3]>,
}

impl LoadedScene {
    /// Fixed timestep of the scene (s).
    pub fn timestep(&self) -> f32 {
        self.desc.timestep
    }

    /// Index of the body named `name`.
    pub fn body_index(&self, name: &str) -> Option<usize> {
        self.world.bodies().iter().position(|b| b.name == name)
    }
}

/// A soft palette that separates neighbours and reads well on slides.
pub const PALETTE: [[f32; 3]; 8] = [
    [0.90, 0.45, 0.30],
    [0.30, 0.60, 0.85],
    [0.95, 0.75, 0.30],
    [0.45, 0.75, 0.45],
    [0.70, 0.50, 0.85],
    [0.35, 0.75, 0.75],
    [0.90, 0.55, 0.65],
    [0.65, 0.65, 0.55],
];

/// Colour of static bodies without an explicit colour.
pub const STATIC_COLOR: [f32; 3] = [0.55, 0.56, 0.58];

struct Check<'a> {
    path: &'a str,
}

impl Check<'_> {
    fn err(&self, context: impl Into<String>, field: &str, message: impl Into<String>) -> SceneError {
        SceneError::Invalid {
            path: self.path.to_string(),
            context: context.into(),
            field: field.to_string(),
            message: message.into(),
        }
    }

    fn finite(&self, ctx: &str, field: &str, v: &[f32]) -> Result<(), SceneError> {
        if let Some(x) = v.iter().find(|x| !x.is_finite()) {
            return Err(self.err(ctx, field, format!("must be a finite number, got {x}")));
        }
        Ok(())
    }

    fn positive(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if v <= 0.0 {
            return Err(self.err(ctx, field, format!("must be > 0, got {v}")));
        }
        Ok(())
    }

    fn non_negative(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if v < 0.0 {
            return Err(self.err(ctx, field, format!("must be ≥ 0, got {v}")));
        }
        Ok(())
    }

    fn unit_interval(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if !(0.0..=1.0).contains(&v) {
            return Err(self.err(ctx, field, format!("must be between 0 and 1, got {v}")));
        }
        Ok(())
    }
}

fn v3(v: V3) -> Vec3 {
    Vec3::new(v.0, v.1, v.2)
}

fn rotation(c: &Check, ctx: &str, r: &RotationDesc) -> Result<Quat, SceneError> {
    match *r {
        RotationDesc::Quat(x, y, z, w) => {
            c.finite(ctx, "rotation", &[x, y, z, w])?;
            let q = Quat::from_xyzw(x, y, z, w);
            if q.length() < 1e-6 {
                return Err(c.err(ctx, "rotation", "a quaternion must not be zero"));
            }
            Ok(q.normalize())
        }
        RotationDesc::AxisAngleDeg { axis, angle } => {
            c.finite(ctx, "rotation", &[axis.0, axis.1, axis.2, angle])?;
            let a = v3(axis);
            if a.length() < 1e-6 {
                return Err(c.err(ctx, "rotation", "the rotation axis must not be zero"));
            }
            Ok(Quat::from_axis_angle(a.normalize(), angle.to_radians()))
        }
        RotationDesc::EulerDeg(x, y, z) => {
            c.finite(ctx, "rotation", &[x, y, z])?;
            Ok(Quat::from_rotation_z(z.to_radians())
                * Quat::from_rotation_y(y.to_radians())
                * Quat::from_rotation_x(x.to_radians()))
        }
    }
}

fn shape(c: &Check, ctx: &str, s: &ShapeDesc) -> Result<Shape, SceneError> {
    let hull_err = |e: crate::physics::HullError| c.err(ctx, "shape", e.to_string());
    Ok(match s {
        ShapeDesc::Box { half_extents: h } => {
            for (f, v) in [("half_extents.x", h.0), ("half_extents.y", h.1), ("half_extents.z", h.2)] {
                c.positive(ctx, f, v)?;
            }
            Shape::cuboid(v3(*h)).map_err(hull_err)?
        }
        ShapeDesc::Sphere { radius } => {
            c.positive(ctx, "radius", *radius)?;
            Shape::Sphere { radius: *radius }
        }
        ShapeDesc::Capsule { radius, half_height } => {
            c.positive(ctx, "radius", *radius)?;
            c.positive(ctx, "half_height", *half_height)?;
            Shape::Capsule { radius: *radius, half_height: *half_height }
        }
        ShapeDesc::Hull { points } => {
            for p in points {
                c.finite(ctx, "points", &[p.0, p.1, p.2])?;
            }
            let pts: Vec<Vec3> = points.iter().map(|p| v3(*p)).collect();
            Shape::Hull(Arc::new(Hull::from_points(&pts).map_err(hull_err)?))
        }
        ShapeDesc::HullFaces { vertices, faces } => {
            for p in vertices {
                c.finite(ctx, "vertices", &[p.0, p.1, p.2])?;
            }
            let pts: Vec<Vec3> = vertices.iter().map(|p| v3(*p)).collect();
            Shape::Hull(Arc::new(Hull::from_faces(&pts, faces).map_err(hull_err)?))
        }
        ShapeDesc::Cylinder { radius, half_height, segments } => {
            c.positive(ctx, "radius", *radius)?;
            c.positive(ctx, "half_height", *half_height)?;
            if *segments < 3 || *segments > 256 {
                return Err(c.err(ctx, "segments", format!("must be between 3 and 256, got {segments}")));
            }
            Shape::Hull(Arc::new(Hull::prism(*radius, *half_height, *segments as usize).map_err(hull_err)?))
        }
    })
}

fn check_material(c: &Check, ctx: &str, m: &GenMaterial) -> Result<(), SceneError> {
    c.positive(ctx, "material.density", m.density)?;
    c.non_negative(ctx, "material.friction", m.friction)?;
    c.unit_interval(ctx, "material.restitution", m.restitution)?;
    if let Some(col) = m.color {
        c.finite(ctx, "material.color", &[col.0, col.1, col.2])?;
    }
    Ok(())
}

fn check_generator(c: &Check, g: &Generator) -> Result<(), SceneError> {
    let ctx = |n: &str| format!("generator '{n}'");
    let limit = |ctx: &str, field: &str, v: u32, lo: u32, hi: u32| {
        if v < lo || v > hi {
            Err(c.err(ctx, field, format!("must be between {lo} and {hi}, got {v}")))
        } else {
            Ok(())
        }
    };
    match g {
        Generator::Stack { name, base, count, half_extents: h, gap, material } => {
            let ctx = ctx(name);
            c.finite(&ctx, "base", &[base.0, base.1, base.2])?;
            limit(&ctx, "count", *count, 1, 10_000)?;
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::Pyramid { name, base, layers, half_extents: h, gap, material } => {
            let ctx = ctx(name);
            c.finite(&ctx, "base", &[base.0, base.1, base.2])?;
            limit(&ctx, "layers", *layers, 1, 200)?;
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::Wall { name, base, columns, rows, depth, half_extents: h, gap, material, .. } => {
            let ctx = ctx(name);
            c.finite(&ctx, "base", &[base.0, base.1, base.2])?;
            limit(&ctx, "columns", *columns, 1, 1000)?;
            limit(&ctx, "rows", *rows, 1, 1000)?;
            limit(&ctx, "depth", *depth, 1, 1000)?;
            if (*columns as u64) * (*rows as u64) * (*depth as u64) > 100_000 {
                return Err(c.err(&ctx, "columns", "a wall may have at most 100,000 boxes"));
            }
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::RandomHulls { name, count, points, region: (lo, hi), radius, material, .. } => {
            let ctx = ctx(name);
            limit(&ctx, "count", *count, 1, 10_000)?;
            limit(&ctx, "points", *points, 4, 1000)?;
            c.finite(&ctx, "region", &[lo.0, lo.1, lo.2, hi.0, hi.1, hi.2])?;
            if lo.0 > hi.0 || lo.1 > hi.1 || lo.2 > hi.2 {
                return Err(c.err(&ctx, "region", "the first corner must be ≤ the second on every axis"));
            }
            c.positive(&ctx, "radius", *radius)?;
            check_material(c, &ctx, material)
        }
    }
}

/// Validates `desc` and builds its world. `origin` names the source in messages.
pub fn build(desc: &SceneDesc, origin: &str) -> Result<LoadedScene, SceneError> {
    let c = Check { path: origin };
    c.positive("scene", "timestep", desc.timestep)?;
    c.finite("scene", "gravity", &[desc.gravity.0, desc.gravity.1, desc.gravity.2])?;
    if let Some(cam) = &desc.camera {
        c.finite("camera", "eye", &[cam.eye.0, cam.eye.1, cam.eye.2])?;
        c.finite("camera", "target", &[cam.target.0, cam.target.1, cam.target.2])?;
        c.positive("camera", "fov_deg", cam.fov_deg)?;
    }
    let s = &desc.solver;
    if s.iterations == 0 {
        return Err(c.err("solver", "iterations", "must be at least 1, got 0"));
    }
    if s.substeps == 0 {
        return Err(c.err("solver", "substeps", "must be at least 1, got 0"));
    }
    if s.iterations > 1000 || s.substeps > 1000 {
        return Err(c.err("solver", "iterations", "iterations and substeps must be at most 1000"));
    }
    for (f, v) in [
        ("contact_hertz", s.contact_hertz),
        ("damping_ratio", s.damping_ratio),
        ("slop", s.slop),
        ("restitution_threshold", s.restitution_threshold),
        ("sleep_linear", s.sleep_linear),
        ("sleep_angular", s.sleep_angular),
        ("sleep_time", s.sleep_time),
        ("margin", s.margin),
        ("recycle_distance", s.recycle_distance),
    ] {
        c.non_negative("solver", f, v)?;
    }
    c.positive("solver", "max_push_out", s.max_push_out)?;
    c.unit_interval("solver", "naive_correction", s.naive_correction)?;

    let mut all: Vec<BodyDescFile> = desc.bodies.clone();
    for g in &desc.generators {
        check_generator(&c, g)?;
        all.extend(generators::expand(g));
    }
    if all.len() > 100_000 {
        return Err(c.err("scene", "bodies", format!("at most 100,000 bodies, got {}", all.len())));
    }
    let mut world = World::new(v3(desc.gravity), s.settings());
    let mut colors = Vec::with_capacity(all.len());
    let mut names = HashSet::new();
    for b in &all {
        if b.name.is_empty() {
            return Err(c.err("a body", "name", "must not be empty"));
        }
        let ctx = format!("body '{}'", b.name);
        if !names.insert(b.name.clone()) {
            return Err(c.err(&ctx, "name", "is used by another body; names must be unique"));
        }
        let shape = shape(&c, &ctx, &b.shape)?;
        c.finite(&ctx, "position", &[b.position.0, b.position.1, b.position.2])?;
        c.finite(&ctx, "velocity", &[b.velocity.0, b.velocity.1, b.velocity.2])?;
        c.finite(&ctx, "angular_velocity", &[b.angular_velocity.0, b.angular_velocity.1, b.angular_velocity.2])?;
        let rot = rotation(&c, &ctx, &b.rotation)?;
        c.positive(&ctx, "density", b.density)?;
        if let Some(m) = b.mass {
            c.positive(&ctx, "mass", m)?;
        }
        c.non_negative(&ctx, "friction", b.friction)?;
        c.unit_interval(&ctx, "restitution", b.restitution)?;
        let kind = match b.kind {
            KindDesc::Dynamic => BodyKind::Dynamic,
            KindDesc::Static => BodyKind::Static,
        };
        let color = match b.color {
            Some(col) => {
                c.finite(&ctx, "color", &[col.0, col.1, col.2])?;
                [col.0, col.1, col.2]
            }
            None if kind == BodyKind::Static => STATIC_COLOR,
            None => PALETTE[colors.len() % PALETTE.len()],
        };
        let d = BodyDesc {
            name: b.name.clone(),
            shape,
            kind,
            position: v3(b.position),
            rotation: rot,
            velocity: v3(b.velocity),
            angular_velocity: v3(b.angular_velocity),
            density: b.density,
            mass: b.mass,
            friction: b.friction,
            restitution: b.restitution,
        };
        world.add_body(d).map_err(|e| c.err(&ctx, "mass", e.to_string()))?;
        colors.push(color);
    }
    for m in &desc.materials {
        let ctx = format!("material for '{}' and '{}'", m.a, m.b);
        let find = |n: &str, f: &str| {
            world
                .bodies()
                .iter()
                .position(|b| b.name == n)
                .ok_or_else(|| c.err(&ctx, f, format!("no body is named '{n}'")))
        };
        let (a, b) = (find(&m.a, "a")?, find(&m.b, "b")?);
        c.non_negative(&ctx, "friction", m.friction)?;
        c.unit_interval(&ctx, "restitution", m.restitution)?;
        world.pair_materials.push(crate::physics::world::PairMaterial {
            a: a as u32,
            b: b as u32,
            friction: m.friction,
            restitution: m.restitution,
        });
    }
    if let Some((a, b)) = &desc.view.selected {
        for n in [a, b] {
            if !names.contains(n) {
                return Err(c.err("view", "selected", format!("no body is named '{n}'")));
            }
        }
    }
    Ok(LoadedScene { desc: desc.clone(), world, colors })
}
