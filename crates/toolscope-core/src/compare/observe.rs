//! A report as observations: every number a comparison or a gate reads is a ratio Σnum / Σden of
//! observations, each belonging to a session and, for yes/no outcomes of one case (a turn, a
//! call, a task, a judged call), naming that case so two runs can be paired on it.
//!
//! | metric | one observation per | num / den | case |
//! |---|---|---|---|
//! | `selection.tool_accuracy` | labelled turn | right tool? / 1 | `turn N` |
//! | `selection.args_accuracy` | labelled turn with labelled arguments | exact? / 1 | `turn N` |
//! | `per_tool.T.recall` | labelled turn counted under T | T called? / 1 | `turn N` |
//! | `per_tool.T.precision` | labelled turn where T was called first | right? / 1 | — |
//! | `per_tool.T.f1` | labelled turn with T as label or call | 2 / 2 when right, 0 / 1 when not | — |
//! | `problems.rate` | call | any problem? / 1 | `call N` |
//! | `problems.K.rate` | call | a problem of kind K? / 1 | `call N` |
//! | `tool_errors.rate` | session | error results / results | — |
//! | `tasks.all_matched` | task-labelled session | every action matched? / 1 | `task` |
//! | `tasks.actions_matched` | task-labelled session | actions matched / actions | — |
//! | `judge.C.pass_rate` | scored verdict on criterion C | pass? / 1 | `call N` |
//!
//! Summed over a report, each equals the report's own figure (`summary.calls_with_problems`,
//! `selection.per_tool[].f1`, …); the tests hold them to it.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::checks::problem::ProblemKind;
use crate::hashing::{HashMap, HashMapExt};
use crate::judge::Outcome;
use crate::metrics::rate::Rate;
use crate::report::Report;

/// A metric's value in a run: num / den, with both (what `diff` compares and a gate checks).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MetricValue {
    /// num / den; None with den 0.
    pub value: Option<f64>,
    /// The numerator.
    pub num: u64,
    /// The denominator.
    pub den: u64,
    /// For a mean over tasks (pass^k, pass@k): how many tasks; num and den are 0 then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_over: Option<u64>,
}

impl MetricValue {
    /// num / den.
    pub fn of(num: u64, den: u64) -> MetricValue {
        MetricValue {
            value: (den > 0).then(|| num as f64 / den as f64),
            num,
            den,
            mean_over: None,
        }
    }
}

/// One observation of one metric. It borrows from its report and allocates nothing: a large
/// run has millions (every call observes each problem kind), and `diff` and `gate` sum them as
/// they come ([`visit_observations`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observation<'a> {
    /// The metric, e.g. `per_tool.issue_refund.recall` (shared by its observations).
    pub metric: Arc<str>,
    /// The session it belongs to.
    pub session_id: &'a str,
    /// The case, for yes/no outcomes that can be paired across runs (`turn 2`, `call 3`).
    pub case: Option<Case<'a>>,
    /// Its part of the metric's numerator.
    pub num: u64,
    /// Its part of the metric's denominator.
    pub den: u64,
}

/// A yes/no outcome's case within its session, what two runs are paired on. Two cases are equal
/// exactly when their names (`Display`) are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Case<'a> {
    /// `turn N`: a labelled turn.
    Turn(usize),
    /// `call N`: a call, by step.
    Call(usize),
    /// `task`: a session's task.
    Task,
    /// `call N by MODEL`: a judged call.
    Judged(usize, &'a str),
}

impl std::fmt::Display for Case<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Case::Turn(turn) => write!(f, "turn {turn}"),
            Case::Call(step) => write!(f, "call {step}"),
            Case::Task => f.write_str("task"),
            Case::Judged(step, model) => write!(f, "call {step} by {model}"),
        }
    }
}

/// Whether a higher value of `metric` is better (accuracies, recalls, pass rates) or worse
/// (problem and error rates).
pub fn higher_is_better(metric: &str) -> bool {
    !(metric.starts_with("problems.") || metric.starts_with("tool_errors."))
}

/// Every observation in `report`, collected ([`visit_observations`] without the list).
pub fn observations(report: &Report) -> Vec<Observation<'_>> {
    let mut out = Vec::new();
    visit_observations(report, |observation| out.push(observation));
    out
}

/// Metric names made once each: per tool and per judge criterion by their parts, the rest
/// fixed.
#[derive(Default)]
struct Names<'a> {
    made: HashMap<(&'a str, (&'static str, &'static str)), Arc<str>>,
}

