//! Colours of the solver-graph overlay (`Overlay::Graph`): one per graph colour of the
//! constraint colouring (`physics::solver::colouring`), and one per island.
//!
//! Hues step by the golden angle, so neighbouring indices (colours 0 and 1, which hold most
//! of a pile's manifolds) are far apart on the wheel; the colour left for manifolds without
//! one is black. Limits: 24 hues cannot all be told apart at a glance — the panel's Stats
//! list the count per colour.

use crate::physics::solver::colouring::COLOURS;

/// The dot colour of graph colour `k` (black for [`COLOURS`], no colour).
pub fn colour_of(k: u8) -> [f32; 3] {
    if k as usize >= COLOURS {
        return [0.0, 0.0, 0.0];
    }
    // Alternate brightness too, so colours of near hues still differ.
    let value = if k % 2 == 0 { 0.95 } else { 0.7 };
    hsv(k as f32 * 0.381_966, 0.85, value)
}

/// The body colour of the island whose lowest body index is `root`: lighter and less
/// saturated than the dots, so the dots stand out on the bodies.
pub fn island_colour(root: u32) -> [f32; 3] {
    hsv((root as f32 * 0.618_034 + 0.1).fract(), 0.35, 0.9)
}

/// HSV (hue in turns) to linear RGB.
fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let h = h.fract() * 6.0;
    let f = h.fract();
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - s * f), v * (1.0 - s * (1.0 - f)));
    match h as u32 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first colours (which hold most manifolds) differ clearly from each other.
    #[test]
    fn the_first_colours_differ() {
        for a in 0..6u8 {
            for b in a + 1..6 {
                let (x, y) = (colour_of(a), colour_of(b));
                let d: f32 = x.iter().zip(&y).map(|(p, q)| (p - q).abs()).sum();
                assert!(d > 0.3, "colours {a} and {b}: {x:?} {y:?}");
            }
        }
        assert_eq!(colour_of(COLOURS as u8), [0.0; 3]);
    }
}
