//! The judge on sessions that stream ([`crate::visit_sessions`]): it never holds every session.
//! The calls to judge are chosen in one reading of the inputs, from every call's reference alone
//! ([`choose_streamed`]: the same calls [`super::sample::choose_calls`] picks on the whole
//! [`crate::Analysis`]); a second reading keeps only the sessions that hold a chosen call
//! ([`read_judged`]), for their prompts and the evidence checks; the verdicts then go into the
//! report alone ([`super::in_report::add_verdicts`]). Memory holds every call in eight bytes
//! (a [`CallList`]: each session's id and tool's name once) and the judged sessions, not the
//! input's every session (4–7× the input).

use super::call_list::CallList;
use super::sample::{choose_among, CallRef, Selection};
use crate::analysis::{calls_in_turns, calls_kept_by, turns_by_session, Filter, Progress};
use crate::analyze_read::{visit_sessions, ReadAnalysis, Source};
use crate::hashing::{HashMap, HashMapExt, HashSet};
use crate::input::{Options, ReadError};
use crate::model::{Session, ToolDef};
use crate::{Analysis, Report};

use super::Verdict;

/// Which calls to judge, as the page and the CLI ask for them.
#[derive(Debug, Clone, PartialEq)]
pub enum Wanted {
    /// A selection ([`Selection`]) among every call.
    Selection(Selection),
    /// The calls a filter keeps ([`Analysis::calls_kept_by`]).
    KeptBy(Filter),
    /// The calls made in these turns (session id, 0-based turn; [`Analysis::calls_in_turns`]).
    InTurns(Vec<(String, usize)>),
}

impl Wanted {
    /// The calls chosen on a whole analysis: what [`choose_streamed`] gives on the same inputs.
    pub fn on_analysis(&self, analysis: &Analysis) -> Vec<CallRef> {
        let selection = match self {
            Wanted::Selection(selection) => selection.clone(),
            Wanted::KeptBy(filter) => Selection::Calls(analysis.calls_kept_by(filter)),
            Wanted::InTurns(turns) => Selection::Calls(analysis.calls_in_turns(turns)),
        };
        super::sample::choose_calls(analysis.sessions(), &analysis.report().problems, &selection)
    }
}

/// What a reading of streamed inputs gave: the sessions' calls or sessions, or, when the inputs
/// did not stream after all, the whole analysis (the caller then judges on it).
pub enum Read<T> {
    /// The sessions streamed.
    Streamed(T),
    /// They did not: every session was kept.
    Whole(Box<Analysis>),
}

/// What [`choose_streamed`] gives when the sessions streamed.
#[derive(Debug)]
pub struct Chosen {
    /// The report of the reading (the summary report: every problem and diagnostic).
    pub report: Box<Report>,
    /// The calls chosen, in session and step order.
    pub calls: Vec<CallRef>,
}

/// The calls `wanted` picks among the sessions of `sources`, read without keeping them, with the
/// report of that reading (the summary report, [`crate::analyze_read_without_rows`]: every
/// problem, which [`Selection::OnlyProblems`] reads, and every diagnostic).
pub fn choose_streamed(
    sources: Vec<Source<'_>>,
    options: &Options,
    wanted: &Wanted,
    progress: &mut dyn FnMut(Progress),
) -> Result<Read<Chosen>, ReadError> {
    let turns = match wanted {
        Wanted::InTurns(turns) => turns_by_session(turns),
        _ => HashMap::new(),
    };
    // Every call, for a selection among them; only the calls wanted, for the others.
    let mut every_call = CallList::default();
    let mut calls: Vec<CallRef> = Vec::new();
    let mut visit = |session: &Session, _: Option<&[ToolDef]>| match wanted {
        Wanted::Selection(_) => every_call.push_session(session),
        Wanted::KeptBy(filter) => calls.extend(calls_kept_by(session, filter)),
        Wanted::InTurns(_) => calls.extend(calls_in_turns(session, &turns)),
    };
    Ok(
        match visit_sessions(sources, options, &mut visit, progress)? {
            ReadAnalysis::Kept(analysis) => Read::Whole(analysis),
            ReadAnalysis::Streamed(report) => {
                let chosen = match wanted {
                    Wanted::Selection(selection) => {
                        choose_among(&every_call, &report.problems, selection)
                    }
                    // Already the calls wanted, in session order.
                    _ => calls,
                };
                Read::Streamed(Chosen {
                    report,
                    calls: chosen,
                })
            }
        },
    )
}

