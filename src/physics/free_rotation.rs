//! The free rotation update: how a rigid body turns between impulses while its angular
//! momentum about a point that does not accelerate is held fixed — its centre of mass for a
//! free body ([`crate::physics::Body::integrate_rotation`]), or a fixed pivot for a body hung
//! from one (the world's pinned bodies, `world/pivots.rs`). The update reads only an
//! [`Inertia`] about that point, so the same three rules serve both:
//! - isotropic inertia (cubes, spheres about their centre): ω is constant, a rotation by ω·dt;
//! - needles and rods ([`NEEDLE_RATIO`]): one implicit Newton step, which never gains energy;
//! - everything else: the symmetric-top splitting, exact for two equal moments (discs, wheels,
//!   tops) and symplectic for the rest, so |L| holds to round-off and the energy error stays
//!   bounded at any step.
//!
//! Limits: the implicit rule damps the slow flips of needles a little; the splitting's error
//! for three unequal moments is bounded but not zero (module tests of [`crate::physics::body`]).

use glam::{Mat3, Quat, Vec3};

/// An inertia tensor as the rotation update reads it, in the body's axes about one point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inertia {
    /// The tensor.
    pub local: Mat3,
    /// Its inverse.
    pub inv_local: Mat3,
    /// Its principal axes, as the rotation whose columns they are.
    pub axes: Quat,
    /// Its principal moments, ascending.
    pub moments: Vec3,
}

/// Whether the inertia whose inverse is `inv` is the same about every axis (to 1e-5
/// relative), so the world inertia never changes with the rotation.
#[inline]
pub fn isotropic(inv: &Mat3) -> bool {
    let m = inv;
    let d = m.x_axis.x;
    let tol = 1e-5 * d.abs();
    (m.y_axis.y - d).abs() <= tol
        && (m.z_axis.z - d).abs() <= tol
        && m.x_axis.y.abs() <= tol
        && m.x_axis.z.abs() <= tol
        && m.y_axis.z.abs() <= tol
}

/// Bound `tr(I)·tr(I⁻¹)` (at least the ratio of the largest to the smallest principal
/// inertia) above which a body integrates its rotation implicitly ([`Inertia::turn`]): a
/// cube gives 9, a 4:2:1 box 13, a 1 mm × 1 mm × 0.5 m needle 4·10⁵.
pub const NEEDLE_RATIO: f32 = 300.0;

impl Inertia {
    /// The inertia `local` (body axes) with its inverse and principal frame; `None` when it
    /// cannot be inverted.
    pub fn new(local: Mat3) -> Option<Inertia> {
        let inv_local = local.inverse();
        if !inv_local.is_finite() || local.determinant() <= 0.0 {
            return None;
        }
        let (axes, moments) = crate::physics::principal::principal_axes(local);
        Some(Inertia { local, inv_local, axes, moments })
    }

    /// The inertia about the body point `arm` (body axes, from the centre of mass) of a body
    /// of `mass` whose inertia about its centre of mass is `self` (the parallel-axis theorem:
    /// `I + m·(|a|²·1 − a⊗a)`).
    pub fn about(&self, mass: f32, arm: Vec3) -> Option<Inertia> {
        let outer = Mat3::from_cols(arm * arm.x, arm * arm.y, arm * arm.z);
        Inertia::new(self.local + (Mat3::IDENTITY * arm.length_squared() - outer) * mass)
    }

    /// Whether the moments are all the same (to 1e-5 relative).
    #[inline]
    pub fn isotropic(&self) -> bool {
        isotropic(&self.inv_local)
    }

    /// Whether one principal moment is tiny beside another ([`NEEDLE_RATIO`]): needles and
    /// rods, which take the implicit update.
    pub fn needle_like(&self) -> bool {
        let tr = |m: &Mat3| m.x_axis.x + m.y_axis.y + m.z_axis.z;
        tr(&self.local) * tr(&self.inv_local) > NEEDLE_RATIO
    }

    /// The orientation and angular velocity (world) after turning freely for `dt` from
    /// `rot` at `w`, the angular momentum `R·I·Rᵀ·ω` held fixed.
    pub fn turn(&self, rot: Quat, w: Vec3, dt: f32) -> (Quat, Vec3) {
        if w.length_squared() == 0.0 {
            return (rot, w);
        }
        if self.isotropic() {
            // I = s·1 in every frame: ω = I⁻¹L is constant, so the exact update is a
            // rotation by ω·dt (cubes, spheres, regular solids).
            return ((rotation(w * dt) * rot).normalize(), w);
        }
        if self.needle_like() {
            return self.turn_implicit(rot, w, dt);
        }
        self.turn_split(rot, w, dt)
    }

