//! The document as a whole: its head, which sections appear for which report, the numbers in
//! them, the caps and their notes, and that the same report always gives the same bytes.

mod common;

use common::{assert_only_expected_markup, fixture_report, hostile_report, section, seed_report};
use toolscope_core::checks::problem::Problem;
use toolscope_core::metrics::selection::tool_row;
use toolscope_core::{analyze, Diagnostic, Options, Role};
use toolscope_html::{
    render, HtmlOptions, DEFAULT_TITLE, MAX_CHART_TOOLS, MAX_LIST_ROWS, MAX_PROBLEM_ROWS,
    MAX_SESSIONS, MAX_TOOL_ROWS,
};

fn html_of(report: &toolscope_core::Report) -> String {
    render(report, &HtmlOptions::default())
}

const CSP: &str = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; \
                   style-src 'unsafe-inline'; img-src data:\">";

#[test]
fn the_head_declares_utf8_and_a_policy_that_forbids_script_before_any_content() {
    let html = html_of(&seed_report());
    let head_end = html.find("</head>").unwrap();
    let charset = html.find("<meta charset=\"utf-8\">").unwrap();
    let policy = html.find(CSP).unwrap();
    let style = html.find("<style>").unwrap();
    assert!(charset < policy && policy < style && style < head_end);
    assert_eq!(html.matches("Content-Security-Policy").count(), 1);
    assert!(html.contains(&format!("<title>{DEFAULT_TITLE}</title>")));
    assert!(!html.contains("<script") && !html.contains("<link") && !html.contains("<img"));
}

#[test]
fn an_empty_report_renders_the_fixed_sections_and_says_there_is_nothing() {
    let report = analyze(&[], &Options::default());
    let html = html_of(&report);
    assert_only_expected_markup(&html);
    for id in ["overview", "problems", "diagnostics", "sessions"] {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
        assert!(html.contains(&format!("<a href=\"#{id}\">")), "{id}");
    }
    for id in ["selection", "task-actions", "drift"] {
        assert!(!html.contains(&format!("id=\"{id}\"")), "{id}");
        assert!(!html.contains(&format!("href=\"#{id}\"")), "{id}");
    }
    assert!(section(&html, "problems").contains("No problems found."));
    assert!(section(&html, "diagnostics").contains("Every record was read cleanly."));
    assert!(section(&html, "sessions").contains("No sessions were read."));
    assert!(section(&html, "overview").contains("n/a (0 of 0)"));
}

#[test]
fn selection_task_actions_and_drift_appear_only_when_the_report_has_them() {
    let seed = html_of(&seed_report());
    assert!(seed.contains("<section id=\"selection\">"));
    assert!(!seed.contains("id=\"task-actions\"") && !seed.contains("id=\"drift\""));

    let hostile = html_of(&hostile_report());
    for id in ["selection", "task-actions", "drift"] {
        assert!(hostile.contains(&format!("<section id=\"{id}\">")), "{id}");
    }

    let unlabelled = html_of(&fixture_report(&[("seed/calls.json", Role::Traces)]));
    assert!(!unlabelled.contains("id=\"selection\"") && !unlabelled.contains("<svg"));
}

#[test]
fn the_overview_gives_each_rate_with_its_counts() {
    let report = seed_report();
    let html = html_of(&report);
    let overview = section(&html, "overview");
    let summary = &report.summary;
    // 7 problems in 6 of the 7 calls (tests/fixtures/seed).
    assert_eq!((summary.calls_with_problems.count, summary.calls), (6, 7));
    assert!(overview.contains("<dt>Calls with problems</dt><dd>85.7 % (6 of 7)</dd>"));
    assert!(overview.contains("<dt>Tool calls</dt><dd>7<small>7 problems found</small>"));
    for usage in &report.tools {
        assert!(overview.contains(&format!(
            "<tr><td><code>{}</code></td><td class=\"num\">{}</td>",
            usage.tool, usage.calls
        )));
    }
}

