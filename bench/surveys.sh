#!/usr/bin/env bash
# Survey bench (issue 5) -> bench/results-surveys.md:
#  - submit and autosave API p50/p99 under a bounded concurrent load (bench/surveys_api.py, a
#    fresh demo portal on 127.0.0.1, release build when present, else debug),
#  - autosave to IndexedDB (encrypt + write) p50/p95 measured in Chromium by the runner itself
#    (performance.measure 'survey-device-write'): in normal use (tests/e2e/bench/
#    autosave-pace.bench.ts: answers at a person's pace, network up) and under the chaos spec
#    (100 offline flips, failed uploads, reloads),
#  - summary report PDF p50/p99 for a 100-question survey (api/examples/summary_pdf.rs: the shown
#    questions from wasm-core, then the PDF, as after a submission; release, LTO off).
# Needs web/dist and the portal binary built.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
source scripts/lib/portal.sh
BIN=target/release/portal-api
[ -x "$BIN" ] || BIN=target/debug/portal-api
TMP=$(mktemp -d /tmp/portal-bench-surveys.XXXXXX)
trap '[ -n "${PORTAL_PID:-}" ] && kill "$PORTAL_PID" 2>/dev/null; rm -rf "$TMP"' EXIT
start_portal "$BIN" "$TMP/portal.log" --database-url "sqlite://$TMP/demo.db" --web-dir web/dist --demo
API=$(python3 bench/surveys_api.py "$PORTAL_URL" 4 40)
export CARGO_PROFILE_RELEASE_LTO=${CARGO_PROFILE_RELEASE_LTO:-false} CARGO_PROFILE_RELEASE_CODEGEN_UNITS=${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-16}
cargo build -q --release -p portal-api --example summary_pdf
SUMMARY=$(target/release/examples/summary_pdf 1000 /tmp/bench-summary.pdf)
kill "$PORTAL_PID"; PORTAL_PID=
PACE=$(cd tests/e2e && PORTAL_BENCH=1 ./run-local.sh --project bench 2>&1 | grep -E "^autosave to IndexedDB" || true)
BROWSER=$(cd tests/e2e && ./run-local.sh surveys-chaos 2>&1 | grep -E "^autosave to IndexedDB|^chaos seed" || true)
{
  echo "# Survey bench ($(date -u +%Y-%m-%d), $(nproc) cores, binary: $BIN, SQLite)"
  echo
  echo "| call | requests | concurrency | p50 ms | p99 ms |"
  echo "|---|---|---|---|---|"
  echo "$API"
  echo
  echo "Chromium (headless, Debian), autosave in normal use (load average $(cut -d' ' -f1 /proc/loadavg)):"
  echo
  echo '```'
  echo "$PACE"
  echo '```'
  echo
  echo "Chromium (headless, Debian), chaos spec with 100 offline flips:"
  echo
  echo '```'
  echo "$BROWSER"
  echo '```'
  echo
  echo "Summary report PDF, 100-question survey (shown questions from wasm-core + lopdf, one thread; sample in /tmp/bench-summary.pdf):"
  echo
  echo '```'
  echo "$SUMMARY"
  echo '```'
} > bench/results-surveys.md
cat bench/results-surveys.md
