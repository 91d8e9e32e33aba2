//! `toolscope judge` on the real binary against a fake provider on 127.0.0.1
//! (`support/fake_provider.rs`): each provider end to end, each fault to its unscored cause,
//! the budget, the cache, the sample, the estimate, and the key going nowhere but its header.

#[path = "support/fake_provider.rs"]
mod fake_provider;

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use assert_cmd::Command;
use fake_provider::FakeProvider;
use serde_json::{json, Value};
use toolscope_core::share::digest::sha256_hex;

const KEY: &str = "sk-test-DO-NOT-LEAK-1234";

const KEY_VARIABLES: [&str; 4] = [
    "ANTHROPIC_API_KEY",
    "OPENAI_API_KEY",
    "GEMINI_API_KEY",
    "TOOLSCOPE_TEST_KEY",
];

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn key_variable(provider: &str) -> &'static str {
    match provider {
        "anthropic" => "ANTHROPIC_API_KEY",
        "gemini" => "GEMINI_API_KEY",
        _ => "OPENAI_API_KEY",
    }
}

/// `toolscope judge --provider P --model fake-model --base-url (the fake) ARGS...`, run in
/// `dir` (so the default cache file lands there), with only `key` set (under the provider's
/// usual variable) and fast retries.
fn judge(
    fake: &FakeProvider,
    dir: &Path,
    provider: &str,
    key: Option<&str>,
    args: &[&str],
) -> Output {
    judge_model(fake, dir, provider, "fake-model", key, args)
}