impl<'a> Names<'a> {
    /// `{prefix}.{middle}.{suffix}` where `middle` is a tool or criterion (`prefix` and `suffix`
    /// given together as `what`, e.g. ("per_tool", "recall")).
    fn of(&mut self, middle: &'a str, what: (&'static str, &'static str)) -> Arc<str> {
        let key = (middle, what);
        if let Some(name) = self.made.get(&key) {
            return name.clone();
        }
        let name: Arc<str> = format!("{}.{middle}.{}", what.0, what.1).into();
        self.made.insert(key, name.clone());
        name
    }
}

/// Tells `visit` every observation in `report`, in the order [`observations`] lists them.
pub fn visit_observations<'a>(report: &'a Report, mut visit: impl FnMut(Observation<'a>)) {
    let mut push = |metric: &Arc<str>, session_id: &'a str, case, num, den| {
        visit(Observation {
            metric: metric.clone(),
            session_id,
            case,
            num,
            den,
        });
    };
    let fixed = |name: &str| -> Arc<str> { name.into() };
    let mut names = Names::default();
    if let Some(selection) = &report.selection {
        let (tool_accuracy, args_accuracy) = (
            fixed("selection.tool_accuracy"),
            fixed("selection.args_accuracy"),
        );
        for outcome in &selection.outcomes {
            let id = outcome.session_id.as_str();
            let turn = Some(Case::Turn(outcome.turn));
            let right = u64::from(outcome.is_correct);
            push(&tool_accuracy, id, turn, right, 1);
            if let Some(exact) = outcome.args_exact {
                push(&args_accuracy, id, turn, u64::from(exact), 1);
            }
            let (row, column) = (outcome.counted_as.as_str(), outcome.actual_tool.as_str());
            let is_hit = u64::from(row == column);
            let mut per_tool = |tool, what| names.of(tool, ("per_tool", what));
            push(&per_tool(row, "recall"), id, turn, is_hit, 1);
            push(&per_tool(column, "precision"), id, None, is_hit, 1);
            if row == column {
                push(&per_tool(row, "f1"), id, None, 2, 2);
            } else {
                push(&per_tool(row, "f1"), id, None, 0, 1);
                push(&per_tool(column, "f1"), id, None, 0, 1);
            }
        }
    }
    let mut kinds_at: HashMap<(&str, usize), BTreeSet<ProblemKind>> = HashMap::new();
    for problem in report.problems.iter().filter(|p| p.kind.is_failure()) {
        kinds_at
            .entry((problem.session_id.as_str(), problem.step))
            .or_default()
            .insert(problem.kind);
    }
    let kinds: Vec<(ProblemKind, Arc<str>)> = ProblemKind::ALL
        .into_iter()
        .filter(|kind| kind.is_failure())
        .map(|kind| (kind, format!("problems.{}.rate", kind.as_str()).into()))
        .collect();
    let (problems_rate, tool_errors_rate) = (fixed("problems.rate"), fixed("tool_errors.rate"));
    for session in &report.sessions {
        let id = session.session_id.as_str();
        for step in 1..=session.calls as usize {
            let found = kinds_at.get(&(id, step));
            let case = Some(Case::Call(step));
            push(&problems_rate, id, case, u64::from(found.is_some()), 1);
            for (kind, name) in &kinds {
                let has = found.is_some_and(|found| found.contains(kind));
                push(name, id, case, u64::from(has), 1);
            }
        }
        let errors = &session.tool_errors;
        if errors.results > 0 {
            push(&tool_errors_rate, id, None, errors.errors, errors.results);
        }
    }
    if let Some(tasks) = &report.tasks {
        let (all_matched, actions_matched) =
            (fixed("tasks.all_matched"), fixed("tasks.actions_matched"));
        for outcome in &tasks.outcomes {
            let id = outcome.session_id.as_str();
            let all = u64::from(outcome.all_matched());
            push(&all_matched, id, Some(Case::Task), all, 1);
            let (matched, actions) = (outcome.matched() as u64, outcome.actions.len() as u64);
            if actions > 0 {
                push(&actions_matched, id, None, matched, actions);
            }
        }
    }
    if let Some(judge) = &report.judge {
        for verdict in &judge.verdicts {
            let is_pass = match verdict.verdict {
                Outcome::Pass => 1,
                Outcome::Fail => 0,
                Outcome::Unscored => continue,
            };
            push(
                &names.of(verdict.criterion.as_str(), ("judge", "pass_rate")),
                &verdict.session_id,
                Some(Case::Judged(verdict.step, &verdict.model)),
                is_pass,
                1,
            );
        }
    }
}

