//! Repeated trials: pass^k and pass@k per k, with the tasks each is averaged over, and
//! τ-bench's own pass^k beside them when the tasks ran different numbers of trials.

use toolscope_core::metrics::trials::Trials;

use super::{figures, hint, table, Figure};
use crate::markup::Markup;

/// The trials section.
pub(super) fn trials(markup: &mut Markup, trials: &Trials) {
    figures(
        markup,
        &[
            Figure::new(
                "Trials",
                format!("{} of {} tasks", trials.trials, trials.tasks),
                "sessions that name their task and have a reward",
            ),
            Figure::new(
                "Succeeded",
                format!("{} of {}", trials.successes, trials.trials),
                "a reward of 1",
            ),
            Figure::new(
                "Average reward",
                format!("{:.3}", trials.average_reward),
                "",
            ),
        ],
    );
    hint(
        markup,
        "pass^k: the chance that k trials of a task all succeed, C(c, k) / C(n, k) with the \
         task's own n trials and c successes; pass@k: that at least one does. Each averaged over \
         the tasks with at least k trials.",
    );
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
    table(markup, &columns, |markup| {
        for (index, hat) in trials.pass_hat_k.iter().enumerate() {
            markup.element("tr", &[], |markup| {
                let mut cell = |text: String| {
                    markup.element("td", &[("class", "num")], |markup| markup.text(&text));
                };
                cell(hat.k.to_string());
                cell(format!("{:.3}", hat.value));
                cell(
                    trials
                        .pass_at_k
                        .get(index)
                        .map_or_else(String::new, |at| format!("{:.3}", at.value)),
                );
                cell(hat.tasks.to_string());
                if has_tau {
                    cell(
                        trials
                            .tau_bench_pass_hat_k
                            .iter()
                            .find(|tau| tau.k == hat.k)
                            .map_or_else(String::new, |tau| format!("{:.3}", tau.value)),
                    );
                }
            });
        }
    });
    if has_tau {
        hint(
            markup,
            "The tasks ran different numbers of trials. τ-bench's own figure divides every task \
             by one trial count (the number of distinct trial numbers), as if a task's missing \
             trials had failed.",
        );
    }
}
