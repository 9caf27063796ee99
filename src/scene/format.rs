//! The scene file format (RON via serde). Field-by-field documentation with defaults lives
//! in docs/scenes.md; every struct here rejects unknown fields so a typo is an error that
//! lists the valid names, not a silently ignored setting.

use crate::physics::{ContinuousMode, Settings, SolverMode};
use serde::{Deserialize, Serialize};

/// A 3-vector written `(x, y, z)`.
pub type V3 = (f32, f32, f32);

fn default_gravity() -> V3 {
    (0.0, -9.81, 0.0)
}
fn default_timestep() -> f32 {
    1.0 / 60.0
}
fn default_density() -> f32 {
    1000.0
}
fn default_friction() -> f32 {
    0.5
}

/// A whole scene.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename = "Scene")]
pub struct SceneDesc {
    /// Title shown in the UI.
    pub name: String,
    /// What to look at (shown in the scene picker).
    #[serde(default)]
    pub description: String,
    /// Gravity (m/s²).
    #[serde(default = "default_gravity")]
    pub gravity: V3,
    /// Fixed simulation step (s).
    #[serde(default = "default_timestep")]
    pub timestep: f32,
    /// Solver settings; unspecified fields take their defaults.
    #[serde(default, with = "SettingsDef")]
    pub solver: Settings,
    /// Initial camera, written `camera: (eye: …, target: …)`. When a scene sets none, the
    /// testbed frames the bodies' bounds over the first seconds instead.
    #[serde(
        default,
        deserialize_with = "some_camera",
        serialize_with = "bare_camera",
        skip_serializing_if = "Option::is_none"
    )]
    pub camera: Option<CameraDesc>,
    /// Initial overlays and selection.
    #[serde(default)]
    pub view: ViewDesc,
    /// Bodies listed one by one.
    #[serde(default)]
    pub bodies: Vec<BodyDescFile>,
    /// Bodies made by generators (stacks, pyramids, walls, random hulls).
    #[serde(default)]
    pub generators: Vec<Generator>,
    /// Per-pair friction/restitution overrides.
    #[serde(default)]
    pub materials: Vec<PairMaterialDesc>,
    /// Joints between bodies, or between a body and the world (`"world"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub joints: Vec<JointDescFile>,
    /// Collide-and-slide characters (Fauerby's ellipsoids, `physics::character`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub characters: Vec<CharacterDescFile>,
}

fn default_radii() -> V3 {
    (0.3, 0.9, 0.3)
}

fn default_character_mass() -> f32 {
    80.0
}

fn default_push_force() -> f32 {
    2000.0
}

/// A character in a scene file:
/// `(name: "walker", radii: (0.3, 0.9, 0.3), position: (0.0, 1.0, 0.0), path: [(4.0, 0.0, 0.0)], speed: 2.0)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CharacterDescFile {
    /// Unique name.
    pub name: String,
    /// Ellipsoid semi-axes (m), 0.01 – 10 each.
    #[serde(default = "default_radii")]
    pub radii: V3,
    /// Centre at the start (m).
    pub position: V3,
    /// Waypoints walked to in turn (heights ignored: it walks horizontally and falls).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub path: Vec<V3>,
    /// Walking speed along the path (m/s), 0 – 50.
    #[serde(default)]
    pub speed: f32,
    /// Start the path again after its last waypoint.
    #[serde(default)]
    pub looping: bool,
    /// Mass for pushing bodies (kg), 0.1 – 10⁵.
    #[serde(default = "default_character_mass")]
    pub mass: f32,
    /// Largest pushing force (N), 0 – 10⁶.
    #[serde(default = "default_push_force")]
    pub max_push_force: f32,
}

/// How `SolverMode` is written in files (`Naive`, `Iterative`, `Cyclone`, `Averaged`): serde's remote derive of
/// the physics enum, so the file format, the command line and the panel share one type.
#[derive(Serialize, Deserialize)]
#[serde(remote = "SolverMode")]
enum SolverModeDef {
    Naive,
    Iterative,
    Cyclone,
    Averaged,
}