/// Every metric of `report` from its aggregates (Σnum / Σden as [`observations`] would sum
/// them), for a summary report, which keeps no observations ([`Report::into_summary`]). On a
/// full report it equals [`totals`] of its observations (the tests hold it to that).
pub fn aggregate_values(report: &Report) -> BTreeMap<String, MetricValue> {
    let mut values = BTreeMap::new();
    let mut put = |metric: String, num: u64, den: u64| {
        if den > 0 {
            values.insert(metric, MetricValue::of(num, den));
        }
    };
    if let Some(selection) = &report.selection {
        let rate = |rate: &Rate| (rate.count, rate.total);
        let (num, den) = rate(&selection.tool_accuracy);
        put("selection.tool_accuracy".into(), num, den);
        let (num, den) = rate(&selection.args_accuracy_exact);
        put("selection.args_accuracy".into(), num, den);
        for row in &selection.per_tool {
            let tool = &row.tool;
            put(format!("per_tool.{tool}.recall"), row.tp, row.tp + row.fn_);
            put(
                format!("per_tool.{tool}.precision"),
                row.tp,
                row.tp + row.fp,
            );
            put(
                format!("per_tool.{tool}.f1"),
                2 * row.tp,
                2 * row.tp + row.fp + row.fn_,
            );
        }
    }
    let summary = &report.summary;
    put(
        "problems.rate".into(),
        summary.calls_with_problems.count,
        summary.calls,
    );
    for kind in ProblemKind::ALL.into_iter().filter(|k| k.is_failure()) {
        let calls = summary.by_kind.get(&kind).map_or(0, |count| count.calls);
        put(
            format!("problems.{}.rate", kind.as_str()),
            calls,
            summary.calls,
        );
    }
    put(
        "tool_errors.rate".into(),
        summary.tool_errors.errors,
        summary.tool_errors.results,
    );
    if let Some(tasks) = &report.tasks {
        let all = &tasks.sessions_all_matched;
        put("tasks.all_matched".into(), all.count, all.total);
        put(
            "tasks.actions_matched".into(),
            tasks.actions.count,
            tasks.actions.total,
        );
    }
    if let Some(judge) = &report.judge {
        for counts in &judge.summary.criteria {
            put(
                format!("judge.{}.pass_rate", counts.criterion.as_str()),
                counts.pass,
                counts.pass + counts.fail,
            );
        }
    }
    values
}

/// Whether `metric`'s observations are yes/no outcomes of cases (turns, calls, tasks, judged
/// calls), as opposed to ratios of sums over sessions: what decides its test.
pub fn is_case_metric(metric: &str) -> bool {
    !(metric.ends_with(".precision")
        || metric.ends_with(".f1")
        || metric == "tool_errors.rate"
        || metric == "tasks.actions_matched")
}

