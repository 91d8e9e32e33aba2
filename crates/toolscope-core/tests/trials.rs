//! pass^k and pass@k agree with τ-bench's own `display_metrics` (tests/reference/tau_pass_k.py,
//! its code unchanged) on τ-bench's own result file, and on runs where every task has the same
//! number of trials toolscope's per-task pass^k is τ-bench's exactly.

mod common;

use common::run_reference;
use serde_json::{json, Value};
use toolscope_core::metrics::trials::{PassK, Trials};
use toolscope_core::{analyze, InputFile, Options, Role};

const SUBSET: &str = include_str!("fixtures/trials/gpt-4o-airline.subset12.json");

fn trials_of(text: &str) -> Trials {
    let report = analyze(
        &[InputFile::new("runs.json", text.as_bytes(), Role::Traces)],
        &Options::default(),
    );
    report.trials.expect("the runs have rewards")
}

fn runs(text: &str) -> Vec<Value> {
    let all: Vec<Value> = serde_json::from_str(text).unwrap();
    all.iter()
        .map(|run| json!({"task_id": run["task_id"], "trial": run["trial"], "reward": run["reward"]}))
        .collect()
}

fn agree(ours: &[PassK], theirs: &Value, what: &str) {
    let theirs = theirs.as_object().unwrap();
    assert_eq!(ours.len(), theirs.len(), "{what}: k = 1 to the same n");
    for pass in ours {
        let want = theirs[&pass.k.to_string()].as_f64().unwrap();
        assert!(
            (pass.value - want).abs() < 1e-12,
            "{what} k={}: toolscope {}, τ-bench {want}",
            pass.k,
            pass.value
        );
    }
}

#[test]
fn tau_benchs_figures_on_its_own_result_file() {
    let trials = trials_of(SUBSET);
    let reference = run_reference("tau_pass_k.py", &json!({"runs": runs(SUBSET)}));
    assert_eq!((trials.tasks, trials.trials, trials.successes), (11, 12, 6));
    assert!((trials.average_reward - reference["avg_reward"].as_f64().unwrap()).abs() < 1e-15);
    agree(
        &trials.tau_bench_pass_hat_k,
        &reference["pass_hat_ks"],
        "τ-bench's pass^k",
    );
    agree(&trials.pass_at_k, &reference["pass_at_ks"], "pass@k");
    // Task 0 ran twice, the others once: τ-bench divides every task by C(2, k), toolscope by
    // each task's own; so they differ, and toolscope says the runs are not uniform.
    assert!(!trials.is_uniform);
    // Six of the eleven tasks succeeded in their one trial; task 0 failed both of its two.
    assert!((trials.pass_hat_k[0].value - 6.0 / 11.0).abs() < 1e-15);
    assert_eq!(trials.pass_hat_k[1].tasks, 1, "only task 0 has two trials");
}

#[test]
fn with_the_same_trials_per_task_toolscope_and_tau_bench_agree() {
    // Three trials of each of four tasks, built from the real runs with their rewards reassigned.
    let all: Vec<Value> = serde_json::from_str(SUBSET).unwrap();
    let rewards = [1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0];
    let uniform: Vec<Value> = all
        .iter()
        .zip(rewards)
        .enumerate()
        .map(|(index, (run, reward))| {
            let mut run = run.clone();
            run["task_id"] = json!(100 + index / 3);
            run["trial"] = json!(index % 3);
            run["reward"] = json!(reward);
            run
        })
        .collect();
    let text = serde_json::to_string(&uniform).unwrap();
    let trials = trials_of(&text);
    let reference = run_reference("tau_pass_k.py", &json!({"runs": runs(&text)}));
    assert!(trials.is_uniform);
    agree(&trials.pass_hat_k, &reference["pass_hat_ks"], "pass^k");
    agree(
        &trials.tau_bench_pass_hat_k,
        &reference["pass_hat_ks"],
        "τ-bench's pass^k",
    );
    agree(&trials.pass_at_k, &reference["pass_at_ks"], "pass@k");
    // By hand: successes per task 3, 1, 1, 0 of 3 → pass^3 = (1 + 0 + 0 + 0) / 4.
    assert_eq!(trials.pass_hat_k[2].value, 0.25);
}

#[test]
fn a_gate_reads_pass_hat_k_as_a_mean_over_tasks() {
    use toolscope_core::gate::config::parse_config;
    use toolscope_core::gate::{evaluate, Status};
    let all: Vec<Value> = serde_json::from_str(SUBSET).unwrap();
    let uniform: Vec<Value> = all
        .iter()
        .enumerate()
        .map(|(index, run)| {
            let mut run = run.clone();
            run["task_id"] = json!(index / 3);
            run["trial"] = json!(index % 3);
            run["reward"] = json!(if index % 4 == 0 { 0.0 } else { 1.0 });
            run
        })
        .collect();
    let text = serde_json::to_string(&uniform).unwrap();
    let report = analyze(
        &[InputFile::new("runs.json", text.as_bytes(), Role::Traces)],
        &Options::default(),
    );
    let config =
        parse_config("rules = [\"tasks.pass_hat_k.3 >= 0.5\", \"tasks.pass_at_k.1 >= 0.5\"]")
            .unwrap();
    let result = evaluate(&config, &report, None);
    let expected = report.trials.as_ref().unwrap().pass_hat_k[2].value;
    assert_eq!(result.checks[0].value.unwrap().value, Some(expected));
    assert_eq!(
        result.checks[0].status,
        if expected >= 0.5 {
            Status::Pass
        } else {
            Status::Fail
        }
    );
    assert!(
        result.checks[0].message.contains("(mean over 4 tasks)"),
        "{}",
        result.checks[0].message
    );
    assert_eq!(result.checks[1].status, Status::Pass);
}
