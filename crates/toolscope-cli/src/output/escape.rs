//! Text from the input made safe to show in a terminal.
//!
//! Session ids, tool names, labels and file names are written by whoever wrote the traces. Shown
//! raw, an ESC sequence in one recolours the terminal, sets its title or moves the cursor, a
//! newline forges a line of our output (`step 99: …`), and a right-to-left override makes a name
//! read backwards. [`terminal_safe`] shows every such character as a visible escape instead.

use std::borrow::Cow;
use std::fmt::Write;

/// The text with every character that could act on a terminal, break a line or reorder what is
/// shown written as a visible escape; borrowed when there is none, as in almost every name.
///
/// Escaped, and how they look:
/// - C0 controls U+0000–U+001F and DEL U+007F: `\n`, `\r`, `\t`, the rest `\xHH` (`\x1b` for
///   ESC), as Python's `repr` (and so the seed's messages) writes them;
/// - C1 controls U+0080–U+009F: `\u{9b}`, in Rust's notation, because `\x9b` would read as the
///   byte 0x9B, which is not how the character is encoded;
/// - U+2028 and U+2029, the line and paragraph separators: a terminal shows them as a glyph, but
///   editors, log viewers and JavaScript end a line at them, so they could still forge one;
/// - the bidirectional embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069, which
///   reorder the rest of the line ("Trojan Source");
/// - the directional marks U+200E, U+200F and U+061C: invisible, and they change the order of the
///   characters around them, so in a name they only ever hide a difference.
///
/// Everything else, including all of Unicode's letters, emoji and joiners, is shown as written.
///
/// A backslash is not doubled, so `a\nb` typed with a backslash looks like `a` and `b` split by a
/// newline. That ambiguity cannot forge a line or reach the terminal, which is all this is for;
/// `--json` gives the exact text. Not doubling it keeps every clean output byte-identical (Windows
/// paths, regex patterns in schema messages, the `\\` the seed's `repr` already writes) and makes
/// the function idempotent: text escaped once passes through again unchanged, so a field escaped
/// before padding is not escaped twice when its whole line is.
pub fn terminal_safe(text: &str) -> Cow<'_, str> {
    // Printable ASCII is what nearly every id and tool name is made of: settle it byte by byte.
    let Some(first_other) = text.bytes().position(|byte| !is_printable_ascii(byte)) else {
        return Cow::Borrowed(text);
    };
    let Some(first_escape) = text[first_other..]
        .char_indices()
        .find(|&(_, character)| is_escaped(character))
        .map(|(offset, _)| first_other + offset)
    else {
        return Cow::Borrowed(text);
    };
    let mut safe = String::with_capacity(text.len() + 8);
    safe.push_str(&text[..first_escape]);
    for character in text[first_escape..].chars() {
        if is_escaped(character) {
            push_escape(&mut safe, character);
        } else {
            safe.push(character);
        }
    }
    Cow::Owned(safe)
}

/// Whether [`terminal_safe`] writes this character as an escape.
pub fn is_escaped(character: char) -> bool {
    // `is_control` is exactly the general category Cc: C0, DEL and C1.
    character.is_control()
        || matches!(
            character,
            '\u{2028}'
                | '\u{2029}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2066}'..='\u{2069}'
                | '\u{200e}'
                | '\u{200f}'
                | '\u{061c}'
        )
}

fn is_printable_ascii(byte: u8) -> bool {
    (0x20..0x7f).contains(&byte)
}

