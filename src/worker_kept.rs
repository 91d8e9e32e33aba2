//! What the worker keeps of an analysis. Files are read from their blobs a slice at a time
//! ([`crate::worker_read`]); when the sessions stream (toolscope's native JSON Lines, see
//! `toolscope_core::read_analysis`) the worker keeps the report and where each session's line
//! is, not the sessions: a session is read again from its line when it is opened, a filter's
//! report is made by reading the files again ([`Streamed::filtered`]), the judge reads the files
//! again to choose its calls and keeps only the sessions holding them ([`Streamed::judged`]),
//! and every session is kept only when a comparison with a baseline needs them
//! ([`ensure_analysis`]).
//! Otherwise it keeps the whole [`Analysis`], as before.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use toolscope_core::formats::native::read_line_session;
use toolscope_core::judge::sample::CallRef;
use toolscope_core::judge::streamed::{
    add_verdicts_under, choose_streamed, read_judged, Chosen, Judged, Read, Wanted,
};
use toolscope_core::model::Session;
use toolscope_core::report::rows::SessionRows;
use toolscope_core::{
    detect_role, detect_role_of_start, read_analysis, read_report_under, Analysis, Filter,
    InputFile, Options, ReadAnalysis, Report, Role, Source, ROLE_PROBE_BYTES,
};
use web_sys::Blob;

use crate::protocol::{FileSpec, Reply, RoleUsed};
use crate::worker::engine_progress;
use crate::worker_read::{
    blobs_of, load, read_line, read_start, readable_size, BlobLines, Done, LineStarts,
};

/// What a reading again says when the files do not read as they did.
const CHANGED: &str = "the files no longer read as they did: were they changed?";

/// The most input whose every session the worker reads into memory after they streamed (an
/// analysis holds 4–7× its input): past it, a comparison with a baseline is refused with a
/// message rather than the tab running out of memory (the judge reads only the sessions it
/// judges).
pub(crate) const KEPT_LIMIT: u64 = 256 << 20;

thread_local! {
    /// The last analysis when its sessions streamed.
    static STREAMED: RefCell<Option<Streamed>> = const { RefCell::new(None) };
}

/// An analysis whose sessions streamed: the report, and the files (each trace file with where
/// its lines start) to read a session again, or every session when they are needed.
pub(crate) struct Streamed {
    /// The report.
    pub report: Report,
    /// The files, with the roles they were read as.
    files: Vec<FileSpec>,
    blobs: Vec<Blob>,
    /// Per file, for trace files: where each line starts.
    lines: Vec<Option<LineStarts>>,
    options: Options,
}

/// What reading the dropped files gave.
pub(crate) enum Kept {
    /// The whole analysis, sessions and all.
    Analysis(Box<Analysis>),
    /// The report, the sessions left in their files.
    Streamed,
}

/// Forgets the streamed analysis (a new one is coming).
pub(crate) fn forget() {
    STREAMED.with(|kept| *kept.borrow_mut() = None);
}

/// Runs `read` on the streamed analysis's report, if the last analysis streamed.
pub(crate) fn with_streamed<T>(read: impl FnOnce(&Streamed) -> T) -> Option<T> {
    STREAMED.with(|kept| kept.borrow().as_ref().map(read))
}

/// Runs `change` on the streamed analysis (a judge run adds its verdicts to its report), if the
/// last analysis streamed.
pub(crate) fn with_streamed_mut<T>(change: impl FnOnce(&mut Streamed) -> T) -> Option<T> {
    STREAMED.with(|kept| kept.borrow_mut().as_mut().map(change))
}

