//! The judge run in the engine's worker: plans with the core, then sends each call's request
//! with `fetch` from the worker, up to the run's concurrency at once, retrying and reading the
//! answers as the core's [`Exchange`] decides and keeping the spend under the budget with its
//! [`Ledger`]. The key stays in this run's memory: it goes only into the requests' headers.
//! Verdicts already paid for stay in a cache in the worker's memory, so a second run of the same
//! calls sends nothing.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Reflect, Uint8Array};
use toolscope_core::hashing::{HashMap, HashMapExt};
use toolscope_core::judge::cache::{is_cacheable, VerdictCache};
use toolscope_core::judge::cost::{default_table, Price};
use toolscope_core::judge::provider::{browser_failure_detail, MAX_RESPONSE_BYTES};
use toolscope_core::judge::run::{
    estimate_plan, not_run_answer, plan_chosen, Exchange, Failure, Ledger, Next, PlannedCall,
};
use toolscope_core::judge::sample::CallRef;
use toolscope_core::judge::streamed::Wanted;
use toolscope_core::judge::{
    Answer, HttpRequest, HttpResponse, Outcome, PromptLimits, RetryPolicy, UnscoredCause, Verdict,
};
use toolscope_core::model::{Session, ToolDef};
use toolscope_core::Filter;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    AbortController, DedicatedWorkerGlobalScope, Headers, ReadableStreamDefaultReader,
    ReferrerPolicy, RequestCredentials, RequestInit, RequestMode, RequestRedirect, Response,
};

use toolscope_core::report::rows::{Rows, RowsQuery};

use crate::protocol::{JudgeRunSpec, JudgeSelection, Reply};

/// Progress is sent at most this often (and at the end).
const PROGRESS_EVERY_MS: f64 = 200.0;

thread_local! {
    /// What was judged in this worker, by cache key.
    static CACHE: RefCell<VerdictCache> = RefCell::new(VerdictCache::new());
    /// The run under way, for cancelling.
    static RUNNING: RefCell<Option<Rc<RefCell<Run>>>> = const { RefCell::new(None) };
}

/// What became of one call.
#[derive(Clone)]
enum CallResult {
    Cached(Vec<Verdict>),
    Judged(Vec<Verdict>),
    NotRun(Vec<Verdict>),
}

impl CallResult {
    fn verdicts(&self) -> &[Verdict] {
        match self {
            CallResult::Cached(verdicts)
            | CallResult::Judged(verdicts)
            | CallResult::NotRun(verdicts) => verdicts,
        }
    }
}

/// One run's shared state: the tasks take calls from it and put results in.
struct Run {
    job: u32,
    spec: JudgeRunSpec,
    calls: Vec<PlannedCall>,
    /// Each call's session, shared by the calls of one session (a session is copied once).
    sessions: Vec<Rc<Session>>,
    results: Vec<Option<CallResult>>,
    pending: Vec<usize>,
    next: usize,
    tasks_left: usize,
    ledger: Ledger,
    is_cancelled: bool,
    in_flight: Vec<AbortController>,
    last_progress_ms: f64,
    page_origin: String,
    generation: u64,
}

/// Checks the run's settings before anything is read: the price the run is priced at (None when
/// none is known), or why it cannot run.
pub fn check(spec: &JudgeRunSpec, is_estimate: bool) -> Result<Option<Price>, String> {
    spec.config.check().map_err(|error| error.to_string())?;
    let price: Option<Price> = spec.price.or_else(|| {
        default_table()
            .lookup(spec.config.provider.as_str(), &spec.config.model)
            .ok()
            .copied()
    });
    if spec.budget_usd.is_some() && price.is_none() && !is_estimate {
        return Err(format!(
            "a budget needs a price for {} model \"{}\" to enforce it: type its prices per \
             million tokens, or leave the budget empty",
            spec.config.provider.as_str(),
            spec.config.model
        ));
    }
    Ok(price)
}

