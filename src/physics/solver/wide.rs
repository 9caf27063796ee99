//! The iterative solver four manifolds at a time: graph colouring plus SIMD lanes (the
//! layout of Box2D v3's "wide" contact solver and Rapier's SIMD solver, on SSE-sized
//! `glam::Vec4` lanes).
//!
//! Scalar sequential impulses spend most of their time on horizontal work: every dot
//! product of a 3-vector is a multiply and two shuffles, and each row waits for the last
//! one. Here four manifolds that share no *dynamic* body sit in the four lanes of one
//! batch; their k-th points are solved together, so a dot product is three
//! multiplies and two adds for four points at once.
//!
//! **Colouring.** Lanes of one batch must not share a dynamic body (each lane writes its
//! bodies back). Each manifold takes the first of [`COLOURS`] colours in which neither of
//! its dynamic bodies is used yet (greedy colouring, Box2D v3's constraint graph); each
//! colour is cut into batches of four in contact order. Static bodies may be shared: they
//! are never written. Manifolds that find no colour (a body touching more than about
//! [`COLOURS`] others) are solved by the scalar code ([`super::iterative`]) after the
//! batches.
//!
//! **Same maths as [`super::iterative`].** Per point the same soft normal row, clamped
//! friction disc and alternating point order; a lane whose manifold has fewer points holds
//! zero masses in the missing slots, so they apply nothing (and visiting slots 3, 2, 1, 0 is
//! the exact reverse order for every lane). Only the order in which manifolds are visited
//! differs (colour order instead of pair order), which Gauss–Seidel allows.
//!
//! The scalar constraints stay the record: the impulses are copied back into them before
//! restitution and storing. The effective masses are computed at build time in lanes
//! (four manifolds per row product); the world fills the scalar ones only where a scalar
//! code reads them (the overflow, restitution, the naive mode).
//!
//! **Isotropic batches.** A batch whose eight inverse inertias are all multiples of the
//! identity (cubes, spheres, static bodies: a pyramid or a box pile is nothing else) takes a
//! short form of every inverse-inertia product, `k·v` instead of a symmetric 3×3 product —
//! the same numbers (the dropped terms are exact zeros), for a fifth of the arithmetic.
//!
//! Limits: four lanes (SSE); no threads.

use super::{iterative, ConstraintPoint, ContactConstraint, Settings, SolverBody};
use glam::{Vec3A, Vec4};

/// Which solver pass [`WideSolver::solve`] runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    /// Soft position bias on (solve) or off (relax).
    pub use_bias: bool,
    /// Visit each manifold's points last to first.
    pub reverse: bool,
    /// Recompute the batches' separations first (after a position update).
    pub update: bool,
    /// Add the impulses to the step totals afterwards (last pass of a substep).
    pub accumulate: bool,
}

/// Lanes per batch.
pub const LANES: usize = 4;
/// Colours tried before a manifold goes to the scalar overflow (Box2D v3 uses 24 too).
pub const COLOURS: usize = 24;

/// Four 3-vectors, one per lane, stored by component.
#[derive(Clone, Copy, Debug, Default)]
struct V3 {
    x: Vec4,
    y: Vec4,
    z: Vec4,
}

impl V3 {
    #[inline]
    fn dot(&self, o: &V3) -> Vec4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    #[inline]
    fn sub(&self, o: &V3) -> V3 {
        V3 { x: self.x - o.x, y: self.y - o.y, z: self.z - o.z }
    }

    #[inline]
    fn add(&self, o: &V3) -> V3 {
        V3 { x: self.x + o.x, y: self.y + o.y, z: self.z + o.z }
    }

    #[inline]
    fn scale(&self, s: Vec4) -> V3 {
        V3 { x: self.x * s, y: self.y * s, z: self.z * s }
    }

    #[inline]
    fn cross(&self, o: &V3) -> V3 {
        V3 { x: self.y * o.z - self.z * o.y, y: self.z * o.x - self.x * o.z, z: self.x * o.y - self.y * o.x }
    }

    /// `self += d * s`.
    #[inline]
    fn add_scaled(&mut self, d: &V3, s: Vec4) {
        self.x += d.x * s;
        self.y += d.y * s;
        self.z += d.z * s;
    }

    fn set(&mut self, lane: usize, v: Vec3A) {
        self.x[lane] = v.x;
        self.y[lane] = v.y;
        self.z[lane] = v.z;
    }
}

/// Four unit quaternions by component.
struct Q4 {
    v: V3,
    w: Vec4,
}

impl Q4 {
    fn gather(bodies: &[SolverBody], idx: &[u32; LANES]) -> Q4 {
        let w = idx.map(|i| bodies[i as usize].dq.w);
        Q4 { v: gather_v3(bodies, idx, |b| b.dq.xyz().into()), w: Vec4::from_array(w) }
    }

    /// `q·r·q*` as `r + w·t + v × t` with `t = 2 v × r`.
    #[inline]
    fn rotate(&self, r: &V3) -> V3 {
        let t = self.v.cross(r).scale(Vec4::splat(2.0));
        r.add(&t.scale(self.w)).add(&self.v.cross(&t))
    }
}

/// `f` of each lane's body, stored by component: four loads and a 4×4 transpose (the
/// fourth component of a `Vec3A` is never read).
#[inline]
fn gather_v3(bodies: &[SolverBody], idx: &[u32; LANES], f: impl Fn(&SolverBody) -> Vec3A) -> V3 {
    let p = idx.map(|i| f(&bodies[i as usize]).extend(0.0));
    let t = glam::Mat4::from_cols(p[0], p[1], p[2], p[3]).transpose();
    V3 { x: t.x_axis, y: t.y_axis, z: t.z_axis }
}

