//! `unhandled_error` on the coding agents' real transcripts (the formats' fixtures: Claude Code,
//! Codex CLI, Gemini CLI, OpenHands, SWE-agent), where assistant text and calls interleave. The
//! check must say what seed 000 says: "an error result followed by a final message with no
//! retry in between". An independent forward reading of each session counts the errors whose
//! turn ends in a message with no call after them; the check's count must equal it, and the old
//! reading (any assistant text right after the error) must have flagged more: narration.

use std::path::PathBuf;

use toolscope_core::checks::problem::ProblemKind;
use toolscope_core::model::{Event, ResultStatus, Session};
use toolscope_core::{detect_role, Analysis, InputFile, Options};

fn coding_agent_fixtures() -> Vec<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats");
    let mut files = Vec::new();
    for agent in [
        "claude_code",
        "codex_cli",
        "gemini_cli",
        "openhands",
        "swe_agent",
    ] {
        for entry in std::fs::read_dir(root.join(agent)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let is_trace = [".jsonl", ".json", ".traj"]
                .iter()
                .any(|ext| name.ends_with(ext));
            if is_trace && !name.contains("LICENSE") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Errors the seed's definition flags: scanning forward from each error result, the turn (up to
/// the next user event or the end) ends with a message, and no call comes first.
fn seed_unhandled(session: &Session) -> usize {
    let events = &session.events;
    events
        .iter()
        .enumerate()
        .filter(|(_, event)| {
            matches!(event, Event::ToolResult(result) if result.status == ResultStatus::Error)
        })
        .filter(|&(index, _)| {
            let mut has_message = false;
            for later in &events[index + 1..] {
                match later {
                    Event::ToolUse(_) => return false,
                    Event::User { .. } => break,
                    Event::Assistant { .. } => has_message = true,
                    Event::ToolResult(_) => {}
                }
            }
            has_message
        })
        .count()
}

/// The old reading: the next event that is not a result is assistant text.
fn next_is_text(session: &Session) -> usize {
    let events = &session.events;
    events
        .iter()
        .enumerate()
        .filter(|(index, event)| {
            matches!(event, Event::ToolResult(result) if result.status == ResultStatus::Error)
                && matches!(
                    events[index + 1..]
                        .iter()
                        .find(|later| !matches!(later, Event::ToolResult(_))),
                    Some(Event::Assistant { .. })
                )
        })
        .count()
}

#[test]
fn unhandled_errors_on_real_coding_agent_transcripts_are_final_replies_not_narration() {
    let (mut flagged, mut expected, mut old, mut errors) = (0, 0, 0, 0);
    for path in coding_agent_fixtures() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display().to_string();
        let (role, _) = detect_role(&bytes);
        let analysis = Analysis::new(
            &[InputFile::new(&name, &bytes, role)],
            &Options::default(),
            &mut |_| {},
        );
        for session in analysis.sessions() {
            let found = analysis
                .report()
                .problems
                .iter()
                .filter(|p| p.session_id == session.session_id)
                .filter(|p| p.kind == ProblemKind::UnhandledError)
                .count();
            assert_eq!(
                found,
                seed_unhandled(session),
                "{name}: session {}",
                session.session_id
            );
            flagged += found;
            expected += seed_unhandled(session);
            old += next_is_text(session);
            errors += session
                .events
                .iter()
                .filter(|e| matches!(e, Event::ToolResult(r) if r.status == ResultStatus::Error))
                .count();
        }
    }
    assert_eq!(flagged, expected);
    assert!(errors >= 30, "the fixtures hold real errors: {errors}");
    assert!(
        old > flagged,
        "narration after an error was flagged before ({old}), not now ({flagged})"
    );
}

/// OpenHands' file editor says a command failed with text starting `ERROR:` in an ordinary
/// observation; those results were counted as successes, undercounting a real run's errors by
/// more than half.
#[test]
fn openhands_file_editor_errors_are_counted_as_inferred_errors() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/formats/openhands/multi_swe_bench_output.jsonl");
    let bytes = std::fs::read(&path).unwrap();
    let analysis = Analysis::new(
        &[InputFile::new(
            "run.jsonl",
            &bytes,
            toolscope_core::Role::Traces,
        )],
        &Options::default(),
        &mut |_| {},
    );
    let (mut editor_errors, mut errors) = (0, 0);
    for session in analysis.sessions() {
        for event in &session.events {
            let Event::ToolResult(result) = event else {
                continue;
            };
            let text = result.content.as_deref().unwrap_or_default();
            if text.starts_with("ERROR:") {
                editor_errors += 1;
                assert_eq!(result.status, ResultStatus::Error, "{text}");
                assert!(result.is_status_inferred);
            }
            errors += usize::from(result.status == ResultStatus::Error);
        }
    }
    assert!(editor_errors >= 20, "{editor_errors}");
    assert_eq!(
        analysis.report().summary.tool_errors.errors as usize,
        errors
    );
}
