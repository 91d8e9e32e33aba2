//! How far the judge can be trusted: its verdicts against a human's on the same calls, per
//! criterion. The first seed's advice ("before trusting call_decision, label 50 turns yourself
//! and compare") as numbers: agreement with its interval beside the majority-class baseline,
//! Cohen's κ with its interval, the confusion matrix, precision and recall of the judge's
//! `fail`, the disagreements to read, and warnings when the numbers do not support trust.
//!
//! Pairing: an item is `(session_id, step, criterion)`. Items the human judged and the judge
//! scored are **paired**; items the human judged but the judge left unscored, items the human
//! judged and the judge never saw, and items the judge judged without a human verdict are
//! counted apart. Where a file holds two verdicts for an item, the later one is used.
//!
//! ```
//! use toolscope_core::judge::calibration::calibrate;
//! # use toolscope_core::judge::{Criterion, Outcome, TemplateRef, Verdict};
//! # use toolscope_core::judge::verdict_file::HumanVerdict;
//! # use toolscope_core::model::Origin;
//! # let judge = |step, verdict| Verdict { session_id: "s".into(), step, tool: "f".into(),
//! #     criterion: Criterion::CallDecision, verdict, cause: None, reason: String::new(),
//! #     evidence: vec![], model: "m".into(),
//! #     template: TemplateRef { id: "t".into(), sha256: "h".into() }, prompt_sha256: "p".into() };
//! # let human = |step, verdict| HumanVerdict { session_id: "s".into(), step,
//! #     criterion: Criterion::CallDecision, verdict, origin: Origin::default() };
//! use Outcome::{Fail, Pass};
//! let judged = [judge(1, Pass), judge(2, Pass), judge(3, Fail), judge(4, Fail)];
//! let labelled = [human(1, Pass), human(2, Fail), human(3, Fail), human(4, Fail)];
//! let calibration = calibrate(&judged, &labelled);
//! let call_decision = &calibration.criteria[0];
//! assert_eq!(call_decision.paired, 4);
//! assert_eq!(call_decision.agreement.rate, Some(0.75));
//! assert_eq!(call_decision.kappa, Some(0.5));
//! assert_eq!(call_decision.disagreements[0].step, 2);
//! // Four pairs are far fewer than 50: the calibration says so.
//! assert!(!call_decision.warnings.is_empty());
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use statrs::distribution::{ContinuousCDF, Normal};

use super::corrected::{corrected_pass_rate, CorrectedPassRate};
use super::verdict_file::HumanVerdict;
use super::{Criterion, Outcome, Verdict};
use crate::hashing::{HashMap, HashMapExt};
use crate::metrics::wilson::wilson_95;
use crate::metrics::Rate;

/// Fewer paired items than this and the calibration warns: the seed's "label 50 turns".
pub const MIN_PAIRS: u64 = 50;

/// κ below this and the calibration warns. Landis and Koch (1977) call 0.41–0.60 "moderate"
/// and 0.61–0.80 "substantial" agreement; a judge whose verdicts are reported as findings
/// should reach substantial.
pub const MIN_KAPPA: f64 = 0.6;

/// The methods behind the numbers, carried in the output so they can be cited.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationMethod {
    /// How agreement's interval is computed.
    pub agreement_interval: String,
    /// How κ is computed.
    pub kappa: String,
    /// How κ's interval is computed.
    pub kappa_interval: String,
    /// The fewest paired items before the calibration stops warning.
    pub min_pairs: u64,
    /// The lowest κ before the calibration stops warning.
    pub min_kappa: f64,
}

impl Default for CalibrationMethod {
    fn default() -> Self {
        CalibrationMethod {
            agreement_interval: "Wilson score interval, 95 %".into(),
            kappa: "Cohen's kappa (1960), unweighted, as scikit-learn's cohen_kappa_score".into(),
            kappa_interval: "kappa ± 1.96 × the large-sample standard error of Fleiss, Cohen and \
                             Everitt (1969), as statsmodels' cohens_kappa; clamped to [-1, 1]"
                .into(),
            min_pairs: MIN_PAIRS,
            min_kappa: MIN_KAPPA,
        }
    }
}

/// The judge against a human, per criterion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Calibration {
    /// One entry per criterion the human judged, in the rubric's order.
    pub criteria: Vec<CriterionCalibration>,
    /// Warnings about the inputs as a whole (several judges mixed).
    pub warnings: Vec<CalibrationWarning>,
    /// The methods.
    pub method: CalibrationMethod,
}

impl Calibration {
    /// Every warning as a line to show: the criterion's own first (`args_grounded: …`), then
    /// those about the whole calibration.
    pub fn warning_lines(&self) -> Vec<String> {
        self.criteria
            .iter()
            .flat_map(|row| {
                row.warnings.iter().map(move |warning| {
                    format!("{}: {}", row.criterion.as_str(), warning.message())
                })
            })
            .chain(self.warnings.iter().map(CalibrationWarning::message))
            .collect()
    }
}