#[test]
fn the_selection_has_both_charts_as_inline_svg_and_a_row_per_tool_with_its_numbers() {
    let report = seed_report();
    let html = html_of(&report);
    let selection = section(&html, "selection");
    for chart in ["heatmap", "precision-recall"] {
        let start = selection
            .find(&format!("data-chart=\"{chart}\""))
            .unwrap_or_else(|| panic!("no {chart}"));
        let figure = &selection[start..selection[start..].find("</figure>").unwrap() + start];
        assert!(
            figure.contains("><svg ") && figure.ends_with("</svg>"),
            "{chart}"
        );
    }
    let per_tool = &report.selection.as_ref().unwrap().per_tool;
    assert_eq!(per_tool.len(), 4);
    for row in per_tool {
        let decimal = |value: Option<f64>| value.map_or("–".to_string(), |v| format!("{v:.3}"));
        let expected = format!(
            "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td>",
            row.tp,
            row.fp,
            row.fn_,
            decimal(row.precision)
        );
        let start = selection
            .find(&format!("<tr data-tool=\"{}\"", row.tool))
            .unwrap_or_else(|| panic!("no row for {}", row.tool));
        let row_html = &selection[start..selection[start..].find("</tr>").unwrap() + start];
        assert!(row_html.contains(&expected), "{row_html}");
    }
    // search_docs: called 3 times, right once.
    assert!(selection.contains("<td class=\"num\">0.333</td><td class=\"num\">0.06–0.79</td>"));
}

#[test]
fn each_problem_is_listed_with_its_session_step_tool_kind_and_message() {
    let html = html_of(&seed_report());
    let problems = section(&html, "problems");
    assert!(problems.contains(
        "<tr><td><code>calls</code></td><td class=\"num\">1</td><td><code>issue_refund</code></td>\
         <td><code class=\"kind\">schema</code></td><td>issue_refund: -5 is less than or equal to the minimum \
         of 0 at <code>/amount</code></td></tr>"
    ));
    assert!(problems.contains(
        "<tr data-kind=\"unknown_tool\"><td><code class=\"kind\">unknown_tool</code></td>"
    ));
    assert!(problems.contains("<h3>Every problem (7)</h3>"));
}

#[test]
fn diagnostics_name_the_file_line_and_column() {
    let report = fixture_report(&[("bad/sessions.jsonl", Role::Traces)]);
    assert!(!report.diagnostics.is_empty());
    let html = html_of(&report);
    let diagnostics = section(&html, "diagnostics");
    assert!(diagnostics.contains(
        "<tr class=\"error\"><td><code>bad/sessions.jsonl:2:2</code></td><td>error</td>"
    ));
    assert!(diagnostics.contains("<td><code>bad/sessions.jsonl:5:127</code></td><td>warning</td>"));
}

#[test]
fn every_session_is_a_collapsible_line_with_its_counts() {
    let report = seed_report();
    let html = html_of(&report);
    let sessions = section(&html, "sessions");
    assert_eq!(sessions.matches("<details ").count(), report.sessions.len());
    assert!(sessions.contains(
        "<details class=\"session\" data-session=\"calls\"><summary><code>calls</code> — 2 calls, \
         3 problems, 0 tool errors</summary>"
    ));
    assert!(sessions.contains(
        "Problems by kind: <code class=\"kind\">unknown_tool</code> 1, <code class=\"kind\">schema</code> \
         1, <code class=\"kind\">order</code> 1"
    ));
}

#[test]
fn rendering_the_same_inputs_twice_gives_the_same_bytes() {
    let options = HtmlOptions {
        title: Some("nightly run".to_string()),
    };
    assert_eq!(
        render(&seed_report(), &options),
        render(&seed_report(), &options)
    );
    assert_eq!(html_of(&hostile_report()), html_of(&hostile_report()));
}

/// The page's worker hands the report over as JSON; the page must render what the CLI renders.
#[test]
fn a_report_read_back_from_its_json_renders_the_same_bytes() {
    for report in [seed_report(), hostile_report()] {
        let mut json = Vec::new();
        report.write_json(&mut json).unwrap();
        let read_back: toolscope_core::Report = serde_json::from_slice(&json).unwrap();
        assert_eq!(html_of(&read_back), html_of(&report));
    }
}

#[test]
fn the_title_option_names_the_document_and_its_heading() {
    let html = render(
        &seed_report(),
        &HtmlOptions {
            title: Some("Nightly <eval> & run".to_string()),
        },
    );
    assert!(html.contains("<title>Nightly &lt;eval&gt; &amp; run</title>"));
    assert!(html.contains("<h1>Nightly &lt;eval&gt; &amp; run</h1>"));
    assert!(!html.contains(&format!(">{DEFAULT_TITLE}<")));
}

#[test]
fn problems_past_the_cap_are_counted_in_a_note_not_dropped_silently() {
    let mut report = seed_report();
    let extra = MAX_PROBLEM_ROWS + 234 - report.problems.len();
    let template = report.problems[0].clone();
    report.problems.extend((0..extra).map(|index| Problem {
        session_id: format!("capped-{index}"),
        ..template.clone()
    }));
    let html = html_of(&report);
    let problems = section(&html, "problems");
    let shown = problems.matches("<tr><td><code>").count();
    assert_eq!(shown, MAX_PROBLEM_ROWS);
    assert!(problems.contains(&format!(
        "Showing the first {MAX_PROBLEM_ROWS} of {} problems; 234 more are not listed here",
        MAX_PROBLEM_ROWS + 234
    )));
}

