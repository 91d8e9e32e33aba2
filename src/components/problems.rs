//! Every problem in a table: searchable, sortable by any column, worst sessions first by default;
//! each row opens its session at the call. Long tables show a page at a time.

use std::sync::Arc;

use leptos::prelude::*;
use toolscope_core::checks::problem::Problem;
use toolscope_core::report::csv::problems_csv;

use super::table::session_cell;
use crate::download::save;
use crate::state::AppState;

/// Rows shown at first and added by "show more".
const PAGE: usize = 200;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SortKey {
    /// The report's order: worst sessions first, then by step.
    Report,
    Session,
    Step,
    Tool,
    Kind,
    Message,
}

/// The problems table.
#[component]
pub fn ProblemsView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let search = RwSignal::new(String::new());
    let sort = RwSignal::new((SortKey::Report, false));
    let shown = RwSignal::new(PAGE);
    let rows = Memo::new(move |_| {
        let Some(report) = state.view.get() else {
            return Arc::new(Vec::new());
        };
        let needle = search.get().to_lowercase();
        let mut rows: Vec<Problem> = report
            .problems
            .iter()
            .filter(|problem| needle.is_empty() || matches(problem, &needle))
            .cloned()
            .collect();
        let (key, is_descending) = sort.get();
        sort_rows(&mut rows, key);
        if is_descending {
            rows.reverse();
        }
        Arc::new(rows)
    });
    let header = move |key: SortKey, title: &'static str, class: &'static str| {
        let indicator = move || match sort.get() {
            (current, false) if current == key => " ▲",
            (current, true) if current == key => " ▼",
            _ => "",
        };
        let aria_sort = move || match sort.get() {
            (current, false) if current == key => "ascending",
            (current, true) if current == key => "descending",
            _ => "none",
        };
        view! {
            <th scope="col" class=class aria-sort=aria_sort>
                <button
                    class="sort"
                    on:click=move |_| {
                        sort.update(|(current, is_descending)| {
                            if *current == key {
                                *is_descending = !*is_descending;
                            } else {
                                *current = key;
                                *is_descending = false;
                            }
                        })
                    }
                >
                    {title}
                    {indicator}
                </button>
            </th>
        }
    };
    let export = move |_| {
        let rows = rows.get_untracked();
        save("problems.csv", "text/csv", problems_csv(&rows).as_bytes());
    };
    view! {
        <div class="toolbar">
            <label>
                "Search "
                <input
                    type="search"
                    data-testid="problem-search"
                    placeholder="session, tool, kind or message"
                    prop:value=move || search.get()
                    on:input=move |event| {
                        search.set(event_target_value(&event));
                        shown.set(PAGE);
                    }
                />
            </label>
            <span class="count" data-testid="problem-count">
                {move || format!("{} problems", rows.get().len())}
            </span>
            <button class="button small" data-testid="export-problems-csv" on:click=export>
                "CSV"
            </button>
        </div>
        <div class="table-wrap">
            <table class="table problems" data-testid="problems-table">
                <thead>
                    <tr>
                        {header(SortKey::Session, "Session", "")}
                        {header(SortKey::Step, "Step", "num")}
                        {header(SortKey::Tool, "Tool", "")}
                        {header(SortKey::Kind, "Kind", "")}
                        {header(SortKey::Message, "Message", "")}
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        rows.get()
                            .iter()
                            .take(shown.get())
                            .map(|problem| {
                                view! {
                                    <tr data-testid="problem-row" data-kind=problem.kind.as_str()>
                                        {session_cell(problem.session_id.clone())}
                                        <td class="num">{problem.step}</td>
                                        <td>{problem.tool.clone()}</td>
                                        <td>
                                            <span class=format!("kind kind-{}", problem.kind.as_str())>
                                                {problem.kind.as_str()}
                                            </span>
                                        </td>
                                        <td class="message">{problem.message.clone()}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
        </div>
        <Show when=move || { rows.get().len() > shown.get() }>
            <button
                class="button"
                data-testid="show-more"
                on:click=move |_| shown.update(|shown| *shown += PAGE)
            >
                {move || format!("Show more ({} not shown)", rows.get().len() - shown.get())}
            </button>
        </Show>
    }
}

fn matches(problem: &Problem, needle: &str) -> bool {
    [
        problem.session_id.as_str(),
        problem.tool.as_str(),
        problem.kind.as_str(),
        problem.message.as_str(),
    ]
    .iter()
    .any(|field| field.to_lowercase().contains(needle))
}

fn sort_rows(rows: &mut [Problem], key: SortKey) {
    match key {
        SortKey::Report => {}
        SortKey::Session => rows.sort_by(|a, b| a.session_id.cmp(&b.session_id)),
        SortKey::Step => rows.sort_by_key(|problem| problem.step),
        SortKey::Tool => rows.sort_by(|a, b| a.tool.cmp(&b.tool)),
        SortKey::Kind => rows.sort_by_key(|problem| problem.kind),
        SortKey::Message => rows.sort_by(|a, b| a.message.cmp(&b.message)),
    }
}
