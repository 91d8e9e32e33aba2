//! The comparison view: two parts of the run (the whole, or one agent's sessions; agents in one
//! export are usually versions of one agent) compared as `toolscope diff` compares runs: each
//! metric in both with the change, its interval, the test and the verdict; the confusion cells
//! that changed as a heatmap of differences; the cases that got worse and better, each a link to
//! its place; and every metric per agent.

use leptos::prelude::*;
use toolscope_core::compare::confusion::CellChange;
use toolscope_core::compare::diff::{CaseChange, Diff, MetricDiff, MetricValue, Verdict};
use toolscope_core::gate::metric::AgentTable;

use super::table::header;
use crate::protocol::CompareSide;
use crate::state::{AppState, CompareStatus};

/// Cases listed per direction.
const CASES_SHOWN: usize = 100;

/// "*" in the route: every session.
const ALL: &str = "*";

/// "+baseline" in the route: the baseline report given beside the traces.
const BASELINE: &str = "+baseline";

fn side(name: &str) -> CompareSide {
    match name {
        ALL => CompareSide::All,
        BASELINE => CompareSide::Baseline,
        agent => CompareSide::Agent {
            agent: agent.to_string(),
        },
    }
}

/// The comparison view.
#[component]
pub fn ComparePanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let agents = move || state.agents.get();
    let has_baseline = move || {
        state.roles.with(|roles| {
            roles
                .iter()
                .any(|used| used.role == toolscope_core::Role::Baseline)
        })
    };
    // The sides: the route's, else the baseline report against every session, else the first
    // two agents (or everything against the first).
    let sides = Memo::new(move |_| {
        state
            .route
            .with(|route| route.compare.clone())
            .unwrap_or_else(|| {
                let agents = state.agents.get();
                if has_baseline() {
                    return (BASELINE.to_string(), ALL.to_string());
                }
                match agents.as_slice() {
                    [first, second, ..] => (first.clone(), second.clone()),
                    [only] => (ALL.to_string(), only.clone()),
                    [] => (ALL.to_string(), ALL.to_string()),
                }
            })
    });
    Effect::new(move |_| {
        let (base, current) = sides.get();
        if state.report.with(Option::is_some) {
            state.request_compare(side(&base), side(&current));
        }
    });
    let choose = move |is_base: bool, value: String| {
        let (mut base, mut current) = sides.get_untracked();
        if is_base {
            base = value;
        } else {
            current = value;
        }
        state
            .route
            .update(|route| route.compare = Some((base, current)));
    };
    let picker = move |is_base: bool, label: &'static str, testid: &'static str| {
        view! {
            <label class="judge-field">
                {label}
                <select
                    data-testid=testid
                    prop:value=move || { let (base, current) = sides.get(); if is_base { base } else { current } }
                    on:change=move |event| choose(is_base, event_target_value(&event))
                >
                    <option value=ALL>"every session"</option>
                    {move || has_baseline().then(|| view! { <option value=BASELINE>"the baseline report"</option> })}
                    {move || agents().into_iter().map(|agent| {
                        let label = format!("agent {agent}");
                        view! { <option value=agent>{label}</option> }
                    }).collect_view()}
                </select>
            </label>
        }
    };
    let body = move || match state.compare.get() {
        CompareStatus::Idle | CompareStatus::Running(..) => {
            view! { <p class="hint">"Comparing…"</p> }.into_any()
        }
        CompareStatus::Failed(message) => {
            view! { <p class="notice error">{message}</p> }.into_any()
        }
        CompareStatus::Ready(view) => {
            let view = (*view).clone();
            view! {
                <DiffTable diff=view.diff.clone()/>
                <ConfusionChanges cells=view.confusion.clone()/>
                <Cases title="Cases that got worse" testid="compare-worse" changes=view.diff.regressed.clone()/>
                <Cases title="Cases that got better" testid="compare-better" changes=view.diff.improved.clone()/>
                <AgentMetrics table=view.agents.clone()/>
            }
            .into_any()
        }
    };
    view! {
        <p class="hint">
            "Compare this run with another (drop its report JSON, from toolscope report --json, \
             beside the traces: the baseline report), or agents with each other (agents in one export \
             are usually versions of one agent), as toolscope diff compares two runs: sessions pair \
             by id, else yes/no metrics get the two-proportion test and Newcombe's interval and \
             ratios an unpaired bootstrap (seed 0); \"too few cases\" below 20. The filters above do \
             not apply here."
        </p>
        <div class="judge-fields">
            {picker(true, "Baseline", "compare-base")}
            {picker(false, "Compared with", "compare-current")}
        </div>
        {body}
    }
}

