//! Scoring task labels against the sessions they name (by session id or by task id).

use std::collections::BTreeMap;

use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::inputs::task_labels::{TaskLabel, TaskTarget};
use crate::metrics::task_actions::{score_task, TaskOutcome};
use crate::model::Session;

/// How many unlabelled task ids a diagnostic lists before it says "and N more".
const LISTED: usize = 5;

/// Each session with a task label, checked; labels naming no session become diagnostics (one
/// per file for task ids: a task file usually covers more tasks than one run attempted).
pub(crate) fn score_tasks(
    sessions: &[Session],
    labels: Vec<TaskLabel>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<TaskOutcome> {
    let by_id: HashMap<&str, &Session> = sessions
        .iter()
        .map(|s| (s.session_id.as_str(), s))
        .collect();
    let mut by_task: HashMap<&str, Vec<&Session>> = HashMap::new();
    for session in sessions {
        if let Some(task) = session.task_id.as_deref() {
            by_task.entry(task).or_default().push(session);
        }
    }
    let mut chosen: BTreeMap<&str, &TaskLabel> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    let mut unrun: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    let mut user_actions: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for label in &labels {
        let targets: Vec<&Session> = match &label.target {
            TaskTarget::Session(id) => {
                match by_id.get(id.as_str()) {
                    Some(session) => vec![session],
                    None => {
                        diagnostics.push(Diagnostic::error(
                        &label.origin.file,
                        Some(label.origin.line),
                        format!("task label for session {id:?}, which is not in the traces; not scored"),
                    ));
                        continue;
                    }
                }
            }
            TaskTarget::Task(id) => match by_task.get(id.as_str()) {
                Some(sessions) => sessions.clone(),
                None => {
                    unrun.entry(&label.origin.file).or_default().push(id);
                    continue;
                }
            },
        };
        if label.user_actions > 0 {
            let entry = user_actions.entry(&label.origin.file).or_default();
            entry.0 += label.user_actions;
            entry.1 += 1;
        }
        for session in targets {
            let id = session.session_id.as_str();
            if let Some(earlier) = chosen.get(id) {
                diagnostics.push(Diagnostic::warning(
                    &label.origin.file,
                    Some(label.origin.line),
                    format!(
                        "a second task label for session {id:?} (first at {}:{}); this one is used",
                        earlier.origin.file, earlier.origin.line
                    ),
                ));
            } else {
                order.push(id);
            }
            chosen.insert(id, label);
        }
    }
    for (file, ids) in unrun {
        let mut listed: Vec<String> = ids
            .iter()
            .take(LISTED)
            .map(|id| format!("{id:?}"))
            .collect();
        if ids.len() > LISTED {
            listed.push(format!("and {} more", ids.len() - LISTED));
        }
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            format!(
                "{} task{} without a session in the traces (no session has its task_id): {}; not scored",
                ids.len(),
                if ids.len() == 1 { "" } else { "s" },
                listed.join(", ")
            ),
        ));
    }
    for (file, (actions, tasks)) in user_actions {
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            format!(
                "{actions} action{} of the user simulator in {tasks} task{} not scored: the traces hold the agent's calls only",
                if actions == 1 { "" } else { "s" },
                if tasks == 1 { "" } else { "s" }
            ),
        ));
    }
    order
        .iter()
        .map(|id| {
            let session = by_id[id];
            let label = chosen[id];
            score_task(label, session, session.task_id.as_deref())
        })
        .collect()
}
