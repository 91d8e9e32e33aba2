//! Findings: what went wrong across all sessions, grouped into recurring failure modes, each
//! with its evidence, the fix it needs and who owns that fix, in the first seed's spirit ("the
//! right fix may be a clearer tool description, stricter schema, prompt change or integration
//! repair"). Deterministic rules over the report (and the tools' descriptions); judge verdicts
//! join in when present. Ranked by how many sessions they touch, then how many calls or turns.
//!
//! | rule | one finding per | fix |
//! |---|---|---|
//! | `schema` | tool whose calls fail its schema | tool description (say what valid arguments are; validate before running) |
//! | `malformed_args` | tool whose arguments are not JSON | integration (structured outputs, strict tool calling) |
//! | `unknown_tool` | name called that the agent does not have | catalog |
//! | `order` | ordering rule broken | prompt (or a runtime policy) |
//! | `retry_after_error` | tool retried unchanged after an error | prompt |
//! | `unhandled_error` | agent replying confidently after errors | prompt |
//! | `tool_errors` | tool whose calls return errors | integration |
//! | `confused_tools` | tool chosen where another was labelled | tool description (both shown side by side) |
//! | `over_calling` | tool called where no tool was needed | tool description (say when not to use it) |
//! | `under_calling` | no call where a tool was needed | prompt |
//! | `schema_drift` | difference between the agent's tools and the catalog | catalog |
//! | `judge_*` | tool with judge fails on a criterion | by criterion |

mod rules;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::hashing::HashMap;
use crate::report::Report;

/// Most examples kept per finding.
pub const MAX_EXAMPLES: usize = 10;

/// Who fixes it: the kind of change the finding needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fix {
    /// A clearer tool description (or argument descriptions).
    ToolDescription,
    /// A stricter or corrected schema.
    Schema,
    /// A change to the agent's prompt.
    Prompt,
    /// A repair in the integration behind the tool, or in how calls are produced.
    Integration,
    /// The tool catalog: what tools the agent is given, from one source.
    Catalog,
}

impl Fix {
    /// As shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Fix::ToolDescription => "tool description",
            Fix::Schema => "schema",
            Fix::Prompt => "prompt",
            Fix::Integration => "integration",
            Fix::Catalog => "catalog",
        }
    }
}

/// A place a finding was seen: a call (`step`) or a labelled turn (`turn`) of a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Example {
    /// The session.
    pub session_id: String,
    /// The call's step, for a finding about calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The turn, for a finding about labelled turns.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
}

/// One recurring failure mode.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Finding {
    /// The rule that found it (`schema`, `confused_tools`, `judge_args_grounded`, …).
    pub rule: String,
    /// A stable id within a report (`schema:issue_refund`), for links and comparisons.
    pub id: String,
    /// One line saying what went wrong and how often.
    pub title: String,
    /// The change it needs.
    pub fix: Fix,
    /// What to change, in a sentence.
    pub fix_detail: String,
    /// Sessions it touches.
    pub sessions: u64,
    /// Calls (or labelled turns) it touches.
    pub occurrences: u64,
    /// The agents it was seen in (sessions without an agent id are not named).
    pub agents: Vec<String>,
    /// What shows it: the most frequent messages, the tools' descriptions side by side, …
    pub evidence: Vec<String>,
    /// Where to look: up to [`MAX_EXAMPLES`], worst sessions first.
    pub examples: Vec<Example>,
}

/// The findings of `report`, ranked; `descriptions` are the tools' descriptions by name (from
/// the catalog, else from what the sessions carry), shown for confused tools.
pub fn findings(report: &Report, descriptions: &BTreeMap<String, String>) -> Vec<Finding> {
    findings_with_agents(report, &rules::agents_of(report), descriptions)
}

/// [`findings`] for a report whose session rows are not kept: `agents` gives the agent of each
/// session with problems or verdicts (by session id) that names one.
pub(crate) fn findings_with_agents(
    report: &Report,
    agents: &HashMap<&str, &str>,
    descriptions: &BTreeMap<String, String>,
) -> Vec<Finding> {
    let mut found = Vec::new();
    rules::problems(report, agents, &mut found);
    rules::tool_errors(report, &mut found);
    rules::selection(report, descriptions, &mut found);
    rules::drift(report, &mut found);
    rules::judge(report, agents, &mut found);
    crate::sort::sort_by(&mut found, |a, b| {
        b.sessions
            .cmp(&a.sessions)
            .then(b.occurrences.cmp(&a.occurrences))
            .then_with(|| a.id.cmp(&b.id))
    });
    found
}

