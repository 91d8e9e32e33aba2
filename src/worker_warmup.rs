//! A warm-up of the engine while the worker waits for its first request. V8 starts a wasm
//! function in its baseline compiler and optimises it only once it has run hot, so the first file
//! a page reads is read by slower code than the next (docs/performance.md: in Node, the same engine
//! on 105 MB took 0.80 s cold and 0.52 s on the next run). Once the worker has said it is ready, it
//! reads a small built-in input the way a dropped file is read (role told from its first bytes,
//! native JSON Lines streamed through `read_analysis`, labels scored, rules checked, the report's
//! aggregates written as JSON), over and over, in slices of about [`SLICE_MS`] each a task of its
//! own, so a request that arrives waits for one slice at most. It stops at the first request and
//! for good after [`BUDGET_MS`] of work. Its reports are dropped: nothing is kept, posted or
//! counted.
//!
//! The input (`src/worker_warmup/`, 3.6 kB gzipped): sessions 1, 3, 5 and 6 of `toolscope-gen
//! --seed 15 --sessions 6` (realistic; the last carries its tool definitions) and 1 to 6 of
//! `toolscope-gen --seed 16 --sessions 10 --shape call-dense`, in one file, their labels in
//! another, and the rules file both write; each round renames the sessions so no two rounds' ids
//! are the same text.

use std::cell::Cell;
use std::io::Cursor;

use toolscope_core::{detect_role_of_start, read_analysis, Options, ReadAnalysis, Source};

/// The built-in sessions (both shapes toolscope-gen makes).
const SESSIONS: &str = include_str!("worker_warmup/sessions.jsonl");
/// Labels for those sessions.
const LABELS: &str = include_str!("worker_warmup/labels.jsonl");
/// The rules toolscope-gen writes beside them.
const RULES: &str = include_str!("worker_warmup/rules.json");

/// The work in one slice, in milliseconds: rounds run until it is reached, so a request waits
/// about this long at most. A round takes about 1 ms once its schemas are kept compiled
/// (`compiled_schemas`; 25–35 ms in Chromium when each round compiled them again), so a slice
/// is a score of rounds; the first round takes 100–170 ms, most of it V8 compiling the engine's
/// functions on their first call, which a request coming then would have paid for anyway.
pub(crate) const SLICE_MS: f64 = 20.0;

/// The most work the warm-up does, in milliseconds, before it stops for good: 7–9 slices, done
/// 0.3–0.35 s after the worker is ready (docs/performance.md has what it gains).
pub(crate) const BUDGET_MS: f64 = 300.0;

/// Where the warm-up is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Warmup {
    /// Not started yet.
    Waiting,
    /// At round `round`, with `spent_ms` of work done.
    Running { round: u32, spent_ms: f64 },
    /// Stopped: by a request, or its budget spent.
    Over,
}

thread_local! {
    static WARMUP: Cell<Warmup> = const { Cell::new(Warmup::Waiting) };
}

/// Starts the warm-up: its first slice runs once the tasks already queued (a request) have.
pub(crate) fn start() {
    if WARMUP.with(Cell::get) == Warmup::Waiting {
        WARMUP.with(|warmup| {
            warmup.set(Warmup::Running {
                round: 0,
                spent_ms: 0.0,
            })
        });
        next_slice();
    }
}

/// Stops the warm-up for good (a request has come), and forgets the schemas its rounds
/// compiled: the first file's are compiled as they would be without a warm-up.
pub(crate) fn stop() {
    if WARMUP.with(|warmup| warmup.replace(Warmup::Over)) != Warmup::Over {
        toolscope_core::checks::compiled_schemas::forget();
    }
}

/// Runs the next slice as a task of its own, after whatever the event loop holds.
fn next_slice() {
    gloo_timers::callback::Timeout::new(0, slice).forget();
}

/// Runs rounds until [`SLICE_MS`] have passed, then yields, or stops when the budget is spent.
fn slice() {
    let Warmup::Running {
        mut round,
        spent_ms,
    } = WARMUP.with(Cell::get)
    else {
        return;
    };
    let started = js_sys::Date::now();
    let mut elapsed = 0.0;
    while elapsed < SLICE_MS {
        // Each round's report is dropped: the warm-up only runs the code.
        drop(warm_round(round));
        round = round.wrapping_add(1);
        elapsed = js_sys::Date::now() - started;
    }
    let spent_ms = spent_ms + elapsed;
    if spent_ms >= BUDGET_MS {
        return stop();
    }
    WARMUP.with(|warmup| warmup.set(Warmup::Running { round, spent_ms }));
    next_slice();
}

