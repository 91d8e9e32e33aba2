//! The precision and recall chart: markers, whiskers, low support, hit-testing, edge cases.

use plotters::prelude::*;
use toolscope_charts::{
    draw_precision_recall, pr_chart_size, precision_recall_svg, PrLayout, PrMetric, PrStyle, Theme,
};
use toolscope_core::metrics::selection::{tool_row, ToolRow};

fn rows() -> Vec<ToolRow> {
    vec![
        // Called and expected often: both numbers with intervals.
        tool_row("search_web", [40, 5, 3], 10),
        // Three expected turns: low support.
        tool_row("send_email", [2, 0, 1], 10),
        // Only ever called, never expected: precision 0, no recall.
        tool_row("delete_file", [0, 4, 0], 10),
        // Only ever expected, never called: recall 0, no precision.
        tool_row("none", [0, 0, 12], 10),
    ]
}

fn draw(rows: &[ToolRow], style: &PrStyle) -> (PrLayout, String) {
    let mut svg = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut svg, pr_chart_size(rows)).into_drawing_area();
        draw_precision_recall(&root, rows, style).expect("drawing into a string")
    };
    (layout, svg)
}

#[test]
fn every_interval_gets_a_whisker_with_its_caps() {
    let rows = rows();
    let (layout, svg) = draw(&rows, &PrStyle::default());
    let intervals = rows
        .iter()
        .flat_map(|row| [row.precision_ci, row.recall_ci])
        .filter(Option::is_some)
        .count();
    assert_eq!(intervals, 6);
    let whiskers: Vec<_> = layout
        .marks
        .iter()
        .filter_map(|mark| mark.whisker.map(|w| (w, mark.centre.1)))
        .collect();
    assert_eq!(whiskers.len(), intervals);
    for ((x0, x1), y) in whiskers {
        assert!(x0 <= x1);
        assert!(
            svg.contains(&format!("points=\"{x0},{y} {x1},{y} \"")),
            "whisker {x0}..{x1} at {y}"
        );
        for x in [x0, x1] {
            assert!(
                svg.contains(&format!("points=\"{x},{} {x},{} \"", y - 3, y + 3)),
                "cap at {x}"
            );
        }
    }
}

#[test]
fn tools_without_precision_or_recall_get_no_marker_for_it() {
    let rows = rows();
    let (layout, _) = draw(&rows, &PrStyle::default());
    let metrics_of = |row: usize| {
        layout
            .marks
            .iter()
            .filter(|mark| mark.row == row)
            .map(|mark| mark.metric)
            .collect::<Vec<_>>()
    };
    assert_eq!(metrics_of(0), [PrMetric::Precision, PrMetric::Recall]);
    assert_eq!(metrics_of(2), [PrMetric::Precision]);
    assert_eq!(metrics_of(3), [PrMetric::Recall]);
}

#[test]
fn markers_sit_at_their_values_inside_their_whiskers() {
    let rows = rows();
    let (layout, _) = draw(&rows, &PrStyle::default());
    let (zero, one) = layout.axis_x;
    assert!(zero < one);
    for mark in &layout.marks {
        let value = mark
            .value
            .expect("every test row has a value where it has an interval");
        let expected_x = zero + (value * f64::from(one - zero)).round() as i32;
        assert_eq!(mark.centre.0, expected_x);
        if let Some((x0, x1)) = mark.whisker {
            assert!(x0 <= mark.centre.0 && mark.centre.0 <= x1);
        }
        assert_eq!(layout.row_at(mark.centre.0, mark.centre.1), Some(mark.row));
        assert_eq!(
            layout.mark_at(mark.centre.0 + 1, mark.centre.1, 3),
            Some(mark)
        );
    }
}

#[test]
fn low_support_tools_are_hollow_and_labelled_with_their_support() {
    let rows = rows();
    let (layout, svg) = draw(&rows, &PrStyle::default());
    assert!(svg.contains(">\nsend_email (n=3)\n</text>"));
    assert!(
        svg.contains(">\nsearch_web\n</text>"),
        "well-supported tools have no suffix"
    );
    for mark in &layout.marks {
        assert_eq!(mark.is_hollow, rows[mark.row].is_low_support);
    }
    // Hollow circle: the ring is stroked, not filled (legend and the send_email precision).
    let rings = svg.matches("<circle").filter(|_| true).count();
    assert!(rings > 0);
    assert!(svg.contains("fill=\"none\" stroke=\"#1F77B4\""));
}

