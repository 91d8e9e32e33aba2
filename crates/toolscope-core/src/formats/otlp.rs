//! OTLP/JSON trace exports, read into flat [`Span`]s and then into one session per trace; the
//! span dialects (OpenTelemetry GenAI in `otel_genai`, OpenInference in `openinference`) only say
//! what each span means. One file may mix dialects: each span is read in its own.
//!
//! Accepted: `{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}` documents (one, or one per
//! line as the collector's file exporter writes), bare spans (an array or one per line), and flat
//! attribute maps (`{"gen_ai.operation.name": …}`, one span each). Real exporters deviate from
//! the protobuf JSON mapping, and all of these are read: enum names for `kind` and `status.code`
//! (`"STATUS_CODE_ERROR"`), base64 or upper-case hex ids, `intValue` as a bare number, an empty
//! `status`, attributes as a plain map, snake_case keys (`trace_id`, `parent_id`).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::conversation::Conversation;
use super::native::ToolLists;
use crate::diagnostic::Diagnostic;
use crate::json::{parse_record, Split};
use crate::model::{Args, Session};

/// One span, with its attributes decoded to plain JSON.
pub(crate) struct Span {
    pub(crate) trace_id: String,
    pub(crate) name: String,
    pub(crate) start: u128,
    pub(crate) is_error: bool,
    pub(crate) status_message: Option<String>,
    pub(crate) attributes: Map<String, Value>,
    /// `exception.message` of the span's `exception` events, if any.
    pub(crate) exception: Option<String>,
    /// The record the span was read from.
    pub(crate) line: usize,
    /// 1-based position of the span in the file.
    pub(crate) index: usize,
}

impl Span {
    /// An attribute as text: a string as is, anything else as JSON.
    pub(crate) fn text(&self, key: &str) -> Option<String> {
        self.attributes.get(key).map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
    }

    /// A string attribute.
    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).and_then(Value::as_str)
    }

    /// An attribute holding JSON, decoded when it is a JSON string.
    pub(crate) fn json(&self, key: &str) -> Option<Value> {
        match self.attributes.get(key)? {
            Value::String(text) => serde_json::from_str(text).ok(),
            other => Some(other.clone()),
        }
    }
}

/// What one message of a span said, in the order it said it.
pub(crate) enum Item {
    User(String),
    Assistant(String),
    Call {
        call_id: Option<String>,
        name: Option<String>,
        args: Args,
    },
    Result {
        call_id: Option<String>,
        content: String,
        /// The message's own error flag, where the shape has one.
        is_error: Option<bool>,
    },
}

/// What a span means for the session.
pub(crate) enum SpanRole {
    /// A model call: the messages it was sent and returned, and the tools it was given.
    Inference {
        input: Vec<Vec<Item>>,
        output: Vec<Vec<Item>>,
        tools: Option<Value>,
        /// A span summarising a whole agent run: its messages are used only when the trace
        /// has no model-call spans.
        is_summary: bool,
    },
    /// A tool's execution.
    Tool {
        call_id: Option<String>,
        name: Option<String>,
        args: Option<Value>,
        result: Option<String>,
    },
    /// Anything else (workflow, agent, retrieval spans without messages).
    Other,
}

