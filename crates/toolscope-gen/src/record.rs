//! The JSON records written: sessions in toolscope's native format and labels.
//! Field order is fixed by these structs, so the output bytes depend on the seed only.

use serde::Serialize;
use serde_json::Value;

/// One session line of `sessions.jsonl`.
#[derive(Debug, Clone, Serialize)]
pub struct SessionRecord {
    /// Unique per data set.
    pub session_id: String,
    /// The agent version.
    pub agent_id: &'static str,
    /// RFC 3339 start time.
    pub started_at: String,
    /// The tools the agent was given, on the sessions whose export carries them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Value>,
    /// What happened, in order.
    pub events: Vec<EventRecord>,
}

/// One event of a session.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventRecord {
    /// A user message.
    User {
        /// The text.
        content: String,
    },
    /// An assistant reply.
    Assistant {
        /// The text.
        content: String,
    },
    /// A tool call.
    ToolUse {
        /// Links the call to its result.
        #[serde(skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        /// The tool name as the agent wrote it.
        name: String,
        /// A JSON object, or (OpenAI style) a string that should hold one.
        args: Value,
    },
    /// A tool result.
    ToolResult {
        /// The call it answers.
        #[serde(skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        /// "ok" or "error".
        status: &'static str,
        /// "agent" or "environment", where the export attributes errors.
        #[serde(skip_serializing_if = "Option::is_none")]
        error_source: Option<&'static str>,
        /// What the tool returned.
        content: String,
    },
}

/// The tool a label expects first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ExpectedRecord {
    /// One tool, or "none".
    One(&'static str),
    /// Any of these.
    AnyOf(Vec<&'static str>),
}

/// One line of `labels.jsonl`.
#[derive(Debug, Clone, Serialize)]
pub struct LabelRecord {
    /// The session.
    pub session_id: String,
    /// 0-based turn.
    pub turn: usize,
    /// The first call the turn should make.
    pub expected_tool: ExpectedRecord,
    /// Arguments of that call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_args: Option<Value>,
    /// Tools the turn must not call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub should_not_call: Vec<&'static str>,
    /// Every call the turn should make, for multi-call turns.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_tools: Option<Vec<&'static str>>,
    /// Their arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_args_list: Option<Vec<Value>>,
    /// Whether the task succeeded, on the labels that say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_success: Option<bool>,
}
