//! Findings: the report's recurring failure modes, most sessions first, each with the fix it
//! needs, its evidence, and links to where it was seen.

use leptos::prelude::*;
use toolscope_core::findings::{Example, Finding};

use crate::state::AppState;

/// Findings shown before "show all".
const SHOWN: usize = 8;

/// The findings list under the overview's cards.
#[component]
pub fn FindingsList(findings: Vec<Finding>) -> impl IntoView {
    let is_all = RwSignal::new(false);
    let total = findings.len();
    let findings = StoredValue::new(findings);
    let items = move || {
        let count = if is_all.get() { total } else { SHOWN };
        findings.with_value(|findings| {
            findings
                .iter()
                .take(count)
                .cloned()
                .map(|finding| view! { <FindingItem finding/> })
                .collect_view()
        })
    };
    view! {
        <h2>"What to fix first"</h2>
        <p class="hint">
            "Recurring failure modes across the sessions, most sessions first; each says what kind \
             of change fixes it."
        </p>
        <ol class="findings" data-testid="findings">{items}</ol>
        {(total > SHOWN).then(|| view! {
            <Show when=move || !is_all.get()>
                <button class="button small" on:click=move |_| is_all.set(true)>
                    {format!("Show all {total} findings")}
                </button>
            </Show>
        })}
    }
}

#[component]
fn FindingItem(finding: Finding) -> impl IntoView {
    let examples = finding
        .examples
        .iter()
        .cloned()
        .map(|example| view! { <li><ExampleLink example/></li> })
        .collect_view();
    view! {
        <li class="finding" data-testid="finding" data-id=finding.id.clone()>
            <span class=format!("fix fix-{}", finding.fix.as_str().replace(' ', "-"))>
                {finding.fix.as_str()}
            </span>
            <strong class="finding-title">{finding.title.clone()}</strong>
            <p class="finding-fix">{format!("Fix: {}", finding.fix_detail)}</p>
            {(!finding.evidence.is_empty()).then(|| view! {
                <ul class="finding-evidence">
                    {finding.evidence.iter().map(|line| view! { <li>{line.clone()}</li> }).collect_view()}
                </ul>
            })}
            <ul class="finding-examples" aria-label="Where it was seen">{examples}</ul>
        </li>
    }
}

/// A link to where a finding was seen: the call in its session, or the session.
#[component]
fn ExampleLink(example: Example) -> impl IntoView {
    let state = expect_context::<AppState>();
    let label = match (example.step, example.turn) {
        (Some(step), _) => format!("{} · call {step}", example.session_id),
        (None, Some(turn)) => format!("{} · turn {turn}", example.session_id),
        (None, None) => example.session_id.clone(),
    };
    let Example {
        session_id, step, ..
    } = example;
    view! {
        <button
            class="link"
            data-testid="finding-example"
            on:click=move |_| state.open_call(session_id.clone(), step)
        >
            {label}
        </button>
    }
}