/// Lane-wise square root (one `sqrtps` on x86-64: exact, so the same as `f32::sqrt`).
#[inline]
fn sqrt4(v: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128, _mm_sqrt_ps};
        let m: __m128 = v.into();
        // SAFETY: SSE is part of the x86-64 baseline.
        #[allow(unused_unsafe)]
        let r = unsafe { _mm_sqrt_ps(m) };
        Vec4::from(r)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        Vec4::from_array(v.to_array().map(f32::sqrt))
    }
}

/// One constraint row for four lanes (see [`super::Row`]), computed when it is used from
/// the lever arms and the inverse inertias: storing it would double the memory every pass
/// streams through, and on large scenes the passes wait on memory, not on arithmetic.
struct WideRow {
    ca: V3,
    cb: V3,
    ia: V3,
    ib: V3,
}

impl WideRow {
    /// The row along `d` for lever arms `ra`, `rb` (`ISO`: see [`inertia_mul`]).
    #[inline(always)]
    fn new<const ISO: bool>(w: &BatchBodies, ra: &V3, rb: &V3, d: &V3) -> WideRow {
        let (ca, cb) = (ra.cross(d), rb.cross(d));
        WideRow { ia: inertia_mul::<ISO>(&w.inv_i_a, &ca), ib: inertia_mul::<ISO>(&w.inv_i_b, &cb), ca, cb }
    }
}

/// `m·v`; with `ISO`, for a batch whose inverse inertias are all multiples of the identity
/// ([`BatchBodies::isotropic`]: cubes, spheres, static bodies), just `m.xx·v` — the same
/// numbers (the other products are exact zeros) for a fifth of the arithmetic.
#[inline(always)]
fn inertia_mul<const ISO: bool>(m: &Sym3, v: &V3) -> V3 {
    if ISO {
        v.scale(m.xx)
    } else {
        m.mul(v)
    }
}

/// A symmetric 3×3 matrix per lane (a world inverse inertia), six components.
#[derive(Clone, Copy, Debug, Default)]
struct Sym3 {
    xx: Vec4,
    yy: Vec4,
    zz: Vec4,
    xy: Vec4,
    xz: Vec4,
    yz: Vec4,
}

impl Sym3 {
    /// Whether every lane is a multiple of the identity (exactly: zero off the diagonal,
    /// three equal diagonal entries).
    fn is_scalar(&self) -> bool {
        let zero = Vec4::ZERO;
        let eq = self.xx.cmpeq(self.yy) & self.xx.cmpeq(self.zz);
        let off = self.xy.cmpeq(zero) & self.xz.cmpeq(zero) & self.yz.cmpeq(zero);
        (eq & off).all()
    }

    fn set(&mut self, lane: usize, m: glam::Mat3A) {
        self.xx[lane] = m.x_axis.x;
        self.yy[lane] = m.y_axis.y;
        self.zz[lane] = m.z_axis.z;
        self.xy[lane] = m.y_axis.x;
        self.xz[lane] = m.z_axis.x;
        self.yz[lane] = m.z_axis.y;
    }

    #[inline]
    fn mul(&self, v: &V3) -> V3 {
        V3 {
            x: self.xx * v.x + self.xy * v.y + self.xz * v.z,
            y: self.xy * v.x + self.yy * v.y + self.yz * v.z,
            z: self.xz * v.x + self.yz * v.y + self.zz * v.z,
        }
    }
}

/// The two bodies of each lane: indices and inverse inertias (fixed for the step).
#[derive(Clone, Copy, Debug, Default)]
struct BatchBodies {
    a: [u32; LANES],
    b: [u32; LANES],
    inv_i_a: Sym3,
    inv_i_b: Sym3,
    /// All eight inverse inertias are multiples of the identity: the passes then take
    /// [`inertia_mul`]'s short form (a box pile or pyramid of cubes is all such batches).
    isotropic: bool,
}

/// The velocities of the four lanes' bodies A and B.
struct Velocities {
    va: V3,
    wa: V3,
    vb: V3,
    wb: V3,
    ima: Vec4,
    imb: Vec4,
}

impl Velocities {
    #[inline]
    fn gather(bodies: &[SolverBody], a: &[u32; LANES], b: &[u32; LANES]) -> Velocities {
        let inv_mass = |idx: &[u32; LANES]| Vec4::from_array(idx.map(|i| bodies[i as usize].inv_mass));
        Velocities {
            va: gather_v3(bodies, a, |s| s.v),
            wa: gather_v3(bodies, a, |s| s.w),
            vb: gather_v3(bodies, b, |s| s.v),
            wb: gather_v3(bodies, b, |s| s.w),
            ima: inv_mass(a),
            imb: inv_mass(b),
        }
    }

    /// Writes back the dynamic bodies (static and padding bodies are never written).
    #[inline]
    fn scatter(&self, bodies: &mut [SolverBody], a: &[u32; LANES], b: &[u32; LANES]) {
        let lanes = |v: &V3| glam::Mat4::from_cols(v.x, v.y, v.z, Vec4::ZERO).transpose();
        let (va, wa, vb, wb) = (lanes(&self.va), lanes(&self.wa), lanes(&self.vb), lanes(&self.wb));
        for l in 0..LANES {
            if self.ima[l] > 0.0 {
                let t = &mut bodies[a[l] as usize];
                t.v = Vec3A::from_vec4(va.col(l));
                t.w = Vec3A::from_vec4(wa.col(l));
            }
            if self.imb[l] > 0.0 {
                let t = &mut bodies[b[l] as usize];
                t.v = Vec3A::from_vec4(vb.col(l));
                t.w = Vec3A::from_vec4(wb.col(l));
            }
        }
    }
}

/// Point slot k of four manifolds.
#[derive(Clone, Copy, Debug, Default)]
struct WidePoint {
    /// Lever arms (world axes at the step's start) and adjusted separation.
    ra: V3,
    rb: V3,
    adjusted: Vec4,
    normal_mass: Vec4,
    tangent_mass: [Vec4; 2],
    separation: Vec4,
    normal_impulse: Vec4,
    tangent_impulse: [Vec4; 2],
    total_normal: Vec4,
    total_tangent: [Vec4; 2],
    max_normal: Vec4,
}

