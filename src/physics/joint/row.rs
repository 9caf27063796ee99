//! The pieces every joint is built from: where the two anchors are now ([`Frame`]), one
//! Jacobian row ([`Jac`]), and the ways a row or a block of rows is solved (equality, soft
//! spring, one-sided limit, motor; blocks of 2 and 3 rows solved together).
//!
//! A row is the time derivative of a scalar position constraint C(x):
//! `Ċ = J·V = la·vA + aa·ωA + lb·vB + ab·ωB`. An impulse λ along it changes the velocities by
//! `M⁻¹Jᵀλ`: `vA += la·λ/mA`, `ωA += IA⁻¹·aa·λ`, and the same for B. A block of rows
//! `J₁ … Jₙ` has the effective-mass matrix `Kᵢⱼ = Jᵢ·M⁻¹·Jⱼᵀ` and is solved for all its
//! impulses at once, `λ = −K⁻¹(Ċ + bias)`; one row is the block of size 1.
//!
//! Position feedback is Box2D v3's soft constraint ([`Softness`], `b2MakeSoft`): in the
//! biased passes `Δλ = −m_scale·K⁻¹(Ċ + rate·C) − i_scale·λ_acc`; in the relax passes
//! the bias is off (`m_scale = 1`, `i_scale = 0`), which takes out the velocity the
//! feedback added. Springs (distance spring, wheel suspension, mouse, soft weld) use their
//! own hertz and damping ratio and stay on in the relax passes: they are the physics, not
//! error correction. One-sided limits are speculative when not yet reached (`C > 0`: the
//! bodies may approach at `C/h`, as speculative contacts do).

use super::Pass;
use crate::physics::solver::{Softness, SolverBody};
use glam::{Mat3A, Quat, Vec3A};

/// The two bodies' anchors and orientations as the solver sees them now.
#[derive(Clone, Copy, Debug, Default)]
pub struct Frame {
    /// A's lever arm: anchor minus centre of mass (world axes).
    pub ra: Vec3A,
    /// B's lever arm.
    pub rb: Vec3A,
    /// B's anchor minus A's anchor.
    pub d: Vec3A,
    /// A's anchor (world).
    pub pa: Vec3A,
    /// B's anchor (world).
    pub pb: Vec3A,
    /// A's orientation.
    pub qa: Quat,
    /// B's orientation.
    pub qb: Quat,
}

/// One Jacobian row (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Jac {
    /// A's linear part.
    pub la: Vec3A,
    /// A's angular part.
    pub aa: Vec3A,
    /// B's linear part.
    pub lb: Vec3A,
    /// B's angular part.
    pub ab: Vec3A,
}

impl Jac {
    /// The row of `n·(pB − pA)` for a direction `n` fixed in space: `[−n, −rA×n, n, rB×n]`.
    #[inline]
    pub fn linear(ra: Vec3A, rb: Vec3A, n: Vec3A) -> Jac {
        Jac { la: -n, aa: -ra.cross(n), lb: n, ab: rb.cross(n) }
    }

    /// The row of `n·(pB − pA)` for a direction `n` turning with A (prismatic, wheel):
    /// A's angular part becomes `−(rA + d)×n` (dyn4j's line-joint derivation in 3D).
    #[inline]
    pub fn linear_on_a(ra: Vec3A, rb: Vec3A, d: Vec3A, n: Vec3A) -> Jac {
        Jac { la: -n, aa: -(ra + d).cross(n), lb: n, ab: rb.cross(n) }
    }

    /// A purely angular row `g·(ωB − ωA)`.
    #[inline]
    pub fn angular(g: Vec3A) -> Jac {
        Jac { la: Vec3A::ZERO, aa: -g, lb: Vec3A::ZERO, ab: g }
    }

    /// The row's velocity `J·V`.
    #[inline]
    pub fn velocity(&self, a: &SolverBody, b: &SolverBody) -> f32 {
        self.la.dot(a.v) + self.aa.dot(a.w) + self.lb.dot(b.v) + self.ab.dot(b.w)
    }

