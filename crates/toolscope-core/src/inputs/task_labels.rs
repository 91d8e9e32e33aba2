//! Task labels: the actions a whole session (not one turn) should contain, as τ²-bench's
//! `evaluation_criteria.actions` and τ-bench's `task.actions` state them.
//!
//! In a labels file, either toolscope's record
//! `{"session_id" | "task_id", "expected_actions": [{"name", "arguments", "compare_args"?}]}`
//! or a τ²-bench task as its `tasks.json` holds it
//! `{"id", "evaluation_criteria": {"actions": [{"action_id", "requestor", "name", "arguments",
//! "compare_args"}]}}`, which labels every session of that task (`task_id`, as the τ-bench
//! reader names a session's task). τ-bench's `{"name", "kwargs"}` actions are read too.
//!
//! An action with `requestor: "user"` is the user simulator's (τ²'s telecom domain); the agent's
//! sessions do not hold the user's calls, so such actions are not scored (a note says how many).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::model::Origin;

/// Which sessions a task label is for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskTarget {
    /// One session, by id.
    Session(String),
    /// Every session of a task (each trial), by the task's id.
    Task(String),
}

/// One action a session should contain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExpectedAction {
    /// The action's id in its task, if it has one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub action_id: Option<String>,
    /// The tool.
    pub name: String,
    /// The arguments of the reference call.
    pub arguments: Map<String, Value>,
    /// The arguments to compare; null compares those the actual call has (τ²'s rule).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub compare_args: Option<Vec<String>>,
}

/// The actions one task (or session) should contain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskLabel {
    /// The sessions it labels.
    pub target: TaskTarget,
    /// The agent's actions, in the reference order.
    pub actions: Vec<ExpectedAction>,
    /// Actions of the user simulator, left out.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub user_actions: usize,
    /// Where it was read from.
    pub origin: Origin,
}

fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// Whether a record is a task label rather than a turn label.
pub fn is_task_label(value: &Value) -> bool {
    value.get("expected_actions").is_some()
        || value
            .get("evaluation_criteria")
            .is_some_and(Value::is_object)
            && value.get("id").is_some()
}

/// Reads one task label record (see the module docs).
pub fn task_label_from_value(value: &Value, origin: Origin) -> Result<TaskLabel, String> {
    let (target, actions) = if let Some(actions) = value.get("expected_actions") {
        let target = match (value.get("session_id"), value.get("task_id")) {
            (Some(id), _) => TaskTarget::Session(id_text(id)?),
            (None, Some(id)) => TaskTarget::Task(id_text(id)?),
            (None, None) => {
                return Err("a task label needs \"session_id\" or \"task_id\"".to_string())
            }
        };
        (target, actions)
    } else {
        let id = value.get("id").ok_or("a τ²-bench task has no \"id\"")?;
        let actions = value
            .get("evaluation_criteria")
            .and_then(|criteria| criteria.get("actions"))
            .unwrap_or(&Value::Null);
        (TaskTarget::Task(id_text(id)?), actions)
    };
    let (actions, user_actions) = actions_from(actions)?;
    Ok(TaskLabel {
        target,
        actions,
        user_actions,
        origin,
    })
}

/// The agent's actions of an `actions` list (null: none), and how many were the user's.
pub fn actions_from(actions: &Value) -> Result<(Vec<ExpectedAction>, usize), String> {
    let list = match actions {
        Value::Null => return Ok((Vec::new(), 0)),
        Value::Array(list) => list,
        _ => return Err("\"actions\" is a list".to_string()),
    };
    let mut agent = Vec::new();
    let mut user = 0;
    for (index, action) in list.iter().enumerate() {
        let place = || format!("action {}", index + 1);
        let name = action
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| format!("{} has no \"name\"", place()))?;
        if action.get("requestor").and_then(Value::as_str) == Some("user") {
            user += 1;
            continue;
        }
        let arguments = match action.get("arguments").or_else(|| action.get("kwargs")) {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(arguments)) => arguments.clone(),
            Some(_) => return Err(format!("{}: \"arguments\" is an object", place())),
        };
        let compare_args = match action.get("compare_args") {
            None | Some(Value::Null) => None,
            Some(Value::Array(names)) => Some(
                names
                    .iter()
                    .map(|name| name.as_str().map(str::to_string))
                    .collect::<Option<Vec<_>>>()
                    .ok_or_else(|| format!("{}: \"compare_args\" lists names", place()))?,
            ),
            Some(_) => return Err(format!("{}: \"compare_args\" is a list", place())),
        };
        agent.push(ExpectedAction {
            action_id: action.get("action_id").and_then(|id| id_text(id).ok()),
            name: name.to_string(),
            arguments,
            compare_args,
        });
    }
    Ok((agent, user))
}

fn id_text(value: &Value) -> Result<String, String> {
    crate::formats::id_text(value).ok_or_else(|| "an id is a string or a number".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_a_tau2_task_leaving_out_the_users_actions() {
        let task = json!({"id": "7", "evaluation_criteria": {"actions": [
            {"action_id": "a1", "requestor": "assistant", "name": "get_user_details",
             "arguments": {"user_id": "u1"}, "compare_args": ["user_id"]},
            {"action_id": "a2", "requestor": "user", "name": "toggle_airplane_mode", "arguments": {}}]}});
        assert!(is_task_label(&task));
        let label = task_label_from_value(&task, Origin::default()).unwrap();
        assert_eq!(label.target, TaskTarget::Task("7".into()));
        assert_eq!(label.actions.len(), 1);
        assert_eq!(
            label.actions[0].compare_args.as_deref(),
            Some(&["user_id".to_string()][..])
        );
        assert_eq!(label.user_actions, 1);
    }

    #[test]
    fn reads_toolscope_and_tau_bench_shapes() {
        let record = json!({"session_id": "s1", "expected_actions": [
            {"name": "book", "kwargs": {"user_id": "mia"}}]});
        let label = task_label_from_value(&record, Origin::default()).unwrap();
        assert_eq!(label.target, TaskTarget::Session("s1".into()));
        assert_eq!(label.actions[0].arguments["user_id"], "mia");
        let error = task_label_from_value(&json!({"expected_actions": []}), Origin::default());
        assert!(error.unwrap_err().contains("task_id"));
        let error = task_label_from_value(
            &json!({"task_id": 1, "expected_actions": [{"arguments": {}}]}),
            Origin::default(),
        );
        assert!(error.unwrap_err().contains("action 1 has no \"name\""));
    }
}
