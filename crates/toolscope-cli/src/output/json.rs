//! The report as JSON on stdout.

use std::io::{BufWriter, Write};

use anyhow::Result;
use toolscope_core::Report;

/// Prints the report as pretty JSON, unescaped by `terminal`: JSON writes every C0 control as an
/// escape itself, and the bytes must stay those the page writes for the same report.
pub fn print_json(report: &Report) -> Result<()> {
    print_json_with(|out| report.write_json(out))
}

/// Prints what `write` writes, unescaped like [`print_json`]: for the JSON writers shared with
/// the library (`report_json`), which must give the same bytes.
#[expect(
    clippy::disallowed_methods,
    reason = "JSON escapes control characters itself; its bytes must equal the page's"
)]
pub fn print_json_with<T>(write: impl FnOnce(&mut dyn Write) -> std::io::Result<T>) -> Result<T> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    // io::Errors, so that a closed stdout is recognised as a broken pipe.
    let value = write(&mut out)?;
    out.flush()?;
    Ok(value)
}

/// Prints any other JSON output (a comparison, a gate's result) as pretty JSON and a newline.
#[expect(
    clippy::disallowed_methods,
    reason = "JSON escapes control characters itself"
)]
pub fn print_json_value<T: serde::Serialize>(value: &T) -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer_pretty(&mut out, value)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