fn push_escape(safe: &mut String, character: char) {
    match character {
        '\n' => safe.push_str("\\n"),
        '\r' => safe.push_str("\\r"),
        '\t' => safe.push_str("\\t"),
        // Writing to a String cannot fail.
        ascii if ascii.is_ascii() => {
            let _ = write!(safe, "\\x{:02x}", ascii as u32);
        }
        other => {
            let _ = write!(safe, "\\u{{{:x}}}", other as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use proptest::prelude::*;

    use super::{is_escaped, terminal_safe};

    fn escaped(text: &str) -> String {
        terminal_safe(text).into_owned()
    }

    #[test]
    fn plain_ascii_is_borrowed_unchanged() {
        let text = "lookup_order: -5 is less than or equal to the minimum of 0";
        assert!(matches!(terminal_safe(text), Cow::Borrowed(shown) if shown == text));
    }

    #[test]
    fn letters_emoji_and_joiners_of_any_script_are_borrowed_unchanged() {
        for text in [
            "café 東京 🙂",
            "שלום عربي",
            "👩\u{200d}💻",
            "\u{00a0}non-breaking",
        ] {
            assert!(
                matches!(terminal_safe(text), Cow::Borrowed(shown) if shown == text),
                "{text:?}"
            );
        }
    }

    #[test]
    fn line_breaks_and_tabs_are_shown_as_their_usual_escapes() {
        assert_eq!(escaped("a\nb\rc\td"), "a\\nb\\rc\\td");
        assert_eq!(escaped("x\n\nstep 99: forged"), "x\\n\\nstep 99: forged");
    }

    #[test]
    fn other_c0_controls_and_del_are_shown_as_hex_escapes() {
        assert_eq!(escaped("\u{1b}[31mred"), "\\x1b[31mred");
        assert_eq!(escaped("\u{1b}]0;pwned\u{7}"), "\\x1b]0;pwned\\x07");
        assert_eq!(
            escaped("\0\u{8}\u{b}\u{c}\u{1f}"),
            "\\x00\\x08\\x0b\\x0c\\x1f"
        );
        assert_eq!(escaped("a\u{7f}b"), "a\\x7fb");
    }

    #[test]
    fn c1_controls_are_shown_as_code_points_not_bytes() {
        assert_eq!(escaped("\u{9b}31m"), "\\u{9b}31m");
        assert_eq!(escaped("\u{80}\u{85}\u{9f}"), "\\u{80}\\u{85}\\u{9f}");
    }

    #[test]
    fn bidirectional_overrides_isolates_and_marks_are_shown_as_code_points() {
        assert_eq!(escaped("abc\u{202e}fed"), "abc\\u{202e}fed");
        for code in (0x202a..=0x202e).chain(0x2066..=0x2069) {
            let character = char::from_u32(code).unwrap();
            assert_eq!(escaped(&character.to_string()), format!("\\u{{{code:x}}}"));
        }
        assert_eq!(
            escaped("\u{200e}\u{200f}\u{61c}"),
            "\\u{200e}\\u{200f}\\u{61c}"
        );
    }

    #[test]
    fn unicode_line_and_paragraph_separators_are_shown_as_code_points() {
        assert_eq!(escaped("a\u{2028}b\u{2029}c"), "a\\u{2028}b\\u{2029}c");
    }

    #[test]
    fn text_before_the_first_escape_is_kept_whatever_its_script() {
        assert_eq!(escaped("東京\n🙂"), "東京\\n🙂");
    }

    #[test]
    fn a_backslash_is_not_doubled_so_clean_text_stays_byte_identical() {
        let text = r"C:\traces\run.jsonl: does not match '^\\d+$'";
        assert!(matches!(terminal_safe(text), Cow::Borrowed(shown) if shown == text));
    }

    /// Strings weighted towards the characters that must be escaped and their neighbours.
    fn hostile_text() -> impl Strategy<Value = String> {
        let character = prop_oneof![
            any::<char>(),
            (0u32..0x20).prop_map(|code| char::from_u32(code).unwrap()),
            (0x7fu32..0xa0).prop_map(|code| char::from_u32(code).unwrap()),
            (0x2000u32..0x2070).prop_map(|code| char::from_u32(code).unwrap()),
            Just('\u{61c}'),
            Just('\\'),
            Just('a'),
        ];
        proptest::collection::vec(character, 0..40).prop_map(String::from_iter)
    }

    proptest! {
        #[test]
        fn no_text_keeps_a_character_that_acts_on_the_terminal(text in hostile_text()) {
            let safe = terminal_safe(&text);
            prop_assert!(!safe.chars().any(is_escaped), "{:?} -> {:?}", text, safe);
            prop_assert!(!safe.contains(['\n', '\r', '\u{1b}', '\u{9b}']), "{:?}", safe);
        }

        #[test]
        fn any_string_comes_out_as_one_line_of_printable_text(text in any::<String>()) {
            let safe = terminal_safe(&text);
            prop_assert!(!safe.chars().any(is_escaped));
            prop_assert_eq!(safe.lines().count(), usize::from(!text.is_empty()));
        }

        #[test]
        fn escaping_twice_changes_nothing(text in hostile_text()) {
            let once = terminal_safe(&text).into_owned();
            prop_assert!(matches!(terminal_safe(&once), Cow::Borrowed(_)));
        }

        #[test]
        fn text_with_nothing_to_escape_is_borrowed_as_written(
            text in hostile_text().prop_map(|text| text.replace(is_escaped, ""))
        ) {
            prop_assert!(matches!(terminal_safe(&text), Cow::Borrowed(shown) if shown == text));
        }
    }
}
