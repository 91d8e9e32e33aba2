//! The engine's side of the Web Worker: reads the files the page posts (with `FileReaderSync`,
//! allowed only in workers, a slice at a time), analyses them, and answers the page's requests
//! for rows, sessions, filtered reports and files from what it keeps (the report and where each
//! session is when the sessions stream, else the whole [`Analysis`]: `worker_kept`). Nothing here
//! computes a number: it only moves bytes and JSON.

use std::cell::RefCell;

use js_sys::{Array, Uint8Array};
use toolscope_core::judge::in_report::add_verdicts;
use toolscope_core::judge::verdict_file::{merge_verdicts, write_verdicts};
use toolscope_core::judge::Verdict;
use toolscope_core::report::csv::problems_csv;
use toolscope_core::report::rows::{Rows, RowsQuery};
use toolscope_core::{Analysis, Filter, Progress, Report, Role, Stage};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::protocol::{CompareSide, Export, FileSpec, Reply, Request, Step};
use crate::worker_kept::{Kept, Streamed};
use crate::worker_read::{blobs_of, load};
use crate::worker_share::{self, Posted};

thread_local! {
    /// The last analysis, for filter and session requests.
    static ANALYSIS: RefCell<Option<Analysis>> = const { RefCell::new(None) };
    /// How many analyses have been kept: a judge run adds its verdicts only to the one it
    /// planned on.
    static GENERATION: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// The report under the last non-empty filter asked for, for its rows.
    static VIEW: RefCell<Option<(Filter, Report)>> = const { RefCell::new(None) };
    /// The verdicts of the judge runs on the kept analysis, merged as later files would be: a
    /// share link or sealed file made now carries them as one more verdicts file.
    static RUN_VERDICTS: RefCell<Vec<Verdict>> = const { RefCell::new(Vec::new()) };
}

/// The name of the verdicts file a share carries for the page's judge runs.
const RUN_VERDICTS_FILE: &str = "judge-run-verdicts.jsonl";

/// The kept analysis's generation (see `GENERATION`).
pub(crate) fn generation() -> u64 {
    GENERATION.with(std::cell::Cell::get)
}

/// Adds a judge run's verdicts to the kept analysis, or to the streamed report, if it is still
/// generation `generation` (and to those a share carries, and to the reports of filters on
/// streamed sessions made later); the whole report's aggregates as JSON, or None when the
/// traces changed.
pub(crate) fn add_run_verdicts(generation: u64, verdicts: Vec<Verdict>) -> Option<String> {
    if GENERATION.with(std::cell::Cell::get) != generation {
        return None;
    }
    let aggregates = if has_analysis() {
        ANALYSIS.with(|kept| {
            let mut kept = kept.borrow_mut();
            let analysis = kept.as_mut()?;
            analysis.add_verdicts(verdicts.clone());
            Some(to_json(&analysis.report().aggregates()))
        })
    } else {
        crate::worker_kept::with_streamed_mut(|streamed| {
            add_verdicts(&mut streamed.report, verdicts.clone());
            to_json(&streamed.report.aggregates())
        })
    }?;
    RUN_VERDICTS.with(|kept| merge_verdicts(&mut kept.borrow_mut(), verdicts));
    VIEW.with(|view| *view.borrow_mut() = None);
    Some(aggregates)
}

/// Runs `read` on the verdicts of the judge runs on the kept analysis or streamed report.
pub(crate) fn with_run_verdicts_kept<T>(read: impl FnOnce(&[Verdict]) -> T) -> T {
    RUN_VERDICTS.with(|kept| read(&kept.borrow()))
}

/// Runs `read` on the kept analysis's report under `filter` (the whole report when it is
/// empty), kept as the last filter's report.
fn with_report_under<T>(
    analysis: &Analysis,
    filter: &Filter,
    read: impl FnOnce(&Report) -> T,
) -> T {
    if filter.is_empty() {
        return read(analysis.report());
    }
    match cached_view(filter, || Ok(analysis.filtered(filter)), read) {
        Ok(read) => read,
        Err(never) => unreachable!("filtering a kept analysis does not fail: {never}"),
    }
}

