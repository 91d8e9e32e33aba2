//! Sessions, events, calls and results.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::ToolDef;

/// Where a record came from in the input, so a problem can point back at it.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Origin {
    /// The input file's name as the user gave it.
    pub file: String,
    /// 1-based line where the record starts.
    pub line: usize,
}

/// One agent session: a conversation with its tool calls, in order.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Session {
    /// The session's identifier, unique across the inputs.
    pub session_id: String,
    /// The agent (or agent version) that ran it, when the export says.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent_id: Option<String>,
    /// The task it attempted, when the export says (τ-bench runs: each trial of a task is a
    /// session); task labels name sessions by it.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_id: Option<String>,
    /// How the attempt went, when the export scores it (τ-bench's `reward`, an Inspect score):
    /// trials of one task give pass^k ([`crate::metrics::trials`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trial: Option<Trial>,
    /// When it started, as the export wrote it (never parsed: the core has no clock).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub started_at: Option<String>,
    /// The tool definitions the agent was given, when the export carries them. Sessions that
    /// carry the same list share one copy.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tools: Option<Arc<Vec<ToolDef>>>,
    /// The session and call that started this one, for a subagent (a Claude Code sidechain, a
    /// handoff, a delegation), when the export says.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<ParentLink>,
    /// The subagents this session's calls started, as its export names them (a Gemini CLI tool
    /// call's `agentId`): the subagent linking links each such subagent's session to its call,
    /// across files too. Not part of the report.
    #[serde(skip)]
    pub started_subagents: Vec<StartedSubagent>,
    /// The events, in the order they happened.
    pub events: Vec<Event>,
    /// Where the session was read from.
    pub origin: Origin,
}

/// Where a subagent's session came from: the parent session and, when known, the call in it
/// that started the subagent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParentLink {
    /// The parent session's id.
    pub session_id: String,
    /// The parent's call that started this session, when the export links them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub call_id: Option<String>,
}

/// A subagent that one of a session's calls started, as the export names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartedSubagent {
    /// The subagent's session id.
    pub session_id: String,
    /// The call that started it.
    pub call_id: String,
}

/// One scored attempt at a task.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Trial {
    /// The trial's number in the export (τ-bench `trial`, Inspect `epoch`), when it gives one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub number: Option<u64>,
    /// The reward: 1 is a success (within 1e-6, as τ-bench counts it).
    pub reward: f64,
}

impl Trial {
    /// Whether the attempt succeeded: a reward of 1 (within 1e-6), as τ-bench's `is_successful`.
    pub fn is_success(&self) -> bool {
        (1.0 - 1e-6..=1.0 + 1e-6).contains(&self.reward)
    }
}

/// One thing that happened in a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A user message; it starts a new turn.
    User {
        /// The message as text.
        content: String,
    },
    /// An assistant reply (text, not a tool call).
    Assistant {
        /// The reply as text.
        content: String,
    },
    /// The agent called a tool.
    ToolUse(ToolCall),
    /// A tool returned.
    ToolResult(ToolResult),
}

/// A tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    /// Links the call to its result, when the format has such ids.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub call_id: Option<String>,
    /// The tool's name, as the agent wrote it.
    pub name: String,
    /// The arguments.
    pub args: Args,
}

/// A call's arguments: decoded JSON, or the raw text when it does not decode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Args {
    /// Arguments that are (or decoded to) a JSON value.
    Json(Value),
    /// Arguments sent as a string that is not JSON (OpenAI sends arguments as a JSON string,
    /// and a model can write a broken one).
    Malformed {
        /// The string exactly as sent.
        raw: String,
        /// Why it does not decode.
        error: String,
    },
}

impl Args {
    /// Arguments as the agent sent them: a JSON value, or a string that should hold JSON.
    /// A string that decodes becomes its value; one that does not stays raw.
    pub fn from_sent(value: Value) -> Args {
        match value {
            Value::String(text) => match serde_json::from_str::<Value>(&text) {
                Ok(decoded) => Args::Json(decoded),
                Err(error) => Args::Malformed {
                    raw: text,
                    error: error.to_string(),
                },
            },
            other => Args::Json(other),
        }
    }

    /// The decoded value, if the arguments decoded.
    pub fn json(&self) -> Option<&Value> {
        match self {
            Args::Json(value) => Some(value),
            Args::Malformed { .. } => None,
        }
    }
}

/// Whether a tool result succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultStatus {
    /// The tool returned normally.
    Ok,
    /// The tool failed.
    Error,
}

/// Who caused a tool error, where the export says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ErrorSource {
    /// The agent's call was wrong (bad arguments, a call that cannot succeed).
    Agent,
    /// The environment failed (timeout, outage): not the agent's fault, but handling it is.
    Environment,
}

/// A tool's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolResult {
    /// The call this result answers, when the format links them.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub call_id: Option<String>,
    /// Ok or error.
    pub status: ResultStatus,
    /// What the tool returned, as text.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub content: Option<String>,
    /// Who caused the error, where known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub error_source: Option<ErrorSource>,
    /// True when the error status was inferred (from an "Error: " prefix, say) rather than
    /// stated by the export.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub is_status_inferred: bool,
}

impl Session {
    /// The session's tool calls in order; their 1-based position is the call's step.
    pub fn calls(&self) -> impl Iterator<Item = &ToolCall> {
        self.events.iter().filter_map(|event| match event {
            Event::ToolUse(call) => Some(call),
            _ => None,
        })
    }

    /// Whether the user says anything in the session.
    pub fn has_user_message(&self) -> bool {
        self.events
            .iter()
            .any(|event| matches!(event, Event::User { .. }))
    }
}
