//! The character row: a collide-and-slide character walking a scripted loop through the
//! shipped OBJ level (`scenes/level.obj`: a floor, walls with a doorway, a ramp up to a
//! platform, pillars), [`MOVES`] moves at 60 Hz, in each engine's character API:
//! contactlab's Fauerby ellipsoid (`physics::character`, radii 0.3, 0.9, 0.3), box3d-rust's
//! mover (Box3D's "Mover" sample: collide planes, solve them, cast, up to five times a
//! move; a capsule of radius 0.3 and core half-height 0.6) and rapier3d's
//! `KinematicCharacterController` (the same capsule, sliding, no autostep). All walk at
//! [`SPEED`] toward the same waypoints (the walk is horizontal; each keeps its own fall
//! velocity under 9.81 m/s² and zeroes it on the ground).
//!
//! Yardsticks, the same for every engine: the time per move; the path walked; whether the
//! character reached the platform (its centre above 2.0 m: the platform's top is 1.2 m,
//! both shapes stand 0.9 m above what they stand on); and the deepest penetration into the
//! level over all moves — for the capsules the core segment's distance to the nearest
//! triangle short of the radius, for the ellipsoid its centre's distance in ellipsoid space
//! short of 1, times the 0.3 m radius across (contactlab's `closest_point_on_triangle`).

use contactlab::physics::character::Character;
use contactlab::physics::mesh::{closest_point_on_triangle, TriMesh};
use contactlab::physics::Shape;
use glam::Vec3;
use std::sync::Arc;

/// Moves per run.
pub const MOVES: usize = 10_000;
/// Walking speed (m/s).
pub const SPEED: f32 = 3.0;
/// Time per move (s).
pub const DT: f32 = 1.0 / 60.0;
/// Gravity (m/s², down).
pub const GRAVITY: f32 = -9.81;
/// Where every character starts (its centre).
pub const START: Vec3 = Vec3::new(7.0, 1.0, 0.0);
/// The loop: through the doorway, up the ramp onto the platform, round it and back.
pub const WAYPOINTS: [Vec3; 6] = [
    Vec3::new(-1.0, 0.0, 0.0),
    Vec3::new(-7.5, 0.0, 1.5),
    Vec3::new(-7.5, 0.0, -8.5),
    Vec3::new(-5.5, 0.0, -8.5),
    Vec3::new(-7.5, 0.0, 1.5),
    Vec3::new(7.0, 0.0, 0.0),
];

/// The level's mesh (the `level` body of `scenes/obj_level.ron`).
pub fn level() -> Arc<TriMesh> {
    let path = contactlab::scene::scenes_dir().join("obj_level.ron");
    let s = contactlab::scene::load(&path).expect("scenes/obj_level.ron");
    let i = s.body_index("level").expect("a body named level");
    match &s.world.bodies()[i].shape {
        Shape::Mesh(m) => m.clone(),
        _ => panic!("the level is a mesh"),
    }
}

/// The scripted walk: toward the current waypoint at [`SPEED`] (horizontally), the next
/// one once within a move's walk.
#[derive(Clone, Debug, Default)]
pub struct Script {
    next: usize,
}

impl Script {
    /// The walking velocity at `position`.
    pub fn walk(&mut self, position: Vec3) -> Vec3 {
        for _ in 0..WAYPOINTS.len() {
            let to = WAYPOINTS[self.next] - position;
            let flat = Vec3::new(to.x, 0.0, to.z);
            if flat.length() > SPEED * DT {
                return flat.normalize() * SPEED;
            }
            self.next = (self.next + 1) % WAYPOINTS.len();
        }
        Vec3::ZERO
    }
}

/// A character some engine moves.
pub trait Mover {
    /// Engine name for tables.
    fn name(&self) -> &'static str;
    /// One move with walking velocity `walk` (m/s); returns the new centre.
    fn step(&mut self, walk: Vec3) -> Vec3;
    /// How deep the character is in `mesh` at its centre `p` (m; 0 when clear).
    fn penetration(&self, mesh: &TriMesh, p: Vec3) -> f32;
}

/// The deepest of `f(triangle)` over the triangles near `p`.
fn deepest(mesh: &TriMesh, p: Vec3, reach: f32, f: impl Fn([Vec3; 3]) -> f32) -> f32 {
    let mut tris = Vec::new();
    mesh.query_aabb(&contactlab::physics::Aabb::new(p - Vec3::splat(reach), p + Vec3::splat(reach)), &mut tris);
    tris.iter().map(|&t| f(mesh.triangle(t))).fold(0.0, f32::max)
}

