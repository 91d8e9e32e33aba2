//! Problems in the input itself (not in the agent's behaviour): a line that is not JSON, a label
//! for a session that does not exist, a NaN literal read as null. Each names the file and, where
//! it has one, the 1-based line and column, so the user can find it; the rest of the input still
//! loads.

use serde::{Deserialize, Serialize};

/// How serious an input problem is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something was read, but not exactly as written (a NaN literal read as null, say).
    Warning,
    /// Something could not be read and was left out (a line that is not JSON, say).
    Error,
}

/// One problem with the input, located as precisely as the input allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The input file's name as the user gave it.
    pub file: String,
    /// 1-based line in the file, where the problem has one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<usize>,
    /// 1-based column (in characters) on that line, where known.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub column: Option<usize>,
    /// Whether the input was read with a change (warning) or left out (error).
    pub severity: Severity,
    /// What is wrong, in words a user can act on.
    pub message: String,
}

impl Diagnostic {
    /// An error at a line of a file.
    pub fn error(file: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            file: file.to_string(),
            line,
            column: None,
            severity: Severity::Error,
            message: message.into(),
        }
    }

    /// A warning at a line of a file.
    pub fn warning(file: &str, line: Option<usize>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(file, line, message)
        }
    }

    /// The same diagnostic with a column.
    pub fn at_column(mut self, column: usize) -> Self {
        self.column = Some(column);
        self
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        let severity = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, ": {severity}: {}", self.message)
    }
}

/// `n` with its thousands separated by commas, as messages and the docs write numbers:
/// `1,000,000`.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod grouped_tests {
    use super::grouped;

    #[test]
    fn thousands_are_separated_by_commas() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(60_000), "60,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
    }
}
