//! The world's collision stages: the broad phase (Box2D's enlarged boxes over the hashed
//! grid of [`crate::physics::broadphase`]; the bodies that leave their enlarged box update
//! the grid's pairs in place, and only many of them rebuild it; a pair whose bounding
//! spheres miss each other on their straight paths over the step is dropped, the *path
//! test* of [`Motion::paths_meet`], so fast bodies passing each other get no speculative
//! ghost contacts) and the narrow phase (keep,
//! recycle or recompute each candidate pair's manifold, [`crate::physics::contact`]). The
//! narrow phase reads a compact [`PairKey`] per pair first: the pairs still apart are ruled
//! out from it without touching their boxed contacts, and the rest are prefetched ahead.
//!
//! Limits: the path test assumes straight paths at the step's starting velocities (as the
//! speculative contacts do): a body deflected during the step towards a body its path
//! missed has no speculative point against it in that step. A body edited through
//! `World::body_mut` or a new body restarts the broad phase
//! from scratch; the enlarged boxes are a fixed [`FAT_MARGIN`] wide whatever the body size.

use super::watch::{self, PairRecord};
use super::*;
use crate::physics::collide::mesh::SAME_NORMAL;
use crate::physics::collide::{collide_recorded, ContactPoint, PairPath};
use crate::physics::contact::match_impulses;
use crate::physics::math::prefetch;

/// What the narrow phase needs of a body, gathered once per step by the broad phase (so a
/// pair reads two small records instead of two bodies and their shapes).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Motion {
    /// Velocity of the centre (zero when static or asleep).
    v: Vec3,
    /// Speed bound of the surface from spinning, `|ω|·r` (zero when static or asleep).
    spin: f32,
    /// Bounding radius about the centre.
    radius: f32,
    /// Dynamic and awake.
    pub(super) awake: bool,
    /// Dynamic and asleep (a body an awake one may wake before the solve, `world/islands.rs`).
    pub(super) sleeping: bool,
    /// The centre of mass (the body origin, about which `radius` is measured).
    centre: Vec3,
}

impl Motion {
    fn of(b: &Body) -> Motion {
        let (radius, centre) = (b.shape.bounding_radius(), b.pose.pos);
        if !b.is_dynamic() || b.asleep {
            return Motion { radius, centre, sleeping: b.is_dynamic(), ..Default::default() };
        }
        Motion {
            v: b.velocity,
            spin: b.angular_velocity.length() * radius,
            radius,
            awake: true,
            sleeping: false,
            centre,
        }
    }

    /// Whether the bounding spheres of `a` and `b` come within `slack` of each other while
    /// their centres move on straight lines by `v·dt` (the speculative contacts' own
    /// assumption). A sphere about the centre of mass does not move when the body turns,
    /// so spin plays no part. Pairs whose boxes overlap but whose paths miss by more than
    /// that cannot touch during the step: a speculative point between them would only be a
    /// *ghost* (a normal velocity that would close the gap, from bodies that in fact pass
    /// each other), which brakes both for nothing. Closest approach of `p + t·d`, t ∈ [0, 1]:
    /// `t = −p·d / d·d`, clamped; taken without a division, and spheres already within
    /// reach at the start (every resting pair) answer from the first test.
    #[inline]
    fn paths_meet(a: &Motion, b: &Motion, dt: f32, slack: f32) -> bool {
        let p = b.centre - a.centre;
        let r = a.radius + b.radius + slack;
        let (pp, rr) = (p.length_squared(), r * r);
        if pp <= rr {
            return true;
        }
        let d = (b.v - a.v) * dt;
        let pd = p.dot(d);
        if pd >= 0.0 {
            // Not approaching: the start is the closest, and it is out of reach.
            return false;
        }
        let dd = d.length_squared();
        if -pd >= dd {
            // Still approaching at the end of the step (t = 1).
            return (p + d).length_squared() <= rr;
        }
        // |p + t·d|² at t = −p·d/d·d is pp − (p·d)²/dd.
        pp * dd - pd * pd <= rr * dd
    }

