//! Millington's worst-first resolver, as in his Cyclone engine (seed: Millington's Cyclone
//! blog posts; I. Millington, *Game Physics Engine Development*, ch. 14–15). One pass per
//! step, positions before velocities ([`Schedule::Once`] with `positions_first`).
//!
//! Conventions: n points from A to B, B is pushed along +n and A along −n; a point's depth
//! is positive when it penetrates; its normal velocity `vn = n·(v_B(p) − v_A(p))` is
//! negative when the bodies approach. The contact basis is the constraint's (n, t1, t2).
//!
//! # Penetrations: nonlinear projection, deepest first
//! Per body, the "inertia" of a move along its push direction d (−n for A, +n for B) at
//! lever arm r is linear `1/m` and angular `(r×d)·I⁻¹(r×d)`; with `total` the sum over both
//! bodies, a penetration p is shared as
//!
//! `linear move = p·(1/m)/total`, `angular move = p·angular/total`,
//!
//! the angular move limited to `cyclone_angular_limit · |r − n(r·n)|` (the lever arm in the
//! contact plane; the excess moves linearly, so the two points still separate by p), and
//! turned into the rotation vector `θ = I⁻¹(r×d)·(angular move / angular)` (a small rotation:
//! the point moves by `θ×r`, whose component along d is exactly the angular move), whose
//! angle |θ| is limited to `cyclone_angular_limit` too (deviation, below). The
//! worst point is picked, both bodies move, and every point of those bodies has its depth
//! updated by `∓(Δx + θ×r)·n`; repeated until no depth exceeds `cyclone_position_epsilon`
//! or after `cyclone_position_iterations` × points steps. The moves are summed per body in
//! [`PositionMoves`] and the world applies them to the poses the step starts from.
//!
//! # Velocities: the contact-space impulse, fastest closing first
//! Velocity change of the points per unit impulse P (applied +P to B, −P to A), in world
//! axes: `K = (1/mA + 1/mB)·1 − [rA]ₓ·IA⁻¹·[rA]ₓ − [rB]ₓ·IB⁻¹·[rB]ₓ`; in the contact basis
//! `M = Bᵀ·K·B` with `B = [n t1 t2]`. The impulse for a desired velocity change Δv is
//! `g = M⁻¹·Δv`, with `Δv = (target − vn, −vt1, −vt2)`: the bounce along n and no sliding.
//! If `|g_t| ≤ μ·g_n` static friction holds; otherwise dynamic friction: the planar impulse
//! keeps its direction u and takes the size `μ·g_n`, and g_n is solved again from M's first
//! row, `g_n = Δv_n / (M₀₀ + μ·(M₀₁·u₁ + M₀₂·u₂))`.
//!
//! The resting-contact trick: the velocity the step's gravity added along n,
//! `v_acc = n·(g_B − g_A)·h` (g of awake dynamic bodies only), is not bounced, and nothing
//! bounces unless its speed at the moment of impact is over
//! `Settings::restitution_threshold` (Millington's `velocityLimit`): a box at rest gets
//! exactly the impulse that cancels one step of gravity, and no more. A bouncing point
//! leaves at its rebound (prepare's, [`super::bounce`]): `e` times its speed at the moment
//! of impact — a speculative point whose gap this step's approach closes counts as
//! touching and bounces then, not a step later from deep inside — measured with the
//! integrator's energy, so that the apex after a bounce is `e²` times the one before
//! (Millington's loop integrates before it detects and resolves; this world adds gravity,
//! resolves, then moves, and a rebound that ignored that rose a whole step unslowed).
//!
//! The point with the largest `target − vn` (or slip, see below) is resolved first; the
//! velocities of every point of its two bodies are measured again (from the bodies, not
//! updated incrementally); repeated until none exceeds `cyclone_velocity_epsilon` or after
//! `cyclone_velocity_iterations` × points steps.
//!
//! Deviations from the book (a point is resolved many times per step; the numbers quoted
//! were measured by tests/methods.rs without the change):
//! - `target` is fixed from the closing velocity before the pass. Millington recomputes it
//!   from the current velocity after every impulse, so a corner that an earlier impulse
//!   has made approach faster is bounced harder still and the four corners of a flat box
//!   end with different bounces (reasoned from the update rule; not measured here). With
//!   the target fixed they converge to the same one.
//! - The friction cone bounds the impulse a point has passed this step (`acc`, the
//!   increments summed), not each increment alone, and a point that still grips asks for
//!   resolution by its slip speed as well as by its missing normal velocity. Checked per
//!   increment, the one corner resolved first must stop its own slip alone, which takes a
//!   planar impulse far steeper than the whole box needs (on a 20° slope, about 0.8 × the
//!   normal one at a leading corner): dynamic friction every step, and a box on a slope
//!   with μ = 0.5 crept 10 cm in 2 s. In the dynamic case the step's total planar impulse
//!   is set to μ × the total normal one: `g_n = (Δv_n − μ·G_n·w + M₀₁·G_t1 + M₀₂·G_t2) /
//!   (M₀₀ + μ·w)`, `w = M₀₁·u₁ + M₀₂·u₂`, `g_t = μ·(G_n + g_n)·u − G_t` (Millington's
//!   formula when G = 0).
//! - A point that has pushed this step and now separates faster than its target is
//!   resolved too (its push taken back, never below zero): impulses that only push leave a
//!   box on a slope rising off it and creeping down.
//! - Dynamic friction acts against the point's slip, u = −v_t/|v_t|, when the slip is
//!   faster than one step's gravity explains (|g|·h, the resting-contact idea applied to
//!   the plane); slower, along the static total as Millington does. His direction alone
//!   leans off the slip at a corner (the corner's planar block of M is anisotropic): a box
//!   sliding down 40° with μ = 0.5 accelerated at 3.08 m/s² instead of
//!   g(sin θ − μ cos θ) = 2.55 m/s². The slip direction alone, taken from the first
//!   impulse of a step on a resting box, pins corners to the cone's edge and the box
//!   creeps down a 20° slope.
//!   The slip direction is taken only when it takes more kinetic energy out than
//!   Millington's (maximum dissipation, which Coulomb friction obeys; an increment g adds
//!   `g·v + ½·g·M·g` at contact velocity v), since the fuzzer found a box landing on a
//!   spinning corner (slip 0.8 m/s, approach 4.2 m/s) whose normal impulse's coupling
//!   reversed the slip to 10 m/s along the friction impulse, which then did +13 J of work
//!   (11.5 → 22.9 J in one increment); Millington's direction took 4.6 J out.
//! - When friction along u nearly cancels the normal response (`M₀₀ + μ·w ≤ M₀₀/4`), the
//!   re-solved g_n grows without bound; the point then takes a normal impulse only (the
//!   fuzzer's needles gained 10⁴–10⁶ J without this).
//! - The bounce target is bounded by Poisson's rule as well as set by Newton's: the
//!   restitution impulse at most e times the compression impulse `M⁻¹·(−vn₀, −vt1, −vt2)`,
//!   i.e. (static friction) `target ≤ e·g_c,n / (M⁻¹)₀₀`. Newton's rule at a point with
//!   friction bounces the approach a spin gives the point while friction takes that spin
//!   away (Kane's paradox: with sticking friction Poisson's rule never adds energy, Newton's
//!   can). The two agree when the point does not slide; the iterative method has the same
//!   bound per manifold.
//! - The velocity pass runs twice when anything bounces (Poisson's two phases): first
//!   *compression*, every point to its resting target, then *restitution*, the bouncing
//!   points to their bounce targets with each one's normal impulse at most `(1 + e)` times
//!   what compression gave it (points that do not bounce stay free to push, so a ground can
//!   stop what a bounce drives into it). In one pass Newton's targets chase each other, as
//!   the fuzzer found: a 40 kg box (e = 0.95) landing on an 18 kg box that rose off the
//!   ground bounced at e times the approach *relative* to the lower box, whose upward speed
//!   the ground (e = 0) then took away, and the pair alternated until the upper box left
//!   faster than it came (+255 J in one pass). A scene where nothing bounces runs
//!   one pass exactly as before; a lone bounce leaves as before (`tests/methods.rs`: the
//!   dropped cube at its rebound, head-on spheres with e).
//! - One-point impacts that share a body (a ball struck into a wall it was not
//!   approaching, a ball hit by two in one step) are redone after the two phases, one pair
//!   at a time in the order they came ([`super::impacts`]): the fixed targets left a point
//!   struck into with no bounce at all and chased each other between shared bodies (a ball
//!   struck into a wall came back with 77 % of the energy, a gas of elastic spheres lost 2 %
//!   in 20 s). Millington's own rule, a target taken afresh from the current approach after
//!   every impulse, is this pairwise picture for one-point contacts.
//! - The projection's turn is limited to `cyclone_angular_limit` rad as well as the book's
//!   move at the point. For inertia the same about every axis the two limits are the same
//!   (the turn is the move over the lever arm in the plane); for a needle a small move at
//!   the point can be a turn of radians about its thin axis, and a needle squeezed between
//!   two bodies then pushed each contact deeper in turn, 4 cm → 17 m in five moves (a fuzzer
//!   case: +425 J). A turn also carries the body's spin with it (the world's `apply_moves`):
//!   ω fixed in world axes while the body turns under it changed `½·ω·I·ω` of a sliver
//!   30-fold (another fuzzer case).
//!
//! Points count as touching when their depth (after the projection) is at least −`slop`, or
//! when they bounce and the approach closes their gap within the step; other speculative
//! points are left alone (no impulse at a distance).
//!
//! # Cost and limits
//! Per resolution step: a scan of every point for the worst, then O(points of the two
//! bodies) updates; per point and step a 3×3 matrix and its inverse. The scan makes a step
//! O(points² × steps per point) in the worst case: fine for tens of bodies, slow for the
//! 20-layer pyramid. No warm starting: every step starts from zero impulses, so a resting
//! pile needs its whole weight passed down again each step, one point at a time.
//! No rolling resistance (`BodyDesc::rolling_resistance`): Millington's resolver has none,
//! and here too a ball rolls on (the iterative methods model it).
//!
//! The seed's limits (4 steps per point, ε = 0.01 m and m/s) stop the passes early on
//! resting contacts: each contact of a stack is left approaching at up to ε and settles ε
//! deep (the top of a 5-box column about 4 cm low), and when the step budget runs out
//! first the leftover spin, the same every step, walks boxes sideways and down slopes (a
//! box on a 20° slope with μ = 0.5 creeps about 3 cm in 2 s; scenes/stack_10.ron and
//! scenes/naive_stack.ron fall over within 10 s). With 50 steps per point and
//! ε = 10⁻⁴ the column holds within about a millimetre and the box within 0.2 mm
//! (tests/methods.rs). Lever arms are those of the step's start (the projection's
//! rotations are small). The fuzzer (tests/fuzz.rs) runs this method too; the seeds it
//! found are regression cases (docs/physics.md §8).

