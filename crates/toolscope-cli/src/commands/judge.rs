//! `toolscope judge`: asks a model, with the user's key, the judge's four questions about each
//! chosen call, and writes the verdicts as JSON Lines for `toolscope report --verdicts`.
//!
//! The core builds every prompt and request and reads every answer; this command chooses the
//! calls, sends the requests on `--concurrency` worker threads, waits between retries as the
//! core decides, keeps the spend under `--budget-usd`, and keeps what was paid for in the cache
//! file. The verdicts file lists the calls in the chosen order whatever the concurrency, so the
//! same answers always give the same bytes.
//!
//! Exit codes: 0 when the run completed, unscored verdicts and a budget stop included (they are
//! in the file and the summary); 2 on a usage or input error (nothing is sent), and when
//! requests were sent but not one was answered (every one ended in an HTTP error, a quota, a
//! rate limit or a timeout): the run judged nothing and the cause is worth a look.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{bail, Context, Result};
use toolscope_core::hashing::HashMap;
use toolscope_core::judge::cache::{entry_line, is_cacheable, VerdictCache};
use toolscope_core::judge::cost::{default_table, PriceTable, RunEstimate, Spend};
use toolscope_core::judge::run::{
    estimate_plan, is_answered, not_run_answer, plan_chosen, Exchange, Failure, Ledger, Next,
    PlannedCall,
};
use toolscope_core::judge::sample::Selection;
use toolscope_core::judge::streamed::{choose_streamed, read_judged, Judged, Read, Wanted};
use toolscope_core::judge::verdict_file::write_verdicts;
use toolscope_core::judge::{
    Answer, Outcome as VerdictOutcome, PromptLimits, Provider, ProviderConfig, RetryPolicy,
    UnscoredCause, Verdict,
};
use toolscope_core::model::Session;

use super::report_diagnostics;
use crate::cli::{ArgsMatch, JudgeArgs, JudgeProvider, MetricArgs};
use crate::http::HttpClient;
use crate::inputs::{open_inputs, read_error};
use crate::output::files::{open_appending, write_replacing};
use crate::output::terminal;
use crate::output::text::print_diagnostics;
use crate::Outcome;
use toolscope_core::diagnostic::grouped;

