//! **schema**: the arguments fail the tool's JSON Schema; every validation error is reported,
//! with the JSON pointer of the failing value. Messages are the jsonschema crate's, which match
//! Python's jsonschema for the seed's cases.
//!
//! Why: the agent already describes its tools with these schemas; checking what it sent back
//! against them is free and catches the shape of bad arguments (not their truth).
//!
//! Example: `step 1: issue_refund: -5 is less than or equal to the minimum of 0`.
//!
//! A `pattern` whose match exceeds the regex engine's bound gives a **schema_undecidable**
//! problem instead: the call is neither valid nor invalid.

use jsonschema::error::ValidationErrorKind;
use serde_json::Value;

use super::catalog::CompiledTool;
use super::problem::{Problem, ProblemKind};

/// Every schema error of decoded arguments.
pub fn check(
    session_id: &str,
    step: usize,
    name: &str,
    args: &Value,
    tool: &CompiledTool,
) -> Vec<Problem> {
    let Some(validator) = &tool.validator else {
        return Vec::new();
    };
    if validator.is_valid(args) {
        return Vec::new();
    }
    validator
        .iter_errors(args)
        .map(|error| {
            let undecidable = matches!(
                error.kind(),
                ValidationErrorKind::BacktrackLimitExceeded { .. }
                    | ValidationErrorKind::RegexEngineFailure { .. }
            );
            let pointer = error.instance_path().to_string();
            let (kind, message) = if undecidable {
                (
                    ProblemKind::SchemaUndecidable,
                    format!(
                        "{name}: could not decide the schema's pattern for {} ({error})",
                        if pointer.is_empty() { "/" } else { &pointer }
                    ),
                )
            } else {
                (ProblemKind::Schema, format!("{name}: {error}"))
            };
            let mut problem = Problem::new(session_id, step, name, kind, message);
            problem.pointer = Some(pointer);
            problem
        })
        .collect()
}
