//! Merging reports of parts of a dataset gives the report of the whole.
//!
//! Generated traces (toolscope-gen: three agents, every kind of problem, tool errors, labels)
//! with trials, task labels, a judge's and a human's verdicts added are split k ways by
//! session; each part is analysed on its own, and [`merge_reports`] of the parts' reports must
//! equal the report of the parts' data read as one file: every count, rate, interval, F1,
//! confusion cell, pass^k, κ and ordering, with only `inputs` (which list the part files) and
//! each session's `origin` (the part file and line it was read from) left out. Against the
//! generated file in its own order the numbers are the same too; only rows that tie may be
//! ordered otherwise.

use proptest::prelude::*;
use serde_json::Value;
use toolscope_core::merge::{merge_reports, MergeError};
use toolscope_core::{analyze, InputFile, Options, Report, Role};
use toolscope_gen::{generate, Config, Dataset, Size};

/// One session's line of `sessions.jsonl`, the lines of `labels.jsonl` about it, and a judge's
/// and a human's verdicts on its calls.
struct SessionData {
    session: String,
    labels: Vec<String>,
    verdicts: Vec<String>,
    human_verdicts: Vec<String>,
}

/// A judge's verdicts on some sessions' calls (two judges, unscored ones among them) and a
/// human's on some of the same calls and some others, so that every count of the calibration
/// is merged.
fn verdicts_of(index: usize, session: &Value) -> (Vec<String>, Vec<String>) {
    let calls: Vec<&str> = session["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter(|event| event["type"] == "tool_use")
        .map(|event| event["name"].as_str().unwrap_or(""))
        .collect();
    let (mut judge, mut human) = (Vec::new(), Vec::new());
    for (call, tool) in calls.iter().enumerate() {
        let step = call + 1;
        for criterion in ["right_tool", "args_grounded"] {
            if index % 3 != 1 {
                let (verdict, cause) = match (index * 31 + step * 7 + criterion.len()) % 5 {
                    0..=2 => ("pass", None),
                    3 => ("fail", None),
                    _ => ("unscored", Some("parse_error")),
                };
                let mut line = serde_json::json!({
                    "session_id": session["session_id"], "step": step, "tool": tool,
                    "criterion": criterion, "verdict": verdict, "reason": "generated",
                    "model": if index.is_multiple_of(7) { "judge-b" } else { "judge-a" },
                    "template": {"id": "tool-call-v1", "sha256": "00"}, "prompt_sha256": "11",
                });
                if let Some(cause) = cause {
                    line["cause"] = cause.into();
                }
                judge.push(line.to_string());
            }
            if index.is_multiple_of(2) && !(step + criterion.len()).is_multiple_of(3) {
                let verdict = if (index + step * 3).is_multiple_of(4) {
                    "fail"
                } else {
                    "pass"
                };
                let line = serde_json::json!({
                    "session_id": session["session_id"], "step": step,
                    "criterion": criterion, "verdict": verdict,
                });
                human.push(line.to_string());
            }
        }
    }
    (judge, human)
}

/// Generated sessions, each with its labels; some are scored trials of a task and some have a
/// task label, so that trials and task actions are merged too.
fn dataset(seed: u64, sessions: u64) -> (Dataset, Vec<SessionData>) {
    let data = generate(&Config {
        seed,
        size: Size::Sessions(sessions),
        ..Config::default()
    });
    let labels: Vec<Value> = lines(&data.labels)
        .map(|line| serde_json::from_str(line).expect("generated labels are JSON"))
        .collect();
    let sessions = lines(&data.sessions)
        .enumerate()
        .map(|(index, line)| {
            let mut session: Value = serde_json::from_str(line).expect("generated JSON");
            let session_id = session["session_id"].clone();
            if index % 4 != 3 {
                session["task_id"] = format!("task-{}", index % 5).into();
                session["trial"] = (index / 5).into();
                session["reward"] = [1.0, 1.0, 0.0, 0.3][(index * 7 + index / 5) % 4].into();
            }
            let mut labels: Vec<String> = labels
                .iter()
                .filter(|label| label["session_id"] == session_id)
                .map(Value::to_string)
                .collect();
            if index % 3 == 0 {
                let task = serde_json::json!({
                    "session_id": session_id,
                    "expected_actions": [{"name": "lookup_order", "arguments": {}}],
                });
                labels.push(task.to_string());
            }
            let (verdicts, human_verdicts) = verdicts_of(index, &session);
            SessionData {
                session: session.to_string(),
                labels,
                verdicts,
                human_verdicts,
            }
        })
        .collect();
    (data, sessions)
}

fn lines(bytes: &[u8]) -> impl Iterator<Item = &str> {
    std::str::from_utf8(bytes)
        .expect("generated UTF-8")
        .lines()
        .filter(|line| !line.is_empty())
}

/// The report of `sessions` (with their labels), read as files named after `name`, with the
/// generated catalog and rules.
fn report_of(data: &Dataset, name: &str, sessions: &[&SessionData]) -> Report {
    let traces: String = sessions
        .iter()
        .map(|s| format!("{}\n", s.session))
        .collect();
    let labels: String = sessions
        .iter()
        .flat_map(|s| &s.labels)
        .map(|label| format!("{label}\n"))
        .collect();
    let lines_of = |of: &dyn Fn(&SessionData) -> &Vec<String>| -> String {
        sessions
            .iter()
            .flat_map(|s| of(s))
            .map(|line| format!("{line}\n"))
            .collect()
    };
    let verdicts = lines_of(&|s| &s.verdicts);
    let human_verdicts = lines_of(&|s| &s.human_verdicts);
    let traces_name = format!("{name}.jsonl");
    let labels_name = format!("{name}-labels.jsonl");
    let verdicts_name = format!("{name}-verdicts.jsonl");
    let human_name = format!("{name}-human.jsonl");
    let mut inputs = vec![
        InputFile::new("tools.json", data.tools.as_bytes(), Role::Catalog),
        InputFile::new("rules.json", data.rules.as_bytes(), Role::Rules),
        InputFile::new(&traces_name, traces.as_bytes(), Role::Traces),
    ];
    // As a user would: a part whose sessions have no labels (or verdicts) gets no such file.
    for (file, text, role) in [
        (&labels_name, &labels, Role::Labels),
        (&verdicts_name, &verdicts, Role::Verdicts),
        (&human_name, &human_verdicts, Role::HumanVerdicts),
    ] {
        if !text.is_empty() {
            inputs.push(InputFile::new(file, text.as_bytes(), role));
        }
    }
    analyze(&inputs, &Options::default())
}

/// The report as JSON without what names the files it was read from.
fn without_file_names(report: &Report) -> Value {
    let mut value = serde_json::to_value(report).expect("reports serialise");
    value.as_object_mut().expect("an object").remove("inputs");
    for session in value["sessions"].as_array_mut().expect("sessions") {
        session.as_object_mut().expect("a row").remove("origin");
    }
    value
}

/// Splits the sessions into `k` parts as `assignment` says (each part gets at least one).
fn split<'d>(
    sessions: &'d [SessionData],
    k: usize,
    assignment: &[usize],
) -> Vec<Vec<&'d SessionData>> {
    let mut parts: Vec<Vec<&SessionData>> = vec![Vec::new(); k];
    for (index, session) in sessions.iter().enumerate() {
        let part = if index < k {
            index
        } else {
            assignment[index % assignment.len()] % k
        };
        parts[part].push(session);
    }
    parts
}

