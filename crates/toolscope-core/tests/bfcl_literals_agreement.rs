//! Java and JavaScript argument strings read as BFCL's own type converters read them.
//!
//! tests/reference/bfcl_literals.py runs `java_type_converter` and `js_type_converter` from the
//! `bfcl-eval` package on every string here, for every declared type (and items' type) they
//! take: BFCL's own examples from its converter tests, and strings made from seeded random
//! pieces of the literals its regular expressions look for (well-formed collections, broken
//! ones, numbers with suffixes, quotes, new lines). [`Language::convert`] must give the same
//! value for each, numbers of the same type (an int is not a float); where BFCL's converter
//! raises (types it does not implement) its run stops, so those strings are only counted.

mod common;

use common::run_reference;
use serde_json::{json, Value};
use toolscope_core::metrics::bfcl_literals::Language;

/// BFCL's own examples (its converters' test functions), with their types.
const EXAMPLES: &[(&str, &str, &str, Option<&str>)] = &[
    ("java", "true", "boolean", None),
    ("java", "-123", "integer", None),
    ("java", "3.14f", "float", None),
    ("java", "3e-3F", "float", None),
    ("java", "-3.14", "double", None),
    ("java", "3.14e2", "double", None),
    ("java", "-9223372036854775808L", "long", None),
    ("java", "a", "char", None),
    ("java", "abc", "String", None),
    ("java", "123", "any", None),
    ("java", "new int[]{1, 2, 3}", "Array", None),
    ("java", "new int[]{}", "Array", None),
    ("java", "new Object[]{1, \"abc\", true}", "Array", None),
    ("java", "new ArrayList<>(Arrays.asList(\"a\", \"b\"))", "ArrayList", None),
    ("java", "new ArrayList<>(Arrays.asList(1, \"abc\", true))", "ArrayList", None),
    ("java", "new ArrayList<>()", "ArrayList", None),
    ("java", "new HashMap<String, String>() {{ put(\"key\", \"value\"); }}", "HashMap", None),
    (
        "java",
        "new HashMap<String, Object>() {{ put(\"key1\", 1); put(\"key2\", \"value\"); put(\"key3\", true); }}",
        "HashMap",
        None,
    ),
    ("java", "new HashMap<>()", "HashMap", None),
    ("java", "new String[]{\"a\", \"b\"}", "Array", Some("String")),
    ("java", "new ArrayList<String>() {{ add(\"x\"); add(\"y\"); }}", "ArrayList", Some("String")),
    ("javascript", "true", "Boolean", None),
    ("javascript", "-123", "integer", None),
    ("javascript", "3.14", "float", None),
    ("javascript", "123n", "Bigint", None),
    ("javascript", "abc", "String", None),
    ("javascript", "'abc'", "String", None),
    ("javascript", "[1, 2, 3]", "array", None),
    ("javascript", "new Array(1, 2, 3)", "array", None),
    ("javascript", "{'key': 'value'}", "dict", None),
    ("javascript", "{'key1': 123, 'key2': 'value', 'key3': false}", "dict", None),
    ("javascript", "[]", "array", None),
    ("javascript", "{}", "dict", None),
    ("javascript", "[1, 'two', true]", "array", None),
    ("javascript", "new Array(4n, 5n, 6n)", "array", Some("Bigint")),
    ("javascript", "[1.1, 2.2, 3.3]", "array", Some("float")),
    ("javascript", "[\"hello\", \"world\", \"!\"]", "array", Some("String")),
    ("javascript", " [ [ 1, 2 ], [ 3,   4], [5, 6]]", "array", Some("array")),
    ("javascript", "new Array([1, 2], [3, 4], [5, 6])", "array", Some("array")),
    ("javascript", "[{\"key1\": 1}, {\"key2\": 2}]", "array", Some("dict")),
    (
        "javascript",
        "{\"initialState\": initialStateObject, \"middlewares\": [\"loggerMiddleware\"], \"enhancers\": [\"applyMiddleware\", \"myMiddleWare\"]}",
        "dict",
        None,
    ),
];

/// Declared types and the items' types tried with each collection type.
const JAVA_TYPES: &[&str] = &[
    "byte",
    "short",
    "integer",
    "long",
    "float",
    "double",
    "boolean",
    "char",
    "String",
    "any",
    "ArrayList",
    "Array",
    "HashMap",
];
const JAVA_ITEMS: &[&str] = &[
    "String", "char", "integer", "long", "float", "double", "boolean", "any", "Set", "Object",
];
const JS_TYPES: &[&str] = &[
    "String", "integer", "float", "Bigint", "Boolean", "any", "dict", "array",
];
const JS_ITEMS: &[&str] = &[
    "String", "integer", "float", "Bigint", "Boolean", "any", "dict", "array", "string",
];