/// The built-in sessions and labels with every session id renamed for round `round`
/// (`sess_…` → `warm{round}_…`).
fn round_input(round: u32) -> (String, String) {
    let renamed = format!("\"warm{round}_");
    (
        SESSIONS.replace("\"sess_", &renamed),
        LABELS.replace("\"sess_", &renamed),
    )
}

/// One round: the built-in input read as the worker reads dropped files, and the report's
/// aggregates as the JSON the page is sent. None if it did not stream (it always does).
fn warm_round(round: u32) -> Option<String> {
    let (sessions, labels) = round_input(round);
    let files = [
        ("rules.json", RULES.as_bytes().to_vec()),
        ("sessions.jsonl", sessions.into_bytes()),
        ("labels.jsonl", labels.into_bytes()),
    ];
    let sources = files
        .into_iter()
        .map(|(name, bytes)| {
            let (role, _) = detect_role_of_start(&bytes, bytes.len() as u64);
            Source::Reader {
                name,
                role,
                reader: Box::new(Cursor::new(bytes)),
            }
        })
        .collect();
    match read_analysis(sources, &Options::default(), &mut |_| {}).ok()? {
        ReadAnalysis::Streamed(report) => serde_json::to_string(&report.aggregates()).ok(),
        ReadAnalysis::Kept(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use toolscope_core::{analyze, InputFile, Role};

    use super::*;

    #[test]
    fn the_built_in_files_are_told_as_rules_traces_and_labels() {
        let (sessions, labels) = round_input(3);
        for (bytes, role) in
            [RULES, &sessions, &labels]
                .iter()
                .zip([Role::Rules, Role::Traces, Role::Labels])
        {
            assert_eq!(
                detect_role_of_start(bytes.as_bytes(), bytes.len() as u64).0,
                role
            );
        }
    }

    #[test]
    fn a_round_streams_every_built_in_session_renamed_with_its_labels_scored() {
        let json = warm_round(7).expect("the built-in sessions stream");
        let aggregates: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(aggregates["summary"]["sessions"], 10);
        assert_eq!(aggregates["selection"]["tool_accuracy"]["total"], 10);
        assert_eq!(aggregates["summary"]["by_kind"]["order"]["problems"], 1);
        assert_eq!(
            aggregates["summary"]["by_kind"]["unhandled_error"]["problems"],
            2
        );
        assert!(aggregates["diagnostics"].as_array().unwrap().is_empty());
    }

    #[test]
    fn a_round_gives_the_report_analyze_gives_on_the_same_files_whole() {
        let (sessions, labels) = round_input(2);
        let report = analyze(
            &[
                InputFile::new("rules.json", RULES.as_bytes(), Role::Rules),
                InputFile::new("sessions.jsonl", sessions.as_bytes(), Role::Traces),
                InputFile::new("labels.jsonl", labels.as_bytes(), Role::Labels),
            ],
            &Options::default(),
        );
        assert!(report
            .sessions
            .iter()
            .all(|row| row.session_id.starts_with("warm2_")));
        assert_eq!(
            warm_round(2).unwrap(),
            serde_json::to_string(&report.aggregates()).unwrap()
        );
    }

    #[test]
    fn stopping_forgets_the_schemas_the_rounds_compiled_once() {
        use toolscope_core::checks::compiled_schemas::kept_count;
        WARMUP.with(|warmup| {
            warmup.set(Warmup::Running {
                round: 0,
                spent_ms: 0.0,
            })
        });
        warm_round(0).unwrap();
        let kept = kept_count();
        assert!(kept > 0, "the built-in tools' schemas are kept");
        warm_round(1).unwrap();
        assert_eq!(kept_count(), kept, "a second round compiles nothing new");
        stop();
        assert_eq!(kept_count(), 0);
        assert_eq!(WARMUP.with(Cell::get), Warmup::Over);
    }

    #[test]
    fn rounds_name_their_sessions_apart() {
        let (first, _) = round_input(1);
        let (second, _) = round_input(2);
        assert!(!first.contains("\"sess_") && first.contains("\"warm1_"));
        assert!(!second.contains("\"warm1_") && second.contains("\"warm2_"));
    }
}
