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

use serde_json::{Map, Value};

use super::otlp::Span;
use super::otlp_json::{any_value, key_values, normalise_id};
use crate::hashing::{HashMap, HashMapExt};

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

/// The event whose attributes hold a whole model call (`gen_ai.input.messages`,
/// `gen_ai.output.messages`, `gen_ai.tool.definitions`), as OpenTelemetry's Python GenAI
/// instrumentations log it when content goes to events.
const OPERATION_DETAILS: &str = "gen_ai.client.inference.operation.details";

/// One GenAI event logged as a log record, and the span it belongs to.
pub(crate) struct LogEvent {
    trace_id: Option<String>,
    span_id: Option<String>,
    time: u128,
    name: String,
    body: Value,
    attributes: Map<String, Value>,
    line: usize,
}

/// A log record on its own, as the Python SDK's `ConsoleLogRecordExporter` prints it
/// (`LogRecord.to_json()`: `body`, `attributes`, `trace_id`, `span_id`, `event_name`, …).
pub(crate) fn is_bare_log_record(value: &Value) -> bool {
    let has = |keys: &[&str]| keys.iter().any(|key| value.get(*key).is_some());
    value.is_object()
        && !has(&["name", "resourceSpans", "resourceLogs"])
        && has(&["trace_id", "traceId"])
        && (has(&["event_name", "eventName"])
            || has(&["body"]) && has(&["severity_number", "severityNumber"]))
}

