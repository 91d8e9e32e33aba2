#!/usr/bin/env python3
"""Every figure issue 15 sets a target for, both shapes of data side by side, from one run of
bench/all.sh: bench/compare.sh's CLI measurements (OUT/realistic, OUT/call-dense), bench/page.sh's
page measurements (OUT/page/results.json, written by bench/page-load.mjs with RESULTS_JSON) and
the site's wasm files (OUT/page/site). Writes OUT/overview.md and prints it.

usage: overview.py OUT_DIR
"""

import glob
import gzip
import json
import os
import sys

from summarize import (
    CHECK, PARSE, PARSE_ALL, REPORT, SEED_ALL, SEED_CHECKS, SUMMARY, cpu, load, load_average,
    write_and_print,
)

SHAPES = ["realistic", "call-dense"]
# bench/page.sh's 100 MB file of each shape.
PAGE_FILES = {"realistic": "100M/sessions.jsonl", "call-dense": "100M-call-dense/sessions.jsonl"}


def cli_figures(out: str, shape: str) -> dict:
    folder = os.path.join(out, shape)
    times = {r["command"]: r for r in load(os.path.join(folder, "times.json"))["results"]}
    rss = load(os.path.join(folder, "rss.json"))
    input_mb = sum(
        os.path.getsize(os.path.join(folder, name)) / 1e6
        for name in ("sessions.jsonl", "labels.jsonl")
    )
    with open(os.path.join(folder, "report-bytes.txt"), encoding="utf-8") as file:
        full_bytes, summary_bytes = (int(line) for line in file.read().split())

    def ratio(name: str, base: str) -> str:
        return f"{cpu(times[name]) / cpu(times[base]):.2f}× ({cpu(times[name]):.2f} s)"

    def memory(name: str, report_bytes: int) -> str:
        peak = rss[name] / 1024
        target = 1.5 * input_mb + report_bytes / 1e6
        return f"{peak:.0f} MB of {target:.0f} MB"

    return {
        "check ÷ parsing the sessions (CPU; target ≤ 1.5×)": ratio(CHECK, PARSE),
        "report --json --labels ÷ parsing sessions and labels (CPU; ≤ 1.5×)": ratio(
            REPORT, PARSE_ALL
        ),
        "report --json --summary --labels ÷ the same (CPU; ≤ 1.5×)": ratio(SUMMARY, PARSE_ALL),
        "the seed's Python ÷ check (CPU; target ≥ 30×)": (
            f"{cpu(times[SEED_CHECKS]) / cpu(times[CHECK]):.1f}×"
        ),
        "the seed's Python with selection ÷ report --json (CPU; ≥ 30×)": (
            f"{cpu(times[SEED_ALL]) / cpu(times[REPORT]):.1f}×"
        ),
        "report --json: peak memory of 1.5× input + report": memory(REPORT, full_bytes),
        "report --json --summary: peak memory of 1.5× input + report": memory(
            SUMMARY, summary_bytes
        ),
    }


def page_figures(out: str, shape: str) -> dict:
    path = os.path.join(out, "page", "results.json")
    if not os.path.exists(path):
        return {}
    results = load(path)["results"]
    found = [r for r in results if r["file"].endswith(PAGE_FILES[shape])]
    if not found:
        return {}
    r = found[0]
    return {
        "page ÷ CLI, 105 MB, file given to report shown (median; target ≤ 1.5×)": (
            f"{r['page_median_s'] / r['cli_median_s']:.2f}× "
            f"({r['page_median_s']:.2f} s / {r['cli_median_s']:.2f} s)"
        ),
        "page: browser memory grown ÷ the file (median; target ≤ 3×)": (
            f"{r['memory_grown_bytes'] / r['bytes']:.1f}×"
        ),
        "page: longest main-thread task while loading (target ≤ 50 ms)": (
            f"{r['longest_task_ms']:.0f} ms ({r['tasks_over_50ms']} over 50 ms)"
        ),
    }


def bundle(out: str) -> str:
    sizes = []
    for wasm in sorted(glob.glob(os.path.join(out, "page", "site", "*.wasm"))):
        with open(wasm, "rb") as file:
            sizes.append((os.path.basename(wasm), len(gzip.compress(file.read(), 9))))
    if not sizes:
        return ""
    parts = ", ".join(f"{name} {size / 1e3:,.0f} kB" for name, size in sizes)
    total = sum(size for _, size in sizes)
    return f"Bundle (gzip -9, target ≤ 1 MB together): {total / 1e6:.2f} MB ({parts})."


def main() -> int:
    out = sys.argv[1]
    figures = {
        shape: {**cli_figures(out, shape), **page_figures(out, shape)}
        for shape in SHAPES
        if os.path.exists(os.path.join(out, shape, "times.json"))
    }
    names = list(dict.fromkeys(name for shape in figures.values() for name in shape))
    lines = [
        "| figure | " + " | ".join(figures) + " |",
        "|---|" + "---|" * len(figures),
    ]
    for name in names:
        cells = [figures[shape].get(name, "") for shape in figures]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", bundle(out), "", f"Load average when summarised: {load_average()}."]
    write_and_print(os.path.join(out, "overview.md"), lines)
    return 0


if __name__ == "__main__":
    sys.exit(main())
