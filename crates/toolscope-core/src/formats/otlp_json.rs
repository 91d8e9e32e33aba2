//! OTLP/JSON decoding: trace exports, bare spans and attribute maps into flat [`Span`]s.
//!
//! Real exporters deviate from the protobuf JSON mapping, and all of these are read: enum names
//! for `kind` and `status.code` (`"STATUS_CODE_ERROR"`), base64 or upper-case hex ids,
//! `intValue` as a bare number, an empty `status`, attributes as a plain map, snake_case keys
//! (`trace_id`, `parent_id`) and Phoenix's top-level `status_code`; Phoenix's own exports (its REST
//! API's pages of spans, snake_case `AnyValue`s, its spans dataframe's rows) too. OTLP logs exports
//! (`resourceLogs`) are read for their GenAI events (see `otel_events`).

use serde_json::{Map, Value};

use super::odd_record::not_of_format;
use super::otlp::Span;
use crate::diagnostic::Diagnostic;
use crate::json::{parse_value, Split};

/// Reads every span of the file; a record that holds none is an error at its line.
pub(crate) fn read_spans(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Span> {
    let mut spans = Vec::new();
    // GenAI events logged apart from their spans, with how many spans were read before each.
    let mut log_events = Vec::new();
    let stem = super::file_stem(file);
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
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
                        push_span(&mut spans, span, file, record.line, diagnostics);
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
        } else if value.get("resourceLogs").is_some() {
            let found = super::otel_events::log_events(&value, record.line);
            if found.is_empty() {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(record.line),
                    "OTLP logs export with no GenAI events",
                ));
            }
            log_events.extend(found.into_iter().map(|event| (spans.len(), event)));
        } else if super::otel_events::is_bare_log_record(&value) {
            match super::otel_events::log_event(&value, record.line) {
                Some(event) => log_events.push((spans.len(), event)),
                None => diagnostics.push(Diagnostic::warning(
                    file,
                    Some(record.line),
                    "log record that is not a GenAI event; left out",
                )),
            }
        } else if let Some(page) = phoenix_page(&value) {
            for span in page {
                push_span(&mut spans, span, file, record.line, diagnostics);
            }
        } else if is_bare_span(&value) {
            push_span(&mut spans, &value, file, record.line, diagnostics);
        } else if is_attribute_map(&value) {
            let Value::Object(attributes) = value else {
                continue;
            };
            spans.push(Span {
                trace_id: stem.to_string(),
                span_id: None,
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
            let expected = "an OTLP/JSON trace export ({\"resourceSpans\"}), a span or a map of \
                            span attributes";
            diagnostics.push(not_of_format(file, record.line, &value, expected));
        }
    }
    if log_events.is_empty() {
        spans
    } else {
        super::otel_events::attach(spans, log_events, stem)
    }
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
    } else if let Some(page) = phoenix_page(record) {
        for span in page {
            keys.extend(
                span_attributes(span)
                    .unwrap_or_default()
                    .into_iter()
                    .map(|(key, _)| key),
            );
        }
    } else if is_bare_span(record) {
        keys.extend(
            span_attributes(record)
                .unwrap_or_default()
                .into_iter()
                .map(|(key, _)| key),
        );
    } else if is_attribute_map(record) {
        add(Some(record));
    }
    keys
}

/// The span `value` read (at record `line`) and added to `spans`, or an error that names its
/// place among them.
fn push_span(
    spans: &mut Vec<Span>,
    value: &Value,
    file: &str,
    line: usize,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let index = spans.len() + 1;
    match span_from_value(value, line, index) {
        Ok(span) => spans.push(span),
        Err(message) => diagnostics.push(Diagnostic::error(
            file,
            Some(line),
            format!("span {index}: {message}; left out"),
        )),
    }
}

/// A span on its own: it has a trace id and a name.
pub(crate) fn is_bare_span(value: &Value) -> bool {
    let has_trace = ["traceId", "trace_id", "context", "context.trace_id"]
        .iter()
        .any(|key| value.get(*key).is_some());
    has_trace && value.get("name").is_some()
}

/// The spans of a page of Phoenix's REST API (`/v1/projects/{project}/spans` and its
/// `/spans/otlpv1`): `{"data": [span, …], "next_cursor": …}`.
pub(crate) fn phoenix_page(value: &Value) -> Option<&[Value]> {
    let page = value.get("data")?.as_array()?;
    page.first()
        .is_some_and(is_bare_span)
        .then_some(page.as_slice())
}

