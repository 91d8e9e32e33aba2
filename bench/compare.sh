#!/usr/bin/env bash
# How fast toolscope is against the seeds' Python code and against merely parsing the file.
#
#   bash bench/compare.sh
#
# Builds toolscope and toolscope-gen in release, generates a >= 50 MB data set into bench/out/
# (git-ignored), checks that the seed's code and toolscope count the same problems on it, then
# times, on the same files:
#   1. the seed's check_calls (+ selection_report) in Python     bench/seed_reference.py
#   2. toolscope check --tools --rules                            (every code check)
#   3. toolscope report --json --tools --rules --labels           (checks + selection, full JSON)
#   4. parsing every line into a serde_json::Value                toolscope-gen parse-baseline
# with hyperfine when it is installed (apt-get install hyperfine), else /usr/bin/time; max RSS
# always from /usr/bin/time. Then 1, 2 and 4 again on a call-dense copy of the sessions
# (bench/densify.py: results and replies cut to 40 characters), to show how the comparison
# depends on the bytes each call carries. The tables go to bench/out/results.md.
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

step "generate $SIZE with seed $SEED into $OUT"
rm -rf "$OUT"
mkdir -p "$OUT"
"$BIN/toolscope-gen" --target-bytes "$SIZE" --seed "$SEED" --out-dir "$OUT"

TOOLS="$OUT/tools.json"
RULES="$OUT/rules.json"
PLAIN_RULES="$OUT/rules-plain.json"
SESSIONS="$OUT/sessions.jsonl"
LABELS="$OUT/labels.jsonl"

step "agreement: the seed's code and toolscope on the same files (plain rules: the seed has no bindings)"
python3 bench/seed_reference.py --tools "$TOOLS" --rules "$PLAIN_RULES" --labels "$LABELS" \
    --json "$OUT/seed-summary.json" "$SESSIONS" >"$OUT/seed-output.txt"
# Exit status 1 means "problems found", which is expected here.
"$BIN/toolscope" report --json --tools "$TOOLS" --rules "$PLAIN_RULES" --labels "$LABELS" \
    "$SESSIONS" >"$OUT/toolscope-plain.json" || [ $? -eq 1 ]
AGREEMENT=0
python3 bench/compare_counts.py "$OUT/seed-summary.json" "$OUT/toolscope-plain.json" "$SESSIONS" |
    tee "$OUT/agreement.txt" || AGREEMENT=$?

# time_commands JSON_OUT: times NAMES[i] = COMMANDS[i], writing hyperfine's JSON shape (mean,
# stddev, user and system CPU seconds, each run's time).
time_commands() {
    local json="$1" i
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
        : >"$OUT/time-$i.txt"
        for _ in $(seq "$RUNS"); do
            # shellcheck disable=SC2086 # the command line is split on purpose
            /usr/bin/time -f '%e %U %S' -a -o "$OUT/time-$i.txt" ${COMMANDS[$i]} >/dev/null 2>&1 || true
        done
        printf '%-40s %s\n' "${NAMES[$i]}" "$(cut -d' ' -f1 "$OUT/time-$i.txt" | tr '\n' ' ')"
    done
    python3 bench/summarize.py --from-time "$OUT" "$json" "${NAMES[@]}"
}

NAMES=(
    "seed (Python): checks"
    "seed (Python): checks + selection"
    "toolscope check"
    "toolscope report --json --labels"
    "parse only (serde_json::Value)"
)
COMMANDS=(
    "python3 bench/seed_reference.py --tools $TOOLS --rules $PLAIN_RULES $SESSIONS"
    "python3 bench/seed_reference.py --tools $TOOLS --rules $PLAIN_RULES --labels $LABELS $SESSIONS"
    "$BIN/toolscope check --tools $TOOLS --rules $RULES $SESSIONS"
    "$BIN/toolscope report --json --tools $TOOLS --rules $RULES --labels $LABELS $SESSIONS"
    "$BIN/toolscope-gen parse-baseline $SESSIONS"
)

step "timings ($RUNS runs each, output to /dev/null)"
time_commands "$OUT/times.json"

step "max RSS (one more run each, /usr/bin/time)"
{
    printf '{'
    for i in "${!NAMES[@]}"; do
        # shellcheck disable=SC2086 # the command line is split on purpose
        /usr/bin/time -f '%M' -o "$OUT/rss-$i.txt" ${COMMANDS[$i]} >/dev/null 2>&1 || true
        if [ "$i" -gt 0 ]; then printf ','; fi
        printf '"%s": %s' "${NAMES[$i]}" "$(tail -n 1 "$OUT/rss-$i.txt")"
    done
    printf '}\n'
} >"$OUT/rss.json"

step "call-dense copy of the sessions: results and replies cut to 40 characters, no tools field"
DENSE="$OUT/sessions-dense.jsonl"
python3 bench/densify.py "$SESSIONS" "$DENSE"
NAMES=(
    "seed (Python): checks"
    "toolscope check"
    "parse only (serde_json::Value)"
)
COMMANDS=(
    "python3 bench/seed_reference.py --tools $TOOLS --rules $PLAIN_RULES $DENSE"
    "$BIN/toolscope check --tools $TOOLS --rules $RULES $DENSE"
    "$BIN/toolscope-gen parse-baseline $DENSE"
)
time_commands "$OUT/times-dense.json"

step "results (also in $OUT/results.md)"
python3 bench/summarize.py "$OUT"
if [ "$AGREEMENT" -ne 0 ]; then
    echo "note: the seed's code and toolscope disagree on some counts; see $OUT/agreement.txt"
fi
