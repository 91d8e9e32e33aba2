//! Deterministic, realistic agent traces for toolscope's demo, tests and benchmarks.
//!
//! For a seed it simulates customer-support and stock-research agents (`support-v1`,
//! `support-v2`, `research-v1`) over multi-turn sessions of long-tailed length, and writes:
//!
//! - `tools.json`: the catalog (the seeds' tools, with patterns, enums, ranges, required
//!   arguments and `additionalProperties: false`);
//! - `rules.json`: ordering rules with argument bindings, and `rules-plain.json`, the same rules
//!   in the seed's plain form;
//! - `sessions.jsonl`: sessions in toolscope's native format;
//! - `labels.jsonl`: the tool each turn should have called.
//!
//! The agents make the mistakes real agents make, at rates that differ by agent: made-up tool
//! names, arguments that break the schema, broken JSON argument strings, refunds before (or
//! without) the matching lookup, identical retries after errors, confident replies after errors,
//! environment failures, wrong tool choices and calls where none was needed.
//!
//! The output depends on the seed only (ChaCha8, portable across platforms), and session `i`
//! does not depend on how many sessions are generated.
//!
//! ```
//! use toolscope_gen::{generate, Config, Size};
//!
//! let config = Config { seed: 7, size: Size::Sessions(20), ..Config::default() };
//! let data = generate(&config);
//! assert_eq!(data.stats.sessions, 20);
//! assert_eq!(data.sessions.iter().filter(|&&b| b == b'\n').count(), 20);
//! assert_eq!(generate(&config).sessions, data.sessions);
//! ```

pub mod agent;
pub mod catalog;
mod mistakes;
pub mod record;
mod results;
mod session;
mod text;
mod time;

use std::io::{self, Write};

/// Sessions in the default data set: the page's built-in demo.
pub const DEFAULT_SESSIONS: u64 = 300;

/// The default seed.
pub const DEFAULT_SEED: u64 = 2025;

/// How much to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Exactly this many sessions.
    Sessions(u64),
    /// Sessions until `sessions.jsonl` holds at least this many bytes.
    Bytes(u64),
}

/// Which shape of data: the two stress different code (docs/performance.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Shape {
    /// Text-heavy exports as agents write them: sessions of long-tailed length, tool results of
    /// hundreds of bytes, 16 % of sessions carrying their tool definitions, 60 % labelled.
    #[default]
    Realistic,
    /// Many short sessions (one to three turns), tool results and replies cut to 40 characters,
    /// no tool definitions, and labels on 90 % of sessions: the per-call work weighs most.
    CallDense,
}

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Same seed, same bytes.
    pub seed: u64,
    /// How much.
    pub size: Size,
    /// Which shape.
    pub shape: Shape,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            seed: DEFAULT_SEED,
            size: Size::Sessions(DEFAULT_SESSIONS),
            shape: Shape::Realistic,
        }
    }
}

/// How much was written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Sessions (lines of `sessions.jsonl`).
    pub sessions: u64,
    /// Labels (lines of `labels.jsonl`).
    pub labels: u64,
    /// Bytes of `sessions.jsonl`.
    pub session_bytes: u64,
    /// Bytes of `labels.jsonl`.
    pub label_bytes: u64,
}

/// A whole data set in memory.
#[derive(Debug, Clone)]
pub struct Dataset {
    /// `tools.json`.
    pub tools: String,
    /// `rules.json`.
    pub rules: String,
    /// `rules-plain.json`.
    pub plain_rules: String,
    /// `sessions.jsonl`.
    pub sessions: Vec<u8>,
    /// `labels.jsonl`.
    pub labels: Vec<u8>,
    /// Counts.
    pub stats: Stats,
}

/// `tools.json`: every tool as `{"name", "description", "input_schema"}`.
pub fn tools_json() -> String {
    pretty(&serde_json::Value::Array(catalog::tools()))
}

/// `rules.json`: ordering rules with argument bindings.
pub fn rules_json() -> String {
    pretty(&catalog::rules())
}

/// `rules-plain.json`: the same rules as plain names, as the seed's `MUST_COME_AFTER`.
pub fn plain_rules_json() -> String {
    pretty(&catalog::plain_rules())
}

fn pretty(value: &serde_json::Value) -> String {
    let mut text = serde_json::to_string_pretty(value).expect("JSON values serialise");
    text.push('\n');
    text
}

/// Generates the data set in memory.
pub fn generate(config: &Config) -> Dataset {
    let mut sessions = Vec::new();
    let mut labels = Vec::new();
    let stats = write_traces(config, &mut sessions, &mut labels).expect("writing to memory");
    Dataset {
        tools: tools_json(),
        rules: rules_json(),
        plain_rules: plain_rules_json(),
        sessions,
        labels,
        stats,
    }
}

/// Streams `sessions.jsonl` and `labels.jsonl` to two writers.
pub fn write_traces(
    config: &Config,
    sessions: &mut impl Write,
    labels: &mut impl Write,
) -> io::Result<Stats> {
    let mut stats = Stats::default();
    let mut line = Vec::with_capacity(16 * 1024);
    let mut index = 0;
    loop {
        let is_done = match config.size {
            Size::Sessions(count) => index >= count,
            Size::Bytes(bytes) => stats.session_bytes >= bytes,
        };
        if is_done {
            return Ok(stats);
        }
        let generated = session::generate(config.seed, index, config.shape);
        line.clear();
        serde_json::to_writer(&mut line, &generated.session)?;
        line.push(b'\n');
        sessions.write_all(&line)?;
        stats.sessions += 1;
        stats.session_bytes += line.len() as u64;
        for label in &generated.labels {
            line.clear();
            serde_json::to_writer(&mut line, label)?;
            line.push(b'\n');
            labels.write_all(&line)?;
            stats.labels += 1;
            stats.label_bytes += line.len() as u64;
        }
        index += 1;
    }
}

/// Parses a size such as `50M`, `5MB`, `1.5G`, `800k` or `123456` (bytes; K, M and G are powers
/// of 1024).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let digits_end = lower
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(lower.len());
    let (number, unit) = lower.split_at(digits_end);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("{trimmed:?} is not a size like 50M or 800k"))?;
    let multiplier = match unit.trim() {
        "" | "b" => 1.0,
        "k" | "kb" | "kib" => 1024.0,
        "m" | "mb" | "mib" => 1024.0 * 1024.0,
        "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
        other => return Err(format!("unknown size unit {other:?} (use k, M or G)")),
    };
    Ok((number * multiplier).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("50M"), Ok(50 * 1024 * 1024));
        assert_eq!(parse_size("5MB"), Ok(5 * 1024 * 1024));
        assert_eq!(parse_size("800k"), Ok(800 * 1024));
        assert_eq!(parse_size("1.5G"), Ok(1_610_612_736));
        assert_eq!(parse_size("123"), Ok(123));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("5X").is_err());
    }

    #[test]
    fn a_byte_target_stops_at_the_first_session_past_it() {
        let data = generate(&Config {
            seed: 1,
            size: Size::Bytes(100_000),
            ..Config::default()
        });
        assert!(data.stats.session_bytes >= 100_000);
        let last_line = data.sessions[..data.sessions.len() - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1);
        assert!((last_line as u64) < 100_000);
    }

    #[test]
    fn a_larger_data_set_starts_with_the_smaller_one() {
        let small = generate(&Config {
            seed: 9,
            size: Size::Sessions(10),
            ..Config::default()
        });
        let large = generate(&Config {
            seed: 9,
            size: Size::Sessions(30),
            ..Config::default()
        });
        assert!(large.sessions.starts_with(&small.sessions));
    }
}
