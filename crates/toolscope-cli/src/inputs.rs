//! Reading the files named on the command line and handing them to the engine.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::{analyze, InputFile, Options, Report, Role, MAX_FILE_BYTES};

use crate::cli::{ArgsMatch, InputArgs, MetricArgs};

/// A file's name and bytes (none when it is over the size limit).
struct Loaded {
    name: String,
    bytes: Vec<u8>,
    role: Role,
    /// Its size, when it was not read because of it.
    too_large: Option<u64>,
}

/// Reads every file and runs the engine.
pub fn run_engine(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Result<Report> {
    let mut loaded = Vec::new();
    for path in &inputs.tools {
        loaded.push(load(path, Role::Catalog)?);
    }
    for path in &inputs.rules {
        loaded.push(load(path, Role::Rules)?);
    }
    for path in &inputs.inputs {
        loaded.push(load(path, Role::Traces)?);
    }
    let mut options = Options {
        format: inputs.format,
        ..Options::default()
    };
    if let Some(metrics) = metrics {
        for path in &metrics.labels {
            loaded.push(load(path, Role::Labels)?);
        }
        options.min_support = metrics.min_support;
        options.args_mode = match metrics.args_match {
            ArgsMatch::Exact => ArgsMode::Exact,
            ArgsMatch::Subset => ArgsMode::Subset,
        };
    }
    let files: Vec<InputFile<'_>> = loaded
        .iter()
        .map(|file| match file.too_large {
            Some(size) => InputFile::too_large(&file.name, size, file.role),
            None => InputFile::new(&file.name, &file.bytes, file.role),
        })
        .collect();
    Ok(analyze(&files, &options))
}

/// Reads a file, or standard input for `-`, never past [`MAX_FILE_BYTES`]: a regular file over
/// it is not read at all, and a stream (a pipe, `/dev/zero`) stops one byte past it.
fn load(path: &PathBuf, role: Role) -> Result<Loaded> {
    let (name, bytes) = if path == Path::new("-") {
        (
            "<stdin>".to_string(),
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
            return Ok(Loaded {
                name,
                bytes: Vec::new(),
                role,
                too_large: Some(size),
            });
        }
        let bytes = read_bounded(file).with_context(|| format!("reading {name}"))?;
        (name, bytes)
    };
    // Read one byte past the limit: its size is not known.
    let too_large = (bytes.len() as u64 > MAX_FILE_BYTES).then_some(u64::MAX);
    let bytes = if too_large.is_some() {
        Vec::new()
    } else {
        bytes
    };
    Ok(Loaded {
        name,
        bytes,
        role,
        too_large,
    })
}

/// Everything `reader` gives, up to one byte past [`MAX_FILE_BYTES`].
fn read_bounded(reader: impl Read) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    reader.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}