fn merged_report(data: &Dataset, parts: &[Vec<&SessionData>]) -> Report {
    let reports: Vec<Report> = parts
        .iter()
        .enumerate()
        .map(|(index, part)| report_of(data, &format!("part-{}", index + 1), part))
        .collect();
    merge_reports(&reports).expect("disjoint parts merge")
}

/// What does not depend on the order of the data: every number and the rows as sets.
fn order_free(report: &Report) -> Value {
    let mut value = without_file_names(report);
    for (section, key) in [("sessions", "session_id"), ("problems", "session_id")] {
        let rows = value[section].as_array_mut().expect("rows");
        rows.sort_by_key(|row| (row[key].to_string(), row.to_string()));
    }
    let outcomes = value["selection"]["outcomes"]
        .as_array_mut()
        .expect("outcomes");
    outcomes.sort_by_key(Value::to_string);
    let outcomes = value["tasks"]["outcomes"]
        .as_array_mut()
        .expect("task outcomes");
    outcomes.sort_by_key(Value::to_string);
    let judge = &mut value["judge"];
    for row in judge["calibration"]["criteria"]
        .as_array_mut()
        .expect("criteria")
    {
        sort_list(&mut row["disagreements"]);
    }
    for row in judge["code_vs_judge"]["criteria"]
        .as_array_mut()
        .expect("rows")
    {
        sort_list(&mut row["problem_but_judge_passed"]);
        sort_list(&mut row["clean_but_judge_failed"]);
    }
    sort_list(&mut judge["verdicts"]);
    // A finding's examples are its first ten in report order, which ties can change; its counts,
    // evidence and rank cannot.
    for finding in value["findings"].as_array_mut().expect("findings") {
        finding
            .as_object_mut()
            .expect("a finding")
            .remove("examples");
    }
    value
}

fn sort_list(list: &mut Value) {
    list.as_array_mut()
        .expect("a list")
        .sort_by_key(Value::to_string);
}

/// Where two JSON values first differ (a JSON pointer and both sides), for a readable failure.
fn first_difference(left: &Value, right: &Value, at: &str) -> Option<String> {
    match (left, right) {
        (Value::Object(a), Value::Object(b)) => a.keys().chain(b.keys()).find_map(|key| {
            let (x, y) = (
                a.get(key).unwrap_or(&Value::Null),
                b.get(key).unwrap_or(&Value::Null),
            );
            first_difference(x, y, &format!("{at}/{key}"))
        }),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(index, (x, y))| first_difference(x, y, &format!("{at}/{index}"))),
        _ if left == right => None,
        _ => Some(format!("{at}: {left} != {right}")),
    }
}

