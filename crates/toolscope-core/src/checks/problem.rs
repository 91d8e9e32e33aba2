//! What a check finds: a problem at one call of one session.

use serde::{Deserialize, Serialize};

/// The kind of problem; each has its own check and its own page in docs/checks/.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The tool name is not in the catalog.
    UnknownTool,
    /// The arguments fail the tool's JSON Schema.
    Schema,
    /// The arguments are a string that is not JSON.
    MalformedArgs,
    /// A tool was called before one it must come after.
    Order,
    /// The same call was repeated straight after it failed.
    RetryAfterError,
    /// An error result was followed by a reply instead of another call.
    UnhandledError,
    /// The schema check could not decide the call: a `pattern` exceeded the regex engine's
    /// bound, or the schema's references would take more work than the bound on one call
    /// (see `schema_bound`). Neither valid nor invalid: listed, but not counted as a failed call.
    SchemaUndecidable,
}

impl ProblemKind {
    /// Every kind, in report order.
    pub const ALL: [ProblemKind; 7] = [
        ProblemKind::UnknownTool,
        ProblemKind::Schema,
        ProblemKind::MalformedArgs,
        ProblemKind::Order,
        ProblemKind::RetryAfterError,
        ProblemKind::UnhandledError,
        ProblemKind::SchemaUndecidable,
    ];

    /// The kind's name as in the report JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::UnknownTool => "unknown_tool",
            ProblemKind::Schema => "schema",
            ProblemKind::MalformedArgs => "malformed_args",
            ProblemKind::Order => "order",
            ProblemKind::RetryAfterError => "retry_after_error",
            ProblemKind::UnhandledError => "unhandled_error",
            ProblemKind::SchemaUndecidable => "schema_undecidable",
        }
    }

    /// Whether a problem of this kind counts against the call (all but undecidable ones).
    pub fn is_failure(self) -> bool {
        self != ProblemKind::SchemaUndecidable
    }
}

/// One problem at one call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// The session it is in.
    pub session_id: String,
    /// 1-based step: the call's position among the session's tool calls.
    pub step: usize,
    /// The tool called at that step.
    pub tool: String,
    /// What kind of problem.
    pub kind: ProblemKind,
    /// The seed's wording without the "step N: " prefix, e.g.
    /// "issue_refund: -5 is less than or equal to the minimum of 0".
    pub message: String,
    /// For schema problems: the JSON pointer of the failing value in the arguments.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pointer: Option<String>,
    /// For unknown tools: the nearest known name, when one is close.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub suggestion: Option<String>,
    /// For retries: the step of the failed call that was repeated.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub related_step: Option<usize>,
}

impl Problem {
    /// A problem with only the required fields set.
    pub fn new(
        session_id: &str,
        step: usize,
        tool: &str,
        kind: ProblemKind,
        message: String,
    ) -> Self {
        Problem {
            session_id: session_id.to_string(),
            step,
            tool: tool.to_string(),
            kind,
            message,
            pointer: None,
            suggestion: None,
            related_step: None,
        }
    }

    /// The problem in the seed's wording: "step 1: issue_refund called before lookup_order".
    pub fn seed_line(&self) -> String {
        format!("step {}: {}", self.step, self.message)
    }
}

/// Python's `repr()` of a string, as the seed's messages use it (`unknown tool 'refund_order'`).
pub fn python_repr(text: &str) -> String {
    let quote = if text.contains('\'') && !text.contains('"') {
        '"'
    } else {
        '\''
    };
    let mut out = String::with_capacity(text.len() + 2);
    out.push(quote);
    for character in text.chars() {
        match character {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

#[cfg(test)]
mod tests {
    use super::python_repr;

    #[test]
    fn repr_quotes_like_python() {
        assert_eq!(python_repr("refund_order"), "'refund_order'");
        assert_eq!(python_repr("it's"), "\"it's\"");
        assert_eq!(python_repr("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(python_repr("a\nb\\"), "'a\\nb\\\\'");
    }
}
