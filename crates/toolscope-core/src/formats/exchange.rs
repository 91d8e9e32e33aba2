//! What the provider API readers (OpenAI Chat, OpenAI Responses, Anthropic, Gemini) share: the
//! ways a file holds requests and responses, and how exchanges join into conversations.
//!
//! A record may be a request body, a response body, a request/response pair
//! (`{"request": {"body": …}, "response": {"body": …}}`, bodies possibly JSON strings), a recorded
//! log `{"interactions": [pair, …]}`, an OpenAI Batch line (`{"custom_id", "body"}` in,
//! `{"custom_id", "response": {"body"}}` out) or a single message of a bare message list.
//!
//! Exchanges join into one conversation when a request names the previous response
//! (`previous_response_id`), when a logged request repeats an earlier request's messages and adds
//! to them (clients resend the history; the conversation may be one of the last
//! [`JOIN_LOOKBACK`], as an agent run as a tool logs its own exchanges in between), or when batch
//! lines share a `custom_id`; responses logged without their requests, one after another, are
//! one conversation (a persistent chat's answers in turn). A conversation's tools are those its requests declared, the latest
//! definition of each name (an agent handing off to another sends other tools).

use std::sync::Arc;

use serde_json::Value;

use super::conversation::Conversation;
use super::native::ToolLists;
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashSet};
use crate::json::{parse_value, Split};
use crate::model::{Session, ToolDef};

/// How many of the latest conversations a logged request may continue (a bound, so that joining
/// stays linear in the file).
const JOIN_LOOKBACK: usize = 16;

/// One provider API's message shapes.
pub(crate) trait Dialect {
    /// Whether a record is one message of a bare message list; by default, one with a `role`.
    fn is_message(value: &Value) -> bool {
        value.get("role").is_some_and(Value::is_string)
    }
    /// Whether a record is a request body; by default, one with a `messages` list.
    fn is_request(value: &Value) -> bool {
        value.get("messages").is_some_and(Value::is_array)
    }
    /// Whether a record is a response body.
    fn is_response(value: &Value) -> bool;
    /// The messages (or items) a request sends, in order; by default its `messages`.
    fn request_messages(body: &Value) -> Vec<Value> {
        body.get("messages")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }
    /// The messages (or items) a response returns.
    fn response_messages(body: &Value) -> Vec<Value>;
    /// The tool definitions a request declares, in a shape `tools_from_value` reads.
    fn tools(body: &Value) -> Option<Value>;
    /// Adds one message to the conversation; `place` locates it for diagnostics.
    fn add_message(
        conversation: &mut Conversation,
        message: &Value,
        place: &str,
        diagnostics: &mut Vec<Diagnostic>,
    );
    /// The response's id, when later requests can name it.
    fn response_id(_body: &Value) -> Option<&str> {
        None
    }
    /// The earlier response a request continues.
    fn previous_response_id(_body: &Value) -> Option<&str> {
        None
    }
    /// Why a response body says the request failed, if it does.
    fn failure(body: &Value) -> Option<String> {
        let error = body.get("error").filter(|error| !error.is_null())?;
        Some(
            error
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| error.to_string(), str::to_string),
        )
    }
    /// Whether a record starts a streamed response (a chunk or event that later records may
    /// continue).
    fn is_stream_chunk(_value: &Value) -> bool {
        false
    }
    /// Whether `next` continues the streamed response whose chunks so far are `stream`.
    fn continues_stream(_stream: &[Value], _next: &Value) -> bool {
        false
    }
    /// One response from a streamed response's chunks, in order.
    fn merge_stream(chunks: Vec<Value>) -> Value {
        chunks.into_iter().last().unwrap_or(Value::Null)
    }
    /// What records of this format look like, for the diagnostic on a record it cannot read.
    const EXPECTED: &'static str;
}

/// One request and/or response found in a record.
struct Exchange {
    request: Option<Value>,
    response: Option<Value>,
    batch_id: Option<String>,
    is_logged: bool,
    /// Why a batch request failed, when its line says.
    failure: Option<String>,
}

/// Messages joined from one or more exchanges.
struct Thread {
    session_id: String,
    line: usize,
    sent: Vec<Value>,
    reply: Vec<Value>,
    /// Each tool list its requests declared (a repeat of the latest is not kept again).
    tools: Vec<Value>,
    response_id: Option<String>,
}

