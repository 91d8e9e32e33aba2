//! Trace readers: each turns one export format into [`Session`]s (and, for formats that carry
//! them, [`Label`]s). The format is detected from the content, never the file name, and the
//! reason is kept; [`read_traces_as`] reads a file in a format the caller chooses instead.
//!
//! ```
//! use toolscope_core::formats::{read_traces, TraceFormat};
//!
//! let bytes = br#"{"messages": [{"role": "user", "content": "Weather in Paris?"},
//!   {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
//!     "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\"}"}}]},
//!   {"role": "tool", "tool_call_id": "c1", "content": "Error: service down"}]}"#;
//! let mut diagnostics = Vec::new();
//! let read = read_traces("chat.json", bytes, &mut diagnostics);
//! assert_eq!(read.format.unwrap().0, TraceFormat::OpenaiChat);
//! assert_eq!(read.sessions[0].calls().next().unwrap().name, "get_weather");
//! assert!(diagnostics.is_empty());
//! ```
//!
//! Shared parts: `conversation` builds every session (call/result links, the `Error:`
//! convention, warnings about orphaned results), `exchange` reads provider API requests and
//! responses for the OpenAI, Anthropic and Gemini dialects, `otlp` turns spans (OTel GenAI,
//! OpenInference, Langfuse observations) into sessions, `messages` reads messages in any
//! framework's shape, `detect` picks the format.

mod agents_sdk;
pub mod anthropic;
mod anthropic_stream;
pub mod bfcl;
mod bfcl_results;
mod claude_code;
mod codex_cli;
pub(crate) use bfcl_results::join_bfcl_results;
mod content;
mod conversation;
pub(crate) mod detect;
mod mcp;
pub(crate) use detect::detect as detect_format;
pub mod eval_cases;
mod exchange;
pub mod gemini;
mod gemini_cli;
pub mod inspect;
pub mod langfuse;
mod langfuse_beeai;
mod langsmith;
mod message_text;
mod messages;
mod nesting;
pub(crate) use nesting::link_subagents;
mod iso_time;
mod mini_swe_agent;
pub mod native;
mod native_fields;
mod odd_record;
pub mod openai_chat;
mod openai_chat_stream;
pub mod openai_responses;
mod openai_responses_stream;
mod openhands;
pub mod openinference;
mod otel_events;
pub mod otel_genai;
mod otlp;
mod otlp_json;
mod python_literal;
pub mod seed_calls;
mod swe_agent;
pub mod tau_bench;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::{Diagnostic, Severity};
use crate::inputs::labels::Label;
use crate::inputs::task_labels::TaskLabel;
use crate::json::{decode_text, split_records};
use crate::model::Session;

pub use content::content_text;

/// The trace formats toolscope reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TraceFormat {
    /// toolscope's own session format (JSON Lines or an array of sessions).
    Native,
    /// A bare JSON array of `{"name", "args"}` calls: one session, as in the seed's `check_calls`.
    SeedCalls,
    /// The seed's `eval_cases` list, each case with the agent's `tool_calls`: sessions and labels.
    EvalCases,
    /// OpenAI Chat Completions: requests, responses, logs of both, batch and fine-tuning JSONL,
    /// or a bare message list.
    OpenaiChat,
    /// Anthropic Messages: requests, responses, logs of both, or a bare message list.
    Anthropic,
    /// OpenAI Responses API: requests, responses, logs joined over `previous_response_id`, or a
    /// bare item list.
    OpenaiResponses,
    /// Google Gemini `generateContent`: requests, responses, logs of both, or a content list.
    Gemini,
    /// OpenTelemetry GenAI semantic conventions in OTLP/JSON (or bare spans, attribute maps).
    OtelGenai,
    /// OpenInference spans (Arize Phoenix) in OTLP/JSON (or bare spans, attribute maps).
    Openinference,
    /// Langfuse trace exports (`{"trace", "observations"}`) or observations.
    Langfuse,
    /// Inspect AI eval logs: `.json` logs and `.eval` ZIP archives.
    Inspect,
    /// Berkeley Function Calling Leaderboard question files (sessions) and `possible_answer`
    /// files (labels).
    Bfcl,
    /// τ-bench runs (`traj`) and τ²-bench results (`simulations`).
    TauBench,
    /// Claude Code session transcripts (JSON Lines of `user`/`assistant` records), subagents
    /// included.
    ClaudeCode,
    /// OpenAI Codex CLI rollouts (JSON Lines of `session_meta`, `response_item` and `event_msg`
    /// records).
    CodexCli,
    /// MCP message logs: JSON-RPC 2.0 messages (`tools/list`, `tools/call`), bare or wrapped.
    Mcp,
    /// OpenAI Agents SDK trace exports (traces and spans: agent, function, generation,
    /// handoff), each agent's part a session.
    AgentsSdk,
    /// LangSmith run exports (`run_type` llm / tool / chain), flat or as run trees.
    Langsmith,
    /// Gemini CLI chat recordings (JSON Lines of messages with `toolCalls`, or one document).
    GeminiCli,
    /// SWE-agent trajectories (`.traj`: `history`, `trajectory`, `info`) and mini-swe-agent's
    /// (`.traj.json`: `messages`, `trajectory_format`).
    SweAgent,
    /// OpenHands event streams (actions and observations) and evaluation outputs.
    Openhands,
}

