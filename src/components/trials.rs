//! Repeated trials of tasks: pass^k and pass@k per k (each averaged over the tasks with at
//! least k trials), and τ-bench's own pass^k beside them when tasks ran different numbers of
//! trials.

use leptos::prelude::*;
use toolscope_core::metrics::trials::Trials;

use super::table::header;

/// The table under the overview's cards.
#[component]
pub fn TrialsTable(trials: Trials) -> impl IntoView {
    let has_tau = !trials.is_uniform;
    let mut columns = vec![
        ("k", true),
        ("pass^k", true),
        ("pass@k", true),
        ("Tasks", true),
    ];
    if has_tau {
        columns.push(("τ-bench's pass^k", true));
    }
    let rows = trials
        .pass_hat_k
        .iter()
        .enumerate()
        .map(|(index, hat)| {
            let at = trials
                .pass_at_k
                .get(index)
                .map(|at| format!("{:.3}", at.value));
            let tau = has_tau.then(|| {
                trials
                    .tau_bench_pass_hat_k
                    .iter()
                    .find(|tau| tau.k == hat.k)
                    .map_or_else(String::new, |tau| format!("{:.3}", tau.value))
            });
            view! {
                <tr data-k=hat.k>
                    <td class="num">{hat.k}</td>
                    <td class="num">{format!("{:.3}", hat.value)}</td>
                    <td class="num">{at}</td>
                    <td class="num">{hat.tasks}</td>
                    {tau.map(|tau| view! { <td class="num">{tau}</td> })}
                </tr>
            }
        })
        .collect_view();
    view! {
        <h2>"Repeated trials"</h2>
        <p class="hint" data-testid="trials-summary">
            {format!(
                "{} trials of {} tasks, {} succeeded, average reward {:.3}. pass^k: the chance that \
                 k trials of a task all succeed (C(c, k) / C(n, k) with the task's own n); pass@k: \
                 that at least one does; each averaged over the tasks with at least k trials.",
                trials.trials, trials.tasks, trials.successes, trials.average_reward
            )}
        </p>
        <div class="table-wrap">
            <table class="table" data-testid="trials">
                {header(&columns)}
                <tbody>{rows}</tbody>
            </table>
        </div>
        {has_tau.then(|| view! {
            <p class="hint">
                "The tasks ran different numbers of trials. τ-bench's own figure divides every task \
                 by one trial count (the number of distinct trial numbers), as if a task's missing \
                 trials had failed."
            </p>
        })}
    }
}
