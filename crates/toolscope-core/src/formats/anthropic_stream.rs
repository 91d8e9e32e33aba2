//! Anthropic Messages streams: the server-sent events of a streamed response (as a client saves
//! them, one event per line) merged back into the message they make. `message_start` holds the
//! message; `content_block_start` opens each content block at its `index`;
//! `content_block_delta` adds to it (`text_delta` text, `input_json_delta` pieces of a tool
//! call's input, which is JSON once whole; thinking deltas are not read); `message_delta` gives
//! the stop reason; `message_stop` ends the stream.

use serde_json::{Map, Value};

use super::conversation::str_field;

/// Event types that continue a stream after its `message_start`.
const CONTINUING: [&str; 6] = [
    "content_block_start",
    "content_block_delta",
    "content_block_stop",
    "message_delta",
    "message_stop",
    "ping",
];

/// Whether a record starts a streamed message.
pub(crate) fn is_start(value: &Value) -> bool {
    str_field(value, "type") == Some("message_start") && value.get("message").is_some()
}

/// Whether `next` continues the stream: one of its events, before its `message_stop`.
pub(crate) fn continues(stream: &[Value], next: &Value) -> bool {
    let is_stopped = stream
        .last()
        .is_some_and(|last| str_field(last, "type") == Some("message_stop"));
    !is_stopped && str_field(next, "type").is_some_and(|kind| CONTINUING.contains(&kind))
}

/// The message a stream's events make.
pub(crate) fn merge(events: Vec<Value>) -> Value {
    let mut message = Map::new();
    // Content blocks by index, with the pieces of a tool call's input as text.
    let mut blocks: Vec<(i64, Map<String, Value>, String)> = Vec::new();
    for event in events {
        let index = event.get("index").and_then(Value::as_i64).unwrap_or(0);
        match str_field(&event, "type") {
            Some("message_start") => {
                if let Some(Value::Object(start)) = event.get("message") {
                    message = start.clone();
                }
            }
            Some("content_block_start") => {
                if let Some(Value::Object(block)) = event.get("content_block") {
                    blocks.push((index, block.clone(), String::new()));
                }
            }
            Some("content_block_delta") => {
                let (Some(delta), Some((_, block, input))) = (
                    event.get("delta"),
                    blocks.iter_mut().rev().find(|(at, ..)| *at == index),
                ) else {
                    continue;
                };
                match str_field(delta, "type") {
                    Some("text_delta") => {
                        let text = format!(
                            "{}{}",
                            block
                                .get("text")
                                .and_then(Value::as_str)
                                .unwrap_or_default(),
                            str_field(delta, "text").unwrap_or_default()
                        );
                        block.insert("text".into(), Value::from(text));
                    }
                    Some("input_json_delta") => {
                        input.push_str(str_field(delta, "partial_json").unwrap_or_default())
                    }
                    // Thinking and signature deltas carry no call.
                    _ => {}
                }
            }
            Some("message_delta") => {
                if let Some(Value::Object(delta)) = event.get("delta") {
                    for (key, value) in delta {
                        message.insert(key.clone(), value.clone());
                    }
                }
            }
            _ => {}
        }
    }
    let content: Vec<Value> = blocks
        .into_iter()
        .map(|(_, mut block, input)| {
            if !input.is_empty() {
                // Whole, the pieces are the input's JSON; a stream cut short leaves text that
                // the reader keeps as malformed arguments.
                let value = serde_json::from_str(&input).unwrap_or(Value::String(input));
                block.insert("input".into(), value);
            }
            Value::Object(block)
        })
        .collect();
    message.insert("content".into(), Value::Array(content));
    message
        .entry("role")
        .or_insert_with(|| Value::from("assistant"));
    Value::Object(message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn text_and_tool_input_pieces_join_into_the_message() {
        let merged = merge(vec![
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message",
                   "role": "assistant", "content": [], "stop_reason": null}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Let me "}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "check."}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block":
                   {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{\"locati"}}),
            json!({"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "on\": \"Paris\"}"}}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}}),
            json!({"type": "message_stop"}),
        ]);
        assert_eq!(merged["content"][0]["text"], "Let me check.");
        assert_eq!(merged["content"][1]["input"], json!({"location": "Paris"}));
        assert_eq!(merged["stop_reason"], "tool_use");
        assert_eq!(merged["role"], "assistant");
    }
}
