//! How numbers are written in a worked example: fixed decimals per kind of quantity, so a
//! column lines up and a test can read every number back at the precision printed.

use glam::{Quat, Vec3};

/// A plain quantity: five significant digits at most, no exponent for everyday sizes.
pub fn num(x: f32) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let digits = (4 - x.abs().log10().floor() as i32).clamp(0, 8) as usize;
    format!("{x:.digits$}")
}

/// A signed length (separations, depths): 5 decimals (0.01 mm).
pub fn sep(x: f32) -> String {
    format!("{x:+.5}")
}

/// An impulse (N·s): 5 decimals.
pub fn imp(x: f32) -> String {
    format!("{x:.5}")
}

/// A vector, 4 decimals per component.
pub fn v3(v: Vec3) -> String {
    format!("({:.4}, {:.4}, {:.4})", v.x, v.y, v.z)
}

/// A quaternion (x, y, z, w), 4 decimals.
pub fn q4(q: Quat) -> String {
    format!("({:.4}, {:.4}, {:.4}, {:.4})", q.x, q.y, q.z, q.w)
}
