//! Detecting a trace file's format from its content (never its name), with the reason.
//!
//! Records are parsed in file order, up to [`PROBE_RECORDS`] of them (and no further once
//! [`PROBE_BYTES`] of record text has been read), and the formats are tried on each record on its
//! own, from the most specific to the most general ([`TraceFormat::ALL`]): the first record that
//! a format recognises decides. So one odd record (a header line, `{}`, a number, a broken first
//! run) cannot hide a file of good records, and a file mixing formats is read as its first
//! recognisable record's format; the reader then reports each record that is not of it. When no
//! record is recognised on its own, the parsed records are tried together with weak signals (a
//! record that is only a message with a role). A record over a megabyte is judged by its shape
//! (`json::parse_shape`: its first items and values, never all of it in memory). When nothing is recognised, one diagnostic lists
//! every format tried and what it looks for.

use serde_json::Value;

use super::exchange::first_bodies;
use super::TraceFormat;
use crate::diagnostic::Diagnostic;
use crate::json::{parse_record, parse_shape, Layout, Split};

/// Most records detection looks at.
pub(crate) const PROBE_RECORDS: usize = 64;

/// Detection reads no further record once this much record text has been parsed (a few large
/// records, such as whole Inspect logs, are enough to decide).
pub(crate) const PROBE_BYTES: usize = 16 << 20;

/// Records longer than this are judged by their shape ([`parse_shape`]): at most a bounded
/// number of values of them, so detecting a huge record costs no more memory than a small one.
const SHAPE_FROM_BYTES: usize = 1 << 20;

/// What detection sees of a file.
pub(crate) struct Probe {
    pub(crate) layout: Layout,
    /// Records that parse: one, when each record is tried on its own; all those read, when they
    /// are tried together.
    pub(crate) records: Vec<Value>,
    /// Request and response bodies inside them (the records themselves when they wrap none).
    pub(crate) bodies: Vec<Value>,
    /// Whether weak signals count (a record that is just a message with a role).
    pub(crate) allows_weak: bool,
}

impl Probe {
    fn first(&self) -> &Value {
        &self.records[0]
    }

    fn first_has(&self, key: &str) -> bool {
        self.first().get(key).is_some()
    }

    fn any_body(&self, test: impl Fn(&Value) -> bool) -> bool {
        self.bodies.iter().any(test)
    }

    /// Every message the probe holds: records that are messages, and the messages, contents
    /// and items of each body.
    fn messages(&self) -> impl Iterator<Item = &Value> {
        self.bodies.iter().flat_map(|body| {
            let lists = ["messages", "contents", "input", "output", "traj"]
                .into_iter()
                .filter_map(|key| body.get(key).and_then(Value::as_array))
                .flatten();
            let choices = body
                .get("choices")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|choice| choice.get("message"));
            let candidates = body
                .get("candidates")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|candidate| candidate.get("content"));
            std::iter::once(body)
                .chain(lists)
                .chain(choices)
                .chain(candidates)
        })
    }
}

/// What each format looks for, as the diagnostic lists it.
fn looks_for(format: TraceFormat) -> &'static str {
    match format {
        TraceFormat::Native => "records with \"events\"",
        TraceFormat::EvalCases => "an array of cases with \"user_input\" or \"expected_tool\"",
        TraceFormat::SeedCalls => "an array of {\"name\", \"args\"} calls",
        TraceFormat::OpenaiChat => {
            "\"messages\" with \"role\", \"choices\", or chat messages one per record"
        }
        TraceFormat::Anthropic => {
            "\"tool_use\"/\"tool_result\" content blocks, tools with \"input_schema\""
        }
        TraceFormat::OpenaiResponses => {
            "\"function_call\" items, a response with \"output\", a request with \"input\""
        }
        TraceFormat::Gemini => "\"contents\" or \"candidates\" with \"parts\"",
        TraceFormat::OtelGenai => "OTLP/JSON \"resourceSpans\", spans or \"gen_ai.*\" attributes",
        TraceFormat::Openinference => "spans with \"openinference.span.kind\"",
        TraceFormat::Langfuse => {
            "{\"trace\", \"observations\"} or observations with \"traceId\" and \"type\""
        }
        TraceFormat::Inspect => "a log with \"eval\" and \"samples\", or a .eval ZIP archive",
        TraceFormat::Bfcl => "lines with \"id\" and \"question\" or \"ground_truth\"",
        TraceFormat::TauBench => {
            "runs with \"task_id\" and \"traj\", \"simulations\", or a τ² simulation or results index"
        }
        TraceFormat::ClaudeCode => {
            "records with \"sessionId\", \"uuid\" and \"type\" user/assistant (Claude Code)"
        }
        TraceFormat::CodexCli => {
            "records with \"payload\" and \"type\" session_meta/response_item/event_msg (Codex CLI)"
        }
        TraceFormat::AgentsSdk => {
            "traces and spans with \"object\": \"trace\" / \"trace.span\" (OpenAI Agents SDK)"
        }
        TraceFormat::GeminiCli => {
            "a {\"sessionId\", \"projectHash\"} line or document, then messages (Gemini CLI)"
        }
        TraceFormat::Openhands => {
            "events with \"source\" and \"action\"/\"observation\", or runs with them in \"history\" (OpenHands)"
        }
        TraceFormat::SweAgent => {
            "a trajectory with \"history\" messages (SWE-agent .traj) or a \"trajectory_format\": \"mini-swe-agent-1\" one"
        }
        TraceFormat::Langsmith => "runs with \"run_type\" and \"inputs\"/\"outputs\" (LangSmith)",
        TraceFormat::Mcp => {
            "JSON-RPC 2.0 messages (\"jsonrpc\": \"2.0\"), bare or in a log record (MCP)"
        }
    }
}

