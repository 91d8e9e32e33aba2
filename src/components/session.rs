//! One session, event by event: user messages, calls with their arguments pretty-printed as text,
//! results, replies; each problem inline at its call and each turn's label beside it. Without a
//! session chosen, the sessions worst first.

use leptos::prelude::*;
use toolscope_core::checks::problem::Problem;
use toolscope_core::metrics::outcome::TurnOutcome;
use toolscope_core::metrics::task_actions::TaskOutcome;
use toolscope_core::model::{event_positions, Args, Event, ResultStatus, Session};

use super::table::{header, session_cell};
use super::tasks::session_task_view;
use crate::state::AppState;

/// Sessions listed at most in the chooser before "show more".
const PAGE: usize = 100;

/// The session view.
#[component]
pub fn SessionView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let chosen = Memo::new(move |_| state.route.with(|route| route.session_id.clone()));
    let chosen = move || chosen.get();
    Effect::new(move |_| {
        if let Some(session_id) = chosen() {
            if state.report.with(Option::is_some) {
                state.load_session(session_id);
            }
        }
    });
    move || match chosen() {
        None => view! { <SessionList/> }.into_any(),
        Some(session_id) => view! { <Timeline session_id/> }.into_any(),
    }
}

#[component]
fn SessionList() -> impl IntoView {
    let state = expect_context::<AppState>();
    let shown = RwSignal::new(PAGE);
    move || {
        let Some(report) = state.view.get() else {
            return ().into_any();
        };
        let total = report.sessions.len();
        view! {
            <p class="hint">"Sessions, worst first. Open one to see its events."</p>
            <div class="table-wrap">
                <table class="table" data-testid="session-list">
                    {header(&[("Session", false), ("Agent", false), ("Turns", true), ("Calls", true), ("Problems", true), ("Tool errors", true)])}
                    <tbody>
                        {report
                            .sessions
                            .iter()
                            .take(shown.get())
                            .map(|row| {
                                view! {
                                    <tr>
                                        {session_cell(row.session_id.clone())}
                                        <td>{row.agent_id.clone().unwrap_or_default()}</td>
                                        <td class="num">{row.turns}</td>
                                        <td class="num">{row.calls}</td>
                                        <td class="num">{row.problems}</td>
                                        <td class="num">{row.tool_errors.errors}</td>
                                    </tr>
                                }
                            })
                            .collect_view()}
                    </tbody>
                </table>
            </div>
            {(total > shown.get())
                .then(|| {
                    view! {
                        <button class="button" on:click=move |_| shown.update(|shown| *shown += PAGE)>
                            {format!("Show more ({} not shown)", total - shown.get())}
                        </button>
                    }
                })}
        }
            .into_any()
    }
}

#[component]
fn Timeline(session_id: String) -> impl IntoView {
    let state = expect_context::<AppState>();
    let back = move |_| state.route.update(|route| route.session_id = None);
    let title = session_id.clone();
    let body = move || {
        let detail = state.session.get()?;
        if detail.session_id != session_id {
            return Some(view! { <p class="hint">"Loading…"</p> }.into_any());
        }
        let Some(session) = detail.session.clone() else {
            return Some(
                view! { <p class="notice error">"There is no such session in these traces."</p> }
                    .into_any(),
            );
        };
        // Problems and labels of the whole report: a filter must not hide them inside a session.
        let (problems, outcomes, task) = state.report.with(|report| {
            report
                .as_ref()
                .map(|report| {
                    let problems: Vec<Problem> = report
                        .problems
                        .iter()
                        .filter(|problem| problem.session_id == session.session_id)
                        .cloned()
                        .collect();
                    let outcomes: Vec<TurnOutcome> = report
                        .selection
                        .iter()
                        .flat_map(|selection| &selection.outcomes)
                        .filter(|outcome| outcome.session_id == session.session_id)
                        .cloned()
                        .collect();
                    let task: Option<TaskOutcome> = report
                        .tasks
                        .iter()
                        .flat_map(|tasks| &tasks.outcomes)
                        .find(|outcome| outcome.session_id == session.session_id)
                        .cloned();
                    (problems, outcomes, task)
                })
                .unwrap_or_default()
        });
        Some(
            view! {
                {task.as_ref().map(session_task_view)}
                {events_view(&session, &problems, &outcomes)}
            }
            .into_any(),
        )
    };
    view! {
        <div class="toolbar">
            <button class="button small" data-testid="back-to-sessions" on:click=back>
                "← All sessions"
            </button>
            <h2 class="session-title" data-testid="session-title">{title}</h2>
        </div>
        {body}
    }
}

