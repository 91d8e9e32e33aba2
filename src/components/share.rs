//! The share dialog: a link that carries the data (when it fits), an encrypted file to host with
//! its link, the hosted folder for CI, and the one-file HTML report; and, in plain words, what
//! each way of sharing means for privacy.

use leptos::prelude::*;
use leptos::task::spawn_local;
use toolscope_core::share::data_link::{LinkFit, MAX_LINK_CHARS, SHORT_LINK_CHARS};
use toolscope_core::share::fragment::{HostedSource, SharedSource};
use wasm_bindgen_futures::JsFuture;

use crate::route::Route;
use crate::state::{AppState, ShareStatus};

/// Where a sealed file's link points until the user says where it is hosted.
const HOST_PLACEHOLDER: &str = "WHERE-YOU-HOST-IT";

/// The button that opens the dialog, and the dialog.
#[component]
pub fn ShareButton() -> impl IntoView {
    let state = expect_context::<AppState>();
    let is_open = RwSignal::new(false);
    let toggle = move |_| {
        let opening = !is_open.get_untracked();
        is_open.set(opening);
        if opening && needs_pack(&state) {
            state.request_pack();
        }
    };
    view! {
        <button class="button" data-testid="share-button" on:click=toggle aria-expanded=move || is_open.get().to_string()>
            "Share…"
        </button>
        <Show when=move || is_open.get()>
            <ShareDialog on_close=move || is_open.set(false)/>
        </Show>
    }
}

/// Whether the link must carry the data: the files were not opened from a link or the demo, or
/// a judge run in this page added verdicts the address alone would not bring back.
fn needs_pack(state: &AppState) -> bool {
    state.has_run_verdicts.get_untracked()
        || state
            .route
            .with_untracked(|route| route.shared.is_none() && !route.is_demo)
}

/// The page's address without its fragment.
fn page_address() -> String {
    let Some(location) = web_sys::window().map(|window| window.location()) else {
        return String::new();
    };
    let href = location.href().unwrap_or_default();
    href.split('#').next().unwrap_or_default().to_string()
}

/// The link to the current view with the data where `shared` says.
fn link_with(state: &AppState, shared: Option<SharedSource>) -> String {
    let route = state.route.with_untracked(|route| Route {
        shared: shared.or_else(|| route.shared.clone()),
        ..route.clone()
    });
    format!("{}{}", page_address(), route.to_fragment())
}

#[component]
fn ShareDialog(on_close: impl Fn() + Send + Sync + 'static) -> impl IntoView {
    let state = expect_context::<AppState>();
    let data_link = move || -> Result<String, String> {
        if !needs_pack(&state) {
            // Opened from a link or the demo: the current address opens it again.
            return Ok(link_with(&state, None));
        }
        match state.share.get() {
            ShareStatus::Packed {
                value: Some(value), ..
            } => Ok(link_with(&state, Some(SharedSource::Data(value)))),
            ShareStatus::Packed {
                value: None,
                packed_bytes,
            } => Err(format!(
                "These files are {} before compression: far too much for a link.",
                crate::format::bytes(packed_bytes)
            )),
            ShareStatus::Failed(message) => Err(message),
            _ => Err("Preparing the link…".into()),
        }
    };
    view! {
        <section class="share-dialog" role="dialog" aria-label="Share this report" data-testid="share-dialog">
            <header class="share-header">
                <h2>"Share this report"</h2>
                <button class="button small" data-testid="share-close" on:click=move |_| on_close()>
                    "Close"
                </button>
            </header>
            <p class="hint" data-testid="share-privacy">
                "This page sends nothing anywhere: sharing happens only through what you copy or download here. "
                "A link that carries the data carries the traces themselves: anyone who has the link can read "
                "them, and it cannot be taken back. An encrypted file is unreadable to the host that serves it; "
                "anyone with its full link can read it, and deleting the file revokes every link to it."
            </p>
            <Show when=move || state.has_run_verdicts.get()>
                <p class="hint" data-testid="share-run-verdicts">
                    "The link and the encrypted file also carry the verdicts of the judge runs made in \
                     this page, as one more file (judge-run-verdicts.jsonl); never the API key."
                </p>
            </Show>
            <h3>"A link with the data in it"</h3>
            {move || match data_link() {
                Ok(link) => view! { <LinkBox link=link/> }.into_any(),
                Err(message) => {
                    view! {
                        <p class="notice" data-testid="share-note">
                            {message}
                            " Share an encrypted file or a hosted folder instead (below)."
                        </p>
                    }
                        .into_any()
                }
            }}
            <h3>"An encrypted file to host"</h3>
            <SealedBox/>
            <h3>"A hosted folder, for CI"</h3>
            <p class="hint">
                <code>"toolscope bundle --out site/ --page-dir dist …"</code>
                " writes this page and the data into a folder for any static host (GitHub Pages, S3); "
                "see docs/share.md."
            </p>
        </section>
    }
}

