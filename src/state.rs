//! The page's view-model: the files, the worker's answers and the route, as signals, and the
//! actions that change them. Components read these and call the actions; only the actions talk to
//! the worker.

use std::sync::Arc;

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use toolscope_core::model::Session;
use toolscope_core::{Options, Report, Role};
use web_sys::Blob;

use crate::client::WorkerClient;
use crate::protocol::{FileSpec, Reply, Request, RoleUsed, Step};
use crate::route::Route;

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
    /// The session, or None when there is no such session.
    pub session: Option<Session>,
}

/// Everything the page shows, as signals; cheap to copy into closures.
#[derive(Clone, Copy)]
pub struct AppState {
    /// The files, in the order given.
    pub files: RwSignal<Vec<LoadedFile>>,
    /// The job's status.
    pub status: RwSignal<Status>,
    /// The whole report.
    pub report: RwSignal<Option<Arc<Report>>>,
    /// The report under the route's filter (the whole one when the filter is empty).
    pub view: RwSignal<Option<Arc<Report>>>,
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
            roles: RwSignal::new(Vec::new()),
            agents: RwSignal::new(Vec::new()),
            route: RwSignal::new(route),
            session: RwSignal::new(None),
            options: RwSignal::new(Options::default()),
            client: StoredValue::new_local(None),
            job: StoredValue::new(0),
            next_key: StoredValue::new(0),
        };
        let client = WorkerClient::new(std::rc::Rc::new(move |reply| state.on_reply(reply)));
        state.client.set_value(Some(client));
        state
    }

    /// Adds files (keeping those already there) and analyses the whole set again.
    pub fn add_files(&self, added: Vec<(String, Blob)>) {
        if added.is_empty() {
            return;
        }
        let mut files = self.files.get_untracked();
        for (name, blob) in added {
            let key = self.next_key.get_value();
            self.next_key.set_value(key + 1);
            files.push(LoadedFile {
                key,
                name,
                size: blob.size() as u64,
                blob: SendWrapper::new(blob),
                role: None,
            });
        }
        self.files.set(files);
        self.analyze();
    }

    /// Replaces every file (the demo).
    pub fn replace_files(&self, files: Vec<(String, Blob)>) {
        self.files.set(Vec::new());
        self.add_files(files);
    }

    /// Removes one file and analyses the rest.
    pub fn remove_file(&self, key: u32) {
        self.files
            .update(|files| files.retain(|file| file.key != key));
        self.route.update(|route| route.is_demo = false);
        self.analyze();
    }

    /// Sets (or, with None, clears) the role the user chose for a file.
    pub fn set_role(&self, key: u32, role: Option<Role>) {
        self.files.update(|files| {
            if let Some(file) = files.iter_mut().find(|file| file.key == key) {
                file.role = role;
            }
        });
        self.analyze();
    }

    /// Starts a new analysis of the current files.
    pub fn analyze(&self) {
        let files = self.files.get_untracked();
        if files.is_empty() {
            self.next_job();
            self.status.set(Status::Empty);
            self.report.set(None);
            self.view.set(None);
            self.roles.set(Vec::new());
            self.agents.set(Vec::new());
            return;
        }
        let job = self.next_job();
        let specs = files
            .iter()
            .map(|file| FileSpec {
                name: file.name.clone(),
                role: file.role,
            })
            .collect();
        let blobs: Vec<Blob> = files.iter().map(|file| (*file.blob).clone()).collect();
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
            self.view.set(self.report.get_untracked());
            return;
        }
        let job = self.next_job();
        self.status.set(Status::Running(None));
        self.send(&Request::Filter { job, filter }, &[]);
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
        self.route.update(|route| {
            route.view = crate::route::View::Session;
            route.session_id = Some(session_id);
        });
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
        self.report.set(None);
        self.view.set(None);
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

    fn on_reply(&self, reply: Reply) {
        let current = self.job.get_value();
        match reply {
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
                self.view.set(Some(view));
                self.status.set(Status::Done);
            }
            Reply::Filtered { job, view } if job == current => {
                match serde_json::from_str::<Report>(&view) {
                    Ok(view) => {
                        self.view.set(Some(Arc::new(view)));
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
                let session = session.and_then(|text| serde_json::from_str(&text).ok());
                self.session.set(Some(Arc::new(SessionDetail {
                    session_id,
                    session,
                })));
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