/// Four manifolds that share no dynamic body.
#[derive(Clone, Copy, Debug, Default)]
struct WideBatch {
    bodies: BatchBodies,
    /// Index of each lane's scalar constraint (`u32::MAX`: empty lane).
    source: [u32; LANES],
    normal: V3,
    t1: V3,
    t2: V3,
    friction: Vec4,
    bias_rate: Vec4,
    mass_scale: Vec4,
    impulse_scale: Vec4,
    points: [WidePoint; 4],
    /// Point slots in use: the most points of any lane's manifold (the passes skip the rest).
    slots: usize,
}

/// Batches, the overflow and the colouring buffers; all reused between steps.
#[derive(Clone, Debug, Default)]
pub struct WideSolver {
    batches: Vec<WideBatch>,
    /// Manifolds left without a colour, solved by the scalar code, and their sources.
    overflow: Vec<ContactConstraint>,
    overflow_source: Vec<u32>,
    /// Per colour, a bitset over bodies that colour already uses.
    used: Vec<u64>,
    colour: Vec<u8>,
    order: Vec<u32>,
    /// Scratch of the sort by point count.
    sorted: Vec<u32>,
    /// Manifolds per colour after the last build (overflow last), for statistics and tests.
    pub counts: [u32; COLOURS + 1],
}

