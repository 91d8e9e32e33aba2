//! Bytes to text: BOMs, UTF-16, and bytes that are not UTF-8.

use super::locate::{count_chars, count_newlines};
use crate::diagnostic::Diagnostic;
use std::borrow::Cow;

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Reads a file's bytes as text.
///
/// - A UTF-8 BOM is stripped without a diagnostic (it is normal).
/// - UTF-16 is decoded, little- or big-endian, told by its BOM or, without one, by the zero bytes
///   of its leading ASCII (JSON text starts with ASCII), with the warning
///   "file is UTF-16; read as text". Unpaired surrogates in it become U+FFFD, with a warning per
///   affected line.
/// - Bytes that are not UTF-8 become U+FFFD, with one warning per affected line, at the column of
///   the first replacement on that line.
///
/// Valid UTF-8 without a BOM, the common case, is borrowed as is after one validation pass.
pub fn decode_text<'a>(
    file: &str,
    bytes: &'a [u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> Cow<'a, str> {
    if let Some(rest) = bytes.strip_prefix(UTF8_BOM) {
        return decode_utf8(file, rest, 1, diagnostics);
    }
    match utf16_order(bytes) {
        Some((little_endian, bom_len)) => Cow::Owned(decode_utf16(
            file,
            &bytes[bom_len..],
            little_endian,
            diagnostics,
        )),
        None => decode_utf8(file, bytes, 1, diagnostics),
    }
}

/// Whether the bytes are UTF-16 (little-endian?) and how long their BOM is.
fn utf16_order(bytes: &[u8]) -> Option<(bool, usize)> {
    match bytes {
        [0xFF, 0xFE, ..] => Some((true, 2)),
        [0xFE, 0xFF, ..] => Some((false, 2)),
        // No BOM: ASCII in UTF-16 has a zero byte in every code unit (RFC 4627, section 3).
        [a, 0, c, 0, ..] if *a != 0 && *c != 0 => Some((true, 0)),
        [0, b, 0, d, ..] if *b != 0 && *d != 0 => Some((false, 0)),
        [a, 0] if *a != 0 => Some((true, 0)),
        [0, b] if *b != 0 => Some((false, 0)),
        _ => None,
    }
}

/// Tracks the line being decoded, to warn once per line.
struct LineWarner<'f> {
    file: &'f str,
    line: usize,
    /// Byte offset in the output where the current line starts.
    line_start: usize,
    warned_line: usize,
}

impl LineWarner<'_> {
    /// Notes text just appended to `out` (from `from` on).
    fn advance(&mut self, out: &str, from: usize) {
        let added = &out.as_bytes()[from..];
        if let Some(last) = added.iter().rposition(|&b| b == b'\n') {
            self.line += count_newlines(added);
            self.line_start = from + last + 1;
        }
    }

    /// Warns about a replacement about to be appended to `out`, once per line.
    fn warn(&mut self, out: &str, message: &str, diagnostics: &mut Vec<Diagnostic>) {
        if self.warned_line == self.line {
            return;
        }
        self.warned_line = self.line;
        let column = 1 + count_chars(&out.as_bytes()[self.line_start..]);
        diagnostics
            .push(Diagnostic::warning(self.file, Some(self.line), message).at_column(column));
    }
}

/// UTF-8 text starting at `line` (1 for a whole file; a line of a file read in pieces decodes as
/// it would in place, as a UTF-8 sequence never spans a newline): borrowed when it is UTF-8, else
/// with U+FFFD for the bytes that are not and one warning per affected line.
pub(crate) fn decode_utf8<'a>(
    file: &str,
    bytes: &'a [u8],
    line: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Cow<'a, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(decode_utf8_lossy(file, bytes, line, diagnostics)),
    }
}

/// Whether the bytes start as UTF-16 text (which [`decode_text`] decodes as a whole).
pub(crate) fn is_utf16(bytes: &[u8]) -> bool {
    utf16_order(bytes).is_some()
}

fn decode_utf8_lossy(
    file: &str,
    bytes: &[u8],
    first_line: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut lines = LineWarner {
        file,
        line: first_line,
        line_start: 0,
        warned_line: 0,
    };
    for chunk in bytes.utf8_chunks() {
        let from = out.len();
        out.push_str(chunk.valid());
        lines.advance(&out, from);
        if !chunk.invalid().is_empty() {
            lines.warn(&out, "invalid UTF-8 replaced with U+FFFD", diagnostics);
            out.push(char::REPLACEMENT_CHARACTER);
        }
    }
    out
}

fn decode_utf16(
    file: &str,
    bytes: &[u8],
    little_endian: bool,
    diagnostics: &mut Vec<Diagnostic>,
) -> String {
    diagnostics.push(Diagnostic::warning(
        file,
        None,
        "file is UTF-16; read as text",
    ));
    let units = bytes.chunks_exact(2).map(|pair| {
        let pair = [pair[0], pair[1]];
        if little_endian {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    });
    let mut out = String::with_capacity(bytes.len() / 2 + 16);
    let mut lines = LineWarner {
        file,
        line: 1,
        line_start: 0,
        warned_line: 0,
    };
    for unit in char::decode_utf16(units) {
        let c = unit.unwrap_or_else(|_| {
            lines.warn(
                &out,
                "unpaired UTF-16 surrogate replaced with U+FFFD",
                diagnostics,
            );
            char::REPLACEMENT_CHARACTER
        });
        out.push(c);
        if c == '\n' {
            lines.line += 1;
            lines.line_start = out.len();
        }
    }
    if bytes.len() % 2 == 1 {
        lines.warned_line = 0;
        lines.warn(
            &out,
            "file ends in half a UTF-16 code unit; replaced with U+FFFD",
            diagnostics,
        );
        out.push(char::REPLACEMENT_CHARACTER);
    }
    out
}
