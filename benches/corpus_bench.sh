#!/usr/bin/env bash
# Scale benchmark: generates synthetic corpora (1k, 10k and 100k entries by
# default) and, in one run, prints for each size
#   - the read floor: reading the same files and nothing else
#     (`tar cf - corpus exclusions | cat >/dev/null`, warm page cache);
#   - `build` once on the new corpus (everything written: "build, first");
#   - `build`, `check --strict`, `stats --format json` and `site`: median wall
#     time over RUNS runs with the spread (min-max), peak memory, time per
#     entry and the ratio to the floor. With nothing changed, `build` stops
#     before parsing and `check` skips rendering (the build fingerprint); the "full path"
#     rows change one entry's bytes (a comment line) before every run, so
#     everything is recomputed though nothing is written;
#   - the Python yardstick (benches/yardstick.py: PyYAML's libyaml loader,
#     load and count) where python3 with PyYAML is present, else a note;
#   - then the trace benchmark (benches/trace_bench.sh) at TRACE_SIZES
#     events (default 1000000; empty to skip): MB/s and peak ÷ file size.
#
#   bash benches/corpus_bench.sh [SIZES...]          # RUNS=3 by default
#   RUNS=5 bash benches/corpus_bench.sh 100000
#   TRACE_SIZES= bash benches/corpus_bench.sh 1000   # no trace rows
#
# Wall times on a shared machine drift; the ratios to the floor, measured in
# the same run, are the figures to compare across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1000 10000 100000); fi
runs=${RUNS:-3}
cargo build --release --quiet
cargo build --release --quiet --example gen_corpus
bin=$PWD/target/release/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A throw-away store of build records, and never CI's rule of no records.
export CORPUS_CACHE_DIR="$work/store"
unset CI
gnu_time=""
if /usr/bin/time -f "%M" -o /dev/null true 2>/dev/null; then
  gnu_time="/usr/bin/time"
fi
python_ok=""
if command -v python3 >/dev/null && python3 -c "import yaml" 2>/dev/null; then
  python_ok=1
fi

# timed CMD...: one run; sets ms (wall) and kb (peak RSS, or n/a).
timed() {
  local start end
  kb="n/a"
  start=$(date +%s%N)
  if [ -n "$gnu_time" ]; then
    "$gnu_time" -f '%M' -o "$work/mem" "$@" >/dev/null 2>&1 || true
    kb=$(tail -n 1 "$work/mem")
  else
    "$@" >/dev/null 2>&1 || true
  fi
  end=$(date +%s%N)
  ms=$(((end - start) / 1000000))
}

# series NAME CMD...: RUNS runs; sets med, lo, hi (ms) and peak (MiB).
# With EDIT set to a file, a comment line is appended to it before each run.
series() {
  local name="$1"
  shift
  local times=() peak_kb=0
  for i in $(seq "$runs"); do
    if [ -n "${EDIT:-}" ]; then printf '# bench edit %s %s\n' "$name" "$i" >>"$EDIT"; fi
    timed "$@"
    times+=("$ms")
    if [ "$kb" != "n/a" ] && [ "$kb" -gt "$peak_kb" ]; then peak_kb=$kb; fi
  done
  local sorted
  mapfile -t sorted < <(printf '%s\n' "${times[@]}" | sort -n)
  med=${sorted[$((${#sorted[@]} / 2))]}
  lo=${sorted[0]}
  hi=${sorted[$((${#sorted[@]} - 1))]}
  if [ -n "$gnu_time" ]; then peak=$((peak_kb / 1024)); else peak="n/a"; fi
}

row() { # size name
  local ratio
  ratio=$(awk -v m="$med" -v f="$floor" 'BEGIN { if (f > 0) printf "%.2f", m / f; else print "n/a" }')
  printf '%8s  %-17s %9s %13s %9s %11s %9s\n' "$1" "$2" "$med" "$lo-$hi" "$peak" \
    "$((med * 1000 / $1))" "$ratio"
}

printf '%8s  %-17s %9s %13s %9s %11s %9s\n' entries work median_ms spread_ms peak_MiB us_per_entry x_floor
for n in "${sizes[@]}"; do
  root="$work/c$n"
  target/release/examples/gen_corpus "$n" "$root" >/dev/null
  # Let the generator's writes reach the disk so they do not compete with the runs.
  sync
  series floor bash -c "cd '$root' && tar cf - corpus exclusions | cat >/dev/null"
  floor=$med
  row "$n" "read floor"
  runs_were=$runs
  runs=1
  series first "$bin" --root "$root" build
  runs=$runs_were
  row "$n" "build, first"
  for cmd in "build" "check --strict" "stats --format json" "site"; do
    # shellcheck disable=SC2086
    series "$cmd" "$bin" --root "$root" $cmd
    row "$n" "${cmd%% *}"
  done
  entry=$(find "$root/corpus/papers" -name '*.yaml' | sort | awk 'NR == 1')
  for cmd in "build" "check --strict"; do
    # shellcheck disable=SC2086
    EDIT=$entry series "$cmd full" "$bin" --root "$root" $cmd
    row "$n" "${cmd%% *}, full path"
  done
  if [ -n "$python_ok" ]; then
    series python python3 benches/yardstick.py "$root"
    row "$n" "python+libyaml"
  else
    echo "note: python3 with PyYAML not found; the Python yardstick is skipped"
  fi
  rm -rf "$root"
done
trace_sizes=${TRACE_SIZES-1000000}
if [ -n "$trace_sizes" ]; then
  echo
  TRACE_BENCH_SIZES="$trace_sizes" bash benches/trace_bench.sh
fi
