"""BFCL's own AST checker on its own data: the reference for tests/bfcl_agreement.rs.

Reads {"categories": [...]} on stdin. For every question of each category (BFCL v4 files shipped
in the bfcl-eval package), builds model answers (the ground truth, and mutations of it), runs
`bfcl_eval.eval_checker.ast_eval.ast_checker.ast_checker` on each and prints
{"version", "cases": [{"id", "category", "mutation", "functions", "question", "ground_truth",
"calls": [{"name", "args"}], "param", "valid", "error_type"}]}; `param` names the parameter a
mutation changed.

Java and JavaScript questions show the model every parameter as a string: their answers are
written as a model writes them there (`"5L"`, `"new ArrayList<>(Arrays.asList(...))"`,
`"{key: 'v'}"`), after the mutation; one more mutation gives a parameter its value unwritten.

bfcl-eval is installed with --no-deps (its dependencies are model clients, torch among them);
the checker needs none of them except its model table, used only to rename dotted function names
for some models: a stand-in table says no model renames.
"""

import copy
import importlib.metadata
import json
import os
import sys
import types


class _NoRenaming(dict):
    def __missing__(self, key):
        return types.SimpleNamespace(underscore_to_dot=False)


_model_config = types.ModuleType("bfcl_eval.constants.model_config")
_model_config.MODEL_CONFIG_MAPPING = _NoRenaming()
sys.modules["bfcl_eval.constants.model_config"] = _model_config

import bfcl_eval  # noqa: E402
from bfcl_eval.constants.enums import Language  # noqa: E402
from bfcl_eval.eval_checker.ast_eval.ast_checker import ast_checker  # noqa: E402

DATA = os.path.join(os.path.dirname(bfcl_eval.__file__), "data")


def read_lines(path):
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def first_acceptable(values):
    """The ground truth's first acceptable value, as a model would write it (None: omit)."""
    for value in values:
        if value == "" and isinstance(value, str):
            continue
        return chosen(value)
    return None


def chosen(value):
    # Dict answers hold acceptable-value lists one level down (some give one value unlisted);
    # lists of dicts likewise.
    if isinstance(value, dict):
        picked = ((k, first_acceptable(vs) if isinstance(vs, list) else vs) for k, vs in value.items())
        return {k: v for k, v in picked if v is not None}
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return [chosen(item) for item in value]
    return value


def truth_calls(ground_truth):
    calls = []
    for entry in ground_truth:
        (name, params), = entry.items()
        args = {}
        for param, values in params.items():
            value = first_acceptable(values)
            if value is not None:
                args[param] = value
        calls.append({name: args})
    return calls


def wrong(value, acceptable):
    """A value of the same type that the ground truth does not accept."""
    if isinstance(value, bool):
        candidate = not value
    elif isinstance(value, int):
        candidate = value + 1
        while candidate in acceptable:
            candidate += 1
    elif isinstance(value, float):
        candidate = value + 1.5
        while candidate in acceptable:
            candidate += 1.5
    elif isinstance(value, str):
        candidate = value + "zzwrong"
    elif isinstance(value, list):
        candidate = [wrong(value[0], [])] + value[1:] if value else ["zzwrong"]
    elif isinstance(value, dict):
        if not value:
            return {"zzwrong": 1}
        key = next(iter(value))
        candidate = dict(value)
        candidate[key] = wrong(value[key], [])
    else:
        candidate = "zzwrong"
    return candidate


def language_of(category):
    if "javascript" in category:
        return Language.JAVASCRIPT
    if "java" in category:
        return Language.JAVA
    return Language.PYTHON


def java_item(value, declared=None):
    """A value inside a Java collection literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, int) and declared == "long":
        return f"{value}L"
    if isinstance(value, float) and declared == "float":
        return f"{value!r}f"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value)


def as_java(value, declared, items):
    if isinstance(value, str):
        return value
    if isinstance(value, list) and declared == "ArrayList":
        if not value:
            return "new ArrayList<>()"
        listed = ", ".join(java_item(item, items) for item in value)
        return f"new ArrayList<>(Arrays.asList({listed}))"
    if isinstance(value, list) and declared == "Array":
        listed = ", ".join(java_item(item, items) for item in value)
        return f"new {items or 'Object'}[]{{{listed}}}"
    if isinstance(value, dict) and declared == "HashMap":
        if not value:
            return "new HashMap<>()"
        puts = " ".join(f"put({json.dumps(k)}, {java_item(v)});" for k, v in value.items())
        return f"new HashMap<String, Object>() {{{{ {puts} }}}}"
    if isinstance(value, (bool, int, float)):
        return java_item(value, declared)
    return json.dumps(value)


def js_item(value):
    """A JavaScript literal."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(js_item(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {js_item(v)}" for k, v in value.items()) + "}"
    return repr(value)


