//! The filters (agent, tool, problem kind) that apply to every view, kept in the URL.

use leptos::ev;
use leptos::prelude::*;
use toolscope_core::checks::problem::ProblemKind;

use crate::state::AppState;

/// The filter bar.
#[component]
pub fn Filters() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tools = move || {
        state.report.with(|report| {
            report
                .as_ref()
                .map(|report| {
                    let mut tools: Vec<String> = report
                        .tools
                        .iter()
                        .map(|usage| usage.tool.clone())
                        .collect();
                    if let Some(selection) = &report.selection {
                        for label in &selection.confusion.labels {
                            if !tools.contains(label) {
                                tools.push(label.clone());
                            }
                        }
                    }
                    toolscope_core::sort::sort(&mut tools);
                    tools
                })
                .unwrap_or_default()
        })
    };
    let agent = move || state.route.with(|route| route.filter.agent.clone());
    let tool = move || state.route.with(|route| route.filter.tool.clone());
    let kind = move || {
        state
            .route
            .with(|route| route.filter.kind.map(ProblemKind::as_str))
    };
    let set_agent = move |event: ev::Event| {
        let value = event_target_value(&event);
        state
            .route
            .update(|route| route.filter.agent = (!value.is_empty()).then_some(value));
    };
    let set_tool = move |event: ev::Event| {
        let value = event_target_value(&event);
        state
            .route
            .update(|route| route.filter.tool = (!value.is_empty()).then_some(value));
    };
    let set_kind = move |event: ev::Event| {
        let value = event_target_value(&event);
        state.route.update(|route| {
            route.filter.kind = ProblemKind::ALL
                .into_iter()
                .find(|kind| kind.as_str() == value)
        });
    };
    let is_filtered = move || state.route.with(|route| !route.filter.is_empty());
    view! {
        <div class="filters" role="group" aria-label="Filters">
            <label>
                "Agent "
                <select data-testid="filter-agent" on:change=set_agent>
                    <option value="" selected=move || agent().is_none()>"all"</option>
                    {move || options(state.agents.get(), agent())}
                </select>
            </label>
            <label>
                "Tool "
                <select data-testid="filter-tool" on:change=set_tool>
                    <option value="" selected=move || tool().is_none()>"all"</option>
                    {move || options(tools(), tool())}
                </select>
            </label>
            <label>
                "Problem "
                <select data-testid="filter-kind" on:change=set_kind>
                    <option value="" selected=move || kind().is_none()>"all"</option>
                    {ProblemKind::ALL
                        .into_iter()
                        .map(|option| {
                            view! {
                                <option
                                    value=option.as_str()
                                    selected=move || kind() == Some(option.as_str())
                                >
                                    {option.as_str()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
            <Show when=is_filtered>
                <button
                    class="button small"
                    data-testid="clear-filters"
                    on:click=move |_| state.route.update(|route| route.filter = Default::default())
                >
                    "Clear filters"
                </button>
            </Show>
        </div>
    }
}

/// One `<option>` per name, the chosen one selected.
fn options(names: Vec<String>, chosen: Option<String>) -> impl IntoView {
    names
        .into_iter()
        .map(|name| {
            let is_selected = chosen.as_deref() == Some(name.as_str());
            view! {
                <option value=name.clone() selected=is_selected>
                    {name.clone()}
                </option>
            }
        })
        .collect_view()
}
