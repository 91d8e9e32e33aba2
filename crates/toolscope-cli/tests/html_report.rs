//! `toolscope report --html FILE` on the real binary: the file it writes, what it holds next to
//! `report --json`, that it changes nothing else the command does, and that hostile names in the
//! input are text to a browser's tokenizer (Python's html.parser reads the file).

use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};

use assert_cmd::Command;
use serde_json::Value;

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

/// The seed's selection example with its catalog and rules: labels (so both charts), problems.
fn seed_arguments() -> Vec<String> {
    vec![
        "--tools".into(),
        fixture("seed/tools.json"),
        "--rules".into(),
        fixture("seed/rules.json"),
        "--labels".into(),
        fixture("seed/selection_labels.jsonl"),
        fixture("seed/selection_sessions.jsonl"),
        fixture("seed/calls.json"),
    ]
}

fn report(extra: &[&str], inputs: &[String]) -> Output {
    toolscope()
        .arg("report")
        .args(extra)
        .args(inputs)
        .output()
        .unwrap()
}

fn read_html(path: &Path) -> String {
    String::from_utf8(std::fs::read(path).expect("the HTML file was written")).unwrap()
}

/// The text of each `<td>` of a table row, tags removed.
fn cell_texts(row: &str) -> Vec<String> {
    row.split("<td")
        .skip(1)
        .map(|cell| {
            let content = &cell[cell.find('>').unwrap() + 1..];
            let mut text = String::new();
            let mut is_in_tag = false;
            for character in content.chars() {
                match character {
                    '<' => is_in_tag = true,
                    '>' => is_in_tag = false,
                    other if !is_in_tag => text.push(other),
                    _ => {}
                }
            }
            text
        })
        .collect()
}

#[test]
fn the_html_file_has_both_charts_and_each_tools_row_with_the_numbers_of_report_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.html");
    let output = report(
        &["--json", "--html", path.to_str().unwrap()],
        &seed_arguments(),
    );
    assert_eq!(output.status.code(), Some(1), "problems found");
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let html = read_html(&path);

    assert!(html.starts_with("<!doctype html>\n<html lang=\"en\">"));
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src \
         'unsafe-inline'; img-src data:\">"
    ));
    assert!(!html.contains("<script"));
    for chart in ["heatmap", "precision-recall"] {
        let start = html.find(&format!("data-chart=\"{chart}\"")).unwrap();
        let figure = &html[start..start + html[start..].find("</figure>").unwrap()];
        assert!(
            figure.contains("><svg width=") && figure.ends_with("</svg>"),
            "{chart}"
        );
    }

    let decimal = |value: &Value| {
        value
            .as_f64()
            .map_or("–".to_string(), |v| format!("{v:.3}"))
    };
    let rows = json["selection"]["per_tool"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for row in rows {
        let tool = row["tool"].as_str().unwrap();
        let start = html
            .find(&format!("<tr data-tool=\"{tool}\""))
            .unwrap_or_else(|| panic!("no row for {tool}"));
        let row_html = &html[start..start + html[start..].find("</tr>").unwrap()];
        let cells = cell_texts(row_html);
        assert_eq!(cells.len(), 10, "{row_html}");
        assert!(cells[0].starts_with(tool));
        let shown = [1, 2, 3, 4, 6, 8, 9].map(|column| cells[column].as_str());
        let expected = [
            row["tp"].to_string(),
            row["fp"].to_string(),
            row["fn"].to_string(),
            decimal(&row["precision"]),
            decimal(&row["recall"]),
            decimal(&row["f1"]),
            row["support"].to_string(),
        ];
        assert_eq!(shown, expected.each_ref().map(String::as_str), "{tool}");
    }
    // search_docs was called three times and right once: precision 1/3.
    let search = html.find("<tr data-tool=\"search_docs\"").unwrap();
    assert_eq!(
        cell_texts(&html[search..search + html[search..].find("</tr>").unwrap()])[4],
        "0.333"
    );
}

#[test]
fn writing_html_changes_neither_what_report_prints_nor_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.html");
    for format in [&[][..], &["--json"][..]] {
        let plain = report(format, &seed_arguments());
        let with_html = report(
            &[format, &["--html", path.to_str().unwrap()][..]].concat(),
            &seed_arguments(),
        );
        assert_eq!(with_html.stdout, plain.stdout, "{format:?}");
        assert_eq!(with_html.stderr, plain.stderr, "{format:?}");
        assert_eq!(with_html.status.code(), plain.status.code(), "{format:?}");
    }
    // Clean input: exit 0 with or without the file.
    let clean = report(
        &["--html", path.to_str().unwrap()],
        &[fixture("native/support.jsonl")],
    );
    assert_eq!(
        clean.status.code(),
        report(&[], &[fixture("native/support.jsonl")])
            .status
            .code()
    );
}

