use super::{errors, load, split_text, Layout};
use crate::diagnostic::Severity;
use serde_json::json;

fn texts_and_places<'a>(split: &super::Split<'a>) -> Vec<(&'a str, usize, usize)> {
    split
        .records
        .iter()
        .map(|r| (r.text, r.line, r.column))
        .collect()
}

#[test]
fn jsonl_garbage_line_does_not_lose_the_others() {
    let text = "{\"a\":1}\n\n  {\"b\":2}\noops: not json\n{\"c\":3}\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Lines);
    assert_eq!(
        values,
        [
            (1, json!({"a": 1})),
            (3, json!({"b": 2})),
            (5, json!({"c": 3}))
        ]
    );
    assert_eq!(diagnostics.len(), 1);
    let error = &diagnostics[0];
    assert_eq!(
        (error.severity, error.line, error.column),
        (Severity::Error, Some(4), Some(1))
    );
    assert_eq!(error.message, "not JSON: expected value");
    assert_eq!(
        error.to_string(),
        "trace.jsonl:4:1: error: not JSON: expected value"
    );
}

#[test]
fn jsonl_broken_line_cannot_swallow_the_next_lines() {
    let text = "{\"a\":1}\n{\"b\": [1, \"open\n{\"c\":3}\n{\"d\":4}\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Lines);
    let lines: Vec<_> = values.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [1, 3, 4]);
    assert_eq!(errors(&diagnostics).len(), 1);
    assert_eq!(diagnostics[0].line, Some(2));
}

#[test]
fn jsonl_records_know_their_column_and_index() {
    let (split, diagnostics) = split_text("\t {\"a\":1}  \n\n[2]\n");
    assert!(diagnostics.is_empty());
    assert_eq!(
        texts_and_places(&split),
        [("{\"a\":1}", 1, 3), ("[2]", 3, 1)]
    );
    assert_eq!(split.records[1].index, 1);
}

#[test]
fn jsonl_of_arrays_is_lines_not_an_array() {
    let (split, _) = split_text("[1,2]\n[3,4]\n");
    assert_eq!(split.layout, Layout::Lines);
    assert_eq!(split.records.len(), 2);
}

#[test]
fn crlf_line_endings() {
    let (layout, values, diagnostics) = load("{\"a\":1}\r\n\r\n{\"b\":\"x\"}\r\n");
    assert_eq!(layout, Layout::Lines);
    assert!(diagnostics.is_empty());
    assert_eq!(values, [(1, json!({"a": 1})), (3, json!({"b": "x"}))]);

    let (layout, values, diagnostics) = load("[\r\n  {\"a\": 1},\r\n  {\"b\": NaN}\r\n]\r\n");
    assert_eq!(layout, Layout::Array);
    assert_eq!(values, [(2, json!({"a": 1})), (3, json!({"b": null}))]);
    assert_eq!(
        (diagnostics[0].line, diagnostics[0].column),
        (Some(3), Some(9))
    );
}

#[test]
fn array_elements_know_their_starting_line_and_column() {
    let text = "[\n  {\n    \"a\": [1,\n      2]\n  },\n  \"é\", {\"b\": {}},\n\n  3\n]\n";
    let (split, diagnostics) = split_text(text);
    assert!(diagnostics.is_empty());
    assert_eq!(split.layout, Layout::Array);
    assert_eq!(
        texts_and_places(&split),
        [
            ("{\n    \"a\": [1,\n      2]\n  }", 2, 3),
            ("\"é\"", 6, 3),
            ("{\"b\": {}}", 6, 8),
            ("3", 8, 3),
        ]
    );
    let indexes: Vec<_> = split.records.iter().map(|r| r.index).collect();
    assert_eq!(indexes, [0, 1, 2, 3]);
}

#[test]
fn array_bad_elements_do_not_lose_the_others() {
    let text = "[{\"a\": NaN},\n {\"b\": oops},\n {\"c\": 3}]";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Array);
    assert_eq!(values, [(1, json!({"a": null})), (3, json!({"c": 3}))]);
    assert_eq!(diagnostics.len(), 2);
    assert_eq!(diagnostics[0].severity, Severity::Warning);
    let error = &diagnostics[1];
    assert_eq!((error.line, error.column), (Some(2), Some(8)));
    assert!(error.message.starts_with("not JSON"), "{}", error.message);
}

#[test]
fn array_empty_elements_and_trailing_comma_warn() {
    let (split, diagnostics) = split_text("[1,,2,\n]");
    assert_eq!(split.layout, Layout::Array);
    assert_eq!(split.records.len(), 2);
    let found: Vec<_> = diagnostics
        .iter()
        .map(|d| (d.severity, d.line, d.column))
        .collect();
    assert_eq!(
        found,
        [
            (Severity::Warning, Some(1), Some(4)),
            (Severity::Warning, Some(1), Some(6))
        ]
    );
    assert!(diagnostics[1].message.contains("trailing comma"));

    let (split, diagnostics) = split_text(" [ ] \n");
    assert_eq!((split.layout, split.records.len()), (Layout::Array, 0));
    assert!(diagnostics.is_empty());
}

#[test]
fn escaped_quotes_and_brackets_in_strings_do_not_confuse_the_splitter() {
    let text = "[\"a\\\"],[\", {\"b\": \"}\\\\\"}, \"\\\\\", 3]";
    let (layout, values, diagnostics) = load(text);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(layout, Layout::Array);
    let values: Vec<_> = values.into_iter().map(|(_, v)| v).collect();
    assert_eq!(
        values,
        [json!("a\"],["), json!({"b": "}\\"}), json!("\\"), json!(3)]
    );

    let text = "{\"a\": \"{[\\\"\"}\n{\"b\": \"]}\"}\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Lines);
    assert!(diagnostics.is_empty());
    assert_eq!(values.len(), 2);
}

