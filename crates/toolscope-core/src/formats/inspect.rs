//! Inspect AI eval logs: `.json` logs (`{"version", "eval", "samples": [...]}`), and `.eval`
//! logs, which are ZIP archives holding `header.json` and one `samples/<id>_epoch_<n>.json` per
//! sample. One session per sample (and epoch).
//!
//! ```json
//! {"version": 2, "status": "success", "eval": {"task": "browser"},
//!  "samples": [{"id": 1, "epoch": 1, "messages": [
//!    {"role": "user", "content": "Open the AISI site."},
//!    {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1",
//!      "function": "web_browser_go", "arguments": {"url": "https://www.aisi.gov.uk/"}}]},
//!    {"role": "tool", "tool_call_id": "call_1", "function": "web_browser_go", "content": "",
//!     "error": {"type": "timeout", "message": "no answer in 180s"}}],
//!   "events": [{"event": "model", "tools": [{"name": "web_browser_go", "parameters": {"type": "object"}}]}]}]}
//! ```
//! A tool call names its tool in `function` and has `arguments` as an object (a `parse_error`
//! makes them malformed). A tool message's `error` (`{type, message}`) is the explicit error flag;
//! otherwise the `Error:` convention applies. Large strings stored as `attachment://<hash>` are
//! resolved from the sample's `attachments`. Tools come from the first `model` event. A `tool`
//! event whose call no message holds (an agent may take calls out of its history, as `react()`
//! does with `submit()`) is read after the messages; one nested in another tool's span (an
//! agent run as a tool) is not this agent's call.

use std::io::{Cursor, Read};

use serde_json::{Map, Value};

use super::content_text;
use super::conversation::{args_from, str_field, Conversation};
use super::native::ToolLists;
use super::odd_record::not_of_format;
use crate::diagnostic::Diagnostic;
use crate::hashing::HashMap;
use crate::json::{decode_text, parse_record, parse_value, split_records, Split, MAX_DEPTH};
use crate::model::{Args, ErrorSource, Session, Trial};

/// The largest sample a `.eval` archive may unpack to; bigger entries are left out (a ZIP bomb
/// must not exhaust the page's memory).
const MAX_ENTRY_BYTES: u64 = 256 * 1024 * 1024;

/// The most a whole `.eval` archive may unpack to, as for any one file
/// ([`crate::input::MAX_FILE_BYTES`]): many entries, each under the entry limit, must not add up
/// to an unbounded read. Entries past it are left out, with one error naming how many.
const MAX_ARCHIVE_BYTES: u64 = crate::input::MAX_FILE_BYTES;

/// Whether a record is an Inspect `.json` log.
pub(crate) fn is_log(value: &Value) -> bool {
    value
        .get("eval")
        .is_some_and(|eval| eval.get("task").is_some())
        && (value.get("samples").is_some() || value.get("version").is_some())
}

