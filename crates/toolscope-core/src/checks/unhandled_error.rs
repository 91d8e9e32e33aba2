//! **unhandled_error**: after an error result, the agent's next action (before the next user
//! event) is a reply, not another call. Reported at the failed call's step.
//!
//! Why: the expensive failures hide here: the refund failed and the agent says it is on its
//! way. Code catches the crude version; whether the reply reflects the error is the judge's.
//!
//! Example: `step 2: issue_refund: error result followed by a reply with no retry`.

use super::links::Links;
use super::problem::{Problem, ProblemKind};
use crate::model::{Event, ResultStatus, Session, ToolCall};

/// Every failed call whose error was answered by a reply.
pub fn check(session: &Session, links: &Links, calls: &[&ToolCall]) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, event) in session.events.iter().enumerate() {
        let Event::ToolResult(result) = event else {
            continue;
        };
        if result.status != ResultStatus::Error {
            continue;
        }
        let Some(&step) = links.result_step.get(&index) else {
            continue;
        };
        let next_action = session.events[index + 1..]
            .iter()
            .find(|later| !matches!(later, Event::ToolResult(_)));
        if matches!(next_action, Some(Event::Assistant { .. })) {
            let name = &calls[step - 1].name;
            problems.push(Problem::new(
                &session.session_id,
                step,
                name,
                ProblemKind::UnhandledError,
                format!("{name}: error result followed by a reply with no retry"),
            ));
        }
    }
    problems
}