#[test]
fn the_same_inputs_give_the_same_bytes_and_an_existing_file_is_replaced_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (
        dir.path().join("first.html"),
        dir.path().join("second.html"),
    );
    std::fs::write(
        &second,
        "an older report that is longer than nothing at all",
    )
    .unwrap();
    for path in [&first, &second] {
        report(&["--html", path.to_str().unwrap()], &seed_arguments());
    }
    assert_eq!(
        std::fs::read(&first).unwrap(),
        std::fs::read(&second).unwrap()
    );
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 2, "a partial file was left behind: {names:?}");
}

#[test]
fn the_title_names_the_html_report_and_needs_html() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("report.html");
    report(
        &[
            "--html",
            path.to_str().unwrap(),
            "--title",
            "Nightly <eval>",
        ],
        &seed_arguments(),
    );
    assert!(read_html(&path).contains("<title>Nightly &lt;eval&gt;</title>"));

    let usage = report(&["--title", "Nightly"], &seed_arguments());
    assert_eq!(usage.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&usage.stderr).contains("--html <FILE>"));
}

#[test]
fn an_html_file_that_cannot_be_written_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("missing").join("report.html");
    let output = report(&["--html", path.to_str().unwrap()], &seed_arguments());
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("writing the HTML report to {}", path.display())),
        "{stderr}"
    );
    assert!(output.stdout.is_empty(), "nothing printed after the error");
}

