//! The overview: the headline numbers of the summary, each rate with its counts, and each tool's
//! calls, problems and error results.

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::metrics::rate::Rate;
use toolscope_core::report::Summary;
use toolscope_core::Report;

use super::{cap_note, figures, number_cell, table, Figure};
use crate::format::{count_of, percent, rate_with_counts};
use crate::markup::Markup;
use crate::MAX_TOOL_ROWS;

/// The overview.
pub(super) fn overview(markup: &mut Markup, report: &Report) {
    figures(markup, &headline(&report.summary));
    markup.text_element("h3", &[], "Tools called");
    if report.tools.is_empty() {
        markup.text_element("p", &[], "No tool was called.");
        return;
    }
    let columns = [
        ("Tool", false),
        ("Calls", true),
        ("With problems", true),
        ("Problems", true),
        ("Error results", true),
    ];
    table(markup, &columns, |markup| {
        for usage in report.tools.iter().take(MAX_TOOL_ROWS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &usage.tool);
                });
                number_cell(markup, usage.calls);
                number_cell(markup, usage.calls_with_problems);
                number_cell(markup, usage.problems);
                number_cell(markup, usage.errors);
            });
        }
    });
    cap_note(markup, MAX_TOOL_ROWS, report.tools.len(), "tools");
}

/// The summary's numbers, worded as on the page.
fn headline(summary: &Summary) -> Vec<Figure> {
    let kind_rate = |kind: ProblemKind| {
        let calls = summary.by_kind.get(&kind).map_or(0, |count| count.calls);
        Rate::new(calls, summary.calls)
    };
    let errors = &summary.tool_errors;
    let inferred = if errors.inferred > 0 {
        format!(" ({} inferred from the text)", errors.inferred)
    } else {
        String::new()
    };
    let mut figures = vec![
        Figure::new(
            "Sessions",
            summary.sessions.to_string(),
            count_of(summary.turns, "turn", "turns"),
        ),
        Figure::new(
            "Tool calls",
            summary.calls.to_string(),
            format!(
                "{} found",
                count_of(summary.problems, "problem", "problems")
            ),
        ),
        Figure::new(
            "Calls with problems",
            rate_with_counts(&summary.calls_with_problems),
            "",
        ),
        Figure::new(
            "Sessions with problems",
            rate_with_counts(&summary.sessions_with_problems),
            format!(
                "mean per-session problem rate {}",
                percent(summary.mean_session_problem_rate)
            ),
        ),
        Figure::new(
            "Tool errors",
            rate_with_counts(&summary.tool_error_rate),
            format!(
                "of results: agent {}, environment {}, unattributed {}{inferred}",
                errors.agent, errors.environment, errors.unattributed
            ),
        ),
        Figure::new(
            "Sessions with tool errors",
            rate_with_counts(&summary.sessions_with_tool_errors),
            "",
        ),
        Figure::new(
            "Unhandled errors",
            rate_with_counts(&kind_rate(ProblemKind::UnhandledError)),
            "of calls",
        ),
        Figure::new(
            "Retries after errors",
            rate_with_counts(&kind_rate(ProblemKind::RetryAfterError)),
            "of calls",
        ),
    ];
    if summary.undecidable_calls > 0 {
        figures.push(Figure::new(
            "Undecidable schema checks",
            summary.undecidable_calls.to_string(),
            "calls neither valid nor invalid (not counted as problems)",
        ));
    }
    if summary.sessions_without_catalog > 0 {
        figures.push(Figure::new(
            "Sessions without a catalog",
            summary.sessions_without_catalog.to_string(),
            "no unknown-tool or schema checks for them",
        ));
    }
    figures
}
