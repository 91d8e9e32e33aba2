//! Any bytes as four files at once, cut at the first three 0xFF bytes (never in UTF-8 text): a
//! catalog, ordering rules, traces and labels. This reaches what no single reader does: schemas
//! compiled and checked against calls, ordering rules over a session's calls, "did you mean" for
//! unknown names, labels matched to many calls in a turn, and the confusion matrix. Asserts as
//! every target does (no panic, 1-based locations, the report round-trips through JSON) and that
//! each labelled turn is counted once; run it with `-timeout=1` so that an input which makes the
//! analysis slow is a finding too.

#![no_main]

mod common;

use common::assert_sound;
use libfuzzer_sys::fuzz_target;
use toolscope_core::{analyze, InputFile, Options, Role};

fuzz_target!(|bytes: &[u8]| {
    let mut parts = bytes.splitn(4, |&byte| byte == 0xFF);
    let mut next = || parts.next().unwrap_or_default();
    let (catalog, rules, traces, labels) = (next(), next(), next(), next());
    let inputs = [
        InputFile::new("tools.json", catalog, Role::Catalog),
        InputFile::new("rules.json", rules, Role::Rules),
        InputFile::new("traces.jsonl", traces, Role::Traces),
        InputFile::new("labels.jsonl", labels, Role::Labels),
    ];
    let report = analyze(&inputs, &Options::default());
    if let Some(selection) = &report.selection {
        let counted: u64 = selection.confusion.cells.iter().map(|cell| cell.count).sum();
        assert_eq!(counted, selection.turns, "each labelled turn is in one cell");
    }
    assert_sound(&report);
});
