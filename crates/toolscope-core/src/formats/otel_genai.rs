//! OpenTelemetry GenAI semantic conventions in OTLP/JSON exports (read by `otlp`, one session
//! per trace, or per `gen_ai.conversation.id`).
//!
//! ```json
//! {"resourceSpans": [{"scopeSpans": [{"spans": [
//!   {"traceId": "5b8efff798038103d269b633813fc60c", "spanId": "eee19b7ec3c1b174",
//!    "name": "execute_tool get_weather", "kind": 1, "startTimeUnixNano": "1544712660000000000",
//!    "attributes": [
//!      {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
//!      {"key": "gen_ai.tool.name", "value": {"stringValue": "get_weather"}},
//!      {"key": "gen_ai.tool.call.id", "value": {"stringValue": "call_1"}},
//!      {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": "{\"location\":\"Paris\"}"}}],
//!    "status": {"code": 2, "message": "timed out"}}]}]}]}
//! ```
//! Model calls (`chat`, `generate_content`, …) give the conversation through
//! `gen_ai.input.messages` / `gen_ai.output.messages` (parts `text`, `tool_call`,
//! `tool_call_response`; the deprecated `gen_ai.prompt` / `gen_ai.completion` too) and the tools
//! through `gen_ai.tool.definitions`. `execute_tool` spans are the calls' executions: span status
//! ERROR or an `error.type` attribute make the result an error (explicit); otherwise the
//! `Error:` convention applies to `gen_ai.tool.call.result`.

use serde_json::{json, Value};

use super::content_text;
use super::messages::items_of;
use super::otlp::{unflatten, Item, Span, SpanRole};

/// Operations whose spans summarise a whole agent run: their messages are used only when the
/// trace has no model-call spans with messages.
pub(crate) const SUMMARY_OPERATIONS: [&str; 3] =
    ["invoke_agent", "create_agent", "invoke_workflow"];

/// What an OTel GenAI span means.
pub(crate) fn role_of(span: &Span) -> SpanRole {
    let operation = span.str("gen_ai.operation.name");
    let is_tool = operation == Some("execute_tool")
        || operation.is_none() && span.attributes.contains_key("gen_ai.tool.name")
        || span.name.starts_with("execute_tool");
    if span.attributes.contains_key("ai.toolCall.name") {
        // Vercel AI SDK tool spans.
        return SpanRole::Tool {
            call_id: span
                .attributes
                .get("ai.toolCall.id")
                .and_then(super::id_text),
            name: span.str("ai.toolCall.name").map(str::to_string),
            args: span.attributes.get("ai.toolCall.args").cloned(),
            result: span
                .attributes
                .get("ai.toolCall.result")
                .cloned()
                .map(content_text),
        };
    }
    if is_tool {
        let name = span
            .str("gen_ai.tool.name")
            .map(str::to_string)
            .or_else(|| {
                span.name
                    .strip_prefix("execute_tool ")
                    .map(|name| name.trim().to_string())
            });
        let first = |keys: &[&str]| keys.iter().find_map(|key| span.attributes.get(*key));
        return SpanRole::Tool {
            call_id: span
                .attributes
                .get("gen_ai.tool.call.id")
                .and_then(super::id_text),
            name,
            args: first(&["gen_ai.tool.call.arguments", "input", "input.value"]).cloned(),
            result: first(&["gen_ai.tool.call.result", "output", "output.value"])
                .cloned()
                .map(content_text),
        };
    }
    // OpenLLMetry's older dialect flattens messages (`gen_ai.prompt.0.role`, …,
    // `gen_ai.completion.0.tool_calls.0.name`) and tools (`llm.request.functions.0.name`).
    let flat = |prefix: &str| Some(unflatten(&span.attributes, prefix)).filter(Value::is_array);
    // OpenLIT's `gen_ai.prompt` / `gen_ai.completion` are text (a `role: content` transcript,
    // the reply), not JSON.
    let text = |key: &str| {
        span.attributes
            .get(key)
            .filter(|value| value.is_string())
            .cloned()
    };
    let input = span
        .json("gen_ai.input.messages")
        .or_else(|| span.json("gen_ai.prompt"))
        .or_else(|| flat("gen_ai.prompt"))
        .or_else(|| text("gen_ai.prompt"));
    let output = span
        .json("gen_ai.output.messages")
        .or_else(|| span.json("gen_ai.completion"))
        .or_else(|| flat("gen_ai.completion"))
        .or_else(|| text("gen_ai.completion"))
        .or_else(|| vercel_tool_calls(span));
    let mut output = items_of(output, false);
    if !output
        .iter()
        .flatten()
        .any(|item| matches!(item, Item::Call { .. }))
    {
        output.extend(openlit_tool_calls(span));
    }
    let tools = span
        .json("gen_ai.tool.definitions")
        .or_else(|| flat("llm.request.functions").map(decode_parameters))
        .or_else(|| span.json("ai.prompt.tools").map(decode_each));
    if input.is_none() && output.is_empty() && tools.is_none() {
        return SpanRole::Other;
    }
    SpanRole::Inference {
        input: items_of(input, true),
        output,
        tools,
        is_summary: operation.is_some_and(|operation| SUMMARY_OPERATIONS.contains(&operation)),
    }
}