impl WideSolver {
    /// Colours `constraints` and packs them into batches. `pad` is the index of a static
    /// body (inverse mass 0) that fills empty lanes.
    ///
    /// Without `simd` (the textbook path, [`crate::physics::Settings::simd`]) no batch is
    /// built: every manifold goes to the scalar solver ([`iterative`]), in the order the
    /// batches would visit them (colour by colour, each colour's lanes one after another, the
    /// uncoloured rest last). Lanes of a batch share no dynamic body, so solving them one by
    /// one is the same Gauss–Seidel sweep: the two paths differ only by rounding.
    pub fn build(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody], pad: u32, simd: bool) {
        debug_assert_eq!(bodies[pad as usize].inv_mass, 0.0);
        let words = bodies.len().div_ceil(64);
        self.used.clear();
        self.used.resize(words * COLOURS, 0);
        self.colour.clear();
        self.counts = [0; COLOURS + 1];
        for c in constraints {
            let bit = |i: u32| (bodies[i as usize].inv_mass > 0.0).then(|| (i as usize / 64, 1u64 << (i % 64)));
            let (a, b) = (bit(c.a), bit(c.b));
            let free = |set: &[u64], x: Option<(usize, u64)>| x.is_none_or(|(w, m)| set[w] & m == 0);
            let mut chosen = COLOURS;
            for k in 0..COLOURS {
                let set = &mut self.used[k * words..(k + 1) * words];
                if free(set, a) && free(set, b) {
                    for (w, m) in [a, b].into_iter().flatten() {
                        set[w] |= m;
                    }
                    chosen = k;
                    break;
                }
            }
            self.colour.push(chosen as u8);
            self.counts[chosen] += 1;
        }
        // Counting sort of the constraint indices by colour (stable).
        let mut start = [0u32; COLOURS + 2];
        for k in 0..=COLOURS {
            start[k + 1] = start[k] + self.counts[k];
        }
        self.order.clear();
        self.order.resize(constraints.len(), 0);
        for (i, &k) in self.colour.iter().enumerate() {
            self.order[start[k as usize] as usize] = i as u32;
            start[k as usize] += 1;
        }
        self.batches.clear();
        let mut at = 0;
        for k in 0..COLOURS {
            let group = &mut self.order[at..at + self.counts[k] as usize];
            at += group.len();
            // Manifolds of one colour share no dynamic body, so their order is free: sorted
            // by point count, the batches hold manifolds of equal size and skip empty slots.
            // (A stable counting sort on four sizes: ties keep pair order.)
            let size = |ci: u32| 4 - (constraints[ci as usize].count.clamp(1, 4) as usize);
            let mut first = [0usize; 5];
            for &ci in group.iter() {
                first[size(ci) + 1] += 1;
            }
            for s in 0..4 {
                first[s + 1] += first[s];
            }
            self.sorted.clear();
            self.sorted.resize(group.len(), 0);
            for &ci in group.iter() {
                let s = size(ci);
                self.sorted[first[s]] = ci;
                first[s] += 1;
            }
            group.copy_from_slice(&self.sorted);
            if !simd {
                continue;
            }
            for chunk in group.chunks(LANES) {
                // Filled in place: a batch is 3 KB, too big to build on the stack and move.
                self.batches.push(WideBatch::default());
                let w = self.batches.last_mut().expect("just pushed");
                w.bodies.a = [pad; LANES];
                w.bodies.b = [pad; LANES];
                w.source = [u32::MAX; LANES];
                let mut counts = [0u32; LANES];
                for (lane, &ci) in chunk.iter().enumerate() {
                    fill_lane(w, lane, ci, &constraints[ci as usize], bodies);
                    counts[lane] = constraints[ci as usize].count;
                }
                w.slots = counts.into_iter().max().unwrap_or(0) as usize;
                w.bodies.isotropic = w.bodies.inv_i_a.is_scalar() && w.bodies.inv_i_b.is_scalar();
                lane_masses(w, counts, bodies);
            }
        }
        self.overflow.clear();
        self.overflow_source.clear();
        let scalar_from = if simd { at } else { 0 };
        for &ci in &self.order[scalar_from..] {
            let mut c = constraints[ci as usize];
            c.compute_masses(bodies);
            self.overflow.push(c);
            self.overflow_source.push(ci);
        }
    }

    /// Re-applies the accumulated impulses (start of every substep).
    pub fn warm_start(&self, bodies: &mut [SolverBody]) {
        for w in &self.batches {
            let mut v = Velocities::gather(bodies, &w.bodies.a, &w.bodies.b);
            // Box3D's form: sum each body's impulse and moment over the points, then one
            // inverse-inertia product per body (the rows need not be built here).
            let (mut lin, mut ang_a, mut ang_b) = (V3::default(), V3::default(), V3::default());
            for p in &w.points[..w.slots] {
                let mut j = w.normal.scale(p.normal_impulse);
                j.add_scaled(&w.t1, p.tangent_impulse[0]);
                j.add_scaled(&w.t2, p.tangent_impulse[1]);
                lin = lin.add(&j);
                ang_a = ang_a.add(&p.ra.cross(&j));
                ang_b = ang_b.add(&p.rb.cross(&j));
            }
            v.va.add_scaled(&lin, -v.ima);
            v.vb.add_scaled(&lin, v.imb);
            v.wa = v.wa.sub(&w.bodies.inv_i_a.mul(&ang_a));
            v.wb = v.wb.add(&w.bodies.inv_i_b.mul(&ang_b));
            v.scatter(bodies, &w.bodies.a, &w.bodies.b);
        }
        iterative::warm_start(&self.overflow, bodies);
    }

    /// One pass (see [`iterative::solve`], whose maths this repeats lane by lane); `pass`
    /// says which. Work that would otherwise stream every batch through memory once more
    /// rides along while the batch is in cache: with `pass.update`, each batch first
    /// recomputes its separations ([`Self::update_separations`], batches only), and with
    /// `pass.accumulate` it adds its impulses to the step totals afterwards
    /// ([`Self::accumulate_totals`], overflow included).
    pub fn solve(&mut self, bodies: &mut [SolverBody], settings: &Settings, inv_h: f32, pass: Pass) {
        let Pass { use_bias, reverse, accumulate, .. } = pass;
        let k = PassConstants { pass, inv_h: Vec4::splat(inv_h), max_push: Vec4::splat(-settings.max_push_out) };
        for w in &mut self.batches {
            if w.bodies.isotropic {
                solve_batch::<true>(w, bodies, &k);
            } else {
                solve_batch::<false>(w, bodies, &k);
            }
        }
        iterative::solve(&mut self.overflow, bodies, settings, inv_h, use_bias, reverse);
        if accumulate {
            iterative::accumulate_totals(&mut self.overflow);
        }
    }

    /// Recomputes the current separation of every point from how far its bodies moved and
    /// turned since the step began, `s = n·(ΔpB − ΔpA + ΔqB·rB − ΔqA·rA) + s₀ − n·(rB − rA)`
    /// straight into the lanes (and into the overflow constraints). The bodies only move in
    /// position integration, so this runs once after each one, not in every pass.
    pub fn update_separations(&mut self, bodies: &[SolverBody]) {
        for w in &mut self.batches {
            batch_separations(w, bodies);
        }
        self.update_overflow_separations(bodies);
    }

    /// [`Self::update_separations`] for the scalar overflow only (the batches then update
    /// in their next [`Self::solve`] with `update`).
    pub fn update_overflow_separations(&mut self, bodies: &[SolverBody]) {
        for c in &mut self.overflow {
            let (a, b) = (&bodies[c.a as usize], &bodies[c.b as usize]);
            for p in &mut c.points[..c.count as usize] {
                p.separation = c.normal.dot((b.dp - a.dp) + (b.dq * p.rb - a.dq * p.ra)) + p.adjusted_separation;
            }
        }
    }

    /// Adds this substep's impulses to the per-step totals.
    pub fn accumulate_totals(&mut self) {
        for w in &mut self.batches {
            batch_totals(w);
        }
        iterative::accumulate_totals(&mut self.overflow);
    }

    /// Copies the impulses back into the scalar constraints (before restitution and
    /// storing them in the contacts).
    pub fn store(&self, constraints: &mut [ContactConstraint]) {
        for w in &self.batches {
            for (lane, &ci) in w.source.iter().enumerate() {
                if let Some(c) = constraints.get_mut(ci as usize) {
                    let count = c.count as usize;
                    for (wp, p) in w.points.iter().zip(&mut c.points[..count]) {
                        p.normal_impulse = wp.normal_impulse[lane];
                        p.tangent_impulse = [wp.tangent_impulse[0][lane], wp.tangent_impulse[1][lane]];
                        p.total_normal_impulse = wp.total_normal[lane];
                        p.total_tangent_impulse = [wp.total_tangent[0][lane], wp.total_tangent[1][lane]];
                        p.max_normal_impulse = wp.max_normal[lane];
                    }
                }
            }
        }
        for (o, &ci) in self.overflow.iter().zip(&self.overflow_source) {
            let count = o.count as usize;
            constraints[ci as usize].points[..count].copy_from_slice(&o.points[..count]);
        }
    }

    /// Hands every point's impulses to `f(constraint, point, impulses)` straight from the
    /// lanes and the overflow, for storing them in the contacts when nothing else needs the
    /// scalar constraints updated (no restitution pass): one pass instead of [`Self::store`]
    /// and a second copy. Slots beyond a manifold's point count are visited too (zeros).
    pub fn visit_impulses(&self, mut f: impl FnMut(u32, usize, &PointImpulses)) {
        for w in &self.batches {
            for (lane, &ci) in w.source.iter().enumerate() {
                if ci == u32::MAX {
                    continue;
                }
                for (k, wp) in w.points[..w.slots].iter().enumerate() {
                    let imp = PointImpulses {
                        normal: wp.normal_impulse[lane],
                        tangent: [wp.tangent_impulse[0][lane], wp.tangent_impulse[1][lane]],
                        total_normal: wp.total_normal[lane],
                        total_tangent: [wp.total_tangent[0][lane], wp.total_tangent[1][lane]],
                    };
                    f(ci, k, &imp);
                }
            }
        }
        for (o, &ci) in self.overflow.iter().zip(&self.overflow_source) {
            for (k, p) in o.points[..o.count as usize].iter().enumerate() {
                f(ci, k, &PointImpulses::of(p));
            }
        }
    }
}

