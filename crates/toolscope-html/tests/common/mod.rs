//! Helpers shared by the integration tests: reports of the shared fixtures, and a strict reader
//! of the markup this crate writes, which fails on anything it does not expect.

#![allow(dead_code)] // Each test crate uses its own subset.

use std::path::PathBuf;

use toolscope_core::{analyze, InputFile, Options, Report, Role};

/// The report of files under the repository's `tests/fixtures/`, each with its role.
#[expect(
    clippy::disallowed_methods,
    reason = "the tests read the shared fixtures; the renderer itself does no I/O"
)]
pub fn fixture_report(files: &[(&str, Role)]) -> Report {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let loaded: Vec<(String, Vec<u8>, Role)> = files
        .iter()
        .map(|(path, role)| {
            let bytes = std::fs::read(root.join(path)).expect("the fixture exists");
            (path.to_string(), bytes, *role)
        })
        .collect();
    let inputs: Vec<InputFile<'_>> = loaded
        .iter()
        .map(|(name, bytes, role)| InputFile::new(name, bytes, *role))
        .collect();
    analyze(&inputs, &Options::default())
}

/// The seed's selection example with its catalog and rules: labels, problems, every tool.
pub fn seed_report() -> Report {
    fixture_report(&[
        ("seed/tools.json", Role::Catalog),
        ("seed/rules.json", Role::Rules),
        ("seed/selection_sessions.jsonl", Role::Traces),
        ("seed/calls.json", Role::Traces),
        ("seed/selection_labels.jsonl", Role::Labels),
    ])
}

/// Traces, labels and a catalog whose names, ids, messages and descriptions carry markup
/// (tests/fixtures/hostile/README.md).
pub fn hostile_report() -> Report {
    fixture_report(&[
        ("hostile/markup_tools.json", Role::Catalog),
        ("hostile/markup.jsonl", Role::Traces),
        ("hostile/markup_labels.jsonl", Role::Labels),
    ])
}

/// A tag as written in the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tag {
    /// `<name attribute="value" …>`, or `<name …/>` in SVG.
    Start {
        name: String,
        attributes: Vec<(String, String)>,
        is_self_closing: bool,
    },
    /// `</name>`.
    End { name: String },
}

/// The document read strictly as this crate writes it, or a panic saying where it is not.
#[derive(Debug)]
pub struct Document {
    /// Every tag, in order.
    pub tags: Vec<Tag>,
    /// The text inside `<style>`, as written.
    pub style: String,
    /// The text between tags (character references not decoded).
    pub texts: Vec<String>,
}

/// Elements without an end tag.
const VOID_ELEMENTS: [&str; 1] = ["meta"];

/// Every element this crate writes, with plotters' SVG elements.
pub const EXPECTED_ELEMENTS: [&str; 39] = [
    "html", "head", "meta", "title", "style", "body", "header", "nav", "main", "section", "footer",
    "h1", "h2", "h3", "p", "div", "span", "small", "code", "a", "ul", "ol", "li", "strong", "dl",
    "dt", "dd", "table", "thead", "tbody", "tr", "th", "td", "details", "summary", "figure",
    // plotters' SVG backend
    "svg", "rect", "text",
];

/// plotters' other SVG elements.
pub const EXPECTED_SVG_ELEMENTS: [&str; 4] = ["circle", "line", "polyline", "polygon"];

