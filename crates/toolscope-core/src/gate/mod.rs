//! Gating CI on a report: thresholds on metrics (overall, per tool, per agent) and rules against
//! a baseline run, each with its value and verdict. `toolscope gate` prints them, writes them as
//! Markdown (for a pull request) and JUnit XML, and exits 1 when one fails. docs/gate.md.
//!
//! A rule whose metric has no value (no labelled turns, a tool never labelled) **fails**: a gate
//! that cannot check something must not pass it. Baseline rules without a baseline are skipped,
//! and say so.

pub mod config;
pub mod markdown;
pub mod metric;

use serde::{Deserialize, Serialize};

use crate::compare::diff::{diff, Verdict};
use crate::report::Report;
use config::{AgentScope, Config, Rule};
use metric::{metric_values, metric_values_by_agent, MetricValue};

/// How one check came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// It holds.
    Pass,
    /// It does not (or could not be checked).
    Fail,
    /// Not checked (a baseline rule without a baseline).
    Skipped,
}

impl Status {
    /// As printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Skipped => "SKIP",
        }
    }
}

/// One checked rule on one metric (a `*` rule gives one per metric it names).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// The rule as written, or the baseline rule as a sentence.
    pub rule: String,
    /// The metric checked.
    pub metric: String,
    /// The agent, for a per-agent rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<String>,
    /// The value (for a baseline rule: the current run's).
    pub value: Option<MetricValue>,
    /// For a baseline rule: the baseline's value, the change, its interval and the verdict.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<BaselineCheck>,
    /// The outcome.
    pub status: Status,
    /// What to tell the user: the value against the threshold, or the rule's own message.
    pub message: String,
}

/// A baseline rule's comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BaselineCheck {
    /// The baseline's value.
    pub base: Option<MetricValue>,
    /// current − base.
    pub difference: Option<f64>,
    /// Its interval at 1 − α (95 % by default).
    pub interval: Option<[f64; 2]>,
    /// The comparison's verdict.
    pub verdict: Verdict,
}

/// The gate's result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GateResult {
    /// Whether every check passed (skipped ones do not count).
    pub passed: bool,
    /// Every check, thresholds first, in the config's order.
    pub checks: Vec<Check>,
}

impl GateResult {
    /// Checks that failed.
    pub fn failed(&self) -> usize {
        self.checks
            .iter()
            .filter(|c| c.status == Status::Fail)
            .count()
    }
}

/// Checks `current` (and, with a baseline, the change from it) against `config`.
pub fn evaluate(config: &Config, current: &Report, baseline: Option<&Report>) -> GateResult {
    let mut checks = Vec::new();
    let overall = metric_values(current, None);
    // Every agent's values, read once when a rule asks for each agent.
    let mut each_agent = None;
    for rule in &config.rules {
        match &rule.agent {
            AgentScope::All => check_rule(rule, &overall, None, &mut checks),
            AgentScope::One(agent) => {
                let values = metric_values(current, Some(Some(agent.as_str())));
                check_rule(rule, &values, Some(agent.clone()), &mut checks);
            }
            AgentScope::Each => {
                let by_agent = each_agent.get_or_insert_with(|| metric_values_by_agent(current));
                let agents: std::collections::BTreeSet<Option<&str>> = current
                    .sessions
                    .iter()
                    .map(|session| session.agent_id.as_deref())
                    .collect();
                let none = std::collections::BTreeMap::new();
                for agent in agents {
                    let values = by_agent.get(&agent).unwrap_or(&none);
                    let name = agent.unwrap_or("(no agent id)").to_string();
                    check_rule(rule, values, Some(name), &mut checks);
                }
            }
        }
    }
    if !config.baseline.is_empty() {
        match baseline {
            None => checks.extend(config.baseline.iter().map(|rule| Check {
                rule: baseline_text(rule),
                metric: rule.metric.as_written(),
                agent: None,
                value: None,
                baseline: None,
                status: Status::Skipped,
                message: "skipped: no baseline was given (--baseline FILE)".into(),
            })),
            Some(base) => {
                let compared = diff(base, current, &config.diff);
                for rule in &config.baseline {
                    let matched: Vec<&crate::compare::diff::MetricDiff> = compared
                        .metrics
                        .iter()
                        .filter(|row| rule.metric.matches(&row.metric))
                        .collect();
                    if matched.is_empty() {
                        checks.push(Check {
                            rule: baseline_text(rule),
                            metric: rule.metric.as_written(),
                            agent: None,
                            value: None,
                            baseline: None,
                            status: Status::Fail,
                            message: format!(
                                "no value: neither run has {}",
                                rule.metric.as_written()
                            ),
                        });
                    }
                    for row in matched {
                        let drop = row
                            .difference
                            .map(|d| if row.higher_is_better { -d } else { d });
                        let is_fail = row.verdict == Verdict::Worse
                            && drop.is_some_and(|drop| drop > rule.max_drop);
                        let change = match (row.difference, row.interval) {
                            (Some(d), Some([low, high])) => {
                                format!("{d:+.3} [{low:+.3}, {high:+.3}]")
                            }
                            (Some(d), None) => format!("{d:+.3}"),
                            _ => "no change measurable".into(),
                        };
                        checks.push(Check {
                            rule: baseline_text(rule),
                            metric: row.metric.clone(),
                            agent: None,
                            value: row.current,
                            baseline: Some(BaselineCheck {
                                base: row.base,
                                difference: row.difference,
                                interval: row.interval,
                                verdict: row.verdict,
                            }),
                            status: if is_fail { Status::Fail } else { Status::Pass },
                            message: format!(
                                "{} → {}: {change}, {}",
                                shown(row.base),
                                shown(row.current),
                                row.verdict.as_str()
                            ),
                        });
                    }
                }
            }
        }
    }
    GateResult {
        passed: checks.iter().all(|check| check.status != Status::Fail),
        checks,
    }
}

