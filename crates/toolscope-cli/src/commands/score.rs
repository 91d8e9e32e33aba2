//! `toolscope score`: per-tool precision and recall against labels.

use anyhow::{bail, Result};

use super::{outcome, report_diagnostics};
use crate::cli::ScoreArgs;
use crate::inputs::run_engine;
use crate::output::text::{
    print_arguments, print_confusion, print_selection, print_tasks, print_trials,
};
use crate::Outcome;

pub fn run(args: &ScoreArgs) -> Result<Outcome> {
    let report = run_engine(&args.inputs, Some(&args.metrics))?;
    let has_input_errors = report_diagnostics(&report.diagnostics)?;
    if report.selection.is_none() && report.tasks.is_none() && report.trials.is_none() {
        bail!(
            "no labels to score against: give --labels FILE, or traces that carry them (eval \
             cases, BFCL answers, τ-bench runs)"
        );
    }
    if let Some(selection) = &report.selection {
        print_selection(selection)?;
        if args.confusion {
            print_confusion(selection)?;
        }
        print_arguments(selection)?;
    }
    if let Some(tasks) = &report.tasks {
        print_tasks(tasks)?;
    }
    if let Some(trials) = &report.trials {
        print_trials(trials)?;
    }
    Ok(outcome(has_input_errors, false))
}