/// Reads the files (`blobs` beside `files`) and analyses them: each file's role (chosen, or
/// told from its first bytes), and what is kept. Progress goes to the page as it reads.
pub(crate) fn read_inputs(
    job: u32,
    files: &[FileSpec],
    blobs: &Array,
    options: &Options,
    send: &mut dyn FnMut(Reply),
) -> Result<(Vec<RoleUsed>, Kept), String> {
    let blobs = blobs_of(files, blobs)?;
    let mut roles = Vec::with_capacity(files.len());
    for (file, blob) in files.iter().zip(&blobs) {
        let (role, reason) = match (file.role, readable_size(blob)) {
            (Some(role), _) => (role, "chosen by you".to_string()),
            (None, None) => detect_role(&[]),
            (None, Some(size)) => {
                let start = read_start(blob, ROLE_PROBE_BYTES as u64)
                    .map_err(|message| format!("{}: {message}", file.name))?;
                detect_role_of_start(&start, size)
            }
        };
        roles.push(RoleUsed {
            file: file.name.clone(),
            role,
            reason,
        });
    }
    let named: Vec<(&str, Role)> = roles
        .iter()
        .map(|used| (used.file.as_str(), used.role))
        .collect();
    let (sources, lines) = blob_sources(job, &named, &blobs, true)?;
    let read = read_analysis(sources, options, &mut engine_progress(job, send))
        .map_err(|error| error.to_string())?;
    let kept = match read {
        ReadAnalysis::Kept(analysis) => Kept::Analysis(analysis),
        ReadAnalysis::Streamed(report) => {
            let files = roles
                .iter()
                .map(|used| FileSpec {
                    name: used.file.clone(),
                    role: Some(used.role),
                })
                .collect();
            let streamed = Streamed {
                report: *report,
                files,
                blobs,
                lines,
                options: *options,
            };
            STREAMED.with(|kept| *kept.borrow_mut() = Some(streamed));
            Kept::Streamed
        }
    };
    Ok((roles, kept))
}

