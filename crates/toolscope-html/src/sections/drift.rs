//! Schema drift: where the tools the agent saw differ from the catalog file, up to
//! [`MAX_LIST_ROWS`] differences.

use toolscope_core::drift::{DriftItem, DriftKind};

use super::{cap_note, hint, number_cell, table};
use crate::markup::Markup;
use crate::MAX_LIST_ROWS;

/// The schema drift section; only written when there is drift.
pub(super) fn drift(markup: &mut Markup, drift: &[DriftItem]) {
    hint(
        markup,
        "Where the tools the agent saw differ from the catalog file, checking against the \
         catalog can give false failures.",
    );
    let columns = [
        ("Tool", false),
        ("Kind", false),
        ("Difference", false),
        ("Sessions", true),
        ("For example", false),
    ];
    table(markup, &columns, |markup| {
        for item in drift.iter().take(MAX_LIST_ROWS) {
            markup.element("tr", &[], |markup| {
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &item.tool);
                });
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[("class", "kind")], kind_name(item.kind));
                });
                markup.text_element("td", &[], &item.detail);
                number_cell(markup, item.sessions);
                markup.element("td", &[], |markup| {
                    markup.text_element("code", &[], &item.example_session);
                });
            });
        }
    });
    cap_note(markup, MAX_LIST_ROWS, drift.len(), "differences");
}

/// The kind's name as in the report JSON.
fn kind_name(kind: DriftKind) -> &'static str {
    match kind {
        DriftKind::ToolAdded => "tool_added",
        DriftKind::ToolMissing => "tool_missing",
        DriftKind::PropertyAdded => "property_added",
        DriftKind::PropertyRemoved => "property_removed",
        DriftKind::PropertyRetyped => "property_retyped",
        DriftKind::RequiredChanged => "required_changed",
        DriftKind::DescriptionChanged => "description_changed",
    }
}