    /// Applies impulse `lambda` along the row: `V += M⁻¹Jᵀλ`.
    #[inline]
    pub fn apply(&self, a: &mut SolverBody, b: &mut SolverBody, lambda: f32) {
        a.v += self.la * (lambda * a.inv_mass);
        a.w += a.inv_i * (self.aa * lambda);
        b.v += self.lb * (lambda * b.inv_mass);
        b.w += b.inv_i * (self.ab * lambda);
    }

    /// `Jᵢ·M⁻¹·Jⱼᵀ` with `o` = Jⱼ.
    #[inline]
    pub fn k(&self, o: &Jac, a: &SolverBody, b: &SolverBody) -> f32 {
        self.la.dot(o.la) * a.inv_mass
            + self.aa.dot(a.inv_i * o.aa)
            + self.lb.dot(o.lb) * b.inv_mass
            + self.ab.dot(b.inv_i * o.ab)
    }

    /// The row as twelve numbers (A linear, A angular, B linear, B angular), for records.
    pub fn to_array(&self) -> [f32; 12] {
        let mut out = [0.0; 12];
        for (k, v) in [self.la, self.aa, self.lb, self.ab].iter().enumerate() {
            out[3 * k..3 * k + 3].copy_from_slice(&v.to_array());
        }
        out
    }
}

/// How a block's position error is fed back in this pass.
#[derive(Clone, Copy, Debug)]
pub struct Feedback {
    /// Velocity bias per unit of error (1/s).
    pub rate: f32,
    /// Scale on the effective mass.
    pub mass_scale: f32,
    /// Fraction of the accumulated impulse removed.
    pub impulse_scale: f32,
}

impl Feedback {
    /// No feedback: the rows only stop the relative velocity (relax passes).
    pub const RIGID: Feedback = Feedback { rate: 0.0, mass_scale: 1.0, impulse_scale: 0.0 };

    /// The soft constraint `s`.
    #[inline]
    pub fn soft(s: &Softness) -> Feedback {
        Feedback { rate: s.bias_rate, mass_scale: s.mass_scale, impulse_scale: s.impulse_scale }
    }

    /// `s` in biased passes, none in relax passes (rigid joints).
    #[inline]
    pub fn rigid(s: &Softness, use_bias: bool) -> Feedback {
        if use_bias {
            Feedback::soft(s)
        } else {
            Feedback::RIGID
        }
    }
}

/// `K⁻¹·r` for a symmetric positive (semi-)definite N×N `K` by Gaussian elimination without
/// pivoting; a row with a vanishing pivot (a body pair that cannot move along it) gets 0.
#[inline]
#[allow(clippy::needless_range_loop)] // elimination reads clearest with indices
pub fn solve_sym<const N: usize>(mut k: [[f32; N]; N], mut r: [f32; N]) -> [f32; N] {
    for i in 0..N {
        let p = k[i][i];
        if p.abs() <= 1e-12 {
            for row in k.iter_mut() {
                row[i] = 0.0;
            }
            k[i] = [0.0; N];
            k[i][i] = 1.0;
            r[i] = 0.0;
            continue;
        }
        for j in i + 1..N {
            let f = k[j][i] / p;
            if f != 0.0 {
                for c in i..N {
                    k[j][c] -= f * k[i][c];
                }
                r[j] -= f * r[i];
            }
        }
    }
    let mut x = [0.0; N];
    for i in (0..N).rev() {
        let mut s = r[i];
        for c in i + 1..N {
            s -= k[i][c] * x[c];
        }
        x[i] = s / k[i][i];
    }
    x
}

/// The effective-mass matrix of a block.
#[inline]
pub fn k_matrix<const N: usize>(rows: &[Jac; N], a: &SolverBody, b: &SolverBody) -> [[f32; N]; N] {
    let mut k = [[0.0; N]; N];
    for i in 0..N {
        for j in i..N {
            let v = rows[i].k(&rows[j], a, b);
            k[i][j] = v;
            k[j][i] = v;
        }
    }
    k
}

