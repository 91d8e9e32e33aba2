//! Hostile text in the input cannot act on the terminal or forge a line of text output: the same
//! traces are run twice, once with names carrying escape sequences, newlines and bidirectional
//! overrides, once with harmless names of the same length, and the two outputs must have the
//! same lines, with the hostile characters shown as escapes.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::{json, Value};

/// A title change, a colour, a forged problem line, a carriage return, a right-to-left override
/// and the one-character C1 form of CSI.
const HOSTILE: &str = "\u{1b}]0;pwned\u{7}\u{1b}[31m\nstep 99: forged\r\u{202e}\u{9b}";

/// [`HOSTILE`] as the text output shows it.
const HOSTILE_SHOWN: &str = r"\x1b]0;pwned\x07\x1b[31m\nstep 99: forged\r\u{202e}\u{9b}";

/// Harmless text as long as [`HOSTILE`], so that name matching and sorting behave alike.
fn harmless() -> String {
    "x".repeat(HOSTILE.chars().count())
}

/// Trace, label and missing-file paths whose names and contents all carry `decoration`.
struct Inputs {
    _dir: tempfile::TempDir,
    traces: PathBuf,
    labels: PathBuf,
    missing: PathBuf,
}

fn inputs(decoration: &str) -> Inputs {
    let dir = tempfile::tempdir().unwrap();
    let name = |base: &str| format!("{base}{decoration}");
    let tools = json!([
        {"name": name("lookup_order"), "input_schema": {"type": "object",
            "properties": {"order_id": {"type": "string"}}}},
        {"name": name("issue_refund"), "input_schema": {"type": "object",
            "properties": {"amount": {"type": "integer", "minimum": 0}}}},
    ]);
    let alpha = json!({
        "session_id": name("alpha"), "agent_id": name("agent"), "task_id": name("task"),
        "tools": tools,
        "events": [
            {"type": "user", "content": name("refund please")},
            // Unknown, with the catalog's name suggested.
            {"type": "tool_use", "call_id": "c1", "name": name("lookup_orde"),
             "args": {"order_id": name("7Q")}},
            {"type": "tool_result", "call_id": "c1", "content": "found"},
            // Fails the schema, then its error goes unhandled.
            {"type": "tool_use", "call_id": "c2", "name": name("issue_refund"),
             "args": {"amount": -5}},
            {"type": "tool_result", "call_id": "c2", "status": "error",
             "content": name("Error: ")},
            {"type": "assistant", "content": name("sorry")},
            {"type": "user", "content": "and the other order?"},
            // Arguments that are not JSON, quoted in the message.
            {"type": "tool_use", "call_id": "c3", "name": name("lookup_order"),
             "args": name("{oops")},
        ]
    });
    // Twice decorated, so that its id grows more than alpha's when escaped: the task table must
    // measure the ids as shown to keep its column.
    let beta_id = name(&name("beta"));
    let beta = json!({
        "session_id": beta_id, "task_id": name("task"), "tools": tools,
        "events": [
            {"type": "user", "content": "where is it"},
            {"type": "tool_use", "call_id": "c1", "name": name("lookup_order"),
             "args": {"order_id": name("A1")}},
            {"type": "tool_result", "call_id": "c1", "content": "shipped"},
            {"type": "assistant", "content": "shipped"},
        ]
    });
    // The file name carries the decoration too: diagnostics and errors name it.
    let traces = dir.path().join(format!("traces{decoration}.jsonl"));
    std::fs::write(
        &traces,
        format!("{alpha}\n{beta}\nnot JSON {}\n", json!(decoration)),
    )
    .unwrap();
    let labels = [
        json!({"session_id": name("alpha"), "expected_tool": name("lookup_order")}),
        json!({"session_id": beta_id, "expected_tool": name("lookup_order"),
               "expected_args": {"order_id": name("B2")}}),
        json!({"session_id": name("ghost"), "expected_tool": name("none")}),
        json!({"task_id": name("task"),
               "expected_actions": [{"name": name("cancel"), "arguments": {}}]}),
    ];
    let labels_path = dir.path().join("labels.jsonl");
    std::fs::write(
        &labels_path,
        labels.map(|label| format!("{label}\n")).concat(),
    )
    .unwrap();
    let missing = dir.path().join(format!("missing{decoration}.jsonl"));
    Inputs {
        _dir: dir,
        traces,
        labels: labels_path,
        missing,
    }
}

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