/// The calls the run asks for, as the core chooses them ([`Wanted`]); `cell_turns` gives the
/// turns behind a heatmap cell (session id, turn) from the report under a filter.
pub fn wanted(
    selection: &JudgeSelection,
    cell_turns: impl FnOnce(&Filter, &RowsQuery) -> Result<Vec<(String, usize)>, String>,
) -> Result<Wanted, String> {
    Ok(match selection {
        JudgeSelection::Chosen { selection } => Wanted::Selection(selection.clone()),
        JudgeSelection::Filter { filter } => Wanted::KeptBy(filter.clone()),
        JudgeSelection::Cell {
            filter,
            expected,
            actual,
            top,
        } => {
            let query = RowsQuery::CellTurns {
                expected: expected.clone(),
                actual: actual.clone(),
                top: *top,
                limit: usize::MAX,
            };
            Wanted::InTurns(cell_turns(filter, &query)?)
        }
    })
}

/// The turns of a heatmap cell's rows (`rows` of a [`RowsQuery::CellTurns`]).
pub fn turns_of(rows: Rows) -> Vec<(String, usize)> {
    match rows {
        Rows::CellTurns { rows, .. } => rows
            .into_iter()
            .map(|outcome| (outcome.session_id, outcome.turn))
            .collect(),
        _ => Vec::new(),
    }
}

/// Plans the run on the `chosen` calls (their sessions found by `session`, `catalog` the catalog
/// files' tools), priced at `price` ([`check`]); with `is_estimate` replies with the plan only,
/// else starts sending (the reply [`Reply::Judged`] comes when it is over).
#[allow(clippy::too_many_arguments)]
pub fn start<'s>(
    job: u32,
    spec: JudgeRunSpec,
    is_estimate: bool,
    price: Option<Price>,
    chosen: &[CallRef],
    session: &dyn Fn(&str) -> Option<&'s Session>,
    catalog: Option<&[ToolDef]>,
    send: &mut dyn FnMut(Reply),
) {
    let calls = CACHE.with(|cache| {
        plan_chosen(
            chosen,
            session,
            catalog,
            &spec.config,
            &cache.borrow(),
            &PromptLimits::default(),
        )
    });
    let estimate = estimate_plan(&calls, spec.config.max_output_tokens, price.as_ref());
    let cached = calls.iter().filter(|call| call.cached.is_some()).count();
    send(Reply::JudgePlan {
        job,
        calls: calls.len(),
        cached,
        estimate,
        is_priced: price.is_some(),
    });
    if is_estimate {
        return;
    }
    // The tasks outlive this borrow of the sessions, so they keep copies of those they judge:
    // one per session, however many of its calls are planned.
    let mut copies: HashMap<&str, Rc<Session>> = HashMap::new();
    let sessions: Vec<Rc<Session>> = calls
        .iter()
        .filter_map(|call| {
            let session = session(&call.session_id)?;
            Some(
                copies
                    .entry(session.session_id.as_str())
                    .or_insert_with(|| Rc::new(session.clone()))
                    .clone(),
            )
        })
        .collect();
    if sessions.len() != calls.len() {
        return send(Reply::Failed {
            job,
            message: "a planned call's session is missing".into(),
        });
    }
    let results: Vec<Option<CallResult>> = calls
        .iter()
        .map(|call| call.cached.clone().map(CallResult::Cached))
        .collect();
    let pending: Vec<usize> = (0..calls.len())
        .filter(|&index| results[index].is_none())
        .collect();
    let tasks = (spec.concurrency.max(1) as usize).min(pending.len());
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let page_origin = js_sys::Reflect::get(&scope, &JsValue::from_str("origin"))
        .ok()
        .and_then(|origin| origin.as_string())
        .unwrap_or_default();
    let budget_usd = spec.budget_usd;
    let run = Rc::new(RefCell::new(Run {
        job,
        spec,
        calls,
        sessions,
        results,
        pending,
        next: 0,
        tasks_left: tasks,
        ledger: Ledger::new(price, budget_usd),
        is_cancelled: false,
        in_flight: Vec::new(),
        last_progress_ms: 0.0,
        page_origin,
        generation: crate::worker::generation(),
    }));
    RUNNING.with(|running| *running.borrow_mut() = Some(run.clone()));
    progress(&run, true);
    if tasks == 0 {
        // Later, not here: the caller holds the analysis or report that `finish` adds the
        // verdicts to.
        wasm_bindgen_futures::spawn_local(async move { finish(&run) });
        return;
    }
    for task in 0..tasks {
        let run = run.clone();
        wasm_bindgen_futures::spawn_local(async move {
            work(&run, task as u64).await;
            let is_last = {
                let mut state = run.borrow_mut();
                state.tasks_left -= 1;
                state.tasks_left == 0
            };
            if is_last {
                finish(&run);
            }
        });
    }
}

