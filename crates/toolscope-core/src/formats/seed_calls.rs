//! A bare JSON array of calls, `[{"name": "issue_refund", "args": {...}}, ...]`: one session, as
//! the seed's `check_calls` takes it. The session is named after the file.

use serde_json::Value;

use super::odd_record::{holds_nothing, not_of_format};
use crate::diagnostic::Diagnostic;
use crate::json::{parse_value, Split};
use crate::model::{Args, Event, Origin, Session, ToolCall};

/// Reads the calls; an element that is not a call is a diagnostic and the others are kept.
pub fn read(file: &str, split: &Split<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Session> {
    let mut events = Vec::with_capacity(split.records.len());
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        if !value.is_object() || holds_nothing(&value) {
            diagnostics.push(not_of_format(
                file,
                record.line,
                &value,
                "a call ({\"name\", \"args\"})",
            ));
            continue;
        }
        match call_from_value(value) {
            Ok(call) => events.push(Event::ToolUse(call)),
            Err(message) => diagnostics.push(Diagnostic::error(file, Some(record.line), message)),
        }
    }
    vec![Session {
        session_id: super::file_stem(file).to_string(),
        events,
        origin: Origin {
            file: file.to_string(),
            line: split.records.first().map_or(1, |record| record.line),
        },
        ..Session::default()
    }]
}

/// One `{"name", "args"?}` call; missing args are `{}` as in the seed.
pub(crate) fn call_from_value(value: Value) -> Result<ToolCall, String> {
    let Value::Object(mut map) = value else {
        return Err("a call is an object {\"name\", \"args\"}".to_string());
    };
    let name = match map.remove("name") {
        Some(Value::String(name)) => name,
        _ => return Err("call has no \"name\" string".to_string()),
    };
    let args = map
        .remove("args")
        .or_else(|| map.remove("arguments"))
        .unwrap_or_else(|| Value::Object(Default::default()));
    Ok(ToolCall {
        call_id: map.get("call_id").and_then(super::id_text),
        name,
        args: Args::from_sent(args),
    })
}
