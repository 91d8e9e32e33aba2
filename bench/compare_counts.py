#!/usr/bin/env python3
"""Compares the seed's counts (seed_reference.py --json) with toolscope's (report --json) on the
same files: problems by kind for the checks both implement, each problem's (session, step, kind),
and the per-tool selection counts. Prints every disagreement with the call it is about.
Exit status 0 when they agree, 1 when they do not.

usage: compare_counts.py SEED_SUMMARY.json TOOLSCOPE_REPORT.json SESSIONS.jsonl
"""

import json
import sys
from collections import Counter

KINDS = ("unknown_tool", "schema", "malformed_args", "order")


def main() -> int:
    seed_path, report_path, sessions_path = sys.argv[1:4]
    with open(seed_path, encoding="utf-8") as file:
        seed = json.load(file)
    with open(report_path, encoding="utf-8") as file:
        report = json.load(file)

    rust_by_kind = {kind: report["summary"]["by_kind"].get(kind, {}).get("problems", 0) for kind in KINDS}
    agree = True
    print(f"{'check':16} {'seed (Python)':>14} {'toolscope':>10}")
    for kind in KINDS:
        python_count = seed["problems"].get(kind, 0)
        mark = "" if python_count == rust_by_kind[kind] else "  <- differ"
        agree &= not mark
        print(f"{kind:16} {python_count:>14} {rust_by_kind[kind]:>10}{mark}")

    python_keys = Counter(tuple(item) for item in seed["detail"])
    rust_keys = Counter(
        (p["session_id"], p["step"], p["kind"]) for p in report["problems"] if p["kind"] in KINDS
    )
    only_python = python_keys - rust_keys
    only_rust = rust_keys - python_keys
    if only_python or only_rust:
        agree = False
        calls = {}
        wanted = {key[0] for key in list(only_python) + list(only_rust)}
        with open(sessions_path, encoding="utf-8") as file:
            for line in file:
                session = json.loads(line)
                if session["session_id"] in wanted:
                    calls[session["session_id"]] = [
                        e for e in session["events"] if e.get("type") == "tool_use"
                    ]
        for title, keys in (("only the seed finds", only_python), ("only toolscope finds", only_rust)):
            by_kind = Counter(key[2] for key in keys.elements())
            if not keys:
                continue
            print(f"\n{title}: {sum(keys.values())} problems {dict(by_kind)}; for example:")
            for session_id, step, kind in sorted(keys)[:8]:
                call = calls[session_id][step - 1]
                print(f"  {session_id} step {step} {kind}: {call['name']} {json.dumps(call.get('args'))}")

    if seed.get("selection") and report.get("selection"):
        rust_rows = {row["tool"]: [row["tp"], row["fp"], row["fn"]] for row in report["selection"]["per_tool"]}
        python_rows = seed["selection"]["per_tool"]
        same = rust_rows == python_rows and seed["selection"]["turns"] == report["selection"]["turns"]
        agree &= same
        print(
            f"\nselection: {seed['selection']['turns']} vs {report['selection']['turns']} labelled turns, "
            f"per-tool tp/fp/fn over {len(python_rows)} tools: {'agree' if same else 'DIFFER'}"
        )
        if not same:
            for tool in sorted(set(rust_rows) | set(python_rows)):
                if rust_rows.get(tool) != python_rows.get(tool):
                    print(f"  {tool}: seed {python_rows.get(tool)} toolscope {rust_rows.get(tool)}")
    print("\nresult:", "the seed and toolscope agree" if agree else "the seed and toolscope DISAGREE (see above)")
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())
