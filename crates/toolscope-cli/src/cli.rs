//! The command line, declared with clap.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, StyledStr, TypedValueParser};
use clap::error::{ContextKind, ContextValue};
use clap::{Args, Parser, Subcommand, ValueEnum};
use toolscope_core::formats::TraceFormat;

use crate::output::escape::{is_escaped, terminal_safe};

/// Did your agent pick the right tool, call it right, and use what came back?
#[derive(Debug, Parser)]
#[command(name = "toolscope", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the code checks and print each problem in the seed's wording, one per line.
    Check(CheckArgs),
    /// Score tool selection against labels: per-tool precision, recall and support.
    Score(ScoreArgs),
    /// Print the whole report.
    Report(ReportArgs),
    /// Print a link that opens the report in the page: the inputs in the link, or sealed in a
    /// file you host (--encrypt).
    Share(ShareArgs),
    /// Write a folder for any static host: the page's built files (scripts/build-site writes
    /// them to dist/), the inputs and a manifest that opens them.
    Bundle(BundleArgs),
}

/// The command line, or the end of the process with clap's message when it is not a valid one.
///
/// clap quotes the offending argument in its message (`unexpected argument '…' found`), and an
/// argument can be a file name a shell glob expanded, so the quoted text is escaped like any
/// other input; the rest of the message, colours included, is clap's.
pub fn parse() -> Cli {
    Cli::try_parse().unwrap_or_else(|error| with_escaped_context(error).exit())
}

/// The error with every quoted value in its context made terminal-safe.
fn with_escaped_context(mut error: clap::Error) -> clap::Error {
    let escaped: Vec<(ContextKind, ContextValue)> = error
        .context()
        .filter_map(|(kind, value)| Some((kind, escaped_value(value)?)))
        .collect();
    for (kind, value) in escaped {
        error.insert(kind, value);
    }
    error
}

/// The value with its text escaped, or `None` when nothing in it needs escaping (so clap's
/// styling of a suggestion is kept).
fn escaped_value(value: &ContextValue) -> Option<ContextValue> {
    let needs_escaping = |text: &str| text.chars().any(is_escaped);
    let escape = |text: &str| terminal_safe(text).into_owned();
    match value {
        ContextValue::String(text) if needs_escaping(text) => {
            Some(ContextValue::String(escape(text)))
        }
        ContextValue::Strings(texts) if texts.iter().any(|text| needs_escaping(text)) => Some(
            ContextValue::Strings(texts.iter().map(|text| escape(text)).collect()),
        ),
        ContextValue::StyledStr(text) if needs_escaping(&text.to_string()) => Some(
            ContextValue::StyledStr(StyledStr::from(escape(&text.to_string()))),
        ),
        ContextValue::StyledStrs(texts)
            if texts.iter().any(|text| needs_escaping(&text.to_string())) =>
        {
            Some(ContextValue::StyledStrs(
                texts
                    .iter()
                    .map(|text| StyledStr::from(escape(&text.to_string())))
                    .collect(),
            ))
        }
        _ => None,
    }
}

/// Inputs every command reads.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Tool catalog(s): the schemas calls are checked against (default: the tools each session carries).
    #[arg(long = "tools", value_name = "FILE")]
    pub tools: Vec<PathBuf>,
    /// Ordering rules: {"must_come_after": {tool: [earlier, ...]}}.
    #[arg(long = "rules", value_name = "FILE")]
    pub rules: Vec<PathBuf>,
    /// Read every trace file as this format instead of detecting it from the content.
    #[arg(long, value_name = "FORMAT", value_parser = trace_format_parser())]
    pub format: Option<TraceFormat>,
    /// Trace files (any format in docs/formats.md, detected from the content); - reads stdin.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

/// Options of the selection metrics.
#[derive(Debug, Args)]
pub struct MetricArgs {
    /// Label files: JSON Lines of {"session_id", "turn"?, "expected_tool", ...}.
    #[arg(long = "labels", value_name = "FILE")]
    pub labels: Vec<PathBuf>,
    /// Flag tools with fewer labelled turns than this as too few to trust.
    #[arg(long, value_name = "N", default_value_t = toolscope_core::metrics::selection::DEFAULT_MIN_SUPPORT)]
    pub min_support: u64,
    /// How labelled arguments are compared for the per-turn score.
    #[arg(long, value_enum, default_value_t = ArgsMatch::Exact)]
    pub args_match: ArgsMatch,
    /// A judge's verdicts (JSON Lines, as `toolscope judge --out` writes them): the report's `judge`.
    #[arg(long = "verdicts", value_name = "FILE")]
    pub verdicts: Vec<PathBuf>,
    /// Human verdicts ({"session_id", "step", "criterion", "verdict"}) to calibrate the judge against.
    #[arg(long = "human-verdicts", value_name = "FILE")]
    pub human_verdicts: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
}

#[derive(Debug, Args)]
pub struct ScoreArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// Also print the confusion matrix (expected rows, actual columns).
    #[arg(long)]
    pub confusion: bool,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// Print the report as JSON (documented in docs/report-json.md).
    #[arg(long)]
    pub json: bool,
    /// Also write the report as one self-contained HTML file (no script, charts inline) to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// The HTML report's title (default: "toolscope report").
    #[arg(long, value_name = "TEXT", requires = "html")]
    pub title: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "The link opens the same report `toolscope report` prints for the same \
arguments. Links past 60,000 characters are refused: use --encrypt --out FILE or `toolscope bundle`."
)]
pub struct ShareArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// The address of a toolscope page the link starts with (default: print only the part from #
    /// on, to append to one).
    #[arg(long, value_name = "URL")]
    pub page: Option<String>,
    /// Seal the inputs in a file (AES-256-GCM under a fresh key) to host anywhere; the link
    /// carries its address and the key.
    #[arg(long, requires = "out")]
    pub encrypt: bool,
    /// Where --encrypt writes the sealed file (by convention FILE.tsenc).
    #[arg(long, value_name = "FILE", requires = "encrypt")]
    pub out: Option<PathBuf>,
    /// Where the sealed file will be hosted (https, readable by anyone with the link); without
    /// it the link says WHERE-YOU-HOST-IT, to replace.
    #[arg(long, value_name = "URL", requires = "encrypt")]
    pub url: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "The page's files come from scripts/build-site, which builds them into \
dist/: run it once, then pass --page-dir dist (or set TOOLSCOPE_PAGE_DIR)."
)]
pub struct BundleArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// The folder to write (it must be empty or not exist, unless --force).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The page's built files, as scripts/build-site writes them to dist/.
    #[arg(long, value_name = "DIR", env = "TOOLSCOPE_PAGE_DIR")]
    pub page_dir: Option<PathBuf>,
    /// What the report is about, shown above it.
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// Where the folder will be served from, to print the link that opens it.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Write into a folder that is not empty, replacing only the files the bundle writes.
    #[arg(long)]
    pub force: bool,
}

/// How labelled arguments are compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ArgsMatch {
    /// The same JSON value.
    Exact,
    /// Every labelled key present with an equal value.
    Subset,
}

/// `--format`: one of the engine's format names.
fn trace_format_parser() -> impl TypedValueParser<Value = TraceFormat> {
    PossibleValuesParser::new(TraceFormat::ALL.map(TraceFormat::name))
        .map(|name| TraceFormat::from_name(&name).expect("clap only passes listed names"))
}
