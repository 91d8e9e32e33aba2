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
    /// Open what was shared without a browser: a data link, a link to hosted files, a sealed
    /// .tsenc file or a bundle folder; every digest checked and sealed files decrypted as the
    /// page does, then the report printed as `report` prints it.
    Open(OpenArgs),
    /// Ask a model (with your key) four questions per tool call and write its verdicts as JSON
    /// Lines, for `toolscope report --verdicts`.
    Judge(JudgeArgs),
    /// Compare two runs metric by metric: is the current one worse than the baseline, and is
    /// the change real (paired tests, intervals, the cases that changed)?
    Diff(DiffArgs),
    /// Check a run against a config of thresholds (and a baseline run): each rule with its value
    /// and verdict, as text, Markdown, JUnit XML or JSON; exit 1 when one fails.
    Gate(GateArgs),
    /// Merge reports made on parts of a dataset (split by session) into the report of the
    /// whole, printed as `report --json` prints it.
    Merge(MergeArgs),
}

/// The command line, or the end of the process with clap's message when it is not a valid one.
///
/// clap quotes the offending argument in its message (`unexpected argument '…' found`), and an
/// argument can be a file name a shell glob expanded, so the quoted text is escaped like any
/// other input; the rest of the message, colours included, is clap's.
pub fn parse_from<I, T>(args: I) -> Cli
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    try_parse_from(args).unwrap_or_else(|error| error.exit())
}

/// The command line, or clap's error for it with every quoted value escaped.
#[expect(
    clippy::disallowed_methods,
    reason = "the one place clap parses; its error is escaped here"
)]
pub fn try_parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    Cli::try_parse_from(args).map_err(with_escaped_context)
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
    #[command(flatten)]
    pub options: TraceOptions,
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
    #[command(flatten)]
    pub output: ReportOutputArgs,
    /// With --html: name the inputs in the HTML report (and so in this run's output) by their
    /// paths as given (default: by their base names, so no local path such as /home/you/... is
    /// in a file you pass on).
    #[arg(long, requires = "html")]
    pub publish_paths: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "BASE and CURRENT are each a report JSON (`toolscope report --json`) \
or a trace file, analysed with the input options given here. Sessions are paired by id, and turns, \
calls and tasks within them. Exit codes: 0 no metric significantly worse, 1 at least one \
significantly worse, 2 usage or input error. docs/compare.md has the statistics."
)]
pub struct DiffArgs {
    /// The baseline run: a report JSON or a trace file.
    #[arg(value_name = "BASE")]
    pub base: PathBuf,
    /// The current run: a report JSON or a trace file.
    #[arg(value_name = "CURRENT")]
    pub current: PathBuf,
    #[command(flatten)]
    pub traces: TraceOptions,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// Print the comparison as JSON (docs/compare.md).
    #[arg(long)]
    pub json: bool,
    /// The bootstrap's seed (printed with the result, so it can be reproduced).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Bootstrap resamples (at most 100,000).
    #[arg(long, value_name = "N", default_value_t = 2_000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub resamples: u64,
    /// Fewest cases for a verdict; below it a metric says "too few cases".
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub min_cases: u64,
    /// The significance level.
    #[arg(long, value_name = "A", default_value_t = 0.05, value_parser = alpha_parser)]
    pub alpha: f64,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Each PART is the report JSON of one part (`toolscope report --json`, made \
with the same toolscope and options); no session may be in two parts. The merged report equals \
the report of the parts' data read as one file in the order given, `inputs` aside. Exit codes: 0 \
merged, 2 a part that cannot be read or merged. docs/merge.md has recipes for GNU parallel, \
Spark, Ray and Dask."
)]
pub struct MergeArgs {
    /// The parts' report JSON files, in the order of the data.
    #[arg(value_name = "PART", required = true)]
    pub parts: Vec<PathBuf>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "INPUT is one report JSON (`toolscope report --json`) or trace files \
analysed with the input options given here. A rule whose metric has no value fails. Exit codes: \
0 every rule passed, 1 a rule failed, 2 usage, config or input error. With $GITHUB_STEP_SUMMARY \
set, the Markdown is also appended to it. docs/gate.md has the config."
)]
pub struct GateArgs {
    /// The gate's config (TOML): rules = ["selection.tool_accuracy >= 0.90"], [[rule]], [[baseline]].
    #[arg(long, value_name = "FILE")]
    pub config: PathBuf,
    /// The baseline run for [[baseline]] rules: a report JSON or a trace file.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Also write the result as Markdown (for a pull request comment) to FILE.
    #[arg(long, value_name = "FILE")]
    pub markdown: Option<PathBuf>,
    /// Also write the result as JUnit XML (one test case per check) to FILE.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// A link to the full report, put at the top of the Markdown (http or https only).
    #[arg(long, value_name = "URL")]
    pub report_url: Option<String>,
    #[command(flatten)]
    pub traces: TraceOptions,
    #[command(flatten)]
    pub metrics: MetricArgs,
    /// The run: one report JSON, or trace files.
    #[arg(value_name = "INPUT", required = true)]
    pub inputs: Vec<PathBuf>,
}

