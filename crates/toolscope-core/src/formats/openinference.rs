//! OpenInference span exports (Arize Phoenix and the OpenInference instrumentations), in OTLP/JSON
//! (read by `otlp`, one session per trace, or per `session.id`) or as flat attribute maps; Phoenix's
//! REST pages of spans and its spans dataframe's rows are decoded to the same spans by `otlp_json`.
//!
//! ```json
//! {"openinference.span.kind": "LLM",
//!  "llm.tools.0.tool.json_schema": "{\"type\": \"function\", \"function\": {\"name\": \"lookup_order\"}}",
//!  "llm.input_messages.0.message.role": "user",
//!  "llm.input_messages.0.message.content": "Where is order A-1187?",
//!  "llm.output_messages.0.message.role": "assistant",
//!  "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
//!  "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "lookup_order",
//!  "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": "{\"order_id\": \"A-1187\"}"}
//! ```
//! LLM spans give the conversation through the flattened `llm.input_messages` /
//! `llm.output_messages` (tool results are `role: "tool"` messages with `tool_call_id`) and the
//! tools through `llm.tools.N.tool.json_schema`. TOOL spans are executions: `tool.name`,
//! `input.value` (arguments), `output.value` (result); span status ERROR (or a `tool.error`
//! attribute) is an explicit error, otherwise the `Error:` convention applies. A TOOL span is
//! matched to the model's call by `tool.id` or `tool_call.id`, else by name.

use serde_json::Value;

use super::content_text;
use super::otlp::{unflatten, Item, Span, SpanRole};
use crate::model::Args;

/// What an OpenInference span means.
pub(crate) fn role_of(span: &Span) -> SpanRole {
    match span.str("openinference.span.kind") {
        Some("TOOL") => SpanRole::Tool {
            call_id: ["tool.id", "tool_call.id"]
                .iter()
                .find_map(|key| span.attributes.get(*key))
                .and_then(super::id_text),
            name: span
                .str("tool.name")
                .map(str::to_string)
                .or_else(|| Some(span.name.clone()).filter(|name| !name.is_empty())),
            args: span.attributes.get("input.value").cloned(),
            result: span
                .attributes
                .get("tool.error")
                .or_else(|| span.attributes.get("output.value"))
                .cloned()
                .map(content_text),
        },
        Some("LLM") => {
            let tools: Vec<Value> = match unflatten(&span.attributes, "llm.tools") {
                Value::Array(tools) => tools
                    .iter()
                    .filter_map(|tool| tool.get("tool")?.get("json_schema"))
                    .filter_map(|schema| match schema {
                        Value::String(text) => serde_json::from_str(text).ok(),
                        other => Some(other.clone()),
                    })
                    .collect(),
                _ => Vec::new(),
            };
            // Without flattened messages, `input.value` / `output.value` may hold them as JSON.
            let mut input = messages(span, "llm.input_messages");
            if input.is_empty() {
                input = super::messages::items_of(span.json("input.value"), true);
            }
            let mut output = messages(span, "llm.output_messages");
            if output.is_empty() {
                output = super::messages::items_of(span.json("output.value"), false);
            }
            // openinference-vercel writes a text answer only as `output.value` (text/plain).
            if output.is_empty() && span.str("output.mime_type") == Some("text/plain") {
                let text = span.str("output.value").unwrap_or_default();
                if !text.is_empty() {
                    output = vec![vec![Item::Assistant(text.to_string())]];
                }
            }
            // …and the tools only in the Vercel AI SDK's own `ai.prompt.tools`.
            let tools = if tools.is_empty() {
                span.json("ai.prompt.tools")
                    .map(super::otel_genai::decode_each)
            } else {
                Some(Value::Array(tools))
            };
            SpanRole::Inference {
                input,
                output,
                tools,
                is_summary: false,
            }
        }
        _ => SpanRole::Other,
    }
}

fn messages(span: &Span, prefix: &str) -> Vec<Vec<Item>> {
    match unflatten(&span.attributes, prefix) {
        Value::Array(list) => list
            .iter()
            .map(|entry| message_items(entry.get("message").unwrap_or(entry)))
            .collect(),
        _ => Vec::new(),
    }
}

