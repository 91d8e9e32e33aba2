//! OpenAI Codex CLI rollouts: the JSON Lines files Codex keeps for each session
//! (`~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).
//!
//! ```json
//! {"timestamp": "…", "type": "session_meta", "payload": {"id": "0199…", "cli_version": "0.77.0"}}
//! {"timestamp": "…", "type": "event_msg", "payload": {"type": "user_message", "message": "List the files"}}
//! {"timestamp": "…", "type": "response_item", "payload": {"type": "function_call", "name": "shell",
//!   "arguments": "{\"command\":[\"ls\"]}", "call_id": "call_1"}}
//! {"timestamp": "…", "type": "event_msg", "payload": {"type": "exec_command_end", "call_id": "call_1",
//!   "exit_code": 2}}
//! {"timestamp": "…", "type": "response_item", "payload": {"type": "function_call_output",
//!   "call_id": "call_1", "output": "ls: cannot access"}}
//! ```
//! Each record is `{"timestamp", "type", "payload"}`. `session_meta` starts a session (its `id`);
//! `response_item` payloads are Responses API items: `function_call` (arguments a JSON string),
//! `custom_tool_call` (free-form `input`, kept as a string), `local_shell_call` (its `action`),
//! `web_search_call` (its `action`; answered by the server, so no result), and their outputs
//! (`function_call_output`, `custom_tool_call_output`, by `call_id`). The user's and the
//! agent's words are the `event_msg` records `user_message` and `agent_message` when the session
//! has them (`response_item` messages repeat them and add injected context: the environment,
//! AGENTS.md), else the `response_item` messages without the injected ones. A function output
//! carries no error flag, so a call's status comes from its end event (`exec_command_end`'s
//! `exit_code`, `mcp_tool_call_end`'s `Err` or `isError`, `patch_apply_end`'s `success`),
//! else from the output itself (a shell's `exit_code` metadata, `Exit code: N`, `Process exited
//! with code N`; marked inferred), else the `Error:` convention. A subagent's rollout
//! (`source.subagent.thread_spawn`) links to its parent thread and spawning call; the parent's
//! history it starts with, up to that call, is not read again. Older rollouts (a first line
//! `{"id", "timestamp", "instructions"}`, then bare items and `record_type` state lines) are
//! read the same way.

use std::collections::HashMap;

use serde_json::Value;

use super::conversation::{str_field, Conversation};
use super::nesting::UNKNOWN_SUBAGENT;
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::json::{parse_value, Split};
use crate::model::{Args, ParentLink, Session};

/// The main agent's id.
const AGENT: &str = "codex";

/// What the reader expects of a record.
const EXPECTED: &str = "a Codex CLI rollout record ({\"type\", \"payload\"})";

/// Record types of a rollout.
const RECORD_TYPES: [&str; 5] = [
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
];

/// Text Codex puts in user messages that the user did not write.
const INJECTED: [&str; 6] = [
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<INSTRUCTIONS>",
    "<turn_aborted>",
    "<user_shell_command>",
];

/// Whether a record is one of a Codex rollout's.
pub(crate) fn is_record(value: &Value) -> bool {
    value.get("payload").is_some_and(Value::is_object)
        && str_field(value, "type").is_some_and(|kind| RECORD_TYPES.contains(&kind))
}

/// Whether a record is an older rollout's first line: `{"id", "timestamp"}`, perhaps with the
/// session's `instructions` and `git` state, and nothing else.
pub(crate) fn is_legacy_meta(value: &Value) -> bool {
    let Some(map) = value.as_object() else {
        return false;
    };
    map.get("id").is_some_and(Value::is_string)
        && map.get("timestamp").is_some_and(Value::is_string)
        && map
            .keys()
            .all(|key| matches!(key.as_str(), "id" | "timestamp" | "instructions" | "git"))
}

/// An older rollout's record in the current shape.
fn wrap(kind: &str, payload: Value) -> Value {
    serde_json::json!({"type": kind, "payload": payload})
}

/// One record, parsed, with its line.
struct Record {
    value: Value,
    line: usize,
}

