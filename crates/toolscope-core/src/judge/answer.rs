//! Answers: a provider's response read into verdicts, or into the reason there are none.
//!
//! [`read_response`] never fails and never panics: every response, however odd, becomes an
//! [`Answer`]. A successful response gives four [`CriterionAnswer`]s and the tokens used; anything
//! else gives an unscored answer with its [`UnscoredCause`], a detail for the user (which never
//! holds the key) and whether retrying can help.
//!
//! How each provider says what went wrong:
//! - **Anthropic**: `stop_reason` `max_tokens` (cut at the token limit) and `refusal`; errors are
//!   `{"type": "error", "error": {"type", "message"}}`. Running out of credit is a 400
//!   `invalid_request_error` whose message says "Your credit balance is too low …".
//! - **OpenAI** (and compatible servers): `finish_reason` `length` and `content_filter`, and
//!   `message.refusal`; errors are `{"error": {"message", "type", "code"}}`. Running out of
//!   quota is a 429 with code `insufficient_quota`, which retrying cannot fix.
//! - **Gemini**: `promptFeedback.blockReason`, and `finishReason` `MAX_TOKENS`, `SAFETY`,
//!   `RECITATION`, `PROHIBITED_CONTENT`, `BLOCKLIST`, `SPII`; errors are `{"error": {"code",
//!   "message", "status", "details"}}`. Every 429 is `RESOURCE_EXHAUSTED` and its message says
//!   "You exceeded your current quota" whether a per-minute or a per-day limit was hit, so the
//!   wording cannot tell them apart: a 429 counts as quota only when a `QuotaFailure` detail
//!   names a per-day limit (`quotaId` containing `PerDay`) or a limit of zero (the model is not
//!   in the plan). Other 429s are rate limits, retried after the delay Gemini gives.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::parse::{parse_verdict_text, parse_verdict_value};
use super::prompt::JudgePrompt;
use super::provider::{HttpResponse, Provider, ProviderConfig, ANTHROPIC_TOOL_NAME};
use super::{Criterion, Evidence, Outcome, UnscoredCause, Verdict};
use crate::model::Session;
use crate::secret::SecretValue;

/// Characters of a provider's error message kept in a detail.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// Tokens a request used, as the provider counted them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Usage {
    /// Prompt tokens (Anthropic `input_tokens`, OpenAI `prompt_tokens`, Gemini
    /// `promptTokenCount`).
    pub input_tokens: u64,
    /// Output tokens, thinking included (Anthropic `output_tokens`, OpenAI
    /// `completion_tokens`, Gemini `candidatesTokenCount` + `thoughtsTokenCount`): what is
    /// billed as output.
    pub output_tokens: u64,
}

/// The judge's answer on one criterion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CriterionAnswer {
    /// The criterion.
    pub criterion: Criterion,
    /// Pass or fail; unscored when its evidence did not check out.
    pub outcome: Outcome,
    /// Why unscored; `None` for pass and fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<UnscoredCause>,
    /// The judge's reason (for an unscored criterion, what went wrong).
    pub reason: String,
    /// The judge's quotes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<Evidence>,
}

/// What one response comes to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Answer {
    /// A verdict on every criterion.
    Verdicts {
        /// One answer per criterion, in [`Criterion::ALL`]'s order.
        criteria: Vec<CriterionAnswer>,
        /// The tokens used (zero where the provider did not say).
        usage: Usage,
    },
    /// No usable verdict.
    Unscored {
        /// Why.
        cause: UnscoredCause,
        /// What happened, for the user: the provider's own message (cut, cleaned, any key
        /// removed) after a sentence saying what to do.
        detail: String,
        /// The tokens used, when the provider answered and said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usage: Option<Usage>,
        /// Whether sending the same request again may help (a rate limit, an outage); see
        /// [`decide`](super::retry::decide) for when and how often.
        is_retryable: bool,
    },
}

impl Answer {
    /// Takes every written form of `secret` out of the answer's texts: reasons, quotes and the
    /// detail of an unscored answer.
    pub fn redact(&mut self, secret: &SecretValue) {
        match self {
            Answer::Verdicts { criteria, .. } => {
                for answer in criteria {
                    secret.redact_in_place(&mut answer.reason);
                    for evidence in &mut answer.evidence {
                        secret.redact_in_place(&mut evidence.quote);
                    }
                }
            }
            Answer::Unscored { detail, .. } => secret.redact_in_place(detail),
        }
    }

    /// The tokens this answer cost, where known.
    pub fn usage(&self) -> Option<Usage> {
        match self {
            Answer::Verdicts { usage, .. } => Some(*usage),
            Answer::Unscored { usage, .. } => *usage,
        }
    }