/// Stops the run under way (if it is `job`): nothing more is sent, requests in flight are
/// aborted.
pub fn cancel(job: u32) {
    stop_where(|state| state.job == job);
}

/// Stops any run: new traces are being analysed, so its calls are no longer the page's. Its
/// answers so far stay in the cache, so running again on the same traces asks only for the rest.
pub fn stop_for_new_analysis() {
    stop_where(|_| true);
}

fn stop_where(is_wanted: impl Fn(&Run) -> bool) {
    RUNNING.with(|running| {
        if let Some(run) = running.borrow().as_ref() {
            let mut state = run.borrow_mut();
            if is_wanted(&state) {
                state.is_cancelled = true;
                for controller in state.in_flight.drain(..) {
                    controller.abort();
                }
            }
        }
    });
}

/// One task: takes calls until none is left (or the run is cancelled or over budget).
async fn work(run: &Rc<RefCell<Run>>, task: u64) {
    loop {
        let index = {
            let mut state = run.borrow_mut();
            if state.is_cancelled {
                return;
            }
            let Some(&index) = state.pending.get(state.next) else {
                return;
            };
            state.next += 1;
            index
        };
        let result = judge(run, index, task).await;
        run.borrow_mut().results[index] = Some(result);
        progress(run, false);
    }
}

async fn judge(run: &Rc<RefCell<Run>>, index: usize, task: u64) -> CallResult {
    let (estimate, mut exchange, timeout_ms) = {
        let mut state = run.borrow_mut();
        let call = &state.calls[index];
        let estimate = call.estimate(state.spec.config.max_output_tokens);
        let exchange = Exchange::new(
            &state.spec.config,
            &call.prompt,
            &state.spec.api_key.0,
            RetryPolicy::default(),
            index as u64 ^ (task << 32),
        );
        let timeout_ms = state.spec.timeout_s.max(1) * 1000;
        if !state.ledger.reserve(&estimate) {
            let budget = state.ledger.budget_usd.unwrap_or_default();
            return CallResult::NotRun(verdicts(&state, index, &not_run_answer(budget)));
        }
        (estimate, exchange, timeout_ms)
    };
    let answer = loop {
        let sent = send_once(run, exchange.request(), timeout_ms).await;
        let next = {
            let state = run.borrow();
            if state.is_cancelled && sent.is_err() {
                None
            } else {
                Some(match sent {
                    Ok(response) => exchange.on_response(&response, &state.sessions[index]),
                    Err(failure) => exchange.on_failure(&failure),
                })
            }
        };
        match next {
            None => break None,
            Some(Next::Finished(answer)) => break Some(answer),
            Some(Next::Retry { after_ms }) => {
                gloo_timers::future::TimeoutFuture::new(after_ms.min(u64::from(u32::MAX)) as u32)
                    .await;
                if run.borrow().is_cancelled {
                    break None;
                }
            }
        }
    };
    let mut state = run.borrow_mut();
    state
        .ledger
        .settle(&estimate, answer.as_ref().and_then(Answer::usage));
    match answer {
        Some(answer) => {
            let judged = verdicts(&state, index, &answer);
            if is_cacheable(&judged) {
                let key = state.calls[index].cache_key.clone();
                CACHE.with(|cache| cache.borrow_mut().insert(key, judged.clone()));
            }
            CallResult::Judged(judged)
        }
        None => CallResult::NotRun(verdicts(&state, index, &cancelled_answer())),
    }
}

fn cancelled_answer() -> Answer {
    Answer::Unscored {
        cause: UnscoredCause::NotRun,
        detail: "not sent: the run was cancelled".into(),
        usage: None,
        is_retryable: false,
    }
}

