//! Text to records: JSON Lines, one top-level array, or a sequence of top-level values.

use super::locate::Locator;
use super::scan::{
    scan_array, scan_value, skip_ws, trim_end, unclosed_brackets, ArrayScan, ValueEnd,
};
use super::{Layout, Record, Split};
use crate::diagnostic::Diagnostic;

/// Splits text into records, with the file line and column where each starts.
///
/// - If the first non-whitespace character is `[` and its matching `]` (found by a scan that
///   tracks strings and bracket depth only) is followed by nothing but whitespace:
///   [`Layout::Array`], and the records are the array's elements, so one bad element does not
///   lose the others. An empty element (`[1,,2]`) or a trailing comma gets a warning.
/// - Else, if the first value ends on its first line and more non-blank lines follow, or there
///   is only one non-blank line: [`Layout::Lines`], and every non-blank line is a record (a
///   broken line cannot swallow the lines after it).
/// - Else [`Layout::Document`]: top-level values in sequence. A value whose structure breaks (a
///   bracket never closed, a string not closed on its line) is an error at the line where it
///   starts, and reading goes on at the next line whose first non-blank character is `{` or `[`.
///   A stray `,` `:` `]` or `}` between values is an error too (not repeated after such a break).
///
/// - Server-sent events (a capture of a streamed API response: the text starts with `event:` or
///   `data:`): [`Layout::Lines`], every `data:` line's payload a record (`[DONE]` and the
///   `event:`, `id:`, `retry:` and `:` comment lines are not records).
///
/// Empty or whitespace-only text gives no records and the error "file is empty".
pub fn split_records<'a>(
    file: &str,
    text: &'a str,
    diagnostics: &mut Vec<Diagnostic>,
) -> Split<'a> {
    let bytes = text.as_bytes();
    let first = skip_ws(bytes, 0);
    if first == bytes.len() {
        diagnostics.push(Diagnostic::error(file, None, "file is empty"));
        return Split {
            layout: Layout::Lines,
            records: Vec::new(),
        };
    }
    if is_sse(&text[first..]) {
        return sse_records(text);
    }
    if bytes[first] == b'[' {
        if let Some(scan) = scan_array(bytes, first) {
            if skip_ws(bytes, scan.end) == bytes.len() {
                return array_records(file, text, &scan, diagnostics);
            }
        }
    }
    if is_lines(bytes, first) {
        lines_records(text)
    } else {
        document_records(file, text, first, diagnostics)
    }
}

/// Whether text (from its first non-blank character) is a capture of server-sent events.
fn is_sse(text: &str) -> bool {
    text.starts_with("event:") || text.starts_with("data:")
}

/// The `data:` payloads of server-sent events, each a record at its line.
fn sse_records(text: &str) -> Split<'_> {
    let mut records = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        let bytes = raw.as_bytes();
        let start = skip_ws(bytes, 0);
        let line = &raw[start..];
        let payload_at = match line.strip_prefix("data:") {
            Some(payload) => start + 5 + (payload.len() - payload.trim_start().len()),
            None if line.is_empty()
                || line.starts_with(':')
                || ["event:", "id:", "retry:"]
                    .iter()
                    .any(|field| line.starts_with(field)) =>
            {
                continue
            }
            None => start,
        };
        let end = trim_end(bytes, payload_at, bytes.len());
        if payload_at >= end || &raw[payload_at..end] == "[DONE]" {
            continue;
        }
        records.push(Record {
            text: &raw[payload_at..end],
            line: i + 1,
            column: payload_at + 1,
            index: records.len(),
        });
    }
    Split {
        layout: Layout::Lines,
        records,
    }
}

/// Whether the first value (at `first`) ends on its line and more lines follow, or there is only
/// one non-blank line.
fn is_lines(bytes: &[u8], first: usize) -> bool {
    skip_ws(bytes, line_end(bytes, first)) == bytes.len() || ends_on_its_line(bytes, first)
}

/// Where the line holding offset `at` ends (its `\n`, or the end of the text).
fn line_end(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| at + p)
}

/// Whether the value starting at `first` ends on the line it starts on.
pub(crate) fn ends_on_its_line(bytes: &[u8], first: usize) -> bool {
    matches!(scan_value(bytes, first), ValueEnd::Value(end) if end <= line_end(bytes, first))
}

fn lines_records(text: &str) -> Split<'_> {
    let mut records = Vec::new();
    for (i, raw) in text.split('\n').enumerate() {
        if let Some(record) = line_record(raw, i + 1, records.len()) {
            records.push(record);
        }
    }
    Split {
        layout: Layout::Lines,
        records,
    }
}

