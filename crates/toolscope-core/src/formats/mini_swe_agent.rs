//! mini-swe-agent trajectories (`.traj.json`), read by the `swe_agent` reader:
//! `{"info": {...}, "messages": [...], "trajectory_format": "mini-swe-agent-1"}`, one session
//! per trajectory (named by its `instance_id`, else after the file), agent `mini-swe-agent`.
//!
//! ```json
//! {"trajectory_format": "mini-swe-agent-1.1", "info": {"exit_status": "Submitted"},
//!  "messages": [
//!   {"role": "system", "content": "You are a helpful assistant …"},
//!   {"role": "user", "content": "Please solve this issue: …"},
//!   {"role": "assistant", "content": "Let me look.", "tool_calls": [{"id": "call_1",
//!     "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}],
//!    "extra": {"actions": [{"command": "ls", "tool_call_id": "call_1"}]}},
//!   {"role": "tool", "tool_call_id": "call_1", "content": "…",
//!    "extra": {"returncode": 0, "exception_info": ""}},
//!   {"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": ""}}]}
//! ```
//! Version 1 (`mini-swe-agent-1`) keeps only `role` and `content`: the bash command is the one
//! ```` ```bash ```` block of the assistant's text and the next user message its observation
//! (`<returncode>N</returncode>` first). Version 2 (`mini-swe-agent-1.1`) adds `extra`: the
//! parsed `actions`, the observation's `returncode` and `exception_info`, and the
//! `interrupt_type` of the notices the agent itself sends (format errors); with tool calling the
//! calls are OpenAI's `tool_calls`, answered by `tool` messages.

use serde_json::{json, Value};

use super::conversation::{str_field, Conversation};
use crate::diagnostic::Diagnostic;
use crate::model::{Args, Session};

/// The agent's id.
const AGENT: &str = "mini-swe-agent";

/// The text mini-swe-agent pads the observation of an action with when it was not run (the
/// submitting action's included: its output ends the run instead).
const NOT_EXECUTED: &str = "action was not executed";

/// Whether a record is a mini-swe-agent trajectory.
pub(crate) fn is_trajectory(value: &Value) -> bool {
    value
        .get("trajectory_format")
        .and_then(Value::as_str)
        .is_some_and(|format| format.starts_with("mini-swe-agent"))
        && value.get("messages").is_some_and(Value::is_array)
}

