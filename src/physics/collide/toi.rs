//! Time of impact: the first time two moving bodies come within a target distance of each
//! other, by **conservative advancement** (Mirtich, "Impulse-based Dynamic Simulation of
//! Rigid Body Systems", 1996; the approach behind Box2D's `b2TimeOfImpact`, Catto,
//! "Continuous Collision", GDC 2013) and by **bisection** at test times (the seed's
//! earliest-collision search: Homer's simulator, docs/physics.md).
//!
//! # Motion over the interval
//! Time runs over `t ∈ [0, 1]` (the step, or the rest of it). A [`Sweep`] moves the centre of
//! mass along `c0 + t·dc + t²·ddc` (straight between two poses, or ballistic under gravity)
//! and turns the body at a constant rate about a fixed axis: `q(t) = exp(t·turn/2)·q0`
//! (Box2D's `b2Sweep` interpolates the rotation by normalised lerp; a constant-rate turn
//! makes the bound below exact). A point `p` of the body (from its centre, in its own axes)
//! then moves, relative to the centre, at `|(q0⁻¹·turn) × p|` per unit time — the axis is
//! fixed in the body as well — and no point at most `r` from the centre faster than
//! `|turn|·r` ([`Mover::spin_speed`] takes the smaller of the two: the largest `|(q0⁻¹·turn) × p|`
//! over the proxy's points, or `|turn|·r`).
//!
//! # Conservative advancement ([`time_of_impact`])
//! At time `t` the distance query ([`super::distance`]) gives the gap `d` and the unit
//! normal `n` from A to B along the closest points. The plane through the closest points
//! separates the bodies; while the bodies move, the gap *along that fixed `n`* can shrink at
//! most at
//! `μ = n·(dcA − dcB) + 2·|ddcA − ddcB| + sA + sB` per unit time (`s` the spin speed),
//! so no contact is possible before `t + (d − target)/μ`: advance to there and measure
//! again. Each advance is safe, so the time found is never later than the first real
//! contact; the gap at the reported time lies within `[target, target + tolerance]`.
//! When `μ ≤ 0` the bodies cannot approach along `n`: no impact. With
//! [`ToiConfig::simplex_cache`] each query after the first starts from the last one's
//! simplex ([`super::distance::SimplexCache`]); with [`ToiConfig::closed_form`] a ball
//! against a box is measured in closed form instead ([`super::distance::ball_box`]). Both
//! searches use both.
//!
//! # Bisection ([`time_of_impact_bisection`])
//! Homer's method: the bounding spheres are swept first, which narrows the search to the
//! window in which they overlap; test times step through the window, and the first test
//! time at which the bodies are within the target starts a binary search between it and the
//! last clear test time, integrating only these two bodies to each test time, until the
//! bodies' relative motion over the bracket is below the tolerance. The step between test
//! times is at least `tolerance / μ` and at most as long as the measured gap allows, so no
//! contact can hide between two test times; the returned time is the last clear one (the
//! seed winds the world to it).
//!
//! # Tolerances ([`ToiConfig`])
//! The target gap is half the linear slop (`Settings::slop`, 5 mm by default: 2.5 mm) and
//! the tolerance half of that (Box2D uses a quarter of the slop), both at most a quarter and
//! an eighth of the smaller body's *minimum extent* (its inscribed radius), so tiny bodies
//! are not stopped a body's width away; never below [`MIN_TARGET`]. A body stopped at the
//! target gap is then within the speculative margin of the narrow phase, which makes the
//! contact on the next step.
//!
//! Limits: conservative advancement converges slowly when a fast spin is far larger than the
//! approach along `n` (the bound counts the whole spin); after [`MAX_ITERATIONS`] it stops at
//! a time that is still safe ([`ToiState::MaxIterations`]). Both methods find the first
//! time the gap falls to the target, not contacts that begin and end between two test times
//! deeper than the tolerance (there are none: see the bounds above).

use super::distance::{ball_box, distance_cached, Distance, Proxy, SimplexCache};
use crate::physics::free_rotation::rotation;
use crate::physics::math::Iso;
use glam::{Quat, Vec3};

/// Most distance queries per time of impact.
pub const MAX_ITERATIONS: u32 = 64;

