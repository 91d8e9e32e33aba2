#!/usr/bin/env bash
# Page benchmark: builds the release site (scripts/build-site) and the release CLI, generates
# 10 MB and 100 MB trace files (and 100 MB of the call-dense shape), and times the page against
# the CLI on them (bench/page-load.mjs).
# Prints the wasm sizes, gzipped. Output: a Markdown table on stdout.
# BIG=1 also loads a 1 GB file (1,000 MiB) of the realistic shape (once: REPEAT=1 for it), past V8's
# longest string and the whole-copy the worker once made.
# DELAY_MS=1500 gives each file once the page has been open that long (default: as soon as its
# worker is ready; bench/page-load.mjs); REPEAT=n loads each file n times (default 3).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# The binaries where cargo puts them (CARGO_TARGET_DIR moves them out of target/).
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
OUT=bench/out/page
# SITE=dir reuses a site already built by scripts/build-site.
SITE="${SITE:-$OUT/site}"
mkdir -p "$OUT"
[ -f "$SITE/index.html" ] || DIST="$SITE" bash scripts/build-site >&2
cargo build --release -q -p toolscope-cli -p toolscope-gen
for size in 10M 100M; do
    [ -f "$OUT/$size/sessions.jsonl" ] ||
        "$TARGET_DIR/release/toolscope-gen" --target-bytes "$size" --out-dir "$OUT/$size" >&2
done
# The call-dense shape too (docs/performance.md): many short sessions.
[ -f "$OUT/100M-call-dense/sessions.jsonl" ] ||
    "$TARGET_DIR/release/toolscope-gen" --target-bytes 100M --shape call-dense \
        --out-dir "$OUT/100M-call-dense" >&2
echo "wasm | bytes | gzipped"
echo "---|---|---"
for wasm in "$SITE"/*.wasm; do
    echo "$(basename "$wasm") | $(wc -c <"$wasm") | $(gzip -9 -c "$wasm" | wc -c)"
done
echo
(cd tests && [ -d node_modules ] || npm ci >&2)
case "$SITE" in /*) ;; *) SITE="$PWD/$SITE" ;; esac
node bench/page-load.mjs "$SITE" "$TARGET_DIR/release/toolscope" \
    "$PWD/$OUT/10M/sessions.jsonl" "$PWD/$OUT/100M/sessions.jsonl" \
    "$PWD/$OUT/100M-call-dense/sessions.jsonl"
if [ -n "${BIG:-}" ]; then
    [ -f "$OUT/1000M/sessions.jsonl" ] ||
        "$TARGET_DIR/release/toolscope-gen" --target-bytes 1000M --out-dir "$OUT/1000M" >&2
    echo
    REPEAT=1 node bench/page-load.mjs "$SITE" "$TARGET_DIR/release/toolscope" \
        "$PWD/$OUT/1000M/sessions.jsonl"
fi
