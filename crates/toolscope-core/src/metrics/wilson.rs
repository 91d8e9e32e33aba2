//! Wilson score intervals: a confidence interval for a proportion that stays inside [0, 1] and
//! behaves at small counts, where the normal approximation does not.

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided 95 % Wilson interval of `successes` out of `trials`, or None for 0 trials.
pub fn wilson_95(successes: u64, trials: u64) -> Option<[f64; 2]> {
    wilson(successes, trials, 0.95)
}

/// The two-sided Wilson interval at `confidence` (e.g. 0.95); None without trials, and for
/// more successes than trials (an impossible count, as a report written by hand can hold).
pub fn wilson(successes: u64, trials: u64, confidence: f64) -> Option<[f64; 2]> {
    if trials == 0 || successes > trials {
        return None;
    }
    let z = Normal::standard().inverse_cdf(1.0 - (1.0 - confidence) / 2.0);
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denominator;
    let half = z / denominator * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // Rounding in `center ± half` can leave the estimate itself just outside at 0 or n
    // successes; the interval always contains it.
    Some([(center - half).clamp(0.0, p), (center + half).clamp(p, 1.0)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn matches_statsmodels_proportion_confint_wilson() {
        // statsmodels.stats.proportion.proportion_confint(k, n, alpha=0.05, method="wilson")
        let reference = [
            (7, 10, [0.396_778_147_461_145_4, 0.892_208_732_593_698_9]),
            (0, 5, [0.0, 0.434_482_464_783_174_87]),
            (1, 1, [0.206_549_314_377_237_4, 1.0]),
            (33, 100, [0.245_631_227_341_280_3, 0.426_946_562_049_094_76]),
        ];
        for (k, n, [low, high]) in reference {
            let [ours_low, ours_high] = wilson_95(k, n).unwrap();
            assert!(
                close(ours_low, low) && close(ours_high, high),
                "{k}/{n}: {ours_low} {ours_high}"
            );
        }
    }

    #[test]
    fn no_trials_no_interval() {
        assert_eq!(wilson_95(0, 0), None);
    }
}