pub fn run(args: &JudgeArgs) -> Result<Outcome> {
    let config = provider_config(args);
    config.check()?;
    if let Some(budget) = args.budget_usd {
        if !(budget.is_finite() && budget >= 0.0) {
            bail!("--budget-usd must be a number of dollars, 0 or more");
        }
    }
    let metrics = MetricArgs {
        labels: args.labels.clone(),
        min_support: toolscope_core::metrics::selection::DEFAULT_MIN_SUPPORT,
        args_match: ArgsMatch::Exact,
        verdicts: Vec::new(),
        human_verdicts: Vec::new(),
    };
    let selection = if args.only_problems {
        Selection::OnlyProblems
    } else if let Some(n) = args.sample {
        Selection::Sample { n, seed: args.seed }
    } else {
        Selection::All
    };
    let wanted = Wanted::Selection(selection);
    // Trace files in toolscope's native format stream: the calls are chosen in one reading, and
    // only the sessions holding them are kept, in a second (the others are never all in memory).
    let opened = open_inputs(&args.inputs, Some(&metrics))?;
    let first = choose_streamed(opened.sources()?, &opened.options, &wanted, &mut |_| {})
        .map_err(read_error)?;
    let diagnostics = match &first {
        Read::Streamed(chosen) => &chosen.report.diagnostics,
        Read::Whole(analysis) => &analysis.report().diagnostics,
    };
    if report_diagnostics(diagnostics)? {
        let mut err = terminal::stderr();
        err.line(
            "toolscope judge: the input has errors (above): fix them before paying for a run",
        )?;
        err.flush()?;
        return Ok(Outcome::InputError);
    }

    let table = price_table(args)?;
    let price = table
        .lookup(config.provider.as_str(), &config.model)
        .ok()
        .copied();
    if args.budget_usd.is_some() && price.is_none() {
        bail!(
            "--budget-usd needs a price for {} model \"{}\" to enforce it: add the model to a \
             price table and pass it with --prices",
            config.provider.as_str(),
            config.model
        );
    }
    let (cache, cache_ends_in_newline) = load_cache(args)?;

    // The sessions holding the chosen calls, read again when the traces streamed (none else).
    let judged = match &first {
        Read::Streamed(chosen) => match read_judged(
            opened.sources()?,
            &opened.options,
            &chosen.calls,
            &mut |_| {},
        )
        .map_err(read_error)?
        {
            Read::Streamed(judged) => judged,
            Read::Whole(_) => bail!("the trace files changed while they were read"),
        },
        Read::Whole(_) => Judged::default(),
    };
    let (chosen, sessions, catalog) = match &first {
        Read::Streamed(chosen) => (
            chosen.calls.clone(),
            judged.by_id(),
            judged.catalog.as_deref(),
        ),
        Read::Whole(analysis) => (
            wanted.on_analysis(analysis),
            analysis
                .sessions()
                .iter()
                .map(|session| (session.session_id.as_str(), session))
                .collect(),
            analysis.catalog_tools(),
        ),
    };
    let jobs = plan_chosen(
        &chosen,
        &|session_id| sessions.get(session_id).copied(),
        catalog,
        &config,
        &cache,
        &PromptLimits::default(),
    );
    let estimate = estimate_plan(&jobs, config.max_output_tokens, price.as_ref());
    let plan = plan_line(&config, jobs.len(), &estimate);
    if args.estimate {
        let mut out = terminal::stdout();
        out.line(plan)?;
        out.flush()?;
        return Ok(Outcome::Clean);
    }
    let out_path = args
        .out
        .as_deref()
        .context("--out FILE is needed to write the verdicts")?;
    let api_key = api_key(args)?;
    {
        let mut err = terminal::stderr();
        err.line(&plan)?;
        err.flush()?;
    }

    let mut cache_file = if args.no_cache || estimate.requests == 0 {
        None
    } else {
        let mut file = open_appending(&args.cache)
            .with_context(|| format!("opening the cache file {}", args.cache.display()))?;
        if !cache_ends_in_newline {
            file.write_all(b"\n")
                .with_context(|| format!("writing the cache file {}", args.cache.display()))?;
        }
        Some(file)
    };

    let runner = Runner {
        config: &config,
        api_key: &api_key,
        client: HttpClient::new(Duration::from_secs(args.timeout_s)),
        retry: RetryPolicy {
            base_delay_ms: args.retry_base_ms,
            ..RetryPolicy::default()
        },
        sessions: &sessions,
        ledger: Mutex::new(Ledger::new(price, args.budget_usd)),
    };
    let mut results: Vec<Option<CallResult>> = jobs
        .iter()
        .map(|job| job.cached.clone().map(CallResult::Cached))
        .collect();
    let pending: Vec<usize> = (0..jobs.len())
        .filter(|&index| results[index].is_none())
        .collect();
    let next = AtomicUsize::new(0);
    let workers = (args.concurrency as usize).min(pending.len());
    let (sender, receiver) = mpsc::channel::<(usize, CallResult)>();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..workers {
            let sender = sender.clone();
            let (runner, jobs, pending, next) = (&runner, &jobs, &pending, &next);
            scope.spawn(move || loop {
                let position = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = pending.get(position) else {
                    break;
                };
                let result = runner.judge(&jobs[index], index as u64);
                if sender.send((index, result)).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        for (index, result) in receiver {
            if let (Some(file), CallResult::Judged { verdicts, .. }) = (&mut cache_file, &result) {
                if is_cacheable(verdicts) {
                    file.write_all(entry_line(&jobs[index].cache_key, verdicts).as_bytes())
                        .with_context(|| {
                            format!("writing the cache file {}", args.cache.display())
                        })?;
                }
            }
            results[index] = Some(result);
        }
        Ok(())
    })?;

    let results: Vec<CallResult> = results
        .into_iter()
        .map(|result| result.expect("every call is cached or was sent to a worker"))
        .collect();
    let verdicts: Vec<Verdict> = results
        .iter()
        .flat_map(|result| result.verdicts().iter().cloned())
        .collect();
    write_replacing(out_path, write_verdicts(&verdicts).as_bytes())?;

    let ledger = runner
        .ledger
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let sent = results
        .iter()
        .filter(|result| matches!(result, CallResult::Judged { .. }))
        .count();
    let answered = results
        .iter()
        .filter(|result| matches!(result, CallResult::Judged { answered: true, .. }))
        .count();
    let from_cache = results
        .iter()
        .filter(|result| matches!(result, CallResult::Cached(_)))
        .count();
    let mut err = terminal::stderr();
    err.line(summary_line(
        &config,
        results.len(),
        &verdicts,
        from_cache,
        &ledger.spend,
    ))?;
    for line in example_lines(&verdicts) {
        err.line(line)?;
    }
    let not_run = results
        .iter()
        .filter(|result| matches!(result, CallResult::NotRun(_)))
        .count();
    if let (Some(budget), true) = (args.budget_usd, not_run > 0) {
        err.line(format_args!(
            "the budget (${budget}) stopped the run: {not_run} of {} calls not run; their \
             verdicts are unscored, not_run (run again with a larger budget: the cache keeps \
             what was judged)",
            results.len()
        ))?;
    }
    let is_nothing_judged = sent > 0 && answered == 0 && from_cache == 0;
    if is_nothing_judged {
        err.line(
            "toolscope judge: no request was answered (each ended in an HTTP error, quota, rate \
             limit or timeout; see above): nothing was judged",
        )?;
    }
    err.flush()?;
    Ok(if is_nothing_judged {
        Outcome::InputError
    } else {
        Outcome::Clean
    })
}

/// What became of a call.
enum CallResult {
    /// Its verdicts were in the cache: no request.
    Cached(Vec<Verdict>),
    /// A request was sent; `answered` when the model answered (verdicts, or a parse error, a
    /// refusal, a truncation), not when the exchange failed (HTTP error, quota, timeout, rate
    /// limit).
    Judged {
        verdicts: Vec<Verdict>,
        answered: bool,
    },
    /// Not sent: the budget stopped the run first.
    NotRun(Vec<Verdict>),
}

impl CallResult {
    fn verdicts(&self) -> &[Verdict] {
        match self {
            CallResult::Cached(verdicts)
            | CallResult::Judged { verdicts, .. }
            | CallResult::NotRun(verdicts) => verdicts,
        }
    }
}

/// What every worker shares.
struct Runner<'a> {
    config: &'a ProviderConfig,
    api_key: &'a str,
    client: HttpClient,
    retry: RetryPolicy,
    /// The sessions holding the chosen calls, by id.
    sessions: &'a HashMap<&'a str, &'a Session>,
    ledger: Mutex<Ledger>,
}

