//! Two runs compared metric by metric: each metric's value in both (over all of each run's
//! cases, so it is the report's own figure), the difference, a 1 − α interval for it, a test, and
//! a verdict that says whether the change is real.
//!
//! Runs are paired by session id, and yes/no outcomes by case within a session (`turn 2`,
//! `call 3`, `task`): see [`super::observe`].
//!
//! - **Paired** (some sessions in both runs): the interval is a paired bootstrap over the
//!   sessions in both runs (seeded; the seed is in the output). A metric of yes/no cases is
//!   tested with the exact McNemar test on the cases in both runs; a ratio (precision, F1,
//!   error rates, actions matched) is called changed when its interval excludes 0. Per-tool
//!   recall p-values are Holm-adjusted across tools.
//! - **Unpaired** (no session in both runs): yes/no metrics get Newcombe's interval and the
//!   two-proportion z-test on all cases; ratios an unpaired bootstrap (each run's sessions
//!   resampled on their own).
//! - **Too few cases**: fewer than `min_cases` paired cases (or, unpaired, cases in either run);
//!   no verdict then, whatever the numbers say.
//!
//! Cases only in one run are counted apart, never as passes. The cases that got worse and better
//! are listed, each with its session.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use itertools::{EitherOrBoth, Itertools};
use serde::{Deserialize, Serialize};

pub use super::observe::MetricValue;
use super::observe::{
    aggregate_values, higher_is_better, is_case_metric, visit_observations, Case, Observation,
};
use super::stats::{
    holm, mcnemar_exact, newcombe_difference_at, paired_bootstrap_by, two_proportion_z,
    unpaired_bootstrap as unpaired_bootstrap_of,
};
use crate::hashing::{HashMap, HashMapExt, HashSet, HashSetExt};
use crate::report::Report;

/// How to compare.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DiffOptions {
    /// The bootstrap generator's seed.
    pub seed: u64,
    /// Bootstrap resamples.
    pub resamples: usize,
    /// Fewest cases for a verdict.
    pub min_cases: u64,
    /// The significance level.
    pub alpha: f64,
}

impl DiffOptions {
    /// The intervals' confidence, 1 − α: the interval that decides a ratio's verdict (and the
    /// one shown beside a test's p-value) is at the level the p-values are compared with.
    pub fn confidence(&self) -> f64 {
        1.0 - self.alpha
    }
}

impl Default for DiffOptions {
    fn default() -> DiffOptions {
        DiffOptions {
            seed: 0,
            resamples: 2_000,
            min_cases: 20,
            alpha: 0.05,
        }
    }
}

/// Whether a change is real, and which way it goes for the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Significantly worse.
    Worse,
    /// Significantly better.
    Better,
    /// No significant change.
    NoSignificantChange,
    /// Too few cases to say.
    TooFewCases,
    /// Only one run has the metric.
    NotInBoth,
    /// No test can be made: a ratio over sessions where one run is a summary report, which
    /// keeps no per-session values.
    NotTested,
}

impl Verdict {
    /// The verdict as the output spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Worse => "worse",
            Verdict::Better => "better",
            Verdict::NoSignificantChange => "no significant change",
            Verdict::TooFewCases => "too few cases",
            Verdict::NotInBoth => "not in both runs",
            Verdict::NotTested => "not tested (summary report)",
        }
    }

    /// Where rows with this verdict go in a listing: worse first, then better, unchanged, and
    /// those without a verdict.
    pub fn rank(self) -> u8 {
        match self {
            Verdict::Worse => 0,
            Verdict::Better => 1,
            Verdict::NoSignificantChange => 2,
            Verdict::TooFewCases => 3,
            Verdict::NotTested => 4,
            Verdict::NotInBoth => 5,
        }
    }
}

/// One metric in both runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MetricDiff {
    /// The metric, as a gate names it (`selection.tool_accuracy`, `per_tool.T.recall`, …).
    pub metric: String,
    /// Whether higher is better.
    pub higher_is_better: bool,
    /// The baseline's value and its numerator and denominator; None when it lacks the metric.
    pub base: Option<MetricValue>,
    /// The current run's.
    pub current: Option<MetricValue>,
    /// current − base.
    pub difference: Option<f64>,
    /// Its interval at 1 − α (95 % by default): the one that decides a ratio's verdict.
    pub interval: Option<[f64; 2]>,
    /// `mcnemar`, `bootstrap`, `two_proportion` or `none`.
    pub test: String,
    /// The test's p-value (McNemar, two-proportion), when it gives one.
    pub p_value: Option<f64>,
    /// The p-value after Holm's correction across tools (per-tool recall only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_adjusted: Option<f64>,
    /// Whether the runs were paired on this metric.
    pub is_paired: bool,
    /// Cases (or, for ratios, sessions) in both runs.
    pub paired: u64,
    /// Paired yes/no cases that went the wrong way, and the right way.
    pub worse_cases: u64,
    /// …
    pub better_cases: u64,
    /// Cases only in the baseline, and only in the current run: counted apart.
    pub only_in_base: u64,
    /// …
    pub only_in_current: u64,
    /// The verdict.
    pub verdict: Verdict,
}