/// How `ContinuousMode` is written in files (`Off`, `Fast`, `EarliestCollision`).
#[derive(Serialize, Deserialize)]
#[serde(remote = "ContinuousMode")]
enum ContinuousModeDef {
    Off,
    Fast,
    EarliestCollision,
}

/// How [`Settings`] is written in files, field for field (serde's remote derive: the
/// physics type itself is what a scene holds, and the physics module stays free of serde).
/// Every field is optional and takes its default; the fields are documented on
/// [`Settings`] and in docs/scenes.md.
#[derive(Serialize, Deserialize)]
#[serde(remote = "Settings", deny_unknown_fields, default = "Settings::default")]
pub struct SettingsDef {
    #[serde(with = "SolverModeDef")]
    mode: SolverMode,
    iterations: u32,
    substeps: u32,
    warm_starting: bool,
    contact_hertz: f32,
    damping_ratio: f32,
    max_push_out: f32,
    slop: f32,
    restitution_threshold: f32,
    naive_correction: f32,
    sleeping: bool,
    sleep_linear: f32,
    sleep_angular: f32,
    sleep_time: f32,
    margin: f32,
    recycle_distance: f32,
    simd: bool,
    cyclone_position_iterations: u32,
    cyclone_velocity_iterations: u32,
    cyclone_position_epsilon: f32,
    cyclone_velocity_epsilon: f32,
    cyclone_angular_limit: f32,
    joint_hertz: f32,
    joint_damping_ratio: f32,
    joint_warm_starting: bool,
    path_test: bool,
    #[serde(with = "ContinuousModeDef")]
    ccd: ContinuousMode,
    simplex_cache: bool,
    closed_form_distance: bool,
    max_sub_events: u32,
    threads: u32,
}

/// Reads `camera: (…)` as `Some(…)`: files keep writing the camera without `Some`.
fn some_camera<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<CameraDesc>, D::Error> {
    CameraDesc::deserialize(d).map(Some)
}

/// Writes a scene's camera as it is read: the struct, without `Some` (only called for a
/// camera: none is skipped).
fn bare_camera<S: serde::Serializer>(c: &Option<CameraDesc>, s: S) -> Result<S::Ok, S::Error> {
    match c {
        Some(c) => c.serialize(s),
        None => s.serialize_none(),
    }
}

/// Camera placement.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CameraDesc {
    /// Eye position.
    pub eye: V3,
    /// Point looked at.
    pub target: V3,
    /// Vertical field of view (degrees).
    pub fov_deg: f32,
}

impl Default for CameraDesc {
    fn default() -> Self {
        CameraDesc { eye: (6.0, 5.0, 9.0), target: (0.0, 1.0, 0.0), fov_deg: 45.0 }
    }
}

/// Debug overlays that can be switched on (in a scene file as `Contacts`, …; on the command
/// line as `--overlay contacts,…`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, clap::ValueEnum)]
pub enum Overlay {
    /// Contact points coloured by depth.
    Contacts,
    /// Contact normals.
    Normals,
    /// Normal and friction impulses as arrows.
    Impulses,
    /// Bounding boxes.
    Aabbs,
    /// The broad phase's enlarged boxes (Box2D's fat AABBs), whose grid pairs are kept
    /// while every body stays inside its own.
    EnlargedAabbs,
    /// The selected pair's clip polygons.
    Clip,
    /// The selected pair's Gauss maps.
    Gauss,
    /// The selected pair's Minkowski difference.
    Minkowski,
    /// Wireframe shapes.
    Wireframe,
    /// Body axes.
    Axes,
    /// Continuous collision: each body that had a time of impact in the step, tinted, with
    /// ghosts of its shape at the step's start, at the impact and where the step would have
    /// ended (Box2D's "Time of Impact" sample).
    Toi,
    /// Continuous collision: the bounds of those bodies' sweeps.
    SweptBounds,
    /// One level of the triangle meshes' bounding volume hierarchies (the level is chosen
    /// in the panel; level 0, the root, at load).
    Bvh,
    /// The solver's graph: each contact point in the colour of the graph colour its
    /// manifold was solved in (the batches the parallel solve shares out; black: left
    /// without a colour, solved after them), each joint's anchor in its graph colour (when
    /// the joints are coloured: from 64 on), and each dynamic body in its island's colour.
    /// A sleeping island is not solved, so its contacts and joints have no dot; the legend
    /// counts the islands asleep.
    Graph,
}

