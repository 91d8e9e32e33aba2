//! τ-bench and τ²-bench results: τ-bench's `EnvRunResult` arrays (`task_id`, `trial`, `reward`,
//! `traj` of OpenAI Chat messages) and τ²-bench's results (`{"simulations": [{"messages"}]}`, or
//! the directory format's `simulations/<id>.json` one simulation each and its `results.json` of
//! tasks), one session per run.
//!
//! ```json
//! [{"task_id": 6, "trial": 0, "reward": 1.0,
//!   "info": {"task": {"actions": [{"name": "book_reservation", "kwargs": {"user_id": "mia_li_3668"}}]}},
//!   "traj": [
//!     {"role": "user", "content": "I'd like to book a flight."},
//!     {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function",
//!       "function": {"name": "get_user_details", "arguments": "{\"user_id\": \"mia_li_3668\"}"}}]},
//!     {"role": "tool", "tool_call_id": "call_1", "name": "get_user_details",
//!      "content": "Error: user not found"}]}]
//! ```
//! τ-bench's environment returns a failed call as an observation starting `Error: `, so its
//! errors are inferred; a run that crashed (`"traj": []` with `info.error`, as run.py writes it)
//! stays a failed trial, with a warning. τ²-bench messages carry flat `tool_calls` (`{id, name, arguments,
//! requestor}`) and tool messages linked by `id` with an explicit `error` flag; calls the user
//! simulator makes (`requestor: "user"`) are not the agent's and are left out with their results.
//! The tasks' ground-truth actions (τ-bench `info.task.actions`, the τ² file's
//! `tasks[].evaluation_criteria.actions`) become task labels
//! ([`crate::inputs::task_labels`]): each session is checked for them as τ² checks actions.

use serde_json::Value;

use super::content_text;
use super::conversation::{str_field, Conversation};
use super::odd_record::{describe, not_of_format};
use crate::diagnostic::Diagnostic;
use crate::inputs::task_labels::{actions_from, TaskLabel, TaskTarget};
use crate::json::{parse_value, Split};
use crate::model::{Origin, Session, Trial};

/// Whether a record is a τ-bench run, a τ²-bench results file, or one of the two files of
/// τ²-bench's directory format (a simulation, or the results' metadata).
pub(crate) fn is_tau(value: &Value) -> bool {
    value.get("traj").is_some_and(Value::is_array) && value.get("task_id").is_some()
        || value.get("simulations").is_some_and(Value::is_array)
        || is_simulation(value)
        || is_results_metadata(value)
}

/// One τ²-bench simulation on its own, as the directory format keeps each in
/// `simulations/<id>.json` (`tau2 convert-results --to dir`, and voice runs by default).
fn is_simulation(value: &Value) -> bool {
    value.get("messages").is_some_and(Value::is_array)
        && value.get("task_id").is_some()
        && (value.get("reward_info").is_some() || value.get("termination_reason").is_some())
}

/// The `results.json` of τ²-bench's directory format: the tasks and a `simulation_index`, the
/// simulations themselves in files beside it.
fn is_results_metadata(value: &Value) -> bool {
    value.get("simulation_index").is_some_and(Value::is_array)
        && value.get("tasks").is_some_and(Value::is_array)
        && value.get("simulations").is_none()
}

