//! Diagnostics: problems with the input files themselves (file, line, column, severity,
//! message), in the order the files were given, up to [`MAX_LIST_ROWS`].

use toolscope_core::{Diagnostic, Severity};

use super::{cap_note, table, text_cell};
use crate::format::count_of;
use crate::markup::Markup;
use crate::MAX_LIST_ROWS;

/// The diagnostics section.
pub(super) fn diagnostics(markup: &mut Markup, diagnostics: &[Diagnostic]) {
    if diagnostics.is_empty() {
        markup.text_element("p", &[], "Every record was read cleanly.");
        return;
    }
    let errors = diagnostics
        .iter()
        .filter(|diagnostic| diagnostic.severity == Severity::Error)
        .count();
    let warnings = diagnostics.len() - errors;
    markup.element("p", &[], |markup| {
        markup.text_fmt(format_args!(
            "{}: {} (left out), {} (read with a change).",
            count_of(diagnostics.len() as u64, "diagnostic", "diagnostics"),
            count_of(errors as u64, "error", "errors"),
            count_of(warnings as u64, "warning", "warnings"),
        ));
    });
    let columns = [("Where", false), ("Severity", false), ("Message", false)];
    table(markup, &columns, |markup| {
        for diagnostic in diagnostics.iter().take(MAX_LIST_ROWS) {
            let is_error = diagnostic.severity == Severity::Error;
            let attributes: &[_] = if is_error { &[("class", "error")] } else { &[] };
            markup.element("tr", attributes, |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &place(diagnostic));
                });
                text_cell(markup, if is_error { "error" } else { "warning" });
                text_cell(markup, &diagnostic.message);
            });
        }
    });
    cap_note(markup, MAX_LIST_ROWS, diagnostics.len(), "diagnostics");
}

/// "file:line:column", as far as the diagnostic knows.
fn place(diagnostic: &Diagnostic) -> String {
    match (diagnostic.line, diagnostic.column) {
        (Some(line), Some(column)) => format!("{}:{line}:{column}", diagnostic.file),
        (Some(line), None) => format!("{}:{line}", diagnostic.file),
        _ => diagnostic.file.clone(),
    }
}
