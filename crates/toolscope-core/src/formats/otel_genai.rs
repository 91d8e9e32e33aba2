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

use serde_json::Value;

use super::content_text;
use super::otlp::{Item, Span, SpanRole};
use crate::model::Args;

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
    let input = span
        .json("gen_ai.input.messages")
        .or_else(|| span.json("gen_ai.prompt"));
    let output = span
        .json("gen_ai.output.messages")
        .or_else(|| span.json("gen_ai.completion"));
    let tools = span.json("gen_ai.tool.definitions");
    if input.is_none() && output.is_none() && tools.is_none() {
        return SpanRole::Other;
    }
    SpanRole::Inference {
        input: messages(input, true),
        output: messages(output, false),
        tools,
        is_summary: operation.is_some_and(|operation| SUMMARY_OPERATIONS.contains(&operation)),
    }
}

/// A messages attribute: a list of messages, one message, a chat request (`messages`) or
/// response (`choices`) body, an object with `text` (deprecated completions), or plain text.
pub(crate) fn messages(value: Option<Value>, is_input: bool) -> Vec<Vec<Item>> {
    if let Some(list) = value.as_ref().and_then(|body| body.get("messages")) {
        return messages(Some(list.clone()), is_input);
    }
    if let Some(message) = value
        .as_ref()
        .and_then(|body| body.get("choices")?.get(0)?.get("message"))
    {
        return messages(Some(message.clone()), is_input);
    }
    match value {
        Some(Value::Array(list)) => list.iter().map(message_items).collect(),
        Some(Value::String(text)) if is_input => vec![vec![Item::User(text)]],
        Some(Value::String(text)) => vec![vec![Item::Assistant(text)]],
        Some(message @ Value::Object(_)) if message.get("role").is_some() => {
            vec![message_items(&message)]
        }
        Some(Value::Object(map)) => match map.get("text").and_then(Value::as_str) {
            Some(text) => vec![vec![Item::Assistant(text.to_string())]],
            None => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// One message: OTel parts (`{"role", "parts": […]}`) or the chat shape the deprecated events
/// use (`{"role", "content", "tool_calls"}`).
fn message_items(message: &Value) -> Vec<Item> {
    let role = message
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let text_item = |text: String| match role {
        "user" => Some(Item::User(text)),
        "assistant" | "model" => Some(Item::Assistant(text)),
        _ => None,
    };
    let Some(parts) = message.get("parts").and_then(Value::as_array) else {
        return chat_items(message, role, text_item);
    };
    let mut items = Vec::new();
    for part in parts {
        let id = part.get("id").and_then(super::id_text);
        match part.get("type").and_then(Value::as_str) {
            Some("text") => {
                let text = part.get("content").or_else(|| part.get("text"));
                items.extend(
                    text.and_then(Value::as_str)
                        .and_then(|text| text_item(text.into())),
                );
            }
            Some("tool_call") => items.push(Item::Call {
                call_id: id,
                name: part.get("name").and_then(Value::as_str).map(str::to_string),
                args: Args::from_sent(
                    part.get("arguments")
                        .cloned()
                        .unwrap_or_else(|| Value::Object(Default::default())),
                ),
            }),
            Some("tool_call_response") => {
                let response = part.get("response").or_else(|| part.get("result"));
                items.push(Item::Result {
                    call_id: id,
                    content: content_text(response.cloned().unwrap_or(Value::Null)),
                });
            }
            _ => {}
        }
    }
    items
}

fn chat_items(
    message: &Value,
    role: &str,
    text_item: impl Fn(String) -> Option<Item>,
) -> Vec<Item> {
    let content = content_text(message.get("content").cloned().unwrap_or(Value::Null));
    if role == "tool" {
        let call_id = message
            .get("tool_call_id")
            .or_else(|| message.get("id"))
            .and_then(super::id_text);
        return vec![Item::Result { call_id, content }];
    }
    let mut items: Vec<Item> = text_item(content).into_iter().collect();
    let calls = message.get("tool_calls").and_then(Value::as_array);
    for call in calls.into_iter().flatten() {
        let function = call.get("function").unwrap_or(call);
        items.push(Item::Call {
            call_id: call.get("id").and_then(super::id_text),
            name: function
                .get("name")
                .and_then(Value::as_str)
                .map(str::to_string),
            args: Args::from_sent(
                function
                    .get("arguments")
                    .cloned()
                    .unwrap_or_else(|| Value::Object(Default::default())),
            ),
        });
    }
    items
}