/// Whether the bytes are a ZIP archive (an `.eval` log, when it holds `header.json`).
pub(crate) fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// Reads a `.json` log (or samples on their own).
pub(crate) fn read(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Vec<Session> {
    let mut sessions = Vec::new();
    let mut tool_lists = ToolLists::default();
    for record in &split.records {
        let Some(value) = parse_value(file, record, diagnostics) else {
            continue;
        };
        let samples = match value.get("samples") {
            Some(Value::Array(samples)) => samples.clone(),
            _ if value.get("messages").is_some() => vec![value],
            _ if is_log(&value) => {
                diagnostics.push(Diagnostic::warning(
                    file,
                    Some(record.line),
                    "Inspect log without samples (a header only?); nothing to read",
                ));
                continue;
            }
            _ => {
                let expected = "an Inspect log ({\"eval\", \"samples\"}) or sample";
                diagnostics.push(not_of_format(file, record.line, &value, expected));
                continue;
            }
        };
        for (index, sample) in samples.into_iter().enumerate() {
            let place = format!("sample {}", index + 1);
            sessions.extend(sample_session(
                file,
                record.line,
                sample,
                &place,
                &mut tool_lists,
                diagnostics,
            ));
        }
    }
    sessions
}

/// How many of a ZIP archive's entries an error about it names.
const NAMED_ENTRIES: usize = 5;

/// Reads the samples of an `.eval` archive, in entry-name order; None (with an error) when the
/// bytes are not a ZIP archive that could be read, or one that holds neither `header.json` nor
/// samples, so that nothing was read from it.
pub(crate) fn read_eval(
    file: &str,
    bytes: &[u8],
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<Session>> {
    read_eval_within(file, bytes, MAX_ARCHIVE_BYTES, diagnostics)
}

/// [`read_eval`], unpacking at most `max_archive_bytes` in all.
fn read_eval_within(
    file: &str,
    bytes: &[u8],
    max_archive_bytes: u64,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Vec<Session>> {
    let mut archive = match zip::ZipArchive::new(Cursor::new(bytes)) {
        Ok(archive) => archive,
        Err(error) => {
            diagnostics.push(Diagnostic::error(
                file,
                None,
                format!("not a readable ZIP archive (an Inspect .eval log): {error}"),
            ));
            return None;
        }
    };
    let mut names: Vec<String> = archive
        .file_names()
        .filter(|name| name.starts_with("samples/") && name.ends_with(".json"))
        .map(str::to_string)
        .collect();
    crate::sort::sort(&mut names);
    let has_header = archive.index_for_name("header.json").is_some();
    if !has_header && names.is_empty() {
        // Any ZIP archive starts with the same bytes; one that is not an Inspect log is an
        // unreadable input, not an empty log.
        let mut entries: Vec<&str> = archive.file_names().collect();
        entries.sort_unstable();
        let mut held = entries
            .iter()
            .take(NAMED_ENTRIES)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        if entries.len() > NAMED_ENTRIES {
            held.push_str(&format!(" and {} more", entries.len() - NAMED_ENTRIES));
        }
        let holds = if entries.is_empty() {
            "it is empty".to_string()
        } else {
            format!("it holds {held}")
        };
        diagnostics.push(Diagnostic::error(
            file,
            None,
            format!(
                "a ZIP archive without an Inspect log's header.json or samples/*.json ({holds}); \
                 nothing read"
            ),
        ));
        return None;
    }
    if !has_header {
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            "ZIP archive without header.json: read as an Inspect .eval log anyway",
        ));
    } else if names.is_empty() {
        diagnostics.push(Diagnostic::warning(
            file,
            None,
            "Inspect .eval log without samples (a header only?); nothing to read",
        ));
    }
    let mut sessions = Vec::new();
    let mut tool_lists = ToolLists::default();
    let mut unpacked = 0u64;
    let entry_count = names.len();
    for (index, name) in names.into_iter().enumerate() {
        let entry_file = format!("{file}/{name}");
        let left = max_archive_bytes - unpacked;
        if left == 0 {
            diagnostics.push(Diagnostic::error(
                file,
                None,
                format!(
                    "the archive unpacks to more than {max_archive_bytes} bytes; its last {} \
                     samples are left out",
                    entry_count - index
                ),
            ));
            break;
        }
        let mut raw = Vec::new();
        let read = archive
            .by_name(&name)
            .map_err(|error| error.to_string())
            .and_then(|entry| {
                entry
                    .take(MAX_ENTRY_BYTES.min(left) + 1)
                    .read_to_end(&mut raw)
                    .map_err(|error| error.to_string())
            });
        unpacked = (unpacked + raw.len() as u64).min(max_archive_bytes);
        if let Err(error) = read {
            diagnostics.push(Diagnostic::error(
                file,
                None,
                format!("{name}: {error}; left out"),
            ));
            continue;
        }
        if raw.len() as u64 > MAX_ENTRY_BYTES.min(left) {
            diagnostics.push(Diagnostic::error(
                file,
                None,
                if raw.len() as u64 > MAX_ENTRY_BYTES {
                    format!("{name}: larger than {MAX_ENTRY_BYTES} bytes unpacked; left out")
                } else {
                    format!(
                        "{name}: left out, the archive's samples unpack to more than \
                         {max_archive_bytes} bytes together"
                    )
                },
            ));
            continue;
        }
        let text = decode_text(&entry_file, &raw, diagnostics);
        let split = split_records(&entry_file, &text, diagnostics);
        for record in &split.records {
            match parse_record::<Value>(&entry_file, record, diagnostics) {
                Ok(sample) => sessions.extend(sample_session(
                    &entry_file,
                    record.line,
                    sample,
                    "sample",
                    &mut tool_lists,
                    diagnostics,
                )),
                Err(diagnostic) => diagnostics.push(diagnostic),
            }
        }
    }
    Some(sessions)
}

fn sample_session(
    file: &str,
    line: usize,
    mut sample: Value,
    place: &str,
    tool_lists: &mut ToolLists,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<Session> {
    let attachments = match sample.get_mut("attachments").map(Value::take) {
        Some(Value::Object(attachments)) => attachments,
        _ => Map::new(),
    };
    resolve_attachments(&mut sample, &attachments, 0);
    let id = sample.get("id").and_then(super::id_text);
    let epoch = sample.get("epoch").and_then(Value::as_u64).unwrap_or(1);
    let session_id = match (id.clone(), epoch) {
        (Some(id), 1) => id,
        (Some(id), epoch) => format!("{id} (epoch {epoch})"),
        (None, _) => format!("{}:{line}", super::file_stem(file)),
    };
    let Some(messages) = sample.get("messages").and_then(Value::as_array) else {
        diagnostics.push(Diagnostic::error(
            file,
            Some(line),
            format!("{place} {session_id:?} has no \"messages\"; left out"),
        ));
        return None;
    };
    let mut conversation = Conversation::new(session_id, file, line);
    if let Some(reward) = score_reward(sample.get("scores")) {
        conversation.set_task_id(id.clone());
        conversation.set_trial(Some(Trial {
            number: Some(epoch),
            reward,
        }));
    }
    let tools = sample
        .get("events")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .find(|event| str_field(event, "event") == Some("model") && event.get("tools").is_some())
        .and_then(|event| event.get("tools"));
    if let Some(tools) = tools {
        match tool_lists.read(&tools.to_string()) {
            Ok(tools) => conversation.set_tools(Some(tools)),
            Err(message) => {
                diagnostics.push(conversation.warning(format!("tools: {message}; ignored")))
            }
        }
    }
    for (index, message) in messages.iter().enumerate() {
        let place = format!("message {}", index + 1);
        add_message(&mut conversation, message, &place, diagnostics);
    }
    if let Some(events) = sample.get("events").and_then(Value::as_array) {
        add_calls_only_in_events(&mut conversation, events, diagnostics);
    }
    Some(conversation.finish())
}

/// The most span levels looked through to tell whether a tool event is nested in a tool's span.
const MAX_SPAN_DEPTH: usize = 64;

/// The sample's calls that its events hold but its messages do not, after the messages.
///
/// Inspect's `messages` are the conversation as the agent left it; the `events` are the
/// transcript of everything that ran (Inspect's log documentation). An agent may take calls out
/// of its history (`react()` leaves out its `submit()` call unless told to keep it), so a `tool`
/// event whose call id no message holds is a call too. A tool event inside another tool's span
/// is a nested agent's call (an agent run as a tool), not this agent's: left out.
fn add_calls_only_in_events<'e>(
    conversation: &mut Conversation,
    events: &'e [Value],
    diagnostics: &mut Vec<Diagnostic>,
) {
    let spans: HashMap<&'e str, (&'e str, Option<&'e str>)> = events
        .iter()
        .filter(|event| str_field(event, "event") == Some("span_begin"))
        .filter_map(|event| {
            let id = str_field(event, "id")?;
            let kind = str_field(event, "type").unwrap_or_default();
            Some((id, (kind, str_field(event, "parent_id"))))
        })
        .collect();
    let is_in_tool_span = |mut span: Option<&'e str>| {
        for _ in 0..MAX_SPAN_DEPTH {
            let Some((kind, parent)) = span.and_then(|id| spans.get(id)) else {
                return false;
            };
            if *kind == "tool" {
                return true;
            }
            span = *parent;
        }
        false
    };
    for (index, event) in events.iter().enumerate() {
        if str_field(event, "event") != Some("tool") {
            continue;
        }
        let Some(call_id) = event.get("id").and_then(super::id_text) else {
            continue;
        };
        if conversation.has_call(&call_id) || is_in_tool_span(str_field(event, "span_id")) {
            continue;
        }
        let place = format!("tool event {} (a call its messages do not hold)", index + 1);
        conversation.call(
            Some(call_id.clone()),
            str_field(event, "function"),
            args_from(event.get("arguments")),
            &place,
            diagnostics,
        );
        let error = event.get("error").filter(|error| !error.is_null());
        let mut text = content_text(event.get("result").cloned().unwrap_or(Value::Null));
        if let Some(error) = error.filter(|_| text.trim().is_empty()) {
            text = str_field(error, "message").unwrap_or_default().to_string();
        }
        conversation.result(
            Some(call_id),
            Some(text),
            error.map(|_| true),
            &place,
            diagnostics,
        );
        if let Some(kind) = error.and_then(|error| str_field(error, "type")) {
            conversation.set_error_source(error_source(kind));
        }
    }
}