/// The sessions a judge run needs, read again: those holding a chosen call, and the catalog
/// files' tools (the prompt shows them for sessions without their own).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Judged {
    /// The sessions holding a chosen call, in the inputs' order.
    pub sessions: Vec<Session>,
    /// The catalog files' tools; None when no catalog file was given.
    pub catalog: Option<Vec<ToolDef>>,
}

impl Judged {
    /// Session `session_id`, if it holds a chosen call.
    pub fn session(&self, session_id: &str) -> Option<&Session> {
        self.sessions
            .iter()
            .find(|session| session.session_id == session_id)
    }

    /// The sessions by id, for looking many calls up.
    pub fn by_id(&self) -> HashMap<&str, &Session> {
        self.sessions
            .iter()
            .map(|session| (session.session_id.as_str(), session))
            .collect()
    }
}

/// The sessions of `sources` that hold a call of `chosen`, read again, with the catalog.
pub fn read_judged(
    sources: Vec<Source<'_>>,
    options: &Options,
    chosen: &[CallRef],
    progress: &mut dyn FnMut(Progress),
) -> Result<Read<Judged>, ReadError> {
    let wanted: HashSet<&str> = chosen.iter().map(|call| call.session_id.as_str()).collect();
    let mut judged = Judged::default();
    let mut catalog_seen = false;
    let mut visit = |session: &Session, catalog: Option<&[ToolDef]>| {
        if !catalog_seen {
            judged.catalog = catalog.map(<[ToolDef]>::to_vec);
            catalog_seen = true;
        }
        if wanted.contains(session.session_id.as_str()) {
            judged.sessions.push(session.clone());
        }
    };
    Ok(
        match visit_sessions(sources, options, &mut visit, progress)? {
            ReadAnalysis::Kept(analysis) => Read::Whole(analysis),
            ReadAnalysis::Streamed(_) => Read::Streamed(judged),
        },
    )
}

