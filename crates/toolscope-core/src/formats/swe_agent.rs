//! SWE-agent trajectories (`.traj`): `{"history": [...], "trajectory": [...], "info": {...}}`,
//! one session per file (named after it), read from the `history`, the conversation the model
//! saw.
//!
//! ```json
//! {"history": [
//!   {"role": "system", "content": "SETTING: …", "agent": "main"},
//!   {"role": "user", "content": "We're currently solving the following issue …", "agent": "main"},
//!   {"role": "assistant", "content": "Let me find it.", "thought": "Let me find it.",
//!    "action": "find_file missing_colon.py", "agent": "main",
//!    "tool_calls": [{"id": "call_1", "type": "function",
//!                    "function": {"name": "find_file", "arguments": "{\"file_name\": \"missing_colon.py\"}"}}]},
//!   {"role": "tool", "content": "Found 1 matches …", "tool_call_ids": ["call_1"], "agent": "main"}],
//!  "info": {"exit_status": "submitted"}}
//! ```
//! With function calling, an assistant message's `tool_calls` (OpenAI's shape) are the calls and
//! `tool` messages (`tool_call_ids`) their results. Without it, the assistant's `action` is a
//! command: a call named by its first word, its arguments `{"command": <the action>}`, answered
//! by the next user message (the observation). Demonstration messages (`is_demo`) and the system
//! prompt are not events. The agent is `swe-agent`. The run's last step, which ends it and which
//! the model never saw, is read from the last `trajectory` step where the history lacks it
//! (before 1.0: its observation; 1.0's development versions: the whole step).
//!
//! mini-swe-agent's trajectories (`{"info", "messages", "trajectory_format"}`) are read here
//! too, by `mini_swe_agent`.

use serde_json::{json, Value};

use super::conversation::{str_field, Conversation};
use super::odd_record::not_of_format;
use super::python_literal::python_literal;
use crate::diagnostic::Diagnostic;
use crate::json::{parse_value, Split};
use crate::model::{Args, Session};

/// The agent's id.
const AGENT: &str = "swe-agent";

/// What the reader expects of a record.
const EXPECTED: &str = "a SWE-agent trajectory ({\"history\": [messages with \"role\"], \"trajectory\", \"info\"}) or a mini-swe-agent one ({\"messages\", \"trajectory_format\": \"mini-swe-agent-1\"})";

/// Whether a record is a SWE-agent trajectory.
pub(crate) fn is_trajectory(value: &Value) -> bool {
    value
        .get("history")
        .and_then(Value::as_array)
        .and_then(|history| history.first())
        .is_some_and(|message| {
            message.get("role").is_some()
                && (message.get("agent").is_some() || message.get("message_type").is_some())
        })
}

/// Reads every trajectory of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let stem = super::file_stem(file);
    let mut sessions = Vec::new();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let session_id = match split.records.len() {
            1 => stem.to_string(),
            _ => format!("{stem}:{}", record.line),
        };
        if super::mini_swe_agent::is_trajectory(&value) {
            sessions.push(super::mini_swe_agent::read_trajectory(
                &value,
                session_id,
                file,
                record.line,
                diagnostics,
            ));
            continue;
        }
        if !is_trajectory(&value) {
            diagnostics.push(not_of_format(file, record.line, &value, EXPECTED));
            continue;
        }
        let mut conversation = Conversation::new(session_id, file, record.line);
        let history = value["history"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        // A command action waiting for its observation (the next user message).
        let mut waiting_action = false;
        for (index, message) in history.iter().enumerate() {
            let place = format!("history message {}", index + 1);
            if is_demo(message) {
                continue;
            }
            let content =
                super::content_text(message.get("content").cloned().unwrap_or(Value::Null));
            match str_field(message, "role") {
                Some("user") if waiting_action => {
                    waiting_action = false;
                    conversation.result(None, Some(content), None, &place, diagnostics);
                }
                Some("user") => conversation.user(content),
                Some("assistant") => {
                    let thought = str_field(message, "thought").map(str::to_string);
                    conversation.assistant(thought.unwrap_or(content));
                    let calls = list_of(message.get("tool_calls"));
                    if calls.is_empty() {
                        waiting_action =
                            add_action(&mut conversation, message, &place, diagnostics);
                    }
                    for call in &calls {
                        super::openai_chat::add_tool_call(
                            &mut conversation,
                            call,
                            &place,
                            diagnostics,
                        );
                    }
                }
                Some("tool") => {
                    let call_id = list_of(message.get("tool_call_ids"))
                        .first()
                        .and_then(super::id_text);
                    conversation.result(call_id, Some(content), None, &place, diagnostics);
                }
                _ => {}
            }
        }
        add_final_step(
            &mut conversation,
            &value,
            history,
            waiting_action,
            diagnostics,
        );
        let mut session = conversation.finish();
        session.agent_id = Some(AGENT.to_string());
        sessions.push(session);
    }
    sessions
}

