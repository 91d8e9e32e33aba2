"""SciPy's values for the comparison statistics, for tests/compare_stats.rs.

stdin:  {"mcnemar": [[worse, better], ...], "proportions": [[x1, n1, x2, n2], ...],
         "holm": [[p, ...], ...]}
stdout: {"scipy": "<version>", "mcnemar": [p, ...], "proportions": [{"z", "p", "wilson1",
         "wilson2", "newcombe"} | null, ...], "holm": [[adjusted, ...], ...]}

- McNemar's exact test is the two-sided binomial test of the smaller discordant count against
  Binomial(worse + better, 1/2) (scipy.stats.binomtest).
- The pooled two-proportion z-test equals the uncorrected chi-square test of the 2x2 table
  (scipy.stats.chi2_contingency(correction=False)): chi2 = z^2 and the same p-value; z's sign is
  that of x2/n2 - x1/n1.
- Wilson intervals are scipy's binomtest(...).proportion_ci(method="wilson"); Newcombe's hybrid
  score interval (method 10) is built from them as his paper gives it.
- Holm's adjustment is written out from its definition: adjusted_(i) = max over j <= i of
  min(1, (m - j) * p_(j)) on the ascending p-values.
"""

import json
import math
import sys

import scipy
from scipy.stats import binomtest, chi2_contingency


def mcnemar(worse, better):
    n = worse + better
    if n == 0:
        return 1.0
    return binomtest(min(worse, better), n, 0.5, alternative="two-sided").pvalue


def wilson(k, n):
    interval = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    return [interval.low, interval.high]


def proportions(x1, n1, x2, n2):
    if n1 == 0 or n2 == 0:
        return None
    pooled = (x1 + x2) / (n1 + n2)
    p1, p2 = x1 / n1, x2 / n2
    w1, w2 = wilson(x1, n1), wilson(x2, n2)
    d = p2 - p1
    newcombe = [
        d - math.sqrt((p2 - w2[0]) ** 2 + (w1[1] - p1) ** 2),
        d + math.sqrt((w2[1] - p2) ** 2 + (p1 - w1[0]) ** 2),
    ]
    result = {"wilson1": w1, "wilson2": w2, "newcombe": newcombe, "z": None, "p": None}
    if 0 < pooled < 1:
        table = [[x1, n1 - x1], [x2, n2 - x2]]
        chi2, p, _, _ = chi2_contingency(table, correction=False)
        result["z"] = math.copysign(math.sqrt(chi2), d) if d != 0 else 0.0
        result["p"] = p
    return result


def holm(ps):
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    adjusted = [0.0] * m
    for rank, index in enumerate(order):
        adjusted[index] = max(min(1.0, (m - j) * ps[order[j]]) for j in range(rank + 1))
    return adjusted


request = json.load(sys.stdin)
json.dump(
    {
        "scipy": scipy.__version__,
        "mcnemar": [mcnemar(*pair) for pair in request["mcnemar"]],
        "proportions": [proportions(*case) for case in request["proportions"]],
        "holm": [holm(ps) for ps in request["holm"]],
    },
    sys.stdout,
)
