//! Any bytes as a labels file, next to a fixed, valid sessions file so that labels which do
//! parse are matched to real turns and scored: the labels reader and the selection metrics must
//! never panic, every diagnostic must point at a 1-based line, counts must be conserved, and the
//! report must survive JSON.

#![no_main]

mod common;

use common::assert_sound;
use libfuzzer_sys::fuzz_target;
use toolscope_core::{analyze, InputFile, Options, Role};

/// Two sessions: s1 with two turns (a call, then none), s2 with one turn of two calls.
const SESSIONS: &[u8] = br#"{"session_id": "s1", "events": [{"type": "user", "content": "a"}, {"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA"}}, {"type": "tool_result", "call_id": "c1", "status": "ok"}, {"type": "user", "content": "b"}, {"type": "assistant", "content": "ok"}]}
{"session_id": "s2", "events": [{"type": "user", "content": "c"}, {"type": "tool_use", "name": "search_docs", "args": "{\"q\": 1}"}, {"type": "tool_use", "name": "issue_refund", "args": "{bad"}]}
"#;

fuzz_target!(|bytes: &[u8]| {
    let inputs = [
        InputFile::new("sessions.jsonl", SESSIONS, Role::Traces),
        InputFile::new("labels.jsonl", bytes, Role::Labels),
    ];
    let report = analyze(&inputs, &Options::default());
    if let Some(selection) = &report.selection {
        let tp: u64 = selection.per_tool.iter().map(|row| row.tp).sum();
        let fp: u64 = selection.per_tool.iter().map(|row| row.fp).sum();
        let fn_: u64 = selection.per_tool.iter().map(|row| row.fn_).sum();
        assert_eq!(tp + fp, selection.turns);
        assert_eq!(tp + fn_, selection.turns);
    }
    assert_sound(&report);
});
