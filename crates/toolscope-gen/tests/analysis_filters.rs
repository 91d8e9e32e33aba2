//! The kept [`Analysis`] that the page's worker holds: its whole report is `analyze()`'s, its
//! filtered reports partition the whole by the same definitions, and its progress reports are
//! ordered and bounded. Run on the generated demo set, which has several agents and every kind
//! of problem.

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::{
    analyze, detect_role, Analysis, Filter, InputFile, Options, Progress, Role, Stage,
};
use toolscope_gen::{generate, Config, Dataset};

fn inputs(data: &Dataset) -> Vec<InputFile<'_>> {
    vec![
        InputFile::new("labels.jsonl", &data.labels, Role::Labels),
        InputFile::new("sessions.jsonl", &data.sessions, Role::Traces),
        InputFile::new("rules.json", data.rules.as_bytes(), Role::Rules),
        InputFile::new("tools.json", data.tools.as_bytes(), Role::Catalog),
    ]
}

#[test]
fn the_kept_analysis_reports_exactly_what_analyze_does_in_any_file_order() {
    let data = generate(&Config::default());
    let given = inputs(&data);
    let mut reversed = given.clone();
    reversed.reverse();
    let analysis = Analysis::new(&given, &Options::default(), &mut |_| {});
    assert_eq!(analysis.report(), &analyze(&given, &Options::default()));
    assert_eq!(analysis.report(), &analyze(&reversed, &Options::default()));
    assert_eq!(analysis.filtered(&Filter::default()), *analysis.report());
}

#[test]
fn agent_filters_partition_sessions_calls_problems_and_labelled_turns() {
    let data = generate(&Config::default());
    let analysis = Analysis::new(&inputs(&data), &Options::default(), &mut |_| {});
    let whole = analysis.report();
    let agents = analysis.agents();
    assert!(agents.len() >= 2, "the demo has several agents: {agents:?}");
    let (mut sessions, mut calls, mut problems, mut turns) = (0, 0, 0, 0);
    for agent in agents {
        let part = analysis.filtered(&Filter {
            agent: Some(agent.to_string()),
            ..Filter::default()
        });
        assert!(part
            .sessions
            .iter()
            .all(|row| row.agent_id.as_deref() == Some(agent)));
        sessions += part.summary.sessions;
        calls += part.summary.calls;
        problems += part.summary.problems;
        turns += part.selection.as_ref().map_or(0, |s| s.turns);
    }
    let unattributed = whole
        .sessions
        .iter()
        .filter(|s| s.agent_id.is_none())
        .count() as u64;
    assert_eq!(unattributed, 0, "every demo session has an agent");
    assert_eq!(sessions, whole.summary.sessions);
    assert_eq!(calls, whole.summary.calls);
    assert_eq!(problems, whole.summary.problems);
    assert_eq!(turns, whole.selection.as_ref().unwrap().turns);
}

#[test]
fn kind_filter_keeps_every_call_but_only_that_kinds_problems() {
    let data = generate(&Config::default());
    let analysis = Analysis::new(&inputs(&data), &Options::default(), &mut |_| {});
    let whole = analysis.report();
    for kind in [
        ProblemKind::Schema,
        ProblemKind::UnknownTool,
        ProblemKind::Order,
    ] {
        let part = analysis.filtered(&Filter {
            kind: Some(kind),
            ..Filter::default()
        });
        assert!(part.problems.iter().all(|p| p.kind == kind));
        assert_eq!(
            part.problems.len() as u64,
            whole.summary.by_kind[&kind].problems
        );
        assert_eq!(part.summary.calls, whole.summary.calls);
        assert_eq!(
            part.summary.calls_with_problems.count,
            whole.summary.by_kind[&kind].calls
        );
    }
}

