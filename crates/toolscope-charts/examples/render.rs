//! Writes both charts as SVG for a look in a browser:
//! `cargo run -p toolscope-charts --example render -- OUT_DIR [TOOL_COUNT]`.

use std::path::PathBuf;

use toolscope_charts::{
    heatmap_svg, precision_recall_svg, HeatmapScale, HeatmapStyle, PrStyle, Theme,
};
use toolscope_core::metrics::selection::{tool_row, Confusion};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let out_dir = PathBuf::from(args.next().unwrap_or_else(|| ".".to_string()));
    let tool_count: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(6);
    std::fs::create_dir_all(&out_dir)?;

    let labels: Vec<String> = std::iter::once("none".to_string())
        .chain((1..tool_count).map(|index| match index {
            1 => "<script>&\"x\"".to_string(),
            2 => "mcp__filesystem__read_text_file_with_a_long_name".to_string(),
            _ => format!("tool_{index:02}"),
        }))
        .collect();
    // A strong diagonal with a few confusions, some rows with few turns.
    let matrix: Vec<Vec<u64>> = (0..tool_count)
        .map(|row| {
            (0..tool_count)
                .map(|col| match (row, col) {
                    _ if row == col => (row as u64 * 7) % 40 + 2,
                    _ if (row + 2 * col) % 7 == 0 => (row + col) as u64 % 4,
                    _ => 0,
                })
                .collect()
        })
        .collect();
    let rows: Vec<_> = labels
        .iter()
        .enumerate()
        .map(|(index, tool)| {
            let tp = matrix[index][index];
            let fp: u64 = (0..tool_count)
                .filter(|&r| r != index)
                .map(|r| matrix[r][index])
                .sum();
            let fn_: u64 = (0..tool_count)
                .filter(|&c| c != index)
                .map(|c| matrix[index][c])
                .sum();
            tool_row(tool, [tp, fp, fn_], 10)
        })
        .collect();
    let confusion = Confusion::from_rows(labels, &matrix);

    for theme in [Theme::Light, Theme::Dark] {
        for scale in [HeatmapScale::Counts, HeatmapScale::RowNormalised] {
            let style = HeatmapStyle {
                scale,
                selected: Some((1, 2)),
                theme,
            };
            let name = format!("heatmap-{scale:?}-{theme:?}.svg").to_lowercase();
            std::fs::write(out_dir.join(name), heatmap_svg(&confusion, &style))?;
        }
        let style = PrStyle {
            selected: Some(1),
            theme,
        };
        let name = format!("precision-recall-{theme:?}.svg").to_lowercase();
        std::fs::write(out_dir.join(name), precision_recall_svg(&rows, &style))?;
    }
    Ok(())
}
