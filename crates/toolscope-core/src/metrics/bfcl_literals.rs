//! Java and JavaScript arguments as the Berkeley Function Calling Leaderboard reads them.
//!
//! BFCL shows a model every parameter of its Java and JavaScript questions as a string ("This is
//! Java long type parameter in string representation") and its checker turns the strings back
//! into values by the declared type (`bfcl_eval/eval_checker/ast_eval/type_convertor/`) before
//! comparing them with the acceptable values:
//!
//! | declared (Java)                  | string            | value                |
//! |----------------------------------|-------------------|----------------------|
//! | `integer` `short` `byte`         | `"5"`             | `5`                  |
//! | `long`                           | `"5L"`            | `5`                  |
//! | `float`                          | `"2.5f"`          | `2.5`                |
//! | `double`                         | `"2.5"`           | `2.5`                |
//! | `boolean`                        | `"true"`          | `true`               |
//! | `ArrayList`                      | `"new ArrayList<>(Arrays.asList(1, 2))"` | `[1, 2]` |
//! | `Array`                          | `"new int[]{1, 2}"` | `[1, 2]`           |
//! | `HashMap`                        | `"new HashMap<String, Object>() {{ put(\"k\", 1); }}"` | `{"k": 1}` |
//!
//! and for JavaScript `String` (quotes removed), `integer`, `float`, `Bigint` (`"5n"`), `Boolean`,
//! `array` (`"[1, 2]"`, `"new Array(1, 2)"`, two-dimensional `"[[1], [2]]"`) and `dict`
//! (`"{key: 'v', n: 2}"`). A string that does not have the type's shape stays a string (a
//! variable name, say), and `String`, `char` and `any` stay as given.
//!
//! The conversions are BFCL's regular expressions, quirks included: a Java `Array` of `String`
//! keeps each item's quotes, `put` and `add` stop at the first `)`, a JavaScript object's quoted
//! number becomes a number. Java's `Set`, `Hashtable`, `Queue` and `Stack`, which BFCL's
//! converter does not implement (its run stops), are compared as text here.

use std::sync::LazyLock;

use regex::Regex;
use serde_json::{Map, Value};

use super::acceptable::Kind;

/// The language of a BFCL question whose arguments are strings to convert.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    Java,
    JavaScript,
}

impl Language {
    /// The language of a BFCL entry, from its id (`simple_java_3`, `simple_javascript_7`), as
    /// BFCL tells it from the category name; Python has none (its values are not converted).
    pub fn of_id(id: &str) -> Option<Language> {
        if id.contains("javascript") {
            Some(Language::JavaScript)
        } else if id.contains("java") {
            Some(Language::Java)
        } else {
            None
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Language::Java => "java",
            Language::JavaScript => "javascript",
        }
    }

    pub fn from_name(name: &str) -> Option<Language> {
        [Language::Java, Language::JavaScript]
            .into_iter()
            .find(|language| language.name() == name)
    }

    /// Whether BFCL converts strings declared `type_name` (its `*_TYPE_CONVERSION` tables).
    pub fn converts(self, type_name: &str) -> bool {
        self.kind_of(type_name).is_some()
    }

    /// The Python type BFCL's table gives `type_name`; for the types it cannot convert, text.
    pub(crate) fn kind_of(self, type_name: &str) -> Option<Kind> {
        let kind = match (self, type_name) {
            (Language::Java, "byte" | "short" | "integer" | "long") => Kind::Int,
            (Language::Java, "float" | "double") => Kind::Float,
            (Language::Java, "boolean") => Kind::Bool,
            (Language::Java, "Array" | "ArrayList") => Kind::List,
            (Language::Java, "HashMap") => Kind::Dict,
            (
                Language::Java,
                "char" | "String" | "any" | "Set" | "Hashtable" | "Queue" | "Stack",
            ) => Kind::Str,
            (Language::JavaScript, "String" | "any") => Kind::Str,
            (Language::JavaScript, "integer" | "Bigint") => Kind::Int,
            (Language::JavaScript, "float") => Kind::Float,
            (Language::JavaScript, "Boolean") => Kind::Bool,
            (Language::JavaScript, "dict") => Kind::Dict,
            (Language::JavaScript, "array") => Kind::List,
            _ => return None,
        };
        Some(kind)
    }

