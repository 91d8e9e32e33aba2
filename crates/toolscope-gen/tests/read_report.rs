//! `analyze_read` reads trace files from readers in pieces (native JSON Lines stream; anything
//! else is read whole): the report must be the one `analyze` gives for the same files given
//! whole, byte for byte, whichever way the pieces fall, and a reader that fails must be an error
//! naming its file.

use std::io::{BufRead, BufReader, Read};

use toolscope_core::{
    analyze, analyze_read, analyze_read_without_rows, InputFile, Options, Role, Source,
};
use toolscope_gen::{generate, Config, Shape, Size};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");
const FORMATS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../toolscope-core/tests/fixtures/formats"
);

/// Every file as a reader of `capacity`-byte pieces (trace files; the rest whole), against
/// `analyze` on the bytes; and the summary report made without the rows against the full
/// report's summary.
fn assert_same(files: &[(&str, &[u8], Role)], capacity: usize) {
    let whole: Vec<InputFile<'_>> = files
        .iter()
        .map(|&(name, bytes, role)| InputFile::new(name, bytes, role))
        .collect();
    let full = analyze(&whole, &Options::default());
    let summary = serde_json::to_string_pretty(&full.clone().into_summary()).unwrap();
    let expected = serde_json::to_string_pretty(&full).unwrap();
    let read = analyze_read(sources(files, capacity), &Options::default())
        .expect("readers of bytes never fail");
    assert_equal_json(&serde_json::to_string_pretty(&read).unwrap(), &expected);
    let without_rows = analyze_read_without_rows(sources(files, capacity), &Options::default())
        .expect("readers of bytes never fail");
    assert_eq!(
        without_rows.diagnostics, full.diagnostics,
        "every diagnostic is kept"
    );
    assert_equal_json(
        &serde_json::to_string_pretty(&without_rows.into_summary()).unwrap(),
        &summary,
    );
}

fn sources<'a>(files: &[(&'a str, &'a [u8], Role)], capacity: usize) -> Vec<Source<'a>> {
    files
        .iter()
        .map(|&(name, bytes, role)| match role {
            Role::Traces | Role::Labels => Source::Reader {
                name,
                role,
                reader: Box::new(BufReader::with_capacity(capacity, bytes)) as Box<dyn BufRead>,
            },
            _ => Source::Whole(InputFile::new(name, bytes, role)),
        })
        .collect()
}

