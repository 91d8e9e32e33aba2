//! OpenAI Chat Completions streams: `chat.completion.chunk` records (as a client saves a
//! streamed response, one chunk per line) merged back into the one `chat.completion` they make.
//! Each chunk's `choices[0].delta` adds to the message: `content` and `refusal` text appended,
//! each `tool_calls` entry (by its `index`) giving its `id`, `type` and `function.name` once and
//! its `function.arguments` in pieces; the legacy `function_call` likewise.

use serde_json::{json, Map, Value};

use super::conversation::str_field;

/// Whether a record is a streamed chunk.
pub(crate) fn is_chunk(value: &Value) -> bool {
    str_field(value, "object") == Some("chat.completion.chunk")
}

/// Whether `next` continues the stream of `stream`: a chunk of the same completion (`id`).
pub(crate) fn continues(stream: &[Value], next: &Value) -> bool {
    is_chunk(next)
        && stream
            .first()
            .is_some_and(|first| first.get("id") == next.get("id"))
}

/// The completion a stream's chunks make.
pub(crate) fn merge(chunks: Vec<Value>) -> Value {
    let mut role: Option<Value> = None;
    let mut content: Option<String> = None;
    let mut refusal: Option<String> = None;
    // Tool calls by their index, in the order they first appear.
    let mut calls: Vec<(i64, Map<String, Value>, String, String)> = Vec::new();
    let mut function_call: Option<(String, String)> = None;
    let mut finish_reason = Value::Null;
    let mut usage = Value::Null;
    let mut first: Option<Value> = None;
    for chunk in chunks {
        if let Some(found) = chunk.get("usage").filter(|usage| !usage.is_null()) {
            usage = found.clone();
        }
        let choice = chunk.get("choices").and_then(|choices| choices.get(0));
        if let Some(reason) = choice
            .and_then(|choice| choice.get("finish_reason"))
            .filter(|reason| !reason.is_null())
        {
            finish_reason = reason.clone();
        }
        if let Some(delta) = choice.and_then(|choice| choice.get("delta")) {
            if let Some(found) = delta.get("role").filter(|role| !role.is_null()) {
                role.get_or_insert_with(|| found.clone());
            }
            append(&mut content, delta.get("content"));
            append(&mut refusal, delta.get("refusal"));
            for call in delta
                .get("tool_calls")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                add_call_piece(&mut calls, call);
            }
            if let Some(piece) = delta.get("function_call").filter(|f| f.is_object()) {
                let (name, arguments) = function_call.get_or_insert_with(Default::default);
                name.push_str(str_field(piece, "name").unwrap_or_default());
                arguments.push_str(str_field(piece, "arguments").unwrap_or_default());
            }
        }
        first.get_or_insert(chunk);
    }
    let mut message = Map::new();
    message.insert(
        "role".into(),
        role.unwrap_or_else(|| Value::from("assistant")),
    );
    message.insert("content".into(), content.map_or(Value::Null, Value::from));
    if let Some(refusal) = refusal {
        message.insert("refusal".into(), Value::from(refusal));
    }
    if !calls.is_empty() {
        let calls: Vec<Value> = calls
            .into_iter()
            .map(|(_, mut call, name, arguments)| {
                call.insert(
                    "function".into(),
                    json!({"name": name, "arguments": arguments}),
                );
                call.entry("type")
                    .or_insert_with(|| Value::from("function"));
                Value::Object(call)
            })
            .collect();
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    if let Some((name, arguments)) = function_call {
        message.insert(
            "function_call".into(),
            json!({"name": name, "arguments": arguments}),
        );
    }
    let first = first.unwrap_or(Value::Null);
    json!({
        "id": first.get("id").cloned().unwrap_or(Value::Null),
        "object": "chat.completion",
        "model": first.get("model").cloned().unwrap_or(Value::Null),
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
        "usage": usage,
    })
}

/// Appends a text piece (a string) to `text`.
fn append(text: &mut Option<String>, piece: Option<&Value>) {
    if let Some(piece) = piece.and_then(Value::as_str) {
        text.get_or_insert_with(String::new).push_str(piece);
    }
}

/// One piece of a streamed tool call: its index finds the call it continues.
fn add_call_piece(calls: &mut Vec<(i64, Map<String, Value>, String, String)>, piece: &Value) {
    let index = piece
        .get("index")
        .and_then(Value::as_i64)
        .unwrap_or(calls.len() as i64);
    let at = match calls.iter().position(|(seen, ..)| *seen == index) {
        Some(at) => at,
        None => {
            calls.push((index, Map::new(), String::new(), String::new()));
            calls.len() - 1
        }
    };
    let (_, fields, name, arguments) = &mut calls[at];
    for key in ["id", "type"] {
        if let Some(value) = piece.get(key).filter(|value| !value.is_null()) {
            fields.entry(key).or_insert_with(|| value.clone());
        }
    }
    if let Some(function) = piece.get("function") {
        name.push_str(str_field(function, "name").unwrap_or_default());
        arguments.push_str(str_field(function, "arguments").unwrap_or_default());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_of_text_and_calls_join_by_index() {
        let chunk = |delta: Value, finish: Value| {
            json!({"id": "c1", "object": "chat.completion.chunk", "model": "m",
                   "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
        };
        let merged = merge(vec![
            chunk(
                json!({"role": "assistant", "content": "Let me "}),
                Value::Null,
            ),
            chunk(json!({"content": "check."}), Value::Null),
            chunk(
                json!({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                "function": {"name": "get_weather", "arguments": ""}}]}),
                Value::Null,
            ),
            chunk(
                json!({"tool_calls": [{"index": 1, "id": "call_b",
                "function": {"name": "get_time", "arguments": "{}"}}]}),
                Value::Null,
            ),
            chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": "{\"city\": "}}]}),
                Value::Null,
            ),
            chunk(
                json!({"tool_calls": [{"index": 0, "function": {"arguments": "\"Paris\"}"}}]}),
                Value::Null,
            ),
            chunk(json!({}), json!("tool_calls")),
        ]);
        let message = &merged["choices"][0]["message"];
        assert_eq!(message["content"], "Let me check.");
        assert_eq!(message["tool_calls"][0]["id"], "call_a");
        assert_eq!(
            message["tool_calls"][0]["function"]["arguments"],
            "{\"city\": \"Paris\"}"
        );
        assert_eq!(message["tool_calls"][1]["function"]["name"], "get_time");
        assert_eq!(merged["choices"][0]["finish_reason"], "tool_calls");
    }
}