/// The threads of a file, indexed by batch id and by response id (files can hold many thousand).
#[derive(Default)]
struct Threads {
    list: Vec<Thread>,
    by_batch: HashMap<String, usize>,
    by_response: HashMap<String, usize>,
    /// The conversation of the responses logged without their requests, while no request
    /// has come between.
    responses_only: Option<usize>,
}

/// Reads every record of a provider API file as the dialect `D`.
pub(crate) fn read<D: Dialect>(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let stem = super::file_stem(file);
    let mut threads = Threads::default();
    let mut loose: Option<Conversation> = None;
    let mut loose_count = 0;
    // Chunks of a streamed response, merged into one response when its last chunk arrives.
    let mut stream: Vec<Value> = Vec::new();
    let mut stream_line = 0;
    let mut handle = |value: Value, line: usize, diagnostics: &mut Vec<Diagnostic>| {
        if D::is_message(&value) {
            let conversation =
                loose.get_or_insert_with(|| Conversation::new(stem.to_string(), file, line));
            conversation.set_line(line);
            loose_count += 1;
            let place = format!("message {loose_count}");
            D::add_message(conversation, &value, &place, diagnostics);
            return;
        }
        let exchanges = match exchanges_of::<D>(value) {
            Ok(exchanges) => exchanges,
            Err(Unread::OtherFormat(value)) => {
                diagnostics.push(not_of_format(file, line, &value, D::EXPECTED));
                return;
            }
            Err(Unread::Broken(message)) => {
                diagnostics.push(Diagnostic::error(file, Some(line), message));
                return;
            }
        };
        let first_thread = threads.list.len();
        for exchange in exchanges {
            if let Some(failure) = &exchange.failure {
                diagnostics.push(Diagnostic::warning(file, Some(line), failure.clone()));
            }
            if let Some(failure) = exchange.response.as_ref().and_then(D::failure) {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(line),
                    format!("a response reports a failed request: {failure}"),
                ));
            }
            join::<D>(&mut threads, first_thread, exchange, stem, line);
        }
    };
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        if !stream.is_empty() {
            if D::continues_stream(&stream, &value) {
                stream.push(value);
                continue;
            }
            // The stream is complete (or was cut short: still one response).
            handle(
                D::merge_stream(std::mem::take(&mut stream)),
                stream_line,
                diagnostics,
            );
        }
        if D::is_stream_chunk(&value) {
            stream.push(value);
            stream_line = record.line;
            continue;
        }
        handle(value, record.line, diagnostics);
    }
    if !stream.is_empty() {
        handle(D::merge_stream(stream), stream_line, diagnostics);
    }
    let mut tool_lists = ToolLists::default();
    let mut sessions: Vec<Session> = loose.into_iter().map(Conversation::finish).collect();
    for thread in threads.list {
        let mut conversation = Conversation::new(thread.session_id, file, thread.line);
        let mut lists = Vec::new();
        for tools in &thread.tools {
            match tool_lists.read(&tools.to_string()) {
                Ok(tools) => lists.push(tools),
                Err(message) => diagnostics.push(
                    conversation.warning(format!("\"tools\": {message}; its tools are ignored")),
                ),
            }
        }
        conversation.set_tools(merge_tools(lists));
        let sent = thread.sent.len();
        for (index, message) in thread.sent.iter().chain(&thread.reply).enumerate() {
            let place = if index < sent {
                format!("request message {}", index + 1)
            } else {
                format!("response message {}", index - sent + 1)
            };
            D::add_message(&mut conversation, message, &place, diagnostics);
        }
        sessions.push(conversation.finish());
    }
    sessions
}

/// One catalog from the tool lists a conversation's requests declared, in order: the latest
/// definition of each tool name.
fn merge_tools(mut lists: Vec<Arc<Vec<ToolDef>>>) -> Option<Arc<Vec<ToolDef>>> {
    let latest = lists.pop()?;
    if lists.is_empty() {
        return Some(latest);
    }
    let mut names: HashSet<String> = latest.iter().map(|tool| tool.name.clone()).collect();
    let mut merged: Vec<ToolDef> = latest.as_ref().clone();
    for earlier in lists.iter().rev() {
        for tool in earlier.iter() {
            if names.insert(tool.name.clone()) {
                merged.push(tool.clone());
            }
        }
    }
    Some(Arc::new(merged))
}

