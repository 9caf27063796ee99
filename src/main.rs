//! The `contactlab` binary: parses the command line, then opens the window or runs headless.
//! In the browser the testbed starts from `web/` instead (`web/build.sh`); for `wasm32`
//! this binary is empty.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use clap::Parser;
    use contactlab::app::sides::{Side, SIDE_NAMES};
    use contactlab::app::{headless, vector, window};
    use contactlab::cli::{self, Cli, CliError};
    use contactlab::physics::SolverMode;
    use contactlab::scene::LoadedScene;
    use std::process::ExitCode;

    pub fn main() -> ExitCode {
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
        let args = Cli::parse();
        match run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                // `diff` already said how the traces differ; its exit code 1 is the verdict.
                if !matches!(e, CliError::TracesDiffer) {
                    eprintln!("error: {e}");
                }
                ExitCode::from(e.exit_code())
            }
        }
    }

    fn run(args: &Cli) -> Result<(), CliError> {
        if let Some(cli::Command::Diff { a, b, tolerance }) = &args.command {
            return match contactlab::trace::diff::diff_files(a, b, *tolerance)? {
                None => {
                    println!("identical: {} and {} (tolerance {tolerance})", a.display(), b.display());
                    Ok(())
                }
                Some(d) => {
                    println!("{d}");
                    Err(CliError::TracesDiffer)
                }
            };
        }
        if let Some(cli::Command::Explain { scene, step, pair, solver, out, size }) = &args.command {
            let w = cli::explain(scene, *step, pair, *solver, out, *size)?;
            println!("worked example   {}", w.html.display());
            println!("markdown         {} ({} figures beside it)", w.markdown.display(), w.figures.len());
            return Ok(());
        }
        let mut scene = cli::load_scene(args)?;
        let shown = cli::pair_shown(args, &scene)?;
        cli::check_pair_overlays(args, &scene)?;
        if (args.clip_stage.is_some() || args.clip_strip.is_some()) && shown.is_none() {
            return Err(CliError::ClipStage("select a pair with --select A,B first".into()));
        }
        let compare = cli::compare_modes(args)?;
        let clip_series = args.clip_stage == Some(cli::ClipStageArg::All) || args.clip_strip.is_some();
        if clip_series && (!args.headless || compare.is_some()) {
            return Err(CliError::ClipStage(
                "--clip-stage all and --clip-strip write pictures of a headless run of one method: add --headless \
                 (without --compare)"
                    .into(),
            ));
        }
        if args.headless {
            if let Some(modes) = compare {
                return run_compare(args, scene, modes);
            }
            let mut summary = cli::run_headless(args, &mut scene)?;
            println!("scene            {}", scene.desc.name);
            if clip_series {
                println!("{summary}");
                let mut t = cli::testbed(args, scene)?;
                clip_pictures(args, &mut t)?;
                // `--clip-strip` beside a plain `--screenshot`: that picture too.
                if let (Some(path), false) = (&args.screenshot, args.clip_stage == Some(cli::ClipStageArg::All)) {
                    capture(args, &mut t, path)?;
                }
                return cli::check_finite(t.world());
            }
            let Some(path) = &args.screenshot else {
                println!("{summary}");
                return cli::check_finite(&scene.world);
            };
            let mut t = cli::testbed(args, scene)?;
            if args.frames.is_none() {
                println!("{summary}");
                capture(args, &mut t, path)?;
                return cli::check_finite(t.world());
            }
            // `--frames` steps while it captures: the summary counts those steps too.
            let (ran, ran_ms) = capture(args, &mut t, path)?;
            if ran > 0 {
                let steps = summary.steps + ran;
                let elapsed = summary.mean_step_ms * summary.steps as f64 + ran_ms;
                let deepest = summary.max_penetration.max(t.sides.main().max_penetration_run);
                summary = cli::Summary::of(t.world(), steps, deepest, elapsed);
            }
            println!("{summary}");
            // After the summary and the pictures: a run with frozen non-finite bodies fails with
            // its own exit code.
            return cli::check_finite(t.world());
        }
        let mut t = cli::testbed(args, scene)?;
        if let Some(modes) = compare {
            t.set_sides(&modes);
        }
        t.tools.capture.scale = args.scale;
        if let Some(trace) = &args.replay {
            t.open_replay(trace).map_err(CliError::Replay)?;
        }
        let opts = window::WindowOptions {
            quit_after: args.quit_after,
            screenshot: args.screenshot.clone(),
            play: args.play,
            plots: args.plots.clone(),
        };
        window::run(t, opts).map_err(CliError::Render)
    }

    /// `--headless --compare A,B[,C[,D]]`: every side's summary and trace, and one screenshot with
    /// the sides tiled.
    fn run_compare(args: &Cli, mut scene: LoadedScene, modes: Vec<SolverMode>) -> Result<(), CliError> {
        let run = cli::run_compare(args, &mut scene, &modes)?;
        println!("scene            {}", scene.desc.name);
        for (k, side) in run.iter().enumerate() {
            println!("\nside {}: {}", SIDE_NAMES[k], side.mode.name());
            println!("{}", side.summary);
        }
        if let Some(p) = &args.trace {
            let files: Vec<String> =
                (0..run.len()).map(|k| cli::side_path(p, &cli::side_letter(k)).display().to_string()).collect();
            println!("\ntraces           {}", files.join(", "));
        }
        let finite = run.iter().try_for_each(|s| cli::check_finite(&s.world));
        if let Some(path) = &args.screenshot {
            // The testbed starts from side A's state after the run (as a run of one method's does:
            // its pair records and clip stages are of the last step). The framing is the scene's
            // start's, as the window's comparison has it: side A's last state is one method's
            // outcome (a naive stack scattered), and every side shares the one camera. It is
            // written into the scene, so the testbed takes it as the scene's own (instead of
            // framing side A's last state, simulating again).
            scene.desc.camera = Some(contactlab::app::view_state::initial_camera(&scene).desc());
            scene.world = run[0].world.clone();
            let mut t = cli::testbed(args, scene)?;
            t.set_sides(&modes);
            for (k, side) in run.into_iter().enumerate() {
                if let Some(s) = t.sides.get_mut(k) {
                    *s = Side::new(side.world);
                    s.max_penetration_run = side.summary.max_penetration;
                }
            }
            capture(args, &mut t, path)?;
        }
        finite
    }

    /// `--clip-stage all` (one picture per stage into `--screenshot OUT`: OUT_0.png, OUT_1.png,
    /// …) and `--clip-strip OUT` (every stage side by side in one picture).
    fn clip_pictures(args: &Cli, t: &mut contactlab::app::Testbed) -> Result<(), CliError> {
        let all = args.clip_stage == Some(cli::ClipStageArg::All);
        let stages_into = match (&args.screenshot, all) {
            (Some(path), true) => Some(path),
            (None, true) => {
                return Err(CliError::ClipStage("--clip-stage all writes into --screenshot OUT.png: give one".into()))
            }
            (_, false) => None,
        };
        let svg = stages_into.is_some_and(|p| vector::is_svg(p));
        // Pictures from the GPU for the strip, and for the stages unless they are SVG.
        let images = if args.clip_strip.is_some() || (all && !svg) {
            headless::clip_stages(t, args.size, args.scale).map_err(CliError::ClipStage)?
        } else {
            Vec::new()
        };
        if let Some(path) = stages_into {
            let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let ext = if svg {
                "svg".to_string()
            } else {
                path.extension().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "png".into())
            };
            let file_of = |k: usize| path.with_file_name(format!("{stem}_{k}.{ext}"));
            let write = |k: usize, bytes: &[u8]| {
                let file = file_of(k);
                contactlab::app::output::save(&file, bytes).map_err(CliError::Render)?;
                println!("clip stage {k}     {}", file.display());
                Ok::<(), CliError>(())
            };
            if svg {
                for (k, doc) in vector::clip_stages(t, args.size).map_err(CliError::ClipStage)?.iter().enumerate() {
                    write(k, doc.as_bytes())?;
                }
            } else {
                for (k, img) in images.iter().enumerate() {
                    let bytes = contactlab::render::screenshot::image_bytes(img, &file_of(k))
                        .map_err(|e| CliError::Render(e.to_string()))?;
                    write(k, &bytes)?;
                }
            }
        }
        if let Some(path) = &args.clip_strip {
            contactlab::app::output::save_image(&headless::strip(&images), path).map_err(CliError::Render)?;
            println!("clip strip       {} ({} stages)", path.display(), images.len());
        }
        Ok(())
    }

    /// The screenshot after a headless run, or the `--frames` sequence; returns the steps the
    /// sequence ran and their time (ms).
    fn capture(args: &Cli, t: &mut contactlab::app::Testbed, path: &std::path::Path) -> Result<(u64, f64), CliError> {
        match args.frames {
            None => {
                headless::screenshot(t, args.size, args.scale, path).map_err(CliError::Render)?;
                println!("screenshot       {}", path.display());
                Ok((0, 0.0))
            }
            Some(n) => {
                let seq =
                    headless::sequence(t, args.size, args.scale, n, args.every, path).map_err(CliError::Render)?;
                let shown = match seq.files.as_slice() {
                    [one] => one.display().to_string(),
                    [first, .., last] => format!("{} … {}", first.display(), last.display()),
                    [] => String::new(),
                };
                println!("frames           {n}, {} steps apart: {shown}", args.every);
                Ok((seq.steps, seq.step_ms))
            }
        }
    }
}
