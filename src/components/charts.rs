//! The selection charts. (Canvas drawing lands with the charts crate.)

use leptos::prelude::*;
use toolscope_core::metrics::selection::{Confusion, ToolRow};

use crate::state::AppState;

/// The confusion heatmap; each non-empty cell opens its turns.
#[component]
pub fn ConfusionChart(confusion: Confusion) -> impl IntoView {
    let state = expect_context::<AppState>();
    let cells: Vec<(String, String, u64)> = confusion
        .labels
        .iter()
        .enumerate()
        .flat_map(|(row, expected)| {
            let confusion = &confusion;
            confusion
                .labels
                .iter()
                .enumerate()
                .filter_map(move |(column, actual)| {
                    let count = confusion.matrix[row][column];
                    (count > 0).then(|| (expected.clone(), actual.clone(), count))
                })
        })
        .collect();
    view! {
        <ul class="cell-list" data-testid="cell-list">
            {cells
                .into_iter()
                .map(|(expected, actual, count)| {
                    let cell = (expected.clone(), actual.clone());
                    view! {
                        <li>
                            <button
                                class="link"
                                data-testid="cell"
                                data-expected=expected.clone()
                                data-actual=actual.clone()
                                on:click=move |_| {
                                    let cell = cell.clone();
                                    state.route.update(|route| route.cell = Some(cell))
                                }
                            >
                                {format!("{expected} → {actual}: {count}")}
                            </button>
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// Precision and recall per tool.
#[component]
pub fn PrecisionRecallChart(rows: Vec<ToolRow>) -> impl IntoView {
    let _ = rows;
}
