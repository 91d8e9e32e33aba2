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
    no_transparent_huge_pages();
    ExitCode::from(toolscope_cli::run(std::env::args_os()))
}

/// Turns off transparent huge pages for the process (Linux). mimalloc asks for them for the
/// memory it reserves (before `main`, so its own `allow_thp` option is set too late here), and
/// the kernel then has to find each one, compacting memory when it is fragmented, and zero 2 MB
/// at a time: on a machine up for a while, the call-dense report spent 0.03–0.5 s in the kernel
/// from run to run, against 0.02–0.16 s with 4 kB pages (docs/performance.md). The flag applies
/// to every later page fault, mimalloc's reserved memory included. `MIMALLOC_ALLOW_THP=1` keeps
/// them.
#[cfg(target_os = "linux")]
fn no_transparent_huge_pages() {
    if std::env::var_os("MIMALLOC_ALLOW_THP").is_some() {
        return;
    }
    // SAFETY: PR_SET_THP_DISABLE takes integers only and changes no memory of the process.
    #[allow(unsafe_code, reason = "prctl has no safe binding in libc")]
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0)
    };
}

#[cfg(not(target_os = "linux"))]
fn no_transparent_huge_pages() {}
