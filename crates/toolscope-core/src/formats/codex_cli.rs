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
//! (`function_call_output`, `custom_tool_call_output`, by `call_id`). The user's words are the
//! `event_msg` records `user_message` when the session has them (`response_item` messages repeat
//! them and add injected context: the environment, AGENTS.md), else the `response_item` user
//! messages without the injected ones; the agent's likewise `agent_message`, else the assistant
//! messages (Codex Desktop's rollouts can have the first without the second). A function output
//! carries no error flag, so a call's status comes from its end event (`exec_command_end`'s
//! `exit_code`, `mcp_tool_call_end`'s `Err` or `isError`, `patch_apply_end`'s `success`; in
//! newer rollouts `item_completed`'s `CommandExecution` `exit_code` and `FileChange` `status`),
//! else from the output itself (a shell's `exit_code` metadata, `Exit code: N`, `Process exited
//! with code N`, or Codex's own refusal `<tool> failed: …`, `unsupported call: <tool>` or
//! `unsupported custom tool call: <tool>`; marked inferred), else the `Error:`
//! convention. A unified exec command still running when its call returned (`Process running
//! with session ID N`) ends in a later `write_stdin` poll of that session: the end event's status
//! is that poll's, not the starting call's. A subagent's rollout
//! (`source.subagent.thread_spawn`) links to its parent thread and spawning call; the parent's
//! history it starts with, up to that call, is not read again. Older rollouts (a first line
//! `{"id", "timestamp", "instructions"}`, then bare items and `record_type` state lines) are
//! read the same way.

use serde_json::Value;

use super::conversation::{str_field, Conversation};
use super::nesting::UNKNOWN_SUBAGENT;
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
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

/// Bookkeeping records newer rollouts write (Codex CLI 0.171.0: the model-visible state
/// `world_state`, each response's `token_usage_record`) that carry no message or call: skipped
/// without a word.
const BOOKKEEPING_TYPES: [&str; 2] = ["world_state", "token_usage_record"];