/// Runs `read` on the report under `filter` (not empty): the one kept from the last filter
/// asked for when it is this filter, else the one `make` gives, kept in its place. So paging
/// through a filter's rows filters once.
fn cached_view<T>(
    filter: &Filter,
    make: impl FnOnce() -> Result<Report, String>,
    read: impl FnOnce(&Report) -> T,
) -> Result<T, String> {
    let is_kept = VIEW.with(|view| {
        view.borrow()
            .as_ref()
            .is_some_and(|(kept, _)| kept == filter)
    });
    if !is_kept {
        let report = make()?;
        VIEW.with(|view| *view.borrow_mut() = Some((filter.clone(), report)));
    }
    Ok(VIEW.with(|view| read(&view.borrow().as_ref().expect("just kept").1)))
}

/// Whether the whole analysis is kept (always for files that did not stream; after a comparison
/// a comparison with a baseline for those that did).
fn has_analysis() -> bool {
    ANALYSIS.with(|kept| kept.borrow().is_some())
}

/// Runs `read` on the kept analysis.
fn kept_analysis<T>(read: impl FnOnce(&Analysis) -> T) -> Result<T, String> {
    ANALYSIS.with(|kept| {
        kept.borrow()
            .as_ref()
            .map(read)
            .ok_or(NOTHING_YET.to_string())
    })
}

/// The files of a share: the loaded ones, then the page's judge runs' verdicts as one more
/// verdicts file (under a name no loaded file has), so the link opens to the same report.
fn with_run_verdicts(
    mut files: Vec<FileSpec>,
    mut contents: Vec<Vec<u8>>,
) -> (Vec<FileSpec>, Vec<Vec<u8>>) {
    let text = RUN_VERDICTS.with(|kept| {
        let kept = kept.borrow();
        (!kept.is_empty()).then(|| write_verdicts(&kept))
    });
    if let Some(text) = text {
        let name = (1..)
            .map(|n| match n {
                1 => RUN_VERDICTS_FILE.to_string(),
                n => RUN_VERDICTS_FILE.replace(".jsonl", &format!("-{n}.jsonl")),
            })
            .find(|name| files.iter().all(|file| &file.name != name))
            .expect("some name is free");
        files.push(FileSpec {
            name,
            role: Some(Role::Verdicts),
        });
        contents.push(text.into_bytes());
    }
    (files, contents)
}

/// What a request on nothing says.
const NOTHING_YET: &str = "nothing has been analysed yet";

/// Runs `read` on the whole report: the kept analysis's, or the streamed one's.
pub(crate) fn with_report<T>(read: impl FnOnce(&Report) -> T) -> Option<T> {
    match has_analysis() {
        true => kept_analysis(|analysis| read(analysis.report())).ok(),
        false => crate::worker_kept::with_streamed(|streamed| read(&streamed.report)),
    }
}

/// Runs `read` on the report under `filter`: the whole report when the filter is empty, else
/// the kept analysis's report under it, or, when the sessions streamed, the report made by
/// reading the files again under it (progress as `job`). The last filter's report is kept.
fn with_view<T>(job: u32, filter: &Filter, read: impl FnOnce(&Report) -> T) -> Result<T, String> {
    if filter.is_empty() {
        return with_report(read).ok_or(NOTHING_YET.to_string());
    }
    if has_analysis() {
        return kept_analysis(|analysis| with_report_under(analysis, filter, read));
    }
    let make = || {
        crate::worker_kept::with_streamed(|streamed| streamed.filtered(job, filter))
            .ok_or(NOTHING_YET.to_string())?
    };
    cached_view(filter, make, read)
}

