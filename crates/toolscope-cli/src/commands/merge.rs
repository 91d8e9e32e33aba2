//! `toolscope merge`: reports of parts of a dataset merged into the report of the whole.

use anyhow::{bail, Result};
use toolscope_core::merge::{merge_reports, MergeError};
use toolscope_core::Report;

use super::diff::read_report_json;
use crate::cli::MergeArgs;
use crate::output::json::print_json;
use crate::Outcome;

pub fn run(args: &MergeArgs) -> Result<Outcome> {
    let mut parts: Vec<Report> = Vec::with_capacity(args.parts.len());
    for path in &args.parts {
        let Some(report) = read_report_json(path)? else {
            bail!(
                "{}: not a toolscope report JSON; make each part's with `toolscope report --json`",
                path.display()
            );
        };
        parts.push(report);
    }
    let merged = merge_reports(&parts).map_err(|error| anyhow::anyhow!(describe(&error, args)))?;
    print_json(&merged)?;
    Ok(Outcome::Clean)
}

/// The error with the part's file name (and the earlier part's, for a session in two).
fn describe(error: &MergeError, args: &MergeArgs) -> String {
    let name = |part: usize| args.parts[part].display().to_string();
    match error {
        MergeError::SessionInTwoParts {
            session_id,
            first,
            part,
        } => format!(
            "session {session_id:?} is in both {} and {}; split the data by session so that \
             each session is in one part only",
            name(*first),
            name(*part)
        ),
        _ => match error.part() {
            Some(part) => format!("{}: {error}", name(part)),
            None => error.to_string(),
        },
    }
}