/// How far a capsule of core `a b` and radius `r` reaches into triangle `tri`: sampled
/// along the core (32 points, exact for a core parallel or perpendicular to the face).
fn capsule_depth(a: Vec3, b: Vec3, r: f32, tri: [Vec3; 3]) -> f32 {
    (0..=32)
        .map(|k| {
            let p = a + (b - a) * (k as f32 / 32.0);
            r - (p - closest_point_on_triangle(p, tri)).length()
        })
        .fold(0.0, f32::max)
}

/// contactlab's Fauerby ellipsoid.
pub struct ContactlabMover {
    character: Character,
    mesh: Arc<TriMesh>,
    fall: Vec3,
}

impl ContactlabMover {
    /// At [`START`] in `mesh`.
    pub fn new(mesh: Arc<TriMesh>) -> Self {
        Self { character: Character::new(START, Vec3::new(0.3, 0.9, 0.3)), mesh, fall: Vec3::ZERO }
    }
}

impl Mover for ContactlabMover {
    fn name(&self) -> &'static str {
        "contactlab"
    }
    fn step(&mut self, walk: Vec3) -> Vec3 {
        self.fall.y += GRAVITY * DT;
        self.character.move_and_slide(&*self.mesh, walk * DT, self.fall * DT);
        // What the gravity pass really moved (zero on the ground), per second.
        self.fall = (self.character.position - self.character.walked_to) / DT;
        if self.character.on_ground {
            self.fall = Vec3::ZERO;
        }
        self.character.position
    }
    fn penetration(&self, mesh: &TriMesh, p: Vec3) -> f32 {
        let r = self.character.radii;
        deepest(mesh, p, 1.0, |tri| {
            let e = tri.map(|v| (v - p) / r);
            let d = closest_point_on_triangle(Vec3::ZERO, e).length();
            (1.0 - d) * r.min_element()
        })
    }
}

fn bv(v: Vec3) -> box3d_rust::math_functions::Vec3 {
    crate::bv(v)
}

fn gv(v: box3d_rust::math_functions::Vec3) -> Vec3 {
    Vec3::new(v.x, v.y, v.z)
}

/// box3d-rust's mover (Box3D's "Mover" sample).
pub struct Box3dMover {
    world: box3d_rust::world::World,
    capsule: box3d_rust::geometry::Capsule,
    position: Vec3,
    velocity: Vec3,
    planes: Vec<box3d_rust::geometry::CollisionPlane>,
}

impl Box3dMover {
    /// At [`START`] in a world holding `mesh` as a static body.
    pub fn new(mesh: &TriMesh) -> Self {
        use box3d_rust::types::{default_body_def, default_shape_def, default_world_def};
        let mut world = box3d_rust::world::World::new(&default_world_def());
        let body = box3d_rust::body::create_body(&mut world, &default_body_def());
        let data = crate::box3d_mesh(mesh);
        box3d_rust::shape::create_mesh_shape(&mut world, body, &default_shape_def(), &data, bv(Vec3::ONE));
        let capsule =
            box3d_rust::geometry::Capsule { center1: bv(Vec3::Y * -0.6), center2: bv(Vec3::Y * 0.6), radius: 0.3 };
        Self { world, capsule, position: START, velocity: Vec3::ZERO, planes: Vec::new() }
    }
}

impl Mover for Box3dMover {
    fn name(&self) -> &'static str {
        "box3d-rust"
    }
    fn step(&mut self, walk: Vec3) -> Vec3 {
        use box3d_rust::geometry::CollisionPlane;
        use box3d_rust::mover::{clip_vector, solve_planes};
        use box3d_rust::world::{world_cast_mover, world_collide_mover};
        self.velocity = Vec3::new(walk.x, self.velocity.y + GRAVITY * DT, walk.z);
        let target = self.position + self.velocity * DT;
        let filter = box3d_rust::types::default_query_filter();
        for _ in 0..5 {
            self.planes.clear();
            let planes = &mut self.planes;
            world_collide_mover(&self.world, bv(self.position), &self.capsule, &filter, |_, found| {
                planes.extend(found.iter().map(|p| CollisionPlane {
                    plane: p.plane,
                    push_limit: f32::MAX,
                    push: 0.0,
                    clip_velocity: true,
                }));
                true
            });
            let result = solve_planes(bv(target - self.position), &mut self.planes);
            let delta = gv(result.delta);
            let fraction = world_cast_mover(&self.world, bv(self.position), &self.capsule, result.delta, &filter, None);
            let moved = delta * fraction;
            self.position += moved;
            if moved.length_squared() < 1e-4 {
                break;
            }
        }
        self.velocity = gv(clip_vector(bv(self.velocity), &self.planes));
        self.position
    }
    fn penetration(&self, mesh: &TriMesh, p: Vec3) -> f32 {
        deepest(mesh, p, 1.0, |tri| capsule_depth(p - Vec3::Y * 0.6, p + Vec3::Y * 0.6, 0.3, tri))
    }
}

