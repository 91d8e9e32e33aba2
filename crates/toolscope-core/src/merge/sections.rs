//! The report's sections that are not per session, merged: tools, selection, task actions and
//! drift.

use std::collections::BTreeMap;

use super::MergeError;
use crate::drift::{DriftItem, DriftKind};
use crate::metrics::args_match::ArgsMode;
use crate::metrics::selection::{summarize, Selection};
use crate::metrics::task_actions::{summarize_tasks, TaskActions};
use crate::report::{Report, ToolUsage};

/// Per tool, the parts' counts added (each is a sum over sessions), by tool name.
pub(super) fn merge_tools(parts: &[Report]) -> Vec<ToolUsage> {
    let mut tools: BTreeMap<&str, ToolUsage> = BTreeMap::new();
    for usage in parts.iter().flat_map(|part| &part.tools) {
        let merged = tools.entry(&usage.tool).or_insert_with(|| ToolUsage {
            tool: usage.tool.clone(),
            ..ToolUsage::default()
        });
        merged.calls += usage.calls;
        merged.calls_with_problems += usage.calls_with_problems;
        merged.problems += usage.problems;
        merged.errors += usage.errors;
        merged.sessions_with_errors += usage.sessions_with_errors;
    }
    tools.into_values().collect()
}

/// Selection summarised again from every part's labelled turns, with the parts' `min_support`
/// (which must agree); None when no part had labels.
pub(super) fn merge_selection(parts: &[Report]) -> Result<Option<Selection>, MergeError> {
    let mut min_support = None;
    let mut args_mode = None;
    let mut outcomes = Vec::new();
    for (part, report) in parts.iter().enumerate() {
        let Some(selection) = &report.selection else {
            continue;
        };
        let mode = |mode: ArgsMode| format!("{mode:?}").to_lowercase();
        agree(
            &mut args_mode,
            selection.args_mode,
            part,
            "args_mode (--args-match)",
            mode,
        )?;
        let support = |support: u64| support.to_string();
        agree(
            &mut min_support,
            selection.min_support,
            part,
            "min_support",
            support,
        )?;
        outcomes.extend(selection.outcomes.iter().cloned());
    }
    Ok(min_support.map(|min_support| Selection {
        args_mode: args_mode.unwrap_or_default(),
        ..summarize(outcomes, min_support)
    }))
}

/// Takes the first part's `value` of an option into `first`; a later part whose value differs
/// is an error naming the option and both values (`show` spells them).
fn agree<T: PartialEq + Copy>(
    first: &mut Option<T>,
    value: T,
    part: usize,
    option: &'static str,
    show: impl Fn(T) -> String,
) -> Result<(), MergeError> {
    match *first {
        None => *first = Some(value),
        Some(expected) if expected != value => {
            return Err(MergeError::Option {
                part,
                option,
                found: show(value),
                expected: show(expected),
            })
        }
        Some(_) => {}
    }
    Ok(())
}

/// Task actions summarised again from every part's sessions' outcomes; None when no part had
/// task labels.
pub(super) fn merge_tasks(parts: &[Report]) -> Option<TaskActions> {
    let mut outcomes = None;
    for tasks in parts.iter().filter_map(|part| part.tasks.as_ref()) {
        outcomes
            .get_or_insert_with(Vec::new)
            .extend(tasks.outcomes.iter().cloned());
    }
    outcomes.map(summarize_tasks)
}

/// Drift items by tool, kind and detail (as [`crate::drift::compare`] orders them), with their
/// sessions added and the smallest example id (as `compare` chooses it).
pub(super) fn merge_drift(parts: &[Report]) -> Vec<DriftItem> {
    let mut items: BTreeMap<(&str, DriftKind, &str), DriftItem> = BTreeMap::new();
    for item in parts.iter().flat_map(|part| &part.drift) {
        items
            .entry((&item.tool, item.kind, &item.detail))
            .and_modify(|merged| {
                merged.sessions += item.sessions;
                if item.example_session < merged.example_session {
                    merged.example_session.clone_from(&item.example_session);
                }
            })
            .or_insert_with(|| item.clone());
    }
    items.into_values().collect()
}
