//! Debug records of one selected pair, gathered from the physics module on request (once
//! per frame while a pair is selected, never inside the step).

use crate::physics::collide::{collide, CollideConfig, Manifold, SatCache, Scratch};
use crate::physics::debug::{minkowski_difference, sat_record, GaussMap, MinkowskiRecord, SatRecord};
use crate::physics::World;

/// Everything the inspector and the debug views show for a pair.
#[derive(Clone, Debug)]
pub struct PairDebug {
    /// Body A index (the lower index, as in the world's contacts).
    pub a: usize,
    /// Body B index.
    pub b: usize,
    /// Full SAT record (hull pairs only).
    pub sat: Option<SatRecord>,
    /// Manifold at the current poses.
    pub manifold: Manifold,
    /// Gauss map of A (hull pairs only).
    pub gauss_a: Option<GaussMap>,
    /// Gauss map of −B (hull pairs only).
    pub gauss_b: Option<GaussMap>,
    /// Minkowski difference A − B (hull pairs only).
    pub minkowski: Option<MinkowskiRecord>,
    /// Impulses the solver applied at the pair's points in the last step.
    pub impulses: Vec<(f32, [f32; 2])>,
}

impl PairDebug {
    /// Gathers the records of bodies `i` and `j` at their current poses.
    pub fn gather(world: &World, i: usize, j: usize) -> PairDebug {
        let (a, b) = (i.min(j), i.max(j));
        let (ba, bb) = (&world.bodies()[a], &world.bodies()[b]);
        let cfg = CollideConfig { margin: world.settings.margin, slop: world.settings.slop };
        let mut manifold = Manifold::default();
        collide(
            &ba.shape,
            &ba.pose,
            &bb.shape,
            &bb.pose,
            &cfg,
            &mut SatCache::Empty,
            &mut Scratch::default(),
            &mut manifold,
        );
        let (mut sat, mut gauss_a, mut gauss_b, mut minkowski) = (None, None, None, None);
        if let (Some(ha), Some(hb)) = (ba.shape.hull(), bb.shape.hull()) {
            sat = Some(sat_record(ha, &ba.pose, hb, &bb.pose, &cfg));
            gauss_a = Some(GaussMap::of(ha, &ba.pose));
            gauss_b = Some(GaussMap::of(hb, &bb.pose).negated());
            if ha.vertices().len() * hb.vertices().len() <= 20_000 {
                minkowski = minkowski_difference(ha, &ba.pose, hb, &bb.pose);
            }
        }
        let impulses = match world.contact(a as u32, b as u32) {
            Some(c) => c.impulses[..c.manifold.points.len()].iter().map(|p| (p.normal, p.tangent)).collect(),
            None => Vec::new(),
        };
        PairDebug { a, b, sat, manifold, gauss_a, gauss_b, minkowski, impulses }
    }
}
