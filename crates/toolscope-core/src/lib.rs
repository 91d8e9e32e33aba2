//! toolscope's engine: bytes of exported agent traces (and optional tool catalogs, ordering rules
//! and labels) in, one [`Report`] out. No file system, no clock, no network: the same code runs
//! natively in the `toolscope` CLI and as WebAssembly in the page, so both give the same numbers
//! for the same input.
//!
//! ```
//! use toolscope_core::{analyze, InputFile, Options, Role};
//!
//! let tools = br#"{"lookup_order": {"type": "object", "required": ["order_id"]}}"#;
//! let calls = br#"[{"name": "lookup_order", "args": {}}, {"name": "refund_order", "args": {}}]"#;
//! let report = analyze(
//!     &[
//!         InputFile::new("tools.json", tools, Role::Catalog),
//!         InputFile::new("calls.json", calls, Role::Traces),
//!     ],
//!     &Options::default(),
//! );
//! let lines: Vec<String> = report.problems.iter().map(|p| p.seed_line()).collect();
//! assert_eq!(lines, [
//!     "step 1: lookup_order: \"order_id\" is a required property",
//!     "step 2: unknown tool 'refund_order'",
//! ]);
//!
//! // The report JSON, byte for byte what `toolscope report --json` prints for these files (and
//! // the page, the Python package and the npm package give for them).
//! let mut json = Vec::new();
//! report.write_json(&mut json).unwrap();
//! let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
//! assert_eq!(value["summary"]["problems"], 2);
//! ```
//!
//! Where to start: [`analyze`] for one report from whole files, [`Analysis`] to keep the sessions
//! behind it (filtered reports, one session's events), [`detect_role`] to tell a trace file from
//! a catalog or labels, [`report::Report`] and its parts for what comes out (documented key by
//! key in the repository's `docs/report-json.md`), [`compare`] and [`gate`] to compare runs,
//! [`merge`] to put reports of parts together. Input problems never fail an analysis: they are
//! [`Diagnostic`]s in the report (file, 1-based line and column, message), and the rest loads.

mod analysis;
mod analyze;
mod analyze_inputs;
mod analyze_read;
mod analyze_stream;
mod analyze_tasks;
pub mod checks;
pub mod compare;
pub mod diagnostic;
pub mod drift;
pub mod findings;
pub mod formats;
pub mod gate;
pub mod hashing;
mod input;
pub mod inputs;
pub mod json;
pub mod judge;
pub mod merge;
pub mod metrics;
pub mod model;
pub mod report;
mod role;
pub mod secret;
pub mod share;
pub mod shown;
pub mod sort;
#[cfg(test)]
mod test_support;

pub use analysis::{Analysis, Filter, Progress, Stage};
pub use analyze::analyze;
pub use analyze_read::{
    analyze_read, analyze_read_without_rows, read_analysis, read_report_under, visit_sessions,
    ReadAnalysis, Source,
};
pub use diagnostic::{Diagnostic, Severity};
pub use input::{InputFile, Options, ReadError, Role, MAX_FILE_BYTES};
pub use report::Report;
pub use role::{detect_role, detect_role_of_start, ROLE_PROBE_BYTES};

// The README's example compiles and runs as a doctest too.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// This engine's version, shown by the page and the CLI.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
