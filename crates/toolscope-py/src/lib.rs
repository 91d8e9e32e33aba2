//! `toolscope_eval._toolscope`: the native half of the Python package (the `toolscope-eval`
//! wheel). Three functions, all the CLI's own code (`toolscope-cli`'s library): [`run_cli`] is the
//! `toolscope` command, [`report_json`] is `toolscope report --json` returning its output, and
//! [`terminal_safe`] the CLI's escaping. The Python half (`python/toolscope_eval/`) turns their
//! results into a dict or an exception; nothing here decides what a report is.

use std::ffi::OsString;

use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use toolscope_cli::ReportError;

/// One input diagnostic as Python gets it: (file, line, column, severity, message).
type DiagnosticTuple = (String, Option<usize>, Option<usize>, &'static str, String);

/// Runs the `toolscope` command line on `argv` (program name first) and returns its exit code.
/// The engine runs without the GIL, so other Python threads go on meanwhile.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<OsString>) -> u8 {
    py.detach(|| toolscope_cli::run(argv))
}

/// `toolscope report --json ARGS…`: (exit code, report JSON, diagnostics). A command line clap
/// rejects raises ValueError, a file that cannot be read OSError, both with the CLI's message.
#[pyfunction]
fn report_json(
    py: Python<'_>,
    args: Vec<OsString>,
) -> PyResult<(u8, String, Vec<DiagnosticTuple>)> {
    let output = py.detach(|| toolscope_cli::report_json(args));
    match output {
        Ok(output) => {
            let diagnostics = output
                .diagnostics
                .into_iter()
                .map(|diagnostic| {
                    (
                        diagnostic.file,
                        diagnostic.line,
                        diagnostic.column,
                        severity_name(diagnostic.severity),
                        diagnostic.message,
                    )
                })
                .collect();
            Ok((output.exit_code, output.json, diagnostics))
        }
        Err(ReportError::Usage(message)) => Err(pyo3::exceptions::PyValueError::new_err(
            message.trim_end().to_string(),
        )),
        Err(ReportError::Io(message)) => Err(PyOSError::new_err(message)),
    }
}

/// The severity as the report JSON writes it.
fn severity_name(severity: toolscope_core::Severity) -> &'static str {
    match severity {
        toolscope_core::Severity::Error => "error",
        toolscope_core::Severity::Warning => "warning",
    }
}

/// Python's `toolscope_eval.terminal_safe`: text from a trace with every control and bidi character
/// shown as an escape, as the CLI writes it to a terminal.
#[pyfunction]
fn terminal_safe(text: &str) -> String {
    toolscope_cli::terminal_safe(text).into_owned()
}

#[pymodule]
fn _toolscope(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(run_cli, module)?)?;
    module.add_function(wrap_pyfunction!(report_json, module)?)?;
    module.add_function(wrap_pyfunction!(terminal_safe, module)?)?;
    module.add("VERSION", toolscope_core::VERSION)?;
    Ok(())
}
