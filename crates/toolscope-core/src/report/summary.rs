//! Headline numbers of the checks, per call and per session, so that a session with 200 calls
//! does not outweigh fifty short ones.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::counted::{Counted, CountedRows};
use crate::checks::problem::{Problem, ProblemKind};
use crate::checks::tool_errors::ToolErrorCounts;
use crate::checks::SessionFindings;
use crate::metrics::rate::{ratio, Rate};
use crate::model::{turn_count, Origin, ParentLink, Session, Trial};

/// The headline numbers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Sessions read.
    pub sessions: u64,
    /// Tool calls in them.
    pub calls: u64,
    /// Turns in them.
    pub turns: u64,
    /// Problems that count against a call (every kind but schema_undecidable).
    pub problems: u64,
    /// Calls whose schema check could not be decided.
    pub undecidable_calls: u64,
    /// Calls with at least one problem, out of all calls.
    pub calls_with_problems: Rate,
    /// Sessions with at least one problem, out of all sessions.
    pub sessions_with_problems: Rate,
    /// The mean over sessions with calls of each session's share of calls with problems.
    pub mean_session_problem_rate: Option<f64>,
    /// Per problem kind: problems, calls and sessions with it.
    pub by_kind: BTreeMap<ProblemKind, KindCount>,
    /// Tool results and errors over all sessions.
    pub tool_errors: ToolErrorCounts,
    /// Error results, out of all results.
    pub tool_error_rate: Rate,
    /// Sessions with at least one tool error, out of all sessions.
    pub sessions_with_tool_errors: Rate,
    /// Sessions checked without any tool catalog (no unknown-tool or schema checks for them).
    pub sessions_without_catalog: u64,
}

/// How often one kind of problem occurred.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct KindCount {
    /// Problems of this kind.
    pub problems: u64,
    /// Calls with at least one.
    pub calls: u64,
    /// Sessions with at least one.
    pub sessions: u64,
}

/// One session's numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionSummary {
    /// The session.
    pub session_id: String,
    /// Its agent, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent_id: Option<String>,
    /// The session and call that started it, for a subagent.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub parent: Option<ParentLink>,
    /// Where it was read from.
    pub origin: Origin,
    /// Tool calls.
    pub calls: u64,
    /// Turns.
    pub turns: u64,
    /// Problems counting against calls.
    pub problems: u64,
    /// Calls with at least one such problem.
    pub calls_with_problems: u64,
    /// Problems by kind (undecidable ones included).
    pub problems_by_kind: BTreeMap<ProblemKind, u64>,
    /// Tool results and errors.
    pub tool_errors: ToolErrorCounts,
    /// Whether it was checked without a tool catalog.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub is_without_catalog: bool,
    /// The task it is a scored trial of (only when it has a trial too).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_id: Option<String>,
    /// Its trial's number and reward (only when it names its task too): what the report's
    /// trials are counted from.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub trial: Option<Trial>,
}

/// One tool's use across the sessions.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolUsage {
    /// The tool name as called.
    pub tool: String,
    /// How many calls.
    pub calls: u64,
    /// Calls with at least one problem counting against them.
    pub calls_with_problems: u64,
    /// Problems counting against its calls.
    pub problems: u64,
    /// Error results of its calls.
    pub errors: u64,
    /// Sessions with at least one error result of its calls.
    #[serde(default)]
    pub sessions_with_errors: u64,
}

/// Builds the summary, the per-session rows (worst first) and the per-tool rows from each
/// session's findings (and whether it was checked without a catalog); also returns the problems
/// in report order.
pub fn summarize_checks<'s>(
    sessions: impl IntoIterator<Item = (&'s Session, SessionFindings, bool)>,
) -> (Summary, Vec<SessionSummary>, Vec<ToolUsage>, Vec<Problem>) {
    let mut rows = CheckRows::default();
    for (session, found, is_without_catalog) in sessions {
        rows.add(session, found, is_without_catalog);
    }
    rows.finish()
}

/// [`summarize_checks`] one session at a time, for callers that do not keep the sessions.
#[derive(Debug, Default)]
pub(crate) struct CheckRows {
    kept: Kept,
    tools: BTreeMap<String, ToolUsage>,
}

/// What [`CheckRows`] keeps of each session's row.
#[derive(Debug)]
enum Kept {
    /// Every row and its problems.
    Rows(Vec<(SessionSummary, Vec<Problem>)>),
    /// Only what is counted of them ([`CheckRows::counting`]).
    Counted(Box<Counted>),
}

impl Default for Kept {
    fn default() -> Self {
        Kept::Rows(Vec::new())
    }
}

