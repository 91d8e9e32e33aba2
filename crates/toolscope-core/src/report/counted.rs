//! The check rows of a report made without its per-session rows (for the summary report): each
//! session's row is counted into the totals as it comes and dropped; only what the rest of the
//! report needs stays: the problems (findings read them), with their sessions' place in the
//! report's order and agent, and the trials of scored task sessions.

use std::collections::BTreeMap;

use super::summary::Totals;
use super::{SessionSummary, Summary, ToolUsage};
use crate::checks::problem::Problem;
use crate::hashing::{HashMap, HashMapExt};
use crate::model::Trial;

/// A session's place in the report's order: most problems first, then most tool errors, then
/// input order.
type Place = (u64, u64, u64);

fn worst_first(a: &Place, b: &Place) -> std::cmp::Ordering {
    b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2))
}

/// Sessions counted so far.
#[derive(Debug, Default)]
pub(crate) struct Counted {
    totals: Totals,
    sessions: u64,
    /// Sessions with problems: their place, agent and problems.
    problems: Vec<(Place, Option<String>, Vec<Problem>)>,
    /// Scored trials of tasks: their session's place, task and trial.
    trials: Vec<(Place, String, Trial)>,
}

/// What [`Counted`] gives at the end, in the report's order.
pub(crate) struct CountedRows {
    pub(crate) summary: Summary,
    pub(crate) tools: Vec<ToolUsage>,
    pub(crate) sessions: u64,
    pub(crate) problems: Vec<Problem>,
    /// The agent of each session with problems that has one.
    pub(crate) agents: HashMap<String, String>,
    pub(crate) trials: Vec<(String, Trial)>,
}

impl Counted {
    pub(crate) fn add(&mut self, row: SessionSummary, problems: Vec<Problem>) {
        self.totals.add(&row, &problems);
        let place = (row.problems, row.tool_errors.errors, self.sessions);
        self.sessions += 1;
        if let (Some(task), Some(trial)) = (row.task_id, row.trial) {
            self.trials.push((place, task, trial));
        }
        if !problems.is_empty() {
            self.problems.push((place, row.agent_id, problems));
        }
    }

    pub(crate) fn finish(mut self, tools: BTreeMap<String, ToolUsage>) -> CountedRows {
        crate::sort::sort_by(&mut self.problems, |a, b| worst_first(&a.0, &b.0));
        crate::sort::sort_by(&mut self.trials, |a, b| worst_first(&a.0, &b.0));
        let mut agents = HashMap::new();
        let mut problems = Vec::new();
        for (_, agent, mut found) in self.problems {
            if let (Some(agent), Some(first)) = (agent, found.first()) {
                agents.insert(first.session_id.clone(), agent);
            }
            problems.append(&mut found);
        }
        CountedRows {
            summary: self.totals.finish(),
            tools: tools
                .into_iter()
                .map(|(tool, usage)| ToolUsage { tool, ..usage })
                .collect(),
            sessions: self.sessions,
            problems,
            agents,
            trials: self
                .trials
                .into_iter()
                .map(|(_, task, trial)| (task, trial))
                .collect(),
        }
    }
}
