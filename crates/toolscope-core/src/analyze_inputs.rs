//! Reading the inputs that are not traces (catalogs, rules, labels, verdicts, a baseline
//! report), shared by [`crate::analyze`]'s two paths: the one that keeps the sessions and the
//! one that streams them (`analyze_stream`).

use std::collections::BTreeMap;
use std::ops::Range;

use crate::diagnostic::{grouped, Diagnostic};
use crate::input::{InputFile, Role, MAX_FILE_BYTES};
use crate::inputs::catalog::read_catalog_file;
use crate::inputs::labels::{read_labels_file, Label};
use crate::inputs::rules::{read_rules_file, Rules};
use crate::inputs::task_labels::TaskLabel;
use crate::judge::verdict_file::{
    merge_verdicts, read_human_verdicts, read_verdicts, HumanVerdict,
};
use crate::judge::Verdict;
use crate::model::ToolDef;
use crate::report::{read_report, InputSummary, ReadReportError, Report};

/// Everything read from the inputs that are not traces.
#[derive(Debug, Default)]
pub(crate) struct Gathered<'a> {
    pub(crate) catalog_tools: Vec<ToolDef>,
    pub(crate) catalog_files: Vec<&'a str>,
    pub(crate) rules: Rules,
    pub(crate) labels: Vec<Label>,
    pub(crate) tasks: Vec<TaskLabel>,
    pub(crate) verdicts: Vec<Verdict>,
    pub(crate) human_verdicts: Vec<HumanVerdict>,
    /// Each verdicts file, the range of its verdicts, and whether they are human.
    pub(crate) verdict_files: Vec<(&'a str, Range<usize>, bool)>,
    pub(crate) baseline: Option<Box<Report>>,
}

impl<'a> Gathered<'a> {
    /// Reads `input` (any role but traces), counting what it held in `summary`.
    pub(crate) fn read(
        &mut self,
        input: &InputFile<'a>,
        summary: &mut InputSummary,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        match input.role {
            Role::Traces => unreachable!("traces are read by the caller"),
            Role::Catalog => {
                let tools = read_catalog_file(input.name, input.bytes, diagnostics);
                summary.count("tools", tools.len());
                self.catalog_tools.extend(tools);
                self.catalog_files.push(input.name);
            }
            Role::Rules => {
                let read = read_rules_file(input.name, input.bytes, diagnostics);
                summary.counts.insert(
                    "rules".into(),
                    read.must_come_after.values().map(|p| p.len() as u64).sum(),
                );
                self.rules.merge(read);
            }
            Role::Labels => {
                let read = read_labels_file(input.name, input.bytes, diagnostics);
                summary.count("labels", read.turns.len());
                summary.count_any("task labels", read.tasks.len());
                self.labels.extend(read.turns);
                self.tasks.extend(read.tasks);
            }
            Role::Verdicts => {
                let read = read_verdicts(input.name, input.bytes, diagnostics);
                summary.count("verdicts", read.len());
                let start = self.verdicts.len();
                let replaced = merge_verdicts(&mut self.verdicts, read);
                if replaced > 0 {
                    diagnostics.push(Diagnostic::warning(
                        input.name,
                        None,
                        format!(
                            "{} of its verdicts replace an earlier file's on the same calls, \
                             criteria, model and template (the later file's are used)",
                            grouped(replaced as u64)
                        ),
                    ));
                }
                self.verdict_files
                    .push((input.name, start..self.verdicts.len(), false));
            }
            // Someone else may have written it: refused unless possible, like `diff`'s.
            Role::Baseline => match read_report(input.bytes) {
                Ok(report) => {
                    summary.count("baseline sessions", report.sessions.len());
                    if self.baseline.is_some() {
                        diagnostics.push(Diagnostic::warning(
                            input.name,
                            None,
                            "a second baseline report: this one is compared with, not the earlier",
                        ));
                    }
                    self.baseline = Some(Box::new(report));
                }
                Err(error @ ReadReportError::Impossible(_)) => {
                    diagnostics.push(Diagnostic::error(input.name, None, error.to_string()))
                }
                Err(_) => diagnostics.push(Diagnostic::error(
                    input.name,
                    None,
                    format!(
                        "a toolscope report JSON that cannot be read ({}); make it again with \
                         this version's toolscope report --json",
                        // What serde says is wrong, where.
                        serde_json::from_slice::<Report>(input.bytes)
                            .err()
                            .map_or_else(String::new, |error| error.to_string())
                    ),
                )),
            },
            Role::HumanVerdicts => {
                let read = read_human_verdicts(input.name, input.bytes, diagnostics);
                summary.count("human verdicts", read.len());
                let start = self.human_verdicts.len();
                self.human_verdicts.extend(read);
                self.verdict_files
                    .push((input.name, start..self.human_verdicts.len(), true));
            }
        }
    }
}

impl InputSummary {
    /// An input's summary before anything was read from it.
    pub(crate) fn of(input: &InputFile<'_>) -> InputSummary {
        InputSummary {
            file: input.name.to_string(),
            role: input.role,
            format: None,
            reason: None,
            counts: BTreeMap::new(),
        }
    }
}

/// Whether `input` is over [`MAX_FILE_BYTES`], saying so: then it is not read.
pub(crate) fn refuse_too_large(input: &InputFile<'_>, diagnostics: &mut Vec<Diagnostic>) -> bool {
    if !input.is_too_large() {
        return false;
    }
    let size = input.size.max(input.bytes.len() as u64);
    let size = if size == u64::MAX {
        "longer (it goes on past that)".to_string()
    } else {
        format!("{size} bytes ({})", byte_size(size))
    };
    diagnostics.push(Diagnostic::error(
        input.name,
        None,
        format!(
            "toolscope reads files of up to {MAX_FILE_BYTES} bytes ({}); this one is {size}, \
             so it was not read",
            byte_size(MAX_FILE_BYTES)
        ),
    ));
    true
}

/// A size in bytes as people read it: `1.5 GiB`, `900.0 MiB`, `12 bytes`.
pub(crate) fn byte_size(bytes: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}
