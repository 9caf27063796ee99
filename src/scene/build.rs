//! Validation and world building. Every check names the body and the field it concerns and
//! says what is allowed, so a user can fix the file without reading code. Numbers are held
//! to the documented valid ranges of [`crate::physics::limits`] (docs/scenes.md): sizes,
//! hull thickness and radius, density, mass, the mass ratio of the dynamic bodies,
//! positions, speeds, spins, the timestep, gravity and every solver setting.
//!
//! The shapes themselves are checked and built in `shapes.rs`.
//!
//! Limits: the mass ratio is checked over all dynamic bodies (any two may touch).

use super::format::*;
pub use super::shapes::hull_thickness;
use super::{generators, SceneError};
use crate::physics::joint::{JointDesc, JointKind, Motor, Spring, WORLD};
use crate::physics::limits::{self, Limit};
use crate::physics::world::{CharacterDesc, CharacterError, KinematicPath};
use crate::physics::{BodyDesc, BodyKind, World};
use glam::{Quat, Vec3};
use std::collections::HashSet;

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

    /// The pair the scene selects (`view.selected`), as body indices, if both names exist.
    pub fn selected_pair(&self) -> Option<(usize, usize)> {
        let (a, b) = self.desc.view.selected.as_ref()?;
        Some((self.body_index(a)?, self.body_index(b)?))
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
/// Colour of kinematic bodies with none of their own: a muted steel blue, apart from the
/// palette's colours and the static grey.
pub const KINEMATIC_COLOR: [f32; 3] = [0.36, 0.47, 0.62];

/// The scene's checks: each failure names the file, the body (or section) and the field.
pub(super) struct Check<'a> {
    /// The scene file (or the text's origin).
    pub(super) path: &'a str,
}

impl Check<'_> {
    pub(super) fn err(&self, context: impl Into<String>, field: &str, message: impl Into<String>) -> SceneError {
        SceneError::Invalid {
            path: self.path.to_string(),
            context: context.into(),
            field: field.to_string(),
            message: message.into(),
        }
    }

    pub(super) fn finite(&self, ctx: &str, field: &str, v: &[f32]) -> Result<(), SceneError> {
        if let Some(x) = v.iter().find(|x| !x.is_finite()) {
            return Err(self.err(ctx, field, format!("must be a finite number, got {x}")));
        }
        Ok(())
    }

    pub(super) fn positive(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if v <= 0.0 {
            return Err(self.err(ctx, field, format!("must be > 0, got {v}")));
        }
        Ok(())
    }

    pub(super) fn non_negative(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if v < 0.0 {
            return Err(self.err(ctx, field, format!("must be ≥ 0, got {v}")));
        }
        Ok(())
    }

    /// `v` within the documented range `lim` ([`crate::physics::limits`]).
    pub(super) fn limit(&self, ctx: &str, field: &str, v: f32, lim: Limit) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if !lim.contains(v) {
            return Err(self.err(ctx, field, format!("must be {}, got {v:?}", lim.describe())));
        }
        Ok(())
    }

    /// Every component of `v` within `lim`.
    pub(super) fn limit3(&self, ctx: &str, field: &str, v: V3, lim: Limit) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v.0, v.1, v.2])?;
        for x in [v.0, v.1, v.2] {
            if !lim.contains(x) {
                return Err(self.err(ctx, field, format!("every component must be {}, got {x:?}", lim.describe())));
            }
        }
        Ok(())
    }

    /// The length of `v` within `lim` (speeds, spins).
    pub(super) fn length(&self, ctx: &str, field: &str, v: V3, lim: Limit) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v.0, v.1, v.2])?;
        let len = v3(v).length();
        if !lim.contains(len) {
            return Err(self.err(ctx, field, format!("its length must be {}, got {len:?}", lim.describe())));
        }
        Ok(())
    }

    pub(super) fn unit_interval(&self, ctx: &str, field: &str, v: f32) -> Result<(), SceneError> {
        self.finite(ctx, field, &[v])?;
        if !(0.0..=1.0).contains(&v) {
            return Err(self.err(ctx, field, format!("must be between 0 and 1, got {v}")));
        }
        Ok(())
    }
}

