//! Input that used to be silently lost (issue 9, "hold up under hostile input"): each test reads
//! a file the way a user gives it and checks that every session it holds is read and that what
//! could not be read is a located diagnostic.

mod common;

use toolscope_core::formats::{read_traces, read_traces_as, TraceFormat};
use toolscope_core::{Report, Role, Severity};

/// A tool catalog in the seed's shape: `issue_refund` takes an amount of at most 1000, and
/// `lookup_order` needs an `order_id`.
const CATALOG: &str = r#"{"issue_refund": {"type": "object", "properties": {"amount": {"type": "number", "maximum": 1000}}},
 "lookup_order": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}"#;

/// Analyses one trace file against [`CATALOG`].
fn analyze_with_catalog(name: &str, traces: &str) -> Report {
    common::analyze_named(&[
        ("tools.json", CATALOG.as_bytes(), Role::Catalog),
        (name, traces.as_bytes(), Role::Traces),
    ])
}

fn problem_messages(report: &Report) -> Vec<String> {
    report
        .problems
        .iter()
        .map(|problem| {
            format!(
                "{} step {}: {}",
                problem.session_id, problem.step, problem.message
            )
        })
        .collect()
}

fn diagnostic_lines(report: &Report) -> Vec<String> {
    report.diagnostics.iter().map(ToString::to_string).collect()
}

#[test]
fn an_integer_of_400_digits_in_arguments_keeps_its_session_and_is_checked() {
    let digits = "9".repeat(400);
    let traces = format!(
        "{{\"session_id\": \"s1\", \"events\": [{{\"type\": \"tool_use\", \"name\": \"lookup_order\", \"args\": {{\"order_id\": \"A1\"}}}}]}}\n\
         {{\"session_id\": \"s2\", \"events\": [{{\"type\": \"tool_use\", \"name\": \"issue_refund\", \"args\": {{\"amount\": {digits}}}}}]}}\n"
    );
    let report = analyze_with_catalog("sessions.jsonl", &traces);
    assert_eq!(report.summary.sessions, 2);
    assert_eq!(
        diagnostic_lines(&report),
        ["sessions.jsonl:2:97: warning: integer 99999999999999999999... (400 digits) is beyond the \
          largest float; read as the nearest float 1.7976931348623157e308"]
    );
    assert_eq!(
        problem_messages(&report),
        ["s2 step 1: issue_refund: 1.7976931348623157e+308 is greater than the maximum of 1000"]
    );
}

#[test]
fn an_exponent_beyond_floats_in_arguments_keeps_its_session_and_is_checked() {
    let traces = r#"[{"name": "issue_refund", "args": {"amount": 1e400}}, {"name": "lookup_order", "args": {"order_id": "A1"}}]"#;
    let report = analyze_with_catalog("calls.json", traces);
    assert_eq!(report.summary.sessions, 1);
    assert_eq!(report.summary.calls, 2);
    assert_eq!(
        diagnostic_lines(&report),
        ["calls.json:1:46: warning: number 1e400 is beyond the largest float; read as the nearest \
          float 1.7976931348623157e308"]
    );
    assert_eq!(
        problem_messages(&report),
        ["calls step 1: issue_refund: 1.7976931348623157e+308 is greater than the maximum of 1000"]
    );
    assert!(report
        .diagnostics
        .iter()
        .all(|diagnostic| diagnostic.severity == Severity::Warning));
}