/// OpenLIT puts the calls a model call returned on its span, each attribute joined with `, `:
/// `gen_ai.tool.name` (`lookup_order, issue_refund`), `gen_ai.tool.call.id` and
/// `gen_ai.tool.args` (JSON objects, so joined they read as a JSON array's items). One assistant
/// message of them; none when the names and ids do not pair up.
fn openlit_tool_calls(span: &Span) -> Option<Vec<Item>> {
    let names: Vec<&str> = span.str("gen_ai.tool.name")?.split(", ").collect();
    let ids: Vec<&str> = span.str("gen_ai.tool.call.id")?.split(", ").collect();
    if names.len() != ids.len() || names.iter().chain(&ids).any(|text| text.trim().is_empty()) {
        return None;
    }
    let args: Vec<Value> = match span.str("gen_ai.tool.args") {
        Some(text) if names.len() == 1 => vec![Value::String(text.to_string())],
        Some(text) => match serde_json::from_str::<Value>(&format!("[{text}]")) {
            Ok(Value::Array(list)) if list.len() == names.len() => list,
            _ => vec![Value::String(text.to_string()); names.len()],
        },
        None => vec![json!({}); names.len()],
    };
    let calls = names.into_iter().zip(ids).zip(args).map(|((name, id), args)| {
        json!({"type": "tool_call", "id": id, "name": name, "arguments": args})
    });
    let message = json!({"role": "assistant", "parts": calls.collect::<Vec<_>>()});
    Some(super::messages::message_items(&message))
}

/// Flattened function definitions whose `parameters` are JSON strings, decoded.
fn decode_parameters(mut functions: Value) -> Value {
    for function in functions.as_array_mut().into_iter().flatten() {
        if let Some(Value::String(text)) = function.get("parameters") {
            if let Ok(schema) = serde_json::from_str::<Value>(text) {
                function["parameters"] = schema;
            }
        }
    }
    functions
}

/// The Vercel AI SDK's `ai.response.toolCalls` (`[{toolCallId, toolName, args}]`) as one
/// assistant message.
fn vercel_tool_calls(span: &Span) -> Option<Value> {
    let calls = span.json("ai.response.toolCalls")?;
    let tool_calls: Vec<Value> = calls
        .as_array()?
        .iter()
        .map(|call| {
            json!({"id": call.get("toolCallId"), "name": call.get("toolName"),
                   "arguments": call.get("args").or_else(|| call.get("input"))})
        })
        .collect();
    Some(json!([{"role": "assistant", "tool_calls": tool_calls}]))
}

/// The Vercel AI SDK writes `ai.prompt.tools` as a list of JSON strings.
pub(crate) fn decode_each(tools: Value) -> Value {
    match tools {
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| match item {
                    Value::String(text) => {
                        serde_json::from_str(&text).unwrap_or(Value::String(text))
                    }
                    other => other,
                })
                .collect(),
        ),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    fn chat_span(attributes: Value) -> Span {
        let attributes: Map<String, Value> = attributes.as_object().cloned().unwrap_or_default();
        Span {
            trace_id: "t".into(),
            span_id: None,
            name: "chat m".into(),
            start: 0,
            is_error: false,
            status_message: None,
            attributes,
            exception: None,
            line: 1,
            index: 1,
        }
    }

    fn call_names(role: SpanRole) -> Vec<String> {
        let SpanRole::Inference { output, .. } = role else {
            return Vec::new();
        };
        output
            .into_iter()
            .flatten()
            .filter_map(|item| match item {
                Item::Call { name, args, .. } => Some(format!("{} {args:?}", name?)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn openlits_joined_tool_attributes_are_the_calls_of_its_chat_span() {
        let span = chat_span(json!({
            "gen_ai.operation.name": "chat",
            "gen_ai.completion": "",
            "gen_ai.tool.name": "lookup_order, issue_refund",
            "gen_ai.tool.call.id": "c1, c2",
            "gen_ai.tool.args": "{\"order_id\": \"A1\"}, {\"order_id\": \"A1\", \"amount\": 5}"
        }));
        let calls = call_names(role_of(&span));
        assert_eq!(calls.len(), 2, "{calls:?}");
        assert!(calls[0].starts_with("lookup_order") && calls[0].contains("A1"));
        assert!(calls[1].starts_with("issue_refund") && calls[1].contains('5'));
    }

    #[test]
    fn tool_attributes_that_do_not_pair_up_make_no_calls() {
        let span = chat_span(json!({
            "gen_ai.operation.name": "chat",
            "gen_ai.completion": "hello",
            "gen_ai.tool.name": "a, b",
            "gen_ai.tool.call.id": "c1"
        }));
        assert!(call_names(role_of(&span)).is_empty());
    }
}
