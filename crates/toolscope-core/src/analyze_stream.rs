//! [`crate::analyze`] without keeping the sessions: each session is checked, its labelled turns
//! scored and its report rows made as soon as it is read, and then dropped, so that memory holds
//! the input, the labels not yet scored and the report, not every session (docs/performance.md).
//!
//! It applies when every trace file is in toolscope's native format (one session per record) and
//! nothing needs the sessions after reading: no verdicts (the judge's report looks calls up) and
//! no task labels (a task's sessions are matched together). Otherwise [`stream_report`] returns
//! None and the caller keeps the sessions. Both paths give the same report; the tests hold them to
//! it.

use std::collections::hash_map::Entry;
use std::collections::BTreeMap;
use std::io::BufRead;
use std::sync::Arc;

use crate::analysis::Filter;
use crate::analyze::{role_rank, sort_diagnostics, warn_about_skipped_suggestions, UniqueIds};
use crate::analyze_inputs::{refuse_too_large, Gathered};
use crate::checks::catalog::CompiledCatalog;
use crate::checks::suggest::Budget;
use crate::checks::{check_session, SessionFindings};
use crate::diagnostic::Diagnostic;
use crate::drift::DriftCounter;
use crate::findings::add_descriptions;
use crate::formats::{detect_format, native, no_sessions, TraceFormat};
use crate::hashing::{HashMap, HashMapExt};
use crate::input::{InputFile, Options, ReadError, Role};
use crate::inputs::labels::{
    read_label_record, second_label, session_not_in_traces, turn_out_of_range, Label, LabelRecord,
};
use crate::json::lines::LineRecords;
use crate::json::{decode_text, split_records, Layout, Record};
use crate::metrics::outcome::{score_turn, TurnOutcome};
use crate::metrics::selection::{summarize, Selection};
use crate::metrics::selection_totals::SelectionTotals;
use crate::metrics::trials::trials_of;
use crate::model::{turn_count, turns_of, Session, ToolDef};
use crate::report::{CheckRows, InputSummary, Omitted, Report};