/// The comparison of two sides (compact JSON): from the kept analysis, or, when the sessions
/// streamed, an agent's side read again under its filter (a baseline needs the analysis).
fn compare_sides(
    job: u32,
    base: &CompareSide,
    current: &CompareSide,
    send: &mut dyn FnMut(Reply),
) -> Result<String, String> {
    let has_baseline = [base, current].contains(&&CompareSide::Baseline);
    if has_baseline || has_analysis() {
        ensure_analysis(job, send)?;
        return kept_analysis(|analysis| {
            crate::worker_compare::compare(analysis.report(), base, current, &mut |side| {
                crate::worker_compare::side_of_analysis(analysis, side)
            })
        })?;
    }
    crate::worker_kept::with_streamed(|streamed| {
        crate::worker_compare::compare(&streamed.report, base, current, &mut |side| {
            match crate::worker_compare::filter_of(side) {
                Some(filter) => streamed.filtered(job, &filter),
                None => Ok(streamed.report.clone()),
            }
        })
    })
    .ok_or(NOTHING_YET.to_string())?
}

/// Makes sure the whole analysis is kept (reading every session again when they streamed, with
/// the verdicts of the judge's runs on them).
fn ensure_analysis(job: u32, send: &mut dyn FnMut(Reply)) -> Result<(), String> {
    if has_analysis() {
        return Ok(());
    }
    crate::worker_kept::ensure_analysis(job, send, |mut analysis| {
        // The judge's runs on the streamed report carry over.
        let verdicts = RUN_VERDICTS.with(|kept| kept.borrow().clone());
        if !verdicts.is_empty() {
            analysis.add_verdicts(verdicts);
        }
        ANALYSIS.with(|kept| *kept.borrow_mut() = Some(analysis));
    })
}

/// Starts a judge run: on the kept analysis, or, when the sessions streamed, on the calls chosen
/// by reading the files again and the sessions holding them read once more (never every
/// session: `toolscope_core::judge::streamed`).
fn start_judge(
    job: u32,
    run: crate::protocol::JudgeRunSpec,
    is_estimate: bool,
    send: &mut dyn FnMut(Reply),
) -> Result<(), String> {
    let price = crate::worker_judge::check(&run, is_estimate)?;
    let wanted = crate::worker_judge::wanted(&run.selection, |filter, query| {
        with_view(job, filter, |report| {
            crate::worker_judge::turns_of(report.rows(query))
        })
    })?;
    if has_analysis() {
        return kept_analysis(|analysis| {
            let chosen = wanted.on_analysis(analysis);
            crate::worker_judge::start(
                job,
                run,
                is_estimate,
                price,
                &chosen,
                &|session_id| analysis.session(session_id),
                analysis.catalog_tools(),
                send,
            )
        });
    }
    let (chosen, judged) =
        crate::worker_kept::with_streamed(|streamed| streamed.judged(job, &wanted))
            .ok_or(NOTHING_YET.to_string())??;
    let by_id = judged.by_id();
    crate::worker_judge::start(
        job,
        run,
        is_estimate,
        price,
        &chosen,
        &|session_id| by_id.get(session_id).copied(),
        judged.catalog.as_deref(),
        send,
    );
    Ok(())
}

/// Session `session_id` and what its view shows beside it, as JSON; None when there is no such
/// session.
fn session_with_rows(
    session_id: &str,
    send: &mut dyn FnMut(Reply),
) -> Result<Option<(String, String)>, String> {
    let streamed = crate::worker_kept::with_streamed(|streamed| streamed.session(session_id));
    let found = match streamed {
        Some(Ok(found)) => {
            return Ok(found.map(|(session, rows)| (to_json(&session), to_json(&rows))))
        }
        // A line that cannot be read again: every session is read instead.
        Some(Err(_)) => ensure_analysis(0, send),
        None => Ok(()),
    };
    found?;
    kept_analysis(|analysis| {
        analysis.session(session_id).map(|session| {
            let rows = analysis.report().session_rows(session_id);
            (to_json(session), to_json(&rows))
        })
    })
}

/// Posts a reply from a task (the judge run's), outside a request's handler.
pub(crate) fn post_reply(reply: &Reply) {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    post(&scope, reply);
}

