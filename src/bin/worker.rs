//! The Web Worker binary: runs the engine off the page's UI thread (see `toolscope_web::worker`).

fn main() {
    console_error_panic_hook::set_once();
    toolscope_web::worker::start();
}
