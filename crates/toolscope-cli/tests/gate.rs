//! `toolscope gate` on the real binary: the second seed's drift alert on its example numbers,
//! the outputs (text, Markdown, $GITHUB_STEP_SUMMARY, JUnit XML, JSON), baselines and exit codes.

use std::path::Path;

use assert_cmd::Command;
use quick_xml::events::Event;
use quick_xml::Reader;
use serde_json::Value;
use tempfile::TempDir;

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

/// The second seed's example confusion matrix: rows expected, columns called.
const TOOLS: [&str; 4] = ["get_stock", "search_web", "get_news", "get_financial"];
const MATRIX: [[usize; 4]; 4] = [[45, 3, 1, 1], [2, 38, 4, 0], [0, 1, 42, 0], [1, 0, 0, 44]];

/// Writes `sessions.jsonl` (one session per turn of `matrix`) and `labels.jsonl` in `dir`.
fn write_run(dir: &Path, matrix: [[usize; 4]; 4]) {
    let (mut sessions, mut labels) = (String::new(), String::new());
    let mut n = 0;
    for (row, counts) in matrix.iter().enumerate() {
        for (column, &count) in counts.iter().enumerate() {
            for _ in 0..count {
                let session = serde_json::json!({"session_id": format!("t{n}"), "events": [
                    {"type": "user", "content": "what is AAPL at?"},
                    {"type": "tool_use", "name": TOOLS[column], "args": {"symbol": "AAPL"}},
                ]});
                sessions.push_str(&format!("{session}\n"));
                let label = serde_json::json!({"session_id": format!("t{n}"), "turn": 0, "expected_tool": TOOLS[row]});
                labels.push_str(&format!("{label}\n"));
                n += 1;
            }
        }
    }
    std::fs::write(dir.join("sessions.jsonl"), sessions).unwrap();
    std::fs::write(dir.join("labels.jsonl"), labels).unwrap();
}

const SEED_ALERT: &str = r#"# The second seed's drift alert.
[[rule]]
check = "selection.tool_accuracy >= 0.90"
message = "Tool selection accuracy dropped to {value:.1%}"
"#;

fn gate(dir: &Path, extra: &[&str]) -> std::process::Output {
    toolscope()
        .current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .args(["gate", "--config", "gate.toml", "--labels", "labels.jsonl"])
        .args(extra)
        .arg("sessions.jsonl")
        .output()
        .unwrap()
}

#[test]
fn the_seeds_drift_alert_passes_its_example_week_and_fires_on_a_drift() {
    let dir = TempDir::new().unwrap();
    std::fs::write(dir.path().join("gate.toml"), SEED_ALERT).unwrap();
    write_run(dir.path(), MATRIX);
    let output = gate(dir.path(), &[]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "PASS  selection.tool_accuracy >= 0.90: 0.929 (169 of 182) >= 0.9\ngate: passed (1 checks)\n"
    );

    // 16 get_stock turns go to search_web: 153 of 182, and the seed's own words.
    let mut drifted = MATRIX;
    drifted[0] = [29, 19, 1, 1];
    write_run(dir.path(), drifted);
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let output = toolscope()
        .current_dir(dir.path())
        .env("GITHUB_STEP_SUMMARY", &summary)
        .args([
            "gate",
            "--config",
            "gate.toml",
            "--labels",
            "labels.jsonl",
            "--markdown",
            "pr.md",
        ])
        .args([
            "--junit",
            "junit.xml",
            "--report-url",
            "https://example.org/report.html",
        ])
        .arg("sessions.jsonl")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8(output.stdout).unwrap();
    // Python: f"Tool selection accuracy dropped to {153/182:.1%}" == "... 84.1%"
    assert_eq!(
        text,
        "FAIL  selection.tool_accuracy >= 0.90: Tool selection accuracy dropped to 84.1%\ngate: failed (1 of 1 checks)\n"
    );
    let markdown = std::fs::read_to_string(dir.path().join("pr.md")).unwrap();
    assert!(markdown.starts_with("## toolscope gate: failed (1 of 1 checks)\n\n[The full report](https://example.org/report.html)\n"));
    assert!(
        markdown.contains("| ❌ | selection.tool\\_accuracy &gt;= 0.90 |"),
        "{markdown}"
    );
    // The run's top findings follow, with their fixes.
    assert!(markdown.contains("### What to fix first ("), "{markdown}");
    assert!(
        markdown.contains("1. **tool description**: search\\_web chosen where get\\_stock was expected: 19 turns in 19 sessions"),
        "{markdown}"
    );
    let appended = std::fs::read_to_string(&summary).unwrap();
    assert_eq!(
        appended,
        format!("earlier step\n{markdown}\n"),
        "appended, not replaced"
    );

    let xml = std::fs::read_to_string(dir.path().join("junit.xml")).unwrap();
    let mut reader = Reader::from_str(&xml);
    let (mut cases, mut failures) = (0, Vec::new());
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(element) if element.name().as_ref() == b"testcase" => cases += 1,
            Event::Start(element) if element.name().as_ref() == b"failure" => {
                let message = element.try_get_attribute("message").unwrap().unwrap();
                failures.push(message.unescape_value().unwrap().into_owned());
            }
            Event::Eof => break,
            _ => {}
        }
    }
    assert_eq!(cases, 1);
    assert_eq!(failures, ["Tool selection accuracy dropped to 84.1%"]);
}

