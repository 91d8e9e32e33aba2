//! Fixture-directory snapshots of the trace readers: every file under
//! `tests/fixtures/formats/<family>/` (real samples, with their sources in that folder's
//! SOURCES.md, and small hand-written ones) is read with format detection, and a compact
//! rendering of the session model and the diagnostics is compared with the reviewed snapshot in
//! `tests/snapshots/`. Review changes with `cargo insta review`.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use toolscope_core::formats::{read_traces, TraceFormat};
use toolscope_core::model::{Args, ErrorSource, Event, ResultStatus};

fn fixtures(family: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats")
        .join(family);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            let name = path.file_name().unwrap().to_string_lossy();
            !(name == "SOURCES.md" || name.starts_with("LICENSE") || name.starts_with("NOTICE"))
        })
        .collect();
    files.sort();
    files
}

/// Text cut to `limit` characters, on one line.
/// The report's row of session `id`.
fn session_row<'r>(
    report: &'r toolscope_core::Report,
    id: &str,
) -> &'r toolscope_core::report::SessionSummary {
    report
        .sessions
        .iter()
        .find(|row| row.session_id == id)
        .unwrap_or_else(|| panic!("no session {id}"))
}

fn short(text: &str, limit: usize) -> String {
    let flat = text.replace('\n', "\\n");
    if flat.chars().count() <= limit {
        flat
    } else {
        format!("{}…", flat.chars().take(limit).collect::<String>())
    }
}

/// The session model of one file, compactly: what the reader made of it.
fn render(file: &str, bytes: &[u8]) -> (Option<TraceFormat>, String) {
    let mut diagnostics = Vec::new();
    let read = read_traces(file, bytes, &mut diagnostics);
    let mut out = String::new();
    match &read.format {
        Some((format, reason)) => writeln!(out, "format: {format} ({reason})").unwrap(),
        None => writeln!(out, "format: none").unwrap(),
    }
    for session in &read.sessions {
        write!(
            out,
            "session {:?} (line {})",
            session.session_id, session.origin.line
        )
        .unwrap();
        if let Some(agent) = &session.agent_id {
            write!(out, " agent {agent:?}").unwrap();
        }
        if let Some(task) = &session.task_id {
            write!(out, " task {task:?}").unwrap();
        }
        if let Some(parent) = &session.parent {
            let call = parent.call_id.as_deref().unwrap_or("-");
            write!(out, " parent {:?} call [{call}]", parent.session_id).unwrap();
        }
        if let Some(trial) = &session.trial {
            let number = trial.number.map(|n| format!(" {n}")).unwrap_or_default();
            write!(out, " trial{number} reward {}", trial.reward).unwrap();
        }
        if let Some(tools) = &session.tools {
            let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
            write!(out, " tools [{}]", names.join(", ")).unwrap();
        }
        writeln!(out).unwrap();
        for event in &session.events {
            let line = match event {
                Event::User { content } => format!("user: {}", short(content, 70)),
                Event::Assistant { content } => format!("assistant: {}", short(content, 70)),
                Event::ToolUse(call) => {
                    let args = match &call.args {
                        Args::Json(value) => short(&value.to_string(), 90),
                        Args::Malformed { raw, .. } => format!("MALFORMED {}", short(raw, 80)),
                    };
                    format!(
                        "call {} [{}] {args}",
                        call.name,
                        call.call_id.as_deref().unwrap_or("-")
                    )
                }
                Event::ToolResult(result) => {
                    let status = match (result.status, result.is_status_inferred) {
                        (ResultStatus::Ok, _) => "ok",
                        (ResultStatus::Error, false) => "ERROR",
                        (ResultStatus::Error, true) => "ERROR (inferred)",
                    };
                    let source = match result.error_source {
                        Some(ErrorSource::Agent) => " by agent",
                        Some(ErrorSource::Environment) => " by environment",
                        None => "",
                    };
                    format!(
                        "result [{}] {status}{source}: {}",
                        result.call_id.as_deref().unwrap_or("-"),
                        short(result.content.as_deref().unwrap_or(""), 70)
                    )
                }
            };
            writeln!(out, "  {line}").unwrap();
        }
    }
    for label in &read.labels {
        let expected = serde_json::to_string(&label.expected_tool).unwrap();
        write!(
            out,
            "label {:?} turn {}: expected {expected}",
            label.session_id, label.turn
        )
        .unwrap();
        if let Some(tools) = &label.expected_tools {
            write!(out, ", calls {tools:?}").unwrap();
        }
        if let Some(args) = &label.expected_args_list {
            let args = serde_json::to_string(args).unwrap();
            write!(out, ", args {}", short(&args, 120)).unwrap();
        }
        if let Some(acceptable) = &label.acceptable_args {
            let acceptable = serde_json::to_string(acceptable).unwrap();
            write!(out, ", acceptable {}", short(&acceptable, 160)).unwrap();
        }
        if let Some(success) = label.task_success {
            write!(out, ", task_success {success}").unwrap();
        }
        writeln!(out).unwrap();
    }
    for task in &read.tasks {
        let actions: Vec<String> = task
            .actions
            .iter()
            .map(|action| {
                let compared = match &action.compare_args {
                    Some(names) => format!(" comparing {names:?}"),
                    None => String::new(),
                };
                let args = serde_json::to_string(&action.arguments).unwrap();
                format!("{}{} {}", action.name, compared, short(&args, 60))
            })
            .collect();
        write!(out, "task label {:?}: {}", task.target, actions.join("; ")).unwrap();
        if task.user_actions > 0 {
            write!(out, " (+{} of the user)", task.user_actions).unwrap();
        }
        writeln!(out).unwrap();
    }
    for diagnostic in &diagnostics {
        writeln!(out, "{diagnostic}").unwrap();
    }
    (read.format.map(|(format, _)| format), out)
}