impl TraceFormat {
    /// Every format, in the order detection tries them (most specific first).
    pub const ALL: [TraceFormat; 21] = [
        // Before `native`, whose records need only a `session_id`: an MCP log record may name
        // its session beside the message, and a LangSmith run names its project so.
        TraceFormat::Mcp,
        TraceFormat::Langsmith,
        TraceFormat::Native,
        TraceFormat::ClaudeCode,
        TraceFormat::CodexCli,
        TraceFormat::AgentsSdk,
        TraceFormat::GeminiCli,
        TraceFormat::SweAgent,
        TraceFormat::Openhands,
        TraceFormat::TauBench,
        TraceFormat::Bfcl,
        TraceFormat::Inspect,
        TraceFormat::Langfuse,
        TraceFormat::Openinference,
        TraceFormat::OtelGenai,
        TraceFormat::EvalCases,
        TraceFormat::SeedCalls,
        TraceFormat::OpenaiResponses,
        TraceFormat::Anthropic,
        TraceFormat::Gemini,
        TraceFormat::OpenaiChat,
    ];

    /// The format's name, as in the report and the CLI's `--format`.
    pub fn name(self) -> &'static str {
        match self {
            TraceFormat::Native => "native",
            TraceFormat::SeedCalls => "seed_calls",
            TraceFormat::EvalCases => "eval_cases",
            TraceFormat::OpenaiChat => "openai_chat",
            TraceFormat::Anthropic => "anthropic",
            TraceFormat::OpenaiResponses => "openai_responses",
            TraceFormat::Gemini => "gemini",
            TraceFormat::OtelGenai => "otel_genai",
            TraceFormat::Openinference => "openinference",
            TraceFormat::Langfuse => "langfuse",
            TraceFormat::Inspect => "inspect",
            TraceFormat::Bfcl => "bfcl",
            TraceFormat::TauBench => "tau_bench",
            TraceFormat::ClaudeCode => "claude_code",
            TraceFormat::CodexCli => "codex_cli",
            TraceFormat::Mcp => "mcp",
            TraceFormat::AgentsSdk => "agents_sdk",
            TraceFormat::Langsmith => "langsmith",
            TraceFormat::GeminiCli => "gemini_cli",
            TraceFormat::SweAgent => "swe_agent",
            TraceFormat::Openhands => "openhands",
        }
    }

    /// The format named `name`, if any.
    pub fn from_name(name: &str) -> Option<TraceFormat> {
        TraceFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
    }
}

impl std::fmt::Display for TraceFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a trace file held.
#[derive(Debug, Default)]
pub struct TraceRead {
    /// The detected format and why, or None when nothing could be read.
    pub format: Option<(TraceFormat, String)>,
    /// The sessions read.
    pub sessions: Vec<Session>,
    /// Labels the format carries alongside its traces.
    pub labels: Vec<Label>,
    /// Task labels (the actions a session's task expects) the format carries.
    pub tasks: Vec<TaskLabel>,
}

/// The warning for a trace file with no records, so that an empty export is not mistaken for an
/// agent that made no calls.
pub(crate) fn no_sessions(file: &str, text: &str) -> Diagnostic {
    let what = if text.trim().is_empty() {
        "is empty"
    } else {
        "holds no records (an empty array)"
    };
    Diagnostic::warning(file, None, format!("the file {what}: no sessions to read"))
}

/// Reads a trace file in whatever supported format it is.
pub fn read_traces(file: &str, bytes: &[u8], diagnostics: &mut Vec<Diagnostic>) -> TraceRead {
    read_traces_as(file, bytes, None, diagnostics)
}

/// Reads a trace file in the given format, or (with `None`) the format its content shows.
///
/// Every record the reader cannot read is a diagnostic at its line; a file from which nothing
/// could be read is an error even when each of its records was only a warning (say, a file of
/// `{}` lines).
pub fn read_traces_as(
    file: &str,
    bytes: &[u8],
    format: Option<TraceFormat>,
    diagnostics: &mut Vec<Diagnostic>,
) -> TraceRead {
    read_traces_reporting(file, bytes, format, diagnostics, &mut |_| {})
}

