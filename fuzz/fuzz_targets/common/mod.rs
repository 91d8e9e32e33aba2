//! What every forced-format target asserts: the bytes read as one format (so that reader runs
//! whatever detection would say) never panic, every diagnostic points at a 1-based line, and the
//! report round-trips through JSON.

#![allow(dead_code)] // Each target uses its own part.

use toolscope_core::formats::TraceFormat;
use toolscope_core::{analyze, InputFile, Options, Report, Role};

pub fn check_as(bytes: &[u8], format: TraceFormat) {
    for forced in [Some(format), None] {
        let inputs = [InputFile::new("traces.json", bytes, Role::Traces)];
        let options = Options {
            format: forced,
            ..Options::default()
        };
        assert_sound(&analyze(&inputs, &options));
    }
}

/// What every report must be, whatever the input: each diagnostic at a 1-based line and column,
/// and the report the same after a trip through JSON (as the CLI and the page write it; NaN would
/// not read back equal).
pub fn assert_sound(report: &Report) {
    for diagnostic in &report.diagnostics {
        assert_ne!(diagnostic.line, Some(0), "{diagnostic}");
        assert_ne!(diagnostic.column, Some(0), "{diagnostic}");
    }
    let json = serde_json::to_string(report).expect("the report serialises");
    let back: Report = serde_json::from_str(&json).expect("the report reads back");
    assert!(&back == report, "the report round-trips through JSON");
}
