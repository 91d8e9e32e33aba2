//! Colours for both charts, light and dark: a sequential blue scale for the heatmap and two
//! series colours (blue and orange, told apart by colour-blind readers) for precision and recall.

use plotters::style::RGBColor;

/// Which page theme the chart sits on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Theme {
    /// Dark text on white.
    #[default]
    Light,
    /// Light text on a near-black background.
    Dark,
}

/// The colours a chart needs, resolved from a [`Theme`].
#[derive(Debug, Clone, Copy)]
pub(crate) struct Palette {
    pub background: RGBColor,
    pub text: RGBColor,
    pub muted_text: RGBColor,
    pub grid: RGBColor,
    pub stripe: RGBColor,
    pub empty_cell: RGBColor,
    pub highlight: RGBColor,
    pub precision: RGBColor,
    pub recall: RGBColor,
    /// Ends of the heatmap scale: the smallest non-zero value and the largest.
    scale_low: RGBColor,
    scale_high: RGBColor,
}

impl Palette {
    pub fn of(theme: Theme) -> Self {
        match theme {
            Theme::Light => Palette {
                background: RGBColor(255, 255, 255),
                text: RGBColor(33, 37, 41),
                muted_text: RGBColor(108, 117, 125),
                grid: RGBColor(222, 226, 230),
                stripe: RGBColor(246, 247, 249),
                empty_cell: RGBColor(248, 249, 250),
                highlight: RGBColor(214, 51, 108),
                precision: RGBColor(31, 119, 180),
                recall: RGBColor(230, 115, 0),
                scale_low: RGBColor(222, 235, 247),
                scale_high: RGBColor(8, 48, 107),
            },
            Theme::Dark => Palette {
                background: RGBColor(24, 26, 31),
                text: RGBColor(230, 232, 235),
                muted_text: RGBColor(150, 156, 165),
                grid: RGBColor(60, 64, 72),
                stripe: RGBColor(32, 35, 41),
                empty_cell: RGBColor(34, 37, 43),
                highlight: RGBColor(255, 110, 160),
                precision: RGBColor(100, 170, 230),
                recall: RGBColor(255, 160, 70),
                scale_low: RGBColor(38, 60, 92),
                scale_high: RGBColor(158, 202, 238),
            },
        }
    }

    /// Fill for a cell whose value sits at `level` in [0, 1] of the scale; `None` (no value or
    /// zero) gets the empty-cell colour so that zeros stand apart from small counts.
    pub fn cell_fill(&self, level: Option<f64>) -> RGBColor {
        match level {
            Some(level) if level > 0.0 => mix(self.scale_low, self.scale_high, level),
            _ => self.empty_cell,
        }
    }

    /// Text colour readable on [`Palette::cell_fill`] of the same level.
    pub fn cell_text(&self, level: Option<f64>) -> RGBColor {
        match level {
            None => self.muted_text,
            Some(level) if level <= 0.0 => self.muted_text,
            Some(level) => {
                if luminance(self.cell_fill(Some(level))) > 0.45 {
                    RGBColor(20, 24, 28)
                } else {
                    RGBColor(255, 255, 255)
                }
            }
        }
    }
}

/// Linear blend from `from` (at 0) to `to` (at 1); `t` is clamped and NaN counts as 0.
fn mix(from: RGBColor, to: RGBColor, t: f64) -> RGBColor {
    let t = if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let channel = |a: u8, b: u8| (f64::from(a) + (f64::from(b) - f64::from(a)) * t).round() as u8;
    RGBColor(
        channel(from.0, to.0),
        channel(from.1, to.1),
        channel(from.2, to.2),
    )
}

/// Relative luminance in [0, 1], close enough to WCAG's for picking black or white text.
fn luminance(colour: RGBColor) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(colour.0) + 0.7152 * linear(colour.1) + 0.0722 * linear(colour.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_cells_differ_from_the_smallest_nonzero_cell() {
        for theme in [Theme::Light, Theme::Dark] {
            let palette = Palette::of(theme);
            assert_ne!(palette.cell_fill(Some(0.0)), palette.cell_fill(Some(0.01)));
            assert_eq!(palette.cell_fill(None), palette.empty_cell);
        }
    }

    #[test]
    fn cell_text_contrasts_with_the_darkest_and_lightest_fills() {
        let palette = Palette::of(Theme::Light);
        assert_eq!(palette.cell_text(Some(1.0)), RGBColor(255, 255, 255));
        assert_eq!(palette.cell_text(Some(0.05)), RGBColor(20, 24, 28));
    }

    #[test]
    fn mixing_ignores_nan_and_clamps() {
        let (a, b) = (RGBColor(0, 0, 0), RGBColor(200, 100, 50));
        assert_eq!(mix(a, b, f64::NAN), a);
        assert_eq!(mix(a, b, 2.0), b);
        assert_eq!(mix(a, b, 0.5), RGBColor(100, 50, 25));
    }
}