/// The OpenInference span kinds, as Phoenix writes them in a span's own `span_kind`.
const OPENINFERENCE_KINDS: [&str; 10] = [
    "LLM",
    "TOOL",
    "CHAIN",
    "AGENT",
    "RETRIEVER",
    "EMBEDDING",
    "RERANKER",
    "GUARDRAIL",
    "EVALUATOR",
    "PROMPT",
];

/// How many times the bytes of a dataframe row's `attributes.*` columns their flattened keys may
/// take: a key repeats every prefix above it, so a long key over a wide object would otherwise
/// grow without bound (a 10 kB key over 10,000 leaves is 100 MB of keys).
const FLATTENED_KEYS_PER_BYTE: usize = 8;

/// A span's attributes as one flat map of dotted keys, however the export holds them: an OTLP
/// key-value list, a map, or (a row of Phoenix's spans dataframe, as `DataFrame.to_json` writes
/// it) `attributes.`-prefixed columns whose values nest the rest of the key
/// (`"attributes.llm.input_messages": [{"message.role": "user"}]`). Phoenix keeps the
/// OpenInference kind in the span's `span_kind` and leaves it out of the attributes of its REST
/// API's spans; it is put back as `openinference.span.kind`. An error when the columns'
/// flattened keys would take more than [`FLATTENED_KEYS_PER_BYTE`] times their own size.
fn span_attributes(value: &Value) -> Result<Map<String, Value>, String> {
    let mut attributes = match value.get("attributes") {
        Some(Value::Array(list)) => key_values(list),
        Some(Value::Object(map)) => map.clone(),
        _ => {
            let mut flat = Map::new();
            let columns: Vec<(&str, &Value)> = value
                .as_object()
                .into_iter()
                .flatten()
                .filter_map(|(column, cell)| Some((column.strip_prefix("attributes.")?, cell)))
                .collect();
            let size: usize = columns
                .iter()
                .map(|(key, cell)| key.len() + text_size(cell))
                .sum();
            let mut budget = size.saturating_mul(FLATTENED_KEYS_PER_BYTE);
            for (key, cell) in columns {
                flatten_into(&mut flat, key.to_string(), cell, &mut budget).map_err(|()| {
                    format!(
                        "its attributes.* columns ({size} bytes) nest keys that flattened would \
                         take more than {FLATTENED_KEYS_PER_BYTE} times that"
                    )
                })?;
            }
            flat
        }
    };
    let kind = value.get("span_kind").and_then(Value::as_str);
    if let Some(kind) = kind.filter(|kind| OPENINFERENCE_KINDS.contains(kind)) {
        attributes
            .entry("openinference.span.kind")
            .or_insert_with(|| Value::String(kind.to_string()));
    }
    Ok(attributes)
}

/// About how many bytes of JSON text a value takes: its keys and strings, and a few per other
/// value.
fn text_size(value: &Value) -> usize {
    match value {
        Value::String(text) => text.len() + 2,
        Value::Array(list) => 2 + list.iter().map(|item| text_size(item) + 1).sum::<usize>(),
        Value::Object(map) => {
            2 + map
                .iter()
                .map(|(key, item)| key.len() + 4 + text_size(item))
                .sum::<usize>()
        }
        _ => 4,
    }
}

