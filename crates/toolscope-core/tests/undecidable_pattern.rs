//! A schema `pattern` that needs unbounded backtracking is reported as undecidable: neither a
//! schema failure nor a pass, and it does not count against the call.

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::{analyze, InputFile, Options, Role};

fn run(pattern: &str, value: &str) -> toolscope_core::Report {
    let catalog = serde_json::json!({"t": {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}}});
    let calls = serde_json::json!([{"name": "t", "args": {"code": value}}]);
    let (catalog, calls) = (catalog.to_string(), calls.to_string());
    analyze(
        &[
            InputFile::new("tools.json", catalog.as_bytes(), Role::Catalog),
            InputFile::new("calls.json", calls.as_bytes(), Role::Traces),
        ],
        &Options::default(),
    )
}

#[test]
fn catastrophic_backtracking_is_undecidable_not_invalid() {
    let report = run(r"(a|a)*\1b", &format!("{}!", "a".repeat(40)));
    let kinds: Vec<ProblemKind> = report.problems.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        [ProblemKind::SchemaUndecidable],
        "{:?}",
        report.problems
    );
    assert_eq!(report.summary.problems, 0, "undecidable is not a failure");
    assert_eq!(report.summary.undecidable_calls, 1);
    assert_eq!(report.summary.calls_with_problems.count, 0);
    assert_eq!(report.problems[0].pointer.as_deref(), Some("/code"));
}

#[test]
fn the_same_pattern_still_decides_short_inputs() {
    let report = run(r"(a|a)*\1b", "aa!");
    assert_eq!(report.problems.len(), 1);
    assert_eq!(report.problems[0].kind, ProblemKind::Schema);
    assert!(run(r"(a|a)*\1b", "aab").problems.is_empty());
}

#[test]
fn linear_patterns_decide_long_inputs() {
    let report = run(r"^(a+)+$", &format!("{}b", "a".repeat(100_000)));
    assert_eq!(report.problems.len(), 1);
    assert_eq!(report.problems[0].kind, ProblemKind::Schema);
}
