//! OpenAI Responses streams: the events of a streamed response (as a client saves them, one per
//! line) merged back into the response they make. `response.created` starts the stream; the
//! final event (`response.completed`, `response.incomplete` or `response.failed`) holds the whole
//! response; a stream cut short before it is the items its `response.output_item.done` events
//! gave, in their `output_index` order.

use serde_json::Value;

use super::conversation::str_field;

/// Event types that end a stream, each holding the whole response.
const FINAL: [&str; 3] = [
    "response.completed",
    "response.incomplete",
    "response.failed",
];

/// Whether a record starts a streamed response.
pub(crate) fn is_start(value: &Value) -> bool {
    str_field(value, "type") == Some("response.created") && value.get("response").is_some()
}

/// Whether `next` continues the stream: one of its events, before the final one.
pub(crate) fn continues(stream: &[Value], next: &Value) -> bool {
    let is_done = stream
        .last()
        .and_then(|last| str_field(last, "type"))
        .is_some_and(|kind| FINAL.contains(&kind));
    !is_done && str_field(next, "type").is_some_and(|kind| kind.starts_with("response."))
}

/// The response a stream's events make.
pub(crate) fn merge(events: Vec<Value>) -> Value {
    let mut items: Vec<(i64, Value)> = Vec::new();
    let mut response = Value::Null;
    for event in events {
        match str_field(&event, "type") {
            Some(kind) if FINAL.contains(&kind) => {
                if let Some(whole) = event.get("response").filter(|r| r.is_object()) {
                    return whole.clone();
                }
            }
            Some("response.created") => {
                response = event.get("response").cloned().unwrap_or(Value::Null);
            }
            Some("response.output_item.done") => {
                if let Some(item) = event.get("item") {
                    let at = event
                        .get("output_index")
                        .and_then(Value::as_i64)
                        .unwrap_or(i64::MAX);
                    items.push((at, item.clone()));
                }
            }
            _ => {}
        }
    }
    crate::sort::sort_by_key(&mut items, |(at, _)| *at);
    let output = Value::Array(items.into_iter().map(|(_, item)| item).collect());
    match response {
        Value::Object(mut map) => {
            map.insert("output".into(), output);
            Value::Object(map)
        }
        _ => serde_json::json!({ "output": output }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_final_event_holds_the_response_and_a_cut_stream_its_done_items() {
        let created =
            json!({"type": "response.created", "response": {"id": "resp_1", "output": []}});
        let done = json!({"type": "response.output_item.done", "output_index": 0,
            "item": {"type": "function_call", "name": "f", "arguments": "{}", "call_id": "c1"}});
        let completed = json!({"type": "response.completed",
            "response": {"id": "resp_1", "output": [{"type": "function_call", "name": "f",
                "arguments": "{}", "call_id": "c1"}], "status": "completed"}});
        let whole = merge(vec![created.clone(), done.clone(), completed]);
        assert_eq!(whole["status"], "completed");
        let cut = merge(vec![created, done]);
        assert_eq!(cut["id"], "resp_1");
        assert_eq!(cut["output"][0]["call_id"], "c1");
    }
}
