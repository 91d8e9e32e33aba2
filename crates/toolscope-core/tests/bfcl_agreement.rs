//! Acceptable-value labels agree with BFCL's own AST checker on BFCL's own data.
//!
//! tests/reference/bfcl_ast.py takes every question of BFCL v4's simple (Python, Java and
//! JavaScript), multiple, parallel and parallel_multiple categories and of their live (user
//! contributed) counterparts from the `bfcl-eval` package,
//! builds model answers (the ground truth as a model would write it, and mutations: a wrong
//! value, an unexpected parameter, a missing parameter, an extra call, a missing call, a wrong
//! function, the calls reordered, an int for a float, a re-spelled string; for Java and
//! JavaScript, whose arguments are strings, also a value not written as one) and runs BFCL's
//! `ast_checker` on each.
//!
//! Here each case is written as BFCL lays a run out: a question file (the question and its
//! functions), a model result file (the answer, arguments as JSON strings as function-calling
//! models write them) and a possible-answer file, all read by the BFCL reader; the result
//! completes the question's session and [`toolscope_core::analyze`] scores the turn.
//! toolscope calls an answer valid when the first call's tool is expected, every expected call is
//! matched with acceptable arguments (exact mode) and no call is missing or extra.
//!
//! One difference is by design: BFCL pairs parallel calls first-fit (each expected call takes the
//! first unused call that fits), toolscope finds a full matching. Where one call fits two
//! expectations, first-fit can fail an answer that a matching accepts. Every disagreement must
//! be such a case (checked by running first-fit here); the counts are printed.

mod common;

use std::collections::BTreeMap;

use common::run_reference;
use serde_json::{json, Map, Value};
use toolscope_core::formats::bfcl::functions_as_schema;
use toolscope_core::metrics::acceptable::check_acceptable;
use toolscope_core::metrics::bfcl_literals::Language;
use toolscope_core::Role;

const CATEGORIES: [&str; 10] = [
    "simple_python",
    "simple_java",
    "simple_javascript",
    "multiple",
    "parallel",
    "parallel_multiple",
    "live_simple",
    "live_multiple",
    "live_parallel",
    "live_parallel_multiple",
];

struct Case {
    id: String,
    category: String,
    mutation: String,
    functions: Value,
    question: Value,
    tools: Value,
    ground_truth: Value,
    calls: Vec<(String, Value)>,
    /// The parameter the mutation changed, if it changed one.
    param: Option<String>,
    valid: bool,
}

fn cases() -> (String, Vec<Case>) {
    let answer = run_reference("bfcl_ast.py", &json!({ "categories": CATEGORIES }));
    let version = answer["version"].as_str().unwrap_or("?").to_string();
    let cases = answer["cases"]
        .as_array()
        .expect("the reference lists cases")
        .iter()
        .map(|case| Case {
            tools: functions_as_schema(
                &case["functions"],
                Language::of_id(case["category"].as_str().unwrap()),
            ),
            id: case["id"].as_str().unwrap().to_string(),
            category: case["category"].as_str().unwrap().to_string(),
            mutation: case["mutation"].as_str().unwrap().to_string(),
            functions: case["functions"].clone(),
            question: case["question"].clone(),
            ground_truth: case["ground_truth"].clone(),
            calls: case["calls"]
                .as_array()
                .unwrap()
                .iter()
                .map(|call| {
                    (
                        call["name"].as_str().unwrap().to_string(),
                        call["args"].clone(),
                    )
                })
                .collect(),
            param: case["param"].as_str().map(str::to_string),
            valid: case["valid"].as_bool().unwrap_or_else(|| {
                panic!(
                    "BFCL's checker stopped on {}: {}",
                    case["id"], case["error_type"]
                )
            }),
        })
        .collect();
    (version, cases)
}

/// A question file, a model result file and a possible-answer file, one line per case each.
fn inputs(cases: &[Case]) -> [String; 3] {
    let mut files: [String; 3] = Default::default();
    for case in cases {
        let result: Vec<Value> = case
            .calls
            .iter()
            .map(|(name, args)| json!({ name.as_str(): args.to_string() }))
            .collect();
        let lines = [
            json!({"id": case.id, "question": case.question, "function": case.functions}),
            json!({"id": case.id, "result": result, "latency": 0.5}),
            json!({"id": case.id, "ground_truth": case.ground_truth}),
        ];
        for (file, line) in files.iter_mut().zip(lines) {
            file.push_str(&line.to_string());
            file.push('\n');
        }
    }
    files
}