/// Snapshots every fixture of a family; each must be detected as `expected`.
fn snapshot_family(family: &str, expected: TraceFormat) {
    let files = fixtures(family);
    assert!(!files.is_empty(), "no fixtures for {family}");
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let (format, rendering) = render(&name, &bytes);
        assert_eq!(format, Some(expected), "{name}:\n{rendering}");
        insta::assert_snapshot!(format!("{family}__{name}"), rendering);
    }
}

#[test]
fn openai_chat_fixtures_read_as_their_snapshots() {
    snapshot_family("openai_chat", TraceFormat::OpenaiChat);
}

#[test]
fn anthropic_fixtures_read_as_their_snapshots() {
    snapshot_family("anthropic", TraceFormat::Anthropic);
}

#[test]
fn the_same_conversation_gives_the_same_report_in_every_format() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let mut reference: Option<(String, String)> = None;
    let mut formats = Vec::new();
    for path in fixtures("same_conversation") {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // One file name for all, so session ids (named after the file) agree.
        let input = InputFile::new("conversation.json", &bytes, Role::Traces);
        let mut report = analyze(&[input], &Options::default());
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
        assert_eq!(report.summary.sessions, 1, "{name}");
        formats.push(report.inputs[0].format.expect("detected"));
        report.inputs.clear();
        let json = serde_json::to_string_pretty(&report).unwrap();
        match &reference {
            None => reference = Some((name, json)),
            Some((first, expected)) => {
                assert_eq!(&json, expected, "{name} differs from {first}")
            }
        }
    }
    formats.sort_by_key(|format| format.name());
    assert_eq!(
        formats,
        [
            TraceFormat::Anthropic,
            TraceFormat::Gemini,
            TraceFormat::Inspect,
            TraceFormat::Langfuse,
            TraceFormat::OpenaiChat,
            TraceFormat::OpenaiResponses,
            TraceFormat::OtelGenai,
        ],
        "each version is read in its own format"
    );
    let (_, json) = reference.expect("fixtures");
    insta::assert_snapshot!("same_conversation_report", json);
}

#[test]
fn claude_code_fixtures_read_as_their_snapshots() {
    snapshot_family("claude_code", TraceFormat::ClaudeCode);
}

#[test]
fn codex_cli_fixtures_read_as_their_snapshots() {
    snapshot_family("codex_cli", TraceFormat::CodexCli);
}

#[test]
fn mcp_fixtures_read_as_their_snapshots() {
    snapshot_family("mcp", TraceFormat::Mcp);
}

#[test]
fn agents_sdk_fixtures_read_as_their_snapshots() {
    snapshot_family("agents_sdk", TraceFormat::AgentsSdk);
}

#[test]
fn langsmith_fixtures_read_as_their_snapshots() {
    snapshot_family("langsmith", TraceFormat::Langsmith);
}