/// Initial view state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct ViewDesc {
    /// Overlays switched on at load.
    pub overlays: Vec<Overlay>,
    /// Pair selected at load, by body names.
    pub selected: Option<(String, String)>,
}

/// Collision shapes in files.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum ShapeDesc {
    /// Box with half extents (m).
    Box {
        /// Half extents.
        half_extents: V3,
    },
    /// Sphere.
    Sphere {
        /// Radius (m).
        radius: f32,
    },
    /// Capsule along local Y.
    Capsule {
        /// Radius (m).
        radius: f32,
        /// Half length of the core segment (m).
        half_height: f32,
    },
    /// Convex hull of points (quickhull).
    Hull {
        /// The point cloud.
        points: Vec<V3>,
    },
    /// Hull from vertices and faces (counter-clockwise from outside).
    HullFaces {
        /// Vertices.
        vertices: Vec<V3>,
        /// Faces as vertex index lists.
        faces: Vec<Vec<u32>>,
    },
    /// Faceted cylinder along local Y.
    Cylinder {
        /// Radius (m).
        radius: f32,
        /// Half height (m).
        half_height: f32,
        /// Number of sides (≥ 3).
        segments: u32,
    },
    /// Static triangle mesh given inline: vertices and a flat index list, three per
    /// triangle, counter-clockwise seen from the side bodies are on.
    Mesh {
        /// Vertices (m, body frame).
        vertices: Vec<V3>,
        /// Triangle corners, three per triangle.
        indices: Vec<u32>,
    },
    /// Static triangle mesh read from a Wavefront OBJ file (every object in it merged;
    /// polygons triangulated as fans).
    Obj {
        /// File, relative to the scene file's folder.
        path: String,
        /// Uniform scale applied to the file's coordinates.
        #[serde(default = "one_f32")]
        scale: f32,
    },
    /// Static heightfield terrain: `cells.0 × cells.1` squares of side `cell`, centred on
    /// the body origin, two triangles each.
    Heightfield {
        /// Cells along x and z.
        cells: (u32, u32),
        /// Side of a cell (m).
        cell: f32,
        /// The height of every grid point.
        heights: HeightsDesc,
    },
    /// Static stairs climbing along +x from the body origin (risers and treads).
    Stairs {
        /// Number of steps.
        steps: u32,
        /// Height of a step (m).
        rise: f32,
        /// Depth of a step (m).
        run: f32,
        /// Width (m, along z).
        width: f32,
    },
    /// Several convex shapes moving as one body, each at its position and rotation in the
    /// body's frame. Children are boxes, spheres, capsules, hulls or cylinders (not meshes,
    /// nor compounds); the body's centre of mass is theirs together, at one density.
    Compound {
        /// The shapes and their poses.
        children: Vec<ChildDesc>,
    },
    /// A static flat ramp rising along +x from the body origin.
    Ramp {
        /// Slope (degrees).
        angle_deg: f32,
        /// Length along the slope (m).
        length: f32,
        /// Width (m, along z).
        width: f32,
    },
}

/// One shape of a compound, at its pose in the body's frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChildDesc {
    /// The shape.
    pub shape: ShapeDesc,
    /// Its position in the body's frame (m).
    #[serde(default)]
    pub position: V3,
    /// Its orientation in the body's frame.
    #[serde(default)]
    pub rotation: RotationDesc,
}

