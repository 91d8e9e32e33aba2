//! Task actions: did the session contain each action its task expects, compared as τ²-bench's
//! `Action.compare_with_tool_call` compares them (`src/tau2/data_model/tasks.py`), and counted as
//! its `ActionEvaluator` counts them (an action is matched when any call of the session matches;
//! one call may match several actions; order is not checked).
//!
//! A call matches an action when the tool is the same and, over the compared arguments, the two
//! agree: `compare_args` when the action gives them, else the arguments the **call** has (so a
//! call that leaves out an argument the action has still matches; one with an argument the action
//! lacks does not). An empty comparison matches. Values compare with Python's equality after a
//! string holding a JSON object or array is decoded (τ²'s `_normalize_action_arg_value`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::acceptable::python_equal;
use super::rate::Rate;
use crate::hashing::{HashMap, HashMapExt};
use crate::inputs::task_labels::{ExpectedAction, TaskLabel};
use crate::model::Session;

/// One expected action, checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ActionCheck {
    /// The action's id in its task, if any.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub action_id: Option<String>,
    /// The tool.
    pub name: String,
    /// Whether a call of the session matched it.
    pub matched: bool,
    /// The 1-based step of the first call that matched.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub step: Option<usize>,
}

/// One session against its task's actions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskOutcome {
    /// The session.
    pub session_id: String,
    /// The session's agent, if known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub agent_id: Option<String>,
    /// The task, when the label named one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub task_id: Option<String>,
    /// Each of the agent's expected actions.
    pub actions: Vec<ActionCheck>,
    /// The user simulator's actions in the task, not scored.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub user_actions: usize,
}

impl TaskOutcome {
    /// Whether every expected action was matched.
    pub fn all_matched(&self) -> bool {
        self.actions.iter().all(|check| check.matched)
    }

    /// How many expected actions were matched.
    pub fn matched(&self) -> usize {
        self.actions.iter().filter(|check| check.matched).count()
    }

    /// The tools of the expected actions no call matched, in the task's order.
    pub fn unmatched(&self) -> Vec<&str> {
        self.actions
            .iter()
            .filter(|check| !check.matched)
            .map(|check| check.name.as_str())
            .collect()
    }
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Every session with a task label, summed up.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskActions {
    /// Expected actions matched, out of all expected actions.
    pub actions: Rate,
    /// Sessions that matched every expected action, out of labelled sessions.
    pub sessions_all_matched: Rate,
    /// Each labelled session.
    pub outcomes: Vec<TaskOutcome>,
}

/// Sums up task outcomes.
pub fn summarize_tasks(outcomes: Vec<TaskOutcome>) -> TaskActions {
    let actions = outcomes.iter().map(|o| o.actions.len() as u64).sum();
    let matched = outcomes
        .iter()
        .flat_map(|o| &o.actions)
        .filter(|check| check.matched)
        .count() as u64;
    let complete = outcomes.iter().filter(|o| o.all_matched()).count() as u64;
    TaskActions {
        actions: Rate::new(matched, actions),
        sessions_all_matched: Rate::new(complete, outcomes.len() as u64),
        outcomes,
    }
}

/// A call's 1-based step and its arguments.
type StepArgs<'a> = (usize, &'a Map<String, Value>);

/// Checks a session against a task label.
pub fn score_task(label: &TaskLabel, session: &Session, task_id: Option<&str>) -> TaskOutcome {
    // Each action is compared only with the calls of its tool (steps in order), not every call.
    let mut calls_by_tool: HashMap<&str, Vec<StepArgs<'_>>> = HashMap::new();
    for (index, call) in session.calls().enumerate() {
        if let Some(args) = call.args.json().and_then(Value::as_object) {
            calls_by_tool
                .entry(call.name.as_str())
                .or_default()
                .push((index + 1, args));
        }
    }
    let actions = label
        .actions
        .iter()
        .map(|action| {
            let step = calls_by_tool
                .get(action.name.as_str())
                .into_iter()
                .flatten()
                .find(|(_, args)| action_matches(action, &action.name, args))
                .map(|&(step, _)| step);
            ActionCheck {
                action_id: action.action_id.clone(),
                name: action.name.clone(),
                matched: step.is_some(),
                step,
            }
        })
        .collect();
    TaskOutcome {
        session_id: session.session_id.clone(),
        agent_id: session.agent_id.clone(),
        task_id: task_id.map(str::to_string),
        actions,
        user_actions: label.user_actions,
    }
}

