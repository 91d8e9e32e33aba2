//! OTLP/JSON trace exports, read into flat [`Span`]s and then into one session per trace; the
//! span dialects (OpenTelemetry GenAI in `otel_genai`, OpenInference in `openinference`) only say
//! what each span means. One file may mix dialects: each span is read in its own.
//!
//! Accepted: `{"resourceSpans": [{"scopeSpans": [{"spans": [...]}]}]}` documents (one, or one per
//! line as the collector's file exporter writes), bare spans (an array or one per line), and flat
//! attribute maps (`{"gen_ai.operation.name": …}`, one span each). Real exporters deviate from
//! the protobuf JSON mapping, and all of these are read: enum names for `kind` and `status.code`
//! (`"STATUS_CODE_ERROR"`), base64 or upper-case hex ids, `intValue` as a bare number, an empty
//! `status`, attributes as a plain map, snake_case keys (`trace_id`, `parent_id`).

use serde_json::{Map, Value};

use super::conversation::Conversation;
use super::native::ToolLists;
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::json::Split;
use crate::model::{Args, Session};

/// One span, with its attributes decoded to plain JSON.
pub(crate) struct Span {
    pub(crate) trace_id: String,
    /// The span's own id, when the export gives one: GenAI events logged apart from their span
    /// name it to join it.
    pub(crate) span_id: Option<String>,
    pub(crate) name: String,
    pub(crate) start: u128,
    pub(crate) is_error: bool,
    pub(crate) status_message: Option<String>,
    pub(crate) attributes: Map<String, Value>,
    /// `exception.message` of the span's `exception` events, if any.
    pub(crate) exception: Option<String>,
    /// The record the span was read from.
    pub(crate) line: usize,
    /// 1-based position of the span in the file.
    pub(crate) index: usize,
}

impl Span {
    /// An attribute as text: a string as is, anything else as JSON.
    pub(crate) fn text(&self, key: &str) -> Option<String> {
        self.attributes.get(key).map(|value| match value {
            Value::String(text) => text.clone(),
            other => other.to_string(),
        })
    }

    /// A string attribute.
    pub(crate) fn str(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).and_then(Value::as_str)
    }

    /// An attribute holding JSON, decoded when it is a JSON string.
    pub(crate) fn json(&self, key: &str) -> Option<Value> {
        match self.attributes.get(key)? {
            Value::String(text) => serde_json::from_str(text).ok(),
            other => Some(other.clone()),
        }
    }
}

/// What one message of a span said, in the order it said it.
#[derive(Debug, PartialEq)]
pub(crate) enum Item {
    User(String),
    Assistant(String),
    Call {
        call_id: Option<String>,
        name: Option<String>,
        args: Args,
    },
    Result {
        call_id: Option<String>,
        content: String,
        /// The message's own error flag, where the shape has one.
        is_error: Option<bool>,
    },
}

/// What a span means for the session.
pub(crate) enum SpanRole {
    /// A model call: the messages it was sent and returned, and the tools it was given.
    Inference {
        input: Vec<Vec<Item>>,
        output: Vec<Vec<Item>>,
        tools: Option<Value>,
        /// A span summarising a whole agent run: its messages are used only when the trace
        /// has no model-call spans.
        is_summary: bool,
    },
    /// A tool's execution.
    Tool {
        call_id: Option<String>,
        name: Option<String>,
        args: Option<Value>,
        result: Option<String>,
    },
    /// Anything else (workflow, agent, retrieval spans without messages).
    Other,
}

/// The spans grouped by trace (in order of first appearance), each trace in start order.
pub(crate) fn traces(spans: Vec<Span>) -> Vec<Vec<Span>> {
    let mut traces: Vec<Vec<Span>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for span in spans {
        match by_id.get(&span.trace_id) {
            Some(&at) => traces[at].push(span),
            None => {
                by_id.insert(span.trace_id.clone(), traces.len());
                traces.push(vec![span]);
            }
        }
    }
    for trace in &mut traces {
        sort_by_start(trace);
    }
    traces
}

