//! Four-lane vector types for the SIMD solver ([`super::wide`]): four 3-vectors, four
//! quaternions and four symmetric 3×3 matrices stored by component in `glam::Vec4`s, so one
//! SSE instruction works on the same component of four manifolds.

use super::SolverBody;
use crate::physics::parallel::Shared;
use glam::{Vec3A, Vec4};

/// Read access to the solver bodies by index: the plain slice (building the batches), or
/// the view one colour's round shares between the worker threads (the passes).
pub(super) trait Bodies {
    /// Body `i`.
    fn at(&self, i: u32) -> &SolverBody;
}

impl Bodies for [SolverBody] {
    #[inline(always)]
    fn at(&self, i: u32) -> &SolverBody {
        &self[i as usize]
    }
}

/// The view of a round of the passes: only the batches' own body indices are read through
/// it, and [`super::wide::WideSolver`] checked those against the body count when it built
/// the batches, and checks that count against the view before every round.
impl Bodies for Shared<'_, SolverBody> {
    #[inline(always)]
    fn at(&self, i: u32) -> &SolverBody {
        // SAFETY: `i` is a batch's body index, below the view's length (above). A round of
        // the wide solver runs the batches of one colour, which share no dynamic body
        // (`super::colouring`): a body read here is written only by the batch that reads
        // it, after its reads, or (static bodies) by nobody.
        unsafe { self.get_unchecked(i as usize) }
    }
}

/// Lanes per batch.
pub const LANES: usize = 4;

/// `[f(idx[0]), …, f(idx[3])]`, written out: `array::map` goes through an iterator adapter
/// that the compiler does not always inline, and these run for every batch of every pass
/// (and of every build: body indices, constraints, points, lane numbers).
#[inline(always)]
pub(crate) fn per_lane<I: Copy, T>(idx: &[I; LANES], f: impl Fn(I) -> T) -> [T; LANES] {
    [f(idx[0]), f(idx[1]), f(idx[2]), f(idx[3])]
}

/// Four 3-vectors, one per lane, stored by component.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct V3 {
    pub(crate) x: Vec4,
    pub(crate) y: Vec4,
    pub(crate) z: Vec4,
}

impl V3 {
    #[inline]
    pub(crate) fn dot(&self, o: &V3) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[inline]
    pub(crate) fn sub(&self, o: &V3) -> V3 {
        V3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }

    #[inline]
    pub(crate) fn add(&self, o: &V3) -> V3 {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }

    #[inline]
    pub(crate) fn scale(&self, s: Vec4) -> V3 {
        V3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }

    #[inline]
    pub(crate) fn cross(&self, o: &V3) -> V3 {
        V3 { x: self.y * o.z - self.z * o.y, y: self.z * o.x - self.x * o.z, z: self.x * o.y - self.y * o.x }
    }

    /// `self += d * s`.
    #[inline]
    pub(crate) fn add_scaled(&mut self, d: &V3, s: Vec4) {
        self.x += d.x * s;
        self.y += d.y * s;
        self.z += d.z * s;
    }

    /// The four vectors `p`, one per lane: a 4×4 transpose (the fourth component of a
    /// `Vec3A` is never read).
    #[inline(always)]
    pub(crate) fn from_lanes(p: [Vec3A; LANES]) -> V3 {
        let t = glam::Mat4::from_cols(p[0].extend(0.0), p[1].extend(0.0), p[2].extend(0.0), p[3].extend(0.0));
        let t = t.transpose();
        V3 { x: t.x_axis, y: t.y_axis, z: t.z_axis }
    }

    /// The four lanes as vectors (the inverse of [`V3::from_lanes`]).
    #[inline(always)]
    pub(crate) fn to_lanes(self) -> [Vec3A; LANES] {
        let t = glam::Mat4::from_cols(self.x, self.y, self.z, Vec4::ZERO).transpose();
        [t.x_axis, t.y_axis, t.z_axis, t.w_axis].map(Vec3A::from_vec4)
    }

    /// Lane `lane` as a vector.
    pub(crate) fn lane(&self, lane: usize) -> Vec3A {
        Vec3A::new(self.x[lane], self.y[lane], self.z[lane])
    }
}

/// Four unit quaternions by component.
pub(super) struct Q4 {
    pub(super) v: V3,
    pub(super) w: Vec4,
}

