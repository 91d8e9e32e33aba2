//! `toolscope`: the toolscope engine on the command line.
//!
//! Exit codes: 0 clean, 1 problems found, 2 usage or input error (a file that cannot be read,
//! or input diagnostics of severity error; for `judge`, also a run where not one request was
//! answered). A closed stdout (`| head`) ends quietly.
//!
//! Text output goes through `output::terminal`, which escapes everything from the input; the
//! print macros are denied here and `clippy.toml` forbids `std::io::stdout`/`stderr`, so no
//! other path to the terminal exists but clap's own messages, whose quoted arguments
//! `cli::parse` escapes (and `clippy.toml` forbids `Parser::parse`, which would not).
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;
mod commands;
mod http;
mod inputs;
mod output;

use std::io::ErrorKind;
use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// What a command found, mapped to the exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing wrong.
    Clean,
    /// The agent's calls have problems.
    ProblemsFound,
    /// The input itself had errors (reported on stderr).
    InputError,
}

fn main() -> ExitCode {
    let cli = cli::parse();
    match commands::run(cli) {
        Ok(Outcome::Clean) => ExitCode::SUCCESS,
        Ok(Outcome::ProblemsFound) => ExitCode::from(1),
        Ok(Outcome::InputError) => ExitCode::from(2),
        Err(error) => {
            if is_broken_pipe(&error) {
                return ExitCode::SUCCESS;
            }
            // The message can quote a path or input: written as a line like any other. If stderr
            // itself fails there is nowhere left to say so.
            let mut err = output::terminal::stderr();
            let _ = err.line(format_args!("toolscope: error: {error:#}"));
            let _ = err.flush();
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == ErrorKind::BrokenPipe)
    })
}
