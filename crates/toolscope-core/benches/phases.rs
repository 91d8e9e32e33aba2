//! Where `analyze()` spends its time: each phase of the engine timed on its own, on one file.
//!
//! `cargo bench -p toolscope-core --bench phases -- [SESSIONS.jsonl TOOLS.json RULES.json [LABELS.jsonl]]`
//!
//! Without arguments it generates ~50 MB with toolscope-gen. Each phase runs three times and the
//! fastest run is printed, next to parsing every line into a `serde_json::Value` (the floor).
//! Not a criterion benchmark: it is for finding hot spots, not for tracking them.

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::Value;
use toolscope_core::checks::catalog::CompiledCatalog;
use toolscope_core::checks::check_session;
use toolscope_core::formats::read_traces;
use toolscope_core::inputs::catalog::read_catalog_file;
use toolscope_core::inputs::labels::read_labels_file;
use toolscope_core::inputs::rules::read_rules_file;
use toolscope_core::json::{decode_text, parse_record, split_records};
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::metrics::outcome::score_turn;
use toolscope_core::metrics::selection::{summarize, DEFAULT_MIN_SUPPORT};
use toolscope_core::model::turns_of;
use toolscope_core::{analyze, drift, report, InputFile, Options, Role};

const RUNS: usize = 3;

/// The shape `formats::native` parses a record into (its structs are private): every field a
/// `Value`, so this times the typed parse without the conversion to the model.
#[derive(Deserialize)]
#[allow(dead_code)]
struct NativeSession {
    session_id: Option<Value>,
    agent_id: Option<Value>,
    started_at: Option<Value>,
    tools: Option<Value>,
    events: Option<Vec<NativeEvent>>,
}

#[derive(Deserialize)]
#[allow(dead_code)]
struct NativeEvent {
    #[serde(rename = "type")]
    kind: Option<Value>,
    content: Option<Value>,
    call_id: Option<Value>,
    name: Option<Value>,
    args: Option<Value>,
    status: Option<Value>,
    error_source: Option<Value>,
}

