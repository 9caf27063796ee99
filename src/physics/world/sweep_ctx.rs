//! The swept shape of one sweep of the fast continuous stage ([`super::continuous`]) and
//! the tests it makes against each candidate: the target body, or one triangle of a target
//! mesh. A compound's children are each such a shape in turn, with their own centre,
//! extent, start contact and probe.
//!
//! For each candidate, in order: a triangle the shape's centre passes through is passed
//! ([`SweepCtx::centre_crosses`]); a triangle whose plane the shape keeps clear of
//! ([`SweepCtx::clear_of_plane`]), or which its centre ends well in front of without
//! coming much nearer ([`SweepCtx::stays_in_front`], Box3D's rule), gets no query; any
//! other candidate gets a time-of-impact query by conservative advancement
//! ([`SweepCtx::test`]), with Box2D's probe where the shape touches it at the start.
//!
//! Limits: the same as the stage's ([`super::continuous`]); the start contact is computed
//! once per child and candidate, not shared between a compound's children.

use super::ccd_record::{ToiMethod, ToiQuery};
use super::continuous::Log;
use crate::physics::collide::toi::{time_of_impact, Mover, Toi, ToiConfig, ToiState};
use crate::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use crate::physics::math::Iso;
use crate::physics::shape::Shape;
use glam::Vec3;

/// The earliest impact found so far: time, other body, query index, target gap and the
/// normal from the other body.
pub(super) type Best = (f32, u32, u32, f32, Vec3);

/// A body a sweep is tested against (for a mesh, its triangles one at a time).
pub(super) struct Target<'a> {
    pub(super) j: u32,
    pub(super) shape: &'a Shape,
    pub(super) pose: &'a Iso,
}

/// The swept body of [`World::sweep_body`]: what each candidate's test reads.
pub(super) struct SweepCtx<'a> {
    pub(super) i: u32,
    /// The swept shape (of a compound, the child being tested), its pose at the step's
    /// start, and its centre at the start and the end (a body's centre of mass; a child's
    /// inner ball's centre).
    pub(super) shape: &'a Shape,
    pub(super) at0: Iso,
    /// Its pose at the end, and how far a point of it may stray from the straight line
    /// between where it starts and where it ends (twice the sagitta of its arc).
    pub(super) at1: Iso,
    pub(super) sag: f32,
    /// Half its inner radius ([`SweepCtx::stays_in_front`]).
    pub(super) stays: f32,
    pub(super) c0: Vec3,
    pub(super) c1: Vec3,
    pub(super) mover: Mover<'a>,
    /// Box2D's probe for a body touching at the start: a small ball about the centre.
    pub(super) probe: Mover<'a>,
    pub(super) probe_radius: f32,
    pub(super) slop: f32,
    pub(super) margin: f32,
    pub(super) extent: f32,
    /// `Settings::simplex_cache`.
    pub(super) simplex_cache: bool,
    /// `Settings::closed_form_distance`.
    pub(super) closed_form: bool,
}