fn verdicts(state: &Run, index: usize, answer: &Answer) -> Vec<Verdict> {
    let call = &state.calls[index];
    answer.to_verdicts(
        &state.sessions[index],
        call.step,
        &state.spec.config.model,
        &call.prompt,
    )
}

/// Sends `request` once with `fetch`, aborted after `timeout_ms`: the response, or why none.
async fn send_once(
    run: &Rc<RefCell<Run>>,
    request: &HttpRequest,
    timeout_ms: u32,
) -> Result<HttpResponse, Failure> {
    let page_origin = run.borrow().page_origin.clone();
    let failure = |detail: String| Failure {
        is_timeout: false,
        detail,
    };
    let controller = AbortController::new().map_err(|_| failure("no AbortController".into()))?;
    let init = RequestInit::new();
    init.set_method(&request.method);
    let headers = Headers::new().map_err(|_| failure("no Headers".into()))?;
    for (name, value) in &request.headers {
        // The error names neither header nor value (the value may be the key).
        headers
            .set(name, value)
            .map_err(|_| failure(format!("the {name} header cannot be sent by a browser")))?;
    }
    init.set_headers(&headers);
    init.set_body(&Uint8Array::from(request.body.as_slice()));
    init.set_mode(RequestMode::Cors);
    init.set_credentials(RequestCredentials::Omit);
    init.set_redirect(RequestRedirect::Error);
    init.set_referrer_policy(ReferrerPolicy::NoReferrer);
    init.set_signal(Some(&controller.signal()));
    let is_timed_out = Rc::new(RefCell::new(false));
    let timer = {
        let (controller, is_timed_out) = (controller.clone(), is_timed_out.clone());
        gloo_timers::callback::Timeout::new(timeout_ms, move || {
            *is_timed_out.borrow_mut() = true;
            controller.abort();
        })
    };
    run.borrow_mut().in_flight.push(controller.clone());
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let result = async {
        let response: Response = JsFuture::from(scope.fetch_with_str_and_init(&request.url, &init))
            .await?
            .unchecked_into();
        let body = read_bounded(&response).await?;
        Ok::<_, JsValue>(HttpResponse {
            status: response.status(),
            headers: response_headers(&response.headers()),
            body,
        })
    }
    .await;
    drop(timer);
    run.borrow_mut()
        .in_flight
        .retain(|kept| !js_sys::Object::is(kept, &controller));
    result.map_err(|error| {
        if *is_timed_out.borrow() {
            Failure {
                is_timeout: true,
                detail: format!("no answer within {} s", timeout_ms / 1000),
            }
        } else {
            let message = error
                .dyn_ref::<js_sys::Error>()
                .map(|error| String::from(error.message()))
                .unwrap_or_else(|| "network error".into());
            if message.starts_with(TOO_LARGE) {
                return failure(format!("{}: {message}", request.url));
            }
            failure(browser_failure_detail(
                &run.borrow().spec.config,
                &page_origin,
                &message,
            ))
        }
    })
}

/// How a body over [`MAX_RESPONSE_BYTES`] is reported.
const TOO_LARGE: &str = "the answer is larger than";

/// The body, read as it streams in, never past [`MAX_RESPONSE_BYTES`]: a longer one is cancelled
/// and is an error (as the CLI's client treats it), so a broken or hostile server cannot fill the
/// worker's memory before the timeout.
async fn read_bounded(response: &Response) -> Result<Vec<u8>, JsValue> {
    let Some(body) = response.body() else {
        return Ok(Vec::new());
    };
    let reader: ReadableStreamDefaultReader = body.get_reader().dyn_into()?;
    let mut bytes: Vec<u8> = Vec::new();
    loop {
        let chunk = JsFuture::from(reader.read()).await?;
        let is_done = Reflect::get(&chunk, &JsValue::from_str("done"))?
            .as_bool()
            .unwrap_or(true);
        if is_done {
            return Ok(bytes);
        }
        let value: Uint8Array = Reflect::get(&chunk, &JsValue::from_str("value"))?.dyn_into()?;
        if bytes.len() as u64 + u64::from(value.length()) > MAX_RESPONSE_BYTES {
            let _ = reader.cancel();
            return Err(js_sys::Error::new(&format!(
                "{TOO_LARGE} {} MiB, the most toolscope reads",
                MAX_RESPONSE_BYTES >> 20
            ))
            .into());
        }
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
    }
}

