//! One module per subcommand.

mod bundle;
mod check;
mod diff;
mod gate;
mod judge;
mod merge;
mod open;
pub(crate) mod report;
mod score;
mod share;

use anyhow::Result;
use toolscope_core::{Diagnostic, Severity};

use crate::cli::{Cli, Command};
use crate::output::text::print_diagnostics;
use crate::Outcome;

/// Runs the chosen subcommand.
pub fn run(cli: Cli) -> Result<Outcome> {
    match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Report(args) => report::run(&args),
        Command::Share(args) => share::run(&args),
        Command::Bundle(args) => bundle::run(&args),
        Command::Open(args) => open::run(&args),
        Command::Judge(args) => judge::run(&args),
        Command::Diff(args) => diff::run(&args),
        Command::Gate(args) => gate::run(&args),
        Command::Merge(args) => merge::run(&args),
    }
}

/// Prints input diagnostics on stderr and says whether any was an error.
fn report_diagnostics(diagnostics: &[Diagnostic]) -> Result<bool> {
    print_diagnostics(diagnostics)?;
    Ok(diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error))
}

/// The exit outcome: input errors first, then problems.
pub(crate) fn outcome(has_input_errors: bool, has_problems: bool) -> Outcome {
    if has_input_errors {
        Outcome::InputError
    } else if has_problems {
        Outcome::ProblemsFound
    } else {
        Outcome::Clean
    }
}
