//! Characters in the world: Fauerby's collide-and-slide ellipsoids
//! ([`crate::physics::character`]) moved once per step, after the bodies, in the
//! `Characters` stage.
//!
//! **What they collide with.** The world is a [`TriangleSoup`]: every box and hull body
//! (static or dynamic) whose box overlaps the query, its faces fanned into triangles wound
//! outwards, a compound's box and hull children alike, plus the world's static meshes.
//! Spheres and capsules (a compound's too) are not triangles and are passed through (a
//! known limit).
//!
//! **Walking.** Each character walks at [`WorldCharacter::walk`] (m/s, set by the window's
//! keys or by its scripted path: towards the next waypoint at its speed, horizontally, the
//! waypoint reached when within one step's walk) and falls with the world's gravity: the
//! fall velocity grows by g·dt each step, its displacement is the second pass of the move,
//! and after the move it becomes what the gravity pass really moved per second (zero on
//! walkable ground, the slide along a steep slope).
//!
//! **Pushing** (the documented rule). When the walking pass touches a dynamic body, the
//! character pushes it as a free body of its [`WorldCharacter::mass`] m_c meeting it without
//! bounce: with n the sliding plane's normal (from the body towards the character), the
//! closing speed `s = (v_walk − v_body(p))·(−n)` at the touch point p and the lever arm r
//! from the body's centre of mass, the body receives the impulse
//! `−n · min(s / (1/m_c + 1/m_b + (r×n)·I_b⁻¹·(r×n)), F_max·dt)` at p
//! (`F_max` = [`WorldCharacter::max_push_force`]) and wakes: the inelastic impact's impulse,
//! after which the body's point moves along −n no faster than the character walks.
//! The character itself slides as against a wall this step; next step the body has moved.
//! The pushes of the last step are recorded ([`Push`]).
//!
//! **Riding.** A character that stood on a moving kinematic body at its last move (a
//! platform, a turntable) is carried with it: its walking pass takes the body's velocity
//! at the character's centre too (`World::platform_carry`).
//!
//! Known limits: the character is kinematic — bodies never push it back, only block it; a
//! platform carries it along its velocity at the character's centre for the step (a
//! turntable's rider drifts outwards by the first-order step's (ωr·Δt)²/2r a step, as a
//! body riding it does, and is not turned with it); it rides kinematic bodies only, not
//! dynamic ones; no step-up rule (stairs are climbed only as far as sliding on their edges
//! allows).

use super::World;
use crate::physics::character::{Character, Pass, SoupTri, TriangleSoup};
use crate::physics::compound::{child, child_count};
use crate::physics::math::{Aabb, Iso};
use crate::physics::mesh::TriMesh;
use glam::Vec3;
use std::sync::Arc;

/// A character to add ([`World::add_character`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CharacterDesc {
    /// Name (panel, traces).
    pub name: String,
    /// Ellipsoid semi-axes (m).
    pub radii: Vec3,
    /// Centre at the start (m).
    pub position: Vec3,
    /// Waypoints of a scripted walk (empty: walks only when told to).
    pub path: Vec<Vec3>,
    /// Walking speed along the path (m/s).
    pub speed: f32,
    /// Start the path again after its last waypoint.
    pub looping: bool,
    /// Mass for pushing bodies (kg).
    pub mass: f32,
    /// Largest pushing force (N).
    pub max_push_force: f32,
}

impl CharacterDesc {
    /// A character with no path, 80 kg, pushing with at most 2 kN.
    pub fn new(name: impl Into<String>, radii: Vec3, position: Vec3) -> CharacterDesc {
        CharacterDesc {
            name: name.into(),
            radii,
            position,
            path: Vec::new(),
            speed: 0.0,
            looping: false,
            mass: 80.0,
            max_push_force: 2000.0,
        }
    }
}

/// Why a character could not be added.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum CharacterError {
    /// Radii not finite or outside 1 cm – 10 m.
    #[error("character '{0}': radii must each be between 0.01 and 10 m, got {1:?}")]
    Radii(String, [f32; 3]),
    /// A position or waypoint is not finite.
    #[error("character '{0}': position and path points must be finite numbers")]
    NotFinite(String),
    /// Speed, mass or push force out of range.
    #[error("character '{0}': {1} must be between {2} and {3}, got {4}")]
    OutOfRange(String, &'static str, f32, f32, f32),
}

/// One push of the last step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Push {
    /// The body pushed.
    pub body: u32,
    /// Where (world).
    pub point: Vec3,
    /// The impulse given (N·s, world).
    pub impulse: Vec3,
}

