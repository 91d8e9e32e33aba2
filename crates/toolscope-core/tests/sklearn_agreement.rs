//! Per-tool selection numbers agree with scikit-learn's
//! `precision_recall_fscore_support(y_true, y_pred, labels=<tools>, zero_division=np.nan)`.
//!
//! Each case is a set of labelled turns, turned into native session JSON Lines and labels JSON
//! Lines and run through [`toolscope_core::analyze`]; every per-tool row is compared with
//! scikit-learn (tests/reference/sklearn_prf.py, one Python process for all cases).
//!
//! The mapping to scikit-learn's two label vectors, per labelled turn:
//! - `y_pred` is the turn's first call's tool, or "none" when it called nothing;
//! - `y_true` is the label's tool; for an acceptable set it is the actual tool when the set
//!   accepts it, else the set's first member (toolscope's `counted_as`).
//!
//! What is compared: tp, fp, fn (scikit-learn's own `multilabel_confusion_matrix`), support,
//! precision and recall (null where scikit-learn gives nan), and f1 within 1e-12. scikit-learn's
//! F-score with `zero_division=np.nan` is `2 tp / (true_sum + pred_sum)` = `2 tp / (2 tp + fp + fn)`,
//! nan only when the tool was neither expected nor called, which never makes a row; so it is
//! defined (possibly 0) even where precision or recall is nan, exactly as toolscope's f1.

mod common;

use std::collections::BTreeSet;

use common::{analyze_turns, run_reference, same_number, ExpectedSpec, LabelledTurn};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use serde_json::{json, Value};
use toolscope_core::metrics::selection::ToolRow;

/// Random cases on top of the hand-written edge cases.
const RANDOM_CASES: usize = 400;

fn one(tool: &str) -> ExpectedSpec {
    ExpectedSpec::One(tool.to_string())
}

fn any_of(tools: &[&str]) -> ExpectedSpec {
    ExpectedSpec::AnyOf(tools.iter().map(|tool| tool.to_string()).collect())
}

fn turn(expected: ExpectedSpec, called: &[&str]) -> LabelledTurn {
    LabelledTurn {
        session: 0,
        expected,
        called: called.iter().map(|tool| tool.to_string()).collect(),
    }
}

/// The edge cases named in the brief, and the ones acceptable sets add.
fn edge_cases() -> Vec<(&'static str, Vec<LabelledTurn>)> {
    vec![
        (
            "a tool never predicted (precision undefined)",
            vec![
                turn(one("lookup_order"), &["search_docs"]),
                turn(one("search_docs"), &["search_docs"]),
            ],
        ),
        (
            "a tool never expected (recall undefined)",
            vec![turn(one("none"), &["search_docs"]), turn(one("none"), &[])],
        ),
        ("all none", vec![turn(one("none"), &[]); 5]),
        (
            "single class",
            vec![turn(one("lookup_order"), &["lookup_order"]); 3],
        ),
        (
            "single turn, wrong",
            vec![turn(one("issue_refund"), &["lookup_order"])],
        ),
        (
            "everything wrong",
            vec![
                turn(one("a"), &["b"]),
                turn(one("b"), &["c"]),
                turn(one("c"), &[]),
                turn(one("none"), &["a"]),
            ],
        ),
        (
            "an acceptable set satisfied by its second member",
            vec![
                turn(any_of(&["lookup_order", "search_docs"]), &["search_docs"]),
                turn(one("lookup_order"), &["lookup_order"]),
            ],
        ),
        (
            "an acceptable set missed counts under its first member",
            vec![
                turn(any_of(&["search_docs", "lookup_order"]), &["issue_refund"]),
                turn(any_of(&["search_docs", "lookup_order"]), &[]),
            ],
        ),
        (
            "an acceptable set that includes none",
            vec![
                turn(any_of(&["none", "search_docs"]), &[]),
                turn(any_of(&["search_docs", "none"]), &[]),
                turn(any_of(&["none", "search_docs"]), &["lookup_order"]),
            ],
        ),
        (
            "only the first call of a turn counts",
            vec![
                turn(one("lookup_order"), &["search_docs", "lookup_order"]),
                turn(
                    one("search_docs"),
                    &["search_docs", "search_docs", "issue_refund"],
                ),
            ],
        ),
        (
            "the seed's six pairs",
            vec![
                turn(one("lookup_order"), &["lookup_order"]),
                turn(one("lookup_order"), &["search_docs"]),
                turn(one("none"), &["search_docs"]),
                turn(one("search_docs"), &["search_docs"]),
                turn(one("none"), &[]),
                turn(one("issue_refund"), &["issue_refund"]),
            ],
        ),
    ]
}

fn random_cases() -> Vec<(String, Vec<LabelledTurn>)> {
    // A fixed seed: the same cases on every run, so a disagreement reproduces.
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = common::labelled_turns(40);
    (0..RANDOM_CASES)
        .map(|index| {
            let turns = strategy
                .new_tree(&mut runner)
                .expect("the strategy generates")
                .current();
            (format!("random case {index}"), turns)
        })
        .collect()
}