impl Runner<'_> {
    /// Judges one call: sends its request (unless the budget forbids it), retries as the core
    /// decides, and reads the answer into verdicts.
    fn judge(&self, job: &PlannedCall, jitter_seed: u64) -> CallResult {
        let Some(session) = self.sessions.get(job.session_id.as_str()).copied() else {
            return CallResult::NotRun(Vec::new());
        };
        let estimate = job.estimate(self.config.max_output_tokens);
        let is_allowed = self.ledger().reserve(&estimate);
        if !is_allowed {
            let budget = self.ledger().budget_usd.unwrap_or_default();
            return CallResult::NotRun(self.verdicts(session, job, &not_run_answer(budget)));
        }
        let answer = self.exchange(session, job, jitter_seed);
        self.ledger().settle(&estimate, answer.usage());
        CallResult::Judged {
            verdicts: self.verdicts(session, job, &answer),
            answered: is_answered(&answer),
        }
    }

    /// Sends the request until the core's exchange is finished, sleeping between attempts.
    fn exchange(&self, session: &Session, job: &PlannedCall, jitter_seed: u64) -> Answer {
        let mut exchange = Exchange::new(
            self.config,
            &job.prompt,
            self.api_key,
            self.retry,
            jitter_seed,
        );
        loop {
            let next = match self.client.send(exchange.request()) {
                Ok(response) => exchange.on_response(&response, session),
                Err(error) => exchange.on_failure(&Failure {
                    is_timeout: error.is_timeout,
                    detail: error.detail,
                }),
            };
            match next {
                Next::Retry { after_ms } => std::thread::sleep(Duration::from_millis(after_ms)),
                Next::Finished(answer) => return answer,
            }
        }
    }

    fn verdicts(&self, session: &Session, job: &PlannedCall, answer: &Answer) -> Vec<Verdict> {
        answer.to_verdicts(session, job.step, &self.config.model, &job.prompt)
    }

    fn ledger(&self) -> std::sync::MutexGuard<'_, Ledger> {
        self.ledger.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