fn verdict_class(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Worse => "verdict-worse",
        Verdict::Better => "verdict-better",
        _ => "verdict-none",
    }
}

#[component]
fn DiffTable(diff: Diff) -> impl IntoView {
    let mut rows: Vec<MetricDiff> = diff.metrics;
    toolscope_core::sort::sort_by_key(&mut rows, |row| row.verdict.rank());
    let notes = diff.notes;
    view! {
        <h2>"Metric by metric"</h2>
        {notes.into_iter().map(|note| view! { <p class="notice" data-testid="compare-note">{note}</p> }).collect_view()}
        <p class="hint">
            {format!(
                "Baseline {} sessions, compared {} sessions, {} in both. Worse and better first.",
                diff.sessions.base, diff.sessions.current, diff.sessions.both
            )}
        </p>
        <div class="table-wrap">
            <table class="table" data-testid="compare-metrics">
                {header(&[
                    ("Metric", false), ("Baseline", true), ("Compared", true), ("Change", true),
                    ("95 % interval", true), ("Test", false), ("Verdict", false),
                ])}
                <tbody>
                    {rows.into_iter().map(|row| {
                        let test = match (row.test.as_str(), row.p_adjusted.or(row.p_value)) {
                            ("none", _) => String::new(),
                            (test, Some(p)) => format!("{test} p={p:.4}"),
                            (test, None) => test.to_string(),
                        };
                        view! {
                            <tr data-metric=row.metric.clone() class=verdict_class(row.verdict)>
                                <td><code>{row.metric.clone()}</code></td>
                                <td class="num">{metric_text(row.base)}</td>
                                <td class="num">{metric_text(row.current)}</td>
                                <td class="num">{row.difference.map(|d| format!("{d:+.3}"))}</td>
                                <td class="num">{row.interval.map(|[low, high]| format!("[{low:+.3}, {high:+.3}]"))}</td>
                                <td>{test}</td>
                                <td data-testid="verdict">{row.verdict.as_str()}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}

/// The confusion cells that changed, as a table shaded by the change (a heatmap of the
/// differences), largest first. Sides of different sizes are compared by row shares: the share
/// of the labelled tool's turns that went to each called tool, in points.
#[component]
fn ConfusionChanges(cells: Vec<CellChange>) -> impl IntoView {
    let mut totals: std::collections::BTreeMap<&str, (u64, u64)> =
        std::collections::BTreeMap::new();
    for cell in &cells {
        let total = totals.entry(cell.expected.as_str()).or_default();
        total.0 += cell.base;
        total.1 += cell.current;
    }
    let share = |count: u64, total: u64| (total > 0).then(|| count as f64 / total as f64 * 100.0);
    let mut rows: Vec<(CellChange, Option<f64>, Option<f64>, f64)> = cells
        .iter()
        .map(|cell| {
            let (base_total, current_total) = totals[cell.expected.as_str()];
            let (before, after) = (
                share(cell.base, base_total),
                share(cell.current, current_total),
            );
            let change = after.unwrap_or(0.0) - before.unwrap_or(0.0);
            (cell.clone(), before, after, change)
        })
        .filter(|(_, before, after, change)| {
            before.is_some() && after.is_some() && change.abs() >= 0.05
        })
        .collect();
    toolscope_core::sort::sort_by(&mut rows, |a, b| b.3.abs().total_cmp(&a.3.abs()));
    let largest = rows.first().map_or(1.0, |row| row.3.abs()).max(1e-9);
    (!rows.is_empty()).then(|| view! {
        <h2>"Confusion cells that changed"</h2>
        <p class="hint">
            "Per labelled tool, the share of its turns that went to each called tool on each side, \
             and the change in points, shaded: a wrong cell that grew, or a right one that shrank, \
             is what got worse. Labelled tools only one side has are left out."
        </p>
        <div class="table-wrap">
            <table class="table" data-testid="compare-confusion">
                {header(&[("Labelled", false), ("Called", false), ("Baseline", true), ("Compared", true), ("Change", true)])}
                <tbody>
                    {rows.into_iter().map(|(cell, before, after, change)| {
                        let level = ((change.abs() / largest) * 5.0).ceil().clamp(1.0, 5.0) as u8;
                        let is_bad = (cell.expected != cell.actual) == (change > 0.0);
                        let class = format!("num heat {}-{level}", if is_bad { "bad" } else { "good" });
                        let shown = |share: Option<f64>, count: u64| {
                            format!("{:.1} % ({count})", share.unwrap_or(0.0))
                        };
                        view! {
                            <tr>
                                <td><code>{cell.expected.clone()}</code></td>
                                <td><code>{cell.actual.clone()}</code></td>
                                <td class="num">{shown(before, cell.base)}</td>
                                <td class="num">{shown(after, cell.current)}</td>
                                <td class=class data-testid="cell-change">{format!("{change:+.1}")}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    })
}

#[component]
fn Cases(title: &'static str, testid: &'static str, changes: Vec<CaseChange>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let total = changes.len();
    (total > 0).then(|| view! {
        <h3>{format!("{title} ({total})")}</h3>
        <ul class="case-list" data-testid=testid>
            {changes.into_iter().take(CASES_SHOWN).map(|change| {
                let step = change
                    .case
                    .strip_prefix("call ")
                    .and_then(|rest| rest.split(' ').next())
                    .and_then(|step| step.parse::<usize>().ok());
                let session_id = change.session_id.clone();
                let label = format!("{} · {} · {}", change.session_id, change.case, change.metric);
                view! {
                    <li>
                        <button class="link" on:click=move |_| state.open_call(session_id.clone(), step)>
                            {label}
                        </button>
                    </li>
                }
            }).collect_view()}
        </ul>
        {(total > CASES_SHOWN).then(|| view! {
            <p class="hint">{format!("The first {CASES_SHOWN} of {total}.")}</p>
        })}
    })
}

fn metric_text(value: Option<MetricValue>) -> String {
    match value {
        Some(MetricValue {
            value: Some(v),
            mean_over: Some(tasks),
            ..
        }) => format!("{v:.3} ({tasks} tasks)"),
        Some(MetricValue {
            value: Some(v),
            num,
            den,
            ..
        }) => format!("{v:.3} ({num}/{den})"),
        Some(MetricValue { den, .. }) => format!("— (0/{den})"),
        None => "—".to_string(),
    }
}

#[component]
fn AgentMetrics(table: AgentTable) -> impl IntoView {
    (!table.agents.is_empty()).then(|| {
        let headers = std::iter::once(view! { <th scope="col">"Metric"</th> }.into_any())
            .chain(table.agents.iter().map(|agent| {
                view! { <th scope="col" class="num">{agent.clone()}</th> }.into_any()
            }))
            .collect_view();
        view! {
            <h2>"Every metric per agent"</h2>
            <p class="hint">"The values a gate reads (toolscope gate), one column per agent."</p>
            <div class="table-wrap">
                <table class="table" data-testid="agent-metrics">
                    <thead><tr>{headers}</tr></thead>
                    <tbody>
                        {table.rows.into_iter().map(|row| view! {
                            <tr data-metric=row.metric.clone()>
                                <td><code>{row.metric.clone()}</code></td>
                                {row.values.into_iter().map(|value| view! { <td class="num">{metric_text(value)}</td> }).collect_view()}
                            </tr>
                        }).collect_view()}
                    </tbody>
                </table>
            </div>
        }
    })
}
