//! The command line (clap) and the headless runner.

use crate::app::sides::{MAX_SIDES, SIDE_NAMES};
use crate::physics::{ContinuousMode, SolverMode, World};
use crate::scene::format::Overlay;
use crate::scene::{self, LoadedScene, SceneError};
use crate::trace::{TraceStep, TraceWriter};
use clap::builder::TypedValueParser;
use clap::Parser;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// contactlab — a rigid-body contact testbed.
///
/// With no arguments it opens the window on the default scene (scenes/welcome.ron).
/// With --headless it runs a scene without a window and prints a summary; --trace writes a
/// JSON Lines trace (schema: docs/trace.md) and --screenshot renders a PNG.
/// Exit codes: 0 success; 2 bad input (scene, flags, files); 3 the run finished but some
/// bodies' states became non-finite and were frozen (listed on stderr).
#[derive(Debug, Parser)]
#[command(name = "contactlab", version, about, long_about, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A tool instead of the testbed (`contactlab diff A.jsonl B.jsonl`).
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Scene file (.ron) to open. Default: scenes/welcome.ron.
    pub scene: Option<PathBuf>,

    /// Run without a window.
    #[arg(long)]
    pub headless: bool,

    /// Number of steps to run headless (default 600, or 0 with --frames).
    #[arg(long)]
    pub steps: Option<u64>,

    /// Headless: capture N frames after the run (from step 0 when --steps is not given),
    /// --every K steps apart, into --screenshot OUT: OUT.gif writes one animated GIF, OUT.png
    /// writes OUT_0000.png, OUT_0001.png, … (the frame number before the extension).
    /// Overlays, --select, --size and --compare apply.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=10_000), requires = "screenshot")]
    pub frames: Option<u32>,

    /// Steps between captured frames (with --frames).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub every: u32,

    /// Override the scene's resolution method.
    #[arg(long, value_name = "METHOD", value_parser = method_parser())]
    pub solver: Option<SolverMode>,

    /// Run copies of the scene in lockstep under two to four methods, `A,B[,C[,D]]` (e.g.
    /// `--compare naive,iterative` or `--compare naive,iterative,cyclone,averaged`).
    /// Headless: a summary per side, the traces in FILE.a.jsonl, FILE.b.jsonl, … (from
    /// --trace FILE.jsonl) and one screenshot with the sides tiled (1×2, or 2×2 for three or
    /// four). Window: opens the comparison.
    #[arg(long, value_name = "METHOD,METHOD", value_delimiter = ',', num_args = 1, value_parser = method_parser(), conflicts_with = "solver")]
    pub compare: Vec<SolverMode>,

    /// Override the scene's velocity iterations (per substep, iterative method).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub iterations: Option<u32>,

    /// Override the scene's continuous collision: `off` (speculative contacts only), `fast`
    /// (Box2D v3's continuous step: fast bodies put back at their time of impact; the
    /// default) or `earliest` (the seed's earliest-collision mode: the step is cut at every
    /// earliest collision; slow by nature).
    #[arg(long, value_name = "MODE", value_parser = ccd_parser())]
    pub ccd: Option<ContinuousMode>,

    /// Run the textbook paths: the scalar sequential-impulse solver on every manifold
    /// (`solver/iterative.rs`) instead of the SIMD batches (iterative method), and every
    /// joint from its own data instead of the compact records (`joint/compact.rs`, every
    /// method; same numbers).
    #[arg(long)]
    pub scalar: bool,

    /// Override the scene's thread count (`solver.threads`): the step's stages are shared
    /// out between N threads, the calling one included; 0 uses every core. Results are
    /// bit-identical at any count.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub threads: Option<u32>,

    /// Write a JSON Lines trace of the run to this file.
    #[arg(long, value_name = "FILE.jsonl")]
    pub trace: Option<PathBuf>,

    /// Record every K-th step in the trace (step 0 is always recorded).
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub trace_every: u64,

    /// Open a trace (from --trace) in the window and replay it: the recorded bodies, contacts
    /// and impulses, with the step keys and the scrubber; no physics runs. The scene is the
    /// SCENE argument, else the shipped scene the trace names.
    #[arg(long, value_name = "FILE.jsonl", conflicts_with_all = ["headless", "compare"])]
    pub replay: Option<PathBuf>,

    /// Write the run's time series as CSV (headless; in the window: open the plots and write
    /// them when the window closes): energies, momenta, penetration,
    /// contact points, stage timings, solver convergence and the first `--select` body's
    /// height, speed and spin, one row per step (the plots window's columns; docs/trace.md).
    #[arg(long, value_name = "FILE.csv")]
    pub plots: Option<PathBuf>,

    /// Colour theme of the view and screenshots: light or dark.
    #[arg(long, value_enum, default_value_t = crate::view::Theme::Light)]
    pub theme: crate::view::Theme,

    /// Screenshot with a transparent background (PNG alpha 0 where nothing is drawn; no
    /// ground grid).
    #[arg(long)]
    pub transparent: bool,

    /// Teaching labels on the selected pair: the reference and incident faces, the clip
    /// planes and the face numbers of the Gauss-map points; or, with a list after `=`
    /// (`--labels=faces,planes`), exactly these
    /// layers: faces, planes, points, impulses, gauss, features (the contact points' features
    /// in words).
    #[arg(long, value_name = "LAYER,…", num_args = 0..=1, value_delimiter = ',', require_equals = true)]
    pub labels: Option<Vec<crate::view::LabelLayer>>,

    /// Render the view after the run to a PNG file (headless); FILE.svg writes the same
    /// view as a vector picture (no GPU needed; --scale does not apply).
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,

    /// Screenshot size, WIDTHxHEIGHT.
    #[arg(long, default_value = "1600x900", value_parser = parse_size)]
    pub size: (u32, u32),

    /// Screenshot scale for slides: the same picture at N times --size in pixels, lines and
    /// labels N times as wide (headless; 1 to 4).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=4))]
    pub scale: u32,

    /// Overlays to draw, comma separated: in the screenshot, and at the window's start.
    #[arg(long, value_delimiter = ',', value_enum)]
    pub overlay: Vec<crate::scene::format::Overlay>,

    /// Select a pair for the debug views, by body names: A,B.
    #[arg(long, value_delimiter = ',', num_args = 1)]
    pub select: Vec<String>,

    /// Camera for the screenshot (and the window): eye and target, six numbers
    /// EX,EY,EZ,TX,TY,TZ, e.g. --camera 3,2,4,0,0.5,0. Default: the scene's camera.
    #[arg(long, value_name = "EX,EY,EZ,TX,TY,TZ", allow_hyphen_values = true, value_parser = parse_camera)]
    pub camera: Option<[f32; 6]>,

    /// Clip stage of the selected pair to show (0 = the incident face, then one per side
    /// plane, then the points kept by depth, then the reduced manifold), each captioned in
    /// the picture; `all`: one picture per stage, the stage number before the extension
    /// (OUT_2.png). Needs --select.
    #[arg(long, value_name = "N|all", value_parser = parse_clip_stage)]
    pub clip_stage: Option<ClipStageArg>,

    /// Draw one figure of the selected pair by itself at the whole picture's size: the Gauss
    /// maps, the Minkowski difference, or the clip with the camera framed on it. Needs a
    /// selected pair (--select).
    #[arg(long, value_name = "gauss|minkowski|clip")]
    pub view: Option<crate::view::Figure>,

    /// Every clip stage of the selected pair side by side in one captioned strip, written to
    /// this file (each stage at --size). Needs --select.
    #[arg(long, value_name = "OUT.png")]
    pub clip_strip: Option<PathBuf>,

    /// Window: start with the simulation playing.
    #[arg(long)]
    pub play: bool,

    /// Window: quit after N frames (with --screenshot, capture the last frame) — for
    /// automated checks.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub quit_after: Option<u32>,
}