/// A link, its length and where it fits, and a copy button; past the limit, no link at all.
#[component]
fn LinkBox(link: String) -> impl IntoView {
    let length = link.chars().count();
    let fit = LinkFit::of(length);
    let note = match fit {
        LinkFit::Short => "Short enough for any chat, email or ticket.".to_string(),
        LinkFit::Long => format!(
            "Longer than {SHORT_LINK_CHARS} characters: fine in a PR comment or a browser, but some \
             chat apps cut or refuse it."
        ),
        LinkFit::TooLong => format!(
            "Longer than {MAX_LINK_CHARS} characters, the most this page offers as a link (a GitHub \
             comment takes 65,536). Share an encrypted file or a hosted folder instead."
        ),
    };
    let copied = RwSignal::new(None::<bool>);
    let shown = (fit != LinkFit::TooLong).then(|| link.clone());
    let copy = move |_| {
        let link = link.clone();
        spawn_local(async move {
            let is_copied = match web_sys::window() {
                Some(window) => JsFuture::from(window.navigator().clipboard().write_text(&link))
                    .await
                    .is_ok(),
                None => false,
            };
            copied.set(Some(is_copied));
        });
    };
    view! {
        <p class="share-length" data-testid="share-length" data-length=length.to_string()>
            {format!("{length} characters. ")}
            <span data-testid="share-note">{note}</span>
        </p>
        {shown.map(|shown| {
            view! {
                <div class="share-row">
                    <input class="share-link" data-testid="share-link" readonly prop:value=shown/>
                    <button class="button primary" data-testid="share-copy" on:click=copy>
                        "Copy link"
                    </button>
                </div>
                {move || copied.get().map(|is_copied| if is_copied {
                    "Copied."
                } else {
                    "The browser did not let the page copy: select the link and copy it."
                })}
            }
        })}
    }
}

/// "Encrypt for hosting": downloads the sealed file, then shows its link, completed with where
/// the user hosts it.
#[component]
fn SealedBox() -> impl IntoView {
    let state = expect_context::<AppState>();
    let host_url = RwSignal::new(String::new());
    let link = move || match state.share.get() {
        ShareStatus::Sealed { key } => {
            let url = host_url.get();
            let url = if url.trim().is_empty() {
                HOST_PLACEHOLDER.to_string()
            } else {
                url.trim().to_string()
            };
            Some(link_with(
                &state,
                Some(SharedSource::Hosted {
                    sources: vec![HostedSource {
                        url,
                        sha256: None,
                        role: None,
                    }],
                    key: Some(key),
                }),
            ))
        }
        _ => None,
    };
    view! {
        <p class="hint">
            "Downloads "
            <code>"toolscope-report.tsenc"</code>
            ": the files, compressed and encrypted (AES-256-GCM) under a new key. Host it anywhere "
            "that allows CORS; the key lives only in the link's fragment, which never reaches a server."
        </p>
        <button class="button" data-testid="share-encrypt" on:click=move |_| state.request_seal()>
            "Encrypt for hosting"
        </button>
        {move || {
            link()
                .map(|link| {
                    view! {
                        <label class="share-row">
                            "Hosted at "
                            <input
                                data-testid="share-host-url"
                                placeholder="https://…/toolscope-report.tsenc"
                                prop:value=move || host_url.get()
                                on:input=move |event| host_url.set(event_target_value(&event))
                            />
                        </label>
                        <input class="share-link" data-testid="share-encrypted-link" readonly prop:value=link/>
                    }
                })
        }}
        {move || match state.share.get() {
            ShareStatus::Failed(message) => Some(view! { <p class="notice error">{message}</p> }),
            _ => None,
        }}
    }
}