/// Reads every span of the file; a record that holds none is an error at its line.
pub(crate) fn read_spans(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Span> {
    let mut spans = Vec::new();
    let stem = super::file_stem(file);
    for record in &split.records {
        let value = match parse_record::<Value>(file, record, diagnostics) {
            Ok(value) => value,
            Err(diagnostic) => {
                diagnostics.push(diagnostic);
                continue;
            }
        };
        let before = spans.len();
        if let Some(resources) = value.get("resourceSpans").and_then(Value::as_array) {
            for resource in resources {
                let scopes = resource
                    .get("scopeSpans")
                    .or_else(|| resource.get("instrumentationLibrarySpans"))
                    .and_then(Value::as_array);
                for scope in scopes.into_iter().flatten() {
                    let scope_spans = scope.get("spans").and_then(Value::as_array);
                    for span in scope_spans.into_iter().flatten() {
                        let index = spans.len() + 1;
                        match span_from_value(span, record.line, index) {
                            Ok(span) => spans.push(span),
                            Err(message) => diagnostics.push(Diagnostic::error(
                                file,
                                Some(record.line),
                                format!("span {index}: {message}; left out"),
                            )),
                        }
                    }
                }
            }
            if spans.len() == before {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(record.line),
                    "OTLP export with no spans",
                ));
            }
        } else if is_bare_span(&value) {
            let index = spans.len() + 1;
            match span_from_value(&value, record.line, index) {
                Ok(span) => spans.push(span),
                Err(message) => diagnostics.push(Diagnostic::error(
                    file,
                    Some(record.line),
                    format!("span {index}: {message}; left out"),
                )),
            }
        } else if is_attribute_map(&value) {
            let Value::Object(attributes) = value else {
                continue;
            };
            spans.push(Span {
                trace_id: stem.to_string(),
                name: String::new(),
                start: 0,
                is_error: false,
                status_message: None,
                attributes,
                exception: None,
                line: record.line,
                index: spans.len() + 1,
            });
        } else {
            diagnostics.push(Diagnostic::error(
                file,
                Some(record.line),
                "record is not an OTLP/JSON trace export ({\"resourceSpans\"}), a span or a \
                 map of span attributes; left out",
            ));
        }
    }
    spans
}

/// The attribute keys of the spans a record holds (an export, a bare span or an attribute map),
/// for format detection.
pub(crate) fn attribute_keys(record: &Value) -> Vec<String> {
    let mut keys = Vec::new();
    let mut add = |attributes: Option<&Value>| match attributes {
        Some(Value::Array(list)) => keys.extend(
            list.iter()
                .filter_map(|pair| pair.get("key")?.as_str())
                .map(str::to_string),
        ),
        Some(Value::Object(map)) => keys.extend(map.keys().cloned()),
        _ => {}
    };
    if let Some(resources) = record.get("resourceSpans").and_then(Value::as_array) {
        for resource in resources {
            let scopes = resource.get("scopeSpans").and_then(Value::as_array);
            for scope in scopes.into_iter().flatten() {
                let spans = scope.get("spans").and_then(Value::as_array);
                for span in spans.into_iter().flatten() {
                    add(span.get("attributes"));
                }
            }
        }
    } else if is_bare_span(record) {
        add(record.get("attributes"));
    } else if is_attribute_map(record) {
        add(Some(record));
    }
    keys
}

/// A span on its own: it has a trace id and a name.
pub(crate) fn is_bare_span(value: &Value) -> bool {
    let has_trace = ["traceId", "trace_id", "context"]
        .iter()
        .any(|key| value.get(*key).is_some());
    has_trace && value.get("name").is_some()
}

/// A flat map of span attributes, as span attribute dumps and test fixtures hold them.
pub(crate) fn is_attribute_map(value: &Value) -> bool {
    value.as_object().is_some_and(|map| {
        map.keys().any(|key| {
            key.starts_with("gen_ai.")
                || key.starts_with("llm.")
                || key == "openinference.span.kind"
        })
    })
}