#[test]
fn gemini_cli_fixtures_read_as_their_snapshots() {
    snapshot_family("gemini_cli", TraceFormat::GeminiCli);
}

#[test]
fn swe_agent_fixtures_read_as_their_snapshots() {
    snapshot_family("swe_agent", TraceFormat::SweAgent);
}

#[test]
fn openhands_fixtures_read_as_their_snapshots() {
    snapshot_family("openhands", TraceFormat::Openhands);
}

#[test]
fn openai_responses_fixtures_read_as_their_snapshots() {
    snapshot_family("openai_responses", TraceFormat::OpenaiResponses);
}

#[test]
fn gemini_fixtures_read_as_their_snapshots() {
    snapshot_family("gemini", TraceFormat::Gemini);
}

#[test]
fn otel_genai_fixtures_read_as_their_snapshots() {
    snapshot_family("otel_genai", TraceFormat::OtelGenai);
}

#[test]
fn openinference_fixtures_read_as_their_snapshots() {
    snapshot_family("openinference", TraceFormat::Openinference);
}

#[test]
fn langfuse_fixtures_read_as_their_snapshots() {
    snapshot_family("langfuse", TraceFormat::Langfuse);
}

#[test]
fn inspect_fixtures_read_as_their_snapshots() {
    snapshot_family("inspect", TraceFormat::Inspect);
}

#[test]
fn an_inspect_eval_archive_reads_like_its_json_log() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/inspect");
    let sessions = |name: &str| {
        let mut diagnostics = Vec::new();
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let read = read_traces(name, &bytes, &mut diagnostics);
        assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
        read.sessions
            .into_iter()
            .map(|session| (session.session_id, session.events))
            .collect::<Vec<_>>()
    };
    assert_eq!(sessions("log_formats.eval"), sessions("log_formats.json"));
}

#[test]
fn bfcl_fixtures_read_as_their_snapshots() {
    snapshot_family("bfcl", TraceFormat::Bfcl);
}

#[test]
fn tau_bench_fixtures_read_as_their_snapshots() {
    snapshot_family("tau_bench", TraceFormat::TauBench);
}

/// Every reader, forced onto every fixture cut short at many places: no panic, and every
/// diagnostic points at a 1-based line (a deterministic complement to the fuzz targets).
#[test]
fn every_reader_survives_every_fixture_cut_anywhere() {
    use toolscope_core::formats::read_traces_as;
    let families =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats"))
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().to_string());
    for family in families {
        for path in fixtures(&family) {
            let bytes = std::fs::read(&path).unwrap();
            let cuts = if bytes.len() > 50_000 { 4 } else { 24 };
            for cut in 1..=cuts {
                let end = bytes.len() * cut / cuts;
                for format in TraceFormat::ALL.into_iter().map(Some).chain([None]) {
                    let mut diagnostics = Vec::new();
                    read_traces_as("cut.json", &bytes[..end], format, &mut diagnostics);
                    for diagnostic in &diagnostics {
                        assert_ne!(diagnostic.line, Some(0), "{}: {diagnostic}", path.display());
                    }
                }
            }
        }
    }
}

/// Claude Code 2.1 writes each subagent to its own file: read together, the subagent is linked to
/// the `Agent` call in its parent's file that gave it its prompt, and named after its kind.
#[test]
fn a_subagent_file_is_linked_to_the_call_in_its_parents_file() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/claude_code");
    let main =
        std::fs::read(dir.join("showcase.55550000-0000-4000-8000-000000000001.jsonl")).unwrap();
    let agent = std::fs::read(dir.join("showcase.agent-showcol1.jsonl")).unwrap();
    let report = analyze(
        &[
            InputFile::new("agent-showcol1.jsonl", &agent, Role::Traces),
            InputFile::new("session.jsonl", &main, Role::Traces),
        ],
        &Options::default(),
    );
    let row = |id: &str| session_row(&report, id);
    let subagent = row("55550000-0000-4000-8000-000000000001/agent-showcol1");
    let parent = subagent.parent.as_ref().expect("linked");
    assert_eq!(parent.session_id, "55550000-0000-4000-8000-000000000001");
    assert_eq!(parent.call_id.as_deref(), Some("toolu_sc_showcol1"));
    assert_eq!(
        subagent.agent_id.as_deref(),
        Some("claude-code/general-purpose")
    );
    let main_row = row("55550000-0000-4000-8000-000000000001");
    assert_eq!(main_row.parent, None);
    assert_eq!(main_row.agent_id.as_deref(), Some("claude-code"));
    // Read alone, the subagent knows its parent session but not the call.
    let alone = analyze(
        &[InputFile::new("agent-showcol1.jsonl", &agent, Role::Traces)],
        &Options::default(),
    );
    let parent = alone.sessions[0].parent.as_ref().expect("parent session");
    assert_eq!(parent.call_id, None);
    assert_eq!(
        alone.sessions[0].agent_id.as_deref(),
        Some("claude-code/subagent")
    );
}

