#!/usr/bin/env python3
"""The seeds' reference code, run over toolscope-gen's files: the Python side of bench/compare.sh.

check_calls() and selection_report() are the seeds' code as published (a Draft202012Validator
built for every call, as the seed writes it). Around them, only what the seed leaves out:

- reading tools.json (a list of {"name", "input_schema"}, or the seed's {name: schema} dict),
  a rules file with plain names ({"must_come_after": {tool: [earlier, ...]}}; the seed has no
  argument bindings), sessions.jsonl (toolscope's native format) and labels.jsonl;
- arguments sent as a JSON string (OpenAI style) are decoded first, as toolscope does; a string
  that is not JSON is reported as "arguments are not valid JSON" instead of being schema-checked
  (the seed never sees such strings: it would report a type error against the string). This is
  the one line added inside check_calls, and it keeps such calls in `seen`, as toolscope does;
- turns start at each user event (events before the first one belong to turn 0); a turn's
  actual tool is its first call, or "none"; a label with a set of acceptable tools counts the
  actual tool when it is in the set, else the set's first member, as toolscope does.

Prints problem counts by kind (the seed's checks: unknown_tool, schema, order, plus
malformed_args) and the seed's selection_report lines. --json writes a machine-readable summary
with every problem's (session, step, kind), for bench/compare_counts.py.
"""

import argparse
import json
import re
import sys
from collections import Counter

from jsonschema import Draft202012Validator  # pip install jsonschema

TOOLS: dict = {}
MUST_COME_AFTER: dict = {}


class Malformed(str):
    """Arguments sent as a string that is not JSON."""


# ---- the first seed's check_calls, with the one added branch for broken argument strings ----
def check_calls(calls: list[dict]) -> list[str]:
    problems, seen = [], []
    for i, call in enumerate(calls, 1):
        name, args = call["name"], call.get("args", {})
        schema = TOOLS.get(name)
        if schema is None:
            problems.append(f"step {i}: unknown tool {name!r}")
            continue
        if isinstance(args, Malformed):  # added: the seed never sees string arguments
            problems.append(f"step {i}: {name}: arguments are not valid JSON")
        else:
            for err in Draft202012Validator(schema).iter_errors(args):
                problems.append(f"step {i}: {name}: {err.message}")
        for earlier in MUST_COME_AFTER.get(name, []):
            if earlier not in seen:
                problems.append(f"step {i}: {name} called before {earlier}")
        seen.append(name)
    return problems


# ---- the first seed's selection_report; it also returns its counts, for --json ----
def selection_report(pairs: list[tuple[str, str]]) -> dict:
    """pairs: (expected_tool, actual_tool) per labeled turn; "none" means no call."""
    tp, fp, fn = Counter(), Counter(), Counter()
    for expected, actual in pairs:
        if expected == actual:
            tp[expected] += 1
        else:
            fp[actual] += 1
            fn[expected] += 1
    for tool in sorted(set(tp) | set(fp) | set(fn)):
        precision = tp[tool] / (tp[tool] + fp[tool]) if tp[tool] + fp[tool] else float("nan")
        recall = tp[tool] / (tp[tool] + fn[tool]) if tp[tool] + fn[tool] else float("nan")
        print(f"{tool:14} precision {precision:.2f}  recall {recall:.2f}")
    return {tool: [tp[tool], fp[tool], fn[tool]] for tool in set(tp) | set(fp) | set(fn)}


# ---- reading the files -----------------------------------------------------------------------
def load_tools(path: str) -> dict:
    with open(path, encoding="utf-8") as file:
        value = json.load(file)
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        value = value["tools"]
    if isinstance(value, list):
        return {tool["name"]: tool.get("input_schema", tool.get("parameters", {})) for tool in value}
    return value


def load_rules(path: str) -> dict:
    with open(path, encoding="utf-8") as file:
        value = json.load(file)
    rules = value.get("must_come_after", value)
    plain = {}
    for tool, earlier in rules.items():
        names = []
        for entry in earlier:
            if isinstance(entry, dict):
                print(f"seed_reference: rule for {tool}: argument bindings ignored "
                      "(the seed has none)", file=sys.stderr)
                entry = entry["tool"]
            names.append(entry)
        plain[tool] = names
    return plain


def decode_args(args):
    if isinstance(args, str):
        try:
            return json.loads(args)
        except ValueError:
            return Malformed(args)
    return args


def turns_of(events: list[dict]) -> list[list[str]]:
    """Tool names called in each turn."""
    turns, seen_user = [[]], False
    for event in events:
        kind = event.get("type")
        if kind == "user":
            if seen_user:
                turns.append([])
            seen_user = True
        elif kind == "tool_use":
            turns[-1].append(event["name"])
    return turns


KIND_PATTERNS = [
    ("unknown_tool", re.compile(r"^step \d+: unknown tool ")),
    ("malformed_args", re.compile(r"^step \d+: [^ :]+: arguments are not valid JSON$")),
    ("order", re.compile(r"^step \d+: [^ :]+ called before [^ ]+$")),
]


def kind_of(problem: str) -> str:
    for kind, pattern in KIND_PATTERNS:
        if pattern.match(problem):
            return kind
    return "schema"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", required=True)
    parser.add_argument("--rules")
    parser.add_argument("--labels")
    parser.add_argument("--json", metavar="FILE", help="write a summary with every problem")
    parser.add_argument("sessions")
    options = parser.parse_args()

    TOOLS.update(load_tools(options.tools))
    if options.rules:
        MUST_COME_AFTER.update(load_rules(options.rules))

    counts = Counter()
    detail = []
    turns_by_session = {}
    sessions = calls_total = 0
    with open(options.sessions, encoding="utf-8") as file:
        for line in file:
            if not line.strip():
                continue
            session = json.loads(line)
            sessions += 1
            events = session.get("events", [])
            calls = [
                {"name": event["name"], "args": decode_args(event.get("args", {}))}
                for event in events
                if event.get("type") == "tool_use"
            ]
            calls_total += len(calls)
            session_id = str(session.get("session_id"))
            for problem in check_calls(calls):
                kind = kind_of(problem)
                counts[kind] += 1
                if options.json:
                    detail.append([session_id, int(problem.split(":", 1)[0][5:]), kind])
            if options.labels:
                turns_by_session[session_id] = turns_of(events)

    print(f"sessions {sessions}  calls {calls_total}")
    for kind in ("unknown_tool", "schema", "malformed_args", "order"):
        print(f"  {kind:20} {counts[kind]}")

    per_tool = None
    pairs = []
    if options.labels:
        with open(options.labels, encoding="utf-8") as file:
            for line in file:
                if not line.strip():
                    continue
                label = json.loads(line)
                turns = turns_by_session.get(str(label["session_id"]))
                turn = label.get("turn", 0)
                if turns is None or turn >= len(turns):
                    continue
                called = turns[turn]
                actual = called[0] if called else "none"
                expected = label.get("expected_tool")
                if expected is None:
                    expected = (label.get("expected_tools") or ["none"])[0]
                if isinstance(expected, list):
                    expected = actual if actual in expected else expected[0]
                pairs.append((expected, actual))
        print(f"selection: {len(pairs)} labelled turns")
        per_tool = selection_report(pairs)

    if options.json:
        summary = {
            "sessions": sessions,
            "calls": calls_total,
            "problems": dict(counts),
            "detail": detail,
            "selection": None if per_tool is None else {"turns": len(pairs), "per_tool": per_tool},
        }
        with open(options.json, "w", encoding="utf-8") as file:
            json.dump(summary, file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
