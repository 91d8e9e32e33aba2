//! Readers for the inputs that are not traces: tool catalogs, ordering rules and labels.

pub mod catalog;
pub mod labels;
pub mod rules;
pub mod task_labels;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::json::{decode_text, parse_value, split_records, Record};

/// Reads every record of a file as a JSON value, each with the line it starts on; records that
/// are not JSON become diagnostics and the others are still returned.
pub(crate) fn read_values(
    file: &str,
    bytes: &[u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> (crate::json::Layout, Vec<(usize, Value)>) {
    let text = decode_text(file, bytes, diagnostics);
    let split = split_records(file, &text, diagnostics);
    let values = split
        .records
        .iter()
        .filter_map(|record: &Record<'_>| {
            parse_value(file, record, diagnostics).map(|value| (record.line, value))
        })
        .collect();
    (split.layout, values)
}