/// A real Claude Code 2.1.38 session (a cut of it) read with its subagent's and its compaction
/// agent's files: the subagent is linked to the `Task` call whose result names it, the
/// compaction agent to the session alone.
#[test]
fn a_real_claude_code_subagent_file_is_linked_to_its_task_call() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/claude_code");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let main = read("spotter.ae4a77f8-aedd-4bc1-888f-c94edc91af04.cut.jsonl");
    let agent = read("spotter.agent-aac57f5.jsonl");
    let compact = read("spotter.agent-acompact-946d2b.jsonl");
    let report = analyze(
        &[
            InputFile::new("agent-aac57f5.jsonl", &agent, Role::Traces),
            InputFile::new("agent-acompact-946d2b.jsonl", &compact, Role::Traces),
            InputFile::new("ae4a77f8.jsonl", &main, Role::Traces),
        ],
        &Options::default(),
    );
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    let row = |id: &str| session_row(&report, id);
    let main_id = "ae4a77f8-aedd-4bc1-888f-c94edc91af04";
    let subagent = row(&format!("{main_id}/agent-aac57f5"));
    let parent = subagent.parent.as_ref().expect("linked");
    assert_eq!(parent.session_id, main_id);
    assert_eq!(
        parent.call_id.as_deref(),
        Some("toolu_01Hf8v1Za7y4af8VUwSR4CXU")
    );
    assert_eq!(
        subagent.agent_id.as_deref(),
        Some("claude-code/general-purpose")
    );
    let compaction = row(&format!("{main_id}/agent-acompact-946d2b"));
    assert_eq!(compaction.agent_id.as_deref(), Some("claude-code/compact"));
    let parent = compaction.parent.as_ref().expect("its session");
    assert_eq!(
        (parent.session_id.as_str(), parent.call_id.as_deref()),
        (main_id, None)
    );
}

/// A real Claude Code 2.1.332 run (recorded offline, `tests/fixtures/recorders/claude_code/`)
/// whose `Task` call ran a `general-purpose` subagent in the background: read together, the
/// subagent is linked to that call, and the `<task-notification>` that says it ended is not a
/// user turn.
#[test]
fn a_real_claude_code_async_subagent_is_linked_to_its_task_call() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/claude_code");
    let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
    let main = read("recorded.67eb3b5f-7c1b-4382-b736-751f527fdfba.jsonl");
    let agent = read("recorded.agent-a810d95e0c90ac874.jsonl");
    let main_id = "67eb3b5f-7c1b-4382-b736-751f527fdfba";
    let report = analyze(
        &[
            InputFile::new("67eb3b5f.jsonl", &main, Role::Traces),
            InputFile::new("agent-a810d95e0c90ac874.jsonl", &agent, Role::Traces),
        ],
        &Options::default(),
    );
    let subagent = session_row(&report, &format!("{main_id}/agent-a810d95e0c90ac874"));
    let parent = subagent.parent.as_ref().expect("linked");
    assert_eq!(
        (parent.session_id.as_str(), parent.call_id.as_deref()),
        (main_id, Some("toolu_mock0005"))
    );
    assert_eq!(
        subagent.agent_id.as_deref(),
        Some("claude-code/general-purpose")
    );
    assert_eq!((subagent.calls, subagent.turns), (2, 1));
    assert_eq!(session_row(&report, main_id).turns, 1);
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}

