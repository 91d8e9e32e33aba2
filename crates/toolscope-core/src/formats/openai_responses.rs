//! OpenAI Responses API: requests (`input` items, flat `tools`), responses (`output` items),
//! logs of both joined over `previous_response_id`, and bare item lists.
//!
//! ```json
//! {"input": [
//!   {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in SF?"}]},
//!   {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "get_weather",
//!    "arguments": "{\"location\": \"San Francisco\"}"},
//!   {"type": "function_call_output", "call_id": "call_1", "output": "sunny"}],
//!  "tools": [{"type": "function", "name": "get_weather", "parameters": {"type": "object"}}]}
//! ```
//! Calls and outputs link by `call_id` (`id` is the item's own id). `arguments` is a JSON string
//! (or, in some exports, an object). Function outputs have no error flag, so the `Error:`
//! convention applies; an `mcp_call` item carries its own `error`. A follow-up request that holds
//! only new items and `previous_response_id` continues the earlier response's session.

use serde_json::Value;

use super::content_text;
use super::conversation::{args_from, str_field, Conversation};
use super::exchange::Dialect;
use crate::diagnostic::Diagnostic;
use crate::model::Args;

/// Item types of tools OpenAI runs itself (or the client runs outside function calling): not
/// calls of the agent's own tools, so not events.
const BUILT_IN_ITEMS: [&str; 12] = [
    "reasoning",
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "image_generation_call",
    "computer_call",
    "computer_call_output",
    "local_shell_call",
    "local_shell_call_output",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
];

/// The OpenAI Responses dialect.
pub(crate) struct OpenAiResponses;

impl Dialect for OpenAiResponses {
    const EXPECTED: &'static str = "an OpenAI Responses request ({\"input\", \"tools\"}), \
        response ({\"output\"}), request/response pair or item";

    fn is_message(value: &Value) -> bool {
        // Items have a "type" (or, for easy input messages, a "role"); bodies have neither.
        value.get("type").is_some_and(Value::is_string)
            || value.get("role").is_some_and(Value::is_string)
    }

    fn is_request(value: &Value) -> bool {
        value
            .get("input")
            .is_some_and(|input| input.is_array() || input.is_string())
    }

    fn is_response(value: &Value) -> bool {
        value.get("output").is_some_and(Value::is_array)
    }

    fn is_stream_chunk(value: &Value) -> bool {
        super::openai_responses_stream::is_start(value)
    }

    fn continues_stream(stream: &[Value], next: &Value) -> bool {
        super::openai_responses_stream::continues(stream, next)
    }

    fn merge_stream(events: Vec<Value>) -> Value {
        super::openai_responses_stream::merge(events)
    }

    fn request_messages(body: &Value) -> Vec<Value> {
        match body.get("input") {
            Some(Value::Array(items)) => items.clone(),
            Some(Value::String(text)) => {
                vec![serde_json::json!({"type": "message", "role": "user", "content": text})]
            }
            _ => Vec::new(),
        }
    }

    fn response_messages(body: &Value) -> Vec<Value> {
        body.get("output")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    fn tools(body: &Value) -> Option<Value> {
        // Built-in tools ({"type": "web_search"}) have no name and no schema to check against.
        let tools = body.get("tools")?.as_array()?;
        let named: Vec<Value> = tools
            .iter()
            .filter(|tool| tool.get("name").is_some())
            .cloned()
            .collect();
        Some(Value::Array(named))
    }

    fn response_id(body: &Value) -> Option<&str> {
        str_field(body, "id")
    }

    fn previous_response_id(body: &Value) -> Option<&str> {
        str_field(body, "previous_response_id")
    }

    fn add_message(
        conversation: &mut Conversation,
        item: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let call_id = item.get("call_id").and_then(super::id_text);
        let output = || {
            Some(content_text(
                item.get("output").cloned().unwrap_or(Value::Null),
            ))
        };
        match str_field(item, "type").unwrap_or("message") {
            "message" => {
                let content = content_text(item.get("content").cloned().unwrap_or(Value::Null));
                match str_field(item, "role") {
                    Some("user") => conversation.user(content),
                    Some("assistant") => conversation.assistant(content),
                    Some("system" | "developer") => {}
                    other => diagnostics.push(
                        conversation
                            .warning(format!("{place}: message with role {other:?}; left out")),
                    ),
                }
            }
            "function_call" => conversation.call(
                call_id,
                str_field(item, "name"),
                args_from(item.get("arguments")),
                place,
                diagnostics,
            ),
            "custom_tool_call" => conversation.call(
                call_id,
                str_field(item, "name"),
                Args::Json(item.get("input").cloned().unwrap_or(Value::Null)),
                place,
                diagnostics,
            ),
            "function_call_output" | "custom_tool_call_output" => {
                conversation.result(call_id, output(), None, place, diagnostics)
            }
            "mcp_call" => {
                let call_id = item.get("id").and_then(super::id_text);
                conversation.call(
                    call_id.clone(),
                    str_field(item, "name"),
                    args_from(item.get("arguments")),
                    place,
                    diagnostics,
                );
                let error = item.get("error").filter(|error| !error.is_null());
                let content = match error {
                    Some(error) => Some(content_text(error.clone())),
                    None => output(),
                };
                conversation.result(call_id, content, Some(error.is_some()), place, diagnostics);
            }
            kind if BUILT_IN_ITEMS.contains(&kind) => {}
            other => diagnostics.push(
                conversation.warning(format!("{place}: unknown item type {other:?}; left out")),
            ),
        }
    }
}
