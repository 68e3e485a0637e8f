#!/usr/bin/env bash
# Scale benchmark, in one run, on two series of corpora:
#   - grown: the shipped entries themselves, copied until the corpus holds N
#     entries (examples/grow_corpus.rs: each copy with a new key, title, arXiv
#     id, URLs and year, everything else kept, `added_in: after_publication`),
#     with the shipped survey, claims, links, templates and traces beside them:
#     what contributors and CI actually run on;
#   - simple: the synthetic generator (examples/gen_corpus.rs), shorter
#     entries without notes, judgement sources or waivers.
# For each size it prints
#   - the read floor: reading the same files and nothing else
#     (`tar cf - corpus exclusions | cat >/dev/null`, warm page cache);
#   - `build` with nothing changed (the build record lets it stop early);
#   - the full path, as a fresh clone or CI meets it (`--no-cache`: no build
#     record) with one entry's bytes changed before every run: `build`,
#     `check --strict` with the outputs stale (an entry's one-liner edited
#     once, so check renders and reports the difference), `stats --format json`
#     and `site` (into a folder of its own);
#   - µs per entry two ways: the run's time over its entries, and what each
#     entry added since the size before (the start-up and the fixed files
#     left out, so a flat column means the cost grows with the entries only);
#   - the Python yardstick (benches/yardstick.py: PyYAML's libyaml loader,
#     load and count) where python3 with PyYAML is present;
# each as the median wall time over RUNS runs with the spread, peak memory
# (/usr/bin/time, when present), the ratio to the floor and,
# for sizes up to CALLGRIND_MAX (default 10000) when valgrind is installed,
# the instructions executed (a count that does not drift with the load).
# Before the sizes, the shipped corpus's full-path `build` is timed against
# the survey's own scripts when SURVEY_DIR names a local copy of the
# survey's artifact (this script never downloads it).
#
#   bash benches/corpus_bench.sh [SIZES...]        # 1000 10000 100000; RUNS=3
#   SERIES=grown RUNS=5 bash benches/corpus_bench.sh 100000
#   SURVEY_DIR=/path/to/awesome-llm-mas-rl bash benches/corpus_bench.sh 1000
#   TRACE_SIZES= bash benches/corpus_bench.sh 1000   # no trace rows
#   CORPUS_BIN=/path/to/older/corpus bash benches/corpus_bench.sh 100000
#   YARDSTICK=0 bash benches/corpus_bench.sh 100000  # no Python yardstick rows
#
# Wall times on a shared machine drift; the ratios to the floor, measured in
# the same run, are the figures to compare across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -gt 0 ]; then sizes=("$@"); else sizes=(1000 10000 100000); fi
runs=${RUNS:-3}
read -r -a series_names <<<"${SERIES:-grown simple}"
callgrind_max=${CALLGRIND_MAX:-10000}
cargo build --release --quiet
cargo build --release --quiet --example gen_corpus --example grow_corpus
# CORPUS_BIN measures another build of the tool (an earlier commit's, for a before/after).
bin=${CORPUS_BIN:-$PWD/target/release/corpus}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A throw-away store of build records, and never CI's rule of no records.
export CORPUS_CACHE_DIR="$work/store"
unset CI
gnu_time=""
if /usr/bin/time -f "%M" -o /dev/null true 2>/dev/null; then
  gnu_time="/usr/bin/time"
fi
valgrind_ok=""
if command -v valgrind >/dev/null; then valgrind_ok=1; fi
python_ok=""
if [ "${YARDSTICK:-1}" != 0 ] && command -v python3 >/dev/null && python3 -c "import yaml" 2>/dev/null; then
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
  instr="-"
}

# instructions CMD...: one run under callgrind (after an edit when EDIT is set); sets instr (millions).
instructions() {
  instr="-"
  if [ -n "$valgrind_ok" ] && [ "$n" -le "$callgrind_max" ]; then
    if [ -n "${EDIT:-}" ]; then printf '# bench edit callgrind\n' >>"$EDIT"; fi
    valgrind --tool=callgrind --callgrind-out-file="$work/cg" "$@" >/dev/null 2>"$work/cg.err" || true
    instr=$(awk '/Collected :/ { printf "%.0fM", $NF / 1e6 }' "$work/cg.err")
  fi
}