/// Text Codex puts in user messages that the user did not write.
const INJECTED: [&str; 7] = [
    "<environment_context>",
    "<subagent_notification>",
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
        } else if str_field(&value, "type").is_some_and(|kind| BOOKKEEPING_TYPES.contains(&kind)) {
            continue;
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
    let words = Words {
        user: has_event(records, "user_message"),
        agent: has_event(records, "agent_message"),
    };
    for record in records {
        conversation.set_line(record.line);
        let payload = &record.value["payload"];
        let kind = str_field(payload, "type").unwrap_or_default();
        match str_field(&record.value, "type") {
            Some("event_msg") => match kind {
                "user_message" if words.user => conversation.user(text_of(payload.get("message"))),
                "agent_message" if words.agent => {
                    conversation.assistant(text_of(payload.get("message")));
                }
                _ => {}
            },
            Some("response_item") => add_item(
                &mut conversation,
                payload,
                kind,
                words,
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

/// Which words the session's `event_msg` records carry (`user_message`, `agent_message`): those
/// are read from the events, the others from the `response_item` messages.
#[derive(Clone, Copy)]
struct Words {
    user: bool,
    agent: bool,
}

/// Whether the session has an `event_msg` of this type.
fn has_event(records: &[Record], kind: &str) -> bool {
    records.iter().any(|record| {
        str_field(&record.value, "type") == Some("event_msg")
            && str_field(&record.value["payload"], "type") == Some(kind)
    })
}

/// One `response_item`.
fn add_item(
    conversation: &mut Conversation,
    item: &Value,
    kind: &str,
    words: Words,
    statuses: &Statuses,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let call_id = item.get("call_id").and_then(super::id_text);
    match kind {
        "message" => {
            let text = text_of(item.get("content"));
            match str_field(item, "role") {
                Some("user") if !words.user && !is_injected(&text) => conversation.user(text),
                Some("assistant") if !words.agent => conversation.assistant(text),
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
            let explicit = call_id
                .as_deref()
                .and_then(|id| statuses.of_output(id, &content));
            let inferred = match explicit {
                Some(_) => None,
                None => exit_code_of(&content).map(|code| code != 0).or_else(|| {
                    let name = call_id.as_deref().and_then(|id| statuses.names.get(id))?;
                    is_refusal(&content, name).then_some(true)
                }),
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

/// What the session's records say of its calls' outcomes.
struct Statuses {
    /// Whether each call failed, by call id, as its end event says.
    by_call: HashMap<String, bool>,
    /// Whether each unified exec process failed, by process id (its `exec_command_end`).
    by_process: HashMap<String, bool>,
    /// The process each `write_stdin` call polled, by call id.
    polls: HashMap<String, String>,
    /// Each call's tool name, by call id.
    names: HashMap<String, String>,
}

impl Statuses {
    /// A call's end: whether it `failed`, and, for a command, also the end of its `process`
    /// (for the `write_stdin` poll that sees it exit).
    fn end(&mut self, call_id: String, process: Option<String>, failed: bool) {
        if let Some(process) = process {
            self.by_process.insert(process, failed);
        }
        self.by_call.insert(call_id, failed);
    }

    /// Whether the call whose output this is failed, as an end event says: its own, unless the
    /// output says its process is still running (the end then belongs to a later poll); for a
    /// `write_stdin` poll whose output says the process exited, the end of the process it polled.
    fn of_output(&self, call_id: &str, output: &str) -> Option<bool> {
        if is_still_running(output) {
            return None;
        }
        self.by_call.get(call_id).copied().or_else(|| {
            let process = self.polls.get(call_id)?;
            exit_code_of(output)?;
            self.by_process.get(process).copied()
        })
    }
}

/// Whether an output is Codex's own answer that it could not run the call named `name`: the
/// tool's `<tool> failed: …`, or the router's `unsupported call: <tool>` and `unsupported custom
/// tool call: <tool>` for a tool it does not offer.
fn is_refusal(output: &str, name: &str) -> bool {
    output.starts_with(&format!("{name} failed:"))
        || output.trim_end() == format!("unsupported call: {name}")
        || output.trim_end() == format!("unsupported custom tool call: {name}")
}

/// Whether a unified exec output says its process has not ended.
fn is_still_running(output: &str) -> bool {
    output
        .lines()
        .take(8)
        .any(|line| line.trim().starts_with("Process running with session ID"))
}

/// What the end events and calls of a session say (see [`Statuses`]).
fn end_statuses(records: &[Record]) -> Statuses {
    let mut statuses = Statuses {
        by_call: HashMap::new(),
        by_process: HashMap::new(),
        polls: HashMap::new(),
        names: HashMap::new(),
    };
    for record in records {
        let payload = &record.value["payload"];
        if str_field(&record.value, "type") == Some("event_msg")
            && str_field(payload, "type") == Some("item_completed")
        {
            item_status(&payload["item"], &mut statuses);
            continue;
        }
        let Some(call_id) = payload.get("call_id").and_then(super::id_text) else {
            continue;
        };
        if str_field(&record.value, "type") == Some("response_item") {
            if let Some(name) = str_field(payload, "name") {
                if name == "write_stdin" {
                    let process = str_field(payload, "arguments")
                        .and_then(|arguments| serde_json::from_str::<Value>(arguments).ok())
                        .and_then(|arguments| arguments.get("session_id").and_then(super::id_text));
                    if let Some(process) = process {
                        statuses.polls.insert(call_id.clone(), process);
                    }
                }
                statuses.names.insert(call_id, name.to_string());
            }
            continue;
        }
        if str_field(&record.value, "type") != Some("event_msg") {
            continue;
        }
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
            let process = payload
                .get("process_id")
                .and_then(super::id_text)
                .filter(|_| str_field(payload, "type") == Some("exec_command_end"));
            statuses.end(call_id, process, failed);
        }
    }
    statuses
}

/// What a newer rollout's `item_completed` event says of the call it ends (Codex CLI 0.171.0
/// writes these and no `exec_command_end` or `patch_apply_end`): a `CommandExecution`'s
/// `exit_code` (else its `status`), for its `id` (the call's) and its `process_id`, as
/// `exec_command_end`'s; a `FileChange`'s `status`.
fn item_status(item: &Value, statuses: &mut Statuses) {
    let Some(call_id) = item.get("id").and_then(super::id_text) else {
        return;
    };
    let status = match str_field(item, "status") {
        Some("completed") => Some(false),
        Some("failed") => Some(true),
        _ => None,
    };
    let (failed, process) = match str_field(item, "type") {
        Some("CommandExecution") => (
            item.get("exit_code")
                .and_then(Value::as_i64)
                .map(|code| code != 0)
                .or(status),
            item.get("process_id").and_then(super::id_text),
        ),
        Some("FileChange") => (status, None),
        _ => (None, None),
    };
    if let Some(failed) = failed {
        statuses.end(call_id, process, failed);
    }
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
    use crate::formats::{read_traces_as, TraceFormat};
    use crate::model::{Event, ResultStatus};

    /// The one session of a rollout given as lines.
    fn read_lines(lines: &[Value]) -> (Session, Vec<Diagnostic>) {
        let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
        let mut diagnostics = Vec::new();
        let mut read = read_traces_as(
            "rollout.jsonl",
            text.as_bytes(),
            Some(TraceFormat::CodexCli),
            &mut diagnostics,
        );
        assert_eq!(read.sessions.len(), 1, "{diagnostics:?}");
        (read.sessions.remove(0), diagnostics)
    }

    fn line(kind: &str, payload: Value) -> Value {
        serde_json::json!({"timestamp": "2026-05-11T08:27:22.479Z", "type": kind, "payload": payload})
    }

    /// Each result's call id, status and whether that status was inferred.
    fn results(session: &Session) -> Vec<(String, ResultStatus, bool)> {
        session
            .events
            .iter()
            .filter_map(|event| match event {
                Event::ToolResult(result) => Some((
                    result.call_id.clone().unwrap_or_default(),
                    result.status,
                    result.is_status_inferred,
                )),
                _ => None,
            })
            .collect()
    }

    /// As in codemie-code's recorded Codex Desktop rollout: the user's words as `user_message`
    /// events, the agent's only as assistant messages.
    #[test]
    fn assistant_messages_are_read_when_no_agent_message_event_repeats_them() {
        let (session, diagnostics) = read_lines(&[
            line(
                "session_meta",
                serde_json::json!({"id": "s1", "originator": "Codex Desktop"}),
            ),
            line(
                "event_msg",
                serde_json::json!({"type": "user_message", "message": "summarise"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "summarise"}]}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": "Done."}]}),
            ),
        ]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let words: Vec<String> = session
            .events
            .iter()
            .map(|event| match event {
                Event::User { content } => format!("user {content}"),
                Event::Assistant { content } => format!("assistant {content}"),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(words, ["user summarise", "assistant Done."]);
    }

    /// A unified exec command that outlives its call: the call's output says the process is
    /// running, a `write_stdin` poll's says it exited with 2, and `exec_command_end` (the
    /// starting call's id, the process's id) says so too. The failure is the poll's, once.
    #[test]
    fn a_running_commands_end_is_the_status_of_the_poll_that_saw_it_exit() {
        let (session, _) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "exec_command",
                "arguments": "{\"cmd\":\"rg x\"}", "call_id": "start"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "start",
                "output": "Chunk ID: 1\nWall time: 1.0 seconds\nProcess running with session ID 59181\nOutput:\n"}),
            ),
            line(
                "event_msg",
                serde_json::json!({"type": "exec_command_end", "call_id": "start",
                "process_id": "59181", "exit_code": 2, "status": "failed"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "write_stdin",
                "arguments": "{\"session_id\":59181,\"chars\":\"\"}", "call_id": "poll"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "poll",
                "output": "Chunk ID: 2\nWall time: 4.1 seconds\nProcess exited with code 2\nOutput:\nrg: x: No such file\n"}),
            ),
        ]);
        assert_eq!(
            results(&session),
            [
                ("start".to_string(), ResultStatus::Ok, false),
                ("poll".to_string(), ResultStatus::Error, false),
            ]
        );
    }

    /// Codex answers a tool it could not run with `<tool> failed: …` (`write_stdin failed:
    /// stdin is closed for this session`, as in codemie-code's recorded rollout).
    #[test]
    fn a_tools_own_failure_message_is_an_inferred_error() {
        let (session, _) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "write_stdin",
                "arguments": "{\"session_id\":7,\"chars\":\"\\u0003\"}", "call_id": "c1"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "c1",
                "output": "write_stdin failed: stdin is closed for this session"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "update_plan",
                "arguments": "{}", "call_id": "c2"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "c2",
                "output": "write_stdin failed: not this call's own name"}),
            ),
        ]);
        assert_eq!(
            results(&session),
            [
                ("c1".to_string(), ResultStatus::Error, true),
                ("c2".to_string(), ResultStatus::Ok, false),
            ]
        );
    }

    /// Codex CLI 0.171.0 answers a call of a tool it does not offer (`apply_patch` to a model
    /// without it) with `unsupported custom tool call: apply_patch`, as in the recorded rollout.
    #[test]
    fn an_unsupported_tool_call_answer_is_an_inferred_error() {
        let (session, _) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "response_item",
                serde_json::json!({"type": "custom_tool_call", "name": "apply_patch",
                "input": "*** Begin Patch\n*** End Patch\n", "call_id": "c1"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "custom_tool_call_output", "call_id": "c1",
                "output": "unsupported custom tool call: apply_patch"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "grep_files",
                "arguments": "{}", "call_id": "c2"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "c2",
                "output": "unsupported call: grep_files"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "update_plan",
                "arguments": "{}", "call_id": "c3"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "c3",
                "output": "unsupported call: apply_patch"}),
            ),
        ]);
        assert_eq!(
            results(&session),
            [
                ("c1".to_string(), ResultStatus::Error, true),
                ("c2".to_string(), ResultStatus::Error, true),
                ("c3".to_string(), ResultStatus::Ok, false),
            ]
        );
    }

    /// Codex CLI 0.171.0 writes `world_state` and `token_usage_record` records between the
    /// others, as in the recorded rollout: they carry nothing toolscope reads and are not
    /// records "Codex may add later".
    #[test]
    fn world_state_and_token_usage_records_are_skipped_without_a_warning() {
        let (session, diagnostics) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "world_state",
                serde_json::json!({"full": true, "state": {"agents_md": {}}}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "hi"}]}),
            ),
            line(
                "token_usage_record",
                serde_json::json!({"thread_id": "s1", "response_id": "r1",
                "usage": {"input_tokens": 10, "output_tokens": 2}}),
            ),
        ]);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(session.events.len(), 1);
    }

    /// Codex CLI 0.171.0 ends calls with `item_completed` events, not `exec_command_end`, as
    /// in the recorded rollout: a command's `exit_code` is its call's status, and that of the
    /// poll that saw its process exit; a `FileChange`'s `status` is its call's.
    #[test]
    fn item_completed_events_give_the_status_of_the_call_they_end() {
        let (session, _) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "exec_command",
                "arguments": "{\"cmd\":\"sh t.sh\"}", "call_id": "tests"}),
            ),
            line(
                "event_msg",
                serde_json::json!({"type": "item_completed", "item": {"type": "CommandExecution",
                "id": "tests", "process_id": "1", "status": "failed", "exit_code": 3}}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "tests",
                "output": "Chunk ID: 1\nOutput:\n1 of 2 tests failed\n"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "exec_command",
                "arguments": "{\"cmd\":\"sleep 2; exit 4\"}", "call_id": "slow"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "slow",
                "output": "Chunk ID: 2\nProcess running with session ID 11489\nOutput:\n"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "write_stdin",
                "arguments": "{\"session_id\":11489,\"chars\":\"\"}", "call_id": "poll"}),
            ),
            line(
                "event_msg",
                serde_json::json!({"type": "item_completed", "item": {"type": "CommandExecution",
                "id": "slow", "process_id": "11489", "status": "failed", "exit_code": 4}}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "poll",
                "output": "Chunk ID: 3\nProcess exited with code 4\nOutput:\n"}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call", "name": "exec_command",
                "arguments": "{\"cmd\":\"apply_patch\"}", "call_id": "patch"}),
            ),
            line(
                "event_msg",
                serde_json::json!({"type": "item_completed", "item": {"type": "FileChange",
                "id": "patch", "status": "failed"}}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "function_call_output", "call_id": "patch",
                "output": "Wall time: 0.0000 seconds\nOutput:\nExit code: 0\n"}),
            ),
        ]);
        assert_eq!(
            results(&session),
            [
                ("tests".to_string(), ResultStatus::Error, false),
                ("slow".to_string(), ResultStatus::Ok, false),
                ("poll".to_string(), ResultStatus::Error, false),
                ("patch".to_string(), ResultStatus::Error, false),
            ]
        );
    }

    /// Codex CLI 0.171.0 tells the parent agent that a spawned subagent finished with a user
    /// message `<subagent_notification>{…}`, as in the recorded rollout: not the user's words.
    #[test]
    fn a_subagent_notification_is_not_a_user_turn() {
        let (session, _) = read_lines(&[
            line("session_meta", serde_json::json!({"id": "s1"})),
            line(
                "response_item",
                serde_json::json!({"type": "message", "role": "user",
                "content": [{"type": "input_text", "text": "Ask a helper"}]}),
            ),
            line(
                "response_item",
                serde_json::json!({"type": "message", "role": "user",
                "content": [{"type": "input_text",
                "text": "<subagent_notification>\n{\"agent_path\":\"a1\",\"status\":{\"completed\":\"5\"}}\n</subagent_notification>"}]}),
            ),
        ]);
        let users = session
            .events
            .iter()
            .filter(|event| matches!(event, Event::User { .. }))
            .count();
        assert_eq!(users, 1);
    }

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