pub(super) fn v3(v: V3) -> Vec3 {
    Vec3::new(v.0, v.1, v.2)
}

pub(super) fn rotation(c: &Check, ctx: &str, r: &RotationDesc) -> Result<Quat, SceneError> {
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

fn check_material(c: &Check, ctx: &str, m: &GenMaterial) -> Result<(), SceneError> {
    c.positive(ctx, "material.density", m.density)?;
    c.limit(ctx, "material.density", m.density, limits::DENSITY)?;
    c.non_negative(ctx, "material.friction", m.friction)?;
    c.limit(ctx, "material.friction", m.friction, limits::FRICTION)?;
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
            c.limit3(&ctx, "base", *base, limits::POSITION)?;
            limit(&ctx, "count", *count, 1, 10_000)?;
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
                c.limit(&ctx, "half_extents", v, limits::HALF_SIZE)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::Pyramid { name, base, layers, half_extents: h, gap, material } => {
            let ctx = ctx(name);
            c.limit3(&ctx, "base", *base, limits::POSITION)?;
            limit(&ctx, "layers", *layers, 1, 200)?;
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
                c.limit(&ctx, "half_extents", v, limits::HALF_SIZE)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::Wall { name, base, columns, rows, depth, half_extents: h, gap, material, .. } => {
            let ctx = ctx(name);
            c.limit3(&ctx, "base", *base, limits::POSITION)?;
            limit(&ctx, "columns", *columns, 1, 1000)?;
            limit(&ctx, "rows", *rows, 1, 1000)?;
            limit(&ctx, "depth", *depth, 1, 1000)?;
            if (*columns as u64) * (*rows as u64) * (*depth as u64) > 100_000 {
                return Err(c.err(&ctx, "columns", "a wall may have at most 100,000 boxes"));
            }
            for v in [h.0, h.1, h.2] {
                c.positive(&ctx, "half_extents", v)?;
                c.limit(&ctx, "half_extents", v, limits::HALF_SIZE)?;
            }
            c.non_negative(&ctx, "gap", *gap)?;
            check_material(c, &ctx, material)
        }
        Generator::RandomHulls { name, count, points, region: (lo, hi), radius, material, .. } => {
            let ctx = ctx(name);
            limit(&ctx, "count", *count, 1, 10_000)?;
            limit(&ctx, "points", *points, 4, 1000)?;
            c.limit3(&ctx, "region", *lo, limits::POSITION)?;
            c.limit3(&ctx, "region", *hi, limits::POSITION)?;
            if lo.0 > hi.0 || lo.1 > hi.1 || lo.2 > hi.2 {
                return Err(c.err(&ctx, "region", "the first corner must be ≤ the second on every axis"));
            }
            c.positive(&ctx, "radius", *radius)?;
            c.limit(&ctx, "radius", *radius, limits::HULL_RADIUS)?;
            check_material(c, &ctx, material)
        }
    }
}

/// The name and mass of the lightest or heaviest dynamic body so far.
type Extreme<'a> = Option<(&'a str, f32)>;

