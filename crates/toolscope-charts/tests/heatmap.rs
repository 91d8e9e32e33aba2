//! The confusion heatmap: hit-testing, what the SVG says, and the edge cases.

use plotters::prelude::*;
use toolscope_charts::text::MAX_LABEL_CHARS;
use toolscope_charts::{
    draw_heatmap, heatmap_size, heatmap_svg, HeatmapLayout, HeatmapScale, HeatmapStyle, Theme,
    HEATMAP_TOOLS,
};
use toolscope_core::metrics::selection::Confusion;

/// `label_count` labels ("none" first) with every cell a different, non-zero count.
fn confusion(label_count: usize) -> Confusion {
    let labels = std::iter::once("none".to_string())
        .chain((1..label_count).map(|index| format!("tool_{index:02}")))
        .collect();
    let matrix: Vec<Vec<u64>> = (0..label_count)
        .map(|row| {
            (0..label_count)
                .map(|col| (row * label_count + col + 1) as u64)
                .collect()
        })
        .collect();
    Confusion::from_rows(labels, &matrix)
}

/// Draws on an SVG backend of `size`, inside a margin when `margin` is non-zero so that the
/// layout has to account for the area's offset.
fn draw(confusion: &Confusion, style: &HeatmapStyle, margin: u32) -> (HeatmapLayout, String) {
    let (width, height) = heatmap_size(confusion, style);
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, (width + 2 * margin, height + 2 * margin))
            .into_drawing_area();
        let area = root.margin(margin, margin, margin, margin);
        draw_heatmap(&area, confusion, style).expect("drawing into a string")
    };
    (layout, svg)
}

/// The SVG backend writes each text on its own line between the tags.
fn has_text(svg: &str, text: &str) -> bool {
    svg.contains(&format!(">\n{text}\n</text>"))
}

fn assert_hit_testing_round_trips(label_count: usize, margin: u32) {
    let confusion = confusion(label_count);
    let (layout, _) = draw(&confusion, &HeatmapStyle::default(), margin);
    assert_eq!(layout.label_count, label_count);
    for row in 0..label_count {
        for col in 0..label_count {
            let ((left, top), (right, bottom)) = layout.cell_rect(row, col);
            let centre = ((left + right) / 2, (top + bottom) / 2);
            assert_eq!(layout.cell_at(centre.0, centre.1), Some((row, col)));
            assert_eq!(layout.cell_at(left, top), Some((row, col)));
            assert_eq!(layout.cell_at(right - 1, bottom - 1), Some((row, col)));
        }
    }
    let ((left, top), _) = layout.cell_rect(0, 0);
    let (_, (right, bottom)) = layout.cell_rect(label_count - 1, label_count - 1);
    for outside in [
        (left - 1, top),
        (left, top - 1),
        (right, top),
        (left, bottom),
        (right, bottom),
        (-1, -1),
        (0, 0),
        (i32::MIN, i32::MAX),
        (i32::MAX, i32::MIN),
    ] {
        assert_eq!(layout.cell_at(outside.0, outside.1), None, "{outside:?}");
    }
}

#[test]
fn every_cell_centre_hits_its_cell_and_points_outside_hit_nothing() {
    for label_count in [1, 3, HEATMAP_TOOLS + 1] {
        assert_hit_testing_round_trips(label_count, 0);
    }
}

#[test]
fn hit_testing_is_in_backend_pixels_when_drawn_in_a_sub_area() {
    assert_hit_testing_round_trips(3, 40);
    let (shifted, _) = draw(&confusion(3), &HeatmapStyle::default(), 40);
    let (unshifted, _) = draw(&confusion(3), &HeatmapStyle::default(), 0);
    assert_eq!(
        shifted.origin,
        (unshifted.origin.0 + 40, unshifted.origin.1 + 40)
    );
}

#[test]
fn many_tools_keep_readable_cells_inside_the_size_asked_for() {
    let confusion = confusion(HEATMAP_TOOLS + 1);
    let style = HeatmapStyle::default();
    let (width, height) = heatmap_size(&confusion, &style);
    let (layout, _) = draw(&confusion, &style, 0);
    assert!(layout.cell_size >= 28, "cell {}", layout.cell_size);
    let (_, (right, bottom)) = layout.cell_rect(HEATMAP_TOOLS, HEATMAP_TOOLS);
    assert!(right <= width as i32 && bottom <= height as i32);
}

#[test]
fn svg_writes_every_label_and_every_count() {
    for label_count in [1, 3, HEATMAP_TOOLS + 1] {
        let confusion = confusion(label_count);
        let svg = heatmap_svg(&confusion, &HeatmapStyle::default());
        for label in &confusion.labels {
            // Once on the rows, once on the columns.
            assert_eq!(
                svg.matches(&format!(">\n{label}\n</text>")).count(),
                2,
                "{label}"
            );
        }
        for count in confusion.dense().iter().flatten() {
            assert!(has_text(&svg, &count.to_string()), "count {count}");
        }
        assert!(has_text(&svg, "expected") && has_text(&svg, "actual (called)"));
    }
}

#[test]
fn svg_escapes_tool_names_from_untrusted_files() {
    let confusion = Confusion::from_rows(
        vec!["<script>&\"x\"".into(), "none".into(), "it's".into()],
        &[vec![1, 0, 0], vec![0, 1, 0], vec![0, 0, 1]],
    );
    let svg = heatmap_svg(&confusion, &HeatmapStyle::default());
    assert!(has_text(&svg, "&lt;script&gt;&amp;&quot;x&quot;"));
    assert!(has_text(&svg, "it&apos;s"));
    assert!(!svg.contains("<script"));
    assert!(!svg.contains("&amp;lt;"), "escaped twice");
}