#[test]
fn a_baseline_report_json_per_tool_wildcards_and_json_output() {
    let dir = TempDir::new().unwrap();
    let perfect = [[50, 0, 0, 0], [0, 44, 0, 0], [0, 0, 43, 0], [0, 0, 0, 45]];
    write_run(dir.path(), perfect);
    let base = toolscope()
        .current_dir(dir.path())
        .args([
            "report",
            "--json",
            "--labels",
            "labels.jsonl",
            "sessions.jsonl",
        ])
        .output()
        .unwrap();
    std::fs::write(dir.path().join("base.json"), &base.stdout).unwrap();
    write_run(dir.path(), MATRIX);
    std::fs::write(
        dir.path().join("gate.toml"),
        "rules = [\"per_tool.*.recall >= 0.85\"]\n[[baseline]]\nmetric = \"selection.tool_accuracy\"\nmax_drop = 0.02\n",
    )
    .unwrap();
    let output = gate(dir.path(), &["--json", "--baseline", "base.json"]);
    assert_eq!(output.status.code(), Some(1));
    let result: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(result["passed"], false);
    let checks = result["checks"].as_array().unwrap();
    // Four tools' recalls (45/50, 38/44, 42/43, 44/45), then the baseline rule.
    assert_eq!(checks.len(), 5);
    assert!(checks[..4].iter().all(|check| check["status"] == "pass"));
    assert_eq!(checks[4]["metric"], "selection.tool_accuracy");
    assert_eq!(checks[4]["status"], "fail");
    assert_eq!(checks[4]["baseline"]["verdict"], "worse");
    assert_eq!(checks[4]["baseline"]["base"]["value"], 1.0);

    // Without a baseline the baseline rule is skipped, and says so; the rest passes.
    let output = gate(dir.path(), &[]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("SKIP  no significant drop of more than 0.02 in selection.tool_accuracy: skipped: no baseline was given"), "{text}");
}

#[test]
fn config_and_input_mistakes_exit_2_naming_the_file() {
    let dir = TempDir::new().unwrap();
    write_run(dir.path(), MATRIX);
    for (config, expected) in [
        (
            "rules = [\"selection.tool_acc >= 0.9\"]",
            "gate.toml: rule \"selection.tool_acc >= 0.9\": unknown metric",
        ),
        (
            "rules = [\"selection.tool_accuracy >= 0.9\"",
            "gate.toml: TOML parse error at line 1",
        ),
        ("", "gate.toml: the config has no rules"),
    ] {
        std::fs::write(dir.path().join("gate.toml"), config).unwrap();
        let output = gate(dir.path(), &[]);
        assert_eq!(output.status.code(), Some(2), "{config}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(expected), "{config}: {stderr}");
    }
    std::fs::write(dir.path().join("gate.toml"), SEED_ALERT).unwrap();
    std::fs::write(dir.path().join("sessions.jsonl"), "{not json\n").unwrap();
    let output = gate(dir.path(), &[]);
    assert_eq!(
        output.status.code(),
        Some(2),
        "input errors win over the verdict"
    );
}
