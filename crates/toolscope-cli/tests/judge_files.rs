//! `report --verdicts` and `--human-verdicts`: a judge's verdicts (as `toolscope judge` writes
//! them) and human verdicts join the report, in JSON and in the summary, without calling a model.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn verdict(session: &str, criterion: &str, outcome: &str) -> String {
    let mut line = serde_json::json!({
        "session_id": session, "step": 1, "tool": "search_docs", "criterion": criterion,
        "verdict": outcome, "reason": "because", "model": "judge-model",
        "template": {"id": "tool-call-v1", "sha256": "00"}, "prompt_sha256": "11",
    });
    if outcome == "unscored" {
        line["cause"] = "truncated".into();
    }
    line.to_string()
}

fn files() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().unwrap();
    let verdicts = dir.path().join("verdicts.jsonl");
    let humans = dir.path().join("humans.jsonl");
    let lines = [
        verdict("turn-2", "right_tool", "pass"),
        verdict("turn-3", "right_tool", "fail"),
        verdict("turn-4", "right_tool", "unscored"),
    ];
    std::fs::write(&verdicts, lines.join("\n") + "\n").unwrap();
    let human = |session: &str, outcome: &str| {
        format!(
            r#"{{"session_id":"{session}","step":1,"criterion":"right_tool","verdict":"{outcome}"}}"#
        )
    };
    std::fs::write(
        &humans,
        [human("turn-2", "pass"), human("turn-3", "pass")].join("\n"),
    )
    .unwrap();
    let (verdicts, humans) = (verdicts.display().to_string(), humans.display().to_string());
    (dir, verdicts, humans)
}

#[test]
fn report_json_carries_the_judge_section_and_its_calibration() {
    let (_dir, verdicts, humans) = files();
    let output = Command::cargo_bin("toolscope")
        .unwrap()
        .args([
            "report",
            "--json",
            "--verdicts",
            &verdicts,
            "--human-verdicts",
            &humans,
        ])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let judge = &report["judge"];
    assert_eq!(judge["verdicts"].as_array().unwrap().len(), 3);
    let right_tool = judge["summary"]["criteria"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["criterion"] == "right_tool")
        .unwrap();
    assert_eq!(
        (right_tool["pass"].as_u64(), right_tool["fail"].as_u64()),
        (Some(1), Some(1))
    );
    assert_eq!(right_tool["unscored_by_cause"]["truncated"], 1);
    let calibration = &judge["calibration"]["criteria"][0];
    assert_eq!(calibration["paired"], 2);
    assert_eq!(calibration["disagreements"][0]["session_id"], "turn-3");
    let roles: Vec<&str> = report["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|input| input["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["traces", "verdicts", "human_verdicts"]);
}

#[test]
fn the_summary_shows_passes_over_scored_verdicts_and_unscored_apart() {
    let (_dir, verdicts, humans) = files();
    let output = Command::cargo_bin("toolscope")
        .unwrap()
        .args([
            "report",
            "--verdicts",
            &verdicts,
            "--human-verdicts",
            &humans,
        ])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(
        text.contains("judge: 3 verdicts on 3 calls by judge-model"),
        "{text}"
    );
    assert!(
        text.contains("  right_tool     pass 1 of 2 scored (50.0%); unscored 1 (truncated 1)"),
        "{text}"
    );
    assert!(
        text.contains("vs humans right_tool     agreement 1 of 2 (50.0%)"),
        "{text}"
    );
    assert!(text.contains("fewer than 50"), "{text}");
    // The human failed nothing, so the judge's specificity, and the corrected rate, are unknown.
    assert!(
        text.contains(
            "    judge pass rate 50.0%; corrected: undefined: the human failed no paired item"
        ),
        "{text}"
    );
}
