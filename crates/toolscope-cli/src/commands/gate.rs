//! `toolscope gate`: a run checked against a config of thresholds and baseline rules
//! (`toolscope_core::gate`).

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use toolscope_core::gate::config::parse_config;
use toolscope_core::gate::evaluate;
use toolscope_core::gate::markdown::markdown;

use super::diff::{load_both, load_runs};
use crate::cli::GateArgs;
use crate::output::files::{open_appending, write_replacing};
use crate::output::gate::{junit, print_gate};
use crate::output::json::print_json_value;
use crate::Outcome;

/// The most bytes of config read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

pub fn run(args: &GateArgs) -> Result<Outcome> {
    let name = args.config.display();
    let size = std::fs::metadata(&args.config)
        .with_context(|| format!("reading {name}"))?
        .len();
    anyhow::ensure!(
        size <= MAX_CONFIG_BYTES,
        "{name}: a gate config over 1 MiB is not one"
    );
    let text = std::fs::read_to_string(&args.config).with_context(|| format!("reading {name}"))?;
    let config = parse_config(&text).map_err(|error| anyhow::anyhow!("{name}: {error}"))?;
    let inputs = args.traces.with_inputs(args.inputs.clone());
    let ((current, current_errors), baseline) = match &args.baseline {
        Some(path) => {
            let baseline = args.traces.with_inputs(vec![path.clone()]);
            let (current, baseline) = load_both(&inputs, &baseline, &args.metrics)?;
            (current, Some(baseline))
        }
        None => (load_runs(&inputs, &args.metrics)?, None),
    };
    let result = evaluate(
        &config,
        &current,
        baseline.as_ref().map(|(report, _)| report),
    );
    let text = markdown(&result, args.report_url.as_deref(), &current.findings);
    if let Some(path) = &args.markdown {
        write_replacing(path, text.as_bytes())?;
    }
    if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|path| !path.is_empty()) {
        let mut file =
            open_appending(Path::new(&summary)).context("appending to $GITHUB_STEP_SUMMARY")?;
        file.write_all(text.as_bytes())
            .and_then(|()| file.write_all(b"\n"))
            .context("appending to $GITHUB_STEP_SUMMARY")?;
    }
    if let Some(path) = &args.junit {
        write_replacing(path, junit(&result).as_bytes())?;
    }
    if args.json {
        print_json_value(&result)?;
    } else {
        print_gate(&result)?;
    }
    let has_input_errors = current_errors || baseline.is_some_and(|(_, errors)| errors);
    Ok(if has_input_errors {
        Outcome::InputError
    } else if result.passed {
        Outcome::Clean
    } else {
        Outcome::ProblemsFound
    })
}
