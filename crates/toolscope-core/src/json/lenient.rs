//! The slow path of [`super::parse_record`]: a record `serde_json` rejected.

use super::locate::{record_position, serde_offset};
use super::numbers::{warn_big_integers, warn_out_of_range};
use super::sanitise::{sanitise, Sanitised};
use super::{Record, MAX_DEPTH};
use crate::diagnostic::Diagnostic;
use serde::de::DeserializeOwned;
use serde_json::error::Category;

/// Reads a record `serde_json::from_str` failed on, if what failed can be read with a warning;
/// else the error, located in the file.
pub(crate) fn recover<T: DeserializeOwned>(
    file: &str,
    record: &Record<'_>,
    error: serde_json::Error,
    warnings: &mut Vec<Diagnostic>,
) -> Result<T, Diagnostic> {
    let scan = sanitise(record.text);
    let too_deep = scan.max_depth > MAX_DEPTH;
    let hit_depth_limit = is_recursion_limit(&error);
    let Some(fixed) = &scan.fixed else {
        // Nothing to sanitise: only a record that merely hit serde_json's depth limit (which
        // counts one level fewer than MAX_DEPTH) is worth parsing again.
        if hit_depth_limit && !too_deep {
            let value = parse_depth_checked(record.text)
                .map_err(|e| error_diagnostic(file, record, &e, record.text, None))?;
            warn_big_integers(file, record, warnings);
            return Ok(value);
        }
        if too_deep && hit_depth_limit {
            return Err(depth_diagnostic(file, record, &scan));
        }
        return Err(error_diagnostic(file, record, &error, record.text, None));
    };
    if too_deep {
        return Err(depth_diagnostic(file, record, &scan));
    }
    match parse_depth_checked::<T>(fixed) {
        Ok(value) => {
            push_fix_warnings(file, record, &scan, warnings);
            warn_big_integers(file, record, warnings);
            Ok(value)
        }
        Err(e) => Err(error_diagnostic(file, record, &e, fixed, Some(&scan))),
    }
}

/// `serde_json::from_str` without its own depth limit, for text whose depth was checked to be at
/// most [`MAX_DEPTH`] (so recursion stays bounded).
fn parse_depth_checked<T: DeserializeOwned>(text: &str) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    deserializer.disable_recursion_limit();
    let value = T::deserialize(&mut deserializer)?;
    deserializer.end()?;
    Ok(value)
}

fn is_recursion_limit(error: &serde_json::Error) -> bool {
    error.classify() == Category::Syntax
        && error.to_string().starts_with("recursion limit exceeded")
}

fn push_fix_warnings(
    file: &str,
    record: &Record<'_>,
    scan: &Sanitised,
    warnings: &mut Vec<Diagnostic>,
) {
    if let Some(&(offset, literal)) = scan.non_finite.first() {
        let count = scan.non_finite.len();
        let message = if count == 1 {
            format!("{literal} literal read as null")
        } else {
            format!(
                "{literal} literal read as null \
                 ({count} NaN/Infinity literals in this record, all read as null)"
            )
        };
        warnings.push(located_warning(file, record, offset, message));
    }
    if let Some(&offset) = scan.surrogates.first() {
        let escape = record.text.get(offset..offset + 6).unwrap_or("\\u????");
        let count = scan.surrogates.len();
        let message = if count == 1 {
            format!("lone surrogate {escape} replaced with U+FFFD")
        } else {
            format!(
                "lone surrogate {escape} replaced with U+FFFD \
                 ({count} lone surrogates in this record, all replaced)"
            )
        };
        warnings.push(located_warning(file, record, offset, message));
    }
    warn_out_of_range(file, record, &scan.out_of_range, warnings);
}

fn located_warning(file: &str, record: &Record<'_>, offset: usize, message: String) -> Diagnostic {
    let (line, column) = record_position(record, offset);
    Diagnostic::warning(file, Some(line), message).at_column(column)
}

fn depth_diagnostic(file: &str, record: &Record<'_>, scan: &Sanitised) -> Diagnostic {
    let (line, column) = record_position(record, scan.deep_at.unwrap_or(0));
    let message = format!(
        "nesting deeper than {MAX_DEPTH} levels (reaches depth {}); record left out",
        scan.max_depth
    );
    Diagnostic::error(file, Some(line), message).at_column(column)
}

/// `error`, from parsing `parsed` (the record's text, or its sanitised copy made by `fixes`), as
/// a diagnostic at the file line and column where it was found.
fn error_diagnostic(
    file: &str,
    record: &Record<'_>,
    error: &serde_json::Error,
    parsed: &str,
    fixes: Option<&Sanitised>,
) -> Diagnostic {
    let mut offset = serde_offset(parsed, error.line(), error.column()).unwrap_or(0);
    let mut message = readable(error);
    if let Some(fixes) = fixes {
        offset = fixes.original_offset(offset);
        if !fixes.non_finite.is_empty() {
            message.push_str(" (after reading NaN/Infinity as null)");
        } else if !fixes.surrogates.is_empty() {
            message.push_str(" (after replacing lone surrogates)");
        } else if !fixes.out_of_range.is_empty() {
            message
                .push_str(" (after reading numbers beyond the largest float as the largest float)");
        }
    }
    let (line, column) = record_position(record, offset);
    Diagnostic::error(file, Some(line), message).at_column(column)
}

/// `serde_json`'s message without its position, in words for a user.
fn readable(error: &serde_json::Error) -> String {
    let full = error.to_string();
    let suffix = format!(" at line {} column {}", error.line(), error.column());
    let bare = full.strip_suffix(suffix.as_str()).unwrap_or(&full);
    match error.classify() {
        Category::Data => format!("record does not have the expected form: {bare}"),
        Category::Eof => {
            let what = match bare {
                "EOF while parsing a value" => "the text ends where a value should be",
                "EOF while parsing an object" => {
                    "the text ends inside an object (a '}' is missing)"
                }
                "EOF while parsing a list" => "the text ends inside an array (a ']' is missing)",
                "EOF while parsing a string" => "the text ends inside a string (a '\"' is missing)",
                other => other,
            };
            format!("not JSON: {what}")
        }
        Category::Syntax | Category::Io if bare == "number out of range" => {
            "not JSON: number out of range (too large for a 64-bit float)".to_string()
        }
        Category::Syntax | Category::Io => format!("not JSON: {bare}"),
    }
}
