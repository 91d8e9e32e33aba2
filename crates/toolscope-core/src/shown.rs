//! What is unsafe to show on a screen, and how it is shown instead: the one rule every renderer
//! (the CLI's terminal text, the gate's Markdown and JUnit, the HTML report, the charts, the
//! judge's messages) applies to text that came from an input.
//!
//! Session ids, tool names, agent names, labels and file names are written by whoever wrote the
//! traces. Shown raw, an ESC sequence recolours a terminal or sets its title, a newline forges a
//! line of output (`step 99: …`), and a right-to-left override makes a name read backwards
//! ("Trojan Source"), in a terminal, a pull request comment or a web page alike.
//!
//! ```
//! use toolscope_core::shown::{made_visible, needs_escape};
//!
//! assert_eq!(made_visible("lookup\u{202e}redro"), "lookup\\u{202e}redro");
//! assert_eq!(made_visible("a\nb\u{1b}[31m"), "a\\nb\\x1b[31m");
//! assert!(needs_escape('\u{2069}') && !needs_escape('é'));
//! ```

use std::borrow::Cow;
use std::fmt::Write;

/// Whether a character must not be shown as itself: it could act on a terminal, break a line or
/// reorder what is shown around it.
///
/// - C0 controls U+0000–U+001F, DEL U+007F and C1 controls U+0080–U+009F (general category Cc);
/// - U+2028 and U+2029, the line and paragraph separators: editors, log viewers and JavaScript
///   end a line at them, so they could forge one;
/// - the bidirectional embeddings and overrides U+202A–U+202E and isolates U+2066–U+2069, which
///   reorder the rest of the line;
/// - the directional marks U+200E, U+200F and U+061C: invisible, and they change the order of the
///   characters around them, so in a name they only ever hide a difference.
///
/// Everything else, all of Unicode's letters, emoji and joiners included, is shown as written.
pub fn needs_escape(character: char) -> bool {
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

/// The text with every character of [`needs_escape`] written as its visible escape
/// ([`push_visible_escape`]); borrowed when there is none, as in almost every name.
///
/// A backslash is not doubled, so `a\nb` typed with a backslash looks like `a` and `b` split by a
/// newline. That ambiguity cannot forge a line or reach a terminal, which is all this is for;
/// JSON output gives the exact text. Not doubling it keeps every clean output byte-identical
/// (Windows paths, regex patterns in schema messages, the `\\` the seed's `repr` already writes)
/// and makes the function idempotent: text escaped once passes through again unchanged.
pub fn made_visible(text: &str) -> Cow<'_, str> {
    // Printable ASCII is what nearly every id and tool name is made of: settle it byte by byte.
    let Some(first_other) = text.bytes().position(|byte| !(0x20..0x7f).contains(&byte)) else {
        return Cow::Borrowed(text);
    };
    let Some(first_escape) = text[first_other..]
        .char_indices()
        .find(|&(_, character)| needs_escape(character))
        .map(|(offset, _)| first_other + offset)
    else {
        return Cow::Borrowed(text);
    };
    let mut safe = String::with_capacity(text.len() + 8);
    safe.push_str(&text[..first_escape]);
    for character in text[first_escape..].chars() {
        if needs_escape(character) {
            push_visible_escape(&mut safe, character);
        } else {
            safe.push(character);
        }
    }
    Cow::Owned(safe)
}

/// Appends how a character is shown instead of itself: `\n`, `\r`, `\t`; `\xHH` for the rest of
/// ASCII (`\x1b` for ESC), as Python's `repr` (and so the seed's messages) writes them; `\u{9b}`
/// beyond ASCII, in Rust's notation, because `\x9b` would read as the byte 0x9B, which is not how
/// the character is encoded.
pub fn push_visible_escape(out: &mut String, character: char) {
    match character {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        // Writing to a String cannot fail.
        ascii if ascii.is_ascii() => {
            let _ = write!(out, "\\x{:02x}", ascii as u32);
        }
        other => {
            let _ = write!(out, "\\u{{{:x}}}", other as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use proptest::prelude::*;

    use super::*;

    fn escaped(text: &str) -> String {
        made_visible(text).into_owned()
    }

    /// The one table of what is shown how: every renderer's tests check against the same rule.
    #[test]
    fn the_table_of_unsafe_characters_and_their_escapes() {
        let table: &[(&str, &str)] = &[
            ("a\nb\rc\td", "a\\nb\\rc\\td"),
            ("\u{1b}[31mred", "\\x1b[31mred"),
            ("\u{1b}]0;pwned\u{7}", "\\x1b]0;pwned\\x07"),
            ("\0\u{8}\u{b}\u{c}\u{1f}", "\\x00\\x08\\x0b\\x0c\\x1f"),
            ("a\u{7f}b", "a\\x7fb"),
            ("\u{9b}31m", "\\u{9b}31m"),
            ("\u{80}\u{85}\u{9f}", "\\u{80}\\u{85}\\u{9f}"),
            ("abc\u{202e}fed", "abc\\u{202e}fed"),
            ("\u{200e}\u{200f}\u{61c}", "\\u{200e}\\u{200f}\\u{61c}"),
            ("a\u{2028}b\u{2029}c", "a\\u{2028}b\\u{2029}c"),
            ("東京\n🙂", "東京\\n🙂"),
        ];
        for (text, shown) in table {
            assert_eq!(escaped(text), *shown, "{text:?}");
        }
        for code in (0x202a..=0x202e).chain(0x2066..=0x2069) {
            let character = char::from_u32(code).unwrap();
            assert!(needs_escape(character));
            assert_eq!(escaped(&character.to_string()), format!("\\u{{{code:x}}}"));
        }
    }

    #[test]
    fn letters_emoji_joiners_and_plain_ascii_are_borrowed_unchanged() {
        for text in [
            "lookup_order: -5 is less than or equal to the minimum of 0",
            "café 東京 🙂",
            "שלום عربي",
            "👩\u{200d}💻",
            "\u{00a0}non-breaking",
            r"C:\traces\run.jsonl: does not match '^\\d+$'",
        ] {
            assert!(
                matches!(made_visible(text), Cow::Borrowed(shown) if shown == text),
                "{text:?}"
            );
        }
    }

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
        fn no_text_keeps_an_unsafe_character(text in hostile_text()) {
            let safe = made_visible(&text);
            prop_assert!(!safe.chars().any(needs_escape), "{:?} -> {:?}", text, safe);
        }

        #[test]
        fn escaping_twice_is_escaping_once(text in hostile_text()) {
            let once = made_visible(&text).into_owned();
            prop_assert_eq!(made_visible(&once), once.as_str());
        }
    }
}
