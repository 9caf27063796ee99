//! Fauerby's collide-and-slide character: an ellipsoid moved through a triangle soup
//! (Kasper Fauerby, *Improved Collision Detection and Response*, 2003).
//!
//! **Ellipsoid space.** Dividing every coordinate by the ellipsoid's radii turns the
//! ellipsoid into the unit sphere, so only a unit sphere is ever swept ([`sweep`]). Planes
//! stay planes; a world normal is recovered from an ellipsoid-space one by dividing by the
//! radii again and normalising.
//!
//! **One move** ([`Character::move_and_slide`]) is two passes, as the paper advises: the
//! walking displacement, then gravity's (one combined vector would make climbing a step
//! harder, and a character on flat ground would recurse twice). Each pass
//! (`collide_with_world`):
//! 1. sweeps the unit sphere from the position along the velocity against every nearby
//!    triangle and keeps the earliest touch;
//! 2. none: the move completes;
//! 3. otherwise moves to the touch, stopping [`CharacterSettings::very_close`] short of it
//!    along the motion (so round-off never leaves the sphere inside), and moves the touch
//!    point back by the same amount;
//! 4. the **sliding plane** goes through the (pulled-back) touch point with the normal from
//!    the touch point to the sphere's centre at the touch (the face normal for a face touch;
//!    the radial direction for an edge or a vertex);
//! 5. the rest of the motion (from the new position to the old destination) is projected
//!    onto that plane: that is the new velocity;
//! 6. recurses with the new position and velocity, until nothing is hit, the velocity is
//!    shorter than the very-close distance, or the depth passes
//!    [`CharacterSettings::max_depth`] (5 in the paper).
//!
//! **Slopes.** Gravity's pass stops at its first touch when the sliding plane is walkable —
//! its normal within [`CharacterSettings::max_slope`] of up — and slides otherwise (the paper
//! leaves this rule to the reader: sliding on every slope makes a character creep down
//! gentle ones).
//!
//! Every pass's recursion is recorded ([`SlideStep`]: the swept sphere's start and motion,
//! the touch, its feature, the sliding plane, the new velocity), in world space, for the
//! window's overlay and panel.
//!
//! Known limits: triangles are one-sided (faces must point at the character's side); a
//! character that starts a move overlapping a triangle is not pushed out; there is no step-up
//! rule (steps are climbed only as far as sliding along their edge allows); pushing dynamic
//! bodies is not part of this module (the world applies it).

pub mod sweep;

use crate::physics::math::Aabb;
use crate::physics::mesh::TriMesh;
use glam::Vec3;
use sweep::{sweep_unit_sphere, Feature};

/// Parameters of the character's motion.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterSettings {
    /// How far short of a touch the character stops (m; the paper's `veryCloseDistance`,
    /// 0.005 units at 100 units per metre scale: 5 mm at 1 unit per metre).
    pub very_close: f32,
    /// Most recursions of one pass (the paper: 5).
    pub max_depth: u32,
    /// Steepest walkable slope (rad): gravity does not slide the character on a sliding
    /// plane whose normal is within this of up.
    pub max_slope: f32,
}

impl Default for CharacterSettings {
    fn default() -> Self {
        CharacterSettings { very_close: 0.005, max_depth: 5, max_slope: 45f32.to_radians() }
    }
}

/// Which pass of a move a step belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// The walking displacement.
    Velocity,
    /// Gravity's displacement.
    Gravity,
}

/// Where one recursion step touched (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideHit {
    /// Fraction of this step's motion at the touch.
    pub t: f32,
    /// The touch point on the triangle (before the very-close pull-back).
    pub point: Vec3,
    /// Face, edge or vertex.
    pub feature: Feature,
    /// The triangle's corners.
    pub triangle: [Vec3; 3],
    /// The body the triangle belongs to, or [`NO_BODY`].
    pub owner: u32,
    /// A point of the sliding plane (the touch point pulled back along the motion).
    pub plane_point: Vec3,
    /// The sliding plane's unit normal.
    pub plane_normal: Vec3,
}

/// One recursion step of a pass (world space).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SlideStep {
    /// Which pass.
    pub pass: Pass,
    /// Recursion depth (0 for the pass's first sweep).
    pub depth: u32,
    /// The centre at the start of the sweep.
    pub start: Vec3,
    /// The displacement swept.
    pub motion: Vec3,
    /// The first touch, if any.
    pub hit: Option<SlideHit>,
    /// Where the centre ends this step.
    pub end: Vec3,
    /// The displacement left for the next step (zero when the pass ends here).
    pub new_motion: Vec3,
}