fn provider_config(args: &JudgeArgs) -> ProviderConfig {
    let provider = match args.provider {
        JudgeProvider::Anthropic => Provider::Anthropic,
        JudgeProvider::Openai => Provider::OpenAi,
        JudgeProvider::Gemini => Provider::Gemini,
        JudgeProvider::OpenaiCompatible => Provider::OpenAiCompatible,
    };
    ProviderConfig {
        base_url: args.base_url.clone(),
        max_output_tokens: args.max_output_tokens,
        ..ProviderConfig::new(provider, args.model.trim())
    }
}

/// The key, from `--api-key-env`'s variable or the provider's usual one. An OpenAI-compatible
/// server without one gets no key (local servers need none).
fn api_key(args: &JudgeArgs) -> Result<String> {
    let (variable, is_required) = match (&args.api_key_env, args.provider) {
        (Some(name), _) => (name.as_str(), true),
        (None, JudgeProvider::Anthropic) => ("ANTHROPIC_API_KEY", true),
        (None, JudgeProvider::Openai) => ("OPENAI_API_KEY", true),
        (None, JudgeProvider::Gemini) => ("GEMINI_API_KEY", true),
        (None, JudgeProvider::OpenaiCompatible) => ("OPENAI_API_KEY", false),
    };
    let key = std::env::var(variable)
        .ok()
        .map(|key| key.trim().to_string())
        .filter(|key| !key.is_empty());
    match key {
        Some(key) => Ok(key),
        None if !is_required => Ok(String::new()),
        // The message names the variable, never a value.
        None => bail!(
            "no API key: set the environment variable {variable} (or name another with \
             --api-key-env)"
        ),
    }
}

fn price_table(args: &JudgeArgs) -> Result<PriceTable> {
    let Some(path) = &args.prices else {
        return Ok(default_table());
    };
    let bytes = std::fs::read(path)
        .with_context(|| format!("reading the price table {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| {
        format!(
            "{}: not a price table ({{\"models\": [{{\"provider\", \"model\", \
             \"input_per_mtok_usd\", \"output_per_mtok_usd\"}}]}})",
            path.display()
        )
    })
}

/// The cache (empty with `--no-cache` or no file yet), and whether the file ends in a newline
/// (an interrupted write may have left half a line, which appending must not extend).
fn load_cache(args: &JudgeArgs) -> Result<(VerdictCache, bool)> {
    if args.no_cache {
        return Ok((VerdictCache::new(), true));
    }
    let path: &Path = &args.cache;
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok((VerdictCache::new(), true))
        }
        Err(error) => {
            return Err(error).with_context(|| format!("reading the cache file {}", path.display()))
        }
    };
    let mut diagnostics = Vec::new();
    let name = path.display().to_string();
    let cache = VerdictCache::from_jsonl(&name, &bytes, &mut diagnostics);
    print_diagnostics(&diagnostics)?;
    Ok((cache, bytes.last().is_none_or(|&byte| byte == b'\n')))
}

fn plan_line(config: &ProviderConfig, calls: usize, estimate: &RunEstimate) -> String {
    let cached = calls as u64 - estimate.requests;
    let cost = match estimate.cost_usd {
        Some(cost) => format!("about ${cost:.4} at the price table's price"),
        None => format!(
            "no price for {}: edit a price table with --prices",
            config.model
        ),
    };
    format!(
        "plan: {calls} calls to judge with {} {}: {cached} from cache, {} requests, about {} \
         input tokens and at most {} output tokens; {cost}",
        config.provider.as_str(),
        config.model,
        estimate.requests,
        grouped(estimate.input_tokens),
        grouped(estimate.output_tokens),
    )
}

fn summary_line(
    config: &ProviderConfig,
    calls: usize,
    verdicts: &[Verdict],
    from_cache: usize,
    spend: &Spend,
) -> String {
    let scored = verdicts
        .iter()
        .filter(|verdict| verdict.verdict != VerdictOutcome::Unscored)
        .count();
    let mut by_cause: BTreeMap<UnscoredCause, usize> = BTreeMap::new();
    for verdict in verdicts {
        if let Some(cause) = verdict.cause {
            *by_cause.entry(cause).or_default() += 1;
        }
    }
    let unscored: usize = by_cause.values().sum();
    let causes = if by_cause.is_empty() {
        String::new()
    } else {
        let listed: Vec<String> = by_cause
            .iter()
            .map(|(cause, count)| format!("{} {count}", cause.as_str()))
            .collect();
        format!(" ({})", listed.join(", "))
    };
    let cost = match spend.cost_usd() {
        Some(cost) => format!("${cost:.4}"),
        None => format!("unknown (no price for {})", config.model),
    };
    format!(
        "judged {calls} calls: {scored} verdicts scored, {unscored} unscored{causes}, \
         {from_cache} from cache, spend {cost} (in {} / out {} tokens)",
        grouped(spend.input_tokens),
        grouped(spend.output_tokens),
    )
}