#[test]
fn tool_filter_narrows_calls_problems_and_turns_to_that_tool() {
    let data = generate(&Config::default());
    let analysis = Analysis::new(&inputs(&data), &Options::default(), &mut |_| {});
    let whole = analysis.report();
    let usage = whole
        .tools
        .iter()
        .find(|usage| usage.tool == "issue_refund")
        .expect("the demo calls issue_refund");
    let part = analysis.filtered(&Filter {
        tool: Some("issue_refund".into()),
        ..Filter::default()
    });
    assert_eq!(part.summary.calls, usage.calls);
    assert_eq!(part.summary.problems, usage.problems);
    assert_eq!(
        part.summary.calls_with_problems.count,
        usage.calls_with_problems
    );
    assert_eq!(part.tools, vec![usage.clone()]);
    assert!(part.problems.iter().all(|p| p.tool == "issue_refund"));
    let selection = part.selection.expect("labels were given");
    assert!(selection.turns > 0);
    assert!(selection
        .outcomes
        .iter()
        .all(|o| o.actual_tool == "issue_refund"
            || o.counted_as == "issue_refund"
            || o.expected_tool.accepts("issue_refund")));
}

#[test]
fn sessions_are_kept_for_drilling_down_under_their_report_ids() {
    let data = generate(&Config::default());
    let analysis = Analysis::new(&inputs(&data), &Options::default(), &mut |_| {});
    for row in &analysis.report().sessions {
        let session = analysis
            .session(&row.session_id)
            .expect("every reported session");
        assert_eq!(session.calls().count() as u64, row.calls);
    }
    assert!(analysis.session("no such session").is_none());
}

#[test]
fn progress_runs_through_the_stages_in_order_within_bounds() {
    let data = generate(&Config::default());
    let given = inputs(&data);
    let mut seen: Vec<Progress> = Vec::new();
    Analysis::new(&given, &Options::default(), &mut |p| seen.push(p));
    let total_bytes: u64 = given.iter().map(|i| i.bytes.len() as u64).sum();
    assert!(seen.iter().all(|p| p.done <= p.total));
    let stages: Vec<Stage> = seen.iter().map(|p| p.stage).collect();
    let mut sorted = stages.clone();
    sorted.sort_by_key(|stage| *stage as u8);
    assert_eq!(stages, sorted, "stages never go back");
    assert!(seen.contains(&Progress {
        stage: Stage::Reading,
        done: total_bytes,
        total: total_bytes
    }));
    assert!(stages.contains(&Stage::Checking) && stages.contains(&Stage::Scoring));
    let reading: Vec<u64> = seen
        .iter()
        .filter(|p| p.stage == Stage::Reading)
        .map(|p| p.done)
        .collect();
    assert!(reading.windows(2).all(|w| w[0] <= w[1]));
}

#[test]
fn generated_files_are_recognised_by_content() {
    let data = generate(&Config::default());
    for input in inputs(&data) {
        let (role, reason) = detect_role(input.bytes);
        assert_eq!(role, input.role, "{}: {reason}", input.name);
    }
    assert_eq!(detect_role(data.plain_rules.as_bytes()).0, Role::Rules);
}

#[test]
fn reading_a_large_session_file_reports_progress_within_it() {
    let data = generate(&Config {
        size: toolscope_gen::Size::Sessions(2_500),
        ..Config::default()
    });
    let input = InputFile::new("sessions.jsonl", &data.sessions, Role::Traces);
    let mut reading: Vec<u64> = Vec::new();
    Analysis::new(&[input], &Options::default(), &mut |p| {
        if p.stage == Stage::Reading {
            reading.push(p.done);
        }
    });
    let total = data.sessions.len() as u64;
    let inside: Vec<u64> = reading
        .iter()
        .copied()
        .filter(|done| *done > 0 && *done < total)
        .collect();
    assert!(inside.len() >= 2, "progress inside the file: {reading:?}");
    assert!(reading.windows(2).all(|w| w[0] <= w[1]), "{reading:?}");
    assert_eq!(reading.last(), Some(&total));
}
