"""scikit-learn's Cohen's kappa, confusion matrix, and precision and recall of "fail", for
tests/judge_calibration.rs.

stdin:  {"cases": [{"human": ["pass" | "fail", ...], "judge": [...]}, ...]}  (paired items)
stdout: {"sklearn": "<version>", "cases": [{"kappa", "matrix", "precision", "recall",
        "accuracy"}, ...]}

The human is y_true (y1), the judge y_pred (y2); labels are ["pass", "fail"], so the matrix's
rows are the human's pass and fail and its columns the judge's. Undefined values (sklearn's nan:
kappa when both raters gave one and the same label only, precision with no predicted fail,
recall with no true fail) are written as null, as toolscope writes them.
"""

import json
import math
import sys
import warnings

import numpy as np
import sklearn
from sklearn.metrics import (
    accuracy_score,
    cohen_kappa_score,
    confusion_matrix,
    precision_recall_fscore_support,
)

LABELS = ["pass", "fail"]


def finite_or_none(value):
    value = float(value)
    return None if math.isnan(value) else value


def one_case(case):
    human, judge = case["human"], case["judge"]
    kappa = cohen_kappa_score(human, judge, labels=LABELS)
    matrix = confusion_matrix(human, judge, labels=LABELS)
    precision, recall, _, _ = precision_recall_fscore_support(
        human, judge, labels=["fail"], average=None, zero_division=np.nan
    )
    return {
        "kappa": finite_or_none(kappa),
        "matrix": [[int(count) for count in row] for row in matrix.tolist()],
        "precision": finite_or_none(precision[0]),
        "recall": finite_or_none(recall[0]),
        "accuracy": float(accuracy_score(human, judge)),
    }


def main():
    # Undefined kappa, precision or recall warn; they are reported as null instead.
    warnings.simplefilter("ignore")
    request = json.load(sys.stdin)
    answer = {
        "sklearn": sklearn.__version__,
        "cases": [one_case(case) for case in request["cases"]],
    }
    json.dump(answer, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
