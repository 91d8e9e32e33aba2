//! `toolscope diff` on the real binary: a report JSON against a trace file, verdicts, cases,
//! exit codes, bad input, and untrusted names in the text.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

/// `n` sessions `s{i}`, one turn each, labelled `lookup_order`; the first `wrong` call `tool`.
fn write_run(dir: &Path, name: &str, n: usize, wrong: usize, tool: &str) {
    let mut sessions = String::new();
    for i in 0..n {
        let called = if i < wrong { tool } else { "lookup_order" };
        let line = serde_json::json!({
            "session_id": format!("s{i}"),
            "events": [
                {"type": "user", "content": format!("where is order {i}?")},
                {"type": "tool_use", "name": called, "args": {"order_id": format!("{i}")}},
                {"type": "tool_result", "status": "ok", "content": "shipped"},
            ],
        });
        sessions.push_str(&format!("{line}\n"));
    }
    std::fs::write(dir.join(name), sessions).unwrap();
}

fn write_labels(dir: &Path, n: usize) {
    let labels: String = (0..n)
        .map(|i| {
            format!(
                "{{\"session_id\": \"s{i}\", \"turn\": 0, \"expected_tool\": \"lookup_order\"}}\n"
            )
        })
        .collect();
    std::fs::write(dir.join("labels.jsonl"), labels).unwrap();
}

fn base_report(dir: &Path) {
    let output = toolscope()
        .current_dir(dir)
        .args(["report", "--json", "--labels", "labels.jsonl", "base.jsonl"])
        .output()
        .unwrap();
    std::fs::write(dir.join("base.json"), &output.stdout).unwrap();
}

fn setup(wrong: usize, tool: &str) -> TempDir {
    let dir = TempDir::new().unwrap();
    write_labels(dir.path(), 40);
    write_run(dir.path(), "base.jsonl", 40, 0, "lookup_order");
    write_run(dir.path(), "current.jsonl", 40, wrong, tool);
    base_report(dir.path());
    dir
}

fn metric<'a>(diff: &'a Value, name: &str) -> &'a Value {
    diff["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["metric"] == name)
        .unwrap_or_else(|| panic!("no {name}"))
}

/// `toolscope diff --json --labels labels.jsonl BASE current.jsonl` in `dir`.
fn diff_json(dir: &Path, base: &str) -> std::process::Output {
    toolscope()
        .current_dir(dir)
        .args([
            "diff",
            "--json",
            "--labels",
            "labels.jsonl",
            base,
            "current.jsonl",
        ])
        .output()
        .unwrap()
}