fn add_message(
    conversation: &mut Conversation,
    message: &Value,
    place: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let content = || message_text(message.get("content"));
    match str_field(message, "role") {
        Some("system") => {}
        Some("user") => conversation.user(content()),
        Some("assistant") => {
            conversation.assistant(content());
            let calls = message.get("tool_calls").and_then(Value::as_array);
            for (index, call) in calls.into_iter().flatten().enumerate() {
                let args = match str_field(call, "parse_error") {
                    Some(error) => Args::Malformed {
                        raw: content_text(call.get("arguments").cloned().unwrap_or(Value::Null)),
                        error: error.to_string(),
                    },
                    None => args_from(call.get("arguments")),
                };
                conversation.call(
                    call.get("id").and_then(super::id_text),
                    str_field(call, "function"),
                    args,
                    &format!("{place}, tool call {}", index + 1),
                    diagnostics,
                );
            }
        }
        Some("tool") => {
            let error = message.get("error").filter(|error| !error.is_null());
            let mut text = content();
            if let Some(error) = error.filter(|_| text.trim().is_empty() || text == "...") {
                text = str_field(error, "message").unwrap_or_default().to_string();
            }
            conversation.result(
                message.get("tool_call_id").and_then(super::id_text),
                Some(text),
                error.map(|_| true),
                place,
                diagnostics,
            );
            if let Some(kind) = error.and_then(|error| str_field(error, "type")) {
                conversation.set_error_source(error_source(kind));
            }
        }
        other => diagnostics.push(conversation.warning(format!(
            "{place}: role {other:?} is not an Inspect role; left out"
        ))),
    }
}