/// Smallest target gap (m): f32 positions 100 m from the origin are 8 µm apart.
pub const MIN_TARGET: f32 = 2e-5;

/// The motion of one body over `t ∈ [0, 1]` (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// Centre of mass at t = 0.
    pub c0: Vec3,
    /// Linear term of the centre's path.
    pub dc: Vec3,
    /// Quadratic term of the centre's path (½·g·T² for gravity over a window T).
    pub ddc: Vec3,
    /// Orientation at t = 0.
    pub q0: Quat,
    /// Rotation vector turned over the interval (angle × axis).
    pub turn: Vec3,
}

impl Sweep {
    /// A body that stays at `pose`.
    pub fn fixed(pose: &Iso) -> Sweep {
        Sweep { c0: pose.pos, dc: Vec3::ZERO, ddc: Vec3::ZERO, q0: pose.rot, turn: Vec3::ZERO }
    }

    /// Straight from pose `p0` to pose `p1` (centre-of-mass poses), turning by the shortest
    /// rotation between them (Box2D's `b2MakeSweep` from `center0` to `center`).
    pub fn between(p0: &Iso, p1: &Iso) -> Sweep {
        let mut dq = p1.rot * p0.rot.conjugate();
        if dq.w < 0.0 {
            dq = -dq;
        }
        let s = dq.xyz().length();
        // The angle 2·atan2(|xyz|, w): exact for small turns too.
        let turn = if s > 0.0 { dq.xyz() * (2.0 * s.atan2(dq.w) / s) } else { Vec3::ZERO };
        Sweep { c0: p0.pos, dc: p1.pos - p0.pos, ddc: Vec3::ZERO, q0: p0.rot, turn }
    }

    /// Free flight from `pose` for `duration` seconds at velocity `v`, spin `w` and
    /// acceleration `accel` (the seed's integration of one body to a test time).
    pub fn ballistic(pose: &Iso, v: Vec3, w: Vec3, accel: Vec3, duration: f32) -> Sweep {
        Sweep {
            c0: pose.pos,
            dc: v * duration,
            ddc: accel * (0.5 * duration * duration),
            q0: pose.rot,
            turn: w * duration,
        }
    }

    /// The pose at time `t`.
    #[inline]
    pub fn at(&self, t: f32) -> Iso {
        let rot = if self.turn == Vec3::ZERO { self.q0 } else { (rotation(self.turn * t) * self.q0).normalize() };
        Iso::new(self.c0 + self.dc * t + self.ddc * (t * t), rot)
    }

    /// Largest distance any point within `radius` of the centre moves per unit time.
    pub fn speed_bound(&self, radius: f32) -> f32 {
        self.dc.length() + 2.0 * self.ddc.length() + self.turn.length() * radius
    }
}

/// Target gap and tolerance of a time-of-impact query (module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiConfig {
    /// Gap (m) at which the bodies count as touching.
    pub target: f32,
    /// The reported gap lies within `target + tolerance` (m).
    pub tolerance: f32,
    /// Search only `t ∈ [0, t_max]`.
    pub t_max: f32,
    /// Each distance query after the first starts from the last one's simplex
    /// ([`SimplexCache`], Box2D's warm start); off, each starts from one point (the
    /// textbook GJK). The times found agree to the tolerance.
    pub simplex_cache: bool,
    /// A ball against a box is measured in closed form ([`ball_box`]); off, by GJK as every
    /// other pair. The distances agree to GJK's tolerance.
    pub closed_form: bool,
}

impl ToiConfig {
    /// The configuration for linear slop `slop` and two bodies of minimum extents
    /// `extent_a`, `extent_b` (inscribed radii): target `min(slop/2, extent/4)`, tolerance
    /// half the target, never below [`MIN_TARGET`].
    pub fn new(slop: f32, extent_a: f32, extent_b: f32) -> ToiConfig {
        let target = (0.5 * slop).min(0.25 * extent_a.min(extent_b)).max(MIN_TARGET);
        ToiConfig { target, tolerance: 0.5 * target, t_max: 1.0, simplex_cache: true, closed_form: true }
    }

    /// This configuration with the simplex cache on or off.
    pub fn with_simplex_cache(self, on: bool) -> ToiConfig {
        ToiConfig { simplex_cache: on, ..self }
    }

