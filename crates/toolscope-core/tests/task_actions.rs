//! Task labels end to end: the actions a task expects, checked in whole sessions as τ²-bench's
//! `ActionEvaluator` checks them, from real τ-bench runs, a τ²-bench results file and a real
//! τ²-bench `tasks.json` given as labels.

mod common;

use serde_json::json;
use toolscope_core::metrics::task_actions::TaskOutcome;
use toolscope_core::{detect_role, Report, Role};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

fn read(path: &str) -> Vec<u8> {
    std::fs::read(format!("{FIXTURES}/{path}")).unwrap()
}

fn run(inputs: &[(&str, &[u8], Role)]) -> Report {
    common::analyze_named(inputs)
}

/// A session and, for each expected action, the step of the call that matched it.
type Matched<'a> = (&'a str, Vec<(&'a str, Option<usize>)>);

/// Each outcome as (session, [(action, step matched at)]).
fn matched(outcomes: &[TaskOutcome]) -> Vec<Matched<'_>> {
    outcomes
        .iter()
        .map(|outcome| {
            let checks = outcome
                .actions
                .iter()
                .map(|check| (check.name.as_str(), check.step))
                .collect();
            (outcome.session_id.as_str(), checks)
        })
        .collect()
}

#[test]
fn tau_bench_runs_are_checked_for_their_tasks_actions() {
    // Steps read off the trajectories: task 6 (reward 1) made its one write at step 6; task 32
    // (reward 0) made the three lookups and never booked; task 0 (reward 0) never booked.
    let bytes = read("formats/tau_bench/gpt-4o-airline.subset3.json");
    let report = run(&[("runs.json", &bytes, Role::Traces)]);
    let tasks = report.tasks.expect("the runs carry their tasks' actions");
    assert_eq!(
        matched(&tasks.outcomes),
        vec![
            ("task_0.trial_0", vec![("book_reservation", None)]),
            (
                "task_6.trial_0",
                vec![("update_reservation_flights", Some(6))]
            ),
            (
                "task_32.trial_0",
                vec![
                    ("get_user_details", Some(1)),
                    ("get_reservation_details", Some(2)),
                    ("search_direct_flight", Some(3)),
                    ("book_reservation", None),
                ]
            ),
        ]
    );
    assert_eq!((tasks.actions.count, tasks.actions.total), (4, 6));
    let complete = tasks.sessions_all_matched;
    assert_eq!((complete.count, complete.total), (1, 3));
    assert_eq!(report.inputs[0].counts["task labels"], 3);
}

#[test]
fn tau2_results_label_their_simulations_and_leave_out_the_users_actions() {
    let bytes = read("formats/tau_bench/tau2_results.json");
    let report = run(&[("results.json", &bytes, Role::Traces)]);
    let tasks = report.tasks.unwrap();
    // get_customer_by_phone compares phone_number (matched at step 1); enable_roaming was
    // never called; the user's toggle_airplane_mode is not scored.
    assert_eq!(
        matched(&tasks.outcomes),
        vec![(
            "sim-1",
            vec![("get_customer_by_phone", Some(1)), ("enable_roaming", None)]
        )]
    );
    assert_eq!(tasks.outcomes[0].task_id.as_deref(), Some("t1"));
    assert_eq!(tasks.outcomes[0].user_actions, 1);
    let notes: Vec<&str> = report
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        notes
            .iter()
            .any(|m| m.contains("1 action of the user simulator in 1 task not scored")),
        "{notes:?}"
    );
}

/// A native session of `task` that calls `calls` (name, args), one turn.
fn session(id: &str, task: Option<&str>, calls: &[(&str, serde_json::Value)]) -> String {
    let mut events = vec![json!({"type": "user", "content": "help"})];
    for (index, (name, args)) in calls.iter().enumerate() {
        events.push(
            json!({"type": "tool_use", "call_id": format!("c{index}"), "name": name, "args": args}),
        );
        events.push(json!({"type": "tool_result", "call_id": format!("c{index}"), "status": "ok", "content": "done"}));
    }
    json!({"session_id": id, "task_id": task, "events": events}).to_string() + "\n"
}

#[test]
fn a_tau2_tasks_file_labels_every_trial_of_its_tasks() {
    let tasks_file = read("labels/tau2_mock_tasks.json");
    let (role, reason) = detect_role(&tasks_file);
    assert_eq!(role, Role::Labels, "{reason}");
    let traces = [
        // Two trials of one task: the title differs in the second, so its action fails.
        session(
            "a",
            Some("create_task_1"),
            &[(
                "create_task",
                json!({"user_id": "user_1", "title": "Important Meeting"}),
            )],
        ),
        session(
            "b",
            Some("create_task_1"),
            &[(
                "create_task",
                json!({"user_id": "user_1", "title": "Meeting"}),
            )],
        ),
        // compare_args [] : any transfer matches, whatever its summary.
        session(
            "c",
            Some("impossible_task_1"),
            &[(
                "transfer_to_human_agents",
                json!({"summary": "cannot delete"}),
            )],
        ),
        // No task: not labelled.
        session("d", None, &[]),
    ]
    .concat();
    let report = run(&[
        ("sessions.jsonl", traces.as_bytes(), Role::Traces),
        ("tasks.json", &tasks_file, Role::Labels),
    ]);
    let tasks = report.tasks.unwrap();
    assert_eq!(
        matched(&tasks.outcomes),
        vec![
            ("a", vec![("create_task", Some(1))]),
            ("b", vec![("create_task", None)]),
            ("c", vec![("transfer_to_human_agents", Some(1))]),
        ]
    );
    assert_eq!(report.inputs[1].counts["task labels"], 10);
    let unrun = report
        .diagnostics
        .iter()
        .find(|d| d.message.contains("without a session"))
        .expect("the tasks nobody ran are named");
    assert!(
        unrun.message.starts_with("8 tasks without a session"),
        "{}",
        unrun.message
    );
    assert!(unrun.message.contains("and 3 more"), "{}", unrun.message);
}

#[test]
fn filters_narrow_task_actions_to_a_tool_and_an_agent() {
    use toolscope_core::{Analysis, Filter, InputFile, Options};
    let bytes = read("formats/tau_bench/gpt-4o-airline.subset3.json");
    let inputs = [InputFile::new("runs.json", &bytes, Role::Traces)];
    let analysis = Analysis::new(&inputs, &Options::default(), &mut |_| {});
    let whole = analysis.report().tasks.clone().unwrap();
    assert_eq!(whole.outcomes.len(), 3);
    let booking = Filter {
        tool: Some("book_reservation".into()),
        ..Filter::default()
    };
    let tasks = analysis.filtered(&booking).tasks.unwrap();
    assert_eq!(
        matched(&tasks.outcomes),
        vec![
            ("task_0.trial_0", vec![("book_reservation", None)]),
            ("task_32.trial_0", vec![("book_reservation", None)]),
        ]
    );
    assert_eq!((tasks.actions.count, tasks.actions.total), (0, 2));
    // The runs name no agent: an agent filter keeps none of them.
    let agent = Filter {
        agent: Some("gpt-4o".into()),
        ..Filter::default()
    };
    assert!(analysis.filtered(&agent).tasks.unwrap().outcomes.is_empty());
}