/// Reads every session of the file (one per `session_meta`; records before the first belong
/// to a session named after the file).
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let mut runs: Vec<Vec<Record>> = Vec::new();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let value = if is_record(&value) {
            value
        } else if is_legacy_meta(&value) {
            wrap("session_meta", value)
        } else if value.get("record_type").is_some() {
            // Older rollouts' state snapshots.
            continue;
        } else if str_field(&value, "type").is_some() && value.get("payload").is_none() {
            // Older rollouts: bare Responses items after the session line.
            wrap("response_item", value)
        } else {
            let kind = str_field(&value, "type");
            match kind {
                // A record type Codex may add later: nothing lost that toolscope reads today.
                Some(kind) if value.get("payload").is_some_and(Value::is_object) => diagnostics
                    .push(Diagnostic::warning(
                        file,
                        Some(record.line),
                        format!("record of type {kind:?} is not one Codex writes today; skipped"),
                    )),
                _ => diagnostics.push(not_of_format(file, record.line, &value, EXPECTED)),
            }
            continue;
        };
        if str_field(&value, "type") == Some("session_meta") || runs.is_empty() {
            runs.push(Vec::new());
        }
        runs.last_mut().expect("pushed").push(Record {
            value,
            line: record.line,
        });
    }
    runs.into_iter()
        .map(|records| read_session(file, &records, diagnostics))
        .collect()
}

/// One rollout session.
fn read_session(file: &str, records: &[Record], diagnostics: &mut Vec<Diagnostic>) -> Session {
    let first = &records[0];
    let meta =
        (str_field(&first.value, "type") == Some("session_meta")).then(|| &first.value["payload"]);
    let session_id = meta
        .and_then(|meta| meta.get("id"))
        .and_then(super::id_text)
        .unwrap_or_else(|| super::file_stem(file).to_string());
    let spawn = meta
        .and_then(|meta| meta.get("source"))
        .and_then(|source| source.get("subagent"))
        .and_then(|subagent| subagent.get("thread_spawn"));
    let parent = spawn.and_then(|spawn| {
        Some(ParentLink {
            session_id: spawn.get("parent_thread_id").and_then(super::id_text)?,
            call_id: spawn.get("spawn_call_id").and_then(super::id_text),
        })
    });
    // A spawned thread starts with its parent's history up to the spawning call: read after it.
    let start = parent
        .as_ref()
        .and_then(|parent| parent.call_id.as_deref())
        .and_then(|spawn_call| {
            records.iter().position(|record| {
                let item = &record.value["payload"];
                str_field(&record.value, "type") == Some("response_item")
                    && str_field(item, "type") == Some("function_call")
                    && str_field(item, "call_id") == Some(spawn_call)
            })
        })
        .map_or(0, |at| at + 1);
    let mut conversation = Conversation::new(session_id, file, first.line);
    conversation.set_started_at(
        meta.and_then(|meta| str_field(meta, "timestamp"))
            .or_else(|| str_field(&first.value, "timestamp"))
            .map(str::to_string),
    );
    let records = &records[start..];
    let statuses = end_statuses(records);
    let has_event_messages = records.iter().any(|record| {
        str_field(&record.value, "type") == Some("event_msg")
            && matches!(
                str_field(&record.value["payload"], "type"),
                Some("user_message" | "agent_message")
            )
    });
    for record in records {
        conversation.set_line(record.line);
        let payload = &record.value["payload"];
        let kind = str_field(payload, "type").unwrap_or_default();
        match str_field(&record.value, "type") {
            Some("event_msg") if has_event_messages => match kind {
                "user_message" => conversation.user(text_of(payload.get("message"))),
                "agent_message" => conversation.assistant(text_of(payload.get("message"))),
                _ => {}
            },
            Some("response_item") => add_item(
                &mut conversation,
                payload,
                kind,
                has_event_messages,
                &statuses,
                diagnostics,
            ),
            _ => {}
        }
    }
    let mut session = conversation.finish();
    session.agent_id = Some(match parent {
        Some(_) => format!("{AGENT}{UNKNOWN_SUBAGENT}"),
        None => AGENT.to_string(),
    });
    session.parent = parent;
    session
}