fn assert_equal_json(actual: &str, expected: &str) {
    if actual != expected {
        let line = actual
            .lines()
            .zip(expected.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        let around = |text: &str| {
            let lines: Vec<&str> = text.lines().skip(line.saturating_sub(3)).take(8).collect();
            lines.join("\n")
        };
        panic!(
            "read and whole reports differ at line {line}:\n--- read\n{}\n--- whole\n{}",
            around(actual),
            around(expected)
        );
    }
}

fn session(i: usize) -> String {
    format!(
        r#"{{"session_id": "s{i}", "events": [{{"type": "user", "content": "order {i}?"}}, {{"type": "tool_use", "name": "lookup_order", "args": {{"order_id": "A{i}"}}}}, {{"type": "tool_result", "status": "{}", "content": "ok"}}, {{"type": "assistant", "content": "Done."}}]}}"#,
        if i.is_multiple_of(7) { "error" } else { "ok" }
    )
}

/// Sessions past the head (detection's first 64 records), with what each line can go wrong
/// with, in the head and after it.
fn edge_file(bom: bool) -> Vec<u8> {
    let mut file = Vec::new();
    if bom {
        file.extend_from_slice(b"\xEF\xBB\xBF");
    }
    for i in 0..3 {
        file.extend_from_slice(session(i).as_bytes());
        file.extend_from_slice(b"\n");
    }
    // Invalid UTF-8 inside a string, in the head.
    file.extend_from_slice(
        br#"{"session_id": "bad-\xff-utf8", "events": [{"type": "user", "content": "x"}]}"#,
    );
    file.extend_from_slice(b"\n\n   \n");
    for i in 3..90 {
        file.extend_from_slice(session(i).as_bytes());
        file.extend_from_slice(if i.is_multiple_of(5) { b"\r\n" } else { b"\n" });
    }
    let tail: [&[u8]; 9] = [
        b"not json\n",
        b"[1, 2]\n",
        b"{\"type\": \"header\", \"version\": 2}\n",
        br#"{"session_id": "nan", "events": [{"type": "tool_use", "name": "f", "args": {"x": NaN}}]}"#,
        b"\n  \t\n",
        br#"{"session_id": "late-\xc3\x28-utf8", "events": [{"type": "user", "content": "\xe2\x82"}]}"#,
        b"\n{\"session_id\": \"broken\", \"events\": [\n",
        b"{\"session_id\": \"s5\", \"events\": [{\"type\": \"user\", \"content\": \"same id\"}]}\n",
        br#"    {"session_id": "last", "events": [{"type": "tool_use", "name": "lookup_order", "args": {}}]}"#,
    ];
    for line in tail {
        file.extend_from_slice(line);
    }
    file
}

#[test]
fn native_json_lines_read_in_pieces_give_the_whole_files_report() {
    let tools = std::fs::read(format!("{FIXTURES}/seed/tools.json")).unwrap();
    let labels: String = (0..95)
        .step_by(3)
        .map(|i| {
            format!(
                "{{\"session_id\": \"s{i}\", \"turn\": 0, \"expected_tool\": \"lookup_order\"}}\n"
            )
        })
        .collect();
    for bom in [false, true] {
        let file = edge_file(bom);
        for capacity in [1, 7, 64, 8192] {
            assert_same(&[("sessions.jsonl", &file, Role::Traces)], capacity);
            assert_same(
                &[
                    ("tools.json", &tools, Role::Catalog),
                    ("a.jsonl", &file, Role::Traces),
                    ("labels.jsonl", labels.as_bytes(), Role::Labels),
                    ("b.jsonl", &file, Role::Traces),
                ],
                capacity,
            );
        }
    }
}

#[test]
fn generated_data_of_both_shapes_read_in_pieces_gives_the_same_report() {
    for shape in [Shape::Realistic, Shape::CallDense] {
        let data = generate(&Config {
            size: Size::Sessions(400),
            shape,
            ..Config::default()
        });
        let files = [
            ("tools.json", data.tools.as_bytes(), Role::Catalog),
            ("rules.json", data.rules.as_bytes(), Role::Rules),
            ("sessions.jsonl", &data.sessions[..], Role::Traces),
            ("labels.jsonl", &data.labels[..], Role::Labels),
        ];
        assert_same(&files, 8192);
        assert_same(&files[1..], 4096);
    }
}

#[test]
fn files_that_do_not_stream_are_read_whole_and_give_the_same_report() {
    let lines: String = (0..80).map(|i| session(i) + "\n").collect();
    let array = format!("[{}]", (0..80).map(session).collect::<Vec<_>>().join(",\n"));
    let pretty = (0..80)
        .map(|i| {
            let value: serde_json::Value = serde_json::from_str(&session(i)).unwrap();
            serde_json::to_string_pretty(&value).unwrap()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let utf16: Vec<u8> = lines.encode_utf16().flat_map(u16::to_le_bytes).collect();
    let chat = std::fs::read(format!("{FORMATS}/openai_chat/batch.jsonl")).unwrap();
    let claude = std::fs::read(format!(
        "{FORMATS}/claude_code/representative_messages.jsonl"
    ))
    .unwrap();
    let verdict = br#"{"session_id": "s1", "step": 1, "question": "needed", "verdict": "yes"}"#;
    for capacity in [3, 4096] {
        assert_same(&[("array.json", array.as_bytes(), Role::Traces)], capacity);
        assert_same(
            &[("pretty.json", pretty.as_bytes(), Role::Traces)],
            capacity,
        );
        assert_same(&[("utf16.jsonl", &utf16, Role::Traces)], capacity);
        assert_same(&[("chat.jsonl", &chat, Role::Traces)], capacity);
        assert_same(&[("claude.jsonl", &claude, Role::Traces)], capacity);
        assert_same(&[("empty.jsonl", b"", Role::Traces)], capacity);
        // Verdicts keep the sessions: native lines past the head are read whole too.
        assert_same(
            &[
                ("sessions.jsonl", lines.as_bytes(), Role::Traces),
                ("verdicts.jsonl", verdict, Role::Verdicts),
            ],
            capacity,
        );
    }
}

/// Gives `good` bytes, then fails.
struct Failing<'a> {
    good: &'a [u8],
}

impl Read for Failing<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if self.good.is_empty() {
            return Err(std::io::Error::other("the disk went away"));
        }
        let n = self.good.read(out)?;
        Ok(n)
    }
}

#[test]
fn a_reader_that_fails_is_an_error_naming_its_file() {
    let lines: String = (0..200).map(|i| session(i) + "\n").collect();
    // In the head, and after it, while streaming.
    for good in [100, lines.len() / 2] {
        let sources = vec![Source::Reader {
            name: "big.jsonl",
            role: Role::Traces,
            reader: Box::new(BufReader::with_capacity(
                64,
                Failing {
                    good: &lines.as_bytes()[..good],
                },
            )),
        }];
        let error = analyze_read(sources, &Options::default()).unwrap_err();
        assert_eq!(error.file, "big.jsonl");
        assert!(error.to_string().contains("the disk went away"), "{error}");
    }
}

#[test]
fn agents_trials_and_ties_give_the_same_summary_without_rows() {
    // Sessions with agents and problems (findings name the agents), scored trials of tasks,
    // sessions that tie on problems and errors (the report keeps their input order), repeated
    // ids, past the head so that they stream.
    let mut file = String::new();
    for i in 0..120 {
        let agent = ["planner", "coder", "reviewer"][i % 3];
        let tool = if i % 4 == 0 {
            "lookup_ordr"
        } else {
            "lookup_order"
        };
        let status = if i % 5 == 0 { "error" } else { "ok" };
        let id = if i % 17 == 0 {
            "dup".to_string()
        } else {
            format!("s{i}")
        };
        file.push_str(&format!(
            r#"{{"session_id": "{id}", "agent_id": "{agent}", "task_id": "t{}", "reward": {}, "events": [{{"type": "user", "content": "q"}}, {{"type": "tool_use", "name": "{tool}", "args": {{"order_id": {i}}}}}, {{"type": "tool_result", "status": "{status}", "content": "r"}}, {{"type": "assistant", "content": "Done!"}}]}}"#,
            i % 7,
            i % 2
        ));
        file.push('\n');
    }
    let tools = std::fs::read(format!("{FIXTURES}/seed/tools.json")).unwrap();
    for capacity in [5, 4096] {
        assert_same(&[("agents.jsonl", file.as_bytes(), Role::Traces)], capacity);
        assert_same(
            &[
                ("tools.json", &tools, Role::Catalog),
                ("agents.jsonl", file.as_bytes(), Role::Traces),
            ],
            capacity,
        );
    }
}
