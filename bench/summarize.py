#!/usr/bin/env python3
"""Turns bench/compare.sh's measurements into the Markdown tables of docs/performance.md.

usage: summarize.py OUT_DIR
    Reads OUT_DIR/times.json and times-dense.json (hyperfine's --export-json shape), rss.json
    ({name: kB}), sessions.jsonl, sessions-dense.jsonl and labels.jsonl (their sizes) and
    toolscope-plain.json (the data set's shape); writes OUT_DIR/results.md and prints it.
usage: summarize.py --from-time OUT_DIR JSON_OUT NAME...
    Without hyperfine: turns OUT_DIR/time-<i>.txt (lines of "wall user sys" from /usr/bin/time)
    into JSON_OUT in hyperfine's shape.
"""

import json
import os
import platform
import statistics
import subprocess
import sys
from importlib.metadata import version

SEED_CHECKS = "seed (Python): checks"
SEED_ALL = "seed (Python): checks + selection"
CHECK = "toolscope check"
REPORT = "toolscope report --json --labels"
BASELINE = "parse only (serde_json::Value)"


def from_time(out: str, target: str, names: list[str]) -> None:
    results = []
    for i, name in enumerate(names):
        with open(os.path.join(out, f"time-{i}.txt"), encoding="utf-8") as file:
            rows = [[float(x) for x in line.split()[-3:]] for line in file if line.strip()]
        times = [row[0] for row in rows]
        results.append({
            "command": name,
            "mean": statistics.mean(times),
            "stddev": statistics.stdev(times) if len(times) > 1 else 0.0,
            "times": times,
            "user": statistics.mean(row[1] for row in rows),
            "system": statistics.mean(row[2] for row in rows),
        })
    with open(target, "w", encoding="utf-8") as file:
        json.dump({"results": results}, file)


def shell(command: str) -> str:
    try:
        return subprocess.run(command, shell=True, capture_output=True, text=True).stdout.strip()
    except OSError:
        return "?"


def memory_gib() -> float:
    with open("/proc/meminfo", encoding="utf-8") as file:
        return int(file.readline().split()[1]) / 1024**2


def load_average() -> str:
    with open("/proc/loadavg", encoding="utf-8") as file:
        return " ".join(file.read().split()[:3])


def load(path: str) -> dict:
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def cpu(result: dict) -> float:
    return result.get("user", 0.0) + result.get("system", 0.0)


def table(times: dict, names: list[str], megabytes: float, rss: dict, seed_for) -> list[str]:
    lines = [
        "| command | wall time, mean ± sd | CPU (user+sys) | throughput (wall) | max RSS "
        "| × parse only (wall / CPU) | seed ÷ this (wall / CPU) |",
        "|---|---|---|---|---|---|---|",
    ]
    baseline = times[BASELINE]
    for name in names:
        result = times[name]
        mean, sd = result["mean"], result.get("stddev") or 0.0
        seed = times[seed_for(name)]
        speedup = "" if name.startswith("seed") else (
            f"{seed['mean'] / mean:.1f}× / {cpu(seed) / cpu(result):.1f}×"
        )
        memory = f"{rss[name] / 1024:.0f} MB" if name in rss else ""
        lines.append(
            f"| `{name}` | {mean:.2f} s ± {sd:.2f} ({len(result['times'])} runs) | {cpu(result):.2f} s "
            f"| {megabytes / mean:.0f} MB/s | {memory} "
            f"| {mean / baseline['mean']:.2f} / {cpu(result) / cpu(baseline):.2f} | {speedup} |"
        )
    return lines


def main() -> int:
    if sys.argv[1] == "--from-time":
        from_time(sys.argv[2], sys.argv[3], sys.argv[4:])
        return 0
    out = sys.argv[1]
    times = {r["command"]: r for r in load(os.path.join(out, "times.json"))["results"]}
    rss = load(os.path.join(out, "rss.json"))
    report = load(os.path.join(out, "toolscope-plain.json"))
    megabytes = os.path.getsize(os.path.join(out, "sessions.jsonl")) / 1e6
    labels_mb = os.path.getsize(os.path.join(out, "labels.jsonl")) / 1e6

    cpu_name = shell("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
    summary = report["summary"]
    calls = sorted(row["calls"] for row in report["sessions"])

    def pick(quantile: float) -> int:
        return calls[min(len(calls) - 1, int(len(calls) * quantile))]

    lines = [
        f"Machine: {shell('nproc')} cores ({cpu_name}), {memory_gib():.0f} GiB, load average "
        f"{load_average()} when summarised; {shell('rustc --version')}; "
        f"Python {platform.python_version()}, jsonschema {version('jsonschema')}.",
        "",
        f"Data: `sessions.jsonl` {megabytes:.1f} MB: {summary['sessions']:,} sessions, "
        f"{summary['calls']:,} calls, {summary['turns']:,} turns; calls per session median "
        f"{pick(0.5)}, p90 {pick(0.9)}, p99 {pick(0.99)}, max {calls[-1]}. `labels.jsonl` "
        f"{labels_mb:.1f} MB, {report['selection']['turns']:,} labelled turns.",
        "",
    ]
    lines += table(
        times,
        [SEED_CHECKS, SEED_ALL, CHECK, REPORT, BASELINE],
        megabytes,
        rss,
        lambda name: SEED_ALL if name in (REPORT, SEED_ALL) else SEED_CHECKS,
    )
    check, baseline, seed = times[CHECK], times[BASELINE], times[SEED_CHECKS]
    lines += [
        "",
        f"Targets: `toolscope check` is {seed['mean'] / check['mean']:.1f}× faster than the seed's "
        f"code in wall time ({cpu(seed) / cpu(check):.1f}× in CPU time; target ≥ 30×: "
        f"{'met' if seed['mean'] / check['mean'] >= 30 else 'missed'}), and takes "
        f"{check['mean'] / baseline['mean']:.2f}× the wall time of parsing alone "
        f"({cpu(check) / cpu(baseline):.2f}× its CPU time; target ≤ 1.5×: "
        f"{'met' if check['mean'] / baseline['mean'] <= 1.5 else 'missed'}).",
    ]
    dense_path = os.path.join(out, "times-dense.json")
    if os.path.exists(dense_path):
        dense = {r["command"]: r for r in load(dense_path)["results"]}
        dense_mb = os.path.getsize(os.path.join(out, "sessions-dense.jsonl")) / 1e6
        lines += [
            "",
            f"Call-dense copy (`sessions-dense.jsonl`, {dense_mb:.1f} MB, the same "
            f"{summary['calls']:,} calls):",
            "",
        ]
        lines += table(dense, [SEED_CHECKS, CHECK, BASELINE], dense_mb, {}, lambda _: SEED_CHECKS)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(out, "results.md"), "w", encoding="utf-8") as file:
        file.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
