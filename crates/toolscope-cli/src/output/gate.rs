//! The gate's result as text (one line per check, then the outcome) and as JUnit XML.

use anyhow::Result;
use quick_xml::escape::escape;

use super::escape::terminal_safe;
use toolscope_core::gate::{GateResult, Status};

use super::terminal::stdout;

/// Prints one line per check (`PASS`/`FAIL`/`SKIP`, the rule, the metric when the rule does not
/// name it (a `*` rule), the agent, the message), then the outcome.
pub fn print_gate(result: &GateResult) -> Result<()> {
    let mut out = stdout();
    for check in &result.checks {
        let mut what = check.rule.clone();
        if !check.rule.contains(&check.metric) {
            what.push_str(&format!(" [{}]", check.metric));
        }
        if let Some(agent) = &check.agent {
            what.push_str(&format!(" [agent {agent}]"));
        }
        out.line(format_args!(
            "{}  {what}: {}",
            check.status.as_str(),
            check.message
        ))?;
    }
    let failed = result.failed();
    if result.passed {
        out.line(format_args!(
            "gate: passed ({} checks)",
            result.checks.len()
        ))?;
    } else {
        out.line(format_args!(
            "gate: failed ({failed} of {} checks)",
            result.checks.len()
        ))?;
    }
    out.flush()?;
    Ok(())
}

/// JUnit XML: one `<testsuite name="toolscope gate">`, one `<testcase>` per check (named by its
/// rule, metric and agent), a `<failure>` with the message for a failed one, `<skipped>` for a
/// skipped one. Text is XML-escaped; every character unsafe to show (controls, line breaks,
/// bidirectional overrides and marks: the core's one rule) is written as the CLI writes it
/// (`\x1b`, `\u{202e}`), and the two noncharacters XML 1.0 cannot hold are left out.
pub fn junit(result: &GateResult) -> String {
    let clean = |text: &str| -> String {
        let kept: String = text
            .chars()
            .filter(|&c| !matches!(c, '\u{FFFE}' | '\u{FFFF}'))
            .collect();
        escape(terminal_safe(&kept)).into_owned()
    };
    let skipped = result
        .checks
        .iter()
        .filter(|c| c.status == Status::Skipped)
        .count();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str(&format!(
        "<testsuites><testsuite name=\"toolscope gate\" tests=\"{}\" failures=\"{}\" skipped=\"{skipped}\">\n",
        result.checks.len(),
        result.failed(),
    ));
    for check in &result.checks {
        let mut name = format!("{} [{}]", check.rule, check.metric);
        if let Some(agent) = &check.agent {
            name.push_str(&format!(" [agent {agent}]"));
        }
        out.push_str(&format!(
            "  <testcase classname=\"toolscope.gate\" name=\"{}\">",
            clean(&name)
        ));
        match check.status {
            Status::Pass => {}
            Status::Fail => out.push_str(&format!(
                "<failure message=\"{0}\">{0}</failure>",
                clean(&check.message)
            )),
            Status::Skipped => {
                out.push_str(&format!("<skipped message=\"{}\"/>", clean(&check.message)))
            }
        }
        out.push_str("</testcase>\n");
    }
    out.push_str("</testsuite></testsuites>\n");
    out
}

#[cfg(test)]
mod tests {
    use toolscope_core::gate::{Check, GateResult, Status};
    use toolscope_core::shown::needs_escape;

    use super::junit;

    #[test]
    fn junit_shows_bidi_overrides_and_controls_in_names_escaped_not_raw() {
        let result = GateResult {
            passed: false,
            checks: vec![Check {
                rule: "per_tool.*.recall >= 0.8".into(),
                metric: "per_tool.lookup\u{202e}redro.recall".into(),
                agent: Some("agent\u{2067}\u{200e}\u{1b}[31m".into()),
                value: None,
                baseline: None,
                status: Status::Fail,
                message: "0.5 < 0.8 \u{202d}x\u{fffe}".into(),
            }],
        };
        let xml = junit(&result);
        assert!(
            !xml.chars().any(|c| c != '\n' && needs_escape(c)),
            "{xml:?}"
        );
        assert!(xml.contains("lookup\\u{202e}redro"), "{xml}");
        assert!(xml.contains("agent\\u{2067}\\u{200e}\\x1b[31m"), "{xml}");
        assert!(xml.contains("0.5 &lt; 0.8 \\u{202d}x<"), "{xml}");
    }
}
