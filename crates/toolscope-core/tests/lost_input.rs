//! Input that used to be silently lost (issue 9, "hold up under hostile input"): each test reads
//! a file the way a user gives it and checks that every session it holds is read and that what
//! could not be read is a located diagnostic.

mod common;

use toolscope_core::{Report, Role, Severity};

/// A tool catalog in the seed's shape: `issue_refund` takes an amount of at most 1000, and
/// `lookup_order` needs an `order_id`.
const CATALOG: &str = r#"{"issue_refund": {"type": "object", "properties": {"amount": {"type": "number", "maximum": 1000}}},
 "lookup_order": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}"#;

/// Analyses one trace file against [`CATALOG`].
fn analyze_with_catalog(name: &str, traces: &str) -> Report {
    common::analyze_named(&[
        ("tools.json", CATALOG.as_bytes(), Role::Catalog),
        (name, traces.as_bytes(), Role::Traces),
    ])
}

fn problem_messages(report: &Report) -> Vec<String> {
    report
        .problems
        .iter()
        .map(|problem| {
            format!(
                "{} step {}: {}",
                problem.session_id, problem.step, problem.message
            )
        })
        .collect()
}

fn diagnostic_lines(report: &Report) -> Vec<String> {
    report.diagnostics.iter().map(ToString::to_string).collect()
}

#[test]
fn an_integer_of_400_digits_in_arguments_keeps_its_session_and_is_checked() {
    let digits = "9".repeat(400);
    let traces = format!(
        "{{\"session_id\": \"s1\", \"events\": [{{\"type\": \"tool_use\", \"name\": \"lookup_order\", \"args\": {{\"order_id\": \"A1\"}}}}]}}\n\
         {{\"session_id\": \"s2\", \"events\": [{{\"type\": \"tool_use\", \"name\": \"issue_refund\", \"args\": {{\"amount\": {digits}}}}}]}}\n"
    );
    let report = analyze_with_catalog("sessions.jsonl", &traces);
    assert_eq!(report.summary.sessions, 2);
    assert_eq!(
        diagnostic_lines(&report),
        ["sessions.jsonl:2:97: warning: integer 99999999999999999999... (400 digits) is beyond the \
          largest float; read as the nearest float 1.7976931348623157e308"]
    );
    assert_eq!(
        problem_messages(&report),
        ["s2 step 1: issue_refund: 1.7976931348623157e+308 is greater than the maximum of 1000"]
    );
}

#[test]
fn an_exponent_beyond_floats_in_arguments_keeps_its_session_and_is_checked() {
    let traces = r#"[{"name": "issue_refund", "args": {"amount": 1e400}}, {"name": "lookup_order", "args": {"order_id": "A1"}}]"#;
    let report = analyze_with_catalog("calls.json", traces);
    assert_eq!(report.summary.sessions, 1);
    assert_eq!(report.summary.calls, 2);
    assert_eq!(
        diagnostic_lines(&report),
        ["calls.json:1:46: warning: number 1e400 is beyond the largest float; read as the nearest \
          float 1.7976931348623157e308"]
    );
    assert_eq!(
        problem_messages(&report),
        ["calls step 1: issue_refund: 1.7976931348623157e+308 is greater than the maximum of 1000"]
    );
    assert!(report
        .diagnostics
        .iter()
        .all(|diagnostic| diagnostic.severity == Severity::Warning));
}