/// The owner of a triangle that belongs to no body (a mesh given directly).
pub const NO_BODY: u32 = u32::MAX;

/// A triangle of a soup in world space, counter-clockwise about the side the character may
/// be on, and the body it belongs to ([`NO_BODY`] for none).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SoupTri {
    /// Corners (world).
    pub corners: [Vec3; 3],
    /// Body index, or [`NO_BODY`].
    pub owner: u32,
}

/// Anything the character can collide with: the triangles near a box, in world space.
pub trait TriangleSoup {
    /// Appends to `out` the triangles whose boxes overlap `b`; `scratch` is for the source's
    /// own use.
    fn triangles_in(&self, b: &Aabb, scratch: &mut Vec<u32>, out: &mut Vec<SoupTri>);
}

impl TriangleSoup for TriMesh {
    fn triangles_in(&self, b: &Aabb, scratch: &mut Vec<u32>, out: &mut Vec<SoupTri>) {
        scratch.clear();
        self.query_aabb(b, scratch);
        out.extend(scratch.iter().map(|&i| SoupTri { corners: self.triangle(i), owner: NO_BODY }));
    }
}

impl<T: TriangleSoup> TriangleSoup for [T] {
    fn triangles_in(&self, b: &Aabb, scratch: &mut Vec<u32>, out: &mut Vec<SoupTri>) {
        for s in self {
            s.triangles_in(b, scratch, out);
        }
    }
}

/// A triangle in ellipsoid space with its unit normal.
#[derive(Clone, Copy, Debug)]
struct ETri {
    corners: [Vec3; 3],
    normal: Vec3,
    world: SoupTri,
}

/// The ellipsoid character (module docs).
#[derive(Clone, Debug)]
pub struct Character {
    /// Centre (world, m).
    pub position: Vec3,
    /// Semi-axes along x, y, z (m).
    pub radii: Vec3,
    /// Motion parameters.
    pub settings: CharacterSettings,
    /// Whether the last move's gravity pass ended on walkable ground.
    pub on_ground: bool,
    /// Where the last move's walking pass ended (the gravity pass starts there).
    pub walked_to: Vec3,
    /// The last move's recursion, both passes.
    pub steps: Vec<SlideStep>,
    world_tris: Vec<SoupTri>,
    tris: Vec<ETri>,
    scratch: Vec<u32>,
}

