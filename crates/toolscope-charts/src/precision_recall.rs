//! The per-tool precision and recall chart: one row per tool (tools on the y axis so long
//! names fit), precision and recall as two markers on a 0..1 axis with their 95 % Wilson
//! intervals as whiskers; low-support tools drawn hollow, muted and with their support.

use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind};
use plotters::element::{Circle, PathElement, Rectangle, Text};
use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};
use toolscope_core::metrics::selection::ToolRow;

use crate::colour::{Palette, Theme};
use crate::text::{axis_label, text_width, widest, Fonts};

/// How to draw the precision and recall chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PrStyle {
    /// The row (index into the tool rows) to highlight.
    pub selected: Option<usize>,
    /// The page theme.
    pub theme: Theme,
}

/// Which number a marker shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrMetric {
    /// tp / (tp + fp): a filled circle.
    Precision,
    /// tp / (tp + fn): a filled square.
    Recall,
}

/// One drawn marker and its whisker, in the backend's pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct PrMark {
    /// Index of the tool row.
    pub row: usize,
    /// Precision or recall.
    pub metric: PrMetric,
    /// The value, in [0, 1], or `None` when only the interval is drawn.
    pub value: Option<f64>,
    /// The 95 % interval, clamped to [0, 1], when there is one.
    pub interval: Option<[f64; 2]>,
    /// Marker centre (at the value, or at the interval's midpoint when there is no value).
    pub centre: (i32, i32),
    /// Pixel x of the whisker's ends, when there is an interval.
    pub whisker: Option<(i32, i32)>,
    /// Whether the marker is hollow: the tool has too little support to trust.
    pub is_hollow: bool,
}

/// Where the chart's rows and markers landed, in the backend's pixels, for hit-testing.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PrLayout {
    /// Number of tool rows.
    pub row_count: usize,
    /// Left and right edges of a row, label included.
    pub row_x: (i32, i32),
    /// Top of the first row.
    pub rows_top: i32,
    /// Height of each row.
    pub row_height: i32,
    /// Pixel x of the values 0 and 1.
    pub axis_x: (i32, i32),
    /// Every marker drawn, row by row, precision before recall.
    pub marks: Vec<PrMark>,
}

impl PrLayout {
    /// The tool row under the point (anywhere along the row, label included), or `None`.
    pub fn row_at(&self, x: i32, y: i32) -> Option<usize> {
        if self.row_height <= 0 || x < self.row_x.0 || x >= self.row_x.1 || y < self.rows_top {
            return None;
        }
        // In i64: pointer positions far off the chart must not overflow.
        let row = (i64::from(y) - i64::from(self.rows_top)) / i64::from(self.row_height);
        (row < self.row_count as i64).then_some(row as usize)
    }

    /// The row's corners: top-left (inside it) and bottom-right (just outside it).
    pub fn row_rect(&self, row: usize) -> ((i32, i32), (i32, i32)) {
        let top = self.rows_top + row as i32 * self.row_height;
        ((self.row_x.0, top), (self.row_x.1, top + self.row_height))
    }

    /// The marker nearest to the point within `radius` pixels, for tooltips.
    pub fn mark_at(&self, x: i32, y: i32, radius: i32) -> Option<&PrMark> {
        // In i128: the squares of far-off pointer positions overflow i64.
        let distance = |mark: &PrMark| {
            let dx = i128::from(mark.centre.0) - i128::from(x);
            let dy = i128::from(mark.centre.1) - i128::from(y);
            dx * dx + dy * dy
        };
        self.marks
            .iter()
            .filter(|mark| distance(mark) <= i128::from(radius) * i128::from(radius))
            .min_by_key(|mark| distance(mark))
    }
}

const MARGIN: i32 = 8;
const GAP: i32 = 8;
const LEGEND_BAND: i32 = 26;
const ROW_HEIGHT: i32 = 26;
/// Precision sits this far above the row's middle and recall as far below, so that their
/// whiskers never overlap.
const MARKER_OFFSET: i32 = 5;
const MARKER_RADIUS: i32 = 4;
const CAP_HALF: i32 = 3;
const LABEL_PX: f64 = 12.0;
const TICK_PX: f64 = 11.0;
const TITLE_PX: f64 = 12.0;
const AXIS_BAND: i32 = 44;
const PREFERRED_PLOT: i32 = 360;
const MIN_PLOT: i32 = 200;
const MAX_PLOT: i32 = 720;
/// Room either side of the 0..1 axis so markers at 0 and 1 are not cut.
const PLOT_PAD: i32 = 8;
const TICKS: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const AXIS_TITLE: &str = "precision and recall, with 95% Wilson intervals";
const EMPTY_MESSAGE: &str = "No labelled turns: no precision or recall to draw";
const EMPTY_SIZE: (u32, u32) = (380, 60);
const LEGEND: [(&str, PrMetric, bool); 3] = [
    ("precision", PrMetric::Precision, false),
    ("recall", PrMetric::Recall, false),
    ("hollow: few turns (n = support)", PrMetric::Precision, true),
];

