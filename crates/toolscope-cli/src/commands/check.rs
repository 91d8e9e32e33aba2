//! `toolscope check`: the code checks, one problem per line in the seed's wording.

use anyhow::Result;

use super::{outcome, report_diagnostics};
use crate::cli::CheckArgs;
use crate::inputs::run_engine;
use crate::output::text::print_problems;
use crate::Outcome;

pub fn run(args: &CheckArgs) -> Result<Outcome> {
    let report = run_engine(&args.inputs, None)?;
    print_problems(&report)?;
    let has_input_errors = report_diagnostics(&report.diagnostics)?;
    Ok(outcome(has_input_errors, report.summary.problems > 0))
}
