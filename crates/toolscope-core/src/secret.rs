//! A secret held by its value (the user's API key), and every written form of that value a
//! server could echo back, so that whatever toolscope writes or prints can be cleaned of it.
//!
//! Patterns (`sk-…`, `AIza…`) catch only the keys they were written for; a key of any other
//! shape, echoed in a provider's 401 body or planted in a verdict's reason by a hostile server,
//! would pass them. [`SecretValue::redact`] looks for the value itself, as it is and as servers
//! and clients write it: URL-escaped (either case of hex digits), JSON-escaped, and base64 (the
//! standard and the URL-safe alphabet) of any text that contains it, as in a Basic
//! `Authorization` header's `user:key`.
//!
//! ```
//! use toolscope_core::secret::SecretValue;
//!
//! let key = SecretValue::new("gsk/live+9Zq=DO-NOT-LEAK");
//! let echoed = "bad key gsk%2Flive%2B9Zq%3DDO-NOT-LEAK for Basic dXNlcjpnc2svbGl2ZSs5WnE9RE8tTk9ULUxFQUs=";
//! let clean = key.redact(echoed);
//! assert!(!clean.contains("DO-NOT-LEAK") && !clean.contains("9Zq"));
//! assert_eq!(clean.matches("[key redacted]").count(), 2);
//! assert_eq!(format!("{key:?}"), "SecretValue([redacted])");
//! ```

use std::borrow::Cow;
use std::fmt;

use aho_corasick::{AhoCorasick, MatchKind};
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use base64::Engine;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};

/// What stands in a text where a form of the secret was.
pub const REDACTED: &str = "[key redacted]";

/// The fewest characters a value must have to be looked for. A shorter "key" (a local server's
/// `x` or `none`) is no secret, and looking for it would blank every such letter in a reason.
pub const MIN_SECRET_CHARS: usize = 4;

/// The fewest characters of a base64 form looked for: the characters a shifted value
/// determines alone, without its neighbours, are fewer than its own (a 4-character key may
/// leave 0 of them), and a short run of base64 letters would match ordinary words.
const MIN_BASE64_CHARS: usize = 8;

/// The characters URL-escaping leaves as they are (RFC 3986's unreserved set).
const URL_UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A secret's value and a matcher for its written forms. Its `Debug` never shows the value.
#[derive(Clone)]
pub struct SecretValue {
    value: String,
    forms: Option<AhoCorasick>,
}

impl SecretValue {
    /// The secret `value` (surrounding white space is not part of it).
    pub fn new(value: &str) -> SecretValue {
        let value = value.trim().to_string();
        let forms = (value.chars().count() >= MIN_SECRET_CHARS)
            .then(|| written_forms(&value))
            .and_then(|forms| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(forms)
                    .ok()
            });
        SecretValue { value, forms }
    }

    /// The value, for the one place it goes (the request's header).
    pub fn expose(&self) -> &str {
        &self.value
    }

    /// True when there is no value.
    pub fn is_empty(&self) -> bool {
        self.value.is_empty()
    }

    /// `text` with every written form of the secret replaced by [`REDACTED`]; borrowed when
    /// there was none.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match &self.forms {
            Some(forms) if forms.is_match(text) => {
                Cow::Owned(forms.replace_all(text, &vec![REDACTED; forms.patterns_len()]))
            }
            _ => Cow::Borrowed(text),
        }
    }

    /// [`redact`](Self::redact) in place.
    pub fn redact_in_place(&self, text: &mut String) {
        if let Cow::Owned(clean) = self.redact(text) {
            *text = clean;
        }
    }
}

impl fmt::Debug for SecretValue {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("SecretValue([redacted])")
    }
}