/// Tools run instead of the testbed.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Compare two traces (from --trace): print the first step and body at which they differ
    /// and by how much. Exit 0 when they are identical (within --tolerance), 1 when they
    /// differ, 2 when a file cannot be read.
    Diff {
        /// First trace (A).
        a: PathBuf,
        /// Second trace (B).
        b: PathBuf,
        /// Largest difference of any component still counted as equal (0: bit-identical).
        #[arg(long, default_value_t = 0.0, allow_negative_numbers = true, value_parser = parse_tolerance)]
        tolerance: f64,
    },
    /// Write one step of one pair out as a worked example: every number the step computed
    /// for the pair, in the order it computed them — the bodies, the narrow-phase path, the
    /// separating-axis test, the clip, the solver's passes and a check to do by hand — as
    /// DIR/index.html (self-contained, figures inline) and DIR/explain.md with its figures
    /// as .svg files beside it.
    Explain {
        /// The scene file (.ron).
        scene: PathBuf,
        /// The step to explain: 1 is the first step (the document starts from the state
        /// after N − 1 steps).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        step: u64,
        /// The two bodies, by name: A,B.
        #[arg(long, value_name = "A,B", value_delimiter = ',', num_args = 1, required = true)]
        pair: Vec<String>,
        /// Override the scene's resolution method.
        #[arg(long, value_name = "METHOD", value_parser = method_parser())]
        solver: Option<SolverMode>,
        /// The folder to write into (made if missing).
        #[arg(long, value_name = "DIR", default_value = "explain")]
        out: PathBuf,
        /// Size of the figures, WIDTHxHEIGHT.
        #[arg(long, default_value = "960x600", value_parser = parse_size)]
        size: (u32, u32),
    },
}