/// Joins an exchange to the thread it continues, or starts a new one.
fn join<D: Dialect>(
    threads: &mut Threads,
    first_of_record: usize,
    exchange: Exchange,
    stem: &str,
    line: usize,
) {
    let sent = exchange
        .request
        .as_ref()
        .map(D::request_messages)
        .unwrap_or_default();
    let reply = exchange
        .response
        .as_ref()
        .map(D::response_messages)
        .unwrap_or_default();
    let tools = exchange.request.as_ref().and_then(D::tools);
    let response_id = exchange
        .response
        .as_ref()
        .and_then(D::response_id)
        .map(str::to_string);
    let previous = exchange.request.as_ref().and_then(D::previous_response_id);
    // Responses logged without their requests, one after another, are one chat's: a client
    // logging a persistent chat (Gemini CLI's recorded responses, say) writes each answer in
    // turn, and nothing in them says they belong to different conversations.
    let is_response_only = exchange.request.is_none() && exchange.batch_id.is_none();
    if !is_response_only {
        threads.responses_only = None;
    }
    let continued = if let Some(batch_id) = &exchange.batch_id {
        threads.by_batch.get(batch_id).copied()
    } else if is_response_only {
        // Where responses name the one they follow (OpenAI Responses), that says which chat: one
        // that names none starts its own.
        match exchange.response.as_ref().and_then(D::previous_response_id) {
            Some(previous) => threads.by_response.get(previous).copied(),
            None if response_id.is_some() => None,
            None => threads.responses_only,
        }
    } else if let Some(previous) = previous {
        threads.by_response.get(previous).copied()
    } else if exchange.is_logged {
        let from = threads.list.len().saturating_sub(JOIN_LOOKBACK);
        (from..threads.list.len()).rev().find(|&at| {
            let earlier = &threads.list[at].sent;
            !earlier.is_empty()
                && sent.len() > earlier.len()
                && sent[..earlier.len()] == earlier[..]
        })
    } else {
        None
    };
    let Some(index) = continued else {
        let count = threads.list.len() - first_of_record;
        let index = threads.list.len();
        if let Some(batch_id) = &exchange.batch_id {
            threads.by_batch.insert(batch_id.clone(), index);
        }
        if let Some(response_id) = &response_id {
            threads.by_response.insert(response_id.clone(), index);
        }
        if is_response_only {
            threads.responses_only = Some(index);
        }
        threads.list.push(Thread {
            session_id: match &exchange.batch_id {
                Some(batch_id) => batch_id.clone(),
                None if count == 0 => format!("{stem}:{line}"),
                None => format!("{stem}:{line}.{}", count + 1),
            },
            line,
            sent,
            reply,
            tools: tools.into_iter().collect(),
            response_id,
        });
        return;
    };
    if let Some(response_id) = &response_id {
        threads.by_response.insert(response_id.clone(), index);
    }
    let thread = &mut threads.list[index];
    if exchange.batch_id.is_some() {
        if exchange.request.is_some() {
            thread.sent = sent;
        }
        if exchange.response.is_some() {
            thread.reply = reply;
        }
    } else if previous.is_some() || is_response_only {
        let reply_before = std::mem::take(&mut thread.reply);
        thread.sent.extend(reply_before);
        thread.sent.extend(sent);
        thread.reply = reply;
    } else {
        thread.sent = sent;
        thread.reply = reply;
    }
    if let Some(tools) = tools {
        if thread.tools.last() != Some(&tools) {
            thread.tools.push(tools);
        }
    }
    if response_id.is_some() {
        thread.response_id = response_id;
    }
}

/// Why a record gives no exchanges.
enum Unread {
    /// None of the dialect's shapes: the record, for the diagnostic to say what it is.
    OtherFormat(Value),
    /// One of its shapes, with a part that does not read.
    Broken(String),
}

impl From<String> for Unread {
    fn from(message: String) -> Unread {
        Unread::Broken(message)
    }
}

