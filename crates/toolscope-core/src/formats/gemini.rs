//! Google Gemini (`generateContent`, Gemini API and Vertex AI): requests (`contents` of `parts`,
//! `tools[].functionDeclarations`), responses (`candidates`), logs of both and bare content
//! lists. The Python SDK's snake_case names (`function_call`, `function_declarations`) work too.
//!
//! ```json
//! {"tools": [{"functionDeclarations": [{"name": "get_weather", "parameters": {"type": "OBJECT"}}]}],
//!  "contents": [
//!   {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
//!   {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}}]},
//!   {"role": "user", "parts": [{"functionResponse": {"name": "get_weather",
//!                                                   "response": {"error": "timeout"}}}]}]}
//! ```
//! A `functionResponse` links to its call by `id` when both have one, else by order. Its
//! `response` object holds `output` or, on failure, `error` (the explicit flag); text starting
//! with `Error:` is an inferred error. Schema type names in OpenAPI's upper case (`OBJECT`) are
//! read as JSON Schema's lower case.

use serde_json::Value;

use super::content_text;
use super::conversation::{args_from, str_field, Conversation};
use super::exchange::Dialect;
use crate::diagnostic::Diagnostic;

/// The Gemini dialect.
pub(crate) struct Gemini;

/// Whether a response is a streamed chunk that more chunks follow: its first candidate has no
/// `finishReason` yet (the last chunk of a stream, and every unstreamed response, has one).
fn is_unfinished_chunk(value: &Value) -> bool {
    value
        .get("candidates")
        .and_then(|candidates| candidates.get(0))
        .is_some_and(|candidate| either(candidate, "finishReason", "finish_reason").is_none())
}

/// One response from a stream's chunks (`streamGenerateContent`): the first candidate's parts in
/// order, a text part continuing the text of the chunk before it (a call's parts, and a reply's
/// text, can be spread over chunks); the rest of the response from the last chunk.
fn merge_chunks(chunks: Vec<Value>) -> Value {
    let mut merged: Option<Value> = None;
    let mut parts: Vec<Value> = Vec::new();
    let mut role: Option<Value> = None;
    for chunk in chunks {
        let content = chunk
            .get("candidates")
            .and_then(|candidates| candidates.get(0))
            .and_then(|candidate| candidate.get("content"));
        if let Some(content) = content {
            role = role.or_else(|| content.get("role").cloned());
            for part in content
                .get("parts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let text = part.get("text").and_then(Value::as_str);
                let is_thought = part.get("thought").and_then(Value::as_bool) == Some(true);
                let previous = parts.last_mut().filter(|previous| {
                    previous.get("text").is_some()
                        && (previous.get("thought").and_then(Value::as_bool) == Some(true))
                            == is_thought
                        && previous.as_object().is_some_and(|map| {
                            map.keys()
                                .all(|key| matches!(key.as_str(), "text" | "thought"))
                        })
                });
                match (text, previous) {
                    (Some(text), Some(previous)) => {
                        let joined = format!(
                            "{}{text}",
                            previous
                                .get("text")
                                .and_then(Value::as_str)
                                .unwrap_or_default()
                        );
                        previous["text"] = Value::from(joined);
                    }
                    _ => parts.push(part.clone()),
                }
            }
        }
        merged = Some(chunk);
    }
    let mut merged = merged.unwrap_or(Value::Null);
    if let Some(candidate) = merged
        .get_mut("candidates")
        .and_then(|candidates| candidates.get_mut(0))
        .and_then(Value::as_object_mut)
    {
        let mut content = serde_json::Map::new();
        if let Some(role) = role {
            content.insert("role".into(), role);
        }
        content.insert("parts".into(), Value::Array(parts));
        candidate.insert("content".into(), Value::Object(content));
    }
    merged
}

/// A field by its REST (camelCase) or Python SDK (snake_case) name.
fn either<'v>(value: &'v Value, camel: &str, snake: &str) -> Option<&'v Value> {
    value.get(camel).or_else(|| value.get(snake))
}

impl Dialect for Gemini {
    const EXPECTED: &'static str = "a Gemini request ({\"contents\", \"tools\"}), response \
        ({\"candidates\"}), request/response pair or content with \"parts\"";

    fn is_message(value: &Value) -> bool {
        value.get("parts").is_some_and(Value::is_array)
    }

    fn is_request(value: &Value) -> bool {
        value.get("contents").is_some_and(Value::is_array)
    }

    fn is_response(value: &Value) -> bool {
        value.get("candidates").is_some_and(Value::is_array)
    }

