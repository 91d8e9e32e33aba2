//! When sessions stream, a label is read whole only when its session arrives (or at the end, if
//! it never does); before that only whose it is. Labels that are not what they seem must still
//! give the report, messages and counts of the whole-input path (`Analysis::new`), in its order:
//! a label whose session id is a number, whose fields are of the wrong type, whose session never
//! comes, that repeats a key, that holds an integer beyond 64 bits, that labels a turn twice or
//! one past the session's end, and all of them on one line (one JSON array), where the messages
//! share a line and only their order tells them apart.

use toolscope_core::{
    analyze, read_analysis, Analysis, InputFile, Options, ReadAnalysis, Report, Role, Source,
};

const SESSIONS: &str = concat!(
    r#"{"session_id":"s1","events":[{"type":"user","content":"where is my order?"},"#,
    r#"{"type":"tool_use","name":"lookup_order","args":{"order_id":"A1"}},"#,
    r#"{"type":"tool_result","status":"ok","content":"shipped"},"#,
    r#"{"type":"assistant","content":"it shipped"}]}"#,
    "\n",
    r#"{"session_id":"s2","events":[{"type":"user","content":"hi"},"#,
    r#"{"type":"assistant","content":"hello"}]}"#,
    "\n",
    r#"{"session_id":"7","events":[{"type":"user","content":"refund"},"#,
    r#"{"type":"tool_use","name":"issue_refund","args":{"order_id":"B2"}}]}"#,
    "\n",
);

/// One label record each, as a labels file holds them.
const LABELS: [&str; 11] = [
    r#"{"session_id":"s1","turn":0,"expected_tool":"lookup_order","expected_args":{"order_id":"A1"}}"#,
    // Read only whole: the head takes string ids only.
    r#"{"session_id":7,"turn":0,"expected_tool":"issue_refund"}"#,
    // Past its first read: the turn is not a number.
    r#"{"session_id":"s1","turn":"first","expected_tool":"lookup_order"}"#,
    // Its session never comes, valid and not.
    r#"{"session_id":"s9","turn":0,"expected_tool":"lookup_order"}"#,
    r#"{"session_id":"s9","turn":0,"expected_tool":3}"#,
    r#"{"id":"s2","turn":0,"expected_tool":"none"}"#,
    // A key twice.
    r#"{"session_id":"s2","session_id":"s1","turn":0,"expected_tool":"none"}"#,
    r#"{"session_id":"s1","turn":0,"expected_tool":"lookup_order","expected_args":{"n":123456789012345678901234}}"#,
    r#"{"session_id":"s1","turn":5,"expected_tool":"lookup_order"}"#,
    r#"{"session_id":"s2","turn":0,"expected_tool":"search","should_not_call":"refund"}"#,
    r#"not json"#,
];

fn reports(labels: &str) -> (Report, Report) {
    let files = [
        ("sessions.jsonl", SESSIONS.as_bytes(), Role::Traces),
        ("labels.jsonl", labels.as_bytes(), Role::Labels),
    ];
    let whole: Vec<InputFile<'_>> = files
        .iter()
        .map(|&(name, bytes, role)| InputFile::new(name, bytes, role))
        .collect();
    let kept = Analysis::new(&whole, &Options::default(), &mut |_| {});
    let sources = files
        .iter()
        .map(|&(name, bytes, role)| Source::Whole(InputFile::new(name, bytes, role)))
        .collect();
    let read = read_analysis(sources, &Options::default(), &mut |_| {}).unwrap();
    let ReadAnalysis::Streamed(streamed) = read else {
        panic!("native JSON Lines stream");
    };
    assert_eq!(*streamed, analyze(&whole, &Options::default()));
    (*streamed, kept.report().clone())
}

#[test]
fn odd_labels_give_the_whole_input_paths_report_and_messages_in_its_order() {
    let lines = LABELS.join("\n") + "\n";
    let (streamed, kept) = reports(&lines);
    assert_eq!(streamed, kept);
    let labels = &streamed
        .inputs
        .iter()
        .find(|i| i.file == "labels.jsonl")
        .unwrap();
    assert_eq!(labels.counts.get("labels"), Some(&7), "{labels:?}");
    let messages: Vec<&str> = streamed
        .diagnostics
        .iter()
        .filter(|d| d.file == "labels.jsonl")
        .map(|d| d.message.as_str())
        .collect();
    // The wrong types, the key twice, the big integer, the turn past the end, the session that
    // never came (for "7": it did; for "s9": one label read, the other not), the second label
    // of a turn, the line that is not JSON.
    assert!(messages.len() >= 7, "{messages:#?}");
    assert!(messages.iter().any(|m| m.contains("s9")), "{messages:#?}");
    assert!(
        messages.iter().any(|m| m.contains("beyond 64 bits")),
        "{messages:#?}"
    );
}

#[test]
fn odd_labels_on_one_line_keep_the_whole_input_paths_message_order() {
    // One JSON array: every record, and so every message, on line 1.
    let valid: Vec<&str> = LABELS[..LABELS.len() - 1].to_vec();
    let array = format!("[{}]\n", valid.join(","));
    let (streamed, kept) = reports(&array);
    assert_eq!(streamed.diagnostics, kept.diagnostics);
    assert_eq!(streamed, kept);
    let on_line_one = streamed
        .diagnostics
        .iter()
        .filter(|d| d.file == "labels.jsonl" && d.line == Some(1))
        .count();
    assert!(on_line_one >= 5, "{:#?}", streamed.diagnostics);
}

#[test]
fn labels_that_all_fail_to_read_give_no_selection_as_before() {
    let labels = [LABELS[2], LABELS[4]].join("\n") + "\n";
    let (streamed, kept) = reports(&labels);
    assert_eq!(streamed, kept);
    assert!(streamed.selection.is_none());
}
