//! The judge's calibration agrees with scikit-learn: Cohen's κ with
//! `cohen_kappa_score(human, judge, labels=["pass", "fail"])` to 1e-12 (null where scikit-learn
//! gives nan), the confusion matrix with `confusion_matrix(human, judge, labels=["pass",
//! "fail"])` exactly, and precision, recall and agreement of the judge's `fail` with
//! `precision_recall_fscore_support(labels=["fail"], zero_division=np.nan)` and
//! `accuracy_score` (tests/reference/sklearn_kappa.py, one Python process for all cases).
//!
//! Each case is a set of human verdicts and judge verdicts on generated calls, with a fixed
//! seed: sizes from 1 to 150 items, class balance from all pass to all fail, judges from always
//! right to always wrong, some judge verdicts unscored or missing and some calls judged that the
//! human did not label, spread over the four criteria. The pairs sent to scikit-learn are built
//! here, independently of [`calibrate`]'s pairing: the items the human labelled whose judge
//! verdict is pass or fail.

mod common;

use common::{run_reference, same_number};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde_json::{json, Value};
use toolscope_core::judge::calibration::{calibrate, CriterionCalibration};
use toolscope_core::judge::verdict_file::HumanVerdict;
use toolscope_core::judge::{Criterion, Outcome, TemplateRef, UnscoredCause, Verdict};
use toolscope_core::model::Origin;

/// Random cases on top of the edge cases.
const RANDOM_CASES: usize = 50;

/// A generated set: the verdicts, and per criterion the (human, judge) pairs it should pair.
struct Case {
    name: String,
    judge: Vec<Verdict>,
    human: Vec<HumanVerdict>,
    pairs: Vec<(Criterion, Vec<(Outcome, Outcome)>)>,
}

fn judge_verdict(session_id: &str, step: usize, criterion: Criterion, verdict: Outcome) -> Verdict {
    Verdict {
        session_id: session_id.to_string(),
        step,
        tool: "lookup_order".to_string(),
        criterion,
        verdict,
        cause: (verdict == Outcome::Unscored).then_some(UnscoredCause::ParseError),
        reason: String::new(),
        evidence: Vec::new(),
        model: "judge-model".to_string(),
        template: TemplateRef {
            id: "tool-call-v1".to_string(),
            sha256: "0".repeat(64),
        },
        prompt_sha256: "1".repeat(64),
    }
}

fn human_verdict(
    session_id: &str,
    step: usize,
    criterion: Criterion,
    verdict: Outcome,
) -> HumanVerdict {
    HumanVerdict {
        session_id: session_id.to_string(),
        step,
        criterion,
        verdict,
        origin: Origin::default(),
    }
}

/// What one generated item holds: the human's verdict, and the judge's (None: not judged).
struct Item {
    criterion: Criterion,
    human: Outcome,
    judge: Option<Outcome>,
}

fn case_from_items(name: String, items: &[Item], judge_only: usize) -> Case {
    let mut judge = Vec::new();
    let mut human = Vec::new();
    let mut pairs: Vec<(Criterion, Vec<(Outcome, Outcome)>)> = Criterion::ALL
        .iter()
        .map(|&criterion| (criterion, Vec::new()))
        .collect();
    for (index, item) in items.iter().enumerate() {
        let session_id = format!("s{}", index % 7);
        let step = index / 7 + 1;
        human.push(human_verdict(&session_id, step, item.criterion, item.human));
        if let Some(verdict) = item.judge {
            judge.push(judge_verdict(&session_id, step, item.criterion, verdict));
            if verdict != Outcome::Unscored {
                let slot = pairs
                    .iter_mut()
                    .find(|(criterion, _)| *criterion == item.criterion);
                slot.expect("every criterion has a slot")
                    .1
                    .push((item.human, verdict));
            }
        }
    }
    for extra in 0..judge_only {
        judge.push(judge_verdict(
            "unlabelled",
            extra + 1,
            Criterion::CallDecision,
            Outcome::Fail,
        ));
    }
    pairs.retain(|(criterion, _)| items.iter().any(|item| item.criterion == *criterion));
    Case {
        name,
        judge,
        human,
        pairs,
    }
}

fn flip(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Pass => Outcome::Fail,
        _ => Outcome::Pass,
    }
}

/// The edge cases: degenerate tables, one item, perfect agreement and disagreement.
fn edge_cases() -> Vec<Case> {
    use Outcome::{Fail, Pass};
    let same = |human: Outcome, judge: Outcome, count: usize| -> Vec<Item> {
        (0..count)
            .map(|_| Item {
                criterion: Criterion::ResultUsed,
                human,
                judge: Some(judge),
            })
            .collect()
    };
    let mut perfect = same(Pass, Pass, 30);
    perfect.extend(same(Fail, Fail, 20));
    let mut opposite = same(Pass, Fail, 10);
    opposite.extend(same(Fail, Pass, 15));
    let mut one_sided = same(Pass, Pass, 40);
    one_sided.extend(same(Pass, Fail, 9));
    vec![
        case_from_items(
            "both all pass (κ undefined)".into(),
            &same(Pass, Pass, 12),
            0,
        ),
        case_from_items(
            "both all fail (κ undefined)".into(),
            &same(Fail, Fail, 5),
            0,
        ),
        case_from_items(
            "human all fail, judge all pass".into(),
            &same(Fail, Pass, 8),
            0,
        ),
        case_from_items("a single item".into(), &same(Fail, Fail, 1), 0),
        case_from_items("perfect agreement".into(), &perfect, 0),
        case_from_items("perfect disagreement".into(), &opposite, 0),
        case_from_items("the human never fails".into(), &one_sided, 0),
    ]
}

/// A uniform number in [0, 1).
fn uniform(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
}

