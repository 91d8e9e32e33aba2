//! The tests and intervals behind a comparison of two runs. Each is checked against SciPy in
//! `tests/compare_stats.rs` (and Newcombe's published examples for his interval).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};
use strength_reduce::StrengthReducedU64;

use crate::metrics::wilson::wilson;

/// The two-sided p-value of the exact McNemar test on paired yes/no outcomes, from the discordant
/// pairs only: `worse` cases right in the baseline and wrong now, `better` the other way. Under
/// no change each discordant pair is equally likely to go either way, so the smaller count is
/// Binomial(worse + better, ½): p = min(1, 2·P(X ≤ min)). With no discordant pair, p = 1.
pub fn mcnemar_exact(worse: u64, better: u64) -> f64 {
    let discordant = worse + better;
    if discordant == 0 {
        return 1.0;
    }
    let binomial = Binomial::new(0.5, discordant).expect("p = 0.5 and n > 0 make a binomial");
    (2.0 * binomial.cdf(worse.min(better))).min(1.0)
}

/// A two-proportion z-test (pooled), two-sided: `(z, p)` for `x1 / n1` against `x2 / n2`, or
/// None when either run has no cases or the pooled rate is 0 or 1 (no variance to test).
pub fn two_proportion_z(x1: u64, n1: u64, x2: u64, n2: u64) -> Option<(f64, f64)> {
    if n1 == 0 || n2 == 0 {
        return None;
    }
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let pooled = (x1 + x2) as f64 / (n1 + n2) as f64;
    let variance = pooled * (1.0 - pooled) * (1.0 / n1 as f64 + 1.0 / n2 as f64);
    if variance <= 0.0 {
        return None;
    }
    let z = (p2 - p1) / variance.sqrt();
    let normal = Normal::standard();
    Some((z, 2.0 * normal.sf(z.abs())))
}

/// Newcombe's hybrid score interval (his method 10, 1998) for the difference `x2/n2 - x1/n1` of
/// two independent proportions, at 95 %: built from each proportion's Wilson interval, so it
/// stays inside [-1, 1] and behaves at 0 and 1, where the Wald interval does not. None when
/// either run has no cases.
pub fn newcombe_difference(x1: u64, n1: u64, x2: u64, n2: u64) -> Option<[f64; 2]> {
    newcombe_difference_at(x1, n1, x2, n2, 0.95)
}

/// [`newcombe_difference`] at `confidence` (1 − α): from the two Wilson intervals at that level.
pub fn newcombe_difference_at(
    x1: u64,
    n1: u64,
    x2: u64,
    n2: u64,
    confidence: f64,
) -> Option<[f64; 2]> {
    let [l1, u1] = wilson(x1, n1, confidence)?;
    let [l2, u2] = wilson(x2, n2, confidence)?;
    let (p1, p2) = (x1 as f64 / n1 as f64, x2 as f64 / n2 as f64);
    let difference = p2 - p1;
    let lower = difference - ((p2 - l2).powi(2) + (u1 - p1).powi(2)).sqrt();
    let upper = difference + ((u2 - p2).powi(2) + (p1 - l1).powi(2)).sqrt();
    Some([lower, upper])
}

/// Holm's step-down adjustment of p-values for testing many hypotheses at once (one per tool):
/// sorted ascending, the i-th smallest (0-based) is multiplied by m − i, made non-decreasing,
/// and capped at 1. The adjusted values come back in the input's order; compare them with the
/// level (0.05) as they are.
pub fn holm(p_values: &[f64]) -> Vec<f64> {
    let count = p_values.len();
    let mut order: Vec<usize> = (0..count).collect();
    crate::sort::sort_by(&mut order, |&a, &b| p_values[a].total_cmp(&p_values[b]));
    let mut adjusted = vec![0.0; count];
    let mut running = 0.0f64;
    for (rank, &index) in order.iter().enumerate() {
        let value = (p_values[index] * (count - rank) as f64).min(1.0);
        running = running.max(value);
        adjusted[index] = running;
    }
    adjusted
}

/// A percentile bootstrap of a paired difference: `cases` are (baseline, current) values per
/// case (a session's F1 contribution, say), resampled with replacement `resamples` times with a
/// ChaCha8 generator seeded by `seed` (the seed goes in the output, so a result can be
/// reproduced); the statistic is `statistic(current) - statistic(baseline)` over each resample.
/// Returns the 2.5th and 97.5th percentiles (of the resamples where the statistic is defined:
/// NaN ones are left out), or None with no cases, no resamples or no defined value.
pub fn paired_bootstrap<T>(
    cases: &[T],
    resamples: usize,
    seed: u64,
    statistic: impl Fn(&[&T]) -> f64,
) -> Option<[f64; 2]> {
    let mut sample: Vec<&T> = Vec::with_capacity(cases.len());
    paired_bootstrap_by(cases.len(), resamples, seed, 0.95, |draws| {
        sample.clear();
        sample.extend(draws.map(|index| &cases[index]));
        statistic(&sample)
    })
}