/// BFCL's pairing: each expected call takes the first unused call that fits.
fn first_fit_valid(case: &Case) -> bool {
    let expected = case.ground_truth.as_array().unwrap();
    if expected.len() != case.calls.len() {
        return false;
    }
    let schema_of = |name: &str| {
        case.tools
            .as_array()
            .unwrap()
            .iter()
            .find(|tool| tool["name"] == name)
            .map(|tool| tool["parameters"].clone())
    };
    let mut used = vec![false; case.calls.len()];
    expected.iter().all(|entry| {
        let (name, params): (&String, &Value) = entry.as_object().unwrap().iter().next().unwrap();
        let params: &Map<String, Value> = params.as_object().unwrap();
        let schema = schema_of(name);
        let found = case
            .calls
            .iter()
            .enumerate()
            .position(|(slot, (called, args))| {
                !used[slot]
                    && called == name
                    && check_acceptable(args, params, schema.as_ref(), false).is_ok()
            });
        found.map(|slot| used[slot] = true).is_some()
    })
}

#[test]
fn acceptable_args_agree_with_bfcl_ast_checker() {
    let (version, cases) = cases();
    assert!(cases.len() > 15_000, "only {} cases", cases.len());
    let [questions, results, answers] = inputs(&cases);
    let report = common::analyze_named(&[
        ("BFCL_v4_questions.json", questions.as_bytes(), Role::Traces),
        ("BFCL_v4_result.json", results.as_bytes(), Role::Traces),
        ("possible_answer.json", answers.as_bytes(), Role::Traces),
    ]);
    assert_eq!(
        report.sessions.len(),
        cases.len(),
        "each result completes its question"
    );
    let errors: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.severity == toolscope_core::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let selection = report.selection.expect("labels were read");
    let outcomes: BTreeMap<&str, _> = selection
        .outcomes
        .iter()
        .map(|outcome| (outcome.session_id.as_str(), outcome))
        .collect();
    assert_eq!(outcomes.len(), cases.len(), "every case is scored");

    // Questions whose ground truth BFCL accepts as written (a Java `Array` of strings is not:
    // BFCL's converter keeps the items' quotes); only their mutations have one thing wrong.
    let truth_valid: Vec<&str> = cases
        .iter()
        .filter(|case| case.mutation == "truth" && case.valid)
        .map(|case| case.id.trim_end_matches(".truth"))
        .collect();
    let mut table: BTreeMap<(&str, &str), [usize; 3]> = BTreeMap::new();
    let mut unexplained = Vec::new();
    let mut explained = 0;
    for case in &cases {
        let outcome = outcomes[case.id.as_str()];
        let ours = outcome.is_correct
            && outcome.args_exact == Some(true)
            && outcome.extra.is_empty()
            && outcome.missing.is_empty();
        // Wrong arguments are explained; with one expected call and an accepted ground truth,
        // the changed parameter is named (among parallel calls another pairing may be the one
        // explained).
        if outcome.is_correct && outcome.args_exact == Some(false) {
            let why = outcome.args_mismatch.as_deref().unwrap_or_default();
            let question = case
                .id
                .rsplit_once('.')
                .map_or("", |(question, _)| question);
            let is_single = case
                .ground_truth
                .as_array()
                .is_some_and(|calls| calls.len() == 1)
                && truth_valid.binary_search(&question).is_ok();
            let names_it = match (&case.param, case.mutation.as_str()) {
                (
                    Some(param),
                    "wrong_value" | "missing_param" | "unexpected_param" | "not_string",
                ) if is_single => why.contains(&format!("{param:?}")),
                _ => !why.is_empty(),
            };
            assert!(names_it, "{}: {why:?}", case.id);
            explained += 1;
        }
        let row = table
            .entry((case.category.as_str(), case.mutation.as_str()))
            .or_default();
        row[2] += 1;
        if ours == case.valid {
            row[0] += 1;
        } else if ours && !first_fit_valid(case) {
            row[1] += 1;
        } else {
            unexplained.push(format!(
                "{}: BFCL says {}, toolscope {}",
                case.id,
                if case.valid { "valid" } else { "invalid" },
                if ours { "valid" } else { "invalid" }
            ));
        }
    }
    println!("agreement with bfcl-eval {version} ast_checker (agree / first-fit only / cases):");
    let (mut agree, mut first_fit, mut total) = (0, 0, 0);
    for ((category, mutation), [a, f, t]) in &table {
        println!("  {category:<18} {mutation:<17} {a:>4} / {f:>2} / {t:>4}");
        agree += a;
        first_fit += f;
        total += t;
    }
    println!("  total: {agree} of {total} agree; {first_fit} differ only by first-fit pairing");
    println!("  {explained} wrong-argument verdicts, each with its reason");
    assert!(
        explained > 1000,
        "the mutations give wrong arguments to explain"
    );
    assert!(
        unexplained.is_empty(),
        "{} unexplained disagreements:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
}
