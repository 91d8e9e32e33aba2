//! `toolscope diff`: two runs compared metric by metric (`toolscope_core::compare::diff`).

use std::path::Path;

use anyhow::{bail, Context, Result};
use toolscope_core::compare::diff::{diff, DiffOptions, Verdict};
use toolscope_core::report::{read_report, ReadReportError};
use toolscope_core::{Report, MAX_FILE_BYTES};

use super::report_diagnostics;
use crate::cli::{DiffArgs, InputArgs, MetricArgs};
use crate::inputs::run_engine;
use crate::output::diff::print_diff;
use crate::output::json::print_json_value;
use crate::Outcome;

pub fn run(args: &DiffArgs) -> Result<Outcome> {
    let ((base, base_errors), (current, current_errors)) = load_both(
        &args.traces.with_inputs(vec![args.base.clone()]),
        &args.traces.with_inputs(vec![args.current.clone()]),
        &args.metrics,
    )?;
    let options = DiffOptions {
        seed: args.seed,
        resamples: args.resamples as usize,
        min_cases: args.min_cases,
        alpha: args.alpha,
    };
    let compared = diff(&base, &current, &options);
    if args.json {
        print_json_value(&compared)?;
    } else {
        print_diff(&compared, &args.base, &args.current)?;
    }
    if base_errors || current_errors {
        return Ok(Outcome::InputError);
    }
    let is_worse = compared
        .metrics
        .iter()
        .any(|row| row.verdict == Verdict::Worse);
    Ok(if is_worse {
        Outcome::ProblemsFound
    } else {
        Outcome::Clean
    })
}

/// Two runs read at once, each on a thread of its own ([`load_runs`]); the first one's
/// diagnostics are printed before the second's, and the first one's error wins. One after the
/// other when either reads standard input.
pub(super) fn load_both(
    first: &InputArgs,
    second: &InputArgs,
    metrics: &MetricArgs,
) -> Result<((Report, bool), (Report, bool))> {
    let reads_stdin = |inputs: &InputArgs| inputs.inputs.iter().any(|path| path == Path::new("-"));
    if reads_stdin(first) || reads_stdin(second) {
        return Ok((load_runs(first, metrics)?, load_runs(second, metrics)?));
    }
    let (first, second) = std::thread::scope(|scope| {
        let second = scope.spawn(|| load_unprinted(second, metrics));
        let first = load_unprinted(first, metrics);
        // A panic in the thread is the command's panic, as it would have been on this thread.
        let second = second
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (first, second)
    });
    let first = with_diagnostics_printed(first?)?;
    let second = with_diagnostics_printed(second?)?;
    Ok((first, second))
}

/// A run from `inputs`: the report JSON when they are one, else their report with the input
/// options; and whether reading gave input errors (printed on stderr).
pub(super) fn load_runs(inputs: &InputArgs, metrics: &MetricArgs) -> Result<(Report, bool)> {
    with_diagnostics_printed(load_unprinted(inputs, metrics)?)
}

/// [`load_runs`] before its diagnostics are printed: the report, and whether it was made from
/// traces (a report read whole is not checked again).
fn load_unprinted(inputs: &InputArgs, metrics: &MetricArgs) -> Result<(Report, bool)> {
    if let [path] = inputs.inputs.as_slice() {
        if let Some(report) = read_report_json(path)? {
            return Ok((report, false));
        }
    }
    Ok((run_engine(inputs, Some(metrics))?, true))
}

/// Prints the diagnostics of a report made from traces: the report, and whether any was an
/// error.
fn with_diagnostics_printed((report, is_from_traces): (Report, bool)) -> Result<(Report, bool)> {
    let has_errors = is_from_traces && report_diagnostics(&report.diagnostics)?;
    Ok((report, has_errors))
}

/// The report in `path` when the file is a toolscope report JSON (an object with
/// `toolscope_version`, `summary` and `sessions`); None when it is something else (a trace).
pub(super) fn read_report_json(path: &Path) -> Result<Option<Report>> {
    if path == Path::new("-") {
        return Ok(None);
    }
    let name = path.display();
    let size = std::fs::metadata(path)
        .with_context(|| format!("reading {name}"))?
        .len();
    if size > MAX_FILE_BYTES {
        bail!("{name}: larger than {MAX_FILE_BYTES} bytes, the most toolscope reads from one file");
    }
    let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
    // Someone else may have written it: no number of it is used before it is possible.
    match read_report(&bytes) {
        Ok(report) => Ok(Some(report)),
        Err(ReadReportError::NotAReport) => Ok(None),
        Err(error) => Err(anyhow::anyhow!("{name}: {error}")),
    }
}