    /// This configuration with the closed-form ball–box distance on or off.
    pub fn with_closed_form(self, on: bool) -> ToiConfig {
        ToiConfig { closed_form: on, ..self }
    }
}

/// How a time-of-impact query ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ToiState {
    /// The bodies come within the target at `t`.
    Hit,
    /// They were within the target already at t = 0.
    Initial,
    /// No impact before `t_max`.
    #[default]
    Separated,
    /// The iteration cap stopped the search at `t`, a time still safe.
    MaxIterations,
}

impl ToiState {
    /// Lower-case name (traces, the inspector).
    pub fn as_str(self) -> &'static str {
        match self {
            ToiState::Hit => "hit",
            ToiState::Initial => "initial",
            ToiState::Separated => "separated",
            ToiState::MaxIterations => "max_iterations",
        }
    }
}

/// One distance query of a time-of-impact search: the time tested and the gap found there.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ToiIteration {
    /// Time in the interval, 0–1.
    pub t: f32,
    /// Gap at that time (m).
    pub distance: f32,
}

/// The result of a time-of-impact query.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Toi {
    /// How the search ended.
    pub state: ToiState,
    /// The time found (0–1): of impact for `Hit`, 0 for `Initial`, `t_max` for `Separated`,
    /// the last safe time for `MaxIterations`.
    pub t: f32,
    /// Gap at `t` (m; infinite when the search never measured one).
    pub distance: f32,
    /// Unit normal from A to B at `t` (zero when unknown).
    pub normal: Vec3,
    /// Closest point on A's surface at `t` (world).
    pub point: Vec3,
    /// Distance queries made.
    pub iterations: u32,
    /// Bisection: the first test time found within the target (the bracket's upper end);
    /// equals `t` for conservative advancement.
    pub t_upper: f32,
}

/// Appends to an optional iteration log.
fn log(out: &mut Option<&mut Vec<ToiIteration>>, t: f32, distance: f32) {
    if let Some(v) = out.as_deref_mut() {
        v.push(ToiIteration { t, distance });
    }
}

/// A body in a time-of-impact query: its proxy, its sweep and its bounding radius about
/// the centre of mass.
#[derive(Clone, Copy, Debug)]
pub struct Mover<'a> {
    /// The shape as the distance query sees it.
    pub proxy: Proxy<'a>,
    /// Its motion.
    pub sweep: Sweep,
    /// Largest distance of a point of the shape from the centre of mass (m).
    pub radius: f32,
    /// A compound's child: its pose in the body's frame, which the proxy is in (`None`:
    /// the proxy is in the body's frame). The sweep stays the body's; the radius is the
    /// child's reach from the body's centre of mass.
    pub local: Option<Iso>,
}

impl<'a> Mover<'a> {
    /// Child `k` of `shape` on the body's sweep `s`: the child's proxy at its pose in the
    /// body (a shape that is not a compound is its own only child, in the body's frame), with
    /// its reach from the centre of mass: its own offset plus its bounding radius, no more
    /// than the body's (a tree's lowest trunk segment, a metre from its base, turns through
    /// far less than its top, 50 m up, and the search for its impact needs fewer steps).
    pub fn child_of(shape: &'a crate::physics::Shape, k: usize, sweep: Sweep) -> Mover<'a> {
        let (c, pose) = crate::physics::compound::child(shape, k);
        let local = shape.compound().is_some().then_some(pose);
        let radius = match local {
            Some(x) => (x.pos.length() + c.bounding_radius()).min(shape.bounding_radius()),
            None => shape.bounding_radius(),
        };
        Mover { proxy: Proxy::of(c), sweep, radius, local }
    }

    /// How fast a point of the proxy moves about the centre of mass, per unit time, at
    /// most: the turn's axis is fixed in the body (`q(t)⁻¹·turn = q0⁻¹·turn`), so a point
    /// `p` of the body moves at `|(q0⁻¹·turn) × p|`, the largest over the proxy's points
    /// ([`Proxy::spin_speed`]); never more than `|turn|·radius`. A log rolling about its
    /// length moves at its thickness times the turn, not its length.
    pub fn spin_speed(&self) -> f32 {
        if self.sweep.turn == Vec3::ZERO {
            return 0.0;
        }
        let w = self.sweep.q0.conjugate() * self.sweep.turn;
        let whole = self.sweep.turn.length() * self.radius;
        self.proxy.spin_speed(w, &self.local.unwrap_or(Iso::IDENTITY)).min(whole)
    }

    /// The pose of the proxy's frame at time `t`.
    #[inline]
    pub fn at(&self, t: f32) -> Iso {
        match &self.local {
            None => self.sweep.at(t),
            Some(l) => self.sweep.at(t).mul(l),
        }
    }
}

/// Triangle `t` of a static mesh at `pose` as a mover: centred on its centroid (so its
/// bounding sphere, which the seed's sphere sweep reads, is the triangle's own and not the
/// whole mesh's).
pub fn triangle_mover(mesh: &crate::physics::mesh::TriMesh, t: u32, pose: &Iso) -> Mover<'static> {
    let [a, b, c] = mesh.triangle(t);
    let centroid = (a + b + c) / 3.0;
    let corners = [a - centroid, b - centroid, c - centroid];
    let radius = corners.iter().map(|c| c.length()).fold(0.0, f32::max);
    let at = Iso::new(pose.transform_point(centroid), pose.rot);
    Mover { proxy: Proxy::triangle(corners), sweep: Sweep::fixed(&at), radius, local: None }
}

