//! Prints the methods table of docs/methods.md: every resolution method on the same scenes
//! (`contactlab::scene::methods_table` says what each column measures).
//!
//! `cargo run --release --bin methods-table [SECONDS]` (default 10 s for the stack, the
//! pyramid and the pile).

use contactlab::physics::SolverMode;
use contactlab::scene::methods_table::{markdown, measure};
use std::process::ExitCode;

fn main() -> ExitCode {
    let seconds = match std::env::args().nth(1).map(|s| s.parse::<f32>()) {
        None => 10.0,
        Some(Ok(s)) if s > 0.0 && s <= 600.0 => s,
        Some(_) => {
            eprintln!("error: the argument is the simulated time in seconds (0 < s ≤ 600), e.g. 10");
            return ExitCode::from(2);
        }
    };
    let rows: Vec<_> = SolverMode::ALL.into_iter().map(|m| measure(m, seconds)).collect();
    print!("{}", markdown(&rows));
    ExitCode::SUCCESS
}
