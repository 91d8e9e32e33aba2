//! Opening toolscope from another page (a notebook, a dashboard, another trace viewer) without
//! uploading anything: the other page opens this one (`window.open`, or an iframe), waits for
//!
//! ```js
//! {type: "toolscope:ready", version: "0.1.0"}
//! ```
//!
//! then posts
//!
//! ```js
//! {type: "toolscope:open",
//!  files: [{name: "sessions.jsonl", data: ArrayBuffer | Blob | Uint8Array | string, role?: "traces"}],
//!  view?: "view=selection&tool=lookup_order",   // the page's own fragment keys
//!  title?: "nightly run"}
//! ```
//!
//! Anything else is ignored with a console warning. When files are already loaded, the user is
//! asked before they are replaced. The files are analysed like dropped ones; nothing leaves the
//! page. docs/share.md has an example opener.

use js_sys::{Array, ArrayBuffer, Object, Reflect, Uint8Array};
use leptos::prelude::*;
use toolscope_core::{Role, VERSION};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, MessageEvent};

use crate::route::Route;
use crate::state::AppState;

/// The most files one message may carry.
const MAX_FILES: u32 = 1_000;

/// Listens for `toolscope:open` messages and tells the opener (or the embedding page) that the
/// page is ready for them.
pub fn listen(state: AppState) {
    let _ = window_event_listener_untyped("message", move |event| {
        let Ok(event) = event.dyn_into::<MessageEvent>() else {
            return;
        };
        if !is_open_request(&event.data()) {
            // Other scripts (extensions, dev tools) post messages too; only ours are worth a word.
            if has_toolscope_type(&event.data()) {
                warn("ignored a toolscope message of an unknown type");
            }
            return;
        }
        match read_request(&event.data()) {
            Ok(request) => accept(state, request),
            Err(reason) => warn(&format!("ignored a toolscope:open message: {reason}")),
        }
    });
    announce_ready();
}

struct OpenRequest {
    files: Vec<(String, Option<Role>, Blob)>,
    view: Option<String>,
    title: Option<String>,
}

fn accept(state: AppState, request: OpenRequest) {
    let loaded = state.files.with_untracked(Vec::len);
    if loaded > 0 {
        let question = format!(
            "Another page sent {} file(s) to open here. Replace the {loaded} file(s) loaded now?",
            request.files.len()
        );
        let is_confirmed = web_sys::window()
            .and_then(|window| window.confirm_with_message(&question).ok())
            .unwrap_or(false);
        if !is_confirmed {
            return;
        }
    }
    state.route.update(|route| {
        let asked = request
            .view
            .as_deref()
            .map(Route::parse)
            .unwrap_or_default();
        *route = Route {
            shared: None,
            is_demo: false,
            ..asked
        };
    });
    state.load_errors.set(Vec::new());
    state.title.set(request.title);
    state.open_files(request.files, None);
}

fn has_toolscope_type(data: &JsValue) -> bool {
    field(data, "type")
        .as_string()
        .is_some_and(|kind| kind.starts_with("toolscope:") && kind != "toolscope:ready")
}

fn is_open_request(data: &JsValue) -> bool {
    field(data, "type").as_string().as_deref() == Some("toolscope:open")
}

fn read_request(data: &JsValue) -> Result<OpenRequest, String> {
    let files = field(data, "files");
    if !Array::is_array(&files) {
        return Err("`files` must be an array".into());
    }
    let files = Array::from(&files);
    if files.length() == 0 || files.length() > MAX_FILES {
        return Err(format!("`files` must hold 1 to {MAX_FILES} files"));
    }
    let files = files
        .iter()
        .enumerate()
        .map(|(index, file)| read_file(&file).map_err(|reason| format!("files[{index}]: {reason}")))
        .collect::<Result<Vec<_>, _>>()?;
    let text = |name: &str| -> Result<Option<String>, String> {
        let value = field(data, name);
        if value.is_undefined() || value.is_null() {
            return Ok(None);
        }
        value
            .as_string()
            .map(|text| Some(text.chars().take(2_000).collect()))
            .ok_or_else(|| format!("`{name}` must be a string"))
    };
    Ok(OpenRequest {
        files,
        view: text("view")?,
        title: text("title")?.map(|title| title.chars().take(200).collect()),
    })
}

fn read_file(file: &JsValue) -> Result<(String, Option<Role>, Blob), String> {
    if !file.is_object() {
        return Err("not an object".into());
    }
    let name = field(file, "name")
        .as_string()
        .filter(|name| !name.is_empty())
        .ok_or("`name` must be a non-empty string")?;
    let role = match field(file, "role").as_string() {
        None => None,
        Some(text) => Some(
            serde_json::from_value::<Role>(serde_json::Value::String(text.clone()))
                .map_err(|_| format!("unknown role {text:?}"))?,
        ),
    };
    let data = field(file, "data");
    let blob = if let Some(blob) = data.dyn_ref::<Blob>() {
        blob.clone()
    } else if let Some(buffer) = data.dyn_ref::<ArrayBuffer>() {
        bytes_blob(&Uint8Array::new(buffer))
    } else if let Some(bytes) = data.dyn_ref::<Uint8Array>() {
        bytes_blob(bytes)
    } else if let Some(text) = data.as_string() {
        gloo_file::Blob::new(text.as_str()).into()
    } else {
        return Err("`data` must be an ArrayBuffer, a Uint8Array, a Blob or a string".into());
    };
    Ok((name, role, blob))
}

fn bytes_blob(bytes: &Uint8Array) -> Blob {
    Blob::new_with_u8_array_sequence(&Array::of1(bytes)).expect("a blob from bytes")
}

fn field(object: &JsValue, name: &str) -> JsValue {
    if !object.is_object() {
        return JsValue::UNDEFINED;
    }
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// Posts `toolscope:ready` to the page that opened this one, or embeds it. It carries no data,
/// so any origin may hear it.
fn announce_ready() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let message = Object::new();
    let _ = Reflect::set(&message, &"type".into(), &"toolscope:ready".into());
    let _ = Reflect::set(&message, &"version".into(), &VERSION.into());
    if let Ok(opener) = window.opener() {
        if opener.is_object() {
            // A window of another origin is not `instanceof Window` here, but takes messages.
            let opener: web_sys::Window = opener.unchecked_into();
            let _ = opener.post_message(&message, "*");
        }
    }
    if let Ok(Some(parent)) = window.parent() {
        if parent != window {
            let _ = parent.post_message(&message, "*");
        }
    }
}

fn warn(message: &str) {
    web_sys::console::warn_1(&JsValue::from_str(&format!("toolscope: {message}")));
}
