//! A report someone else wrote, checked before any of its numbers is used: `merge`, `diff` and
//! `gate` read reports and baselines from files, and a count in one becomes a loop bound (one
//! observation per call), an allocation or an interval's input. An impossible report (a count
//! above its total, rows that do not add up to the summary, more calls than the file could
//! stand for) is refused, naming the field, before anything is computed from it.

use super::Report;
use crate::metrics::rate::Rate;

/// The most calls a report may claim per byte of its file. A full report has a row of well over
/// a hundred bytes per session and real sessions a few to a few thousand calls, so real reports
/// stay far below this; it keeps the work of comparing a report linear in its file's size.
pub const MAX_CALLS_PER_REPORT_BYTE: u64 = 64;

/// What is impossible in a report, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {why}")]
pub struct ImpossibleReport {
    /// The field, as a path into the report JSON (`sessions[3].calls_with_problems`).
    pub field: String,
    /// What is wrong with it.
    pub why: String,
}

fn impossible(field: impl Into<String>, why: impl Into<String>) -> ImpossibleReport {
    ImpossibleReport {
        field: field.into(),
        why: why.into(),
    }
}

/// `count` ≤ `total`.
fn at_most(field: &str, count: u64, total: u64) -> Result<(), ImpossibleReport> {
    if count > total {
        return Err(impossible(
            field,
            format!("{count} is more than its total {total}"),
        ));
    }
    Ok(())
}

fn rate(field: &str, rate: &Rate) -> Result<(), ImpossibleReport> {
    at_most(&format!("{field}.count"), rate.count, rate.total)
}

impl Report {
    /// Checks that the report could have been made by toolscope from real input, given its
    /// file's size in bytes; the first impossible field otherwise.
    pub fn check_possible(&self, file_bytes: u64) -> Result<(), ImpossibleReport> {
        let summary = &self.summary;
        let most_calls = file_bytes.saturating_mul(MAX_CALLS_PER_REPORT_BYTE);
        if summary.calls > most_calls {
            return Err(impossible(
                "summary.calls",
                format!(
                    "{} calls, more than a report of {file_bytes} bytes can stand for \
                     ({MAX_CALLS_PER_REPORT_BYTE} per byte)",
                    summary.calls
                ),
            ));
        }
        rate("summary.calls_with_problems", &summary.calls_with_problems)?;
        rate(
            "summary.sessions_with_problems",
            &summary.sessions_with_problems,
        )?;
        rate("summary.tool_error_rate", &summary.tool_error_rate)?;
        rate(
            "summary.sessions_with_tool_errors",
            &summary.sessions_with_tool_errors,
        )?;
        at_most(
            "summary.tool_errors.errors",
            summary.tool_errors.errors,
            summary.tool_errors.results,
        )?;
        for (kind, count) in &summary.by_kind {
            at_most(
                &format!("summary.by_kind.{}.calls", kind.as_str()),
                count.calls,
                summary.calls,
            )?;
        }
        if let Some(selection) = &self.selection {
            for (field, value) in [
                ("selection.tool_accuracy", &selection.tool_accuracy),
                (
                    "selection.args_accuracy_exact",
                    &selection.args_accuracy_exact,
                ),
                (
                    "selection.args_accuracy_subset",
                    &selection.args_accuracy_subset,
                ),
                (
                    "selection.should_not_call_violations",
                    &selection.should_not_call_violations,
                ),
                ("selection.task_success", &selection.task_success),
            ] {
                rate(field, value)?;
            }
            for (index, row) in selection.per_tool.iter().enumerate() {
                for (name, value) in [("tp", row.tp), ("fp", row.fp), ("fn", row.fn_)] {
                    at_most(
                        &format!("selection.per_tool[{index}].{name}"),
                        value,
                        selection.turns,
                    )?;
                }
            }
        }
        if let Some(tasks) = &self.tasks {
            rate("tasks.actions", &tasks.actions)?;
            rate("tasks.sessions_all_matched", &tasks.sessions_all_matched)?;
        }
        if self.is_summary() {
            return Ok(());
        }
        // A full report: its rows add up to its summary, and each row is possible.
        if self.sessions.len() as u64 != summary.sessions {
            return Err(impossible(
                "summary.sessions",
                format!(
                    "{} sessions, but the report lists {}",
                    summary.sessions,
                    self.sessions.len()
                ),
            ));
        }
        let (mut calls, mut problems) = (0u64, 0u64);
        for (index, row) in self.sessions.iter().enumerate() {
            let field = |name: &str| format!("sessions[{index}].{name}");
            at_most(
                &field("calls_with_problems"),
                row.calls_with_problems,
                row.calls,
            )?;
            at_most(
                &field("tool_errors.errors"),
                row.tool_errors.errors,
                row.tool_errors.results,
            )?;
            calls = calls.saturating_add(row.calls);
            problems = problems.saturating_add(row.problems);
        }
        if calls != summary.calls {
            return Err(impossible(
                "summary.calls",
                format!(
                    "{} calls, but the sessions' rows add up to {calls}",
                    summary.calls
                ),
            ));
        }
        if problems != summary.problems {
            return Err(impossible(
                "summary.problems",
                format!(
                    "{} problems, but the sessions' rows add up to {problems}",
                    summary.problems
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::report_of;

    const SESSIONS: &str = r#"{"session_id": "s1", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "call_id": "c1", "name": "t", "args": {}}, {"type": "tool_result", "call_id": "c1", "status": "error", "content": "x"}, {"type": "assistant", "content": "done"}]}
{"session_id": "s2", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "name": "t", "args": {}}]}
"#;

    #[test]
    fn a_report_toolscope_made_is_possible() {
        let report = report_of(SESSIONS, "");
        let mut json = Vec::new();
        report.write_json(&mut json).unwrap();
        assert_eq!(report.check_possible(json.len() as u64), Ok(()));
        let summary = report.into_summary();
        assert_eq!(summary.check_possible(json.len() as u64), Ok(()));
    }

    #[test]
    fn impossible_counts_are_refused_naming_the_field() {
        let report = report_of(SESSIONS, "");
        type Breaking = Box<dyn Fn(&mut crate::Report)>;
        let cases: Vec<(&str, Breaking)> = vec![
            (
                "summary.calls",
                Box::new(|r| r.summary.calls = 1_000_000_000_000),
            ),
            ("summary.calls", Box::new(|r| r.summary.calls = u64::MAX)),
            (
                "sessions[0].calls_with_problems",
                Box::new(|r| r.sessions[0].calls_with_problems = r.sessions[0].calls + 1),
            ),
            (
                "sessions[1].tool_errors.errors",
                Box::new(|r| r.sessions[1].tool_errors.errors = 5),
            ),
            (
                "summary.problems",
                Box::new(|r| r.sessions[0].problems = 1_000_000_000_000),
            ),
            ("summary.sessions", Box::new(|r| r.summary.sessions = 3)),
            (
                "summary.tool_error_rate.count",
                Box::new(|r| r.summary.tool_error_rate.count = 9),
            ),
        ];
        for (field, break_it) in cases {
            let mut broken = report.clone();
            break_it(&mut broken);
            let error = broken.check_possible(10_000).unwrap_err();
            assert_eq!(error.field, field, "{error}");
        }
    }
}
