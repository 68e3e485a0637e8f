#!/usr/bin/env bash
# Times `corpus trace import --from otlp` on generated OTLP JSON Lines of
# 10k, 100k and 1M GenAI spans (examples/gen_otlp.rs; one trace, waves of an
# orchestrator and 8 parallel workers); prints spans, input size, wall time,
# spans per second, MB/s (MB = 10^6 bytes), peak resident memory and that
# peak as a multiple of the size read (`x size`; the goal for an import is at
# most 1.5 at 1M spans). The
# import includes validating its own output with the trace rules; the size
# of the written trace and a `trace validate` of it are printed too. With GNU
# time, CPU seconds (user + system) are printed as well: on a shared machine
# they vary less than wall time. (Writing --out syncs the file to disk.)
#
#   bash benches/otlp_bench.sh
#   OTLP_BENCH_SIZES="10000" bash benches/otlp_bench.sh
#   OTLP_BENCH_DIR=/tmp/otlp bash benches/otlp_bench.sh   # keep the files
#   OTLP_BENCH_BIN=/tmp/old/corpus bash benches/otlp_bench.sh   # time another build
#
# Peak memory comes from GNU time (/usr/bin/time) when present, else n/a.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes="${OTLP_BENCH_SIZES:-10000 100000 1000000}"
if [ -n "${OTLP_BENCH_DIR:-}" ]; then
  dir="$OTLP_BENCH_DIR"
  mkdir -p "$dir"
else
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi

cargo build --release --quiet --bin corpus --example gen_otlp
bin="${OTLP_BENCH_BIN:-target/release/corpus}"
gen="target/release/examples/gen_otlp"
gnu_time=""
if /usr/bin/time -f "%M" -o /dev/null true 2>/dev/null; then
  gnu_time="/usr/bin/time"
fi

# timed LABEL SPANS BYTES CMD...: runs CMD once, prints one row; fails the bench on a non-zero exit.
timed() {
  local label="$1" spans="$2" bytes="$3"
  shift 3
  local start end status=0 kb="n/a" cpu="n/a"
  start=$(date +%s%N)
  if [ -n "$gnu_time" ]; then
    "$gnu_time" -f "%M %U %S" -o "$dir/peak" "$@" >/dev/null 2>"$dir/stderr" || status=$?
    read -r kb user sys < <(tail -n 1 "$dir/peak")
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
  else
    "$@" >/dev/null 2>"$dir/stderr" || status=$?
  fi
  end=$(date +%s%N)
  if [ "$status" -ne 0 ]; then
    echo "$label exited $status:" >&2
    tail -n 5 "$dir/stderr" >&2
    exit 1
  fi
  awk -v l="$label" -v n="$spans" -v b="$bytes" -v ns="$((end - start))" -v kb="$kb" -v cpu="$cpu" 'BEGIN {
    s = ns / 1e9
    peak = kb == "n/a" ? "n/a" : sprintf("%.0f", kb / 1024)
    ratio = kb == "n/a" ? "n/a" : sprintf("%.2f", kb * 1024 / b)
    per_cpu = (cpu == "n/a" || cpu == 0) ? "n/a" : sprintf("%.0f", n / cpu)
    printf "%-9s %9d %9.1f %8.2f %11.0f %8.1f %8s %12s %9s %8s\n", l, n, b / 1e6, s, n / s, b / 1e6 / s, cpu, per_cpu, peak, ratio
  }'
}

printf "%-9s %9s %9s %8s %11s %8s %8s %12s %9s %8s\n" command spans "size MB" "wall s" "spans/s" "MB/s" "cpu s" "spans/cpu-s" "peak MiB" "x size"
for n in $sizes; do
  in="$dir/otlp-$n.jsonl"
  out="$dir/trace-$n.json"
  "$gen" "$n" "$in" 2>/dev/null
  bytes=$(wc -c <"$in")
  spans=$(( (n - 1) / 42 * 42 + 1 ))
  rm -f "$out"
  timed import "$spans" "$bytes" "$bin" trace import --max-trace-size 2000000000 --from otlp "$in" --out "$out"
  out_bytes=$(wc -c <"$out")
  timed validate "$spans" "$out_bytes" "$bin" trace validate --max-trace-size 2000000000 "$out"
done
