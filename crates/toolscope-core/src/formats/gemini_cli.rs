//! Gemini CLI chat recordings: the session files Gemini CLI keeps under
//! `~/.gemini/tmp/<project hash>/chats/` — JSON Lines (`session-<time>-<id>.jsonl`: a metadata
//! line, then message records, `{"$set": {...}}` updates and `{"$rewindTo": id}` rewinds) or,
//! before that, one JSON document (`session-….json`: the metadata with its `messages`).
//!
//! ```json
//! {"sessionId": "5c1e…", "projectHash": "9f2b…", "startTime": "2026-03-02T09:00:00.000Z", "kind": "main"}
//! {"id": "m1", "timestamp": "…", "type": "user", "content": [{"text": "List the files"}]}
//! {"id": "m2", "timestamp": "…", "type": "gemini", "content": "", "model": "gemini-2.5-pro",
//!  "toolCalls": [{"id": "c1", "name": "list_directory", "args": {"path": "."}, "status": "error",
//!   "result": [{"functionResponse": {"id": "c1", "name": "list_directory",
//!                                     "response": {"error": "Path does not exist"}}}]}]}
//! ```
//! `user` messages are user turns, but for the CLI's own: the tool results it sends back (only
//! `functionResponse` parts) and the context it adds (`<session_context>`, `<hook_context>`).
//! `gemini` messages are the model's text and its `toolCalls`, each a call and its result (the
//! `functionResponse`'s `output` or `error`, else the result's text); `status` is the explicit
//! flag (`error` and `cancelled` are errors). `info`, `error` and `warning` messages are the
//! CLI's own notices: not events. As Gemini CLI loads a session, a message record repeating an
//! `id` replaces the earlier one in its place, a rewind drops the messages from the one it names
//! on, and a `$set` of `messages` replaces them all. A subagent's recording (`kind: "subagent"`)
//! is a session of agent `gemini-cli/subagent`; the main one's agent is `gemini-cli`. A tool call
//! that ran a subagent names it (`agentId`, the subagent recording's `sessionId`): the subagent
//! linking (`nesting.rs`) links that recording, read from its own file, to the call.

use serde_json::Value;

use super::conversation::{args_from, str_field, Conversation};
use super::nesting::UNKNOWN_SUBAGENT;
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::json::{parse_value, Split};
use crate::model::{Session, StartedSubagent};

/// The main agent's id.
const AGENT: &str = "gemini-cli";

/// What the reader expects of a record.
const EXPECTED: &str =
    "a Gemini CLI chat record (a {\"sessionId\", \"projectHash\"} line, a message with \"id\" and \"type\", \"$set\" or \"$rewindTo\")";

/// Whether a record is a Gemini CLI recording's metadata (a JSON Lines file's first line, or a
/// whole `.json` recording).
pub(crate) fn is_record(value: &Value) -> bool {
    value.get("sessionId").is_some_and(Value::is_string)
        && value.get("projectHash").is_some_and(Value::is_string)
}

/// A recording being read: its metadata and its messages by id, in first-seen order.
struct Recording {
    meta: Value,
    line: usize,
    order: Vec<String>,
    messages: HashMap<String, (Value, usize)>,
}

impl Recording {
    fn new(meta: Value, line: usize) -> Self {
        Recording {
            meta,
            line,
            order: Vec::new(),
            messages: HashMap::new(),
        }
    }

    fn push(&mut self, message: Value, line: usize) {
        let Some(id) = str_field(&message, "id").map(str::to_string) else {
            return;
        };
        if !self.messages.contains_key(&id) {
            self.order.push(id.clone());
        }
        self.messages.insert(id, (message, line));
    }

    /// Replaces every message with `messages`.
    fn replace_messages(&mut self, messages: Vec<Value>, line: usize) {
        self.order.clear();
        self.messages.clear();
        for message in messages {
            self.push(message, line);
        }
    }

    /// Drops the message `id` and every message after it (all of them when none has the id).
    fn rewind(&mut self, id: &str) {
        let from = self.order.iter().position(|seen| seen == id).unwrap_or(0);
        for dropped in self.order.drain(from..) {
            self.messages.remove(&dropped);
        }
    }
}

/// Reads every recording of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let mut recordings: Vec<Recording> = Vec::new();
    for record in &split.records {
        let Some(mut value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let line = record.line;
        if is_record(&value) {
            let messages = match value.get_mut("messages").map(Value::take) {
                Some(Value::Array(messages)) => messages,
                _ => Vec::new(),
            };
            let mut recording = Recording::new(value, line);
            for message in messages {
                recording.push(message, line);
            }
            recordings.push(recording);
            continue;
        }
        let Some(recording) = recordings.last_mut() else {
            diagnostics.push(not_of_format(file, line, &value, EXPECTED));
            continue;
        };
        if let Some(id) = str_field(&value, "$rewindTo") {
            recording.rewind(id);
        } else if let Some(Value::Object(updates)) = value.get_mut("$set") {
            // A `messages` update replaces every message (Gemini CLI writes the session's
            // first messages so, its context among them).
            if let Some(Value::Array(messages)) = updates.remove("messages") {
                recording.replace_messages(messages, line);
            }
            if let Some(meta) = recording.meta.as_object_mut() {
                for (key, field) in std::mem::take(updates) {
                    meta.insert(key, field);
                }
            }
        } else if value.get("id").is_some_and(Value::is_string) {
            recording.push(value, line);
        } else {
            diagnostics.push(not_of_format(file, line, &value, EXPECTED));
        }
    }
    recordings
        .into_iter()
        .map(|recording| session_of(file, recording, diagnostics))
        .collect()
}

