//! Four ball joints at a time: the compact path's ball-joint passes on SIMD lanes.
//!
//! Joints of one colour ([`super::colours`]) share no moving body, so four ball joints of a
//! colour can be solved at once. Their compact records ([`Hot`]) and their bodies'
//! velocities, motions since the step's start and inverse inertias are loaded into lanes
//! (one `Vec4` per component, [`V3`]). The ball joint's arithmetic then runs once for the
//! four, and the velocities and point impulses go back.
//!
//! **The same numbers.** The arithmetic is the scalar ball joint's, operation for operation
//! and in the same order:
//! - the lever arms turned by glam's rotation of a vector by a quaternion
//!   ([`super::moved_arms`]);
//! - K from the isotropic shortcut or the column products, chosen per lane as
//!   [`super::row::lever_term`] chooses per body;
//! - the 3×3 solve by Cramer's rule ([`super::row::solve3_or_zero`]);
//! - the matrix products column by column, as glam's `Mat3A * Vec3A`.
//!
//! SSE and WebAssembly SIMD round each lane as the scalar instructions round (no fused
//! multiply-add in either), so each lane gives the per-joint path's numbers bit for bit
//! (tested in `tests/joints.rs`, against the per-joint path, with isotropic and other bodies
//! in the same lanes).
//!
//! Limits: ball joints only. The other kinds, and the last one to three ball joints of a
//! block, go through the scalar compact path; the joints left without a colour are solved
//! one at a time, in order.

use super::compact::Hot;
use super::row::Feedback;
use super::{STATIC, WORLD};
use crate::physics::parallel::Shared;
use crate::physics::solver::lanes::{LANES, V3};
use crate::physics::solver::SolverBody;
use glam::{BVec4A, Vec3A, Vec4};

/// A 3×3 matrix per lane, by columns.
struct M3 {
    c: [V3; 3],
}

impl M3 {
    /// The matrix `s·1` per lane, with +0 off the diagonal: what `prepare` stores for an
    /// isotropic body, and [`STATIC`]'s zero matrix for `s = 0`.
    #[inline(always)]
    fn scalar(s: Vec4) -> M3 {
        let z = Vec4::ZERO;
        M3 { c: [V3 { x: s, y: z, z }, V3 { x: z, y: s, z }, V3 { x: z, y: z, z: s }] }
    }

    /// `m·v` in glam's order for `Mat3A * Vec3A`: `(c₀·vx + c₁·vy) + c₂·vz`.
    #[inline(always)]
    fn mul(&self, v: &V3) -> V3 {
        let [c0, c1, c2] = &self.c;
        V3 {
            x: c0.x * v.x + c1.x * v.y + c2.x * v.z,
            y: c0.y * v.x + c1.y * v.y + c2.y * v.z,
            z: c0.z * v.x + c1.z * v.y + c2.z * v.z,
        }
    }

    /// Per lane: `a` where `mask`, else `b`.
    #[inline(always)]
    fn select(mask: BVec4A, a: &M3, b: &M3) -> M3 {
        let pick = |a: &V3, b: &V3| V3 {
            x: Vec4::select(mask, a.x, b.x),
            y: Vec4::select(mask, a.y, b.y),
            z: Vec4::select(mask, a.z, b.z),
        };
        M3 { c: [pick(&a.c[0], &b.c[0]), pick(&a.c[1], &b.c[1]), pick(&a.c[2], &b.c[2])] }
    }
}

/// One end (A or B) of four joints: the lanes of [`SolverBody`] a ball joint reads.
struct Ends {
    /// The bodies (or [`WORLD`]).
    idx: [u32; LANES],
    v: V3,
    w: V3,
    dp: V3,
    /// The rotation since the step's start: vector part and scalar part.
    q: V3,
    qw: Vec4,
    inv_mass: Vec4,
    inv_i: M3,
    /// `inv_i`'s first entry (the scale of an isotropic body's).
    s: Vec4,
    /// Lanes whose body takes K's isotropic shortcut ([`SolverBody::isotropic`]).
    iso: BVec4A,
}