/// Listens for requests and says it is ready (messages sent before that would be lost), then
/// warms the engine up until the first request comes (`worker_warmup`).
pub fn start() {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        crate::worker_warmup::stop();
        let data = Array::from(&event.data());
        let text = data.get(0).as_string().unwrap_or_default();
        let blobs = Array::from(&data.get(1));
        let mut send = |reply: Reply| post(&replies, &reply);
        match serde_json::from_str::<Request>(&text) {
            Ok(request) => {
                if let Some(posted) = handle(request, &blobs, &mut send) {
                    post_with_bytes(&replies, posted);
                }
            }
            Err(error) => send(Reply::Failed {
                job: 0,
                message: format!("the page sent a request the worker does not understand: {error}"),
            }),
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    post(&scope, &Reply::Ready);
    crate::worker_warmup::start();
}

fn post(scope: &DedicatedWorkerGlobalScope, reply: &Reply) {
    let text = serde_json::to_string(reply).expect("replies serialise");
    // Posting fails only when the page is gone; then there is no one to tell.
    let _ = scope.post_message(&JsValue::from_str(&text));
}

/// Posts a reply with bytes beside it, as `[text, [ArrayBuffer…]]`, the buffers transferred (not
/// copied again).
fn post_with_bytes(scope: &DedicatedWorkerGlobalScope, (reply, contents): Posted) {
    if contents.is_empty() {
        return post(scope, &reply);
    }
    let text = serde_json::to_string(&reply).expect("replies serialise");
    let buffers: Array = contents
        .iter()
        .map(|bytes| Uint8Array::from(bytes.as_slice()).buffer())
        .collect();
    let message = Array::of2(&JsValue::from_str(&text), &buffers);
    let _ = scope.post_message_with_transfer(&message, &buffers);
}

/// Answers a request: through `send` as it goes, and with what to post last (with bytes).
fn handle(request: Request, blobs: &Array, send: &mut dyn FnMut(Reply)) -> Option<Posted> {
    match request {
        Request::OpenData { job, value } => return Some(worker_share::open_data(job, &value)),
        Request::Html { job, title } => {
            let options = toolscope_html::HtmlOptions { title };
            let html = with_report(|report| toolscope_html::render(report, &options));
            let reply = match html {
                Some(html) => Reply::Html { job, html },
                None => Reply::Failed {
                    job,
                    message: "nothing has been analysed yet".into(),
                },
            };
            return Some((reply, Vec::new()));
        }
        Request::OpenHosted { job, files, key } => {
            let specs: Vec<FileSpec> = files
                .iter()
                .map(|file| FileSpec {
                    name: file.name.clone(),
                    role: file.role,
                })
                .collect();
            return match load_posted(job, &specs, blobs, send) {
                Ok(contents) => Some(worker_share::open_hosted(
                    job,
                    files,
                    contents,
                    key.as_deref(),
                )),
                Err(message) => Some((Reply::Failed { job, message }, Vec::new())),
            };
        }
        Request::Pack {
            job,
            files,
            options,
        } => {
            return match load_posted(job, &files, blobs, send) {
                Ok(contents) => {
                    let (files, contents) = with_run_verdicts(files, contents);
                    Some(worker_share::pack(job, files, contents, options))
                }
                Err(message) => Some((Reply::Failed { job, message }, Vec::new())),
            };
        }
        Request::Seal {
            job,
            files,
            options,
            key,
            nonce,
        } => {
            return match load_posted(job, &files, blobs, send) {
                Ok(contents) => {
                    let (files, contents) = with_run_verdicts(files, contents);
                    Some(worker_share::seal(
                        job, files, contents, options, &key, nonce,
                    ))
                }
                Err(message) => Some((Reply::Failed { job, message }, Vec::new())),
            };
        }
        Request::Analyze {
            job,
            files,
            options,
            filter,
        } => {
            crate::worker_judge::stop_for_new_analysis();
            RUN_VERDICTS.with(|kept| kept.borrow_mut().clear());
            ANALYSIS.with(|kept| *kept.borrow_mut() = None);
            crate::worker_kept::forget();
            VIEW.with(|view| *view.borrow_mut() = None);
            let (roles, kept) =
                match crate::worker_kept::read_inputs(job, &files, blobs, &options, send) {
                    Ok(read) => read,
                    Err(message) => {
                        send(Reply::Failed { job, message });
                        return None;
                    }
                };
            let agents = match kept {
                Kept::Analysis(analysis) => {
                    let agents = analysis.agents().into_iter().map(String::from).collect();
                    ANALYSIS.with(|kept| *kept.borrow_mut() = Some(*analysis));
                    agents
                }
                Kept::Streamed => {
                    crate::worker_kept::with_streamed(Streamed::agents).unwrap_or_default()
                }
            };
            GENERATION.with(|generation| generation.set(generation.get() + 1));
            send(Reply::Progress {
                job,
                step: Step::Reporting,
            });
            let report = with_report(|report| to_json(&report.aggregates()));
            let view = match filter.is_empty() {
                true => Ok(None),
                false => with_view(job, &filter, |view| to_json(&view.aggregates())).map(Some),
            };
            let (Some(report), Ok(view)) = (report, view) else {
                send(Reply::Failed {
                    job,
                    message:
                        "the files were read but the report under the filter could not be made"
                            .into(),
                });
                return None;
            };
            send(Reply::Analyzed {
                job,
                roles,
                agents,
                report,
                view,
            });
        }
        Request::JudgeRun {
            job,
            run,
            is_estimate,
        } => {
            if let Err(message) = start_judge(job, run, is_estimate, send) {
                send(Reply::Failed { job, message });
            }
        }
        Request::JudgeCancel { job } => crate::worker_judge::cancel(job),
        Request::Compare { job, base, current } => {
            let view = compare_sides(job, &base, &current, send);
            send(match view {
                Ok(view) => Reply::Compared {
                    job,
                    base,
                    current,
                    view,
                },
                Err(message) => Reply::Failed { job, message },
            });
        }
        Request::Filter { job, filter } => {
            match with_view(job, &filter, |view| to_json(&view.aggregates())) {
                Ok(view) => send(Reply::Filtered { job, view }),
                Err(message) => send(Reply::Failed { job, message }),
            }
        }
        Request::Session { job, session_id } => {
            let session = match session_with_rows(&session_id, send) {
                Ok(session) => session,
                Err(message) => {
                    send(Reply::Failed { job, message });
                    return None;
                }
            };
            send(Reply::Session {
                job,
                session_id,
                session,
            });
        }
        Request::Rows { job, filter, query } => {
            // Progress of reading the files again (for a filter) goes nowhere (job 0): the page's
            // status follows the filter's own request, which comes first.
            let rows = with_view(0, &filter, |report| to_json(&report.rows(&query)));
            send(match rows {
                Ok(rows) => Reply::Rows {
                    job,
                    filter,
                    query,
                    rows,
                },
                Err(message) => Reply::Failed { job, message },
            });
        }
        Request::Export { job, export } => return Some(exported(job, &export)),
    }
    None
}

/// The file `export` asks for, as a reply with its bytes.
fn exported(job: u32, export: &Export) -> Posted {
    let file = (|| -> Result<_, String> {
        Ok(match export {
            Export::ReportJson => {
                let json = with_report(report_json).ok_or(NOTHING_YET)?;
                ("toolscope-report.json", "application/json", json)
            }
            Export::ProblemsCsv {
                filter,
                search,
                order,
                is_descending,
            } => {
                let query = RowsQuery::Problems {
                    search: search.clone(),
                    order: *order,
                    is_descending: *is_descending,
                    limit: usize::MAX,
                };
                let csv = with_view(0, filter, |report| match report.rows(&query) {
                    Rows::Problems { rows, .. } => problems_csv(&rows),
                    _ => problems_csv(&[]),
                })?;
                ("problems.csv", "text/csv", csv.into_bytes())
            }
        })
    })();
    match file {
        Ok((name, mime, bytes)) => (
            Reply::Exported {
                job,
                name: name.into(),
                mime: mime.into(),
            },
            vec![bytes],
        ),
        Err(message) => (Reply::Failed { job, message }, Vec::new()),
    }
}

/// Every posted blob's bytes, copied whole (see [`load`]).
fn load_posted(
    job: u32,
    files: &[FileSpec],
    blobs: &Array,
    send: &mut dyn FnMut(Reply),
) -> Result<Vec<Vec<u8>>, String> {
    load(job, files, &blobs_of(files, blobs)?, send)
}

/// Sends the engine's progress on `job`, only when the stage changes or another percent is done
/// ([`Throttle`]).
pub(crate) fn engine_progress(
    job: u32,
    send: &mut dyn FnMut(Reply),
) -> impl FnMut(Progress) + use<'_> {
    let mut throttle = Throttle::default();
    move |progress| {
        if throttle.is_worth_sending(progress) {
            send(Reply::Progress {
                job,
                step: Step::Engine(progress),
            });
        }
    }
}

