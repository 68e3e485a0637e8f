#!/usr/bin/env bash
# Times the everyday commands on the shipped corpus: median, min and max wall
# time over RUNS runs (default 20) of the release binary, peak memory, and
# the instructions each command executes (valgrind's callgrind, when
# installed: a count that does not drift with the machine's load).
#
#   bash benches/shipped_bench.sh [RUNS]
#   SURVEY_DIR=/path/to/awesome-llm-mas-rl bash benches/shipped_bench.sh
#
# With SURVEY_DIR set to a local copy of the survey's artifact (this script
# never downloads it), it also times the survey's own scripts on their own
# data (`generate_stats.py` and `generate_readme_papers.py --check`, the
# work `corpus build` replaces) and prints the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
cargo build --release --quiet
bin=target/release/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median_of CMD...: RUNS runs; sets med, lo, hi in microseconds.
median_of() {
  local times=() start sorted
  for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    times+=($((($(date +%s%N) - start) / 1000)))
  done
  mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
  med=${sorted[$((${#sorted[@]} / 2))]}
  lo=${sorted[0]}
  hi=${sorted[$((${#sorted[@]} - 1))]}
}

instructions() {
  if command -v valgrind >/dev/null; then
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || true
    awk '/Collected :/ { printf "%.1f M", $NF / 1e6 }' "$work/cg.err"
  else
    printf 'n/a'
  fi
}

peak_mib() {
  if /usr/bin/time -f "%M" -o "$work/mem" "$@" >/dev/null 2>&1 || [ -s "$work/mem" ]; then
    awk 'END { printf "%.1f", $1 / 1024 }' "$work/mem"
  else
    printf 'n/a'
  fi
}

printf '%-22s %10s %10s %10s %10s %14s\n' command median_ms min_ms max_ms peak_MiB instructions
build_med=0
for cmd in "check --strict" "build" "build --check" "stats --format json"; do
  # shellcheck disable=SC2086
  median_of "$bin" $cmd
  # shellcheck disable=SC2086
  printf '%-22s %10.1f %10.1f %10.1f %10s %14s\n' "$cmd" "$(awk -v v="$med" 'BEGIN{print v/1000}')" \
    "$(awk -v v="$lo" 'BEGIN{print v/1000}')" "$(awk -v v="$hi" 'BEGIN{print v/1000}')" \
    "$(peak_mib "$bin" $cmd)" "$(instructions "$bin" $cmd)"
  if [ "$cmd" = "build" ]; then build_med=$med; fi
done

if [ -n "${SURVEY_DIR:-}" ]; then
  survey() {
    python3 "$SURVEY_DIR/scripts/generate_stats.py" >/dev/null
    python3 "$SURVEY_DIR/scripts/generate_readme_papers.py" --check >/dev/null
  }
  median_of survey
  awk -v s="$med" -v b="$build_med" 'BEGIN {
    printf "%-22s %10.1f   (corpus build / survey scripts = %.3f, %.0fx faster)\n",
      "survey scripts", s / 1000, b / s, s / b }'
else
  echo "note: SURVEY_DIR not set; the survey scripts' yardstick is skipped"
fi
