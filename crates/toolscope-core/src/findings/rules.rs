//! The rules that turn a report into findings (see the table in [`super`]).

use std::collections::{BTreeMap, BTreeSet};

use super::{Example, Finding, Fix, MAX_EXAMPLES};
use crate::checks::problem::ProblemKind;
use crate::hashing::HashMap;
use crate::judge::{Criterion, Outcome};
use crate::report::Report;

/// Messages quoted as evidence, most frequent first.
const MAX_MESSAGES: usize = 3;

/// One failure mode being gathered.
#[derive(Default)]
struct Group {
    sessions: BTreeSet<String>,
    occurrences: u64,
    agents: BTreeSet<String>,
    messages: BTreeMap<String, u64>,
    examples: Vec<Example>,
}

impl Group {
    fn add(&mut self, agent: Option<&str>, example: Example, message: Option<&str>) {
        self.occurrences += 1;
        self.sessions.insert(example.session_id.clone());
        if let Some(agent) = agent {
            self.agents.insert(agent.to_string());
        }
        if let Some(message) = message {
            *self.messages.entry(message.to_string()).or_default() += 1;
        }
        if self.examples.len() < MAX_EXAMPLES && !self.examples.contains(&example) {
            self.examples.push(example);
        }
    }

    /// The most frequent messages, with their counts.
    fn top_messages(&self) -> Vec<String> {
        let mut messages: Vec<(&String, &u64)> = self.messages.iter().collect();
        crate::sort::sort_by(&mut messages, |a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        messages
            .into_iter()
            .take(MAX_MESSAGES)
            .map(|(message, count)| format!("{count}× {message}"))
            .collect()
    }

    fn finding(self, rule: &str, key: &str, title: String, fix: Fix, fix_detail: &str) -> Finding {
        let evidence = self.top_messages();
        self.finding_with(rule, key, title, fix, fix_detail, evidence)
    }

    fn finding_with(
        self,
        rule: &str,
        key: &str,
        title: String,
        fix: Fix,
        fix_detail: &str,
        evidence: Vec<String>,
    ) -> Finding {
        Finding {
            rule: rule.to_string(),
            id: format!("{rule}:{key}"),
            title,
            fix,
            fix_detail: fix_detail.to_string(),
            sessions: self.sessions.len() as u64,
            occurrences: self.occurrences,
            agents: self.agents.into_iter().collect(),
            evidence,
            examples: self.examples,
        }
    }

    /// "in 12 sessions, 3 agents".
    fn spread(&self) -> String {
        let sessions = plural(self.sessions.len() as u64, "session");
        match self.agents.len() {
            0 | 1 => format!("in {sessions}"),
            agents => format!("in {sessions}, {agents} agents"),
        }
    }
}

fn plural(count: u64, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Each session's agent, by session id, for the sessions that name one.
pub(super) fn agents_of(report: &Report) -> HashMap<&str, &str> {
    report
        .sessions
        .iter()
        .filter_map(|s| Some((s.session_id.as_str(), s.agent_id.as_deref()?)))
        .collect()
}

fn call(session_id: &str, step: usize) -> Example {
    Example {
        session_id: session_id.to_string(),
        step: Some(step),
        turn: None,
    }
}

/// Code problems, grouped by kind and tool (unknown names by the name called, ordering by the
/// rule broken, unhandled errors by agent).
pub(super) fn problems(report: &Report, agents: &HashMap<&str, &str>, found: &mut Vec<Finding>) {
    let mut groups: BTreeMap<(ProblemKind, String), Group> = BTreeMap::new();
    for problem in &report.problems {
        let agent = agents.get(problem.session_id.as_str()).copied();
        let key = match problem.kind {
            ProblemKind::SchemaUndecidable => continue,
            ProblemKind::Order => problem.message.clone(),
            ProblemKind::UnhandledError => agent.unwrap_or("").to_string(),
            _ => problem.tool.clone(),
        };
        let message = match problem.kind {
            ProblemKind::Order | ProblemKind::UnhandledError => None,
            _ => Some(problem.message.as_str()),
        };
        groups.entry((problem.kind, key)).or_default().add(
            agent,
            call(&problem.session_id, problem.step),
            message,
        );
    }
    for ((kind, key), group) in groups {
        let (calls, spread) = (plural(group.occurrences, "call"), group.spread());
        let finding = match kind {
            ProblemKind::Schema => group.finding(
                "schema",
                &key,
                format!("{key} called with arguments its schema rejects: {calls} {spread}"),
                Fix::ToolDescription,
                "say in the tool's and its arguments' descriptions what valid arguments are, and \
                 validate calls against the schema before they run",
            ),
            ProblemKind::MalformedArgs => group.finding(
                "malformed_args",
                &key,
                format!("{key} called with arguments that are not JSON: {calls} {spread}"),
                Fix::Integration,
                "have the model produce arguments with structured outputs or strict tool calling, \
                 and reject malformed calls before they run",
            ),
            ProblemKind::UnknownTool => group.finding(
                "unknown_tool",
                &key,
                format!("{key} called, but the agent has no such tool: {calls} {spread}"),
                Fix::Catalog,
                "give the agent the tool, or correct the prompt or description that names it",
            ),
            ProblemKind::Order => group.finding(
                "order",
                &key,
                format!("{key}: {calls} {spread}"),
                Fix::Prompt,
                "state the required order in the prompt, or enforce it with a runtime policy",
            ),
            ProblemKind::RetryAfterError => group.finding(
                "retry_after_error",
                &key,
                format!("{key} retried unchanged right after an error: {calls} {spread}"),
                Fix::Prompt,
                "tell the agent to change the call or stop after an error, not repeat it",
            ),
            ProblemKind::UnhandledError => {
                let whose = if key.is_empty() {
                    "sessions without an agent id".to_string()
                } else {
                    format!("agent {key}")
                };
                let sessions = plural(group.sessions.len() as u64, "session");
                group.finding(
                    "unhandled_error",
                    &key,
                    format!("tool errors followed by a confident reply in {whose}: {calls} in {sessions}"),
                    Fix::Prompt,
                    "tell the agent to report or retry a failed tool call, never to answer as if \
                     it had succeeded",
                )
            }
            ProblemKind::SchemaUndecidable => continue,
        };
        found.push(finding);
    }
}

/// Tools whose calls return errors.
pub(super) fn tool_errors(report: &Report, found: &mut Vec<Finding>) {
    for usage in report.tools.iter().filter(|usage| usage.errors > 0) {
        let share = usage.errors as f64 / usage.calls.max(1) as f64 * 100.0;
        found.push(Finding {
            rule: "tool_errors".into(),
            id: format!("tool_errors:{}", usage.tool),
            title: format!(
                "errors from {} in {share:.0} % of its calls ({} of {}, in {})",
                usage.tool,
                usage.errors,
                usage.calls,
                plural(usage.sessions_with_errors, "session")
            ),
            fix: Fix::Integration,
            fix_detail: "repair or harden the integration behind the tool (timeouts, rate limits, \
                         bad data); if the errors reject the agent's calls, fix its description"
                .into(),
            sessions: usage.sessions_with_errors,
            occurrences: usage.errors,
            agents: Vec::new(),
            evidence: Vec::new(),
            examples: Vec::new(),
        });
    }
}

/// Labelled turns where the wrong tool, a tool for nothing, or nothing was called.
pub(super) fn selection(
    report: &Report,
    descriptions: &BTreeMap<String, String>,
    found: &mut Vec<Finding>,
) {
    let Some(selection) = &report.selection else {
        return;
    };
    let mut groups: BTreeMap<(String, String), Group> = BTreeMap::new();
    for outcome in selection
        .outcomes
        .iter()
        .filter(|o| o.counted_as != o.actual_tool)
    {
        let example = Example {
            session_id: outcome.session_id.clone(),
            step: None,
            turn: Some(outcome.turn),
        };
        groups
            .entry((outcome.counted_as.clone(), outcome.actual_tool.clone()))
            .or_default()
            .add(outcome.agent_id.as_deref(), example, None);
    }
    for ((expected, actual), group) in groups {
        let (turns, spread) = (plural(group.occurrences, "turn"), group.spread());
        let key = format!("{expected}→{actual}");
        let finding = if expected == "none" {
            group.finding(
                "over_calling",
                &key,
                format!("{actual} called where no tool was needed: {turns} {spread}"),
                Fix::ToolDescription,
                "say in the tool's description when not to use it, and in the prompt to answer \
                 directly when no tool is needed",
            )
        } else if actual == "none" {
            group.finding(
                "under_calling",
                &key,
                format!("no tool called where {expected} was needed: {turns} {spread}"),
                Fix::Prompt,
                "say in the prompt (and the tool's description) which requests need the tool",
            )
        } else {
            let evidence = side_by_side(&expected, &actual, descriptions);
            group.finding_with(
                "confused_tools",
                &key,
                format!("{actual} chosen where {expected} was expected: {turns} {spread}"),
                Fix::ToolDescription,
                "make the two descriptions say when to use each and when not to",
                evidence,
            )
        };
        found.push(finding);
    }
}

/// Both tools' descriptions, and the words they share.
fn side_by_side(
    expected: &str,
    actual: &str,
    descriptions: &BTreeMap<String, String>,
) -> Vec<String> {
    let (Some(wanted), Some(chosen)) = (descriptions.get(expected), descriptions.get(actual))
    else {
        return vec![format!(
            "no descriptions to compare: neither the catalog nor the sessions describe both \
             {expected} and {actual}"
        )];
    };
    let words = |text: &str| -> BTreeSet<String> {
        crate::sort::collect_by_insert(
            text.split(|c: char| !c.is_alphanumeric())
                .filter(|word| word.chars().count() > 3)
                .map(str::to_lowercase),
        )
    };
    let shared: Vec<String> = words(wanted)
        .intersection(&words(chosen))
        .cloned()
        .collect();
    let mut evidence = vec![
        format!("{expected}: {wanted}"),
        format!("{actual}: {chosen}"),
    ];
    if !shared.is_empty() {
        evidence.push(format!(
            "words both descriptions use: {}",
            shared.join(", ")
        ));
    }
    evidence
}

/// Differences between the tools the agent saw and the catalog.
pub(super) fn drift(report: &Report, found: &mut Vec<Finding>) {
    for item in &report.drift {
        let kind = serde_json::to_value(item.kind)
            .ok()
            .and_then(|value| value.as_str().map(String::from))
            .unwrap_or_default();
        found.push(Finding {
            rule: "schema_drift".into(),
            id: format!("schema_drift:{}:{kind}:{}", item.tool, item.detail),
            title: format!(
                "{}: the agent's tool differs from the catalog ({}) in {}",
                item.tool,
                item.detail,
                plural(item.sessions, "session")
            ),
            fix: Fix::Catalog,
            fix_detail: "load the agent's tools and the checker's schemas from the same source"
                .into(),
            sessions: item.sessions,
            occurrences: item.sessions,
            agents: Vec::new(),
            evidence: Vec::new(),
            examples: vec![Example {
                session_id: item.example_session.clone(),
                step: None,
                turn: None,
            }],
        });
    }
}

/// Tools the judge failed on a criterion.
pub(super) fn judge(report: &Report, agents: &HashMap<&str, &str>, found: &mut Vec<Finding>) {
    let Some(judge) = &report.judge else {
        return;
    };
    let mut groups: BTreeMap<(Criterion, String), (Group, u64)> = BTreeMap::new();
    for verdict in &judge.verdicts {
        let entry = groups
            .entry((verdict.criterion, verdict.tool.clone()))
            .or_default();
        match verdict.verdict {
            Outcome::Fail => entry.0.add(
                agents.get(verdict.session_id.as_str()).copied(),
                call(&verdict.session_id, verdict.step),
                Some(&verdict.reason),
            ),
            Outcome::Pass => {}
            Outcome::Unscored => continue,
        }
        entry.1 += 1;
    }
    for ((criterion, tool), (group, scored)) in groups {
        if group.occurrences == 0 {
            continue;
        }
        let (what, fix, detail) = match criterion {
            Criterion::CallDecision => (
                "called when it was not needed (or the agent should have asked)",
                Fix::ToolDescription,
                "say in the tool's description when not to use it, and in the prompt when to ask",
            ),
            Criterion::RightTool => (
                "not the right tool for the request",
                Fix::ToolDescription,
                "make the descriptions say which requests each tool is for",
            ),
            Criterion::ArgsGrounded => (
                "called with arguments not taken from the conversation",
                Fix::Prompt,
                "tell the agent to ask for missing values instead of inventing them",
            ),
            Criterion::ResultUsed => (
                "its result not reflected in the reply",
                Fix::Prompt,
                "tell the agent to answer from the tool's result, errors included",
            ),
        };
        let title = format!(
            "{tool} {what} (judge, {}): {} of {scored} judged calls {}",
            criterion.as_str(),
            group.occurrences,
            group.spread()
        );
        found.push(group.finding(
            &format!("judge_{}", criterion.as_str()),
            &tool,
            title,
            fix,
            detail,
        ));
    }
}