fn judge_model(
    fake: &FakeProvider,
    dir: &Path,
    provider: &str,
    model: &str,
    key: Option<&str>,
    args: &[&str],
) -> Output {
    let mut command = Command::cargo_bin("toolscope").unwrap();
    command.current_dir(dir);
    for variable in KEY_VARIABLES {
        command.env_remove(variable);
    }
    for variable in [
        "ALL_PROXY",
        "all_proxy",
        "HTTPS_PROXY",
        "https_proxy",
        "HTTP_PROXY",
        "http_proxy",
    ] {
        command.env_remove(variable);
    }
    if let Some(key) = key {
        command.env(key_variable(provider), key);
    }
    fake.warm();
    command
        .args(["judge", "--provider", provider, "--model", model])
        .args(["--base-url", &fake.base_url(provider)])
        .args(["--retry-base-ms", "10"])
        .args(args)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn read_verdicts(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

/// A sessions file: one session per entry, `session_id` and the user's message (where a
/// `FAULT:<name>` asks the fake for a fault), each with one `lookup_order` call.
fn sessions_file(dir: &Path, sessions: &[(&str, &str)]) -> String {
    let lines: Vec<String> = sessions
        .iter()
        .map(|(session_id, message)| {
            json!({"session_id": session_id, "events": [
                {"type": "user", "content": message},
                {"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}},
                {"type": "tool_result", "call_id": "c1", "status": "ok", "content": "shipped"},
                {"type": "assistant", "content": "Your order has shipped."},
            ]})
            .to_string()
        })
        .collect();
    let path = dir.join("sessions.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path.display().to_string()
}

fn causes_by_session(verdicts: &[Value]) -> Vec<(String, Vec<String>)> {
    let mut by_session: Vec<(String, Vec<String>)> = Vec::new();
    for verdict in verdicts {
        let session = verdict["session_id"].as_str().unwrap().to_string();
        let shown = verdict["cause"]
            .as_str()
            .unwrap_or_else(|| verdict["verdict"].as_str().unwrap())
            .to_string();
        match by_session.last_mut() {
            Some((last, shown_list)) if *last == session => shown_list.push(shown),
            _ => by_session.push((session, vec![shown])),
        }
    }
    by_session
}

#[test]
fn each_provider_is_judged_end_to_end_and_report_reads_the_verdicts() {
    for provider in ["anthropic", "openai", "gemini", "openai-compatible"] {
        let fake = FakeProvider::start();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("verdicts.jsonl");
        // The compatible server is run without a key: no authorization header at all.
        let key = (provider != "openai-compatible").then_some(KEY);
        let output = judge(
            &fake,
            dir.path(),
            provider,
            key,
            &[
                "--tools",
                &fixture("seed/tools.json"),
                "--out",
                out.to_str().unwrap(),
                &fixture("seed/selection_sessions.jsonl"),
            ],
        );
        assert_eq!(output.status.code(), Some(0), "{provider}");
        assert_eq!(fake.violations(), Vec::<String>::new(), "{provider}");
        let requests = fake.requests();
        assert_eq!(requests.len(), 5, "{provider}: one request per call");
        for request in &requests {
            match provider {
                "anthropic" => assert_eq!(request.header("x-api-key"), Some(KEY)),
                "openai" => {
                    assert_eq!(
                        request.header("authorization"),
                        Some(&*format!("Bearer {KEY}"))
                    )
                }
                "gemini" => {
                    assert_eq!(request.header("x-goog-api-key"), Some(KEY));
                    assert_eq!(request.path, "/v1beta/models/fake-model:generateContent");
                }
                _ => assert_eq!(request.header("authorization"), None),
            }
            // The judge sees the catalog's tools (the seed sessions carry none).
            assert!(request.prompt().contains("lookup_order"), "{provider}");
            assert!(
                request.prompt().contains("^[A-Z0-9]{8}$"),
                "{provider}: the schema"
            );
        }

        let verdicts = read_verdicts(&out);
        assert_eq!(
            verdicts.len(),
            20,
            "{provider}: four criteria for five calls"
        );
        let criteria: Vec<&str> = verdicts[..4]
            .iter()
            .map(|verdict| verdict["criterion"].as_str().unwrap())
            .collect();
        assert_eq!(
            criteria,
            [
                "call_decision",
                "right_tool",
                "args_grounded",
                "result_used"
            ]
        );
        let outcomes: Vec<&str> = verdicts[..4]
            .iter()
            .map(|verdict| verdict["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(
            outcomes,
            ["pass", "pass", "pass", "fail"],
            "{provider}: as the fake answered"
        );
        // In the chosen order: sessions in order, each call's four criteria together.
        let sessions: Vec<&str> = verdicts
            .iter()
            .step_by(4)
            .map(|verdict| verdict["session_id"].as_str().unwrap())
            .collect();
        assert_eq!(sessions, ["turn-1", "turn-2", "turn-3", "turn-4", "turn-6"]);
        for verdict in &verdicts {
            assert_eq!(verdict["model"], "fake-model");
            assert_eq!(verdict["template"]["id"], "tool-call-v1");
            assert_eq!(verdict["template"]["sha256"].as_str().unwrap().len(), 64);
            assert_eq!(
                verdict["evidence"][0]["event"], 1,
                "the quote found in the call"
            );
        }
        // Each verdict names the SHA-256 of the exact prompt sent.
        let first: Value = serde_json::from_str(&requests_in_order(&requests)[0].body).unwrap();
        let (system, user) = match provider {
            "anthropic" => (
                first["system"].as_str().unwrap().to_string(),
                first["messages"][0]["content"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            ),
            "gemini" => (
                first["systemInstruction"]["parts"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                first["contents"][0]["parts"][0]["text"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            ),
            _ => (
                first["messages"][0]["content"]
                    .as_str()
                    .unwrap()
                    .to_string(),
                first["messages"][1]["content"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            ),
        };
        assert_eq!(
            verdicts[0]["prompt_sha256"],
            sha256_hex(format!("{system}\n\n{user}").as_bytes()),
            "{provider}"
        );
        assert!(
            stderr(&output)
                .contains("judged 5 calls: 20 verdicts scored, 0 unscored, 0 from cache, spend"),
            "{provider}: {}",
            stderr(&output)
        );

        let report = Command::cargo_bin("toolscope")
            .unwrap()
            .args(["report", "--json", "--verdicts", out.to_str().unwrap()])
            .arg(fixture("seed/selection_sessions.jsonl"))
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&report.stdout).unwrap();
        assert_eq!(report["judge"]["summary"]["verdicts"], 20, "{provider}");
        assert_eq!(report["judge"]["summary"]["calls"], 5, "{provider}");
    }
}

/// The requests for turn-1's call first: the one the first verdict is about.
fn requests_in_order(requests: &[fake_provider::Recorded]) -> Vec<fake_provider::Recorded> {
    let mut sorted = requests.to_vec();
    sorted.sort_by_key(|request| !request.prompt().contains("request 1"));
    sorted
}

/// Every fault against one provider: the right unscored cause per call, the rest judged.
fn faults_give_their_causes(provider: &str) {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let sessions = sessions_file(
        dir.path(),
        &[
            ("ok", "Where is order 7Q2ZK9XA?"),
            ("rate-limit", "FAULT:rate_limit_once"),
            ("server-error", "FAULT:server_error"),
            ("overloaded", "FAULT:overloaded"),
            ("malformed", "FAULT:malformed_json"),
            ("prose", "FAULT:prose"),
            ("refusal", "FAULT:refusal"),
            ("truncated", "FAULT:truncated"),
            ("hang", "FAULT:hang"),
            ("quota", "FAULT:quota"),
            ("bad-evidence", "FAULT:bad_evidence"),
        ],
    );
    let out = dir.path().join("verdicts.jsonl");
    let output = judge(
        &fake,
        dir.path(),
        provider,
        Some(KEY),
        &[
            "--timeout-s",
            "1",
            "--concurrency",
            "11",
            "--out",
            out.to_str().unwrap(),
            &sessions,
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{provider}");
    assert_eq!(fake.violations(), Vec::<String>::new());
    let four = |shown: &str| vec![shown.to_string(); 4];
    let expected = vec![
        (
            "ok".to_string(),
            vec!["pass".into(), "pass".into(), "pass".into(), "fail".into()],
        ),
        (
            "rate-limit".to_string(),
            vec!["pass".into(), "pass".into(), "pass".into(), "fail".into()],
        ),
        ("server-error".to_string(), four("http_error")),
        ("overloaded".to_string(), four("http_error")),
        ("malformed".to_string(), four("parse_error")),
        ("prose".to_string(), four("parse_error")),
        ("refusal".to_string(), four("refusal")),
        ("truncated".to_string(), four("truncated")),
        ("hang".to_string(), four("timeout")),
        ("quota".to_string(), four("quota")),
        ("bad-evidence".to_string(), four("evidence_mismatch")),
    ];
    assert_eq!(
        causes_by_session(&read_verdicts(&out)),
        expected,
        "{provider}"
    );

    let requests = fake.requests();
    let attempts = |magic: &str| -> Vec<fake_provider::Recorded> {
        requests
            .iter()
            .filter(|request| request.prompt().contains(magic))
            .cloned()
            .collect()
    };
    // 429 with retry-after: 1, then a verdict: one retry, a second later.
    let rate_limited = attempts("FAULT:rate_limit_once");
    assert_eq!(rate_limited.len(), 2, "{provider}");
    let waited = rate_limited[1].at.duration_since(rate_limited[0].at);
    assert!(
        waited >= Duration::from_millis(950),
        "{provider}: waited {waited:?}"
    );
    // Retried to the last attempt: 5xx, 529 and timeouts. Never retried: quota, answers.
    assert_eq!(attempts("FAULT:server_error").len(), 4, "{provider}");
    assert_eq!(attempts("FAULT:overloaded").len(), 4, "{provider}");
    assert_eq!(attempts("FAULT:hang").len(), 4, "{provider}");
    assert_eq!(attempts("FAULT:quota").len(), 1, "{provider}");
    assert_eq!(attempts("FAULT:prose").len(), 1, "{provider}");
    let text = stderr(&output);
    assert!(
        text.contains("judged 11 calls: 8 verdicts scored, 36 unscored (parse_error 8, refusal 4, truncated 4, quota 4, timeout 4, http_error 8, evidence_mismatch 4), 0 from cache"),
        "{provider}: {text}"
    );
}

#[test]
fn anthropic_faults_give_their_unscored_causes() {
    faults_give_their_causes("anthropic");
}

#[test]
fn openai_faults_give_their_unscored_causes() {
    faults_give_their_causes("openai");
}

#[test]
fn gemini_faults_give_their_unscored_causes() {
    faults_give_their_causes("gemini");
}

#[test]
fn the_budget_stops_the_run_and_the_rest_is_not_run() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let prices = dir.path().join("prices.json");
    std::fs::write(
        &prices,
        json!({"models": [{"provider": "openai", "model": "fake-model",
                           "input_per_mtok_usd": 1000.0, "output_per_mtok_usd": 1000.0}]})
        .to_string(),
    )
    .unwrap();
    let out = dir.path().join("verdicts.jsonl");
    // Each answer costs $1.10 (1,000 in and 100 out at $1,000 per million); each estimate is
    // its prompt (about 600 tokens) and 100 output tokens: the first request fits $1.50, the
    // second would not.
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &[
            "--prices",
            prices.to_str().unwrap(),
            "--budget-usd",
            "1.5",
            "--max-output-tokens",
            "100",
            "--concurrency",
            "1",
            "--out",
            out.to_str().unwrap(),
            &fixture("seed/selection_sessions.jsonl"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(fake.requests().len(), 1);
    let verdicts = read_verdicts(&out);
    assert_eq!(verdicts.len(), 20);
    assert!(verdicts[..4]
        .iter()
        .all(|verdict| verdict["cause"].is_null()));
    assert!(verdicts[4..]
        .iter()
        .all(|verdict| verdict["cause"] == "not_run"));
    let text = stderr(&output);
    assert!(
        text.contains("spend $1.1000 (in 1,000 / out 100 tokens)"),
        "{text}"
    );
    assert!(
        text.contains("the budget ($1.5) stopped the run: 4 of 5 calls not run"),
        "{text}"
    );
}

#[test]
fn a_budget_without_a_price_is_refused() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &[
            "--budget-usd",
            "1",
            "--out",
            "v.jsonl",
            &fixture("seed/selection_sessions.jsonl"),
        ],
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--budget-usd needs a price"),
        "{}",
        stderr(&output)
    );
    assert!(fake.requests().is_empty());
}

#[test]
fn a_second_identical_run_is_answered_from_the_cache() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str| {
        judge(
            &fake,
            dir.path(),
            "anthropic",
            Some(KEY),
            &["--out", out, &fixture("seed/selection_sessions.jsonl")],
        )
    };
    let first = run("first.jsonl");
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert_eq!(fake.requests().len(), 5);
    let cache = std::fs::read_to_string(dir.path().join(".toolscope-judge-cache.jsonl")).unwrap();
    assert_eq!(cache.lines().count(), 5, "one entry per judged call");

    let second = run("second.jsonl");
    assert_eq!(second.status.code(), Some(0), "{}", stderr(&second));
    assert_eq!(fake.requests().len(), 5, "no request the second time");
    assert_eq!(
        std::fs::read(dir.path().join("first.jsonl")).unwrap(),
        std::fs::read(dir.path().join("second.jsonl")).unwrap()
    );
    assert!(
        stderr(&second).contains("5 from cache"),
        "{}",
        stderr(&second)
    );
    assert!(stderr(&second)
        .contains("plan: 5 calls to judge with anthropic fake-model: 5 from cache, 0 requests"));

    // Failures of the exchange are not cached: the next run asks again.
    let sessions = sessions_file(dir.path(), &[("down", "FAULT:server_error")]);
    let failing = |out: &str| {
        judge(
            &fake,
            dir.path(),
            "anthropic",
            Some(KEY),
            &["--out", out, &sessions],
        )
    };
    failing("third.jsonl");
    failing("fourth.jsonl");
    let down = fake
        .requests()
        .iter()
        .filter(|request| request.prompt().contains("FAULT:server_error"))
        .count();
    assert_eq!(down, 8);
}

#[test]
fn a_seeded_sample_chooses_the_same_calls_every_time() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let run = |out: &str| {
        let output = judge(
            &fake,
            dir.path(),
            "openai",
            Some(KEY),
            &[
                "--sample",
                "3",
                "--seed",
                "7",
                "--no-cache",
                "--out",
                out,
                &fixture("seed/selection_sessions.jsonl"),
            ],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let calls: Vec<(String, u64)> = read_verdicts(&dir.path().join(out))
            .iter()
            .step_by(4)
            .map(|verdict| {
                (
                    verdict["session_id"].as_str().unwrap().to_string(),
                    verdict["step"].as_u64().unwrap(),
                )
            })
            .collect();
        calls
    };
    let first = run("a.jsonl");
    assert_eq!(first.len(), 3);
    assert_eq!(run("b.jsonl"), first);
    assert_eq!(fake.requests().len(), 6);
    assert!(
        !dir.path().join(".toolscope-judge-cache.jsonl").exists(),
        "--no-cache writes no cache"
    );
}

#[test]
fn estimate_prints_the_plan_and_sends_nothing() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        None,
        &["--estimate", &fixture("seed/selection_sessions.jsonl")],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with(
            "plan: 5 calls to judge with openai fake-model: 0 from cache, 5 requests, about "
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("no price for fake-model: edit a price table with --prices"),
        "{stdout}"
    );
    assert!(fake.requests().is_empty());

    // A known model gets a cost.
    let priced = judge_model(
        &fake,
        dir.path(),
        "openai",
        "gpt-4o-mini",
        None,
        &["--estimate", &fixture("seed/selection_sessions.jsonl")],
    );
    assert!(String::from_utf8_lossy(&priced.stdout).contains("at the price table's price"));
}

#[test]
fn the_key_goes_only_into_the_auth_header() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    // The fake repeats the key it was given in a 401's message, as OpenAI does.
    let sessions = sessions_file(
        dir.path(),
        &[
            ("ok", "Where is my order?"),
            ("refused", "FAULT:bad_key"),
            ("down", "FAULT:server_error"),
        ],
    );
    let out = dir.path().join("verdicts.jsonl");
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &["--out", out.to_str().unwrap(), &sessions],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let verdicts = std::fs::read_to_string(&out).unwrap();
    assert!(verdicts.contains("the key was refused (401)"), "{verdicts}");
    let cache = std::fs::read_to_string(dir.path().join(".toolscope-judge-cache.jsonl")).unwrap();
    for (what, text) in [
        (
            "stdout",
            String::from_utf8_lossy(&output.stdout).into_owned(),
        ),
        ("stderr", stderr(&output)),
        ("verdicts", verdicts),
        ("cache", cache),
    ] {
        assert!(!text.contains(KEY), "the key is in {what}: {text}");
        assert!(
            !text.contains("DO-NOT-LEAK"),
            "part of the key is in {what}: {text}"
        );
    }
    let requests = fake.requests();
    assert_eq!(requests.len(), 6, "ok, refused, and four tries of down");
    for request in &requests {
        assert!(!request.path.contains("DO-NOT-LEAK"));
        assert!(!request.body.contains("DO-NOT-LEAK"));
        let carrying: Vec<&str> = request
            .headers
            .iter()
            .filter(|(_, value)| value.contains(KEY))
            .map(|(name, _)| name.as_str())
            .collect();
        assert_eq!(carrying, ["authorization"]);
    }
}

#[test]
fn a_key_of_any_shape_echoed_by_the_server_reaches_no_file_or_terminal() {
    // No `sk-` prefix, and characters that URL-escaping and base64 change: only the key's value
    // finds it. The fake echoes it in a 401's message and, as a hostile server could, in every
    // verdict's reason and a quote (raw, URL-escaped and as Basic credentials).
    const ODD_KEY: &str = "gsk_live/9Zq+Tq=DO-NOT-LEAK-5678";
    let basic = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(format!("judge:{ODD_KEY}"))
    };
    // The middle of the Basic credentials: the part the key alone determines.
    let basic_middle = &basic[12..basic.len() - 8];
    for provider in ["openai", "anthropic", "gemini"] {
        let fake = FakeProvider::start();
        let dir = tempfile::tempdir().unwrap();
        let sessions = sessions_file(
            dir.path(),
            &[("refused", "FAULT:bad_key"), ("echoed", "FAULT:echo_key")],
        );
        let out = dir.path().join("verdicts.jsonl");
        let output = judge(
            &fake,
            dir.path(),
            provider,
            Some(ODD_KEY),
            &["--out", out.to_str().unwrap(), &sessions],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let verdicts = std::fs::read_to_string(&out).unwrap();
        assert!(verdicts.contains("[key redacted]"), "{verdicts}");
        let cache =
            std::fs::read_to_string(dir.path().join(".toolscope-judge-cache.jsonl")).unwrap();
        assert!(cache.contains("you sent [key redacted]"), "{cache}");
        for (what, text) in [
            (
                "stdout",
                String::from_utf8_lossy(&output.stdout).into_owned(),
            ),
            ("stderr", stderr(&output)),
            ("verdicts", verdicts),
            ("cache", cache),
        ] {
            for part in ["DO-NOT-LEAK", "9Zq", "live%2F9Zq", basic_middle] {
                assert!(
                    !text.contains(part),
                    "{provider}: {part} is in {what}: {text}"
                );
            }
        }
    }
}

#[test]
fn a_timeout_past_the_clocks_range_is_a_usage_error_not_a_panic() {
    let output = Command::cargo_bin("toolscope")
        .unwrap()
        .args(["judge", "--provider", "openai", "--model", "m"])
        .args(["--timeout-s", "18446744073709551615", "--estimate"])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("--timeout-s") && !said.contains("panicked"),
        "{said}"
    );
}

#[test]
fn a_missing_key_is_an_error_naming_the_variable() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let sessions = fixture("seed/selection_sessions.jsonl");
    for (provider, args, variable) in [
        ("anthropic", vec![], "ANTHROPIC_API_KEY"),
        ("openai", vec![], "OPENAI_API_KEY"),
        ("gemini", vec![], "GEMINI_API_KEY"),
        (
            "openai",
            vec!["--api-key-env", "TOOLSCOPE_TEST_KEY"],
            "TOOLSCOPE_TEST_KEY",
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--out", "v.jsonl", &sessions]);
        let output = judge(&fake, dir.path(), provider, None, &all);
        assert_eq!(output.status.code(), Some(2), "{provider}");
        assert!(
            stderr(&output).contains(&format!("set the environment variable {variable}")),
            "{provider}: {}",
            stderr(&output)
        );
    }
    assert!(fake.requests().is_empty());
}

#[test]
fn a_key_from_another_variable_is_used() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let mut command = Command::cargo_bin("toolscope").unwrap();
    for variable in KEY_VARIABLES {
        command.env_remove(variable);
    }
    fake.warm();
    let output = command
        .current_dir(dir.path())
        .env("TOOLSCOPE_TEST_KEY", KEY)
        .args([
            "judge",
            "--provider",
            "gemini",
            "--model",
            "fake-model",
            "--no-cache",
        ])
        .args([
            "--base-url",
            &fake.base_url("gemini"),
            "--api-key-env",
            "TOOLSCOPE_TEST_KEY",
        ])
        .args([
            "--out",
            "v.jsonl",
            &fixture("seed/selection_sessions.jsonl"),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(fake
        .requests()
        .iter()
        .all(|request| request.header("x-goog-api-key") == Some(KEY)));
}

#[test]
fn a_run_where_no_request_is_answered_exits_2() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let sessions = sessions_file(dir.path(), &[("a", "FAULT:quota"), ("b", "FAULT:quota")]);
    let out = dir.path().join("verdicts.jsonl");
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &["--out", out.to_str().unwrap(), &sessions],
    );
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("nothing was judged"),
        "{}",
        stderr(&output)
    );
    // The verdicts are written all the same: they say why.
    assert_eq!(read_verdicts(&out).len(), 8);
}

#[test]
fn a_redirect_is_not_followed_with_the_key() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let sessions = sessions_file(
        dir.path(),
        &[("ok", "Where is my order?"), ("moved", "FAULT:redirect")],
    );
    let out = dir.path().join("verdicts.jsonl");
    let output = judge(
        &fake,
        dir.path(),
        "anthropic",
        Some(KEY),
        &["--out", out.to_str().unwrap(), &sessions],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let causes = causes_by_session(&read_verdicts(&out));
    assert_eq!(
        causes[1],
        ("moved".to_string(), vec!["http_error".to_string(); 4])
    );
    let requests = fake.requests();
    assert!(requests
        .iter()
        .all(|request| request.path == "/v1/messages"));
    assert_eq!(requests.len(), 2, "a 3xx is not retried either");
}

#[test]
fn only_problems_judges_the_calls_code_checks_flagged() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("verdicts.jsonl");
    // With the seed catalog, search_docs is an unknown tool in turn-2, turn-3 and turn-4.
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &[
            "--only-problems",
            "--tools",
            &fixture("seed/tools.json"),
            "--out",
            out.to_str().unwrap(),
            &fixture("seed/selection_sessions.jsonl"),
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let sessions: Vec<String> = read_verdicts(&out)
        .iter()
        .step_by(4)
        .map(|verdict| verdict["session_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sessions, ["turn-2", "turn-3", "turn-4"]);
    assert_eq!(fake.requests().len(), 3);
}

#[test]
fn text_from_the_model_reaches_the_terminal_escaped() {
    let fake = FakeProvider::start();
    let dir = tempfile::tempdir().unwrap();
    let sessions = sessions_file(dir.path(), &[("hostile", "FAULT:hostile_quote")]);
    let output = judge(
        &fake,
        dir.path(),
        "openai",
        Some(KEY),
        &["--no-cache", "--out", "v.jsonl", &sessions],
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stderr(&output);
    assert!(text.contains("evidence_mismatch"), "{text}");
    // The core blanks control characters in the reason; the terminal would escape any left.
    assert!(text.contains("]0;pwned"), "{text}");
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{7}'),
        "{text}"
    );
    assert!(
        !text.lines().any(|line| line.starts_with("step 99")),
        "{text}"
    );
}
