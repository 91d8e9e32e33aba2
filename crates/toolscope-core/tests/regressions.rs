//! One test per bug found by the property tests and the fuzz targets, named for the bug, with
//! the exact input that shows it. Each stays as a guard once its bug is fixed.
//!
//! The fuzz targets (fuzz/) found no crash so far; their reproducers would go here too.

mod common;

use common::{analyze_turns, ExpectedSpec, LabelledTurn};
use toolscope_core::metrics::wilson::wilson_95;

fn turns(expected: &str, called: &str, count: usize) -> Vec<LabelledTurn> {
    vec![
        LabelledTurn {
            session: 0,
            expected: ExpectedSpec::One(expected.to_string()),
            called: vec![called.to_string()],
        };
        count
    ]
}

/// Found by properties.rs: at 0 successes the Wilson interval's low end comes out as 5.55e-17,
/// and at all successes its high end as 0.9999999999999999, so the interval leaves out the very
/// proportion it is for (precision 0 or 1), and the report shows those numbers. Rounding in
/// `center ± half`; clamping each end to the estimate (`low.min(p)`, `high.max(p)`) fixes it.
#[test]
fn wilson_interval_contains_precision_0_and_1() {
    for (successes, trials) in [(0, 2), (0, 5), (5, 5), (9, 9)] {
        let [low, high] = wilson_95(successes, trials).expect("trials > 0");
        let estimate = successes as f64 / trials as f64;
        assert!(
            low <= estimate && estimate <= high,
            "wilson_95({successes}, {trials}) = [{low}, {high}] leaves out {estimate}"
        );
    }
    // Through the report: five right calls of one tool, two wrong calls of another.
    let mut labelled = turns("lookup_order", "lookup_order", 5);
    labelled.extend(turns("none", "search_docs", 2));
    let selection = analyze_turns(&labelled)
        .selection
        .expect("labels give a selection");
    for row in &selection.per_tool {
        if let (Some(precision), Some([low, high])) = (row.precision, row.precision_ci) {
            assert!(
                low <= precision && precision <= high,
                "{}: precision {precision} outside [{low}, {high}]",
                row.tool
            );
        }
    }
}

/// Found by properties.rs: the mean of per-turn scores is a float sum divided by the count, so
/// three perfect turns (0.8 each) give a mean of 0.8000000000000002, above the score's maximum,
/// and the report shows it. Scores are multiples of 0.1: summing them in tenths (or clamping the
/// mean to 0.8) fixes it.
#[test]
fn mean_score_of_perfect_turns_is_at_most_the_maximum() {
    let selection = analyze_turns(&turns("lookup_order", "lookup_order", 3))
        .selection
        .expect("labels give a selection");
    assert!(selection
        .outcomes
        .iter()
        .all(|outcome| outcome.score == 0.8));
    let mean_score = selection.mean_score.expect("turns were scored");
    assert!(mean_score <= 0.8, "mean score {mean_score}");
}

/// Found reading other people's reports: a count above its total (a hand-edited or hostile
/// report) made the Wilson interval panic (`clamp` with its minimum above its maximum).
#[test]
fn wilson_interval_of_more_successes_than_trials_is_none_not_a_panic() {
    assert_eq!(wilson_95(7, 5), None);
    assert_eq!(wilson_95(u64::MAX, 1), None);
}

/// Found by the hostile-report probe: a baseline report given to the analysis (the page's
/// compare view, a file of role `baseline`) was parsed and used without the check `diff` makes,
/// so a baseline claiming 2^64−1 calls in a session became a loop bound when compared. It is now
/// read by the one reader of reports and refused, naming the field, like `diff`'s.
#[test]
fn an_impossible_baseline_is_refused_by_the_analysis_naming_the_field() {
    use toolscope_core::{Analysis, InputFile, Options, Role};
    let traces = br#"{"session_id": "a", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "name": "f", "args": {}}]}"#;
    let report = toolscope_core::analyze(
        &[InputFile::new("s.jsonl", traces, Role::Traces)],
        &Options::default(),
    );
    let mut value = serde_json::to_value(&report).unwrap();
    value["sessions"][0]["calls"] = serde_json::Value::from(u64::MAX);
    value["summary"]["calls"] = serde_json::Value::from(u64::MAX);
    let bytes = serde_json::to_vec(&value).unwrap();
    let analysis = Analysis::new(
        &[
            InputFile::new("s.jsonl", traces, Role::Traces),
            InputFile::new("base.json", &bytes, Role::Baseline),
        ],
        &Options::default(),
        &mut |_| {},
    );
    assert!(analysis.baseline().is_none());
    let error = analysis
        .report()
        .diagnostics
        .iter()
        .map(ToString::to_string)
        .find(|text| text.starts_with("base.json"))
        .expect("the baseline is named");
    assert!(
        error.contains("error: an impossible report: summary.calls"),
        "{error}"
    );
}
