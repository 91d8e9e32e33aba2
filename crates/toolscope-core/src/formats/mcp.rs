//! MCP message logs: the JSON-RPC 2.0 messages between an MCP client and server, as proxies,
//! inspectors and servers' own traffic logs write them, one per line (or in arrays: JSON-RPC
//! batches), bare or wrapped in a record that adds a timestamp and a direction.
//!
//! ```json
//! {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"clientInfo": {"name": "claude-ai"}}}
//! {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}
//! {"jsonrpc": "2.0", "id": 2, "result": {"tools": [{"name": "get_weather", "inputSchema": {"type": "object"}}]}}
//! {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_weather", "arguments": {"city": "Paris"}}}
//! {"jsonrpc": "2.0", "id": 3, "result": {"content": [{"type": "text", "text": "timeout"}], "isError": true}}
//! ```
//! `tools/list` results give the session's catalog (each tool's `inputSchema`; pages joined);
//! `tools/call` requests are calls (the request id links the result), and their responses the
//! results: `isError` is the explicit flag, and a JSON-RPC `error` is an error result
//! (`-32602`, invalid parameters or an unknown tool, caused by the agent's call; `-32603` by the
//! server). Each `initialize` request starts a session, named after the file (`<name>:<n>`
//! when the file holds several); the client's `clientInfo.name` is the agent. A wrapper record
//! holds the message under `message`, `msg`, `data`, `payload` or `body` (as an object or as
//! JSON text) and may name the session (`session_id`, `sessionId`, `mcp_session_id`). A
//! recorder's cassette (`{"interactions": [{"request": message, "response": message}, …]}`, as
//! mcp-recorder writes it), or one such exchange per record, gives its requests and responses in
//! order. Every other message (notifications, resources, prompts, sampling) carries no call.

use std::sync::Arc;

use serde_json::Value;

use super::conversation::{str_field, Conversation};
use super::odd_record::not_of_format;
use crate::diagnostic::{Diagnostic, Severity};
use crate::hashing::{HashMap, HashMapExt};
use crate::inputs::catalog::tools_from_value;
use crate::json::{parse_value, Split};
use crate::model::{Args, ErrorSource, Session, ToolDef};

/// What the reader expects of a record.
const EXPECTED: &str =
    "an MCP JSON-RPC message ({\"jsonrpc\": \"2.0\", …}) or a log record holding one";

/// Keys a wrapper record keeps the message under.
const WRAPPER_KEYS: [&str; 5] = ["message", "msg", "data", "payload", "body"];

/// Keys a wrapper record names its session by.
const SESSION_KEYS: [&str; 4] = ["session_id", "sessionId", "mcp_session_id", "mcpSessionId"];

/// Keys a wrapper record keeps its time under.
const TIME_KEYS: [&str; 3] = ["timestamp", "ts", "time"];

/// Whether a value is one JSON-RPC 2.0 message.
fn is_message(value: &Value) -> bool {
    str_field(value, "jsonrpc") == Some("2.0")
}

/// The JSON-RPC messages a record holds (itself, a batch, or a wrapper's message), with the
/// wrapper when there is one.
fn messages_of(value: &Value) -> Option<(Vec<Value>, Option<&Value>)> {
    if is_message(value) {
        return Some((vec![value.clone()], None));
    }
    if let Some(batch) = value.as_array() {
        let messages: Vec<Value> = batch
            .iter()
            .filter(|item| is_message(item))
            .cloned()
            .collect();
        return (!messages.is_empty()).then_some((messages, None));
    }
    if let Some(interactions) = value.get("interactions").and_then(Value::as_array) {
        let messages: Vec<Value> = interactions
            .iter()
            .filter_map(exchange_messages)
            .flatten()
            .collect();
        if !messages.is_empty() {
            return Some((messages, Some(value)));
        }
    }
    if let Some(messages) = exchange_messages(value) {
        return Some((messages, Some(value)));
    }
    WRAPPER_KEYS.iter().find_map(|key| {
        let inner = match value.get(*key)? {
            Value::String(text) => serde_json::from_str::<Value>(text).ok()?,
            other => other.clone(),
        };
        let (messages, _) = messages_of(&inner)?;
        Some((messages, Some(value)))
    })
}

