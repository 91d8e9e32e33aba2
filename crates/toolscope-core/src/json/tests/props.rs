use super::{offset_of, FILE};
use crate::json::{decode_text, parse_record, split_records, Record};
use proptest::prelude::*;
use serde_json::Value;

/// Splits and parses everything; checks that each record sits in the text where it says.
fn load_all(text: &str) {
    let mut diagnostics = Vec::new();
    let split = split_records(FILE, text, &mut diagnostics);
    for (index, record) in split.records.iter().enumerate() {
        assert_eq!(record.index, index);
        assert!(!record.text.is_empty());
        let at = offset_of(text, record.line, record.column);
        assert!(
            text[at..].starts_with(record.text),
            "{record:?} not at its place"
        );
        let _ = parse_record::<Value>(FILE, record, &mut diagnostics);
    }
    for diagnostic in &diagnostics {
        assert!(diagnostic.line.is_none_or(|line| line >= 1));
        assert!(diagnostic.column.is_none_or(|column| column >= 1));
    }
}

/// Text made mostly of what JSON and its breakage are made of.
fn jsonish() -> impl Strategy<Value = String> {
    let pieces = [
        "[\\[\\]{}\",:\\\\ \\n\\r\\t0-9eE.+-]",
        "NaN|-?Infinity|true|null|é|😀|\"a\"",
        "\\\\u[dD][89aAbBcCdDeEfF]00",
    ];
    proptest::string::string_regex(&format!("({}){{0,80}}", pieces.join("|"))).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        load_all(&text);
    }

    #[test]
    fn jsonish_text_never_panics(text in jsonish()) {
        load_all(&text);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        let mut diagnostics = Vec::new();
        let text = decode_text(FILE, &bytes, &mut diagnostics);
        load_all(&text);
    }

    #[test]
    fn jsonish_records_parse_without_panicking(
        text in jsonish(),
        line in 1usize..5,
        column in 1usize..5,
    ) {
        let record = Record { text: &text, line, column, index: 0 };
        let mut warnings = Vec::new();
        if let Err(error) = parse_record::<Value>(FILE, &record, &mut warnings) {
            prop_assert!(error.line.is_some_and(|l| l >= line));
        }
    }

    #[test]
    fn valid_json_lines_read_back_unchanged(
        values in proptest::collection::vec(json_value(), 2..6),
    ) {
        let text: String = values.iter().map(|v| format!("{v}\n")).collect();
        let mut diagnostics = Vec::new();
        let split = split_records(FILE, &text, &mut diagnostics);
        let read: Vec<Value> = split
            .records
            .iter()
            .map(|r| parse_record::<Value>(FILE, r, &mut diagnostics).unwrap())
            .collect();
        prop_assert!(diagnostics.is_empty());
        prop_assert_eq!(read, values);
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "[a-z\"\\\\\\[\\]{}é\\n]{0,6}".prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map("[a-z]{0,3}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
