//! What every forced-format target asserts: the bytes read as one format (so that reader runs
//! whatever detection would say) never panic, every diagnostic points at a 1-based line, and the
//! report round-trips through JSON.

use toolscope_core::formats::TraceFormat;
use toolscope_core::{analyze, InputFile, Options, Report, Role};

pub fn check_as(bytes: &[u8], format: TraceFormat) {
    for forced in [Some(format), None] {
        let inputs = [InputFile::new("traces.json", bytes, Role::Traces)];
        let options = Options {
            format: forced,
            ..Options::default()
        };
        let report = analyze(&inputs, &options);
        for diagnostic in &report.diagnostics {
            assert_ne!(diagnostic.line, Some(0), "{diagnostic}");
            assert_ne!(diagnostic.column, Some(0), "{diagnostic}");
        }
        let json = serde_json::to_string(&report).expect("the report serialises");
        let back: Report = serde_json::from_str(&json).expect("the report reads back");
        assert!(back == report, "the report round-trips through JSON");
    }
}