    /// How far the surfaces of `a` and `b` can close in one step:
    /// `(|vB − vA| + |ωA|·rA + |ωB|·rB)·dt` (speculative reach). Relative, so bodies falling
    /// side by side get no speculative contacts.
    fn pair_reach(a: &Motion, b: &Motion, dt: f32) -> f32 {
        (((b.v - a.v).length() + a.spin + b.spin) * dt).min(MAX_SPECULATIVE)
    }
}

impl World {
    /// Each body's AABB swept along its step `v·dt` and grown by its spin reach and half
    /// the margin: two boxes overlap whenever their bodies may touch during the step.
    pub(super) fn broad_phase(&mut self, dt: f32) {
        let margin = self.settings.margin;
        self.motions.clear();
        self.motions.extend(self.bodies.iter().map(Motion::of));
        self.aabbs.clear();
        self.aabbs.extend(self.bodies.iter().zip(&self.motions).map(|(b, m)| {
            let bb = b.shape.aabb(&b.pose);
            let d = (m.v * dt).clamp_length_max(MAX_SPECULATIVE);
            let moved = Aabb::new(bb.min + d, bb.max + d);
            bb.union(&moved).expanded(0.5 * margin + (m.spin * dt).min(MAX_SPECULATIVE))
        }));
        // Box2D's enlarged AABBs: the grid runs on boxes grown by FAT_MARGIN and its pairs
        // are kept while every body's box stays inside its enlarged one — a superset of the
        // overlapping pairs, so none is missed; a body that leaves gets a new enlarged box
        // and the grid runs again. Each step the kept pairs are filtered by the actual
        // boxes, so the narrow phase sees exactly the overlapping pairs.
        // A few escaped bodies update the grid's pairs in place (`BroadPhase::update_moved`,
        // the same pairs a full build gives); many, or a new body list, rebuild it.
        self.escaped.clear();
        let full = if self.broad_dirty || self.fat.len() != self.aabbs.len() {
            self.fat.clear();
            self.fat.extend(self.aabbs.iter().map(|b| b.expanded(FAT_MARGIN)));
            self.broad_dirty = false;
            true
        } else {
            for (i, (f, t)) in self.fat.iter_mut().zip(&self.aabbs).enumerate() {
                if !f.contains(t) {
                    *f = t.expanded(FAT_MARGIN);
                    self.escaped.push(i as u32);
                }
            }
            false
        };
        let bodies = &self.bodies;
        // Frozen bodies (non-finite states, `containment.rs`) take no part.
        let (frozen, any_frozen) = (&self.containment, self.containment.any());
        let skip = |a: u32, b: u32| {
            (!bodies[a as usize].is_dynamic() && !bodies[b as usize].is_dynamic())
                || (any_frozen && (frozen.is_frozen(a) || frozen.is_frozen(b)))
        };
        if full || (!self.escaped.is_empty() && !self.broad.update_moved(&self.fat, &self.escaped, skip)) {
            self.broad.update(&self.fat, skip);
        }
        // The kept pairs whose boxes overlap now and whose bodies' paths come close enough
        // to touch ([`Motion::paths_meet`]; `slack`: the contact margin plus how far gravity
        // bends a path in one step, |g|·dt²).
        let (aabbs, motions) = (&self.aabbs, &self.motions);
        let slack = margin + self.gravity.length() * dt * dt;
        self.pairs.clear();
        let path_test = self.settings.path_test;
        self.pairs.extend(self.broad.pairs.iter().filter(|&&(a, b)| {
            let (a, b) = (a as usize, b as usize);
            aabbs[a].overlaps(&aabbs[b]) && (!path_test || Motion::paths_meet(&motions[a], &motions[b], dt, slack))
        }));
        if path_test && !self.watch.is_empty() {
            // A watched pair dropped here says so (not "no candidate").
            let (pairs, joints, step) = (&self.broad.pairs, &self.joints, self.step_count + 1);
            for r in &mut self.watch {
                let (a, b) = (r.a as usize, r.b as usize);
                let dropped = pairs.binary_search(&(r.a, r.b)).is_ok()
                    && aabbs[a].overlaps(&aabbs[b])
                    && !joints.excludes(r.a, r.b)
                    && !Motion::paths_meet(&motions[a], &motions[b], dt, slack);
                if dropped {
                    let mut rec = Some(r);
                    watch::begin(&mut rec, step, margin);
                    watch::took(&mut rec, PairPath::PathsMiss);
                }
            }
        }
        // Jointed pairs that may not collide (a joint's default) are dropped here.
        if !self.joints.no_collide.is_empty() {
            let joints = &self.joints;
            self.pairs.retain(|&(a, b)| !joints.excludes(a, b));
        }
    }

