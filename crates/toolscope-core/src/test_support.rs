//! What the core's unit tests share: a report from traces and labels given as text, and judge
//! verdicts.

use crate::judge::{Criterion, Outcome, TemplateRef, Verdict};
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

/// A verdict on call `step` (`tool`) of `session_id`, with `reason` and a fixed model and template.
pub(crate) fn verdict(
    session_id: &str,
    step: usize,
    tool: &str,
    criterion: Criterion,
    outcome: Outcome,
    reason: &str,
) -> Verdict {
    Verdict {
        session_id: session_id.into(),
        step,
        tool: tool.into(),
        criterion,
        verdict: outcome,
        cause: None,
        reason: reason.into(),
        evidence: Vec::new(),
        model: "m".into(),
        template: TemplateRef {
            id: "tool-call-v1".into(),
            sha256: "00".into(),
        },
        prompt_sha256: "11".into(),
    }
}

/// A session `session_id` that calls `tools` in order, each with empty arguments, and nothing
/// else.
pub(crate) fn session_calling(session_id: &str, tools: &[&str]) -> crate::model::Session {
    use crate::model::{Args, Event, ToolCall};
    crate::model::Session {
        session_id: session_id.into(),
        events: tools
            .iter()
            .map(|tool| {
                Event::ToolUse(ToolCall {
                    call_id: None,
                    name: tool.to_string(),
                    args: Args::Json(serde_json::json!({})),
                })
            })
            .collect(),
        ..crate::model::Session::default()
    }
}
