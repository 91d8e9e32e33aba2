//! Reports of parts of a dataset merged into the report of the whole.
//!
//! Every figure in a [`Report`] is counted, so reports made on parts of a dataset (split by
//! session) merge exactly: [`merge_reports`] rebuilds each aggregate from the per-session and
//! per-turn rows the parts carry, with the same functions [`crate::analyze`] uses
//! ([`summarize_sessions`], [`crate::metrics::selection::summarize`],
//! [`crate::metrics::task_actions::summarize_tasks`], [`crate::metrics::trials::trials_of`],
//! [`crate::judge::summary::summarize_with_agents`] and
//! [`crate::judge::calibration::merge_calibrations`]).
//! Nothing is averaged: rates, intervals, F1, the confusion matrix, pass^k and the judge's κ
//! are recomputed from the merged counts (κ from the merged judge-vs-human confusion), and the
//! orderings (sessions worst first, problems by session then step, tools by name) are made
//! again.
//!
//! The merged report is the report of the parts' data taken in the order given: for parts
//! that are consecutive pieces of one file, in order, it is the report of that file (inputs
//! aside, which list the parts). Parts in another order give the same numbers; only rows that
//! tie (sessions with as many problems and errors, labelled turns) keep the parts' order.
//!
//! ```
//! use toolscope_core::{InputFile, Options, Role};
//! use toolscope_core::merge::merge_reports;
//!
//! let line = |id: &str, tool: &str| {
//!     format!(r#"{{"session_id":"{id}","events":[{{"type":"user","content":"hi"}},{{"type":"tool_use","name":"{tool}","args":{{}}}}]}}"#)
//! };
//! let report_of = |name: &str, text: &str| {
//!     toolscope_core::analyze(&[InputFile::new(name, text.as_bytes(), Role::Traces)], &Options::default())
//! };
//! let (a, b) = (line("a", "search"), line("b", "lookup"));
//! let whole = report_of("all.jsonl", &format!("{a}\n{b}\n"));
//! let merged = merge_reports(&[report_of("1.jsonl", &a), report_of("2.jsonl", &b)]).unwrap();
//! assert_eq!(merged.summary, whole.summary);
//! assert_eq!(merged.tools, whole.tools);
//! assert!(merge_reports(&[whole.clone(), whole.clone()]).is_err()); // a session in two parts
//! assert!(merge_reports(&[whole.into_summary()]).is_err()); // no sessions to merge
//! ```

mod error;
mod judge;
mod sections;

pub use error::MergeError;

use crate::checks::problem::Problem;
use crate::hashing::{HashMap, HashMapExt};
use crate::metrics::trials::trials_of;
use crate::report::{summarize_sessions, Report, SessionSummary};

/// Merges reports of disjoint parts of a dataset (split by session) into the report of the
/// whole. `inputs` and `diagnostics` are the parts', in the order given.
///
/// Errors when there are no parts, when a part was made by another toolscope version, when a
/// session is in two parts, or when parts were made with different `min_support`.
pub fn merge_reports(parts: &[Report]) -> Result<Report, MergeError> {
    if parts.is_empty() {
        return Err(MergeError::NoParts);
    }
    check_versions(parts)?;
    check_sessions_disjoint(parts)?;
    check_mergeable(parts)?;

    let (summary, sessions, problems) = summarize_sessions(session_rows(parts));
    let judge = judge::merge_judge(parts, &sessions, &problems);
    let trials = trials_of(
        sessions
            .iter()
            .filter_map(|row| Some((row.task_id.as_deref()?, row.trial?))),
    );
    let mut report = Report {
        toolscope_version: crate::VERSION.to_string(),
        inputs: parts
            .iter()
            .flat_map(|part| part.inputs.iter().cloned())
            .collect(),
        summary,
        problems,
        sessions,
        tools: sections::merge_tools(parts),
        selection: sections::merge_selection(parts)?,
        tasks: sections::merge_tasks(parts),
        drift: sections::merge_drift(parts),
        diagnostics: parts
            .iter()
            .flat_map(|part| part.diagnostics.iter().cloned())
            .collect(),
        judge,
        trials,
        findings: Vec::new(),
        omitted: None,
    };
    report.findings = crate::findings::findings(&report, &descriptions_in(parts));
    Ok(report)
}

/// The tools' descriptions the parts' findings show (confused tools, side by side): every pair
/// confused in the whole is confused in some part, which shows both descriptions when known.
pub(crate) fn descriptions_in(parts: &[Report]) -> std::collections::BTreeMap<String, String> {
    let mut descriptions = std::collections::BTreeMap::new();
    for finding in parts.iter().flat_map(|part| &part.findings) {
        let Some((expected, actual)) = finding
            .id
            .strip_prefix("confused_tools:")
            .and_then(|pair| pair.split_once('→'))
        else {
            continue;
        };
        for (tool, line) in [
            (expected, finding.evidence.first()),
            (actual, finding.evidence.get(1)),
        ] {
            if let Some(description) = line.and_then(|line| line.strip_prefix(&format!("{tool}: ")))
            {
                descriptions
                    .entry(tool.to_string())
                    .or_insert_with(|| description.to_string());
            }
        }
    }
    descriptions
}

/// Every part was made by this toolscope: the rows mean what this engine's functions expect.
fn check_versions(parts: &[Report]) -> Result<(), MergeError> {
    match parts
        .iter()
        .position(|part| part.toolscope_version != crate::VERSION)
    {
        Some(part) => Err(MergeError::Version {
            part,
            found: parts[part].toolscope_version.clone(),
            expected: crate::VERSION.to_string(),
        }),
        None => Ok(()),
    }
}

/// No session is in two parts.
fn check_sessions_disjoint(parts: &[Report]) -> Result<(), MergeError> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (part, report) in parts.iter().enumerate() {
        for row in &report.sessions {
            if let Some(&first) = seen.get(row.session_id.as_str()) {
                return Err(MergeError::SessionInTwoParts {
                    session_id: row.session_id.clone(),
                    first,
                    part,
                });
            }
            seen.insert(&row.session_id, part);
        }
    }
    Ok(())
}

/// Every section the parts have can be rebuilt from what they carry.
fn check_mergeable(parts: &[Report]) -> Result<(), MergeError> {
    for (part, report) in parts.iter().enumerate() {
        if report.is_summary() {
            return Err(MergeError::Unsupported {
                part,
                reason: "it is a summary report (report --json --summary), which keeps no \
                         sessions to merge; merge full reports"
                    .to_string(),
            });
        }
        let has_trial_rows = report.sessions.iter().any(|row| row.trial.is_some());
        if report.trials.is_some() && !has_trial_rows {
            return Err(MergeError::Unsupported {
                part,
                reason: "it has trials but its sessions do not carry their task and reward \
                         (it was made by an earlier build); make it again"
                    .to_string(),
            });
        }
    }
    Ok(())
}

/// Each part's sessions with their problems, parts in the order given and each part's
/// sessions in its report's order (worst first, ties in its input order), so that the stable
/// sort in [`summarize_sessions`] leaves ties in the order of the parts' data.
fn session_rows(parts: &[Report]) -> Vec<(SessionSummary, Vec<Problem>)> {
    let mut rows = Vec::new();
    for report in parts {
        let mut problems: HashMap<&str, Vec<Problem>> = HashMap::new();
        for problem in &report.problems {
            problems
                .entry(problem.session_id.as_str())
                .or_default()
                .push(problem.clone());
        }
        for row in &report.sessions {
            let found = problems.remove(row.session_id.as_str()).unwrap_or_default();
            rows.push((row.clone(), found));
        }
    }
    rows
}
