//! Building one [`Session`] from a conversation, whatever the format: every reader pushes user
//! and assistant text, calls and results here, so that linking checks, the `"Error: "`
//! convention and the warnings about orphaned results are the same for every format.

use std::sync::Arc;

use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::model::{
    Args, ErrorSource, Event, Origin, ResultStatus, Session, ToolCall, ToolDef, ToolResult, Trial,
};

/// A session being built, with where it came from (for diagnostics).
pub(crate) struct Conversation {
    session_id: String,
    origin: Origin,
    /// The line warnings point at: the record being read.
    line: usize,
    events: Vec<Event>,
    tools: Option<Arc<Vec<ToolDef>>>,
    calls: Vec<CallState>,
    /// Positions in `calls` of the calls with each id (ids may repeat).
    calls_by_id: HashMap<String, Vec<usize>>,
    /// How many calls still wait for their result.
    waiting: usize,
    /// Every call before this position has its result (so the oldest waiting call is found
    /// without rescanning the session).
    answered_before: usize,
    agent_id: Option<String>,
    task_id: Option<String>,
    trial: Option<Trial>,
    started_at: Option<String>,
}

/// A call made so far, and whether a result answered it.
struct CallState {
    call_id: Option<String>,
    name: String,
    is_answered: bool,
}

/// The status of a tool result: an explicit flag wins; otherwise text starting with `Error:`
/// (τ-bench's convention, and many tool wrappers') is an error, marked as inferred.
pub(crate) fn result_status(content: Option<&str>, is_error: Option<bool>) -> (ResultStatus, bool) {
    match is_error {
        Some(true) => (ResultStatus::Error, false),
        Some(false) => (ResultStatus::Ok, false),
        None if content.is_some_and(|text| text.trim_start().starts_with("Error:")) => {
            (ResultStatus::Error, true)
        }
        None => (ResultStatus::Ok, false),
    }
}

impl Conversation {
    /// An empty session read from `file` at `line`.
    pub(crate) fn new(session_id: String, file: &str, line: usize) -> Self {
        Conversation {
            session_id,
            origin: Origin {
                file: file.to_string(),
                line,
            },
            line,
            events: Vec::new(),
            tools: None,
            calls: Vec::new(),
            calls_by_id: HashMap::new(),
            waiting: 0,
            answered_before: 0,
            agent_id: None,
            task_id: None,
            trial: None,
            started_at: None,
        }
    }

    /// The session's id.
    pub(crate) fn session_id(&self) -> &str {
        &self.session_id
    }

    /// Names the agent that ran the session.
    pub(crate) fn set_agent_id(&mut self, agent_id: Option<String>) {
        if agent_id.is_some() {
            self.agent_id = agent_id;
        }
    }

    /// Records when the session started, as the export wrote it.
    pub(crate) fn set_started_at(&mut self, started_at: Option<String>) {
        if self.started_at.is_none() {
            self.started_at = started_at;
        }
    }

    /// Names the task the session attempted.
    pub(crate) fn set_task_id(&mut self, task_id: Option<String>) {
        self.task_id = task_id;
    }

    /// Records how the attempt went.
    pub(crate) fn set_trial(&mut self, trial: Option<Trial>) {
        self.trial = trial;
    }

    /// Points later warnings at `line` (the record now being read).
    pub(crate) fn set_line(&mut self, line: usize) {
        self.line = line;
    }

    /// Sets the tools the agent was given.
    pub(crate) fn set_tools(&mut self, tools: Option<Arc<Vec<ToolDef>>>) {
        if tools.is_some() {
            self.tools = tools;
        }
    }

    /// A user message.
    pub(crate) fn user(&mut self, content: String) {
        self.events.push(Event::User { content });
    }

    /// An assistant text reply; empty text (as sent beside tool calls) is not an event.
    pub(crate) fn assistant(&mut self, content: String) {
        if !content.trim().is_empty() {
            self.events.push(Event::Assistant { content });
        }
    }

    /// A tool call. A call without a name is left out with a warning at `place`.
    pub(crate) fn call(
        &mut self,
        call_id: Option<String>,
        name: Option<&str>,
        args: Args,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let Some(name) = name.filter(|name| !name.is_empty()) else {
            diagnostics.push(self.warning(format!("{place}: tool call has no name; left out")));
            return;
        };
        if let Some(id) = &call_id {
            let positions = self.calls_by_id.entry(id.clone()).or_default();
            positions.push(self.calls.len());
        }
        self.waiting += 1;
        self.calls.push(CallState {
            call_id: call_id.clone(),
            name: name.to_string(),
            is_answered: false,
        });
        self.events.push(Event::ToolUse(ToolCall {
            call_id,
            name: name.to_string(),
            args,
        }));
    }