/// A case that changed between the runs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CaseChange {
    /// The metric whose case it is.
    pub metric: String,
    /// The session.
    pub session_id: String,
    /// The case in it.
    pub case: String,
}

/// The comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diff {
    /// How it was made.
    pub options: DiffOptions,
    /// Sessions in the baseline, in the current run, in both.
    pub sessions: SessionCounts,
    /// Every metric in either run, in name order.
    pub metrics: Vec<MetricDiff>,
    /// Paired cases that got worse, per metric, in session order.
    pub regressed: Vec<CaseChange>,
    /// Paired cases that got better.
    pub improved: Vec<CaseChange>,
    /// Sessions only in the baseline, and only in the current run (ids, sorted).
    pub only_in_base: Vec<String>,
    /// …
    pub only_in_current: Vec<String>,
    /// What makes part of the comparison unsound, said once (e.g. arguments compared another
    /// way in each run).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// How many sessions each run has and shares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionCounts {
    /// In the baseline.
    pub base: u64,
    /// In the current run.
    pub current: u64,
    /// In both.
    pub both: u64,
}

/// One run's observations of one metric, by session and by case, each sorted by its key
/// ([`Side::finish`]).
#[derive(Default)]
struct Side<'a> {
    num: u64,
    den: u64,
    /// Σnum and Σden per session id.
    by_session: Vec<(&'a str, (u64, u64))>,
    /// Each case's outcome (numerator > 0); for a case observed twice, the last.
    cases: Vec<((&'a str, Case<'a>), bool)>,
    has_cases: bool,
}

impl<'a> Side<'a> {
    fn add(&mut self, observation: &Observation<'a>) {
        self.num += observation.num;
        self.den += observation.den;
        // A session's observations of a metric mostly come together: add to the last one.
        match self.by_session.last_mut() {
            Some((id, sums)) if *id == observation.session_id => {
                sums.0 += observation.num;
                sums.1 += observation.den;
            }
            _ => self
                .by_session
                .push((observation.session_id, (observation.num, observation.den))),
        }
        if let Some(case) = observation.case {
            self.has_cases = true;
            self.cases
                .push(((observation.session_id, case), observation.num > 0));
        }
    }

    /// Sorts both lists by key, a session's sums added into one entry and each case's last
    /// outcome kept.
    fn finish(&mut self) {
        crate::sort::sort_by(&mut self.by_session, |a, b| a.0.cmp(b.0));
        self.by_session.dedup_by(|later, kept| {
            let is_same = later.0 == kept.0;
            if is_same {
                kept.1 .0 += later.1 .0;
                kept.1 .1 += later.1 .1;
            }
            is_same
        });
        // Stable, so a case's observations stay in the order seen: keep the last.
        crate::sort::sort_by(&mut self.cases, |a, b| a.0.cmp(&b.0));
        self.cases.dedup_by(|later, kept| {
            let is_same = later.0 == kept.0;
            if is_same {
                kept.1 = later.1;
            }
            is_same
        });
    }

    fn value(&self) -> MetricValue {
        MetricValue {
            value: ratio(self.num, self.den),
            num: self.num,
            den: self.den,
            mean_over: None,
        }
    }
}

fn ratio(num: u64, den: u64) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

/// The entries of two lists sorted by the same key (each key once), side by side in key order:
/// both, or the one that has it.
fn merge_by_key<'m, K: Ord + 'm, V: 'm>(
    before: &'m [(K, V)],
    after: &'m [(K, V)],
) -> impl Iterator<Item = (&'m K, EitherOrBoth<&'m V>)> + 'm {
    before
        .iter()
        .merge_join_by(after, |(b, _), (a, _)| b.cmp(a))
        .map(|entry| match entry {
            EitherOrBoth::Both((key, was), (_, now)) => (key, EitherOrBoth::Both(was, now)),
            EitherOrBoth::Left((key, was)) => (key, EitherOrBoth::Left(was)),
            EitherOrBoth::Right((key, now)) => (key, EitherOrBoth::Right(now)),
        })
}