    /// One [`Verdict`] per criterion for the judged call: the judge's verdicts, or four unscored
    /// ones carrying the cause and the detail as their reason.
    pub fn to_verdicts(
        &self,
        session: &Session,
        step: usize,
        model: &str,
        prompt: &JudgePrompt,
    ) -> Vec<Verdict> {
        let verdict = |criterion, outcome, cause, reason: &str, evidence: &[Evidence]| Verdict {
            session_id: session.session_id.clone(),
            step,
            tool: prompt.tool.clone(),
            criterion,
            verdict: outcome,
            cause,
            reason: reason.to_string(),
            evidence: evidence.to_vec(),
            model: model.to_string(),
            template: prompt.template.clone(),
            prompt_sha256: prompt.prompt_sha256.clone(),
        };
        match self {
            Answer::Verdicts { criteria, .. } => criteria
                .iter()
                .map(|answer| {
                    verdict(
                        answer.criterion,
                        answer.outcome,
                        answer.cause,
                        &answer.reason,
                        &answer.evidence,
                    )
                })
                .collect(),
            Answer::Unscored { cause, detail, .. } => Criterion::ALL
                .into_iter()
                .map(|criterion| verdict(criterion, Outcome::Unscored, Some(*cause), detail, &[]))
                .collect(),
        }
    }
}

/// What `config`'s provider answered, read into an [`Answer`].
pub fn read_response(config: &ProviderConfig, response: &HttpResponse) -> Answer {
    if !(200..300).contains(&response.status) {
        let failure = classify_failure(response);
        return Answer::Unscored {
            cause: failure.cause,
            detail: failure.detail,
            usage: None,
            is_retryable: failure.is_retryable,
        };
    }
    let body: Value = match serde_json::from_slice(&response.body) {
        Ok(body) => body,
        Err(error) => {
            return unscored(
                UnscoredCause::ParseError,
                format!("the provider's response is not JSON ({error})"),
                None,
            )
        }
    };
    let reply = match config.provider {
        Provider::Anthropic => anthropic_reply(&body),
        Provider::OpenAi | Provider::OpenAiCompatible => openai_reply(&body),
        Provider::Gemini => gemini_reply(&body),
    };
    let usage = reply.usage;
    if let Some((cause, detail)) = reply.stopped {
        return unscored(cause, detail, Some(usage));
    }
    let parsed = match reply.content {
        Content::Value(value) => parse_verdict_value(&value),
        Content::Text(text) => parse_verdict_text(&text),
        Content::Missing(what) => Err(what),
    };
    match parsed {
        Ok(criteria) => Answer::Verdicts { criteria, usage },
        Err(error) => unscored(UnscoredCause::ParseError, error, Some(usage)),
    }
}

fn unscored(cause: UnscoredCause, detail: String, usage: Option<Usage>) -> Answer {
    Answer::Unscored {
        cause,
        detail,
        usage,
        is_retryable: false,
    }
}

/// What the model said, and whether it stopped short.
struct Reply {
    content: Content,
    stopped: Option<(UnscoredCause, String)>,
    usage: Usage,
}

enum Content {
    /// Structured output as JSON (Anthropic's tool input).
    Value(Value),
    /// Text, for the tolerant parser.
    Text(String),
    /// No content, and why.
    Missing(String),
}

