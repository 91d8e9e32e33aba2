//! What the core's unit tests share: a report from traces and labels given as text.

use crate::{Analysis, InputFile, Options, Report, Role};

/// The report of `sessions` (native JSON Lines) with `labels` (JSON Lines; empty for none).
pub(crate) fn report_of(sessions: &str, labels: &str) -> Report {
    let mut inputs = vec![InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces)];
    if !labels.is_empty() {
        inputs.push(InputFile::new("l.jsonl", labels.as_bytes(), Role::Labels));
    }
    Analysis::new(&inputs, &Options::default(), &mut |_| {})
        .report()
        .clone()
}