/// Why the probe is in `format`, if it is.
fn recognise(format: TraceFormat, probe: &Probe) -> Option<&'static str> {
    let array = probe.layout == Layout::Array;
    match format {
        // The Python SDK's `span.to_json()` has `events` too: a span's.
        TraceFormat::Native => (probe.first_has("events")
            && !super::otlp_json::is_bare_span(probe.first())
            || probe.first_has("session_id") && !probe.first_has("expected_tool"))
        .then_some("records have \"events\": toolscope session format"),
        TraceFormat::EvalCases => (array
            && (probe.first_has("user_input") || probe.first_has("expected_tool")))
        .then_some("an array of cases with \"user_input\"/\"expected_tool\": eval cases"),
        TraceFormat::SeedCalls => (array
            && probe.first().get("name").is_some_and(Value::is_string))
        .then_some("an array of {\"name\", \"args\"} calls: one session"),
        TraceFormat::OpenaiChat => recognise_openai_chat(probe),
        TraceFormat::Anthropic => recognise_anthropic(probe),
        TraceFormat::OpenaiResponses => recognise_openai_responses(probe),
        TraceFormat::Gemini => recognise_gemini(probe),
        TraceFormat::OtelGenai => recognise_spans(probe, false),
        TraceFormat::Openinference => recognise_spans(probe, true),
        TraceFormat::TauBench => super::tau_bench::is_tau(probe.first())
            .then_some("runs with \"task_id\" and \"traj\" (or \"simulations\"): τ-bench"),
        TraceFormat::Bfcl => super::bfcl::is_bfcl(probe.first()).then_some(
            "lines with \"id\" and \"question\"/\"ground_truth\"/\"result\": BFCL questions, answers or model results",
        ),
        TraceFormat::ClaudeCode => super::claude_code::is_record(probe.first()).then_some(
            "records with \"sessionId\", \"uuid\" and a user/assistant \"message\": Claude Code transcript",
        ),
        TraceFormat::CodexCli => {
            if super::codex_cli::is_record(probe.first()) {
                Some("records with \"type\" session_meta/response_item/event_msg and a \"payload\": Codex CLI rollout")
            } else if super::codex_cli::is_legacy_meta(probe.first()) {
                Some("a session line {\"id\", \"timestamp\"} then items: older Codex CLI rollout")
            } else {
                None
            }
        }
        TraceFormat::AgentsSdk => super::agents_sdk::is_record(probe.first())
            .then_some("traces and spans with \"object\": \"trace.span\": OpenAI Agents SDK export"),
        TraceFormat::GeminiCli => super::gemini_cli::is_record(probe.first())
            .then_some("a recording with \"sessionId\" and \"projectHash\": Gemini CLI chat"),
        TraceFormat::Openhands => super::openhands::is_record(probe.first())
            .then_some("events with \"source\" and \"action\"/\"observation\": OpenHands"),
        TraceFormat::SweAgent => {
            if super::swe_agent::is_trajectory(probe.first()) {
                Some("a trajectory with \"history\" messages: SWE-agent")
            } else if super::mini_swe_agent::is_trajectory(probe.first()) {
                Some("a trajectory with \"messages\" and \"trajectory_format\": mini-swe-agent")
            } else {
                None
            }
        }
        TraceFormat::Langsmith => super::langsmith::is_run(probe.first())
            .then_some("runs with \"run_type\" and \"inputs\"/\"outputs\": LangSmith run export"),
        TraceFormat::Mcp => super::mcp::is_record(probe.first())
            .then_some("JSON-RPC 2.0 messages: MCP message log"),
        TraceFormat::Inspect => super::inspect::is_log(probe.first())
            .then_some("a log with \"eval.task\" and \"samples\": Inspect AI"),
        TraceFormat::Langfuse => {
            let first = probe.first();
            if first.get("trace").is_some() && first.get("observations").is_some() {
                Some("a trace with \"observations\": Langfuse export")
            } else if super::langfuse::is_observation(first)
                || first
                    .get("data")
                    .and_then(|data| data.get(0))
                    .is_some_and(super::langfuse::is_observation)
            {
                Some("observations with \"traceId\" and \"type\": Langfuse")
            } else {
                None
            }
        }
    }
}