use super::{relative_velocity, ContactConstraint, PositionMoves, Resolver, Schedule, Settings, SolverBody, StepInfo};
use glam::{Mat3A, Vec3, Vec3A};

/// One contact point, flattened, with what the two passes keep up to date.
#[derive(Clone, Copy, Debug, Default)]
struct Point {
    /// Constraint index and point index within it.
    c: u32,
    k: u32,
    /// Bodies.
    a: u32,
    b: u32,
    ra: Vec3A,
    rb: Vec3A,
    n: Vec3A,
    t1: Vec3A,
    t2: Vec3A,
    friction: f32,
    restitution: f32,
    /// Penetration, updated after every move.
    depth: f32,
    /// Normal velocity and slip speed, measured again after every impulse on either body.
    vn: f32,
    slip: f32,
    /// Impulse passed this step, in the contact basis (n, t1, t2).
    acc: Vec3A,
    /// Normal velocity wanted after the pass (the compression phase: 0).
    target: f32,
    /// The bounce target (the restitution phase's), and the largest normal impulse the point
    /// may pass by the end of it: `(1 + e)·` what compression gave it (Poisson's rule;
    /// unbounded for a point that does not bounce).
    bounce: f32,
    cap: f32,
    /// Restitution in effect (0 under the threshold).
    e: f32,
    /// The point's rebound from prepare (0: it does not bounce; [`super::bounce`]).
    rebound: f32,
    /// The impulse of the rebound's part beyond Newton's `e·|vn₀|`, added to the cap.
    beyond: f32,
    /// Takes part in the velocity pass.
    touching: bool,
    /// Contact-space velocity change per unit impulse, and its inverse.
    m: Mat3A,
    m_inv: Mat3A,
}