#[test]
fn every_row_hits_itself_and_points_outside_the_rows_hit_nothing() {
    let rows = rows();
    let (layout, _) = draw(&rows, &PrStyle::default());
    for row in 0..rows.len() {
        let ((left, top), (right, bottom)) = layout.row_rect(row);
        assert_eq!(
            layout.row_at((left + right) / 2, (top + bottom) / 2),
            Some(row)
        );
        assert_eq!(layout.row_at(left, top), Some(row));
        assert_eq!(layout.row_at(right - 1, bottom - 1), Some(row));
    }
    let ((left, top), _) = layout.row_rect(0);
    let (_, (right, bottom)) = layout.row_rect(rows.len() - 1);
    for (x, y) in [
        (left - 1, top),
        (left, top - 1),
        (right, top),
        (left, bottom),
        (-5, -5),
        (i32::MIN, i32::MAX),
        (i32::MAX, i32::MIN),
    ] {
        assert_eq!(layout.row_at(x, y), None, "({x}, {y})");
    }
    assert_eq!(layout.mark_at(-100, -100, 5), None);
    assert_eq!(layout.mark_at(i32::MIN, i32::MAX, i32::MAX), None);
}

#[test]
fn svg_escapes_tool_names_and_cuts_long_ones() {
    let long_name = "a_really_long_tool_name_from_some_mcp_server";
    let rows = vec![
        tool_row("<script>&\"x\"", [5, 1, 1], 3),
        tool_row(long_name, [5, 1, 1], 3),
    ];
    let svg = precision_recall_svg(&rows, &PrStyle::default());
    assert!(svg.contains(">\n&lt;script&gt;&amp;&quot;x&quot;\n</text>"));
    assert!(!svg.contains("<script"));
    assert!(svg.contains(">\na_really_long_tool_name_fro…\n</text>"));
}

#[test]
fn no_rows_draw_a_message() {
    let (layout, svg) = draw(&[], &PrStyle::default());
    assert!(svg.contains("No labelled turns"));
    assert_eq!(layout.row_at(10, 10), None);
    assert!(layout.marks.is_empty());
}

#[test]
fn non_finite_numbers_draw_nothing_and_never_reach_the_svg() {
    let mut broken = tool_row("weird", [3, 1, 1], 10);
    broken.precision = Some(f64::NAN);
    broken.precision_ci = Some([f64::NEG_INFINITY, 0.5]);
    broken.recall = Some(f64::INFINITY);
    broken.recall_ci = Some([0.9, 0.2]);
    let rows = vec![broken];
    let (layout, svg) = draw(&rows, &PrStyle::default());
    assert!(layout
        .marks
        .iter()
        .all(|mark| mark.metric == PrMetric::Recall));
    // The reversed recall interval is put in order; its marker is dropped, the whisker kept.
    assert_eq!(layout.marks.len(), 1);
    assert_eq!(layout.marks[0].interval, Some([0.2, 0.9]));
    assert_eq!(layout.marks[0].value, None);
    for theme in [Theme::Light, Theme::Dark] {
        let svg_themed = precision_recall_svg(
            &rows,
            &PrStyle {
                selected: Some(0),
                theme,
            },
        )
        .to_lowercase();
        assert!(!svg_themed.contains("nan") && !svg_themed.contains("inf"));
        assert!(!svg_themed.contains("0000000"), "float noise");
    }
    assert!(!svg.to_lowercase().contains("nan"));
}

#[test]
fn the_chart_fits_the_size_it_asks_for() {
    let rows: Vec<ToolRow> = (0..40)
        .map(|index| tool_row(&format!("tool_{index}"), [index, 2, 1], 10))
        .collect();
    let (width, height) = pr_chart_size(&rows);
    let (layout, _) = draw(&rows, &PrStyle::default());
    let (_, (right, bottom)) = layout.row_rect(39);
    assert!(right <= width as i32 && bottom < height as i32);
    assert!(layout.axis_x.1 < width as i32);
}