/// Spans in start order, where every span has a start time (else as they came).
fn sort_by_start(spans: &mut [Span]) {
    if spans.iter().all(|span| span.start > 0) {
        crate::sort::sort_by_key(spans, |span| span.start);
    }
}

/// The conversation a trace names (`gen_ai.conversation.id`, else OpenInference's and
/// Langfuse's `session.id`), from its first span that names one.
fn conversation_of(trace: &[Span]) -> Option<&str> {
    trace.iter().find_map(|span| {
        span.str("gen_ai.conversation.id")
            .or(span.str("session.id"))
    })
}

/// Traces that name the same conversation made one, in start order, at the place of the first
/// of them: a chat application traces each turn on its own, and the conversation id is what ties
/// the turns together (as Langfuse and Phoenix group them into sessions). Traces that name none
/// stay as they are.
fn conversations(traces: Vec<Vec<Span>>) -> Vec<Vec<Span>> {
    let mut grouped: Vec<Vec<Vec<Span>>> = Vec::new();
    let mut by_conversation: HashMap<String, usize> = HashMap::new();
    for trace in traces {
        let Some(conversation) = conversation_of(&trace) else {
            grouped.push(vec![trace]);
            continue;
        };
        match by_conversation.get(conversation) {
            Some(&at) => grouped[at].push(trace),
            None => {
                by_conversation.insert(conversation.to_string(), grouped.len());
                grouped.push(vec![trace]);
            }
        }
    }
    grouped
        .into_iter()
        .map(|mut group| {
            if group.len() > 1 && group.iter().flatten().all(|span| span.start > 0) {
                crate::sort::sort_by_key(&mut group, |trace| {
                    trace.iter().map(|span| span.start).min()
                });
            }
            group.into_iter().flatten().collect()
        })
        .collect()
}

/// Reads an OTLP file: one session per trace, each span read in its own dialect.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let spans = super::otlp_json::read_spans(file, split, diagnostics);
    let mut tool_lists = ToolLists::default();
    let mut sessions = Vec::new();
    let traces = conversations(traces(spans)).into_iter().map(|trace| {
        let roles = trace.iter().map(role_of).collect();
        (trace, roles)
    });
    join_continued(traces, |trace, roles| {
        let session = build_session(file, &trace, roles, &mut tool_lists, diagnostics);
        if session.events.is_empty() {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(trace[0].line),
                format!(
                    "trace {:?}: none of its {} span(s) is a model call or tool execution with \
                     content; left out",
                    trace[0].trace_id,
                    trace.len()
                ),
            ));
        } else {
            sessions.push(session);
        }
    });
    sessions
}

/// Traces that continue the trace before them joined to it. An application that does not wrap
/// its turn in a span of its own gets a trace for each model call (as the instrumentations'
/// examples do); each call is sent the whole history, so a trace whose first model call was sent
/// everything the previous trace's last model call was sent and returned, and more, continues
/// it. Traces named by `gen_ai.conversation.id` or `session.id` are left as they are.
/// Each group is given to `emit` as soon as the next trace does not continue it, so only the
/// group being joined holds its spans' messages.
fn join_continued(
    traces: impl Iterator<Item = (Vec<Span>, Vec<SpanRole>)>,
    mut emit: impl FnMut(Vec<Span>, Vec<SpanRole>),
) {
    // The group being joined, and where its last trace's roles start (none when it was named).
    let mut group: Option<(Vec<Span>, Vec<SpanRole>, Option<usize>)> = None;
    for (trace, roles) in traces {
        let is_named = trace.iter().any(|span| {
            span.attributes.contains_key("gen_ai.conversation.id")
                || span.attributes.contains_key("session.id")
        });
        match &mut group {
            Some((spans, earlier, last @ Some(_)))
                if !is_named
                    && last.is_some_and(|from| continues_exchange(&earlier[from..], &roles)) =>
            {
                *last = Some(earlier.len());
                spans.extend(trace);
                earlier.extend(roles);
            }
            _ => {
                if let Some((spans, roles, _)) = group.take() {
                    emit(spans, roles);
                }
                group = Some((trace, roles, (!is_named).then_some(0)));
            }
        }
    }
    if let Some((spans, roles, _)) = group {
        emit(spans, roles);
    }
}

