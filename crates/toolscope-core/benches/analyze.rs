//! Throughput of the engine on ~8 MB of generated sessions (toolscope-gen, default seed),
//! against the floor any reader pays: parsing every line into a `serde_json::Value`.
//!
//! - `parse_values`: the baseline, each JSON Lines record into a `serde_json::Value`;
//! - `checks`: `analyze()` with the catalog and the ordering rules (every code check);
//! - `checks_and_labels`: the same plus the labels (selection metrics too).
//!
//! Throughput is bytes of `sessions.jsonl` in every case, so the three are comparable.
//! Run with `cargo bench -p toolscope-core --bench analyze`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use serde_json::Value;
use toolscope_core::{analyze, InputFile, Options, Role};
use toolscope_gen::{generate, Config, Dataset, Size, DEFAULT_SEED};

const DATA_BYTES: u64 = 8 << 20;

fn parse_values(jsonl: &[u8]) -> usize {
    jsonl
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .map(|line| serde_json::from_slice::<Value>(line).map_or(0, |_| 1))
        .sum()
}

fn inputs<'a>(data: &'a Dataset, with_labels: bool) -> Vec<InputFile<'a>> {
    let mut inputs = vec![
        InputFile::new("tools.json", data.tools.as_bytes(), Role::Catalog),
        InputFile::new("rules.json", data.rules.as_bytes(), Role::Rules),
        InputFile::new("sessions.jsonl", &data.sessions, Role::Traces),
    ];
    if with_labels {
        inputs.push(InputFile::new("labels.jsonl", &data.labels, Role::Labels));
    }
    inputs
}

fn bench_analyze(c: &mut Criterion) {
    let data = generate(&Config {
        seed: DEFAULT_SEED,
        size: Size::Bytes(DATA_BYTES),
        ..Config::default()
    });
    let options = Options::default();
    let mut group = c.benchmark_group("analyze");
    group.throughput(Throughput::Bytes(data.sessions.len() as u64));
    group.sample_size(10);
    group.bench_function("parse_values", |b| b.iter(|| parse_values(&data.sessions)));
    let checks = inputs(&data, false);
    group.bench_function("checks", |b| b.iter(|| analyze(&checks, &options)));
    let with_labels = inputs(&data, true);
    group.bench_function("checks_and_labels", |b| {
        b.iter(|| analyze(&with_labels, &options))
    });
    group.finish();
}

criterion_group!(benches, bench_analyze);
criterion_main!(benches);