/// Gemini CLI writes each subagent to its own recording (`chats/<parent session>/<agent id>.jsonl`)
/// and names it on the parent's tool call (`agentId`): read together, the subagent is linked to
/// that call and named after the agent the call invoked.
#[test]
fn a_gemini_cli_subagent_recording_is_linked_to_the_call_that_ran_it() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/gemini_cli");
    let main = std::fs::read(
        dir.join("session-2026-07-14T10-02-3f9c1a7e.subagent_parent_toolscope.jsonl"),
    )
    .unwrap();
    let agent =
        std::fs::read(dir.join("7d2e4b10-5c3a-4f8e-9b21-6a0c8d4e1f37.subagent_toolscope.jsonl"))
            .unwrap();
    let subagent_id = "7d2e4b10-5c3a-4f8e-9b21-6a0c8d4e1f37";
    let main_id = "3f9c1a7e-2b4d-4e6f-8a1c-5d7e9f0b2c4a";
    // In either order of the files.
    for inputs in [
        [
            InputFile::new("7d2e4b10.jsonl", &agent, Role::Traces),
            InputFile::new("session.jsonl", &main, Role::Traces),
        ],
        [
            InputFile::new("session.jsonl", &main, Role::Traces),
            InputFile::new("7d2e4b10.jsonl", &agent, Role::Traces),
        ],
    ] {
        let report = analyze(&inputs, &Options::default());
        let row = |id: &str| session_row(&report, id);
        let subagent = row(subagent_id);
        let parent = subagent.parent.as_ref().expect("linked");
        assert_eq!(parent.session_id, main_id);
        assert_eq!(
            parent.call_id.as_deref(),
            Some("invoke_agent_1752487339337_0")
        );
        assert_eq!(
            subagent.agent_id.as_deref(),
            Some("gemini-cli/codebase_investigator")
        );
        let main_row = row(main_id);
        assert_eq!(main_row.parent, None);
        assert_eq!(main_row.agent_id.as_deref(), Some("gemini-cli"));
    }
    // Read alone, the subagent recording does not name its parent.
    let alone = analyze(
        &[InputFile::new("7d2e4b10.jsonl", &agent, Role::Traces)],
        &Options::default(),
    );
    assert_eq!(alone.sessions[0].parent, None);
    assert_eq!(
        alone.sessions[0].agent_id.as_deref(),
        Some("gemini-cli/subagent")
    );
}

/// A real Gemini CLI 0.61.0 run (recorded offline, `tests/fixtures/recorders/gemini_cli/`) whose
/// `invoke_agent` call ran the `generalist` subagent: read together, the subagent's recording is
/// linked to that call, and neither has a user turn of the tool results the CLI sends back.
#[test]
fn a_real_gemini_cli_subagent_recording_is_linked_to_its_invoke_agent_call() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/gemini_cli");
    let main = std::fs::read(dir.join("session-2026-12-02T04-58-c542a621.jsonl")).unwrap();
    let agent = std::fs::read(dir.join("69157b74-0e03-44d8-a58a-66f7295081f7.jsonl")).unwrap();
    let subagent_id = "69157b74-0e03-44d8-a58a-66f7295081f7";
    let main_id = "c542a621-08a4-412c-a7f2-318923a45139";
    let report = analyze(
        &[
            InputFile::new("session.jsonl", &main, Role::Traces),
            InputFile::new("69157b74.jsonl", &agent, Role::Traces),
        ],
        &Options::default(),
    );
    let subagent = session_row(&report, subagent_id);
    let parent = subagent.parent.as_ref().expect("linked");
    assert_eq!(parent.session_id, main_id);
    assert_eq!(
        parent.call_id.as_deref(),
        Some("invoke_agent__invoke_agent_1796187488454_0")
    );
    assert_eq!(subagent.agent_id.as_deref(), Some("gemini-cli/generalist"));
    assert_eq!((subagent.calls, subagent.turns), (3, 1));
    assert_eq!(session_row(&report, main_id).turns, 1);
}

/// The report as JSON without what differs by format alone: the input summary and the agent's
/// name (`agent`, which findings also quote).
fn comparable(mut report: toolscope_core::report::Report, agent: &str) -> serde_json::Value {
    report.inputs.clear();
    let mut json = serde_json::to_value(&report).unwrap();
    strip_key(&mut json, "agent_id");
    let text = serde_json::to_string(&json).unwrap();
    serde_json::from_str(&text.replace(agent, "AGENT")).unwrap()
}

fn strip_key(value: &mut serde_json::Value, key: &str) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove(key);
            map.values_mut().for_each(|value| strip_key(value, key));
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(|value| strip_key(value, key)),
        _ => {}
    }
}

