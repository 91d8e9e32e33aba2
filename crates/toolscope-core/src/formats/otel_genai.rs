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

use super::content_text;
use super::messages::items_of;
use super::otlp::{Span, SpanRole};

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
        input: items_of(input, true),
        output: items_of(output, false),
        tools,
        is_summary: operation.is_some_and(|operation| SUMMARY_OPERATIONS.contains(&operation)),
    }
}