fn check_rule(
    rule: &Rule,
    values: &std::collections::BTreeMap<String, MetricValue>,
    agent: Option<String>,
    checks: &mut Vec<Check>,
) {
    let names = rule.metric.expand(values);
    if names.is_empty() {
        checks.push(Check {
            rule: rule.text.clone(),
            metric: rule.metric.as_written(),
            agent,
            value: None,
            baseline: None,
            status: Status::Fail,
            message: format!("no value: the report has no {}", rule.metric.as_written()),
        });
        return;
    }
    for name in names {
        let value = values[name];
        let holds = value
            .value
            .is_some_and(|v| rule.op.holds(v, rule.threshold));
        let message = match (&rule.message, holds, value.value) {
            (Some(template), false, Some(v)) => fill(template, v, rule.threshold, name),
            (_, _, None) => format!("no value: {name} has nothing to count (0 of 0)"),
            _ => format!(
                "{} {} {}",
                shown(Some(value)),
                if holds {
                    rule.op.as_str()
                } else {
                    negated(rule.op)
                },
                rule.threshold
            ),
        };
        checks.push(Check {
            rule: rule.text.clone(),
            metric: name.to_string(),
            agent: agent.clone(),
            value: Some(value),
            baseline: None,
            status: if holds { Status::Pass } else { Status::Fail },
            message,
        });
    }
}

fn negated(op: config::Op) -> &'static str {
    match op {
        config::Op::AtLeast => "<",
        config::Op::Above => "<=",
        config::Op::AtMost => ">",
        config::Op::Below => ">=",
    }
}

/// "0.933 (28 of 30)".
fn shown(value: Option<MetricValue>) -> String {
    match value {
        Some(MetricValue {
            value: Some(v),
            mean_over: Some(tasks),
            ..
        }) => format!("{v:.3} (mean over {tasks} tasks)"),
        Some(MetricValue {
            value: Some(v),
            num,
            den,
            ..
        }) => format!("{v:.3} ({num} of {den})"),
        Some(MetricValue { den, .. }) => format!("— (0 of {den})"),
        None => "—".into(),
    }
}

fn baseline_text(rule: &config::BaselineRule) -> String {
    format!(
        "no significant drop of more than {} in {}",
        rule.max_drop,
        rule.metric.as_written()
    )
}

/// A rule's message with its placeholders filled: `{value}` (three decimals), `{value:.1%}`
/// (a percentage with one decimal, as Python's format writes it), `{value:.3}`, `{threshold}`,
/// `{metric}`. Other braces stay as written.
fn fill(template: &str, value: f64, threshold: f64, metric: &str) -> String {
    template
        .replace("{value:.1%}", &format!("{:.1}%", value * 100.0))
        .replace("{value:.3}", &format!("{value:.3}"))
        .replace("{value}", &format!("{value:.3}"))
        .replace("{threshold}", &threshold.to_string())
        .replace("{metric}", metric)
}

#[cfg(test)]
mod tests {
    use super::config::parse_config;
    use super::*;

    /// The second seed's example confusion matrix (rows expected, columns called).
    const TOOLS: [&str; 4] = ["get_stock", "search_web", "get_news", "get_financial"];
    const MATRIX: [[usize; 4]; 4] = [[45, 3, 1, 1], [2, 38, 4, 0], [0, 1, 42, 0], [1, 0, 0, 44]];

    /// One session per turn of `matrix`, with agent `agent`, and labels.
    fn report(matrix: [[usize; 4]; 4], agent_of: impl Fn(usize) -> &'static str) -> Report {
        let (mut sessions, mut labels) = (String::new(), String::new());
        let mut n = 0;
        for (row, counts) in matrix.iter().enumerate() {
            for (column, &count) in counts.iter().enumerate() {
                for _ in 0..count {
                    sessions.push_str(&format!(
                        "{{\"session_id\": \"t{n}\", \"agent_id\": \"{}\", \"events\": [{{\"type\": \"user\", \"content\": \"q\"}}, {{\"type\": \"tool_use\", \"name\": \"{}\", \"args\": {{}}}}]}}\n",
                        agent_of(n),
                        TOOLS[column]
                    ));
                    labels.push_str(&format!(
                        "{{\"session_id\": \"t{n}\", \"turn\": 0, \"expected_tool\": \"{}\"}}\n",
                        TOOLS[row]
                    ));
                    n += 1;
                }
            }
        }
        crate::test_support::report_of(&sessions, &labels)
    }

