//! Tool selection against labels: per-tool precision and recall with a "none" class, the
//! confusion matrix, and the seed 002 aggregates.
//!
//! Counting follows the seed's `selection_report`: when the label accepts the actual tool it is
//! a true positive for that tool; otherwise a false positive for the actual tool and a false
//! negative for the expected one (the first of an acceptable set).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::outcome::TurnOutcome;
use super::rate::{ratio, Rate};
use super::selection_totals::SelectionTotals;
use super::wilson::wilson_95;

/// Below this many labelled turns, a tool's numbers are flagged as too few to trust.
pub const DEFAULT_MIN_SUPPORT: u64 = 10;

/// One tool's selection numbers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolRow {
    /// The tool ("none" for no call).
    pub tool: String,
    /// Turns where it was expected and called.
    pub tp: u64,
    /// Turns where it was called but another was expected.
    pub fp: u64,
    /// Turns where it was expected but another was called.
    #[serde(rename = "fn")]
    pub fn_: u64,
    /// tp / (tp + fp), null when it was never called.
    pub precision: Option<f64>,
    /// tp / (tp + fn), null when it was never expected.
    pub recall: Option<f64>,
    /// 2 tp / (2 tp + fp + fn).
    pub f1: Option<f64>,
    /// Turns where it was expected: tp + fn.
    pub support: u64,
    /// 95 % Wilson interval of the precision.
    pub precision_ci: Option<[f64; 2]>,
    /// 95 % Wilson interval of the recall.
    pub recall_ci: Option<[f64; 2]>,
    /// Whether support is below the trust threshold.
    pub is_low_support: bool,
}

/// Expected × actual counts over the labelled turns, stored sparse: every turn can call a new
/// (hallucinated) name, so the labels can number in the thousands while most cells are zero.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Confusion {
    /// Row and column labels, sorted ("none" included); after [`Confusion::top`], the labels
    /// kept and then the one standing for the rest.
    pub labels: Vec<String>,
    /// The cells that are not zero, by row then column.
    pub cells: Vec<ConfusionCell>,
    /// The labels folded into the last one by [`Confusion::top`]; empty otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grouped: Vec<String>,
}

/// One cell of the confusion matrix that is not zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfusionCell {
    /// Row: index of the labelled tool in `labels`.
    pub expected: usize,
    /// Column: index of the tool called in `labels`.
    pub actual: usize,
    /// How many turns.
    pub count: u64,
}

impl Confusion {
    /// A matrix from its labels and any (expected, actual, count) triples, in any order, with
    /// repeats added up and zeros left out.
    pub fn from_counts(
        labels: Vec<String>,
        counts: impl IntoIterator<Item = (usize, usize, u64)>,
    ) -> Confusion {
        let mut summed: BTreeMap<(usize, usize), u64> = BTreeMap::new();
        for (expected, actual, count) in counts {
            if count > 0 {
                *summed.entry((expected, actual)).or_default() += count;
            }
        }
        let cells = summed
            .into_iter()
            .map(|((expected, actual), count)| ConfusionCell {
                expected,
                actual,
                count,
            })
            .collect();
        Confusion {
            labels,
            cells,
            grouped: Vec::new(),
        }
    }

    /// A matrix from rows of counts, `rows[expected][actual]` (zeros dropped).
    pub fn from_rows(labels: Vec<String>, rows: &[Vec<u64>]) -> Confusion {
        let counts = rows.iter().enumerate().flat_map(|(expected, row)| {
            row.iter()
                .enumerate()
                .map(move |(actual, &count)| (expected, actual, count))
        });
        Confusion::from_counts(labels, counts)
    }

    /// Turns in the cell (expected row, actual column); 0 for cells not stored.
    pub fn count(&self, expected: usize, actual: usize) -> u64 {
        self.cells
            .binary_search_by_key(&(expected, actual), |cell| (cell.expected, cell.actual))
            .map_or(0, |index| self.cells[index].count)
    }

    /// The label of the row or column that stands for the tools [`Confusion::top`] grouped.
    pub fn other_label(tools: usize) -> String {
        format!("other ({tools} tools)")
    }