    /// One step of the implicit gyroscopic update (Catto, "Numerical methods", GDC 2015;
    /// Bullet's `computeGyroscopicImpulseImplicit_Body`): in body axes, one Newton step on
    /// `I·(ω' − ω) + dt·ω' × I·ω' = 0`, then a rotation by ω'·dt. Unconditionally stable and
    /// never gaining energy for rods and needles, where an explicit rule turned the round-off
    /// of the orientation into a huge spin about the thin axis (the fuzzer's 1 mm needles and
    /// slivers); it damps the slow flips of free bodies a little, which is why ordinary
    /// bodies take the splitting.
    fn turn_implicit(&self, rot: Quat, w: Vec3, dt: f32) -> (Quat, Vec3) {
        let q = rot;
        let ib = self.local;
        let wb = q.conjugate() * w;
        let iw = ib * wb;
        let f = wb.cross(iw) * dt;
        let skew =
            |v: Vec3| Mat3::from_cols(Vec3::new(0.0, v.z, -v.y), Vec3::new(-v.z, 0.0, v.x), Vec3::new(v.y, -v.x, 0.0));
        let jac = ib + (skew(wb) * ib - skew(iw)) * dt;
        let step = jac.inverse() * f;
        let mut wb2 = if step.is_finite() { wb - step } else { wb };
        // Twice the spin energy, ω·Iω, may not grow (the Newton step is only approximately
        // the implicit solution).
        let (e0, e2) = (wb.dot(iw), wb2.dot(ib * wb2));
        if e2 > e0 && e0 >= 0.0 {
            wb2 *= (e0 / e2).sqrt();
        }
        let w2 = q * wb2;
        ((rotation(w2 * dt) * q).normalize(), w2)
    }

    /// The free rotation over `dt` by the symmetric-top splitting (Fassò, "Comparison of
    /// splitting algorithms for the rigid body", J. Comput. Phys. 2003). In the principal
    /// frame the spin energy is `Σ Πᵢ²/(2Iᵢ)`. Of the two closest moments `I_p`, `I_q`, take
    /// `1/I_s = ½(1/I_p + 1/I_q)` and write the energy as the energy of a symmetric top,
    /// `|L|²/(2I_s) + Π_o²·(1/I_o − 1/I_s)/2` (o the odd axis), plus the small rest
    /// `Σ_{i=p,q} Πᵢ²·(1/Iᵢ − 1/I_s)/2`. Each piece moves exactly: the top turns about the
    /// world's L by `|L|·τ/I_s` and about its odd axis by `Π_o·(1/I_o − 1/I_s)·τ` (the two
    /// commute), and each term of the rest turns the body about its axis i by
    /// `Πᵢ·(1/Iᵢ − 1/I_s)·τ` with Π turned back by as much. The step is the rest over dt/2,
    /// the top over dt, the rest over dt/2.
    ///
    /// Every piece is a rotation that keeps the world's L, so |L| and its direction hold to
    /// round-off; the method is symplectic and time-reversible, so the energy error stays
    /// bounded (no drift); and for a body with two equal moments (a disc, a wheel, a top,
    /// a regular prism) the rest vanishes and the step is the exact motion, however far it
    /// turns. The explicit midpoint rule it replaced let a disc spinning at 99 rad/s about
    /// its axle wobble ever wider (at 60 Hz it tumbled onto a transverse axis within ten
    /// steps).
    fn turn_split(&self, rot: Quat, w: Vec3, dt: f32) -> (Quat, Vec3) {
        use glam::{DQuat, DVec3};
        let m = self.moments.as_dvec3();
        // The odd axis: the moment farthest from its neighbour (moments ascend).
        let (p, q, o) = if m.y - m.x <= m.z - m.y { (0, 1, 2) } else { (1, 2, 0) };
        let inv = m.recip();
        let inv_s = 0.5 * (inv[p] + inv[q]);
        let dt = dt as f64;
        let axes = self.axes.as_dquat().normalize();
        let mut rot = rot.as_dquat().normalize() * axes;
        let l = rot * (m * (rot.conjugate() * w.as_dvec3()));
        let mut pi = rot.conjugate() * l;
        let about = |axis: usize, rate: f64, tau: f64, rot: &mut DQuat, pi: &mut DVec3| {
            let angle = pi[axis] * rate * tau;
            if angle != 0.0 {
                let mut turn = DVec3::ZERO;
                turn[axis] = angle;
                let r = rotation_f64(turn);
                *rot *= r;
                *pi = r.conjugate() * *pi;
            }
        };
        let half = 0.5 * dt;
        about(p, inv[p] - inv_s, half, &mut rot, &mut pi);
        about(q, inv[q] - inv_s, half, &mut rot, &mut pi);
        // The symmetric top: about the world's L (Π unchanged), then about the odd axis.
        rot = rotation_f64(l * (inv_s * dt)) * rot;
        about(o, inv[o] - inv_s, dt, &mut rot, &mut pi);
        about(q, inv[q] - inv_s, half, &mut rot, &mut pi);
        about(p, inv[p] - inv_s, half, &mut rot, &mut pi);
        let rot = rot.normalize();
        ((rot * axes.conjugate()).normalize().as_quat(), (rot * (pi / m)).as_vec3())
    }
}

