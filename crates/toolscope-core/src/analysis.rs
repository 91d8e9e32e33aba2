//! An analysis kept in memory: the report, plus the sessions behind it so a viewer can show any
//! session's events, and the findings so the report can be recomputed for a subset (one agent,
//! one tool, one kind of problem) with the same definitions as the whole.
//!
//! ```
//! use toolscope_core::{Analysis, Filter, InputFile, Options, Role};
//!
//! let sessions = br#"{"session_id": "a", "agent_id": "bot-1", "events": [{"type": "tool_use", "name": "f", "args": {}}]}
//! {"session_id": "b", "agent_id": "bot-2", "events": [{"type": "tool_use", "name": "g", "args": {}}]}
//! "#;
//! let input = InputFile::new("s.jsonl", sessions, Role::Traces);
//! let analysis = Analysis::new(&[input], &Options::default(), &mut |_| {});
//! assert_eq!(analysis.report().summary.sessions, 2);
//! let filter = Filter { agent: Some("bot-2".into()), ..Filter::default() };
//! assert_eq!(analysis.filtered(&filter).summary.calls, 1);
//! assert_eq!(analysis.session("a").map(|s| s.events.len()), Some(1));
//! ```

use serde::{Deserialize, Serialize};

use crate::analyze::{run, Parts};
use crate::checks::problem::ProblemKind;
use crate::checks::SessionFindings;
use crate::hashing::{HashMap, HashMapExt, HashSet};
use crate::input::{InputFile, Options};
use crate::judge::in_report::judge_report;
use crate::judge::sample::CallRef;
use crate::judge::verdict_file::merge_verdicts;
use crate::judge::Verdict;
use crate::metrics::outcome::TurnOutcome;
use crate::metrics::selection::{summarize, Selection};
use crate::metrics::task_actions::{summarize_tasks, TaskOutcome};
use crate::metrics::trials::summarize_trials;
use crate::model::{event_positions, Event, Session, ToolDef};
use crate::report::{summarize_checks, Report};

/// What the engine is doing, for a progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Parsing the input files; `done` and `total` count bytes.
    Reading,
    /// Running the checks; `done` and `total` count sessions.
    Checking,
    /// Scoring labelled turns; `done` and `total` count labels.
    Scoring,
}

/// How far the engine is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// The current stage.
    pub stage: Stage,
    /// Units done in this stage.
    pub done: u64,
    /// Units in this stage.
    pub total: u64,
}

/// A subset of the analysis to report on. Empty fields select everything.
///
/// - `agent`: only that agent's sessions.
/// - `tool`: only sessions that call it; only problems, calls and tool rows of that tool; only
///   labelled turns where it was expected or called.
/// - `kind`: only problems of that kind (sessions and calls are all kept, so rates stay "out of
///   all calls").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Filter {
    /// The agent id.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent: Option<String>,
    /// The tool name.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub tool: Option<String>,
    /// The problem kind.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub kind: Option<ProblemKind>,
}

impl Filter {
    /// Whether it selects everything.
    pub fn is_empty(&self) -> bool {
        self.agent.is_none() && self.tool.is_none() && self.kind.is_none()
    }

    pub(crate) fn keeps_session(&self, session: &Session) -> bool {
        self.agent
            .as_ref()
            .is_none_or(|agent| session.agent_id.as_ref() == Some(agent))
            && self
                .tool
                .as_ref()
                .is_none_or(|tool| session.calls().any(|call| &call.name == tool))
    }

    pub(crate) fn keeps_outcome(&self, outcome: &TurnOutcome) -> bool {
        self.agent
            .as_ref()
            .is_none_or(|agent| outcome.agent_id.as_ref() == Some(agent))
            && self.tool.as_ref().is_none_or(|tool| {
                &outcome.actual_tool == tool
                    || &outcome.counted_as == tool
                    || outcome.expected_tool.accepts(tool)
            })
    }