/// One point's impulses at the end of a step (see [`WideSolver::visit_impulses`]).
#[derive(Clone, Copy, Debug)]
pub struct PointImpulses {
    /// Accumulated normal impulse of the last substep (warm starting).
    pub normal: f32,
    /// Accumulated friction impulses along t1, t2 of the last substep.
    pub tangent: [f32; 2],
    /// Normal impulse summed over the step's substeps.
    pub total_normal: f32,
    /// Friction impulses summed over the step's substeps.
    pub total_tangent: [f32; 2],
}

impl PointImpulses {
    /// The impulses of a scalar constraint point.
    pub fn of(p: &ConstraintPoint) -> PointImpulses {
        PointImpulses {
            normal: p.normal_impulse,
            tangent: p.tangent_impulse,
            total_normal: p.total_normal_impulse,
            total_tangent: p.total_tangent_impulse,
        }
    }
}

/// Separations of `w`'s points from how far its bodies moved and turned since the step
/// began (see [`WideSolver::update_separations`]).
#[inline]
fn batch_separations(w: &mut WideBatch, bodies: &[SolverBody]) {
    let dp = gather_v3(bodies, &w.bodies.b, |b| b.dp).sub(&gather_v3(bodies, &w.bodies.a, |b| b.dp));
    let (qa, qb) = (Q4::gather(bodies, &w.bodies.a), Q4::gather(bodies, &w.bodies.b));
    for p in &mut w.points[..w.slots] {
        let d = dp.add(&qb.rotate(&p.rb).sub(&qa.rotate(&p.ra)));
        p.separation = w.normal.dot(&d) + p.adjusted;
    }
}

/// Adds the impulses of `w`'s points to the step totals (see
/// [`WideSolver::accumulate_totals`]).
#[inline]
fn batch_totals(w: &mut WideBatch) {
    for p in &mut w.points[..w.slots] {
        p.total_normal += p.normal_impulse;
        p.total_tangent[0] += p.tangent_impulse[0];
        p.total_tangent[1] += p.tangent_impulse[1];
    }
}

/// What one pass of [`WideSolver::solve`] gives every batch.
struct PassConstants {
    pass: Pass,
    inv_h: Vec4,
    max_push: Vec4,
}

/// One pass over one batch (see [`WideSolver::solve`]); `ISO`: the batch is
/// [`BatchBodies::isotropic`].
#[inline(always)]
fn solve_batch<const ISO: bool>(w: &mut WideBatch, bodies: &mut [SolverBody], k: &PassConstants) {
    let Pass { use_bias, reverse, update, accumulate } = k.pass;
    let (zero, one, inv_h, max_push) = (Vec4::ZERO, Vec4::ONE, k.inv_h, k.max_push);
    if update {
        batch_separations(w, bodies);
    }
    let n = w.slots;
    let slot = |i: usize| if reverse { n - 1 - i } else { i };
    let mut v = Velocities::gather(bodies, &w.bodies.a, &w.bodies.b);
    let (bias_rate, mass_scale, impulse_scale) =
        if use_bias { (w.bias_rate, w.mass_scale, w.impulse_scale) } else { (zero, one, zero) };
    // The linear relative velocity along n, t1 and t2, kept as three numbers: an
    // impulse along one of these orthonormal directions changes only its own
    // component, so the linear velocities are updated once, after the manifold, from
    // the summed impulses (Box3D does this for the normal).
    let im = v.ima + v.imb;
    let dv = v.vb.sub(&v.va);
    let (mut un, mut u1, mut u2) = (w.normal.dot(&dv), w.t1.dot(&dv), w.t2.dot(&dv));
    let (mut jn, mut j1, mut j2) = (zero, zero, zero);
    // Friction first, non-penetration last (see `iterative::solve`).
    let bb = &w.bodies;
    for i in 0..n {
        let p = &mut w.points[slot(i)];
        // The two friction rows' angular parts, ra × t and rb × t; their inverse-inertia
        // products are taken once, on the combined impulse.
        let (ca1, cb1) = (p.ra.cross(&w.t1), p.rb.cross(&w.t1));
        let (ca2, cb2) = (p.ra.cross(&w.t2), p.rb.cross(&w.t2));
        let old = p.tangent_impulse;
        let v1 = u1 + cb1.dot(&v.wb) - ca1.dot(&v.wa);
        let v2 = u2 + cb2.dot(&v.wb) - ca2.dot(&v.wa);
        let n1 = old[0] - p.tangent_mass[0] * v1;
        let n2 = old[1] - p.tangent_mass[1] * v2;
        let max = w.friction * p.normal_impulse;
        let len = sqrt4(n1 * n1 + n2 * n2);
        // Inside the friction disc keep the impulse, else scale it onto the rim.
        let scale = Vec4::select(len.cmpgt(max), max / len, one);
        let (n1, n2) = (n1 * scale, n2 * scale);
        p.tangent_impulse = [n1, n2];
        let (d1, d2) = (n1 - old[0], n2 - old[1]);
        u1 += d1 * im;
        u2 += d2 * im;
        j1 += d1;
        j2 += d2;
        let mut ma = ca1.scale(d1);
        ma.add_scaled(&ca2, d2);
        let mut mb = cb1.scale(d1);
        mb.add_scaled(&cb2, d2);
        v.wa = v.wa.sub(&inertia_mul::<ISO>(&bb.inv_i_a, &ma));
        v.wb = v.wb.add(&inertia_mul::<ISO>(&bb.inv_i_b, &mb));
    }
    for i in 0..n {
        let p = &mut w.points[slot(i)];
        let s = p.separation;
        // Speculative (s > 0): close the gap exactly; else the soft push-out.
        let spec = s.cmpgt(zero);
        let bias = Vec4::select(spec, s * inv_h, (bias_rate * s).max(max_push));
        let ms = Vec4::select(spec, one, mass_scale);
        let is = Vec4::select(spec, zero, impulse_scale);
        let r0 = WideRow::new::<ISO>(bb, &p.ra, &p.rb, &w.normal);
        let vn = un + r0.cb.dot(&v.wb) - r0.ca.dot(&v.wa);
        let old = p.normal_impulse;
        let new = (old - p.normal_mass * ms * (vn + bias) - is * old).max(zero);
        p.normal_impulse = new;
        p.max_normal = p.max_normal.max(new);
        let d = new - old;
        un += d * im;
        jn += d;
        v.wa.add_scaled(&r0.ia, -d);
        v.wb.add_scaled(&r0.ib, d);
    }
    if accumulate {
        batch_totals(w);
    }
    let mut j = w.normal.scale(jn);
    j.add_scaled(&w.t1, j1);
    j.add_scaled(&w.t2, j2);
    v.va.add_scaled(&j, -v.ima);
    v.vb.add_scaled(&j, v.imb);
    v.scatter(bodies, &w.bodies.a, &w.bodies.b);
}

