//! Colours of the solver-graph overlay (`Overlay::Graph`): one per graph colour of the
//! constraint colouring (`physics::solver::colouring`), and one per island.
//!
//! The graph colours that hold nearly every manifold of a pile — the first seven (contacts
//! between moving bodies, and joints) and the last (a contact with a static body takes the
//! highest colour free, so nearly every contact with the ground is in the last) — are Okabe
//! and Ito's palette for colour-blind readers, with a wine red for the last: they stay apart
//! for a student with any of the three kinds of colour blindness (the test below simulates
//! them). The others step their hues by the golden angle. The colour left for manifolds
//! without one is black. Limits: 24 hues cannot all be told apart at a glance — the panel's
//! Stats list the count per colour.

use crate::physics::solver::colouring::COLOURS;

/// The first seven graph colours (sRGB): Okabe and Ito's orange, sky blue, bluish green,
/// yellow, blue, vermilion and reddish purple; then wine, the last colour's.
const PALETTE: [[u8; 3]; 8] = [
    [0xe6, 0x9f, 0x00],
    [0x56, 0xb4, 0xe9],
    [0x00, 0x9e, 0x73],
    [0xf0, 0xe4, 0x42],
    [0x00, 0x72, 0xb2],
    [0xd5, 0x5e, 0x00],
    [0xcc, 0x79, 0xa7],
    [0x88, 0x22, 0x55],
];

/// The dot colour (linear RGB) of graph colour `k` (black for [`COLOURS`], no colour).
pub fn colour_of(k: u8) -> [f32; 3] {
    if k as usize >= COLOURS {
        return [0.0, 0.0, 0.0];
    }
    // The palette's first entries for the first colours, its last for the last colour.
    let k = k as usize;
    let last = PALETTE.len() - 1;
    if k < last {
        return PALETTE[k].map(super::svg::linear);
    }
    if k == COLOURS - 1 {
        return PALETTE[last].map(super::svg::linear);
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

    /// CIE L*a*b* of a linear sRGB colour (D65 white).
    fn lab(c: [f32; 3]) -> [f32; 3] {
        let [r, g, b] = c;
        let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.950_47;
        let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
        let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.088_83;
        let f = |t: f32| if t > 0.008_856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
        [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
    }

    /// CIE76 colour difference (about 2.3 is the smallest a viewer notices side by side).
    fn delta_e(a: [f32; 3], b: [f32; 3]) -> f32 {
        let (p, q) = (lab(a), lab(b));
        p.iter().zip(&q).map(|(x, y)| (x - y) * (x - y)).sum::<f32>().sqrt()
    }

    /// Machado, Oliveira and Fernandes (2009), full severity, on linear RGB.
    const DEUTERANOPIA: [[f32; 3]; 3] =
        [[0.367_322, 0.860_646, -0.227_968], [0.280_085, 0.672_501, 0.047_413], [-0.011_820, 0.042_940, 0.968_881]];
    const PROTANOPIA: [[f32; 3]; 3] =
        [[0.152_286, 1.052_583, -0.204_868], [0.114_503, 0.786_281, 0.099_216], [-0.003_882, -0.048_116, 1.051_998]];
    const TRITANOPIA: [[f32; 3]; 3] =
        [[1.255_528, -0.076_749, -0.178_779], [-0.078_411, 0.930_809, 0.147_602], [0.004_733, 0.691_367, 0.303_900]];

    fn seen(m: &[[f32; 3]; 3], c: [f32; 3]) -> [f32; 3] {
        m.map(|row| (row[0] * c[0] + row[1] * c[1] + row[2] * c[2]).clamp(0.0, 1.0))
    }

    /// The eight colours that hold nearly every manifold (the first seven and the last)
    /// differ clearly from each other (ΔE ≥ 25), and still differ (ΔE ≥ 15) as a reader
    /// with deuteranopia, protanopia or tritanopia sees them. (Golden-angle hues put colours 0 and 1, red and green, at
    /// ΔE 15 to a deuteranope, and colours 3 and 6 at 6.)
    #[test]
    fn the_first_colours_differ_for_every_reader() {
        let normal = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];
        for (m, least, who) in [
            (normal, 25.0, "normal"),
            (DEUTERANOPIA, 15.0, "deut"),
            (PROTANOPIA, 15.0, "prot"),
            (TRITANOPIA, 15.0, "trit"),
        ] {
            let main = [0, 1, 2, 3, 4, 5, 6, COLOURS as u8 - 1];
            for (i, &a) in main.iter().enumerate() {
                for &b in &main[i + 1..] {
                    let d = delta_e(seen(&m, colour_of(a)), seen(&m, colour_of(b)));
                    assert!(d >= least, "{who}: colours {a} and {b} are ΔE {d:.1} apart");
                }
            }
        }
        assert_ne!(colour_of(7), colour_of(0));
        assert_ne!(colour_of(7), colour_of(COLOURS as u8 - 1));
        assert_eq!(colour_of(COLOURS as u8), [0.0; 3]);
    }
}
