//! Structural scanning: strings (with escapes) and bracket depth only; literals are not checked.

/// JSON whitespace.
pub(crate) fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first offset at or after `i` that is not JSON whitespace (or the length).
pub(crate) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_ws(bytes[i]) {
        i += 1;
    }
    i
}

/// The end of `bytes[..end]` without trailing JSON whitespace, not before `start`.
pub(crate) fn trim_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && is_ws(bytes[end - 1]) {
        end -= 1;
    }
    end
}

/// Where a string's scan stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StringEnd {
    /// Closed; the offset just after the closing quote.
    Closed(usize),
    /// A raw line break at this offset (only when asked to stop there).
    Newline(usize),
    /// The text ended inside the string.
    Eof,
}

/// Scans a string whose opening quote is just before `i`.
pub(crate) fn skip_string(bytes: &[u8], mut i: usize, stop_at_newline: bool) -> StringEnd {
    while i < bytes.len() {
        match bytes[i] {
            b'"' => return StringEnd::Closed(i + 1),
            b'\\' => {
                if stop_at_newline && bytes.get(i + 1) == Some(&b'\n') {
                    return StringEnd::Newline(i + 1);
                }
                i += 2;
            }
            b'\n' if stop_at_newline => return StringEnd::Newline(i),
            _ => i += 1,
        }
    }
    StringEnd::Eof
}

/// A top-level array whose brackets close.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ArrayScan {
    /// The spans between the top-level commas (untrimmed; one span for `[]`).
    pub(crate) spans: Vec<(usize, usize)>,
    /// Offset just after the closing `]`.
    pub(crate) end: usize,
}

/// Scans the array opening at `open`, splitting it at its top-level commas. `None` when its
/// brackets never close, or close with `}`.
pub(crate) fn scan_array(bytes: &[u8], open: usize) -> Option<ArrayScan> {
    let mut spans = Vec::new();
    let mut depth = 0usize;
    let mut element_start = open + 1;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match skip_string(bytes, i + 1, false) {
                StringEnd::Closed(end) => {
                    i = end;
                    continue;
                }
                StringEnd::Newline(_) | StringEnd::Eof => return None,
            },
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    if bytes[i] != b']' {
                        return None;
                    }
                    spans.push((element_start, i));
                    return Some(ArrayScan { spans, end: i + 1 });
                }
            }
            b',' if depth == 1 => {
                spans.push((element_start, i));
                element_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// How scanning one top-level value ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueEnd {
    /// A value; the offset just after it.
    Value(usize),
    /// A `,` `:` `]` or `}` where a value should start.
    Stray,
    /// A string (in the value) not closed on its line; the offset of the line break, or of the
    /// end of the text.
    StringBreak(usize),
    /// Brackets not closed by the end of the text.
    Unclosed,
}

/// Scans the value starting at non-whitespace offset `i`: a bracketed structure, a string, or a
/// bare token running to the next whitespace or structural character. A string may not span
/// lines (JSON forbids raw line breaks in strings), so a missing quote is caught on its line.
pub(crate) fn scan_value(bytes: &[u8], i: usize) -> ValueEnd {
    match bytes[i] {
        b',' | b':' | b']' | b'}' => ValueEnd::Stray,
        b'"' => string_value(bytes, i + 1),
        b'[' | b'{' => bracketed_value(bytes, i),
        _ => {
            let mut end = i + 1;
            while end < bytes.len() && !is_ws(bytes[end]) && !is_structural(bytes[end]) {
                end += 1;
            }
            ValueEnd::Value(end)
        }
    }
}

fn is_structural(b: u8) -> bool {
    matches!(b, b'[' | b']' | b'{' | b'}' | b',' | b':' | b'"')
}

fn string_value(bytes: &[u8], i: usize) -> ValueEnd {
    match skip_string(bytes, i, true) {
        StringEnd::Closed(end) => ValueEnd::Value(end),
        StringEnd::Newline(at) => ValueEnd::StringBreak(at),
        StringEnd::Eof => ValueEnd::StringBreak(bytes.len()),
    }
}

fn bracketed_value(bytes: &[u8], open: usize) -> ValueEnd {
    let mut depth = 0usize;
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match skip_string(bytes, i + 1, true) {
                StringEnd::Closed(end) => {
                    i = end;
                    continue;
                }
                StringEnd::Newline(at) => return ValueEnd::StringBreak(at),
                StringEnd::Eof => return ValueEnd::StringBreak(bytes.len()),
            },
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return ValueEnd::Value(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    ValueEnd::Unclosed
}

/// Offsets, ascending, of the brackets from `open` on that are never closed, where the value at
/// `open` was scanned by [`scan_value`] and found [`ValueEnd::Unclosed`]. Every value starting
/// after `open` at a place [`scan_value`] would reach is scanned the same way, so it is unclosed
/// exactly when it starts at one of these offsets.
pub(crate) fn unclosed_brackets(bytes: &[u8], open: usize) -> Vec<usize> {
    let mut open_brackets = Vec::new();
    let mut i = open;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => match skip_string(bytes, i + 1, true) {
                StringEnd::Closed(end) => {
                    i = end;
                    continue;
                }
                // Not met after an unclosed value (its scan would have stopped there).
                StringEnd::Newline(_) | StringEnd::Eof => break,
            },
            b'[' | b'{' => open_brackets.push(i),
            b']' | b'}' => {
                open_brackets.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open_brackets
}