#[test]
fn single_line_is_lines() {
    let (split, diagnostics) = split_text("  {\"a\": 1}");
    assert_eq!(split.layout, Layout::Lines);
    assert_eq!(texts_and_places(&split), [("{\"a\": 1}", 1, 3)]);
    assert!(diagnostics.is_empty());
    let (split, _) = split_text("{\"a\": [1, 2] garbage");
    assert_eq!((split.layout, split.records.len()), (Layout::Lines, 1));
}

#[test]
fn pretty_printed_values_are_a_document() {
    let text = "{\n  \"a\": 1\n}\n{\"b\": 2}\n\n  [\n 3\n]\n\"s\" 4\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Document);
    assert!(diagnostics.is_empty());
    assert_eq!(
        values,
        [
            (1, json!({"a": 1})),
            (4, json!({"b": 2})),
            (6, json!([3])),
            (9, json!("s")),
            (9, json!(4)),
        ]
    );
}

#[test]
fn document_unclosed_value_resyncs_at_the_next_bracket_line() {
    let text = "{\n  \"a\": [1, 2,\n  \"b\": 3\n{\"c\": 3}\n  [4]\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Document);
    assert_eq!(values, [(4, json!({"c": 3})), (5, json!([4]))]);
    assert_eq!(diagnostics.len(), 1);
    let error = &diagnostics[0];
    assert_eq!(
        (error.severity, error.line, error.column),
        (Severity::Error, Some(1), Some(1))
    );
    assert_eq!(
        error.message,
        "value left out: its '{' is never closed; reading on at line 4"
    );
}

#[test]
fn document_unclosed_string_resyncs_after_its_line() {
    let text = "{\n  \"a\": \"open,\n  \"b\": {\"x\": 1}\n}\n{\n \"c\": 3\n}\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Document);
    assert_eq!(values, [(5, json!({"c": 3}))]);
    let errors = errors(&diagnostics);
    assert_eq!(errors.len(), 1, "{diagnostics:?}");
    assert_eq!(errors[0].line, Some(1));
    assert_eq!(
        errors[0].message,
        "value left out: a string in it is not closed on line 2 \
         (a JSON string cannot span lines); reading on at line 5"
    );
}

#[test]
fn truncated_pretty_array_keeps_its_complete_elements() {
    let text = "[\n  {\"a\": 1},\n  {\n    \"b\": 2\n  },\n  {\"c\": ";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Document);
    assert_eq!(values, [(2, json!({"a": 1})), (3, json!({"b": 2}))]);
    let lines: Vec<_> = errors(&diagnostics).iter().map(|d| d.line).collect();
    assert_eq!(lines, [Some(1), Some(6)]);
}

#[test]
fn stray_closer_between_values_is_an_error() {
    let text = "{\n\"a\": 1\n}\n}\n{\n\"b\": 2\n}\n";
    let (layout, values, diagnostics) = load(text);
    assert_eq!(layout, Layout::Document);
    assert_eq!(values.len(), 2);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(
        (diagnostics[0].line, diagnostics[0].column),
        (Some(4), Some(1))
    );
    assert_eq!(
        diagnostics[0].message,
        "unexpected '}' outside any value; skipped"
    );
}

#[test]
fn empty_file_is_an_error_with_no_records() {
    for text in ["", " \n\r\n\t"] {
        let (split, diagnostics) = split_text(text);
        assert!(split.records.is_empty());
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].severity, Severity::Error);
        assert_eq!(diagnostics[0].message, "file is empty");
    }
}

#[test]
fn many_unclosed_values_take_linear_time() {
    let text = "[\n{}\n".repeat(100_000);
    let (layout, values, diagnostics) = load(&text);
    assert_eq!(layout, Layout::Document);
    assert_eq!(values.len(), 100_000);
    assert_eq!(values[99_999], (200_000, json!({})));
    assert_eq!(errors(&diagnostics).len(), 100_000);
    assert_eq!(diagnostics[99_999].line, Some(199_999));

    let text = format!(
        "{}{}",
        "{\"a\": [\n".repeat(50_000),
        "{\"b\": 1}\n".repeat(3)
    );
    let (_, values, diagnostics) = load(&text);
    assert_eq!(values.len(), 3);
    assert_eq!(diagnostics.len(), 50_000);
}

#[test]
fn server_sent_events_give_their_data_payloads_at_their_lines() {
    let text = "event: message_start\ndata: {\"type\": \"message_start\"}\n\n: keep-alive\nevent: ping\ndata:{\"type\": \"ping\"}\nid: 7\nretry: 1000\n\ndata: [DONE]\nnot a field\n";
    let (split, diagnostics) = split_text(text);
    assert!(diagnostics.is_empty());
    assert_eq!(split.layout, Layout::Lines);
    let records: Vec<(usize, usize, &str)> = split
        .records
        .iter()
        .map(|record| (record.line, record.column, record.text))
        .collect();
    assert_eq!(
        records,
        [
            (2, 7, "{\"type\": \"message_start\"}"),
            (6, 6, "{\"type\": \"ping\"}"),
            (11, 1, "not a field"),
        ]
    );
}