/// The report JSON as `toolscope report --json` writes it ([`Report::write_json`]: pretty, a
/// final newline), made from the compact JSON the worker writes anyway: a pretty serialiser of
/// every report type beside the compact one adds 6 kB to the worker's wasm, gzipped. jsonxf
/// re-indents the text without reading its values, so every number and string keeps its bytes.
fn report_json(report: &Report) -> Vec<u8> {
    let mut pretty = jsonxf::pretty_print(&to_json(report)).expect("the worker's own JSON");
    pretty.push('\n');
    pretty.into_bytes()
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("reports serialise")
}

pub(crate) fn describe(error: &JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .or_else(|| error.as_string())
        .unwrap_or_else(|| format!("{error:?}"))
}

/// Sends a progress report only when the stage changes or another percent is done, so a large
/// file does not flood the page with messages.
#[derive(Default)]
struct Throttle {
    last: Option<(Stage, u64)>,
}

impl Throttle {
    fn is_worth_sending(&mut self, progress: Progress) -> bool {
        let percent = (progress.done * 100)
            .checked_div(progress.total)
            .unwrap_or(100);
        let now = (progress.stage, percent);
        let is_new = self.last != Some(now);
        self.last = Some(now);
        is_new
    }
}

#[cfg(test)]
mod tests {
    use toolscope_core::{analyze, InputFile, Options, Role};

