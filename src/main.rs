//! The toolscope page: a Leptos client-side app built to WebAssembly by Trunk (`scripts/serve`).
//! It only wires the engine in `toolscope-core` to the browser; no analysis happens here.

mod app;

fn main() {
    // Panics in the browser otherwise end as an opaque "unreachable" trap.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