/// Bound on how fast the gap along `n` (from A to B) can shrink, per unit time (module
/// docs); `spin` is the two movers' [`Mover::spin_speed`].
fn closing_bound(a: &Mover, b: &Mover, n: Vec3, spin: f32) -> f32 {
    n.dot(a.sweep.dc - b.sweep.dc) + 2.0 * (a.sweep.ddc - b.sweep.ddc).length() + spin
}

/// The distance query between `a` and `b` at time `t`: a ball against a box in closed form
/// when `cfg.closed_form` is on, else GJK from `cache`'s simplex when `cfg.simplex_cache`
/// is on (else from one point, the cache left empty).
#[inline]
fn gap(a: &Mover, b: &Mover, t: f32, cfg: &ToiConfig, cache: &mut SimplexCache) -> Distance {
    let (xa, xb) = (a.at(t), b.at(t));
    if cfg.closed_form {
        if let Some(d) = ball_box(&a.proxy, &xa, &b.proxy, &xb) {
            return d;
        }
    }
    if !cfg.simplex_cache {
        *cache = SimplexCache::default();
    }
    distance_cached(&a.proxy, &xa, &b.proxy, &xb, cache)
}

/// Time of impact by conservative advancement (module docs). `log` receives every distance
/// query made, in order.
pub fn time_of_impact(a: &Mover, b: &Mover, cfg: &ToiConfig, mut log_to: Option<&mut Vec<ToiIteration>>) -> Toi {
    let mut t = 0.0f32;
    let mut out = Toi { distance: f32::INFINITY, ..Default::default() };
    let mut cache = SimplexCache::default();
    let spin = a.spin_speed() + b.spin_speed();
    for k in 0..MAX_ITERATIONS {
        let d = gap(a, b, t, cfg, &mut cache);
        log(&mut log_to, t, d.distance);
        out = Toi { t, distance: d.distance, normal: d.normal, point: d.point_a, iterations: k + 1, t_upper: t, ..out };
        if d.distance <= cfg.target + cfg.tolerance {
            out.state = if k == 0 { ToiState::Initial } else { ToiState::Hit };
            return out;
        }
        let mu = closing_bound(a, b, d.normal, spin);
        if mu <= 0.0 {
            // The gap along n can never shrink: no impact at all.
            return Toi { state: ToiState::Separated, t: cfg.t_max, t_upper: cfg.t_max, ..out };
        }
        let next = t + (d.distance - cfg.target) / mu;
        if next >= cfg.t_max || !next.is_finite() {
            return Toi { state: ToiState::Separated, t: cfg.t_max, t_upper: cfg.t_max, ..out };
        }
        if next <= t {
            // Rounding: the advance underflowed; the gap is as good as reached.
            out.state = ToiState::Hit;
            return out;
        }
        t = next;
    }
    out.state = ToiState::MaxIterations;
    out
}

