//! Getting files in: drop them anywhere, pick them, paste JSON, or load the demo; then see each
//! file's role (detected or chosen), what was read from it, and remove or re-assign it.

use leptos::ev;
use leptos::prelude::*;
use leptos::task::spawn_local;
use toolscope_core::formats::TraceFormat;
use toolscope_core::Role;
use web_sys::{Blob, DragEvent, FileList, HtmlInputElement};

use crate::format::bytes;
use crate::state::{AppState, Status};

/// The demo files shipped in `public/demo/` (made by `toolscope-gen`).
const DEMO_FILES: [&str; 4] = ["tools.json", "rules.json", "sessions.jsonl", "labels.jsonl"];

/// The roles a user can choose, as (value, label).
const ROLES: [(Role, &str); 7] = [
    (Role::Traces, "traces"),
    (Role::Catalog, "tool catalog"),
    (Role::Rules, "ordering rules"),
    (Role::Labels, "labels"),
    (Role::Verdicts, "judge verdicts"),
    (Role::HumanVerdicts, "human verdicts"),
    (Role::Baseline, "baseline report"),
];

/// Loads the demo set in place of any files.
pub fn load_demo(state: AppState) {
    spawn_local(async move {
        let mut files = Vec::new();
        for name in DEMO_FILES {
            match fetch_blob(&format!("demo/{name}")).await {
                Ok(blob) => files.push((name.to_string(), blob)),
                Err(message) => {
                    state.status.set(Status::Failed(format!(
                        "could not load the demo's {name}: {message}"
                    )));
                    return;
                }
            }
        }
        state.replace_files(files);
        // After the files: giving files forgets where earlier ones came from.
        state.route.update(|route| route.is_demo = true);
    });
}

async fn fetch_blob(url: &str) -> Result<Blob, String> {
    let response = gloo_net::http::Request::get(url)
        .send()
        .await
        .map_err(|error| error.to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {}", response.status()));
    }
    let bytes = response.binary().await.map_err(|error| error.to_string())?;
    Ok(gloo_file::Blob::new(bytes.as_slice()).into())
}

fn files_of(list: Option<FileList>) -> Vec<(String, Blob)> {
    let Some(list) = list else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|index| list.get(index))
        .map(|file| (file.name(), file.into()))
        .collect()
}

/// The loading panel.
#[component]
pub fn Loader() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Nested elements fire enter/leave pairs: count them so the overlay does not flicker.
    let drag_depth = RwSignal::new(0i32);
    let _ = window_event_listener(ev::dragenter, move |event: DragEvent| {
        event.prevent_default();
        drag_depth.update(|depth| *depth += 1);
    });
    let _ = window_event_listener(ev::dragleave, move |_| {
        drag_depth.update(|depth| *depth = (*depth - 1).max(0));
    });
    let _ = window_event_listener(ev::dragover, move |event: DragEvent| {
        event.prevent_default()
    });
    let _ = window_event_listener(ev::drop, move |event: DragEvent| {
        event.prevent_default();
        drag_depth.set(0);
        let files = files_of(event.data_transfer().and_then(|data| data.files()));
        state.add_files(files);
    });

    let on_pick = move |event: ev::Event| {
        let input: HtmlInputElement = event_target(&event);
        let files = files_of(input.files());
        // Reset, so that picking the same file again is a change too.
        input.set_value("");
        state.add_files(files);
    };

    let pasted = RwSignal::new(String::new());
    let paste_count = StoredValue::new(0u32);
    let add_pasted = move |_| {
        let text = pasted.get_untracked();
        if text.trim().is_empty() {
            return;
        }
        let count = paste_count.get_value() + 1;
        paste_count.set_value(count);
        let blob: Blob = gloo_file::Blob::new(text.as_str()).into();
        pasted.set(String::new());
        state.add_files(vec![(format!("pasted-{count}.json"), blob)]);
    };

    view! {
        <section class="loader" aria-label="Input files">
            <div class="drop-overlay" class:visible=move || { drag_depth.get() > 0 } aria-hidden="true">
                "Drop trace, catalog, rules or label files"
            </div>
            <div class="loader-actions">
                <label class="button primary file-button">
                    "Choose files…"
                    <input
                        type="file"
                        multiple
                        class="visually-hidden"
                        data-testid="file-input"
                        on:change=on_pick
                    />
                </label>
                <span class="hint">"or drop them anywhere on the page"</span>
                <button class="button" data-testid="demo-button" on:click=move |_| load_demo(state)>
                    "Try the demo"
                </button>
                <details class="paste">
                    <summary>"Paste JSON"</summary>
                    <textarea
                        data-testid="paste-input"
                        rows="6"
                        placeholder="Paste traces, a tool catalog, rules or labels (JSON or JSON Lines)"
                        prop:value=move || pasted.get()
                        on:input=move |event| pasted.set(event_target_value(&event))
                    ></textarea>
                    <button class="button" data-testid="paste-add" on:click=add_pasted>
                        "Add"
                    </button>
                </details>
            </div>
            <FileList/>
            <FormatChoice/>
        </section>
        <Show when=move || state.files.with(Vec::is_empty)>
            <Guide/>
        </Show>
    }
}

