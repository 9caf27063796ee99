//! Greedy graph colouring of the contact constraints (Box2D v3's constraint graph): the
//! order in which the sequential-impulse solvers visit the manifolds.
//!
//! Each manifold takes a colour in which neither of its *dynamic* bodies is used yet; static
//! bodies may be shared (they are never written). Which colour follows Box2D v3's and
//! Box3D's rule: a manifold between two moving bodies takes the lowest free one of the
//! first [`DYNAMIC_COLOURS`], a manifold with a static body the *highest* free one (down to
//! colour 1). The colours are solved in order, so the contacts that hold the bodies up
//! against the world come last in each Gauss–Seidel sweep and keep its last word: a pile
//! settles less deep (docs/BENCHMARKS.md). Every other step the first [`DYNAMIC_COLOURS`]
//! are visited last to first ([`backward_colour`]; `iterative::Pass::backward`), the
//! world's colours still last, so that of two supports under a body neither always goes
//! first (a pyramid solved in one order sways and comes to rest leaning). Manifolds of one
//! colour share no dynamic body: the SIMD solver ([`super::wide`]) puts four of them in the
//! lanes of one batch, and solving them one after another (the scalar path,
//! [`super::iterative`]) is the same Gauss–Seidel sweep. Within a colour the manifolds are
//! sorted by point count and then by which of their points start idle
//! ([`ContactConstraint::idle`]), stably, so batches hold manifolds of equal size whose idle
//! points share slots. Manifolds that find no colour (a body touching more than about
//! [`COLOURS`] others) come last, with the manifolds that have rolling resistance, which
//! take none: the scalar rows model it, and solve the uncoloured in both paths.
//!
//! Each body keeps a mask of the colours it already uses (one bit per colour), so a
//! manifold's colour is the lowest (with a static body, the highest) bit free in both its
//! bodies' masks: one test whatever the number of colours tried. The order (colour by
//! colour; by point count and idle points within a colour) is one stable counting sort on
//! one key.
//!
//! What the greedy step reads of each constraint (its bodies, which of them move, its point
//! count and idle points: 12 bytes) is gathered first, in blocks on the world's threads; the greedy step
//! then reads that list in order on the calling thread instead of half a kilobyte per
//! constraint. When the list is the same as the last colouring's (a world at rest keeps its
//! pairs in the same order, with the same point counts and idle points), the colours and the
//! order are the same too, and are kept: the greedy step and the sort are skipped.
//!
//! Limits: greedy, in pair order — not the fewest colours. The joints' colouring
//! (`joint/colours.rs`) still takes the lowest free colour for every joint: Box3D keeps its
//! static joints at the top too, which changed the joint grid's error by under 1 % when
//! tried (docs/BENCHMARKS.md). A body with more than [`DYNAMIC_COLOURS`] moving neighbours
//! sends the rest of its manifolds between moving bodies to the uncoloured, four colours
//! sooner than without the rule.

use super::{ContactConstraint, SolverBody};
use crate::physics::math::prefetch;
use crate::physics::parallel::{Shared, Workers};
use crate::physics::per_body;

/// Colours tried before a manifold is left uncoloured (Box2D v3 uses 24 too).
pub const COLOURS: usize = 24;

/// The colouring of one step's constraints; buffers reused between steps.
#[derive(Clone, Debug, Default)]
pub struct Colouring {
    /// Per body, the colours it already uses (bit k: colour k); all zero between colourings.
    used: Vec<u32>,
    /// Per constraint, what the greedy step reads of it ([`Ends`]), gathered on the threads
    /// first so that the step reads 12 bytes a constraint in order: the last colouring's.
    ends: Vec<Ends>,
    /// This step's, gathered beside the last ones: when they are the same (a world at rest
    /// keeps its pairs, their point counts and idle points), so are the colours and the
    /// order, and the greedy step and the sort are skipped.
    fresh: Vec<Ends>,
    /// Per constraint, its place in the sort: colour, then point count and idle points
    /// ([`sort_key`]; its colour is the key ÷ [`KEYS_PER_COLOUR`]).
    key: Vec<u16>,
    /// Constraint indices, colour by colour (sorted by point count and idle points within a
    /// colour), the uncoloured last.
    order: Vec<u32>,
    /// Manifolds per colour after the last colouring (uncoloured last), for statistics and
    /// tests.
    pub counts: [u32; COLOURS + 1],
}