impl Character {
    /// A character centred at `position` with semi-axes `radii`.
    pub fn new(position: Vec3, radii: Vec3) -> Character {
        Character {
            position,
            radii,
            settings: CharacterSettings::default(),
            on_ground: false,
            walked_to: position,
            steps: Vec::new(),
            world_tris: Vec::new(),
            tris: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Moves by `velocity` (the walking displacement of this move, m) and then by `gravity`
    /// (gravity's displacement, m), sliding along whatever is in the way (module docs).
    /// Records the recursion in [`Character::steps`].
    pub fn move_and_slide(&mut self, soup: &(impl TriangleSoup + ?Sized), velocity: Vec3, gravity: Vec3) {
        self.steps.clear();
        self.on_ground = false;
        for (pass, motion) in [(Pass::Velocity, velocity), (Pass::Gravity, gravity)] {
            if motion != Vec3::ZERO {
                self.gather(soup, motion);
                let end = self.collide_with_world(pass, self.position / self.radii, motion / self.radii, 0);
                self.position = end * self.radii;
            }
            if pass == Pass::Velocity {
                self.walked_to = self.position;
            }
        }
    }

    /// The triangles within reach of a pass of `motion`, in ellipsoid space. Every position
    /// a pass reaches is within |motion| of its start (each slide is a projection, never
    /// longer than what was left), so one query per pass suffices.
    fn gather(&mut self, soup: &(impl TriangleSoup + ?Sized), motion: Vec3) {
        let reach = self.radii + Vec3::splat(motion.length() + 2.0 * self.settings.very_close);
        let b = Aabb::new(self.position - reach, self.position + reach);
        self.world_tris.clear();
        soup.triangles_in(&b, &mut self.scratch, &mut self.world_tris);
        self.tris.clear();
        for w in &self.world_tris {
            let corners = w.corners.map(|p| p / self.radii);
            let n = (corners[1] - corners[0]).cross(corners[2] - corners[0]);
            if n.length_squared() > 0.0 {
                self.tris.push(ETri { corners, normal: n.normalize(), world: *w });
            }
        }
    }

    /// The very-close distance in ellipsoid space: measured along the shortest semi-axis, so
    /// it is at least the world distance in every direction.
    fn very_close_e(&self) -> f32 {
        self.settings.very_close / self.radii.min_element()
    }

    /// One recursion step (module docs, steps 1–6), in ellipsoid space.
    fn collide_with_world(&mut self, pass: Pass, pos: Vec3, vel: Vec3, depth: u32) -> Vec3 {
        if depth > self.settings.max_depth {
            return pos;
        }
        let r = self.radii;
        let mut nearest: Option<(sweep::SweepHit, usize)> = None;
        for (k, t) in self.tris.iter().enumerate() {
            if let Some(h) = sweep_unit_sphere(pos, vel, t.corners, t.normal) {
                if nearest.is_none_or(|(best, _)| h.t < best.t) {
                    nearest = Some((h, k));
                }
            }
        }
        let mut step = SlideStep {
            pass,
            depth,
            start: pos * r,
            motion: vel * r,
            hit: None,
            end: (pos + vel) * r,
            new_motion: Vec3::ZERO,
        };
        let Some((hit, k)) = nearest else {
            self.steps.push(step);
            return pos + vel;
        };
        let very_close = self.very_close_e();
        let dest = pos + vel;
        let distance = hit.t * vel.length();
        let mut new_base = pos;
        let mut touch = hit.point;
        if distance >= very_close {
            let dir = vel.normalize();
            new_base = pos + dir * (distance - very_close);
            touch -= dir * very_close;
        }
        // From the touch point to the centre at the touch: the face normal for a face, the
        // radial direction for an edge or a vertex. (The paper's listing takes
        // `new_base − touch`, the same direction unless the character started closer than
        // the very-close distance and did not move, when it would tilt the plane.)
        let normal = (pos + vel * hit.t - hit.point).normalize_or_zero();
        // The rest of the motion, projected onto the sliding plane. The paper's listing takes
        // `new_destination − touch` with the destination projected onto the plane through the
        // touch: the same vector whenever the sphere moved up to the touch (then
        // `new_base − touch` is along the normal); when it started within the very-close
        // distance and did not move, that form drops the motion's tangential part up to
        // the touch (10 % of the slide along a wall at 45°), this one keeps it.
        let rest = dest - new_base;
        let mut normal = normal;
        let mut world_normal = (normal / r).normalize_or_zero();
        // Walking into the face of a slope steeper than `max_slope` (facing up, not
        // walkable): the slope acts as a wall, its sliding plane turned upright (its normal's
        // horizontal part), so walking cannot carry the character up it; gravity's pass
        // slides it down. Edges and vertices keep the paper's rounded slide, which is how
        // the ellipsoid climbs a step's lip. (Fauerby's paper has no slope limit;
        // controllers such as PhysX's and Jolt's treat steep slopes this way.)
        let face = matches!(hit.feature, sweep::Feature::Face);
        if pass == Pass::Velocity && face && world_normal.y > 0.0 && world_normal.y < self.settings.max_slope.cos() {
            let upright = Vec3::new(world_normal.x, 0.0, world_normal.z).normalize_or_zero();
            if upright != Vec3::ZERO {
                world_normal = upright;
                normal = (upright * r).normalize();
            }
        }
        let new_vel = rest - normal * normal.dot(rest);
        step.hit = Some(SlideHit {
            t: hit.t,
            point: hit.point * r,
            feature: hit.feature,
            triangle: self.tris[k].world.corners,
            owner: self.tris[k].world.owner,
            plane_point: touch * r,
            plane_normal: world_normal,
        });
        step.end = new_base * r;
        let walkable = world_normal.y >= self.settings.max_slope.cos();
        if pass == Pass::Gravity && walkable {
            self.on_ground = true;
            self.steps.push(step);
            return new_base;
        }
        if new_vel.length() < very_close {
            self.steps.push(step);
            return new_base;
        }
        step.new_motion = new_vel * r;
        self.steps.push(step);
        self.collide_with_world(pass, new_base, new_vel, depth + 1)
    }
}

#[cfg(test)]
mod tests;