/// The text commands this test runs, each as arguments given the inputs.
fn commands(inputs: &Inputs) -> Vec<(&'static str, Vec<&Path>)> {
    let labels = || vec![Path::new("--labels"), &inputs.labels];
    vec![
        ("check", vec![&inputs.traces]),
        (
            "score",
            [labels(), vec![Path::new("--confusion"), &inputs.traces]].concat(),
        ),
        ("report", [labels(), vec![&inputs.traces]].concat()),
        ("check", vec![&inputs.missing]),
    ]
}

fn run(command: &str, arguments: &[&Path]) -> Output {
    toolscope().arg(command).args(arguments).output().unwrap()
}

/// Stdout and stderr as text; the output must be UTF-8 whatever the input was.
fn streams(output: &Output) -> [String; 2] {
    [&output.stdout, &output.stderr].map(|bytes| String::from_utf8(bytes.clone()).unwrap())
}

/// What a terminal could act on, or a reader take for the end of a line, other than our own
/// newlines.
fn acts_on_the_terminal(character: char) -> bool {
    (character.is_control() && character != '\n')
        || matches!(
            character,
            '\u{2028}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
        )
}

#[test]
fn hostile_names_add_no_line_and_no_raw_control_to_any_text_output() {
    let (hostile, harmless) = (inputs(HOSTILE), inputs(&harmless()));
    for ((command, hostile_args), (_, harmless_args)) in
        commands(&hostile).into_iter().zip(commands(&harmless))
    {
        let (hostile_output, harmless_output) =
            (run(command, &hostile_args), run(command, &harmless_args));
        assert_eq!(
            hostile_output.status.code(),
            harmless_output.status.code(),
            "{command}"
        );
        let (shown_streams, clean_streams) = (streams(&hostile_output), streams(&harmless_output));
        assert!(
            shown_streams.concat().contains(HOSTILE_SHOWN),
            "{command}: {shown_streams:?}"
        );
        for (shown, clean) in shown_streams.iter().zip(&clean_streams) {
            let raw: Vec<char> = shown.chars().filter(|&c| acts_on_the_terminal(c)).collect();
            assert!(raw.is_empty(), "{command}: raw {raw:?} in:\n{shown}");
            assert_eq!(
                shown.lines().count(),
                clean.lines().count(),
                "{command}: a line was forged:\n{shown}\n-- harmless:\n{clean}"
            );
            assert!(
                !shown.lines().any(|line| line.starts_with("step 99")),
                "{command}:\n{shown}"
            );
        }
    }
}

