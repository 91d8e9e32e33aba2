//! The job's progress: a bar for loading the files and one for each engine stage, a cancel
//! button, and the failure or cancellation message.

use leptos::prelude::*;
use toolscope_core::Stage;

use crate::format::bytes;
use crate::protocol::Step;
use crate::state::{AppState, Status};

/// The progress bar with its cancel button.
#[component]
pub fn ProgressBar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let status = move || state.status.get();
    view! {
        <LoadErrors/>
        {move || match status() {
            Status::Running(step) => {
                let (label, fraction) = describe(step);
                let percent = (fraction * 100.0).round();
                view! {
                    <div class="progress" data-testid="progress" role="status">
                        <span class="progress-label">{label}</span>
                        <progress max="100" value=percent.to_string()></progress>
                        <button
                            class="button small"
                            data-testid="cancel"
                            on:click=move |_| state.cancel()
                        >
                            "Cancel"
                        </button>
                    </div>
                }
                    .into_any()
            }
            Status::Cancelled => {
                view! {
                    <p class="notice" data-testid="cancelled" role="status">
                        "Cancelled. The files are still listed: change or remove one to analyse again."
                    </p>
                }
                    .into_any()
            }
            Status::Failed(message) => {
                view! {
                    <p class="notice error" data-testid="failed" role="alert">
                        {message}
                    </p>
                }
                    .into_any()
            }
            Status::Empty | Status::Done => ().into_any(),
        }}
    }
}

fn describe(step: Option<Step>) -> (String, f64) {
    let fraction = |done: u64, total: u64| {
        if total == 0 {
            1.0
        } else {
            done as f64 / total as f64
        }
    };
    match step {
        None => ("Starting…".to_string(), 0.0),
        Some(Step::Downloading { done, total: 0 }) => {
            (format!("Downloading: {}", bytes(done)), 0.0)
        }
        Some(Step::Downloading { done, total }) => (
            format!("Downloading: {} of {}", bytes(done), bytes(total)),
            fraction(done, total),
        ),
        Some(Step::Loading { done, total }) => (
            format!("Loading files: {} of {}", bytes(done), bytes(total)),
            fraction(done, total),
        ),
        Some(Step::Reporting) => ("Preparing the report…".to_string(), 1.0),
        Some(Step::Engine(progress)) => {
            let label = match progress.stage {
                Stage::Reading => format!(
                    "Reading traces: {} of {}",
                    bytes(progress.done),
                    bytes(progress.total)
                ),
                Stage::Checking => {
                    format!("Checking sessions: {} of {}", progress.done, progress.total)
                }
                Stage::Scoring => format!(
                    "Scoring labelled turns: {} of {}",
                    progress.done, progress.total
                ),
            };
            (label, fraction(progress.done, progress.total))
        }
    }
}

/// What could not be opened from a link, a hosted file or another page; the rest loaded.
#[component]
fn LoadErrors() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <Show when=move || state.load_errors.with(|errors| !errors.is_empty())>
            <div class="notice error" role="alert" data-testid="load-errors">
                <p>"Some of the linked data could not be opened:"</p>
                <ul>
                    {move || {
                        state
                            .load_errors
                            .get()
                            .into_iter()
                            .map(|error| view! { <li data-testid="load-error">{error}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
