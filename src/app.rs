//! The root component.

use leptos::prelude::*;

/// The whole page. For now: what toolscope is and which engine version the page runs.
#[component]
pub fn App() -> impl IntoView {
    view! {
        <main class="app">
            <header class="app-header">
                <h1>"toolscope"</h1>
                <p class="app-version">
                    "engine v" <span data-testid="version">{toolscope_core::VERSION}</span>
                </p>
            </header>
            <p data-testid="description">
                "Check the tool calls in your agent's traces and measure how well it picks its "
                "tools. Everything runs in this page: your traces never leave your machine."
            </p>
        </main>
    }
}
