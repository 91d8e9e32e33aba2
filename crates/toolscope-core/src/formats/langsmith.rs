//! LangSmith run exports: runs as the LangSmith API and SDK return them (`client.list_runs()`,
//! `read_run(..., load_child_runs=True)`), one per line, as a JSON array, or as run trees
//! (`child_runs`), one session per trace.
//!
//! ```json
//! {"id": "r2", "trace_id": "r1", "parent_run_id": "r1", "name": "search", "run_type": "tool",
//!  "start_time": "2025-07-01T10:00:01.000000", "inputs": {"input": "{'query': 'weather in Oslo'}"},
//!  "outputs": null, "error": "TimeoutError('search timed out')"}
//! ```
//! Runs are read in `start_time` order (`dotted_order` when they have none). `llm` runs are model
//! calls: `inputs.messages` (a list, or LangChain's list of lists) and `outputs.generations`
//! (each generation's `message`, else its `text`), LangChain's serialised messages
//! (`{"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {...}}`) included;
//! the tools the model was given are `extra.invocation_params.tools`. `tool` runs are tool
//! executions: `inputs` the arguments (`{"input": "..."}`, a JSON string or a Python repr, is
//! unwrapped), `outputs.output` the result (a `ToolMessage`'s content, its `tool_call_id` the
//! call it answers, else the run's `extra.tool_call_id`); the run's `error` (the exception's
//! repr, without the traceback LangChain appends) or a `ToolMessage` of `status` `error` (a tool
//! that handled its own error) is the explicit error flag; a tool run that has not ended (no
//! `end_time`, outputs or error) is left out with a warning. Chain, retriever, prompt, parser and
//! embedding runs (LangGraph's nodes among them) are not events. The
//! body the SDK posts to the batch endpoint (`{"post": [runs], "patch": [runs]}`) is read as its
//! runs, each patch completing the run with its `id` (or, when a capture left the id out, its
//! `dotted_order`, which ends with the run's id).

use serde_json::{Map, Value};

use super::conversation::str_field;
use super::messages::items_of;
use super::native::ToolLists;
use super::odd_record::not_of_format;
use super::otlp::{build_session, Span, SpanRole};
use crate::diagnostic::Diagnostic;
use crate::hashing::{HashMap, HashMapExt};
use crate::json::{parse_value, Split};
use crate::model::Session;

/// What the reader expects of a record.
const EXPECTED: &str = "a LangSmith run ({\"id\", \"run_type\", \"inputs\", \"outputs\"})";

/// The most levels of `child_runs` read (deeper ones are left out with a warning).
const MAX_DEPTH: usize = 64;

/// Whether a record is a LangSmith run, the API's page of them (`{"runs": [...]}`) or the SDK's
/// batch body (`{"post": [...], "patch": [...]}`).
pub(crate) fn is_run(value: &Value) -> bool {
    let is_one = |value: &Value| {
        value.get("run_type").is_some_and(Value::is_string)
            && (value.get("inputs").is_some() || value.get("outputs").is_some())
    };
    is_one(value)
        || ["runs", "post"].into_iter().any(|key| {
            value
                .get(key)
                .and_then(Value::as_array)
                .and_then(|runs| runs.first())
                .is_some_and(is_one)
        })
}

/// The runs a record lists: an API page's `runs`, or a batch body's `post` then `patch`.
fn listed_runs(value: &mut Value) -> Option<Vec<Value>> {
    if let Some(Value::Array(list)) = value.get_mut("runs").map(Value::take) {
        return Some(list);
    }
    let is_batch = ["post", "patch"]
        .into_iter()
        .any(|key| value.get(key).is_some_and(Value::is_array));
    if !is_batch || value.get("run_type").is_some() {
        return None;
    }
    let mut list = Vec::new();
    for key in ["post", "patch"] {
        if let Some(Value::Array(runs)) = value.get_mut(key).map(Value::take) {
            list.extend(runs);
        }
    }
    Some(list)
}

