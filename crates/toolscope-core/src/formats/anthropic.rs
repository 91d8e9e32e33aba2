//! Anthropic Messages: request bodies (`messages`, `tools` with `input_schema`), response
//! messages, request/response logs and bare message lists.
//!
//! ```json
//! {"tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
//!  "messages": [
//!   {"role": "user", "content": "Weather in Paris?"},
//!   {"role": "assistant", "content": [
//!     {"type": "text", "text": "Checking."},
//!     {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}]},
//!   {"role": "user", "content": [
//!     {"type": "tool_result", "tool_use_id": "toolu_1", "content": "timeout", "is_error": true}]}]}
//! ```
//! `tool_use` blocks are calls (several in one message are parallel calls), `tool_result` blocks
//! are results; `is_error` is the explicit error flag (without it, the `Error:` convention
//! applies). A user message holding only tool results is not a user turn. Server tools
//! (`server_tool_use`, MCP connector `mcp_tool_use` and `*_tool_result` blocks) are calls and
//! results too; a result whose content has a `type` ending in `_error` is an error. The code
//! execution tool (`code_execution_20250825`) is called by the names of the two tools it runs
//! (`bash_code_execution`, `text_editor_code_execution`), so those join the session's tools.

use serde_json::Value;

use super::content_text;
use super::conversation::{args_from, str_field, Conversation};
use super::exchange::Dialect;
use crate::diagnostic::Diagnostic;

/// The names the code execution tool's calls go by (`server_tool_use` blocks of
/// `code_execution_20250825`).
const CODE_EXECUTION_TOOLS: [&str; 2] = ["bash_code_execution", "text_editor_code_execution"];

/// The Anthropic Messages dialect.
pub(crate) struct Anthropic;

impl Dialect for Anthropic {
    const EXPECTED: &'static str = "an Anthropic Messages request ({\"messages\", \"tools\"}), \
        response message, request/response pair or message";

    fn is_response(value: &Value) -> bool {
        value.get("content").is_some_and(Value::is_array)
    }

    fn is_stream_chunk(value: &Value) -> bool {
        super::anthropic_stream::is_start(value)
    }

    fn continues_stream(stream: &[Value], next: &Value) -> bool {
        super::anthropic_stream::continues(stream, next)
    }

    fn merge_stream(events: Vec<Value>) -> Value {
        super::anthropic_stream::merge(events)
    }

    fn response_messages(body: &Value) -> Vec<Value> {
        // A logged streamed response is the list of its events.
        if let Value::Array(events) = body {
            return Self::response_messages(&super::anthropic_stream::merge(events.clone()));
        }
        if body.get("content").is_some() {
            let mut message = body.clone();
            if message.get("role").is_none() {
                message["role"] = Value::from("assistant");
            }
            vec![message]
        } else {
            Vec::new()
        }
    }

    fn tools(body: &Value) -> Option<Value> {
        let mut tools = body.get("tools")?.as_array()?.clone();
        let runs_code = tools.iter().any(|tool| {
            str_field(tool, "type").is_some_and(|kind| kind.starts_with("code_execution_"))
        });
        if runs_code {
            for name in CODE_EXECUTION_TOOLS {
                if !tools
                    .iter()
                    .any(|tool| str_field(tool, "name") == Some(name))
                {
                    tools.push(serde_json::json!({"type": "code_execution", "name": name}));
                }
            }
        }
        Some(Value::Array(tools))
    }

    fn add_message(
        conversation: &mut Conversation,
        message: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let role = str_field(message, "role");
        let is_user = match role {
            Some("user") => true,
            Some("assistant") => false,
            Some("system") => return,
            Some(other) => {
                diagnostics.push(
                    conversation.warning(format!("{place}: unknown role {other:?}; left out")),
                );
                return;
            }
            None => {
                diagnostics.push(
                    conversation.warning(format!("{place}: message has no \"role\"; left out")),
                );
                return;
            }
        };
        if message.get("tool_calls").is_some() || message.get("function_call").is_some() {
            diagnostics.push(conversation.warning(format!(
                "{place}: OpenAI tool_calls in an Anthropic file are not read as calls (read the \
                 file as openai_chat if it is one)"
            )));
        }
        let blocks = match message.get("content") {
            Some(Value::Array(blocks)) => blocks.as_slice(),
            other => {
                let text = content_text(other.cloned().unwrap_or(Value::Null));
                push_text(conversation, is_user, text);
                return;
            }
        };
        let mut text = Vec::new();
        for (index, block) in blocks.iter().enumerate() {
            let place = format!("{place}, block {}", index + 1);
            let kind = str_field(block, "type").unwrap_or_default();
            match kind {
                "text" => text.extend(str_field(block, "text").map(str::to_string)),
                "tool_use" | "server_tool_use" | "mcp_tool_use" => {
                    push_text(conversation, is_user, text.join("\n"));
                    text.clear();
                    conversation.call(
                        block.get("id").and_then(super::id_text),
                        str_field(block, "name"),
                        args_from(block.get("input")),
                        &place,
                        diagnostics,
                    );
                }
                _ if kind.ends_with("tool_result") => {
                    push_text(conversation, is_user, text.join("\n"));
                    text.clear();
                    let content = block.get("content").cloned().unwrap_or(Value::Null);
                    let is_error = block.get("is_error").and_then(Value::as_bool).or_else(|| {
                        str_field(&content, "type")
                            .is_some_and(|kind| kind.ends_with("_error"))
                            .then_some(true)
                    });
                    conversation.result(
                        block.get("tool_use_id").and_then(super::id_text),
                        Some(content_text(content)),
                        is_error,
                        &place,
                        diagnostics,
                    );
                }
                // Thinking, images, documents and the rest carry no call.
                _ => {}
            }
        }
        push_text(conversation, is_user, text.join("\n"));
    }
}

/// User or assistant text; empty text is not an event (a user message of tool results only is
/// not a user turn).
fn push_text(conversation: &mut Conversation, is_user: bool, text: String) {
    if text.trim().is_empty() {
        return;
    }
    if is_user {
        conversation.user(text);
    } else {
        conversation.assistant(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_mcp_tool_use_block_is_a_call_its_result_answers() {
        let body = serde_json::json!({"role": "assistant", "content": [
            {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "ask_question", "server_name": "deepwiki", "input": {"q": "x"}},
            {"type": "mcp_tool_result", "tool_use_id": "mcptoolu_1", "is_error": false, "content": [{"type": "text", "text": "y"}]}]});
        let mut conversation = Conversation::new("s".into(), "f", 1);
        let mut diagnostics = Vec::new();
        Anthropic::add_message(&mut conversation, &body, "message 1", &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let session = conversation.finish();
        assert_eq!(session.calls().count(), 1);
    }

    #[test]
    fn the_code_execution_tool_declares_the_names_its_calls_go_by() {
        let body = serde_json::json!({"tools": [{"type": "code_execution_20250825", "name": "code_execution"}]});
        let tools = Anthropic::tools(&body).unwrap();
        let names: Vec<&str> = tools
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|tool| str_field(tool, "name"))
            .collect();
        assert_eq!(
            names,
            [
                "code_execution",
                "bash_code_execution",
                "text_editor_code_execution"
            ]
        );
    }
}