/// The row's label: the tool name, with its support when that is too low to trust.
fn row_label(row: &ToolRow) -> String {
    let name = axis_label(&row.tool);
    if row.is_low_support {
        format!("{name} (n={})", row.support)
    } else {
        name
    }
}

/// Left edge of the 0..1 axis, relative to the drawing area.
fn plot_left(rows: &[ToolRow]) -> i32 {
    MARGIN + widest(rows.iter().map(row_label), LABEL_PX) + GAP + PLOT_PAD
}

fn legend_width() -> i32 {
    LEGEND
        .iter()
        .map(|(text, _, _)| 2 * MARKER_RADIUS + 4 + text_width(text, LABEL_PX) + 14)
        .sum()
}

fn size_for(rows: &[ToolRow], plot_width: i32) -> (u32, u32) {
    let width = (plot_left(rows) + plot_width + PLOT_PAD + MARGIN)
        .max(MARGIN + legend_width() + MARGIN)
        .max(MARGIN + text_width(AXIS_TITLE, TITLE_PX) + MARGIN);
    let height = MARGIN + LEGEND_BAND + ROW_HEIGHT * rows.len() as i32 + AXIS_BAND + MARGIN;
    (width as u32, height as u32)
}

/// Pixel size (width, height) the chart needs: a fixed height per tool and room for the
/// longest (truncated) label.
pub fn pr_chart_size(rows: &[ToolRow]) -> (u32, u32) {
    if rows.is_empty() {
        return EMPTY_SIZE;
    }
    size_for(rows, PREFERRED_PLOT)
}

/// A value or interval end fit to draw: finite, clamped to [0, 1].
fn unit(value: f64) -> Option<f64> {
    value.is_finite().then(|| value.clamp(0.0, 1.0))
}

fn interval(bounds: Option<[f64; 2]>) -> Option<[f64; 2]> {
    let [low, high] = bounds?;
    let (low, high) = (unit(low)?, unit(high)?);
    Some([low.min(high), low.max(high)])
}

pub(crate) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    rows: &[ToolRow],
    style: &PrStyle,
    fonts: Fonts,
) -> Result<PrLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let palette = Palette::of(style.theme);
    area.fill(&palette.background)?;
    let base = area.get_base_pixel();
    let (width, height) = area.dim_in_pixel();
    if rows.is_empty() {
        area.draw(&Text::new(
            EMPTY_MESSAGE,
            (width as i32 / 2, height as i32 / 2),
            fonts.style(LABEL_PX, &palette.muted_text, HPos::Center, VPos::Center),
        ))?;
        return Ok(PrLayout {
            row_x: (base.0, base.0),
            rows_top: base.1,
            ..PrLayout::default()
        });
    }

    let left = plot_left(rows);
    let plot_width = (width as i32 - left - PLOT_PAD - MARGIN).clamp(MIN_PLOT, MAX_PLOT);
    let rows_top = MARGIN + LEGEND_BAND;
    let rows_bottom = rows_top + ROW_HEIGHT * rows.len() as i32;
    let row_right = left + plot_width + PLOT_PAD;
    let x_of = |value: f64| left + (value * f64::from(plot_width)).round() as i32;
    let local = PrLayout {
        row_count: rows.len(),
        row_x: (MARGIN, row_right),
        rows_top,
        row_height: ROW_HEIGHT,
        axis_x: (x_of(0.0), x_of(1.0)),
        marks: Vec::new(),
    };

    draw_legend(area, &palette, fonts)?;
    for index in 0..rows.len() {
        let is_selected = style.selected == Some(index);
        if is_selected || index % 2 == 1 {
            let ((x0, y0), (x1, y1)) = local.row_rect(index);
            let fill = if is_selected {
                palette.highlight.mix(0.14)
            } else {
                palette.stripe.mix(1.0)
            };
            area.draw(&Rectangle::new([(x0, y0), (x1, y1)], fill.filled()))?;
        }
    }
    for tick in TICKS {
        let x = x_of(tick);
        area.draw(&PathElement::new(
            vec![(x, rows_top), (x, rows_bottom + 4)],
            palette.grid,
        ))?;
        area.draw(&Text::new(
            format!("{tick}"),
            (x, rows_bottom + 7),
            fonts.style(TICK_PX, &palette.muted_text, HPos::Center, VPos::Top),
        ))?;
    }
    area.draw(&Text::new(
        AXIS_TITLE,
        (x_of(0.5), rows_bottom + 30),
        fonts.style(TITLE_PX, &palette.muted_text, HPos::Center, VPos::Center),
    ))?;

    let mut marks = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let ((_, top), _) = local.row_rect(index);
        let middle = top + ROW_HEIGHT / 2;
        let label_colour = if style.selected == Some(index) {
            palette.highlight
        } else if row.is_low_support {
            palette.muted_text
        } else {
            palette.text
        };
        area.draw(&Text::new(
            row_label(row),
            (left - PLOT_PAD - GAP, middle),
            fonts.style(LABEL_PX, &label_colour, HPos::Right, VPos::Center),
        ))?;
        let series = [
            (
                PrMetric::Precision,
                row.precision,
                row.precision_ci,
                middle - MARKER_OFFSET,
            ),
            (
                PrMetric::Recall,
                row.recall,
                row.recall_ci,
                middle + MARKER_OFFSET,
            ),
        ];
        for (metric, value, bounds, y) in series {
            let value = value.and_then(unit);
            let interval = interval(bounds);
            let Some(centre_value) = value.or(interval.map(|[low, high]| (low + high) / 2.0))
            else {
                continue;
            };
            let colour = match metric {
                PrMetric::Precision => palette.precision,
                PrMetric::Recall => palette.recall,
            };
            let whisker = interval.map(|[low, high]| (x_of(low), x_of(high)));
            if let Some((x0, x1)) = whisker {
                draw_whisker(area, x0, x1, y, colour)?;
            }
            let centre = (x_of(centre_value), y);
            if value.is_some() {
                draw_marker(area, metric, centre, colour, row.is_low_support, &palette)?;
            }
            marks.push(PrMark {
                row: index,
                metric,
                value,
                interval,
                centre: (centre.0 + base.0, centre.1 + base.1),
                whisker: whisker.map(|(x0, x1)| (x0 + base.0, x1 + base.0)),
                is_hollow: row.is_low_support,
            });
        }
    }

    Ok(PrLayout {
        row_x: (local.row_x.0 + base.0, local.row_x.1 + base.0),
        rows_top: local.rows_top + base.1,
        axis_x: (local.axis_x.0 + base.0, local.axis_x.1 + base.0),
        marks,
        ..local
    })
}

