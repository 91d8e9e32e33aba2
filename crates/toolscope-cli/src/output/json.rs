//! The report as JSON on stdout.

use std::io::{BufWriter, Write};

use anyhow::Result;
use toolscope_core::Report;

/// Prints the report as pretty JSON.
pub fn print_json(report: &Report) -> Result<()> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    // As an io::Error, so that a closed stdout is recognised as a broken pipe.
    serde_json::to_writer_pretty(&mut out, report).map_err(std::io::Error::from)?;
    writeln!(out)?;
    out.flush()?;
    Ok(())
}
