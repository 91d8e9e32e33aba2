//! The confusion heatmap: expected tool (rows, y) × called tool (columns, x), each cell's count
//! or row share written in it, coloured by value.

use plotters::coord::Shift;
use plotters::drawing::{DrawingArea, DrawingAreaErrorKind};
use plotters::element::{Rectangle, Text};
use plotters::prelude::DrawingBackend;
use plotters::style::text_anchor::{HPos, VPos};
use plotters::style::{Color, RGBColor};
use toolscope_core::metrics::selection::Confusion;

use crate::colour::{Palette, Theme};
use crate::text::{axis_label, percent_label, text_width, widest, Fonts};

/// Most tools the heatmap shows on their own: past this, the busiest ones stay and the rest share
/// one last row and column ([`Confusion::top`]), so that thousands of names (one per hallucinated
/// call) draw a readable chart instead of a grid of millions of cells. The layout's rows and
/// columns index `confusion.top(HEATMAP_TOOLS).labels`.
pub const HEATMAP_TOOLS: usize = 30;

/// What a heatmap cell shows and is coloured by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum HeatmapScale {
    /// Turns in the cell; colour on a log scale so that the diagonal does not wash out the
    /// confusions.
    #[default]
    Counts,
    /// The cell's share of its row (of the turns where that tool was expected).
    RowNormalised,
}

/// How to draw the heatmap.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeatmapStyle {
    /// Counts or row shares.
    pub scale: HeatmapScale,
    /// The cell to outline, as (expected row, actual column); its labels are highlighted too.
    pub selected: Option<(usize, usize)>,
    /// The page theme.
    pub theme: Theme,
}

/// Where the heatmap's cells landed, in the backend's pixels, for hit-testing.
///
/// Every cell is a `cell_size` square; the grid starts at `origin`, row 0 on top, column 0 on
/// the left. A cell owns its left and top edges, not its right and bottom ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeatmapLayout {
    /// Number of labels: the grid is `label_count` × `label_count`.
    pub label_count: usize,
    /// Top-left corner of the grid.
    pub origin: (i32, i32),
    /// Side of a cell.
    pub cell_size: i32,
}

impl HeatmapLayout {
    /// The cell under the point, as (expected row, actual column), or `None` outside the grid.
    pub fn cell_at(&self, x: i32, y: i32) -> Option<(usize, usize)> {
        if self.cell_size <= 0 {
            return None;
        }
        // In i64: pointer positions far off the grid must not overflow.
        let offset = |point: i32, start: i32| i64::from(point) - i64::from(start);
        let (dx, dy) = (offset(x, self.origin.0), offset(y, self.origin.1));
        if dx < 0 || dy < 0 {
            return None;
        }
        let cell_size = i64::from(self.cell_size);
        let (col, row) = (dx / cell_size, dy / cell_size);
        let label_count = self.label_count as i64;
        (row < label_count && col < label_count).then_some((row as usize, col as usize))
    }

    /// The cell's corners: top-left (inside it) and bottom-right (just outside it).
    pub fn cell_rect(&self, row: usize, col: usize) -> ((i32, i32), (i32, i32)) {
        let (left, top) = (
            self.origin.0 + col as i32 * self.cell_size,
            self.origin.1 + row as i32 * self.cell_size,
        );
        ((left, top), (left + self.cell_size, top + self.cell_size))
    }
}

const MARGIN: i32 = 8;
const GAP: i32 = 6;
const CAPTION_PX: f64 = 12.5;
const CAPTION_BAND: i32 = 24;
const LABEL_PX: f64 = 12.0;
const TITLE_PX: f64 = 12.5;
const TITLE_BAND: i32 = 20;
const VALUE_PX: f64 = 11.0;
/// Cells never get smaller than this, so 30+ tools stay readable (the canvas scrolls instead).
const MIN_CELL: i32 = 28;
const MAX_CELL: i32 = 56;
/// Grid side aimed at when the caller does not impose a size.
const PREFERRED_GRID: i32 = 420;
const EXPECTED_TITLE: &str = "expected";
const ACTUAL_TITLE: &str = "actual (called)";
const EMPTY_MESSAGE: &str = "No labelled turns: no confusion matrix to draw";
const EMPTY_SIZE: (u32, u32) = (380, 60);

/// The text of every cell and where it sits on the colour scale (`None`: nothing to colour).
struct Cells {
    texts: Vec<Vec<String>>,
    levels: Vec<Vec<Option<f64>>>,
}