impl Colouring {
    /// Manifolds in the colours moving pairs may take (the first [`DYNAMIC_COLOURS`]): the
    /// head of [`Colouring::order`] that a backward pass visits last to first.
    pub fn dynamic_count(&self) -> usize {
        self.counts[..DYNAMIC_COLOURS].iter().map(|&n| n as usize).sum()
    }
}

/// What the colouring reads of one constraint: its bodies, which of them move (bit 0: A,
/// bit 1: B; bit 2: it has rolling resistance, [`ROLLS`]), its point count and its idle
/// points ([`ContactConstraint::idle`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Ends {
    a: u32,
    b: u32,
    moves: u8,
    count: u8,
    idle: u8,
}

/// [`Ends::moves`]'s bit for a manifold with rolling resistance
/// ([`ContactConstraint::rolling`]): it takes no colour, so the scalar rows that model it
/// solve it in both paths (the SIMD lanes have no rolling rows). So they are solved one
/// after another on the calling thread: a scene of many bodies with rolling resistance
/// (every tree manifold of Box3D's trees) gets neither lanes nor threads for them.
const ROLLS: u8 = 4;

/// Fewest constraints a worker thread gathers at once: fewer are gathered on the calling
/// thread.
const MIN_GATHER: usize = 1024;

/// Body `i`'s word and bit in a colour's bitset when it `moves`; `None` for a body the
/// solver never writes (static, sleeping, the world), which every colour may share.
pub(crate) fn body_bit(i: u32, moves: bool) -> Option<(usize, u64)> {
    moves.then(|| (i as usize / 64, 1u64 << (i % 64)))
}

/// The greedy step as the textbook states it, colour by colour (the joints' colouring in
/// `joint/colours.rs`, which is kept between steps and tries `0..COLOURS`, and the
/// contacts' test reference, which tries the contacts' order, `contact_colours`): the
/// first colour of `order` whose body set (`used`: `COLOURS` bitsets of `words` words)
/// holds neither `a` nor `b`, which then takes them; [`COLOURS`] when none is free. The
/// contacts, coloured again whenever their pairs, point counts or idle points change, keep
/// a colour mask per body instead ([`Colouring::colour`]) and get the same colours.
pub(crate) fn first_free(
    used: &mut [u64],
    words: usize,
    a: Option<(usize, u64)>,
    b: Option<(usize, u64)>,
    order: impl IntoIterator<Item = usize>,
) -> usize {
    let free = |set: &[u64], x: Option<(usize, u64)>| x.is_none_or(|(w, m)| set[w] & m == 0);
    for k in order {
        let set = &mut used[k * words..(k + 1) * words];
        if free(set, a) && free(set, b) {
            for (w, m) in [a, b].into_iter().flatten() {
                set[w] |= m;
            }
            return k;
        }
    }
    COLOURS
}

/// Colours a manifold between two moving bodies may take: the first [`DYNAMIC_COLOURS`];
/// the last ones are kept for manifolds with a static body (Box2D v3's and Box3D's rule).
pub const DYNAMIC_COLOURS: usize = COLOURS - 4;

/// The `k`-th colour a backward pass visits ([`super::iterative::Pass::backward`]): the
/// colours moving pairs may take last to first, then the ones kept for the world in their
/// usual order, so the contacts that hold the bodies up keep the last word either way.
pub fn backward_colour(k: usize) -> usize {
    if k < DYNAMIC_COLOURS {
        DYNAMIC_COLOURS - 1 - k
    } else {
        k
    }
}

/// The colours a contact manifold tries, in the order it tries them ([`choose`] in words):
/// `0, 1, …` up to [`DYNAMIC_COLOURS`] between two moving bodies, `COLOURS − 1` down to 1
/// with one static body.
#[cfg(test)]
pub(crate) fn contact_colours(both_move: bool) -> Box<dyn Iterator<Item = usize>> {
    if both_move {
        Box::new(0..DYNAMIC_COLOURS)
    } else {
        Box::new((1..COLOURS).rev())
    }
}