/// The run's last step, where the `history` lacks it: the history is what the model was shown,
/// and the step that ends the run (the `submit`) was never shown to it. SWE-agent before 1.0
/// wrote that step's action to the history and its observation (the submitted patch) only to
/// `trajectory`; 1.0's development versions until 2024-11-28 (`Agent.step` skipped the history
/// once done, until commit 44542b58) wrote the whole step only there. Since 1.0.0 the history
/// holds it, and the last `trajectory` step repeats the last assistant message.
fn add_final_step(
    conversation: &mut Conversation,
    value: &Value,
    history: &[Value],
    waiting_action: bool,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(trajectory) = value.get("trajectory").and_then(Value::as_array) else {
        return;
    };
    let Some(step) = trajectory.last() else {
        return;
    };
    let place = format!("trajectory step {}", trajectory.len());
    let observation = step.get("observation").cloned().map(super::content_text);
    let last = history
        .iter()
        .rposition(|message| !is_demo(message) && str_field(message, "role") == Some("assistant"));
    match last {
        Some(at)
            if command(&history[at]) == command(step)
                && str_field(&history[at], "thought") == str_field(step, "thought") =>
        {
            let is_answered = history[at + 1..].iter().any(|message| {
                !is_demo(message) && matches!(str_field(message, "role"), Some("user" | "tool"))
            });
            let call_id = list_of(history[at].get("tool_calls"))
                .first()
                .and_then(|call| call.get("id"))
                .and_then(super::id_text);
            if !is_answered && (call_id.is_some() || waiting_action) {
                conversation.result(call_id, observation, None, &place, diagnostics);
            }
        }
        _ => {
            let thought = str_field(step, "thought").or_else(|| str_field(step, "response"));
            conversation.assistant(thought.unwrap_or_default().to_string());
            if add_action(conversation, step, &place, diagnostics) {
                conversation.result(None, observation, None, &place, diagnostics);
            }
        }
    }
}

/// A step's command, as the history and the trajectory both write it.
fn command(message: &Value) -> Option<&str> {
    str_field(message, "action").map(str::trim)
}

/// A command action (no function calling): a call named by the command's first word. Returns
/// whether a call was made (its observation is the next user message).
fn add_action(
    conversation: &mut Conversation,
    message: &Value,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let Some(action) = str_field(message, "action")
        .map(str::trim)
        .filter(|a| !a.is_empty())
    else {
        return false;
    };
    let name = action.split_whitespace().next().unwrap_or(action);
    conversation.call(
        None,
        Some(name),
        Args::Json(json!({ "command": action })),
        place,
        diagnostics,
    );
    true
}

/// Whether a message is part of a demonstration shown to the model, not the run.
fn is_demo(message: &Value) -> bool {
    match message.get("is_demo") {
        Some(Value::Bool(flag)) => *flag,
        Some(Value::String(text)) => text.eq_ignore_ascii_case("true"),
        _ => false,
    }
}

/// A list field, as JSON or as the Python repr some versions wrote.
fn list_of(value: Option<&Value>) -> Vec<Value> {
    match value {
        Some(Value::Array(items)) => items.clone(),
        Some(Value::String(text)) => match python_literal(text) {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}