    /// The same matrix with at most `keep` labels of its own: the `keep` with the most turns
    /// (as expected or called; ties by name) stay, in their order, and the rest become one
    /// last label, [`Confusion::other_label`], whose cells add theirs up and whose members are
    /// listed in `grouped`. The matrix itself when it has no more than `keep + 1` labels.
    pub fn top(&self, keep: usize) -> Confusion {
        if self.labels.len() <= keep + 1 {
            return self.clone();
        }
        let mut turns = vec![0u64; self.labels.len()];
        for cell in &self.cells {
            turns[cell.expected] += cell.count;
            turns[cell.actual] += cell.count;
        }
        let mut ranked: Vec<usize> = (0..self.labels.len()).collect();
        crate::sort::sort_by(&mut ranked, |&a, &b| {
            turns[b].cmp(&turns[a]).then(a.cmp(&b))
        });
        let mut kept = ranked[..keep].to_vec();
        kept.sort_unstable();
        let other = kept.len();
        let mut position = vec![other; self.labels.len()];
        for (new, &old) in kept.iter().enumerate() {
            position[old] = new;
        }
        let mut labels: Vec<String> = kept.iter().map(|&old| self.labels[old].clone()).collect();
        let grouped: Vec<String> = (0..self.labels.len())
            .filter(|&old| position[old] == other)
            .map(|old| self.labels[old].clone())
            .collect();
        labels.push(Confusion::other_label(grouped.len()));
        let counts = self
            .cells
            .iter()
            .map(|cell| (position[cell.expected], position[cell.actual], cell.count));
        Confusion {
            grouped,
            ..Confusion::from_counts(labels, counts)
        }
    }

    /// Every cell, zeros included, as `matrix[expected][actual]`: for small matrices only
    /// (after [`Confusion::top`]), as it takes the square of the labels.
    pub fn dense(&self) -> Vec<Vec<u64>> {
        let size = self.labels.len();
        let mut matrix = vec![vec![0; size]; size];
        for cell in &self.cells {
            if let Some(count) = matrix
                .get_mut(cell.expected)
                .and_then(|row| row.get_mut(cell.actual))
            {
                *count = cell.count;
            }
        }
        matrix
    }

    /// The turns behind the cell (`expected` row, `actual` column) of this matrix, grouped
    /// labels included: what a heatmap cell lists, and what "judge this cell" judges.
    pub fn cell_turns<'a>(
        &self,
        outcomes: &'a [TurnOutcome],
        expected: &str,
        actual: &str,
    ) -> Vec<&'a TurnOutcome> {
        outcomes
            .iter()
            .filter(|outcome| {
                self.covers(expected, &outcome.counted_as)
                    && self.covers(actual, &outcome.actual_tool)
            })
            .collect()
    }

    /// Whether a turn whose tool is `name` counts under the row or column `label`: the label
    /// itself, or the label standing for the tools [`Confusion::top`] grouped when `name` is one.
    pub fn covers(&self, label: &str, name: &str) -> bool {
        label == name
            || self.labels.last().is_some_and(|other| other == label)
                && self
                    .grouped
                    .binary_search_by(|tool| tool.as_str().cmp(name))
                    .is_ok()
    }
}

/// An off-diagonal cell: turns where `expected` was wanted and `actual` called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfusedPair {
    /// The labelled tool.
    pub expected: String,
    /// The tool called.
    pub actual: String,
    /// How many turns.
    pub count: u64,
}

/// Everything measured against labels.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Selection {
    /// Labelled turns scored.
    pub turns: u64,
    /// One row per tool, sorted by name.
    pub per_tool: Vec<ToolRow>,
    /// The confusion matrix.
    pub confusion: Confusion,
    /// Off-diagonal cells, most frequent first.
    pub confused_pairs: Vec<ConfusedPair>,
    /// Turns whose first call the label accepts.
    pub tool_accuracy: Rate,
    /// Turns with exactly the labelled arguments, out of turns whose label gives arguments.
    pub args_accuracy_exact: Rate,
    /// Turns whose arguments include the labelled ones, out of the same.
    pub args_accuracy_subset: Rate,
    /// Mean number of calls beyond the expected ones per turn.
    pub avg_extra_calls: Option<f64>,
    /// Sum of extra calls.
    pub extra_calls: u64,
    /// Sum of expected calls not made.
    pub missing_calls: u64,
    /// Turns that called a forbidden tool, out of turns whose label forbids any.
    pub should_not_call_violations: Rate,
    /// Mean of the seed's `compute_score`.
    pub mean_score: Option<f64>,
    /// Labelled task successes, out of turns whose label says.
    pub task_success: Rate,
    /// The support threshold used for `is_low_support`.
    pub min_support: u64,
    /// How labelled arguments were compared (`--args-match`): reports to merge or compare
    /// must agree on it.
    #[serde(default)]
    pub args_mode: crate::metrics::args_match::ArgsMode,
    /// Every scored turn, for drilling down from any number to its turns.
    pub outcomes: Vec<TurnOutcome>,
}

/// The seed's per-tool counting over (expected, actual) pairs: `(tp, fp, fn)` by tool.
pub fn count_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, [u64; 3]> {
    count_weighted_pairs(
        pairs
            .into_iter()
            .map(|(expected, actual)| (expected, actual, 1)),
    )
}

/// [`count_pairs`] over pairs that each stand for `count` turns.
pub(crate) fn count_weighted_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str, u64)>,
) -> BTreeMap<String, [u64; 3]> {
    let mut counts: BTreeMap<String, [u64; 3]> = BTreeMap::new();
    // Few tools, many turns: look names up borrowed and allocate each once.
    let mut add = |tool: &str, column: usize, count: u64| match counts.get_mut(tool) {
        Some(row) => row[column] += count,
        None => counts.entry(tool.to_string()).or_default()[column] += count,
    };
    for (expected, actual, count) in pairs {
        if expected == actual {
            add(expected, 0, count);
        } else {
            add(actual, 1, count);
            add(expected, 2, count);
        }
    }
    counts
}

