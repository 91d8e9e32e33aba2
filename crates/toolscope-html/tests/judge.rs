//! The judge section: present only with verdicts, passes over scored verdicts with the unscored
//! apart, human calibration, and verdict text (a model's words about untrusted traces) escaped.

mod common;

use common::{assert_only_expected_markup, section};
use toolscope_core::{analyze, InputFile, Options, Role};
use toolscope_html::{render, HtmlOptions};

const SESSIONS: &[u8] = include_bytes!("../../../tests/fixtures/seed/selection_sessions.jsonl");

fn line(session: &str, outcome: &str, reason: &str) -> String {
    let mut value = serde_json::json!({
        "session_id": session, "step": 1, "tool": "search_docs", "criterion": "result_used",
        "verdict": outcome, "reason": reason, "model": "judge<b>model</b>",
        "template": {"id": "tool-call-v1", "sha256": "00"}, "prompt_sha256": "11",
    });
    if outcome == "unscored" {
        value["cause"] = "refusal".into();
    }
    value.to_string()
}

fn report_with_verdicts() -> toolscope_core::Report {
    let verdicts = [
        line("turn-2", "pass", "the reply quotes the result"),
        line("turn-3", "fail", "</td><script>alert(1)</script>"),
        line("turn-4", "unscored", "declined"),
    ]
    .join("\n");
    let humans = r#"{"session_id":"turn-2","step":1,"criterion":"result_used","verdict":"fail"}"#;
    analyze(
        &[
            InputFile::new("sessions.jsonl", SESSIONS, Role::Traces),
            InputFile::new("verdicts.jsonl", verdicts.as_bytes(), Role::Verdicts),
            InputFile::new("humans.jsonl", humans.as_bytes(), Role::HumanVerdicts),
        ],
        &Options::default(),
    )
}

#[test]
fn the_judge_section_counts_scored_verdicts_and_keeps_the_unscored_apart() {
    let html = render(&report_with_verdicts(), &HtmlOptions::default());
    assert_only_expected_markup(&html);
    let judge = section(&html, "judge");
    assert!(
        judge.contains("3 verdicts on 3 calls by judge&lt;b&gt;model&lt;/b&gt;"),
        "{judge}"
    );
    assert!(
        judge.contains("50.0 % (1 of 2)"),
        "pass rate over scored verdicts"
    );
    assert!(judge.contains("refusal 1"));
    assert!(judge.contains("Against human verdicts"));
    assert!(judge.contains("unscored: refusal"));
    assert!(judge.contains("&lt;/td&gt;&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.contains("<script"));
}

#[test]
fn a_report_without_verdicts_has_no_judge_section() {
    let report = analyze(
        &[InputFile::new("sessions.jsonl", SESSIONS, Role::Traces)],
        &Options::default(),
    );
    let html = render(&report, &HtmlOptions::default());
    assert!(!html.contains("<section id=\"judge\">"));
}
