//! Integers beyond 64 bits, which `serde_json` reads as floats.

use super::locate::record_position;
use super::scan::{skip_string, StringEnd};
use super::Record;
use crate::diagnostic::Diagnostic;

/// Fewest digits an integer needs to be outside `i64::MIN..=u64::MAX`.
const LONG_RUN: usize = 19;

/// Longest integer quoted whole in a warning.
const SHOWN_DIGITS: usize = 40;

/// Warns (once per record, at the first one) about integers outside `i64::MIN..=u64::MAX` that are
/// not in strings. Costs a byte probe every 19 bytes unless the record has 19 digits in a row.
pub(crate) fn warn_big_integers(file: &str, record: &Record<'_>, warnings: &mut Vec<Diagnostic>) {
    if !has_long_digit_run(record.text.as_bytes()) {
        return;
    }
    let big = big_integers(record.text);
    let Some(&(start, end)) = big.first() else {
        return;
    };
    let token = &record.text[start..end];
    let magnitude = token.trim_start_matches('-');
    let value: f64 = token.parse().unwrap_or(f64::NAN);
    let shown = if token.len() > SHOWN_DIGITS {
        format!(
            "{}... ({} digits)",
            &token[..SHOWN_DIGITS / 2],
            magnitude.len()
        )
    } else {
        token.to_string()
    };
    let mut message = if format!("{:.0}", value.abs()) == magnitude {
        format!("integer {shown} is beyond 64 bits; read as the float {value:e}")
    } else {
        format!("integer {shown} is beyond 64 bits; read as {value:e} (precision lost)")
    };
    if big.len() > 1 {
        message.push_str(&format!(
            "; {} more such integers in this record",
            big.len() - 1
        ));
    }
    let (line, column) = record_position(record, start);
    warnings.push(Diagnostic::warning(file, Some(line), message).at_column(column));
}

/// Whether the bytes hold [`LONG_RUN`] ASCII digits in a row. Any such run covers one of the
/// offsets probed (every `LONG_RUN`th byte), so only digits found there are looked around.
pub(crate) fn has_long_digit_run(bytes: &[u8]) -> bool {
    let mut probe = LONG_RUN - 1;
    while probe < bytes.len() {
        if !bytes[probe].is_ascii_digit() {
            probe += LONG_RUN;
            continue;
        }
        let mut start = probe;
        while start > 0 && bytes[start - 1].is_ascii_digit() {
            start -= 1;
            if probe + 1 - start >= LONG_RUN {
                return true;
            }
        }
        let mut end = probe + 1;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
            if end - start >= LONG_RUN {
                return true;
            }
        }
        if end - start >= LONG_RUN {
            return true;
        }
        // `bytes[end]` is not a digit: a later run starts after it and covers `end + LONG_RUN`.
        probe = end + LONG_RUN;
    }
    false
}

/// Byte spans of the integers outside strings that are outside `i64::MIN..=u64::MAX`.
pub(crate) fn big_integers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = match skip_string(bytes, i + 1, false) {
                    StringEnd::Closed(end) => end,
                    StringEnd::Newline(_) | StringEnd::Eof => bytes.len(),
                }
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                if bytes[i] == b'-' {
                    i += 1;
                }
                let digits_start = i;
                i = skip_digits(bytes, i);
                let digits_end = i;
                let mut integer = true;
                if bytes.get(i) == Some(&b'.') {
                    integer = false;
                    i = skip_digits(bytes, i + 1);
                }
                if matches!(bytes.get(i), Some(b'e' | b'E')) {
                    integer = false;
                    if matches!(bytes.get(i + 1), Some(b'+' | b'-')) {
                        i += 1;
                    }
                    i = skip_digits(bytes, i + 1);
                }
                if integer
                    && digits_end - digits_start >= LONG_RUN
                    && !fits_64_bits(&text[start..digits_end])
                {
                    found.push((start, digits_end));
                }
            }
            _ => i += 1,
        }
    }
    found
}

fn skip_digits(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    i
}

/// Whether an integer token is within `i64::MIN..=u64::MAX` (what `serde_json` keeps exact).
fn fits_64_bits(token: &str) -> bool {
    if token.starts_with('-') {
        token.parse::<i64>().is_ok()
    } else {
        token.parse::<u64>().is_ok()
    }
}
