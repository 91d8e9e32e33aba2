//! `analyze_read` on any mix of lines, cut into pieces of any size, gives the report `analyze`
//! gives for the same bytes whole: the streaming reader decodes, cuts, numbers and reads each
//! line exactly as the whole-file reader does (tests in toolscope-gen hold it to hand-picked
//! edge cases and generated data; this one to generated lines).

use std::io::{BufRead, BufReader};

use proptest::prelude::*;
use toolscope_core::{analyze, analyze_read, InputFile, Options, Role, Source};

/// One line of a trace file: mostly sessions, some of everything that can go wrong.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => (0u32..40, any::<bool>()).prop_map(|(i, is_error)| format!(
            r#"{{"session_id": "s{i}", "events": [{{"type": "user", "content": "q{i}"}}, {{"type": "tool_use", "name": "t{}", "args": {{"x": {i}}}}}, {{"type": "tool_result", "status": "{}", "content": "r"}}]}}"#,
            i % 3,
            if is_error { "error" } else { "ok" }
        ).into_bytes()),
        1 => Just(Vec::new()),
        1 => Just(b"   \t".to_vec()),
        1 => Just(b"not json".to_vec()),
        1 => Just(b"[1, 2]".to_vec()),
        1 => Just(br#"{"session_id": "nan", "events": [{"type": "tool_use", "name": "f", "args": {"x": NaN}}]}"#.to_vec()),
        1 => Just(b"{\"session_id\": \"bad-\xff\xfe\", \"events\": []}".to_vec()),
        1 => Just(b"{\"session_id\": \"cut\", \"events\": [".to_vec()),
        1 => Just(b"{\"type\": \"header\"}".to_vec()),
        1 => prop::collection::vec(any::<u8>(), 0..24),
    ]
}

/// A file: a first session line (so that it reads as toolscope's native JSON Lines), then lines,
/// with `\n` or `\r\n` endings, maybe a BOM, maybe no final newline.
fn file() -> impl Strategy<Value = Vec<u8>> {
    (
        any::<bool>(),
        prop::collection::vec((line(), any::<bool>()), 0..150),
        any::<bool>(),
    )
        .prop_map(|(bom, lines, ends_with_newline)| {
            let mut bytes = Vec::new();
            if bom {
                bytes.extend_from_slice(b"\xEF\xBB\xBF");
            }
            bytes.extend_from_slice(br#"{"session_id": "first", "events": []}"#);
            for (line, crlf) in lines {
                bytes.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
                bytes.extend_from_slice(&line);
            }
            if ends_with_newline {
                bytes.push(b'\n');
            }
            bytes
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn any_lines_read_in_any_pieces_give_the_whole_files_report(
        bytes in file(),
        capacity in 1usize..300,
    ) {
        let whole = analyze(&[InputFile::new("t.jsonl", &bytes, Role::Traces)], &Options::default());
        let sources = vec![Source::Reader {
            name: "t.jsonl",
            role: Role::Traces,
            reader: Box::new(BufReader::with_capacity(capacity, &bytes[..])) as Box<dyn BufRead>,
        }];
        let read = analyze_read(sources, &Options::default()).expect("bytes never fail to read");
        prop_assert_eq!(
            serde_json::to_string(&read).unwrap(),
            serde_json::to_string(&whole).unwrap()
        );
    }
}