impl SweepCtx<'_> {
    /// The time-of-impact configuration for the swept shape (inner radius `extent`: the
    /// body's, or the probe's) against `target`, searching `[0, t_max]`, with the world's
    /// simplex-cache and closed-form settings.
    pub(super) fn toi_config(&self, extent: f32, target: &Target, t_max: f32) -> ToiConfig {
        ToiConfig { t_max, ..ToiConfig::new(self.slop, extent, target.shape.min_extent()) }
            .with_simplex_cache(self.simplex_cache)
            .with_closed_form(self.closed_form)
    }

    /// Whether the centre's straight path over the step, `c0` to `c1`, passes through the
    /// triangle `tri` (world corners).
    pub(super) fn centre_crosses(&self, tri: &[Vec3; 3]) -> bool {
        let [a, b, c] = *tri;
        let n = (b - a).cross(c - a);
        let (s0, s1) = (n.dot(self.c0 - a), n.dot(self.c1 - a));
        if s0 == s1 || s0 * s1 > 0.0 {
            return false;
        }
        let q = self.c0 + (self.c1 - self.c0) * (s0 / (s0 - s1));
        [(a, b), (b, c), (c, a)].iter().all(|(e0, e1)| (*e1 - *e0).cross(q - *e0).dot(n) >= 0.0)
    }

    /// Whether the swept shape stays more than the slop to one side of the plane through
    /// `a` with unit normal `n` (a triangle's) all along the sweep: its extent along the plane's
    /// normal at either end, widened by the arc's sagitta. Then it never comes within a
    /// time-of-impact query's target of the triangle (at most half the slop, with a quarter
    /// of tolerance), and the query is skipped: a toppling tree's trunk high above the
    /// terrain, a log rolling along it.
    pub(super) fn clear_of_plane(&self, n: Vec3, a: Vec3) -> bool {
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for x in [&self.at0, &self.at1] {
            let m = x.rot.conjugate() * n;
            let centre = n.dot(x.pos - a);
            lo = lo.min(centre - self.mover.proxy.reach(-m));
            hi = hi.max(centre + self.mover.proxy.reach(m));
        }
        lo - self.sag > self.slop || hi + self.sag < -self.slop
    }

    /// Whether the swept shape's centre ends the step more than half its inner radius in
    /// front of the plane through `a` with unit normal `n` (a triangle's; its front the side
    /// the centre starts on), having come nearer it by less than that (Box3D's rule for a
    /// mesh's triangles), and the shape itself ends no more than that past the plane (a
    /// stick standing through a fence's plane and sliding along it past the fence's end
    /// cuts the fence edge-on, its centre never nearer): then the step cannot have carried
    /// it through the triangle, and the solver holds what it may have sunk in. A body
    /// resting or sliding on a terrain is so never swept against the triangles under it.
    pub(super) fn stays_in_front(&self, n: Vec3, a: Vec3) -> bool {
        let (s0, s1) = (n.dot(self.c0 - a), n.dot(self.c1 - a));
        let (n, s0, s1) = if s0 >= 0.0 { (n, s0, s1) } else { (-n, -s0, -s1) };
        if !(s1 > self.stays && s0 - s1 < self.stays) {
            return false;
        }
        let near = n.dot(self.at1.pos - a) - self.mover.proxy.reach(self.at1.rot.conjugate() * -n);
        near > -self.stays
    }

    /// Tests the sweep against `other` (the target body, or one triangle of a target mesh):
    /// updates `best` with an earlier impact; `true` when the body is to be held at its
    /// start pose (no later candidate matters). `start_contact`: the target's contact with
    /// the body at its start pose, computed once per target when first needed.
    pub(super) fn test(
        &self,
        target: &Target,
        other: &Mover,
        log: &mut Log,
        narrow: &mut Scratch,
        start_contact: &mut Option<Manifold>,
        best: &mut Option<Best>,
    ) -> bool {
        let (i, j) = (self.i, target.j);
        let t_max = best.map_or(1.0, |b| b.0);
        let cfg = self.toi_config(self.extent, target, t_max);
        let (mut toi, mut q) = record_toi(log, i, j, other, &self.mover, &cfg, false);
        if toi.state == ToiState::Initial {
            // Touching at the start. If the step carried its centre past the contact
            // plane (a method that let it on into the other body), it stays where it
            // was; otherwise (resting, sliding) Box2D's probe.
            let m = start_contact.get_or_insert_with(|| {
                let ccfg = CollideConfig { margin: self.margin, slop: self.slop, motion: None };
                let mut m = Manifold::default();
                collide(
                    target.shape,
                    target.pose,
                    self.shape,
                    &self.at0,
                    &ccfg,
                    &mut SatCache::default(),
                    narrow,
                    &mut m,
                );
                m
            });
            // Already deeper in than the slop at the start: the contact is the solver's
            // (moving the body back to a time it was just as deep gains nothing, and
            // Box2D never holds a body at t = 0). A tumbling needle with a tip in the
            // ground was put back every step and spun up (found by the fuzzer).
            if m.max_depth() > self.slop {
                return false;
            }
            if let Some(c) = m.points.first() {
                if m.normal.dot(self.c1 - c.position) < 0.0 {
                    *best = Some((0.0, j, q, cfg.target, m.normal));
                    return true;
                }
            }
            let cfg = self.toi_config(self.probe_radius, target, t_max);
            (toi, q) = record_toi(log, i, j, other, &self.probe, &cfg, true);
        }
        let hit = matches!(toi.state, ToiState::Hit | ToiState::MaxIterations);
        // Only a body whose centre ended past the plane it met the other body in (or
        // within a quarter of its inner radius of it: half inside a wall of no thickness,
        // its centre on the plane) has passed into or through it; one that ended on its
        // side of that plane (a landing, a bounce) was met by the solver and stays where
        // the step left it.
        let passed = toi.normal.dot(self.c1 - toi.point) < 0.25 * self.extent;
        if hit && toi.t > 0.0 && toi.t < t_max && passed {
            *best = Some((toi.t, j, q, cfg.target, toi.normal));
        }
        false
    }
}

/// Runs one conservative-advancement query of `body` (mover `b`) against `other` (mover
/// `a`, so the normal points from the other body to the swept one) and logs it in `rec`;
/// returns the result and the query's index.
#[allow(clippy::too_many_arguments)]
pub(super) fn record_toi(
    rec: &mut Log,
    body: u32,
    other: u32,
    a: &Mover,
    b: &Mover,
    cfg: &ToiConfig,
    probe: bool,
) -> (Toi, u32) {
    let start = rec.iterations.len() as u32;
    let toi = time_of_impact(a, b, cfg, Some(&mut rec.iterations));
    let end = rec.iterations.len() as u32;
    rec.queries.push(ToiQuery {
        body,
        other,
        method: ToiMethod::Advancement,
        probe,
        round: 0,
        result: toi,
        iterations: start..end,
    });
    (toi, rec.queries.len() as u32 - 1)
}