/// One call of `lookup_order` whose arguments are JSON null, in each reader's shape.
const NULL_ARGUMENTS: [(&str, &str); 16] = [
    (
        "native.jsonl",
        r#"{"session_id": "s", "events": [{"type": "tool_use", "name": "lookup_order", "args": null}]}"#,
    ),
    (
        "seed_calls.json",
        r#"[{"name": "lookup_order", "args": null}]"#,
    ),
    (
        "eval_cases.json",
        r#"[{"id": "c1", "user_input": "x", "expected_tool": "lookup_order",
             "tool_calls": [{"name": "lookup_order", "args": null}]}]"#,
    ),
    (
        "openai_chat.json",
        r#"{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup_order", "arguments": null}}]}]}"#,
    ),
    (
        "openai_chat_string.json",
        r#"{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "lookup_order", "arguments": "null"}}]}]}"#,
    ),
    (
        "anthropic.json",
        r#"{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "lookup_order", "input": null}]}]}"#,
    ),
    (
        "gemini.json",
        r#"{"contents": [{"role": "user", "parts": [{"text": "x"}]}, {"role": "model", "parts": [
            {"functionCall": {"name": "lookup_order", "args": null}}]}]}"#,
    ),
    (
        "openai_responses.json",
        r#"{"model": "m", "input": [{"type": "message", "role": "user", "content": "x"},
            {"type": "function_call", "call_id": "c1", "name": "lookup_order", "arguments": null}]}"#,
    ),
    (
        "otel_genai_messages.json",
        r#"{"traceId": "t1", "spanId": "a1", "name": "chat m", "attributes": {
            "gen_ai.operation.name": "chat",
            "gen_ai.output.messages": [{"role": "assistant", "parts": [
              {"type": "tool_call", "id": "c1", "name": "lookup_order", "arguments": null}]}]}}"#,
    ),
    (
        "otel_genai_tool_span.json",
        r#"{"traceId": "t1", "spanId": "a1", "name": "execute_tool lookup_order", "attributes": {
            "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order",
            "gen_ai.tool.call.arguments": null}}"#,
    ),
    (
        "openinference.json",
        r#"{"traceId": "t1", "spanId": "a1", "name": "llm", "attributes": {
            "openinference.span.kind": "LLM",
            "llm.output_messages.0.message.role": "assistant",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "lookup_order",
            "llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": "null"}}"#,
    ),
    (
        "langfuse.json",
        r#"{"trace": {"id": "t"}, "observations": [{"id": "o1", "traceId": "t", "type": "GENERATION",
            "input": [{"role": "user", "content": "x"}],
            "output": {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function",
              "function": {"name": "lookup_order", "arguments": null}}]}}]}"#,
    ),
    (
        "inspect.json",
        r#"{"version": 2, "eval": {"task": "t"}, "samples": [{"id": 1, "epoch": 1, "messages": [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": "", "tool_calls": [
              {"id": "c1", "function": "lookup_order", "arguments": null}]}]}]}"#,
    ),
    (
        "tau_bench.json",
        r#"[{"task_id": 1, "trial": 0, "reward": 0, "info": {}, "traj": [{"role": "user", "content": "x"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
              "function": {"name": "lookup_order", "arguments": null}}]}]}]"#,
    ),
    (
        "tau2_bench.json",
        r#"{"simulations": [{"id": "sim1", "messages": [{"role": "user", "content": "x"},
            {"role": "assistant", "tool_calls": [
              {"id": "c1", "name": "lookup_order", "arguments": null, "requestor": "assistant"}]}]}]}"#,
    ),
    (
        "bfcl_result.json",
        r#"{"id": "simple_0", "result": [{"lookup_order": null}], "latency": 1.0}"#,
    ),
];

/// Issue 9: serde's `Option<Value>` (and one reader's own rule) read `"args": null` as absent,
/// that is `{}`, so the call was reported as missing a required property; the seed's code checks
/// None and says it is not an object. Null stays null in every reader.
#[test]
fn null_arguments_are_not_an_object_in_every_reader() {
    for (name, traces) in NULL_ARGUMENTS {
        let report = analyze_with_catalog(name, traces);
        assert_eq!(
            problem_messages(&report)
                .iter()
                .map(|problem| problem.split_once(": ").unwrap().1)
                .collect::<Vec<_>>(),
            ["lookup_order: null is not of type \"object\""],
            "{name}: {:?}",
            diagnostic_lines(&report)
        );
    }
}

