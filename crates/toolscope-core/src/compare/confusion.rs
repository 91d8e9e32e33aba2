//! How the confusion matrix changed between two runs: each cell's count in both, for the
//! comparison view's heatmap of differences.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::metrics::selection::Selection;

/// One cell in both runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellChange {
    /// The labelled tool (row).
    pub expected: String,
    /// The tool called first (column).
    pub actual: String,
    /// Turns in the baseline.
    pub base: u64,
    /// Turns in the current run.
    pub current: u64,
}

impl CellChange {
    /// current − base.
    pub fn difference(&self) -> i64 {
        self.current as i64 - self.base as i64
    }
}

/// Every cell that has turns in either run, by row then column.
pub fn confusion_changes(base: &Selection, current: &Selection) -> Vec<CellChange> {
    let mut cells: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    for (selection, is_current) in [(base, false), (current, true)] {
        for outcome in &selection.outcomes {
            let cell = cells
                .entry((outcome.counted_as.clone(), outcome.actual_tool.clone()))
                .or_default();
            if is_current {
                cell.1 += 1;
            } else {
                cell.0 += 1;
            }
        }
    }
    cells
        .into_iter()
        .map(|((expected, actual), (base, current))| CellChange {
            expected,
            actual,
            base,
            current,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selection(calls: &[&str]) -> Selection {
        let mut sessions = String::new();
        let mut labels = String::new();
        for (i, tool) in calls.iter().enumerate() {
            sessions.push_str(&format!(
                "{{\"session_id\": \"s{i}\", \"events\": [{{\"type\": \"user\", \"content\": \"q\"}}, {{\"type\": \"tool_use\", \"name\": \"{tool}\", \"args\": {{}}}}]}}\n"
            ));
            labels.push_str(&format!(
                "{{\"session_id\": \"s{i}\", \"turn\": 0, \"expected_tool\": \"lookup\"}}\n"
            ));
        }
        crate::test_support::report_of(&sessions, &labels)
            .selection
            .unwrap()
    }

    #[test]
    fn each_cell_in_either_run_with_both_counts() {
        let base = selection(&["lookup", "lookup", "search"]);
        let current = selection(&["lookup", "search", "search", "refund"]);
        let changes = confusion_changes(&base, &current);
        let shown: Vec<(&str, &str, u64, u64, i64)> = changes
            .iter()
            .map(|c| {
                (
                    c.expected.as_str(),
                    c.actual.as_str(),
                    c.base,
                    c.current,
                    c.difference(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("lookup", "lookup", 2, 1, -1),
                ("lookup", "refund", 0, 1, 1),
                ("lookup", "search", 1, 2, 1),
            ]
        );
    }
}