/// Millington's resolver as a [`Resolver`]. Keeps its buffers between steps.
#[derive(Clone, Debug, Default)]
pub struct Cyclone {
    points: Vec<Point>,
    /// Points of each dynamic body: `adjacency[start[i]..start[i + 1]]`.
    start: Vec<u32>,
    adjacency: Vec<u32>,
    /// Scratch of the clusters of impacts that share a body ([`super::impacts`]).
    impacts: super::impacts::ImpactScratch,
}

/// Skew-symmetric matrix of r: `[r]ₓ·v = r × v`.
fn skew(r: Vec3A) -> Mat3A {
    Mat3A::from_cols(Vec3A::new(0.0, r.z, -r.y), Vec3A::new(-r.z, 0.0, r.x), Vec3A::new(r.y, -r.x, 0.0))
}

/// The contact-space impulse increment for the desired velocity change `dv` at a point that
/// has passed `acc` this step and moves at `vn` along the normal (module docs): static
/// friction if the step's total stays in the cone, else dynamic friction — the total planar
/// impulse set to μ × the total normal one along the static total's direction (Millington)
/// or, when the point slides faster than `resting_slip`, against the slip if that dissipates
/// more (maximum dissipation) — with the normal increment solved again from M's first row.
fn contact_impulse(m: &Mat3A, m_inv: &Mat3A, dv: Vec3A, vn: f32, mu: f32, acc: Vec3A, resting_slip: f32) -> Vec3A {
    let normal_only = Vec3A::new((dv.x / m.x_axis.x).max(-acc.x), 0.0, 0.0);
    if *m_inv == Mat3A::ZERO {
        return normal_only;
    }
    let g = *m_inv * dv;
    let total = acc + g;
    let planar = (total.y * total.y + total.z * total.z).sqrt();
    if total.x > 0.0 && planar <= mu * total.x {
        return g;
    }
    // The dynamic impulse with the total planar impulse along (u1, u2), if friction along it
    // leaves the normal response (module docs).
    let dynamic = |u1: f32, u2: f32| {
        let w = m.y_axis.x * u1 + m.z_axis.x * u2;
        let k = m.x_axis.x + mu * w;
        // Friction along u lowers the normal velocity change per unit impulse; when it
        // nearly cancels it the re-solved g_n grows without bound (energy gains in the
        // fuzzer): no such impulse.
        if k <= 0.25 * m.x_axis.x {
            return None;
        }
        let gn = ((dv.x - mu * acc.x * w + m.y_axis.x * acc.y + m.z_axis.x * acc.z) / k).max(-acc.x);
        let tn = acc.x + gn;
        Some(Vec3A::new(gn, mu * tn * u1 - acc.y, mu * tn * u2 - acc.z))
    };
    // Millington's direction: the static total's.
    let along_total = if planar > 0.0 { dynamic(total.y / planar, total.z / planar) } else { None };
    // Against the slip (dv's planar part is minus the slip) when the point slides faster
    // than one step's acceleration explains, if that takes more kinetic energy out:
    // `g·v + ½·g·M·g` is what an increment g adds, v the point's velocity (vn, −dv.y, −dv.z).
    let slip = (dv.y * dv.y + dv.z * dv.z).sqrt();
    let against_slip = if slip > resting_slip { dynamic(dv.y / slip, dv.z / slip) } else { None };
    let v = Vec3A::new(vn, -dv.y, -dv.z);
    let gain = |g: Vec3A| g.dot(v + 0.5 * (*m * g));
    match (along_total, against_slip) {
        (Some(a), Some(b)) => Some(if gain(b) <= gain(a) { b } else { a }),
        (a, b) => a.or(b),
    }
    .unwrap_or(normal_only)
}

