//! The `Prepare` stage: solver bodies and one contact constraint per touching manifold
//! (lever arms, tangent basis along the slip, materials, soft-contact coefficients, warm
//! impulses), then the method's own preparation ([`crate::physics::solver::Resolver::prepare`]).
//!
//! Each point's bounce target (`rebound`) is set here, from its speed at the moment of
//! impact and the integrator's energy ([`crate::physics::solver::bounce`]), for the
//! method's schedule: every method bounces to it.
//!
//! Bodies and contacts are prepared independently, shared out between the world's worker
//! threads: the result is the same at any thread count. A static (or still sleeping) body's
//! solver record is kept from the last step while the broad phase kept its records
//! (`world/movers.rs`), and the list of the bodies the solver moves is gathered here for
//! the integration. With sleeping on, the touching contacts neither of whose bodies the
//! solver moves (a sleeping pile's) are left out before the round, from the pairs' keys
//! and the compact solver records, so they take no constraint slot.
//!
//! Materials: a pair's friction is the geometric mean `√(μa·μb)` and its restitution the
//! maximum `max(ea, eb)` (Box2D's rules), unless a [`super::PairMaterial`] override names
//! the pair. Its rolling resistance is the larger coefficient times the larger rolling arm
//! of its two shapes (Box3D's rule; [`crate::physics::Shape::rolling_arm`]; on a mesh, a
//! hull's whole inner radius, as Box3D's mesh contacts take it).

use super::movers::Movers;
use super::{World, MIN_BODIES, PREFETCH_AHEAD};
use crate::physics::body::Body;
use crate::physics::math::{prefetch_all, tangent_basis};
use crate::physics::parallel::Shared;
use crate::physics::per_body;
use crate::physics::solver::bounce::Impact;
use crate::physics::solver::{
    relative_velocity, ConstraintPoint, ContactConstraint, ContinuousMode, Schedule, Softness, SolverBody,
};
use glam::{Mat3A, Vec3, Vec3A};
use std::sync::atomic::{AtomicBool, Ordering};

impl World {
    /// The friction and restitution pair (a, b) is solved with: its pair material if the
    /// scene gives one, else √(μA·μB) and max(eA, eB).
    pub fn pair_material(&self, a: usize, b: usize) -> (f32, f32) {
        let (a, b) = (a as u32, b as u32);
        if let Some(m) = self.pair_materials.iter().find(|m| (m.a, m.b) == (a, b) || (m.b, m.a) == (a, b)) {
            return (m.friction, m.restitution);
        }
        let (ba, bb) = (&self.bodies()[a as usize], &self.bodies()[b as usize]);
        ((ba.friction * bb.friction).sqrt(), ba.restitution.max(bb.restitution))
    }

    fn material(&self, a: u32, b: u32) -> (f32, f32) {
        if let Some(m) = self.pair_materials.iter().find(|m| (m.a, m.b) == (a, b) || (m.b, m.a) == (a, b)) {
            return (m.friction, m.restitution);
        }
        // From the compact solver records (filled first in `prepare`), not the large bodies.
        let (ba, bb) = (&self.solver_bodies[a as usize], &self.solver_bodies[b as usize]);
        ((ba.friction * bb.friction).sqrt(), ba.restitution.max(bb.restitution))
    }

