//! OpenAI Agents SDK trace exports: the traces and spans the SDK's tracing exports
//! (`Trace.export()`, `Span.export()`), one per line, as the batch body its exporter posts
//! (`{"data": [...]}`), or wrapped by a processor that logs span starts and ends
//! (`{"event": "span_end", "span": {...}}`).
//!
//! ```json
//! {"object": "trace", "id": "trace_1", "workflow_name": "Support"}
//! {"object": "trace.span", "id": "span_a", "trace_id": "trace_1", "parent_id": null,
//!  "started_at": "2025-09-30T10:00:00.000Z", "span_data": {"type": "agent", "name": "Triage"}}
//! {"object": "trace.span", "id": "span_f", "trace_id": "trace_1", "parent_id": "span_a",
//!  "started_at": "2025-09-30T10:00:01.000Z", "span_data": {"type": "function",
//!  "name": "lookup_order", "input": "{\"order_id\": \"7Q2\"}", "output": null},
//!  "error": {"message": "Error running tool", "data": {"error": "timeout"}}}
//! ```
//! Each `agent` span is a session of its own (the first of a trace named by the trace id, the
//! others `<trace id>/<agent name>`), its agent the agent's name, holding the spans below it that
//! no nested agent span owns, in start order (the SDK's `task` and `turn` custom spans between
//! are structure). `function` spans are tool executions (`input` a JSON string, `output` the
//! result, the span's `error` the explicit error flag; the span id is the call's id);
//! `generation` spans are model calls (`input` and `output` messages); a `response` span's
//! `input` and `response.output`, when a processor kept them (the SDK's own export keeps only
//! the response id, so with the Responses API a session is its function spans' calls). A
//! `handoff` span is the model's call of the handoff's tool (`transfer_to_<agent>`), answered
//! as the SDK answers it, and links the agent handed to (`to_agent`) to the session that handed
//! off, whose calls that agent's messages repeat and which stay that session's; an agent run
//! as a tool (an agent span inside a `function` span) links to that call. Guardrail, custom,
//! speech and MCP listing spans are not events.

use serde_json::{Map, Value};

use super::conversation::str_field;
use super::messages::items_of;
use super::native::ToolLists;
use super::odd_record::not_of_format;
use super::otlp::{build_session, Span, SpanRole};
use crate::diagnostic::{Diagnostic, Severity};
use crate::hashing::{HashMap, HashMapExt, HashSet};
use crate::json::{parse_value, Split};
use crate::model::{Event, ParentLink, Session};

/// What the reader expects of a record.
const EXPECTED: &str =
    "an OpenAI Agents SDK trace or span ({\"object\": \"trace\" or \"trace.span\"})";

/// The most parent links followed from a span (a cycle must not loop).
const MAX_DEPTH: usize = 256;

/// Whether a record is an exported trace or span, a batch of them, or a logged one.
pub(crate) fn is_record(value: &Value) -> bool {
    !items_of_record(value).is_empty()
}

/// The exported items a record holds.
fn items_of_record(value: &Value) -> Vec<&Value> {
    let is_item = |item: &Value| matches!(str_field(item, "object"), Some("trace" | "trace.span"));
    if is_item(value) {
        return vec![value];
    }
    if let Some(data) = value.get("data").and_then(Value::as_array) {
        return data.iter().filter(|item| is_item(item)).collect();
    }
    ["span", "trace", "item"]
        .iter()
        .filter_map(|key| value.get(*key))
        .filter(|item| is_item(item))
        .collect()
}

/// The agent span a span belongs to (its nearest enclosing one), and the function span between
/// them, if any (an agent span inside one is an agent run as a tool).
struct Owner {
    agent: Option<String>,
    function: Option<String>,
}

/// One span as read, with the record it came from.
struct Read {
    value: Value,
    line: usize,
}

impl Read {
    fn data(&self) -> &Value {
        &self.value["span_data"]
    }

    fn kind(&self) -> &str {
        str_field(self.data(), "type").unwrap_or_default()
    }

    fn parent(&self) -> Option<&str> {
        str_field(&self.value, "parent_id")
    }

    fn start(&self) -> &str {
        str_field(&self.value, "started_at").unwrap_or_default()
    }
}

