//! The inputs of one analysis: files with their role, and the options.

use serde::{Deserialize, Serialize};

use crate::formats::TraceFormat;
use crate::metrics::args_match::ArgsMode;
use crate::metrics::selection::DEFAULT_MIN_SUPPORT;

/// What a file is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Agent sessions (in any supported format).
    Traces,
    /// A tool catalog: the schemas calls are checked against.
    Catalog,
    /// Ordering rules.
    Rules,
    /// Labels: the tool each turn should have called.
    Labels,
}

/// One input file: its name (for diagnostics), its bytes and its role.
#[derive(Debug, Clone, Copy)]
pub struct InputFile<'a> {
    /// The name the user knows it by.
    pub name: &'a str,
    /// Its content.
    pub bytes: &'a [u8],
    /// What it is for.
    pub role: Role,
}

/// Settings of an analysis.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Options {
    /// Tools with fewer labelled turns than this are flagged as too few to trust.
    pub min_support: u64,
    /// The argument comparison the per-turn score uses.
    pub args_mode: ArgsMode,
    /// Read every trace file as this format instead of detecting it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<TraceFormat>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            min_support: DEFAULT_MIN_SUPPORT,
            args_mode: ArgsMode::Exact,
            format: None,
        }
    }
}
