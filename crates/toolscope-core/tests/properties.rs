//! Invariants of the selection metrics and of reading any input, over generated inputs.
//!
//! Selection: for any labelled turns (native sessions + labels through [`analyze`]), counts are
//! conserved, rates are in [0, 1] or null and never NaN, the confusion matrix agrees with the
//! per-tool rows, Wilson intervals hold their estimate, scores stay in the seed's range, and the
//! report survives JSON.
//!
//! Reading: [`analyze`] never panics on arbitrary bytes in any role, and every diagnostic it
//! emits points at a 1-based line (and column) of the file it names.

mod common;

use common::{analyze_turns, labelled_turns, LabelledTurn};
use proptest::prelude::*;
use toolscope_core::metrics::selection::{Selection, ToolRow};
use toolscope_core::{analyze, InputFile, Options, Report, Role};

const ROLES: [Role; 4] = [Role::Traces, Role::Catalog, Role::Rules, Role::Labels];

fn selection_of(turns: &[LabelledTurn]) -> (Report, Selection) {
    let report = analyze_turns(turns);
    assert!(
        report.diagnostics.is_empty(),
        "generated input reads cleanly: {:?}",
        report.diagnostics
    );
    let selection = report.selection.clone().expect("labels give a selection");
    (report, selection)
}

fn assert_unit_or_null(what: &str, row: &ToolRow, value: Option<f64>) {
    if let Some(value) = value {
        assert!(
            (0.0..=1.0).contains(&value),
            "{what} of {} is {value}, outside [0, 1]: {row:?}",
            row.tool
        );
    }
}

fn assert_interval_holds(what: &str, row: &ToolRow, estimate: Option<f64>, ci: Option<[f64; 2]>) {
    match (estimate, ci) {
        (None, None) => {}
        (Some(estimate), Some([low, high])) => {
            assert!(
                0.0 <= low && low <= high && high <= 1.0,
                "{what} interval [{low}, {high}] of {} is not within [0, 1]",
                row.tool
            );
            // The Wilson interval always contains the observed proportion.
            assert!(
                low <= estimate && estimate <= high,
                "{what} {estimate} of {} is outside its interval [{low}, {high}]",
                row.tool
            );
        }
        _ => panic!(
            "{what} of {} and its interval are not both defined: {row:?}",
            row.tool
        ),
    }
}

