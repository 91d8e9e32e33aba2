//! The page's components: each wires signals from [`crate::state::AppState`] to a view.

pub mod app;
mod charts;
mod compare;
mod filters;
mod findings;
mod inputs;
mod judge;
mod judge_tables;
mod loader;
mod nesting;
mod overview;
mod problems;
mod progress;
mod selection;
mod session;
mod share;
mod table;
mod tasks;
mod timeline;
mod trials;
