use super::{parse, record, FILE};
use crate::diagnostic::Severity;
use crate::json::{parse_record, MAX_DEPTH};
use serde::Deserialize;
use serde_json::{json, Value};

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn clean_record_takes_the_fast_path() {
    let rec = record(
        "{\"tool\": \"search\", \"args\": {\"q\": \"NaN Infinity \\uD83D\\uDE00\"}}",
        1,
        1,
    );
    let (value, warnings) = parse(&rec);
    assert_eq!(
        value.unwrap(),
        json!({"tool": "search", "args": {"q": "NaN Infinity 😀"}})
    );
    assert!(warnings.is_empty());
}

#[test]
fn nan_and_infinities_become_null_with_a_warning() {
    let rec = record(
        "{\"args\": {\"x\": NaN, \"y\": [Infinity, -Infinity]}, \"s\": \"NaN\"}",
        7,
        3,
    );
    let (value, warnings) = parse(&rec);
    assert_eq!(
        value.unwrap(),
        json!({"args": {"x": null, "y": [null, null]}, "s": "NaN"})
    );
    assert_eq!(warnings.len(), 1);
    let warning = &warnings[0];
    assert_eq!(
        (warning.severity, warning.line, warning.column),
        (Severity::Warning, Some(7), Some(18))
    );
    assert_eq!(
        warning.message,
        "NaN literal read as null (3 NaN/Infinity literals in this record, all read as null)"
    );

    let (value, warnings) = parse(&record("[1,\n -Infinity]", 2, 1));
    assert_eq!(value.unwrap(), json!([1, null]));
    assert_eq!((warnings[0].line, warnings[0].column), (Some(3), Some(2)));
    assert_eq!(warnings[0].message, "-Infinity literal read as null");
}

#[test]
fn nan_inside_strings_is_left_alone() {
    let text = "{\"a\": \"NaN, \\\"Infinity\\\" -Infinity\", \"b\": Infinity}";
    let (value, warnings) = parse(&record(text, 1, 1));
    assert_eq!(
        value.unwrap(),
        json!({"a": "NaN, \"Infinity\" -Infinity", "b": null})
    );
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].message, "Infinity literal read as null");
    assert_eq!(warnings[0].column, Some(43));
}

#[test]
fn lone_surrogates_become_replacement_characters() {
    let cases = [
        ("\"\\uD83D\"", "\u{FFFD}", "\\uD83D", 2),
        ("\"a\\ude00b\"", "a\u{FFFD}b", "\\ude00", 3),
        ("\"\\uD83D\\uD83D\\uDE00\"", "\u{FFFD}😀", "\\uD83D", 2),
        ("\"\\uDE00\\uD83D\"", "\u{FFFD}\u{FFFD}", "\\uDE00", 2),
    ];
    for (text, expected, escape, column) in cases {
        let (value, warnings) = parse(&record(text, 4, 1));
        assert_eq!(value.unwrap(), json!(expected), "{text}");
        assert_eq!(warnings.len(), 1, "{text}");
        assert_eq!(
            (warnings[0].line, warnings[0].column),
            (Some(4), Some(column))
        );
        assert!(
            warnings[0]
                .message
                .starts_with(&format!("lone surrogate {escape} replaced with U+FFFD")),
            "{}",
            warnings[0].message
        );
    }
}

#[test]
fn valid_surrogate_pairs_and_escaped_backslashes_are_untouched() {
    let text = "[\"\\uD83D\\uDE00\", \"\\\\uD800\", \"\\uDBFF\"]";
    let (value, warnings) = parse(&record(text, 1, 1));
    assert_eq!(value.unwrap(), json!(["😀", "\\uD800", "\u{FFFD}"]));
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].column, Some(30));
}

#[test]
fn depth_128_is_read_and_129_is_an_error() {
    let (value, warnings) = parse(&record(&nested(MAX_DEPTH), 1, 1));
    assert!(value.is_ok());
    assert!(warnings.is_empty());

    let text = format!("{{\"a\": {}}}", nested(MAX_DEPTH));
    let (value, _) = parse(&record(&text, 3, 1));
    let error = value.unwrap_err();
    assert_eq!(error.severity, Severity::Error);
    assert_eq!((error.line, error.column), (Some(3), Some(7 + 127)));
    assert_eq!(
        error.message,
        "nesting deeper than 128 levels (reaches depth 129); record left out"
    );
}

