//! BFCL's own generation recorded offline (tests/fixtures/recorders/bfcl/record.py): three
//! models' result files, read with the questions and possible answers of the entries they
//! answered, score each answer as `bfcl evaluate` scored the same files.
//!
//! BFCL's verdicts below are its score files of that recording (`score/<model>/…_score.json`
//! list the entries it failed, with their `error_type`); every other entry passed.

mod common;

use std::collections::BTreeMap;

use toolscope_core::{Report, Role};

const BFCL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/formats/bfcl");
const QUESTIONS: &str = "BFCL_v4_recorded.questions.json";
const ANSWERS: &str = "possible_answer.BFCL_v4_recorded.json";

fn run(results: &str) -> Report {
    let contents: Vec<(&str, Vec<u8>)> = [QUESTIONS, results, ANSWERS]
        .iter()
        .map(|name| (*name, std::fs::read(format!("{BFCL}/{name}")).unwrap()))
        .collect();
    let named: Vec<(&str, &[u8], Role)> = contents
        .iter()
        .map(|(name, bytes)| (*name, bytes.as_slice(), Role::Traces))
        .collect();
    common::analyze_named(&named)
}

/// The single-turn entries each model answered, and whether BFCL passed them (its failures'
/// `error_type` in the comment).
const PROMPTING: [(&str, bool); 16] = [
    ("simple_python_0", true),
    ("simple_python_1", true),
    ("simple_python_2", false), // value_error:others
    ("multiple_0", true),
    ("multiple_1", false), // ast_decoder:decoder_failed (the API failed)
    ("multiple_2", false), // simple_function_checker:wrong_func_name
    ("parallel_0", true),
    ("parallel_1", false), // parallel_function_checker_no_order:wrong_count
    ("parallel_multiple_0", true),
    ("parallel_multiple_1", false), // ast_decoder:decoder_failed (a cut call)
    ("parallel_multiple_2", false), // ast_decoder:decoder_failed (text)
    ("irrelevance_0", true),
    ("irrelevance_1", false), // irrelevance_error:decoder_success
    ("simple_java_0", true),
    ("simple_javascript_0", true),
    ("simple_javascript_1", false), // ast_decoder:decoder_failed (text)
];

/// BFCL's verdicts of a function-calling model: as the prompting model's, but
/// `simple_javascript_0` sent a JSON `true` where BFCL declares a string (type_error:js).
fn function_calling() -> Vec<(&'static str, bool)> {
    PROMPTING
        .iter()
        .map(|&(id, valid)| (id, valid && id != "simple_javascript_0"))
        .collect()
}

/// toolscope's verdict of each entry: BFCL's "valid" is a right first tool, every expected call
/// matched with acceptable arguments, none missing or extra (tests/bfcl_agreement.rs); an
/// irrelevance entry is valid when it made no call.
fn verdicts(report: &Report) -> BTreeMap<String, bool> {
    let selection = report.selection.as_ref().expect("the answers label turns");
    selection
        .outcomes
        .iter()
        // The multi-turn entry's answer is in its own result file.
        .filter(|outcome| !outcome.session_id.starts_with("multi_turn"))
        .map(|outcome| {
            let valid = if outcome.session_id.starts_with("irrelevance") {
                outcome.is_correct
            } else {
                outcome.is_correct
                    && outcome.args_exact == Some(true)
                    && outcome.extra.is_empty()
                    && outcome.missing.is_empty()
            };
            (outcome.session_id.clone(), valid)
        })
        .collect()
}

fn assert_agrees(results: &str, bfcl: &[(&str, bool)]) {
    let report = run(results);
    let ours = verdicts(&report);
    let theirs: BTreeMap<String, bool> = bfcl
        .iter()
        .map(|&(id, valid)| (id.to_string(), valid))
        .collect();
    assert_eq!(ours, theirs, "{results}");
    // Every answer completes its question: one session per question, none left apart.
    let ids: Vec<&str> = report
        .sessions
        .iter()
        .map(|session| session.session_id.as_str())
        .collect();
    assert_eq!(ids.len(), 17, "{results}: {ids:?}");
    assert!(!ids.iter().any(|id| id.contains('#')), "{ids:?}");
}

#[test]
fn a_recorded_prompting_model_scores_as_bfcl_scored_it() {
    assert_agrees("result.gpt-4.1-2025-04-14.non_live.json", &PROMPTING);
}

#[test]
fn a_recorded_function_calling_model_scores_as_bfcl_scored_it() {
    assert_agrees(
        "result.gpt-4.1-2025-04-14-FC.non_live.json",
        &function_calling(),
    );
    assert_agrees(
        "result.gpt-5-mini-2025-08-07-FC.non_live.json",
        &function_calling(),
    );
}

#[test]
fn a_recorded_multi_turn_result_is_left_out_with_a_warning_that_counts_its_calls() {
    for (results, calls) in [
        (
            "result.gpt-4.1-2025-04-14-FC.BFCL_v4_multi_turn_base_result.json",
            4,
        ),
        (
            "result.gpt-4.1-2025-04-14.BFCL_v4_multi_turn_base_result.json",
            4,
        ),
    ] {
        let report = run(results);
        let warnings: Vec<&str> = report
            .diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.file == results)
            .map(|diagnostic| diagnostic.message.as_str())
            .collect();
        assert_eq!(
            warnings,
            [format!(
                "multi_turn_base_1: a multi-turn result (4 turns, {calls} calls); BFCL checks \
                 those by running the calls, toolscope does not read them; left out (its \
                 question's turns read without calls)"
            )],
            "{results}"
        );
        // Nothing else of the run is lost: the question keeps its four user turns.
        let question = report
            .sessions
            .iter()
            .find(|session| session.session_id == "multi_turn_base_1")
            .unwrap();
        assert_eq!((question.turns, question.calls), (4, 0), "{results}");
    }
}