fn span_from_value(value: &Value, line: usize, index: usize) -> Result<Span, String> {
    let context = value.get("context");
    let field = |camel: &str, snake: &str| {
        value
            .get(camel)
            .or_else(|| value.get(snake))
            .or_else(|| context.and_then(|context| context.get(snake)))
    };
    let trace_id = field("traceId", "trace_id")
        .and_then(Value::as_str)
        .map(normalise_id)
        .ok_or("span has no \"traceId\"")?;
    let status = value.get("status");
    let code = status
        .and_then(|status| status.get("code").or_else(|| status.get("status_code")))
        .or_else(|| value.get("status_code"));
    let is_error = match code {
        Some(Value::Number(number)) => number.as_u64() == Some(2),
        Some(Value::String(name)) => {
            matches!(
                name.as_str(),
                "STATUS_CODE_ERROR" | "ERROR" | "StatusCode.ERROR" | "2"
            )
        }
        _ => false,
    };
    let status_message = status
        .and_then(|status| status.get("message").or_else(|| status.get("description")))
        .or_else(|| value.get("status_message"))
        .and_then(Value::as_str)
        .filter(|message| !message.is_empty())
        .map(str::to_string);
    let attributes = match value.get("attributes") {
        Some(Value::Array(list)) => key_values(list),
        Some(Value::Object(map)) => map.clone(),
        _ => Map::new(),
    };
    let exception = value
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|event| event.get("name").and_then(Value::as_str) == Some("exception"))
        .find_map(|event| {
            let attributes = match event.get("attributes") {
                Some(Value::Array(list)) => key_values(list),
                Some(Value::Object(map)) => map.clone(),
                _ => Map::new(),
            };
            attributes
                .get("exception.message")
                .or_else(|| attributes.get("exception.type"))
                .and_then(Value::as_str)
                .map(str::to_string)
        });
    let start = field("startTimeUnixNano", "start_time_unix_nano")
        .and_then(|start| match start {
            Value::String(text) => text.parse().ok(),
            Value::Number(number) => number.as_u64().map(u128::from),
            _ => None,
        })
        .unwrap_or(0);
    Ok(Span {
        trace_id,
        name: value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        start,
        is_error,
        status_message,
        attributes,
        exception,
        line,
        index,
    })
}

/// Hex ids in lower case (they are case-insensitive); other encodings (base64) as written.
fn normalise_id(id: &str) -> String {
    let id = id.strip_prefix("0x").unwrap_or(id);
    if id.chars().all(|c| c.is_ascii_hexdigit()) {
        id.to_ascii_lowercase()
    } else {
        id.to_string()
    }
}

/// OTLP `[{"key", "value": AnyValue}]` as a map of plain JSON values.
fn key_values(list: &[Value]) -> Map<String, Value> {
    list.iter()
        .filter_map(|pair| {
            let key = pair.get("key")?.as_str()?;
            Some((key.to_string(), any_value(pair.get("value")?)))
        })
        .collect()
}

/// An OTLP `AnyValue` as plain JSON (`intValue` as a decimal string or a bare number).
fn any_value(value: &Value) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    if let Some(text) = map.get("stringValue") {
        text.clone()
    } else if let Some(flag) = map.get("boolValue") {
        flag.clone()
    } else if let Some(int) = map.get("intValue") {
        match int {
            Value::String(text) => text
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| int.clone()),
            other => other.clone(),
        }
    } else if let Some(double) = map.get("doubleValue") {
        double.clone()
    } else if let Some(array) = map.get("arrayValue") {
        let values = array.get("values").and_then(Value::as_array);
        Value::Array(values.into_iter().flatten().map(any_value).collect())
    } else if let Some(kvlist) = map.get("kvlistValue") {
        let values = kvlist.get("values").and_then(Value::as_array);
        Value::Object(key_values(values.map_or(&[][..], Vec::as_slice)))
    } else if let Some(bytes) = map.get("bytesValue") {
        bytes.clone()
    } else {
        Value::Null
    }
}

/// The spans grouped by trace (in order of first appearance), each trace in start order.
pub(crate) fn traces(spans: Vec<Span>) -> Vec<Vec<Span>> {
    let mut traces: Vec<Vec<Span>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for span in spans {
        match by_id.get(&span.trace_id) {
            Some(&at) => traces[at].push(span),
            None => {
                by_id.insert(span.trace_id.clone(), traces.len());
                traces.push(vec![span]);
            }
        }
    }
    for trace in &mut traces {
        if trace.iter().all(|span| span.start > 0) {
            trace.sort_by_key(|span| span.start);
        }
    }
    traces
}

/// Reads an OTLP file: one session per trace, each span read in its own dialect.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let spans = read_spans(file, split, diagnostics);
    let mut tool_lists = ToolLists::default();
    let mut sessions = Vec::new();
    for trace in traces(spans) {
        let roles = trace.iter().map(role_of).collect();
        let session = build_session(file, &trace, roles, &mut tool_lists, diagnostics);
        if session.events.is_empty() {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(trace[0].line),
                format!(
                    "trace {:?}: none of its {} span(s) is a model call or tool execution with \
                     content; left out",
                    trace[0].trace_id,
                    trace.len()
                ),
            ));
        } else {
            sessions.push(session);
        }
    }
    sessions
}