/// The 2×2 table of judge against human on paired items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Confusion {
    /// Both pass.
    pub both_pass: u64,
    /// The human passed it, the judge failed it.
    pub judge_fail_human_pass: u64,
    /// The human failed it, the judge passed it.
    pub judge_pass_human_fail: u64,
    /// Both fail.
    pub both_fail: u64,
}

impl Confusion {
    /// As scikit-learn's `confusion_matrix(y_true=human, y_pred=judge, labels=["pass",
    /// "fail"])`: rows are the human's pass and fail, columns the judge's.
    pub fn as_matrix(&self) -> [[u64; 2]; 2] {
        [
            [self.both_pass, self.judge_fail_human_pass],
            [self.judge_pass_human_fail, self.both_fail],
        ]
    }

    /// Paired items.
    pub fn total(&self) -> u64 {
        self.both_pass + self.judge_fail_human_pass + self.judge_pass_human_fail + self.both_fail
    }

    fn add(&mut self, judge: Outcome, human: Outcome) {
        match (judge, human) {
            (Outcome::Pass, Outcome::Pass) => self.both_pass += 1,
            (Outcome::Fail, Outcome::Pass) => self.judge_fail_human_pass += 1,
            (Outcome::Pass, Outcome::Fail) => self.judge_pass_human_fail += 1,
            (Outcome::Fail, Outcome::Fail) => self.both_fail += 1,
            _ => {}
        }
    }
}

/// A paired item where the judge and the human differ.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disagreement {
    /// The session.
    pub session_id: String,
    /// The call's step.
    pub step: usize,
    /// The criterion.
    pub criterion: Criterion,
    /// The judge's verdict.
    pub judge: Outcome,
    /// The human's verdict.
    pub human: Outcome,
}

/// Why the numbers do not (yet) support trusting the judge.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CalibrationWarning {
    /// Fewer paired items than [`MIN_PAIRS`]: the intervals are wide.
    FewPairs {
        /// Paired items.
        paired: u64,
        /// [`MIN_PAIRS`].
        minimum: u64,
    },
    /// κ below [`MIN_KAPPA`].
    LowKappa {
        /// κ.
        kappa: f64,
        /// [`MIN_KAPPA`].
        threshold: f64,
    },
    /// κ is undefined: no paired items, or both gave only one and the same verdict.
    KappaUndefined,
    /// Agreement no higher than always answering the human's majority verdict.
    NoBetterThanMajority {
        /// Agreement.
        agreement: f64,
        /// The majority-class baseline.
        baseline: f64,
    },
    /// The judge's verdicts come from more than one model or template; for an item judged
    /// more than once, the later verdict was used. Calibrate one judge at a time.
    SeveralJudges {
        /// Each judge as "model (template id)".
        judges: Vec<String>,
    },
}

impl CalibrationWarning {
    /// The warning in words.
    pub fn message(&self) -> String {
        match self {
            CalibrationWarning::FewPairs { paired, minimum } => format!(
                "only {paired} paired verdicts (fewer than {minimum}): the intervals are wide; \
                 label more calls before trusting this judge"
            ),
            CalibrationWarning::LowKappa { kappa, threshold } => format!(
                "κ = {kappa:.2} is below {threshold}: the judge agrees with you little beyond \
                 chance; do not report its verdicts as findings"
            ),
            CalibrationWarning::KappaUndefined => "κ is undefined: the judge and you each gave \
                 only one and the same verdict (or nothing is paired); label calls of both kinds"
                .to_string(),
            CalibrationWarning::NoBetterThanMajority {
                agreement,
                baseline,
            } => format!(
                "agreement {:.0} % is no better than always answering your majority verdict \
                 ({:.0} %)",
                agreement * 100.0,
                baseline * 100.0
            ),
            CalibrationWarning::SeveralJudges { judges } => format!(
                "verdicts from {} judges ({}) are mixed; calibrate one judge at a time",
                judges.len(),
                judges.join(", ")
            ),
        }
    }
}

