//! The generated data is reproducible, and realistic enough that the default demo set shows
//! every problem toolscope checks for and every kind of selection error.

use std::collections::BTreeSet;

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::{analyze, InputFile, Options, Report, Role};
use toolscope_gen::{generate, Config, Dataset, Shape, Size};

fn analyze_dataset(data: &Dataset, rules: &str) -> Report {
    analyze(
        &[
            InputFile::new("tools.json", data.tools.as_bytes(), Role::Catalog),
            InputFile::new("rules.json", rules.as_bytes(), Role::Rules),
            InputFile::new("sessions.jsonl", &data.sessions, Role::Traces),
            InputFile::new("labels.jsonl", &data.labels, Role::Labels),
        ],
        &Options::default(),
    )
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let config = Config {
        seed: 42,
        size: Size::Sessions(150),
        ..Config::default()
    };
    let first = generate(&config);
    let second = generate(&config);
    assert_eq!(first.sessions, second.sessions);
    assert_eq!(first.labels, second.labels);
    assert_eq!(first.tools, second.tools);
    let other = generate(&Config { seed: 43, ..config });
    assert_ne!(first.sessions, other.sessions);
}

#[test]
fn the_call_dense_shape_is_short_sessions_short_texts_and_mostly_labelled() {
    let data = generate(&Config {
        size: Size::Sessions(400),
        shape: Shape::CallDense,
        ..Config::default()
    });
    let realistic = generate(&Config {
        size: Size::Sessions(400),
        ..Config::default()
    });
    let mut labelled = BTreeSet::new();
    for line in std::str::from_utf8(&data.labels).unwrap().lines() {
        let label: serde_json::Value = serde_json::from_str(line).unwrap();
        labelled.insert(label["session_id"].as_str().unwrap().to_string());
    }
    for line in std::str::from_utf8(&data.sessions).unwrap().lines() {
        let session: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(session.get("tools").is_none(), "no tool definitions");
        let events = session["events"].as_array().unwrap();
        let users = events.iter().filter(|e| e["type"] == "user").count();
        assert!((1..=3).contains(&users), "{users} turns");
        for event in events {
            if event["type"] == "tool_result" || event["type"] == "assistant" {
                let text = event["content"].as_str().unwrap();
                assert!(text.chars().count() <= 40, "{text:?}");
            }
        }
    }
    // 90 % of sessions labelled (binomial: 400 draws stay well inside 80-98 %).
    assert!((320..=392).contains(&labelled.len()), "{}", labelled.len());
    // Per byte, several times the calls and labels of the realistic shape.
    let per_mb = |d: &Dataset| d.stats.labels as f64 / d.sessions.len() as f64 * 1e6;
    assert!(per_mb(&data) > 3.0 * per_mb(&realistic));
    let report = analyze_dataset(&data, &data.rules);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert!(report.summary.problems > 0);
}

#[test]
fn the_default_demo_shows_every_problem_kind() {
    let data = generate(&Config::default());
    let report = analyze_dataset(&data, &data.rules);
    assert!(
        report.diagnostics.is_empty(),
        "generated input should read cleanly: {:?}",
        report.diagnostics
    );
    assert_eq!(report.summary.sessions, data.stats.sessions);
    // An undecidable pattern is the checker's limit, not a mistake an agent makes.
    for kind in ProblemKind::ALL
        .into_iter()
        .filter(|kind| *kind != ProblemKind::SchemaUndecidable)
    {
        let count = report.summary.by_kind.get(&kind).map_or(0, |c| c.problems);
        assert!(count >= 2, "{} problems of kind {}", count, kind.as_str());
    }
    let errors = report.summary.tool_errors;
    assert!(errors.agent > 0 && errors.environment > 0 && errors.unattributed > 0);
    assert!(
        !report.drift.is_empty(),
        "some sessions carry drifted tools"
    );
}

#[test]
fn bound_rules_catch_refunds_of_another_order_that_plain_rules_miss() {
    let data = generate(&Config::default());
    let order_problems = |rules: &str| {
        analyze_dataset(&data, rules)
            .summary
            .by_kind
            .get(&ProblemKind::Order)
            .map_or(0, |c| c.problems)
    };
    assert!(order_problems(&data.rules) > order_problems(&data.plain_rules));
}

#[test]
fn the_default_demo_shows_every_kind_of_selection_error() {
    let data = generate(&Config::default());
    let report = analyze_dataset(&data, &data.rules);
    let selection = report.selection.expect("labels were given");
    assert!(selection.turns > 200);
    let accuracy = selection.tool_accuracy.rate.expect("turns were scored");
    assert!((0.6..0.97).contains(&accuracy), "tool accuracy {accuracy}");
    let none = selection
        .per_tool
        .iter()
        .find(|row| row.tool == "none")
        .expect("some turns need no tool");
    assert!(none.fp > 0, "a needed tool was skipped");
    assert!(none.fn_ > 0, "a tool was called where none was needed");
    let confused: BTreeSet<(&str, &str)> = selection
        .confused_pairs
        .iter()
        .map(|pair| (pair.expected.as_str(), pair.actual.as_str()))
        .collect();
    assert!(confused.contains(&("lookup_order", "search_docs")));
    assert!(selection.extra_calls > 0 && selection.missing_calls > 0);
    assert!(selection.should_not_call_violations.count > 0);
    assert!(selection.args_accuracy_exact.count < selection.args_accuracy_subset.count);
    assert!(selection.task_success.count < selection.task_success.total);
    let agents: BTreeSet<&str> = selection
        .outcomes
        .iter()
        .filter_map(|outcome| outcome.agent_id.as_deref())
        .collect();
    assert_eq!(agents.len(), 3);
}

#[test]
fn session_lengths_have_a_long_tail() {
    let data = generate(&Config::default());
    let report = analyze_dataset(&data, &data.rules);
    let mut calls: Vec<u64> = report.sessions.iter().map(|s| s.calls).collect();
    calls.sort_unstable();
    let median = calls[calls.len() / 2];
    assert!(median <= 4, "median {median} calls");
    assert!(calls.last().is_some_and(|&most| most >= 50));
}

#[test]
fn the_page_demo_files_are_the_generators_default_output() {
    // public/demo/ is committed so the static site needs no build step to have its demo; it must
    // stay what `toolscope-gen --out-dir public/demo` writes (then delete rules-plain.json).
    let data = generate(&Config::default());
    let demo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../public/demo");
    let read = |name: &str| {
        std::fs::read(demo.join(name)).unwrap_or_else(|error| panic!("public/demo/{name}: {error}"))
    };
    let stale = "public/demo is stale: run `cargo run -p toolscope-gen -- --out-dir public/demo` \
                 and delete public/demo/rules-plain.json";
    assert!(read("tools.json") == data.tools.as_bytes(), "{stale}");
    assert!(read("rules.json") == data.rules.as_bytes(), "{stale}");
    assert!(read("sessions.jsonl") == data.sessions, "{stale}");
    assert!(read("labels.jsonl") == data.labels, "{stale}");
}
