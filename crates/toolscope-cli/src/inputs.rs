//! Reading the files named on the command line, with their roles and the analysis options: one
//! [`read_inputs`] for every command, so a shared link or a hosted folder carries exactly what
//! `toolscope report` analyses.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::{
    analyze_read, analyze_read_without_rows, InputFile, Options, ReadError, Report, Role, Source,
    MAX_FILE_BYTES,
};

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
    let mut files = Vec::new();
    for (paths, role) in named(inputs, metrics) {
        for path in paths {
            files.push(load(path, role)?);
        }
    }
    Ok(Inputs {
        files,
        options: options(inputs, metrics),
    })
}

/// The files the arguments name, by role, in the order the engine is given them.
fn named<'a>(inputs: &'a InputArgs, metrics: Option<&'a MetricArgs>) -> [(&'a [PathBuf], Role); 6] {
    let labels: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.labels);
    let verdicts: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.verdicts);
    let human_verdicts: &[PathBuf] = metrics.map_or(&[], |metrics| &metrics.human_verdicts);
    [
        (&inputs.options.tools[..], Role::Catalog),
        (&inputs.options.rules[..], Role::Rules),
        (&inputs.inputs[..], Role::Traces),
        (labels, Role::Labels),
        (verdicts, Role::Verdicts),
        (human_verdicts, Role::HumanVerdicts),
    ]
}

/// The analysis options the arguments set.
fn options(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Options {
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
    options
}

impl LoadedFile {
    /// The file as the engine takes it.
    fn input_file(&self) -> InputFile<'_> {
        match self.too_large {
            Some(size) => InputFile::too_large(&self.name, size, self.role),
            None => InputFile::new(&self.name, &self.bytes, self.role),
        }
    }
}

/// The names files are published under in what leaves the machine (a bundle, a link, a sealed
/// file, an HTML report): each file's base name, not the path it was given by, which would tell
/// every reader where the author keeps their work (`/home/alice/work/run.jsonl` becomes
/// `run.jsonl`). Two files of the same base name become `x.jsonl` and `x-2.jsonl`; standard
/// input keeps its name.
pub fn published_names(names: &[String]) -> Vec<String> {
    let mut taken = std::collections::BTreeSet::new();
    names
        .iter()
        .map(|name| {
            let base = Path::new(name)
                .file_name()
                .map(|base| base.to_string_lossy().into_owned())
                .filter(|base| !base.is_empty())
                .unwrap_or_else(|| name.clone());
            made_unique(base, &mut taken, str::to_string)
        })
        .collect()
}

/// `base`, or `stem-2.ext`, `stem-3.ext`, … (the extension is everything after the first `.`),
/// the first whose `key` is not yet `taken`; its key is then taken.
pub fn made_unique(
    base: String,
    taken: &mut std::collections::BTreeSet<String>,
    key: impl Fn(&str) -> String,
) -> String {
    let (stem, extension) = match base.split_once('.') {
        Some((stem, extension)) if !stem.is_empty() => (stem.to_string(), format!(".{extension}")),
        _ => (base.clone(), String::new()),
    };
    let mut name = base;
    let mut count = 1;
    while !taken.insert(key(&name)) {
        count += 1;
        name = format!("{stem}-{count}{extension}");
    }
    name
}

/// Each input file's name as the report gives it, with its published name ([`published_names`]),
/// for [`Report::rename_files`].
pub fn published_renames(report: &Report) -> Vec<(String, String)> {
    let names: Vec<String> = report
        .inputs
        .iter()
        .map(|input| input.file.clone())
        .collect();
    let published = published_names(&names);
    names.into_iter().zip(published).collect()
}

