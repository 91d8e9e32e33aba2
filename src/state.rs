//! The page's view-model: the files, the worker's answers and the route, as signals, and the
//! actions that change them. Components read these and call the actions; only the actions talk to
//! the worker.

use std::sync::Arc;

use js_sys::Uint8Array;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use toolscope_core::hashing::{HashMap, HashMapExt};
use toolscope_core::model::Session;
use toolscope_core::report::rows::{Rows, RowsQuery, SessionRows};
use toolscope_core::{Options, Report, Role};
use web_sys::Blob;

use crate::client::WorkerClient;
use toolscope_core::judge::cost::RunEstimate;

use crate::judge_form::JudgeFormValues;
use crate::protocol::{
    CompareSide, CompareView, Export, FileSpec, HostedFile, Reply, Request, RoleUsed, Step,
};
use crate::route::Route;

/// The job number of sharing requests (packing, sealing): their replies go to the share dialog
/// and their progress never replaces the report's status.
pub const SHARE_JOB: u32 = u32::MAX;

/// The job number of judge runs: their replies go to the judge tab's run controls.
pub const JUDGE_JOB: u32 = u32::MAX - 1;

/// The job number of comparisons: their replies go to the comparison view.
pub const COMPARE_JOB: u32 = u32::MAX - 2;

/// The job number of exports (the report JSON, the problems CSV): their replies are saved as
/// files.
pub const EXPORT_JOB: u32 = u32::MAX - 3;

/// One list's rows as the page last asked for them: the question and the last answer with its
/// question (shown while a question that differs only in its limit is on its way, so "show
/// more" does not blank the table).
#[derive(Debug, Clone, PartialEq, Default)]
struct RowsSlot {
    /// The last question asked.
    asked: Option<RowsQuery>,
    /// The last answer, and its question.
    answer: Option<(RowsQuery, Arc<Rows>)>,
}

/// The question with its limit set to 0: two questions that differ only in their limits ask for
/// the same rows, more or fewer of them.
fn unlimited(query: &RowsQuery) -> RowsQuery {
    let mut query = query.clone();
    match &mut query {
        RowsQuery::Sessions { limit }
        | RowsQuery::Problems { limit, .. }
        | RowsQuery::CellTurns { limit, .. }
        | RowsQuery::TaskOutcomes { limit }
        | RowsQuery::Verdicts { limit } => *limit = 0,
    }
    query
}

/// Which list a query asks for: one slot each.
fn list_of(query: &RowsQuery) -> &'static str {
    match query {
        RowsQuery::Sessions { .. } => "sessions",
        RowsQuery::Problems { .. } => "problems",
        RowsQuery::CellTurns { .. } => "cell_turns",
        RowsQuery::TaskOutcomes { .. } => "task_outcomes",
        RowsQuery::Verdicts { .. } => "verdicts",
    }
}

/// What the comparison view has from the worker.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CompareStatus {
    /// Nothing asked yet.
    #[default]
    Idle,
    /// Asked for these sides, not answered.
    Running(CompareSide, CompareSide),
    /// The comparison of these sides.
    Ready(Arc<CompareView>),
    /// What went wrong.
    Failed(String),
}

/// A judge run's plan, as the worker made it.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgePlan {
    /// The calls chosen.
    pub calls: usize,
    /// Of which the cache has.
    pub cached: usize,
    /// The requests the others need, with tokens and cost.
    pub estimate: RunEstimate,
    /// Whether the model has a price.
    pub is_priced: bool,
}

/// Where the judge run is.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeStatus {
    /// The last plan (an estimate, or the run's).
    pub plan: Option<JudgePlan>,
    /// While a run is under way: calls done, of all, and the spend (tokens in and out, dollars).
    pub progress: Option<(usize, usize, u64, u64, Option<f64>)>,
    /// Whether a run is under way.
    pub is_running: bool,
    /// The last run's summary.
    pub summary: Option<String>,
    /// What went wrong.
    pub error: Option<String>,
}

