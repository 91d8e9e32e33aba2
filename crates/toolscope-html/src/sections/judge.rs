//! The judge: a judge's verdicts read from a verdicts file, per criterion (passes over the
//! scored verdicts, the unscored apart by cause), per tool, against the code checks, against
//! human verdicts when given, and the verdicts themselves up to [`MAX_PROBLEM_ROWS`].

use toolscope_core::judge::calibration::Calibration;
use toolscope_core::judge::in_report::JudgeReport;
use toolscope_core::judge::summary::CriterionCounts;

use super::{cap_note, hint, number_cell, table, text_cell};
use crate::format::{decimal, interval, percent, rate_with_counts};
use crate::markup::Markup;
use crate::{MAX_PROBLEM_ROWS, MAX_TOOL_ROWS};

/// The judge section.
pub(super) fn judge(markup: &mut Markup, judge: &JudgeReport) {
    let summary = &judge.summary;
    let models = if summary.models.is_empty() {
        "no model".to_string()
    } else {
        summary.models.join(", ")
    };
    hint(
        markup,
        &format!(
            "{} verdicts on {} calls by {models}. Pass rates are over the scored verdicts only; \
             unscored verdicts (the judge gave no usable answer) are counted apart, by cause.",
            summary.verdicts, summary.calls
        ),
    );
    criteria_table(markup, &summary.criteria);
    if !summary.by_tool.is_empty() {
        markup.text_element("h3", &[], "Per tool");
        let rows: Vec<(&str, &CriterionCounts)> = summary
            .by_tool
            .iter()
            .flat_map(|row| {
                row.criteria
                    .iter()
                    .map(move |counts| (row.tool.as_str(), counts))
            })
            .collect();
        per_tool_table(markup, &rows);
    }
    code_vs_judge(markup, judge);
    if let Some(calibration) = &judge.calibration {
        markup.text_element("h3", &[], "Against human verdicts");
        calibration_table(markup, calibration);
    }
    verdicts_table(markup, judge);
}

fn criteria_table(markup: &mut Markup, rows: &[CriterionCounts]) {
    let columns = [
        ("Criterion", false),
        ("Pass rate", true),
        ("95 % interval", true),
        ("Pass", true),
        ("Fail", true),
        ("Unscored", true),
        ("Unscored by cause", false),
    ];
    table(markup, &columns, |markup| {
        for counts in rows {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], counts.criterion.as_str());
                });
                counts_cells(markup, counts);
            });
        }
    });
}

fn counts_cells(markup: &mut Markup, counts: &CriterionCounts) {
    number_cell(markup, rate_with_counts(&counts.pass_rate));
    number_cell(markup, interval(counts.pass_rate_interval));
    number_cell(markup, counts.pass);
    number_cell(markup, counts.fail);
    number_cell(markup, counts.unscored);
    text_cell(markup, &counts.unscored_causes());
}

fn per_tool_table(markup: &mut Markup, rows: &[(&str, &CriterionCounts)]) {
    let columns = [
        ("Tool", false),
        ("Criterion", false),
        ("Pass rate", true),
        ("95 % interval", true),
        ("Pass", true),
        ("Fail", true),
        ("Unscored", true),
        ("Unscored by cause", false),
    ];
    table(markup, &columns, |markup| {
        for (tool, counts) in rows.iter().take(MAX_TOOL_ROWS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], tool);
                });
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], counts.criterion.as_str());
                });
                counts_cells(markup, counts);
            });
        }
    });
    cap_note(markup, MAX_TOOL_ROWS, rows.len(), "tool and criterion rows");
}

fn code_vs_judge(markup: &mut Markup, judge: &JudgeReport) {
    if judge.code_vs_judge.criteria.is_empty() {
        return;
    }
    markup.text_element("h3", &[], "Code checks and the judge");
    hint(
        markup,
        "Judged calls by whether a code check found a problem at the call and by the judge's \
         verdict. A call with a code problem that passed right_tool or args_grounded, or a clean \
         call the judge failed, is worth reading.",
    );
    let columns = [
        ("Criterion", false),
        ("Problem, judge pass", true),
        ("Problem, judge fail", true),
        ("Clean, judge pass", true),
        ("Clean, judge fail", true),
        ("Unscored", true),
    ];
    table(markup, &columns, |markup| {
        for row in &judge.code_vs_judge.criteria {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], row.criterion.as_str());
                });
                number_cell(markup, row.problem_judge_pass);
                number_cell(markup, row.problem_judge_fail);
                number_cell(markup, row.clean_judge_pass);
                number_cell(markup, row.clean_judge_fail);
                number_cell(markup, row.judge_unscored);
            });
        }
    });
}

fn calibration_table(markup: &mut Markup, calibration: &Calibration) {
    let columns = [
        ("Criterion", false),
        ("Paired", true),
        ("Agreement", true),
        ("Majority baseline", true),
        ("Cohen's κ", true),
        ("κ 95 % interval", true),
        ("Fail precision", true),
        ("Fail recall", true),
        ("Judge pass rate", true),
        ("Corrected pass rate", true),
        ("Corrected 95 % interval", true),
    ];
    table(markup, &columns, |markup| {
        for row in &calibration.criteria {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], row.criterion.as_str());
                });
                number_cell(markup, row.paired);
                number_cell(markup, rate_with_counts(&row.agreement));
                number_cell(markup, rate_with_counts(&row.majority_baseline));
                number_cell(markup, decimal(row.kappa));
                number_cell(markup, interval(row.kappa_interval));
                number_cell(markup, rate_with_counts(&row.fail_precision));
                number_cell(markup, rate_with_counts(&row.fail_recall));
                let corrected = &row.corrected_pass_rate;
                number_cell(markup, percent(corrected.observed));
                number_cell(
                    markup,
                    corrected
                        .corrected
                        .map_or_else(|| "undefined".to_string(), |rate| percent(Some(rate))),
                );
                number_cell(markup, interval(corrected.interval));
            });
        }
    });
    let warnings = calibration.warning_lines();
    if !warnings.is_empty() {
        markup.element("ul", &[("class", "warnings")], |markup| {
            for warning in &warnings {
                markup.text_element("li", &[], warning);
            }
        });
    }
}

fn verdicts_table(markup: &mut Markup, judge: &JudgeReport) {
    markup.text_element("h3", &[], "Verdicts");
    let columns = [
        ("Session", false),
        ("Step", true),
        ("Tool", false),
        ("Criterion", false),
        ("Verdict", false),
        ("Reason", false),
    ];
    table(markup, &columns, |markup| {
        for verdict in judge.verdicts.iter().take(MAX_PROBLEM_ROWS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &verdict.session_id);
                });
                number_cell(markup, verdict.step);
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &verdict.tool);
                });
                text_cell(markup, verdict.criterion.as_str());
                text_cell(markup, &verdict.shown());
                text_cell(markup, &verdict.reason);
            });
        }
    });
    cap_note(markup, MAX_PROBLEM_ROWS, judge.verdicts.len(), "verdicts");
}
