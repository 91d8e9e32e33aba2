#!/usr/bin/env bash
# How fast toolscope is against the seeds' Python code and against merely parsing the file.
#
#   bash bench/compare.sh
#
# Builds toolscope and toolscope-gen in release and, for each of two shapes of data, generates
# >= 50 MB into bench/out/<shape>/ (git-ignored) with toolscope-gen --shape: `realistic`
# (text-heavy sessions of long-tailed length, 60 % labelled) and `call-dense` (many one-to-three
# turn sessions, 40-character results, 90 % labelled). On each it checks that the seed's code and
# toolscope count the same problems, then times, on the same files:
#   1. the seed's check_calls (+ selection_report) in Python     bench/seed_reference.py
#   2. toolscope check --tools --rules                            (every code check)
#   3. toolscope report --json --tools --rules --labels           (checks + selection, full JSON)
#   4. the same with --summary                                    (the summary report)
#   5. parsing every line into a serde_json::Value                toolscope-gen parse-baseline
#      (the sessions alone: check's floor; sessions and labels: report's floor)
# with hyperfine when it is installed (apt-get install hyperfine), else /usr/bin/time; max RSS
# always from /usr/bin/time. The tables go to bench/out/results.md.
#
# Environment: BENCH_SIZE (default 50M), BENCH_SEED (2025), BENCH_RUNS (3), and BENCH_OPT_LEVEL:
# empty builds with the workspace's release profile as it is; a level (e.g. 3) overrides its
# opt-level (the workspace sets "z" for the wasm build) in a target dir of its own,
# target/bench-o<level>, with results in bench/out/o<level>/.

set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

SIZE="${BENCH_SIZE:-50M}"
SEED="${BENCH_SEED:-2025}"
RUNS="${BENCH_RUNS:-3}"
OPT_LEVEL="${BENCH_OPT_LEVEL:-}"
OUT=bench/out
BIN=target/release

step() { printf '\n==> %s\n' "$*"; }

step "build (release; one cargo call, so both binaries use the same serde_json build)"
if [ -n "$OPT_LEVEL" ]; then
    export CARGO_PROFILE_RELEASE_OPT_LEVEL="$OPT_LEVEL"
    export CARGO_TARGET_DIR="target/bench-o$OPT_LEVEL"
    BIN="$CARGO_TARGET_DIR/release"
    OUT="bench/out/o$OPT_LEVEL"
    echo "release profile with opt-level=$OPT_LEVEL, in $CARGO_TARGET_DIR"
fi
cargo build --release -p toolscope-cli -p toolscope-gen

# time_commands JSON_OUT DIR: times NAMES[i] = COMMANDS[i], writing hyperfine's JSON shape (mean,
# stddev, user and system CPU seconds, each run's time).
time_commands() {
    local json="$1" dir="$2" i
    if command -v hyperfine >/dev/null 2>&1; then
        local args=()
        for i in "${!NAMES[@]}"; do
            args+=(-n "${NAMES[$i]}" "${COMMANDS[$i]}")
        done
        # -i: toolscope exits 1 when it finds problems, which it will.
        hyperfine --runs "$RUNS" --warmup 1 -i --export-json "$json" "${args[@]}"
        return
    fi
    echo "hyperfine not found: timing with /usr/bin/time"
    for i in "${!NAMES[@]}"; do
        : >"$dir/time-$i.txt"
        for _ in $(seq "$RUNS"); do
            # shellcheck disable=SC2086 # the command line is split on purpose
            /usr/bin/time -f '%e %U %S' -a -o "$dir/time-$i.txt" ${COMMANDS[$i]} >/dev/null 2>&1 || true
        done
        printf '%-40s %s\n' "${NAMES[$i]}" "$(cut -d' ' -f1 "$dir/time-$i.txt" | tr '\n' ' ')"
    done
    python3 bench/summarize.py --from-time "$dir" "$json" "${NAMES[@]}"
}

