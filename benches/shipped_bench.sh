#!/usr/bin/env bash
# Times the everyday commands on the shipped corpus: median, min and max wall
# time over RUNS runs (default 20) of the release binary, peak memory, and
# the instructions each command executes (valgrind's callgrind, when
# installed: a count that does not drift with the machine's load).
#
#   bash benches/shipped_bench.sh [RUNS]
#   SURVEY_DIR=/path/to/awesome-llm-mas-rl bash benches/shipped_bench.sh
#
# It works on a copy of the corpus (the repository is never touched). `build`
# and `check` are timed twice: with nothing changed since the last build (the
# build fingerprint, a record in the user's store (here a throw-away one), lets `build` stop
# before parsing and `check` skip rendering) and on the
# full path (one entry's bytes change before every run: a comment line is
# appended, so nothing is written but everything is recomputed). `build` is
# also timed as in a fresh clone, CI's case: full path with no build record
# at all (`--no-cache`, outputs present), the figure compared with the
# survey's scripts.
#
# With SURVEY_DIR set to a local copy of the survey's artifact (this script
# never downloads it), it also times the survey's own scripts on their own
# data (`generate_stats.py` and `generate_readme_papers.py --check`, the
# work `corpus build` replaces) and prints the ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-20}
cargo build --release --quiet
bin=$PWD/target/release/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
mkdir -p "$root"
for d in corpus exclusions templates traces stats README.md; do
  if [ -e "$d" ]; then cp -r "$d" "$root/"; fi
done
# A store of build records of its own, and never CI's rule of no records.
export CORPUS_CACHE_DIR="$work/store"
unset CI
"$bin" --root "$root" build >/dev/null
edited=$(find "$root/corpus/papers" -name '*.yaml' | sort | awk 'NR == 1')
edits=0

# edit: changes one entry's bytes (a comment line), not its data.
edit() {
  edits=$((edits + 1))
  printf '# bench edit %s\n' "$edits" >>"$edited"
}

# median_of MODE CMD...: RUNS runs (MODE "edit" edits an entry before each); sets med, lo, hi in microseconds.
median_of() {
  local mode="$1"
  shift
  local times=() start sorted
  for _ in $(seq "$runs"); do
    if [ "$mode" = edit ]; then edit; fi
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
  local mode="$1"
  shift
  if command -v valgrind >/dev/null; then
    if [ "$mode" = edit ]; then edit; fi
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || true
    awk '/Collected :/ { printf "%.1f M", $NF / 1e6 }' "$work/cg.err"
  else
    printf 'n/a'
  fi
}

peak_mib() {
  local mode="$1"
  shift
  if [ "$mode" = edit ]; then edit; fi
  if /usr/bin/time -f "%M" -o "$work/mem" "$@" >/dev/null 2>&1 || [ -s "$work/mem" ]; then
    awk 'END { printf "%.1f", $1 / 1024 }' "$work/mem"
  else
    printf 'n/a'
  fi
}

printf '%-34s %10s %10s %10s %10s %14s\n' command median_ms min_ms max_ms peak_MiB instructions
build_med=0
for spec in "same:check --strict" "same:build" "same:build --check" "same:stats --format json" \
  "edit:build" "edit:check --strict" "edit:--no-cache build"; do
  mode=${spec%%:*}
  cmd=${spec#*:}
  label="$cmd"
  if [ "$mode" = edit ]; then label="$cmd (full path: entry edited)"; fi
  if [ "$cmd" = "--no-cache build" ]; then label="build (fresh clone: no record)"; fi
  # shellcheck disable=SC2086
  median_of "$mode" "$bin" --root "$root" $cmd
  # shellcheck disable=SC2086
  printf '%-34s %10.1f %10.1f %10.1f %10s %14s\n' "$label" "$(awk -v v="$med" 'BEGIN{print v/1000}')" \
    "$(awk -v v="$lo" 'BEGIN{print v/1000}')" "$(awk -v v="$hi" 'BEGIN{print v/1000}')" \
    "$(peak_mib "$mode" "$bin" --root "$root" $cmd)" "$(instructions "$mode" "$bin" --root "$root" $cmd)"
  if [ "$cmd" = "--no-cache build" ]; then build_med=$med; fi
done

if [ -n "${SURVEY_DIR:-}" ]; then
  survey() {
    python3 "$SURVEY_DIR/scripts/generate_stats.py" >/dev/null
    python3 "$SURVEY_DIR/scripts/generate_readme_papers.py" --check >/dev/null
  }
  median_of same survey
  awk -v s="$med" -v b="$build_med" 'BEGIN {
    printf "%-34s %10.1f   (fresh-clone build / survey scripts = %.3f, %.0fx faster)\n",
      "survey scripts", s / 1000, b / s, s / b }'
else
  echo "note: SURVEY_DIR not set; the survey scripts' yardstick is skipped"
fi
