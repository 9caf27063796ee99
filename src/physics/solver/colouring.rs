//! Greedy graph colouring of the contact constraints (Box2D v3's constraint graph): the
//! order in which the sequential-impulse solvers visit the manifolds.
//!
//! Each manifold takes the first of [`COLOURS`] colours in which neither of its *dynamic*
//! bodies is used yet; static bodies may be shared (they are never written). Manifolds of
//! one colour therefore share no dynamic body: the SIMD solver ([`super::wide`]) puts four
//! of them in the lanes of one batch, and solving them one after another (the scalar path,
//! [`super::iterative`]) is the same Gauss–Seidel sweep. Within a colour the manifolds are
//! sorted by point count (stable), so batches hold manifolds of equal size. Manifolds that
//! find no colour (a body touching more than about [`COLOURS`] others) come last.
//!
//! Limits: greedy, in pair order — not the fewest colours; bodies per colour are tracked
//! in a bitset, so the cost is one word test per colour tried.

use super::{ContactConstraint, SolverBody};

/// Colours tried before a manifold is left uncoloured (Box2D v3 uses 24 too).
pub const COLOURS: usize = 24;

/// The colouring of one step's constraints; buffers reused between steps.
#[derive(Clone, Debug, Default)]
pub struct Colouring {
    /// Per colour, a bitset over bodies that colour already uses.
    used: Vec<u64>,
    colour: Vec<u8>,
    /// Constraint indices, colour by colour (sorted by point count within a colour), the
    /// uncoloured last.
    order: Vec<u32>,
    /// Scratch of the sort by point count.
    sorted: Vec<u32>,
    /// Manifolds per colour after the last colouring (uncoloured last), for statistics and
    /// tests.
    pub counts: [u32; COLOURS + 1],
}

/// Body `i`'s word and bit in a colour's bitset when it `moves`; `None` for a body the
/// solver never writes (static, sleeping, the world), which every colour may share.
pub(crate) fn body_bit(i: u32, moves: bool) -> Option<(usize, u64)> {
    moves.then(|| (i as usize / 64, 1u64 << (i % 64)))
}

/// The greedy step of both colourings (the contacts here, the joints in
/// `joint/colours.rs`): the first of [`COLOURS`] colours whose body set (`used`: `COLOURS`
/// bitsets of `words` words) holds neither `a` nor `b`, which then takes them; [`COLOURS`]
/// when none is free.
pub(crate) fn first_free(used: &mut [u64], words: usize, a: Option<(usize, u64)>, b: Option<(usize, u64)>) -> usize {
    let free = |set: &[u64], x: Option<(usize, u64)>| x.is_none_or(|(w, m)| set[w] & m == 0);
    for k in 0..COLOURS {
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

impl Colouring {
    /// Colours `constraints` (bodies with inverse mass 0 are shared freely) and orders them.
    pub fn colour(&mut self, constraints: &[ContactConstraint], bodies: &[SolverBody]) {
        let words = bodies.len().div_ceil(64);
        self.used.clear();
        self.used.resize(words * COLOURS, 0);
        self.colour.clear();
        self.counts = [0; COLOURS + 1];
        for c in constraints {
            let bit = |i: u32| body_bit(i, bodies[i as usize].inv_mass > 0.0);
            let chosen = first_free(&mut self.used, words, bit(c.a), bit(c.b));
            self.colour.push(chosen as u8);
            self.counts[chosen] += 1;
        }
        // Counting sort of the constraint indices by colour (stable).
        let mut start = [0u32; COLOURS + 2];
        for k in 0..=COLOURS {
            start[k + 1] = start[k] + self.counts[k];
        }
        self.order.clear();
        self.order.resize(constraints.len(), 0);
        for (i, &k) in self.colour.iter().enumerate() {
            self.order[start[k as usize] as usize] = i as u32;
            start[k as usize] += 1;
        }
        let mut at = 0;
        for k in 0..COLOURS {
            let group = &mut self.order[at..at + self.counts[k] as usize];
            at += group.len();
            // Manifolds of one colour share no dynamic body, so their order is free: sorted
            // by point count, the batches hold manifolds of equal size and skip empty slots.
            // (A stable counting sort on four sizes: ties keep pair order.)
            let size = |ci: u32| 4 - (constraints[ci as usize].count.clamp(1, 4) as usize);
            let mut first = [0usize; 5];
            for &ci in group.iter() {
                first[size(ci) + 1] += 1;
            }
            for s in 0..4 {
                first[s + 1] += first[s];
            }
            self.sorted.clear();
            self.sorted.resize(group.len(), 0);
            for &ci in group.iter() {
                let s = size(ci);
                self.sorted[first[s]] = ci;
                first[s] += 1;
            }
            group.copy_from_slice(&self.sorted);
        }
    }

    /// The colour constraint `i` took ([`COLOURS`]: none, solved after the colours).
    pub fn colour_of(&self, i: usize) -> u8 {
        self.colour.get(i).copied().unwrap_or(COLOURS as u8)
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
