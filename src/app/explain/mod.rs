//! Worked examples (`contactlab explain`, and "Explain this step" in the inspector): one
//! step of one pair written out — every number the step computed for the pair, in the
//! order the algorithm computed it — as a document a student can follow with pencil and
//! paper: `index.html` (self-contained) and `explain.md` with its figures as `.svg` files.
//!
//! The run: the scene is stepped to the step before N; that world is kept (the start of
//! step N); step N then runs with the pair watched (`PairRecord`: the path, the clip, the
//! manifold and the impulses the step really used). The iterative method's passes come
//! from the textbook path (the scalar solver, traced pass by pass,
//! `physics::world::PairSolve`) on a copy of the same step. The separating-axis queries
//! are listed at the poses the step started from ([`crate::physics::debug::sat_record`]),
//! and the figures are the testbed's own views of that moment, written as SVG
//! ([`super::vector`]).
//!
//! Sections: [`narrow`] (scene, path, SAT or closest points, clip) and [`solve`] (solver,
//! check). [`doc`] holds the document and writes Markdown and HTML.
//!
//! Known limits: mesh contacts list the normal groups the step made, not every triangle
//! candidate; Cyclone's position moves are given per body (summed), not move by move; the
//! one-pass methods' impulses are the step's totals (they solve in one call); a mouse drag
//! during the explained step (window) is not part of the document's step.

pub mod doc;
pub mod fmt;
pub mod narrow;
pub mod solve;

use super::testbed::Testbed;
use super::vector;
use crate::physics::world::{PairRecord, PairSolve};
use crate::physics::{SolverMode, World};
use crate::scene::LoadedScene;
use crate::view::Figure;
use doc::Document;
use std::path::{Path, PathBuf};

/// Why a document could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ExplainError {
    /// Step 0 or beyond the limit.
    #[error("--step must be 1 or more (the document explains step N, which starts from the state after N − 1 steps)")]
    Step,
    /// The pair is not two different bodies.
    #[error("pick two different bodies")]
    SameBody,
    /// A body index past the world's bodies.
    #[error("no body {0} in this world")]
    NoBody(usize),
    /// Writing the files failed.
    #[error("could not write {path}: {source}")]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Figures: (file, caption, SVG).
#[derive(Clone, Debug, Default)]
pub struct Figures {
    /// The scene at the step's start, the pair selected.
    pub scene: Vec<(String, String, String)>,
    /// The Gauss maps and the Minkowski difference.
    pub sat: Vec<(String, String, String)>,
    /// One per clip stage.
    pub clip: Vec<(String, String, String)>,
}

/// One explained step (what the sections read).
pub struct Run {
    /// Scene title.
    pub scene_name: String,
    /// Where the scene came from (a file, or "the window").
    pub origin: String,
    /// The step explained (from 1).
    pub step: u64,
    /// Its length (s).
    pub dt: f32,
    /// Body A (the lower index) and B.
    pub a: usize,
    /// Body B.
    pub b: usize,
    /// The world at the start of the step.
    pub start: World,
    /// The world after it.
    pub end: World,
    /// What the step did for the pair.
    pub record: PairRecord,
    /// The textbook path's passes (iterative method), if traced.
    pub traced: Option<PairSolve>,
    /// The figures.
    pub figures: Figures,
}

impl Run {
    /// Body `i`'s name.
    pub fn name(&self, i: usize) -> &str {
        &self.start.bodies()[i].name
    }
}

/// Steps a copy of `world` (at the step's start) once with pair (a, b) watched and its
/// solve traced where the method allows; returns the world after and the trace.
fn step_watched(world: &World, a: usize, b: usize, dt: f32, scalar: bool) -> (World, Option<PairSolve>) {
    let mut w = world.snapshot();
    w.set_watched(&[(a as u32, b as u32)]);
    if scalar {
        w.settings.simd = false;
        w.trace_pair_solve(Some((a as u32, b as u32)));
    }
    w.step(dt);
    let trace = w.pair_solve().cloned();
    (w, trace)
}

/// Runs `scene` to the start of step `step` (from 1) and explains that step for bodies
/// `pair`. `figures` of `size` pixels are drawn when asked (the tests skip them for speed).
pub fn explain(
    scene: LoadedScene,
    origin: &str,
    step: u64,
    pair: (usize, usize),
    figures: Option<(u32, u32)>,
) -> Result<Document, ExplainError> {
    if step == 0 {
        return Err(ExplainError::Step);
    }
    let mut world = scene.world.snapshot();
    let dt = scene.timestep();
    while world.step_count + 1 < step {
        world.step(dt);
    }
    explain_world(scene, world, origin, pair, figures)
}