/// `contactlab explain`: loads the scene, runs it to the step and writes the document.
pub fn explain(
    scene_file: &std::path::Path,
    step: u64,
    pair: &[String],
    solver: Option<SolverMode>,
    out: &std::path::Path,
    size: (u32, u32),
) -> Result<crate::app::explain::Written, CliError> {
    let mut s = scene::load(scene_file)?;
    if let Some(m) = solver {
        s.world.settings.mode = m;
    }
    let [a, b] = pair else {
        return Err(CliError::Select(format!("--pair: expected two names A,B, got {}", pair.len())));
    };
    let find = |n: &String| {
        s.body_index(n).ok_or_else(|| CliError::Select(format!("--pair: no body is named '{n}'; {}", body_names(&s))))
    };
    let (ia, ib) = (find(a)?, find(b)?);
    let origin = scene_file.display().to_string();
    let doc = crate::app::explain::explain(s, &origin, step, (ia, ib), Some(size))
        .map_err(|e| CliError::Render(e.to_string()))?;
    crate::app::explain::write(&doc, out).map_err(|e| CliError::Render(e.to_string()))
}

fn parse_tolerance(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(t) if t >= 0.0 && t.is_finite() => Ok(t),
        _ => Err(format!("expected a number ≥ 0, got '{s}'")),
    }
}

/// Parses a resolution method by its lower-case name ([`SolverMode::key`]); `--help` lists
/// every method with its summary.
fn method_parser() -> impl TypedValueParser<Value = SolverMode> {
    let values = SolverMode::ALL.map(|m| clap::builder::PossibleValue::new(m.key()).help(m.summary()));
    clap::builder::PossibleValuesParser::new(values)
        .map(|s| SolverMode::from_key(&s).expect("only the possible values get through"))
}

/// Parses a continuous-collision mode by its lower-case name ([`ContinuousMode::key`]).
fn ccd_parser() -> impl TypedValueParser<Value = ContinuousMode> {
    let help = |m: ContinuousMode| match m {
        ContinuousMode::Off => "speculative contacts only (fast bodies can tunnel)",
        ContinuousMode::Fast => "Box2D v3's continuous step: fast bodies put back at their time of impact",
        ContinuousMode::EarliestCollision => "the step cut at every earliest collision (Homer's simulator; slow)",
    };
    let values = ContinuousMode::ALL.map(|m| clap::builder::PossibleValue::new(m.key()).help(help(m)));
    clap::builder::PossibleValuesParser::new(values)
        .map(|s| ContinuousMode::from_key(&s).expect("only the possible values get through"))
}

fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(|| format!("expected WIDTHxHEIGHT, e.g. 1600x900, got '{s}'"))?;
    let parse = |v: &str| v.trim().parse::<u32>().map_err(|_| format!("'{v}' is not a whole number"));
    let (w, h) = (parse(w)?, parse(h)?);
    if !(16..=8192).contains(&w) || !(16..=8192).contains(&h) {
        return Err(format!("width and height must be between 16 and 8192, got {w}x{h}"));
    }
    Ok((w, h))
}

/// `--clip-stage`: one stage, or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClipStageArg {
    /// Stage N.
    Stage(usize),
    /// Every stage, one picture each.
    All,
}