/// The report of `inputs`, streaming their sessions; None when some input needs the sessions
/// kept (see the module docs).
///
/// A trace file read in pieces gives its first whole lines as its bytes and the rest of them in
/// `rests`, at its index in `inputs` (an empty `rests` when none is): its records are read from
/// both. None is decided before any rest is read from, so the caller can still read them whole.
///
/// Without `keeps_rows`, the sessions' rows are counted and dropped (the report's `sessions` is
/// empty and counted in `omitted.sessions`) and so are the scored turns the findings do not read
/// (counted in `omitted.turn_outcomes`); its [`Report::into_summary`] is the full report's.
///
/// With `lines_only`, a trace file read whole that is not laid out as JSON Lines (an array, a
/// pretty-printed document) does not stream either, so every streamed session is one line (a
/// viewer reads it again from there).
///
/// A `filter` that is not empty makes the report [`crate::Analysis::filtered`] gives for it:
/// every session is read, checked and scored as for the whole report (the diagnostics, drift
/// and labels' messages are the whole input's), and only the sessions, problems and labelled
/// turns the filter keeps make rows.
///
/// `visit`, when given, sees every session once it is read (its id made unique, as the report
/// names it), in the order an [`crate::Analysis`] of the same inputs keeps them, with the catalog
/// files' tools (None when no catalog file was given): what the judge needs of sessions it does
/// not keep (`crate::judge::streamed`).
pub(crate) fn stream_report(
    inputs: &[InputFile<'_>],
    rests: &mut [Option<&mut dyn BufRead>],
    options: &Options,
    keeps_rows: bool,
    lines_only: bool,
    filter: &Filter,
    mut visit: Option<&mut crate::analyze_read::SessionVisit<'_>>,
) -> Option<Result<Report, ReadError>> {
    let mut order: Vec<usize> = (0..inputs.len()).collect();
    crate::sort::sort_by_key(&mut order, |&index| role_rank(inputs[index].role));
    let ordered: Vec<&InputFile<'_>> = order.iter().map(|&index| &inputs[index]).collect();
    if ordered
        .iter()
        .any(|input| matches!(input.role, Role::Verdicts | Role::HumanVerdicts))
    {
        return None;
    }
    let mut diagnostics = Vec::new();
    let mut summaries: Vec<Option<InputSummary>> = vec![None; ordered.len()];
    // The trace files decoded and split once: whether each reads as native decides the path.
    let mut texts = Vec::new();
    for (slot, input) in ordered.iter().enumerate() {
        if input.role != Role::Traces || refuse_too_large(input, &mut diagnostics) {
            continue;
        }
        if options.format.is_none() && crate::formats::inspect::is_zip(input.bytes) {
            return None;
        }
        let before = diagnostics.len();
        let text = decode_text(input.name, input.bytes, &mut diagnostics);
        texts.push((slot, input.name, text, diagnostics.len() > before));
    }
    let mut traces = Vec::new();
    for (slot, file, text, was_repaired) in &texts {
        let before = diagnostics.len();
        let split = split_records(file, text, &mut diagnostics);
        if lines_only && split.layout != Layout::Lines {
            return None;
        }
        let is_empty = split.records.is_empty() && !was_repaired && diagnostics.len() == before;
        let reason = match options.format {
            Some(format) if format != TraceFormat::Native => return None,
            Some(_) => "chosen by the user".to_string(),
            // An empty file, or another format: the whole-input path says what it is.
            None if split.records.is_empty() => return None,
            None => match detect_format(file, &split, &mut diagnostics) {
                Some((TraceFormat::Native, reason)) => reason,
                _ => return None,
            },
        };
        traces.push((*slot, *file, text, split, is_empty, reason));
    }
    // Everything but the traces first: the labels must be known before their sessions arrive.
    let mut gathered = Gathered::default();
    let mut label_texts = Vec::new();
    for (slot, input) in ordered.iter().enumerate() {
        if input.role == Role::Traces {
            continue;
        }
        let mut summary = InputSummary::of(input);
        if !refuse_too_large(input, &mut diagnostics) {
            if input.role == Role::Labels {
                let text = decode_text(input.name, input.bytes, &mut diagnostics);
                label_texts.push((slot, input.name, text));
            } else {
                gathered.read(input, &mut summary, &mut diagnostics);
            }
        }
        summaries[slot] = Some(summary);
    }
    // Labels are kept as their records only (a label's arguments are a `Value` each) and read
    // when their session arrives. Here only whose each is (`label_head`), unless that cannot
    // tell: a label whose record is not plainly a turn label's is read whole now, for its
    // messages and to notice task labels (which need the whole-input path).
    let mut labels = Vec::new();
    let mut label_files = Vec::new();
    // What reading the labels says, by record (all records of all labels files, in order): the
    // order in which it is given, however late a record is read.
    let mut label_messages: Vec<(usize, Diagnostic)> = Vec::new();
    let mut ordinal = 0;
    for (slot, file, text) in &label_texts {
        let split = split_records(file, text, &mut diagnostics);
        let (mut turns, mut tasks) = (0, 0);
        for record in split.records {
            ordinal += 1;
            if let Some(session_id) = label_head(&record) {
                let label = LazyLabel::new(file, record, *slot, ordinal, false);
                labels.push((session_id, label));
                continue;
            }
            let mut messages = Vec::new();
            let read = read_label_record(file, &record, &mut messages);
            label_messages.extend(messages.into_iter().map(|message| (ordinal, message)));
            match read {
                Some(LabelRecord::Turn(label)) => {
                    turns += 1;
                    let lazy = LazyLabel::new(file, record, *slot, ordinal, true);
                    labels.push((label.session_id, lazy));
                }
                Some(LabelRecord::Task(_)) => tasks += 1,
                None => {}
            }
        }
        if tasks > 0 {
            return None;
        }
        label_files.push((*slot, turns));
    }
    let has_catalog_files = !gathered.catalog_files.is_empty();
    let mut stream = Stream::new(
        &gathered,
        labels,
        label_messages,
        options,
        keeps_rows,
        filter,
        &mut diagnostics,
    );
    for (slot, input) in ordered.iter().enumerate() {
        if input.role == Role::Traces {
            // Each its summary; one too large to read keeps it empty.
            summaries[slot] = Some(InputSummary::of(input));
        }
    }
    for (slot, file, text, split, is_empty, reason) in traces {
        let summary = summaries[slot]
            .as_mut()
            .expect("every trace file has a summary");
        if is_empty {
            // Only a chosen format gets here.
            diagnostics.push(no_sessions(file, text));
            continue;
        }
        summary.format = Some(TraceFormat::Native);
        summary.reason = Some(reason);
        // After the reader's: the whole-input path checks once every file is read.
        let mut later = Vec::new();
        let catalog = has_catalog_files.then_some(gathered.catalog_tools.as_slice());
        let mut batch = Batch::default();
        let mut reader = native::RecordReader::default();
        for record in &split.records {
            reader.read(file, record, &mut diagnostics, &mut |session| {
                batch.sessions.push(session)
            });
            batch.add_when_full(&mut stream, &mut later, &mut visit, catalog);
        }
        if let Some(rest) = rests.get_mut(order[slot]).and_then(Option::as_mut) {
            // The first lines were whole: the rest starts at the next line.
            let lines = text.bytes().filter(|&byte| byte == b'\n').count();
            let read = LineRecords::new(&mut **rest, lines, split.records.len()).for_each(
                file,
                &mut diagnostics,
                |record, diagnostics| {
                    reader.read(file, record, diagnostics, &mut |session| {
                        batch.sessions.push(session)
                    });
                    batch.add_when_full(&mut stream, &mut later, &mut visit, catalog);
                },
            );
            if let Err(error) = read {
                return Some(Err(ReadError::new(file, error)));
            }
        }
        batch.add(&mut stream, &mut later, &mut visit, catalog);
        diagnostics.append(&mut later);
        summary.count("sessions", batch.count);
    }
    let streamed = stream.finish(&mut diagnostics);
    for (slot, turns) in label_files {
        let read_later = streamed.labels_read.get(&slot).copied().unwrap_or(0);
        if let Some(summary) = &mut summaries[slot] {
            summary.count("labels", turns + read_later);
        }
    }
    let order: Vec<InputFile<'_>> = ordered.into_iter().copied().collect();
    sort_diagnostics(&mut diagnostics, &order);
    let descriptions = if has_catalog_files {
        crate::findings::tool_descriptions_of_lists(Some(&gathered.catalog_tools), [])
    } else {
        streamed.descriptions
    };
    let mut turns_left_out = 0;
    let selection = streamed.outcomes.map(|outcomes| {
        let selection = match streamed.selection_totals {
            Some(totals) => {
                turns_left_out = totals.turns() - outcomes.len() as u64;
                totals.finish(outcomes, options.min_support)
            }
            None => summarize(outcomes, options.min_support),
        };
        Selection {
            args_mode: options.args_mode,
            ..selection
        }
    });
    let inputs: Vec<InputSummary> = summaries.into_iter().flatten().collect();
    let report = |summary, problems, sessions, tools, trials| Report {
        toolscope_version: crate::VERSION.to_string(),
        inputs,
        summary,
        problems,
        sessions,
        tools,
        selection,
        tasks: None,
        drift: streamed.drift,
        diagnostics,
        judge: None,
        trials,
        findings: Vec::new(),
        omitted: None,
    };
    if !keeps_rows {
        let rows = streamed.rows.finish_counted();
        let trials = trials_of(
            rows.trials
                .iter()
                .map(|(task, trial)| (task.as_str(), *trial)),
        );
        let mut report = report(rows.summary, rows.problems, Vec::new(), rows.tools, trials);
        let agents = rows
            .agents
            .iter()
            .map(|(session, agent)| (session.as_str(), agent.as_str()))
            .collect();
        report.findings = crate::findings::findings_with_agents(&report, &agents, &descriptions);
        report.omitted = Some(Omitted {
            sessions: rows.sessions,
            turn_outcomes: turns_left_out,
            ..Omitted::default()
        });
        return Some(Ok(report));
    }
    let (summary, sessions, mut tools, problems) = streamed.rows.finish();
    if let Some(tool) = &filter.tool {
        tools.retain(|usage| &usage.tool == tool);
    }
    let trials = trials_of(
        sessions
            .iter()
            .filter_map(|row| Some((row.task_id.as_deref()?, row.trial?))),
    );
    let mut report = report(summary, problems, sessions, tools, trials);
    report.findings = crate::findings::findings(&report, &descriptions);
    Some(Ok(report))
}

/// Sessions read but not yet checked. Reading a session, checking it, reading its labels, scoring
/// them and making its rows each run different code, together more than a core's instruction
/// cache holds, so sessions are read [`Batch::SIZE`] at a time and each step then runs for all of
/// them before the next: on a call-dense input, a third of the instruction cache misses of taking
/// a session through every step in turn (cachegrind's simulation, docs/performance.md).
#[derive(Default)]
struct Batch {
    sessions: Vec<Session>,
    /// How many sessions were added.
    count: usize,
}

impl Batch {
    /// Sessions read before they are checked.
    const SIZE: usize = 64;

    fn add_when_full(
        &mut self,
        stream: &mut Stream<'_, '_>,
        later: &mut Vec<Diagnostic>,
        visit: &mut Option<&mut crate::analyze_read::SessionVisit<'_>>,
        catalog: Option<&[ToolDef]>,
    ) {
        if self.sessions.len() >= Self::SIZE {
            self.add(stream, later, visit, catalog);
        }
    }

    /// Checks, scores and counts every session read, in the order read, and shows each to
    /// `visit` (with the catalog files' tools) once its id is made unique.
    fn add(
        &mut self,
        stream: &mut Stream<'_, '_>,
        later: &mut Vec<Diagnostic>,
        visit: &mut Option<&mut crate::analyze_read::SessionVisit<'_>>,
        catalog: Option<&[ToolDef]>,
    ) {
        self.count += self.sessions.len();
        // Each step for every session before the next step: each step's code stays in the
        // instruction cache while it runs (see the type's docs).
        let mut found = Vec::with_capacity(self.sessions.len());
        for session in &mut self.sessions {
            found.push(stream.check(session, later));
        }
        let labels: Vec<SessionLabels> = self
            .sessions
            .iter()
            .map(|session| stream.read_labels(session))
            .collect();
        for (session, labels) in self.sessions.iter().zip(labels) {
            stream.measure(session, labels);
        }
        for (session, (found, is_without_catalog)) in self.sessions.drain(..).zip(found) {
            stream.add_rows(&session, found, is_without_catalog);
            if let Some(visit) = visit.as_mut() {
                visit(&session, catalog);
            }
        }
    }
}

/// A session's labels, read whole: each one's index among all labels, and the label.
#[derive(Default)]
struct SessionLabels {
    indices: Vec<usize>,
    labels: Vec<Label>,
}

/// A turn label not read yet: where its record is.
struct LazyLabel<'t> {
    file: &'t str,
    record: Record<'t>,
    /// Its labels file's place among the inputs (whose summary counts it).
    slot: usize,
    /// Its record's place among all labels files' records.
    ordinal: usize,
    /// Whether it was read whole already, its messages given.
    is_read: bool,
}