/// A character in the world (module docs).
#[derive(Clone, Debug)]
pub struct WorldCharacter {
    /// Name.
    pub name: String,
    /// The ellipsoid, its settings and its last move's recursion record.
    pub body: Character,
    /// Walking velocity (m/s; the path sets it each step when there is one).
    pub walk: Vec3,
    /// Fall velocity (m/s).
    pub fall: Vec3,
    /// Scripted path.
    pub path: Vec<Vec3>,
    /// Index of the waypoint walked to (`path.len()` when done).
    pub next: usize,
    /// Speed along the path (m/s).
    pub speed: f32,
    /// Start the path again after its end.
    pub looping: bool,
    /// Mass for pushing (kg).
    pub mass: f32,
    /// Largest pushing force (N).
    pub max_push_force: f32,
    /// The pushes of the last step.
    pub pushes: Vec<Push>,
}

impl World {
    /// Adds a character; its index.
    pub fn add_character(&mut self, d: CharacterDesc) -> Result<usize, CharacterError> {
        if !d.radii.is_finite() || d.radii.min_element() < 0.01 || d.radii.max_element() > 10.0 {
            return Err(CharacterError::Radii(d.name, d.radii.to_array()));
        }
        if !d.position.is_finite() || d.path.iter().any(|p| !p.is_finite()) {
            return Err(CharacterError::NotFinite(d.name));
        }
        for (what, v, lo, hi) in
            [("speed", d.speed, 0.0, 50.0), ("mass", d.mass, 0.1, 1e5), ("max_push_force", d.max_push_force, 0.0, 1e6)]
        {
            if !(lo..=hi).contains(&v) {
                return Err(CharacterError::OutOfRange(d.name, what, lo, hi, v));
            }
        }
        self.characters.push(WorldCharacter {
            name: d.name,
            body: Character::new(d.position, d.radii),
            walk: Vec3::ZERO,
            fall: Vec3::ZERO,
            path: d.path,
            next: 0,
            speed: d.speed,
            looping: d.looping,
            mass: d.mass,
            max_push_force: d.max_push_force,
            pushes: Vec::new(),
        });
        Ok(self.characters.len() - 1)
    }

    /// The characters.
    pub fn characters(&self) -> &[WorldCharacter] {
        &self.characters
    }

    /// A character, to steer (set `walk`) or edit.
    pub fn character_mut(&mut self, i: usize) -> Option<&mut WorldCharacter> {
        self.characters.get_mut(i)
    }

    /// Adds a static triangle mesh the characters collide with.
    pub fn add_mesh(&mut self, mesh: Arc<TriMesh>) {
        self.meshes.push(mesh);
    }

    /// The static meshes.
    pub fn meshes(&self) -> &[Arc<TriMesh>] {
        &self.meshes
    }

    /// The `Characters` stage: each character walks and falls (module docs).
    pub(super) fn move_characters(&mut self, dt: f32) {
        if self.characters.is_empty() {
            return;
        }
        let mut chars = std::mem::take(&mut self.characters);
        for c in &mut chars {
            c.steer(dt);
            c.fall += self.gravity * dt;
            let carry = self.platform_carry(&c.body, dt);
            c.body.move_and_slide(&*self, c.walk * dt + carry, c.fall * dt);
            c.fall = if c.body.on_ground { Vec3::ZERO } else { (c.body.position - c.body.walked_to) / dt };
            c.pushes.clear();
            for s in c.body.steps.iter().filter(|s| s.pass == Pass::Velocity) {
                let Some(h) = s.hit else { continue };
                let Some(b) = self.bodies.get(h.owner as usize).filter(|b| b.is_dynamic()) else { continue };
                let closing = (c.walk - b.point_velocity(h.point)).dot(-h.plane_normal);
                if closing <= 0.0 {
                    continue;
                }
                let rn = (h.point - b.pose.pos).cross(h.plane_normal);
                let k = 1.0 / c.mass + b.inv_mass + rn.dot(b.inv_inertia_world() * rn);
                let j = -h.plane_normal * (closing / k).min(c.max_push_force * dt);
                c.pushes.push(Push { body: h.owner, point: h.point, impulse: j });
            }
            for p in &c.pushes {
                self.bodies[p.body as usize].apply_impulse(p.impulse, p.point);
                self.wake(p.body as usize);
            }
        }
        self.characters = chars;
    }

