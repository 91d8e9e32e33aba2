//! The engine's entry points: input files in, [`Report`] out ([`analyze`]), or an
//! [`Analysis`] that keeps the sessions for drilling down and re-reports under filters.

use std::collections::hash_map::Entry;
use std::sync::Arc;

use crate::analysis::{Analysis, Progress, Stage};
use crate::analyze_inputs::{refuse_too_large, Gathered};
use crate::analyze_tasks::score_tasks;
use crate::checks::catalog::CompiledCatalog;
use crate::checks::suggest::{Budget, BUDGET_CELLS};
use crate::checks::{check_session, SessionFindings};
use crate::diagnostic::Diagnostic;
use crate::drift;
use crate::formats::read_traces_reporting;
use crate::formats::TraceFormat;
use crate::hashing::{HashMap, HashMapExt, HashSet, HashSetExt};
use crate::input::{InputFile, Options, Role};
use crate::inputs::labels::{second_label, session_not_in_traces, turn_out_of_range, Label};
use crate::inputs::rules::Rules;
use crate::judge::in_report::{judge_report, warn_about_unknown_calls};
use crate::judge::verdict_file::HumanVerdict;
use crate::judge::Verdict;
use crate::metrics::outcome::{score_turn, TurnOutcome};
use crate::metrics::selection::{summarize, Selection};
use crate::metrics::task_actions::{summarize_tasks, TaskOutcome};
use crate::model::{turn_count, turns_of, Session, ToolDef};
use crate::report::{summarize_checks, InputSummary, Report};

/// How often (in sessions or labels) progress is reported while checking and scoring.
const PROGRESS_EVERY: usize = 512;

/// Reads every input and runs every check and metric.
///
/// Catalog: the catalog files' tools when any are given (and then every difference from the
/// tools the sessions carry is listed as drift); otherwise each session's own tools; a session
/// with neither is checked without a catalog.
///
/// Files are read in role order (catalogs, rules, traces, labels; as given within a role), so
/// the report does not depend on the order files were dropped or named.
pub fn analyze(inputs: &[InputFile<'_>], options: &Options) -> Report {
    match crate::analyze_stream::stream_report(
        inputs,
        &mut [],
        options,
        true,
        false,
        &crate::Filter::default(),
        None,
    ) {
        Some(Ok(report)) => report,
        Some(Err(error)) => unreachable!("no reader was given, yet {error}"),
        None => run(inputs, options, &mut |_| {}).into_report(),
    }
}

/// Everything [`analyze`] computes, before it is summarised into a report.
#[derive(Debug)]
pub(crate) struct Parts {
    pub(crate) inputs: Vec<InputSummary>,
    pub(crate) sessions: Vec<Session>,
    pub(crate) findings: Vec<(SessionFindings, bool)>,
    /// None when no labels were given.
    pub(crate) outcomes: Option<Vec<TurnOutcome>>,
    /// None when no task labels were given.
    pub(crate) task_outcomes: Option<Vec<TaskOutcome>>,
    pub(crate) drift: Vec<crate::drift::DriftItem>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) options: Options,
    /// A judge's verdicts, from verdicts files.
    pub(crate) verdicts: Vec<Verdict>,
    /// Human verdicts, from human verdicts files.
    pub(crate) human_verdicts: Vec<HumanVerdict>,
    /// The catalog files' tools; None when no catalog file was given.
    pub(crate) catalog_tools: Option<Vec<ToolDef>>,
    /// A baseline report given to compare with.
    pub(crate) baseline: Option<Box<Report>>,
}