/// The normal velocity a bouncing point should leave with (module docs): its `rebound`
/// (`e` times its speed at the moment of impact, measured with the integrator's energy,
/// [`super::bounce`]), bounded by Poisson's rule — the restitution impulse at most `e` times
/// the compression impulse `M⁻¹·(−vn₀, −vt1, −vt2)` that stops the point, sliding included
/// (with static friction the restitution impulse for a rebound u is `u·(M⁻¹)₀₀`), plus the
/// rebound's part beyond Newton's `e·|vn₀|` (what gravity adds over the gap), which is not
/// friction's doing. `vn₀` is the approach without this step's gravity.
fn bounce_target(m_inv: &Mat3A, e: f32, rebound: f32, vn0: f32, vt1: f32, vt2: f32) -> f32 {
    let diagonal = m_inv.x_axis.x;
    if rebound > 0.0 && diagonal > 0.0 {
        let compression = (*m_inv * Vec3A::new(-vn0, -vt1, -vt2)).x.max(0.0);
        return rebound.min(e * compression / diagonal + (rebound + e * vn0).max(0.0));
    }
    rebound
}

/// How much point `p` asks to be resolved: its missing normal velocity; its excess normal
/// velocity while it has pushed this step (the push can be taken back down to zero); and
/// its slip while the impulse it has passed this step lies inside the friction cone (static
/// friction can still stop it; a point on the cone's edge slides).
fn need(p: &Point) -> f32 {
    let mut need = p.target - p.vn;
    // A bouncing point at its restitution cap has no more push to give.
    if need > 0.0 && p.acc.x >= p.cap {
        need = 0.0;
    }
    if p.acc.x > 0.0 {
        need = need.abs();
        let planar = (p.acc.y * p.acc.y + p.acc.z * p.acc.z).sqrt();
        if planar < 0.999 * p.friction * p.acc.x {
            need = need.max(p.slip);
        }
    }
    need
}

