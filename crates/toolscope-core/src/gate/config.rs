//! A gate's config: TOML with thresholds on metrics and rules against a baseline.
//!
//! ```toml
//! # The second seed's drift alert, as the simplest config.
//! rules = ["selection.tool_accuracy >= 0.90"]
//!
//! # A rule with its own message (as the seed's alert) or for one agent ("*": each agent).
//! [[rule]]
//! check = "per_tool.issue_refund.recall >= 0.8"
//! agent = "support-v2"
//! message = "issue_refund recall dropped to {value:.1%}"
//!
//! # Against the baseline: no significant drop of more than 2 points in any tool's recall.
//! [[baseline]]
//! metric = "per_tool.*.recall"
//! max_drop = 0.02
//! ```

use serde::Deserialize;

use super::metric::MetricPattern;
use crate::compare::diff::DiffOptions;

/// A comparison operator of a rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `>=`
    AtLeast,
    /// `>`
    Above,
    /// `<=`
    AtMost,
    /// `<`
    Below,
}

impl Op {
    /// The operator as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::AtLeast => ">=",
            Op::Above => ">",
            Op::AtMost => "<=",
            Op::Below => "<",
        }
    }

    /// Whether `value OP threshold` holds.
    pub fn holds(self, value: f64, threshold: f64) -> bool {
        match self {
            Op::AtLeast => value >= threshold,
            Op::Above => value > threshold,
            Op::AtMost => value <= threshold,
            Op::Below => value < threshold,
        }
    }
}

/// Whose sessions a rule reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentScope {
    /// Every session.
    All,
    /// One agent's (`None`: the sessions without an agent id).
    One(String),
    /// Each agent's, one result per agent.
    Each,
}

/// A threshold on a metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    /// The rule as written (`selection.tool_accuracy >= 0.90`).
    pub text: String,
    /// The metric (or metrics, with `*`).
    pub metric: MetricPattern,
    /// The operator.
    pub op: Op,
    /// The threshold.
    pub threshold: f64,
    /// Whose sessions.
    pub agent: AgentScope,
    /// Said when it fails; `{value}`, `{value:.1%}`, `{value:.3}`, `{threshold}` and `{metric}`
    /// are filled in.
    pub message: Option<String>,
}

/// A rule against the baseline: fails on a significant drop larger than `max_drop`.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineRule {
    /// The metric (or metrics, with `*`).
    pub metric: MetricPattern,
    /// The largest drop allowed even when significant (0.02 = 2 points).
    pub max_drop: f64,
}

/// A gate's config.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Thresholds.
    pub rules: Vec<Rule>,
    /// Rules against the baseline.
    pub baseline: Vec<BaselineRule>,
    /// How runs are compared for the baseline rules.
    pub diff: DiffOptions,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    #[serde(default)]
    rules: Vec<String>,
    #[serde(default)]
    rule: Vec<RawRule>,
    #[serde(default)]
    baseline: Vec<RawBaseline>,
    seed: Option<u64>,
    min_cases: Option<u64>,
    alpha: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRule {
    check: String,
    agent: Option<String>,
    message: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBaseline {
    metric: String,
    max_drop: f64,
}

/// Reads a config; the error says what is wrong and where (TOML's own line and column for
/// syntax, the rule's text for a bad rule).
pub fn parse_config(text: &str) -> Result<Config, String> {
    let raw: RawConfig = toml::from_str(text).map_err(|error| toml_error(text, &error))?;
    let mut rules = Vec::new();
    for text in &raw.rules {
        rules.push(parse_rule(text, None, None)?);
    }
    for rule in &raw.rule {
        rules.push(parse_rule(
            &rule.check,
            rule.agent.as_deref(),
            rule.message.clone(),
        )?);
    }
    let mut baseline = Vec::new();
    for rule in raw.baseline {
        if !(rule.max_drop.is_finite() && (0.0..=1.0).contains(&rule.max_drop)) {
            return Err(format!(
                "baseline rule on {}: max_drop must be from 0 to 1 (0.02 is 2 points)",
                rule.metric
            ));
        }
        baseline.push(BaselineRule {
            metric: MetricPattern::parse(&rule.metric)
                .map_err(|e| format!("baseline rule: {e}"))?,
            max_drop: rule.max_drop,
        });
    }
    if rules.is_empty() && baseline.is_empty() {
        return Err(
            "the config has no rules: add rules = [\"selection.tool_accuracy >= 0.90\"] \
                    or a [[rule]] or [[baseline]] table"
                .into(),
        );
    }
    let defaults = DiffOptions::default();
    let alpha = raw.alpha.unwrap_or(defaults.alpha);
    if !(alpha > 0.0 && alpha < 1.0) {
        return Err("alpha must be between 0 and 1, e.g. 0.05".into());
    }
    Ok(Config {
        rules,
        baseline,
        diff: DiffOptions {
            seed: raw.seed.unwrap_or(defaults.seed),
            min_cases: raw.min_cases.unwrap_or(defaults.min_cases),
            alpha,
            ..defaults
        },
    })
}

/// TOML's error as one line, "TOML parse error at line L, column C: what": not TOML's own
/// rendering, which quotes the whole source line (a hostile config can make it megabytes).
fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim();
    let Some(span) = error.span() else {
        return format!("TOML parse error: {message}");
    };
    let before = text.get(..span.start).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before
        .rsplit('\n')
        .next()
        .unwrap_or_default()
        .chars()
        .count()
        + 1;
    format!("TOML parse error at line {line}, column {column}: {message}")
}