impl CheckRows {
    /// Rows that are counted and dropped, for a report without them ([`CheckRows::finish_counted`]).
    pub(crate) fn counting() -> Self {
        CheckRows {
            kept: Kept::Counted(Box::default()),
            tools: BTreeMap::new(),
        }
    }

    pub(crate) fn add(
        &mut self,
        session: &Session,
        found: SessionFindings,
        is_without_catalog: bool,
    ) {
        count_tools(session, &found, &mut self.tools);
        let (row, problems) = session_row(session, found, is_without_catalog);
        match &mut self.kept {
            Kept::Counted(counted) => counted.add(row, problems),
            Kept::Rows(rows) => rows.push((row, problems)),
        }
    }

    /// The totals, tools and problems of rows made [`CheckRows::counting`].
    pub(crate) fn finish_counted(self) -> CountedRows {
        match self.kept {
            Kept::Counted(counted) => counted.finish(self.tools),
            Kept::Rows(_) => panic!("the rows were kept, not counted"),
        }
    }

    pub(crate) fn finish(self) -> (Summary, Vec<SessionSummary>, Vec<ToolUsage>, Vec<Problem>) {
        let Kept::Rows(rows) = self.kept else {
            panic!("the rows were counted, not kept");
        };
        let (summary, session_rows, problems) = summarize_sessions(rows);
        let tools = self
            .tools
            .into_iter()
            .map(|(tool, usage)| ToolUsage { tool, ..usage })
            .collect();
        (summary, session_rows, tools, problems)
    }
}

/// Adds one session's calls, errors and problems to the per-tool counts.
fn count_tools(
    session: &Session,
    found: &SessionFindings,
    tools: &mut BTreeMap<String, ToolUsage>,
) {
    for call in session.calls() {
        // Look up before inserting: one allocation per tool, not per call.
        match tools.get_mut(call.name.as_str()) {
            Some(usage) => usage.calls += 1,
            None => {
                let usage = ToolUsage {
                    calls: 1,
                    ..ToolUsage::default()
                };
                tools.insert(call.name.clone(), usage);
            }
        }
    }
    for (tool, errors) in &found.errors_by_tool {
        let usage = tools.entry(tool.clone()).or_default();
        usage.errors += errors;
        usage.sessions_with_errors += u64::from(*errors > 0);
    }
    let mut tool_problem_steps: BTreeSet<usize> = BTreeSet::new();
    for problem in found.problems.iter().filter(|p| p.kind.is_failure()) {
        let usage = tools.entry(problem.tool.clone()).or_default();
        usage.problems += 1;
        if tool_problem_steps.insert(problem.step) {
            usage.calls_with_problems += 1;
        }
    }
}

/// One session's row and its problems (in the checks' order).
pub(crate) fn session_row(
    session: &Session,
    found: SessionFindings,
    is_without_catalog: bool,
) -> (SessionSummary, Vec<Problem>) {
    let mut failed_steps: BTreeSet<usize> = BTreeSet::new();
    let mut by_kind: BTreeMap<ProblemKind, u64> = BTreeMap::new();
    for problem in &found.problems {
        *by_kind.entry(problem.kind).or_default() += 1;
        if problem.kind.is_failure() {
            failed_steps.insert(problem.step);
        }
    }
    let problems = found
        .problems
        .iter()
        .filter(|p| p.kind.is_failure())
        .count() as u64;
    // Only a scored trial of a task carries them: what the trials need, and nothing for other
    // sessions, so their rows stay as they were.
    let (task_id, trial) = match (&session.task_id, session.trial) {
        (Some(task_id), Some(trial)) => (Some(task_id.clone()), Some(trial)),
        _ => (None, None),
    };
    let row = SessionSummary {
        session_id: session.session_id.clone(),
        agent_id: session.agent_id.clone(),
        parent: session.parent.clone(),
        origin: session.origin.clone(),
        calls: found.calls as u64,
        turns: turn_count(session) as u64,
        problems,
        calls_with_problems: failed_steps.len() as u64,
        problems_by_kind: by_kind,
        tool_errors: found.tool_errors,
        is_without_catalog,
        task_id,
        trial,
    };
    (row, found.problems)
}

/// The headline numbers, counted one session at a time: from the rows of a whole report
/// ([`summarize_sessions`]) or as the sessions go by when the rows are not kept.
#[derive(Debug, Default)]
pub(crate) struct Totals {
    summary: Summary,
    session_rates: Vec<f64>,
    sessions_with_problems: u64,
    sessions_with_errors: u64,
}

