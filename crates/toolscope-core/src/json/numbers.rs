//! Integers beyond 64 bits, which `serde_json` reads as floats, and numbers beyond the largest
//! float (`1e400`, an integer of hundreds of digits), which it rejects and the lenient path reads
//! as the largest float.

use super::locate::record_position;
use super::scan::{skip_string, StringEnd};
use super::Record;
use crate::diagnostic::Diagnostic;

/// Fewest digits an integer needs to be outside `i64::MIN..=u64::MAX`.
const LONG_RUN: usize = 19;

/// Longest number quoted whole in a warning.
const SHOWN_DIGITS: usize = 40;

/// The largest finite float as JSON text: what a number beyond it is read as.
pub(crate) const LARGEST_FLOAT: &str = "1.7976931348623157e308";

/// Fewest digits an integer needs to be beyond the largest float (about 1.8e308, 309 digits):
/// shorter ones are finite without parsing them.
const FLOAT_OVERFLOW_DIGITS: usize = 309;

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
    let shown = shown_number(token);
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

/// Warns (once per record, at the first one) about the numbers outside strings that were beyond
/// the largest float and read as it; `spans` are their byte spans in the record, in order.
pub(crate) fn warn_out_of_range(
    file: &str,
    record: &Record<'_>,
    spans: &[(usize, usize)],
    warnings: &mut Vec<Diagnostic>,
) {
    let Some(&(start, end)) = spans.first() else {
        return;
    };
    let token = &record.text[start..end];
    let is_integer = !token.contains(['.', 'e', 'E']);
    let (kind, sign) = match (is_integer, token.starts_with('-')) {
        (true, false) => ("integer", ""),
        (true, true) => ("integer", "-"),
        (false, false) => ("number", ""),
        (false, true) => ("number", "-"),
    };
    let mut message = format!(
        "{kind} {} is beyond the largest float; read as the nearest float {sign}{LARGEST_FLOAT}",
        shown_number(token)
    );
    if spans.len() > 1 {
        message.push_str(&format!(
            "; {} more such numbers in this record",
            spans.len() - 1
        ));
    }
    let (line, column) = record_position(record, start);
    warnings.push(Diagnostic::warning(file, Some(line), message).at_column(column));
}

/// A number as a warning quotes it: whole up to [`SHOWN_DIGITS`] characters, else its start and
/// its length.
fn shown_number(token: &str) -> String {
    if token.len() > SHOWN_DIGITS {
        let digits = token.bytes().filter(u8::is_ascii_digit).count();
        format!("{}... ({digits} digits)", &token[..SHOWN_DIGITS / 2])
    } else {
        token.to_string()
    }
}

/// Whether a JSON number token (`-?digits(.digits)?([eE][+-]?digits)?`) is beyond the largest
/// float, so that `serde_json` rejects it ("number out of range"). Integers shorter than
/// [`FLOAT_OVERFLOW_DIGITS`] are decided by their length; the rest are parsed, which takes time
/// linear in their length.
pub(crate) fn is_beyond_floats(token: &str) -> bool {
    let magnitude = token.strip_prefix('-').unwrap_or(token);
    let is_integer = !magnitude.contains(['.', 'e', 'E']);
    if is_integer && magnitude.len() < FLOAT_OVERFLOW_DIGITS {
        return false;
    }
    token.parse::<f64>().is_ok_and(f64::is_infinite)
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

/// Byte spans of the integers outside strings that are outside `i64::MIN..=u64::MAX` but within
/// the floats (those beyond the floats get [`warn_out_of_range`]'s warning instead).
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
                    && !is_beyond_floats(&text[start..digits_end])
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