    use super::*;

    #[test]
    fn the_report_json_download_is_write_jsons_bytes() {
        // Strings that escape, characters past ASCII, line and paragraph separators, empty lists
        // and maps, rates and means with long fractions.
        let sessions = concat!(
            r#"{"session_id": "s\"1\\é", "agent_id": "a\u2028b", "events": ["#,
            r#"{"type": "user", "content": "order 7Q2ZK9XA 😀 \u0007"},"#,
            r#"{"type": "tool_use", "call_id": "c1", "name": "lookup_order", "args": {"order_id": "7Q2ZK9XA", "n": 1e400, "x": []}},"#,
            r#"{"type": "tool_result", "call_id": "c1", "status": "error", "content": "{}"}]}"#,
            "\n",
            r#"{"session_id": "s2", "events": [{"type": "tool_use", "name": "issue_refund", "args": {"amount": 0.1}}]}"#,
            "\n",
        );
        let labels = concat!(
            r#"{"session_id": "s\"1\\é", "expected_tool": "lookup_order", "expected_args": {"order_id": "7Q2ZK9XA"}}"#,
            "\n",
            r#"{"session_id": "s2", "expected_tool": ["lookup_order", "none"]}"#,
            "\n",
            r#"{"session_id": "nowhere", "expected_tool": "x"}"#,
            "\n",
        );
        let report = analyze(
            &[
                InputFile::new("s.jsonl", sessions.as_bytes(), Role::Traces),
                InputFile::new("l.jsonl", labels.as_bytes(), Role::Labels),
            ],
            &Options::default(),
        );
        assert!(report.selection.is_some() && !report.diagnostics.is_empty());
        let mut expected = Vec::new();
        report.write_json(&mut expected).unwrap();
        assert_eq!(
            String::from_utf8(report_json(&report)).unwrap(),
            String::from_utf8(expected).unwrap()
        );
    }
}