fn assert_same(merged: &Value, whole: &Value) -> Result<(), TestCaseError> {
    match first_difference(merged, whole, "") {
        None => Ok(()),
        Some(difference) => Err(TestCaseError::fail(format!(
            "merged != whole at {difference}"
        ))),
    }
}

/// The data exercises every section merged (checked on the fixed data set of
/// [`consecutive_parts_merge_into_the_report_of_the_file`]; a small random one may lack some).
fn assert_data_is_rich(whole: &Report) {
    assert!(whole.diagnostics.is_empty(), "{:?}", whole.diagnostics);
    assert!(
        whole.summary.by_kind.len() >= 4,
        "{:?}",
        whole.summary.by_kind
    );
    assert!(whole.summary.tool_errors.errors > 0);
    assert!(whole.selection.as_ref().is_some_and(|s| s.turns > 0));
    assert!(whole.tasks.is_some());
    assert!(whole.trials.as_ref().is_some_and(|t| t.tasks > 1));
    let judge = whole.judge.as_ref().expect("verdicts give a judge section");
    let calibration = judge
        .calibration
        .as_ref()
        .expect("human verdicts calibrate");
    assert!(calibration.criteria.iter().all(|row| row.paired > 0
        && row.judge_unscored > 0
        && row.human_without_judge > 0
        && row.judge_without_human > 0
        && !row.disagreements.is_empty()));
    assert!(!calibration.warnings.is_empty(), "two judges");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn merged_parts_equal_the_report_of_their_data_read_whole(
        seed in 0u64..1_000,
        sessions in 20u64..80,
        k in 2usize..=5,
        assignment in prop::collection::vec(0usize..5, 1..40),
    ) {
        let (data, all) = dataset(seed, sessions);
        let parts = split(&all, k, &assignment);
        let merged = merged_report(&data, &parts);

        let in_part_order: Vec<&SessionData> = parts.iter().flatten().copied().collect();
        let whole = report_of(&data, "whole", &in_part_order);
        prop_assert!(whole.diagnostics.is_empty(), "{:?}", whole.diagnostics);
        assert_same(&without_file_names(&merged), &without_file_names(&whole))?;

        let as_generated = report_of(&data, "sessions", &all.iter().collect::<Vec<_>>());
        assert_same(&order_free(&merged), &order_free(&as_generated))?;
    }
}

#[test]
fn consecutive_parts_merge_into_the_report_of_the_file() {
    let (data, all) = dataset(2025, 300);
    let whole = report_of(&data, "sessions", &all.iter().collect::<Vec<_>>());
    assert_data_is_rich(&whole);
    let parts: Vec<Vec<&SessionData>> = all.chunks(70).map(|c| c.iter().collect()).collect();
    let merged = merged_report(&data, &parts);
    assert_eq!(without_file_names(&merged), without_file_names(&whole));
    assert!(merged.inputs.len() > 3 * parts.len());
    assert_eq!(merged.sessions.len(), 300);
}

#[test]
fn a_session_in_two_parts_is_an_error_naming_it() {
    let (data, all) = dataset(7, 10);
    let first = report_of(&data, "a", &all[..6].iter().collect::<Vec<_>>());
    let second = report_of(&data, "b", &all[5..].iter().collect::<Vec<_>>());
    let error = merge_reports(&[first, second]).unwrap_err();
    let MergeError::SessionInTwoParts {
        session_id,
        first,
        part,
    } = &error
    else {
        panic!("{error:?}");
    };
    assert_eq!((*first, *part), (0, 1));
    assert!(all[5]
        .session
        .contains(&format!("\"session_id\":{session_id:?}")));
    assert!(error.to_string().contains(session_id.as_str()));
}

#[test]
fn parts_made_with_another_min_support_or_version_are_refused() {
    let (data, all) = dataset(7, 10);
    let first = report_of(&data, "a", &all[..5].iter().collect::<Vec<_>>());
    let mut second = report_of(&data, "b", &all[5..].iter().collect::<Vec<_>>());
    second.selection.as_mut().expect("labels").min_support += 1;
    let error = merge_reports(&[first.clone(), second.clone()]).unwrap_err();
    assert!(
        matches!(
            error,
            MergeError::Option {
                part: 1,
                option: "min_support",
                ..
            }
        ),
        "{error:?}"
    );

    // Arguments compared another way (--args-match subset): refused too, and said so.
    let mut subset = report_of(&data, "b", &all[5..].iter().collect::<Vec<_>>());
    subset.selection.as_mut().expect("labels").args_mode =
        toolscope_core::metrics::args_match::ArgsMode::Subset;
    let error = merge_reports(&[first.clone(), subset]).unwrap_err();
    assert!(
        matches!(
            error,
            MergeError::Option {
                part: 1,
                option: "args_mode (--args-match)",
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("subset"), "{error}");

    second.toolscope_version = "0.0.1".into();
    let error = merge_reports(&[first, second]).unwrap_err();
    assert!(
        matches!(error, MergeError::Version { part: 1, .. }),
        "{error:?}"
    );
    assert_eq!(merge_reports(&[]), Err(MergeError::NoParts));
}