impl Ends {
    /// Loads bodies `idx` ([`WORLD`]: [`STATIC`]).
    #[inline(always)]
    fn gather(bodies: &Shared<SolverBody>, idx: [u32; LANES]) -> Ends {
        // SAFETY: a body is written only by the record that owns it in this colour's round
        // (module docs), after its reads; bodies that do not move are only read.
        let at = |i: u32| if i == WORLD { &STATIC } else { unsafe { bodies.get(i as usize) } };
        let b = [at(idx[0]), at(idx[1]), at(idx[2]), at(idx[3])];
        let q = glam::Mat4::from_cols(b[0].dq.into(), b[1].dq.into(), b[2].dq.into(), b[3].dq.into()).transpose();
        let lanes = |f: fn(&SolverBody) -> f32| Vec4::new(f(b[0]), f(b[1]), f(b[2]), f(b[3]));
        let s = lanes(|b| b.inv_i.x_axis.x);
        let iso = [b[0].isotropic, b[1].isotropic, b[2].isotropic, b[3].isotropic];
        let inv_i = if iso == [true; LANES] {
            M3::scalar(s)
        } else {
            let col = |f: fn(&SolverBody) -> Vec3A| V3::from_lanes([f(b[0]), f(b[1]), f(b[2]), f(b[3])]);
            M3 { c: [col(|b| b.inv_i.x_axis), col(|b| b.inv_i.y_axis), col(|b| b.inv_i.z_axis)] }
        };
        Ends {
            idx,
            v: V3::from_lanes([b[0].v, b[1].v, b[2].v, b[3].v]),
            w: V3::from_lanes([b[0].w, b[1].w, b[2].w, b[3].w]),
            dp: V3::from_lanes([b[0].dp, b[1].dp, b[2].dp, b[3].dp]),
            q: V3 { x: q.x_axis, y: q.y_axis, z: q.z_axis },
            qw: q.w_axis,
            inv_mass: lanes(|b| b.inv_mass),
            inv_i,
            s,
            iso: BVec4A::new(iso[0], iso[1], iso[2], iso[3]),
        }
    }

    /// Writes back the velocities of the bodies that move (not the world, static or
    /// sleeping ones), as [`super::compact`]'s scalar path does.
    #[inline(always)]
    fn scatter(&self, bodies: &Shared<SolverBody>) {
        let (v, w) = (self.v.to_lanes(), self.w.to_lanes());
        for l in 0..LANES {
            if self.idx[l] != WORLD && self.inv_mass[l] > 0.0 {
                // SAFETY: a moving body is written only by the one record of the round
                // that has it (module docs).
                let t = unsafe { bodies.get_mut(self.idx[l] as usize) };
                t.v = v[l];
                t.w = w[l];
            }
        }
    }

    /// `r` turned by the rotation since the step's start, as glam's `Quat * Vec3A`:
    /// `(r·(w² − b·b) + b·(2 r·b)) + (b × r)·2w` for the quaternion (b, w).
    #[inline(always)]
    fn turn(&self, r: &V3) -> V3 {
        let (b, w, two) = (&self.q, self.qw, Vec4::splat(2.0));
        let t1 = r.scale(w * w - b.dot(b));
        let t2 = b.scale(r.dot(b) * two);
        let t3 = b.cross(r).scale(w * two);
        t1.add(&t2).add(&t3)
    }

    /// This end's share of K, `−[r]ₓ·I⁻¹·[r]ₓ`, as [`super::row::lever_term`] computes it
    /// for each lane's body.
    #[inline(always)]
    fn lever_term(&self, r: &V3) -> M3 {
        let all = self.iso.all();
        if all {
            return lever_isotropic(r, self.s);
        }
        let general = lever_general(r, &self.inv_i);
        if !self.iso.any() {
            return general;
        }
        M3::select(self.iso, &lever_isotropic(r, self.s), &general)
    }

    /// `V += M⁻¹Jᵀp` on this end: B (`b_end`) takes the impulse `p`, A takes `−p`.
    #[inline(always)]
    fn apply(&mut self, r: &V3, p: &V3, b_end: bool) {
        let dv = p.scale(self.inv_mass);
        let dw = self.inv_i.mul(&r.cross(p));
        if b_end {
            self.v = self.v.add(&dv);
            self.w = self.w.add(&dw);
        } else {
            self.v = self.v.sub(&dv);
            self.w = self.w.sub(&dw);
        }
    }
}

/// `s·(|r|²·1 − r·rᵀ)` column by column, as `(e_j·|r|² − r·r_j)·s`.
#[inline(always)]
fn lever_isotropic(r: &V3, s: Vec4) -> M3 {
    let r2 = r.dot(r);
    // e_j·|r|²'s zero entries: 0·|r|², as the scalar path's `Vec3A::X * r2` makes them.
    let z = Vec4::ZERO * r2;
    let col =
        |e: [Vec4; 3], rj: Vec4| V3 { x: (e[0] - r.x * rj) * s, y: (e[1] - r.y * rj) * s, z: (e[2] - r.z * rj) * s };
    M3 { c: [col([r2, z, z], r.x), col([z, r2, z], r.y), col([z, z, r2], r.z)] }
}