/// Reads one trajectory (`value`, at `line` of `file`; `session_id` its name if it has no
/// `instance_id`).
pub(crate) fn read_trajectory(
    value: &Value,
    session_id: String,
    file: &str,
    line: usize,
    diagnostics: &mut Vec<Diagnostic>,
) -> Session {
    let instance_id = str_field(value, "instance_id").map(str::to_string);
    let mut conversation = Conversation::new(instance_id.clone().unwrap_or(session_id), file, line);
    conversation.set_task_id(instance_id);
    let messages = value["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or(&[]);
    let mut reader = Reader {
        conversation,
        has_task: false,
        padded: Vec::new(),
    };
    for (index, message) in messages.iter().enumerate() {
        let place = format!("message {}", index + 1);
        reader.message(message, &place, diagnostics);
    }
    reader.flush_padded(None, diagnostics);
    let mut session = reader.conversation.finish();
    session.agent_id = Some(AGENT.to_string());
    session
}

/// The state of reading one trajectory.
struct Reader {
    conversation: Conversation,
    /// Whether the task (the first user message) was read.
    has_task: bool,
    /// `tool` results padded as not executed, held until the next message says whether the
    /// first of them submitted (an `exit` message with `exit_status: "Submitted"`).
    padded: Vec<(Option<String>, String, String)>,
}

impl Reader {
    fn message(&mut self, message: &Value, place: &str, diagnostics: &mut Vec<Diagnostic>) {
        let content = super::content_text(message.get("content").cloned().unwrap_or(Value::Null));
        let extra = message.get("extra").unwrap_or(&Value::Null);
        let role = str_field(message, "role");
        if role == Some("tool") {
            let call_id = message.get("tool_call_id").and_then(super::id_text);
            if str_field(extra, "exception_info") == Some(NOT_EXECUTED) {
                self.padded.push((call_id, content, place.to_string()));
            } else {
                self.flush_padded(None, diagnostics);
                self.observation(call_id, content, extra, place, diagnostics);
            }
            return;
        }
        let submission = (role == Some("exit")
            && str_field(extra, "exit_status") == Some("Submitted"))
        .then(|| {
            str_field(extra, "submission")
                .unwrap_or(&content)
                .to_string()
        });
        self.flush_padded(submission.clone(), diagnostics);
        match role {
            Some("user") if !self.has_task => {
                self.has_task = true;
                self.conversation.user(content);
            }
            // The notices the agent sends (a format error) answer no call and are not the user's.
            Some("user") if extra.get("interrupt_type").is_some() => {}
            Some("user") if self.conversation.has_waiting_call() => {
                self.observation(None, content, extra, place, diagnostics);
            }
            // Version 1 keeps no `extra`: a user message that answers no action is the agent's
            // own notice (a format error, a limit reached), not the user's.
            Some("user") if extra.is_null() => {}
            Some("user") => self.conversation.user(content),
            Some("assistant") => self.assistant(message, content, extra, place, diagnostics),
            // The submitting action's output ends the run: the submission is its result.
            Some("exit") => {
                let waiting = self.conversation.waiting_call_named("bash");
                if let (Some(submission), Some(call_id)) = (submission, waiting) {
                    self.conversation.result(
                        call_id,
                        Some(submission),
                        Some(false),
                        place,
                        diagnostics,
                    );
                }
            }
            _ => {}
        }
    }

    /// The assistant's text, then its bash actions: `tool_calls`, else the parsed `actions` in
    /// `extra`, else the one bash block of its text.
    fn assistant(
        &mut self,
        message: &Value,
        content: String,
        extra: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let commands = match extra.get("actions").and_then(Value::as_array) {
            Some(actions) => actions
                .iter()
                .filter_map(|action| str_field(action, "command").map(str::to_string))
                .collect(),
            None => one_bash_block(&content).into_iter().collect::<Vec<_>>(),
        };
        self.conversation.assistant(content);
        let tool_calls = message
            .get("tool_calls")
            .and_then(Value::as_array)
            .filter(|calls| !calls.is_empty());
        if let Some(tool_calls) = tool_calls {
            for call in tool_calls {
                super::openai_chat::add_tool_call(&mut self.conversation, call, place, diagnostics);
            }
            return;
        }
        for command in commands {
            self.conversation.call(
                None,
                Some("bash"),
                Args::Json(json!({ "command": command })),
                place,
                diagnostics,
            );
        }
    }

    /// An action's observation: an error when `extra` has a non-zero `returncode` or an
    /// `exception_info`; without `extra` (version 1), read from the text.
    fn observation(
        &mut self,
        call_id: Option<String>,
        content: String,
        extra: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let returncode = extra.get("returncode").and_then(Value::as_i64);
        let has_exception = str_field(extra, "exception_info").is_some_and(|info| !info.is_empty());
        let is_error = match returncode {
            Some(code) => Some(code != 0 || has_exception),
            None if has_exception => Some(true),
            None => None,
        };
        let inferred_error = is_error.is_none() && is_failure_text(&content);
        self.conversation
            .result(call_id, Some(content), is_error, place, diagnostics);
        if inferred_error {
            self.conversation.mark_inferred_error();
        }
    }

    /// The padded results held so far: when the run was submitted, the first is the submitting
    /// action's (it ran; its output is the submission), the rest were not run.
    fn flush_padded(&mut self, submission: Option<String>, diagnostics: &mut Vec<Diagnostic>) {
        let mut submission = submission;
        for (call_id, content, place) in std::mem::take(&mut self.padded) {
            match submission.take() {
                Some(text) => {
                    self.conversation
                        .result(call_id, Some(text), Some(false), &place, diagnostics);
                }
                None => {
                    self.conversation.result(
                        call_id,
                        Some(content),
                        Some(true),
                        &place,
                        diagnostics,
                    );
                }
            }
        }
    }
}

/// The command of the one ```` ```bash ```` (or ```` ```mswea_bash_command ````) block of an
/// answer, as mini-swe-agent's action regex finds it; none when there are none or several (a
/// format error: the command was not run).
fn one_bash_block(content: &str) -> Option<String> {
    let mut commands = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("```") {
        let after = &rest[start + 3..];
        let Some(body) = ["bash", "mswea_bash_command"].iter().find_map(|tag| {
            let tail = after.strip_prefix(tag)?;
            let spaces = tail.len() - tail.trim_start_matches([' ', '\t', '\r']).len();
            tail[spaces..].strip_prefix('\n')
        }) else {
            rest = after;
            continue;
        };
        match body.find("\n```") {
            Some(end) => {
                commands.push(body[..end].trim().to_string());
                rest = &body[end + 4..];
            }
            None => break,
        }
    }
    match commands.as_slice() {
        [command] => Some(command.clone()),
        _ => None,
    }
}

/// Whether an observation's text says the action failed (version 1 keeps no `returncode`
/// field): `<returncode>N</returncode>` with N not 0, or the default timeout notice.
fn is_failure_text(content: &str) -> bool {
    let text = content.trim_start();
    if let Some(code) = text
        .strip_prefix("<returncode>")
        .and_then(|rest| rest.split_once("</returncode>"))
        .map(|(code, _)| code.trim())
    {
        return code != "0";
    }
    text.starts_with("The last command <command>") && text.contains("timed out")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, ResultStatus};

    fn read(value: Value) -> (Session, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let session = read_trajectory(&value, "run".into(), "run.traj.json", 1, &mut diagnostics);
        (session, diagnostics)
    }

    fn statuses(session: &Session) -> Vec<ResultStatus> {
        session
            .events
            .iter()
            .filter_map(|event| match event {
                Event::ToolResult(result) => Some(result.status),
                _ => None,
            })
            .collect()
    }

    fn users(session: &Session) -> usize {
        session
            .events
            .iter()
            .filter(|event| matches!(event, Event::User { .. }))
            .count()
    }

    #[test]
    fn version_one_bash_block_is_a_call_answered_by_the_next_user_message() {
        let (session, diagnostics) = read(json!({
            "trajectory_format": "mini-swe-agent-1", "info": {},
            "messages": [
                {"role": "system", "content": "s"},
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "THOUGHT: look\n\n```bash\nls -la\n```"},
                {"role": "user", "content": "<returncode>2</returncode>\n<output>\nno\n</output>"},
                {"role": "assistant", "content": "THOUGHT: done\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```"},
                {"role": "user", "content": "diff --git a/x b/x"}]
        }));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(users(&session), 1);
        assert_eq!(statuses(&session), [ResultStatus::Error, ResultStatus::Ok]);
        let Some(Event::ToolUse(call)) = session.events.get(2) else {
            panic!("{:?}", session.events);
        };
        assert_eq!(call.name, "bash");
        assert_eq!(call.args, Args::Json(json!({"command": "ls -la"})));
    }

    #[test]
    fn version_one_format_error_notice_is_not_a_user_turn() {
        let (session, diagnostics) = read(json!({
            "trajectory_format": "mini-swe-agent-1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "```bash\nls\n```\n\n```bash\npwd\n```"},
                {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks, found 2 actions."},
                {"role": "assistant", "content": "```bash\nls\n```"},
                {"role": "user", "content": "<returncode>0</returncode>\n<output>\nx\n</output>"},
                {"role": "user", "content": "LimitsExceeded"}]
        }));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(users(&session), 1);
        assert_eq!(statuses(&session), [ResultStatus::Ok]);
    }

    #[test]
    fn version_one_timeout_notice_is_an_error() {
        let (session, _) = read(json!({
            "trajectory_format": "mini-swe-agent-1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "```bash\nsleep 99\n```"},
                {"role": "user", "content": "The last command <command>sleep 99</command> timed out and has been killed."}]
        }));
        assert_eq!(statuses(&session), [ResultStatus::Error]);
    }

    #[test]
    fn returncode_and_exception_info_give_the_error_flag() {
        let (session, _) = read(json!({
            "trajectory_format": "mini-swe-agent-1.1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "a", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"true\"}"}},
                    {"id": "b", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"false\"}"}},
                    {"id": "c", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"sleep 9\"}"}}]},
                {"role": "tool", "tool_call_id": "a", "content": "", "extra": {"returncode": 0, "exception_info": ""}},
                {"role": "tool", "tool_call_id": "b", "content": "", "extra": {"returncode": 1, "exception_info": ""}},
                {"role": "tool", "tool_call_id": "c", "content": "", "extra": {"returncode": -1, "exception_info": "timed out"}}]
        }));
        assert_eq!(
            statuses(&session),
            [ResultStatus::Ok, ResultStatus::Error, ResultStatus::Error]
        );
    }

    #[test]
    fn submitting_action_padded_as_not_executed_is_answered_by_the_submission() {
        let (session, diagnostics) = read(json!({
            "trajectory_format": "mini-swe-agent-1.1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "s", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\"}"}},
                    {"id": "t", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]},
                {"role": "tool", "tool_call_id": "s", "content": "{}", "extra": {"returncode": -1, "exception_info": "action was not executed"}},
                {"role": "tool", "tool_call_id": "t", "content": "{}", "extra": {"returncode": -1, "exception_info": "action was not executed"}},
                {"role": "exit", "content": "patch", "extra": {"exit_status": "Submitted", "submission": "patch"}}]
        }));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(statuses(&session), [ResultStatus::Ok, ResultStatus::Error]);
    }

    #[test]
    fn submission_answers_the_submitting_action_left_waiting() {
        let (session, diagnostics) = read(json!({
            "trajectory_format": "mini-swe-agent-1.1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "assistant", "content": "```mswea_bash_command\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```",
                 "extra": {"actions": [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}]}},
                {"role": "exit", "content": "", "extra": {"exit_status": "Submitted", "submission": ""}}]
        }));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(statuses(&session), [ResultStatus::Ok]);
    }

    #[test]
    fn format_error_interrupt_is_not_a_user_turn() {
        let (session, _) = read(json!({
            "trajectory_format": "mini-swe-agent-1.1", "info": {},
            "messages": [
                {"role": "user", "content": "task"},
                {"role": "user", "content": "Format error", "extra": {"interrupt_type": "FormatError"}}]
        }));
        assert_eq!(users(&session), 1);
    }

    #[test]
    fn one_bash_block_needs_exactly_one() {
        assert_eq!(one_bash_block("```bash\nls\n```").as_deref(), Some("ls"));
        assert_eq!(
            one_bash_block("t\n```mswea_bash_command\ncat a\nb\n```").as_deref(),
            Some("cat a\nb")
        );
        assert_eq!(one_bash_block("```python\nx\n```"), None);
        assert_eq!(one_bash_block("```bash\na\n```\n```bash\nb\n```"), None);
        assert_eq!(one_bash_block("no block"), None);
    }

    #[test]
    fn instance_id_names_the_session() {
        let (session, _) = read(json!({
            "trajectory_format": "mini-swe-agent-1", "instance_id": "django__django-1",
            "info": {}, "messages": []
        }));
        assert_eq!(session.session_id, "django__django-1");
        assert_eq!(session.task_id.as_deref(), Some("django__django-1"));
    }
}
