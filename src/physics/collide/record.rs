//! What the narrow phase did for one pair, recorded as it happened (for watched pairs
//! only, `crate::physics::world::PairRecord`): which path decided the pair, the SAT result
//! it computed and the face clip it ran. Nothing here is recomputed afterwards.
//!
//! The paths, cheapest first (each one line, as the inspector shows them):
//! - [`PairPath::NotCandidate`]: the broad phase did not pair the bodies (their swept boxes
//!   do not overlap), so the narrow phase never saw them.
//! - [`PairPath::PathsMiss`]: the swept boxes overlap, but the bounding spheres' straight
//!   paths over the step miss each other by more than the margin (`Settings::path_test`):
//!   the broad phase dropped the pair, and no speculative ghost contact brakes it.
//! - [`PairPath::Asleep`]: both bodies asleep (or asleep and static): the manifold is kept.
//! - [`PairPath::StillApart`]: found apart earlier, and the gap then minus how far the pair
//!   can have closed since still exceeds the margin ([`crate::physics::contact::Apart`]).
//! - [`PairPath::SphereSkip`]: bounding spheres apart by more than the margin: no SAT.
//! - [`PairPath::Recycled`]: the pair moved less than the recycling distance since its
//!   manifold was computed: same normal, points and lever arms, depths measured again
//!   ([`crate::physics::contact::Recycle`], Box3D).
//! - [`PairPath::CachedAxisSeparates`]: last step's separating axis still separates.
//! - [`PairPath::CachedFeature`]: last step's face (or edge pair) was used again: its
//!   separation changed by less than half the slop, so no SAT ran.
//! - [`PairPath::FullSat`]: the full separating-axis test ran and chose the axis.
//! - [`PairPath::Closed`]: curved shapes (sphere, capsule) take closed-form closest points;
//!   no SAT.

use super::clip::ClipRecord;
use super::sat::{Axis, SatCache, SatResult};

/// Which path decided a pair in the narrow phase (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PairPath {
    /// Not a candidate pair of the broad phase.
    #[default]
    NotCandidate,
    /// The boxes overlap but the bounding spheres' paths miss: dropped by the broad phase.
    PathsMiss,
    /// Both bodies asleep (or asleep + static): manifold kept as it was.
    Asleep,
    /// Still apart by the earlier gap: not opened.
    StillApart,
    /// Bounding spheres apart by more than the margin.
    SphereSkip,
    /// Manifold recycled (depths re-measured).
    Recycled,
    /// The cached separating axis still separates.
    CachedAxisSeparates,
    /// The cached face or edge pair was reused without a SAT.
    CachedFeature,
    /// Full separating-axis test.
    FullSat,
    /// Curved shapes: closed-form closest points.
    Closed,
}

impl PairPath {
    /// Every path, in the order of the module docs.
    pub const ALL: [PairPath; 10] = [
        PairPath::NotCandidate,
        PairPath::PathsMiss,
        PairPath::Asleep,
        PairPath::StillApart,
        PairPath::SphereSkip,
        PairPath::Recycled,
        PairPath::CachedAxisSeparates,
        PairPath::CachedFeature,
        PairPath::FullSat,
        PairPath::Closed,
    ];

    /// Trace spelling (snake case).
    pub fn as_str(self) -> &'static str {
        match self {
            PairPath::NotCandidate => "not_candidate",
            PairPath::PathsMiss => "paths_miss",
            PairPath::Asleep => "asleep",
            PairPath::StillApart => "still_apart",
            PairPath::SphereSkip => "sphere_skip",
            PairPath::Recycled => "recycled",
            PairPath::CachedAxisSeparates => "cached_axis_separates",
            PairPath::CachedFeature => "cached_feature",
            PairPath::FullSat => "full_sat",
            PairPath::Closed => "closed_form",
        }
    }

    /// One line for the inspector: what happened and why.
    pub fn explain(self) -> &'static str {
        match self {
            PairPath::NotCandidate => "broad phase: the swept boxes do not overlap, so the pair was not tested",
            PairPath::PathsMiss => {
                "broad phase: the swept boxes overlap, but on their straight paths over the step the bounding spheres miss by more than the margin, so the pair was not tested (no ghost contact)"
            }
            PairPath::Asleep => "both bodies asleep: the manifold was kept as it was",
            PairPath::StillApart => "still apart: the gap found earlier exceeds how far the pair can have closed since",
            PairPath::SphereSkip => "bounding spheres apart by more than the margin: no SAT",
            PairPath::Recycled => {
                "recycled: moved less than the recycling distance, so normal, points and lever arms were kept and only the depths re-measured"
            }
            PairPath::CachedAxisSeparates => "cached axis: last step's separating axis still separates, no SAT",
            PairPath::CachedFeature => {
                "cached feature: last step's face or edge pair moved by less than half the slop, so it was clipped again without a SAT"
            }
            PairPath::FullSat => "full SAT: every face and the Gauss-map-pruned edge pairs were tested",
            PairPath::Closed => "curved shape: closest points in closed form, no SAT",
        }
    }
}

/// The narrow phase's own record of one pair's collision call (hull pairs fill every field;
/// curved pairs only the path).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CollideRecord {
    /// The path taken inside the collision call (a world-level skip is set by the world).
    pub path: PairPath,
    /// The SAT cache as the call found it.
    pub cache_before: SatCache,
    /// The SAT the call ran ([`PairPath::FullSat`] only): the culled test's best queries.
    pub sat: Option<SatResult>,
    /// The axis chosen from `sat` by the face/edge preference; the edge pair instead where
    /// the face's clipped points missed its separation and the contact was built on the edge.
    pub axis: Option<Axis>,
    /// The clip of the last call that clipped, a face contact's or an edge contact's
    /// (buffers reused from call to call).
    pub clip: ClipRecord,
    /// Whether `clip` was filled by this call (false: it is from an earlier step, or the
    /// contact was an edge pair's single point or a curved shape).
    pub clipped: bool,
}

impl CollideRecord {
    /// Clears the per-call fields, keeping the clip buffers.
    pub fn begin(&mut self, cache: SatCache) {
        self.path = PairPath::FullSat;
        self.cache_before = cache;
        self.sat = None;
        self.axis = None;
        self.clipped = false;
    }
}
