//! toolscope's two charts, drawn with [plotters] on any backend: the confusion heatmap
//! (expected × called tool) and per-tool precision and recall with Wilson intervals.
//!
//! The page draws on a canvas (plotters-canvas) and exports SVG; the CLI embeds SVG. So every
//! chart comes as a generic `draw_*` function over a [`DrawingBackend`] that returns a layout for
//! hit-testing, and as an `*_svg` function that returns the SVG document as a string.
//!
//! Text is never measured: label areas are computed from character counts (see [`text`]), so
//! nothing needs a font file natively or the DOM in the browser, and layouts are identical on
//! every backend. Tool names come from untrusted files: plotters' SVG backend escapes text and
//! attributes, labels lose control characters and are cut at [`text::MAX_LABEL_CHARS`].
//!
//! # Example
//!
//! ```
//! use toolscope_charts::{heatmap_svg, HeatmapScale, HeatmapStyle};
//! use toolscope_core::metrics::selection::Confusion;
//!
//! let confusion = Confusion::from_counts(
//!     vec!["none".into(), "search".into()],
//!     [(0, 0, 3), (0, 1, 1), (1, 0, 2), (1, 1, 9)],
//! );
//! let style = HeatmapStyle { scale: HeatmapScale::RowNormalised, ..HeatmapStyle::default() };
//! let svg = heatmap_svg(&confusion, &style);
//! assert!(svg.starts_with("<svg") && svg.contains("75%"));
//! ```
//!
//! Drawing on any other backend, then hit-testing a pointer position:
//!
//! ```
//! use plotters::prelude::*;
//! use toolscope_charts::{draw_heatmap, heatmap_size, HeatmapStyle};
//! # use toolscope_core::metrics::selection::Confusion;
//! # let confusion = Confusion::from_counts(vec!["a".into(), "b".into()], [(0, 0, 1), (1, 1, 1)]);
//!
//! let style = HeatmapStyle::default();
//! let mut svg = String::new();
//! let layout = {
//!     let root = SVGBackend::with_string(&mut svg, heatmap_size(&confusion, &style)).into_drawing_area();
//!     draw_heatmap(&root, &confusion, &style)?
//! };
//! let ((left, top), _) = layout.cell_rect(1, 0);
//! assert_eq!(layout.cell_at(left + 1, top + 1), Some((1, 0)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # On a canvas
//!
//! plotters-canvas 0.3.1's `CanvasBackend::with_canvas_object(canvas)` takes its size from the
//! canvas's `width`/`height` attributes. The page sets them (and the CSS box) to
//! [`heatmap_size`] or [`pr_chart_size`] and draws at one canvas pixel per CSS pixel, so layouts
//! are in CSS pixels and a mouse event's `offset_x()`/`offset_y()` hit-test as they are. The
//! canvas must be in the document before drawing.

mod colour;
mod heatmap;
mod precision_recall;
pub mod text;

pub use colour::Theme;
pub use heatmap::{heatmap_size, HeatmapLayout, HeatmapScale, HeatmapStyle, HEATMAP_TOOLS};
pub use precision_recall::{pr_chart_size, PrLayout, PrMark, PrMetric, PrStyle};

use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind, IntoDrawingArea};
use plotters::prelude::{DrawingBackend, SVGBackend};
use toolscope_core::metrics::selection::{Confusion, ToolRow};

use crate::text::Fonts;

/// Draws the confusion heatmap into `area`: expected tool on rows (y), called tool on columns
/// (x), "none" included, each cell's count (or row share) written in it and coloured by it.
///
/// Cells grow or shrink to fill the area, between a readable minimum and a maximum; size the
/// area with [`heatmap_size`]. Text sizes are CSS pixels as a canvas draws them; for SVG use
/// [`heatmap_svg`], which corrects for the SVG backend writing smaller fonts. The returned
/// layout is in the backend's pixels, so it hit-tests pointer positions on the whole backend
/// even when `area` is a part of it.
pub fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    confusion: &Confusion,
    style: &HeatmapStyle,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    heatmap::draw(area, confusion, style, Fonts::AS_IS)
}

/// Draws the per-tool precision and recall chart into `area`: one row per tool, precision as a
/// circle and recall as a square with their 95 % Wilson intervals as whiskers on a 0..1 axis;
/// low-support tools hollow, with a muted label ending in "(n=support)". A tool with no
/// precision (never called) or no recall (never expected) gets no marker for it.
///
/// Size the area with [`pr_chart_size`]; text sizes and layout as for [`draw_heatmap`].
pub fn draw_precision_recall<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: &[ToolRow],
    style: &PrStyle,
) -> Result<PrLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    precision_recall::draw(area, rows, style, Fonts::AS_IS)
}

/// The confusion heatmap as a standalone SVG document of [`heatmap_size`].
pub fn heatmap_svg(confusion: &Confusion, style: &HeatmapStyle) -> String {
    svg(heatmap_size(confusion, style), |area| {
        heatmap::draw(area, confusion, style, Fonts::SVG).map(drop)
    })
}

/// The precision and recall chart as a standalone SVG document of [`pr_chart_size`].
pub fn precision_recall_svg(rows: &[ToolRow], style: &PrStyle) -> String {
    svg(pr_chart_size(rows), |area| {
        precision_recall::draw(area, rows, style, Fonts::SVG).map(drop)
    })
}

/// Draws into an in-memory SVG document.
///
/// Drawing into a string cannot fail: the SVG backend's only errors are file I/O, and this crate
/// never asks plotters to measure text (the other error source). So an error is not passed on;
/// should one ever happen, the document holds what was drawn before it, still well formed
/// because the backend closes its tags when dropped.
fn svg(
    size: (u32, u32),
    draw: impl FnOnce(
        &DrawingArea<SVGBackend<'_>, Shift>,
    ) -> Result<(), DrawingAreaErrorKind<std::io::Error>>,
) -> String {
    let mut document = String::new();
    {
        let root = SVGBackend::with_string(&mut document, size).into_drawing_area();
        let drawn = draw(&root).and_then(|()| root.present());
        debug_assert!(drawn.is_ok(), "drawing into a string failed: {drawn:?}");
    }
    document
}