/// Reads every run, and the task labels its tasks' actions give.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> (Vec<Session>, Vec<TaskLabel>) {
    let mut sessions = Vec::new();
    let mut tasks = Vec::new();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let line = record.line;
        let origin = Origin {
            file: file.to_string(),
            line,
        };
        if let Some(traj) = value.get("traj").and_then(Value::as_array) {
            let session_id = run_id(&value, "task_id");
            if let (true, Some(error)) = (traj.is_empty(), info_error(&value)) {
                // run.py records a run whose model or tool raised as an empty `traj` with the
                // exception in `info.error`; τ-bench scores it 0, so it stays a failed trial.
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(line),
                    format!(
                        "τ-bench run {session_id:?} crashed before any message (its info.error: \
                         {error}); read as a failed trial with no messages"
                    ),
                ));
            }
            let mut conversation = Conversation::new(session_id.clone(), file, line);
            conversation.set_task_id(value.get("task_id").and_then(super::id_text));
            conversation.set_trial(trial_of(&value, value.get("reward")));
            for (index, message) in traj.iter().enumerate() {
                if is_stop_message(message) {
                    continue;
                }
                let place = format!("message {}", index + 1);
                super::openai_chat::add_message(&mut conversation, message, &place, diagnostics);
            }
            sessions.push(conversation.finish());
            let actions = value
                .get("info")
                .and_then(|info| info.get("task"))
                .and_then(|task| task.get("actions"));
            if let Some(actions) = actions {
                let target = TaskTarget::Session(session_id);
                push_task(file, &origin, target, actions, &mut tasks, diagnostics);
            }
        } else if let Some(simulations) = value.get("simulations").and_then(Value::as_array) {
            let mut run_tasks = Vec::new();
            for simulation in simulations {
                let session = simulation_session(file, line, simulation, diagnostics);
                if let Some(task) = &session.task_id {
                    if !run_tasks.contains(task) {
                        run_tasks.push(task.clone());
                    }
                }
                sessions.push(session);
            }
            push_run_tasks(file, &origin, &value, &run_tasks, &mut tasks, diagnostics);
        } else if is_simulation(&value) {
            sessions.push(simulation_session(file, line, &value, diagnostics));
        } else if is_results_metadata(&value) {
            let index = value.get("simulation_index").and_then(Value::as_array);
            let run_tasks: Vec<String> = index
                .into_iter()
                .flatten()
                .filter_map(|entry| entry.get("task_id").and_then(super::id_text))
                .collect();
            diagnostics.push(Diagnostic::warning(
                file,
                Some(line),
                format!(
                    "τ²-bench results in the directory format: this file holds the tasks and an \
                     index of {} simulations, whose messages are in simulations/<id>.json beside \
                     it (read those too); only the run tasks' actions are read here, as labels",
                    index.map_or(0, Vec::len)
                ),
            ));
            push_run_tasks(file, &origin, &value, &run_tasks, &mut tasks, diagnostics);
        } else if value.get("task_id").is_some() {
            diagnostics.push(Diagnostic::error(file, Some(line), broken_run(&value)));
        } else {
            let expected = "a τ-bench run ({\"task_id\", \"traj\"}) or τ²-bench results \
                            ({\"simulations\"})";
            diagnostics.push(not_of_format(file, line, &value, expected));
        }
    }
    (sessions, tasks)
}

/// The task labels of a τ² results file: the actions of the tasks it lists that were run.
fn push_run_tasks(
    file: &str,
    origin: &Origin,
    results: &Value,
    run_tasks: &[String],
    tasks: &mut Vec<TaskLabel>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    for task in results
        .get("tasks")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(id) = task.get("id").and_then(super::id_text) else {
            continue;
        };
        let actions = task
            .get("evaluation_criteria")
            .and_then(|criteria| criteria.get("actions"));
        if let (true, Some(actions)) = (run_tasks.contains(&id), actions) {
            push_task(
                file,
                origin,
                TaskTarget::Task(id),
                actions,
                tasks,
                diagnostics,
            );
        }
    }
}

/// Most characters of a crashed run's error a diagnostic quotes.
const ERROR_CHARS: usize = 120;

/// Why a τ-bench run (a record with `task_id`) without a `traj` list is left out, with the error
/// its `info` records when it has one (a run that crashed).
fn broken_run(run: &Value) -> String {
    let id = run_id(run, "task_id");
    let mut message = match run.get("traj") {
        None => format!("τ-bench run {id:?} has no \"traj\""),
        Some(traj) => format!(
            "τ-bench run {id:?}: its \"traj\" is {}, not a list of messages",
            describe(traj)
        ),
    };
    if let Some(error) = info_error(run) {
        message.push_str(&format!(" (its info.error: {error})"));
    }
    message.push_str("; left out");
    message
}

/// The first line of a run's `info.error`, cut to [`ERROR_CHARS`] (tracebacks are long; the first
/// line is enough to recognise the error).
fn info_error(run: &Value) -> Option<String> {
    let error = run.get("info")?.get("error")?;
    let text = content_text(error.clone());
    let first_line = text.lines().next().unwrap_or_default();
    let shown: String = first_line.chars().take(ERROR_CHARS).collect();
    let cut = if shown.len() < text.trim_end().len() {
        "…"
    } else {
        ""
    };
    Some(format!("{shown}{cut}"))
}

/// A task label from an `actions` list, or a diagnostic when the list does not read.
fn push_task(
    file: &str,
    origin: &Origin,
    target: TaskTarget,
    actions: &Value,
    tasks: &mut Vec<TaskLabel>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    match actions_from(actions) {
        Ok((actions, user_actions)) => tasks.push(TaskLabel {
            target,
            actions,
            user_actions,
            origin: origin.clone(),
        }),
        Err(message) => diagnostics.push(Diagnostic::error(
            file,
            Some(origin.line),
            format!("{target:?}: the task's actions: {message}; not a label"),
        )),
    }
}

