//! Pretty JSON as `serde_json::to_writer_pretty` writes it (two spaces a level), byte for byte,
//! with fewer writes: serde_json's `PrettyFormatter` writes a line's indentation one level at a
//! time, a call each, and a full report's lines are millions (a call-dense report of 81 MB has
//! about 9 million); [`Pretty`] writes a line's comma, break and indentation as one slice.

use std::io;

use serde::Serialize;
use serde_json::ser::Formatter;

/// How many levels [`LINE`] indents at once; deeper lines take more writes.
const LEVELS: usize = 32;

/// `,`, a line break, and the indentation of [`LEVELS`] levels.
const LINE: [u8; 2 + 2 * LEVELS] = {
    let mut line = [b' '; 2 + 2 * LEVELS];
    line[0] = b',';
    line[1] = b'\n';
    line
};

/// Writes `value` as pretty JSON: the same bytes as `serde_json::to_writer_pretty`.
pub(crate) fn to_writer_pretty<W: io::Write, T: Serialize + ?Sized>(
    writer: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut serializer = serde_json::Serializer::with_formatter(writer, Pretty::default());
    value.serialize(&mut serializer)
}

/// serde_json's `PrettyFormatter` with two spaces a level, writing each line start at once.
#[derive(Default)]
pub(crate) struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    /// Starts a line at the current depth: `,` first unless `is_first`.
    fn new_line<W: ?Sized + io::Write>(&self, writer: &mut W, is_first: bool) -> io::Result<()> {
        let start = usize::from(is_first);
        let levels = self.depth.min(LEVELS);
        writer.write_all(&LINE[start..2 + 2 * levels])?;
        for _ in LEVELS..self.depth {
            writer.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Opens an array or object with `open`, a level deeper.
    fn open<W: ?Sized + io::Write>(&mut self, writer: &mut W, open: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        writer.write_all(open)
    }

    /// Closes an array or object with `close`, on a line of its own when it has values.
    fn close<W: ?Sized + io::Write>(&mut self, writer: &mut W, close: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.new_line(writer, true)?;
        }
        writer.write_all(close)
    }
}

impl Formatter for Pretty {
    #[inline]
    fn begin_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"[")
    }

    #[inline]
    fn end_array<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"]")
    }

    #[inline]
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    #[inline]
    fn end_array_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    #[inline]
    fn begin_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.open(writer, b"{")
    }

    #[inline]
    fn end_object<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.close(writer, b"}")
    }

    #[inline]
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.new_line(writer, first)
    }

    #[inline]
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        writer.write_all(b": ")
    }

    #[inline]
    fn end_object_value<W: ?Sized + io::Write>(&mut self, _writer: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn both(value: &Value) -> (String, String) {
        let mut ours = Vec::new();
        to_writer_pretty(&mut ours, value).unwrap();
        let theirs = serde_json::to_string_pretty(value).unwrap();
        (String::from_utf8(ours).unwrap(), theirs)
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let values = [
            json!(null),
            json!([]),
            json!({}),
            json!([[]]),
            json!({"a": {}}),
            json!({"a": [1, {"b": [], "c": {"d": "e\n\"f\""}}], "g": [[[true]]], "h": 1.5}),
            json!([{"x": []}, {"y": {}}, [], {}]),
        ];
        for value in values {
            let (ours, theirs) = both(&value);
            assert_eq!(ours, theirs, "for {value}");
        }
    }

    #[test]
    fn indents_past_the_levels_written_at_once() {
        // 40 levels: lines deeper than LEVELS take a write per extra level.
        let mut value = json!({"leaf": [1, 2]});
        for depth in 0..40 {
            value = if depth % 2 == 0 {
                json!([value, depth])
            } else {
                json!({"k": value, "n": {}})
            };
        }
        let (ours, theirs) = both(&value);
        assert!(theirs.contains(&format!("\n{}", " ".repeat(2 * 40))));
        assert_eq!(ours, theirs);
    }
}
