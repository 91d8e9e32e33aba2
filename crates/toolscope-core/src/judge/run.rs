//! Running a judge, sans-IO: the plan (which calls, their prompts, cache keys and what is
//! already cached, the estimate), the budget's ledger, and each call's exchange with the model as
//! a small state machine the adapters drive: [`Exchange::request`] gives the request to send,
//! [`Exchange::on_response`] or [`Exchange::on_failure`] says wait and send again, or here is the
//! answer. The CLI drives it with threads and a blocking client, the page's worker with `fetch`;
//! both judge identically.

use crate::analysis::Analysis;
use crate::model::{Session, ToolDef};

use super::answer::{read_response, Answer, Usage};
use super::cache::{cache_key, VerdictCache};
use super::cost::{estimate_run, estimate_tokens, would_exceed, Price, RunEstimate, Spend};
use super::evidence::check_evidence;
use super::prompt::{build_prompt, JudgePrompt, PromptLimits};
use super::provider::{build_request, HttpRequest, HttpResponse, ProviderConfig};
use super::retry::{decide, RetryDecision, RetryPolicy};
use super::sample::{choose_calls, CallRef, Selection};
use super::{UnscoredCause, Verdict};
use crate::secret::SecretValue;

/// One call to judge.
#[derive(Debug, Clone)]
pub struct PlannedCall {
    /// The session.
    pub session_id: String,
    /// The call's step.
    pub step: usize,
    /// The prompt for it.
    pub prompt: JudgePrompt,
    /// Its cache key.
    pub cache_key: String,
    /// Its verdicts, when the cache has them (then no request is sent).
    pub cached: Option<Vec<Verdict>>,
}

impl PlannedCall {
    /// What one request for this call may cost at most: its prompt's estimated tokens and the
    /// whole output budget.
    pub fn estimate(&self, max_output_tokens: u32) -> RunEstimate {
        RunEstimate {
            requests: 1,
            input_tokens: estimate_tokens(prompt_chars(&self.prompt)),
            output_tokens: u64::from(max_output_tokens),
            cost_usd: None,
        }
    }
}

/// The prompt's length in characters as sent (system, a blank line, user), as the token
/// estimate counts it.
pub fn prompt_chars(prompt: &JudgePrompt) -> usize {
    prompt.system.chars().count() + 2 + prompt.user.chars().count()
}

/// The calls `selection` chooses, each with its prompt (the tools the agent saw: the session's
/// own, else the catalog's, else none), cache key and cached verdicts, in the chosen order.
pub fn plan_calls(
    analysis: &Analysis,
    config: &ProviderConfig,
    selection: &Selection,
    cache: &VerdictCache,
    limits: &PromptLimits,
) -> Vec<PlannedCall> {
    let chosen = choose_calls(analysis.sessions(), &analysis.report().problems, selection);
    plan_chosen(
        &chosen,
        &|session_id| analysis.session(session_id),
        analysis.catalog_tools(),
        config,
        cache,
        limits,
    )
}

/// [`plan_calls`] for calls already chosen, their sessions found by `session` (calls whose
/// session it does not find are left out) and `catalog` the catalog files' tools: the plan of a
/// judge on sessions that were not kept (`crate::judge::streamed`).
pub fn plan_chosen<'s>(
    chosen: &[CallRef],
    session: &dyn Fn(&str) -> Option<&'s Session>,
    catalog: Option<&[ToolDef]>,
    config: &ProviderConfig,
    cache: &VerdictCache,
    limits: &PromptLimits,
) -> Vec<PlannedCall> {
    chosen
        .iter()
        .filter_map(|call| {
            let session = session(&call.session_id)?;
            let tools = session
                .tools
                .as_deref()
                .map(Vec::as_slice)
                .or(catalog)
                .unwrap_or(&[]);
            let prompt = build_prompt(session, call.step, tools, limits)?;
            let key = cache_key(
                config.provider.as_str(),
                &config.model,
                &prompt.template,
                &prompt.prompt_sha256,
            );
            let cached = cache.get(&key).map(<[Verdict]>::to_vec);
            Some(PlannedCall {
                session_id: call.session_id.clone(),
                step: call.step,
                prompt,
                cache_key: key,
                cached,
            })
        })
        .collect()
}

