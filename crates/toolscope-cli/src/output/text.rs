//! Plain-text output in the seeds' layouts, every line written through [`terminal`], which
//! escapes what came from the input; fields padded or cut to a width are escaped first.

use std::fmt::Write as _;

use anyhow::Result;
use toolscope_core::checks::problem::python_repr;
use toolscope_core::findings::Finding;
use toolscope_core::judge::in_report::JudgeReport;
use toolscope_core::metrics::selection::{seed_report_lines, Selection, ToolRow};
use toolscope_core::metrics::task_actions::TaskActions;
use toolscope_core::metrics::trials::{PassK, Trials};
use toolscope_core::{Diagnostic, Report};

use super::escape::terminal_safe;
use super::terminal;

/// Every problem, one per line as the seed's `check_calls` prints them, prefixed by the session
/// when there is more than one.
pub fn print_problems(report: &Report) -> Result<()> {
    let mut out = terminal::stdout();
    let with_session = report.summary.sessions > 1;
    let mut line = String::new();
    for problem in &report.problems {
        line.clear();
        if with_session {
            write!(line, "{}: ", problem.session_id)?;
        }
        line.push_str(&problem.seed_line());
        if let Some(suggestion) = &problem.suggestion {
            write!(line, " (did you mean {}?)", python_repr(suggestion))?;
        }
        out.line(&line)?;
    }
    out.flush()?;
    Ok(())
}

/// Per-tool lines in the seed's `selection_report` layout, with support appended.
pub fn print_selection(selection: &Selection) -> Result<()> {
    let mut out = terminal::stdout();
    // Escaped before the seed pads the name to 14, so the column counts what is shown.
    let shown_rows: Vec<ToolRow> = selection
        .per_tool
        .iter()
        .map(|row| ToolRow {
            tool: terminal_safe(&row.tool).into_owned(),
            ..row.clone()
        })
        .collect();
    for (line, row) in seed_report_lines(&shown_rows).iter().zip(&shown_rows) {
        let flag = if row.is_low_support {
            "  (low support)"
        } else {
            ""
        };
        out.line(format_args!("{line}  support {}{flag}", row.support))?;
    }
    out.flush()?;
    Ok(())
}

/// Each labelled turn whose arguments are not exactly the labelled ones, with why, then the
/// argument accuracy; nothing when no label gives arguments.
pub fn print_arguments(selection: &Selection) -> Result<()> {
    let Some(summary) = arguments_summary(selection) else {
        return Ok(());
    };
    let mut out = terminal::stdout();
    let wrong = selection
        .outcomes
        .iter()
        .filter(|outcome| outcome.args_exact == Some(false));
    for outcome in wrong {
        let why = outcome
            .args_mismatch
            .as_deref()
            .unwrap_or("not the labelled arguments");
        out.line(format_args!(
            "{} turn {}: arguments: {why}",
            outcome.session_id, outcome.turn
        ))?;
    }
    out.line(summary)?;
    out.flush()?;
    Ok(())
}

/// "arguments: exact …, subset …; calls extra …, missing …", when labels give arguments.
fn arguments_summary(selection: &Selection) -> Option<String> {
    let (exact, subset) = (
        &selection.args_accuracy_exact,
        &selection.args_accuracy_subset,
    );
    (exact.total > 0).then(|| {
        format!(
            "arguments: exact {} ({} of {}), subset {} ({} of {}); calls extra {}, missing {}",
            percent(exact.rate),
            exact.count,
            exact.total,
            percent(subset.rate),
            subset.count,
            subset.total,
            selection.extra_calls,
            selection.missing_calls
        )
    })
}

/// Most tools the printed confusion matrix shows on their own; the rest share one row and
/// column (a terminal fits about this many 10-character columns).
pub const PRINTED_TOOLS: usize = 20;

