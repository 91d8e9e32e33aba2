//! `toolscope diff` as text: one line per metric (those that changed first), then the cases
//! that got worse and better.

use std::path::Path;

use anyhow::Result;
use toolscope_core::compare::diff::{CaseChange, Diff, MetricDiff, MetricValue};
use toolscope_core::diagnostic::grouped;

use super::terminal::stdout;

/// Cases listed per direction before "… and N more".
const CASES_SHOWN: usize = 20;

/// Prints the comparison of `current` against `base`.
pub fn print_diff(diff: &Diff, base: &Path, current: &Path) -> Result<()> {
    let mut out = stdout();
    out.line(format_args!(
        "base: {} ({} sessions); current: {} ({} sessions); {} in both",
        base.display(),
        grouped(diff.sessions.base),
        current.display(),
        grouped(diff.sessions.current),
        grouped(diff.sessions.both),
    ))?;
    out.line(format_args!(
        "bootstrap seed {}, {} resamples; a verdict needs {} cases; significance level {}",
        diff.options.seed,
        grouped(diff.options.resamples as u64),
        diff.options.min_cases,
        diff.options.alpha,
    ))?;
    for note in &diff.notes {
        out.line(format_args!("note: {note}"))?;
    }
    out.line("")?;
    let mut rows: Vec<&MetricDiff> = diff.metrics.iter().collect();
    rows.sort_by_key(|row| row.verdict.rank());
    let table: Vec<[String; 7]> = rows.iter().map(|row| cells(row)).collect();
    let header = [
        "metric".to_string(),
        "base".to_string(),
        "current".to_string(),
        "change".to_string(),
        interval_title(diff.options.alpha),
        "test, p".to_string(),
        "verdict".to_string(),
    ];
    let mut widths = header.clone().map(|title| title.chars().count());
    for cells in &table {
        for (width, cell) in widths.iter_mut().zip(cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    for cells in std::iter::once(&header).chain(&table) {
        let line: Vec<String> = cells
            .iter()
            .zip(widths)
            .map(|(cell, width)| format!("{cell:width$}"))
            .collect();
        out.line(line.join("  ").trim_end())?;
    }
    for (title, changes) in [("worse", &diff.regressed), ("better", &diff.improved)] {
        out.line("")?;
        cases(&mut out, title, changes)?;
    }
    if !diff.only_in_base.is_empty() || !diff.only_in_current.is_empty() {
        out.line("")?;
        out.line(format_args!(
            "sessions only in the baseline: {}; only in the current run: {} (counted apart, never as passes)",
            grouped(diff.only_in_base.len() as u64),
            grouped(diff.only_in_current.len() as u64),
        ))?;
    }
    out.flush()?;
    Ok(())
}

fn cells(row: &MetricDiff) -> [String; 7] {
    let value = |value: Option<MetricValue>| {
        value.map_or_else(
            || "—".to_string(),
            |value| match value.value {
                Some(rate) => format!("{rate:.3} ({}/{})", value.num, value.den),
                None => format!("— (0/{})", value.den),
            },
        )
    };
    let change = row
        .difference
        .map_or_else(String::new, |difference| format!("{difference:+.3}"));
    let interval = row.interval.map_or_else(String::new, |[low, high]| {
        format!("[{low:+.3}, {high:+.3}]")
    });
    let test = match (row.test.as_str(), row.p_adjusted.or(row.p_value)) {
        ("none", _) => String::new(),
        (test, Some(p)) => format!(
            "{test} p={}{}",
            p_text(p),
            if row.p_adjusted.is_some() {
                " (Holm)"
            } else {
                ""
            }
        ),
        (test, None) => test.to_string(),
    };
    [
        row.metric.clone(),
        value(row.base),
        value(row.current),
        change,
        interval,
        test,
        row.verdict.as_str().to_string(),
    ]
}

fn p_text(p: f64) -> String {
    if p < 0.0001 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

fn cases<W: std::io::Write>(
    out: &mut super::terminal::Lines<W>,
    title: &str,
    changes: &[CaseChange],
) -> Result<()> {
    out.line(format_args!(
        "cases {title}: {}",
        grouped(changes.len() as u64)
    ))?;
    for change in changes.iter().take(CASES_SHOWN) {
        out.line(format_args!(
            "  {}  {}  {}",
            change.session_id, change.case, change.metric
        ))?;
    }
    if changes.len() > CASES_SHOWN {
        out.line(format_args!(
            "  … and {} more (--json lists every one)",
            grouped((changes.len() - CASES_SHOWN) as u64)
        ))?;
    }
    Ok(())
}

/// The interval column's title: its level, 1 − α, as a percentage (`95 % interval` at α = 0.05).
fn interval_title(alpha: f64) -> String {
    let percent = format!("{:.2}", (1.0 - alpha) * 100.0);
    let percent = percent.trim_end_matches('0').trim_end_matches('.');
    format!("{percent} % interval")
}

#[cfg(test)]
mod interval_title_tests {
    use super::interval_title;

    #[test]
    fn the_interval_column_names_the_level_alpha_gives() {
        assert_eq!(interval_title(0.05), "95 % interval");
        assert_eq!(interval_title(0.01), "99 % interval");
        assert_eq!(interval_title(0.2), "80 % interval");
        assert_eq!(interval_title(0.025), "97.5 % interval");
    }
}
