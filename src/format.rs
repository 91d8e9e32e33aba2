//! How numbers read on the page: rates as percentages with their counts, sizes in bytes.

use toolscope_core::metrics::rate::Rate;

/// "12.5 %", or "n/a" when the rate has no denominator.
pub fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(
        || "n/a".to_string(),
        |rate| format!("{:.1} %", rate * 100.0),
    )
}

/// "3 of 24".
pub fn count_of(rate: &Rate) -> String {
    format!("{} of {}", rate.count, rate.total)
}

/// A value in 0..=1 with three decimals, or a dash.
pub fn decimal(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |value| format!("{value:.3}"))
}

/// "1.2 MB".
pub fn bytes(size: u64) -> String {
    const UNITS: [&str; 4] = ["B", "kB", "MB", "GB"];
    let mut value = size as f64;
    let mut unit = 0;
    while value >= 1000.0 && unit < UNITS.len() - 1 {
        value /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{size} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_show_a_percentage_or_na() {
        assert_eq!(percent(Some(0.125)), "12.5 %");
        assert_eq!(percent(None), "n/a");
        assert_eq!(count_of(&Rate::new(3, 24)), "3 of 24");
    }

    #[test]
    fn sizes_use_decimal_units() {
        assert_eq!(bytes(999), "999 B");
        assert_eq!(bytes(1_500), "1.5 kB");
        assert_eq!(bytes(104_857_600), "104.9 MB");
    }
}
