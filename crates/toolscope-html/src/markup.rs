//! The one way the document is written: elements whose closing tag the writer adds, text and
//! attribute values that are always escaped, and markup of our own only from string literals.
//!
//! Tag and attribute names are `&'static str`, so only this crate's code can name them; every
//! value that can hold text from the input goes through [`crate::escape`]. An element's body is
//! a closure, so its end tag cannot be forgotten or misplaced.

use std::fmt::{self, Write as _};

use crate::escape::push_escaped;

/// The document being written.
pub(crate) struct Markup {
    out: String,
}

/// Attribute name and value pairs; the values are escaped.
pub(crate) type Attributes<'a> = &'a [(&'static str, &'a str)];

impl Markup {
    /// An empty document.
    pub fn new() -> Self {
        Markup {
            out: String::with_capacity(64 * 1024),
        }
    }

    /// What was written.
    pub fn finish(self) -> String {
        self.out
    }

    /// `<tag attributes>` + the body + `</tag>`.
    pub fn element(
        &mut self,
        tag: &'static str,
        attributes: Attributes<'_>,
        body: impl FnOnce(&mut Markup),
    ) {
        self.start_tag(tag, attributes);
        body(self);
        self.out.push_str("</");
        self.out.push_str(tag);
        self.out.push('>');
        if ends_a_line(tag) {
            self.out.push('\n');
        }
    }

    /// An element holding only `text`.
    pub fn text_element(&mut self, tag: &'static str, attributes: Attributes<'_>, text: &str) {
        self.element(tag, attributes, |markup| markup.text(text));
    }

    /// An element with no content and no end tag, such as `<meta …>`.
    pub fn void_element(&mut self, tag: &'static str, attributes: Attributes<'_>) {
        self.start_tag(tag, attributes);
        if ends_a_line(tag) {
            self.out.push('\n');
        }
    }

    /// Text, escaped.
    pub fn text(&mut self, text: &str) {
        push_escaped(&mut self.out, text);
    }

    /// Formatted text, escaped as a whole: `markup.text_fmt(format_args!("{n} calls"))`.
    pub fn text_fmt(&mut self, text: fmt::Arguments<'_>) {
        match text.as_str() {
            Some(literal) => self.text(literal),
            None => self.text(&text.to_string()),
        }
    }

    /// Markup of our own, such as a doctype or a line break. A `&'static str` is a literal in
    /// this crate (or a constant built from them), never text from the input.
    pub fn literal(&mut self, markup: &'static str) {
        self.out.push_str(markup);
    }

    /// A chart as drawn by toolscope-charts: plotters' SVG backend escapes every text and
    /// attribute value it writes (tests/hostile_text.rs checks that on hostile tool names).
    pub fn chart_svg(&mut self, svg: &str) {
        debug_assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        self.out.push_str(svg.trim_end());
    }

    fn start_tag(&mut self, tag: &'static str, attributes: Attributes<'_>) {
        self.out.push('<');
        self.out.push_str(tag);
        for (name, value) in attributes {
            // Writing to a String cannot fail.
            let _ = write!(self.out, " {name}=\"");
            push_escaped(&mut self.out, value);
            self.out.push('"');
        }
        self.out.push('>');
    }
}

/// Whether a newline follows the element's end tag, so the file reads a block per line. Only
/// after elements where white space between siblings shows nothing (blocks, table rows, list
/// items), never after inline ones, where it would be a visible space.
fn ends_a_line(tag: &str) -> bool {
    matches!(
        tag,
        "html"
            | "head"
            | "meta"
            | "title"
            | "style"
            | "body"
            | "header"
            | "nav"
            | "main"
            | "section"
            | "footer"
            | "h1"
            | "h2"
            | "h3"
            | "p"
            | "ul"
            | "li"
            | "dl"
            | "div"
            | "table"
            | "thead"
            | "tr"
            | "figure"
            | "details"
    )
}

#[cfg(test)]
mod tests {
    use super::Markup;

    fn written(write: impl FnOnce(&mut Markup)) -> String {
        let mut markup = Markup::new();
        write(&mut markup);
        markup.finish()
    }

    #[test]
    fn an_element_is_closed_after_its_body() {
        let html = written(|markup| {
            markup.element("p", &[("class", "note")], |markup| {
                markup.text_element("code", &[], "a < b");
            });
        });
        assert_eq!(html, "<p class=\"note\"><code>a &lt; b</code></p>\n");
    }

    #[test]
    fn attribute_values_cannot_leave_their_quotes() {
        let html = written(|markup| {
            markup.void_element("meta", &[("content", r#"x" onload="alert(1)"#)]);
        });
        assert_eq!(html, "<meta content=\"x&quot; onload=&quot;alert(1)\">\n");
    }

    #[test]
    fn formatted_text_is_escaped_like_plain_text() {
        let tool = "<b>";
        let html = written(|markup| markup.text_fmt(format_args!("{tool}: 3 calls")));
        assert_eq!(html, "&lt;b&gt;: 3 calls");
    }
}
