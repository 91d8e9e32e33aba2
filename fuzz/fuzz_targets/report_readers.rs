//! Reports someone else wrote, as `merge`, `diff` and `gate` read them. The bytes are cut at
//! their first two 0xFF bytes into traces, patches and a gate config. The traces are analysed
//! into a real report; each 9 bytes of the patches set one of its numbers (the first byte picks
//! which, the next eight are the value, so counts above totals, 10^12 calls and 2^64−1 come up at
//! once), and the patched report is read back through the one reader of reports. The patches'
//! bytes are also read as a report JSON of their own. Whatever the reader accepts is merged,
//! compared both ways with the real report and gated against it: none of these may panic, and
//! with `-timeout=1` none may take long (a count read from a file is never a loop bound before
//! it is checked).

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use toolscope_core::compare::diff::{diff, DiffOptions};
use toolscope_core::gate::config::parse_config;
use toolscope_core::gate::evaluate;
use toolscope_core::merge::merge_reports;
use toolscope_core::report::read_report;
use toolscope_core::{analyze, InputFile, Options, Report, Role};

/// The JSON pointers of every number in `value`.
fn numbers(value: &Value, at: String, found: &mut Vec<String>) {
    match value {
        Value::Number(_) => found.push(at),
        Value::Array(items) => {
            for (index, item) in items.iter().enumerate() {
                numbers(item, format!("{at}/{index}"), found);
            }
        }
        Value::Object(fields) => {
            for (key, item) in fields {
                let key = key.replace('~', "~0").replace('/', "~1");
                numbers(item, format!("{at}/{key}"), found);
            }
        }
        _ => {}
    }
}

fn patched(report: &Report, patches: &[u8]) -> Vec<u8> {
    let mut value = serde_json::to_value(report).expect("a report is JSON");
    let mut found = Vec::new();
    numbers(&value, String::new(), &mut found);
    if !found.is_empty() {
        for patch in patches.chunks_exact(9) {
            let at = &found[usize::from(patch[0]) % found.len()];
            let number = u64::from_le_bytes(patch[1..].try_into().expect("eight bytes"));
            if let Some(slot) = value.pointer_mut(at) {
                *slot = Value::from(number);
            }
        }
    }
    serde_json::to_vec(&value).expect("a value is JSON")
}

fn use_as_others_do(report: &Report, real: &Report, config: &str) {
    if let Ok(merged) = merge_reports(std::slice::from_ref(report)) {
        // Not `assert_sound`: the diagnostics are the file's own (a patched column 0 is the
        // writer's, carried through, found by the first campaign); the numbers must still be JSON.
        let json = serde_json::to_string(&merged).expect("the merged report serialises");
        let _: Report = serde_json::from_str(&json).expect("the merged report reads back");
    }
    let options = DiffOptions {
        resamples: 50,
        ..DiffOptions::default()
    };
    let _ = diff(real, report, &options);
    let _ = diff(report, real, &options);
    if let Ok(config) = parse_config(config) {
        let _ = evaluate(&config, report, Some(real));
        let _ = evaluate(&config, real, Some(report));
    }
}

fuzz_target!(|bytes: &[u8]| {
    let mut parts = bytes.splitn(3, |&byte| byte == 0xFF);
    let mut next = || parts.next().unwrap_or_default();
    let (traces, patches, config) = (next(), next(), next());
    let config = String::from_utf8_lossy(config);
    let real = analyze(
        &[InputFile::new("traces.jsonl", traces, Role::Traces)],
        &Options::default(),
    );
    for written in [patched(&real, patches), patches.to_vec()] {
        if let Ok(report) = read_report(&written) {
            use_as_others_do(&report, &real, &config);
        }
    }
});
