//! `toolscope score`: per-tool precision and recall against labels.

use anyhow::{bail, Result};

use super::{outcome, report_diagnostics};
use crate::cli::ScoreArgs;
use crate::inputs::run_engine;
use crate::output::text::{print_confusion, print_selection};
use crate::Outcome;

pub fn run(args: &ScoreArgs) -> Result<Outcome> {
    let report = run_engine(&args.inputs, Some(&args.metrics))?;
    let has_input_errors = report_diagnostics(&report)?;
    let Some(selection) = &report.selection else {
        bail!("no labels to score against: give --labels FILE, or eval cases that carry them");
    };
    print_selection(selection)?;
    if args.confusion {
        print_confusion(selection)?;
    }
    Ok(outcome(has_input_errors, false))
}
