//! toolscope's own session format: JSON Lines (one session per line), a JSON array of sessions,
//! or one session object.
//!
//! ```json
//! {"session_id": "s1", "agent_id": "support-v2", "tools": [{"name": "lookup_order", "input_schema": {}}],
//!  "events": [
//!   {"type": "user", "content": "Where is order 7Q2ZK9XA?"},
//!   {"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}},
//!   {"type": "tool_result", "call_id": "c1", "status": "ok", "content": "shipped"},
//!   {"type": "assistant", "content": "It has shipped."}]}
//! ```
//! `args` may be a JSON value or a string holding JSON, as OpenAI sends it; `null` stays null and
//! missing `args` are `{}`.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use super::native_fields::{Id, Word};
use super::odd_record::not_of_format;
use super::{content_text, id_text};
use crate::diagnostic::Diagnostic;
use crate::hashing::HashMap;
use crate::inputs::catalog::tools_from_value;
use crate::json::{parse_record, parse_value, Record, Split};
use crate::model::{
    Args, ErrorSource, Event, Origin, ParentLink, ResultStatus, Session, ToolCall, ToolDef,
    ToolResult, Trial,
};

#[derive(Deserialize)]
struct RawSession {
    session_id: Option<Id>,
    agent_id: Option<Id>,
    task_id: Option<Id>,
    trial: Option<Value>,
    reward: Option<Value>,
    started_at: Option<Id>,
    parent: Option<Value>,
    // Kept as text: sessions usually repeat one list, which is then read once.
    tools: Option<Box<RawValue>>,
    events: Option<Vec<RawEvent>>,
}

// Every field reads any JSON value, so that one odd event is one diagnostic, not a lost session.
#[derive(Deserialize)]
struct RawEvent {
    #[serde(rename = "type")]
    kind: Option<Word>,
    content: Option<Value>,
    call_id: Option<Id>,
    name: Option<Value>,
    // `"args": null` stays null (checked as null, as the seed checks None); absent is `{}`.
    #[serde(default, deserialize_with = "crate::json::keep_null")]
    args: Option<Value>,
    status: Option<Word>,
    error_source: Option<Word>,
}

/// What a native record is, for the diagnostic on one that is not.
const EXPECTED: &str = "a toolscope session ({\"session_id\", \"events\"})";

/// Reads every record of a native file; each bad record or event is a diagnostic.
pub fn read(file: &str, split: &Split<'_>, diagnostics: &mut Vec<Diagnostic>) -> Vec<Session> {
    read_reporting(file, split, diagnostics, &mut |_| {})
}

/// How many records are read between two progress reports.
const PROGRESS_EVERY: usize = 1024;

/// [`read`], telling `progress` the share of the records read so far, every
/// 1,024 records (`PROGRESS_EVERY`).
pub fn read_reporting(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(f64),
) -> Vec<Session> {
    let mut sessions = Vec::with_capacity(split.records.len());
    let mut reader = RecordReader::default();
    let count = split.records.len();
    for (index, record) in split.records.iter().enumerate() {
        if index.is_multiple_of(PROGRESS_EVERY) {
            progress(index as f64 / count as f64);
        }
        reader.read(file, record, diagnostics, &mut |session| {
            sessions.push(session)
        });
    }
    sessions
}

/// Reads native records one at a time (a file read in pieces gives them so), sharing the tool
/// lists of the records already read.
#[derive(Default)]
pub(crate) struct RecordReader {
    tool_lists: ToolLists,
}

impl RecordReader {
    /// Reads one record: a session for `on_session`, or a diagnostic saying what is wrong.
    pub(crate) fn read(
        &mut self,
        file: &str,
        record: &Record<'_>,
        diagnostics: &mut Vec<Diagnostic>,
        on_session: &mut dyn FnMut(Session),
    ) {
        if !record.text.starts_with('{') {
            // Sessions are objects: say what this record is rather than serde's "invalid type".
            if let Some(value) = parse_value(file, record, diagnostics) {
                diagnostics.push(not_of_format(file, record.line, &value, EXPECTED));
            }
            return;
        }
        match parse_record::<RawSession>(file, record, diagnostics) {
            Ok(raw) if raw.session_id.is_none() && raw.events.is_none() => {
                // A header line or another format's record: named by what it is. Its warnings
                // were given by the read above.
                let mut repeated = Vec::new();
                match parse_record::<Value>(file, record, &mut repeated) {
                    Ok(value) => {
                        diagnostics.push(not_of_format(file, record.line, &value, EXPECTED))
                    }
                    // What the typed read skipped may still be unreadable as a value (nesting
                    // past the limit in a field no session has): named like any unread line.
                    Err(diagnostic) => diagnostics.push(diagnostic),
                }
            }
            Ok(raw) => {
                let origin = Origin {
                    file: file.to_string(),
                    line: record.line,
                };
                if let Some(session) =
                    session_from_raw(raw, origin, &mut self.tool_lists, diagnostics)
                {
                    on_session(session);
                }
            }
            Err(diagnostic) => diagnostics.push(diagnostic),
        }
    }
}

