//! The document, one module per section, and the pieces they share (tables, headline figures,
//! the notes that say how many rows a cap left out).

mod diagnostics;
mod drift;
mod findings;
mod header;
mod judge;
mod overview;
mod problems;
mod selection;
mod sessions;
mod tasks;
mod trials;

use toolscope_core::judge::in_report::JudgeReport;
use toolscope_core::metrics::selection::Selection;
use toolscope_core::metrics::task_actions::TaskActions;
use toolscope_core::metrics::trials::Trials;
use toolscope_core::Report;

use crate::markup::Markup;

/// The stylesheet, inlined: nothing may be loaded.
const STYLE: &str = include_str!("../style.css");

/// The Content Security Policy: scripts, plugins, frames, fonts, images from anywhere, forms and
/// base URLs are all refused; only the inline stylesheet (and `data:` images, though none is
/// used) may apply. Written as it reads, so that anyone can check it in the file.
const CONTENT_SECURITY_POLICY: &str = "<meta http-equiv=\"Content-Security-Policy\" \
     content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">";

/// Where the report JSON is, for the notes on capped lists.
const FULL_REPORT: &str = "the report JSON (toolscope report --json) has every one";

/// A section of the document; the ones the report has no data for are left out.
enum Section<'r> {
    Overview,
    Findings,
    Problems,
    Selection(&'r Selection),
    TaskActions(&'r TaskActions),
    Trials(&'r Trials),
    Judge(&'r JudgeReport),
    Drift,
    Diagnostics,
    Sessions,
}

impl Section<'_> {
    /// The sections the report has, in document order.
    fn of(report: &Report) -> Vec<Section<'_>> {
        let mut sections = vec![Section::Overview];
        if !report.findings.is_empty() {
            sections.push(Section::Findings);
        }
        sections.push(Section::Problems);
        sections.extend(report.selection.as_ref().map(Section::Selection));
        sections.extend(report.tasks.as_ref().map(Section::TaskActions));
        sections.extend(report.trials.as_ref().map(Section::Trials));
        sections.extend(report.judge.as_ref().map(Section::Judge));
        if !report.drift.is_empty() {
            sections.push(Section::Drift);
        }
        sections.extend([Section::Diagnostics, Section::Sessions]);
        sections
    }

    /// Its anchor.
    fn id(&self) -> &'static str {
        match self {
            Section::Overview => "overview",
            Section::Findings => "findings",
            Section::Problems => "problems",
            Section::Selection(_) => "selection",
            Section::TaskActions(_) => "task-actions",
            Section::Trials(_) => "trials",
            Section::Judge(_) => "judge",
            Section::Drift => "drift",
            Section::Diagnostics => "diagnostics",
            Section::Sessions => "sessions",
        }
    }

    /// Its heading.
    fn heading(&self) -> &'static str {
        match self {
            Section::Overview => "Overview",
            Section::Findings => "What to fix first",
            Section::Problems => "Problems",
            Section::Selection(_) => "Selection",
            Section::TaskActions(_) => "Task actions",
            Section::Trials(_) => "Repeated trials",
            Section::Judge(_) => "Judge",
            Section::Drift => "Schema drift",
            Section::Diagnostics => "Diagnostics",
            Section::Sessions => "Sessions",
        }
    }

    /// Writes its content under its heading.
    fn write(&self, markup: &mut Markup, report: &Report) {
        match self {
            Section::Overview => overview::overview(markup, report),
            Section::Findings => findings::findings(markup, &report.findings),
            Section::Problems => problems::problems(markup, report),
            Section::Selection(selection) => selection::selection(markup, selection),
            Section::TaskActions(tasks) => tasks::task_actions(markup, tasks),
            Section::Trials(found) => trials::trials(markup, found),
            Section::Judge(judge) => judge::judge(markup, judge),
            Section::Drift => drift::drift(markup, &report.drift),
            Section::Diagnostics => diagnostics::diagnostics(markup, &report.diagnostics),
            Section::Sessions => sessions::sessions(markup, &report.sessions),
        }
    }
}