/// The confusion matrix in the seed's `print_confusion_matrix` layout; past [`PRINTED_TOOLS`]
/// tools, the busiest ones and a row and column for the others, with a line saying so.
pub fn print_confusion(selection: &Selection) -> Result<()> {
    let mut out = terminal::stdout();
    let shown = selection.confusion.top(PRINTED_TOOLS);
    for line in confusion_lines(&shown.labels, &shown.dense()) {
        out.line(line)?;
    }
    if !shown.grouped.is_empty() {
        out.line(format!(
            "({} tools with the fewest turns share the last row and column; --json lists every cell)",
            shown.grouped.len()
        ))?;
    }
    out.flush()?;
    Ok(())
}

/// The seed's `print_confusion_matrix`: names cut to 8 characters over columns 10 wide, row
/// names cut to 18 in a column 20 wide, a `*` on non-zero diagonal cells. Names are escaped
/// before they are cut, so a hostile one keeps to its column.
pub fn confusion_lines(labels: &[String], matrix: &[Vec<u64>]) -> Vec<String> {
    let cut =
        |name: &str, width: usize| terminal_safe(name).chars().take(width).collect::<String>();
    let mut lines = Vec::with_capacity(labels.len() + 1);
    let mut header = format!("{:>20}", "");
    for name in labels {
        header.push_str(&format!("{:>10}", cut(name, 8)));
    }
    lines.push(header);
    for (i, name) in labels.iter().enumerate() {
        let mut line = format!("{:>20}", cut(name, 18));
        for (j, value) in matrix[i].iter().enumerate() {
            let marker = if i == j && *value > 0 { "*" } else { " " };
            line.push_str(&format!("{value:>9}{marker}"));
        }
        lines.push(line);
    }
    lines
}

/// A short text summary of the report.
pub fn print_summary(report: &Report) -> Result<()> {
    let mut out = terminal::stdout();
    let summary = &report.summary;
    out.line(format_args!(
        "sessions {}  calls {}  turns {}",
        summary.sessions, summary.calls, summary.turns
    ))?;
    out.line(format_args!(
        "problems {}  calls with problems {} of {} ({})  sessions with problems {} of {} ({})",
        summary.problems,
        summary.calls_with_problems.count,
        summary.calls_with_problems.total,
        percent(summary.calls_with_problems.rate),
        summary.sessions_with_problems.count,
        summary.sessions_with_problems.total,
        percent(summary.sessions_with_problems.rate),
    ))?;
    for (kind, count) in &summary.by_kind {
        out.line(format_args!(
            "  {:<20} {} in {} calls, {} sessions",
            kind.as_str(),
            count.problems,
            count.calls,
            count.sessions
        ))?;
    }
    let errors = &summary.tool_errors;
    out.line(format_args!(
        "tool errors {} of {} results ({}): agent {}, environment {}, unattributed {}",
        errors.errors,
        errors.results,
        percent(summary.tool_error_rate.rate),
        errors.agent,
        errors.environment,
        errors.unattributed
    ))?;
    if let Some(selection) = &report.selection {
        out.line(format_args!(
            "selection: {} labelled turns, tool accuracy {} ({} of {})",
            selection.turns,
            percent(selection.tool_accuracy.rate),
            selection.tool_accuracy.count,
            selection.tool_accuracy.total
        ))?;
        if let Some(arguments) = arguments_summary(selection) {
            out.line(arguments)?;
        }
    }
    if let Some(tasks) = &report.tasks {
        out.line(task_summary(tasks))?;
    }
    if let Some(trials) = &report.trials {
        for line in trial_lines(trials) {
            out.line(line)?;
        }
    }
    if let Some(judge) = &report.judge {
        for line in judge_lines(judge) {
            out.line(line)?;
        }
    }
    for line in finding_lines(&report.findings) {
        out.line(line)?;
    }
    out.flush()?;
    Ok(())
}

/// Findings printed by `report`; the JSON has every one.
const FINDINGS_SHOWN: usize = 5;