    /// Builds solver bodies and constraints; `h` is the (sub)step the soft contacts are
    /// tuned for. Bodies and contacts are each independent, so both loops are shared out
    /// between the worker threads (`crate::physics::parallel`); the constraints keep the
    /// order of `touching` whatever the thread count.
    pub(super) fn prepare(&mut self, h: f32) {
        let n = self.bodies.len();
        let mut solver_bodies = std::mem::take(&mut self.solver_bodies);
        let mut start_poses = std::mem::take(&mut self.start_poses);
        per_body::fit(&mut solver_bodies, n, SolverBody::default());
        per_body::fit(&mut start_poses, n, Default::default());
        {
            let (out, poses, bodies) = (Shared::new(&mut solver_bodies), Shared::new(&mut start_poses), &self.bodies);
            if self.movers.steady {
                // The static bodies' records are as the last step left them, which is what
                // they would be made again (`world/movers.rs`): the dynamic and the new
                // bodies' only.
                // (And the sleeping bodies woken since the broad phase: `Movers::woken`.)
                for visit in self.movers.visited_and_woken() {
                    self.workers.for_blocks(visit.len(), MIN_BODIES, |_, r| {
                        for &i in &visit[r] {
                            let i = i as usize;
                            // SAFETY: each body is in one block only (the list has no repeats).
                            unsafe { (*out.get_mut(i), *poses.get_mut(i)) = (solver_body(&bodies[i]), bodies[i].pose) };
                        }
                    });
                }
            } else {
                self.workers.for_blocks(n, MIN_BODIES, |_, r| {
                    // SAFETY: each block owns its bodies' records.
                    let (out, poses) = unsafe { (out.range_mut(r.clone()), poses.range_mut(r.clone())) };
                    for ((s, x), b) in out.iter_mut().zip(poses).zip(&bodies[r]) {
                        *s = solver_body(b);
                        *x = b.pose;
                    }
                });
            }
        }
        self.solver_bodies = solver_bodies;
        self.start_poses = start_poses;
        // With sleeping on, the touching contacts of which neither body moves (both asleep,
        // or asleep and static) are left out before the round, read from the
        // compact keys and solver records: a sleeping pile's contacts take no slot. (With it
        // off such contacts are rare, and their slots are dropped after the round.)
        let mut moving = std::mem::take(&mut self.moving_contacts);
        moving.clear();
        let sleeping = self.settings.sleeping;
        // (In a world asleep, `Movers::pairs_kept`, no contact has a moving body.)
        if sleeping && !self.movers.pairs_kept {
            let solver = &self.solver_bodies;
            moving.extend(self.touching_pairs().filter(|&(_, a, b)| moves(solver, a, b)).map(|(ci, ..)| ci));
        }
        let list: &[u32] = if sleeping { &moving } else { &self.touching };
        // The bodies the solver moves, for the integration loops (`world/movers.rs`): with
        // sleeping off, every dynamic body (but the frozen ones) when those are not few.
        let (movers, solver) = (&mut self.movers, &self.solver_bodies);
        movers.active.clear();
        movers.few_active = self.settings.sleeping || Movers::few(&movers.dynamic, n);
        if movers.few_active {
            movers.active.extend(movers.dynamic.iter().filter(|&&i| solver[i as usize].inv_mass > 0.0));
            movers.few_active = Movers::few(&movers.active, n);
        }
        let soft_step = self.methods.get(&self.settings).schedule() == Schedule::SoftStep;
        let hertz = self.settings.contact_hertz.min(0.25 / h);
        let k = PrepareConstants {
            h,
            soft_step,
            warm: self.settings.warm_starting && soft_step,
            gravity: Vec3A::from(self.gravity),
            threshold: self.settings.restitution_threshold,
            // The earliest-collision mode cuts the step at each impact: a pair meets at the
            // cut, so its approach there is its speed of impact, and a speculative point is
            // left to the cut that reaches it.
            earliest: self.settings.ccd == ContinuousMode::EarliestCollision,
            slop: self.settings.slop,
            soft: Softness::new(hertz, self.settings.damping_ratio, h),
            static_soft: Softness::new(2.0 * hertz, self.settings.damping_ratio, h),
        };
        // One slot per touching contact, written in place (a constraint is over half a
        // kilobyte, too big to build and move); the slots of pairs with nothing to move are
        // dropped after.
        let mut constraints = std::mem::take(&mut self.constraints);
        let t = list.len();
        constraints.clear();
        constraints.reserve(t);
        // Per slot, its two bodies (`u32::MAX` for a dropped slot): the pass after the
        // round reads these instead of the constraints, half a kilobyte apart.
        let mut ends = std::mem::take(&mut self.constraint_ends);
        ends.resize(t, [0; 2]);
        let bouncy = AtomicBool::new(false);
        {
            // The slots are written in the round (no default fill on the stepping thread
            // first when the list grows).
            let (out, ends) = (Shared::new(&mut constraints.spare_capacity_mut()[..t]), Shared::new(&mut ends));
            let w = &*self;
            w.workers.for_blocks(t, MIN_CONTACTS, |_, r| {
                for j in r.clone() {
                    // The boxed contacts lie scattered in memory: start loading the lines
                    // this loop reads of the contact a few ahead.
                    if j + PREFETCH_AHEAD < r.end {
                        let c = &w.contacts[list[j + PREFETCH_AHEAD] as usize];
                        prefetch_all(&c.manifold);
                        prefetch_all(&c.recycle.levers);
                        prefetch_all(&c.impulses);
                    }
                    // SAFETY: each block owns its slots.
                    let (c, e) = unsafe { (ContactConstraint::default_in(out.get_mut(j)), ends.get_mut(j)) };
                    w.prepare_contact(list[j], c, &k);
                    *e = if c.contact == u32::MAX { [u32::MAX; 2] } else { [c.a, c.b] };
                    if c.restitution > 0.0 && c.contact != u32::MAX {
                        bouncy.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
        // SAFETY: the round wrote every slot 0..t.
        unsafe { constraints.set_len(t) };
        if self.round_parts {
            // A compound with round children: each contact takes its child's rounding.
            for cc in
                constraints.iter_mut().filter(|cc| cc.contact != u32::MAX && cc.rounding.iter().any(|r| r.is_nan()))
            {
                cc.rounding = self.part_rounding(&self.contacts[cc.contact as usize]);
            }
        }
        // Who touches (a body's flag set by each of its contacts, so not on the threads),
        // and the slots of pairs with nothing to move dropped, if there are any.
        let mut dropped = false;
        for &[a, b] in &ends {
            if a == u32::MAX {
                dropped = true;
                continue;
            }
            self.solver_bodies[a as usize].touching = true;
            self.solver_bodies[b as usize].touching = true;
        }
        if dropped {
            constraints.retain(|c| c.contact != u32::MAX);
        }
        self.constraint_ends = ends;
        self.moving_contacts = moving;
        self.bouncy = bouncy.into_inner();
        self.constraints = constraints;
        self.prepare_joints(h);
        let method = self.methods.get(&self.settings);
        method.set_workers(&self.workers);
        method.prepare(&mut self.constraints, &mut self.solver_bodies, &self.settings);
    }

    /// Contact `c`'s rolling resistance (its bodies' coefficients `rolling`, one above 0):
    /// the larger coefficient times the larger rolling arm of its two shapes (Box3D's rule;
    /// [`crate::physics::Shape::rolling_arm`]; a compound's: the child its manifold touches
    /// with; on a mesh, the convex shape's [`crate::physics::Shape::rolling_arm_on_mesh`]),
    /// and with `warm` last step's impulse. Kept out of the common path.
    #[cold]
    #[inline(never)]
    fn prepare_rolling(
        &self,
        c: &crate::physics::contact::Contact,
        cc: &mut ContactConstraint,
        rolling: [f32; 2],
        warm: bool,
    ) {
        let (ca, cb) = self.part_shapes(c);
        let arm = match (ca.mesh().is_some(), cb.mesh().is_some()) {
            (true, _) => cb.rolling_arm_on_mesh(),
            (_, true) => ca.rolling_arm_on_mesh(),
            _ => ca.rolling_arm().max(cb.rolling_arm()),
        };
        cc.rolling = rolling[0].max(rolling[1]) * arm;
        if warm {
            cc.rolling_impulse = c.rolling_impulse.into();
        }
    }

    /// The roundings of a compound pair's contact `c`: those of the children its manifold
    /// touches with ([`World::part_shapes`]).
    fn part_rounding(&self, c: &crate::physics::contact::Contact) -> [f32; 2] {
        let (a, b) = self.part_shapes(c);
        [a.rounding(), b.rounding()]
    }

    /// The shapes contact `c`'s manifold is between: of a compound, the child its child
    /// pair names ([`crate::physics::collide::Manifold::part`]); of any other body, its shape.
    fn part_shapes(&self, c: &crate::physics::contact::Contact) -> (&crate::physics::Shape, &crate::physics::Shape) {
        use crate::physics::compound::{child, part_children};
        let (sa, sb) = (&self.bodies[c.a as usize].shape, &self.bodies[c.b as usize].shape);
        let (ia, ib) = part_children(sb, c.manifold.part);
        (child(sa, ia).0, child(sb, ib).0)
    }

    /// Writes contact `ci`'s constraint into `cc`, a default constraint (`cc.contact =
    /// u32::MAX` when neither body moves: static, kinematic or asleep, read from the compact
    /// solver bodies).
    #[inline]
    fn prepare_contact(&self, ci: u32, cc: &mut ContactConstraint, k: &PrepareConstants) {
        let c = &self.contacts[ci as usize];
        let (sa, sb) = (&self.solver_bodies[c.a as usize], &self.solver_bodies[c.b as usize]);
        if sa.inv_mass == 0.0 && sb.inv_mass == 0.0 {
            cc.contact = u32::MAX;
            return;
        }
        let PrepareConstants { h, soft_step, warm, gravity, threshold, earliest, slop, soft, static_soft } = *k;
        let (friction, restitution) = self.material(c.a, c.b);
        let n = Vec3A::from(c.manifold.normal);
        let (pa, pb) =
            (Vec3A::from(self.start_poses[c.a as usize].pos), Vec3A::from(self.start_poses[c.b as usize].pos));
        // First tangent along the sliding direction at the manifold's centre: friction
        // then acts straight against the slip even though the two tangent rows have
        // different effective masses (a fixed basis skews the clamped impulse sideways
        // and makes sliding boxes yaw and drift).
        let centre =
            Vec3A::from(c.manifold.points.iter().map(|p| p.position).sum::<Vec3>() / c.manifold.points.len() as f32);
        let dv = relative_velocity(sa, sb, centre - pa, centre - pb);
        let vt = dv - n * dv.dot(n);
        let (t1, t2) = if vt.length_squared() > 1e-6 {
            let t1 = vt.normalize();
            (t1, n.cross(t1))
        } else {
            let (t1, t2) = tangent_basis(n.into());
            (t1.into(), t2.into())
        };
        (cc.a, cc.b, cc.contact) = (c.a, c.b, ci);
        (cc.normal, cc.t1, cc.t2) = (n, t1, t2);
        (cc.friction, cc.restitution) = (friction, restitution);
        cc.softness = if sa.inv_mass == 0.0 || sb.inv_mass == 0.0 { static_soft } else { soft };
        cc.count = c.manifold.points.len() as u32;
        cc.idle = 0;
        // (NaN for a compound with round children, made its child's below.)
        cc.rounding = [self.motions[c.a as usize].rounding, self.motions[c.b as usize].rounding];
        // Rolling resistance, for the few pairs that have it (`prepare_rolling`).
        let rolling = [self.motions[c.a as usize].rolling, self.motions[c.b as usize].rolling];
        if rolling[0] > 0.0 || rolling[1] > 0.0 {
            self.prepare_rolling(c, cc, rolling, warm);
        }
        // The rate at which gravity closes the pair along n (a body of inverse mass 0
        // feels none): what it adds to a bounce's approach over the gap.
        let felt = |s: &SolverBody| if s.inv_mass > 0.0 { gravity } else { Vec3A::ZERO };
        let closing = if restitution > 0.0 { -(felt(sb) - felt(sa)).dot(n) } else { 0.0 };
        for (k, p) in c.manifold.points.iter().enumerate() {
            // The lever arms captured with the manifold (equal to `position − centre` on
            // a fresh one, frozen while it is recycled; see `Recycle`).
            let (ra, rb) = c.recycle.levers[k];
            let (ra, rb) = (Vec3A::from(ra), Vec3A::from(rb));
            let imp = &c.impulses[k];
            let vn = if restitution > 0.0 { relative_velocity(sa, sb, ra, rb).dot(n) } else { 0.0 };
            let rebound = if restitution > 0.0 {
                // The one-pass methods added this step's gravity before this stage.
                let gap = if earliest { 0.0 } else { -p.depth };
                let impact = if soft_step {
                    Impact::new(-vn, gap, closing, h)
                } else {
                    Impact::after_gravity(vn, gap, closing, h)
                };
                let reached = !earliest || soft_step || p.depth >= -slop;
                match (reached && impact.over(threshold), soft_step) {
                    (false, _) => 0.0,
                    (true, true) => impact.after_move(restitution),
                    (true, false) => impact.before_move(restitution),
                }
            } else {
                0.0
            };
            let (normal_impulse, tangent_impulse) = if warm {
                (imp.warm_normal, [Vec3A::from(imp.warm_friction).dot(t1), Vec3A::from(imp.warm_friction).dot(t2)])
            } else {
                (0.0, [0.0; 2])
            };
            if p.depth < 0.0 && normal_impulse == 0.0 && tangent_impulse == [0.0; 2] {
                cc.idle |= 1 << k;
            }
            cc.points[k] = ConstraintPoint {
                ra,
                rb,
                adjusted_separation: -p.depth - n.dot(rb - ra),
                separation: -p.depth,
                normal_impulse,
                tangent_impulse,
                total_normal_impulse: 0.0,
                total_tangent_impulse: [0.0; 2],
                max_normal_impulse: 0.0,
                // Only the restitution passes read these.
                relative_velocity: vn,
                rebound,
                closing,
                depth: p.depth,
                id: p.id,
                ..Default::default()
            };
        }
    }
}

/// Fewest contacts a worker thread takes at once: fewer are prepared on the calling thread.
const MIN_CONTACTS: usize = 64;

/// What every contact's preparation reads (see [`World::prepare_contact`]).
#[derive(Clone, Copy)]
struct PrepareConstants {
    h: f32,
    soft_step: bool,
    warm: bool,
    gravity: Vec3A,
    threshold: f32,
    earliest: bool,
    slop: f32,
    soft: Softness,
    static_soft: Softness,
}

/// The solver's compact record of body `b` at the step's start.
#[inline]
fn solver_body(b: &Body) -> SolverBody {
    let active = b.is_dynamic() && !b.asleep;
    let isotropic = b.isotropic();
    // An isotropic body's world inverse inertia is its local one, k·I, whatever the
    // rotation: taken exactly (R·k·I·Rᵀ would leave round-off off the diagonal), so
    // the wide solver can multiply by k alone (`BatchBodies::isotropic`).
    let inv_i = match (active, isotropic) {
        (false, _) => Mat3A::ZERO,
        (true, true) => Mat3A::from_diagonal(Vec3::splat(b.inv_inertia_local.x_axis.x)),
        (true, false) => Mat3A::from(b.inv_inertia_world()),
    };
    SolverBody {
        v: b.velocity.into(),
        w: b.angular_velocity.into(),
        dp: Vec3A::ZERO,
        dq: glam::Quat::IDENTITY,
        inv_mass: if active { b.inv_mass } else { 0.0 },
        inv_i,
        isotropic,
        touching: false,
        friction: b.friction,
        restitution: b.restitution,
    }
}

/// Whether a contact between bodies `a` and `b` has a body the solver moves (one with mass
/// that is awake: a static or sleeping body's solver record has none), as
/// [`World::prepare_contact`] tells.
#[inline]
fn moves(solver: &[SolverBody], a: u32, b: u32) -> bool {
    !(solver[a as usize].inv_mass == 0.0 && solver[b as usize].inv_mass == 0.0)
}
