//! Langfuse trace exports: the UI's "Download JSON" (`{"trace", "observations"}`), or
//! observations on their own (an array, one per line, or the API's `{"data": [...]}`), one
//! session per trace, or per Langfuse session where traces name one (`trace.sessionId`: its
//! traces in `timestamp` order).
//!
//! ```json
//! {"trace": {"id": "7a38edd8", "name": "support"},
//!  "observations": [
//!   {"id": "o1", "traceId": "7a38edd8", "type": "GENERATION", "startTime": "2025-12-04T14:51:22.053Z",
//!    "input": [{"role": "user", "content": "Weather in Tokyo?"}],
//!    "output": {"role": "assistant", "tool_calls": [{"id": "call_1", "type": "function",
//!               "function": {"name": "get_weather", "arguments": "{\"city\": \"Tokyo\"}"}}]}},
//!   {"id": "o2", "traceId": "7a38edd8", "type": "TOOL", "name": "get_weather",
//!    "startTime": "2025-12-04T14:51:23.001Z", "input": {"city": "Tokyo"},
//!    "output": "upstream timeout", "level": "ERROR", "statusMessage": "timeout"}]}
//! ```
//! Observations are read in start-time order. GENERATION inputs and outputs hold the messages in
//! whatever shape the framework logged (OpenAI Chat, Responses items, OTel parts, Gemini
//! contents, LangChain messages, messages logged as text: `message_text`); a generation inside a
//! generation is the same model call logged twice and is read once. TOOL observations, SPANs
//! whose output is a LangChain `ToolMessage`, spans named `execute_tool …`, SPANs named
//! `tool.<Name>` and OpenInference tool SPANs (a `tool.name` attribute) are tool executions:
//! `input` the arguments (an object, a JSON string or a Python repr), `output` the result; one
//! that answers a call the generation's output already made is its result, not a second call.
//! BeeAI's emitter events are read apart (`langfuse_beeai`). `level: "ERROR"` or a `ToolMessage`
//! with `status: "error"` is an explicit error; otherwise the `Error:` convention applies. When
//! no observation shows the user's words, the trace's own text `input` is them.

use serde_json::{Map, Value};

use super::content_text;
use super::langfuse_beeai::beeai_role;
use super::messages::items_of;
use super::native::ToolLists;
use super::odd_record::not_of_format;
use super::otlp::{build_session, Span, SpanRole};
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::json::{parse_value, Split};
use crate::model::{Event, Session};

/// Observation types Langfuse writes.
pub(crate) const OBSERVATION_TYPES: [&str; 10] = [
    "SPAN",
    "GENERATION",
    "EVENT",
    "AGENT",
    "TOOL",
    "CHAIN",
    "RETRIEVER",
    "EVALUATOR",
    "EMBEDDING",
    "GUARDRAIL",
];

/// Whether a record is one Langfuse observation.
pub(crate) fn is_observation(value: &Value) -> bool {
    value.get("traceId").is_some()
        && value
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| OBSERVATION_TYPES.contains(&kind))
}

/// An observation, kept with the record line it came from.
struct Observation {
    value: Value,
    line: usize,
}

/// Reads every trace of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    // Traces in order of first appearance: (trace id, observations).
    let mut traces: Vec<(String, Vec<Observation>)> = Vec::new();
    // What the user asked, as each trace's own `input` tells it.
    let mut asked: HashMap<String, String> = HashMap::new();
    // The Langfuse session each trace belongs to (`trace.sessionId`), and when it started.
    let mut session_of: HashMap<String, (String, String)> = HashMap::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut add = |trace_id: String, observation: Observation| match by_id.get(&trace_id) {
        Some(&at) => traces[at].1.push(observation),
        None => {
            by_id.insert(trace_id.clone(), traces.len());
            traces.push((trace_id, vec![observation]));
        }
    };
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let line = record.line;
        let list = value
            .get("observations")
            .or_else(|| value.get("data"))
            .and_then(Value::as_array);
        if let Some(list) = list {
            let trace_id = value
                .get("trace")
                .and_then(|trace| trace.get("id"))
                .and_then(super::id_text);
            if let (Some(id), Some(text)) = (&trace_id, value.get("trace").and_then(trace_text)) {
                asked.insert(id.clone(), text);
            }
            let trace = value.get("trace");
            let session_id = trace
                .and_then(|trace| trace.get("sessionId"))
                .and_then(super::id_text);
            if let (Some(id), Some(session_id)) = (&trace_id, session_id) {
                let timestamp = trace
                    .and_then(|trace| trace.get("timestamp"))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                session_of.insert(id.clone(), (session_id, timestamp.to_string()));
            }
            for (index, observation) in list.iter().enumerate() {
                match observation
                    .get("traceId")
                    .and_then(super::id_text)
                    .or_else(|| trace_id.clone())
                {
                    Some(id) => add(
                        id,
                        Observation {
                            value: observation.clone(),
                            line,
                        },
                    ),
                    None => diagnostics.push(Diagnostic::error(
                        file,
                        Some(line),
                        format!("observation {} has no \"traceId\"; left out", index + 1),
                    )),
                }
            }
            if list.is_empty() {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(line),
                    "trace has no observations",
                ));
            }
        } else if is_observation(&value) {
            let trace_id = value
                .get("traceId")
                .and_then(super::id_text)
                .unwrap_or_default();
            add(trace_id, Observation { value, line });
        } else {
            let expected = "a Langfuse trace ({\"trace\", \"observations\"}) or observation \
                            ({\"traceId\", \"type\"})";
            diagnostics.push(not_of_format(file, line, &value, expected));
        }
    }
    let mut tool_lists = ToolLists::default();
    let mut sessions = Vec::new();
    for (trace_id, first_trace_id, observations) in in_sessions(traces, &session_of) {
        let spans: Vec<Span> = observations
            .iter()
            .enumerate()
            .map(|(index, observation)| span_of(&trace_id, observation, index + 1))
            .collect();
        let mut roles: Vec<SpanRole> = observations.iter().map(|o| role_of(&o.value)).collect();
        drop_nested_generations(&observations, &mut roles);
        let mut session = build_session(file, &spans, roles, &mut tool_lists, diagnostics);
        // No observation showed the user's words (BeeAI's ReAct agent, LlamaIndex): the trace's
        // input is them.
        if let Some(text) = asked.remove(&first_trace_id) {
            if !session.events.is_empty() && !session.has_user_message() {
                session.events.insert(0, Event::User { content: text });
            }
        }
        if session.events.is_empty() {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(spans[0].line),
                format!(
                    "trace {trace_id:?}: none of its {} observation(s) is a generation or tool \
                     with content; left out",
                    spans.len()
                ),
            ));
        } else {
            sessions.push(session);
        }
    }
    sessions
}