# What each entry added, from the size before in the same series and work:
# us/entry divides a run's whole time, the start-up and the fixed files with
# it, so a small corpus shows more per entry than the work of an entry costs.
declare -A before_ms before_n
row() { # label
  local ratio added="-" key="$s/$1"
  ratio=$(awk -v m="$med" -v f="$floor" 'BEGIN { if (f > 0) printf "%.2f", m / f; else print "n/a" }')
  if [ -n "${before_n[$key]:-}" ] && [ "$n" -gt "${before_n[$key]}" ]; then
    added=$(((med - before_ms[$key]) * 1000 / (n - before_n[$key])))
  fi
  before_ms[$key]=$med
  before_n[$key]=$n
  printf '%-7s %8s  %-24s %9s %13s %9s %8s %8s %8s %12s\n' "$s" "$n" "$1" "$med" "$lo-$hi" "$peak" \
    "$((med * 1000 / n))" "$added" "$ratio" "$instr"
}

# The shipped corpus against the survey's own scripts.
shipped="$work/shipped"
mkdir -p "$shipped"
for d in corpus exclusions templates traces stats README.md; do
  if [ -e "$d" ]; then cp -r "$d" "$shipped/"; fi
done
"$bin" --root "$shipped" build >/dev/null
runs_were=$runs
runs=${SHIPPED_RUNS:-9}
EDIT=$(find "$shipped/corpus/papers" -name '*.yaml' | sort | awk 'NR == 1') \
  series shipped "$bin" --no-cache --root "$shipped" build
shipped_med=$med
printf 'shipped corpus, build full path (--no-cache, entry edited): median %s ms (%s-%s), peak %s MiB\n' \
  "$med" "$lo" "$hi" "$peak"
if [ -n "${SURVEY_DIR:-}" ]; then
  series survey bash -c "python3 '$SURVEY_DIR/scripts/generate_stats.py' && python3 '$SURVEY_DIR/scripts/generate_readme_papers.py' --check"
  awk -v s="$med" -v b="$shipped_med" 'BEGIN {
    printf "survey scripts (generate_stats.py + generate_readme_papers.py --check): median %s ms; corpus build / survey = 1/%.0f\n",
      s, (b > 0 ? s / b : 0) }'
else
  echo "note: SURVEY_DIR not set; the survey scripts' yardstick is skipped"
fi
runs=$runs_were
echo

printf '%-7s %8s  %-24s %9s %13s %9s %8s %8s %8s %12s\n' series entries work median_ms spread_ms peak_MiB us/entry us/added x_floor instructions
for s in "${series_names[@]}"; do
  for n in "${sizes[@]}"; do
    root="$work/$s$n"
    if [ "$s" = grown ]; then
      target/release/examples/grow_corpus "$n" "$root" >/dev/null
    else
      target/release/examples/gen_corpus "$n" "$root" >/dev/null
    fi
    # Let the generator's writes reach the disk so they do not compete with the runs.
    sync
    series floor bash -c "cd '$root' && tar cf - corpus exclusions | cat >/dev/null"
    floor=$med
    row "read floor"
    runs_were=$runs
    runs=1
    # The grown locators file passes the default 4 MiB limit near 30k
    # entries (15 MB at 100k): the limit is raised so that every size builds.
    big=(--max-file-size 268435456)
    series first "$bin" "${big[@]}" --root "$root" build
    runs=$runs_were
    row "build, first"
    if [ ! -e "$root/README.md" ]; then
      echo "warning: the first build of $s $n failed; the rows below time a failing run"
    fi
    series build "$bin" "${big[@]}" --root "$root" build
    row "build, nothing changed"
    entry=$(find "$root/corpus/papers" -name '*.yaml' | sort | awk 'NR == 1')
    full=("$bin" "${big[@]}" --no-cache --root "$root")
    EDIT=$entry series "build full" "${full[@]}" build
    EDIT=$entry instructions "${full[@]}" build
    row "build, full path"
    # The outputs go stale: an entry's one-liner changes once.
    sed -i 's/^one_liner: /one_liner: Edited. /' "$entry"
    EDIT=$entry series "check full" "${full[@]}" check --strict
    EDIT=$entry instructions "${full[@]}" check --strict
    row "check, outputs stale"
    EDIT=$entry series stats "${full[@]}" stats --format json
    EDIT=$entry instructions "${full[@]}" stats --format json
    row "stats"
    EDIT=$entry series site "${full[@]}" site --out "$work/site"
    EDIT=$entry instructions "${full[@]}" site --out "$work/site"
    row "site"
    if [ -n "$python_ok" ]; then
      series python python3 benches/yardstick.py "$root"
      row "python+libyaml"
    fi
    rm -rf "$root" "$work/site"
  done
done
if [ -z "$python_ok" ]; then echo "note: python3 with PyYAML not found; the Python yardstick is skipped"; fi
trace_sizes=${TRACE_SIZES-1000000}
if [ -n "$trace_sizes" ]; then
  echo
  TRACE_BENCH_SIZES="$trace_sizes" bash benches/trace_bench.sh
fi
