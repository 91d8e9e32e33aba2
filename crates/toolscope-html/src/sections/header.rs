//! The header: the title, the engine version, and each input file with its role, format and
//! what was read from it.

use toolscope_core::report::InputSummary;
use toolscope_core::{Report, Role};

use super::{table, text_cell};
use crate::format::count_of;
use crate::markup::Markup;

/// The header.
pub(super) fn header(markup: &mut Markup, report: &Report, title: &str) {
    markup.element("header", &[], |markup| {
        markup.text_element("h1", &[], title);
        markup.element("p", &[("class", "hint")], |markup| {
            markup.text_fmt(format_args!(
                "toolscope {}, from {}.",
                report.toolscope_version,
                count_of(report.inputs.len() as u64, "input file", "input files")
            ));
        });
        if report.inputs.is_empty() {
            return;
        }
        let columns = [
            ("File", false),
            ("Role", false),
            ("Format", false),
            ("Read", false),
        ];
        table(markup, &columns, |markup| {
            for input in &report.inputs {
                input_row(markup, input);
            }
        });
    });
}

fn input_row(markup: &mut Markup, input: &InputSummary) {
    markup.element("tr", &[], |markup| {
        markup.element("td", &[], |markup| {
            markup.text_element("code", &[], &input.file);
        });
        text_cell(markup, role_name(input.role));
        markup.element("td", &[], |markup| {
            if let Some(format) = input.format {
                markup.text(format.name());
            }
            if let Some(reason) = &input.reason {
                markup.text_element("small", &[("class", "reason")], reason);
            }
        });
        text_cell(markup, &counts(input));
    });
}

/// "sessions: 6, task labels: 2", by name as the report orders them; "nothing" when empty.
fn counts(input: &InputSummary) -> String {
    if input.counts.is_empty() {
        return "nothing".to_string();
    }
    input
        .counts
        .iter()
        .map(|(what, count)| format!("{what}: {count}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The role's name as in the report JSON.
fn role_name(role: Role) -> &'static str {
    role.as_str()
}