/// A log record (OTLP/JSON or the Python SDK's bare one) as a GenAI event, or `None` when it is
/// none.
pub(crate) fn log_event(log: &Value, line: usize) -> Option<LogEvent> {
    let attributes = match log.get("attributes") {
        Some(Value::Array(list)) => key_values(list),
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    let name = ["eventName", "event_name"]
        .iter()
        .find_map(|key| log.get(*key).and_then(Value::as_str))
        .or_else(|| attributes.get("event.name").and_then(Value::as_str))
        .filter(|name| name.starts_with("gen_ai."))?
        .to_string();
    let id = |camel: &str, snake: &str| {
        log.get(camel)
            .or_else(|| log.get(snake))
            .and_then(Value::as_str)
            .map(normalise_id)
            .filter(|id| !id.is_empty() && id.bytes().any(|byte| byte != b'0'))
    };
    let time = [
        ("timeUnixNano", "timestamp"),
        ("observedTimeUnixNano", "observed_timestamp"),
    ]
    .iter()
    .find_map(|(nanos, iso)| super::iso_time::nanos_or_iso(log.get(*nanos), log.get(*iso)))
    .unwrap_or(0);
    Some(LogEvent {
        trace_id: id("traceId", "trace_id"),
        span_id: id("spanId", "span_id"),
        time,
        name,
        body: log.get("body").map(any_value).unwrap_or(Value::Null),
        attributes,
        line,
    })
}

/// The GenAI events of an OTLP logs export, in order.
pub(crate) fn log_events(record: &Value, line: usize) -> Vec<LogEvent> {
    let resources = record.get("resourceLogs").and_then(Value::as_array);
    resources
        .into_iter()
        .flatten()
        .filter_map(|resource| resource.get("scopeLogs").and_then(Value::as_array))
        .flatten()
        .filter_map(|scope| scope.get("logRecords").and_then(Value::as_array))
        .flatten()
        .filter_map(|log| log_event(log, line))
        .collect()
}

/// Sets a span's attributes from the events logged for it: an operation-details event's
/// attributes where the span has none of its own (content may go to the span, the event or
/// both), then the message events as its input and output messages.
fn apply_events(attributes: &mut Map<String, Value>, events: Vec<LogEvent>) {
    let mut messages = Vec::new();
    for event in events {
        if event.name == OPERATION_DETAILS {
            for (key, value) in event.attributes {
                attributes.entry(key).or_insert(value);
            }
        } else {
            messages.push((event.name, event.body));
        }
    }
    if !messages.is_empty() {
        events_as_messages(attributes, messages);
    }
}

/// Joins the logged GenAI events to the spans they name (by trace and span id) or, when the
/// file has no such span, makes one span of each (trace, span)'s events, placed where its first
/// event was read. `events` pairs each event with how many spans had been read before it.
pub(crate) fn attach(spans: Vec<Span>, events: Vec<(usize, LogEvent)>, stem: &str) -> Vec<Span> {
    let mut by_span: HashMap<(String, String), usize> = HashMap::new();
    for (at, span) in spans.iter().enumerate() {
        if let Some(span_id) = &span.span_id {
            by_span.insert((span.trace_id.clone(), span_id.clone()), at);
        }
    }
    let mut spans: Vec<Option<Span>> = spans.into_iter().map(Some).collect();
    let mut joined: Vec<Vec<LogEvent>> = spans.iter().map(|_| Vec::new()).collect();
    // Events of spans not in the file: (position, events), in order of first event.
    let mut alone: Vec<(usize, Vec<LogEvent>)> = Vec::new();
    let mut alone_by_key: HashMap<(String, String), usize> = HashMap::new();
    for (position, event) in events {
        let key = (
            event.trace_id.clone().unwrap_or_else(|| stem.to_string()),
            event.span_id.clone().unwrap_or_default(),
        );
        if let Some(&at) = by_span.get(&key) {
            joined[at].push(event);
        } else {
            let at = *alone_by_key.entry(key).or_insert_with(|| {
                alone.push((position, Vec::new()));
                alone.len() - 1
            });
            alone[at].1.push(event);
        }
    }
    for (span, events) in spans.iter_mut().zip(joined) {
        if let Some(span) = span.as_mut().filter(|_| !events.is_empty()) {
            apply_events(&mut span.attributes, events);
        }
    }
    let mut placed: Vec<Span> = Vec::with_capacity(spans.len() + alone.len());
    let mut alone = alone.into_iter().peekable();
    for (at, span) in spans.iter_mut().enumerate() {
        while let Some((_, events)) = alone.next_if(|(position, _)| *position <= at) {
            placed.extend(span_of_events(events, stem));
        }
        placed.extend(span.take());
    }
    for (_, events) in alone {
        placed.extend(span_of_events(events, stem));
    }
    for (index, span) in placed.iter_mut().enumerate() {
        span.index = index + 1;
    }
    placed
}

/// One span of a (trace, span)'s logged events, when the file has no span of that id.
fn span_of_events(events: Vec<LogEvent>, stem: &str) -> Option<Span> {
    let first = events.first()?;
    let trace_id = first.trace_id.clone().unwrap_or_else(|| stem.to_string());
    let (span_id, start, line) = (first.span_id.clone(), first.time, first.line);
    let mut attributes = Map::new();
    apply_events(&mut attributes, events);
    Some(Span {
        trace_id,
        span_id,
        name: "gen_ai events".to_string(),
        start,
        is_error: false,
        status_message: None,
        attributes,
        exception: None,
        line,
        index: 0,
    })
}

#[cfg(test)]
mod tests {
    use crate::formats::read_traces;
    use crate::model::Event;

    const INPUT: &str = r#"[{"role":"user","parts":[{"type":"text","content":"Refund A1"}]}]"#;
    const OUTPUT: &str = r#"[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"refund","arguments":{"order":"A1"}}]}]"#;

    /// A Python SDK span (`span.to_json()`), with or without its content.
    fn span(with_content: bool) -> String {
        let content = if with_content {
            format!(
                r#", "gen_ai.input.messages": {}, "gen_ai.output.messages": {}"#,
                serde_json::Value::from(INPUT),
                serde_json::Value::from(OUTPUT)
            )
        } else {
            String::new()
        };
        format!(
            r#"{{"name": "chat m", "context": {{"trace_id": "0xab", "span_id": "0xcd"}}, "start_time": "2026-12-02T04:06:09.657218Z", "attributes": {{"gen_ai.operation.name": "chat"{content}}}, "events": []}}"#
        )
    }

    /// A Python SDK log record (`LogRecord.to_json()`) of the operation-details event.
    fn details(span_id: &str) -> String {
        format!(
            r#"{{"body": null, "attributes": {{"gen_ai.operation.name": "chat", "gen_ai.input.messages": {INPUT}, "gen_ai.output.messages": {OUTPUT}}}, "trace_id": "0xab", "span_id": "{span_id}", "observed_timestamp": "2026-12-02T04:06:09.668862Z", "event_name": "gen_ai.client.inference.operation.details"}}"#
        )
    }

    fn calls(text: &str) -> Vec<String> {
        let mut diagnostics = Vec::new();
        let read = read_traces("f.json", text.as_bytes(), &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        read.sessions
            .iter()
            .flat_map(|session| &session.events)
            .filter_map(|event| match event {
                Event::ToolUse(call) => Some(call.name.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn content_logged_as_an_event_and_on_its_span_is_read_once() {
        let text = format!("{}\n{}\n", details("0xcd"), span(true));
        assert_eq!(calls(&text), ["refund"]);
    }

    #[test]
    fn content_logged_only_as_an_event_is_the_spans_content() {
        let text = format!("{}\n{}\n", details("0xcd"), span(false));
        assert_eq!(calls(&text), ["refund"]);
    }

    #[test]
    fn an_event_whose_span_is_not_in_the_file_is_a_model_call_of_its_own() {
        let text = format!("{}\n", details("0xef"));
        assert_eq!(calls(&text), ["refund"]);
    }

    #[test]
    fn a_log_record_that_is_not_a_genai_event_is_a_warning() {
        let text = format!(
            "{}\n{{\"body\": \"hello\", \"severity_number\": 9, \"trace_id\": \"0xab\", \"span_id\": \"0xcd\"}}\n",
            details("0xcd")
        );
        let mut diagnostics = Vec::new();
        let read = read_traces("f.json", text.as_bytes(), &mut diagnostics);
        assert_eq!(read.sessions.len(), 1);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert!(diagnostics[0].message.contains("not a GenAI event"));
    }
}