/// What the share dialog has from the worker.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ShareStatus {
    /// Nothing asked yet.
    #[default]
    Idle,
    /// The worker is packing or sealing.
    Working,
    /// A data link's value (`data=` … ), or None when the files can never fit in a link.
    Packed {
        /// The value, when it was made.
        value: Option<String>,
        /// The uncompressed size of the inputs.
        packed_bytes: u64,
    },
    /// A sealed file was downloaded; its key (kept only here, in memory).
    Sealed {
        /// The key, as it goes in the link.
        key: String,
    },
    /// Sharing failed.
    Failed(String),
}

/// A file the user gave (or the demo's).
#[derive(Clone)]
pub struct LoadedFile {
    /// Stable identity for lists.
    pub key: u32,
    /// Its name.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// Its bytes, read by the worker.
    pub blob: SendWrapper<Blob>,
    /// The role the user chose; None to detect it.
    pub role: Option<Role>,
}

/// Where the current job is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Status {
    /// Nothing loaded yet.
    #[default]
    Empty,
    /// The worker is at work.
    Running(Option<Step>),
    /// The report is up to date.
    Done,
    /// The user stopped the job.
    Cancelled,
    /// The job failed.
    Failed(String),
}

/// A session fetched from the worker for the session view.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionDetail {
    /// The id asked for.
    pub session_id: String,
    /// The session and what its view shows beside its events, or None when there is no such
    /// session.
    pub session: Option<(Session, SessionRows)>,
}

/// Everything the page shows, as signals; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The files, in the order given.
    pub files: RwSignal<Vec<LoadedFile>>,
    /// The job's status.
    pub status: RwSignal<Status>,
    /// The whole report's aggregates ([`Report::aggregates`]: its lists' rows stay in the
    /// worker).
    pub report: RwSignal<Option<Arc<Report>>>,
    /// The aggregates of the report under the route's filter (the whole one's when the filter
    /// is empty).
    pub view: RwSignal<Option<Arc<Report>>>,
    /// Rows of the view's lists, asked for as views open them, by list.
    rows: RwSignal<HashMap<&'static str, RowsSlot>>,
    /// Each file's role as used.
    pub roles: RwSignal<Vec<RoleUsed>>,
    /// The agents in the traces.
    pub agents: RwSignal<Vec<String>>,
    /// The route (view, filters, selections), mirrored in the URL.
    pub route: RwSignal<Route>,
    /// The session opened in the session view.
    pub session: RwSignal<Option<Arc<SessionDetail>>>,
    /// The analysis options.
    pub options: RwSignal<Options>,
    /// What went wrong opening a link, a hosted file or a message from another page (the rest
    /// still loads).
    pub load_errors: RwSignal<Vec<String>>,
    /// The report's title, from a manifest or the page that opened this one.
    pub title: RwSignal<Option<String>>,
    /// The share dialog's state.
    pub share: RwSignal<ShareStatus>,
    /// The judge tab's run controls, as typed (the key in memory only).
    pub judge_form: RwSignal<JudgeFormValues>,
    /// Where the judge run is.
    pub judge: RwSignal<JudgeStatus>,
    /// Whether the report holds verdicts of judge runs made in this page (which a share then
    /// carries as one more verdicts file).
    pub has_run_verdicts: RwSignal<bool>,
    /// The comparison view's comparison.
    pub compare: RwSignal<CompareStatus>,
    client: StoredValue<Option<WorkerClient>, LocalStorage>,
    job: StoredValue<u32>,
    next_key: StoredValue<u32>,
}

