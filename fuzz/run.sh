#!/usr/bin/env bash
# Runs both fuzz targets, seeded from the project's own data, for SECONDS each
# (default 600) in parallel. Needs a nightly toolchain and cargo-fuzz:
#   cargo install cargo-fuzz && bash fuzz/run.sh 600
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-600}
mkdir -p corpus/load_entry corpus/validate_trace
cp ../corpus/papers/*.yaml ../exclusions/*.yaml corpus/load_entry/
cp ../traces/examples/*.json ../tests/fixtures/traces/*.json corpus/validate_trace/
cargo +nightly fuzz build
for t in load_entry validate_trace; do
  cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=65536 >"fuzz-$t.log" 2>&1 &
done
wait
for t in load_entry validate_trace; do
  echo "== $t"; grep -E "^(#[0-9]+ +DONE|Done|==[0-9]+== ERROR|SUMMARY)" "fuzz-$t.log" | tail -3
done
