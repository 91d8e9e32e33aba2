//! JSON Lines read from a reader a line at a time, for a file too large to hold whole: each line
//! decoded and cut into a [`Record`] exactly as [`super::decode_text`] and
//! [`super::split_records`] would in the whole file, at the same line, column and index.

use std::io::{self, BufRead};

use super::decode::decode_utf8;
use super::split::line_record;
use super::Record;
use crate::diagnostic::Diagnostic;

/// The records of the lines a reader gives, after the `lines` lines (and `records` records)
/// already read from the same file.
pub(crate) struct LineRecords<R> {
    reader: R,
    /// Lines read so far: the next one is line `lines + 1`.
    lines: usize,
    /// Records given so far: the next one has this index.
    records: usize,
    buffer: Vec<u8>,
}

impl<R: BufRead> LineRecords<R> {
    pub(crate) fn new(reader: R, lines: usize, records: usize) -> Self {
        LineRecords {
            reader,
            lines,
            records,
            buffer: Vec::new(),
        }
    }

    /// Gives every non-blank line's record to `on_record`, in order, until the reader ends;
    /// decoding warnings go to `diagnostics` just before their line's record.
    pub(crate) fn for_each(
        &mut self,
        file: &str,
        diagnostics: &mut Vec<Diagnostic>,
        mut on_record: impl FnMut(&Record<'_>, &mut Vec<Diagnostic>),
    ) -> io::Result<()> {
        loop {
            self.buffer.clear();
            if self.reader.read_until(b'\n', &mut self.buffer)? == 0 {
                return Ok(());
            }
            self.lines += 1;
            let text = decode_utf8(file, &self.buffer, self.lines, diagnostics);
            if let Some(record) = line_record(&text, self.lines, self.records) {
                self.records += 1;
                on_record(&record, diagnostics);
            }
        }
    }
}
