"""BFCL's own Java and JavaScript type converters: the reference for
tests/bfcl_literals_agreement.rs.

Reads {"cases": [{"language": "java"|"javascript", "text", "type", "items"}]} on stdin and prints
{"version", "values": [...]}: for each case the value BFCL's converter makes of the string
(`java_type_converter` / `js_type_converter`, the items' type as their `nested_type`), or
{"raised": "..."} where it raises. Floats that JSON cannot hold (inf, nan) are printed as null.
"""

import contextlib
import importlib.metadata
import json
import math
import sys

from bfcl_eval.eval_checker.ast_eval.type_convertor.java_type_converter import (
    java_type_converter,
)
from bfcl_eval.eval_checker.ast_eval.type_convertor.js_type_converter import (
    js_type_converter,
)

NESTED = {"Array", "ArrayList", "array"}


def plain(value):
    """The value as JSON can hold it."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    return value


def main():
    request = json.load(sys.stdin)
    values = []
    for case in request["cases"]:
        convert = java_type_converter if case["language"] == "java" else js_type_converter
        items = case["items"] if case["type"] in NESTED else None
        try:
            # The dict parser prints its own errors: keep stdout for the answer.
            with contextlib.redirect_stdout(sys.stderr):
                if items:
                    value = convert(case["text"], case["type"], items)
                else:
                    value = convert(case["text"], case["type"])
            values.append(plain(value))
        except Exception as error:  # noqa: BLE001 - what raised is the answer
            values.append({"raised": repr(error)})
    version = importlib.metadata.version("bfcl-eval")
    json.dump({"version": version, "values": values}, sys.stdout)


if __name__ == "__main__":
    main()