fn random_cases() -> Vec<Case> {
    // A fixed seed: the same cases on every run, so a disagreement reproduces.
    let mut rng = ChaCha8Rng::seed_from_u64(20_240_601);
    (0..RANDOM_CASES)
        .map(|index| {
            let size = 1 + (rng.next_u64() % 150) as usize;
            // Class balance from none to all failing, judges from always wrong to always right.
            let fail_share = uniform(&mut rng);
            let accuracy = uniform(&mut rng);
            let unscored_share = if index % 3 == 0 { 0.1 * uniform(&mut rng) } else { 0.0 };
            let missing_share = if index % 4 == 0 { 0.1 * uniform(&mut rng) } else { 0.0 };
            let criteria = 1 + (rng.next_u64() % 4) as usize;
            let items: Vec<Item> = (0..size)
                .map(|_| {
                    let criterion = Criterion::ALL[(rng.next_u64() % criteria as u64) as usize];
                    let human = if uniform(&mut rng) < fail_share {
                        Outcome::Fail
                    } else {
                        Outcome::Pass
                    };
                    let draw = uniform(&mut rng);
                    let judge = if draw < missing_share {
                        None
                    } else if draw < missing_share + unscored_share {
                        Some(Outcome::Unscored)
                    } else if uniform(&mut rng) < accuracy {
                        Some(human)
                    } else {
                        Some(flip(human))
                    };
                    Item {
                        criterion,
                        human,
                        judge,
                    }
                })
                .collect();
            let judge_only = (rng.next_u64() % 3) as usize;
            case_from_items(
                format!("random case {index} ({size} items, fail share {fail_share:.2}, accuracy {accuracy:.2})"),
                &items,
                judge_only,
            )
        })
        .collect()
}

fn name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Pass => "pass",
        Outcome::Fail => "fail",
        Outcome::Unscored => "unscored",
    }
}

fn check(case: &str, ours: &CriterionCalibration, theirs: &Value) -> Result<(), String> {
    let mismatch = |what: &str| {
        Err(format!(
            "{case}: {} {what} differs\n  toolscope: {ours:?}\n  sklearn:   {theirs}",
            ours.criterion.as_str()
        ))
    };
    let matrix: Vec<Vec<u64>> =
        serde_json::from_value(theirs["matrix"].clone()).unwrap_or_else(|error| {
            panic!("{case}: sklearn's matrix is not counts ({error}): {theirs}")
        });
    let ours_matrix = ours.confusion.as_matrix();
    if matrix != [ours_matrix[0].to_vec(), ours_matrix[1].to_vec()] {
        return mismatch("the confusion matrix");
    }
    if !same_number(ours.kappa, theirs["kappa"].as_f64(), 1e-12) {
        return mismatch("κ");
    }
    // Ratios of the same integers: equal, and null exactly where scikit-learn has nan.
    if !same_number(ours.fail_precision.rate, theirs["precision"].as_f64(), 0.0) {
        return mismatch("precision of fail");
    }
    if !same_number(ours.fail_recall.rate, theirs["recall"].as_f64(), 0.0) {
        return mismatch("recall of fail");
    }
    if !same_number(ours.agreement.rate, theirs["accuracy"].as_f64(), 1e-15) {
        return mismatch("agreement");
    }
    Ok(())
}

#[test]
fn kappa_confusion_precision_and_recall_agree_with_scikit_learn() {
    let cases: Vec<Case> = edge_cases().into_iter().chain(random_cases()).collect();
    let mut requests = Vec::new();
    let mut compared = Vec::new();
    for case in &cases {
        let calibration = calibrate(&case.judge, &case.human);
        let criteria: Vec<Criterion> = calibration
            .criteria
            .iter()
            .map(|row| row.criterion)
            .collect();
        let expected: Vec<Criterion> = case.pairs.iter().map(|(criterion, _)| *criterion).collect();
        assert_eq!(criteria, expected, "{}: the criteria calibrated", case.name);
        for ((criterion, pairs), row) in case.pairs.iter().zip(&calibration.criteria) {
            assert_eq!(
                row.paired,
                pairs.len() as u64,
                "{}: {} paired",
                case.name,
                criterion.as_str()
            );
            if pairs.is_empty() {
                // scikit-learn has no answer for no items; toolscope's is "undefined".
                assert_eq!(row.kappa, None, "{}", case.name);
                continue;
            }
            let human: Vec<&str> = pairs.iter().map(|(human, _)| name(*human)).collect();
            let judge: Vec<&str> = pairs.iter().map(|(_, judge)| name(*judge)).collect();
            requests.push(json!({"human": human, "judge": judge}));
            compared.push((
                format!("{} / {}", case.name, criterion.as_str()),
                row.clone(),
            ));
        }
    }
    let answer = run_reference("sklearn_kappa.py", &json!({ "cases": requests }));
    let answers = answer["cases"]
        .as_array()
        .expect("the script answers a list of cases");
    assert_eq!(answers.len(), compared.len());
    let failures: Vec<String> = compared
        .iter()
        .zip(answers)
        .filter_map(|((case, ours), theirs)| check(case, ours, theirs).err())
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} criteria differ from scikit-learn {}:\n{}",
        failures.len(),
        compared.len(),
        answer["sklearn"],
        failures.join("\n")
    );
    // The comparison covered what it claims: undefined κ, negative κ, and enough items.
    let undefined = compared
        .iter()
        .filter(|(_, row)| row.kappa.is_none())
        .count();
    let negative = compared
        .iter()
        .filter(|(_, row)| row.kappa.is_some_and(|kappa| kappa < 0.0))
        .count();
    assert!(
        undefined >= 2 && negative >= 2,
        "undefined {undefined}, negative {negative}"
    );
    assert!(compared.len() >= RANDOM_CASES);
}
