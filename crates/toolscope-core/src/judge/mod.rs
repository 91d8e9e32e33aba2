//! The LLM judge: the questions code cannot answer (was a call needed, were its arguments
//! grounded, was its result used), asked of a model with the user's own key, and measured
//! against human verdicts.
//!
//! Sans-IO, like the rest of the core: this module *builds* each request as plain data (method,
//! URL, headers, body) and *parses* each response into verdicts, a retry decision or an unscored
//! cause; the adapters (the CLI's HTTP client, the page's `fetch`) only move bytes. So every
//! protocol detail is a unit test on plain values, and the page and the CLI judge identically.
//!
//! The rubric is the first seed's: one verdict per tool call and [`Criterion`], each `pass`,
//! `fail` or `unscored` with its [`UnscoredCause`], a short reason and evidence quotes checked
//! against the session's text. Unscored verdicts are never folded into pass or fail: rates are
//! over scored verdicts, always with their denominators and the unscored count beside them.
//!
//! The conversation with the model, one call at a time:
//! - [`prompt`] builds what the judge sees ([`build_prompt`]): the tools as the agent saw them,
//!   the conversation cut around the call, the call, its result and the next reply, each event
//!   numbered; the rubric asks for JSON with a verdict, a reason and exact quotes per criterion.
//!   The same inputs give the same bytes, and the prompt's SHA-256 names it.
//! - [`provider`] turns the prompt into an HTTP request for Anthropic, OpenAI, Gemini or an
//!   OpenAI-compatible server ([`build_request`]), with structured output where the API has it
//!   and the key in one header only.
//! - [`answer`] reads the response ([`read_response`]) into verdicts and tokens used, or into an
//!   unscored cause (refusal, truncation, rate limit, quota, HTTP error, parse error) with a
//!   detail that never holds the key; [`parse`] is its tolerant reader of JSON in text.
//! - [`retry`] decides after each attempt whether to resend and after how long ([`decide`]).
//! - [`evidence`] checks every quote against the session ([`check_evidence`]); a verdict whose
//!   quote is not there becomes unscored.
//!
//! ```
//! use toolscope_core::judge::{build_prompt, build_request, PromptLimits, Provider, ProviderConfig};
//! use toolscope_core::model::{Args, Event, Session, ToolCall};
//!
//! let session = Session {
//!     session_id: "s1".into(),
//!     events: vec![
//!         Event::User { content: "Where is order 7Q2ZK9XA?".into() },
//!         Event::ToolUse(ToolCall {
//!             call_id: None,
//!             name: "lookup_order".into(),
//!             args: Args::Json(serde_json::json!({"order_id": "7Q2ZK9XA"})),
//!         }),
//!     ],
//!     ..Session::default()
//! };
//! let prompt = build_prompt(&session, 1, &[], &PromptLimits::default()).unwrap();
//! assert!(prompt.user.contains(r#"[event 1] tool_call lookup_order: {"order_id":"7Q2ZK9XA"}"#));
//! let config = ProviderConfig::new(Provider::OpenAi, "gpt-4o-mini");
//! let request = build_request(&config, &prompt, "sk-example");
//! assert_eq!(request.url, "https://api.openai.com/v1/chat/completions");
//! assert!(!format!("{request:?}").contains("sk-example"));
//! ```

// Choosing calls, cost, and measuring the verdicts.
pub mod cache;
pub mod calibration;
pub mod call_list;
pub mod corrected;
pub mod cost;
pub mod in_report;
pub mod sample;
pub mod summary;
pub mod verdict_file;

use serde::{Deserialize, Serialize};

// The conversation with the model.
pub mod answer;
pub mod evidence;
pub mod parse;
pub mod prompt;
pub mod provider;
pub mod retry;
pub mod run;
pub mod streamed;
pub use answer::{read_response, Answer, CriterionAnswer, Usage};
pub use evidence::check_evidence;
pub use prompt::{
    build_prompt, template_ref, verdict_schema, JudgePrompt, PromptLimits, TEMPLATE_ID,
};
pub use provider::{build_request, HttpRequest, HttpResponse, Provider, ProviderConfig};
pub use retry::{decide, RetryDecision, RetryPolicy};

/// What the judge is asked about each call (the first seed's four criteria).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Criterion {
    /// A call was needed here (information or an action the agent did not have), rather than
    /// answering or asking.
    CallDecision,
    /// The tool called was the most suitable available one for its purpose.
    RightTool,
    /// Every argument value comes from the conversation or an earlier result; none is invented.
    ArgsGrounded,
    /// The next reply reflects what the tool returned, including an error.
    ResultUsed,
}

impl Criterion {
    /// Every criterion, in the rubric's order.
    pub const ALL: [Criterion; 4] = [
        Criterion::CallDecision,
        Criterion::RightTool,
        Criterion::ArgsGrounded,
        Criterion::ResultUsed,
    ];

