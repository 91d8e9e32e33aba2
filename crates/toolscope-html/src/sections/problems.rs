//! Problems: how many of each kind, then each problem (worst sessions first, then by step) up to
//! [`MAX_PROBLEM_ROWS`].

use toolscope_core::checks::problem::{python_repr, Problem, ProblemKind};
use toolscope_core::Report;

use super::{cap_note, hint, number_cell, table};
use crate::markup::Markup;
use crate::MAX_PROBLEM_ROWS;

/// The problems section.
pub(super) fn problems(markup: &mut Markup, report: &Report) {
    if report.problems.is_empty() {
        markup.text_element("p", &[], "No problems found.");
        return;
    }
    markup.text_element("h3", &[], "By kind");
    let columns = [
        ("Kind", false),
        ("Problems", true),
        ("Calls", true),
        ("Sessions", true),
    ];
    table(markup, &columns, |markup| {
        for (kind, count) in &report.summary.by_kind {
            markup.element("tr", &[("data-kind", kind.as_str())], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[("class", "kind")], kind.as_str());
                });
                number_cell(markup, count.problems);
                number_cell(markup, count.calls);
                number_cell(markup, count.sessions);
            });
        }
    });
    markup.element("h3", &[], |markup| {
        markup.text_fmt(format_args!("Every problem ({})", report.problems.len()));
    });
    hint(
        markup,
        "Worst sessions first, then by step (the call's position among the session's tool calls).",
    );
    let columns = [
        ("Session", false),
        ("Step", true),
        ("Tool", false),
        ("Kind", false),
        ("Message", false),
    ];
    table(markup, &columns, |markup| {
        for problem in report.problems.iter().take(MAX_PROBLEM_ROWS) {
            problem_row(markup, problem);
        }
    });
    cap_note(markup, MAX_PROBLEM_ROWS, report.problems.len(), "problems");
}

fn problem_row(markup: &mut Markup, problem: &Problem) {
    markup.element("tr", &[], |markup| {
        markup.element("td", &[], |markup| {
            markup.text_element("code", &[], &problem.session_id);
        });
        number_cell(markup, problem.step);
        markup.element("td", &[], |markup| {
            markup.text_element("code", &[], &problem.tool);
        });
        markup.element("td", &[], |markup| {
            markup.text_element("code", &[("class", "kind")], problem.kind.as_str());
        });
        markup.element("td", &[], |markup| {
            markup.text(&problem.message);
            if let Some(suggestion) = &problem.suggestion {
                markup.text_fmt(format_args!(" (did you mean {}?)", python_repr(suggestion)));
            }
            // The schema's message names the rule, not where in the arguments it failed (the
            // other kinds' messages already say where).
            let pointer = problem
                .pointer
                .as_deref()
                .filter(|pointer| !pointer.is_empty());
            if let (ProblemKind::Schema, Some(pointer)) = (problem.kind, pointer) {
                markup.text(" at ");
                markup.text_element("code", &[], pointer);
            }
        });
    });
}
