"""scikit-learn's per-class precision, recall, F1 and support, for tests/sklearn_agreement.rs.

stdin:  {"cases": [{"y_true": [...], "y_pred": [...], "labels": [...]}, ...]}
stdout: {"sklearn": "<version>", "cases": [{"rows": [{"label", "tp", "fp", "fn", "precision",
        "recall", "f1", "support"}, ...]}, ...]}

Undefined values (sklearn's nan under zero_division=np.nan) are written as null, as toolscope
writes them. tp/fp/fn come from sklearn's own multilabel_confusion_matrix, so the counts are
sklearn's too, not recomputed here.
"""

import json
import math
import sys

import numpy as np
import sklearn
from sklearn.metrics import multilabel_confusion_matrix, precision_recall_fscore_support


def finite_or_none(value):
    value = float(value)
    return None if math.isnan(value) else value


def count(value):
    # multilabel_confusion_matrix can return floats (e.g. for a single sample); counts are
    # whole numbers all the same.
    assert float(value).is_integer(), value
    return int(value)


def one_case(case):
    y_true, y_pred, labels = case["y_true"], case["y_pred"], case["labels"]
    precision, recall, f1, support = precision_recall_fscore_support(
        y_true, y_pred, labels=labels, zero_division=np.nan
    )
    matrices = multilabel_confusion_matrix(y_true, y_pred, labels=labels)
    rows = []
    for index, label in enumerate(labels):
        (_tn, fp), (fn, tp) = matrices[index].tolist()
        rows.append(
            {
                "label": label,
                "tp": count(tp),
                "fp": count(fp),
                "fn": count(fn),
                "precision": finite_or_none(precision[index]),
                "recall": finite_or_none(recall[index]),
                "f1": finite_or_none(f1[index]),
                "support": count(support[index]),
            }
        )
    return {"rows": rows}


def main():
    request = json.load(sys.stdin)
    answer = {
        "sklearn": sklearn.__version__,
        "cases": [one_case(case) for case in request["cases"]],
    }
    json.dump(answer, sys.stdout, allow_nan=False)


if __name__ == "__main__":
    main()