/// "findings (3, worst first):", then per finding "1. [prompt] title" and its fix.
pub fn finding_lines(findings: &[Finding]) -> Vec<String> {
    if findings.is_empty() {
        return Vec::new();
    }
    let mut lines = vec![format!(
        "findings ({}, most sessions first{}):",
        findings.len(),
        if findings.len() > FINDINGS_SHOWN {
            format!("; the first {FINDINGS_SHOWN}, --json has every one")
        } else {
            String::new()
        }
    )];
    for (rank, finding) in findings.iter().take(FINDINGS_SHOWN).enumerate() {
        lines.push(format!(
            "{}. [{}] {}",
            rank + 1,
            finding.fix.as_str(),
            finding.title
        ));
        lines.push(format!("   fix: {}", finding.fix_detail));
    }
    lines
}

/// Per criterion: passes over the scored verdicts, and the unscored ones apart, by cause; then
/// the judge against humans, when human verdicts were given.
fn judge_lines(judge: &JudgeReport) -> Vec<String> {
    let mut lines = vec![format!(
        "judge: {} verdicts on {} calls by {}",
        judge.summary.verdicts,
        judge.summary.calls,
        if judge.summary.models.is_empty() {
            "no model".to_string()
        } else {
            judge.summary.models.join(", ")
        }
    )];
    for row in &judge.summary.criteria {
        let mut line = format!(
            "  {:<14} pass {} of {} scored ({})",
            row.criterion.as_str(),
            row.pass,
            row.pass + row.fail,
            percent(row.pass_rate.rate)
        );
        if row.unscored > 0 {
            line.push_str(&format!(
                "; unscored {} ({})",
                row.unscored,
                row.unscored_causes()
            ));
        }
        lines.push(line);
    }
    if let Some(calibration) = &judge.calibration {
        for row in &calibration.criteria {
            let kappa = row
                .kappa
                .map_or_else(|| "undefined".to_string(), |kappa| format!("{kappa:.2}"));
            lines.push(format!(
                "  vs humans {:<14} agreement {} of {} ({}), kappa {kappa}",
                row.criterion.as_str(),
                row.agreement.count,
                row.agreement.total,
                percent(row.agreement.rate)
            ));
            let corrected = &row.corrected_pass_rate;
            lines.push(match (corrected.corrected, corrected.interval) {
                (Some(rate), Some([low, high])) => format!(
                    "    judge pass rate {} corrected for its errors (Rogan-Gladen) {} [{}, {}]",
                    percent(corrected.observed),
                    percent(Some(rate)),
                    percent(Some(low)),
                    percent(Some(high))
                ),
                _ => format!(
                    "    judge pass rate {}; corrected: {}",
                    percent(corrected.observed),
                    corrected.note.as_deref().unwrap_or("undefined")
                ),
            });
            for warning in &row.warnings {
                lines.push(format!("    warning: {}", warning.message()));
            }
        }
        for warning in &calibration.warnings {
            lines.push(format!("  warning: {}", warning.message()));
        }
    }
    lines
}

/// Per session with a task label: its actions matched, and the ones no call matched.
pub fn print_tasks(tasks: &TaskActions) -> Result<()> {
    let mut out = terminal::stdout();
    // Escaped before they are measured, so the column is as wide as the longest id shown.
    let shown_ids: Vec<_> = tasks
        .outcomes
        .iter()
        .map(|outcome| terminal_safe(&outcome.session_id))
        .collect();
    let width = shown_ids
        .iter()
        .map(|session_id| session_id.chars().count())
        .max()
        .unwrap_or(0);
    let mut line = String::new();
    for (outcome, session_id) in tasks.outcomes.iter().zip(&shown_ids) {
        let (matched, missing) = (outcome.matched(), outcome.unmatched());
        line.clear();
        write!(
            line,
            "{session_id:<width$}  actions {matched} of {}",
            outcome.actions.len()
        )?;
        if !missing.is_empty() {
            write!(line, "  not matched: {}", missing.join(", "))?;
        }
        out.line(&line)?;
    }
    out.line(task_summary(tasks))?;
    out.flush()?;
    Ok(())
}

