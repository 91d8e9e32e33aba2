//! OpenAI Chat Completions: request bodies (`messages` and `tools`), responses (`choices`),
//! request/response logs, Batch API lines, fine-tuning JSONL and bare message lists, with
//! legacy `function_call` / `functions` too.
//!
//! ```json
//! {"messages": [
//!   {"role": "user", "content": "Where is order 7Q2ZK9XA?"},
//!   {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
//!     "function": {"name": "lookup_order", "arguments": "{\"order_id\": \"7Q2ZK9XA\"}"}}]},
//!   {"role": "tool", "tool_call_id": "call_1", "content": "Error: no such order"}],
//!  "tools": [{"type": "function", "function": {"name": "lookup_order", "parameters": {"type": "object"}}}]}
//! ```
//! Arguments are a JSON string (kept raw and reported as malformed when it does not decode).
//! Tool messages have no error flag: content starting with `Error:` is an error, marked inferred.
//! Legacy `role: "function"` results have no call id and are linked by order.

use serde_json::Value;

use super::content_text;
use super::conversation::{args_from, str_field, Conversation};
use super::exchange::Dialect;
use crate::diagnostic::Diagnostic;
use crate::model::Args;

/// The OpenAI Chat Completions dialect.
pub(crate) struct OpenAiChat;

impl Dialect for OpenAiChat {
    const EXPECTED: &'static str = "an OpenAI Chat request ({\"messages\", \"tools\"}), response \
        ({\"choices\"}), request/response pair, batch line or message";

    fn is_response(value: &Value) -> bool {
        value.get("choices").is_some_and(Value::is_array)
    }

    fn is_stream_chunk(value: &Value) -> bool {
        super::openai_chat_stream::is_chunk(value)
    }

    fn continues_stream(stream: &[Value], next: &Value) -> bool {
        super::openai_chat_stream::continues(stream, next)
    }

    fn merge_stream(chunks: Vec<Value>) -> Value {
        super::openai_chat_stream::merge(chunks)
    }

    fn response_messages(body: &Value) -> Vec<Value> {
        // A logged streamed response is the list of its chunks.
        if let Value::Array(chunks) = body {
            return Self::response_messages(&super::openai_chat_stream::merge(chunks.clone()));
        }
        // Only the first choice continues the conversation (n > 1 samples alternatives).
        body.get("choices")
            .and_then(|choices| choices.get(0))
            .and_then(|choice| choice.get("message"))
            .cloned()
            .into_iter()
            .collect()
    }

    fn tools(body: &Value) -> Option<Value> {
        body.get("tools")
            .or_else(|| body.get("functions"))
            .filter(|tools| tools.is_array())
            .cloned()
    }

    fn add_message(
        conversation: &mut Conversation,
        message: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        add_message(conversation, message, place, diagnostics);
    }
}

/// Adds one Chat Completions message (also used for τ-bench trajectories).
pub(crate) fn add_message(
    conversation: &mut Conversation,
    message: &Value,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let content = || content_text(message.get("content").cloned().unwrap_or(Value::Null));
    let has_foreign_blocks = message
        .get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks
                .iter()
                .any(|block| matches!(str_field(block, "type"), Some("tool_use" | "tool_result")))
        });
    if has_foreign_blocks {
        diagnostics.push(conversation.warning(format!(
            "{place}: Anthropic tool_use/tool_result blocks in an OpenAI Chat file are not read \
             as calls (read the file as anthropic if it is one)"
        )));
    }
    match str_field(message, "role") {
        Some("system" | "developer") => {}
        Some("user") => conversation.user(content()),
        Some("assistant") => {
            conversation.assistant(content());
            let calls = message.get("tool_calls").and_then(Value::as_array);
            for (index, tool_call) in calls.into_iter().flatten().enumerate() {
                let place = format!("{place}, tool call {}", index + 1);
                add_tool_call(conversation, tool_call, &place, diagnostics);
            }
            if let Some(function_call) = message.get("function_call").filter(|f| f.is_object()) {
                conversation.call(
                    None,
                    str_field(function_call, "name"),
                    args_from(function_call.get("arguments")),
                    place,
                    diagnostics,
                );
            }
        }
        Some("tool") => conversation.result(
            message.get("tool_call_id").and_then(super::id_text),
            Some(content()),
            None,
            place,
            diagnostics,
        ),
        Some("function") => conversation.result(None, Some(content()), None, place, diagnostics),
        Some(other) => diagnostics.push(
            conversation.warning(format!("{place}: unknown role {other:?}; message left out")),
        ),
        None => diagnostics
            .push(conversation.warning(format!("{place}: message has no \"role\"; left out"))),
    }
}

/// One entry of `tool_calls`: `{"id", "type": "function", "function": {"name", "arguments"}}`,
/// or a custom tool's `{"type": "custom", "custom": {"name", "input"}}` (free text input).
pub(crate) fn add_tool_call(
    conversation: &mut Conversation,
    tool_call: &Value,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let call_id = tool_call.get("id").and_then(super::id_text);
    if let Some(custom) = tool_call.get("custom") {
        let input = custom.get("input").cloned().unwrap_or(Value::Null);
        conversation.call(
            call_id,
            str_field(custom, "name"),
            Args::Json(input),
            place,
            diagnostics,
        );
        return;
    }
    let function = tool_call.get("function").unwrap_or(tool_call);
    conversation.call(
        call_id,
        str_field(function, "name"),
        args_from(function.get("arguments")),
        place,
        diagnostics,
    );
}
