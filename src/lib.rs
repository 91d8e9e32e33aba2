//! The toolscope page: a Leptos client-side app (`src/main.rs`) and the Web Worker that runs the
//! engine in `toolscope-core` off the UI thread (`src/bin/worker.rs`). No analysis happens here:
//! the worker moves bytes into the engine, the page renders the report it gets back.

mod client;
pub mod components;
mod download;
mod format;
mod judge_form;
mod opener;
pub mod protocol;
mod random;
mod remote;
pub mod route;
mod state;
mod url;
pub mod worker;
mod worker_compare;
mod worker_judge;
mod worker_kept;
mod worker_read;
mod worker_share;
mod worker_warmup;

#[cfg(test)]
mod security_tests;
