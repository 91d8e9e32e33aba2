//! The `toolscope` command line as a library: [`run`] is the whole CLI for given arguments (the
//! `toolscope` binary is `main.rs` calling it), and [`report_json`] is `toolscope report --json`
//! returning its output instead of printing it. The Python package (`crates/toolscope-py`) calls
//! both, so the `toolscope-eval` wheel runs exactly this code, option handling and JSON included.
//!
//! Exit codes: 0 clean, 1 problems found, 2 usage or input error (a file that cannot be read,
//! or input diagnostics of severity error; for `judge`, also a run where not one request was
//! answered). A closed stdout (`| head`) ends quietly.
//!
//! Text output goes through `output::terminal`, which escapes everything from the input; the
//! print macros are denied here and `clippy.toml` forbids `std::io::stdout`/`stderr`, so no
//! other path to the terminal exists but clap's own messages, whose quoted arguments
//! `cli::parse_from` escapes (and `clippy.toml` forbids `Parser::parse`, which would not).
//!
//! ```no_run
//! // `toolscope report --json --tools tools.json calls.json`, without printing it.
//! let output = toolscope_cli::report_json(["--tools", "tools.json", "calls.json"]).unwrap();
//! assert!(output.json.starts_with('{'));
//! println!("exit code {}", output.exit_code);
//! ```
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;
mod commands;
mod fetch;
mod http;
mod inputs;
mod output;
mod report_json;

use std::ffi::OsString;
use std::io::ErrorKind;

pub use output::escape::terminal_safe;
pub use report_json::{report_json, JsonReport, ReportError};

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

impl Outcome {
    /// The process exit code: 0, 1 or 2.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Clean => 0,
            Outcome::ProblemsFound => 1,
            Outcome::InputError => 2,
        }
    }
}

/// Runs the CLI on `args` (the program name first, as `std::env::args_os` gives them) and
/// returns its exit code. An invalid command line ends the process with clap's message and code
/// 2, as does `--help` (code 0): the CLI's own behaviour, wherever it runs.
pub fn run<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = cli::parse_from(args);
    match commands::run(cli) {
        Ok(outcome) => outcome.exit_code(),
        Err(error) => {
            if is_broken_pipe(&error) {
                return 0;
            }
            // The message can quote a path or input: written as a line like any other. If stderr
            // itself fails there is nowhere left to say so.
            let mut err = output::terminal::stderr();
            let _ = err.line(format_args!("toolscope: error: {error:#}"));
            let _ = err.flush();
            2
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