/// Solves an equality block: `Δλ = −m_scale·K⁻¹(J·V + rate·C) − i_scale·λ`, added to the
/// accumulated impulses `acc` and applied.
#[inline]
pub fn solve_block<const N: usize>(
    rows: &[Jac; N],
    c: [f32; N],
    fb: Feedback,
    acc: &mut [f32; N],
    a: &mut SolverBody,
    b: &mut SolverBody,
) {
    let mut rhs = [0.0; N];
    for i in 0..N {
        rhs[i] = rows[i].velocity(a, b) + fb.rate * c[i];
    }
    let x = solve_sym(k_matrix(rows, a, b), rhs);
    for i in 0..N {
        let d = -fb.mass_scale * x[i] - fb.impulse_scale * acc[i];
        acc[i] += d;
        rows[i].apply(a, b, d);
    }
}

/// The ball-joint block with its 3×3 K written out (DESIGN.md §8):
/// `K = (1/mA + 1/mB)·I − [rA]ₓ·IA⁻¹·[rA]ₓ − [rB]ₓ·IB⁻¹·[rB]ₓ` (the rows are the world axes,
/// so J·V is the anchors' relative velocity). `c` = pB − pA.
#[inline]
pub fn solve_point(f: &Frame, c: Vec3A, fb: Feedback, acc: &mut Vec3A, a: &mut SolverBody, b: &mut SolverBody) {
    let k = point_k(f, a, b);
    let dv = (b.v + b.w.cross(f.rb)) - (a.v + a.w.cross(f.ra));
    let x = solve3_or_zero(&k, dv + c * fb.rate);
    let d = -fb.mass_scale * x - fb.impulse_scale * *acc;
    *acc += d;
    apply_point(f.ra, f.rb, d, a, b);
}

/// Applies the point impulse `p` (world, on B; −p on A) at lever arms `ra`, `rb`: the ball
/// block's `V += M⁻¹Jᵀp` (solve, warm start).
#[inline]
pub fn apply_point(ra: Vec3A, rb: Vec3A, p: Vec3A, a: &mut SolverBody, b: &mut SolverBody) {
    a.v -= p * a.inv_mass;
    a.w -= a.inv_i * ra.cross(p);
    b.v += p * b.inv_mass;
    b.w += b.inv_i * rb.cross(p);
}

/// The ball joint's K (see [`solve_point`]).
#[inline]
pub fn point_k(f: &Frame, a: &SolverBody, b: &SolverBody) -> Mat3A {
    Mat3A::from_diagonal(glam::Vec3::splat(a.inv_mass + b.inv_mass)) + lever_term(f.ra, a) + lever_term(f.rb, b)
}

/// One body's share of the ball joint's K, `−[r]ₓ·I⁻¹·[r]ₓ`. For a body whose inverse
/// inertia is `s·1` (spheres, cubes: [`SolverBody::isotropic`], taken exactly in `prepare`)
/// it is `s·(|r|²·1 − r·rᵀ)`, since `[r]ₓ² = r·rᵀ − |r|²·1` — the same matrix for a fraction
/// of the products; otherwise column j is `−r × (I⁻¹·(r × eⱼ))`, which is `−[r]ₓ·I⁻¹·[r]ₓ`
/// applied to eⱼ (the test `point_k_matches_the_skew_products` checks both against the
/// skew products).
#[inline]
pub fn lever_term(r: Vec3A, body: &SolverBody) -> Mat3A {
    if body.isotropic {
        let s = body.inv_i.x_axis.x;
        let r2 = r.length_squared();
        Mat3A::from_cols((Vec3A::X * r2 - r * r.x) * s, (Vec3A::Y * r2 - r * r.y) * s, (Vec3A::Z * r2 - r * r.z) * s)
    } else {
        let col = |e: Vec3A| -r.cross(body.inv_i * r.cross(e));
        Mat3A::from_cols(col(Vec3A::X), col(Vec3A::Y), col(Vec3A::Z))
    }
}

