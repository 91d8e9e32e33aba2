//! `toolscope report --json` as a function: the same argument parsing, reading, engine and JSON
//! writer as the command, with the output returned instead of printed. This is what the Python
//! package's `toolscope_eval.report()` calls.

use std::ffi::OsString;

use toolscope_core::{Diagnostic, Severity};

use crate::cli::{try_parse_from, Command};
use crate::commands::outcome;
use crate::commands::report::{analyze, write_json};

/// What `toolscope report --json` prints, and the code it exits with.
#[derive(Debug, Clone)]
pub struct JsonReport {
    /// The report JSON, byte for byte what the command prints on stdout.
    pub json: String,
    /// Every input diagnostic (the command prints them on stderr), in the report's order.
    pub diagnostics: Vec<Diagnostic>,
    /// The command's exit code: 0 clean, 1 problems found, 2 input diagnostics of severity error.
    pub exit_code: u8,
}

impl JsonReport {
    /// The diagnostics that make the command exit with 2.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|diagnostic| diagnostic.severity == Severity::Error)
    }
}

/// Why no report was made: the two ways `toolscope report` exits with 2 before printing one.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The arguments are not a valid command line (clap's message, its quoted values escaped).
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written, with the path in the message.
    #[error("{0}")]
    Io(String),
}

/// Runs `toolscope report --json ARGS…` and returns what it prints and its exit code. `args` are
/// the arguments after `report --json`: input options (`--tools`, `--rules`, `--labels`,
/// `--format`, `--min-support`, …) and trace files.
pub fn report_json<I, T>(args: I) -> Result<JsonReport, ReportError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let argv = ["toolscope", "report", "--json"]
        .into_iter()
        .map(OsString::from)
        .chain(args.into_iter().map(Into::into));
    let cli =
        try_parse_from(argv).map_err(|error| ReportError::Usage(error.render().to_string()))?;
    let Command::Report(report_args) = cli.command else {
        unreachable!("the command line starts with `report`")
    };
    let report = analyze(&report_args).map_err(|error| ReportError::Io(format!("{error:#}")))?;
    let has_problems = report.summary.problems > 0;
    let mut json = Vec::new();
    let diagnostics = write_json(report, &report_args, &mut json)
        .map_err(|error| ReportError::Io(error.to_string()))?;
    let has_input_errors = diagnostics
        .iter()
        .any(|diagnostic| diagnostic.severity == Severity::Error);
    Ok(JsonReport {
        // serde_json writes UTF-8 only.
        json: String::from_utf8(json).map_err(|error| ReportError::Io(error.to_string()))?,
        diagnostics,
        exit_code: outcome(has_input_errors, has_problems).exit_code(),
    })
}

#[cfg(test)]
mod tests {
    use super::{report_json, ReportError};

    const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures");

    #[test]
    fn problems_found_exit_1_and_the_json_is_the_report() {
        let output = report_json([
            format!("--tools={FIXTURES}/seed/tools.json"),
            format!("{FIXTURES}/seed/calls.json"),
        ])
        .unwrap();
        assert_eq!(output.exit_code, 1);
        let report: serde_json::Value = serde_json::from_str(&output.json).unwrap();
        assert!(report["summary"]["problems"].as_u64().unwrap() > 0);
        assert!(output.json.ends_with("}\n"));
    }

    #[test]
    fn a_bad_argument_is_a_usage_error_naming_it() {
        let error = report_json(["--min-support", "many", "x.json"]).unwrap_err();
        assert!(
            matches!(&error, ReportError::Usage(message) if message.contains("many")),
            "{error:?}"
        );
    }

    #[test]
    fn a_missing_file_is_an_io_error_naming_it() {
        let error = report_json(["no-such-file.jsonl"]).unwrap_err();
        assert!(
            matches!(&error, ReportError::Io(message) if message.contains("no-such-file.jsonl")),
            "{error:?}"
        );
    }
}
