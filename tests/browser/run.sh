#!/usr/bin/env bash
# Runs the browser tests: builds the binary, writes the page of `corpus site`
# for the shipped corpus and for a generated 10,000-entry corpus under
# target/browser/, installs the pinned playwright-core and marked (npm ci,
# local to tests/browser/), and drives Debian's Chromium against both pages
# (site.test.mjs) and against README.md rendered to HTML, where the first
# paper must start within the first 15 % of the page (readme.test.mjs).
# Screenshots and the measured timings land in target/browser/.
#
# Needs Node.js, npm and Chromium (`apt-get install chromium`, or set
# CHROMIUM=/path/to/chrome). Without a browser the test fails; it never skips.
#   bash tests/browser/run.sh [SCALE_ENTRIES]
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${1:-10000}
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "error: the browser test needs Node.js and npm" >&2
  exit 1
fi
cargo build --quiet --bin corpus --example gen_corpus
export CORPUS_BIN="$PWD/target/debug/corpus"
export OUT_DIR="$PWD/target/browser"
rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR"
"$CORPUS_BIN" site --out "$OUT_DIR/site"
export SITE_PAGE="$OUT_DIR/site/index.html"
export SCALE_ROOT="$OUT_DIR/scale"
target/debug/examples/gen_corpus "$n" "$SCALE_ROOT" >/dev/null
"$CORPUS_BIN" --root "$SCALE_ROOT" site --out "$OUT_DIR/scale-site"
export SCALE_PAGE="$OUT_DIR/scale-site/index.html"
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
status=0
node tests/browser/site.test.mjs || status=1
node tests/browser/readme.test.mjs || status=1
exit $status