/// The judge against the human on one criterion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CriterionCalibration {
    /// The criterion.
    pub criterion: Criterion,
    /// Items both the human and the judge scored: the denominator of everything below.
    pub paired: u64,
    /// Items the human judged and the judge left unscored.
    pub judge_unscored: u64,
    /// Items the human judged and the judge has no verdict for.
    pub human_without_judge: u64,
    /// Items the judge judged (scored or not) and the human did not.
    pub judge_without_human: u64,
    /// The judge against the human on paired items.
    pub confusion: Confusion,
    /// Paired items where they agree.
    pub agreement: Rate,
    /// Agreement's 95 % Wilson interval; None with nothing paired.
    pub agreement_interval: Option<[f64; 2]>,
    /// The human's more frequent verdict on paired items (pass on a tie); None with nothing
    /// paired.
    pub majority_class: Option<Outcome>,
    /// The agreement of always answering `majority_class`: what agreement must beat.
    pub majority_baseline: Rate,
    /// Cohen's κ; None when undefined (see `kappa_note`).
    pub kappa: Option<f64>,
    /// κ's large-sample standard error (Fleiss, Cohen and Everitt 1969).
    pub kappa_standard_error: Option<f64>,
    /// κ ± 1.96 standard errors, clamped to [-1, 1].
    pub kappa_interval: Option<[f64; 2]>,
    /// Why κ is undefined, when it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kappa_note: Option<String>,
    /// Of the judge's `fail`s, how many the human also failed (the human's fail is the positive
    /// class).
    pub fail_precision: Rate,
    /// Of the human's `fail`s, how many the judge also failed.
    pub fail_recall: Rate,
    /// Why these numbers do not support trusting the judge on this criterion.
    pub warnings: Vec<CalibrationWarning>,
    /// The paired items where they differ, in the human file's order.
    pub disagreements: Vec<Disagreement>,
    /// The judge's pass rate on this criterion (all its scored verdicts) corrected for the
    /// sensitivity and specificity measured here (Rogan–Gladen), with its interval (empty in a
    /// report made before it was computed).
    #[serde(default)]
    pub corrected_pass_rate: CorrectedPassRate,
}

/// Cohen's κ of a 2×2 table and its standard error.
///
/// κ = 1 − (observed disagreement) / (disagreement expected by chance), computed exactly as
/// scikit-learn's `cohen_kappa_score` (unweighted), which equals Cohen's (p_o − p_e) / (1 − p_e)
/// up to rounding. With `n` paired items, row (human) totals `r_i` and column (judge) totals
/// `c_j`, the expected count in cell (i, j) is `c_i · r_j / n`. κ is None when `n` is 0 or the
/// expected disagreement is 0, which happens exactly when both raters gave only one and the same
/// verdict (p_e = 1; scikit-learn returns NaN there).
///
/// The standard error is the large-sample one of Fleiss, Cohen and Everitt (1969), as
/// statsmodels' `cohens_kappa` gives it (`std_kappa`), with proportions p_ij = count / n, row
/// and column proportions p_i. and p_.j, and p_e = Σ p_i. p_.i:
///
/// ```text
/// A = Σ_i p_ii (1 − (p_i. + p_.i)(1 − κ))²
/// B = (1 − κ)² Σ_{i≠j} p_ij (p_.i + p_j.)²
/// C = (κ − p_e (1 − κ))²
/// SE = √((A + B − C) / (n (1 − p_e)²))
/// ```
///
/// Cohen's (1960) simpler √(p_o (1 − p_o) / (n (1 − p_e)²)) is the error under the
/// assumption that p_e is known; Fleiss, Cohen and Everitt's accounts for p_e being estimated
/// too, and is what statsmodels and most references use.
pub fn cohen_kappa(confusion: &Confusion) -> Option<(f64, f64)> {
    let table = [
        [
            confusion.both_pass as f64,
            confusion.judge_fail_human_pass as f64,
        ],
        [
            confusion.judge_pass_human_fail as f64,
            confusion.both_fail as f64,
        ],
    ];
    let n = confusion.total() as f64;
    if n == 0.0 {
        return None;
    }
    let rows = [table[0][0] + table[0][1], table[1][0] + table[1][1]];
    let columns = [table[0][0] + table[1][0], table[0][1] + table[1][1]];
    // scikit-learn: expected = outer(column sums, row sums) / n; κ = 1 − Σ_off-diagonal
    // observed / Σ_off-diagonal expected.
    let expected_disagreement = columns[0] * rows[1] / n + columns[1] * rows[0] / n;
    if expected_disagreement == 0.0 {
        return None;
    }
    let kappa = 1.0 - (table[0][1] + table[1][0]) / expected_disagreement;

    let p = |i: usize, j: usize| table[i][j] / n;
    let row = |i: usize| rows[i] / n;
    let column = |j: usize| columns[j] / n;
    let expected_agreement = row(0) * column(0) + row(1) * column(1);
    let term_a: f64 = (0..2)
        .map(|i| p(i, i) * (1.0 - (row(i) + column(i)) * (1.0 - kappa)).powi(2))
        .sum();
    let term_b = (1.0 - kappa).powi(2)
        * (p(0, 1) * (column(0) + row(1)).powi(2) + p(1, 0) * (column(1) + row(0)).powi(2));
    let term_c = (kappa - expected_agreement * (1.0 - kappa)).powi(2);
    let variance = (term_a + term_b - term_c) / (1.0 - expected_agreement).powi(2) / n;
    Some((kappa, variance.max(0.0).sqrt()))
}