    const SEED_ALERT: &str = r#"
[[rule]]
check = "selection.tool_accuracy >= 0.90"
message = "Tool selection accuracy dropped to {value:.1%}"
"#;

    #[test]
    fn the_seeds_drift_alert_passes_its_example_and_fires_on_a_drop_with_its_words() {
        let config = parse_config(SEED_ALERT).unwrap();
        let week = report(MATRIX, |_| "bot");
        let result = evaluate(&config, &week, None);
        assert!(result.passed);
        assert_eq!(result.checks[0].message, "0.929 (169 of 182) >= 0.9");
        // A week where 16 more turns go to search_web: 153 of 182 right.
        let mut drifted = MATRIX;
        drifted[0] = [29, 19, 1, 1];
        let result = evaluate(&config, &report(drifted, |_| "bot"), None);
        assert!(!result.passed);
        assert_eq!(result.checks[0].status, Status::Fail);
        // Python: f"Tool selection accuracy dropped to {153/182:.1%}"
        assert_eq!(
            result.checks[0].message,
            "Tool selection accuracy dropped to 84.1%"
        );
    }

    #[test]
    fn every_agents_values_read_at_once_equal_each_agents_read_alone() {
        // `agent = "*"` reads the observations once for all agents (it read them once per agent,
        // quadratic in agents); the values must be those of each agent's own reading.
        let agents = ["v1", "v2", "v3"];
        let current = report(MATRIX, |n| agents[n % 3]);
        let by_agent = metric_values_by_agent(&current);
        assert_eq!(by_agent.len(), 3);
        for agent in agents {
            assert_eq!(
                by_agent[&Some(agent)],
                metric_values(&current, Some(Some(agent))),
                "{agent}"
            );
        }
        assert!(
            metric_values(&current, Some(None)).is_empty(),
            "no session lacks an agent"
        );
        assert!(!metric_values(&current, None).is_empty());
    }

    #[test]
    fn wildcards_agents_missing_values_and_baselines() {
        let current = report(MATRIX, |n| if n % 2 == 0 { "v1" } else { "v2" });
        let config = parse_config(
            r#"
rules = ["per_tool.*.recall >= 0.9", "judge.*.pass_rate >= 0.5"]
[[rule]]
check = "selection.tool_accuracy >= 0.9"
agent = "*"
[[baseline]]
metric = "selection.tool_accuracy"
max_drop = 0.02
"#,
        )
        .unwrap();
        let result = evaluate(&config, &current, None);
        let recalls: Vec<(&str, Status)> = result
            .checks
            .iter()
            .filter(|c| c.rule.starts_with("per_tool"))
            .map(|c| (c.metric.as_str(), c.status))
            .collect();
        // Recalls: 45/50, 38/44, 42/43, 44/45.
        assert_eq!(
            recalls,
            [
                ("per_tool.get_financial.recall", Status::Pass),
                ("per_tool.get_news.recall", Status::Pass),
                ("per_tool.get_stock.recall", Status::Pass),
                ("per_tool.search_web.recall", Status::Fail),
            ]
        );
        let judge = result
            .checks
            .iter()
            .find(|c| c.rule.starts_with("judge"))
            .unwrap();
        assert_eq!(judge.status, Status::Fail, "no verdicts: cannot pass");
        assert!(judge.message.starts_with("no value"));
        let agents: Vec<Option<&str>> = result
            .checks
            .iter()
            .filter(|c| c.rule.starts_with("selection"))
            .map(|c| c.agent.as_deref())
            .collect();
        assert_eq!(agents, [Some("v1"), Some("v2")]);
        let skipped = result.checks.last().unwrap();
        assert_eq!(skipped.status, Status::Skipped);
        assert!(!result.passed);

        // Against a baseline where every turn was right: a significant drop of 7 points.
        let perfect = report(
            [[50, 0, 0, 0], [0, 44, 0, 0], [0, 0, 43, 0], [0, 0, 0, 45]],
            |n| if n % 2 == 0 { "v1" } else { "v2" },
        );
        let result = evaluate(&config, &current, Some(&perfect));
        let baseline = result.checks.last().unwrap();
        assert_eq!(baseline.metric, "selection.tool_accuracy");
        assert_eq!(baseline.status, Status::Fail);
        let compared = baseline.baseline.as_ref().unwrap();
        assert_eq!(compared.verdict, Verdict::Worse);
        assert!(
            baseline
                .message
                .starts_with("1.000 (182 of 182) → 0.929 (169 of 182): -0.071 ["),
            "{}",
            baseline.message
        );
        // The same run as its own baseline: no drop.
        let result = evaluate(&config, &current, Some(&current));
        assert_eq!(result.checks.last().unwrap().status, Status::Pass);
    }
}