/// The window `[t_enter, t_exit]` within `[0, t_max]` in which the bounding spheres (radii
/// plus `pad`) of two sweeps can overlap, the quadratic terms folded into the radius; `None`
/// when they never do (the seed's sphere sweep).
pub fn sphere_window(a: &Mover, b: &Mover, pad: f32, t_max: f32) -> Option<(f32, f32)> {
    let p = b.sweep.c0 - a.sweep.c0;
    let u = b.sweep.dc - a.sweep.dc;
    let r = a.radius + b.radius + pad + (b.sweep.ddc - a.sweep.ddc).length();
    // |p + t·u|² = r²: a t² + 2 h t + c = 0.
    let (qa, h, c) = (u.dot(u), p.dot(u), p.dot(p) - r * r);
    if c <= 0.0 {
        // Overlapping at t = 0: from 0 until they part.
        if qa <= 0.0 {
            return Some((0.0, t_max));
        }
        let exit = (-h + (h * h - qa * c).max(0.0).sqrt()) / qa;
        return Some((0.0, exit.min(t_max)));
    }
    // Apart at 0: they meet only if approaching (h < 0: Homer's closing-velocity test) and
    // the quadratic has real roots.
    if h >= 0.0 || qa <= 0.0 {
        return None;
    }
    let disc = h * h - qa * c;
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let enter = (-h - root) / qa;
    let exit = (-h + root) / qa;
    (enter <= t_max).then_some((enter.max(0.0), exit.min(t_max)))
}

/// Time of impact by the seed's bisection at test times (module docs). `log` receives every
/// distance query made, in order. The result's `t` is the last clear time and `t_upper` the
/// first time found within the target.
pub fn time_of_impact_bisection(
    a: &Mover,
    b: &Mover,
    cfg: &ToiConfig,
    mut log_to: Option<&mut Vec<ToiIteration>>,
) -> Toi {
    let none = Toi {
        state: ToiState::Separated,
        t: cfg.t_max,
        t_upper: cfg.t_max,
        distance: f32::INFINITY,
        ..Default::default()
    };
    // Spheres padded by twice the target: at the window's start the shapes are clear of it.
    let Some((enter, exit)) = sphere_window(a, b, 2.0 * cfg.target, cfg.t_max) else {
        return none;
    };
    let speed = a.sweep.speed_bound(a.radius) + b.sweep.speed_bound(b.radius);
    let spin = a.spin_speed() + b.spin_speed();
    let mut cache = SimplexCache::default();
    let mut gap_at = |t: f32| gap(a, b, t, cfg, &mut cache);
    let mut iterations = 0;
    // March through the window: find a clear test time followed by one within the target.
    let mut lo = enter;
    let mut d_lo = gap_at(lo);
    iterations += 1;
    log(&mut log_to, lo, d_lo.distance);
    if d_lo.distance <= cfg.target {
        let state = if lo == 0.0 { ToiState::Initial } else { ToiState::Hit };
        return Toi {
            state,
            t: lo,
            t_upper: lo,
            distance: d_lo.distance,
            normal: d_lo.normal,
            point: d_lo.point_a,
            iterations,
        };
    }
    let mut hi;
    loop {
        if iterations >= MAX_ITERATIONS {
            return Toi {
                state: ToiState::MaxIterations,
                t: lo,
                t_upper: lo,
                distance: d_lo.distance,
                normal: d_lo.normal,
                point: d_lo.point_a,
                iterations,
            };
        }
        let mu = closing_bound(a, b, d_lo.normal, spin);
        if mu <= 0.0 {
            return Toi { iterations, ..none };
        }
        // At least the tolerance's worth of motion, at most what the gap allows.
        let step = (d_lo.distance - cfg.target).max(cfg.tolerance) / mu;
        let t = (lo + step).min(exit);
        if t <= lo {
            return Toi { iterations, ..none };
        }
        let d = gap_at(t);
        iterations += 1;
        log(&mut log_to, t, d.distance);
        if d.distance <= cfg.target {
            hi = t;
            break;
        }
        if t >= exit {
            return Toi { iterations, ..none };
        }
        lo = t;
        d_lo = d;
    }
    // Bisection between the clear `lo` and the touching `hi`, until the bodies move less
    // than the tolerance over the bracket.
    while (hi - lo) * speed > cfg.tolerance && iterations < MAX_ITERATIONS {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        let d = gap_at(mid);
        iterations += 1;
        log(&mut log_to, mid, d.distance);
        if d.distance <= cfg.target {
            hi = mid;
        } else {
            lo = mid;
            d_lo = d;
        }
    }
    Toi {
        state: ToiState::Hit,
        t: lo,
        t_upper: hi,
        distance: d_lo.distance,
        normal: d_lo.normal,
        point: d_lo.point_a,
        iterations,
    }
}

