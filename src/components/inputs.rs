//! What was read: each file's role and format, every diagnostic (file, line, message), and the
//! differences between the tools the agent saw and the catalog file.

use leptos::prelude::*;
use toolscope_core::Severity;

use super::table::header;
use crate::state::AppState;

/// The inputs view.
#[component]
pub fn InputsView() -> impl IntoView {
    let state = expect_context::<AppState>();
    move || {
        let Some(report) = state.report.get() else {
            return ().into_any();
        };
        let diagnostics = report.diagnostics.clone();
        let drift = report.drift.clone();
        view! {
            <h2>{format!("Diagnostics ({})", diagnostics.len())}</h2>
            {if diagnostics.is_empty() {
                view! { <p data-testid="no-diagnostics">"Every record was read cleanly."</p> }
                    .into_any()
            } else {
                view! {
                    <ul class="diagnostics" data-testid="diagnostics">
                        {diagnostics
                            .into_iter()
                            .map(|diagnostic| {
                                let is_error = diagnostic.severity == Severity::Error;
                                let place = match (diagnostic.line, diagnostic.column) {
                                    (Some(line), Some(column)) => {
                                        format!("{}:{line}:{column}", diagnostic.file)
                                    }
                                    (Some(line), None) => format!("{}:{line}", diagnostic.file),
                                    _ => diagnostic.file.clone(),
                                };
                                view! {
                                    <li class="diagnostic" class:error=is_error data-testid="diagnostic">
                                        <span class="place" data-testid="diagnostic-place">{place}</span>
                                        <span class="severity">
                                            {if is_error { "error" } else { "warning" }}
                                        </span>
                                        <span class="message" data-testid="diagnostic-message">
                                            {diagnostic.message}
                                        </span>
                                    </li>
                                }
                            })
                            .collect_view()}
                    </ul>
                }
                    .into_any()
            }}
            <h2>{format!("Schema drift ({})", drift.len())}</h2>
            <p class="hint">
                "Where the tools the agent saw differ from the catalog file, checking against the "
                "catalog can give false failures."
            </p>
            {if drift.is_empty() {
                view! { <p class="hint" data-testid="no-drift">"No drift: the tools the agent saw match the catalog, or no catalog file was given."</p> }
                    .into_any()
            } else {
                view! {
                    <div class="table-wrap">
                        <table class="table" data-testid="drift">
                            {header(&[("Tool", false), ("Difference", false), ("Sessions", true), ("For example", false)])}
                            <tbody>
                                {drift
                                    .into_iter()
                                    .map(|item| {
                                        view! {
                                            <tr>
                                                <td>{item.tool}</td>
                                                <td>{item.detail}</td>
                                                <td class="num">{item.sessions}</td>
                                                <td>{item.example_session}</td>
                                            </tr>
                                        }
                                    })
                                    .collect_view()}
                            </tbody>
                        </table>
                    </div>
                }
                    .into_any()
            }}
        }
            .into_any()
    }
}
