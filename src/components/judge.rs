//! The judge's verdicts, read from a verdicts file dropped beside the traces (no model is
//! called): per criterion passes over the scored verdicts with the unscored apart by cause, per
//! tool, the code checks beside the judge, the judge against human verdicts, and each verdict one
//! click from its session.

use leptos::prelude::*;
use toolscope_core::judge::calibration::Calibration;
use toolscope_core::judge::in_report::JudgeReport;
use toolscope_core::judge::summary::{AgreementMatrix, CriterionCounts};
use toolscope_core::judge::Verdict;

use super::table::{header, session_cell};
use crate::format::{count_of, decimal, percent};
use crate::state::AppState;

/// Verdicts listed at a time.
const VERDICT_ROWS: usize = 200;

/// The judge view.
#[component]
pub fn JudgeView() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let judge = state
            .view
            .with(|report| report.as_ref().and_then(|report| report.judge.clone()));
        match judge {
            Some(judge) => view! { <JudgeReportView judge=judge/> }.into_any(),
            None => view! {
                <p class="hint" data-testid="judge-empty">
                    "No judge verdicts: drop a verdicts file (toolscope judge --out) beside the \
                     traces, and a human verdicts file to measure the judge against."
                </p>
            }
            .into_any(),
        }
    }
}

#[component]
fn JudgeReportView(judge: JudgeReport) -> impl IntoView {
    let summary = judge.summary.clone();
    let models = if summary.models.is_empty() {
        "no model".to_string()
    } else {
        summary.models.join(", ")
    };
    view! {
        <p class="hint" data-testid="judge-summary">
            {format!(
                "{} verdicts on {} calls by {models}. Pass rates are over the scored verdicts; \
                 unscored verdicts are counted apart, by cause.",
                summary.verdicts, summary.calls
            )}
        </p>
        <CriteriaTable rows=summary.criteria.clone()/>
        <CodeVsJudge matrix=judge.code_vs_judge.clone()/>
        {judge.calibration.clone().map(|calibration| view! { <CalibrationTable calibration=calibration/> })}
        <VerdictList verdicts=judge.verdicts.clone()/>
    }
}

fn causes(counts: &CriterionCounts) -> String {
    counts
        .unscored_by_cause
        .iter()
        .map(|(cause, count)| format!("{} {count}", cause.as_str()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn interval(bounds: Option<[f64; 2]>) -> String {
    bounds.map_or_else(String::new, |[low, high]| format!("{low:.2}–{high:.2}"))
}

#[component]
fn CriteriaTable(rows: Vec<CriterionCounts>) -> impl IntoView {
    view! {
        <h2>"Per criterion"</h2>
        <div class="table-wrap">
            <table class="table" data-testid="judge-criteria">
                {header(&[
                    ("Criterion", false), ("Pass rate", true), ("Scored", true), ("95 % interval", true),
                    ("Pass", true), ("Fail", true), ("Unscored", true), ("Unscored by cause", false),
                ])}
                <tbody>
                    {rows
                        .into_iter()
                        .map(|row| {
                            view! {
                                <tr data-criterion=row.criterion.as_str()>
                                    <td><code>{row.criterion.as_str()}</code></td>
                                    <td class="num" data-testid="pass-rate">{percent(row.pass_rate.rate)}</td>
                                    <td class="num">{count_of(&row.pass_rate)}</td>
                                    <td class="num">{interval(row.pass_rate_interval)}</td>
                                    <td class="num">{row.pass}</td>
                                    <td class="num">{row.fail}</td>
                                    <td class="num" data-testid="unscored">{row.unscored}</td>
                                    <td data-testid="causes">{causes(&row)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
    }
}

#[component]
fn CodeVsJudge(matrix: AgreementMatrix) -> impl IntoView {
    (!matrix.criteria.is_empty()).then(|| {
        view! {
            <h2>"Code checks and the judge"</h2>
            <p class="hint">
                "Judged calls by whether a code check found a problem at the call and by the judge's \
                 verdict: a call with a code problem that passed right_tool or args_grounded, or a \
                 clean call the judge failed, is worth reading."
            </p>
            <div class="table-wrap">
                <table class="table" data-testid="judge-code">
                    {header(&[
                        ("Criterion", false), ("Problem, judge pass", true), ("Problem, judge fail", true),
                        ("Clean, judge pass", true), ("Clean, judge fail", true), ("Unscored", true),
                    ])}
                    <tbody>
                        {matrix
                            .criteria
                            .into_iter()
                            .map(|row| {
                                view! {
                                    <tr>
                                        <td><code>{row.criterion.as_str()}</code></td>
                                        <td class="num">{row.problem_judge_pass}</td>
                                        <td class="num">{row.problem_judge_fail}</td>
                                        <td class="num">{row.clean_judge_pass}</td>
                                        <td class="num">{row.clean_judge_fail}</td>
                                        <td class="num">{row.judge_unscored}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
        }
    })
}

#[component]
fn CalibrationTable(calibration: Calibration) -> impl IntoView {
    let warnings = calibration.warning_lines();
    view! {
        <h2>"Against human verdicts"</h2>
        <div class="table-wrap">
            <table class="table" data-testid="judge-calibration">
                {header(&[
                    ("Criterion", false), ("Paired", true), ("Agreement", true), ("Majority baseline", true),
                    ("Cohen's κ", true), ("κ 95 % interval", true), ("Fail precision", true), ("Fail recall", true),
                ])}
                <tbody>
                    {calibration
                        .criteria
                        .into_iter()
                        .map(|row| {
                            view! {
                                <tr data-criterion=row.criterion.as_str()>
                                    <td><code>{row.criterion.as_str()}</code></td>
                                    <td class="num">{row.paired}</td>
                                    <td class="num">{format!("{} ({})", percent(row.agreement.rate), count_of(&row.agreement))}</td>
                                    <td class="num">{percent(row.majority_baseline.rate)}</td>
                                    <td class="num" data-testid="kappa">{decimal(row.kappa)}</td>
                                    <td class="num">{interval(row.kappa_interval)}</td>
                                    <td class="num">{percent(row.fail_precision.rate)}</td>
                                    <td class="num">{percent(row.fail_recall.rate)}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        <ul class="notice-list" data-testid="judge-warnings">
            {warnings.into_iter().map(|warning| view! { <li>{warning}</li> }).collect_view()}
        </ul>
    }
}

#[component]
fn VerdictList(verdicts: Vec<Verdict>) -> impl IntoView {
    let total = verdicts.len();
    view! {
        <h2>"Verdicts"</h2>
        <div class="table-wrap">
            <table class="table" data-testid="judge-verdicts">
                {header(&[
                    ("Session", false), ("Step", true), ("Tool", false), ("Criterion", false),
                    ("Verdict", false), ("Reason", false),
                ])}
                <tbody>
                    {verdicts
                        .into_iter()
                        .take(VERDICT_ROWS)
                        .map(|verdict| {
                            let shown = verdict.shown();
                            view! {
                                <tr data-testid="judge-verdict">
                                    {session_cell(verdict.session_id.clone())}
                                    <td class="num">{verdict.step}</td>
                                    <td><code>{verdict.tool.clone()}</code></td>
                                    <td>{verdict.criterion.as_str()}</td>
                                    <td>{shown}</td>
                                    <td>{verdict.reason.clone()}</td>
                                </tr>
                            }
                        })
                        .collect_view()}
                </tbody>
            </table>
        </div>
        {(total > VERDICT_ROWS).then(|| view! {
            <p class="hint">{format!("The first {VERDICT_ROWS} of {total} verdicts; the report JSON has every one.")}</p>
        })}
    }
}