impl Cyclone {
    /// One worst-first velocity pass (Millington's `adjustVelocities`) toward the points'
    /// current targets, at most `cyclone_velocity_iterations` steps per point.
    fn velocity_pass(&mut self, bodies: &mut [SolverBody], step: &StepInfo) {
        let settings = step.settings;
        let resting_slip = step.gravity.length() * step.h;
        let steps = settings.cyclone_velocity_iterations as usize * self.points.len();
        for _ in 0..steps {
            let mut worst = usize::MAX;
            let mut largest = settings.cyclone_velocity_epsilon;
            for (i, p) in self.points.iter().enumerate() {
                if p.touching && need(p) > largest {
                    largest = need(p);
                    worst = i;
                }
            }
            if worst == usize::MAX {
                break;
            }
            let p = self.points[worst];
            let (a, b) = (&bodies[p.a as usize], &bodies[p.b as usize]);
            let v = relative_velocity(a, b, p.ra, p.rb);
            let dv = Vec3A::new(p.target - v.dot(p.n), -v.dot(p.t1), -v.dot(p.t2));
            let mut g = contact_impulse(&p.m, &p.m_inv, dv, v.dot(p.n), p.friction, p.acc, resting_slip);
            if p.acc.x + g.x > p.cap {
                // Poisson's cap: the normal impulse no further, friction within its cone.
                g.x = (p.cap - p.acc.x).max(-p.acc.x);
                let (n, t) = (p.acc.x + g.x, Vec3A::new(0.0, p.acc.y + g.y, p.acc.z + g.z));
                let planar = t.length();
                if planar > p.friction * n && planar > 0.0 {
                    let keep = t * (p.friction * n / planar);
                    (g.y, g.z) = (keep.y - p.acc.y, keep.z - p.acc.z);
                }
            }
            self.points[worst].acc += g;
            let impulse = p.n * g.x + p.t1 * g.y + p.t2 * g.z;
            if bodies[p.a as usize].inv_mass > 0.0 {
                bodies[p.a as usize].apply(-impulse, p.ra);
            }
            if bodies[p.b as usize].inv_mass > 0.0 {
                bodies[p.b as usize].apply(impulse, p.rb);
            }
            self.remeasure(p.a, bodies);
            self.remeasure(p.b, bodies);
        }
    }

    /// The points of the dynamic body `i`.
    fn around(&self, i: u32) -> std::ops::Range<usize> {
        let i = i as usize;
        if i + 1 >= self.start.len() {
            return 0..0;
        }
        self.start[i] as usize..self.start[i + 1] as usize
    }

