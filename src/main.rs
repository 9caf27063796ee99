//! The `contactlab` binary: parses the command line, then opens the window or runs headless.

use clap::Parser;
use contactlab::app::{headless, window};
use contactlab::cli::{self, Cli, CliError};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Cli::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

fn run(args: &Cli) -> Result<(), CliError> {
    let mut scene = cli::load_scene(args)?;
    cli::selected_pair(args, &scene)?;
    if args.clip_stage.is_some() && args.select.is_empty() {
        return Err(CliError::ClipStage("select a pair with --select A,B first".into()));
    }
    if args.headless {
        let summary = cli::run_headless(args, &mut scene)?;
        println!("scene            {}", scene.desc.name);
        println!("{summary}");
        // After the summary, the trace and the screenshot: a run with frozen non-finite
        // bodies fails with its own exit code.
        let finite = cli::check_finite(&scene.world);
        if let Some(path) = &args.screenshot {
            let mut t = cli::testbed(args, scene)?;
            headless::screenshot(&mut t, args.size, path).map_err(CliError::Render)?;
            println!("screenshot       {}", path.display());
        }
        return finite;
    }
    let t = cli::testbed(args, scene)?;
    let opts =
        window::WindowOptions { quit_after: args.quit_after, screenshot: args.screenshot.clone(), play: args.play };
    window::run(t, opts).map_err(CliError::Render)
}