    pub(super) fn narrow_phase(&mut self, dt: f32) {
        let base = self.collide_config();
        // Last step's further mesh manifolds come off the end of the contacts ([`MeshParts`]).
        let aligned = self.keys.len();
        if self.contacts.len() > aligned {
            self.parts.prev.extend(self.contacts.drain(aligned..));
        }
        self.parts.cursor = 0;
        let unchanged =
            self.keys.len() == self.pairs.len() && self.keys.iter().zip(&self.pairs).all(|(k, &p)| (k.a, k.b) == p);
        if !unchanged {
            self.match_pairs();
        }
        self.touching.clear();
        let mut keys = std::mem::take(&mut self.keys);
        let mut contacts = std::mem::take(&mut self.contacts);
        // First the pairs still apart are ruled out from the keys alone (three in four of
        // a moving pile's pairs); then the rest open their contacts.
        let mut open = std::mem::take(&mut self.open);
        open.clear();
        open.extend((0..keys.len() as u32).filter(|&i| !self.still_apart(&keys[i as usize], dt, &base)));
        for (j, &i) in open.iter().enumerate() {
            // The contacts' boxes lie scattered in memory: ask for the one a few pairs
            // ahead now, so it has arrived when its turn comes (the hull pile's narrow
            // phase spent much of its time waiting on these loads).
            if let Some(&ahead) = open.get(j + PREFETCH_AHEAD) {
                let c = &contacts[ahead as usize];
                prefetch(&c.recycle);
                prefetch(&c.recycle.anchors);
                prefetch(&c.manifold);
            }
            let i = i as usize;
            let touching = if keys[i].watched {
                // A watched pair (module `watch`): the same decisions, recorded.
                let mut records = std::mem::take(&mut self.watch);
                let (a, b) = (keys[i].a, keys[i].b);
                let rec = records.iter_mut().find(|r| (r.a, r.b) == (a, b));
                let touching = self.update_contact(&mut keys[i], &mut contacts[i], dt, &base, rec);
                self.watch = records;
                touching
            } else {
                self.update_contact(&mut keys[i], &mut contacts[i], dt, &base, None)
            };
            if touching {
                self.touching.push(i as u32);
            }
        }
        // This step's further mesh manifolds go after the pair-aligned contacts; last
        // step's boxes go back to the pool.
        self.contact_pool.append(&mut self.parts.prev);
        for part in self.parts.next.drain(..) {
            if !part.manifold.points.is_empty() {
                self.touching.push(contacts.len() as u32);
            }
            contacts.push(part);
        }
        self.open = open;
        self.keys = keys;
        self.contacts = contacts;
    }

    /// Whether the pair of `k`, found apart on an earlier step, is still apart by more
    /// than its speculative margin ([`Apart::still_apart`]): its manifold stays empty.
    #[inline]
    fn still_apart(&self, k: &PairKey, dt: f32, base: &CollideConfig) -> bool {
        if !k.persisted || k.apart.gap <= base.margin {
            return false;
        }
        let (ma, mb) = (&self.motions[k.a as usize], &self.motions[k.b as usize]);
        if !ma.awake && !mb.awake {
            return false;
        }
        let margin = base.margin + Motion::pair_reach(ma, mb, dt);
        let (xa, xb) = (&self.bodies[k.a as usize].pose, &self.bodies[k.b as usize].pose);
        k.apart.still_apart(xa, xb, ma.radius + mb.radius, margin)
    }

