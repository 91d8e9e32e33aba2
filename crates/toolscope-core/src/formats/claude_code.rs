//! Claude Code session transcripts: the JSON Lines files Claude Code keeps under
//! `~/.claude/projects/<project>/<session>.jsonl`, and its subagents' files
//! (`<session>/subagents/agent-<id>.jsonl`).
//!
//! ```json
//! {"type": "user", "sessionId": "5f0c…", "uuid": "u1", "parentUuid": null, "isSidechain": false,
//!  "timestamp": "2025-11-19T22:53:30.000Z", "message": {"role": "user", "content": "Fix the test"}}
//! {"type": "assistant", "sessionId": "5f0c…", "uuid": "a1", "parentUuid": "u1", "isSidechain": false,
//!  "message": {"role": "assistant", "model": "claude-sonnet-4-5", "content": [
//!    {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "cargo test"}}]}}
//! {"type": "user", "sessionId": "5f0c…", "uuid": "r1", "parentUuid": "a1", "isSidechain": false,
//!  "message": {"role": "user", "content": [
//!    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "1 failed", "is_error": true}]}}
//! ```
//! Each `user` and `assistant` record holds one Anthropic Messages message (read as the
//! Anthropic reader reads it: `tool_use` blocks are calls, `tool_result` blocks results with
//! `is_error`); one reply's blocks may be spread over several records. Records are read in file
//! order, one session per `sessionId`. Meta records (`isMeta`: notices Claude Code injects),
//! compaction summaries (`isCompactSummary`), interruptions and local commands' output are not
//! user turns, nor is the notice that a background task ended (`<task-notification>`);
//! `summary`, `system`, `file-history-snapshot`, `progress`, `api-request` and the other
//! bookkeeping records hold no message and are skipped. A record whose `uuid` repeats an earlier
//! one is read once.
//!
//! Subagents become their own sessions, agent `claude-code/<subagent type>`: records with
//! `isSidechain` and an `agentId` (`<sessionId>/agent-<agentId>`), or, in older files without
//! `agentId`, each chain of sidechain records from its root (`<sessionId>/sidechain-<n>`). A
//! subagent links to its parent session, and to the `Task`/`Agent` call that started it where the
//! parent's result names the agent (`toolUseResult.agentId`, recorded as the parent session's
//! `started_subagents`) or, failing that, to the one call whose arguments hold the subagent's
//! first message (its `prompt`); `nesting.rs` makes both links, across files too. Claude Code's
//! own context compaction runs as an agent too (`agentId` `acompact-…`): agent
//! `claude-code/compact`, started by no call. The main session's agent is `claude-code`.
//! Claude Code's tool catalog is not in the file: give one with `--tools` to check names and
//! arguments.

use serde_json::Value;

use super::anthropic::Anthropic;
use super::conversation::{str_field, Conversation};
use super::exchange::Dialect;
use super::nesting::{link_subagents, UNKNOWN_SUBAGENT};
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt, HashSet, HashSetExt};
use crate::json::{parse_value, Split};
use crate::model::{ParentLink, Session, StartedSubagent};

/// The main agent's id.
const MAIN_AGENT: &str = "claude-code";

/// Record types that carry no message, skipped without a word.
const BOOKKEEPING: [&str; 16] = [
    "summary",
    "system",
    "file-history-snapshot",
    "progress",
    "queue-operation",
    "attachment",
    "custom-title",
    "tag",
    "agent-name",
    // Claude Code 2.1.332's records of its API requests and the session's state.
    "api-request",
    "api-request-shape",
    "api-request-blob",
    "tools-used",
    "last-prompt",
    "cost-state",
    "atis-latch",
];

/// How the `agentId` of Claude Code's context compaction agent starts (`acompact-e1f845`).
const COMPACTION_AGENT: &str = "acompact";

/// What the reader expects of a record.
const EXPECTED: &str = "a Claude Code transcript record ({\"type\", \"sessionId\", \"message\"})";

/// Whether a record is one of a Claude Code transcript's message records.
pub(crate) fn is_record(value: &Value) -> bool {
    value.get("sessionId").is_some_and(Value::is_string)
        && value.get("uuid").is_some()
        && matches!(str_field(value, "type"), Some("user" | "assistant"))
}

/// Which session of a transcript a record belongs to.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Lane {
    Main(String),
    /// A subagent named by its `agentId`.
    Agent(String, String),
    /// A sidechain without `agentId`, by the uuid of its root record.
    Sidechain(String, String),
}