#[test]
fn long_names_are_cut_with_an_ellipsis() {
    let long_name = format!("mcp__server__{}", "x".repeat(60));
    let confusion = Confusion::from_rows(
        vec![long_name.clone(), "none".into()],
        &[vec![2, 1], vec![0, 4]],
    );
    let svg = heatmap_svg(&confusion, &HeatmapStyle::default());
    let cut: String = long_name.chars().take(MAX_LABEL_CHARS - 1).collect();
    assert!(has_text(&svg, &format!("{cut}…")));
    assert!(!svg.contains(&long_name));
}

#[test]
fn row_normalised_view_writes_row_shares() {
    let confusion = Confusion::from_rows(
        vec!["a".into(), "b".into(), "none".into()],
        &[vec![3, 1, 0], vec![0, 0, 0], vec![1, 1, 1]],
    );
    let style = HeatmapStyle {
        scale: HeatmapScale::RowNormalised,
        ..HeatmapStyle::default()
    };
    let svg = heatmap_svg(&confusion, &style);
    for share in ["75%", "25%", "0%", "33%"] {
        assert!(has_text(&svg, share), "{share}");
    }
    // The row of a tool never expected has no shares, not NaN.
    assert_eq!(svg.matches(">\n–\n</text>").count(), 3);
    assert!(
        !has_text(&svg, "3"),
        "counts are not written in the row-normalised view"
    );
}

#[test]
fn empty_confusion_draws_a_message_and_hits_nothing() {
    let confusion = Confusion::from_rows(vec![], &[]);
    let style = HeatmapStyle::default();
    let (layout, svg) = draw(&confusion, &style, 0);
    assert!(svg.contains("No labelled turns"));
    assert_eq!(layout.cell_at(0, 0), None);
    assert_eq!(layout.cell_at(10, 10), None);
    let (width, height) = heatmap_size(&confusion, &style);
    assert!(width > 0 && height > 0);
}

#[test]
fn thousands_of_tools_draw_the_busiest_and_one_row_and_column_for_the_rest() {
    // One turn per hallucinated name, and a busy diagonal for the first 40 tools.
    let labels: Vec<String> = (0..3_000).map(|index| format!("t{index:04}")).collect();
    let counts = (0..3_000)
        .map(|index| (index % 40, index, 1))
        .chain((0..40).map(|index| (index, index, 100)));
    let confusion = Confusion::from_counts(labels, counts);
    let style = HeatmapStyle::default();
    let (layout, svg) = draw(&confusion, &style, 0);
    assert_eq!(layout.label_count, HEATMAP_TOOLS + 1);
    let other = format!("other ({} tools)", 3_000 - HEATMAP_TOOLS);
    assert_eq!(svg.matches(&format!(">\n{other}\n</text>")).count(), 2);
    let (width, height) = heatmap_size(&confusion, &style);
    assert!(width < 4_000 && height < 4_000, "{width} × {height}");
}

#[test]
fn cells_past_the_labels_are_left_out() {
    let confusion = Confusion {
        labels: vec!["a".into(), "b".into()],
        cells: vec![toolscope_core::metrics::selection::ConfusionCell {
            expected: 7,
            actual: 0,
            count: 3,
        }],
        grouped: Vec::new(),
    };
    assert!(heatmap_svg(&confusion, &HeatmapStyle::default()).ends_with("</svg>\n"));
}

#[test]
fn a_matrix_shorter_than_its_labels_reads_missing_cells_as_zero() {
    let confusion = Confusion::from_rows(vec!["a".into(), "b".into()], &[vec![5]]);
    for scale in [HeatmapScale::Counts, HeatmapScale::RowNormalised] {
        let svg = heatmap_svg(
            &confusion,
            &HeatmapStyle {
                scale,
                ..HeatmapStyle::default()
            },
        );
        assert!(svg.ends_with("</svg>\n"));
    }
}

#[test]
fn numbers_are_never_nan_or_infinite() {
    let zeros = Confusion::from_rows(vec!["a".into(), "none".into()], &[vec![0, 0], vec![0, 0]]);
    for confusion in [zeros, confusion(1), confusion(HEATMAP_TOOLS + 1)] {
        for scale in [HeatmapScale::Counts, HeatmapScale::RowNormalised] {
            for theme in [Theme::Light, Theme::Dark] {
                let style = HeatmapStyle {
                    scale,
                    selected: Some((0, 0)),
                    theme,
                };
                let svg = heatmap_svg(&confusion, &style).to_lowercase();
                assert!(!svg.contains("nan") && !svg.contains("inf"), "{style:?}");
                assert!(!svg.contains("0000000"), "float noise in {style:?}");
            }
        }
    }
}

#[test]
fn the_selected_cell_is_outlined_and_a_selection_outside_the_grid_is_ignored() {
    let confusion = confusion(3);
    let highlight = "stroke=\"#D6336C\"";
    let selected = HeatmapStyle {
        selected: Some((1, 2)),
        ..HeatmapStyle::default()
    };
    assert!(heatmap_svg(&confusion, &selected).contains(highlight));
    let out_of_range = HeatmapStyle {
        selected: Some((7, 0)),
        ..HeatmapStyle::default()
    };
    assert!(!heatmap_svg(&confusion, &out_of_range).contains(highlight));
}

#[test]
fn an_area_smaller_than_asked_for_still_draws_at_the_minimum_cell_size() {
    let confusion = confusion(10);
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, (100, 100)).into_drawing_area();
        draw_heatmap(&root, &confusion, &HeatmapStyle::default()).expect("drawing into a string")
    };
    assert!(layout.cell_size >= 28);
    assert_eq!(
        layout.cell_at(layout.origin.0, layout.origin.1),
        Some((0, 0))
    );
}
