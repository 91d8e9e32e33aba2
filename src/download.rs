//! Saving what the page made (report JSON, CSV, chart images) as a file the user downloads.

use wasm_bindgen::JsCast;
use web_sys::HtmlAnchorElement;

/// Offers `bytes` as a download named `name`.
pub fn save(name: &str, mime: &str, bytes: &[u8]) {
    let blob = gloo_file::Blob::new_with_options(bytes, Some(mime));
    save_blob(name, &blob.into());
}

/// Offers a blob as a download named `name`.
pub fn save_blob(name: &str, blob: &web_sys::Blob) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(blob) else {
        return;
    };
    if let Ok(anchor) = document.create_element("a") {
        let anchor: HtmlAnchorElement = anchor.unchecked_into();
        anchor.set_href(&url);
        anchor.set_download(name);
        anchor.click();
    }
    // The browser reads the URL after this returns; free it a while later.
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}
