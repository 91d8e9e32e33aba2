//! The worker's side of the comparison view: two parts of the kept analysis compared with the
//! core's `diff`, as `toolscope diff` compares two runs.

use toolscope_core::compare::confusion::confusion_changes;
use toolscope_core::compare::diff::{diff, DiffOptions};
use toolscope_core::gate::metric::agent_table;
use toolscope_core::{Analysis, Filter, Report};

use crate::protocol::{CompareSide, CompareView};

/// The comparison of `current` against `base`, as compact JSON, or why there is none.
pub fn compare(
    analysis: &Analysis,
    base: &CompareSide,
    current: &CompareSide,
) -> Result<String, String> {
    let report_of = |side: &CompareSide| -> Result<Report, String> {
        Ok(match side {
            CompareSide::All => analysis.report().clone(),
            CompareSide::Agent { agent } => analysis.filtered(&Filter {
                agent: Some(agent.clone()),
                ..Filter::default()
            }),
            CompareSide::Baseline => analysis.baseline().cloned().ok_or(
                "no baseline report: drop a report JSON (toolscope report --json) of the other \
                 run beside the traces",
            )?,
        })
    };
    let (before, after) = (report_of(base)?, report_of(current)?);
    let confusion = match (&before.selection, &after.selection) {
        (Some(before), Some(after)) => confusion_changes(before, after),
        _ => Vec::new(),
    };
    let view = CompareView {
        diff: diff(&before, &after, &DiffOptions::default()),
        confusion,
        agents: agent_table(analysis.report()),
    };
    Ok(serde_json::to_string(&view).expect("a comparison serialises"))
}