# Each shape of data gets its own folder: $OUT/realistic and $OUT/call-dense.
measure_shape() {
    local shape="$1" dir="$OUT/$1"
    step "$shape: generate $SIZE with seed $SEED into $dir"
    mkdir -p "$dir"
    "$BIN/toolscope-gen" --target-bytes "$SIZE" --seed "$SEED" --shape "$shape" --out-dir "$dir"
    local tools="$dir/tools.json" rules="$dir/rules.json" plain_rules="$dir/rules-plain.json"
    local sessions="$dir/sessions.jsonl" labels="$dir/labels.jsonl"

    step "$shape: agreement, the seed's code and toolscope on the same files (plain rules: the seed has no bindings)"
    python3 bench/seed_reference.py --tools "$tools" --rules "$plain_rules" --labels "$labels" \
        --json "$dir/seed-summary.json" "$sessions" >"$dir/seed-output.txt"
    # Exit status 1 means "problems found", which is expected here.
    "$BIN/toolscope" report --json --tools "$tools" --rules "$plain_rules" --labels "$labels" \
        "$sessions" >"$dir/toolscope-plain.json" || [ $? -eq 1 ]
    python3 bench/compare_counts.py "$dir/seed-summary.json" "$dir/toolscope-plain.json" "$sessions" |
        tee "$dir/agreement.txt" || AGREEMENT=1

    NAMES=(
        "seed (Python): checks"
        "seed (Python): checks + selection"
        "toolscope check"
        "toolscope report --json --labels"
        "toolscope report --json --compact --labels"
        "toolscope report --json --summary --labels"
        "parse only: sessions"
        "parse only: sessions + labels"
    )
    COMMANDS=(
        "python3 bench/seed_reference.py --tools $tools --rules $plain_rules $sessions"
        "python3 bench/seed_reference.py --tools $tools --rules $plain_rules --labels $labels $sessions"
        "$BIN/toolscope check --tools $tools --rules $rules $sessions"
        "$BIN/toolscope report --json --tools $tools --rules $rules --labels $labels $sessions"
        "$BIN/toolscope report --json --compact --tools $tools --rules $rules --labels $labels $sessions"
        "$BIN/toolscope report --json --summary --tools $tools --rules $rules --labels $labels $sessions"
        "$BIN/toolscope-gen parse-baseline $sessions"
        "$BIN/toolscope-gen parse-baseline $sessions $labels"
    )
    step "$shape: timings ($RUNS runs each, output to /dev/null)"
    time_commands "$dir/times.json" "$dir"

    step "$shape: max RSS (one more run each, /usr/bin/time)"
    {
        printf '{'
        for i in "${!NAMES[@]}"; do
            # shellcheck disable=SC2086 # the command line is split on purpose
            /usr/bin/time -f '%M' -o "$dir/rss-$i.txt" ${COMMANDS[$i]} >/dev/null 2>&1 || true
            if [ "$i" -gt 0 ]; then printf ','; fi
            printf '"%s": %s' "${NAMES[$i]}" "$(tail -n 1 "$dir/rss-$i.txt")"
        done
        printf '}\n'
    } >"$dir/rss.json"
    # The report's size, full and summary.
    "$BIN/toolscope" report --json --tools "$tools" --rules "$rules" --labels "$labels" \
        "$sessions" | wc -c >"$dir/report-bytes.txt" || true
    "$BIN/toolscope" report --json --summary --tools "$tools" --rules "$rules" --labels "$labels" \
        "$sessions" | wc -c >>"$dir/report-bytes.txt" || true
}

rm -rf "$OUT"
mkdir -p "$OUT"
AGREEMENT=0
measure_shape realistic
measure_shape call-dense

step "results (also in $OUT/results.md)"
python3 bench/summarize.py "$OUT"
if [ "$AGREEMENT" -ne 0 ]; then
    echo "note: the seed's code and toolscope disagree on some counts; see $OUT/*/agreement.txt"
fi