/// `K⁻¹·y` by Cramer's rule (the rows of `K⁻¹` are the cross products of K's columns over
/// the determinant), or zero when K is singular (both ends fixed): the same as
/// `inverse_or_zero(k) * y` without forming the inverse.
#[inline]
pub fn solve3_or_zero(k: &Mat3A, y: Vec3A) -> Vec3A {
    let (c0, c1, c2) = (k.x_axis, k.y_axis, k.z_axis);
    let (r0, r1, r2) = (c1.cross(c2), c2.cross(c0), c0.cross(c1));
    let det = c0.dot(r0);
    if det.abs() > 1e-20 && det.is_finite() {
        Vec3A::new(r0.dot(y), r1.dot(y), r2.dot(y)) / det
    } else {
        Vec3A::ZERO
    }
}

/// `[r]ₓ`, the matrix of `v ↦ r × v`.
#[inline]
pub fn skew(r: Vec3A) -> Mat3A {
    Mat3A::from_cols(Vec3A::new(0.0, r.z, -r.y), Vec3A::new(-r.z, 0.0, r.x), Vec3A::new(r.y, -r.x, 0.0))
}

/// `K⁻¹`, or zero when K is singular (both ends fixed).
#[inline]
pub fn inverse_or_zero(k: &Mat3A) -> Mat3A {
    let det = k.determinant();
    if det.abs() > 1e-20 && det.is_finite() {
        k.inverse()
    } else {
        Mat3A::ZERO
    }
}

/// The angular block `λ = −K⁻¹(ωB − ωA + rate·C)` with `K = IA⁻¹ + IB⁻¹` (weld, slider):
/// the rows are the world axes.
#[inline]
pub fn solve_rotation(c: Vec3A, fb: Feedback, acc: &mut Vec3A, a: &mut SolverBody, b: &mut SolverBody) {
    let k = a.inv_i + b.inv_i;
    let x = inverse_or_zero(&k) * (b.w - a.w + c * fb.rate);
    let d = -fb.mass_scale * x - fb.impulse_scale * *acc;
    *acc += d;
    a.w -= a.inv_i * d;
    b.w += b.inv_i * d;
}

/// A one-sided row `C ≥ 0` (limits): speculative while apart, soft (or rigid in relax)
/// once reached; the accumulated impulse stays ≥ 0.
#[inline]
pub fn solve_limit(row: &Jac, c: f32, pass: &Pass, acc: &mut f32, a: &mut SolverBody, b: &mut SolverBody) {
    let fb = if c > 0.0 {
        Feedback { rate: pass.inv_h, mass_scale: 1.0, impulse_scale: 0.0 }
    } else {
        Feedback::rigid(&pass.soft, pass.use_bias)
    };
    let k = row.k(row, a, b);
    if k <= 0.0 {
        return;
    }
    let v = row.velocity(a, b);
    let d = -fb.mass_scale * (v + fb.rate * c) / k - fb.impulse_scale * *acc;
    let new = (*acc + d).max(0.0);
    let d = new - *acc;
    *acc = new;
    row.apply(a, b, d);
}

/// A motor row: drives `J·V` to `speed` with an accumulated impulse within `±max_impulse`.
#[inline]
pub fn solve_motor(row: &Jac, speed: f32, max_impulse: f32, acc: &mut f32, a: &mut SolverBody, b: &mut SolverBody) {
    let k = row.k(row, a, b);
    if k <= 0.0 {
        return;
    }
    let v = row.velocity(a, b);
    let new = (*acc - (v - speed) / k).clamp(-max_impulse, max_impulse);
    let d = new - *acc;
    *acc = new;
    row.apply(a, b, d);
}

/// An equality row with feedback `fb` (one-row [`solve_block`]).
#[inline]
pub fn solve_row(row: &Jac, c: f32, fb: Feedback, acc: &mut f32, a: &mut SolverBody, b: &mut SolverBody) {
    let k = row.k(row, a, b);
    if k <= 0.0 {
        return;
    }
    let v = row.velocity(a, b);
    let d = -fb.mass_scale * (v + fb.rate * c) / k - fb.impulse_scale * *acc;
    *acc += d;
    row.apply(a, b, d);
}

/// Rotation vector (axis × angle, rad) of a unit quaternion, taking the short way round.
#[inline]
pub fn rotation_vector(q: Quat) -> Vec3A {
    let q = if q.w < 0.0 { -q } else { q };
    let s = Vec3A::from(q.xyz());
    let sin = s.length();
    if sin < 1e-6 {
        return 2.0 * s;
    }
    s * (2.0 * sin.atan2(q.w) / sin)
}

