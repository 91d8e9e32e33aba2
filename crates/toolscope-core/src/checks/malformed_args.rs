//! **malformed_args**: the arguments are a string that does not decode as JSON (OpenAI sends
//! arguments as a JSON string, and a model can break it). Replaces the schema check.
//!
//! Example: `step 3: lookup_order: arguments are not valid JSON (EOF while parsing an object at line 1 column 20)`.

use super::problem::{Problem, ProblemKind};
use crate::model::{Args, ToolCall};

/// The problem, if the call's arguments did not decode.
pub fn check(session_id: &str, step: usize, call: &ToolCall) -> Option<Problem> {
    match &call.args {
        Args::Malformed { error, .. } => Some(Problem::new(
            session_id,
            step,
            &call.name,
            ProblemKind::MalformedArgs,
            format!("{}: arguments are not valid JSON ({error})", call.name),
        )),
        Args::Json(_) => None,
    }
}
