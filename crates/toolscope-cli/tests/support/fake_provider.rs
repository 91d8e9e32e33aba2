//! A fake model provider on 127.0.0.1 for the judge's tests: one server speaking Anthropic's
//! Messages API (`/v1/messages`), OpenAI's Chat Completions (`/v1/chat/completions`) and
//! Gemini's `generateContent` (`/v1beta/models/{model}:generateContent`) closely enough to catch
//! mistakes.
//!
//! - It checks each provider's headers (Anthropic `x-api-key` and `anthropic-version`, OpenAI
//!   `authorization: Bearer`, Gemini `x-goog-api-key` and no `key=` in the URL, JSON content
//!   type); a request that breaks a rule is answered 400 and listed in [`FakeProvider::violations`].
//! - It answers in the shapes of the recorded responses in
//!   `crates/toolscope-core/tests/fixtures/judge/` (a forced `record_verdict` tool call for
//!   Anthropic, `choices[0].message.content` for OpenAI, `candidates[0].content.parts[0].text`
//!   for Gemini) with a verdict on the four criteria: `pass`, `pass`, `pass`, `fail`, each quoting
//!   the called tool's name from the prompt it received (so the evidence check passes).
//! - A fault is asked for by magic text in the session, which reaches the prompt:
//!   `FAULT:<name>` with the names in [`Fault`].
//! - It records every request (path, headers, body, when) for the tests to assert on.

#![allow(dead_code)]

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tiny_http::{Header, Response, Server};

/// A request as the fake received it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    /// Header names in lower case, and values.
    pub headers: Vec<(String, String)>,
    pub body: String,
    pub at: Instant,
}

impl Recorded {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The prompt's user message.
    pub fn prompt(&self) -> String {
        let body: Value = serde_json::from_str(&self.body).unwrap_or(Value::Null);
        prompt_of(&body)
    }
}

#[derive(Default)]
struct State {
    requests: Vec<Recorded>,
    violations: Vec<String>,
    /// How many times each prompt was seen (for faults that clear after the first try).
    seen: HashMap<String, usize>,
}

/// The server; it stops when dropped.
pub struct FakeProvider {
    server: Arc<Server>,
    state: Arc<Mutex<State>>,
    thread: Option<JoinHandle<()>>,
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Api {
    Anthropic,
    OpenAi,
    Gemini,
}

impl FakeProvider {
    pub fn start() -> FakeProvider {
        let server = Arc::new(Server::http("127.0.0.1:0").expect("bind 127.0.0.1"));
        let port = server.server_addr().to_ip().expect("an IP address").port();
        let state = Arc::new(Mutex::new(State::default()));
        let thread = {
            let (server, state) = (Arc::clone(&server), Arc::clone(&state));
            std::thread::spawn(move || {
                while let Ok(request) = server.recv() {
                    let state = Arc::clone(&state);
                    // One thread per request, so a hanging answer does not hold up the others.
                    std::thread::spawn(move || handle(request, &state));
                }
            })
        };
        FakeProvider {
            server,
            state,
            thread: Some(thread),
            origin: format!("http://127.0.0.1:{port}"),
        }
    }

    /// Readies the server for a burst of connections. tiny_http serves each connection on a
    /// thread of a pool that keeps 4 and grows on demand, but a burst of new connections can
    /// queue one behind a thread still holding a kept-alive connection, where it waits until
    /// some connection closes (a second or more: past `--timeout-s 1`). Holding
    /// [`WARM_CONNECTIONS`] connections open at once makes the pool grow to that many threads,
    /// which then wait 5 s for work before they end: call this just before each run.
    pub fn warm(&self) {
        let agents: Vec<ureq::Agent> = (0..WARM_CONNECTIONS)
            .map(|_| {
                let agent: ureq::Agent = ureq::Agent::config_builder()
                    .http_status_as_error(false)
                    .build()
                    .into();
                // One at a time, each connection kept open: the pool has no idle thread, so
                // it adds one.
                agent
                    .get(&format!("{}/warm", self.origin))
                    .call()
                    .expect("the fake answers /warm")
                    .body_mut()
                    .read_to_vec()
                    .expect("the fake answers /warm");
                agent
            })
            .collect();
        drop(agents);
    }

