//! What the user picked: up to two bodies (two make the pair the contact inspector shows),
//! a joint, the clip stage shown, the side whose records the inspector reads, and the
//! character shown and driven. The selection is the same bodies on every side.

use crate::physics::JointHandle;

/// Which character is shown and whether it is driven.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CharacterView {
    /// The character whose recursion is drawn and listed.
    pub selected: Option<usize>,
    /// The selected character follows the keys (and the camera follows it).
    pub driving: bool,
}

/// The selection (module docs).
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// Selected bodies (at most two).
    pub bodies: Vec<usize>,
    /// The selected joint (clicked near its anchor), shown in the joint inspector.
    pub joint: Option<JointHandle>,
    /// Clip stage shown (None = final).
    pub clip_stage: Option<usize>,
    /// The side the inspector reads (0 = A), in a comparison.
    pub side: usize,
    /// The character shown (its recursion) and driven.
    pub characters: CharacterView,
}

impl Selection {
    /// Selects a body: the first click selects one, the second makes a pair, a third starts
    /// over. Clicking a selected body deselects it; `None` (empty space) clears.
    pub fn click_body(&mut self, i: Option<usize>) {
        match i {
            None => self.bodies.clear(),
            Some(i) if self.bodies.contains(&i) => self.bodies.retain(|&s| s != i),
            Some(i) => {
                if self.bodies.len() >= 2 {
                    self.bodies.clear();
                }
                self.bodies.push(i);
            }
        }
        self.clip_stage = None;
    }

    /// Selects a pair directly.
    pub fn select_pair(&mut self, a: usize, b: usize) {
        self.bodies = vec![a, b];
        self.clip_stage = None;
    }

    /// The selected pair, lower index first, if two bodies are selected.
    pub fn pair(&self) -> Option<(usize, usize)> {
        match self.bodies.as_slice() {
            [a, b] => Some((*a.min(b), *a.max(b))),
            _ => None,
        }
    }
}