/// The keys a run is known by: its `id`, and its `dotted_order` (which ends with the id).
fn run_keys(value: &Value) -> impl Iterator<Item = String> + '_ {
    let id = value.get("id").and_then(super::id_text);
    let dotted = str_field(value, "dotted_order").map(|order| format!("dotted:{order}"));
    id.into_iter().chain(dotted)
}

/// Whether a record patches a run read before (its end: the same `id` with `outputs`).
fn is_patch(value: &Value, seen: &HashMap<String, usize>) -> bool {
    value
        .get("id")
        .and_then(super::id_text)
        .is_some_and(|id| seen.contains_key(&id))
}

/// One run, flattened out of its tree, with the record it came from.
struct Run {
    value: Value,
    line: usize,
    trace: String,
}

/// Reads every trace of the file.
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let mut runs: Vec<Run> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for record in &split.records {
        let Some(mut value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        // The API's `{"runs": [...]}` page, or the SDK's batch body.
        let listed = match listed_runs(&mut value) {
            Some(list) => list,
            _ if is_run(&value) || is_patch(&value, &seen) => vec![value],
            _ => {
                diagnostics.push(not_of_format(file, record.line, &value, EXPECTED));
                continue;
            }
        };
        for run in listed {
            flatten(
                run,
                None,
                record.line,
                0,
                &mut runs,
                &mut seen,
                file,
                diagnostics,
            );
        }
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_trace: HashMap<String, Vec<usize>> = HashMap::new();
    for (at, run) in runs.iter().enumerate() {
        by_trace
            .entry(run.trace.clone())
            .or_insert_with(|| {
                order.push(run.trace.clone());
                Vec::new()
            })
            .push(at);
    }
    let mut tool_lists = ToolLists::default();
    let mut sessions = Vec::new();
    for trace in order {
        let mut members: Vec<&Run> = by_trace[&trace].iter().map(|&at| &runs[at]).collect();
        crate::sort::sort_by(&mut members, |a, b| {
            sort_key(&a.value).cmp(&sort_key(&b.value))
        });
        let spans: Vec<Span> = members
            .iter()
            .enumerate()
            .map(|(index, run)| span_of(&trace, run, index + 1))
            .collect();
        let roles = members
            .iter()
            .map(|run| {
                if !is_unfinished_tool(&run.value) {
                    return role_of(&run.value);
                }
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(run.line),
                    format!(
                        "tool run {:?} ({}) has not ended (no end_time, outputs or error): \
                         left out, its call has no result",
                        str_field(&run.value, "name").unwrap_or_default(),
                        run.value
                            .get("id")
                            .and_then(super::id_text)
                            .unwrap_or_default()
                    ),
                ));
                SpanRole::Other
            })
            .collect();
        let session = build_session(file, &spans, roles, &mut tool_lists, diagnostics);
        if session.events.is_empty() {
            diagnostics.push(Diagnostic::warning(
                file,
                Some(members[0].line),
                format!(
                    "trace {trace:?}: none of its {} run(s) is an llm or tool run with content; left out",
                    members.len()
                ),
            ));
        } else {
            sessions.push(session);
        }
    }
    sessions
}

/// A run and its `child_runs`, depth first. A run seen before (by id) updates it: the tracer
/// posts a run when it starts and patches it with its outputs when it ends.
#[allow(clippy::too_many_arguments)]
fn flatten(
    mut value: Value,
    trace: Option<&str>,
    line: usize,
    depth: usize,
    runs: &mut Vec<Run>,
    seen: &mut HashMap<String, usize>,
    file: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let children = match value.get_mut("child_runs").map(Value::take) {
        Some(Value::Array(children)) => children,
        _ => Vec::new(),
    };
    let id = value.get("id").and_then(super::id_text);
    let known = run_keys(&value).find_map(|key| seen.get(&key).copied());
    if let Some(at) = known {
        if let (Some(earlier), Value::Object(later)) = (runs[at].value.as_object_mut(), value) {
            for (key, field) in later.into_iter().filter(|(_, field)| !field.is_null()) {
                earlier.insert(key, field);
            }
        }
        return;
    }
    let trace = value
        .get("trace_id")
        .and_then(super::id_text)
        .or_else(|| trace.map(str::to_string))
        .or_else(|| id.clone())
        .unwrap_or_else(|| format!("line {line}"));
    if depth >= MAX_DEPTH && !children.is_empty() {
        diagnostics.push(Diagnostic::warning(
            file,
            Some(line),
            format!(
                "run tree deeper than {MAX_DEPTH} levels: {} child run(s) left out",
                children.len()
            ),
        ));
    } else {
        for child in children {
            flatten(
                child,
                Some(&trace),
                line,
                depth + 1,
                runs,
                seen,
                file,
                diagnostics,
            );
        }
    }
    let keys: Vec<String> = run_keys(&value).collect();
    for key in keys {
        seen.insert(key, runs.len());
    }
    runs.push(Run { value, line, trace });
}

