//! Records a reader cannot read because they are not of its format: a header line, `{}`, a
//! number, a string, a record of another format. Detection picks the format from the first record
//! some format recognises, so such records may come before it or among the others; each one is a
//! diagnostic at its line that says what the record is, and nothing is dropped silently.
//!
//! A record that holds nothing (null, a boolean, a number, a string, `{}`, `[]`) is a warning:
//! skipping it loses nothing. Any other record is an error: it may hold data that is lost.

use serde_json::Value;

use crate::diagnostic::Diagnostic;

/// Most characters of a string or number a description quotes.
const SHOWN_CHARS: usize = 40;

/// Most keys of an object a description names.
const SHOWN_KEYS: usize = 4;

/// The diagnostic for a record at `line` that is not `expected` (say, "a toolscope session
/// ({\"session_id\", \"events\"})"): "a JSON number (42), not a toolscope session (…); skipped".
pub(crate) fn not_of_format(file: &str, line: usize, value: &Value, expected: &str) -> Diagnostic {
    let what = describe(value);
    if holds_nothing(value) {
        Diagnostic::warning(file, Some(line), format!("{what}, not {expected}; skipped"))
    } else {
        Diagnostic::error(
            file,
            Some(line),
            format!("{what}, not {expected}; left out"),
        )
    }
}

/// Whether a record holds nothing a trace could be made of.
pub(crate) fn holds_nothing(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.is_empty(),
        Value::Array(items) => items.is_empty(),
        _ => true,
    }
}

/// What a JSON value is, in words: "null", "a JSON number (42)", "a JSON string (\"header\")",
/// "an empty object", "an array of 3 values", "an object with keys \"a\", \"b\"".
pub(crate) fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(flag) => format!("a JSON boolean ({flag})"),
        Value::Number(number) => format!("a JSON number ({})", shown(&number.to_string())),
        Value::String(text) => format!("a JSON string ({:?})", shown(text)),
        Value::Array(items) if items.is_empty() => "an empty array".to_string(),
        Value::Array(items) if items.len() == 1 => "an array of 1 value".to_string(),
        Value::Array(items) => format!("an array of {} values", items.len()),
        Value::Object(map) if map.is_empty() => "an empty object".to_string(),
        Value::Object(map) => {
            let mut keys: Vec<String> = map
                .keys()
                .take(SHOWN_KEYS)
                .map(|key| format!("{:?}", shown(key)))
                .collect();
            if map.len() > SHOWN_KEYS {
                keys.push("…".to_string());
            }
            let noun = if map.len() == 1 { "key" } else { "keys" };
            format!("an object with {noun} {}", keys.join(", "))
        }
    }
}

/// Text cut to [`SHOWN_CHARS`] characters.
fn shown(text: &str) -> String {
    match text.char_indices().nth(SHOWN_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Severity;
    use serde_json::json;

    #[test]
    fn records_are_described_by_what_they_are() {
        let cases = [
            (json!(null), "null"),
            (json!(true), "a JSON boolean (true)"),
            (json!(42), "a JSON number (42)"),
            (json!("header"), "a JSON string (\"header\")"),
            (json!([]), "an empty array"),
            (json!([1]), "an array of 1 value"),
            (json!([1, 2]), "an array of 2 values"),
            (json!({}), "an empty object"),
            (json!({"version": 1}), "an object with key \"version\""),
            (
                json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}),
                "an object with keys \"a\", \"b\", \"c\", \"d\", …",
            ),
        ];
        for (value, expected) in cases {
            assert_eq!(describe(&value), expected);
        }
        let long = json!("x".repeat(50));
        assert_eq!(
            describe(&long),
            format!("a JSON string (\"{}…\")", "x".repeat(40))
        );
    }

    #[test]
    fn empty_records_are_warnings_and_records_with_content_errors() {
        let skipped = not_of_format("f.jsonl", 1, &json!(42), "a toolscope session");
        assert_eq!(skipped.severity, Severity::Warning);
        assert_eq!(
            skipped.to_string(),
            "f.jsonl:1: warning: a JSON number (42), not a toolscope session; skipped"
        );
        let lost = not_of_format("f.jsonl", 3, &json!({"version": 1}), "a toolscope session");
        assert_eq!(lost.severity, Severity::Error);
        assert_eq!(
            lost.to_string(),
            "f.jsonl:3: error: an object with key \"version\", not a toolscope session; left out"
        );
    }
}