/// One flattened message: `role`, `content` (or `contents[].message_content.text`),
/// `tool_calls[].tool_call`, `tool_call_id`, or the legacy `function_call_name`.
fn message_items(message: &Value) -> Vec<Item> {
    let role = message
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let text = match message.get("content") {
        Some(content) => content_text(content.clone()),
        None => message
            .get("contents")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|part| part.get("message_content")?.get("text")?.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    match role {
        "tool" | "function" => {
            let call_id = message.get("tool_call_id").and_then(super::id_text);
            return vec![Item::Result {
                call_id,
                content: text,
                is_error: None,
            }];
        }
        "user" => return vec![Item::User(text)],
        "assistant" | "model" => {}
        _ => return Vec::new(),
    }
    let mut items = vec![Item::Assistant(text)];
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for call in calls.into_iter().flatten() {
        let call = call.get("tool_call").unwrap_or(call);
        let function = call.get("function").unwrap_or(call);
        items.push(Item::Call {
            call_id: call.get("id").and_then(super::id_text),
            name: function
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string),
            args: args(function.get("arguments")),
        });
    }
    if let Some(name) = message.get("function_call_name").and_then(Value::as_str) {
        items.push(Item::Call {
            call_id: None,
            name: Some(name.to_string()),
            args: args(message.get("function_call_arguments_json")),
        });
    }
    items
}

/// A call's arguments; openinference-vercel encodes the JSON text of the arguments once more
/// (`"\"{\\\"order_id\\\": …}\""`), and that string is read as the arguments it holds.
fn args(value: Option<&Value>) -> Args {
    let twice_encoded = value
        .and_then(Value::as_str)
        .and_then(|text| serde_json::from_str::<Value>(text).ok())
        .filter(|inner| {
            inner
                .as_str()
                .is_some_and(|inner| serde_json::from_str::<Value>(inner).is_ok())
        });
    super::conversation::args_from(twice_encoded.as_ref().or(value))
}

#[cfg(test)]
mod tests {
    use crate::formats::{read_traces, TraceFormat};
    use crate::model::{Event, ResultStatus};

    /// The format read and, per event, a short line: calls by name and results by status.
    fn read(text: &str) -> (Option<TraceFormat>, Vec<String>) {
        let mut diagnostics = Vec::new();
        let read = read_traces("spans.json", text.as_bytes(), &mut diagnostics);
        let events = read
            .sessions
            .iter()
            .flat_map(|session| &session.events)
            .filter_map(|event| match event {
                Event::ToolUse(call) => Some(format!("call {}", call.name)),
                Event::ToolResult(result) => Some(format!(
                    "result {} {}",
                    if result.status == ResultStatus::Error {
                        "error"
                    } else {
                        "ok"
                    },
                    result.content.as_deref().unwrap_or_default()
                )),
                _ => None,
            })
            .collect();
        (read.format.map(|(format, _)| format), events)
    }