/// The exchanges a record holds.
fn exchanges_of<D: Dialect>(value: Value) -> Result<Vec<Exchange>, Unread> {
    let Value::Object(mut map) = value else {
        return Err(Unread::OtherFormat(value));
    };
    if let Some(interactions) = map.remove("interactions") {
        let Value::Array(interactions) = interactions else {
            return Err(Unread::Broken(
                "\"interactions\" must be a list of {\"request\", \"response\"}".into(),
            ));
        };
        return Ok(interactions
            .into_iter()
            .map(|pair| pair_exchange::<D>(pair, None))
            .collect::<Result<_, _>>()?);
    }
    if let Some(batch_id) = map.get("custom_id").and_then(super::id_text) {
        return Ok(vec![pair_exchange::<D>(
            Value::Object(map),
            Some(batch_id),
        )?]);
    }
    if map.contains_key("request") || map.contains_key("response") {
        return Ok(vec![pair_exchange::<D>(Value::Object(map), None)?]);
    }
    let value = Value::Object(map);
    if map_has_body(&value) {
        // A recorded HTTP response: {"status", "headers", "body"}.
        let body = body_of(value.get("body").cloned())?;
        return Ok(vec![Exchange {
            request: None,
            response: body,
            batch_id: None,
            is_logged: true,
            failure: None,
        }]);
    }
    if D::is_request(&value) {
        Ok(vec![Exchange {
            request: Some(value),
            response: None,
            batch_id: None,
            is_logged: false,
            failure: None,
        }])
    } else if D::is_response(&value) {
        Ok(vec![Exchange {
            request: None,
            response: Some(value),
            batch_id: None,
            is_logged: false,
            failure: None,
        }])
    } else {
        Err(Unread::OtherFormat(value))
    }
}

fn map_has_body(value: &Value) -> bool {
    value.get("body").is_some() && (value.get("status").is_some() || value.get("headers").is_some())
}

/// `{"request": …, "response": …}` (each possibly wrapping a `body`), or a batch line.
fn pair_exchange<D: Dialect>(pair: Value, batch_id: Option<String>) -> Result<Exchange, String> {
    let Value::Object(mut map) = pair else {
        return Err("an interaction is an object {\"request\", \"response\"}".into());
    };
    let mut request = map
        .remove("request")
        .map(unwrap_body)
        .transpose()?
        .flatten();
    if batch_id.is_some() && request.is_none() {
        request = body_of(map.remove("body"))?;
    }
    let response = map
        .remove("response")
        .map(unwrap_body)
        .transpose()?
        .flatten();
    let failure = match (map.get("error"), &batch_id) {
        (Some(error), Some(batch_id)) if !error.is_null() => Some(format!(
            "batch request {batch_id:?} failed: {}",
            error
                .get("message")
                .and_then(Value::as_str)
                .map_or_else(|| error.to_string(), str::to_string)
        )),
        _ => None,
    };
    Ok(Exchange {
        request,
        response,
        batch_id,
        is_logged: true,
        failure,
    })
}

/// A request or response that may wrap its payload in `body` (and the body may be a string).
fn unwrap_body(value: Value) -> Result<Option<Value>, String> {
    match value {
        Value::Object(mut map) if map.contains_key("body") => body_of(map.remove("body")),
        Value::Null => Ok(None),
        other => body_of(Some(other)),
    }
}

/// A body, decoding it when it is a JSON string, or a streamed response's server-sent events as
/// an HTTP recorder keeps them (a string of `data: {…}` lines: the list of their chunks).
fn body_of(body: Option<Value>) -> Result<Option<Value>, String> {
    match body {
        Some(Value::String(text)) if is_event_stream(&text) => sse_chunks(&text).map(Some),
        Some(Value::String(text)) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|error| format!("\"body\" is a string that is not JSON: {error}")),
        Some(Value::Null) | None => Ok(None),
        Some(other) => Ok(Some(other)),
    }
}

/// Whether a body's text is server-sent events.
fn is_event_stream(text: &str) -> bool {
    let text = text.trim_start();
    text.starts_with("data:") || text.starts_with("event:")
}

/// The chunks of a body of server-sent events: each `data:` line's JSON.
fn sse_chunks(text: &str) -> Result<Value, String> {
    let mut ignored = Vec::new();
    let split = crate::json::split_records("body", text, &mut ignored);
    split
        .records
        .iter()
        .map(|record| {
            serde_json::from_str(record.text).map_err(|error| {
                format!(
                    "\"body\" is server-sent events whose data at its line {} is not JSON: {error}",
                    record.line
                )
            })
        })
        .collect::<Result<Vec<Value>, String>>()
        .map(Value::Array)
}

