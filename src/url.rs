//! Reading and writing the URL's fragment, where the route lives.

/// The fragment, with its `#`, or "" when there is none.
pub fn current_fragment() -> String {
    web_sys::window()
        .and_then(|window| window.location().hash().ok())
        .unwrap_or_default()
}

/// Replaces the fragment without adding a history entry per filter change, and without a
/// `hashchange` event.
pub fn write_fragment(fragment: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if current_fragment() == fragment || (fragment == "#" && current_fragment().is_empty()) {
        return;
    }
    if let Ok(history) = window.history() {
        let url = if fragment == "#" {
            // No dangling '#': the page's own path and query.
            let location = window.location();
            format!(
                "{}{}",
                location.pathname().unwrap_or_default(),
                location.search().unwrap_or_default()
            )
        } else {
            fragment.to_string()
        };
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}
