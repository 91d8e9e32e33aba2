//! Trace readers: each turns one export format into [`Session`]s (and, for formats that carry
//! them, [`Label`]s). The format is detected from the content, never the file name.

mod content;
pub mod eval_cases;
pub mod native;
pub mod seed_calls;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::inputs::labels::Label;
use crate::json::{decode_text, parse_record, split_records, Layout, Split};
use crate::model::Session;

pub use content::content_text;

/// The trace formats toolscope reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceFormat {
    /// toolscope's own session format (JSON Lines or an array of sessions).
    Native,
    /// A bare JSON array of `{"name", "args"}` calls: one session, as in the seed's `check_calls`.
    SeedCalls,
    /// The seed's `eval_cases` list, each case with the agent's `tool_calls`: sessions and labels.
    EvalCases,
}

/// What a trace file held.
#[derive(Debug, Default)]
pub struct TraceRead {
    /// The detected format and why, or None when nothing could be read.
    pub format: Option<(TraceFormat, String)>,
    /// The sessions read.
    pub sessions: Vec<Session>,
    /// Labels the format carries alongside its traces.
    pub labels: Vec<Label>,
}

/// Reads a trace file in whatever supported format it is.
pub fn read_traces(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> TraceRead {
    let text = decode_text(file, bytes, diagnostics);
    let split = split_records(file, &text, diagnostics);
    let Some((format, reason)) = detect(file, &split, diagnostics) else {
        return TraceRead::default();
    };
    let mut read = TraceRead {
        format: Some((format, reason)),
        ..TraceRead::default()
    };
    match format {
        TraceFormat::Native => read.sessions = native::read(file, &split, diagnostics),
        TraceFormat::SeedCalls => read.sessions = seed_calls::read(file, &split, diagnostics),
        TraceFormat::EvalCases => {
            let (sessions, labels) = eval_cases::read(file, &split, diagnostics);
            read.sessions = sessions;
            read.labels = labels;
        }
    }
    read
}

/// Detects the format from the first record that parses.
fn detect(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(TraceFormat, String)> {
    let mut scratch = Vec::new();
    let first = split
        .records
        .iter()
        .find_map(|record| parse_record::<Value>(file, record, &mut scratch).ok())?;
    let has = |key: &str| first.get(key).is_some();
    let format = if has("events") || has("session_id") && !has("expected_tool") {
        (
            TraceFormat::Native,
            "records have \"events\": toolscope session format".to_string(),
        )
    } else if split.layout == Layout::Array && (has("user_input") || has("expected_tool")) {
        (
            TraceFormat::EvalCases,
            "an array of cases with \"user_input\"/\"expected_tool\": eval cases".to_string(),
        )
    } else if split.layout == Layout::Array && first.get("name").is_some_and(Value::is_string) {
        (
            TraceFormat::SeedCalls,
            "an array of {\"name\", \"args\"} calls: one session".to_string(),
        )
    } else {
        diagnostics.push(Diagnostic::error(
            file,
            split.records.first().map(|record| record.line),
            "not a trace format toolscope reads: tried toolscope sessions (records with \
             \"events\"), eval cases (an array with \"user_input\"), and a bare array of \
             {\"name\", \"args\"} calls",
        ));
        return None;
    };
    Some(format)
}

/// The name a file gives a session that has no id of its own: the file name without folders or
/// extension.
pub(crate) fn file_stem(file: &str) -> &str {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match name.find('.') {
        Some(0) | None => name,
        Some(dot) => &name[..dot],
    }
}

/// A JSON id (string or number) as text.
pub(crate) fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}
