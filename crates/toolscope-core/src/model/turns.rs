//! Turns: a turn starts at a user event. Events before the first user event belong to turn 0,
//! and so does the first user event itself; a session with no user event is one turn, turn 0.

use super::{Event, Session, ToolCall};

/// One turn of a session, with the calls made in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn<'s> {
    /// 0-based turn index within the session.
    pub turn: usize,
    /// The user message that opened it, if any.
    pub user_content: Option<&'s str>,
    /// The calls in the turn, each with its 1-based step over the whole session.
    pub calls: Vec<(usize, &'s ToolCall)>,
}

/// How many turns a session has, without building them.
pub fn turn_count(session: &Session) -> usize {
    let users = session
        .events
        .iter()
        .filter(|event| matches!(event, Event::User { .. }))
        .count();
    users.max(1)
}

/// Splits a session into turns.
pub fn turns_of(session: &Session) -> Vec<Turn<'_>> {
    let mut turns: Vec<Turn<'_>> = vec![Turn {
        turn: 0,
        user_content: None,
        calls: Vec::new(),
    }];
    let mut seen_user = false;
    let mut step = 0;
    for event in &session.events {
        match event {
            Event::User { content } => {
                if seen_user {
                    turns.push(Turn {
                        turn: turns.len(),
                        user_content: Some(content),
                        calls: Vec::new(),
                    });
                } else {
                    seen_user = true;
                    turns[0].user_content = Some(content);
                }
            }
            Event::ToolUse(call) => {
                step += 1;
                let last = turns.len() - 1;
                turns[last].calls.push((step, call));
            }
            Event::Assistant { .. } | Event::ToolResult(_) => {}
        }
    }
    turns
}

/// For each event, its 0-based turn and, for tool calls, its 1-based step: the numbering that
/// [`turns_of`], labels and problems use, for showing a session event by event.
pub fn event_positions(session: &Session) -> Vec<(usize, Option<usize>)> {
    let mut users = 0usize;
    let mut step = 0usize;
    session
        .events
        .iter()
        .map(|event| match event {
            Event::User { .. } => {
                users += 1;
                (users.saturating_sub(1), None)
            }
            Event::ToolUse(_) => {
                step += 1;
                (users.saturating_sub(1), Some(step))
            }
            Event::Assistant { .. } | Event::ToolResult(_) => (users.saturating_sub(1), None),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Args, Origin};

    fn call(name: &str) -> Event {
        Event::ToolUse(ToolCall {
            call_id: None,
            name: name.into(),
            args: Args::Json(serde_json::json!({})),
        })
    }

    fn user(text: &str) -> Event {
        Event::User {
            content: text.into(),
        }
    }

    fn session(events: Vec<Event>) -> Session {
        Session {
            session_id: "s".into(),
            events,
            origin: Origin::default(),
            ..Session::default()
        }
    }

    #[test]
    fn events_before_the_first_user_event_join_turn_zero() {
        let s = session(vec![
            call("a"),
            user("hi"),
            call("b"),
            user("again"),
            call("c"),
        ]);
        let turns = turns_of(&s);
        assert_eq!(turns.len(), 2);
        let names = |t: &Turn| {
            t.calls
                .iter()
                .map(|(_, c)| c.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names(&turns[0]), ["a", "b"]);
        assert_eq!(names(&turns[1]), ["c"]);
        assert_eq!(turns[1].calls[0].0, 3, "steps count over the whole session");
        assert_eq!(turns[1].user_content, Some("again"));
        assert_eq!(turn_count(&s), turns.len());
    }

    #[test]
    fn event_positions_agree_with_turns_of() {
        let s = session(vec![
            call("a"),
            user("hi"),
            call("b"),
            user("again"),
            call("c"),
        ]);
        let positions = event_positions(&s);
        assert_eq!(
            positions,
            [
                (0, Some(1)),
                (0, None),
                (0, Some(2)),
                (1, None),
                (1, Some(3))
            ]
        );
        for turn in turns_of(&s) {
            for (step, _) in &turn.calls {
                assert!(positions.contains(&(turn.turn, Some(*step))));
            }
        }
    }

    #[test]
    fn a_session_without_user_events_is_turn_zero() {
        let s = session(vec![call("a"), call("b")]);
        let turns = turns_of(&s);
        assert_eq!(turns.len(), 1);
        assert_eq!(turn_count(&s), 1);
        assert_eq!(turns[0].calls.len(), 2);
    }

    #[test]
    fn a_turn_without_calls_is_kept() {
        let s = session(vec![user("a"), user("b")]);
        let turns = turns_of(&s);
        assert_eq!(turns.len(), 2);
        assert!(turns[1].calls.is_empty());
    }
}
