//! The one session model every format reader produces and every check and metric reads.
//!
//! A [`Session`] is an ordered list of [`Event`]s: user turns, assistant replies, tool calls and
//! tool results. Readers for OpenAI, Anthropic, OpenTelemetry and the rest all map into it, so a
//! check written once works on every format.

mod session;
mod tool;
mod turns;

pub use session::{
    Args, ErrorSource, Event, Origin, ParentLink, ResultStatus, Session, StartedSubagent, ToolCall,
    ToolResult, Trial,
};
pub use tool::ToolDef;
pub use turns::{event_positions, turn_count, turns_of, Turn};

/// The tool name used for "no tool was called" in labels, confusion matrices and per-tool rows.
pub const NO_TOOL: &str = "none";
