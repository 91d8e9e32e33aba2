//! Tests of reading real exports: helpers shared by the test files.

mod decode;
mod parse;
mod props;
mod split;

use super::{parse_record, split_records, Layout, Record, Split};
use crate::diagnostic::{Diagnostic, Severity};
use serde_json::Value;

const FILE: &str = "trace.jsonl";

fn split_text(text: &str) -> (Split<'_>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let split = split_records(FILE, text, &mut diagnostics);
    (split, diagnostics)
}

fn record(text: &str, line: usize, column: usize) -> Record<'_> {
    Record {
        text,
        line,
        column,
        index: 0,
    }
}

/// Parses one record as a `Value`, with the warnings.
fn parse(record: &Record<'_>) -> (Result<Value, Diagnostic>, Vec<Diagnostic>) {
    let mut warnings = Vec::new();
    let result = parse_record::<Value>(FILE, record, &mut warnings);
    (result, warnings)
}

/// Splits and parses a whole text: the (line, value) of each record read, and every diagnostic.
fn load(text: &str) -> (Layout, Vec<(usize, Value)>, Vec<Diagnostic>) {
    let (split, mut diagnostics) = split_text(text);
    let mut values = Vec::new();
    for record in &split.records {
        match parse_record::<Value>(FILE, record, &mut diagnostics) {
            Ok(value) => values.push((record.line, value)),
            Err(error) => diagnostics.push(error),
        }
    }
    (split.layout, values, diagnostics)
}

fn errors(diagnostics: &[Diagnostic]) -> Vec<&Diagnostic> {
    diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .collect()
}

/// The byte offset of a 1-based line and character column in `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let line_start = match line {
        0 | 1 => 0,
        _ => text
            .match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1),
    };
    text[line_start..]
        .char_indices()
        .nth(column - 1)
        .map_or(text.len(), |(i, _)| line_start + i)
}
