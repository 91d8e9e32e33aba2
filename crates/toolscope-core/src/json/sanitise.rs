//! One pass over a failed record: a copy with what real exports hold made into JSON, and the
//! record's nesting depth.

use super::numbers::{is_beyond_floats, LARGEST_FLOAT};
use super::MAX_DEPTH;

/// What [`sanitise`] found in a record.
#[derive(Debug, Default)]
pub(crate) struct Sanitised {
    /// The sanitised copy, when anything was replaced.
    pub(crate) fixed: Option<String>,
    /// For each replacement, the offsets just after it in the record and in the copy.
    edits: Vec<(usize, usize)>,
    /// Offsets of `NaN`, `Infinity` and `-Infinity` literals outside strings, with the literal.
    pub(crate) non_finite: Vec<(usize, &'static str)>,
    /// Offsets of lone surrogate escapes (`\uD83D`, six bytes).
    pub(crate) surrogates: Vec<usize>,
    /// Byte spans of numbers outside strings beyond the largest float (`1e400`, an integer of
    /// hundreds of digits), each replaced by the largest float of its sign.
    pub(crate) out_of_range: Vec<(usize, usize)>,
    /// Deepest nesting of arrays and objects (outside strings).
    pub(crate) max_depth: usize,
    /// Offset of the bracket that first went deeper than [`MAX_DEPTH`].
    pub(crate) deep_at: Option<usize>,
}

impl Sanitised {
    /// The record offset matching an offset in the sanitised copy.
    pub(crate) fn original_offset(&self, offset: usize) -> usize {
        let after = self.edits.partition_point(|&(_, copy)| copy <= offset);
        match after.checked_sub(1).map(|k| self.edits[k]) {
            Some((original, copy)) => original + (offset - copy),
            None => offset,
        }
    }
}

/// Builds the sanitised copy lazily, from the first replacement on.
struct Rewriter<'t> {
    text: &'t str,
    out: String,
    copied: usize,
    edits: Vec<(usize, usize)>,
}

impl Rewriter<'_> {
    fn replace(&mut self, at: usize, len: usize, with: &str) {
        if self.edits.is_empty() {
            self.out.reserve(self.text.len() + 16);
        }
        self.out.push_str(&self.text[self.copied..at]);
        self.out.push_str(with);
        self.copied = at + len;
        self.edits.push((self.copied, self.out.len()));
    }
}

/// Scans a record once, tracking strings: `NaN`, `Infinity` and `-Infinity` outside strings
/// become `null`; numbers outside strings beyond the largest float become the largest float of
/// their sign (`serde_json` rejects them, and the whole record with them); lone surrogate
/// escapes in strings become `\uFFFD`; depth is measured.
pub(crate) fn sanitise(text: &str) -> Sanitised {
    let bytes = text.as_bytes();
    let mut found = Sanitised::default();
    let mut rewriter = Rewriter {
        text,
        out: String::new(),
        copied: 0,
        edits: Vec::new(),
    };
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let literal = match bytes[i] {
            b'"' => {
                i = sanitise_string(bytes, i + 1, &mut rewriter, &mut found.surrogates);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > found.max_depth {
                    found.max_depth = depth;
                    if depth == MAX_DEPTH + 1 {
                        found.deep_at = Some(i);
                    }
                }
                None
            }
            b']' | b'}' => {
                depth = depth.saturating_sub(1);
                None
            }
            b'N' => Some("NaN"),
            b'I' => Some("Infinity"),
            b'-' if bytes[i..].starts_with(b"-Infinity") => Some("-Infinity"),
            b'-' | b'0'..=b'9' => {
                // Each number is scanned once, whatever its length.
                let end = number_end(bytes, i);
                let token = &text[i..end];
                if is_beyond_floats(token) {
                    let largest = if bytes[i] == b'-' {
                        format!("-{LARGEST_FLOAT}")
                    } else {
                        LARGEST_FLOAT.to_string()
                    };
                    rewriter.replace(i, end - i, &largest);
                    found.out_of_range.push((i, end));
                }
                i = end.max(i + 1);
                continue;
            }
            _ => None,
        };
        match literal {
            Some(literal) if bytes[i..].starts_with(literal.as_bytes()) => {
                rewriter.replace(i, literal.len(), "null");
                found.non_finite.push((i, literal));
                i += literal.len();
            }
            _ => i += 1,
        }
    }
    if !rewriter.edits.is_empty() {
        rewriter.out.push_str(&text[rewriter.copied..]);
        found.fixed = Some(rewriter.out);
        found.edits = rewriter.edits;
    }
    found
}

/// The end of the number starting at `i` (`-?digits(.digits)?([eE][+-]?digits)?`, read as far
/// as it goes).
fn number_end(bytes: &[u8], mut i: usize) -> usize {
    let digits = |bytes: &[u8], mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    i = digits(bytes, i);
    if bytes.get(i) == Some(&b'.') {
        i = digits(bytes, i + 1);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        i = digits(bytes, i);
    }
    i
}

/// Scans a string whose opening quote is just before `i`, replacing lone surrogate escapes;
/// returns the offset after its closing quote (or the text's length).
fn sanitise_string(
    bytes: &[u8],
    mut i: usize,
    rewriter: &mut Rewriter<'_>,
    surrogates: &mut Vec<usize>,
) -> usize {
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return i + 1,
            b'\\' if bytes.get(i + 1) == Some(&b'u') => {
                let Some(unit) = hex4(bytes, i + 2) else {
                    i += 2;
                    continue;
                };
                if is_high(unit) && hex_escape(bytes, i + 6).is_some_and(is_low) {
                    i += 12;
                } else if is_high(unit) || is_low(unit) {
                    rewriter.replace(i, 6, "\\uFFFD");
                    surrogates.push(i);
                    i += 6;
                } else {
                    i += 6;
                }
            }
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn is_high(unit: u16) -> bool {
    (0xD800..0xDC00).contains(&unit)
}

fn is_low(unit: u16) -> bool {
    (0xDC00..0xE000).contains(&unit)
}

/// The code unit of a `\uXXXX` escape at `i`.
fn hex_escape(bytes: &[u8], i: usize) -> Option<u16> {
    if bytes.get(i) == Some(&b'\\') && bytes.get(i + 1) == Some(&b'u') {
        hex4(bytes, i + 2)
    } else {
        None
    }
}

/// Four hex digits at `i`.
fn hex4(bytes: &[u8], i: usize) -> Option<u16> {
    let digits = bytes.get(i..i + 4)?;
    digits.iter().try_fold(0u16, |acc, &d| {
        let v = (d as char).to_digit(16)?;
        Some(acc * 16 + v as u16)
    })
}