/// Reads `METRIC OP NUMBER` (the number may be a percentage: `90%`).
fn parse_rule(text: &str, agent: Option<&str>, message: Option<String>) -> Result<Rule, String> {
    let shape = || {
        format!(
            "rule \"{text}\": write it as METRIC OP NUMBER, e.g. \"selection.tool_accuracy >= 0.90\" \
             (OP is >=, >, <= or <)"
        )
    };
    let (at, op, width) = [
        (">=", Op::AtLeast),
        ("<=", Op::AtMost),
        (">", Op::Above),
        ("<", Op::Below),
    ]
    .iter()
    .find_map(|(symbol, op)| text.find(symbol).map(|at| (at, *op, symbol.len())))
    .ok_or_else(shape)?;
    let (name, number) = (text[..at].trim(), text[at + width..].trim());
    if name.is_empty() || number.is_empty() {
        return Err(shape());
    }
    let threshold = match number.strip_suffix('%') {
        Some(percent) => percent.trim().parse::<f64>().map(|value| value / 100.0),
        None => number.parse::<f64>(),
    }
    .ok()
    .filter(|value| value.is_finite())
    .ok_or_else(|| format!("rule \"{text}\": \"{number}\" is not a number"))?;
    let metric = MetricPattern::parse(name).map_err(|error| format!("rule \"{text}\": {error}"))?;
    let agent = match agent {
        None => AgentScope::All,
        Some("*") => AgentScope::Each,
        Some(agent) => AgentScope::One(agent.to_string()),
    };
    Ok(Rule {
        text: text.trim().to_string(),
        metric,
        op,
        threshold,
        agent,
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_drift_alert_is_one_line() {
        let config = parse_config("rules = [\"selection.tool_accuracy >= 0.90\"]").unwrap();
        assert_eq!(config.rules.len(), 1);
        let rule = &config.rules[0];
        assert_eq!((rule.op, rule.threshold), (Op::AtLeast, 0.90));
        assert_eq!(rule.metric.as_written(), "selection.tool_accuracy");
        assert_eq!(rule.agent, AgentScope::All);
        assert_eq!(config.diff, DiffOptions::default());
    }

    #[test]
    fn tables_percentages_agents_and_baseline_rules_are_read() {
        let config = parse_config(
            r#"
seed = 3
rules = ["problems.schema.rate <= 1%", "per_tool.*.recall > 0.5"]
[[rule]]
check = "selection.tool_accuracy >= 0.9"
agent = "*"
message = "Tool selection accuracy dropped to {value:.1%}"
[[baseline]]
metric = "per_tool.*.recall"
max_drop = 0.02
"#,
        )
        .unwrap();
        assert_eq!(config.rules[0].threshold, 0.01);
        assert_eq!(config.rules[0].op, Op::AtMost);
        assert_eq!(config.rules[1].op, Op::Above);
        assert_eq!(config.rules[2].agent, AgentScope::Each);
        assert_eq!(config.baseline[0].max_drop, 0.02);
        assert_eq!(config.diff.seed, 3);
    }

    #[test]
    fn a_deeply_nested_config_is_one_short_error() {
        let text = format!("rules = {}{}", "[".repeat(200_000), "]".repeat(200_000));
        let error = parse_config(&text).unwrap_err();
        assert!(
            error.starts_with("TOML parse error at line 1, column "),
            "{error}"
        );
        assert!(error.len() < 200, "{} bytes", error.len());
    }

    #[test]
    fn mistakes_say_what_and_where() {
        for (text, expected) in [
            (
                "rules = [\"selection.tool_accuracy = 0.9\"]",
                "write it as METRIC OP NUMBER",
            ),
            (
                "rules = [\"selection.tool_accuracy >= high\"]",
                "\"high\" is not a number",
            ),
            (
                "rules = [\"selection.acuracy >= 0.9\"]",
                "unknown metric \"selection.acuracy\"",
            ),
            ("rulez = []", "unknown field `rulez`"),
            ("rules = [", "TOML parse error at line 1, column 10: "),
            ("", "the config has no rules"),
            (
                "[[baseline]]\nmetric = \"problems.rate\"\nmax_drop = 2",
                "max_drop must be from 0 to 1",
            ),
        ] {
            let error = parse_config(text).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}