/// How trace files are read: every command's, and `diff`'s and `gate`'s for runs given as
/// traces rather than report JSONs.
#[derive(Debug, Clone, Args)]
pub struct TraceOptions {
    /// Tool catalog(s): the schemas calls are checked against (default: the tools each session carries).
    #[arg(long = "tools", value_name = "FILE")]
    pub tools: Vec<PathBuf>,
    /// Ordering rules: {"must_come_after": {tool: [earlier, ...]}}.
    #[arg(long = "rules", value_name = "FILE")]
    pub rules: Vec<PathBuf>,
    /// Read every trace file as this format instead of detecting it from the content.
    #[arg(long, value_name = "FORMAT", value_parser = trace_format_parser())]
    pub format: Option<TraceFormat>,
}

impl TraceOptions {
    /// The input arguments that read `inputs` with these options.
    pub fn with_inputs(&self, inputs: Vec<PathBuf>) -> InputArgs {
        InputArgs {
            options: self.clone(),
            inputs,
        }
    }
}

fn alpha_parser(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(alpha) if alpha > 0.0 && alpha < 1.0 => Ok(alpha),
        _ => Err("the significance level must be a number between 0 and 1, e.g. 0.05".into()),
    }
}

#[derive(Debug, Args)]
#[command(
    after_help = "SOURCE is a link as `toolscope share`, `toolscope bundle` or the page make it \
(`https://host/page/#data=…`, `…#src=URL&key=…`, or only the part from # on), a sealed file (.tsenc) \
or a folder `toolscope bundle` wrote. Hosted files are fetched over https (http only on this \
machine) with no cookies or credentials, up to 512 MiB each; a redirect to another scheme is \
refused. The link is never printed: it can carry a key. Exit codes: 0 opened and no problem found, \
1 problems found, 2 a file could not be opened (a digest that does not match, a wrong or missing \
key, a download that failed) or usage error; what opened is still reported. docs/share.md."
)]
pub struct OpenArgs {
    /// A link, a sealed file (.tsenc) or a bundle folder.
    #[arg(value_name = "SOURCE")]
    pub source: String,
    /// The key of a sealed file: as a link writes it after `key=`, or a whole link that has one.
    /// A link's own key comes first. From the environment, it stays out of the shell's history
    /// and the process list.
    #[arg(
        long,
        value_name = "KEY",
        env = "TOOLSCOPE_SHARE_KEY",
        hide_env_values = true
    )]
    pub key: Option<String>,
    #[command(flatten)]
    pub output: ReportOutputArgs,
}

/// How a report is printed (`report`, `open`).
#[derive(Debug, Args)]
pub struct ReportOutputArgs {
    /// Print the report as JSON (documented in docs/report-json.md).
    #[arg(long)]
    pub json: bool,
    /// With --json: the summary report, every aggregate without the per-session, per-problem,
    /// per-turn, per-task and per-verdict lists, so it stays small whatever the input (a CI
    /// baseline; `diff` and `gate --baseline` compare it unpaired, from its totals).
    #[arg(long, requires = "json")]
    pub summary: bool,
    /// With --json: the JSON on one line, without indentation (the same value in about 60 % of
    /// the bytes, quicker to write and to read; for pipes and large reports).
    #[arg(long, requires = "json")]
    pub compact: bool,
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
    /// Name the inputs in what is shared by their paths as given (default: by their base
    /// names, so no local path such as /home/you/... is published).
    #[arg(long)]
    pub publish_paths: bool,
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
    /// Name the inputs in what is shared by their paths as given (default: by their base
    /// names, so no local path such as /home/you/... is published).
    #[arg(long)]
    pub publish_paths: bool,
}

