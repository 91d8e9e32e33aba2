//! The seed document's printed outputs, reproduced end to end through [`analyze`] from the
//! fixture files in tests/fixtures/seed/ (the seed's data written as toolscope inputs).
//!
//! The expected lines are copied verbatim from the seed (shared/seeds/000_*.txt): they are the
//! only hard-coded outputs in these tests.

mod common;

use std::path::PathBuf;

use toolscope_core::metrics::selection::seed_report_lines;
use toolscope_core::{Report, Role};

fn fixture(name: &str) -> Vec<u8> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "tests",
        "fixtures",
        "seed",
        name,
    ]
    .iter()
    .collect();
    std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn analyze_fixtures(files: &[(&'static str, Role)]) -> Report {
    let contents: Vec<(&str, Vec<u8>, Role)> = files
        .iter()
        .map(|&(name, role)| (name, fixture(name), role))
        .collect();
    let named: Vec<(&str, &[u8], Role)> = contents
        .iter()
        .map(|(name, bytes, role)| (*name, bytes.as_slice(), *role))
        .collect();
    common::analyze_named(&named)
}

/// The seed's `selection_report` over its six (expected, actual) pairs, written as six native
/// one-turn sessions and six labels.
#[test]
fn selection_report_prints_the_seeds_four_lines() {
    let report = analyze_fixtures(&[
        ("selection_sessions.jsonl", Role::Traces),
        ("selection_labels.jsonl", Role::Labels),
    ]);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let selection = report.selection.expect("labels give a selection");
    assert_eq!(selection.turns, 6);
    assert_eq!(
        seed_report_lines(&selection.per_tool),
        [
            "issue_refund   precision 1.00  recall 1.00",
            "lookup_order   precision 1.00  recall 0.50",
            "none           precision 1.00  recall 0.50",
            "search_docs    precision 0.33  recall 1.00",
        ]
    );
}

/// The seed's `check_calls` example: its TOOLS as the catalog, its MUST_COME_AFTER as rules, its
/// two calls as a bare call array.
#[test]
fn check_calls_prints_the_seeds_three_problem_lines() {
    let report = analyze_fixtures(&[
        ("tools.json", Role::Catalog),
        ("rules.json", Role::Rules),
        ("calls.json", Role::Traces),
    ]);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let lines: Vec<String> = report.problems.iter().map(|p| p.seed_line()).collect();
    assert_eq!(
        lines,
        [
            "step 1: issue_refund: -5 is less than or equal to the minimum of 0",
            "step 1: issue_refund called before lookup_order",
            "step 2: unknown tool 'refund_order'",
        ]
    );
}
