//! Text from the input made safe to place in the document, in element content and in quoted
//! attribute values alike.
//!
//! Session ids, tool names, problem messages, file names and diagnostics are written by whoever
//! wrote the traces. The five characters HTML gives meaning to (`& < > " '`) become character
//! references, so no string can open a tag, end the `<style>` element, start a comment or leave
//! an attribute. Characters that cannot be seen but change what is shown are made visible the
//! way the CLI's text output shows them (docs/cli.md, "Untrusted text in the terminal"), so a
//! name reads the same in the terminal and in the report:
//! - controls other than tab and newline: `\r`, `\x1b`, `\x7f`, `\u{9b}`;
//! - the line and paragraph separators U+2028 and U+2029;
//! - bidirectional embeddings, overrides, isolates and marks, which reorder what is shown;
//! - noncharacters (U+FDD0–U+FDEF and the last two code points of every plane), which HTML
//!   calls parse errors.
//!
//! Tab and newline stay as written: inside an element or an attribute value they are white space.

use toolscope_core::shown::{needs_escape, push_visible_escape};

/// Appends `text` to `out` with the five HTML characters as character references and every
/// character of [`is_made_visible`] as a visible escape.
pub(crate) fn push_escaped(out: &mut String, text: &str) {
    let mut clean_from = 0;
    for (offset, character) in text.char_indices() {
        let replacement = match character {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            other if is_made_visible(other) => "",
            _ => continue,
        };
        out.push_str(&text[clean_from..offset]);
        if replacement.is_empty() {
            push_visible_escape(out, character);
        } else {
            out.push_str(replacement);
        }
        clean_from = offset + character.len_utf8();
    }
    out.push_str(&text[clean_from..]);
}

/// Whether [`push_escaped`] shows this character as a visible escape instead of itself.
pub(crate) fn is_made_visible(character: char) -> bool {
    (needs_escape(character) && !matches!(character, '\t' | '\n'))
        || matches!(character, '\u{fdd0}'..='\u{fdef}')
        || (character as u32 & 0xfffe) == 0xfffe
}

#[cfg(test)]
mod tests {
    use super::{is_made_visible, push_escaped};

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        push_escaped(&mut out, text);
        out
    }

    #[test]
    fn the_five_html_characters_become_character_references() {
        assert_eq!(escaped(r#"a&b<c>d"e'f"#), "a&amp;b&lt;c&gt;d&quot;e&#39;f");
    }

    #[test]
    fn markup_in_a_name_stays_text() {
        assert_eq!(
            escaped("<script>alert(1)</script>"),
            "&lt;script&gt;alert(1)&lt;/script&gt;"
        );
        assert_eq!(
            escaped(r#""><img src=x onerror=alert(1)>"#),
            "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"
        );
    }

    #[test]
    fn style_end_cdata_end_and_comment_start_cannot_be_written() {
        assert_eq!(escaped("</style>"), "&lt;/style&gt;");
        assert_eq!(escaped("]]>"), "]]&gt;");
        assert_eq!(escaped("<!-- x -->"), "&lt;!-- x --&gt;");
    }

    #[test]
    fn an_existing_character_reference_is_escaped_again_so_it_shows_as_written() {
        assert_eq!(escaped("&lt;"), "&amp;lt;");
    }

    #[test]
    fn plain_text_of_any_script_is_kept_as_written() {
        for text in [
            "lookup_order",
            "café 東京 🙂",
            "שלום",
            "👩\u{200d}💻",
            "a\\nb",
        ] {
            assert_eq!(escaped(text), text);
        }
    }

    #[test]
    fn tab_and_newline_are_kept_and_carriage_return_is_shown() {
        assert_eq!(escaped("a\tb\nc\rd"), "a\tb\nc\\rd");
    }

    #[test]
    fn other_controls_are_shown_as_the_cli_shows_them() {
        assert_eq!(escaped("\u{1b}[31m\u{7}"), "\\x1b[31m\\x07");
        assert_eq!(escaped("\0\u{7f}"), "\\x00\\x7f");
        assert_eq!(escaped("\u{9b}31m"), "\\u{9b}31m");
    }

    #[test]
    fn bidirectional_controls_and_separators_are_shown_as_code_points() {
        assert_eq!(escaped("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(
            escaped("\u{2066}\u{200f}\u{61c}"),
            "\\u{2066}\\u{200f}\\u{61c}"
        );
        assert_eq!(escaped("a\u{2028}b"), "a\\u{2028}b");
    }

    #[test]
    fn noncharacters_are_shown_as_code_points() {
        assert_eq!(
            escaped("\u{fdd0}\u{fffe}\u{ffff}"),
            "\\u{fdd0}\\u{fffe}\\u{ffff}"
        );
        assert_eq!(escaped("\u{10ffff}"), "\\u{10ffff}");
        assert!(!is_made_visible('\u{fffd}'));
        assert!(!is_made_visible('\u{fdf0}'));
    }

    #[test]
    fn no_character_survives_that_html_or_a_reader_would_misread() {
        let every_character: String = (0..=0x10ffff_u32).filter_map(char::from_u32).collect();
        let out = escaped(&every_character);
        assert!(!out.contains(['<', '>', '"', '\'']));
        assert!(!out.chars().any(is_made_visible));
        // Every `&` starts one of the five references.
        for (offset, _) in out.match_indices('&') {
            let rest = &out[offset..];
            assert!(
                ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                    .iter()
                    .any(|reference| rest.starts_with(reference)),
                "{}",
                &rest[..rest.len().min(8)]
            );
        }
    }
}
