#!/usr/bin/env bash
# Scale benchmark: generates synthetic corpora of 1k, 10k and 100k entries and
# times `check`, `stats` and `build` on each, printing wall time, peak memory
# and time per entry. Run from the repository root:
#   bash benches/corpus_bench.sh [SIZES...]
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1000 10000 100000); fi
cargo build --release --quiet
cargo build --release --quiet --example gen_corpus
bin=target/release/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Peak resident memory of a command, in MiB, read from the kernel's accounting.
measure() {
  local start end
  start=$(date +%s%N)
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%M' -o "$work/mem" "$@" >/dev/null 2>&1 || true
    # GNU time prepends "Command exited with non-zero status N" when the command fails.
    mem=$(( $(tail -n 1 "$work/mem") / 1024 ))
  else
    "$@" >/dev/null 2>&1 || true
    mem="?"
  fi
  end=$(date +%s%N)
  ms=$(( (end - start) / 1000000 ))
}

printf '%-8s %-7s %10s %10s %14s\n' entries command wall_ms peak_MiB us_per_entry
for n in "${sizes[@]}"; do
  root="$work/c$n"
  target/release/examples/gen_corpus "$n" "$root" >/dev/null
  # Let the generator's writes reach the disk so they do not compete with the run.
  sync
  for cmd in "build" "check --strict" "stats --format json" "site"; do
    # shellcheck disable=SC2086
    measure "$bin" --root "$root" $cmd
    printf '%-8s %-7s %10s %10s %14s\n' "$n" "${cmd%% *}" "$ms" "$mem" "$(( ms * 1000 / n ))"
  done
  rm -rf "$root"
done