/// One per-tool row from its counts.
pub fn tool_row(tool: &str, [tp, fp, fn_]: [u64; 3], min_support: u64) -> ToolRow {
    let support = tp + fn_;
    ToolRow {
        tool: tool.to_string(),
        tp,
        fp,
        fn_,
        precision: ratio(tp as f64, (tp + fp) as f64),
        recall: ratio(tp as f64, support as f64),
        f1: ratio(2.0 * tp as f64, (2 * tp + fp + fn_) as f64),
        support,
        precision_ci: wilson_95(tp, tp + fp),
        recall_ci: wilson_95(tp, support),
        is_low_support: support < min_support,
    }
}

/// The seed's `selection_report` printout: one line per tool, `nan` where undefined.
pub fn seed_report_lines(rows: &[ToolRow]) -> Vec<String> {
    let show = |value: Option<f64>| value.map_or_else(|| "nan".to_string(), |v| format!("{v:.2}"));
    rows.iter()
        .map(|row| {
            format!(
                "{:14} precision {}  recall {}",
                row.tool,
                show(row.precision),
                show(row.recall)
            )
        })
        .collect()
}

/// Aggregates scored turns.
pub fn summarize(outcomes: Vec<TurnOutcome>, min_support: u64) -> Selection {
    let mut totals = SelectionTotals::default();
    for outcome in &outcomes {
        totals.add(outcome);
    }
    totals.finish(outcomes, min_support)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reproduces_the_seeds_selection_report() {
        let pairs = [
            ("lookup_order", "lookup_order"),
            ("lookup_order", "search_docs"),
            ("none", "search_docs"),
            ("search_docs", "search_docs"),
            ("none", "none"),
            ("issue_refund", "issue_refund"),
        ];
        let rows: Vec<ToolRow> = count_pairs(pairs)
            .iter()
            .map(|(tool, &counts)| tool_row(tool, counts, DEFAULT_MIN_SUPPORT))
            .collect();
        assert_eq!(
            seed_report_lines(&rows),
            [
                "issue_refund   precision 1.00  recall 1.00",
                "lookup_order   precision 1.00  recall 0.50",
                "none           precision 1.00  recall 0.50",
                "search_docs    precision 0.33  recall 1.00",
            ]
        );
    }

    fn names(count: usize) -> Vec<String> {
        (0..count).map(|index| format!("t{index:02}")).collect()
    }

    #[test]
    fn cells_are_sparse_summed_and_read_back_with_zeros() {
        let confusion =
            Confusion::from_counts(names(3), [(2, 0, 1), (0, 0, 2), (2, 0, 4), (1, 2, 0)]);
        assert_eq!(confusion.cells.len(), 2, "zeros are not stored");
        assert_eq!(confusion.count(2, 0), 5);
        assert_eq!(confusion.count(1, 2), 0);
        assert_eq!(
            confusion.dense(),
            [vec![2, 0, 0], vec![0, 0, 0], vec![5, 0, 0]]
        );
    }

    #[test]
    fn top_keeps_the_busiest_labels_in_order_and_groups_the_rest() {
        // t03 and t01 have the most turns; t00, t02 and t04 are grouped.
        let confusion = Confusion::from_counts(
            names(5),
            [(3, 3, 9), (1, 3, 2), (0, 1, 1), (2, 4, 1), (4, 0, 1)],
        );
        let top = confusion.top(2);
        assert_eq!(top.labels, ["t01", "t03", "other (3 tools)"]);
        assert_eq!(top.grouped, ["t00", "t02", "t04"]);
        assert_eq!(top.dense(), [vec![0, 2, 0], vec![0, 9, 0], vec![1, 0, 2]]);
        let total = |c: &Confusion| c.cells.iter().map(|cell| cell.count).sum::<u64>();
        assert_eq!(total(&top), total(&confusion), "no turn is lost");
        assert!(top.covers("other (3 tools)", "t04") && !top.covers("other (3 tools)", "t03"));
        assert!(top.covers("t03", "t03") && !top.covers("t03", "t04"));
        assert_eq!(
            confusion.top(4),
            confusion,
            "one label more than kept: nothing to group"
        );
    }

    #[test]
    fn undefined_precision_is_null_and_prints_nan() {
        let row = tool_row("t", [0, 0, 3], 10);
        assert_eq!(row.precision, None);
        assert_eq!(row.recall, Some(0.0));
        assert_eq!(row.f1, Some(0.0));
        assert!(row.is_low_support);
        assert_eq!(
            seed_report_lines(&[row]),
            ["t              precision nan  recall 0.00"]
        );
    }
}
