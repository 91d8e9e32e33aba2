//! Any bytes as a traces file: format detection, the JSON reading steps and every trace reader
//! (native sessions, seed calls, eval cases) must never panic, every diagnostic must point at a
//! 1-based line, and the report must survive JSON.

#![no_main]

use libfuzzer_sys::fuzz_target;
use toolscope_core::{analyze, InputFile, Options, Report, Role};

fuzz_target!(|bytes: &[u8]| {
    let inputs = [InputFile::new("traces.jsonl", bytes, Role::Traces)];
    let report = analyze(&inputs, &Options::default());
    for diagnostic in &report.diagnostics {
        assert_ne!(diagnostic.line, Some(0), "{diagnostic}");
        assert_ne!(diagnostic.column, Some(0), "{diagnostic}");
    }
    // As the CLI and the page do with every report; NaN would not read back equal.
    let json = serde_json::to_string(&report).expect("the report serialises");
    let back: Report = serde_json::from_str(&json).expect("the report reads back");
    assert!(back == report, "the report round-trips through JSON");
});
