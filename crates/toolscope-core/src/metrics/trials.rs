//! Repeated trials of a task: pass^k and pass@k.
//!
//! Sessions that name their task (`task_id`) and say how the attempt went (a [`Trial`]: τ-bench's
//! `reward`, τ²-bench's `reward_info.reward`, an Inspect sample's score, a native session's
//! `reward`) are grouped by task. A trial succeeds with a reward of 1 (within 1e-6, as τ-bench's
//! `is_successful`). For a task with `n` trials and `c` successes:
//!
//! - **pass^k** = C(c, k) / C(n, k): the chance that k trials drawn from its n all succeed (τ-bench,
//!   Yao et al. 2024, arXiv 2406.12045), averaged over tasks;
//! - **pass@k** = 1 − C(n − c, k) / C(n, k): the chance that at least one of k succeeds (Chen et
//!   al. 2021's unbiased estimator), averaged over tasks.
//!
//! **Each task with its own n.** τ-bench's code divides by C(N, k) with one N for all tasks, the
//! number of distinct trial numbers in the results: a task run fewer times than N counts as if
//! its missing trials had failed. toolscope uses each task's own n and, for a k, averages over
//! the tasks with at least k trials (their count is given with each value). When every task has
//! the same number of trials the two agree; `tau_bench_pass_hat_k` gives τ-bench's own figure
//! beside it, so a published τ-bench number can be reproduced exactly.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use statrs::function::factorial::binomial;

use crate::model::{Session, Trial};

/// pass^k or pass@k for one k.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PassK {
    /// k.
    pub k: u64,
    /// The value, averaged over `tasks`.
    pub value: f64,
    /// The tasks averaged: those with at least k trials.
    pub tasks: u64,
}

/// One task's trials.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TaskTrials {
    /// The task.
    pub task_id: String,
    /// Its scored trials.
    pub trials: u64,
    /// How many succeeded.
    pub successes: u64,
}

/// Repeated trials and their pass^k and pass@k.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trials {
    /// Tasks with a scored trial.
    pub tasks: u64,
    /// Scored trials (sessions with a task id and a reward).
    pub trials: u64,
    /// Trials that succeeded.
    pub successes: u64,
    /// The mean reward over trials (τ-bench's "average reward").
    pub average_reward: f64,
    /// Whether every task has the same number of trials (then toolscope's pass^k is τ-bench's).
    pub is_uniform: bool,
    /// pass^k for k = 1 to the most trials of any task, each task with its own n.
    pub pass_hat_k: Vec<PassK>,
    /// pass@k, likewise.
    pub pass_at_k: Vec<PassK>,
    /// pass^k as τ-bench's `display_metrics` computes it: one n for every task, the number of
    /// distinct trial numbers (the most trials of a task when some trial has no number), every
    /// task counted; k = 1 to that n.
    pub tau_bench_pass_hat_k: Vec<PassK>,
    /// Each task, by id.
    pub per_task: Vec<TaskTrials>,
}

/// The trials of `sessions`, or None when no session names its task and has a reward.
pub fn summarize_trials<'a>(sessions: impl IntoIterator<Item = &'a Session>) -> Option<Trials> {
    trials_of(
        sessions
            .into_iter()
            .filter_map(|session| Some((session.task_id.as_deref()?, session.trial?))),
    )
}