/// The colour a manifold takes among the colours `free` to both its moving bodies (bit k:
/// colour k): between two moving bodies the lowest of the first [`DYNAMIC_COLOURS`]; with
/// one static body the highest, down to colour 1, so that the manifolds that hold bodies up
/// against the world are solved after those between bodies in every pass (the last word in
/// a Gauss–Seidel sweep is the one best kept: Box3D's "higher priority"). [`COLOURS`] when
/// none is free.
#[inline]
fn choose(free: u32, both_move: bool) -> usize {
    let allowed: u32 = if both_move { (1 << DYNAMIC_COLOURS) - 1 } else { ((1 << COLOURS) - 1) & !1 };
    match free & allowed {
        0 => COLOURS,
        f if both_move => f.trailing_zeros() as usize,
        f => 31 - f.leading_zeros() as usize,
    }
}

/// Sort keys within a colour: one per point count and set of idle points among them
/// (16 for four points, 8 for three, 4 for two, 2 for one).
pub const KEYS_PER_COLOUR: usize = 30;

/// Sort keys: [`KEYS_PER_COLOUR`] per colour, and one for the uncoloured.
const SORT_KEYS: usize = KEYS_PER_COLOUR * COLOURS + 1;

/// Where a constraint of colour `colour` with `count` points, of which the bits of `idle`
/// start idle, goes in the order: colour by colour (so `colour` is the key ÷
/// [`KEYS_PER_COLOUR`]) and, within one, four points first, and for each count by its idle
/// points. Manifolds of one colour share no dynamic body, so their order is free: sorted
/// this way, the batches hold manifolds of equal size (and skip empty slots) whose idle
/// points lie in the same slots (whose friction rows are then skipped in every lane). The
/// uncoloured keep pair order, last.
fn sort_key(colour: usize, count: u32, idle: u32) -> usize {
    if colour < COLOURS {
        let count = count.clamp(1, 4) as usize;
        // Where each count's keys start: 4 points 0..16, 3 points 16..24, 2 points 24..28,
        // 1 point 28..30.
        let first = [28, 24, 16, 0][count - 1];
        KEYS_PER_COLOUR * colour + first + (idle as usize & ((1 << count) - 1))
    } else {
        KEYS_PER_COLOUR * COLOURS
    }
}

