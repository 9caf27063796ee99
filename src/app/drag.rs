//! The mouse drag: a held body pulled by a mouse joint while the scene runs, moved or turned
//! directly while it is paused. The drag is the steps' only input besides the world, so the
//! session logs it in the history and re-simulation replays it exactly
//! ([`apply_drag`]). Every side of a comparison gets the same drag.

use super::testbed::Testbed;
use crate::physics::{JointKind, World};
use glam::{Quat, Vec3};

/// A body held by the mouse.
#[derive(Clone, Copy, Debug)]
pub struct Drag {
    /// Body index.
    pub body: usize,
    /// Grab point in body space.
    pub local: Vec3,
    /// Where the cursor wants the grab point (world).
    pub target: Vec3,
    /// Distance of the drag plane from the camera.
    pub depth: f32,
    /// Rate the held body is turned at (rad/s, world axes) while Ctrl is held, before each
    /// step (zero: free to turn).
    pub turn: Vec3,
}

/// Largest force of the drag's mouse joint per kilogram of the held body (N/kg): about
/// 100 g, so the cursor lifts anything the scene holds (Box2D's samples use 1000 × mass).
pub const DRAG_FORCE_PER_KG: f32 = 1000.0;

/// A step's drag input, logged or live, on `world` (every side of a comparison): the mouse
/// joint follows the drag and Ctrl turns the body; without a drag the mouse joint is gone,
/// so re-simulation releases it at the same step as the live run did.
pub fn apply_drag(world: &mut World, drag: Option<Drag>, dt: f32) {
    match drag {
        Some(d) => {
            drag_mouse(world, d);
            hold_turn(world, d, dt);
        }
        None => release_mouse(world),
    }
}

/// The drag as a mouse joint (`physics::joint::mouse`: a soft 5 Hz spring from the grab
/// point to the cursor's target, its force limited to [`DRAG_FORCE_PER_KG`] × the body's
/// mass): moves the target of the held body's mouse joint, creating the joint on the first
/// step of a drag.
fn drag_mouse(world: &mut World, drag: Drag) {
    let held = world
        .joint_handles()
        .find(|(_, j)| matches!(j.kind, JointKind::Mouse { .. }) && j.b == drag.body as u32)
        .map(|(h, _)| h);
    match held {
        Some(h) => world.move_mouse(h, drag.target),
        None => {
            world.grab(drag.body, drag.local, drag.target, DRAG_FORCE_PER_KG);
        }
    }
}

/// Ctrl-drag while running: turns the dragged body by the drag's `turn` over the step `dt`
/// (a kinematic turn, so contacts and the mouse joint cannot slow it) and holds its spin at
/// zero, so it stops when the mouse does.
fn hold_turn(world: &mut World, drag: Drag, dt: f32) {
    if drag.turn != Vec3::ZERO {
        let h = world.handle(drag.body);
        if let Some(b) = world.body_mut(h) {
            b.pose.rot = (Quat::from_scaled_axis(drag.turn * dt) * b.pose.rot).normalize();
            b.angular_velocity = Vec3::ZERO;
        }
    }
}

/// Removes the drag's mouse joints (the mouse was released).
pub fn release_mouse(world: &mut World) {
    let held: Vec<_> =
        world.joint_handles().filter(|(_, j)| matches!(j.kind, JointKind::Mouse { .. })).map(|(h, _)| h).collect();
    for h in held {
        world.remove_joint(h);
    }
}

impl Testbed {
    /// Starts dragging body `i`, grabbed at world point `p` seen from the camera.
    pub fn begin_drag(&mut self, i: usize, p: Vec3) {
        let w = &self.sides.main().world;
        if !w.bodies()[i].is_dynamic() {
            return;
        }
        if w.bodies()[i].asleep {
            // Waking is an edit of the state (re-simulation would not wake it).
            self.session.history.edited(w.step_count);
        }
        let pose = w.bodies()[i].pose;
        let cam = &self.view.camera;
        let depth = (p - cam.eye()).dot((cam.target - cam.eye()).normalize());
        self.session.drag =
            Some(Drag { body: i, local: pose.inv_transform_point(p), target: p, depth, turn: Vec3::ZERO });
        for side in self.sides.iter_mut() {
            side.world.wake(i);
        }
    }

    /// Moves the drag target along the camera ray (o, d).
    pub fn update_drag(&mut self, o: Vec3, d: Vec3) {
        let cam = &self.view.camera;
        let fwd = (cam.target - cam.eye()).normalize();
        let eye = cam.eye();
        if let Some(drag) = &mut self.session.drag {
            let denom = d.dot(fwd);
            if denom.abs() > 1e-6 {
                drag.target = o + d * ((drag.depth - (o - eye).dot(fwd)) / denom);
            }
        }
        if !self.session.playing {
            // Paused: move the body so the grab point follows the cursor, to set contacts
            // up by hand; the debug views update at once. Every side moves the same.
            if let Some(drag) = self.session.drag {
                for side in self.sides.iter_mut() {
                    let w = &mut side.world;
                    let h = w.handle(drag.body);
                    if let Some(b) = w.body_mut(h) {
                        let anchor = b.pose.transform_point(drag.local);
                        b.pose.pos += drag.target - anchor;
                        b.velocity = Vec3::ZERO;
                        b.angular_velocity = Vec3::ZERO;
                    }
                }
                self.edited();
            }
        }
    }

    /// Ctrl-drag: turns the held body as the mouse moves `dx`, `dy` pixels — about the
    /// camera's up axis for horizontal motion, about its right axis for vertical. While
    /// paused the body turns at once (an edit); while running the motion sets the spin the
    /// body is held at (0.25 rad/s per pixel per frame), logged with the drag.
    pub fn turn_drag(&mut self, dx: f32, dy: f32) {
        let cam = &self.view.camera;
        let fwd = (cam.target - cam.eye()).normalize_or_zero();
        let Some(drag) = self.session.drag.as_mut() else { return };
        let right = fwd.cross(Vec3::Y).normalize_or_zero();
        let up = right.cross(fwd);
        let rate = up * dx + right * dy;
        if self.session.playing {
            drag.turn = rate * 0.25;
            return;
        }
        let turn = Quat::from_scaled_axis(rate * 0.01);
        let body = drag.body;
        for side in self.sides.iter_mut() {
            let w = &mut side.world;
            let h = w.handle(body);
            if let Some(b) = w.body_mut(h) {
                b.pose.rot = (turn * b.pose.rot).normalize();
                b.angular_velocity = Vec3::ZERO;
            }
        }
        self.edited();
    }

    /// Releases the mouse.
    pub fn end_drag(&mut self) {
        self.session.drag = None;
        for side in self.sides.iter_mut() {
            release_mouse(&mut side.world);
        }
    }
}