/// What τ-bench's and τ²-bench's user simulator writes to end the conversation
/// (`"Thank you so much for your help! ###STOP###"`): a signal to the harness, not a request to
/// the agent, so not a turn.
const STOP_TOKEN: &str = "###STOP###";

/// Whether `message` is the simulated user's sign-off ([`STOP_TOKEN`]).
fn is_stop_message(message: &Value) -> bool {
    str_field(message, "role") == Some("user")
        && message
            .get("content")
            .and_then(Value::as_str)
            .is_some_and(|text| text.contains(STOP_TOKEN))
}

/// The run's trial (its `trial` number and `reward`), when it has a numeric reward.
fn trial_of(run: &Value, reward: Option<&Value>) -> Option<Trial> {
    let reward = reward
        .and_then(Value::as_f64)
        .filter(|reward| reward.is_finite())?;
    Some(Trial {
        number: run.get("trial").and_then(Value::as_u64),
        reward,
    })
}

/// `task_<id>.trial_<n>`: runs repeat tasks, so the trial is part of the name.
fn run_id(value: &Value, task_key: &str) -> String {
    let task = value
        .get(task_key)
        .and_then(super::id_text)
        .unwrap_or_else(|| "?".to_string());
    match value.get("trial").and_then(super::id_text) {
        Some(trial) => format!("task_{task}.trial_{trial}"),
        None => format!("task_{task}"),
    }
}