fn session_from_raw(
    raw: RawSession,
    origin: Origin,
    tool_lists: &mut ToolLists,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Session> {
    let file = origin.file.clone();
    let line = Some(origin.line);
    let session_id = match raw.session_id.and_then(|id| id.0) {
        Some(id) => id,
        None => {
            let id = format!("{}:{}", super::file_stem(&file), origin.line);
            diagnostics.push(Diagnostic::warning(
                &file,
                line,
                format!("session has no \"session_id\"; called it {id:?}"),
            ));
            id
        }
    };
    let Some(raw_events) = raw.events else {
        diagnostics.push(Diagnostic::error(
            &file,
            line,
            format!("session {session_id:?} has no \"events\"; left out"),
        ));
        return None;
    };
    let tools = raw
        .tools
        .and_then(|raw_tools| match tool_lists.read(raw_tools.get()) {
            Ok(tools) => Some(tools),
            Err(message) => {
                diagnostics.push(Diagnostic::error(
                    &file,
                    line,
                    format!("session {session_id:?}: \"tools\": {message}; its tools are ignored"),
                ));
                None
            }
        });
    let mut events = Vec::with_capacity(raw_events.len());
    for (index, raw_event) in raw_events.into_iter().enumerate() {
        match event_from_raw(raw_event) {
            Ok(event) => events.push(event),
            Err(message) => diagnostics.push(Diagnostic::error(
                &file,
                line,
                format!(
                    "session {session_id:?}, event {}: {message}; event left out",
                    index + 1
                ),
            )),
        }
    }
    Some(Session {
        session_id,
        agent_id: raw.agent_id.and_then(|id| id.0),
        task_id: raw.task_id.and_then(|id| id.0),
        trial: raw
            .reward
            .as_ref()
            .and_then(Value::as_f64)
            .filter(|reward| reward.is_finite())
            .map(|reward| Trial {
                number: raw.trial.as_ref().and_then(Value::as_u64),
                reward,
            }),
        started_at: raw.started_at.and_then(|id| id.0),
        parent: raw.parent.as_ref().and_then(parent_link),
        started_subagents: Vec::new(),
        tools,
        events,
        origin,
    })
}

fn event_from_raw(raw: RawEvent) -> Result<Event, String> {
    let kind = match &raw.kind {
        Some(Word::NotText) => return Err("\"type\" must be a string".to_string()),
        Some(word) => word.as_str().unwrap_or_default(),
        None => return Err("event has no \"type\"".to_string()),
    };
    let call_id = raw.call_id.and_then(|id| id.0);
    match kind {
        "user" => Ok(Event::User {
            content: content_text(raw.content.unwrap_or(Value::Null)),
        }),
        "assistant" => Ok(Event::Assistant {
            content: content_text(raw.content.unwrap_or(Value::Null)),
        }),
        "tool_use" => {
            let name = match raw.name {
                Some(Value::String(name)) => name,
                _ => return Err("tool_use has no \"name\" string".to_string()),
            };
            let args = Args::from_sent(
                raw.args
                    .unwrap_or_else(|| Value::Object(Default::default())),
            );
            Ok(Event::ToolUse(ToolCall {
                call_id,
                name,
                args,
            }))
        }
        "tool_result" => {
            let status = match raw.status.as_ref().and_then(Word::as_str) {
                None | Some("ok") => ResultStatus::Ok,
                Some("error") => ResultStatus::Error,
                Some(other) => {
                    return Err(format!("\"status\" is \"ok\" or \"error\", not {other:?}"))
                }
            };
            let error_source = match raw.error_source.as_ref().and_then(Word::as_str) {
                None => None,
                Some("agent") => Some(ErrorSource::Agent),
                Some("environment") => Some(ErrorSource::Environment),
                Some(other) => {
                    return Err(format!(
                        "\"error_source\" is \"agent\" or \"environment\", not {other:?}"
                    ))
                }
            };
            Ok(Event::ToolResult(ToolResult {
                call_id,
                status,
                content: raw.content.map(content_text),
                error_source,
                is_status_inferred: false,
            }))
        }
        other => Err(format!(
            "unknown event type {other:?} (expected user, assistant, tool_use or tool_result)"
        )),
    }
}

/// Tool lists already read from this file, by their JSON text.
#[derive(Default)]
pub(crate) struct ToolLists {
    by_text: HashMap<String, Arc<Vec<ToolDef>>>,
}

impl ToolLists {
    pub(crate) fn read(&mut self, text: &str) -> Result<Arc<Vec<ToolDef>>, String> {
        if let Some(tools) = self.by_text.get(text) {
            return Ok(Arc::clone(tools));
        }
        let value: Value = serde_json::from_str(text).map_err(|error| error.to_string())?;
        let tools = Arc::new(tools_from_value(&value)?);
        self.by_text.insert(text.to_string(), Arc::clone(&tools));
        Ok(tools)
    }
}

/// `"parent": {"session_id", "call_id"}`: the session (and call) that started this one; a bare
/// id names the session alone.
fn parent_link(value: &Value) -> Option<ParentLink> {
    match value {
        Value::Object(map) => Some(ParentLink {
            session_id: map.get("session_id").and_then(id_text)?,
            call_id: map.get("call_id").and_then(id_text),
        }),
        other => id_text(other).map(|session_id| ParentLink {
            session_id,
            call_id: None,
        }),
    }
}

/// The session on line `line` (1-based) of a trace file in the native JSON Lines format, from
/// that line's bytes as they are in the file: what reading the whole file gives for it, before
/// ids are made unique across inputs. None when the line holds no session. A viewer that keeps
/// where each session is, rather than every session, reads them again with this.
pub fn read_line_session(file: &str, line: usize, bytes: &[u8]) -> Option<Session> {
    let mut ignored = Vec::new();
    let bytes = match line {
        1 => bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes),
        _ => bytes,
    };
    let text = crate::json::decode_utf8(file, bytes, line, &mut ignored);
    let start = text.len() - text.trim_start().len();
    let record = Record {
        text: text.trim(),
        line,
        column: text[..start].chars().count() + 1,
        index: 0,
    };
    let mut session = None;
    RecordReader::default().read(file, &record, &mut ignored, &mut |read| {
        session = Some(read)
    });
    session
}