/// One example per unscored cause (the first verdict with it), so the reason is in sight.
fn example_lines(verdicts: &[Verdict]) -> Vec<String> {
    let mut seen: BTreeMap<UnscoredCause, &Verdict> = BTreeMap::new();
    for verdict in verdicts {
        if let Some(cause) = verdict.cause {
            seen.entry(cause).or_insert(verdict);
        }
    }
    seen.into_iter()
        .map(|(cause, verdict)| {
            format!(
                "  {} (e.g. {} step {}): {}",
                cause.as_str(),
                verdict.session_id,
                verdict.step,
                verdict.reason
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolscope_core::judge::cost::Price;
    use toolscope_core::judge::{Criterion, TemplateRef};

    fn verdict(session_id: &str, outcome: VerdictOutcome, cause: Option<UnscoredCause>) -> Verdict {
        Verdict {
            session_id: session_id.into(),
            step: 1,
            tool: "lookup_order".into(),
            criterion: Criterion::ArgsGrounded,
            verdict: outcome,
            cause,
            reason: format!("reason for {session_id}"),
            evidence: Vec::new(),
            model: "m".into(),
            template: TemplateRef {
                id: "tool-call-v1".into(),
                sha256: "00".into(),
            },
            prompt_sha256: "11".into(),
        }
    }

    #[test]
    fn the_summary_counts_verdicts_by_cause_and_prices_the_providers_tokens() {
        let config = ProviderConfig::new(Provider::OpenAi, "gpt-4o-mini");
        let verdicts = [
            verdict("a", VerdictOutcome::Pass, None),
            verdict("a", VerdictOutcome::Fail, None),
            verdict(
                "b",
                VerdictOutcome::Unscored,
                Some(UnscoredCause::RateLimited),
            ),
            verdict(
                "c",
                VerdictOutcome::Unscored,
                Some(UnscoredCause::ParseError),
            ),
            verdict(
                "d",
                VerdictOutcome::Unscored,
                Some(UnscoredCause::ParseError),
            ),
        ];
        let mut spend = Spend::new(Some(Price {
            input_per_mtok_usd: 1.0,
            output_per_mtok_usd: 10.0,
        }));
        spend.add(12_345, 678);
        assert_eq!(
            summary_line(&config, 4, &verdicts, 1, &spend),
            "judged 4 calls: 2 verdicts scored, 3 unscored (parse_error 2, rate_limited 1), 1 \
             from cache, spend $0.0191 (in 12,345 / out 678 tokens)"
        );
        assert_eq!(
            example_lines(&verdicts),
            [
                "  parse_error (e.g. c step 1): reason for c",
                "  rate_limited (e.g. b step 1): reason for b",
            ]
        );
        let unpriced = Spend::new(None);
        assert!(summary_line(&config, 0, &[], 0, &unpriced)
            .ends_with("0 unscored, 0 from cache, spend unknown (no price for gpt-4o-mini) (in 0 / out 0 tokens)"));
    }

    #[test]
    fn the_plan_names_the_requests_tokens_and_cost_or_the_missing_price() {
        let config = ProviderConfig::new(Provider::Anthropic, "claude-x");
        let estimate = RunEstimate {
            requests: 3,
            input_tokens: 12_000,
            output_tokens: 6_144,
            cost_usd: None,
        };
        assert_eq!(
            plan_line(&config, 5, &estimate),
            "plan: 5 calls to judge with anthropic claude-x: 2 from cache, 3 requests, about \
             12,000 input tokens and at most 6,144 output tokens; no price for claude-x: edit a \
             price table with --prices"
        );
        let priced = RunEstimate {
            cost_usd: Some(0.5),
            ..estimate
        };
        assert!(
            plan_line(&config, 3, &priced).ends_with("; about $0.5000 at the price table's price")
        );
    }
}