impl AppState {
    /// Creates the state and starts the worker.
    pub fn new(route: Route) -> AppState {
        let state = AppState {
            files: RwSignal::new(Vec::new()),
            status: RwSignal::new(Status::Empty),
            report: RwSignal::new(None),
            view: RwSignal::new(None),
            rows: RwSignal::new(HashMap::new()),
            roles: RwSignal::new(Vec::new()),
            agents: RwSignal::new(Vec::new()),
            route: RwSignal::new(route),
            session: RwSignal::new(None),
            options: RwSignal::new(Options::default()),
            load_errors: RwSignal::new(Vec::new()),
            title: RwSignal::new(None),
            share: RwSignal::new(ShareStatus::Idle),
            judge_form: RwSignal::new(JudgeFormValues::default()),
            judge: RwSignal::new(JudgeStatus::default()),
            has_run_verdicts: RwSignal::new(false),
            compare: RwSignal::new(CompareStatus::Idle),
            client: StoredValue::new_local(None),
            job: StoredValue::new(0),
            next_key: StoredValue::new(0),
        };
        let client = WorkerClient::new(std::rc::Rc::new(move |reply, bytes| {
            state.on_reply(reply, bytes)
        }));
        state.client.set_value(Some(client));
        state
    }

    /// Adds files the user gave (keeping those already there) and analyses the whole set again.
    /// The files no longer are what a link carried, so the link's source is forgotten.
    pub fn add_files(&self, added: Vec<(String, Blob)>) {
        if added.is_empty() {
            return;
        }
        self.forget_link();
        let mut files = self.files.get_untracked();
        files.extend(
            added
                .into_iter()
                .map(|(name, blob)| self.loaded(name, None, blob)),
        );
        self.files.set(files);
        self.analyze();
    }

    /// Replaces every file (the demo).
    pub fn replace_files(&self, files: Vec<(String, Blob)>) {
        self.files.set(Vec::new());
        self.add_files(files);
    }

    /// Replaces every file with files from a link, a download or another page (with the roles
    /// and options they carry) and analyses them; the route's source of the data is kept.
    pub fn open_files(&self, files: Vec<(String, Option<Role>, Blob)>, options: Option<Options>) {
        if let Some(options) = options {
            self.options.set(options);
        }
        let files = files
            .into_iter()
            .map(|(name, role, blob)| self.loaded(name, role, blob))
            .collect();
        self.files.set(files);
        self.analyze();
    }

    /// Removes one file and analyses the rest.
    pub fn remove_file(&self, key: u32) {
        self.forget_link();
        self.files
            .update(|files| files.retain(|file| file.key != key));
        self.analyze();
    }

    /// Sets (or, with None, clears) the role the user chose for a file.
    pub fn set_role(&self, key: u32, role: Option<Role>) {
        self.forget_link();
        self.files.update(|files| {
            if let Some(file) = files.iter_mut().find(|file| file.key == key) {
                file.role = role;
            }
        });
        self.analyze();
    }

    /// Opens the inputs a data link carries (unpacked in the worker).
    pub fn open_data(&self, value: String) {
        let job = self.next_job();
        self.status.set(Status::Running(None));
        self.send(&Request::OpenData { job, value }, &[]);
    }

    /// Starts a download job: the number to pass to [`AppState::is_current`] and
    /// [`AppState::open_hosted`].
    pub fn start_download(&self) -> u32 {
        self.load_errors.set(Vec::new());
        let job = self.next_job();
        self.status.set(Status::Running(None));
        job
    }

    /// Whether `job` is still the job the page waits for (not cancelled or replaced).
    pub fn is_current(&self, job: u32) -> bool {
        self.job.get_value() == job
    }

    /// Shows a download's progress.
    pub fn show_download(&self, job: u32, done: u64, total: u64) {
        if self.is_current(job) {
            self.status
                .set(Status::Running(Some(Step::Downloading { done, total })));
        }
    }

    /// Hands downloaded files to the worker to check and open (digests, sealed files).
    pub fn open_hosted(&self, job: u32, files: Vec<(HostedFile, Blob)>, key: Option<String>) {
        if !self.is_current(job) {
            return;
        }
        let (specs, blobs): (Vec<HostedFile>, Vec<Blob>) = files.into_iter().unzip();
        self.send(
            &Request::OpenHosted {
                job,
                files: specs,
                key,
            },
            &blobs,
        );
    }