/// Explains the next step of `world` (the state after `world.step_count` steps of `scene`).
pub fn explain_world(
    scene: LoadedScene,
    world: World,
    origin: &str,
    pair: (usize, usize),
    figures: Option<(u32, u32)>,
) -> Result<Document, ExplainError> {
    if pair.0 == pair.1 {
        return Err(ExplainError::SameBody);
    }
    if let Some(&i) = [pair.0, pair.1].iter().find(|&&i| i >= world.bodies().len()) {
        return Err(ExplainError::NoBody(i));
    }
    let (a, b) = (pair.0.min(pair.1), pair.0.max(pair.1));
    let dt = scene.timestep();
    let step = world.step_count + 1;
    let (end, _) = step_watched(&world, a, b, dt, false);
    let record = end.pair_record(a as u32, b as u32).cloned().unwrap_or_default();
    let traced =
        (world.settings.mode == SolverMode::Iterative).then(|| step_watched(&world, a, b, dt, true).1).flatten();
    let mut run = Run {
        scene_name: scene.desc.name.clone(),
        origin: origin.to_string(),
        step,
        dt,
        a,
        b,
        start: world,
        end,
        record,
        traced,
        figures: Figures::default(),
    };
    if let Some(size) = figures {
        run.figures = draw_figures(&scene, &run, size);
    }
    let sat = narrow::sat_at_start(&run);
    let mut sections = vec![narrow::scene_section(&run), narrow::path_section(&run)];
    if !run.figures.scene.is_empty() {
        for (file, caption, svg) in &run.figures.scene {
            sections[0].figure(file.clone(), caption.clone(), svg.clone());
        }
    }
    sections.push(narrow::sat_section(&run, sat.as_ref()));
    sections.extend(narrow::clip_section(&run, sat.as_ref()));
    sections.push(solve::solver_section(&run));
    sections.push(solve::check_section(&run));
    let method = run.start.settings.mode.key();
    Ok(Document {
        title: format!(
            "{}: step {}, {} – {} ({})",
            run.scene_name,
            step,
            run.name(a),
            run.name(b),
            run.start.settings.mode.name()
        ),
        command: format!(
            "contactlab explain {} --step {step} --pair {},{} --solver {method}",
            origin,
            run.name(a),
            run.name(b)
        ),
        sections,
    })
}

/// The testbed's views of the step's start, the pair selected, as SVG figures.
fn draw_figures(scene: &LoadedScene, run: &Run, size: (u32, u32)) -> Figures {
    let at_start = LoadedScene { desc: scene.desc.clone(), world: run.start.snapshot(), colors: scene.colors.clone() };
    let mut t = Testbed::new(at_start, None);
    t.world_mut().set_watched(&[]);
    t.select_pair(run.a, run.b);
    t.view.start_of = Some(run.step);
    let mut f = Figures::default();
    f.scene.push((
        "scene.svg".into(),
        "The scene at the start of the step, the pair selected.".into(),
        vector::svg(&mut t, size),
    ));
    let small = (size.0 * 3 / 5, size.1 * 3 / 5);
    if t.pair_debug().is_some_and(|p| p.sat.is_some()) {
        for (fig, file, caption) in [
            (Figure::Gauss, "gauss.svg", "The Gauss maps of A and −B: where arcs cross, an edge pair builds a Minkowski face; the winner is marked."),
            (Figure::Minkowski, "minkowski.svg", "The Minkowski difference A − B: the nearest face (the winner) and the segment from the origin to it."),
        ] {
            t.view.insets.solo = Some(fig);
            f.sat.push((file.into(), caption.into(), vector::svg(&mut t, size)));
        }
    }
    t.view.insets.solo = Some(Figure::Clip);
    t.view.overlays.enable(crate::scene::format::Overlay::Clip);
    t.frame_clip(small.0 as f32 / small.1 as f32);
    let edge = t.pair_debug().and_then(|p| p.clip.as_ref()).is_some_and(|c| c.edge_axis.is_some());
    if let Ok(docs) = vector::clip_stages(&mut t, small) {
        let n = docs.len();
        for (k, svg) in docs.into_iter().enumerate() {
            let caption = match k {
                0 => "The incident face before clipping.".to_string(),
                k if k + 2 == n && edge => {
                    "The points kept: an overlap along the edge axis, or a gap within the margin.".to_string()
                }
                k if k + 2 == n => "The points kept below the reference face.".to_string(),
                k if k + 1 == n => "The manifold: reduced to at most four points.".to_string(),
                k => format!("After side plane {k}."),
            };
            f.clip.push((format!("clip_{k}.svg"), caption, svg));
        }
    }
    f
}

/// What [`write()`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Written {
    /// The HTML page.
    pub html: PathBuf,
    /// The Markdown text.
    pub markdown: PathBuf,
    /// The figures beside it.
    pub figures: Vec<PathBuf>,
}

/// Writes `doc` into the folder `dir` (made if missing): index.html, explain.md and the
/// figures as .svg files.
pub fn write(doc: &Document, dir: &Path) -> Result<Written, ExplainError> {
    let err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExplainError::Write { path, source }
    };
    std::fs::create_dir_all(dir).map_err(err(dir))?;
    let html = dir.join("index.html");
    std::fs::write(&html, doc.html()).map_err(err(&html))?;
    let markdown = dir.join("explain.md");
    std::fs::write(&markdown, doc.markdown()).map_err(err(&markdown))?;
    let mut figures = Vec::new();
    for (file, svg) in doc.figures() {
        let p = dir.join(file);
        std::fs::write(&p, svg).map_err(err(&p))?;
        figures.push(p);
    }
    Ok(Written { html, markdown, figures })
}
