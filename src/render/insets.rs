//! Where the Gauss-map and Minkowski-difference insets of the selected pair go in a view:
//! each a square figure with its title above and its legend below or, in a low comparison
//! tile, beside it; at the bottom corners of the view (over the picture in a view of its own,
//! under a comparison tile's picture, which keeps its share of the tile below its text, the
//! caller's `keep`); or the whole view for the figure shown alone. A view with no
//! room for them draws neither ([`Inset::fits`]). Limits: the legend's width beside the
//! figure is a fixed estimate of its longest line ([`LEGEND_WIDTH`]), not measured text.

use super::draw::Rect;
use crate::scene::format::Overlay;
use crate::view::{Figure, Overlays, PairDebug};

/// An inset's place in its view: its rectangle (background, title and legend included),
/// whether it is drawn, and the fractions of its height its title (`top`) and its legend
/// (`bottom`), or of its width its legend beside the figure (`right`), keep clear of the
/// figure ([`crate::view::Camera::top`], [`crate::view::Camera::bottom`],
/// [`crate::view::Camera::right`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inset {
    /// The whole inset (pixels).
    pub rect: Rect,
    /// Whether it is drawn (its overlay is on, or it is the figure shown alone, and it fits).
    pub shown: bool,
    /// Whether the view has room for it: a figure of at least [`INSET_MIN_FIGURE`] points
    /// and [`INSET_MIN_WIDTH`] points across for its text.
    pub fits: bool,
    /// Fraction of its height above the figure (its title).
    pub top: f32,
    /// Fraction of its height below the figure (its legend; beside the figure, a margin and
    /// what a legend taller than the figure adds).
    pub bottom: f32,
    /// Fraction of its width right of the figure (its legend; 0 when the legend is below).
    pub right: f32,
}

impl Inset {
    /// Where the first line of a legend of `lines` lines starts (pixels, `ppp` to a point):
    /// under the figure, its last line [`LEGEND_FOOT`] above the inset's foot; or beside it,
    /// right of the figure and level with its middle.
    pub fn legend_at(&self, lines: usize, ppp: f32) -> (f32, f32) {
        let r = self.rect;
        let tall = LEGEND_LINE * lines as f32 * ppp;
        if self.right > 0.0 {
            let (top, figure) = (r.y + r.h * self.top, r.h * (1.0 - self.top - self.bottom));
            (r.x + r.w * (1.0 - self.right), top + ((figure - tall) * 0.5).max(0.0))
        } else {
            (r.x + 8.0 * ppp, r.y + r.h - LEGEND_FOOT * ppp - tall)
        }
    }
}

/// Points an inset keeps at its top for its title.
pub const INSET_TITLE: f32 = 26.0;

/// Points a line of an inset's legend takes; [`LEGEND_FOOT`] more are kept below the last.
pub const LEGEND_LINE: f32 = 16.0;

/// Points kept below an inset's legend.
pub const LEGEND_FOOT: f32 = 8.0;

/// The narrowest an inset is drawn (points): its title ("Minkowski difference A − B") and
/// its longest legend line fit.
pub const INSET_MIN_WIDTH: f32 = 200.0;

/// Points a legend beside its figure takes across: its swatch (16 points) and its longest
/// line ("nearest face (the winner)" in 12-point text, about 150 points), with a margin.
pub const LEGEND_WIDTH: f32 = 176.0;

/// The smallest figure (points) an inset is drawn with: below it the view has no room for
/// the insets, and the labels say so.
pub const INSET_MIN_FIGURE: f32 = 48.0;

/// Pixels a legend of `lines` lines takes at `ppp` pixels a point, with the room below it.
fn legend_height(lines: usize, ppp: f32) -> f32 {
    (LEGEND_LINE * lines as f32 + LEGEND_FOOT) * ppp
}