impl<'t> LazyLabel<'t> {
    fn new(file: &'t str, record: Record<'t>, slot: usize, ordinal: usize, is_read: bool) -> Self {
        LazyLabel {
            file,
            record,
            slot,
            ordinal,
            is_read,
        }
    }
}

/// The session a label record names, when the record is plainly a turn label's: a JSON object
/// whose `session_id` (or `id`) is a string and with no `expected_actions` or
/// `evaluation_criteria` (which make a task label). Reads nothing else, building no value: a
/// label is read whole once, when its session arrives. None for anything else, to be read
/// whole now.
fn label_head(record: &Record<'_>) -> Option<String> {
    /// Any value, present.
    fn present<'de, D: serde::Deserializer<'de>>(value: D) -> Result<bool, D::Error> {
        serde::de::IgnoredAny::deserialize(value).map(|_| true)
    }
    #[derive(serde::Deserialize)]
    struct Head<'a> {
        #[serde(alias = "id", borrow)]
        session_id: Option<std::borrow::Cow<'a, str>>,
        #[serde(default, deserialize_with = "present")]
        expected_actions: bool,
        #[serde(default, deserialize_with = "present")]
        evaluation_criteria: bool,
    }
    use serde::Deserialize;
    let head: Head<'_> = serde_json::from_str(record.text).ok()?;
    if head.expected_actions || head.evaluation_criteria {
        return None;
    }
    head.session_id.map(std::borrow::Cow::into_owned)
}