/// The estimate of a run: the requests the calls not in the cache need.
pub fn estimate_plan(
    planned: &[PlannedCall],
    max_output_tokens: u32,
    price: Option<&Price>,
) -> RunEstimate {
    let lengths: Vec<usize> = planned
        .iter()
        .filter(|call| call.cached.is_none())
        .map(|call| prompt_chars(&call.prompt))
        .collect();
    estimate_run(&lengths, u64::from(max_output_tokens), price)
}

/// The spend so far and what requests in flight may still add, so that requests sent together
/// cannot pass the budget: [`Ledger::reserve`] before each request, [`Ledger::settle`] after.
#[derive(Debug, Clone)]
pub struct Ledger {
    /// What the answered requests used, as the providers counted it.
    pub spend: Spend,
    /// The budget in dollars, if any.
    pub budget_usd: Option<f64>,
    reserved_input: u64,
    reserved_output: u64,
    is_stopped: bool,
}

impl Ledger {
    /// A ledger at zero.
    pub fn new(price: Option<Price>, budget_usd: Option<f64>) -> Ledger {
        Ledger {
            spend: Spend::new(price),
            budget_usd,
            reserved_input: 0,
            reserved_output: 0,
            is_stopped: false,
        }
    }

    /// Whether a request estimated at `estimate` may be sent; if so its estimate is held until
    /// [`Ledger::settle`]. Once one may not, none after it may (the run stops).
    pub fn reserve(&mut self, estimate: &RunEstimate) -> bool {
        if self.is_stopped {
            return false;
        }
        if let Some(budget) = self.budget_usd {
            let next = RunEstimate {
                input_tokens: estimate.input_tokens + self.reserved_input,
                output_tokens: estimate.output_tokens + self.reserved_output,
                ..*estimate
            };
            if would_exceed(&self.spend, &next, budget) {
                self.is_stopped = true;
                return false;
            }
        }
        self.reserved_input += estimate.input_tokens;
        self.reserved_output += estimate.output_tokens;
        true
    }

    /// Releases `estimate`'s hold and counts what the provider says the request used.
    pub fn settle(&mut self, estimate: &RunEstimate, usage: Option<Usage>) {
        self.reserved_input -= estimate.input_tokens;
        self.reserved_output -= estimate.output_tokens;
        if let Some(usage) = usage {
            self.spend.add(usage.input_tokens, usage.output_tokens);
        }
    }

    /// Whether the budget stopped the run.
    pub fn is_stopped(&self) -> bool {
        self.is_stopped
    }
}

/// The verdicts of a call the budget kept from being sent: unscored, `not_run`.
pub fn not_run_answer(budget_usd: f64) -> Answer {
    Answer::Unscored {
        cause: UnscoredCause::NotRun,
        detail: format!(
            "not sent: the request could have taken the spend past the budget of ${budget_usd}"
        ),
        usage: None,
        is_retryable: false,
    }
}

/// Whether the model answered (verdicts, a parse error, a refusal, a truncation), rather than
/// the exchange failing (an HTTP error, quota, a rate limit, a timeout).
pub fn is_answered(answer: &Answer) -> bool {
    !matches!(
        answer,
        Answer::Unscored {
            cause: UnscoredCause::HttpError
                | UnscoredCause::Quota
                | UnscoredCause::RateLimited
                | UnscoredCause::Timeout,
            ..
        }
    )
}

/// A request that got no response: a timeout or a network error, with what the adapter knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// Whether it timed out.
    pub is_timeout: bool,
    /// What happened, for the verdict's reason (never the key).
    pub detail: String,
}

/// What to do after an attempt.
#[derive(Debug, Clone, PartialEq)]
pub enum Next {
    /// Wait this long, then send [`Exchange::request`] again.
    Retry {
        /// Milliseconds to wait.
        after_ms: u64,
    },
    /// The exchange is over: the answer (its evidence checked).
    Finished(Answer),
}