    /// Whether BFCL checks the items of a parameter declared `type_name` by their own type.
    pub fn has_items(self, type_name: &str) -> bool {
        matches!(
            (self, type_name),
            (Language::Java, "Array" | "ArrayList") | (Language::JavaScript, "array")
        )
    }

    /// `text` read as a value of `type_name` (items of `items`), as BFCL's converter reads it.
    pub fn convert(self, text: &str, type_name: &str, items: Option<&str>) -> Value {
        let items = items.filter(|items| !items.is_empty());
        match self {
            Language::Java => java(text, type_name, items),
            Language::JavaScript => {
                javascript(text, type_name, items).unwrap_or_else(|| text.into())
            }
        }
    }
}

/// One compiled pattern per use, made on first use.
macro_rules! pattern {
    ($source:expr) => {{
        static PATTERN: LazyLock<Regex> =
            LazyLock::new(|| Regex::new($source).expect("a valid pattern"));
        &*PATTERN
    }};
}

/// Python's `re.match(pattern + "$", text)`: `$` also matches before a final newline.
fn python_full_match(pattern: &Regex, text: &str) -> bool {
    pattern.is_match(text.strip_suffix('\n').unwrap_or(text))
}

/// Python's `int(text)`: surrounding white space, a sign, digits with single `_` between them.
fn python_int(text: &str) -> Option<Value> {
    let text = text.trim();
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let well_formed = !digits.is_empty()
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__")
        && digits.chars().all(|c| c.is_ascii_digit() || c == '_');
    if !well_formed {
        return None;
    }
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    plain
        .parse::<i64>()
        .map(Value::from)
        .or_else(|_| plain.parse::<u64>().map(Value::from))
        .or_else(|_| plain.parse::<f64>().map(Value::from))
        .ok()
}

/// Python's `float(text)`.
fn python_float(text: &str) -> Option<Value> {
    let text = text.trim();
    if text.contains("__") || text.starts_with('_') || text.ends_with('_') {
        return None;
    }
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    plain.parse::<f64>().ok().map(Value::from)
}

/// `read(text)` where `text` has the literal's shape (a whole match of `shape`), else the text.
fn literal(text: &str, shape: &Regex, read: impl Fn(&str) -> Option<Value>) -> Value {
    python_full_match(shape, text)
        .then(|| read(text))
        .flatten()
        .unwrap_or_else(|| Value::String(text.to_string()))
}

/// `true` and `false` exactly; anything else stays text.
fn boolean(text: &str) -> Value {
    match text {
        "true" => Value::Bool(true),
        "false" => Value::Bool(false),
        _ => Value::String(text.to_string()),
    }
}

/// `text` without its last character before an optional final newline (`re.sub("[lL]$", "")`).
fn without_suffix(text: &str) -> &str {
    let body = text.strip_suffix('\n').unwrap_or(text);
    let mut chars = body.chars();
    chars.next_back();
    chars.as_str()
}

/// Python's `text[1:-1]`.
fn inner(text: &str) -> &str {
    let mut chars = text.chars();
    chars.next();
    chars.next_back();
    chars.as_str()
}