fn parse_clip_stage(s: &str) -> Result<ClipStageArg, String> {
    match s.trim() {
        "all" => Ok(ClipStageArg::All),
        n => n.parse().map(ClipStageArg::Stage).map_err(|_| format!("'{n}' is not a stage number or 'all'")),
    }
}

fn parse_camera(s: &str) -> Result<[f32; 6], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.len() != 6 {
        return Err(format!("expected six numbers EX,EY,EZ,TX,TY,TZ (eye, then target), got {} in '{s}'", parts.len()));
    }
    let mut v = [0.0f32; 6];
    for (k, p) in parts.iter().enumerate() {
        v[k] = p
            .trim()
            .parse::<f32>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("'{p}' is not a finite number"))?;
    }
    if v[..3] == v[3..] {
        return Err("the eye and the target must differ".into());
    }
    Ok(v)
}

/// Errors of a command-line run; `main` prints them and exits non-zero.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// Scene problems.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// Plots file problems.
    #[error("cannot write plots {path}: {source}")]
    Plots {
        /// File.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// `--replay` could not open its trace.
    #[error("--replay: {0}")]
    Replay(String),
    /// Trace file problems.
    #[error("cannot write trace {path}: {source}")]
    Trace {
        /// File.
        path: PathBuf,
        /// OS error.
        source: std::io::Error,
    },
    /// `--select` names.
    #[error("--select: {0}")]
    Select(String),
    /// Rendering problems.
    #[error("{0}")]
    Render(String),
    /// `contactlab diff` could not read a trace.
    #[error(transparent)]
    Diff(#[from] crate::trace::diff::DiffError),
    /// `contactlab diff` found the traces different (exit code 1, like `diff`).
    #[error("the traces differ")]
    TracesDiffer,
    /// `--compare` not given two methods.
    #[error("--compare: {0}")]
    Compare(String),
    /// A pair overlay or figure (`gauss`, `minkowski`, `clip`) without a selected pair.
    #[error("{0}")]
    Overlay(String),
    /// `--clip-stage` without a pair that has clip stages, or out of range.
    #[error("--clip-stage: {0}")]
    ClipStage(String),
    /// The run finished, but some bodies' states became non-finite and were frozen.
    #[error("non-finite (NaN or infinite) states: {count} frozen, {list}")]
    NonFinite {
        /// How many freezes.
        count: usize,
        /// Each one: body, step, stage.
        list: String,
    },
}

/// Exit code of a run that finished with non-finite bodies (bad input exits with 2).
pub const EXIT_NON_FINITE: u8 = 3;

impl CliError {
    /// The process exit code for this error: 2 for bad input or I/O, [`EXIT_NON_FINITE`]
    /// when a run completed with frozen non-finite bodies, 1 when `diff` found a difference.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::NonFinite { .. } => EXIT_NON_FINITE,
            CliError::TracesDiffer => 1,
            _ => 2,
        }
    }
}

/// After a run: an error naming every body frozen because its state became non-finite.
pub fn check_finite(world: &World) -> Result<(), CliError> {
    let events = world.non_finite();
    if events.is_empty() {
        return Ok(());
    }
    let list = events
        .iter()
        .map(|e| format!("'{}' in step {} ({}: {})", e.name, e.step, e.origin.name(), e.fields))
        .collect::<Vec<_>>()
        .join("; ");
    Err(CliError::NonFinite { count: events.len(), list })
}

/// The scene path to open: the argument, else the shipped scene a `--replay` trace was
/// recorded from, else the default scene.
pub fn scene_path(cli: &Cli) -> PathBuf {
    let replayed = || cli.replay.as_deref().and_then(|t| crate::app::replay::shipped_scene_of(t).ok());
    cli.scene.clone().or_else(replayed).unwrap_or_else(|| scene::scenes_dir().join(scene::DEFAULT_SCENE))
}

/// Loads the scene and applies the overrides of the command line.
pub fn load_scene(cli: &Cli) -> Result<LoadedScene, CliError> {
    let mut s = scene::load(&scene_path(cli))?;
    apply_overrides(cli, &mut s.world);
    Ok(s)
}