/// `report`'s observations by metric. [`visit_observations`] makes each metric's name once and
/// shares it, so a metric's side is found by its name's address, not by comparing names.
fn group(report: &Report) -> BTreeMap<Arc<str>, Side<'_>> {
    let mut sides: Vec<(Arc<str>, Side)> = Vec::new();
    let mut by_name: HashMap<*const u8, usize> = HashMap::new();
    visit_observations(report, |observation| {
        let at = *by_name
            .entry(observation.metric.as_ptr())
            .or_insert_with(|| {
                sides.push((observation.metric.clone(), Side::default()));
                sides.len() - 1
            });
        sides[at].1.add(&observation);
    });
    let mut grouped: BTreeMap<Arc<str>, Side> = BTreeMap::new();
    for (name, side) in sides {
        // One name made twice would be two sides: put them together.
        let kept = grouped.entry(name).or_default();
        kept.num += side.num;
        kept.den += side.den;
        kept.has_cases |= side.has_cases;
        kept.by_session.extend(side.by_session);
        kept.cases.extend(side.cases);
    }
    for side in grouped.values_mut() {
        side.finish();
    }
    grouped
}

/// The sides of a run that is compared from its totals only.
fn aggregate_sides(report: &Report) -> BTreeMap<String, Side<'static>> {
    crate::sort::collect_by_insert(aggregate_values(report).into_iter().map(|(metric, value)| {
        let side = Side {
            num: value.num,
            den: value.den,
            has_cases: is_case_metric(&metric),
            ..Side::default()
        };
        (metric, side)
    }))
}

/// Compares `current` against `base`. When either is a summary report
/// ([`Report::into_summary`]), both are compared from their totals, unpaired: yes/no metrics
/// with the two-proportion test, ratios over sessions not at all ([`Verdict::NotTested`]).
pub fn diff(base: &Report, current: &Report, options: &DiffOptions) -> Diff {
    if base.is_summary() || current.is_summary() {
        return diff_totals(base, current, options);
    }
    let (base_sides, current_sides) = (group(base), group(current));
    let base_ids: BTreeSet<&str> =
        crate::sort::collect_by_insert(base.sessions.iter().map(|s| s.session_id.as_str()));
    let current_ids: BTreeSet<&str> =
        crate::sort::collect_by_insert(current.sessions.iter().map(|s| s.session_id.as_str()));
    let names: BTreeSet<&str> = base_sides
        .keys()
        .chain(current_sides.keys())
        .map(|name| &**name)
        .collect();
    let shared: HashSet<&str> = base_ids.intersection(&current_ids).copied().collect();
    let mut metrics = Vec::new();
    let mut regressed = Vec::new();
    let mut improved = Vec::new();
    let empty = Side::default();
    let compared = each_metric(names.into_iter().collect(), |name| {
        let (before, after) = (
            base_sides.get(name).unwrap_or(&empty),
            current_sides.get(name).unwrap_or(&empty),
        );
        compare_metric(name, before, after, &shared, options)
    });
    for (row, changes) in compared {
        if let Some((worse, better)) = changes {
            regressed.extend(worse);
            improved.extend(better);
        }
        metrics.push(row);
    }
    adjust_recalls(&mut metrics, options.alpha);
    let notes = args_mode_note(base, current, &mut metrics)
        .into_iter()
        .collect();
    let order = |change: &CaseChange| (change.session_id.clone(), change.case.clone());
    crate::sort::sort_by_key(&mut regressed, order);
    crate::sort::sort_by_key(&mut improved, order);
    Diff {
        options: options.clone(),
        sessions: SessionCounts {
            base: base_ids.len() as u64,
            current: current_ids.len() as u64,
            both: base_ids.intersection(&current_ids).count() as u64,
        },
        metrics,
        regressed,
        improved,
        only_in_base: base_ids
            .difference(&current_ids)
            .map(|id| id.to_string())
            .collect(),
        only_in_current: current_ids
            .difference(&base_ids)
            .map(|id| id.to_string())
            .collect(),
        notes,
    }
}

/// `compare` of each name, in the names' order. With the `parallel` feature (the CLI's) the
/// metrics are compared on all cores: each metric's bootstrap has its own generator, seeded
/// alike, so the results are the same as one by one (as in the browser).
fn each_metric<'n, T: Send>(names: Vec<&'n str>, compare: impl Fn(&'n str) -> T + Sync) -> Vec<T> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        names.into_par_iter().map(&compare).collect()
    }
    #[cfg(not(feature = "parallel"))]
    {
        names.into_iter().map(compare).collect()
    }
}