/// Heights of a heightfield's grid points.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum HeightsDesc {
    /// Rolling hills: `amplitude · sin(2πx/wavelength) · cos(2πz/wavelength)`.
    Waves {
        /// Peak height (m).
        amplitude: f32,
        /// Distance between two peaks (m).
        wavelength: f32,
    },
    /// One height per grid point, x-major: the point (i, k) — i along x (0..=cells.0), k
    /// along z (0..=cells.1) — is entry `i·(cells.1 + 1) + k`.
    Values(Vec<f32>),
}

/// Orientation in files.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum RotationDesc {
    /// Quaternion (x, y, z, w); normalised on load.
    Quat(f32, f32, f32, f32),
    /// Rotation of `angle` degrees about `axis`.
    AxisAngleDeg {
        /// Axis (normalised on load).
        axis: V3,
        /// Angle in degrees.
        angle: f32,
    },
    /// Rotations in degrees about the fixed X, then Y, then Z axes.
    EulerDeg(f32, f32, f32),
}

impl Default for RotationDesc {
    fn default() -> Self {
        RotationDesc::Quat(0.0, 0.0, 0.0, 1.0)
    }
}

/// Dynamic, static or kinematic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum KindDesc {
    /// Moves under gravity and contacts.
    #[default]
    Dynamic,
    /// Fixed.
    Static,
    /// Moves at its `velocity` and `angular_velocity` for ever, pushing dynamic bodies and
    /// not pushed back (a moving platform, a turntable, a paddle).
    Kinematic,
}

/// One body in a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDescFile {
    /// Unique name.
    pub name: String,
    /// Shape.
    pub shape: ShapeDesc,
    /// Dynamic (the default), static or kinematic.
    #[serde(default)]
    pub kind: KindDesc,
    /// Position of the body's frame.
    #[serde(default)]
    pub position: V3,
    /// Orientation.
    #[serde(default)]
    pub rotation: RotationDesc,
    /// Linear velocity (m/s).
    #[serde(default)]
    pub velocity: V3,
    /// Angular velocity (rad/s).
    #[serde(default)]
    pub angular_velocity: V3,
    /// Density (kg/m³).
    #[serde(default = "default_density")]
    pub density: f32,
    /// Mass (kg); overrides density.
    #[serde(default)]
    pub mass: Option<f32>,
    /// Friction coefficient.
    #[serde(default = "default_friction")]
    pub friction: f32,
    /// Restitution in [0, 1].
    #[serde(default)]
    pub restitution: f32,
    /// Rolling resistance (`physics::BodyDesc::rolling_resistance`, 0–1; default 0, rolls
    /// freely).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Display colour (linear RGB, 0–1); a palette colour if absent.
    #[serde(default)]
    pub color: Option<V3>,
    /// A bullet: continuous collision against dynamic bodies too (default false).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bullet: bool,
    /// A kinematic body's path (`physics::world::KinematicPath`): the points its frame goes
    /// to in turn, at a speed, then back (or round, `looping`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<PathDesc>,
}

/// A kinematic body's path in a file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathDesc {
    /// The points the body's frame origin goes to in turn (m).
    pub points: Vec<V3>,
    /// Speed along the path (m/s).
    pub speed: f32,
    /// After the last point, on to the first (a circuit); otherwise back through the points
    /// in reverse (a shuttle, the default).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub looping: bool,
}

/// Material shared by generated bodies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenMaterial {
    /// Density.
    pub density: f32,
    /// Friction.
    pub friction: f32,
    /// Restitution.
    pub restitution: f32,
    /// Rolling resistance (default 0).
    #[serde(skip_serializing_if = "is_zero")]
    pub rolling_resistance: f32,
    /// Colour, or the palette.
    pub color: Option<V3>,
}

impl Default for GenMaterial {
    fn default() -> Self {
        GenMaterial { density: 1000.0, friction: 0.5, restitution: 0.0, rolling_resistance: 0.0, color: None }
    }
}

