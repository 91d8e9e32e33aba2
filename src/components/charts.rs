//! The selection charts on canvases, drawn by `toolscope-charts` through plotters-canvas: the
//! confusion heatmap (click a cell, or move with the arrow keys, to list its turns) and the
//! precision/recall chart (click a tool to filter by it). Each exports as PNG and SVG. Tool names
//! are drawn as canvas text, never as HTML.

use leptos::html;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters_canvas::CanvasBackend;
use toolscope_charts::{
    draw_heatmap, draw_precision_recall, heatmap_size, heatmap_svg, pr_chart_size,
    precision_recall_svg, HeatmapLayout, HeatmapScale, HeatmapStyle, PrLayout, PrMetric, PrStyle,
    Theme, HEATMAP_TOOLS,
};
use toolscope_core::metrics::selection::{Confusion, ToolRow};
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, KeyboardEvent, MouseEvent};

use crate::download::{save, save_blob};
use crate::route::Scale;
use crate::state::AppState;

/// Sizes the canvas to `size` (one canvas pixel per CSS pixel) and returns its drawing area.
fn drawing_area(
    canvas: &HtmlCanvasElement,
    (width, height): (u32, u32),
) -> Option<DrawingArea<CanvasBackend, Shift>> {
    canvas.set_width(width);
    canvas.set_height(height);
    // Through the CSSOM, not a `style` attribute: the page's Content-Security-Policy
    // (`style-src 'self'`) refuses inline style attributes but not CSSOM changes.
    let style = web_sys::HtmlElement::style(canvas);
    let _ = style.set_property("width", &format!("{width}px"));
    let _ = style.set_property("height", &format!("{height}px"));
    Some(CanvasBackend::with_canvas_object(canvas.clone())?.into_drawing_area())
}

/// The charts' palette: dark when the page is (the stylesheet follows the same media query).
fn theme() -> Theme {
    let is_dark = web_sys::window()
        .and_then(|window| {
            window
                .match_media("(prefers-color-scheme: dark)")
                .ok()
                .flatten()
        })
        .is_some_and(|query| query.matches());
    if is_dark {
        Theme::Dark
    } else {
        Theme::Light
    }
}

/// Saves the canvas as a PNG.
fn save_png(canvas: &HtmlCanvasElement, name: &'static str) {
    // toBlob hands its callback a Blob, or null when the canvas is empty.
    let callback =
        wasm_bindgen::closure::Closure::once_into_js(move |blob: wasm_bindgen::JsValue| {
            if let Some(blob) = blob.dyn_ref::<web_sys::Blob>() {
                save_blob(name, blob);
            }
        });
    let _ = canvas.to_blob(callback.unchecked_ref());
}