    /// Lines the contacts up with this step's pairs: a persisting pair keeps its contact
    /// (SAT cache, tangents, manifold, impulses, recycling anchors), a new one takes a pooled
    /// box, reset, and the contacts of pairs that ended go back to the pool. Pairs are
    /// matched on the keys; the boxes move along unopened.
    fn match_pairs(&mut self) {
        let mut next = std::mem::take(&mut self.contacts_next);
        let mut next_keys = std::mem::take(&mut self.keys_next);
        next.clear();
        next_keys.clear();
        let records = &self.watch;
        let mut old = self.keys.drain(..).zip(self.contacts.drain(..)).peekable();
        for &(a, b) in &self.pairs {
            while let Some((_, c)) = old.next_if(|(k, _)| (k.a, k.b) < (a, b)) {
                self.contact_pool.push(c);
            }
            let (k, c) = old.next_if(|(k, _)| (k.a, k.b) == (a, b)).unwrap_or_else(|| {
                let fresh = Contact { a, b, ..Default::default() };
                let c = match self.contact_pool.pop() {
                    Some(mut c) => {
                        *c = fresh;
                        c
                    }
                    None => Box::new(fresh),
                };
                let watched = watch::is_watched(records, a, b);
                (PairKey { a, b, persisted: false, watched, apart: Apart::default() }, c)
            });
            next_keys.push(k);
            next.push(c);
        }
        self.contact_pool.extend(old.map(|(_, c)| c));
        self.keys_next = std::mem::replace(&mut self.keys, next_keys);
        self.contacts_next = std::mem::replace(&mut self.contacts, next);
    }