/// A recorded exchange's messages: its `request`, then its `response` (either may be missing: a
/// notification has no response).
fn exchange_messages(value: &Value) -> Option<Vec<Value>> {
    let mut messages = Vec::new();
    for key in ["request", "response"] {
        if let Some(part) = value.get(key).filter(|part| is_message(part)) {
            messages.push(part.clone());
        }
    }
    (!messages.is_empty()).then_some(messages)
}

/// Whether a record is an MCP message, a batch of them or a log record holding one.
pub(crate) fn is_record(value: &Value) -> bool {
    messages_of(value).is_some()
}

/// A session being read.
struct Reading {
    conversation: Conversation,
    tools: Vec<ToolDef>,
    has_tools: bool,
    /// Requests waiting for their response, by id: `Some(true)` for `tools/call`, `Some(false)`
    /// for `tools/list`.
    pending: HashMap<String, bool>,
}

/// Reads every session of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let stem = super::file_stem(file).to_string();
    let mut readings: Vec<(String, Reading)> = Vec::new();
    // The session each wrapper's session id reads into; messages without one go to the latest.
    let mut by_key: HashMap<String, usize> = HashMap::new();
    let mut current: Option<usize> = None;
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let line = record.line;
        let Some((messages, wrapper)) = messages_of(&value) else {
            // A proxy's own log lines sit between the messages it logs: nothing of the
            // conversation is lost by skipping one, so it is a warning, not an error.
            let mut diagnostic = not_of_format(file, line, &value, EXPECTED);
            if value.is_object() {
                diagnostic.severity = Severity::Warning;
                diagnostic.message = diagnostic.message.replace("; left out", "; skipped");
            }
            diagnostics.push(diagnostic);
            continue;
        };
        let key = wrapper.and_then(|wrapper| {
            SESSION_KEYS
                .iter()
                .find_map(|key| wrapper.get(*key).and_then(super::id_text))
        });
        let time = wrapper.and_then(|wrapper| {
            TIME_KEYS
                .iter()
                .find_map(|key| wrapper.get(*key).and_then(super::id_text))
        });
        for message in &messages {
            let starts = str_field(message, "method") == Some("initialize");
            let at = match &key {
                Some(key) => *by_key.entry(key.clone()).or_insert_with(|| {
                    readings.push((key.clone(), Reading::new(key.clone(), file, line)));
                    readings.len() - 1
                }),
                None => match current {
                    Some(at) if !starts => at,
                    _ => {
                        readings.push((String::new(), Reading::new(stem.clone(), file, line)));
                        readings.len() - 1
                    }
                },
            };
            if key.is_none() {
                current = Some(at);
            }
            let reading = &mut readings[at].1;
            reading.conversation.set_line(line);
            reading.conversation.set_started_at(time.clone());
            reading.add(message, file, line, diagnostics);
        }
    }
    // Sessions named after the file are numbered when the file holds several.
    let unnamed = readings.iter().filter(|(key, _)| key.is_empty()).count();
    let mut number = 0;
    readings
        .into_iter()
        .map(|(key, reading)| {
            let mut session = reading.finish();
            if key.is_empty() && unnamed > 1 {
                number += 1;
                session.session_id = format!("{stem}:{number}");
            }
            session
        })
        .collect()
}

impl Reading {
    fn new(session_id: String, file: &str, line: usize) -> Self {
        Reading {
            conversation: Conversation::new(session_id, file, line),
            tools: Vec::new(),
            has_tools: false,
            pending: HashMap::new(),
        }
    }