fn cells(confusion: &Confusion, scale: HeatmapScale) -> Cells {
    let label_count = confusion.labels.len();
    // Cells pointing past the labels (a malformed matrix) are left out rather than panicking.
    let matrix = confusion.dense();
    let count = |row: usize, col: usize| -> u64 { matrix[row][col] };
    let mut texts = Vec::with_capacity(label_count);
    let mut levels = Vec::with_capacity(label_count);
    match scale {
        HeatmapScale::Counts => {
            let max = (0..label_count)
                .flat_map(|row| (0..label_count).map(move |col| (row, col)))
                .map(|(row, col)| count(row, col))
                .max()
                .unwrap_or(0);
            let log_max = (max as f64).ln_1p();
            for row in 0..label_count {
                texts.push(
                    (0..label_count)
                        .map(|col| count(row, col).to_string())
                        .collect(),
                );
                levels.push(
                    (0..label_count)
                        .map(|col| {
                            let value = count(row, col);
                            (value > 0 && log_max > 0.0).then(|| (value as f64).ln_1p() / log_max)
                        })
                        .collect(),
                );
            }
        }
        HeatmapScale::RowNormalised => {
            for row in 0..label_count {
                let total: u64 = (0..label_count).map(|col| count(row, col)).sum();
                let shares: Vec<Option<f64>> = (0..label_count)
                    .map(|col| (total > 0).then(|| count(row, col) as f64 / total as f64))
                    .collect();
                texts.push(
                    shares
                        .iter()
                        .map(|share| share.map_or_else(|| "–".to_string(), percent_label))
                        .collect(),
                );
                levels.push(shares);
            }
        }
    }
    Cells { texts, levels }
}

/// Everything positioned, relative to the drawing area's top-left corner.
struct Geometry {
    label_count: usize,
    cell: i32,
    grid_left: i32,
    grid_top: i32,
    label_width: i32,
    size: (u32, u32),
}

impl Geometry {
    fn grid_side(&self) -> i32 {
        self.cell * self.label_count as i32
    }
}

fn caption(scale: HeatmapScale) -> &'static str {
    match scale {
        HeatmapScale::Counts => "Turns: expected × called tool",
        HeatmapScale::RowNormalised => "Share of each expected tool's turns",
    }
}

/// Lays the grid out; with `available`, cells shrink or grow to fit it, within the limits.
fn geometry(
    confusion: &Confusion,
    cells: &Cells,
    style: &HeatmapStyle,
    available: Option<(u32, u32)>,
) -> Geometry {
    let label_count = confusion.labels.len();
    let label_width = widest(confusion.labels.iter().map(|l| axis_label(l)), LABEL_PX)
        .max(text_width("none", LABEL_PX));
    let value_width = widest(cells.texts.iter().flatten(), VALUE_PX);
    let min_cell = MIN_CELL.max(value_width + 8);
    let grid_left = MARGIN + TITLE_BAND + label_width + GAP;
    let grid_top = MARGIN + CAPTION_BAND;
    let below_grid = GAP + label_width + GAP + TITLE_BAND + MARGIN;
    let n = label_count.max(1) as i32;
    let cell = match available {
        Some((width, height)) => {
            let fit_width = (width as i32 - grid_left - MARGIN) / n;
            let fit_height = (height as i32 - grid_top - below_grid) / n;
            fit_width
                .min(fit_height)
                .clamp(min_cell, MAX_CELL.max(min_cell))
        }
        None => (PREFERRED_GRID / n).clamp(min_cell, MAX_CELL.max(min_cell)),
    };
    let grid_side = cell * label_count as i32;
    // The bottom title is centred under the grid and may be wider than it.
    let right = MARGIN.max(text_width(ACTUAL_TITLE, TITLE_PX) / 2 - grid_side / 2 + MARGIN);
    let width = (grid_left + grid_side + right)
        .max(MARGIN + text_width(caption(style.scale), CAPTION_PX) + MARGIN);
    let height = grid_top + grid_side + below_grid;
    Geometry {
        label_count,
        cell,
        grid_left,
        grid_top,
        label_width,
        size: (width as u32, height as u32),
    }
}

/// Pixel size (width, height) the heatmap needs at its preferred cell size. Cells never go
/// below a readable minimum however many tools there are, and the label areas fit the longest
/// (truncated) label.
pub fn heatmap_size(confusion: &Confusion, style: &HeatmapStyle) -> (u32, u32) {
    let confusion = &confusion.top(HEATMAP_TOOLS);
    if confusion.labels.is_empty() {
        return EMPTY_SIZE;
    }
    let cells = cells(confusion, style.scale);
    geometry(confusion, &cells, style, None).size
}

