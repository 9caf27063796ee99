//! Kinematic bodies on a path ([`KinematicPath`]): before each step, a kinematic body
//! given a path (by a scene's `path` or [`World::set_kinematic_path`]) is given the
//! velocity that takes its frame's origin towards the path's next point at the path's
//! speed, or onto the point exactly where it is nearer than a step's travel. At the last
//! point it goes back through the points in reverse (a shuttle: a platform, a lift), or
//! with `looping` on to the first again (a circuit). Its spin stays as it was given.
//!
//! Limits: the body goes straight from point to point and turns round at once (the
//! velocity jumps at each point: what rides it slides, as off a real platform that stops
//! dead); a point is reached when the origin is within [`ARRIVED`] of it.

use super::World;
use crate::physics::body::BodyHandle;
use glam::Vec3;

/// How near the origin must be to a path's point to have reached it (m): above the f32
/// round-off of a position within the scene's ±10,000 m, below anything a picture shows.
pub const ARRIVED: f32 = 1e-3;

/// A kinematic body's path: the points its frame's origin goes to in turn, at `speed`.
#[derive(Clone, Debug, PartialEq)]
pub struct KinematicPath {
    /// The points (world, m), visited in turn from the first.
    pub points: Vec<Vec3>,
    /// Speed along the path (m/s).
    pub speed: f32,
    /// After the last point, on to the first (a circuit); otherwise back through the points
    /// in reverse (a shuttle).
    pub looping: bool,
}

/// A path refused by [`World::set_kinematic_path`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PathError {
    /// The handle names no body.
    #[error("no such body")]
    NoBody,
    /// The body is not kinematic.
    #[error("body '{0}': only a kinematic body follows a path (kind: Kinematic)")]
    NotKinematic(String),
    /// No points, or a point or the speed not finite, or the speed not positive.
    #[error("body '{0}': a path needs at least one finite point and a finite speed above 0")]
    Bad(String),
}

/// A body on its path: the path, the point it goes to, and whether it is on its way back.
#[derive(Clone, Debug)]
pub(super) struct PathRun {
    body: u32,
    path: KinematicPath,
    next: usize,
    back: bool,
}

impl PathRun {
    /// Heap bytes of a copy (the history's budget): its points.
    pub(super) fn heap_bytes(&self) -> usize {
        size_of_val(self.path.points.as_slice())
    }

    /// The point after `next`: on through the points, then back (or round, looping).
    fn advance(&mut self) {
        let n = self.path.points.len();
        if n < 2 {
            return;
        }
        if self.path.looping {
            self.next = (self.next + 1) % n;
        } else if !self.back && self.next + 1 == n || self.back && self.next == 0 {
            self.back = !self.back;
            self.next = if self.back { n - 2 } else { 1 };
        } else {
            self.next = if self.back { self.next - 1 } else { self.next + 1 };
        }
    }
}

impl World {
    /// Sets body `h` (kinematic) on `path`, from its first point; replaces any path it had.
    pub fn set_kinematic_path(&mut self, h: BodyHandle, path: KinematicPath) -> Result<(), PathError> {
        let b = self.body(h).ok_or(PathError::NoBody)?;
        if !b.is_kinematic() {
            return Err(PathError::NotKinematic(b.name.clone()));
        }
        let finite = path.points.iter().all(|p| p.is_finite());
        if path.points.is_empty() || !finite || !(path.speed > 0.0 && path.speed.is_finite()) {
            return Err(PathError::Bad(b.name.clone()));
        }
        self.paths.retain(|r| r.body != h.index);
        self.paths.push(PathRun { body: h.index, path, next: 0, back: false });
        Ok(())
    }

    /// The path of body `index`, if it has one.
    pub fn kinematic_path(&self, index: usize) -> Option<&KinematicPath> {
        self.paths.iter().find(|r| r.body as usize == index).map(|r| &r.path)
    }

    /// Before a step of `dt`: each body on a path gets the velocity towards its next point
    /// (module docs).
    pub(super) fn steer_paths(&mut self, dt: f32) {
        for run in &mut self.paths {
            let Some(b) = self.bodies.get_mut(run.body as usize).filter(|b| b.is_kinematic()) else { continue };
            let origin = b.pose.pos - b.pose.rot * b.com_offset;
            let mut to = run.path.points[run.next] - origin;
            // Reached: on to the next point (once round at most: a path of one point, or of
            // points all within reach, keeps the body where it is).
            for _ in 0..run.path.points.len() {
                if to.length() > ARRIVED {
                    break;
                }
                run.advance();
                to = run.path.points[run.next] - origin;
            }
            let d = to.length();
            b.velocity = if d > ARRIVED { to * (run.path.speed.min(d / dt) / d) } else { Vec3::ZERO };
        }
    }
}
