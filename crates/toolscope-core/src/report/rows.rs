//! A report's per-item lists a page at a time, for a viewer that holds only the aggregates (the
//! web page: its worker keeps the whole report and answers these queries, so the page's main
//! thread never parses or copies every session, problem and labelled turn).
//!
//! [`Report::aggregates`] is what such a viewer holds; [`Report::rows`] answers a [`RowsQuery`]
//! with a [`Rows`]; [`Report::session_rows`] gathers what one session's view shows beside its
//! events. Every answer is the same rows, in the same order, as reading the whole report would
//! give.

use serde::{Deserialize, Serialize};

use super::{Report, SessionSummary};
use crate::checks::problem::Problem;
use crate::judge::in_report::JudgeReport;
use crate::judge::Verdict;
use crate::metrics::outcome::TurnOutcome;
use crate::metrics::selection::Selection;
use crate::metrics::task_actions::{TaskActions, TaskOutcome};
use crate::metrics::trials::Trials;

/// The order of the problems table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemOrder {
    /// The report's order: worst sessions first, then by step.
    #[default]
    Report,
    /// By session id.
    Session,
    /// By step.
    Step,
    /// By tool name.
    Tool,
    /// By kind.
    Kind,
    /// By message.
    Message,
}

/// Which rows to send, and how many at most (`limit`): always the first ones, so a table that
/// shows more asks again with a larger limit. Externally tagged, as [`Rows`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RowsQuery {
    /// The sessions, worst first.
    Sessions { limit: usize },
    /// The problems whose session, tool, kind or message contains `search` (ignoring case),
    /// in `order` (reversed when `is_descending`; ties keep the report's order before the
    /// reversal).
    Problems {
        search: String,
        order: ProblemOrder,
        is_descending: bool,
        limit: usize,
    },
    /// The labelled turns behind one cell of the confusion matrix as shown with its `top`
    /// busiest tools (the rest grouped in one "other" row and column).
    CellTurns {
        expected: String,
        actual: String,
        top: usize,
        limit: usize,
    },
    /// The sessions with a task label, those that missed an action first.
    TaskOutcomes { limit: usize },
    /// The judge's verdicts.
    Verdicts { limit: usize },
}

/// The first rows a query matches, and how many it matches in all. Externally tagged: an
/// internally tagged enum is read through serde's buffered content, which would add a second copy
/// of every row type's reading code to the page's wasm.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rows {
    /// Session rows.
    Sessions {
        total: usize,
        rows: Vec<SessionSummary>,
    },
    /// Problems.
    Problems { total: usize, rows: Vec<Problem> },
    /// Labelled turns.
    CellTurns {
        total: usize,
        rows: Vec<TurnOutcome>,
    },
    /// Task outcomes.
    TaskOutcomes {
        total: usize,
        rows: Vec<TaskOutcome>,
    },
    /// Verdicts.
    Verdicts { total: usize, rows: Vec<Verdict> },
}

impl Rows {
    /// How many rows the query matched in all (not only those sent).
    pub fn total(&self) -> usize {
        match self {
            Rows::Sessions { total, .. }
            | Rows::Problems { total, .. }
            | Rows::CellTurns { total, .. }
            | Rows::TaskOutcomes { total, .. }
            | Rows::Verdicts { total, .. } => *total,
        }
    }
}

/// A subagent a session started: its session id and the parent's call, when linked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Subagent {
    /// The subagent's session.
    pub session_id: String,
    /// The call that started it.
    pub call_id: Option<String>,
}

/// What one session's view shows beside its events.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SessionRows {
    /// Its problems, in the report's order.
    pub problems: Vec<Problem>,
    /// Its labelled turns' outcomes.
    pub outcomes: Vec<TurnOutcome>,
    /// Its task outcome, when it has a task label.
    pub task: Option<TaskOutcome>,
    /// The judge's verdicts on its calls.
    pub verdicts: Vec<Verdict>,
    /// The subagents it started, in the report's order.
    pub subagents: Vec<Subagent>,
}