fn check_selection(turns: &[LabelledTurn]) {
    let (report, selection) = selection_of(turns);
    let turn_count = turns.len() as u64;
    assert_eq!(selection.turns, turn_count, "every labelled turn is scored");
    let rows = &selection.per_tool;

    // Counts are conserved: each turn is one tp, or one fp plus one fn.
    let tp: u64 = rows.iter().map(|row| row.tp).sum();
    let fp: u64 = rows.iter().map(|row| row.fp).sum();
    let fn_: u64 = rows.iter().map(|row| row.fn_).sum();
    assert_eq!(tp + fn_, turn_count, "sum of tp + fn is the labelled turns");
    assert_eq!(tp + fp, turn_count, "sum of tp + fp is the labelled turns");
    assert_eq!(
        selection.tool_accuracy.count, tp,
        "correct turns are the tps"
    );
    assert_eq!(selection.tool_accuracy.total, turn_count);

    for row in rows {
        assert_eq!(row.support, row.tp + row.fn_, "support of {}", row.tool);
        assert!(row.tp + row.fp + row.fn_ > 0, "an empty row: {row:?}");
        assert_unit_or_null("precision", row, row.precision);
        assert_unit_or_null("recall", row, row.recall);
        assert_unit_or_null("f1", row, row.f1);
        assert_eq!(
            row.precision.is_none(),
            row.tp + row.fp == 0,
            "precision is null exactly when {} was never called",
            row.tool
        );
        assert_eq!(
            row.recall.is_none(),
            row.support == 0,
            "recall is null exactly when {} was never expected",
            row.tool
        );
        assert!(row.f1.is_some(), "f1 is defined on every row: {row:?}");
        assert_interval_holds("precision", row, row.precision, row.precision_ci);
        assert_interval_holds("recall", row, row.recall, row.recall_ci);
        assert_eq!(
            row.is_low_support,
            row.support < selection.min_support,
            "low support flag of {}",
            row.tool
        );
    }

    // The confusion matrix agrees with the rows.
    let confusion = &selection.confusion;
    let tools: Vec<&String> = rows.iter().map(|row| &row.tool).collect();
    assert_eq!(confusion.labels.iter().collect::<Vec<_>>(), tools);
    assert!(
        confusion
            .cells
            .windows(2)
            .all(|pair| (pair[0].expected, pair[0].actual) < (pair[1].expected, pair[1].actual)),
        "cells are stored once each, by row then column"
    );
    assert!(
        confusion.cells.iter().all(|cell| cell.count > 0),
        "no zero is stored"
    );
    let matrix = confusion.dense();
    let mut total = 0;
    for (index, (matrix_row, row)) in matrix.iter().zip(rows).enumerate() {
        assert_eq!(matrix_row.len(), rows.len(), "the matrix is square");
        let row_sum: u64 = matrix_row.iter().sum();
        let column_sum: u64 = matrix.iter().map(|r| r[index]).sum();
        assert_eq!(
            row_sum, row.support,
            "matrix row of {} sums to support",
            row.tool
        );
        assert_eq!(column_sum, row.tp + row.fp, "matrix column of {}", row.tool);
        assert_eq!(matrix_row[index], row.tp, "diagonal of {} is tp", row.tool);
        total += row_sum;
    }
    assert_eq!(total, turn_count, "the matrix total is the labelled turns");
    let confused: u64 = selection.confused_pairs.iter().map(|pair| pair.count).sum();
    assert_eq!(
        confused,
        turn_count - tp,
        "off-diagonal cells are the misses"
    );
    assert!(
        selection
            .confused_pairs
            .windows(2)
            .all(|pair| pair[0].count >= pair[1].count),
        "confused pairs are most frequent first"
    );

    // The seed's score: at most 0.5 + 0.3, at least 0.
    let mean_score = selection.mean_score.expect("turns were scored");
    assert!((0.0..=0.8).contains(&mean_score), "mean score {mean_score}");
    for outcome in &selection.outcomes {
        assert!(
            (0.0..=0.8).contains(&outcome.score),
            "score {}",
            outcome.score
        );
        if !outcome.is_correct {
            assert_eq!(outcome.score, 0.0, "the wrong tool scores 0: {outcome:?}");
        }
    }

    assert_json_round_trip(&report);
}

/// The report serialises and reads back equal. This is also the NaN check: serde_json writes a
/// NaN or infinite float as `null`, which reads back as None (or fails for a plain f64), and
/// NaN is not equal to itself, so a report holding one cannot round-trip. (Searching the text
/// for "NaN" would not do: diagnostics quote the input, which may say NaN.)
fn assert_json_round_trip(report: &Report) {
    let json = serde_json::to_string(report).expect("the report serialises");
    let back: Report = serde_json::from_str(&json)
        .unwrap_or_else(|error| panic!("the report reads back ({error}): {json}"));
    assert_eq!(&back, report, "the report round-trips through JSON");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn selection_counts_rates_matrix_and_intervals_hold(turns in labelled_turns(60)) {
        check_selection(&turns);
    }
}

/// Inputs shaped like what the readers look for, cut and jumbled: they reach deeper into the
/// readers than random bytes, which rarely even parse as JSON.
fn json_soup() -> impl Strategy<Value = Vec<u8>> {
    let tokens = prop::sample::select(vec![
        "{",
        "}",
        "[",
        "]",
        ",",
        ":",
        "\n",
        " ",
        "\r\n",
        "\"session_id\"",
        "\"events\"",
        "\"type\"",
        "\"user\"",
        "\"tool_use\"",
        "\"tool_result\"",
        "\"name\"",
        "\"args\"",
        "\"call_id\"",
        "\"status\"",
        "\"error\"",
        "\"expected_tool\"",
        "\"turn\"",
        "\"must_come_after\"",
        "\"input_schema\"",
        "\"tools\"",
        "\"user_input\"",
        "\"tool_calls\"",
        "\"{\\\"a\\\": 1}\"",
        "\"{\"",
        "NaN",
        "Infinity",
        "-Infinity",
        "-1",
        "0",
        "7",
        "1e400",
        "18446744073709551616",
        "null",
        "true",
        "false",
        "\"\\ud800\"",
        "\"x\"",
        "\"none\"",
        "\u{feff}",
        "//",
        "\"",
    ]);
    prop::collection::vec(tokens, 0..80).prop_map(|tokens| tokens.concat().into_bytes())
}