/// The messages each model call (not a run's summary) was sent and returned.
fn model_calls(
    roles: &[SpanRole],
) -> impl DoubleEndedIterator<Item = (&[Vec<Item>], &[Vec<Item>])> {
    roles.iter().filter_map(|role| match role {
        SpanRole::Inference {
            input,
            output,
            is_summary: false,
            ..
        } => Some((input.as_slice(), output.as_slice())),
        _ => None,
    })
}

/// Whether the first model call of `roles` was sent everything the last model call of
/// `previous` was sent and returned, and more.
fn continues_exchange(previous: &[SpanRole], roles: &[SpanRole]) -> bool {
    let (Some((sent, returned)), Some((first, _))) =
        (model_calls(previous).next_back(), model_calls(roles).next())
    else {
        return false;
    };
    let length = sent.len() + returned.len();
    length > 0
        && first.len() > length
        && first[..sent.len()] == *sent
        && first[sent.len()..length] == *returned
}

/// What a span means, in whichever dialect it is written.
fn role_of(span: &Span) -> SpanRole {
    if span.attributes.contains_key("openinference.span.kind") {
        super::openinference::role_of(span)
    } else {
        super::otel_genai::role_of(span)
    }
}

/// One session from a trace's spans, in order, and what each means.
pub(crate) fn build_session(
    file: &str,
    trace: &[Span],
    roles: Vec<SpanRole>,
    tool_lists: &mut ToolLists,
    diagnostics: &mut Vec<Diagnostic>,
) -> Session {
    let session_id =
        conversation_of(trace).map_or_else(|| trace[0].trace_id.clone(), str::to_string);
    let mut conversation = Conversation::new(session_id, file, trace[0].line);
    let has_model_calls = roles.iter().any(|role| {
        matches!(
            role,
            SpanRole::Inference {
                is_summary: false,
                ..
            }
        )
    });
    // Messages repeat the history each model call was sent: skip what an earlier call showed.
    let mut shown = 0;
    let mut tools = None;
    for (span, role) in trace.iter().zip(roles) {
        conversation.set_line(span.line);
        let place = format!("span {} {:?}", span.index, span.name);
        match role {
            SpanRole::Inference {
                input,
                output,
                tools: span_tools,
                is_summary,
            } => {
                tools = span_tools.or(tools);
                if is_summary && has_model_calls {
                    continue;
                }
                let skip = if input.len() >= shown { shown } else { 0 };
                shown = input.len() + output.len();
                let messages = input.into_iter().skip(skip).chain(output);
                for (number, message) in messages.enumerate() {
                    let place = format!("{place}, message {}", skip + number + 1);
                    for item in message {
                        add_item(&mut conversation, item, &place, diagnostics);
                    }
                }
            }
            SpanRole::Tool {
                call_id,
                name,
                args,
                result,
            } => add_tool_span(
                &mut conversation,
                span,
                (call_id, name, args, result),
                &place,
                diagnostics,
            ),
            SpanRole::Other => {}
        }
    }
    if let Some(tools) = tools {
        match tool_lists.read(&tools.to_string()) {
            Ok(tools) => conversation.set_tools(Some(tools)),
            Err(message) => diagnostics.push(
                conversation.warning(format!("tool definitions: {message}; they are ignored")),
            ),
        }
    }
    conversation.finish()
}

fn add_item(
    conversation: &mut Conversation,
    item: Item,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    match item {
        Item::User(text) if text.trim().is_empty() => {}
        Item::User(text) => conversation.user(text),
        Item::Assistant(text) => conversation.assistant(text),
        Item::Call {
            call_id,
            name,
            args,
        } => {
            // A tool span may have shown this call already.
            if !call_id
                .as_deref()
                .is_some_and(|id| conversation.has_call(id))
            {
                conversation.call(call_id, name.as_deref(), args, place, diagnostics);
            }
        }
        Item::Result {
            call_id,
            content,
            is_error,
        } => {
            // The tool span's result (with its status) wins over the copy sent to the model;
            // a copy without id shows itself by finding no call waiting for it.
            if call_id.is_none() && !conversation.has_waiting_call() {
                return;
            }
            if !call_id
                .as_deref()
                .is_some_and(|id| conversation.is_answered(id))
            {
                conversation.result(call_id, Some(content), is_error, place, diagnostics);
            }
        }
    }
}

