//! The report as JSON on stdout.

use std::io::{BufWriter, Write};

use anyhow::Result;
use toolscope_core::Report;

/// Prints the report as pretty JSON, unescaped by `terminal`: JSON writes every C0 control as an
/// escape itself, and the bytes must stay those the page writes for the same report.
#[expect(
    clippy::disallowed_methods,
    reason = "JSON escapes control characters itself; its bytes must equal the page's"
)]
pub fn print_json(report: &Report) -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    // io::Errors, so that a closed stdout is recognised as a broken pipe.
    report.write_json(&mut out)?;
    out.flush()?;
    Ok(())
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
