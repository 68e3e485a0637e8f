#!/usr/bin/env bash
# Times `corpus trace validate` and `corpus trace metrics` on generated traces
# of 10k, 100k and 1M events; prints size, wall time, throughput (MB = 10^6
# bytes) and peak resident memory (also as a multiple of the file size).
# With GNU time it also prints CPU seconds (user + system) and MB per CPU
# second, which stay meaningful when other work shares the machine.
#
#   bash benches/trace_bench.sh                # all three sizes
#   TRACE_BENCH_SIZES="10000" bash benches/trace_bench.sh
#   TRACE_BENCH_DIR=/tmp/traces bash benches/trace_bench.sh   # keep the files
#
# Needs the release binary with the trace commands wired in; builds it and the
# generator (examples/gen_trace.rs). Peak memory comes from GNU time
# (/usr/bin/time) when present, else it is shown as n/a.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="${TRACE_BENCH_SIZES:-10000 100000 1000000}"
if [ -n "${TRACE_BENCH_DIR:-}" ]; then
  dir="$TRACE_BENCH_DIR"
  mkdir -p "$dir"
else
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi

cargo build --release --quiet --bin corpus --example gen_trace
bin="target/release/corpus"
gen="target/release/examples/gen_trace"
gnu_time=""
if /usr/bin/time -f "%M" -o /dev/null true 2>/dev/null; then
  gnu_time="/usr/bin/time"
fi

# run NAME FILE BYTES CMD...: times one run, fails the bench on a non-zero exit.
run() {
  local name="$1" file="$2" bytes="$3"
  shift 3
  local start end status=0 kb="n/a" cpu="n/a"
  start=$(date +%s%N)
  if [ -n "$gnu_time" ]; then
    "$gnu_time" -f "%M %U %S" -o "$dir/peak" "$@" >/dev/null || status=$?
    read -r kb user sys < <(tail -n 1 "$dir/peak")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
  else
    "$@" >/dev/null || status=$?
  fi
  end=$(date +%s%N)
  if [ "$status" -ne 0 ]; then
    echo "$name on $file exited $status" >&2
    exit 1
  fi
  awk -v n="$name" -v b="$bytes" -v ns="$((end - start))" -v kb="$kb" -v cpu="$cpu" -v ev="$events" 'BEGIN {
    s = ns / 1e9; mbs = b / 1e6 / s
    if (kb == "n/a") { peak = "n/a"; ratio = "n/a"; cpus = "n/a"; mbc = "n/a" }
    else {
      peak = sprintf("%.1f", kb / 1024); ratio = sprintf("%.2fx", kb * 1024 / b)
      cpus = sprintf("%.3f", cpu); mbc = cpu > 0 ? sprintf("%.1f", b / 1e6 / cpu) : "inf"
    }
    printf "%-9s %9d %9.1f %8.3f %9.1f %8s %9s %10s %9s\n", n, ev, b / 1e6, s, mbs, cpus, mbc, peak, ratio
  }'
}

printf "%-9s %9s %9s %8s %9s %8s %9s %10s %9s\n" command events "size MB" "wall s" "MB/s" "cpu s" "MB/cpu-s" "peak MiB" "peak/size"
for events in $sizes; do
  file="$dir/trace-$events.json"
  "$gen" "$events" "$file"
  # Let the generator's writes reach the disk so they do not compete with the runs.
  sync
  bytes=$(wc -c <"$file")
  run validate "$file" "$bytes" "$bin" trace validate "$file"
  run metrics "$file" "$bytes" "$bin" trace metrics "$file" --format json
done