    /// A session's task outcome under the filter: its agent's, with only the tool's actions.
    fn narrow_task(&self, outcome: &TaskOutcome) -> Option<TaskOutcome> {
        let agent_kept = self
            .agent
            .as_ref()
            .is_none_or(|agent| outcome.agent_id.as_ref() == Some(agent));
        if !agent_kept {
            return None;
        }
        let mut outcome = outcome.clone();
        if let Some(tool) = &self.tool {
            outcome.actions.retain(|check| &check.name == tool);
            if outcome.actions.is_empty() {
                return None;
            }
        }
        Some(outcome)
    }

    pub(crate) fn narrow(&self, session: &Session, found: &SessionFindings) -> SessionFindings {
        let mut found = found.clone();
        found.problems.retain(|problem| {
            self.tool.as_ref().is_none_or(|tool| &problem.tool == tool)
                && self.kind.is_none_or(|kind| problem.kind == kind)
        });
        if let Some(tool) = &self.tool {
            found.calls = session.calls().filter(|call| &call.name == tool).count();
            found.errors_by_tool.retain(|name, _| name == tool);
        }
        found
    }
}

/// An analysis with its sessions and findings kept.
#[derive(Debug)]
pub struct Analysis {
    parts: Parts,
    report: Report,
}

impl Analysis {
    /// Reads and analyses the inputs as [`crate::analyze`] does, telling `progress` how far it is.
    pub fn new(
        inputs: &[InputFile<'_>],
        options: &Options,
        progress: &mut dyn FnMut(Progress),
    ) -> Analysis {
        run(inputs, options, progress).into_analysis()
    }

    pub(crate) fn from_parts(parts: Parts) -> Analysis {
        let mut analysis = Analysis {
            parts,
            report: empty_report(),
        };
        analysis.report = analysis.filtered(&Filter::default());
        analysis
    }

    /// The whole report: what `toolscope report --json` prints for the same inputs.
    pub fn report(&self) -> &Report {
        &self.report
    }

    /// The report for a subset; with an empty filter, the whole report.
    pub fn filtered(&self, filter: &Filter) -> Report {
        let parts = &self.parts;
        let rows = parts
            .sessions
            .iter()
            .zip(&parts.findings)
            .filter(|(session, _)| filter.keeps_session(session))
            .map(|(session, (found, is_without_catalog))| {
                (session, filter.narrow(session, found), *is_without_catalog)
            });
        let (summary, sessions, mut tools, problems) = summarize_checks(rows);
        if let Some(tool) = &filter.tool {
            tools.retain(|usage| &usage.tool == tool);
        }
        let selection = parts.outcomes.as_ref().map(|outcomes| {
            let kept = outcomes
                .iter()
                .filter(|outcome| filter.keeps_outcome(outcome))
                .cloned()
                .collect();
            Selection {
                args_mode: parts.options.args_mode,
                ..summarize(kept, parts.options.min_support)
            }
        });
        let tasks = parts.task_outcomes.as_ref().map(|outcomes| {
            summarize_tasks(
                outcomes
                    .iter()
                    .filter_map(|outcome| filter.narrow_task(outcome))
                    .collect(),
            )
        });
        let kept_sessions: HashSet<&str> =
            sessions.iter().map(|row| row.session_id.as_str()).collect();
        let keeps_verdict = |session_id: &str, tool: Option<&str>| {
            (filter.is_empty() || kept_sessions.contains(session_id))
                && match (&filter.tool, tool) {
                    (Some(wanted), Some(tool)) => wanted == tool,
                    _ => true,
                }
        };
        let verdicts: Vec<_> = parts
            .verdicts
            .iter()
            .filter(|verdict| keeps_verdict(&verdict.session_id, Some(&verdict.tool)))
            .cloned()
            .collect();
        let human: Vec<_> = parts
            .human_verdicts
            .iter()
            .filter(|verdict| keeps_verdict(&verdict.session_id, None))
            .cloned()
            .collect();
        let judge = judge_report(&verdicts, &human, &parts.sessions, &problems);
        let trials = summarize_trials(
            parts
                .sessions
                .iter()
                .filter(|session| filter.keeps_session(session)),
        );
        let descriptions = crate::findings::tool_descriptions(
            parts.catalog_tools.as_deref(),
            parts
                .sessions
                .iter()
                .filter(|session| filter.keeps_session(session)),
        );
        let mut report = Report {
            toolscope_version: crate::VERSION.to_string(),
            inputs: parts.inputs.clone(),
            summary,
            problems,
            sessions,
            tools,
            selection,
            tasks,
            drift: parts.drift.clone(),
            diagnostics: parts.diagnostics.clone(),
            judge,
            trials,
            findings: Vec::new(),
            omitted: None,
        };
        report.findings = crate::findings::findings(&report, &descriptions);
        report
    }

    /// Adds a judge's verdicts (from a run in the page) to the kept ones and recomputes the whole
    /// report, so it is what `toolscope report --verdicts` gives with the verdicts in a file
    /// (apart from `inputs`, which lists only files). Filtered reports include them too.
    ///
    /// As a later verdicts file ([`merge_verdicts`]): a verdict on a call and criterion that
    /// already has one by the same model and template replaces it (a second run of the same calls
    /// does not count them twice); the others are appended.
    pub fn add_verdicts(&mut self, verdicts: Vec<Verdict>) {
        merge_verdicts(&mut self.parts.verdicts, verdicts);
        self.report = self.filtered(&Filter::default());
    }

    /// The calls a filter keeps: every call of the sessions it keeps, only its tool's when it
    /// names one, in session order (what "the calls of the current filter" means to the judge).
    pub fn calls_kept_by(&self, filter: &Filter) -> Vec<CallRef> {
        self.parts
            .sessions
            .iter()
            .flat_map(|session| calls_kept_by(session, filter))
            .collect()
    }

    /// The calls made in the given turns (session id, 0-based turn), in session order: what
    /// judging a heatmap cell's turns means. A turn with no call adds nothing.
    pub fn calls_in_turns(&self, turns: &[(String, usize)]) -> Vec<CallRef> {
        let wanted = turns_by_session(turns);
        self.parts
            .sessions
            .iter()
            .flat_map(|session| calls_in_turns(session, &wanted))
            .collect()
    }

    /// One session's events, by id (as the report names it, `#2` suffixes included).
    pub fn session(&self, session_id: &str) -> Option<&Session> {
        self.parts
            .sessions
            .iter()
            .find(|session| session.session_id == session_id)
    }

    /// Every session, in the report's order (the judge chooses calls among them).
    pub fn sessions(&self) -> &[Session] {
        &self.parts.sessions
    }

    /// The tools the catalog files define, as given; `None` when no catalog file was given
    /// (each session's own tools then apply). The judge shows these to the model for sessions
    /// that carry no tools of their own.
    pub fn catalog_tools(&self) -> Option<&[ToolDef]> {
        self.parts.catalog_tools.as_deref()
    }

    /// The baseline report given to compare with (a file of role `baseline`), if any.
    pub fn baseline(&self) -> Option<&Report> {
        self.parts.baseline.as_deref()
    }

    /// The agents, in order of first appearance.
    pub fn agents(&self) -> Vec<&str> {
        let mut agents: Vec<&str> = Vec::new();
        for session in &self.parts.sessions {
            if let Some(agent) = session.agent_id.as_deref() {
                if !agents.contains(&agent) {
                    agents.push(agent);
                }
            }
        }
        agents
    }
}

fn empty_report() -> Report {
    Report {
        toolscope_version: crate::VERSION.to_string(),
        inputs: Vec::new(),
        summary: Default::default(),
        problems: Vec::new(),
        sessions: Vec::new(),
        tools: Vec::new(),
        selection: None,
        tasks: None,
        drift: Vec::new(),
        diagnostics: Vec::new(),
        judge: None,
        trials: None,
        findings: Vec::new(),
        omitted: None,
    }
}

/// The calls of `session` that `filter` keeps ([`Analysis::calls_kept_by`] for one session).
pub(crate) fn calls_kept_by<'a>(
    session: &'a Session,
    filter: &'a Filter,
) -> impl Iterator<Item = CallRef> + 'a {
    let is_kept = filter.keeps_session(session);
    session
        .calls()
        .enumerate()
        .filter(move |(_, call)| {
            is_kept && filter.tool.as_ref().is_none_or(|tool| &call.name == tool)
        })
        .map(move |(index, call)| CallRef {
            session_id: session.session_id.clone(),
            step: index + 1,
            tool: call.name.clone(),
        })
}