/// "12.5%", or "n/a" when the rate has no denominator.
fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(|| "n/a".to_string(), |r| format!("{:.1}%", r * 100.0))
}

/// "task actions: 4 of 6 matched (66.7%); 1 of 3 sessions with every action".
fn task_summary(tasks: &TaskActions) -> String {
    format!(
        "task actions: {} of {} matched ({}); {} of {} sessions with every action",
        tasks.actions.count,
        tasks.actions.total,
        percent(tasks.actions.rate),
        tasks.sessions_all_matched.count,
        tasks.sessions_all_matched.total
    )
}

/// Prints the repeated trials' lines ([`trial_lines`]).
pub fn print_trials(trials: &Trials) -> Result<()> {
    let mut out = terminal::stdout();
    for line in trial_lines(trials) {
        out.line(line)?;
    }
    out.flush()?;
    Ok(())
}

/// Repeated trials: "trials: 12 trials of 11 tasks, 6 succeeded, average reward 0.500", then pass^k
/// and pass@k per k ("pass^2 0.000 (1 task)"), and τ-bench's own figure when it differs.
pub fn trial_lines(trials: &Trials) -> Vec<String> {
    let passes = |name: &str, passes: &[PassK]| {
        let shown: Vec<String> = passes
            .iter()
            .map(|pass| {
                let tasks = if pass.tasks == 1 { "task" } else { "tasks" };
                format!(
                    "{name}{} {:.3} ({} {tasks})",
                    pass.k, pass.value, pass.tasks
                )
            })
            .collect();
        shown.join(", ")
    };
    let mut lines = vec![
        format!(
            "trials: {} trials of {} tasks, {} succeeded, average reward {:.3}",
            trials.trials, trials.tasks, trials.successes, trials.average_reward
        ),
        passes("pass^", &trials.pass_hat_k),
        passes("pass@", &trials.pass_at_k),
    ];
    if !trials.is_uniform {
        lines.push(format!(
            "τ-bench's pass^k (one trial count for every task): {}",
            passes("pass^", &trials.tau_bench_pass_hat_k)
        ));
    }
    lines
}

/// Input diagnostics on stderr, one per line: `file:line:column: severity: message`.
pub fn print_diagnostics(diagnostics: &[Diagnostic]) -> Result<()> {
    let mut err = terminal::stderr();
    for diagnostic in diagnostics {
        err.line(diagnostic)?;
    }
    err.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::confusion_lines;

    #[test]
    fn confusion_layout_matches_the_seed_printer() {
        let labels = vec!["get_stock_price".to_string(), "search_web".to_string()];
        let lines = confusion_lines(&labels, &[vec![45, 3], vec![2, 0]]);
        assert_eq!(
            lines[0],
            format!("{:20}{:>10}{:>10}", "", "get_stoc", "search_w")
        );
        assert_eq!(
            lines[1],
            format!("{:>20}{:>9}*{:>9} ", "get_stock_price", 45, 3)
        );
        assert_eq!(lines[2], format!("{:>20}{:>9} {:>9} ", "search_web", 2, 0));
    }

    #[test]
    fn confusion_names_are_escaped_before_they_are_cut_so_columns_keep_their_width() {
        let labels = vec!["\u{1b}[31m\nstep 99: forged".to_string(), "ok".to_string()];
        let lines = confusion_lines(&labels, &[vec![1, 0], vec![0, 1]]);
        assert_eq!(
            lines[0],
            format!("{:20}{:>10}{:>10}", "", r"\x1b[31m", "ok")
        );
        assert_eq!(
            lines[1],
            format!("{:>20}{:>9}*{:>9} ", r"\x1b[31m\nstep 99:", 1, 0)
        );
        assert!(lines.iter().all(|line| line.chars().count() == 40));
    }
}
