//! `toolscope-gen`: writes a generated data set to a folder, or (`parse-baseline`) times the
//! floor any JSON Lines reader has to pay: parsing every line into a `serde_json::Value`.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Parser, Subcommand};
use toolscope_gen::{
    parse_size, plain_rules_json, rules_json, tools_json, write_traces, Config, Shape, Size,
    DEFAULT_SEED, DEFAULT_SESSIONS,
};

/// Generate realistic agent traces (with real mistakes) for toolscope.
#[derive(Debug, Parser)]
#[command(
    name = "toolscope-gen",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    generate: GenerateArgs,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Parse every line of JSON Lines files into a serde_json::Value and print the count: the
    /// baseline toolscope's own reading is measured against.
    ParseBaseline {
        /// The files (e.g. the sessions and the labels a report reads).
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// How many sessions.
    #[arg(long, value_name = "N", conflicts_with = "target_bytes")]
    sessions: Option<u64>,
    /// Generate sessions until sessions.jsonl holds this much (e.g. 50M, 800k).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    target_bytes: Option<u64>,
    /// Same seed, same bytes.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    seed: u64,
    /// realistic: text-heavy sessions of long-tailed length; call-dense: many one-to-three-turn
    /// sessions with 40-character results and replies, no tool definitions, 90 % labelled.
    #[arg(long, value_enum, default_value_t = Shape::Realistic)]
    shape: Shape,
    /// Where to write tools.json, rules.json, rules-plain.json, sessions.jsonl and labels.jsonl.
    #[arg(long, value_name = "DIR", default_value = ".")]
    out_dir: PathBuf,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Some(Command::ParseBaseline { files }) => {
            files.iter().try_for_each(|file| parse_baseline(file))
        }
        None => generate(&cli.generate),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("toolscope-gen: error: {error:#}");
            ExitCode::from(2)
        }
    }
}

fn generate(args: &GenerateArgs) -> Result<()> {
    let size = match (args.sessions, args.target_bytes) {
        (_, Some(bytes)) => Size::Bytes(bytes),
        (Some(count), None) => Size::Sessions(count),
        (None, None) => Size::Sessions(DEFAULT_SESSIONS),
    };
    let config = Config {
        seed: args.seed,
        size,
        shape: args.shape,
    };
    let dir = &args.out_dir;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    write_file(&dir.join("tools.json"), tools_json().as_bytes())?;
    write_file(&dir.join("rules.json"), rules_json().as_bytes())?;
    write_file(&dir.join("rules-plain.json"), plain_rules_json().as_bytes())?;
    let sessions_path = dir.join("sessions.jsonl");
    let labels_path = dir.join("labels.jsonl");
    let mut sessions = BufWriter::with_capacity(1 << 20, create(&sessions_path)?);
    let mut labels = BufWriter::with_capacity(1 << 20, create(&labels_path)?);
    let stats = write_traces(&config, &mut sessions, &mut labels)
        .with_context(|| format!("writing {}", sessions_path.display()))?;
    sessions
        .flush()
        .with_context(|| format!("writing {}", sessions_path.display()))?;
    labels
        .flush()
        .with_context(|| format!("writing {}", labels_path.display()))?;
    eprintln!(
        "toolscope-gen: seed {}: {} sessions ({:.1} MB), {} labels ({:.1} MB) in {}",
        config.seed,
        stats.sessions,
        stats.session_bytes as f64 / 1e6,
        stats.labels,
        stats.label_bytes as f64 / 1e6,
        dir.display()
    );
    Ok(())
}

fn create(path: &Path) -> Result<File> {
    File::create(path).with_context(|| format!("creating {}", path.display()))
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("writing {}", path.display()))
}

/// Reads the file whole (as toolscope does) and parses each non-blank line.
fn parse_baseline(path: &Path) -> Result<()> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let mut values = 0_u64;
    let mut errors = 0_u64;
    for line in bytes.split(|&b| b == b'\n') {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<serde_json::Value>(line) {
            Ok(value) => {
                values += 1;
                std::hint::black_box(value);
            }
            Err(_) => errors += 1,
        }
    }
    println!("{values} values, {errors} lines that are not JSON");
    Ok(())
}
