//! OpenHands event streams: a conversation's events as OpenHands saves and replays them (a JSON
//! array of events, or one per line: one session per file), or evaluation outputs whose lines
//! carry a run's events in `history` (one session per line, named by `instance_id`).
//!
//! ```json
//! [{"id": 0, "source": "user", "action": "message", "args": {"content": "Rename game.py"}},
//!  {"id": 5, "source": "agent", "action": "run", "args": {"command": "mv game.py 2048.py"},
//!   "tool_call_metadata": {"function_name": "execute_bash", "tool_call_id": "toolu_1",
//!                          "model_response": {"choices": [{"message": {"tool_calls": [...]}}]}}},
//!  {"id": 6, "source": "agent", "observation": "run", "cause": 5, "content": "mv: cannot stat",
//!   "extras": {"metadata": {"exit_code": 1}}, "tool_call_metadata": {"tool_call_id": "toolu_1"}}]
//! ```
//! An agent action with `tool_call_metadata` is a call of its `function_name`, its arguments those
//! the model sent (the `model_response`'s tool call with that id), else the action's `args`; an
//! agent action without it (OpenHands without function calling) is a call named by the action
//! (`run`, `edit`, `browse`…). The action's `thought` is the agent's text before it. An
//! observation answering a call (by `tool_call_id`, else by `cause`) is its result: `content`,
//! an error when the observation is `error` or a command's `extras.metadata.exit_code` is not 0
//! (`-1`, a command still running or timed out, says nothing), or, inferred, when the file
//! editor's text starts `ERROR:` (its way of saying a command failed). An `error` observation
//! that answers no waiting call (OpenHands rejected the model's call before it became an action)
//! is an error result of no call, with a warning: the stream keeps nothing else of that call.
//! `message` actions are the user's and the agent's words; the environment's events (state
//! changes, recalls, system prompts) are not events. The agent is `openhands`. A `delegate`
//! action's events, up to the `delegate` observation that answers it, are the delegate's own
//! session (agent `openhands/<agent>`), linked to the delegating call.

use serde_json::{Map, Value};

use super::conversation::{str_field, Conversation};
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::json::{parse_value, Split};
use crate::model::{Args, ParentLink, Session};

/// The agent's id.
const AGENT: &str = "openhands";

/// What the reader expects of a record.
const EXPECTED: &str =
    "an OpenHands event ({\"source\", \"action\" or \"observation\"}) or a run with its events in \"history\"";

/// Agent actions that are not calls: words, bookkeeping.
const NOT_CALLS: [&str; 7] = [
    "message",
    "system",
    "change_agent_state",
    "recall",
    "null",
    "condensation",
    "condensation_request",
];

/// Arguments OpenHands adds to an action that the model did not send.
const ADDED_ARGS: [&str; 5] = [
    "thought",
    "impl_source",
    "translated_ipython_code",
    "security_risk",
    "confirmation_state",
];

/// Whether a value is one OpenHands event.
fn is_event(value: &Value) -> bool {
    let is_kind = |key: &str| {
        value.get(key).and_then(Value::as_str).is_some_and(|kind| {
            !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        })
    };
    // Older OpenHands wrote events flat, without `source`: an action's or observation's kind is
    // still a bare identifier (`run`, `message`), unlike SWE-agent's command text.
    (value.get("source").is_some_and(Value::is_string) || value.get("args").is_none())
        && (is_kind("action") || is_kind("observation"))
}

/// Fields of an older, flat event that are not the action's arguments.
const FLAT_NOT_ARGS: [&str; 9] = [
    "action",
    "thought",
    "action_risk",
    "is_confirmed",
    "keep_prompt",
    "kernel_init_code",
    "id",
    "timestamp",
    "message",
];

/// Whether a record is an OpenHands event, or a run whose `history` holds them.
pub(crate) fn is_record(value: &Value) -> bool {
    is_event(value)
        || value
            .get("history")
            .and_then(Value::as_array)
            .and_then(|history| history.first())
            .is_some_and(is_event)
}

