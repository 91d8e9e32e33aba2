//! Loading hosted files named by a link (`#src=…`) or by a hosted folder's manifest: fetched
//! with no credentials, cookies or referrer, capped in size while they stream in, refused when a
//! redirect changes the scheme; a manifest's files are fetched in turn. What may be fetched and
//! every message are the core's (`toolscope_core::share::hosted`); the checks of digests and the
//! opening of sealed files happen in the worker. A source that fails is named in the page's load
//! errors and the others still load.

use js_sys::{Reflect, Uint8Array};
use leptos::prelude::*;
use leptos::task::spawn_local;
use toolscope_core::share::fragment::HostedSource;
use toolscope_core::share::open::list_manifest;
use toolscope_core::share::{hosted, manifest, MAX_HOSTED_BYTES};
use url::Url;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    ReadableStreamDefaultReader, ReferrerPolicy, RequestCredentials, RequestInit, RequestMode,
    RequestRedirect, Response,
};

use crate::protocol::HostedFile;
use crate::state::AppState;

/// A fetched file: the URL it ended at and its bytes.
struct Fetched {
    url: String,
    bytes: Vec<u8>,
}

/// Fetches the sources (relative URLs against the page), follows a manifest among them, and
/// hands everything fetched to the worker to check and open.
pub fn load(state: AppState, sources: Vec<HostedSource>, key: Option<String>) {
    spawn_local(async move {
        let job = state.start_download();
        let Some(base) = page_base() else {
            state
                .load_errors
                .set(vec!["this page has no base URL".into()]);
            return;
        };
        let mut files: Vec<(HostedFile, web_sys::Blob)> = Vec::new();
        let mut errors = Vec::new();
        let mut done = 0u64;
        for source in sources {
            let url = match hosted::resolve(&source.url, &base) {
                Ok(url) => url,
                Err(error) => {
                    errors.push(error.to_string());
                    continue;
                }
            };
            let fetched = match fetch_bounded(&state, job, &url, &mut done).await {
                Ok(fetched) => fetched,
                Err(message) => {
                    errors.push(message);
                    continue;
                }
            };
            if !state.is_current(job) {
                return;
            }
            if manifest::is_manifest(&fetched.bytes) {
                let files_listed =
                    open_manifest(&state, job, &source, &fetched, &mut done, &mut errors).await;
                files.extend(files_listed);
            } else {
                files.push((
                    HostedFile {
                        name: hosted::file_name(&url),
                        url: url.to_string(),
                        role: source.role,
                        sha256: source.sha256.clone(),
                    },
                    to_blob(&fetched.bytes),
                ));
            }
        }
        if !state.is_current(job) {
            return;
        }
        state.load_errors.set(errors);
        state.open_hosted(job, files, key);
    });
}

/// The files a manifest lists, fetched relative to it (`share::open::list_manifest`, as
/// `toolscope open` reads them); its title and options are taken.
async fn open_manifest(
    state: &AppState,
    job: u32,
    source: &HostedSource,
    fetched: &Fetched,
    done: &mut u64,
    errors: &mut Vec<String>,
) -> Vec<(HostedFile, web_sys::Blob)> {
    let listed = match list_manifest(source, &fetched.url, &fetched.bytes) {
        Ok(listed) => listed,
        Err(message) => {
            errors.push(message);
            return Vec::new();
        }
    };
    state.title.set(listed.manifest.title.clone());
    if let Some(options) = listed.manifest.options {
        state.options.set(options);
    }
    let mut files = Vec::new();
    for listed_file in listed.files {
        let (file, url) = match listed_file {
            Ok(listed_file) => listed_file,
            Err(message) => {
                errors.push(message);
                continue;
            }
        };
        match fetch_bounded(state, job, &url, done).await {
            Ok(bytes) => files.push((
                HostedFile {
                    name: file.name,
                    url: file.url,
                    role: file.role,
                    sha256: file.sha256,
                },
                to_blob(&bytes.bytes),
            )),
            Err(message) => errors.push(message),
        }
        if !state.is_current(job) {
            break;
        }
    }
    files
}

