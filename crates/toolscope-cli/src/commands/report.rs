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
    let has_problems = report.summary.problems > 0;
    // Every diagnostic after the output (a closed stdout ends the run quietly before them), even
    // those a summary report leaves out.
    let diagnostics = match (args.json, args.summary) {
        (true, true) => {
            let diagnostics = report.diagnostics.clone();
            print_json(&report.into_summary())?;
            diagnostics
        }
        (true, false) => {
            print_json(&report)?;
            report.diagnostics
        }
        _ => {
            print_summary(&report)?;
            report.diagnostics
        }
    };
    let has_input_errors = report_diagnostics(&diagnostics)?;
    Ok(outcome(has_input_errors, has_problems))
}