/// Reads every session of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let stem = super::file_stem(file);
    let mut sessions = Vec::new();
    // Loose events (the file is a stream): one session, read when the file ends.
    let mut stream: Vec<(Value, usize)> = Vec::new();
    for record in &split.records {
        let Some(mut value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        if is_event(&value) {
            stream.push((value, record.line));
            continue;
        }
        if !is_record(&value) {
            diagnostics.push(not_of_format(file, record.line, &value, EXPECTED));
            continue;
        }
        let session_id = value
            .get("instance_id")
            .and_then(super::id_text)
            .or_else(|| issue_name(value.get("issue")?))
            .unwrap_or_else(|| format!("{stem}:{}", record.line));
        let events = match value.get_mut("history").map(Value::take) {
            Some(Value::Array(events)) => events,
            _ => Vec::new(),
        };
        let events: Vec<(Value, usize)> = events
            .into_iter()
            .map(|event| (event, record.line))
            .collect();
        sessions.extend(session_of(file, session_id, &events, diagnostics));
    }
    if !stream.is_empty() {
        let streamed = session_of(file, stem.to_string(), &stream, diagnostics);
        sessions.splice(0..0, streamed);
    }
    sessions
}

/// A resolver run's issue as `owner/repo#number`.
fn issue_name(issue: &Value) -> Option<String> {
    Some(format!(
        "{}/{}#{}",
        str_field(issue, "owner")?,
        str_field(issue, "repo")?,
        issue.get("number").and_then(super::id_text)?
    ))
}

/// One session from its events, in order.
fn session_of(
    file: &str,
    session_id: String,
    events: &[(Value, usize)],
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let line = events.first().map_or(0, |(_, line)| *line);
    let mut main = Conversation::new(session_id.clone(), file, line);
    main.set_started_at(
        events
            .first()
            .and_then(|(event, _)| str_field(event, "timestamp"))
            .map(str::to_string),
    );
    // The conversations being read: the main agent's, then each delegate it is waiting on.
    let mut stack: Vec<Delegate> = vec![Delegate {
        conversation: main,
        agent_id: AGENT.to_string(),
        parent: None,
    }];
    let mut finished: Vec<Session> = Vec::new();
    let mut delegates = 0;
    // The call each action made, by the action's event id.
    let mut calls_by_event: HashMap<String, String> = HashMap::new();
    for (index, (event, line)) in events.iter().enumerate() {
        let place = format!("event {}", index + 1);
        // A delegate's answer ends it: its session is done, and the answer is the result of the
        // call that started it.
        let cause = event.get("cause").and_then(super::id_text);
        let ends_delegate = str_field(event, "observation") == Some("delegate")
            && cause.is_some()
            && stack
                .last()
                .and_then(|top| top.parent.as_ref())
                .map(|(action, _)| action)
                == cause.as_ref();
        if ends_delegate {
            let delegate = stack.pop().expect("more than the main conversation");
            finished.push(delegate.finish(stack.last()));
        }
        let top = stack.last_mut().expect("the main conversation stays");
        top.conversation.set_line(*line);
        if let Some(action) = str_field(event, "action") {
            add_action(
                &mut top.conversation,
                event,
                action,
                &mut calls_by_event,
                &place,
                diagnostics,
            );
            if action == "delegate" && str_field(event, "source") == Some("agent") {
                delegates += 1;
                stack.push(Delegate::start(
                    event,
                    &session_id,
                    delegates,
                    &calls_by_event,
                    file,
                    *line,
                ));
            }
        } else if let Some(observation) = str_field(event, "observation") {
            add_observation(
                &mut top.conversation,
                event,
                observation,
                &calls_by_event,
                &place,
                diagnostics,
            );
        }
    }
    // Delegates still running when the stream ends are sessions too.
    while stack.len() > 1 {
        let delegate = stack.pop().expect("more than the main conversation");
        finished.push(delegate.finish(stack.last()));
    }
    let main = stack.pop().expect("the main conversation");
    let mut sessions = vec![main.finish(None)];
    sessions.extend(finished);
    sessions
}

