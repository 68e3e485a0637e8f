#!/usr/bin/env bash
# Times the everyday commands on the shipped corpus: median, min and max wall
# time over RUNS runs (default 20) of the release binary. Run from anywhere:
#   bash benches/shipped_bench.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
cargo build --release --quiet
bin=target/release/corpus
for cmd in "check --strict" "build" "build --check" "stats --format json"; do
  times=()
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    # shellcheck disable=SC2086
    "$bin" $cmd >/dev/null 2>&1 || true
    times+=($(( ($(date +%s%N) - start) / 1000 )))
  done
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  n=${#sorted[@]}
  awk -v c="$cmd" -v med="${sorted[$((n / 2))]}" -v lo="${sorted[0]}" -v hi="${sorted[$((n - 1))]}" -v n="$n" \
    'BEGIN { printf "%-20s median %6.1f ms  min %6.1f ms  max %6.1f ms  (%d runs)\n", c, med / 1000, lo / 1000, hi / 1000, n }'
done
