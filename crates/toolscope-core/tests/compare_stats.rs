//! The comparison statistics agree with SciPy (tests/reference/scipy_compare.py): the exact
//! McNemar test, the two-proportion z-test (as the uncorrected chi-square test), Wilson and
//! Newcombe intervals, and Holm's adjustment written out from its definition.

mod common;

use common::run_reference;
use serde_json::{json, Value};
use toolscope_core::compare::stats::{holm, mcnemar_exact, newcombe_difference, two_proportion_z};
use toolscope_core::metrics::wilson::wilson_95;

/// A small deterministic generator for the cases (no dependency on the engine's own).
struct Cases(u64);

impl Cases {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % bound
    }
}

fn close(got: f64, want: &Value, tolerance: f64, what: &str) {
    let want = want
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: SciPy gave {want}"));
    assert!(
        (got - want).abs() <= tolerance * want.abs().max(1e-300) || (got - want).abs() < 1e-14,
        "{what}: toolscope {got}, SciPy {want}"
    );
}

#[test]
fn the_statistics_agree_with_scipy() {
    let mut cases = Cases(20_261_201);
    let mut pairs: Vec<[u64; 2]> = vec![[0, 0], [0, 1], [5, 5], [10, 0], [0, 25], [17, 3]];
    let mut proportions: Vec<[u64; 4]> = vec![
        [48, 80, 56, 70],
        [0, 10, 0, 12],
        [10, 10, 3, 10],
        [0, 5, 5, 5],
        [1, 1, 0, 0],
    ];
    let mut families: Vec<Vec<f64>> = vec![vec![0.01, 0.04, 0.03, 0.005], vec![0.5]];
    for _ in 0..60 {
        pairs.push([cases.below(60), cases.below(60)]);
        let (n1, n2) = (1 + cases.below(400), 1 + cases.below(400));
        proportions.push([cases.below(n1 + 1), n1, cases.below(n2 + 1), n2]);
        let size = 1 + cases.below(12) as usize;
        families.push(
            (0..size)
                .map(|_| cases.below(10_001) as f64 / 10_000.0)
                .collect(),
        );
    }
    let reference = run_reference(
        "scipy_compare.py",
        &json!({"mcnemar": pairs, "proportions": proportions, "holm": families}),
    );

    for (pair, want) in pairs.iter().zip(reference["mcnemar"].as_array().unwrap()) {
        close(
            mcnemar_exact(pair[0], pair[1]),
            want,
            1e-9,
            &format!("McNemar {pair:?}"),
        );
    }
    for (case, want) in proportions
        .iter()
        .zip(reference["proportions"].as_array().unwrap())
    {
        let [x1, n1, x2, n2] = *case;
        let what = format!("{case:?}");
        if want.is_null() {
            assert_eq!(newcombe_difference(x1, n1, x2, n2), None, "{what}");
            continue;
        }
        let [low, high] = wilson_95(x1, n1).unwrap();
        close(
            low,
            &want["wilson1"][0],
            1e-9,
            &format!("Wilson low {what}"),
        );
        close(
            high,
            &want["wilson1"][1],
            1e-9,
            &format!("Wilson high {what}"),
        );
        let [low, high] = newcombe_difference(x1, n1, x2, n2).unwrap();
        close(
            low,
            &want["newcombe"][0],
            1e-9,
            &format!("Newcombe low {what}"),
        );
        close(
            high,
            &want["newcombe"][1],
            1e-9,
            &format!("Newcombe high {what}"),
        );
        match two_proportion_z(x1, n1, x2, n2) {
            Some((z, p)) => {
                close(z, &want["z"], 1e-9, &format!("z {what}"));
                close(p, &want["p"], 1e-9, &format!("p {what}"));
            }
            None => assert!(want["z"].is_null(), "{what}: SciPy tested it"),
        }
    }
    for (family, want) in families.iter().zip(reference["holm"].as_array().unwrap()) {
        for (got, want) in holm(family).iter().zip(want.as_array().unwrap()) {
            close(*got, want, 1e-12, &format!("Holm {family:?}"));
        }
    }
}

#[test]
fn the_paired_bootstrap_is_the_reference_resampling_draw_for_draw() {
    use toolscope_core::compare::stats::paired_bootstrap;
    let mut cases = Cases(7);
    for (size, seed) in [(1_usize, 0_u64), (7, 1), (40, 20_261_201), (173, u64::MAX)] {
        let sessions: Vec<[u64; 4]> = (0..size)
            .map(|_| {
                let (bd, ad) = (cases.below(6), cases.below(6));
                [cases.below(bd + 1), bd, cases.below(ad + 1), ad]
            })
            .collect();
        let ours = paired_bootstrap(&sessions, 500, seed, |sample| {
            let sum = |index: usize| sample.iter().map(|case| case[index]).sum::<u64>();
            let (bd, ad) = (sum(1), sum(3));
            if bd == 0 || ad == 0 {
                return f64::NAN;
            }
            sum(2) as f64 / ad as f64 - sum(0) as f64 / bd as f64
        });
        let reference = run_reference(
            "bootstrap_reference.py",
            &json!({"cases": sessions, "resamples": 500, "seed": seed}),
        );
        match (ours, reference["interval"].as_array()) {
            (Some([low, high]), Some(theirs)) => {
                close(
                    low,
                    &theirs[0],
                    1e-12,
                    &format!("low, {size} cases, seed {seed}"),
                );
                close(
                    high,
                    &theirs[1],
                    1e-12,
                    &format!("high, {size} cases, seed {seed}"),
                );
            }
            (None, None) => {}
            (ours, theirs) => panic!("{size} cases: toolscope {ours:?}, reference {theirs:?}"),
        }
    }
}
