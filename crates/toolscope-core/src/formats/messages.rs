//! Messages in whatever shape an observability export logged them: OTel GenAI parts, OpenAI Chat
//! messages and bodies, Responses items, Anthropic blocks, Gemini contents, LangChain messages
//! (`type: "human"`, `tool_calls` of `{name, args, id}`, `additional_kwargs.tool_calls`). Span
//! and observation readers log the requests of many frameworks, so they read them all here.

use serde_json::Value;

use super::content_text;
use super::message_text::{call_prompt, repr_message, transcript_items};
use super::otlp::Item;
use super::python_literal::python_literal;
use crate::model::Args;

/// The messages a logged input or output holds: a list, a request or response body, one
/// message, or plain text.
pub(crate) fn items_of(value: Option<Value>, is_input: bool) -> Vec<Vec<Item>> {
    let Some(value) = value else {
        return Vec::new();
    };
    match value {
        Value::String(text) => match serde_json::from_str::<Value>(&text) {
            Ok(decoded @ (Value::Array(_) | Value::Object(_))) => items_of(Some(decoded), is_input),
            _ if text.trim().is_empty() => Vec::new(),
            _ if is_input => {
                transcript_items(&text).unwrap_or_else(|| vec![vec![Item::User(text)]])
            }
            _ => vec![vec![Item::Assistant(text)]],
        },
        Value::Array(list) => list.iter().map(message_items).collect(),
        Value::Object(map) => {
            for key in ["messages", "contents", "input", "output"] {
                if let Some(list @ Value::Array(_)) = map.get(key) {
                    return items_of(Some(list.clone()), is_input);
                }
            }
            // The `google-genai` SDK takes `contents` as plain text too.
            if let Some(Value::String(text)) = map.get("contents").filter(|_| is_input) {
                return items_of(Some(Value::String(text.clone())), is_input);
            }
            if let Some(prompt) = call_prompt(&map).filter(|_| is_input) {
                return vec![vec![Item::User(prompt.to_string())]];
            }
            let first = |key: &str, inner: &str| map.get(key)?.get(0)?.get(inner).cloned();
            // A response body's first choice, or one choice on its own.
            let choice = || {
                map.get("message")
                    .filter(|_| map.contains_key("index"))
                    .cloned()
            };
            if let Some(message) = first("choices", "message")
                .or_else(|| first("candidates", "content"))
                .or_else(choice)
            {
                return vec![message_items(&message)];
            }
            if let Some(content @ Value::Object(_)) = map.get("content") {
                if content.get("parts").is_some() {
                    return vec![message_items(content)];
                }
            }
            let value = Value::Object(map);
            if ["role", "type", "parts"]
                .iter()
                .any(|key| value.get(*key).is_some())
            {
                return vec![message_items(&value)];
            }
            match value.get("text").and_then(Value::as_str) {
                Some(text) if is_input => vec![vec![Item::User(text.to_string())]],
                Some(text) => vec![vec![Item::Assistant(text.to_string())]],
                None => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// Arguments as sent: an object, a JSON string, or a Python repr; `null` stays null, and missing
/// arguments are `{}`.
pub(crate) fn args_of(value: Option<&Value>) -> Args {
    match value {
        None => Args::Json(Value::Object(Default::default())),
        Some(Value::String(text)) => match python_literal(text) {
            Some(decoded) if serde_json::from_str::<Value>(text).is_err() => Args::Json(decoded),
            _ => Args::from_sent(Value::String(text.clone())),
        },
        Some(other) => Args::Json(other.clone()),
    }
}

fn str_of<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// An id; some exporters (Microsoft Agent Framework) write `[run_id, call_id]`: the last is
/// the call's.
fn id_of(value: &Value, keys: &[&str]) -> Option<String> {
    match keys.iter().find_map(|key| value.get(*key))? {
        Value::Array(ids) => ids.last().and_then(super::id_text),
        id => super::id_text(id),
    }
}

fn call(value: &Value, id_keys: &[&str], args: Option<&Value>) -> Item {
    Item::Call {
        call_id: id_of(value, id_keys),
        name: str_of(value, "name").map(str::to_string),
        args: args_of(args),
    }
}

/// One message or item.
pub(crate) fn message_items(message: &Value) -> Vec<Item> {
    if let Some(decoded) = message.as_str().and_then(repr_message) {
        return message_items(&decoded);
    }
    let kind = str_of(message, "type").unwrap_or_default();
    match kind {
        "function_call" | "custom_tool_call" => {
            let args = message.get("arguments").or_else(|| message.get("input"));
            return vec![call(message, &["call_id"], args)];
        }
        "function_call_output" | "custom_tool_call_output" => {
            return vec![Item::Result {
                call_id: id_of(message, &["call_id"]),
                content: content_text(message.get("output").cloned().unwrap_or(Value::Null)),
                is_error: None,
            }];
        }
        _ => {}
    }
    // LangChain names the role by message class: "human", "AIMessageChunk", "ToolMessage"….
    let role = match str_of(message, "role").unwrap_or(kind) {
        "model" => "assistant",
        class if class.starts_with("human") || class.starts_with("Human") => "user",
        class if class.starts_with("ai") || class.starts_with("AI") => "assistant",
        class if class.starts_with("Tool") => "tool",
        other => other,
    };
    let text_item = |text: String| match role {
        _ if text.trim().is_empty() => None,
        "user" => Some(Item::User(text)),
        "assistant" => Some(Item::Assistant(text)),
        _ => None,
    };
    if let Some(parts) = message.get("parts").and_then(Value::as_array) {
        return parts
            .iter()
            .filter_map(|part| part_item(part, &text_item))
            .collect();
    }
    let content = message.get("content").cloned().unwrap_or(Value::Null);
    if matches!(role, "tool" | "function") {
        // LangChain lists tool definitions as tool-role messages: not results.
        if content.get("type").and_then(Value::as_str) == Some("function") {
            return Vec::new();
        }
        // Koog's history sends the model's calls back as tool-role messages holding them.
        if let Value::Array(blocks) = &content {
            if !blocks.is_empty() && blocks.iter().all(is_call_object) {
                return blocks.iter().filter_map(call_object_item).collect();
            }
        }
        let is_error = str_of(message, "status").map(|status| status == "error");
        return vec![Item::Result {
            call_id: id_of(message, &["tool_call_id", "id"]),
            content: content_text(content),
            is_error,
        }];
    }
    let mut items = Vec::new();
    match &content {
        Value::Array(blocks) if blocks.iter().any(is_tool_block) => {
            for block in blocks {
                items.extend(block_item(block, &text_item));
            }
        }
        _ => items.extend(text_item(content_text(content.clone()))),
    }
    let tool_calls = message
        .get("tool_calls")
        .and_then(Value::as_array)
        .filter(|calls| !calls.is_empty())
        .or_else(|| {
            message
                .get("additional_kwargs")?
                .get("tool_calls")?
                .as_array()
        });
    for tool_call in tool_calls.into_iter().flatten() {
        let function = tool_call.get("function").unwrap_or(tool_call);
        let args = function.get("arguments").or_else(|| function.get("args"));
        items.push(Item::Call {
            call_id: id_of(tool_call, &["id"]),
            name: str_of(function, "name").map(str::to_string),
            args: args_of(args),
        });
    }
    if let Some(function_call) = message.get("function_call").filter(|f| f.is_object()) {
        items.push(call(function_call, &[], function_call.get("arguments")));
    }
    items
}

fn is_tool_block(block: &Value) -> bool {
    matches!(str_of(block, "type"), Some("tool_use" | "tool_result")) || is_call_object(block)
}

/// An OpenAI Chat tool call (`{"id", "type": "function", "function": {"name", "arguments"}}`)
/// where a block would be: Koog logs an assistant message's calls as its `content`. A tool
/// definition (`function` with `parameters`, no `arguments`) is not one.
fn is_call_object(block: &Value) -> bool {
    str_of(block, "type") == Some("function")
        && block.get("function").is_some_and(|function| {
            str_of(function, "name").is_some() && function.get("arguments").is_some()
        })
}

/// The call an OpenAI Chat tool call object makes.
fn call_object_item(block: &Value) -> Option<Item> {
    let function = block.get("function")?;
    Some(Item::Call {
        call_id: id_of(block, &["id"]),
        name: str_of(function, "name").map(str::to_string),
        args: args_of(function.get("arguments")),
    })
}

/// An Anthropic content block, or an OpenAI Chat tool call object in its place.
fn block_item(block: &Value, text_item: &impl Fn(String) -> Option<Item>) -> Option<Item> {
    if is_call_object(block) {
        return call_object_item(block);
    }
    match str_of(block, "type")? {
        "text" => text_item(str_of(block, "text")?.to_string()),
        "tool_use" => Some(call(block, &["id"], block.get("input"))),
        "tool_result" => Some(Item::Result {
            call_id: id_of(block, &["tool_use_id"]),
            content: content_text(block.get("content").cloned().unwrap_or(Value::Null)),
            is_error: block.get("is_error").and_then(Value::as_bool),
        }),
        _ => None,
    }
}

/// An OTel GenAI part or a Gemini part.
fn part_item(part: &Value, text_item: &impl Fn(String) -> Option<Item>) -> Option<Item> {
    if let Some(function_call) = part
        .get("functionCall")
        .or_else(|| part.get("function_call"))
    {
        return Some(call(function_call, &["id"], function_call.get("args")));
    }
    if let Some(response) = part
        .get("functionResponse")
        .or_else(|| part.get("function_response"))
    {
        let body = response.get("response").cloned().unwrap_or(Value::Null);
        let error = body.get("error").filter(|error| !error.is_null()).cloned();
        let shown = error
            .clone()
            .or_else(|| body.get("output").cloned())
            .unwrap_or(body);
        return Some(Item::Result {
            call_id: id_of(response, &["id"]),
            content: content_text(shown),
            is_error: error.map(|_| true),
        });
    }
    match str_of(part, "type") {
        Some("tool_call") => Some(call(part, &["id"], part.get("arguments"))),
        Some("tool_call_response") => {
            let response = part.get("response").or_else(|| part.get("result"));
            Some(Item::Result {
                call_id: id_of(part, &["id"]),
                content: content_text(response.cloned().unwrap_or(Value::Null)),
                is_error: None,
            })
        }
        Some("text") | None if part.get("thought").and_then(Value::as_bool) != Some(true) => {
            let text = part.get("content").or_else(|| part.get("text"))?;
            text_item(text.as_str()?.to_string())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A rendering of items to compare.
    fn render(items: &[Item]) -> Vec<String> {
        items
            .iter()
            .map(|item| match item {
                Item::User(text) => format!("user {text}"),
                Item::Assistant(text) => format!("assistant {text}"),
                Item::Call {
                    call_id,
                    name,
                    args,
                } => format!("call {name:?} {call_id:?} {args:?}"),
                Item::Result {
                    call_id, content, ..
                } => format!("result {call_id:?} {content}"),
            })
            .collect()
    }

    /// As Koog 0.3 logs them (Langfuse's seeder trace `koog-2025-08-26.json`): the model's calls
    /// as its message's `content`, and sent back in the history as tool-role messages.
    #[test]
    fn tool_call_objects_in_a_messages_content_are_calls() {
        let call = json!({"function": {"name": "HelloTool", "arguments": {"name": "Bob"}},
                          "id": "call_1", "type": "function"});
        let said = render(&message_items(
            &json!({"role": "assistant", "content": [call.clone()], "finish_reason": "tool_calls"}),
        ));
        let echoed = render(&message_items(&json!({"role": "tool", "content": [call]})));
        let expected =
            [r#"call Some("HelloTool") Some("call_1") Json(Object {"name": String("Bob")})"#];
        assert_eq!(said, expected);
        assert_eq!(echoed, expected);
        // A tool definition in the same place is neither a call nor a result.
        let definition = json!({"type": "function", "function": {"name": "HelloTool",
                                "parameters": {"type": "object"}}});
        assert!(message_items(&json!({"role": "tool", "content": definition})).is_empty());
    }

    /// The `google-genai` SDK's `contents` may be plain text (Langfuse's seeder trace
    /// `google-gemini-2025-08-01.json`).
    #[test]
    fn contents_given_as_text_are_the_users_words() {
        let items = items_of(
            Some(json!({"model": "gemini-2.5-flash", "contents": "What is Langfuse?"})),
            true,
        );
        assert_eq!(items.len(), 1);
        assert_eq!(render(&items[0]), ["user What is Langfuse?"]);
    }
}