/// OTLP exports, bare spans and attribute maps; OpenInference when any span says its kind.
fn recognise_spans(probe: &Probe, openinference: bool) -> Option<&'static str> {
    let first = probe.first();
    if !openinference && first.get("resourceLogs").is_some() {
        return Some("OTLP/JSON logs (GenAI events): OpenTelemetry GenAI");
    }
    if !openinference && super::otel_events::is_bare_log_record(first) {
        return Some(
            "log records (GenAI events, as the Python SDK prints them): OpenTelemetry GenAI",
        );
    }
    let is_spans = first.get("resourceSpans").is_some()
        || super::otlp_json::phoenix_page(first).is_some()
        || super::otlp_json::is_bare_span(first)
        || super::otlp_json::is_attribute_map(first);
    if !is_spans {
        return None;
    }
    let keys: Vec<String> = probe
        .records
        .iter()
        .flat_map(super::otlp_json::attribute_keys)
        .collect();
    let has_openinference = keys.iter().any(|key| key == "openinference.span.kind");
    match (openinference, has_openinference) {
        (true, true) => Some("spans with \"openinference.span.kind\": OpenInference"),
        (true, false) => None,
        (false, _) if keys.iter().any(|key| key.starts_with("gen_ai.")) => {
            Some("spans with \"gen_ai.*\" attributes: OpenTelemetry GenAI")
        }
        (false, _) => Some("OTLP/JSON spans without GenAI attributes: OpenTelemetry GenAI"),
    }
}

fn recognise_gemini(probe: &Probe) -> Option<&'static str> {
    if probe.any_body(|body| body.get("candidates").is_some_and(Value::is_array)) {
        Some("a response with \"candidates\": Gemini")
    } else if probe.any_body(|body| body.get("contents").is_some_and(Value::is_array)) {
        Some("a request with \"contents\": Gemini")
    } else if probe.first().get("parts").is_some_and(Value::is_array) {
        Some("contents with \"parts\", one per record: Gemini")
    } else {
        None
    }
}

fn recognise_openai_responses(probe: &Probe) -> Option<&'static str> {
    let is_call_item = |item: &Value| {
        item.get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| {
                matches!(
                    kind,
                    "function_call" | "function_call_output" | "custom_tool_call" | "mcp_call"
                )
            })
    };
    if probe.messages().any(is_call_item) {
        Some("items of type \"function_call\": OpenAI Responses")
    } else if probe.any_body(|body| {
        body.get("object").and_then(Value::as_str) == Some("response")
            || body.get("output").is_some_and(Value::is_array) && body.get("model").is_some()
    }) {
        Some("a response with \"output\" items: OpenAI Responses")
    } else if probe.any_body(|body| {
        body.get("input")
            .is_some_and(|input| input.is_array() || input.is_string())
            && (body.get("model").is_some()
                || body.get("tools").is_some()
                || body.get("previous_response_id").is_some())
    }) {
        Some("a request with \"input\": OpenAI Responses")
    } else if probe.any_body(super::openai_responses_stream::is_start) {
        Some("a streamed response (\"response.created\" events): OpenAI Responses")
    } else {
        None
    }
}

