//! Rigid transforms (`Iso`) and small geometric helpers shared by the physics module.
//!
//! Convention: an `Iso` maps a body's local frame to world space, `x_world = rot * x_local + pos`.
//! `Iso::relative(a, b)` is the pose of frame `b` expressed in frame `a` (rapier's `pos12`):
//! narrow-phase code works in one shape's frame and moves the other shape into it once.

use glam::{Quat, Vec3};

/// A rigid transform: rotation followed by translation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iso {
    /// Translation (the body's centre of mass in world space for bodies).
    pub pos: Vec3,
    /// Unit rotation quaternion.
    pub rot: Quat,
}

impl Default for Iso {
    fn default() -> Self {
        Self::IDENTITY
    }
}

impl Iso {
    /// The identity transform.
    pub const IDENTITY: Iso = Iso { pos: Vec3::ZERO, rot: Quat::IDENTITY };

    /// A transform from a translation and a rotation.
    pub fn new(pos: Vec3, rot: Quat) -> Self {
        Self { pos, rot }
    }

    /// A pure translation.
    pub fn from_translation(pos: Vec3) -> Self {
        Self { pos, rot: Quat::IDENTITY }
    }

    /// Local point to world.
    #[inline]
    pub fn transform_point(&self, p: Vec3) -> Vec3 {
        self.rot * p + self.pos
    }

    /// Local direction to world.
    #[inline]
    pub fn transform_vector(&self, v: Vec3) -> Vec3 {
        self.rot * v
    }

    /// World point to local.
    #[inline]
    pub fn inv_transform_point(&self, p: Vec3) -> Vec3 {
        self.rot.conjugate() * (p - self.pos)
    }

    /// World direction to local.
    #[inline]
    pub fn inv_transform_vector(&self, v: Vec3) -> Vec3 {
        self.rot.conjugate() * v
    }

    /// The inverse transform.
    pub fn inverse(&self) -> Iso {
        let inv = self.rot.conjugate();
        Iso { pos: -(inv * self.pos), rot: inv }
    }

    /// Composition `self ∘ other` (apply `other` first).
    pub fn mul(&self, other: &Iso) -> Iso {
        Iso { pos: self.transform_point(other.pos), rot: (self.rot * other.rot).normalize() }
    }

    /// Pose of frame `b` expressed in frame `a`: `a⁻¹ ∘ b`, with one rotation of the offset
    /// and no renormalisation: the product of two unit quaternions is unit to rounding, and
    /// relative poses are used once (narrow phase), never composed further. The square root
    /// and division of a renormalisation were a third of a separated box–box query.
    #[inline]
    pub fn relative(a: &Iso, b: &Iso) -> Iso {
        let inv = a.rot.conjugate();
        Iso { pos: inv * (b.pos - a.pos), rot: inv * b.rot }
    }
}

/// An axis-aligned bounding box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Minimum corner.
    pub min: Vec3,
    /// Maximum corner.
    pub max: Vec3,
}

impl Aabb {
    /// A box from its corners.
    pub fn new(min: Vec3, max: Vec3) -> Self {
        Self { min, max }
    }

    /// Whether two boxes overlap (touching counts).
    #[inline]
    pub fn overlaps(&self, o: &Aabb) -> bool {
        self.min.cmple(o.max).all() && o.min.cmple(self.max).all()
    }

    /// Whether `o` lies inside this box (faces may touch).
    #[inline]
    pub fn contains(&self, o: &Aabb) -> bool {
        self.min.cmple(o.min).all() && o.max.cmple(self.max).all()
    }

    /// The box grown by `m` on every side.
    pub fn expanded(&self, m: f32) -> Aabb {
        Aabb { min: self.min - Vec3::splat(m), max: self.max + Vec3::splat(m) }
    }

    /// Smallest box holding this one moved by every fraction of `d` (the box and its copy
    /// moved by `d`).
    #[inline]
    pub fn swept(&self, d: Vec3) -> Aabb {
        Aabb { min: self.min.min(self.min + d), max: self.max.max(self.max + d) }
    }

    /// Smallest box holding both.
    pub fn union(&self, o: &Aabb) -> Aabb {
        Aabb { min: self.min.min(o.min), max: self.max.max(o.max) }
    }

    /// Centre point.
    pub fn center(&self) -> Vec3 {
        0.5 * (self.min + self.max)
    }

