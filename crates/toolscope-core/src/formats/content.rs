//! Message content as text, whatever shape the export gave it.

use serde_json::Value;

/// A message's content as text: a string as is, a list of content blocks as their texts joined
/// by newlines, anything else as compact JSON.
pub fn content_text(value: Value) -> String {
    match value {
        Value::String(text) => text,
        Value::Null => String::new(),
        Value::Array(blocks) if blocks.iter().all(|block| block_text(block).is_some()) => blocks
            .iter()
            .filter_map(block_text)
            .collect::<Vec<_>>()
            .join("\n"),
        other => other.to_string(),
    }
}

fn block_text(block: &Value) -> Option<&str> {
    match block {
        Value::String(text) => Some(text),
        Value::Object(map) => map.get("text").and_then(Value::as_str),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn joins_text_blocks_and_keeps_other_json() {
        assert_eq!(content_text(json!("hi")), "hi");
        assert_eq!(
            content_text(json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])),
            "a\nb"
        );
        assert_eq!(content_text(json!({"k": 1})), "{\"k\":1}");
        assert_eq!(content_text(Value::Null), "");
    }
}