/// Turns (session id, 0-based turn) grouped by session, for [`calls_in_turns`].
pub(crate) fn turns_by_session(turns: &[(String, usize)]) -> HashMap<&str, HashSet<usize>> {
    let mut wanted: HashMap<&str, HashSet<usize>> = HashMap::new();
    for (session_id, turn) in turns {
        wanted.entry(session_id.as_str()).or_default().insert(*turn);
    }
    wanted
}

/// The calls of `session` made in the turns `wanted` names for it ([`Analysis::calls_in_turns`]
/// for one session; `wanted` from [`turns_by_session`]).
pub(crate) fn calls_in_turns(
    session: &Session,
    wanted: &HashMap<&str, HashSet<usize>>,
) -> Vec<CallRef> {
    let Some(turns) = wanted.get(session.session_id.as_str()) else {
        return Vec::new();
    };
    session
        .events
        .iter()
        .zip(event_positions(session))
        .filter_map(|(event, (turn, step))| match (event, step) {
            (Event::ToolUse(call), Some(step)) if turns.contains(&turn) => Some(CallRef {
                session_id: session.session_id.clone(),
                step,
                tool: call.name.clone(),
            }),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::verdict_file::write_verdicts;
    use crate::judge::{Criterion, Outcome};
    use crate::Role;

    const SESSIONS: &[u8] = br#"{"session_id": "s1", "events": [{"type": "user", "content": "where is order 7Q2ZK9XA?"}, {"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}}, {"type": "tool_result", "call_id": "c1", "status": "ok", "content": "shipped"}]}
"#;

    fn verdict(criterion: Criterion, outcome: Outcome) -> Verdict {
        let reason = "the order id is the user's";
        crate::test_support::verdict("s1", 1, "lookup_order", criterion, outcome, reason)
    }

    #[test]
    fn a_later_verdicts_file_replaces_an_earlier_ones_verdict_on_the_same_item() {
        let first = vec![
            verdict(Criterion::ArgsGrounded, Outcome::Pass),
            verdict(Criterion::RightTool, Outcome::Pass),
        ];
        let second = vec![verdict(Criterion::RightTool, Outcome::Fail)];
        let (a, b) = (write_verdicts(&first), write_verdicts(&second));
        let both = Analysis::new(
            &[
                InputFile::new("s.jsonl", SESSIONS, Role::Traces),
                InputFile::new("a.jsonl", a.as_bytes(), Role::Verdicts),
                InputFile::new("b.jsonl", b.as_bytes(), Role::Verdicts),
            ],
            &Options::default(),
            &mut |_| {},
        );
        let judge = both.report().judge.as_ref().unwrap();
        let kept: Vec<(Criterion, Outcome)> = judge
            .verdicts
            .iter()
            .map(|verdict| (verdict.criterion, verdict.verdict))
            .collect();
        assert_eq!(
            kept,
            [
                (Criterion::ArgsGrounded, Outcome::Pass),
                (Criterion::RightTool, Outcome::Fail)
            ]
        );
        let warning = both
            .report()
            .diagnostics
            .iter()
            .map(ToString::to_string)
            .find(|text| text.starts_with("b.jsonl"))
            .expect("a warning names the later file");
        assert!(
            warning.contains("1 of its verdicts replace an earlier file's"),
            "{warning}"
        );
        // Adding the second file's verdicts to the first file's analysis gives the same.
        let mut added = Analysis::new(
            &[
                InputFile::new("s.jsonl", SESSIONS, Role::Traces),
                InputFile::new("a.jsonl", a.as_bytes(), Role::Verdicts),
            ],
            &Options::default(),
            &mut |_| {},
        );
        added.add_verdicts(second);
        assert_eq!(added.report().judge, both.report().judge);
    }

    #[test]
    fn added_verdicts_give_the_judge_report_a_verdicts_file_gives() {
        let verdicts = vec![
            verdict(Criterion::ArgsGrounded, Outcome::Pass),
            verdict(Criterion::RightTool, Outcome::Fail),
        ];
        let file = write_verdicts(&verdicts);
        let from_file = Analysis::new(
            &[
                InputFile::new("s.jsonl", SESSIONS, Role::Traces),
                InputFile::new("v.jsonl", file.as_bytes(), Role::Verdicts),
            ],
            &Options::default(),
            &mut |_| {},
        );
        let mut added = Analysis::new(
            &[InputFile::new("s.jsonl", SESSIONS, Role::Traces)],
            &Options::default(),
            &mut |_| {},
        );
        assert!(added.report().judge.is_none());
        added.add_verdicts(verdicts[..1].to_vec());
        added.add_verdicts(verdicts.clone());
        assert!(added.report().judge.is_some());
        assert_eq!(added.report().judge, from_file.report().judge);
        assert_eq!(
            added.filtered(&Filter::default()).judge,
            from_file.report().judge
        );
        assert_eq!(
            added.report().judge.as_ref().unwrap().verdicts.len(),
            2,
            "a verdict on the same call, criterion and model replaces the kept one"
        );
    }
}

#[cfg(test)]
mod calls_kept_tests {
    use super::*;
    use crate::Role;

    const SESSIONS: &[u8] = br#"{"session_id": "a", "agent_id": "x", "events": [{"type": "tool_use", "call_id": "1", "name": "search", "args": {}}, {"type": "tool_use", "call_id": "2", "name": "lookup", "args": {}}, {"type": "tool_use", "call_id": "3", "name": "search", "args": {}}]}
{"session_id": "b", "agent_id": "y", "events": [{"type": "tool_use", "call_id": "1", "name": "search", "args": {}}]}
"#;

    #[test]
    fn a_filter_keeps_the_calls_of_its_sessions_and_tool_with_their_steps() {
        let analysis = Analysis::new(
            &[InputFile::new("s.jsonl", SESSIONS, Role::Traces)],
            &Options::default(),
            &mut |_| {},
        );
        let kept = |filter: Filter| -> Vec<(String, usize)> {
            analysis
                .calls_kept_by(&filter)
                .into_iter()
                .map(|call| (call.session_id, call.step))
                .collect()
        };
        let all = kept(Filter::default());
        assert_eq!(all.len(), 4);
        let by_tool = kept(Filter {
            tool: Some("search".into()),
            ..Filter::default()
        });
        assert_eq!(by_tool, [("a".into(), 1), ("a".into(), 3), ("b".into(), 1)]);
        let by_agent = kept(Filter {
            agent: Some("y".into()),
            ..Filter::default()
        });
        assert_eq!(by_agent, [("b".to_string(), 1)]);
    }

    #[test]
    fn the_calls_of_chosen_turns_are_those_after_each_turns_user_message() {
        let sessions = br#"{"session_id": "t", "events": [{"type": "user", "content": "one"}, {"type": "tool_use", "name": "search", "args": {}}, {"type": "user", "content": "two"}, {"type": "assistant", "content": "no call"}, {"type": "user", "content": "three"}, {"type": "tool_use", "name": "lookup", "args": {}}, {"type": "tool_use", "name": "refund", "args": {}}]}
{"session_id": "u", "events": [{"type": "user", "content": "one"}, {"type": "tool_use", "name": "search", "args": {}}]}
"#;
        let analysis = Analysis::new(
            &[InputFile::new("s.jsonl", sessions, Role::Traces)],
            &Options::default(),
            &mut |_| {},
        );
        let calls: Vec<(String, usize, String)> = analysis
            .calls_in_turns(&[
                ("t".into(), 2),
                ("t".into(), 1),
                ("u".into(), 0),
                ("missing".into(), 0),
            ])
            .into_iter()
            .map(|call| (call.session_id, call.step, call.tool))
            .collect();
        assert_eq!(
            calls,
            [
                ("t".to_string(), 2, "lookup".to_string()),
                ("t".to_string(), 3, "refund".to_string()),
                ("u".to_string(), 1, "search".to_string()),
            ]
        );
    }
}