/// A message's content as text, its `reasoning` parts (Inspect's `ContentReasoning`: the
/// model's thinking, not its words) left out.
fn message_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::Array(parts)) => content_text(Value::Array(
            parts
                .iter()
                .filter(|part| str_field(part, "type") != Some("reasoning"))
                .cloned()
                .collect(),
        )),
        Some(other) => content_text(other.clone()),
        None => String::new(),
    }
}

/// Who an Inspect `ToolCallError` type blames: the agent for calls that cannot work as written
/// (arguments that do not parse, paths that do not exist or may not be touched, calls the
/// approver refused), the environment for timeouts and a missing sandbox; the rest (limits,
/// undecodable output, cancellation, unknown) says nothing about blame.
fn error_source(kind: &str) -> Option<ErrorSource> {
    match kind {
        "parsing" | "file_not_found" | "is_a_directory" | "permission" | "approval" => {
            Some(ErrorSource::Agent)
        }
        "timeout" | "sandbox_unavailable" => Some(ErrorSource::Environment),
        _ => None,
    }
}

/// Replaces `attachment://<hash>` strings with the attachment's text.
fn resolve_attachments(value: &mut Value, attachments: &Map<String, Value>, depth: usize) {
    if attachments.is_empty() || depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::String(text) => {
            if let Some(found) = text
                .strip_prefix("attachment://")
                .and_then(|hash| attachments.get(hash))
            {
                *value = found.clone();
            }
        }
        Value::Array(items) => {
            for item in items {
                resolve_attachments(item, attachments, depth + 1);
            }
        }
        Value::Object(map) => {
            for item in map.values_mut() {
                resolve_attachments(item, attachments, depth + 1);
            }
        }
        _ => {}
    }
}

