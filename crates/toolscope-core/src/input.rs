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
    /// A judge's verdicts (`toolscope judge --out`): shown without calling any model.
    Verdicts,
    /// Human verdicts on the judge's criteria, to calibrate the judge against.
    #[serde(rename = "human_verdicts")]
    HumanVerdicts,
    /// A report JSON of another run (`toolscope report --json`), to compare this one with in
    /// the page; the report itself does not use it.
    Baseline,
}

impl Role {
    /// Every role, in the order files are read.
    pub const ALL: [Role; 7] = [
        Role::Catalog,
        Role::Rules,
        Role::Traces,
        Role::Labels,
        Role::Verdicts,
        Role::HumanVerdicts,
        Role::Baseline,
    ];

    /// The name in links, manifests and the report (as serde writes it).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Traces => "traces",
            Role::Catalog => "catalog",
            Role::Rules => "rules",
            Role::Labels => "labels",
            Role::Verdicts => "verdicts",
            Role::HumanVerdicts => "human_verdicts",
            Role::Baseline => "baseline",
        }
    }

    /// The role of a name.
    pub fn from_name(name: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.as_str() == name)
    }
}

/// The largest file an analysis reads, in bytes (1 GiB). Reading takes several times a file's
/// size in memory, so this bounds what one input can cost; a larger file is not read, with an
/// error that says so, and the other files are. Adapters check a file's size before reading it,
/// so that a huge file (or an endless one, such as `/dev/zero`) is never read at all.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// One input file: its name (for diagnostics), its bytes and its role.
#[derive(Debug, Clone, Copy)]
pub struct InputFile<'a> {
    /// The name the user knows it by.
    pub name: &'a str,
    /// Its content: all of it, or nothing for a file over [`MAX_FILE_BYTES`].
    pub bytes: &'a [u8],
    /// What it is for.
    pub role: Role,
    /// Its size in bytes: at least the bytes given; more for a file not read because of its size.
    pub size: u64,
}

impl<'a> InputFile<'a> {
    /// A file read whole.
    pub fn new(name: &'a str, bytes: &'a [u8], role: Role) -> Self {
        InputFile {
            name,
            bytes,
            role,
            size: bytes.len() as u64,
        }
    }

    /// A file of `size` bytes left unread because it is over [`MAX_FILE_BYTES`]; `u64::MAX` for a
    /// stream (a pipe, `/dev/zero`) that went on past the limit, whose size is not known.
    pub fn too_large(name: &'a str, size: u64, role: Role) -> Self {
        InputFile {
            name,
            bytes: &[],
            role,
            size,
        }
    }

    /// Whether the analysis leaves the file unread because of its size.
    pub fn is_too_large(&self) -> bool {
        self.size > MAX_FILE_BYTES || self.bytes.len() as u64 > MAX_FILE_BYTES
    }
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

/// A file that could not be read to its end (an [`crate::analyze_read`] reader failed).
#[derive(Debug, thiserror::Error)]
#[error("{file}: could not be read: {error}")]
pub struct ReadError {
    /// The file's name, as its input gave it.
    pub file: String,
    /// What the reader said.
    #[source]
    pub error: std::io::Error,
}

impl ReadError {
    pub(crate) fn new(file: &str, error: std::io::Error) -> Self {
        ReadError {
            file: file.to_string(),
            error,
        }
    }
}
