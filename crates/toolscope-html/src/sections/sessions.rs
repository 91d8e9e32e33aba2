//! Sessions, worst first, each a collapsible line with its counts and its problems by kind, up
//! to [`MAX_SESSIONS`].

use toolscope_core::report::SessionSummary;

use super::cap_note;
use crate::format::count_of;
use crate::markup::Markup;
use crate::MAX_SESSIONS;

/// The sessions section.
pub(super) fn sessions(markup: &mut Markup, sessions: &[SessionSummary]) {
    if sessions.is_empty() {
        markup.text_element("p", &[], "No sessions were read.");
        return;
    }
    markup.text_element(
        "p",
        &[("class", "hint")],
        "Worst first: most problems, then most tool errors. Open a session for its numbers.",
    );
    for session in sessions.iter().take(MAX_SESSIONS) {
        session_details(markup, session);
    }
    cap_note(markup, MAX_SESSIONS, sessions.len(), "sessions");
}

fn session_details(markup: &mut Markup, session: &SessionSummary) {
    markup.element(
        "details",
        &[("class", "session"), ("data-session", &session.session_id)],
        |markup| {
            markup.element("summary", &[], |markup| {
                markup.text_element("code", &[], &session.session_id);
                if let Some(agent_id) = &session.agent_id {
                    markup.text(" ");
                    markup.element("span", &[("class", "muted")], |markup| {
                        markup.text("agent ");
                        markup.text_element("code", &[], agent_id);
                    });
                }
                markup.text_fmt(format_args!(
                    " — {}, {}, {}",
                    count_of(session.calls, "call", "calls"),
                    count_of(session.problems, "problem", "problems"),
                    count_of(session.tool_errors.errors, "tool error", "tool errors"),
                ));
            });
            session_numbers(markup, session);
        },
    );
}

fn session_numbers(markup: &mut Markup, session: &SessionSummary) {
    let errors = &session.tool_errors;
    markup.element("ul", &[], |markup| {
        markup.element("li", &[], |markup| {
            markup.text("Read from ");
            let place = format!("{}:{}", session.origin.file, session.origin.line);
            markup.text_element("code", &[], &place);
        });
        markup.element("li", &[], |markup| {
            markup.text_fmt(format_args!(
                "{}; {} with problems out of {}",
                count_of(session.turns, "turn", "turns"),
                count_of(session.calls_with_problems, "call", "calls"),
                session.calls
            ));
        });
        markup.element("li", &[], |markup| {
            markup.text_fmt(format_args!(
                "Tool errors: {} of {} results (agent {}, environment {}, unattributed {})",
                errors.errors,
                errors.results,
                errors.agent,
                errors.environment,
                errors.unattributed
            ));
        });
        if session.is_without_catalog {
            markup.text_element(
                "li",
                &[],
                "Checked without a tool catalog: no unknown-tool or schema checks.",
            );
        }
        markup.element("li", &[], |markup| {
            if session.problems_by_kind.is_empty() {
                markup.text("No problems.");
                return;
            }
            markup.text("Problems by kind: ");
            for (index, (kind, count)) in session.problems_by_kind.iter().enumerate() {
                if index > 0 {
                    markup.text(", ");
                }
                markup.text_element("code", &[("class", "kind")], kind.as_str());
                markup.text_fmt(format_args!(" {count}"));
            }
        });
    });
}