    /// Asks the worker for the HTML report of the whole analysis; it is downloaded when ready.
    pub fn request_html(&self) {
        if self.report.with_untracked(Option::is_none) {
            return;
        }
        let title = self.title.get_untracked();
        self.send(
            &Request::Html {
                job: SHARE_JOB,
                title,
            },
            &[],
        );
    }

    /// Asks the worker for a data link's value for the current files.
    pub fn request_pack(&self) {
        let (files, blobs) = self.specs_and_blobs();
        self.share.set(ShareStatus::Working);
        self.send(
            &Request::Pack {
                job: SHARE_JOB,
                files,
                options: self.options.get_untracked(),
            },
            &blobs,
        );
    }

    /// Asks the worker to seal the current files under a fresh key; the file is downloaded when
    /// it is ready.
    pub fn request_seal(&self) {
        let mut random = [0u8; 44];
        if let Err(message) = crate::random::fill(&mut random) {
            self.share.set(ShareStatus::Failed(message));
            return;
        }
        let mut key = [0u8; 32];
        key.copy_from_slice(&random[..32]);
        let mut nonce = [0u8; 12];
        nonce.copy_from_slice(&random[32..]);
        let key = toolscope_core::share::sealed::ShareKey::from_bytes(key).to_text();
        let (files, blobs) = self.specs_and_blobs();
        self.share.set(ShareStatus::Working);
        self.send(
            &Request::Seal {
                job: SHARE_JOB,
                files,
                options: self.options.get_untracked(),
                key,
                nonce,
            },
            &blobs,
        );
    }

    fn specs_and_blobs(&self) -> (Vec<FileSpec>, Vec<Blob>) {
        self.files.with_untracked(|files| {
            files
                .iter()
                .map(|file| {
                    (
                        FileSpec {
                            name: file.name.clone(),
                            role: file.role,
                        },
                        (*file.blob).clone(),
                    )
                })
                .unzip()
        })
    }

    fn loaded(&self, name: String, role: Option<Role>, blob: Blob) -> LoadedFile {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        LoadedFile {
            key,
            name,
            size: blob.size() as u64,
            blob: SendWrapper::new(blob),
            role,
        }
    }

    fn forget_link(&self) {
        self.route.update(|route| {
            route.is_demo = false;
            route.shared = None;
        });
        self.title.set(None);
        self.load_errors.set(Vec::new());
        self.share.set(ShareStatus::Idle);
    }

    /// Starts a new analysis of the current files.
    pub fn analyze(&self) {
        let files = self.files.get_untracked();
        if files.is_empty() {
            self.next_job();
            self.status.set(Status::Empty);
            self.report.set(None);
            self.set_view(None);
            self.roles.set(Vec::new());
            self.agents.set(Vec::new());
            return;
        }
        let job = self.next_job();
        let (specs, blobs) = self.specs_and_blobs();
        self.share.set(ShareStatus::Idle);
        self.has_run_verdicts.set(false);
        self.compare.set(CompareStatus::Idle);
        self.status.set(Status::Running(None));
        self.send(
            &Request::Analyze {
                job,
                files: specs,
                options: self.options.get_untracked(),
                filter: self.route.get_untracked().filter,
            },
            &blobs,
        );
    }

    /// Asks for the report under the route's filter.
    pub fn refilter(&self) {
        if self.report.with_untracked(Option::is_none) {
            return;
        }
        let filter = self.route.get_untracked().filter;
        if filter.is_empty() {
            self.set_view(self.report.get_untracked());
            return;
        }
        let job = self.next_job();
        self.status.set(Status::Running(None));
        self.send(&Request::Filter { job, filter }, &[]);
    }