/// What a span means, in whichever dialect it is written.
fn role_of(span: &Span) -> SpanRole {
    if span.attributes.contains_key("openinference.span.kind") {
        super::openinference::role_of(span)
    } else {
        super::otel_genai::role_of(span)
    }
}

/// One session from a trace's spans, in order, and what each means.
pub(crate) fn build_session(
    file: &str,
    trace: &[Span],
    roles: Vec<SpanRole>,
    tool_lists: &mut ToolLists,
    diagnostics: &mut Vec<Diagnostic>,
) -> Session {
    let session_id = trace
        .iter()
        .find_map(|span| {
            span.str("gen_ai.conversation.id")
                .or(span.str("session.id"))
        })
        .map_or_else(|| trace[0].trace_id.clone(), str::to_string);
    let mut conversation = Conversation::new(session_id, file, trace[0].line);
    let has_model_calls = roles.iter().any(|role| {
        matches!(
            role,
            SpanRole::Inference {
                is_summary: false,
                ..
            }
        )
    });
    // Messages repeat the history each model call was sent: skip what an earlier call showed.
    let mut shown = 0;
    let mut tools = None;
    for (span, role) in trace.iter().zip(roles) {
        conversation.set_line(span.line);
        let place = format!("span {} {:?}", span.index, span.name);
        match role {
            SpanRole::Inference {
                input,
                output,
                tools: span_tools,
                is_summary,
            } => {
                tools = span_tools.or(tools);
                if is_summary && has_model_calls {
                    continue;
                }
                let skip = if input.len() >= shown { shown } else { 0 };
                shown = input.len() + output.len();
                let messages = input.into_iter().skip(skip).chain(output);
                for (number, message) in messages.enumerate() {
                    let place = format!("{place}, message {}", skip + number + 1);
                    for item in message {
                        add_item(&mut conversation, item, &place, diagnostics);
                    }
                }
            }
            SpanRole::Tool {
                call_id,
                name,
                args,
                result,
            } => add_tool_span(
                &mut conversation,
                span,
                (call_id, name, args, result),
                &place,
                diagnostics,
            ),
            SpanRole::Other => {}
        }
    }
    if let Some(tools) = tools {
        match tool_lists.read(&tools.to_string()) {
            Ok(tools) => conversation.set_tools(Some(tools)),
            Err(message) => diagnostics.push(
                conversation.warning(format!("tool definitions: {message}; they are ignored")),
            ),
        }
    }
    conversation.finish()
}

fn add_item(
    conversation: &mut Conversation,
    item: Item,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    match item {
        Item::User(text) if text.trim().is_empty() => {}
        Item::User(text) => conversation.user(text),
        Item::Assistant(text) => conversation.assistant(text),
        Item::Call {
            call_id,
            name,
            args,
        } => {
            // A tool span may have shown this call already.
            if !call_id
                .as_deref()
                .is_some_and(|id| conversation.has_call(id))
            {
                conversation.call(call_id, name.as_deref(), args, place, diagnostics);
            }
        }
        Item::Result {
            call_id,
            content,
            is_error,
        } => {
            // The tool span's result (with its status) wins over the copy sent to the model;
            // a copy without id shows itself by finding no call waiting for it.
            if call_id.is_none() && !conversation.has_waiting_call() {
                return;
            }
            if !call_id
                .as_deref()
                .is_some_and(|id| conversation.is_answered(id))
            {
                conversation.result(call_id, Some(content), is_error, place, diagnostics);
            }
        }
    }
}

