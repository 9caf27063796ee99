//! The solver-graph overlay's legend: what its dots mean, on how many threads the colours'
//! batches run, the islands, why the contacts with the world hold the highest colours, and
//! each graph colour in use with its count.

use super::Scribe;
use crate::physics::World;
use egui::{Align2, FontId};

/// The solver-graph overlay's legend at (`x`, `y`): what the dots mean and on how many
/// threads, the islands on a line of their own, then a row of swatches per coloured kind,
/// each graph colour in use with its count: the manifolds, and the joints from 64 solved
/// joints on (below that, a line saying they are solved in slot order). A sleeping island
/// is not solved, so its manifolds and joints have no colour: the legend counts the
/// islands asleep, and where no manifold has a colour it says why. The colours are the
/// last step's: an island that fell asleep at its end still shows them. Returns the line
/// below it.
pub(super) fn graph_legend(s: &mut Scribe, w: &World, x: f32, mut y: f32) -> f32 {
    let (u, dark) = (s.ppp, s.text);
    let (islands, asleep_islands) = {
        // An island is asleep when none of its bodies is awake: it sleeps as a whole, but a
        // drag, a character or a frozen neighbour wakes one body at a time.
        let of = w.islands();
        let mut awake = vec![false; of.len()];
        for (b, root) in w.bodies().iter().zip(&of) {
            if let Some(r) = root {
                awake[*r as usize] |= !b.asleep;
            }
        }
        let mut roots: Vec<u32> = of.into_iter().flatten().collect();
        roots.sort_unstable();
        roots.dedup();
        let asleep = roots.iter().filter(|&&r| !awake[r as usize]).count();
        (roots.len(), asleep)
    };
    let threads = w.threads();
    let contact_counts = w.colour_counts();
    let head = match contact_counts {
        Some(_) => [
            "solver graph: dot = graph colour of its manifold or joint".to_string(),
            format!("(one colour's batches run at once on {threads} thread{})", if threads == 1 { "" } else { "s" }),
        ],
        None => [format!("{}: contacts solved in one sequence", w.settings.mode.name()), "(no graph colours)".into()],
    };
    // A line wider than the tile (a comparison's tile is half the view) breaks in two
    // (`Scribe::wrapped_with`, the parts joined by a space when they fit).
    let width = s.tile.max.x - x / u - 8.0;
    // The islands on a line of their own: the head is already as wide as a tile of four.
    let plural = if islands == 1 { "" } else { "s" };
    let islands_line = match asleep_islands {
        0 => format!("body colour = its island ({islands} island{plural})"),
        k if k == islands => format!("body colour = its island ({islands} island{plural}, all asleep)"),
        k => format!("body colour = its island ({islands} island{plural}, {k} asleep: sleepers are not solved)"),
    };
    let lines = s.wrapped_with(s.p(x, y), &head, " ", FontId::proportional(14.0), width);
    y += (20.0 + 22.0 * (lines - 1) as f32) * u;
    s.fixed(s.p(x, y), Align2::LEFT_TOP, islands_line, FontId::proportional(13.0), dark);
    y += 20.0 * u;
    if contact_counts.is_some() {
        // Why the ground's contacts sit at the far end of the swatches.
        let order = "contacts with a static body take the highest colours: solved last";
        s.fixed(s.p(x, y), Align2::LEFT_TOP, order, FontId::proportional(13.0), dark);
        y += 20.0 * u;
    }
    // A row of swatches per coloured kind: manifolds, then joints.
    for (what, counts) in [("manifolds", contact_counts), ("joints", w.joint_colour_counts())] {
        let Some(counts) = counts else { continue };
        let last = counts.len() - 1;
        let at = s.p(x, y);
        if counts.iter().all(|&n| n == 0) {
            let why = if islands > 0 && asleep_islands == islands {
                " — all islands asleep (a sleeping island is not solved)"
            } else {
                " this step"
            };
            s.fixed(at, Align2::LEFT_TOP, format!("{what} per colour: none{why}"), FontId::proportional(13.0), dark);
            y += 22.0 * u;
            continue;
        }
        let items = counts.iter().enumerate().filter(|(_, &n)| n > 0).map(|(k, &n)| {
            let text = if k == last { format!("none: {n}") } else { format!("{k}: {n}") };
            (crate::render::graph::colour_of(k as u8), text)
        });
        let lines = s.swatches(at, format!("{what} per colour:"), items, 13.0);
        y += 22.0 * u * lines as f32;
    }
    // Joints solved in slot order have no colour, so no dot: the legend says why (their
    // anchors, drawn by the joints themselves, would read as a colour otherwise).
    let solved = w.solved_joint_count();
    if solved > 0 && w.joint_colour_counts().is_none() {
        let at = s.p(x, y);
        let parts = [
            format!("joint order: {solved} solved one after another, in slot order"),
            format!("(coloured from {} solved joints on)", crate::physics::joint::colours::COLOUR_FROM),
        ];
        let lines = s.wrapped_with(at, &parts, " ", FontId::proportional(13.0), width);
        y += 22.0 * u * lines as f32;
    }
    y
}
