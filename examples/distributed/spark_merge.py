"""toolscope on Spark: one `toolscope report --json` per partition, then `toolscope merge`.

Spark's `textFile` cuts a JSON Lines file into consecutive ranges of whole lines, in order. With
one session per line (toolscope's native format, as toolscope-gen writes it) every partition is a
set of whole sessions, and the partitions in order are the file: `toolscope merge` of their
reports is the report of the file, `inputs` and each session's `origin` (the part file it was
read from) aside. This script checks exactly that against `toolscope report --json` of the whole
file, and prints the timings of both.

Each executor writes its partition's sessions and their labels to files, runs the CLI on them
and returns the report's path; in local mode the "shared storage" is a local directory (on a
cluster: a mounted volume, or upload the report to object storage instead).

    python3 spark_merge.py --toolscope target/release/toolscope --data DIR --out DIR [--partitions 8]

DIR holds toolscope-gen's output (tools.json, rules.json, sessions.jsonl, labels.jsonl).
"""

import argparse
import json
import os
import subprocess
import sys
import time


def report_of_partition(toolscope, data, out):
    """The function Spark runs on each partition: its sessions and their labels to files,
    `toolscope report --json` on them, and the report's path."""

    def run(index, lines):
        started = time.perf_counter()
        sessions, ids = [], set()
        for line in lines:
            if line.strip():
                sessions.append(line)
                ids.add(json.loads(line)["session_id"])
        if not sessions:
            return
        name = os.path.join(out, f"part-{index:05d}")
        with open(f"{name}.jsonl", "w", encoding="utf-8") as file:
            file.write("\n".join(sessions) + "\n")
        # Each part gets the labels of its own sessions only (a label for a session the part
        # does not have would be a diagnostic); a part with none gets no labels file.
        labels = []
        with open(os.path.join(data, "labels.jsonl"), encoding="utf-8") as file:
            for line in file:
                if line.strip() and json.loads(line).get("session_id") in ids:
                    labels.append(line)
        command = [toolscope, "report", "--json",
                   "--tools", os.path.join(data, "tools.json"),
                   "--rules", os.path.join(data, "rules.json")]
        if labels:
            with open(f"{name}-labels.jsonl", "w", encoding="utf-8") as file:
                file.writelines(labels)
            command += ["--labels", f"{name}-labels.jsonl"]
        with open(f"{name}.json", "wb") as report:
            done = subprocess.run(command + [f"{name}.jsonl"], stdout=report, check=False)
        # 1: problems found, which is what a report is for; 2: an input or usage error.
        if done.returncode not in (0, 1):
            raise RuntimeError(f"toolscope report on partition {index} exited {done.returncode}")
        yield index, f"{name}.json", len(sessions), time.perf_counter() - started

    return run


def without_file_names(path):
    """The report without what names the files read: `inputs` and each session's origin."""
    with open(path, encoding="utf-8") as file:
        report = json.load(file)
    del report["inputs"]
    for session in report["sessions"]:
        del session["origin"]
    return report


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--toolscope", required=True, help="the toolscope binary")
    parser.add_argument("--data", required=True, help="toolscope-gen's output directory")
    parser.add_argument("--out", required=True, help="where parts and reports go")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[*]")
    args = parser.parse_args()
    toolscope = os.path.abspath(args.toolscope)
    data, out = os.path.abspath(args.data), os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)

    # The single-machine run, for comparison.
    started = time.perf_counter()
    whole = os.path.join(out, "whole.json")
    with open(whole, "wb") as report:
        subprocess.run([toolscope, "report", "--json",
                        "--tools", os.path.join(data, "tools.json"),
                        "--rules", os.path.join(data, "rules.json"),
                        "--labels", os.path.join(data, "labels.jsonl"),
                        os.path.join(data, "sessions.jsonl")], stdout=report, check=False)
    single = time.perf_counter() - started

    from pyspark.sql import SparkSession  # imported here: the single-machine run needs no Spark

    started = time.perf_counter()
    spark = (SparkSession.builder.master(args.master).appName("toolscope-merge")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark_up = time.perf_counter() - started

    started = time.perf_counter()
    lines = spark.sparkContext.textFile(os.path.join(data, "sessions.jsonl"), args.partitions)
    parts = sorted(lines.mapPartitionsWithIndex(report_of_partition(toolscope, data, out)).collect())
    reports = time.perf_counter() - started
    spark.stop()

    started = time.perf_counter()
    merged = os.path.join(out, "merged.json")
    with open(merged, "wb") as report:
        subprocess.run([toolscope, "merge"] + [path for _, path, _, _ in parts],
                       stdout=report, check=True)
    merging = time.perf_counter() - started

    is_equal = without_file_names(merged) == without_file_names(whole)
    summary = without_file_names(merged)["summary"]
    print(f"partitions: {len(parts)} ({', '.join(str(n) for _, _, n, _ in parts)} sessions)")
    print(f"sessions {summary['sessions']}, calls {summary['calls']}, "
          f"problems {summary['problems']}, tool errors {summary['tool_errors']['errors']}")
    print(f"single machine: toolscope report --json          {single:7.2f} s")
    print(f"spark: session start                             {spark_up:7.2f} s")
    print(f"spark: report per partition (slowest {max(t for *_, t in parts):.2f} s)  {reports:7.2f} s")
    print(f"toolscope merge                                  {merging:7.2f} s")
    print(f"spark total (start + partitions + merge)         {spark_up + reports + merging:7.2f} s")
    print("merged report equals the whole's (inputs and origins aside):", is_equal)
    return 0 if is_equal else 1


if __name__ == "__main__":
    sys.exit(main())