/// Calibrates `judge`'s verdicts against `human`'s, per criterion the human judged.
pub fn calibrate(judge: &[Verdict], human: &[HumanVerdict]) -> Calibration {
    type Item<'a> = (&'a str, usize, Criterion);
    let warnings = judges_warnings(judge);
    let mut by_item: HashMap<Item<'_>, &Verdict> = HashMap::new();
    for verdict in judge {
        by_item.insert(
            (verdict.session_id.as_str(), verdict.step, verdict.criterion),
            verdict,
        );
    }
    // The human's items in file order, the later verdict for a repeated item.
    let mut human_order: Vec<Item<'_>> = Vec::new();
    let mut human_by_item: HashMap<Item<'_>, Outcome> = HashMap::new();
    for verdict in human {
        let item = (verdict.session_id.as_str(), verdict.step, verdict.criterion);
        if human_by_item.insert(item, verdict.verdict).is_none() {
            human_order.push(item);
        }
    }
    let criteria = Criterion::ALL
        .into_iter()
        .filter(|criterion| human_order.iter().any(|item| item.2 == *criterion))
        .map(|criterion| {
            let judge_without_human = by_item
                .keys()
                .filter(|item| item.2 == criterion && !human_by_item.contains_key(*item))
                .count() as u64;
            let pairs = human_order
                .iter()
                .filter(|item| item.2 == criterion)
                .map(|item| {
                    (
                        *item,
                        by_item.get(item).map(|verdict| verdict.verdict),
                        human_by_item[item],
                    )
                });
            let (judge_pass, judge_fail) = judge_outcomes(judge, criterion);
            calibrate_criterion(
                criterion,
                pairs,
                judge_without_human,
                (judge_pass, judge_fail),
            )
        })
        .collect();
    Calibration {
        criteria,
        warnings,
        method: CalibrationMethod::default(),
    }
}

/// A warning when the verdicts come from more than one judge (model and template).
fn judges_warnings(judge: &[Verdict]) -> Vec<CalibrationWarning> {
    let judges: BTreeSet<String> = judge
        .iter()
        .map(|verdict| format!("{} ({})", verdict.model, verdict.template.id))
        .collect();
    if judges.len() > 1 {
        vec![CalibrationWarning::SeveralJudges {
            judges: judges.into_iter().collect(),
        }]
    } else {
        Vec::new()
    }
}

/// The calibration of the whole from the calibrations of parts of it (disjoint sets of
/// sessions, in order) and all the judge's verdicts: each criterion's counts added, its
/// disagreements in part order, and everything else ([`criterion_calibration`]: agreement, κ,
/// intervals, warnings) recomputed from them, as [`calibrate`] would on the whole.
///
/// The items the judge scored that the human did not are counted from `judge` (a part without
/// human verdicts has no calibration, yet its judge's items count in the whole's): the judge's
/// distinct items of the criterion less those the human judged too.
pub fn merge_calibrations(parts: &[&Calibration], judge: &[Verdict]) -> Option<Calibration> {
    if parts.is_empty() {
        return None;
    }
    let criteria = Criterion::ALL
        .into_iter()
        .filter_map(|criterion| {
            let rows: Vec<&CriterionCalibration> = parts
                .iter()
                .flat_map(|part| &part.criteria)
                .filter(|row| row.criterion == criterion)
                .collect();
            if rows.is_empty() {
                return None;
            }
            let mut counts = PairCounts::default();
            let mut disagreements = Vec::new();
            for row in rows {
                let confusion = &mut counts.confusion;
                confusion.both_pass += row.confusion.both_pass;
                confusion.judge_fail_human_pass += row.confusion.judge_fail_human_pass;
                confusion.judge_pass_human_fail += row.confusion.judge_pass_human_fail;
                confusion.both_fail += row.confusion.both_fail;
                counts.judge_unscored += row.judge_unscored;
                counts.human_without_judge += row.human_without_judge;
                disagreements.extend(row.disagreements.iter().cloned());
            }
            let judge_items = judge
                .iter()
                .filter(|verdict| verdict.criterion == criterion)
                .map(|verdict| (verdict.session_id.as_str(), verdict.step))
                .collect::<BTreeSet<_>>()
                .len() as u64;
            let judged_by_both = counts.confusion.total() + counts.judge_unscored;
            counts.judge_without_human = judge_items.saturating_sub(judged_by_both);
            (counts.judge_pass, counts.judge_fail) = judge_outcomes(judge, criterion);
            Some(criterion_calibration(criterion, counts, disagreements))
        })
        .collect();
    Some(Calibration {
        criteria,
        warnings: judges_warnings(judge),
        method: CalibrationMethod::default(),
    })
}

