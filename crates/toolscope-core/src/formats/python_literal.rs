//! Python literals as JSON: LangChain callbacks log tool inputs with `repr()`, so Langfuse and
//! LangSmith exports hold `"{'query': 'example', 'limit': None}"` where JSON was meant.

use serde_json::Value;

/// The JSON value a Python literal (dict, list, tuple, string, number, `True`, `False`, `None`)
/// stands for, or `None` when the text is not one.
pub(crate) fn python_literal(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    if !trimmed.starts_with(['{', '[', '(']) {
        return None;
    }
    serde_json::from_str(&to_json(trimmed)?).ok()
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

    #[test]
    fn text_that_is_not_a_literal_is_none() {
        assert_eq!(python_literal("hello"), None);
        assert_eq!(python_literal("{'a': datetime(2020)}"), None);
        assert_eq!(python_literal("{'a': 'open"), None);
    }
}
