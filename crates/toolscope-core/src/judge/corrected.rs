//! The judge's pass rate corrected for the judge's own errors (Rogan and Gladen 1978).
//!
//! A judge's pass rate is the judge's, not the truth: a judge that passes 10 % of the failures it
//! sees and fails 5 % of the passes reports a rate off by both. Where human verdicts exist, the
//! calibration measures the judge's **sensitivity** (Se: of the items the human passed, the share
//! the judge passed) and **specificity** (Sp: of the items the human failed, the share the judge
//! failed), and the true pass rate π follows from the observed one p:
//!
//! ```text
//! p = Se·π + (1 − Sp)·(1 − π)   ⇒   π = (p + Sp − 1) / (Se + Sp − 1)
//! ```
//!
//! clamped to [0, 1]. It is undefined when Se + Sp ≤ 1 (the judge tells passes from failures no
//! better than a coin: Youden's J ≤ 0) or when the human gave no pass or no fail to measure one of
//! them. Its standard error carries the uncertainty of all three estimates (the delta method,
//! as in Greiner and Gardner 2000 and Lang and Reiczigel 2014), treating them as independent
//! binomial proportions over n judged items, n_pass human passes and n_fail human fails:
//!
//! ```text
//! Var(π) = [ p(1 − p)/n + π²·Se(1 − Se)/n_pass + (1 − π)²·Sp(1 − Sp)/n_fail ] / J²
//! ```
//!
//! and the 95 % interval is π ± 1.96·SE, clamped to [0, 1].

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use super::calibration::Confusion;

/// The judge's pass rate on one criterion, corrected for its sensitivity and specificity.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CorrectedPassRate {
    /// The judge's own pass rate, pass / (pass + fail) over all its scored verdicts.
    pub observed: Option<f64>,
    /// The judge's scored verdicts the observed rate is over.
    pub judged: u64,
    /// Of the paired items the human passed, the share the judge passed.
    pub sensitivity: Option<f64>,
    /// Of the paired items the human failed, the share the judge failed.
    pub specificity: Option<f64>,
    /// The corrected pass rate; None when undefined (see `note`).
    pub corrected: Option<f64>,
    /// Its standard error (delta method).
    pub standard_error: Option<f64>,
    /// Its 95 % interval.
    pub interval: Option<[f64; 2]>,
    /// Why it is undefined, or what to keep in mind.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// The correction of a judge that passed `pass` and failed `fail` items, given its confusion
/// with the human on the paired items.
pub fn corrected_pass_rate(pass: u64, fail: u64, confusion: &Confusion) -> CorrectedPassRate {
    let judged = pass + fail;
    let share = |count: u64, total: u64| (total > 0).then(|| count as f64 / total as f64);
    let human_pass = confusion.both_pass + confusion.judge_fail_human_pass;
    let human_fail = confusion.judge_pass_human_fail + confusion.both_fail;
    let observed = share(pass, judged);
    let sensitivity = share(confusion.both_pass, human_pass);
    let specificity = share(confusion.both_fail, human_fail);
    let mut corrected = CorrectedPassRate {
        observed,
        judged,
        sensitivity,
        specificity,
        corrected: None,
        standard_error: None,
        interval: None,
        note: None,
    };
    let (Some(p), Some(se), Some(sp)) = (observed, sensitivity, specificity) else {
        corrected.note = Some(
            match (observed, sensitivity) {
                (None, _) => "undefined: the judge scored no item",
                (_, None) => "undefined: the human passed no paired item, so the judge's sensitivity is unknown",
                _ => "undefined: the human failed no paired item, so the judge's specificity is unknown",
            }
            .to_string(),
        );
        return corrected;
    };
    let youden = se + sp - 1.0;
    if youden <= 0.0 {
        corrected.note = Some(format!(
            "undefined: sensitivity + specificity = {:.3} ≤ 1, the judge tells passes from \
             failures no better than chance",
            se + sp
        ));
        return corrected;
    }
    let pi = ((p + sp - 1.0) / youden).clamp(0.0, 1.0);
    let variance = (p * (1.0 - p) / judged as f64
        + pi * pi * se * (1.0 - se) / human_pass as f64
        + (1.0 - pi) * (1.0 - pi) * sp * (1.0 - sp) / human_fail as f64)
        / (youden * youden);
    let error = variance.sqrt();
    let z = Normal::standard().inverse_cdf(0.975);
    corrected.corrected = Some(pi);
    corrected.standard_error = Some(error);
    corrected.interval = Some([(pi - z * error).max(0.0), (pi + z * error).min(1.0)]);
    corrected
}

