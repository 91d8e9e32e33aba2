use super::FILE;
use crate::diagnostic::{Diagnostic, Severity};
use crate::json::decode_text;
use std::borrow::Cow;

fn decode(bytes: &[u8]) -> (Cow<'_, str>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let text = decode_text(FILE, bytes, &mut diagnostics);
    (text, diagnostics)
}

fn utf16(text: &str, little_endian: bool, bom: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    let units = (if bom { Some(0xFEFFu16) } else { None })
        .into_iter()
        .chain(text.encode_utf16());
    for unit in units {
        if little_endian {
            bytes.extend(unit.to_le_bytes());
        } else {
            bytes.extend(unit.to_be_bytes());
        }
    }
    bytes
}

#[test]
fn clean_utf8_is_borrowed_without_diagnostics() {
    let (text, diagnostics) = decode("{\"a\": \"é\"}\n".as_bytes());
    assert!(matches!(text, Cow::Borrowed("{\"a\": \"é\"}\n")));
    assert!(diagnostics.is_empty());
}

#[test]
fn utf8_bom_is_stripped_silently() {
    let (text, diagnostics) = decode(b"\xEF\xBB\xBF{\"a\":1}\n");
    assert!(matches!(text, Cow::Borrowed("{\"a\":1}\n")));
    assert!(diagnostics.is_empty());
}

#[test]
fn utf16_with_either_bom_is_decoded_with_a_warning() {
    let source = "{\"tool\": \"sök\"}\n{\"emoji\": \"😀\"}\n";
    for little_endian in [true, false] {
        let bytes = utf16(source, little_endian, true);
        let (text, diagnostics) = decode(&bytes);
        assert_eq!(text, source);
        assert_eq!(diagnostics.len(), 1);
        assert_eq!(diagnostics[0].severity, Severity::Warning);
        assert_eq!(diagnostics[0].message, "file is UTF-16; read as text");
    }
}

#[test]
fn utf16_without_bom_is_told_by_its_zero_bytes() {
    for little_endian in [true, false] {
        let bytes = utf16("[1, 2]", little_endian, false);
        let (text, diagnostics) = decode(&bytes);
        assert_eq!(text, "[1, 2]");
        assert_eq!(diagnostics.len(), 1);
    }
}

#[test]
fn utf16_unpaired_surrogate_and_odd_length_become_replacement_characters() {
    let mut bytes = utf16("\"a", true, true);
    bytes.extend(0xD800u16.to_le_bytes());
    bytes.extend(utf16("\"\n\"b\"", true, false));
    bytes.push(b'x');
    let (text, diagnostics) = decode(&bytes);
    assert_eq!(text, "\"a\u{FFFD}\"\n\"b\"\u{FFFD}");
    assert_eq!(diagnostics.len(), 3, "{diagnostics:?}");
    assert_eq!(
        (diagnostics[1].line, diagnostics[1].column),
        (Some(1), Some(3))
    );
    assert!(diagnostics[1].message.contains("surrogate"));
    assert_eq!(diagnostics[2].line, Some(2));
}

#[test]
fn invalid_utf8_is_replaced_with_one_warning_per_line() {
    let bytes = b"{\"a\": \"x\xFF\xFEy\xC3\"}\n{\"b\": 1}\r\n\xE2\x82 {\"c\": \"\xC3\xA9\xFF\"}\n";
    let (text, diagnostics) = decode(bytes);
    assert_eq!(
        text,
        "{\"a\": \"x\u{FFFD}\u{FFFD}y\u{FFFD}\"}\n{\"b\": 1}\r\n\u{FFFD} {\"c\": \"é\u{FFFD}\"}\n"
    );
    let places: Vec<_> = diagnostics.iter().map(|d| (d.line, d.column)).collect();
    assert_eq!(places, [(Some(1), Some(9)), (Some(3), Some(1))]);
    assert!(diagnostics
        .iter()
        .all(|d| d.severity == Severity::Warning
            && d.message == "invalid UTF-8 replaced with U+FFFD"));
}