/// A session being read.
struct Reading {
    conversation: Conversation,
    /// The parent session's id, for a subagent.
    parent_session: Option<String>,
    /// The subagent's `agentId`, when it has one.
    agent_ref: Option<String>,
    /// The subagents this session's results say they ran.
    started: Vec<StartedSubagent>,
}

/// Reads every session of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let mut sessions: Vec<Reading> = Vec::new();
    let mut by_lane: HashMap<Lane, usize> = HashMap::new();
    // The session each record went to (and whether it is a sidechain), by uuid.
    let mut lane_of: HashMap<String, (usize, bool)> = HashMap::new();
    let mut sidechains_per_session: HashMap<String, usize> = HashMap::new();
    let mut seen_uuids: HashSet<String> = HashSet::new();
    let mut repeated = 0usize;
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let line = record.line;
        let kind = str_field(&value, "type").unwrap_or_default();
        if BOOKKEEPING.contains(&kind) {
            continue;
        }
        let Some(session_id) = str_field(&value, "sessionId").map(str::to_string) else {
            diagnostics.push(not_of_format(file, line, &value, EXPECTED));
            continue;
        };
        if !matches!(kind, "user" | "assistant") {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!("record of type {kind:?} holds no message Claude Code writes; skipped"),
            ));
            continue;
        }
        let uuid = str_field(&value, "uuid").map(str::to_string);
        if let Some(uuid) = &uuid {
            if !seen_uuids.insert(uuid.clone()) {
                repeated += 1;
                continue;
            }
        }
        let is_sidechain = value.get("isSidechain").and_then(Value::as_bool) == Some(true);
        let agent_ref = str_field(&value, "agentId").map(str::to_string);
        // A record continues its parent's session (a sidechain's records without `agentId`
        // included); a record without a known parent starts or joins its own.
        let parent_lane = str_field(&value, "parentUuid")
            .and_then(|parent| lane_of.get(parent))
            .filter(|(_, sidechain)| *sidechain == is_sidechain)
            .map(|(at, _)| *at);
        let at = match parent_lane {
            Some(at) => at,
            None => {
                let lane = match (is_sidechain, &agent_ref) {
                    (false, _) => Lane::Main(session_id.clone()),
                    (true, Some(agent)) => Lane::Agent(session_id.clone(), agent.clone()),
                    (true, None) => Lane::Sidechain(
                        session_id.clone(),
                        uuid.clone().unwrap_or_else(|| format!("line {line}")),
                    ),
                };
                *by_lane.entry(lane.clone()).or_insert_with(|| {
                    let (id, parent_session) = match &lane {
                        Lane::Main(id) => (id.clone(), None),
                        Lane::Agent(id, agent) => (format!("{id}/agent-{agent}"), Some(id.clone())),
                        Lane::Sidechain(id, _) => {
                            let count = sidechains_per_session.entry(id.clone()).or_default();
                            *count += 1;
                            (format!("{id}/sidechain-{count}"), Some(id.clone()))
                        }
                    };
                    let mut conversation = Conversation::new(id, file, line);
                    conversation.set_started_at(str_field(&value, "timestamp").map(str::to_string));
                    sessions.push(Reading {
                        conversation,
                        agent_ref: None,
                        started: Vec::new(),
                        parent_session,
                    });
                    sessions.len() - 1
                })
            }
        };
        if let Some(uuid) = &uuid {
            lane_of.insert(uuid.clone(), (at, is_sidechain));
        }
        if is_sidechain && sessions[at].agent_ref.is_none() {
            sessions[at].agent_ref = agent_ref.clone();
        }
        let reading = &mut sessions[at];
        reading.conversation.set_line(line);
        if let Some(agent) = result_agent(&value) {
            if let Some(call_id) = first_result_call(&value) {
                reading.started.push(StartedSubagent {
                    session_id: format!("{session_id}/agent-{agent}"),
                    call_id,
                });
            }
        }
        let Some(message) = value.get("message") else {
            diagnostics.push(reading.conversation.warning(format!(
                "{kind} record at line {line} has no \"message\"; skipped"
            )));
            continue;
        };
        let is_meta = value.get("isMeta").and_then(Value::as_bool) == Some(true)
            || value.get("isCompactSummary").and_then(Value::as_bool) == Some(true)
            || is_cli_notice(message);
        if is_meta && kind == "user" && !has_tool_result(message) {
            continue;
        }
        let place = format!("{kind} record");
        Anthropic::add_message(&mut reading.conversation, message, &place, diagnostics);
    }
    if repeated > 0 {
        let records = match repeated {
            1 => "1 record repeats".to_string(),
            count => format!("{count} records repeat"),
        };
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            format!("{records} an earlier record's \"uuid\"; read once"),
        ));
    }
    finish(sessions)
}