fn recognise_anthropic(probe: &Probe) -> Option<&'static str> {
    let has_block = |message: &Value| {
        message
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|blocks| {
                blocks.iter().any(|block| {
                    block
                        .get("type")
                        .and_then(Value::as_str)
                        .is_some_and(|kind| matches!(kind, "tool_use" | "tool_result" | "thinking"))
                })
            })
    };
    let tools_have_input_schema = |body: &Value| {
        body.get("tools")
            .and_then(Value::as_array)
            .is_some_and(|tools| tools.iter().any(|tool| tool.get("input_schema").is_some()))
    };
    if probe.messages().any(has_block) {
        Some("content blocks \"tool_use\"/\"tool_result\": Anthropic Messages")
    } else if probe.any_body(tools_have_input_schema) {
        Some("tools with \"input_schema\": Anthropic Messages")
    } else if probe.any_body(|body| {
        body.get("type").and_then(Value::as_str) == Some("message")
            && body.get("content").is_some_and(Value::is_array)
    }) {
        Some("a response of type \"message\" with content blocks: Anthropic Messages")
    } else if probe.any_body(super::anthropic_stream::is_start) {
        Some("a streamed response (\"message_start\" events): Anthropic Messages")
    } else {
        None
    }
}

fn recognise_openai_chat(probe: &Probe) -> Option<&'static str> {
    if probe.messages().any(|message| {
        message.get("tool_calls").is_some() || message.get("function_call").is_some()
    }) {
        Some("messages with \"tool_calls\": OpenAI Chat Completions")
    } else if probe.any_body(|body| body.get("choices").is_some_and(Value::is_array)) {
        Some("a response with \"choices\": OpenAI Chat Completions")
    } else if probe.any_body(|body| body.get("messages").is_some_and(Value::is_array)) {
        Some("requests with \"messages\": OpenAI Chat Completions")
    } else if probe.allows_weak
        && probe
            .records
            .iter()
            .any(|record| record.get("role").is_some_and(Value::is_string))
    {
        Some("one message with \"role\" per record: OpenAI Chat Completions")
    } else {
        None
    }
}

/// Detects the format; when nothing matches, one error lists every format tried.
pub(crate) fn detect(
    file: &str,
    split: &Split<'_>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Option<(TraceFormat, String)> {
    let first_line = split.records.first()?.line;
    let mut scratch = Vec::new();
    let mut records = Vec::new();
    let mut bodies = Vec::new();
    let mut errors = Vec::new();
    let mut examined = 0;
    let mut parsed_bytes = 0;
    for record in split.records.iter().take(PROBE_RECORDS) {
        if parsed_bytes >= PROBE_BYTES {
            break;
        }
        examined += 1;
        parsed_bytes += record.text.len();
        // A large record is judged by its shape, never held whole here (the reader parses it
        // once, after detection); one that is not plain JSON gets the lenient parse.
        let parsed = if record.text.len() > SHAPE_FROM_BYTES {
            parse_shape(record.text).or_else(|_| parse_record::<Value>(file, record, &mut scratch))
        } else {
            parse_record::<Value>(file, record, &mut scratch)
        };
        let value = match parsed {
            Ok(value) => value,
            Err(error) => {
                errors.push(error);
                continue;
            }
        };
        let mut alone = Probe {
            layout: split.layout,
            bodies: first_bodies(&value),
            records: vec![value],
            allows_weak: false,
        };
        if let Some((format, reason)) = recognise_any(&alone) {
            // Said when earlier records did not decide (the reader reports any that are not
            // of the format).
            let reason = if record.line == first_line {
                reason.to_string()
            } else {
                format!("{reason} (decided at line {})", record.line)
            };
            return Some((format, reason));
        }
        records.append(&mut alone.records);
        bodies.append(&mut alone.bodies);
    }
    if records.is_empty() {
        diagnostics.extend(errors);
        let message = if examined == split.records.len() {
            "no record of the file is JSON, so no trace format could be detected".to_string()
        } else {
            format!(
                "none of the file's first {examined} records is JSON, so no trace format could \
                 be detected"
            )
        };
        diagnostics.push(Diagnostic::error(file, Some(first_line), message));
        return None;
    }
    let together = Probe {
        layout: split.layout,
        records,
        bodies,
        allows_weak: true,
    };
    if let Some((format, reason)) = recognise_any(&together) {
        return Some((format, reason.to_string()));
    }
    let tried: Vec<String> = TraceFormat::ALL
        .iter()
        .map(|format| format!("{format} ({})", looks_for(*format)))
        .collect();
    diagnostics.push(Diagnostic::error(
        file,
        Some(first_line),
        format!(
            "not a trace format toolscope reads; tried {} (a format can be chosen to read it anyway)",
            tried.join(", ")
        ),
    ));
    None
}

