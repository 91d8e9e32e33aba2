//! The report: everything toolscope found, as one serialisable value. The CLI prints it as JSON
//! (`toolscope report --json`) and the page renders it; both come from [`crate::analyze`].
//! Its JSON is documented in docs/report-json.md.

mod counted;
pub mod csv;
mod detail;
mod possible;
mod read;
mod renamed_files;
pub mod rows;
mod summary;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

pub use detail::{Omitted, SUMMARY_DIAGNOSTICS, SUMMARY_FINDINGS};
pub use possible::{ImpossibleReport, MAX_CALLS_PER_REPORT_BYTE};
pub use read::{read_report, ReadReportError};
pub(crate) use summary::CheckRows;
pub use summary::{
    summarize_checks, summarize_sessions, KindCount, SessionSummary, Summary, ToolUsage,
};

use crate::checks::problem::Problem;
use crate::diagnostic::Diagnostic;
use crate::drift::DriftItem;
use crate::formats::TraceFormat;
use crate::input::Role;
use crate::metrics::selection::Selection;
use crate::metrics::task_actions::TaskActions;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The engine version that made it.
    pub toolscope_version: String,
    /// Each input file, what it was read as, and how much it held.
    pub inputs: Vec<InputSummary>,
    /// The headline numbers.
    pub summary: Summary,
    /// Every problem: worst sessions first, then by step.
    pub problems: Vec<Problem>,
    /// Every session's numbers, worst first.
    pub sessions: Vec<SessionSummary>,
    /// Per tool: calls, problems, errors.
    pub tools: Vec<ToolUsage>,
    /// Selection against labels, when labels were given.
    pub selection: Option<Selection>,
    /// Task actions against task labels, when any were given.
    pub tasks: Option<TaskActions>,
    /// Differences between the tools the agent saw and the catalog file.
    pub drift: Vec<DriftItem>,
    /// Problems with the input itself.
    pub diagnostics: Vec<Diagnostic>,
    /// A judge's verdicts and their measures, when a verdicts or human verdicts file was given
    /// (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub judge: Option<crate::judge::in_report::JudgeReport>,
    /// Repeated trials of tasks and their pass^k and pass@k, when sessions name their task and
    /// have a reward (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trials: Option<crate::metrics::trials::Trials>,
    /// What went wrong across sessions, grouped and ranked, each with its fix (absent when
    /// nothing did).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<crate::findings::Finding>,
    /// Only in a summary report (`report --json --summary`): how many entries of each per-item
    /// list were left out; those lists are empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub omitted: Option<Omitted>,
}

impl Report {
    /// Writes the report as `toolscope report --json` prints it (and the page downloads it):
    /// pretty JSON and a final newline.
    ///
    /// The JSON writer makes a call per token, so it writes into a buffer of its own type, and
    /// `out` (often a `&mut dyn Write`, where each call is an indirect one) gets 64 kB at a time;
    /// each line's indentation is one write (`json::pretty`), the same bytes as serde_json's.
    pub fn write_json<W: std::io::Write>(&self, out: W) -> std::io::Result<()> {
        self.write_json_as(out, false)
    }

    /// [`Report::write_json`], or with `is_compact` on one line without indentation
    /// (`report --json --compact`): the same JSON value in about 60 % of the bytes, quicker to
    /// write and to read.
    pub fn write_json_as<W: std::io::Write>(
        &self,
        out: W,
        is_compact: bool,
    ) -> std::io::Result<()> {
        use std::io::Write;
        let mut out = std::io::BufWriter::with_capacity(64 << 10, out);
        if is_compact {
            serde_json::to_writer(&mut out, self)
        } else {
            crate::json::pretty::to_writer_pretty(&mut out, self)
        }
        .map_err(std::io::Error::from)?;
        writeln!(out)?;
        out.flush()
    }
}

/// One input file as read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InputSummary {
    /// The file's name.
    pub file: String,
    /// Its role.
    pub role: Role,
    /// For traces: the detected format.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub format: Option<TraceFormat>,
    /// Why that format (or role) was chosen.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub reason: Option<String>,
    /// What was read: sessions, labels, tools or rules, by name.
    pub counts: BTreeMap<String, u64>,
}

impl InputSummary {
    /// Records how many `what` were read.
    pub fn count(&mut self, what: &str, how_many: usize) {
        self.counts.insert(what.to_string(), how_many as u64);
    }

    /// Records how many `what` were read, when there were any.
    pub fn count_any(&mut self, what: &str, how_many: usize) {
        if how_many > 0 {
            self.count(what, how_many);
        }
    }
}