/// A conversation being read: the main agent's or a delegate's.
struct Delegate {
    conversation: Conversation,
    agent_id: String,
    /// For a delegate: the event id of the `delegate` action and the call it made.
    parent: Option<(String, Option<String>)>,
}

impl Delegate {
    /// The delegate a `delegate` action starts: its own session, its task the first user turn.
    fn start(
        event: &Value,
        session_id: &str,
        number: usize,
        calls_by_event: &HashMap<String, String>,
        file: &str,
        line: usize,
    ) -> Delegate {
        let args = event.get("args");
        let agent = args
            .and_then(|args| str_field(args, "agent"))
            .unwrap_or("delegate");
        let mut conversation =
            Conversation::new(format!("{session_id}/delegate-{number}"), file, line);
        let task =
            args.and_then(|args| args.get("inputs"))
                .map(|inputs| match inputs.get("task") {
                    Some(task) => super::content_text(task.clone()),
                    None => super::content_text(inputs.clone()),
                });
        if let Some(task) = task.filter(|task| !task.trim().is_empty()) {
            conversation.user(task);
        }
        let event_id = event.get("id").and_then(super::id_text).unwrap_or_default();
        let call_id = calls_by_event.get(&event_id).cloned();
        Delegate {
            conversation,
            agent_id: format!("{AGENT}/{agent}"),
            parent: Some((event_id, call_id)),
        }
    }

    /// The finished session, linked to the conversation it was delegated from (`None` for the
    /// main agent's).
    fn finish(self, delegating: Option<&Delegate>) -> Session {
        let mut session = self.conversation.finish();
        session.agent_id = Some(self.agent_id);
        if let (Some((_, call_id)), Some(delegating)) = (self.parent, delegating) {
            session.parent = Some(ParentLink {
                session_id: delegating.conversation.session_id().to_string(),
                call_id,
            });
        }
        session
    }
}

fn add_action(
    conversation: &mut Conversation,
    event: &Value,
    action: &str,
    calls_by_event: &mut HashMap<String, String>,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let args = event.get("args");
    // Older, flat events carry no `source`: a message before the agent's first action is the
    // user's (the task), any other event the agent's.
    let source = str_field(event, "source").or_else(|| {
        Some(match (action, conversation.has_any_call()) {
            ("message", false) => "user",
            _ => "agent",
        })
    });
    let flat = args.is_none() && event.get("source").is_none();
    let args = if flat { Some(event) } else { args };
    if action == "message" {
        let text = args
            .and_then(|args| str_field(args, "content"))
            .or_else(|| str_field(event, "message"))
            .unwrap_or_default()
            .to_string();
        match source {
            Some("user") => conversation.user(text),
            Some("agent") => conversation.assistant(text),
            _ => {}
        }
        return;
    }
    let metadata = event.get("tool_call_metadata").filter(|m| !m.is_null());
    if source != Some("agent") || (metadata.is_none() && NOT_CALLS.contains(&action)) {
        return;
    }
    if let Some(thought) = args.and_then(|args| str_field(args, "thought")) {
        conversation.assistant(thought.to_string());
    }
    let event_id = event.get("id").and_then(super::id_text);
    let call_id = metadata
        .and_then(|metadata| str_field(metadata, "tool_call_id"))
        .map(str::to_string)
        .or_else(|| event_id.as_ref().map(|id| format!("event-{id}")));
    let name = metadata
        .and_then(|metadata| str_field(metadata, "function_name"))
        .unwrap_or(action);
    let sent = metadata.and_then(|metadata| sent_arguments(metadata, call_id.as_deref()?));
    let args = match sent {
        Some(arguments) => Args::from_sent(arguments),
        None if flat => {
            let mut map = model_args(args);
            for key in FLAT_NOT_ARGS {
                map.remove(key);
            }
            Args::Json(Value::Object(map))
        }
        None => Args::Json(Value::Object(model_args(args))),
    };
    if let (Some(event_id), Some(call_id)) = (event_id, &call_id) {
        calls_by_event.insert(event_id, call_id.clone());
    }
    conversation.call(call_id, Some(name), args, place, diagnostics);
}