/// The effective masses of the used point slots of `w`, four lanes at a time: the formula of
/// [`super::Row::effective_mass`], zero in slots a lane's manifold does not have
/// (`counts`: points per lane) and wherever `k` is not positive.
fn lane_masses(w: &mut WideBatch, counts: [u32; LANES], bodies: &[SolverBody]) {
    let inv_mass = |idx: &[u32; LANES]| Vec4::from_array(idx.map(|i| bodies[i as usize].inv_mass));
    let m = inv_mass(&w.bodies.a) + inv_mass(&w.bodies.b);
    let (bb, dirs) = (&w.bodies, [w.normal, w.t1, w.t2]);
    for (k, p) in w.points[..w.slots].iter_mut().enumerate() {
        let live = Vec4::from_array(counts.map(|c| c as f32)).cmpgt(Vec4::splat(k as f32));
        let [n, t1, t2] = dirs.map(|d| {
            let row = if bb.isotropic {
                WideRow::new::<true>(bb, &p.ra, &p.rb, &d)
            } else {
                WideRow::new::<false>(bb, &p.ra, &p.rb, &d)
            };
            let kk = m + row.ca.dot(&row.ia) + row.cb.dot(&row.ib);
            Vec4::select(live & kk.cmpgt(Vec4::ZERO), Vec4::ONE / kk, Vec4::ZERO)
        });
        p.normal_mass = n;
        p.tangent_mass = [t1, t2];
    }
}

