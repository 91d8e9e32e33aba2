#!/usr/bin/env python3
"""Turns bench/compare.sh's measurements into the Markdown tables of docs/performance.md.

usage: summarize.py OUT_DIR
    For each shape (OUT_DIR/realistic, OUT_DIR/call-dense) reads times.json (hyperfine's
    --export-json shape), rss.json ({name: kB}), sessions.jsonl and labels.jsonl (their sizes),
    report-bytes.txt (the full and the summary report's sizes) and toolscope-plain.json (the data
    set's shape); writes OUT_DIR/results.md and prints it.
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
SUMMARY = "toolscope report --json --summary --labels"
COMPACT = "toolscope report --json --compact --labels"
PARSE = "parse only: sessions"
PARSE_ALL = "parse only: sessions + labels"
SHAPES = ["realistic", "call-dense"]


def from_time(out: str, target: str, names: list[str]) -> None:
    results = []
    for i, name in enumerate(names):
        with open(os.path.join(out, f"time-{i}.txt"), encoding="utf-8") as file:
            # /usr/bin/time adds "Command exited with non-zero status 1" (toolscope found problems).
            rows = [
                [float(x) for x in line.split()[-3:]]
                for line in file
                if line.strip() and not line.startswith("Command")
            ]
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


def write_and_print(path: str, lines: list[str]) -> None:
    """Writes `lines` as a Markdown file at `path` and prints them."""
    text = "\n".join(lines) + "\n"
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)
    print(text)


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


def uses_labels(name: str) -> bool:
    return name in (SEED_ALL, REPORT, SUMMARY, PARSE_ALL)


def table(times: dict, names: list[str], megabytes: float, rss: dict) -> list[str]:
    lines = [
        "| command | wall time, mean ± sd | CPU (user+sys) | throughput (wall) | max RSS "
        "| × parse only (wall / CPU) | seed ÷ this (wall / CPU) |",
        "|---|---|---|---|---|---|---|",
    ]
    for name in names:
        baseline = times[PARSE_ALL if uses_labels(name) else PARSE]
        result = times[name]
        mean, sd = result["mean"], result.get("stddev") or 0.0
        seed = times[SEED_ALL if uses_labels(name) else SEED_CHECKS]
        speedup = "" if name.startswith(("seed", "parse")) else (
            f"{seed['mean'] / mean:.1f}× / {cpu(seed) / cpu(result):.1f}×"
        )
        memory = f"{rss[name] / 1024:.0f} MB" if name in rss else ""
        lines.append(
            f"| `{name}` | {mean:.2f} s ± {sd:.2f} ({len(result['times'])} runs) | {cpu(result):.2f} s "
            f"| {megabytes / mean:.0f} MB/s | {memory} "
            f"| {mean / baseline['mean']:.2f} / {cpu(result) / cpu(baseline):.2f} | {speedup} |"
        )
    return lines


def shape_section(out: str, shape: str) -> list[str]:
    folder = os.path.join(out, shape)
    times = {r["command"]: r for r in load(os.path.join(folder, "times.json"))["results"]}
    rss = load(os.path.join(folder, "rss.json"))
    report = load(os.path.join(folder, "toolscope-plain.json"))
    megabytes = os.path.getsize(os.path.join(folder, "sessions.jsonl")) / 1e6
    labels_mb = os.path.getsize(os.path.join(folder, "labels.jsonl")) / 1e6
    with open(os.path.join(folder, "report-bytes.txt"), encoding="utf-8") as file:
        full_bytes, summary_bytes = (int(line) for line in file.read().split())
    summary = report["summary"]
    calls = sorted(row["calls"] for row in report["sessions"])

    def pick(quantile: float) -> int:
        return calls[min(len(calls) - 1, int(len(calls) * quantile))]

    lines = [
        f"### {shape}",
        "",
        f"`sessions.jsonl` {megabytes:.1f} MB: {summary['sessions']:,} sessions, "
        f"{summary['calls']:,} calls, {summary['turns']:,} turns; calls per session median "
        f"{pick(0.5)}, p90 {pick(0.9)}, p99 {pick(0.99)}, max {calls[-1]}. `labels.jsonl` "
        f"{labels_mb:.1f} MB, {report['selection']['turns']:,} labelled turns. The report JSON: "
        f"{full_bytes / 1e6:.1f} MB full, {summary_bytes / 1e3:.0f} kB summary.",
        "",
    ]
    lines += table(
        times,
        [SEED_CHECKS, SEED_ALL, CHECK, REPORT, COMPACT, SUMMARY, PARSE, PARSE_ALL],
        megabytes,
        rss,
    )
    ratio = lambda name, base: times[name]["mean"] / times[base]["mean"]  # noqa: E731
    input_mb = (megabytes + labels_mb)
    lines += [
        "",
        f"Ratios: `check` {ratio(CHECK, PARSE):.2f}× parsing the sessions, `report --json` with "
        f"labels {ratio(REPORT, PARSE_ALL):.2f}× (on one line {ratio(COMPACT, PARSE_ALL):.2f}×, summary "
        f"{ratio(SUMMARY, PARSE_ALL):.2f}×) "
        f"parsing sessions and labels (target ≤ 1.5×); the seed's code takes "
        f"{ratio(SEED_CHECKS, CHECK):.1f}× `check`'s time and {ratio(SEED_ALL, REPORT):.1f}× "
        f"`report`'s (target ≥ 30×); `report --json` peaks at {rss[REPORT] / 1024:.0f} MB, "
        f"{rss[REPORT] / 1024 / input_mb:.1f}× its {input_mb:.1f} MB of input (target: at most "
        f"1.5× the input plus the {full_bytes / 1e6:.1f} MB report, "
        f"{1.5 * input_mb + full_bytes / 1e6:.0f} MB), and with `--summary` at "
        f"{rss[SUMMARY] / 1024:.0f} MB (target {1.5 * input_mb + summary_bytes / 1e6:.0f} MB).",
        "",
    ]
    return lines


def main() -> int:
    if sys.argv[1] == "--from-time":
        from_time(sys.argv[2], sys.argv[3], sys.argv[4:])
        return 0
    out = sys.argv[1]
    cpu_name = shell("lscpu | sed -n 's/^Model name: *//p'") or platform.processor()
    lines = [
        f"Machine: {shell('nproc')} cores ({cpu_name}), {memory_gib():.0f} GiB, load average "
        f"{load_average()} when summarised; {shell('rustc --version')}; "
        f"Python {platform.python_version()}, jsonschema {version('jsonschema')}.",
        "",
    ]
    for shape in SHAPES:
        if os.path.exists(os.path.join(out, shape, "times.json")):
            lines += shape_section(out, shape)
    write_and_print(os.path.join(out, "results.md"), lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
