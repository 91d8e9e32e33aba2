//! How numbers read in the report: the page's wording, every rate with the counts behind it.

use toolscope_core::metrics::rate::Rate;

/// "12.5 %", or "n/a" when the rate has no denominator.
pub(crate) fn percent(rate: Option<f64>) -> String {
    rate.map_or_else(
        || "n/a".to_string(),
        |rate| format!("{:.1} %", rate * 100.0),
    )
}

/// "12.5 % (3 of 24)", or "n/a (0 of 0)".
pub(crate) fn rate_with_counts(rate: &Rate) -> String {
    format!("{} ({} of {})", percent(rate.rate), rate.count, rate.total)
}

/// A value in 0..=1 with three decimals, or a dash when there is none.
pub(crate) fn decimal(value: Option<f64>) -> String {
    value.map_or_else(|| "–".to_string(), |value| format!("{value:.3}"))
}

/// A 95 % interval as "0.21–0.67", or nothing when there is none.
pub(crate) fn interval(bounds: Option<[f64; 2]>) -> String {
    bounds.map_or_else(String::new, |[low, high]| format!("{low:.2}–{high:.2}"))
}

/// "1 call", "2 calls": the count and the noun that agrees with it.
pub(crate) fn count_of(count: u64, singular: &str, plural: &str) -> String {
    format!("{count} {}", if count == 1 { singular } else { plural })
}

#[cfg(test)]
mod tests {
    use toolscope_core::metrics::rate::Rate;

    use super::*;

    #[test]
    fn rates_read_as_a_percentage_with_their_counts() {
        assert_eq!(rate_with_counts(&Rate::new(3, 24)), "12.5 % (3 of 24)");
        assert_eq!(rate_with_counts(&Rate::new(0, 0)), "n/a (0 of 0)");
        assert_eq!(percent(Some(2.0 / 3.0)), "66.7 %");
    }

    #[test]
    fn ratios_have_three_decimals_and_a_dash_when_undefined() {
        assert_eq!(decimal(Some(1.0 / 3.0)), "0.333");
        assert_eq!(decimal(None), "–");
        assert_eq!(interval(Some([0.2065, 0.6667])), "0.21–0.67");
        assert_eq!(interval(None), "");
    }

    #[test]
    fn counts_agree_with_their_noun() {
        assert_eq!(count_of(1, "call", "calls"), "1 call");
        assert_eq!(count_of(0, "call", "calls"), "0 calls");
        assert_eq!(count_of(2, "call", "calls"), "2 calls");
    }
}