impl Report {
    /// Everything but the per-item lists (sessions, problems, labelled turns, task outcomes,
    /// verdicts, trials per task), which `omitted` counts instead; diagnostics and findings are
    /// kept whole. What a viewer that asks for rows holds.
    pub fn aggregates(&self) -> Report {
        let list_len = |len: usize| len as u64;
        let mut omitted = self.omitted.unwrap_or_default();
        omitted.problems += list_len(self.problems.len());
        omitted.sessions += list_len(self.sessions.len());
        let selection = self.selection.as_ref().map(|selection| {
            omitted.turn_outcomes += list_len(selection.outcomes.len());
            selection_without_outcomes(selection)
        });
        let tasks = self.tasks.as_ref().map(|tasks| {
            omitted.task_outcomes += list_len(tasks.outcomes.len());
            TaskActions {
                actions: tasks.actions,
                sessions_all_matched: tasks.sessions_all_matched,
                outcomes: Vec::new(),
            }
        });
        let judge = self.judge.as_ref().map(|judge| {
            omitted.verdicts += list_len(judge.verdicts.len());
            JudgeReport {
                summary: judge.summary.clone(),
                code_vs_judge: judge.code_vs_judge.clone(),
                calibration: judge.calibration.clone(),
                verdicts: Vec::new(),
            }
        });
        let trials = self.trials.as_ref().map(|trials| {
            omitted.trial_tasks += list_len(trials.per_task.len());
            trials_without_tasks(trials)
        });
        Report {
            toolscope_version: self.toolscope_version.clone(),
            inputs: self.inputs.clone(),
            summary: self.summary.clone(),
            problems: Vec::new(),
            sessions: Vec::new(),
            tools: self.tools.clone(),
            selection,
            tasks,
            drift: self.drift.clone(),
            diagnostics: self.diagnostics.clone(),
            judge,
            trials,
            findings: self.findings.clone(),
            omitted: Some(omitted),
        }
    }

    /// The first rows `query` matches, and how many it matches.
    pub fn rows(&self, query: &RowsQuery) -> Rows {
        match query {
            RowsQuery::Sessions { limit } => Rows::Sessions {
                total: self.sessions.len(),
                rows: first(self.sessions.iter(), *limit),
            },
            RowsQuery::Problems {
                search,
                order,
                is_descending,
                limit,
            } => {
                let mut rows = self.matching_problems(search);
                sort_problems(&mut rows, *order);
                if *is_descending {
                    rows.reverse();
                }
                Rows::Problems {
                    total: rows.len(),
                    rows: first(rows.into_iter(), *limit),
                }
            }
            RowsQuery::CellTurns {
                expected,
                actual,
                top,
                limit,
            } => {
                let turns = self
                    .selection
                    .as_ref()
                    .map(|selection| {
                        selection.confusion.top(*top).cell_turns(
                            &selection.outcomes,
                            expected,
                            actual,
                        )
                    })
                    .unwrap_or_default();
                Rows::CellTurns {
                    total: turns.len(),
                    rows: first(turns.into_iter(), *limit),
                }
            }
            RowsQuery::TaskOutcomes { limit } => {
                let mut outcomes: Vec<&TaskOutcome> = self
                    .tasks
                    .iter()
                    .flat_map(|tasks| &tasks.outcomes)
                    .collect();
                crate::sort::sort_by_key(&mut outcomes, |outcome| outcome.all_matched());
                Rows::TaskOutcomes {
                    total: outcomes.len(),
                    rows: first(outcomes.into_iter(), *limit),
                }
            }
            RowsQuery::Verdicts { limit } => {
                let verdicts: &[Verdict] = self
                    .judge
                    .as_ref()
                    .map_or(&[], |judge| judge.verdicts.as_slice());
                Rows::Verdicts {
                    total: verdicts.len(),
                    rows: first(verdicts.iter(), *limit),
                }
            }
        }
    }

    /// What the view of session `session_id` shows beside its events.
    pub fn session_rows(&self, session_id: &str) -> SessionRows {
        SessionRows {
            problems: self
                .problems
                .iter()
                .filter(|problem| problem.session_id == session_id)
                .cloned()
                .collect(),
            outcomes: self
                .selection
                .iter()
                .flat_map(|selection| &selection.outcomes)
                .filter(|outcome| outcome.session_id == session_id)
                .cloned()
                .collect(),
            task: self
                .tasks
                .iter()
                .flat_map(|tasks| &tasks.outcomes)
                .find(|outcome| outcome.session_id == session_id)
                .cloned(),
            verdicts: self
                .judge
                .iter()
                .flat_map(|judge| &judge.verdicts)
                .filter(|verdict| verdict.session_id == session_id)
                .cloned()
                .collect(),
            subagents: self
                .sessions
                .iter()
                .filter_map(|row| {
                    let parent = row.parent.as_ref()?;
                    (parent.session_id == session_id).then(|| Subagent {
                        session_id: row.session_id.clone(),
                        call_id: parent.call_id.clone(),
                    })
                })
                .collect(),
        }
    }