fn java(text: &str, type_name: &str, items: Option<&str>) -> Value {
    let as_text = || Value::String(text.to_string());
    match type_name {
        "byte" | "short" | "integer" => literal(text, pattern!(r"^-?\d+$"), python_int),
        "float" => literal(
            text,
            pattern!(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$"),
            |text| python_float(without_suffix(text)),
        ),
        "double" => literal(
            text,
            pattern!(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?$"),
            python_float,
        ),
        "long" => literal(text, pattern!(r"^-?\d+[lL]$"), |text| {
            python_int(without_suffix(text))
        }),
        "boolean" => boolean(text),
        "ArrayList" => java_arraylist(text, items),
        "Array" => java_array(text, items),
        "HashMap" => java_hashmap(text),
        _ => as_text(),
    }
}

/// An item of a Java `ArrayList`: `char` and `String` items lose their first and last character
/// (the quotes), others are converted by their type, or read as a literal without one.
fn java_arraylist_item(item: &str, items: Option<&str>) -> Value {
    match items {
        Some("char" | "String") => Value::String(inner(item).to_string()),
        Some(items) => java_item(item, items),
        None => java_value(item),
    }
}

/// An item converted by its declared type; a type BFCL has no converter for stays text.
fn java_item(item: &str, items: &str) -> Value {
    if Language::Java.converts(items) {
        java(item, items, None)
    } else {
        Value::String(item.to_string())
    }
}

fn java_arraylist(text: &str, items: Option<&str>) -> Value {
    let as_list = pattern!(r"new\s+ArrayList<\w*>\(Arrays\.asList\((.+?)\)\)");
    if let Some(found) = as_list.captures(text) {
        return Value::Array(
            found[1]
                .split(',')
                .map(|item| java_arraylist_item(item.trim(), items))
                .collect(),
        );
    }
    let adds = pattern!(r"(?s)new\s+ArrayList<\w*>\(\)\s*\{\{\s*(.+?)\s*\}\}");
    if let Some(found) = adds.captures(text) {
        return Value::Array(
            pattern!(r"add\((.+?)\)")
                .captures_iter(&found[1])
                .map(|add| java_arraylist_item(add[1].trim(), items))
                .collect(),
        );
    }
    if pattern!(r"new\s+ArrayList<\w*>\(\)").is_match(text) {
        return Value::Array(Vec::new());
    }
    Value::String(text.to_string())
}

fn java_array(text: &str, items: Option<&str>) -> Value {
    let Some(found) = pattern!(r"new\s+\w+\[\]\s*\{(.*?)\}").captures(text) else {
        return Value::String(text.to_string());
    };
    Value::Array(
        found[1]
            .split(',')
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| match items {
                Some(items) => java_item(item, items),
                None => java_value(item),
            })
            .collect(),
    )
}

fn java_hashmap(text: &str) -> Value {
    let puts = pattern!(r"(?s)new\s+HashMap<.*?>\s*\(\)\s*\{\s*\{?\s*(.*?)\s*\}?\s*\}");
    if let Some(found) = puts.captures(text) {
        let mut map = Map::new();
        for put in pattern!(r#"put\("(.*?)",\s*(.*?)\)"#).captures_iter(&found[1]) {
            map.insert(put[1].to_string(), java_value(put[2].trim()));
        }
        return Value::Object(map);
    }
    if pattern!(r"new\s+HashMap<.*?>\s*\(\)").is_match(text) {
        return Value::Object(Map::new());
    }
    Value::String(text.to_string())
}

/// A Java literal of no declared type (`parse_java_value`).
fn java_value(text: &str) -> Value {
    match text {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if text.starts_with('"') && text.ends_with('"') {
        return Value::String(inner(text).to_string());
    }
    let shaped = |shape: &Regex, read: fn(&str) -> Option<Value>| {
        python_full_match(shape, text)
            .then(|| read(without_suffix(text)))
            .flatten()
    };
    shaped(pattern!(r"^-?\d+[lL]$"), python_int)
        .or_else(|| {
            shaped(
                pattern!(r"^-?\d+(\.\d+)?([eE][+-]?\d+)?[fF]$"),
                python_float,
            )
        })
        .or_else(|| python_int(text))
        .or_else(|| python_float(text))
        .unwrap_or_else(|| Value::String(text.to_string()))
}

/// JavaScript's conversion; None where BFCL's raises (a type it has no converter for), which
/// inside an array makes the whole array stay text.
fn javascript(text: &str, type_name: &str, items: Option<&str>) -> Option<Value> {
    let as_text = || Value::String(text.to_string());
    let value = match type_name {
        "String" if is_quoted(text) => Value::String(inner(text).to_string()),
        "String" => as_text(),
        "integer" => literal(text, pattern!(r"^-?\d+$"), python_int),
        "float" => literal(text, pattern!(r"^-?\d+(\.\d+)?$"), python_float),
        "Bigint" => literal(text, pattern!(r"^-?\d+n$"), |text| {
            python_int(without_suffix(text))
        }),
        "Boolean" => boolean(text),
        "dict" => javascript_object(text),
        "array" => javascript_array(text, items),
        "any" => as_text(),
        _ => return None,
    };
    Some(value)
}

/// `parse_js_collection(code, "array")`: a two-dimensional array (items read as literals), an
/// array literal or `new Array(...)`; anything else, or an item of a type with no converter,
/// leaves the text as it is.
fn javascript_array(code: &str, items: Option<&str>) -> Value {
    let code = code.trim();
    let grid = pattern!(
        r"^(?:\[\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\]|\bnew\s+Array\(\s*\[.*?\]\s*(,\s*\[.*?\]\s*)*\))"
    );
    if let Some(found) = grid.find(code) {
        let rows = pattern!(r"\[(.*?)\]")
            .captures_iter(found.as_str())
            .enumerate()
            .map(|(index, row)| {
                let mut row = row[1].trim();
                if index == 0 {
                    row = row.strip_prefix('[').unwrap_or(row);
                }
                Value::Array(
                    row.split(',')
                        .map(|item| javascript_value(item.trim()))
                        .collect(),
                )
            })
            .collect();
        return Value::Array(rows);
    }
    let Some(found) = pattern!(r"^(?:\[(.*?)\]|\bnew\s+Array\((.*?)\))").captures(code) else {
        return Value::String(code.to_string());
    };
    let listed = found
        .get(1)
        .or_else(|| found.get(2))
        .map_or("", |m| m.as_str().trim());
    let parts: Vec<&str> = if listed.is_empty() {
        Vec::new()
    } else {
        listed.split(',').collect()
    };
    let converted: Option<Vec<Value>> = parts
        .iter()
        .map(|part| {
            let part = part.trim();
            match items {
                Some(items) if part.starts_with(['\'', '"']) => {
                    javascript(part, items, Some("String"))
                }
                Some(items) => javascript(part, items, None),
                None => Some(javascript_value(part)),
            }
        })
        .collect();
    converted.map_or_else(|| Value::String(code.to_string()), Value::Array)
}

/// `parse_js_collection(code, "dict")`: `key: value` pairs of the first `{...}`; keys lose
/// their quotes, values are arrays, objects or literals (with their quotes removed first).
fn javascript_object(code: &str) -> Value {
    let code = code.trim();
    if code == "{}" {
        return Value::Object(Map::new());
    }
    let Some(found) = pattern!(r"^\{(.*?)\}").captures(code) else {
        return Value::String(code.to_string());
    };
    static PAIR: LazyLock<fancy_regex::Regex> = LazyLock::new(|| {
        fancy_regex::Regex::new(r"([^:]+):\s*(.*?)(?:,\s*(?=[^,]+:)|$)").expect("a valid pattern")
    });
    let quotes = |c: char| c == '\'' || c == '"';
    let mut map = Map::new();
    for pair in PAIR.captures_iter(&found[1]) {
        let Ok(pair) = pair else {
            return Value::String(code.to_string());
        };
        let key = pair[1].trim().trim_matches(quotes);
        let value = pair[2].trim();
        let value = if value.starts_with('[') && value.ends_with(']') {
            javascript_array(value, None)
        } else if value.starts_with('{') && value.ends_with('}') {
            javascript_object(value)
        } else {
            javascript_value(value.trim_matches(quotes))
        };
        map.insert(key.to_string(), value);
    }
    Value::Object(map)
}

/// Whether `text` starts and ends with `"`, or with `'` (JavaScript's strings).
fn is_quoted(text: &str) -> bool {
    (text.starts_with('"') && text.ends_with('"'))
        || (text.starts_with('\'') && text.ends_with('\''))
}

/// A JavaScript literal of no declared type (`parse_js_value`).
fn javascript_value(text: &str) -> Value {
    let text = text.trim();
    match text {
        "true" => return Value::Bool(true),
        "false" => return Value::Bool(false),
        _ => {}
    }
    if is_quoted(text) {
        return Value::String(inner(text).to_string());
    }
    python_int(text)
        .or_else(|| python_float(text))
        .unwrap_or_else(|| Value::String(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn java(text: &str, type_name: &str, items: Option<&str>) -> Value {
        Language::Java.convert(text, type_name, items)
    }

    fn javascript(text: &str, type_name: &str, items: Option<&str>) -> Value {
        Language::JavaScript.convert(text, type_name, items)
    }

    #[test]
    fn java_strings_become_the_values_of_the_module_table() {
        assert_eq!(java("5", "integer", None), json!(5));
        assert_eq!(java("5L", "long", None), json!(5));
        assert_eq!(java("2.5f", "float", None), json!(2.5));
        assert_eq!(java("2", "double", None), json!(2.0));
        assert_eq!(java("true", "boolean", None), json!(true));
        let list = "new ArrayList<>(Arrays.asList(1, 2))";
        assert_eq!(java(list, "ArrayList", Some("integer")), json!([1, 2]));
        assert_eq!(java("new int[]{1, 2}", "Array", None), json!([1, 2]));
        let map = r#"new HashMap<String, Object>() {{ put("k", 1); }}"#;
        assert_eq!(java(map, "HashMap", None), json!({"k": 1}));
    }

    #[test]
    fn strings_without_the_types_shape_stay_strings() {
        assert_eq!(java("count", "integer", None), json!("count"));
        assert_eq!(java("5", "long", None), json!("5"));
        assert_eq!(java("5", "float", None), json!("5"));
        assert_eq!(java("items", "ArrayList", None), json!("items"));
        assert_eq!(javascript("5", "Bigint", None), json!("5"));
        assert_eq!(javascript("True", "Boolean", None), json!("True"));
    }

    #[test]
    fn bfcl_quirks_are_kept() {
        // A Java array of strings keeps the quotes; a JavaScript object's quoted number is one.
        let array = r#"new String[]{"a", "b"}"#;
        assert_eq!(
            java(array, "Array", Some("String")),
            json!(["\"a\"", "\"b\""])
        );
        assert_eq!(javascript("{n: '5'}", "dict", None), json!({"n": 5}));
        // An item type BFCL has no converter for leaves a JavaScript array as text.
        assert_eq!(
            javascript("[1, 2]", "array", Some("string")),
            json!("[1, 2]")
        );
    }

    #[test]
    fn javascript_strings_become_values() {
        assert_eq!(javascript("'abc'", "String", None), json!("abc"));
        assert_eq!(javascript("7n", "Bigint", None), json!(7));
        assert_eq!(javascript("1.5", "float", None), json!(1.5));
        assert_eq!(
            javascript("[[1, 2], [3]]", "array", None),
            json!([[1, 2], [3]])
        );
        // The object ends at the first `}`, as BFCL's pattern has it: a nested one is cut.
        assert_eq!(
            javascript("{a: [1, 'x'], b: {c: true}}", "dict", None),
            json!({"a": [1, "x"], "b": "{c: true"})
        );
    }

    #[test]
    fn the_language_comes_from_the_entry_id() {
        assert_eq!(Language::of_id("simple_java_3"), Some(Language::Java));
        assert_eq!(
            Language::of_id("simple_javascript_3"),
            Some(Language::JavaScript)
        );
        assert_eq!(Language::of_id("simple_python_3"), None);
    }
}