/// τ²-bench's `compare_with_tool_call`.
pub fn action_matches(action: &ExpectedAction, name: &str, args: &Map<String, Value>) -> bool {
    if action.name != name {
        return false;
    }
    let compared: Vec<&str> = match &action.compare_args {
        Some(names) => names.iter().map(String::as_str).collect(),
        None => args.keys().map(String::as_str).collect(),
    };
    if compared.is_empty() {
        return true;
    }
    let pick = |from: &Map<String, Value>| -> Map<String, Value> {
        crate::sort::collect_by_insert(
            from.iter()
                .filter(|(key, _)| compared.contains(&key.as_str()))
                .map(|(key, value)| (key.clone(), normalized(value))),
        )
    };
    python_equal(
        &Value::Object(pick(args)),
        &Value::Object(pick(&action.arguments)),
    )
}

/// A string holding a JSON object or array, decoded (recursively); other values as they are.
fn normalized(value: &Value) -> Value {
    match value {
        Value::String(text) => {
            let trimmed = text.trim();
            if trimmed.starts_with(['{', '[']) {
                if let Ok(decoded) = serde_json::from_str::<Value>(trimmed) {
                    return normalized(&decoded);
                }
            }
            value.clone()
        }
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Object(map) => Value::Object(crate::sort::collect_by_insert(
            map.iter()
                .map(|(key, value)| (key.clone(), normalized(value))),
        )),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn action(arguments: Value, compare_args: Option<&[&str]>) -> ExpectedAction {
        ExpectedAction {
            action_id: None,
            name: "update".into(),
            arguments: arguments.as_object().unwrap().clone(),
            compare_args: compare_args.map(|names| names.iter().map(|n| n.to_string()).collect()),
        }
    }

    fn matches(action: &ExpectedAction, args: Value) -> bool {
        action_matches(action, "update", args.as_object().unwrap())
    }

    #[test]
    fn compare_args_limit_the_comparison() {
        let expected = action(json!({"id": "u1", "note": "x"}), Some(&["id"]));
        assert!(matches(&expected, json!({"id": "u1", "note": "other"})));
        assert!(!matches(&expected, json!({"id": "u2", "note": "x"})));
        assert!(
            !matches(&expected, json!({"note": "x"})),
            "a compared argument left out"
        );
        assert!(!action_matches(
            &expected,
            "delete",
            json!({"id": "u1"}).as_object().unwrap()
        ));
    }

    #[test]
    fn without_compare_args_the_calls_own_arguments_are_compared() {
        let expected = action(json!({"id": "u1", "note": "x"}), None);
        assert!(matches(&expected, json!({"id": "u1", "note": "x"})));
        // τ² compares the keys the call has: one it leaves out is not checked ...
        assert!(matches(&expected, json!({"id": "u1"})));
        // ... and one the action lacks makes them differ.
        assert!(!matches(&expected, json!({"id": "u1", "extra": 1})));
        assert!(matches(&expected, json!({})), "nothing compared matches");
        let empty = action(json!({"id": "u1"}), Some(&[]));
        assert!(matches(&empty, json!({"id": "u9"})));
    }

    #[test]
    fn json_strings_compare_by_content_and_numbers_by_value() {
        let expected = action(
            json!({"payload": "{\"a\": 1, \"b\": [1, 2]}", "n": 2}),
            None,
        );
        assert!(matches(
            &expected,
            json!({"payload": " {\"b\": [1, 2.0], \"a\": 1}", "n": 2.0})
        ));
        assert!(!matches(
            &expected,
            json!({"payload": "{\"a\": 2, \"b\": [1, 2]}"})
        ));
        let text = action(json!({"q": "{not json"}), None);
        assert!(matches(&text, json!({"q": "{not json"})));
    }
}