/// [`paired_bootstrap`] of `len` cases told to `statistic` as the indices each resample draws,
/// in the order drawn, so that a statistic that sums can sum as it goes instead of collecting
/// the resample first: the same draws, so the same interval, as [`paired_bootstrap`]; the
/// interval at `confidence` (1 − α: the α/2 and 1 − α/2 percentiles).
pub fn paired_bootstrap_by(
    len: usize,
    resamples: usize,
    seed: u64,
    confidence: f64,
    mut statistic: impl FnMut(Draws<'_>) -> f64,
) -> Option<[f64; 2]> {
    if len == 0 || resamples == 0 {
        return None;
    }
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let below = Below::new(len);
    let mut values: Vec<f64> = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        values.push(statistic(Draws {
            generator: &mut generator,
            below: &below,
            left: len,
        }));
    }
    interval_of(values, confidence)
}

/// One resample's draws: indices below the number of cases, uniform, with replacement.
pub struct Draws<'g> {
    generator: &'g mut ChaCha8Rng,
    below: &'g Below,
    left: usize,
}

impl Iterator for Draws<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        Some(self.below.draw(self.generator))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

/// The percentile interval at `confidence` of bootstrap values, leaving out resamples where the
/// statistic is undefined (NaN: a ratio with nothing under it in that resample); None when none
/// is defined.
fn interval_of(mut values: Vec<f64>, confidence: f64) -> Option<[f64; 2]> {
    values.retain(|value| value.is_finite());
    if values.is_empty() {
        return None;
    }
    crate::sort::sort_by(&mut values, f64::total_cmp);
    let tail = (1.0 - confidence) / 2.0;
    Some([percentile(&values, tail), percentile(&values, 1.0 - tail)])
}

/// A percentile bootstrap of a difference between two independent runs: each resample draws
/// `before.len()` cases from `before` and `after.len()` from `after`, with replacement, from one
/// ChaCha8 generator seeded by `seed` (before's draws first); the statistic is given both
/// resamples. Resamples where it is NaN are left out. The interval at `confidence`; None with an
/// empty side or no resamples.
pub fn unpaired_bootstrap<T>(
    before: &[T],
    after: &[T],
    resamples: usize,
    seed: u64,
    confidence: f64,
    statistic: impl Fn(&[&T], &[&T]) -> f64,
) -> Option<[f64; 2]> {
    if before.is_empty() || after.is_empty() || resamples == 0 {
        return None;
    }
    let mut generator = ChaCha8Rng::seed_from_u64(seed);
    let (below_before, below_after) = (Below::new(before.len()), Below::new(after.len()));
    let mut first: Vec<&T> = Vec::with_capacity(before.len());
    let mut second: Vec<&T> = Vec::with_capacity(after.len());
    let mut values: Vec<f64> = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        first.clear();
        second.clear();
        for _ in 0..before.len() {
            first.push(&before[below_before.draw(&mut generator)]);
        }
        for _ in 0..after.len() {
            second.push(&after[below_after.draw(&mut generator)]);
        }
        values.push(statistic(&first, &second));
    }
    interval_of(values, confidence)
}

/// Indices in `0..bound`, without modulo bias: rejection sampling on 64 bits, then the
/// remainder. The bound's two divisions are made once (`zone`, and the divisor strength-reduced
/// to multiplications): a comparison's bootstrap draws millions of indices below one bound.
struct Below {
    zone: u64,
    bound: StrengthReducedU64,
}

impl Below {
    fn new(bound: usize) -> Below {
        let bound = bound as u64;
        Below {
            zone: u64::MAX - (u64::MAX % bound),
            bound: StrengthReducedU64::new(bound),
        }
    }

    #[inline]
    fn draw(&self, generator: &mut ChaCha8Rng) -> usize {
        loop {
            let value = generator.next_u64();
            if value < self.zone {
                return (value % self.bound) as usize;
            }
        }
    }
}