/// The confusion heatmap.
#[component]
pub fn ConfusionChart(confusion: Confusion) -> impl IntoView {
    let state = expect_context::<AppState>();
    let canvas = NodeRef::<html::Canvas>::new();
    let layout = StoredValue::new(None::<HeatmapLayout>);
    // The heatmap's rows and columns: the busiest tools, and one for the rest.
    let shown = StoredValue::new(confusion.top(HEATMAP_TOOLS));
    let labels = StoredValue::new(shown.with_value(|shown| shown.labels.clone()));
    let confusion = StoredValue::new(confusion);
    let index_of = move |name: &str| {
        shown.with_value(|shown| {
            shown
                .labels
                .iter()
                .position(|label| shown.covers(label, name))
        })
    };
    let style = Memo::new(move |_| {
        state.route.with(|route| HeatmapStyle {
            scale: match route.scale {
                Scale::Counts => HeatmapScale::Counts,
                Scale::RowShares => HeatmapScale::RowNormalised,
            },
            selected: route
                .cell
                .as_ref()
                .and_then(|(expected, actual)| Some((index_of(expected)?, index_of(actual)?))),
            theme: theme(),
        })
    });
    Effect::new(move |_| {
        let style = style.get();
        let Some(canvas) = canvas.get() else {
            return;
        };
        confusion.with_value(|confusion| {
            let Some(area) = drawing_area(&canvas, heatmap_size(confusion, &style)) else {
                return;
            };
            if let Ok(drawn) = draw_heatmap(&area, confusion, &style) {
                let _ = canvas.set_attribute("data-origin-x", &drawn.origin.0.to_string());
                let _ = canvas.set_attribute("data-origin-y", &drawn.origin.1.to_string());
                let _ = canvas.set_attribute("data-cell-size", &drawn.cell_size.to_string());
                layout.set_value(Some(drawn));
            }
        });
    });
    let open = move |row: usize, column: usize| {
        let cell = labels
            .with_value(|labels| Some((labels.get(row)?.clone(), labels.get(column)?.clone())));
        if let Some(cell) = cell {
            state.route.update(|route| route.cell = Some(cell));
        }
    };
    let on_click = move |event: MouseEvent| {
        let hit = layout.with_value(|layout| {
            layout
                .as_ref()
                .and_then(|layout| layout.cell_at(event.offset_x(), event.offset_y()))
        });
        if let Some((row, column)) = hit {
            open(row, column);
        }
    };
    let on_key = move |event: KeyboardEvent| {
        let count = labels.with_value(Vec::len);
        if count == 0 {
            return;
        }
        let (row, column) = style.get_untracked().selected.unwrap_or((0, 0));
        let (row, column) = match event.key().as_str() {
            "ArrowUp" => (row.saturating_sub(1), column),
            "ArrowDown" => ((row + 1).min(count - 1), column),
            "ArrowLeft" => (row, column.saturating_sub(1)),
            "ArrowRight" => (row, (column + 1).min(count - 1)),
            "Enter" | " " => (row, column),
            "Escape" => {
                state.route.update(|route| route.cell = None);
                return;
            }
            _ => return,
        };
        event.prevent_default();
        open(row, column);
    };
    let export_png = move |_| {
        if let Some(canvas) = canvas.get_untracked() {
            save_png(&canvas, "confusion.png");
        }
    };
    let export_svg = move |_| {
        let svg = confusion.with_value(|confusion| heatmap_svg(confusion, &style.get_untracked()));
        save("confusion.svg", "image/svg+xml", svg.as_bytes());
    };
    // Every cell, grouped or not: the full list stays one click away.
    let cells: Vec<(String, String, u64)> = confusion.with_value(|confusion| {
        let label = |index: usize| confusion.labels.get(index).cloned().unwrap_or_default();
        confusion
            .cells
            .iter()
            .map(|cell| (label(cell.expected), label(cell.actual), cell.count))
            .collect()
    });
    let grouped_note = shown.with_value(|shown| {
        (!shown.grouped.is_empty()).then(|| {
            format!(
                "{} tools with the fewest turns share the last row and column; the list below has every cell.",
                shown.grouped.len()
            )
        })
    });
    view! {
        <div class="chart-scroll">
            <canvas
                node_ref=canvas
                class="chart"
                data-testid="heatmap"
                tabindex="0"
                role="img"
                aria-label="Confusion matrix: expected tool by row, called tool by column. Arrow keys move between cells."
                on:click=on_click
                on:keydown=on_key
            ></canvas>
        </div>
        {grouped_note.map(|note| view! { <p class="hint" data-testid="heatmap-grouped">{note}</p> })}
        <ExportButtons chart="heatmap" on_png=export_png on_svg=export_svg/>
        <details class="cells">
            <summary>"Cells as a list"</summary>
            <ul class="cell-list" data-testid="cell-list">
                {cells
                    .into_iter()
                    .map(|(expected, actual, count)| {
                        let cell = (expected.clone(), actual.clone());
                        view! {
                            <li>
                                <button
                                    class="link"
                                    data-testid="cell"
                                    data-expected=expected.clone()
                                    data-actual=actual.clone()
                                    on:click=move |_| {
                                        let cell = cell.clone();
                                        state.route.update(|route| route.cell = Some(cell))
                                    }
                                >
                                    {format!("{expected} → {actual}: {count}")}
                                </button>
                            </li>
                        }
                    })
                    .collect_view()}
            </ul>
        </details>
    }
}

