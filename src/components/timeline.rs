//! A session's events as a timeline: each turn's label, each call's arguments pretty-printed as
//! text with its code problems and its judge verdicts beside each other, and the judge's
//! evidence quotes marked in the events they come from. Every string from the trace or the
//! judge is a text node: highlighting splits text, it never builds markup from it.

use std::ops::Range;

use leptos::prelude::*;
use toolscope_core::checks::problem::Problem;
use toolscope_core::inputs::labels::Expected;
use toolscope_core::judge::evidence::FoldedText;
use toolscope_core::judge::summary::CodeJudgeSplit;
use toolscope_core::judge::{Outcome, Verdict};
use toolscope_core::metrics::outcome::TurnOutcome;
use toolscope_core::model::{event_positions, Args, Event, ResultStatus, Session};
use toolscope_core::report::rows::Subagent;

use super::nesting::subagent_link;
use crate::state::AppState;

/// What the report says about a session, beside its events.
pub struct SessionNotes<'a> {
    /// The code problems in the session.
    pub problems: &'a [Problem],
    /// The labelled turns' outcomes.
    pub outcomes: &'a [TurnOutcome],
    /// The judge's verdicts on the session's calls.
    pub verdicts: &'a [Verdict],
    /// The subagents the session started (each marked at its call).
    pub subagents: &'a [Subagent],
    /// The call to bring into view (its step).
    pub focus: Option<usize>,
}

/// A quote to mark in an event: its text and what it is evidence for.
struct Quote<'a> {
    text: &'a str,
    label: String,
}

