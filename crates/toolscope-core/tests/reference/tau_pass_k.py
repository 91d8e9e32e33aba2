"""pass^k as tau-bench computes it, and pass@k, for toolscope's agreement test.

Input (stdin, JSON): {"runs": [{"task_id", "trial", "reward"}, ...]}, the fields of tau-bench's
EnvRunResult. Output: {"avg_reward", "pass_hat_ks": {k: value}, "pass_at_ks": {k: value}}.

`tau_bench_metrics` is tau-bench's `display_metrics` (sierra-research/tau-bench, run.py, MIT
licence) with its prints turned into a return value; nothing else is changed. `pass_at_ks` is
the unbiased pass@k estimator of Chen et al. (2021), 1 - C(n - c, k) / C(n, k) per task, averaged
over the tasks with at least k trials.
"""

import json
import sys
from math import comb


def tau_bench_metrics(results):
    def is_successful(reward: float) -> bool:
        return (1 - 1e-6) <= reward <= (1 + 1e-6)

    num_trials = len(set([r["trial"] for r in results]))
    rewards = [r["reward"] for r in results]
    avg_reward = sum(rewards) / len(rewards)
    # c from https://arxiv.org/pdf/2406.12045
    c_per_task_id = {}
    for result in results:
        if result["task_id"] not in c_per_task_id:
            c_per_task_id[result["task_id"]] = 1 if is_successful(result["reward"]) else 0
        else:
            c_per_task_id[result["task_id"]] += 1 if is_successful(result["reward"]) else 0
    pass_hat_ks = {}
    for k in range(1, num_trials + 1):
        sum_task_pass_hat_k = 0
        for c in c_per_task_id.values():
            sum_task_pass_hat_k += comb(c, k) / comb(num_trials, k)
        pass_hat_ks[k] = sum_task_pass_hat_k / len(c_per_task_id)
    return avg_reward, pass_hat_ks


def pass_at_ks(results):
    trials, successes = {}, {}
    for r in results:
        trials[r["task_id"]] = trials.get(r["task_id"], 0) + 1
        ok = (1 - 1e-6) <= r["reward"] <= (1 + 1e-6)
        successes[r["task_id"]] = successes.get(r["task_id"], 0) + (1 if ok else 0)
    out = {}
    for k in range(1, max(trials.values()) + 1):
        values = [
            1 - comb(n - successes[t], k) / comb(n, k) for t, n in trials.items() if n >= k
        ]
        out[k] = sum(values) / len(values)
    return out


runs = json.load(sys.stdin)["runs"]
avg_reward, pass_hat_ks = tau_bench_metrics(runs)
json.dump({"avg_reward": avg_reward, "pass_hat_ks": pass_hat_ks, "pass_at_ks": pass_at_ks(runs)}, sys.stdout)