/// Pieces of what the converters look for: scalars, then wrappers around a list of scalars.
const JAVA_SCALARS: &[&str] = &[
    "1", "-23", "4.5", "6e3", "-7.25E-2", "8f", "9.5F", "10L", "-11l", "true", "false", "\"a b\"",
    "\"C-d\"", "'e'", "x", "", " 12 ", "1_000", "1__0", "13\n", "14L\n", "0x1F", "1.", ".5", "inf",
    "\"\"", "\"",
];
const JAVA_WRAPPERS: &[(&str, &str)] = &[
    ("new ArrayList<>(Arrays.asList(", "))"),
    ("new ArrayList<Integer>(Arrays.asList(", "))"),
    ("new ArrayList<>() {{ ", " }}"),
    ("new ArrayList<String>() {{\n", "\n}}"),
    ("new int[]{", "}"),
    ("new String[] {", "}"),
    ("new HashMap<String, Object>() {{ ", " }}"),
    ("new HashMap<>() {", "}"),
    ("", ""),
];
const JS_SCALARS: &[&str] = &[
    "1", "-23", "4.5", "6e3", "7n", "-8n", "true", "false", "'a b'", "\"C-d\"", "x", "", " 9 ",
    "1_000", "10\n", "\"", "[1, 2]", "{k: 1}", "null", "2.",
];
const JS_WRAPPERS: &[(&str, &str)] = &[
    ("[", "]"),
    ("new Array(", ")"),
    ("[[", "], [3, 'y']]"),
    (" new Array([", "], [4])"),
    ("{", "}"),
    ("{'k': ", ", \"m\": [1, 'z'], n: {o: 2}}"),
    ("", ""),
];

/// A seeded xorshift: the same strings every run.
struct Pieces(u64);

impl Pieces {
    fn next(&mut self, below: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % below as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.next(from.len())]
    }

    /// A wrapper around one to four scalars: as Java writes them (`add(x);`, `put("k", x);`)
    /// or joined by commas, sometimes broken.
    fn text(&mut self, scalars: &[&str], wrappers: &[(&str, &str)], java: bool) -> String {
        let (open, close) = wrappers[self.next(wrappers.len())];
        let count = 1 + self.next(4);
        let items: Vec<String> = (0..count)
            .map(|index| {
                let scalar = self.pick(scalars);
                match (java, open.contains("{{"), open.contains("HashMap")) {
                    (true, true, true) => format!("put(\"k{index}\", {scalar});"),
                    (true, true, false) => format!("add({scalar});"),
                    (false, _, _) if open.starts_with('{') => format!("k{index}: {scalar}"),
                    _ => scalar.to_string(),
                }
            })
            .collect();
        let separator = if java && open.contains("{{") {
            " "
        } else {
            ", "
        };
        let mut text = format!("{open}{}{close}", items.join(separator));
        // Now and then a piece goes missing: the converters must fall back as BFCL's do.
        if self.next(5) == 0 && !text.is_empty() {
            let cut = self.next(text.len());
            if text.is_char_boundary(cut) {
                text.truncate(cut);
            }
        }
        text
    }
}

fn cases() -> Vec<(Language, String, &'static str, Option<&'static str>)> {
    let mut cases: Vec<_> = EXAMPLES
        .iter()
        .map(|&(language, text, type_name, items)| {
            let language = Language::from_name(language).unwrap();
            (language, text.to_string(), type_name, items)
        })
        .collect();
    let mut pieces = Pieces(0x9e37_79b9_7f4a_7c15);
    let languages = [
        (
            Language::Java,
            JAVA_TYPES,
            JAVA_ITEMS,
            JAVA_SCALARS,
            JAVA_WRAPPERS,
        ),
        (
            Language::JavaScript,
            JS_TYPES,
            JS_ITEMS,
            JS_SCALARS,
            JS_WRAPPERS,
        ),
    ];
    for (language, types, items_types, scalars, wrappers) in languages {
        let java = language == Language::Java;
        for &type_name in types {
            let items_options: Vec<Option<&str>> = if language.has_items(type_name) {
                std::iter::once(None)
                    .chain(items_types.iter().copied().map(Some))
                    .collect()
            } else {
                vec![None]
            };
            for items in items_options {
                // Collections get more wrapped strings: most wrappers are another type's.
                let is_collection =
                    language.has_items(type_name) || matches!(type_name, "HashMap" | "dict");
                let texts = if is_collection { 4 } else { 1 };
                for _ in 0..60 {
                    cases.push((language, pieces.pick(scalars).to_string(), type_name, items));
                    for _ in 0..texts {
                        let text = pieces.text(scalars, wrappers, java);
                        cases.push((language, text, type_name, items));
                    }
                }
            }
        }
    }
    cases
}

#[test]
fn java_and_javascript_strings_convert_as_bfcl_converts_them() {
    let cases = cases();
    let request: Vec<Value> = cases
        .iter()
        .map(|(language, text, type_name, items)| {
            json!({"language": language.name(), "text": text, "type": type_name, "items": items})
        })
        .collect();
    let answer = run_reference("bfcl_literals.py", &json!({ "cases": request }));
    let values = answer["values"].as_array().expect("one value per case");
    assert_eq!(values.len(), cases.len());
    let (mut agree, mut raised, mut collections) = (0, 0, 0);
    let mut differ = Vec::new();
    for ((language, text, type_name, items), expected) in cases.iter().zip(values) {
        if expected.get("raised").is_some() {
            raised += 1;
            continue;
        }
        let ours = language.convert(text, type_name, *items);
        if &ours == expected {
            agree += 1;
            let filled = |value: &Value| match value {
                Value::Array(items) => !items.is_empty(),
                Value::Object(map) => !map.is_empty(),
                _ => false,
            };
            collections += usize::from(filled(&ours));
        } else {
            differ.push(format!(
                "{} {type_name} (items {items:?}) {text:?}: BFCL {expected}, toolscope {ours}",
                language.name()
            ));
        }
    }
    println!(
        "bfcl-eval {}: {agree} of {} strings convert alike ({collections} to a list or object \
         with items); {raised} raise in BFCL (not compared)",
        answer["version"].as_str().unwrap_or("?"),
        cases.len()
    );
    assert!(agree > 5000, "only {agree} strings compared");
    assert!(collections > 1000, "only {collections} filled collections");
    assert!(raised > 0, "the types BFCL cannot convert were tried");
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}