/// The time past an impact at which the gap will have closed to `−depth` (the bodies just
/// in contact, `depth` into each other), extrapolated from the gap's rate of closing between
/// the search's last two times (the bisection's bracket ends): `t + (gap + depth) / rate`,
/// at most 1. Methods that act only on touching points (the one-pass methods) are handed
/// their colliding bodies at this time rather than a few millimetres apart. Without a
/// measured closing rate it is the impact time itself.
pub fn contact_time(toi: &Toi, log: &[ToiIteration], depth: f32) -> f32 {
    let at = |t: f32| log.iter().rev().find(|i| i.t == t).map(|i| i.distance);
    let pair = if toi.t_upper > toi.t {
        at(toi.t).zip(at(toi.t_upper)).map(|(d0, d1)| (toi.t, d0, toi.t_upper, d1))
    } else {
        match log {
            [.., p, q] if q.t > p.t => Some((p.t, p.distance, q.t, q.distance)),
            _ => None,
        }
    };
    let Some((t0, d0, t1, d1)) = pair else {
        return toi.t;
    };
    let rate = (d0 - d1) / (t1 - t0);
    if rate.is_nan() || rate <= 0.0 {
        return toi.t;
    }
    (toi.t + (toi.distance.max(0.0) + depth) / rate).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::Hull;
    use crate::physics::shape::Shape;

    fn mover(shape: &Shape, sweep: Sweep) -> Mover<'_> {
        Mover { proxy: Proxy::of(shape), sweep, radius: shape.bounding_radius(), local: None }
    }

    /// A sphere falling under gravity onto a static plane (a wide thin box): the gap reaches
    /// the target at the root of `h − r − target = v·t·T + ½·g·(t·T)²`.
    #[test]
    fn sphere_falling_on_a_plane_matches_the_analytic_time() {
        let ground = Shape::cuboid(Vec3::new(10.0, 0.1, 10.0)).unwrap();
        let ball = Shape::Sphere { radius: 0.25 };
        let cfg = ToiConfig { target: 0.0025, tolerance: 1e-5, t_max: 1.0, simplex_cache: true, closed_form: true };
        for (h, v0, window) in [(1.0f32, -3.0f32, 0.5f32), (0.6, 0.0, 0.4), (5.0, -40.0, 1.0 / 60.0 * 10.0)] {
            let g = -9.81f32;
            let gpose = Iso::from_translation(Vec3::new(0.0, -0.1, 0.0));
            let a = mover(&ground, Sweep::fixed(&gpose));
            let start = Iso::from_translation(Vec3::new(0.3, h, -0.2));
            let b = mover(
                &ball,
                Sweep::ballistic(&start, Vec3::new(0.0, v0, 0.0), Vec3::ZERO, Vec3::new(0.0, g, 0.0), window),
            );
            // h + v0·s + ½·g·s² = r + target, s in seconds.
            let c = h - 0.25 - cfg.target;
            let s = (-v0 - (v0 * v0 + 2.0 * (-g) * c).sqrt()) / g;
            for closed in [true, false] {
                let cfg = cfg.with_closed_form(closed);
                for (name, toi) in [
                    ("advancement", time_of_impact(&a, &b, &cfg, None)),
                    ("bisection", time_of_impact_bisection(&a, &b, &cfg, None)),
                ] {
                    assert_eq!(toi.state, ToiState::Hit, "{name}, closed form {closed}");
                    let err = (toi.t * window - s).abs();
                    assert!(err < 1e-4, "{name}, closed form {closed}: {} s vs {s} s", toi.t * window);
                }
            }
        }
    }

    /// Two spheres approaching head on and obliquely: the gap reaches the target when the
    /// centre distance is `rA + rB + target`.
    #[test]
    fn approaching_spheres_match_the_analytic_time() {
        let (sa, sb) = (Shape::Sphere { radius: 0.3 }, Shape::Sphere { radius: 0.2 });
        let cfg = ToiConfig { target: 0.001, tolerance: 1e-5, t_max: 1.0, simplex_cache: true, closed_form: true };
        let dt = 1.0 / 60.0;
        for (p, va, vb) in [
            (Vec3::new(2.0, 0.0, 0.0), Vec3::new(50.0, 0.0, 0.0), Vec3::new(-70.0, 0.0, 0.0)),
            (Vec3::new(2.0, 0.2, 0.1), Vec3::new(0.0, 0.0, 0.0), Vec3::new(-400.0, 0.0, 0.0)),
            (Vec3::new(1.0, 1.0, 0.0), Vec3::new(10.0, 0.0, 5.0), Vec3::new(-30.0, -40.0, 2.0)),
        ] {
            let a = mover(&sa, Sweep::ballistic(&Iso::IDENTITY, va, Vec3::new(3.0, 1.0, 0.0), Vec3::ZERO, dt));
            let b = mover(&sb, Sweep::ballistic(&Iso::from_translation(p), vb, Vec3::ZERO, Vec3::ZERO, dt));
            // |p + (vb − va)·s| = R: the earlier root.
            let (u, r) = (vb - va, 0.5 + cfg.target);
            let (qa, h, c) = (u.dot(u), p.dot(u), p.dot(p) - r * r);
            let s = (-h - (h * h - qa * c).sqrt()) / qa;
            for (name, toi) in [
                ("advancement", time_of_impact(&a, &b, &cfg, None)),
                ("bisection", time_of_impact_bisection(&a, &b, &cfg, None)),
            ] {
                assert_eq!(toi.state, ToiState::Hit, "{name}");
                assert!((toi.t * dt - s).abs() < 1e-4, "{name}: {} s vs {s} s", toi.t * dt);
                assert!((toi.t * dt - s).abs() < 1e-6, "{name}: {} s vs {s} s", toi.t * dt);
            }
        }
    }

    /// Balls thrown at spinning boxes (and boxes spinning into balls): the time found with
    /// the closed-form ball–box distance is one at which GJK measures the target gap, and
    /// the searches end alike.
    #[test]
    fn the_closed_form_ball_box_search_stops_where_gjk_measures_the_target() {
        use crate::physics::collide::distance::distance;
        let mut rng = crate::physics::hull::builders::SplitMix64(0x70_1B0C5);
        let mut r = |lo: f32, hi: f32| lo + (hi - lo) * rng.next_f32();
        let dt = 1.0 / 60.0;
        let mut hits = 0;
        for case in 0..300 {
            let cuboid = Shape::cuboid(Vec3::new(r(0.1, 1.0), r(0.1, 1.0), r(0.1, 1.0))).unwrap();
            let ball = Shape::Sphere { radius: r(0.05, 0.3) };
            let spin = Vec3::new(r(-20.0, 20.0), r(-20.0, 20.0), r(-20.0, 20.0));
            let from = Vec3::new(r(-1.0, 1.0), r(-1.0, 1.0), 3.0);
            let aim = Vec3::new(r(-0.6, 0.6), r(-0.6, 0.6), r(-0.6, 0.6));
            let v = (aim - from).normalize() * r(60.0, 240.0);
            let a = mover(&cuboid, Sweep::ballistic(&Iso::IDENTITY, Vec3::ZERO, spin, Vec3::ZERO, dt));
            let b = mover(&ball, Sweep::ballistic(&Iso::from_translation(from), v, Vec3::ZERO, Vec3::ZERO, dt));
            let cfg = ToiConfig::new(0.005, 0.1, 0.05);
            for (x, y) in [(&a, &b), (&b, &a)] {
                let closed = time_of_impact(x, y, &cfg, None);
                let gjk = time_of_impact(x, y, &cfg.with_closed_form(false), None);
                assert_eq!(closed.state, gjk.state, "case {case}");
                if closed.state == ToiState::Hit {
                    let d = distance(&x.proxy, &x.at(closed.t), &y.proxy, &y.at(closed.t)).distance;
                    assert!(
                        d >= cfg.target - 1e-4 && d <= cfg.target + cfg.tolerance + 1e-4,
                        "case {case}: GJK measures {d} m at the closed form's time"
                    );
                    assert!((closed.t - gjk.t).abs() * dt < 1e-4, "case {case}: {} vs {}", closed.t, gjk.t);
                    hits += 1;
                }
            }
        }
        assert!(hits > 200, "{hits} hits");
    }

    #[test]
    fn receding_and_missing_bodies_have_no_impact() {
        let s = Shape::Sphere { radius: 0.5 };
        let cfg = ToiConfig::new(0.005, 0.5, 0.5);
        let a = mover(&s, Sweep::fixed(&Iso::IDENTITY));
        let away =
            mover(&s, Sweep::between(&Iso::from_translation(Vec3::X * 2.0), &Iso::from_translation(Vec3::X * 5.0)));
        let past = mover(
            &s,
            Sweep::between(
                &Iso::from_translation(Vec3::new(-5.0, 1.2, 0.0)),
                &Iso::from_translation(Vec3::new(5.0, 1.2, 0.0)),
            ),
        );
        for b in [away, past] {
            assert_eq!(time_of_impact(&a, &b, &cfg, None).state, ToiState::Separated);
            assert_eq!(time_of_impact_bisection(&a, &b, &cfg, None).state, ToiState::Separated);
        }
        // Already touching.
        let touching = mover(&s, Sweep::fixed(&Iso::from_translation(Vec3::X * 1.001)));
        assert_eq!(time_of_impact(&a, &touching, &cfg, None).state, ToiState::Initial);
    }

    /// A sweep's end pose is the pose it was made from, and the turn is the shortest one.
    #[test]
    fn sweep_between_two_poses_ends_there() {
        let p0 = Iso::new(Vec3::new(1.0, 2.0, 3.0), Quat::from_rotation_y(0.3));
        for angle in [1e-4f32, 0.5, 3.0, -2.9] {
            let p1 = Iso::new(
                Vec3::new(-4.0, 0.5, 9.0),
                Quat::from_axis_angle(Vec3::new(1.0, 2.0, -1.0).normalize(), angle) * p0.rot,
            );
            let s = Sweep::between(&p0, &p1);
            let end = s.at(1.0);
            assert!((end.pos - p1.pos).length() < 1e-5);
            assert!(end.rot.dot(p1.rot).abs() > 1.0 - 1e-6, "angle {angle}");
            assert!((s.turn.length() - angle.abs()).abs() < 1e-4);
        }
    }

    fn random_hull(rng: &mut u64, scale: f32) -> Shape {
        let mut next = || {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            (*rng >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
        };
        let n = 6 + ((next() + 1.0) * 5.0) as usize;
        let pts: Vec<Vec3> = (0..n).map(|_| Vec3::new(next(), next(), next()) * scale).collect();
        Shape::Hull(std::sync::Arc::new(Hull::from_points(&pts).unwrap()))
    }

    /// The iteration log records every query, ends at the reported time, and the gaps
    /// shrink towards the target.
    #[test]
    fn the_iteration_log_ends_at_the_impact() {
        let mut rng = 7u64;
        let (ha, hb) = (random_hull(&mut rng, 0.4), random_hull(&mut rng, 0.4));
        let a = mover(&ha, Sweep::between(&Iso::IDENTITY, &Iso::new(Vec3::ZERO, Quat::from_rotation_z(1.0))));
        let b = mover(
            &hb,
            Sweep::between(
                &Iso::from_translation(Vec3::X * 4.0),
                &Iso::new(Vec3::X * -1.0, Quat::from_rotation_y(2.0)),
            ),
        );
        let cfg = ToiConfig::new(0.005, 0.2, 0.2);
        let mut logv = Vec::new();
        let toi = time_of_impact(&a, &b, &cfg, Some(&mut logv));
        assert_eq!(toi.state, ToiState::Hit);
        assert_eq!(logv.len() as u32, toi.iterations);
        assert_eq!(logv.last().unwrap().t, toi.t);
        assert!(logv.windows(2).all(|w| w[1].t > w[0].t));
        assert!(toi.distance >= cfg.target - 1e-5 && toi.distance <= cfg.target + cfg.tolerance);
    }
}
