"""Splits toolscope-gen's sessions.jsonl (one session per line) into N consecutive parts, each
with the labels of its own sessions, for one `toolscope report --json` per part.

    python3 split.py --parts 8 sessions.jsonl labels.jsonl OUT_DIR

writes OUT_DIR/part-000.jsonl, OUT_DIR/part-000-labels.jsonl, ... (a part whose sessions have no
labels gets no labels file). Parts are consecutive and in order, so `toolscope merge` of their
reports, in order, is the report of the whole file.
"""

import argparse
import json
import os


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", type=int, required=True)
    parser.add_argument("sessions")
    parser.add_argument("labels")
    parser.add_argument("out")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    with open(args.sessions, encoding="utf-8") as file:
        sessions = [line for line in file if line.strip()]
    per_part = -(-len(sessions) // args.parts)
    part_of = {}
    for start in range(0, len(sessions), per_part):
        chunk = sessions[start:start + per_part]
        with open(os.path.join(args.out, f"part-{start // per_part:03d}.jsonl"), "w",
                  encoding="utf-8") as file:
            file.writelines(chunk)
        for line in chunk:
            part_of[json.loads(line)["session_id"]] = start // per_part
    # Labels keep the labels file's order within each part, as the whole's report reads them.
    labels = {}
    with open(args.labels, encoding="utf-8") as file:
        for line in file:
            part = part_of.get(json.loads(line).get("session_id")) if line.strip() else None
            if part is not None:
                labels.setdefault(part, []).append(line)
    for part, lines in labels.items():
        with open(os.path.join(args.out, f"part-{part:03d}-labels.jsonl"), "w",
                  encoding="utf-8") as file:
            file.writelines(lines)

if __name__ == "__main__":
    main()