/// The insets (Gauss map, Minkowski) at the bottom corners of a view `main` (pixels, `ppp`
/// to a point) whose top `above` pixels hold its text, with legends of `lines` lines: each
/// a square figure with its title above and its legend below it, the figure 0.38 of the
/// view's smaller side (at least 120 points) or what the view's height leaves below its
/// text and above the insets' `keep` pixels of picture (a comparison's tile keeps part of
/// its height for its picture; 0: the insets lie over the picture), the inset at least
/// [`INSET_MIN_WIDTH`] points wide (at most half the view). In a comparison's tile (`keep`
/// above 0), where the legend beside the figure ([`LEGEND_WIDTH`]) leaves a larger figure
/// that still fits across, it goes there (a low tile). Where neither leaves room (see
/// [`Inset::fits`]) they are not drawn. Not yet whether they are shown (see
/// [`inset_layout`]).
pub fn inset_rects(main: Rect, ppp: f32, (above, keep): (f32, f32), lines: [usize; 2]) -> [Inset; 2] {
    let m = 12.0 * ppp;
    let (title, legend) = (INSET_TITLE * ppp, legend_height(lines[0].max(lines[1]), ppp));
    let height = main.h - above - keep - 2.0 * m;
    let wanted = (main.w.min(main.h) * 0.38).max(120.0 * ppp);
    let widest = ((main.w - 3.0 * m) * 0.5).max(0.0);
    let (min_figure, min_width, beside_w) = (INSET_MIN_FIGURE * ppp, INSET_MIN_WIDTH * ppp, LEGEND_WIDTH * ppp);
    // The legend below the figure, or beside it (then the inset is as tall as the taller).
    let below = wanted.min(height - title - legend).max(0.0);
    let pad = LEGEND_FOOT * ppp;
    let beside = if keep > 0.0 && height - title - pad >= legend {
        wanted.min(height - title - pad).min(widest - beside_w - pad).max(0.0)
    } else {
        0.0
    };
    let (figure, w, h, bottom, right) = if beside > below && beside >= min_figure {
        // A margin below the figure and half of one at each side (where the legend below
        // gives it its margin).
        let h = title + beside.max(legend) + pad;
        (beside, pad + beside + beside_w, h, h - title - beside, beside_w)
    } else {
        (below, below.max(min_width).min(widest.max(below)), below + title + legend, legend, 0.0)
    };
    let fits = figure >= min_figure && widest >= min_width;
    let y = main.y + main.h - h - m;
    let inset = |x: f32| Inset {
        rect: Rect { x, y, w, h },
        shown: false,
        fits,
        top: title / h,
        bottom: bottom / h,
        right: right / w.max(1.0),
    };
    [inset(main.x + m), inset(main.x + main.w - w - m)]
}

/// The insets (Gauss map, Minkowski) of the view `main` (as [`inset_rects`], under `above`
/// pixels of text and over `keep` pixels of picture) for the selected pair `pair` and the
/// figure shown alone: the whole view for it (below the view's text, above its legend),
/// nothing (a rectangle of no size) for the other; whether each is shown.
pub fn inset_layout(
    main: Rect,
    overlays: &Overlays,
    solo: Option<Figure>,
    pair: Option<&PairDebug>,
    ppp: f32,
    (above, keep): (f32, f32),
) -> [Inset; 2] {
    let lines = [Figure::Gauss, Figure::Minkowski].map(|f| super::key::inset_legend(f, pair).len());
    let [g, m] = inset_rects(main, ppp, (above, keep), lines);
    let none = Inset {
        rect: Rect { x: main.x, y: main.y, w: 0.0, h: 0.0 },
        shown: false,
        fits: true,
        top: 0.0,
        bottom: 0.0,
        right: 0.0,
    };
    // Alone, the figure takes the view below its text (which it keeps at most half of the
    // view) and above its legend.
    let alone = |n: usize| Inset {
        rect: main,
        shown: true,
        fits: true,
        top: (above / main.h.max(1.0)).min(0.5),
        bottom: (legend_height(n, ppp) / main.h.max(1.0)).min(0.4),
        right: 0.0,
    };
    match solo {
        Some(Figure::Gauss) => [alone(lines[0]), none],
        Some(Figure::Minkowski) => [none, alone(lines[1])],
        Some(Figure::Clip) => [g, m],
        None => [
            Inset { shown: g.fits && overlays.has(Overlay::Gauss), ..g },
            Inset { shown: m.fits && overlays.has(Overlay::Minkowski), ..m },
        ],
    }
}

/// Whether `pair`'s records hold figure `fig`: its Gauss maps (and the SAT they mark), its
/// Minkowski difference, its clip.
pub fn has_figure(pair: &PairDebug, fig: Figure) -> bool {
    match fig {
        Figure::Gauss => pair.gauss_a.is_some() && pair.gauss_b.is_some() && pair.sat.is_some(),
        Figure::Minkowski => pair.minkowski.is_some(),
        Figure::Clip => pair.clip.is_some(),
    }
}

/// Whether an inset is drawn alone over the whole view: the figure asked for (the Gauss map
/// or the Minkowski difference) is in the pair's records; else the main view is drawn.
pub fn inset_alone(pair: Option<&PairDebug>, solo: Option<Figure>) -> bool {
    match (pair, solo) {
        (Some(p), Some(fig @ (Figure::Gauss | Figure::Minkowski))) => has_figure(p, fig),
        _ => false,
    }
}