/// Each file (name and role) as a source the engine reads from its blob a slice at a time, and,
/// with `notes_lines`, for trace files where their lines start (filled as they are read). A
/// file over the size limit is not read: the engine reports it.
fn blob_sources<'a>(
    job: u32,
    files: &[(&'a str, Role)],
    blobs: &[Blob],
    notes_lines: bool,
) -> Result<(Vec<Source<'a>>, Vec<Option<LineStarts>>), String> {
    let total: u64 = blobs.iter().filter_map(readable_size).sum();
    let mut lines = Vec::with_capacity(files.len());
    let mut sources = Vec::with_capacity(files.len());
    let mut before = 0;
    for (&(name, role), blob) in files.iter().zip(blobs) {
        let Some(size) = readable_size(blob) else {
            lines.push(None);
            sources.push(Source::Whole(InputFile::too_large(
                name,
                blob.size() as u64,
                role,
            )));
            continue;
        };
        let starts: Option<LineStarts> = (notes_lines && role == Role::Traces).then(Rc::default);
        let done = Done { job, before, total };
        before += size;
        let reader = BlobLines::new(blob.clone(), starts.clone(), done)?;
        lines.push(starts);
        sources.push(Source::Reader {
            name,
            role,
            reader: Box::new(reader),
        });
    }
    Ok((sources, lines))
}

impl Streamed {
    /// The report under `filter` (not empty): the files read again, each session checked and
    /// scored and only those the filter keeps making rows; progress as `job`.
    pub(crate) fn filtered(&self, job: u32, filter: &Filter) -> Result<Report, String> {
        let named = self.named();
        let (sources, _) = blob_sources(job, &named, &self.blobs, false)?;
        let mut report = read_report_under(sources, &self.options, filter)
            .map_err(|error| error.to_string())?
            .ok_or_else(|| CHANGED.to_string())?;
        crate::worker::with_run_verdicts_kept(|verdicts| {
            if !verdicts.is_empty() {
                add_verdicts_under(&mut report, filter, verdicts);
            }
        });
        Ok(report)
    }

    /// What a judge run needs (`toolscope_core::judge::streamed`): the calls `wanted` picks,
    /// chosen by reading the files again, and the sessions holding them, read once more (the
    /// others are dropped as they are read); progress as `job`.
    pub(crate) fn judged(
        &self,
        job: u32,
        wanted: &Wanted,
    ) -> Result<(Vec<CallRef>, Judged), String> {
        let named = self.named();
        let (sources, _) = blob_sources(job, &named, &self.blobs, false)?;
        let chosen = choose_streamed(sources, &self.options, wanted, &mut |_| {})
            .map_err(|error| error.to_string())?;
        let Read::Streamed(Chosen { calls: chosen, .. }) = chosen else {
            return Err(CHANGED.to_string());
        };
        let (sources, _) = blob_sources(job, &named, &self.blobs, false)?;
        match read_judged(sources, &self.options, &chosen, &mut |_| {})
            .map_err(|error| error.to_string())?
        {
            Read::Streamed(judged) => Ok((chosen, judged)),
            Read::Whole(_) => Err(CHANGED.to_string()),
        }
    }

    /// Each file's name and role.
    fn named(&self) -> Vec<(&str, Role)> {
        self.files
            .iter()
            .map(|file| (file.name.as_str(), file.role.unwrap_or(Role::Traces)))
            .collect()
    }

    /// The agents, in order of first appearance in the files (as [`Analysis::agents`] gives
    /// them): the report's rows in their files' order and by line.
    pub(crate) fn agents(&self) -> Vec<String> {
        let file_order = |name: &str| self.files.iter().position(|file| file.name == name);
        let mut rows: Vec<_> = self.report.sessions.iter().collect();
        toolscope_core::sort::sort_by_key(&mut rows, |row| {
            (file_order(&row.origin.file), row.origin.line)
        });
        let mut agents: Vec<String> = Vec::new();
        for agent in rows.iter().filter_map(|row| row.agent_id.as_ref()) {
            if !agents.contains(agent) {
                agents.push(agent.clone());
            }
        }
        agents
    }

    /// Session `session_id` read again from its line, with what its view shows beside it; None
    /// when there is no such session, an error when its line cannot be read again (a file name
    /// given twice, a file changed on disk).
    pub(crate) fn session(
        &self,
        session_id: &str,
    ) -> Result<Option<(Session, SessionRows)>, String> {
        let Some(row) = self
            .report
            .sessions
            .iter()
            .find(|row| row.session_id == session_id)
        else {
            return Ok(None);
        };
        let origin = &row.origin;
        let mut named = self
            .files
            .iter()
            .enumerate()
            .filter(|(_, file)| file.name == origin.file && file.role == Some(Role::Traces));
        let (Some((index, _)), None) = (named.next(), named.next()) else {
            return Err(format!("{} is not one trace file", origin.file));
        };
        let starts = self.lines[index]
            .as_ref()
            .ok_or_else(|| format!("{} was not read in lines", origin.file))?;
        let bytes = read_line(&self.blobs[index], &starts.borrow(), origin.line)?;
        let mut session =
            read_line_session(&origin.file, origin.line, &bytes).ok_or_else(|| {
                format!(
                    "{} line {}: the session is no longer there (was the file changed?)",
                    origin.file, origin.line
                )
            })?;
        session.session_id.clone_from(&row.session_id);
        let rows = self.report.session_rows(session_id);
        Ok(Some((session, rows)))
    }
}

/// Makes sure the worker holds the whole analysis: after the sessions streamed, reads every
/// file again and analyses it (progress as `job`), unless the input is past [`KEPT_LIMIT`].
/// `store` receives the analysis.
pub(crate) fn ensure_analysis(
    job: u32,
    send: &mut dyn FnMut(Reply),
    store: impl FnOnce(Analysis),
) -> Result<(), String> {
    let analysis = STREAMED.with(|kept| {
        let kept = kept.borrow();
        let streamed = kept
            .as_ref()
            .ok_or("nothing has been analysed yet".to_string())?;
        streamed.analyse(job, send)
    })?;
    STREAMED.with(|kept| *kept.borrow_mut() = None);
    store(analysis);
    Ok(())
}

impl Streamed {
    /// Every file read whole again and analysed, keeping the sessions.
    fn analyse(&self, job: u32, send: &mut dyn FnMut(Reply)) -> Result<Analysis, String> {
        within_kept_limit(self.blobs.iter().filter_map(readable_size).sum())?;
        let contents = load(job, &self.files, &self.blobs, send)?;
        let inputs: Vec<InputFile<'_>> = self
            .files
            .iter()
            .zip(&contents)
            .zip(&self.blobs)
            .map(|((file, bytes), blob)| {
                let role = file.role.unwrap_or(Role::Traces);
                match readable_size(blob) {
                    None => InputFile::too_large(&file.name, blob.size() as u64, role),
                    Some(_) => InputFile::new(&file.name, bytes, role),
                }
            })
            .collect();
        Ok(Analysis::new(
            &inputs,
            &self.options,
            &mut engine_progress(job, send),
        ))
    }
}

/// Whether `total` bytes of input may be read into an analysis with every session (see
/// [`KEPT_LIMIT`]); the message for the page when not.
fn within_kept_limit(total: u64) -> Result<(), String> {
    if total <= KEPT_LIMIT {
        return Ok(());
    }
    Err(format!(
        "a comparison with a baseline needs every session in memory, and these files ({} MB) \
         are more than the page holds ({} MB): use the CLI (toolscope diff) on them",
        total >> 20,
        KEPT_LIMIT >> 20
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_past_the_kept_limit_is_refused_naming_its_size_and_the_cli() {
        assert_eq!(within_kept_limit(KEPT_LIMIT), Ok(()));
        let message = within_kept_limit(KEPT_LIMIT + (44 << 20)).unwrap_err();
        assert!(
            message.contains("(300 MB)") && message.contains("(256 MB)"),
            "{message}"
        );
        assert!(message.contains("toolscope diff"), "{message}");
    }
}