def as_javascript(value, declared, items):
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and declared == "Bigint":
        return f"{value}n"
    return js_item(value)


def written(category, functions, calls):
    """Calls with each argument written as a string, as Java and JavaScript answers are."""
    language = language_of(category)
    if language == Language.PYTHON:
        return calls
    write = as_java if language == Language.JAVA else as_javascript
    out = []
    for call in calls:
        (name, args), = call.items()
        details = next((f for f in functions if f["name"] == name), {})
        properties = details.get("parameters", {}).get("properties", {})
        converted = {}
        for param, value in args.items():
            declared = properties.get(param, {})
            items = declared.get("items", {}).get("type")
            converted[param] = write(value, declared.get("type"), items)
        out.append({name: converted})
    return out


def mutations(category, functions, ground_truth):
    """(name, calls, the parameter it changed or None) for the truth and each mutation that
    applies."""
    truth = truth_calls(ground_truth)
    yield "truth", truth, None
    if language_of(category) != Language.PYTHON:
        (name, args), = truth[0].items()
        typed = next((p for p, v in args.items() if not isinstance(v, str)), None)
        if typed is not None:
            # Marked for main() to leave unwritten: a value where a string is expected.
            yield "not_string", truth, typed
    (name, args), = truth[0].items()
    params = ground_truth[0][name]
    if args:
        param = next(iter(args))
        mutated = copy.deepcopy(truth)
        mutated[0][name][param] = wrong(args[param], params[param])
        yield "wrong_value", mutated, param
        mutated = copy.deepcopy(truth)
        mutated[0][name]["zz_unexpected"] = 1
        yield "unexpected_param", mutated, "zz_unexpected"
    required = [p for p, values in params.items() if "" not in values and p in args]
    if required:
        mutated = copy.deepcopy(truth)
        del mutated[0][name][required[0]]
        yield "missing_param", mutated, required[0]
    yield "extra_call", truth + [copy.deepcopy(truth[0])], None
    others = [f["name"] for f in functions if f["name"] != name]
    if others:
        mutated = copy.deepcopy(truth)
        mutated[0] = {others[0]: args}
        yield "wrong_function", mutated, None
    # Values the checker accepts in another spelling: an int for a float, a re-cased string.
    details = next((f for f in functions if f["name"] == name), {})
    properties = details.get("parameters", {}).get("properties", {})
    for param, value in args.items():
        declared = properties.get(param, {}).get("type")
        if declared == "float" and isinstance(value, float) and value.is_integer():
            mutated = copy.deepcopy(truth)
            mutated[0][name][param] = int(value)
            yield "int_for_float", mutated, param
            break
    for param, value in args.items():
        if isinstance(value, str) and any(c.isalpha() for c in value):
            mutated = copy.deepcopy(truth)
            mutated[0][name][param] = value.upper().replace(" ", "_")
            yield "respelled_string", mutated, param
            break
    if len(truth) > 1:
        yield "reordered", list(reversed(truth)), None
        yield "missing_call", truth[:-1], None


def main():
    request = json.load(sys.stdin)
    cases = []
    for category in request["categories"]:
        questions = read_lines(os.path.join(DATA, f"BFCL_v4_{category}.json"))
        answers = {
            entry["id"]: entry["ground_truth"]
            for entry in read_lines(os.path.join(DATA, "possible_answer", f"BFCL_v4_{category}.json"))
        }
        for question in questions:
            ground_truth = answers[question["id"]]
            functions = question["function"]
            language = language_of(category)
            for mutation, typed, param in mutations(category, functions, ground_truth):
                calls = written(category, functions, typed)
                if mutation == "not_string":
                    calls = copy.deepcopy(calls)
                    (name, args), = calls[0].items()
                    args[param] = typed[0][name][param]
                try:
                    result = ast_checker(functions, calls, ground_truth, language, category, "reference")
                except Exception as error:  # BFCL's converters raise on types they lack
                    result = {"valid": None, "error_type": f"crashed: {error!r}"}
                cases.append({
                    "id": f"{question['id']}.{mutation}",
                    "category": category,
                    "mutation": mutation,
                    "param": param,
                    "functions": functions,
                    "question": question["question"],
                    "ground_truth": ground_truth,
                    "calls": [{"name": n, "args": a} for call in calls for n, a in call.items()],
                    "valid": result["valid"],
                    "error_type": result.get("error_type"),
                })
    json.dump({"version": importlib.metadata.version("bfcl-eval"), "cases": cases}, sys.stdout)


if __name__ == "__main__":
    main()