pub(crate) fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    confusion: &Confusion,
    style: &HeatmapStyle,
    fonts: Fonts,
) -> Result<HeatmapLayout, DrawingAreaErrorKind<DB::ErrorType>> {
    let confusion = &confusion.top(HEATMAP_TOOLS);
    let palette = Palette::of(style.theme);
    area.fill(&palette.background)?;
    let base = area.get_base_pixel();
    if confusion.labels.is_empty() {
        let (width, height) = area.dim_in_pixel();
        area.draw(&Text::new(
            EMPTY_MESSAGE,
            (width as i32 / 2, height as i32 / 2),
            fonts.style(LABEL_PX, &palette.muted_text, HPos::Center, VPos::Center),
        ))?;
        return Ok(HeatmapLayout {
            label_count: 0,
            origin: base,
            cell_size: 0,
        });
    }

    let cells = cells(confusion, style.scale);
    let geometry = geometry(confusion, &cells, style, Some(area.dim_in_pixel()));
    let local = HeatmapLayout {
        label_count: geometry.label_count,
        origin: (geometry.grid_left, geometry.grid_top),
        cell_size: geometry.cell,
    };

    area.draw(&Text::new(
        caption(style.scale),
        (MARGIN, MARGIN + CAPTION_BAND / 2 - 2),
        fonts.style(CAPTION_PX, &palette.text, HPos::Left, VPos::Center),
    ))?;
    draw_cells(area, &local, &cells, &palette, fonts)?;
    draw_labels(area, confusion, &geometry, style, &palette, fonts)?;
    if let Some((row, col)) = style.selected {
        if row < geometry.label_count && col < geometry.label_count {
            let ((left, top), (right, bottom)) = local.cell_rect(row, col);
            for inset in 0..2 {
                area.draw(&Rectangle::new(
                    [(left + inset, top + inset), (right - inset, bottom - inset)],
                    palette.highlight.stroke_width(1),
                ))?;
            }
        }
    }
    Ok(HeatmapLayout {
        origin: (local.origin.0 + base.0, local.origin.1 + base.1),
        ..local
    })
}

fn draw_cells<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    layout: &HeatmapLayout,
    cells: &Cells,
    palette: &Palette,
    fonts: Fonts,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    for (row, (texts, levels)) in cells.texts.iter().zip(&cells.levels).enumerate() {
        for (col, (text, level)) in texts.iter().zip(levels).enumerate() {
            let ((left, top), (right, bottom)) = layout.cell_rect(row, col);
            // One pixel short on the right and bottom: the background shows through as a grid.
            area.draw(&Rectangle::new(
                [(left, top), (right - 1, bottom - 1)],
                palette.cell_fill(*level).filled(),
            ))?;
            let text_colour: RGBColor = palette.cell_text(*level);
            area.draw(&Text::new(
                text.as_str(),
                ((left + right - 1) / 2, (top + bottom - 1) / 2),
                fonts.style(VALUE_PX, &text_colour, HPos::Center, VPos::Center),
            ))?;
        }
    }
    Ok(())
}

fn draw_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    confusion: &Confusion,
    geometry: &Geometry,
    style: &HeatmapStyle,
    palette: &Palette,
    fonts: Fonts,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let grid_bottom = geometry.grid_top + geometry.grid_side();
    let cell_centre = |index: usize| geometry.cell * index as i32 + geometry.cell / 2;
    let (selected_row, selected_col) = style.selected.unzip();
    let colour_of = |is_selected: bool| {
        if is_selected {
            palette.highlight
        } else {
            palette.text
        }
    };
    for (index, name) in confusion.labels.iter().enumerate() {
        let label = axis_label(name);
        let row_colour = colour_of(selected_row == Some(index));
        area.draw(&Text::new(
            label.clone(),
            (
                geometry.grid_left - GAP,
                geometry.grid_top + cell_centre(index),
            ),
            fonts.style(LABEL_PX, &row_colour, HPos::Right, VPos::Center),
        ))?;
        // Column labels read bottom to top, ending at the grid, so long names fit.
        let col_colour = colour_of(selected_col == Some(index));
        area.draw(&Text::new(
            label,
            (geometry.grid_left + cell_centre(index), grid_bottom + GAP),
            fonts.vertical(LABEL_PX, &col_colour, HPos::Right, VPos::Center),
        ))?;
    }
    area.draw(&Text::new(
        EXPECTED_TITLE,
        (
            MARGIN + TITLE_BAND / 2,
            geometry.grid_top + geometry.grid_side() / 2,
        ),
        fonts.vertical(TITLE_PX, &palette.muted_text, HPos::Center, VPos::Center),
    ))?;
    area.draw(&Text::new(
        ACTUAL_TITLE,
        (
            geometry.grid_left + geometry.grid_side() / 2,
            grid_bottom + GAP + geometry.label_width + GAP + TITLE_BAND / 2,
        ),
        fonts.style(TITLE_PX, &palette.muted_text, HPos::Center, VPos::Center),
    ))?;
    Ok(())
}
