//! The mouse drag: a held body pulled by a mouse joint while the scene runs, moved or turned
//! directly while it is paused. The drag is the steps' only input besides the world, so the
//! session logs it in the history and re-simulation replays it exactly
//! ([`apply_drag`]). Every side of a comparison gets the same drag.

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
