//! Text without measuring it: labels made safe to show, and widths estimated from character
//! counts.
//!
//! Plotters measures text with font-kit or ab_glyph natively and with DOM spans in the browser.
//! Neither is needed here: every label area is computed from character counts with a generous
//! per-character width, so layouts are the same on every backend and nothing touches the DOM.
//! Escaping is left to the backends: plotters-svg escapes `<`, `>`, `&`, `"` and `'` in text
//! and attributes, and a canvas draws text as pixels. Escaping here as well would show `&lt;`
//! on the canvas and `&amp;lt;` in the SVG.

use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontTransform, IntoFont, RGBColor, TextStyle};
use toolscope_core::shown::needs_escape;

/// Axis labels longer than this many characters are cut and end with an ellipsis.
pub const MAX_LABEL_CHARS: usize = 28;

/// Font family for every text in the charts; the browser and SVG viewers pick the face.
pub(crate) const FONT_FAMILY: &str = "sans-serif";

/// A tool name as an axis label: characters unsafe to show (the core's one rule) replaced, cut
/// to [`MAX_LABEL_CHARS`] with an ellipsis, and an empty name shown as `""`.
pub fn axis_label(name: &str) -> String {
    if name.is_empty() {
        return "\"\"".to_string();
    }
    let char_count = name.chars().count();
    let visible = if char_count > MAX_LABEL_CHARS {
        MAX_LABEL_CHARS - 1
    } else {
        char_count
    };
    let mut label: String = name
        .chars()
        .take(visible)
        .map(|c| if needs_escape(c) { '\u{FFFD}' } else { c })
        .collect();
    if visible < char_count {
        label.push('…');
    }
    label
}

/// Estimated width in pixels of `text` at `font_px`, on the generous side so that labels fit in
/// any common sans-serif face: ASCII at 0.62 em, anything else (accents, CJK, emoji) at 1 em.
pub fn text_width(text: &str, font_px: f64) -> i32 {
    let ems: f64 = text
        .chars()
        .map(|c| if c.is_ascii() { 0.62 } else { 1.0 })
        .sum();
    (ems * font_px).ceil() as i32
}

/// The widest of `texts` at `font_px`, 0 for none.
pub(crate) fn widest(texts: impl IntoIterator<Item = impl AsRef<str>>, font_px: f64) -> i32 {
    texts
        .into_iter()
        .map(|text| text_width(text.as_ref(), font_px))
        .max()
        .unwrap_or(0)
}

/// A share in [0, 1] as a whole percentage: "0%" only for exactly zero, "<1%" for a sliver,
/// ">99%" for all but a sliver, so that a rounded label never hides that a cell is not empty
/// or not full. Non-finite input gives "–".
pub fn percent_label(share: f64) -> String {
    if !share.is_finite() {
        return "–".to_string();
    }
    let share = share.clamp(0.0, 1.0);
    let percent = share * 100.0;
    if share > 0.0 && percent < 0.5 {
        "<1%".to_string()
    } else if share < 1.0 && percent >= 99.5 {
        ">99%".to_string()
    } else {
        format!("{percent:.0}%")
    }
}

/// Font sizes for one backend. Sizes in this crate are CSS pixels as a canvas draws them;
/// plotters' SVG backend writes `font-size` as the requested size / 1.24, so the SVG functions
/// ask for 1.24 times as much to get the same text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fonts {
    size_factor: f64,
}

impl Fonts {
    /// For backends that draw the requested size as is (the canvas).
    pub const AS_IS: Fonts = Fonts { size_factor: 1.0 };
    /// For plotters' SVG backend.
    pub const SVG: Fonts = Fonts { size_factor: 1.24 };

    /// A text style of `px` CSS pixels anchored at (`h_pos`, `v_pos`).
    pub fn style<'a>(
        &self,
        px: f64,
        colour: &'a RGBColor,
        h_pos: HPos,
        v_pos: VPos,
    ) -> TextStyle<'a> {
        TextStyle::from((FONT_FAMILY, px * self.size_factor).into_font())
            .color(colour)
            .pos(Pos::new(h_pos, v_pos))
    }

    /// [`Fonts::style`] turned to read bottom to top.
    pub fn vertical<'a>(
        &self,
        px: f64,
        colour: &'a RGBColor,
        h_pos: HPos,
        v_pos: VPos,
    ) -> TextStyle<'a> {
        self.style(px, colour, h_pos, v_pos)
            .transform(FontTransform::Rotate270)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_labels_are_kept_whole() {
        assert_eq!(axis_label("search_web"), "search_web");
        assert_eq!(axis_label(&"a".repeat(MAX_LABEL_CHARS)), "a".repeat(28));
    }

    #[test]
    fn long_labels_end_with_an_ellipsis_at_the_limit() {
        let label = axis_label(&"é".repeat(40));
        assert_eq!(label.chars().count(), MAX_LABEL_CHARS);
        assert!(label.ends_with('…'));
    }

    #[test]
    fn control_characters_and_empty_names_stay_visible_and_valid_xml() {
        assert_eq!(axis_label("a\u{0}b\nc"), "a\u{FFFD}b\u{FFFD}c");
        assert_eq!(axis_label(""), "\"\"");
        assert_eq!(axis_label("a\u{202E}txt.exe"), "a\u{FFFD}txt.exe");
    }

    #[test]
    fn percent_labels_never_round_a_nonzero_share_to_zero_or_a_partial_one_to_all() {
        assert_eq!(percent_label(0.0), "0%");
        assert_eq!(percent_label(0.001), "<1%");
        assert_eq!(percent_label(1.0 / 3.0), "33%");
        assert_eq!(percent_label(0.999), ">99%");
        assert_eq!(percent_label(1.0), "100%");
        assert_eq!(percent_label(f64::NAN), "–");
    }

    #[test]
    fn svg_font_sizes_in_use_come_back_as_written() {
        // 13 px, for one, would come back from the SVG backend as 13.000000000000002.
        for px in [11.0, 12.0, 12.5] {
            assert_eq!(px * Fonts::SVG.size_factor / 1.24, px);
        }
    }

    #[test]
    fn wide_characters_are_estimated_wider_than_ascii() {
        assert!(text_width("工具", 12.0) > text_width("ab", 12.0));
        assert_eq!(widest(Vec::<String>::new(), 12.0), 0);
    }
}