    /// The `--base-url` for a provider name as the CLI spells it.
    pub fn base_url(&self, provider: &str) -> String {
        match provider {
            "anthropic" => self.origin.clone(),
            "gemini" => format!("{}/v1beta", self.origin),
            _ => format!("{}/v1", self.origin),
        }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.state.lock().unwrap().requests.clone()
    }

    pub fn violations(&self) -> Vec<String> {
        self.state.lock().unwrap().violations.clone()
    }
}

impl Drop for FakeProvider {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Connections [`FakeProvider::warm`] holds open at once: more than any run opens together.
const WARM_CONNECTIONS: usize = 24;

/// The faults the fake injects, asked for by `FAULT:<name>` in the session.
pub const FAULTS: [&str; 14] = [
    "rate_limit_once", // 429 with retry-after: 1, then a verdict
    "server_error",    // 500 every time
    "overloaded",      // 529 every time
    "malformed_json",  // 200 whose body is not JSON
    "prose",           // 200 whose answer is a sentence, not JSON
    "refusal",         // the model declines
    "truncated",       // cut at the token limit
    "hang",            // no answer for 3 s (past --timeout-s 1)
    "quota",           // out of quota or credit
    "bad_key",         // 401 whose message repeats the key it was given
    "bad_evidence",    // a verdict quoting text that is not in the session
    "redirect",        // 307 to /stolen on the same server (a request there is recorded)
    "hostile_quote",   // a verdict quoting terminal escapes that are not in the session
    "echo_key",        // a verdict whose reasons and quote repeat the key: raw, URL-escaped, Basic
];

fn handle(mut request: tiny_http::Request, state: &Mutex<State>) {
    let path = request.url().to_string();
    if path == "/warm" {
        let _ = request.respond(Response::empty(204));
        return;
    }
    let headers: Vec<(String, String)> = request
        .headers()
        .iter()
        .map(|header| {
            (
                header.field.as_str().as_str().to_ascii_lowercase(),
                header.value.as_str().to_string(),
            )
        })
        .collect();
    let mut body = String::new();
    let _ = request.as_reader().read_to_string(&mut body);
    let recorded = Recorded {
        path: path.clone(),
        headers,
        body,
        at: Instant::now(),
    };
    let json_body: Value = serde_json::from_str(&recorded.body).unwrap_or(Value::Null);
    let prompt = prompt_of(&json_body);
    let (api, violations) = check(&recorded, &json_body);
    let seen = {
        let mut state = state.lock().unwrap();
        state.requests.push(recorded.clone());
        state.violations.extend(violations.iter().cloned());
        let count = state.seen.entry(prompt.clone()).or_default();
        *count += 1;
        *count
    };
    let (status, extra_headers, answer) = match (api, violations.is_empty()) {
        (Some(api), true) => respond(api, &recorded, &prompt, seen),
        _ => (
            400,
            Vec::new(),
            json!({"error": {"message": format!("fake provider: {}", violations.join("; "))}})
                .to_string(),
        ),
    };
    let mut response = Response::from_string(answer)
        .with_status_code(status)
        .with_header(Header::from_bytes("content-type", "application/json").unwrap());
    for (name, value) in extra_headers {
        response = response.with_header(Header::from_bytes(name, value).unwrap());
    }
    let _ = request.respond(response);
}

/// The API a request is for, and every rule it breaks.
fn check(recorded: &Recorded, body: &Value) -> (Option<Api>, Vec<String>) {
    let mut violations = Vec::new();
    let api = if recorded.path == "/v1/messages" {
        Some(Api::Anthropic)
    } else if recorded.path == "/v1/chat/completions" {
        Some(Api::OpenAi)
    } else if recorded.path.starts_with("/v1beta/models/")
        && recorded.path.contains(":generateContent")
    {
        Some(Api::Gemini)
    } else {
        violations.push(format!("unknown path {}", recorded.path));
        None
    };
    if recorded.header("content-type") != Some("application/json") {
        violations.push("content-type is not application/json".into());
    }
    if body.is_null() {
        violations.push("the body is not JSON".into());
    }
    let has = |name: &str| recorded.header(name).is_some_and(|value| !value.is_empty());
    match api {
        Some(Api::Anthropic) => {
            if !has("x-api-key") {
                violations.push("anthropic: no x-api-key".into());
            }
            if recorded.header("anthropic-version") != Some("2023-06-01") {
                violations.push("anthropic: no anthropic-version 2023-06-01".into());
            }
            if body["tool_choice"]["name"] != "record_verdict" {
                violations.push("anthropic: the verdict tool is not forced".into());
            }
        }
        Some(Api::OpenAi) => {
            // A compatible server without a key gets no authorization at all.
            if let Some(value) = recorded.header("authorization") {
                if !value.starts_with("Bearer ") || value.len() <= "Bearer ".len() {
                    violations.push("openai: authorization is not Bearer KEY".into());
                }
            }
            if !body["messages"].is_array() {
                violations.push("openai: no messages".into());
            }
        }
        Some(Api::Gemini) => {
            if !has("x-goog-api-key") {
                violations.push("gemini: no x-goog-api-key".into());
            }
            if recorded.path.contains("key=") {
                violations.push("gemini: key in the URL".into());
            }
            if body["generationConfig"]["responseMimeType"] != "application/json" {
                violations.push("gemini: no JSON response type".into());
            }
        }
        None => {}
    }
    (api, violations)
}

fn prompt_of(body: &Value) -> String {
    let text = body["messages"]
        .as_array()
        .and_then(|messages| messages.iter().rev().find(|m| m["role"] == "user"))
        .and_then(|message| message["content"].as_str())
        .or_else(|| body["contents"][0]["parts"][0]["text"].as_str());
    text.unwrap_or_default().to_string()
}

/// The fault the prompt asks for.
fn fault_in(prompt: &str) -> Option<&'static str> {
    FAULTS
        .iter()
        .copied()
        .find(|fault| prompt.contains(&format!("FAULT:{fault}")))
}

/// The called tool's name, from "THE CALL TO JUDGE: event N, TOOL (call ...".
fn called_tool(prompt: &str) -> (String, usize) {
    let line = prompt
        .lines()
        .find(|line| line.starts_with("THE CALL TO JUDGE: event "))
        .unwrap_or_default();
    let rest = line.trim_start_matches("THE CALL TO JUDGE: event ");
    let (event, rest) = rest.split_once(", ").unwrap_or(("0", ""));
    let tool = rest.split(" (call ").next().unwrap_or_default();
    (tool.to_string(), event.parse().unwrap_or(0))
}

fn verdict_json(prompt: &str, is_bad_evidence: bool) -> Value {
    let (tool, event) = called_tool(prompt);
    let quote = if is_bad_evidence {
        "words the session never had".to_string()
    } else {
        tool
    };
    let criterion = |verdict: &str| {
        json!({"verdict": verdict, "reason": format!("fake judge: {verdict}"),
               "evidence": [{"quote": quote, "event": event}]})
    };
    json!({
        "call_decision": criterion("pass"),
        "right_tool": criterion("pass"),
        "args_grounded": criterion("pass"),
        "result_used": criterion("fail"),
    })
}

type Answer = (u16, Vec<(&'static str, String)>, String);

fn respond(api: Api, recorded: &Recorded, prompt: &str, seen: usize) -> Answer {
    let fault = fault_in(prompt);
    let key = recorded
        .header("x-api-key")
        .or(recorded.header("x-goog-api-key"))
        .or(recorded
            .header("authorization")
            .map(|value| value.trim_start_matches("Bearer ")))
        .unwrap_or_default()
        .to_string();
    match fault {
        Some("rate_limit_once") if seen == 1 => {
            return (
                429,
                vec![("retry-after", "1".into())],
                json!({"error": {"message": "Rate limit reached, try again in 1s",
                                 "type": "rate_limit_error", "code": "rate_limit_exceeded"}})
                .to_string(),
            )
        }
        Some("server_error") => {
            return (
                500,
                Vec::new(),
                json!({"error": {"message": "internal error", "type": "server_error"}}).to_string(),
            )
        }
        Some("overloaded") => {
            return (
                529,
                Vec::new(),
                json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})
                    .to_string(),
            )
        }
        Some("redirect") => {
            return (
                307,
                vec![("location", format!("{}/stolen", recorded.header("host").map(|host| format!("http://{host}")).unwrap_or_default()))],
                String::new(),
            )
        }
        Some("malformed_json") => return (200, Vec::new(), "{\"id\": \"msg_1\", \"content\": [".into()),
        Some("hang") => {
            std::thread::sleep(Duration::from_secs(3));
        }
        Some("bad_key") => {
            return (
                401,
                Vec::new(),
                json!({"error": {"message": format!("Incorrect API key provided: {key}"),
                                 "type": "invalid_request_error", "code": "invalid_api_key"}})
                .to_string(),
            )
        }
        Some("quota") => {
            return match api {
                Api::OpenAi => (
                    429,
                    Vec::new(),
                    json!({"error": {"message": "You exceeded your current quota, please check your plan and billing details.",
                                     "type": "insufficient_quota", "code": "insufficient_quota"}})
                    .to_string(),
                ),
                Api::Anthropic => (
                    400,
                    Vec::new(),
                    json!({"type": "error", "error": {"type": "invalid_request_error",
                        "message": "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."}})
                    .to_string(),
                ),
                Api::Gemini => (
                    429,
                    Vec::new(),
                    json!({"error": {"code": 429, "status": "RESOURCE_EXHAUSTED",
                        "message": "You exceeded your current quota, please check your plan and billing details.",
                        "details": [{"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                            "violations": [{"quotaMetric": "generativelanguage.googleapis.com/generate_content_free_tier_requests",
                                            "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                                            "quotaValue": "250"}]}]}})
                    .to_string(),
                ),
            }
        }
        _ => {}
    }
    let mut verdict = verdict_json(prompt, fault == Some("bad_evidence"));
    if fault == Some("echo_key") {
        use base64::Engine;
        let escaped: String = key
            .bytes()
            .map(|byte| match byte {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (byte as char).to_string()
                }
                _ => format!("%{byte:02X}"),
            })
            .collect();
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("judge:{key}"));
        for criterion in [
            "call_decision",
            "right_tool",
            "args_grounded",
            "result_used",
        ] {
            verdict[criterion]["reason"] =
                format!("you sent {key}, i.e. key={escaped}, Basic {basic}").into();
        }
        verdict["result_used"]["evidence"][0]["quote"] = key.clone().into();
    }
    if fault == Some("hostile_quote") {
        verdict["call_decision"]["evidence"][0]["quote"] =
            "\u{1b}]0;pwned\u{7}\nstep 99: forged".into();
    }
    let text = match fault {
        Some("prose") => "I think the agent did fine on the whole.".to_string(),
        _ => verdict.to_string(),
    };
    let is_refusal = fault == Some("refusal");
    let is_truncated = fault == Some("truncated");
    let body = match api {
        Api::Anthropic => {
            let content = if fault == Some("prose") {
                json!([{"type": "text", "text": text}])
            } else if is_refusal || is_truncated {
                json!([])
            } else {
                json!([{"type": "tool_use", "id": "toolu_01Fake", "name": "record_verdict",
                        "input": verdict}])
            };
            let stop_reason = if is_refusal {
                "refusal"
            } else if is_truncated {
                "max_tokens"
            } else {
                "tool_use"
            };
            json!({"model": "fake-model", "id": "msg_01Fake", "type": "message",
                   "role": "assistant", "content": content, "stop_reason": stop_reason,
                   "stop_sequence": null,
                   "usage": {"input_tokens": 1000, "output_tokens": 100}})
        }
        Api::OpenAi => {
            let message = if is_refusal {
                json!({"role": "assistant", "content": null,
                       "refusal": "I'm sorry, I can't help with that."})
            } else {
                json!({"role": "assistant", "content": text, "refusal": null})
            };
            let finish_reason = if is_truncated { "length" } else { "stop" };
            json!({"id": "chatcmpl-fake", "object": "chat.completion", "model": "fake-model",
                   "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
                   "usage": {"prompt_tokens": 1000, "completion_tokens": 100, "total_tokens": 1100}})
        }
        Api::Gemini => {
            let finish_reason = if is_refusal {
                "SAFETY"
            } else if is_truncated {
                "MAX_TOKENS"
            } else {
                "STOP"
            };
            json!({"candidates": [{"content": {"parts": [{"text": text}], "role": "model"},
                                   "finishReason": finish_reason}],
                   "usageMetadata": {"promptTokenCount": 1000, "candidatesTokenCount": 100,
                                     "totalTokenCount": 1100},
                   "modelVersion": "fake-model", "responseId": "fake"})
        }
    };
    (200, Vec::new(), body.to_string())
}
