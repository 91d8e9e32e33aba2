//! The metrics a gate can name, and their values in a report: the same observations
//! ([`crate::compare::observe`]) `toolscope diff` compares, so a gate and a diff never disagree
//! on a number.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::checks::problem::ProblemKind;
use crate::compare::observe::{aggregate_values, visit_observations};
use crate::hashing::{HashMap, HashMapExt};
use crate::judge::Criterion;
use crate::report::Report;

pub use crate::compare::observe::MetricValue;

/// A metric name as a rule writes it; one segment may be `*` (every tool, kind or criterion).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MetricPattern {
    /// The text before the wildcard segment, or the whole name.
    prefix: String,
    /// The text after it (with `*`), else empty.
    suffix: String,
    /// Whether it has a wildcard.
    is_wildcard: bool,
}

impl MetricPattern {
    /// Reads a metric name, or says which names exist.
    pub fn parse(name: &str) -> Result<MetricPattern, String> {
        let name = name.trim();
        let exact = |name: &str| MetricPattern {
            prefix: name.to_string(),
            suffix: String::new(),
            is_wildcard: false,
        };
        let middle = |prefix: &str, suffix: &str, check: &dyn Fn(&str) -> bool| {
            let inner = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
            if inner == "*" {
                Some(Ok(MetricPattern {
                    prefix: prefix.to_string(),
                    suffix: suffix.to_string(),
                    is_wildcard: true,
                }))
            } else if !inner.is_empty() && check(inner) {
                Some(Ok(exact(name)))
            } else {
                Some(Err(format!("\"{inner}\" in \"{name}\"")))
            }
        };
        let any = |_: &str| true;
        let kind = |text: &str| ProblemKind::ALL.iter().any(|kind| kind.as_str() == text);
        let criterion = |text: &str| Criterion::ALL.iter().any(|c| c.as_str() == text);
        let whole_number = |text: &str| text.parse::<u32>().is_ok_and(|k| k >= 1);
        let found = match name {
            "selection.tool_accuracy"
            | "selection.args_accuracy"
            | "problems.rate"
            | "tool_errors.rate"
            | "tasks.all_matched"
            | "tasks.actions_matched" => Some(Ok(exact(name))),
            _ => [".recall", ".precision", ".f1"]
                .iter()
                .find_map(|suffix| middle("per_tool.", suffix, &any))
                .or_else(|| middle("problems.", ".rate", &kind))
                .or_else(|| middle("judge.", ".pass_rate", &criterion))
                .or_else(|| middle("tasks.pass_hat_k.", "", &whole_number))
                .or_else(|| middle("tasks.pass_at_k.", "", &whole_number)),
        };
        match found {
            Some(Ok(pattern)) => Ok(pattern),
            Some(Err(what)) => Err(format!("unknown {what}: {}", METRIC_HELP)),
            None => Err(format!("unknown metric \"{name}\": {METRIC_HELP}")),
        }
    }

    /// The metric names of `values` this pattern names.
    pub fn expand<'a>(&self, values: &'a BTreeMap<String, MetricValue>) -> Vec<&'a str> {
        values
            .keys()
            .filter(|name| self.matches(name))
            .map(String::as_str)
            .collect()
    }

    /// Whether this pattern names the metric `name`.
    pub fn matches(&self, name: &str) -> bool {
        if !self.is_wildcard {
            return name == self.prefix;
        }
        name.len() > self.prefix.len() + self.suffix.len()
            && name.starts_with(&self.prefix)
            && name.ends_with(&self.suffix)
    }

    /// The name as written.
    pub fn as_written(&self) -> String {
        if self.is_wildcard {
            format!("{}*{}", self.prefix, self.suffix)
        } else {
            self.prefix.clone()
        }
    }
}

/// The names a rule can use, for error messages.
pub const METRIC_HELP: &str = "metrics are selection.tool_accuracy, selection.args_accuracy, \
     per_tool.TOOL.recall|precision|f1, problems.rate, problems.KIND.rate, tool_errors.rate, \
     tasks.all_matched, tasks.actions_matched, tasks.pass_hat_k.K, tasks.pass_at_k.K and \
     judge.CRITERION.pass_rate (TOOL, KIND or CRITERION may be *)";