/// Reads every trace of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    // Spans by id (a later record of a span, its end, replaces its start), in first-seen order.
    let mut spans: Vec<Read> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut trace_order: Vec<String> = Vec::new();
    let mut by_trace: HashMap<String, Vec<usize>> = HashMap::new();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let items = items_of_record(&value);
        if items.is_empty() {
            let mut diagnostic = not_of_format(file, record.line, &value, EXPECTED);
            // A processor's log line about something else (it logs more than spans): nothing of
            // a trace is lost by skipping it.
            if value.get("event").is_some() {
                diagnostic.severity = Severity::Warning;
                diagnostic.message = diagnostic.message.replace("; left out", "; skipped");
            }
            diagnostics.push(diagnostic);
            continue;
        }
        for item in items {
            let trace_id = str_field(item, "trace_id").or_else(|| {
                (str_field(item, "object") == Some("trace"))
                    .then(|| str_field(item, "id"))
                    .flatten()
            });
            if let Some(trace_id) = trace_id {
                if !by_trace.contains_key(trace_id) {
                    by_trace.insert(trace_id.to_string(), Vec::new());
                    trace_order.push(trace_id.to_string());
                }
            }
            if str_field(item, "object") != Some("trace.span") {
                continue;
            }
            let Some(id) = str_field(item, "id").map(str::to_string) else {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(record.line),
                    "span has no \"id\"; left out".to_string(),
                ));
                continue;
            };
            let read = Read {
                value: item.clone(),
                line: record.line,
            };
            match by_id.get(&id) {
                Some(&at) => spans[at] = read,
                None => {
                    if let Some(members) = trace_id.and_then(|id| by_trace.get_mut(id)) {
                        members.push(spans.len());
                    }
                    by_id.insert(id, spans.len());
                    spans.push(read);
                }
            }
        }
    }
    let mut tool_lists = ToolLists::default();
    let mut sessions = Vec::new();
    for trace_id in &trace_order {
        let mut trace: Vec<&Read> = by_trace[trace_id].iter().map(|&at| &spans[at]).collect();
        if trace.is_empty() {
            continue;
        }
        // ISO 8601 times of one export sort as text.
        crate::sort::sort_by(&mut trace, |a, b| a.start().cmp(b.start()));
        sessions.extend(read_trace(
            file,
            trace_id,
            &trace,
            &by_id,
            &spans,
            &mut tool_lists,
            diagnostics,
        ));
    }
    sessions
}