/// scikit-learn's `(y_true, y_pred)` for the turns, by the mapping in the module comment.
fn sklearn_vectors(turns: &[LabelledTurn]) -> (Vec<String>, Vec<String>) {
    turns
        .iter()
        .map(|turn| {
            let actual = turn.actual().to_string();
            let expected = match &turn.expected {
                ExpectedSpec::One(tool) => tool.clone(),
                ExpectedSpec::AnyOf(set) if set.contains(&actual) => actual.clone(),
                ExpectedSpec::AnyOf(set) => set[0].clone(),
            };
            (expected, actual)
        })
        .unzip()
}

fn check_row(case: &str, ours: &ToolRow, theirs: &Value) -> Result<(), String> {
    let count = |key: &str| {
        theirs[key]
            .as_u64()
            .unwrap_or_else(|| panic!("{case}: sklearn's {key:?} is not a count: {theirs}"))
    };
    let number = |key: &str| theirs[key].as_f64();
    let mismatch = |what: &str| {
        Err(format!(
            "{case}: tool {:?}: {what} differs\n  toolscope: {ours:?}\n  sklearn:   {theirs}",
            ours.tool
        ))
    };
    if theirs["label"] != ours.tool.as_str() {
        return mismatch("the label");
    }
    if (ours.tp, ours.fp, ours.fn_) != (count("tp"), count("fp"), count("fn")) {
        return mismatch("tp/fp/fn");
    }
    if ours.support != count("support") {
        return mismatch("support");
    }
    // Precision and recall are exact ratios of the same integers: they must be equal, and null
    // exactly where scikit-learn has nan.
    if !same_number(ours.precision, number("precision"), 0.0) {
        return mismatch("precision");
    }
    if !same_number(ours.recall, number("recall"), 0.0) {
        return mismatch("recall");
    }
    if !same_number(ours.f1, number("f1"), 1e-12) {
        return mismatch("f1");
    }
    Ok(())
}

#[test]
fn per_tool_precision_recall_f1_and_support_agree_with_scikit_learn() {
    let cases: Vec<(String, Vec<LabelledTurn>)> = edge_cases()
        .into_iter()
        .map(|(name, turns)| (name.to_string(), turns))
        .chain(random_cases())
        .collect();

    let mut requests = Vec::new();
    let mut reports = Vec::new();
    for (name, turns) in &cases {
        let report = analyze_turns(turns);
        assert!(
            report.diagnostics.is_empty(),
            "{name}: the generated input reads cleanly: {:?}",
            report.diagnostics
        );
        let selection = report
            .selection
            .unwrap_or_else(|| panic!("{name}: labels give a selection"));
        assert_eq!(
            selection.turns,
            turns.len() as u64,
            "{name}: every turn scored"
        );

        let (y_true, y_pred) = sklearn_vectors(turns);
        let expected_tools: BTreeSet<&String> = y_true.iter().chain(&y_pred).collect();
        let our_tools: Vec<&String> = selection.per_tool.iter().map(|row| &row.tool).collect();
        assert_eq!(
            our_tools,
            expected_tools.into_iter().collect::<Vec<_>>(),
            "{name}: one row per tool expected or called, sorted"
        );
        requests.push(json!({"y_true": y_true, "y_pred": y_pred, "labels": our_tools}));
        reports.push(selection.per_tool);
    }

    let answer = run_reference("sklearn_prf.py", &json!({"cases": requests}));
    let answered = answer["cases"].as_array().expect("one answer per case");
    assert_eq!(answered.len(), cases.len());

    let mut failures = Vec::new();
    let mut rows_compared = 0;
    for (((name, _), rows), theirs) in cases.iter().zip(&reports).zip(answered) {
        let their_rows = theirs["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), their_rows.len(), "{name}: as many rows");
        for (ours, theirs) in rows.iter().zip(their_rows) {
            rows_compared += 1;
            if let Err(failure) = check_row(name, ours, theirs) {
                failures.push(failure);
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {rows_compared} rows disagree with scikit-learn {}:\n{}",
        failures.len(),
        answer["sklearn"],
        failures.join("\n")
    );
    println!(
        "{} cases ({rows_compared} per-tool rows) agree with scikit-learn {}",
        cases.len(),
        answer["sklearn"]
    );
}

/// The mapping this test relies on, checked against toolscope's own `counted_as`: if the engine
/// changed how acceptable sets are counted, the agreement above would compare the wrong thing.
#[test]
fn sklearn_y_true_is_the_turns_counted_as_tool() {
    for (name, turns) in edge_cases() {
        let report = analyze_turns(&turns);
        let selection = report.selection.expect("labels give a selection");
        let (y_true, y_pred) = sklearn_vectors(&turns);
        let counted: Vec<&str> = selection
            .outcomes
            .iter()
            .map(|outcome| outcome.counted_as.as_str())
            .collect();
        let actual: Vec<&str> = selection
            .outcomes
            .iter()
            .map(|outcome| outcome.actual_tool.as_str())
            .collect();
        // Outcomes follow label order, which native_inputs writes in turn order.
        assert_eq!(counted, y_true, "{name}");
        assert_eq!(actual, y_pred, "{name}");
    }
}