impl Parts {
    fn into_report(self) -> Report {
        let selection = self.outcomes.map(|outcomes| Selection {
            args_mode: self.options.args_mode,
            ..summarize(outcomes, self.options.min_support)
        });
        let rows = self
            .sessions
            .iter()
            .zip(self.findings)
            .map(|(session, (found, is_without_catalog))| (session, found, is_without_catalog));
        let (summary, sessions, tools, problems) = summarize_checks(rows);
        let judge = judge_report(
            &self.verdicts,
            &self.human_verdicts,
            &self.sessions,
            &problems,
        );
        let trials = crate::metrics::trials::summarize_trials(&self.sessions);
        let descriptions =
            crate::findings::tool_descriptions(self.catalog_tools.as_deref(), &self.sessions);
        let mut report = Report {
            toolscope_version: crate::VERSION.to_string(),
            inputs: self.inputs,
            summary,
            problems,
            sessions,
            tools,
            selection,
            tasks: self.task_outcomes.map(summarize_tasks),
            drift: self.drift,
            diagnostics: self.diagnostics,
            judge,
            trials,
            findings: Vec::new(),
            omitted: None,
        };
        report.findings = crate::findings::findings(&report, &descriptions);
        report
    }

    /// Keeps everything for drilling down and filtering.
    pub(crate) fn into_analysis(self) -> Analysis {
        Analysis::from_parts(self)
    }
}