/// The sessions of one trace: one per agent span (or one for the trace when it has none).
fn read_trace(
    file: &str,
    trace_id: &str,
    trace: &[&Read],
    by_id: &HashMap<String, usize>,
    spans: &[Read],
    tool_lists: &mut ToolLists,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let span_of = |id: &str| by_id.get(id).map(|&at| &spans[at]);
    // The nearest enclosing agent span of each span (its owner), and whether a function span
    // lies between them (then an agent span is an agent run as a tool).
    let owner = |span: &Read| -> Owner {
        let mut function = None;
        let mut next = span.parent();
        for _ in 0..MAX_DEPTH {
            let Some(parent) = next.and_then(span_of) else {
                break;
            };
            match parent.kind() {
                "agent" => {
                    return Owner {
                        agent: str_field(&parent.value, "id").map(str::to_string),
                        function,
                    }
                }
                "function" if function.is_none() => {
                    function = str_field(&parent.value, "id").map(str::to_string)
                }
                _ => {}
            }
            next = parent.parent();
        }
        Owner {
            agent: None,
            function,
        }
    };
    // Sessions: the agent spans in start order.
    let agents: Vec<&Read> = trace
        .iter()
        .copied()
        .filter(|span| span.kind() == "agent")
        .collect();
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut session_ids: HashMap<String, String> = HashMap::new();
    for (index, agent) in agents.iter().enumerate() {
        let name = str_field(agent.data(), "name").unwrap_or("agent");
        let count = names.entry(name.to_string()).or_default();
        *count += 1;
        let id = match (index, *count) {
            (0, _) => trace_id.to_string(),
            (_, 1) => format!("{trace_id}/{name}"),
            (_, n) => format!("{trace_id}/{name}#{n}"),
        };
        session_ids.insert(
            str_field(&agent.value, "id")
                .unwrap_or_default()
                .to_string(),
            id,
        );
    }
    let mut groups: Vec<(Option<&Read>, Vec<&Read>)> = agents
        .iter()
        .map(|agent| (Some(*agent), Vec::new()))
        .collect();
    let agent_at: HashMap<&str, usize> = agents
        .iter()
        .enumerate()
        .filter_map(|(at, agent)| Some((str_field(&agent.value, "id")?, at)))
        .collect();
    // Handoffs by the agent handed to, in start order.
    let mut handoffs: HashMap<&str, Vec<&Read>> = HashMap::new();
    for span in trace
        .iter()
        .copied()
        .filter(|span| span.kind() == "handoff")
    {
        if let Some(to) = str_field(span.data(), "to_agent") {
            handoffs.entry(to).or_default().push(span);
        }
    }
    let mut loose: Vec<&Read> = Vec::new();
    for span in trace.iter().copied().filter(|span| span.kind() != "agent") {
        match owner(span)
            .agent
            .and_then(|id| agent_at.get(id.as_str()).copied())
        {
            Some(at) => groups[at].1.push(span),
            None => loose.push(span),
        }
    }
    // The SDK wraps every run in a `task` span and each model turn in a `turn` span (both
    // `custom`), so a trace always has spans outside its agents; only events make a session.
    if loose.iter().any(|span| is_event(span)) {
        groups.insert(0, (None, loose));
    }
    let mut sessions: Vec<Session> = Vec::new();
    for (agent, members) in groups {
        if members.is_empty() && agent.is_none() {
            continue;
        }
        let session_id = match agent {
            Some(agent) => session_ids[str_field(&agent.value, "id").unwrap_or_default()].clone(),
            None if agents.is_empty() => trace_id.to_string(),
            None => format!("{trace_id}/outside agents"),
        };
        let as_spans: Vec<Span> = members
            .iter()
            .enumerate()
            .map(|(index, read)| span_of_read(&session_id, read, index + 1))
            .collect();
        let roles: Vec<SpanRole> = members.iter().map(|read| role_of(read)).collect();
        let mut session = if as_spans.is_empty() {
            let line = agent.map_or(0, |agent| agent.line);
            super::conversation::Conversation::new(session_id.clone(), file, line).finish()
        } else {
            build_session(file, &as_spans, roles, tool_lists, diagnostics)
        };
        session.session_id = session_id;
        if let Some(agent) = agent {
            session.agent_id = str_field(agent.data(), "name").map(str::to_string);
            session.parent = parent_of(agent, &handoffs, &owner, &session_ids);
            if session.origin.line == 0 {
                session.origin.line = agent.line;
            }
        }
        if !session.events.is_empty() {
            sessions.push(session);
        } else {
            // The SDK's own export of a Responses API call keeps only the response's id.
            let why = if members.iter().any(|span| span.kind() == "response") {
                "its model calls are response spans that keep only their response id (as the SDK exports them) and it ran no tool"
            } else {
                "no model call or tool span with content"
            };
            diagnostics.push(Diagnostic::warning(
                file,
                agent.map(|agent| agent.line),
                format!(
                    "trace {trace_id:?}, agent session {:?}: {why}; left out",
                    session.session_id
                ),
            ));
        }
    }
    link_handoff_calls(&mut sessions);
    drop_inherited_calls(&mut sessions);
    sessions
}

/// Whether a span is an event of a session: a tool execution, a handoff (the model's call of
/// the handoff's tool), or a model call whose messages the export kept.
fn is_event(read: &Read) -> bool {
    match read.kind() {
        "function" | "generation" => true,
        "handoff" => str_field(read.data(), "to_agent").is_some(),
        "response" => read.data().get("input").is_some() || read.data().get("response").is_some(),
        _ => false,
    }
}