fn response_headers(headers: &Headers) -> Vec<(String, String)> {
    let Ok(Some(entries)) = js_sys::try_iter(headers) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let pair = Array::from(&entry);
            Some((pair.get(0).as_string()?, pair.get(1).as_string()?))
        })
        .collect()
}

/// Sends the progress, at most every [`PROGRESS_EVERY_MS`] unless `is_forced`.
fn progress(run: &Rc<RefCell<Run>>, is_forced: bool) {
    let mut state = run.borrow_mut();
    let now = js_sys::Date::now();
    let done = state
        .results
        .iter()
        .filter(|result| result.is_some())
        .count();
    let total = state.results.len();
    if !is_forced && done < total && now - state.last_progress_ms < PROGRESS_EVERY_MS {
        return;
    }
    state.last_progress_ms = now;
    let spend = &state.ledger.spend;
    crate::worker::post_reply(&Reply::JudgeProgress {
        job: state.job,
        done,
        total,
        input_tokens: spend.input_tokens,
        output_tokens: spend.output_tokens,
        cost_usd: spend.cost_usd(),
    });
}

/// Adds the verdicts (the calls never judged are `not_run`) to the kept analysis or streamed
/// report and sends the whole report's aggregates (the verdicts stay in the worker: the page asks
/// for them a page at a time, and the downloads are made here).
fn finish(run: &Rc<RefCell<Run>>) {
    RUNNING.with(|running| {
        let is_this = running
            .borrow()
            .as_ref()
            .is_some_and(|kept| Rc::ptr_eq(kept, run));
        if is_this {
            *running.borrow_mut() = None;
        }
    });
    let mut state = run.borrow_mut();
    for index in 0..state.results.len() {
        if state.results[index].is_none() {
            let answer = if state.is_cancelled {
                cancelled_answer()
            } else {
                not_run_answer(state.ledger.budget_usd.unwrap_or_default())
            };
            let verdicts = verdicts(&state, index, &answer);
            state.results[index] = Some(CallResult::NotRun(verdicts));
        }
    }
    let results: Vec<CallResult> = state.results.iter().flatten().cloned().collect();
    let all: Vec<Verdict> = results
        .iter()
        .flat_map(|result| result.verdicts().iter().cloned())
        .collect();
    let summary = summary_line(&state, &results, &all);
    let (job, generation) = (state.job, state.generation);
    drop(state);
    let report = crate::worker::add_run_verdicts(generation, all);
    crate::worker::post_reply(&match report {
        Some(report) => Reply::Judged {
            job,
            report,
            summary,
        },
        None => Reply::Failed {
            job,
            message: "the run stopped because new traces were analysed; the answers it got are \
                      cached, so running the judge again asks only for the calls not yet judged"
                .into(),
        },
    });
}

fn summary_line(state: &Run, results: &[CallResult], verdicts: &[Verdict]) -> String {
    let count = |wanted: fn(&CallResult) -> bool| results.iter().filter(|r| wanted(r)).count();
    let from_cache = count(|result| matches!(result, CallResult::Cached(_)));
    let sent = count(|result| matches!(result, CallResult::Judged(_)));
    let not_run = count(|result| matches!(result, CallResult::NotRun(_)));
    let scored = verdicts
        .iter()
        .filter(|verdict| verdict.verdict != Outcome::Unscored)
        .count();
    let cost = match state.ledger.spend.cost_usd() {
        Some(cost) => format!("${cost:.4}"),
        None => format!("unknown (no price for {})", state.spec.config.model),
    };
    let stop = if state.is_cancelled {
        "; cancelled"
    } else if state.ledger.is_stopped() {
        "; the budget stopped the run"
    } else {
        ""
    };
    format!(
        "judged {} calls: {sent} sent, {from_cache} from cache, {not_run} not run; {scored} of {} \
         verdicts scored; spend {cost} (in {} / out {} tokens){stop}",
        results.len(),
        verdicts.len(),
        state.ledger.spend.input_tokens,
        state.ledger.spend.output_tokens,
    )
}