#[test]
fn coding_agents_give_the_same_report_as_the_api_formats() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats");
    let dir = root.join("same_conversation_agents");
    let tools = std::fs::read(dir.join("tools.json")).unwrap();
    let mut reports = Vec::new();
    for (name, agent) in [
        ("claude_code.jsonl", "claude-code"),
        ("codex_cli.jsonl", "codex"),
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let report = analyze(
            &[
                InputFile::new("conversation.json", &bytes, Role::Traces),
                InputFile::new("tools.json", &tools, Role::Catalog),
            ],
            &Options::default(),
        );
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
        assert_eq!(report.summary.sessions, 1, "{name}");
        reports.push((name, comparable(report, agent)));
    }
    assert_eq!(
        reports[0].1, reports[1].1,
        "{} differs from {}",
        reports[1].0, reports[0].0
    );
    // The API formats carry the tools themselves: the same problems, call by call.
    let anthropic = std::fs::read(root.join("same_conversation/anthropic.json")).unwrap();
    let report = analyze(
        &[InputFile::new(
            "conversation.json",
            &anthropic,
            Role::Traces,
        )],
        &Options::default(),
    );
    let reference = comparable(report, "no agent");
    assert_eq!(reports[0].1["problems"], reference["problems"]);
    assert_eq!(reports[0].1["sessions"], reference["sessions"]);
    assert!(reference["problems"].as_array().unwrap().len() >= 3);
}

/// Codex CLI 0.171.0's subagent rollout names its parent thread but not the spawning call
/// (`thread_spawn` has no `spawn_call_id`): read with its parent's rollout, it is linked to the
/// parent's `spawn_agent` call whose `message` is its prompt.
#[test]
fn a_recorded_codex_subagent_rollout_is_linked_to_its_spawn_agent_call() {
    use toolscope_core::{analyze, InputFile, Options, Role};
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats/codex_cli");
    let main_id = "01a235cb-c16b-7941-93dc-3dcc2e7e9072";
    let subagent_id = "01a235cb-c20e-7552-87a2-29e1ccf3c26b";
    let main =
        std::fs::read(dir.join(format!("rollout-2026-12-02T08-07-55-{main_id}.jsonl"))).unwrap();
    let agent = std::fs::read(dir.join(format!("rollout-2026-12-02T08-07-55-{subagent_id}.jsonl")))
        .unwrap();
    let report = analyze(
        &[
            InputFile::new("main.jsonl", &main, Role::Traces),
            InputFile::new("subagent.jsonl", &agent, Role::Traces),
        ],
        &Options::default(),
    );
    let subagent = session_row(&report, subagent_id);
    let parent = subagent.parent.as_ref().expect("linked");
    assert_eq!(parent.session_id, main_id);
    assert_eq!(parent.call_id.as_deref(), Some("call_spawn"));
    assert_eq!(subagent.agent_id.as_deref(), Some("codex/subagent"));
}