#[cfg(test)]
mod tests {
    use super::*;

    fn confusion(
        both_pass: u64,
        judge_fail_human_pass: u64,
        judge_pass_human_fail: u64,
        both_fail: u64,
    ) -> Confusion {
        Confusion {
            both_pass,
            judge_fail_human_pass,
            judge_pass_human_fail,
            both_fail,
        }
    }

    #[test]
    fn a_judge_that_passes_failures_is_corrected_down() {
        // Se = 90/100 = 0.9, Sp = 80/100 = 0.8; observed 0.62 → π = (0.62 + 0.8 − 1) / 0.7 = 0.6.
        let rate = corrected_pass_rate(620, 380, &confusion(90, 10, 20, 80));
        assert_eq!(rate.sensitivity, Some(0.9));
        assert_eq!(rate.specificity, Some(0.8));
        let pi = rate.corrected.unwrap();
        assert!((pi - 0.6).abs() < 1e-12, "{pi}");
        // The variance by hand: [0.62·0.38/1000 + 0.36·0.09/100 + 0.16·0.16/100] / 0.49.
        let variance: f64 =
            (0.62 * 0.38 / 1000.0 + 0.36 * 0.09 / 100.0 + 0.16 * 0.16 / 100.0) / 0.49;
        assert!((rate.standard_error.unwrap() - variance.sqrt()).abs() < 1e-12);
        let [low, high] = rate.interval.unwrap();
        assert!(
            low < 0.6
                && 0.6 < high
                && (high - low - 2.0 * 1.959963984540054 * variance.sqrt()).abs() < 1e-9
        );
    }

    #[test]
    fn a_perfect_judge_leaves_the_rate_and_its_binomial_error() {
        let rate = corrected_pass_rate(30, 70, &confusion(5, 0, 0, 5));
        assert!((rate.corrected.unwrap() - 0.3).abs() < 1e-12);
        assert!((rate.standard_error.unwrap() - (0.3f64 * 0.7 / 100.0).sqrt()).abs() < 1e-12);
    }

    #[test]
    fn undefined_when_the_judge_is_no_better_than_chance_or_a_class_is_missing() {
        let coin = corrected_pass_rate(50, 50, &confusion(5, 5, 5, 5));
        assert_eq!(coin.corrected, None);
        assert!(coin.note.unwrap().contains("no better than chance"));
        let no_fails = corrected_pass_rate(50, 50, &confusion(5, 5, 0, 0));
        assert!(no_fails.note.unwrap().contains("specificity"));
        let no_passes = corrected_pass_rate(50, 50, &confusion(0, 0, 5, 5));
        assert!(no_passes.note.unwrap().contains("sensitivity"));
        let nothing = corrected_pass_rate(0, 0, &confusion(5, 0, 0, 5));
        assert!(nothing.note.unwrap().contains("scored no item"));
    }

    #[test]
    fn the_estimate_is_clamped_to_a_rate() {
        // Observed below 1 − Sp: the formula gives a negative rate.
        let rate = corrected_pass_rate(5, 95, &confusion(9, 1, 2, 8));
        assert_eq!(rate.corrected, Some(0.0));
        assert!(rate.interval.unwrap()[0] >= 0.0);
    }
}
