//! A judge's verdicts file and a human verdicts file, given beside the traces, become the
//! report's `judge` section: detected by content, counted, joined with the code checks, measured
//! against the humans, narrowed by filters, and verdicts on calls not in the traces named.

use toolscope_core::judge::{Criterion, Outcome};
use toolscope_core::{analyze, detect_role, Analysis, Filter, InputFile, Options, Role};

const SESSIONS: &[u8] = include_bytes!("../../../tests/fixtures/seed/selection_sessions.jsonl");
const TOOLS: &[u8] = include_bytes!("../../../tests/fixtures/seed/tools.json");

/// One verdict line as `toolscope judge` writes it.
fn verdict(session: &str, step: usize, tool: &str, criterion: &str, outcome: &str) -> String {
    let cause = if outcome == "unscored" {
        r#","cause":"parse_error""#
    } else {
        ""
    };
    format!(
        r#"{{"session_id":"{session}","step":{step},"tool":"{tool}","criterion":"{criterion}","verdict":"{outcome}"{cause},"reason":"r","model":"m","template":{{"id":"tool-call-v1","sha256":"00"}},"prompt_sha256":"11"}}"#
    )
}

fn verdicts_file() -> String {
    let mut lines = vec![
        verdict("turn-1", 1, "lookup_order", "args_grounded", "pass"),
        verdict("turn-2", 1, "search_docs", "args_grounded", "fail"),
        verdict("turn-3", 1, "search_docs", "args_grounded", "pass"),
        verdict("turn-4", 1, "search_docs", "args_grounded", "unscored"),
        verdict("turn-6", 1, "issue_refund", "args_grounded", "fail"),
        // Not in the traces: counted, and named in a warning.
        verdict("turn-9", 3, "search_docs", "args_grounded", "pass"),
    ];
    lines.push(String::new());
    lines.join("\n")
}

fn humans_file() -> String {
    [
        ("turn-1", "pass"),
        ("turn-2", "fail"),
        ("turn-3", "fail"),
        ("turn-6", "fail"),
    ]
    .iter()
    .map(|(session, outcome)| {
        format!(
            r#"{{"session_id":"{session}","step":1,"criterion":"args_grounded","verdict":"{outcome}"}}"#
        )
    })
    .collect::<Vec<_>>()
    .join("\n")
}

#[test]
fn verdict_files_are_recognised_by_their_content() {
    assert_eq!(detect_role(verdicts_file().as_bytes()).0, Role::Verdicts);
    assert_eq!(detect_role(humans_file().as_bytes()).0, Role::HumanVerdicts);
}

#[test]
fn verdicts_become_the_judge_section_with_calibration_and_a_warning_for_unknown_calls() {
    let verdicts = verdicts_file();
    let humans = humans_file();
    let report = analyze(
        &[
            InputFile::new("tools.json", TOOLS, Role::Catalog),
            InputFile::new("sessions.jsonl", SESSIONS, Role::Traces),
            InputFile::new("verdicts.jsonl", verdicts.as_bytes(), Role::Verdicts),
            InputFile::new("humans.jsonl", humans.as_bytes(), Role::HumanVerdicts),
        ],
        &Options::default(),
    );
    let judge = report.judge.as_ref().expect("a judge section");
    assert_eq!(judge.verdicts.len(), 6);
    let grounded = judge
        .summary
        .criteria
        .iter()
        .find(|row| row.criterion == Criterion::ArgsGrounded)
        .unwrap();
    assert_eq!((grounded.pass, grounded.fail, grounded.unscored), (3, 2, 1));
    // The rate is over scored verdicts only.
    assert_eq!(grounded.pass_rate.total, 5);

    let calibration = judge.calibration.as_ref().expect("calibration");
    let row = calibration
        .criteria
        .iter()
        .find(|row| row.criterion == Criterion::ArgsGrounded)
        .unwrap();
    // turn-1 pass/pass, turn-2 fail/fail, turn-3 pass/fail, turn-6 fail/fail.
    assert_eq!(row.paired, 4);
    assert_eq!(row.disagreements.len(), 1);
    assert_eq!(row.disagreements[0].session_id, "turn-3");
    assert_eq!(
        (row.disagreements[0].judge, row.disagreements[0].human),
        (Outcome::Pass, Outcome::Fail)
    );
    assert!(!row.warnings.is_empty() || !calibration.warnings.is_empty());

    let warning = report
        .diagnostics
        .iter()
        .find(|diagnostic| diagnostic.file == "verdicts.jsonl")
        .expect("a warning about the unknown call");
    assert!(
        warning.message.contains("\"turn-9\", step 3"),
        "{}",
        warning.message
    );
    let counts = &report
        .inputs
        .iter()
        .find(|input| input.file == "verdicts.jsonl")
        .unwrap()
        .counts;
    assert_eq!(counts.get("verdicts"), Some(&6));
}

#[test]
fn a_report_without_verdicts_has_no_judge_key() {
    let report = analyze(
        &[InputFile::new("sessions.jsonl", SESSIONS, Role::Traces)],
        &Options::default(),
    );
    assert!(report.judge.is_none());
    let mut json = Vec::new();
    report.write_json(&mut json).unwrap();
    assert!(!String::from_utf8(json).unwrap().contains("\"judge\""));
}

#[test]
fn filters_narrow_the_verdicts_to_the_sessions_and_tool_kept() {
    let verdicts = verdicts_file();
    let analysis = Analysis::new(
        &[
            InputFile::new("sessions.jsonl", SESSIONS, Role::Traces),
            InputFile::new("verdicts.jsonl", verdicts.as_bytes(), Role::Verdicts),
        ],
        &Options::default(),
        &mut |_| {},
    );
    let filter = Filter {
        tool: Some("search_docs".into()),
        ..Filter::default()
    };
    let narrowed = analysis.filtered(&filter);
    let judge = narrowed.judge.expect("a judge section");
    assert!(judge
        .verdicts
        .iter()
        .all(|verdict| verdict.tool == "search_docs"));
    // turn-2..4 are kept; turn-9 is in no session the filter keeps.
    assert_eq!(judge.verdicts.len(), 3);
}