/// What Python's html.parser makes of the document: `["start", tag, [[name, value], …]]`,
/// `["end", tag]`, `["startend", …]`, `["data", text]`, `["comment", …]`, `["decl", …]`, ….
fn python_events(html: &str) -> Vec<Value> {
    use std::io::Write;

    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/support/html_events.py");
    let interpreter = std::env::var("TOOLSCOPE_PYTHON").unwrap_or_else(|_| "python3".into());
    let mut child = Process::new(&interpreter)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!("could not run {interpreter} ({error}); set TOOLSCOPE_PYTHON to a Python 3")
        });
    child
        .stdin
        .take()
        .unwrap()
        .write_all(html.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "html_events.py failed");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The elements the report writes (plotters' SVG ones included), as html.parser names them.
const ELEMENTS: [&str; 43] = [
    "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "section", "footer",
    "h1", "h2", "h3", "p", "div", "span", "small", "code", "a", "ul", "ol", "li", "strong", "dl",
    "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "figure", "svg",
    "rect", "text", "circle", "line", "polyline", "polygon",
];

/// The attributes the report writes (plotters' SVG ones included), as html.parser names them.
const ATTRIBUTES: [&str; 40] = [
    "lang",
    "charset",
    "http-equiv",
    "content",
    "name",
    "href",
    "id",
    "class",
    "scope",
    "aria-label",
    "role",
    "data-kind",
    "data-tool",
    "data-chart",
    "data-session",
    "width",
    "height",
    "viewbox",
    "xmlns",
    "x",
    "y",
    "dy",
    "text-anchor",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "opacity",
    "fill",
    "stroke",
    "stroke-width",
    "points",
    "cx",
    "cy",
    "r",
    "transform",
    "x1",
    "y1",
    "x2",
    "y2",
];

#[test]
fn hostile_names_and_file_names_are_text_to_pythons_html_parser() {
    let dir = tempfile::tempdir().unwrap();
    let copy = |fixture_name: &str, name: &str| {
        let path = dir.path().join(name);
        std::fs::copy(fixture(&format!("hostile/{fixture_name}")), &path).unwrap();
        path.display().to_string()
    };
    // File names cannot hold a `/`; they hold the rest.
    let traces = copy(
        "markup.jsonl",
        "traces\"><img src=x onerror=alert(1)>.jsonl",
    );
    let tools = copy("markup_tools.json", "tools]]><!-- '.json");
    let inputs = [
        "--tools".to_string(),
        tools.clone(),
        "--labels".to_string(),
        copy("markup_labels.jsonl", "labels.jsonl"),
        traces.clone(),
    ];
    let path = dir.path().join("report.html");
    let output = report(&["--html", path.to_str().unwrap()], &inputs);
    assert_eq!(
        output.status.code(),
        Some(2),
        "the fixture has a line that is not JSON"
    );
    let html = read_html(&path);
    assert!(!html.contains("<script") && !html.contains("<img") && !html.contains("<!--"));

    let events = python_events(&html);
    let mut open: Vec<String> = Vec::new();
    let mut text = String::new();
    for event in &events {
        let kind = event[0].as_str().unwrap();
        match kind {
            "start" | "startend" => {
                let tag = event[1].as_str().unwrap();
                assert!(ELEMENTS.contains(&tag), "unexpected element <{tag}>");
                for attribute in event[2].as_array().unwrap() {
                    let name = attribute[0].as_str().unwrap();
                    assert!(
                        ATTRIBUTES.contains(&name),
                        "unexpected attribute {name} on <{tag}>"
                    );
                }
                if kind == "start" && tag != "meta" {
                    open.push(tag.to_string());
                }
            }
            "end" => {
                let tag = event[1].as_str().unwrap();
                assert_eq!(
                    open.pop().as_deref(),
                    Some(tag),
                    "</{tag}> closes another element"
                );
            }
            "data" => text.push_str(event[1].as_str().unwrap()),
            "decl" => assert_eq!(event[1], "doctype html"),
            other => panic!("unexpected {other}: {event}"),
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
    // The names reach the reader as the text they are.
    for name in [
        "lookup<script>alert(1)</script>",
        "refund\"><img src=x onerror=alert(1)>",
        "alpha</style><!--]]>",
        "cancel</style><!--]]>",
        // Published by their base names.
        "traces\"><img src=x onerror=alert(1)>.jsonl",
        "tools]]><!-- '.json",
    ] {
        assert!(text.contains(name), "{name} is not shown as text");
    }
}

#[test]
fn repeated_trials_get_a_section_with_the_reports_pass_hat_k() {
    let runs = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../toolscope-core/tests/fixtures/trials/gpt-4o-airline.subset12.json")
        .display()
        .to_string();
    let dir = tempfile::TempDir::new().unwrap();
    let path = dir.path().join("report.html");
    let output = report(&["--json", "--html", path.to_str().unwrap()], &[runs]);
    let json: Value = serde_json::from_slice(&output.stdout).unwrap();
    let html = read_html(&path);
    let section = &html[html
        .find("<section id=\"trials\">")
        .expect("a trials section")..];
    let section = &section[..section.find("</section>").unwrap()];
    assert!(section.contains("τ-bench&#39;s own figure divides every task by one trial count"));
    let table = &section[..section.find("</table>").unwrap()];
    let rows: Vec<Vec<String>> = table
        .split("<tr>")
        .skip(2)
        .map(|row| {
            cell_texts(row)
                .into_iter()
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    let trials = &json["trials"];
    for (row, hat) in rows.iter().zip(trials["pass_hat_k"].as_array().unwrap()) {
        let k = hat["k"].as_u64().unwrap() as usize;
        let at = &trials["pass_at_k"][k - 1];
        let tau = &trials["tau_bench_pass_hat_k"][k - 1];
        let three = |value: &Value| format!("{:.3}", value.as_f64().unwrap());
        assert_eq!(
            row,
            &[
                k.to_string(),
                three(&hat["value"]),
                three(&at["value"]),
                hat["tasks"].to_string(),
                three(&tau["value"])
            ],
        );
    }
    assert_eq!(rows.len(), 2);
}

#[test]
fn an_html_report_names_its_inputs_by_base_name_not_the_authors_path() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("alice-private-work");
    std::fs::create_dir_all(&folder).unwrap();
    // A session and a line that is not JSON: the file is named by the inputs, the sessions'
    // origins and a diagnostic.
    let traces = folder.join("run.jsonl");
    std::fs::write(
        &traces,
        "{\"session_id\": \"s1\", \"events\": [{\"type\": \"tool_use\", \"call_id\": \"c1\", \"name\": \"x\", \"args\": {}}]}\nnot json\n",
    )
    .unwrap();
    let html = dir.path().join("report.html");
    let given = [traces.display().to_string()];
    let output = report(&["--json", "--html", html.to_str().unwrap()], &given);
    assert_eq!(
        output.status.code(),
        Some(2),
        "the bad line is an input error"
    );
    let shown = read_html(&html);
    assert!(
        !shown.contains("alice-private-work"),
        "the path is in the HTML"
    );
    assert!(shown.contains("run.jsonl"));
    // What the command prints keeps the name as given.
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.contains(&given[0]), "{printed}");
    assert_eq!(
        output.stdout,
        report(&["--json"], &given).stdout,
        "--html changes nothing printed"
    );

    let kept = report(
        &["--html", html.to_str().unwrap(), "--publish-paths"],
        &given,
    );
    assert_eq!(kept.status.code(), Some(2));
    assert!(read_html(&html).contains("alice-private-work"));
}