/// OpenHands rejects a model's call that does not validate (here an enum argument, as in the
/// real multi-SWE-bench run) before it becomes an action: the stream keeps only an `error`
/// observation with neither `cause` nor `tool_call_metadata`, and that error was dropped, so
/// the report did not count it. It is an error result of no call now, with a warning at its line.
#[test]
fn an_openhands_error_for_a_call_it_rejected_is_counted_not_dropped() {
    let stream = r#"[
{"id": 0, "timestamp": "2025-04-30T16:40:00.000000", "source": "user", "message": "Fix the CLI parser", "action": "message", "args": {"content": "Fix the CLI parser", "image_urls": null, "wait_for_response": false}},
{"id": 27, "timestamp": "2025-04-30T16:46:13.421178", "source": "agent", "message": "Reading file: /workspace/cli.pony", "action": "read", "tool_call_metadata": {"function_name": "str_replace_editor", "tool_call_id": "toolu_12", "model_response": {"id": "gen-1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "", "tool_calls": [{"index": 1, "function": {"arguments": "{\"command\": \"view\", \"path\": \"/workspace/cli.pony\"}", "name": "str_replace_editor"}, "id": "toolu_12", "type": "function"}]}}]}, "total_calls_in_response": 1}, "args": {"path": "/workspace/cli.pony", "start": 0, "end": -1, "thought": "Let me read the parser.", "impl_source": "oh_aci", "view_range": null}},
{"id": 28, "timestamp": "2025-04-30T16:46:13.442901", "source": "agent", "message": "I read the file /workspace/cli.pony.", "cause": 27, "observation": "read", "tool_call_metadata": {"function_name": "str_replace_editor", "tool_call_id": "toolu_12", "total_calls_in_response": 1}, "content": "Here's the result of running `cat -n` on /workspace/cli.pony", "extras": {"path": "/workspace/cli.pony", "impl_source": "oh_aci"}},
{"id": 29, "timestamp": "2025-04-30T16:46:15.452965", "source": "agent", "message": "Parameter 'command' is expected to be one of ['view', 'create', 'str_replace', 'insert', 'undo_edit'].", "observation": "error", "content": "Parameter 'command' is expected to be one of ['view', 'create', 'str_replace', 'insert', 'undo_edit'].", "extras": {"error_id": ""}},
{"id": 30, "timestamp": "2025-04-30T16:46:16.000000", "source": "environment", "message": "", "observation": "agent_state_changed", "content": "", "extras": {"agent_state": "running", "reason": ""}}
]"#;
    let mut diagnostics = Vec::new();
    let read = read_traces("run.json", stream.as_bytes(), &mut diagnostics);
    let session = &read.sessions[0];
    let results: Vec<_> = session
        .events
        .iter()
        .filter_map(|event| match event {
            Event::ToolResult(result) => Some(result),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 2, "{:#?}", session.events);
    assert_eq!(results[0].status, ResultStatus::Ok);
    assert_eq!(results[1].call_id, None);
    assert_eq!(results[1].status, ResultStatus::Error);
    assert!(!results[1].is_status_inferred);
    assert!(results[1]
        .content
        .as_deref()
        .unwrap()
        .starts_with("Parameter 'command' is expected"));
    let messages: Vec<String> = diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        ["run.json:5: warning: session \"run\", event 4: an error observation answers no action \
          (the agent's step failed, as when OpenHands rejects the model's call before it becomes \
          an action); kept as an error result of no call"]
    );

    let analysis = toolscope_core::Analysis::new(
        &[toolscope_core::InputFile::new(
            "run.json",
            stream.as_bytes(),
            toolscope_core::Role::Traces,
        )],
        &toolscope_core::Options::default(),
        &mut |_| {},
    );
    let errors = analysis.report().summary.tool_errors;
    assert_eq!((errors.results, errors.errors), (2, 1));
}

