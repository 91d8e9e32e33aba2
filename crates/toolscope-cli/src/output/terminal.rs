//! The one way text reaches standard output and standard error: a line at a time, escaped.
//!
//! Every line of text output (problems, per-tool rows, summaries, diagnostics, the final error)
//! is handed whole to [`Lines::line`], which writes it through [`terminal_safe`] and then ends it
//! with the only newline that is ours. Escaping whole lines rather than each interpolated field
//! is what makes a forgotten field impossible: a session id, a tool name inside a core message, a
//! file name in a diagnostic or a path in an error's cause is on some line, so it is escaped, and
//! nothing from the input can end a line or reach the terminal as a control. Our own wording has
//! no control characters, so the pass leaves it as it is and clean output stays byte-identical.
//!
//! A field that is padded or cut to a width (the seed's `{:14}` tool column, the confusion
//! matrix's 8 and 18 characters, the task table's session column) is escaped before it is
//! measured, so the width counts what is shown. [`terminal_safe`] is idempotent, so the line's
//! pass leaves such a field as it is.
//!
//! `clippy.toml` forbids `std::io::stdout` and `std::io::stderr` in this crate and `main.rs`
//! denies the print macros, so only this module (and the JSON writer, whose format escapes
//! control characters itself) can reach either stream.

use std::fmt::{Display, Write as _};
use std::io::{self, BufWriter, StderrLock, StdoutLock, Write};

use super::escape::terminal_safe;

/// A stream written one escaped line at a time; call [`Lines::flush`] when done so that a
/// failed write (a closed pipe) is reported, not dropped.
pub struct Lines<W: Write> {
    out: W,
    /// The line being formatted, kept to reuse its allocation.
    content: String,
}

/// Standard output, buffered: a report can be thousands of lines.
#[expect(
    clippy::disallowed_methods,
    reason = "the one place text output reaches stdout"
)]
pub fn stdout() -> Lines<BufWriter<StdoutLock<'static>>> {
    Lines::new(BufWriter::new(io::stdout().lock()))
}

/// Standard error, buffered like standard output: there can be a diagnostic per input line.
#[expect(
    clippy::disallowed_methods,
    reason = "the one place text output reaches stderr"
)]
pub fn stderr() -> Lines<BufWriter<StderrLock<'static>>> {
    Lines::new(BufWriter::new(io::stderr().lock()))
}

impl<W: Write> Lines<W> {
    /// Lines written to `out`.
    pub fn new(out: W) -> Self {
        Lines {
            out,
            content: String::new(),
        }
    }

    /// Writes `content` with everything from the input escaped, then a newline.
    pub fn line(&mut self, content: impl Display) -> io::Result<()> {
        self.content.clear();
        write!(self.content, "{content}").map_err(io::Error::other)?;
        self.out
            .write_all(terminal_safe(&self.content).as_bytes())?;
        self.out.write_all(b"\n")
    }

    /// Writes out what is buffered.
    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }

    /// The stream, for tests.
    #[cfg(test)]
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::Lines;

    fn written(contents: &[&str]) -> String {
        let mut lines = Lines::new(Vec::new());
        for content in contents {
            lines.line(content).unwrap();
        }
        String::from_utf8(lines.into_inner()).unwrap()
    }

    #[test]
    fn each_line_ends_with_our_newline_and_clean_text_is_unchanged() {
        assert_eq!(
            written(&["step 1: issue_refund called before lookup_order", ""]),
            "step 1: issue_refund called before lookup_order\n\n"
        );
    }

    #[test]
    fn a_newline_inside_a_line_cannot_start_another() {
        assert_eq!(
            written(&["s\nstep 99: forged: step 1: x"]),
            "s\\nstep 99: forged: step 1: x\n"
        );
    }

    #[test]
    fn controls_inside_a_formatted_line_are_escaped() {
        let mut lines = Lines::new(Vec::new());
        let session_id = "\u{1b}]0;pwned\u{7}";
        lines
            .line(format_args!("{session_id}: step 1: \u{202e}x"))
            .unwrap();
        assert_eq!(
            String::from_utf8(lines.into_inner()).unwrap(),
            "\\x1b]0;pwned\\x07: step 1: \\u{202e}x\n"
        );
    }
}