/// One call's exchange with the model, retried as [`decide`] says. Every answer it finishes
/// with is clean of the key: whatever the server echoed (in an error body, a verdict's reason or
/// quote, a transport error) has each written form of the key's value replaced
/// ([`SecretValue::redact`]), so no verdict, cache entry or message carries it.
#[derive(Debug, Clone)]
pub struct Exchange {
    request: HttpRequest,
    config: ProviderConfig,
    key: SecretValue,
    policy: RetryPolicy,
    attempt: u32,
}

impl Exchange {
    /// The exchange for `prompt`; `jitter_seed` differs per call so retries spread out.
    pub fn new(
        config: &ProviderConfig,
        prompt: &JudgePrompt,
        api_key: &str,
        policy: RetryPolicy,
        jitter_seed: u64,
    ) -> Exchange {
        Exchange {
            request: build_request(config, prompt, api_key),
            config: config.clone(),
            key: SecretValue::new(api_key),
            policy: RetryPolicy {
                jitter_seed,
                ..policy
            },
            attempt: 1,
        }
    }

    /// The request to send (the same on every attempt).
    pub fn request(&self) -> &HttpRequest {
        &self.request
    }

    /// The attempt about to be sent or just sent, from 1.
    pub fn attempt(&self) -> u32 {
        self.attempt
    }

    /// After a response: retry, or the answer with its evidence checked against `session`.
    pub fn on_response(&mut self, response: &HttpResponse, session: &Session) -> Next {
        match decide(&self.policy, self.attempt, Some(response), false) {
            RetryDecision::Retry { after_ms } => {
                self.attempt += 1;
                Next::Retry { after_ms }
            }
            RetryDecision::Done => {
                let mut answer = read_response(&self.config, response);
                if let Answer::Verdicts { criteria, .. } = &mut answer {
                    check_evidence(session, criteria);
                }
                self.finished(answer)
            }
            RetryDecision::GiveUp(cause) => {
                let (detail, usage) = match read_response(&self.config, response) {
                    Answer::Unscored { detail, usage, .. } => (detail, usage),
                    Answer::Verdicts { usage, .. } => {
                        (format!("HTTP status {}", response.status), Some(usage))
                    }
                };
                self.finished(self.given_up(cause, detail, usage))
            }
        }
    }

    /// After a request that got no response (a timeout or a network error).
    pub fn on_failure(&mut self, failure: &Failure) -> Next {
        match decide(&self.policy, self.attempt, None, failure.is_timeout) {
            RetryDecision::Retry { after_ms } => {
                self.attempt += 1;
                Next::Retry { after_ms }
            }
            RetryDecision::GiveUp(cause) => {
                self.finished(self.given_up(cause, failure.detail.clone(), None))
            }
            RetryDecision::Done => {
                self.finished(self.given_up(UnscoredCause::HttpError, failure.detail.clone(), None))
            }
        }
    }

    /// The exchange's end: `answer` with the key taken out of every text in it.
    fn finished(&self, mut answer: Answer) -> Next {
        answer.redact(&self.key);
        Next::Finished(answer)
    }

