//! Byte offsets to 1-based file lines and character columns.

use super::Record;

/// Number of characters in UTF-8 bytes (bytes that do not continue a character).
pub(crate) fn count_chars(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

/// Number of `\n` bytes.
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    bytes.iter().filter(|&&b| b == b'\n').count()
}

/// Largest char boundary of `text` at or before `offset` (clamped to the text's length).
pub(crate) fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Finds the (line, column) of byte offsets in one text. Cheap when the offsets asked for do not
/// decrease (each byte is looked at once); correct, but slower, when they do.
pub(crate) struct Locator<'a> {
    bytes: &'a [u8],
    /// Offset up to which lines are counted.
    pos: usize,
    /// 1-based line of `pos`.
    line: usize,
    /// Offset of a point on the current line whose column is known, and that column.
    col_pos: usize,
    col: usize,
}

impl<'a> Locator<'a> {
    /// A locator for `text`, starting at its beginning.
    pub(crate) fn new(text: &'a str) -> Self {
        Locator::new_bytes(text.as_bytes())
    }

    /// The 1-based line and character column of byte `offset`.
    pub(crate) fn locate(&mut self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.bytes.len());
        if offset < self.pos {
            *self = Locator::new_bytes(self.bytes);
        }
        let seg = &self.bytes[self.pos..offset];
        if let Some(last) = seg.iter().rposition(|&b| b == b'\n') {
            self.line += count_newlines(seg);
            self.col_pos = self.pos + last + 1;
            self.col = 1;
        }
        self.col += count_chars(&self.bytes[self.col_pos..offset]);
        self.col_pos = offset;
        self.pos = offset;
        (self.line, self.col)
    }

    /// The 1-based line of byte `offset` (same cost rules as [`Locator::locate`]).
    pub(crate) fn line_of(&mut self, offset: usize) -> usize {
        self.locate(offset).0
    }

    fn new_bytes(bytes: &'a [u8]) -> Self {
        Locator {
            bytes,
            pos: 0,
            line: 1,
            col_pos: 0,
            col: 1,
        }
    }
}

/// The file (line, column) of byte `offset` inside a record's text.
pub(crate) fn record_position(record: &Record<'_>, offset: usize) -> (usize, usize) {
    let offset = floor_boundary(record.text, offset);
    let before = &record.text.as_bytes()[..offset];
    match before.iter().rposition(|&b| b == b'\n') {
        None => (record.line, record.column + count_chars(before)),
        Some(last) => (
            record.line + count_newlines(before),
            1 + count_chars(&before[last + 1..]),
        ),
    }
}

/// The byte offset in `text` of `serde_json`'s 1-based line and (byte) column, if it gave one.
pub(crate) fn serde_offset(text: &str, line: usize, column: usize) -> Option<usize> {
    if line == 0 {
        return None;
    }
    let bytes = text.as_bytes();
    let mut line_start = 0;
    for _ in 1..line {
        match bytes[line_start..].iter().position(|&b| b == b'\n') {
            Some(nl) => line_start += nl + 1,
            None => break,
        }
    }
    Some(floor_boundary(text, line_start + column.saturating_sub(1)))
}