/// The `share` percentile of sorted values, interpolating linearly between neighbours (NumPy's
/// default, `method="linear"`).
fn percentile(sorted: &[f64], share: f64) -> f64 {
    let position = share * (sorted.len() - 1) as f64;
    let below = position.floor() as usize;
    let above = position.ceil() as usize;
    let weight = position - below as f64;
    sorted[below] + (sorted[above] - sorted[below]) * weight
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mcnemar_is_one_without_discordant_pairs_and_symmetric() {
        assert_eq!(mcnemar_exact(0, 0), 1.0);
        assert_eq!(mcnemar_exact(3, 9), mcnemar_exact(9, 3));
        assert_eq!(mcnemar_exact(5, 5), 1.0);
        // All 10 discordant pairs one way: 2 / 2^10.
        assert!((mcnemar_exact(10, 0) - 2.0 / 1024.0).abs() < 1e-15);
    }

    #[test]
    fn newcombe_reproduces_his_published_example() {
        // Newcombe (1998), Statistics in Medicine 17:873–890, table II, example (a):
        // 56/70 against 48/80, method 10: 0.0524 to 0.3339 (for p1 − p2).
        let [lower, upper] = newcombe_difference(48, 80, 56, 70).unwrap();
        assert!((lower - 0.0524).abs() < 5e-5, "{lower}");
        assert!((upper - 0.3339).abs() < 5e-5, "{upper}");
    }

    #[test]
    fn holm_multiplies_by_the_hypotheses_left_and_keeps_order() {
        let adjusted = holm(&[0.01, 0.04, 0.03, 0.005]);
        // Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 = 0.04 → 0.06 (monotone).
        let expected = [0.03, 0.06, 0.06, 0.02];
        for (got, want) in adjusted.iter().zip(expected) {
            assert!((got - want).abs() < 1e-12, "{adjusted:?}");
        }
        assert_eq!(holm(&[0.9, 0.8]), vec![1.0, 1.0]);
        assert!(holm(&[]).is_empty());
    }

    #[test]
    fn the_bootstrap_is_reproducible_by_seed_and_zero_for_identical_runs() {
        let cases: Vec<(f64, f64)> = (0..50)
            .map(|index| (index as f64, index as f64 + 1.0))
            .collect();
        let mean_delta = |sample: &[&(f64, f64)]| {
            sample.iter().map(|(base, now)| now - base).sum::<f64>() / sample.len() as f64
        };
        assert_eq!(
            paired_bootstrap(&cases, 500, 7, mean_delta),
            Some([1.0, 1.0])
        );
        // Spread values, so that percentiles of different resamples differ.
        let noisy: Vec<(f64, f64)> = (0..40)
            .map(|index| (0.0, ((index * 7_919) % 101) as f64 / 101.0))
            .collect();
        let true_mean = noisy.iter().map(|(_, now)| now).sum::<f64>() / 40.0;
        let first = paired_bootstrap(&noisy, 1_000, 42, mean_delta).unwrap();
        assert_eq!(
            paired_bootstrap(&noisy, 1_000, 42, mean_delta).unwrap(),
            first
        );
        assert_ne!(
            paired_bootstrap(&noisy, 1_000, 43, mean_delta).unwrap(),
            first
        );
        assert!(first[0] < true_mean && true_mean < first[1], "{first:?}");
        assert_eq!(paired_bootstrap(&noisy, 0, 1, mean_delta), None);
    }

    #[test]
    fn the_strength_reduced_remainder_is_the_remainder() {
        let mut generator = ChaCha8Rng::seed_from_u64(3);
        let bounds = [
            1,
            2,
            3,
            7,
            64,
            1_000,
            48_744,
            1 << 32,
            (1 << 32) + 1,
            u64::MAX / 3,
        ];
        for bound in bounds {
            let below = Below::new(bound as usize);
            assert_eq!(
                below.zone,
                u64::MAX - (u64::MAX % bound),
                "zone below {bound}"
            );
            for value in (0..2_000).map(|_| generator.next_u64()).chain([
                0,
                1,
                bound - 1,
                bound,
                u64::MAX - 1,
                u64::MAX,
            ]) {
                assert_eq!(value % below.bound, value % bound, "{value} % {bound}");
            }
        }
    }

    #[test]
    fn summing_as_drawn_gives_the_collected_resamples_interval() {
        let pairs: Vec<(u64, u64)> = (0..97).map(|i| ((i * 31) % 7, 1 + (i * 17) % 5)).collect();
        for (resamples, seed) in [(1, 0), (500, 9), (2_000, u64::MAX)] {
            let collected = paired_bootstrap(&pairs, resamples, seed, |sample| {
                let (num, den) = sample
                    .iter()
                    .fold((0, 0), |(n, d), (num, den)| (n + num, d + den));
                num as f64 / den as f64
            });
            let summed = paired_bootstrap_by(pairs.len(), resamples, seed, 0.95, |draws| {
                let (num, den) = draws
                    .map(|index| pairs[index])
                    .fold((0, 0), |(n, d), (num, den)| (n + num, d + den));
                num as f64 / den as f64
            });
            assert!(collected.is_some());
            assert_eq!(summed, collected, "{resamples} resamples, seed {seed}");
        }
        assert_eq!(paired_bootstrap_by(0, 10, 1, 0.95, |_| 1.0), None);
    }

    #[test]
    fn the_two_proportion_test_needs_cases_and_variance() {
        assert_eq!(two_proportion_z(0, 0, 1, 2), None);
        assert_eq!(two_proportion_z(5, 5, 7, 7), None);
        let (z, p) = two_proportion_z(30, 100, 45, 100).unwrap();
        assert!(z > 0.0 && p < 0.05);
    }
}