    fn given_up(&self, cause: UnscoredCause, detail: String, usage: Option<Usage>) -> Answer {
        let detail = if self.attempt > 1 {
            format!("{detail} (after {} attempts)", self.attempt)
        } else {
            detail
        };
        Answer::Unscored {
            cause,
            detail,
            usage,
            is_retryable: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::judge::provider::Provider;
    use crate::{InputFile, Options, Role};

    const SESSIONS: &[u8] = br#"{"session_id": "s1", "events": [{"type": "user", "content": "where is order 7Q2ZK9XA?"}, {"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}}, {"type": "tool_result", "call_id": "c1", "status": "ok", "content": "shipped"}, {"type": "assistant", "content": "It has shipped."}]}
{"session_id": "s2", "events": [{"type": "user", "content": "refund"}, {"type": "tool_use", "call_id": "c1", "name": "issue_refund", "args": {}}]}
"#;

    fn analysis() -> Analysis {
        Analysis::new(
            &[InputFile::new("s.jsonl", SESSIONS, Role::Traces)],
            &Options::default(),
            &mut |_| {},
        )
    }

    fn config() -> ProviderConfig {
        ProviderConfig::new(Provider::OpenAi, "judge-model")
    }

    fn answer_body(quote: &str) -> Vec<u8> {
        let entry =
            json!({"verdict": "pass", "reason": "ok", "evidence": [{"quote": quote, "event": 0}]});
        let content = json!({
            "call_decision": entry, "right_tool": entry, "args_grounded": entry, "result_used": entry,
        });
        serde_json::to_vec(&json!({
            "choices": [{"message": {"role": "assistant", "content": content.to_string()}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20},
        }))
        .unwrap()
    }

    fn response(status: u16, headers: &[(&str, &str)], body: Vec<u8>) -> HttpResponse {
        HttpResponse {
            status,
            headers: headers
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            body,
        }
    }

    #[test]
    fn the_plan_has_a_prompt_and_key_per_call_and_takes_cached_verdicts() {
        let analysis = analysis();
        let limits = PromptLimits::default();
        let planned = plan_calls(
            &analysis,
            &config(),
            &Selection::All,
            &VerdictCache::new(),
            &limits,
        );
        let calls: Vec<(&str, usize)> = planned
            .iter()
            .map(|call| (call.session_id.as_str(), call.step))
            .collect();
        assert_eq!(calls, [("s1", 1), ("s2", 1)]);
        assert!(planned.iter().all(|call| call.cached.is_none()));
        assert_eq!(estimate_plan(&planned, 500, None).requests, 2);

        let session = analysis.session("s1").unwrap();
        let answer = read_response(&config(), &response(200, &[], answer_body("shipped")));
        let verdicts = answer.to_verdicts(session, 1, "judge-model", &planned[0].prompt);
        let mut cache = VerdictCache::new();
        assert!(cache.insert(planned[0].cache_key.clone(), verdicts));
        let again = plan_calls(&analysis, &config(), &Selection::All, &cache, &limits);
        assert!(again[0].cached.is_some());
        assert_eq!(estimate_plan(&again, 500, None).requests, 1);
    }

    #[test]
    fn the_ledger_holds_requests_in_flight_and_stops_for_good_at_the_budget() {
        let price = Price {
            input_per_mtok_usd: 1_000_000.0,
            output_per_mtok_usd: 0.0,
        };
        // $1 per input token: a budget of $2.5 lets two one-token requests through, not three.
        let mut ledger = Ledger::new(Some(price), Some(2.5));
        let one = RunEstimate {
            requests: 1,
            input_tokens: 1,
            output_tokens: 0,
            cost_usd: None,
        };
        assert!(ledger.reserve(&one));
        assert!(ledger.reserve(&one));
        assert!(!ledger.reserve(&one), "two in flight already hold $2");
        assert!(ledger.is_stopped());
        ledger.settle(&one, None);
        assert!(!ledger.reserve(&one), "once stopped, the run stays stopped");
        let mut unlimited = Ledger::new(None, None);
        assert!((0..100).all(|_| unlimited.reserve(&one)));
    }

    #[test]
    fn an_exchange_retries_a_429_then_reads_the_answer_and_checks_its_evidence() {
        let analysis = analysis();
        let session = analysis.session("s1").unwrap();
        let planned = plan_calls(
            &analysis,
            &config(),
            &Selection::All,
            &VerdictCache::new(),
            &PromptLimits::default(),
        );
        let mut exchange = Exchange::new(
            &config(),
            &planned[0].prompt,
            "sk-key",
            RetryPolicy::default(),
            0,
        );
        let limited = response(429, &[("retry-after", "2")], b"{}".to_vec());
        assert_eq!(
            exchange.on_response(&limited, session),
            Next::Retry { after_ms: 2_000 }
        );
        assert_eq!(exchange.attempt(), 2);
        let Next::Finished(Answer::Verdicts { criteria, usage }) =
            exchange.on_response(&response(200, &[], answer_body("shipped")), session)
        else {
            panic!("verdicts");
        };
        assert_eq!(usage.input_tokens, 100);
        assert!(criteria.iter().all(|answer| answer.cause.is_none()));

        // A quote that is not in the session cannot be trusted.
        let mut exchange = Exchange::new(
            &config(),
            &planned[0].prompt,
            "k",
            RetryPolicy::default(),
            0,
        );
        let Next::Finished(Answer::Verdicts { criteria, .. }) =
            exchange.on_response(&response(200, &[], answer_body("cancelled")), session)
        else {
            panic!("verdicts");
        };
        assert!(criteria
            .iter()
            .all(|answer| answer.cause == Some(UnscoredCause::EvidenceMismatch)));
    }

    #[test]
    fn an_exchange_gives_up_on_timeouts_after_the_last_attempt_saying_how_many() {
        let analysis = analysis();
        let planned = plan_calls(
            &analysis,
            &config(),
            &Selection::All,
            &VerdictCache::new(),
            &PromptLimits::default(),
        );
        let policy = RetryPolicy {
            max_attempts: 3,
            ..RetryPolicy::default()
        };
        let mut exchange = Exchange::new(&config(), &planned[0].prompt, "k", policy, 0);
        let timeout = Failure {
            is_timeout: true,
            detail: "no answer in time".into(),
        };
        assert!(matches!(exchange.on_failure(&timeout), Next::Retry { .. }));
        assert!(matches!(exchange.on_failure(&timeout), Next::Retry { .. }));
        let Next::Finished(answer) = exchange.on_failure(&timeout) else {
            panic!("finished");
        };
        assert!(!is_answered(&answer));
        let Answer::Unscored { cause, detail, .. } = answer else {
            panic!("unscored");
        };
        assert_eq!(cause, UnscoredCause::Timeout);
        assert_eq!(detail, "no answer in time (after 3 attempts)");
    }

    #[test]
    fn a_key_echoed_by_the_server_is_redacted_from_every_answer() {
        use base64::Engine;
        // A key of no known shape: only its value can find it.
        let key = "live/9Zq+Tq=DO-NOT-LEAK";
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("user:{key}"));
        let analysis = analysis();
        let session = analysis.session("s1").unwrap();
        let planned = plan_calls(
            &analysis,
            &config(),
            &Selection::All,
            &VerdictCache::new(),
            &PromptLimits::default(),
        );
        let no_retry = RetryPolicy {
            max_attempts: 1,
            ..RetryPolicy::default()
        };
        let exchange = || Exchange::new(&config(), &planned[0].prompt, key, no_retry, 0);
        let refused = format!(
            r#"{{"error":{{"message":"Incorrect API key provided: {key} (Basic {basic})"}}}}"#
        );
        let mut texts = Vec::new();
        for next in [
            exchange().on_response(&response(401, &[], refused.into_bytes()), session),
            exchange().on_response(&response(400, &[], key.as_bytes().to_vec()), session),
            exchange().on_failure(&Failure {
                is_timeout: false,
                detail: format!("connection to https://x/?k={key} failed"),
            }),
        ] {
            let Next::Finished(Answer::Unscored { detail, .. }) = next else {
                panic!("unscored");
            };
            texts.push(detail);
        }
        // A hostile server puts the key (and its URL-escaped form) in a reason and a quote.
        let escaped: String = url::form_urlencoded::byte_serialize(key.as_bytes()).collect();
        let quoted = format!("shipped {escaped}");
        let mut body: serde_json::Value = serde_json::from_slice(&answer_body(&quoted)).unwrap();
        let content = body["choices"][0]["message"]["content"]
            .as_str()
            .unwrap()
            .replace("\"ok\"", &format!("\"the key is {key}\""));
        body["choices"][0]["message"]["content"] = content.into();
        let Next::Finished(Answer::Verdicts { criteria, .. }) = exchange().on_response(
            &response(200, &[], serde_json::to_vec(&body).unwrap()),
            session,
        ) else {
            panic!("verdicts");
        };
        for answer in &criteria {
            texts.push(answer.reason.clone());
            texts.extend(
                answer
                    .evidence
                    .iter()
                    .map(|evidence| evidence.quote.clone()),
            );
        }
        assert!(texts
            .iter()
            .any(|text| text.contains("the key is [key redacted]")));
        for text in &texts {
            assert!(!text.contains("DO-NOT-LEAK"), "the key in {text}");
            assert!(!text.contains("9Zq"), "part of the key in {text}");
        }
    }
}