/// The page's base URL (where relative links resolve).
fn page_base() -> Option<String> {
    web_sys::window()?.document()?.base_uri().ok().flatten()
}

/// The hosted folder's manifest named by the page itself (`toolscope bundle` writes
/// `<meta name="toolscope-manifest" content="…">`), if any.
pub fn bundled_manifest() -> Option<String> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector("meta[name=\"toolscope-manifest\"]")
        .ok()??;
    meta.get_attribute("content")
        .filter(|content| !content.is_empty())
}

/// Downloads `url` with no credentials, counting bytes against [`MAX_HOSTED_BYTES`] as they
/// arrive; every failure is the message the user sees.
async fn fetch_bounded(
    state: &AppState,
    job: u32,
    url: &Url,
    done: &mut u64,
) -> Result<Fetched, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = match JsFuture::from(
        window.fetch_with_str_and_init(url.as_str(), &init(RequestMode::Cors)),
    )
    .await
    {
        Ok(response) => response.unchecked_into::<Response>(),
        Err(_) => {
            // The browser does not say why (CORS or no host): a request that needs no CORS
            // tells the two apart, and reads nothing.
            let is_reachable = JsFuture::from(
                window.fetch_with_str_and_init(url.as_str(), &init(RequestMode::NoCors)),
            )
            .await
            .is_ok();
            let origin = window.location().origin().unwrap_or_default();
            return Err(hosted::network_message(url.as_str(), &origin, is_reachable));
        }
    };
    hosted::check_redirect(url, &response.url()).map_err(|error| error.to_string())?;
    if !response.ok() {
        return Err(hosted::status_message(url.as_str(), response.status()));
    }
    let announced = response
        .headers()
        .get("content-length")
        .ok()
        .flatten()
        .and_then(|length| length.trim().parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_HOSTED_BYTES) {
        return Err(hosted::too_large_message(url.as_str()));
    }
    let total = announced.map_or(0, |length| *done + length);
    let Some(body) = response.body() else {
        return Ok(Fetched {
            url: response.url(),
            bytes: Vec::new(),
        });
    };
    let reader: ReadableStreamDefaultReader = body
        .get_reader()
        .dyn_into()
        .map_err(|_| format!("{url}: the browser could not read the download"))?;
    let mut bytes = Vec::with_capacity(announced.unwrap_or(0) as usize);
    loop {
        let chunk = JsFuture::from(reader.read())
            .await
            .map_err(|_| format!("{url}: the download broke off; try again"))?;
        if Reflect::get(&chunk, &JsValue::from_str("done"))
            .ok()
            .and_then(|done| done.as_bool())
            .unwrap_or(true)
        {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &JsValue::from_str("value"))
            .ok()
            .and_then(|value| value.dyn_into().ok())
            .ok_or_else(|| format!("{url}: the download gave no bytes"))?;
        if bytes.len() as u64 + value.length() as u64 > MAX_HOSTED_BYTES {
            let _ = reader.cancel();
            return Err(hosted::too_large_message(url.as_str()));
        }
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        *done += value.length() as u64;
        state.show_download(job, *done, total.max(*done));
        if !state.is_current(job) {
            let _ = reader.cancel();
            return Err(format!("{url}: cancelled"));
        }
    }
    Ok(Fetched {
        url: response.url(),
        bytes,
    })
}

/// A request that sends no cookies, credentials or referrer.
fn init(mode: RequestMode) -> RequestInit {
    let init = RequestInit::new();
    init.set_method("GET");
    init.set_mode(mode);
    init.set_credentials(RequestCredentials::Omit);
    init.set_redirect(RequestRedirect::Follow);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init
}

fn to_blob(bytes: &[u8]) -> web_sys::Blob {
    gloo_file::Blob::new(bytes).into()
}