    /// Shows `view` (aggregates), forgetting the rows of the one before.
    fn set_view(&self, view: Option<Arc<Report>>) {
        self.view.set(view);
        self.rows.set(HashMap::new());
    }

    /// The rows `query` names (None: none wanted), asked for from the worker whenever the view
    /// or the query changes while the caller lives; the last answer to it (or to the same
    /// question with another limit), or None until one comes.
    pub fn rows(
        &self,
        query: impl Fn() -> Option<RowsQuery> + Send + Sync + 'static,
    ) -> Signal<Option<Arc<Rows>>> {
        let state = *self;
        let query = Memo::new(move |_| query());
        Effect::new(move |_| {
            state.view.track();
            if let Some(query) = query.get() {
                state.ask_rows(query);
            }
        });
        Signal::derive(move || {
            let query = query.get()?;
            state.rows.with(|slots| {
                let (answered, rows) = slots.get(list_of(&query))?.answer.as_ref()?;
                (unlimited(answered) == unlimited(&query)).then(|| rows.clone())
            })
        })
    }

    fn ask_rows(&self, query: RowsQuery) {
        if self.view.with_untracked(Option::is_none) {
            return;
        }
        let list = list_of(&query);
        let is_asked = self.rows.with_untracked(|slots| {
            slots
                .get(list)
                .is_some_and(|slot| slot.asked.as_ref() == Some(&query))
        });
        if is_asked {
            return;
        }
        self.rows
            .update(|slots| slots.entry(list).or_default().asked = Some(query.clone()));
        let filter = self.route.with_untracked(|route| route.filter.clone());
        let job = self.job.get_value();
        self.send(&Request::Rows { job, filter, query }, &[]);
    }

    /// Asks the worker for a file to download (saved when it comes).
    pub fn request_export(&self, export: Export) {
        if self.report.with_untracked(Option::is_none) {
            return;
        }
        self.send(
            &Request::Export {
                job: EXPORT_JOB,
                export,
            },
            &[],
        );
    }

    /// Asks for one session's events.
    pub fn load_session(&self, session_id: String) {
        if self.report.with_untracked(Option::is_none) {
            return;
        }
        let is_loaded = self.session.with_untracked(|detail| {
            detail
                .as_ref()
                .is_some_and(|detail| detail.session_id == session_id)
        });
        if !is_loaded {
            let job = self.job.get_value();
            self.send(&Request::Session { job, session_id }, &[]);
        }
    }

    /// Opens a session in the session view.
    pub fn open_session(&self, session_id: String) {
        self.open_call(session_id, None);
    }

    /// Opens a session in the session view with one call (by its step) brought into view.
    pub fn open_call(&self, session_id: String, step: Option<usize>) {
        self.route.update(|route| {
            route.view = crate::route::View::Session;
            route.session_id = Some(session_id);
            route.step = step;
        });
    }

    /// Plans a judge run from the form (`is_estimate`: only the plan, no request) or starts it.
    pub fn judge_run(&self, is_estimate: bool) {
        if self.judge.with_untracked(|judge| judge.is_running) {
            return;
        }
        let (filter, cell) = self
            .route
            .with_untracked(|route| (route.filter.clone(), route.cell.clone()));
        let spec = match self
            .judge_form
            .with_untracked(|form| form.to_spec(&filter, cell))
        {
            Ok(spec) => spec,
            Err(error) => {
                self.judge.update(|judge| judge.error = Some(error));
                return;
            }
        };
        self.judge.set(JudgeStatus {
            is_running: !is_estimate,
            ..JudgeStatus::default()
        });
        self.send(
            &Request::JudgeRun {
                job: JUDGE_JOB,
                run: spec,
                is_estimate,
            },
            &[],
        );
    }

    /// Asks the worker to compare two parts of the run (see [`CompareSide`]).
    pub fn request_compare(&self, base: CompareSide, current: CompareSide) {
        if self.report.with_untracked(Option::is_none) {
            return;
        }
        self.compare
            .set(CompareStatus::Running(base.clone(), current.clone()));
        self.send(
            &Request::Compare {
                job: COMPARE_JOB,
                base,
                current,
            },
            &[],
        );
    }

