//! [`analyze`] for inputs the engine reads itself, in pieces: a JSON Lines trace file in
//! toolscope's native format is then never held whole, only its first lines (for format
//! detection) and the line being read, so memory holds the report and not the input
//! (docs/performance.md). Any other file, or a trace file that turns out not to stream, is read
//! whole and analysed as [`analyze`] does; the report is the same either way (tests).

use std::io::{BufRead, Read};

use crate::analysis::{Analysis, Filter, Progress};
use crate::analyze::analyze;
use crate::analyze_stream::stream_report;
use crate::formats::detect::{PROBE_BYTES, PROBE_RECORDS};
use crate::formats::inspect::is_zip;
use crate::input::{InputFile, Options, ReadError, Role};
use crate::json::is_utf16;
use crate::json::scan::{skip_ws, trim_end};
use crate::json::split::ends_on_its_line;
use crate::model::{Session, ToolDef};
use crate::report::Report;

/// One input to [`analyze_read`].
pub enum Source<'a> {
    /// A file given whole, or over the size limit ([`InputFile::too_large`]).
    Whole(InputFile<'a>),
    /// A file the engine reads from `reader`. The caller bounds it: [`crate::MAX_FILE_BYTES`]
    /// is the most a file may hold.
    Reader {
        /// The name the user knows it by.
        name: &'a str,
        /// What it is for.
        role: Role,
        /// Its bytes, from the start.
        reader: Box<dyn BufRead + 'a>,
    },
}

/// The report on `sources`, as [`analyze`] gives it for the same files read whole; a reader
/// that fails is an error naming its file.
pub fn analyze_read(sources: Vec<Source<'_>>, options: &Options) -> Result<Report, ReadError> {
    read_report(sources, options, true)
}

/// [`analyze_read`] for a caller that wants only the summary report: when the sessions stream,
/// their rows are counted and not kept (`sessions` empty, counted in `omitted.sessions`), and of
/// the scored turns only those the findings read (a tool other than the one expected; the rest
/// counted in `omitted.turn_outcomes`), so memory grows with neither. Its
/// [`Report::into_summary`] is the summary of the full report; its problems and diagnostics are
/// all the full report's (a caller prints every diagnostic, even those a summary leaves out).
pub fn analyze_read_without_rows(
    sources: Vec<Source<'_>>,
    options: &Options,
) -> Result<Report, ReadError> {
    read_report(sources, options, false)
}

/// What [`visit_sessions`] calls with each session and the catalog files' tools.
pub type SessionVisit<'v> = dyn FnMut(&Session, Option<&[ToolDef]>) + 'v;

/// What [`read_analysis`] made: the report alone when the sessions streamed, else the whole
/// analysis (the sessions kept, as [`Analysis::new`] keeps them).
#[derive(Debug)]
pub enum ReadAnalysis {
    /// The sessions streamed: the report (the same as the analysis's would be), each session
    /// checked and dropped. Its rows' origins (file and line) say where each session is, for
    /// [`crate::formats::native::read_line_session`].
    Streamed(Box<Report>),
    /// Some input needed the sessions kept (see [`analyze_read`]): read whole and analysed.
    Kept(Box<Analysis>),
}