/// One τ²-bench simulation.
fn simulation_session(
    file: &str,
    line: usize,
    simulation: &Value,
    diagnostics: &mut Vec<Diagnostic>,
) -> Session {
    let session_id = simulation
        .get("id")
        .and_then(super::id_text)
        .unwrap_or_else(|| run_id(simulation, "task_id"));
    let mut conversation = Conversation::new(session_id, file, line);
    conversation.set_task_id(simulation.get("task_id").and_then(super::id_text));
    let reward = simulation
        .get("reward_info")
        .and_then(|info| info.get("reward"));
    conversation.set_trial(trial_of(simulation, reward));
    let mut user_call_ids = Vec::new();
    let messages = simulation.get("messages").and_then(Value::as_array);
    for (index, message) in messages.into_iter().flatten().enumerate() {
        let place = format!("message {}", index + 1);
        let content = || content_text(message.get("content").cloned().unwrap_or(Value::Null));
        match str_field(message, "role") {
            Some("user") => {
                // A user message holding only the user simulator's own tool calls is no turn,
                // nor is its sign-off that ends the conversation.
                let text = content();
                if !text.trim().is_empty() && !text.contains(STOP_TOKEN) {
                    conversation.user(text);
                }
                let calls = message.get("tool_calls").and_then(Value::as_array);
                user_call_ids.extend(
                    calls
                        .into_iter()
                        .flatten()
                        .filter_map(|c| c.get("id"))
                        .cloned(),
                );
            }
            Some("assistant") => {
                conversation.assistant(content());
                let calls = message.get("tool_calls").and_then(Value::as_array);
                for call in calls.into_iter().flatten() {
                    if str_field(call, "requestor") == Some("user") {
                        user_call_ids.extend(call.get("id").cloned());
                        continue;
                    }
                    conversation.call(
                        call.get("id").and_then(super::id_text),
                        str_field(call, "name"),
                        super::conversation::args_from(call.get("arguments")),
                        &place,
                        diagnostics,
                    );
                }
            }
            Some("tool") => {
                let id = message.get("id");
                if str_field(message, "requestor") == Some("user")
                    || id.is_some_and(|id| user_call_ids.contains(id))
                {
                    continue;
                }
                conversation.result(
                    id.and_then(super::id_text),
                    Some(content()),
                    message.get("error").and_then(Value::as_bool),
                    &place,
                    diagnostics,
                );
            }
            _ => {}
        }
    }
    conversation.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::split_records;
    use crate::model::Event;

    fn read_text(text: &str) -> (Vec<Session>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let split = split_records("runs.json", text, &mut diagnostics);
        let (sessions, _) = read("runs.json", &split, &mut diagnostics);
        (sessions, diagnostics)
    }

    /// τ-bench's run.py writes a run whose model call raised as `"traj": []` with the exception in
    /// `info.error` (not a missing or null `traj`): it read as an empty session and the crash
    /// was nowhere to be seen.
    #[test]
    fn a_tau_bench_run_that_crashed_with_an_empty_traj_is_a_failed_trial_with_a_warning() {
        let (sessions, diagnostics) = read_text(
            r#"[{"task_id": 57, "reward": 0.0, "trial": 0, "traj": [],
                 "info": {"error": "litellm.InternalServerError: overloaded", "traceback": "Traceback (most recent call last):\n  x"}}]"#,
        );
        assert_eq!(sessions.len(), 1);
        assert!(sessions[0].events.is_empty());
        assert_eq!(
            sessions[0].trial.as_ref().map(|trial| trial.reward),
            Some(0.0)
        );
        let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
        assert_eq!(
            messages,
            [
                "runs.json:1: warning: τ-bench run \"task_57.trial_0\" crashed before any message \
              (its info.error: litellm.InternalServerError: overloaded); read as a failed trial \
              with no messages"
            ]
        );
    }

    /// τ²-bench's directory format keeps each simulation in a file of its own: it was read as
    /// OpenAI Chat (τ²'s flat calls and `id`-linked results not linked, no task or reward).
    #[test]
    fn a_tau2_simulation_file_of_the_directory_format_is_one_tau2_session() {
        let simulation = r##"{"id": "sim-9", "task_id": "88", "trial": 0,
            "termination_reason": "user_stop", "reward_info": {"reward": 1.0},
            "messages": [
              {"role": "user", "content": "Cancel my order."},
              {"role": "assistant", "content": null, "tool_calls": [
                {"id": "c1", "name": "cancel_pending_order", "arguments": {"order_id": "#W1"}, "requestor": "assistant"}]},
              {"role": "tool", "id": "c1", "content": "Error: order not found", "requestor": "assistant", "error": true}]}"##;
        assert!(is_tau(&serde_json::from_str(simulation).unwrap()));
        let (sessions, diagnostics) = read_text(simulation);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let [session] = sessions.as_slice() else {
            panic!("{sessions:?}")
        };
        assert_eq!(session.session_id, "sim-9");
        assert_eq!(session.task_id.as_deref(), Some("88"));
        assert_eq!(session.trial.as_ref().map(|trial| trial.reward), Some(1.0));
        let calls = session
            .events
            .iter()
            .filter(|event| matches!(event, crate::model::Event::ToolUse(_)))
            .count();
        assert_eq!(calls, 1);
    }

    #[test]
    fn the_results_json_of_the_directory_format_gives_the_run_tasks_labels_and_a_warning() {
        let metadata = r##"{"info": {}, "simulation_index": [{"id": "sim-9", "task_id": "88", "trial": 0}],
            "tasks": [
              {"id": "88", "evaluation_criteria": {"actions": [{"name": "cancel_pending_order", "arguments": {"order_id": "#W1"}}]}},
              {"id": "89", "evaluation_criteria": {"actions": [{"name": "get_user_details", "arguments": {}}]}}]}"##;
        let mut diagnostics = Vec::new();
        let split = split_records("results.json", metadata, &mut diagnostics);
        let (sessions, tasks) = read("results.json", &split, &mut diagnostics);
        assert!(sessions.is_empty());
        assert_eq!(tasks.len(), 1);
        assert_eq!(tasks[0].target, TaskTarget::Task("88".to_string()));
        assert_eq!(diagnostics.len(), 1);
        assert!(diagnostics[0].to_string().contains("simulations/<id>.json"));
    }

    #[test]
    fn the_simulated_users_stop_message_is_not_a_turn() {
        let text = r##"[{"task_id": 3, "reward": 1.0, "traj": [
            {"role": "user", "content": "Cancel my order."},
            {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "Thank you so much for your help! ###STOP###"}]}]"##;
        let (sessions, diagnostics) = read_text(text);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let users: Vec<&Event> = sessions[0]
            .events
            .iter()
            .filter(|event| matches!(event, Event::User { .. }))
            .collect();
        assert_eq!(users.len(), 1, "{:?}", sessions[0].events);
    }

    #[test]
    fn an_empty_traj_without_an_error_gives_no_warning() {
        let (sessions, diagnostics) =
            read_text(r#"[{"task_id": 1, "reward": 0.0, "trial": 0, "traj": [], "info": {}}]"#);
        assert_eq!(sessions.len(), 1);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
}