/// The session's events, turn by turn.
pub fn events_view(session: &Session, notes: &SessionNotes) -> impl IntoView {
    let positions = event_positions(session);
    let mut last_turn = None;
    let mut items = Vec::new();
    for (index, (event, (turn, step))) in session.events.iter().zip(positions).enumerate() {
        if last_turn != Some(turn) {
            last_turn = Some(turn);
            let label = notes
                .outcomes
                .iter()
                .find(|outcome| outcome.turn == turn)
                .cloned();
            items.push(turn_header(turn, label).into_any());
        }
        let quotes = quotes_in(notes.verdicts, index);
        items.push(event_view(event, step, notes, &quotes).into_any());
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

/// The judge's quotes located in event `index`.
fn quotes_in(verdicts: &[Verdict], index: usize) -> Vec<Quote<'_>> {
    verdicts
        .iter()
        .flat_map(|verdict| {
            verdict
                .evidence
                .iter()
                .filter(move |item| item.event == Some(index))
                .map(move |item| Quote {
                    text: &item.quote,
                    label: format!(
                        "evidence for {} of call {}",
                        verdict.criterion.as_str(),
                        verdict.step
                    ),
                })
        })
        .collect()
}

fn turn_header(turn: usize, label: Option<TurnOutcome>) -> impl IntoView {
    let label_view = label.map(|outcome| {
        let expected = match &outcome.expected_tool {
            Expected::One(tool) => tool.clone(),
            Expected::AnyOf(tools) => tools.join(" or "),
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

fn event_view(
    event: &Event,
    step: Option<usize>,
    notes: &SessionNotes,
    quotes: &[Quote],
) -> impl IntoView {
    match event {
        Event::User { content } => view! {
            <li class="event user">
                <span class="who">"user"</span>
                <p class="text">{marked(content, quotes, false)}</p>
            </li>
        }
        .into_any(),
        Event::Assistant { content } => view! {
            <li class="event assistant">
                <span class="who">"assistant"</span>
                <p class="text">{marked(content, quotes, false)}</p>
            </li>
        }
        .into_any(),
        Event::ToolUse(call) => {
            let step = step.unwrap_or(0);
            let (args, is_json) = match &call.args {
                Args::Json(value) => (
                    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string()),
                    true,
                ),
                Args::Malformed { raw, error } => (format!("{raw}\n\n(not JSON: {error})"), false),
            };
            let here: Vec<&Problem> = notes
                .problems
                .iter()
                .filter(|problem| problem.step == step)
                .collect();
            let has_problems = !here.is_empty();
            let counts_against = here.iter().any(|problem| problem.kind.is_failure());
            let verdicts: Vec<&Verdict> = notes
                .verdicts
                .iter()
                .filter(|verdict| verdict.step == step)
                .collect();
            let is_focused = notes.focus == Some(step);
            let started = notes
                .subagents
                .iter()
                .filter(|subagent| subagent.call_id.is_some() && subagent.call_id == call.call_id)
                .map(|subagent| {
                    let state = expect_context::<AppState>();
                    view! { <p class="hint">"Started subagent " {subagent_link(state, subagent)}</p> }
                })
                .collect_view();
            view! {
                <li
                    class="event call"
                    class:has-problems=has_problems
                    class:focused=is_focused
                    data-testid="call"
                    data-step=step
                    id=format!("call-{step}")
                >
                    <span class="who">{format!("call {step}")}</span>
                    <span class="tool-name">{marked(&call.name, quotes, false)}</span>
                    <pre class="args">{marked(&args, quotes, is_json)}</pre>
                    <ul class="inline-problems">
                        {here
                            .into_iter()
                            .map(|problem| {
                                view! {
                                    <li class=format!("kind kind-{}", problem.kind.as_str()) data-testid="inline-problem">
                                        <strong>{problem.kind.as_str()}</strong>
                                        ": "
                                        {problem.message.clone()}
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                    {started}
                    {verdicts_view(&verdicts, counts_against)}
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
            let content = result.content.as_deref().unwrap_or_default();
            view! {
                <li class="event result" class:error=is_error>
                    <span class="who">"result"</span>
                    <span class="status">{status}</span>
                    <pre class="content">{marked(content, quotes, false)}</pre>
                </li>
            }
            .into_any()
        }
    }
}

/// A call's verdicts, each with where it and the code checks part ways.
fn verdicts_view(verdicts: &[&Verdict], counts_against: bool) -> impl IntoView {
    (!verdicts.is_empty()).then(|| {
        let items = verdicts
            .iter()
            .map(|verdict| {
                let split = CodeJudgeSplit::of(verdict.criterion, verdict.verdict, counts_against);
                let outcome = match verdict.verdict {
                    Outcome::Pass => "pass",
                    Outcome::Fail => "fail",
                    Outcome::Unscored => "unscored",
                };
                view! {
                    <li
                        class=format!("verdict verdict-{outcome}")
                        class:split=split.is_some()
                        data-testid="inline-verdict"
                        data-criterion=verdict.criterion.as_str()
                        data-verdict=outcome
                    >
                        <strong>{verdict.criterion.as_str()}</strong>
                        ": "
                        {verdict.shown()}
                        {(!verdict.reason.is_empty()).then(|| format!(" — {}", verdict.reason))}
                        {split.map(|split| view! {
                            <span class="split-note" data-testid="code-judge-split">
                                {format!(" ({})", split.message())}
                            </span>
                        })}
                    </li>
                }
            })
            .collect_view();
        view! {
            <div class="inline-verdicts">
                <span class="inline-verdicts-title">"Judge"</span>
                <ul>{items}</ul>
            </div>
        }
    })
}

/// `text` with every quote found in it marked: plain text nodes between `<mark>` elements that
/// hold text nodes, so nothing in the text or the quote is ever read as markup.
fn marked(text: &str, quotes: &[Quote], is_json: bool) -> AnyView {
    if quotes.is_empty() {
        return text.to_string().into_any();
    }
    let folded = FoldedText::new(text, is_json);
    let mut spans: Vec<(Range<usize>, &str)> = quotes
        .iter()
        .flat_map(|quote| {
            folded
                .find(quote.text)
                .into_iter()
                .map(move |range| (range, quote.label.as_str()))
        })
        .collect();
    if spans.is_empty() {
        return text.to_string().into_any();
    }
    toolscope_core::sort::sort_by_key(&mut spans, |(range, _)| {
        (range.start, std::cmp::Reverse(range.end))
    });
    let mut merged: Vec<(Range<usize>, Vec<&str>)> = Vec::new();
    for (range, label) in spans {
        match merged.last_mut() {
            Some((last, labels)) if range.start < last.end => {
                last.end = last.end.max(range.end);
                if !labels.contains(&label) {
                    labels.push(label);
                }
            }
            _ => merged.push((range, vec![label])),
        }
    }
    let mut parts = Vec::new();
    let mut at = 0;
    for (range, labels) in merged {
        if at < range.start {
            parts.push(text[at..range.start].to_string().into_any());
        }
        let title = labels.join("; ");
        parts.push(
            view! { <mark class="evidence" title=title data-testid="evidence">{text[range.clone()].to_string()}</mark> }
                .into_any(),
        );
        at = range.end;
    }
    if at < text.len() {
        parts.push(text[at..].to_string().into_any());
    }
    parts.collect_view().into_any()
}