/// [`analyze_read`] for a viewer: the report alone when the sessions stream (memory then holds
/// the report, not the sessions), else the [`Analysis`] with its sessions, told `progress`.
pub fn read_analysis(
    sources: Vec<Source<'_>>,
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Result<ReadAnalysis, ReadError> {
    read_analysis_with(sources, options, Mode::RowsOnLines, None, progress)
}

/// [`read_analysis`] for a caller that needs each session once and not the report's rows (the
/// judge, `crate::judge::streamed`): when the sessions stream, `visit` sees each as it is read,
/// its id made unique as the report names it, in the order an [`Analysis`] keeps them, with the
/// catalog files' tools (None when no catalog file was given), and the report is the summary
/// one ([`analyze_read_without_rows`]: every problem and diagnostic, the rows counted). Else
/// nothing is visited and the whole [`Analysis`] is made, told `progress`.
pub fn visit_sessions(
    sources: Vec<Source<'_>>,
    options: &Options,
    visit: &mut SessionVisit<'_>,
    progress: &mut dyn FnMut(Progress),
) -> Result<ReadAnalysis, ReadError> {
    read_analysis_with(sources, options, Mode::Counted, Some(visit), progress)
}

fn read_analysis_with(
    sources: Vec<Source<'_>>,
    options: &Options,
    mode: Mode,
    visit: Option<&mut SessionVisit<'_>>,
    progress: &mut dyn FnMut(Progress),
) -> Result<ReadAnalysis, ReadError> {
    Ok(
        match read_with(sources, options, mode, &Filter::default(), visit, |files| {
            Analysis::new(files, options, progress)
        })? {
            Outcome::Streamed(report) => ReadAnalysis::Streamed(report),
            Outcome::Whole(analysis) => ReadAnalysis::Kept(Box::new(analysis)),
        },
    )
}

/// The report under `filter` of sources that stream as JSON Lines (those [`read_analysis`] made
/// [`ReadAnalysis::Streamed`]): [`Analysis::filtered`]'s report, read again without keeping the
/// sessions. None when the sources do not stream (the caller then needs the [`Analysis`]).
pub fn read_report_under(
    sources: Vec<Source<'_>>,
    options: &Options,
    filter: &Filter,
) -> Result<Option<Report>, ReadError> {
    Ok(
        match read_with(sources, options, Mode::RowsOnLines, filter, None, |_| ())? {
            Outcome::Streamed(report) => Some(*report),
            Outcome::Whole(()) => None,
        },
    )
}

fn read_report(
    sources: Vec<Source<'_>>,
    options: &Options,
    keeps_rows: bool,
) -> Result<Report, ReadError> {
    let mode = if keeps_rows {
        Mode::Rows
    } else {
        Mode::Counted
    };
    Ok(
        match read_with(sources, options, mode, &Filter::default(), None, |files| {
            analyze(files, options)
        })? {
            Outcome::Streamed(report) => *report,
            Outcome::Whole(report) => report,
        },
    )
}

/// What a streamed report keeps: its rows or only their counts, and whether only JSON Lines
/// stream (so each streamed session is one line).
#[derive(Clone, Copy)]
enum Mode {
    Counted,
    Rows,
    RowsOnLines,
}

/// What [`read_with`] gives: the streamed report, or what the caller made of the files read
/// whole.
enum Outcome<T> {
    Streamed(Box<Report>),
    Whole(T),
}

/// Reads `sources`: the streamed report when every trace file streams, else `whole` of every
/// file read to its end.
fn read_with<T>(
    sources: Vec<Source<'_>>,
    options: &Options,
    mode: Mode,
    filter: &Filter,
    visit: Option<&mut SessionVisit<'_>>,
    whole: impl FnOnce(&[InputFile<'_>]) -> T,
) -> Result<Outcome<T>, ReadError> {
    // Per input: the input when given whole, else its name and role, the bytes read so far
    // and, when the rest of it may stream, the reader.
    let mut given = Vec::with_capacity(sources.len());
    let mut bytes = Vec::with_capacity(sources.len());
    let mut rests: Vec<Option<Box<dyn BufRead + '_>>> = Vec::with_capacity(sources.len());
    for source in sources {
        let (read, rest) = match source {
            Source::Whole(input) => {
                given.push(Given::Whole(input));
                (Vec::new(), None)
            }
            Source::Reader {
                name,
                role,
                mut reader,
            } => {
                given.push(Given::Read(name, role));
                let error = |error| ReadError::new(name, error);
                let (mut read, at_end) = if role == Role::Traces {
                    read_head(&mut reader).map_err(error)?
                } else {
                    (Vec::new(), false)
                };
                if at_end || (role == Role::Traces && streams_as_lines(&read)) {
                    (read, (!at_end).then_some(reader))
                } else {
                    reader.read_to_end(&mut read).map_err(error)?;
                    (read, None)
                }
            }
        };
        bytes.push(read);
        rests.push(rest);
    }
    let mut readers: Vec<Option<&mut dyn BufRead>> = rests
        .iter_mut()
        .map(|rest| rest.as_mut().map(|rest| &mut **rest as &mut dyn BufRead))
        .collect();
    let (keeps_rows, lines_only) = match mode {
        Mode::Counted => (false, false),
        Mode::Rows => (true, false),
        Mode::RowsOnLines => (true, true),
    };
    if let Some(report) = stream_report(
        &files(&given, &bytes),
        &mut readers,
        options,
        keeps_rows,
        lines_only,
        filter,
        visit,
    ) {
        return report.map(|report| Outcome::Streamed(Box::new(report)));
    }
    // Some input needs the sessions kept: every file is read to its end and analysed whole.
    for ((given, read), rest) in given.iter().zip(&mut bytes).zip(&mut readers) {
        if let (Given::Read(name, _), Some(rest)) = (given, rest) {
            rest.read_to_end(read)
                .map_err(|error| ReadError::new(name, error))?;
        }
    }
    Ok(Outcome::Whole(whole(&files(&given, &bytes))))
}

/// An input as [`analyze_read`] was given it.
enum Given<'a> {
    Whole(InputFile<'a>),
    /// Read from a reader: its name and role.
    Read(&'a str, Role),
}

/// The inputs, with the bytes read of those read from readers.
fn files<'a>(given: &[Given<'a>], bytes: &'a [Vec<u8>]) -> Vec<InputFile<'a>> {
    given
        .iter()
        .zip(bytes)
        .map(|(given, bytes)| match *given {
            Given::Whole(input) => input,
            Given::Read(name, role) => InputFile::new(name, bytes, role),
        })
        .collect()
}

/// The first whole lines of a trace file: as many as format detection looks at in the whole
/// file (its first [`PROBE_RECORDS`] records, or [`PROBE_BYTES`] of their text), so that it
/// decides on them as it would on the whole; and whether they are the whole file.
fn read_head(reader: &mut dyn BufRead) -> std::io::Result<(Vec<u8>, bool)> {
    let mut head = Vec::new();
    let (mut records, mut text_bytes) = (0, 0);
    loop {
        let start = head.len();
        if reader.read_until(b'\n', &mut head)? == 0 {
            return Ok((head, true));
        }
        let line = &head[start..];
        let first = skip_ws(line, 0);
        if first < line.len() {
            records += 1;
            text_bytes += trim_end(line, first, line.len()) - first;
        }
        // Decoding never makes a line shorter except by the BOM's 3 bytes.
        if records >= PROBE_RECORDS || text_bytes >= PROBE_BYTES + 3 {
            let at_end = reader.fill_buf()?.is_empty();
            return Ok((head, at_end));
        }
    }
}

/// Whether a file starting with `head` (whole lines) is read as JSON Lines of objects (see
/// [`crate::json::split_records`]): UTF-8, not a zip archive, and its first value an object that
/// ends on its first line. Anything else (an array, a pretty-printed document, server-sent
/// events) is read whole.
fn streams_as_lines(head: &[u8]) -> bool {
    if is_utf16(head) || is_zip(head) {
        return false;
    }
    let bytes = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let first = skip_ws(bytes, 0);
    if bytes.get(first) != Some(&b'{') {
        return false;
    }
    ends_on_its_line(bytes, first)
}