#[test]
fn depth_128_with_nan_is_read_and_very_deep_nesting_is_an_error() {
    let text = format!("{}NaN{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
    let (value, warnings) = parse(&record(&text, 1, 1));
    assert!(value.is_ok());
    assert_eq!(warnings.len(), 1);

    let text = format!("{}NaN{}", "[".repeat(100_000), "]".repeat(100_000));
    let (value, warnings) = parse(&record(&text, 1, 1));
    assert!(value.unwrap_err().message.contains("reaches depth 100000"));
    assert!(warnings.is_empty());

    let (value, _) = parse(&record(&"{\"a\":".repeat(5000), 1, 1));
    assert!(value
        .unwrap_err()
        .message
        .starts_with("nesting deeper than 128 levels"));
}

#[test]
fn integers_beyond_64_bits_warn() {
    let (value, warnings) = parse(&record("{\"n\": 1180591620717411303424}", 2, 1));
    assert_eq!(value.unwrap(), json!({"n": 1.180_591_620_717_411_3e21}));
    assert_eq!(warnings.len(), 1);
    let warning = &warnings[0];
    assert_eq!((warning.line, warning.column), (Some(2), Some(7)));
    assert_eq!(
        warning.message,
        "integer 1180591620717411303424 is beyond 64 bits; read as the float 1.1805916207174113e21"
    );

    let (_, warnings) = parse(&record(
        "[123456789012345678901234, -9223372036854775809]",
        1,
        1,
    ));
    assert_eq!(
        warnings[0].message,
        "integer 123456789012345678901234 is beyond 64 bits; read as 1.2345678901234569e23 \
         (precision lost); 1 more such integers in this record"
    );
}

#[test]
fn integers_within_64_bits_and_long_digits_elsewhere_do_not_warn() {
    let text = "[18446744073709551615, -9223372036854775808, 9999999999999999999, \
                \"123456789012345678901234\", 1.23456789012345678901234, 12345678901234567890e2]";
    let (value, warnings) = parse(&record(text, 1, 1));
    let value = value.unwrap();
    assert_eq!(value[0], json!(u64::MAX));
    assert_eq!(value[1], json!(i64::MIN));
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn errors_are_located_in_the_file() {
    // The record starts at line 5, column 3; the error is on its second line.
    let (value, warnings) = parse(&record("{\"a\": 1,\n  \"b\": tru}", 5, 3));
    let error = value.unwrap_err();
    assert_eq!(
        (error.severity, error.line, error.column),
        (Severity::Error, Some(6), Some(11))
    );
    assert_eq!(
        error.to_string(),
        "trace.jsonl:6:11: error: not JSON: expected ident"
    );
    assert!(warnings.is_empty());

    let (value, _) = parse(&record("{\"a\": [1, 2", 1, 4));
    let error = value.unwrap_err();
    assert_eq!(
        error.message,
        "not JSON: the text ends inside an array (a ']' is missing)"
    );
    assert_eq!(error.column, Some(14));
}

#[test]
fn errors_after_sanitising_are_located_in_the_original_text() {
    // "NaN" becomes the longer "null": the column must still be the original one.
    let (value, warnings) = parse(&record("{\"a\": NaN, \"b\": NaN, \"c\": x}", 1, 1));
    let error = value.unwrap_err();
    assert_eq!(error.column, Some(27));
    assert_eq!(
        error.message,
        "not JSON: expected value (after reading NaN/Infinity as null)"
    );
    assert!(warnings.is_empty());
}

#[derive(Debug, Deserialize)]
struct Session {
    events: Vec<Value>,
}

#[derive(Debug, Deserialize)]
struct Score {
    score: f64,
}

#[test]
fn typed_records_report_shape_errors_without_retrying() {
    let rec = record("{\"id\": 1,\n \"note\": \"NaN\"}", 9, 1);
    let mut warnings = Vec::new();
    let error = parse_record::<Session>(FILE, &rec, &mut warnings).unwrap_err();
    assert_eq!(error.severity, Severity::Error);
    assert_eq!(error.line, Some(10));
    assert_eq!(
        error.message,
        "record does not have the expected form: missing field `events`"
    );
    assert!(warnings.is_empty());
}

#[test]
fn typed_records_read_nan_in_ignored_fields_and_report_nan_in_required_ones() {
    let mut warnings = Vec::new();
    let rec = record("{\"events\": [], \"cost\": NaN}", 1, 1);
    let session = parse_record::<Session>(FILE, &rec, &mut warnings).unwrap();
    assert!(session.events.is_empty());
    assert_eq!(warnings.len(), 1);

    let mut warnings = Vec::new();
    let rec = record("{\"score\": NaN}", 1, 1);
    let error = parse_record::<Score>(FILE, &rec, &mut warnings).unwrap_err();
    assert_eq!(
        error.message,
        "record does not have the expected form: invalid type: null, expected f64 \
         (after reading NaN/Infinity as null)"
    );
    assert!(warnings.is_empty());
    let rec = record("{\"score\": 0.5}", 1, 1);
    assert_eq!(
        parse_record::<Score>(FILE, &rec, &mut warnings)
            .unwrap()
            .score,
        0.5
    );
}

/// Issue 9: `serde_json` rejects a number beyond the largest float ("number out of range"), and
/// with it the whole record, so an integer of hundreds of digits in one call's arguments lost
/// its session. The docs promise the nearest float with a warning, for any length.
#[test]
fn an_integer_of_400_digits_reads_as_the_largest_float_with_a_warning() {
    let digits = "1234567890".repeat(40);
    let text = format!("{{\"args\": {{\"amount\": {digits}, \"note\": \"kept\"}}}}");
    let (value, warnings) = parse(&record(&text, 3, 1));
    let value = value.unwrap();
    assert_eq!(value["args"]["amount"], json!(f64::MAX));
    assert_eq!(value["args"]["note"], json!("kept"));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!((warnings[0].line, warnings[0].column), (Some(3), Some(21)));
    assert_eq!(
        warnings[0].message,
        "integer 12345678901234567890... (400 digits) is beyond the largest float; read as the \
         nearest float 1.7976931348623157e308"
    );
}

#[test]
fn exponents_beyond_floats_read_as_the_largest_float_of_their_sign() {
    let (value, warnings) = parse(&record(
        "{\"a\": 1e400, \"b\": -2.5E+999, \"c\": 1e-400}",
        2,
        1,
    ));
    assert_eq!(
        value.unwrap(),
        json!({"a": f64::MAX, "b": -f64::MAX, "c": 0.0})
    );
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!((warnings[0].line, warnings[0].column), (Some(2), Some(7)));
    assert_eq!(
        warnings[0].message,
        "number 1e400 is beyond the largest float; read as the nearest float \
         1.7976931348623157e308; 1 more such numbers in this record"
    );
}

#[test]
fn numbers_beyond_floats_keep_the_64_bit_warning_once_and_strings_alone() {
    let huge = "9".repeat(320);
    let text =
        format!("[123456789012345678901234, -{huge}, \"{huge}\", 123456789012345678901234, 1e400]");
    let (value, warnings) = parse(&record(&text, 1, 1));
    let value = value.unwrap();
    assert_eq!(value[1], json!(-f64::MAX));
    assert_eq!(value[2], json!(huge));
    let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "integer -9999999999999999999... (320 digits) is beyond the largest float; read as \
             the nearest float -1.7976931348623157e308; 1 more such numbers in this record",
            "integer 123456789012345678901234 is beyond 64 bits; read as 1.2345678901234569e23 \
             (precision lost); 1 more such integers in this record",
        ]
    );
}

#[test]
fn a_million_digit_integer_is_read_in_one_pass() {
    // Quadratic scanning would not finish: each step here is linear in the digits.
    let text = format!("{{\"n\": {}}}", "7".repeat(1_000_000));
    let (value, warnings) = parse(&record(&text, 1, 1));
    assert_eq!(value.unwrap()["n"], json!(f64::MAX));
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("(1000000 digits)"));
}

#[test]
fn a_record_broken_elsewhere_still_says_its_numbers_were_replaced() {
    let (value, _) = parse(&record("{\"a\": 1e400, \"b\": x}", 1, 1));
    let error = value.unwrap_err();
    assert_eq!(error.column, Some(19));
    assert_eq!(
        error.message,
        "not JSON: expected value (after reading numbers beyond the largest float as the largest \
         float)"
    );
}