/// The judge's passes and fails on `criterion`, counted as its summary counts them.
fn judge_outcomes(judge: &[Verdict], criterion: Criterion) -> (u64, u64) {
    let of = |outcome| {
        judge
            .iter()
            .filter(|verdict| verdict.criterion == criterion && verdict.verdict == outcome)
            .count() as u64
    };
    (of(Outcome::Pass), of(Outcome::Fail))
}

fn calibrate_criterion<'a>(
    criterion: Criterion,
    pairs: impl Iterator<Item = ((&'a str, usize, Criterion), Option<Outcome>, Outcome)>,
    judge_without_human: u64,
    (judge_pass, judge_fail): (u64, u64),
) -> CriterionCalibration {
    let mut confusion = Confusion::default();
    let mut judge_unscored = 0;
    let mut human_without_judge = 0;
    let mut disagreements = Vec::new();
    for ((session_id, step, _), judge, human) in pairs {
        match judge {
            None => human_without_judge += 1,
            Some(Outcome::Unscored) => judge_unscored += 1,
            Some(judge) => {
                confusion.add(judge, human);
                if judge != human {
                    disagreements.push(Disagreement {
                        session_id: session_id.to_string(),
                        step,
                        criterion,
                        judge,
                        human,
                    });
                }
            }
        }
    }
    let counts = PairCounts {
        judge_pass,
        judge_fail,
        confusion,
        judge_unscored,
        human_without_judge,
        judge_without_human,
    };
    criterion_calibration(criterion, counts, disagreements)
}

/// What one criterion's calibration is computed from: counts that add up across disjoint sets
/// of sessions.
#[derive(Debug, Clone, Copy, Default)]
struct PairCounts {
    /// The judge's passes and fails on the criterion over all its verdicts, paired or not.
    judge_pass: u64,
    judge_fail: u64,
    confusion: Confusion,
    judge_unscored: u64,
    human_without_judge: u64,
    judge_without_human: u64,
}

/// One criterion's calibration from its counts and its disagreements.
fn criterion_calibration(
    criterion: Criterion,
    counts: PairCounts,
    disagreements: Vec<Disagreement>,
) -> CriterionCalibration {
    let PairCounts {
        judge_pass,
        judge_fail,
        confusion,
        judge_unscored,
        human_without_judge,
        judge_without_human,
    } = counts;
    let paired = confusion.total();
    let agreed = confusion.both_pass + confusion.both_fail;
    let human_pass = confusion.both_pass + confusion.judge_fail_human_pass;
    let human_fail = paired - human_pass;
    let majority_class = (paired > 0).then_some(if human_pass >= human_fail {
        Outcome::Pass
    } else {
        Outcome::Fail
    });
    let agreement = Rate::new(agreed, paired);
    let majority_baseline = Rate::new(human_pass.max(human_fail), paired);
    let kappa = cohen_kappa(&confusion);
    let z = Normal::standard().inverse_cdf(0.975);
    let kappa_interval = kappa.map(|(kappa, error)| {
        [
            (kappa - z * error).clamp(-1.0, 1.0),
            (kappa + z * error).clamp(-1.0, 1.0),
        ]
    });
    let kappa_note = match (kappa, paired) {
        (Some(_), _) => None,
        (None, 0) => Some("no paired verdicts".to_string()),
        (None, _) => Some(
            "undefined: the judge and the human each gave only one and the same verdict, so \
             agreement expected by chance is 1 (scikit-learn's cohen_kappa_score gives NaN)"
                .to_string(),
        ),
    };
    let mut warnings = Vec::new();
    if paired < MIN_PAIRS {
        warnings.push(CalibrationWarning::FewPairs {
            paired,
            minimum: MIN_PAIRS,
        });
    }
    match kappa {
        None => warnings.push(CalibrationWarning::KappaUndefined),
        Some((kappa, _)) if kappa < MIN_KAPPA => warnings.push(CalibrationWarning::LowKappa {
            kappa,
            threshold: MIN_KAPPA,
        }),
        Some(_) => {}
    }
    if let (Some(agreement), Some(baseline)) = (agreement.rate, majority_baseline.rate) {
        if agreed <= majority_baseline.count {
            warnings.push(CalibrationWarning::NoBetterThanMajority {
                agreement,
                baseline,
            });
        }
    }
    CriterionCalibration {
        criterion,
        paired,
        judge_unscored,
        human_without_judge,
        judge_without_human,
        confusion,
        agreement,
        agreement_interval: wilson_95(agreed, paired),
        majority_class,
        majority_baseline,
        kappa: kappa.map(|(kappa, _)| kappa),
        kappa_standard_error: kappa.map(|(_, error)| error),
        kappa_interval,
        kappa_note,
        fail_precision: Rate::new(
            confusion.both_fail,
            confusion.both_fail + confusion.judge_fail_human_pass,
        ),
        fail_recall: Rate::new(confusion.both_fail, human_fail),
        warnings,
        disagreements,
        corrected_pass_rate: corrected_pass_rate(judge_pass, judge_fail, &confusion),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{TemplateRef, UnscoredCause};
    use crate::model::Origin;
    use proptest::prelude::*;

    fn table(rows: [[u64; 2]; 2]) -> Confusion {
        Confusion {
            both_pass: rows[0][0],
            judge_fail_human_pass: rows[0][1],
            judge_pass_human_fail: rows[1][0],
            both_fail: rows[1][1],
        }
    }

    fn judge(session_id: &str, step: usize, criterion: Criterion, verdict: Outcome) -> Verdict {
        Verdict {
            session_id: session_id.into(),
            step,
            tool: "f".into(),
            criterion,
            verdict,
            cause: (verdict == Outcome::Unscored).then_some(UnscoredCause::ParseError),
            reason: String::new(),
            evidence: Vec::new(),
            model: "m".into(),
            template: TemplateRef {
                id: "t".into(),
                sha256: "h".into(),
            },
            prompt_sha256: "p".into(),
        }
    }

    fn human(
        session_id: &str,
        step: usize,
        criterion: Criterion,
        verdict: Outcome,
    ) -> HumanVerdict {
        HumanVerdict {
            session_id: session_id.into(),
            step,
            criterion,
            verdict,
            origin: Origin::default(),
        }
    }

    #[test]
    fn kappa_and_its_error_match_statsmodels_cohens_kappa() {
        // statsmodels 0.15.0: cohens_kappa(table) → kappa, std_kappa, kappa_low, kappa_upp;
        // rows human pass/fail, columns judge pass/fail.
        let reference = [
            (
                [[40, 5], [10, 25]],
                0.612_903_225_806_451_6,
                0.089_105_725_292_950_77,
                [0.438_259_213_415_948_3, 0.787_547_238_196_954_9],
            ),
            ([[20, 0], [0, 10]], 1.0, 0.0, [1.0, 1.0]),
            (
                [[3, 7], [9, 1]],
                -0.6,
                0.175_271_218_401_653_52,
                [-0.943_525_275_593_694_9, -0.256_474_724_406_305_03],
            ),
            (
                [[45, 4], [1, 0]],
                -0.033_057_851_239_670_41,
                0.027_106_256_175_078_336,
                [-0.086_185_137_098_540_4, 0.020_069_434_619_199_585],
            ),
            ([[12, 3], [0, 0]], 0.0, 0.0, [0.0, 0.0]),
            (
                [[5, 5], [5, 5]],
                0.0,
                0.223_606_797_749_978_96,
                [-0.438_261_270_288_290_87, 0.438_261_270_288_290_87],
            ),
        ];
        for (rows, kappa, error, [low, high]) in reference {
            let (ours, our_error) = cohen_kappa(&table(rows)).unwrap();
            assert!(
                (ours - kappa).abs() < 1e-12,
                "{rows:?}: κ {ours} vs {kappa}"
            );
            assert!(
                (our_error - error).abs() < 1e-12,
                "{rows:?}: SE {our_error} vs {error}"
            );
            let calibration = calibrate_criterion(
                Criterion::RightTool,
                items(rows)
                    .iter()
                    .map(|(judge, human)| (("s", 1, Criterion::RightTool), Some(*judge), *human)),
                0,
                (0, 0),
            );
            let [our_low, our_high] = calibration.kappa_interval.unwrap();
            assert!(
                (our_low - low).abs() < 1e-12 && (our_high - high).abs() < 1e-12,
                "{rows:?}"
            );
        }
    }

    /// The (judge, human) pairs of a table.
    fn items(rows: [[u64; 2]; 2]) -> Vec<(Outcome, Outcome)> {
        let mut items = Vec::new();
        for (human_index, human) in [Outcome::Pass, Outcome::Fail].into_iter().enumerate() {
            for (judge_index, judge) in [Outcome::Pass, Outcome::Fail].into_iter().enumerate() {
                for _ in 0..rows[human_index][judge_index] {
                    items.push((judge, human));
                }
            }
        }
        items
    }

    #[test]
    fn kappa_is_undefined_when_both_give_one_and_the_same_verdict_only() {
        assert_eq!(cohen_kappa(&table([[7, 0], [0, 0]])), None);
        assert_eq!(cohen_kappa(&table([[0, 0], [0, 7]])), None);
        assert_eq!(cohen_kappa(&Confusion::default()), None);
        // One-sided but different: κ is 0, as scikit-learn gives it.
        assert_eq!(
            cohen_kappa(&table([[0, 7], [0, 0]])).map(|(kappa, _)| kappa),
            Some(0.0)
        );
        let verdicts: Vec<Verdict> = (1..=3)
            .map(|step| judge("s", step, Criterion::CallDecision, Outcome::Pass))
            .collect();
        let humans: Vec<HumanVerdict> = (1..=3)
            .map(|step| human("s", step, Criterion::CallDecision, Outcome::Pass))
            .collect();
        let calibration = calibrate(&verdicts, &humans);
        let row = &calibration.criteria[0];
        assert_eq!((row.kappa, row.kappa_interval), (None, None));
        assert!(row.kappa_note.as_deref().unwrap().contains("NaN"));
        assert!(row.warnings.contains(&CalibrationWarning::KappaUndefined));
        assert_eq!(row.agreement.rate, Some(1.0));
    }

    #[test]
    fn items_are_paired_by_session_step_and_criterion_and_the_rest_counted_apart() {
        use Criterion::{ArgsGrounded, CallDecision};
        use Outcome::{Fail, Pass, Unscored};
        let verdicts = vec![
            judge("a", 1, CallDecision, Pass),
            judge("a", 2, CallDecision, Fail),
            judge("a", 3, CallDecision, Unscored),
            judge("a", 4, CallDecision, Pass), // no human verdict
            judge("b", 1, CallDecision, Fail),
            judge("a", 1, ArgsGrounded, Fail),
        ];
        let humans = vec![
            human("b", 1, CallDecision, Pass),
            human("a", 1, CallDecision, Pass),
            human("a", 2, CallDecision, Fail),
            human("a", 3, CallDecision, Fail), // judge unscored
            human("a", 5, CallDecision, Fail), // no judge verdict
            human("a", 1, ArgsGrounded, Fail),
        ];
        let calibration = calibrate(&verdicts, &humans);
        assert!(calibration.warnings.is_empty());
        let criteria: Vec<Criterion> = calibration
            .criteria
            .iter()
            .map(|row| row.criterion)
            .collect();
        assert_eq!(criteria, [CallDecision, ArgsGrounded]);
        let row = &calibration.criteria[0];
        assert_eq!(row.paired, 3);
        assert_eq!(
            (
                row.judge_unscored,
                row.human_without_judge,
                row.judge_without_human
            ),
            (1, 1, 1)
        );
        assert_eq!(row.confusion.as_matrix(), [[1, 1], [0, 1]]);
        assert_eq!(row.agreement, Rate::new(2, 3));
        assert_eq!(row.fail_precision, Rate::new(1, 2));
        assert_eq!(row.fail_recall, Rate::new(1, 1));
        assert_eq!(row.majority_class, Some(Pass));
        assert_eq!(row.majority_baseline, Rate::new(2, 3));
        assert_eq!(
            row.disagreements,
            [Disagreement {
                session_id: "b".into(),
                step: 1,
                criterion: CallDecision,
                judge: Fail,
                human: Pass,
            }]
        );
        assert!(row.warnings.contains(&CalibrationWarning::FewPairs {
            paired: 3,
            minimum: 50
        }));
        assert!(row
            .warnings
            .iter()
            .any(|warning| matches!(warning, CalibrationWarning::NoBetterThanMajority { .. })));
    }

    #[test]
    fn a_good_judge_on_enough_items_has_no_warnings_and_a_weak_one_is_flagged() {
        let good = calibrate_criterion(
            Criterion::ResultUsed,
            items([[40, 2], [3, 25]])
                .into_iter()
                .map(|(judge, human)| (("s", 1, Criterion::ResultUsed), Some(judge), human)),
            0,
            (0, 0),
        );
        assert_eq!(good.paired, 70);
        assert!(good.warnings.is_empty(), "{:?}", good.warnings);
        let interval = good.agreement_interval.unwrap();
        assert!(interval[0] < 65.0 / 70.0 && 65.0 / 70.0 < interval[1]);
        let weak = calibrate_criterion(
            Criterion::ResultUsed,
            items([[40, 10], [10, 10]])
                .into_iter()
                .map(|(judge, human)| (("s", 1, Criterion::ResultUsed), Some(judge), human)),
            0,
            (0, 0),
        );
        assert!(matches!(
            weak.warnings[..],
            [
                CalibrationWarning::LowKappa { .. },
                CalibrationWarning::NoBetterThanMajority { .. }
            ]
        ));
        assert!(weak.warnings[0].message().contains("below 0.6"));
    }

    #[test]
    fn mixed_judges_are_warned_about_and_the_later_verdict_is_used() {
        let mut other = judge("s", 1, Criterion::RightTool, Outcome::Fail);
        other.model = "gpt-4o".into();
        let verdicts = vec![judge("s", 1, Criterion::RightTool, Outcome::Pass), other];
        let humans = vec![human("s", 1, Criterion::RightTool, Outcome::Fail)];
        let calibration = calibrate(&verdicts, &humans);
        assert_eq!(
            calibration.warnings,
            [CalibrationWarning::SeveralJudges {
                judges: vec!["gpt-4o (t)".into(), "m (t)".into()]
            }]
        );
        assert_eq!(calibration.criteria[0].confusion.both_fail, 1);
    }

    #[test]
    fn the_method_is_in_the_output() {
        let calibration = calibrate(&[], &[human("s", 1, Criterion::RightTool, Outcome::Pass)]);
        let json = serde_json::to_value(&calibration).unwrap();
        assert!(json["method"]["kappa_interval"]
            .as_str()
            .unwrap()
            .contains("Fleiss"));
        assert_eq!(json["method"]["min_pairs"], 50);
        let row = &json["criteria"][0];
        assert_eq!(row["paired"], 0);
        assert_eq!(row["human_without_judge"], 1);
        assert!(row["kappa"].is_null());
        assert_eq!(row["kappa_note"], "no paired verdicts");
    }

    fn outcome() -> impl Strategy<Value = Outcome> {
        prop_oneof![
            Just(Outcome::Pass),
            Just(Outcome::Fail),
            Just(Outcome::Unscored)
        ]
    }

    proptest! {
        #[test]
        fn counts_are_conserved_and_rates_stay_in_range(
            pairs in proptest::collection::vec((proptest::option::of(outcome()), prop_oneof![Just(Outcome::Pass), Just(Outcome::Fail)]), 0..120)
        ) {
            let verdicts: Vec<Verdict> = pairs
                .iter()
                .enumerate()
                .filter_map(|(step, (judged, _))| judged.map(|judged| judge("s", step + 1, Criterion::ArgsGrounded, judged)))
                .collect();
            let humans: Vec<HumanVerdict> = pairs
                .iter()
                .enumerate()
                .map(|(step, (_, labelled))| human("s", step + 1, Criterion::ArgsGrounded, *labelled))
                .collect();
            let calibration = calibrate(&verdicts, &humans);
            if pairs.is_empty() {
                prop_assert!(calibration.criteria.is_empty());
                return Ok(());
            }
            let row = &calibration.criteria[0];
            prop_assert_eq!(row.paired + row.judge_unscored + row.human_without_judge, pairs.len() as u64);
            prop_assert_eq!(row.confusion.total(), row.paired);
            prop_assert_eq!(row.disagreements.len() as u64, row.confusion.judge_fail_human_pass + row.confusion.judge_pass_human_fail);
            for rate in [row.agreement, row.majority_baseline, row.fail_precision, row.fail_recall] {
                prop_assert!(rate.count <= rate.total);
                if let Some(value) = rate.rate {
                    prop_assert!((0.0..=1.0).contains(&value));
                }
            }
            prop_assert!(row.majority_baseline.rate.unwrap_or(0.5) >= 0.5);
            if let Some(kappa) = row.kappa {
                prop_assert!((-1.0..=1.0).contains(&kappa));
                let [low, high] = row.kappa_interval.unwrap();
                prop_assert!(low <= kappa + 1e-12 && kappa <= high + 1e-12);
            }
            if let (Some(rate), Some([low, high])) = (row.agreement.rate, row.agreement_interval) {
                prop_assert!(low <= rate && rate <= high);
            }
        }
    }

    #[test]
    fn the_corrected_pass_rate_is_over_all_the_judges_verdicts_and_survives_merging() {
        use crate::test_support::verdict;
        // Ten judged calls, 7 passed; the human saw four: the judge passed both of the human's
        // passes (Se = 1) and one of its two fails (Sp = 0.5): π = (0.7 + 0.5 − 1) / 0.5 = 0.4.
        let outcomes = [
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Fail,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Pass,
            Outcome::Fail,
            Outcome::Fail,
        ];
        let judge: Vec<Verdict> = outcomes
            .iter()
            .enumerate()
            .map(|(index, outcome)| {
                verdict(
                    &format!("s{index}"),
                    1,
                    "t",
                    Criterion::RightTool,
                    *outcome,
                    "r",
                )
            })
            .collect();
        let humans = [
            human("s0", 1, Criterion::RightTool, Outcome::Pass),
            human("s1", 1, Criterion::RightTool, Outcome::Pass),
            human("s2", 1, Criterion::RightTool, Outcome::Fail),
            human("s3", 1, Criterion::RightTool, Outcome::Fail),
        ];
        let calibration = calibrate(&judge, &humans);
        let corrected = &calibration.criteria[0].corrected_pass_rate;
        assert_eq!((corrected.observed, corrected.judged), (Some(0.7), 10));
        assert_eq!(
            (corrected.sensitivity, corrected.specificity),
            (Some(1.0), Some(0.5))
        );
        assert!((corrected.corrected.unwrap() - 0.4).abs() < 1e-12);
        // Two parts, their calibrations merged: the same correction.
        let first = calibrate(&judge[..5], &humans);
        let second = calibrate(&judge[5..], &[]);
        let merged = merge_calibrations(&[&first, &second], &judge).unwrap();
        assert_eq!(merged.criteria[0].corrected_pass_rate, *corrected);
    }
}