    /// The narrow phase of one candidate pair not [still apart](Self::still_apart): keep,
    /// recycle or recompute the manifold of `c` (which holds last step's contact of the same
    /// pair if `k.persisted`). Returns whether the pair touches (its manifold has points).
    /// `rec`: the pair's record when it is watched (what each decision was).
    #[inline]
    fn update_contact(
        &mut self,
        k: &mut PairKey,
        c: &mut Contact,
        dt: f32,
        base: &CollideConfig,
        mut rec: Option<&mut PairRecord>,
    ) -> bool {
        let persisted = std::mem::replace(&mut k.persisted, true);
        // Last step's further manifolds of this pair (a body on a mesh along several normals).
        let parts = self.parts.take_prev(k.a, k.b);
        let (ma, mb) = (&self.motions[k.a as usize], &self.motions[k.b as usize]);
        let step = self.step_count + 1;
        if !ma.awake && !mb.awake {
            // Both asleep (or asleep + static): keep the manifolds as they were.
            watch::begin(&mut rec, step, base.margin);
            watch::took(&mut rec, PairPath::Asleep);
            self.parts.carry(parts, &mut self.contact_pool);
            return !c.manifold.points.is_empty();
        }
        // Speculative contacts (Catto): points up to the distance the pair can close in one
        // step, so fast bodies land on the surface instead of deep inside it.
        let reach = Motion::pair_reach(ma, mb, dt);
        let cfg = CollideConfig { margin: base.margin + reach, ..*base };
        watch::begin(&mut rec, step, cfg.margin);
        let (ra, rb) = (ma.radius, mb.radius);
        let (ba, bb) = (&self.bodies[k.a as usize], &self.bodies[k.b as usize]);
        if persisted {
            let distance = self.settings.recycle_distance;
            // A pair with several normal groups is recycled whole or not at all.
            if c.recycle.reuse(&mut c.manifold, &ba.pose, &bb.pose, (ra, rb), distance, cfg.margin)
                && self.parts.reuse(parts.clone(), &ba.pose, &bb.pose, (ra, rb), distance, cfg.margin)
            {
                self.parts.carry(parts, &mut self.contact_pool);
                watch::took(&mut rec, PairPath::Recycled);
                return true;
            }
        }
        // Bounding spheres (radii about the centres) apart by more than the margin: no
        // manifold, and their gap, a lower bound on the distance, lets `still_apart` skip
        // the pair on later steps while it stays apart — most new pairs of a moving pile are
        // such near misses, which would otherwise each cost a SAT.
        let sphere_gap = ba.pose.pos.distance(bb.pose.pos) - (ra + rb);
        if sphere_gap > cfg.margin {
            c.manifold.clear();
            c.recycle = Recycle::default();
            c.impulses = Default::default();
            k.apart = Apart::new(&ba.pose, &bb.pose, sphere_gap);
            watch::took(&mut rec, PairPath::SphereSkip);
            return false;
        }
        let (prev_points, prev_impulses, prev_normal) = (c.manifold.points.clone(), c.impulses, c.manifold.normal);
        let record = rec.as_deref_mut().map(|r| &mut r.collide);
        collide_recorded(
            &ba.shape,
            &ba.pose,
            &bb.shape,
            &bb.pose,
            &cfg,
            &mut c.cache,
            &mut self.scratch,
            &mut c.manifold,
            record,
        );
        if let Some(r) = rec {
            r.path = r.collide.path;
            if r.collide.clipped {
                r.clip_step = r.step;
            }
        }
        let rel = Iso::relative(&ba.pose, &bb.pose);
        c.recycle = Recycle::capture(&c.manifold, &ba.pose, &bb.pose, rel);
        k.apart = Apart::capture(&c.manifold, rel, &c.cache);
        c.impulses = Default::default();
        let groups = &self.scratch.mesh_groups;
        if groups.is_empty() && parts.is_empty() {
            if persisted {
                match_impulses(&prev_points, &prev_impulses, c, 4.0 * base.slop);
            } else {
                fresh_impulses(c);
            }
        } else {
            // A mesh pair with several normal groups now or last step: each group's manifold
            // takes its warm impulses from last step's group of the nearest normal.
            let prev = Group { normal: prev_normal, points: &prev_points, impulses: &prev_impulses };
            let radius = 4.0 * base.slop;
            let parts_prev = &self.parts.prev[parts];
            let warm = |target: &mut Contact| {
                let n = target.manifold.normal;
                let best = std::iter::once(prev)
                    .filter(|_| persisted)
                    .chain(parts_prev.iter().map(|p| Group::of(p)))
                    .map(|g| (g.normal.dot(n), g))
                    .filter(|(d, _)| *d >= SAME_NORMAL)
                    .max_by(|x, y| x.0.total_cmp(&y.0));
                match best {
                    Some((_, g)) => match_impulses(g.points, g.impulses, target, radius),
                    None => fresh_impulses(target),
                }
            };
            warm(c);
            for g in groups {
                let mut part = self.contact_pool.pop().unwrap_or_default();
                *part = Contact { a: k.a, b: k.b, ..Default::default() };
                part.manifold.clone_from(g);
                part.recycle = Recycle::capture(g, &ba.pose, &bb.pose, rel);
                warm(&mut part);
                self.parts.next.push(part);
            }
        }
        !c.manifold.points.is_empty()
    }
}

/// New impulses (none accumulated) for every point of `c`'s manifold.
fn fresh_impulses(c: &mut Contact) {
    for (k, pt) in c.manifold.points.iter().enumerate() {
        c.impulses[k] = PointImpulse { id: pt.id, ..Default::default() };
    }
}

/// One of last step's manifolds of a pair, as warm starting reads it.
#[derive(Clone, Copy)]
struct Group<'a> {
    normal: Vec3,
    points: &'a [ContactPoint],
    impulses: &'a [PointImpulse; 4],
}