#[test]
fn a_significant_drop_exits_1_and_lists_the_turns_that_got_worse() {
    let dir = setup(12, "search_docs");
    let output = diff_json(dir.path(), "base.json");
    assert_eq!(
        output.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
    let accuracy = metric(&diff, "selection.tool_accuracy");
    assert_eq!(accuracy["base"]["value"], 1.0);
    assert_eq!(accuracy["current"]["value"], 28.0 / 40.0);
    assert_eq!(accuracy["test"], "mcnemar");
    assert_eq!(
        (
            accuracy["worse_cases"].as_u64(),
            accuracy["better_cases"].as_u64()
        ),
        (Some(12), Some(0))
    );
    // Exact McNemar: 2 · 0.5^12 (to the binomial CDF's rounding).
    let p = accuracy["p_value"].as_f64().unwrap();
    assert!((p - 2.0 * 0.5f64.powi(12)).abs() < 1e-15, "{p}");
    assert_eq!(accuracy["verdict"], "worse");
    assert_eq!(diff["options"]["seed"], 0);
    let worse: Vec<&str> = diff["regressed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|change| change["metric"] == "selection.tool_accuracy")
        .map(|change| change["session_id"].as_str().unwrap())
        .collect();
    assert_eq!(worse.len(), 12);
    assert!(worse.contains(&"s0") && worse.contains(&"s11") && !worse.contains(&"s12"));

    // The text says the same, worse metrics first.
    let text = toolscope()
        .current_dir(dir.path())
        .args([
            "diff",
            "--labels",
            "labels.jsonl",
            "base.json",
            "current.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(text.status.code(), Some(1));
    let text = String::from_utf8(text.stdout).unwrap();
    let table: Vec<&str> = text.lines().skip(3).collect();
    assert!(table[0].starts_with("metric "), "{text}");
    let worse_first: Vec<&str> = table[1..4]
        .iter()
        .map(|line| line.split(' ').next().unwrap())
        .collect();
    assert_eq!(
        worse_first,
        [
            "per_tool.lookup_order.f1",
            "per_tool.lookup_order.recall",
            "selection.tool_accuracy"
        ],
        "{text}"
    );
    assert!(
        table[1..4].iter().all(|line| line.ends_with("worse")),
        "{text}"
    );
    let accuracy_line = text
        .lines()
        .find(|line| line.starts_with("selection.tool_accuracy"))
        .unwrap();
    assert!(
        accuracy_line.contains("1.000 (40/40)  0.700 (28/40)  -0.300"),
        "{accuracy_line}"
    );
    assert!(accuracy_line.ends_with("worse"), "{accuracy_line}");
    assert!(text.contains("cases worse: 24"), "{text}");
}

#[test]
fn the_same_run_twice_exits_0_with_the_same_bytes_for_the_same_seed() {
    let dir = setup(0, "lookup_order");
    let run = |seed: &str| {
        toolscope()
            .current_dir(dir.path())
            .args([
                "diff",
                "--json",
                "--seed",
                seed,
                "--labels",
                "labels.jsonl",
                "base.json",
                "base.jsonl",
            ])
            .output()
            .unwrap()
    };
    let (first, again) = (run("7"), run("7"));
    assert_eq!(
        first.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert_eq!(first.stdout, again.stdout);
    let diff: Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(diff["options"]["seed"], 7);
    assert!(diff["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .all(|row| row["verdict"] != "worse" && row["verdict"] != "better"));
}

#[test]
fn an_unreadable_report_json_and_a_bad_alpha_exit_2_naming_what_is_wrong() {
    let dir = setup(0, "lookup_order");
    std::fs::write(
        dir.path().join("broken.json"),
        r#"{"toolscope_version": "0", "summary": 3, "sessions": []}"#,
    )
    .unwrap();
    let output = toolscope()
        .current_dir(dir.path())
        .args(["diff", "broken.json", "base.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("broken.json: a toolscope report JSON that cannot be read"),
        "{stderr}"
    );

    let output = toolscope()
        .current_dir(dir.path())
        .args(["diff", "--alpha", "2", "base.json", "base.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("between 0 and 1"));

    let output = toolscope()
        .current_dir(dir.path())
        .args(["diff", "base.json", "missing.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("missing.jsonl"));
}

#[test]
fn tool_names_from_traces_are_escaped_in_the_text() {
    let dir = setup(3, "evil\u{1b}[2Jtool");
    let output = toolscope()
        .current_dir(dir.path())
        .args([
            "diff",
            "--labels",
            "labels.jsonl",
            "base.json",
            "current.jsonl",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("per_tool.evil"), "{text}");
    assert!(
        !text.contains('\u{1b}'),
        "no raw escape reaches the terminal"
    );
}

#[test]
fn a_summary_report_stays_small_and_a_summary_baseline_is_compared_from_its_totals() {
    let dir = setup(12, "search_docs");
    let summary_of = |sessions: &str| {
        let output = toolscope()
            .current_dir(dir.path())
            .args(["report", "--json", "--summary", "--labels", "labels.jsonl"])
            .arg(sessions)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(0), "{output:?}");
        output.stdout
    };
    let summary_bytes = summary_of("base.jsonl");
    std::fs::write(dir.path().join("base-summary.json"), &summary_bytes).unwrap();
    let summary: Value = serde_json::from_slice(&summary_bytes).unwrap();
    let full: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("base.json")).unwrap()).unwrap();
    assert_eq!(summary["summary"], full["summary"]);
    assert_eq!(summary["tools"], full["tools"]);
    assert_eq!(
        summary["selection"]["per_tool"],
        full["selection"]["per_tool"]
    );
    assert_eq!(summary["sessions"], serde_json::json!([]));
    assert_eq!(summary["selection"]["outcomes"], serde_json::json!([]));
    assert_eq!(summary["omitted"]["sessions"], 40);
    assert_eq!(summary["omitted"]["turn_outcomes"], 40);
    assert!(full.get("omitted").is_none());

    // Ten times the sessions: the full report grows with them, the summary does not.
    write_run(dir.path(), "big.jsonl", 400, 0, "lookup_order");
    write_labels(dir.path(), 400);
    let big = summary_of("big.jsonl");
    assert!(
        big.len() < summary_bytes.len() + 100,
        "{} then {} bytes",
        summary_bytes.len(),
        big.len()
    );
    write_labels(dir.path(), 40);

    let output = diff_json(dir.path(), "base-summary.json");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
    let accuracy = metric(&diff, "selection.tool_accuracy");
    assert_eq!(accuracy["base"]["value"], 1.0);
    assert_eq!(accuracy["current"]["value"], 28.0 / 40.0);
    assert_eq!(accuracy["test"], "two_proportion");
    assert_eq!(accuracy["is_paired"], false);
    assert!(accuracy["p_value"].as_f64().unwrap() < 0.001);
    assert_eq!(accuracy["verdict"], "worse");
    let f1 = metric(&diff, "per_tool.lookup_order.f1");
    assert_eq!(f1["verdict"], "not_tested");
    assert_eq!(f1["base"]["value"], 1.0);
    assert!(diff["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("the baseline is a summary report"));
    assert_eq!(diff["sessions"]["base"], 40);
    assert_eq!(diff["regressed"], serde_json::json!([]));

    // A summary keeps no sessions to merge.
    let merged = toolscope()
        .current_dir(dir.path())
        .args(["merge", "base-summary.json"])
        .output()
        .unwrap();
    assert_eq!(merged.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&merged.stderr);
    assert!(stderr.contains("summary report"), "{stderr}");
}

#[test]
fn two_trace_runs_read_at_once_print_their_diagnostics_base_first_and_exit_2() {
    // Both runs are read on threads of their own; what reading each said comes out in the
    // order of the command line, whichever finished first, every time.
    let dir = setup(0, "lookup_order");
    let append = |name: &str, line: &str| {
        let mut text = std::fs::read_to_string(dir.path().join(name)).unwrap();
        text.push_str(line);
        std::fs::write(dir.path().join(name), text).unwrap();
    };
    append("base.jsonl", "not json in the base\n");
    append("current.jsonl", "not json in the current run\n");
    for _ in 0..5 {
        let output = diff_json(dir.path(), "base.jsonl");
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        let base = stderr
            .find("base.jsonl:41")
            .expect("the base's line 41 is named");
        let current = stderr
            .find("current.jsonl:41")
            .expect("the current run's line 41 is named");
        assert!(base < current, "{stderr}");
        // Both runs were still compared.
        let diff: Value = serde_json::from_slice(&output.stdout).unwrap();
        let recall = metric(&diff, "per_tool.lookup_order.recall");
        assert_eq!(recall["base"]["den"], 40);
        assert_eq!(recall["current"]["den"], 40);
    }
}