/// The first request or response body a record holds, for format detection.
pub(crate) fn first_bodies(value: &Value) -> Vec<Value> {
    let mut bodies = Vec::new();
    let pairs: Vec<&Value> = match value.get("interactions").and_then(Value::as_array) {
        Some(interactions) => interactions.iter().take(4).collect(),
        None => vec![value],
    };
    for pair in pairs {
        let mut found = false;
        for key in ["request", "response", "body"] {
            if let Some(part) = pair.get(key) {
                let part = match part.get("body") {
                    Some(body) => body,
                    None => part,
                };
                match body_of(Some(part.clone())) {
                    // A streamed response kept as its list of chunks: the first chunk shows
                    // the format.
                    Ok(Some(Value::Array(chunks))) => {
                        if let Some(chunk) = chunks.into_iter().find(Value::is_object) {
                            bodies.push(chunk);
                            found = true;
                        }
                    }
                    Ok(Some(body)) => {
                        bodies.push(body);
                        found = true;
                    }
                    _ => {}
                }
            }
        }
        if !found {
            bodies.push(pair.clone());
        }
    }
    bodies
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_body_of_server_sent_events_is_the_list_of_its_chunks() {
        let body =
            Value::String("data: {\"n\": 1}\r\n\r\ndata: {\"n\": 2}\n\ndata: [DONE]\n".into());
        let chunks = body_of(Some(body)).unwrap().unwrap();
        assert_eq!(chunks, serde_json::json!([{"n": 1}, {"n": 2}]));
        let broken = Value::String("data: {\"n\": 1}\ndata: {\"n\"\n".into());
        let message = body_of(Some(broken)).unwrap_err();
        assert!(message.contains("line 2"), "{message}");
    }

    /// An agent run as a tool logs its own exchange between two of its caller's: the caller's
    /// next request still continues the caller's conversation (its call is not read twice), and
    /// a handoff's new tool list does not hide the tools the earlier requests declared.
    #[test]
    fn responses_without_requests_that_name_the_one_they_follow_keep_to_their_chat() {
        let response = |id: &str, previous: Option<&str>, text: &str| {
            serde_json::json!({"id": id, "object": "response", "previous_response_id": previous,
                "output": [{"type": "message", "role": "assistant",
                            "content": [{"type": "output_text", "text": text}]}]})
            .to_string()
        };
        let lines = [
            response("resp_a1", None, "chat a, 1"),
            response("resp_b1", None, "chat b, 1"),
            response("resp_a2", Some("resp_a1"), "chat a, 2"),
            response("resp_b2", Some("resp_b1"), "chat b, 2"),
        ];
        let mut diagnostics = Vec::new();
        let read =
            crate::formats::read_traces("log.jsonl", lines.join("\n").as_bytes(), &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let texts: Vec<Vec<String>> = read
            .sessions
            .iter()
            .map(|session| {
                session
                    .events
                    .iter()
                    .map(|event| match event {
                        crate::model::Event::Assistant { content } => content.clone(),
                        other => format!("{other:?}"),
                    })
                    .collect()
            })
            .collect();
        assert_eq!(
            texts,
            [["chat a, 1", "chat a, 2"], ["chat b, 1", "chat b, 2"]]
        );
    }

    #[test]
    fn a_logged_request_continues_its_conversation_past_another_ones_exchange() {
        let tool = |name: &str| serde_json::json!({"type": "function", "function": {"name": name, "parameters": {"type": "object"}}});
        let call = serde_json::json!({"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "ask_expert", "arguments": "{}"}}]});
        let user = serde_json::json!({"role": "user", "content": "2 + 2?"});
        let log = serde_json::json!({"interactions": [
            {"request": {"body": {"messages": [user], "tools": [tool("ask_expert")]}},
             "response": {"body": {"choices": [{"message": call}]}}},
            {"request": {"body": {"messages": [{"role": "user", "content": "2 + 2"}], "tools": []}},
             "response": {"body": {"choices": [{"message": {"role": "assistant", "content": "4"}}]}}},
            {"request": {"body": {"messages": [user, call, {"role": "tool", "tool_call_id": "c1", "content": "4"}], "tools": [tool("transfer")]}},
             "response": {"body": {"choices": [{"message": {"role": "assistant", "content": "It is 4."}}]}}}]});
        let mut diagnostics = Vec::new();
        let read =
            crate::formats::read_traces("log.json", log.to_string().as_bytes(), &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(read.sessions.len(), 2);
        let caller = &read.sessions[0];
        assert_eq!(caller.calls().count(), 1);
        let names: Vec<&str> = caller
            .tools
            .as_ref()
            .unwrap()
            .iter()
            .map(|tool| tool.name.as_str())
            .collect();
        assert_eq!(names, ["transfer", "ask_expert"]);
    }

    #[test]
    fn a_logged_stream_without_its_request_shows_its_first_chunk_to_detection() {
        let record = serde_json::json!({"method": "generateContentStream",
            "response": [{"candidates": []}, {"candidates": []}]});
        assert_eq!(
            first_bodies(&record),
            vec![serde_json::json!({"candidates": []})]
        );
    }
}
