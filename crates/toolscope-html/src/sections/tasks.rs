//! Task actions: each session with a task label against its task's expected actions, the
//! sessions that missed an action first, up to [`MAX_SESSIONS`].

use toolscope_core::metrics::task_actions::{TaskActions, TaskOutcome};

use super::{cap_note, figures, hint, table, Figure};
use crate::format::rate_with_counts;
use crate::markup::Markup;
use crate::MAX_SESSIONS;

/// The task actions section.
pub(super) fn task_actions(markup: &mut Markup, tasks: &TaskActions) {
    figures(
        markup,
        &[
            Figure::new(
                "Task actions matched",
                rate_with_counts(&tasks.actions),
                "expected actions matched by a call of the session",
            ),
            Figure::new(
                "Sessions with every action",
                rate_with_counts(&tasks.sessions_all_matched),
                "",
            ),
        ],
    );
    hint(
        markup,
        "Each session against the actions its task expects (τ²-bench's rule: a call of the tool \
         whose compared arguments agree, anywhere in the session). Sessions that missed an action \
         first.",
    );
    // A stable sort: sessions keep the report's order within each group.
    let mut outcomes: Vec<&TaskOutcome> = tasks.outcomes.iter().collect();
    toolscope_core::sort::sort_by_key(&mut outcomes, |outcome| outcome.all_matched());
    let columns = [
        ("Session", false),
        ("Task", false),
        ("Matched", true),
        ("Not matched", false),
    ];
    table(markup, &columns, |markup| {
        for outcome in outcomes.iter().take(MAX_SESSIONS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &outcome.session_id);
                });
                markup.element("td", &[], |markup| {
                    if let Some(task_id) = &outcome.task_id {
                        markup.text_element("code", &[], task_id);
                    }
                });
                markup.element("td", &[("class", "num")], |markup| {
                    markup.text_fmt(format_args!(
                        "{} of {}",
                        outcome.matched(),
                        outcome.actions.len()
                    ));
                });
                markup.text_element("td", &[], &outcome.unmatched().join(", "));
            });
        }
    });
    cap_note(
        markup,
        MAX_SESSIONS,
        outcomes.len(),
        "sessions with a task label",
    );
}