/// The arguments the model sent for a call, from the model response OpenHands kept.
fn sent_arguments(metadata: &Value, call_id: &str) -> Option<Value> {
    metadata
        .get("model_response")?
        .get("choices")?
        .get(0)?
        .get("message")?
        .get("tool_calls")?
        .as_array()?
        .iter()
        .find(|call| str_field(call, "id") == Some(call_id))?
        .get("function")?
        .get("arguments")
        .cloned()
}

/// An action's arguments without those OpenHands adds.
fn model_args(args: Option<&Value>) -> Map<String, Value> {
    let mut map = args.and_then(Value::as_object).cloned().unwrap_or_default();
    for key in ADDED_ARGS {
        map.remove(key);
    }
    map
}

fn add_observation(
    conversation: &mut Conversation,
    event: &Value,
    observation: &str,
    calls_by_event: &HashMap<String, String>,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let by_metadata = event
        .get("tool_call_metadata")
        .and_then(|metadata| str_field(metadata, "tool_call_id"))
        .map(str::to_string);
    let by_cause = event
        .get("cause")
        .and_then(super::id_text)
        .and_then(|cause| calls_by_event.get(&cause).cloned());
    let is_flat = event.get("source").is_none() && event.get("cause").is_none();
    let linked = by_metadata.or(by_cause);
    let waiting = linked
        .clone()
        .filter(|id| conversation.has_call(id) && !conversation.is_answered(id));
    let content = || {
        event
            .get("content")
            .cloned()
            .map(super::content_text)
            .filter(|text| !text.is_empty())
            .or_else(|| str_field(event, "message").map(str::to_string))
            .unwrap_or_default()
    };
    let call_id = match (waiting, linked) {
        (Some(call_id), _) => Some(call_id),
        // An older, flat observation answers the oldest call still waiting.
        (None, None) if is_flat && conversation.has_waiting_call() => None,
        // An error that answers no waiting call is still an error. Without `cause` or
        // `tool_call_metadata` it is the agent's failed step (`AgentController._step`): most
        // often OpenHands rejected the model's call (an unknown tool, an argument missing or
        // outside its enum, arguments that are not JSON) before it became an action, and the
        // controller never steps while an action waits, so it answers none.
        (None, linked) if observation == "error" => {
            let why = match linked {
                Some(call_id) if conversation.has_call(&call_id) => {
                    format!("answers call {call_id:?}, which already has its result")
                }
                Some(call_id) => format!("answers call {call_id:?}, which no action made"),
                None => "answers no action (the agent's step failed, as when OpenHands rejects \
                         the model's call before it becomes an action)"
                    .to_string(),
            };
            diagnostics.push(conversation.warning(format!(
                "{place}: an error observation {why}; kept as an error result of no call"
            )));
            conversation.result_of_no_call(Some(content()), Some(true));
            return;
        }
        // State changes, recalls and the answers to messages carry no result.
        _ => return,
    };
    let content = content();
    let exit_code = event
        .get("extras")
        .and_then(|extras| extras.get("metadata"))
        .and_then(|metadata| metadata.get("exit_code"))
        .or_else(|| event.get("exit_code"))
        .and_then(|code| match code {
            Value::String(text) => text.trim().parse().ok(),
            other => other.as_i64(),
        });
    // `-1` is OpenHands' "no exit code": a command still running (a server) or timed out.
    let is_error = if observation == "error" {
        Some(true)
    } else {
        exit_code.filter(|&code| code != -1).map(|code| code != 0)
    };
    // The file editor (`str_replace_editor`) answers a failed command with `ERROR:` and the
    // message, in an ordinary `edit` or `read` observation with no error flag.
    let is_editor_error = is_error.is_none() && content.starts_with(EDITOR_ERROR_PREFIX);
    conversation.result(call_id, Some(content), is_error, place, diagnostics);
    if is_editor_error {
        conversation.mark_inferred_error();
    }
}

/// How OpenHands' file editor starts the text of a failed command, as the recorded runs show
/// ("ERROR:" then a line break and, say, "No replacement was performed"): upper case, unlike
/// the "Error:" other tools write.
const EDITOR_ERROR_PREFIX: &str = "ERROR:";
