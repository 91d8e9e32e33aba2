//! `analyze` streams native sessions (checks, scores and summarises each, then drops it) where
//! `Analysis` keeps them all: both must give the same report, byte for byte, on realistic and
//! call-dense data and on input that trips every label and id rule.

use toolscope_core::{analyze, Analysis, InputFile, Options, Role};
use toolscope_gen::{generate, Config, Shape, Size};

fn both(inputs: &[InputFile<'_>], options: &Options) -> (String, String) {
    let streamed = analyze(inputs, options);
    let analysis = Analysis::new(inputs, options, &mut |_| {});
    (
        serde_json::to_string_pretty(&streamed).unwrap(),
        serde_json::to_string_pretty(analysis.report()).unwrap(),
    )
}

fn assert_same(inputs: &[InputFile<'_>], options: &Options) {
    let (streamed, whole) = both(inputs, options);
    if streamed != whole {
        let line = streamed
            .lines()
            .zip(whole.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let around = |text: &str| {
            text.lines()
                .skip(line.saturating_sub(3))
                .take(8)
                .collect::<Vec<_>>()
                .join("\n")
        };
        panic!(
            "streamed and whole reports differ at line {line}:\n--- streamed\n{}\n--- whole\n{}",
            around(&streamed),
            around(&whole)
        );
    }
}

#[test]
fn generated_data_of_both_shapes_gives_the_same_report_streamed() {
    for shape in [Shape::Realistic, Shape::CallDense] {
        let data = generate(&Config {
            size: Size::Sessions(600),
            shape,
            ..Config::default()
        });
        let with_catalog = [
            InputFile::new("tools.json", data.tools.as_bytes(), Role::Catalog),
            InputFile::new("rules.json", data.rules.as_bytes(), Role::Rules),
            InputFile::new("sessions.jsonl", &data.sessions, Role::Traces),
            InputFile::new("labels.jsonl", &data.labels, Role::Labels),
        ];
        assert_same(&with_catalog, &Options::default());
        // Without a catalog file: each session's own tools (realistic sessions carry some).
        assert_same(&with_catalog[1..], &Options::default());
        // Two trace files (ids repeat across them: renamed), labels given first on the line.
        let twice = [
            InputFile::new("labels.jsonl", &data.labels, Role::Labels),
            InputFile::new("a.jsonl", &data.sessions, Role::Traces),
            InputFile::new("b.jsonl", &data.sessions, Role::Traces),
        ];
        assert_same(&twice, &Options::default());
    }
}

#[test]
fn label_and_id_edge_cases_give_the_same_report_streamed() {
    let sessions = concat!(
        r#"{"session_id": "s1", "agent_id": "a", "tools": [{"name": "f", "description": "finds", "parameters": {"type": "object", "required": ["q"]}}], "events": [{"type": "user", "content": "hi"}, {"type": "tool_use", "name": "f", "args": {}}, {"type": "tool_result", "status": "error", "content": "bad"}, {"type": "assistant", "content": "Done!"}, {"type": "user", "content": "again"}, {"type": "tool_use", "name": "g", "args": "{oops"}]}"#,
        "\n",
        "not json\n",
        r#"{"session_id": "s1", "events": [{"type": "user", "content": "x"}, {"type": "tool_use", "name": "f", "args": {"q": 1}}]}"#,
        "\n",
        r#"{"events": [{"type": "user", "content": "y"}, {"type": "weird"}]}"#,
        "\n",
        r#"{"session_id": 7, "task_id": "t", "reward": 1, "events": [{"type": "user", "content": "z"}]}"#,
        "\n",
    );
    let labels = concat!(
        r#"{"session_id": "s1", "turn": 1, "expected_tool": "g"}"#,
        "\n",
        r#"{"session_id": "nope", "expected_tool": "f"}"#,
        "\n",
        r#"{"session_id": "s1", "turn": 9, "expected_tool": "f"}"#,
        "\n",
        r#"{"session_id": "s1", "turn": 0, "expected_tool": ["f", "g"], "expected_args": {"q": 1}}"#,
        "\n",
        r#"{"session_id": "s1", "turn": 1, "expected_tool": "none"}"#,
        "\n",
        r#"{"session_id": "s1#2", "expected_tool": "f", "expected_args": {"q": 1}}"#,
        "\n",
        r#"{"session_id": "7", "expected_tool": "none"}"#,
        "\n",
        "[1, 2]\n",
        r#"{"session_id": "s1#2", "turn": 0, "expected_tool": "f", "expected_args": {"q": NaN}}"#,
        "\n",
    );
    let rules = br#"{"g": ["f"]}"#;
    let inputs = [
        InputFile::new("rules.json", rules, Role::Rules),
        InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces),
        InputFile::new("labels.jsonl", labels.as_bytes(), Role::Labels),
    ];
    let (streamed, _) = both(&inputs, &Options::default());
    // The cases are there to be compared: a renamed id, labels out of range and repeated.
    for expected in ["s1#2", "not in the traces", "a second label", "has 2 turns"] {
        assert!(streamed.contains(expected), "{expected}");
    }
    assert_same(&inputs, &Options::default());
    let forced = Options {
        format: Some(toolscope_core::formats::TraceFormat::Native),
        ..Options::default()
    };
    assert_same(&inputs, &forced);
    let empty = [InputFile::new("e.jsonl", b"  \n", Role::Traces)];
    assert_same(&empty, &forced);
    // A trace file too large to read beside one that is read.
    let with_huge = [
        InputFile::too_large(
            "huge.jsonl",
            toolscope_core::MAX_FILE_BYTES + 5,
            Role::Traces,
        ),
        InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces),
        InputFile::new("labels.jsonl", labels.as_bytes(), Role::Labels),
    ];
    assert_same(&with_huge, &Options::default());
    // The repaired NaN is warned about once, however often the label is read.
    let (streamed, _) = both(&inputs, &Options::default());
    assert_eq!(streamed.matches("NaN").count(), 1, "{streamed}");
    // A task label needs the sessions kept: the same report all the same.
    let with_task = format!(
        "{labels}{}\n",
        r#"{"session_id": "s1", "expected_actions": [{"name": "f"}]}"#
    );
    let inputs = [
        InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces),
        InputFile::new("labels.jsonl", with_task.as_bytes(), Role::Labels),
    ];
    assert_same(&inputs, &Options::default());
}