/// A tool span: the result of a call the model made (matched by id, else by name), or a call
/// and its result when no model message showed the call.
fn add_tool_span(
    conversation: &mut Conversation,
    span: &Span,
    (call_id, name, args, result): (
        Option<String>,
        Option<String>,
        Option<Value>,
        Option<String>,
    ),
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let is_error = span.is_error
        || span.attributes.contains_key("error.type")
        || span.attributes.contains_key("tool.error");
    let content = result.or_else(|| {
        is_error.then(|| {
            span.status_message
                .clone()
                .or_else(|| span.exception.clone())
                .or_else(|| span.text("error.type"))
                .unwrap_or_default()
        })
    });
    let explicit = is_error.then_some(true);
    let known = match &call_id {
        Some(id) if conversation.has_call(id) => Some(Some(id.clone())),
        _ => name
            .as_deref()
            .and_then(|name| conversation.waiting_call_named(name)),
    };
    match known {
        Some(id) if !id.as_deref().is_some_and(|id| conversation.is_answered(id)) => {
            conversation.result(id, content, explicit, place, diagnostics);
        }
        Some(_) => {}
        None => {
            let args = super::messages::args_of(args.as_ref());
            conversation.call(call_id.clone(), name.as_deref(), args, place, diagnostics);
            if name.is_some() {
                conversation.result(call_id, content, explicit, place, diagnostics);
            }
        }
    }
}

/// The most dot-separated segments a flattened key may have below its prefix.
const MAX_KEY_SEGMENTS: usize = 32;