/// The tools' descriptions by name: the catalog's when one was given, else the first
/// description a session's tools give for each name.
pub fn tool_descriptions<'a>(
    catalog: Option<&[crate::model::ToolDef]>,
    sessions: impl IntoIterator<Item = &'a crate::model::Session>,
) -> BTreeMap<String, String> {
    let mut last: Option<*const Vec<crate::model::ToolDef>> = None;
    let lists = sessions.into_iter().filter_map(move |session| {
        let tools = session.tools.as_ref()?;
        // Sessions usually share one list: read each list once.
        let pointer = std::sync::Arc::as_ptr(tools);
        (last != Some(pointer)).then(|| {
            last = Some(pointer);
            tools.as_slice()
        })
    });
    tool_descriptions_of_lists(catalog, lists)
}

/// [`tool_descriptions`] from the sessions' tool lists, in the sessions' order.
pub(crate) fn tool_descriptions_of_lists<'a>(
    catalog: Option<&[crate::model::ToolDef]>,
    lists: impl IntoIterator<Item = &'a [crate::model::ToolDef]>,
) -> BTreeMap<String, String> {
    let mut descriptions = BTreeMap::new();
    match catalog {
        Some(catalog) => add_descriptions(&mut descriptions, catalog),
        None => lists
            .into_iter()
            .for_each(|tools| add_descriptions(&mut descriptions, tools)),
    }
    descriptions
}