    #[test]
    fn phoenix_rest_spans_page_reads_its_spans_with_span_kind_as_their_kind() {
        // `GET /v1/projects/{project}/spans`: the spans under "data", the OpenInference kind
        // only in `span_kind` (Phoenix leaves it out of the attributes).
        let page = r#"{"data": [
            {"id": "U3Bhbjo0", "name": "issue_refund",
             "context": {"trace_id": "ac2c", "span_id": "1fd8"}, "span_kind": "TOOL",
             "parent_id": null, "start_time": "2026-12-02T06:36:37.971827+00:00",
             "status_code": "ERROR", "status_message": "RefundError: window closed",
             "attributes": {"tool.name": "issue_refund", "input.value": "{\"order_id\": \"A1\"}"},
             "events": []}],
          "next_cursor": null}"#;
        let (format, events) = read(page);
        assert_eq!(format, Some(TraceFormat::Openinference));
        assert_eq!(
            events,
            [
                "call issue_refund",
                "result error RefundError: window closed"
            ]
        );
    }

    #[test]
    fn phoenix_otlpv1_spans_read_their_snake_case_values_beside_nulls() {
        // `GET /v1/projects/{project}/spans/otlpv1`: every AnyValue field written, the unused
        // ones null.
        let value = |text: &str| {
            format!(
                r#"{{"array_value": null, "bool_value": null, "bytes_value": null,
                    "double_value": null, "int_value": null, "kvlist_value": null,
                    "string_value": "{text}"}}"#
            )
        };
        let page = format!(
            r#"{{"data": [{{"name": "lookup_order", "trace_id": "ac2c", "span_id": "6c33",
                 "start_time_unix_nano": 1796193397872133120,
                 "status": {{"code": 1, "message": null}},
                 "attributes": [
                   {{"key": "openinference.span.kind", "value": {}}},
                   {{"key": "tool.name", "value": {}}},
                   {{"key": "output.value", "value": {}}}]}}],
               "next_cursor": null}}"#,
            value("TOOL"),
            value("lookup_order"),
            value("delivered")
        );
        let (format, events) = read(&page);
        assert_eq!(format, Some(TraceFormat::Openinference));
        assert_eq!(events, ["call lookup_order", "result ok delivered"]);
    }

    #[test]
    fn phoenix_spans_dataframe_rows_read_their_nested_attribute_columns() {
        // `get_spans_dataframe()` written by `DataFrame.to_json(orient="records")`: ids in
        // `context.*` columns, attributes in `attributes.*` columns whose values nest the rest
        // of the key, and null for every column a span does not have.
        let rows = r#"[
            {"name": "ChatCompletion", "span_kind": "LLM", "parent_id": null,
             "start_time": "2026-12-02T06:36:37.912Z", "status_code": "OK",
             "context.span_id": "6c33", "context.trace_id": "ac2c",
             "attributes.openinference.span.kind": "LLM",
             "attributes.llm.input_messages": [{"message.content": "Refund A1", "message.role": "user"}],
             "attributes.llm.output_messages": [{"message.role": "assistant",
               "message.tool_calls": [{"tool_call.id": "call_1",
                 "tool_call.function.name": "issue_refund",
                 "tool_call.function.arguments": "{\"order_id\": \"A1\"}"}]}],
             "attributes.tool.name": null},
            {"name": "issue_refund", "span_kind": "TOOL", "parent_id": null,
             "start_time": "2026-12-02T06:36:37.971Z", "status_code": "ERROR",
             "status_message": "RefundError: window closed",
             "context.span_id": "1fd8", "context.trace_id": "ac2c",
             "attributes.openinference.span.kind": "TOOL",
             "attributes.llm.input_messages": null,
             "attributes.tool.name": "issue_refund",
             "attributes.tool.parameters": {"type": "object", "required": ["order_id"]}}]"#;
        let (format, events) = read(rows);
        assert_eq!(format, Some(TraceFormat::Openinference));
        assert_eq!(
            events,
            [
                "call issue_refund",
                "result error RefundError: window closed"
            ]
        );
    }

    /// A span of openinference-vercel's, Phoenix REST style, in trace `ab01` with these attributes.
    fn vercel_span(name: &str, start: &str, attributes: serde_json::Value) -> String {
        serde_json::json!({
            "name": name, "context": {"trace_id": "ab01", "span_id": start},
            "span_kind": "LLM", "start_time": format!("2026-12-02T07:25:24.{start}+00:00"),
            "status_code": "OK", "attributes": attributes,
        })
        .to_string()
    }

    fn read_session(text: &str) -> crate::model::Session {
        let mut diagnostics = Vec::new();
        let mut read = read_traces("spans.jsonl", text.as_bytes(), &mut diagnostics);
        assert_eq!(read.sessions.len(), 1, "{diagnostics:?}");
        read.sessions.remove(0)
    }

    #[test]
    fn vercel_arguments_encoded_twice_read_as_the_arguments() {
        let span = vercel_span(
            "ai.generateText.doGenerate",
            "296",
            serde_json::json!({
                "llm.output_messages.0.message.role": "assistant",
                "llm.output_messages.0.message.tool_calls.0.tool_call.id": "call_1",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "lookup_order",
                "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments":
                    "\"{\\\"order_id\\\": \\\"A1234\\\"}\""
            }),
        );
        let session = read_session(&format!("{span}\n"));
        let call = session
            .events
            .iter()
            .find_map(|event| match event {
                Event::ToolUse(call) => Some(call),
                _ => None,
            })
            .expect("a call");
        assert_eq!(
            call.args.json(),
            Some(&serde_json::json!({"order_id": "A1234"}))
        );
    }

    #[test]
    fn vercel_text_answer_only_in_output_value_is_the_assistants_reply() {
        let span = vercel_span(
            "ai.generateText.doGenerate",
            "513",
            serde_json::json!({
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "Refund A1",
                "output.mime_type": "text/plain",
                "output.value": "The refund window has closed."
            }),
        );
        let session = read_session(&format!("{span}\n"));
        assert!(session.events.iter().any(|event| matches!(
            event,
            Event::Assistant { content } if content == "The refund window has closed."
        )));
    }

    #[test]
    fn vercel_tools_only_in_ai_prompt_tools_are_the_sessions_tools() {
        let tool = r#"{"type":"function","name":"lookup_order","inputSchema":{"type":"object"}}"#;
        let span = vercel_span(
            "ai.generateText.doGenerate",
            "296",
            serde_json::json!({
                "llm.input_messages.0.message.role": "user",
                "llm.input_messages.0.message.content": "Where is A1?",
                "ai.prompt.tools": [tool]
            }),
        );
        let session = read_session(&format!("{span}\n"));
        let names: Vec<String> = session
            .tools
            .iter()
            .flat_map(|tools| tools.iter())
            .map(|tool| tool.name.clone())
            .collect();
        assert_eq!(names, ["lookup_order"]);
    }
}