/// A sample's reward from its scores, when it has exactly one scorer with a value toolscope can
/// read, as Inspect's `value_to_float` reads it: `C` (correct) 1, `I` (incorrect) and `N` (no
/// answer) 0, `P` (partial) 0.5, a number as it is, true and false 1 and 0. With several scorers
/// there is no one reward, so no trial.
fn score_reward(scores: Option<&Value>) -> Option<f64> {
    let scores = scores?.as_object()?;
    if scores.len() != 1 {
        return None;
    }
    match scores.values().next()?.get("value")? {
        Value::String(grade) => match grade.as_str() {
            "C" => Some(1.0),
            "I" | "N" => Some(0.0),
            "P" => Some(0.5),
            _ => None,
        },
        Value::Number(number) => number.as_f64().filter(|value| value.is_finite()),
        Value::Bool(is_true) => Some(if *is_true { 1.0 } else { 0.0 }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::*;

    /// As in METR's recorded `oxdna_simple` log (Claude with extended thinking): an assistant
    /// message's `reasoning` parts are left out of its text, not the whole content kept as JSON.
    #[test]
    fn reasoning_parts_are_left_out_of_an_assistant_message() {
        let log = serde_json::json!({"version": 2, "eval": {"task": "t"}, "samples": [{
            "id": 1, "epoch": 1, "messages": [
                {"role": "user", "content": "Run it"},
                {"role": "assistant", "content": [
                    {"type": "reasoning", "reasoning": "I should list files.", "signature": "x",
                     "redacted": false},
                    {"type": "text", "text": "Listing the files."}],
                 "tool_calls": [{"id": "t1", "function": "bash", "arguments": {"cmd": "ls"}}]},
                {"role": "tool", "tool_call_id": "t1", "function": "bash", "content": "a b"}]}]});
        let mut diagnostics = Vec::new();
        let read = crate::formats::read_traces_as(
            "log.json",
            log.to_string().as_bytes(),
            Some(crate::formats::TraceFormat::Inspect),
            &mut diagnostics,
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let words: Vec<&str> = read.sessions[0]
            .events
            .iter()
            .filter_map(|event| match event {
                crate::model::Event::Assistant { content } => Some(content.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(words, ["Listing the files."]);
    }

    /// An archive of the fixture's header and its one sample under four names.
    fn four_samples() -> (Vec<u8>, usize) {
        let fixture = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/formats/inspect/log_formats.eval"
        ))
        .expect("the fixture");
        let mut source = zip::ZipArchive::new(Cursor::new(fixture)).expect("a ZIP archive");
        let mut entry = |name: &str| {
            let mut bytes = Vec::new();
            source
                .by_name(name)
                .expect("the entry")
                .read_to_end(&mut bytes)
                .expect("it unpacks");
            bytes
        };
        let (header, sample) = (entry("header.json"), entry("samples/1_epoch_1.json"));
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default();
        writer.start_file("header.json", options).unwrap();
        writer.write_all(&header).unwrap();
        for epoch in 1..=4 {
            writer
                .start_file(format!("samples/1_epoch_{epoch}.json"), options)
                .unwrap();
            writer.write_all(&sample).unwrap();
        }
        (writer.finish().unwrap().into_inner(), sample.len())
    }

    #[test]
    fn samples_past_the_archive_budget_are_left_out_and_counted() {
        let (archive, sample_bytes) = four_samples();
        let mut diagnostics = Vec::new();
        let all = read_eval_within("a.eval", &archive, u64::MAX, &mut diagnostics).unwrap();
        assert_eq!(all.len(), 4);
        // Room for two samples and a half: the third is cut, the fourth never unpacked.
        let budget = (sample_bytes * 5 / 2) as u64;
        let mut diagnostics = Vec::new();
        let read = read_eval_within("a.eval", &archive, budget, &mut diagnostics).unwrap();
        assert_eq!(read.len(), 2);
        let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                format!(
                    "samples/1_epoch_3.json: left out, the archive's samples unpack to more than \
                     {budget} bytes together"
                ),
                format!(
                    "the archive unpacks to more than {budget} bytes; its last 1 samples are left \
                     out"
                ),
            ]
        );
    }
}