    /// The problems whose session, tool, kind or message contains `search`, ignoring case.
    fn matching_problems(&self, search: &str) -> Vec<&Problem> {
        let needle = search.to_lowercase();
        self.problems
            .iter()
            .filter(|problem| needle.is_empty() || problem_matches(problem, &needle))
            .collect()
    }
}

/// Whether any of the problem's shown fields contains `needle` (already lower case).
fn problem_matches(problem: &Problem, needle: &str) -> bool {
    [
        problem.session_id.as_str(),
        problem.tool.as_str(),
        problem.kind.as_str(),
        problem.message.as_str(),
    ]
    .iter()
    .any(|field| field.to_lowercase().contains(needle))
}

/// Sorts stably by `order` (the report's order breaks ties); one sort, its comparison chosen
/// inside (a sort per order would be six copies of the sort in the page's worker).
fn sort_problems(rows: &mut [&Problem], order: ProblemOrder) {
    if order == ProblemOrder::Report {
        return;
    }
    crate::sort::sort_by(rows, |a, b| match order {
        ProblemOrder::Report => std::cmp::Ordering::Equal,
        ProblemOrder::Session => a.session_id.cmp(&b.session_id),
        ProblemOrder::Step => a.step.cmp(&b.step),
        ProblemOrder::Tool => a.tool.cmp(&b.tool),
        ProblemOrder::Kind => a.kind.cmp(&b.kind),
        ProblemOrder::Message => a.message.cmp(&b.message),
    });
}

/// Copies of the first `limit` rows.
fn first<'a, T: Clone + 'a>(rows: impl Iterator<Item = &'a T>, limit: usize) -> Vec<T> {
    rows.take(limit).cloned().collect()
}

/// A copy of `selection` without its labelled turns (every field named, so a new one is not
/// forgotten).
fn selection_without_outcomes(selection: &Selection) -> Selection {
    let Selection {
        turns,
        per_tool,
        confusion,
        confused_pairs,
        tool_accuracy,
        args_accuracy_exact,
        args_accuracy_subset,
        avg_extra_calls,
        extra_calls,
        missing_calls,
        should_not_call_violations,
        mean_score,
        task_success,
        min_support,
        args_mode,
        outcomes: _,
    } = selection;
    Selection {
        turns: *turns,
        per_tool: per_tool.clone(),
        confusion: confusion.clone(),
        confused_pairs: confused_pairs.clone(),
        tool_accuracy: *tool_accuracy,
        args_accuracy_exact: *args_accuracy_exact,
        args_accuracy_subset: *args_accuracy_subset,
        avg_extra_calls: *avg_extra_calls,
        extra_calls: *extra_calls,
        missing_calls: *missing_calls,
        should_not_call_violations: *should_not_call_violations,
        mean_score: *mean_score,
        task_success: *task_success,
        min_support: *min_support,
        args_mode: *args_mode,
        outcomes: Vec::new(),
    }
}

/// A copy of `trials` without its per-task rows (every field named).
fn trials_without_tasks(trials: &Trials) -> Trials {
    let Trials {
        tasks,
        trials: count,
        successes,
        average_reward,
        is_uniform,
        pass_hat_k,
        pass_at_k,
        tau_bench_pass_hat_k,
        per_task: _,
    } = trials;
    Trials {
        tasks: *tasks,
        trials: *count,
        successes: *successes,
        average_reward: *average_reward,
        is_uniform: *is_uniform,
        pass_hat_k: pass_hat_k.clone(),
        pass_at_k: pass_at_k.clone(),
        tau_bench_pass_hat_k: tau_bench_pass_hat_k.clone(),
        per_task: Vec::new(),
    }
}