/// Whether a value left at its default 0 is written (it is not: files stay as they were).
fn is_zero(x: &f32) -> bool {
    *x == 0.0
}

/// Generators expand into many bodies named `{name}{index}` (or `{name}{row}_{col}`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum Generator {
    /// A vertical column of boxes resting on `base` (the bottom face's centre).
    Stack {
        /// Name prefix.
        name: String,
        /// Centre of the bottom face of the lowest box.
        base: V3,
        /// Number of boxes.
        count: u32,
        /// Box half extents.
        half_extents: V3,
        /// Vertical gap between boxes (m).
        #[serde(default)]
        gap: f32,
        /// Material.
        #[serde(default)]
        material: GenMaterial,
    },
    /// A 2D pyramid of boxes in the XY plane: `layers` rows, each one box shorter.
    Pyramid {
        /// Name prefix.
        name: String,
        /// Centre of the bottom row's bottom face.
        base: V3,
        /// Number of rows (the bottom row has this many boxes).
        layers: u32,
        /// Box half extents.
        half_extents: V3,
        /// Horizontal gap between neighbours (m).
        #[serde(default = "default_pyramid_gap")]
        gap: f32,
        /// Material.
        #[serde(default)]
        material: GenMaterial,
    },
    /// A wall (or a grid, with `depth` > 1) of boxes, rows optionally offset like bricks.
    Wall {
        /// Name prefix.
        name: String,
        /// Centre of the bottom row's bottom face.
        base: V3,
        /// Boxes per row (along X).
        columns: u32,
        /// Rows (along Y).
        rows: u32,
        /// Layers (along Z).
        #[serde(default = "one")]
        depth: u32,
        /// Box half extents.
        half_extents: V3,
        /// Gap between boxes (m).
        #[serde(default)]
        gap: f32,
        /// Offset every other row by half a box.
        #[serde(default)]
        bricks: bool,
        /// Material.
        #[serde(default)]
        material: GenMaterial,
    },
    /// Random convex hulls dropped in a region; their bounding spheres do not overlap.
    RandomHulls {
        /// Name prefix.
        name: String,
        /// Number of hulls.
        count: u32,
        /// Points per hull (≥ 4).
        points: u32,
        /// Random seed.
        seed: u64,
        /// Region the hull centres are spread over: (min, max).
        region: (V3, V3),
        /// Radius of the ball the points are drawn from (m).
        #[serde(default = "default_hull_radius")]
        radius: f32,
        /// Material.
        #[serde(default)]
        material: GenMaterial,
    },
}

fn default_pyramid_gap() -> f32 {
    0.05
}
fn default_hull_radius() -> f32 {
    0.4
}
fn one() -> u32 {
    1
}

fn one_f32() -> f32 {
    1.0
}

/// A friction/restitution override for a named pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairMaterialDesc {
    /// First body.
    pub a: String,
    /// Second body.
    pub b: String,
    /// Friction for the pair.
    pub friction: f32,
    /// Restitution for the pair.
    pub restitution: f32,
}

fn world_name() -> String {
    WORLD_NAME.to_string()
}

/// The name that stands for the fixed world in a joint's `a` or `b`.
pub const WORLD_NAME: &str = "world";

/// A joint in a file (docs/scenes.md, "Joints"): `(name: "door_hinge", kind: Hinge(…),
/// a: "frame", b: "door", anchor: (x, y, z))`. `b` may be left out or written `"world"` for
/// a joint to the fixed world. Anchor and axes are in world space at the scene's start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JointDescFile {
    /// Unique joint name.
    pub name: String,
    /// What the joint constrains.
    pub kind: JointKindDesc,
    /// Body A's name, or `"world"`.
    pub a: String,
    /// Body B's name, or `"world"` (the default).
    #[serde(default = "world_name")]
    pub b: String,
    /// Anchor point (world, m): on A, and on B unless the kind names B's own.
    pub anchor: V3,
    /// Breaks above this force (N).
    #[serde(default)]
    pub break_force: Option<f32>,
    /// Breaks above this torque (N·m).
    #[serde(default)]
    pub break_torque: Option<f32>,
    /// Let the two bodies collide (default false).
    #[serde(default)]
    pub collide: bool,
}