fn draw_whisker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x0: i32,
    x1: i32,
    y: i32,
    colour: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    area.draw(&PathElement::new(vec![(x0, y), (x1, y)], colour))?;
    for x in [x0, x1] {
        area.draw(&PathElement::new(
            vec![(x, y - CAP_HALF), (x, y + CAP_HALF)],
            colour,
        ))?;
    }
    Ok(())
}

/// A filled circle (precision) or square (recall); hollow ones are drawn as a two-pixel ring
/// over the background, since the canvas backend strokes one pixel wide whatever the style says.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    metric: PrMetric,
    (x, y): (i32, i32),
    colour: RGBColor,
    is_hollow: bool,
    palette: &Palette,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let radius = MARKER_RADIUS;
    match (metric, is_hollow) {
        (PrMetric::Precision, false) => {
            area.draw(&Circle::new((x, y), radius as u32, colour.filled()))?;
        }
        (PrMetric::Precision, true) => {
            area.draw(&Circle::new(
                (x, y),
                radius as u32,
                palette.background.filled(),
            ))?;
            for ring in [radius, radius - 1] {
                area.draw(&Circle::new((x, y), ring as u32, colour))?;
            }
        }
        (PrMetric::Recall, false) => {
            area.draw(&Rectangle::new(
                [(x - radius, y - radius), (x + radius, y + radius)],
                colour.filled(),
            ))?;
        }
        (PrMetric::Recall, true) => {
            area.draw(&Rectangle::new(
                [(x - radius, y - radius), (x + radius, y + radius)],
                palette.background.filled(),
            ))?;
            for inset in [0, 1] {
                area.draw(&Rectangle::new(
                    [
                        (x - radius + inset, y - radius + inset),
                        (x + radius - inset, y + radius - inset),
                    ],
                    colour,
                ))?;
            }
        }
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    palette: &Palette,
    fonts: Fonts,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let y = MARGIN + LEGEND_BAND / 2 - 2;
    let mut x = MARGIN + MARKER_RADIUS;
    for (text, metric, is_hollow) in LEGEND {
        let colour = if is_hollow {
            palette.muted_text
        } else {
            match metric {
                PrMetric::Precision => palette.precision,
                PrMetric::Recall => palette.recall,
            }
        };
        draw_marker(area, metric, (x, y), colour, is_hollow, palette)?;
        let text_x = x + MARKER_RADIUS + 4;
        area.draw(&Text::new(
            text,
            (text_x, y),
            fonts.style(LABEL_PX, &palette.text, HPos::Left, VPos::Center),
        ))?;
        x = text_x + text_width(text, LABEL_PX) + 14 + MARKER_RADIUS;
    }
    Ok(())
}