/// Validates `desc` and builds its world. `origin` names the source in messages.
pub fn build(desc: &SceneDesc, origin: &str) -> Result<LoadedScene, SceneError> {
    let c = Check { path: origin };
    c.positive("scene", "timestep", desc.timestep)?;
    c.limit("scene", "timestep", desc.timestep, limits::TIMESTEP)?;
    c.finite("scene", "gravity", &[desc.gravity.0, desc.gravity.1, desc.gravity.2])?;
    c.limit3("scene", "gravity", desc.gravity, limits::GRAVITY)?;
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
    if s.threads as usize > crate::physics::parallel::MAX_THREADS {
        let most = crate::physics::parallel::MAX_THREADS;
        return Err(c.err("solver", "threads", format!("must be at most {most} (0: every core), got {}", s.threads)));
    }
    let (lo, hi) = limits::MAX_SUB_EVENTS;
    if !(lo..=hi).contains(&s.max_sub_events) {
        return Err(c.err(
            "solver",
            "max_sub_events",
            format!("must be between {lo} and {hi}, got {}", s.max_sub_events),
        ));
    }
    let (lo, hi) = limits::CYCLONE_ITERATIONS;
    for (f, v) in [
        ("cyclone_position_iterations", s.cyclone_position_iterations),
        ("cyclone_velocity_iterations", s.cyclone_velocity_iterations),
    ] {
        if !(lo..=hi).contains(&v) {
            return Err(c.err("solver", f, format!("must be between {lo} and {hi} (per contact point), got {v}")));
        }
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
    for (f, v, lim) in limits::settings_fields(s) {
        c.limit("solver", f, v, lim)?;
    }

    let mut all: Vec<BodyDescFile> = desc.bodies.clone();
    for g in &desc.generators {
        check_generator(&c, g)?;
        all.extend(generators::expand(g));
    }
    if all.len() > 100_000 {
        return Err(c.err("scene", "bodies", format!("at most 100,000 bodies, got {}", all.len())));
    }
    let mut world = World::new(v3(desc.gravity), *s);
    let mut colors = Vec::with_capacity(all.len());
    let mut names = HashSet::new();
    // (name, mass) of the lightest and the heaviest dynamic body, for the mass ratio.
    let (mut lightest, mut heaviest): (Extreme, Extreme) = (None, None);
    for b in &all {
        if b.name.is_empty() {
            return Err(c.err("a body", "name", "must not be empty"));
        }
        let ctx = format!("body '{}'", b.name);
        if !names.insert(b.name.clone()) {
            return Err(c.err(&ctx, "name", "is used by another body; names must be unique"));
        }
        let shape = super::shapes::shape(&c, &ctx, &b.shape)?;
        if shape.mesh().is_some() && b.kind != KindDesc::Static {
            let msg = "a triangle mesh (Mesh, Obj, Heightfield, Stairs, Ramp) has no volume, so it can only be static: add kind: Static";
            return Err(c.err(&ctx, "kind", msg));
        }
        c.limit3(&ctx, "position", b.position, limits::POSITION)?;
        c.length(&ctx, "velocity", b.velocity, limits::SPEED)?;
        c.length(&ctx, "angular_velocity", b.angular_velocity, limits::SPIN)?;
        let rot = rotation(&c, &ctx, &b.rotation)?;
        c.positive(&ctx, "density", b.density)?;
        c.limit(&ctx, "density", b.density, limits::DENSITY)?;
        if let Some(m) = b.mass {
            c.positive(&ctx, "mass", m)?;
        }
        let mass = b.mass.unwrap_or_else(|| shape.mass_properties(b.density).mass);
        if b.kind == KindDesc::Dynamic {
            if !limits::MASS.contains(mass) {
                let how = if b.mass.is_some() { "" } else { " (density × volume)" };
                return Err(c.err(&ctx, "mass", format!("must be {}, got {mass:?}{how}", limits::MASS.describe())));
            }
            if b.mass.is_some() {
                let v = shape.volume();
                let d = mass / v;
                if !limits::DENSITY.contains(d) {
                    return Err(c.err(
                        &ctx,
                        "mass",
                        format!(
                            "must give a density {} over the shape's {v:?} m³, got {d:?} kg/m³ ({mass:?} kg)",
                            limits::DENSITY.describe()
                        ),
                    ));
                }
            }
            match lightest {
                Some((_, m)) if m <= mass => {}
                _ => lightest = Some((b.name.as_str(), mass)),
            }
            match heaviest {
                Some((_, m)) if m >= mass => {}
                _ => heaviest = Some((b.name.as_str(), mass)),
            }
        }
        c.non_negative(&ctx, "friction", b.friction)?;
        c.limit(&ctx, "friction", b.friction, limits::FRICTION)?;
        c.unit_interval(&ctx, "restitution", b.restitution)?;
        c.non_negative(&ctx, "rolling_resistance", b.rolling_resistance)?;
        c.limit(&ctx, "rolling_resistance", b.rolling_resistance, limits::ROLLING_RESISTANCE)?;
        let kind = match b.kind {
            KindDesc::Dynamic => BodyKind::Dynamic,
            KindDesc::Static => BodyKind::Static,
            KindDesc::Kinematic => BodyKind::Kinematic,
        };
        let color = match b.color {
            Some(col) => {
                c.finite(&ctx, "color", &[col.0, col.1, col.2])?;
                [col.0, col.1, col.2]
            }
            None if kind == BodyKind::Static => STATIC_COLOR,
            None if kind == BodyKind::Kinematic => KINEMATIC_COLOR,
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
            rolling_resistance: b.rolling_resistance,
            bullet: b.bullet,
        };
        let h = world.add_body(d).map_err(|e| c.err(&ctx, "mass", e.to_string()))?;
        if let Some(path) = &b.path {
            if kind != BodyKind::Kinematic {
                return Err(c.err(&ctx, "path", "only a kinematic body follows a path: add kind: Kinematic"));
            }
            if path.points.is_empty() {
                return Err(c.err(&ctx, "path", "needs at least one point"));
            }
            for p in &path.points {
                c.limit3(&ctx, "path", *p, limits::POSITION)?;
            }
            c.positive(&ctx, "path", path.speed)?;
            c.limit(&ctx, "path", path.speed, limits::SPEED)?;
            let path = KinematicPath {
                points: path.points.iter().map(|p| v3(*p)).collect(),
                speed: path.speed,
                looping: path.looping,
            };
            world.set_kinematic_path(h, path).map_err(|e| c.err(&ctx, "path", e.to_string()))?;
        }
        colors.push(color);
    }
    if let (Some((light, ml)), Some((heavy, mh))) = (lightest, heaviest) {
        if mh > limits::MAX_MASS_RATIO * ml {
            return Err(c.err(
                format!("body '{heavy}'"),
                "mass",
                format!(
                    "is {mh} kg, {:.0} times body '{light}' ({ml} kg); dynamic bodies may differ in mass by at most {}×",
                    mh / ml,
                    limits::MAX_MASS_RATIO
                ),
            ));
        }
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
        c.limit(&ctx, "friction", m.friction, limits::FRICTION)?;
        c.unit_interval(&ctx, "restitution", m.restitution)?;
        world.pair_materials.push(crate::physics::world::PairMaterial {
            a: a as u32,
            b: b as u32,
            friction: m.friction,
            restitution: m.restitution,
        });
    }
    for jd in &desc.joints {
        let j = joint(&c, jd, &world, &desc.joints)?;
        let ctx = format!("joint '{}'", jd.name);
        world.add_joint(j).map_err(|e| c.err(&ctx, "kind", e.to_string()))?;
    }
    for cd in &desc.characters {
        let ctx = format!("character '{}'", cd.name);
        if cd.name.is_empty() {
            return Err(c.err("a character", "name", "must not be empty"));
        }
        if desc.characters.iter().filter(|o| o.name == cd.name).count() > 1 {
            return Err(c.err(&ctx, "name", "is used by another character; character names must be unique"));
        }
        let v = |t: V3| Vec3::new(t.0, t.1, t.2);
        let d = CharacterDesc {
            name: cd.name.clone(),
            radii: v(cd.radii),
            position: v(cd.position),
            path: cd.path.iter().map(|&p| v(p)).collect(),
            speed: cd.speed,
            looping: cd.looping,
            mass: cd.mass,
            max_push_force: cd.max_push_force,
        };
        world.add_character(d).map_err(|e| {
            let field = match &e {
                CharacterError::Radii(..) => "radii",
                CharacterError::NotFinite(..) => "position",
                CharacterError::OutOfRange(_, what, ..) => what,
            };
            c.err(&ctx, field, e.to_string())
        })?;
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

/// Checks one joint of a file and turns it into the physics' description: every message
/// names the joint and the field.
fn joint(c: &Check, jd: &JointDescFile, world: &World, all: &[JointDescFile]) -> Result<JointDesc, SceneError> {
    if jd.name.is_empty() {
        return Err(c.err("a joint", "name", "must not be empty"));
    }
    let ctx = format!("joint '{}'", jd.name);
    let ctx = ctx.as_str();
    if all.iter().filter(|o| o.name == jd.name).count() > 1 {
        return Err(c.err(ctx, "name", "is used by another joint; joint names must be unique"));
    }
    let find = |field: &str, n: &str| -> Result<u32, SceneError> {
        if n == WORLD_NAME {
            return Ok(WORLD);
        }
        world.bodies().iter().position(|b| b.name == n).map(|i| i as u32).ok_or_else(|| {
            c.err(ctx, field, format!("no body is named '{n}' (write \"{WORLD_NAME}\" for the fixed world)"))
        })
    };
    let (a, b) = (find("a", &jd.a)?, find("b", &jd.b)?);
    if a == b {
        let what = if a == WORLD { "both ends are the world" } else { "a joint of a body to itself" };
        return Err(c.err(ctx, "b", format!("{what}: a joint needs two different bodies, or a body and the world")));
    }
    let moving = |i: u32| i != WORLD && world.bodies()[i as usize].is_dynamic();
    if !moving(a) && !moving(b) {
        let msg = "joins two bodies that never move (static or the world) or move on their own (kinematic): one must be dynamic";
        return Err(c.err(ctx, "b", msg));
    }
    c.limit3(ctx, "anchor", jd.anchor, limits::POSITION)?;
    for (f, v) in [("break_force", jd.break_force), ("break_torque", jd.break_torque)] {
        if let Some(v) = v {
            c.positive(ctx, f, v)?;
        }
    }
    let axis = |field: &str, v: V3| -> Result<Vec3, SceneError> {
        c.finite(ctx, field, &[v.0, v.1, v.2])?;
        let a = v3(v);
        if a.length() < 1e-6 {
            return Err(c.err(ctx, field, "must not be zero (it gives the joint's direction)"));
        }
        Ok(a.normalize())
    };
    let range = |field: &str, r: Option<(f32, f32)>, lo: f32, hi: f32, unit: &str| -> Result<(), SceneError> {
        if let Some((l, h)) = r {
            c.finite(ctx, field, &[l, h])?;
            if l > h {
                return Err(c.err(
                    ctx,
                    field,
                    format!("limits out of order: the lower ({l}) must be ≤ the upper ({h})"),
                ));
            }
            if l < lo || h > hi {
                return Err(c.err(ctx, field, format!("must lie within {lo} – {hi} {unit}, got ({l}, {h})")));
            }
        }
        Ok(())
    };
    let spring = |field: &str, hertz: f32, ratio: f32| -> Result<Spring, SceneError> {
        c.non_negative(ctx, field, hertz)?;
        c.limit(ctx, field, hertz, limits::JOINT_HERTZ)?;
        c.non_negative(ctx, field, ratio)?;
        c.limit(ctx, field, ratio, limits::DAMPING_RATIO)?;
        Ok(Spring { hertz, damping_ratio: ratio })
    };
    let torque_motor = |m: Option<TorqueMotorDesc>| -> Result<Option<Motor>, SceneError> {
        m.map(|m| {
            c.finite(ctx, "motor.speed", &[m.speed])?;
            c.non_negative(ctx, "motor.max_torque", m.max_torque)?;
            Ok(Motor { speed: m.speed.to_radians(), max: m.max_torque })
        })
        .transpose()
    };
    let point = |field: &str, p: V3| -> Result<Vec3, SceneError> {
        c.limit3(ctx, field, p, limits::POSITION)?;
        Ok(v3(p))
    };
    let deg = |r: Option<(f32, f32)>| r.map(|(l, h)| (l.to_radians(), h.to_radians()));
    let anchor = v3(jd.anchor);
    let kind = match &jd.kind {
        JointKindDesc::Ball => JointKind::Ball,
        JointKindDesc::Distance { anchor_b, length, min, max, spring: s } => {
            let anchor_b = point("anchor_b", *anchor_b)?;
            let length = match length {
                Some(l) => {
                    c.positive(ctx, "length", *l)?;
                    *l
                }
                None => (anchor_b - anchor).length(),
            };
            for (f, v) in [("min", min), ("max", max)] {
                if let Some(v) = v {
                    c.non_negative(ctx, f, *v)?;
                }
            }
            if let (Some(l), Some(h)) = (min, max) {
                if l > h {
                    return Err(c.err(ctx, "min", format!("limits out of order: min ({l}) must be ≤ max ({h})")));
                }
            }
            if s.is_none() && min.is_none() && max.is_none() && length < 1e-3 {
                return Err(c.err(ctx, "length", "a rigid distance needs a length ≥ 1 mm (use a Ball joint)"));
            }
            let s = s.map(|(h, r)| spring("spring", h, r)).transpose()?;
            JointKind::Distance { anchor_b, length, min: *min, max: *max, spring: s }
        }
        JointKindDesc::Hinge { axis: ax, limits: l, motor } => {
            let axis = axis("axis", *ax)?;
            range("limits", *l, -180.0, 180.0, "degrees")?;
            JointKind::Hinge { axis, limits: deg(*l), motor: torque_motor(*motor)? }
        }
        JointKindDesc::Slider { axis: ax, limits: l, motor } => {
            let axis = axis("axis", *ax)?;
            range("limits", *l, -1e4, 1e4, "m")?;
            let motor = motor
                .map(|m| {
                    c.finite(ctx, "motor.speed", &[m.speed])?;
                    c.non_negative(ctx, "motor.max_force", m.max_force)?;
                    Ok(Motor { speed: m.speed, max: m.max_force })
                })
                .transpose()?;
            JointKind::Slider { axis, limits: *l, motor }
        }
        JointKindDesc::Weld { linear_hertz, angular_hertz, damping_ratio } => {
            spring("linear_hertz", *linear_hertz, *damping_ratio)?;
            spring("angular_hertz", *angular_hertz, *damping_ratio)?;
            JointKind::Weld {
                linear_hertz: *linear_hertz,
                angular_hertz: *angular_hertz,
                damping_ratio: *damping_ratio,
            }
        }
        JointKindDesc::Angle { axis: ax, cone, twist } => {
            let axis = axis("axis", *ax)?;
            if let Some(cn) = cone {
                c.finite(ctx, "cone", &[*cn])?;
                if !(*cn > 0.0 && *cn <= 180.0) {
                    return Err(c.err(ctx, "cone", format!("must be in (0, 180] degrees, got {cn}")));
                }
            }
            range("twist", *twist, -180.0, 180.0, "degrees")?;
            JointKind::Angle { axis, cone: cone.map(f32::to_radians), twist: deg(*twist) }
        }
        JointKindDesc::Wheel { axis: ax, spin_axis, hertz, damping_ratio, limits: l, motor } => {
            let axis = axis("axis", *ax)?;
            let spin_axis = self::axis_named(c, ctx, "spin_axis", *spin_axis)?;
            range("limits", *l, -1e4, 1e4, "m")?;
            let spring = spring("hertz", *hertz, *damping_ratio)?;
            JointKind::Wheel { axis, spin_axis, spring, limits: *l, motor: torque_motor(*motor)? }
        }
        JointKindDesc::Pulley { ground_a, ground_b, anchor_b, ratio } => {
            let (ga, gb, pb) =
                (point("ground_a", *ground_a)?, point("ground_b", *ground_b)?, point("anchor_b", *anchor_b)?);
            c.positive(ctx, "ratio", *ratio)?;
            if !(0.01..=100.0).contains(ratio) {
                return Err(c.err(ctx, "ratio", format!("must be between 0.01 and 100, got {ratio}")));
            }
            if (anchor - ga).length() < 1e-3 {
                return Err(c.err(ctx, "ground_a", "must be at least 1 mm from the anchor"));
            }
            if (pb - gb).length() < 1e-3 {
                return Err(c.err(ctx, "ground_b", "must be at least 1 mm from anchor_b"));
            }
            JointKind::Pulley { ground_a: ga, ground_b: gb, anchor_b: pb, ratio: *ratio }
        }
    };
    Ok(JointDesc {
        name: jd.name.clone(),
        kind,
        a,
        b,
        anchor,
        break_force: jd.break_force,
        break_torque: jd.break_torque,
        collide: jd.collide,
    })
}

/// A non-zero finite axis, normalised.
fn axis_named(c: &Check, ctx: &str, field: &str, v: V3) -> Result<Vec3, SceneError> {
    c.finite(ctx, field, &[v.0, v.1, v.2])?;
    let a = v3(v);
    if a.length() < 1e-6 {
        return Err(c.err(ctx, field, "must not be zero (it gives the joint's direction)"));
    }
    Ok(a.normalize())
}