/// Σnum and Σden per metric over `observations`.
pub fn totals<'o>(observations: &'o [Observation<'_>]) -> HashMap<&'o str, (u64, u64)> {
    let mut totals: HashMap<&str, (u64, u64)> = HashMap::new();
    for observation in observations {
        let entry = totals.entry(&*observation.metric).or_default();
        entry.0 += observation.num;
        entry.1 += observation.den;
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Analysis, InputFile, Options, Role};

    const SESSIONS: &[u8] = br#"{"session_id": "a", "events": [{"type": "user", "content": "refund 7Q2"}, {"type": "tool_use", "name": "issue_refund", "args": {"amount": -5}}, {"type": "tool_result", "status": "error", "content": "bad amount"}, {"type": "assistant", "content": "Done!"}, {"type": "user", "content": "where is it"}, {"type": "tool_use", "name": "lookup_order", "args": {"order_id": "7Q2"}}, {"type": "tool_result", "status": "ok", "content": "shipped"}]}
{"session_id": "b", "events": [{"type": "user", "content": "hi"}, {"type": "assistant", "content": "hello"}, {"type": "user", "content": "docs?"}, {"type": "tool_use", "name": "search_docs", "args": {"query": "refunds"}}, {"type": "tool_result", "status": "ok", "content": "policy"}]}
"#;
    const TOOLS: &[u8] = br#"[{"name": "issue_refund", "parameters": {"type": "object", "properties": {"amount": {"type": "number", "exclusiveMinimum": 0}}}}, {"name": "lookup_order", "parameters": {"type": "object"}}, {"name": "search_docs", "parameters": {"type": "object"}}]"#;
    const LABELS: &[u8] = br#"{"session_id": "a", "turn": 0, "expected_tool": "issue_refund"}
{"session_id": "a", "turn": 1, "expected_tool": "lookup_order"}
{"session_id": "b", "turn": 0, "expected_tool": "search_docs"}
{"session_id": "b", "turn": 1, "expected_tool": "search_docs"}
"#;

    #[test]
    fn cases_are_equal_exactly_when_their_names_are() {
        let cases = [
            Case::Turn(0),
            Case::Turn(2),
            Case::Turn(10),
            Case::Call(2),
            Case::Call(10),
            Case::Task,
            Case::Judged(2, "gpt"),
            Case::Judged(2, "gpt-4"),
            Case::Judged(10, "gpt"),
        ];
        let names: Vec<String> = cases.iter().map(Case::to_string).collect();
        assert_eq!(names[2], "turn 10");
        assert_eq!(names[6], "call 2 by gpt");
        assert_eq!(names[5], "task");
        for (a, name_a) in cases.iter().zip(&names) {
            for (b, name_b) in cases.iter().zip(&names) {
                assert_eq!(a == b, name_a == name_b, "{name_a} and {name_b}");
            }
        }
    }

    #[test]
    fn summed_observations_give_the_reports_own_figures() {
        let analysis = Analysis::new(
            &[
                InputFile::new("s.jsonl", SESSIONS, Role::Traces),
                InputFile::new("tools.json", TOOLS, Role::Catalog),
                InputFile::new("labels.jsonl", LABELS, Role::Labels),
            ],
            &Options::default(),
            &mut |_| {},
        );
        let report = analysis.report();
        let observed = observations(report);
        let totals = totals(&observed);
        let rate = |metric: &str| {
            let (num, den) = totals[metric];
            num as f64 / den as f64
        };
        let selection = report.selection.as_ref().unwrap();
        assert_eq!(
            Some(rate("selection.tool_accuracy")),
            selection.tool_accuracy.rate
        );
        for row in &selection.per_tool {
            let tool = &row.tool;
            let get = |what: &str| {
                totals
                    .get(format!("per_tool.{tool}.{what}").as_str())
                    .map(|&(num, den)| num as f64 / den as f64)
            };
            assert_eq!(get("recall"), row.recall, "{tool} recall");
            assert_eq!(get("precision"), row.precision, "{tool} precision");
            assert_eq!(get("f1"), row.f1, "{tool} f1");
        }
        assert_eq!(
            Some(rate("problems.rate")),
            report.summary.calls_with_problems.rate
        );
        let schema = report.summary.by_kind[&ProblemKind::Schema].calls;
        assert_eq!(
            totals["problems.schema.rate"],
            (schema, report.summary.calls)
        );
        assert_eq!(
            Some(rate("tool_errors.rate")),
            report.summary.tool_error_rate.rate
        );
        // Yes/no observations name their case; ratios of sums do not.
        assert!(observed
            .iter()
            .filter(|o| &*o.metric == "selection.tool_accuracy")
            .all(|o| o
                .case
                .is_some_and(|case| case.to_string().starts_with("turn "))));
        assert!(observed
            .iter()
            .filter(|o| o.metric.ends_with(".f1"))
            .all(|o| o.case.is_none()));
        let from_aggregates = aggregate_values(report);
        let from_observations: BTreeMap<String, MetricValue> = totals
            .iter()
            .map(|(metric, &(num, den))| (metric.to_string(), MetricValue::of(num, den)))
            .collect();
        assert_eq!(from_aggregates, from_observations);
        let summary = report.clone().into_summary();
        assert!(summary.sessions.is_empty() && summary.problems.is_empty());
        assert_eq!(aggregate_values(&summary), from_observations);
        for observation in &observed {
            assert_eq!(
                observation.case.is_some(),
                is_case_metric(&observation.metric),
                "{}",
                observation.metric
            );
        }
        assert!(!higher_is_better("problems.schema.rate"));
        assert!(higher_is_better("per_tool.none.recall"));
    }
}