fn anthropic_reply(body: &Value) -> Reply {
    let usage = Usage {
        input_tokens: count(&body["usage"]["input_tokens"]),
        output_tokens: count(&body["usage"]["output_tokens"]),
    };
    let stop_reason = body["stop_reason"].as_str().unwrap_or_default();
    let stopped = match stop_reason {
        "max_tokens" | "model_context_window_exceeded" => Some((
            UnscoredCause::Truncated,
            format!("the answer was cut at the token limit (stop_reason {stop_reason}): raise the judge's output tokens"),
        )),
        "refusal" => Some((
            UnscoredCause::Refusal,
            "the model declined to judge (stop_reason refusal)".to_string(),
        )),
        _ => None,
    };
    let blocks = body["content"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let tool_input = blocks.iter().find(|block| {
        block["type"] == "tool_use" && block["name"].as_str() == Some(ANTHROPIC_TOOL_NAME)
    });
    let content = match tool_input {
        Some(block) => Content::Value(block["input"].clone()),
        None => {
            let text: Vec<&str> = blocks
                .iter()
                .filter(|block| block["type"] == "text")
                .filter_map(|block| block["text"].as_str())
                .collect();
            if text.is_empty() {
                Content::Missing("the response has neither a record_verdict call nor text".into())
            } else {
                Content::Text(text.join("\n"))
            }
        }
    };
    Reply {
        content,
        stopped,
        usage,
    }
}

fn openai_reply(body: &Value) -> Reply {
    let usage = Usage {
        input_tokens: count(&body["usage"]["prompt_tokens"]),
        output_tokens: count(&body["usage"]["completion_tokens"]),
    };
    let choice = &body["choices"][0];
    let message = &choice["message"];
    let finish_reason = choice["finish_reason"].as_str().unwrap_or_default();
    let stopped = if let Some(refusal) = message["refusal"].as_str().filter(|text| !text.is_empty())
    {
        Some((
            UnscoredCause::Refusal,
            format!("the model declined to judge: {}", shown_message(refusal)),
        ))
    } else {
        match finish_reason {
            "length" => Some((
                UnscoredCause::Truncated,
                "the answer was cut at the token limit (finish_reason length): raise the judge's output tokens".to_string(),
            )),
            "content_filter" => Some((
                UnscoredCause::Refusal,
                "the provider's content filter withheld the answer (finish_reason content_filter)".to_string(),
            )),
            _ => None,
        }
    };
    let content = match &message["content"] {
        Value::String(text) => Content::Text(text.clone()),
        // Some compatible servers send content as a list of parts.
        Value::Array(parts) => Content::Text(
            parts
                .iter()
                .filter_map(|part| part["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ if choice.is_null() => Content::Missing("the response has no choices".into()),
        _ => Content::Missing("the response's message has no content".into()),
    };
    Reply {
        content,
        stopped,
        usage,
    }
}

fn gemini_reply(body: &Value) -> Reply {
    let metadata = &body["usageMetadata"];
    let usage = Usage {
        input_tokens: count(&metadata["promptTokenCount"]),
        output_tokens: count(&metadata["candidatesTokenCount"])
            .saturating_add(count(&metadata["thoughtsTokenCount"])),
    };
    let candidate = &body["candidates"][0];
    let finish_reason = candidate["finishReason"].as_str().unwrap_or_default();
    let stopped = if let Some(block) = body["promptFeedback"]["blockReason"].as_str() {
        Some((
            UnscoredCause::Refusal,
            format!(
                "the provider blocked the prompt (blockReason {})",
                shown_message(block)
            ),
        ))
    } else {
        match finish_reason {
            "MAX_TOKENS" => Some((
                UnscoredCause::Truncated,
                "the answer was cut at the token limit (finishReason MAX_TOKENS): raise the judge's output tokens".to_string(),
            )),
            "SAFETY" | "RECITATION" | "PROHIBITED_CONTENT" | "BLOCKLIST" | "SPII"
            | "IMAGE_SAFETY" => Some((
                UnscoredCause::Refusal,
                format!("the provider withheld the answer (finishReason {finish_reason})"),
            )),
            _ => None,
        }
    };
    let parts = candidate["content"]["parts"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    // Thought summaries are not the answer.
    let text: Vec<&str> = parts
        .iter()
        .filter(|part| part["thought"] != Value::Bool(true))
        .filter_map(|part| part["text"].as_str())
        .collect();
    let content = if text.is_empty() {
        Content::Missing("the response has no candidate text".into())
    } else {
        Content::Text(text.concat())
    };
    Reply {
        content,
        stopped,
        usage,
    }
}

fn count(value: &Value) -> u64 {
    value.as_u64().unwrap_or(0)
}

/// An HTTP failure, classified: why, whether retrying may help, and what to tell the user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Failure {
    pub cause: UnscoredCause,
    pub is_retryable: bool,
    pub detail: String,
    /// The delay the provider asked for in its body (Gemini's `RetryInfo.retryDelay`).
    pub body_retry_ms: Option<u64>,
}

/// What a non-2xx response means. The body's shape tells the provider apart, so this needs no
/// configuration (and [`decide`](super::retry::decide) can use it too).
pub(crate) fn classify_failure(response: &HttpResponse) -> Failure {
    let status = response.status;
    let error = ErrorBody::read(&response.body);
    let is_quota = match status {
        402 => true,
        429 => {
            error.code == "insufficient_quota"
                || error.kind == "insufficient_quota"
                || error.is_gemini_hard_quota
        }
        400 | 403 => {
            let message = error.message.to_ascii_lowercase();
            message.contains("credit balance")
                || message.contains("billing")
                || error.code == "insufficient_quota"
        }
        _ => false,
    };
    let is_key_refused = status == 401
        || error
            .reasons
            .iter()
            .any(|reason| reason == "API_KEY_INVALID");
    let (cause, is_retryable, what) = if is_quota {
        (
            UnscoredCause::Quota,
            false,
            format!("out of quota or credit ({status}): add credit or raise the limit; retrying cannot help"),
        )
    } else if is_key_refused {
        (
            UnscoredCause::HttpError,
            false,
            format!("the key was refused ({status}): check it"),
        )
    } else {
        match status {
            429 => (
                UnscoredCause::RateLimited,
                true,
                "rate limited (429): the judge waits and retries; lower the concurrency if it keeps happening".to_string(),
            ),
            408 => (
                UnscoredCause::Timeout,
                true,
                "the provider timed out (408)".to_string(),
            ),
            409 => (
                UnscoredCause::HttpError,
                true,
                "the provider reported a conflict (409)".to_string(),
            ),
            529 => (
                UnscoredCause::HttpError,
                true,
                "the provider is overloaded (529)".to_string(),
            ),
            500..=599 => (
                UnscoredCause::HttpError,
                true,
                format!("the provider failed ({status})"),
            ),
            403 => (
                UnscoredCause::HttpError,
                false,
                "the key may not use this model or API (403): check its permissions".to_string(),
            ),
            404 => (
                UnscoredCause::HttpError,
                false,
                "not found (404): check the model name and the base URL".to_string(),
            ),
            413 => (
                UnscoredCause::HttpError,
                false,
                "the prompt is too large for the provider (413): lower the prompt limits".to_string(),
            ),
            400 => (
                UnscoredCause::HttpError,
                false,
                "the provider refused the request (400)".to_string(),
            ),
            _ => (
                UnscoredCause::HttpError,
                false,
                format!("unexpected HTTP status {status}"),
            ),
        }
    };
    let detail = if error.message.is_empty() {
        what
    } else {
        format!(
            "{what}. The provider said: {}",
            shown_message(&error.message)
        )
    };
    Failure {
        cause,
        is_retryable,
        detail,
        body_retry_ms: error.retry_ms,
    }
}

/// The parts of an error body that matter, whichever provider sent it.
#[derive(Debug, Default)]
struct ErrorBody {
    message: String,
    /// `error.type` (Anthropic, OpenAI) or `error.status` (Gemini).
    kind: String,
    /// `error.code` when it is a string (OpenAI).
    code: String,
    /// `reason`s of Gemini's `ErrorInfo` details.
    reasons: Vec<String>,
    /// A Gemini `QuotaFailure` naming a per-day limit or a limit of zero.
    is_gemini_hard_quota: bool,
    /// Gemini's `RetryInfo.retryDelay`, in milliseconds.
    retry_ms: Option<u64>,
}

impl ErrorBody {
    fn read(body: &[u8]) -> ErrorBody {
        let mut out = ErrorBody::default();
        let value: Value = match serde_json::from_slice(body) {
            Ok(value) => value,
            Err(_) => {
                let text = String::from_utf8_lossy(body);
                let text = text.trim();
                out.message = if text.starts_with('<') {
                    "(an HTML page, not an API answer: check the base URL)".to_string()
                } else {
                    text.chars().take(4 * MAX_MESSAGE_CHARS).collect()
                };
                return out;
            }
        };
        // Gemini behind some proxies wraps the error in a list.
        let value = match value {
            Value::Array(items) => items.into_iter().next().unwrap_or(Value::Null),
            other => other,
        };
        let error = &value["error"];
        match error {
            Value::String(text) => out.message = text.clone(),
            Value::Object(_) => {
                out.message = error["message"].as_str().unwrap_or_default().to_string();
                out.kind = error["type"]
                    .as_str()
                    .or_else(|| error["status"].as_str())
                    .unwrap_or_default()
                    .to_string();
                out.code = error["code"].as_str().unwrap_or_default().to_string();
                for detail in error["details"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                {
                    let kind = detail["@type"].as_str().unwrap_or_default();
                    if let Some(reason) = detail["reason"].as_str() {
                        out.reasons.push(reason.to_string());
                    }
                    if kind.ends_with("google.rpc.QuotaFailure") {
                        let violations = detail["violations"]
                            .as_array()
                            .map(Vec::as_slice)
                            .unwrap_or_default();
                        out.is_gemini_hard_quota |= violations.iter().any(|violation| {
                            violation["quotaId"]
                                .as_str()
                                .is_some_and(|id| id.contains("PerDay"))
                                || violation["quotaValue"].as_str() == Some("0")
                        });
                    }
                    if kind.ends_with("google.rpc.RetryInfo") {
                        out.retry_ms = detail["retryDelay"].as_str().and_then(duration_ms);
                    }
                }
            }
            _ => {
                out.message = value["message"]
                    .as_str()
                    .or_else(|| value["detail"].as_str())
                    .unwrap_or_default()
                    .to_string();
            }
        }
        out
    }
}

/// A protobuf JSON duration (`"36s"`, `"1.5s"`) in milliseconds.
fn duration_ms(text: &str) -> Option<u64> {
    let seconds: f64 = text.trim().strip_suffix('s')?.parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0)
        .then(|| (seconds * 1000.0).ceil().min(u64::MAX as f64) as u64)
}

/// A provider's message as it goes into a detail: characters unsafe to show removed, anything that looks like a key replaced, cut to [`MAX_MESSAGE_CHARS`].
pub(crate) fn shown_message(message: &str) -> String {
    let clean: String = message
        .chars()
        .map(|c| if c.is_whitespace() { ' ' } else { c })
        .filter(|&c| !crate::shown::needs_escape(c))
        .collect();
    let redacted: Vec<String> = clean
        .split(' ')
        .filter(|word| !word.is_empty())
        .map(|word| {
            let bare = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '*');
            let looks_like_key = ["sk-", "sk_", "AIza"]
                .iter()
                .any(|prefix| bare.starts_with(prefix))
                || bare.contains("***");
            if looks_like_key {
                "[key redacted]".to_string()
            } else {
                word.to_string()
            }
        })
        .collect();
    let joined = redacted.join(" ");
    if joined.chars().count() <= MAX_MESSAGE_CHARS {
        return joined;
    }
    let mut cut: String = joined.chars().take(MAX_MESSAGE_CHARS - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::provider::ProviderConfig;
    use serde_json::json;

    /// A verdict as a model writes it in the structured shape.
    fn verdict_json() -> Value {
        let entry = |verdict: &str| json!({"verdict": verdict, "reason": "Because.", "evidence": [{"quote": "Order not found", "event": 5}]});
        json!({
            "call_decision": entry("pass"),
            "right_tool": entry("fail"),
            "args_grounded": entry("pass"),
            "result_used": entry("fail"),
        })
    }

    fn fixture(name: &str) -> Value {
        let text = match name {
            "anthropic_reasoning" => include_str!("../../tests/fixtures/judge/anthropic/reasoning-tool-use-non-streaming.json"),
            "anthropic_tool_use" => include_str!("../../tests/fixtures/judge/anthropic/test_anthropic_instrumentation_multiple_tool_calling.messages.json"),
            "anthropic_text" => include_str!("../../tests/fixtures/judge/anthropic/test_anthropic_instrumentation_tool_use_in_input_with_blocks.messages.json"),
            "openai_text" => include_str!("../../tests/fixtures/judge/openai/agent_with_failing_tool.chat_completions.json"),
            "openai_tool_calls" => include_str!("../../tests/fixtures/judge/openai/test_tool_calls.chat_completions.json"),
            "gemini_schema" => include_str!("../../tests/fixtures/judge/gemini/test_generate_content_with_pydantic_response_schema.json"),
            _ => unreachable!("{name}"),
        };
        serde_json::from_str(text).unwrap()
    }

    /// The last recorded response body of a fixture.
    fn recorded_body(name: &str) -> Value {
        let fixture = fixture(name);
        if let Some(body) = fixture["body"].as_str() {
            return serde_json::from_str(body).unwrap();
        }
        let interactions = fixture["interactions"].as_array().unwrap();
        interactions.last().unwrap()["response"]["body"].clone()
    }

    fn ok(body: &Value) -> HttpResponse {
        HttpResponse {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: serde_json::to_vec(body).unwrap(),
        }
    }

    fn error(status: u16, body: &str) -> HttpResponse {
        HttpResponse {
            status,
            headers: Vec::new(),
            body: body.as_bytes().to_vec(),
        }
    }

    fn config(provider: Provider) -> ProviderConfig {
        ProviderConfig::new(provider, "judge-model")
    }

    fn expect_verdicts(answer: Answer) -> (Vec<CriterionAnswer>, Usage) {
        match answer {
            Answer::Verdicts { criteria, usage } => (criteria, usage),
            other => panic!("expected verdicts, got {other:?}"),
        }
    }

    fn expect_unscored(answer: Answer) -> (UnscoredCause, String, bool) {
        match answer {
            Answer::Unscored {
                cause,
                detail,
                is_retryable,
                ..
            } => (cause, detail, is_retryable),
            other => panic!("expected unscored, got {other:?}"),
        }
    }

    fn outcomes(criteria: &[CriterionAnswer]) -> Vec<Outcome> {
        criteria.iter().map(|answer| answer.outcome).collect()
    }

    #[test]
    fn anthropic_forced_tool_call_in_the_recorded_envelope() {
        // The recorded multiple-tool response, its tool_use blocks replaced by record_verdict.
        let mut body = recorded_body("anthropic_tool_use");
        body["content"] = json!([
            {"type": "tool_use", "id": "toolu_01VLL6XYAAGrtc7CDpmpKZMB", "name": "record_verdict", "input": verdict_json(), "caller": {"type": "direct"}}
        ]);
        let answer = read_response(&config(Provider::Anthropic), &ok(&body));
        let (criteria, usage) = expect_verdicts(answer);
        assert_eq!(
            outcomes(&criteria),
            [Outcome::Pass, Outcome::Fail, Outcome::Pass, Outcome::Fail]
        );
        assert_eq!(criteria[0].evidence[0].event, Some(5));
        assert_eq!(
            usage,
            Usage {
                input_tokens: 721,
                output_tokens: 112
            }
        );
    }

    #[test]
    fn anthropic_thinking_and_text_blocks_around_the_tool_call_are_ignored() {
        let mut body = recorded_body("anthropic_reasoning");
        let blocks = body["content"].as_array_mut().unwrap();
        assert_eq!(blocks[0]["type"], "thinking");
        blocks[2]["name"] = json!("record_verdict");
        blocks[2]["input"] = verdict_json();
        let answer = read_response(&config(Provider::Anthropic), &ok(&body));
        let (criteria, usage) = expect_verdicts(answer);
        assert_eq!(criteria.len(), 4);
        assert_eq!(
            usage,
            Usage {
                input_tokens: 596,
                output_tokens: 99
            }
        );
    }

    #[test]
    fn anthropic_text_answers_go_through_the_tolerant_parser() {
        let mut body = recorded_body("anthropic_text");
        assert_eq!(body["stop_reason"], "end_turn");
        body["content"][0]["text"] =
            json!(format!("Here you go:\n```json\n{}\n```", verdict_json()));
        let (criteria, usage) =
            expect_verdicts(read_response(&config(Provider::Anthropic), &ok(&body)));
        assert_eq!(criteria[1].outcome, Outcome::Fail);
        assert_eq!(
            usage,
            Usage {
                input_tokens: 772,
                output_tokens: 47
            }
        );
        // The recorded text itself is no verdict.
        let original = recorded_body("anthropic_text");
        let (cause, _, retry) =
            expect_unscored(read_response(&config(Provider::Anthropic), &ok(&original)));
        assert_eq!((cause, retry), (UnscoredCause::ParseError, false));
        // Nor is a call of another tool.
        let other_tool = recorded_body("anthropic_tool_use");
        let (cause, detail, _) = expect_unscored(read_response(
            &config(Provider::Anthropic),
            &ok(&other_tool),
        ));
        assert_eq!(cause, UnscoredCause::ParseError);
        assert!(
            detail.contains("not valid JSON")
                || detail.contains("no JSON")
                || detail.contains("no verdict"),
            "{detail}"
        );
    }

    #[test]
    fn anthropic_stop_reasons_max_tokens_and_refusal() {
        let mut body = recorded_body("anthropic_text");
        body["stop_reason"] = json!("max_tokens");
        let answer = read_response(&config(Provider::Anthropic), &ok(&body));
        assert_eq!(expect_unscored(answer.clone()).0, UnscoredCause::Truncated);
        assert_eq!(
            answer.usage(),
            Some(Usage {
                input_tokens: 772,
                output_tokens: 47
            })
        );
        body["stop_reason"] = json!("refusal");
        assert_eq!(
            expect_unscored(read_response(&config(Provider::Anthropic), &ok(&body))).0,
            UnscoredCause::Refusal
        );
    }

    #[test]
    fn openai_content_in_the_recorded_envelope() {
        let mut body = recorded_body("openai_text");
        assert_eq!(body["choices"][0]["finish_reason"], "stop");
        body["choices"][0]["message"]["content"] = json!(verdict_json().to_string());
        for provider in [Provider::OpenAi, Provider::OpenAiCompatible] {
            let (criteria, usage) = expect_verdicts(read_response(&config(provider), &ok(&body)));
            assert_eq!(
                outcomes(&criteria),
                [Outcome::Pass, Outcome::Fail, Outcome::Pass, Outcome::Fail]
            );
            assert_eq!(
                usage.input_tokens,
                body["usage"]["prompt_tokens"].as_u64().unwrap()
            );
            assert_eq!(
                usage.output_tokens,
                body["usage"]["completion_tokens"].as_u64().unwrap()
            );
        }
    }

    #[test]
    fn openai_refusal_length_content_filter_and_no_content() {
        let base = recorded_body("openai_text");
        let mut refusal = base.clone();
        refusal["choices"][0]["message"]["content"] = Value::Null;
        refusal["choices"][0]["message"]["refusal"] = json!("I can't help with that.");
        let (cause, detail, _) =
            expect_unscored(read_response(&config(Provider::OpenAi), &ok(&refusal)));
        assert_eq!(cause, UnscoredCause::Refusal);
        assert!(detail.contains("I can't help with that."));
        let mut length = base.clone();
        length["choices"][0]["finish_reason"] = json!("length");
        assert_eq!(
            expect_unscored(read_response(&config(Provider::OpenAi), &ok(&length))).0,
            UnscoredCause::Truncated
        );
        let mut filtered = base.clone();
        filtered["choices"][0]["finish_reason"] = json!("content_filter");
        assert_eq!(
            expect_unscored(read_response(&config(Provider::OpenAi), &ok(&filtered))).0,
            UnscoredCause::Refusal
        );
        // The recorded tool-call response has content null: nothing to read.
        let tool_calls = recorded_body("openai_tool_calls");
        let (cause, detail, _) =
            expect_unscored(read_response(&config(Provider::OpenAi), &ok(&tool_calls)));
        assert_eq!(cause, UnscoredCause::ParseError);
        assert!(detail.contains("no content"), "{detail}");
    }

    #[test]
    fn gemini_text_in_the_recorded_envelope() {
        let mut body = recorded_body("gemini_schema");
        assert_eq!(
            body["candidates"][0]["content"]["parts"][0]["text"],
            "{\n  \"answer\": \"Paris\"\n}"
        );
        body["candidates"][0]["content"]["parts"][0]["text"] =
            json!(serde_json::to_string_pretty(&verdict_json()).unwrap());
        let (criteria, usage) =
            expect_verdicts(read_response(&config(Provider::Gemini), &ok(&body)));
        assert_eq!(
            outcomes(&criteria),
            [Outcome::Pass, Outcome::Fail, Outcome::Pass, Outcome::Fail]
        );
        assert_eq!(
            usage,
            Usage {
                input_tokens: 19,
                output_tokens: 11
            }
        );
        // Thinking tokens are billed as output.
        body["usageMetadata"]["thoughtsTokenCount"] = json!(100);
        assert_eq!(
            read_response(&config(Provider::Gemini), &ok(&body))
                .usage()
                .unwrap()
                .output_tokens,
            111
        );
        // The recorded answer itself is no verdict.
        let (cause, detail, _) = expect_unscored(read_response(
            &config(Provider::Gemini),
            &ok(&recorded_body("gemini_schema")),
        ));
        assert_eq!(cause, UnscoredCause::ParseError);
        assert!(detail.contains("call_decision"), "{detail}");
    }

    #[test]
    fn gemini_max_tokens_safety_and_blocked_prompts() {
        let base = recorded_body("gemini_schema");
        let mut truncated = base.clone();
        truncated["candidates"][0]["finishReason"] = json!("MAX_TOKENS");
        assert_eq!(
            expect_unscored(read_response(&config(Provider::Gemini), &ok(&truncated))).0,
            UnscoredCause::Truncated
        );
        for reason in ["SAFETY", "RECITATION", "PROHIBITED_CONTENT", "BLOCKLIST"] {
            let mut refused = base.clone();
            refused["candidates"][0]["finishReason"] = json!(reason);
            let (cause, detail, _) =
                expect_unscored(read_response(&config(Provider::Gemini), &ok(&refused)));
            assert_eq!(cause, UnscoredCause::Refusal);
            assert!(detail.contains(reason));
        }
        let blocked = json!({"promptFeedback": {"blockReason": "SAFETY"}, "usageMetadata": {"promptTokenCount": 19}});
        let answer = read_response(&config(Provider::Gemini), &ok(&blocked));
        assert_eq!(expect_unscored(answer.clone()).0, UnscoredCause::Refusal);
        assert_eq!(answer.usage().unwrap().input_tokens, 19);
    }

    #[test]
    fn a_success_that_is_not_json_is_a_parse_error() {
        let response = HttpResponse {
            status: 200,
            headers: Vec::new(),
            body: b"<html>proxy</html>".to_vec(),
        };
        for provider in Provider::ALL {
            let (cause, detail, retry) =
                expect_unscored(read_response(&config(provider), &response));
            assert_eq!((cause, retry), (UnscoredCause::ParseError, false));
            assert!(detail.contains("not JSON"));
        }
    }

    /// Error bodies in the shapes the providers send (from their public error reports).
    #[test]
    fn error_statuses_map_to_causes_and_retryability() {
        let cases: [(u16, &str, UnscoredCause, bool, &str); 14] = [
            (
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}"#,
                UnscoredCause::RateLimited,
                true,
                "rate limited (429)",
            ),
            (
                529,
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#,
                UnscoredCause::HttpError,
                true,
                "overloaded (529)",
            ),
            (
                500,
                r#"{"type":"error","error":{"type":"api_error","message":"Internal server error"}}"#,
                UnscoredCause::HttpError,
                true,
                "failed (500)",
            ),
            (
                503,
                "upstream connect error",
                UnscoredCause::HttpError,
                true,
                "upstream connect error",
            ),
            (
                502,
                "<html><body>Bad gateway</body></html>",
                UnscoredCause::HttpError,
                true,
                "an HTML page",
            ),
            (408, "", UnscoredCause::Timeout, true, "timed out (408)"),
            (
                401,
                r#"{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}"#,
                UnscoredCause::HttpError,
                false,
                "the key was refused (401): check it",
            ),
            (
                400,
                r#"{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"API_KEY_INVALID","domain":"googleapis.com"}]}}"#,
                UnscoredCause::HttpError,
                false,
                "the key was refused (400): check it",
            ),
            (
                403,
                r#"{"error":{"message":"Project does not have access to model gpt-5","type":"invalid_request_error","code":"model_not_found"}}"#,
                UnscoredCause::HttpError,
                false,
                "(403)",
            ),
            (
                404,
                r#"{"error":{"message":"The model `gpt-9` does not exist","type":"invalid_request_error","code":"model_not_found"}}"#,
                UnscoredCause::HttpError,
                false,
                "check the model name",
            ),
            (
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: must be positive"}}"#,
                UnscoredCause::HttpError,
                false,
                "refused the request (400)",
            ),
            (
                429,
                r#"{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}"#,
                UnscoredCause::Quota,
                false,
                "out of quota",
            ),
            (
                400,
                r#"{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."},"request_id":"req_011CbrFTcXhtiMzr3s6EocF7"}"#,
                UnscoredCause::Quota,
                false,
                "credit balance is too low",
            ),
            (
                402,
                r#"{"error":{"message":"Insufficient credits","code":402}}"#,
                UnscoredCause::Quota,
                false,
                "out of quota",
            ),
        ];
        for (status, body, cause, retry, needle) in cases {
            let failure = classify_failure(&error(status, body));
            assert_eq!(
                (failure.cause, failure.is_retryable),
                (cause, retry),
                "{status} {body}"
            );
            assert!(
                failure.detail.contains(needle),
                "{needle:?} not in {:?}",
                failure.detail
            );
            for provider in Provider::ALL {
                let answer = read_response(&config(provider), &error(status, body));
                assert_eq!(
                    expect_unscored(answer.clone()),
                    (cause, failure.detail.clone(), retry)
                );
                assert_eq!(answer.usage(), None);
            }
        }
    }

    #[test]
    fn gemini_429_is_quota_only_for_a_daily_or_zero_limit() {
        let body = |quota_id: &str, value: &str| {
            format!(
                r#"{{"error":{{"code":429,"message":"You exceeded your current quota, please check your plan and billing details.","status":"RESOURCE_EXHAUSTED","details":[{{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"{quota_id}","quotaValue":"{value}"}}]}},{{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"36.4s"}}]}}}}"#
            )
        };
        let per_minute = classify_failure(&error(
            429,
            &body("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "15"),
        ));
        assert_eq!(
            (per_minute.cause, per_minute.is_retryable),
            (UnscoredCause::RateLimited, true)
        );
        assert_eq!(per_minute.body_retry_ms, Some(36_400));
        let per_day = classify_failure(&error(
            429,
            &body("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "20"),
        ));
        assert_eq!(
            (per_day.cause, per_day.is_retryable),
            (UnscoredCause::Quota, false)
        );
        let zero = classify_failure(&error(
            429,
            &body("GenerateContentInputTokensPerModelPerMinute-FreeTier", "0"),
        ));
        assert_eq!(zero.cause, UnscoredCause::Quota);
        let plain = classify_failure(&error(
            429,
            r#"[{"error":{"code":429,"message":"Resource has been exhausted (e.g. check quota).","status":"RESOURCE_EXHAUSTED"}}]"#,
        ));
        assert_eq!(plain.cause, UnscoredCause::RateLimited);
        assert!(plain.detail.contains("Resource has been exhausted"));
    }

    #[test]
    fn details_never_hold_a_key_and_lose_control_characters() {
        let openai = r#"{"error":{"message":"Incorrect API key provided: sk-proj-********************************************abcd. You can find your API key at https://platform.openai.com/account/api-keys.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}"#;
        let failure = classify_failure(&error(401, openai));
        assert!(failure
            .detail
            .starts_with("the key was refused (401): check it"));
        assert!(!failure.detail.contains("abcd"), "{}", failure.detail);
        assert!(failure.detail.contains("[key redacted]"));
        let echoed = classify_failure(&error(
            400,
            "bad key 'sk-ant-api03-abcdefghijklmnop' and AIzaSyA1234567890",
        ));
        assert!(!echoed.detail.contains("sk-ant"), "{}", echoed.detail);
        assert!(!echoed.detail.contains("AIzaSy"), "{}", echoed.detail);
        let hostile = format!(
            "{{\"error\":{{\"message\":\"\\u001b[31mred\\u202eevil\\n{}\"}}}}",
            "x".repeat(1_000)
        );
        let detail = classify_failure(&error(500, &hostile)).detail;
        assert!(
            !detail.contains('\u{1b}') && !detail.contains('\u{202e}') && !detail.contains('\n')
        );
        let said = detail.split("The provider said: ").nth(1).unwrap();
        assert_eq!(said.chars().count(), MAX_MESSAGE_CHARS);
        assert!(said.ends_with('…'));
    }

    #[test]
    fn unscored_answers_become_four_unscored_verdicts() {
        use crate::judge::prompt::template_ref;
        let prompt = JudgePrompt {
            system: String::new(),
            user: String::new(),
            template: template_ref(),
            prompt_sha256: "ab".repeat(32),
            call_event: 4,
            tool: "lookup_order".into(),
        };
        let session = Session {
            session_id: "s1".into(),
            ..Session::default()
        };
        let answer = read_response(
            &config(Provider::OpenAi),
            &error(
                429,
                r#"{"error":{"type":"insufficient_quota","code":"insufficient_quota","message":"quota"}}"#,
            ),
        );
        let verdicts = answer.to_verdicts(&session, 2, "gpt-4o-mini", &prompt);
        assert_eq!(verdicts.len(), 4);
        for (verdict, criterion) in verdicts.iter().zip(Criterion::ALL) {
            assert_eq!(verdict.criterion, criterion);
            assert_eq!(verdict.verdict, Outcome::Unscored);
            assert_eq!(verdict.cause, Some(UnscoredCause::Quota));
            assert_eq!(
                (
                    verdict.session_id.as_str(),
                    verdict.step,
                    verdict.tool.as_str()
                ),
                ("s1", 2, "lookup_order")
            );
            assert_eq!(verdict.prompt_sha256, prompt.prompt_sha256);
        }
        let scored = read_response(
            &config(Provider::OpenAi),
            &ok(
                &json!({"choices": [{"message": {"content": verdict_json().to_string()}, "finish_reason": "stop"}]}),
            ),
        );
        let verdicts = scored.to_verdicts(&session, 2, "gpt-4o-mini", &prompt);
        assert_eq!(verdicts[1].verdict, Outcome::Fail);
        assert_eq!(verdicts[1].cause, None);
        assert_eq!(verdicts[1].reason, "Because.");
        assert_eq!(verdicts[1].evidence.len(), 1);
    }

    mod never_panics {
        use super::*;
        use proptest::prelude::*;

        proptest! {
            #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

            #[test]
            fn on_arbitrary_bytes_and_status(status in 0u16..1000, body in proptest::collection::vec(any::<u8>(), 0..512)) {
                let response = HttpResponse { status, headers: Vec::new(), body };
                for provider in Provider::ALL {
                    let _ = read_response(&config(provider), &response);
                }
            }

            #[test]
            fn on_json_shaped_text(status in prop_oneof![Just(200u16), Just(400u16), Just(429u16), Just(500u16)], text in r#"[\[\]{}":,a-z0-9 .\\-]{0,300}"#) {
                let response = HttpResponse { status, headers: Vec::new(), body: text.into_bytes() };
                for provider in Provider::ALL {
                    let _ = read_response(&config(provider), &response);
                }
            }

            #[test]
            fn on_envelopes_with_arbitrary_content(text in any::<String>(), stop in "[a-z_A-Z]{0,20}") {
                let bodies = [
                    json!({"content": [{"type": "text", "text": text}], "stop_reason": stop, "usage": {"input_tokens": -1}}),
                    json!({"choices": [{"message": {"content": text}, "finish_reason": stop}], "usage": {"prompt_tokens": 1.5}}),
                    json!({"candidates": [{"content": {"parts": [{"text": text}]}, "finishReason": stop}]}),
                ];
                for body in &bodies {
                    for provider in Provider::ALL {
                        let _ = read_response(&config(provider), &ok(body));
                    }
                }
            }
        }
    }
}