/// A testbed for `scene` with the command line's overlays and selection applied.
pub fn testbed(cli: &Cli, scene: LoadedScene) -> Result<crate::app::Testbed, CliError> {
    let pair = selected_pair(cli, &scene)?;
    let mut t = crate::app::Testbed::new(scene, Some(scene_path(cli)));
    let layers = match cli.labels.as_deref() {
        None | Some([]) => crate::view::LabelLayers::default(),
        Some(list) => crate::view::LabelLayers::of(list),
    };
    t.view.look =
        crate::view::Look { theme: cli.theme, transparent: cli.transparent, labels: cli.labels.is_some(), layers };
    if !cli.overlay.is_empty() {
        t.view.overlays.clear();
        for o in &cli.overlay {
            t.view.overlays.enable(*o);
        }
    }
    if let Some((a, b)) = pair {
        t.select_pair(a, b);
    }
    check_pair_overlays(cli, &t.session.scene)?;
    if let Some(c) = cli.camera {
        let fov = t.view.camera.fov_y.to_degrees();
        t.view.camera =
            crate::view::Camera::look_at(glam::Vec3::new(c[0], c[1], c[2]), glam::Vec3::new(c[3], c[4], c[5]), fov);
        t.view.initial_camera = t.view.camera;
    }
    if let Some(f) = cli.view {
        t.view.insets.solo = Some(f);
        if f == crate::view::Figure::Clip {
            t.view.overlays.enable(Overlay::Clip);
            t.frame_clip(cli.size.0 as f32 / cli.size.1.max(1) as f32);
        }
    }
    if cli.clip_stage.is_some() || cli.clip_strip.is_some() {
        if t.selected_pair().is_none() {
            return Err(CliError::ClipStage("select a pair with --select A,B first".into()));
        }
        let Some(stages) = t.clip_stages() else {
            return Err(CliError::ClipStage(crate::app::testbed::NO_CLIP_STAGES.into()));
        };
        if let Some(ClipStageArg::Stage(n)) = cli.clip_stage {
            if n >= stages {
                return Err(CliError::ClipStage(format!(
                    "stage {n} does not exist; this pair has stages 0 to {}",
                    stages - 1
                )));
            }
            t.selection.clip_stage = Some(n);
        }
    }
    Ok(t)
}

/// The methods of `--compare`, if given (two to four, or an error).
pub fn compare_modes(cli: &Cli) -> Result<Option<Vec<SolverMode>>, CliError> {
    match cli.compare.len() {
        0 => Ok(None),
        2..=MAX_SIDES => Ok(Some(cli.compare.clone())),
        n => Err(CliError::Compare(format!("expected two methods A,B (or up to {MAX_SIDES}: A,B,C,D), got {n}"))),
    }
}

/// Applies --solver (or the first method of --compare), --iterations, --scalar, --ccd and
/// --threads to a world.
pub fn apply_overrides(cli: &Cli, world: &mut World) {
    if let Some(m) = cli.solver {
        world.settings.mode = m;
    }
    if let Some(&m) = cli.compare.first() {
        world.settings.mode = m;
    }
    if let Some(k) = cli.iterations {
        world.settings.iterations = k;
    }
    if cli.scalar {
        world.settings.simd = false;
    }
    if let Some(m) = cli.ccd {
        world.settings.ccd = m;
    }
    if let Some(n) = cli.threads {
        world.settings.threads = n;
    }
}

/// The pair overlays asked for (`--overlay gauss|minkowski|clip`) draw the selected pair
/// (`--select`, else the scene's own): in a headless picture without one they would be
/// silently empty, an error. (The window opens, and a pair can be clicked.)
pub fn check_pair_overlays(cli: &Cli, s: &LoadedScene) -> Result<(), CliError> {
    if !cli.headless {
        return Ok(());
    }
    let pair = pair_shown(cli, s)?;
    let name = |o: &dyn std::fmt::Debug| format!("{o:?}").to_lowercase();
    let asked = [Overlay::Gauss, Overlay::Minkowski, Overlay::Clip]
        .into_iter()
        .find(|o| cli.overlay.contains(o))
        .map(|o| format!("--overlay {}", name(&o)))
        .or(cli.view.map(|f| format!("--view {}", name(&f))));
    match (pair, asked) {
        (None, Some(what)) => Err(CliError::Overlay(format!(
            "{what} draws the selected pair, and none is selected: add --select A,B ({})",
            body_names(s)
        ))),
        _ => Ok(()),
    }
}

