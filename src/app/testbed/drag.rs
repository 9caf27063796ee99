//! The mouse drag as the testbed does it: grab a body seen from the camera, move the target
//! along the cursor's ray (or the body itself while paused), turn it with Ctrl, release.
//! Every side gets the same drag; the drag itself and how a step applies it are in
//! [`crate::app::drag`].

use super::Testbed;
use crate::app::drag::{release_mouse, Drag};
use glam::{Quat, Vec3};

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
