//! **unhandled_error**: an error result followed by the turn's final message with no call in
//! between (seed 000: "an error result followed by a final message with no retry in
//! between"). Reported at the failed call's step.
//!
//! The turn's final message is the last assistant text before the next user event (or the end
//! of the session). Text the agent writes between calls is narration, not a reply: "Let me
//! format the code:" followed by another call is the agent handling the error, as coding agents
//! (Claude Code, Codex, OpenHands) do all the time. So an error is unhandled only when no call
//! follows it before the turn ends and the turn ends with a message; an error that ends the
//! session with no message after it is not a reply at all.
//!
//! Why: the expensive failures hide here: the refund failed and the agent says it is on its
//! way. Code catches the crude version; whether the reply reflects the error is the judge's.
//!
//! Example: `step 2: issue_refund: error result followed by a reply with no retry`.

use super::links::Links;
use super::problem::{Problem, ProblemKind};
use crate::model::{Event, ResultStatus, Session, ToolCall};

/// Every failed call whose error the turn's final message followed with no call in between.
/// One pass from the end, so linear in the session's length.
pub fn check(session: &Session, links: &Links, calls: &[&ToolCall]) -> Vec<Problem> {
    let mut problems = Vec::new();
    // What comes first after the current event: a call (the error is being handled), or the end
    // of the turn (a user event or the session's end) with or without a message before it.
    let mut is_call_next = false;
    let mut has_message_before_turn_end = false;
    for (index, event) in session.events.iter().enumerate().rev() {
        match event {
            Event::ToolUse(_) => {
                is_call_next = true;
                has_message_before_turn_end = false;
            }
            Event::User { .. } => {
                is_call_next = false;
                has_message_before_turn_end = false;
            }
            Event::Assistant { .. } => has_message_before_turn_end = true,
            Event::ToolResult(result) => {
                let is_unhandled = result.status == ResultStatus::Error
                    && !is_call_next
                    && has_message_before_turn_end;
                if let (true, Some(&step)) = (is_unhandled, links.result_step.get(&index)) {
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
        }
    }
    problems.reverse();
    problems
}

#[cfg(test)]
mod tests {
    use crate::test_support::report_of;

    /// The steps flagged in a session written as a string of events: `u` user, `a` assistant
    /// text, `c` a call, `e` its result as an error, `o` its result ok (results answer the
    /// calls in order).
    fn flagged(events: &str) -> Vec<usize> {
        let mut written = Vec::new();
        let (mut calls, mut answered) = (0, 0);
        for event in events.chars() {
            written.push(match event {
                'u' => r#"{"type": "user", "content": "please"}"#.to_string(),
                'a' => r#"{"type": "assistant", "content": "Let me look."}"#.to_string(),
                'c' => {
                    calls += 1;
                    format!(r#"{{"type": "tool_use", "call_id": "c{calls}", "name": "t", "args": {{}}}}"#)
                }
                'e' | 'o' => {
                    answered += 1;
                    let status = if event == 'e' { "error" } else { "ok" };
                    format!(r#"{{"type": "tool_result", "call_id": "c{answered}", "status": "{status}", "content": "x"}}"#)
                }
                other => panic!("{other}"),
            });
        }
        let line = format!(
            r#"{{"session_id": "s", "events": [{}]}}"#,
            written.join(", ")
        );
        report_of(&line, "")
            .problems
            .iter()
            .filter(|p| p.kind == crate::checks::problem::ProblemKind::UnhandledError)
            .map(|p| p.step)
            .collect()
    }

    #[test]
    fn an_error_is_unhandled_only_when_the_turns_final_message_follows_it_with_no_call() {
        let table: &[(&str, &str, &[usize])] = &[
            (
                "the seed's case: an error, then the final reply",
                "ucea",
                &[1],
            ),
            ("narration, then another call", "uceaco", &[]),
            (
                "narration, then a retry that works, then a reply",
                "uceacoa",
                &[],
            ),
            ("a long turn with an early error", "uceacoacoacoa", &[]),
            (
                "a final reply after an error, then the next user turn",
                "uceauco",
                &[1],
            ),
            ("a reply, then the next user turn", "uceau", &[1]),
            ("an error as the session's last event", "uce", &[]),
            (
                "an error, then the next user turn with no reply",
                "uceuca",
                &[],
            ),
            ("two errors in a row, then a reply", "ucecea", &[2]),
            (
                "two parallel calls both failing, then a reply",
                "uccee a",
                &[1, 2],
            ),
            (
                "narration between an error and the final reply",
                "uceaa",
                &[1],
            ),
            ("an ok result, then a reply", "ucoa", &[]),
        ];
        for (what, events, steps) in table {
            let events = events.replace(' ', "");
            assert_eq!(flagged(&events), *steps, "{what}: {events}");
        }
    }
}