/// [`diff`] of two runs from their totals.
fn diff_totals(base: &Report, current: &Report, options: &DiffOptions) -> Diff {
    let (base_sides, current_sides) = (aggregate_sides(base), aggregate_sides(current));
    let names: BTreeSet<&String> = base_sides.keys().chain(current_sides.keys()).collect();
    let empty = Side::default();
    let mut metrics: Vec<MetricDiff> = names
        .into_iter()
        .map(|name| {
            let before = base_sides.get(name).unwrap_or(&empty);
            let after = current_sides.get(name).unwrap_or(&empty);
            let (mut row, _) = compare_metric(name, before, after, &HashSet::new(), options);
            if row.test == "bootstrap" {
                (row.interval, row.test) = (None, "none".into());
                row.verdict = Verdict::NotTested;
            }
            row
        })
        .collect();
    adjust_recalls(&mut metrics, options.alpha);
    let which = match (base.is_summary(), current.is_summary()) {
        (true, true) => "both runs are summary reports",
        (true, false) => "the baseline is a summary report",
        _ => "the current run is a summary report",
    };
    let mut notes = vec![format!(
        "{which} (report --json --summary), which keep no sessions: the runs are compared \
         unpaired from their totals, and ratios over sessions (precision, f1, tool_errors.rate, \
         tasks.actions_matched) are not tested"
    )];
    notes.extend(args_mode_note(base, current, &mut metrics));
    Diff {
        options: options.clone(),
        sessions: SessionCounts {
            base: base.summary.sessions,
            current: current.summary.sessions,
            both: 0,
        },
        metrics,
        regressed: Vec::new(),
        improved: Vec::new(),
        only_in_base: Vec::new(),
        only_in_current: Vec::new(),
        notes,
    }
}

type Changes = (Vec<CaseChange>, Vec<CaseChange>);

/// When the runs compared labelled arguments differently: the note, and the argument accuracy
/// not compared.
fn args_mode_note(base: &Report, current: &Report, metrics: &mut [MetricDiff]) -> Option<String> {
    let (before, after) = (base.selection.as_ref()?, current.selection.as_ref()?);
    if before.args_mode == after.args_mode {
        return None;
    }
    for row in metrics
        .iter_mut()
        .filter(|row| row.metric == "selection.args_accuracy")
    {
        row.verdict = Verdict::NotInBoth;
        (row.difference, row.interval, row.p_value) = (None, None, None);
        row.test = "none".into();
    }
    Some(
        format!(
            "the runs compared labelled arguments differently ({:?} and {:?}, --args-match): \
             selection.args_accuracy is not compared",
            before.args_mode, after.args_mode
        )
        .to_lowercase(),
    )
}

/// One session's (Σnum, Σden) in the baseline and in the current run.
type SessionPair = ((u64, u64), (u64, u64));