/// Takes out of each handed-off session the calls and results it only inherited: the SDK
/// gives the agent handed to the conversation so far, so its model calls' messages repeat the
/// calls of the agent that handed off (the handoff's own call among them), which are that
/// agent's. The parent's calls as read, inherited ones included, cover the agents before it.
fn drop_inherited_calls(sessions: &mut [Session]) {
    let call_ids: Vec<HashSet<String>> = sessions
        .iter()
        .map(|session| {
            session
                .calls()
                .filter_map(|call| call.call_id.clone())
                .collect()
        })
        .collect();
    let by_id: HashMap<&str, usize> = sessions
        .iter()
        .enumerate()
        .map(|(at, session)| (session.session_id.as_str(), at))
        .collect();
    let parents: Vec<Option<usize>> = sessions
        .iter()
        .map(|session| {
            let parent = session.parent.as_ref()?;
            by_id.get(parent.session_id.as_str()).copied()
        })
        .collect();
    for (at, parent_at) in parents.into_iter().enumerate() {
        let Some(parent_at) = parent_at.filter(|&parent_at| parent_at != at) else {
            continue;
        };
        let inherited = &call_ids[parent_at];
        if inherited.is_empty() {
            continue;
        }
        let is_inherited =
            |call_id: &Option<String>| call_id.as_ref().is_some_and(|id| inherited.contains(id));
        sessions[at].events.retain(|event| match event {
            Event::ToolUse(call) => !is_inherited(&call.call_id),
            Event::ToolResult(result) => !is_inherited(&result.call_id),
            _ => true,
        });
    }
}

/// Links each agent handed off to with the call that handed off: the SDK gives the model a
/// `transfer_to_<agent name in snake case>` tool per handoff, and the handoff span follows the
/// model call that called it.
fn link_handoff_calls(sessions: &mut [Session]) {
    let by_id: HashMap<&str, usize> = sessions
        .iter()
        .enumerate()
        .map(|(at, session)| (session.session_id.as_str(), at))
        .collect();
    let mut links = Vec::new();
    for (at, session) in sessions.iter().enumerate() {
        let (Some(parent), Some(agent)) = (&session.parent, &session.agent_id) else {
            continue;
        };
        if parent.call_id.is_some() {
            continue;
        }
        let tool = handoff_tool_name(agent);
        let call = by_id
            .get(parent.session_id.as_str())
            .and_then(|&at| sessions[at].calls().filter(|call| call.name == tool).last())
            .and_then(|call| call.call_id.clone());
        if let Some(call) = call {
            links.push((at, call));
        }
    }
    for (at, call) in links {
        if let Some(parent) = sessions[at].parent.as_mut() {
            parent.call_id = Some(call);
        }
    }
}

/// The name the SDK gives the tool of a handoff to `agent` (`Handoff.default_tool_name`).
fn handoff_tool_name(agent: &str) -> String {
    format!("transfer_to_{}", snake_case(agent))
}