/// Precision and recall per tool, with Wilson intervals as whiskers.
#[component]
pub fn PrecisionRecallChart(rows: Vec<ToolRow>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let canvas = NodeRef::<html::Canvas>::new();
    let layout = StoredValue::new(None::<PrLayout>);
    let rows = StoredValue::new(rows);
    let style = Memo::new(move |_| {
        let tool = state.route.with(|route| route.filter.tool.clone());
        PrStyle {
            selected: tool.and_then(|tool| {
                rows.with_value(|rows| rows.iter().position(|row| row.tool == tool))
            }),
            theme: theme(),
        }
    });
    Effect::new(move |_| {
        let style = style.get();
        let Some(canvas) = canvas.get() else {
            return;
        };
        rows.with_value(|rows| {
            let Some(area) = drawing_area(&canvas, pr_chart_size(rows)) else {
                return;
            };
            if let Ok(drawn) = draw_precision_recall(&area, rows, &style) {
                layout.set_value(Some(drawn));
            }
        });
    });
    let on_click = move |event: MouseEvent| {
        let row = layout.with_value(|layout| {
            layout
                .as_ref()
                .and_then(|layout| layout.row_at(event.offset_x(), event.offset_y()))
        });
        if let Some(tool) =
            row.and_then(|row| rows.with_value(|rows| rows.get(row).map(|r| r.tool.clone())))
        {
            state.route.update(|route| route.filter.tool = Some(tool));
        }
    };
    let on_move = move |event: MouseEvent| {
        let title = layout.with_value(|layout| {
            let mark = layout
                .as_ref()?
                .mark_at(event.offset_x(), event.offset_y(), 8)?;
            let row = rows.with_value(|rows| rows.get(mark.row).cloned())?;
            let metric = match mark.metric {
                PrMetric::Precision => "precision",
                PrMetric::Recall => "recall",
            };
            let interval = mark
                .interval
                .map(|[low, high]| format!(" (95 %: {low:.2}–{high:.2})"))
                .unwrap_or_default();
            Some(format!(
                "{}: {metric} {}{interval}, support {}",
                row.tool,
                mark.value
                    .map_or("–".to_string(), |value| format!("{value:.3}")),
                row.support
            ))
        });
        if let Some(canvas) = canvas.get_untracked() {
            canvas.set_title(&title.unwrap_or_default());
        }
    };
    let export_png = move |_| {
        if let Some(canvas) = canvas.get_untracked() {
            save_png(&canvas, "precision-recall.png");
        }
    };
    let export_svg = move |_| {
        let svg = rows.with_value(|rows| precision_recall_svg(rows, &style.get_untracked()));
        save("precision-recall.svg", "image/svg+xml", svg.as_bytes());
    };
    view! {
        <div class="chart-scroll">
            <canvas
                node_ref=canvas
                class="chart"
                data-testid="pr-chart"
                role="img"
                aria-label="Precision and recall per tool with 95 % Wilson intervals; the per-tool table below has the same numbers."
                on:click=on_click
                on:mousemove=on_move
            ></canvas>
        </div>
        <ExportButtons chart="pr" on_png=export_png on_svg=export_svg/>
    }
}

/// The PNG and SVG buttons under a chart (`export-{chart}-png`, `export-{chart}-svg`).
#[component]
fn ExportButtons(
    chart: &'static str,
    on_png: impl FnMut(MouseEvent) + 'static,
    on_svg: impl FnMut(MouseEvent) + 'static,
) -> impl IntoView {
    view! {
        <div class="toolbar">
            <div class="segmented">
                <button class="button small" data-testid=format!("export-{chart}-png") on:click=on_png>
                    "PNG"
                </button>
                <button class="button small" data-testid=format!("export-{chart}-svg") on:click=on_svg>
                    "SVG"
                </button>
            </div>
        </div>
    }
}