/// The first format (in [`TraceFormat::ALL`]'s order) that recognises the probe, and why.
fn recognise_any(probe: &Probe) -> Option<(TraceFormat, &'static str)> {
    TraceFormat::ALL
        .into_iter()
        .find_map(|format| recognise(format, probe).map(|reason| (format, reason)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::split_records;

    fn detect_text(text: &str) -> (Option<(TraceFormat, String)>, Vec<Diagnostic>) {
        let mut diagnostics = Vec::new();
        let split = split_records("f.jsonl", text, &mut diagnostics);
        let detected = detect("f.jsonl", &split, &mut diagnostics);
        (detected, diagnostics)
    }

    const ANTHROPIC: &str = r#"{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}]}"#;
    const CHAT: &str = r#"{"messages": [{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}"#;

    #[test]
    fn a_python_sdk_span_with_its_events_list_is_a_span_not_a_toolscope_session() {
        let span = r#"{"name": "chat m", "context": {"trace_id": "0x01", "span_id": "0x02"}, "attributes": {"gen_ai.operation.name": "chat"}, "events": []}"#;
        let (detected, _) = detect_text(&format!("{span}\n"));
        assert_eq!(
            detected.map(|(format, _)| format),
            Some(TraceFormat::OtelGenai)
        );
        let log = r#"{"body": null, "attributes": {}, "trace_id": "0x01", "span_id": "0x02", "event_name": "gen_ai.client.inference.operation.details"}"#;
        let (detected, _) = detect_text(&format!("{log}\n{span}\n"));
        assert_eq!(
            detected.map(|(format, _)| format),
            Some(TraceFormat::OtelGenai)
        );
    }

    #[test]
    fn the_first_record_a_format_recognises_decides() {
        let (detected, diagnostics) = detect_text(&format!("42\n{{}}\n{ANTHROPIC}\n{CHAT}\n"));
        assert_eq!(
            detected,
            Some((
                TraceFormat::Anthropic,
                "content blocks \"tool_use\"/\"tool_result\": Anthropic Messages (decided at line 3)"
                    .to_string()
            ))
        );
        // The records passed over are the reader's to report.
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }

    #[test]
    fn weak_signals_count_on_any_record_not_only_the_first() {
        let text = "{}\n{\"role\": \"user\", \"content\": \"hi\"}\n{\"role\": \"assistant\", \"content\": \"ok\"}\n";
        let (detected, _) = detect_text(text);
        assert_eq!(
            detected.map(|(format, _)| format),
            Some(TraceFormat::OpenaiChat)
        );
    }

    #[test]
    fn detection_looks_at_the_first_64_records_only() {
        let native = r#"{"session_id": "s1", "events": []}"#;
        let within = format!("{}{native}\n", "{}\n".repeat(PROBE_RECORDS - 1));
        assert_eq!(
            detect_text(&within).0.map(|(format, _)| format),
            Some(TraceFormat::Native)
        );
        let beyond = format!("{}{native}\n", "{}\n".repeat(PROBE_RECORDS));
        let (detected, diagnostics) = detect_text(&beyond);
        assert_eq!(detected, None);
        assert!(diagnostics[0]
            .message
            .starts_with("not a trace format toolscope reads"));
    }

    #[test]
    fn a_record_over_a_megabyte_is_recognised_from_its_shape() {
        // 3 MB of messages before and inside the one that says what the record is.
        let filler: Vec<String> = (0..20_000)
            .map(|index| {
                format!(
                    r#"{{"role": "user", "content": "message {index} {}"}}"#,
                    "x".repeat(100)
                )
            })
            .collect();
        let text = format!(
            r#"{{"model": "m", "messages": [{}, {{"role": "assistant", "tool_calls": [{{"id": "c", "type": "function", "function": {{"name": "f", "arguments": "{{}}"}}}}]}}]}}"#,
            filler[..10].join(", ")
        );
        let padded = text.replacen(
            "\"model\": \"m\"",
            &format!("\"model\": \"m\", \"metadata\": [{}]", filler.join(", ")),
            1,
        );
        assert!(padded.len() > SHAPE_FROM_BYTES);
        let (detected, diagnostics) = detect_text(&padded);
        assert_eq!(
            detected.map(|(format, _)| format),
            Some(TraceFormat::OpenaiChat)
        );
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
    }
}