    /// Moves body `body` (pushed along `d` at lever arm `r`) by its share of `depth`,
    /// records the move and updates the depths of its points.
    #[allow(clippy::too_many_arguments)]
    fn move_body(
        &mut self,
        body: u32,
        s: &SolverBody,
        r: Vec3A,
        d: Vec3A,
        share: (f32, f32),
        limit: f32,
        moves: &mut PositionMoves,
    ) {
        let (mut linear, mut angular) = share;
        let angular_inertia = r.cross(d).dot(s.inv_i * r.cross(d));
        let max = limit * (r - d * r.dot(d)).length();
        if angular > max {
            linear += angular - max;
            angular = max;
        }
        let mut turn =
            if angular_inertia > 0.0 { s.inv_i * r.cross(d) * (angular / angular_inertia) } else { Vec3A::ZERO };
        // The turn itself at most `limit` rad (module docs): for inertia the same about every
        // axis that is the limit above; a needle turns about its thin axis by radians for a
        // small move at the point.
        let angle = turn.length();
        if angle > limit {
            let keep = limit / angle;
            linear += angular * (1.0 - keep);
            turn *= keep;
        }
        let shift = d * linear;
        moves.linear[body as usize] += Vec3::from(shift);
        moves.angular[body as usize] += Vec3::from(turn);
        for j in self.around(body) {
            let q = &mut self.points[self.adjacency[j] as usize];
            if q.b == body {
                q.depth -= (shift + turn.cross(q.rb)).dot(q.n);
            } else {
                q.depth += (shift + turn.cross(q.ra)).dot(q.n);
            }
        }
    }

    /// Measures again the normal velocity of every point of body `i`.
    fn remeasure(&mut self, i: u32, bodies: &[SolverBody]) {
        for j in self.around(i) {
            let q = &mut self.points[self.adjacency[j] as usize];
            let (a, b) = (&bodies[q.a as usize], &bodies[q.b as usize]);
            let v = relative_velocity(a, b, q.ra, q.rb);
            q.vn = v.dot(q.n);
            q.slip = (v - q.n * q.vn).length();
        }
    }
}

impl Resolver for Cyclone {
    fn schedule(&self) -> Schedule {
        Schedule::Once { positions_first: true }
    }

    fn prepare(&mut self, constraints: &mut [ContactConstraint], bodies: &mut Vec<SolverBody>, _settings: &Settings) {
        self.points.clear();
        for (ci, c) in constraints.iter().enumerate() {
            for (k, p) in c.points[..c.count as usize].iter().enumerate() {
                self.points.push(Point {
                    c: ci as u32,
                    k: k as u32,
                    a: c.a,
                    b: c.b,
                    ra: p.ra,
                    rb: p.rb,
                    n: c.normal,
                    t1: c.t1,
                    t2: c.t2,
                    friction: c.friction,
                    restitution: c.restitution,
                    depth: p.depth,
                    rebound: p.rebound,
                    ..Default::default()
                });
            }
        }
        // Points per dynamic body (counting sort into `adjacency`).
        self.start.clear();
        self.start.resize(bodies.len() + 1, 0);
        let dynamic = |i: u32| bodies[i as usize].inv_mass > 0.0;
        for p in &self.points {
            for i in [p.a, p.b] {
                if dynamic(i) {
                    self.start[i as usize + 1] += 1;
                }
            }
        }
        for i in 0..bodies.len() {
            self.start[i + 1] += self.start[i];
        }
        self.adjacency.clear();
        self.adjacency.resize(self.start[bodies.len()] as usize, 0);
        for (j, p) in self.points.iter().enumerate() {
            for i in [p.a, p.b] {
                if dynamic(i) {
                    // `start[i]` serves as the fill cursor and is restored below.
                    self.adjacency[self.start[i as usize] as usize] = j as u32;
                    self.start[i as usize] += 1;
                }
            }
        }
        for i in (0..bodies.len()).rev() {
            self.start[i + 1] = self.start[i];
        }
        self.start[0] = 0;
    }

    fn correct_positions(
        &mut self,
        _constraints: &mut [ContactConstraint],
        bodies: &[SolverBody],
        settings: &Settings,
        moves: &mut PositionMoves,
    ) {
        let steps = settings.cyclone_position_iterations as usize * self.points.len();
        for _ in 0..steps {
            let mut worst = usize::MAX;
            let mut deepest = settings.cyclone_position_epsilon;
            for (i, p) in self.points.iter().enumerate() {
                if p.depth > deepest {
                    deepest = p.depth;
                    worst = i;
                }
            }
            if worst == usize::MAX {
                break;
            }
            let p = self.points[worst];
            let (sa, sb) = (bodies[p.a as usize], bodies[p.b as usize]);
            let inertia = |s: &SolverBody, r: Vec3A| {
                let rn = r.cross(p.n);
                (s.inv_mass, rn.dot(s.inv_i * rn))
            };
            let (la, aa) = inertia(&sa, p.ra);
            let (lb, ab) = inertia(&sb, p.rb);
            let total = la + aa + lb + ab;
            if total <= 0.0 {
                self.points[worst].depth = 0.0;
                continue;
            }
            let f = p.depth / total;
            let limit = settings.cyclone_angular_limit;
            if sa.inv_mass > 0.0 {
                self.move_body(p.a, &sa, p.ra, -p.n, (la * f, aa * f), limit, moves);
            }
            if sb.inv_mass > 0.0 {
                self.move_body(p.b, &sb, p.rb, p.n, (lb * f, ab * f), limit, moves);
            }
        }
    }

