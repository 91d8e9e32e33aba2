//! The toolscope page (see the library's docs); `scripts/serve` builds and serves it.

fn main() {
    // Panics in the browser otherwise end as an opaque "unreachable" trap.
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(toolscope_web::components::app::App);
}