/// "the bodies are: a, b, c" for an error message (the first 30, then how many in all).
fn body_names(s: &LoadedScene) -> String {
    const SHOWN: usize = 30;
    let names: Vec<&str> = s.world.bodies().iter().take(SHOWN).map(|b| b.name.as_str()).collect();
    let n = s.world.bodies().len();
    let more = if n > SHOWN { format!(", … ({n} in all)") } else { String::new() };
    format!("the scene's bodies are: {}{more}", names.join(", "))
}

/// Indices of the `--select` pair, if given.
pub fn selected_pair(cli: &Cli, s: &LoadedScene) -> Result<Option<(usize, usize)>, CliError> {
    match cli.select.as_slice() {
        [] => Ok(None),
        [a, b] => {
            let find = |n: &String| {
                s.body_index(n).ok_or_else(|| CliError::Select(format!("no body is named '{n}'; {}", body_names(s))))
            };
            let (ia, ib) = (find(a)?, find(b)?);
            if ia == ib {
                return Err(CliError::Select("pick two different bodies".into()));
            }
            Ok(Some((ia, ib)))
        }
        other => Err(CliError::Select(format!("expected two names A,B, got {}", other.len()))),
    }
}

/// The pair a picture draws: `--select`, else the scene's own selected pair.
pub fn pair_shown(cli: &Cli, s: &LoadedScene) -> Result<Option<(usize, usize)>, CliError> {
    Ok(selected_pair(cli, s)?.or(s.selected_pair()))
}

/// Numbers printed after a headless run.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Steps run.
    pub steps: u64,
    /// Bodies.
    pub bodies: usize,
    /// Awake dynamic bodies at the end.
    pub awake: usize,
    /// Contact points at the end.
    pub contact_points: usize,
    /// Deepest penetration of any contact point over the whole run (m).
    pub max_penetration: f32,
    /// Deepest penetration after the last step (m): what the window's stats call "this step".
    pub final_penetration: f32,
    /// Total energy at the end (J).
    pub energy: f32,
    /// Mean wall time per step (ms).
    pub mean_step_ms: f64,
    /// Bodies frozen because their state became non-finite (printed only when not 0).
    pub non_finite: usize,
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "steps            {}", self.steps)?;
        writeln!(f, "bodies           {}", self.bodies)?;
        writeln!(f, "awake bodies     {}", self.awake)?;
        writeln!(f, "contact points   {}", self.contact_points)?;
        writeln!(f, "max penetration  {:.5} m  (deepest over all {} steps)", self.max_penetration, self.steps)?;
        writeln!(f, "penetration now  {:.5} m  (deepest after the last step)", self.final_penetration)?;
        writeln!(f, "total energy     {:.3} J", self.energy)?;
        write!(f, "mean step time   {:.3} ms", self.mean_step_ms)?;
        if self.non_finite > 0 {
            write!(f, "\nnon-finite       {} (frozen)", self.non_finite)?;
        }
        Ok(())
    }
}

/// Runs `cli.steps` steps of `scene` without a window, writing the trace if asked. The
/// selected pair (`--select`, else the scene's `view.selected`) is watched, so the trace and
/// the screenshot show what the steps did for it.
pub fn run_headless(cli: &Cli, scene: &mut LoadedScene) -> Result<Summary, CliError> {
    watch_selected(cli, scene)?;
    let (name, dt) = (scene.desc.name.clone(), scene.timestep());
    let follow = selected_pair(cli, scene)?.map(|p| p.0);
    run_world(cli, &mut scene.world, (&name, ""), dt, (cli.trace.as_deref(), cli.plots.as_deref()), follow)
}

/// One side of a `--compare` run.
#[derive(Clone, Debug)]
pub struct CompareSide {
    /// Its method.
    pub mode: SolverMode,
    /// Its numbers.
    pub summary: Summary,
    /// Its world after the run.
    pub world: World,
}

pub use crate::app::sides::side_letter;