/// Every metric of `report`, over the sessions of `agent` when one is given (`Some(None)`: the
/// sessions without an agent id). A summary report keeps no sessions: its values are its totals,
/// and none per agent.
pub fn metric_values(
    report: &Report,
    agent: Option<Option<&str>>,
) -> BTreeMap<String, MetricValue> {
    let mut values = match (report.is_summary(), agent) {
        (true, Some(_)) => return BTreeMap::new(),
        (true, None) => aggregate_values(report),
        (false, _) => observed_values(report, agent),
    };
    // pass^k and pass@k are means over tasks, for the whole run only: a task's trials may have
    // been run by several agents.
    if let (None, Some(trials)) = (agent, &report.trials) {
        for (name, passes) in [
            ("pass_hat_k", &trials.pass_hat_k),
            ("pass_at_k", &trials.pass_at_k),
        ] {
            for pass in passes {
                values.insert(
                    format!("tasks.{name}.{}", pass.k),
                    MetricValue {
                        value: Some(pass.value),
                        num: 0,
                        den: 0,
                        mean_over: Some(pass.tasks),
                    },
                );
            }
        }
    }
    values
}

/// The metrics summed from `report`'s observations, over `agent`'s sessions when given.
fn observed_values(report: &Report, agent: Option<Option<&str>>) -> BTreeMap<String, MetricValue> {
    let mut by_agent = match agent {
        Some(agent) => observed_values_by_agent(report, false, |session_agent| {
            (session_agent == agent).then_some(agent)
        }),
        // The whole run: every observation, of a listed session or not.
        None => observed_values_by_agent(report, true, |_| None),
    };
    by_agent.remove(&agent.unwrap_or(None)).unwrap_or_default()
}

/// Every metric of a full report for each agent at once (`None`: the sessions without an agent
/// id), in one reading of the observations: a rule for every agent (`agent = "*"`) costs one
/// pass, not one per agent.
pub fn metric_values_by_agent(
    report: &Report,
) -> BTreeMap<Option<&str>, BTreeMap<String, MetricValue>> {
    if report.is_summary() {
        return BTreeMap::new();
    }
    observed_values_by_agent(report, false, Some)
}

/// Sums the observations of each session under the group `group_of` gives its agent (None: left
/// out, or with `is_whole_run` counted under `None` as every other observation is), each
/// metric by its one shared name ([`visit_observations`]).
fn observed_values_by_agent<'r>(
    report: &'r Report,
    is_whole_run: bool,
    group_of: impl Fn(Option<&'r str>) -> Option<Option<&'r str>>,
) -> BTreeMap<Option<&'r str>, BTreeMap<String, MetricValue>> {
    let group: HashMap<&str, Option<&str>> = report
        .sessions
        .iter()
        .filter_map(|session| {
            let group = group_of(session.agent_id.as_deref())?;
            Some((session.session_id.as_str(), group))
        })
        .collect();
    // Keyed by the group and the metric's shared name (by address): (name, Σnum, Σden).
    type Sums<'a> = HashMap<(Option<&'a str>, *const u8), (Arc<str>, u64, u64)>;
    let mut sums: Sums<'_> = HashMap::new();
    visit_observations(report, |observation| {
        let group = match group.get(observation.session_id) {
            Some(&group) => group,
            None if is_whole_run => None,
            None => return,
        };
        let entry = sums
            .entry((group, observation.metric.as_ptr()))
            .or_insert_with(|| (observation.metric.clone(), 0, 0));
        entry.1 += observation.num;
        entry.2 += observation.den;
    });
    let mut values: BTreeMap<Option<&str>, BTreeMap<String, MetricValue>> = BTreeMap::new();
    for ((group, _), (name, num, den)) in sums {
        let entry = values
            .entry(group)
            .or_default()
            .entry(name.to_string())
            .or_insert(MetricValue {
                value: None,
                num: 0,
                den: 0,
                mean_over: None,
            });
        entry.num += num;
        entry.den += den;
    }
    for value in values.values_mut().flat_map(|metrics| metrics.values_mut()) {
        value.value = (value.den > 0).then(|| value.num as f64 / value.den as f64);
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_names_are_checked_and_wildcards_expand() {
        for name in [
            "selection.tool_accuracy",
            "per_tool.math.hypot.recall",
            "per_tool.*.f1",
            "problems.schema.rate",
            "problems.*.rate",
            "judge.args_grounded.pass_rate",
            "tasks.pass_hat_k.4",
        ] {
            assert!(MetricPattern::parse(name).is_ok(), "{name}");
        }
        for (name, expected) in [
            (
                "selection.accuracy",
                "unknown metric \"selection.accuracy\"",
            ),
            (
                "problems.typo.rate",
                "unknown \"typo\" in \"problems.typo.rate\"",
            ),
            ("tasks.pass_hat_k.0", "unknown \"0\""),
            ("judge.vibes.pass_rate", "unknown \"vibes\""),
        ] {
            let error = MetricPattern::parse(name).unwrap_err();
            assert!(error.starts_with(expected), "{error}");
            assert!(error.contains("per_tool.TOOL.recall"), "{error}");
        }
        let value = MetricValue {
            value: Some(1.0),
            num: 1,
            den: 1,
            mean_over: None,
        };
        let values: BTreeMap<String, MetricValue> = [
            "per_tool.a.recall",
            "per_tool.b.c.recall",
            "per_tool.a.f1",
            "selection.tool_accuracy",
        ]
        .into_iter()
        .map(|name| (name.to_string(), value))
        .collect();
        let recalls = MetricPattern::parse("per_tool.*.recall").unwrap();
        assert_eq!(
            recalls.expand(&values),
            ["per_tool.a.recall", "per_tool.b.c.recall"]
        );
        assert_eq!(recalls.as_written(), "per_tool.*.recall");
        assert!(MetricPattern::parse("per_tool.z.recall")
            .unwrap()
            .expand(&values)
            .is_empty());
    }
}

