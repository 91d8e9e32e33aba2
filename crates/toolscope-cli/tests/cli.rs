//! The real `toolscope` binary on the shared fixtures: output, exit codes, diagnostics.

use std::path::PathBuf;

use assert_cmd::Command;
use serde_json::Value;

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

fn stdout_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn check_prints_the_seeds_three_lines_and_exits_1() {
    let output = toolscope()
        .args([
            "check",
            "--tools",
            &fixture("seed/tools.json"),
            "--rules",
            &fixture("seed/rules.json"),
        ])
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(
        stdout_lines(&output),
        [
            "step 1: issue_refund: -5 is less than or equal to the minimum of 0",
            "step 1: issue_refund called before lookup_order",
            "step 2: unknown tool 'refund_order'",
        ]
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn check_on_clean_calls_prints_nothing_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let calls = dir.path().join("calls.json");
    std::fs::write(
        &calls,
        r#"[{"name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}}]"#,
    )
    .unwrap();
    let output = toolscope()
        .args(["check", "--tools", &fixture("seed/tools.json")])
        .arg(&calls)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(output.stdout.is_empty());
}

#[test]
fn check_prefixes_the_session_when_there_are_several_and_suggests_near_names() {
    let output = toolscope()
        .args([
            "check",
            "--tools",
            &fixture("seed/tools.json"),
            "--rules",
            &fixture("seed/rules.json"),
        ])
        .arg(fixture("native/support.jsonl"))
        .output()
        .unwrap();
    let lines = stdout_lines(&output);
    assert!(
        lines.contains(
            &"s-retry: step 2: lookup_order: identical retry of step 1, which had just failed"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"s-retry: step 3: issue_refund: error result followed by a reply with no retry"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines.contains(
            &"s-broken-args: step 2: unknown tool 'lookup_orders' (did you mean 'lookup_order'?)"
                .to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l
                .starts_with("s-broken-args: step 1: lookup_order: arguments are not valid JSON")),
        "{lines:?}"
    );
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn score_prints_the_seeds_rows_with_support() {
    let output = toolscope()
        .args(["score", "--labels", &fixture("seed/selection_labels.jsonl")])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    assert_eq!(
        stdout_lines(&output),
        [
            "issue_refund   precision 1.00  recall 1.00  support 1  (low support)",
            "lookup_order   precision 1.00  recall 0.50  support 2  (low support)",
            "none           precision 1.00  recall 0.50  support 2  (low support)",
            "search_docs    precision 0.33  recall 1.00  support 1  (low support)",
        ]
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn score_confusion_has_the_seed_printers_shape() {
    let output = toolscope()
        .args([
            "score",
            "--confusion",
            "--min-support",
            "1",
            "--labels",
            &fixture("seed/selection_labels.jsonl"),
        ])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    let lines = stdout_lines(&output);
    let matrix = &lines[4..];
    assert_eq!(
        matrix[0],
        format!(
            "{:20}{:>10}{:>10}{:>10}{:>10}",
            "", "issue_re", "lookup_o", "none", "search_d"
        )
    );
    assert_eq!(
        matrix[2],
        format!("{:>20}{:>9} {:>9}*{:>9} {:>9} ", "lookup_order", 0, 1, 0, 1)
    );
    assert_eq!(matrix.len(), 5);
    assert!(!lines[0].contains("low support"));
}

#[test]
fn score_without_any_labels_is_a_usage_error() {
    let output = toolscope()
        .arg("score")
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no labels"));
}

#[test]
fn report_json_has_the_documented_sections() {
    let output = toolscope()
        .args([
            "report",
            "--json",
            "--tools",
            &fixture("seed/tools.json"),
            "--rules",
            &fixture("seed/rules.json"),
        ])
        .args(["--labels", &fixture("seed/selection_labels.jsonl")])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["summary"]["sessions"], 7);
    // Worst session first: the seed's calls, with its three problems in step order.
    assert_eq!(report["sessions"][0]["session_id"], "calls");
    let problems = report["problems"].as_array().unwrap();
    let kinds: Vec<&str> = problems[..3]
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["schema", "order", "unknown_tool"]);
    assert_eq!(problems[0]["session_id"], "calls");
    assert_eq!(problems[0]["pointer"], "/amount");
    // search_docs is not in the seed's catalog: three unknown calls; the refund has no lookup.
    let count = |kind: &str| problems.iter().filter(|p| p["kind"] == kind).count();
    assert_eq!(
        (count("unknown_tool"), count("order"), count("schema")),
        (4, 2, 1)
    );
    assert_eq!(report["summary"]["problems"], 7);
    let rows = report["selection"]["per_tool"].as_array().unwrap();
    let search = rows.iter().find(|r| r["tool"] == "search_docs").unwrap();
    assert_eq!(
        (
            search["tp"].as_u64(),
            search["fp"].as_u64(),
            search["fn"].as_u64()
        ),
        (Some(1), Some(2), Some(0))
    );
    assert_eq!(
        report["selection"]["confusion"]["labels"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert!(report["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn bad_lines_are_diagnosed_with_file_and_line_and_the_rest_still_loads() {
    let sessions = fixture("bad/sessions.jsonl");
    let labels = fixture("bad/labels.jsonl");
    let output = toolscope()
        .args([
            "report",
            "--json",
            "--tools",
            &fixture("seed/tools.json"),
            "--labels",
            &labels,
        ])
        .arg(&sessions)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "input errors exit 2");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let ids: Vec<&str> = report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["session_id"].as_str().unwrap())
        .collect();
    for id in ["good-1", "odd-event", "nan-args"] {
        assert!(ids.contains(&id), "{id} loaded: {ids:?}");
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    for expected in [
        format!("{sessions}:2:"),
        "error: not JSON".to_string(),
        format!("{sessions}:3: error: session \"no-events\" has no \"events\""),
        format!(
            "{sessions}:4: error: session \"odd-event\", event 1: unknown event type \"system\""
        ),
        format!("{sessions}:5:"),
        format!("{labels}:2: error: label for session \"ghost\""),
        format!("{labels}:3: error: label for turn 5"),
        format!("{labels}:4: error: label has no \"session_id\""),
    ] {
        assert!(
            stderr.contains(&expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
    // The NaN amount was read as null, so the schema check still runs on that call.
    let nan = report["problems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["session_id"] == "nan-args")
        .unwrap();
    assert_eq!(nan["kind"], "schema");
    assert_eq!(report["selection"]["turns"], 1);
}

#[test]
fn a_missing_file_is_an_input_error_naming_it() {
    let output = toolscope()
        .args(["check", "no/such/file.jsonl"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no/such/file.jsonl"));
}

/// Issue 9: a ZIP archive that is not an Inspect log read as zero sessions, with a warning and
/// exit status 0; nothing could be read from it, as from any other unreadable file.
#[test]
fn a_zip_archive_that_is_not_an_inspect_log_is_an_input_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let archive = dir.path().join("hello.zip");
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&archive).unwrap());
    writer
        .start_file("hello.txt", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut writer, b"hello").unwrap();
    writer.finish().unwrap();
    for command in ["check", "report"] {
        let output = toolscope().arg(command).arg(&archive).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{command}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "{}: error: a ZIP archive without an Inspect log's header.json or samples/*.json \
                 (it holds hello.txt); nothing read",
                archive.display()
            )),
            "{command}: {stderr}"
        );
    }
}

#[test]
fn unknown_flags_are_usage_errors() {
    let output = toolscope()
        .args(["check", "--frobnicate", "x"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn a_closed_stdout_ends_quietly() {
    // Far more output than a pipe buffers, so the write fails after `head` has gone.
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.jsonl");
    let line =
        r#"{"session_id": "s", "events": [{"type": "tool_use", "name": "t", "args": "{oops"}]}"#;
    std::fs::write(&big, format!("{line}\n").repeat(5000)).unwrap();
    let script = format!(
        "'{}' report --json '{}' | head -c 1 >/dev/null",
        assert_cmd::cargo::cargo_bin("toolscope").display(),
        big.display()
    );
    let output = std::process::Command::new("sh")
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn core_fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../toolscope-core/tests/fixtures");
    root.join(path).display().to_string()
}

#[test]
fn the_trace_format_is_detected_from_the_content_and_reported_with_the_reason() {
    let output = toolscope()
        .args(["report", "--json"])
        .arg(core_fixture("formats/openai_chat/messages.json"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["inputs"][0]["format"], "openai_chat");
    assert!(report["inputs"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("tool_calls"));
    assert_eq!(report["summary"]["sessions"], 1);
}

#[test]
fn format_forces_a_reader_and_rejects_unknown_names() {
    let output = toolscope()
        .args(["report", "--json", "--format", "seed_calls"])
        .arg(core_fixture("formats/openai_chat/messages.json"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["inputs"][0]["format"], "seed_calls");
    assert_eq!(report["inputs"][0]["reason"], "chosen by the user");
    // Chat messages are not {"name", "args"} calls: one error per message, and exit 2.
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("call has no \"name\" string"));

    let output = toolscope()
        .args(["check", "--format", "yaml"])
        .arg(core_fixture("formats/openai_chat/messages.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("openai_chat"), "{stderr}");
}

#[test]
fn an_unreadable_file_gets_one_diagnostic_listing_every_format_tried() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("odd.json");
    std::fs::write(&path, r#"{"hello": "world"}"#).unwrap();
    let output = toolscope().arg("check").arg(&path).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.matches("not a trace format").count(), 1, "{stderr}");
    for format in toolscope_core::formats::TraceFormat::ALL {
        assert!(
            stderr.contains(format.name()),
            "{format} not listed: {stderr}"
        );
    }
}

#[test]
fn report_sums_up_task_actions_in_text_and_json() {
    let runs = core_fixture("formats/tau_bench/gpt-4o-airline.subset3.json");
    let output = toolscope().arg("report").arg(&runs).output().unwrap();
    let lines = stdout_lines(&output);
    assert!(
        lines.contains(
            &"task actions: 4 of 6 matched (66.7%); 1 of 3 sessions with every action".to_string()
        ),
        "{lines:#?}"
    );
    let output = toolscope()
        .args(["report", "--json"])
        .arg(&runs)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["tasks"]["actions"]["count"], 4);
    let first = &report["tasks"]["outcomes"][0];
    assert_eq!(first["session_id"], "task_0.trial_0");
    assert_eq!(first["actions"][0]["matched"], false);
}

#[test]
fn score_prints_each_sessions_task_actions_when_the_traces_carry_them() {
    let output = toolscope()
        .arg("score")
        .arg(core_fixture(
            "formats/tau_bench/gpt-4o-airline.subset3.json",
        ))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout_lines(&output),
        [
            "task_0.trial_0   actions 0 of 1  not matched: book_reservation",
            "task_6.trial_0   actions 1 of 1",
            "task_32.trial_0  actions 3 of 4  not matched: book_reservation",
            "task actions: 4 of 6 matched (66.7%); 1 of 3 sessions with every action",
            "trials: 3 trials of 3 tasks, 1 succeeded, average reward 0.333",
            "pass^1 0.333 (3 tasks)",
            "pass@1 0.333 (3 tasks)",
        ]
    );
}

#[test]
fn score_explains_each_turn_with_wrong_arguments_and_sums_them_up() {
    let files = [
        "BFCL_v4_simple_python.head3.json",
        "BFCL_v4_simple_python_result.sample.json",
        "possible_answer.BFCL_v4_simple_python.head3.json",
    ]
    .map(|name| core_fixture(&format!("formats/bfcl/{name}")));
    let run = |command: &str| toolscope().arg(command).args(&files).output().unwrap();
    let output = run("score");
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    // The per-tool rows come first, as the seed prints them; then why, then the totals.
    assert_eq!(lines.len(), 5, "{lines:?}");
    assert!(lines[2].starts_with("math.hypot "), "{lines:?}");
    assert_eq!(
        lines[3..],
        [
            "simple_python_2 turn 0: arguments: math.hypot: call 1: \"y\": 6 is not an acceptable value",
            "arguments: exact 66.7% (2 of 3), subset 66.7% (2 of 3); calls extra 0, missing 0",
        ]
    );
    assert_eq!(
        stdout_lines(&run("report")).last().map(String::as_str),
        Some(lines[4].as_str())
    );
}

#[test]
fn thousands_of_invented_tool_names_print_a_bounded_confusion_matrix() {
    // Every turn calls a new name: a dense matrix of 5,001 labels was 25 million cells, printed
    // as 5,001 lines of 50,000 characters.
    let dir = tempfile::tempdir().unwrap();
    let (mut sessions, mut labels) = (String::new(), String::new());
    for index in 0..5_000 {
        sessions.push_str(&format!(
            r#"{{"session_id": "s{index}", "events": [{{"type": "user", "content": "q"}}, {{"type": "tool_use", "call_id": "c", "name": "invented_{index}", "args": {{}}}}]}}"#
        ));
        sessions.push('\n');
        labels.push_str(&format!(
            r#"{{"session_id": "s{index}", "turn": 0, "expected_tool": "lookup_order"}}"#
        ));
        labels.push('\n');
    }
    let (traces, label_file) = (dir.path().join("t.jsonl"), dir.path().join("l.jsonl"));
    std::fs::write(&traces, sessions).unwrap();
    std::fs::write(&label_file, labels).unwrap();
    let output = toolscope()
        .args(["score", "--confusion", "--labels"])
        .arg(&label_file)
        .arg(&traces)
        .output()
        .unwrap();
    let lines = stdout_lines(&output);
    let matrix_start = lines
        .iter()
        .position(|line| line.starts_with(&" ".repeat(20)))
        .expect("the matrix header: its row-name column is blank");
    let matrix = &lines[matrix_start..];
    assert_eq!(
        matrix.len(),
        1 + 21 + 1,
        "header, 20 tools and other, the note"
    );
    assert!(matrix[0].ends_with("other (4"), "{}", matrix[0]);
    assert!(matrix[21].trim_start().starts_with("other (4981 tools)"));
    assert!(matrix[22].starts_with("(4981 tools with the fewest turns"));
    assert!(matrix.iter().all(|line| line.len() < 300));

    let output = toolscope()
        .args(["report", "--json", "--labels"])
        .arg(&label_file)
        .arg(&traces)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let confusion = &report["selection"]["confusion"];
    assert_eq!(confusion["labels"].as_array().unwrap().len(), 5_001);
    assert_eq!(confusion["cells"].as_array().unwrap().len(), 5_000);
}

#[test]
fn a_file_over_the_size_limit_is_not_read_and_the_others_are() {
    let dir = tempfile::tempdir().unwrap();
    // Sparse: a file of 1 GiB and one byte that takes no disk space.
    let huge = dir.path().join("huge.jsonl");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len((1 << 30) + 1)
        .unwrap();
    let good = dir.path().join("good.jsonl");
    std::fs::write(
        &good,
        r#"{"session_id": "s", "events": [{"type": "tool_use", "name": "f", "args": {}}]}"#,
    )
    .unwrap();
    let mut inputs = vec![huge.display().to_string(), good.display().to_string()];
    // An endless stream is read only up to the limit.
    if std::path::Path::new("/dev/zero").exists() {
        inputs.push("/dev/zero".to_string());
    }
    let output = toolscope()
        .args(["report", "--json"])
        .args(&inputs)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "an input could not be read");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["summary"]["sessions"], 1);
    let messages: Vec<(String, String)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["file"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(messages
        .iter()
        .any(|(file, message)| file.ends_with("huge.jsonl")
            && message.contains("this one is 1073741825 bytes")));
    if inputs.len() == 3 {
        assert!(messages.iter().any(|(file, message)| file == "/dev/zero"
            && message.contains("this one is longer (it goes on past that)")));
    }
}

#[test]
fn score_prints_pass_hat_k_of_tau_bench_runs_with_tau_benchs_own_figure_beside() {
    let runs = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../toolscope-core/tests/fixtures/trials/gpt-4o-airline.subset12.json");
    let output = toolscope().arg("score").arg(runs).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    let lines = stdout_lines(&output);
    let tail: Vec<&str> = lines
        .iter()
        .rev()
        .take(4)
        .rev()
        .map(String::as_str)
        .collect();
    assert_eq!(
        tail,
        [
            "trials: 12 trials of 11 tasks, 6 succeeded, average reward 0.500",
            "pass^1 0.545 (11 tasks), pass^2 0.000 (1 task)",
            "pass@1 0.545 (11 tasks), pass@2 0.000 (1 task)",
            "τ-bench's pass^k (one trial count for every task): pass^1 0.273 (11 tasks), pass^2 0.000 (11 tasks)",
        ]
    );
}

#[test]
fn report_prints_the_top_findings_each_with_its_fix() {
    let output = toolscope()
        .args([
            "report",
            "--tools",
            &fixture("seed/tools.json"),
            "--rules",
            &fixture("seed/rules.json"),
        ])
        .args(["--labels", &fixture("seed/selection_labels.jsonl")])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    let lines = stdout_lines(&output);
    let start = lines
        .iter()
        .position(|line| line.starts_with("findings ("))
        .expect("a findings block");
    assert_eq!(
        lines[start],
        "findings (6, most sessions first; the first 5, --json has every one):"
    );
    assert_eq!(
        lines[start + 1],
        "1. [catalog] search_docs called, but the agent has no such tool: 3 calls in 3 sessions"
    );
    assert_eq!(
        lines[start + 3],
        "2. [prompt] issue_refund called before lookup_order: 2 calls in 2 sessions"
    );
    assert_eq!(lines.len(), start + 11);
    let json = toolscope()
        .args([
            "report",
            "--json",
            "--tools",
            &fixture("seed/tools.json"),
            "--rules",
            &fixture("seed/rules.json"),
        ])
        .args(["--labels", &fixture("seed/selection_labels.jsonl")])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let ids: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "unknown_tool:search_docs",
            "order:issue_refund called before lookup_order",
            "confused_tools:lookup_order→search_docs",
            "over_calling:none→search_docs",
            "schema:issue_refund",
            "unknown_tool:refund_order",
        ]
    );
}

#[test]
fn the_report_records_how_arguments_were_compared() {
    for (mode, expected) in [(None, "exact"), (Some("subset"), "subset")] {
        let mut command = toolscope();
        command.args([
            "report",
            "--json",
            "--labels",
            &fixture("seed/selection_labels.jsonl"),
        ]);
        if let Some(mode) = mode {
            command.args(["--args-match", mode]);
        }
        let output = command
            .arg(fixture("seed/selection_sessions.jsonl"))
            .output()
            .unwrap();
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["selection"]["args_mode"], expected);
    }
}

/// `--compact` prints the same report, full and summary, on one line; without `--json` it is a
/// usage error.
#[test]
fn a_compact_report_is_the_same_json_on_one_line() {
    let report = |extra: &[&str]| {
        let output = toolscope()
            .args(["report", "--json", "--labels"])
            .arg(fixture("seed/selection_labels.jsonl"))
            .args(extra)
            .arg(fixture("seed/selection_sessions.jsonl"))
            .output()
            .unwrap();
        (
            output.status.code(),
            String::from_utf8(output.stdout).unwrap(),
        )
    };
    for summary in [&[][..], &["--summary"][..]] {
        let (pretty_code, pretty) = report(summary);
        let (compact_code, compact) = report(&[summary, &["--compact"][..]].concat());
        assert_eq!(compact_code, pretty_code);
        assert_eq!(compact.lines().count(), 1, "{compact}");
        assert!(compact.ends_with("}\n"));
        assert!(
            compact.len() < pretty.len() * 3 / 4,
            "{} of {}",
            compact.len(),
            pretty.len()
        );
        let value = |text: &str| serde_json::from_str::<Value>(text).unwrap();
        assert_eq!(value(&compact), value(&pretty));
        assert!(value(&compact)["sessions"].is_array());
    }
    let output = toolscope()
        .args(["report", "--compact"])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
}