/// Runs `scene` under each method of `--compare` from the same start, with the same settings
/// otherwise; each side writes its own trace (FILE.a.jsonl, FILE.b.jsonl, …). The sides
/// share nothing, so running one after the other gives what lockstep gives. The scene's
/// world is left as it was loaded.
pub fn run_compare(cli: &Cli, scene: &mut LoadedScene, modes: &[SolverMode]) -> Result<Vec<CompareSide>, CliError> {
    watch_selected(cli, scene)?;
    let (name, dt) = (scene.desc.name.clone(), scene.timestep());
    let follow = selected_pair(cli, scene)?.map(|p| p.0);
    let mut sides = Vec::with_capacity(modes.len());
    for (k, &mode) in modes.iter().enumerate() {
        let mut world = scene.world.clone();
        world.settings.mode = mode;
        // Each side's trace and plots: FILE.a.ext, FILE.b.ext, …
        let letter = side_letter(k);
        let of = |f: &Option<PathBuf>| f.as_deref().map(|p| side_path(p, &letter));
        let (trace, plots) = (of(&cli.trace), of(&cli.plots));
        let summary =
            run_world(cli, &mut world, (&name, SIDE_NAMES[k]), dt, (trace.as_deref(), plots.as_deref()), follow)?;
        sides.push(CompareSide { mode, summary, world });
    }
    Ok(sides)
}

pub use crate::app::sides::side_path;

/// Watches the selected pair (`--select`, else the scene's `view.selected`).
fn watch_selected(cli: &Cli, scene: &mut LoadedScene) -> Result<(), CliError> {
    if let Some((a, b)) = selected_pair(cli, scene)?.or(scene.selected_pair()) {
        scene.world.set_watched(&[(a as u32, b as u32)]);
    }
    Ok(())
}

/// Steps headless runs take when `--steps` is not given (and there are no `--frames`).
pub const DEFAULT_STEPS: u64 = 600;

/// The steps of the headless run: `--steps`, else 0 with `--frames` (the frames start at
/// step 0), else [`DEFAULT_STEPS`].
pub fn steps(cli: &Cli) -> u64 {
    cli.steps.unwrap_or(if cli.frames.is_some() { 0 } else { DEFAULT_STEPS })
}

/// Steps `world` `cli.steps` times at `dt`, writing a trace to `trace` if given; `name` is
/// the scene's name and the side's letter in a comparison ("" for none).
fn run_world(
    cli: &Cli,
    world: &mut World,
    (name, side): (&str, &str),
    dt: f32,
    (trace, plots): (Option<&std::path::Path>, Option<&std::path::Path>),
    follow: Option<usize>,
) -> Result<Summary, CliError> {
    let trace_err = |source| CliError::Trace { path: trace.map(PathBuf::from).unwrap_or_default(), source };
    let mut writer = match trace {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(trace_err)?;
            let mut w = TraceWriter::new(std::io::BufWriter::new(file), name, dt, world).map_err(trace_err)?;
            w.write_step(&TraceStep::capture(world, 0, false)).map_err(trace_err)?;
            Some(w)
        }
        None => None,
    };
    let mut series = plots.map(|_| crate::trace::series::Series::default());
    world.record_convergence |= series.is_some();
    let mut max_pen = 0.0f32;
    let start = Instant::now();
    let total = steps(cli);
    for n in 1..=total {
        crate::trace::step_logging_non_finite(world, dt, side);
        max_pen = max_pen.max(world.stats().max_penetration);
        if let Some(s) = series.as_mut() {
            s.record(world, follow);
        }
        if let Some(w) = writer.as_mut() {
            if n % cli.trace_every == 0 {
                w.write_step(&TraceStep::capture(world, n, true)).map_err(trace_err)?;
            }
        }
    }
    let elapsed = start.elapsed().as_secs_f64() * 1000.0;
    if let Some(w) = writer {
        w.finish().and_then(|mut f| f.flush()).map_err(trace_err)?;
    }
    if let (Some(path), Some(s)) = (plots, series) {
        let plots_err = |source| CliError::Plots { path: path.to_path_buf(), source };
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(plots_err)?);
        s.write_csv(&mut out).and_then(|()| out.flush()).map_err(plots_err)?;
    }
    Ok(Summary::of(world, total, max_pen, elapsed))
}

impl Summary {
    /// The numbers of `world` after `steps` steps that took `elapsed_ms` in all, with
    /// `max_penetration` the deepest over them.
    pub fn of(world: &World, steps: u64, max_penetration: f32, elapsed_ms: f64) -> Summary {
        let stats = world.stats();
        Summary {
            steps,
            bodies: stats.bodies,
            awake: stats.awake,
            contact_points: stats.points,
            max_penetration,
            final_penetration: stats.max_penetration,
            energy: world.total_energy(),
            mean_step_ms: if steps > 0 { elapsed_ms / steps as f64 } else { 0.0 },
            non_finite: world.non_finite().len(),
        }
    }
}