/// A hinge or wheel motor: `(speed: deg/s, max_torque: N·m)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TorqueMotorDesc {
    /// Target speed (degrees per second).
    pub speed: f32,
    /// Largest torque (N·m).
    pub max_torque: f32,
}

/// A slider motor: `(speed: m/s, max_force: N)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ForceMotorDesc {
    /// Target speed (m/s).
    pub speed: f32,
    /// Largest force (N).
    pub max_force: f32,
}

fn default_ratio() -> f32 {
    1.0
}
fn default_damping() -> f32 {
    1.0
}
fn default_wheel_hertz() -> f32 {
    4.0
}
fn default_wheel_damping() -> f32 {
    0.7
}

/// Joint kinds in files; angles in degrees.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub enum JointKindDesc {
    /// Point to point.
    Ball,
    /// Distance between `anchor` (on A) and `anchor_b` (on B).
    Distance {
        /// B's anchor (world).
        anchor_b: V3,
        /// Rest length (m); the anchors' distance at the start by default.
        #[serde(default)]
        length: Option<f32>,
        /// Shortest length (m).
        #[serde(default)]
        min: Option<f32>,
        /// Longest length (m); a rope is `max` alone.
        #[serde(default)]
        max: Option<f32>,
        /// A spring `(hertz, damping_ratio)` towards the rest length.
        #[serde(default)]
        spring: Option<(f32, f32)>,
    },
    /// Revolute joint about `axis`.
    Hinge {
        /// Axis (world).
        axis: V3,
        /// `(lower, upper)` angles in degrees, 0 at the start.
        #[serde(default)]
        limits: Option<(f32, f32)>,
        /// Motor.
        #[serde(default)]
        motor: Option<TorqueMotorDesc>,
    },
    /// Prismatic joint along `axis`.
    Slider {
        /// Axis (world).
        axis: V3,
        /// `(lower, upper)` translations in m, 0 at the start.
        #[serde(default)]
        limits: Option<(f32, f32)>,
        /// Motor.
        #[serde(default)]
        motor: Option<ForceMotorDesc>,
    },
    /// Fixed joint; soft where a hertz is > 0.
    Weld {
        /// Linear spring (Hz); 0 rigid.
        #[serde(default)]
        linear_hertz: f32,
        /// Angular spring (Hz); 0 rigid.
        #[serde(default)]
        angular_hertz: f32,
        /// Damping ratio of the springs.
        #[serde(default = "default_damping")]
        damping_ratio: f32,
    },
    /// Rotation limits only: cone about `axis` and twist about it (degrees).
    Angle {
        /// Axis (world).
        axis: V3,
        /// Largest swing (degrees).
        #[serde(default)]
        cone: Option<f32>,
        /// Twist range (degrees).
        #[serde(default)]
        twist: Option<(f32, f32)>,
    },
    /// Wheel: suspension along `axis`, free spin about `spin_axis`.
    Wheel {
        /// Suspension axis (world).
        axis: V3,
        /// Axle (world).
        spin_axis: V3,
        /// Suspension frequency (Hz).
        #[serde(default = "default_wheel_hertz")]
        hertz: f32,
        /// Suspension damping ratio.
        #[serde(default = "default_wheel_damping")]
        damping_ratio: f32,
        /// Suspension travel limits (m).
        #[serde(default)]
        limits: Option<(f32, f32)>,
        /// Motor about the axle.
        #[serde(default)]
        motor: Option<TorqueMotorDesc>,
    },
    /// Rope over two fixed pulleys.
    Pulley {
        /// A's pulley (world).
        ground_a: V3,
        /// B's pulley (world).
        ground_b: V3,
        /// B's anchor (world).
        anchor_b: V3,
        /// Ratio.
        #[serde(default = "default_ratio")]
        ratio: f32,
    },
}