/// Adds to `report`, the report under `filter` of streamed inputs ([`crate::read_report_under`]),
/// the run verdicts `verdicts` that [`Analysis::filtered`] would keep under it (those on its
/// sessions' rows, of its tool when it names one), as [`super::in_report::add_verdicts`] adds
/// them to the whole report.
pub fn add_verdicts_under(report: &mut Report, filter: &Filter, verdicts: &[Verdict]) {
    let kept: HashSet<&str> = report
        .sessions
        .iter()
        .map(|row| row.session_id.as_str())
        .collect();
    let under: Vec<Verdict> = verdicts
        .iter()
        .filter(|verdict| {
            (filter.is_empty() || kept.contains(verdict.session_id.as_str()))
                && filter
                    .tool
                    .as_ref()
                    .is_none_or(|tool| tool == &verdict.tool)
        })
        .cloned()
        .collect();
    super::in_report::add_verdicts(report, under);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::cache::VerdictCache;
    use crate::judge::run::{plan_calls, plan_chosen};
    use crate::judge::{PromptLimits, Provider, ProviderConfig};
    use crate::{InputFile, Role};

    /// Sessions that stream (native JSON Lines), with a duplicate id (made unique as `#2`), a
    /// session of its own tools, sessions with and without agents, several users' turns, and a
    /// catalog the rest are shown.
    fn inputs() -> Vec<(String, Vec<u8>, Role)> {
        let mut lines = String::new();
        let tools = [
            "search", "lookup", "refund", "email", "search", "search", "lookup",
        ];
        for index in 0..40 {
            let id = if index == 7 {
                "s3".to_string()
            } else {
                format!("s{index}")
            };
            let agent = ["a", "b", "c"][index % 3];
            let mut events = Vec::new();
            for step in 0..(index % 5 + 1) {
                if step % 2 == 0 {
                    events.push(format!(r#"{{"type": "user", "content": "turn {step}"}}"#));
                }
                let tool = tools[(index * 3 + step) % tools.len()];
                events.push(format!(
                    r#"{{"type": "tool_use", "call_id": "c{step}", "name": "{tool}", "args": {{"order_id": "{index}"}}}}"#
                ));
                let status = if (index + step) % 6 == 0 {
                    "error"
                } else {
                    "ok"
                };
                events.push(format!(
                    r#"{{"type": "tool_result", "call_id": "c{step}", "status": "{status}", "content": "done {index}"}}"#
                ));
            }
            let own = if index == 11 {
                r#", "tools": [{"name": "search", "description": "own search", "parameters": {"type": "object"}}]"#
            } else {
                ""
            };
            lines.push_str(&format!(
                r#"{{"session_id": "{id}", "agent_id": "{agent}"{own}, "events": [{}]}}"#,
                events.join(", ")
            ));
            lines.push('\n');
        }
        let catalog = r#"[{"name": "search", "description": "Search.", "parameters": {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}},
            {"name": "lookup", "description": "Look up.", "parameters": {"type": "object"}},
            {"name": "refund", "description": "Refund.", "parameters": {"type": "object"}}]"#;
        vec![
            (
                "tools.json".into(),
                catalog.as_bytes().to_vec(),
                Role::Catalog,
            ),
            ("s.jsonl".into(), lines.into_bytes(), Role::Traces),
        ]
    }

    fn sources(inputs: &[(String, Vec<u8>, Role)]) -> Vec<Source<'_>> {
        inputs
            .iter()
            .map(|(name, bytes, role)| Source::Reader {
                name,
                role: *role,
                reader: Box::new(std::io::Cursor::new(bytes.as_slice())),
            })
            .collect()
    }

    fn analysis(inputs: &[(String, Vec<u8>, Role)]) -> Analysis {
        let files: Vec<InputFile<'_>> = inputs
            .iter()
            .map(|(name, bytes, role)| InputFile::new(name, bytes, *role))
            .collect();
        Analysis::new(&files, &Options::default(), &mut |_| {})
    }

    fn streamed<T>(read: Read<T>) -> T {
        match read {
            Read::Streamed(value) => value,
            Read::Whole(_) => panic!("the inputs should stream"),
        }
    }

    #[test]
    fn streamed_choices_are_the_whole_analysiss_for_every_kind_of_selection() {
        let inputs = inputs();
        let analysis = analysis(&inputs);
        assert!(analysis.sessions().iter().any(|s| s.session_id == "s3#2"));
        let problems = &analysis.report().problems;
        assert!(!problems.is_empty());
        let mut wanted: Vec<Wanted> = vec![
            Wanted::Selection(Selection::All),
            Wanted::Selection(Selection::OnlyProblems),
            Wanted::Selection(Selection::Calls(vec![CallRef {
                session_id: "s3#2".into(),
                step: 2,
                tool: "ignored".into(),
            }])),
            Wanted::KeptBy(Filter {
                agent: Some("b".into()),
                tool: Some("search".into()),
                ..Filter::default()
            }),
            Wanted::InTurns(vec![
                ("s4".into(), 1),
                ("s3#2".into(), 0),
                ("none".into(), 0),
            ]),
        ];
        for n in [0, 1, 3, 4, 7, 20, 59, 1000] {
            for seed in [0, 1, 2025] {
                wanted.push(Wanted::Selection(Selection::Sample { n, seed }));
            }
        }
        for wanted in &wanted {
            let expected = wanted.on_analysis(&analysis);
            let Chosen {
                report,
                calls: chosen,
            } = streamed(
                choose_streamed(sources(&inputs), &Options::default(), wanted, &mut |_| {})
                    .unwrap(),
            );
            assert_eq!(chosen, expected, "{wanted:?}");
            assert_eq!(&report.problems, problems);
        }
        // The sample is a proper subset, so the test tells sampling apart from taking all.
        let some = Wanted::Selection(Selection::Sample { n: 7, seed: 1 }).on_analysis(&analysis);
        assert_eq!(some.len(), 7);
    }

    #[test]
    fn only_the_judged_sessions_are_read_again_and_plan_as_on_the_whole_analysis() {
        let inputs = inputs();
        let analysis = analysis(&inputs);
        let selection = Selection::Sample { n: 6, seed: 9 };
        let chosen = Wanted::Selection(selection.clone()).on_analysis(&analysis);
        let judged = streamed(
            read_judged(sources(&inputs), &Options::default(), &chosen, &mut |_| {}).unwrap(),
        );
        let ids: HashSet<&str> = chosen.iter().map(|c| c.session_id.as_str()).collect();
        assert_eq!(judged.sessions.len(), ids.len());
        assert!(judged.sessions.len() < analysis.sessions().len());
        for session in &judged.sessions {
            assert_eq!(Some(session), analysis.session(&session.session_id));
        }
        assert_eq!(judged.catalog.as_deref(), analysis.catalog_tools());
        let config = ProviderConfig::new(Provider::OpenAiCompatible, "m");
        let cache = VerdictCache::new();
        let limits = PromptLimits::default();
        let by_id = judged.by_id();
        let planned = plan_chosen(
            &chosen,
            &|id| by_id.get(id).copied(),
            judged.catalog.as_deref(),
            &config,
            &cache,
            &limits,
        );
        let expected = plan_calls(&analysis, &config, &selection, &cache, &limits);
        assert_eq!(planned.len(), expected.len());
        for (planned, expected) in planned.iter().zip(&expected) {
            assert_eq!(
                (&planned.session_id, planned.step, &planned.cache_key),
                (&expected.session_id, expected.step, &expected.cache_key)
            );
            assert_eq!(planned.prompt.user, expected.prompt.user);
        }
    }

    /// Verdicts on `chosen`: the four criteria, outcomes spread by step and tool.
    fn verdicts_on(chosen: &[CallRef]) -> Vec<Verdict> {
        use crate::judge::{Criterion, Outcome};
        use crate::test_support::verdict;
        let criteria = [
            Criterion::RightTool,
            Criterion::ArgsGrounded,
            Criterion::CallDecision,
            Criterion::ResultUsed,
        ];
        chosen
            .iter()
            .flat_map(|call| {
                criteria.iter().enumerate().map(move |(index, criterion)| {
                    let outcome = match (call.step + index + call.tool.len()) % 3 {
                        0 => Outcome::Pass,
                        1 => Outcome::Fail,
                        _ => Outcome::Unscored,
                    };
                    let (session, step, tool) = (&call.session_id, call.step, &call.tool);
                    verdict(session, step, tool, *criterion, outcome, "because")
                })
            })
            .collect()
    }

    #[test]
    fn verdicts_added_to_the_streamed_report_give_the_whole_analysiss_report() {
        let inputs = inputs();
        let mut analysis = analysis(&inputs);
        let all = Wanted::Selection(Selection::All).on_analysis(&analysis);
        let first = verdicts_on(&all[..all.len() / 2]);
        // A second run over some of the same calls: its verdicts replace theirs.
        let mut second = verdicts_on(&all[all.len() / 3..]);
        for verdict in &mut second {
            verdict.verdict = crate::judge::Outcome::Fail;
        }
        let read = crate::read_analysis(sources(&inputs), &Options::default(), &mut |_| {});
        let Ok(ReadAnalysis::Streamed(mut report)) = read else {
            panic!("the inputs should stream");
        };
        assert_eq!(*report, *analysis.report());
        let mut run_verdicts = Vec::new();
        for verdicts in [first, second] {
            super::super::verdict_file::merge_verdicts(&mut run_verdicts, verdicts.clone());
            analysis.add_verdicts(verdicts.clone());
            super::super::in_report::add_verdicts(&mut report, verdicts);
            assert_eq!(*report, *analysis.report());
        }
        let judge = report.judge.as_ref().expect("a judge section");
        assert!(judge.summary.criteria.iter().any(|row| row.fail > 0));
        assert!(report.findings.iter().any(|f| f.id.starts_with("judge_")));
        // Under filters: the streamed report under each, with the run's verdicts it keeps.
        let filters = [
            Filter {
                agent: Some("b".into()),
                ..Filter::default()
            },
            Filter {
                tool: Some("search".into()),
                ..Filter::default()
            },
            Filter {
                agent: Some("a".into()),
                tool: Some("lookup".into()),
                ..Filter::default()
            },
        ];
        for filter in &filters {
            let mut under = crate::read_report_under(sources(&inputs), &Options::default(), filter)
                .unwrap()
                .expect("the inputs stream");
            add_verdicts_under(&mut under, filter, &run_verdicts);
            assert_eq!(under, analysis.filtered(filter), "{filter:?}");
            assert!(under.judge.is_some(), "{filter:?}");
        }
    }
}