/// Runs sort by start time (ISO 8601 text of one export sorts as time), then dotted order.
fn sort_key(run: &Value) -> (&str, &str) {
    (
        str_field(run, "start_time").unwrap_or_default(),
        str_field(run, "dotted_order").unwrap_or_default(),
    )
}

/// The run as a span: its error is its status, and so is a tool's answer of status `error`
/// (a tool that handles its own error ends its run without one).
fn span_of(trace: &str, run: &Run, index: usize) -> Span {
    let error = run
        .value
        .get("error")
        .filter(|error| !error.is_null())
        .map(error_text);
    let is_failed_answer = str_field(&run.value, "run_type") == Some("tool")
        && tool_output(&run.value).is_some_and(|output| lc_str(output, "status") == Some("error"));
    Span {
        trace_id: trace.to_string(),
        span_id: None,
        name: str_field(&run.value, "name")
            .unwrap_or_default()
            .to_string(),
        start: 0,
        is_error: error.is_some()
            || is_failed_answer
            || str_field(&run.value, "status") == Some("error"),
        status_message: error,
        attributes: Map::new(),
        exception: None,
        line: run.line,
        index,
    }
}

/// What a run means.
fn role_of(run: &Value) -> SpanRole {
    match str_field(run, "run_type") {
        Some("tool") => {
            let inputs = run.get("inputs").filter(|inputs| !inputs.is_null());
            // LangChain passes a tool's input as `{"input": "<text>"}`: the text is the arguments.
            let args = match inputs {
                Some(Value::Object(map)) if map.len() == 1 && map.contains_key("input") => {
                    map.get("input").cloned()
                }
                other => other.cloned(),
            };
            let output = tool_output(run).map(unwrap_lc);
            // A failed run has no output to carry the id: LangChain also keeps it in `extra`.
            let call_id = output
                .as_ref()
                .and_then(|output| str_field(output, "tool_call_id"))
                .or_else(|| {
                    run.get("extra")
                        .and_then(|extra| str_field(extra, "tool_call_id"))
                })
                .map(str::to_string);
            let result = output.map(|output| match output.get("content") {
                Some(content) if output.get("tool_call_id").is_some() => {
                    super::content_text(content.clone())
                }
                _ => super::content_text(output),
            });
            SpanRole::Tool {
                call_id,
                name: str_field(run, "name").map(str::to_string),
                args,
                result,
            }
        }
        Some("llm") => {
            let inputs = run.get("inputs").cloned().unwrap_or(Value::Null);
            let messages = match inputs.get("messages") {
                // LangChain's chat models log a batch: a list of message lists.
                Some(Value::Array(list)) if list.first().is_some_and(Value::is_array) => {
                    Value::Array(list[0].as_array().cloned().unwrap_or_default())
                }
                Some(list) => list.clone(),
                None => inputs.get("prompts").cloned().unwrap_or(Value::Null),
            };
            let outputs = run.get("outputs").cloned().unwrap_or(Value::Null);
            // Runs traced around an API client (`wrap_openai`) log the response itself.
            if outputs.get("generations").is_none() {
                return SpanRole::Inference {
                    input: items_of(Some(unwrap_all(&messages)), true),
                    output: items_of(Some(outputs), false),
                    tools: inputs
                        .get("tools")
                        .filter(|tools| tools.is_array())
                        .cloned(),
                    is_summary: false,
                };
            }
            let generations: Vec<Value> = outputs
                .get("generations")
                .and_then(Value::as_array)
                .map(|list| match list.first() {
                    Some(Value::Array(first)) => first.clone(),
                    _ => list.clone(),
                })
                .unwrap_or_default()
                .into_iter()
                .map(|generation| match generation.get("message") {
                    Some(message) => unwrap_lc(message),
                    None => generation.get("text").cloned().unwrap_or(Value::Null),
                })
                .collect();
            let tools = run
                .get("extra")
                .and_then(|extra| extra.get("invocation_params"))
                .and_then(|params| params.get("tools"))
                .filter(|tools| tools.is_array())
                .cloned();
            SpanRole::Inference {
                input: items_of(Some(unwrap_all(&messages)), true),
                output: items_of(Some(Value::Array(generations)), false),
                tools,
                is_summary: false,
            }
        }
        _ => SpanRole::Other,
    }
}

