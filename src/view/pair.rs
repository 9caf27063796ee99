//! Debug records of one selected pair, gathered once per frame while a pair is selected,
//! never inside the step.
//!
//! Two sources, kept apart and labelled in the inspector:
//! - **What the step did**: the world's record of the watched pair
//!   ([`crate::physics::world::PairRecord`]) — the narrow-phase path, the SAT result and the
//!   clip it ran, the manifold the solver used and each point's impulses. The contact table,
//!   the clip overlay and the contact labels read this.
//! - **A fresh recomputation** at the current poses with an empty SAT cache: the full SAT
//!   record with every query (the SAT table, the Gauss maps, the Minkowski difference). When
//!   its manifold differs from the step's (a recycled manifold, a cached axis, bodies that
//!   moved in the step), both are shown so a student sees why.
//!
//! A pair with a compound body shows its SAT records for the child pair behind the pair's
//! manifold (the step's, else the fresh one's), each child at its pose in the world; while no
//! child pair touches, none.

use crate::physics::collide::clip::ClipRecord;
use crate::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use crate::physics::compound::{child, part_children};
use crate::physics::debug::{minkowski_difference, sat_record, GaussMap, MinkowskiRecord, SatRecord};
use crate::physics::world::PairRecord;
use crate::physics::World;

/// Everything the inspector and the debug views show for a pair.
#[derive(Clone, Debug)]
pub struct PairDebug {
    /// Body A index (the lower index, as in the world's contacts).
    pub a: usize,
    /// Body B index.
    pub b: usize,
    /// What the last step did for the pair, when the world has stepped since it was
    /// watched.
    pub record: Option<PairRecord>,
    /// Full SAT record at the current poses (hull pairs only).
    pub sat: Option<SatRecord>,
    /// The manifold the last step's solver used (from `record`), or the fresh one before
    /// any step.
    pub manifold: Manifold,
    /// The manifold recomputed at the current poses with an empty SAT cache.
    pub fresh: Manifold,
    /// The clip to draw (a face contact's, or an edge contact's along its axis): the step's
    /// (`record`) when its contact came from one, else the fresh recomputation's.
    pub clip: Option<ClipRecord>,
    /// Step whose clip `clip` is (0: the fresh recomputation at the current poses).
    pub clip_step: u64,
    /// Gauss map of A (hull pairs only).
    pub gauss_a: Option<GaussMap>,
    /// Gauss map of −B (hull pairs only).
    pub gauss_b: Option<GaussMap>,
    /// Minkowski difference A − B (hull pairs only).
    pub minkowski: Option<MinkowskiRecord>,
    /// Impulses the solver applied at `manifold`'s points in the last step (same order).
    pub impulses: Vec<(f32, [f32; 2])>,
    /// The rolling-resistance impulse of the last step's last substep (N·m·s, on B), when
    /// the pair has rolling resistance.
    pub rolling: Option<glam::Vec3>,
}

impl PairDebug {
    /// Gathers the records of bodies `i` and `j`: the world's record of the last step (if
    /// the pair is watched and has been stepped) and a recomputation at the current poses.
    pub fn gather(world: &World, i: usize, j: usize) -> PairDebug {
        let (a, b) = (i.min(j), i.max(j));
        let (ba, bb) = (&world.bodies()[a], &world.bodies()[b]);
        let cfg = CollideConfig { margin: world.settings.margin, slop: world.settings.slop, motion: None };
        let mut fresh = Manifold::default();
        collide(
            &ba.shape,
            &ba.pose,
            &bb.shape,
            &bb.pose,
            &cfg,
            &mut SatCache::Empty,
            &mut Scratch::default(),
            &mut fresh,
        );
        let record = world.pair_record(a as u32, b as u32).filter(|r| r.step > 0).cloned();
        // A pair with a compound: the child pair behind the pair's manifold (the step's, else
        // the fresh one's), each child at its pose in the world; none while no child pair
        // touches.
        let children = if ba.shape.compound().is_some() || bb.shape.compound().is_some() {
            let touching = record.as_ref().map(|r| &r.manifold).filter(|m| !m.points.is_empty());
            touching.or(Some(&fresh).filter(|m| !m.points.is_empty())).map(|m| part_children(&bb.shape, m.part))
        } else {
            Some((0, 0))
        };
        let (mut sat, mut gauss_a, mut gauss_b, mut minkowski) = (None, None, None, None);
        if let Some((ia, ib)) = children {
            let ((sa, pa), (sb, pb)) = (child(&ba.shape, ia), child(&bb.shape, ib));
            let (xa, xb) = (ba.pose.mul(&pa), bb.pose.mul(&pb));
            if let (Some(ha), Some(hb)) = (sa.hull(), sb.hull()) {
                sat = Some(sat_record(ha, &xa, hb, &xb, &cfg));
                gauss_a = Some(GaussMap::of(ha, &xa));
                gauss_b = Some(GaussMap::of(hb, &xb).negated());
                if ha.vertices().len() * hb.vertices().len() <= 20_000 {
                    minkowski = minkowski_difference(ha, &xa, hb, &xb);
                }
            }
        }
        let (manifold, impulses) = match &record {
            Some(r) => {
                let n = r.manifold.points.len();
                (r.manifold.clone(), r.impulses[..n].iter().map(|p| (p.normal, p.tangent)).collect())
            }
            None => (fresh.clone(), Vec::new()),
        };
        // The step's clip belongs to its manifold only while that manifold is a contact of
        // two hulls of the clip's kind (a face clip for a face contact, an edge clip for an
        // edge contact), built by that clip or recycled from it since; else the fresh one's.
        let edge = manifold.kind == crate::physics::ContactKind::Edge;
        let clipped = sat.is_some() && !manifold.points.is_empty();
        let (clip, clip_step) = match record
            .as_ref()
            .filter(|r| clipped && r.clip_step > 0 && r.collide.clip.edge_axis.is_some() == edge)
        {
            Some(r) => (Some(r.collide.clip.clone()), r.clip_step),
            None => (sat.as_ref().and_then(|s| s.clip.clone()), 0),
        };
        let rolling = (ba.rolling_resistance.max(bb.rolling_resistance) > 0.0)
            .then(|| record.as_ref().map_or(glam::Vec3::ZERO, |r| r.rolling_impulse));
        PairDebug {
            a,
            b,
            record,
            sat,
            manifold,
            fresh,
            clip,
            clip_step,
            gauss_a,
            gauss_b,
            minkowski,
            impulses,
            rolling,
        }
    }

    /// Whether the fresh recomputation gives another contact than the step's, by geometry:
    /// another normal, another number of points, or a step point with no fresh point within
    /// `tolerance` (m) in position and depth. Feature IDs are not compared: a resting pair's
    /// fresh clip may choose the other face of a tie, which is not motion.
    pub fn fresh_differs(&self, tolerance: f32) -> bool {
        let (s, f) = (&self.manifold, &self.fresh);
        if s.points.len() != f.points.len() {
            return true;
        }
        if s.points.is_empty() {
            return false;
        }
        // By geometry, not by feature: a resting pair's fresh clip may pick the other face of
        // a tie or name a corner by another edge, and that is not motion.
        if s.normal.dot(f.normal) < 1.0 - 1e-4 {
            return true;
        }
        s.points.iter().any(|p| {
            !f.points
                .iter()
                .any(|q| q.position.distance(p.position) <= tolerance && (q.depth - p.depth).abs() <= tolerance)
        })
    }
}
