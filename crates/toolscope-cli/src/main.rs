//! `toolscope`: the toolscope engine on the command line. Everything but the allocator lives in
//! the library (`lib.rs`), so that the Python package runs the very same CLI in-process.

use std::process::ExitCode;

// The binary's own allocator: the Python module and other embedders keep their host's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    ExitCode::from(toolscope_cli::run(std::env::args_os()))
}
