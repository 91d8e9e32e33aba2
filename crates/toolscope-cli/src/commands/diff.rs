//! `toolscope diff`: two runs compared metric by metric (`toolscope_core::compare::diff`).

use std::path::Path;

use anyhow::{bail, Context, Result};
use toolscope_core::compare::diff::{diff, DiffOptions, Verdict};
use toolscope_core::{Report, MAX_FILE_BYTES};

use super::report_diagnostics;
use crate::cli::{DiffArgs, InputArgs, MetricArgs};
use crate::inputs::run_engine;
use crate::output::diff::print_diff;
use crate::output::json::print_json_value;
use crate::Outcome;

pub fn run(args: &DiffArgs) -> Result<Outcome> {
    let (base, base_errors) = load_run(&args.base, args)?;
    let (current, current_errors) = load_run(&args.current, args)?;
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

/// A run: the report JSON in `path`, or the report of the trace file in `path` with the input
/// options; and whether reading it gave input errors (printed on stderr).
fn load_run(path: &Path, args: &DiffArgs) -> Result<(Report, bool)> {
    load_runs(
        &args.traces.with_inputs(vec![path.to_path_buf()]),
        &args.metrics,
    )
}

/// A run from `inputs`: the report JSON when they are one, else their report with the input
/// options; and whether reading gave input errors (printed on stderr).
pub(super) fn load_runs(inputs: &InputArgs, metrics: &MetricArgs) -> Result<(Report, bool)> {
    if let [path] = inputs.inputs.as_slice() {
        if let Some(report) = read_report_json(path)? {
            return Ok((report, false));
        }
    }
    let report = run_engine(inputs, Some(metrics))?;
    let has_errors = report_diagnostics(&report.diagnostics)?;
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
    // A report parses straight into its type (half the time of a `Value` first, which matters
    // for `merge` of large parts); anything else is looked at as a `Value` to say what it is.
    if let Ok(report) = serde_json::from_slice::<Report>(&bytes) {
        return Ok(Some(report));
    }
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
        return Ok(None);
    };
    let is_report = value.as_object().is_some_and(|object| {
        ["toolscope_version", "summary", "sessions"]
            .iter()
            .all(|key| object.contains_key(*key))
    });
    if !is_report {
        return Ok(None);
    }
    serde_json::from_value::<Report>(value)
        .map(Some)
        .with_context(|| {
            format!(
                "{name}: a toolscope report JSON that cannot be read (made by another version? \
                 make it again with this one's `toolscope report --json`)"
            )
        })
}