/// An agent's name as the SDK names its handoff tool (`transform_string_function_style`): lower
/// case, every character but ASCII letters, digits and underscores an underscore (spaces at
/// either end too: it does not trim).
fn snake_case(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// Who started an agent: the function span it runs inside (an agent run as a tool), or the
/// agent that handed off to it.
fn parent_of(
    agent: &Read,
    handoffs: &HashMap<&str, Vec<&Read>>,
    owner: &dyn Fn(&Read) -> Owner,
    session_ids: &HashMap<String, String>,
) -> Option<ParentLink> {
    if let Owner {
        agent: Some(outer),
        function: Some(function),
    } = owner(agent)
    {
        return Some(ParentLink {
            session_id: session_ids.get(&outer)?.clone(),
            call_id: Some(function),
        });
    }
    let name = str_field(agent.data(), "name")?;
    let handoff = handoffs
        .get(name)?
        .iter()
        .rev()
        .find(|span| span.start() <= agent.start())?;
    let from = owner(handoff).agent?;
    Some(ParentLink {
        session_id: session_ids.get(&from)?.clone(),
        call_id: None,
    })
}

/// The span in the shape the span readers share; its error is its status.
fn span_of_read(session_id: &str, read: &Read, index: usize) -> Span {
    let error = read.value.get("error").filter(|error| !error.is_null());
    let message = error.map(|error| {
        let text = str_field(error, "message").unwrap_or("error");
        match error.get("data").filter(|data| !data.is_null()) {
            Some(data) => format!("{text}: {}", super::content_text(data.clone())),
            None => text.to_string(),
        }
    });
    Span {
        trace_id: session_id.to_string(),
        span_id: None,
        name: str_field(read.data(), "name")
            .unwrap_or(read.kind())
            .to_string(),
        start: 0,
        is_error: error.is_some(),
        status_message: message,
        attributes: Map::new(),
        exception: None,
        line: read.line,
        index,
    }
}

/// What a span means.
fn role_of(read: &Read) -> SpanRole {
    let data = read.data();
    match read.kind() {
        "function" => SpanRole::Tool {
            call_id: str_field(&read.value, "id").map(str::to_string),
            name: str_field(data, "name").map(str::to_string),
            args: data
                .get("input")
                .filter(|input| !input.is_null())
                .map(|input| match input {
                    Value::String(text) => {
                        serde_json::from_str(text).unwrap_or_else(|_| input.clone())
                    }
                    other => other.clone(),
                }),
            result: data
                .get("output")
                .filter(|output| !output.is_null())
                .map(|output| super::content_text(output.clone())),
        },
        // The model called the handoff's tool; the SDK answers it with the agent handed to.
        "handoff" => match str_field(data, "to_agent") {
            Some(to) => SpanRole::Tool {
                call_id: str_field(&read.value, "id").map(str::to_string),
                name: Some(handoff_tool_name(to)),
                args: None,
                // As the SDK writes it (`json.dumps`: a space after the colon).
                result: Some(format!("{{\"assistant\": {}}}", Value::from(to))),
            },
            None => SpanRole::Other,
        },
        "generation" => SpanRole::Inference {
            input: items_of(data.get("input").cloned(), true),
            output: items_of(data.get("output").cloned(), false),
            tools: None,
            is_summary: false,
        },
        "response" if data.get("input").is_some() || data.get("response").is_some() => {
            SpanRole::Inference {
                input: items_of(data.get("input").cloned(), true),
                output: items_of(
                    data.get("response")
                        .and_then(|response| response.get("output"))
                        .cloned(),
                    false,
                ),
                tools: data
                    .get("response")
                    .and_then(|response| response.get("tools"))
                    .cloned(),
                is_summary: false,
            }
        }
        _ => SpanRole::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::split_records;

    /// The sessions of `lines`, each as `id < parent [call]: event, event, …`, and the
    /// diagnostics' messages.
    fn read_lines(lines: &[&str]) -> (Vec<String>, Vec<String>) {
        let text = lines.join("\n");
        let mut diagnostics = Vec::new();
        let split = split_records("t.jsonl", &text, &mut diagnostics);
        let sessions = read("t.jsonl", &split, &mut diagnostics);
        let rendered = sessions
            .iter()
            .map(|session| {
                let events: Vec<String> = session
                    .events
                    .iter()
                    .map(|event| match event {
                        Event::User { content } => format!("user {content}"),
                        Event::Assistant { content } => format!("assistant {content}"),
                        Event::ToolUse(call) => {
                            format!(
                                "call {} {}",
                                call.name,
                                call.call_id.as_deref().unwrap_or("-")
                            )
                        }
                        Event::ToolResult(result) => format!(
                            "result {} {}",
                            result.call_id.as_deref().unwrap_or("-"),
                            result.content.as_deref().unwrap_or_default()
                        ),
                    })
                    .collect();
                let parent = session.parent.as_ref().map_or(String::new(), |parent| {
                    format!(
                        " < {} [{}]",
                        parent.session_id,
                        parent.call_id.as_deref().unwrap_or("-")
                    )
                });
                format!("{}{parent}: {}", session.session_id, events.join(", "))
            })
            .collect();
        let messages = diagnostics
            .into_iter()
            .map(|diagnostic| diagnostic.message)
            .collect();
        (rendered, messages)
    }

    fn span(id: &str, parent: Option<&str>, started: u32, data: &str) -> String {
        let parent = parent.map_or("null".to_string(), |parent| format!("\"{parent}\""));
        format!(
            r#"{{"object": "trace.span", "id": "{id}", "trace_id": "trace_1", "parent_id": {parent}, "started_at": "2025-12-02T10:00:{started:02}.000000+00:00", "span_data": {data}, "error": null}}"#
        )
    }

    #[test]
    fn the_sdks_task_and_turn_spans_make_no_session_of_their_own() {
        let lines = [
            span(
                "task",
                None,
                0,
                r#"{"type": "custom", "name": "task", "data": {"sdk_span_type": "task"}}"#,
            ),
            span(
                "a",
                Some("task"),
                1,
                r#"{"type": "agent", "name": "Support"}"#,
            ),
            span(
                "turn",
                Some("a"),
                2,
                r#"{"type": "custom", "name": "turn", "data": {"turn": 1}}"#,
            ),
            span(
                "f",
                Some("turn"),
                3,
                r#"{"type": "function", "name": "lookup", "input": "{}", "output": "ok"}"#,
            ),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (sessions, messages) = read_lines(&lines);
        assert_eq!(sessions, ["trace_1: call lookup f, result f ok"]);
        assert!(messages.is_empty(), "{messages:?}");
    }

    #[test]
    fn a_handoff_span_is_the_call_of_the_handoffs_tool_when_no_model_call_shows_it() {
        // The Responses API's spans keep only the response id: the handoff is all there is.
        let lines = [
            span("a", None, 1, r#"{"type": "agent", "name": "Triage agent"}"#),
            span(
                "r",
                Some("a"),
                2,
                r#"{"type": "response", "response_id": "resp_1"}"#,
            ),
            span(
                "h",
                Some("a"),
                3,
                r#"{"type": "handoff", "from_agent": "Triage agent", "to_agent": "Billing specialist"}"#,
            ),
            span(
                "b",
                None,
                4,
                r#"{"type": "agent", "name": "Billing specialist"}"#,
            ),
            span(
                "f",
                Some("b"),
                5,
                r#"{"type": "function", "name": "lookup_invoice", "input": "{}", "output": "ok"}"#,
            ),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (sessions, _) = read_lines(&lines);
        assert_eq!(
            sessions,
            [
                r#"trace_1: call transfer_to_billing_specialist h, result h {"assistant": "Billing specialist"}"#,
                "trace_1/Billing specialist < trace_1 [h]: call lookup_invoice f, result f ok",
            ]
        );
    }

    #[test]
    fn a_handoff_span_answers_the_call_a_model_call_shows_and_the_agent_handed_to_does_not_repeat_it(
    ) {
        let call = r#"{"id": "call_t", "type": "function", "function": {"name": "transfer_to_billing", "arguments": "{}"}}"#;
        let triage = format!(
            r#"{{"type": "generation", "input": [{{"role": "user", "content": "charged twice"}}], "output": [{{"role": "assistant", "content": null, "tool_calls": [{call}]}}]}}"#
        );
        let billing = format!(
            r#"{{"type": "generation", "input": [{{"role": "user", "content": "charged twice"}}, {{"role": "assistant", "content": null, "tool_calls": [{call}]}}, {{"role": "tool", "tool_call_id": "call_t", "content": "{{\"assistant\": \"Billing\"}}"}}], "output": [{{"role": "assistant", "content": "refunded"}}]}}"#
        );
        let lines = [
            span("a", None, 1, r#"{"type": "agent", "name": "Triage"}"#),
            span("g1", Some("a"), 2, &triage),
            span(
                "h",
                Some("a"),
                3,
                r#"{"type": "handoff", "from_agent": "Triage", "to_agent": "Billing"}"#,
            ),
            span("b", None, 4, r#"{"type": "agent", "name": "Billing"}"#),
            span("g2", Some("b"), 5, &billing),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (sessions, _) = read_lines(&lines);
        assert_eq!(
            sessions,
            [
                r#"trace_1: user charged twice, call transfer_to_billing call_t, result call_t {"assistant": "Billing"}"#,
                "trace_1/Billing < trace_1 [call_t]: user charged twice, assistant refunded",
            ]
        );
    }

    #[test]
    fn an_agent_with_only_responses_is_left_out_saying_the_export_keeps_only_their_ids() {
        let lines = [
            span("a", None, 1, r#"{"type": "agent", "name": "Translator"}"#),
            span(
                "r",
                Some("a"),
                2,
                r#"{"type": "response", "response_id": "resp_1"}"#,
            ),
        ];
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let (sessions, messages) = read_lines(&lines);
        assert!(sessions.is_empty());
        assert_eq!(messages.len(), 1);
        assert!(
            messages[0].contains("keep only their response id"),
            "{messages:?}"
        );
    }

    #[test]
    fn handoff_tool_names_follow_the_sdks_ascii_only_transform_without_trimming() {
        assert_eq!(
            handoff_tool_name("Billing specialist"),
            "transfer_to_billing_specialist"
        );
        assert_eq!(handoff_tool_name(" Agent-É2 "), "transfer_to__agent__2_");
    }
}
