//! The summary report: every aggregate of the full report, without the lists that grow with the
//! input (per session, per problem, per labelled turn, per task, per verdict), so that it stays a
//! few kilobytes whatever the input: what a CI job keeps as its baseline (docs/report-json.md).

use serde::{Deserialize, Serialize};

use super::Report;

/// Diagnostics a summary report keeps (the first ones, in the full report's order).
pub const SUMMARY_DIAGNOSTICS: usize = 100;

/// Findings a summary report keeps (the first ones: the most sessions first).
pub const SUMMARY_FINDINGS: usize = 20;

/// What a summary report left out of the full report, by list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Omitted {
    /// `problems`.
    pub problems: u64,
    /// `sessions`.
    pub sessions: u64,
    /// `selection.outcomes`.
    pub turn_outcomes: u64,
    /// `tasks.outcomes`.
    pub task_outcomes: u64,
    /// `judge.verdicts`.
    pub verdicts: u64,
    /// `trials.per_task`.
    pub trial_tasks: u64,
    /// `diagnostics` past the first [`SUMMARY_DIAGNOSTICS`].
    pub diagnostics: u64,
    /// `findings` past the first [`SUMMARY_FINDINGS`].
    pub findings: u64,
}

impl Report {
    /// The summary of this report: the same aggregates, with `omitted` saying how many entries
    /// of each per-item list were left out (those lists are empty).
    pub fn into_summary(mut self) -> Report {
        let mut omitted = self.omitted.unwrap_or_default();
        omitted.problems += take(&mut self.problems);
        omitted.sessions += take(&mut self.sessions);
        if let Some(selection) = &mut self.selection {
            omitted.turn_outcomes += take(&mut selection.outcomes);
        }
        if let Some(tasks) = &mut self.tasks {
            omitted.task_outcomes += take(&mut tasks.outcomes);
        }
        if let Some(judge) = &mut self.judge {
            omitted.verdicts += take(&mut judge.verdicts);
        }
        if let Some(trials) = &mut self.trials {
            omitted.trial_tasks += take(&mut trials.per_task);
        }
        if self.diagnostics.len() > SUMMARY_DIAGNOSTICS {
            omitted.diagnostics += self.diagnostics.split_off(SUMMARY_DIAGNOSTICS).len() as u64;
        }
        if self.findings.len() > SUMMARY_FINDINGS {
            omitted.findings += self.findings.split_off(SUMMARY_FINDINGS).len() as u64;
        }
        self.omitted = Some(omitted);
        self
    }

    /// Whether this is a summary report ([`Report::into_summary`]).
    pub fn is_summary(&self) -> bool {
        self.omitted.is_some()
    }
}

/// Empties `list` and says how long it was.
fn take<T>(list: &mut Vec<T>) -> u64 {
    let len = list.len() as u64;
    *list = Vec::new();
    len
}

#[cfg(test)]
mod tests {
    use crate::{analyze, InputFile, Options, Role};

    #[test]
    fn a_summary_keeps_the_aggregates_and_counts_what_it_left_out() {
        let mut traces = String::new();
        for i in 0..150 {
            traces.push_str(&format!(
                "{{\"session_id\": \"s{i}\", \"events\": [{{\"type\": \"tool_use\", \"name\": \"t{i}\", \"args\": {{}}}}]}}\nnot json {i}\n"
            ));
        }
        let tools = br#"[{"name": "t0", "parameters": {"type": "object"}}]"#;
        let full = analyze(
            &[
                InputFile::new("tools.json", tools, Role::Catalog),
                InputFile::new("t.jsonl", traces.as_bytes(), Role::Traces),
            ],
            &Options::default(),
        );
        assert_eq!(full.diagnostics.len(), 150);
        let summary = full.clone().into_summary();
        let omitted = summary.omitted.expect("a summary says what it left out");
        assert_eq!(omitted.sessions, 150);
        assert_eq!(omitted.problems, full.problems.len() as u64);
        assert_eq!(omitted.diagnostics, 50);
        assert_eq!(summary.diagnostics[..], full.diagnostics[..100]);
        assert_eq!(summary.summary, full.summary);
        assert_eq!(summary.tools, full.tools);
        assert!(summary.sessions.is_empty() && summary.problems.is_empty());
        assert!(summary.is_summary() && !full.is_summary());
        // It reads back as a report, and summarising twice changes nothing.
        let json = serde_json::to_string(&summary).unwrap();
        let read: crate::Report = serde_json::from_str(&json).unwrap();
        assert_eq!(read.clone().into_summary(), read);
    }
}