    fn request_messages(body: &Value) -> Vec<Value> {
        body.get("contents")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    fn is_stream_chunk(value: &Value) -> bool {
        is_unfinished_chunk(value)
    }

    fn continues_stream(stream: &[Value], next: &Value) -> bool {
        // Chunks follow until one has a `finishReason`.
        next.get("candidates").is_some() && stream.last().is_some_and(is_unfinished_chunk)
    }

    fn merge_stream(chunks: Vec<Value>) -> Value {
        merge_chunks(chunks)
    }

    fn response_messages(body: &Value) -> Vec<Value> {
        // A logged `streamGenerateContent` response is the list of its chunks.
        if let Value::Array(chunks) = body {
            return Self::response_messages(&merge_chunks(chunks.clone()));
        }
        // Only the first candidate continues the conversation.
        body.get("candidates")
            .and_then(|candidates| candidates.get(0))
            .and_then(|candidate| candidate.get("content"))
            .cloned()
            .into_iter()
            .collect()
    }

    fn tools(body: &Value) -> Option<Value> {
        let declarations: Vec<Value> = body
            .get("tools")?
            .as_array()?
            .iter()
            .filter_map(|tool| either(tool, "functionDeclarations", "function_declarations"))
            .filter_map(Value::as_array)
            .flatten()
            .map(declaration)
            .collect();
        Some(Value::Array(declarations))
    }

    fn add_message(
        conversation: &mut Conversation,
        content: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let is_user = match str_field(content, "role") {
            Some("model") => false,
            // Function responses come back as "user" (or, in older exports, "function") content;
            // content without a role is the user's.
            Some("user" | "function") | None => true,
            Some(other) => {
                diagnostics.push(
                    conversation.warning(format!("{place}: unknown role {other:?}; left out")),
                );
                return;
            }
        };
        let parts = content.get("parts").and_then(Value::as_array);
        let mut text = Vec::new();
        for (index, part) in parts.into_iter().flatten().enumerate() {
            let place = format!("{place}, part {}", index + 1);
            if let Some(call) = either(part, "functionCall", "function_call") {
                flush_text(conversation, is_user, &mut text);
                conversation.call(
                    call.get("id").and_then(super::id_text),
                    str_field(call, "name"),
                    args_from(call.get("args")),
                    &place,
                    diagnostics,
                );
            } else if let Some(response) = either(part, "functionResponse", "function_response") {
                flush_text(conversation, is_user, &mut text);
                let body = response.get("response").cloned().unwrap_or(Value::Null);
                let error = body.get("error").filter(|error| !error.is_null());
                let shown = error
                    .or_else(|| body.get("output"))
                    .or_else(|| body.get("result"))
                    .cloned()
                    .unwrap_or_else(|| body.clone());
                conversation.result(
                    response.get("id").and_then(super::id_text),
                    Some(content_text(shown)),
                    error.map(|_| true),
                    &place,
                    diagnostics,
                );
            } else if part.get("thought").and_then(Value::as_bool) != Some(true) {
                text.extend(str_field(part, "text").map(str::to_string));
            }
        }
        flush_text(conversation, is_user, &mut text);
    }
}

/// User or model text; a user content of function responses only is not a user turn.
fn flush_text(conversation: &mut Conversation, is_user: bool, text: &mut Vec<String>) {
    let joined = text.join("\n");
    text.clear();
    if joined.trim().is_empty() {
        return;
    }
    if is_user {
        conversation.user(joined);
    } else {
        conversation.assistant(joined);
    }
}

/// A function declaration as a catalog definition: `parameters` (OpenAPI subset, type names
/// lower-cased) or `parametersJsonSchema`.
fn declaration(value: &Value) -> Value {
    let mut definition = value.clone();
    if let Some(map) = definition.as_object_mut() {
        if let Some(schema) = map.remove("parameters_json_schema") {
            map.insert("parametersJsonSchema".into(), schema);
        }
        if let Some(parameters) = map.get_mut("parameters") {
            lower_type_names(parameters, 0);
        }
    }
    definition
}

/// OpenAPI's `"type": "OBJECT"` as JSON Schema's `"object"`, through nested schemas.
fn lower_type_names(schema: &mut Value, depth: usize) {
    if depth > crate::json::MAX_DEPTH {
        return;
    }
    match schema {
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                match (key.as_str(), value) {
                    ("type", Value::String(name)) => *name = name.to_lowercase(),
                    (_, value) => lower_type_names(value, depth + 1),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                lower_type_names(item, depth + 1);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn openapi_type_names_become_json_schema_ones_but_property_names_stay() {
        let read = declaration(&json!({"name": "f", "parameters": {"type": "OBJECT",
            "properties": {"type": {"type": "STRING"}, "tags": {"type": "ARRAY", "items": {"type": "INTEGER"}}}}}));
        assert_eq!(
            read["parameters"],
            json!({"type": "object", "properties": {"type": {"type": "string"},
                "tags": {"type": "array", "items": {"type": "integer"}}}})
        );
        let snake =
            declaration(&json!({"name": "g", "parameters_json_schema": {"type": "object"}}));
        assert_eq!(snake["parametersJsonSchema"], json!({"type": "object"}));
    }
}
