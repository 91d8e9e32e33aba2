//! Selection against labels: the headline rates, the confusion heatmap and the precision/recall
//! chart (inline SVG from toolscope-charts), the per-tool table and the most confused pairs.

use toolscope_charts::{heatmap_svg, precision_recall_svg, HeatmapStyle, PrStyle, HEATMAP_TOOLS};
use toolscope_core::metrics::selection::{Selection, ToolRow};

use super::{cap_note, figures, hint, number_cell, table, Figure};
use crate::format::{decimal, interval, rate_with_counts};
use crate::markup::Markup;
use crate::{MAX_CHART_TOOLS, MAX_CONFUSED_PAIRS, MAX_TOOL_ROWS};

/// The selection section.
pub(super) fn selection(markup: &mut Markup, selection: &Selection) {
    figures(markup, &headline(selection));
    confusion_heatmap(markup, selection);
    precision_recall_chart(markup, selection);
    per_tool_table(markup, selection);
    confused_pairs(markup, selection);
    hint(
        markup,
        "Each labelled turn's outcome (the tools called, whether the arguments matched and why \
         not) is in the report JSON.",
    );
}

/// The rates as the page's cards show them.
fn headline(selection: &Selection) -> Vec<Figure> {
    vec![
        Figure::new(
            "Tool accuracy",
            rate_with_counts(&selection.tool_accuracy),
            format!("{} labelled turns", selection.turns),
        ),
        Figure::new(
            "Arguments exact",
            rate_with_counts(&selection.args_accuracy_exact),
            "of turns whose label gives arguments",
        ),
        Figure::new(
            "Arguments subset",
            rate_with_counts(&selection.args_accuracy_subset),
            "every labelled key present with an equal value",
        ),
        Figure::new(
            "Forbidden tool called",
            rate_with_counts(&selection.should_not_call_violations),
            "",
        ),
        Figure::new(
            "Task success",
            rate_with_counts(&selection.task_success),
            "",
        ),
        Figure::new(
            "Extra / missing calls",
            format!("{} / {}", selection.extra_calls, selection.missing_calls),
            format!("{} extra per turn", decimal(selection.avg_extra_calls)),
        ),
        Figure::new(
            "Mean score",
            decimal(selection.mean_score),
            format!("over {} turns", selection.turns),
        ),
    ]
}

fn confusion_heatmap(markup: &mut Markup, selection: &Selection) {
    markup.text_element("h3", &[], "Confusion matrix");
    hint(
        markup,
        "Rows: the labelled tool; columns: the tool called first; each cell counts turns.",
    );
    let svg = heatmap_svg(&selection.confusion, &HeatmapStyle::default());
    chart(
        markup,
        "heatmap",
        "Confusion matrix of labelled against called tools; the per-tool table has the same \
         counts.",
        &svg,
    );
    let grouped = selection.confusion.top(HEATMAP_TOOLS).grouped.len();
    if grouped > 0 {
        markup.element("p", &[("class", "cap-note")], |markup| {
            markup.text_fmt(format_args!(
                "The {HEATMAP_TOOLS} tools with the most turns have a row and a column of their \
                 own; the other {grouped} share the last row and column. The report JSON lists \
                 every cell."
            ));
        });
    }
}

fn precision_recall_chart(markup: &mut Markup, selection: &Selection) {
    markup.text_element("h3", &[], "Precision and recall per tool");
    markup.element("p", &[("class", "hint")], |markup| {
        markup.text_fmt(format_args!(
            "Circles: precision; squares: recall; whiskers: 95 % Wilson intervals. Hollow \
             markers: fewer than {} labelled turns, too few to trust.",
            selection.min_support
        ));
    });
    let rows = chart_rows(&selection.per_tool);
    let svg = precision_recall_svg(&rows, &PrStyle::default());
    chart(
        markup,
        "precision-recall",
        "Precision and recall per tool with 95 % Wilson intervals; the per-tool table below has \
         the same numbers.",
        &svg,
    );
    if rows.len() < selection.per_tool.len() {
        markup.element("p", &[("class", "cap-note")], |markup| {
            markup.text_fmt(format_args!(
                "The chart shows the {} tools with the most labelled turns; the other {} are in \
                 the table below.",
                rows.len(),
                selection.per_tool.len() - rows.len()
            ));
        });
    }
}

/// At most [`MAX_CHART_TOOLS`] rows: the ones with the most support (ties by name), kept in
/// the table's order (by name).
fn chart_rows(per_tool: &[ToolRow]) -> Vec<ToolRow> {
    if per_tool.len() <= MAX_CHART_TOOLS {
        return per_tool.to_vec();
    }
    let mut ranked: Vec<usize> = (0..per_tool.len()).collect();
    toolscope_core::sort::sort_by(&mut ranked, |&a, &b| {
        per_tool[b]
            .support
            .cmp(&per_tool[a].support)
            .then_with(|| per_tool[a].tool.cmp(&per_tool[b].tool))
    });
    let mut kept = ranked[..MAX_CHART_TOOLS].to_vec();
    kept.sort_unstable();
    kept.into_iter().map(|row| per_tool[row].clone()).collect()
}

/// A chart in a figure, labelled for screen readers.
fn chart(markup: &mut Markup, name: &'static str, label: &str, svg: &str) {
    markup.element(
        "figure",
        &[
            ("class", "chart"),
            ("data-chart", name),
            ("role", "img"),
            ("aria-label", label),
        ],
        |markup| markup.chart_svg(svg),
    );
}

fn per_tool_table(markup: &mut Markup, selection: &Selection) {
    markup.text_element("h3", &[], "Per tool");
    let columns = [
        ("Tool", false),
        ("TP", true),
        ("FP", true),
        ("FN", true),
        ("Precision", true),
        ("95 % interval", true),
        ("Recall", true),
        ("95 % interval", true),
        ("F1", true),
        ("Support", true),
    ];
    table(markup, &columns, |markup| {
        for row in selection.per_tool.iter().take(MAX_TOOL_ROWS) {
            let tool = row.tool.as_str();
            let attributes: &[_] = if row.is_low_support {
                &[("data-tool", tool), ("class", "low-support")]
            } else {
                &[("data-tool", tool)]
            };
            markup.element("tr", attributes, |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &row.tool);
                    if row.is_low_support {
                        markup.text(" (low support)");
                    }
                });
                number_cell(markup, row.tp);
                number_cell(markup, row.fp);
                number_cell(markup, row.fn_);
                number_cell(markup, decimal(row.precision));
                number_cell(markup, interval(row.precision_ci));
                number_cell(markup, decimal(row.recall));
                number_cell(markup, interval(row.recall_ci));
                number_cell(markup, decimal(row.f1));
                number_cell(markup, row.support);
            });
        }
    });
    cap_note(markup, MAX_TOOL_ROWS, selection.per_tool.len(), "tools");
}

fn confused_pairs(markup: &mut Markup, selection: &Selection) {
    if selection.confused_pairs.is_empty() {
        return;
    }
    markup.text_element("h3", &[], "Most confused");
    let columns = [("Expected", false), ("Called", false), ("Turns", true)];
    table(markup, &columns, |markup| {
        for pair in selection.confused_pairs.iter().take(MAX_CONFUSED_PAIRS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &pair.expected);
                });
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &pair.actual);
                });
                number_cell(markup, pair.count);
            });
        }
    });
    cap_note(
        markup,
        MAX_CONFUSED_PAIRS,
        selection.confused_pairs.len(),
        "confused pairs",
    );
}