fn fastest<T>(mut run: impl FnMut() -> T) -> Duration {
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            black_box(run());
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

struct Files {
    sessions: Vec<u8>,
    tools: Vec<u8>,
    rules: Vec<u8>,
    labels: Option<Vec<u8>>,
}

fn files() -> Files {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    if args.len() >= 3 {
        let read = |path: &String| std::fs::read(path).expect("reading an input file");
        return Files {
            sessions: read(&args[0]),
            tools: read(&args[1]),
            rules: read(&args[2]),
            labels: args.get(3).map(read),
        };
    }
    let data = toolscope_gen::generate(&toolscope_gen::Config {
        seed: toolscope_gen::DEFAULT_SEED,
        size: toolscope_gen::Size::Bytes(50 << 20),
        ..toolscope_gen::Config::default()
    });
    Files {
        sessions: data.sessions,
        tools: data.tools.into_bytes(),
        rules: data.rules.into_bytes(),
        labels: Some(data.labels),
    }
}

fn main() {
    let files = files();
    let bytes = &files.sessions;
    let megabytes = bytes.len() as f64 / 1e6;
    let mut diagnostics = Vec::new();

    let baseline = fastest(|| {
        bytes
            .split(|&b| b == b'\n')
            .filter(|line| !line.is_empty())
            .filter(|line| serde_json::from_slice::<Value>(line).is_ok())
            .count()
    });
    let decode = fastest(|| decode_text("s", bytes, &mut Vec::new()).len());
    let text = decode_text("s", bytes, &mut diagnostics);
    let split = fastest(|| split_records("s", &text, &mut Vec::new()).records.len());
    let records = split_records("s", &text, &mut diagnostics);
    let parse_values = fastest(|| {
        records
            .records
            .iter()
            .filter(|record| parse_record::<Value>("s", record, &mut Vec::new()).is_ok())
            .count()
    });
    let parse_native = fastest(|| {
        records
            .records
            .iter()
            .filter(|record| parse_record::<NativeSession>("s", record, &mut Vec::new()).is_ok())
            .count()
    });
    let read = fastest(|| read_traces("s", bytes, &mut Vec::new()).sessions.len());
    let sessions = read_traces("s", bytes, &mut diagnostics).sessions;
    let catalog_tools = read_catalog_file("t", &files.tools, &mut diagnostics);
    let rules = read_rules_file("r", &files.rules, &mut diagnostics);
    let catalog =
        CompiledCatalog::compile(&catalog_tools, "t", &mut diagnostics, &Default::default());
    let checks = fastest(|| {
        sessions
            .iter()
            .map(|session| {
                check_session(session, Some(&catalog), &rules)
                    .problems
                    .len()
            })
            .sum::<usize>()
    });
    let turns = fastest(|| sessions.iter().map(|s| turns_of(s).len()).sum::<usize>());
    let summary = fastest(|| {
        let rows = sessions.iter().map(|session| {
            (
                session,
                check_session(session, Some(&catalog), &rules),
                false,
            )
        });
        report::summarize_checks(rows).3.len()
    }) - checks;
    let drift = fastest(|| drift::compare(&sessions, &catalog_tools).len());
    let labels_bytes = files.labels.clone().unwrap_or_default();
    let read_labels = fastest(|| {
        read_labels_file("l", &labels_bytes, &mut Vec::new())
            .turns
            .len()
    });
    let labels = read_labels_file("l", &labels_bytes, &mut diagnostics).turns;
    let by_id: toolscope_core::hashing::HashMap<&str, &toolscope_core::model::Session> = sessions
        .iter()
        .map(|s| (s.session_id.as_str(), s))
        .collect();
    // analyze() splits a session into turns once per label to check the label's turn exists.
    let turns_per_label = fastest(|| {
        labels
            .iter()
            .filter_map(|label| by_id.get(label.session_id.as_str()))
            .map(|session| turns_of(session).len())
            .sum::<usize>()
    });
    let outcomes = || {
        labels
            .iter()
            .filter_map(|label| {
                let session = by_id.get(label.session_id.as_str())?;
                let turns = turns_of(session);
                let turn = turns.get(label.turn)?;
                Some(score_turn(
                    label,
                    turn,
                    session.agent_id.as_deref(),
                    ArgsMode::Exact,
                    session.tools.as_deref().map(Vec::as_slice),
                ))
            })
            .collect::<Vec<_>>()
    };
    let score = fastest(|| outcomes().len());
    let select = fastest(|| summarize(outcomes(), DEFAULT_MIN_SUPPORT).turns) - score;

    let mut inputs = vec![
        InputFile::new("tools.json", &files.tools, Role::Catalog),
        InputFile::new("rules.json", &files.rules, Role::Rules),
        InputFile::new("sessions.jsonl", bytes, Role::Traces),
    ];
    let options = Options::default();
    let analyze_checks = fastest(|| analyze(&inputs, &options));
    if let Some(labels) = &files.labels {
        inputs.push(InputFile::new("labels.jsonl", labels, Role::Labels));
    }
    let report = analyze(&inputs, &options);
    let analyze_all = fastest(|| analyze(&inputs, &options));
    let analyze_drop = fastest(|| drop(analyze(&inputs, &options)))
        .saturating_sub(fastest(|| std::mem::forget(analyze(&inputs, &options))));
    let json = fastest(|| {
        let mut out = Vec::new();
        serde_json::to_writer(&mut out, &report).expect("serialising to memory");
        out.len()
    });
    let calls = report.summary.calls;

    println!(
        "{megabytes:.1} MB, {} sessions, {calls} calls; fastest of {RUNS} runs",
        sessions.len()
    );
    let row = |name: &str, time: Duration| {
        println!(
            "{name:58} {:>8.1} ms {:>7.0} MB/s {:>6.2}x parse-only",
            time.as_secs_f64() * 1e3,
            megabytes / time.as_secs_f64(),
            time.as_secs_f64() / baseline.as_secs_f64()
        );
    };
    row("parse every line into serde_json::Value (floor)", baseline);
    row("json::decode_text (UTF-8 check)", decode);
    row("json::split_records", split);
    row("json::parse_record::<Value> over the records", parse_values);
    row(
        "parse_record::<native's raw structs> over the records",
        parse_native,
    );
    row("formats::read_traces (decode+split+parse+model)", read);
    row("checks::check_session over all sessions", checks);
    row("model::turns_of over all sessions", turns);
    row("report::summarize_checks (on top of the checks)", summary);
    row("drift::compare", drift);
    row("inputs::labels::read_labels_file", read_labels);
    row("model::turns_of once per label", turns_per_label);
    row("turns_of + metrics::outcome::score_turn per label", score);
    row("metrics::selection::summarize (on top of scoring)", select);
    row("analyze(): catalog + rules", analyze_checks);
    row("analyze(): catalog + rules + labels", analyze_all);
    row("  of which dropping the returned Report", analyze_drop);
    row("serde_json::to_writer(report) (report --json)", json);
    println!(
        "per call: checks {:.2} us, whole analyze() {:.2} us",
        checks.as_secs_f64() * 1e6 / calls as f64,
        analyze_checks.as_secs_f64() * 1e6 / calls as f64
    );
}
