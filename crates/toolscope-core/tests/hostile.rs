//! Small inputs that used to cost minutes, hours or gigabytes (issue 9), one test per class.
//!
//! These are not timings: each runs the whole analysis in a thread and fails only if it has not
//! finished within [`DEADLINE`], generous for a debug build on a slow machine, where the code
//! before each fix took minutes at least. The speed itself is measured in benches/.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};
use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::{analyze, InputFile, Options, Report, Role, MAX_FILE_BYTES};

/// Long enough that only a blow-up misses it.
const DEADLINE: Duration = Duration::from_secs(60);

/// Runs `work` in a thread; panics when it has not finished by [`DEADLINE`].
fn finishes<T: Send + 'static>(what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (sender, receiver) = mpsc::channel();
    thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = sender.send(work());
        })
        .expect("a thread starts");
    receiver
        .recv_timeout(DEADLINE)
        .unwrap_or_else(|_| panic!("{what}: not finished within {DEADLINE:?}"))
}

/// Analyses `(name, role, content)` files with the default options.
fn analyze_files(files: Vec<(&'static str, Role, String)>) -> Report {
    let inputs: Vec<InputFile<'_>> = files
        .iter()
        .map(|(name, role, text)| InputFile::new(name, text.as_bytes(), *role))
        .collect();
    analyze(&inputs, &Options::default())
}

/// One native session: `calls` as (tool, arguments), each answered "ok".
fn session_line(session_id: &str, calls: &[(&str, Value)]) -> String {
    let mut events = vec![json!({"type": "user", "content": "go"})];
    for (index, (name, args)) in calls.iter().enumerate() {
        let call_id = format!("c{index}");
        events.push(json!({"type": "tool_use", "call_id": call_id, "name": name, "args": args}));
        events.push(
            json!({"type": "tool_result", "call_id": call_id, "status": "ok", "content": "ok"}),
        );
    }
    events.push(json!({"type": "assistant", "content": "done"}));
    json!({"session_id": session_id, "events": events}).to_string() + "\n"
}

#[test]
fn a_turn_of_identical_calls_one_expectation_short_is_scored_at_once() {
    // 30 identical calls against 30 expected calls of which the last fits none: trying every
    // pairing before saying no took 30! steps.
    let calls = vec![("search", json!({"q": "x"})); 30];
    let mut args_list = vec![json!({"q": "x"}); 29];
    args_list.push(json!({"q": "never"}));
    let label = json!({"session_id": "s", "turn": 0, "expected_tool": "search",
        "expected_tools": vec!["search"; 30], "expected_args_list": args_list});
    let report = finishes("matching", move || {
        analyze_files(vec![
            ("t.jsonl", Role::Traces, session_line("s", &calls)),
            ("l.jsonl", Role::Labels, label.to_string()),
        ])
    });
    let outcome = &report.selection.expect("labels").outcomes[0];
    assert_eq!(outcome.args_exact, Some(false));
    assert!(outcome.is_correct);
}

#[test]
fn a_long_session_under_a_same_argument_rule_is_checked_in_linear_time() {
    // 50,000 lookups, then 50,000 refunds of the same orders in reverse: each refund has its
    // lookup; scanning every earlier call for each refund was 2.5 billion comparisons.
    let count = 50_000;
    let mut calls: Vec<(&str, Value)> = (0..count)
        .map(|order| ("lookup_order", json!({"order_id": order})))
        .collect();
    calls.extend(
        (0..count)
            .rev()
            .map(|order| ("issue_refund", json!({"order_id": order as f64}))),
    );
    calls.push(("issue_refund", json!({"order_id": count})));
    let rules = json!({"must_come_after": {"issue_refund": [
        {"tool": "lookup_order", "same_args": ["order_id"]}]}});
    let report = finishes("ordering", move || {
        analyze_files(vec![
            ("t.jsonl", Role::Traces, session_line("s", &calls)),
            ("r.json", Role::Rules, rules.to_string()),
        ])
    });
    let steps: Vec<usize> = report.problems.iter().map(|problem| problem.step).collect();
    assert_eq!(
        steps,
        [2 * count + 1],
        "only the refund without a lookup breaks the rule"
    );
}

#[test]
fn did_you_mean_is_bounded_for_long_names_and_for_many_names() {
    // A 20,000-character unknown name against a 20,000-character tool was a 400-million-cell
    // distance table; 4,000 distinct near-miss names against 2,000 tools were 8 million full
    // distances.
    let long_tool = "x".repeat(20_000);
    let mut catalog: Vec<Value> = (0..2_000)
        .map(|index| json!({"name": format!("tool_{index:04}_lookup"), "input_schema": {"type": "object"}}))
        .collect();
    catalog.push(json!({"name": long_tool, "input_schema": {"type": "object"}}));
    let mut calls: Vec<(String, Value)> = (0..4_000)
        .map(|index| (format!("tool_{index:04}_lokup"), json!({})))
        .collect();
    calls.push((format!("{long_tool}y"), json!({})));
    let report = finishes("suggestions", move || {
        let calls: Vec<(&str, Value)> = calls
            .iter()
            .map(|(name, args)| (name.as_str(), args.clone()))
            .collect();
        analyze_files(vec![
            ("tools.json", Role::Catalog, json!(catalog).to_string()),
            ("t.jsonl", Role::Traces, session_line("s", &calls)),
        ])
    });
    let suggestion = |step: usize| {
        report
            .problems
            .iter()
            .find(|problem| problem.step == step)
            .and_then(|problem| problem.suggestion.clone())
    };
    assert_eq!(suggestion(1).as_deref(), Some("tool_0000_lookup"));
    assert_eq!(suggestion(4_001), None, "a 20,000-character name gets none");
    let suggested = report
        .problems
        .iter()
        .filter(|problem| problem.suggestion.is_some())
        .count();
    let warned = report
        .diagnostics
        .iter()
        .any(|diagnostic| diagnostic.message.contains("got no \"did you mean\""));
    // Either every near miss got its suggestion, or the report says how many did not.
    assert!(
        suggested == 4_000 || warned,
        "{suggested} suggestions, no warning"
    );
}

#[test]
fn a_file_over_the_size_limit_is_reported_and_the_others_are_read() {
    let sessions = session_line("s", &[("f", json!({}))]);
    let report = analyze(
        &[
            InputFile::too_large("huge.jsonl", MAX_FILE_BYTES + 5, Role::Traces),
            InputFile::new("small.jsonl", sessions.as_bytes(), Role::Traces),
        ],
        &Options::default(),
    );
    assert_eq!(report.summary.sessions, 1);
    let diagnostic = &report.diagnostics[0];
    assert_eq!(diagnostic.file, "huge.jsonl");
    assert_eq!(
        diagnostic.message,
        "toolscope reads files of up to 1073741824 bytes (1.0 GiB); this one is 1073741829 bytes \
         (1.0 GiB), so it was not read"
    );
}

/// A catalog of one tool, `lookup_order`, whose `order` argument has `order_schema` (with
/// `defs` as the schema's `$defs`), and one call of it with `order`.
fn one_call(defs: Value, order_schema: Value, order: Value) -> Report {
    let catalog = json!({"lookup_order": {"type": "object", "$defs": defs,
        "properties": {"order": order_schema}}});
    let calls = [("lookup_order", json!({ "order": order }))];
    finishes("schema check", move || {
        analyze_files(vec![
            ("tools.json", Role::Catalog, catalog.to_string()),
            ("t.jsonl", Role::Traces, session_line("s", &calls)),
        ])
    })
}

/// (kind, message) of each problem.
fn problem_lines(report: &Report) -> Vec<(ProblemKind, String)> {
    (report.problems.iter())
        .map(|problem| (problem.kind, problem.message.clone()))
        .collect()
}

#[test]
fn references_that_double_at_each_level_are_undecidable_not_a_hang() {
    // 30 `$defs`, each an `anyOf` of two references to the next: deciding one number took 9 s,
    // and listing why it fails ran out of memory.
    let mut defs = serde_json::Map::new();
    for level in 0..30 {
        let next = json!({"$ref": format!("#/$defs/l{}", level + 1)});
        defs.insert(format!("l{level}"), json!({"anyOf": [next.clone(), next]}));
    }
    defs.insert("l30".into(), json!({"type": "string"}));
    let report = one_call(
        Value::Object(defs),
        json!({"$ref": "#/$defs/l0"}),
        json!(1.5),
    );
    assert_eq!(
        problem_lines(&report),
        [(
            ProblemKind::SchemaUndecidable,
            "lookup_order: could not decide the schema for / (its references expand to more \
             than 1,000,000 checks for these arguments)"
                .to_string()
        )]
    );
    assert_eq!(report.summary.undecidable_calls, 1);
    assert_eq!(report.summary.problems, 0, "undecidable is not a failure");
}

#[test]
fn a_recursive_schema_that_doubles_at_each_level_of_the_arguments_is_undecidable() {
    // Each level of `{"c": {"c": ...}}` is checked twice over: listing the errors of 20 levels
    // took 10 s, of 40 it ran out of memory.
    let defs = json!({"node": {"type": "object", "required": ["id"], "properties": {
        "c": {"anyOf": [{"$ref": "#/$defs/node"}, {"$ref": "#/$defs/node"}]}}}});
    let order = (0..40).fold(json!({}), |inner, _| json!({ "c": inner }));
    let report = one_call(defs, json!({"$ref": "#/$defs/node"}), order);
    let kinds: Vec<ProblemKind> = report.problems.iter().map(|problem| problem.kind).collect();
    assert_eq!(kinds, [ProblemKind::SchemaUndecidable]);
}

#[test]
fn schemas_that_loop_at_one_value_are_undecidable_not_out_of_memory() {
    // Six `$defs`, each `allOf` all six and a string: jsonschema cuts the loop only after
    // going round it several times, and listing why [1] fails ran out of memory.
    let refs: Vec<Value> = (0..6)
        .map(|index| json!({"$ref": format!("#/$defs/a{index}")}))
        .chain([json!({"type": "string"})])
        .collect();
    let defs: serde_json::Map<String, Value> = (0..6)
        .map(|index| (format!("a{index}"), json!({ "allOf": refs })))
        .collect();
    let report = one_call(
        Value::Object(defs),
        json!({"$ref": "#/$defs/a0"}),
        json!([1]),
    );
    assert_eq!(
        problem_lines(&report),
        [(
            ProblemKind::SchemaUndecidable,
            "lookup_order: could not decide the schema for /order (it refers back to itself \
             there without descending into the arguments, which JSON Schema leaves undefined)"
                .to_string()
        )]
    );
}