/// Each file with its role and what was read from it.
#[component]
fn FileList() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <ul class="file-list" data-testid="file-list">
            <For
                each=move || state.files.get()
                key=|file| (file.key, file.role)
                children=move |file| {
                    let key = file.key;
                    let name = file.name.clone();
                    let chosen = file.role;
                    let summary = {
                        let name = name.clone();
                        move || describe(&state, &name)
                    };
                    let on_role = move |event: ev::Event| {
                        let value = event_target_value(&event);
                        let role = ROLES
                            .iter()
                            .find(|(role, _)| role_value(*role) == value)
                            .map(|(role, _)| *role);
                        state.set_role(key, role);
                    };
                    view! {
                        <li class="file" data-testid="file-row">
                            <span class="file-name" data-testid="file-name">{name.clone()}</span>
                            <span class="file-size">{bytes(file.size)}</span>
                            <span class="file-summary" data-testid="file-summary">{summary}</span>
                            <label class="file-role">
                                <span class="visually-hidden">{format!("Role of {name}")}</span>
                                <select data-testid="role-select" on:change=on_role>
                                    <option value="" selected=chosen.is_none()>
                                        "detect"
                                    </option>
                                    {ROLES
                                        .iter()
                                        .map(|(role, label)| {
                                            view! {
                                                <option
                                                    value=role_value(*role)
                                                    selected=chosen == Some(*role)
                                                >
                                                    {*label}
                                                </option>
                                            }
                                        })
                                        .collect_view()}
                                </select>
                            </label>
                            <button
                                class="button small"
                                data-testid="remove-file"
                                aria-label=format!("Remove {name}")
                                on:click=move |_| state.remove_file(key)
                            >
                                "Remove"
                            </button>
                        </li>
                    }
                }
            />
        </ul>
    }
}

fn role_value(role: Role) -> &'static str {
    role.as_str()
}

/// "labels, 824 turns" / "traces (toolscope sessions), 300 sessions", with the role's reason.
fn describe(state: &AppState, name: &str) -> String {
    let Some(used) = state
        .roles
        .with(|roles| roles.iter().find(|used| used.file == name).cloned())
    else {
        return "…".to_string();
    };
    let role = ROLES
        .iter()
        .find(|(role, _)| *role == used.role)
        .map_or("?", |(_, label)| *label);
    let input = state.report.with(|report| {
        report.as_ref().and_then(|report| {
            report
                .inputs
                .iter()
                .find(|input| input.file == name)
                .cloned()
        })
    });
    let mut text = role.to_string();
    if let Some(input) = input {
        if let Some(format) = input.format {
            text.push_str(&format!(" ({})", format.name()));
        }
        for (what, count) in &input.counts {
            let what = if what == "labels" {
                "turns"
            } else {
                what.as_str()
            };
            text.push_str(&format!(", {count} {what}"));
        }
    }
    text.push_str(&format!(" — {}", used.reason));
    text
}

/// The trace format: detected per file from the content, or one the user names for every trace
/// file (the CLI's `--format`).
#[component]
fn FormatChoice() -> impl IntoView {
    let state = expect_context::<AppState>();
    let chosen = move || state.options.with(|options| options.format);
    let on_change = move |event: ev::Event| {
        let format = TraceFormat::from_name(&event_target_value(&event));
        state.options.update(|options| options.format = format);
        state.analyze();
    };
    view! {
        <Show when=move || state.files.with(|files| !files.is_empty())>
            <label class="format-choice">
                "Trace format "
                <select data-testid="format-select" on:change=on_change>
                    <option value="" selected=move || chosen().is_none()>
                        "detect from each file's content"
                    </option>
                    {TraceFormat::ALL
                        .into_iter()
                        .map(|format| {
                            view! {
                                <option value=format.name() selected=move || chosen() == Some(format)>
                                    {format.name()}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
            </label>
        </Show>
    }
}

/// What the page reads, for someone who has not dropped anything yet.
#[component]
fn Guide() -> impl IntoView {
    let kinds: [(&str, &str, &str); 4] = [
        (
            "Traces",
            "toolscope sessions, OpenAI Chat Completions and Responses logs, Anthropic Messages, \
             Gemini, OpenTelemetry GenAI and OpenInference (Phoenix) spans, Langfuse exports, \
             Inspect logs (.json and .eval), BFCL questions and answers, τ-bench runs.",
            r#"{"session_id": "s1", "events": [{"type": "tool_use", "name": "lookup_order", "args": {...}}]}"#,
        ),
        (
            "Tool catalog",
            "The JSON Schema of each tool's arguments: OpenAI or Anthropic tool lists, MCP \
             tools/list, or an object of tool name to schema.",
            r#"{"lookup_order": {"type": "object", "required": ["order_id"]}}"#,
        ),
        (
            "Ordering rules",
            "Tools that must come after others, optionally for the same argument values.",
            r#"{"must_come_after": {"issue_refund": ["lookup_order"]}}"#,
        ),
        (
            "Labels",
            "JSON Lines: the tool each turn should have called (or a set, or \"none\"), and \
             optionally its arguments.",
            r#"{"session_id": "s1", "turn": 0, "expected_tool": "lookup_order"}"#,
        ),
    ];
    view! {
        <section class="guide" aria-label="What you can drop here" data-testid="guide">
            <div class="guide-grid">
            {kinds
                .into_iter()
                .map(|(title, text, example)| {
                    view! {
                        <div class="guide-item">
                            <h2>{title}</h2>
                            <p class="hint">{text}</p>
                            <code class="guide-example">{example}</code>
                        </div>
                    }
                })
                .collect_view()}
            </div>
            <p class="guide-note hint">
                "Files are read in this page, in WebAssembly; nothing is uploaded. Roles and formats "
                "are detected from the content, and every number the page shows is what "
                <code>"toolscope report --json"</code>
                " gives for the same files."
            </p>
        </section>
    }
}