    /// How far the ground the character stood on at its last move carries it this step
    /// (zero unless that ground is a moving kinematic body): the body's velocity at the
    /// character's centre, `v + ω × (p − c)`, over `dt`. The body has already moved this
    /// step (the characters move after the bodies), so this keeps the character where it
    /// stood on it.
    fn platform_carry(&self, c: &Character, dt: f32) -> Vec3 {
        if !c.on_ground {
            return Vec3::ZERO;
        }
        let ground = c.steps.iter().rev().find(|s| s.pass == Pass::Gravity).and_then(|s| s.hit);
        match ground.and_then(|h| self.bodies.get(h.owner as usize)) {
            Some(b) if b.is_moving_kinematic() => b.point_velocity(c.position) * dt,
            _ => Vec3::ZERO,
        }
    }
}

impl WorldCharacter {
    /// Heap bytes of a copy (the history's budget): the record, path, pushes and name, not
    /// the character's scratch of its last query's triangles (a few kilobytes).
    pub(super) fn heap_bytes(&self) -> usize {
        use std::mem::size_of_val as sz;
        size_of::<WorldCharacter>()
            + self.name.len()
            + sz(self.path.as_slice())
            + sz(self.pushes.as_slice())
            + sz(self.body.steps.as_slice())
    }

    /// Sets `walk` from the scripted path, if any (module docs).
    fn steer(&mut self, dt: f32) {
        if self.path.is_empty() {
            return;
        }
        if self.next >= self.path.len() {
            if !self.looping {
                self.walk = Vec3::ZERO;
                return;
            }
            self.next = 0;
        }
        let to = self.path[self.next] - self.body.position;
        let flat = Vec3::new(to.x, 0.0, to.z);
        if flat.length() <= self.speed * dt {
            self.next += 1;
        }
        self.walk = flat.normalize_or_zero() * self.speed;
    }
}

impl TriangleSoup for World {
    fn triangles_in(&self, b: &Aabb, scratch: &mut Vec<u32>, out: &mut Vec<SoupTri>) {
        for (i, body) in self.bodies.iter().enumerate() {
            if let Some(mesh) = body.shape.mesh() {
                // A static mesh body: its triangles under the box (queried in the mesh's
                // frame, through the box's corners brought into it), moved to the world.
                let x = &body.pose;
                let corners = (0..8).map(|k| {
                    let c = Vec3::new(
                        if k & 1 == 0 { b.min.x } else { b.max.x },
                        if k & 2 == 0 { b.min.y } else { b.max.y },
                        if k & 4 == 0 { b.min.z } else { b.max.z },
                    );
                    x.inv_transform_point(c)
                });
                let (lo, hi) =
                    corners.fold((Vec3::splat(f32::MAX), Vec3::splat(f32::MIN)), |(lo, hi), c| (lo.min(c), hi.max(c)));
                scratch.clear();
                mesh.query_aabb(&Aabb::new(lo, hi), scratch);
                out.extend(
                    scratch
                        .iter()
                        .map(|&t| SoupTri { corners: mesh.triangle(t).map(|p| x.transform_point(p)), owner: i as u32 }),
                );
                continue;
            }
            if !body.shape.aabb(&body.pose).overlaps(b) {
                continue;
            }
            // A hull's faces, fanned; a compound's hull children's, each at its pose.
            for k in 0..child_count(&body.shape) {
                let (shape, pose) = child(&body.shape, k);
                if let Some(hull) = shape.hull() {
                    fan_faces(hull, &body.pose.mul(&pose), i as u32, out);
                }
            }
        }
        self.meshes.as_slice().triangles_in(b, scratch, out);
    }
}

/// The faces of `hull` at pose `x`, each fanned into triangles from its first corner.
fn fan_faces(hull: &crate::physics::hull::Hull, x: &Iso, owner: u32, out: &mut Vec<SoupTri>) {
    let verts = hull.vertices();
    for f in 0..hull.faces().len() {
        let mut ids = hull.face_vertices(f);
        let Some(first) = ids.next() else { continue };
        let p0 = x.transform_point(verts[first as usize]);
        let mut prev = None;
        for k in ids {
            let p = x.transform_point(verts[k as usize]);
            if let Some(q) = prev {
                out.push(SoupTri { corners: [p0, q, p], owner });
            }
            prev = Some(p);
        }
    }
}

impl TriangleSoup for Arc<TriMesh> {
    fn triangles_in(&self, b: &Aabb, scratch: &mut Vec<u32>, out: &mut Vec<SoupTri>) {
        (**self).triangles_in(b, scratch, out);
    }
}