/// A tool span: the result of a call the model made (matched by id, else by name), or a call
/// and its result when no model message showed the call.
fn add_tool_span(
    conversation: &mut Conversation,
    span: &Span,
    (call_id, name, args, result): (
        Option<String>,
        Option<String>,
        Option<Value>,
        Option<String>,
    ),
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let is_error = span.is_error
        || span.attributes.contains_key("error.type")
        || span.attributes.contains_key("tool.error");
    let content = result.or_else(|| {
        is_error.then(|| {
            span.status_message
                .clone()
                .or_else(|| span.exception.clone())
                .or_else(|| span.text("error.type"))
                .unwrap_or_default()
        })
    });
    let explicit = is_error.then_some(true);
    let known = match &call_id {
        Some(id) if conversation.has_call(id) => Some(Some(id.clone())),
        _ => name
            .as_deref()
            .and_then(|name| conversation.waiting_call_named(name)),
    };
    match known {
        Some(id) if !id.as_deref().is_some_and(|id| conversation.is_answered(id)) => {
            conversation.result(id, content, explicit, place, diagnostics);
        }
        Some(_) => {}
        None => {
            let args = super::messages::args_of(args.as_ref());
            conversation.call(call_id.clone(), name.as_deref(), args, place, diagnostics);
            if name.is_some() {
                conversation.result(call_id, content, explicit, place, diagnostics);
            }
        }
    }
}

/// Flattened attributes under `prefix` (`llm.input_messages.0.message.role`, …) as nested JSON:
/// numeric segments become array positions.
pub(crate) fn unflatten(attributes: &Map<String, Value>, prefix: &str) -> Value {
    let mut root = Value::Object(Map::new());
    let dotted = format!("{prefix}.");
    for (key, value) in attributes {
        let Some(rest) = key.strip_prefix(&dotted) else {
            continue;
        };
        let mut node = &mut root;
        let segments: Vec<&str> = rest.split('.').collect();
        for (position, segment) in segments.iter().enumerate() {
            let Value::Object(map) = node else {
                break;
            };
            if position + 1 == segments.len() {
                map.insert((*segment).to_string(), value.clone());
                break;
            }
            node = map
                .entry((*segment).to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    arrays(root)
}

/// Objects whose keys are all numbers as arrays, in numeric order.
fn arrays(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let is_list = !map.is_empty() && map.keys().all(|key| key.parse::<usize>().is_ok());
            if is_list {
                let mut items: Vec<(usize, Value)> = map
                    .into_iter()
                    .map(|(key, value)| (key.parse().unwrap_or(0), arrays(value)))
                    .collect();
                items.sort_by_key(|(position, _)| *position);
                Value::Array(items.into_iter().map(|(_, value)| value).collect())
            } else {
                Value::Object(map.into_iter().map(|(k, v)| (k, arrays(v))).collect())
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn flattened_attributes_nest_with_arrays_in_numeric_order() {
        let attributes = json!({
            "llm.input_messages.10.message.role": "user",
            "llm.input_messages.2.message.role": "tool",
            "llm.input_messages.2.message.tool_calls.0.tool_call.function.name": "f",
            "llm.model_name": "m"
        });
        let nested = unflatten(attributes.as_object().unwrap(), "llm.input_messages");
        assert_eq!(
            nested,
            json!([
                {"message": {"role": "tool", "tool_calls": [{"tool_call": {"function": {"name": "f"}}}]}},
                {"message": {"role": "user"}}
            ])
        );
    }

    #[test]
    fn any_values_decode_including_exporter_deviations() {
        let list = json!([
            {"key": "a", "value": {"intValue": "412"}},
            {"key": "b", "value": {"intValue": 7}},
            {"key": "c", "value": {"arrayValue": {"values": [{"stringValue": "x"}]}}},
            {"key": "d", "value": {"kvlistValue": {"values": [{"key": "k", "value": {"boolValue": true}}]}}}
        ]);
        let map = key_values(list.as_array().unwrap());
        assert_eq!(
            Value::Object(map),
            json!({"a": 412, "b": 7, "c": ["x"], "d": {"k": true}})
        );
        assert_eq!(normalise_id("5B8EFFF798038103"), "5b8efff798038103");
        assert_eq!(
            normalise_id("S/kvNXezTaajzpKdDg5HNg=="),
            "S/kvNXezTaajzpKdDg5HNg=="
        );
    }
}
