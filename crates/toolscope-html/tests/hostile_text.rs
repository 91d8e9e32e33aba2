//! Text from the traces cannot become markup: names written as `<script>`, `"><img onerror>`,
//! `</style>`, `]]>` or `<!--` (tests/fixtures/hostile) show as text everywhere, in the tables and
//! inside the inline SVG, and any string whatever leaves the document's structure as it was.

mod common;

use common::{assert_only_expected_markup, hostile_report, read};
use proptest::prelude::*;
use serde_json::json;
use toolscope_core::{analyze, InputFile, Options, Role};
use toolscope_html::{render, HtmlOptions};

const SCRIPT: &str = "<script>alert(1)</script>";
const SCRIPT_SHOWN: &str = "&lt;script&gt;alert(1)&lt;/script&gt;";
const IMG: &str = "\"><img src=x onerror=alert(1)>";
const IMG_SHOWN: &str = "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;";
const BREAK_SHOWN: &str = "&lt;/style&gt;&lt;!--]]&gt;";

fn hostile_html() -> String {
    render(&hostile_report(), &HtmlOptions::default())
}

#[test]
fn the_hostile_fixture_renders_no_script_image_comment_or_event_handler() {
    let html = hostile_html();
    let document = assert_only_expected_markup(&html);
    for name in document.element_names() {
        assert!(!matches!(
            name,
            "script" | "img" | "iframe" | "object" | "embed"
        ));
    }
    assert!(!document
        .attribute_names()
        .any(|name| name.starts_with("on")));
    for raw in ["<script", "<img", "<svg onload", "<!--", "]]>", "</style><"] {
        assert!(!html.contains(raw), "{raw} is in the document");
    }
    // Nothing broke into or out of the stylesheet.
    assert_eq!(document.style, include_str!("../src/style.css"));
    assert_eq!(html.matches("</style>").count(), 1);
}

#[test]
fn hostile_names_show_escaped_in_each_section_and_in_both_charts() {
    let html = hostile_html();
    let sections = [
        ("overview", format!("<code>lookup{SCRIPT_SHOWN}</code>")),
        (
            "problems",
            format!("<td><code>alpha{BREAK_SHOWN}</code></td>"),
        ),
        (
            "problems",
            format!("unknown tool &#39;refund{IMG_SHOWN}&#39;"),
        ),
        ("selection", format!("<tr data-tool=\"refund{IMG_SHOWN}\"")),
        ("task-actions", format!("<code>task{IMG_SHOWN}</code>")),
        (
            "drift",
            "finds an order &lt;b&gt;fast&lt;/b&gt;".to_string(),
        ),
        (
            "diagnostics",
            format!("unknown event type &quot;{SCRIPT_SHOWN}&quot;"),
        ),
        ("sessions", format!("data-session=\"alpha{BREAK_SHOWN}\"")),
        (
            "sessions",
            format!("agent <code>agent{SCRIPT_SHOWN}</code>"),
        ),
    ];
    for (id, expected) in &sections {
        assert!(
            common::section(&html, id).contains(expected.as_str()),
            "{id}: {expected}"
        );
    }
    // plotters writes `'` as `&apos;` and cuts long labels; the names are still text.
    let document = read(&html);
    let svg_texts: Vec<&String> = document
        .texts
        .iter()
        .filter(|text| text.contains("lookup&lt;script&gt;") || text.contains("refund&quot;"))
        .collect();
    assert!(svg_texts.len() >= 4, "{svg_texts:?}");
    assert!(html.contains(&format!("cancel{BREAK_SHOWN}\n</text>")));
}

#[test]
fn controls_and_bidirectional_overrides_are_shown_as_escapes() {
    let html = hostile_html();
    assert!(html.contains("beta&#39;&gt;&lt;svg onload=alert(1)&gt;\\x1b[31m\\u{202e}"));
    assert!(!html.contains(['\u{1b}', '\u{202e}']));
}

#[test]
fn a_hostile_title_is_text() {
    let html = render(
        &hostile_report(),
        &HtmlOptions {
            title: Some(format!("</title>{SCRIPT}{IMG}")),
        },
    );
    assert_only_expected_markup(&html);
    assert!(html.contains(&format!(
        "<title>&lt;/title&gt;{SCRIPT_SHOWN}{IMG_SHOWN}</title>"
    )));
}

/// A report whose session id, agent id, tool names, label and file name are `text`.
fn report_naming_everything(text: &str) -> toolscope_core::Report {
    let session = json!({
        "session_id": format!("s{text}"), "agent_id": text, "task_id": text,
        "events": [
            {"type": "user", "content": text},
            {"type": "tool_use", "call_id": "c1", "name": format!("a{text}"), "args": {}},
            {"type": "tool_result", "call_id": "c1", "status": "error", "content": text},
            {"type": "assistant", "content": text},
            {"type": "tool_use", "call_id": "c2", "name": format!("b{text}"), "args": text},
            {"type": text},
        ]
    });
    let traces = format!("{session}\n{}\n", json!(text));
    let labels = [
        json!({"session_id": format!("s{text}"), "expected_tool": format!("c{text}")}),
        json!({"task_id": text, "expected_actions": [{"name": format!("d{text}"), "arguments": {}}]}),
    ]
    .map(|label| format!("{label}\n"))
    .concat();
    let catalog = json!({format!("a{text}"): {"type": "object", "description": text}}).to_string();
    let file_name = format!("traces{text}.jsonl");
    analyze(
        &[
            InputFile::new(
                &format!("tools{text}.json"),
                catalog.as_bytes(),
                Role::Catalog,
            ),
            InputFile::new(&file_name, traces.as_bytes(), Role::Traces),
            InputFile::new("labels.jsonl", labels.as_bytes(), Role::Labels),
        ],
        &Options::default(),
    )
}

/// Strings weighted towards what HTML, CSS, XML and terminals give meaning to.
fn hostile_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("<".to_string()),
        Just(">".to_string()),
        Just("&".to_string()),
        Just("\"".to_string()),
        Just("'".to_string()),
        Just("</style>".to_string()),
        Just("<script>".to_string()),
        Just("<!--".to_string()),
        Just("]]>".to_string()),
        Just("&lt;".to_string()),
        Just(" onload=x ".to_string()),
        (0u32..0x20).prop_map(|code| char::from_u32(code).unwrap().to_string()),
        (0x7fu32..0xa0).prop_map(|code| char::from_u32(code).unwrap().to_string()),
        Just("\u{202e}\u{2028}\u{fffe}".to_string()),
        any::<char>().prop_map(String::from),
        "[a-z]{1,3}",
    ];
    proptest::collection::vec(piece, 1..8).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_in_the_input_leaves_only_expected_markup(text in hostile_text()) {
        let html = render(&report_naming_everything(&text), &HtmlOptions { title: Some(text.clone()) });
        let document = assert_only_expected_markup(&html);
        prop_assert_eq!(document.style.as_str(), include_str!("../src/style.css"));
        let raw: Vec<char> = html
            .chars()
            .filter(|&c| (c.is_control() && c != '\n' && c != '\t') || c == '\u{202e}')
            .collect();
        prop_assert!(raw.is_empty(), "raw {:?}", raw);
    }
}