/// A trace's observations, after when the trace started (its `timestamp`).
type TimedTrace<'s> = (&'s str, Vec<Observation>);

/// The traces as conversations: traces of one Langfuse session (`trace.sessionId`: a chat
/// application traces each turn on its own) are one, named by the session, its traces in
/// `timestamp` order at the place of the first; a trace without a session is one of its own.
/// Each trace's observations are in `startTime` order (ISO 8601 times of one export sort as
/// text). Each with the id of its first trace (whose `input` may be the user's words).
fn in_sessions(
    traces: Vec<(String, Vec<Observation>)>,
    session_of: &HashMap<String, (String, String)>,
) -> Vec<(String, String, Vec<Observation>)> {
    let mut grouped: Vec<(String, Vec<TimedTrace<'_>>)> = Vec::new();
    let mut by_session: HashMap<&str, usize> = HashMap::new();
    for (trace_id, mut observations) in traces {
        crate::sort::sort_by(&mut observations, |a, b| {
            start_of(&a.value).cmp(start_of(&b.value))
        });
        let Some((session_id, timestamp)) = session_of.get(&trace_id) else {
            grouped.push((trace_id, Vec::new()));
            let at = grouped.len() - 1;
            grouped[at].1.push(("", observations));
            continue;
        };
        match by_session.get(session_id.as_str()) {
            Some(&at) => grouped[at].1.push((timestamp, observations)),
            None => {
                by_session.insert(session_id, grouped.len());
                grouped.push((trace_id, vec![(timestamp, observations)]));
            }
        }
    }
    grouped
        .into_iter()
        .map(|(first_trace_id, mut group)| {
            if group.len() == 1 {
                let observations = group.pop().map(|(_, o)| o).unwrap_or_default();
                return (first_trace_id.clone(), first_trace_id, observations);
            }
            crate::sort::sort_by(&mut group, |a, b| a.0.cmp(b.0));
            let session_id = session_of.get(&first_trace_id).map_or_else(
                || first_trace_id.clone(),
                |(session_id, _)| session_id.clone(),
            );
            let observations = group.into_iter().flat_map(|(_, o)| o).collect();
            (session_id, first_trace_id, observations)
        })
        .collect()
}

/// A generation inside a generation is the same model call logged a second time, by a second
/// instrumentation (Agno's own spans and OpenLIT's): the outer one is kept when it shows any
/// message, the inner one otherwise.
fn drop_nested_generations(observations: &[Observation], roles: &mut [SpanRole]) {
    let index: HashMap<&str, usize> = observations
        .iter()
        .enumerate()
        .filter_map(|(at, o)| Some((o.value.get("id")?.as_str()?, at)))
        .collect();
    let shows_messages = |role: &SpanRole| match role {
        SpanRole::Inference { input, output, .. } => input
            .iter()
            .chain(output)
            .any(|message| !message.is_empty()),
        _ => false,
    };
    for at in 0..observations.len() {
        let parent = observations[at]
            .value
            .get("parentObservationId")
            .and_then(Value::as_str)
            .and_then(|id| index.get(id));
        if let Some(&parent) = parent {
            if matches!(roles[at], SpanRole::Inference { .. }) && shows_messages(&roles[parent]) {
                roles[at] = SpanRole::Other;
            }
        }
    }
}

/// A trace's `input` when it is text (Langfuse keeps it as JSON text: a JSON string is decoded,
/// other JSON is not the user's words).
fn trace_text(trace: &Value) -> Option<String> {
    let text = trace.get("input")?.as_str()?;
    let text = match serde_json::from_str::<Value>(text) {
        Ok(Value::String(decoded)) => decoded,
        Ok(_) => return None,
        Err(_) => text.to_string(),
    };
    (!text.trim().is_empty()).then_some(text)
}

fn start_of(observation: &Value) -> &str {
    observation
        .get("startTime")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// The observation as a span: its level is its status.
fn span_of(trace_id: &str, observation: &Observation, index: usize) -> Span {
    let value = &observation.value;
    let attributes = value
        .get("metadata")
        .and_then(|metadata| metadata.get("attributes"))
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_else(Map::new);
    Span {
        trace_id: trace_id.to_string(),
        span_id: None,
        name: value
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        start: 0,
        // The level, or a LangChain ToolMessage's own status, is the explicit flag.
        is_error: value.get("level").and_then(Value::as_str) == Some("ERROR")
            || value
                .get("output")
                .and_then(tool_message)
                .and_then(|message| message.get("status"))
                .and_then(Value::as_str)
                == Some("error"),
        status_message: value
            .get("statusMessage")
            .and_then(Value::as_str)
            .map(str::to_string),
        attributes,
        exception: None,
        line: observation.line,
        index,
    }
}

/// A LangChain `ToolMessage` dict, as tool spans' outputs hold it.
fn tool_message(output: &Value) -> Option<&Value> {
    (output.get("type").and_then(Value::as_str) == Some("tool") && output.get("content").is_some())
        .then_some(output)
}

/// What an observation means.
fn role_of(observation: &Value) -> SpanRole {
    let kind = observation
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let name = observation
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let output = observation.get("output").cloned().unwrap_or(Value::Null);
    let attributes = observation
        .get("metadata")
        .and_then(|m| m.get("attributes"));
    if let Some(role) = beeai_role(kind, name, attributes, &output) {
        return role;
    }
    let message = tool_message(&output);
    // Some frameworks log a tool's execution as a SPAN named `tool.<Name>`.
    let span_tool = (kind == "SPAN")
        .then(|| name.strip_prefix("tool."))
        .flatten()
        .filter(|tool| !tool.trim().is_empty());
    // OpenInference's tool spans (Agno's) name the tool in an attribute.
    let attribute_tool = (kind == "SPAN")
        .then(|| attributes?.get("tool.name")?.as_str())
        .flatten()
        .filter(|tool| !tool.trim().is_empty())
        .filter(|_| {
            attributes
                .and_then(|a| a.get("openinference.span.kind"))
                .is_none_or(|kind| kind == "TOOL")
        });
    let is_tool = kind == "TOOL"
        || message.is_some()
        || name.starts_with("execute_tool ")
        || span_tool.is_some()
        || attribute_tool.is_some();
    if is_tool {
        let call_id = ["gen_ai.tool.call.id", "tool.id", "tool_call.id"]
            .iter()
            .find_map(|key| attributes?.get(*key))
            .or_else(|| message?.get("tool_call_id"))
            .and_then(super::id_text);
        let name = ["execute_tool ", "running tool: "]
            .iter()
            .find_map(|prefix| name.strip_prefix(prefix))
            .or(span_tool)
            .or(attribute_tool)
            .unwrap_or(name)
            .trim()
            .to_string();
        let result = match message {
            Some(message) => message.get("content").cloned().map(content_text),
            None => (!output.is_null()).then(|| content_text(output.clone())),
        };
        return SpanRole::Tool {
            call_id,
            name: (!name.is_empty()).then_some(name),
            // Langfuse writes every field of an observation, `null` when it was not recorded:
            // here `null` is arguments not recorded, not arguments that are null.
            args: observation
                .get("input")
                .filter(|input| !input.is_null())
                .cloned(),
            result,
        };
    }
    if kind != "GENERATION" {
        return SpanRole::Other;
    }
    let input = observation.get("input").cloned();
    SpanRole::Inference {
        tools: tools_of(observation),
        input: items_of(input, true),
        output: items_of(Some(output), false),
        is_summary: false,
    }
}

/// The tools a generation was given: its request's `tools`, OTel `gen_ai.tool.definitions` in
/// its metadata, or LangChain's tool-role messages holding definitions.
fn tools_of(observation: &Value) -> Option<Value> {
    let input = observation.get("input");
    if let Some(tools @ Value::Array(_)) = input.and_then(|input| input.get("tools")) {
        return Some(tools.clone());
    }
    let attributes = observation
        .get("metadata")
        .and_then(|m| m.get("attributes"));
    if let Some(definitions) = attributes.and_then(|a| a.get("gen_ai.tool.definitions")) {
        return match definitions {
            Value::String(text) => serde_json::from_str(text).ok(),
            other => Some(other.clone()),
        };
    }
    let definitions: Vec<Value> = input
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|message| message.get("content"))
        .filter(|content| content.get("type").and_then(Value::as_str) == Some("function"))
        .cloned()
        .collect();
    (!definitions.is_empty()).then_some(Value::Array(definitions))
}