/// [`analyze`], keeping the sessions and findings, and telling `progress` how far it is.
pub(crate) fn run(
    inputs: &[InputFile<'_>],
    options: &Options,
    progress: &mut dyn FnMut(Progress),
) -> Parts {
    let mut ordered: Vec<&InputFile<'_>> = inputs.iter().collect();
    crate::sort::sort_by_key(&mut ordered, |input| role_rank(input.role));
    let total_bytes: u64 = inputs.iter().map(|input| input.bytes.len() as u64).sum();
    let mut bytes_done = 0u64;
    let mut diagnostics = Vec::new();
    let mut summaries = Vec::new();
    let mut sessions: Vec<Session> = Vec::new();
    let mut gathered = Gathered::default();
    let mut bfcl_files: Vec<&str> = Vec::new();
    let mut linkable_files: HashSet<&str> = HashSet::new();

    for input in ordered.iter().copied() {
        progress(Progress {
            stage: Stage::Reading,
            done: bytes_done,
            total: total_bytes,
        });
        let file_start = bytes_done;
        let file_bytes = input.bytes.len() as u64;
        bytes_done += file_bytes;
        let mut summary = InputSummary::of(input);
        if refuse_too_large(input, &mut diagnostics) {
            summaries.push(summary);
            continue;
        }
        match input.role {
            Role::Traces => {
                let mut within = |share: f64| {
                    progress(Progress {
                        stage: Stage::Reading,
                        done: file_start + (share.clamp(0.0, 1.0) * file_bytes as f64) as u64,
                        total: total_bytes,
                    })
                };
                let read = read_traces_reporting(
                    input.name,
                    input.bytes,
                    options.format,
                    &mut diagnostics,
                    &mut within,
                );
                if matches!(read.format, Some((TraceFormat::Bfcl, _))) {
                    bfcl_files.push(input.name);
                }
                if !matches!(read.format, Some((TraceFormat::Native, _))) {
                    linkable_files.insert(input.name);
                }
                if let Some((format, reason)) = read.format {
                    summary.format = Some(format);
                    summary.reason = Some(reason);
                }
                summary.count("sessions", read.sessions.len());
                summary.count_any("labels", read.labels.len());
                summary.count_any("task labels", read.tasks.len());
                sessions.extend(read.sessions);
                gathered.labels.extend(read.labels);
                gathered.tasks.extend(read.tasks);
            }
            _ => gathered.read(input, &mut summary, &mut diagnostics),
        }
        summaries.push(summary);
    }

    progress(Progress {
        stage: Stage::Reading,
        done: total_bytes,
        total: total_bytes,
    });
    crate::formats::join_bfcl_results(&mut sessions, &bfcl_files);
    // Native sessions name their links themselves (and the streaming path, which reads only
    // native files, could not link across sessions).
    crate::formats::link_subagents(&mut sessions, |session| {
        linkable_files.contains(session.origin.file.as_str())
    });
    make_ids_unique(&mut sessions, &mut diagnostics);
    let Gathered {
        catalog_tools,
        catalog_files,
        rules,
        labels,
        tasks,
        verdicts,
        human_verdicts,
        verdict_files,
        baseline,
    } = gathered;
    for (file, range, is_human) in verdict_files {
        let calls: Vec<(String, usize)> = if is_human {
            human_verdicts[range]
                .iter()
                .map(|verdict| (verdict.session_id.clone(), verdict.step))
                .collect()
        } else {
            verdicts[range]
                .iter()
                .map(|verdict| (verdict.session_id.clone(), verdict.step))
                .collect()
        };
        warn_about_unknown_calls(file, calls.into_iter(), &sessions, &mut diagnostics);
    }
    let findings = run_checks(
        &sessions,
        &catalog_tools,
        &catalog_files,
        &rules,
        &mut diagnostics,
        progress,
    );
    let drift = if catalog_files.is_empty() {
        Vec::new()
    } else {
        drift::compare(&sessions, &catalog_tools)
    };
    let catalog = (!catalog_files.is_empty()).then_some(catalog_tools.as_slice());
    let outcomes = (!labels.is_empty()).then(|| {
        score_labels(
            &sessions,
            labels,
            catalog,
            options,
            &mut diagnostics,
            progress,
        )
    });
    let task_outcomes =
        (!tasks.is_empty()).then(|| score_tasks(&sessions, tasks, &mut diagnostics));
    let order: Vec<InputFile<'_>> = ordered.into_iter().copied().collect();
    sort_diagnostics(&mut diagnostics, &order);
    Parts {
        inputs: summaries,
        sessions,
        findings,
        outcomes,
        task_outcomes,
        drift,
        diagnostics,
        options: *options,
        verdicts,
        human_verdicts,
        catalog_tools: (!catalog_files.is_empty()).then_some(catalog_tools),
        baseline,
    }
}

/// Tells `progress` how far a stage is, every [`PROGRESS_EVERY`] items.
fn report_every(progress: &mut dyn FnMut(Progress), stage: Stage, index: usize, total: u64) {
    if index.is_multiple_of(PROGRESS_EVERY) {
        progress(Progress {
            stage,
            done: index as u64,
            total,
        });
    }
}

/// The order roles are read in: what the checks need first.
pub(crate) fn role_rank(role: Role) -> u8 {
    match role {
        Role::Catalog => 0,
        Role::Rules => 1,
        Role::Traces => 2,
        Role::Labels => 3,
        Role::Verdicts => 4,
        Role::HumanVerdicts => 5,
        Role::Baseline => 6,
    }
}

/// Runs the checks on every session with the catalog that applies to it; returns each
/// session's findings and whether it had no catalog.
fn run_checks(
    sessions: &[Session],
    catalog_tools: &[ToolDef],
    catalog_files: &[&str],
    rules: &Rules,
    diagnostics: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(Progress),
) -> Vec<(SessionFindings, bool)> {
    let budget = Budget::default();
    let file_source = catalog_files.join(", ");
    let file_catalog = (!catalog_files.is_empty())
        .then(|| CompiledCatalog::compile(catalog_tools, &file_source, diagnostics, &budget));
    // Sessions usually share one tool list (one allocation, see formats): compile each once.
    let mut own_catalogs: HashMap<*const Vec<ToolDef>, (CompiledCatalog, &str)> = HashMap::new();
    let total = sessions.len() as u64;
    let findings = sessions
        .iter()
        .enumerate()
        .map(|(index, session)| {
            report_every(progress, Stage::Checking, index, total);
            if let Some(catalog) = &file_catalog {
                return (check_session(session, Some(catalog), rules), false);
            }
            let Some(tools) = &session.tools else {
                return (check_session(session, None, rules), true);
            };
            let (catalog, _) = own_catalogs.entry(Arc::as_ptr(tools)).or_insert_with(|| {
                let source = session.origin.file.as_str();
                let catalog = CompiledCatalog::compile(tools, source, diagnostics, &budget);
                (catalog, source)
            });
            (check_session(session, Some(catalog), rules), false)
        })
        .collect();
    let catalogs = file_catalog
        .iter()
        .map(|catalog| (catalog, file_source.as_str()))
        .chain(
            own_catalogs
                .values()
                .map(|(catalog, source)| (catalog, *source)),
        );
    warn_about_skipped_suggestions(catalogs, diagnostics);
    findings
}

/// Says, per catalog, how many unknown tool names got no "did you mean" because comparing names
/// reached its bound. The catalogs come in a hash map's order: the warnings are sorted, so the
/// same input gives the same report.
pub(crate) fn warn_about_skipped_suggestions<'c>(
    catalogs: impl Iterator<Item = (&'c CompiledCatalog, &'c str)>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut warnings: Vec<Diagnostic> = catalogs
        .filter(|(catalog, _)| catalog.suggestions_skipped() > 0)
        .map(|(catalog, source)| {
            Diagnostic::warning(
                source,
                None,
                format!(
                    "{} unknown tool names got no \"did you mean\": comparing names with the \
                     catalog's reached its bound ({BUDGET_CELLS} characters compared)",
                    catalog.suggestions_skipped()
                ),
            )
        })
        .collect();
    crate::sort::sort_by(&mut warnings, |a, b| {
        (&a.file, &a.message).cmp(&(&b.file, &b.message))
    });
    diagnostics.extend(warnings);
}

