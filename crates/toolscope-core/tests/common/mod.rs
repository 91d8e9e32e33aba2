//! Helpers shared by the integration tests: running the Python reference scripts in
//! `tests/reference/`, and building inputs for [`toolscope_core::analyze`].

#![allow(dead_code)] // Each test crate uses its own subset.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use serde_json::Value;

/// The Python interpreter the reference scripts run under: `$TOOLSCOPE_PYTHON`, else `python3`.
pub fn python() -> String {
    std::env::var("TOOLSCOPE_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Runs `tests/reference/<script>` once with `request` as JSON on stdin and returns its JSON
/// answer.
///
/// Panics (so the test fails, never skips) when Python or the package the script imports is
/// missing: CI installs them (scripts/lib/setup.sh: scikit-learn, jsonschema, bfcl-eval), and
/// an agreement test that silently skips agrees with nothing.
pub fn run_reference(script: &str, request: &Value) -> Value {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "reference", script]
        .iter()
        .collect();
    let interpreter = python();
    let mut child = Command::new(&interpreter)
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "could not run {interpreter} ({error}): the reference tests need Python 3 with \
                 scikit-learn, jsonschema and bfcl-eval (scripts/lib/setup.sh installs them); set \
                 TOOLSCOPE_PYTHON to use another interpreter"
            )
        });
    let input = serde_json::to_vec(request).expect("a request serialises");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Write on a thread: the script may fill its stdout pipe before it has read all of stdin.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("the reference script ran");
    writer
        .join()
        .expect("the writer thread finished")
        .expect("the request was written to the script");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{interpreter} {} failed ({}): {stderr}\n\
         The reference tests need Python 3 with scikit-learn, jsonschema and bfcl-eval \
         (scripts/lib/setup.sh installs them).",
        path.display(),
        output.status
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "{} wrote something that is not JSON ({error}): {}",
            path.display(),
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// Whether two optional floats agree: both undefined, or both defined and within `tolerance`.
pub fn same_number(ours: Option<f64>, theirs: Option<f64>, tolerance: f64) -> bool {
    match (ours, theirs) {
        (None, None) => true,
        (Some(a), Some(b)) => (a - b).abs() <= tolerance,
        _ => false,
    }
}

/// What a label expects: one tool ("none" for no call) or a set of acceptable ones.
#[derive(Debug, Clone, PartialEq)]
pub enum ExpectedSpec {
    /// `"expected_tool": "name"`.
    One(String),
    /// `"expected_tool": ["first", ...]`.
    AnyOf(Vec<String>),
}

impl ExpectedSpec {
    /// The label's `expected_tool` value.
    pub fn to_json(&self) -> Value {
        match self {
            ExpectedSpec::One(tool) => Value::from(tool.as_str()),
            ExpectedSpec::AnyOf(set) => Value::from(set.clone()),
        }
    }
}

/// One labelled turn to build inputs from.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledTurn {
    /// Which session (0-based) the turn belongs to; turns of one session keep their order.
    pub session: usize,
    /// What the label expects.
    pub expected: ExpectedSpec,
    /// The tools the turn calls, in order (empty: no call, "none").
    pub called: Vec<String>,
}

impl LabelledTurn {
    /// The tool the metrics compare: the first call's, or "none".
    pub fn actual(&self) -> &str {
        self.called.first().map_or("none", String::as_str)
    }
}