#[test]
fn lists_at_their_cap_have_no_note() {
    let mut report = seed_report();
    let template = report.problems[0].clone();
    report.problems = vec![template; MAX_PROBLEM_ROWS];
    let html = html_of(&report);
    assert!(!html.contains("class=\"cap-note\""));
}

#[test]
fn sessions_past_the_cap_are_counted_in_a_note() {
    let mut report = seed_report();
    let template = report.sessions[0].clone();
    report.sessions = (0..MAX_SESSIONS + 5)
        .map(|index| toolscope_core::report::SessionSummary {
            session_id: format!("s{index}"),
            ..template.clone()
        })
        .collect();
    let html = html_of(&report);
    let sessions = section(&html, "sessions");
    assert_eq!(sessions.matches("<details ").count(), MAX_SESSIONS);
    assert!(sessions.contains(&format!(
        "Showing the first {MAX_SESSIONS} of {} sessions; 5 more",
        MAX_SESSIONS + 5
    )));
}

#[test]
fn tools_diagnostics_and_per_tool_rows_past_their_caps_are_counted_in_notes() {
    let mut report = seed_report();
    let usage = report.tools[0].clone();
    report.tools = (0..MAX_TOOL_ROWS + 1)
        .map(|index| toolscope_core::report::ToolUsage {
            tool: format!("tool_{index:04}"),
            ..usage.clone()
        })
        .collect();
    report.diagnostics = (0..MAX_LIST_ROWS + 2)
        .map(|line| Diagnostic::warning("traces.jsonl", Some(line + 1), "odd"))
        .collect();
    let selection = report.selection.as_mut().unwrap();
    selection.per_tool = (0..MAX_TOOL_ROWS + 3)
        .map(|index| tool_row(&format!("tool_{index:04}"), [1, 0, 0], 10))
        .collect();
    let html = html_of(&report);
    assert!(section(&html, "overview").contains(&format!(
        "Showing the first {MAX_TOOL_ROWS} of {} tools; 1 more",
        MAX_TOOL_ROWS + 1
    )));
    assert!(section(&html, "diagnostics").contains(&format!(
        "Showing the first {MAX_LIST_ROWS} of {} diagnostics; 2 more",
        MAX_LIST_ROWS + 2
    )));
    let selection = section(&html, "selection");
    assert_eq!(selection.matches("<tr data-tool=").count(), MAX_TOOL_ROWS);
    assert!(selection.contains(&format!(
        "Showing the first {MAX_TOOL_ROWS} of {} tools; 3 more",
        MAX_TOOL_ROWS + 3
    )));
}

#[test]
fn the_precision_recall_chart_draws_the_tools_with_the_most_support_and_says_so() {
    let mut report = seed_report();
    let selection = report.selection.as_mut().unwrap();
    // tool_00 has the least support, tool_39 the most.
    selection.per_tool = (0..MAX_CHART_TOOLS as u64 + 10)
        .map(|index| tool_row(&format!("tool_{index:02}"), [index + 1, 0, 1], 10))
        .collect();
    let html = html_of(&report);
    let selection = section(&html, "selection");
    let chart_start = selection.find("data-chart=\"precision-recall\"").unwrap();
    let chart =
        &selection[chart_start..selection[chart_start..].find("</figure>").unwrap() + chart_start];
    assert!(chart.contains("tool_39") && chart.contains("tool_10"));
    assert!(!chart.contains("tool_09") && !chart.contains("tool_00"));
    assert!(selection.contains(&format!(
        "The chart shows the {MAX_CHART_TOOLS} tools with the most labelled turns; the other 10 \
         are in the table below."
    )));
    assert_eq!(
        selection.matches("<tr data-tool=").count(),
        MAX_CHART_TOOLS + 10
    );
}

#[test]
fn every_fixture_report_is_well_formed_and_holds_only_expected_markup() {
    let reports = [
        seed_report(),
        hostile_report(),
        fixture_report(&[
            ("bad/sessions.jsonl", Role::Traces),
            ("bad/labels.jsonl", Role::Labels),
        ]),
        fixture_report(&[("native/support.jsonl", Role::Traces)]),
        analyze(&[], &Options::default()),
    ];
    for report in &reports {
        let html = html_of(report);
        let document = assert_only_expected_markup(&html);
        assert_eq!(document.style, include_str!("../src/style.css"));
    }
}