    fn solve(&mut self, constraints: &mut [ContactConstraint], bodies: &mut [SolverBody], step: &StepInfo) {
        let settings = step.settings;
        let slop = settings.slop;
        for p in &mut self.points {
            let (a, b) = (&bodies[p.a as usize], &bodies[p.b as usize]);
            let v = relative_velocity(a, b, p.ra, p.rb);
            p.vn = v.dot(p.n);
            p.slip = (v - p.n * p.vn).length();
            p.acc = Vec3A::ZERO;
            let gain = |s: &SolverBody| if s.inv_mass > 0.0 { step.gravity * step.h } else { Vec3A::ZERO };
            let v_acc = (gain(b) - gain(a)).dot(p.n);
            let e = if p.rebound > 0.0 { p.restitution } else { 0.0 };
            // Touching: within slop, or a bouncing speculative point whose gap this step's
            // approach closes — it bounces at the moment of impact instead of a step later,
            // deep in.
            let gap = -p.depth;
            p.touching = p.depth >= -slop || (p.rebound > 0.0 && p.vn < 0.0 && -p.vn * step.h >= gap);
            let k = Mat3A::from_diagonal(Vec3::splat(a.inv_mass + b.inv_mass))
                - skew(p.ra) * a.inv_i * skew(p.ra)
                - skew(p.rb) * b.inv_i * skew(p.rb);
            let basis = Mat3A::from_cols(p.n, p.t1, p.t2);
            p.m = basis.transpose() * k * basis;
            p.m_inv = if p.m.determinant() > 0.0 { p.m.inverse() } else { Mat3A::ZERO };
            p.bounce = bounce_target(&p.m_inv, e, p.rebound, p.vn - v_acc, v.dot(p.t1), v.dot(p.t2));
            // Compression stops every point (a bouncing one's cap counts that impulse).
            p.target = 0.0;
            // The rebound's part beyond Newton's e·|vn₀| (gravity over the gap) as an impulse:
            // Poisson's cap grants it on top (`bounce_target`).
            let m00 = p.m.x_axis.x;
            p.beyond = if m00 > 0.0 { (p.bounce + e * (p.vn - v_acc)).max(0.0) / m00 } else { 0.0 };
            p.cap = f32::INFINITY;
            p.e = e;
        }
        // Poisson's two phases (module docs): compression, every point to its resting target;
        // then, if any point bounces, restitution to the bounce targets.
        self.velocity_pass(bodies, step);
        if self.points.iter().any(|p| p.touching && p.bounce > p.target) {
            for p in &mut self.points {
                if p.bounce > p.target {
                    p.cap = (1.0 + p.e) * p.acc.x.max(0.0) + p.beyond;
                    p.target = p.bounce;
                }
            }
            self.velocity_pass(bodies, step);
        }
        for p in &self.points {
            let cp = &mut constraints[p.c as usize].points[p.k as usize];
            cp.normal_impulse = p.acc.x;
            cp.tangent_impulse = [p.acc.y, p.acc.z];
            cp.total_normal_impulse = p.acc.x;
            cp.total_tangent_impulse = [p.acc.y, p.acc.z];
            cp.max_normal_impulse = p.acc.x;
        }
        // Impacts that share a body, one pair at a time (`impacts.rs`).
        let bounces = |p: &super::ConstraintPoint| p.rebound > 0.0 && p.max_normal_impulse > 0.0;
        super::impacts::resolve_clusters(
            constraints,
            bodies,
            settings.restitution_threshold,
            bounces,
            &mut self.impacts,
        );
    }
}
