//! Orbit camera: yaw and pitch around a target point at a distance. Zoom moves towards the
//! point under the cursor; pan moves the target in the view plane; framing fits a box.

use crate::physics::math::Aabb;
use glam::{Mat4, Vec3};

/// An orbit camera.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// Point orbited and looked at.
    pub target: Vec3,
    /// Angle about +Y (radians).
    pub yaw: f32,
    /// Elevation (radians), kept inside ±89°.
    pub pitch: f32,
    /// Distance from the target (m).
    pub distance: f32,
    /// Vertical field of view (radians).
    pub fov_y: f32,
    /// Fraction of the view's height kept clear at the top (a comparison's tile keeps its
    /// title, stats and the selected pair's path there; an inset its title): the picture is
    /// drawn, shrunk by `1 − top − bottom`, centred in the rest. 0 for a view of its own.
    pub top: f32,
    /// Fraction of the view's height kept clear at the bottom (an inset's legend).
    pub bottom: f32,
    /// Fraction of the view's width kept clear at the right (an inset's legend beside its
    /// figure): the picture is centred in the rest and shrunk further where a square as
    /// high as it would not fit across the rest (a frustum wider than that square may run
    /// into the band: the insets frame a sphere).
    pub right: f32,
}

impl Camera {
    /// A camera at `eye` looking at `target`.
    pub fn look_at(eye: Vec3, target: Vec3, fov_deg: f32) -> Camera {
        let d = eye - target;
        let distance = d.length().max(0.1);
        Camera {
            target,
            yaw: d.x.atan2(d.z),
            pitch: (d.y / distance).clamp(-1.0, 1.0).asin(),
            distance,
            fov_y: fov_deg.to_radians(),
            top: 0.0,
            bottom: 0.0,
            right: 0.0,
        }
    }

    /// The camera as a scene file writes it (eye, target, field of view); [`Camera::look_at`]
    /// turns it back.
    pub fn desc(&self) -> crate::scene::format::CameraDesc {
        let (eye, target) = (self.eye(), self.target);
        crate::scene::format::CameraDesc {
            eye: (eye.x, eye.y, eye.z),
            target: (target.x, target.y, target.z),
            fov_deg: self.fov_y.to_degrees(),
        }
    }

    /// Eye position.
    pub fn eye(&self) -> Vec3 {
        let (sy, cy) = self.yaw.sin_cos();
        let (sp, cp) = self.pitch.sin_cos();
        self.target + Vec3::new(cp * sy, sp, cp * cy) * self.distance
    }

    /// View matrix (right-handed).
    pub fn view(&self) -> Mat4 {
        Mat4::look_at_rh(self.eye(), self.target, Vec3::Y)
    }

    /// Projection matrix for an aspect ratio (depth 0..1), into the part of the view between
    /// [`Camera::top`] and [`Camera::bottom`], left of [`Camera::right`].
    pub fn projection(&self, aspect: f32) -> Mat4 {
        let near = (self.distance * 0.01).clamp(0.01, 1.0);
        let aspect = aspect.max(1e-3);
        let p = Mat4::perspective_rh(self.fov_y, aspect, near, near * 20_000.0);
        if self.top <= 0.0 && self.bottom <= 0.0 && self.right <= 0.0 {
            return p;
        }
        // x, y → s·x − right, s·y + bottom − top in normalised device coordinates (s = 1 −
        // top − bottom): the top of the picture at 1 − 2·top, its bottom at −1 + 2·bottom,
        // its middle halfway between the left edge and 1 − 2·right. In clip space
        // y' = s·y + (bottom − top)·w. With a band at the right, s is also at most what keeps
        // a picture as wide as it is high inside the rest, (1 − right)·aspect.
        let mut s = 1.0 - self.top - self.bottom;
        if self.right > 0.0 {
            s = s.min((1.0 - self.right) * aspect);
        }
        let shrink = Mat4::from_cols(
            glam::Vec4::new(s, 0.0, 0.0, 0.0),
            glam::Vec4::new(0.0, s, 0.0, 0.0),
            glam::Vec4::new(0.0, 0.0, 1.0, 0.0),
            glam::Vec4::new(-self.right, self.bottom - self.top, 0.0, 1.0),
        );
        shrink * p
    }

    /// View-projection matrix.
    pub fn view_proj(&self, aspect: f32) -> Mat4 {
        self.projection(aspect) * self.view()
    }

    /// World-space ray through normalised device coordinates (x right, y up, in −1..1).
    pub fn ray(&self, ndc: (f32, f32), aspect: f32) -> (Vec3, Vec3) {
        let inv = self.view_proj(aspect).inverse();
        let near = inv.project_point3(Vec3::new(ndc.0, ndc.1, 0.0));
        let far = inv.project_point3(Vec3::new(ndc.0, ndc.1, 1.0));
        (near, (far - near).normalize())
    }