/// Flattened attributes under `prefix` (`llm.input_messages.0.message.role`, …) as nested JSON:
/// numeric segments become array positions.
pub(crate) fn unflatten(attributes: &Map<String, Value>, prefix: &str) -> Value {
    let mut root = Value::Object(Map::new());
    let dotted = format!("{prefix}.");
    for (key, value) in attributes {
        let Some(rest) = key.strip_prefix(&dotted) else {
            continue;
        };
        let mut node = &mut root;
        let segments: Vec<&str> = rest.split('.').collect();
        // Real keys nest a few levels; a key of thousands of dots must not nest (or recurse)
        // that deep.
        if segments.len() > MAX_KEY_SEGMENTS {
            continue;
        }
        for (position, segment) in segments.iter().enumerate() {
            let Value::Object(map) = node else {
                break;
            };
            if position + 1 == segments.len() {
                map.insert((*segment).to_string(), value.clone());
                break;
            }
            node = map
                .entry((*segment).to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
    }
    arrays(root)
}

/// Objects whose keys are all numbers as arrays, in numeric order.
fn arrays(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            let is_list = !map.is_empty() && map.keys().all(|key| key.parse::<usize>().is_ok());
            if is_list {
                let mut items: Vec<(usize, Value)> = map
                    .into_iter()
                    .map(|(key, value)| (key.parse().unwrap_or(0), arrays(value)))
                    .collect();
                crate::sort::sort_by_key(&mut items, |(position, _)| *position);
                Value::Array(items.into_iter().map(|(_, value)| value).collect())
            } else {
                Value::Object(crate::sort::collect_by_insert(
                    map.into_iter().map(|(k, v)| (k, arrays(v))),
                ))
            }
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_key_of_thousands_of_segments_is_left_out_rather_than_nested() {
        let key = format!("llm.input_messages{}", ".0".repeat(50_000));
        let attributes = Map::from_iter([(key, json!("x"))]);
        assert_eq!(unflatten(&attributes, "llm.input_messages"), json!({}));
    }

    #[test]
    fn flattened_attributes_nest_with_arrays_in_numeric_order() {
        let attributes = json!({
            "llm.input_messages.10.message.role": "user",
            "llm.input_messages.2.message.role": "tool",
            "llm.input_messages.2.message.tool_calls.0.tool_call.function.name": "f",
            "llm.model_name": "m"
        });
        let nested = unflatten(attributes.as_object().unwrap(), "llm.input_messages");
        assert_eq!(
            nested,
            json!([
                {"message": {"role": "tool", "tool_calls": [{"tool_call": {"function": {"name": "f"}}}]}},
                {"message": {"role": "user"}}
            ])
        );
    }
}

#[cfg(test)]
mod continued_traces {
    use crate::formats::read_traces;

    /// A bare span of a model call in trace `trace`: what it was sent and returned.
    fn model_call(trace: &str, input: &str, output: &str) -> String {
        let attributes = serde_json::json!({
            "gen_ai.operation.name": "chat",
            "gen_ai.input.messages": input,
            "gen_ai.output.messages": output,
        });
        format!(
            r#"{{"name": "chat m", "context": {{"trace_id": "{trace}"}}, "attributes": {attributes}}}"#
        )
    }

    const ASK: &str = r#"[{"role":"user","parts":[{"type":"text","content":"Refund A1"}]}]"#;
    const CALL: &str = r#"[{"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"refund","arguments":{}}]}]"#;
    const ANSWER: &str = r#"[{"role":"assistant","parts":[{"type":"text","content":"Done."}]}]"#;

    fn session_ids(text: &str) -> Vec<String> {
        let mut diagnostics = Vec::new();
        let read = read_traces("f.jsonl", text.as_bytes(), &mut diagnostics);
        read.sessions
            .into_iter()
            .map(|session| session.session_id)
            .collect()
    }

    #[test]
    fn a_trace_sent_the_previous_traces_whole_exchange_continues_it() {
        let history = r#"[{"role":"user","parts":[{"type":"text","content":"Refund A1"}]},
            {"role":"assistant","parts":[{"type":"tool_call","id":"c1","name":"refund","arguments":{}}]},
            {"role":"tool","parts":[{"type":"tool_call_response","id":"c1","response":"ok"}]}]"#;
        let text = format!(
            "{}\n{}\n",
            model_call("0x01", ASK, CALL),
            model_call("0x02", history, ANSWER)
        );
        assert_eq!(session_ids(&text), ["01"]);
    }

    /// A model call in trace `trace` of conversation `conversation`, started at `start`.
    fn turn(trace: &str, conversation: &str, start: &str, input: &str, output: &str) -> String {
        let attributes = serde_json::json!({
            "gen_ai.operation.name": "chat",
            "gen_ai.conversation.id": conversation,
            "gen_ai.input.messages": input,
            "gen_ai.output.messages": output,
        });
        format!(
            r#"{{"name": "chat m", "context": {{"trace_id": "{trace}"}}, "start_time": "{start}", "attributes": {attributes}}}"#
        )
    }

    #[test]
    fn traces_of_one_conversation_id_are_one_session_in_start_order() {
        let again = r#"[{"role":"user","parts":[{"type":"text","content":"And B2?"}]}]"#;
        // Conversation c1's second turn is written first, and c2's turn between them.
        let text = [
            turn("0x03", "c1", "2026-12-02T10:00:05Z", again, ANSWER),
            turn("0x02", "c2", "2026-12-02T10:00:03Z", ASK, ANSWER),
            turn("0x01", "c1", "2026-12-02T10:00:01Z", ASK, CALL),
        ]
        .join("\n");
        let mut diagnostics = Vec::new();
        let read = read_traces("f.jsonl", text.as_bytes(), &mut diagnostics);
        let sessions: Vec<(String, usize)> = read
            .sessions
            .iter()
            .map(|session| (session.session_id.clone(), session.events.len()))
            .collect();
        // c1: its first turn's question and call, then the second turn's question and answer.
        assert_eq!(sessions, [("c1".to_string(), 4), ("c2".to_string(), 2)]);
        let first = &read.sessions[0];
        assert!(format!("{:?}", first.events[0]).contains("Refund A1"));
        assert!(format!("{:?}", first.events[2]).contains("And B2?"));
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn traces_that_only_start_alike_stay_apart() {
        let text = format!(
            "{}\n{}\n",
            model_call("0x01", ASK, CALL),
            model_call("0x02", ASK, ANSWER)
        );
        assert_eq!(session_ids(&text), ["01", "02"]);
    }
}
