//! Pieces shared by the report's tables.

use leptos::prelude::*;

/// A table's header row: each column's title, numeric columns (`true`) right-aligned.
pub fn header(columns: &[(&'static str, bool)]) -> impl IntoView {
    let cells = columns
        .iter()
        .map(|&(title, is_numeric)| {
            view! {
                <th scope="col" class:num=is_numeric>
                    {title}
                </th>
            }
        })
        .collect_view();
    view! {
        <thead>
            <tr>{cells}</tr>
        </thead>
    }
}
