//! toolscope's report as one self-contained HTML file: what `toolscope report --html` writes and
//! the page's "Download HTML report" saves, byte for byte the same for the same report.
//!
//! [`render`] is a pure function of the [`Report`]: no file system, clock or randomness, maps
//! walked in their sorted order, so it runs natively and as WebAssembly and gives the same
//! bytes on both. The document holds everything it shows: an inline stylesheet (light, dark and
//! print), the confusion heatmap and the precision/recall chart as inline SVG from
//! [`toolscope_charts`]. It has no script at all, and its Content Security Policy
//! (`default-src 'none'`) forbids the browser to run one or to load anything, so even a bug here
//! could not make a shared report do more than show text.
//!
//! Every string from the traces (session and agent ids, tool names, messages, file names) is
//! escaped (`& < > " '`, with controls and bidirectional overrides made visible as the CLI shows
//! them). Long lists are cut at stated numbers ([`MAX_PROBLEM_ROWS`], [`MAX_SESSIONS`], …),
//! each with a line saying how many more the report JSON has.
//!
//! # Example
//!
//! ```
//! use toolscope_core::{analyze, InputFile, Options, Role};
//! use toolscope_html::{render, HtmlOptions};
//!
//! let calls = br#"[{"name": "lookup_order", "args": {}}, {"name": "<b>refund</b>", "args": {}}]"#;
//! let report = analyze(&[InputFile::new("calls.json", calls, Role::Traces)], &Options::default());
//! let html = render(&report, &HtmlOptions::default());
//! assert!(html.starts_with("<!doctype html>"));
//! assert!(html.contains("&lt;b&gt;refund&lt;/b&gt;") && !html.contains("<b>"));
//! assert!(!html.contains("<script"));
//! assert_eq!(html, render(&report, &HtmlOptions::default()));
//! ```

mod escape;
mod format;
mod markup;
mod sections;

use toolscope_core::Report;

use crate::markup::Markup;

/// The title when [`HtmlOptions::title`] is `None`.
pub const DEFAULT_TITLE: &str = "toolscope report";

/// Most problems listed in the problems table; the rest are counted in a note.
pub const MAX_PROBLEM_ROWS: usize = 1_000;

/// Most sessions listed (in the session list and the task actions table); the rest are counted
/// in a note.
pub const MAX_SESSIONS: usize = 2_000;

/// Most rows of each per-tool table (tools called, precision and recall per tool); the rest are
/// counted in a note. Every call can name a new (hallucinated) tool, so there can be thousands.
pub const MAX_TOOL_ROWS: usize = 1_000;

/// Most rows of the other long lists (diagnostics, schema drift); the rest are counted in a note.
pub const MAX_LIST_ROWS: usize = 1_000;

/// Most tools the precision/recall chart draws: the ones with the most labelled turns. The
/// per-tool table below it lists them all (up to [`MAX_TOOL_ROWS`]).
pub const MAX_CHART_TOOLS: usize = 30;

/// Most confused pairs listed, the most frequent first.
pub const MAX_CONFUSED_PAIRS: usize = 20;

/// What the document says about itself beyond the report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HtmlOptions {
    /// The document's title and heading; [`DEFAULT_TITLE`] when `None`.
    pub title: Option<String>,
}

/// The report as one self-contained HTML document (UTF-8, no script, nothing loaded).
///
/// Sections: the inputs, the headline numbers, problems (by kind, then each one), selection and
/// its two charts when the report has labels, task actions and schema drift when it has them,
/// diagnostics, and every session as a collapsible line. The same report and options always give
/// the same string.
pub fn render(report: &Report, page: &HtmlOptions) -> String {
    let title = page.title.as_deref().unwrap_or(DEFAULT_TITLE);
    let mut markup = Markup::new();
    sections::document(&mut markup, report, title);
    markup.finish()
}
