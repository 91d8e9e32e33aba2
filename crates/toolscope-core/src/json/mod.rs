//! Reading JSON as real tools export it.
//!
//! Exports hold things `serde_json` rejects or silently changes: a UTF-8 BOM, UTF-16 text, bytes
//! that are not UTF-8, Python's `NaN` and `Infinity`, lone surrogate escapes, very deep nesting,
//! integers beyond 64 bits, numbers beyond the largest float, and lines that are not JSON at all.
//! Reading goes in three steps, each of which reports what it finds as [`Diagnostic`]s and never
//! gives up on the whole file:
//!
//! 1. [`decode_text`]: bytes to text.
//! 2. [`split_records`]: text to [`Record`]s (JSON Lines, the elements of one top-level array, or a
//!    sequence of possibly pretty-printed values), each with the file line and column it starts at.
//! 3. [`parse_record`]: one record to any `DeserializeOwned` type. Clean records go straight
//!    through `serde_json`; only a record that fails is sanitised and retried.
//!
//! No step panics, whatever the input.

mod decode;
mod lenient;
pub(crate) mod lines;
mod locate;
mod numbers;
pub(crate) mod pretty;
mod sanitise;
pub(crate) mod scan;
mod shape;
pub(crate) mod split;

#[cfg(test)]
mod tests;

use crate::diagnostic::Diagnostic;
use serde::de::DeserializeOwned;

pub use decode::decode_text;
pub(crate) use decode::decode_utf8;
pub(crate) use decode::is_utf16;
pub use shape::parse_shape;
pub use split::split_records;

/// The deepest nesting of arrays and objects a record may have; deeper records are left out with
/// an error, so that parsing never recurses without bound (WebAssembly has a small stack).
pub const MAX_DEPTH: usize = 128;

/// How a file's records are laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Layout {
    /// JSON Lines: every non-blank line is one record.
    Lines,
    /// One top-level JSON array: its elements are the records.
    Array,
    /// One or more top-level JSON values, possibly pretty-printed over many lines, that are not a
    /// single array: each value is a record.
    Document,
}

/// One record (a JSON Lines line, an array element, or a top-level value) and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Record<'a> {
    /// The record's text, without surrounding whitespace.
    pub text: &'a str,
    /// 1-based line in the file where the record starts.
    pub line: usize,
    /// 1-based column (in characters) on that line where the record starts.
    pub column: usize,
    /// 0-based position of the record among the records of its file.
    pub index: usize,
}

/// A file's text cut into records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split<'a> {
    /// How the records were laid out in the file.
    pub layout: Layout,
    /// The records, in file order.
    pub records: Vec<Record<'a>>,
}

/// Parses one record leniently into any `DeserializeOwned` type (`serde_json::Value` or a typed
/// struct).
///
/// A clean record costs one `serde_json::from_str` plus a cheap scan for integers beyond 64 bits
/// (which `serde_json` reads as floats; each such record gets a warning). A record that fails is
/// scanned once: `NaN`, `Infinity` and `-Infinity` outside strings become `null`, numbers beyond
/// the largest float (`1e400`, an integer of hundreds of digits) become the largest float of
/// their sign, and lone surrogate escapes become `\uFFFD` (a warning each), nesting deeper than
/// [`MAX_DEPTH`] is an error, and the sanitised copy is parsed again. Any remaining failure is
/// returned as an error [`Diagnostic`] at the file line and column where `serde_json` stopped.
/// Warnings go to `warnings` only when the record is read.
pub fn parse_record<T: DeserializeOwned>(
    file: &str,
    record: &Record<'_>,
    warnings: &mut Vec<Diagnostic>,
) -> Result<T, Diagnostic> {
    match serde_json::from_str::<T>(record.text) {
        Ok(value) => {
            numbers::warn_big_integers(file, record, warnings);
            Ok(value)
        }
        Err(error) => lenient::recover(file, record, error, warnings),
    }
}

/// For `#[serde(default, deserialize_with = "crate::json::keep_null")]` on an `Option<Value>`
/// field: a field that is JSON `null` reads as `Some(Value::Null)`, and only an absent one as
/// `None` (serde's own `Option` reads both as `None`). A call's arguments need the difference:
/// `null` is not an object and the schema check says so, while absent arguments are none given.
pub(crate) fn keep_null<'de, D>(deserializer: D) -> Result<Option<serde_json::Value>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    serde::Deserialize::deserialize(deserializer).map(Some)
}

/// [`parse_record`] into a JSON value for readers that keep going past a bad record: the
/// failure becomes one more diagnostic and the record is skipped (None).
pub fn parse_value(
    file: &str,
    record: &Record<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<serde_json::Value> {
    match parse_record(file, record, diagnostics) {
        Ok(value) => Some(value),
        Err(diagnostic) => {
            diagnostics.push(diagnostic);
            None
        }
    }
}