/// The whole document.
pub(crate) fn document(markup: &mut Markup, report: &Report, title: &str) {
    markup.literal("<!doctype html>\n");
    markup.element("html", &[("lang", "en")], |markup| {
        markup.element("head", &[], |markup| {
            markup.void_element("meta", &[("charset", "utf-8")]);
            markup.literal(CONTENT_SECURITY_POLICY);
            markup.literal("\n");
            markup.void_element("meta", &[("name", "referrer"), ("content", "no-referrer")]);
            markup.void_element(
                "meta",
                &[
                    ("name", "viewport"),
                    ("content", "width=device-width, initial-scale=1"),
                ],
            );
            let generator = format!("toolscope {}", report.toolscope_version);
            markup.void_element("meta", &[("name", "generator"), ("content", &generator)]);
            markup.text_element("title", &[], title);
            markup.element("style", &[], |markup| markup.literal(STYLE));
        });
        markup.element("body", &[], |markup| body(markup, report, title));
    });
}

fn body(markup: &mut Markup, report: &Report, title: &str) {
    let sections = Section::of(report);
    header::header(markup, report, title);
    markup.element("nav", &[("aria-label", "Sections")], |markup| {
        markup.element("ul", &[], |markup| {
            for section in &sections {
                markup.element("li", &[], |markup| {
                    let href = format!("#{}", section.id());
                    markup.text_element("a", &[("href", &href)], section.heading());
                });
            }
        });
    });
    markup.element("main", &[], |markup| {
        for section in &sections {
            markup.element("section", &[("id", section.id())], |markup| {
                markup.text_element("h2", &[], section.heading());
                section.write(markup, report);
            });
        }
    });
    markup.element("footer", &[], |markup| {
        markup.text_fmt(format_args!(
            "Made by toolscope {}; the same report always gives this same file. Long lists are \
             cut where a note says so; {}.",
            report.toolscope_version, FULL_REPORT
        ));
    });
}

/// A column of a table: its heading and whether it holds numbers (right-aligned).
type Column = (&'static str, bool);

/// A table with a header row; `rows` writes the `<tr>`s.
fn table(markup: &mut Markup, columns: &[Column], rows: impl FnOnce(&mut Markup)) {
    markup.element("div", &[("class", "table-wrap")], |markup| {
        markup.element("table", &[], |markup| {
            markup.element("thead", &[], |markup| {
                markup.element("tr", &[], |markup| {
                    for (heading, is_number) in columns {
                        let attributes: &[_] = if *is_number {
                            &[("scope", "col"), ("class", "num")]
                        } else {
                            &[("scope", "col")]
                        };
                        markup.text_element("th", attributes, heading);
                    }
                });
            });
            markup.element("tbody", &[], rows);
        });
    });
}

/// A table cell holding text from the input or our own words.
fn text_cell(markup: &mut Markup, text: &str) {
    markup.text_element("td", &[], text);
}

/// A right-aligned table cell holding a number.
fn number_cell(markup: &mut Markup, number: impl std::fmt::Display) {
    markup.element("td", &[("class", "num")], |markup| {
        markup.text_fmt(format_args!("{number}"));
    });
}

/// A headline figure: what it is, its value and the counts behind it.
struct Figure {
    title: &'static str,
    value: String,
    detail: String,
}

impl Figure {
    fn new(title: &'static str, value: impl Into<String>, detail: impl Into<String>) -> Self {
        Figure {
            title,
            value: value.into(),
            detail: detail.into(),
        }
    }
}

/// Headline figures as a description list.
fn figures(markup: &mut Markup, figures: &[Figure]) {
    markup.element("dl", &[("class", "figures")], |markup| {
        for figure in figures {
            markup.element("div", &[], |markup| {
                markup.text_element("dt", &[], figure.title);
                markup.element("dd", &[], |markup| {
                    markup.text(&figure.value);
                    if !figure.detail.is_empty() {
                        markup.text_element("small", &[], &figure.detail);
                    }
                });
            });
        }
    });
}

/// A line of explanation under a heading.
fn hint(markup: &mut Markup, text: &str) {
    markup.text_element("p", &[("class", "hint")], text);
}

/// The note under a list cut at `shown` of `total` entries, nothing when none was cut:
/// "Showing the first 1000 of 1500 problems; the report JSON … has every one."
fn cap_note(markup: &mut Markup, shown: usize, total: usize, what: &str) {
    if total > shown {
        markup.element("p", &[("class", "cap-note")], |markup| {
            markup.text_fmt(format_args!(
                "Showing the first {shown} of {total} {what}; {} more are not listed here, and \
                 {FULL_REPORT}.",
                total - shown
            ));
        });
    }
}