/// What the report needs, gathered one session at a time.
struct Stream<'g, 't> {
    options: Options,
    rules: &'g crate::inputs::rules::Rules,
    /// The catalog files' tools, when any were given.
    catalog: Option<&'g [ToolDef]>,
    file_catalog: Option<CompiledCatalog>,
    file_source: String,
    /// Each session's own tool list, compiled once (the Arc keeps the address unique).
    own_catalogs: HashMap<*const Vec<ToolDef>, OwnCatalog>,
    budget: Budget,
    ids: UniqueIds,
    labels: Vec<LazyLabel<'t>>,
    /// What reading the labels said, by record (see `stream_report`).
    label_messages: Vec<(usize, Diagnostic)>,
    /// By labels file (its place among the inputs): how many labels read when their session
    /// came (or at the end) were turn labels.
    labels_read: BTreeMap<usize, usize>,
    /// Label indices by the session they name, in label order; removed when it is scored.
    labels_by_session: HashMap<String, Vec<usize>>,
    /// Each outcome with the label index that first labelled its turn (the report's order).
    outcomes: Vec<(usize, TurnOutcome)>,
    /// When the report is made without its rows: every outcome counted here, and only the
    /// turns the findings read (a tool other than the one expected) kept in `outcomes`.
    selection_totals: Option<SelectionTotals>,
    /// Diagnostics about labels, by label index (the order the whole-input path gives them).
    label_diagnostics: Vec<(usize, Diagnostic)>,
    rows: CheckRows,
    drift: Option<DriftCounter<'g>>,
    /// Without a catalog file, the tools' descriptions from the sessions' own lists (the first
    /// per name), as `findings::tool_descriptions` takes them.
    descriptions: BTreeMap<String, String>,
    /// The last session's list, kept so that its address is not reused by another.
    last_list: Option<Arc<Vec<ToolDef>>>,
    /// Which sessions, problems and labelled turns make rows (all when empty).
    filter: &'g Filter,
}