/// The value as written raw, URL-escaped, JSON-escaped and in base64 at each of the three
/// positions it can take among the encoded bytes, deduplicated.
fn written_forms(value: &str) -> Vec<String> {
    let escaped = utf8_percent_encode(value, URL_UNRESERVED).to_string();
    let json = serde_json::to_string(value).unwrap_or_default();
    let mut forms = vec![
        value.to_string(),
        lowercase_hex(&escaped),
        // `+` for a space, as HTML forms write it.
        escaped.replace("%20", "+"),
        escaped,
        json.trim_matches('"').to_string(),
    ];
    for shift in 0..3 {
        for engine in [&STANDARD, &URL_SAFE] {
            if let Some(core) = base64_core(engine, value.as_bytes(), shift) {
                forms.push(core);
            }
        }
    }
    forms.sort();
    forms.dedup();
    forms
}

/// The base64 characters that `value`, standing `shift` bytes past a multiple of three in
/// whatever text was encoded, determines by itself: the groups of three bytes that are all
/// its own. `None` when they are too few to look for.
fn base64_core(engine: &impl Engine, value: &[u8], shift: usize) -> Option<String> {
    let mut shifted = vec![0u8; shift];
    shifted.extend_from_slice(value);
    let encoded = engine.encode(&shifted);
    let start = if shift == 0 { 0 } else { 4 };
    let end = 4 * (shifted.len() / 3);
    (end >= start + MIN_BASE64_CHARS).then(|| encoded[start..end].to_string())
}

/// `escaped` with lower-case hex digits in its percent escapes, as some clients write them.
fn lowercase_hex(escaped: &str) -> String {
    let mut out = String::with_capacity(escaped.len());
    let mut chars = escaped.chars();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '%' {
            out.extend(chars.by_ref().take(2).map(|hex| hex.to_ascii_lowercase()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "gsk_live/9Zq+Tq=DO-NOT-LEAK-abc";

    #[test]
    fn every_written_form_of_the_key_is_redacted() {
        let secret = SecretValue::new(KEY);
        let escaped = utf8_percent_encode(KEY, URL_UNRESERVED).to_string();
        let forms = [
            KEY.to_string(),
            escaped.clone(),
            lowercase_hex(&escaped),
            serde_json::to_string(KEY).unwrap(),
            STANDARD.encode(format!("user:{KEY}")),
            STANDARD.encode(format!(":{KEY}")),
            STANDARD.encode(format!("ab:{KEY}")),
            URL_SAFE.encode(format!("alice:{KEY}:x")),
            STANDARD.encode(KEY),
        ];
        for form in forms {
            let text = format!("before {form} after");
            let clean = secret.redact(&text);
            assert!(clean.contains(REDACTED), "{form} was not found in {text}");
            assert!(
                !clean.contains("DO-NOT-LEAK"),
                "part of the key stayed: {clean}"
            );
            assert!(clean.starts_with("before ") && clean.ends_with(" after"));
            // The middle of every form is the key's own: none of it stays.
            let middle = &form[form.len() / 2 - 4..form.len() / 2 + 4];
            assert!(!clean.contains(middle), "{middle} stayed: {clean}");
        }
    }

    #[test]
    fn a_key_of_any_shape_is_found_not_only_keys_by_pattern() {
        for key in [
            "sk-proj-abcdefgh",
            "AIzaSyA123456789",
            "0123456789abcdef",
            "hunter2!",
        ] {
            let secret = SecretValue::new(key);
            let echoed = format!("Incorrect API key provided: {key}.");
            assert_eq!(
                secret.redact(&echoed),
                format!("Incorrect API key provided: {REDACTED}.")
            );
        }
    }

    #[test]
    fn text_without_the_key_is_borrowed_unchanged() {
        let secret = SecretValue::new(KEY);
        let text = "the key was refused (401): check it";
        assert!(matches!(secret.redact(text), Cow::Borrowed(t) if t == text));
    }

    #[test]
    fn very_short_values_are_not_looked_for() {
        let secret = SecretValue::new("x");
        assert_eq!(secret.redact("x marks the spot"), "x marks the spot");
        assert!(SecretValue::new("  ").is_empty());
    }

    #[test]
    fn debug_never_shows_the_value() {
        let secret = SecretValue::new(KEY);
        assert!(!format!("{secret:?}").contains("DO-NOT"));
        assert_eq!(secret.expose(), KEY);
    }
}
