//! Reading the files named on the command line, with their roles and the analysis options: one
//! [`read_inputs`] for every command, so a shared link or a hosted folder carries exactly what
//! `toolscope report` analyses.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::{analyze, Analysis, InputFile, Options, Report, Role, MAX_FILE_BYTES};

use crate::cli::{ArgsMatch, InputArgs, MetricArgs};

/// The name standard input (`-`) is known by.
pub const STDIN_NAME: &str = "<stdin>";

/// Everything an analysis is made from: the files in the order they are given to the engine
/// (catalogs, rules, traces, labels, verdicts, human verdicts) and the options.
pub struct Inputs {
    pub files: Vec<LoadedFile>,
    pub options: Options,
}

/// One file named on the command line.
pub struct LoadedFile {
    /// Where it was read from; `None` for standard input.
    pub path: Option<PathBuf>,
    /// The name as given on the command line (the report's `file`), or [`STDIN_NAME`].
    pub name: String,
    /// What the flag it came with says it is.
    pub role: Role,
    /// Its bytes; empty when it was not read because of its size.
    pub bytes: Vec<u8>,
    /// Its size, when it was not read because it is over [`MAX_FILE_BYTES`] (`u64::MAX` for a
    /// stream whose size is not known).
    pub too_large: Option<u64>,
}

/// Reads every file the arguments name, with its role, and the options they set. `metrics` is
/// `None` for commands without label options (`check`): no labels, default metric options.
pub fn read_inputs(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Result<Inputs> {
    let labels: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.labels);
    let verdicts: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.verdicts);
    let human_verdicts: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.human_verdicts);
    let named = [
        (&inputs.options.tools[..], Role::Catalog),
        (&inputs.options.rules[..], Role::Rules),
        (&inputs.inputs[..], Role::Traces),
        (labels, Role::Labels),
        (verdicts, Role::Verdicts),
        (human_verdicts, Role::HumanVerdicts),
    ];
    let mut files = Vec::new();
    for (paths, role) in named {
        for path in paths {
            files.push(load(path, role)?);
        }
    }
    let mut options = Options {
        format: inputs.options.format,
        ..Options::default()
    };
    if let Some(metrics) = metrics {
        options.min_support = metrics.min_support;
        options.args_mode = match metrics.args_match {
            ArgsMatch::Exact => ArgsMode::Exact,
            ArgsMatch::Subset => ArgsMode::Subset,
        };
    }
    Ok(Inputs { files, options })
}

impl Inputs {
    /// The engine's report on these inputs.
    pub fn analyze(&self) -> Report {
        analyze(&self.input_files(), &self.options)
    }

    /// The engine's analysis of these inputs: the report with the sessions behind it.
    pub fn analysis(&self) -> Analysis {
        Analysis::new(&self.input_files(), &self.options, &mut |_| {})
    }

    fn input_files(&self) -> Vec<InputFile<'_>> {
        self.files
            .iter()
            .map(|file| match file.too_large {
                Some(size) => InputFile::too_large(&file.name, size, file.role),
                None => InputFile::new(&file.name, &file.bytes, file.role),
            })
            .collect()
    }

    /// An error naming the first file left unread because of its size: what cannot be read
    /// cannot be shared.
    pub fn ensure_all_read(&self) -> Result<()> {
        match self.files.iter().find(|file| file.too_large.is_some()) {
            Some(file) => anyhow::bail!(
                "{}: larger than {MAX_FILE_BYTES} bytes, the most toolscope reads from one file; \
                 it cannot be shared",
                file.name
            ),
            None => Ok(()),
        }
    }
}

/// Reads the arguments' files and runs the engine.
pub fn run_engine(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Result<Report> {
    Ok(read_inputs(inputs, metrics)?.analyze())
}

/// Reads a file, or standard input for `-`, never past [`MAX_FILE_BYTES`]: a regular file over
/// it is not read at all, and a stream (a pipe, `/dev/zero`) stops one byte past it.
fn load(path: &Path, role: Role) -> Result<LoadedFile> {
    let (source, name, bytes) = if path == Path::new("-") {
        (
            None,
            STDIN_NAME.to_string(),
            read_bounded(std::io::stdin()).context("reading standard input")?,
        )
    } else {
        let name = path.display().to_string();
        let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
        let size = file
            .metadata()
            .with_context(|| format!("reading {name}"))?
            .len();
        if size > MAX_FILE_BYTES {
            return Ok(LoadedFile {
                path: Some(path.to_path_buf()),
                name,
                role,
                bytes: Vec::new(),
                too_large: Some(size),
            });
        }
        let bytes = read_bounded(file).with_context(|| format!("reading {name}"))?;
        (Some(path.to_path_buf()), name, bytes)
    };
    // Read one byte past the limit: its size is not known.
    let too_large = (bytes.len() as u64 > MAX_FILE_BYTES).then_some(u64::MAX);
    let bytes = if too_large.is_some() {
        Vec::new()
    } else {
        bytes
    };
    Ok(LoadedFile {
        path: source,
        name,
        role,
        bytes,
        too_large,
    })
}

/// Everything `reader` gives, up to one byte past [`MAX_FILE_BYTES`].
fn read_bounded(reader: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}