/// The trials of each scored attempt given as its task and trial (in any order), or None when
/// there are none. [`summarize_trials`] counts sessions with it; [`crate::merge`] the report
/// rows of merged parts, so the two cannot disagree.
pub fn trials_of<'a>(attempts: impl IntoIterator<Item = (&'a str, Trial)>) -> Option<Trials> {
    let mut by_task: BTreeMap<&str, Vec<Trial>> = BTreeMap::new();
    for (task, trial) in attempts {
        by_task.entry(task).or_default().push(trial);
    }
    if by_task.is_empty() {
        return None;
    }
    let per_task: Vec<TaskTrials> = by_task
        .iter()
        .map(|(task, trials)| TaskTrials {
            task_id: task.to_string(),
            trials: trials.len() as u64,
            successes: trials.iter().filter(|trial| trial.is_success()).count() as u64,
        })
        .collect();
    let all: Vec<&Trial> = by_task.values().flatten().collect();
    let most = per_task.iter().map(|task| task.trials).max().unwrap_or(0);
    let numbers: BTreeSet<u64> = all.iter().filter_map(|trial| trial.number).collect();
    let tau_n = if all.iter().all(|trial| trial.number.is_some()) {
        numbers.len() as u64
    } else {
        most
    };
    let mean_over = |k: u64, value: &dyn Fn(&TaskTrials) -> f64| {
        let counted: Vec<f64> = per_task
            .iter()
            .filter(|task| task.trials >= k)
            .map(value)
            .collect();
        PassK {
            k,
            value: counted.iter().sum::<f64>() / counted.len() as f64,
            tasks: counted.len() as u64,
        }
    };
    Some(Trials {
        tasks: per_task.len() as u64,
        trials: all.len() as u64,
        successes: per_task.iter().map(|task| task.successes).sum(),
        average_reward: sum_in_order(all.iter().map(|trial| trial.reward)) / all.len() as f64,
        is_uniform: per_task.iter().all(|task| task.trials == most),
        pass_hat_k: (1..=most)
            .map(|k| mean_over(k, &|task| pass_hat(task.successes, task.trials, k)))
            .collect(),
        pass_at_k: (1..=most)
            .map(|k| mean_over(k, &|task| pass_at(task.successes, task.trials, k)))
            .collect(),
        tau_bench_pass_hat_k: (1..=tau_n)
            .map(|k| PassK {
                k,
                value: per_task
                    .iter()
                    .map(|task| binomial(task.successes, k) / binomial(tau_n, k))
                    .sum::<f64>()
                    / per_task.len() as f64,
                tasks: per_task.len() as u64,
            })
            .collect(),
        per_task,
    })
}

/// The sum of `values` smallest first: the same to the last bit whatever order the attempts
/// came in (the order of sessions in a file, or of parts merged).
fn sum_in_order(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    crate::sort::sort_by(&mut values, f64::total_cmp);
    values.iter().sum()
}

/// C(c, k) / C(n, k) (0 when c < k).
pub fn pass_hat(c: u64, n: u64, k: u64) -> f64 {
    binomial(c, k) / binomial(n, k)
}

/// 1 − C(n − c, k) / C(n, k).
pub fn pass_at(c: u64, n: u64, k: u64) -> f64 {
    1.0 - binomial(n - c, k) / binomial(n, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(task: &str, number: u64, reward: f64) -> Session {
        Session {
            session_id: format!("{task}.{number}"),
            task_id: Some(task.into()),
            trial: Some(Trial {
                number: Some(number),
                reward,
            }),
            ..Session::default()
        }
    }

    #[test]
    fn pass_hat_k_and_pass_at_k_per_task_with_its_own_trials() {
        // Task a: 4 trials, 2 successes; task b: 2 trials, 2 successes; c: a session without
        // a reward does not count.
        let sessions = vec![
            session("a", 0, 1.0),
            session("a", 1, 0.0),
            session("a", 2, 1.0 - 1e-9),
            session("a", 3, 0.5),
            session("b", 0, 1.0),
            session("b", 1, 1.0),
            Session {
                task_id: Some("c".into()),
                ..Session::default()
            },
        ];
        let trials = summarize_trials(&sessions).unwrap();
        assert_eq!((trials.tasks, trials.trials, trials.successes), (2, 6, 4));
        assert!(!trials.is_uniform);
        let hat: Vec<(u64, f64, u64)> = trials
            .pass_hat_k
            .iter()
            .map(|p| (p.k, p.value, p.tasks))
            .collect();
        // k=1: (2/4 + 2/2) / 2; k=2: (C(2,2)/C(4,2) + 1) / 2; k=3, 4: a alone, C(2,k) = 0.
        assert_eq!(hat[0], (1, 0.75, 2));
        assert!((hat[1].1 - (1.0 / 6.0 + 1.0) / 2.0).abs() < 1e-15);
        assert_eq!((hat[2].0, hat[2].1, hat[2].2), (3, 0.0, 1));
        assert_eq!(hat.len(), 4);
        // pass@2 of a: 1 − C(2,2)/C(4,2) = 5/6; of b: 1.
        assert!((trials.pass_at_k[1].value - (5.0 / 6.0 + 1.0) / 2.0).abs() < 1e-15);
        // τ-bench's way: n = 4 distinct trial numbers for both tasks.
        let tau = &trials.tau_bench_pass_hat_k;
        assert_eq!(tau.len(), 4);
        assert!((tau[1].value - (1.0 / 6.0 + 1.0 / 6.0) / 2.0).abs() < 1e-15);
        assert!(
            (trials.average_reward - (1.0 + 0.0 + (1.0 - 1e-9) + 0.5 + 1.0 + 1.0) / 6.0).abs()
                < 1e-12
        );
        assert!(summarize_trials(&[Session::default()]).is_none());
    }
}