/// Transposes scalar constraint `c` (index `ci`) into lane `lane` of `w`.
fn fill_lane(w: &mut WideBatch, lane: usize, ci: u32, c: &ContactConstraint, bodies: &[SolverBody]) {
    w.bodies.a[lane] = c.a;
    w.bodies.b[lane] = c.b;
    w.bodies.inv_i_a.set(lane, bodies[c.a as usize].inv_i);
    w.bodies.inv_i_b.set(lane, bodies[c.b as usize].inv_i);
    w.source[lane] = ci;
    w.normal.set(lane, c.normal);
    w.t1.set(lane, c.t1);
    w.t2.set(lane, c.t2);
    w.friction[lane] = c.friction;
    w.bias_rate[lane] = c.softness.bias_rate;
    w.mass_scale[lane] = c.softness.mass_scale;
    w.impulse_scale[lane] = c.softness.impulse_scale;
    for (wp, p) in w.points.iter_mut().zip(&c.points[..c.count as usize]) {
        wp.ra.set(lane, p.ra);
        wp.rb.set(lane, p.rb);
        wp.adjusted[lane] = p.adjusted_separation;
        wp.separation[lane] = p.separation;
        wp.normal_impulse[lane] = p.normal_impulse;
        wp.tangent_impulse[0][lane] = p.tangent_impulse[0];
        wp.tangent_impulse[1][lane] = p.tangent_impulse[1];
        wp.total_normal[lane] = p.total_normal_impulse;
        wp.total_tangent[0][lane] = p.total_tangent_impulse[0];
        wp.total_tangent[1][lane] = p.total_tangent_impulse[1];
        wp.max_normal[lane] = p.max_normal_impulse;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::builders::SplitMix64;
    use crate::physics::math::tangent_basis;
    use crate::physics::solver::{ConstraintPoint, Row};
    use glam::Vec3;

    fn body(inv_mass: f32, v: Vec3A, w: Vec3A) -> SolverBody {
        SolverBody {
            v,
            w,
            inv_mass,
            inv_i: glam::Mat3A::from_diagonal(Vec3::new(1.0, 2.0, 1.5) * inv_mass),
            ..Default::default()
        }
    }

    fn rand3(rng: &mut SplitMix64) -> Vec3A {
        Vec3A::new(rng.next_f32(), rng.next_f32(), rng.next_f32()) * 2.0 - 1.0
    }

    /// A manifold between `a` and `b` with `count` random points, warm impulses and
    /// separations (some speculative).
    fn manifold(rng: &mut SplitMix64, bodies: &[SolverBody], a: u32, b: u32, count: usize) -> ContactConstraint {
        let n = rand3(rng).normalize();
        let (t1, t2) = tangent_basis(n.into());
        let (t1, t2) = (Vec3A::from(t1), Vec3A::from(t2));
        let (sa, sb) = (&bodies[a as usize], &bodies[b as usize]);
        let mut c = ContactConstraint {
            a,
            b,
            normal: n,
            t1,
            t2,
            friction: 0.6,
            softness: iterative::Softness::new(30.0, 10.0, 1.0 / 240.0),
            count: count as u32,
            ..Default::default()
        };
        for p in &mut c.points[..count] {
            let (ra, rb) = (rand3(rng) * 0.5, rand3(rng) * 0.5);
            let rows = [Row::new(sa, sb, ra, rb, n), Row::new(sa, sb, ra, rb, t1), Row::new(sa, sb, ra, rb, t2)];
            *p = ConstraintPoint {
                ra,
                rb,
                normal_mass: rows[0].effective_mass(sa, sb),
                tangent_mass: [rows[1].effective_mass(sa, sb), rows[2].effective_mass(sa, sb)],
                separation: rng.next_f32() * 0.02 - 0.015,
                normal_impulse: rng.next_f32() * 0.5,
                tangent_impulse: [rng.next_f32() * 0.1, -rng.next_f32() * 0.1],
                ..Default::default()
            };
        }
        c
    }

    #[test]
    fn separations_and_totals_updated_in_the_solve_pass_equal_separate_passes() {
        // Bodies that moved and turned (dp, dq) since the step began; a relax pass that
        // updates the separations and the totals itself must match a separate update, the
        // pass and a separate accumulation, bit for bit, and the separations must have
        // changed.
        let mut rng = SplitMix64(31);
        let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
        for _ in 0..12 {
            let mut b = body(0.5 + rng.next_f32(), rand3(&mut rng), rand3(&mut rng));
            b.dp = rand3(&mut rng) * 0.01;
            b.dq = glam::Quat::from_scaled_axis(glam::Vec3::from(rand3(&mut rng)) * 0.02);
            bodies.push(b);
        }
        let cs: Vec<_> = (1..=12u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 1 + i as usize % 4)).collect();
        let pad = bodies.len() as u32;
        bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
        let mut wide = WideSolver::default();
        wide.build(&cs, &bodies, pad, true);
        let settings = Settings::default();
        let (mut a, mut b) = (wide.clone(), wide.clone());
        let (mut ba, mut bb) = (bodies.clone(), bodies.clone());
        a.update_separations(&ba);
        a.solve(&mut ba, &settings, 240.0, Pass::default());
        a.accumulate_totals();
        b.update_overflow_separations(&bb);
        b.solve(&mut bb, &settings, 240.0, Pass { update: true, accumulate: true, ..Default::default() });
        for (x, y) in ba.iter().zip(&bb) {
            assert_eq!((x.v, x.w), (y.v, y.w));
        }
        let mut changed = 0;
        for ((wa, wb), w0) in a.batches.iter().zip(&b.batches).zip(&wide.batches) {
            for ((pa, pb), p0) in wa.points.iter().zip(&wb.points).zip(&w0.points) {
                assert_eq!(pa.separation, pb.separation);
                assert_eq!((pa.total_normal, pa.total_tangent), (pb.total_normal, pb.total_tangent));
                assert!(pa.total_normal.cmpeq(pa.normal_impulse).all(), "totals were zero");
                changed += (pa.separation - p0.separation).abs().cmpgt(Vec4::splat(1e-6)).bitmask().count_ones();
            }
        }
        assert!(changed > 10, "{changed} separations changed");
    }

    #[test]
    fn isotropic_batches_take_the_short_form_with_the_same_results() {
        // Cubes (inverse inertia k·I) in a chain; one batch gets a body with a full inverse
        // inertia and must not be flagged. The short form must give the same velocities
        // and impulses as the full 3×3 products, pass after pass.
        let mut rng = SplitMix64(41);
        let cube = |m: f32, rng: &mut SplitMix64| SolverBody {
            inv_i: glam::Mat3A::from_diagonal(Vec3::splat(6.0 * m)),
            ..body(m, rand3(rng), rand3(rng))
        };
        let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
        for _ in 0..16 {
            let m = 0.5 + rng.next_f32();
            bodies.push(cube(m, &mut rng));
        }
        bodies.push(body(0.7, rand3(&mut rng), rand3(&mut rng)));
        let cs: Vec<_> = (1..=17u32).map(|i| manifold(&mut rng, &bodies, i - 1, i, 1 + i as usize % 4)).collect();
        let pad = bodies.len() as u32;
        bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
        let mut short = WideSolver::default();
        short.build(&cs, &bodies, pad, true);
        let flagged = short.batches.iter().filter(|w| w.bodies.isotropic).count();
        let with_full = |w: &WideBatch| w.source.iter().any(|&ci| ci != u32::MAX && cs[ci as usize].b == 17);
        assert_eq!(flagged, short.batches.iter().filter(|w| !with_full(w)).count());
        assert!(flagged >= 3 && flagged < short.batches.len(), "{flagged} of {} batches", short.batches.len());
        // Their lane masses (built with the short form) equal the scalar ones.
        for w in short.batches.iter().filter(|w| w.bodies.isotropic) {
            for (lane, &ci) in w.source.iter().enumerate().filter(|(_, &ci)| ci != u32::MAX) {
                for (wp, p) in w.points.iter().zip(&cs[ci as usize].points[..cs[ci as usize].count as usize]) {
                    let got = [wp.normal_mass[lane], wp.tangent_mass[0][lane], wp.tangent_mass[1][lane]];
                    let want = [p.normal_mass, p.tangent_mass[0], p.tangent_mass[1]];
                    for (g, w) in got.iter().zip(want) {
                        assert!((g - w).abs() <= 1e-6 * w, "lane mass {g} vs scalar {w}");
                    }
                }
            }
        }
        let mut full = short.clone();
        for w in &mut full.batches {
            w.bodies.isotropic = false;
        }
        let settings = Settings::default();
        let (mut bs, mut bf) = (bodies.clone(), bodies.clone());
        for k in 0..6 {
            let pass = Pass { use_bias: k % 2 == 0, reverse: k % 3 == 1, ..Default::default() };
            short.solve(&mut bs, &settings, 240.0, pass);
            full.solve(&mut bf, &settings, 240.0, pass);
        }
        for (x, y) in bs.iter().zip(&bf) {
            assert_eq!((x.v, x.w), (y.v, y.w));
        }
        let moved = bs.iter().zip(&bodies).filter(|(x, y)| (x.w - y.w).length() > 1e-3).count();
        assert!(moved > 10, "{moved} bodies changed their spin");
        for (ws, wf) in short.batches.iter().zip(&full.batches) {
            for (ps, pf) in ws.points.iter().zip(&wf.points) {
                assert_eq!((ps.normal_impulse, ps.tangent_impulse), (pf.normal_impulse, pf.tangent_impulse));
            }
        }
    }

    #[test]
    fn wide_passes_equal_scalar_passes_on_independent_manifolds() {
        // Ground 0 (static), bodies 1..=20; manifolds share only the ground, so all take
        // colour 0 and the wide order equals the scalar order.
        let mut rng = SplitMix64(21);
        let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
        bodies.extend((1..=20).map(|_| body(0.5 + rng.next_f32(), rand3(&mut rng), rand3(&mut rng))));
        let mut cs = Vec::new();
        for i in 1..=8u32 {
            cs.push(manifold(&mut rng, &bodies, 0, i, 1 + (i as usize % 4)));
        }
        for i in (9..=20u32).step_by(2) {
            cs.push(manifold(&mut rng, &bodies, i, i + 1, 1 + (i as usize % 4)));
        }
        let pad = bodies.len() as u32;
        bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
        let mut wide = WideSolver::default();
        wide.build(&cs, &bodies, pad, true);
        assert_eq!(wide.counts[0] as usize, cs.len());
        assert_eq!(wide.batches.len(), cs.len().div_ceil(LANES));
        // The lane masses equal the scalar ones; slots a manifold lacks hold zero.
        for w in &wide.batches {
            for (lane, &ci) in w.source.iter().enumerate() {
                let count = cs.get(ci as usize).map_or(0, |c| c.count as usize);
                for (k, wp) in w.points.iter().enumerate() {
                    let got = [wp.normal_mass[lane], wp.tangent_mass[0][lane], wp.tangent_mass[1][lane]];
                    if k < count {
                        let p = &cs[ci as usize].points[k];
                        let want = [p.normal_mass, p.tangent_mass[0], p.tangent_mass[1]];
                        for (g, w) in got.iter().zip(want) {
                            assert!((g - w).abs() <= 1e-6 * w, "lane mass {g} vs scalar {w}");
                        }
                    } else {
                        assert_eq!(got, [0.0; 3], "slot {k} of a {count}-point manifold");
                    }
                }
            }
        }
        let (mut wb, mut sb, mut sc) = (bodies.clone(), bodies.clone(), cs.clone());
        let settings = Settings::default();
        wide.warm_start(&mut wb);
        iterative::warm_start(&sc, &mut sb);
        for pass in 0..4 {
            let (bias, reverse) = (pass < 2, pass % 2 == 1);
            wide.solve(&mut wb, &settings, 240.0, Pass { use_bias: bias, reverse, ..Default::default() });
            iterative::solve(&mut sc, &mut sb, &settings, 240.0, bias, reverse);
        }
        wide.accumulate_totals();
        iterative::accumulate_totals(&mut sc);
        let mut wc = cs.clone();
        wide.store(&mut wc);
        for (x, y) in wb.iter().zip(&sb) {
            assert!((x.v - y.v).abs().max_element() < 1e-5 && (x.w - y.w).abs().max_element() < 1e-5);
        }
        let mut moved = 0.0f32;
        for (x, y) in wb.iter().zip(&bodies) {
            moved = moved.max((x.v - y.v).length());
        }
        assert!(moved > 0.1, "the passes changed velocities ({moved})");
        for (cw, cs) in wc.iter().zip(&sc) {
            for (p, q) in cw.points.iter().zip(&cs.points).take(cw.count as usize) {
                assert!((p.normal_impulse - q.normal_impulse).abs() < 1e-5);
                assert!((p.total_normal_impulse - q.total_normal_impulse).abs() < 1e-5);
                assert!((p.tangent_impulse[0] - q.tangent_impulse[0]).abs() < 1e-5);
                assert!((p.tangent_impulse[1] - q.tangent_impulse[1]).abs() < 1e-5);
                assert_eq!(p.max_normal_impulse > 0.0, q.max_normal_impulse > 0.0);
            }
        }
    }

    #[test]
    fn batches_never_share_a_dynamic_body_and_keep_every_manifold() {
        // A chain 1-2-…-40 on a static ground 0 and a hub 41 touching 30 of them: more than
        // COLOURS, so at least 6 of the hub's manifolds go to the scalar overflow.
        let mut rng = SplitMix64(4);
        let mut bodies = vec![body(0.0, Vec3A::ZERO, Vec3A::ZERO)];
        bodies.extend((1..=41).map(|_| body(1.0, Vec3A::ZERO, Vec3A::ZERO)));
        let mut cs = Vec::new();
        for i in 1..=40u32 {
            cs.push(manifold(&mut rng, &bodies, 0, i, 4));
            if i < 40 {
                cs.push(manifold(&mut rng, &bodies, i, i + 1, 2));
            }
        }
        for i in 1..=30u32 {
            cs.push(manifold(&mut rng, &bodies, i, 41, 1));
        }
        let pad = bodies.len() as u32;
        bodies.push(body(0.0, Vec3A::ZERO, Vec3A::ZERO));
        let mut wide = WideSolver::default();
        wide.build(&cs, &bodies, pad, true);
        let mut seen: Vec<u32> = wide.batches.iter().flat_map(|w| w.source).filter(|&s| s != u32::MAX).collect();
        seen.extend(&wide.overflow_source);
        seen.sort_unstable();
        assert_eq!(seen, (0..cs.len() as u32).collect::<Vec<_>>(), "every manifold exactly once");
        assert!(wide.overflow.len() >= 30 - COLOURS, "{:?}", wide.counts);
        for w in &wide.batches {
            let mut dynamic: Vec<u32> =
                w.bodies.a.iter().chain(&w.bodies.b).copied().filter(|&i| bodies[i as usize].inv_mass > 0.0).collect();
            let n = dynamic.len();
            dynamic.sort_unstable();
            dynamic.dedup();
            assert_eq!(dynamic.len(), n, "a dynamic body twice in one batch");
        }
    }
}
