//! What continuous collision did in the last step, as plain data ([`ContinuousRecord`],
//! [`crate::physics::World::continuous`]): the window draws the poses of each body that had
//! a time of impact (at the step's start, at the impact, and where it would have ended) and
//! the inspector lists a pair's time-of-impact iterations (the gap at each time tested).
//!
//! The record is rebuilt every step into kept buffers: a step without fast bodies (or with
//! continuous collision off) leaves it empty and allocates nothing.

use crate::physics::collide::toi::{Toi, ToiIteration};
use crate::physics::math::{Aabb, Iso};
use crate::physics::solver::ContinuousMode;
use std::ops::Range;

/// How a time of impact was searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum ToiMethod {
    /// Conservative advancement (the fast continuous step).
    #[default]
    Advancement,
    /// The seed's bisection at test times (earliest-collision mode).
    Bisection,
}

impl ToiMethod {
    /// Lower-case name (traces, the inspector).
    pub fn as_str(self) -> &'static str {
        match self {
            ToiMethod::Advancement => "advancement",
            ToiMethod::Bisection => "bisection",
        }
    }
}

/// One time-of-impact query made during the step.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ToiQuery {
    /// The moving body (fast mode: the swept body; earliest mode: the lower index).
    pub body: u32,
    /// The body it was tested against.
    pub other: u32,
    /// How the time was searched.
    pub method: ToiMethod,
    /// Fast mode: the query used the fallback probe (a small ball about the body's centre,
    /// Box2D's answer to a body already touching at the step's start).
    pub probe: bool,
    /// Earliest mode: the sub-event (0, 1, …) whose search made the query.
    pub round: u32,
    /// The result (times are fractions of the searched interval: the step in fast mode,
    /// the rest of the step in earliest mode).
    pub result: Toi,
    /// The query's iterations in [`ContinuousRecord::iterations`].
    pub iterations: Range<u32>,
}

/// A body that had a time of impact this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ToiEvent {
    /// The body.
    pub body: u32,
    /// The body it hit.
    pub other: u32,
    /// Time of impact as a fraction of the step (0–1).
    pub fraction: f32,
    /// Pose (centre of mass) at the step's start.
    pub start: Iso,
    /// Pose at the time of impact.
    pub impact: Iso,
    /// Fast mode: the pose the body would have ended the step at (it stays at `impact`);
    /// earliest mode: the pose it did end the step at.
    pub end: Iso,
    /// The bounds of the body's sweep over the step (its centre's path grown by its
    /// bounding radius).
    pub swept: Aabb,
    /// Fast mode: the body is a bullet.
    pub bullet: bool,
    /// The query that found the time ([`ContinuousRecord::queries`]).
    pub query: u32,
}

/// One cut of an earliest-collision step: the world was wound to `time` and these pairs
/// collided there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SubEvent {
    /// Seconds after the step's start.
    pub time: f32,
    /// The pairs resolved at that time, in [`ContinuousRecord::pairs`].
    pub pairs: Range<u32>,
}

/// What continuous collision did during the last step (module docs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ContinuousRecord {
    /// The step this record describes.
    pub step: u64,
    /// The mode the step ran.
    pub mode: ContinuousMode,
    /// Fast mode: bodies that moved far enough to be swept; earliest mode: pairs whose
    /// bounding spheres met during a search.
    pub candidates: u32,
    /// Bodies that had a time of impact.
    pub events: Vec<ToiEvent>,
    /// Every time-of-impact query.
    pub queries: Vec<ToiQuery>,
    /// The queries' iterations, back to back.
    pub iterations: Vec<ToiIteration>,
    /// Earliest mode: the cuts of the step, in time order.
    pub sub_events: Vec<SubEvent>,
    /// Earliest mode: the pairs of the cuts, back to back.
    pub pairs: Vec<(u32, u32)>,
    /// Earliest mode: the step reached `max_sub_events` with a collision still ahead; the
    /// rest of the step ran uncut.
    pub cap_hit: bool,
}

impl ContinuousRecord {
    /// Empties the record for step `step` (keeping its buffers).
    pub(crate) fn begin(&mut self, step: u64, mode: ContinuousMode) {
        self.step = step;
        self.mode = mode;
        self.candidates = 0;
        self.events.clear();
        self.queries.clear();
        self.iterations.clear();
        self.sub_events.clear();
        self.pairs.clear();
        self.cap_hit = false;
    }

    /// The iterations of query `q` (time tested, gap there).
    pub fn iterations_of(&self, q: &ToiQuery) -> &[ToiIteration] {
        &self.iterations[q.iterations.start as usize..q.iterations.end as usize]
    }

    /// The queries of bodies `a` and `b` (either order), in the order they were made.
    pub fn queries_of(&self, a: u32, b: u32) -> impl Iterator<Item = &ToiQuery> {
        self.queries.iter().filter(move |q| (q.body, q.other) == (a, b) || (q.body, q.other) == (b, a))
    }

    /// The event of body `body`, if it had one (the first, in earliest mode).
    pub fn event_of(&self, body: u32) -> Option<&ToiEvent> {
        self.events.iter().find(|e| e.body == body)
    }

    /// The pairs of a sub-event.
    pub fn pairs_of(&self, e: &SubEvent) -> &[(u32, u32)] {
        &self.pairs[e.pairs.start as usize..e.pairs.end as usize]
    }

    /// Whether nothing happened (no candidate, no event).
    pub fn is_empty(&self) -> bool {
        self.events.is_empty() && self.queries.is_empty() && self.sub_events.is_empty() && !self.cap_hit
    }
}
