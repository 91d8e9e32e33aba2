"""Python jsonschema's errors for (schema, instance) pairs, for tests/jsonschema_agreement.rs.

stdin:  {"cases": [{"schema": {...}, "instance": ...}, ...]}
stdout: {"jsonschema": "<version>", "cases": [{"errors": [{"pointer", "message", "keyword"}]}]}

Validation is exactly the seed's `Draft202012Validator(schema).iter_errors(instance)`: no format
checker, so `format` is an annotation. `pointer` is the RFC 6901 JSON pointer of the failing
value (error.absolute_path), "" for the instance itself.
"""

import json
import sys
from importlib.metadata import version

from jsonschema import Draft202012Validator


def pointer(path):
    return "".join(
        "/" + str(part).replace("~", "~0").replace("/", "~1") for part in path
    )


def one_case(case):
    validator = Draft202012Validator(case["schema"])
    return {
        "errors": [
            {
                "pointer": pointer(error.absolute_path),
                "message": error.message,
                "keyword": error.validator,
            }
            for error in validator.iter_errors(case["instance"])
        ]
    }


def main():
    request = json.load(sys.stdin)
    answer = {
        "jsonschema": version("jsonschema"),
        "cases": [one_case(case) for case in request["cases"]],
    }
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
