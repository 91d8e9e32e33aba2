//! Metrics of tool selection against labels.

pub mod acceptable;
pub mod args_match;
pub mod bfcl_literals;
pub mod mismatch;
pub mod outcome;
pub mod rate;
pub mod selection;
pub(crate) mod selection_totals;
pub mod task_actions;
pub mod trials;
pub mod wilson;

pub use rate::Rate;