/// Column j is `−r × (I⁻¹·(r × e_j))`.
#[inline(always)]
fn lever_general(r: &V3, inv_i: &M3) -> M3 {
    let (one, zero) = (Vec4::ONE, Vec4::ZERO);
    let col = |e: V3| {
        let t = r.cross(&inv_i.mul(&r.cross(&e)));
        V3 { x: -t.x, y: -t.y, z: -t.z }
    };
    M3 {
        c: [
            col(V3 { x: one, y: zero, z: zero }),
            col(V3 { x: zero, y: one, z: zero }),
            col(V3 { x: zero, y: zero, z: one }),
        ],
    }
}

/// `K⁻¹·y` by Cramer's rule, zero in the lanes whose K is singular.
#[inline(always)]
fn solve3_or_zero(k: &M3, y: &V3) -> V3 {
    let [c0, c1, c2] = &k.c;
    let (r0, r1, r2) = (c1.cross(c2), c2.cross(c0), c0.cross(c1));
    let det = c0.dot(&r0);
    let ok = det.abs().cmpgt(Vec4::splat(1e-20)) & det.is_finite_mask();
    let z = Vec4::ZERO;
    V3 {
        x: Vec4::select(ok, r0.dot(y) / det, z),
        y: Vec4::select(ok, r1.dot(y) / det, z),
        z: Vec4::select(ok, r2.dot(y) / det, z),
    }
}

/// Records `at` of `hot`: four ball joints of one colour's round, loaded into lanes.
struct Four {
    ends: (Ends, Ends),
    /// Lever arms turned to now, and the gap between the anchors.
    ra: V3,
    rb: V3,
    gap: V3,
    /// The accumulated point impulses.
    p: V3,
}

impl Four {
    #[inline(always)]
    fn load(hot: &[Hot], at: [usize; LANES], bodies: &Shared<SolverBody>) -> Four {
        let h = [&hot[at[0]], &hot[at[1]], &hot[at[2]], &hot[at[3]]];
        let a = Ends::gather(bodies, [h[0].a, h[1].a, h[2].a, h[3].a]);
        let b = Ends::gather(bodies, [h[0].b, h[1].b, h[2].b, h[3].b]);
        let field = |f: fn(&Hot) -> Vec3A| V3::from_lanes([f(h[0]), f(h[1]), f(h[2]), f(h[3])]);
        let (ra, rb) = (a.turn(&field(|h| h.ra)), b.turn(&field(|h| h.rb)));
        // dc + (dp_B − dp_A) + (r_B − r_A), as `moved_arms`.
        let gap = field(|h| h.dc).add(&b.dp.sub(&a.dp)).add(&rb.sub(&ra));
        Four { ends: (a, b), ra, rb, gap, p: field(|h| h.p) }
    }

    /// Applies `p` (on B, `−p` on A) at the turned lever arms.
    #[inline(always)]
    fn apply(&mut self, p: &V3) {
        self.ends.0.apply(&self.ra, p, false);
        self.ends.1.apply(&self.rb, p, true);
    }

    #[inline(always)]
    fn store(&self, bodies: &Shared<SolverBody>) {
        self.ends.0.scatter(bodies);
        self.ends.1.scatter(bodies);
    }
}

/// One pass over records `at` (four ball joints of one round), as
/// [`super::row::solve_point`] for each: `x = K⁻¹·(Δv + C·rate)`, the impulse
/// `−mass_scale·x − impulse_scale·p` added to `p` and applied.
#[inline]
pub(super) fn solve(hot: &mut [Hot], at: [usize; LANES], bodies: &Shared<SolverBody>, fb: Feedback) {
    let mut f = Four::load(hot, at, bodies);
    let (a, b) = &f.ends;
    let diag = a.inv_mass + b.inv_mass;
    let (la, lb) = (a.lever_term(&f.ra), b.lever_term(&f.rb));
    // K = diag(m_A⁻¹ + m_B⁻¹) + A's term + B's term, entry by entry as glam adds matrices.
    let d = M3::scalar(diag);
    let k = M3 { c: [0, 1, 2].map(|j| d.c[j].add(&la.c[j]).add(&lb.c[j])) };
    let dv = b.v.add(&b.w.cross(&f.rb)).sub(&a.v.add(&a.w.cross(&f.ra)));
    let x = solve3_or_zero(&k, &dv.add(&f.gap.scale(Vec4::splat(fb.rate))));
    let d = x.scale(Vec4::splat(-fb.mass_scale)).sub(&f.p.scale(Vec4::splat(fb.impulse_scale)));
    f.p = f.p.add(&d);
    f.apply(&d);
    f.store(bodies);
    for (l, p) in f.p.to_lanes().into_iter().enumerate() {
        hot[at[l]].p = p;
    }
}