/// What a tool run answered: `outputs.output` (LangChain's `ToolMessage`, serialised or not),
/// else `outputs` itself; none when a failed run's `outputs` is empty (`{}`).
fn tool_output(run: &Value) -> Option<&Value> {
    let outputs = run.get("outputs").filter(|outputs| match outputs {
        Value::Null => false,
        Value::Object(map) => !map.is_empty(),
        _ => true,
    })?;
    Some(outputs.get("output").unwrap_or(outputs))
}

/// A text field of a value that may be LangChain's serialised form (read from its `kwargs`,
/// as `unwrap_lc` would give them, without copying the value).
fn lc_str<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    let fields = match (value.get("kwargs"), value.get("lc")) {
        (Some(kwargs), Some(_)) => kwargs,
        _ => value,
    };
    str_field(fields, key)
}

/// Whether a run is a tool run whose start was posted and whose end was not (yet): no
/// `end_time`, no outputs and no error. Its call has no answer, not an empty one.
fn is_unfinished_tool(run: &Value) -> bool {
    let has = |key: &str| run.get(key).is_some_and(|field| !field.is_null());
    str_field(run, "run_type") == Some("tool")
        && !has("end_time")
        && !has("error")
        && tool_output(run).is_none()
}

/// What LangChain writes after an exception's repr in a run's `error`.
const TRACEBACK: &str = "Traceback (most recent call last):";

/// A run's error as text: the exception's repr, without the traceback LangChain's tracer
/// appends to it (the files and lines of the tracing process, not the tool's answer).
fn error_text(error: &Value) -> String {
    let text = super::content_text(error.clone());
    match text.find(TRACEBACK) {
        Some(at) if !text[..at].trim().is_empty() => text[..at].trim_end().to_string(),
        _ => text,
    }
}

/// Every message of a list, unwrapped from LangChain's serialised form.
fn unwrap_all(messages: &Value) -> Value {
    match messages {
        Value::Array(list) => Value::Array(list.iter().map(unwrap_lc).collect()),
        other => other.clone(),
    }
}