/// [`read_traces_as`], telling `progress` the share of the file read so far (0 to 1) where the
/// reader can tell (toolscope's own format, record by record); other readers report only the end.
pub fn read_traces_reporting(
    file: &str,
    bytes: &[u8],
    format: Option<TraceFormat>,
    diagnostics: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(f64),
) -> TraceRead {
    let is_archive = inspect::is_zip(bytes);
    if is_archive && matches!(format, None | Some(TraceFormat::Inspect)) {
        let reason = match format {
            Some(_) => "chosen by the user",
            None => "a ZIP archive: Inspect .eval log",
        };
        return match inspect::read_eval(file, bytes, diagnostics) {
            Some(sessions) => TraceRead {
                format: Some((TraceFormat::Inspect, reason.to_string())),
                sessions,
                ..TraceRead::default()
            },
            None => TraceRead::default(),
        };
    }
    let before = diagnostics.len();
    let text = decode_text(file, bytes, diagnostics);
    let split = split_records(file, &text, diagnostics);
    if split.records.is_empty() && diagnostics.len() == before {
        diagnostics.push(no_sessions(file, &text));
        return TraceRead::default();
    }
    let detected = match format {
        Some(format) => Some((format, "chosen by the user".to_string())),
        None => detect::detect(file, &split, diagnostics),
    };
    let Some((format, reason)) = detected else {
        return TraceRead::default();
    };
    let mut read = TraceRead {
        format: Some((format, reason)),
        ..TraceRead::default()
    };
    // Records a reader leaves out by design, each with a warning: a file of only those was read.
    let mut left_out_by_design = 0;
    match format {
        TraceFormat::Native => {
            read.sessions = native::read_reporting(file, &split, diagnostics, progress)
        }
        TraceFormat::SeedCalls => read.sessions = seed_calls::read(file, &split, diagnostics),
        TraceFormat::EvalCases => {
            let (sessions, labels) = eval_cases::read(file, &split, diagnostics);
            read.sessions = sessions;
            read.labels = labels;
        }
        TraceFormat::OpenaiChat => {
            read.sessions = exchange::read::<openai_chat::OpenAiChat>(file, &split, diagnostics)
        }
        TraceFormat::Anthropic => {
            read.sessions = exchange::read::<anthropic::Anthropic>(file, &split, diagnostics)
        }
        TraceFormat::OpenaiResponses => {
            read.sessions =
                exchange::read::<openai_responses::OpenAiResponses>(file, &split, diagnostics)
        }
        TraceFormat::Gemini => {
            read.sessions = exchange::read::<gemini::Gemini>(file, &split, diagnostics)
        }
        // One reader: a file may mix the two span dialects, and each span is read in its own.
        TraceFormat::OtelGenai | TraceFormat::Openinference => {
            read.sessions = otlp::read(file, &split, diagnostics)
        }
        TraceFormat::Langfuse => read.sessions = langfuse::read(file, &split, diagnostics),
        TraceFormat::Inspect => read.sessions = inspect::read(file, &split, diagnostics),
        TraceFormat::ClaudeCode => read.sessions = claude_code::read(file, &split, diagnostics),
        TraceFormat::CodexCli => read.sessions = codex_cli::read(file, &split, diagnostics),
        TraceFormat::Mcp => read.sessions = mcp::read(file, &split, diagnostics),
        TraceFormat::AgentsSdk => read.sessions = agents_sdk::read(file, &split, diagnostics),
        TraceFormat::Langsmith => read.sessions = langsmith::read(file, &split, diagnostics),
        TraceFormat::GeminiCli => read.sessions = gemini_cli::read(file, &split, diagnostics),
        TraceFormat::SweAgent => read.sessions = swe_agent::read(file, &split, diagnostics),
        TraceFormat::Openhands => read.sessions = openhands::read(file, &split, diagnostics),
        TraceFormat::TauBench => {
            let (sessions, tasks) = tau_bench::read(file, &split, diagnostics);
            read.sessions = sessions;
            read.tasks = tasks;
        }
        TraceFormat::Bfcl => {
            let (sessions, labels, multi_turn_results) = bfcl::read(file, &split, diagnostics);
            read.sessions = sessions;
            read.labels = labels;
            left_out_by_design = multi_turn_results;
        }
    }
    let is_nothing_read =
        read.sessions.is_empty() && read.labels.is_empty() && read.tasks.is_empty();
    let has_errors = diagnostics[before..]
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error);
    if is_nothing_read && split.records.len() > left_out_by_design && !has_errors {
        // Nothing was read and no error says so (records were skipped or left out with
        // warnings): the file as a whole is input that could not be read.
        let records = match split.records.len() {
            1 => "its record holds".to_string(),
            count => format!("its {count} records hold"),
        };
        diagnostics.push(Diagnostic::error(
            file,
            None,
            format!("nothing in the file could be read as {format}: {records} no session"),
        ));
    }
    read
}

/// The name a file gives a session that has no id of its own: the file name without folders or
/// extension.
pub(crate) fn file_stem(file: &str) -> &str {
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    match name.find('.') {
        Some(0) | None => name,
        Some(dot) => &name[..dot],
    }
}

/// A JSON id (string or number) as text.
pub(crate) fn id_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}