impl Q4 {
    #[inline(always)]
    pub(super) fn gather<B: Bodies + ?Sized>(bodies: &B, idx: &[u32; LANES]) -> Q4 {
        let w = per_lane(idx, |i| bodies.at(i).dq.w);
        Q4 { v: gather_v3(bodies, idx, |b| b.dq.xyz().into()), w: Vec4::from_array(w) }
    }

    /// `q·r·q*` as `r + w·t + v × t` with `t = 2 v × r`.
    #[inline]
    pub(super) fn rotate(&self, r: &V3) -> V3 {
        let t = self.v.cross(r).scale(Vec4::splat(2.0));
        r.add(&t.scale(self.w)).add(&self.v.cross(&t))
    }

    /// `q*·r·q`, the inverse turn (the same formula with `v` negated).
    #[inline]
    pub(super) fn rotate_back(&self, r: &V3) -> V3 {
        let v = V3 { x: -self.v.x, y: -self.v.y, z: -self.v.z };
        Q4 { v, w: self.w }.rotate(r)
    }
}

/// `f` of each lane's body, stored by component: four loads and a 4×4 transpose (the
/// fourth component of a `Vec3A` is never read).
#[inline]
pub(super) fn gather_v3<B: Bodies + ?Sized>(bodies: &B, idx: &[u32; LANES], f: impl Fn(&SolverBody) -> Vec3A) -> V3 {
    V3::from_lanes(per_lane(idx, |i| f(bodies.at(i))))
}

/// Lane-wise square root (one `sqrtps` on x86-64, one `f32x4.sqrt` in WebAssembly SIMD: exact,
/// so the same as `f32::sqrt`).
#[inline]
pub(super) fn sqrt4(v: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_sqrt_ps};
        let m: __m128 = v.into();
        // SAFETY: SSE is part of the x86-64 baseline.
        #[allow(unused_unsafe)]
        let r = unsafe { _mm_sqrt_ps(m) };
        Vec4::from(r)
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        // WebAssembly SIMD (the browser build): one f32x4.sqrt, exact as well.
        Vec4::from(core::arch::wasm32::f32x4_sqrt(v.into()))
    }
    #[cfg(not(any(target_arch = "x86_64", all(target_arch = "wasm32", target_feature = "simd128"))))]
    {
        Vec4::from_array(v.to_array().map(f32::sqrt))
    }
}

/// A symmetric 3×3 matrix per lane (a world inverse inertia), six components.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Sym3 {
    pub(super) xx: Vec4,
    pub(super) yy: Vec4,
    pub(super) zz: Vec4,
    pub(super) xy: Vec4,
    pub(super) xz: Vec4,
    pub(super) yz: Vec4,
}

impl Sym3 {
    /// Whether every lane is a multiple of the identity (exactly: zero off the diagonal,
    /// three equal diagonal entries).
    pub(super) fn is_scalar(&self) -> bool {
        let zero = Vec4::ZERO;
        let eq = self.xx.cmpeq(self.yy) & self.xx.cmpeq(self.zz);
        let off = self.xy.cmpeq(zero) & self.xz.cmpeq(zero) & self.yz.cmpeq(zero);
        (eq & off).all()
    }

    /// The four matrices `m`, one per lane (the entries above the diagonal read down the
    /// columns: `xy` from the second column, `xz` and `yz` from the third), by three 4×4
    /// transposes.
    #[inline(always)]
    pub(super) fn from_lanes(m: [&glam::Mat3A; LANES]) -> Sym3 {
        let col = |f: fn(&glam::Mat3A) -> Vec3A| V3::from_lanes([f(m[0]), f(m[1]), f(m[2]), f(m[3])]);
        let (x, y, z) = (col(|m| m.x_axis), col(|m| m.y_axis), col(|m| m.z_axis));
        Sym3 { xx: x.x, yy: y.y, zz: z.z, xy: y.x, xz: z.x, yz: z.y }
    }

    #[inline]
    pub(super) fn mul(&self, v: &V3) -> V3 {
        V3 {
            x: self.xx * v.x + self.xy * v.y + self.xz * v.z,
            y: self.xy * v.x + self.yy * v.y + self.yz * v.z,
            z: self.xz * v.x + self.yz * v.y + self.zz * v.z,
        }
    }
}