/// A LangChain-serialised object (`{"lc": 1, "type": "constructor", "id": [..., "AIMessage"],
/// "kwargs": {...}}`) as its fields, typed by its class; anything else as is.
fn unwrap_lc(value: &Value) -> Value {
    let (Some(kwargs), Some(_)) = (value.get("kwargs"), value.get("lc")) else {
        return value.clone();
    };
    let mut fields = kwargs.clone();
    if let (Some(map), Some(class)) = (
        fields.as_object_mut(),
        value
            .get("id")
            .and_then(Value::as_array)
            .and_then(|id| id.last())
            .and_then(Value::as_str),
    ) {
        map.entry("type").or_insert_with(|| Value::from(class));
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, ResultStatus, ToolResult};

    #[test]
    fn a_batch_bodys_patch_completes_its_post_by_id_or_dotted_order() {
        let text = r#"{"post": [{"id": "r1", "trace_id": "r1", "dotted_order": "20241013T070537170001Zr1", "run_type": "llm", "inputs": {"messages": [{"role": "user", "content": "hi"}]}}], "patch": [{"dotted_order": "20241013T070537170001Zr1", "trace_id": "r1", "outputs": {"choices": [{"message": {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "look", "arguments": "{}"}}]}}]}}]}"#;
        let mut diagnostics = Vec::new();
        let split = crate::json::split_records("batch.json", text, &mut diagnostics);
        assert!(is_run(&serde_json::from_str(text).unwrap()));
        let sessions = read("batch.json", &split, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        assert_eq!(sessions.len(), 1);
        let names: Vec<&str> = sessions[0].calls().map(|call| call.name.as_str()).collect();
        assert_eq!(names, ["look"]);
    }

    /// The tool runs of one trace after a model call that asked for `look` (call `c1`).
    fn tool_results(tool_run: &str) -> Vec<ToolResult> {
        let llm = r#"{"id": "m1", "trace_id": "t1", "start_time": "2026-12-02T03:45:09.1", "run_type": "llm", "inputs": {"messages": [[{"type": "human", "content": "hi"}]]}, "outputs": {"generations": [[{"message": {"type": "ai", "content": "", "tool_calls": [{"name": "look", "args": {"q": "x"}, "id": "c1", "type": "tool_call"}]}}]]}}"#;
        let text = format!("{llm}\n{tool_run}\n");
        let mut diagnostics = Vec::new();
        let split = crate::json::split_records("runs.jsonl", &text, &mut diagnostics);
        let sessions = read("runs.jsonl", &split, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        sessions[0]
            .events
            .iter()
            .filter_map(|event| match event {
                Event::ToolResult(result) => Some(result.clone()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_failed_tool_run_answers_with_the_exceptions_repr_and_the_call_id_in_extra() {
        let results = tool_results(
            r#"{"id": "r1", "trace_id": "t1", "start_time": "2026-12-02T03:45:09.2", "name": "look", "run_type": "tool", "inputs": {"q": "x"}, "outputs": {}, "extra": {"tool_call_id": "c1"}, "error": "ValueError('down')Traceback (most recent call last):\n  File \"tool.py\", line 1\nValueError: down"}"#,
        );
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].call_id.as_deref(), Some("c1"));
        assert_eq!(results[0].status, ResultStatus::Error);
        assert_eq!(results[0].content.as_deref(), Some("ValueError('down')"));
    }

    #[test]
    fn a_tool_run_that_has_not_ended_leaves_its_call_unanswered_with_a_warning() {
        let text = r#"{"post": [{"id": "m1", "trace_id": "t1", "start_time": "2026-12-02T03:45:09.1", "end_time": "2026-12-02T03:45:09.2", "run_type": "llm", "inputs": {"messages": [[{"type": "human", "content": "hi"}]]}, "outputs": {"generations": [[{"message": {"type": "ai", "content": "", "tool_calls": [{"name": "look", "args": {}, "id": "c1", "type": "tool_call"}]}}]]}}, {"id": "r1", "trace_id": "t1", "start_time": "2026-12-02T03:45:09.3", "name": "look", "run_type": "tool", "inputs": {}, "outputs": {}}]}"#;
        let mut diagnostics = Vec::new();
        let split = crate::json::split_records("batch.json", text, &mut diagnostics);
        let sessions = read("batch.json", &split, &mut diagnostics);
        assert_eq!(sessions[0].calls().count(), 1);
        assert!(!sessions[0]
            .events
            .iter()
            .any(|event| matches!(event, Event::ToolResult(_))));
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        assert!(diagnostics[0].message.contains("has not ended"));
    }

    #[test]
    fn a_tool_message_of_status_error_is_an_error_result() {
        let results = tool_results(
            r#"{"id": "r1", "trace_id": "t1", "start_time": "2026-12-02T03:45:09.2", "name": "look", "run_type": "tool", "inputs": {"q": "x"}, "outputs": {"output": {"type": "tool", "content": "bad query", "tool_call_id": "c1", "status": "error"}}, "error": null}"#,
        );
        assert_eq!(results.len(), 1);
        assert_eq!(results[0].status, ResultStatus::Error);
        assert_eq!(results[0].content.as_deref(), Some("bad query"));
    }
}
