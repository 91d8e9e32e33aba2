//! A BFCL run as the leaderboard leaves it: the question file, a model's result file and the
//! possible answers, read together, score each answer as BFCL would.

mod common;

use toolscope_core::{Report, Role};

const BFCL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/formats/bfcl");

fn read(name: &str) -> Vec<u8> {
    std::fs::read(format!("{BFCL}/{name}")).unwrap()
}

fn run(files: &[&str]) -> Report {
    let contents: Vec<(&str, Vec<u8>)> = files.iter().map(|name| (*name, read(name))).collect();
    let named: Vec<(&str, &[u8], Role)> = contents
        .iter()
        .map(|(name, bytes)| (*name, bytes.as_slice(), Role::Traces))
        .collect();
    common::analyze_named(&named)
}

const QUESTIONS: &str = "BFCL_v4_simple_python.head3.json";
const RESULTS: &str = "BFCL_v4_simple_python_result.sample.json";
const ANSWERS: &str = "possible_answer.BFCL_v4_simple_python.head3.json";

#[test]
fn results_complete_their_questions_and_are_scored_against_the_answers() {
    // In either order: a result completes the question of its id.
    for files in [[QUESTIONS, RESULTS, ANSWERS], [RESULTS, ANSWERS, QUESTIONS]] {
        let report = run(&files);
        let ids: Vec<&str> = report
            .sessions
            .iter()
            .map(|s| s.session_id.as_str())
            .collect();
        assert_eq!(
            ids.len(),
            4,
            "three questions answered and one lone result: {ids:?}"
        );
        assert!(
            !ids.iter().any(|id| id.contains('#')),
            "no id repeats: {ids:?}"
        );
        let selection = report.selection.expect("the answers label the questions");
        let verdicts: Vec<(&str, Option<bool>)> = selection
            .outcomes
            .iter()
            .map(|o| (o.session_id.as_str(), o.args_exact))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("simple_python_0", Some(true)),
                ("simple_python_1", Some(true)),
                ("simple_python_2", Some(false)),
            ]
        );
        let wrong = &selection.outcomes[2];
        assert_eq!(
            wrong.args_mismatch.as_deref(),
            Some("math.hypot: call 1: \"y\": 6 is not an acceptable value")
        );
        // The question's user turn and the result's call are one turn of one session.
        let joined = report
            .sessions
            .iter()
            .find(|s| s.session_id == "simple_python_2")
            .unwrap();
        assert_eq!((joined.turns, joined.calls), (1, 1));
    }
}

#[test]
fn a_text_reply_is_no_call() {
    let report = run(&[RESULTS]);
    let lone = report
        .sessions
        .iter()
        .find(|s| s.session_id == "simple_python_3")
        .unwrap();
    assert_eq!(lone.calls, 0);
    assert_eq!(report.inputs[0].format.map(|f| f.name()), Some("bfcl"));
}
