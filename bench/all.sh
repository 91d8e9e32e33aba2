#!/usr/bin/env bash
# Every figure of issue 15's targets in one run, both shapes of data side by side:
#   bash bench/all.sh
# runs bench/compare.sh (the CLI against parsing alone and the seed's Python, peak memory), then
# bench/page.sh (the release site in headless Chromium against the CLI, browser memory, the
# main thread, the wasm sizes), and writes bench/out/overview.md (bench/overview.py): one table of
# ratios with their targets. Takes 10–15 minutes on two quiet cores (plus building the site once).
# DELAY_MS and REPEAT go to bench/page.sh (default here: DELAY_MS=1500, closer to a user).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash bench/compare.sh
mkdir -p bench/out/page
DELAY_MS="${DELAY_MS:-1500}" RESULTS_JSON="$PWD/bench/out/page/results.json" \
    bash bench/page.sh | tee bench/out/page/results.md
python3 bench/overview.py bench/out