    /// Orbits by mouse motion in pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.yaw -= dx * 0.008;
        self.pitch = (self.pitch + dy * 0.008).clamp(-1.55, 1.55);
    }

    /// Pans by mouse motion in pixels for a viewport of height `h`.
    pub fn pan(&mut self, dx: f32, dy: f32, h: f32) {
        let scale = 2.0 * self.distance * (self.fov_y * 0.5).tan() / h.max(1.0);
        let fwd = (self.target - self.eye()).normalize();
        let right = fwd.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(fwd);
        self.target += (-right * dx + up * dy) * scale;
    }

    /// Zooms by `factor` (< 1 moves in) towards world point `focus`.
    pub fn zoom_towards(&mut self, focus: Vec3, factor: f32) {
        let factor = factor.clamp(0.2, 5.0);
        let new_distance = (self.distance * factor).clamp(0.05, 5_000.0);
        let k = 1.0 - new_distance / self.distance;
        self.target += (focus - self.target) * k;
        self.distance = new_distance;
    }

    /// Fits `bounds` in view, keeping the viewing direction.
    pub fn frame(&mut self, bounds: &Aabb) {
        self.frame_in(bounds, f32::INFINITY);
    }

    /// [`Camera::frame`] for a view of width / height `aspect`: in a view narrower than it
    /// is tall the horizontal field of view is the smaller one, and the bounds must fit it.
    pub fn frame_in(&mut self, bounds: &Aabb, aspect: f32) {
        let radius = (0.5 * (bounds.max - bounds.min)).length().max(0.5);
        self.target = bounds.center();
        let half_y = self.fov_y * 0.5;
        let half = if aspect.is_finite() && aspect > 0.0 { half_y.min((half_y.tan() * aspect).atan()) } else { half_y };
        // A 20 % margin: a bounding sphere that just touches the frame leaves the box's
        // corners on the picture's edge once perspective enlarges the near ones.
        self.distance = radius / half.sin() * 1.2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_at_round_trips_the_eye() {
        let c = Camera::look_at(Vec3::new(3.0, 4.0, 5.0), Vec3::new(0.0, 1.0, 0.0), 45.0);
        assert!((c.eye() - Vec3::new(3.0, 4.0, 5.0)).length() < 1e-4);
    }

    #[test]
    fn centre_ray_points_at_the_target() {
        let c = Camera::look_at(Vec3::new(3.0, 4.0, 5.0), Vec3::new(0.0, 1.0, 0.0), 45.0);
        let (o, d) = c.ray((0.0, 0.0), 1.5);
        let to_target = (c.target - o).normalize();
        assert!(d.dot(to_target) > 0.9999);
    }

    #[test]
    fn zoom_keeps_the_focus_point_fixed_on_screen() {
        let mut c = Camera::look_at(Vec3::new(0.0, 0.0, 10.0), Vec3::ZERO, 60.0);
        let focus = Vec3::new(2.0, 1.0, 0.0);
        let before = c.view_proj(1.0).project_point3(focus);
        c.zoom_towards(focus, 0.5);
        let after = c.view_proj(1.0).project_point3(focus);
        assert!((before.truncate() - after.truncate()).length() < 1e-4);
        assert!((c.distance - 5.0).abs() < 1e-5);
    }

    /// Bands kept clear at the top and the bottom: the picture is the same, shrunk by
    /// 1 − top − bottom about its place between them (its top edge at the top band's foot,
    /// its bottom edge on the bottom band), depth unchanged, and a ray through a pixel meets
    /// the point drawn there.
    #[test]
    fn bands_shrink_the_picture_between_them() {
        let plain = Camera::look_at(Vec3::new(3.0, 4.0, 5.0), Vec3::new(0.0, 1.0, 0.0), 45.0);
        let mut c = plain;
        (c.top, c.bottom) = (0.1, 0.3);
        let s = 1.0 - 0.1 - 0.3;
        let (a, b) = (plain.view_proj(0.8), c.view_proj(0.8));
        for k in 0..30 {
            let f = k as f32;
            let p = Vec3::new((f * 1.3).sin() * 2.0, (f * 0.7).cos() + 1.0, (f * 2.1).sin() * 2.0);
            let (q, r) = (a.project_point3(p), b.project_point3(p));
            assert!(
                (r.x - s * q.x).abs() < 1e-5 && (r.y - (s * q.y + 0.3 - 0.1)).abs() < 1e-5 && (r.z - q.z).abs() < 1e-6
            );
        }
        let p = Vec3::new(0.5, 1.5, -0.5);
        let q = b.project_point3(p);
        let (o, d) = c.ray((q.x, q.y), 0.8);
        assert!((p - o).cross(d).length() < 1e-3);
    }

    /// A band at the right as well (an inset's legend beside its figure): in a view twice as
    /// wide as high, with 0.1 of its height above, 0.2 below and 0.7 of its width at the
    /// right, the rest is 0.3 of the width (0.6 of the height) by 0.7 of the height: the
    /// picture shrinks by min(0.7, 0.3 · 2) = 0.6 about the middle of the rest, at x = −0.7
    /// in normalised device coordinates.
    #[test]
    fn a_band_at_the_right_keeps_the_picture_in_the_rest() {
        let plain = Camera::look_at(Vec3::new(3.0, 4.0, 5.0), Vec3::new(0.0, 1.0, 0.0), 45.0);
        let mut c = plain;
        (c.top, c.bottom, c.right) = (0.1, 0.2, 0.7);
        let (a, b) = (plain.view_proj(2.0), c.view_proj(2.0));
        for k in 0..30 {
            let f = k as f32;
            let p = Vec3::new((f * 1.3).sin() * 2.0, (f * 0.7).cos() + 1.0, (f * 2.1).sin() * 2.0);
            let (q, r) = (a.project_point3(p), b.project_point3(p));
            assert!((r.x - (0.6 * q.x - 0.7)).abs() < 1e-5, "{r} {q}");
            assert!((r.y - (0.6 * q.y + 0.2 - 0.1)).abs() < 1e-5 && (r.z - q.z).abs() < 1e-6);
        }
    }
}