/// One `response_item`.
fn add_item(
    conversation: &mut Conversation,
    item: &Value,
    kind: &str,
    has_event_messages: bool,
    statuses: &HashMap<String, bool>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let call_id = item.get("call_id").and_then(super::id_text);
    match kind {
        "message" if !has_event_messages => {
            let text = text_of(item.get("content"));
            match str_field(item, "role") {
                Some("user") if !is_injected(&text) => conversation.user(text),
                Some("assistant") => conversation.assistant(text),
                _ => {}
            }
        }
        "function_call" => conversation.call(
            call_id,
            str_field(item, "name"),
            Args::from_sent(item.get("arguments").cloned().unwrap_or(Value::Null)),
            "function_call",
            diagnostics,
        ),
        "custom_tool_call" => conversation.call(
            call_id,
            str_field(item, "name"),
            Args::Json(item.get("input").cloned().unwrap_or(Value::Null)),
            "custom_tool_call",
            diagnostics,
        ),
        "local_shell_call" => conversation.call(
            call_id,
            Some("local_shell"),
            Args::Json(item.get("action").cloned().unwrap_or(Value::Null)),
            "local_shell_call",
            diagnostics,
        ),
        "web_search_call" => conversation.call(
            item.get("id").and_then(super::id_text),
            Some("web_search"),
            Args::Json(item.get("action").cloned().unwrap_or(Value::Null)),
            "web_search_call",
            diagnostics,
        ),
        "function_call_output" | "custom_tool_call_output" => {
            let content = text_of(item.get("output"));
            let explicit = call_id.as_ref().and_then(|id| statuses.get(id)).copied();
            let inferred = match explicit {
                Some(_) => None,
                None => exit_code_of(&content).map(|code| code != 0),
            };
            conversation.result(call_id, Some(content), explicit, kind, diagnostics);
            if inferred == Some(true) {
                conversation.mark_inferred_error();
            }
        }
        // Reasoning, snapshots, compaction summaries and items to come carry no call.
        _ => {}
    }
}

/// Whether each call failed, by call id, as its end event says.
fn end_statuses(records: &[Record]) -> HashMap<String, bool> {
    let mut statuses = HashMap::new();
    for record in records {
        if str_field(&record.value, "type") != Some("event_msg") {
            continue;
        }
        let payload = &record.value["payload"];
        let Some(call_id) = payload.get("call_id").and_then(super::id_text) else {
            continue;
        };
        let failed = match str_field(payload, "type") {
            Some("exec_command_end") => payload
                .get("exit_code")
                .and_then(Value::as_i64)
                .map(|code| code != 0),
            Some("patch_apply_end") => payload
                .get("success")
                .and_then(Value::as_bool)
                .map(|success| !success),
            Some("mcp_tool_call_end") => payload.get("result").map(|result| {
                result.get("Err").is_some()
                    || result
                        .get("Ok")
                        .and_then(|ok| ok.get("isError").or_else(|| ok.get("is_error")))
                        .and_then(Value::as_bool)
                        == Some(true)
            }),
            _ => None,
        };
        if let Some(failed) = failed {
            statuses.insert(call_id, failed);
        }
    }
    statuses
}

/// The exit code a shell output reports: `{"output", "metadata": {"exit_code"}}`,
/// `Exit code: N` or `Process exited with code N` at the start of a line.
fn exit_code_of(output: &str) -> Option<i64> {
    if output.trim_start().starts_with('{') {
        if let Ok(value) = serde_json::from_str::<Value>(output) {
            return value.get("metadata")?.get("exit_code")?.as_i64();
        }
    }
    output.lines().take(8).find_map(|line| {
        let line = line.trim();
        let number = line
            .strip_prefix("Exit code:")
            .or_else(|| line.strip_prefix("Process exited with code"))?;
        number.trim().parse().ok()
    })
}

/// Message text: a string, or the text of `input_text`/`output_text` parts joined.
fn text_of(value: Option<&Value>) -> String {
    match value {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|part| str_field(part, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(other) => super::content_text(other.clone()),
        None => String::new(),
    }
}

/// Whether a user message is context Codex injected.
fn is_injected(text: &str) -> bool {
    let text = text.trim_start();
    INJECTED.iter().any(|prefix| text.starts_with(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_are_read_from_each_shell_output_shape() {
        assert_eq!(
            exit_code_of(r#"{"output":"x","metadata":{"exit_code":1,"duration_seconds":0.1}}"#),
            Some(1)
        );
        assert_eq!(
            exit_code_of("Exit code: 0\nWall time: 1 s\nOutput:\nok"),
            Some(0)
        );
        assert_eq!(
            exit_code_of(
                "Chunk ID: 65fc69\nWall time: 0.0 seconds\nProcess exited with code 127\nOutput:\n"
            ),
            Some(127)
        );
        assert_eq!(exit_code_of("Process running with session ID 4"), None);
        assert_eq!(exit_code_of(r#"{"status": "ok"}"#), None);
    }
}
