//! The report as JSON on stdout.

use std::io::{BufWriter, Write};

use anyhow::Result;
use toolscope_core::Report;

/// Prints the report as pretty JSON.
pub fn print_json(report: &Report) -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    // io::Errors, so that a closed stdout is recognised as a broken pipe.
    report.write_json(&mut out)?;
    out.flush()?;
    Ok(())
}