/// The twist angle of `q` about the unit axis `n` (swing–twist decomposition), in
/// (−π, π].
#[inline]
pub fn twist_angle(q: Quat, n: Vec3A) -> f32 {
    let p = Vec3A::from(q.xyz()).dot(n);
    let t = 2.0 * p.atan2(q.w);
    // atan2 covers (−2π, 2π]: fold into (−π, π].
    if t > std::f32::consts::PI {
        t - 2.0 * std::f32::consts::PI
    } else if t <= -std::f32::consts::PI {
        t + 2.0 * std::f32::consts::PI
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solve_sym_inverts_a_small_spd_matrix() {
        let k = [[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]];
        let x = solve_sym(k, [1.0, 2.0, 3.0]);
        for i in 0..3 {
            let r: f32 = (0..3).map(|j| k[i][j] * x[j]).sum();
            assert!((r - [1.0, 2.0, 3.0][i]).abs() < 1e-5);
        }
    }

    /// The ball joint's K from [`lever_term`] (isotropic shortcut and column form) equals
    /// `(1/mA + 1/mB)·1 − [rA]ₓ·IA⁻¹·[rA]ₓ − [rB]ₓ·IB⁻¹·[rB]ₓ` by skew products, and
    /// [`solve3_or_zero`] equals multiplying by the inverse.
    #[test]
    fn point_k_matches_the_skew_products() {
        let iso = SolverBody {
            inv_mass: 0.5,
            inv_i: Mat3A::from_diagonal(glam::Vec3::splat(2.5)),
            isotropic: true,
            ..super::super::STATIC
        };
        let q = Quat::from_rotation_x(0.4) * Quat::from_rotation_z(-0.7);
        let m = glam::Mat3::from_quat(q);
        let local = glam::Mat3::from_diagonal(glam::Vec3::new(1.0, 3.0, 7.0));
        let aniso = SolverBody {
            inv_mass: 0.25,
            inv_i: Mat3A::from(m * local * m.transpose()),
            isotropic: false,
            ..super::super::STATIC
        };
        let f = Frame { ra: Vec3A::new(0.3, -0.5, 0.2), rb: Vec3A::new(-0.1, 0.4, 0.6), ..Default::default() };
        for (a, b) in [(&iso, &aniso), (&aniso, &iso), (&iso, &iso), (&aniso, &aniso)] {
            let (sa, sb) = (skew(f.ra), skew(f.rb));
            let want = Mat3A::from_diagonal(glam::Vec3::splat(a.inv_mass + b.inv_mass))
                - sa * a.inv_i * sa
                - sb * b.inv_i * sb;
            let k = point_k(&f, a, b);
            for (c, w) in [(k.x_axis, want.x_axis), (k.y_axis, want.y_axis), (k.z_axis, want.z_axis)] {
                assert!((c - w).length() < 1e-5, "{k:?} vs {want:?}");
            }
            let y = Vec3A::new(0.7, -1.3, 2.1);
            let (x, x_inv) = (solve3_or_zero(&k, y), inverse_or_zero(&k) * y);
            assert!((x - x_inv).length() < 1e-5 * x_inv.length(), "{x} vs {x_inv}");
            assert!((k * x - y).length() < 1e-4, "K·x = {} for y = {y}", k * x);
        }
        assert_eq!(solve3_or_zero(&Mat3A::ZERO, Vec3A::ONE), Vec3A::ZERO);
    }

    #[test]
    fn twist_and_rotation_vector_read_back_the_angle() {
        let q = Quat::from_axis_angle(glam::Vec3::Y, 1.2);
        assert!((twist_angle(q, Vec3A::Y) - 1.2).abs() < 1e-5);
        assert!((rotation_vector(q) - Vec3A::new(0.0, 1.2, 0.0)).length() < 1e-5);
        let q = Quat::from_axis_angle(glam::Vec3::Y, -2.5);
        assert!((twist_angle(q, Vec3A::Y) + 2.5).abs() < 1e-5);
    }
}
