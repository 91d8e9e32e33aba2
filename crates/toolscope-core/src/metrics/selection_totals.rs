//! The selection metrics counted one scored turn at a time: [`super::selection::summarize`]
//! counts a report's outcomes with it, and a report made without its rows counts each outcome as
//! it is scored and keeps only those the findings read.

use std::collections::BTreeMap;

use super::outcome::TurnOutcome;
use super::rate::{ratio, Rate};
use super::selection::{
    count_weighted_pairs, tool_row, ConfusedPair, Confusion, Selection, ToolRow,
};

/// What the selection metrics count, so far.
#[derive(Debug, Default)]
pub(crate) struct SelectionTotals {
    /// Turns by the tool they count under, then the tool called.
    pairs: BTreeMap<String, BTreeMap<String, u64>>,
    turns: u64,
    correct: u64,
    with_args: u64,
    args_exact: u64,
    args_subset: u64,
    extra_calls: u64,
    missing_calls: u64,
    violating: u64,
    forbidding: u64,
    /// Scores are whole tenths: summing tenths keeps the mean free of rounding (three perfect
    /// turns average exactly 0.8).
    score_tenths: u64,
    task_successes: u64,
    task_outcomes: u64,
}

impl SelectionTotals {
    pub(crate) fn add(&mut self, outcome: &TurnOutcome) {
        // Few tools, many turns: look names up borrowed and allocate each once.
        let row = match self.pairs.get_mut(outcome.counted_as.as_str()) {
            Some(row) => row,
            None => self.pairs.entry(outcome.counted_as.clone()).or_default(),
        };
        match row.get_mut(outcome.actual_tool.as_str()) {
            Some(count) => *count += 1,
            None => {
                row.insert(outcome.actual_tool.clone(), 1);
            }
        }
        self.turns += 1;
        self.correct += u64::from(outcome.is_correct);
        self.with_args += u64::from(outcome.args_exact.is_some());
        self.args_exact += u64::from(outcome.args_exact == Some(true));
        self.args_subset += u64::from(outcome.args_subset == Some(true));
        self.extra_calls += outcome.extra.len() as u64;
        self.missing_calls += outcome.missing.len() as u64;
        self.violating += u64::from(!outcome.should_not_call_violations.is_empty());
        self.forbidding += u64::from(!outcome.should_not_call.is_empty());
        self.score_tenths += (outcome.score * 10.0).round() as u64;
        self.task_successes += u64::from(outcome.task_success == Some(true));
        self.task_outcomes += u64::from(outcome.task_success.is_some());
    }

    /// Turns counted.
    pub(crate) fn turns(&self) -> u64 {
        self.turns
    }

    /// The metrics, with `outcomes` as the report's list of scored turns.
    pub(crate) fn finish(self, outcomes: Vec<TurnOutcome>, min_support: u64) -> Selection {
        let counts = count_weighted_pairs(self.pairs.iter().flat_map(|(expected, row)| {
            row.iter()
                .map(|(actual, &count)| (expected.as_str(), actual.as_str(), count))
        }));
        let per_tool: Vec<ToolRow> = counts
            .iter()
            .map(|(tool, &counts)| tool_row(tool, counts, min_support))
            .collect();
        let labels: Vec<String> = counts.keys().cloned().collect();
        let index: BTreeMap<&str, usize> = crate::sort::collect_by_insert(
            counts
                .keys()
                .enumerate()
                .map(|(i, tool)| (tool.as_str(), i)),
        );
        let cells = self.pairs.iter().flat_map(|(expected, row)| {
            row.iter()
                .map(|(actual, &count)| (index[expected.as_str()], index[actual.as_str()], count))
        });
        let confusion = Confusion::from_counts(labels, cells.collect::<Vec<_>>());
        let mut confused_pairs: Vec<ConfusedPair> = confusion
            .cells
            .iter()
            .filter(|cell| cell.expected != cell.actual)
            .map(|cell| ConfusedPair {
                expected: confusion.labels[cell.expected].clone(),
                actual: confusion.labels[cell.actual].clone(),
                count: cell.count,
            })
            .collect();
        crate::sort::sort_by(&mut confused_pairs, |a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| (&a.expected, &a.actual).cmp(&(&b.expected, &b.actual)))
        });
        let turns = self.turns;
        Selection {
            turns,
            tool_accuracy: Rate::new(self.correct, turns),
            args_accuracy_exact: Rate::new(self.args_exact, self.with_args),
            args_accuracy_subset: Rate::new(self.args_subset, self.with_args),
            avg_extra_calls: ratio(self.extra_calls as f64, turns as f64),
            extra_calls: self.extra_calls,
            missing_calls: self.missing_calls,
            should_not_call_violations: Rate::new(self.violating, self.forbidding),
            mean_score: ratio(self.score_tenths as f64, 10.0 * turns as f64),
            task_success: Rate::new(self.task_successes, self.task_outcomes),
            per_tool,
            confusion,
            confused_pairs,
            min_support,
            args_mode: Default::default(),
            outcomes,
        }
    }
}