/// The sessions, each subagent linked to its parent session; the calls that started them (by the
/// agents results name, else by prompt) and their kinds are the shared subagent linking's.
fn finish(sessions: Vec<Reading>) -> Vec<Session> {
    let mut finished: Vec<Session> = sessions
        .into_iter()
        .map(|reading| {
            let mut session = reading.conversation.finish();
            session.started_subagents = reading.started;
            let Some(parent_session) = reading.parent_session else {
                session.agent_id = Some(MAIN_AGENT.to_string());
                return session;
            };
            let is_compaction = reading
                .agent_ref
                .as_deref()
                .is_some_and(|agent| agent.starts_with(COMPACTION_AGENT));
            session.agent_id = Some(if is_compaction {
                format!("{MAIN_AGENT}/compact")
            } else {
                format!("{MAIN_AGENT}{UNKNOWN_SUBAGENT}")
            });
            session.parent = Some(ParentLink {
                session_id: parent_session,
                call_id: None,
            });
            session
        })
        .collect();
    link_subagents(&mut finished, |_| true);
    finished
}

/// The subagent a result record says it ran: `toolUseResult.agentId`, or (older files) the
/// record's own `agentId` on a main-chain record.
fn result_agent(value: &Value) -> Option<String> {
    let from_result = value
        .get("toolUseResult")
        .and_then(|result| str_field(result, "agentId"));
    let is_sidechain = value.get("isSidechain").and_then(Value::as_bool) == Some(true);
    let from_record = (!is_sidechain)
        .then(|| str_field(value, "agentId"))
        .flatten();
    from_result.or(from_record).map(str::to_string)
}

/// The call id of the first tool result in the record's message.
fn first_result_call(value: &Value) -> Option<String> {
    value
        .get("message")?
        .get("content")?
        .as_array()?
        .iter()
        .find(|block| str_field(block, "type") == Some("tool_result"))
        .and_then(|block| block.get("tool_use_id"))
        .and_then(super::id_text)
}

/// Whether a user message is one Claude Code writes for the user's own actions or its own
/// events rather than a prompt to the model: an interruption (`[Request interrupted by user]`),
/// a local command's output (`<local-command-stdout>`; the meta record before it says the model
/// is not to answer it), or the notice that a background task such as an async subagent ended
/// (`<task-notification>`, `origin.kind: "task-notification"`). The slash command itself
/// (`<command-name>`) stays a user turn: a custom command's arguments are the user's request,
/// which the model answers.
fn is_cli_notice(message: &Value) -> bool {
    let text = match message.get("content") {
        Some(Value::String(text)) => text.as_str(),
        Some(Value::Array(blocks)) if blocks.len() == 1 => {
            str_field(&blocks[0], "text").unwrap_or_default()
        }
        _ => return false,
    };
    let text = text.trim_start();
    text.starts_with("[Request interrupted by user")
        || CLI_NOTICE_TAGS.iter().any(|tag| text.starts_with(tag))
}

/// The tags a local command's output records and a task's notice start with.
const CLI_NOTICE_TAGS: [&str; 4] = [
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "<task-notification>",
];

/// Whether a message carries a tool result (a meta record never hides one).
fn has_tool_result(message: &Value) -> bool {
    message
        .get("content")
        .and_then(Value::as_array)
        .is_some_and(|blocks| {
            blocks
                .iter()
                .any(|block| str_field(block, "type") == Some("tool_result"))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interruptions_and_local_command_output_are_notices_but_a_slash_command_is_not() {
        let message = |text: &str| serde_json::json!({"role": "user", "content": text});
        assert!(is_cli_notice(&message("[Request interrupted by user]")));
        assert!(is_cli_notice(&serde_json::json!({"role": "user",
            "content": [{"type": "text", "text": "[Request interrupted by user for tool use]"}]})));
        assert!(is_cli_notice(&message(
            "<local-command-stdout>Reconnected to tidewave.</local-command-stdout>"
        )));
        assert!(!is_cli_notice(&message(
            "<command-name>/review</command-name><command-args>the parser</command-args>"
        )));
        assert!(is_cli_notice(&message(
            "<task-notification>\n<task-id>a0a15e1384732de82</task-id>\n<status>completed</status>"
        )));
        assert!(!is_cli_notice(&message("Why does the build fail?")));
    }
}
