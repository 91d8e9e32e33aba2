//! Reports and baselines someone else wrote, with counts no input could give: `merge`, `diff` and
//! `gate --baseline` refuse them with exit 2, naming the file and the field, before any number
//! of them becomes a loop bound or an allocation (before: petabyte allocations, hours of
//! counting, a panic in the Wilson interval).

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;
use serde_json::Value;

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn toolscope() -> Command {
    let mut command = Command::cargo_bin("toolscope").unwrap();
    command.timeout(Duration::from_secs(60));
    command
}

/// The seed's report JSON as a value.
fn seed_report() -> Value {
    let output = toolscope()
        .args(["report", "--json"])
        .arg(fixture("seed/selection_sessions.jsonl"))
        .output()
        .unwrap();
    serde_json::from_slice(&output.stdout).unwrap()
}

fn write(dir: &Path, name: &str, value: &Value) -> String {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(value).unwrap()).unwrap();
    path.display().to_string()
}

#[test]
fn impossible_counts_in_reports_are_refused_by_merge_diff_and_gate_naming_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let good = write(dir.path(), "good.json", &seed_report());
    std::fs::write(dir.path().join("gate.toml"), "rules = [\"problems.rate <= 1.0\"]\n[[baseline]]\nmetric = \"problems.rate\"\nmax_drop = 0.5\n").unwrap();
    let mut cases: Vec<(&str, Value, &str)> = Vec::new();
    let mut calls = seed_report();
    calls["sessions"][0]["calls"] = Value::from(1_000_000_000_000u64);
    calls["summary"]["calls"] = Value::from(1_000_000_000_000u64);
    cases.push(("calls", calls, "summary.calls"));
    let mut max = seed_report();
    max["sessions"][0]["calls"] = Value::from(u64::MAX);
    cases.push(("max", max, "summary.calls"));
    let mut problems = seed_report();
    problems["sessions"][0]["problems"] = Value::from(1_000_000_000_000u64);
    cases.push(("problems", problems, "summary.problems"));
    let mut above = seed_report();
    above["sessions"][0]["tool_errors"]["errors"] = Value::from(7);
    above["sessions"][0]["tool_errors"]["results"] = Value::from(2);
    cases.push(("above", above, "sessions[0].tool_errors.errors"));
    for (name, value, field) in cases {
        let bad = write(dir.path(), &format!("{name}.json"), &value);
        let runs: [Vec<String>; 4] = [
            vec!["merge".into(), good.clone(), bad.clone()],
            vec!["diff".into(), good.clone(), bad.clone()],
            vec!["diff".into(), bad.clone(), good.clone()],
            vec![
                "gate".into(),
                "--config".into(),
                "gate.toml".into(),
                "--baseline".into(),
                bad.clone(),
                good.clone(),
            ],
        ];
        for args in runs {
            let output = toolscope()
                .current_dir(dir.path())
                .args(&args)
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {said}");
            assert!(
                said.contains(&bad) && said.contains(field),
                "{args:?}: {said}"
            );
            assert!(!said.contains("panicked"), "{said}");
        }
    }
}