/// rapier3d's `KinematicCharacterController`.
pub struct RapierMover {
    world: rapier3d::pipeline::PhysicsWorld,
    controller: rapier3d::control::KinematicCharacterController,
    shape: rapier3d::geometry::Capsule,
    position: Vec3,
    fall: f32,
}

impl RapierMover {
    /// At [`START`] in a world holding `mesh` as a fixed trimesh collider.
    pub fn new(mesh: &TriMesh) -> Self {
        use rapier3d::prelude::{ColliderBuilder, PhysicsWorld};
        let mut world = PhysicsWorld::default();
        let rv = |v: Vec3| rapier3d::math::Vector::new(v.x, v.y, v.z);
        let collider =
            ColliderBuilder::trimesh(mesh.vertices().iter().map(|v| rv(*v)).collect(), mesh.triangles().to_vec())
                .expect("rapier trimesh");
        world.colliders.insert(collider);
        // The query pipeline reads the broad phase: one (empty) step builds it.
        world.step();
        let controller = rapier3d::control::KinematicCharacterController {
            slide: true,
            max_slope_climb_angle: 45f32.to_radians(),
            ..Default::default()
        };
        Self { world, controller, shape: rapier3d::geometry::Capsule::new_y(0.6, 0.3), position: START, fall: 0.0 }
    }
}

impl Mover for RapierMover {
    fn name(&self) -> &'static str {
        "rapier3d"
    }
    fn step(&mut self, walk: Vec3) -> Vec3 {
        self.fall += GRAVITY * DT;
        let desired = Vec3::new(walk.x, self.fall, walk.z) * DT;
        let pose = rapier3d::math::Pose::from_translation(rapier3d::math::Vector::new(
            self.position.x,
            self.position.y,
            self.position.z,
        ));
        let qp = self.world.query_pipeline();
        let m = self.controller.move_shape(
            DT,
            &qp,
            &self.shape,
            &pose,
            rapier3d::math::Vector::new(desired.x, desired.y, desired.z),
            |_| {},
        );
        self.position += Vec3::new(m.translation.x, m.translation.y, m.translation.z);
        if m.grounded {
            self.fall = 0.0;
        }
        self.position
    }
    fn penetration(&self, mesh: &TriMesh, p: Vec3) -> f32 {
        deepest(mesh, p, 1.0, |tri| capsule_depth(p - Vec3::Y * 0.6, p + Vec3::Y * 0.6, 0.3, tri))
    }
}

/// The three movers at [`START`] in `mesh`.
pub fn movers(mesh: &Arc<TriMesh>) -> Vec<Box<dyn Mover>> {
    vec![
        Box::new(ContactlabMover::new(mesh.clone())),
        Box::new(RapierMover::new(mesh)),
        Box::new(Box3dMover::new(mesh)),
    ]
}

/// What a run measured.
#[derive(Clone, Debug)]
pub struct CharacterRun {
    /// Engine.
    pub engine: &'static str,
    /// Microseconds per move (moves only, not the measuring).
    pub us_per_move: f64,
    /// Path walked (m).
    pub path: f32,
    /// Highest centre (m).
    pub top: f32,
    /// Deepest penetration into the level over all moves (m).
    pub penetration: f32,
    /// The centre after the last move.
    pub end: Vec3,
}

/// Runs `m` for `moves` moves, timing the moves and measuring afterwards.
pub fn run(m: &mut dyn Mover, mesh: &TriMesh, moves: usize) -> CharacterRun {
    let mut script = Script::default();
    let mut trail = Vec::with_capacity(moves + 1);
    let mut p = START;
    trail.push(p);
    let t = std::time::Instant::now();
    for _ in 0..moves {
        let walk = script.walk(p);
        p = m.step(walk);
        trail.push(p);
    }
    let us = t.elapsed().as_secs_f64() * 1e6 / moves.max(1) as f64;
    let path = trail.windows(2).map(|w| (w[1] - w[0]).length()).sum();
    let top = trail.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let penetration = trail.iter().map(|p| m.penetration(mesh, *p)).fold(0.0, f32::max);
    CharacterRun { engine: m.name(), us_per_move: us, path, top, penetration, end: p }
}
