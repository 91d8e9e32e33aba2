//! `toolscope merge` on the real binary: generated traces split into parts by session, each
//! part's `report --json`, merged, give the bytes of the whole's `report --json` (the inputs and
//! each session's origin, which name the part files, aside); a session in two parts and a file
//! that is not a report are errors naming the file.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;
use toolscope_core::Report;
use toolscope_gen::{generate, Config, Size};

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

/// `report --json` of `traces` and `labels` with the generated catalog and rules, as bytes.
fn report_json(dir: &Path, traces: &str, labels: &str) -> Vec<u8> {
    let output = toolscope()
        .current_dir(dir)
        .args([
            "report",
            "--json",
            "--tools",
            "tools.json",
            "--rules",
            "rules.json",
        ])
        .args(["--labels", labels, traces])
        .output()
        .unwrap();
    assert!(
        output.status.code() == Some(0) || output.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output.stdout
}

/// Writes a generated data set and its split into `parts` consecutive parts (sessions and
/// their labels), and each part's report as `part-N.json`.
fn setup(parts: usize) -> TempDir {
    let dir = TempDir::new().unwrap();
    let data = generate(&Config {
        seed: 11,
        size: Size::Sessions(90),
        ..Config::default()
    });
    std::fs::write(dir.path().join("tools.json"), &data.tools).unwrap();
    std::fs::write(dir.path().join("rules.json"), &data.rules).unwrap();
    std::fs::write(dir.path().join("sessions.jsonl"), &data.sessions).unwrap();
    std::fs::write(dir.path().join("labels.jsonl"), &data.labels).unwrap();
    let sessions: Vec<&str> = std::str::from_utf8(&data.sessions)
        .unwrap()
        .lines()
        .collect();
    let labels: Vec<Value> = std::str::from_utf8(&data.labels)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let per_part = sessions.len().div_ceil(parts);
    for (index, chunk) in sessions.chunks(per_part).enumerate() {
        let ids: Vec<Value> = chunk
            .iter()
            .map(|line| serde_json::from_str::<Value>(line).unwrap()["session_id"].clone())
            .collect();
        let part_labels: String = labels
            .iter()
            .filter(|label| ids.contains(&label["session_id"]))
            .map(|label| format!("{label}\n"))
            .collect();
        let name = format!("part-{}", index + 1);
        std::fs::write(
            dir.path().join(format!("{name}.jsonl")),
            chunk.join("\n") + "\n",
        )
        .unwrap();
        std::fs::write(dir.path().join(format!("{name}-labels.jsonl")), part_labels).unwrap();
        let report = report_json(
            dir.path(),
            &format!("{name}.jsonl"),
            &format!("{name}-labels.jsonl"),
        );
        std::fs::write(dir.path().join(format!("{name}.json")), report).unwrap();
    }
    dir
}

#[test]
fn merged_parts_print_the_bytes_of_the_whole_report_but_its_inputs() {
    let dir = setup(3);
    let output = toolscope()
        .current_dir(dir.path())
        .args(["merge", "part-1.json", "part-2.json", "part-3.json"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let merged: Report = serde_json::from_slice(&output.stdout).unwrap();
    let inputs: Vec<&str> = merged
        .inputs
        .iter()
        .map(|input| input.file.as_str())
        .collect();
    assert_eq!(inputs.len(), 12);
    assert_eq!(
        &inputs[..4],
        [
            "tools.json",
            "rules.json",
            "part-1.jsonl",
            "part-1-labels.jsonl"
        ]
    );

    let mut whole: Report =
        serde_json::from_slice(&report_json(dir.path(), "sessions.jsonl", "labels.jsonl")).unwrap();
    assert!(whole.summary.problems > 0 && whole.summary.tool_errors.errors > 0);
    assert!(whole
        .selection
        .as_ref()
        .is_some_and(|selection| selection.turns > 0));
    // What names the files read: the part files in the merged report.
    whole.inputs = merged.inputs.clone();
    assert_eq!(whole.sessions.len(), merged.sessions.len());
    for (row, merged_row) in whole.sessions.iter_mut().zip(&merged.sessions) {
        assert_eq!(row.session_id, merged_row.session_id);
        assert!(merged_row.origin.file.starts_with("part-"));
        row.origin = merged_row.origin.clone();
    }
    let mut expected = Vec::new();
    whole.write_json(&mut expected).unwrap();
    assert!(
        expected == output.stdout,
        "merged report differs from the whole's"
    );
}

#[test]
fn a_session_in_two_parts_is_refused_naming_both_files() {
    let dir = setup(2);
    let output = toolscope()
        .current_dir(dir.path())
        .args(["merge", "part-1.json", "part-2.json", "part-1.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("is in both part-1.json and part-1.json; split the data by session"),
        "{stderr}"
    );
}

#[test]
fn a_part_that_is_not_a_report_is_refused_naming_it() {
    let dir = setup(2);
    for (file, message) in [
        ("part-2.jsonl", "part-2.jsonl: not a toolscope report JSON"),
        ("missing.json", "reading missing.json"),
    ] {
        let output = toolscope()
            .current_dir(dir.path())
            .args(["merge", "part-1.json", file])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{file}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
}