    /// A box in the frame `x` that holds this (world) box: its centre taken into the frame,
    /// its half extents through the absolute rotation matrix.
    pub fn to_local(&self, x: &Iso) -> Aabb {
        let c = x.inv_transform_point(self.center());
        let h = 0.5 * (self.max - self.min);
        let m = glam::Mat3::from_quat(x.rot).transpose();
        let h = m.x_axis.abs() * h.x + m.y_axis.abs() * h.y + m.z_axis.abs() * h.z;
        Aabb { min: c - h, max: c + h }
    }
}

/// Two unit vectors perpendicular to `n` and to each other, (t1, t2, n) right-handed.
/// Continuous except near n = −z (Duff et al., "Building an orthonormal basis, revisited").
pub fn tangent_basis(n: Vec3) -> (Vec3, Vec3) {
    let sign = if n.z >= 0.0 { 1.0 } else { -1.0 };
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    let t1 = Vec3::new(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let t2 = Vec3::new(b, sign + n.y * n.y * a, -n.y);
    (t1, t2)
}

/// Closest points between segments `p1 q1` and `p2 q2` (Ericson, Real-Time Collision
/// Detection §5.1.9). Returns the two points and their parameters `(s, t)` in [0, 1].
pub fn closest_points_segments(p1: Vec3, q1: Vec3, p2: Vec3, q2: Vec3) -> (Vec3, Vec3, f32, f32) {
    let d1 = q1 - p1;
    let d2 = q2 - p2;
    let r = p1 - p2;
    let a = d1.dot(d1);
    let e = d2.dot(d2);
    let f = d2.dot(r);
    let eps = 1e-12;
    let (s, t);
    if a <= eps && e <= eps {
        return (p1, p2, 0.0, 0.0);
    }
    if a <= eps {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(r);
        if e <= eps {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(d2);
            let denom = a * e - b * b;
            let mut s0 = if denom > eps * a * e { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let mut t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t0 = 0.0;
                s0 = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t0 = 1.0;
                s0 = ((b - c) / a).clamp(0.0, 1.0);
            }
            s = s0;
            t = t0;
        }
    }
    (p1 + d1 * s, p2 + d2 * t, s, t)
}

/// Closest point on segment `p q` to `x`, and its parameter.
pub fn closest_point_segment(p: Vec3, q: Vec3, x: Vec3) -> (Vec3, f32) {
    let d = q - p;
    let l2 = d.length_squared();
    if l2 <= 1e-12 {
        return (p, 0.0);
    }
    let t = ((x - p).dot(d) / l2).clamp(0.0, 1.0);
    (p + d * t, t)
}

/// Hints the CPU to load the cache line holding `x` (no effect on results).
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint; it reads nothing the program sees and cannot
    // fault, and `x` is a valid reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// [`prefetch`] for every cache line of `x` (a record larger than one line): a byte every
/// 64 from its start, and its last byte (a record that does not start a line reaches one
/// line further).
#[inline(always)]
pub(crate) fn prefetch_all<T>(x: &T) {
    let (base, size) = ((x as *const T).cast::<u8>(), std::mem::size_of::<T>());
    // A count known at compile time: the loop unrolls into one prefetch per line.
    for line in 0..size.div_ceil(64) {
        // SAFETY: `line · 64` lies inside `x`.
        prefetch(unsafe { &*base.add(line * 64) });
    }
    if size > 0 {
        // SAFETY: the last byte of `x`.
        prefetch(unsafe { &*base.add(size - 1) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_pose_round_trips() {
        let a = Iso::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.7));
        let b = Iso::new(Vec3::new(-1.0, 0.5, 2.0), Quat::from_rotation_x(-0.3));
        let rel = Iso::relative(&a, &b);
        let p = Vec3::new(0.3, -0.2, 0.9);
        let via = a.transform_point(rel.transform_point(p));
        assert!((via - b.transform_point(p)).length() < 1e-5);
    }

    #[test]
    fn tangent_basis_is_orthonormal() {
        for n in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::Z, Vec3::new(1.0, 2.0, -3.0).normalize()] {
            let (t1, t2) = tangent_basis(n);
            assert!(t1.dot(n).abs() < 1e-6 && t2.dot(n).abs() < 1e-6 && t1.dot(t2).abs() < 1e-6);
            assert!((t1.cross(t2) - n).length() < 1e-5);
        }
    }

    #[test]
    fn crossed_segments_closest_points() {
        let (a, b, s, t) = closest_points_segments(
            Vec3::new(-1.0, 0.0, 0.0),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0, -1.0),
            Vec3::new(0.0, 1.0, 1.0),
        );
        assert!((a - Vec3::ZERO).length() < 1e-6 && (b - Vec3::Y).length() < 1e-6);
        assert!((s - 0.5).abs() < 1e-6 && (t - 0.5).abs() < 1e-6);
    }
}
