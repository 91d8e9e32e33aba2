//! `toolscope`: the toolscope engine on the command line. Everything but the allocator lives in
//! the library (`lib.rs`), so that the Python package runs the very same CLI in-process.

use std::process::ExitCode;

// The binary's own allocator: the Python module and other embedders keep their host's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_purge_delay` (its `mimalloc.h`, v2: the 16th option), which the Rust
/// bindings leave unnamed.
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // By default mimalloc gives freed memory back to the OS 10 ms after it is freed. A report
    // frees and allocates as it streams, so the kernel took the same pages back and zeroed them
    // again: on a call-dense 52 MB input, 4,000 page faults and up to 0.3 s of system time
    // against 500 and 0.03 s without (docs/performance.md). The peak memory is the same; a run
    // is short, and its memory goes back when it ends. `MIMALLOC_PURGE_DELAY` still overrides.
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: called before any other thread exists; the option is a plain integer.
        #[allow(unsafe_code, reason = "mimalloc's options have no safe binding")]
        unsafe {
            libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, -1)
        };
    }
    ExitCode::from(toolscope_cli::run(std::env::args_os()))
}