impl Colouring {
    /// Colours `constraints` (bodies with inverse mass 0 are shared freely) and orders them.
    /// What each constraint's colour needs of it is gathered on `workers` first (a
    /// constraint is over half a kilobyte, and the greedy step, one constraint after
    /// another, would otherwise wait on each); the greedy step runs on the calling thread.
    pub fn colour(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody], workers: &Workers) {
        const _: () = assert!(COLOURS < 32, "a body's colours are the bits of a u32");
        let n = constraints.len();
        self.fresh.resize(n, Ends::default());
        {
            let ends = Shared::new(&mut self.fresh);
            workers.for_blocks(n, MIN_GATHER, |_, r| {
                // SAFETY: each block owns its constraints' entries.
                let out = unsafe { ends.range_mut(r.clone()) };
                for (i, (e, c)) in r.clone().zip(out.iter_mut().zip(&constraints[r])) {
                    // Ask for the line holding the bodies and the count of one a few ahead
                    // (the stride is too long to be guessed).
                    if let Some(ahead) = constraints.get(i + 8) {
                        prefetch(&ahead.a);
                        prefetch(&ahead.count);
                    }
                    let moves = |body: u32| u8::from(bodies[body as usize].inv_mass > 0.0);
                    *e = Ends {
                        a: c.a,
                        b: c.b,
                        moves: moves(c.a) | moves(c.b) << 1 | (u8::from(c.rolling > 0.0) * ROLLS),
                        count: c.count.min(4) as u8,
                        idle: c.idle as u8,
                    };
                }
            });
        }
        // The same greedy input as the last colouring's: the same colours and order.
        if self.fresh == self.ends {
            return;
        }
        std::mem::swap(&mut self.fresh, &mut self.ends);
        // Every mask is zero between colourings (the end of this one clears them); new
        // bodies' masks start at zero too.
        per_body::fit(&mut self.used, bodies.len(), 0);
        self.key.clear();
        self.counts = [0; COLOURS + 1];
        let mut start = [0u32; SORT_KEYS + 1];
        for e in &self.ends {
            let (a, b) = (e.a as usize, e.b as usize);
            let (moves_a, moves_b) = (e.moves & 1 != 0, e.moves & 2 != 0);
            let taken = if moves_a { self.used[a] } else { 0 } | if moves_b { self.used[b] } else { 0 };
            let chosen = if e.moves & ROLLS != 0 { COLOURS } else { choose(!taken, moves_a && moves_b) };
            if chosen < COLOURS {
                if moves_a {
                    self.used[a] |= 1 << chosen;
                }
                if moves_b {
                    self.used[b] |= 1 << chosen;
                }
            }
            let key = sort_key(chosen, u32::from(e.count), u32::from(e.idle));
            self.key.push(key as u16);
            self.counts[chosen] += 1;
            start[key + 1] += 1;
        }
        // The masks back to zero for the next colouring: the manifolds' bodies' only where
        // they are few against the bodies (a level of many static bodies with a few moving
        // ones on it: no step that visits every body), else every mask at once.
        if 4 * self.ends.len() < self.used.len() {
            for e in &self.ends {
                (self.used[e.a as usize], self.used[e.b as usize]) = (0, 0);
            }
        } else {
            self.used.fill(0);
        }
        // Stable counting sort of the constraint indices by colour and, within a colour, by
        // point count and idle points.
        for k in 0..SORT_KEYS {
            start[k + 1] += start[k];
        }
        self.order.clear();
        self.order.resize(constraints.len(), 0);
        for (i, &k) in self.key.iter().enumerate() {
            self.order[start[k as usize] as usize] = i as u32;
            start[k as usize] += 1;
        }
    }

    /// The colour constraint `i` took ([`COLOURS`]: none, solved after the colours).
    pub fn colour_of(&self, i: usize) -> u8 {
        self.key.get(i).map_or(COLOURS as u8, |&k| (k as usize / KEYS_PER_COLOUR) as u8)
    }

    /// The constraints of each colour, in order (empty colours included).
    pub fn groups(&self) -> impl Iterator<Item = &[u32]> {
        let mut at = 0;
        self.counts[..COLOURS].iter().map(move |&n| {
            let g = &self.order[at..at + n as usize];
            at += n as usize;
            g
        })
    }

    /// The constraints left without a colour.
    pub fn uncoloured(&self) -> &[u32] {
        &self.order[self.coloured()..]
    }

    /// Every constraint in colouring order (the uncoloured last).
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// How many constraints took a colour.
    pub fn coloured(&self) -> usize {
        self.order.len() - self.counts[COLOURS] as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::physics::hull::builders::SplitMix64;

    /// The colouring against the textbook greedy rule, run colour by colour over per-colour
    /// body sets ([`first_free`], which the joints use, trying the contacts' colours in
    /// their order: the lowest first between moving bodies, the highest with a static one):
    /// random graphs of 60 bodies (one in five static) and up to 400 manifolds, with a hub
    /// body touching more bodies than there are colours. Every manifold takes the
    /// reference's colour; the order is colour by colour, four points first within a
    /// colour, then by idle points (ties in pair order), the uncoloured last in pair order;
    /// and no two manifolds of one colour share a moving body. One colouring does every
    /// round: every third round has 3,000 bodies, so few manifolds against the bodies (whose
    /// masks it clears one by one), and must find every mask clear after the others.
    #[test]
    fn colours_match_the_greedy_rule_and_the_order_is_sorted() {
        let mut rng = SplitMix64(0xC0105);
        let mut colouring = Colouring::default();
        let mut uncoloured = 0;
        for round in 0..60 {
            let n: usize = if round % 3 == 2 { 3000 } else { 60 };
            let bodies: Vec<SolverBody> = (0..n)
                .map(|i| SolverBody { inv_mass: if i % 5 == 0 { 0.0 } else { 1.0 }, ..Default::default() })
                .collect();
            let m = 40 + round * 6;
            let mut constraints: Vec<ContactConstraint> = Vec::new();
            while constraints.len() < m {
                // Every third manifold touches the hub, body 1.
                let mut pick = || (rng.next_f32() * n as f32) as u32 % n as u32;
                let (a, b) = if constraints.len() % 3 == 0 { (1, pick()) } else { (pick(), pick()) };
                if a != b {
                    let count = 1 + (rng.next_f32() * 4.0) as u32 % 4;
                    let idle = (rng.next_f32() * 16.0) as u32 % (1 << count);
                    constraints.push(ContactConstraint { a, b, count, idle, ..Default::default() });
                }
            }
            colouring.colour(&constraints, &bodies, &Workers::default());
            // The reference: per-colour body sets.
            let words = n.div_ceil(64);
            let mut used = vec![0u64; words * COLOURS];
            let bit = |i: u32| body_bit(i, bodies[i as usize].inv_mass > 0.0);
            let want: Vec<usize> = constraints
                .iter()
                .map(|c| {
                    let (a, b) = (bit(c.a), bit(c.b));
                    first_free(&mut used, words, a, b, contact_colours(a.is_some() && b.is_some()))
                })
                .collect();
            for (i, &k) in want.iter().enumerate() {
                assert_eq!(colouring.colour_of(i) as usize, k, "round {round}, manifold {i}");
            }
            let mut order: Vec<u32> = (0..m as u32).collect();
            // Within a colour: four points first, then by the set of idle points.
            let key = |i: &u32| {
                let (k, c) = (want[*i as usize], &constraints[*i as usize]);
                if k < COLOURS {
                    (k, 4 - c.count.clamp(1, 4), c.idle)
                } else {
                    (k, 0, 0)
                }
            };
            order.sort_by_key(key);
            assert_eq!(colouring.order(), order.as_slice(), "round {round}");
            for group in colouring.groups() {
                let mut seen = std::collections::HashSet::new();
                for &ci in group {
                    let c = &constraints[ci as usize];
                    for body in [c.a, c.b].into_iter().filter(|&x| bodies[x as usize].inv_mass > 0.0) {
                        assert!(seen.insert(body), "round {round}: body {body} twice in a colour");
                    }
                }
            }
            uncoloured += colouring.counts[COLOURS];
        }
        assert!(uncoloured > 20, "{uncoloured} uncoloured manifolds: the hub never ran out of colours");
    }

    /// A colouring kept from the last step (the same bodies, point counts and idle points)
    /// is the one a fresh colouring gives, and one changed input (a point going idle, a body
    /// falling asleep, a manifold gaining a point) is coloured again: random graphs of 40
    /// bodies, each coloured twice, then with one change, against a new [`Colouring`].
    #[test]
    fn a_kept_colouring_is_the_fresh_one_and_a_change_recolours() {
        let mut rng = SplitMix64(0xC0106);
        let mut kept = Colouring::default();
        let check = |kept: &mut Colouring, constraints: &[ContactConstraint], bodies: &[SolverBody], what: &str| {
            kept.colour(constraints, bodies, &Workers::default());
            let mut fresh = Colouring::default();
            fresh.colour(constraints, bodies, &Workers::default());
            assert_eq!(kept.order(), fresh.order(), "{what}: order");
            assert_eq!(kept.counts, fresh.counts, "{what}: counts");
            for i in 0..constraints.len() {
                assert_eq!(kept.colour_of(i), fresh.colour_of(i), "{what}: manifold {i}");
            }
        };
        for round in 0..30 {
            let n = 40;
            let mut bodies: Vec<SolverBody> = (0..n)
                .map(|i| SolverBody { inv_mass: if i % 7 == 0 { 0.0 } else { 1.0 }, ..Default::default() })
                .collect();
            let mut constraints: Vec<ContactConstraint> = Vec::new();
            while constraints.len() < 120 {
                let (a, b) = ((rng.next_f32() * n as f32) as u32 % n, (rng.next_f32() * n as f32) as u32 % n);
                if a != b {
                    let count = 1 + (rng.next_f32() * 4.0) as u32 % 4;
                    let idle = (rng.next_f32() * 16.0) as u32 % (1 << count);
                    constraints.push(ContactConstraint { a, b, count, idle, ..Default::default() });
                }
            }
            check(&mut kept, &constraints, &bodies, &format!("round {round}, first"));
            check(&mut kept, &constraints, &bodies, &format!("round {round}, again"));
            let i = (rng.next_f32() * constraints.len() as f32) as usize % constraints.len();
            match round % 3 {
                0 => constraints[i].idle ^= 1,
                // Its first moving body falls asleep (between two static bodies, where there
                // is none, a point goes idle instead).
                1 => {
                    match [constraints[i].a, constraints[i].b].into_iter().find(|&x| bodies[x as usize].inv_mass > 0.0)
                    {
                        Some(x) => bodies[x as usize].inv_mass = 0.0,
                        None => constraints[i].idle ^= 1,
                    }
                }
                _ => constraints[i].count = constraints[i].count % 4 + 1,
            }
            check(&mut kept, &constraints, &bodies, &format!("round {round}, changed"));
        }
    }
}