/// Adds the descriptions `tools` give for names that have none yet (the first one wins).
pub(crate) fn add_descriptions(
    descriptions: &mut BTreeMap<String, String>,
    tools: &[crate::model::ToolDef],
) {
    for tool in tools {
        if let Some(description) = tool.description.as_ref().filter(|d| !d.trim().is_empty()) {
            descriptions
                .entry(tool.name.clone())
                .or_insert_with(|| description.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Analysis, InputFile, Options, Role};

    /// Three agents' sessions: bad refunds (schema), a confident reply after an error, a
    /// confused lookup, environment errors from get_stock.
    fn report() -> Report {
        let mut sessions = String::new();
        let mut labels = String::new();
        for i in 0..6 {
            let agent = ["a", "b", "c"][i % 3];
            sessions.push_str(&format!(
                r#"{{"session_id": "r{i}", "agent_id": "{agent}", "events": [{{"type": "user", "content": "refund order 7Q{i}"}}, {{"type": "tool_use", "name": "issue_refund", "args": {{"amount": -{i}}}}}, {{"type": "tool_result", "status": "error", "content": "rejected"}}, {{"type": "assistant", "content": "Your refund is done!"}}]}}"#
            ));
            sessions.push('\n');
        }
        for i in 0..4 {
            sessions.push_str(&format!(
                r#"{{"session_id": "s{i}", "agent_id": "b", "events": [{{"type": "user", "content": "where is 7Q{i}?"}}, {{"type": "tool_use", "name": "search_docs", "args": {{"query": "7Q{i}"}}}}, {{"type": "tool_result", "status": "ok", "content": "…"}}]}}"#
            ));
            sessions.push('\n');
            labels.push_str(&format!(
                "{{\"session_id\": \"s{i}\", \"turn\": 0, \"expected_tool\": \"lookup_order\"}}\n"
            ));
        }
        let tools = br#"[{"name": "issue_refund", "description": "Refund an order.", "parameters": {"type": "object", "properties": {"amount": {"type": "number", "exclusiveMinimum": 0}}}},
            {"name": "lookup_order", "description": "Look up an order by its id and return its status.", "parameters": {"type": "object"}},
            {"name": "search_docs", "description": "Search the help docs for an order question.", "parameters": {"type": "object"}}]"#;
        Analysis::new(
            &[
                InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces),
                InputFile::new("tools.json", tools, Role::Catalog),
                InputFile::new("l.jsonl", labels.as_bytes(), Role::Labels),
            ],
            &Options::default(),
            &mut |_| {},
        )
        .report()
        .clone()
    }

    fn by_id<'a>(found: &'a [Finding], id: &str) -> &'a Finding {
        found
            .iter()
            .find(|finding| finding.id == id)
            .unwrap_or_else(|| {
                panic!(
                    "no {id} in {:?}",
                    found.iter().map(|f| &f.id).collect::<Vec<_>>()
                )
            })
    }

    #[test]
    fn failure_modes_are_grouped_ranked_by_sessions_and_carry_their_fix_and_evidence() {
        let report = report();
        let found = &report.findings;
        // Five of six refunds fail the schema (amount 0 is not > 0 either, so all six).
        let schema = by_id(found, "schema:issue_refund");
        assert_eq!((schema.sessions, schema.occurrences), (6, 6));
        assert_eq!(schema.agents, ["a", "b", "c"]);
        assert_eq!(schema.fix, Fix::ToolDescription);
        assert_eq!(schema.title, "issue_refund called with arguments its schema rejects: 6 calls in 6 sessions, 3 agents");
        assert_eq!(schema.evidence.len(), 3, "the three most frequent messages");
        assert_eq!(
            schema.examples[0],
            Example {
                session_id: schema.examples[0].session_id.clone(),
                step: Some(1),
                turn: None
            }
        );
        // Confident replies after errors, one finding per agent.
        let unhandled = by_id(found, "unhandled_error:b");
        assert_eq!(unhandled.sessions, 2);
        assert_eq!(unhandled.fix, Fix::Prompt);
        assert!(unhandled
            .title
            .starts_with("tool errors followed by a confident reply in agent b"));
        // The tool's errors: integration.
        let errors = by_id(found, "tool_errors:issue_refund");
        assert_eq!(
            (errors.sessions, errors.occurrences, errors.fix),
            (6, 6, Fix::Integration)
        );
        assert!(errors
            .title
            .starts_with("errors from issue_refund in 100 % of its calls (6 of 6, in 6 sessions)"));
        // The confusion, with both descriptions side by side and the words they share.
        let confused = by_id(found, "confused_tools:lookup_order→search_docs");
        assert_eq!((confused.sessions, confused.occurrences), (4, 4));
        assert_eq!(
            confused.evidence,
            [
                "lookup_order: Look up an order by its id and return its status.",
                "search_docs: Search the help docs for an order question.",
                "words both descriptions use: order",
            ]
        );
        assert_eq!(confused.examples.len(), 4);
        assert!(confused
            .examples
            .iter()
            .all(|example| example.turn == Some(0)));
        // Ranked: most sessions first, then occurrences, then id.
        let ranks: Vec<(u64, u64)> = found.iter().map(|f| (f.sessions, f.occurrences)).collect();
        let mut sorted = ranks.clone();
        crate::sort::sort_by(&mut sorted, |a, b| b.cmp(a));
        assert_eq!(ranks, sorted);
    }

    #[test]
    fn a_filter_recomputes_findings_on_its_sessions() {
        let sessions = br#"{"session_id": "x", "agent_id": "a", "events": [{"type": "tool_use", "name": "nope", "args": {}}]}
{"session_id": "y", "agent_id": "b", "events": [{"type": "tool_use", "name": "nope", "args": {}}]}
"#;
        let tools = br#"[{"name": "known", "parameters": {"type": "object"}}]"#;
        let analysis = Analysis::new(
            &[
                InputFile::new("s.jsonl", sessions, Role::Traces),
                InputFile::new("tools.json", tools, Role::Catalog),
            ],
            &Options::default(),
            &mut |_| {},
        );
        assert_eq!(
            by_id(&analysis.report().findings, "unknown_tool:nope").sessions,
            2
        );
        let only_a = analysis.filtered(&crate::Filter {
            agent: Some("a".into()),
            ..crate::Filter::default()
        });
        assert_eq!(by_id(&only_a.findings, "unknown_tool:nope").sessions, 1);
    }

    #[test]
    fn judge_fails_join_as_findings_per_tool_and_criterion() {
        let sessions = br#"{"session_id": "x", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "name": "issue_refund", "args": {"amount": 5}}]}
{"session_id": "y", "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "name": "issue_refund", "args": {"amount": 9}}]}
"#;
        let verdict = |session: &str, outcome: &str| {
            format!(
                r#"{{"session_id": "{session}", "step": 1, "tool": "issue_refund", "criterion": "args_grounded", "verdict": "{outcome}", "reason": "the amount is invented", "model": "m", "template": {{"id": "t", "sha256": "0"}}, "prompt_sha256": "1"}}"#
            )
        };
        let verdicts = format!("{}\n{}\n", verdict("x", "fail"), verdict("y", "pass"));
        let analysis = Analysis::new(
            &[
                InputFile::new("s.jsonl", sessions, Role::Traces),
                InputFile::new("v.jsonl", verdicts.as_bytes(), Role::Verdicts),
            ],
            &Options::default(),
            &mut |_| {},
        );
        let judged = by_id(
            &analysis.report().findings,
            "judge_args_grounded:issue_refund",
        );
        assert_eq!(
            (judged.sessions, judged.occurrences, judged.fix),
            (1, 1, Fix::Prompt)
        );
        assert_eq!(
            judged.title,
            "issue_refund called with arguments not taken from the conversation (judge, args_grounded): 1 of 2 judged calls in 1 session"
        );
        assert_eq!(judged.evidence, ["1× the amount is invented"]);
    }
}