/// Below this squared half-angle (2⁻²⁴), `1 − t2/2` rounds to 1 in f32 (and so does
/// `1 − t2/6`): [`rotation`]'s series reduce to `(v/2, 1)` bit for bit.
const TINY_TURN: f32 = f32::EPSILON / 2.0;

/// The unit quaternion of a rotation by the vector `v` (angle |v| about v/|v|), `exp(v/2)`.
/// A step turns a body by a small angle, so below a half-angle θ of 0.05 rad Taylor series
/// replace sin and cos: `sin θ / θ ≈ 1 − θ²/6 + θ⁴/120`, `cos θ ≈ 1 − θ²/2 + θ⁴/24`, with
/// truncation errors below θ⁶/720 ≈ 2·10⁻¹¹, far under f32 precision. Below `TINY_TURN`
/// (a resting body's turn in a substep) the series are `(v/2, 1)` to the bit and are not
/// evaluated: their two divisions lay on every substep's chain from one body's turn to its
/// next, and for the stillest bodies their fourth powers are subnormal numbers, which most
/// processors compute slowly (docs/BENCHMARKS.md).
#[inline]
pub fn rotation(v: Vec3) -> Quat {
    let t2 = 0.25 * v.length_squared();
    if t2 < TINY_TURN {
        // What the series give there, exactly: 1 − t2/6 and 1 − t2/2 round to 1, and the
        // fourth-order terms, far below that rounding, leave it.
        Quat::from_xyzw(v.x * 0.5, v.y * 0.5, v.z * 0.5, 1.0)
    } else if t2 < 0.0025 {
        series(v, t2)
    } else {
        Quat::from_scaled_axis(v)
    }
}

/// [`rotation`]'s Taylor series for `v`, whose squared half-angle is `t2`.
#[inline]
fn series(v: Vec3, t2: f32) -> Quat {
    let half_sinc = 0.5 * (1.0 - t2 / 6.0 + t2 * t2 / 120.0);
    let cos = 1.0 - 0.5 * t2 + t2 * t2 / 24.0;
    Quat::from_xyzw(v.x * half_sinc, v.y * half_sinc, v.z * half_sinc, cos)
}

/// [`rotation`] in f64 (the splitting's turns; the same series below a half-angle of 0.05,
/// whose truncation error, θ⁶/720 ≈ 2·10⁻¹¹, is then far below what f32 state keeps).
#[inline]
fn rotation_f64(v: glam::DVec3) -> glam::DQuat {
    let t2 = 0.25 * v.length_squared();
    if t2 < 0.0025 {
        let half_sinc = 0.5 * (1.0 - t2 / 6.0 + t2 * t2 / 120.0);
        let cos = 1.0 - 0.5 * t2 + t2 * t2 / 24.0;
        glam::DQuat::from_xyzw(v.x * half_sinc, v.y * half_sinc, v.z * half_sinc, cos)
    } else {
        glam::DQuat::from_scaled_axis(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec4;

    #[test]
    fn small_angle_rotation_matches_the_exact_exponential() {
        // Angles from 1e-7 to 1 rad about many axes, on both sides of the series cut-off.
        let mut worst = 0.0f32;
        for i in 0..2000 {
            let angle = 10f32.powf(-7.0 + 7.0 * i as f32 / 2000.0);
            let axis =
                Vec3::new((i as f32 * 0.7).sin(), (i as f32 * 1.3).cos(), (i as f32 * 0.31).sin() + 0.2).normalize();
            let (q, exact) = (rotation(axis * angle), Quat::from_scaled_axis(axis * angle));
            worst = worst.max((Vec4::from(q) - Vec4::from(exact)).abs().max_element());
            assert!((q.length() - 1.0).abs() < 1e-6);
        }
        assert!(worst < 3e-7, "worst component error {worst}");
    }

    /// Below [`TINY_TURN`] the rotation is `(v/2, 1)` without the series: the same bits as
    /// the series themselves, for half-angles from 10⁻³⁰ rad (whose squares are subnormal
    /// or zero) to just past the cut, about many axes.
    #[test]
    fn tiny_turns_are_the_series_bit_for_bit() {
        let mut below = 0;
        for i in 0..4000 {
            // Half-angles from 10⁻³⁰ to 6.3·10⁻⁴ rad (squared, about 7·TINY_TURN).
            let angle = 2.0 * 10f32.powf(-30.0 + 26.8 * i as f32 / 4000.0);
            let axis =
                Vec3::new((i as f32 * 0.7).sin(), (i as f32 * 1.3).cos(), (i as f32 * 0.31).sin() + 0.2).normalize();
            let v = axis * angle;
            let (q, s) = (rotation(v), series(v, 0.25 * v.length_squared()));
            assert_eq!(Vec4::from(q).to_array().map(f32::to_bits), Vec4::from(s).to_array().map(f32::to_bits), "{v}");
            below += usize::from(0.25 * v.length_squared() < TINY_TURN);
        }
        assert!(below > 3000 && below < 4000, "{below} of 4000 turns below the cut");
    }
}
