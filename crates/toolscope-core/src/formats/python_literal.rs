//! Python literals as JSON: LangChain callbacks log tool inputs with `repr()`, so Langfuse and
//! LangSmith exports hold `"{'query': 'example', 'limit': None}"` where JSON was meant.

use serde_json::{Map, Value};

/// The JSON value a Python literal (dict, list, tuple, string, number, `True`, `False`, `None`)
/// stands for, or `None` when the text is not one.
pub(crate) fn python_literal(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !trimmed.starts_with(['{', '[', '(']) {
        return None;
    }
    serde_json::from_str(&to_json(trimmed)?).ok()
}

/// The fields of an object's repr written as `name=value` pairs separated by spaces, as
/// pydantic models and dataclasses print themselves (Agno logs its `Message`s so:
/// `role='user' content='Hi' tool_calls=None metrics=MessageMetrics(…) timer=<Timer object>`).
/// Each value is read as a Python literal; a value that is none (a nested object's repr, an
/// address) is `null`. `None` when the text is not such a list of fields.
pub(crate) fn python_fields(text: &str) -> Option<Map<String, Value>> {
    let bytes = text.as_bytes();
    let mut fields = Map::new();
    let mut at = 0;
    loop {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if at == bytes.len() {
            break;
        }
        let name_end = at
            + bytes[at..]
                .iter()
                .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))?;
        if name_end == at || bytes[at].is_ascii_digit() || bytes[name_end] != b'=' {
            return None;
        }
        let value_start = name_end + 1;
        let value_end = value_end(bytes, value_start)?;
        let value = field_value(&text[value_start..value_end]);
        fields.insert(text[at..name_end].to_string(), value);
        at = value_end;
    }
    (!fields.is_empty()).then_some(fields)
}

/// Where a field's value ends: at the first space outside quotes and brackets.
fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = start;
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'\'' | b'"') => {
                at += 1;
                while *bytes.get(at)? != quote {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' | b'<' => depth += 1,
            b')' | b']' | b'}' | b'>' => depth = depth.checked_sub(1)?,
            byte if byte.is_ascii_whitespace() && depth == 0 => break,
            _ => {}
        }
        at += 1;
    }
    (at > start && depth == 0).then_some(at)
}

/// A field's value as JSON: a literal, or `null` for anything else.
fn field_value(raw: &str) -> Value {
    match raw {
        "None" => return Value::Null,
        "True" => return Value::Bool(true),
        "False" => return Value::Bool(false),
        _ => {}
    }
    if raw.starts_with(['\'', '"']) {
        return match python_literal(&format!("[{raw}]")) {
            Some(Value::Array(mut items)) if items.len() == 1 => items.remove(0),
            _ => Value::Null,
        };
    }
    python_literal(raw)
        .or_else(|| {
            serde_json::from_str::<serde_json::Number>(raw)
                .ok()
                .map(Value::Number)
        })
        .unwrap_or(Value::Null)
}

/// Rewrites the literal's tokens as JSON ones; anything that is no Python literal token stops it.
fn to_json(text: &str) -> Option<String> {
    let mut json = String::with_capacity(text.len() + 8);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                json.push('"');
                loop {
                    match chars.next()? {
                        quote if quote == c => break,
                        '\\' => match chars.next()? {
                            '\'' => json.push('\''),
                            '"' => json.push_str("\\\""),
                            'x' => {
                                let hex: String = [chars.next()?, chars.next()?].iter().collect();
                                json.push_str(&format!("\\u00{hex}"));
                            }
                            other @ ('\\' | 'n' | 't' | 'r' | 'b' | 'f' | 'u' | '/') => {
                                json.push('\\');
                                json.push(other);
                            }
                            _ => return None,
                        },
                        '"' => json.push_str("\\\""),
                        control if control.is_control() => {
                            json.push_str(&format!("\\u{:04x}", control as u32))
                        }
                        other => json.push(other),
                    }
                }
                json.push('"');
            }
            '(' => json.push('['),
            ')' => json.push(']'),
            letter if letter.is_ascii_alphabetic() => {
                let mut word = String::from(letter);
                while let Some(next) = chars.peek().filter(|next| next.is_ascii_alphanumeric()) {
                    word.push(*next);
                    chars.next();
                }
                json.push_str(match word.as_str() {
                    "True" => "true",
                    "False" => "false",
                    "None" => "null",
                    _ => return None,
                });
            }
            other => json.push(other),
        }
    }
    Some(json)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_dicts_lists_tuples_and_python_constants() {
        assert_eq!(
            python_literal("{'query': 'example', 'n': 3, 'ok': True, 'x': None, 'p': (1, 2.5)}"),
            Some(json!({"query": "example", "n": 3, "ok": true, "x": null, "p": [1, 2.5]}))
        );
        assert_eq!(
            python_literal(r#"['it\'s', "say \"hi\"", 'a"b', '\x41']"#),
            Some(json!(["it's", "say \"hi\"", "a\"b", "A"]))
        );
    }

    /// As Agno 1.x logs a `Message` (Langfuse's seeder trace `agno-2025-06-11.json`).
    #[test]
    fn reads_the_fields_of_a_pydantic_repr() {
        let text = "role='assistant' content=None tool_call_id=None tool_calls=[{'id': 'call_1', \
                    'function': {'arguments': '{\"q\":\"it\\'s\"}', 'name': 'search'}}] \
                    stop=False n=3 metrics=MessageMetrics(time=0.9, details={'a': 1}) \
                    timer=<agno.utils.timer.Timer object at 0x309c55a90> note='a b=c'";
        let fields = python_fields(text).unwrap();
        assert_eq!(
            Value::Object(fields),
            json!({"role": "assistant", "content": null, "tool_call_id": null,
                   "tool_calls": [{"id": "call_1",
                                   "function": {"arguments": "{\"q\":\"it's\"}", "name": "search"}}],
                   "stop": false, "n": 3, "metrics": null, "timer": null, "note": "a b=c"})
        );
    }

    /// Every cut of a repr, at each character, and with bytes that open and close nothing.
    #[test]
    fn cut_and_garbled_reprs_are_read_or_refused_without_panic() {
        let text = "role='tool' content='[\\n {\"t\": \"it\\'s ✓\"}]' tool_call_id='call_1' \
                    metrics=M(a=[1, {'b': (2,)}]) timer=<T object at 0x1> x_1=None";
        for (at, _) in text.char_indices() {
            let _ = python_fields(&text[..at]);
            let _ = python_fields(&text[at..]);
            let garbled = format!("{}\\{}", &text[..at], &text[at..]);
            let _ = python_fields(&garbled);
        }
        assert!(python_fields(text).is_some());
    }

    #[test]
    fn text_that_is_not_a_list_of_fields_is_none() {
        assert_eq!(python_fields("user: hello"), None);
        assert_eq!(python_fields("role='user' content='open"), None);
        assert_eq!(python_fields("role=(unbalanced"), None);
        assert_eq!(python_fields("1a=2"), None);
        assert_eq!(python_fields("   "), None);
        assert_eq!(python_fields("a=1 ] b=2"), None);
    }

    #[test]
    fn text_that_is_not_a_literal_is_none() {
        assert_eq!(python_literal("hello"), None);
        assert_eq!(python_literal("{'a': datetime(2020)}"), None);
        assert_eq!(python_literal("{'a': 'open"), None);
    }
}