fn compare_metric(
    name: &str,
    before: &Side,
    after: &Side,
    shared: &HashSet<&str>,
    options: &DiffOptions,
) -> (MetricDiff, Option<Changes>) {
    let higher = higher_is_better(name);
    let (base, current) = (
        (before.den > 0).then(|| before.value()),
        (after.den > 0).then(|| after.value()),
    );
    let difference = match (base, current) {
        (Some(base), Some(current)) => current.value.zip(base.value).map(|(c, b)| c - b),
        _ => None,
    };
    let mut row = MetricDiff {
        metric: name.to_string(),
        higher_is_better: higher,
        base,
        current,
        difference,
        interval: None,
        test: "none".into(),
        p_value: None,
        p_adjusted: None,
        is_paired: false,
        paired: 0,
        worse_cases: 0,
        better_cases: 0,
        only_in_base: 0,
        only_in_current: 0,
        verdict: Verdict::NotInBoth,
    };
    if base.is_none() || current.is_none() {
        return (row, None);
    }
    // Every session in both runs that has the metric in either, with (0, 0) where one run has
    // none of it (a tool called only in one run still counts in that run's precision), in id
    // order: the two runs' sessions merged, as both are sorted by id.
    let paired_sessions: Vec<SessionPair> = merge_by_key(&before.by_session, &after.by_session)
        .filter(|(id, _)| shared.contains(*id))
        .map(|(_, pair)| {
            let (was, now) = pair.or(&(0, 0), &(0, 0));
            (*was, *now)
        })
        .collect();
    row.is_paired = !paired_sessions.is_empty();
    let is_case_metric = before.has_cases && after.has_cases;
    let mut changes = None;
    // The cases of both runs in one pass: those only in one, and those in both (in case order).
    let mut paired_cases: Vec<(&(&str, Case), bool, bool)> = Vec::new();
    if is_case_metric {
        for (key, case) in merge_by_key(&before.cases, &after.cases) {
            match case {
                EitherOrBoth::Both(&was, &now) => paired_cases.push((key, was, now)),
                EitherOrBoth::Left(_) => row.only_in_base += 1,
                EitherOrBoth::Right(_) => row.only_in_current += 1,
            }
        }
    }
    if row.is_paired {
        // Each resample's Σnum and Σden in both runs, summed as drawn.
        let interval = paired_bootstrap_by(
            paired_sessions.len(),
            options.resamples,
            options.seed,
            options.confidence(),
            |draws| {
                let (mut b, mut a) = ((0, 0), (0, 0));
                for index in draws {
                    let (before, after) = paired_sessions[index];
                    (b.0, b.1, a.0, a.1) =
                        (b.0 + before.0, b.1 + before.1, a.0 + after.0, a.1 + after.1);
                }
                match (ratio(a.0, a.1), ratio(b.0, b.1)) {
                    (Some(a), Some(b)) => a - b,
                    _ => f64::NAN,
                }
            },
        );
        row.interval = interval;
        if is_case_metric {
            let mut worse = Vec::new();
            let mut better = Vec::new();
            for (key, was, now) in paired_cases {
                row.paired += 1;
                // A case "holds" the metric's numerator; it got worse when it moved against
                // the metric's good direction.
                let change = || CaseChange {
                    metric: name.to_string(),
                    session_id: key.0.to_string(),
                    case: key.1.to_string(),
                };
                match (was, now) {
                    (true, false) if higher => worse.push(change()),
                    (false, true) if !higher => worse.push(change()),
                    (true, false) | (false, true) => better.push(change()),
                    _ => {}
                }
            }
            row.worse_cases = worse.len() as u64;
            row.better_cases = better.len() as u64;
            row.test = "mcnemar".into();
            row.p_value = Some(mcnemar_exact(row.worse_cases, row.better_cases));
            changes = Some((worse, better));
        } else {
            row.paired = paired_sessions.len() as u64;
            row.test = "bootstrap".into();
        }
    } else if is_case_metric {
        let (b, a) = (before.value(), after.value());
        row.interval = newcombe_difference_at(b.num, b.den, a.num, a.den, options.confidence());
        row.test = "two_proportion".into();
        row.p_value = two_proportion_z(b.num, b.den, a.num, a.den).map(|(_, p)| p);
    } else {
        row.interval = unpaired_bootstrap(before, after, options);
        row.test = "bootstrap".into();
    }
    // What the verdict rests on: paired cases; for ratios, the smaller of the two runs'
    // denominators over the sessions in both (or over all sessions, unpaired).
    let cases = match (row.is_paired, row.test.as_str()) {
        (true, "mcnemar") => row.paired,
        (true, _) => {
            let (b, a) = paired_sessions
                .iter()
                .fold((0, 0), |(b, a), (before, after)| {
                    (b + before.1, a + after.1)
                });
            b.min(a)
        }
        (false, _) => before.den.min(after.den),
    };
    row.verdict = verdict(&row, cases, options);
    (row, changes)
}

fn verdict(row: &MetricDiff, cases: u64, options: &DiffOptions) -> Verdict {
    if cases < options.min_cases {
        return Verdict::TooFewCases;
    }
    let is_significant = match (row.p_adjusted.or(row.p_value), row.interval) {
        (Some(p), _) => p < options.alpha,
        (None, Some([low, high])) => low > 0.0 || high < 0.0,
        (None, None) => return Verdict::TooFewCases,
    };
    let Some(difference) = row.difference else {
        return Verdict::NoSignificantChange;
    };
    if !is_significant || difference == 0.0 {
        return Verdict::NoSignificantChange;
    }
    if (difference > 0.0) == row.higher_is_better {
        Verdict::Better
    } else {
        Verdict::Worse
    }
}

/// Holm's correction across tools of the per-tool recall p-values, and the verdicts again.
fn adjust_recalls(metrics: &mut [MetricDiff], alpha: f64) {
    let family: Vec<usize> = metrics
        .iter()
        .enumerate()
        .filter(|(_, row)| row.metric.starts_with("per_tool.") && row.metric.ends_with(".recall"))
        .filter(|(_, row)| row.p_value.is_some())
        .map(|(index, _)| index)
        .collect();
    let p_values: Vec<f64> = family
        .iter()
        .filter_map(|&index| metrics[index].p_value)
        .collect();
    for (&index, adjusted) in family.iter().zip(holm(&p_values)) {
        let row = &mut metrics[index];
        row.p_adjusted = Some(adjusted);
        if matches!(row.verdict, Verdict::Better | Verdict::Worse) && adjusted >= alpha {
            row.verdict = Verdict::NoSignificantChange;
        }
    }
}

