//! One labelled turn scored: the seed's `ToolSelectionResult`, extended with acceptable sets,
//! multiset missing/extra calls and both argument modes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::acceptable::{check_acceptable, schema_for};
use super::args_match::{all_matched, all_matched_by, args_match, ArgsMode, MAX_MATCHED_PAIRS};
use super::mismatch::mismatch;
use crate::inputs::labels::{Expected, Label};
use crate::model::{ToolDef, Turn, NO_TOOL};

/// How one labelled turn went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TurnOutcome {
    /// The session.
    pub session_id: String,
    /// The session's agent, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent_id: Option<String>,
    /// 0-based turn index.
    pub turn: usize,
    /// What the label expected first.
    pub expected_tool: Expected,
    /// The turn's first call's tool, or "none".
    pub actual_tool: String,
    /// The row this turn counts under: the actual tool when the label accepts it, else the
    /// label's (first) tool.
    pub counted_as: String,
    /// Whether the label accepts the actual tool.
    pub is_correct: bool,
    /// Whether the arguments match exactly; null when the label gives no arguments (or, with
    /// `args_mismatch` saying so, when the turn has too many calls to pair them).
    pub args_exact: Option<bool>,
    /// Whether the labelled arguments are a subset of the actual ones; null likewise.
    pub args_subset: Option<bool>,
    /// Why the arguments are not exactly right, when the tool is: the first difference found.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub args_mismatch: Option<String>,
    /// Every tool called in the turn, in order.
    pub called: Vec<String>,
    /// The 1-based steps of those calls in the session.
    pub steps: Vec<usize>,
    /// Calls beyond the expected ones (multiset difference).
    pub extra: Vec<String>,
    /// Expected calls that were not made (multiset difference).
    pub missing: Vec<String>,
    /// Tools the label forbids.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub should_not_call: Vec<String>,
    /// Tools called that the label forbids.
    pub should_not_call_violations: Vec<String>,
    /// The label's task outcome, if given.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_success: Option<bool>,
    /// The seed's `compute_score`.
    pub score: f64,
}

/// Scores one turn against its label. `mode` picks the argument comparison the score uses;
/// `tools` are the definitions that apply to the session (for acceptable-value labels, which
/// check required parameters and types against them).
pub fn score_turn(
    label: &Label,
    turn: &Turn<'_>,
    agent_id: Option<&str>,
    mode: ArgsMode,
    tools: Option<&[ToolDef]>,
) -> TurnOutcome {
    let called: Vec<String> = turn
        .calls
        .iter()
        .map(|(_, call)| call.name.clone())
        .collect();
    let actual_tool = called
        .first()
        .cloned()
        .unwrap_or_else(|| NO_TOOL.to_string());
    let is_correct = label.expected_tool.accepts(&actual_tool);
    let counted_as = if is_correct {
        actual_tool.clone()
    } else {
        label.expected_tool.primary().to_string()
    };
    let expected_calls = label.expected_calls(&actual_tool);
    let (extra, missing) = multiset_difference(&called, &expected_calls);
    let args_exact = args_correct(
        label,
        turn,
        &actual_tool,
        is_correct,
        ArgsMode::Exact,
        tools,
    );
    // Whatever fits exactly fits as a subset (a matching of the calls in exact mode is one in
    // subset mode), so the second comparison runs only when the first did not already answer it.
    let args_subset = match args_exact {
        Some(true) => Some(true),
        _ => args_correct(
            label,
            turn,
            &actual_tool,
            is_correct,
            ArgsMode::Subset,
            tools,
        ),
    };
    let args_mismatch = match args_exact {
        Some(false) if is_correct => mismatch(label, turn, &actual_tool, tools),
        None if label.gives_args() => Some(too_large_to_match(turn.calls.len())),
        _ => None,
    };
    let args_for_score = match mode {
        ArgsMode::Exact => args_exact,
        ArgsMode::Subset => args_subset,
    };
    // A label that states no arguments asserts nothing about them: they count as right.
    let score_tenths = score_tenths(
        is_correct,
        args_for_score.unwrap_or(true),
        extra.len(),
        missing.len(),
    );
    let should_not_call_violations = called
        .iter()
        .filter(|name| label.should_not_call.contains(name))
        .cloned()
        .collect();
    TurnOutcome {
        session_id: label.session_id.clone(),
        agent_id: agent_id.map(str::to_string),
        turn: label.turn,
        expected_tool: label.expected_tool.clone(),
        actual_tool,
        counted_as,
        is_correct,
        args_exact,
        args_subset,
        args_mismatch,
        steps: turn.calls.iter().map(|(step, _)| *step).collect(),
        called,
        extra,
        missing,
        should_not_call: label.should_not_call.clone(),
        should_not_call_violations,
        task_success: label.task_success,
        score: score_tenths as f64 / 10.0,
    }
}