#[derive(Debug, Args)]
#[command(
    after_help = "The key comes from ANTHROPIC_API_KEY, OPENAI_API_KEY or GEMINI_API_KEY \
(openai-compatible: OPENAI_API_KEY when set, else none), or from the variable --api-key-env \
names; it is sent in the provider's auth header and nowhere else. docs/judge.md has the prompt, \
the retries, the cache and the verdicts file."
)]
pub struct JudgeArgs {
    #[command(flatten)]
    pub inputs: InputArgs,
    /// Label files, read as `toolscope report` reads them (they do not change what is judged).
    #[arg(long = "labels", value_name = "FILE")]
    pub labels: Vec<PathBuf>,
    /// The model API to ask.
    #[arg(long, value_enum)]
    pub provider: JudgeProvider,
    /// The model's name as the API knows it (claude-sonnet-4-5, gpt-4o-mini, gemini-2.5-flash, ...).
    #[arg(long, value_name = "MODEL")]
    pub model: String,
    /// The API's base URL (required for openai-compatible, e.g. http://localhost:8000/v1).
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// The environment variable holding the key, instead of the provider's usual one.
    #[arg(long, value_name = "NAME")]
    pub api_key_env: Option<String>,
    /// Judge N calls drawn at random, stratified by tool (reproducible with --seed).
    #[arg(long, value_name = "N", conflicts_with = "only_problems")]
    pub sample: Option<usize>,
    /// The sample's seed: the same seed and inputs give the same calls.
    #[arg(long, value_name = "S", default_value_t = 0, requires = "sample")]
    pub seed: u64,
    /// Judge only the calls where a code check found a problem.
    #[arg(long)]
    pub only_problems: bool,
    /// Stop before the request that could take the spend past X dollars (needs a price).
    #[arg(long, value_name = "X")]
    pub budget_usd: Option<f64>,
    /// A price table (JSON, as docs/judge.md shows) to use instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub prices: Option<PathBuf>,
    /// Requests in flight at once.
    #[arg(long, value_name = "K", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// Seconds to wait for one answer before the attempt counts as timed out (1 to 86,400: a
    /// larger number would overflow the clock's deadline).
    #[arg(long = "timeout-s", value_name = "T", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub timeout_s: u64,
    /// Output tokens each answer may take.
    #[arg(long, value_name = "N", default_value_t = toolscope_core::judge::provider::DEFAULT_MAX_OUTPUT_TOKENS)]
    pub max_output_tokens: u32,
    /// Verdicts already paid for, by prompt: read before the run, appended to as calls are judged.
    #[arg(
        long,
        value_name = "FILE",
        default_value = ".toolscope-judge-cache.jsonl"
    )]
    pub cache: PathBuf,
    /// Neither read nor write the cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Where to write the verdicts (JSON Lines, one per call and criterion).
    #[arg(long, value_name = "FILE", required_unless_present = "estimate")]
    pub out: Option<PathBuf>,
    /// Print what the run would send and cost, and send nothing.
    #[arg(long)]
    pub estimate: bool,
    /// For tests: the first retry's delay in milliseconds (default 1000).
    #[arg(long, value_name = "MS", hide = true, default_value_t = 1_000)]
    pub retry_base_ms: u64,
}

/// `--provider`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum JudgeProvider {
    /// Anthropic's Messages API (key: ANTHROPIC_API_KEY).
    Anthropic,
    /// OpenAI's Chat Completions (key: OPENAI_API_KEY).
    Openai,
    /// Google's Gemini API (key: GEMINI_API_KEY).
    Gemini,
    /// A server speaking OpenAI's Chat Completions at --base-url (key: OPENAI_API_KEY if set).
    OpenaiCompatible,
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