/// One JSON Lines line (without or with its `\n`) as record `index`, its surrounding whitespace
/// trimmed; None for a blank line.
pub(crate) fn line_record(raw: &str, line: usize, index: usize) -> Option<Record<'_>> {
    let bytes = raw.as_bytes();
    let start = skip_ws(bytes, 0);
    if start == bytes.len() {
        return None;
    }
    let end = trim_end(bytes, start, bytes.len());
    Some(Record {
        text: &raw[start..end],
        line,
        column: start + 1,
        index,
    })
}

fn array_records<'a>(
    file: &str,
    text: &'a str,
    scan: &ArrayScan,
    diagnostics: &mut Vec<Diagnostic>,
) -> Split<'a> {
    let bytes = text.as_bytes();
    let mut locator = Locator::new(text);
    let mut records = Vec::with_capacity(scan.spans.len());
    let last = scan.spans.len() - 1;
    for (k, &(span_start, span_end)) in scan.spans.iter().enumerate() {
        let start = skip_ws(bytes, span_start);
        let end = trim_end(bytes, start, span_end);
        if start < end {
            let (line, column) = locator.locate(start);
            let index = records.len();
            records.push(Record {
                text: &text[start..end],
                line,
                column,
                index,
            });
        } else if last > 0 {
            // Only `[]` has a single empty span; any other empty span sits next to a comma.
            let (message, at) = if k == last {
                (
                    "trailing comma after the last array element; ignored",
                    span_start - 1,
                )
            } else {
                (
                    "empty array element (two commas in a row); skipped",
                    span_end,
                )
            };
            let (line, column) = locator.locate(at);
            diagnostics.push(Diagnostic::warning(file, Some(line), message).at_column(column));
        }
    }
    Split {
        layout: Layout::Array,
        records,
    }
}

fn document_records<'a>(
    file: &str,
    text: &'a str,
    first: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Split<'a> {
    let bytes = text.as_bytes();
    let mut locator = Locator::new(text);
    let mut records = Vec::new();
    let mut recovering = false;
    // Once a value runs to the end of the text unclosed, the brackets after it that never close
    // are all known; values starting at them are not scanned again (which would take quadratic
    // time on, say, thousands of lines holding just `[`).
    let mut unclosed: Option<Vec<usize>> = None;
    let mut i = first;
    while i < bytes.len() {
        let (line, column) = locator.locate(i);
        let known_unclosed = unclosed
            .as_ref()
            .is_some_and(|known| known.binary_search(&i).is_ok());
        let end = if known_unclosed {
            ValueEnd::Unclosed
        } else {
            scan_value(bytes, i)
        };
        if end == ValueEnd::Unclosed && unclosed.is_none() {
            unclosed = Some(unclosed_brackets(bytes, i));
        }
        let problem = match end {
            ValueEnd::Value(end) => {
                let index = records.len();
                records.push(Record {
                    text: &text[i..end],
                    line,
                    column,
                    index,
                });
                i = skip_ws(bytes, end);
                continue;
            }
            ValueEnd::Stray => {
                if !recovering {
                    let message = format!(
                        "unexpected '{}' outside any value; skipped",
                        bytes[i] as char
                    );
                    diagnostics
                        .push(Diagnostic::error(file, Some(line), message).at_column(column));
                }
                i = skip_ws(bytes, i + 1);
                continue;
            }
            ValueEnd::StringBreak(at) if at < bytes.len() => {
                let break_line = locator.line_of(at);
                i = resync(bytes, at);
                format!(
                    "value left out: a string in it is not closed on line {break_line} \
                     (a JSON string cannot span lines)"
                )
            }
            ValueEnd::StringBreak(_) => {
                i = bytes.len();
                "value left out: the file ends inside a string in it".to_string()
            }
            ValueEnd::Unclosed => {
                let open = bytes[i] as char;
                i = resync(bytes, i);
                format!("value left out: its '{open}' is never closed")
            }
        };
        let message = if i < bytes.len() {
            format!("{problem}; reading on at line {}", locator.line_of(i))
        } else {
            problem
        };
        diagnostics.push(Diagnostic::error(file, Some(line), message).at_column(column));
        recovering = true;
    }
    Split {
        layout: Layout::Document,
        records,
    }
}

/// The start of the first line after the one holding `from` whose first non-blank character is
/// `{` or `[` (that character's offset), or the text's length.
fn resync(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    loop {
        match bytes[i..].iter().position(|&b| b == b'\n') {
            None => return bytes.len(),
            Some(p) => i += p + 1,
        }
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        if i < bytes.len() && matches!(bytes[i], b'{' | b'[') {
            return i;
        }
    }
}