/// A percentile bootstrap of the difference with each run's sessions resampled on their own.
fn unpaired_bootstrap(before: &Side, after: &Side, options: &DiffOptions) -> Option<[f64; 2]> {
    let before: Vec<(u64, u64)> = before.by_session.iter().map(|(_, sums)| *sums).collect();
    let after: Vec<(u64, u64)> = after.by_session.iter().map(|(_, sums)| *sums).collect();
    let sum = |sample: &[&(u64, u64)]| {
        sample
            .iter()
            .fold((0, 0), |(n, d), (num, den)| (n + num, d + den))
    };
    let (resamples, seed) = (options.resamples, options.seed);
    unpaired_bootstrap_of(
        &before,
        &after,
        resamples,
        seed,
        options.confidence(),
        |b, a| {
            let (b, a) = (sum(b), sum(a));
            match (ratio(a.0, a.1), ratio(b.0, b.1)) {
                (Some(a), Some(b)) => a - b,
                _ => f64::NAN,
            }
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` sessions `{prefix}{i}`, each one turn calling lookup_order or search_docs (the `wrong`
    /// first ones call search_docs), labelled lookup_order.
    fn report(prefix: &str, n: usize, wrong: usize) -> Report {
        let mut sessions = String::new();
        let mut labels = String::new();
        for i in 0..n {
            let tool = if i < wrong {
                "search_docs"
            } else {
                "lookup_order"
            };
            sessions.push_str(&format!(
                r#"{{"session_id": "{prefix}{i}", "events": [{{"type": "user", "content": "where is 7Q{i}"}}, {{"type": "tool_use", "name": "{tool}", "args": {{"q": "7Q{i}"}}}}, {{"type": "tool_result", "status": "ok", "content": "ok"}}]}}"#
            ));
            sessions.push('\n');
            labels.push_str(&format!(
                r#"{{"session_id": "{prefix}{i}", "turn": 0, "expected_tool": "lookup_order"}}"#
            ));
            labels.push('\n');
        }
        crate::test_support::report_of(&sessions, &labels)
    }

    fn metric<'a>(diff: &'a Diff, name: &str) -> &'a MetricDiff {
        diff.metrics
            .iter()
            .find(|row| row.metric == name)
            .unwrap_or_else(|| panic!("no {name}"))
    }

    #[test]
    fn alpha_decides_ratio_verdicts_through_the_intervals_level() {
        // A ratio (per-tool F1, decided by its bootstrap interval) was always judged on a 95 %
        // interval, whatever --alpha said. At α = 0.2 its interval is the 80 % one, inside the
        // 99 % one of α = 0.01, and some drop is a change at 0.2 and not at 0.01.
        let base = report("s", 60, 0);
        let mut differs = false;
        for wrong in 1..=12 {
            let current = report("s", 60, wrong);
            let at = |alpha: f64| {
                let options = DiffOptions {
                    alpha,
                    ..DiffOptions::default()
                };
                metric(&diff(&base, &current, &options), "per_tool.lookup_order.f1").clone()
            };
            let (loose, strict) = (at(0.2), at(0.01));
            assert_eq!(loose.test, "bootstrap");
            let ([low_80, high_80], [low_99, high_99]) =
                (loose.interval.unwrap(), strict.interval.unwrap());
            assert!(
                low_99 < low_80 && high_80 <= high_99,
                "{wrong}: 80 % inside 99 %"
            );
            for row in [&loose, &strict] {
                let [low, high] = row.interval.unwrap();
                let excludes_zero = low > 0.0 || high < 0.0;
                assert_eq!(row.verdict == Verdict::Worse, excludes_zero, "{wrong}");
            }
            differs |= loose.verdict == Verdict::Worse && strict.verdict != Verdict::Worse;
        }
        assert!(differs, "some drop is worse at α = 0.2 and not at α = 0.01");
    }

    #[test]
    fn a_paired_drop_in_accuracy_is_worse_with_its_turns_listed() {
        let (base, current) = (report("s", 40, 0), report("s", 40, 15));
        let diff = diff(&base, &current, &DiffOptions::default());
        assert_eq!(
            diff.sessions,
            SessionCounts {
                base: 40,
                current: 40,
                both: 40
            }
        );
        let accuracy = metric(&diff, "selection.tool_accuracy");
        assert_eq!(
            accuracy.base.unwrap().value,
            base.selection.as_ref().unwrap().tool_accuracy.rate
        );
        assert_eq!(accuracy.current.unwrap().value, Some(25.0 / 40.0));
        assert_eq!(accuracy.difference, Some(25.0 / 40.0 - 1.0));
        assert_eq!((accuracy.test.as_str(), accuracy.paired), ("mcnemar", 40));
        assert_eq!((accuracy.worse_cases, accuracy.better_cases), (15, 0));
        assert_eq!(accuracy.p_value, Some(mcnemar_exact(15, 0)));
        assert_eq!(accuracy.verdict, Verdict::Worse);
        let [low, high] = accuracy.interval.unwrap();
        assert!(
            low < -0.2 && high < 0.0 && low <= accuracy.difference.unwrap(),
            "{low} {high}"
        );
        let turns: Vec<&str> = diff
            .regressed
            .iter()
            .filter(|change| change.metric == "selection.tool_accuracy")
            .map(|change| change.session_id.as_str())
            .collect();
        assert_eq!(turns.len(), 15);
        assert!(turns.contains(&"s0") && !turns.contains(&"s20"));
        assert!(diff.improved.is_empty());
        // search_docs was never expected: its precision has no paired denominator in the base.
        assert_eq!(
            metric(&diff, "per_tool.search_docs.precision").verdict,
            Verdict::NotInBoth
        );
        // Recall of lookup_order fell on the same turns: worse after Holm (one tool, same p).
        let recall = metric(&diff, "per_tool.lookup_order.recall");
        assert_eq!(recall.p_adjusted, recall.p_value);
        assert_eq!(recall.verdict, Verdict::Worse);
        // Nothing else changed.
        assert_eq!(
            metric(&diff, "problems.rate").verdict,
            Verdict::NoSignificantChange
        );
    }

    #[test]
    fn the_same_run_twice_is_no_change_and_the_seed_makes_it_reproducible() {
        let base = report("s", 30, 5);
        let options = DiffOptions {
            seed: 7,
            ..DiffOptions::default()
        };
        let first = diff(&base, &base, &options);
        assert!(first.metrics.iter().all(|row| matches!(
            row.verdict,
            Verdict::NoSignificantChange | Verdict::TooFewCases
        )));
        assert_eq!(first, diff(&base, &base, &options));
        assert_eq!(
            metric(&first, "selection.tool_accuracy").interval,
            Some([0.0, 0.0])
        );
    }

    #[test]
    fn few_cases_give_no_verdict() {
        let diff = diff(
            &report("s", 10, 0),
            &report("s", 10, 10),
            &DiffOptions::default(),
        );
        let accuracy = metric(&diff, "selection.tool_accuracy");
        assert_eq!(
            (accuracy.worse_cases, accuracy.verdict),
            (10, Verdict::TooFewCases)
        );
    }

    #[test]
    fn runs_without_shared_sessions_are_compared_unpaired() {
        let diff = diff(
            &report("a", 60, 0),
            &report("b", 60, 30),
            &DiffOptions::default(),
        );
        assert_eq!(diff.sessions.both, 0);
        assert_eq!(diff.only_in_base.len(), 60);
        let accuracy = metric(&diff, "selection.tool_accuracy");
        assert!(!accuracy.is_paired);
        assert_eq!(accuracy.test, "two_proportion");
        assert_eq!((accuracy.only_in_base, accuracy.only_in_current), (60, 60));
        assert_eq!(
            accuracy.p_value,
            two_proportion_z(60, 60, 30, 60).map(|(_, p)| p)
        );
        assert_eq!(
            accuracy.interval,
            crate::compare::stats::newcombe_difference(60, 60, 30, 60)
        );
        assert_eq!(accuracy.verdict, Verdict::Worse);
        assert!(
            diff.regressed.is_empty(),
            "unpaired cases are not listed as changes"
        );
        let f1 = metric(&diff, "per_tool.lookup_order.f1");
        assert_eq!(f1.test, "bootstrap");
        assert!(f1.interval.unwrap()[1] < 0.0);
        assert_eq!(f1.verdict, Verdict::Worse);
    }

    #[test]
    fn runs_that_compared_arguments_differently_say_so() {
        let base = report("s", 30, 0);
        let mut current = base.clone();
        current.selection.as_mut().unwrap().args_mode =
            crate::metrics::args_match::ArgsMode::Subset;
        let compared = diff(&base, &current, &DiffOptions::default());
        assert_eq!(
            compared.notes,
            ["the runs compared labelled arguments differently (exact and subset, --args-match): \
              selection.args_accuracy is not compared"]
        );
        assert!(diff(&base, &base, &DiffOptions::default()).notes.is_empty());
    }

    /// `n` sessions, each one user turn with one call and its result, labelled by turn and by
    /// task: `session(i)` gives the expected tool, the tool called, and whether its result is an
    /// error. The task expects `lookup_order` with the call's own argument, so a call of another
    /// tool misses its action.
    fn report_of_sessions(
        n: usize,
        session: impl Fn(usize) -> (&'static str, &'static str, bool),
    ) -> Report {
        let (mut sessions, mut labels) = (String::new(), String::new());
        for i in 0..n {
            let (expected, called, error) = session(i);
            let status = if error { "error" } else { "ok" };
            sessions.push_str(&format!(
                r#"{{"session_id": "s{i:03}", "events": [{{"type": "user", "content": "where is 7Q{i}"}}, {{"type": "tool_use", "call_id": "c", "name": "{called}", "args": {{"q": "7Q{i}"}}}}, {{"type": "tool_result", "call_id": "c", "status": "{status}", "content": "r"}}, {{"type": "assistant", "content": "done"}}]}}"#
            ));
            sessions.push('\n');
            labels.push_str(&format!(
                r#"{{"session_id": "s{i:03}", "turn": 0, "expected_tool": "{expected}"}}
{{"session_id": "s{i:03}", "expected_actions": [{{"name": "lookup_order", "arguments": {{"q": "7Q{i}"}}}}]}}
"#
            ));
        }
        crate::test_support::report_of(&sessions, &labels)
    }

    #[test]
    fn alpha_decides_every_ratio_metrics_verdict() {
        // One case per ratio metric the issue named: a run with `wrong` sessions changed against
        // one with none, at α = 0.2 and 0.01. At each α the verdict is what that α decides (the
        // 1 − α interval for a bootstrap, p < α for a test), the 99 % interval holds the 80 %
        // one, and some change is significant at 0.2 and not at 0.01.
        type Session = fn(usize, usize) -> (&'static str, &'static str, bool);
        // The changed sessions call search_docs where lookup_order was asked for.
        fn missed_lookup(i: usize, wrong: usize) -> (&'static str, &'static str, bool) {
            let called = if i < wrong {
                "search_docs"
            } else {
                "lookup_order"
            };
            ("lookup_order", called, false)
        }
        let cases: [(&str, Session); 5] = [
            // The first 30 sessions ask for search_docs; the changed ones call lookup_order.
            ("per_tool.lookup_order.precision", |i, wrong| {
                let expected = if i < 30 {
                    "search_docs"
                } else {
                    "lookup_order"
                };
                let called = if i < wrong { "lookup_order" } else { expected };
                (expected, called, false)
            }),
            ("per_tool.lookup_order.recall", missed_lookup),
            ("per_tool.lookup_order.f1", missed_lookup),
            ("tool_errors.rate", |i, wrong| {
                ("lookup_order", "lookup_order", i < wrong)
            }),
            ("tasks.actions_matched", missed_lookup),
        ];
        for (name, session) in cases {
            let base = report_of_sessions(60, |i| session(i, 0));
            let mut differs = false;
            for wrong in 1..=20 {
                let current = report_of_sessions(60, |i| session(i, wrong));
                let at = |alpha: f64| {
                    let options = DiffOptions {
                        alpha,
                        ..DiffOptions::default()
                    };
                    (
                        metric(&diff(&base, &current, &options), name).clone(),
                        alpha,
                    )
                };
                let (loose, strict) = (at(0.2), at(0.01));
                for (row, alpha) in [&loose, &strict] {
                    let significant = match (row.p_adjusted.or(row.p_value), row.interval) {
                        (Some(p), _) => p < *alpha,
                        (None, Some([low, high])) => low > 0.0 || high < 0.0,
                        (None, None) => panic!("{name}: no test at {wrong}"),
                    };
                    let changed = matches!(row.verdict, Verdict::Better | Verdict::Worse);
                    assert_eq!(
                        changed, significant,
                        "{name} at α = {alpha}, {wrong} changed"
                    );
                }
                if let (Some([low_80, high_80]), Some([low_99, high_99])) =
                    (loose.0.interval, strict.0.interval)
                {
                    assert!(
                        low_99 <= low_80 && high_80 <= high_99,
                        "{name}, {wrong}: the 80 % interval inside the 99 % one"
                    );
                }
                differs |= loose.0.verdict != strict.0.verdict;
            }
            assert!(
                differs,
                "{name}: some change is decided differently at α = 0.2 and 0.01"
            );
        }
    }
}
