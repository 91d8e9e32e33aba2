//! OpenTelemetry GenAI events: how older instrumentations (OpenTelemetry Python contrib, among
//! others) record content, one event per message: `gen_ai.system.message`,
//! `gen_ai.user.message`, `gen_ai.assistant.message` (`{content, tool_calls}`),
//! `gen_ai.tool.message` (`{content, id}`, the id being the call's) and `gen_ai.choice`
//! (`{index, finish_reason, message}`), as log records (`resourceLogs`) or as span events; and the
//! oldest `gen_ai.content.prompt` / `gen_ai.content.completion` span events. They become the
//! `gen_ai.input.messages` / `gen_ai.output.messages` of the span they belong to.
//!
//! ```json
//! {"resourceLogs": [{"scopeLogs": [{"logRecords": [
//!   {"eventName": "gen_ai.user.message", "traceId": "4bf9…", "spanId": "00f0…",
//!    "body": {"kvlistValue": {"values": [{"key": "content", "value": {"stringValue": "Weather?"}}]}}}]}]}]}
//! ```

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::otlp::Span;
use super::otlp_json::{any_value, key_values, normalise_id};

/// The message a GenAI event stands for, and whether it is the model's output.
fn event_message(name: &str, body: Value) -> Option<(Value, bool)> {
    let role = match name {
        "gen_ai.system.message" => "system",
        "gen_ai.user.message" => "user",
        "gen_ai.assistant.message" => "assistant",
        "gen_ai.tool.message" => "tool",
        "gen_ai.choice" => {
            let mut message = body.get("message").cloned().unwrap_or(body);
            if let Some(map) = message.as_object_mut() {
                map.entry("role")
                    .or_insert_with(|| Value::from("assistant"));
            }
            return Some((message, true));
        }
        _ => return None,
    };
    let mut message = match body {
        Value::Object(map) => map,
        Value::String(text) => Map::from_iter([("content".to_string(), Value::String(text))]),
        _ => Map::new(),
    };
    message.insert("role".into(), Value::from(role));
    Some((Value::Object(message), false))
}

/// Sets a span's `gen_ai.input.messages` / `gen_ai.output.messages` from its events `(name,
/// body)`, unless it already has them.
pub(crate) fn events_as_messages(
    attributes: &mut Map<String, Value>,
    events: Vec<(String, Value)>,
) {
    if attributes.contains_key("gen_ai.input.messages") {
        return;
    }
    let mut input = Vec::new();
    let mut output = Vec::new();
    for (name, body) in events {
        // The oldest convention: the whole prompt or completion as one JSON string attribute.
        for (event, key) in [
            ("gen_ai.content.prompt", "gen_ai.prompt"),
            ("gen_ai.content.completion", "gen_ai.completion"),
        ] {
            if name == event {
                if let Some(text) = body.get(key) {
                    attributes.entry(key).or_insert_with(|| text.clone());
                }
            }
        }
        match event_message(&name, body) {
            Some((message, true)) => output.push(message),
            Some((message, false)) => input.push(message),
            None => {}
        }
    }
    if !input.is_empty() {
        attributes.insert("gen_ai.input.messages".into(), Value::Array(input));
    }
    if !output.is_empty() {
        attributes.insert("gen_ai.output.messages".into(), Value::Array(output));
    }
}

/// The GenAI events of one span, in order.
struct EventGroup {
    trace_id: String,
    start: u128,
    events: Vec<(String, Value)>,
}

/// The log records of an OTLP logs export that are GenAI events, as one span per (trace, span)
/// they belong to, numbered from `first_index`.
pub(crate) fn log_spans(record: &Value, line: usize, first_index: usize, stem: &str) -> Vec<Span> {
    let mut groups: Vec<EventGroup> = Vec::new();
    let mut by_key: HashMap<(String, String), usize> = HashMap::new();
    let resources = record.get("resourceLogs").and_then(Value::as_array);
    for resource in resources.into_iter().flatten() {
        let scopes = resource.get("scopeLogs").and_then(Value::as_array);
        for scope in scopes.into_iter().flatten() {
            let logs = scope.get("logRecords").and_then(Value::as_array);
            for log in logs.into_iter().flatten() {
                let attributes = match log.get("attributes") {
                    Some(Value::Array(list)) => key_values(list),
                    Some(Value::Object(map)) => map.clone(),
                    _ => Map::new(),
                };
                let name = log
                    .get("eventName")
                    .and_then(Value::as_str)
                    .or_else(|| attributes.get("event.name").and_then(Value::as_str));
                let Some(name) = name.filter(|name| name.starts_with("gen_ai.")) else {
                    continue;
                };
                let text = |key: &str| log.get(key).and_then(Value::as_str).map(normalise_id);
                let key = (
                    text("traceId").unwrap_or_else(|| stem.to_string()),
                    text("spanId").unwrap_or_default(),
                );
                let time = log
                    .get("timeUnixNano")
                    .and_then(|time| time.as_str()?.parse().ok())
                    .unwrap_or(0);
                let body = log.get("body").map(any_value).unwrap_or(Value::Null);
                let at = *by_key.entry(key.clone()).or_insert_with(|| {
                    groups.push(EventGroup {
                        trace_id: key.0,
                        start: time,
                        events: Vec::new(),
                    });
                    groups.len() - 1
                });
                groups[at].events.push((name.to_string(), body));
            }
        }
    }
    groups
        .into_iter()
        .enumerate()
        .map(|(offset, group)| {
            let mut attributes = Map::new();
            events_as_messages(&mut attributes, group.events);
            Span {
                trace_id: group.trace_id,
                name: "gen_ai events".to_string(),
                start: group.start,
                is_error: false,
                status_message: None,
                attributes,
                exception: None,
                line,
                index: first_index + offset,
            }
        })
        .collect()
}