/// Any bytes at all: random, or soup.
fn any_input() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![prop::collection::vec(any::<u8>(), 0..512), json_soup(),]
}

fn check_diagnostics(report: &Report, inputs: &[InputFile<'_>]) {
    for diagnostic in &report.diagnostics {
        let input = inputs
            .iter()
            .find(|input| diagnostic.file.split(", ").any(|name| name == input.name))
            .unwrap_or_else(|| panic!("diagnostic names a file that was not given: {diagnostic}"));
        if let Some(line) = diagnostic.line {
            assert!(line >= 1, "line is 1-based: {diagnostic}");
            if input.bytes.is_ascii() {
                let lines = input.bytes.split(|&byte| byte == b'\n').count();
                assert!(line <= lines, "line {line} of {lines}: {diagnostic}");
            }
        } else {
            assert!(
                diagnostic.column.is_none(),
                "a column without a line: {diagnostic}"
            );
        }
        if let Some(column) = diagnostic.column {
            assert!(column >= 1, "column is 1-based: {diagnostic}");
        }
    }
    assert_json_round_trip(report);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn analyze_never_panics_on_any_bytes_in_any_role(
        bytes in any_input(),
        role in prop::sample::select(ROLES.to_vec()),
    ) {
        let inputs = [InputFile::new("input.json", &bytes, role)];
        let report = analyze(&inputs, &Options::default());
        check_diagnostics(&report, &inputs);
    }

    #[test]
    fn analyze_never_panics_on_any_bytes_in_all_roles_at_once(
        traces in any_input(),
        catalog in any_input(),
        rules in any_input(),
        labels in any_input(),
    ) {
        let inputs = [
            InputFile::new("traces.jsonl", &traces, Role::Traces),
            InputFile::new("tools.json", &catalog, Role::Catalog),
            InputFile::new("rules.json", &rules, Role::Rules),
            InputFile::new("labels.jsonl", &labels, Role::Labels),
        ];
        let report = analyze(&inputs, &Options::default());
        check_diagnostics(&report, &inputs);
    }

    /// Valid sessions and labels with bytes cut off or overwritten: the damage must be reported
    /// on a real line, and the rest still read.
    #[test]
    fn damaged_sessions_and_labels_are_diagnosed_on_real_lines(
        turns in labelled_turns(12),
        cut in any::<prop::sample::Index>(),
        overwrite in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        target_labels in any::<bool>(),
    ) {
        let (sessions, labels) = common::native_inputs(&turns);
        let (mut sessions, mut labels) = (sessions.into_bytes(), labels.into_bytes());
        let damaged = if target_labels { &mut labels } else { &mut sessions };
        damaged.truncate(cut.index(damaged.len() + 1));
        for (at, byte) in overwrite {
            if !damaged.is_empty() {
                let at = at.index(damaged.len());
                damaged[at] = byte;
            }
        }
        let inputs = [
            InputFile::new("sessions.jsonl", &sessions, Role::Traces),
            InputFile::new("labels.jsonl", &labels, Role::Labels),
        ];
        let report = analyze(&inputs, &Options::default());
        check_diagnostics(&report, &inputs);
        if let Some(selection) = &report.selection {
            let tp: u64 = selection.per_tool.iter().map(|row| row.tp).sum();
            let fp: u64 = selection.per_tool.iter().map(|row| row.fp).sum();
            prop_assert_eq!(tp + fp, selection.turns);
        }
    }
}