/// One recording's session.
fn session_of(file: &str, mut recording: Recording, diagnostics: &mut Vec<Diagnostic>) -> Session {
    let session_id = str_field(&recording.meta, "sessionId")
        .unwrap_or_default()
        .to_string();
    let mut conversation = Conversation::new(session_id, file, recording.line);
    let mut started_subagents = Vec::new();
    conversation.set_started_at(str_field(&recording.meta, "startTime").map(str::to_string));
    for id in &recording.order {
        let Some((message, line)) = recording.messages.remove(id) else {
            continue;
        };
        conversation.set_line(line);
        let text = message_text(message.get("content"));
        match str_field(&message, "type") {
            Some("user") if is_cli_turn(message.get("content"), &text) => {}
            Some("user") => conversation.user(text),
            Some("gemini") => {
                conversation.assistant(text);
                let calls = message.get("toolCalls").and_then(Value::as_array);
                for (index, call) in calls.into_iter().flatten().enumerate() {
                    let place = format!("message {id:?}, tool call {}", index + 1);
                    add_call(&mut conversation, call, &place, diagnostics);
                    started_subagents.extend(started_subagent(call));
                }
            }
            // The CLI's own notices (`info`, `error`, `warning`) are not the conversation.
            _ => {}
        }
    }
    let mut session = conversation.finish();
    session.started_subagents = started_subagents;
    session.agent_id = Some(match str_field(&recording.meta, "kind") {
        Some("subagent") => format!("{AGENT}{UNKNOWN_SUBAGENT}"),
        _ => AGENT.to_string(),
    });
    session
}

/// The subagent a tool call ran, by the `agentId` Gemini CLI records on it (the subagent's
/// recording has it as its `sessionId`).
fn started_subagent(call: &Value) -> Option<StartedSubagent> {
    Some(StartedSubagent {
        session_id: str_field(call, "agentId")?.to_string(),
        call_id: call.get("id").and_then(super::id_text)?,
    })
}

/// One recorded tool call and its result.
fn add_call(
    conversation: &mut Conversation,
    call: &Value,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let call_id = call.get("id").and_then(super::id_text);
    conversation.call(
        call_id.clone(),
        str_field(call, "name"),
        args_from(call.get("args")),
        place,
        diagnostics,
    );
    let status = str_field(call, "status");
    let result = call.get("result").filter(|result| !result.is_null());
    // A call still waiting (approval, execution) when the session was saved has no result.
    if result.is_none() && !matches!(status, Some("error" | "cancelled" | "success")) {
        return;
    }
    let (text, has_error) = result_text(result);
    let is_error = match status {
        Some("error" | "cancelled") => Some(true),
        Some("success") => Some(has_error),
        _ => has_error.then_some(true),
    };
    let text = match (text.is_empty(), status) {
        (true, Some("cancelled")) => "cancelled".to_string(),
        _ => text,
    };
    conversation.result(call_id, Some(text), is_error, place, diagnostics);
}

/// A recorded result's text (a `functionResponse`'s `output` or `error`, or its parts' text), and
/// whether it holds an error.
fn result_text(result: Option<&Value>) -> (String, bool) {
    let Some(result) = result else {
        return (String::new(), false);
    };
    let parts: Vec<&Value> = match result {
        Value::Array(parts) => parts.iter().collect(),
        other => vec![other],
    };
    let mut texts = Vec::new();
    let mut has_error = false;
    for part in parts {
        let response = part
            .get("functionResponse")
            .and_then(|response| response.get("response"));
        match response {
            Some(response) => {
                if let Some(error) = response.get("error").filter(|error| !error.is_null()) {
                    has_error = true;
                    texts.push(super::content_text(error.clone()));
                } else if let Some(output) = response.get("output") {
                    texts.push(super::content_text(output.clone()));
                } else {
                    texts.push(super::content_text(response.clone()));
                }
            }
            None => texts.push(message_text(Some(part))),
        }
    }
    (texts.join("\n"), has_error)
}

/// Whether a `user` message is the CLI's, not the user's: the tool results it sends back (only
/// `functionResponse` parts, each already its call's result) or the context it adds
/// (`<session_context>`, `<hook_context>`), which Gemini CLI itself leaves out as it resumes a
/// session.
fn is_cli_turn(content: Option<&Value>, text: &str) -> bool {
    let is_function_responses = match content {
        Some(Value::Array(parts)) => {
            !parts.is_empty()
                && parts
                    .iter()
                    .all(|part| part.get("functionResponse").is_some())
        }
        Some(part @ Value::Object(_)) => part.get("functionResponse").is_some(),
        _ => false,
    };
    let text = text.trim_start();
    is_function_responses
        || text.starts_with("<session_context>")
        || text.starts_with("<hook_context>")
}

/// A message's content as text: a string, or its parts' text (thoughts left out).
fn message_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|part| part.get("thought").and_then(Value::as_bool) != Some(true))
            .filter_map(|part| match part {
                Value::String(text) => Some(text.as_str()),
                other => str_field(other, "text"),
            })
            .collect::<Vec<_>>()
            .join(""),
        Some(Value::Object(_)) => content
            .and_then(|part| str_field(part, "text"))
            .unwrap_or_default()
            .to_string(),
        _ => String::new(),
    }
}