    /// Stops the judge run: nothing more is sent.
    pub fn judge_cancel(&self) {
        self.send(&Request::JudgeCancel { job: JUDGE_JOB }, &[]);
    }

    /// Stops the running job; the files stay, the report is cleared.
    pub fn cancel(&self) {
        self.next_job();
        self.client.with_value(|client| {
            if let Some(client) = client {
                client.restart();
            }
        });
        self.status.set(Status::Cancelled);
        self.judge.set(JudgeStatus::default());
        self.has_run_verdicts.set(false);
        self.report.set(None);
        self.set_view(None);
    }

    fn next_job(&self) -> u32 {
        let job = self.job.get_value() + 1;
        self.job.set_value(job);
        job
    }

    fn send(&self, request: &Request, blobs: &[Blob]) {
        self.client.with_value(|client| {
            if let Some(client) = client {
                client.send(request, blobs);
            }
        });
    }

    fn on_reply(&self, reply: Reply, bytes: Vec<Uint8Array>) {
        let current = self.job.get_value();
        match reply {
            Reply::Opened {
                job,
                files,
                options,
                errors,
            } if job == current => {
                self.load_errors.update(|shown| shown.extend(errors));
                if files.is_empty() {
                    self.status.set(Status::Failed(
                        "Nothing could be opened from this link: see why above.".into(),
                    ));
                    return;
                }
                let files = files
                    .into_iter()
                    .zip(bytes)
                    .map(|(file, bytes)| (file.name, file.role, to_blob(&bytes)))
                    .collect();
                self.open_files(files, options);
            }
            Reply::Exported { name, mime, .. } => {
                if let Some(bytes) = bytes.first() {
                    crate::download::save(&name, &mime, &bytes.to_vec());
                }
            }
            Reply::Html { html, .. } => {
                crate::download::save("toolscope-report.html", "text/html", html.as_bytes());
            }
            Reply::Packed {
                value,
                packed_bytes,
                ..
            } => self.share.set(ShareStatus::Packed {
                value,
                packed_bytes,
            }),
            Reply::Sealed { key, .. } => {
                // The reply names the key it sealed with, so two clicks never mix keys and files.
                let Some(bytes) = bytes.first() else {
                    return;
                };
                crate::download::save(
                    "toolscope-report.tsenc",
                    "application/octet-stream",
                    &bytes.to_vec(),
                );
                self.share.set(ShareStatus::Sealed { key });
            }
            Reply::Ready => {}
            Reply::Progress { job, step } if job == current => {
                self.status.set(Status::Running(Some(step)));
            }
            Reply::Analyzed {
                job,
                roles,
                agents,
                report,
                view,
            } if job == current => {
                let whole = match serde_json::from_str::<Report>(&report) {
                    Ok(whole) => Arc::new(whole),
                    Err(error) => return self.fail(format!("unreadable report: {error}")),
                };
                let view = match view.map(|view| serde_json::from_str::<Report>(&view)) {
                    None => whole.clone(),
                    Some(Ok(view)) => Arc::new(view),
                    Some(Err(error)) => return self.fail(format!("unreadable report: {error}")),
                };
                self.roles.set(roles);
                self.agents.set(agents);
                self.session.set(None);
                self.report.set(Some(whole));
                self.set_view(Some(view));
                self.status.set(Status::Done);
            }
            Reply::Filtered { job, view } if job == current => {
                match serde_json::from_str::<Report>(&view) {
                    Ok(view) => {
                        self.set_view(Some(Arc::new(view)));
                        self.status.set(Status::Done);
                    }
                    Err(error) => self.fail(format!("unreadable report: {error}")),
                }
            }
            Reply::Session {
                session_id,
                session,
                ..
            } => {
                let session = session.and_then(|(session, rows)| {
                    Some((
                        serde_json::from_str(&session).ok()?,
                        serde_json::from_str(&rows).ok()?,
                    ))
                });
                self.session.set(Some(Arc::new(SessionDetail {
                    session_id,
                    session,
                })));
            }
            Reply::Rows {
                job,
                filter,
                query,
                rows,
            } if job == current => {
                let is_asked = self.rows.with_untracked(|slots| {
                    slots
                        .get(list_of(&query))
                        .is_some_and(|slot| slot.asked.as_ref() == Some(&query))
                }) && self.route.with_untracked(|route| route.filter == filter);
                if !is_asked {
                    return;
                }
                match serde_json::from_str::<Rows>(&rows) {
                    Ok(rows) => {
                        let list = list_of(&query);
                        self.rows.update(|slots| {
                            slots.entry(list).or_default().answer = Some((query, Arc::new(rows)))
                        })
                    }
                    Err(error) => self.fail(format!("unreadable rows: {error}")),
                }
            }
            Reply::JudgePlan {
                calls,
                cached,
                estimate,
                is_priced,
                ..
            } => self.judge.update(|judge| {
                judge.plan = Some(JudgePlan {
                    calls,
                    cached,
                    estimate,
                    is_priced,
                })
            }),
            Reply::JudgeProgress {
                done,
                total,
                input_tokens,
                output_tokens,
                cost_usd,
                ..
            } => self.judge.update(|judge| {
                judge.progress = Some((done, total, input_tokens, output_tokens, cost_usd))
            }),
            Reply::Judged {
                report, summary, ..
            } => {
                self.judge.update(|judge| {
                    judge.is_running = false;
                    judge.summary = Some(summary);
                });
                match serde_json::from_str::<Report>(&report) {
                    Ok(whole) => {
                        self.report.set(Some(Arc::new(whole)));
                        // The open session's verdicts changed: it is asked for again.
                        self.session.set(None);
                        self.has_run_verdicts.set(true);
                        // A link packed before the run would lack its verdicts.
                        self.share.set(ShareStatus::Idle);
                        self.refilter();
                    }
                    Err(error) => self
                        .judge
                        .update(|judge| judge.error = Some(format!("unreadable report: {error}"))),
                }
            }
            // Only the answer to the last question: an earlier one (other sides, or asked before
            // the files changed and the status went back to Idle) is dropped.
            Reply::Compared {
                view,
                base,
                current,
                ..
            } if self.compare.with_untracked(|status| {
                *status == CompareStatus::Running(base.clone(), current.clone())
            }) =>
            {
                match serde_json::from_str::<CompareView>(&view) {
                    Ok(view) => self.compare.set(CompareStatus::Ready(Arc::new(view))),
                    Err(error) => self.compare.set(CompareStatus::Failed(format!(
                        "unreadable comparison: {error}"
                    ))),
                }
            }
            Reply::Failed { job, message } if job == COMPARE_JOB => {
                self.compare.set(CompareStatus::Failed(message))
            }
            Reply::Failed { job, message } if job == JUDGE_JOB => self.judge.update(|judge| {
                judge.is_running = false;
                judge.error = Some(message);
            }),
            Reply::Failed { job, message } if job == EXPORT_JOB => self.fail(message),
            Reply::Failed { job, message } if job == SHARE_JOB => {
                self.share.set(ShareStatus::Failed(message))
            }
            Reply::Failed { job, message } if job == current || job == 0 => self.fail(message),
            // A reply to a job that has been replaced or cancelled.
            _ => {}
        }
    }

    fn fail(&self, message: String) {
        self.status.set(Status::Failed(message));
    }
}

/// A blob holding a copy of `bytes`.
fn to_blob(bytes: &Uint8Array) -> Blob {
    let parts = js_sys::Array::of1(bytes);
    Blob::new_with_u8_array_sequence(&parts).expect("a blob from bytes")
}