    /// A tool result; `is_error` is the export's explicit flag, if it has one. A result whose
    /// call is not in the session is kept, with a warning at `place`.
    pub(crate) fn result(
        &mut self,
        call_id: Option<String>,
        content: Option<String>,
        is_error: Option<bool>,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        // Ids can repeat within a session (replaying mock servers): the latest call with the id
        // that still waits is the one answered.
        let answered = match &call_id {
            Some(id) => self.calls_by_id.get(id).and_then(|positions| {
                let calls = &self.calls;
                let waiting = positions.iter().rev().find(|&&at| !calls[at].is_answered);
                waiting.or(positions.last()).copied()
            }),
            None if self.waiting == 0 => None,
            None => {
                let start = self.answered_before;
                self.calls[start..]
                    .iter()
                    .position(|call| !call.is_answered)
                    .map(|offset| start + offset)
            }
        };
        match (answered, &call_id) {
            (Some(index), _) => {
                if !self.calls[index].is_answered {
                    self.calls[index].is_answered = true;
                    self.waiting -= 1;
                }
                while self
                    .calls
                    .get(self.answered_before)
                    .is_some_and(|call| call.is_answered)
                {
                    self.answered_before += 1;
                }
            }
            (None, Some(id)) => diagnostics.push(self.warning(format!(
                "{place}: result for call {id:?}, which no call in the session made"
            ))),
            (None, None) => diagnostics
                .push(self.warning(format!("{place}: tool result with no call waiting for it"))),
        }
        let (status, is_status_inferred) = result_status(content.as_deref(), is_error);
        self.events.push(Event::ToolResult(ToolResult {
            call_id,
            status,
            content,
            error_source: None,
            is_status_inferred,
        }));
    }

    /// A result that answers none of the session's calls, although one may wait (the export
    /// says it answers a call it does not hold, as OpenHands' error for a call it rejected before
    /// running it): kept, so its status counts, and linked to no call. The reader warns.
    pub(crate) fn result_of_no_call(&mut self, content: Option<String>, is_error: Option<bool>) {
        let (status, is_status_inferred) = result_status(content.as_deref(), is_error);
        self.events.push(Event::ToolResult(ToolResult {
            call_id: None,
            status,
            content,
            error_source: None,
            is_status_inferred,
        }));
    }

    /// Marks the result just added as an error read from its text (an exit code, say), where the
    /// export has no error flag.
    pub(crate) fn mark_inferred_error(&mut self) {
        if let Some(Event::ToolResult(result)) = self.events.last_mut() {
            result.status = ResultStatus::Error;
            result.is_status_inferred = true;
        }
    }

    /// Sets who caused the error of the result just added, where the export says.
    pub(crate) fn set_error_source(&mut self, source: Option<ErrorSource>) {
        if let Some(Event::ToolResult(result)) = self.events.last_mut() {
            if result.status == ResultStatus::Error {
                result.error_source = source;
            }
        }
    }

    /// Whether a call with this id was made.
    pub(crate) fn has_call(&self, call_id: &str) -> bool {
        self.calls_by_id.contains_key(call_id)
    }

    /// Whether the call with this id already has its result.
    pub(crate) fn is_answered(&self, call_id: &str) -> bool {
        self.calls_by_id
            .get(call_id)
            .is_some_and(|positions| positions.iter().any(|&at| self.calls[at].is_answered))
    }

    /// Whether the session has made any call.
    pub(crate) fn has_any_call(&self) -> bool {
        !self.calls.is_empty()
    }

    /// Whether any call still waits for its result.
    pub(crate) fn has_waiting_call(&self) -> bool {
        self.waiting > 0
    }

    /// The oldest call of `name` still waiting for its result: `Some(its id)` (which may itself
    /// be `None` for formats without ids), or `None` when no such call waits.
    pub(crate) fn waiting_call_named(&self, name: &str) -> Option<Option<String>> {
        self.calls
            .iter()
            .find(|call| !call.is_answered && call.name == name)
            .map(|call| call.call_id.clone())
    }

    /// A warning about this session.
    pub(crate) fn warning(&self, message: String) -> Diagnostic {
        Diagnostic::warning(
            &self.origin.file,
            Some(self.line),
            format!("session {:?}, {message}", self.session_id),
        )
    }

    /// The finished session.
    pub(crate) fn finish(self) -> Session {
        Session {
            session_id: self.session_id,
            agent_id: self.agent_id,
            task_id: self.task_id,
            trial: self.trial,
            started_at: self.started_at,
            parent: None,
            started_subagents: Vec::new(),
            tools: self.tools,
            events: self.events,
            origin: self.origin,
        }
    }
}

/// Arguments given as a JSON value or a string holding JSON; `null` (or the string `"null"`)
/// stays null, and missing ones are `{}`.
pub(crate) fn args_from(value: Option<&Value>) -> Args {
    Args::from_sent(
        value
            .cloned()
            .unwrap_or_else(|| Value::Object(Default::default())),
    )
}

/// A string field of an object.
pub(crate) fn str_field<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_flags_win_over_the_error_prefix() {
        assert_eq!(
            result_status(Some("Error: no such user"), None),
            (ResultStatus::Error, true)
        );
        assert_eq!(
            result_status(Some("Error: no such user"), Some(false)),
            (ResultStatus::Ok, false)
        );
        assert_eq!(
            result_status(Some("fine"), Some(true)),
            (ResultStatus::Error, false)
        );
        assert_eq!(
            result_status(Some("Errors are rare"), None),
            (ResultStatus::Ok, false)
        );
    }

    #[test]
    fn orphan_results_and_nameless_calls_are_warned_about() {
        let mut diagnostics = Vec::new();
        let mut conversation = Conversation::new("s".into(), "f.json", 3);
        conversation.result(Some("c9".into()), None, None, "message 1", &mut diagnostics);
        conversation.call(None, None, args_from(None), "message 2", &mut diagnostics);
        conversation.result(None, None, None, "message 3", &mut diagnostics);
        let messages: Vec<_> = diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(
            messages,
            [
                "f.json:3: warning: session \"s\", message 1: result for call \"c9\", which no call in the session made",
                "f.json:3: warning: session \"s\", message 2: tool call has no name; left out",
                "f.json:3: warning: session \"s\", message 3: tool result with no call waiting for it",
            ]
        );
        assert_eq!(conversation.finish().events.len(), 2);
    }
}