impl<'a> Group<'a> {
    fn of(c: &'a Contact) -> Group<'a> {
        Group { normal: c.manifold.normal, points: &c.manifold.points, impulses: &c.impulses }
    }
}

/// The further manifolds of body–mesh pairs. A body touching mesh faces whose normals
/// differ by more than 18° (a box in a V valley) gets a manifold per normal group
/// (`collide/mesh.rs`): the deepest lives in the pair's own contact, the others in contacts
/// of the same pair that each narrow phase appends to `World::contacts` after the
/// pair-aligned ones — so the solvers, islands, drawing and traces read them as they read
/// any contact. Their boxes come from and go back to the contact pool.
///
/// A pair with several groups is recycled whole (every group's manifold within the
/// recycling window) or recomputed whole; the groups of a pair whose bodies sleep are kept
/// as they were.
#[derive(Clone, Debug, Default)]
#[allow(clippy::vec_box)]
pub(super) struct MeshParts {
    /// Last step's further manifolds, in pair order (taken off the end of `contacts`).
    pub(super) prev: Vec<Box<Contact>>,
    /// This step's, in pair order.
    next: Vec<Box<Contact>>,
    /// How far the narrow phase has read `prev`.
    pub(super) cursor: usize,
}

impl MeshParts {
    /// The range of `prev` holding pair (a, b)'s manifolds. Pairs are visited in order, so a
    /// cursor walks `prev` once per step.
    fn take_prev(&mut self, a: u32, b: u32) -> std::ops::Range<usize> {
        let key = |c: &Contact| (c.a, c.b);
        while self.prev.get(self.cursor).is_some_and(|c| key(c) < (a, b)) {
            self.cursor += 1;
        }
        let start = self.cursor;
        while self.prev.get(self.cursor).is_some_and(|c| key(c) == (a, b)) {
            self.cursor += 1;
        }
        start..self.cursor
    }

    /// Recycles each of last step's manifolds `range` in place ([`Recycle::reuse`]); whether
    /// all of them could be.
    fn reuse(
        &mut self,
        range: std::ops::Range<usize>,
        xa: &Iso,
        xb: &Iso,
        radii: (f32, f32),
        distance: f32,
        margin: f32,
    ) -> bool {
        self.prev[range].iter_mut().all(|p| {
            let Contact { recycle, manifold, .. } = &mut **p;
            recycle.reuse(manifold, xa, xb, radii, distance, margin)
        })
    }

    /// Keeps last step's manifolds `range` as they were (a sleeping pair), swapping each box
    /// for a pooled one so that `prev` can go back to the pool whole.
    #[allow(clippy::vec_box)]
    fn carry(&mut self, range: std::ops::Range<usize>, pool: &mut Vec<Box<Contact>>) {
        for i in range {
            let spare = pool.pop().unwrap_or_default();
            self.next.push(std::mem::replace(&mut self.prev[i], spare));
        }
    }
}

/// A candidate pair as the narrow phase first reads it: the bodies and, for a pair last
/// found apart, the [`Apart`] record that may skip it. Kept in `World::keys`, in the
/// contacts' order.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct PairKey {
    pub(super) a: u32,
    pub(super) b: u32,
    /// The contact was carried over from an earlier step (false for a new pair).
    persisted: bool,
    /// The pair is watched: the narrow phase records what it does ([`PairRecord`]).
    pub(super) watched: bool,
    apart: Apart,
}

impl PairKey {
    /// The key of a contact put in from outside (a recorded one): carried over, not apart.
    pub(super) fn recorded(a: u32, b: u32) -> PairKey {
        PairKey { a, b, persisted: true, ..Default::default() }
    }
}

#[cfg(test)]
mod tests {
    use crate::physics::{Settings, World};

    use super::Motion;
    use glam::Vec3;