/// A session's own tool list (kept, so that its address is not reused), compiled, and the file
/// of the first session that carried it.
type OwnCatalog = (Arc<Vec<ToolDef>>, CompiledCatalog, String);

/// What [`Stream::finish`] gives.
struct Streamed {
    rows: CheckRows,
    outcomes: Option<Vec<TurnOutcome>>,
    selection_totals: Option<SelectionTotals>,
    drift: Vec<crate::drift::DriftItem>,
    descriptions: BTreeMap<String, String>,
    /// By labels file: how many labels were read only when their session came.
    labels_read: BTreeMap<usize, usize>,
}

impl<'g, 't> Stream<'g, 't> {
    fn new(
        gathered: &'g Gathered<'_>,
        labels: Vec<(String, LazyLabel<'t>)>,
        label_messages: Vec<(usize, Diagnostic)>,
        options: &Options,
        keeps_rows: bool,
        filter: &'g Filter,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Self {
        let budget = Budget::default();
        let has_catalog = !gathered.catalog_files.is_empty();
        let file_source = gathered.catalog_files.join(", ");
        let file_catalog = has_catalog.then(|| {
            CompiledCatalog::compile(&gathered.catalog_tools, &file_source, diagnostics, &budget)
        });
        let mut labels_by_session: HashMap<String, Vec<usize>> = HashMap::new();
        let labels = labels
            .into_iter()
            .enumerate()
            .map(|(index, (session_id, label))| {
                labels_by_session.entry(session_id).or_default().push(index);
                label
            })
            .collect::<Vec<_>>();
        let label_count = labels.len();
        Stream {
            options: *options,
            rules: &gathered.rules,
            catalog: has_catalog.then_some(gathered.catalog_tools.as_slice()),
            file_catalog,
            file_source,
            own_catalogs: HashMap::new(),
            budget,
            ids: UniqueIds::default(),
            labels,
            labels_by_session,
            label_messages,
            labels_read: BTreeMap::new(),
            // At most one outcome per label: room for them all up front, not grown by doubling
            // (without rows, only the few the findings quote are kept).
            outcomes: if keeps_rows {
                Vec::with_capacity(label_count)
            } else {
                Vec::new()
            },
            selection_totals: (!keeps_rows).then(SelectionTotals::default),
            label_diagnostics: Vec::new(),
            rows: if keeps_rows {
                CheckRows::default()
            } else {
                CheckRows::counting()
            },
            drift: has_catalog.then(|| DriftCounter::new(&gathered.catalog_tools)),
            descriptions: BTreeMap::new(),
            last_list: None,
            filter,
        }
    }

    /// Checks `session` (its id made unique first): what the checks found, and whether it was
    /// checked without a catalog.
    fn check(
        &mut self,
        session: &mut Session,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> (SessionFindings, bool) {
        self.ids.make_unique(session, diagnostics);
        let session = &*session;
        match (&self.file_catalog, &session.tools) {
            (Some(catalog), _) => (check_session(session, Some(catalog), self.rules), false),
            (None, None) => (check_session(session, None, self.rules), true),
            (None, Some(tools)) => {
                let budget = &self.budget;
                let (_, catalog, _) =
                    self.own_catalogs
                        .entry(Arc::as_ptr(tools))
                        .or_insert_with(|| {
                            let source = session.origin.file.clone();
                            let catalog =
                                CompiledCatalog::compile(tools, &source, diagnostics, budget);
                            (Arc::clone(tools), catalog, source)
                        });
                (check_session(session, Some(catalog), self.rules), false)
            }
        }
    }

    /// Counts a checked session's drift and scores its labelled turns.
    fn measure(&mut self, session: &Session, labels: SessionLabels) {
        if let Some(drift) = &mut self.drift {
            drift.add(session);
        }
        self.score(session, labels);
    }

    /// Makes a checked and scored session's rows (when the filter keeps it).
    fn add_rows(&mut self, session: &Session, found: SessionFindings, is_without_catalog: bool) {
        if !self.filter.keeps_session(session) {
            return;
        }
        // Sessions usually share one list: read each run of them once (adding a list again
        // changes nothing, the first description of a name wins).
        if let (None, Some(tools)) = (self.catalog, &session.tools) {
            if !self
                .last_list
                .as_ref()
                .is_some_and(|last| Arc::ptr_eq(last, tools))
            {
                add_descriptions(&mut self.descriptions, tools);
                self.last_list = Some(Arc::clone(tools));
            }
        }
        let found = match self.filter.is_empty() {
            true => found,
            false => self.filter.narrow(session, &found),
        };
        self.rows.add(session, found, is_without_catalog);
    }

    /// Label `index`, read whole; None when its record is not a turn label after all. The first
    /// time a label is read its messages are kept and, when it is one, counted.
    fn read_label(&mut self, index: usize) -> Option<Label> {
        let lazy = &self.labels[index];
        let mut messages = Vec::new();
        let label = match read_label_record(lazy.file, &lazy.record, &mut messages) {
            Some(LabelRecord::Turn(label)) => Some(label),
            _ => None,
        };
        if !lazy.is_read {
            let ordinal = lazy.ordinal;
            self.label_messages
                .extend(messages.into_iter().map(|message| (ordinal, message)));
            if label.is_some() {
                *self.labels_read.entry(lazy.slot).or_default() += 1;
            }
        }
        label
    }

    /// Reads the session's labels whole: each one's index and the label (none when it has
    /// none).
    fn read_labels(&mut self, session: &Session) -> SessionLabels {
        let Some(indices) = self.labels_by_session.remove(&session.session_id) else {
            return SessionLabels::default();
        };
        let mut read = SessionLabels {
            indices: Vec::with_capacity(indices.len()),
            labels: Vec::with_capacity(indices.len()),
        };
        for index in indices {
            if let Some(label) = self.read_label(index) {
                read.labels.push(label);
                read.indices.push(index);
            }
        }
        read
    }

    /// Scores the session's labelled turns ([`Stream::read_labels`] read its labels), as the
    /// whole-input path does for all sessions.
    fn score(&mut self, session: &Session, labels: SessionLabels) {
        if labels.labels.is_empty() {
            return;
        }
        let turns = turn_count(session);
        let SessionLabels {
            indices,
            labels: read,
        } = labels;
        // Per turn: the label index that first labelled it, and the position (in `read`) of the
        // one used (the last).
        let mut chosen: Vec<(usize, usize, usize)> = Vec::new();
        let mut slot: HashMap<usize, usize> = HashMap::new();
        for (position, (&index, label)) in indices.iter().zip(&read).enumerate() {
            if label.turn >= turns {
                self.label_diagnostics
                    .push((index, turn_out_of_range(label, turns)));
                continue;
            }
            match slot.entry(label.turn) {
                Entry::Occupied(entry) => {
                    let used = &mut chosen[*entry.get()].2;
                    self.label_diagnostics
                        .push((index, second_label(label, &read[*used])));
                    *used = position;
                }
                Entry::Vacant(entry) => {
                    entry.insert(chosen.len());
                    chosen.push((label.turn, index, position));
                }
            }
        }
        if !chosen.is_empty() {
            let session_turns = turns_of(session);
            let tools = self.catalog.or(session.tools.as_deref().map(Vec::as_slice));
            for &(turn, first, used) in &chosen {
                let outcome = score_turn(
                    &read[used],
                    &session_turns[turn],
                    session.agent_id.as_deref(),
                    self.options.args_mode,
                    tools,
                );
                match &mut self.selection_totals {
                    Some(totals) => {
                        totals.add(&outcome);
                        if outcome.counted_as != outcome.actual_tool {
                            self.outcomes.push((first, outcome));
                        }
                    }
                    None if self.filter.keeps_outcome(&outcome) => {
                        self.outcomes.push((first, outcome));
                    }
                    None => {}
                }
            }
        }
    }

    fn finish(mut self, diagnostics: &mut Vec<Diagnostic>) -> Streamed {
        // Labels whose session never came.
        let left = std::mem::take(&mut self.labels_by_session);
        for (session_id, indices) in &left {
            for &index in indices {
                if self.read_label(index).is_none() {
                    continue;
                }
                let label = &self.labels[index];
                self.label_diagnostics.push((
                    index,
                    session_not_in_traces(label.file, label.record.line, session_id),
                ));
            }
        }
        let has_labels = self.labels.iter().any(|label| label.is_read)
            || self.labels_read.values().any(|&read| read > 0);
        // What reading the labels said, then what scoring them did, as the whole-input path
        // gives them.
        crate::sort::sort_by_key(&mut self.label_messages, |(ordinal, _)| *ordinal);
        diagnostics.extend(self.label_messages.into_iter().map(|(_, d)| d));
        crate::sort::sort_by_key(&mut self.label_diagnostics, |(index, _)| *index);
        diagnostics.extend(self.label_diagnostics.into_iter().map(|(_, d)| d));
        let catalogs = self
            .file_catalog
            .iter()
            .map(|catalog| (catalog, self.file_source.as_str()))
            .chain(
                self.own_catalogs
                    .values()
                    .map(|(_, catalog, source)| (catalog, source.as_str())),
            );
        warn_about_skipped_suggestions(catalogs, diagnostics);
        // Each outcome's first label index is its own: an unstable sort gives the same order
        // without the scratch copy of the outcomes a stable sort makes.
        self.outcomes.sort_unstable_by_key(|(first, _)| *first);
        Streamed {
            rows: self.rows,
            outcomes: has_labels.then(|| self.outcomes.into_iter().map(|(_, o)| o).collect()),
            selection_totals: self.selection_totals,
            drift: self.drift.map(DriftCounter::finish).unwrap_or_default(),
            descriptions: self.descriptions,
            labels_read: self.labels_read,
        }
    }
}
