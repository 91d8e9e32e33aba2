//! The seed's `eval_cases` list with each case's agent output: every case is a one-turn session
//! (its `user_input` and the agent's `tool_calls`) and a label for that turn.
//!
//! ```json
//! [{"id": "ts-001", "user_input": "What's the current stock price of AAPL?",
//!   "expected_tool": "get_stock_price", "expected_args": {"symbol": "AAPL"},
//!   "should_not_call": ["search_web", "get_news"],
//!   "tool_calls": [{"name": "get_stock_price", "args": {"symbol": "AAPL"}}]}]
//! ```

use serde_json::Value;

use super::odd_record::{holds_nothing, not_of_format};
use super::seed_calls::call_from_value;
use crate::diagnostic::Diagnostic;
use crate::inputs::labels::{label_from_value, Label};
use crate::json::{parse_value, Split};
use crate::model::{Event, Origin, Session};

/// Fields that may hold the agent's output calls, in order of preference.
const OUTPUT_FIELDS: [&str; 3] = ["tool_calls", "actual_tool_calls", "calls"];

/// Reads the cases; a bad case is a diagnostic and the others are kept.
pub fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Session>, Vec<Label>) {
    let mut sessions = Vec::new();
    let mut labels = Vec::new();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        if !value.is_object() || holds_nothing(&value) {
            let expected = "an eval case ({\"id\", \"user_input\", \"tool_calls\"})";
            diagnostics.push(not_of_format(file, record.line, &value, expected));
            continue;
        }
        let origin = Origin {
            file: file.to_string(),
            line: record.line,
        };
        match case(value, origin) {
            Ok((session, label)) => {
                sessions.push(session);
                labels.push(label);
            }
            Err(message) => diagnostics.push(Diagnostic::error(file, Some(record.line), message)),
        }
    }
    (sessions, labels)
}

fn case(mut value: Value, origin: Origin) -> Result<(Session, Label), String> {
    let Some(map) = value.as_object_mut() else {
        return Err("an eval case is a JSON object".to_string());
    };
    let Some(output) = OUTPUT_FIELDS.iter().find_map(|field| map.remove(*field)) else {
        return Err(
            "case has no agent output (\"tool_calls\": [{\"name\", \"args\"}, ...])".to_string(),
        );
    };
    let Value::Array(calls) = output else {
        return Err("\"tool_calls\" must be a list of {\"name\", \"args\"}".to_string());
    };
    let user_input = map
        .get("user_input")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let agent_id = map.get("agent_id").and_then(super::id_text);
    let label = label_from_value(value, origin.clone())?;
    let mut events = vec![Event::User {
        content: user_input,
    }];
    for (index, call) in calls.into_iter().enumerate() {
        let call =
            call_from_value(call).map_err(|message| format!("call {}: {message}", index + 1))?;
        events.push(Event::ToolUse(call));
    }
    let session = Session {
        session_id: label.session_id.clone(),
        agent_id,
        events,
        origin,
        ..Session::default()
    };
    Ok((session, label))
}