/// The seed's `compute_score`: 0 for the wrong tool; else 0.5, plus 0.3 for right arguments,
/// less 0.1 per extra call and 0.2 per missing one, never below 0.
pub fn compute_score(correct_tool: bool, args_correct: bool, extra: usize, missing: usize) -> f64 {
    score_tenths(correct_tool, args_correct, extra, missing) as f64 / 10.0
}

/// The score in tenths, exact, so that sums and means of scores carry no rounding error.
pub fn score_tenths(correct_tool: bool, args_correct: bool, extra: usize, missing: usize) -> u64 {
    if !correct_tool {
        return 0;
    }
    let base: u64 = if args_correct { 8 } else { 5 };
    let penalty = extra as u64 + 2 * missing as u64;
    base.saturating_sub(penalty)
}

fn args_correct(
    label: &Label,
    turn: &Turn<'_>,
    actual_tool: &str,
    is_correct: bool,
    mode: ArgsMode,
    tools: Option<&[ToolDef]>,
) -> Option<bool> {
    if let Some(acceptable) = &label.acceptable_args {
        if !is_correct {
            return Some(false);
        }
        return acceptable_correct(label, turn, actual_tool, acceptable, mode, tools);
    }
    if let (Some(tools), Some(args_list)) = (&label.expected_tools, &label.expected_args_list) {
        if !is_correct {
            return Some(false);
        }
        let actual = named_args(turn);
        let expected: Vec<(&str, &Value)> =
            tools.iter().map(String::as_str).zip(args_list).collect();
        return all_matched(&actual, &expected, mode);
    }
    let expected = label.expected_args.as_ref()?;
    if !is_correct || actual_tool == NO_TOOL {
        return Some(false);
    }
    let first_args = turn.calls.first().and_then(|(_, call)| call.args.json());
    Some(first_args.is_some_and(|args| args_match(args, expected, mode)))
}

/// Acceptable-value arguments: every expected call (in any order) has a call of its tool whose
/// arguments pass [`check_acceptable`]; subset mode lets unlisted parameters pass. None when the
/// turn is too large to match.
fn acceptable_correct(
    label: &Label,
    turn: &Turn<'_>,
    actual_tool: &str,
    acceptable: &[serde_json::Map<String, Value>],
    mode: ArgsMode,
    tools: Option<&[ToolDef]>,
) -> Option<bool> {
    let expected = label.expected_calls(actual_tool);
    let actual = named_args(turn);
    let names: Vec<&str> = expected.iter().map(String::as_str).collect();
    let allow_extra = mode == ArgsMode::Subset;
    all_matched_by(&actual, &names, &|index, args| {
        acceptable.get(index).is_some_and(|params| {
            check_acceptable(args, params, schema_for(tools, names[index]), allow_extra).is_ok()
        })
    })
}

/// Why a turn whose label gives arguments has no verdict on them.
fn too_large_to_match(calls: usize) -> String {
    format!(
        "not judged: {calls} calls in one turn are too many to pair with the expected calls \
         (more than {MAX_MATCHED_PAIRS} pairs of one tool)"
    )
}

/// Each call of the turn as (tool, decoded arguments), for matching expected calls.
fn named_args<'a>(turn: &Turn<'a>) -> Vec<(&'a str, Option<&'a Value>)> {
    turn.calls
        .iter()
        .map(|(_, call)| (call.name.as_str(), call.args.json()))
        .collect()
}

/// `(actual - expected, expected - actual)` as multisets, each in the order of its source.
pub fn multiset_difference(actual: &[String], expected: &[String]) -> (Vec<String>, Vec<String>) {
    let mut remaining: BTreeMap<&str, usize> = BTreeMap::new();
    for name in expected {
        *remaining.entry(name).or_default() += 1;
    }
    let mut extra = Vec::new();
    for name in actual {
        match remaining.get_mut(name.as_str()) {
            Some(count) if *count > 0 => *count -= 1,
            _ => extra.push(name.clone()),
        }
    }
    let mut missing = Vec::new();
    for name in expected {
        if let Some(count) = remaining.get_mut(name.as_str()) {
            if *count > 0 {
                *count -= 1;
                missing.push(name.clone());
            }
        }
    }
    (extra, missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn compute_score_matches_the_seed() {
        assert_eq!(compute_score(false, true, 0, 0), 0.0);
        assert_eq!(compute_score(true, false, 0, 0), 0.5);
        assert!((compute_score(true, true, 1, 0) - 0.7).abs() < 1e-12);
        assert_eq!(compute_score(true, false, 2, 2), 0.0);
    }

    #[test]
    fn missing_and_extra_are_multisets() {
        let (extra, missing) = multiset_difference(&names(&["f"]), &names(&["f", "f"]));
        assert!(extra.is_empty());
        assert_eq!(missing, ["f"]);
        let (extra, missing) = multiset_difference(&names(&["a", "b", "a"]), &names(&["a"]));
        assert_eq!(extra, ["b", "a"]);
        assert!(missing.is_empty());
    }
}
