//! Reading the files named on the command line and handing them to the engine.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::{analyze, InputFile, Options, Report, Role};

use crate::cli::{ArgsMatch, InputArgs, MetricArgs};

/// A file's name and bytes.
struct Loaded {
    name: String,
    bytes: Vec<u8>,
    role: Role,
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
        .map(|file| InputFile {
            name: &file.name,
            bytes: &file.bytes,
            role: file.role,
        })
        .collect();
    Ok(analyze(&files, &options))
}

fn load(path: &PathBuf, role: Role) -> Result<Loaded> {
    let (name, bytes) = if path == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("reading standard input")?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
        (path.display().to_string(), bytes)
    };
    Ok(Loaded { name, bytes, role })
}