/// Only absent arguments mean none were given (`{}`): a required property is then missing.
#[test]
fn absent_arguments_are_an_empty_object() {
    let absent = [
        (
            "native.jsonl",
            r#"{"session_id": "s", "events": [{"type": "tool_use", "name": "lookup_order"}]}"#,
        ),
        (
            "inspect.json",
            r#"{"version": 2, "eval": {"task": "t"}, "samples": [{"id": 1, "epoch": 1, "messages": [
                {"role": "user", "content": "x"},
                {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": "lookup_order"}]}]}]}"#,
        ),
        (
            // Langfuse writes every field, null when it was not recorded.
            "langfuse.json",
            r#"{"trace": {"id": "t"}, "observations": [{"id": "o1", "traceId": "t", "type": "TOOL",
                "name": "lookup_order", "input": null, "output": "found"}]}"#,
        ),
    ];
    for (name, traces) in absent {
        let report = analyze_with_catalog(name, traces);
        assert_eq!(
            problem_messages(&report)
                .iter()
                .map(|problem| problem.split_once(": ").unwrap().1)
                .collect::<Vec<_>>(),
            ["lookup_order: \"order_id\" is a required property"],
            "{name}: {:?}",
            diagnostic_lines(&report)
        );
    }
}

/// A ZIP archive (stored, not compressed) holding `entries`.
fn zip_of(entries: &[(&str, &str)]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, text) in entries {
        writer.start_file(*name, options).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

/// Issue 9: any ZIP archive was taken for an Inspect `.eval` log, and one that is not gave zero
/// sessions with only a warning (exit status 0); it is an input that could not be read.
#[test]
fn a_zip_archive_that_is_not_an_inspect_log_is_an_error() {
    let bytes = zip_of(&[("hello.txt", "hi"), ("notes/readme.md", "# notes")]);
    let report = common::analyze_named(&[("hello.zip", &bytes, Role::Traces)]);
    assert_eq!(report.summary.sessions, 0);
    assert_eq!(report.inputs[0].format, None);
    assert_eq!(
        diagnostic_lines(&report),
        ["hello.zip: error: a ZIP archive without an Inspect log's header.json or samples/*.json \
          (it holds hello.txt, notes/readme.md); nothing read"]
    );
}

#[test]
fn an_inspect_eval_log_without_samples_says_there_is_nothing_to_read() {
    let bytes = zip_of(&[("header.json", r#"{"version": 2, "eval": {"task": "t"}}"#)]);
    let report = common::analyze_named(&[("log.eval", &bytes, Role::Traces)]);
    assert_eq!(
        diagnostic_lines(&report),
        ["log.eval: warning: Inspect .eval log without samples (a header only?); nothing to read"]
    );
}

/// Odd first records real files start with: `(line, what the diagnostic at line 1 starts with)`.
const ODD_FIRST_RECORDS: [(&str, &str); 6] = [
    ("{}", "warning: an empty object, not "),
    ("42", "warning: a JSON number (42), not "),
    ("\"header\"", "warning: a JSON string (\"header\"), not "),
    ("[]", "warning: an empty array, not "),
    (
        "{\"version\": 1}",
        "error: an object with key \"version\", not ",
    ),
    ("session_id,events,status", "error: not JSON: "),
];

/// Good JSON Lines files of two sessions each, with the format they are.
fn good_jsonl_files() -> [(&'static str, TraceFormat, String); 5] {
    let native = |id: &str| {
        format!(
            r#"{{"session_id": "{id}", "events": [{{"type": "user", "content": "hi"}}, {{"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {{"order_id": "A1"}}}}]}}"#
        )
    };
    let chat = |order: &str| {
        format!(
            r#"{{"messages": [{{"role": "user", "content": "Where is {order}?"}}, {{"role": "assistant", "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "lookup_order", "arguments": "{{\"order_id\": \"{order}\"}}"}}}}]}}]}}"#
        )
    };
    let anthropic = |order: &str| {
        format!(
            r#"{{"messages": [{{"role": "user", "content": "Where is {order}?"}}, {{"role": "assistant", "content": [{{"type": "tool_use", "id": "t1", "name": "lookup_order", "input": {{"order_id": "{order}"}}}}]}}]}}"#
        )
    };
    let span = |trace: &str| {
        format!(
            r#"{{"traceId": "{trace}", "spanId": "a1", "name": "execute_tool lookup_order", "attributes": {{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup_order", "gen_ai.tool.call.arguments": "{{\"order_id\": \"A1\"}}", "gen_ai.tool.call.result": "shipped"}}}}"#
        )
    };
    let observation = |trace: &str| {
        format!(
            r#"{{"id": "o-{trace}", "traceId": "{trace}", "type": "TOOL", "name": "lookup_order", "startTime": "2025-12-04T14:51:23.001Z", "input": {{"order_id": "A1"}}, "output": "shipped"}}"#
        )
    };
    [
        (
            "native.jsonl",
            TraceFormat::Native,
            format!("{}\n{}\n", native("s1"), native("s2")),
        ),
        (
            "chat.jsonl",
            TraceFormat::OpenaiChat,
            format!("{}\n{}\n", chat("A1"), chat("A2")),
        ),
        (
            "anthropic.jsonl",
            TraceFormat::Anthropic,
            format!("{}\n{}\n", anthropic("A1"), anthropic("A2")),
        ),
        (
            "spans.jsonl",
            TraceFormat::OtelGenai,
            format!("{}\n{}\n", span("t1"), span("t2")),
        ),
        (
            "langfuse.jsonl",
            TraceFormat::Langfuse,
            format!("{}\n{}\n", observation("t1"), observation("t2")),
        ),
    ]
}

/// Two τ-bench runs, as the elements of its results array.
fn tau_runs() -> [String; 2] {
    let run = |task: usize| {
        format!(
            r#"{{"task_id": {task}, "trial": 0, "reward": 1.0, "info": {{}}, "traj": [{{"role": "user", "content": "Where is A1?"}}, {{"role": "assistant", "content": null, "tool_calls": [{{"id": "c1", "type": "function", "function": {{"name": "lookup_order", "arguments": "{{\"order_id\": \"A1\"}}"}}}}]}}]}}"#
        )
    };
    [run(1), run(2)]
}

/// What a file read on its own gives: its format, its session count and its diagnostics.
fn read_alone(name: &str, text: &str) -> (Option<TraceFormat>, usize, Vec<String>) {
    let mut diagnostics = Vec::new();
    let read = read_traces(name, text.as_bytes(), &mut diagnostics);
    let lines = diagnostics.iter().map(ToString::to_string).collect();
    (
        read.format.map(|(format, _)| format),
        read.sessions.len(),
        lines,
    )
}

/// Issue 9: detection judged a file by its first record alone (then its first eight together),
/// so one odd first line turned a file of good sessions into zero sessions. Now the first record
/// a format recognises decides, and the odd one is a diagnostic at its line.
#[test]
fn one_odd_first_record_loses_no_session_and_is_reported_at_its_line() {
    for (name, format, good) in good_jsonl_files() {
        assert_eq!(
            read_alone(name, &good),
            (Some(format), 2, Vec::new()),
            "{name}"
        );
        for (odd, said) in ODD_FIRST_RECORDS {
            let (read_as, sessions, diagnostics) = read_alone(name, &format!("{odd}\n{good}"));
            assert_eq!(
                (read_as, sessions),
                (Some(format), 2),
                "{name} after {odd}: {diagnostics:?}"
            );
            assert_eq!(diagnostics.len(), 1, "{name} after {odd}: {diagnostics:?}");
            assert!(
                diagnostics[0].starts_with(&format!("{name}:1")),
                "{name} after {odd}: {diagnostics:?}"
            );
            assert!(
                diagnostics[0].contains(&format!(": {said}")),
                "{name} after {odd}: {diagnostics:?}"
            );
        }
    }
}

#[test]
fn one_odd_first_element_of_a_tau_bench_array_loses_no_run() {
    let [first, second] = tau_runs();
    for (odd, said) in &ODD_FIRST_RECORDS[..5] {
        let text = format!("[{odd},\n{first},\n{second}]");
        let (read_as, sessions, diagnostics) = read_alone("runs.json", &text);
        assert_eq!(
            (read_as, sessions),
            (Some(TraceFormat::TauBench), 2),
            "after {odd}: {diagnostics:?}"
        );
        assert_eq!(diagnostics.len(), 1, "after {odd}: {diagnostics:?}");
        assert!(
            diagnostics[0].starts_with(&format!("runs.json:1: {said}")),
            "{diagnostics:?}"
        );
    }
}

/// Issue 9: a τ-bench array whose first run crashed (`"traj": null`) was read as OpenAI Chat
/// (its other runs hold chat messages) and gave nothing.
#[test]
fn a_tau_bench_array_with_a_broken_first_run_reads_the_others_and_reports_it() {
    let [first, second] = tau_runs();
    let broken = r#"{"task_id": 0, "trial": 0, "reward": 0.0, "info": {"error": "Traceback: boom\n  line 2"}, "traj": null}"#;
    let (read_as, sessions, diagnostics) =
        read_alone("runs.json", &format!("[{broken},\n{first},\n{second}]"));
    assert_eq!((read_as, sessions), (Some(TraceFormat::TauBench), 2));
    assert_eq!(
        diagnostics,
        ["runs.json:1: error: τ-bench run \"task_0.trial_0\": its \"traj\" is null, not a list of \
          messages (its info.error: Traceback: boom…); left out"]
    );
}

/// A file whose every record is skipped with a warning gives no session; that is an error, as any
/// file nothing could be read from.
#[test]
fn a_file_of_records_that_all_hold_nothing_is_an_error() {
    let mut diagnostics = Vec::new();
    let read = read_traces_as(
        "empty.jsonl",
        b"{}\n42\n",
        Some(TraceFormat::Native),
        &mut diagnostics,
    );
    assert!(read.sessions.is_empty());
    let lines: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        lines,
        [
            "empty.jsonl:1: warning: an empty object, not a toolscope session ({\"session_id\", \"events\"}); skipped",
            "empty.jsonl:2: warning: a JSON number (42), not a toolscope session ({\"session_id\", \"events\"}); skipped",
            "empty.jsonl: error: nothing in the file could be read as native: its 2 records hold no session",
        ]
    );
}

#[test]
fn an_empty_file_or_array_says_it_holds_no_sessions() {
    for (text, said) in [
        ("", "file is empty"),
        ("  \n", "file is empty"),
        (
            "[]",
            "the file holds no records (an empty array): no sessions to read",
        ),
        (
            "[ ]\n",
            "the file holds no records (an empty array): no sessions to read",
        ),
    ] {
        let report = toolscope_core::analyze(
            &[toolscope_core::InputFile::new(
                "t.json",
                text.as_bytes(),
                toolscope_core::Role::Traces,
            )],
            &toolscope_core::Options::default(),
        );
        let messages: Vec<&str> = report
            .diagnostics
            .iter()
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(messages, [said], "{text:?}");
    }
}

/// A line of an object nested past the depth limit, with no session's fields at its top, was
/// read as "no session" and then dropped without a word: the read that names such a line failed
/// on the depth and its diagnostic was thrown away. In both engines' paths (whole and streamed).
#[test]
fn a_line_nested_past_the_limit_is_named_not_dropped_in_silence() {
    let first = r#"{"session_id": "a", "events": [{"type": "user", "content": "hi"}]}"#;
    let last = r#"{"session_id": "c", "events": [{"type": "user", "content": "hi"}]}"#;
    for depth in [10_000, 1_000_000] {
        let deep = format!("{}1{}", r#"{"x":"#.repeat(depth), "}".repeat(depth));
        let traces = format!("{first}\n{deep}\n{last}\n");
        let whole = common::analyze_named(&[("t.jsonl", traces.as_bytes(), Role::Traces)]);
        let streamed = toolscope_core::analyze_read(
            vec![toolscope_core::Source::Reader {
                name: "t.jsonl",
                role: Role::Traces,
                reader: Box::new(std::io::Cursor::new(traces.clone().into_bytes())),
            }],
            &toolscope_core::Options::default(),
        )
        .unwrap();
        for report in [&whole, &streamed] {
            assert_eq!(report.summary.sessions, 2, "{depth}");
            let lines = diagnostic_lines(report);
            assert_eq!(lines.len(), 1, "{depth}: {lines:?}");
            assert!(
                lines[0].starts_with("t.jsonl:2:") && lines[0].contains("nesting deeper than"),
                "{lines:?}"
            );
            assert_eq!(report.diagnostics[0].severity, Severity::Error);
        }
    }
}