    /// One JSON-RPC message.
    fn add(&mut self, message: &Value, file: &str, line: usize, diagnostics: &mut Vec<Diagnostic>) {
        let id = message.get("id").and_then(super::id_text);
        if let Some(method) = str_field(message, "method") {
            let params = message.get("params");
            match method {
                "initialize" => {
                    let client = params
                        .and_then(|params| params.get("clientInfo"))
                        .and_then(|info| str_field(info, "name"))
                        .map(str::to_string);
                    self.conversation.set_agent_id(client);
                }
                "tools/list" => {
                    if let Some(id) = id {
                        self.pending.insert(id, false);
                    }
                }
                "tools/call" => {
                    let place = format!("tools/call request at line {line}");
                    if let Some(id) = &id {
                        self.pending.insert(id.clone(), true);
                    }
                    self.conversation.call(
                        id,
                        params.and_then(|params| str_field(params, "name")),
                        Args::Json(
                            params
                                .and_then(|params| params.get("arguments"))
                                .cloned()
                                .unwrap_or_else(|| Value::Object(Default::default())),
                        ),
                        &place,
                        diagnostics,
                    );
                }
                _ => {}
            }
            return;
        }
        let Some(id) = id else {
            return;
        };
        match self.pending.remove(&id) {
            Some(false) => self.add_tools(message, file, line, diagnostics),
            Some(true) => self.add_result(id, message, line, diagnostics),
            // The answer to a request that carries no call (resources, prompts, sampling).
            None => {}
        }
    }

    /// A `tools/list` response: its tools join the session's catalog.
    fn add_tools(
        &mut self,
        message: &Value,
        file: &str,
        line: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let Some(tools) = message.get("result").and_then(|result| result.get("tools")) else {
            return;
        };
        match tools_from_value(tools) {
            Ok(tools) => {
                self.tools.extend(tools);
                self.has_tools = true;
            }
            Err(why) => diagnostics.push(Diagnostic::error(
                file,
                Some(line),
                format!("tools/list result: {why}; its tools are ignored"),
            )),
        }
    }

    /// A `tools/call` response.
    fn add_result(
        &mut self,
        id: String,
        message: &Value,
        line: usize,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let place = format!("tools/call response at line {line}");
        if let Some(error) = message.get("error").filter(|error| !error.is_null()) {
            let text = str_field(error, "message")
                .map(str::to_string)
                .unwrap_or_else(|| error.to_string());
            self.conversation
                .result(Some(id), Some(text), Some(true), &place, diagnostics);
            let source = match error.get("code").and_then(Value::as_i64) {
                Some(-32602) => Some(ErrorSource::Agent),
                Some(-32603) => Some(ErrorSource::Environment),
                _ => None,
            };
            self.conversation.set_error_source(source);
            return;
        }
        let result = message.get("result").cloned().unwrap_or(Value::Null);
        let content = match result.get("content") {
            Some(Value::Array(parts)) if !parts.is_empty() => {
                super::content_text(Value::Array(parts.clone()))
            }
            _ => match result.get("structuredContent") {
                Some(structured) => structured.to_string(),
                None => String::new(),
            },
        };
        let is_error = result.get("isError").and_then(Value::as_bool);
        self.conversation
            .result(Some(id), Some(content), is_error, &place, diagnostics);
    }

    fn finish(mut self) -> Session {
        if self.has_tools {
            self.conversation
                .set_tools(Some(Arc::new(std::mem::take(&mut self.tools))));
        }
        self.conversation.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_exchange_per_line_gives_its_request_then_its_response() {
        let text = concat!(
            r#"{"type": "jsonrpc_request", "request": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 1}}}, "response": {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "oops"}], "isError": true}}}"#,
            "\n",
            r#"{"type": "notification", "request": {"jsonrpc": "2.0", "method": "notifications/initialized"}, "response": null}"#,
            "\n"
        );
        let mut diagnostics = Vec::new();
        let split = crate::json::split_records("log.jsonl", text, &mut diagnostics);
        assert!(is_record(
            &serde_json::from_str(text.lines().next().unwrap()).unwrap()
        ));
        let sessions = read("log.jsonl", &split, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(sessions.len(), 1);
        assert_eq!(sessions[0].calls().count(), 1);
        let is_error = sessions[0].events.iter().any(|event| {
            matches!(event, crate::model::Event::ToolResult(result)
                if result.status == crate::model::ResultStatus::Error)
        });
        assert!(is_error);
    }
}