impl Totals {
    pub(crate) fn add(&mut self, row: &SessionSummary, problems: &[Problem]) {
        let summary = &mut self.summary;
        summary.sessions += 1;
        let mut kind_steps: BTreeMap<ProblemKind, BTreeSet<usize>> = BTreeMap::new();
        for problem in problems {
            kind_steps
                .entry(problem.kind)
                .or_default()
                .insert(problem.step);
            if !problem.kind.is_failure() {
                summary.undecidable_calls += 1;
            }
        }
        for (kind, steps) in &kind_steps {
            let entry = summary.by_kind.entry(*kind).or_default();
            entry.problems += row.problems_by_kind.get(kind).copied().unwrap_or(0);
            entry.calls += steps.len() as u64;
            entry.sessions += 1;
        }
        summary.calls += row.calls;
        summary.problems += row.problems;
        summary.calls_with_problems.count += row.calls_with_problems;
        summary.tool_errors.add(&row.tool_errors);
        summary.sessions_without_catalog += u64::from(row.is_without_catalog);
        self.sessions_with_problems += u64::from(row.problems > 0);
        self.sessions_with_errors += u64::from(row.tool_errors.errors > 0);
        if row.calls > 0 {
            self.session_rates
                .push(row.calls_with_problems as f64 / row.calls as f64);
        }
        summary.turns += row.turns;
    }

    pub(crate) fn finish(self) -> Summary {
        let Totals {
            mut summary,
            mut session_rates,
            sessions_with_problems,
            sessions_with_errors,
        } = self;
        summary.calls_with_problems = Rate::new(summary.calls_with_problems.count, summary.calls);
        summary.sessions_with_problems = Rate::new(sessions_with_problems, summary.sessions);
        // Summed in a defined order (smallest first), not in input order, so the mean is the
        // same to the last bit however the sessions were ordered or split.
        crate::sort::sort_by(&mut session_rates, f64::total_cmp);
        summary.mean_session_problem_rate =
            ratio(session_rates.iter().sum(), session_rates.len() as f64);
        summary.tool_error_rate =
            Rate::new(summary.tool_errors.errors, summary.tool_errors.results);
        summary.sessions_with_tool_errors = Rate::new(sessions_with_errors, summary.sessions);
        summary
    }
}

/// Builds the summary from the sessions' rows and problems (in input order), and orders them
/// as the report does: sessions worst first, problems by session in that order, then as the
/// checks found them.
///
/// Everything in [`Summary`] is counted from these rows, so a report's own `sessions` and
/// `problems` are enough to rebuild it: [`crate::merge`] does, for reports of parts of a
/// dataset, with this same function.
pub fn summarize_sessions(
    rows: Vec<(SessionSummary, Vec<Problem>)>,
) -> (Summary, Vec<SessionSummary>, Vec<Problem>) {
    let mut totals = Totals::default();
    for (row, problems) in &rows {
        totals.add(row, problems);
    }
    let summary = totals.finish();

    let mut rows = rows;
    // Worst first: most problems, then most tool errors; ties keep input order. The order is
    // found on indices and applied in place, so the rows are never held twice.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    crate::sort::sort_by(&mut order, |&a, &b| {
        let (a, b) = (&rows[a].0, &rows[b].0);
        b.problems
            .cmp(&a.problems)
            .then(b.tool_errors.errors.cmp(&a.tool_errors.errors))
    });
    permute(&mut rows, order);
    // Sized by the problems there are, not by the rows' counts: a report read from a file may
    // claim any number.
    let mut problems = Vec::with_capacity(rows.iter().map(|(_, found)| found.len()).sum());
    for (_, found) in &mut rows {
        problems.append(found);
    }
    let session_rows = rows.into_iter().map(|(row, _)| row).collect();
    (summary, session_rows, problems)
}

/// Puts `items[order[i]]` at `i` for every `i`, in place (one cycle of swaps at a time).
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut current = start;
        while order[current] != current {
            let next = std::mem::replace(&mut order[current], current);
            if next == start {
                break;
            }
            items.swap(current, next);
            current = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::permute;

    proptest! {
        /// In place, the same as gathering `items[order[i]]` into a new list.
        #[test]
        fn permute_gathers_by_order(
            order in (0..60usize).prop_flat_map(|n| Just((0..n).collect::<Vec<_>>()).prop_shuffle())
        ) {
            let items: Vec<String> = (0..order.len()).map(|i| format!("row {i}")).collect();
            let gathered: Vec<String> = order.iter().map(|&i| items[i].clone()).collect();
            let mut permuted = items;
            permute(&mut permuted, order);
            prop_assert_eq!(permuted, gathered);
        }
    }
}