/// Native sessions (JSON Lines) and labels (JSON Lines) for `turns`: session `k` is `"s{k}"`,
/// each turn is a user message, its calls each with an ok result, and a reply.
pub fn native_inputs(turns: &[LabelledTurn]) -> (String, String) {
    let sessions = turns
        .iter()
        .map(|turn| turn.session)
        .max()
        .map_or(0, |s| s + 1);
    let mut events: Vec<Vec<Value>> = vec![Vec::new(); sessions];
    let mut labels = String::new();
    for turn in turns {
        let session_events = &mut events[turn.session];
        let turn_index = session_events
            .iter()
            .filter(|event| event["type"] == "user")
            .count();
        session_events
            .push(serde_json::json!({"type": "user", "content": format!("request {turn_index}")}));
        for (call_index, tool) in turn.called.iter().enumerate() {
            let call_id = format!("t{turn_index}c{call_index}");
            session_events.push(serde_json::json!({"type": "tool_use", "call_id": call_id, "name": tool, "args": {}}));
            session_events.push(serde_json::json!({"type": "tool_result", "call_id": call_id, "status": "ok", "content": "done"}));
        }
        session_events.push(serde_json::json!({"type": "assistant", "content": "ok"}));
        let label = serde_json::json!({
            "session_id": format!("s{}", turn.session),
            "turn": turn_index,
            "expected_tool": turn.expected.to_json(),
        });
        labels.push_str(&label.to_string());
        labels.push('\n');
    }
    let mut jsonl = String::new();
    for (session, session_events) in events.into_iter().enumerate() {
        let record =
            serde_json::json!({"session_id": format!("s{session}"), "events": session_events});
        jsonl.push_str(&record.to_string());
        jsonl.push('\n');
    }
    (jsonl, labels)
}

/// Analyses sessions and labels built by [`native_inputs`] with the default options.
pub fn analyze_turns(turns: &[LabelledTurn]) -> toolscope_core::Report {
    use toolscope_core::Role;
    let (sessions, labels) = native_inputs(turns);
    analyze_named(&[
        ("sessions.jsonl", sessions.as_bytes(), Role::Traces),
        ("labels.jsonl", labels.as_bytes(), Role::Labels),
    ])
}

/// Analyses `(name, bytes, role)` files with the default options.
pub fn analyze_named(files: &[(&str, &[u8], toolscope_core::Role)]) -> toolscope_core::Report {
    use toolscope_core::{analyze, InputFile, Options};
    let inputs: Vec<InputFile<'_>> = files
        .iter()
        .map(|&(name, bytes, role)| InputFile::new(name, bytes, role))
        .collect();
    analyze(&inputs, &Options::default())
}

/// Tool names the generated cases draw from (a prefix of this list per case).
pub const TOOL_POOL: [&str; 5] = [
    "get_weather",
    "issue_refund",
    "lookup_order",
    "search_docs",
    "send_email",
];

/// Arbitrary labelled turns over 1 to 5 tools plus "none": labels name one tool or a shuffled
/// acceptable set of 2 or 3 (which may include "none"); turns call nothing or 1 to 3 tools;
/// turns are spread over up to 4 sessions.
pub fn labelled_turns(
    max_turns: usize,
) -> impl proptest::strategy::Strategy<Value = Vec<LabelledTurn>> {
    use proptest::prelude::*;
    (1usize..=TOOL_POOL.len()).prop_flat_map(move |tool_count| {
        let names: Vec<String> = TOOL_POOL[..tool_count]
            .iter()
            .map(|name| name.to_string())
            .chain(std::iter::once("none".to_string()))
            .collect();
        let tools_only: Vec<String> = names[..tool_count].to_vec();
        let one = proptest::sample::select(names.clone()).prop_map(ExpectedSpec::One);
        let set_size = 2..=3.min(names.len());
        let any_of = proptest::sample::subsequence(names.clone(), set_size)
            .prop_shuffle()
            .prop_map(ExpectedSpec::AnyOf);
        let expected = prop_oneof![3 => one, 1 => any_of];
        let called = prop_oneof![
            1 => Just(Vec::new()),
            3 => proptest::collection::vec(proptest::sample::select(tools_only), 1..=3),
        ];
        let turn =
            (0usize..4, expected, called).prop_map(|(session, expected, called)| LabelledTurn {
                session,
                expected,
                called,
            });
        proptest::collection::vec(turn, 1..=max_turns)
    })
}