fn events_view(session: &Session, problems: &[Problem], outcomes: &[TurnOutcome]) -> impl IntoView {
    let positions = event_positions(session);
    let mut last_turn = None;
    let mut items = Vec::new();
    for (event, (turn, step)) in session.events.iter().zip(positions) {
        if last_turn != Some(turn) {
            last_turn = Some(turn);
            let label = outcomes
                .iter()
                .find(|outcome| outcome.turn == turn)
                .cloned();
            items.push(turn_header(turn, label).into_any());
        }
        items.push(event_view(event, step, problems).into_any());
    }
    let meta = format!(
        "{}{} — from {} line {}",
        session
            .agent_id
            .as_deref()
            .map(|agent| format!("agent {agent}"))
            .unwrap_or_else(|| "no agent id".to_string()),
        session
            .started_at
            .as_deref()
            .map(|at| format!(", started {at}"))
            .unwrap_or_default(),
        session.origin.file,
        session.origin.line,
    );
    view! {
        <p class="hint">{meta}</p>
        <ol class="timeline" data-testid="timeline">{items}</ol>
    }
}

fn turn_header(turn: usize, label: Option<TurnOutcome>) -> impl IntoView {
    let label_view = label.map(|outcome| {
        let expected = match &outcome.expected_tool {
            toolscope_core::inputs::labels::Expected::One(tool) => tool.clone(),
            toolscope_core::inputs::labels::Expected::AnyOf(tools) => tools.join(" or "),
        };
        let verdict = if outcome.is_correct {
            "correct"
        } else {
            "wrong"
        };
        view! {
            <span class="label" class:wrong=!outcome.is_correct data-testid="turn-label">
                {format!(
                    "label: expected {expected}, called {} ({verdict}){}",
                    outcome.actual_tool,
                    outcome
                        .args_mismatch
                        .as_ref()
                        .map(|why| format!("; arguments: {why}"))
                        .unwrap_or_default(),
                )}
            </span>
        }
    });
    view! {
        <li class="turn" data-testid="turn" data-turn=turn>
            <span class="turn-title">{format!("Turn {turn}")}</span>
            {label_view}
        </li>
    }
}

fn event_view(event: &Event, step: Option<usize>, problems: &[Problem]) -> impl IntoView {
    match event {
        Event::User { content } => view! {
            <li class="event user">
                <span class="who">"user"</span>
                <p class="text">{content.clone()}</p>
            </li>
        }
        .into_any(),
        Event::Assistant { content } => view! {
            <li class="event assistant">
                <span class="who">"assistant"</span>
                <p class="text">{content.clone()}</p>
            </li>
        }
        .into_any(),
        Event::ToolUse(call) => {
            let step = step.unwrap_or(0);
            let args = match &call.args {
                Args::Json(value) => {
                    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
                }
                Args::Malformed { raw, error } => format!("{raw}\n\n(not JSON: {error})"),
            };
            let here: Vec<Problem> = problems
                .iter()
                .filter(|problem| problem.step == step)
                .cloned()
                .collect();
            let has_problems = !here.is_empty();
            view! {
                <li class="event call" class:has-problems=has_problems data-testid="call" data-step=step>
                    <span class="who">{format!("call {step}")}</span>
                    <span class="tool-name">{call.name.clone()}</span>
                    <pre class="args">{args}</pre>
                    <ul class="inline-problems">
                        {here
                            .into_iter()
                            .map(|problem| {
                                view! {
                                    <li class=format!("kind kind-{}", problem.kind.as_str()) data-testid="inline-problem">
                                        <strong>{problem.kind.as_str()}</strong>
                                        ": "
                                        {problem.message}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                </li>
            }
            .into_any()
        }
        Event::ToolResult(result) => {
            let is_error = result.status == ResultStatus::Error;
            let status = match (is_error, result.is_status_inferred) {
                (true, true) => "error (inferred from the text)".to_string(),
                (true, false) => match result.error_source {
                    Some(source) => format!(
                        "error ({})",
                        serde_json::to_value(source)
                            .ok()
                            .and_then(|value| value.as_str().map(String::from))
                            .unwrap_or_default()
                    ),
                    None => "error".to_string(),
                },
                _ => "ok".to_string(),
            };
            view! {
                <li class="event result" class:error=is_error>
                    <span class="who">"result"</span>
                    <span class="status">{status}</span>
                    <pre class="content">{result.content.clone().unwrap_or_default()}</pre>
                </li>
            }
            .into_any()
        }
    }
}