#[test]
fn each_kind_of_input_text_is_shown_escaped() {
    let hostile = inputs(HOSTILE);
    let shown = |base: &str| format!("{base}{HOSTILE_SHOWN}");
    let traces_shown = shown(&format!("{}/traces", hostile._dir.path().display()));

    let [stdout, stderr] = streams(&run("check", &[&hostile.traces]));
    // Session ids, and tool names inside each check's message.
    for expected in [
        format!("{}: step 1: unknown tool ", shown("alpha")),
        format!("(did you mean '{}'?)", shown("lookup_order")),
        format!("step 2: {}: -5 is less than", shown("issue_refund")),
        format!(
            "step 2: {}: error result followed by a reply",
            shown("issue_refund")
        ),
        format!(
            "step 3: {}: arguments are not valid JSON",
            shown("lookup_order")
        ),
    ] {
        assert!(
            stdout.contains(&expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    // The file name in a diagnostic.
    assert!(
        stderr.starts_with(&format!("{traces_shown}.jsonl:3:")),
        "{stderr}"
    );

    let [stdout, stderr] = streams(&run(
        "score",
        &[
            Path::new("--labels"),
            &hostile.labels,
            Path::new("--confusion"),
            &hostile.traces,
        ],
    ));
    // Tool rows, the argument explanation, the task table and a label naming no session.
    for expected in [
        // Longer than the seed's 14-character column, so one space as in the seed.
        format!("{} precision 1.00", shown("lookup_order")),
        format!("{} turn 0: arguments: ", shown(&shown("beta"))),
        format!("  not matched: {}", shown("cancel")),
        format!("{}  actions 0 of 1", shown(&shown("beta"))),
        format!("\n{} ", shown("alpha")),
    ] {
        assert!(
            stdout.contains(&expected),
            "missing {expected:?} in:\n{stdout}"
        );
    }
    // The core quotes ids in diagnostics with Rust's `{:?}`, escaped already; the line's pass
    // leaves that as it is.
    assert!(
        stderr.contains(r#"label for session "ghost\u{1b}]0;pwned\u{7}\u{1b}[31m\nstep 99"#),
        "{stderr}"
    );
}

#[test]
fn hostile_names_are_escaped_before_they_are_padded_so_columns_keep_their_width() {
    let widths = |decoration: &str| {
        let inputs = inputs(decoration);
        let output = run(
            "score",
            &[
                Path::new("--labels"),
                &inputs.labels,
                Path::new("--confusion"),
                &inputs.traces,
            ],
        );
        let [stdout, _] = streams(&output);
        // The matrix's lines, and where each task line's "actions" column starts.
        let matrix: Vec<usize> = stdout
            .lines()
            .filter(|line| line.starts_with("                    "))
            .map(|line| line.chars().count())
            .collect();
        let actions: Vec<usize> = stdout
            .lines()
            .filter_map(|line| {
                line.split_once("  actions ")
                    .map(|(id, _)| id.chars().count())
            })
            .collect();
        (matrix, actions)
    };
    let (matrix, actions) = widths(HOSTILE);
    assert_eq!(matrix, widths(&harmless()).0);
    assert!(!matrix.is_empty());
    assert_eq!(actions.len(), 2);
    assert_eq!(actions[0], actions[1], "task ids padded to one column");
}

#[test]
fn json_output_keeps_the_raw_text_json_escaped() {
    let hostile = inputs(HOSTILE);
    let output = toolscope()
        .args(["report", "--json", "--labels"])
        .arg(&hostile.labels)
        .arg(&hostile.traces)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let raw = |base: &str| format!("{base}{HOSTILE}");
    let session_ids: Vec<&str> = report["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|session| session["session_id"].as_str().unwrap())
        .collect();
    assert!(
        session_ids.contains(&raw("alpha").as_str()),
        "{session_ids:?}"
    );
    let problems = report["problems"].as_array().unwrap();
    assert!(problems.iter().any(|p| p["tool"] == raw("issue_refund")));
    assert_eq!(
        report["diagnostics"][0]["file"],
        hostile.traces.display().to_string()
    );
    // JSON escapes C0 controls itself: no raw newline inside a string, no raw ESC anywhere.
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(!text.contains('\u{1b}'));
    assert!(text.contains(r"\u001b]0;pwned\u0007\u001b[31m\nstep 99: forged\r"));
}

#[test]
fn arguments_clap_quotes_in_its_errors_add_no_line_and_no_raw_control() {
    // A value that is not a number, and a file name starting with '-' that a glob expanded.
    let run_clap = |decoration: &str| {
        let min_support = run(
            "score",
            &[
                Path::new("--min-support"),
                Path::new(decoration),
                Path::new("x"),
            ],
        );
        let flag = format!("-{decoration}");
        let unexpected = run("check", &[Path::new(&flag), Path::new("x")]);
        [min_support, unexpected].map(|output| {
            assert_eq!(output.status.code(), Some(2));
            streams(&output)[1].clone()
        })
    };
    let clean = run_clap(&harmless());
    for (shown, clean) in run_clap(HOSTILE).iter().zip(&clean) {
        let raw: Vec<char> = shown.chars().filter(|&c| acts_on_the_terminal(c)).collect();
        assert!(raw.is_empty(), "raw {raw:?} in:\n{shown}");
        assert_eq!(
            shown.lines().count(),
            clean.lines().count(),
            "{shown}\n--\n{clean}"
        );
    }
    assert!(run_clap(HOSTILE)[0].contains(r"\nstep 99: forged\r\u{202e}\u{9b}"));
}