/// Scores every labelled turn; labels that match no session or turn become diagnostics.
/// Tool definitions for argument labels: the catalog files' when given, else the session's own
/// (as for the checks). Outcomes come in the order each turn was first labelled; a later label
/// of the same turn replaces the earlier one (warned).
fn score_labels(
    sessions: &[Session],
    labels: Vec<Label>,
    catalog: Option<&[ToolDef]>,
    options: &Options,
    diagnostics: &mut Vec<Diagnostic>,
    progress: &mut dyn FnMut(Progress),
) -> Vec<TurnOutcome> {
    let by_id: HashMap<&str, usize> = sessions
        .iter()
        .enumerate()
        .map(|(index, session)| (session.session_id.as_str(), index))
        .collect();
    // Each labelled turn once, as (session index, label index), in first-labelled order.
    let mut chosen: Vec<(usize, usize)> = Vec::new();
    let mut slot: HashMap<(usize, usize), usize> = HashMap::new();
    for (label_index, label) in labels.iter().enumerate() {
        let Some(&session_index) = by_id.get(label.session_id.as_str()) else {
            diagnostics.push(session_not_in_traces(
                &label.origin.file,
                label.origin.line,
                &label.session_id,
            ));
            continue;
        };
        let turns = turn_count(&sessions[session_index]);
        if label.turn >= turns {
            diagnostics.push(turn_out_of_range(label, turns));
            continue;
        }
        match slot.entry((session_index, label.turn)) {
            Entry::Occupied(entry) => {
                let earlier = &labels[chosen[*entry.get()].1];
                diagnostics.push(second_label(label, earlier));
                chosen[*entry.get()].1 = label_index;
            }
            Entry::Vacant(entry) => {
                entry.insert(chosen.len());
                chosen.push((session_index, label_index));
            }
        }
    }
    drop(slot);
    // Labels usually come session by session: keep the last session's turns only.
    let mut turns_cache: Option<(usize, Vec<crate::model::Turn<'_>>)> = None;
    let total = chosen.len() as u64;
    chosen
        .iter()
        .enumerate()
        .map(|(index, &(session_index, label_index))| {
            report_every(progress, Stage::Scoring, index, total);
            let label = &labels[label_index];
            let session = &sessions[session_index];
            let turns = match &mut turns_cache {
                Some((cached, turns)) if *cached == session_index => turns,
                cache => &cache.insert((session_index, turns_of(session))).1,
            };
            score_turn(
                label,
                &turns[label.turn],
                session.agent_id.as_deref(),
                options.args_mode,
                catalog.or(session.tools.as_deref().map(Vec::as_slice)),
            )
        })
        .collect()
}

/// Gives a repeated session id a suffix (`#2`, `#3`, ...) with a warning, so labels and links
/// stay unambiguous.
fn make_ids_unique(sessions: &mut [Session], diagnostics: &mut Vec<Diagnostic>) {
    let mut ids = UniqueIds::default();
    for session in sessions.iter_mut() {
        ids.make_unique(session, diagnostics);
    }
}

/// [`make_ids_unique`] one session at a time.
#[derive(Debug, Default)]
pub(crate) struct UniqueIds {
    /// Each id seen: how many times, and where first: its file (by index in `files`) and line.
    /// Small, as it is kept for every session: 32-bit numbers (a file holds at most
    /// `MAX_FILE_BYTES`, so fewer lines and sessions than that).
    seen: HashMap<Box<str>, (u32, u32, u32)>,
    /// The files sessions came from, each once (a session costs an index, not a copy).
    files: Vec<String>,
}

impl UniqueIds {
    pub(crate) fn make_unique(&mut self, session: &mut Session, diagnostics: &mut Vec<Diagnostic>) {
        let small = |number: usize| u32::try_from(number).unwrap_or(u32::MAX);
        match self.seen.get_mut(session.session_id.as_str()) {
            None => {
                let file = match self.files.iter().rposition(|f| *f == session.origin.file) {
                    Some(index) => index,
                    None => {
                        self.files.push(session.origin.file.clone());
                        self.files.len() - 1
                    }
                };
                self.seen.insert(
                    session.session_id.as_str().into(),
                    (1, small(file), small(session.origin.line)),
                );
            }
            Some((count, file, line)) => {
                let file = &self.files[*file as usize];
                *count += 1;
                let renamed = format!("{}#{count}", session.session_id);
                diagnostics.push(Diagnostic::warning(
                    &session.origin.file,
                    Some(session.origin.line),
                    format!(
                        "session id {:?} was already used at {file}:{line}; this one is called {renamed:?}",
                        session.session_id
                    ),
                ));
                session.session_id = renamed;
            }
        }
    }
}

/// Orders diagnostics as the user gave the files, then by line, so each file's problems read
/// top to bottom whichever step found them.
pub(crate) fn sort_diagnostics(diagnostics: &mut [Diagnostic], inputs: &[InputFile<'_>]) {
    let position: HashMap<&str, usize> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| (input.name, i))
        .rev()
        .collect();
    crate::sort::sort_by_key(diagnostics, |d| {
        (
            position.get(d.file.as_str()).copied().unwrap_or(usize::MAX),
            d.line.unwrap_or(0),
        )
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::read_traces;

    /// Two catalogs whose suggestions found no budget: their warnings come out in one order
    /// whichever order the catalogs are given in (they come from a hash map).
    #[test]
    fn skipped_suggestion_warnings_do_not_depend_on_the_catalogs_order() {
        let tools = [ToolDef {
            name: "lookup_order".into(),
            description: None,
            input_schema: serde_json::json!({"type": "object"}),
        }];
        let line = r#"{"session_id": "s", "events": [{"type": "tool_use", "name": "lookup_ordr", "args": {}}]}"#;
        let session = read_traces("t.jsonl", line.as_bytes(), &mut Vec::new())
            .sessions
            .remove(0);
        let empty = Budget::new(0);
        let compiled = |source: &str| {
            let catalog = CompiledCatalog::compile(&tools, source, &mut Vec::new(), &empty);
            check_session(&session, Some(&catalog), &Rules::default());
            assert_eq!(catalog.suggestions_skipped(), 1);
            catalog
        };
        let (first, second) = (compiled("b.jsonl"), compiled("a.jsonl"));
        let warned = |order: [(&CompiledCatalog, &str); 2]| {
            let mut diagnostics = Vec::new();
            warn_about_skipped_suggestions(order.into_iter(), &mut diagnostics);
            diagnostics
                .iter()
                .map(|d| d.file.clone())
                .collect::<Vec<_>>()
        };
        let one = warned([(&first, "b.jsonl"), (&second, "a.jsonl")]);
        let other = warned([(&second, "a.jsonl"), (&first, "b.jsonl")]);
        assert_eq!(one, ["a.jsonl", "b.jsonl"]);
        assert_eq!(one, other);
    }
}
