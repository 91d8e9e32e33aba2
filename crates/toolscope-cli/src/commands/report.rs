//! `toolscope report`: the whole report.

use anyhow::Result;

use super::{outcome, report_diagnostics};
use crate::cli::ReportArgs;
use crate::inputs::run_engine;
use crate::output::html::write_html;
use crate::output::{json::print_json, text::print_summary};
use crate::Outcome;

pub fn run(args: &ReportArgs) -> Result<Outcome> {
    let report = run_engine(&args.inputs, Some(&args.metrics))?;
    // Before printing: the file is written even when stdout is closed early (`| head`).
    if let Some(path) = &args.html {
        write_html(&report, args.title.clone(), path)?;
    }
    if args.json {
        print_json(&report)?;
    } else {
        print_summary(&report)?;
    }
    let has_input_errors = report_diagnostics(&report)?;
    Ok(outcome(has_input_errors, report.summary.problems > 0))
}
