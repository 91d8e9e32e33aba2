#!/usr/bin/env python3
"""Writes a call-dense copy of a sessions.jsonl: the same sessions and calls, with tool results and
assistant replies cut to 40 characters and no "tools" field. It shows how the comparison with the
seed's code depends on how many bytes each call carries (realistic traces are mostly tool
results; the seed's own inputs are bare lists of calls).

usage: densify.py SESSIONS.jsonl OUT.jsonl
"""

import json
import sys


def main() -> int:
    source, target = sys.argv[1:3]
    with open(source, encoding="utf-8") as lines, open(target, "w", encoding="utf-8") as out:
        for line in lines:
            session = json.loads(line)
            session.pop("tools", None)
            for event in session["events"]:
                if event["type"] in ("tool_result", "assistant"):
                    event["content"] = event["content"][:40]
            out.write(json.dumps(session, separators=(",", ":"), ensure_ascii=False))
            out.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