/// `value` under `key` as OpenTelemetry flattens attributes: objects and lists of objects
/// into dotted keys (`llm.input_messages.0.message.role`), other lists and scalars as they are;
/// a null (a column the span does not have) is no attribute. Each key made, an object's or a
/// list's on the way to its leaves too, is taken from `budget`; an error once it is spent.
fn flatten_into(
    flat: &mut Map<String, Value>,
    key: String,
    value: &Value,
    budget: &mut usize,
) -> Result<(), ()> {
    *budget = budget.checked_sub(key.len()).ok_or(())?;
    match value {
        Value::Null => {}
        Value::Object(map) => {
            for (inner, value) in map {
                flatten_into(flat, format!("{key}.{inner}"), value, budget)?;
            }
        }
        Value::Array(list) if list.iter().any(Value::is_object) => {
            for (index, value) in list.iter().enumerate() {
                flatten_into(flat, format!("{key}.{index}"), value, budget)?;
            }
        }
        other => {
            flat.insert(key, other.clone());
        }
    }
    Ok(())
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
            .or_else(|| value.get(format!("context.{snake}").as_str()))
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
    let mut attributes = span_attributes(value)?;
    let events: Vec<(String, Value)> = value
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|event| {
            let name = event.get("name")?.as_str()?.to_string();
            let body = match (event.get("body"), event.get("attributes")) {
                (Some(body), _) => any_value(body),
                (None, Some(Value::Array(list))) => Value::Object(key_values(list)),
                (None, Some(map @ Value::Object(_))) => map.clone(),
                _ => Value::Null,
            };
            Some((name, body))
        })
        .filter(|(name, _)| name.starts_with("gen_ai."))
        .collect();
    if !events.is_empty() {
        super::otel_events::events_as_messages(&mut attributes, events);
    }
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
    // The Python SDK's `span.to_json()` writes `start_time` as an RFC 3339 timestamp.
    let start = super::iso_time::nanos_or_iso(
        field("startTimeUnixNano", "start_time_unix_nano"),
        value.get("start_time"),
    )
    .unwrap_or(0);
    Ok(Span {
        trace_id,
        span_id: field("spanId", "span_id")
            .and_then(Value::as_str)
            .map(normalise_id),
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
pub(crate) fn normalise_id(id: &str) -> String {
    let id = id.strip_prefix("0x").unwrap_or(id);
    if id.chars().all(|c| c.is_ascii_hexdigit()) {
        id.to_ascii_lowercase()
    } else {
        id.to_string()
    }
}

/// OTLP `[{"key", "value": AnyValue}]` as a map of plain JSON values.
pub(crate) fn key_values(list: &[Value]) -> Map<String, Value> {
    crate::sort::collect_by_insert(list.iter().filter_map(|pair| {
        let key = pair.get("key")?.as_str()?;
        Some((key.to_string(), any_value(pair.get("value")?)))
    }))
}

/// An OTLP `AnyValue` as plain JSON (`intValue` as a decimal string or a bare number). Phoenix's
/// `/spans/otlpv1` writes the fields in snake_case with every other one `null`
/// (`{"string_value": "x", "int_value": null, …}`).
pub(crate) fn any_value(value: &Value) -> Value {
    let Some(map) = value.as_object() else {
        return value.clone();
    };
    let field = |camel: &str, snake: &str| {
        map.get(camel)
            .or_else(|| map.get(snake))
            .filter(|value| !value.is_null())
    };
    if let Some(text) = field("stringValue", "string_value") {
        text.clone()
    } else if let Some(flag) = field("boolValue", "bool_value") {
        flag.clone()
    } else if let Some(int) = field("intValue", "int_value") {
        match int {
            Value::String(text) => text
                .parse::<i64>()
                .map(Value::from)
                .unwrap_or_else(|_| int.clone()),
            other => other.clone(),
        }
    } else if let Some(double) = field("doubleValue", "double_value") {
        double.clone()
    } else if let Some(array) = field("arrayValue", "array_value") {
        let values = array.get("values").and_then(Value::as_array);
        Value::Array(values.into_iter().flatten().map(any_value).collect())
    } else if let Some(kvlist) = field("kvlistValue", "kvlist_value") {
        let values = kvlist.get("values").and_then(Value::as_array);
        Value::Object(key_values(values.map_or(&[][..], Vec::as_slice)))
    } else if let Some(bytes) = field("bytesValue", "bytes_value") {
        bytes.clone()
    } else {
        Value::Null
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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

    /// A dataframe row whose column nests a long key over many leaves: flattened, every leaf's
    /// key would repeat the long one (here 20 kB × 2,000 leaves, 40 MB of keys from 36 kB).
    #[test]
    fn nested_attribute_columns_that_would_flatten_past_their_budget_are_an_error() {
        let leaves: Map<String, Value> = (0..2_000).map(|n| (n.to_string(), json!(1))).collect();
        let long = "k".repeat(20_000);
        let row = json!({"name": "x", "context.trace_id": "ab",
                         "attributes.llm": {long.clone(): leaves}});
        let error = span_attributes(&row).unwrap_err();
        assert!(error.contains("more than 8 times"), "{error}");
        // A chain of long keys, each prefix held while its children are flattened.
        let mut chain = json!(1);
        for _ in 0..100 {
            chain = json!({long.clone(): chain});
        }
        let row = json!({"name": "x", "context.trace_id": "ab", "attributes.llm": chain});
        assert!(span_attributes(&row).is_err());
        // A real row's columns flatten within it.
        let row = json!({"name": "x", "context.trace_id": "ab",
            "attributes.llm.input_messages": [{"message.role": "user", "message.content": "hi"}],
            "attributes.tool.name": null});
        let flat = span_attributes(&row).unwrap();
        assert_eq!(
            Value::Object(flat),
            json!({"llm.input_messages.0.message.role": "user",
                   "llm.input_messages.0.message.content": "hi"})
        );
    }
}
