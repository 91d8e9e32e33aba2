#!/usr/bin/env bash
# Judge benchmark (not a test): 1,000 judged calls against the fake provider
# (bench/judge-fake.mjs), which answers every request after a fixed latency. The CLI runs
# `toolscope judge --no-cache` at several concurrencies with 50 ms and with 0 ms of latency (0 ms:
# what the engine and the client cost per call), then once with a cache and again from it. The
# page (bench/judge-page.mjs) runs the same 1,000 calls in headless Chromium against HTTP/1.1 and
# HTTP/2, measures its main thread meanwhile, and sends as many requests from a plain JavaScript
# worker for the browser's own floor. Builds the release CLI, toolscope-gen and (unless SITE=dir
# names one already built by scripts/build-site) the release site. Output: Markdown tables on
# stdout; CONCURRENCIES="1 4" changes the CLI's.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=bench/out/judge
SITE="${SITE:-$OUT/site}"
BIN="${CARGO_TARGET_DIR:-target}/release"
CALLS=1000
CONCURRENCIES="${CONCURRENCIES:-1 4 8 16 32}"
PORT="${PORT:-8790}"
mkdir -p "$OUT"
cargo build --release -q -p toolscope-cli -p toolscope-gen
[ -f "$SITE/index.html" ] || DIST="$SITE" bash scripts/build-site >&2
# The demo set: 300 sessions, 1,346 calls; the judge takes a sample of 1,000 of them.
[ -f "$OUT/data/sessions.jsonl" ] || "$BIN/toolscope-gen" --out-dir "$OUT/data" >&2
(cd tests && [ -d node_modules ] || npm ci >&2)
case "$SITE" in /*) ;; *) SITE="$PWD/$SITE" ;; esac
case "$BIN" in /*) ;; *) BIN="$PWD/$BIN" ;; esac

fake_pid=
stop_fake() {
    [ -z "$fake_pid" ] || { kill "$fake_pid" 2>/dev/null; wait "$fake_pid" 2>/dev/null || true; }
    fake_pid=
}
trap stop_fake EXIT
FAKE=
start_fake() { # latency in ms, then `--http2` for HTTPS with HTTP/2
    stop_fake
    : >"$OUT/fake.log"
    node bench/judge-fake.mjs --port "$PORT" --latency-ms "$@" >"$OUT/fake.log" &
    fake_pid=$!
    until [ -s "$OUT/fake.log" ]; do
        kill -0 "$fake_pid" 2>/dev/null || { echo "judge.sh: the fake provider did not start" >&2; exit 2; }
        sleep 0.1
    done
    FAKE=$(cat "$OUT/fake.log")
}
# The requests the fake has answered so far and the most at once since the last call.
fake_counts() {
    local counts
    counts=$(curl -sfk "$FAKE/fake/requests")
    echo "$counts" | sed -E 's/.*"requests":([0-9]+),"max_in_flight":([0-9]+).*/\1 \2/'
}
# CPU seconds (user+sys) the fake has used so far.
fake_cpu() { awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($14 + $15) / hz }' "/proc/$fake_pid/stat"; }

# One CLI run: label, concurrency, latency, then extra judge options. Prints a table row.
judge_row() {
    local label=$1 concurrency=$2 latency=$3
    shift 3
    local before cpu_before in_flight
    read -r before in_flight < <(fake_counts)
    cpu_before=$(fake_cpu)
    (cd "$OUT/data" && /usr/bin/time -f '%e %U %S %M' -o ../time.txt \
        "$BIN/toolscope" judge --provider openai-compatible --model fake-model \
        --base-url "$FAKE/v1" --concurrency "$concurrency" \
        --sample "$CALLS" --seed 1 --tools tools.json --out ../verdicts.jsonl "$@" \
        sessions.jsonl >../judge.out 2>../judge.log) ||
        { cat "$OUT/judge.log" >&2; echo "judge.sh: toolscope judge failed" >&2; exit 2; }
    local sent fake_used after
    read -r after in_flight < <(fake_counts)
    sent=$((after - before))
    fake_used=$(awk -v a="$(fake_cpu)" -v b="$cpu_before" 'BEGIN { printf "%.2f", a - b }')
    read -r wall user sys rss <"$OUT/time.txt"
    awk -v label="$label" -v k="$concurrency" -v lat="$latency" -v n="$CALLS" -v sent="$sent" \
        -v wall="$wall" -v user="$user" -v sys="$sys" -v rss="$rss" -v fake="$fake_used" -v most="$in_flight" 'BEGIN {
        ideal = lat > 0 ? sprintf("%d", k * 1000 / lat) : "–"
        rate = sprintf("%.0f", n / wall)
        # No request, no rate: the plan alone (its CPU is the fixed cost of every run), or all
        # from the cache.
        if (sent == 0) { ideal = "–"; rate = "–" }
        if (label ~ /estimate/) k = "–"
        cpu = user + sys
        printf "%s | %s | %d ms | %d | %d | %d | %.2f s | %s | %s | %.2f s | %.3f ms | %.1f MB | %.2f s\n",
            label, k, lat, n, sent, most, wall, rate, ideal, cpu, cpu * 1000 / n, rss / 1024, fake
    }'
}

echo "CLI: \`toolscope judge\`, $CALLS calls (\`--sample $CALLS --seed 1\` of the 300-session demo set)"
echo
echo "run | concurrency | latency | calls | requests | most in flight | wall | calls/s | ideal calls/s | CLI CPU | CLI CPU per call | peak RSS | fake's CPU"
echo "---|---|---|---|---|---|---|---|---|---|---|---|---"
for latency in 50 0; do
    start_fake "$latency"
    judge_row "plan only (\`--estimate\`)" 1 "$latency" --estimate --no-cache
    for concurrency in $CONCURRENCIES; do
        judge_row "\`--no-cache\`" "$concurrency" "$latency" --no-cache
    done
done
start_fake 50
rm -f "$OUT/cache.jsonl"
judge_row "cache empty" 8 50 --cache ../cache.jsonl
judge_row "cache full" 8 50 --cache ../cache.jsonl
echo
# The page: against HTTP/1.1 (a browser opens at most 6 connections to one server), then against
# HTTP/2 as the hosted APIs speak it (the fake's certificate is self-signed).
page() { node bench/judge-page.mjs "$SITE" "$PWD/$OUT/data" "$FAKE" "$CALLS" "$@"; }
PAGE_CONCURRENCIES="4 8" page 50
start_fake 0
PAGE_CONCURRENCIES="4 8" page 0 --no-header
start_fake 50 --http2
PAGE_CONCURRENCIES="8 16" NODE_TLS_REJECT_UNAUTHORIZED=0 NODE_NO_WARNINGS=1 page 50 --no-header
