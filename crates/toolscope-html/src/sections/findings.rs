//! Findings: the recurring failure modes, most sessions first, each with the fix it needs, its
//! evidence and where it was seen.

use toolscope_core::findings::Finding;

use super::hint;
use crate::markup::Markup;

/// Findings written out; the report JSON has every one.
const MAX_FINDINGS: usize = 50;

/// The findings section.
pub(super) fn findings(markup: &mut Markup, findings: &[Finding]) {
    hint(
        markup,
        "Recurring failure modes across the sessions, most sessions first; each says what kind of \
         change fixes it.",
    );
    markup.element("ol", &[("class", "findings")], |markup| {
        for finding in findings.iter().take(MAX_FINDINGS) {
            markup.element("li", &[("class", "finding")], |markup| {
                markup.text_element("span", &[("class", "fix")], finding.fix.as_str());
                markup.text(" ");
                markup.text_element("strong", &[], &finding.title);
                markup.text_element("p", &[], &format!("Fix: {}", finding.fix_detail));
                if !finding.evidence.is_empty() {
                    markup.element("ul", &[], |markup| {
                        for line in &finding.evidence {
                            markup.text_element("li", &[], line);
                        }
                    });
                }
                let seen: Vec<String> = finding
                    .examples
                    .iter()
                    .map(|example| match (example.step, example.turn) {
                        (Some(step), _) => format!("{} call {step}", example.session_id),
                        (None, Some(turn)) => format!("{} turn {turn}", example.session_id),
                        (None, None) => example.session_id.clone(),
                    })
                    .collect();
                if !seen.is_empty() {
                    markup.text_element(
                        "p",
                        &[("class", "seen")],
                        &format!("Seen in: {}", seen.join(", ")),
                    );
                }
            });
        }
    });
    if findings.len() > MAX_FINDINGS {
        hint(
            markup,
            &format!(
                "The first {MAX_FINDINGS} of {} findings; the report JSON has every one.",
                findings.len()
            ),
        );
    }
}