/// SWE-agent 1.0's development versions wrote the step that ends the run (the `submit`) only to
/// `trajectory`, not to `history` (the real run in SWE-agent's own test data): the session was
/// one call short, and its submission was lost. The last trajectory step is read where the
/// history lacks it, and a history that already holds it is not read twice.
#[test]
fn a_swe_agent_submit_only_in_the_trajectory_is_the_sessions_last_call() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/formats/swe_agent/swe-agent-dev__6e44b9__sweagenttestrepo-1c2844.traj",
    );
    let bytes = std::fs::read(&path).unwrap();
    let mut diagnostics = Vec::new();
    let read = read_traces("run.traj", &bytes, &mut diagnostics);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let session = &read.sessions[0];
    let calls: Vec<&str> = session
        .events
        .iter()
        .filter_map(|event| match event {
            Event::ToolUse(call) => Some(call.name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["find_file", "open", "edit", "bash", "submit"]);
    let Some(Event::ToolResult(submitted)) = session.events.last() else {
        panic!("{:#?}", session.events.last());
    };
    assert_eq!(submitted.status, ResultStatus::Ok);
    assert!(submitted
        .content
        .as_deref()
        .unwrap()
        .contains("+def division(a: float, b: float) -> float:"));

    // SWE-agent 1.0 and later write the last step to both: read once.
    let mut value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    let last_step = value["trajectory"][4].clone();
    let history = value["history"].as_array_mut().unwrap();
    history.push(serde_json::json!({"role": "assistant", "agent": "main",
        "content": last_step["response"], "thought": last_step["thought"],
        "action": "submit", "message_type": "action", "tool_calls": [{"id": "call_submit",
        "type": "function", "function": {"name": "submit", "arguments": "{}"}}]}));
    history.push(
        serde_json::json!({"role": "tool", "agent": "main", "content": "diff --git …",
        "tool_call_ids": ["call_submit"], "message_type": "observation"}),
    );
    let bytes = serde_json::to_vec(&value).unwrap();
    let read = read_traces("run.traj", &bytes, &mut diagnostics);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let events = &read.sessions[0].events;
    let calls = events
        .iter()
        .filter(|e| matches!(e, Event::ToolUse(_)))
        .count();
    let results = events
        .iter()
        .filter(|e| matches!(e, Event::ToolResult(_)))
        .count();
    assert_eq!((calls, results), (5, 5));
}

/// Gemini CLI's SDK records one chat's Gemini API responses without their requests, one
/// `{"method", "response"}` per line (its tests replay them in turn): each response was read as a
/// session of its own, so one chat became eight sessions. Responses without their requests, one
/// after another, are one conversation, as for every provider API.
#[test]
fn gemini_responses_logged_without_requests_are_one_chat_session() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats/gemini/gemini_cli_sdk.tool-error-recovery.json");
    let bytes = std::fs::read(&path).unwrap();
    let mut diagnostics = Vec::new();
    let read = read_traces("recorded.json", &bytes, &mut diagnostics);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    assert_eq!(read.sessions.len(), 1);
    let kinds: Vec<&str> = read.sessions[0]
        .events
        .iter()
        .map(|event| match event {
            Event::ToolUse(_) => "call",
            Event::Assistant { .. } => "text",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["call", "text"].repeat(4));

    // A request between responses ends their chat: the responses after it are another's.
    let mut lines: Vec<&str> = std::str::from_utf8(&bytes).unwrap().lines().collect();
    let request = r#"{"contents": [{"role": "user", "parts": [{"text": "Hello"}]}]}"#;
    lines.insert(4, request);
    let read = read_traces(
        "recorded.json",
        lines.join("\n").as_bytes(),
        &mut diagnostics,
    );
    let sizes: Vec<usize> = read.sessions.iter().map(|s| s.events.len()).collect();
    assert_eq!(sizes, [4, 1, 4]);
}

/// A chat application traces each turn on its own, and Langfuse ties the turns together by
/// `trace.sessionId`; the reader kept one session per trace, so one conversation exported as
/// several traces became several sessions. Traces of one session are one, in `timestamp`
/// order; a trace without a session stays one of its own.
#[test]
fn langfuse_traces_of_one_session_are_one_conversation() {
    let download = |trace_id: &str, session: Option<&str>, time: &str, city: &str| {
        serde_json::json!({
            "trace": {"id": trace_id, "name": "support", "sessionId": session, "timestamp": time,
                      "input": format!("\"Weather in {city}?\"")},
            "observations": [
                {"id": format!("{trace_id}-g"), "traceId": trace_id, "type": "GENERATION",
                 "startTime": time,
                 "input": [{"role": "user", "content": format!("Weather in {city}?")}],
                 "output": {"role": "assistant", "tool_calls": [{"id": format!("call_{city}"),
                    "type": "function", "function": {"name": "get_weather",
                    "arguments": format!("{{\"city\": \"{city}\"}}")}}]}},
                {"id": format!("{trace_id}-t"), "traceId": trace_id, "type": "TOOL",
                 "name": "get_weather", "startTime": time.replace(".000Z", ".500Z"),
                 "input": {"city": city}, "output": "sunny"}]})
    };
    let file = serde_json::json!([
        download("t2", Some("chat-1"), "2025-12-04T14:52:00.000Z", "Osaka"),
        download("t9", None, "2025-12-04T14:53:00.000Z", "Kyoto"),
        download("t1", Some("chat-1"), "2025-12-04T14:51:00.000Z", "Tokyo"),
    ]);
    let mut diagnostics = Vec::new();
    let read = read_traces("export.json", file.to_string().as_bytes(), &mut diagnostics);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
    let sessions: Vec<(&str, Vec<String>)> = read
        .sessions
        .iter()
        .map(|session| {
            let turns = session
                .events
                .iter()
                .filter_map(|event| match event {
                    Event::User { content } => Some(content.clone()),
                    _ => None,
                })
                .collect();
            (session.session_id.as_str(), turns)
        })
        .collect();
    assert_eq!(
        sessions,
        [
            (
                "chat-1",
                vec![
                    "Weather in Tokyo?".to_string(),
                    "Weather in Osaka?".to_string()
                ]
            ),
            ("t9", vec!["Weather in Kyoto?".to_string()]),
        ]
    );
}