    /// Brute force: every pair of bodies, not both static, whose step boxes overlap (and,
    /// with `Settings::path_test`, whose paths meet).
    fn overlapping(w: &World, dt: f32) -> Vec<(u32, u32)> {
        let n = w.bodies.len() as u32;
        let slack = w.settings.margin + w.gravity.length() * dt * dt;
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let both_static = !w.bodies[a as usize].is_dynamic() && !w.bodies[b as usize].is_dynamic();
                let (ma, mb) = (&w.motions[a as usize], &w.motions[b as usize]);
                let meet = !w.settings.path_test || Motion::paths_meet(ma, mb, dt, slack);
                if !both_static && w.aabbs[a as usize].overlaps(&w.aabbs[b as usize]) && meet {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// The kept pairs of the enlarged boxes, filtered by the actual boxes, are exactly the
    /// overlapping pairs, every step of a pile falling, landing and settling (the grid is
    /// rerun only when a body leaves its enlarged box); with and without the path test.
    #[test]
    fn kept_pairs_are_exactly_the_overlapping_pairs() {
        for path_test in [true, false] {
            kept_pairs_match(Settings { sleeping: false, path_test, ..Default::default() });
        }
    }

    fn kept_pairs_match(settings: Settings) {
        let mut w = crate::scene::stock::box_pile(120, settings);
        let mut reruns = 0;
        for step in 0..240 {
            let before = w.fat.clone();
            w.step(1.0 / 60.0);
            if w.fat != before {
                reruns += 1;
            }
            assert_eq!(w.pairs, overlapping(&w, 1.0 / 60.0), "step {step}");
        }
        // The falling phase reruns the grid; the settled pile must not, or the test would
        // not exercise the kept pairs.
        assert!(reruns > 10 && reruns < 200, "{reruns} grid runs in 240 steps");
    }

    /// `paths_meet` against a brute-force closest approach: the centres' distance sampled at
    /// 10,001 times over the step, on random motions. Cases within 1e-3 m of the line are
    /// not judged (the sampling's own error).
    #[test]
    fn paths_meet_matches_sampled_closest_approach() {
        let mut rng = crate::physics::hull::builders::SplitMix64(0x9A7E);
        let mut v = |s: f32| Vec3::new(rng.next_f32() - 0.5, rng.next_f32() - 0.5, rng.next_f32() - 0.5) * s;
        let (mut met, mut missed) = (0, 0);
        for _ in 0..2000 {
            let a = Motion { v: v(200.0), radius: 0.3, centre: v(4.0), awake: true, sleeping: false, spin: 0.0 };
            let b = Motion { v: v(200.0), radius: 0.5, centre: v(4.0), awake: true, sleeping: false, spin: 0.0 };
            let (dt, slack) = (1.0 / 60.0, 0.02);
            let closest = (0..=10_000)
                .map(|k| {
                    let t = k as f32 / 10_000.0 * dt;
                    ((b.centre + b.v * t) - (a.centre + a.v * t)).length()
                })
                .fold(f32::INFINITY, f32::min);
            let r = a.radius + b.radius + slack;
            if (closest - r).abs() < 1e-3 {
                continue;
            }
            assert_eq!(Motion::paths_meet(&a, &b, dt, slack), closest < r, "closest {closest}, reach {r}");
            if closest < r {
                met += 1;
            } else {
                missed += 1;
            }
        }
        assert!(met > 100 && missed > 100, "{met} meeting and {missed} missing pairs");
    }

    /// The sphere early-out of `update_contact` is sound only if every point of a body lies
    /// within its motion radius of its pose's position: checked on every vertex of a hull
    /// pile (hulls re-centred on their centre of mass) while it falls and tumbles, and the
    /// early-out must actually fire.
    #[test]
    fn bounding_spheres_hold_every_vertex() {
        // Without the path test, which would rule most of these pairs out before.
        let settings = Settings { sleeping: false, path_test: false, ..Default::default() };
        let mut w = crate::scene::stock::hull_pile(60, settings);
        let mut apart = 0;
        for _ in 0..90 {
            w.step(1.0 / 60.0);
            for (b, m) in w.bodies.iter().zip(&w.motions) {
                if let Some(h) = b.shape.hull() {
                    for v in h.vertices() {
                        let d = b.pose.transform_point(*v).distance(b.pose.pos);
                        assert!(d <= m.radius * (1.0 + 1e-5), "vertex {d} m out, radius {}", m.radius);
                    }
                }
            }
            apart += w
                .keys
                .iter()
                .zip(&w.contacts)
                .filter(|(k, c)| !c.recycle.valid && k.apart.gap > 0.0 && c.cache == Default::default())
                .count();
        }
        assert!(apart > 50, "{apart} pair-steps skipped by the spheres before any SAT");
    }
}
