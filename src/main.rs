//! The `contactlab` binary: parses the command line, then opens the window or runs headless.

use clap::Parser;
use contactlab::cli::{self, Cli};
use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let args = Cli::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &Cli) -> Result<(), cli::CliError> {
    let mut scene = cli::load_scene(args)?;
    let _selection = cli::selected_pair(args, &scene)?;
    if args.headless || args.screenshot.is_some() {
        let summary = cli::run_headless(args, &mut scene)?;
        println!("scene            {}", scene.desc.name);
        println!("{summary}");
        if args.screenshot.is_some() {
            return Err(cli::CliError::Render("--screenshot needs the renderer, which is not built yet".into()));
        }
        return Ok(());
    }
    eprintln!("contactlab: the window is not built yet; running '{}' headless instead", scene.desc.name);
    let summary = cli::run_headless(args, &mut scene)?;
    println!("{summary}");
    Ok(())
}
