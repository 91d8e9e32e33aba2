//! The gate's result as Markdown for a pull request or `$GITHUB_STEP_SUMMARY`: failures first,
//! every name from the traces escaped so it renders as text, and never larger than GitHub takes.

use super::{Check, GateResult, Status};
use crate::findings::Finding;
use crate::shown::{needs_escape, push_visible_escape};

/// GitHub's limit on a step summary is 1 MiB; stay under it with room for the rest of a job's.
pub const MAX_MARKDOWN_BYTES: usize = 1_000_000;

/// Findings listed under the checks.
pub const FINDINGS_SHOWN: usize = 5;

/// The Markdown: a heading with the outcome, a link to the full report when given, a table of
/// the checks (failed, then passed, then skipped), then the run's top findings with their fixes;
/// cut with a note past `MAX_MARKDOWN_BYTES`.
pub fn markdown(result: &GateResult, report_url: Option<&str>, findings: &[Finding]) -> String {
    let failed = result.failed();
    let mut out = String::new();
    if result.passed {
        out.push_str(&format!(
            "## toolscope gate: passed ({} checks)\n\n",
            result.checks.len()
        ));
    } else {
        out.push_str(&format!(
            "## toolscope gate: failed ({failed} of {} checks)\n\n",
            result.checks.len()
        ));
    }
    if let Some(url) = report_url {
        out.push_str(&format!("[The full report]({})\n\n", link_target(url)));
    }
    out.push_str("| | Rule | Metric | Agent | Result |\n|---|---|---|---|---|\n");
    let mut rows: Vec<&Check> = result.checks.iter().collect();
    crate::sort::sort_by_key(&mut rows, |check| match check.status {
        Status::Fail => 0,
        Status::Pass => 1,
        Status::Skipped => 2,
    });
    let note_room = 200;
    for (shown, check) in rows.iter().enumerate() {
        let row = format!(
            "| {} | {} | {} | {} | {} |\n",
            match check.status {
                Status::Pass => "✅",
                Status::Fail => "❌",
                Status::Skipped => "⏭️",
            },
            escape(&check.rule),
            escape(&check.metric),
            escape(check.agent.as_deref().unwrap_or("")),
            escape(&check.message),
        );
        if out.len() + row.len() + note_room > MAX_MARKDOWN_BYTES {
            out.push_str(&format!(
                "\n{} more checks are not shown here (the gate's JSON has every one).\n",
                rows.len() - shown
            ));
            return out;
        }
        out.push_str(&row);
    }
    if !findings.is_empty() {
        let mut section = format!(
            "\n### What to fix first ({} findings, most sessions first)\n\n",
            findings.len()
        );
        for (rank, finding) in findings.iter().take(FINDINGS_SHOWN).enumerate() {
            section.push_str(&format!(
                "{}. **{}**: {} — {}\n",
                rank + 1,
                finding.fix.as_str(),
                escape(&finding.title),
                escape(&finding.fix_detail)
            ));
        }
        if out.len() + section.len() <= MAX_MARKDOWN_BYTES {
            out.push_str(&section);
        }
    }
    out
}

/// Text made inert in Markdown and in GitHub's HTML: every punctuation character Markdown acts
/// on is backslash-escaped, `<`, `>` and `&` become entities, and every character unsafe to show
/// (line breaks, controls, bidirectional overrides and marks: [`crate::shown`]) is written as
/// its visible escape, as the CLI writes it (`\n`, `\x1b`, `\u{202e}`), so a table row stays
/// one line and a name cannot make a comment read backwards.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if needs_escape(c) {
            let mut shown = String::new();
            push_visible_escape(&mut shown, c);
            shown.chars().for_each(|e| push_inert(&mut out, e));
        } else {
            push_inert(&mut out, c);
        }
    }
    out
}

/// One character, inert in Markdown.
fn push_inert(out: &mut String, c: char) {
    match c {
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '&' => out.push_str("&amp;"),
        '\\' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '#' | '|' | '!' | '~' | '{' | '}' => {
            out.push('\\');
            out.push(c);
        }
        c => out.push(c),
    }
}

/// A link target: only http(s) URLs, with the characters that would end the link escaped.
fn link_target(url: &str) -> String {
    let is_web = url.starts_with("https://") || url.starts_with("http://");
    if !is_web {
        return "#".into();
    }
    url.chars()
        .filter(|c| !c.is_control() && !c.is_whitespace())
        .map(|c| match c {
            '(' => "%28".to_string(),
            ')' => "%29".to_string(),
            '<' => "%3C".to_string(),
            '>' => "%3E".to_string(),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::metric::MetricValue;

    fn check(status: Status, metric: &str) -> Check {
        Check {
            rule: "per_tool.*.recall >= 0.8".into(),
            metric: metric.into(),
            agent: None,
            value: Some(MetricValue {
                value: Some(0.5),
                num: 1,
                den: 2,
                mean_over: None,
            }),
            baseline: None,
            status,
            message: "0.500 (1 of 2) < 0.8".into(),
        }
    }

    #[test]
    fn failures_come_first_and_trace_text_is_inert() {
        let result = GateResult {
            passed: false,
            checks: vec![
                check(Status::Pass, "per_tool.ok.recall"),
                check(
                    Status::Fail,
                    "per_tool.<img src=x onerror=alert(1)>|*x*.recall",
                ),
            ],
        };
        let text = markdown(&result, Some("https://example.org/r(1)"), &[]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "## toolscope gate: failed (1 of 2 checks)");
        assert_eq!(lines[2], "[The full report](https://example.org/r%281%29)");
        assert!(lines[6].starts_with("| ❌ |"), "{text}");
        assert!(
            lines[6].contains("per\\_tool.&lt;img src=x onerror=alert\\(1\\)&gt;\\|\\*x\\*.recall"),
            "{text}"
        );
        assert!(lines[7].starts_with("| ✅ |"));
        assert_eq!(
            markdown(&result, Some("javascript:alert(1)"), &[])
                .lines()
                .nth(2),
            Some("[The full report](#)")
        );
    }

    #[test]
    fn bidi_overrides_and_line_breaks_in_names_are_shown_escaped_not_raw() {
        let result = GateResult {
            passed: false,
            checks: vec![check(
                Status::Fail,
                "per_tool.lookup\u{202e}redro\u{2066}\u{200f}\n| forged |.recall",
            )],
        };
        let text = markdown(&result, None, &[]);
        assert!(
            !text.chars().any(|c| c != '\n' && needs_escape(c)),
            "{text:?}"
        );
        assert!(
            text.contains(
                "lookup\\\\u\\{202e\\}redro\\\\u\\{2066\\}\\\\u\\{200f\\}\\\\n\\| forged \\|"
            ),
            "{text}"
        );
    }

    #[test]
    fn a_huge_result_is_cut_under_githubs_limit_with_a_note() {
        let checks: Vec<Check> = (0..20_000)
            .map(|i| {
                check(
                    Status::Fail,
                    &format!("per_tool.{}.recall", "t".repeat(50) + &i.to_string()),
                )
            })
            .collect();
        let text = markdown(
            &GateResult {
                passed: false,
                checks,
            },
            None,
            &[],
        );
        assert!(text.len() <= MAX_MARKDOWN_BYTES);
        assert!(text
            .trim_end()
            .ends_with("more checks are not shown here (the gate's JSON has every one)."));
    }
}