/// Every attribute this crate writes, with plotters' SVG attributes. None runs script.
pub const EXPECTED_ATTRIBUTES: [&str; 40] = [
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
    // plotters' SVG backend
    "width",
    "height",
    "viewBox",
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

/// The character references the document may hold: ours and plotters' (`&apos;`).
const REFERENCES: [&str; 6] = ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;", "&apos;"];

/// Reads the document, panicking at the first thing this crate does not write: a `<` that
/// starts no tag, an attribute without a double-quoted value, a `>` or an unknown `&` in text
/// or a value, an end tag that closes another element, an element left open.
pub fn read(html: &str) -> Document {
    let mut rest = html
        .strip_prefix("<!doctype html>\n")
        .expect("the document starts with its doctype");
    let mut document = Document {
        tags: Vec::new(),
        style: String::new(),
        texts: Vec::new(),
    };
    let mut open: Vec<String> = Vec::new();
    loop {
        let text_end = rest.find('<').unwrap_or(rest.len());
        let text = &rest[..text_end];
        assert_text(text);
        if !text.trim().is_empty() {
            document.texts.push(text.to_string());
        }
        rest = &rest[text_end..];
        let Some(tag) = rest.strip_prefix('<') else {
            break;
        };
        if let Some(end_tag) = tag.strip_prefix('/') {
            let close = end_tag.find('>').expect("an end tag ends");
            let name = &end_tag[..close];
            let expected = open.pop();
            assert_eq!(
                expected.as_deref(),
                Some(name),
                "</{name}> closes {expected:?}"
            );
            document.tags.push(Tag::End {
                name: name.to_string(),
            });
            rest = &end_tag[close + 1..];
            continue;
        }
        let name_end = tag
            .find(|c: char| !c.is_ascii_alphanumeric())
            .expect("a tag ends");
        let name = &tag[..name_end];
        assert!(
            !name.is_empty(),
            "a '<' that starts no tag: {:?}",
            &tag[..tag.len().min(60)]
        );
        let (attributes, is_self_closing, after) = read_attributes(&tag[name_end..]);
        rest = after;
        if name == "style" {
            let close = rest.find("</style>").expect("the style element ends");
            document.style = rest[..close].to_string();
            rest = &rest[close..];
        }
        if !is_self_closing && !VOID_ELEMENTS.contains(&name) {
            open.push(name.to_string());
        }
        document.tags.push(Tag::Start {
            name: name.to_string(),
            attributes,
            is_self_closing,
        });
    }
    assert!(open.is_empty(), "left open: {open:?}");
    document
}

/// The attributes up to the end of the start tag, whether it ends with `/>`, and what follows.
fn read_attributes(mut rest: &str) -> (Vec<(String, String)>, bool, &str) {
    let mut attributes = Vec::new();
    loop {
        rest = rest.trim_start_matches([' ', '\n']);
        if let Some(after) = rest.strip_prefix("/>") {
            return (attributes, true, after);
        }
        if let Some(after) = rest.strip_prefix('>') {
            return (attributes, false, after);
        }
        let equals = rest.find('=').expect("every attribute has a value");
        let name = &rest[..equals];
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'),
            "attribute name {name:?}"
        );
        let value = rest[equals + 1..]
            .strip_prefix('"')
            .expect("attribute values are double-quoted");
        let close = value.find('"').expect("an attribute value ends");
        assert_text(&value[..close]);
        attributes.push((name.to_string(), value[..close].to_string()));
        rest = &value[close + 1..];
    }
}

/// Text and attribute values hold no `<`, `>` or `"` and no `&` but a known reference.
fn assert_text(text: &str) {
    assert!(!text.contains(['<', '>', '"']), "markup in text: {text:?}");
    for (offset, _) in text.match_indices('&') {
        assert!(
            REFERENCES
                .iter()
                .any(|reference| text[offset..].starts_with(reference)),
            "unknown reference in {text:?}"
        );
    }
}

impl Document {
    /// Every start tag's name.
    pub fn element_names(&self) -> impl Iterator<Item = &str> {
        self.tags.iter().filter_map(|tag| match tag {
            Tag::Start { name, .. } => Some(name.as_str()),
            Tag::End { .. } => None,
        })
    }

    /// Every attribute's name.
    pub fn attribute_names(&self) -> impl Iterator<Item = &str> {
        self.tags.iter().flat_map(|tag| match tag {
            Tag::Start { attributes, .. } => {
                attributes.iter().map(|(name, _)| name.as_str()).collect()
            }
            Tag::End { .. } => Vec::new(),
        })
    }

    /// Every value of the attribute `name`.
    pub fn attribute_values<'d>(&'d self, name: &'d str) -> impl Iterator<Item = &'d str> {
        self.tags.iter().flat_map(move |tag| match tag {
            Tag::Start { attributes, .. } => attributes
                .iter()
                .filter(|(attribute, _)| attribute == name)
                .map(|(_, value)| value.as_str())
                .collect(),
            Tag::End { .. } => Vec::new(),
        })
    }
}

/// Reads the document and checks that it holds only the elements and attributes this crate
/// and plotters write: no script, no image, no frame, no event handler, whatever the report.
pub fn assert_only_expected_markup(html: &str) -> Document {
    let document = read(html);
    for name in document.element_names() {
        assert!(
            EXPECTED_ELEMENTS.contains(&name) || EXPECTED_SVG_ELEMENTS.contains(&name),
            "unexpected element <{name}>"
        );
    }
    for name in document.attribute_names() {
        assert!(
            EXPECTED_ATTRIBUTES.contains(&name),
            "unexpected attribute {name}"
        );
    }
    document
}

/// The markup of the section with this id, from its start tag to its end tag.
pub fn section<'h>(html: &'h str, id: &str) -> &'h str {
    let start_tag = format!("<section id=\"{id}\">");
    let start = html
        .find(&start_tag)
        .unwrap_or_else(|| panic!("no section {id}"));
    let end = html[start..].find("</section>").expect("the section ends") + start;
    &html[start..end + "</section>".len()]
}