/// Every metric, one column per agent (sessions without an agent id are not a column): what
/// the page's comparison view shows as its per-agent table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentTable {
    /// The agents, in name order.
    pub agents: Vec<String>,
    /// Per metric (in name order), each agent's value, None where it has none.
    pub rows: Vec<AgentRow>,
}

/// One metric across agents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AgentRow {
    /// The metric.
    pub metric: String,
    /// Each agent's value, in the table's agent order.
    pub values: Vec<Option<MetricValue>>,
}

/// The per-agent table of `report`: the same values a gate reads, one agent at a time.
pub fn agent_table(report: &Report) -> AgentTable {
    let agents: Vec<String> = report
        .sessions
        .iter()
        .filter_map(|session| session.agent_id.clone())
        .collect::<std::collections::BTreeSet<String>>()
        .into_iter()
        .collect();
    let columns: Vec<BTreeMap<String, MetricValue>> = agents
        .iter()
        .map(|agent| metric_values(report, Some(Some(agent.as_str()))))
        .collect();
    let metrics: std::collections::BTreeSet<&String> =
        columns.iter().flat_map(|column| column.keys()).collect();
    let rows = metrics
        .into_iter()
        .map(|metric| AgentRow {
            metric: metric.clone(),
            values: columns
                .iter()
                .map(|column| column.get(metric).copied())
                .collect(),
        })
        .collect();
    AgentTable { agents, rows }
}

#[cfg(test)]
mod agent_table_tests {
    use super::*;
    use crate::{Analysis, InputFile, Options, Role};

    #[test]
    fn one_column_per_agent_with_each_agents_own_values() {
        let sessions = br#"{"session_id": "a1", "agent_id": "v1", "events": [{"type": "user", "content": "q"}, {"type": "tool_use", "name": "lookup", "args": {}}]}
{"session_id": "a2", "agent_id": "v1", "events": [{"type": "user", "content": "q"}, {"type": "tool_use", "name": "search", "args": {}}]}
{"session_id": "b1", "agent_id": "v2", "events": [{"type": "user", "content": "q"}, {"type": "tool_use", "name": "lookup", "args": {}}]}
{"session_id": "c1", "events": [{"type": "user", "content": "q"}]}
"#;
        let labels = br#"{"session_id": "a1", "turn": 0, "expected_tool": "lookup"}
{"session_id": "a2", "turn": 0, "expected_tool": "lookup"}
{"session_id": "b1", "turn": 0, "expected_tool": "lookup"}
"#;
        let report = Analysis::new(
            &[
                InputFile::new("s.jsonl", sessions, Role::Traces),
                InputFile::new("l.jsonl", labels, Role::Labels),
            ],
            &Options::default(),
            &mut |_| {},
        )
        .report()
        .clone();
        let table = agent_table(&report);
        assert_eq!(table.agents, ["v1", "v2"]);
        let accuracy = table
            .rows
            .iter()
            .find(|row| row.metric == "selection.tool_accuracy")
            .unwrap();
        let values: Vec<Option<(u64, u64)>> = accuracy
            .values
            .iter()
            .map(|value| value.map(|value| (value.num, value.den)))
            .collect();
        assert_eq!(values, [Some((1, 2)), Some((1, 1))]);
        let search = table
            .rows
            .iter()
            .find(|row| row.metric == "per_tool.search.precision")
            .unwrap();
        assert!(search.values[1].is_none(), "v2 never called search");
    }
}
