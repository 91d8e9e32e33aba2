//! `toolscope report`: the whole report.

use std::io::Write;

use anyhow::Result;
use toolscope_core::{Diagnostic, Report};

use super::{outcome, report_diagnostics};
use crate::cli::{ReportArgs, ReportOutputArgs};
use crate::inputs::{published_renames, run_engine_keeping};
use crate::output::html::write_html;
use crate::output::{json::print_json_with, text::print_summary};
use crate::Outcome;

pub fn run(args: &ReportArgs) -> Result<Outcome> {
    let report = analyze(args)?;
    print_report(report, &args.output)
}

/// Prints the report as `output` asks (text, or JSON whole or summary), then every diagnostic,
/// and gives the exit outcome; `report` and `open` print alike.
pub(crate) fn print_report(report: Report, output: &ReportOutputArgs) -> Result<Outcome> {
    let has_problems = report.summary.problems > 0;
    // Every diagnostic after the output (a closed stdout ends the run quietly before them), even
    // those a summary report leaves out.
    let (diagnostics, rest) = if output.json {
        print_json_with(|out| write_json_leaving(report, output, out))?
    } else {
        print_summary(&report)?;
        let mut report = report;
        (std::mem::take(&mut report.diagnostics), report)
    };
    // The process ends after this command: freeing every row of a large report one by one (a
    // few percent of a call-dense run) is left to the exit.
    std::mem::forget(rest);
    let has_input_errors = report_diagnostics(&diagnostics)?;
    Ok(outcome(has_input_errors, has_problems))
}

/// The report the arguments ask for. The HTML file, when asked for, is written here: before
/// anything is printed, so it is written even when stdout is closed early (`| head`).
pub fn analyze(args: &ReportArgs) -> Result<Report> {
    let output = &args.output;
    // Only the summary report is printed: the sessions' rows need not be kept.
    let keeps_rows = !(output.json && output.summary) || output.html.is_some();
    let mut report = run_engine_keeping(&args.inputs, Some(&args.metrics), keeps_rows)?;
    if let Some(path) = &output.html {
        if args.publish_paths {
            write_html(&report, output.title.clone(), path)?;
        } else {
            // An HTML report is a file to pass on: its inputs are named by their base names
            // there; what this command prints keeps the names as given.
            let renames = published_renames(&report);
            let diagnostics = report.diagnostics.clone();
            report.rename_files(&renames);
            write_html(&report, output.title.clone(), path)?;
            let back: Vec<(String, String)> =
                renames.into_iter().map(|(old, new)| (new, old)).collect();
            report.rename_files(&back);
            report.diagnostics = diagnostics;
        }
    }
    Ok(report)
}

/// Writes the report as `report --json` prints it (the summary report for `--summary`, on one
/// line for `--compact`) and returns all its diagnostics, those a summary report leaves out
/// included.
pub fn write_json(
    report: Report,
    args: &ReportArgs,
    out: &mut dyn Write,
) -> std::io::Result<Vec<Diagnostic>> {
    write_json_leaving(report, &args.output, out).map(|(diagnostics, _)| diagnostics)
}

/// [`write_json`], also giving back what is left of the report (without its diagnostics).
fn write_json_leaving(
    report: Report,
    output: &ReportOutputArgs,
    out: &mut dyn Write,
) -> std::io::Result<(Vec<Diagnostic>, Report)> {
    if output.summary {
        let diagnostics = report.diagnostics.clone();
        let summary = report.into_summary();
        summary.write_json_as(out, output.compact)?;
        Ok((diagnostics, summary))
    } else {
        let mut report = report;
        report.write_json_as(&mut *out, output.compact)?;
        Ok((std::mem::take(&mut report.diagnostics), report))
    }
}