    /// The name in prompts, verdicts and the report.
    pub fn as_str(self) -> &'static str {
        match self {
            Criterion::CallDecision => "call_decision",
            Criterion::RightTool => "right_tool",
            Criterion::ArgsGrounded => "args_grounded",
            Criterion::ResultUsed => "result_used",
        }
    }

    /// The criterion of a name.
    pub fn from_name(name: &str) -> Option<Criterion> {
        Criterion::ALL
            .into_iter()
            .find(|criterion| criterion.as_str() == name)
    }
}

/// A verdict on one criterion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The call meets the criterion.
    Pass,
    /// It does not.
    Fail,
    /// The judge gave no usable verdict (see [`UnscoredCause`]).
    Unscored,
}

/// Why a verdict is unscored. Never a pass or a fail: counted apart, with its cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnscoredCause {
    /// The answer could not be read as a verdict (not JSON, a criterion missing or not a
    /// verdict).
    ParseError,
    /// The model declined to judge.
    Refusal,
    /// The answer was cut at the token limit.
    Truncated,
    /// The provider kept answering 429 past the retries (an overloaded 529 is an `HttpError`).
    RateLimited,
    /// The account is out of quota or credit; retrying cannot help.
    Quota,
    /// No answer within the time allowed.
    Timeout,
    /// Any other HTTP failure (400, 401, 403, 5xx past the retries, a network error).
    HttpError,
    /// A quote given as evidence is not in the session: the verdict cannot be trusted.
    EvidenceMismatch,
    /// The run stopped (budget reached, cancelled) before this call was judged.
    NotRun,
}

impl UnscoredCause {
    /// Every cause, in the order reports list them.
    pub const ALL: [UnscoredCause; 9] = [
        UnscoredCause::ParseError,
        UnscoredCause::Refusal,
        UnscoredCause::Truncated,
        UnscoredCause::RateLimited,
        UnscoredCause::Quota,
        UnscoredCause::Timeout,
        UnscoredCause::HttpError,
        UnscoredCause::EvidenceMismatch,
        UnscoredCause::NotRun,
    ];

    /// The name in verdicts and the report.
    pub fn as_str(self) -> &'static str {
        match self {
            UnscoredCause::ParseError => "parse_error",
            UnscoredCause::Refusal => "refusal",
            UnscoredCause::Truncated => "truncated",
            UnscoredCause::RateLimited => "rate_limited",
            UnscoredCause::Quota => "quota",
            UnscoredCause::Timeout => "timeout",
            UnscoredCause::HttpError => "http_error",
            UnscoredCause::EvidenceMismatch => "evidence_mismatch",
            UnscoredCause::NotRun => "not_run",
        }
    }
}

/// A quote the judge gives as evidence, with the event it comes from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    /// The quoted text, as the judge gave it.
    pub quote: String,
    /// The 0-based index of the session event the quote is from, when the judge named one
    /// that holds it (set by the evidence check).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<usize>,
}

/// Which prompt template produced a verdict: its id and the SHA-256 of its text, so a verdict
/// can be traced to the exact prompt and reproduced.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateRef {
    /// The template's id, e.g. `tool-call-v1`.
    pub id: String,
    /// The SHA-256 of the template's text (hex).
    pub sha256: String,
}

/// One verdict: one call, one criterion. A line of the verdicts file (`toolscope judge --out`)
/// and an item of the report's `judge.verdicts`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// The session.
    pub session_id: String,
    /// The call: its 1-based position among the session's tool calls (as problems' `step`).
    pub step: usize,
    /// The tool called.
    pub tool: String,
    /// The criterion.
    pub criterion: Criterion,
    /// Pass, fail or unscored.
    pub verdict: Outcome,
    /// Why unscored; absent for pass and fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<UnscoredCause>,
    /// The judge's short reason (or, unscored, what went wrong).
    #[serde(default)]
    pub reason: String,
    /// The judge's quotes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
    /// The judge model.
    pub model: String,
    /// The prompt template.
    pub template: TemplateRef,
    /// The SHA-256 of the exact prompt sent (hex): the cache key's core.
    pub prompt_sha256: String,
}

impl Verdict {
    /// The verdict as the report shows it: `pass`, `fail`, or `unscored: <cause>`.
    pub fn shown(&self) -> String {
        match (self.verdict, self.cause) {
            (Outcome::Pass, _) => "pass".into(),
            (Outcome::Fail, _) => "fail".into(),
            (Outcome::Unscored, Some(cause)) => format!("unscored: {}", cause.as_str()),
            (Outcome::Unscored, None) => "unscored".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_serde() {
        for criterion in Criterion::ALL {
            assert_eq!(Criterion::from_name(criterion.as_str()), Some(criterion));
            assert_eq!(
                serde_json::to_value(criterion).unwrap(),
                serde_json::Value::String(criterion.as_str().into())
            );
        }
        for cause in UnscoredCause::ALL {
            assert_eq!(
                serde_json::to_value(cause).unwrap(),
                serde_json::Value::String(cause.as_str().into())
            );
        }
    }
}