impl Inputs {
    /// Names the files as they are published ([`published_names`]), unless `keeps_paths`.
    pub fn publish(&mut self, keeps_paths: bool) {
        if keeps_paths {
            return;
        }
        let names: Vec<String> = self.files.iter().map(|file| file.name.clone()).collect();
        for (file, name) in self.files.iter_mut().zip(published_names(&names)) {
            file.name = name;
        }
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

/// Reads the arguments' files and runs the engine. Trace files that are regular files are read
/// by the engine in pieces as it goes ([`analyze_read`]): one in toolscope's native JSON Lines
/// is never held whole. The report is the one the engine gives for the files read whole.
pub fn run_engine(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Result<Report> {
    run_engine_keeping(inputs, metrics, true)
}

/// [`run_engine`]; without `keeps_rows`, for a summary report, the sessions' rows are counted
/// and not kept ([`analyze_read_without_rows`]).
pub fn run_engine_keeping(
    inputs: &InputArgs,
    metrics: Option<&MetricArgs>,
    keeps_rows: bool,
) -> Result<Report> {
    let opened = open_inputs(inputs, metrics)?;
    let analyze = if keeps_rows {
        analyze_read
    } else {
        analyze_read_without_rows
    };
    let report = analyze(opened.sources()?, &opened.options).map_err(read_error);
    report
}

/// The engine's error reading a file, naming it.
pub fn read_error(error: ReadError) -> anyhow::Error {
    anyhow::Error::new(error.error).context(format!("reading {}", error.file))
}

/// The arguments' files opened: trace files that are regular files to be read by the engine in
/// pieces, as many times as it takes ([`OpenedInputs::sources`]), the others read whole once.
pub struct OpenedInputs {
    names: Vec<String>,
    opened: Vec<Opened>,
    /// The analysis options the arguments set.
    pub options: Options,
}

/// Opens the arguments' files ([`OpenedInputs`]).
pub fn open_inputs(inputs: &InputArgs, metrics: Option<&MetricArgs>) -> Result<OpenedInputs> {
    let mut names = Vec::new();
    let mut opened = Vec::new();
    for (paths, role) in named(inputs, metrics) {
        for path in paths {
            let (name, file) = open(path, role)?;
            names.push(name);
            opened.push(file);
        }
    }
    Ok(OpenedInputs {
        names,
        opened,
        options: options(inputs, metrics),
    })
}

impl OpenedInputs {
    /// The files as the engine reads them, each from its start (a file read in pieces is read
    /// again from its handle).
    pub fn sources(&self) -> Result<Vec<Source<'_>>> {
        self.names
            .iter()
            .zip(&self.opened)
            .map(|(name, file)| {
                Ok(match file {
                    Opened::Reader(role, file) => {
                        let mut handle: &File = file;
                        handle
                            .seek(SeekFrom::Start(0))
                            .with_context(|| format!("reading {name}"))?;
                        Source::Reader {
                            name,
                            role: *role,
                            // The size was checked at opening; a file that grows as it is read
                            // is read up to the limit.
                            reader: Box::new(BufReader::with_capacity(
                                1 << 16,
                                Read::take(handle, MAX_FILE_BYTES),
                            )),
                        }
                    }
                    Opened::Loaded(file) => Source::Whole(file.input_file()),
                })
            })
            .collect()
    }
}

/// A file named on the command line, opened for the engine to read in pieces or read whole.
enum Opened {
    /// A trace file that is a regular file within the size limit.
    Reader(Role, File),
    Loaded(LoadedFile),
}

/// Opens a trace file that is a regular file within the size limit, for the engine to read;
/// reads any other file as [`load`] does (a trace file that is not, from the handle already
/// open). Also gives the file's name.
fn open(path: &Path, role: Role) -> Result<(String, Opened)> {
    if role == Role::Traces && path != Path::new("-") {
        let name = path.display().to_string();
        let file = File::open(path).with_context(|| format!("reading {name}"))?;
        let metadata = file.metadata().with_context(|| format!("reading {name}"))?;
        if metadata.is_file() && metadata.len() <= MAX_FILE_BYTES {
            return Ok((name, Opened::Reader(role, file)));
        }
        let file = load_open(path, name, role, file, metadata.len())?;
        return Ok((file.name.clone(), Opened::Loaded(file)));
    }
    let file = load(path, role)?;
    Ok((file.name.clone(), Opened::Loaded(file)))
}

/// Reads a file, or standard input for `-`, never past [`MAX_FILE_BYTES`]: a regular file over
/// it is not read at all, and a stream (a pipe, `/dev/zero`) stops one byte past it.
fn load(path: &Path, role: Role) -> Result<LoadedFile> {
    if path == Path::new("-") {
        let bytes = read_bounded(std::io::stdin(), 0).context("reading standard input")?;
        return Ok(bounded(None, STDIN_NAME.to_string(), role, bytes));
    }
    let name = path.display().to_string();
    let file = File::open(path).with_context(|| format!("reading {name}"))?;
    let size = file
        .metadata()
        .with_context(|| format!("reading {name}"))?
        .len();
    load_open(path, name, role, file, size)
}

/// [`load`] of a file already open, whose metadata gives `size` (0 for a stream).
fn load_open(path: &Path, name: String, role: Role, file: File, size: u64) -> Result<LoadedFile> {
    if size > MAX_FILE_BYTES {
        return Ok(LoadedFile {
            path: Some(path.to_path_buf()),
            name,
            role,
            bytes: Vec::new(),
            too_large: Some(size),
        });
    }
    // Sized from the metadata, so the buffer is not grown (and copied) as it fills.
    let bytes = read_bounded(file, size as usize).with_context(|| format!("reading {name}"))?;
    Ok(bounded(Some(path.to_path_buf()), name, role, bytes))
}

/// A file read up to one byte past the limit: too large (its size not known) when it went past.
fn bounded(path: Option<PathBuf>, name: String, role: Role, bytes: Vec<u8>) -> LoadedFile {
    let too_large = (bytes.len() as u64 > MAX_FILE_BYTES).then_some(u64::MAX);
    let bytes = if too_large.is_some() {
        Vec::new()
    } else {
        bytes
    };
    LoadedFile {
        path,
        name,
        role,
        bytes,
        too_large,
    }
}

/// Everything `reader` gives, up to one byte past [`MAX_FILE_BYTES`], into a buffer that starts
/// with room for `expected` bytes (and one more, which tells that the end was reached).
fn read_bounded(reader: impl Read, expected: usize) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(expected.saturating_add(1));
    reader.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::published_names;

    #[test]
    fn published_names_are_base_names_made_unique_never_paths() {
        let names: Vec<String> = [
            "/home/alice/work/run.jsonl",
            "../b/run.jsonl",
            "C.json",
            "labels",
            "x/labels",
            "<stdin>",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            published_names(&names),
            [
                "run.jsonl",
                "run-2.jsonl",
                "C.json",
                "labels",
                "labels-2",
                "<stdin>"
            ]
        );
    }
}
